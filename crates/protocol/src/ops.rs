//! Operations that cross the plugin boundary, with their parameter shapes.
//!
//! Host → plugin operations are started with `PluginInstance::start(op, params)`;
//! plugin → host operations (the "kernel service" orchestrators and other
//! modules use) with `HostApi::call(op, params)`. Parameters and results are
//! JSON; failures are a [`crate::ModuleError`] as JSON.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::models::{ChatRequest, HookAction, HookResult, InjectionRole, JsonMap, Message, ProviderInfo, ToolSpec};

/// Operations a plugin instance answers, by kind.
pub mod plugin {
    /// tool: `ExecuteTool` → `ToolResult`.
    pub const EXECUTE_TOOL: &str = "execute";
    /// provider: `Complete` → `ChatResponse`; streamed deltas arrive as events.
    pub const COMPLETE: &str = "complete";
    /// provider: `{}` → `[ModelInfo]`.
    pub const LIST_MODELS: &str = "list_models";
    /// hook: `HandleEvent` → `HookResult`.
    pub const HANDLE: &str = "handle";
    /// orchestrator: `Execute` → the final text as a JSON string.
    pub const EXECUTE: &str = "execute";
    /// context: the five context operations, each with the `Context*` shapes below.
    pub const ADD_MESSAGE: &str = "add_message";
    pub const GET_MESSAGES: &str = "get_messages";
    pub const GET_MESSAGES_FOR_REQUEST: &str = "get_messages_for_request";
    pub const SET_MESSAGES: &str = "set_messages";
    pub const CLEAR: &str = "clear";
    /// resolver: `ResolveRequest` → `ResolvedModule`, or a `not_found` error.
    pub const RESOLVE: &str = "resolve";
}

