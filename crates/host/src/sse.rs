//! Server-Sent Events frames from kernel events, for `amplifier serve` and
//! `amplifier run --output-format sse`.
//!
//! Any orchestrator's run can be streamed: frames are mapped from the events
//! of the session **and of its child sessions** (the observer is a
//! [`SessionObserver`], which child sessions inherit).
//!
//! | event | frame |
//! |---|---|
//! | (run begins) | `start` |
//! | `plan:phase` | `phase` |
//! | `plan:update` | `plan_update` |
//! | `plan:handoff` | `handoff` (`requested` / `occurred`, `from` / `to`) |
//! | `content_block:delta` (text) | `delta`, only while the phase is `generation` or `qa` (or when no phase was announced) |
//! | `tool:pre` | `tool_call` |
//! | `tool:post`, `tool:error` | `tool_result` |
//! | `plan:message` | `message` |
//! | `plan:warning` | `warning` |
//! | `plan:metrics` | `metrics` (tokens of `provider:response`s since the last one; a response another session relayed, `relayed_from`, is counted once, where it happened) |
//! | `router:selected` | `agent_selected` (the agent that answers) |
//! | `service:notification` | `progress` (a remote service's notice about a task: `message`, and `data.kind` its type) |
//! | `plan:hitl_request` | `hitl_request` (a question for a person: `message`, `data.requestId`, `data.options`) |
//! | `plan:prompt_preview` | `prompt_preview` (orchestrator-plan's `debug`: what an agent is about to be sent) |
//! | (run ends) | `metrics` (totals), then `complete` (the result: its JSON object, else `{message}`; the selected `agent`) or `error` (an orchestrator's own `router:error` message, else the error; the error itself in `data.cause`) |
//!
//! Every frame carries the run's `correlationId` and its `type`. On the
//! wire each is `event: NAME`, `id: N` (strictly increasing), `data: JSON`,
//! where NAME is the type except for `error` and `message` (see
//! [`wire_name`]); the body starts with the comment `:` and idle streams
//! get `heartbeat` events.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{HookResult, JsonMap, Message, Usage};
use amplifier_kernel::session::SessionObserver;
use amplifier_kernel::traits::{BoxFuture, HookHandler, ModuleResult};
use amplifier_kernel::Coordinator;
use serde_json::{json, Value};

use crate::{HostError, SessionBuilder};

mod feed;
mod stored;
pub use feed::{Feed, Gone, Mirror, Reader};
pub use stored::{FrameWriter, StoredReader};

/// Observers run after every other hook, so they see what the hooks left.
const OBSERVER_PRIORITY: i32 = i32::MAX;

/// One frame: its name on the wire and its JSON body (which carries the
/// type).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub event: String,
    pub body: Value,
}

/// The `event:` name of a frame type. The seed's `error` and `message` are
/// also the names EventSource gives a failed connection and an unnamed
/// event, so a browser could not tell them apart: they travel as
/// `run_error` and `run_message`, and `data.type` keeps the seed's name for
/// clients that read the JSON.
pub fn wire_name(kind: &str) -> &str {
    match kind {
        "error" => "run_error",
        "message" => "run_message",
        other => other,
    }
}

/// A fresh correlation id: `run_` and 16 hex digits.
pub fn correlation_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    hasher.write_u128(nanos);
    format!("run_{:016x}", hasher.finish())
}

#[derive(Default)]
struct MapperState {
    phase: Option<String>,
    since_last_metrics: Usage,
    total: Usage,
    /// The agent a routing orchestrator chose.
    agent: Option<Value>,
    /// What the orchestrator told its caller went wrong (`router:error`).
    reported_error: Option<String>,
}

/// Turns events into frames for one run.
pub struct Mapper {
    correlation_id: String,
    started: Instant,
    state: Mutex<MapperState>,
}

fn tokens(usage: &Usage) -> Value {
    json!({"input": usage.input_tokens, "output": usage.output_tokens, "total": usage.total_tokens})
}

