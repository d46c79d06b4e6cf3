//! Which messages must be kept or omitted together.
//!
//! Providers reject a tool result whose call is missing and (most of them) a
//! tool call whose result is missing, so an assistant message requesting tool
//! calls and every message answering them form one unit.

use std::collections::{BTreeMap, HashMap};

use amplifier_sdk::prelude::*;

/// System and developer messages: instructions, always kept.
pub fn is_system(message: &Message) -> bool {
    matches!(message.role, Role::System | Role::Developer)
}

/// A message carrying tool output: a `tool` message, or one answering a call
/// through `tool_call_id` or `tool_result` blocks.
pub fn is_tool_result(message: &Message) -> bool {
    !is_system(message) && (message.role == Role::Tool || !answered_ids(message).is_empty())
}

/// Something the user said, as opposed to tool output sent back in a user message.
pub fn is_user_prompt(message: &Message) -> bool {
    message.role == Role::User && answered_ids(message).is_empty()
}

/// The tool call ids a message answers.
fn answered_ids(message: &Message) -> Vec<&str> {
    let mut ids: Vec<&str> = message.tool_call_id.as_deref().into_iter().collect();
    if let MessageContent::Blocks(blocks) = &message.content {
        for block in blocks {
            if let ContentBlock::ToolResult { tool_call_id, .. } = block {
                ids.push(tool_call_id);
            }
        }
    }
    ids
}

/// The non-system messages' indices, grouped into units: a message that
/// requests tool calls with every later message answering one of them, any
/// other message alone. Units come in order of their first message, and each
/// unit's indices ascend, so a unit's first message is its requester (or an
/// orphan result, when the call is not in `messages`).
pub fn units(messages: &[Message]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..messages.len()).collect();
    let mut requester: HashMap<&str, usize> = HashMap::new();
    let conversation = || messages.iter().enumerate().filter(|(_, m)| !is_system(m));
    for (index, message) in conversation() {
        for id in answered_ids(message) {
            if let Some(&call) = requester.get(id) {
                union(&mut parent, call, index);
            }
        }
        for id in message.requested_tool_call_ids() {
            requester.insert(id, index);
        }
    }
    let mut by_root: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (index, _) in conversation() {
        by_root.entry(find(&mut parent, index)).or_default().push(index);
    }
    by_root.into_values().collect()
}

/// Union-find root; a message can answer calls of several requesters (one
/// user message with many `tool_result` blocks), so units merge transitively.
fn find(parent: &mut [usize], mut index: usize) -> usize {
    while parent[index] != index {
        parent[index] = parent[parent[index]];
        index = parent[index];
    }
    index
}

/// Merges two units; the root stays the smaller index, so it is the unit's first message.
fn union(parent: &mut [usize], a: usize, b: usize) {
    let (a, b) = (find(parent, a), find(parent, b));
    parent[a.max(b)] = a.min(b);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(ids: &[&str]) -> Message {
        Message {
            tool_calls: Some(ids.iter().map(|id| ToolCall::new(*id, "echo", json!({}))).collect()),
            ..Message::new(Role::Assistant, "")
        }
    }

    #[test]
    fn a_call_and_its_results_form_one_unit() {
        let messages = vec![
            Message::system("s"),
            Message::user("go"),
            calls(&["a", "b"]),
            Message::tool_result("a", "1"),
            Message::tool_result("b", "2"),
            Message::new(Role::Assistant, "done"),
        ];
        assert_eq!(units(&messages), vec![vec![1], vec![2, 3, 4], vec![5]]);
    }

    #[test]
    fn results_in_blocks_join_every_call_they_answer() {
        let block_call = Message {
            content: MessageContent::Blocks(vec![ContentBlock::ToolCall {
                extensions: Default::default(),
                id: "b".into(),
                name: "echo".into(),
                input: json!({}),
                visibility: None,
            }]),
            ..Message::new(Role::Assistant, "")
        };
        let result = |id: &str| ContentBlock::ToolResult {
            extensions: Default::default(),
            tool_call_id: id.into(),
            output: json!("ok"),
            visibility: None,
        };
        let answers =
            Message { content: MessageContent::Blocks(vec![result("a"), result("b")]), ..Message::new(Role::User, "") };
        let messages = vec![calls(&["a"]), block_call, answers];
        assert!(is_tool_result(&messages[2]) && !is_user_prompt(&messages[2]));
        assert_eq!(units(&messages), vec![vec![0, 1, 2]]);
    }

    #[test]
    fn an_orphan_result_is_its_own_unit() {
        let messages = vec![Message::tool_result("gone", "1"), Message::user("hi")];
        assert_eq!(units(&messages), vec![vec![0], vec![1]]);
        assert!(is_tool_result(&messages[0]));
    }
}
