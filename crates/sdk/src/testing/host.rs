//! [`TestHost`]: the host a module's unit tests mount it into, in-process.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::RStr;
use amplifier_abi::bridge::{FirstPoll, PendingCalls};
use amplifier_abi::{CallOutcome, EventSinkBox, HostApi, HostApi_TO};
use amplifier_protocol::models::{
    ChatRequest, ChatResponse, ContentBlock, HookAction, HookResult, InjectionRole, JsonMap, Message, ProviderInfo,
    Role, ToolCall, ToolResult, ToolSpec,
};
use amplifier_protocol::ops::{self, host, Done, HookOutcome, Op};
use amplifier_protocol::{events, ErrorKind, ModuleError};
use futures::future::BoxFuture;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::callbacks::Callbacks;
use crate::module::{start_call, DynTool};
use crate::{Host, ModuleResult, MountContext, Tool};

/// What the test host calls a module it mounted.
const MODULE_ID: &str = "module-under-test";

/// An in-process host double (upstream's MockCoordinator): mount a module
/// into it with [`TestHost::mount`], drive the module through its trait
/// (`Tool`, `Provider`, `HookHandler`, `ContextManager`, `Orchestrator`),
/// then look at what it asked of the host.
///
/// It answers the host operations a module makes through its [`Host`]:
/// - events (`emit`, `dispatch`, `emit_and_collect`) are recorded
///   ([`TestHost::events`]) and answered by the verdicts scripted with
///   [`TestHost::with_verdict`] and by hooks the module registered;
/// - completions come from the responses scripted with
///   [`TestHost::with_response`] (a scripted provider), in order, and the
///   requests are kept ([`TestHost::requests`]);
/// - tools are the ones given with [`TestHost::with_tool`] (input is not
///   checked against their schema, as the real host does);
/// - the context is a list of messages ([`TestHost::messages`]);
/// - capabilities, contributions, cleanups and `on_session_ready` work as
///   in a session ([`TestHost::session_ready`], [`TestHost::cleanup`]).
///
/// Child sessions, agents and the front end's history are not here: those
/// operations fail with an error that names them.
#[derive(Clone, Default)]
pub struct TestHost {
    state: Arc<State>,
}

#[derive(Default)]
struct State {
    events: Mutex<Vec<(String, JsonMap)>>,
    verdicts: Mutex<Vec<(String, HookResult)>>,
    responses: Mutex<VecDeque<ModuleResult<ChatResponse>>>,
    requests: Mutex<Vec<ChatRequest>>,
    tools: Mutex<Vec<Arc<dyn DynTool>>>,
    tool_calls: Mutex<Vec<(String, Value)>>,
    messages: Mutex<Vec<Message>>,
    capabilities: Mutex<HashMap<String, Value>>,
    run_states: Mutex<HashMap<String, Value>>,
    hooks: Mutex<Vec<Registered<ops::RegisterHook>>>,
    contributors: Mutex<Vec<Registered<ops::ContributorName>>>,
    cleanups: Mutex<Vec<Registered<String>>>,
    /// Every mounted module's registrations, in mount order.
    modules: Mutex<Vec<Arc<Callbacks>>>,
}

/// What a module registered, with the module's callbacks to call it back.
struct Registered<T> {
    what: T,
    module: Arc<Callbacks>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `pattern` (an exact name, `prefix:*` or `*`) matches `event`.
fn matches(pattern: &str, event: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => event.starts_with(prefix),
        None => pattern == event,
    }
}

impl TestHost {
    pub fn new() -> Self {
        TestHost::default()
    }

    /// The provider's next answer (a scripted provider: answers are given
    /// in the order they were added).
    pub fn with_response(self, response: ChatResponse) -> Self {
        lock(&self.state.responses).push_back(Ok(response));
        self
    }

    /// The provider's next answer is this error.
    pub fn with_provider_error(self, error: ModuleError) -> Self {
        lock(&self.state.responses).push_back(Err(error));
        self
    }

    /// A tool the host offers (to an orchestrator under test).
    pub fn with_tool(self, tool: impl Tool) -> Self {
        lock(&self.state.tools).push(Arc::new(tool));
        self
    }

