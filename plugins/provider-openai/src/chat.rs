//! Chat Completions on the wire (`POST /chat/completions`): requests from
//! upstream's `ChatRequest`, responses (whole or streamed chunk by chunk)
//! back to `ChatResponse`. Also what the Responses API reads alike: tool
//! output as text, image URLs, thinking blocks and `GET /models`.

use std::collections::BTreeMap;

use amplifier_provider_http::api::{Piece, Step, StreamDecoder};
use amplifier_provider_http::reply::{described, metadata, tool_arguments};
use amplifier_sdk::prelude::*;
use amplifier_sdk::ModelInfo;

/// Request settings that come from the provider's config.
pub struct Defaults<'a> {
    pub model: &'a str,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u64>,
    /// Reasoning effort (`low`, `medium`, ...), for reasoning models.
    pub reasoning: Option<&'a str>,
}

/// The JSON body of `POST /chat/completions`.
pub fn request_body(request: &ChatRequest, defaults: &Defaults<'_>, stream: bool) -> Value {
    let model = request.model.as_deref().unwrap_or(defaults.model);
    let reasoning_model = crate::reasoning_model(model);
    let mut body = json!({"model": model, "messages": messages(&request.messages)});
    let map = body.as_object_mut().expect("an object");
    if stream {
        map.insert("stream".into(), json!(true));
        map.insert("stream_options".into(), json!({"include_usage": true}));
    }
    if let Some(tools) = request.tools.as_ref().filter(|tools| !tools.is_empty()) {
        let tools: Vec<Value> = tools
            .iter()
            .map(|tool| {
                let function = described(tool, json!({"name": tool.name, "parameters": tool.parameters}));
                json!({"type": "function", "function": function})
            })
            .collect();
        map.insert("tools".into(), Value::Array(tools));
        if let Some(choice) = &request.tool_choice {
            map.insert("tool_choice".into(), choice.clone());
        }
    }
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(value) = value {
            map.insert(key.into(), value);
        }
    };
    // Reasoning models (o-series, GPT-5) refuse `max_tokens`; they take
    // `max_completion_tokens` instead.
    for (key, value) in sampling(request, defaults.temperature, reasoning_model) {
        put(key, Some(value));
    }
    put(
        if reasoning_model { "max_completion_tokens" } else { "max_tokens" },
        request.max_output_tokens.or(defaults.max_tokens).map(|n| json!(n)),
    );
    put("stop", request.stop.as_ref().filter(|stop| !stop.is_empty()).map(|stop| json!(stop)));
    put("response_format", request.response_format.clone());
    put("reasoning_effort", request.reasoning_effort.as_deref().or(defaults.reasoning).map(|effort| json!(effort)));
    body
}

/// `temperature` and `top_p`, the request's over the config's, unless the
/// model is a reasoning model: those refuse sampling settings.
pub(crate) fn sampling(
    request: &ChatRequest,
    temperature: Option<f64>,
    reasoning_model: bool,
) -> Vec<(&'static str, Value)> {
    let settings = [("temperature", request.temperature.or(temperature)), ("top_p", request.top_p)];
    match reasoning_model {
        true => Vec::new(),
        false => settings.into_iter().filter_map(|(key, value)| Some((key, json!(value?)))).collect(),
    }
}

/// Upstream's messages as Chat Completions messages. Thinking blocks have
/// no place in Chat Completions and are left out; tool results (as `tool`
/// messages or `tool_result` blocks) become `tool` messages.
pub fn messages(messages: &[Message]) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    // Tool messages carry text only: the images tools returned follow the
    // turn's results in a user message.
    let mut images: Vec<Value> = Vec::new();
    for message in messages {
        let blocks = blocks(message);
        let results = tool_results(message, blocks);
        if results.is_empty() && !images.is_empty() {
            out.push(json!({"role": "user", "content": std::mem::take(&mut images)}));
        }
        for ToolOutput { id, text, image_urls } in results {
            out.push(json!({"role": "tool", "tool_call_id": id, "content": text}));
            if !image_urls.is_empty() {
                images.push(json!({"type": "text", "text": format!("The images tool call {id} returned:")}));
                images
                    .extend(image_urls.into_iter().map(|url| json!({"type": "image_url", "image_url": {"url": url}})));
            }
        }
        match message.role {
            Role::Tool | Role::Function => {}
            Role::Assistant => out.push(assistant(message, blocks)),
            Role::User => {
                if let Some(user) = user(message, blocks) {
                    out.push(user);
                }
            }
            // Local servers know `system` better than `developer`; OpenAI treats them alike.
            Role::System | Role::Developer => out.push(json!({"role": "system", "content": message.content.text()})),
        }
    }
    if !images.is_empty() {
        out.push(json!({"role": "user", "content": images}));
    }
    out
}

