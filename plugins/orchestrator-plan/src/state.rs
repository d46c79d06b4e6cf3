//! The run state persisted per thread id: plan, history, artifacts, bundle.
//!
//! The host keeps it (`runs.save` / `runs.load`: a row of the session
//! store), replaced whole after every step, so a run killed at any moment
//! leaves the state of its last finished step, and `amplifier serve`
//! answers `GET /v1/runs/{thread}` with it.

use amplifier_sdk::{ErrorKind, Host, ModuleError, ModuleResult, Value};
use serde::{Deserialize, Serialize};

pub const STATE_VERSION: u32 = 1;

/// The constraints in force for a run (config, overridden by the request).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Constraints {
    pub quality_threshold: f64,
    pub execution_depth: u32,
    pub acceptance_criteria: Vec<String>,
    pub max_turns: u32,
}

/// A QA specialist's verdict, normalised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QaReport {
    pub pass: bool,
    pub score: f64,
    pub issues: Vec<String>,
    /// Per-criterion verdicts the QA specialist gave, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub criteria: Vec<CriterionResult>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriterionResult {
    pub criterion: String,
    pub passed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    Done,
    Skipped,
    Failed,
}

/// One step of the plan: a handoff to a capability, or `finalize`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability_id: Option<String>,
    /// `finalize` for the closing step; absent for handoffs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The agent chosen (or proposed by the planner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    pub status: StepStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Extra payload fields from the planner or a revision (`revisionNotes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// What the specialist produced: its answer as JSON, or `{text}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qa: Option<QaReport>,
}

impl Step {
    pub fn is_finalize(&self) -> bool {
        self.action.as_deref() == Some("finalize")
    }

    pub fn is_pending(&self) -> bool {
        self.status == StepStatus::Pending
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub version: u32,
    pub steps: Vec<Step>,
}

/// One finished handoff, as the specialist saw and answered it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub step_id: String,
    pub agent: String,
    pub capability_id: String,
    pub payload: Value,
    pub output: String,
}

/// A question put to a person (human in the loop): pending until a run of
/// the thread brings its answer (`hitlResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HitlRequest {
    pub id: String,
    pub question: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// `orchestrator` (the planner) or the specialist that asked.
    pub asked_by: String,
    /// The step a specialist asked from; it runs again with the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Refused: the run had asked `hitlMaxRequests` questions already.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub denied: bool,
}

/// One turn of a chat-mode conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatTurn {
    pub role: String,
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunState {
    pub version: u32,
    pub thread_id: String,
    /// `running`, `awaiting_hitl` (a question waits for a person) or
    /// `completed`.
    pub status: String,
    pub objective: String,
    #[serde(default)]
    pub payload: Value,
    pub constraints: Constraints,
    pub plan: Plan,
    #[serde(default)]
    pub history: Vec<HistoryEntry>,
    /// Planner calls and handoffs so far (bounded by `maxTurns`).
    #[serde(default)]
    pub turns: u32,
    #[serde(default)]
    pub warnings: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatTurn>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_hitl: Option<HitlRequest>,
    /// Questions answered or refused so far.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hitl: Vec<HitlRequest>,
}

impl RunState {
    pub fn new(thread_id: &str, objective: &str, payload: Value, constraints: Constraints) -> Self {
        RunState {
            version: STATE_VERSION,
            thread_id: thread_id.to_owned(),
            status: "running".to_owned(),
            objective: objective.to_owned(),
            payload,
            constraints,
            plan: Plan::default(),
            history: Vec::new(),
            turns: 0,
            warnings: Vec::new(),
            summary: None,
            bundle: None,
            chat: Vec::new(),
            pending_hitl: None,
            hitl: Vec::new(),
        }
    }

    /// Handoff steps finished (done, skipped or failed), in plan order.
    pub fn finished_handoffs(&self) -> usize {
        self.plan.steps.iter().filter(|s| !s.is_finalize() && !s.is_pending()).count()
    }

