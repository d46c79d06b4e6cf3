//! Token estimates without a tokenizer: about four characters a token.
//!
//! The estimate only has to be good enough to decide what fits; providers
//! differ anyway, and the budget already keeps a margin (`compact_threshold`).

use amplifier_sdk::prelude::*;

const CHARS_PER_TOKEN: u64 = 4;

/// Role markers and separators every message costs on top of its content.
const MESSAGE_OVERHEAD: u64 = 4;

/// Images are billed by their size in pixels, not by the length of their
/// (base64) source, so one screenshot counts as a typical image's tokens
/// (about 1,600) instead of as a book.
const IMAGE_CHARS: usize = 1_600 * CHARS_PER_TOKEN as usize;

/// The estimated tokens of one message.
pub fn estimate(message: &Message) -> u64 {
    let content = match &message.content {
        MessageContent::Text(text) => chars(text),
        MessageContent::Blocks(blocks) => blocks.iter().map(block_chars).sum(),
    };
    let calls: usize =
        message.tool_calls.iter().flatten().map(|call| chars(&call.name) + value_chars(&call.arguments)).sum();
    let chars = (content + calls) as u64;
    chars.div_ceil(CHARS_PER_TOKEN) + MESSAGE_OVERHEAD
}

/// The estimated tokens of a list of messages.
pub fn estimate_all(messages: &[Message]) -> u64 {
    messages.iter().map(estimate).sum()
}

fn block_chars(block: &ContentBlock) -> usize {
    match block {
        ContentBlock::Text { text, .. } => chars(text),
        ContentBlock::Thinking { thinking, .. } => chars(thinking),
        ContentBlock::RedactedThinking { data, .. } => chars(data),
        ContentBlock::ToolCall { name, input, .. } => chars(name) + value_chars(input),
        ContentBlock::ToolResult { output, .. } => value_chars(output),
        ContentBlock::Image { .. } => IMAGE_CHARS,
        ContentBlock::Reasoning { content, summary, .. } => content.iter().chain(summary).map(value_chars).sum(),
    }
}

/// A JSON value's length as the model reads it: strings unquoted, the rest as JSON.
fn value_chars(value: &Value) -> usize {
    match value {
        Value::String(text) => chars(text),
        other => chars(&other.to_string()),
    }
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_a_quarter_of_the_characters_rounded_up_plus_overhead() {
        assert_eq!(estimate(&Message::user("")), 4);
        assert_eq!(estimate(&Message::user("abcd")), 5);
        assert_eq!(estimate(&Message::user("abcde")), 6);
        // Characters, not bytes: four two-byte letters are one token.
        assert_eq!(estimate(&Message::user("éééé")), 5);
    }

    #[test]
    fn counts_tool_calls_and_tool_results() {
        let call = Message {
            tool_calls: Some(vec![ToolCall::new("c1", "echo", json!({"text": "hi"}))]),
            ..Message::new(Role::Assistant, "")
        };
        // "echo" (4) + `{"text":"hi"}` (13) = 17 chars → 5 tokens.
        assert_eq!(estimate(&call), 5 + MESSAGE_OVERHEAD);
        let blocks = Message {
            content: MessageContent::Blocks(vec![
                ContentBlock::text("abcd"),
                ContentBlock::ToolResult {
                    extensions: Default::default(),
                    tool_call_id: "c1".into(),
                    output: json!("efgh"),
                    visibility: None,
                },
            ]),
            ..Message::new(Role::User, "")
        };
        assert_eq!(estimate(&blocks), 2 + MESSAGE_OVERHEAD);
    }

    #[test]
    fn an_image_costs_a_flat_amount_whatever_its_source_size() {
        let image = |data: &str| Message {
            content: MessageContent::Blocks(vec![ContentBlock::Image {
                extensions: Default::default(),
                source: json!({"type": "base64", "data": data}),
                visibility: None,
            }]),
            ..Message::new(Role::User, "")
        };
        assert_eq!(estimate(&image("x")), estimate(&image(&"x".repeat(1_000_000))));
        assert_eq!(estimate(&image("x")), 1_600 + MESSAGE_OVERHEAD);
    }
}
