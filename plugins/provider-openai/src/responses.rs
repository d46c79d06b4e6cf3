//! The Responses API on the wire (`POST /responses`): requests from
//! upstream's `ChatRequest`, responses (whole or streamed event by event)
//! back to `ChatResponse`.
//!
//! A reasoning item becomes a thinking block whose `content` is
//! `[encrypted_content, id]` (upstream's shape, so transcripts move between
//! the two), and goes back to the server on later steps: by id when the
//! server keeps state (`store`), else with its encrypted content. With
//! chaining, the server already holds everything up to the last response,
//! so only what followed it is sent, with `previous_response_id`.

use amplifier_provider_http::api::{Piece, Step, StreamDecoder};
use amplifier_provider_http::reply::{described, metadata, tool_arguments};
use amplifier_sdk::prelude::*;

use crate::chat::{blocks, sampling, tool_calls, tool_results, usage_by, user_content, ToolOutput, UsageKeys};

/// Request settings that come from the provider's config.
pub struct Settings<'a> {
    pub model: &'a str,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u64>,
    /// Reasoning effort (`minimal` ... `xhigh`).
    pub reasoning: Option<&'a str>,
    /// `auto`, `concise` or `detailed`.
    pub reasoning_summary: Option<&'a str>,
    /// The server keeps responses (`store`).
    pub store: bool,
}

/// Where a chained request starts: the last response the server holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    pub previous_response_id: String,
    /// Messages after the one that response produced: all the server lacks.
    pub from: usize,
}

/// The last assistant message, when a Responses API reply produced it
/// (its `metadata.response_id` is a `resp_` id).
pub fn chain_point(messages: &[Message]) -> Option<Chain> {
    let (index, message) = messages.iter().enumerate().rev().find(|(_, m)| m.role == Role::Assistant)?;
    let id = message.metadata.as_ref()?.get("response_id")?.as_str()?;
    id.starts_with("resp_").then(|| Chain { previous_response_id: id.to_owned(), from: index + 1 })
}

/// The JSON body of `POST /responses`.
pub fn request_body(request: &ChatRequest, settings: &Settings<'_>, stream: bool, chain: Option<&Chain>) -> Value {
    let model = request.model.as_deref().unwrap_or(settings.model);
    let reasoning_model = crate::reasoning_model(model);
    let messages = &request.messages[chain.map_or(0, |chain| chain.from)..];
    // With a chain the server holds the reasoning; without state, an item
    // can only go back with its encrypted content.
    let reasoning_back = match (chain, settings.store) {
        (Some(_), _) => ReasoningBack::Never,
        (None, true) => ReasoningBack::ById,
        (None, false) => ReasoningBack::Encrypted,
    };
    let store = settings.store || chain.is_some();
    let mut body = json!({"model": model, "input": input(messages, reasoning_back), "store": store});
    let map = body.as_object_mut().expect("an object");
    if stream {
        map.insert("stream".into(), json!(true));
    }
    if let Some(chain) = chain {
        map.insert("previous_response_id".into(), json!(chain.previous_response_id));
    }
    if reasoning_model && !store {
        map.insert("include".into(), json!(["reasoning.encrypted_content"]));
    }
    if let Some(tools) = request.tools.as_ref().filter(|tools| !tools.is_empty()) {
        let tools: Vec<Value> = tools
            .iter()
            // `strict` defaults to true here, which refuses most schemas.
            .map(|tool| {
                described(
                    tool,
                    json!({"type": "function", "name": tool.name, "parameters": tool.parameters, "strict": false}),
                )
            })
            .collect();
        map.insert("tools".into(), Value::Array(tools));
        if let Some(choice) = &request.tool_choice {
            map.insert("tool_choice".into(), tool_choice(choice));
        }
    }
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(value) = value {
            map.insert(key.into(), value);
        }
    };
    for (key, value) in sampling(request, settings.temperature, reasoning_model) {
        put(key, Some(value));
    }
    put("max_output_tokens", request.max_output_tokens.or(settings.max_tokens).map(|n| json!(n)));
    put("text", request.response_format.as_ref().and_then(text_format).map(|format| json!({"format": format})));
    let effort = request.reasoning_effort.as_deref().or(settings.reasoning);
    if effort.is_some() || settings.reasoning_summary.is_some() {
        let mut reasoning = JsonMap::new();
        if let Some(effort) = effort {
            reasoning.insert("effort".into(), json!(effort));
        }
        if let Some(summary) = settings.reasoning_summary {
            reasoning.insert("summary".into(), json!(summary));
        }
        put("reasoning", Some(Value::Object(reasoning)));
    }
    if request.stop.as_ref().is_some_and(|stop| !stop.is_empty()) {
        tracing::debug!("the Responses API has no stop sequences; `stop` is not sent");
    }
    body
}

