//! Adapters from the five author-facing traits to the ABI's `PluginInstance`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr, RString};
use amplifier_abi::bridge::{panic_error, CallSink, FirstPoll, PendingCalls, SharedSink};
use amplifier_abi::{CallOutcome, EventSinkBox, HostApiBox, PluginInstance, PluginInstanceBox, PluginInstance_TO};
use amplifier_protocol::models::{
    ChatResponse, HookResult, JsonMap, Message, Messages, ModelInfo, ToolResult, ToolSpec,
};
use amplifier_protocol::ops::host as host_ops;
use amplifier_protocol::ops::plugin::{callback, context, hook, orchestrator, provider, resolver, tool};
use amplifier_protocol::ops::{self, Done, NoParams, Op, RequestView, ResolveRequest, ResolvedModule};
use amplifier_protocol::{ErrorKind, ModuleError};
use futures::future::BoxFuture;
use futures::FutureExt;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::callbacks::Callbacks;
use crate::host::Host;
use crate::logging;
use crate::runtime::runtime;
use crate::{ContextManager, EventData, HookHandler, ModuleResult, Orchestrator, Provider, Resolver, Tool};

/// What a mount function receives.
pub struct MountContext {
    /// The module's `config` from the mount plan (`${VAR}` already expanded).
    pub config: JsonMap,
    /// The host's services: events, providers, tools, context, capabilities.
    pub host: Host,
    /// The plugin's package name, for messages.
    pub module: &'static str,
}

impl MountContext {
    /// The config as a typed struct; a mismatch is a clear error naming the module.
    pub fn config<T: DeserializeOwned>(&self) -> ModuleResult<T> {
        serde_json::from_value(Value::Object(self.config.clone())).map_err(|err| {
            ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {}: {err}", self.module))
        })
    }
}

/// Streams events back to the caller of the current operation.
#[derive(Clone)]
pub struct Stream {
    sink: Option<Arc<SharedSink>>,
}

impl Stream {
    /// A stream that sends nothing: for calling a provider directly, as a
    /// unit test does.
    pub fn disabled() -> Self {
        Stream { sink: None }
    }

    /// Whether the caller asked for streamed events.
    pub fn is_enabled(&self) -> bool {
        self.sink.is_some()
    }

    /// Sends one event (a no-op when streaming is off).
    pub fn send(&self, event: &impl Serialize) {
        if let Some(sink) = &self.sink {
            if let Ok(json) = serde_json::to_string(event) {
                sink.event(json);
            }
        }
    }
}

/// The tools a tool module mounts.
#[derive(Default)]
pub struct Tools {
    /// Each tool under its name, read once: a spec is built on every call
    /// of `spec()`, too much to look a call's tool up by.
    tools: Vec<(String, Arc<dyn DynTool>)>,
    dispatcher: Option<Arc<dyn DynDispatcher>>,
}

impl Tools {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, tool: impl Tool) -> Self {
        self.tools.push((Tool::spec(&tool).name, Arc::new(tool)));
        self
    }

    /// Runs the tools this module mounts later with [`Host::mount_tools`]
    /// (tools discovered at run time: remote services, MCP servers).
    pub fn with_dispatcher(mut self, dispatcher: impl ToolDispatcher) -> Self {
        self.dispatcher = Some(Arc::new(dispatcher));
        self
    }
}

/// What a tool module's unit tests reach (the `testing` feature).
#[cfg(any(test, feature = "testing"))]
impl Tools {
    /// The specs of the tools mounted at mount time.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools.iter().map(|(_, tool)| tool.spec()).collect()
    }

    /// Runs the tool named `name` (or the dispatcher's, for tools mounted
    /// at run time) as the host would, without checking `input` against the
    /// tool's schema; an unknown name is a failed call.
    pub async fn call(&self, name: &str, input: Value) -> ToolResult {
        if let Some(tool) = self.tool(name) {
            return tool.execute(input).await;
        }
        match self.dispatcher.clone() {
            Some(dispatcher) => dispatcher.execute(name.to_owned(), input).await,
            None => ToolResult::failed_call("ToolNotFound", format!("this module has no tool '{name}'")),
        }
    }
}

/// Executes tools a module mounted at run time, by name.
pub trait ToolDispatcher: Send + Sync + 'static {
    fn execute(&self, name: &str, input: Value) -> impl std::future::Future<Output = ToolResult> + Send;
}

