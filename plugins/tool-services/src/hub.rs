//! The hub: services, their tools and their tasks.
//!
//! It knows nothing of the amplifier host (it reaches it through [`HubHost`])
//! nor of sockets (the server feeds it each connection's text frames and
//! drains each connection's outgoing queue), so all of it can be tested
//! in-process.
//!
//! Invariants:
//! - every call gets exactly one answer: a result, the service's error, or a
//!   failure of ours (`TIMEOUT`, `SERVICE_DISCONNECTED`, `BUSY`, …); a task is
//!   removed from the table by whoever answers it, under the state lock;
//! - a service never has more than `max_concurrent_tasks` tasks sent to it and
//!   unanswered; extra calls wait in a bounded FIFO queue;
//! - host mounts and unmounts happen one at a time, in the order the state
//!   changed (the `mounting` lock), so a quick register/disconnect can't
//!   leave tools mounted.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use amplifier_sdk::{ToolResult, ToolSpec};
use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot, watch, Notify};

use crate::wire::{self, code, inbound, out, Inbound};

/// Tool names are `<service>__<tool>`; models' APIs accept at most 64 characters.
pub const MAX_TOOL_NAME: usize = 64;

/// The hub's limits (the plugin's config, with defaults applied).
#[derive(Debug, Clone)]
pub struct HubConfig {
    /// Tasks sent to one service and not yet answered.
    pub max_concurrent_tasks: usize,
    /// Calls waiting for a free slot, per service; more are refused with `BUSY`.
    pub max_queued_tasks: usize,
    /// How long a call may take, queueing included, before it fails with `TIMEOUT`.
    pub task_timeout: Duration,
    /// How often the hub pings; a service that hasn't answered the previous ping is `inactive`.
    pub heartbeat_interval: Duration,
    /// Consecutive missed pongs after which the connection is closed.
    pub heartbeat_max_missed: u32,
    /// The largest frame or message a service may send.
    pub max_message_bytes: usize,
    /// The shared secret a connection must present, if any.
    pub token: Option<String>,
}

impl Default for HubConfig {
    fn default() -> Self {
        HubConfig {
            max_concurrent_tasks: 10,
            max_queued_tasks: 100,
            task_timeout: Duration::from_secs(300),
            heartbeat_interval: Duration::from_secs(30),
            heartbeat_max_missed: 3,
            max_message_bytes: 4 << 20,
            token: None,
        }
    }
}

/// What the hub needs from the session: mounting tools and emitting events.
pub trait HubHost: Send + Sync + 'static {
    fn mount_tools(&self, tools: Vec<ToolSpec>) -> BoxFuture<'static, Result<(), String>>;
    fn unmount_tools(&self, names: Vec<String>) -> BoxFuture<'static, Result<(), String>>;
    fn emit(&self, event: &str, data: Value) -> BoxFuture<'static, ()>;
}

/// Events the hub emits.
pub mod events {
    pub const LISTENING: &str = "services:listening";
    pub const REGISTERED: &str = "service:registered";
    pub const STATUS: &str = "service:status";
    pub const NOTIFICATION: &str = "service:notification";
    pub const ERROR: &str = "service:error";
    pub const DISCONNECTED: &str = "service:disconnected";
}

pub type ConnId = u64;

/// What the server writes to a connection.
#[derive(Debug, Clone, PartialEq)]
pub enum Outgoing {
    Text(String),
    /// A close frame; the connection ends after it.
    Close {
        code: u16,
        reason: String,
    },
}

/// A new connection's end of the hub: its id, its outgoing frames, and a
/// signal that the hub wants it closed (take-over, heartbeat, shutdown).
pub struct ConnectionHandle {
    pub id: ConnId,
    pub outgoing: mpsc::UnboundedReceiver<Outgoing>,
    pub kicked: Arc<Notify>,
}

/// A service's operational status, as the document names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Active,
    Inactive,
    Busy,
    Error,
    Maintenance,
}

impl Status {
    /// The document's five values, and the reference code's `online`,
    /// `offline` and `initializing` as aliases.
    pub fn parse(status: &str) -> Option<Status> {
        Some(match status {
            "active" | "online" => Status::Active,
            "inactive" | "offline" | "initializing" => Status::Inactive,
            "busy" => Status::Busy,
            "error" => Status::Error,
            "maintenance" => Status::Maintenance,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Inactive => "inactive",
            Status::Busy => "busy",
            Status::Error => "error",
            Status::Maintenance => "maintenance",
        }
    }
}

#[derive(Debug, Clone)]
struct RemoteTool {
    /// The mounted name, `<service>__<tool>`.
    name: String,
    /// The service's tool id (`functionName` in `service.task.execute`).
    id: String,
    title: Option<String>,
    description: String,
    input_schema: Value,
    output_schema: Option<Value>,
}

struct Service {
    id: String,
    name: String,
    capabilities: Value,
    manifest: Value,
    registered_at: String,
    tools: Vec<RemoteTool>,
    /// The live connection; `None` once disconnected (the entry is kept for `registeredAt`).
    conn: Option<ConnId>,
    status: Status,
    status_message: Option<String>,
    /// No pong within the heartbeat interval.
    heartbeat_lost: bool,
    /// Its tools are mounted in the session.
    mounted: bool,
    running: usize,
    queue: VecDeque<String>,
}

impl Service {
    fn available(&self) -> bool {
        self.conn.is_some() && self.status == Status::Active && !self.heartbeat_lost
    }

    fn effective_status(&self) -> &'static str {
        if self.conn.is_none() || self.heartbeat_lost {
            "inactive"
        } else {
            self.status.as_str()
        }
    }

