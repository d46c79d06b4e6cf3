//! Write remote services for amplifier's service hub (the `tool-services`
//! module) in Rust: register tools, handle tasks, report progress.
//!
//! ```no_run
//! use amplifier_service_sdk::{ConnectOptions, Service, Task, TaskError, ToolInfo};
//! use serde_json::{json, Value};
//!
//! async fn shout(task: Task) -> Result<Value, TaskError> {
//!     let text = task.params["text"].as_str().ok_or_else(|| TaskError::new("BAD_INPUT", "text is required"))?;
//!     task.progress(50.0, "shouting");
//!     Ok(json!({"text": text.to_uppercase()}))
//! }
//!
//! # async fn run() -> Result<(), amplifier_service_sdk::Error> {
//! Service::new("shouter", "Shouter")
//!     .tool(
//!         ToolInfo::new("shout", "Upper-cases text")
//!             .input_schema(json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})),
//!         shout,
//!     )
//!     .run(&ConnectOptions::new("ws://127.0.0.1:3002").reconnect_every(std::time::Duration::from_secs(5)))
//!     .await
//! # }
//! ```
//!
//! The tool is then offered to the session's model as `shouter__shout`.
//!
//! What the SDK does for you: the handshake (`orchestrator.welcome` →
//! `service.register` → `service.registered`), `pong`s to the hub's `ping`s,
//! one spawned task per `service.task.execute`, and around each handler a
//! `started` notification, then either a `completed` notification followed by
//! `service.task.result`, or a `failed` notification followed by
//! `service.error` carrying the task id and the error's code. (`completed` is
//! sent *before* the result so that the hub still knows the task when it
//! arrives.) A task the hub gave up on (an `error` frame with its `taskId`:
//! `TIMEOUT`, `CANCELLED`) is aborted.
//!
//! The wire format, `{id, type, timestamp, content}` JSON text frames, is the
//! contract: services in any language can speak it (see
//! `docs/protocols/services.md` for a Python and a Node example); [`wire`]
//! holds it for both ends.

pub mod wire;

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::stream::{SplitStream, StreamExt};
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::AbortHandle;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub use crate::wire::now;
use crate::wire::{frame_with_id, new_id};

/// How long the hub has to welcome and to confirm a registration.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;
type Handler = Arc<dyn Fn(Task) -> BoxFuture<Result<Value, TaskError>> + Send + Sync>;

/// Why connecting or registering failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// No WebSocket connection (refused, bad URL, HTTP 401 for a wrong token…).
    Connect(String),
    /// The hub answered the registration with an `error` frame.
    Rejected { code: String, message: String },
    /// The hub said something unexpected, or nothing in time.
    Protocol(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Connect(message) => write!(f, "cannot connect to the service hub: {message}"),
            Error::Rejected { code, message } => {
                write!(f, "the service hub refused the registration ({code}): {message}")
            }
            Error::Protocol(message) => write!(f, "service hub protocol error: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// A failed task: `code` and `message` go to the hub in `service.error`,
/// and the model sees them as the tool's error. Any `Display` error converts
/// (code `TASK_FAILED`), so `?` works in handlers.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskError {
    pub code: String,
    pub message: String,
}

impl TaskError {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        TaskError { code: code.into(), message: message.into() }
    }
}

impl<E: fmt::Display> From<E> for TaskError {
    fn from(err: E) -> Self {
        TaskError::new("TASK_FAILED", err.to_string())
    }
}

/// A tool as the service registers it.
#[derive(Debug, Clone)]
pub struct ToolInfo {
    /// The tool's id (the `functionName` of its tasks); the session names it `<service>__<id>`.
    pub id: String,
    /// A human-readable name.
    pub name: Option<String>,
    pub description: String,
    /// JSON Schema of `params`; the host validates calls against it.
    pub input_schema: Value,
    pub output_schema: Option<Value>,
}

impl ToolInfo {
    pub fn new(id: impl Into<String>, description: impl Into<String>) -> Self {
        ToolInfo {
            id: id.into(),
            name: None,
            description: description.into(),
            input_schema: json!({"type": "object"}),
            output_schema: None,
        }
    }

    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    pub fn input_schema(mut self, schema: Value) -> Self {
        self.input_schema = schema;
        self
    }

    pub fn output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    fn to_json(&self) -> Value {
        let mut tool = json!({
            "id": self.id,
            "name": self.name.as_deref().unwrap_or(&self.id),
            "description": self.description,
            "inputSchema": self.input_schema,
        });
        if let Some(schema) = &self.output_schema {
            tool["outputSchema"] = schema.clone();
        }
        tool
    }
}

