//! Plugin instances seen as kernel modules.
//!
//! Each adapter turns a kernel trait call into one `PluginInstance::start`
//! with JSON parameters, and the JSON answer back into kernel types. Errors
//! coming back carry the module's name; a tool's failure (a panic included)
//! becomes a failed `ToolResult` the model can read.

use std::future::Future;
use std::sync::Arc;

use amplifier_abi::bridge::{await_answer, reply_channel, Answer};
use amplifier_abi::{CallOutcome, PluginInstanceBox};
use amplifier_kernel::coordinator::Orchestrator;
use amplifier_kernel::hooks::{HookCall, HookEvent};
use amplifier_kernel::models::{
    ChatRequest, ChatResponse, HookResult, Message, ModelInfo, ProviderInfo, ToolResult, ToolSpec,
};
use amplifier_kernel::ops::plugin::{callback, context, hook, orchestrator, provider, resolver, tool};
use amplifier_kernel::ops::{
    self, ContextSyncMessages, ContextSyncView, ContextView, NoParams, Op, RequestView, ViewDelta,
};
use amplifier_kernel::traits::{
    BoxFuture, ContextManager, HookHandler, ModuleResult, ModuleSourceResolver, Provider, ResolveError, ResolveRequest,
    ResolvedModule, ResolvedSource, StreamSink, Tool,
};
use amplifier_kernel::{Coordinator, ErrorKind, ModuleError};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A started call: answered at once, or a reply to wait for.
enum Started<F> {
    Answered(Answer),
    Waiting(F),
}

/// One mounted plugin instance.
pub struct PluginModule {
    instance: Arc<PluginInstanceBox>,
    name: String,
}

impl PluginModule {
    pub fn new(instance: PluginInstanceBox, name: String) -> Arc<Self> {
        Arc::new(PluginModule { instance: Arc::new(instance), name })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The module's static description (tool specs, provider info,
    /// subscriptions, [`ops::Lifecycle`]), as JSON text for [`Self::read_description`].
    pub fn description(&self) -> ModuleResult<String> {
        let json = self.instance.describe().into_result().map_err(|err| self.error(err.as_str()))?;
        Ok(json.into())
    }

    pub fn read_description<T: DeserializeOwned>(&self, description: &str) -> ModuleResult<T> {
        serde_json::from_str(description).map_err(|err| {
            ModuleError::internal(format!("module '{}' described itself with invalid JSON: {err}", self.name))
        })
    }

    /// Starts operation `O` with its parameters as JSON text and waits for
    /// the JSON answer (for payloads the host forwards without reading).
    pub async fn call_raw<O: Op>(&self, params: &str, stream: Option<StreamSink>) -> ModuleResult<String> {
        self.answer::<O>(params, stream).await.into_result().map_err(|err| self.error(&err))
    }

    /// Starts operation `O` and waits for its answer, to be read in place.
    async fn answer<O: Op>(&self, params: &str, stream: Option<StreamSink>) -> Answer {
        match self.start(O::NAME, params, stream) {
            Started::Answered(answer) => answer,
            Started::Waiting(reply) => reply.await,
        }
    }

    /// Starts operation `op`: a call the plugin answered inline comes back
    /// as it crossed the ABI, with nothing to wait for.
    fn start(
        &self,
        op: &str,
        params: &str,
        stream: Option<StreamSink>,
    ) -> Started<impl Future<Output = Answer> + Send + 'static> {
        let on_event = stream.map(|sink| {
            Arc::new(move |json: String| {
                if let Ok(value) = serde_json::from_str(&json) {
                    sink(value);
                }
            }) as Arc<dyn Fn(String) + Send + Sync>
        });
        let (sink, reply) = reply_channel(on_event);
        match self.instance.start(op.into(), params.into(), sink) {
            CallOutcome::Ready(answer) => Started::Answered(Answer::Crossed(answer)),
            pending => {
                let instance = self.instance.clone();
                Started::Waiting(await_answer(pending, reply, move |id| instance.cancel(id)))
            }
        }
    }

    pub async fn call<O: Op>(&self, params: &O::Params, stream: Option<StreamSink>) -> ModuleResult<O::Reply> {
        let params = serde_json::to_string(params)?;
        let answer = self.answer::<O>(&params, stream).await;
        serde_json::from_str(answer.as_result().map_err(|err| self.error(err))?).map_err(|err| {
            ModuleError::internal(format!("module '{}' answered '{}' with unexpected JSON: {err}", self.name, O::NAME))
        })
    }

    fn error(&self, wire: &str) -> ModuleError {
        ModuleError::from_wire(wire).with_module(&self.name)
    }

    /// Runs the module's `on_session_ready`.
    pub async fn session_ready(&self) -> ModuleResult<()> {
        self.call::<callback::SessionReady>(&NoParams, None).await.map(drop)
    }