    fn unavailable_reason(&self) -> String {
        if self.conn.is_none() {
            return format!("service '{}' is not connected", self.id);
        }
        if self.heartbeat_lost {
            return format!("service '{}' is inactive: it did not answer the last heartbeat ping", self.id);
        }
        match &self.status_message {
            Some(message) if !message.is_empty() => {
                format!("service '{}' is {}: {message}", self.id, self.status.as_str())
            }
            _ => format!("service '{}' is {}", self.id, self.status.as_str()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TaskState {
    Queued,
    Running,
}

struct Task {
    service: String,
    /// The mounted tool name and the service's function name.
    tool: String,
    function: String,
    params: Value,
    state: TaskState,
    done: oneshot::Sender<ToolResult>,
}

struct Conn {
    tx: mpsc::UnboundedSender<Outgoing>,
    kicked: Arc<Notify>,
    service: Option<String>,
    peer: String,
    awaiting_pong: bool,
    missed: u32,
}

#[derive(Default)]
struct State {
    services: HashMap<String, Service>,
    /// Mounted tool name → (service id, function name).
    routes: HashMap<String, (String, String)>,
    tasks: HashMap<String, Task>,
    conns: HashMap<ConnId, Conn>,
    shutting_down: bool,
}

/// The service hub.
pub struct Hub {
    config: HubConfig,
    host: Arc<dyn HubHost>,
    state: Mutex<State>,
    /// Serialises host mounts/unmounts with the state changes behind them.
    mounting: tokio::sync::Mutex<()>,
    /// Bumped whenever a service becomes (un)available; `services_wait` watches it.
    changed: watch::Sender<u64>,
    shutdown: watch::Sender<bool>,
    next_conn: AtomicU64,
    agent_id: OnceLock<String>,
    address: OnceLock<String>,
}

impl Hub {
    pub fn new(config: HubConfig, host: Arc<dyn HubHost>) -> Arc<Hub> {
        Arc::new(Hub {
            config,
            host,
            state: Mutex::default(),
            mounting: tokio::sync::Mutex::new(()),
            changed: watch::Sender::new(0),
            shutdown: watch::Sender::new(false),
            next_conn: AtomicU64::new(1),
            agent_id: OnceLock::new(),
            address: OnceLock::new(),
        })
    }

    pub fn config(&self) -> &HubConfig {
        &self.config
    }

    /// Sent as `metadata.agentId` with every task (the session id).
    pub fn set_agent_id(&self, agent_id: String) {
        let _ = self.agent_id.set(agent_id);
    }

    /// Where the server listens (`ws://…`), for listings.
    pub fn set_address(&self, address: String) {
        let _ = self.address.set(address);
    }

    pub fn host(&self) -> &Arc<dyn HubHost> {
        &self.host
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn bump(&self) {
        self.changed.send_modify(|version| *version += 1);
    }

    /// Resolves once [`Hub::shutdown`] was called.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Stops the hub: fails every pending task, closes every connection and
    /// tells the server to stop accepting. Idempotent.
    pub fn shutdown(&self) {
        {
            let mut st = self.lock();
            if st.shutting_down {
                return;
            }
            st.shutting_down = true;
            for (_, task) in st.tasks.drain() {
                let _ = task.done.send(ToolResult::error(code::SHUTDOWN, "the service hub stopped (session end)"));
            }
            for conn in st.conns.values() {
                let _ =
                    conn.tx.send(Outgoing::Close { code: 1001, reason: "the orchestrator is shutting down".into() });
                conn.kicked.notify_one();
            }
        }
        self.shutdown.send_replace(true);
        self.bump();
    }

    // -- connections ---------------------------------------------------------

    /// Registers a new connection and queues its `orchestrator.welcome`.
    pub fn connect(&self, peer: &str) -> ConnectionHandle {
        let id = self.next_conn.fetch_add(1, Ordering::Relaxed);
        let (tx, outgoing) = mpsc::unbounded_channel();
        let kicked = Arc::new(Notify::new());
        let welcome = wire::frame(
            out::WELCOME,
            None,
            json!({
                "version": wire::PROTOCOL_VERSION,
                "message": "Welcome to Agent Swarm Protocol",
                "config": {
                    "maxConcurrentTasks": self.config.max_concurrent_tasks,
                    "heartbeatInterval": self.config.heartbeat_interval.as_millis() as u64,
                    "taskTimeout": self.config.task_timeout.as_millis() as u64,
                    "maxMessageSize": self.config.max_message_bytes,
                },
            }),
        );
        let _ = tx.send(Outgoing::Text(welcome));
        let mut st = self.lock();
        if st.shutting_down {
            let _ = tx.send(Outgoing::Close { code: 1001, reason: "the orchestrator is shutting down".into() });
            kicked.notify_one();
        }
        st.conns.insert(
            id,
            Conn { tx, kicked: kicked.clone(), service: None, peer: peer.to_owned(), awaiting_pong: false, missed: 0 },
        );
        tracing::debug!(conn = id, peer, "service connection opened");
        ConnectionHandle { id, outgoing, kicked }
    }

    fn send(&self, conn: ConnId, text: String) {
        if let Some(c) = self.lock().conns.get(&conn) {
            let _ = c.tx.send(Outgoing::Text(text));
        }
    }

    /// Sends an `error` frame to a connection.
    pub fn send_error(&self, conn: ConnId, code: &str, message: &str, request_id: Option<&str>) {
        tracing::debug!(conn, code, message, "error frame to a service");
        self.send(conn, wire::error_frame(code, message, request_id, None));
    }

    /// Sends an `error` frame, then closes the connection with `close_code`.
    pub fn close_with_error(&self, conn: ConnId, code: &str, message: &str, close_code: u16) {
        if let Some(c) = self.lock().conns.get(&conn) {
            let _ = c.tx.send(Outgoing::Text(wire::error_frame(code, message, None, None)));
            let _ = c.tx.send(Outgoing::Close { code: close_code, reason: code.to_owned() });
        }
    }

    /// One text frame from a connection. Never fails: problems are answered
    /// with `error` frames and the connection stays open.
    pub async fn handle_text(&self, conn: ConnId, text: &str) {
        let msg = match wire::parse(text) {
            Ok(msg) => msg,
            Err((code, message, request_id)) => {
                tracing::debug!(conn, code, %message, "unreadable frame from a service");
                return self.send(conn, wire::error_frame(code, &message, request_id.as_deref(), None));
            }
        };
        let request_id = msg.id.as_deref();
        match msg.kind.as_str() {
            inbound::REGISTER => self.register(conn, &msg).await,
            inbound::TASK_RESULT => self.task_result(conn, &msg),
            inbound::TASK_NOTIFICATION | inbound::NOTIFICATION => self.notification(conn, &msg).await,
            inbound::STATUS | inbound::STATUS_ALIAS => self.status(conn, &msg).await,
            inbound::ERROR => self.service_error(conn, &msg).await,
            inbound::PING => self.send(conn, wire::frame(out::PONG, request_id, json!({"timestamp": wire::now()}))),
            inbound::PONG => self.pong(conn).await,
            other => {
                let message = format!("Unsupported message type: {other}");
                self.send(conn, wire::error_frame(code::UNSUPPORTED_MESSAGE_TYPE, &message, request_id, None));
            }
        }
    }

    /// The service registered on `conn`, or an `error` frame saying it must register first.
    fn registered_service(&self, conn: ConnId, msg: &Inbound) -> Option<String> {
        let service = self.lock().conns.get(&conn).and_then(|c| c.service.clone());
        if service.is_none() {
            let message = format!("'{}' before service.register: register first", msg.kind);
            self.send(conn, wire::error_frame(code::NOT_REGISTERED, &message, msg.id.as_deref(), None));
        }
        service
    }

    // -- registration ---------------------------------------------------------

    async fn register(&self, conn: ConnId, msg: &Inbound) {
        let request_id = msg.id.as_deref();
        let registration = match parse_registration(&msg.content) {
            Ok(registration) => registration,
            Err(message) => {
                return self.send(conn, wire::error_frame(code::INVALID_REGISTRATION, &message, request_id, None));
            }
        };
        let _mounting = self.mounting.lock().await;
        let (to_unmount, specs, registered_at, reconnected) = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.get(&conn) else { return };
            if let Some(current) = c.service.as_ref().filter(|s| **s != registration.id) {
                let message = format!(
                    "this connection already registered service '{current}'; register '{}' on a connection of its own",
                    registration.id
                );
                let _ =
                    c.tx.send(Outgoing::Text(wire::error_frame(code::ALREADY_REGISTERED, &message, request_id, None)));
                return;
            }
            for tool in &registration.tools {
                if let Some((owner, _)) = st.routes.get(&tool.name).filter(|(owner, _)| *owner != registration.id) {
                    let message = format!(
                        "tool '{}' (tool '{}') is already mounted by service '{owner}'; rename the tool or the service",
                        tool.name, tool.id
                    );
                    let _ = c.tx.send(Outgoing::Text(wire::error_frame(
                        code::TOOL_NAME_CONFLICT,
                        &message,
                        request_id,
                        None,
                    )));
                    return;
                }
            }
            let existing = st.services.get(&registration.id);
            let registered_at = existing.map_or_else(wire::now, |s| s.registered_at.clone());
            let reconnected = existing.is_some_and(|s| s.conn != Some(conn));
            let previous_conn = existing.and_then(|s| s.conn).filter(|&old| old != conn);
            if let Some(old) = previous_conn {
                // The service came back on a new connection: the old one is
                // stale; tasks sent on it can't be answered on this one.
                let reason = format!(
                    "service '{}' re-registered on a new connection; tasks sent on the old one are lost",
                    registration.id
                );
                fail_tasks(st, |t| t.service == registration.id, code::SERVICE_DISCONNECTED, &reason);
                if let Some(old_conn) = st.conns.get_mut(&old) {
                    old_conn.service = None;
                    let _ =
                        old_conn.tx.send(Outgoing::Close { code: 1000, reason: "replaced by a new connection".into() });
                    old_conn.kicked.notify_one();
                }
            }
            let old_names: Vec<String> =
                st.routes.iter().filter(|(_, (owner, _))| *owner == registration.id).map(|(n, _)| n.clone()).collect();
            let new_names: HashSet<&str> = registration.tools.iter().map(|t| t.name.as_str()).collect();
            let to_unmount: Vec<String> =
                old_names.iter().filter(|n| !new_names.contains(n.as_str())).cloned().collect();
            for name in &old_names {
                st.routes.remove(name);
            }
            for tool in &registration.tools {
                st.routes.insert(tool.name.clone(), (registration.id.clone(), tool.id.clone()));
            }
            let specs: Vec<ToolSpec> = registration.tools.iter().map(|t| tool_spec(t, &registration.name)).collect();
            let service = st.services.entry(registration.id.clone()).or_insert_with(|| Service {
                id: registration.id.clone(),
                name: String::new(),
                capabilities: Value::Null,
                manifest: Value::Null,
                registered_at: registered_at.clone(),
                tools: Vec::new(),
                conn: None,
                status: Status::Active,
                status_message: None,
                heartbeat_lost: false,
                mounted: false,
                running: 0,
                queue: VecDeque::new(),
            });
            if previous_conn.is_some() || service.conn.is_none() {
                service.running = 0;
                service.queue.clear();
            }
            service.name = registration.name.clone();
            service.capabilities = registration.capabilities.clone();
            service.manifest = registration.manifest.clone();
            service.tools = registration.tools.clone();
            service.conn = Some(conn);
            service.status = Status::Active;
            service.status_message = None;
            service.heartbeat_lost = false;
            service.mounted = false;
            if let Some(c) = st.conns.get_mut(&conn) {
                c.service = Some(registration.id.clone());
            }
            (to_unmount, specs, registered_at, reconnected)
        };
        if !to_unmount.is_empty() {
            if let Err(err) = self.host.unmount_tools(to_unmount).await {
                tracing::warn!(service = %registration.id, error = %err, "could not unmount replaced service tools");
            }
        }
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        if let Err(err) = self.host.mount_tools(specs).await {
            tracing::warn!(service = %registration.id, error = %err, "could not mount the service's tools");
            {
                let mut st = self.lock();
                st.routes.retain(|_, (owner, _)| *owner != registration.id);
                if let Some(service) = st.services.get_mut(&registration.id) {
                    service.conn = None;
                }
                if let Some(c) = st.conns.get_mut(&conn) {
                    c.service = None;
                }
            }
            let message = format!("the orchestrator could not mount the service's tools: {err}");
            return self.send(conn, wire::error_frame(code::MOUNT_FAILED, &message, request_id, None));
        }
        {
            let mut st = self.lock();
            if let Some(service) = st.services.get_mut(&registration.id).filter(|s| s.conn == Some(conn)) {
                service.mounted = true;
            }
            self.pump(&mut st, &registration.id);
        }
        let message = if reconnected { "Service reconnected successfully" } else { "Service registered successfully" };
        tracing::info!(service = %registration.id, tools = ?names, reconnected, "service registered");
        self.send(
            conn,
            wire::frame(
                out::REGISTERED,
                request_id,
                json!({
                    "serviceId": registration.id,
                    "name": registration.name,
                    "status": "active",
                    "registeredAt": registered_at,
                    "tools": names,
                    "message": message,
                }),
            ),
        );
        self.bump();
        let data = json!({
            "service": registration.id,
            "name": registration.name,
            "tools": names,
            "registered_at": registered_at,
            "reconnected": reconnected,
        });
        self.host.emit(events::REGISTERED, data).await;
    }

    // -- results, errors, notifications, status --------------------------------

    fn task_result(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let Some(task_id) = msg.field("taskId") else {
            let message = "service.task.result needs content.taskId";
            return self.send(conn, wire::error_frame(code::INVALID_MESSAGE, message, msg.id.as_deref(), None));
        };
        let result = interpret_result(&service, &msg.content);
        if !self.finish(task_id, &service, result) {
            tracing::warn!(service = %service, task = task_id, "ignoring a result for an unknown or finished task");
            let message = format!("task '{task_id}' is unknown or already finished; result ignored");
            self.send(conn, wire::error_frame(code::UNKNOWN_TASK, &message, msg.id.as_deref(), Some(task_id)));
        }
    }

    /// Answers a running task of `service`; false if there is none by that id.
    fn finish(&self, task_id: &str, service: &str, result: ToolResult) -> bool {
        let mut st = self.lock();
        match st.tasks.get(task_id) {
            Some(task) if task.service == service && task.state == TaskState::Running => {}
            _ => return false,
        }
        let task = st.tasks.remove(task_id).expect("task checked above");
        if let Some(svc) = st.services.get_mut(service) {
            svc.running = svc.running.saturating_sub(1);
        }
        self.pump(&mut st, service);
        let _ = task.done.send(result);
        true
    }

    async fn service_error(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let error = match msg.content.get("error") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Object(object)) => {
                object.get("message").and_then(Value::as_str).map(str::to_owned).unwrap_or_else(|| object_text(object))
            }
            _ => "unspecified error".to_owned(),
        };
        let error_code = msg.field("code").unwrap_or(code::SERVICE_ERROR).to_owned();
        let task_id = msg.field("taskId").map(str::to_owned);
        if let Some(task_id) = &task_id {
            let result = ToolResult::error(&error_code, format!("service '{service}' failed the task: {error}"));
            if !self.finish(task_id, &service, result) {
                tracing::warn!(service = %service, task = %task_id, code = %error_code, %error, "service.error for an unknown or finished task");
            }
        } else {
            tracing::warn!(service = %service, code = %error_code, %error, "service reported an error");
        }
        let data = json!({"service": service, "task_id": task_id, "code": error_code, "error": error});
        self.host.emit(events::ERROR, data).await;
    }

    async fn notification(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let note = msg.content.get("notification").filter(|n| n.is_object()).unwrap_or(&msg.content);
        let kind = note.get("type").and_then(Value::as_str).unwrap_or("info");
        if !wire::NOTIFICATION_TYPES.contains(&kind) {
            let message =
                format!("Unknown notification type '{kind}'; expected one of: {}", wire::NOTIFICATION_TYPES.join(", "));
            return self.send(conn, wire::error_frame(code::INVALID_NOTIFICATION, &message, msg.id.as_deref(), None));
        }
        self.send(
            conn,
            wire::frame(
                out::NOTIFICATION_RECEIVED,
                msg.id.as_deref(),
                json!({"message": "Notification received and processed", "notificationId": msg.id}),
            ),
        );
        let task_id = msg.field("taskId").or_else(|| note.get("taskId").and_then(Value::as_str));
        let (tool, function) = match task_id {
            None => (None, None),
            Some(task_id) => {
                let st = self.lock();
                match st.tasks.get(task_id).filter(|t| t.service == service) {
                    Some(task) => (Some(task.tool.clone()), Some(task.function.clone())),
                    None => {
                        tracing::debug!(service = %service, task = task_id, kind, "notification for an unknown or finished task ignored");
                        return;
                    }
                }
            }
        };
        let data = json!({
            "service": service,
            "task_id": task_id,
            "tool": tool,
            "function": function,
            "type": kind,
            "message": note.get("message").cloned().unwrap_or(Value::Null),
            "data": note.get("data").cloned().unwrap_or(Value::Null),
            "timestamp": note.get("timestamp").or_else(|| msg.raw.get("timestamp")).cloned().unwrap_or(Value::Null),
        });
        self.host.emit(events::NOTIFICATION, data).await;
    }

    async fn status(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let request_id = msg.id.as_deref();
        let Some(text) = msg.content.get("status").and_then(Value::as_str) else {
            return self.send(conn, wire::error_frame(code::INVALID_STATUS, "Status is required", request_id, None));
        };
        let Some(status) = Status::parse(text) else {
            let message =
                format!("Invalid status '{text}': expected one of active, inactive, busy, error, maintenance");
            return self.send(conn, wire::error_frame(code::INVALID_STATUS, &message, request_id, None));
        };
        let message = msg.content.get("message").and_then(Value::as_str).map(str::to_owned);
        let available = {
            let mut st = self.lock();
            let Some(svc) = st.services.get_mut(&service) else { return };
            svc.status = status;
            svc.status_message = message.clone();
            let available = svc.available();
            self.settle(&mut st, &service);
            available
        };
        tracing::info!(service = %service, status = status.as_str(), ?message, "service status");
        self.send(
            conn,
            wire::frame(
                out::STATUS_UPDATED,
                request_id,
                json!({"serviceId": service, "status": status.as_str(), "message": "Service status updated successfully"}),
            ),
        );
        self.bump();
        let data = json!({"service": service, "status": status.as_str(), "message": message, "available": available});
        self.host.emit(events::STATUS, data).await;
    }

    // -- heartbeat ------------------------------------------------------------

    /// One heartbeat tick: counts a missed pong, marks the service inactive
    /// after the first, pings again. False: too many missed, close it.
    pub async fn heartbeat(&self, conn: ConnId) -> bool {
        let lost = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.get_mut(&conn) else { return false };
            if c.awaiting_pong {
                c.missed += 1;
            }
            if c.missed >= self.config.heartbeat_max_missed {
                tracing::warn!(conn, peer = %c.peer, service = ?c.service, missed = c.missed, "no pong: closing the service connection");
                let _ = c.tx.send(Outgoing::Close { code: 1000, reason: "heartbeat lost".into() });
                return false;
            }
            c.awaiting_pong = true;
            let _ = c.tx.send(Outgoing::Text(wire::frame(out::PING, None, json!({"timestamp": wire::now()}))));
            let service = c.service.clone().filter(|_| c.missed == 1);
            match service {
                Some(service) => {
                    match st.services.get_mut(&service).filter(|s| s.conn == Some(conn) && !s.heartbeat_lost) {
                        Some(svc) => {
                            svc.heartbeat_lost = true;
                            self.settle(st, &service);
                            Some(service)
                        }
                        None => None,
                    }
                }
                None => None,
            }
        };
        if let Some(service) = lost {
            tracing::warn!(service = %service, "no pong within the heartbeat interval: service marked inactive");
            self.bump();
            let message = "no pong within the heartbeat interval";
            let data = json!({"service": service, "status": "inactive", "message": message, "available": false});
            self.host.emit(events::STATUS, data).await;
        }
        true
    }

    async fn pong(&self, conn: ConnId) {
        let back = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.get_mut(&conn) else { return };
            c.awaiting_pong = false;
            c.missed = 0;
            let service = c.service.clone();
            match service.and_then(|s| st.services.get_mut(&s).filter(|s| s.conn == Some(conn) && s.heartbeat_lost)) {
                Some(svc) => {
                    svc.heartbeat_lost = false;
                    let (id, status, available) = (svc.id.clone(), svc.status, svc.available());
                    self.settle(st, &id);
                    Some((id, status, available))
                }
                None => None,
            }
        };
        if let Some((service, status, available)) = back {
            tracing::info!(service = %service, "heartbeat answered again");
            self.bump();
            let data = json!({"service": service, "status": status.as_str(), "message": "heartbeat answered", "available": available});
            self.host.emit(events::STATUS, data).await;
        }
    }

