//! The kernel services a plugin reaches through its `HostApi` object.
//!
//! Every plugin instance gets its own `HostService`, which knows the module's
//! name (for logs) and holds the coordinator weakly (a plugin must not keep a
//! finished session alive). Calls are answered like plugin calls are: polled
//! once inline, spawned on the host's runtime when they must wait.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use crate::adapters::{PluginHook, PluginModule, PluginTool};

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr};
use amplifier_abi::bridge::{error_json, CallFuture, FirstPoll, PendingCalls, SharedSink};
use amplifier_abi::{CallOutcome, EventSinkBox, HostApi, HostApiBox, HostApi_TO};
use amplifier_kernel::coordinator::Contributor;
use amplifier_kernel::hooks::HandlerId;
use amplifier_kernel::models::ToolSpec;
use amplifier_kernel::ops::host::{
    capability, cleanup, context, contributions, history, hooks, log, provider, runs, session, tool, tools,
};
use amplifier_kernel::ops::plugin::callback;
use amplifier_kernel::ops::{
    CallbackName, ContributorName, Done, NoParams, Op, ProviderDescriptor, RegisterHook, RequestView, SessionInfo,
};
use amplifier_kernel::plan::ModuleKind;
use amplifier_kernel::{BoxFuture, Coordinator, ErrorKind, ModuleError, ModuleResult, StreamSink};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tracing::level_filters::LevelFilter;

/// The instance a `HostService` serves, and what it registered at run time.
pub struct Caller {
    /// Known only once `instantiate` returned; the tools it mounts and the
    /// callbacks it registers at run time call back into it.
    module: OnceLock<Weak<PluginModule>>,
    kind: ModuleKind,
    /// Its hooks, by name (it may remove only its own).
    hooks: Mutex<HashMap<String, HandlerId>>,
    /// Its contributors and cleanups: registered with the kernel once each
    /// (a second registration only replaces the plugin's callback).
    registered: Mutex<HashSet<(&'static str, String, String)>>,
}

impl Caller {
    /// Binds the instance, once it exists.
    pub fn bind(&self, module: &Arc<PluginModule>) {
        let _ = self.module.set(Arc::downgrade(module));
    }

    fn module(&self) -> ModuleResult<Arc<PluginModule>> {
        self.module.get().and_then(Weak::upgrade).ok_or_else(|| {
            ModuleError::unsupported("tools and callbacks can be registered only after the module finished mounting")
        })
    }

    /// Whether this is the first registration of `what` `a`/`b`.
    fn first(&self, what: &'static str, a: &str, b: &str) -> bool {
        self.registered.lock().expect("registrations").insert((what, a.to_owned(), b.to_owned()))
    }
}

pub struct HostService {
    coordinator: Weak<Coordinator>,
    module: String,
    caller: Arc<Caller>,
    runtime: tokio::runtime::Handle,
    calls: Arc<PendingCalls>,
}

impl HostService {
    /// The `HostApi` object handed to a plugin instance of `module`, and the
    /// caller to bind to the instance once it exists.
    pub fn new_api(
        coordinator: &Arc<Coordinator>,
        module: &str,
        kind: ModuleKind,
        runtime: tokio::runtime::Handle,
    ) -> (HostApiBox, Arc<Caller>) {
        let caller =
            Arc::new(Caller { module: OnceLock::new(), kind, hooks: Mutex::default(), registered: Mutex::default() });
        let service = HostService {
            coordinator: Arc::downgrade(coordinator),
            module: module.to_owned(),
            caller: caller.clone(),
            runtime,
            calls: PendingCalls::new(),
        };
        (HostApi_TO::from_value(service, TD_Opaque), caller)
    }
}

impl HostApi for HostService {
    fn log(&self, level: u8, target: RStr<'_>, message: RStr<'_>) {
        let (module, target, message) = (self.module.as_str(), target.as_str(), message.as_str());
        match level {
            1 => tracing::error!(target: "plugin", module, plugin_target = target, "{message}"),
            2 => tracing::warn!(target: "plugin", module, plugin_target = target, "{message}"),
            3 => tracing::info!(target: "plugin", module, plugin_target = target, "{message}"),
            4 => tracing::debug!(target: "plugin", module, plugin_target = target, "{message}"),
            _ => tracing::trace!(target: "plugin", module, plugin_target = target, "{message}"),
        }
    }

