//! Operations that cross the plugin boundary, each a type.
//!
//! An operation ([`Op`]) names itself on the wire ([`Op::NAME`]) and fixes
//! its parameter and reply types, so the host and the SDK cannot drift: a
//! caller writes `host.call::<host::tool::Execute>(&params)` and gets a
//! `ToolResult`. The types' module path is the wire name: `tool.execute`
//! is [`host::tool::Execute`].
//!
//! Host → plugin operations ([`plugin`]) are started with
//! `PluginInstance::start(name, params)`; plugin → host operations ([`host`],
//! the kernel services orchestrators and other modules use) with
//! `HostApi::call(name, params)`. Parameters and replies are JSON; failures
//! are a [`crate::ModuleError`] as JSON.

use std::path::PathBuf;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::models::{ChatRequest, HookAction, HookResult, InjectionRole, JsonMap, Message, ProviderInfo, ToolSpec};

/// One operation: its wire name and the JSON shapes of its parameters and reply.
pub trait Op: 'static {
    const NAME: &'static str;
    /// Whether the callee may send events back while it answers (a
    /// provider's streamed deltas): the caller's sink is then kept for the
    /// call's length, where any other operation's call answered at once
    /// hands it back untouched.
    const STREAMS: bool = false;
    type Params: Serialize + DeserializeOwned + Send + 'static;
    type Reply: Serialize + DeserializeOwned + Send + 'static;
}

/// The parameters of an operation that takes none: `{}` on the wire (any
/// JSON is accepted, as it always was).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoParams;

impl Serialize for NoParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_map(Some(0)).and_then(serde::ser::SerializeMap::end)
    }
}

impl<'de> Deserialize<'de> for NoParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| NoParams)
    }
}

/// The reply of an operation that returns nothing: `null` on the wire (any
/// JSON is accepted).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Done;

impl Serialize for Done {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de> Deserialize<'de> for Done {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Done)
    }
}

