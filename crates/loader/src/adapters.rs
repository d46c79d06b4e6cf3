//! Plugin instances seen as kernel modules.
//!
//! Each adapter turns a kernel trait call into one `PluginInstance::start`
//! with JSON parameters, and the JSON answer back into kernel types. Errors
//! coming back carry the module's name; a tool's failure (a panic included)
//! becomes a failed `ToolResult` the model can read.

use std::sync::Arc;

use amplifier_abi::bridge::{await_outcome, reply_channel};
use amplifier_abi::PluginInstanceBox;
use amplifier_kernel::coordinator::Orchestrator;
use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{
    ChatRequest, ChatResponse, HookResult, Message, ModelInfo, ProviderInfo, ToolResult, ToolSpec,
};
use amplifier_kernel::ops::{self, plugin, RequestView};
use amplifier_kernel::traits::{
    BoxFuture, ContextManager, HookHandler, ModuleResult, ModuleSourceResolver, Provider, ResolveError, ResolveRequest,
    ResolvedModule, ResolvedSource, StreamSink, Tool,
};
use amplifier_kernel::{Coordinator, ErrorKind, ModuleError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

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

    /// The module's static description (tool specs, provider info, subscriptions).
    pub fn describe<T: DeserializeOwned>(&self) -> ModuleResult<T> {
        let json = self.instance.describe().into_result().map_err(|err| self.error(err.as_str()))?;
        serde_json::from_str(json.as_str()).map_err(|err| {
            ModuleError::internal(format!("module '{}' described itself with invalid JSON: {err}", self.name))
        })
    }

    /// Starts `op` with raw JSON parameters and waits for the JSON answer.
    pub async fn call_raw(&self, op: &str, params: &str, stream: Option<StreamSink>) -> ModuleResult<String> {
        let on_event = stream.map(|sink| {
            Arc::new(move |json: String| {
                if let Ok(value) = serde_json::from_str(&json) {
                    sink(value);
                }
            }) as Arc<dyn Fn(String) + Send + Sync>
        });
        let (sink, reply) = reply_channel(on_event);
        let outcome = self.instance.start(op.into(), params.into(), sink);
        let instance = self.instance.clone();
        await_outcome(outcome, reply, move |id| instance.cancel(id)).await.map_err(|err| self.error(&err))
    }

    pub async fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        op: &str,
        params: &P,
        stream: Option<StreamSink>,
    ) -> ModuleResult<R> {
        let params = serde_json::to_string(params)?;
        let json = self.call_raw(op, &params, stream).await?;
        serde_json::from_str(&json).map_err(|err| {
            ModuleError::internal(format!("module '{}' answered '{op}' with unexpected JSON: {err}", self.name))
        })
    }

    fn error(&self, wire: &str) -> ModuleError {
        ModuleError::from_wire(wire).with_module(&self.name)
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
            match self.module.call(plugin::EXECUTE_TOOL, &params, None).await {
                Ok(result) => result,
                Err(err) => ToolResult::error(
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
}

impl PluginProvider {
    pub fn new(module: Arc<PluginModule>, info: ProviderInfo) -> Self {
        PluginProvider { module, info }
    }
}

impl Provider for PluginProvider {
    fn info(&self) -> &ProviderInfo {
        &self.info
    }

    fn list_models(&self) -> BoxFuture<'_, ModuleResult<Vec<ModelInfo>>> {
        Box::pin(async move { self.module.call(plugin::LIST_MODELS, &serde_json::json!({}), None).await })
    }

    fn complete(&self, request: ChatRequest, stream: Option<StreamSink>) -> BoxFuture<'_, ModuleResult<ChatResponse>> {
        Box::pin(async move {
            let params = ops::Complete { request, stream: stream.is_some() };
            self.module.call(plugin::COMPLETE, &params, stream).await
        })
    }

    fn complete_json(&self, request: String, stream: Option<StreamSink>) -> BoxFuture<'_, ModuleResult<String>> {
        Box::pin(async move {
            let params = format!(r#"{{"request":{request},"stream":{}}}"#, stream.is_some());
            self.module.call_raw(plugin::COMPLETE, &params, stream).await
        })
    }
}

