//! Adapters from the five author-facing traits to the ABI's `PluginInstance`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr, RString};
use amplifier_abi::bridge::{panic_error, CallFuture, PendingCalls, SharedSink};
use amplifier_abi::{CallOutcome, EventSinkBox, HostApiBox, PluginInstance, PluginInstanceBox, PluginInstance_TO};
use amplifier_protocol::models::{HookResult, JsonMap, ToolResult, ToolSpec};
use amplifier_protocol::ops::{self, plugin};
use amplifier_protocol::{ErrorKind, ModuleError};
use futures::future::BoxFuture;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::host::Host;
use crate::logging;
use crate::runtime::runtime;
use crate::{ContextManager, HookHandler, ModuleResult, Orchestrator, Provider, Resolver, Tool};

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
    tools: Vec<Arc<dyn DynTool>>,
    dispatcher: Option<Arc<dyn DynDispatcher>>,
}

impl Tools {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, tool: impl Tool) -> Self {
        self.tools.push(Arc::new(tool));
        self
    }

    /// Runs the tools this module mounts later with [`Host::mount_tools`]
    /// (tools discovered at run time: remote services, MCP servers).
    pub fn with_dispatcher(mut self, dispatcher: impl ToolDispatcher) -> Self {
        self.dispatcher = Some(Arc::new(dispatcher));
        self
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

trait DynTool: Send + Sync {
    fn spec(&self) -> ToolSpec;
    fn execute(self: Arc<Self>, input: Value) -> BoxFuture<'static, ToolResult>;
}

impl<T: Tool> DynTool for T {
    fn spec(&self) -> ToolSpec {
        Tool::spec(self)
    }

    fn execute(self: Arc<Self>, input: Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async move { Tool::execute(&*self, input).await })
    }
}

/// One mounted module, whatever its kind, speaking JSON.
pub trait ErasedModule: Send + Sync + 'static {
    fn describe(&self) -> ModuleResult<String>;
    /// Parses `params` and returns the operation's future.
    fn start(
        self: Arc<Self>,
        op: &str,
        params: &str,
        stream: Stream,
    ) -> ModuleResult<BoxFuture<'static, ModuleResult<String>>>;
}

pub type MountFn<'a> = &'a (dyn Fn(MountContext) -> ModuleResult<Arc<dyn ErasedModule>> + Sync);

fn parse<T: DeserializeOwned>(op: &str, params: &str) -> ModuleResult<T> {
    serde_json::from_str(params)
        .map_err(|err| ModuleError::new(ErrorKind::InvalidRequest, format!("invalid parameters for '{op}': {err}")))
}

/// Results go straight to JSON text: building a `Value` tree first doubled
/// the allocations on every call (see the W2 benchmark).
fn to_json(value: impl Serialize) -> ModuleResult<String> {
    serde_json::to_string(&value).map_err(|err| ModuleError::internal(format!("unserialisable result: {err}")))
}

/// The JSON of a hook verdict; a plain "continue" (most answers) is `{}`,
/// which the host reads back as the default result.
fn hook_result_json(result: &HookResult) -> ModuleResult<String> {
    if *result == HookResult::default() {
        return Ok("{}".to_owned());
    }
    to_json(result)
}

fn unknown_op(op: &str, kind: &str) -> ModuleError {
    ModuleError::unsupported(format!("a {kind} module has no operation '{op}'"))
}

struct ToolsModule(Tools);

impl ErasedModule for ToolsModule {
    fn describe(&self) -> ModuleResult<String> {
        to_json(ops::ToolDescription { tools: self.0.tools.iter().map(|t| t.spec()).collect() })
    }

    fn start(
        self: Arc<Self>,
        op: &str,
        params: &str,
        _stream: Stream,
    ) -> ModuleResult<BoxFuture<'static, ModuleResult<String>>> {
        if op != plugin::EXECUTE_TOOL {
            return Err(unknown_op(op, "tool"));
        }
        let call: ops::ExecuteTool = parse(op, params)?;
        if let Some(tool) = self.0.tools.iter().find(|t| t.spec().name == call.name).cloned() {
            return Ok(Box::pin(async move { to_json(tool.execute(call.input).await) }));
        }
        let dispatcher =
            self.0.dispatcher.clone().ok_or_else(|| {
                ModuleError::new(ErrorKind::NotFound, format!("this module has no tool '{}'", call.name))
            })?;
        Ok(Box::pin(async move { to_json(dispatcher.execute(call.name, call.input).await) }))
    }
}

