//! The planner's output: one action of the union
//! `{action: plan_update, planPatch, note?}` | `{action: handoff, to,
//! capabilityId, payload, note?}` | `{action: final, bundle}` |
//! `{action: hitl_request, question, options?, note?}`.
//!
//! Validated with serde's internally tagged enum plus the checks a JSON
//! Schema would make (non-empty strings, object payloads, steps that name a
//! capability or `finalize`), without linking a schema validator into the
//! plugin.

use amplifier_sdk::Value;
use serde::Deserialize;

/// Marks the orchestrator's own instructions, so they can be found and
/// removed from anything that goes to a specialist.
pub const SENTINEL_START: &str = "ORCH_SYS_START";
pub const SENTINEL_END: &str = "ORCH_SYS_END";
pub const REDACTED: &str = "<<<REDACTED_ORCH>>>";

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    PlanUpdate {
        #[serde(rename = "planPatch")]
        plan_patch: PlanPatch,
        #[serde(default)]
        note: Option<String>,
    },
    Handoff {
        to: String,
        #[serde(rename = "capabilityId")]
        capability_id: String,
        payload: Value,
        #[serde(default)]
        note: Option<String>,
    },
    Final {
        #[serde(default)]
        bundle: Value,
        #[serde(default)]
        note: Option<String>,
    },
    /// A question for a person; the run pauses until it is answered.
    HitlRequest {
        question: String,
        #[serde(default)]
        options: Vec<String>,
        #[serde(default)]
        note: Option<String>,
    },
}

/// Changes to the plan: `steps` replaces every step not yet run, `add`
/// appends before the pending `finalize` step, `remove` drops pending steps.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanPatch {
    #[serde(default)]
    pub steps: Option<Vec<StepSpec>>,
    #[serde(default)]
    pub add: Vec<StepSpec>,
    #[serde(default)]
    pub remove: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StepSpec {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub capability_id: Option<String>,
    /// `finalize` for the closing step.
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default, alias = "to")]
    pub agent: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(default)]
    pub payload: Option<Value>,
    /// Accepted and ignored: a planner may echo a status.
    #[serde(default)]
    pub status: Option<String>,
}

/// Parses a planner reply into an action, or says what is wrong with it.
pub fn parse_action(reply: &str) -> Result<Action, String> {
    let json = extract_json(reply).ok_or_else(|| "the answer contains no JSON object".to_owned())?;
    let action: Action = serde_json::from_value(json).map_err(|err| format!("not a valid action: {err}"))?;
    check(&action)?;
    Ok(action)
}

fn check(action: &Action) -> Result<(), String> {
    match action {
        Action::PlanUpdate { plan_patch, .. } => {
            if plan_patch.steps.is_none() && plan_patch.add.is_empty() && plan_patch.remove.is_empty() {
                return Err("planPatch must have `steps`, `add` or `remove`".into());
            }
            let specs = plan_patch.steps.iter().flatten().chain(&plan_patch.add);
            for (index, spec) in specs.enumerate() {
                let finalize = spec.action.as_deref() == Some("finalize");
                if let Some(other) = spec.action.as_deref().filter(|a| *a != "finalize") {
                    return Err(format!("planPatch step {index}: unknown action `{other}` (only `finalize`)"));
                }
                let has_capability = spec.capability_id.as_deref().is_some_and(|c| !c.trim().is_empty());
                if finalize == has_capability {
                    return Err(format!(
                        "planPatch step {index}: give either a non-empty `capabilityId` or `action: finalize`"
                    ));
                }
            }
            Ok(())
        }
        Action::Handoff { to, capability_id, payload, .. } => {
            if to.trim().is_empty() {
                return Err("handoff: `to` must be a non-empty agent name".into());
            }
            if capability_id.trim().is_empty() {
                return Err("handoff: `capabilityId` must be non-empty".into());
            }
            if !payload.is_object() {
                return Err("handoff: `payload` must be an object".into());
            }
            Ok(())
        }
        Action::Final { bundle, .. } => {
            if !(bundle.is_null() || bundle.is_object()) {
                return Err("final: `bundle` must be an object".into());
            }
            Ok(())
        }
        Action::HitlRequest { question, .. } => {
            if question.trim().is_empty() {
                return Err("hitl_request: `question` must be non-empty".into());
            }
            Ok(())
        }
    }
}

