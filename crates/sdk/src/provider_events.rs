//! The events a provider emits while it works, for every provider plugin
//! (the HTTP ones in `amplifier-provider-http`, the in-process local model).
//!
//! - `llm:request` `{provider, model, message_count, tool_count, stream, max_tokens}`
//!   before the first attempt;
//! - `content_block:delta` for each streamed piece, as it arrives:
//!   `{provider, block_index, block_type: "text"|"thinking", delta}` or
//!   `{provider, block_type: "tool_call", tool_call_index, id?, name?, delta}`
//!   (the orchestrator emits `content_block:start`/`end` for the finished
//!   blocks, as upstream's loops do). Only when the caller did not ask for
//!   the stream: a caller that streams (loop-streaming) emits each piece
//!   itself, after its block's `content_block:start`, so every piece is
//!   emitted exactly once and in order;
//! - `provider:retry` (retrying providers: `amplifier_provider_http::retry`);
//! - `llm:response` `{provider, model, status: "ok"|"error", duration_ms,
//!   usage?, finish_reason?, error?}` once it is over.
//!
//! When the caller asked for a stream, each piece also goes to it as a
//! [`StreamDelta`].

use std::future::Future;
use std::time::Instant;

use crate::{events, json, ChatResponse, Host, JsonMap, ModuleError, Stream, StreamDelta, Value};

/// Where events go: the host's hooks in a plugin, a recorder in tests.
pub trait EventSink: Send + Sync {
    /// Emits one event. Failures are logged, never returned: observability
    /// must not fail a completion.
    fn send_event(&self, event: &str, data: Value) -> impl Future<Output = ()> + Send;
}

impl EventSink for Host {
    async fn send_event(&self, event: &str, data: Value) {
        let data = match data {
            Value::Object(map) => map,
            _ => JsonMap::new(),
        };
        if let Err(err) = self.emit(event, data).await {
            tracing::debug!(event, error = %err, "could not emit an event");
        }
    }
}

/// One model call, from `llm:request` to `llm:response`.
pub struct LlmCall<'a, S> {
    events: &'a S,
    provider: &'a str,
    model: String,
    started: Instant,
}

impl<'a, S: EventSink> LlmCall<'a, S> {
    /// Emits `llm:request`; `details` (an object) is merged into its data.
    pub async fn start(events: &'a S, provider: &'a str, model: &str, details: Value) -> Self {
        let mut data = json!({"provider": provider, "model": model});
        if let (Value::Object(data), Value::Object(details)) = (&mut data, details) {
            data.extend(details);
        }
        events.send_event(events::LLM_REQUEST, data).await;
        LlmCall { events, provider, model: model.to_owned(), started: Instant::now() }
    }

    /// Emits `llm:response` for the outcome.
    pub async fn finish(self, outcome: &Result<ChatResponse, ModuleError>) {
        let duration_ms = self.started.elapsed().as_millis() as u64;
        let data = match outcome {
            Ok(response) => json!({
                "provider": self.provider,
                "model": self.model,
                "status": "ok",
                "duration_ms": duration_ms,
                "usage": response.usage,
                "finish_reason": response.finish_reason,
            }),
            Err(err) => json!({
                "provider": self.provider,
                "model": self.model,
                "status": "error",
                "duration_ms": duration_ms,
                "error": {"type": err.kind_name(), "msg": err.message, "status_code": err.status_code},
            }),
        };
        self.events.send_event(events::LLM_RESPONSE, data).await;
    }
}

/// Sends streamed pieces to the caller's [`Stream`] and as `content_block:delta` events.
pub struct Deltas<'a, S> {
    events: &'a S,
    stream: &'a Stream,
    provider: &'a str,
    delivered: bool,
    quiet: bool,
}

impl<'a, S: EventSink> Deltas<'a, S> {
    pub fn new(events: &'a S, stream: &'a Stream, provider: &'a str) -> Self {
        Deltas { events, stream, provider, delivered: false, quiet: false }
    }

    /// No `content_block:delta` events when `quiet`: the request said
    /// `stream: false`, as an internal call does (a summary, a classifier),
    /// whose text is not the answer a front end should show.
    pub fn quiet(mut self, quiet: bool) -> Self {
        self.quiet = quiet;
        self
    }