    /// What the hooks answer to events `pattern` matches (an exact name,
    /// `prefix:*` or `*`); the first matching verdict applies.
    pub fn with_verdict(self, pattern: &str, verdict: HookResult) -> Self {
        lock(&self.state.verdicts).push((pattern.to_owned(), verdict));
        self
    }

    /// The context's messages to start with.
    pub fn with_messages(self, messages: Vec<Message>) -> Self {
        *lock(&self.state.messages) = messages;
        self
    }

    /// A capability another module registered.
    pub fn with_capability(self, name: &str, value: Value) -> Self {
        lock(&self.state.capabilities).insert(name.to_owned(), value);
        self
    }

    /// Mounts a module: calls its mount function (the one `export_module!`
    /// names) with `config` and a [`Host`] on this test host. The config is
    /// used as given; [`crate::testing::with_defaults`] fills in the
    /// manifest's defaults as the loader does.
    pub fn mount<T>(&self, mount: impl FnOnce(MountContext) -> ModuleResult<T>, config: Value) -> ModuleResult<T> {
        let Value::Object(config) = config else {
            return Err(ModuleError::new(ErrorKind::InvalidRequest, "a module's config is a JSON object"));
        };
        let _entered = crate::runtime().enter();
        mount(MountContext { config, host: self.module_host(), module: MODULE_ID })
    }

    /// A [`Host`] on this test host, for code under test that takes one.
    pub fn host(&self) -> Host {
        self.module_host()
    }

    fn module_host(&self) -> Host {
        let callbacks = Arc::new(Callbacks::default());
        lock(&self.state.modules).push(callbacks.clone());
        let api = TestHostApi { state: self.state.clone(), module: callbacks.clone(), calls: PendingCalls::new() };
        Host::new(HostApi_TO::from_value(api, TD_Opaque), callbacks)
    }

    /// Runs each mounted module's `on_session_ready`, in mount order, as a
    /// session does once its plan is mounted: a failure is recorded as a
    /// `module:on_session_ready_failed` event and the others still run; the
    /// failures.
    pub async fn session_ready(&self) -> Vec<ModuleError> {
        let modules = lock(&self.state.modules).clone();
        let mut failures = Vec::new();
        for module in modules {
            let ready = lock(&module.session_ready).take();
            if let Some(Err(err)) = match ready {
                Some(ready) => Some(ready().await),
                None => None,
            } {
                let mut data = JsonMap::new();
                data.insert("module_id".into(), Value::String(MODULE_ID.into()));
                data.insert("error".into(), Value::String(err.message.clone()));
                lock(&self.state.events).push((events::MODULE_ON_SESSION_READY_FAILED.to_owned(), data));
                failures.push(err);
            }
        }
        failures
    }

    /// Runs the cleanups the modules registered, in reverse order, as a
    /// session does when it ends; the failures.
    pub async fn cleanup(&self) -> Vec<ModuleError> {
        let cleanups = std::mem::take(&mut *lock(&self.state.cleanups));
        let mut failures = Vec::new();
        for Registered { what: name, module } in cleanups.into_iter().rev() {
            let cleanup = lock(&module.cleanups).remove(&name);
            if let Some(Err(err)) = match cleanup {
                Some(cleanup) => Some(cleanup().await),
                None => None,
            } {
                failures.push(err);
            }
        }
        failures
    }

    /// Every event emitted, in order, with its data as emitted.
    pub fn events(&self) -> Vec<(String, JsonMap)> {
        lock(&self.state.events).clone()
    }

    pub fn event_names(&self) -> Vec<String> {
        lock(&self.state.events).iter().map(|(name, _)| name.clone()).collect()
    }

    /// The data of each event named `name`.
    pub fn events_named(&self, name: &str) -> Vec<JsonMap> {
        lock(&self.state.events).iter().filter(|(event, _)| event == name).map(|(_, data)| data.clone()).collect()
    }

    /// The requests the provider was sent.
    pub fn requests(&self) -> Vec<ChatRequest> {
        lock(&self.state.requests).clone()
    }

    /// The tool calls made through the host: `(name, input)`.
    pub fn tool_calls(&self) -> Vec<(String, Value)> {
        lock(&self.state.tool_calls).clone()
    }