/// Where and how to connect.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// `ws://host:port` of the hub (the `services:listening` event's `url`).
    pub url: String,
    /// The hub's shared secret, sent as `Authorization: Bearer <token>`.
    pub token: Option<String>,
    /// For [`Service::run`]: reconnect after this delay when the connection ends.
    pub reconnect_delay: Option<Duration>,
}

impl ConnectOptions {
    pub fn new(url: impl Into<String>) -> Self {
        ConnectOptions { url: url.into(), token: None, reconnect_delay: None }
    }

    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    pub fn reconnect_every(mut self, delay: Duration) -> Self {
        self.reconnect_delay = Some(delay);
        self
    }
}

/// A service: an id, a name, tools and their handlers. Cheap to clone.
#[derive(Clone)]
pub struct Service {
    id: String,
    name: String,
    capabilities: Vec<String>,
    manifest: Value,
    tools: Vec<(ToolInfo, Handler)>,
}

impl Service {
    /// `id` prefixes its tools' names in the session (`<id>__<tool>`).
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> Self {
        Service { id: id.into(), name: name.into(), capabilities: Vec::new(), manifest: json!({}), tools: Vec::new() }
    }

    pub fn capability(mut self, capability: impl Into<String>) -> Self {
        self.capabilities.push(capability.into());
        self
    }

    /// Free-form metadata: `{description, version, author, …}`.
    pub fn manifest(mut self, manifest: Value) -> Self {
        self.manifest = manifest;
        self
    }

    /// Adds a tool and the async function that runs its tasks.
    pub fn tool<F, Fut>(mut self, info: ToolInfo, handler: F) -> Self
    where
        F: Fn(Task) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, TaskError>> + Send + 'static,
    {
        let handler: Handler = Arc::new(move |task| Box::pin(handler(task)));
        self.tools.push((info, handler));
        self
    }

    /// The `service.register` content this service sends.
    pub fn registration(&self) -> Value {
        json!({
            "id": self.id,
            "name": self.name,
            "capabilities": self.capabilities,
            "tools": self.tools.iter().map(|(info, _)| info.to_json()).collect::<Vec<_>>(),
            "manifest": self.manifest,
        })
    }

    /// Connects, registers, and serves tasks in the background until the
    /// returned [`Connection`] is closed or dropped.
    pub async fn connect(&self, options: &ConnectOptions) -> Result<Connection, Error> {
        let mut request = options.url.as_str().into_client_request().map_err(|err| Error::Connect(err.to_string()))?;
        if let Some(token) = &options.token {
            let value = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| Error::Connect("the token is not a valid header value".into()))?;
            request.headers_mut().insert("authorization", value);
        }
        let (socket, _) =
            tokio_tungstenite::connect_async(request).await.map_err(|err| Error::Connect(err.to_string()))?;
        let (mut sink, mut stream) = socket.split();
        let handshake = async {
            let welcome = next_frame(&mut stream).await?;
            if welcome["type"] != "orchestrator.welcome" {
                return Err(Error::Protocol(format!("expected orchestrator.welcome first, got {welcome}")));
            }
            let register_id = new_id();
            let register = frame_with_id(&register_id, "service.register", None, self.registration());
            sink.send(Message::text(register)).await.map_err(|err| Error::Connect(err.to_string()))?;
            loop {
                let frame = next_frame(&mut stream).await?;
                let answers_us = frame["requestId"] == register_id.as_str();
                match frame["type"].as_str() {
                    Some("service.registered") if answers_us => return Ok((welcome, frame)),
                    Some("error") if answers_us => {
                        let content = &frame["content"];
                        return Err(Error::Rejected {
                            code: content["code"].as_str().unwrap_or_default().to_owned(),
                            message: content["error"].as_str().unwrap_or_default().to_owned(),
                        });
                    }
                    Some("ping") => {
                        let pong = frame_with_id(&new_id(), "pong", frame["id"].as_str(), json!({"timestamp": now()}));
                        sink.send(Message::text(pong)).await.map_err(|err| Error::Connect(err.to_string()))?;
                    }
                    _ => {}
                }
            }
        };
        let (welcome, registered) = tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake)
            .await
            .map_err(|_| Error::Protocol("no answer from the hub in time".into()))??;

        let (outgoing, mut queue) = mpsc::unbounded_channel::<Message>();
        let writer = tokio::spawn(async move {
            while let Some(message) = queue.recv().await {
                let closing = matches!(message, Message::Close(_));
                if sink.send(message).await.is_err() || closing {
                    break;
                }
            }
        });
        let (closed_tx, closed) = watch::channel(false);
        let shared = Arc::new(Shared {
            service_id: self.id.clone(),
            outgoing: outgoing.clone(),
            running: Mutex::default(),
            requests: Mutex::default(),
        });
        let handlers: HashMap<String, Handler> =
            self.tools.iter().map(|(info, handler)| (info.id.clone(), handler.clone())).collect();
        let reader = tokio::spawn(read_loop(stream, shared.clone(), handlers, closed_tx));
        Ok(Connection {
            welcome: welcome["content"].clone(),
            registered: registered["content"].clone(),
            shared,
            closed,
            reader: reader.abort_handle(),
            writer: writer.abort_handle(),
        })
    }

    /// Connects and serves until the connection ends; with
    /// [`ConnectOptions::reconnect_every`], reconnects (re-registering keeps
    /// the service's registration time) until a registration is refused.
    pub async fn run(&self, options: &ConnectOptions) -> Result<(), Error> {
        loop {
            match self.connect(options).await {
                Ok(connection) => {
                    tracing::info!(service = %self.id, url = %options.url, "registered with the service hub");
                    connection.closed().await;
                    tracing::warn!(service = %self.id, "disconnected from the service hub");
                }
                Err(err @ Error::Rejected { .. }) => return Err(err),
                Err(err) if options.reconnect_delay.is_none() => return Err(err),
                Err(err) => tracing::warn!(service = %self.id, error = %err, "cannot reach the service hub"),
            }
            match options.reconnect_delay {
                Some(delay) => tokio::time::sleep(delay).await,
                None => return Ok(()),
            }
        }
    }
}