    /// The module's cleanup: cancels its running calls.
    pub fn shutdown(&self) -> ModuleResult<()> {
        self.instance.shutdown().into_result().map_err(|err| self.error(err.as_str()))
    }
}

pub struct PluginTool {
    module: Arc<PluginModule>,
    spec: ToolSpec,
}

impl PluginTool {
    pub fn new(module: Arc<PluginModule>, spec: ToolSpec) -> Self {
        PluginTool { module, spec }
    }
}

impl Tool for PluginTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, input: Value) -> BoxFuture<'_, ToolResult> {
        Box::pin(async move {
            let params = ops::ExecuteTool { name: self.spec.name.clone(), input };
            match self.module.call::<tool::Execute>(&params, None).await {
                Ok(result) => result,
                Err(err) => ToolResult::failed_call(
                    &err.kind_name(),
                    format!("tool '{}' ({}) failed: {}", self.spec.name, self.module.name(), err.message),
                ),
            }
        })
    }
}

pub struct PluginProvider {
    module: Arc<PluginModule>,
    info: ProviderInfo,
    syncs_context: bool,
}

impl PluginProvider {
    pub fn new(module: Arc<PluginModule>, info: ProviderInfo, syncs_context: bool) -> Self {
        PluginProvider { module, info, syncs_context }
    }
}

impl Provider for PluginProvider {
    fn info(&self) -> &ProviderInfo {
        &self.info
    }

    fn list_models(&self) -> BoxFuture<'_, ModuleResult<Vec<ModelInfo>>> {
        Box::pin(async move { self.module.call::<provider::ListModels>(&NoParams, None).await })
    }

    fn complete(&self, request: ChatRequest, stream: Option<StreamSink>) -> BoxFuture<'_, ModuleResult<ChatResponse>> {
        Box::pin(async move {
            let params = ops::CompleteRequest { request, stream: stream.is_some(), context: None };
            self.module.call::<provider::Complete>(&params, stream).await
        })
    }

    fn syncs_context(&self) -> bool {
        self.syncs_context
    }

    fn complete_json(
        &self,
        request: String,
        context: Option<ContextView>,
        stream: Option<StreamSink>,
    ) -> BoxFuture<'_, ModuleResult<String>> {
        Box::pin(async move {
            let context = match context {
                Some(context) => format!(r#","context":{}"#, serde_json::to_string(&context)?),
                None => String::new(),
            };
            let params = format!(r#"{{"request":{request},"stream":{}{context}}}"#, stream.is_some());
            self.module.call_raw::<provider::Complete>(&params, stream).await
        })
    }
}

/// A hook handler inside a plugin: a hook module's own (`handle`), or one
/// any module registered at run time (`callback.hook`, with its name). The
/// event's JSON is built once per event and shared by every plugin handler
/// that reads it.
pub struct PluginHook {
    module: Arc<PluginModule>,
    /// The registration's name as JSON, for a run-time hook.
    callback: Option<String>,
}

impl PluginHook {
    pub fn new(module: Arc<PluginModule>) -> Self {
        PluginHook { module, callback: None }
    }

    /// The hook `module` registered at run time as `name`.
    pub fn callback(module: Arc<PluginModule>, name: &str) -> ModuleResult<Self> {
        Ok(PluginHook { module, callback: Some(serde_json::to_string(name)?) })
    }

    /// A hook's answer as a [`HookResult`].
    fn result(&self, answer: Answer) -> ModuleResult<HookResult> {
        let json = answer.as_result().map_err(|err| self.module.error(err))?;
        // Most answers are a plain "continue", which the SDK sends as `{}`.
        if json == "{}" {
            return Ok(HookResult::default());
        }
        serde_json::from_str(json).map_err(|err| {
            ModuleError::internal(format!("hook '{}' returned an invalid HookResult: {err}", self.module.name()))
        })
    }
}

impl HookHandler for PluginHook {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        match self.start(event) {
            HookCall::Answered(result) => Box::pin(std::future::ready(result)),
            HookCall::Waiting(future) => future,
        }
    }

    fn start<'a>(&'a self, event: &'a HookEvent) -> HookCall<'a> {
        let envelope = event.envelope_json();
        let started = match &self.callback {
            None => self.module.start(hook::Handle::NAME, envelope, None),
            Some(handler) => {
                // The same envelope with the registration's name first.
                let params = format!(r#"{{"handler":{handler},{}"#, &envelope[1..]);
                self.module.start(callback::Hook::NAME, &params, None)
            }
        };
        match started {
            Started::Answered(answer) => HookCall::Answered(self.result(answer)),
            Started::Waiting(reply) => HookCall::Waiting(Box::pin(async move { self.result(reply.await) })),
        }
    }
}

pub struct PluginContext {
    module: Arc<PluginModule>,
}

impl PluginContext {
    pub fn new(module: Arc<PluginModule>) -> Self {
        PluginContext { module }
    }
}