    /// Who handed off to whom, in order (`GET /v1/runs/{thread}/graph`):
    /// nodes `{id, kind: orchestrator|agent|person}`; an edge per handoff
    /// that ran `{from, to, stepId, capabilityId, status, qa?}` and per
    /// question to a person `{from, to: "person", requestId, answered}`.
    pub fn graph(&self) -> Value {
        let mut nodes = vec![serde_json::json!({"id": "orchestrator", "kind": "orchestrator"})];
        let mut node = |id: &str, kind: &str| {
            if !nodes.iter().any(|n| n["id"] == id) {
                nodes.push(serde_json::json!({"id": id, "kind": kind}));
            }
        };
        let mut edges = Vec::new();
        let ran = self
            .plan
            .steps
            .iter()
            .filter(|s| !s.is_finalize() && matches!(s.status, StepStatus::Done | StepStatus::Failed));
        for step in ran {
            let Some(agent) = &step.agent else { continue };
            node(agent, "agent");
            let mut edge = serde_json::json!({
                "from": "orchestrator",
                "to": agent,
                "stepId": step.id,
                "capabilityId": step.capability_id,
                "status": step.status,
            });
            if let Some(qa) = &step.qa {
                edge["qa"] = serde_json::json!({"score": qa.score, "pass": qa.pass});
            }
            edges.push(edge);
        }
        for asked in self.hitl.iter().chain(&self.pending_hitl) {
            node("person", "person");
            let edge = serde_json::json!({"from": asked.asked_by, "to": "person", "requestId": asked.id, "answered": asked.answer.is_some()});
            edges.push(edge);
        }
        serde_json::json!({"nodes": nodes, "edges": edges})
    }
}

/// One thread's state, kept by the host.
pub struct Store {
    host: Host,
    thread: String,
}

impl Store {
    pub fn new(host: &Host, thread: &str) -> Self {
        Store { host: host.clone(), thread: thread.to_owned() }
    }

    pub async fn load(&self) -> ModuleResult<Option<RunState>> {
        let Some(value) = self.host.load_run_state(&self.thread).await? else { return Ok(None) };
        let thread = &self.thread;
        let state: RunState = serde_json::from_value(value).map_err(|err| {
            ModuleError::new(
                ErrorKind::InvalidRequest,
                format!("the stored state of thread {thread} is not a run state: {err}"),
            )
        })?;
        if state.version != STATE_VERSION {
            return Err(ModuleError::new(
                ErrorKind::InvalidRequest,
                format!(
                    "thread {thread}: run state version {} is not supported (expected {STATE_VERSION})",
                    state.version
                ),
            ));
        }
        Ok(Some(state))
    }

    /// Saves the state, with its [`RunState::graph`] for readers of the
    /// store (loading ignores it).
    pub async fn save(&self, state: &RunState) -> ModuleResult<()> {
        let mut value = serde_json::to_value(state).map_err(|err| ModuleError::internal(err.to_string()))?;
        value["graph"] = state.graph();
        self.host.save_run_state(&self.thread, value).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constraints() -> Constraints {
        Constraints { quality_threshold: 0.8, execution_depth: 2, acceptance_criteria: vec![], max_turns: 20 }
    }

    fn step(id: &str, agent: &str, status: StepStatus) -> Step {
        Step {
            id: id.into(),
            capability_id: Some(format!("cap.{id}")),
            action: None,
            agent: Some(agent.into()),
            status,
            note: None,
            payload: None,
            artifact: None,
            qa: None,
        }
    }

    #[test]
    fn the_graph_has_an_edge_per_handoff_that_ran_and_per_question() {
        let mut state = RunState::new("t1", "do it", Value::Null, constraints());
        let mut review = step("review", "qa", StepStatus::Done);
        review.qa = Some(QaReport { pass: true, score: 0.9, issues: vec![], criteria: vec![] });
        state.plan.steps =
            vec![step("draft", "writer", StepStatus::Done), review, step("later", "writer", StepStatus::Pending)];
        state.pending_hitl = Some(HitlRequest {
            id: "hitl_1".into(),
            question: "Which?".into(),
            options: vec![],
            asked_by: "qa".into(),
            step_id: Some("review".into()),
            answer: None,
            denied: false,
        });
        let graph = state.graph();
        let kinds: Vec<(&str, &str)> = graph["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n["id"].as_str().unwrap(), n["kind"].as_str().unwrap()))
            .collect();
        assert_eq!(
            kinds,
            [("orchestrator", "orchestrator"), ("writer", "agent"), ("qa", "agent"), ("person", "person")]
        );
        let edges = graph["edges"].as_array().unwrap();
        assert_eq!(edges.len(), 3, "the pending step has not run: {edges:?}");
        assert_eq!(edges[1]["qa"], serde_json::json!({"score": 0.9, "pass": true}));
        assert_eq!(
            edges[2],
            serde_json::json!({"from": "qa", "to": "person", "requestId": "hitl_1", "answered": false})
        );
    }

    #[test]
    fn a_state_round_trips_through_the_json_the_host_keeps() {
        let mut state = RunState::new("t1", "do it", Value::Null, constraints());
        state.turns = 3;
        let kept = serde_json::to_value(&state).unwrap();
        assert_eq!(kept["version"], STATE_VERSION);
        assert_eq!(serde_json::from_value::<RunState>(kept).unwrap(), state);
    }
}
