//! The plugin's view of the host: the kernel services a module may call.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use amplifier_abi::bridge::{await_answer, reply_channel};
use amplifier_abi::HostApiBox;
use amplifier_protocol::models::{
    ChatRequest, ChatResponse, HookResult, JsonMap, Message, ModelInfo, ToolResult, ToolSpec,
};
use amplifier_protocol::ops::{self, host, HookOutcome, NoParams, Op, ProviderDescriptor, RequestView, SessionInfo};
use amplifier_protocol::ModuleError;
use serde_json::Value;

use crate::callbacks::{Callbacks, ContributorFn, HookFn, OnceFn};

/// A handle on the host, given to every module at mount. Cheap to clone.
#[derive(Clone)]
pub struct Host {
    api: Arc<HostApiBox>,
    callbacks: Arc<Callbacks>,
}

impl Host {
    pub(crate) fn new(api: HostApiBox, callbacks: Arc<Callbacks>) -> Self {
        Host { api: Arc::new(api), callbacks }
    }

    pub(crate) fn api(&self) -> Arc<HostApiBox> {
        self.api.clone()
    }

    /// Calls a host operation (one of `amplifier_protocol::ops::host`):
    /// `host.call::<host::tool::List>(&NoParams)`.
    pub async fn call<O: Op>(&self, params: &O::Params) -> Result<O::Reply, ModuleError> {
        self.call_streaming::<O>(params, None).await
    }

    /// Like [`Host::call`], forwarding streamed events to `on_event`.
    pub async fn call_streaming<O: Op>(
        &self,
        params: &O::Params,
        on_event: Option<Arc<dyn Fn(Value) + Send + Sync>>,
    ) -> Result<O::Reply, ModuleError> {
        let op = O::NAME;
        let params = serde_json::to_string(params)?;
        let on_event = on_event.map(|f| {
            Arc::new(move |json: String| {
                if let Ok(value) = serde_json::from_str(&json) {
                    f(value)
                }
            }) as Arc<dyn Fn(String) + Send + Sync>
        });
        let (sink, reply) = reply_channel(on_event);
        let outcome = self.api.call(op.into(), params.as_str().into(), sink);
        let api = self.api.clone();
        let answer = await_answer(outcome, reply, move |id| api.cancel(id)).await;
        match answer.as_result() {
            Ok(json) => serde_json::from_str(json)
                .map_err(|err| ModuleError::internal(format!("host answered '{op}' with unexpected JSON: {err}"))),
            Err(err) => Err(ModuleError::from_wire(err)),
        }
    }

    /// Emits an event and returns the aggregated hook verdict, unprocessed.
    pub async fn emit(&self, event: &str, data: JsonMap) -> Result<HookResult, ModuleError> {
        let params = ops::EmitEvent { event: event.to_owned(), data };
        self.call::<host::hooks::Emit>(&params).await
    }

    /// Emits an event and applies the verdict (injections, approvals, messages):
    /// what an orchestrator normally wants.
    pub async fn dispatch(&self, event: &str, data: JsonMap) -> Result<HookOutcome, ModuleError> {
        let params = ops::EmitEvent { event: event.to_owned(), data };
        self.call::<host::hooks::Dispatch>(&params).await
    }

    /// Runs every handler of `event`, each under `timeout`, and collects the
    /// `data` each returns; no verdict applies (upstream's `emit_and_collect`).
    pub async fn emit_and_collect(
        &self,
        event: &str,
        data: JsonMap,
        timeout: Duration,
    ) -> Result<Vec<JsonMap>, ModuleError> {
        let params = ops::CollectEvent { event: event.to_owned(), data, timeout: timeout.as_secs_f64() };
        self.call::<host::hooks::EmitAndCollect>(&params).await
    }