/// The JSON object in a model's answer: the whole text, a fenced block, or
/// the span from the first `{` to the last `}`.
pub fn extract_json(text: &str) -> Option<Value> {
    let text = text.trim();
    let candidates = [
        Some(text),
        text.split("```").nth(1).map(|block| block.trim_start_matches("json").trim()),
        text.find('{').zip(text.rfind('}')).filter(|(a, b)| a < b).map(|(a, b)| &text[a..=b]),
    ];
    candidates
        .into_iter()
        .flatten()
        .find_map(|candidate| serde_json::from_str::<Value>(candidate).ok().filter(Value::is_object))
}

/// Prompt hygiene for anything that goes to a specialist: sections between
/// the orchestrator's sentinels are redacted, recursively in every string.
pub fn scrub(value: &mut Value) {
    match value {
        Value::String(text) if text.contains(SENTINEL_START) || text.contains(SENTINEL_END) => {
            *text = redact(text);
        }
        Value::Array(items) => items.iter_mut().for_each(scrub),
        Value::Object(map) => map.values_mut().for_each(scrub),
        _ => {}
    }
}

fn redact(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(SENTINEL_START) {
        out.push_str(&rest[..start]);
        out.push_str(REDACTED);
        rest = match rest[start..].find(SENTINEL_END) {
            Some(end) => &rest[start + end + SENTINEL_END.len()..],
            None => "",
        };
    }
    out.push_str(rest);
    out.replace(SENTINEL_END, REDACTED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use amplifier_sdk::json;

    #[test]
    fn the_three_actions_parse() {
        let update = parse_action(
            r#"{"action":"plan_update","planPatch":{"steps":[{"capabilityId":"a.b"},{"action":"finalize"}]}}"#,
        )
        .unwrap();
        assert!(
            matches!(update, Action::PlanUpdate { plan_patch, .. } if plan_patch.steps.as_ref().is_some_and(|s| s.len() == 2))
        );
        let handoff = parse_action(
            "Sure:\n```json\n{\"action\":\"handoff\",\"to\":\"w\",\"capabilityId\":\"c\",\"payload\":{}}\n```",
        )
        .unwrap();
        assert!(matches!(handoff, Action::Handoff { to, .. } if to == "w"));
        assert!(matches!(
            parse_action(r#"{"action":"final","bundle":{"summary":"s"}}"#).unwrap(),
            Action::Final { .. }
        ));
        let asked = parse_action(r#"{"action":"hitl_request","question":"Which audience?","options":["a","b"]}"#);
        assert!(matches!(asked.unwrap(), Action::HitlRequest { options, .. } if options == ["a", "b"]));
        assert!(parse_action(r#"{"action":"hitl_request","question":" "}"#).is_err());
    }

    #[test]
    fn invalid_actions_say_why() {
        assert!(parse_action("no json here").unwrap_err().contains("no JSON"));
        assert!(parse_action(r#"{"action":"dance"}"#).unwrap_err().contains("not a valid action"));
        assert!(parse_action(r#"{"action":"handoff","to":"","capabilityId":"c","payload":{}}"#).is_err());
        assert!(parse_action(r#"{"action":"handoff","to":"w","capabilityId":"c","payload":"x"}"#).is_err());
        assert!(parse_action(r#"{"action":"plan_update","planPatch":{}}"#).is_err());
        assert!(parse_action(r#"{"action":"plan_update","planPatch":{"steps":[{"note":"x"}]}}"#).is_err());
    }

    #[test]
    fn scrub_redacts_sentinel_sections_everywhere() {
        let mut value = json!({"a": format!("keep {SENTINEL_START} secret {SENTINEL_END} this"), "b": [format!("x {SENTINEL_START} y")]});
        scrub(&mut value);
        assert_eq!(value["a"], format!("keep {REDACTED} this"));
        assert_eq!(value["b"][0], format!("x {REDACTED}"));
        assert!(!value.to_string().contains("secret"));
    }
}