struct Shared {
    service_id: String,
    outgoing: mpsc::UnboundedSender<Message>,
    /// Running tasks, to abort those the hub gave up on.
    running: Mutex<HashMap<String, AbortHandle>>,
    /// This service's `service.task.request`s waiting for their answer.
    requests: Mutex<HashMap<String, oneshot::Sender<Value>>>,
}

impl Shared {
    fn send(&self, kind: &str, request_id: Option<&str>, content: Value) {
        let _ = self.outgoing.send(Message::text(frame_with_id(&new_id(), kind, request_id, content)));
    }

    async fn request(&self, tool: &str, params: Value) -> Result<Value, TaskError> {
        let id = new_id();
        let (answer, answered) = oneshot::channel();
        self.requests.lock().unwrap_or_else(PoisonError::into_inner).insert(id.clone(), answer);
        let content = json!({"serviceId": self.service_id, "tool": tool, "params": params});
        let _ = self.outgoing.send(Message::text(frame_with_id(&id, "service.task.request", None, content)));
        let closed = || TaskError::new("SERVICE_DISCONNECTED", "the connection to the hub closed before the answer");
        let content = answered.await.map_err(|_| closed())?;
        if content["status"] == "completed" {
            return Ok(content["result"].clone());
        }
        let error = &content["error"];
        let code = error["type"].as_str().or_else(|| error["code"].as_str()).unwrap_or("TASK_FAILED");
        let message = error["message"].as_str().or_else(|| error["error"].as_str()).unwrap_or("the task failed");
        Err(TaskError::new(code, message))
    }

    /// Hands a `service.task.response` (or an `error` answering a request)
    /// to the request waiting for it; false if none is.
    fn answer(&self, request_id: Option<&str>, content: Value) -> bool {
        let waiting = request_id.and_then(|id| self.requests.lock().unwrap_or_else(PoisonError::into_inner).remove(id));
        waiting.map(|waiting| waiting.send(content)).is_some()
    }
}

/// A registered service's live connection. Dropping it disconnects.
pub struct Connection {
    welcome: Value,
    registered: Value,
    shared: Arc<Shared>,
    closed: watch::Receiver<bool>,
    reader: AbortHandle,
    writer: AbortHandle,
}

impl Connection {
    /// The `orchestrator.welcome` content: `{version, message, config: {maxConcurrentTasks, heartbeatInterval, …}}`.
    pub fn welcome(&self) -> &Value {
        &self.welcome
    }

    /// The `service.registered` content: `{serviceId, name, registeredAt, tools, message, …}`.
    pub fn registered(&self) -> &Value {
        &self.registered
    }

    /// Sends `service.status`: `active`, `inactive`, `busy`, `error` or `maintenance`.
    pub fn set_status(&self, status: &str, message: &str) {
        let content =
            json!({"serviceId": self.shared.service_id, "status": status, "message": message, "timestamp": now()});
        self.shared.send("service.status", None, content);
    }