    // -- disconnect -----------------------------------------------------------

    /// The connection is gone: its service's pending tasks fail now, its
    /// tools are unmounted, and it shows as inactive.
    pub async fn disconnect(&self, conn: ConnId) {
        let _mounting = self.mounting.lock().await;
        let (service, names, failed) = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.remove(&conn) else { return };
            tracing::debug!(conn, peer = %c.peer, "service connection closed");
            let Some(service) = c.service else { return };
            let Some(svc) = st.services.get_mut(&service).filter(|s| s.conn == Some(conn)) else { return };
            svc.conn = None;
            svc.mounted = false;
            svc.running = 0;
            svc.queue.clear();
            let names: Vec<String> =
                st.routes.iter().filter(|(_, (owner, _))| *owner == service).map(|(name, _)| name.clone()).collect();
            for name in &names {
                st.routes.remove(name);
            }
            // Out of the table now (nobody else answers them), answered once
            // the tools are unmounted: a caller that goes on to its next
            // model request must not be offered them any more.
            let failed = take_tasks(st, |t| t.service == service);
            (service, names, failed)
        };
        self.bump();
        if !names.is_empty() {
            if let Err(err) = self.host.unmount_tools(names.clone()).await {
                tracing::debug!(service = %service, error = %err, "could not unmount the service's tools");
            }
        }
        let reason = format!("service '{service}' disconnected before answering");
        let failed = answer_all(failed, code::SERVICE_DISCONNECTED, &reason);
        tracing::info!(service = %service, failed_tasks = failed, "service disconnected");
        let data = json!({"service": service, "tools": names, "failed_tasks": failed});
        self.host.emit(events::DISCONNECTED, data).await;
    }

    // -- calls ----------------------------------------------------------------

    /// Runs a mounted service tool: sends `service.task.execute` (now or when
    /// a slot frees up) and waits for its answer, at most `task_timeout`.
    pub async fn call(self: &Arc<Self>, tool: &str, input: Value) -> ToolResult {
        let (task_id, mut done) = match self.start_task(tool, input) {
            Ok(started) => started,
            Err(refused) => return refused,
        };
        // Dropped before the answer (the caller was cancelled): forget the task.
        let mut guard = CancelOnDrop { hub: self, task_id: &task_id, armed: true };
        let result = match tokio::time::timeout(self.config.task_timeout, &mut done).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => ToolResult::error(code::SHUTDOWN, "the service hub stopped before the task finished"),
            Err(_) => match self.expire(&task_id) {
                Some(timed_out) => timed_out,
                // Someone took the task out of the table just now and is about to answer it.
                None => {
                    (&mut done).await.unwrap_or_else(|_| ToolResult::error(code::SHUTDOWN, "the service hub stopped"))
                }
            },
        };
        guard.armed = false;
        result
    }

    fn start_task(&self, tool: &str, input: Value) -> Result<(String, oneshot::Receiver<ToolResult>), ToolResult> {
        let mut guard = self.lock();
        let st = &mut *guard;
        if st.shutting_down {
            return Err(ToolResult::error(code::SHUTDOWN, "the service hub is shutting down"));
        }
        let Some((service_id, function)) = st.routes.get(tool).cloned() else {
            return Err(ToolResult::error(
                code::NOT_FOUND,
                format!("no registered service offers tool '{tool}' (it may have disconnected)"),
            ));
        };
        let Some(svc) = st.services.get_mut(&service_id) else {
            return Err(ToolResult::error(code::NOT_FOUND, format!("service '{service_id}' is not registered")));
        };
        if svc.conn.is_none() {
            return Err(ToolResult::error(code::SERVICE_DISCONNECTED, svc.unavailable_reason()));
        }
        if !svc.available() {
            return Err(ToolResult::error(code::SERVICE_UNAVAILABLE, svc.unavailable_reason()));
        }
        let task_id = wire::new_id();
        let state = if svc.running < self.config.max_concurrent_tasks {
            svc.running += 1;
            TaskState::Running
        } else if svc.queue.len() < self.config.max_queued_tasks {
            svc.queue.push_back(task_id.clone());
            TaskState::Queued
        } else {
            return Err(ToolResult::error(
                code::BUSY,
                format!(
                    "service '{service_id}' has {} tasks running and {} queued (the limit); try again later",
                    svc.running,
                    svc.queue.len()
                ),
            ));
        };
        let conn = svc.conn;
        let (done, receiver) = oneshot::channel();
        let task = Task { service: service_id, tool: tool.to_owned(), function, params: input, state, done };
        if state == TaskState::Running {
            if let Some(c) = conn.and_then(|conn| st.conns.get(&conn)) {
                let _ = c.tx.send(Outgoing::Text(self.execute_frame(&task_id, &task)));
            }
        }
        tracing::debug!(task = %task_id, tool, state = ?state, "service task");
        st.tasks.insert(task_id.clone(), task);
        Ok((task_id, receiver))
    }

    fn execute_frame(&self, task_id: &str, task: &Task) -> String {
        let agent_id = self.agent_id.get().map_or("amplifier", String::as_str);
        wire::frame_with_id(
            task_id,
            out::TASK_EXECUTE,
            None,
            json!({
                "taskId": task_id,
                "functionName": task.function,
                "toolId": task.function,
                "params": task.params,
                "metadata": {
                    "agentId": agent_id,
                    "clientId": "amplifier",
                    "timestamp": wire::now(),
                    "priority": "normal",
                    "tool": task.tool,
                },
            }),
        )
    }

    /// Sends queued tasks while the service is available and has free slots.
    fn pump(&self, st: &mut State, service: &str) {
        let State { services, tasks, conns, .. } = st;
        let Some(svc) = services.get_mut(service) else { return };
        while svc.available() && svc.running < self.config.max_concurrent_tasks {
            let Some(task_id) = svc.queue.pop_front() else { break };
            let Some(task) = tasks.get_mut(&task_id) else { continue };
            task.state = TaskState::Running;
            svc.running += 1;
            if let Some(c) = svc.conn.and_then(|conn| conns.get(&conn)) {
                let _ = c.tx.send(Outgoing::Text(self.execute_frame(&task_id, task)));
            }
        }
    }

    /// After an availability change: dispatch queued tasks if the service can
    /// take them; fail them if it went away for more than a busy spell.
    fn settle(&self, st: &mut State, service: &str) {
        let Some(svc) = st.services.get(service) else { return };
        if svc.available() {
            return self.pump(st, service);
        }
        if svc.status == Status::Busy && !svc.heartbeat_lost && svc.conn.is_some() {
            return; // queued calls wait for the service to be active again (or time out)
        }
        let reason = svc.unavailable_reason();
        fail_tasks(st, |t| t.service == service && t.state == TaskState::Queued, code::SERVICE_UNAVAILABLE, &reason);
    }

    /// The call timed out: forget the task (a late result will be ignored)
    /// and tell the service. `None` if it was answered meanwhile.
    fn expire(&self, task_id: &str) -> Option<ToolResult> {
        let mut st = self.lock();
        let task = st.tasks.remove(task_id)?;
        let timeout_ms = self.config.task_timeout.as_millis();
        let message = match task.state {
            TaskState::Running => format!(
                "service '{}' did not answer task {task_id} ('{}') within {timeout_ms} ms",
                task.service, task.function
            ),
            TaskState::Queued => format!(
                "task {task_id} ('{}') waited {timeout_ms} ms for a free slot of service '{}'",
                task.function, task.service
            ),
        };
        self.forget(&mut st, task_id, &task, code::TIMEOUT, &message);
        tracing::warn!(task = task_id, service = %task.service, "service task timed out");
        Some(ToolResult::error(code::TIMEOUT, message))
    }

    /// The caller went away before the answer.
    fn cancel(&self, task_id: &str) {
        let mut st = self.lock();
        let Some(task) = st.tasks.remove(task_id) else { return };
        tracing::debug!(task = task_id, service = %task.service, "service task cancelled by the caller");
        self.forget(&mut st, task_id, &task, code::CANCELLED, "the caller cancelled the task");
    }

    /// Frees a removed task's slot (telling the service it may stop) or queue place.
    fn forget(&self, st: &mut State, task_id: &str, task: &Task, error_code: &str, message: &str) {
        let Some(svc) = st.services.get_mut(&task.service) else { return };
        match task.state {
            TaskState::Running => {
                svc.running = svc.running.saturating_sub(1);
                if let Some(c) = svc.conn.and_then(|conn| st.conns.get(&conn)) {
                    let _ = c.tx.send(Outgoing::Text(wire::error_frame(error_code, message, None, Some(task_id))));
                }
                self.pump(st, &task.service.clone());
            }
            TaskState::Queued => svc.queue.retain(|t| t != task_id),
        }
    }

    // -- listings -------------------------------------------------------------

    /// Every service the hub has seen, with its tools and state.
    pub fn list(&self) -> Value {
        let st = self.lock();
        let mut services: Vec<&Service> = st.services.values().collect();
        services.sort_by(|a, b| a.id.cmp(&b.id));
        json!({
            "address": self.address.get(),
            "services": services.into_iter().map(describe).collect::<Vec<_>>(),
        })
    }

    /// Tasks not yet answered (running or queued).
    #[cfg(test)]
    pub fn pending_tasks(&self) -> usize {
        self.lock().tasks.len()
    }

    /// Waits until `service` (an id or a name; any service when `None`) is
    /// registered, its tools are mounted and it is active. `Err` on timeout.
    pub async fn wait_for(&self, service: Option<&str>, timeout: Duration) -> Result<Value, String> {
        let mut changed = self.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            {
                let st = self.lock();
                let ready = st.services.values().find(|s| {
                    s.mounted && s.available() && service.is_none_or(|wanted| s.id == wanted || s.name == wanted)
                });
                if let Some(found) = ready {
                    return Ok(describe(found));
                }
                if st.shutting_down {
                    return Err("the service hub is shutting down".into());
                }
            }
            match tokio::time::timeout_at(deadline, changed.changed()).await {
                Ok(Ok(())) => continue,
                Ok(Err(_)) => return Err("the service hub stopped".into()),
                Err(_) => {
                    let known = self.list();
                    let what = service.map_or_else(|| "any service".to_owned(), |s| format!("service '{s}'"));
                    return Err(format!(
                        "{what} did not register and become active within {} ms; known services: {}",
                        timeout.as_millis(),
                        known["services"]
                    ));
                }
            }
        }
    }
}

