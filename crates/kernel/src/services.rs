//! The services a front end gives the kernel, and the kernel gives its
//! modules: approvals, per-agent histories, run states, the display and
//! child sessions.
//! The coordinator holds one of each (the spawner is the session's own).

use std::time::Duration;

use serde_json::Value;

use crate::models::{ApprovalDefault, Message, MessageLevel, ToolResult};
use crate::ops::{AgentTurn, AgentTurnResult, SpawnRequest, SpawnResult};
use crate::{BoxFuture, ModuleResult, StreamSink};

/// Asks a person to approve something (the CLI's terminal prompt, a web UI…).
pub trait ApprovalSystem: Send + Sync {
    /// Returns the chosen option, or `None` when the timeout passed.
    fn request_approval<'a>(
        &'a self,
        prompt: &'a str,
        options: &'a [String],
        timeout: Duration,
        default: ApprovalDefault,
    ) -> BoxFuture<'a, Option<String>>;
}

/// Per-agent conversation history kept by the front end (the CLI's session
/// store), scoped by the front end to its user and conversation, so a module
/// names only the agent. Routing orchestrators read and write it through the
/// `history.*` host operations.
pub trait ChatHistory: Send + Sync {
    /// The agent's newest `max_messages` (all when `None`), oldest first.
    fn fetch<'a>(&'a self, agent: &'a str, max_messages: Option<usize>) -> BoxFuture<'a, ModuleResult<Vec<Message>>>;
    /// Every agent's history merged in time order, assistant texts prefixed `[agent] `.
    fn fetch_all(&self) -> BoxFuture<'_, ModuleResult<Vec<Message>>>;
    /// Appends to the agent's history, then trims it to `max_messages`.
    fn save<'a>(
        &'a self,
        agent: &'a str,
        messages: Vec<Message>,
        max_messages: Option<usize>,
    ) -> BoxFuture<'a, ModuleResult<()>>;
}

/// Orchestrators' run states, one JSON document per thread, kept by the
/// front end (the session store) so that a run resumes after a crash and
/// `amplifier serve` can answer `GET /v1/runs/{thread}` without reading a
/// plugin's files (`runs.*` host operations).
pub trait RunStates: Send + Sync {
    fn load<'a>(&'a self, thread: &'a str) -> BoxFuture<'a, ModuleResult<Option<Value>>>;
    /// Replaces the thread's state whole.
    fn save<'a>(&'a self, thread: &'a str, state: Value) -> BoxFuture<'a, ModuleResult<()>>;
}

/// Shows hook messages to the person at the front end.
pub trait DisplaySystem: Send + Sync {
    fn show_message(&self, message: &str, level: MessageLevel, source: &str);
}

/// Starts and resumes child sessions for one parent session.
pub trait SessionSpawner: Send + Sync {
    fn spawn(&self, request: SpawnRequest) -> BoxFuture<'_, ModuleResult<SpawnResult>>;
    /// One turn in a fresh child seeded with `turn.history`; the result
    /// carries what the turn added to the child's context.
    fn agent_turn(&self, turn: AgentTurn, observer: Option<StreamSink>)
        -> BoxFuture<'_, ModuleResult<AgentTurnResult>>;
}

/// Keeps oversized tool results out of the context and the store. The
/// front end keeps the whole output elsewhere (the kernel does no I/O) and
/// answers the result to use instead, which says where it went.
pub trait ResultSpill: Send + Sync {
    /// The result to keep instead of `result`, or `None` to keep it as is.
    fn spill(&self, tool: &str, tool_call_id: Option<&str>, result: &ToolResult) -> Option<ToolResult>;
}