    /// The context's messages now.
    pub fn messages(&self) -> Vec<Message> {
        lock(&self.state.messages).clone()
    }

    /// A capability's value now.
    pub fn capability(&self, name: &str) -> Option<Value> {
        lock(&self.state.capabilities).get(name).cloned()
    }
}

/// An answer made of one text block.
pub fn text_response(text: &str) -> ChatResponse {
    ChatResponse { content: vec![ContentBlock::text(text)], ..ChatResponse::default() }
}

/// An answer that calls tools: `(name, arguments)` each, with ids `call_1`, `call_2`, ….
pub fn tool_call_response(calls: &[(&str, Value)]) -> ChatResponse {
    let calls = calls
        .iter()
        .enumerate()
        .map(|(index, (name, arguments))| ToolCall::new(format!("call_{}", index + 1), *name, arguments.clone()))
        .collect();
    ChatResponse { tool_calls: Some(calls), ..ChatResponse::default() }
}

/// One module's [`HostApi`] on the shared state.
struct TestHostApi {
    state: Arc<State>,
    module: Arc<Callbacks>,
    calls: Arc<PendingCalls>,
}

type Answer = BoxFuture<'static, ModuleResult<String>>;

fn reply<T: Serialize>(value: T) -> ModuleResult<String> {
    serde_json::to_string(&value).map_err(|err| ModuleError::internal(format!("unserialisable reply: {err}")))
}

fn params<O: Op>(json: &str) -> ModuleResult<O::Params>
where
    O::Params: DeserializeOwned,
{
    serde_json::from_str(json).map_err(|err| {
        ModuleError::new(ErrorKind::InvalidRequest, format!("invalid parameters for '{}': {err}", O::NAME))
    })
}

/// An operation answered at once.
fn ready(result: ModuleResult<String>) -> ModuleResult<Answer> {
    Ok(Box::pin(async move { result }))
}