impl Mapper {
    pub fn new(correlation_id: String) -> Self {
        Mapper { correlation_id, started: Instant::now(), state: Mutex::default() }
    }

    fn frame(&self, kind: &str, mut body: Value) -> Frame {
        if let Some(map) = body.as_object_mut() {
            map.insert("type".into(), json!(kind));
            map.insert("correlationId".into(), json!(self.correlation_id));
        }
        Frame { event: wire_name(kind).to_owned(), body }
    }

    pub fn start(&self, data: Value) -> Frame {
        self.frame("start", json!({"message": "run started", "data": data}))
    }

    /// The frame an event maps to, if any.
    pub fn map(&self, name: &str, data: &JsonMap) -> Option<Frame> {
        let get = |key: &str| data.get(key).cloned().unwrap_or(Value::Null);
        let text = |key: &str| data.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        let session = get("session_id");
        let mut state = self.state.lock().expect("mapper lock");
        match name {
            "plan:phase" => {
                let phase = text("phase");
                state.phase = Some(phase.clone());
                Some(self.frame("phase", json!({"phase": phase, "message": text("message")})))
            }
            "plan:update" => {
                let message = data.get("note").and_then(Value::as_str).unwrap_or("plan updated").to_owned();
                let body = json!({"patch": get("patch"), "planVersion": get("planVersion"), "plan": get("plan")});
                Some(self.frame("plan_update", json!({"message": message, "data": body})))
            }
            "plan:handoff" => {
                let body = json!({"from": get("from"), "to": get("to"), "capabilityId": get("capabilityId"), "stepId": get("stepId")});
                Some(self.frame("handoff", json!({"message": text("status"), "data": body})))
            }
            "plan:message" => Some(self.frame("message", json!({"message": text("message")}))),
            "plan:hitl_request" => {
                let body = json!({"requestId": get("requestId"), "options": get("options"), "askedBy": get("askedBy"), "stepId": get("stepId"), "threadId": get("threadId")});
                Some(self.frame("hitl_request", json!({"message": text("question"), "data": body})))
            }
            "plan:prompt_preview" => {
                let body = json!({"agent": get("agent"), "stepId": get("stepId"), "truncated": get("truncated")});
                Some(self.frame("prompt_preview", json!({"message": text("prompt"), "data": body})))
            }
            "plan:warning" => Some(self.frame("warning", json!({"message": text("message"), "data": get("data")}))),
            "plan:metrics" => {
                let since = std::mem::take(&mut state.since_last_metrics);
                let tokens = data.get("tokens").cloned().unwrap_or_else(|| tokens(&since));
                let body = json!({"agent": get("agent"), "stepId": get("stepId"), "scope": "turn"});
                Some(self.frame("metrics", json!({"tokens": tokens, "durationMs": get("durationMs"), "data": body})))
            }
            "content_block:delta" => {
                let is_text = data.get("block_type").and_then(Value::as_str).is_none_or(|t| t == "text");
                let delta = data.get("delta").and_then(Value::as_str)?;
                let allowed = state.phase.as_deref().is_none_or(|p| p == "generation" || p == "qa");
                (is_text && allowed && !delta.is_empty())
                    .then(|| self.frame("delta", json!({"message": delta, "data": {"sessionId": session}})))
            }
            "tool:pre" => {
                let body = json!({"args": get("tool_input"), "toolCallId": get("tool_call_id"), "sessionId": session});
                Some(self.frame("tool_call", json!({"message": text("tool_name"), "data": body})))
            }
            "tool:post" => {
                let failed = data.get("result").and_then(|r| r.get("success")) == Some(&Value::Bool(false));
                let mut body =
                    json!({"result": get("result"), "toolCallId": get("tool_call_id"), "sessionId": session});
                if failed {
                    body["error"] = json!(true);
                }
                Some(self.frame("tool_result", json!({"message": text("tool_name"), "data": body})))
            }
            "tool:error" => {
                let body = json!({"result": get("error"), "error": true, "toolCallId": get("tool_call_id"), "sessionId": session});
                Some(self.frame("tool_result", json!({"message": text("tool_name"), "data": body})))
            }
            "router:selected" => {
                state.agent = Some(get("agent"));
                let body = json!({"agent": get("agent"), "classifier": get("classifier"), "classifierChoice": get("classifier_choice")});
                Some(self.frame("agent_selected", json!({"message": text("agent"), "data": body})))
            }
            "service:notification" => {
                let body = json!({
                    "kind": get("type"),
                    "service": get("service"),
                    "tool": get("tool"),
                    "taskId": get("task_id"),
                    "data": get("data"),
                    "sessionId": session,
                });
                Some(self.frame("progress", json!({"message": get("message"), "data": body})))
            }
            "router:error" => {
                state.reported_error = data.get("message").and_then(Value::as_str).map(str::to_owned);
                None
            }
            // The router passes its agents' responses on; the observer saw
            // them in the agent's session already.
            "provider:response" if data.contains_key("relayed_from") => None,
            "provider:response" => {
                if let Some(usage) = data.get("usage").and_then(|u| serde_json::from_value::<Usage>(u.clone()).ok()) {
                    state.since_last_metrics.accumulate(&usage);
                    state.total.accumulate(&usage);
                }
                None
            }
            _ => None,
        }
    }

