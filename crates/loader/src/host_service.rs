//! The kernel services a plugin reaches through its `HostApi` object.
//!
//! Every plugin instance gets its own `HostService`, which knows the module's
//! name (for logs) and holds the coordinator weakly (a plugin must not keep a
//! finished session alive). Calls are answered like plugin calls are: polled
//! once inline, spawned on the host's runtime when they must wait.

use std::sync::{Arc, OnceLock, Weak};

use crate::adapters::{PluginModule, PluginTool};

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr};
use amplifier_abi::bridge::{error_json, CallFuture, PendingCalls, SharedSink};
use amplifier_abi::{CallOutcome, EventSinkBox, HostApi, HostApiBox, HostApi_TO};
use amplifier_kernel::ops::{self, host, ProviderDescriptor, SessionInfo};
use amplifier_kernel::traits::StreamSink;
use amplifier_kernel::{Coordinator, ModuleError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use tracing::level_filters::LevelFilter;

/// The instance a `HostService` serves, known only once `instantiate`
/// returned; tools it mounts at run time are routed back to it.
pub type InstanceSlot = Arc<OnceLock<Weak<PluginModule>>>;

pub struct HostService {
    coordinator: Weak<Coordinator>,
    module: String,
    instance: InstanceSlot,
    runtime: tokio::runtime::Handle,
    calls: Arc<PendingCalls>,
}

impl HostService {
    /// The `HostApi` object handed to a plugin instance of `module`, and the
    /// slot to fill with the instance once it exists.
    pub fn new_api(
        coordinator: &Arc<Coordinator>,
        module: &str,
        runtime: tokio::runtime::Handle,
    ) -> (HostApiBox, InstanceSlot) {
        let instance = InstanceSlot::default();
        let service = HostService {
            coordinator: Arc::downgrade(coordinator),
            module: module.to_owned(),
            instance: instance.clone(),
            runtime,
            calls: PendingCalls::new(),
        };
        (HostApi_TO::from_value(service, TD_Opaque), instance)
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
        self.calls.start(
            sink,
            |shared| host_operation(coordinator, &self.instance, op.as_str(), params.as_str(), shared),
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

/// `ops::ProviderComplete` with the request kept as unparsed JSON.
#[derive(serde::Deserialize)]
struct RawProviderComplete {
    #[serde(default)]
    provider: Option<String>,
    request: Box<serde_json::value::RawValue>,
    #[serde(default)]
    stream: bool,
}

fn parse<T: DeserializeOwned>(op: &str, params: &str) -> Result<T, String> {
    serde_json::from_str(params).map_err(|err| {
        ModuleError::new(
            amplifier_kernel::ErrorKind::InvalidRequest,
            format!("invalid parameters for host operation '{op}': {err}"),
        )
        .to_wire()
    })
}

fn answer(result: Result<impl Serialize, ModuleError>) -> Result<String, String> {
    match result {
        Ok(value) => serde_json::to_string(&value).map_err(|err| ModuleError::internal(err.to_string()).to_wire()),
        Err(err) => Err(err.to_wire()),
    }
}

/// Builds the future answering one host operation.
fn host_operation(
    coordinator: Arc<Coordinator>,
    instance: &InstanceSlot,
    op: &str,
    params: &str,
    stream: Arc<SharedSink>,
) -> Result<CallFuture, String> {
    let c = coordinator;
    Ok(match op {
        host::HOOKS_EMIT => {
            let p: ops::EmitEvent = parse(op, params)?;
            Box::pin(async move { answer(Ok(c.emit(&p.event, p.data).await)) })
        }
        host::HOOKS_DISPATCH => {
            let p: ops::EmitEvent = parse(op, params)?;
            Box::pin(async move { answer(Ok(c.dispatch(&p.event, p.data).await)) })
        }
        host::HOOKS_PROCESS => {
            let p: ops::ProcessHookResult = parse(op, params)?;
            Box::pin(async move { answer(Ok(c.process_hook_result(p.result, &p.event, &p.hook_name).await)) })
        }
        host::PROVIDER_COMPLETE => {
            // The request stays JSON text: it is forwarded, not read.
            let p: RawProviderComplete = parse(op, params)?;
            let sink: Option<StreamSink> =
                p.stream.then(|| Arc::new(move |event: Value| stream.event(event.to_string())) as StreamSink);
            Box::pin(async move {
                c.complete_json(p.provider.as_deref(), p.request.get().to_owned(), sink).await.map_err(|e| e.to_wire())
            })
        }
        host::PROVIDER_LIST => {
            let providers: Vec<ProviderDescriptor> = c
                .providers()
                .into_iter()
                .map(|p| ProviderDescriptor {
                    info: p.provider.info().clone(),
                    name: p.name,
                    module: p.module,
                    priority: p.priority,
                })
                .collect();
            Box::pin(async move { answer(Ok(providers)) })
        }
        host::TOOL_EXECUTE => {
            let p: ops::HostExecuteTool = parse(op, params)?;
            Box::pin(async move { answer(Ok(c.execute_tool(&p.name, p.input, p.tool_call_id.as_deref()).await)) })
        }
        host::TOOLS_MOUNT => {
            let p: ops::MountTools = parse(op, params)?;
            let module = instance.get().and_then(Weak::upgrade).ok_or_else(|| {
                ModuleError::unsupported("tools can be mounted only after the module finished mounting").to_wire()
            })?;
            for spec in p.tools {
                c.mount_tool(module.name(), Arc::new(PluginTool::new(module.clone(), spec)));
            }
            Box::pin(async move { answer(Ok(Value::Null)) })
        }
        host::TOOLS_UNMOUNT => {
            let p: ops::UnmountTools = parse(op, params)?;
            let module = instance.get().and_then(Weak::upgrade).map(|m| m.name().to_owned()).unwrap_or_default();
            for name in p.names {
                // Only the module that mounted a tool may take it away.
                if c.tool(&name).is_some_and(|t| t.module == module) {
                    c.unmount_tool(&name);
                }
            }
            Box::pin(async move { answer(Ok(Value::Null)) })
        }
        host::TOOL_LIST => {
            let specs = c.tool_specs();
            Box::pin(async move { answer(Ok(specs)) })
        }
        host::CONTEXT_ADD_MESSAGE => {
            let p: ops::ContextAddMessage = parse(op, params)?;
            Box::pin(async move { answer(c.add_message(p.message).await) })
        }
        host::CONTEXT_GET_MESSAGES => Box::pin(async move { answer(c.get_messages().await) }),
        host::CONTEXT_GET_MESSAGES_FOR_REQUEST => {
            let view: ops::RequestView = parse(op, params)?;
            Box::pin(async move { c.get_messages_for_request_json(view).await.map_err(|e| e.to_wire()) })
        }
        host::CONTEXT_SET_MESSAGES => {
            let p: ops::ContextSetMessages = parse(op, params)?;
            Box::pin(async move { answer(c.set_messages(p.messages).await) })
        }
        host::CONTEXT_CLEAR => Box::pin(async move { answer(c.clear_messages().await) }),
        host::CAPABILITY_GET => {
            let p: ops::CapabilityName = parse(op, params)?;
            let value = c.get_capability(&p.name).unwrap_or(Value::Null);
            Box::pin(async move { answer(Ok(value)) })
        }
        host::CAPABILITY_REGISTER => {
            let p: ops::RegisterCapability = parse(op, params)?;
            c.register_capability(p.name, p.value);
            Box::pin(async move { answer(Ok(Value::Null)) })
        }
        host::SESSION_INFO => {
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
            Box::pin(async move { answer(Ok(info)) })
        }
        host::SESSION_STEERING_TAKE => {
            let steering = c.take_steering();
            Box::pin(async move { answer(Ok(steering)) })
        }
        host::SESSION_SPAWN => {
            let request: ops::SpawnRequest = parse(op, params)?;
            Box::pin(async move { answer(c.spawn(request).await) })
        }
        host::SESSION_AGENT_TURN => {
            let turn: ops::AgentTurn = parse(op, params)?;
            let observer: StreamSink = Arc::new(move |event: Value| stream.event(event.to_string()));
            Box::pin(async move { answer(c.agent_turn(turn, Some(observer)).await) })
        }
        host::HISTORY_FETCH => {
            let p: ops::HistoryFetch = parse(op, params)?;
            Box::pin(async move { answer(async { c.chat_history()?.fetch(&p.agent, p.max_messages).await }.await) })
        }
        host::HISTORY_FETCH_ALL => Box::pin(async move { answer(async { c.chat_history()?.fetch_all().await }.await) }),
        host::HISTORY_SAVE => {
            let p: ops::HistorySave = parse(op, params)?;
            Box::pin(async move {
                answer(async { c.chat_history()?.save(&p.agent, p.messages, p.max_messages).await }.await)
            })
        }
        host::SESSION_AGENTS => {
            let agents = amplifier_kernel::spawn::agent_summaries(c.plan());
            Box::pin(async move { answer(Ok(agents)) })
        }
        host::LOG_LEVEL => {
            let level = match LevelFilter::current() {
                LevelFilter::OFF | LevelFilter::ERROR => "error",
                LevelFilter::WARN => "warn",
                LevelFilter::INFO => "info",
                LevelFilter::DEBUG => "debug",
                _ => "trace",
            };
            Box::pin(async move { answer(Ok(level)) })
        }
        other => {
            return Err(ModuleError::unsupported(format!(
                "the host has no operation '{other}' (this amplifier speaks module protocol {})",
                amplifier_abi::PROTOCOL_VERSION
            ))
            .to_wire())
        }
    })
}