impl TestHostApi {
    fn answer(&self, op: &str, json: &str) -> ModuleResult<Answer> {
        let state = &self.state;
        match op {
            host::log::Level::NAME => ready(reply("info")),
            host::hooks::Emit::NAME => {
                let call = params::<host::hooks::Emit>(json)?;
                let state = state.clone();
                Ok(Box::pin(async move { reply(emit(&state, call.event, call.data).await) }))
            }
            host::hooks::Dispatch::NAME => {
                let call = params::<host::hooks::Dispatch>(json)?;
                let state = state.clone();
                Ok(Box::pin(async move {
                    let data = call.data.clone();
                    let result = emit(&state, call.event, call.data).await;
                    reply(process(&state, result, data))
                }))
            }
            host::hooks::Process::NAME => {
                let call = params::<host::hooks::Process>(json)?;
                ready(reply(process(state, call.result, JsonMap::new())))
            }
            host::hooks::EmitAndCollect::NAME => {
                let call = params::<host::hooks::EmitAndCollect>(json)?;
                let state = state.clone();
                Ok(Box::pin(async move { reply(collect(&state, call.event, call.data).await) }))
            }
            host::hooks::Register::NAME => {
                let what = params::<host::hooks::Register>(json)?;
                let mut hooks = lock(&state.hooks);
                hooks.retain(|hook| !(hook.what.name == what.name && Arc::ptr_eq(&hook.module, &self.module)));
                hooks.push(Registered { what, module: self.module.clone() });
                ready(reply(Done))
            }
            host::hooks::Unregister::NAME => {
                let name = params::<host::hooks::Unregister>(json)?.name;
                let mut hooks = lock(&state.hooks);
                let before = hooks.len();
                hooks.retain(|hook| !(hook.what.name == name && Arc::ptr_eq(&hook.module, &self.module)));
                ready(reply(hooks.len() < before))
            }
            host::provider::Complete::NAME => {
                let call = params::<host::provider::Complete>(json)?;
                lock(&state.requests).push(call.request);
                let next = lock(&state.responses).pop_front().unwrap_or_else(|| {
                    Err(ModuleError::new(
                        ErrorKind::Unavailable,
                        "the test host's scripted provider has no response left: add one with TestHost::with_response",
                    ))
                });
                ready(next.and_then(reply))
            }
            host::provider::List::NAME => ready(reply(vec![ops::ProviderDescriptor {
                name: "scripted".to_owned(),
                module: "test-host".to_owned(),
                priority: 0,
                info: ProviderInfo { id: "scripted".to_owned(), ..ProviderInfo::default() },
            }])),
            host::provider::Model::NAME => ready(reply(Value::Null)),
            host::tool::List::NAME => {
                let specs: Vec<ToolSpec> = lock(&state.tools).iter().map(|tool| tool.spec()).collect();
                ready(reply(specs))
            }
            host::tool::Execute::NAME => {
                let call = params::<host::tool::Execute>(json)?;
                lock(&state.tool_calls).push((call.name.clone(), call.input.clone()));
                let tool = lock(&state.tools).iter().find(|tool| tool.spec().name == call.name).cloned();
                Ok(Box::pin(async move {
                    let result = match tool {
                        Some(tool) => tool.execute(call.input).await,
                        None => ToolResult::failed_call("ToolNotFound", format!("no tool named '{}'", call.name)),
                    };
                    reply(result)
                }))
            }
            host::context::AddMessage::NAME => {
                lock(&state.messages).push(params::<host::context::AddMessage>(json)?.message);
                ready(reply(Done))
            }
            host::context::GetMessages::NAME | host::context::GetMessagesForRequest::NAME => {
                ready(reply(&*lock(&state.messages)))
            }
            host::context::SyncView::NAME => ready(reply(ops::ViewDelta::full(lock(&state.messages).clone()))),
            host::context::SetMessages::NAME => {
                *lock(&state.messages) = params::<host::context::SetMessages>(json)?.messages;
                ready(reply(Done))
            }
            host::context::Clear::NAME => {
                lock(&state.messages).clear();
                ready(reply(Done))
            }
            host::capability::Get::NAME => {
                let name = params::<host::capability::Get>(json)?.name;
                ready(reply(lock(&state.capabilities).get(&name)))
            }
            host::capability::Register::NAME => {
                let call = params::<host::capability::Register>(json)?;
                lock(&state.capabilities).insert(call.name, call.value);
                ready(reply(Done))
            }
            host::contributions::Register::NAME => {
                let what = params::<host::contributions::Register>(json)?;
                lock(&state.contributors).push(Registered { what, module: self.module.clone() });
                ready(reply(Done))
            }
            host::contributions::Collect::NAME => {
                let channel = params::<host::contributions::Collect>(json)?.channel;
                let state = state.clone();
                Ok(Box::pin(async move { reply(contributions(&state, &channel).await) }))
            }
            host::cleanup::Register::NAME => {
                let name = params::<host::cleanup::Register>(json)?.name;
                lock(&state.cleanups).push(Registered { what: name, module: self.module.clone() });
                ready(reply(Done))
            }
            host::session::Info::NAME => {
                let tools = lock(&state.tools).iter().map(|tool| tool.spec().name).collect();
                ready(reply(ops::SessionInfo {
                    session_id: "test-session".to_owned(),
                    parent_id: None,
                    cancellation: "none".to_owned(),
                    tools,
                    depth: 0,
                }))
            }
            host::session::SteeringTake::NAME => ready(reply(Vec::<String>::new())),
            host::runs::Load::NAME => {
                let thread = params::<host::runs::Load>(json)?.thread;
                ready(reply(lock(&state.run_states).get(&thread)))
            }
            host::runs::Save::NAME => {
                let call = params::<host::runs::Save>(json)?;
                lock(&state.run_states).insert(call.thread, call.state);
                ready(reply(Done))
            }
            other => Err(ModuleError::unsupported(format!(
                "the test host does not answer '{other}' (child sessions, agents, history and run-time tool \
                 mounting need a real session: test them with `amplifier module validate` or a plan)"
            ))),
        }
    }
}

