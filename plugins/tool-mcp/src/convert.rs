//! MCP shapes to amplifier shapes: tool names and tool results.

use amplifier_sdk::prelude::*;
use amplifier_sdk::tool_name;

/// `<server>__<tool>` ([`tool_name::prefixed`]) cut to [`tool_name::MAX_LEN`],
/// so any provider accepts it. The original MCP name is kept beside it for
/// the call.
pub fn tool_name(server: &str, tool: &str) -> String {
    let mut name = tool_name::prefixed(server, tool);
    name.truncate(tool_name::MAX_LEN); // ASCII only by now, so this cuts on a character boundary
    name
}

/// A `tools/call` result (as MCP JSON) as a [`ToolResult`], sent once: the
/// text of the `content` blocks joined by newlines (audio and binary
/// resources as a one-line placeholder), or the `structuredContent` object
/// when the tool declared an output schema (`structured`) or the text is
/// only that object serialized (which MCP asks servers to add, and FastMCP
/// always does). Images are the result's `images` (providers that take
/// images in tool results send them), with a line in the text naming each.
/// `isError: true` makes a failed result carrying the text.
pub fn tool_result(server: &str, tool: &str, result: &Value, structured: bool) -> ToolResult {
    let images = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("image"))
        .filter_map(|block| {
            let data = block.get("data").and_then(Value::as_str)?;
            let media_type = block.get("mimeType").and_then(Value::as_str).unwrap_or("image/png");
            Some(json!({"type": "base64", "media_type": media_type, "data": data}))
        })
        .collect();
    ToolResult { images, ..content_result(server, tool, result, structured) }
}

fn content_result(server: &str, tool: &str, result: &Value, structured: bool) -> ToolResult {
    let text = content_text(result.get("content"));
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let message = if text.is_empty() {
            format!("MCP tool '{tool}' of server '{server}' reported an error without a message")
        } else {
            text
        };
        return ToolResult::error("McpToolError", message);
    }
    match result.get("structuredContent") {
        Some(content) if structured || serde_json::from_str::<Value>(&text).is_ok_and(|t| t == *content) => {
            ToolResult::ok(content.clone())
        }
        _ => ToolResult::ok(Value::String(text)),
    }
}

fn content_text(content: Option<&Value>) -> String {
    let Some(blocks) = content.and_then(Value::as_array) else {
        return String::new();
    };
    let parts: Vec<String> = blocks.iter().map(block_text).collect();
    parts.join("\n")
}

/// One content block as text (a placeholder for what the model cannot read).
pub fn block_text(block: &Value) -> String {
    let str_of = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    match block.get("type").and_then(Value::as_str).unwrap_or_default() {
        "text" => str_of(block, "text"),
        "image" => format!("[image: {}, {} bytes]", str_of(block, "mimeType"), base64_len(block.get("data"))),
        "audio" => {
            format!("[audio: {}, {} bytes, not shown]", str_of(block, "mimeType"), base64_len(block.get("data")))
        }
        "resource" => {
            let resource = block.get("resource").cloned().unwrap_or_default();
            let uri = str_of(&resource, "uri");
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => format!("[resource {uri}]\n{text}"),
                None => format!(
                    "[resource {uri}: {}, {} bytes, not shown]",
                    str_of(&resource, "mimeType"),
                    base64_len(resource.get("blob"))
                ),
            }
        }
        "resource_link" => {
            let mut line = format!("[resource link {}", str_of(block, "uri"));
            for key in ["name", "description"] {
                let value = str_of(block, key);
                if !value.is_empty() {
                    line.push_str(": ");
                    line.push_str(&value);
                }
            }
            line.push(']');
            line
        }
        _ => block.to_string(),
    }
}

/// The contents of a `resources/read` answer as text: each text resource
/// whole (headed by its URI when there are several), a binary one as a
/// one-line placeholder.
pub fn resource_text(contents: &[Value]) -> String {
    match contents {
        [one] if one.get("text").is_some() => one["text"].as_str().unwrap_or_default().to_owned(),
        _ => {
            let parts: Vec<String> = contents
                .iter()
                .map(|resource| block_text(&json!({"type": "resource", "resource": resource})))
                .collect();
            parts.join("\n")
        }
    }
}

/// Decoded size of a base64 string.
fn base64_len(data: Option<&Value>) -> usize {
    let data = data.and_then(Value::as_str).unwrap_or_default().trim_end_matches('=');
    data.len() * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_read_as_their_text_and_binary_ones_as_a_placeholder() {
        let text = json!({"uri": "file:///a.txt", "mimeType": "text/plain", "text": "alpha"});
        assert_eq!(resource_text(std::slice::from_ref(&text)), "alpha");
        let blob = json!({"uri": "file:///b.png", "mimeType": "image/png", "blob": "AAAA"});
        assert_eq!(
            resource_text(&[text, blob]),
            "[resource file:///a.txt]\nalpha\n[resource file:///b.png: image/png, 3 bytes, not shown]"
        );
    }

    #[test]
    fn names_are_prefixed_sanitised_and_bounded() {
        assert_eq!(tool_name("fs", "read.file/v2 now"), "fs__read_file_v2_now");
        let long = tool_name("server", &"x".repeat(100));
        assert_eq!(long.len(), amplifier_sdk::tool_name::MAX_LEN);
        assert!(long.starts_with("server__x"));
    }

    #[test]
    fn text_blocks_are_joined_and_other_blocks_summarised() {
        let result = json!({"content": [
            {"type": "text", "text": "first"},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "inside"}},
            {"type": "resource", "resource": {"uri": "file:///b.bin", "blob": "AAAAAA==", "mimeType": "application/zip"}},
            {"type": "resource_link", "uri": "file:///c", "name": "c"},
        ]});
        let out = tool_result("s", "t", &result, false);
        assert!(out.success);
        assert_eq!(out.images, [json!({"type": "base64", "media_type": "image/png", "data": "AAAA"})]);
        assert_eq!(
            out.output.unwrap(),
            "first\n[image: image/png, 3 bytes]\n[resource file:///a.txt]\ninside\n\
             [resource file:///b.bin: application/zip, 4 bytes, not shown]\n[resource link file:///c: c]"
        );
    }

    #[test]
    fn a_result_with_structured_content_is_sent_once() {
        // FastMCP: the text is the object, pretty-printed.
        let same = json!({"content": [{"type": "text", "text": "{\n  \"t\": 1\n}"}], "structuredContent": {"t": 1}});
        assert_eq!(tool_result("s", "t", &same, false).output.unwrap(), json!({"t": 1}));
        // Different text: the object only when the tool declared an output schema.
        let other = json!({"content": [{"type": "text", "text": "t is one"}], "structuredContent": {"t": 1}});
        assert_eq!(tool_result("s", "t", &other, true).output.unwrap(), json!({"t": 1}));
        assert_eq!(tool_result("s", "t", &other, false).output.unwrap(), json!("t is one"));
    }

    #[test]
    fn is_error_makes_a_failed_result() {
        let out =
            tool_result("s", "t", &json!({"content": [{"type": "text", "text": "boom"}], "isError": true}), false);
        assert!(!out.success);
        assert_eq!(out.error.unwrap()["type"], "McpToolError");
        assert_eq!(out.output.unwrap(), "boom");
        let out = tool_result("s", "t", &json!({"content": [], "isError": true}), false);
        assert!(out.output.unwrap().as_str().unwrap().contains("'t' of server 's'"));
    }
}
