//! In-process test doubles shared by the kernel's integration tests.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use amplifier_kernel::coordinator::Orchestrator;
use amplifier_kernel::errors::{ErrorKind, ModuleError};
use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::loading::{HookSubscription, LoadError, LoadReason, LoadedModule, ModuleLoader, Mounted};
use amplifier_kernel::models::{
    ApprovalDefault, ChatRequest, ChatResponse, ContentBlock, HookResult, JsonMap, Message, MessageLevel, ModelInfo,
    ProviderInfo, ToolResult, ToolSpec,
};
use amplifier_kernel::plan::{ModuleKind, ModuleSpec, MountPlan, SessionSettings};
use amplifier_kernel::services::{ApprovalSystem, DisplaySystem};
use amplifier_kernel::traits::{
    BoxFuture, ContextManager, HookHandler, ModuleResult, Provider, RequestView, StreamSink, Tool,
};
use amplifier_kernel::Coordinator;
use serde_json::{json, Value};

/// `json!({...})` as a `JsonMap`.
pub fn map(value: Value) -> JsonMap {
    match value {
        Value::Object(map) => map,
        other => panic!("expected a JSON object, got {other}"),
    }
}

/// A shared, ordered log of what happened.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    pub fn push(&self, entry: impl Into<String>) {
        self.0.lock().unwrap().push(entry.into());
    }

    pub fn entries(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

// ---------------------------------------------------------------------------
// Hooks

type HookFn = dyn Fn(&HookEvent) -> ModuleResult<HookResult> + Send + Sync;

/// A hook handler that runs a closure.
pub struct FnHook(Box<HookFn>);

impl HookHandler for FnHook {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        let result = (self.0)(event);
        Box::pin(async move { result })
    }
}

pub fn hook(f: impl Fn(&HookEvent) -> ModuleResult<HookResult> + Send + Sync + 'static) -> Arc<dyn HookHandler> {
    Arc::new(FnHook(Box::new(f)))
}

/// A handler that always answers `result`.
pub fn answer(result: HookResult) -> Arc<dyn HookHandler> {
    hook(move |_| Ok(result.clone()))
}

/// A handler that writes `label` to `log` and answers `result`.
pub fn logged(log: &Log, label: &str, result: HookResult) -> Arc<dyn HookHandler> {
    let log = log.clone();
    let label = label.to_owned();
    hook(move |_| {
        log.push(label.clone());
        Ok(result.clone())
    })
}

/// A handler that fails.
pub fn failing(message: &str) -> Arc<dyn HookHandler> {
    let message = message.to_owned();
    hook(move |_| Err(ModuleError::internal(message.clone())))
}

/// A handler that sleeps before answering (for timeouts).
pub struct SlowHook {
    pub delay: Duration,
    pub result: HookResult,
}

impl HookHandler for SlowHook {
    fn handle<'a>(&'a self, _event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            Ok(self.result.clone())
        })
    }
}

/// Records every event it sees (name and data) and answers continue.
#[derive(Clone, Default)]
pub struct Recorder {
    events: Arc<Mutex<Vec<(String, JsonMap)>>>,
    log: Option<Log>,
}

impl Recorder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Also writes `event:<name>` into `log`.
    pub fn with_log(log: &Log) -> Self {
        Recorder { events: Arc::default(), log: Some(log.clone()) }
    }

    pub fn handler(&self) -> Arc<dyn HookHandler> {
        Arc::new(self.clone())
    }

    pub fn events(&self) -> Vec<(String, JsonMap)> {
        self.events.lock().unwrap().clone()
    }

    pub fn names(&self) -> Vec<String> {
        self.events().into_iter().map(|(name, _)| name).collect()
    }

    /// The data of every event named `name`.
    pub fn named(&self, name: &str) -> Vec<JsonMap> {
        self.events().into_iter().filter(|(n, _)| n == name).map(|(_, data)| data).collect()
    }
}

impl HookHandler for Recorder {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        self.events.lock().unwrap().push((event.name.clone(), event.data.clone()));
        if let Some(log) = &self.log {
            log.push(format!("event:{}", event.name));
        }
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

// ---------------------------------------------------------------------------
// Front-end services

/// Remembers every `show_message` call: (message, level, source).
#[derive(Default)]
pub struct RecordingDisplay {
    pub shown: Mutex<Vec<(String, MessageLevel, String)>>,
}

impl RecordingDisplay {
    pub fn shown(&self) -> Vec<(String, MessageLevel, String)> {
        self.shown.lock().unwrap().clone()
    }
}

impl DisplaySystem for RecordingDisplay {
    fn show_message(&self, message: &str, level: MessageLevel, source: &str) {
        self.shown.lock().unwrap().push((message.to_owned(), level, source.to_owned()));
    }
}

/// One `request_approval` call as the approval system saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    pub prompt: String,
    pub options: Vec<String>,
    pub timeout: Duration,
    pub default: ApprovalDefault,
}

