//! The Messages API on the wire: requests from upstream's `ChatRequest`
//! (system prompt at the top level, tool results as user `tool_result`
//! blocks, signed thinking blocks replayed as they came), responses (whole
//! or streamed event by event) back to `ChatResponse`.

use amplifier_provider_http::api::{Piece, Step, StreamDecoder};
use amplifier_provider_http::reply::{described, metadata, tool_arguments};
use amplifier_sdk::prelude::*;
use amplifier_sdk::ModelInfo;

/// Request settings that come from the provider's config.
pub struct Defaults<'a> {
    pub model: &'a str,
    pub max_tokens: u64,
    pub temperature: Option<f64>,
    /// Extended thinking for every request.
    pub extended_thinking: bool,
    pub thinking_budget_tokens: u64,
}

/// The token budget for thinking, when this request thinks: the config
/// turns it on for every request; a request turns it on with
/// `metadata.extended_thinking` or a `reasoning_effort` (low, medium, high).
fn thinking_budget(request: &ChatRequest, defaults: &Defaults<'_>) -> Option<u64> {
    let asked = request.metadata.as_ref().and_then(|m| m.get("extended_thinking")).and_then(Value::as_bool);
    let by_effort = match request.reasoning_effort.as_deref() {
        Some("low" | "minimal") => Some(2048),
        Some("medium") => Some(defaults.thinking_budget_tokens.max(4096)),
        Some("high") => Some(defaults.thinking_budget_tokens.max(16384)),
        _ => None,
    };
    match (asked, by_effort) {
        (Some(false), _) => None,
        (_, Some(budget)) => Some(budget),
        (Some(true), None) => Some(defaults.thinking_budget_tokens),
        (None, None) => defaults.extended_thinking.then_some(defaults.thinking_budget_tokens),
    }
}

/// The JSON body of `POST /v1/messages`.
pub fn request_body(request: &ChatRequest, defaults: &Defaults<'_>, stream: bool) -> Value {
    let mut max_tokens = request.max_output_tokens.unwrap_or(defaults.max_tokens);
    let thinking = thinking_budget(request, defaults).map(|budget| budget.max(1024));
    if let Some(budget) = thinking {
        // The budget is part of max_tokens and must leave room for the answer.
        max_tokens = max_tokens.max(budget + 1024);
    }
    let mut body = json!({
        "model": request.model.as_deref().unwrap_or(defaults.model),
        "max_tokens": max_tokens,
        "messages": messages(&request.messages),
    });
    let map = body.as_object_mut().expect("an object");
    let system = system(&request.messages);
    if !system.is_empty() {
        map.insert("system".into(), Value::Array(system));
    }
    if stream {
        map.insert("stream".into(), json!(true));
    }
    if let Some(tools) = request.tools.as_ref().filter(|tools| !tools.is_empty()) {
        let tools: Vec<Value> = tools
            .iter()
            .map(|tool| described(tool, json!({"name": tool.name, "input_schema": tool.parameters})))
            .collect();
        map.insert("tools".into(), Value::Array(tools));
        if let Some(choice) = request.tool_choice.as_ref().and_then(tool_choice) {
            map.insert("tool_choice".into(), choice);
        }
    }
    if let Some(budget) = thinking {
        map.insert("thinking".into(), json!({"type": "enabled", "budget_tokens": budget}));
    } else if let Some(temperature) = request.temperature.or(defaults.temperature) {
        // With thinking on, the API accepts no temperature but the default.
        map.insert("temperature".into(), json!(temperature));
    }
    if let Some(top_p) = request.top_p.filter(|_| thinking.is_none()) {
        map.insert("top_p".into(), json!(top_p));
    }
    if let Some(stop) = request.stop.as_ref().filter(|stop| !stop.is_empty()) {
        map.insert("stop_sequences".into(), json!(stop));
    }
    body
}