/// A hook handler inside a plugin. The event's JSON is built once per event
/// and shared by every plugin handler that reads it.
pub struct PluginHook {
    module: Arc<PluginModule>,
}

impl PluginHook {
    pub fn new(module: Arc<PluginModule>) -> Self {
        PluginHook { module }
    }
}

impl HookHandler for PluginHook {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        Box::pin(async move {
            let name = serde_json::to_string(&event.name)?;
            let params = format!(r#"{{"event":{name},"data":{}}}"#, event.data_json());
            let json = self.module.call_raw(plugin::HANDLE, &params, None).await?;
            serde_json::from_str(&json).map_err(|err| {
                ModuleError::internal(format!("hook '{}' returned an invalid HookResult: {err}", self.module.name()))
            })
        })
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
            self.module.call::<_, Value>(plugin::ADD_MESSAGE, &ops::ContextAddMessage { message }, None).await.map(drop)
        })
    }

    fn get_messages(&self) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        Box::pin(async move { self.module.call(plugin::GET_MESSAGES, &serde_json::json!({}), None).await })
    }

    fn get_messages_for_request(&self, view: RequestView) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        Box::pin(async move { self.module.call(plugin::GET_MESSAGES_FOR_REQUEST, &view, None).await })
    }

    fn get_messages_for_request_json(&self, view: RequestView) -> BoxFuture<'_, ModuleResult<String>> {
        Box::pin(async move {
            let params = serde_json::to_string(&view)?;
            self.module.call_raw(plugin::GET_MESSAGES_FOR_REQUEST, &params, None).await
        })
    }

    fn set_messages(&self, messages: Vec<Message>) -> BoxFuture<'_, ModuleResult<()>> {
        Box::pin(async move {
            self.module
                .call::<_, Value>(plugin::SET_MESSAGES, &ops::ContextSetMessages { messages }, None)
                .await
                .map(drop)
        })
    }

    fn clear(&self) -> BoxFuture<'_, ModuleResult<()>> {
        Box::pin(
            async move { self.module.call::<_, Value>(plugin::CLEAR, &serde_json::json!({}), None).await.map(drop) },
        )
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
        Box::pin(async move { module.call(plugin::EXECUTE, &ops::Execute { prompt }, None).await })
    }
}

/// A resolver plugin as a link of the kernel's resolver chain. The plugin's
/// "not found" (`ErrorKind::NotFound`) passes to the built-in resolvers; any
/// other error stops the chain. A `path` answer is classified by the host.
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
            let params = ops::ResolveRequest {
                module_id: request.module_id.clone(),
                source_hint: request.source_hint.clone(),
                base_dir: request.base_dir.clone(),
            };
            let name = self.module.name();
            let found: Option<ops::ResolvedModule> = match self.module.call(plugin::RESOLVE, &params, None).await {
                Ok(found) => found,
                Err(err) if err.kind == ErrorKind::NotFound => None,
                Err(err) => {
                    return Err(ResolveError::Failed(format!("resolver '{name}' failed: {}", err.message)));
                }
            };
            let Some(found) = found else { return Err(ResolveError::NotFound) };
            let absolute = |path: std::path::PathBuf| match (&request.base_dir, path.is_relative()) {
                (Some(base), true) => base.join(path),
                _ => path,
            };
            let origin = if found.origin.is_empty() { format!("resolver '{name}'") } else { found.origin.clone() };
            let source = match found.source {
                ops::ResolvedSource::Library { path } => ResolvedSource::Library { path: absolute(path) },
                ops::ResolvedSource::Crate { path } => ResolvedSource::Crate { path: absolute(path) },
                ops::ResolvedSource::Path { path } => {
                    let path = absolute(path);
                    let canonical = path.canonicalize().unwrap_or(path);
                    crate::resolver::classify(&canonical).ok_or_else(|| {
                        ResolveError::Failed(format!(
                            "resolver '{name}' answered {} for module '{}', which is neither a module library, \
                             a plugin crate nor an installed module directory",
                            canonical.display(),
                            request.module_id
                        ))
                    })?
                }
            };
            let resolver = if found.resolver.is_empty() { name.to_owned() } else { found.resolver };
            Ok(ResolvedModule { source, resolver, origin })
        })
    }
}
