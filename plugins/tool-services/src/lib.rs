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
//! | `service.task.response` | `{tool, status, result, error?}` with `requestId`: the answer to a `service.task.request` |
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
//! | `service.task.request` | `{tool \| serviceId + functionName, params, priority?}`: run another service's tool |
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
//! - A call's priority (`low`, `normal`, `high`): its input's `_meta.priority`
//!   (removed before the service sees the params), else `priorities` by tool
//!   or service, else `priority`. Queued calls go out highest first.
//! - `services_list` shows each service's tasks (`running`/`queued`, priority,
//!   who asked).
//! - With `token` set, the WebSocket handshake needs
//!   `Authorization: Bearer <token>` or `?token=<token>` (else HTTP 401).
//!
//! Events: `services:listening {address, url, port}` once the server
//! accepts connections; `service:registered`, `service:status`,
//! `service:notification {service, task_id, tool, function, type, message,
//! data, timestamp}`, `service:error` and `service:disconnected`.
//!
//! One hub per process and address: a session whose parent has a hub (a
//! sub-agent, a specialist, a routed agent, which inherit the parent's
//! `tools:`) joins its parent's hub instead of binding again, and so does a
//! session whose fixed port another session of the process already serves
//! (concurrent runs under `amplifier serve`). The services' tools are
//! mounted in every session that joined; a task's notifications go to the
//! session that called it, the hub's other events to the sessions that are
//! not another's child (an observer of a parent sees its children's events
//! too). The hub stops when the last session that joined it ends.

mod hub;
mod server;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use amplifier_sdk::prelude::*;
// The wire format is the SDK's, so the hub and services cannot drift apart.
use amplifier_service_sdk::wire;
use futures_util::future::BoxFuture;
use serde::Deserialize;

use crate::hub::{events, Caller, Hub, HubConfig, HubHost, Priority};

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
    priority: Priority,
    priorities: HashMap<String, Priority>,
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
            priority: self.priority,
            priorities: self.priorities.clone(),
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

/// The sessions a hub serves, as one [`HubHost`]: tools are mounted in each
/// session that joined (once it can take them), events go to those that are
/// not another's child.
#[derive(Default)]
struct Sessions(Mutex<Vec<Member>>);

struct Member {
    session_id: String,
    host: Arc<SessionHost>,
    child: bool,
    /// Its host knows this module, and it has the tools mounted so far.
    joined: bool,
}

impl Sessions {
    fn members(&self) -> std::sync::MutexGuard<'_, Vec<Member>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn hosts(&self, roots_only: bool) -> Vec<Arc<SessionHost>> {
        let members = self.members();
        members.iter().filter(|m| m.joined && !(roots_only && m.child)).map(|m| m.host.clone()).collect()
    }

    fn has(&self, session_id: &str) -> bool {
        self.members().iter().any(|m| m.session_id == session_id)
    }
}

impl HubHost for Sessions {
    fn mount_tools(&self, tools: Vec<ToolSpec>) -> BoxFuture<'static, Result<(), String>> {
        let hosts = self.hosts(false);
        Box::pin(async move {
            let mut failures = Vec::new();
            for host in &hosts {
                if let Err(err) = host.mount_tools(tools.clone()).await {
                    failures.push(err);
                }
            }
            // A session that is ending cannot take tools; the others still can.
            match failures.pop() {
                Some(err) if failures.len() + 1 == hosts.len() => Err(err),
                _ => Ok(()),
            }
        })
    }

    fn unmount_tools(&self, names: Vec<String>) -> BoxFuture<'static, Result<(), String>> {
        let hosts = self.hosts(false);
        Box::pin(async move {
            for host in hosts {
                if let Err(err) = host.unmount_tools(names.clone()).await {
                    tracing::debug!(error = %err, "could not unmount service tools from a session");
                }
            }
            Ok(())
        })
    }

    fn emit(&self, event: &str, data: Value) -> BoxFuture<'static, ()> {
        let hosts = self.hosts(true);
        let event = event.to_owned();
        Box::pin(async move {
            for host in hosts {
                host.emit(&event, data.clone()).await;
            }
        })
    }
}

/// A hub and the sessions it serves.
struct Shared {
    hub: Arc<Hub>,
    sessions: Arc<Sessions>,
    /// The address it was asked to bind, when that was a fixed port.
    fixed: Option<(String, u16)>,
}

/// The process's hubs. Under this lock a session joins a hub, and the last
/// one to leave stops it, so nobody joins a hub that is stopping.
static HUBS: Mutex<Vec<Weak<Shared>>> = Mutex::new(Vec::new());

/// One session's place in a hub: leaving it stops the hub if nobody is left.
struct Membership {
    shared: Arc<Shared>,
    session_id: String,
    /// Set once the session has the connected services' tools mounted.
    joined: tokio::sync::watch::Sender<bool>,
}

impl Drop for Membership {
    fn drop(&mut self) {
        let mut hubs = HUBS.lock().unwrap_or_else(PoisonError::into_inner);
        let mut members = self.shared.sessions.members();
        members.retain(|m| m.session_id != self.session_id);
        if members.is_empty() {
            self.shared.hub.shutdown();
            let ours = Arc::as_ptr(&self.shared);
            hubs.retain(|weak| weak.strong_count() > 0 && weak.as_ptr() != ours);
        }
    }
}

/// Runs the service tools mounted at run time.
struct Dispatcher {
    hub: Arc<Hub>,
    caller: Caller,
    _membership: Arc<Membership>,
}

impl ToolDispatcher for Dispatcher {
    async fn execute(&self, name: &str, input: Value) -> ToolResult {
        self.hub.call(name, input, Some(self.caller.clone())).await
    }
}