trait DynDispatcher: Send + Sync {
    fn execute(self: Arc<Self>, name: String, input: Value) -> BoxFuture<'static, ToolResult>;
}

impl<D: ToolDispatcher> DynDispatcher for D {
    fn execute(self: Arc<Self>, name: String, input: Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move { ToolDispatcher::execute(&*self, &name, input).await })
    }
}

pub(crate) trait DynTool: Send + Sync {
    fn spec(&self) -> ToolSpec;
    fn may_block(&self) -> bool;
    fn execute(self: Arc<Self>, input: Value) -> BoxFuture<'static, ToolResult>;
}

impl<T: Tool> DynTool for T {
    fn spec(&self) -> ToolSpec {
        Tool::spec(self)
    }

    fn may_block(&self) -> bool {
        Tool::may_block(self)
    }

    fn execute(self: Arc<Self>, input: Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move { Tool::execute(&*self, input).await })
    }
}

/// One mounted module, whatever its kind, speaking JSON.
pub trait ErasedModule: Send + Sync + 'static {
    fn describe(&self) -> ModuleResult<String>;
    /// Whether the module's tool or provider calls may block their thread
    /// (see [`first_poll`]).
    fn may_block(&self) -> bool;
    /// Parses `params` and returns the operation's future; one that
    /// streams ([`Op::STREAMS`]) keeps `sink`.
    fn start(self: Arc<Self>, op: &str, params: &str, sink: &mut CallSink) -> ModuleResult<Answer>;
}

/// The future of one operation's JSON reply.
pub type Answer = BoxFuture<'static, ModuleResult<String>>;

pub type MountFn<'a> = &'a (dyn Fn(MountContext) -> ModuleResult<Arc<dyn ErasedModule>> + Sync);

/// Starts one operation on a module of kind `M`: parses the parameters and
/// returns the future of the reply.
pub(crate) type Starter<M> = fn(Arc<M>, &str, &mut CallSink) -> ModuleResult<Answer>;

/// A module kind as the ABI sees it: its description and the operations
/// (of `amplifier_protocol::ops::plugin`) it answers, each by its starter.
pub(crate) trait Kind: Send + Sync + Sized + 'static {
    const NAME: &'static str;
    const OPS: &'static [(&'static str, Starter<Self>)];

    fn describe(&self) -> ModuleResult<String> {
        Ok("{}".to_owned())
    }

    fn may_block(&self) -> bool {
        true
    }
}

/// Answers operation `O`.
pub(crate) trait Answers<O: Op>: Send + Sync + 'static {
    fn answer(self: Arc<Self>, params: O::Params, stream: Stream) -> BoxFuture<'static, ModuleResult<O::Reply>>;
}

/// The starter of every operation but a hook's: parse, answer, serialise.
pub(crate) fn start<M: Answers<O>, O: Op>(module: Arc<M>, params: &str, sink: &mut CallSink) -> ModuleResult<Answer> {
    let params = parse::<O::Params>(O::NAME, params)?;
    // Only an operation that streams shares the sink: any other call
    // answered at once then hands it back untouched.
    let stream = match O::STREAMS {
        true => Stream { sink: Some(sink.shared()) },
        false => Stream::disabled(),
    };
    Ok(Box::pin(async move { to_json(module.answer(params, stream).await?) }))
}

/// The one dispatcher of every kind.
struct Erased<M>(Arc<M>);

impl<M: Kind> ErasedModule for Erased<M> {
    fn describe(&self) -> ModuleResult<String> {
        self.0.describe()
    }

    fn may_block(&self) -> bool {
        self.0.may_block()
    }

    fn start(self: Arc<Self>, op: &str, params: &str, sink: &mut CallSink) -> ModuleResult<Answer> {
        match starter::<M>(op) {
            Some(start) => start(self.0.clone(), params, sink),
            None => Err(ModuleError::unsupported(format!("a {} module has no operation '{op}'", M::NAME))),
        }
    }
}

fn starter<M: Kind>(op: &str) -> Option<Starter<M>> {
    M::OPS.iter().find(|(name, _)| *name == op).map(|(_, start)| *start)
}

fn erase<M: Kind>(module: M) -> Arc<dyn ErasedModule> {
    Arc::new(Erased(Arc::new(module)))
}

fn parse<'a, T: serde::Deserialize<'a>>(op: &str, params: &'a str) -> ModuleResult<T> {
    serde_json::from_str(params)
        .map_err(|err| ModuleError::new(ErrorKind::InvalidRequest, format!("invalid parameters for '{op}': {err}")))
}