/// `tool_choice` in either vendor's spelling, as Anthropic's.
fn tool_choice(choice: &Value) -> Option<Value> {
    match choice {
        Value::String(mode) => match mode.as_str() {
            "auto" => Some(json!({"type": "auto"})),
            "required" | "any" => Some(json!({"type": "any"})),
            "none" => Some(json!({"type": "none"})),
            _ => None,
        },
        Value::Object(object) => match object.get("type").and_then(Value::as_str) {
            Some("auto" | "any" | "tool" | "none") => Some(choice.clone()),
            Some("function") => {
                let name = object.get("function").and_then(|f| f.get("name")).or_else(|| object.get("name"))?;
                Some(json!({"type": "tool", "name": name}))
            }
            _ => None,
        },
        _ => None,
    }
}

/// System and developer messages, as top-level `system` text blocks.
pub fn system(messages: &[Message]) -> Vec<Value> {
    messages
        .iter()
        .filter(|m| matches!(m.role, Role::System | Role::Developer))
        .map(|m| m.content.text())
        .filter(|text| !text.is_empty())
        .map(|text| json!({"type": "text", "text": text}))
        .collect()
}

/// The conversation as alternating `user`/`assistant` messages of content
/// blocks. Tool results join the next user turn; consecutive messages of one
/// role merge (the API wants every result of a turn's tool calls in the one
/// user message that follows it). Thinking blocks without a signature (from
/// another provider) are dropped: the API refuses them.
pub fn messages(messages: &[Message]) -> Vec<Value> {
    let mut out: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for message in messages {
        let (role, blocks) = match message.role {
            Role::System | Role::Developer => continue,
            Role::User => ("user", user_blocks(&message.content)),
            Role::Tool | Role::Function => ("user", tool_blocks(message)),
            Role::Assistant => ("assistant", assistant_blocks(message)),
        };
        if blocks.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some((last, existing)) if *last == role => existing.extend(blocks),
            _ => out.push((role, blocks)),
        }
    }
    out.into_iter().map(|(role, content)| json!({"role": role, "content": content})).collect()
}

fn text_block(text: &str) -> Option<Value> {
    // The API refuses empty text blocks.
    (!text.is_empty()).then(|| json!({"type": "text", "text": text}))
}

/// A block's `cache_control`, kept among its extensions (upstream's
/// `extensions`), goes to the API with it: a context or hook that marks a
/// cache breakpoint gets one. No other unknown key is sent, since the API
/// refuses keys it does not know.
fn cached(mut block: Value, extensions: &JsonMap) -> Value {
    if let (Some(cache_control), Some(object)) = (extensions.get("cache_control"), block.as_object_mut()) {
        object.insert("cache_control".into(), cache_control.clone());
    }
    block
}

/// Whether a tool result block is marked failed (as a message would be).
fn flagged(extensions: &JsonMap) -> bool {
    extensions.get(TOOL_ERROR_KEY) == Some(&Value::Bool(true))
}

