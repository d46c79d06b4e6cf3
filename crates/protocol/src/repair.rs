//! Tool-sequence repair: an assistant tool call without a result (a process
//! killed while tools ran, a turn cut short, a history edited by hand) makes
//! providers reject the history (upstream microsoft/amplifier#217). Each gets
//! a synthetic result: the store's pre-turn repair of a resumed session
//! (upstream's), and a provider's repair of the request it sends (upstream's
//! providers'), with their own wording.

use serde_json::json;

use crate::models::{ContentBlock, JsonMap, Message, MessageContent, Role};

/// The content of the store's synthetic result (upstream's wording).
pub const CANCELLED_TOOL_RESULT: &str = r#"{"error":"Tool execution was cancelled","cancelled":true}"#;

/// A tool call that was given a synthetic result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepairedCall {
    pub tool_call_id: String,
    pub tool_name: String,
    /// Where the synthetic result was inserted in the history.
    pub index: usize,
}

/// Gives every tool call without a result a synthetic cancelled result
/// (`source: session-repair`); see [`repair_tool_calls`].
pub fn repair_orphan_tool_calls(messages: &mut Vec<Message>) -> Vec<RepairedCall> {
    repair_tool_calls(messages, CANCELLED_TOOL_RESULT, "session-repair")
}

/// Gives every tool call without a result a synthetic one saying `content`,
/// marked `metadata: {source, synthetic: true}`, inserted after the results
/// its assistant message did get (before the next user prompt or assistant
/// message). Returns what was repaired, in order.
pub fn repair_tool_calls(messages: &mut Vec<Message>, content: &str, source: &str) -> Vec<RepairedCall> {
    let mut repaired = Vec::new();
    let mut i = 0;
    while i < messages.len() {
        if messages[i].role != Role::Assistant {
            i += 1;
            continue;
        }
        // Runs before every provider request: only the calls left
        // unanswered are copied out of the history.
        let calls = requested_calls(&messages[i]);
        if calls.is_empty() {
            i += 1;
            continue;
        }
        // The exchange: everything up to the next user prompt or assistant
        // message. A user message that carries `tool_result` blocks (the
        // shape some wires send results in) is part of it, not a prompt.
        let end = messages[i + 1..]
            .iter()
            .position(|m| m.role == Role::Assistant || (m.role == Role::User && answered_ids(m).next().is_none()))
            .map_or(messages.len(), |offset| i + 1 + offset);
        let exchange = &messages[i + 1..end];
        let unanswered: Vec<(String, String)> = calls
            .into_iter()
            .filter(|(id, _)| !exchange.iter().flat_map(answered_ids).any(|answered| answered == *id))
            .map(|(id, name)| (id.to_owned(), name.to_owned()))
            .collect();
        let mut insert_at = exchange
            .iter()
            .rposition(|m| m.role == Role::Tool || answered_ids(m).next().is_some())
            .map_or(i + 1, |p| i + 2 + p);
        for (id, name) in unanswered {
            let mut metadata = JsonMap::new();
            metadata.insert("source".into(), json!(source));
            metadata.insert("synthetic".into(), json!(true));
            let message = Message {
                name: Some(name.clone()),
                metadata: Some(metadata),
                ..Message::tool_result(id.clone(), content)
            };
            messages.insert(insert_at, message);
            repaired.push(RepairedCall { tool_call_id: id, tool_name: name, index: insert_at });
            insert_at += 1;
        }
        i = insert_at.max(i + 1);
    }
    repaired
}

/// (id, name) of every call an assistant message requests, from either shape.
fn requested_calls(message: &Message) -> Vec<(&str, &str)> {
    let mut calls: Vec<(&str, &str)> =
        message.tool_calls.iter().flatten().map(|call| (call.id.as_str(), call.name.as_str())).collect();
    if let MessageContent::Blocks(blocks) = &message.content {
        for block in blocks {
            if let ContentBlock::ToolCall { id, name, .. } = block {
                if !calls.iter().any(|(known, _)| known == id) {
                    calls.push((id, name));
                }
            }
        }
    }
    calls
}