impl ContextManager for PluginContext {
    fn add_message(&self, message: Message) -> BoxFuture<'_, ModuleResult<()>> {
        Box::pin(async move {
            self.module.call::<context::AddMessage>(&ops::ContextAddMessage { message }, None).await.map(drop)
        })
    }

    fn get_messages(&self) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        Box::pin(async move { self.module.call::<context::GetMessages>(&NoParams, None).await })
    }

    fn get_messages_for_request(&self, view: RequestView) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        Box::pin(async move { self.module.call::<context::GetMessagesForRequest>(&view, None).await })
    }

    fn get_messages_for_request_json(&self, view: RequestView) -> BoxFuture<'_, ModuleResult<String>> {
        Box::pin(async move {
            let params = serde_json::to_string(&view)?;
            self.module.call_raw::<context::GetMessagesForRequest>(&params, None).await
        })
    }

    fn sync_view(&self, request: ContextSyncView) -> BoxFuture<'_, ModuleResult<ViewDelta>> {
        Box::pin(async move {
            match self.module.call::<context::SyncView>(&request, None).await {
                // A context built before `sync_view` existed: the whole view.
                Err(err) if err.kind == ErrorKind::Unsupported => {
                    Ok(ViewDelta::full(self.get_messages_for_request(request.view).await?))
                }
                answered => answered,
            }
        })
    }

    fn sync_messages(&self, request: ContextSyncMessages) -> BoxFuture<'_, ModuleResult<ViewDelta>> {
        Box::pin(async move {
            match self.module.call::<context::SyncMessages>(&request, None).await {
                // A context built before `sync_messages` existed: all of it.
                Err(err) if err.kind == ErrorKind::Unsupported => Ok(ViewDelta::full(self.get_messages().await?)),
                answered => answered,
            }
        })
    }

    fn set_messages(&self, messages: Vec<Message>) -> BoxFuture<'_, ModuleResult<()>> {
        Box::pin(async move {
            self.module.call::<context::SetMessages>(&ops::ContextSetMessages { messages }, None).await.map(drop)
        })
    }

    fn clear(&self) -> BoxFuture<'_, ModuleResult<()>> {
        Box::pin(async move { self.module.call::<context::Clear>(&NoParams, None).await.map(drop) })
    }
}

pub struct PluginOrchestrator {
    module: Arc<PluginModule>,
}

impl PluginOrchestrator {
    pub fn new(module: Arc<PluginModule>) -> Self {
        PluginOrchestrator { module }
    }
}

impl Orchestrator for PluginOrchestrator {
    fn execute(&self, prompt: String, _coordinator: Arc<Coordinator>) -> BoxFuture<'static, ModuleResult<String>> {
        // The plugin reaches the coordinator through the host object it got at mount.
        let module = self.module.clone();
        Box::pin(async move { module.call::<orchestrator::Execute>(&ops::ExecutePrompt { prompt }, None).await })
    }
}

/// A resolver plugin as a link of the kernel's resolver chain. The plugin's
/// "not found" (`ErrorKind::NotFound`) passes to the built-in resolvers; any
/// other error stops the chain. Relative paths are made absolute here; the
/// loader classifies a `path` answer.
pub struct PluginResolver {
    module: Arc<PluginModule>,
}

impl PluginResolver {
    pub fn new(module: Arc<PluginModule>) -> Self {
        PluginResolver { module }
    }
}

impl ModuleSourceResolver for PluginResolver {
    fn name(&self) -> &str {
        self.module.name()
    }

    fn resolve<'a>(&'a self, request: &'a ResolveRequest) -> BoxFuture<'a, Result<ResolvedModule, ResolveError>> {
        Box::pin(async move {
            let name = self.module.name();
            let found = match self.module.call::<resolver::Resolve>(request, None).await {
                Ok(found) => found,
                Err(err) if err.kind == ErrorKind::NotFound => return Err(ResolveError::NotFound),
                Err(err) => return Err(ResolveError::Failed(format!("resolver '{name}' failed: {}", err.message))),
            };
            let absolute = |path: std::path::PathBuf| match (&request.base_dir, path.is_relative()) {
                (Some(base), true) => base.join(path),
                _ => path,
            };
            let source = match found.source {
                ResolvedSource::Library { path } => ResolvedSource::Library { path: absolute(path) },
                ResolvedSource::Crate { path } => ResolvedSource::Crate { path: absolute(path) },
                ResolvedSource::Path { path } => ResolvedSource::Path { path: absolute(path) },
                builtin @ ResolvedSource::Builtin { .. } => builtin,
            };
            Ok(ResolvedModule {
                source,
                resolver: if found.resolver.is_empty() { name.to_owned() } else { found.resolver },
                origin: if found.origin.is_empty() { format!("resolver '{name}'") } else { found.origin },
            })
        })
    }
}