    /// Registers `handler` for `event` (an exact name, `prefix:*` or `*`)
    /// now, whatever this module's kind; lower priorities run first. A
    /// second registration under `name` replaces the first.
    pub async fn register_hook<F, Fut>(
        &self,
        event: &str,
        priority: i32,
        name: &str,
        handler: F,
    ) -> Result<(), ModuleError>
    where
        F: Fn(String, JsonMap) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<HookResult, ModuleError>> + Send + 'static,
    {
        let handler: HookFn = Arc::new(move |event, data| Box::pin(handler(event, data)));
        self.callbacks.hooks.lock().expect("hook callbacks").insert(name.to_owned(), handler);
        let params = ops::RegisterHook { event: event.to_owned(), priority, name: name.to_owned() };
        let registered = self.call::<host::hooks::Register>(&params).await;
        if registered.is_err() {
            self.callbacks.hooks.lock().expect("hook callbacks").remove(name);
        }
        registered.map(drop)
    }

    /// Removes a hook this module registered; whether there was one.
    pub async fn unregister_hook(&self, name: &str) -> Result<bool, ModuleError> {
        let removed = self.call::<host::hooks::Unregister>(&ops::CallbackName { name: name.to_owned() }).await?;
        self.callbacks.hooks.lock().expect("hook callbacks").remove(name);
        Ok(removed)
    }

    /// Contributes to `channel` under `name`: `contribute` is asked each time
    /// the channel is collected (`None` contributes nothing).
    pub async fn register_contributor<F, Fut>(
        &self,
        channel: &str,
        name: &str,
        contribute: F,
    ) -> Result<(), ModuleError>
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Option<Value>, ModuleError>> + Send + 'static,
    {
        let key = (channel.to_owned(), name.to_owned());
        let contribute: ContributorFn = Arc::new(move || Box::pin(contribute()));
        self.callbacks.contributors.lock().expect("contributor callbacks").insert(key.clone(), contribute);
        let params = ops::ContributorName { channel: key.0.clone(), name: key.1.clone() };
        let registered = self.call::<host::contributions::Register>(&params).await;
        if registered.is_err() {
            self.callbacks.contributors.lock().expect("contributor callbacks").remove(&key);
        }
        registered.map(drop)
    }

    /// Every module's contribution to `channel`, in registration order.
    pub async fn collect_contributions(&self, channel: &str) -> Result<Vec<Value>, ModuleError> {
        self.call::<host::contributions::Collect>(&ops::Channel { channel: channel.to_owned() }).await
    }

    /// Runs `cleanup` once when the session ends (cleanups run in reverse
    /// registration order; one failing does not stop the others).
    pub async fn register_cleanup<F, Fut>(&self, name: &str, cleanup: F) -> Result<(), ModuleError>
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = Result<(), ModuleError>> + Send + 'static,
    {
        let cleanup: OnceFn = Box::new(move || Box::pin(cleanup()));
        self.callbacks.cleanups.lock().expect("cleanup callbacks").insert(name.to_owned(), cleanup);
        let registered = self.call::<host::cleanup::Register>(&ops::CallbackName { name: name.to_owned() }).await;
        if registered.is_err() {
            self.callbacks.cleanups.lock().expect("cleanup callbacks").remove(name);
        }
        registered.map(drop)
    }

    /// Runs `ready` once the session's whole plan is mounted, before its
    /// first prompt (upstream's `on_session_ready`): the place to look at
    /// what the other modules mounted, whatever their order in the plan.
    /// Call it while mounting; a later call replaces an earlier one. An
    /// error is reported as `module:on_session_ready_failed` and the session
    /// goes on.
    pub fn on_session_ready<F, Fut>(&self, ready: F)
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = Result<(), ModuleError>> + Send + 'static,
    {
        let ready: OnceFn = Box::new(move || Box::pin(ready()));
        *self.callbacks.session_ready.lock().expect("session-ready callback") = Some(ready);
    }

    /// Mounted providers, preferred first.
    pub async fn providers(&self) -> Result<Vec<ProviderDescriptor>, ModuleError> {
        self.call::<host::provider::List>(&NoParams).await
    }

    /// The model `provider` (the preferred one when `None`) uses, with its
    /// context window and most output, when the provider's `defaults` say.
    pub async fn model_info(&self, provider: Option<&str>) -> Result<Option<ModelInfo>, ModuleError> {
        self.call::<host::provider::Model>(&ops::ProviderModel { provider: provider.map(str::to_owned) }).await
    }