    /// Sends a `service.notification` not tied to a task.
    pub fn notify(&self, kind: &str, message: &str, data: Value) {
        let notification = json!({"type": kind, "message": message, "timestamp": now(), "data": data});
        self.shared.send(
            "service.notification",
            None,
            json!({"serviceId": self.shared.service_id, "notification": notification}),
        );
    }

    /// Sends a `service.error` not tied to a task.
    pub fn report_error(&self, code: &str, message: &str) {
        self.shared.send(
            "service.error",
            None,
            json!({"serviceId": self.shared.service_id, "error": message, "code": code}),
        );
    }

    /// Asks the hub to run another service's tool (`tool`: its mounted
    /// name, `<service>__<tool>`) and waits for the answer: its result, or
    /// the error the hub or that service gave (a timeout included).
    pub async fn request(&self, tool: &str, params: Value) -> Result<Value, TaskError> {
        self.shared.request(tool, params).await
    }

    /// Sends any frame (`{type, content, …}`; `id` and `timestamp` are added when missing).
    pub fn send_raw(&self, mut frame: Value) {
        if let Some(object) = frame.as_object_mut() {
            object.entry("id").or_insert_with(|| json!(new_id()));
            object.entry("timestamp").or_insert_with(|| json!(now()));
        }
        let _ = self.shared.outgoing.send(Message::text(frame.to_string()));
    }

    /// Whether the connection has ended.
    pub fn is_closed(&self) -> bool {
        *self.closed.borrow()
    }

    /// Waits until the hub closes the connection (or it breaks).
    pub async fn closed(&self) {
        let mut closed = self.closed.clone();
        let _ = closed.wait_for(|closed| *closed).await;
    }

    /// Closes the connection cleanly and waits (briefly) for the hub to acknowledge.
    pub async fn close(self) {
        let _ = self.shared.outgoing.send(Message::Close(None));
        let _ = tokio::time::timeout(Duration::from_secs(2), self.closed()).await;
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.reader.abort();
        self.writer.abort();
        for (_, task) in self.shared.running.lock().unwrap_or_else(PoisonError::into_inner).drain() {
            task.abort();
        }
    }
}

/// One task sent by the hub.
pub struct Task {
    /// The task id (the `service.task.execute` frame's id).
    pub id: String,
    /// The tool's id.
    pub function: String,
    /// The call's input, already validated against the tool's input schema by the host.
    pub params: Value,
    /// `{agentId, clientId, timestamp, priority, …}`.
    pub metadata: Value,
    shared: Arc<Shared>,
}

impl Task {
    /// Sends a `service.task.notification` of `kind` (progress, info,
    /// warning, error, debug, started, completed, failed).
    pub fn notify(&self, kind: &str, message: &str, data: Value) {
        let notification = json!({"type": kind, "message": message, "timestamp": now(), "data": data});
        let content = json!({"serviceId": self.shared.service_id, "taskId": self.id, "notification": notification});
        self.shared.send("service.task.notification", None, content);
    }

    /// A `progress` notification with `data.progress` = `percent`.
    pub fn progress(&self, percent: f64, message: &str) {
        self.notify("progress", message, json!({"progress": percent}));
    }

    pub fn info(&self, message: &str) {
        self.notify("info", message, Value::Null);
    }

    pub fn warning(&self, message: &str) {
        self.notify("warning", message, Value::Null);
    }

    /// Asks the hub to run another service's tool for this task (see
    /// [`Connection::request`]).
    pub async fn request(&self, tool: &str, params: Value) -> Result<Value, TaskError> {
        self.shared.request(tool, params).await
    }
}