/// Results go straight to JSON text: building a `Value` tree first doubled
/// the allocations on every call (see the W2 benchmark).
fn to_json(value: impl Serialize) -> ModuleResult<String> {
    serde_json::to_string(&value).map_err(|err| ModuleError::internal(format!("unserialisable result: {err}")))
}

impl Kind for Tools {
    const NAME: &'static str = "tool";
    const OPS: &'static [(&'static str, Starter<Self>)] = &[(tool::Execute::NAME, start::<Self, tool::Execute>)];

    fn describe(&self) -> ModuleResult<String> {
        to_json(ops::ToolDescription { tools: self.tools.iter().map(|(_, tool)| tool.spec()).collect() })
    }

    /// A dispatcher's tools are not known until they run: they may block.
    fn may_block(&self) -> bool {
        self.dispatcher.is_some() || self.tools.iter().any(|(_, tool)| tool.may_block())
    }
}

impl Tools {
    fn tool(&self, name: &str) -> Option<Arc<dyn DynTool>> {
        self.tools.iter().find(|(known, _)| known == name).map(|(_, tool)| tool.clone())
    }
}

impl Answers<tool::Execute> for Tools {
    fn answer(
        self: Arc<Self>,
        call: ops::ExecuteTool,
        _stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<ToolResult>> {
        if let Some(tool) = self.tool(&call.name) {
            return Box::pin(async move { Ok(tool.execute(call.input).await) });
        }
        let Some(dispatcher) = self.dispatcher.clone() else {
            let error = ModuleError::new(ErrorKind::NotFound, format!("this module has no tool '{}'", call.name));
            return Box::pin(async move { Err(error) });
        };
        Box::pin(async move { Ok(dispatcher.execute(call.name, call.input).await) })
    }
}

pub fn erase_tools(tools: Tools) -> Arc<dyn ErasedModule> {
    erase(tools)
}

/// A provider with its copy of the session's request view (see
/// [`ops::ContextView`]): only the messages it lacks cross the ABI.
struct ProviderModule<P> {
    provider: P,
    host: Host,
    view: std::sync::Mutex<Option<(ops::ViewCursor, Messages)>>,
}

impl<P: Provider> ProviderModule<P> {
    /// The context's view, brought up to date. The copy is taken out while
    /// it syncs (a concurrent request then syncs a whole copy of its own),
    /// and put back shared with the request: when the provider has dropped
    /// the request, the next delta is appended in place.
    async fn messages(&self, context: ops::ContextView) -> ModuleResult<Messages> {
        let held = self.view.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        let (since, mut messages) = match held {
            Some((cursor, messages)) => (Some(cursor), messages),
            None => (None, Messages::default()),
        };
        let delta =
            self.host.call::<host_ops::context::SyncView>(&ops::ContextSyncView { view: context.view, since }).await?;
        let cursor = delta.cursor;
        delta.apply(&mut messages);
        *self.view.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((cursor, messages.clone()));
        if !context.ephemeral.is_empty() {
            ops::apply_ephemeral(&mut messages, context.ephemeral);
        }
        Ok(messages)
    }
}

impl<P: Provider> Kind for ProviderModule<P> {
    const NAME: &'static str = "provider";
    const OPS: &'static [(&'static str, Starter<Self>)] = &[
        (provider::Complete::NAME, start::<Self, provider::Complete>),
        (provider::ListModels::NAME, start::<Self, provider::ListModels>),
    ];

    fn describe(&self) -> ModuleResult<String> {
        to_json(ops::ProviderDescription { info: self.provider.info(), syncs_context: true })
    }

    fn may_block(&self) -> bool {
        self.provider.may_block()
    }
}

impl<P: Provider> Answers<provider::Complete> for ProviderModule<P> {
    fn answer(
        self: Arc<Self>,
        call: ops::CompleteRequest,
        stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<ChatResponse>> {
        let stream = if call.stream { stream } else { Stream::disabled() };
        Box::pin(async move {
            let mut request = call.request;
            if let Some(context) = call.context {
                request.messages = self.messages(context).await?;
            }
            self.provider.complete(request, stream).await
        })
    }
}

impl<P: Provider> Answers<provider::ListModels> for ProviderModule<P> {
    fn answer(self: Arc<Self>, _: NoParams, _stream: Stream) -> BoxFuture<'static, ModuleResult<Vec<ModelInfo>>> {
        Box::pin(async move { self.provider.list_models().await })
    }
}

