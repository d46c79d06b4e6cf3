//! `orchestrator-plan`: a plan-driven orchestrator that delegates every piece
//! of work to specialist agents (the plan's `agents:`, chosen by the
//! capability ids they declare), gates the result on quality, and persists
//! each run per thread id so a killed run resumes where it stopped.
//!
//! The prompt is a run request, a JSON object
//! `{mode: "app"|"chat", objective, constraints?, threadId?, agent?, payload?}`,
//! or plain text (an app-mode objective on a fresh thread). Domain details
//! (whatever the specialists must know) travel only in `objective` and
//! `payload`; nothing here knows any domain.
//!
//! - **app mode** ([`engine`]): the planner model (this session's provider)
//!   answers with actions (`plan_update`, `handoff`, `final`); each handoff
//!   runs a specialist as a child session with only its payload; QA reports
//!   drive revision steps up to `executionDepth`; the result is the bundle
//!   `{result, quality, acceptance-report}`.
//! - **chat mode**: a free conversation with the orchestrator's model or one
//!   named specialist; the result is `{message}`.
//! - **specialist mode** ([`specialist`]): in a child session whose agent did
//!   not name its own orchestrator, this module runs a plain streaming agent
//!   loop (tools, `content_block:delta`).
//!
//! Human in the loop: the planner (action `hitl_request`) or a specialist
//! (an answer holding `{"hitl_request": {question, options?}}`) may ask a
//! person. The run state records the pending question (`awaiting_hitl`),
//! `plan:hitl_request` announces it, and the run ends with `{status:
//! "pending_hitl", pendingRequestId, question, options}`. A later run of the
//! thread with `hitlResponse: {requestId, answer}` resumes it: the answer
//! joins every later planner view and specialist payload (`humanInput`), and
//! a specialist that asked runs its step again. Past `hitlMaxRequests`
//! questions are refused (`hitl_denied`) and the run goes on.
//!
//! Events: `plan:start`, `plan:phase`, `plan:update`, `plan:handoff`,
//! `plan:step`, `plan:warning`, `plan:metrics`, `plan:message`,
//! `plan:hitl_request`, `plan:prompt_preview` (with `debug`),
//! `plan:complete` (the CLI maps them, and the standard events, to SSE frames).

mod action;
mod engine;
mod quality;
mod specialist;
mod state;

use amplifier_sdk::prelude::*;
use serde::Deserialize;
use std::collections::BTreeMap;

use crate::state::Constraints;

pub(crate) const NAME: &str = "orchestrator-plan";

/// The module's `config`; the loader has filled in `amplifier.toml`'s
/// defaults. Those left here are computed (`runsDir`, `provider`) or nested
/// (`roles`: a plan may give some of its keys).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Config {
    quality_threshold: f64,
    /// Generation → QA cycles at most, the first draft included.
    execution_depth: u32,
    acceptance_criteria: Vec<String>,
    /// Planner calls plus handoffs per run.
    max_turns: u32,
    /// Once the directory of the run states; they are the host's now
    /// (`runs.save`), so a plan that still sets it is warned, not refused.
    #[serde(default)]
    runs_dir: Option<String>,
    /// The planner's provider (mount name); default the preferred one.
    #[serde(default)]
    provider: Option<String>,
    #[serde(default)]
    roles: Roles,
    /// Phase (`analysis`, `generation`, `qa`) of other capability ids.
    phases: BTreeMap<String, String>,
    step_timeout_secs: u64,
    step_retries: u32,
    /// Model requests per specialist turn (specialist mode).
    specialist_max_iterations: u32,
    /// Appended to the planner's system prompt.
    #[serde(default)]
    planner_instruction: Option<String>,
    /// System prompt for chat mode with the orchestrator's own model.
    #[serde(default)]
    chat_instruction: Option<String>,
    /// Questions to a person per run; more are refused (`hitl_denied`).
    hitl_max_requests: u32,
    /// The `workflowName` of the run's trace span (`plan.run`).
    workflow_name: String,
    /// `plan:prompt_preview` before every model call and handoff: what the
    /// planner and each specialist are sent. It shows the orchestrator's own
    /// prompt, so it is off unless debugging.
    debug: bool,
}

