//! The run state persisted per thread id: plan, history, artifacts, bundle.
//!
//! `<runs_dir>/<thread-id>/state.json`, rewritten atomically (a temporary
//! file in the same directory, flushed to disk, then renamed over the old
//! one) after every step, so a run killed at any moment leaves the state of
//! its last finished step.

use std::io::Write;
use std::path::{Path, PathBuf};

use amplifier_sdk::{ErrorKind, ModuleError, ModuleResult, Value};
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
    /// `running`, `completed` or `failed`.
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
        }
    }

    /// Handoff steps finished (done, skipped or failed), in plan order.
    pub fn finished_handoffs(&self) -> usize {
        self.plan.steps.iter().filter(|s| !s.is_finalize() && !s.is_pending()).count()
    }
}

/// Where runs are stored: the configured directory, else `$AMPLIFIER_HOME/runs`
/// (`~/.amplifier/runs`).
pub fn runs_dir(configured: Option<&Path>) -> PathBuf {
    if let Some(dir) = configured {
        return dir.to_path_buf();
    }
    amplifier_models::amplifier_home().join("runs")
}

pub struct Store {
    dir: PathBuf,
}

impl Store {
    pub fn new(runs_dir: &Path, thread_id: &str) -> Self {
        Store { dir: runs_dir.join(thread_id) }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join("state.json")
    }

    pub fn load(&self) -> ModuleResult<Option<RunState>> {
        let path = self.path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(ModuleError::internal(format!("cannot read {}: {err}", path.display()))),
        };
        let state: RunState = serde_json::from_str(&text).map_err(|err| {
            ModuleError::new(ErrorKind::InvalidRequest, format!("{} is not a run state: {err}", path.display()))
        })?;
        if state.version != STATE_VERSION {
            return Err(ModuleError::new(
                ErrorKind::InvalidRequest,
                format!(
                    "{}: run state version {} is not supported (expected {STATE_VERSION})",
                    path.display(),
                    state.version
                ),
            ));
        }
        Ok(Some(state))
    }

    /// Writes the state atomically: temporary file, fsync, rename.
    pub fn save(&self, state: &RunState) -> ModuleResult<()> {
        let fail = |what: &str, err: std::io::Error| {
            ModuleError::internal(format!("cannot {what} {}: {err}", self.dir.display()))
        };
        std::fs::create_dir_all(&self.dir).map_err(|err| fail("create", err))?;
        let json = serde_json::to_vec_pretty(state).map_err(|err| ModuleError::internal(err.to_string()))?;
        let temp = self.dir.join(format!(".state.json.{}.tmp", std::process::id()));
        let mut file = std::fs::File::create(&temp).map_err(|err| fail("write in", err))?;
        file.write_all(&json).and_then(|_| file.sync_all()).map_err(|err| fail("write in", err))?;
        drop(file);
        std::fs::rename(&temp, self.path()).map_err(|err| fail("replace the state in", err))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constraints() -> Constraints {
        Constraints { quality_threshold: 0.8, execution_depth: 2, acceptance_criteria: vec![], max_turns: 20 }
    }

    #[test]
    fn saves_atomically_and_loads_back() {
        let dir = std::env::temp_dir().join(format!("orchestrator-plan-state-{}", std::process::id()));
        let store = Store::new(&dir, "t1");
        assert_eq!(store.load().unwrap(), None);
        let mut state = RunState::new("t1", "do it", Value::Null, constraints());
        store.save(&state).unwrap();
        state.turns = 3;
        store.save(&state).unwrap();
        assert_eq!(store.load().unwrap(), Some(state));
        let leftovers: Vec<_> = std::fs::read_dir(dir.join("t1")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(leftovers, [std::ffi::OsString::from("state.json")]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