/// Chat Completions' `{type: function, function: {name}}` as the Responses
/// API's `{type: function, name}`; the strings (`auto`, `none`,
/// `required`) are the same.
fn tool_choice(choice: &Value) -> Value {
    match choice.get("function").and_then(|f| f.get("name")) {
        Some(name) => json!({"type": "function", "name": name}),
        None => choice.clone(),
    }
}

/// Chat Completions' `response_format` as the Responses API's `text.format`
/// (the JSON schema's fields move up a level).
fn text_format(format: &Value) -> Option<Value> {
    match format.get("type").and_then(Value::as_str)? {
        "json_schema" => {
            let mut flat = format.get("json_schema").and_then(Value::as_object).cloned().unwrap_or_default();
            flat.insert("type".into(), json!("json_schema"));
            Some(Value::Object(flat))
        }
        kind => Some(json!({"type": kind})),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum ReasoningBack {
    Never,
    ById,
    Encrypted,
}

/// Upstream's messages as Responses API input items.
fn input(messages: &[Message], reasoning_back: ReasoningBack) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    for message in messages {
        let blocks = blocks(message);
        for ToolOutput { id, text, image_urls } in tool_results(message, blocks) {
            // The images a tool returned go inside its output, after the text.
            let output = match image_urls.is_empty() {
                true => json!(text),
                false => {
                    let images = image_urls
                        .into_iter()
                        .map(|url| json!({"type": "input_image", "image_url": url, "detail": "auto"}));
                    Value::Array(std::iter::once(json!({"type": "input_text", "text": text})).chain(images).collect())
                }
            };
            out.push(json!({"type": "function_call_output", "call_id": id, "output": output}));
        }
        // `type: message` on every message: llama.cpp cannot tell an
        // assistant message from other items without it.
        let role = match message.role {
            Role::Tool | Role::Function => continue,
            Role::Assistant => {
                assistant(message, blocks, reasoning_back, &mut out);
                continue;
            }
            Role::User => {
                out.extend(user(message, blocks));
                continue;
            }
            Role::System => "system",
            Role::Developer => "developer",
        };
        out.push(json!({"type": "message", "role": role, "content": message.content.text()}));
    }
    out
}

fn user(message: &Message, blocks: &[ContentBlock]) -> Option<Value> {
    let text_part = |text| json!({"type": "input_text", "text": text});
    let image_part = |url| json!({"type": "input_image", "image_url": url, "detail": "auto"});
    let content = user_content(message, blocks, text_part, image_part)?;
    Some(json!({"type": "message", "role": "user", "content": content}))
}

/// An assistant message as its reasoning items, its text, then its calls:
/// the order the server produced them in.
fn assistant(message: &Message, blocks: &[ContentBlock], reasoning_back: ReasoningBack, out: &mut Vec<Value>) {
    for block in blocks {
        if let ContentBlock::Thinking { thinking, content: Some(content), .. } = block {
            if let Some(item) = reasoning_item(thinking, content, reasoning_back) {
                out.push(item);
            }
        }
    }
    let text = message.content.text();
    if !text.is_empty() {
        out.push(json!({"type": "message", "role": "assistant", "content": text}));
    }
    for (id, name, arguments) in tool_calls(message, blocks) {
        out.push(json!({"type": "function_call", "call_id": id, "name": name, "arguments": arguments}));
    }
}

/// A thinking block whose `content` is `[encrypted_content, id]` as a
/// reasoning item, when it can go back.
fn reasoning_item(thinking: &str, content: &Value, reasoning_back: ReasoningBack) -> Option<Value> {
    let id = content.get(1)?.as_str().filter(|id| !id.is_empty())?;
    let encrypted = content.get(0).and_then(Value::as_str).filter(|e| !e.is_empty());
    if reasoning_back == ReasoningBack::Never || (reasoning_back == ReasoningBack::Encrypted && encrypted.is_none()) {
        return None;
    }
    let summary = if thinking.is_empty() { json!([]) } else { json!([{"type": "summary_text", "text": thinking}]) };
    let mut item = json!({"type": "reasoning", "id": id, "summary": summary});
    if let Some(encrypted) = encrypted {
        item["encrypted_content"] = json!(encrypted);
    }
    Some(item)
}

/// `usage` as upstream's `Usage`.
fn usage(usage: &Value) -> Option<Usage> {
    const KEYS: UsageKeys = UsageKeys {
        input: "input_tokens",
        output: "output_tokens",
        input_details: "input_tokens_details",
        output_details: "output_tokens_details",
    };
    usage_by(usage, &KEYS)
}

/// The text of the parts of `item[key]` (a message's `content`, a reasoning
/// item's `summary` or `content`), one paragraph each.
fn parts_text(item: &Value, key: &str) -> String {
    let texts: Vec<&str> = item
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("text").or_else(|| part.get("refusal")).and_then(Value::as_str))
        .filter(|text| !text.is_empty())
        .collect();
    texts.join("\n\n")
}