    /// The closing frames of a successful run: total metrics, then `complete`.
    pub fn finish(&self, response: &str) -> Vec<Frame> {
        let duration_ms = self.started.elapsed().as_millis() as u64;
        let (total, agent) = {
            let state = self.state.lock().expect("mapper lock");
            (state.total.clone(), state.agent.clone())
        };
        let data = match serde_json::from_str::<Value>(response) {
            Ok(Value::Object(map)) => Value::Object(map),
            _ => json!({"message": response}),
        };
        let mut complete = json!({"data": data, "durationMs": duration_ms});
        if let Some(agent) = agent {
            complete["agent"] = agent;
        }
        vec![
            self.frame(
                "metrics",
                json!({"tokens": tokens(&total), "durationMs": duration_ms, "data": {"scope": "run"}}),
            ),
            self.frame("complete", complete),
        ]
    }

    /// A `warning` frame of the front end's own (a server shutting down).
    pub fn warning(&self, message: &str) -> Frame {
        self.frame("warning", json!({"message": message}))
    }

    /// The closing frame of a failed run: what the orchestrator told its
    /// caller, if it did, with the error itself in `data.cause`.
    pub fn fail(&self, cause: &str) -> Frame {
        let reported = self.state.lock().expect("mapper lock").reported_error.clone();
        let message = reported.as_deref().unwrap_or(cause);
        self.frame("error", json!({"message": message, "data": {"cause": cause}}))
    }
}

/// Where frames go.
pub trait FrameSink: Send + Sync {
    fn send(&self, frame: Frame);
}

/// A frame on the wire, as frame number `id`.
pub fn encode(frame: &Frame, id: u64) -> String {
    format!("event: {}\nid: {id}\ndata: {}\n\n", frame.event, frame.body)
}

/// A `heartbeat` event as frame number `id`, led by a comment line (for
/// proxies that only look for traffic).
pub fn encode_heartbeat(correlation_id: &str, id: u64) -> String {
    let data = json!({"type": "heartbeat", "correlationId": correlation_id});
    format!(": heartbeat\nevent: heartbeat\nid: {id}\ndata: {data}\n\n")
}

/// The body's first line, a comment.
pub const PROLOGUE: &str = ":\n\n";

/// Numbers frames for one stream written as it goes (standard output).
#[derive(Default)]
pub struct Encoder {
    next_id: AtomicU64,
}

impl Encoder {
    pub fn encode(&self, frame: &Frame) -> String {
        encode(frame, self.next_id.fetch_add(1, Ordering::Relaxed) + 1)
    }
}

/// Maps every event of the sessions it observes to frames for a sink.
struct Observer {
    mapper: Arc<Mapper>,
    sink: Arc<dyn FrameSink>,
}