pub fn erase_provider(provider: impl Provider, host: Host) -> Arc<dyn ErasedModule> {
    erase(ProviderModule { provider, host, view: std::sync::Mutex::new(None) })
}

struct HookModule<H>(H);

impl<H: HookHandler> Kind for HookModule<H> {
    const NAME: &'static str = "hook";
    const OPS: &'static [(&'static str, Starter<Self>)] = &[(hook::Handle::NAME, start_hook::<H>)];

    fn describe(&self) -> ModuleResult<String> {
        to_json(ops::HookDescription { subscriptions: self.0.subscriptions() })
    }
}

/// A hook's `handle` parameters with the data left as text: see [`EventData`].
#[derive(serde::Deserialize)]
struct HandleEvent<'a> {
    #[serde(borrow)]
    event: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    data: &'a serde_json::value::RawValue,
}

/// The host's `handle` parameters, `{"event":NAME,"data":DATA}`, read
/// without scanning the data: [`EventData`] parses it when a handler reads
/// it, so a hook that overrides `handle_event` and never reads it parses
/// nothing (scanning it cost a fifth of a hook call, W3).
/// The protocol keeps `data` last ([`ops::HandleEvent`]); parameters in any
/// other shape are parsed in full.
fn split_envelope(params: &str) -> Option<(&str, &str)> {
    let rest = params.strip_prefix(r#"{"event":""#)?;
    let (event, rest) = rest.split_once('"')?;
    if event.contains('\\') {
        return None;
    }
    let data = rest.strip_prefix(r#","data":"#)?.strip_suffix('}')?;
    Some((event, data))
}

/// A hook's starter: a plain "continue" (most answers) is `{}`, which the
/// host reads back as the default result.
fn start_hook<H: HookHandler>(module: Arc<HookModule<H>>, params: &str, _sink: &mut CallSink) -> ModuleResult<Answer> {
    let parsed;
    let (event, data) = match split_envelope(params) {
        Some(split) => split,
        None => {
            parsed = parse::<HandleEvent>(hook::Handle::NAME, params)?;
            (parsed.event.as_ref(), parsed.data.get())
        }
    };
    if !data.starts_with('{') {
        let message = format!("invalid parameters for '{}': the event data is not an object", hook::Handle::NAME);
        return Err(ModuleError::new(ErrorKind::InvalidRequest, message));
    }
    let (event, data) = (event.to_owned(), EventData::from_json(data.to_owned()));
    Ok(Box::pin(async move {
        let result = module.0.handle_event(&event, data).await?;
        if result == HookResult::default() {
            return Ok("{}".to_owned());
        }
        to_json(result)
    }))
}

pub fn erase_hook(hook: impl HookHandler) -> Arc<dyn ErasedModule> {
    erase(HookModule(hook))
}

struct ContextModule<C>(C);

impl<C: ContextManager> Kind for ContextModule<C> {
    const NAME: &'static str = "context";
    const OPS: &'static [(&'static str, Starter<Self>)] = &[
        (context::AddMessage::NAME, start::<Self, context::AddMessage>),
        (context::GetMessages::NAME, start::<Self, context::GetMessages>),
        (context::GetMessagesForRequest::NAME, start::<Self, context::GetMessagesForRequest>),
        (context::SyncView::NAME, start::<Self, context::SyncView>),
        (context::SyncMessages::NAME, start::<Self, context::SyncMessages>),
        (context::SetMessages::NAME, start::<Self, context::SetMessages>),
        (context::Clear::NAME, start::<Self, context::Clear>),
    ];
}

impl<C: ContextManager> Answers<context::AddMessage> for ContextModule<C> {
    fn answer(
        self: Arc<Self>,
        call: ops::ContextAddMessage,
        _stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<Done>> {
        Box::pin(async move { self.0.add_message(call.message).await.map(|()| Done) })
    }
}

impl<C: ContextManager> Answers<context::GetMessages> for ContextModule<C> {
    fn answer(self: Arc<Self>, _: NoParams, _stream: Stream) -> BoxFuture<'static, ModuleResult<Vec<Message>>> {
        Box::pin(async move { self.0.get_messages().await })
    }
}

impl<C: ContextManager> Answers<context::GetMessagesForRequest> for ContextModule<C> {
    fn answer(self: Arc<Self>, view: RequestView, _stream: Stream) -> BoxFuture<'static, ModuleResult<Vec<Message>>> {
        Box::pin(async move { self.0.get_messages_for_request(view).await })
    }
}