pub fn erase_tools(tools: Tools) -> Arc<dyn ErasedModule> {
    Arc::new(ToolsModule(tools))
}

struct ProviderModule<P>(Arc<P>);

impl<P: Provider> ErasedModule for ProviderModule<P> {
    fn describe(&self) -> ModuleResult<String> {
        to_json(ops::ProviderDescription { info: self.0.info() })
    }

    fn start(
        self: Arc<Self>,
        op: &str,
        params: &str,
        stream: Stream,
    ) -> ModuleResult<BoxFuture<'static, ModuleResult<String>>> {
        let provider = self.0.clone();
        match op {
            plugin::COMPLETE => {
                let call: ops::Complete = parse(op, params)?;
                let stream = if call.stream { stream } else { Stream { sink: None } };
                Ok(Box::pin(async move { to_json(provider.complete(call.request, stream).await?) }))
            }
            plugin::LIST_MODELS => Ok(Box::pin(async move { to_json(provider.list_models().await?) })),
            _ => Err(unknown_op(op, "provider")),
        }
    }
}

pub fn erase_provider(provider: impl Provider) -> Arc<dyn ErasedModule> {
    Arc::new(ProviderModule(Arc::new(provider)))
}

struct HookModule<H>(Arc<H>);

impl<H: HookHandler> ErasedModule for HookModule<H> {
    fn describe(&self) -> ModuleResult<String> {
        to_json(ops::HookDescription { subscriptions: self.0.subscriptions() })
    }

    fn start(
        self: Arc<Self>,
        op: &str,
        params: &str,
        _stream: Stream,
    ) -> ModuleResult<BoxFuture<'static, ModuleResult<String>>> {
        if op != plugin::HANDLE {
            return Err(unknown_op(op, "hook"));
        }
        let call: ops::HandleEvent = parse(op, params)?;
        let hook = self.0.clone();
        Ok(Box::pin(async move { hook_result_json(&hook.handle(&call.event, call.data).await?) }))
    }
}

pub fn erase_hook(hook: impl HookHandler) -> Arc<dyn ErasedModule> {
    Arc::new(HookModule(Arc::new(hook)))
}

struct ContextModule<C>(Arc<C>);

impl<C: ContextManager> ErasedModule for ContextModule<C> {
    fn describe(&self) -> ModuleResult<String> {
        Ok("{}".to_owned())
    }

    fn start(
        self: Arc<Self>,
        op: &str,
        params: &str,
        _stream: Stream,
    ) -> ModuleResult<BoxFuture<'static, ModuleResult<String>>> {
        let context = self.0.clone();
        Ok(match op {
            plugin::ADD_MESSAGE => {
                let call: ops::ContextAddMessage = parse(op, params)?;
                Box::pin(async move { to_json(context.add_message(call.message).await?) })
            }
            plugin::GET_MESSAGES => Box::pin(async move { to_json(context.get_messages().await?) }),
            plugin::GET_MESSAGES_FOR_REQUEST => {
                let view: ops::RequestView = parse(op, params)?;
                Box::pin(async move { to_json(context.get_messages_for_request(view).await?) })
            }
            plugin::SET_MESSAGES => {
                let call: ops::ContextSetMessages = parse(op, params)?;
                Box::pin(async move { to_json(context.set_messages(call.messages).await?) })
            }
            plugin::CLEAR => Box::pin(async move { to_json(context.clear().await?) }),
            _ => return Err(unknown_op(op, "context")),
        })
    }
}

pub fn erase_context(context: impl ContextManager) -> Arc<dyn ErasedModule> {
    Arc::new(ContextModule(Arc::new(context)))
}

struct OrchestratorModule<O>(Arc<O>);

impl<O: Orchestrator> ErasedModule for OrchestratorModule<O> {
    fn describe(&self) -> ModuleResult<String> {
        Ok("{}".to_owned())
    }

    fn start(
        self: Arc<Self>,
        op: &str,
        params: &str,
        _stream: Stream,
    ) -> ModuleResult<BoxFuture<'static, ModuleResult<String>>> {
        if op != plugin::EXECUTE {
            return Err(unknown_op(op, "orchestrator"));
        }
        let call: ops::Execute = parse(op, params)?;
        let orchestrator = self.0.clone();
        Ok(Box::pin(async move { to_json(orchestrator.execute(call.prompt).await?) }))
    }
}