struct CancelOnDrop<'a> {
    hub: &'a Hub,
    task_id: &'a str,
    armed: bool,
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.hub.cancel(self.task_id);
        }
    }
}

/// Removes every task matching `which` from the table, freeing its slot or queue place.
fn take_tasks(st: &mut State, which: impl Fn(&Task) -> bool) -> Vec<Task> {
    let ids: Vec<String> = st.tasks.iter().filter(|(_, t)| which(t)).map(|(id, _)| id.clone()).collect();
    let mut taken = Vec::with_capacity(ids.len());
    for id in &ids {
        if let Some(task) = st.tasks.remove(id) {
            if let Some(svc) = st.services.get_mut(&task.service) {
                match task.state {
                    TaskState::Running => svc.running = svc.running.saturating_sub(1),
                    TaskState::Queued => svc.queue.retain(|t| t != id),
                }
            }
            taken.push(task);
        }
    }
    taken
}

/// Answers taken tasks with an error; returns how many.
fn answer_all(tasks: Vec<Task>, error_code: &str, message: &str) -> usize {
    let count = tasks.len();
    for task in tasks {
        let _ = task.done.send(ToolResult::error(error_code, message));
    }
    count
}

/// Answers every task matching `which` with an error; returns how many.
fn fail_tasks(st: &mut State, which: impl Fn(&Task) -> bool, error_code: &str, message: &str) -> usize {
    answer_all(take_tasks(st, which), error_code, message)
}