impl HookHandler for Observer {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        if let Some(frame) = self.mapper.map(&event.name, &event.data) {
            self.sink.send(frame);
        }
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

impl SessionObserver for Observer {
    fn session_created(&self, coordinator: &Arc<Coordinator>) {
        let observer = Arc::new(Observer { mapper: self.mapper.clone(), sink: self.sink.clone() });
        coordinator.hooks().register("*", observer, OBSERVER_PRIORITY, "host-sse");
    }
}

/// Runs one prompt in a new session from `builder`, sending frames as it
/// goes: `start` first (with `start_data` and the session's id; none
/// without `start_data`: a run taken over goes on in its stream), exactly
/// one `complete` or `error` last. `on_session` sees the session's
/// coordinator before its modules mount (to cancel it, for instance).
pub async fn stream(
    builder: SessionBuilder,
    (prompt, images): (&str, &[Message]),
    start_data: Option<Value>,
    (mapper, sink): (Arc<Mapper>, Arc<dyn FrameSink>),
    on_session: impl FnOnce(&Arc<Coordinator>),
) -> Result<String, HostError> {
    let observer = Arc::new(Observer { mapper: mapper.clone(), sink: sink.clone() });
    let mut hosted = builder.observe(observer).open()?;
    if let Some(mut start) = start_data {
        if let Some(map) = start.as_object_mut() {
            map.insert("sessionId".into(), json!(hosted.session_id()));
        }
        sink.send(mapper.start(start));
    }
    on_session(hosted.coordinator());
    let result = match hosted.start().await {
        Ok(_) => hosted.turn_with(images, prompt).await,
        Err(err) => Err(err),
    };
    hosted.finish(result.is_ok()).await;
    match &result {
        Ok(response) => {
            for frame in mapper.finish(response) {
                sink.send(frame);
            }
        }
        Err(err) => sink.send(mapper.fail(&err.to_string())),
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(value: Value) -> JsonMap {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn deltas_pass_only_in_generation_and_qa() {
        let mapper = Mapper::new("run_1".into());
        let delta = data(json!({"block_type": "text", "delta": "hi", "session_id": "s"}));
        assert!(mapper.map("content_block:delta", &delta).is_some(), "no phase announced: deltas pass");
        mapper.map("plan:phase", &data(json!({"phase": "planning"})));
        assert!(mapper.map("content_block:delta", &delta).is_none());
        mapper.map("plan:phase", &data(json!({"phase": "qa"})));
        let frame = mapper.map("content_block:delta", &delta).unwrap();
        assert_eq!(
            frame.body,
            json!({"type": "delta", "correlationId": "run_1", "message": "hi", "data": {"sessionId": "s"}})
        );
        let thinking = data(json!({"block_type": "thinking", "delta": "hmm"}));
        assert!(mapper.map("content_block:delta", &thinking).is_none());
    }

    #[test]
    fn metrics_carry_the_tokens_since_the_last_metrics_frame() {
        let mapper = Mapper::new("run_1".into());
        let usage = data(json!({"usage": {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}}));
        assert!(mapper.map("provider:response", &usage).is_none());
        let metrics = mapper.map("plan:metrics", &data(json!({"agent": "w", "durationMs": 7}))).unwrap();
        assert_eq!(metrics.body["tokens"]["total"], 5);
        assert_eq!(metrics.body["durationMs"], 7);
        mapper.map("provider:response", &usage);
        let closing = mapper.finish(r#"{"result": 1}"#);
        assert_eq!(closing[0].body["tokens"]["total"], 10);
        assert_eq!(closing[1].event, "complete");
        assert_eq!(closing[1].body["data"], json!({"result": 1}));
        assert_eq!(mapper.finish("plain")[1].body["data"], json!({"message": "plain"}));
    }

    #[test]
    fn frames_are_encoded_with_increasing_ids() {
        let encoder = Encoder::default();
        let mapper = Mapper::new("run_1".into());
        let first = encoder.encode(&mapper.start(json!({})));
        assert!(first.starts_with("event: start\nid: 1\ndata: {"), "{first}");
        assert!(first.ends_with("}\n\n"));
        assert!(encoder.encode(&mapper.fail("x")).starts_with("event: run_error\nid: 2\n"));
        let beat = encode_heartbeat("run_1", 3);
        assert!(beat.starts_with(": heartbeat\nevent: heartbeat\nid: 3\n"), "{beat}");
    }

    #[test]
    fn error_and_message_frames_do_not_take_eventsources_own_names() {
        let mapper = Mapper::new("run_1".into());
        let error = mapper.fail("the model refused");
        assert_eq!((error.event.as_str(), &error.body["type"]), ("run_error", &json!("error")));
        let message = mapper.map("plan:message", &data(json!({"message": "hi"}))).unwrap();
        assert_eq!((message.event.as_str(), &message.body["type"]), ("run_message", &json!("message")));
        let start = mapper.start(json!({}));
        assert_eq!((start.event.as_str(), &start.body["type"]), ("start", &json!("start")));
    }

    #[test]
    fn a_routed_run_names_its_agent_counts_relayed_usage_once_and_fails_in_its_own_words() {
        let mapper = Mapper::new("run_1".into());
        let selected = data(json!({"agent": "billing", "classifier": "llm", "classifier_choice": "billing"}));
        let frame = mapper.map("router:selected", &selected).unwrap();
        assert_eq!((frame.event.as_str(), &frame.body["message"]), ("agent_selected", &json!("billing")));
        assert_eq!(frame.body["data"]["classifierChoice"], "billing");
        let usage = json!({"input_tokens": 3, "output_tokens": 2, "total_tokens": 5});
        mapper.map("provider:response", &data(json!({"usage": usage, "session_id": "child"})));
        let relayed = data(json!({"usage": usage, "relayed_from": "child", "agent": "billing"}));
        assert!(mapper.map("provider:response", &relayed).is_none());
        let closing = mapper.finish("paid");
        assert_eq!(closing[0].body["tokens"]["total"], 5, "counted once");
        assert_eq!(closing[1].body["agent"], "billing");
        assert_eq!(mapper.fail("raw cause").body["message"], "raw cause", "nothing reported: the error itself");
        mapper.map("router:error", &data(json!({"agent": "billing", "message": "Sorry, try again."})));
        let failed = mapper.fail("classifier.rules[0].agent: no agent `sales`");
        assert_eq!(failed.body["message"], "Sorry, try again.");
        assert_eq!(failed.body["data"]["cause"], "classifier.rules[0].agent: no agent `sales`");
    }

    #[test]
    fn a_services_notice_is_a_progress_frame() {
        let mapper = Mapper::new("c".into());
        let note = data(
            json!({"service": "weather", "task_id": "t1", "tool": "weather__forecast", "type": "progress", "message": "day 1", "data": {"progress": 50.0}, "session_id": "s"}),
        );
        let frame = mapper.map("service:notification", &note).unwrap();
        assert_eq!((frame.event.as_str(), &frame.body["message"]), ("progress", &json!("day 1")));
        assert_eq!(
            frame.body["data"],
            json!({"kind": "progress", "service": "weather", "tool": "weather__forecast", "taskId": "t1", "data": {"progress": 50.0}, "sessionId": "s"})
        );
    }

    #[test]
    fn tool_events_become_tool_frames() {
        let mapper = Mapper::new("c".into());
        let pre = data(json!({"tool_name": "t", "tool_input": {"a": 1}, "tool_call_id": "call_1"}));
        let frame = mapper.map("tool:pre", &pre).unwrap();
        assert_eq!(
            (frame.event.as_str(), &frame.body["message"], &frame.body["data"]["args"]),
            ("tool_call", &json!("t"), &json!({"a": 1}))
        );
        let post = data(json!({"tool_name": "t", "result": {"output": 2}}));
        assert_eq!(mapper.map("tool:post", &post).unwrap().event, "tool_result");
    }
}