/// Answers every approval request with a fixed choice (`None` = timed out).
pub struct ScriptedApproval {
    pub answer: Option<String>,
    pub requests: Mutex<Vec<ApprovalRequest>>,
}

impl ScriptedApproval {
    pub fn new(answer: Option<&str>) -> Self {
        ScriptedApproval { answer: answer.map(str::to_owned), requests: Mutex::default() }
    }

    pub fn requests(&self) -> Vec<ApprovalRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl ApprovalSystem for ScriptedApproval {
    fn request_approval<'a>(
        &'a self,
        prompt: &'a str,
        options: &'a [String],
        timeout: Duration,
        default: ApprovalDefault,
    ) -> BoxFuture<'a, Option<String>> {
        self.requests.lock().unwrap().push(ApprovalRequest {
            prompt: prompt.to_owned(),
            options: options.to_vec(),
            timeout,
            default,
        });
        let answer = self.answer.clone();
        Box::pin(async move { answer })
    }
}

// ---------------------------------------------------------------------------
// Modules

/// A context manager that keeps messages in memory.
#[derive(Default)]
pub struct MemoryContext {
    pub messages: Mutex<Vec<Message>>,
}

impl MemoryContext {
    pub fn messages(&self) -> Vec<Message> {
        self.messages.lock().unwrap().clone()
    }
}

impl ContextManager for MemoryContext {
    fn add_message(&self, message: Message) -> BoxFuture<'_, ModuleResult<()>> {
        self.messages.lock().unwrap().push(message);
        Box::pin(async { Ok(()) })
    }

    fn get_messages(&self) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        let messages = self.messages();
        Box::pin(async move { Ok(messages) })
    }

    fn get_messages_for_request(&self, _view: RequestView) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        self.get_messages()
    }

    fn set_messages(&self, messages: Vec<Message>) -> BoxFuture<'_, ModuleResult<()>> {
        *self.messages.lock().unwrap() = messages;
        Box::pin(async { Ok(()) })
    }

    fn clear(&self) -> BoxFuture<'_, ModuleResult<()>> {
        self.messages.lock().unwrap().clear();
        Box::pin(async { Ok(()) })
    }
}

/// A provider that answers with its own name.
pub struct StubProvider {
    pub info: ProviderInfo,
}

impl StubProvider {
    pub fn new(id: &str) -> Self {
        StubProvider { info: ProviderInfo { id: id.to_owned(), ..ProviderInfo::default() } }
    }
}

impl Provider for StubProvider {
    fn info(&self) -> &ProviderInfo {
        &self.info
    }

    fn list_models(&self) -> BoxFuture<'_, ModuleResult<Vec<ModelInfo>>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn complete(
        &self,
        _request: ChatRequest,
        _stream: Option<StreamSink>,
    ) -> BoxFuture<'_, ModuleResult<ChatResponse>> {
        let text = format!("from {}", self.info.id);
        Box::pin(async move { Ok(ChatResponse { content: vec![ContentBlock::text(text)], ..ChatResponse::default() }) })
    }
}

/// A tool that echoes its input.
pub struct EchoTool {
    pub spec: ToolSpec,
}

impl EchoTool {
    pub fn new(name: &str, parameters: Value) -> Self {
        EchoTool {
            spec: ToolSpec { extensions: Default::default(), name: name.to_owned(), parameters, description: None },
        }
    }
}

impl Tool for EchoTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, input: Value) -> BoxFuture<'_, ToolResult> {
        Box::pin(async move { ToolResult::ok(json!({ "echo": input })) })
    }
}

/// Answers `done: <prompt>` after emitting `prompt:submit`; the prompt
/// `fail` makes it fail.
pub struct TestOrchestrator;

impl Orchestrator for TestOrchestrator {
    fn execute(&self, prompt: String, coordinator: Arc<Coordinator>) -> BoxFuture<'static, ModuleResult<String>> {
        Box::pin(async move {
            coordinator.emit("prompt:submit", map(json!({ "prompt": prompt }))).await;
            if prompt == "fail" {
                return Err(ModuleError::new(ErrorKind::Unavailable, "orchestrator failed"));
            }
            Ok(format!("done: {prompt}"))
        })
    }
}

type HookModule = Vec<(String, i32, String, Arc<dyn HookHandler>)>;