/// Declares operations: `Type = "wire.name": Params => Reply;`, or
/// `Type = "wire.name" streams: Params => Reply;` for one that streams
/// events ([`Op::STREAMS`]).
macro_rules! operations {
    ($($(#[$doc:meta])* $op:ident = $name:literal $($streams:ident)?: $params:ty => $reply:ty;)+) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub enum $op {}

            impl $crate::ops::Op for $op {
                const NAME: &'static str = $name;
                const STREAMS: bool = operations!(@streams $($streams)?);
                type Params = $params;
                type Reply = $reply;
            }
        )+
    };
    (@streams) => { false };
    (@streams streams) => { true };
}

/// Operations a plugin instance answers, by module kind.
pub mod plugin {
    pub mod tool {
        use crate::models::ToolResult;
        use crate::ops::ExecuteTool;

        operations! {
            /// Runs one of the module's tools (input already schema-checked).
            Execute = "execute": ExecuteTool => ToolResult;
        }
    }

    pub mod provider {
        use crate::models::{ChatResponse, ModelInfo};
        use crate::ops::{CompleteRequest, NoParams};

        operations! {
            /// One completion; with `stream`, deltas arrive as events first.
            Complete = "complete" streams: CompleteRequest => ChatResponse;
            ListModels = "list_models": NoParams => Vec<ModelInfo>;
        }
    }

    pub mod hook {
        use crate::models::HookResult;
        use crate::ops::HandleEvent;

        operations! {
            /// One event; a plain "continue" may be answered as `{}`.
            Handle = "handle": HandleEvent => HookResult;
        }
    }

    pub mod orchestrator {
        use crate::ops::ExecutePrompt;

        operations! {
            /// Runs one prompt; the reply is the final text.
            Execute = "execute": ExecutePrompt => String;
        }
    }

    pub mod context {
        use crate::models::Message;
        use crate::ops::{
            ContextAddMessage, ContextSetMessages, ContextSyncMessages, ContextSyncView, Done, NoParams, RequestView,
            ViewDelta,
        };

        operations! {
            AddMessage = "add_message": ContextAddMessage => Done;
            GetMessages = "get_messages": NoParams => Vec<Message>;
            /// A view fit for one request; the stored history is unchanged.
            GetMessagesForRequest = "get_messages_for_request": RequestView => Vec<Message>;
            /// The same view as what changed since the caller's last one.
            SyncView = "sync_view": ContextSyncView => ViewDelta;
            /// The whole history as what changed since the caller's last
            /// read (the host's session recorder).
            SyncMessages = "sync_messages": ContextSyncMessages => ViewDelta;
            SetMessages = "set_messages": ContextSetMessages => Done;
            Clear = "clear": NoParams => Done;
        }
    }

    /// What a module registered at run time through the host (any kind).
    pub mod callback {
        use serde_json::Value;

        use crate::models::HookResult;
        use crate::ops::{CallbackName, ContributorName, Done, HookCall, NoParams};

        operations! {
            /// Runs the hook the module registered under `handler` (`hooks.register`).
            Hook = "callback.hook": HookCall => HookResult;
            /// Asks a contributor the module registered (`contributions.register`).
            Contribute = "callback.contribute": ContributorName => Option<Value>;
            /// Runs a cleanup the module registered (`cleanup.register`), once.
            Cleanup = "callback.cleanup": CallbackName => Done;
            /// Runs the module's `on_session_ready` (declared in its
            /// description), once, after the whole plan is mounted.
            SessionReady = "callback.session_ready": NoParams => Done;
        }
    }

    pub mod resolver {
        use crate::ops::{ResolveRequest, ResolvedModule};

        operations! {
            /// Finds a module's code; a `not_found` error means "not mine".
            Resolve = "resolve": ResolveRequest => ResolvedModule;
        }
    }
}

/// Operations the host answers for a plugin.
pub mod host {
    pub mod hooks {
        use crate::models::{HookResult, JsonMap};
        use crate::ops::{CallbackName, CollectEvent, Done, EmitEvent, HookOutcome, ProcessHookResult, RegisterHook};

        operations! {
            /// Emits an event; the aggregated verdict, unprocessed (upstream's `hooks.emit`).
            Emit = "hooks.emit": EmitEvent => HookResult;
            /// Emits an event, then processes the verdict.
            Dispatch = "hooks.dispatch": EmitEvent => HookOutcome;
            /// Processes a verdict the module got elsewhere.
            Process = "hooks.process": ProcessHookResult => HookOutcome;
            /// Runs every handler of an event, each under a timeout, and
            /// collects the `data` they return; no verdict applies (upstream's
            /// `emit_and_collect`).
            EmitAndCollect = "hooks.emit_and_collect": CollectEvent => Vec<JsonMap>;
            /// Registers a hook now; events come back to the module as
            /// `callback.hook`. A second registration under a name replaces the first.
            Register = "hooks.register": RegisterHook => Done;
            /// Removes a hook this module registered; whether there was one.
            Unregister = "hooks.unregister": CallbackName => bool;
        }
    }

    pub mod provider {
        use crate::models::{ChatResponse, ModelInfo};
        use crate::ops::{NoParams, ProviderComplete, ProviderDescriptor, ProviderModel};

        operations! {
            /// A completion; with `stream`, deltas arrive as events first.
            Complete = "provider.complete": ProviderComplete => ChatResponse;
            /// The mounted providers, preferred first.
            List = "provider.list": NoParams => Vec<ProviderDescriptor>;
            /// The model a provider uses: its context window and most output
            /// (upstream's `get_model_info`), when its `defaults` say.
            Model = "provider.model": ProviderModel => Option<ModelInfo>;
        }
    }

    pub mod tool {
        use crate::models::{ToolResult, ToolSpec};
        use crate::ops::{HostCallTool, HostExecuteTool, NoParams, ToolCallOutcome};

        operations! {
            /// Runs a mounted tool (input validated against its schema).
            Execute = "tool.execute": HostExecuteTool => ToolResult;
            /// Runs a tool call with its hooks, as an agent loop makes it:
            /// `tool:pre` (deny, modify), the call, `tool:post` or `tool:error`.
            Call = "tool.call": HostCallTool => ToolCallOutcome;
            List = "tool.list": NoParams => Vec<ToolSpec>;
        }
    }

    pub mod tools {
        use crate::ops::{Done, MountTools, UnmountTools};

        operations! {
            /// Mounts tools now; calls to them come back to the mounting tool
            /// module's `execute` (for tools discovered at run time).
            Mount = "tools.mount": MountTools => Done;
            /// Unmounts tools this instance mounted.
            Unmount = "tools.unmount": UnmountTools => Done;
        }
    }

    pub mod context {
        use crate::models::Message;
        use crate::ops::{
            ContextAddMessage, ContextSetMessages, ContextSyncView, Done, NoParams, RequestView, ViewDelta,
        };

        operations! {
            AddMessage = "context.add_message": ContextAddMessage => Done;
            GetMessages = "context.get_messages": NoParams => Vec<Message>;
            GetMessagesForRequest = "context.get_messages_for_request": RequestView => Vec<Message>;
            /// A request view as what changed since the caller's last one
            /// (a provider's SDK keeping its copy of the history in step).
            SyncView = "context.sync_view": ContextSyncView => ViewDelta;
            SetMessages = "context.set_messages": ContextSetMessages => Done;
            Clear = "context.clear": NoParams => Done;
        }
    }

    pub mod capability {
        use serde_json::Value;

        use crate::ops::{CapabilityName, Done, RegisterCapability};

        operations! {
            /// A registered capability's value; `null` when none is.
            Get = "capability.get": CapabilityName => Option<Value>;
            Register = "capability.register": RegisterCapability => Done;
        }
    }

    pub mod contributions {
        use serde_json::Value;

        use crate::ops::{Channel, ContributorName, Done};

        operations! {
            /// Registers the module as a contributor to a channel; it is asked
            /// with `callback.contribute` whenever the channel is collected.
            Register = "contributions.register": ContributorName => Done;
            /// Every contribution to a channel, in registration order (none
            /// answers and failures left out).
            Collect = "contributions.collect": Channel => Vec<Value>;
        }
    }

    pub mod cleanup {
        use crate::ops::{CallbackName, Done};

        operations! {
            /// Registers a cleanup, run as `callback.cleanup` when the session
            /// ends (cleanups run in reverse registration order).
            Register = "cleanup.register": CallbackName => Done;
        }
    }

    pub mod session {
        use crate::ops::{AgentSummary, AgentTurnResult, NoParams, SessionInfo, SpawnRequest, SpawnResult};

        operations! {
            Info = "session.info": NoParams => SessionInfo;
            /// Takes the steering queue (what the user typed while the turn
            /// ran), oldest first.
            SteeringTake = "session.steering_take": NoParams => Vec<String>;
            /// Runs (or resumes) a child session of an agent.
            Spawn = "session.spawn": SpawnRequest => SpawnResult;
            /// The agents a child session may be spawned for.
            Agents = "session.agents": NoParams => Vec<AgentSummary>;
            /// One turn of an agent in a fresh child session seeded with a
            /// history; the child's events arrive as `{event, data}` stream
            /// events while it runs.
            AgentTurn = "session.agent_turn": crate::ops::AgentTurn => AgentTurnResult;
        }
    }

    pub mod history {
        use crate::models::Message;
        use crate::ops::{Done, HistoryFetch, HistorySave, NoParams};

        operations! {
            /// An agent's stored history in the front end's conversation.
            Fetch = "history.fetch": HistoryFetch => Vec<Message>;
            /// Every agent's history merged in time order, each assistant
            /// text prefixed `[agent] `, untrimmed.
            FetchAll = "history.fetch_all": NoParams => Vec<Message>;
            /// Appends to an agent's history, then trims it.
            Save = "history.save": HistorySave => Done;
        }
    }

    pub mod runs {
        use serde_json::Value;

        use crate::ops::{Done, RunLoad, RunSave};

        operations! {
            /// A thread's stored run state (`null`: none yet).
            Load = "runs.load": RunLoad => Option<Value>;
            /// Replaces a thread's run state whole.
            Save = "runs.save": RunSave => Done;
        }
    }

    pub mod log {
        use crate::ops::NoParams;

        operations! {
            /// The most verbose level the host logs (`"error"` … `"trace"`).
            Level = "log.level": NoParams => String;
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExecuteTool {
    pub name: String,
    #[serde(default)]
    pub input: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompleteRequest {
    pub request: ChatRequest,
    /// Whether the caller wants streamed delta events.
    #[serde(default)]
    pub stream: bool,
    /// The request's messages are this view of the session's context,
    /// which the provider's SDK fetches (`context.sync_view`) in place of
    /// `request.messages`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextView>,
}

/// A hook's `handle` parameters. `data` is the last key, and nothing
/// follows it: a plugin may take everything after `"data":` as the data
/// without parsing it (the SDK does). New keys go before `event`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HandleEvent {
    pub event: String,
    pub data: JsonMap,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExecutePrompt {
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

/// `hooks.emit_and_collect`: each handler gets `timeout` seconds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CollectEvent {
    pub event: String,
    #[serde(default)]
    pub data: JsonMap,
    #[serde(default = "one_second")]
    pub timeout: f64,
}

fn one_second() -> f64 {
    1.0
}

/// `hooks.register`: a hook on `event` (an exact name, `prefix:*` or `*`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegisterHook {
    pub event: String,
    #[serde(default)]
    pub priority: i32,
    pub name: String,
}

/// `callback.hook`: an event for the hook registered as `handler`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HookCall {
    pub handler: String,
    pub event: String,
    #[serde(default)]
    pub data: JsonMap,
}

/// Names a hook or cleanup a module registered.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CallbackName {
    pub name: String,
}

/// A contributor to a contribution channel.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ContributorName {
    pub channel: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Channel {
    pub channel: String,
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
    /// The request's messages are this view of the session's context, so
    /// the history does not travel with every request (see [`ContextView`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextView>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProviderDescriptor {
    pub name: String,
    pub module: String,
    pub priority: i64,
    pub info: ProviderInfo,
}

/// Which provider's model: the named one, else the preferred one.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ProviderModel {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
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

/// A tool call with its hooks (`tool.call`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostCallTool {
    pub name: String,
    #[serde(default)]
    pub input: Value,
    /// The model's id for the call: in the events, and the call is tracked
    /// as running for cancellation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// The calls of one model response share a group (in the events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_group_id: Option<String>,
}

/// What a tool call with its hooks came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallOutcome {
    /// The tool's result; a hook's denial, or what a `tool:post` hook left.
    pub result: crate::models::ToolResult,
    /// What the hooks queued for the next request only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ephemeral_injections: Vec<EphemeralInjection>,
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

/// `runs.load`: a thread id ([`crate::runs::valid_id`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RunLoad {
    pub thread: String,
}