    /// Whether anything went out (then a failure must not be retried).
    pub fn delivered(&self) -> bool {
        self.delivered
    }

    pub async fn text(&mut self, index: usize, text: &str) {
        self.block(index, "text", text).await;
    }

    pub async fn thinking(&mut self, index: usize, text: &str) {
        self.block(index, "thinking", text).await;
    }

    async fn block(&mut self, index: usize, block_type: &str, text: &str) {
        if text.is_empty() {
            return;
        }
        self.delivered = true;
        let delta = if block_type == "thinking" {
            StreamDelta::Thinking { index, text: text.to_owned() }
        } else {
            StreamDelta::Text { index, text: text.to_owned() }
        };
        self.stream.send(&delta);
        if self.stream.is_enabled() || self.quiet {
            return;
        }
        let data = json!({"provider": self.provider, "block_index": index, "block_type": block_type, "delta": text});
        self.events.send_event(events::CONTENT_BLOCK_DELTA, data).await;
    }

    /// A piece of tool call `index`: its id and name first, then argument JSON fragments.
    pub async fn tool_call(&mut self, index: usize, id: Option<&str>, name: Option<&str>, arguments: &str) {
        if id.is_none() && name.is_none() && arguments.is_empty() {
            return;
        }
        self.delivered = true;
        self.stream.send(&StreamDelta::ToolCall {
            index,
            id: id.map(str::to_owned),
            name: name.map(str::to_owned),
            arguments: arguments.to_owned(),
        });
        if self.stream.is_enabled() || self.quiet {
            return;
        }
        let mut data =
            json!({"provider": self.provider, "block_type": "tool_call", "tool_call_index": index, "delta": arguments});
        if let Some(map) = data.as_object_mut() {
            if let Some(id) = id {
                map.insert("id".into(), json!(id));
            }
            if let Some(name) = name {
                map.insert("name".into(), json!(name));
            }
        }
        self.events.send_event(events::CONTENT_BLOCK_DELTA, data).await;
    }
}

/// Records events in memory: for tests of code that emits them.
#[derive(Default)]
pub struct EventRecorder(std::sync::Mutex<Vec<(String, Value)>>);

impl EventRecorder {
    pub fn events(&self) -> Vec<(String, Value)> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

impl EventSink for EventRecorder {
    async fn send_event(&self, event: &str, data: Value) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((event.to_owned(), data));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_call_emits_request_then_response_with_duration_and_usage() {
        let recorder = EventRecorder::default();
        let call = LlmCall::start(&recorder, "openai", "gpt-x", json!({"message_count": 2})).await;
        let response = ChatResponse {
            usage: Some(crate::Usage { input_tokens: 3, output_tokens: 4, total_tokens: 7, ..Default::default() }),
            finish_reason: Some("stop".into()),
            ..Default::default()
        };
        call.finish(&Ok(response)).await;
        let events = recorder.events();
        assert_eq!(events[0].0, "llm:request");
        assert_eq!(events[0].1, json!({"provider": "openai", "model": "gpt-x", "message_count": 2}));
        assert_eq!(events[1].0, "llm:response");
        let data = &events[1].1;
        assert_eq!((data["status"].as_str(), data["usage"]["total_tokens"].as_u64()), (Some("ok"), Some(7)));
        assert!(data["duration_ms"].is_u64());

        let call = LlmCall::start(&recorder, "openai", "gpt-x", json!({})).await;
        let mut err = ModuleError::new(crate::ErrorKind::RateLimit, "slow");
        err.status_code = Some(429);
        call.finish(&Err(err)).await;
        let data = &recorder.events()[3].1;
        assert_eq!(data["status"], "error");
        assert_eq!(data["error"], json!({"type": "rate_limit", "msg": "slow", "status_code": 429}));
    }

