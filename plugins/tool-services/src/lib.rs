//! `tool-services`: a service hub. Remote services connect over WebSocket,
//! register tools, and those tools are mounted in the running session as
//! `<service>__<tool>`; calling one sends the service a task and waits for
//! its result.
//!
//! The wire protocol is the Agent Swarm Protocol's orchestrator ↔ service
//! interface. Every frame is a JSON text frame
//! `{"id", "type", "timestamp", "content"}`; replies add `requestId` (the id
//! of the message answered).
//!
//! Orchestrator (this hub) → service:
//!
//! | type | content |
//! |---|---|
//! | `orchestrator.welcome` | `{version, message, config: {maxConcurrentTasks, heartbeatInterval, taskTimeout, maxMessageSize}}` (first frame) |
//! | `service.registered` | `{serviceId, name, status, registeredAt, tools, message}` |
//! | `service.task.execute` | frame `id` = task id; `{taskId, functionName, toolId, params, metadata: {agentId, clientId, timestamp, priority, tool}}` |
//! | `notification.received` | `{message, notificationId}` (ack of a notification) |
//! | `service.status.updated` | `{serviceId, status, message}` |
//! | `ping` / `pong` | `{timestamp}` |
//! | `error` | `{error, code, taskId?}` |
//!
//! Service → orchestrator:
//!
//! | type | content |
//! |---|---|
//! | `service.register` | `{id, name, capabilities, tools: [{id, name, description, inputSchema, outputSchema}], manifest}` |
//! | `service.task.result` | `{taskId, result}` (`taskId` may also be top-level) |
//! | `service.task.notification` | `{taskId, notification: {type, message, data, timestamp}}`; type ∈ progress, info, warning, error, debug, started, completed, failed |
//! | `service.status` (alias `service.status.update`) | `{status, message}`; status ∈ active, inactive, busy, error, maintenance |
//! | `service.notification` | `{notification: {type, message, data}}` |
//! | `service.error` | `{error, code, taskId?}` |
//! | `ping` / `pong` | `{timestamp}` |
//!
//! Behaviour (where the protocol's document and its reference code
//! disagree, `docs/protocols/services.md` says which we follow):
//!
//! - A registration needs `name`; `id` defaults to the slug of the name.
//!   Re-registering an id (after a reconnect) keeps `registeredAt` and
//!   replaces its tools. A new connection registering a connected id takes
//!   over: the old connection is closed and its tasks fail.
//! - Unknown types, a missing `type`, non-JSON and binary frames get an
//!   `error` frame with a code; the connection stays open. A message over
//!   `max_message_bytes` gets `MESSAGE_TOO_LARGE` and the connection is
//!   closed (code 1009): the stream can't be resynchronised.
//! - At most `max_concurrent_tasks` tasks per service are unanswered; up to
//!   `max_queued_tasks` more wait in FIFO order; beyond that calls fail with
//!   `BUSY`. A call fails with `TIMEOUT` after `task_timeout_ms` (queueing
//!   included), and the service gets an `error` frame with that `taskId`.
//! - `service.error` with a `taskId` fails that task with the error's code;
//!   a disconnect fails all the service's tasks at once
//!   (`SERVICE_DISCONNECTED`) and unmounts its tools. Results for unknown or
//!   finished tasks are logged and answered with `UNKNOWN_TASK`; they change
//!   nothing.
//! - A status other than `active` takes the service's tools out of dispatch
//!   (calls fail at once with `SERVICE_UNAVAILABLE` and the reason); queued
//!   calls wait while it is `busy` and fail otherwise. `active` puts it back.
//! - The hub pings every `heartbeat_interval_ms`; a service that did not
//!   answer the previous ping is `inactive` until it pongs again, and after
//!   `heartbeat_max_missed` missed pings the connection is closed.
//! - With `token` set, the WebSocket handshake needs
//!   `Authorization: Bearer <token>` or `?token=<token>` (else HTTP 401).
//!
//! Events: `services:listening {address, url, port}` once the server
//! accepts connections; `service:registered`, `service:status`,
//! `service:notification {service, task_id, tool, function, type, message,
//! data, timestamp}`, `service:error` and `service:disconnected`.

mod hub;
mod server;

#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use amplifier_sdk::prelude::*;
// The wire format is the SDK's, so the hub and services cannot drift apart.
use amplifier_service_sdk::wire;
use futures_util::future::BoxFuture;
use serde::Deserialize;

use crate::hub::{events, Hub, HubConfig, HubHost};

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    host: String,
    port: u16,
    #[serde(default)]
    token: Option<String>,
    max_concurrent_tasks: usize,
    max_queued_tasks: usize,
    task_timeout_ms: u64,
    heartbeat_interval_ms: u64,
    heartbeat_max_missed: u32,
    max_message_bytes: usize,
}

impl Config {
    fn hub_config(&self) -> HubConfig {
        HubConfig {
            max_concurrent_tasks: self.max_concurrent_tasks.max(1),
            max_queued_tasks: self.max_queued_tasks,
            task_timeout: Duration::from_millis(self.task_timeout_ms),
            heartbeat_interval: Duration::from_millis(self.heartbeat_interval_ms.max(10)),
            heartbeat_max_missed: self.heartbeat_max_missed.max(1),
            max_message_bytes: self.max_message_bytes.max(1024),
            // An empty token (`${SERVICES_TOKEN:-}`) means no authentication.
            token: self.token.clone().filter(|token| !token.is_empty()),
        }
    }
}

/// The session, as the hub sees it.
struct SessionHost(Host);