/// The call ids a message answers: a tool message's `tool_call_id`, or
/// `tool_result` blocks.
fn answered_ids(message: &Message) -> impl Iterator<Item = &str> {
    let blocks = match &message.content {
        MessageContent::Blocks(blocks) => blocks.as_slice(),
        MessageContent::Text(_) => &[],
    };
    let results = blocks.iter().filter_map(|block| match block {
        ContentBlock::ToolResult { tool_call_id, .. } => Some(tool_call_id.as_str()),
        _ => None,
    });
    message.tool_call_id.as_deref().into_iter().chain(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ToolCall;

    fn assistant_calling(ids: &[&str]) -> Message {
        Message {
            tool_calls: Some(ids.iter().map(|id| ToolCall::new(*id, "bash", json!({}))).collect()),
            ..Message::new(Role::Assistant, "")
        }
    }

    #[test]
    fn an_orphan_at_the_end_gets_a_cancelled_result() {
        let mut history = vec![Message::user("go"), assistant_calling(&["c1"])];
        let repaired = repair_orphan_tool_calls(&mut history);
        assert_eq!(repaired, [RepairedCall { tool_call_id: "c1".into(), tool_name: "bash".into(), index: 2 }]);
        assert_eq!(history[2].role, Role::Tool);
        assert_eq!(history[2].tool_call_id.as_deref(), Some("c1"));
        assert_eq!(history[2].content.text(), CANCELLED_TOOL_RESULT);
        let parsed: serde_json::Value = serde_json::from_str(CANCELLED_TOOL_RESULT).unwrap();
        assert_eq!(parsed, json!({"error": "Tool execution was cancelled", "cancelled": true}));
    }

    #[test]
    fn a_result_carried_in_a_user_message_answers_its_call() {
        let answer = Message {
            content: MessageContent::Blocks(vec![ContentBlock::ToolResult {
                tool_call_id: "c1".into(),
                output: json!("ok"),
                visibility: None,
                extensions: JsonMap::new(),
            }]),
            ..Message::new(Role::User, "")
        };
        let mut history = vec![Message::user("go"), assistant_calling(&["c1", "c2"]), answer, Message::user("next")];
        let repaired = repair_orphan_tool_calls(&mut history);
        assert_eq!(repaired, [RepairedCall { tool_call_id: "c2".into(), tool_name: "bash".into(), index: 3 }]);
        assert_eq!(history[4].content.text(), "next");
    }

    #[test]
    fn only_unanswered_calls_are_repaired_after_the_answered_ones() {
        let mut history = vec![
            Message::user("go"),
            assistant_calling(&["c1", "c2", "c3"]),
            Message::system("injected by a hook"),
            Message::tool_result("c2", "ok"),
            Message::user("next"),
        ];
        let repaired = repair_orphan_tool_calls(&mut history);
        let ids: Vec<&str> = repaired.iter().map(|r| r.tool_call_id.as_str()).collect();
        assert_eq!(ids, ["c1", "c3"]);
        let order: Vec<Option<&str>> = history.iter().map(|m| m.tool_call_id.as_deref()).collect();
        assert_eq!(order, [None, None, None, Some("c2"), Some("c1"), Some("c3"), None]);
        assert_eq!(history[6].content.text(), "next");
    }

    #[test]
    fn a_sound_history_is_untouched() {
        let mut history = vec![
            Message::user("go"),
            assistant_calling(&["c1"]),
            Message::tool_result("c1", "ok"),
            Message::new(Role::Assistant, "done"),
        ];
        let before = history.clone();
        assert!(repair_orphan_tool_calls(&mut history).is_empty());
        assert_eq!(history, before);
    }

    #[test]
    fn orphans_in_several_exchanges_are_all_repaired() {
        let mut history =
            vec![Message::user("a"), assistant_calling(&["c1"]), Message::user("b"), assistant_calling(&["c2"])];
        let repaired = repair_orphan_tool_calls(&mut history);
        assert_eq!(repaired.iter().map(|r| r.index).collect::<Vec<_>>(), [2, 5]);
        assert_eq!(history.len(), 6);
        assert_eq!(history[2].tool_call_id.as_deref(), Some("c1"));
        assert_eq!(history[5].tool_call_id.as_deref(), Some("c2"));
    }
}