impl<C: ContextManager> Answers<context::SyncView> for ContextModule<C> {
    fn answer(
        self: Arc<Self>,
        request: ops::ContextSyncView,
        _stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<ops::ViewDelta>> {
        Box::pin(async move { self.0.sync_view(request).await })
    }
}

impl<C: ContextManager> Answers<context::SyncMessages> for ContextModule<C> {
    fn answer(
        self: Arc<Self>,
        request: ops::ContextSyncMessages,
        _stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<ops::ViewDelta>> {
        Box::pin(async move { self.0.sync_messages(request).await })
    }
}

impl<C: ContextManager> Answers<context::SetMessages> for ContextModule<C> {
    fn answer(
        self: Arc<Self>,
        call: ops::ContextSetMessages,
        _stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<Done>> {
        Box::pin(async move { self.0.set_messages(call.messages).await.map(|()| Done) })
    }
}

impl<C: ContextManager> Answers<context::Clear> for ContextModule<C> {
    fn answer(self: Arc<Self>, _: NoParams, _stream: Stream) -> BoxFuture<'static, ModuleResult<Done>> {
        Box::pin(async move { self.0.clear().await.map(|()| Done) })
    }
}

pub fn erase_context(context: impl ContextManager) -> Arc<dyn ErasedModule> {
    erase(ContextModule(context))
}

struct OrchestratorModule<O>(O);

impl<O: Orchestrator> Kind for OrchestratorModule<O> {
    const NAME: &'static str = "orchestrator";
    const OPS: &'static [(&'static str, Starter<Self>)] =
        &[(orchestrator::Execute::NAME, start::<Self, orchestrator::Execute>)];
}

impl<O: Orchestrator> Answers<orchestrator::Execute> for OrchestratorModule<O> {
    fn answer(self: Arc<Self>, call: ops::ExecutePrompt, _stream: Stream) -> BoxFuture<'static, ModuleResult<String>> {
        Box::pin(async move { self.0.execute(call.prompt).await })
    }
}

pub fn erase_orchestrator(orchestrator: impl Orchestrator) -> Arc<dyn ErasedModule> {
    erase(OrchestratorModule(orchestrator))
}

struct ResolverModule<R>(R);

impl<R: Resolver> Kind for ResolverModule<R> {
    const NAME: &'static str = "resolver";
    const OPS: &'static [(&'static str, Starter<Self>)] =
        &[(resolver::Resolve::NAME, start::<Self, resolver::Resolve>)];
}

impl<R: Resolver> Answers<resolver::Resolve> for ResolverModule<R> {
    fn answer(
        self: Arc<Self>,
        request: ResolveRequest,
        _stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<ResolvedModule>> {
        Box::pin(async move {
            let module_id = request.module_id.clone();
            // The protocol's "not mine": the host's chain goes on.
            self.0
                .resolve(request)
                .await?
                .ok_or_else(|| ModuleError::new(ErrorKind::NotFound, format!("module '{module_id}' is not known here")))
        })
    }
}

pub fn erase_resolver(resolver: impl Resolver) -> Arc<dyn ErasedModule> {
    erase(ResolverModule(resolver))
}

/// The ABI face of one mounted module.
struct Instance {
    module: Arc<dyn ErasedModule>,
    /// What the module registered at run time, answered before its own ops.
    callbacks: Arc<Callbacks>,
    calls: Arc<PendingCalls>,
}

fn wire(result: ModuleResult<String>) -> RResult<RString, RString> {
    match result {
        Ok(ok) => RResult::ROk(ok.into()),
        Err(err) => RResult::RErr(err.to_wire().into()),
    }
}

impl Instance {
    /// The kind's description, with the [`ops::Lifecycle`] keys every kind shares.
    fn describe(&self) -> ModuleResult<String> {
        let description = self.module.describe()?;
        if !self.callbacks.has_session_ready() {
            return Ok(description);
        }
        let mut description: JsonMap = serde_json::from_str(&description)
            .map_err(|err| ModuleError::internal(format!("the module's description is not a JSON object: {err}")))?;
        let lifecycle = ops::Lifecycle { session_ready: true };
        if let Value::Object(keys) = serde_json::to_value(lifecycle)? {
            description.extend(keys);
        }
        to_json(description)
    }
}

impl PluginInstance for Instance {
    fn describe(&self) -> RResult<RString, RString> {
        match catch_unwind(AssertUnwindSafe(|| Instance::describe(self))) {
            Ok(result) => wire(result),
            Err(panic) => RResult::RErr(panic_error(&*panic).into()),
        }
    }

