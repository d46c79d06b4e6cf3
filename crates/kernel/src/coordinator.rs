//! The coordinator: a session's mount points and shared services.
//!
//! Mount points are upstream's: `orchestrator` and `context` (single),
//! `providers` (by mount name, several instances via `instance_id`), `tools`
//! (by tool name), `hooks` (the registry) and `module-source-resolver`. Beside
//! them: capabilities, contribution channels, cleanups (run in reverse, errors
//! isolated), the cancellation token, and `process_hook_result`, which applies
//! a hook's verdict (context injection within enforced limits, user messages,
//! approvals).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use indexmap::IndexMap;
use serde_json::{json, Value};

use crate::cancellation::{CancelState, CancellationToken};
use crate::errors::{ErrorKind, ModuleError};
use crate::events;
use crate::hooks::HookRegistry;
use crate::models::{
    ApprovalDefault, ChatRequest, ChatResponse, HookAction, HookResult, InjectionRole, JsonMap, Message,
    MessageContent, ModelInfo, Role, ToolResult, ToolSpec,
};
use crate::ops::{EphemeralInjection, HookOutcome};
use crate::plan::MountPlan;
use crate::services::{ApprovalSystem, ChatHistory, DisplaySystem, ResultSpill, RunStates, SessionSpawner};
use crate::traits::{BoxFuture, ContextManager, ModuleResult, ModuleSourceResolver, Provider, StreamSink, Tool};

pub use crate::plan::DEFAULT_PROVIDER_PRIORITY;

/// Drives a session's turns: runs one prompt to completion and returns the
/// final text, reaching providers, tools, hooks and context through the
/// coordinator it is given (a plugin reaches it through its host object).
pub trait Orchestrator: Send + Sync {
    fn execute(&self, prompt: String, coordinator: Arc<Coordinator>) -> BoxFuture<'static, ModuleResult<String>>;
}

/// A contribution-channel callback; `None` answers are filtered out.
pub type Contributor = Arc<dyn Fn() -> BoxFuture<'static, ModuleResult<Option<Value>>> + Send + Sync>;
/// A module's cleanup, run once at session end.
pub type Cleanup = Box<dyn FnOnce() -> BoxFuture<'static, ModuleResult<()>> + Send>;

#[derive(Clone)]
pub struct MountedProvider {
    pub name: String,
    pub module: String,
    pub priority: i64,
    pub provider: Arc<dyn Provider>,
}

#[derive(Clone)]
pub struct MountedTool {
    pub module: String,
    pub tool: Arc<dyn Tool>,
    validator: Option<Arc<jsonschema::Validator>>,
}

pub struct Coordinator {
    session_id: String,
    parent_id: Option<String>,
    depth: u32,
    spawner: RwLock<Option<Arc<dyn SessionSpawner>>>,
    plan: Arc<MountPlan>,
    hooks: HookRegistry,
    orchestrator: RwLock<Option<Arc<dyn Orchestrator>>>,
    context: RwLock<Option<Arc<dyn ContextManager>>>,
    providers: RwLock<IndexMap<String, MountedProvider>>,
    tools: RwLock<IndexMap<String, MountedTool>>,
    resolver: RwLock<Option<Arc<dyn ModuleSourceResolver>>>,
    capabilities: RwLock<HashMap<String, Value>>,
    contributors: RwLock<IndexMap<String, Vec<(String, Contributor)>>>,
    cleanups: Mutex<Vec<(String, Cleanup)>>,
    cancellation: CancellationToken,
    approval: RwLock<Option<Arc<dyn ApprovalSystem>>>,
    display: RwLock<Option<Arc<dyn DisplaySystem>>>,
    spill: RwLock<Option<Arc<dyn ResultSpill>>>,
    history: RwLock<Option<Arc<dyn ChatHistory>>>,
    run_states: RwLock<Option<Arc<dyn RunStates>>>,
    steering: Mutex<std::collections::VecDeque<String>>,
    turn_injection_tokens: AtomicU64,
}

/// Steering messages one turn may queue; more are refused, not dropped
/// silently (upstream's loop-streaming bounds its queue the same).
pub const STEERING_LIMIT: usize = 100;

impl Coordinator {
    pub fn new(session_id: String, parent_id: Option<String>, plan: Arc<MountPlan>) -> Self {
        Self::with_lineage(session_id, parent_id, plan, 0, CancellationToken::new())
    }

