//! The hub over real WebSocket connections on 127.0.0.1, without a session:
//! a recording [`HubHost`] stands in for the host, and services are raw
//! tungstenite clients (to misbehave precisely) or written with
//! `amplifier-service-sdk` (to check the two sides agree on the wire).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use amplifier_sdk::{ToolResult, ToolSpec};
use amplifier_service_sdk::{ConnectOptions, Service, TaskError, ToolInfo};
use futures_util::future::BoxFuture;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::hub::{events, Hub, HubConfig, HubHost};
use crate::wire::code;

const WAIT: Duration = Duration::from_secs(5);

/// Records what the hub asks of the host.
#[derive(Default)]
struct Recorder {
    mounted: Mutex<BTreeMap<String, ToolSpec>>,
    events: Mutex<Vec<(String, Value)>>,
}

impl HubHost for Recorder {
    fn mount_tools(&self, tools: Vec<ToolSpec>) -> BoxFuture<'static, Result<(), String>> {
        let mut mounted = self.mounted.lock().unwrap();
        for tool in tools {
            mounted.insert(tool.name.clone(), tool);
        }
        Box::pin(async { Ok(()) })
    }

    fn unmount_tools(&self, names: Vec<String>) -> BoxFuture<'static, Result<(), String>> {
        let mut mounted = self.mounted.lock().unwrap();
        for name in names {
            mounted.remove(&name);
        }
        Box::pin(async { Ok(()) })
    }

    fn emit(&self, event: &str, data: Value) -> BoxFuture<'static, ()> {
        self.events.lock().unwrap().push((event.to_owned(), data));
        Box::pin(async {})
    }
}

impl Recorder {
    fn mounted_names(&self) -> Vec<String> {
        self.mounted.lock().unwrap().keys().cloned().collect()
    }

    fn events_named(&self, name: &str) -> Vec<Value> {
        self.events.lock().unwrap().iter().filter(|(n, _)| n == name).map(|(_, d)| d.clone()).collect()
    }
}

struct TestHub {
    hub: Arc<Hub>,
    host: Arc<Recorder>,
    url: String,
}

async fn start_hub(config: HubConfig) -> TestHub {
    let host = Arc::new(Recorder::default());
    let hub = Hub::new(config, host.clone());
    hub.set_agent_id("session-1".into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    tokio::spawn(crate::server::serve(hub.clone(), listener));
    TestHub { hub, host, url }
}

/// The hub of a plan that leaves every key out (the manifest's defaults),
/// with a shorter task timeout.
fn config() -> HubConfig {
    let config: crate::Config =
        amplifier_sdk::testing::config_with_defaults(include_str!("../amplifier.toml"), json!({}));
    HubConfig { task_timeout: Duration::from_secs(10), ..config.hub_config() }
}

/// Polls `condition` until it holds (or fails the test after 5 s).
async fn eventually(what: &str, condition: impl Fn() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A service client speaking raw frames.
struct Raw {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    welcome: Value,
}

impl Raw {
    async fn connect(url: &str) -> Raw {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let mut raw = Raw { ws, welcome: Value::Null };
        raw.welcome = raw.recv().await;
        assert_eq!(raw.welcome["type"], "orchestrator.welcome");
        raw
    }

    async fn send(&mut self, frame: Value) {
        self.ws.send(Message::text(frame.to_string())).await.unwrap();
    }

    async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text.to_owned())).await.unwrap();
    }

    /// The next text frame, pings included.
    async fn recv(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a frame in time");
            match message.expect("connection open").expect("no error") {
                Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
                Message::Close(frame) => panic!("closed: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// The next text frame that isn't a ping.
    async fn recv_frame(&mut self) -> Value {
        loop {
            let frame = self.recv().await;
            if frame["type"] != "ping" {
                return frame;
            }
        }
    }

    /// Nothing but pings for `quiet`.
    async fn expect_silence(&mut self, quiet: Duration) {
        let deadline = tokio::time::Instant::now() + quiet;
        loop {
            match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => return,
                Ok(Some(Ok(Message::Text(text)))) => {
                    let frame: Value = serde_json::from_str(text.as_str()).unwrap();
                    assert_eq!(frame["type"], "ping", "unexpected frame: {frame}");
                }
                Ok(other) => panic!("unexpected: {other:?}"),
            }
        }
    }

    async fn register(&mut self, id: &str, tools: Value) -> Value {
        self.send(json!({"id": format!("reg-{id}"), "type": "service.register", "timestamp": "t",
            "content": {"id": id, "name": format!("Service {id}"), "capabilities": ["c"], "tools": tools,
                        "manifest": {"version": "1.0.0"}}}))
            .await;
        let reply = self.recv_frame().await;
        assert_eq!(reply["type"], "service.registered", "{reply}");
        assert_eq!(reply["requestId"], format!("reg-{id}"));
        reply
    }

    async fn result(&mut self, task_id: &str, result: Value) {
        self.send(json!({"id": format!("res-{task_id}"), "type": "service.task.result", "taskId": task_id,
            "content": {"taskId": task_id, "result": result}}))
            .await;
    }
}

fn generate_text() -> Value {
    json!([{
        "id": "generate_text",
        "name": "Text Generation",
        "description": "Generate text based on prompts",
        "inputSchema": {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]},
        "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}
    }])
}