    /// A completion from `provider` (the preferred one when `None`).
    pub async fn complete(&self, provider: Option<&str>, request: ChatRequest) -> Result<ChatResponse, ModuleError> {
        let params =
            ops::ProviderComplete { provider: provider.map(str::to_owned), request, stream: false, context: None };
        self.call::<host::provider::Complete>(&params).await
    }

    /// A streamed completion: `on_event` sees each delta as it arrives.
    pub async fn complete_streaming(
        &self,
        provider: Option<&str>,
        request: ChatRequest,
        on_event: Arc<dyn Fn(Value) + Send + Sync>,
    ) -> Result<ChatResponse, ModuleError> {
        let params =
            ops::ProviderComplete { provider: provider.map(str::to_owned), request, stream: true, context: None };
        self.call_streaming::<host::provider::Complete>(&params, Some(on_event)).await
    }

    /// A completion whose messages are the session context's `view` (what
    /// an agent loop sends on every iteration): the provider's SDK keeps a
    /// copy of the view and fetches only what is new, so the history does
    /// not cross the ABI with every request. `request.messages` is ignored.
    /// With `on_event`, streamed as [`complete_streaming`](Self::complete_streaming).
    pub async fn complete_from_context(
        &self,
        provider: Option<&str>,
        request: ChatRequest,
        context: ops::ContextView,
        on_event: Option<Arc<dyn Fn(Value) + Send + Sync>>,
    ) -> Result<ChatResponse, ModuleError> {
        let params = ops::ProviderComplete {
            provider: provider.map(str::to_owned),
            request,
            stream: on_event.is_some(),
            context: Some(context),
        };
        self.call_streaming::<host::provider::Complete>(&params, on_event).await
    }

    /// Mounts tools now; the host sends their calls to this module's
    /// [`crate::ToolDispatcher`]. A tool of the same name is replaced.
    pub async fn mount_tools(&self, tools: Vec<ToolSpec>) -> Result<(), ModuleError> {
        self.call::<host::tools::Mount>(&ops::MountTools { tools }).await.map(drop)
    }

    /// Unmounts tools this module mounted.
    pub async fn unmount_tools(&self, names: Vec<String>) -> Result<(), ModuleError> {
        self.call::<host::tools::Unmount>(&ops::UnmountTools { names }).await.map(drop)
    }

    pub async fn tools(&self) -> Result<Vec<ToolSpec>, ModuleError> {
        self.call::<host::tool::List>(&NoParams).await
    }

    /// Runs a mounted tool; `tool_call_id` lets the host track it for cancellation.
    pub async fn execute_tool(
        &self,
        name: &str,
        input: Value,
        tool_call_id: Option<&str>,
    ) -> Result<ToolResult, ModuleError> {
        let params =
            ops::HostExecuteTool { name: name.to_owned(), input, tool_call_id: tool_call_id.map(str::to_owned) };
        self.call::<host::tool::Execute>(&params).await
    }

    /// Runs a tool call with its hooks, as an agent loop makes it:
    /// `tool:pre` (a hook may deny the call or change its input), the call,
    /// then `tool:post` (a hook may replace the result) or `tool:error`.
    pub async fn call_tool(&self, call: ops::HostCallTool) -> Result<ops::ToolCallOutcome, ModuleError> {
        self.call::<host::tool::Call>(&call).await
    }

    pub async fn add_message(&self, message: Message) -> Result<(), ModuleError> {
        self.call::<host::context::AddMessage>(&ops::ContextAddMessage { message }).await.map(drop)
    }

    pub async fn get_messages(&self) -> Result<Vec<Message>, ModuleError> {
        self.call::<host::context::GetMessages>(&NoParams).await
    }

    pub async fn get_messages_for_request(&self, view: RequestView) -> Result<Vec<Message>, ModuleError> {
        self.call::<host::context::GetMessagesForRequest>(&view).await
    }