/// The verdicts and registered hooks matching `event`, in order: scripted
/// verdicts first, then the modules' hooks by priority.
async fn emit(state: &Arc<State>, event: String, data: JsonMap) -> HookResult {
    lock(&state.events).push((event.clone(), data.clone()));
    let scripted = lock(&state.verdicts).iter().find(|(pattern, _)| matches(pattern, &event)).map(|(_, v)| v.clone());
    let mut results: Vec<HookResult> = scripted.into_iter().collect();
    let mut data = data;
    for hook in registered_hooks(state, &event) {
        let result = hook(event.clone(), data.clone()).await.unwrap_or_default();
        if result.action == HookAction::Modify {
            if let Some(modified) = &result.data {
                data = modified.clone();
            }
        }
        results.push(result);
    }
    // The kernel's precedence: deny > ask_user > inject_context > modify > continue.
    let rank = |action: HookAction| match action {
        HookAction::Deny => 4,
        HookAction::AskUser => 3,
        HookAction::InjectContext => 2,
        HookAction::Modify => 1,
        HookAction::Continue => 0,
    };
    results.into_iter().max_by_key(|result| rank(result.action)).unwrap_or_default()
}

type HookFn = Arc<dyn Fn(String, JsonMap) -> BoxFuture<'static, ModuleResult<HookResult>> + Send + Sync>;

fn registered_hooks(state: &State, event: &str) -> Vec<HookFn> {
    let mut hooks: Vec<(i32, HookFn)> = lock(&state.hooks)
        .iter()
        .filter(|hook| matches(&hook.what.event, event))
        .filter_map(|hook| Some((hook.what.priority, lock(&hook.module.hooks).get(&hook.what.name)?.clone())))
        .collect();
    hooks.sort_by_key(|(priority, _)| *priority);
    hooks.into_iter().map(|(_, hook)| hook).collect()
}

/// The verdict applied as the kernel applies it, without an approval
/// system: an injection joins the context, `ask_user` is denied.
fn process(state: &State, result: HookResult, data: JsonMap) -> HookOutcome {
    let outcome = |action, reason: Option<String>, data| HookOutcome {
        action,
        reason,
        data: Some(data),
        ephemeral_injections: Vec::new(),
    };
    match result.action {
        HookAction::Deny => outcome(HookAction::Deny, result.reason, data),
        HookAction::AskUser => outcome(HookAction::Deny, Some("the test host has no approval system".to_owned()), data),
        HookAction::Modify => outcome(HookAction::Modify, None, result.data.unwrap_or(data)),
        HookAction::InjectContext => {
            if let Some(content) = result.context_injection.filter(|_| !result.ephemeral) {
                let role = match result.context_injection_role {
                    InjectionRole::System => Role::System,
                    InjectionRole::User => Role::User,
                    InjectionRole::Assistant => Role::Assistant,
                };
                lock(&state.messages).push(Message::new(role, content));
            }
            outcome(HookAction::Continue, None, data)
        }
        HookAction::Continue => outcome(HookAction::Continue, None, data),
    }
}

async fn collect(state: &Arc<State>, event: String, data: JsonMap) -> Vec<JsonMap> {
    lock(&state.events).push((event.clone(), data.clone()));
    let mut collected = Vec::new();
    for hook in registered_hooks(state, &event) {
        if let Ok(HookResult { data: Some(data), .. }) = hook(event.clone(), data.clone()).await {
            collected.push(data);
        }
    }
    collected
}

async fn contributions(state: &Arc<State>, channel: &str) -> Vec<Value> {
    let contributors: Vec<_> = lock(&state.contributors)
        .iter()
        .filter(|c| c.what.channel == channel)
        .filter_map(|c| lock(&c.module.contributors).get(&(c.what.channel.clone(), c.what.name.clone())).cloned())
        .collect();
    let mut values = Vec::new();
    for contribute in contributors {
        if let Ok(Some(value)) = contribute().await {
            values.push(value);
        }
    }
    values
}

impl HostApi for TestHostApi {
    fn log(&self, _level: u8, _target: RStr<'_>, _message: RStr<'_>) {}

    fn call(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome {
        start_call(&self.calls, sink, FirstPoll::Inline, |_| self.answer(op.as_str(), params.as_str()))
    }

    fn cancel(&self, call_id: u64) {
        self.calls.cancel(call_id);
    }
}