/// A message's content blocks (none for plain text).
pub(crate) fn blocks(message: &Message) -> &[ContentBlock] {
    match &message.content {
        MessageContent::Blocks(blocks) => blocks,
        MessageContent::Text(_) => &[],
    }
}

/// One tool result on its way to the wire.
pub(crate) struct ToolOutput<'a> {
    pub id: &'a str,
    /// Neither API has an error flag: the text carries it.
    pub text: String,
    /// The images the tool returned, as URLs.
    pub image_urls: Vec<String>,
}

/// The tool results a message carries: its `tool_result` blocks, and
/// itself when it is a tool message.
pub(crate) fn tool_results<'a>(message: &'a Message, blocks: &'a [ContentBlock]) -> Vec<ToolOutput<'a>> {
    let mut results: Vec<ToolOutput<'a>> = blocks
        .iter()
        .filter_map(|block| match block {
            ContentBlock::ToolResult { tool_call_id, output, .. } => {
                Some(ToolOutput { id: tool_call_id, text: output_text(output), image_urls: Vec::new() })
            }
            _ => None,
        })
        .collect();
    if matches!(message.role, Role::Tool | Role::Function) {
        if let Some(id) = message.tool_call_id.as_deref() {
            let image_urls = message.image_sources().into_iter().filter_map(image_url).collect();
            results.push(ToolOutput { id, text: message.tool_result_text(), image_urls });
        }
    }
    results
}

fn output_text(output: &Value) -> String {
    match output {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn user(message: &Message, blocks: &[ContentBlock]) -> Option<Value> {
    let text_part = |text| json!({"type": "text", "text": text});
    let image_part = |url| json!({"type": "image_url", "image_url": {"url": url}});
    let content = user_content(message, blocks, text_part, image_part)?;
    Some(json!({"role": "user", "content": content}))
}

/// A user message's content: its text, or with images, parts that
/// `text_part` and `image_part` make; `None` when it holds tool results
/// only (they go as messages or items of their own).
pub(crate) fn user_content(
    message: &Message,
    blocks: &[ContentBlock],
    text_part: fn(String) -> Value,
    image_part: fn(String) -> Value,
) -> Option<Value> {
    if !blocks.is_empty() && blocks.iter().all(|block| matches!(block, ContentBlock::ToolResult { .. })) {
        return None;
    }
    let text = message.content.text();
    let images: Vec<Value> = blocks
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Image { source, .. } => image_url(source),
            _ => None,
        })
        .map(image_part)
        .collect();
    if images.is_empty() {
        // Plain string content: local servers' chat templates expect it.
        return Some(json!(text));
    }
    let mut parts = Vec::new();
    if !text.is_empty() {
        parts.push(text_part(text));
    }
    parts.extend(images);
    Some(Value::Array(parts))
}

/// `{type: base64, media_type, data}` or `{type: url, url}` as a URL (a `data:` URL for base64).
fn image_url(source: &Value) -> Option<String> {
    Some(match source.get("type").and_then(Value::as_str) {
        Some("base64") => format!(
            "data:{};base64,{}",
            source.get("media_type").and_then(Value::as_str).unwrap_or("image/png"),
            source.get("data").and_then(Value::as_str)?
        ),
        _ => source.get("url").and_then(Value::as_str)?.to_owned(),
    })
}

fn assistant(message: &Message, blocks: &[ContentBlock]) -> Value {
    let text = message.content.text();
    let calls = tool_calls(message, blocks);
    if calls.is_empty() {
        return json!({"role": "assistant", "content": text});
    }
    let tool_calls: Vec<Value> = calls
        .into_iter()
        .map(|(id, name, arguments)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}))
        .collect();
    let content = if text.is_empty() { Value::Null } else { json!(text) };
    json!({"role": "assistant", "content": content, "tool_calls": tool_calls})
}