    fn call(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome {
        let Some(coordinator) = self.coordinator.upgrade() else {
            return CallOutcome::Ready(RResult::RErr(
                error_json("unsupported", "the session this module belonged to has ended").into(),
            ));
        };
        let _entered = self.runtime.enter();
        let runtime = self.runtime.clone();
        // The kernel's own code answers host ops, and it never blocks.
        self.calls.start(
            sink,
            FirstPoll::Inline,
            |sink| {
                let Some(start) = handlers().0.get(op.as_str()) else {
                    return Err(ModuleError::unsupported(format!(
                        "the host has no operation '{op}' (this amplifier speaks module protocol {})",
                        amplifier_abi::PROTOCOL_VERSION
                    ))
                    .to_wire());
                };
                let call = Call { coordinator, caller: self.caller.clone(), stream: sink.shared() };
                start(call, params.as_str())
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
}

/// What a host operation's handler works with.
struct Call {
    coordinator: Arc<Coordinator>,
    caller: Arc<Caller>,
    /// Streams events back to the caller.
    stream: Arc<SharedSink>,
}

/// Starts one host operation: parses its parameters, returns its future.
type Starter = Box<dyn Fn(Call, &str) -> Result<CallFuture, String> + Send + Sync>;

/// A handler of operation `O`.
type Handler<O> = fn(Call, <O as Op>::Params) -> BoxFuture<'static, ModuleResult<<O as Op>::Reply>>;

/// The host operations, by wire name.
#[derive(Default)]
struct Handlers(HashMap<&'static str, Starter>);

impl Handlers {
    /// Answers `O` with `handler`.
    fn on<O: Op>(&mut self, handler: Handler<O>) -> &mut Self {
        self.on_json::<O, O::Params>(move |call, params| {
            let reply = handler(call, params);
            Box::pin(async move {
                serde_json::to_string(&reply.await?).map_err(|err| ModuleError::internal(err.to_string()))
            })
        })
    }

    /// Answers `O` with `handler`, which reads the parameters as `P` (a
    /// lazily parsed twin of `O::Params`) and answers `O::Reply` as JSON text:
    /// for payloads the host forwards without reading.
    fn on_json<O: Op, P: DeserializeOwned + 'static>(
        &mut self,
        handler: impl Fn(Call, P) -> BoxFuture<'static, ModuleResult<String>> + Send + Sync + 'static,
    ) -> &mut Self {
        let start = move |call: Call, params: &str| -> Result<CallFuture, String> {
            let params: P = serde_json::from_str(params).map_err(|err| {
                ModuleError::new(
                    ErrorKind::InvalidRequest,
                    format!("invalid parameters for host operation '{}': {err}", O::NAME),
                )
                .to_wire()
            })?;
            let reply = handler(call, params);
            Ok(Box::pin(async move { reply.await.map_err(|err| err.to_wire()) }))
        };
        self.0.insert(O::NAME, Box::new(start));
        self
    }
}

fn handlers() -> &'static Handlers {
    static HANDLERS: OnceLock<Handlers> = OnceLock::new();
    HANDLERS.get_or_init(|| {
        let mut table = Handlers::default();
        table
            .on::<hooks::Emit>(|call, p| Box::pin(async move { Ok(call.coordinator.emit(&p.event, p.data).await) }))
            .on::<hooks::Dispatch>(|call, p| {
                Box::pin(async move { Ok(call.coordinator.dispatch(&p.event, p.data).await) })
            })
            .on::<hooks::Process>(|call, p| {
                Box::pin(
                    async move { Ok(call.coordinator.process_hook_result(p.result, &p.event, &p.hook_name).await) },
                )
            })
            .on::<hooks::EmitAndCollect>(|call, p| {
                Box::pin(async move {
                    let timeout = Duration::try_from_secs_f64(p.timeout).map_err(|err| {
                        ModuleError::new(ErrorKind::InvalidRequest, format!("timeout {}: {err}", p.timeout))
                    })?;
                    Ok(call.coordinator.hooks().emit_and_collect(&p.event, p.data, timeout).await)
                })
            })
            .on::<hooks::Register>(|call, p| {
                let registered = register_hook(&call, p);
                Box::pin(async move { registered.map(|()| Done) })
            })
            .on::<hooks::Unregister>(|call, p| {
                let id = call.caller.hooks.lock().expect("hook registrations").remove(&p.name);
                let removed = id.is_some_and(|id| call.coordinator.hooks().unregister(id));
                Box::pin(async move { Ok(removed) })
            })
            .on::<contributions::Register>(|call, p| {
                let registered = register_contributor(&call, p);
                Box::pin(async move { registered.map(|()| Done) })
            })
            .on::<contributions::Collect>(|call, p| {
                Box::pin(async move { Ok(call.coordinator.collect_contributions(&p.channel).await) })
            })
            .on::<cleanup::Register>(|call, p| {
                let registered = register_cleanup(&call, p);
                Box::pin(async move { registered.map(|()| Done) })
            })
            // The request stays JSON text: it is forwarded, not read.
            .on_json::<provider::Complete, RawProviderComplete>(|call, p| {
                let stream = call.stream;
                let sink: Option<StreamSink> =
                    p.stream.then(|| Arc::new(move |event: Value| stream.event(event.to_string())) as StreamSink);
                Box::pin(async move {
                    let request = p.request.get().to_owned();
                    call.coordinator.complete_json(p.provider.as_deref(), request, p.context, sink).await
                })
            })
            .on::<provider::Model>(|call, p| {
                let model = call.coordinator.model_info(p.provider.as_deref());
                Box::pin(async move { model })
            })
            .on::<provider::List>(|call, NoParams| {
                let providers = call
                    .coordinator
                    .providers()
                    .into_iter()
                    .map(|p| ProviderDescriptor {
                        info: p.provider.info().clone(),
                        name: p.name,
                        module: p.module,
                        priority: p.priority,
                    })
                    .collect();
                Box::pin(async move { Ok(providers) })
            })
            .on::<tool::Execute>(|call, p| {
                Box::pin(
                    async move { Ok(call.coordinator.execute_tool(&p.name, p.input, p.tool_call_id.as_deref()).await) },
                )
            })
            .on::<tool::Call>(|call, p| Box::pin(async move { Ok(call.coordinator.call_tool(p).await) }))
            .on::<tool::List>(|call, NoParams| {
                let specs = call.coordinator.tool_specs();
                Box::pin(async move { Ok(specs) })
            })
            .on::<tools::Mount>(|call, p| {
                let mounted = mount_tools(&call, p.tools);
                Box::pin(async move { mounted.map(|()| Done) })
            })
            .on::<tools::Unmount>(|call, p| {
                let module = call.caller.module().ok().map(|m| m.name().to_owned());
                for name in p.names {
                    // Only the module that mounted a tool may take it away.
                    if call.coordinator.tool(&name).is_some_and(|t| Some(&t.module) == module.as_ref()) {
                        call.coordinator.unmount_tool(&name);
                    }
                }
                Box::pin(async move { Ok(Done) })
            })
            .on::<context::AddMessage>(|call, p| {
                Box::pin(async move { call.coordinator.add_message(p.message).await.map(|()| Done) })
            })
            .on::<context::GetMessages>(|call, NoParams| Box::pin(async move { call.coordinator.get_messages().await }))
            // The view stays JSON text from a plugin context to the caller.
            .on_json::<context::GetMessagesForRequest, RequestView>(|call, view| {
                Box::pin(async move { call.coordinator.get_messages_for_request_json(view).await })
            })
            .on::<context::SyncView>(|call, p| Box::pin(async move { call.coordinator.sync_view(p).await }))
            .on::<context::SetMessages>(|call, p| {
                Box::pin(async move { call.coordinator.set_messages(p.messages).await.map(|()| Done) })
            })
            .on::<context::Clear>(|call, NoParams| {
                Box::pin(async move { call.coordinator.clear_messages().await.map(|()| Done) })
            })
            .on::<capability::Get>(|call, p| {
                let value = call.coordinator.get_capability(&p.name);
                Box::pin(async move { Ok(value) })
            })
            .on::<capability::Register>(|call, p| {
                call.coordinator.register_capability(p.name, p.value);
                Box::pin(async move { Ok(Done) })
            })
            .on::<session::Info>(|call, NoParams| {
                let c = &call.coordinator;
                let info = SessionInfo {
                    session_id: c.session_id().to_owned(),
                    parent_id: c.parent_id().map(str::to_owned),
                    cancellation: serde_json::to_value(c.cancellation().state())
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    tools: c.tool_names(),
                    depth: c.depth(),
                };
                Box::pin(async move { Ok(info) })
            })
            .on::<session::SteeringTake>(|call, NoParams| {
                let steering = call.coordinator.take_steering();
                Box::pin(async move { Ok(steering) })
            })
            .on::<session::Spawn>(|call, request| Box::pin(async move { call.coordinator.spawn(request).await }))
            .on::<session::AgentTurn>(|call, turn| {
                let stream = call.stream;
                let observer: StreamSink = Arc::new(move |event: Value| stream.event(event.to_string()));
                Box::pin(async move { call.coordinator.agent_turn(turn, Some(observer)).await })
            })
            .on::<session::Agents>(|call, NoParams| {
                let agents = amplifier_kernel::spawn::agent_summaries(call.coordinator.plan());
                Box::pin(async move { Ok(agents) })
            })
            .on::<history::Fetch>(|call, p| {
                Box::pin(async move { call.coordinator.chat_history()?.fetch(&p.agent, p.max_messages).await })
            })
            .on::<history::FetchAll>(|call, NoParams| {
                Box::pin(async move { call.coordinator.chat_history()?.fetch_all().await })
            })
            .on::<history::Save>(|call, p| {
                Box::pin(async move {
                    call.coordinator.chat_history()?.save(&p.agent, p.messages, p.max_messages).await.map(|()| Done)
                })
            })
            .on::<runs::Load>(|call, p| {
                Box::pin(async move {
                    valid_thread(&p.thread)?;
                    call.coordinator.run_states()?.load(&p.thread).await
                })
            })
            .on::<runs::Save>(|call, p| {
                Box::pin(async move {
                    valid_thread(&p.thread)?;
                    call.coordinator.run_states()?.save(&p.thread, p.state).await.map(|()| Done)
                })
            })
            .on::<log::Level>(|_, NoParams| {
                let level = match LevelFilter::current() {
                    LevelFilter::OFF | LevelFilter::ERROR => "error",
                    LevelFilter::WARN => "warn",
                    LevelFilter::INFO => "info",
                    LevelFilter::DEBUG => "debug",
                    _ => "trace",
                };
                Box::pin(async move { Ok(level.to_owned()) })
            });
        table
    })
}

/// `ops::ProviderComplete` with the request kept as unparsed JSON.
#[derive(serde::Deserialize)]
struct RawProviderComplete {
    #[serde(default)]
    provider: Option<String>,
    request: Box<serde_json::value::RawValue>,
    #[serde(default)]
    stream: bool,
    #[serde(default)]
    context: Option<amplifier_kernel::ops::ContextView>,
}

/// Mounts tools whose calls come back to the calling instance, which must
/// be a tool module: no other kind answers `execute` for a tool.
/// A thread id a store may key on ([`amplifier_protocol::runs::valid_id`]).
fn valid_thread(thread: &str) -> ModuleResult<()> {
    if amplifier_protocol::runs::valid_id(thread) {
        Ok(())
    } else {
        Err(ModuleError::new(ErrorKind::InvalidRequest, format!("`{thread}` is not a valid thread id")))
    }
}

fn mount_tools(call: &Call, tools: Vec<ToolSpec>) -> ModuleResult<()> {
    let kind = call.caller.kind;
    if kind != ModuleKind::Tool {
        return Err(ModuleError::unsupported(format!(
            "only a tool module can mount tools (their calls come back to its tool dispatcher); \
             this module is mounted as kind '{kind}'"
        )));
    }
    let module = call.caller.module()?;
    for spec in tools {
        call.coordinator.mount_tool(module.name(), Arc::new(PluginTool::new(module.clone(), spec)));
    }
    Ok(())
}

/// Registers a hook whose events go back to the calling instance; a second
/// registration under a name replaces the first.
fn register_hook(call: &Call, p: RegisterHook) -> ModuleResult<()> {
    let module = call.caller.module()?;
    let handler = Arc::new(PluginHook::callback(module, &p.name)?);
    let id = call.coordinator.hooks().register(&p.event, handler, p.priority, p.name.clone());
    if let Some(replaced) = call.caller.hooks.lock().expect("hook registrations").insert(p.name, id) {
        call.coordinator.hooks().unregister(replaced);
    }
    Ok(())
}

fn register_contributor(call: &Call, p: ContributorName) -> ModuleResult<()> {
    let module = call.caller.module()?;
    if !call.caller.first("contributor", &p.channel, &p.name) {
        return Ok(());
    }
    let (channel, name) = (p.channel.clone(), p.name.clone());
    let contributor: Contributor = Arc::new(move || {
        let (module, p) = (module.clone(), p.clone());
        Box::pin(async move { module.call::<callback::Contribute>(&p, None).await })
    });
    call.coordinator.register_contributor(&channel, name, contributor);
    Ok(())
}

fn register_cleanup(call: &Call, p: CallbackName) -> ModuleResult<()> {
    let module = call.caller.module()?;
    if !call.caller.first("cleanup", &p.name, "") {
        return Ok(());
    }
    let owner = module.name().to_owned();
    call.coordinator.register_cleanup(
        owner,
        Box::new(move || Box::pin(async move { module.call::<callback::Cleanup>(&p, None).await.map(drop) })),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use amplifier_abi::bridge::{await_answer, reply_channel};
    use amplifier_kernel::plan::{ModuleSpec, MountPlan, SessionSettings};
    use amplifier_kernel::ErrorKind;

    use super::*;

    fn coordinator() -> Arc<Coordinator> {
        let plan = MountPlan::new(SessionSettings::new(ModuleSpec::new("loop"), ModuleSpec::new("context")));
        let coordinator = Arc::new(Coordinator::new("s".into(), None, Arc::new(plan)));
        coordinator.register_capability("answer", Value::from(42));
        coordinator
    }

    /// Calls `op` through a `HostApi` object as a plugin of `kind` would.
    async fn call(kind: ModuleKind, op: &str, params: &str) -> Result<String, ModuleError> {
        call_on(&coordinator(), kind, op, params).await
    }

    async fn call_on(
        coordinator: &Arc<Coordinator>,
        kind: ModuleKind,
        op: &str,
        params: &str,
    ) -> Result<String, ModuleError> {
        let (api, _caller) = HostService::new_api(coordinator, "probe", kind, tokio::runtime::Handle::current());
        let (sink, reply) = reply_channel(None);
        let outcome = api.call(op.into(), params.into(), sink);
        await_answer(outcome, reply, |id| api.cancel(id))
            .await
            .into_result()
            .map_err(|wire| ModuleError::from_wire(&wire))
    }

    #[tokio::test]
    async fn operations_are_found_by_their_wire_names() {
        let params = serde_json::to_string(&amplifier_kernel::ops::CapabilityName { name: "answer".into() }).unwrap();
        assert_eq!(call(ModuleKind::Tool, capability::Get::NAME, &params).await.unwrap(), "42");
        // Operations without parameters take `{}`, or anything else.
        assert_eq!(call(ModuleKind::Tool, tool::List::NAME, "{}").await.unwrap(), "[]");
        assert_eq!(call(ModuleKind::Tool, tool::List::NAME, "null").await.unwrap(), "[]");
    }

    #[tokio::test]
    async fn unknown_operations_and_bad_parameters_are_named() {
        let err = call(ModuleKind::Tool, "tool.teleport", "{}").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::Unsupported);
        assert!(err.message.contains("the host has no operation 'tool.teleport'"), "{}", err.message);

        let err = call(ModuleKind::Tool, capability::Get::NAME, r#"{"nom": "answer"}"#).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidRequest);
        assert!(
            err.message.starts_with("invalid parameters for host operation 'capability.get': missing field `name`"),
            "{}",
            err.message
        );
    }

    #[tokio::test]
    async fn only_a_tool_module_may_mount_tools() {
        // Calls to a mounted tool come back to the module's tool dispatcher,
        // which an orchestrator does not have.
        let params = r#"{"tools": [{"name": "late", "description": "", "parameters": {"type": "object"}}]}"#;
        let err = call(ModuleKind::Orchestrator, tools::Mount::NAME, params).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::Unsupported);
        assert!(err.message.starts_with("only a tool module can mount tools"), "{}", err.message);
        assert!(err.message.ends_with("this module is mounted as kind 'orchestrator'"), "{}", err.message);
    }

    #[tokio::test]
    async fn a_module_removes_only_hooks_it_registered() {
        let coordinator = coordinator();
        struct Theirs;
        impl amplifier_kernel::hooks::HookHandler for Theirs {
            fn handle<'a>(
                &'a self,
                _: &'a amplifier_kernel::HookEvent,
            ) -> BoxFuture<'a, ModuleResult<amplifier_kernel::models::HookResult>> {
                Box::pin(async { Ok(Default::default()) })
            }
        }
        coordinator.hooks().register("tool:pre", Arc::new(Theirs), 0, "theirs");
        let removed = call_on(&coordinator, ModuleKind::Tool, hooks::Unregister::NAME, r#"{"name": "theirs"}"#).await;
        assert_eq!(removed.unwrap(), "false");
        assert_eq!(coordinator.hooks().list_handlers(Some("tool:pre")).get("tool:pre"), Some(&vec!["theirs".into()]));
    }

    #[tokio::test]
    async fn a_collect_timeout_that_is_no_duration_is_refused() {
        let params = r#"{"event": "e", "timeout": -1}"#;
        let err = call(ModuleKind::Tool, hooks::EmitAndCollect::NAME, params).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidRequest);
        assert!(err.message.starts_with("timeout -1:"), "{}", err.message);
    }
}