    #[tokio::test]
    async fn deltas_become_events_unless_the_caller_streams_or_the_request_is_quiet() {
        let recorder = EventRecorder::default();
        let stream = Stream::disabled();
        let mut deltas = Deltas::new(&recorder, &stream, "openai");
        deltas.text(0, "Hel").await;
        deltas.tool_call(0, Some("c1"), Some("echo"), "").await;
        assert_eq!(recorder.events().len(), 2);
        assert_eq!(recorder.events()[0].1["delta"], "Hel");
        let mut quiet = Deltas::new(&recorder, &stream, "openai").quiet(true);
        quiet.text(0, "a summary").await;
        quiet.tool_call(0, Some("c2"), Some("echo"), "").await;
        assert_eq!(recorder.events().len(), 2, "a quiet request sends no events");
        assert!(quiet.delivered());
    }
}

/// Upstream providers' tool-sequence repair: an assistant tool call with no
/// result (a turn cut short, a history edited by hand) makes most APIs
/// refuse the whole request, so the request gets a stand-in result for it,
/// right after the results the call did get. The history itself is not
/// changed, so a call is repaired on every request; each is announced once,
/// as `provider:tool_sequence_repaired` `{provider, repair_count, repairs:
/// [{tool_call_id, tool_name}]}`.
#[derive(Default)]
pub struct ToolSequenceRepair {
    announced: std::sync::Mutex<std::collections::HashSet<String>>,
}

/// What a repaired call's stand-in result says to the model.
pub const MISSING_TOOL_RESULT: &str =
    "[no result: this tool call ended before it answered; call it again if its result is still needed]";

impl ToolSequenceRepair {
    pub async fn repair<S: EventSink>(&self, request: &mut crate::ChatRequest, events: &S, provider: &str) {
        let repairs = amplifier_protocol::repair::repair_tool_calls(
            &mut request.messages,
            MISSING_TOOL_RESULT,
            "provider-repair",
        );
        let fresh: Vec<Value> = {
            let mut announced = self.announced.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            repairs
                .into_iter()
                .filter(|call| announced.insert(call.tool_call_id.clone()))
                .map(|call| json!({"tool_call_id": call.tool_call_id, "tool_name": call.tool_name}))
                .collect()
        };
        if !fresh.is_empty() {
            let data = json!({"provider": provider, "repair_count": fresh.len(), "repairs": fresh});
            events.send_event(events::PROVIDER_TOOL_SEQUENCE_REPAIRED, data).await;
        }
    }
}

#[cfg(test)]
mod repair_tests {
    use super::*;
    use crate::{Message, Role, ToolCall};

    struct Recorded(std::sync::Mutex<Vec<(String, Value)>>);

    impl EventSink for Recorded {
        async fn send_event(&self, event: &str, data: Value) {
            self.0.lock().unwrap().push((event.to_owned(), data));
        }
    }

    fn call(id: &str) -> ToolCall {
        ToolCall::new(id, "echo", json!({}))
    }

    #[test]
    fn an_unanswered_call_gets_a_stand_in_after_its_siblings_results_announced_once() {
        let assistant = Message { tool_calls: Some(vec![call("a"), call("b")]), ..Message::new(Role::Assistant, "") };
        let answered = Message { tool_call_id: Some("a".into()), ..Message::new(Role::Tool, "done") };
        let mut request = crate::ChatRequest {
            messages: vec![Message::user("go"), assistant, answered, Message::user("and now?")].into(),
            ..Default::default()
        };
        let events = Recorded(Default::default());
        let repair = ToolSequenceRepair::default();
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(repair.repair(&mut request, &events, "p"));
        let roles: Vec<(Role, Option<&str>)> =
            request.messages.iter().map(|m| (m.role, m.tool_call_id.as_deref())).collect();
        assert_eq!(
            roles,
            [
                (Role::User, None),
                (Role::Assistant, None),
                (Role::Tool, Some("a")),
                (Role::Tool, Some("b")),
                (Role::User, None)
            ]
        );
        assert_eq!(request.messages[3].content.text(), MISSING_TOOL_RESULT);
        let recorded = events.0.lock().unwrap().clone();
        assert_eq!(recorded.len(), 1);
        assert_eq!(
            recorded[0].1,
            json!({"provider": "p", "repair_count": 1, "repairs": [{"tool_call_id": "b", "tool_name": "echo"}]})
        );

        // The next request from the same history: repaired again, not announced again.
        let mut again = crate::ChatRequest { messages: request.messages[..3].to_vec().into(), ..Default::default() };
        runtime.block_on(repair.repair(&mut again, &events, "p"));
        assert_eq!(again.messages.len(), 4);
        assert_eq!(events.0.lock().unwrap().len(), 1);
    }
}