    /// A coordinator for a session `depth` levels below the top, sharing its
    /// parent's cancellation through `cancellation`.
    pub fn with_lineage(
        session_id: String,
        parent_id: Option<String>,
        plan: Arc<MountPlan>,
        depth: u32,
        cancellation: CancellationToken,
    ) -> Self {
        let hooks = HookRegistry::new();
        let mut defaults = JsonMap::new();
        defaults.insert("session_id".into(), Value::String(session_id.clone()));
        defaults.insert("parent_id".into(), parent_id.clone().map_or(Value::Null, Value::String));
        hooks.set_default_fields(defaults);
        Coordinator {
            session_id,
            parent_id,
            depth,
            spawner: RwLock::default(),
            plan,
            hooks,
            orchestrator: RwLock::default(),
            context: RwLock::default(),
            providers: RwLock::default(),
            tools: RwLock::default(),
            resolver: RwLock::default(),
            capabilities: RwLock::default(),
            contributors: RwLock::default(),
            cleanups: Mutex::default(),
            cancellation,
            approval: RwLock::default(),
            display: RwLock::default(),
            spill: RwLock::default(),
            history: RwLock::default(),
            run_states: RwLock::default(),
            steering: Mutex::default(),
            turn_injection_tokens: AtomicU64::new(0),
        }
    }

    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    pub fn parent_id(&self) -> Option<&str> {
        self.parent_id.as_deref()
    }