/// A `tool_result` block; `is_error` tells the model the call failed.
fn tool_result(tool_use_id: &str, output: &Value, is_error: bool) -> Value {
    let content = match output {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    let mut block = json!({"type": "tool_result", "tool_use_id": tool_use_id, "content": content});
    if is_error {
        block["is_error"] = json!(true);
    }
    block
}

fn user_blocks(content: &MessageContent) -> Vec<Value> {
    match content {
        MessageContent::Text(text) => text_block(text).into_iter().collect(),
        MessageContent::Blocks(blocks) => blocks
            .iter()
            .filter_map(|block| match block {
                ContentBlock::Text { text, extensions, .. } => text_block(text).map(|b| cached(b, extensions)),
                ContentBlock::Image { source, extensions, .. } => {
                    Some(cached(json!({"type": "image", "source": source}), extensions))
                }
                ContentBlock::ToolResult { tool_call_id, output, extensions, .. } => {
                    Some(cached(tool_result(tool_call_id, output, flagged(extensions)), extensions))
                }
                _ => None,
            })
            .collect(),
    }
}

fn tool_blocks(message: &Message) -> Vec<Value> {
    if let MessageContent::Blocks(blocks) = &message.content {
        let results: Vec<Value> = blocks
            .iter()
            .filter_map(|block| match block {
                ContentBlock::ToolResult { tool_call_id, output, extensions, .. } => {
                    Some(cached(tool_result(tool_call_id, output, flagged(extensions)), extensions))
                }
                _ => None,
            })
            .collect();
        if !results.is_empty() {
            return results;
        }
    }
    let Some(id) = &message.tool_call_id else { return Vec::new() };
    let mut block = tool_result(id, &Value::String(message.content.text()), message.is_tool_error());
    // The images a tool returned go inside its result, after the text.
    let images = message.image_sources();
    if !images.is_empty() {
        let text = block["content"].take();
        let mut content: Vec<Value> = text.as_str().and_then(text_block).into_iter().collect();
        content.extend(images.into_iter().map(|source| json!({"type": "image", "source": source})));
        block["content"] = Value::Array(content);
    }
    vec![block]
}

fn assistant_blocks(message: &Message) -> Vec<Value> {
    let mut blocks = Vec::new();
    let mut tool_ids: Vec<String> = Vec::new();
    let mut tool_use = |blocks: &mut Vec<Value>, id: &str, name: &str, input: &Value| {
        if tool_ids.iter().any(|seen| seen == id) {
            return;
        }
        tool_ids.push(id.to_owned());
        let input = if input.is_object() { input.clone() } else { json!({}) };
        blocks.push(json!({"type": "tool_use", "id": id, "name": name, "input": input}));
    };
    match &message.content {
        MessageContent::Text(text) => blocks.extend(text_block(text)),
        MessageContent::Blocks(content) => {
            for block in content {
                match block {
                    // Replayed exactly as received: the signature covers the text.
                    ContentBlock::Thinking { thinking, signature: Some(signature), .. } => {
                        blocks.push(json!({"type": "thinking", "thinking": thinking, "signature": signature}))
                    }
                    ContentBlock::Thinking { signature: None, .. } => {
                        tracing::debug!("dropped a thinking block without a signature")
                    }
                    ContentBlock::RedactedThinking { data, .. } => {
                        blocks.push(json!({"type": "redacted_thinking", "data": data}))
                    }
                    ContentBlock::Text { text, extensions, .. } => {
                        blocks.extend(text_block(text).map(|b| cached(b, extensions)))
                    }
                    ContentBlock::ToolCall { id, name, input, .. } => tool_use(&mut blocks, id, name, input),
                    _ => {}
                }
            }
        }
    }
    for call in message.tool_calls.iter().flatten() {
        tool_use(&mut blocks, &call.id, &call.name, &call.arguments);
    }
    blocks
}

/// `usage` as upstream's `Usage`: `input_tokens` counts every prompt token
/// (uncached + cache reads + cache writes), with the cache parts broken out.
pub fn usage(usage: &Value) -> Usage {
    let number = |key: &str| usage.get(key).and_then(Value::as_u64);
    let cache_read = number("cache_read_input_tokens");
    let cache_write = number("cache_creation_input_tokens");
    let input_tokens = number("input_tokens").unwrap_or(0) + cache_read.unwrap_or(0) + cache_write.unwrap_or(0);
    let output_tokens = number("output_tokens").unwrap_or(0);
    Usage {
        input_tokens,
        output_tokens,
        total_tokens: input_tokens + output_tokens,
        cache_read_tokens: cache_read,
        cache_write_tokens: cache_write,
        ..Usage::default()
    }
}

/// One content block of a response.
#[derive(Debug, Clone)]
enum Block {
    Text(String),
    Thinking { thinking: String, signature: String },
    Redacted(String),
    ToolUse { id: String, name: String, input_json: String, input: Option<Value> },
    Other,
}

impl Block {
    fn from_start(block: &Value) -> Block {
        let text = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        match block.get("type").and_then(Value::as_str).unwrap_or_default() {
            "text" => Block::Text(text("text")),
            "thinking" => Block::Thinking { thinking: text("thinking"), signature: text("signature") },
            "redacted_thinking" => Block::Redacted(text("data")),
            "tool_use" => {
                // Streamed: `input` starts as `{}` and arrives as JSON fragments.
                // Whole: `input` is the input.
                let input = block.get("input").filter(|i| i.as_object().is_some_and(|o| !o.is_empty())).cloned();
                Block::ToolUse { id: text("id"), name: text("name"), input_json: String::new(), input }
            }
            _ => Block::Other,
        }
    }

    fn into_content(self) -> Option<ContentBlock> {
        Some(match self {
            Block::Text(text) => ContentBlock::text(text),
            Block::Thinking { thinking, signature } => ContentBlock::Thinking {
                extensions: Default::default(),
                thinking,
                signature: (!signature.is_empty()).then_some(signature),
                content: None,
                visibility: None,
            },
            Block::Redacted(data) => {
                ContentBlock::RedactedThinking { extensions: Default::default(), data, visibility: None }
            }
            Block::ToolUse { id, name, input_json, input } => ContentBlock::ToolCall {
                extensions: Default::default(),
                id,
                name,
                input: if input_json.is_empty() {
                    input.unwrap_or_else(|| json!({}))
                } else {
                    tool_arguments(&input_json)
                },
                visibility: None,
            },
            Block::Other => return None,
        })
    }
}

/// The response from its blocks: content in order (tool calls included, so
/// thinking stays before the tool use it led to), plus `tool_calls`.
fn response(
    blocks: Vec<Block>,
    stop_reason: Option<String>,
    usage: Option<Usage>,
    metadata: Option<JsonMap>,
) -> ChatResponse {
    let content: Vec<ContentBlock> = blocks.into_iter().filter_map(Block::into_content).collect();
    let tool_calls: Vec<ToolCall> = content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::ToolCall { id, name, input, .. } => {
                Some(ToolCall::new(id.clone(), name.clone(), input.clone()))
            }
            _ => None,
        })
        .collect();
    ChatResponse {
        content,
        tool_calls: (!tool_calls.is_empty()).then_some(tool_calls),
        usage,
        finish_reason: stop_reason,
        metadata,
        ..ChatResponse::default()
    }
}