/// `runs.save`: the thread's whole state.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RunSave {
    pub thread: String,
    pub state: Value,
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

/// What any module's description may add to its kind's: the module has
/// an `on_session_ready` for the host to call (`callback.session_ready`).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Lifecycle {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub session_ready: bool,
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
    /// The provider fetches a [`ContextView`]'s messages itself, so the
    /// host may send one instead of the history (every provider built with
    /// this SDK; one built before it gets the messages filled in by the host).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub syncs_context: bool,
}

/// What a resolver is asked: find the code of one module.
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

/// Where a resolver found a module's code.
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
    /// A module linked into the host binary, by name.
    Builtin { name: String },
}

/// A resolver's answer; the host fills an empty `resolver` with a plugin
/// resolver's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedModule {
    pub source: ResolvedSource,
    /// Which resolver answered (`env`, `plan`, `installed`, a plugin's name…).
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestView {
    /// Token budget for the returned view; the context's own limit when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_budget: Option<u64>,
    /// Name of the provider the request is for (for its context window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
}

/// "The messages of this request are the context's view": what an
/// orchestrator sends instead of the history. The provider's SDK keeps its
/// copy of the view in step with the context (`context.sync_view`), so each
/// message crosses the ABI once, when it is new, instead of twice per
/// iteration; then it applies `ephemeral` to this request's copy.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContextView {
    #[serde(default)]
    pub view: RequestView,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ephemeral: Vec<EphemeralInjection>,
}