/// An assistant message's tool calls, from either shape (`tool_calls` or
/// `tool_call` blocks), each once, as `(id, name, arguments as JSON text)`.
pub(crate) fn tool_calls(message: &Message, blocks: &[ContentBlock]) -> Vec<(String, String, String)> {
    let mut calls: Vec<(String, String, String)> = Vec::new();
    let mut add = |id: &str, name: &str, arguments: &Value| {
        if !calls.iter().any(|(seen, _, _)| seen == id) {
            let arguments = match arguments {
                Value::String(raw) => raw.clone(),
                Value::Null => "{}".to_owned(),
                other => other.to_string(),
            };
            calls.push((id.to_owned(), name.to_owned(), arguments));
        }
    };
    for call in message.tool_calls.iter().flatten() {
        add(&call.id, &call.name, &call.arguments);
    }
    for block in blocks {
        if let ContentBlock::ToolCall { id, name, input, .. } = block {
            add(id, name, input);
        }
    }
    calls
}

/// Where a wire format keeps its token counts in `usage`.
pub(crate) struct UsageKeys {
    pub input: &'static str,
    pub output: &'static str,
    /// Holds `cached_tokens`.
    pub input_details: &'static str,
    /// Holds `reasoning_tokens`.
    pub output_details: &'static str,
}

const USAGE_KEYS: UsageKeys = UsageKeys {
    input: "prompt_tokens",
    output: "completion_tokens",
    input_details: "prompt_tokens_details",
    output_details: "completion_tokens_details",
};

/// `usage` as upstream's `Usage`.
fn usage(usage: &Value) -> Option<Usage> {
    usage_by(usage, &USAGE_KEYS)
}

/// `usage`, its counts under `keys`, as upstream's `Usage`.
pub(crate) fn usage_by(usage: &Value, keys: &UsageKeys) -> Option<Usage> {
    let usage = usage.as_object()?;
    let number = |value: Option<&Value>| value.and_then(Value::as_u64);
    let input_tokens = number(usage.get(keys.input)).unwrap_or(0);
    let output_tokens = number(usage.get(keys.output)).unwrap_or(0);
    Some(Usage {
        extensions: Default::default(),
        input_tokens,
        output_tokens,
        total_tokens: number(usage.get("total_tokens")).unwrap_or(input_tokens + output_tokens),
        reasoning_tokens: number(usage.get(keys.output_details).and_then(|d| d.get("reasoning_tokens"))),
        cache_read_tokens: number(usage.get(keys.input_details).and_then(|d| d.get("cached_tokens"))),
        cache_write_tokens: None,
        cost_usd: None,
    })
}

/// Reasoning text as local servers send it (`reasoning_content`: llama.cpp,
/// vLLM, DeepSeek; `reasoning`: Ollama, OpenRouter).
fn reasoning(message: &Value) -> Option<&str> {
    ["reasoning_content", "reasoning"].iter().find_map(|key| message.get(*key).and_then(Value::as_str))
}

/// A whole (non-streamed) completion.
pub fn parse_response(body: &Value) -> Result<ChatResponse, String> {
    let choice = body.get("choices").and_then(|c| c.get(0)).ok_or("the response has no choices")?;
    let message = choice.get("message").ok_or("the response's choice has no message")?;
    let mut content = Vec::new();
    if let Some(thinking) = reasoning(message).filter(|t| !t.is_empty()) {
        content.push(thinking_block(thinking.to_owned()));
    }
    if let Some(text) = message.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
        content.push(ContentBlock::text(text));
    }
    let tool_calls: Vec<ToolCall> = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(n, call)| {
            let function = call.get("function").cloned().unwrap_or_default();
            ToolCall::new(
                call.get("id").and_then(Value::as_str).map(str::to_owned).unwrap_or_else(|| format!("call_{n}")),
                function.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                tool_arguments(function.get("arguments").and_then(Value::as_str).unwrap_or_default()),
            )
        })
        .collect();
    Ok(ChatResponse {
        content,
        tool_calls: (!tool_calls.is_empty()).then_some(tool_calls),
        usage: body.get("usage").and_then(usage),
        finish_reason: choice.get("finish_reason").and_then(Value::as_str).map(str::to_owned),
        metadata: metadata(body),
        ..ChatResponse::default()
    })
}

pub(crate) fn thinking_block(thinking: String) -> ContentBlock {
    ContentBlock::Thinking {
        extensions: Default::default(),
        thinking,
        signature: None,
        content: None,
        visibility: None,
    }
}

#[derive(Default)]
struct PartialCall {
    id: Option<String>,
    name: String,
    arguments: String,
}