    fn start(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome {
        let (op, params) = (op.as_str(), params.as_str());
        start_call(&self.calls, sink, first_poll(op, self.module.may_block()), |sink| match starter::<Callbacks>(op) {
            Some(start) => start(self.callbacks.clone(), params, sink),
            None => self.module.clone().start(op, params, sink),
        })
    }

    fn cancel(&self, call_id: u64) {
        self.calls.cancel(call_id);
    }

    fn shutdown(&self) -> RResult<(), RString> {
        self.calls.cancel_all();
        RResult::ROk(())
    }
}

/// Starts one call on the plugin's runtime: `make` builds the operation's
/// future, [`PendingCalls`] polls or spawns it and answers the sink.
pub(crate) fn start_call(
    calls: &Arc<PendingCalls>,
    sink: EventSinkBox,
    first_poll: FirstPoll,
    make: impl FnOnce(&mut CallSink) -> ModuleResult<Answer>,
) -> CallOutcome {
    let runtime = runtime();
    let _entered = runtime.enter();
    calls.start(
        sink,
        first_poll,
        |sink| {
            let future = make(sink).map_err(|err| err.to_wire())?;
            Ok(future.map(|answer| answer.map_err(|err| err.to_wire())))
        },
        |task| {
            let handle = runtime.spawn(task);
            Box::new(move || handle.abort())
        },
    )
}

/// Tools, providers, orchestrators, resolvers and `on_session_ready` may
/// block their thread (`std::fs`, a blocking client, a long computation):
/// they run on the plugin's runtime, never on the host's thread that started
/// them, so the host's timeouts and Ctrl-C still work. Hooks, context and
/// the other callbacks are polled once inline, which keeps a hook call
/// around a microsecond; they must not block. So are the calls of a tool or
/// provider module that says it never blocks (`Tool::may_block`,
/// `Provider::may_block`): one that answers at once then costs no thread
/// hop, and one that awaits goes on on the plugin's runtime.
fn first_poll(op: &str, module_may_block: bool) -> FirstPoll {
    // `execute` is both a tool's and an orchestrator's operation; only tool
    // and provider modules can say they never block (`Kind::may_block`).
    const THE_MODULE_DECIDES: [&str; 4] =
        [tool::Execute::NAME, orchestrator::Execute::NAME, provider::Complete::NAME, provider::ListModels::NAME];
    const ALWAYS_SPAWNED: [&str; 2] = [callback::SessionReady::NAME, resolver::Resolve::NAME];
    if ALWAYS_SPAWNED.contains(&op) || (module_may_block && THE_MODULE_DECIDES.contains(&op)) {
        FirstPoll::Spawned
    } else {
        FirstPoll::Inline
    }
}

/// `{name, version, kinds, sdk_version}` for the host's checks.
pub fn manifest_json(name: &str, version: &str, kinds: &[&str]) -> String {
    serde_json::json!({
        "name": name,
        "version": version,
        "kinds": kinds,
        "sdk_version": env!("CARGO_PKG_VERSION"),
    })
    .to_string()
}

/// Mounts one module of `kind`; called by the code `export_module!` generates.
pub fn instantiate(
    package: &'static str,
    kind: &str,
    config: &str,
    host: HostApiBox,
    table: &[(&str, MountFn<'_>)],
) -> RResult<PluginInstanceBox, RString> {
    let mounted = catch_unwind(AssertUnwindSafe(|| -> ModuleResult<PluginInstanceBox> {
        let callbacks = Arc::new(Callbacks::default());
        let host = Host::new(host, callbacks.clone());
        // Built in, the plugin's `tracing` and panics are the host's own already.
        if !cfg!(feature = "builtin") {
            logging::install(host.api(), host_log_level(&host));
        }
        let config: JsonMap = if config.trim().is_empty() {
            JsonMap::new()
        } else {
            serde_json::from_str(config).map_err(|err| {
                ModuleError::new(ErrorKind::InvalidRequest, format!("config for {package} is not a JSON object: {err}"))
            })?
        };
        let Some((_, mount)) = table.iter().find(|(k, _)| *k == kind) else {
            let offered: Vec<&str> = table.iter().map(|(k, _)| *k).collect();
            return Err(ModuleError::unsupported(format!(
                "{package} does not provide a {kind} module (it provides: {})",
                offered.join(", ")
            )));
        };
        let context = MountContext { config, host, module: package };
        let mount = || {
            let _entered = runtime().enter();
            mount(context)
        };
        let module = if cfg!(feature = "builtin") { mount_outside_the_hosts_runtime(mount)? } else { mount()? };
        Ok(PluginInstance_TO::from_value(Instance { module, callbacks, calls: PendingCalls::new() }, TD_Opaque))
    }));
    match mounted {
        Ok(Ok(instance)) => RResult::ROk(instance),
        Ok(Err(err)) => RResult::RErr(err.to_wire().into()),
        Err(panic) => RResult::RErr(panic_error(&*panic).into()),
    }
}

/// Runs a built-in module's mount. A mount function may block on the
/// plugin's runtime (`runtime().block_on`). In a library it has a tokio of
/// its own; built in, it shares the host's, and tokio refuses to block
/// inside a runtime. On the thread of a multi-thread runtime's `block_on`,
/// where a session usually starts, `block_in_place` leaves the runtime for
/// the while at no cost. Inside a task it would hand the worker's other
/// tasks to a new thread, and a mount that then blocked on the plugin's
/// runtime left the host's runtime unable to shut down (seen with bundles,
/// whose agents mount from a task): there, as on a current-thread runtime,
/// the mount gets a thread of its own.
fn mount_outside_the_hosts_runtime<T: Send>(mount: impl FnOnce() -> T + Send) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|host| host.runtime_flavor()) {
        Err(_) => mount(),
        Ok(RuntimeFlavor::MultiThread) if tokio::task::try_id().is_none() => tokio::task::block_in_place(mount),
        Ok(_) => std::thread::scope(|scope| {
            scope.spawn(mount).join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }),
    }
}

/// Asks the host how verbose to be, so filtered-out logs never cross the ABI.
fn host_log_level(host: &Host) -> tracing::Level {
    let (sink, _reply) = amplifier_abi::bridge::reply_channel(None);
    match host.api().call(ops::host::log::Level::NAME.into(), "{}".into(), sink) {
        CallOutcome::Ready(RResult::ROk(level)) => {
            logging::level_from_name(serde_json::from_str::<String>(&level).unwrap_or_default().as_str())
        }
        _ => tracing::Level::INFO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_tool_or_provider_that_never_blocks_is_polled_inline() {
        for op in [tool::Execute::NAME, provider::Complete::NAME, provider::ListModels::NAME] {
            assert_eq!(first_poll(op, true), FirstPoll::Spawned, "{op}");
            assert_eq!(first_poll(op, false), FirstPoll::Inline, "{op}");
        }
        // Whatever the module says, these run on its runtime.
        for op in [resolver::Resolve::NAME, callback::SessionReady::NAME] {
            assert_eq!(first_poll(op, false), FirstPoll::Spawned, "{op}");
        }
        // An orchestrator never says it does not block.
        let orchestrator = OrchestratorModule(Noop);
        assert_eq!(first_poll(orchestrator::Execute::NAME, Kind::may_block(&orchestrator)), FirstPoll::Spawned);
        // And hooks and contexts never hop.
        for op in [hook::Handle::NAME, context::SyncView::NAME, context::AddMessage::NAME] {
            assert_eq!(first_poll(op, true), FirstPoll::Inline, "{op}");
        }
    }

    /// A built-in mount may block on the plugin's runtime wherever the host
    /// mounts it: outside any runtime, inside the host's multi-thread
    /// runtime (its `block_on`, or one of its tasks), and inside a
    /// current-thread runtime; and the host's runtime still shuts down.
    #[test]
    fn a_built_in_mount_may_block_on_the_plugins_runtime_inside_the_hosts() {
        let mount = || {
            let _entered = runtime().enter();
            runtime().block_on(async { tokio::task::yield_now().await });
            std::thread::current().id()
        };
        let here = std::thread::current().id();
        assert_eq!(mount_outside_the_hosts_runtime(mount), here, "outside a runtime, on the caller's thread");

        let host = tokio::runtime::Builder::new_multi_thread().worker_threads(1).build().unwrap();
        let mounted = host.block_on(async { mount_outside_the_hosts_runtime(mount) });
        assert_eq!(mounted, here, "in the host's block_on, without a thread of its own");
        let task = host.spawn(async move { (mount_outside_the_hosts_runtime(mount), std::thread::current().id()) });
        let (mounted, worker) = host.block_on(task).unwrap();
        assert_ne!(mounted, worker, "in a task, a thread of its own: the worker keeps its tasks");
        drop(host);

        let current = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let mounted = current.block_on(async { mount_outside_the_hosts_runtime(mount) });
        assert_ne!(mounted, here, "a current-thread runtime cannot leave: a thread of its own");
    }

    struct Noop;

    impl Orchestrator for Noop {
        async fn execute(&self, prompt: String) -> ModuleResult<String> {
            Ok(prompt)
        }
    }

    struct Echo(bool);

    impl Tool for Echo {
        fn spec(&self) -> ToolSpec {
            ToolSpec::new(if self.0 { "blocking" } else { "instant" }, "", serde_json::json!({"type": "object"}))
        }

        async fn execute(&self, input: Value) -> ToolResult {
            ToolResult::ok(input)
        }

        fn may_block(&self) -> bool {
            self.0
        }
    }

    #[test]
    fn a_tool_module_may_block_when_any_of_its_tools_or_its_dispatcher_may() {
        assert!(!Kind::may_block(&Tools::new().with(Echo(false))));
        assert!(Kind::may_block(&Tools::new().with(Echo(false)).with(Echo(true))));
        struct Dispatch;
        impl ToolDispatcher for Dispatch {
            async fn execute(&self, _name: &str, input: Value) -> ToolResult {
                ToolResult::ok(input)
            }
        }
        assert!(Kind::may_block(&Tools::new().with(Echo(false)).with_dispatcher(Dispatch)));
    }

    /// Answers with the event's name and the data as it reached the hook.
    struct Mirror;

    impl HookHandler for Mirror {
        fn subscriptions(&self) -> Vec<crate::Subscription> {
            Vec::new()
        }

        async fn handle(&self, event: &str, data: JsonMap) -> ModuleResult<HookResult> {
            self.handle_event(event, data.into()).await
        }

        async fn handle_event(&self, event: &str, data: EventData) -> ModuleResult<HookResult> {
            let seen = serde_json::json!({"event": event, "json": data.as_json(), "tool": data.get("tool_name")});
            Ok(HookResult::modify(crate::event_data(seen)))
        }
    }

    fn handle(params: &str) -> ModuleResult<Value> {
        let (sink, _reply) = amplifier_abi::bridge::reply_channel(None);
        let answer = start_hook(Arc::new(HookModule(Mirror)), params, &mut CallSink::new(sink))?;
        let json = crate::runtime().block_on(answer)?;
        Ok(serde_json::from_str::<HookResult>(&json).unwrap().data.map(Value::Object).unwrap())
    }

    #[test]
    fn the_hosts_envelope_is_read_without_parsing_the_data_and_any_other_in_full() {
        let data = r#"{"tool_name":"bash","tool_input":{"command":"ls \"x\""}}"#;
        // The host's shape: the data reaches the hook as the host's text.
        let seen = handle(&format!(r#"{{"event":"tool:pre","data":{data}}}"#)).unwrap();
        assert_eq!(seen, serde_json::json!({"event": "tool:pre", "json": data, "tool": "bash"}));
        // Another key order, a key before the event, spaces, an escaped
        // name: parsed in full, to the same data.
        for params in [
            format!(r#"{{"data":{data},"event":"tool:pre"}}"#),
            format!(r#"{{ "event": "tool:pre", "data": {data} }}"#),
            format!(r#"{{"event":"tool\u003apre","data":{data}}}"#),
            format!(r#"{{"extra":1,"event":"tool:pre","data":{data}}}"#),
        ] {
            let seen = handle(&params).unwrap();
            assert_eq!(seen["event"], "tool:pre", "{params}");
            assert_eq!(seen["tool"], "bash", "{params}");
            assert_eq!(serde_json::from_str::<Value>(seen["json"].as_str().unwrap()).unwrap()["tool_name"], "bash");
        }
        let not_an_object = handle(r#"{"event":"tool:pre","data":[1]}"#).unwrap_err();
        assert!(not_an_object.message.contains("not an object"), "{}", not_an_object.message);
        let not_json = handle(r#"{"event":"tool:pre"}"#).unwrap_err();
        assert!(not_json.message.contains("invalid parameters for 'handle'"), "{}", not_json.message);
    }
}