pub fn erase_orchestrator(orchestrator: impl Orchestrator) -> Arc<dyn ErasedModule> {
    Arc::new(OrchestratorModule(Arc::new(orchestrator)))
}

struct ResolverModule<R>(Arc<R>);

impl<R: Resolver> ErasedModule for ResolverModule<R> {
    fn describe(&self) -> ModuleResult<String> {
        Ok("{}".to_owned())
    }

    fn start(
        self: Arc<Self>,
        op: &str,
        params: &str,
        _stream: Stream,
    ) -> ModuleResult<BoxFuture<'static, ModuleResult<String>>> {
        if op != plugin::RESOLVE {
            return Err(unknown_op(op, "resolver"));
        }
        let request: ops::ResolveRequest = parse(op, params)?;
        let resolver = self.0.clone();
        Ok(Box::pin(async move {
            let module_id = request.module_id.clone();
            match resolver.resolve(request).await? {
                Some(found) => to_json(found),
                // The protocol's "not mine": the host's chain goes on.
                None => Err(ModuleError::new(ErrorKind::NotFound, format!("module '{module_id}' is not known here"))),
            }
        }))
    }
}

pub fn erase_resolver(resolver: impl Resolver) -> Arc<dyn ErasedModule> {
    Arc::new(ResolverModule(Arc::new(resolver)))
}

/// The ABI face of one mounted module.
struct Instance {
    module: Arc<dyn ErasedModule>,
    calls: Arc<PendingCalls>,
}

fn wire(result: ModuleResult<String>) -> RResult<RString, RString> {
    match result {
        Ok(ok) => RResult::ROk(ok.into()),
        Err(err) => RResult::RErr(err.to_wire().into()),
    }
}

impl PluginInstance for Instance {
    fn describe(&self) -> RResult<RString, RString> {
        match catch_unwind(AssertUnwindSafe(|| self.module.describe())) {
            Ok(result) => wire(result),
            Err(panic) => RResult::RErr(panic_error(&*panic).into()),
        }
    }

    fn start(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome {
        let runtime = runtime();
        let _entered = runtime.enter();
        let module = self.module.clone();
        self.calls.start(
            sink,
            |shared| {
                let stream = Stream { sink: Some(shared) };
                let future = module.start(op.as_str(), params.as_str(), stream).map_err(|err| err.to_wire())?;
                let call: CallFuture = Box::pin(async move { future.await.map_err(|err| err.to_wire()) });
                Ok(call)
            },
            |task| {
                let handle = runtime.spawn(task);
                Box::new(move || handle.abort())
            },
        )
    }

    fn cancel(&self, call_id: u64) {
        self.calls.cancel(call_id);
    }

    fn shutdown(&self) -> RResult<(), RString> {
        self.calls.cancel_all();
        RResult::ROk(())
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
        let host = Host::new(host);
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
        let module = if cfg!(feature = "builtin") {
            // A mount function may block on the plugin's runtime
            // (`runtime().block_on`). In a library it has a tokio of its own;
            // built in, it shares the host's, whose worker thread this is, and
            // tokio refuses to block there: mount on a thread of its own.
            std::thread::scope(|scope| {
                let mounted = scope.spawn(|| {
                    let _entered = runtime().enter();
                    mount(context)
                });
                mounted.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })?
        } else {
            let _entered = runtime().enter();
            mount(context)?
        };
        Ok(PluginInstance_TO::from_value(Instance { module, calls: PendingCalls::new() }, TD_Opaque))
    }));
    match mounted {
        Ok(Ok(instance)) => RResult::ROk(instance),
        Ok(Err(err)) => RResult::RErr(err.to_wire().into()),
        Err(panic) => RResult::RErr(panic_error(&*panic).into()),
    }
}

/// Asks the host how verbose to be, so filtered-out logs never cross the ABI.
fn host_log_level(host: &Host) -> tracing::Level {
    let (sink, _reply) = amplifier_abi::bridge::reply_channel(None);
    match host.api().call(ops::host::LOG_LEVEL.into(), "{}".into(), sink) {
        CallOutcome::Ready(RResult::ROk(level)) => {
            logging::level_from_name(serde_json::from_str::<String>(&level).unwrap_or_default().as_str())
        }
        _ => tracing::Level::INFO,
    }
}