/// Builds a `ChatResponse` from `chat.completion.chunk`s. Content blocks get
/// indices in the order they first appear (reasoning usually first); tool
/// calls are assembled by their `index`.
#[derive(Default)]
pub struct StreamAccumulator {
    /// (is thinking, text) per content block, in order of appearance.
    blocks: Vec<(bool, String)>,
    text_block: Option<usize>,
    thinking_block: Option<usize>,
    calls: BTreeMap<usize, PartialCall>,
    finish_reason: Option<String>,
    usage: Option<Usage>,
    metadata: Option<JsonMap>,
}

impl StreamAccumulator {
    /// Takes one chunk in; returns the pieces it carried.
    fn apply_chunk(&mut self, chunk: &Value) -> Vec<Piece> {
        let mut pieces = Vec::new();
        if self.metadata.is_none() {
            self.metadata = metadata(chunk);
        }
        if let Some(usage) = chunk.get("usage").and_then(usage) {
            self.usage = Some(usage);
        }
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else { return pieces };
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_owned());
        }
        let Some(delta) = choice.get("delta") else { return pieces };
        if let Some(text) = reasoning(delta).filter(|t| !t.is_empty()) {
            let index = self.block(true);
            self.blocks[index].1.push_str(text);
            pieces.push(Piece::Thinking { index, text: text.to_owned() });
        }
        if let Some(text) = delta.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            let index = self.block(false);
            self.blocks[index].1.push_str(text);
            pieces.push(Piece::Text { index, text: text.to_owned() });
        }
        for (position, call) in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let index = call.get("index").and_then(Value::as_u64).map(|i| i as usize).unwrap_or(position);
            let partial = self.calls.entry(index).or_default();
            let id = call.get("id").and_then(Value::as_str).filter(|id| !id.is_empty());
            let function = call.get("function");
            let name = function.and_then(|f| f.get("name")).and_then(Value::as_str).filter(|n| !n.is_empty());
            let arguments = function.and_then(|f| f.get("arguments")).and_then(Value::as_str).unwrap_or_default();
            if let Some(id) = id {
                partial.id = Some(id.to_owned());
            }
            if let Some(name) = name {
                partial.name.push_str(name);
            }
            partial.arguments.push_str(arguments);
            pieces.push(Piece::ToolCall {
                index,
                id: id.map(str::to_owned),
                name: name.map(str::to_owned),
                arguments: arguments.to_owned(),
            });
        }
        pieces
    }

    fn block(&mut self, thinking: bool) -> usize {
        let slot = if thinking { &mut self.thinking_block } else { &mut self.text_block };
        *slot.get_or_insert_with(|| {
            self.blocks.push((thinking, String::new()));
            self.blocks.len() - 1
        })
    }
}

impl StreamDecoder for StreamAccumulator {
    fn apply(&mut self, data: &str) -> Result<Step, String> {
        if data == "[DONE]" {
            return Ok(Step::Done);
        }
        let chunk: Value = serde_json::from_str(data).map_err(|err| format!("a stream chunk is not JSON: {err}"))?;
        if chunk.get("error").is_some() {
            return Ok(Step::Error);
        }
        Ok(Step::Pieces(self.apply_chunk(&chunk)))
    }

    /// Once the server said why it stopped, the stream may end without `[DONE]`.
    fn may_end(&self) -> bool {
        self.finish_reason.is_some()
    }

    fn finish(self) -> ChatResponse {
        let content = self
            .blocks
            .into_iter()
            .map(|(thinking, text)| if thinking { thinking_block(text) } else { ContentBlock::text(text) })
            .collect();
        let tool_calls: Vec<ToolCall> = self
            .calls
            .into_iter()
            .map(|(index, call)| {
                ToolCall::new(
                    call.id.unwrap_or_else(|| format!("call_{index}")),
                    call.name,
                    tool_arguments(&call.arguments),
                )
            })
            .collect();
        ChatResponse {
            content,
            tool_calls: (!tool_calls.is_empty()).then_some(tool_calls),
            usage: self.usage,
            finish_reason: self.finish_reason,
            metadata: self.metadata,
            ..ChatResponse::default()
        }
    }
}