    /// 0 for a top-level session, 1 for its children, and so on.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    pub fn set_spawner(&self, spawner: Arc<dyn SessionSpawner>) {
        *self.spawner.write().expect("service lock") = Some(spawner);
    }

    /// Runs (or resumes) a child session for one of the plan's agents.
    pub async fn spawn(&self, request: crate::ops::SpawnRequest) -> ModuleResult<crate::ops::SpawnResult> {
        let spawner = self.spawner.read().expect("service lock").clone();
        match spawner {
            Some(spawner) => spawner.spawn(request).await,
            None => Err(ModuleError::unsupported("this session cannot spawn child sessions")),
        }
    }

    /// One turn of an agent in a fresh child session seeded with a history;
    /// `observer` sees each of the child's events as `{event, data}`.
    pub async fn agent_turn(
        &self,
        turn: crate::ops::AgentTurn,
        observer: Option<StreamSink>,
    ) -> ModuleResult<crate::ops::AgentTurnResult> {
        let spawner = self.spawner.read().expect("service lock").clone();
        match spawner {
            Some(spawner) => spawner.agent_turn(turn, observer).await,
            None => Err(ModuleError::unsupported("this session cannot spawn child sessions")),
        }
    }

    pub fn plan(&self) -> &Arc<MountPlan> {
        &self.plan
    }

    pub fn hooks(&self) -> &HookRegistry {
        &self.hooks
    }

    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancellation
    }

    // -- mount points -------------------------------------------------------

    pub fn mount_orchestrator(&self, orchestrator: Arc<dyn Orchestrator>) {
        *self.orchestrator.write().expect("mount lock") = Some(orchestrator);
    }

    pub fn orchestrator(&self) -> Option<Arc<dyn Orchestrator>> {
        self.orchestrator.read().expect("mount lock").clone()
    }

    pub fn mount_context(&self, context: Arc<dyn ContextManager>) {
        *self.context.write().expect("mount lock") = Some(context);
    }

    pub fn context(&self) -> Option<Arc<dyn ContextManager>> {
        self.context.read().expect("mount lock").clone()
    }

    fn require_context(&self) -> ModuleResult<Arc<dyn ContextManager>> {
        self.context().ok_or_else(|| ModuleError::unsupported("no context manager is mounted"))
    }

    pub fn mount_provider(&self, provider: MountedProvider) {
        self.providers.write().expect("mount lock").insert(provider.name.clone(), provider);
    }

    /// Providers in preference order: lowest priority first, ties in mount order.
    pub fn providers(&self) -> Vec<MountedProvider> {
        let mut providers: Vec<MountedProvider> =
            self.providers.read().expect("mount lock").values().cloned().collect();
        providers.sort_by_key(|p| p.priority);
        providers
    }

    pub fn provider(&self, name: &str) -> Option<MountedProvider> {
        self.providers.read().expect("mount lock").get(name).cloned()
    }

    /// Mounts a tool under its spec's name, compiling its input schema once.
    /// An invalid schema is logged and the tool is mounted without validation.
    pub fn mount_tool(&self, module: &str, tool: Arc<dyn Tool>) {
        let spec = tool.spec();
        let validator = match jsonschema::validator_for(&spec.parameters) {
            Ok(validator) => Some(Arc::new(validator)),
            Err(err) => {
                tracing::warn!(tool = %spec.name, module, error = %err, "tool input schema is invalid; input is not validated");
                None
            }
        };
        let name = spec.name.clone();
        self.tools
            .write()
            .expect("mount lock")
            .insert(name, MountedTool { module: module.to_owned(), tool, validator });
    }

    pub fn unmount_tool(&self, name: &str) -> bool {
        self.tools.write().expect("mount lock").shift_remove(name).is_some()
    }

    pub fn tool(&self, name: &str) -> Option<MountedTool> {
        self.tools.read().expect("mount lock").get(name).cloned()
    }

    pub fn tool_names(&self) -> Vec<String> {
        self.tools.read().expect("mount lock").keys().cloned().collect()
    }

    pub fn tool_specs(&self) -> Vec<ToolSpec> {
        self.tools.read().expect("mount lock").values().map(|t| t.tool.spec().clone()).collect()
    }

    pub fn mount_resolver(&self, resolver: Arc<dyn ModuleSourceResolver>) {
        *self.resolver.write().expect("mount lock") = Some(resolver);
    }

    pub fn resolver(&self) -> Option<Arc<dyn ModuleSourceResolver>> {
        self.resolver.read().expect("mount lock").clone()
    }

    // -- front-end services ---------------------------------------------------

    pub fn set_approval_system(&self, approval: Arc<dyn ApprovalSystem>) {
        *self.approval.write().expect("service lock") = Some(approval);
    }

    pub fn set_display_system(&self, display: Arc<dyn DisplaySystem>) {
        *self.display.write().expect("service lock") = Some(display);
    }

    /// Who keeps oversized tool results (see [`ResultSpill`]).
    pub fn set_result_spill(&self, spill: Arc<dyn ResultSpill>) {
        *self.spill.write().expect("service lock") = Some(spill);
    }

    /// Gives `child` this session's approval and display systems and its
    /// result spill: a sub-agent's questions and messages reach the same
    /// person, and its tool results are kept alike.
    pub fn share_front_end_with(&self, child: &Coordinator) {
        if let Some(approval) = self.approval.read().expect("service lock").clone() {
            child.set_approval_system(approval);
        }
        if let Some(display) = self.display.read().expect("service lock").clone() {
            child.set_display_system(display);
        }
        if let Some(spill) = self.spill.read().expect("service lock").clone() {
            child.set_result_spill(spill);
        }
    }

    /// Queues text the user typed while a turn runs; the orchestrator takes
    /// it at its next iteration. Returns how many are waiting.
    pub fn steer(&self, text: String) -> ModuleResult<usize> {
        let mut queue = self.steering.lock().expect("steering lock");
        if queue.len() >= STEERING_LIMIT {
            return Err(ModuleError::new(
                crate::ErrorKind::RateLimit,
                format!("{STEERING_LIMIT} steering messages are already waiting for this turn"),
            ));
        }
        queue.push_back(text);
        Ok(queue.len())
    }

    /// Everything queued by [`Self::steer`], oldest first; the queue is left empty.
    pub fn take_steering(&self) -> Vec<String> {
        self.steering.lock().expect("steering lock").drain(..).collect()
    }

    pub fn set_chat_history(&self, history: Arc<dyn ChatHistory>) {
        *self.history.write().expect("service lock") = Some(history);
    }

    /// The front end's per-agent history, or why there is none.
    pub fn chat_history(&self) -> ModuleResult<Arc<dyn ChatHistory>> {
        self.history.read().expect("service lock").clone().ok_or_else(|| {
            ModuleError::unsupported("this front end keeps no per-agent chat history (run it with `amplifier run`)")
        })
    }

    pub fn set_run_states(&self, run_states: Arc<dyn RunStates>) {
        *self.run_states.write().expect("service lock") = Some(run_states);
    }

    /// Where the front end keeps orchestrators' run states, or why nowhere.
    pub fn run_states(&self) -> ModuleResult<Arc<dyn RunStates>> {
        self.run_states
            .read()
            .expect("service lock")
            .clone()
            .ok_or_else(|| ModuleError::unsupported("this front end keeps no run states"))
    }

    // -- capabilities and contribution channels ----------------------------------

    pub fn register_capability(&self, name: impl Into<String>, value: Value) {
        self.capabilities.write().expect("capability lock").insert(name.into(), value);
    }

    pub fn get_capability(&self, name: &str) -> Option<Value> {
        self.capabilities.read().expect("capability lock").get(name).cloned()
    }

    pub fn register_contributor(&self, channel: &str, name: impl Into<String>, callback: Contributor) {
        self.contributors
            .write()
            .expect("contributor lock")
            .entry(channel.to_owned())
            .or_default()
            .push((name.into(), callback));
    }

    /// Calls every contributor of `channel` in registration order; `None`
    /// answers are dropped and failures are logged and skipped.
    pub async fn collect_contributions(&self, channel: &str) -> Vec<Value> {
        let contributors: Vec<(String, Contributor)> =
            self.contributors.read().expect("contributor lock").get(channel).cloned().unwrap_or_default();
        let mut collected = Vec::new();
        for (name, callback) in contributors {
            match callback().await {
                Ok(Some(value)) => collected.push(value),
                Ok(None) => {}
                Err(err) => tracing::warn!(channel, contributor = %name, error = %err, "contributor failed; skipped"),
            }
        }
        collected
    }

    // -- cleanups -------------------------------------------------------------

    pub fn register_cleanup(&self, name: impl Into<String>, cleanup: Cleanup) {
        self.cleanups.lock().expect("cleanup lock").push((name.into(), cleanup));
    }

    /// Runs cleanups in reverse registration order; one failing doesn't stop the rest.
    pub async fn cleanup(&self) -> Vec<(String, ModuleError)> {
        let cleanups: Vec<(String, Cleanup)> = std::mem::take(&mut *self.cleanups.lock().expect("cleanup lock"));
        let mut failures = Vec::new();
        for (name, cleanup) in cleanups.into_iter().rev() {
            if let Err(err) = cleanup().await {
                tracing::warn!(module = %name, error = %err, "cleanup failed");
                failures.push((name, err));
            }
        }
        failures
    }

    // -- kernel services for orchestrators ----------------------------------------

    pub async fn emit(&self, event: &str, data: JsonMap) -> HookResult {
        self.hooks.emit(event, data).await
    }

    /// `emit` followed by `process_hook_result`.
    pub async fn dispatch(&self, event: &str, data: JsonMap) -> HookOutcome {
        let result = self.hooks.emit(event, data).await;
        self.process_hook_result(result, event, "hooks").await
    }

    /// Starts a new turn: the injection budget counts per turn.
    pub fn reset_turn(&self) {
        self.turn_injection_tokens.store(0, Ordering::Relaxed);
    }

    /// Applies a hook verdict (upstream's `process_hook_result`, with the
    /// documented injection limits enforced: an injection over the size limit
    /// or past the turn's budget is refused, logged and announced with
    /// `hook:injection_refused`, and the turn goes on).
    pub async fn process_hook_result(&self, result: HookResult, event: &str, hook_name: &str) -> HookOutcome {
        let mut outcome = HookOutcome {
            action: match result.action {
                HookAction::Deny => HookAction::Deny,
                HookAction::Modify => HookAction::Modify,
                _ => HookAction::Continue,
            },
            reason: result.reason.clone(),
            data: result.data.clone(),
            ephemeral_injections: Vec::new(),
        };

        if result.action == HookAction::InjectContext {
            if let Some(content) = result.context_injection.as_deref().filter(|c| !c.is_empty()) {
                self.apply_injection(&result, content, event, hook_name, &mut outcome).await;
            }
        }

        if let Some(message) = result.user_message.as_deref().filter(|m| !m.is_empty()) {
            if result.action != HookAction::AskUser {
                let source = format!("hook:{}", result.user_message_source.as_deref().unwrap_or(hook_name));
                match self.display.read().expect("service lock").clone() {
                    Some(display) => display.show_message(message, result.user_message_level, &source),
                    None => tracing::debug!(source, message, "hook message (no display system)"),
                }
            }
        }

        if result.action == HookAction::AskUser {
            // Upstream's approval events, for any question: a front end
            // drawing on the terminal gives way while it is asked.
            let mut about = JsonMap::new();
            about.insert("event".into(), json!(event));
            for field in ["tool_name", "tool_call_id"] {
                if let Some(value) = result.data.as_ref().and_then(|data| data.get(field)) {
                    about.insert(field.into(), value.clone());
                }
            }
            let mut required = about.clone();
            required.insert("prompt".into(), json!(result.approval_prompt));
            required.insert("options".into(), json!(result.approval_options));
            self.hooks.emit(events::APPROVAL_REQUIRED, required).await;
            let (allowed, reason) = self.ask_user(&result).await;
            about.insert("reason".into(), json!(reason));
            let answered = if allowed { events::APPROVAL_GRANTED } else { events::APPROVAL_DENIED };
            self.hooks.emit(answered, about).await;
            outcome.action = if allowed { HookAction::Continue } else { HookAction::Deny };
            outcome.reason = Some(reason);
        }
        outcome
    }

    async fn apply_injection(
        &self,
        result: &HookResult,
        content: &str,
        event: &str,
        hook_name: &str,
        outcome: &mut HookOutcome,
    ) {
        let size = content.chars().count();
        let tokens = size.div_ceil(4) as u64;
        let settings = &self.plan.session;
        let refusal = if settings.injection_size_limit.is_some_and(|limit| size > limit) {
            Some(format!(
                "injection of {size} characters exceeds session.injection_size_limit ({})",
                settings.injection_size_limit.unwrap_or_default()
            ))
        } else {
            let used = self.turn_injection_tokens.load(Ordering::Relaxed);
            settings
                .injection_budget_per_turn
                .filter(|budget| used + tokens > *budget)
                .map(|budget| {
                    format!("injection of ~{tokens} tokens exceeds session.injection_budget_per_turn ({budget}, {used} used this turn)")
                })
        };
        if let Some(reason) = refusal {
            tracing::warn!(hook = hook_name, event, "{reason}; injection refused");
            let mut data = JsonMap::new();
            data.insert("hook_name".into(), json!(hook_name));
            data.insert("event".into(), json!(event));
            data.insert("reason".into(), json!(reason));
            self.hooks.emit(events::HOOK_INJECTION_REFUSED, data).await;
            return;
        }
        self.turn_injection_tokens.fetch_add(tokens, Ordering::Relaxed);
        if result.ephemeral {
            outcome.ephemeral_injections.push(EphemeralInjection {
                content: content.to_owned(),
                role: result.context_injection_role,
                append_to_last_tool_result: result.append_to_last_tool_result,
            });
            return;
        }
        let Some(context) = self.context() else {
            tracing::warn!(hook = hook_name, "context injection dropped: no context mounted");
            return;
        };
        let role = match result.context_injection_role {
            InjectionRole::System => Role::System,
            InjectionRole::User => Role::User,
            InjectionRole::Assistant => Role::Assistant,
        };
        let mut metadata = JsonMap::new();
        metadata.insert("source".into(), json!("hook"));
        metadata.insert("hook_name".into(), json!(hook_name));
        metadata.insert("event".into(), json!(event));
        metadata.insert("timestamp".into(), json!(crate::now_rfc3339()));
        let message = Message {
            metadata: Some(metadata),
            content: MessageContent::Text(content.to_owned()),
            ..Message::new(role, "")
        };
        if let Err(err) = context.add_message(message).await {
            tracing::warn!(hook = hook_name, error = %err, "context injection failed");
        }
    }

    /// Resolves an `ask_user` verdict; fail-closed as upstream.
    async fn ask_user(&self, result: &HookResult) -> (bool, String) {
        let Some(approval) = self.approval.read().expect("service lock").clone() else {
            return (false, "No approval system available".to_owned());
        };
        let prompt = result.approval_prompt.as_deref().unwrap_or("Allow this action?");
        let options = result.approval_options.clone().unwrap_or_else(|| vec!["Allow".to_owned(), "Deny".to_owned()]);
        // The timeout comes from a plugin's JSON: too large a value must not panic.
        let timeout = Duration::try_from_secs_f64(result.approval_timeout.max(0.0)).unwrap_or(Duration::MAX);
        match approval.request_approval(prompt, &options, timeout, result.approval_default).await {
            Some(choice) => {
                let lowered = choice.to_lowercase();
                if matches!(lowered.as_str(), "allow" | "allow once" | "allow always") {
                    (true, format!("User approved: {choice}"))
                } else {
                    (false, format!("User denied: {choice}"))
                }
            }
            None => match result.approval_default {
                ApprovalDefault::Allow => (true, "Approval timed out; default allow".to_owned()),
                ApprovalDefault::Deny => (false, "Approval timed out; default deny".to_owned()),
            },
        }
    }

    /// Runs a mounted tool after validating `input` against its schema.
    /// Never fails: problems become error results the model can read. With
    /// the model's `tool_call_id`, the call is booked as running in the
    /// session's cancellation (what a graceful cancel waits for) while it
    /// runs, whoever drives the loop: a plugin orchestrator or one in-process.
    pub async fn execute_tool(&self, name: &str, input: Value, tool_call_id: Option<&str>) -> ToolResult {
        if let Some(id) = tool_call_id {
            self.cancellation.register_tool_start(id, name);
        }
        let result = self.run_tool_bounded(name, input).await;
        if let Some(id) = tool_call_id {
            self.cancellation.register_tool_complete(id);
        }
        let spill = self.spill.read().expect("service lock").clone();
        match spill.and_then(|spill| spill.spill(name, tool_call_id, &result)) {
            Some(kept) => kept,
            None => result,
        }
    }

    /// Runs a tool until it answers, the session cancels it (at once, or
    /// after the grace period of a graceful cancel) or its timeout ends it.
    /// Dropping the call cancels it in its plugin, across the ABI.
    async fn run_tool_bounded(&self, name: &str, input: Value) -> ToolResult {
        let timeout = self.plan.session.tool_timeout(name);
        let expired = async {
            match timeout {
                Some(timeout) => tokio::time::sleep(timeout).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            result = self.run_tool(name, input) => result,
            () = self.must_stop() => ToolResult::failed_call(
                "Cancelled",
                format!("tool '{name}' was cancelled ({})", self.stop_reason()),
            ),
            () = expired => ToolResult::failed_call(
                "Timeout",
                format!(
                    "tool '{name}' did not finish within {:?} and was stopped ({})",
                    timeout.unwrap_or_default(),
                    if self.plan.session.tool_timeouts.contains_key(name) {
                        format!("session.tool_timeouts.{name}")
                    } else {
                        "session.tool_timeout".to_owned()
                    }
                ),
            ),
        }
    }

    /// Resolves when running calls must stop: at once on an immediate
    /// cancel, after `session.cancel_grace` on a graceful one.
    async fn must_stop(&self) {
        self.cancellation.reached(CancelState::Graceful).await;
        let grace = self.plan.session.cancel_grace();
        tokio::select! {
            () = self.cancellation.reached(CancelState::Immediate) => {}
            () = tokio::time::sleep(grace) => {}
        }
    }

    fn stop_reason(&self) -> String {
        match self.cancellation.state() {
            CancelState::Immediate => "the session was stopped".to_owned(),
            _ => format!(
                "the session was cancelled and it ran past the {:?} grace period",
                self.plan.session.cancel_grace()
            ),
        }
    }

    /// Runs a provider call until it answers or the session stops it.
    async fn bounded<T>(
        &self,
        module: &str,
        call: impl std::future::Future<Output = ModuleResult<T>>,
    ) -> ModuleResult<T> {
        tokio::select! {
            biased;
            result = call => result.map_err(|err| err.with_module(module)),
            () = self.must_stop() => Err(ModuleError::new(
                ErrorKind::Cancelled,
                format!("the call to provider '{module}' was cancelled ({})", self.stop_reason()),
            )),
        }
    }

    async fn run_tool(&self, name: &str, input: Value) -> ToolResult {
        let Some(mounted) = self.tool(name) else {
            let mounted = self.tool_names().join(", ");
            return ToolResult::failed_call(
                "ToolNotFound",
                format!("no tool named '{name}' is mounted (mounted: {mounted})"),
            );
        };
        if let Some(validator) = &mounted.validator {
            let problems: Vec<String> = validator
                .iter_errors(&input)
                .map(|err| {
                    let at = err.instance_path().to_string();
                    if at.is_empty() {
                        err.to_string()
                    } else {
                        format!("{at}: {err}")
                    }
                })
                .collect();
            if !problems.is_empty() {
                return ToolResult::failed_call(
                    "InvalidInput",
                    format!("invalid input for tool '{name}': {}", problems.join("; ")),
                );
            }
        }
        mounted.tool.execute(input).await
    }

    /// The model `provider` (the preferred one for `None`) uses, as its
    /// `defaults` state it (`model`, `context_window`, `max_output_tokens`);
    /// `None` when they do not. Never a call to the provider: this is asked
    /// before a request, and `list_models` may go to the network.
    pub fn model_info(&self, provider: Option<&str>) -> ModuleResult<Option<ModelInfo>> {
        let mounted = self.pick_provider(provider)?;
        let defaults = &mounted.provider.info().defaults;
        let number = |key: &str| defaults.get(key).and_then(Value::as_u64).filter(|n| *n > 0);
        Ok(number("context_window").zip(number("max_output_tokens")).map(|(window, output)| ModelInfo {
            id: defaults.get("model").and_then(Value::as_str).unwrap_or_default().to_owned(),
            context_window: window,
            max_output_tokens: output,
            ..ModelInfo::default()
        }))
    }

    /// Asks a provider for a completion; `None` picks the preferred provider.
    pub async fn complete(
        &self,
        provider: Option<&str>,
        request: ChatRequest,
        stream: Option<StreamSink>,
    ) -> ModuleResult<ChatResponse> {
        let mounted = self.pick_provider(provider)?;
        self.bounded(&mounted.module, mounted.provider.complete(request, stream)).await
    }

    /// `complete` with the request and response as JSON text. With a
    /// `context` view, the request's messages are that view: a provider
    /// that syncs it fetches what it lacks itself; for one that doesn't,
    /// they are filled in here.
    pub async fn complete_json(
        &self,
        provider: Option<&str>,
        request: String,
        context: Option<crate::traits::ContextView>,
        stream: Option<StreamSink>,
    ) -> ModuleResult<String> {
        let mounted = self.pick_provider(provider)?;
        let (request, context) = match context {
            Some(context) if !mounted.provider.syncs_context() => {
                let mut request: ChatRequest = serde_json::from_str(&request)?;
                let mut messages = self.get_messages_for_request(context.view).await?;
                crate::ops::apply_ephemeral(&mut messages, context.ephemeral);
                request.messages = messages.into();
                (serde_json::to_string(&request)?, None)
            }
            context => (request, context),
        };
        self.bounded(&mounted.module, mounted.provider.complete_json(request, context, stream)).await
    }

    /// The context's whole history as what changed since `request.since`.
    pub async fn sync_messages(
        &self,
        request: crate::traits::ContextSyncMessages,
    ) -> ModuleResult<crate::traits::ViewDelta> {
        self.require_context()?.sync_messages(request).await
    }

    /// The context's request view as what changed since `request.since`.
    pub async fn sync_view(&self, request: crate::traits::ContextSyncView) -> ModuleResult<crate::traits::ViewDelta> {
        self.require_context()?.sync_view(request).await
    }

    fn pick_provider(&self, provider: Option<&str>) -> ModuleResult<MountedProvider> {
        match provider {
            Some(name) => self
                .provider(name)
                .ok_or_else(|| ModuleError::new(ErrorKind::NotFound, format!("no provider named '{name}' is mounted"))),
            None => self
                .providers()
                .into_iter()
                .next()
                .ok_or_else(|| ModuleError::new(ErrorKind::NotFound, "no provider is mounted")),
        }
    }

    pub async fn get_messages_for_request_json(&self, view: crate::traits::RequestView) -> ModuleResult<String> {
        self.require_context()?.get_messages_for_request_json(view).await
    }

    pub async fn add_message(&self, message: Message) -> ModuleResult<()> {
        self.require_context()?.add_message(message).await
    }

    pub async fn get_messages(&self) -> ModuleResult<Vec<Message>> {
        self.require_context()?.get_messages().await
    }

    pub async fn get_messages_for_request(&self, view: crate::traits::RequestView) -> ModuleResult<Vec<Message>> {
        self.require_context()?.get_messages_for_request(view).await
    }

    pub async fn set_messages(&self, messages: Vec<Message>) -> ModuleResult<()> {
        self.require_context()?.set_messages(messages).await
    }

    pub async fn clear_messages(&self) -> ModuleResult<()> {
        self.require_context()?.clear().await
    }

    /// Upstream's `to_dict()`: a summary of what is mounted.
    pub fn summary(&self) -> Value {
        json!({
            "tools": self.tool_names(),
            "providers": self.providers().iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            "has_orchestrator": self.orchestrator().is_some(),
            "has_context": self.context().is_some(),
            "capabilities": self.capabilities.read().expect("capability lock").keys().cloned().collect::<Vec<_>>(),
            "has_approval_provider": self.approval.read().expect("service lock").is_some(),
            "has_display_service": self.display.read().expect("service lock").is_some(),
        })
    }
}
