//! Agents: what a child session runs. The sessions themselves are
//! `session::children`; this is the pure part, the plan an agent gets and
//! the ids children carry.
//!
//! A child runs the plan's `agents.<name>` overlay merged onto the parent's
//! plan, with its own coordinator, context and hooks. It carries the
//! parent's id in every event (`parent_id`), emits `session:fork`, follows
//! the parent's cancellation, and stays alive for the parent's lifetime so
//! it can be resumed by id. Policy (which tools a child gets, how deep
//! delegation may go) belongs to the module asking; the kernel only records
//! the depth.

use serde_json::Value;

use crate::ops::{AgentSummary, SpawnRequest};
use crate::plan::{ModuleSpec, MountPlan};

/// An agent's overlay is malformed; `at` is the field (`agents.a.tools[0]`).
#[derive(Debug, thiserror::Error)]
pub enum AgentPlanError {
    #[error("{at}: expected {expected}")]
    Shape { at: String, expected: &'static str },
    /// A module entry is a map that is not a module spec.
    #[error("{at}: {source}")]
    Spec { at: String, source: serde_json::Error },
}

/// The agent a child session runs, read from its id (see [`child_session_id`]).
pub fn agent_of_child(session_id: &str) -> Option<&str> {
    session_id.split_once('_').map(|(_, agent)| agent).filter(|agent| !agent.is_empty())
}

/// Upstream's child id scheme: `{parent-span16}-{child-span16}_{agent}`.
pub(crate) fn child_session_id(parent: &str, agent: &str) -> String {
    let span = |id: &str| id.chars().filter(char::is_ascii_hexdigit).take(16).collect::<String>();
    let child = uuid::Uuid::new_v4().simple().to_string();
    format!("{}-{}_{agent}", span(parent), &child[..16])
}

/// The agents a plan offers, with their descriptions, capabilities and the
/// mount names of their own providers.
pub fn agent_summaries(plan: &MountPlan) -> Vec<AgentSummary> {
    let strings = |value: Option<&Value>| -> Vec<String> {
        value.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
    };
    plan.agents
        .iter()
        .map(|(name, overlay)| AgentSummary {
            name: name.clone(),
            description: overlay.get("description").and_then(Value::as_str).unwrap_or_default().to_owned(),
            capabilities: strings(overlay.get("capabilities")),
            providers: overlay
                .get("providers")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|entry| match entry {
                    Value::String(module) => Some(module.clone()),
                    _ => entry
                        .get("instance_id")
                        .or_else(|| entry.get("module"))
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                })
                .collect(),
            settings: overlay
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(key, value)| !OVERLAY_KEYS.contains(&key.as_str()) && !value.is_object() && !value.is_array())
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        })
        .collect()
}

/// The overlay keys the kernel reads itself.
const OVERLAY_KEYS: &[&str] = &["description", "capabilities", "session", "providers", "tools", "hooks", "system"];

/// The parent's plan with the agent's overlay applied: `session.orchestrator`
/// and `session.context` replace the parent's; `providers`, `tools` and
/// `hooks` entries replace the parent's entry of the same mount name or are
/// added. Tool modules are then filtered by the request's policy.
pub fn agent_plan(
    parent: &MountPlan,
    agent: &str,
    overlay: &Value,
    request: &SpawnRequest,
) -> Result<MountPlan, AgentPlanError> {
    let at = format!("agents.{agent}");
    let overlay = overlay.as_object().ok_or_else(|| AgentPlanError::Shape { at: at.clone(), expected: "a map" })?;
    let mut plan = parent.clone();
    // A child's system message is its agent's own (`system.instruction`).
    plan.system = None;
    if let Some(session) = overlay.get("session").and_then(Value::as_object) {
        if let Some(spec) = session.get("orchestrator") {
            plan.session.orchestrator = spec_from_value(spec, &format!("{at}.session.orchestrator"))?;
        }
        if let Some(spec) = session.get("context") {
            plan.session.context = spec_from_value(spec, &format!("{at}.session.context"))?;
        }
    }
    // The request's allow-list, else the plan's `spawn.tools`.
    if let Some(allowed) = request.inherit_tools.as_ref().or(parent.spawn.tools.as_ref()) {
        plan.tools.retain(|t| allowed.contains(&t.module));
    }
    for (key, list) in [("providers", &mut plan.providers), ("tools", &mut plan.tools), ("hooks", &mut plan.hooks)] {
        let Some(entries) = overlay.get(key) else { continue };
        let entries = entries
            .as_array()
            .ok_or_else(|| AgentPlanError::Shape { at: format!("{at}.{key}"), expected: "a list" })?;
        for (index, entry) in entries.iter().enumerate() {
            let spec = spec_from_value(entry, &format!("{at}.{key}[{index}]"))?;
            match list.iter_mut().find(|existing| existing.mount_name() == spec.mount_name()) {
                Some(existing) => *existing = spec,
                None => list.push(spec),
            }
        }
    }
    let excluded =
        |module: &String| request.exclude_tools.contains(module) || parent.spawn.exclude_tools.contains(module);
    plan.tools.retain(|t| !excluded(&t.module));
    Ok(plan)
}