/// Where a copy of a request view stands: the context's history `epoch`
/// (a new one whenever the history is rewritten rather than appended to,
/// and for every compacted view) and how many messages the copy holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewCursor {
    pub epoch: u64,
    pub len: usize,
}

/// `context.sync_view`'s parameters: the view wanted, and where the
/// caller's copy stands (`None`: it has none).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContextSyncView {
    #[serde(default)]
    pub view: RequestView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<ViewCursor>,
}

/// `sync_messages`' parameters: where the caller's copy of the history
/// stands (`None`: it has none).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContextSyncMessages {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<ViewCursor>,
}

/// How to bring a copy of the view up to date: keep its first `keep`
/// messages, append `messages`, and remember `cursor` for the next call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ViewDelta {
    pub cursor: ViewCursor,
    pub keep: usize,
    pub messages: Vec<Message>,
}

impl ViewDelta {
    /// The whole view, replacing whatever the caller had: what a context
    /// that keeps no cursors answers (the epoch 0 never matches a delta).
    pub fn full(messages: Vec<Message>) -> Self {
        ViewDelta { cursor: ViewCursor { epoch: 0, len: messages.len() }, keep: 0, messages }
    }

    /// Applies the delta to `copy`; `copy` then holds the view.
    pub fn apply(self, copy: &mut Vec<Message>) {
        copy.truncate(self.keep);
        copy.extend(self.messages);
    }
}