/// Loads in-process doubles by kind. Modules can be told to fail; every load
/// is written to the log as `load:<kind> <mount name>` and every module
/// registers a cleanup that writes `cleanup:<mount name>`.
#[derive(Default)]
pub struct TestLoader {
    pub log: Log,
    failures: Mutex<HashMap<String, LoadError>>,
    hook_modules: Mutex<HashMap<String, HookModule>>,
    pub contexts: Mutex<Vec<Arc<MemoryContext>>>,
}

impl TestLoader {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Makes `module` (by module id) fail to load.
    pub fn fail(&self, module: &str, reason: LoadReason, message: &str) {
        self.failures.lock().unwrap().insert(module.to_owned(), LoadError::new(reason, message));
    }

    /// Gives the hook module `module` a subscription.
    pub fn hook_module(&self, module: &str, event: &str, priority: i32, name: &str, handler: Arc<dyn HookHandler>) {
        self.hook_modules.lock().unwrap().entry(module.to_owned()).or_default().push((
            event.to_owned(),
            priority,
            name.to_owned(),
            handler,
        ));
    }
}

impl ModuleLoader for TestLoader {
    fn load<'a>(
        &'a self,
        kind: ModuleKind,
        spec: &'a ModuleSpec,
        _coordinator: &'a Arc<Coordinator>,
    ) -> BoxFuture<'a, Result<LoadedModule, LoadError>> {
        Box::pin(async move {
            let name = spec.mount_name().to_owned();
            self.log.push(format!("load:{kind} {name}"));
            if let Some(error) = self.failures.lock().unwrap().get(&spec.module) {
                return Err(error.clone());
            }
            let mounted = match kind {
                ModuleKind::Orchestrator => Mounted::Orchestrator(Arc::new(TestOrchestrator)),
                ModuleKind::Context => {
                    let context = Arc::new(MemoryContext::default());
                    self.contexts.lock().unwrap().push(context.clone());
                    Mounted::Context(context)
                }
                ModuleKind::Provider => Mounted::Provider(Arc::new(StubProvider::new(&name))),
                ModuleKind::Tool => {
                    Mounted::Tools(vec![Arc::new(EchoTool::new(&spec.module, json!({"type": "object"})))])
                }
                ModuleKind::Hook => Mounted::Hooks(
                    self.hook_modules
                        .lock()
                        .unwrap()
                        .get(&spec.module)
                        .cloned()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(event, priority, name, handler)| HookSubscription { event, priority, name, handler })
                        .collect(),
                ),
                ModuleKind::Resolver => return Err(LoadError::new(LoadReason::Unknown, "no resolvers here")),
            };
            let log = self.log.clone();
            Ok(LoadedModule {
                mounted,
                cleanup: Some(Box::new(move || {
                    Box::pin(async move {
                        log.push(format!("cleanup:{name}"));
                        Ok(())
                    }) as BoxFuture<'static, ModuleResult<()>>
                })),
                session_ready: None,
                warnings: Vec::new(),
            })
        })
    }
}

// ---------------------------------------------------------------------------
// Plans

/// A plan with an orchestrator and a context and nothing else.
pub fn plan() -> MountPlan {
    let mut orchestrator = ModuleSpec::new("loop-basic");
    orchestrator.field_path = "session.orchestrator".into();
    let mut context = ModuleSpec::new("context-simple");
    context.field_path = "session.context".into();
    MountPlan::new(SessionSettings::new(orchestrator, context))
}

/// A module entry with its plan location filled in.
pub fn spec(module: &str, field_path: &str) -> ModuleSpec {
    let mut spec = ModuleSpec::new(module);
    spec.field_path = field_path.into();
    spec
}

/// A plan with one entry per provider module (in order).
pub fn plan_with_providers(providers: &[&str]) -> MountPlan {
    let mut plan = plan();
    plan.providers = providers.iter().enumerate().map(|(i, module)| spec(module, &format!("providers[{i}]"))).collect();
    plan
}

/// A bare coordinator with the given plan.
pub fn coordinator_with(plan: MountPlan) -> Arc<Coordinator> {
    Arc::new(Coordinator::new("sess-1".into(), None, Arc::new(plan)))
}

/// A coordinator with an in-memory context mounted.
pub fn coordinator_with_context(plan: MountPlan) -> (Arc<Coordinator>, Arc<MemoryContext>) {
    let coordinator = coordinator_with(plan);
    let context = Arc::new(MemoryContext::default());
    coordinator.mount_context(context.clone());
    (coordinator, context)
}

/// Whether `text` is an RFC 3339 timestamp.
pub fn is_rfc3339(text: &str) -> bool {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_ok()
}