/// `services_wait {service?, timeout?}`.
struct Wait {
    hub: Arc<Hub>,
    membership: Arc<Membership>,
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
        let started = tokio::time::Instant::now();
        // A session that just joined its parent's hub may not have the
        // tools of services that registered earlier mounted yet.
        let mut joined = self.membership.joined.subscribe();
        let _ = tokio::time::timeout(timeout, joined.wait_for(|joined| *joined)).await;
        match self.hub.wait_for(service, timeout.saturating_sub(started.elapsed())).await {
            Ok(service) => ToolResult::ok(service),
            Err(message) => ToolResult::error(wire::code::TIMEOUT, message),
        }
    }
}

/// `services_list {}`.
struct List {
    hub: Arc<Hub>,
    _membership: Arc<Membership>,
}

impl Tool for List {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "services_list",
            "Lists the remote services known to the service hub (status, tools, running and queued tasks, \
             registration time) and the address services connect to.",
            json!({"type": "object", "properties": {}}),
        )
    }

    async fn execute(&self, _input: Value) -> ToolResult {
        ToolResult::ok(self.hub.list())
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    let config: Config = ctx.config()?;
    // The host answers at once.
    let info = amplifier_sdk::runtime().block_on(ctx.host.session_info())?;
    let host = Arc::new(SessionHost(ctx.host.clone()));
    let (shared, child) = {
        let mut hubs = HUBS.lock().unwrap_or_else(PoisonError::into_inner);
        hubs.retain(|weak| weak.strong_count() > 0);
        let live: Vec<Arc<Shared>> =
            hubs.iter().filter_map(Weak::upgrade).filter(|shared| !shared.hub.is_shutting_down()).collect();
        let parents = live.iter().find(|s| info.parent_id.as_deref().is_some_and(|parent| s.sessions.has(parent)));
        let fixed = (config.port != 0).then(|| (config.host.clone(), config.port));
        let same_address = || live.iter().find(|s| fixed.is_some() && s.fixed == fixed);
        let (shared, child) = match (parents, same_address()) {
            (Some(shared), _) => (shared.clone(), true),
            (None, Some(shared)) => (shared.clone(), false),
            (None, None) => {
                let shared = Arc::new(bind(&config, fixed, ctx.host.clone(), &info.session_id)?);
                hubs.push(Arc::downgrade(&shared));
                (shared, false)
            }
        };
        let member = Member { session_id: info.session_id.clone(), host: host.clone(), child, joined: false };
        shared.sessions.members().push(member);
        (shared, child)
    };
    tracing::debug!(session = %info.session_id, child, "joined the service hub");
    let membership = Arc::new(Membership {
        shared: shared.clone(),
        session_id: info.session_id.clone(),
        joined: tokio::sync::watch::Sender::new(false),
    });
    amplifier_sdk::runtime().spawn(join(shared.clone(), host.clone(), membership.joined.clone()));
    let hub = shared.hub.clone();
    let caller = Caller { agent_id: info.session_id, host: Some(host) };
    Ok(Tools::new()
        .with(Wait { hub: hub.clone(), membership: membership.clone() })
        .with(List { hub: hub.clone(), _membership: membership.clone() })
        .with_dispatcher(Dispatcher { hub, caller, _membership: membership }))
}

/// A new hub, listening, for the session `session_id` of `host`.
fn bind(config: &Config, fixed: Option<(String, u16)>, host: Host, session_id: &str) -> ModuleResult<Shared> {
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
    let sessions = Arc::new(Sessions::default());
    let hub = Hub::new(hub_config, sessions.clone());
    // Calls that name no session (none do today) go out as the first one's.
    hub.set_agent_id(session_id.to_owned());
    let url = format!("ws://{address}");
    hub.set_address(url.clone());
    tracing::info!("service hub listening on {url}");
    amplifier_sdk::runtime().spawn(start(hub.clone(), listener, host, address));
    Ok(Shared { hub, sessions, fixed })
}

/// Waits until `host` knows this module (tools can be mounted in it only
/// then), mounts the tools of the services connected so far, and from then
/// on the session gets every change.
async fn join(shared: Arc<Shared>, host: Arc<SessionHost>, joined: tokio::sync::watch::Sender<bool>) {
    if !wait_until_mountable(&shared.hub, &host.0).await {
        return;
    }
    let sessions = shared.sessions.clone();
    let mounted = shared
        .hub
        .mount_current(host.as_ref(), || {
            let mut members = sessions.members();
            if let Some(member) = members.iter_mut().find(|m| Arc::ptr_eq(&m.host, &host)) {
                member.joined = true;
            }
        })
        .await;
    if let Err(err) = mounted {
        tracing::warn!(error = %err, "could not mount the connected services' tools");
    }
    joined.send_replace(true);
}

/// Waits (ten seconds at most) until the host takes an empty mount; false
/// when the hub stopped meanwhile.
async fn wait_until_mountable(hub: &Hub, host: &Host) -> bool {
    let shutdown = hub.shutdown_signal();
    for _ in 0..1000 {
        if *shutdown.borrow() || host.mount_tools(Vec::new()).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let stopped = *shutdown.borrow();
    !stopped
}

/// Once the first session can take tools, announces the address (to that
/// session), then serves. Connections that arrive meanwhile wait in the
/// listen backlog.
async fn start(hub: Arc<Hub>, listener: tokio::net::TcpListener, host: Host, address: SocketAddr) {
    if !wait_until_mountable(&hub, &host).await {
        return;
    }
    let data = json!({"address": address.to_string(), "url": format!("ws://{address}"), "port": address.port()});
    SessionHost(host).emit(events::LISTENING, data).await;
    server::serve(hub, listener).await;
}

export_module!(tool => mount);