impl HubHost for SessionHost {
    fn mount_tools(&self, tools: Vec<ToolSpec>) -> BoxFuture<'static, Result<(), String>> {
        let host = self.0.clone();
        Box::pin(async move { host.mount_tools(tools).await.map_err(|err| err.message) })
    }

    fn unmount_tools(&self, names: Vec<String>) -> BoxFuture<'static, Result<(), String>> {
        let host = self.0.clone();
        Box::pin(async move { host.unmount_tools(names).await.map_err(|err| err.message) })
    }

    fn emit(&self, event: &str, data: Value) -> BoxFuture<'static, ()> {
        let host = self.0.clone();
        let event = event.to_owned();
        Box::pin(async move {
            let data = match data {
                Value::Object(map) => map,
                other => JsonMap::from_iter([("data".to_owned(), other)]),
            };
            if let Err(err) = host.emit(&event, data).await {
                tracing::debug!(event, error = %err, "could not emit");
            }
        })
    }
}

/// Stops the hub when the module is dropped (the session ended).
struct Lifetime(Arc<Hub>);

impl Drop for Lifetime {
    fn drop(&mut self) {
        self.0.shutdown();
    }
}

/// Runs the service tools mounted at run time.
struct Dispatcher {
    hub: Arc<Hub>,
    _lifetime: Arc<Lifetime>,
}

impl ToolDispatcher for Dispatcher {
    async fn execute(&self, name: &str, input: Value) -> ToolResult {
        self.hub.call(name, input).await
    }
}

/// `services_wait {service?, timeout?}`.
struct Wait {
    hub: Arc<Hub>,
    _lifetime: Arc<Lifetime>,
}

impl Tool for Wait {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "services_wait",
            "Waits until a remote service has connected to the service hub, registered its tools and is active, \
             then describes it (its tools are callable as `<service>__<tool>` from the next turn on). \
             Without `service`, waits for any service.",
            json!({
                "type": "object",
                "properties": {
                    "service": {"type": "string", "description": "The service's id or name"},
                    "timeout": {"type": "number", "minimum": 0, "maximum": 3600, "description": "Seconds to wait (default 30)"}
                }
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        let service = input.get("service").and_then(Value::as_str);
        let seconds = input.get("timeout").and_then(Value::as_f64).unwrap_or(30.0);
        let timeout = Duration::from_secs_f64(seconds.clamp(0.0, 3600.0));
        match self.hub.wait_for(service, timeout).await {
            Ok(service) => ToolResult::ok(service),
            Err(message) => ToolResult::error(wire::code::TIMEOUT, message),
        }
    }
}

/// `services_list {}`.
struct List {
    hub: Arc<Hub>,
    _lifetime: Arc<Lifetime>,
}

impl Tool for List {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "services_list",
            "Lists the remote services known to the service hub (status, tools, registration time) and the \
             address services connect to.",
            json!({"type": "object", "properties": {}}),
        )
    }

    async fn execute(&self, _input: Value) -> ToolResult {
        ToolResult::ok(self.hub.list())
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    let config: Config = ctx.config()?;
    let hub_config = config.hub_config();
    let listener = std::net::TcpListener::bind((config.host.as_str(), config.port))
        .and_then(|listener| listener.set_nonblocking(true).map(|()| listener))
        .map_err(|err| {
            ModuleError::new(
                ErrorKind::Unavailable,
                format!("tool-services cannot listen on {}:{}: {err}", config.host, config.port),
            )
        })?;
    let address = listener.local_addr().map_err(|err| ModuleError::internal(err.to_string()))?;
    if !address.ip().is_loopback() && hub_config.token.is_none() {
        tracing::warn!(
            %address,
            "the service hub listens beyond loopback without a token: any machine that can reach it can register tools"
        );
    }
    let _entered = amplifier_sdk::runtime().enter();
    let listener = tokio::net::TcpListener::from_std(listener).map_err(|err| ModuleError::internal(err.to_string()))?;
    let hub = Hub::new(hub_config, Arc::new(SessionHost(ctx.host.clone())));
    // The host answers at once; the session id goes out as `metadata.agentId`.
    if let Ok(info) = amplifier_sdk::runtime().block_on(ctx.host.session_info()) {
        hub.set_agent_id(info.session_id);
    }
    let url = format!("ws://{address}");
    hub.set_address(url.clone());
    tracing::info!("service hub listening on {url}");
    amplifier_sdk::runtime().spawn(start(hub.clone(), listener, ctx.host, address));
    let lifetime = Arc::new(Lifetime(hub.clone()));
    Ok(Tools::new()
        .with(Wait { hub: hub.clone(), _lifetime: lifetime.clone() })
        .with(List { hub: hub.clone(), _lifetime: lifetime.clone() })
        .with_dispatcher(Dispatcher { hub, _lifetime: lifetime }))
}

/// Waits until the host knows this module (services' tools can be mounted
/// only then), announces the address, then serves. Connections that arrive
/// meanwhile wait in the listen backlog.
async fn start(hub: Arc<Hub>, listener: tokio::net::TcpListener, host: Host, address: SocketAddr) {
    let shutdown = hub.shutdown_signal();
    for _ in 0..1000 {
        if *shutdown.borrow() || host.mount_tools(Vec::new()).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    if *shutdown.borrow() {
        return;
    }
    let data = json!({"address": address.to_string(), "url": format!("ws://{address}"), "port": address.port()});
    hub.host().emit(events::LISTENING, data).await;
    server::serve(hub, listener).await;
}

export_module!(tool => mount);