/// Operations the host answers for a plugin.
pub mod host {
    /// `EmitEvent` → raw `HookResult` (upstream's `hooks.emit`).
    pub const HOOKS_EMIT: &str = "hooks.emit";
    /// `EmitEvent` → `HookOutcome`: emit, then process the verdict.
    pub const HOOKS_DISPATCH: &str = "hooks.dispatch";
    /// `ProcessHookResult` → `HookOutcome`.
    pub const HOOKS_PROCESS: &str = "hooks.process";
    /// `ProviderComplete` → `ChatResponse`; with `stream`, deltas arrive as events.
    pub const PROVIDER_COMPLETE: &str = "provider.complete";
    /// `{}` → `[ProviderDescriptor]`, preferred first.
    pub const PROVIDER_LIST: &str = "provider.list";
    /// `HostExecuteTool` → `ToolResult` (input validated against the tool's schema).
    pub const TOOL_EXECUTE: &str = "tool.execute";
    /// `{}` → `[ToolSpec]`.
    pub const TOOL_LIST: &str = "tool.list";
    /// `MountTools` → null: mounts tools now; calls to them come back to the
    /// mounting instance's `execute` (for tools discovered at run time).
    pub const TOOLS_MOUNT: &str = "tools.mount";
    /// `UnmountTools` → null: unmounts tools this instance mounted.
    pub const TOOLS_UNMOUNT: &str = "tools.unmount";
    pub const CONTEXT_ADD_MESSAGE: &str = "context.add_message";
    pub const CONTEXT_GET_MESSAGES: &str = "context.get_messages";
    pub const CONTEXT_GET_MESSAGES_FOR_REQUEST: &str = "context.get_messages_for_request";
    pub const CONTEXT_SET_MESSAGES: &str = "context.set_messages";
    pub const CONTEXT_CLEAR: &str = "context.clear";
    /// `CapabilityName` → the value or null.
    pub const CAPABILITY_GET: &str = "capability.get";
    /// `RegisterCapability` → null.
    pub const CAPABILITY_REGISTER: &str = "capability.register";
    /// `{}` → `SessionInfo`.
    pub const SESSION_INFO: &str = "session.info";
    /// `{}` → `[String]`: takes the steering queue (what the user typed while
    /// the turn ran), oldest first.
    pub const SESSION_STEERING_TAKE: &str = "session.steering_take";
    /// `{}` → the most verbose level the host logs (`"error"` … `"trace"`).
    pub const LOG_LEVEL: &str = "log.level";
    /// `SpawnRequest` → `SpawnResult`: run (or resume) a child session of an agent.
    pub const SESSION_SPAWN: &str = "session.spawn";
    /// `{}` → `[AgentSummary]`: the agents a child session may be spawned for.
    pub const SESSION_AGENTS: &str = "session.agents";
    /// `AgentTurn` → `AgentTurnResult`: one turn of an agent in a fresh child
    /// session seeded with a history; the child's events arrive as
    /// `{event, data}` stream events while it runs.
    pub const SESSION_AGENT_TURN: &str = "session.agent_turn";
    /// `HistoryFetch` → `[Message]`: an agent's stored history in the
    /// front end's conversation (user and conversation ids are the host's).
    pub const HISTORY_FETCH: &str = "history.fetch";
    /// `{}` → `[Message]`: every agent's history merged in time order, each
    /// assistant text prefixed `[agent] `, untrimmed.
    pub const HISTORY_FETCH_ALL: &str = "history.fetch_all";
    /// `HistorySave` → null: appends to an agent's history, then trims it.
    pub const HISTORY_SAVE: &str = "history.save";
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExecuteTool {
    pub name: String,
    #[serde(default)]
    pub input: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Complete {
    pub request: ChatRequest,
    /// Whether the caller wants streamed delta events.
    #[serde(default)]
    pub stream: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HandleEvent {
    pub event: String,
    pub data: JsonMap,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Execute {
    pub prompt: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ContextAddMessage {
    pub message: Message,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ContextSetMessages {
    pub messages: Vec<Message>,
}

/// An event a module emits through the host.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EmitEvent {
    pub event: String,
    #[serde(default)]
    pub data: JsonMap,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProcessHookResult {
    pub result: HookResult,
    pub event: String,
    #[serde(default = "default_hook_name")]
    pub hook_name: String,
}

fn default_hook_name() -> String {
    "unknown".to_owned()
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProviderComplete {
    /// Mount name; the preferred provider when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    pub request: ChatRequest,
    #[serde(default)]
    pub stream: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProviderDescriptor {
    pub name: String,
    pub module: String,
    pub priority: i64,
    pub info: ProviderInfo,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HostExecuteTool {
    pub name: String,
    #[serde(default)]
    pub input: Value,
    /// When given, the host tracks the call as running for cancellation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MountTools {
    pub tools: Vec<ToolSpec>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UnmountTools {
    pub names: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CapabilityName {
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegisterCapability {
    pub name: String,
    pub value: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionInfo {
    pub session_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    /// `none`, `graceful` or `immediate`.
    pub cancellation: String,
    /// Names of the mounted tools.
    pub tools: Vec<String>,
    /// 0 for a top-level session, 1 for its children, and so on.
    #[serde(default)]
    pub depth: u32,
}

/// Asks the kernel for a child session running one of the plan's agents.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SpawnRequest {
    /// A name from the plan's `agents:` section.
    pub agent: String,
    pub instruction: String,
    /// Continue this earlier child session instead of starting a new one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Tool modules (plan `module` ids) the child must not get.
    #[serde(default)]
    pub exclude_tools: Vec<String>,
    /// When set, the only tool modules of the parent the child inherits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inherit_tools: Option<Vec<String>>,
}

/// One turn of an agent (`session.agent_turn`): a fresh child session whose
/// context starts with the agent's system instruction and `history`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AgentTurn {
    /// A name from the plan's `agents:` section.
    pub agent: String,
    pub instruction: String,
    #[serde(default)]
    pub history: Vec<Message>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentTurnResult {
    pub response: String,
    pub session_id: String,
    /// What the turn added to the child's context: the user message, tool
    /// calls with their results, the final answer.
    pub messages: Vec<Message>,
}

/// `history.fetch`: `max_messages` `None` returns everything.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HistoryFetch {
    pub agent: String,
    #[serde(default)]
    pub max_messages: Option<usize>,
}

/// `history.save`: `max_messages` `None` never trims.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HistorySave {
    pub agent: String,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub max_messages: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpawnResult {
    pub response: String,
    pub session_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentSummary {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Capability ids the agent declares (`capabilities:` in its overlay).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capabilities: Vec<String>,
    /// Mount names of the providers its overlay adds or replaces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub providers: Vec<String>,
    /// The overlay's scalar keys the kernel does not read itself (such as
    /// the router's `save_chat`), for the module that runs the agent.
    #[serde(default, skip_serializing_if = "JsonMap::is_empty")]
    pub settings: JsonMap,
}

/// Tool specs as a tool module describes itself.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ToolDescription {
    pub tools: Vec<ToolSpec>,
}

/// One subscription a hook module asks for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Subscription {
    /// An event name, a prefix pattern (`tool:*`) or `*`.
    pub event: String,
    #[serde(default)]
    pub priority: i32,
    pub name: String,
}

impl Subscription {
    pub fn new(event: impl Into<String>, priority: i32, name: impl Into<String>) -> Self {
        Subscription { event: event.into(), priority, name: name.into() }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HookDescription {
    pub subscriptions: Vec<Subscription>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProviderDescription {
    pub info: ProviderInfo,
}

/// What a resolver plugin is asked (`plugin::RESOLVE`): find the code of
/// one module. Mirrors the kernel's `traits::ResolveRequest`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResolveRequest {
    pub module_id: String,
    /// The plan's `source` for this module, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_hint: Option<String>,
    /// Directory relative sources are resolved against (the plan file's directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_dir: Option<PathBuf>,
}

/// Where a resolver plugin found a module's code. Mirrors the kernel's
/// `traits::ResolvedSource`, plus `path`, which lets the host decide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResolvedSource {
    /// A built shared library, loaded as is.
    Library { path: PathBuf },
    /// A plugin crate directory, built (or taken from the build cache) first.
    Crate { path: PathBuf },
    /// A library, a crate directory or an installed module directory: the
    /// host looks. A relative path is taken relative to the request's `base_dir`.
    Path { path: PathBuf },
}

/// A resolver plugin's answer. Mirrors the kernel's `traits::ResolvedModule`;
/// the host fills an empty `resolver` with the plugin's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedModule {
    pub source: ResolvedSource,
    /// Which resolver answered.
    #[serde(default)]
    pub resolver: String,
    /// Human description of the source, for summaries and lockfiles.
    #[serde(default)]
    pub origin: String,
}

impl ResolvedModule {
    /// A module found at `path` (a library, crate or installed module directory).
    pub fn path(path: impl Into<PathBuf>, origin: impl Into<String>) -> Self {
        ResolvedModule {
            source: ResolvedSource::Path { path: path.into() },
            resolver: String::new(),
            origin: origin.into(),
        }
    }
}

/// What an orchestrator asks of the context for one provider request.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RequestView {
    /// Token budget for the returned view; the context's own limit when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_budget: Option<u64>,
    /// Name of the provider the request is for (for its context window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
}

/// An injection the orchestrator must append to its next request only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EphemeralInjection {
    pub content: String,
    pub role: InjectionRole,
    pub append_to_last_tool_result: bool,
}

/// A hook verdict after `process_hook_result`: approvals are resolved,
/// persistent injections are in the context, only what the orchestrator must
/// act on is left.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookOutcome {
    /// `continue`, `deny` or `modify`.
    pub action: HookAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The event data as the handlers left it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<JsonMap>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ephemeral_injections: Vec<EphemeralInjection>,
}

impl HookOutcome {
    pub fn is_denied(&self) -> bool {
        self.action == HookAction::Deny
    }
}