/// A whole response (`POST /responses` without streaming, or the response
/// of `response.completed`).
pub fn parse_response(body: &Value) -> Result<ChatResponse, String> {
    let output = body.get("output").and_then(Value::as_array).ok_or("the response has no output")?;
    Ok(from_items(output, body))
}

/// Output items, in order, as a `ChatResponse`: a thinking block per
/// reasoning item, a text block per message, a tool call per function call
/// (other items, such as hosted tools' calls, are left out).
fn from_items(items: &[Value], response: &Value) -> ChatResponse {
    let mut content = Vec::new();
    let mut tool_calls = Vec::new();
    for item in items {
        match item.get("type").and_then(Value::as_str) {
            Some("reasoning") => {
                // Open models send the reasoning itself; OpenAI's, a summary.
                let mut text = parts_text(item, "summary");
                if text.is_empty() {
                    text = parts_text(item, "content");
                }
                let encrypted = item.get("encrypted_content").cloned().unwrap_or(Value::Null);
                let id = item.get("id").cloned().unwrap_or(Value::Null);
                content.push(ContentBlock::Thinking {
                    thinking: text,
                    signature: None,
                    content: Some(json!([encrypted, id])),
                    visibility: None,
                    extensions: Default::default(),
                });
            }
            Some("message") => content.push(ContentBlock::text(parts_text(item, "content"))),
            Some("function_call") => {
                let text = |key: &str| item.get(key).and_then(Value::as_str).unwrap_or_default();
                let id = [text("call_id"), text("id")].into_iter().find(|id| !id.is_empty()).unwrap_or_default();
                tool_calls.push(ToolCall::new(id, text("name"), tool_arguments(text("arguments"))));
            }
            _ => {}
        }
    }
    let finish_reason = match response.get("status").and_then(Value::as_str) {
        Some("completed") if !tool_calls.is_empty() => Some("tool_calls".to_owned()),
        Some("completed") => Some("stop".to_owned()),
        Some("incomplete") => {
            let reason = response.pointer("/incomplete_details/reason").and_then(Value::as_str);
            Some(match reason {
                Some("max_output_tokens") | None => "length".to_owned(),
                Some(other) => other.to_owned(),
            })
        }
        other => other.map(str::to_owned),
    };
    ChatResponse {
        content,
        tool_calls: (!tool_calls.is_empty()).then_some(tool_calls),
        usage: response.get("usage").and_then(usage),
        finish_reason,
        metadata: metadata(response),
        ..ChatResponse::default()
    }
}

