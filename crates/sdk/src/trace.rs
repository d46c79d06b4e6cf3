//! Trace spans across the ABI. A `tracing` span opened in this cdylib would
//! go to the plugin's own copy of `tracing`'s globals, never the host's
//! subscriber, so spans travel as events instead: `trace:span_start`
//! `{span_id, parent_span_id, name, attributes}` and `trace:span_end`
//! `{span_id, status: "ok"|"error", error?, attributes}`. The CLI turns them
//! into real `tracing` spans (and OpenTelemetry ones with `--otlp`).

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, Value};

use crate::Host;

pub const SPAN_START: &str = "trace:span_start";
pub const SPAN_END: &str = "trace:span_end";

/// An open span; [`Span::end`] closes it.
pub struct Span {
    host: Host,
    id: String,
}

/// Span ids unique in the process: a per-process random prefix and a counter.
fn next_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    static PREFIX: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish() as u32
    });
    format!("{prefix:08x}{:08x}", NEXT.fetch_add(1, Ordering::Relaxed) + 1)
}

impl Span {
    pub async fn start(host: &Host, name: &str, parent: Option<&Span>, attributes: Value) -> Span {
        let span = Span { host: host.clone(), id: next_id() };
        let data = json!({
            "span_id": span.id,
            "parent_span_id": parent.map(|p| p.id.clone()),
            "name": name,
            "attributes": attributes,
        });
        span.emit(SPAN_START, data).await;
        span
    }

    /// Ends the span, `Err` marking it failed with that description.
    pub async fn end(self, outcome: Result<(), String>, attributes: Value) {
        let data = match outcome {
            Ok(()) => json!({"span_id": self.id, "status": "ok", "attributes": attributes}),
            Err(error) => json!({"span_id": self.id, "status": "error", "error": error, "attributes": attributes}),
        };
        self.emit(SPAN_END, data).await;
    }

    /// Tracing never fails a run.
    async fn emit(&self, event: &str, data: Value) {
        if let Value::Object(data) = data {
            if let Err(err) = self.host.emit(event, data).await {
                tracing::debug!(event, error = %err, "could not emit a span event");
            }
        }
    }
}