fn describe(svc: &Service) -> Value {
    json!({
        "id": svc.id,
        "name": svc.name,
        "status": svc.effective_status(),
        "connected": svc.conn.is_some(),
        "available": svc.available(),
        "statusMessage": svc.status_message,
        "registeredAt": svc.registered_at,
        "capabilities": svc.capabilities,
        "manifest": svc.manifest,
        "running": svc.running,
        "queued": svc.queue.len(),
        "tools": svc.tools.iter().map(|t| json!({
            "name": t.name,
            "id": t.id,
            "title": t.title,
            "description": t.description,
            "inputSchema": t.input_schema,
            "outputSchema": t.output_schema,
        })).collect::<Vec<_>>(),
    })
}

fn tool_spec(tool: &RemoteTool, service_name: &str) -> ToolSpec {
    let description = if tool.description.is_empty() {
        format!("Tool '{}' of the remote service '{service_name}'.", tool.id)
    } else {
        format!("{} (tool '{}' of the remote service '{service_name}')", tool.description, tool.id)
    };
    ToolSpec::new(tool.name.clone(), description, tool.input_schema.clone())
}

/// The tool result a `service.task.result` stands for. A result whose
/// `content.error` is set, whose `content.status` is `failed`, or whose
/// `result` is exactly `{error: "…"}` (how the reference service SDK reports
/// a failed handler) is a failure.
fn interpret_result(service: &str, content: &Value) -> ToolResult {
    let failure = |message: String| {
        let error_code = content.get("code").and_then(Value::as_str).unwrap_or(code::TASK_FAILED);
        ToolResult::error(error_code, format!("service '{service}' failed the task: {message}"))
    };
    match content.get("error") {
        None | Some(Value::Null) => {}
        Some(Value::String(message)) => return failure(message.clone()),
        Some(other) => return failure(other.to_string()),
    }
    let result = content.get("result").cloned().unwrap_or(Value::Null);
    if content.get("status").and_then(Value::as_str) == Some("failed") {
        return failure(result.to_string());
    }
    if let Some(object) = result.as_object() {
        if object.len() == 1 {
            if let Some(Value::String(message)) = object.get("error") {
                return failure(message.clone());
            }
        }
    }
    ToolResult::ok(result)
}