/// One output item as it streams in.
struct Item {
    /// The item's id, else its output index: what its events name it by.
    key: String,
    /// The item as last announced (`output_item.added`, then `.done`).
    value: Value,
    /// Its text, argument or reasoning deltas so far.
    streamed: String,
    /// Whether `output_item.done` gave the whole item.
    done: bool,
    /// Its content block (message, reasoning) or tool call index.
    index: usize,
    /// The last reasoning summary part a delta came for.
    summary_index: u64,
}

/// Builds a `ChatResponse` from Responses API stream events. Messages and
/// reasoning items get content block indices in order of appearance,
/// function calls tool call indices; the final items come from
/// `response.output_item.done`.
#[derive(Default)]
pub struct StreamAccumulator {
    items: Vec<Item>,
    blocks: usize,
    calls: usize,
    /// The response of `response.created`, then of `response.completed`.
    response: Value,
}

impl StreamAccumulator {
    /// Takes one event in; returns the pieces it carried.
    fn apply_event(&mut self, event: &Value) -> Result<Step, String> {
        let kind = event.get("type").and_then(Value::as_str).ok_or("a stream event has no type")?;
        let mut pieces = Vec::new();
        match kind {
            "response.created" | "response.in_progress" => {
                if let Some(response) = event.get("response") {
                    self.response = response.clone();
                }
            }
            "response.completed" | "response.incomplete" => {
                self.response = event.get("response").cloned().unwrap_or_default();
                return Ok(Step::Done);
            }
            "response.failed" | "error" => return Ok(Step::Error),
            "response.output_item.added" => {
                let item = event.get("item").cloned().unwrap_or_default();
                let position = self.item(event, &item);
                if item.get("type").and_then(Value::as_str) == Some("function_call") {
                    let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_owned);
                    pieces.push(Piece::ToolCall {
                        index: self.items[position].index,
                        id: text("call_id"),
                        name: text("name"),
                        arguments: text("arguments").unwrap_or_default(),
                    });
                    self.items[position].streamed = text("arguments").unwrap_or_default();
                }
            }
            "response.output_item.done" => {
                let item = event.get("item").cloned().unwrap_or_default();
                let position = self.item(event, &item);
                self.items[position].value = item;
                self.items[position].done = true;
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                let delta = delta(event);
                let position = self.item(event, &json!({"type": "message"}));
                self.items[position].streamed.push_str(delta);
                pieces.push(Piece::Text { index: self.items[position].index, text: delta.to_owned() });
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                let position = self.item(event, &json!({"type": "reasoning"}));
                let item = &mut self.items[position];
                let part = event.get("summary_index").and_then(Value::as_u64).unwrap_or(item.summary_index);
                let mut text = String::new();
                if part > item.summary_index && !item.streamed.is_empty() {
                    text.push_str("\n\n");
                }
                item.summary_index = part;
                text.push_str(delta(event));
                item.streamed.push_str(&text);
                pieces.push(Piece::Thinking { index: item.index, text });
            }
            "response.function_call_arguments.delta" => {
                let delta = delta(event);
                let position = self.item(event, &json!({"type": "function_call"}));
                self.items[position].streamed.push_str(delta);
                pieces.push(Piece::ToolCall {
                    index: self.items[position].index,
                    id: None,
                    name: None,
                    arguments: delta.to_owned(),
                });
            }
            _ => {}
        }
        Ok(Step::Pieces(pieces))
    }

    /// The position of the item `event` names (by `item_id`, else by
    /// `output_index`), announced as `item` when it is new.
    fn item(&mut self, event: &Value, item: &Value) -> usize {
        let key = item
            .get("id")
            .or_else(|| event.get("item_id"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| event.get("output_index").map(|index| format!("#{index}")))
            .unwrap_or_default();
        if let Some(position) = self.items.iter().position(|known| known.key == key) {
            return position;
        }
        let counter = match item.get("type").and_then(Value::as_str) {
            Some("function_call") => Some(&mut self.calls),
            Some("message" | "reasoning") => Some(&mut self.blocks),
            // Hosted tools' items have no place in the reply.
            _ => None,
        };
        let index = counter.map_or(0, |counter| {
            *counter += 1;
            *counter - 1
        });
        self.items.push(Item {
            key,
            value: item.clone(),
            streamed: String::new(),
            done: false,
            index,
            summary_index: 0,
        });
        self.items.len() - 1
    }
}

