//! Upstream context-simple's tool-result ingress cap: a tool message whose
//! text is over `max_tool_result_bytes` (UTF-8) is stored as its beginning
//! and a marker saying how large it was, so one huge result can't fill the
//! history. Only text is measured: a string content, or a message's text
//! blocks (the first that does not fit is cut, later ones dropped).

use amplifier_sdk::prelude::*;

/// `context:tool_result_ingress_truncated`.
pub const EVENT: &str = "context:tool_result_ingress_truncated";
/// Upstream's default, 128 KiB.
pub const DEFAULT_MAX_BYTES: usize = 128 * 1024;

/// Upstream's marker, word for word, after the kept beginning.
fn marker(original: usize) -> String {
    format!(
        "[tool-result truncated at ingress: original_text_utf8_bytes={original}; retrieve missing content using \
         narrower read/query parameters; do not repeat state-changing actions just to recover output.]"
    )
}

/// The longest beginning of `text` of at most `bytes` bytes that ends on a
/// character boundary.
fn prefix(text: &str, bytes: usize) -> &str {
    let mut end = bytes.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `message` within `max` bytes of text, and the event's data when it was cut.
pub fn limit(mut message: Message, max: usize) -> (Message, Option<JsonMap>) {
    if message.role != Role::Tool {
        return (message, None);
    }
    let (original, kind) = match &message.content {
        MessageContent::Text(text) => (text.len(), "string"),
        MessageContent::Blocks(blocks) => {
            let texts = blocks.iter().filter_map(|b| match b {
                ContentBlock::Text { text, .. } => Some(text.len()),
                _ => None,
            });
            (texts.sum(), "text_blocks")
        }
    };
    if original <= max {
        return (message, None);
    }
    let marker = marker(original);
    let mut room = max.saturating_sub(marker.len());
    match &mut message.content {
        MessageContent::Text(text) => *text = format!("{}{marker}", prefix(text, room)),
        MessageContent::Blocks(blocks) => {
            let mut cut = false;
            blocks.retain_mut(|block| {
                let ContentBlock::Text { text, .. } = block else { return true };
                if cut {
                    return false;
                }
                if text.len() <= room {
                    room -= text.len();
                } else {
                    *text = format!("{}{marker}", prefix(text, room));
                    cut = true;
                }
                true
            });
        }
    }
    let stored = match &message.content {
        MessageContent::Text(text) => text.len(),
        MessageContent::Blocks(blocks) => blocks
            .iter()
            .map(|b| match b {
                ContentBlock::Text { text, .. } => text.len(),
                _ => 0,
            })
            .sum(),
    };
    let mut data = JsonMap::new();
    data.insert("tool_name".into(), json!(message.name));
    data.insert("tool_call_id".into(), json!(message.tool_call_id));
    data.insert("original_text_utf8_bytes".into(), json!(original));
    data.insert("stored_text_utf8_bytes".into(), json!(stored));
    data.insert("max_tool_result_bytes".into(), json!(max));
    data.insert("content_kind".into(), json!(kind));
    (message, Some(data))
}

/// The smallest cap that leaves room for the marker (upstream refuses less).
pub fn minimum() -> usize {
    marker(usize::MAX).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(content: MessageContent) -> Message {
        Message { content, tool_call_id: Some("c1".into()), ..Message::new(Role::Tool, "") }
    }

    #[test]
    fn a_long_result_keeps_its_beginning_and_says_how_long_it_was() {
        let max = minimum() + 10;
        let (kept, data) = limit(tool(MessageContent::Text("é".repeat(500))), max);
        let MessageContent::Text(text) = &kept.content else { panic!() };
        assert!(text.len() <= max, "{}", text.len());
        assert!(text.starts_with("éééé") && text.ends_with(&marker(1000)), "{text}");
        let data = data.unwrap();
        assert_eq!(data["original_text_utf8_bytes"], 1000);
        assert_eq!(data["stored_text_utf8_bytes"], text.len());
        assert_eq!(data["content_kind"], "string");
        assert_eq!(data["tool_call_id"], "c1");

        let short = tool(MessageContent::Text("short".into()));
        assert_eq!(limit(short.clone(), max), (short, None));
        let user = Message::user("x".repeat(max * 2));
        assert!(limit(user, max).1.is_none(), "only tool results");
    }

    #[test]
    fn text_blocks_are_kept_until_one_does_not_fit() {
        let max = minimum() + 10;
        let blocks =
            vec![ContentBlock::text("0123456789"), ContentBlock::text("x".repeat(max)), ContentBlock::text("dropped")];
        let (kept, data) = limit(tool(MessageContent::Blocks(blocks)), max);
        let MessageContent::Blocks(blocks) = &kept.content else { panic!() };
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0], ContentBlock::text("0123456789"));
        assert_eq!(data.unwrap()["content_kind"], "text_blocks");
    }
}
