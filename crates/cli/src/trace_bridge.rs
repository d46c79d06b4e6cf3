//! Plugin spans as host `tracing` spans. A cdylib has its own copy of
//! `tracing`'s globals, so a span a plugin opens never reaches the host's
//! subscriber; plugins emit `trace:span_start` / `trace:span_end` events
//! instead (see the SDK's `trace::Span`), and this hook opens and closes real
//! spans for them, parented as the plugin said. With `--otlp` the subscriber
//! exports them through OpenTelemetry (`otlp.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{HookResult, JsonMap};
use amplifier_kernel::traits::{BoxFuture, HookHandler, ModuleResult};
use amplifier_kernel::Coordinator;
use serde_json::Value;
use tracing::field::Empty;

/// The `tracing` target of bridged spans.
pub const TARGET: &str = "amplifier::trace";

pub struct SpanBridge {
    open: Mutex<HashMap<String, tracing::Span>>,
    /// Who the turn is for: attributes of every root span.
    user: String,
    conversation: String,
}

impl SpanBridge {
    pub fn new(user: &str, conversation: &str) -> Self {
        SpanBridge { open: Mutex::default(), user: user.to_owned(), conversation: conversation.to_owned() }
    }

    fn spans(&self) -> std::sync::MutexGuard<'_, HashMap<String, tracing::Span>> {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn start(&self, data: &JsonMap) {
        let Some(id) = data.get("span_id").and_then(Value::as_str) else { return };
        let name = data.get("name").and_then(Value::as_str).unwrap_or("span");
        let parent_span = data.get("parent_span_id").and_then(Value::as_str).and_then(|p| self.spans().get(p).cloned());
        let root = parent_span.is_none();
        // `None` makes a root even inside some other span of the host.
        let parent = parent_span.and_then(|span| span.id());
        // Every attribute a plugin may set must be declared up front.
        let span = tracing::info_span!(
            target: TARGET,
            parent: parent,
            "plugin_span",
            otel.name = name,
            otel.status_code = Empty,
            otel.status_description = Empty,
            user_id = Empty,
            session_id = Empty,
            modality = Empty,
            agent = Empty,
            classifier = Empty,
            classifier.choice = Empty,
            usage.input_tokens = Empty,
            usage.output_tokens = Empty,
            usage.total_tokens = Empty,
            error = Empty,
            // orchestrator-plan's run and handoff spans.
            workflowName = Empty,
            threadId = Empty,
            mode = Empty,
            resumed = Empty,
            status = Empty,
            turns = Empty,
            handoffs = Empty,
            stepId = Empty,
            capabilityId = Empty,
            depth = Empty,
            asked_person = Empty,
            qa.score = Empty,
            qa.pass = Empty,
        );
        if root {
            span.record("user_id", self.user.as_str());
            span.record("session_id", self.conversation.as_str());
        }
        record(&span, data.get("attributes"));
        self.spans().insert(id.to_owned(), span);
    }

    pub(crate) fn end(&self, data: &JsonMap) {
        let Some(id) = data.get("span_id").and_then(Value::as_str) else { return };
        let Some(span) = self.spans().remove(id) else { return };
        record(&span, data.get("attributes"));
        if data.get("status").and_then(Value::as_str) == Some("error") {
            let error = data.get("error").and_then(Value::as_str).unwrap_or("error");
            span.record("otel.status_code", "ERROR");
            span.record("otel.status_description", error);
            span.record("error", error);
        } else {
            span.record("otel.status_code", "OK");
        }
        // Dropping the last handle closes (and, with OpenTelemetry, exports) it.
        drop(span);
    }
}

/// Records the attributes the span declared; unknown names are ignored by `tracing`.
fn record(span: &tracing::Span, attributes: Option<&Value>) {
    let Some(Value::Object(attributes)) = attributes else { return };
    for (key, value) in attributes {
        match value {
            Value::String(text) => span.record(key.as_str(), text.as_str()),
            Value::Number(n) if n.is_u64() => span.record(key.as_str(), n.as_u64().unwrap_or_default()),
            Value::Number(n) if n.is_i64() => span.record(key.as_str(), n.as_i64().unwrap_or_default()),
            Value::Number(n) => span.record(key.as_str(), n.as_f64().unwrap_or_default()),
            Value::Bool(b) => span.record(key.as_str(), *b),
            _ => span,
        };
    }
}

impl HookHandler for SpanBridge {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        match event.name.as_str() {
            "trace:span_start" => self.start(&event.data),
            "trace:span_end" => self.end(&event.data),
            _ => {}
        }
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// Turns the session's span events into `tracing` spans.
pub fn attach(coordinator: &Coordinator, user: &str, conversation: &str) {
    let bridge = Arc::new(SpanBridge::new(user, conversation));
    coordinator.hooks().register("trace:*", bridge, i32::MAX, "cli-trace-bridge");
}