async fn read_loop(
    mut stream: SplitStream<Socket>,
    shared: Arc<Shared>,
    handlers: HashMap<String, Handler>,
    closed: watch::Sender<bool>,
) {
    while let Some(message) = stream.next().await {
        let text = match message {
            Ok(Message::Text(text)) => text,
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        let Ok(frame) = serde_json::from_str::<Value>(text.as_str()) else {
            tracing::warn!("the service hub sent a frame that is not JSON");
            continue;
        };
        let content = &frame["content"];
        match frame["type"].as_str().unwrap_or_default() {
            "service.task.execute" => start_task(&shared, &handlers, &frame),
            "ping" => shared.send("pong", frame["id"].as_str(), json!({"timestamp": now()})),
            "service.task.response" => {
                if !shared.answer(frame["requestId"].as_str(), content.clone()) {
                    tracing::debug!(request = %frame["requestId"], "an answer to no request of ours");
                }
            }
            "error" if shared.answer(frame["requestId"].as_str(), json!({"status": "failed", "error": content})) => {}
            "error" => {
                let task_id = content["taskId"].as_str();
                tracing::warn!(code = %content["code"], error = %content["error"], task = ?task_id, "error from the service hub");
                if let Some(task) =
                    task_id.and_then(|id| shared.running.lock().unwrap_or_else(PoisonError::into_inner).remove(id))
                {
                    task.abort();
                }
            }
            other => tracing::debug!(kind = other, "frame from the service hub"),
        }
    }
    for (_, task) in shared.running.lock().unwrap_or_else(PoisonError::into_inner).drain() {
        task.abort();
    }
    // Requests still waiting get their "closed" error.
    shared.requests.lock().unwrap_or_else(PoisonError::into_inner).clear();
    closed.send_replace(true);
}

fn start_task(shared: &Arc<Shared>, handlers: &HashMap<String, Handler>, frame: &Value) {
    let content = &frame["content"];
    let id = frame["id"].as_str().or_else(|| content["taskId"].as_str()).unwrap_or_default().to_owned();
    let function =
        content["functionName"].as_str().or_else(|| content["toolId"].as_str()).unwrap_or_default().to_owned();
    let task = Task {
        id: id.clone(),
        function: function.clone(),
        params: content["params"].clone(),
        metadata: content["metadata"].clone(),
        shared: shared.clone(),
    };
    let handler = handlers.get(&function).cloned();
    let shared_for_task = shared.clone();
    let task_id = id.clone();
    let mut running = shared.running.lock().unwrap_or_else(PoisonError::into_inner);
    let handle = tokio::spawn(async move {
        let shared = shared_for_task;
        let outcome = match handler {
            Some(handler) => {
                task.notify("started", &format!("{function} started"), Value::Null);
                handler(task).await
            }
            None => Err(TaskError::new("UNKNOWN_FUNCTION", format!("No handler registered for function: {function}"))),
        };
        let service_id = shared.service_id.clone();
        let notify = |kind: &str, message: &str| {
            let notification = json!({"type": kind, "message": message, "timestamp": now(), "data": null});
            let content = json!({"serviceId": service_id, "taskId": task_id, "notification": notification});
            shared.send("service.task.notification", None, content);
        };
        // Once the answer is queued the hub may forget the task: deregister first.
        shared.running.lock().unwrap_or_else(PoisonError::into_inner).remove(&task_id);
        match outcome {
            Ok(result) => {
                notify("completed", &format!("{function} completed"));
                shared.send(
                    "service.task.result",
                    None,
                    json!({"serviceId": service_id, "taskId": task_id, "result": result}),
                );
            }
            Err(err) => {
                notify("failed", &err.message);
                let content =
                    json!({"serviceId": service_id, "taskId": task_id, "error": err.message, "code": err.code});
                shared.send("service.error", None, content);
            }
        }
    });
    running.insert(id, handle.abort_handle());
}

async fn next_frame(stream: &mut SplitStream<Socket>) -> Result<Value, Error> {
    loop {
        match stream.next().await {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(text.as_str())
                    .map_err(|err| Error::Protocol(format!("the hub sent a frame that is not JSON: {err}")));
            }
            Some(Ok(Message::Close(frame))) => {
                return Err(Error::Connect(format!("the hub closed the connection: {frame:?}")));
            }
            Some(Ok(_)) => continue,
            Some(Err(err)) => return Err(Error::Connect(err.to_string())),
            None => return Err(Error::Connect("the hub closed the connection".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registration_carries_tools_with_schemas() {
        let service = Service::new("svc", "Svc").capability("c").tool(
            ToolInfo::new("t", "does t").input_schema(json!({"type": "object", "required": ["x"]})),
            |_task| async { Ok(Value::Null) },
        );
        let registration = service.registration();
        assert_eq!(registration["id"], "svc");
        assert_eq!(registration["capabilities"], json!(["c"]));
        assert_eq!(registration["tools"][0]["id"], "t");
        assert_eq!(registration["tools"][0]["inputSchema"]["required"], json!(["x"]));
    }

    #[test]
    fn errors_convert_for_question_mark() {
        fn parse(text: &str) -> Result<i32, TaskError> {
            Ok(text.parse::<i32>()?)
        }
        let err = parse("x").unwrap_err();
        assert_eq!(err.code, "TASK_FAILED");
        assert!(err.message.contains("invalid digit"));
    }
}
