//! Compaction on request (the REPL's `/compact`): the conversation before
//! the current turn summarized by the session's provider, and the summary
//! put into the history marked as `amplifier-context-core` marks its own,
//! so the context's request views start from it. Nothing is removed: the
//! history keeps every message, and a stored session keeps them too.

use amplifier_context_core::summary::{self, Keep};
use amplifier_context_core::tokens;
use amplifier_kernel::models::JsonMap;
use amplifier_kernel::{events, Coordinator, ModuleError};
use serde_json::{json, Value};

/// The longest summary asked for.
const MAX_TOKENS: u64 = 2048;

/// What a compaction did; token counts are estimates of what a request
/// view starts from.
#[derive(Debug, Clone, PartialEq)]
pub struct Compaction {
    pub messages_summarized: usize,
    pub summary_tokens: u64,
    pub tokens_before: u64,
    pub tokens_after: u64,
}

/// Summarizes the conversation before its last turn (since the last
/// summary), with `focus` telling the model what matters most. `None` when
/// there is nothing to summarize yet. Announced as `context:pre_compact` and
/// `context:post_compact` (`strategy: summary`, `trigger: request`), and
/// the model call as `provider:request`/`provider:response` with
/// `purpose: summarize`.
pub async fn compact(coordinator: &Coordinator, focus: Option<&str>) -> Result<Option<Compaction>, ModuleError> {
    let mut messages = coordinator.get_messages().await?;
    let Some(at) = summary::cut(&messages, Keep::LastTurn) else { return Ok(None) };
    let covered = summary::covered(&messages, at);
    let tokens_before = tokens::estimate_all(&summary::from_last_summary(&messages));
    let before = [
        ("message_count", json!(messages.len())),
        ("token_count", json!(tokens_before)),
        ("strategy", json!("summary")),
        ("trigger", json!("request")),
        ("messages_to_summarize", json!(covered.len())),
    ];
    coordinator.emit(events::CONTEXT_PRE_COMPACT, data(before)).await;
    coordinator.emit(events::PROVIDER_REQUEST, data([("purpose", json!("summarize"))])).await;
    let response = coordinator.complete(None, summary::request(&covered, focus, MAX_TOKENS), None).await?;
    let answered = [("purpose", json!("summarize")), ("usage", json!(response.usage))];
    coordinator.emit(events::PROVIDER_RESPONSE, data(answered)).await;
    let text = response.text();
    if text.trim().is_empty() {
        return Err(ModuleError::internal("the summary came back empty; nothing was changed"));
    }
    let message = summary::message(&text, covered.len());
    let summary_tokens = tokens::estimate(&message);
    messages.insert(at, message);
    let tokens_after = tokens::estimate_all(&summary::from_last_summary(&messages));
    let message_count = messages.len();
    coordinator.set_messages(messages).await?;
    let after = [
        ("message_count", json!(message_count)),
        ("token_count", json!(tokens_after)),
        ("strategy", json!("summary")),
        ("trigger", json!("request")),
        ("messages_summarized", json!(covered.len())),
        ("summary_tokens", json!(summary_tokens)),
    ];
    coordinator.emit(events::CONTEXT_POST_COMPACT, data(after)).await;
    Ok(Some(Compaction { messages_summarized: covered.len(), summary_tokens, tokens_before, tokens_after }))
}

fn data<const N: usize>(fields: [(&str, Value); N]) -> JsonMap {
    fields.into_iter().map(|(key, value)| (key.to_owned(), value)).collect()
}