fn call(hub: &Arc<Hub>, tool: &str, input: Value) -> tokio::task::JoinHandle<ToolResult> {
    let hub = hub.clone();
    let tool = tool.to_owned();
    tokio::spawn(async move { hub.call(&tool, input, None).await })
}

fn error_type(result: &ToolResult) -> String {
    assert!(!result.success, "expected a failure: {result:?}");
    result.error.as_ref().and_then(|e| e["type"].as_str()).unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn welcome_and_registration_mount_prefixed_tools() {
    let t =
        start_hub(HubConfig { max_concurrent_tasks: 7, heartbeat_interval: Duration::from_secs(20), ..config() }).await;
    let mut service = Raw::connect(&t.url).await;
    let welcome = &service.welcome;
    assert!(welcome["id"].is_string() && welcome["timestamp"].is_string());
    assert_eq!(welcome["content"]["version"], "1.0.0");
    assert_eq!(welcome["content"]["config"]["maxConcurrentTasks"], 7);
    assert_eq!(welcome["content"]["config"]["heartbeatInterval"], 20_000);

    let reply = service.register("llm-1", generate_text()).await;
    assert_eq!(reply["content"]["serviceId"], "llm-1");
    assert_eq!(reply["content"]["message"], "Service registered successfully");
    assert_eq!(reply["content"]["tools"], json!(["llm-1__generate_text"]));

    let mounted = t.host.mounted.lock().unwrap().clone();
    let spec = &mounted["llm-1__generate_text"];
    assert_eq!(spec.parameters["required"], json!(["prompt"]));
    assert!(spec.description.as_deref().unwrap().contains("Generate text based on prompts"));

    let listing = t.hub.list();
    let listed = &listing["services"][0];
    assert_eq!(listed["id"], "llm-1");
    assert_eq!(listed["status"], "active");
    assert_eq!(listed["tools"][0]["inputSchema"]["required"], json!(["prompt"]));
    assert_eq!(listed["tools"][0]["outputSchema"]["properties"]["text"]["type"], "string");
    let registered = t.host.events_named(events::REGISTERED);
    assert_eq!(registered[0]["service"], "llm-1");
    assert_eq!(registered[0]["tools"], json!(["llm-1__generate_text"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_without_a_name_is_refused_and_the_socket_stays_open() {
    let t = start_hub(config()).await;
    let mut service = Raw::connect(&t.url).await;
    service.send(json!({"id": "bad-reg", "type": "service.register", "content": {"id": "x", "tools": []}})).await;
    let error = service.recv_frame().await;
    assert_eq!(error["type"], "error");
    assert_eq!(error["requestId"], "bad-reg");
    assert_eq!(error["content"]["code"], code::INVALID_REGISTRATION);
    assert!(error["content"]["error"].as_str().unwrap().contains("name is required"));
    assert_eq!(t.hub.list()["services"], json!([]));
    // Still open: a ping is answered, and a good registration works.
    service.send(json!({"id": "p1", "type": "ping", "content": {}})).await;
    let pong = service.recv_frame().await;
    assert_eq!((pong["type"].as_str(), pong["requestId"].as_str()), (Some("pong"), Some("p1")));
    service.register("x", json!([])).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_keeps_the_registration_time_and_replaces_the_tools() {
    let t = start_hub(config()).await;
    let mut first = Raw::connect(&t.url).await;
    let tools = json!([{"id": "a"}, {"id": "b"}]);
    let registered_at = first.register("svc", tools).await["content"]["registeredAt"].clone();
    assert_eq!(t.host.mounted_names(), ["svc__a", "svc__b"]);
    drop(first);
    eventually("tools unmounted", || t.host.mounted_names().is_empty()).await;
    assert_eq!(t.hub.list()["services"][0]["status"], "inactive");

    tokio::time::sleep(Duration::from_millis(5)).await;
    let mut second = Raw::connect(&t.url).await;
    let reply = second.register("svc", json!([{"id": "a"}, {"id": "c"}])).await;
    assert_eq!(reply["content"]["message"], "Service reconnected successfully");
    assert_eq!(reply["content"]["registeredAt"], registered_at);
    assert_eq!(t.host.mounted_names(), ["svc__a", "svc__c"]);
    assert_eq!(t.hub.list()["services"][0]["registeredAt"], registered_at);

    // A third connection registering the same id takes over; the second is closed.
    let mut third = Raw::connect(&t.url).await;
    third.register("svc", json!([{"id": "d"}])).await;
    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match second.ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                _ => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the replaced connection is closed");
    eventually("only the new tools", || t.host.mounted_names() == ["svc__d"]).await;
    let pending = call(&t.hub, "svc__d", json!({}));
    let execute = third.recv_frame().await;
    assert_eq!(execute["content"]["functionName"], "d");
    third.result(execute["id"].as_str().unwrap(), json!("ok")).await;
    assert_eq!(pending.await.unwrap(), ToolResult::ok("ok"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_is_dispatched_and_answered_by_the_matching_result_exactly_once() {
    let t = start_hub(config()).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("llm-1", generate_text()).await;
    let pending = call(&t.hub, "llm-1__generate_text", json!({"prompt": "AI trends"}));
    let execute = service.recv_frame().await;
    assert_eq!(execute["type"], "service.task.execute");
    let task_id = execute["id"].as_str().unwrap().to_owned();
    assert_eq!(execute["content"]["taskId"], task_id.as_str());
    assert_eq!(execute["content"]["functionName"], "generate_text");
    assert_eq!(execute["content"]["params"], json!({"prompt": "AI trends"}));
    let metadata = &execute["content"]["metadata"];
    assert_eq!(metadata["agentId"], "session-1");
    assert_eq!(metadata["clientId"], "amplifier");
    assert_eq!(metadata["priority"], "normal");
    assert!(metadata["timestamp"].is_string());

    service.result(&task_id, json!({"text": "LLMs", "tokens": 1})).await;
    assert_eq!(pending.await.unwrap(), ToolResult::ok(json!({"text": "LLMs", "tokens": 1})));

    // The same result again, and one for a task never issued: ignored, with an error frame.
    service.result(&task_id, json!({"text": "again"})).await;
    let error = service.recv_frame().await;
    assert_eq!(error["content"]["code"], code::UNKNOWN_TASK);
    assert_eq!(error["content"]["taskId"], task_id.as_str());
    service.result("never-issued", json!(1)).await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::UNKNOWN_TASK);
    assert_eq!(t.hub.pending_tasks(), 0);

    // The service still works.
    let pending = call(&t.hub, "llm-1__generate_text", json!({"prompt": "more"}));
    let execute = service.recv_frame().await;
    service.result(execute["id"].as_str().unwrap(), json!("second")).await;
    assert_eq!(pending.await.unwrap(), ToolResult::ok("second"));

    // A result shaped like the reference SDK's failures is a failure.
    let pending = call(&t.hub, "llm-1__generate_text", json!({"prompt": "fail"}));
    let execute = service.recv_frame().await;
    service.result(execute["id"].as_str().unwrap(), json!({"error": "model overloaded"})).await;
    let failed = pending.await.unwrap();
    assert_eq!(error_type(&failed), code::TASK_FAILED);
    assert!(failed.serialized_output().contains("model overloaded"));

    // An unknown tool name fails at once.
    assert_eq!(error_type(&t.hub.call("llm-1__nope", json!({}), None).await), code::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_are_acked_and_become_events_in_order() {
    let t = start_hub(config()).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    let pending = call(&t.hub, "svc__work", json!({}));
    let task_id = service.recv_frame().await["id"].as_str().unwrap().to_owned();
    let kinds = ["started", "progress", "info", "warning", "error", "debug", "progress", "completed"];
    for (index, kind) in kinds.iter().enumerate() {
        let id = format!("note-{index}");
        service
            .send(
                json!({"id": id, "type": "service.task.notification", "content": {"serviceId": "svc", "taskId": task_id,
                "notification": {"type": kind, "message": format!("step {index}"), "data": {"progress": index * 10}}}}),
            )
            .await;
        let ack = service.recv_frame().await;
        assert_eq!(ack["type"], "notification.received");
        assert_eq!(ack["content"]["notificationId"], id.as_str());
    }
    service
        .send(json!({"id": "bad-note", "type": "service.task.notification",
            "content": {"taskId": task_id, "notification": {"type": "shout", "message": "?"}}}))
        .await;
    let error = service.recv_frame().await;
    assert_eq!(
        (error["content"]["code"].as_str(), error["requestId"].as_str()),
        (Some(code::INVALID_NOTIFICATION), Some("bad-note"))
    );
    service.result(&task_id, json!("done")).await;
    assert_eq!(pending.await.unwrap(), ToolResult::ok("done"));

    let notes = t.host.events_named(events::NOTIFICATION);
    let seen: Vec<&str> = notes.iter().map(|n| n["type"].as_str().unwrap()).collect();
    assert_eq!(seen, kinds);
    for (index, note) in notes.iter().enumerate() {
        assert_eq!(note["task_id"], task_id.as_str());
        assert_eq!(note["service"], "svc");
        assert_eq!(note["tool"], "svc__work");
        assert_eq!(note["message"], format!("step {index}"));
        assert_eq!(note["data"]["progress"], index * 10);
    }

    // A general notification (no task) is acked and emitted with no task id.
    service
        .send(json!({"id": "general", "type": "service.notification",
        "content": {"serviceId": "svc", "notification": {"type": "info", "message": "model updated"}}}))
        .await;
    assert_eq!(service.recv_frame().await["content"]["notificationId"], "general");
    eventually("general notification", || t.host.events_named(events::NOTIFICATION).len() == kinds.len() + 1).await;
    let general = t.host.events_named(events::NOTIFICATION).pop().unwrap();
    assert_eq!((general["task_id"].clone(), general["message"].clone()), (Value::Null, json!("model updated")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_status_takes_tools_out_of_dispatch_until_active() {
    let t = start_hub(config()).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    service
        .send(json!({"id": "s1", "type": "service.status", "content": {"status": "busy", "message": "at capacity"}}))
        .await;
    let updated = service.recv_frame().await;
    assert_eq!(updated["type"], "service.status.updated");
    assert_eq!(updated["requestId"], "s1");
    assert_eq!(updated["content"]["status"], "busy");

    let started = Instant::now();
    let refused = t.hub.call("svc__work", json!({}), None).await;
    assert_eq!(error_type(&refused), code::SERVICE_UNAVAILABLE);
    assert!(refused.serialized_output().contains("busy: at capacity"), "{refused:?}");
    assert!(started.elapsed() < Duration::from_millis(500), "fails fast");
    assert_eq!(t.hub.list()["services"][0]["status"], "busy");
    service.expect_silence(Duration::from_millis(100)).await;

    for (status, _) in [("maintenance", ()), ("error", ()), ("inactive", ())] {
        service.send(json!({"id": status, "type": "service.status", "content": {"status": status}})).await;
        assert_eq!(service.recv_frame().await["content"]["status"], status);
        assert_eq!(error_type(&t.hub.call("svc__work", json!({}), None).await), code::SERVICE_UNAVAILABLE);
    }
    // Invalid values are refused and change nothing.
    service.send(json!({"id": "s2", "type": "service.status", "content": {"status": "sleepy"}})).await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::INVALID_STATUS);
    service.send(json!({"id": "s3", "type": "service.status", "content": {}})).await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::INVALID_STATUS);

    // The reference code's message name and vocabulary work too.
    service.send(json!({"id": "s4", "type": "service.status.update", "content": {"status": "online"}})).await;
    assert_eq!(service.recv_frame().await["content"]["status"], "active");
    let pending = call(&t.hub, "svc__work", json!({}));
    let execute = service.recv_frame().await;
    service.result(execute["id"].as_str().unwrap(), json!(1)).await;
    assert_eq!(pending.await.unwrap(), ToolResult::ok(1));
    let statuses: Vec<Value> = t.host.events_named(events::STATUS).iter().map(|e| e["status"].clone()).collect();
    assert_eq!(statuses, [json!("busy"), json!("maintenance"), json!("error"), json!("inactive"), json!("active")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_past_its_timeout_fails_with_timeout_and_a_late_result_is_ignored() {
    let t = start_hub(HubConfig { task_timeout: Duration::from_millis(300), ..config() }).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "slow"}])).await;
    let started = Instant::now();
    let pending = call(&t.hub, "svc__slow", json!({}));
    let task_id = service.recv_frame().await["id"].as_str().unwrap().to_owned();
    let result = pending.await.unwrap();
    assert_eq!(error_type(&result), code::TIMEOUT);
    assert!(result.serialized_output().contains("within 300 ms"), "{result:?}");
    assert!(started.elapsed() >= Duration::from_millis(300) && started.elapsed() < Duration::from_secs(3));
    // The service is told, with the task id.
    let told = service.recv_frame().await;
    assert_eq!(
        (told["content"]["code"].as_str(), told["content"]["taskId"].as_str()),
        (Some(code::TIMEOUT), Some(task_id.as_str()))
    );
    service.result(&task_id, json!("too late")).await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::UNKNOWN_TASK);
    assert_eq!(t.hub.pending_tasks(), 0);
    // The slot was freed.
    let pending = call(&t.hub, "svc__slow", json!({}));
    let execute = service.recv_frame().await;
    service.result(execute["id"].as_str().unwrap(), json!("fast")).await;
    assert_eq!(pending.await.unwrap(), ToolResult::ok("fast"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_error_with_a_task_id_fails_that_task() {
    let t = start_hub(config()).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("llm-1", generate_text()).await;
    let first = call(&t.hub, "llm-1__generate_text", json!({"prompt": "a"}));
    let first_id = service.recv_frame().await["id"].as_str().unwrap().to_owned();
    let second = call(&t.hub, "llm-1__generate_text", json!({"prompt": "b"}));
    let second_id = service.recv_frame().await["id"].as_str().unwrap().to_owned();
    service
        .send(json!({"id": "e1", "type": "service.error", "content": {"error": "API rate limit exceeded",
            "code": "RATE_LIMIT_EXCEEDED", "taskId": first_id, "stack": "Error: …"}}))
        .await;
    let failed = first.await.unwrap();
    assert_eq!(error_type(&failed), "RATE_LIMIT_EXCEEDED");
    assert!(failed.serialized_output().contains("API rate limit exceeded"));
    // The other task is untouched.
    service.result(&second_id, json!("b done")).await;
    assert_eq!(second.await.unwrap(), ToolResult::ok("b done"));
    // A service.error without a task is an event only.
    service.send(json!({"id": "e2", "type": "service.error", "content": {"error": "disk full", "code": "DISK"}})).await;
    eventually("two service:error events", || t.host.events_named(events::ERROR).len() == 2).await;
    let errors = t.host.events_named(events::ERROR);
    assert_eq!(errors[0]["task_id"], first_id.as_str());
    assert_eq!(errors[0]["code"], "RATE_LIMIT_EXCEEDED");
    assert_eq!(errors[1]["task_id"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnect_mid_task_fails_every_pending_task_at_once_and_unmounts_the_tools() {
    let t = start_hub(HubConfig { max_concurrent_tasks: 1, ..config() }).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    let running = call(&t.hub, "svc__work", json!({"n": 1}));
    service.recv_frame().await;
    let queued = [call(&t.hub, "svc__work", json!({"n": 2})), call(&t.hub, "svc__work", json!({"n": 3}))];
    eventually("three pending", || t.hub.pending_tasks() == 3).await;
    let dropped = Instant::now();
    drop(service);
    for pending in std::iter::once(running).chain(queued) {
        let result = tokio::time::timeout(Duration::from_secs(1), pending).await.expect("answered within a second");
        assert_eq!(error_type(&result.unwrap()), code::SERVICE_DISCONNECTED);
    }
    assert!(dropped.elapsed() < Duration::from_secs(1));
    eventually("tools unmounted", || t.host.mounted_names().is_empty()).await;
    assert_eq!(t.hub.list()["services"][0]["status"], "inactive");
    let gone = t.host.events_named(events::DISCONNECTED);
    assert_eq!(gone[0]["failed_tasks"], 3);
    assert_eq!(error_type(&t.hub.call("svc__work", json!({}), None).await), code::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_errors_get_an_error_frame_and_the_connection_stays_open() {
    let t = start_hub(config()).await;
    let mut service = Raw::connect(&t.url).await;
    service.send_text("{this is not json").await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::INVALID_JSON);
    service.send(json!({"id": "m1", "content": {}})).await;
    let missing = service.recv_frame().await;
    assert_eq!(
        (missing["content"]["code"].as_str(), missing["requestId"].as_str()),
        (Some(code::INVALID_MESSAGE), Some("m1"))
    );
    service.send(json!({"id": "m2", "type": "service.dance", "content": {}})).await;
    let unknown = service.recv_frame().await;
    assert_eq!(unknown["content"]["code"], code::UNSUPPORTED_MESSAGE_TYPE);
    assert_eq!(unknown["content"]["error"], "Unsupported message type: service.dance");
    assert_eq!(unknown["requestId"], "m2");
    service.ws.send(Message::binary(vec![1u8, 2, 3])).await.unwrap();
    assert_eq!(service.recv_frame().await["content"]["code"], code::INVALID_MESSAGE);
    service.send(json!({"id": "m3", "type": "service.task.result", "content": {"taskId": "t", "result": 1}})).await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::NOT_REGISTERED);
    service.send(json!({"id": "m4", "type": "service.status", "content": {"status": "busy"}})).await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::NOT_REGISTERED);
    // Still the same connection, still usable.
    service.register("svc", json!([])).await;
    // A second service on the same connection is refused.
    service.send(json!({"id": "r2", "type": "service.register", "content": {"id": "other", "name": "Other"}})).await;
    assert_eq!(service.recv_frame().await["content"]["code"], code::ALREADY_REGISTERED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_message_is_refused_and_the_connection_closed() {
    let t = start_hub(HubConfig { max_message_bytes: 2048, ..config() }).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    let pending = call(&t.hub, "svc__work", json!({}));
    let task_id = service.recv_frame().await["id"].as_str().unwrap().to_owned();
    service.result(&task_id, json!("x".repeat(10_000))).await;
    let mut saw_error = false;
    let mut close_code = None;
    while let Ok(Some(message)) = tokio::time::timeout(WAIT, service.ws.next()).await {
        match message {
            Ok(Message::Text(text)) => {
                let frame: Value = serde_json::from_str(text.as_str()).unwrap();
                saw_error |= frame["content"]["code"] == code::MESSAGE_TOO_LARGE;
            }
            Ok(Message::Close(frame)) => {
                close_code = frame.map(|f| u16::from(f.code));
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    assert!(saw_error, "a MESSAGE_TOO_LARGE error frame");
    assert_eq!(close_code, Some(1009));
    assert_eq!(error_type(&pending.await.unwrap()), code::SERVICE_DISCONNECTED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_is_bounded_and_extra_calls_are_refused_with_busy() {
    let t = start_hub(HubConfig { max_concurrent_tasks: 1, max_queued_tasks: 1, ..config() }).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    let first = call(&t.hub, "svc__work", json!({"n": 1}));
    let first_task = service.recv_frame().await;
    let second = call(&t.hub, "svc__work", json!({"n": 2}));
    eventually("one queued", || t.hub.pending_tasks() == 2).await;
    let refused = t.hub.call("svc__work", json!({"n": 3}), None).await;
    assert_eq!(error_type(&refused), code::BUSY);
    service.expect_silence(Duration::from_millis(100)).await; // the queued task is not sent yet
    service.result(first_task["id"].as_str().unwrap(), json!(1)).await;
    let second_task = service.recv_frame().await;
    assert_eq!(second_task["content"]["params"], json!({"n": 2}));
    service.result(second_task["id"].as_str().unwrap(), json!(2)).await;
    assert_eq!(first.await.unwrap(), ToolResult::ok(1));
    assert_eq!(second.await.unwrap(), ToolResult::ok(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_calls_across_five_services_respect_max_concurrency_and_are_answered_once() {
    let t = start_hub(HubConfig { max_concurrent_tasks: 2, max_queued_tasks: 10, ..config() }).await;
    struct Counters {
        current: AtomicUsize,
        peak: AtomicUsize,
        handled: AtomicUsize,
    }
    let mut connections = Vec::new();
    let mut counters = Vec::new();
    for s in 0..5 {
        let counter = Arc::new(Counters { current: 0.into(), peak: 0.into(), handled: 0.into() });
        counters.push(counter.clone());
        let service = Service::new(format!("svc{s}"), format!("Service {s}")).tool(
            ToolInfo::new("echo", "echoes n").input_schema(json!({"type": "object"})),
            move |task| {
                let counter = counter.clone();
                async move {
                    let now = counter.current.fetch_add(1, Ordering::SeqCst) + 1;
                    counter.peak.fetch_max(now, Ordering::SeqCst);
                    task.progress(50.0, "halfway");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    counter.current.fetch_sub(1, Ordering::SeqCst);
                    counter.handled.fetch_add(1, Ordering::SeqCst);
                    Ok::<_, TaskError>(json!({"n": task.params["n"]}))
                }
            },
        );
        let connection = service.connect(&ConnectOptions::new(&t.url)).await.unwrap();
        assert_eq!(connection.welcome()["config"]["maxConcurrentTasks"], 2);
        connections.push(connection);
    }
    let calls: Vec<_> = (0..50).map(|n| call(&t.hub, &format!("svc{}__echo", n % 5), json!({"n": n}))).collect();
    for (n, pending) in calls.into_iter().enumerate() {
        let result = tokio::time::timeout(Duration::from_secs(10), pending).await.unwrap().unwrap();
        assert_eq!(result, ToolResult::ok(json!({"n": n})), "call {n}");
    }
    for (s, counter) in counters.iter().enumerate() {
        assert_eq!(counter.handled.load(Ordering::SeqCst), 10, "svc{s} ran each of its tasks once");
        let peak = counter.peak.load(Ordering::SeqCst);
        assert!((1..=2).contains(&peak), "svc{s} ran {peak} tasks at once");
    }
    assert_eq!(t.hub.pending_tasks(), 0);
    // Every task got exactly its started/progress/completed notifications, nothing after its result.
    eventually("150 notifications", || t.host.events_named(events::NOTIFICATION).len() == 150).await;
    let mut per_task: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for note in t.host.events_named(events::NOTIFICATION) {
        per_task
            .entry(note["task_id"].as_str().unwrap().to_owned())
            .or_default()
            .push(note["type"].as_str().unwrap().to_owned());
    }
    assert_eq!(per_task.len(), 50);
    assert!(per_task.values().all(|kinds| kinds == &["started", "progress", "completed"]), "{per_task:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missed_heartbeats_mark_the_service_inactive_until_it_pongs_and_then_close_it() {
    let t =
        start_hub(HubConfig { heartbeat_interval: Duration::from_millis(200), heartbeat_max_missed: 4, ..config() })
            .await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    let ping = service.recv().await;
    assert_eq!(ping["type"], "ping");
    // No pong: at the next tick the service is out of dispatch.
    assert_eq!(service.recv().await["type"], "ping");
    eventually("inactive", || t.hub.list()["services"][0]["status"] == "inactive").await;
    let refused = t.hub.call("svc__work", json!({}), None).await;
    assert_eq!(error_type(&refused), code::SERVICE_UNAVAILABLE);
    assert!(refused.serialized_output().contains("heartbeat"), "{refused:?}");
    // A pong brings it back.
    service.send(json!({"id": "pong-1", "type": "pong", "content": {"timestamp": "now"}})).await;
    eventually("active again", || t.hub.list()["services"][0]["status"] == "active").await;
    let pending = call(&t.hub, "svc__work", json!({}));
    let execute = service.recv_frame().await;
    service.result(execute["id"].as_str().unwrap(), json!("alive")).await;
    assert_eq!(pending.await.unwrap(), ToolResult::ok("alive"));
    // Silence for max_missed intervals: the hub closes the connection.
    let closed = tokio::time::timeout(Duration::from_secs(3), async {
        loop {
            match service.ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                _ => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "closed after missed heartbeats");
    eventually("unmounted", || t.host.mounted_names().is_empty()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_token_only_authenticated_services_connect() {
    let t = start_hub(HubConfig { token: Some("s3cret".into()), ..config() }).await;
    let refused = tokio_tungstenite::connect_async(t.url.as_str()).await;
    let Err(err) = refused else { panic!("connected without a token") };
    let err = err.to_string();
    assert!(err.contains("401"), "{err}");
    let wrong = tokio_tungstenite::connect_async(format!("{}/?token=nope", t.url)).await;
    assert!(wrong.is_err());
    let mut bearer = format!("{}/", t.url).into_client_request().unwrap();
    bearer.headers_mut().insert("authorization", "Bearer nope".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(bearer).await.is_err());

    let mut by_query = Raw::connect(&format!("{}/?token=s3cret", t.url)).await;
    by_query.register("q", json!([])).await;
    let service = Service::new("h", "Header");
    let connection = service.connect(&ConnectOptions::new(&t.url).token("s3cret")).await.unwrap();
    assert_eq!(connection.registered()["serviceId"], "h");
    let err = Service::new("x", "X").connect(&ConnectOptions::new(&t.url).token("bad")).await.err().unwrap();
    assert!(matches!(err, amplifier_service_sdk::Error::Connect(_)), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_failures_become_service_errors_and_hub_timeouts_abort_the_handler() {
    let t = start_hub(HubConfig { task_timeout: Duration::from_millis(300), ..config() }).await;
    let aborted = Arc::new(AtomicUsize::new(0));
    let finished = aborted.clone();
    let service = Service::new("weather", "Weather")
        .tool(ToolInfo::new("forecast", "forecast"), |task| async move {
            match task.params["city"].as_str() {
                Some("Atlantis") => Err(TaskError::new("UNKNOWN_CITY", "no such city: Atlantis")),
                city => Ok(json!({"city": city, "sky": "clear"})),
            }
        })
        .tool(ToolInfo::new("hang", "never answers"), move |_task| {
            let finished = finished.clone();
            async move {
                tokio::time::sleep(Duration::from_secs(2)).await;
                finished.fetch_add(1, Ordering::SeqCst);
                Ok(Value::Null)
            }
        });
    let connection = service.connect(&ConnectOptions::new(&t.url)).await.unwrap();
    assert_eq!(connection.registered()["tools"], json!(["weather__forecast", "weather__hang"]));
    let ok = t.hub.call("weather__forecast", json!({"city": "Paris"}), None).await;
    assert_eq!(ok, ToolResult::ok(json!({"city": "Paris", "sky": "clear"})));
    let failed = t.hub.call("weather__forecast", json!({"city": "Atlantis"}), None).await;
    assert_eq!(error_type(&failed), "UNKNOWN_CITY");
    assert!(failed.serialized_output().contains("no such city"));
    let timed_out = t.hub.call("weather__hang", json!({}), None).await;
    assert_eq!(error_type(&timed_out), code::TIMEOUT);
    tokio::time::sleep(Duration::from_millis(2200)).await;
    assert_eq!(aborted.load(Ordering::SeqCst), 0, "the SDK aborted the handler the hub gave up on");
    let notes: Vec<String> =
        t.host.events_named(events::NOTIFICATION).iter().map(|n| n["type"].as_str().unwrap().to_owned()).collect();
    assert_eq!(notes, ["started", "completed", "started", "failed", "started"]);
    // Status changes from the SDK reach the hub.
    connection.set_status("maintenance", "upgrading");
    eventually("maintenance", || t.hub.list()["services"][0]["status"] == "maintenance").await;
    assert_eq!(t.hub.list()["services"][0]["statusMessage"], "upgrading");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn services_wait_returns_once_a_service_registers() {
    let t = start_hub(config()).await;
    let timed_out = t.hub.wait_for(Some("late"), Duration::from_millis(100)).await;
    assert!(timed_out.unwrap_err().contains("did not register"));
    let hub = t.hub.clone();
    let waiting = tokio::spawn(async move { hub.wait_for(Some("late"), WAIT).await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!waiting.is_finished());
    let mut service = Raw::connect(&t.url).await;
    service.register("late", json!([{"id": "t"}])).await;
    let found = waiting.await.unwrap().unwrap();
    assert_eq!(found["id"], "late");
    assert_eq!(found["tools"][0]["name"], "late__t");
    assert!(t.host.mounted_names().contains(&"late__t".to_owned()), "mounted before the wait returns");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_end_fails_pending_calls_closes_connections_and_stops_listening() {
    let t = start_hub(config()).await;
    let shared = crate::Shared { hub: t.hub.clone(), sessions: Arc::default(), fixed: None };
    // The last session leaving the hub stops it.
    let lifetime = crate::Membership {
        shared: Arc::new(shared),
        session_id: "session-1".into(),
        joined: tokio::sync::watch::Sender::new(true),
    };
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    let pending = call(&t.hub, "svc__work", json!({}));
    service.recv_frame().await;
    drop(lifetime);
    assert_eq!(error_type(&pending.await.unwrap()), code::SHUTDOWN);
    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match service.ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                None | Some(Err(_)) => return None,
                _ => {}
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(closed, Some(1001));
    eventually("no longer listening", || std::net::TcpStream::connect(t.url.trim_start_matches("ws://")).is_err())
        .await;
}

#[test]
fn registration_names_tools_for_models_and_refuses_bad_ones() {
    let t = tokio::runtime::Runtime::new().unwrap();
    t.block_on(async {
        let t = start_hub(config()).await;
        let mut service = Raw::connect(&t.url).await;
        for (content, needle) in [
            (json!({"name": "S", "tools": [{"description": "no id"}]}), "needs an id"),
            (json!({"name": "S", "tools": [{"id": "a.b"}, {"id": "a_b"}]}), "both be named 's__a_b'"),
            (json!({"name": "S", "tools": [{"id": "x".repeat(70)}]}), "longer than 64"),
            (json!({"name": "S", "tools": [{"id": "a", "inputSchema": "string"}]}), "inputSchema"),
            (json!({"name": "S", "tools": {"id": "a"}}), "tools must be an array"),
        ] {
            service.send(json!({"id": "r", "type": "service.register", "content": content})).await;
            let error = service.recv_frame().await;
            assert_eq!(error["content"]["code"], code::INVALID_REGISTRATION);
            let message = error["content"]["error"].as_str().unwrap();
            assert!(message.contains(needle), "{message} should contain {needle}");
        }
        // No id: the slug of the name.
        service.send(json!({"id": "r", "type": "service.register", "content": {"name": "Web Search", "tools": [{"id": "q"}]}})).await;
        assert_eq!(service.recv_frame().await["content"]["serviceId"], "web-search");
        assert_eq!(t.host.mounted_names(), ["web-search__q"]);
        // Another service can't take a mounted tool name.
        let mut other = Raw::connect(&t.url).await;
        other.register("web.search", json!([{"id": "q"}])).await;
        let mut third = Raw::connect(&t.url).await;
        third.send(json!({"id": "r", "type": "service.register", "content": {"id": "web_search", "name": "W", "tools": [{"id": "q"}]}})).await;
        assert_eq!(third.recv_frame().await["content"]["code"], code::TOOL_NAME_CONFLICT);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queued_calls_go_out_by_priority_and_the_listing_shows_each_task() {
    let mut priorities = std::collections::HashMap::new();
    priorities.insert("svc__work".to_owned(), crate::hub::Priority::Low);
    let t = start_hub(HubConfig { max_concurrent_tasks: 1, max_queued_tasks: 10, priorities, ..config() }).await;
    let mut service = Raw::connect(&t.url).await;
    service.register("svc", json!([{"id": "work"}])).await;
    let first = call(&t.hub, "svc__work", json!({"n": 0}));
    let first_task = service.recv_frame().await;
    assert_eq!(first_task["content"]["metadata"]["priority"], "low", "the plan's priority for the tool");
    // Queued in this order; they go out high, normal, low (FIFO within a priority).
    let mut queued = Vec::new();
    for (n, priority) in [(1, None), (2, Some("high")), (3, Some("normal")), (4, Some("high"))] {
        let input = match priority {
            Some(priority) => json!({"n": n, "_meta": {"priority": priority}}),
            None => json!({"n": n}),
        };
        queued.push(call(&t.hub, "svc__work", input));
        eventually("queued", || t.hub.pending_tasks() == n + 1).await;
    }
    let listing = t.hub.list();
    let tasks = listing["services"][0]["tasks"].as_array().unwrap();
    let statuses: Vec<(&str, &str)> =
        tasks.iter().map(|t| (t["status"].as_str().unwrap(), t["priority"].as_str().unwrap())).collect();
    assert_eq!(statuses.iter().filter(|(s, _)| *s == "running").count(), 1, "{tasks:?}");
    assert_eq!(statuses.iter().filter(|(s, _)| *s == "queued").count(), 4, "{tasks:?}");
    assert!(tasks.iter().all(|t| t["tool"] == "svc__work"));

    let mut order = Vec::new();
    let mut task = first_task;
    for _ in 0..4 {
        service.result(task["id"].as_str().unwrap(), json!("done")).await;
        task = service.recv_frame().await;
        assert!(task["content"]["params"].get("_meta").is_none(), "the call's _meta is not the tool's: {task}");
        order.push((task["content"]["params"]["n"].as_u64().unwrap(), task["content"]["metadata"]["priority"].clone()));
    }
    service.result(task["id"].as_str().unwrap(), json!("done")).await;
    assert_eq!(order, [(2, json!("high")), (4, json!("high")), (3, json!("normal")), (1, json!("low"))]);
    first.await.unwrap();
    for call in queued {
        assert!(call.await.unwrap().success);
    }
    let refused = t.hub.call("svc__work", json!({"_meta": {"priority": "urgent"}}), None).await;
    assert_eq!(error_type(&refused), code::INVALID_MESSAGE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_runs_another_services_tool_through_the_hub_and_gets_one_answer() {
    let t = start_hub(HubConfig { task_timeout: Duration::from_millis(500), ..config() }).await;
    let mut asker = Raw::connect(&t.url).await;
    asker.register("planner", json!([{"id": "plan"}])).await;
    let mut worker = Raw::connect(&t.url).await;
    worker.register("llm", generate_text()).await;

    let request = |id: &str, content: Value| json!({"id": id, "type": "service.task.request", "content": content});
    asker
        .send(request("ask-1", json!({"tool": "llm__generate_text", "params": {"prompt": "hi"}, "priority": "high"})))
        .await;
    let task = worker.recv_frame().await;
    assert_eq!(task["type"], "service.task.execute");
    assert_eq!(task["content"]["params"], json!({"prompt": "hi"}));
    assert_eq!(task["content"]["metadata"]["agentId"], "planner", "the asking service is the task's agent");
    assert_eq!(task["content"]["metadata"]["priority"], "high");
    let task_id = task["id"].as_str().unwrap().to_owned();
    worker.result(&task_id, json!({"text": "hello"})).await;
    worker.result(&task_id, json!({"text": "again"})).await; // a second result changes nothing
    let answer = asker.recv_frame().await;
    assert_eq!(answer["type"], "service.task.response");
    assert_eq!(answer["requestId"], "ask-1");
    assert_eq!(
        (&answer["content"]["status"], &answer["content"]["result"]),
        (&json!("completed"), &json!({"text": "hello"}))
    );
    asker.expect_silence(Duration::from_millis(100)).await;

    // By service id and function name; the worker never answers: the hub's timeout does, once.
    asker
        .send(request("ask-2", json!({"serviceId": "llm", "functionName": "generate_text", "params": {"prompt": "x"}})))
        .await;
    worker.recv_frame().await;
    let answer = asker.recv_frame().await;
    assert_eq!((&answer["requestId"], &answer["content"]["status"]), (&json!("ask-2"), &json!("failed")));
    assert_eq!(answer["content"]["error"]["type"], code::TIMEOUT);
    asker.expect_silence(Duration::from_millis(100)).await;

    asker.send(request("ask-3", json!({"tool": "nobody__nothing"}))).await;
    let answer = asker.recv_frame().await;
    assert_eq!((&answer["type"], &answer["requestId"]), (&json!("service.task.response"), &json!("ask-3")));
    assert_eq!(answer["content"]["error"]["type"], code::NOT_FOUND);
    asker.send(request("ask-4", json!({"serviceId": "llm"}))).await;
    let refused = asker.recv_frame().await;
    assert_eq!((&refused["type"], &refused["requestId"]), (&json!("error"), &json!("ask-4")));
}