fn spec_from_value(value: &Value, field_path: &str) -> Result<ModuleSpec, AgentPlanError> {
    let mut spec = match value {
        Value::String(module) => ModuleSpec::new(module.clone()),
        Value::Object(_) => serde_json::from_value::<ModuleSpec>(value.clone())
            .map_err(|source| AgentPlanError::Spec { at: field_path.to_owned(), source })?,
        _ => {
            return Err(AgentPlanError::Shape {
                at: field_path.to_owned(),
                expected: "a module id or a map with `module`",
            })
        }
    };
    if spec.module.is_empty() {
        return Err(AgentPlanError::Shape { at: format!("{field_path}.module"), expected: "a non-empty string" });
    }
    spec.field_path = field_path.to_owned();
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{SessionSettings, SpawnPolicy};
    use serde_json::json;

    #[test]
    fn a_childs_agent_is_read_back_from_its_id() {
        let id = child_session_id("0123456789abcdef0123-parent", "code_reviewer");
        assert_eq!(agent_of_child(&id), Some("code_reviewer"));
        assert_eq!(agent_of_child("a-top-level-session"), None);
    }

    fn parent() -> MountPlan {
        let mut plan =
            MountPlan::new(SessionSettings::new(ModuleSpec::new("loop-basic"), ModuleSpec::new("context-simple")));
        plan.providers.push(ModuleSpec::new("provider-a"));
        plan.tools = vec![ModuleSpec::new("tool-echo"), ModuleSpec::new("tool-task"), ModuleSpec::new("tool-bash")];
        plan
    }

    #[test]
    fn overlay_replaces_by_mount_name_and_filters_tools() {
        let overlay = json!({
            "description": "writes things",
            "session": {"orchestrator": "loop-streaming"},
            "providers": [{"module": "provider-a", "config": {"model": "small"}}, {"module": "provider-b"}],
            "tools": [{"module": "tool-web"}]
        });
        let request = SpawnRequest { exclude_tools: vec!["tool-task".into()], ..SpawnRequest::default() };
        let plan = agent_plan(&parent(), "writer", &overlay, &request).unwrap();
        assert_eq!(plan.session.orchestrator.module, "loop-streaming");
        assert_eq!(plan.session.orchestrator.field_path, "agents.writer.session.orchestrator");
        assert_eq!(plan.providers.len(), 2);
        assert_eq!(plan.providers[0].config["model"], "small");
        let tools: Vec<&str> = plan.tools.iter().map(|t| t.module.as_str()).collect();
        assert_eq!(tools, ["tool-echo", "tool-bash", "tool-web"]);
    }

    #[test]
    fn the_plans_spawn_policy_filters_what_children_inherit() {
        let mut plan = parent();
        plan.spawn.exclude_tools = vec!["tool-task".into()];
        let child = agent_plan(&plan, "a", &json!({}), &SpawnRequest::default()).unwrap();
        let tools: Vec<&str> = child.tools.iter().map(|t| t.module.as_str()).collect();
        assert_eq!(tools, ["tool-echo", "tool-bash"]);
        plan.spawn = SpawnPolicy { exclude_tools: Vec::new(), tools: Some(vec!["tool-bash".into()]) };
        let child =
            agent_plan(&plan, "a", &json!({"tools": [{"module": "tool-web"}]}), &SpawnRequest::default()).unwrap();
        let tools: Vec<&str> = child.tools.iter().map(|t| t.module.as_str()).collect();
        assert_eq!(tools, ["tool-bash", "tool-web"], "the agent's own tools are added");
    }

    #[test]
    fn inherit_tools_is_an_allow_list_for_the_parents_tools() {
        let request = SpawnRequest { inherit_tools: Some(vec!["tool-echo".into()]), ..SpawnRequest::default() };
        let plan = agent_plan(&parent(), "a", &json!({"tools": [{"module": "tool-web"}]}), &request).unwrap();
        let tools: Vec<&str> = plan.tools.iter().map(|t| t.module.as_str()).collect();
        assert_eq!(tools, ["tool-echo", "tool-web"]);
    }

    #[test]
    fn malformed_overlays_name_the_field() {
        let err = agent_plan(&parent(), "a", &json!({"tools": {"module": "x"}}), &SpawnRequest::default()).unwrap_err();
        assert_eq!(err.to_string(), "agents.a.tools: expected a list");
        let err = agent_plan(&parent(), "a", &json!({"tools": [42]}), &SpawnRequest::default()).unwrap_err();
        assert_eq!(err.to_string(), "agents.a.tools[0]: expected a module id or a map with `module`");
    }

    #[test]
    fn agent_summaries_carry_capabilities_and_provider_mount_names() {
        let mut plan = parent();
        plan.agents.insert(
            "writer".into(),
            json!({"description": "writes", "capabilities": ["content.write"],
                   "providers": ["provider-a", {"module": "provider-b", "instance_id": "b2"}, {"module": "provider-c"}]}),
        );
        let summaries = agent_summaries(&plan);
        assert_eq!(summaries[0].capabilities, ["content.write"]);
        assert_eq!(summaries[0].providers, ["provider-a", "b2", "provider-c"]);
    }

    #[test]
    fn child_ids_follow_upstreams_scheme() {
        let id = child_session_id("0123456789abcdef-0123-4567-89ab-cdef01234567", "writer");
        let (spans, agent) = id.split_once('_').unwrap();
        assert_eq!(agent, "writer");
        let (parent, child) = spans.split_once('-').unwrap();
        assert_eq!(parent, "0123456789abcdef");
        assert_eq!(child.len(), 16);
    }
}