/// Applies an orchestrator's ephemeral injections to one request's copy
/// of the messages: appended to the last tool result when asked (and there
/// is one), else added as a message of their role.
pub fn apply_ephemeral(messages: &mut Vec<Message>, injections: Vec<EphemeralInjection>) {
    use crate::models::{MessageContent, Role};
    for injection in injections {
        if injection.append_to_last_tool_result {
            if let Some(last) = messages.iter_mut().rev().find(|m| m.role == Role::Tool) {
                let text = format!("{}\n\n{}", last.content.text(), injection.content);
                last.content = MessageContent::Text(text);
                continue;
            }
        }
        let role = match injection.role {
            InjectionRole::System => Role::System,
            InjectionRole::User => Role::User,
            InjectionRole::Assistant => Role::Assistant,
        };
        messages.push(Message::new(role, injection.content));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ephemeral_injections_touch_only_the_request_copy() {
        use crate::models::{Messages, Role};
        let kept: Messages = vec![Message::user("hi"), Message::tool_result("c1", "42")].into();
        let mut request = kept.clone();
        apply_ephemeral(
            &mut request,
            vec![
                EphemeralInjection {
                    content: "lint: 3 errors".into(),
                    role: InjectionRole::System,
                    append_to_last_tool_result: true,
                },
                EphemeralInjection {
                    content: "be brief".into(),
                    role: InjectionRole::User,
                    append_to_last_tool_result: false,
                },
            ],
        );
        assert_eq!(request[1].content.text(), "42\n\nlint: 3 errors");
        assert_eq!((request[2].role, request[2].content.text()), (Role::User, "be brief".to_owned()));
        assert_eq!(kept.len(), 2, "the shared copy is unchanged");
        assert_eq!(kept[1].content.text(), "42");
    }

    #[test]
    fn a_view_delta_keeps_a_prefix_then_appends() {
        let mut copy = vec![Message::user("a"), Message::user("b"), Message::user("stale")];
        let delta = ViewDelta { cursor: ViewCursor { epoch: 7, len: 3 }, keep: 2, messages: vec![Message::user("c")] };
        delta.apply(&mut copy);
        assert_eq!(copy, vec![Message::user("a"), Message::user("b"), Message::user("c")]);
        ViewDelta::full(vec![Message::user("z")]).apply(&mut copy);
        assert_eq!(copy, vec![Message::user("z")]);
        let json = serde_json::to_value(ContextView::default()).unwrap();
        assert_eq!(json, serde_json::json!({"view": {}}), "an empty view travels small");
    }

    #[test]
    fn operations_without_parameters_or_reply_keep_their_wire_forms() {
        assert_eq!(serde_json::to_string(&NoParams).unwrap(), "{}");
        assert_eq!(serde_json::to_string(&Done).unwrap(), "null");
        // Whatever a peer of any version sent is accepted.
        for json in ["{}", "null", r#"{"x": 1}"#, "[]"] {
            assert_eq!(serde_json::from_str::<NoParams>(json).unwrap(), NoParams, "{json}");
            assert_eq!(serde_json::from_str::<Done>(json).unwrap(), Done, "{json}");
        }
    }

    #[test]
    fn a_missing_capability_is_null_both_ways() {
        type Reply = <host::capability::Get as Op>::Reply;
        assert_eq!(serde_json::to_string(&Reply::None).unwrap(), "null");
        assert_eq!(serde_json::from_str::<Reply>("null").unwrap(), None);
        assert_eq!(serde_json::from_str::<Reply>("42").unwrap(), Some(Value::from(42)));
    }
}