    /// The context's request view as what changed since `request.since`.
    pub async fn sync_view(&self, request: ops::ContextSyncView) -> Result<ops::ViewDelta, ModuleError> {
        self.call::<host::context::SyncView>(&request).await
    }

    pub async fn clear_messages(&self) -> Result<(), ModuleError> {
        self.call::<host::context::Clear>(&NoParams).await.map(drop)
    }

    pub async fn set_messages(&self, messages: Vec<Message>) -> Result<(), ModuleError> {
        self.call::<host::context::SetMessages>(&ops::ContextSetMessages { messages }).await.map(drop)
    }

    pub async fn capability(&self, name: &str) -> Result<Option<Value>, ModuleError> {
        self.call::<host::capability::Get>(&ops::CapabilityName { name: name.to_owned() }).await
    }

    pub async fn register_capability(&self, name: &str, value: Value) -> Result<(), ModuleError> {
        let params = ops::RegisterCapability { name: name.to_owned(), value };
        self.call::<host::capability::Register>(&params).await.map(drop)
    }

    /// Runs (or, with `session_id`, resumes) a child session for one of the plan's agents.
    pub async fn spawn(&self, request: ops::SpawnRequest) -> Result<ops::SpawnResult, ModuleError> {
        self.call::<host::session::Spawn>(&request).await
    }

    /// One turn of an agent in a fresh child session seeded with a history;
    /// `on_event` sees each of the child's events (`{event, data}`) as it happens.
    pub async fn agent_turn(
        &self,
        turn: ops::AgentTurn,
        on_event: Arc<dyn Fn(Value) + Send + Sync>,
    ) -> Result<ops::AgentTurnResult, ModuleError> {
        self.call_streaming::<host::session::AgentTurn>(&turn, Some(on_event)).await
    }

    /// An agent's stored history in the front end's conversation, the newest
    /// `max_messages` (all when `None`).
    pub async fn history(&self, agent: &str, max_messages: Option<usize>) -> Result<Vec<Message>, ModuleError> {
        self.call::<host::history::Fetch>(&ops::HistoryFetch { agent: agent.to_owned(), max_messages }).await
    }

    /// Every agent's history merged in time order, assistant texts prefixed `[agent] `.
    pub async fn merged_history(&self) -> Result<Vec<Message>, ModuleError> {
        self.call::<host::history::FetchAll>(&NoParams).await
    }

    /// Appends to an agent's stored history, then trims it to `max_messages`.
    pub async fn save_history(
        &self,
        agent: &str,
        messages: Vec<Message>,
        max_messages: Option<usize>,
    ) -> Result<(), ModuleError> {
        let params = ops::HistorySave { agent: agent.to_owned(), messages, max_messages };
        self.call::<host::history::Save>(&params).await.map(drop)
    }

    /// A thread's stored run state (`None`: nothing stored yet).
    pub async fn load_run_state(&self, thread: &str) -> Result<Option<Value>, ModuleError> {
        self.call::<host::runs::Load>(&ops::RunLoad { thread: thread.to_owned() }).await
    }

    /// Replaces a thread's stored run state; the host keeps it (in the
    /// session store), so a run resumes after a crash and `amplifier serve`
    /// answers `GET /v1/runs/{thread}` from it.
    pub async fn save_run_state(&self, thread: &str, state: Value) -> Result<(), ModuleError> {
        self.call::<host::runs::Save>(&ops::RunSave { thread: thread.to_owned(), state }).await.map(drop)
    }

    /// The agents the plan offers for child sessions.
    pub async fn agents(&self) -> Result<Vec<ops::AgentSummary>, ModuleError> {
        self.call::<host::session::Agents>(&NoParams).await
    }

    pub async fn session_info(&self) -> Result<SessionInfo, ModuleError> {
        self.call::<host::session::Info>(&NoParams).await
    }

    /// What the user typed while this turn ran, oldest first (taken: a
    /// second call sees only what came since).
    pub async fn take_steering(&self) -> Result<Vec<String>, ModuleError> {
        self.call::<host::session::SteeringTake>(&NoParams).await
    }
}