/// Which capability ids play the roles the quality gate knows about.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Roles {
    #[serde(default = "default_strategy")]
    strategy: String,
    /// The first is what the default plan and revisions ask for.
    #[serde(default = "default_generation")]
    generation: Vec<String>,
    #[serde(default = "default_qa")]
    qa: String,
}

impl Default for Roles {
    fn default() -> Self {
        Roles { strategy: default_strategy(), generation: default_generation(), qa: default_qa() }
    }
}

fn default_strategy() -> String {
    "plan.strategy".into()
}
fn default_generation() -> Vec<String> {
    vec!["content.write".into(), "content.brief".into()]
}
fn default_qa() -> String {
    "qa.review".into()
}

impl Config {
    /// The phase a capability's step runs in.
    pub(crate) fn phase_of(&self, capability: &str) -> String {
        if capability == self.roles.qa {
            "qa".into()
        } else if self.roles.generation.iter().any(|g| g == capability) {
            "generation".into()
        } else {
            self.phases.get(capability).cloned().unwrap_or_else(|| "analysis".into())
        }
    }
}

/// Constraint overrides a request may carry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConstraintsOverride {
    quality_threshold: Option<f64>,
    execution_depth: Option<u32>,
    acceptance_criteria: Option<Vec<String>>,
    max_turns: Option<u32>,
}

/// A run request (the prompt).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunRequest {
    #[serde(default)]
    mode: Option<String>,
    #[serde(default, alias = "message")]
    objective: Option<String>,
    #[serde(default)]
    constraints: ConstraintsOverride,
    #[serde(default)]
    thread_id: Option<String>,
    /// Chat mode: the specialist to talk to (the orchestrator when absent).
    #[serde(default, alias = "targetAgentId")]
    agent: Option<String>,
    /// Domain details for the specialists, passed through as `brief`.
    #[serde(default)]
    payload: Value,
    /// The answer to the thread's pending question (human in the loop).
    #[serde(default)]
    hitl_response: Option<HitlResponse>,
}

/// `{requestId, answer}`: a person's answer to a pending question.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct HitlResponse {
    request_id: String,
    answer: String,
}

impl RunRequest {
    /// A JSON object with a `mode` or `objective` is a request; anything else
    /// is an app-mode objective.
    pub(crate) fn parse(prompt: &str) -> ModuleResult<RunRequest> {
        let trimmed = prompt.trim();
        if trimmed.starts_with('{') {
            if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(trimmed) {
                if ["mode", "objective", "message", "threadId"].iter().any(|k| map.contains_key(*k)) {
                    return serde_json::from_value(Value::Object(map)).map_err(|err| {
                        ModuleError::new(ErrorKind::InvalidRequest, format!("invalid run request: {err}"))
                    });
                }
            }
        }
        Ok(RunRequest { objective: Some(prompt.to_owned()), ..RunRequest::default() })
    }

    /// The config's constraints, overridden by the request's; the brief's
    /// `mustInclude` texts join the acceptance criteria as quoted ones, which
    /// are checked literally against the draft.
    pub(crate) fn constraints(&self, config: &Config) -> Constraints {
        let o = &self.constraints;
        let mut acceptance_criteria =
            o.acceptance_criteria.clone().unwrap_or_else(|| config.acceptance_criteria.clone());
        let must_include = self.payload.get("mustInclude").and_then(Value::as_array).into_iter().flatten();
        for text in must_include.filter_map(Value::as_str).filter(|text| !text.trim().is_empty()) {
            let criterion = format!("includes \"{text}\"");
            if !acceptance_criteria.contains(&criterion) {
                acceptance_criteria.push(criterion);
            }
        }
        Constraints {
            quality_threshold: o.quality_threshold.unwrap_or(config.quality_threshold).clamp(0.0, 1.0),
            execution_depth: o.execution_depth.unwrap_or(config.execution_depth).max(1),
            acceptance_criteria,
            max_turns: o.max_turns.unwrap_or(config.max_turns).max(1),
        }
    }
}