/// `GET /models` as model infos (llama.cpp's `meta.n_ctx_train` gives the context window).
pub fn models(body: &Value) -> Vec<ModelInfo> {
    body.get("data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|model| {
            let id = model.get("id").and_then(Value::as_str)?.to_owned();
            let context_window = ["context_window", "context_length"]
                .iter()
                .find_map(|key| model.get(*key).and_then(Value::as_u64))
                .or_else(|| model.get("meta").and_then(|m| m.get("n_ctx_train")).and_then(Value::as_u64))
                .unwrap_or(0);
            let mut defaults = JsonMap::new();
            if let Some(owner) = model.get("owned_by").and_then(Value::as_str) {
                defaults.insert("owned_by".into(), json!(owner));
            }
            Some(ModelInfo { display_name: id.clone(), id, context_window, defaults, ..ModelInfo::default() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Defaults<'static> {
        Defaults { model: "gpt-test", temperature: Some(0.2), max_tokens: Some(64), reasoning: None }
    }

    #[test]
    fn a_request_carries_model_messages_tools_and_settings() {
        let request = ChatRequest {
            messages: vec![Message::system("be brief"), Message::user("hi")].into(),
            tools: Some(vec![ToolSpec::new("echo", "Echoes", json!({"type": "object"}))]),
            max_output_tokens: Some(16),
            ..ChatRequest::default()
        };
        let body = request_body(&request, &defaults(), true);
        assert_eq!(body["model"], "gpt-test");
        assert_eq!(body["stream"], true);
        assert_eq!(body["stream_options"], json!({"include_usage": true}));
        assert_eq!(
            body["messages"],
            json!([{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}])
        );
        assert_eq!(
            body["tools"],
            json!([{"type": "function", "function": {"name": "echo", "description": "Echoes", "parameters": {"type": "object"}}}])
        );
        assert_eq!((body["temperature"].as_f64(), body["max_tokens"].as_u64()), (Some(0.2), Some(16)));
        let plain = request_body(&ChatRequest { model: Some("other".into()), ..request }, &defaults(), false);
        assert_eq!(plain["model"], "other");
        assert!(plain.get("stream").is_none() && plain.get("stream_options").is_none());
    }

    #[test]
    fn reasoning_models_get_max_completion_tokens_and_no_sampling_settings() {
        let request = ChatRequest {
            messages: vec![Message::user("hi")].into(),
            model: Some("o3-mini".into()),
            top_p: Some(0.5),
            ..ChatRequest::default()
        };
        let body = request_body(&request, &Defaults { reasoning: Some("high"), ..defaults() }, false);
        assert_eq!(
            (body["max_completion_tokens"].as_u64(), body["reasoning_effort"].as_str()),
            (Some(64), Some("high"))
        );
        for absent in ["max_tokens", "temperature", "top_p"] {
            assert!(body.get(absent).is_none(), "{absent}: {body}");
        }
        let other = request_body(&ChatRequest { model: Some("gpt-4.1".into()), ..request }, &defaults(), false);
        assert_eq!((other["max_tokens"].as_u64(), other["top_p"].as_f64()), (Some(64), Some(0.5)));
        assert!(other.get("max_completion_tokens").is_none());
    }

    #[test]
    fn tool_turns_round_trip_in_openai_shape() {
        let assistant = Message {
            content: MessageContent::Blocks(vec![
                ContentBlock::Thinking {
                    extensions: Default::default(),
                    thinking: "hm".into(),
                    signature: None,
                    content: None,
                    visibility: None,
                },
                ContentBlock::text(""),
            ]),
            tool_calls: Some(vec![ToolCall::new("call_1", "echo", json!({"text": "hi"}))]),
            ..Message::new(Role::Assistant, "")
        };
        let result = Message { name: Some("echo".into()), ..Message::tool_result("call_1", "hi") };
        let wire = messages(&[Message::user("echo hi"), assistant, result]);
        assert_eq!(
            wire[1],
            json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "echo", "arguments": "{\"text\":\"hi\"}"}}
            ]})
        );
        assert_eq!(wire[2], json!({"role": "tool", "tool_call_id": "call_1", "content": "hi"}));
    }

    #[test]
    fn a_tools_images_follow_the_turns_results_in_a_user_message() {
        let source = json!({"type": "base64", "media_type": "image/png", "data": "AAAA"});
        let pictured = ToolResult { images: vec![source], ..ToolResult::ok("[image: image/png, 3 bytes]") };
        let calls = Message {
            tool_calls: Some(vec![ToolCall::new("c1", "snap", json!({})), ToolCall::new("c2", "echo", json!({}))]),
            ..Message::new(Role::Assistant, "")
        };
        let wire = messages(&[
            calls,
            Message::tool_result_of("c1", &pictured),
            Message::tool_result("c2", "plain"),
            Message::user("what is it?"),
        ]);
        let roles: Vec<&str> = wire.iter().map(|m| m["role"].as_str().unwrap()).collect();
        assert_eq!(roles, ["assistant", "tool", "tool", "user", "user"], "results stay right after their calls");
        assert_eq!(wire[1]["content"], "[image: image/png, 3 bytes]");
        assert_eq!(
            wire[3]["content"],
            json!([
                {"type": "text", "text": "The images tool call c1 returned:"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
            ])
        );
    }

    #[test]
    fn a_whole_response_parses() {
        let body = json!({
            "id": "chatcmpl-1", "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": "Let me check.",
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "echo", "arguments": "{\"text\":\"x\"}"}}]
            }}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15, "prompt_tokens_details": {"cached_tokens": 4}}
        });
        let response = parse_response(&body).unwrap();
        assert_eq!(response.text(), "Let me check.");
        let calls = response.tool_calls.unwrap();
        assert_eq!((calls[0].id.as_str(), calls[0].name.as_str()), ("c1", "echo"));
        assert_eq!(calls[0].arguments, json!({"text": "x"}));
        let usage = response.usage.unwrap();
        assert_eq!((usage.input_tokens, usage.output_tokens, usage.cache_read_tokens), (10, 5, Some(4)));
        assert_eq!(response.finish_reason.as_deref(), Some("tool_calls"));
        assert_eq!(response.metadata.unwrap()["response_id"], "chatcmpl-1");
        assert!(parse_response(&json!({"choices": []})).is_err());
    }

    #[test]
    fn streamed_chunks_assemble_text_reasoning_and_tool_calls_by_index() {
        let chunks = [
            json!({"model": "m", "choices": [{"index": 0, "delta": {"role": "assistant", "content": null}}]}),
            json!({"choices": [{"index": 0, "delta": {"reasoning_content": "think"}}]}),
            json!({"choices": [{"index": 0, "delta": {"content": "Hel"}}]}),
            json!({"choices": [{"index": 0, "delta": {"content": "lo"}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 1, "id": "b", "type": "function", "function": {"name": "second", "arguments": ""}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "id": "a", "type": "function", "function": {"name": "first", "arguments": "{\"x\""}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": ": 1}"}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
            json!({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}),
        ];
        let mut acc = StreamAccumulator::default();
        let pieces: Vec<Piece> = chunks.iter().flat_map(|chunk| acc.apply_chunk(chunk)).collect();
        assert_eq!(pieces[0], Piece::Thinking { index: 0, text: "think".into() });
        assert_eq!(pieces[1], Piece::Text { index: 1, text: "Hel".into() });
        assert_eq!(
            pieces[3],
            Piece::ToolCall { index: 1, id: Some("b".into()), name: Some("second".into()), arguments: String::new() }
        );
        assert_eq!(pieces[5], Piece::ToolCall { index: 0, id: None, name: None, arguments: ": 1}".into() });
        assert!(acc.may_end());
        let response = acc.finish();
        assert_eq!(response.text(), "Hello");
        assert!(matches!(&response.content[0], ContentBlock::Thinking { thinking, .. } if thinking == "think"));
        let calls = response.tool_calls.unwrap();
        assert_eq!(
            (calls[0].id.as_str(), calls[0].name.as_str(), &calls[0].arguments),
            ("a", "first", &json!({"x": 1}))
        );
        assert_eq!((calls[1].id.as_str(), &calls[1].arguments), ("b", &json!({})));
        assert_eq!(response.usage.unwrap().total_tokens, 5);
        assert_eq!(response.finish_reason.as_deref(), Some("tool_calls"));
    }

    #[test]
    fn models_list_reads_ids_and_context_windows() {
        let body = json!({"object": "list", "data": [
            {"id": "test-model", "object": "model", "owned_by": "llamacpp", "meta": {"n_ctx_train": 32768}},
            {"id": "gpt-4o", "object": "model"}
        ]});
        let models = models(&body);
        assert_eq!(models.len(), 2);
        assert_eq!((models[0].id.as_str(), models[0].context_window), ("test-model", 32768));
        assert_eq!((models[1].id.as_str(), models[1].context_window), ("gpt-4o", 0));
    }
}