fn object_text(object: &serde_json::Map<String, Value>) -> String {
    Value::Object(object.clone()).to_string()
}

struct Registration {
    id: String,
    name: String,
    capabilities: Value,
    manifest: Value,
    tools: Vec<RemoteTool>,
}

/// Checks a `service.register` content and names its tools.
fn parse_registration(content: &Value) -> Result<Registration, String> {
    let name = content
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .ok_or("Service name is required")?
        .to_owned();
    let id = match content.get("id") {
        None | Some(Value::Null) => slug(&name),
        Some(Value::String(id)) if !id.trim().is_empty() => id.trim().to_owned(),
        Some(_) => return Err("Service id must be a non-empty string".into()),
    };
    let prefix = sanitize(&id);
    if prefix.is_empty() {
        return Err(format!("Service id '{id}' has no letters or digits"));
    }
    let capabilities = match content.get("capabilities") {
        None | Some(Value::Null) => json!([]),
        Some(caps @ Value::Array(_)) => caps.clone(),
        Some(_) => return Err("capabilities must be an array".into()),
    };
    let manifest = match content.get("manifest") {
        None | Some(Value::Null) => json!({}),
        Some(manifest @ Value::Object(_)) => manifest.clone(),
        Some(_) => return Err("manifest must be an object".into()),
    };
    let raw_tools = match content.get("tools") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(tools)) => tools.clone(),
        Some(_) => return Err("tools must be an array".into()),
    };
    let mut tools = Vec::new();
    let mut seen = HashSet::new();
    for (index, tool) in raw_tools.iter().enumerate() {
        let text = |key: &str| tool.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        let Some(tool_id) = text("id").or_else(|| text("name")) else {
            return Err(format!("tools[{index}] needs an id (or a name)"));
        };
        let input_schema = match tool.get("inputSchema") {
            None | Some(Value::Null) => json!({"type": "object"}),
            Some(schema @ Value::Object(_)) => schema.clone(),
            Some(_) => return Err(format!("tools[{index}].inputSchema must be a JSON Schema object")),
        };
        let mounted = format!("{prefix}__{}", sanitize(tool_id));
        if mounted.len() > MAX_TOOL_NAME {
            return Err(format!(
                "tools[{index}]: the tool name '{mounted}' is longer than {MAX_TOOL_NAME} characters; shorten the service or tool id"
            ));
        }
        if !seen.insert(mounted.clone()) {
            return Err(format!("tools[{index}]: two tools would both be named '{mounted}'"));
        }
        tools.push(RemoteTool {
            name: mounted,
            id: tool_id.to_owned(),
            title: text("name").map(str::to_owned),
            description: text("description").unwrap_or_default().to_owned(),
            input_schema,
            output_schema: tool.get("outputSchema").filter(|s| !s.is_null()).cloned(),
        });
    }
    Ok(Registration { id, name, capabilities, manifest, tools })
}

/// Characters models accept in tool names: ASCII letters, digits, `_` and `-`.
pub fn sanitize(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

/// `LLM Service` → `llm-service` (the id of a service that gives none).
pub fn slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}