fn delta(event: &Value) -> &str {
    event.get("delta").and_then(Value::as_str).unwrap_or_default()
}

impl StreamDecoder for StreamAccumulator {
    fn apply(&mut self, data: &str) -> Result<Step, String> {
        let event: Value = serde_json::from_str(data).map_err(|err| format!("a stream event is not JSON: {err}"))?;
        self.apply_event(&event)
    }

    fn finish(self) -> ChatResponse {
        // A server that streamed no items may still list them at the end.
        if self.items.is_empty() {
            let output = self.response.get("output").and_then(Value::as_array).cloned().unwrap_or_default();
            return from_items(&output, &self.response);
        }
        // An item the stream never finished is what its deltas spelled.
        let items: Vec<Value> = self
            .items
            .into_iter()
            .map(|item| {
                let mut value = item.value;
                if !item.done {
                    match value.get("type").and_then(Value::as_str) {
                        Some("message") => value["content"] = json!([{"type": "output_text", "text": item.streamed}]),
                        Some("reasoning") => {
                            value["summary"] = json!([{"type": "summary_text", "text": item.streamed}])
                        }
                        Some("function_call") => value["arguments"] = json!(item.streamed),
                        _ => {}
                    }
                }
                value
            })
            .collect();
        from_items(&items, &self.response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings<'static> {
        Settings {
            model: "gpt-4.1-mini",
            temperature: Some(0.2),
            max_tokens: Some(64),
            reasoning: None,
            reasoning_summary: None,
            store: false,
        }
    }

    fn thinking(text: &str, encrypted: Value, id: &str) -> ContentBlock {
        ContentBlock::Thinking {
            extensions: Default::default(),
            thinking: text.into(),
            signature: None,
            content: Some(json!([encrypted, id])),
            visibility: None,
        }
    }

    /// A tool step: the user asks, the model reasons and calls, the tool answers.
    fn tool_step() -> Vec<Message> {
        let assistant = Message {
            content: MessageContent::Blocks(vec![thinking("plan", json!("ENC1"), "rs_1"), ContentBlock::text("")]),
            tool_calls: Some(vec![ToolCall::new("call_1", "echo", json!({"text": "hi"}))]),
            metadata: Some(JsonMap::from_iter([("response_id".to_owned(), json!("resp_1"))])),
            ..Message::new(Role::Assistant, "")
        };
        vec![Message::system("be brief"), Message::user("echo hi"), assistant, Message::tool_result("call_1", "hi")]
    }

    #[test]
    fn a_request_carries_input_items_tools_and_settings() {
        let request = ChatRequest {
            messages: tool_step().into(),
            tools: Some(vec![ToolSpec::new("echo", "Echoes", json!({"type": "object"}))]),
            tool_choice: Some(json!({"type": "function", "function": {"name": "echo"}})),
            max_output_tokens: Some(16),
            stop: Some(vec!["END".into()]),
            ..ChatRequest::default()
        };
        let body = request_body(&request, &settings(), true, None);
        assert_eq!(body["model"], "gpt-4.1-mini");
        assert_eq!((body["stream"].as_bool(), body["store"].as_bool()), (Some(true), Some(false)));
        assert_eq!(
            body["input"],
            json!([
                {"type": "message", "role": "system", "content": "be brief"},
                {"type": "message", "role": "user", "content": "echo hi"},
                {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}], "encrypted_content": "ENC1"},
                {"type": "function_call", "call_id": "call_1", "name": "echo", "arguments": "{\"text\":\"hi\"}"},
                {"type": "function_call_output", "call_id": "call_1", "output": "hi"}
            ])
        );
        assert_eq!(
            body["tools"],
            json!([{"type": "function", "name": "echo", "description": "Echoes", "parameters": {"type": "object"}, "strict": false}])
        );
        assert_eq!(body["tool_choice"], json!({"type": "function", "name": "echo"}));
        assert_eq!((body["temperature"].as_f64(), body["max_output_tokens"].as_u64()), (Some(0.2), Some(16)));
        // Not a reasoning model: no encrypted reasoning asked for, no `max_tokens`, no `stop`.
        for absent in ["include", "max_tokens", "stop", "reasoning", "previous_response_id"] {
            assert!(body.get(absent).is_none(), "{absent}: {body}");
        }
    }

    #[test]
    fn reasoning_models_get_encrypted_reasoning_and_no_sampling_settings() {
        let request = ChatRequest {
            messages: vec![Message::user("hi")].into(),
            model: Some("gpt-5-mini".into()),
            temperature: Some(0.5),
            top_p: Some(0.9),
            ..ChatRequest::default()
        };
        let configured = Settings { reasoning: Some("low"), reasoning_summary: Some("auto"), ..settings() };
        let body = request_body(&request, &configured, false, None);
        assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
        assert_eq!(body["reasoning"], json!({"effort": "low", "summary": "auto"}));
        assert!(body.get("temperature").is_none() && body.get("top_p").is_none() && body.get("stream").is_none());
        assert_eq!(body["max_output_tokens"], 64);
        // A server that keeps state resolves reasoning by id: nothing to include.
        let stored = request_body(&request, &Settings { store: true, ..configured }, false, None);
        assert!(stored.get("include").is_none());
        assert_eq!(stored["store"], true);
    }

    #[test]
    fn reasoning_goes_back_by_id_with_state_and_only_with_its_content_without() {
        let step = tool_step();
        let without_content = Message {
            content: MessageContent::Blocks(vec![thinking("", Value::Null, "rs_2")]),
            ..Message::new(Role::Assistant, "done")
        };
        let messages = [step, vec![without_content]].concat();
        let reasoning = |store: bool| -> Vec<Value> {
            let request = ChatRequest { messages: messages.clone().into(), ..ChatRequest::default() };
            let body = request_body(&request, &Settings { store, ..settings() }, false, None);
            body["input"].as_array().unwrap().iter().filter(|item| item["type"] == "reasoning").cloned().collect()
        };
        assert_eq!(reasoning(false).len(), 1, "rs_2 has no encrypted content to send");
        let by_id = reasoning(true);
        assert_eq!(by_id.len(), 2);
        assert_eq!(by_id[1], json!({"type": "reasoning", "id": "rs_2", "summary": []}));
    }

    #[test]
    fn a_chained_request_sends_only_what_followed_the_last_response() {
        let messages = [tool_step(), vec![Message::user("and again")]].concat();
        let chain = chain_point(&messages).expect("the assistant message has a Responses id");
        assert_eq!(chain, Chain { previous_response_id: "resp_1".into(), from: 3 });
        let request = ChatRequest { messages: messages.into(), ..ChatRequest::default() };
        let body = request_body(&request, &settings(), false, Some(&chain));
        assert_eq!(body["previous_response_id"], "resp_1");
        assert_eq!(body["store"], true);
        assert_eq!(
            body["input"],
            json!([
                {"type": "function_call_output", "call_id": "call_1", "output": "hi"},
                {"type": "message", "role": "user", "content": "and again"}
            ])
        );
        // A Chat Completions id is no chain.
        let mut other = tool_step();
        other[2].metadata = Some(JsonMap::from_iter([("response_id".to_owned(), json!("chatcmpl-1"))]));
        assert_eq!(chain_point(&other), None);
        assert_eq!(chain_point(&[Message::user("hi")]), None);
    }

    #[test]
    fn images_formats_and_errors_take_the_responses_shapes() {
        let image = ContentBlock::Image {
            source: json!({"type": "base64", "media_type": "image/png", "data": "AAAA"}),
            visibility: None,
            extensions: Default::default(),
        };
        let request = ChatRequest {
            messages: vec![
                Message {
                    content: MessageContent::Blocks(vec![ContentBlock::text("what is it?"), image]),
                    ..Message::user("")
                },
                Message {
                    tool_calls: Some(vec![ToolCall::new("c", "read", json!({}))]),
                    ..Message::new(Role::Assistant, "")
                },
                Message::tool_error("c", "no such file"),
            ]
            .into(),
            response_format: Some(
                json!({"type": "json_schema", "json_schema": {"name": "answer", "schema": {"type": "object"}, "strict": true}}),
            ),
            ..ChatRequest::default()
        };
        let body = request_body(&request, &settings(), false, None);
        assert_eq!(
            body["input"][0]["content"],
            json!([
                {"type": "input_text", "text": "what is it?"},
                {"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "auto"}
            ])
        );
        assert_eq!(body["input"][2]["output"], "Error: no such file");
        assert_eq!(
            body["text"],
            json!({"format": {"type": "json_schema", "name": "answer", "schema": {"type": "object"}, "strict": true}})
        );
    }

    #[test]
    fn a_tools_images_go_inside_its_output() {
        let source = json!({"type": "base64", "media_type": "image/png", "data": "AAAA"});
        let pictured = ToolResult { images: vec![source], ..ToolResult::ok("[image: image/png, 3 bytes]") };
        let request =
            ChatRequest { messages: vec![Message::tool_result_of("c1", &pictured)].into(), ..ChatRequest::default() };
        let body = request_body(&request, &settings(), false, None);
        assert_eq!(
            body["input"][0]["output"],
            json!([
                {"type": "input_text", "text": "[image: image/png, 3 bytes]"},
                {"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "auto"}
            ])
        );
    }

    #[test]
    fn a_whole_response_parses_reasoning_text_calls_and_usage() {
        let body = json!({
            "id": "resp_9", "object": "response", "model": "gpt-5-mini", "status": "completed",
            "output": [
                {"type": "reasoning", "id": "rs_9", "summary": [{"type": "summary_text", "text": "Think."}], "encrypted_content": "ENC9"},
                {"type": "message", "id": "msg_9", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": "Let me check.", "annotations": []}]},
                {"type": "function_call", "id": "fc_9", "call_id": "call_9", "name": "echo", "arguments": "{\"text\":\"x\"}", "status": "completed"},
                {"type": "web_search_call", "id": "ws_9", "status": "completed"}
            ],
            "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 4},
                      "output_tokens": 7, "output_tokens_details": {"reasoning_tokens": 3}, "total_tokens": 17}
        });
        let response = parse_response(&body).unwrap();
        assert_eq!(response.content.len(), 2);
        assert!(matches!(&response.content[0], ContentBlock::Thinking { thinking, content: Some(content), .. }
            if thinking == "Think." && *content == json!(["ENC9", "rs_9"])));
        assert_eq!(response.text(), "Let me check.");
        let calls = response.tool_calls.clone().unwrap();
        assert_eq!(
            (calls[0].id.as_str(), calls[0].name.as_str(), &calls[0].arguments),
            ("call_9", "echo", &json!({"text": "x"}))
        );
        let usage = response.usage.clone().unwrap();
        assert_eq!(
            (
                usage.input_tokens,
                usage.output_tokens,
                usage.total_tokens,
                usage.cache_read_tokens,
                usage.reasoning_tokens
            ),
            (10, 7, 17, Some(4), Some(3))
        );
        assert_eq!(response.finish_reason.as_deref(), Some("tool_calls"));
        assert_eq!(response.metadata.unwrap()["response_id"], "resp_9");
        let cut = json!({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []});
        assert_eq!(parse_response(&cut).unwrap().finish_reason.as_deref(), Some("length"));
        assert!(parse_response(&json!({"id": "resp_x"})).is_err());
    }

    #[test]
    fn streamed_events_assemble_reasoning_text_and_calls() {
        // OpenAI's events carry output_index; llama.cpp's only item_id.
        let events = [
            json!({"type": "response.created", "response": {"id": "resp_7", "model": "gpt-5-mini", "status": "in_progress", "output": []}}),
            json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "reasoning", "id": "rs_7", "summary": []}}),
            json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_7", "output_index": 0, "summary_index": 0, "delta": "One."}),
            json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_7", "output_index": 0, "summary_index": 1, "delta": "Two."}),
            json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "reasoning", "id": "rs_7",
                "summary": [{"type": "summary_text", "text": "One."}, {"type": "summary_text", "text": "Two."}], "encrypted_content": "ENC7"}}),
            json!({"type": "response.output_item.added", "item": {"type": "message", "id": "msg_7", "role": "assistant", "content": []}}),
            json!({"type": "response.output_text.delta", "item_id": "msg_7", "delta": "Hel"}),
            json!({"type": "response.output_text.delta", "item_id": "msg_7", "delta": "lo"}),
            json!({"type": "response.output_item.added", "item": {"type": "function_call", "id": "fc_7", "call_id": "call_7", "name": "echo", "arguments": ""}}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_7", "delta": "{\"text\": "}),
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_7", "delta": "\"hi\"}"}),
        ];
        let mut acc = StreamAccumulator::default();
        let mut pieces = Vec::new();
        for event in &events {
            match acc.apply_event(event).unwrap() {
                Step::Pieces(more) => pieces.extend(more),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(pieces[0], Piece::Thinking { index: 0, text: "One.".into() });
        assert_eq!(pieces[1], Piece::Thinking { index: 0, text: "\n\nTwo.".into() });
        assert_eq!(pieces[2], Piece::Text { index: 1, text: "Hel".into() });
        assert_eq!(
            pieces[4],
            Piece::ToolCall {
                index: 0,
                id: Some("call_7".into()),
                name: Some("echo".into()),
                arguments: String::new()
            }
        );
        let completed = json!({"type": "response.completed", "response": {"id": "resp_7", "model": "gpt-5-mini", "status": "completed",
            "usage": {"input_tokens": 5, "output_tokens": 9, "total_tokens": 14}}});
        assert_eq!(acc.apply_event(&completed).unwrap(), Step::Done);
        let response = acc.finish();
        assert!(matches!(&response.content[0], ContentBlock::Thinking { thinking, content: Some(content), .. }
            if thinking == "One.\n\nTwo." && *content == json!(["ENC7", "rs_7"])));
        // The message and the call never got their `.done`: their deltas spell them.
        assert_eq!(response.text(), "Hello");
        let calls = response.tool_calls.clone().unwrap();
        assert_eq!((calls[0].id.as_str(), &calls[0].arguments), ("call_7", &json!({"text": "hi"})));
        assert_eq!(response.usage.unwrap().total_tokens, 14);
        assert_eq!(response.finish_reason.as_deref(), Some("tool_calls"));
        assert_eq!(response.metadata.unwrap()["response_id"], "resp_7");
    }

    #[test]
    fn a_stream_of_no_items_takes_them_from_the_completed_response() {
        let mut acc = StreamAccumulator::default();
        let completed = json!({"type": "response.completed", "response": {"id": "resp_8", "status": "completed",
            "output": [{"type": "message", "id": "msg_8", "role": "assistant", "content": [{"type": "output_text", "text": "Whole."}]}]}});
        assert_eq!(acc.apply_event(&completed).unwrap(), Step::Done);
        assert_eq!(acc.finish().text(), "Whole.");
    }

    #[test]
    fn failures_in_the_stream_are_errors() {
        let mut acc = StreamAccumulator::default();
        let failed = json!({"type": "response.failed", "response": {"status": "failed", "error": {"code": "server_error", "message": "boom"}}});
        assert_eq!(acc.apply_event(&failed).unwrap(), Step::Error);
        assert_eq!(
            acc.apply_event(&json!({"type": "error", "code": "rate_limit_exceeded", "message": "slow down"})).unwrap(),
            Step::Error
        );
        assert!(acc.apply(r#"{"delta": "untyped"}"#).is_err());
    }
}