/// A fresh thread id: `thread_` and 16 hex digits from the clock and a
/// randomly seeded hash.
pub(crate) fn new_thread_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    format!("thread_{:016x}", hasher.finish())
}

pub(crate) struct PlanOrchestrator {
    host: Host,
    config: Config,
    /// Each specialist's child session in this run, continued by later handoffs.
    children: tokio::sync::Mutex<BTreeMap<String, String>>,
}

impl PlanOrchestrator {
    /// Emits an event; observability never fails a run.
    pub(crate) async fn emit(&self, event: &str, data: Value) {
        if let Value::Object(data) = data {
            if let Err(err) = self.host.emit(event, data).await {
                tracing::warn!(event, error = %err, "could not emit");
            }
        }
    }

    pub(crate) async fn cancelled(&self) -> bool {
        self.host.session_info().await.map(|info| info.cancellation != "none").unwrap_or(false)
    }
}

impl Orchestrator for PlanOrchestrator {
    async fn execute(&self, prompt: String) -> ModuleResult<String> {
        let info = self.host.session_info().await?;
        if info.parent_id.is_some() {
            return specialist::run(self, &info.session_id, prompt).await;
        }
        let request = RunRequest::parse(&prompt)?;
        match request.mode.as_deref().unwrap_or("app") {
            "app" => engine::run_app(self, request).await,
            "chat" => engine::run_chat(self, request).await,
            other => Err(ModuleError::new(
                ErrorKind::InvalidRequest,
                format!("unknown mode `{other}`: expected `app` or `chat`"),
            )),
        }
    }
}

fn mount(ctx: MountContext) -> ModuleResult<PlanOrchestrator> {
    let config: Config = ctx.config()?;
    if let Some(dir) = &config.runs_dir {
        tracing::warn!(
            "{NAME}: `runsDir: {dir}` is ignored: run states are kept in amplifier's session store \
             (`GET /v1/runs/{{thread}}` on `amplifier serve` returns one)"
        );
    }
    Ok(PlanOrchestrator { host: ctx.host, config, children: tokio::sync::Mutex::default() })
}

export_module!(orchestrator => mount);

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        amplifier_sdk::testing::config_with_defaults(
            include_str!("../amplifier.toml"),
            json!({"qualityThreshold": 0.7, "acceptanceCriteria": ["a"]}),
        )
    }

    #[test]
    fn requests_are_json_objects_or_plain_objectives() {
        let request = RunRequest::parse(
            r#"{"mode": "chat", "message": "hi", "targetAgentId": "qa", "constraints": {"maxTurns": 3}}"#,
        )
        .unwrap();
        assert_eq!(request.mode.as_deref(), Some("chat"));
        assert_eq!(request.objective.as_deref(), Some("hi"));
        assert_eq!(request.agent.as_deref(), Some("qa"));
        let constraints = request.constraints(&config());
        assert_eq!((constraints.max_turns, constraints.quality_threshold), (3, 0.7));
        assert_eq!(constraints.acceptance_criteria, ["a"]);
        let plain = RunRequest::parse("{not json} write something").unwrap();
        assert_eq!(plain.objective.as_deref(), Some("{not json} write something"));
        assert!(RunRequest::parse(r#"{"mode": 3}"#).is_err());
    }

    #[test]
    fn capabilities_map_to_phases() {
        let config = config();
        assert_eq!(config.phase_of("qa.review"), "qa");
        assert_eq!(config.phase_of("content.write"), "generation");
        assert_eq!(config.phase_of("plan.strategy"), "analysis");
    }

    #[test]
    fn thread_ids_are_fresh_and_valid() {
        let (a, b) = (new_thread_id(), new_thread_id());
        assert_ne!(a, b);
        assert!(amplifier_sdk::runs::valid_id(&a));
    }
}