/// A whole (non-streamed) message.
pub fn parse_response(body: &Value) -> Result<ChatResponse, String> {
    let content = body.get("content").and_then(Value::as_array).ok_or("the response has no content")?;
    let blocks = content.iter().map(Block::from_start).collect();
    let stop_reason = body.get("stop_reason").and_then(Value::as_str).map(str::to_owned);
    Ok(response(blocks, stop_reason, body.get("usage").map(usage), metadata(body)))
}

/// Builds a `ChatResponse` from the stream's events: `message_start`,
/// `content_block_start`/`delta`/`stop` (`text_delta`, `input_json_delta`,
/// `thinking_delta`, `signature_delta`), `message_delta`, `message_stop`
/// (and `ping`, ignored).
#[derive(Default)]
pub struct StreamAccumulator {
    /// By content block index.
    blocks: Vec<Option<Block>>,
    /// Content block index → tool call index.
    tool_indices: Vec<(usize, usize)>,
    usage: Option<Value>,
    stop_reason: Option<String>,
    metadata: Option<JsonMap>,
}

impl StreamAccumulator {
    fn apply_event(&mut self, data: &Value) -> Step {
        let index = data.get("index").and_then(Value::as_u64).map(|i| i as usize);
        let mut pieces = Vec::new();
        match data.get("type").and_then(Value::as_str).unwrap_or_default() {
            "message_start" => {
                let message = data.get("message").cloned().unwrap_or_default();
                self.metadata = metadata(&message);
                self.usage = message.get("usage").cloned();
            }
            "content_block_start" => {
                let index = index.unwrap_or(self.blocks.len());
                let block = Block::from_start(data.get("content_block").unwrap_or(&Value::Null));
                match &block {
                    Block::ToolUse { id, name, .. } => {
                        let tool_index = self.tool_indices.len();
                        self.tool_indices.push((index, tool_index));
                        pieces.push(Piece::ToolCall {
                            index: tool_index,
                            id: Some(id.clone()),
                            name: Some(name.clone()),
                            arguments: String::new(),
                        });
                    }
                    Block::Text(text) if !text.is_empty() => pieces.push(Piece::Text { index, text: text.clone() }),
                    Block::Thinking { thinking, .. } if !thinking.is_empty() => {
                        pieces.push(Piece::Thinking { index, text: thinking.clone() })
                    }
                    _ => {}
                }
                if self.blocks.len() <= index {
                    self.blocks.resize(index + 1, None);
                }
                self.blocks[index] = Some(block);
            }
            "content_block_delta" => {
                let Some(index) = index else { return Step::Pieces(pieces) };
                let delta = data.get("delta").cloned().unwrap_or_default();
                let text = |key: &str| delta.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
                let tool_index = self.tool_indices.iter().find(|(block, _)| *block == index).map(|(_, tool)| *tool);
                match (self.blocks.get_mut(index).and_then(Option::as_mut), delta.get("type").and_then(Value::as_str)) {
                    (Some(Block::Text(existing)), Some("text_delta")) => {
                        let text = text("text");
                        existing.push_str(&text);
                        pieces.push(Piece::Text { index, text });
                    }
                    (Some(Block::Thinking { thinking, .. }), Some("thinking_delta")) => {
                        let text = text("thinking");
                        thinking.push_str(&text);
                        pieces.push(Piece::Thinking { index, text });
                    }
                    (Some(Block::Thinking { signature, .. }), Some("signature_delta")) => {
                        signature.push_str(&text("signature"))
                    }
                    (Some(Block::ToolUse { input_json, .. }), Some("input_json_delta")) => {
                        let fragment = text("partial_json");
                        input_json.push_str(&fragment);
                        if let Some(tool_index) = tool_index {
                            pieces.push(Piece::ToolCall {
                                index: tool_index,
                                id: None,
                                name: None,
                                arguments: fragment,
                            });
                        }
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = data.get("delta").and_then(|d| d.get("stop_reason")).and_then(Value::as_str) {
                    self.stop_reason = Some(reason.to_owned());
                }
                // Cumulative counts: newer fields overwrite the start's.
                if let Some(Value::Object(update)) = data.get("usage") {
                    let usage = self.usage.get_or_insert_with(|| json!({}));
                    if let Some(usage) = usage.as_object_mut() {
                        for (key, value) in update {
                            if !value.is_null() {
                                usage.insert(key.clone(), value.clone());
                            }
                        }
                    }
                }
            }
            "message_stop" => return Step::Done,
            "error" => return Step::Error,
            _ => {}
        }
        Step::Pieces(pieces)
    }
}

impl StreamDecoder for StreamAccumulator {
    fn apply(&mut self, data: &str) -> Result<Step, String> {
        let event: Value = serde_json::from_str(data).map_err(|err| format!("an event is not JSON: {err}"))?;
        Ok(self.apply_event(&event))
    }

    fn finish(self) -> ChatResponse {
        let usage = self.usage.as_ref().map(usage);
        response(self.blocks.into_iter().flatten().collect(), self.stop_reason, usage, self.metadata)
    }
}

/// `GET /v1/models` as model infos.
pub fn models(body: &Value) -> Vec<ModelInfo> {
    body.get("data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|model| {
            let id = model.get("id").and_then(Value::as_str)?.to_owned();
            let display_name = model.get("display_name").and_then(Value::as_str).unwrap_or(&id).to_owned();
            let context_window = model.get("max_input_tokens").and_then(Value::as_u64).unwrap_or(0);
            let max_output_tokens = model.get("max_tokens").and_then(Value::as_u64).unwrap_or(0);
            Some(ModelInfo { id, display_name, context_window, max_output_tokens, ..ModelInfo::default() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Defaults<'static> {
        Defaults {
            model: "claude-test",
            max_tokens: 1000,
            temperature: Some(0.5),
            extended_thinking: false,
            thinking_budget_tokens: 2048,
        }
    }

    fn thinking(text: &str, signature: Option<&str>) -> ContentBlock {
        ContentBlock::Thinking {
            extensions: Default::default(),
            thinking: text.into(),
            signature: signature.map(str::to_owned),
            content: None,
            visibility: None,
        }
    }

    #[test]
    fn system_goes_to_the_top_and_tool_turns_become_blocks() {
        let assistant = Message {
            content: MessageContent::Blocks(vec![
                thinking("Let me see.\n", Some("c2ln+/=")),
                thinking("unsigned, from elsewhere", None),
                ContentBlock::text("Checking."),
                ContentBlock::ToolCall {
                    extensions: Default::default(),
                    id: "toolu_1".into(),
                    name: "echo".into(),
                    input: json!({"text": "a"}),
                    visibility: None,
                },
            ]),
            tool_calls: Some(vec![
                ToolCall::new("toolu_1", "echo", json!({"text": "a"})),
                ToolCall::new("toolu_2", "echo", json!({"text": "b"})),
            ]),
            ..Message::new(Role::Assistant, "")
        };
        let request = ChatRequest {
            messages: vec![
                Message::system("Be brief."),
                Message::user("echo a and b"),
                assistant,
                Message::tool_result("toolu_1", "a"),
                Message::tool_result("toolu_2", "b"),
                Message::system("Injected reminder."),
            ]
            .into(),
            tools: Some(vec![ToolSpec::new("echo", "Echoes", json!({"type": "object"}))]),
            tool_choice: Some(json!("required")),
            ..ChatRequest::default()
        };
        let body = request_body(&request, &defaults(), true);
        assert_eq!(
            body["system"],
            json!([{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Injected reminder."}])
        );
        assert_eq!((body["max_tokens"].as_u64(), body["stream"].as_bool()), (Some(1000), Some(true)));
        assert_eq!(body["temperature"], 0.5);
        assert_eq!(
            body["tools"],
            json!([{"name": "echo", "description": "Echoes", "input_schema": {"type": "object"}}])
        );
        assert_eq!(body["tool_choice"], json!({"type": "any"}));
        let messages = body["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[0], json!({"role": "user", "content": [{"type": "text", "text": "echo a and b"}]}));
        assert_eq!(
            messages[1],
            json!({"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Let me see.\n", "signature": "c2ln+/="},
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "echo", "input": {"text": "a"}},
                {"type": "tool_use", "id": "toolu_2", "name": "echo", "input": {"text": "b"}}
            ]})
        );
        assert_eq!(
            messages[2],
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a"},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "b"}
            ]})
        );
    }

    #[test]
    fn a_tools_images_go_inside_its_result_after_the_text() {
        let source = json!({"type": "base64", "media_type": "image/png", "data": "AAAA"});
        let result = ToolResult { images: vec![source.clone()], ..ToolResult::ok("[image: image/png, 3 bytes]") };
        let wire = messages(&[Message::tool_result_of("toolu_1", &result)]);
        assert_eq!(
            wire[0]["content"][0],
            json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
                {"type": "text", "text": "[image: image/png, 3 bytes]"},
                {"type": "image", "source": source}
            ]})
        );
    }

    #[test]
    fn a_blocks_cache_control_extension_goes_to_the_api_and_nothing_else_unknown() {
        // As a stored message would come back: the extension read from JSON.
        let message: Message = serde_json::from_value(json!({
            "role": "user",
            "content": [{"type": "text", "text": "the long document", "cache_control": {"type": "ephemeral"}, "vendor_id": 7}],
        }))
        .unwrap();
        let wire = messages(&[message]);
        assert_eq!(
            wire,
            [
                json!({"role": "user", "content": [{"type": "text", "text": "the long document", "cache_control": {"type": "ephemeral"}}]})
            ]
        );
    }

    #[test]
    fn thinking_is_enabled_by_config_metadata_or_effort() {
        let plain = ChatRequest { messages: vec![Message::user("hi")].into(), ..ChatRequest::default() };
        assert!(request_body(&plain, &defaults(), false).get("thinking").is_none());
        let asked = ChatRequest {
            metadata: Some(json!({"extended_thinking": true}).as_object().unwrap().clone()),
            ..plain.clone()
        };
        let body = request_body(&asked, &defaults(), false);
        assert_eq!(body["thinking"], json!({"type": "enabled", "budget_tokens": 2048}));
        assert_eq!(body["max_tokens"], 3072, "room for the answer beyond the budget");
        assert!(body.get("temperature").is_none());
        let effort = ChatRequest { reasoning_effort: Some("high".into()), ..plain.clone() };
        assert_eq!(request_body(&effort, &defaults(), false)["thinking"]["budget_tokens"], 16384);
        let always = Defaults { extended_thinking: true, ..defaults() };
        assert!(request_body(&plain, &always, false).get("thinking").is_some());
    }

    #[test]
    fn a_whole_message_parses_with_cache_usage() {
        let body = json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [
                {"type": "thinking", "thinking": "hm", "signature": "sig"},
                {"type": "text", "text": "Calling."},
                {"type": "tool_use", "id": "toolu_1", "name": "echo", "input": {"text": "x"}}
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 10, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 20, "output_tokens": 7}
        });
        let response = parse_response(&body).unwrap();
        assert!(matches!(&response.content[0], ContentBlock::Thinking { signature: Some(s), .. } if s == "sig"));
        assert_eq!(response.text(), "Calling.");
        assert_eq!(response.tool_calls.as_ref().unwrap()[0].arguments, json!({"text": "x"}));
        let usage = response.usage.unwrap();
        assert_eq!((usage.input_tokens, usage.output_tokens, usage.total_tokens), (130, 7, 137));
        assert_eq!((usage.cache_read_tokens, usage.cache_write_tokens), (Some(100), Some(20)));
        assert_eq!(response.finish_reason.as_deref(), Some("tool_use"));
    }

    #[test]
    fn streamed_events_assemble_thinking_text_and_tool_use() {
        let events = [
            json!({"type": "message_start", "message": {"id": "msg_1", "model": "claude-test", "content": [], "usage": {"input_tokens": 12, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Think"}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "ing."}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQB"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "ping"}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Sure."}}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_9", "name": "echo", "input": {}}}),
            json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"text\": "}}),
            json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "\"x\"}"}}),
            json!({"type": "content_block_stop", "index": 2}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 42}}),
        ];
        let mut acc = StreamAccumulator::default();
        let mut pieces = Vec::new();
        for event in &events {
            if let Step::Pieces(more) = acc.apply_event(event) {
                pieces.extend(more);
            }
        }
        assert!(matches!(acc.apply_event(&json!({"type": "message_stop"})), Step::Done));
        assert_eq!(pieces[0], Piece::Thinking { index: 0, text: "Think".into() });
        assert_eq!(pieces[2], Piece::Text { index: 1, text: "Sure.".into() });
        assert_eq!(
            pieces[3],
            Piece::ToolCall {
                index: 0,
                id: Some("toolu_9".into()),
                name: Some("echo".into()),
                arguments: String::new()
            }
        );
        assert_eq!(pieces[5], Piece::ToolCall { index: 0, id: None, name: None, arguments: "\"x\"}".into() });
        let response = acc.finish();
        assert!(
            matches!(&response.content[0], ContentBlock::Thinking { thinking, signature: Some(s), .. } if thinking == "Thinking." && s == "EqQB")
        );
        assert_eq!(response.text(), "Sure.");
        let calls = response.tool_calls.unwrap();
        assert_eq!((calls[0].id.as_str(), &calls[0].arguments), ("toolu_9", &json!({"text": "x"})));
        let usage = response.usage.unwrap();
        assert_eq!((usage.input_tokens, usage.output_tokens), (12, 42));
        assert_eq!(response.finish_reason.as_deref(), Some("tool_use"));
        assert_eq!(response.metadata.unwrap()["model"], "claude-test");
        assert!(matches!(StreamAccumulator::default().apply_event(&json!({"type": "error"})), Step::Error));
    }
}
