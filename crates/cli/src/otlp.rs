//! `--otlp ENDPOINT` (or `AMPLIFIER_OTLP_ENDPOINT`): the spans the trace
//! bridge opens for plugins (`chat.turn`, `agent.<id>`) exported with
//! OpenTelemetry over OTLP/HTTP (protobuf), batched on a background thread.
//! Only the bridge's target is exported: the host's own log events stay logs.

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::Layer;

/// Flushes and stops the exporter when dropped (at the end of `main`).
pub struct Exporter(SdkTracerProvider);

/// How long the last export may take at exit. The SDK's default (5 s) lost
/// whole traces on a busy machine; an unreachable collector still fails
/// sooner, at the exporter's own request timeout.
const SHUTDOWN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

impl Drop for Exporter {
    fn drop(&mut self) {
        if let Err(err) = self.0.shutdown_with_timeout(SHUTDOWN_TIMEOUT) {
            eprintln!("warning: could not export the last trace spans: {err}");
        }
    }
}

/// The layer for bridged spans over `provider`.
pub fn layer<S>(provider: &SdkTracerProvider) -> impl Layer<S>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    tracing_opentelemetry::layer()
        .with_tracer(provider.tracer("amplifier"))
        .with_filter(Targets::new().with_target(crate::trace_bridge::TARGET, tracing::Level::INFO))
}

/// An exporter to `endpoint` (the collector's base URL, such as
/// `http://localhost:4318`; `/v1/traces` is added when missing).
pub fn exporter(endpoint: &str) -> Result<Exporter, String> {
    let endpoint = if endpoint.trim_end_matches('/').ends_with("/v1/traces") {
        endpoint.to_owned()
    } else {
        format!("{}/v1/traces", endpoint.trim_end_matches('/'))
    };
    // rustls needs a process-wide crypto provider before the first client is
    // built; an error means one is installed already, which is as good.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let spans = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_endpoint(endpoint.as_str())
        .build()
        .map_err(|err| format!("cannot export trace spans to {endpoint}: {err}"))?;
    let resource = opentelemetry_sdk::Resource::builder().with_service_name("amplifier").build();
    Ok(Exporter(SdkTracerProvider::builder().with_batch_exporter(spans).with_resource(resource).build()))
}

impl Exporter {
    pub fn provider(&self) -> &SdkTracerProvider {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use amplifier_kernel::models::JsonMap;
    use opentelemetry::trace::Status;
    use opentelemetry_sdk::trace::InMemorySpanExporter;
    use serde_json::{json, Value};
    use tracing_subscriber::layer::SubscriberExt;

    use crate::trace_bridge::SpanBridge;

    fn data(value: Value) -> JsonMap {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn bridged_plugin_spans_are_exported_with_their_tree_status_and_attributes() {
        let memory = InMemorySpanExporter::default();
        let provider = super::SdkTracerProvider::builder().with_simple_exporter(memory.clone()).build();
        let subscriber = tracing_subscriber::registry().with(super::layer(&provider));
        let bridge = SpanBridge::new("u-42", "s-99");
        tracing::subscriber::with_default(subscriber, || {
            bridge.start(&data(json!({"span_id": "r", "name": "chat.turn", "attributes": {"modality": "text"}})));
            bridge.start(&data(json!({"span_id": "a", "parent_span_id": "r", "name": "agent.billing"})));
            bridge.end(&data(json!({"span_id": "a", "status": "ok", "attributes": {"usage.total_tokens": 52}})));
            bridge.end(&data(json!({
                "span_id": "r",
                "status": "error",
                "error": "could not save the turn: disk is full",
                "attributes": {"agent": "billing", "classifier.choice": "billing"},
            })));
        });
        provider.force_flush().unwrap();
        let spans = memory.get_finished_spans().unwrap();
        let by_name: HashMap<String, _> = spans.iter().map(|s| (s.name.to_string(), s)).collect();
        assert_eq!(spans.len(), 2, "{:?}", by_name.keys());
        let (root, agent) = (by_name["chat.turn"], by_name["agent.billing"]);
        assert_eq!(agent.parent_span_id, root.span_context.span_id());
        assert_eq!(agent.span_context.trace_id(), root.span_context.trace_id());
        assert_eq!(root.status, Status::error("could not save the turn: disk is full"));
        assert_eq!(agent.status, Status::Ok);
        let attributes = |span: &opentelemetry_sdk::trace::SpanData| -> HashMap<String, String> {
            span.attributes.iter().map(|kv| (kv.key.to_string(), kv.value.to_string())).collect()
        };
        let root_attributes = attributes(root);
        assert_eq!(root_attributes["agent"], "billing");
        assert_eq!(root_attributes["classifier.choice"], "billing");
        assert_eq!(root_attributes["user_id"], "u-42");
        assert_eq!(root_attributes["session_id"], "s-99");
        assert_eq!(attributes(agent)["usage.total_tokens"], "52");
    }
}
