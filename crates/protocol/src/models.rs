//! Data models with upstream Amplifier's JSON field names.
//!
//! These types are the payloads that cross the plugin ABI as JSON, so every
//! field name and enum spelling matches upstream (`amplifier-core`
//! `models.rs`/`messages.rs`). Unknown fields are kept where upstream keeps
//! them (`extensions`), so a newer plugin's additions survive a round trip.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A free-form JSON object.
pub type JsonMap = Map<String, Value>;

// ---------------------------------------------------------------------------
// Messages

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    Developer,
    User,
    Assistant,
    Function,
    Tool,
}

impl Role {
    /// The role as the wire spells it (serde's name).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::Developer => "developer",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Function => "function",
            Role::Tool => "tool",
        }
    }
}

/// Visibility of a content block to the people and programs around the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    Internal,
    Developer,
    User,
}

/// One typed block of message content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        visibility: Option<Visibility>,
        /// Keys this model does not know (`cache_control`, a vendor's ids),
        /// kept so they survive a trip through the context and the store.
        #[serde(flatten)]
        extensions: JsonMap,
    },
    Thinking {
        thinking: String,
        /// Opaque provider signature; replayed byte-exact on later turns.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signature: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        visibility: Option<Visibility>,
        /// Keys this model does not know (`cache_control`, a vendor's ids),
        /// kept so they survive a trip through the context and the store.
        #[serde(flatten)]
        extensions: JsonMap,
    },
    RedactedThinking {
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        visibility: Option<Visibility>,
        /// Keys this model does not know (`cache_control`, a vendor's ids),
        /// kept so they survive a trip through the context and the store.
        #[serde(flatten)]
        extensions: JsonMap,
    },
    ToolCall {
        id: String,
        name: String,
        input: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        visibility: Option<Visibility>,
        /// Keys this model does not know (`cache_control`, a vendor's ids),
        /// kept so they survive a trip through the context and the store.
        #[serde(flatten)]
        extensions: JsonMap,
    },
    ToolResult {
        tool_call_id: String,
        output: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        visibility: Option<Visibility>,
        /// Keys this model does not know (`cache_control`, a vendor's ids),
        /// kept so they survive a trip through the context and the store.
        #[serde(flatten)]
        extensions: JsonMap,
    },
    Image {
        source: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        visibility: Option<Visibility>,
        /// Keys this model does not know (`cache_control`, a vendor's ids),
        /// kept so they survive a trip through the context and the store.
        #[serde(flatten)]
        extensions: JsonMap,
    },
    Reasoning {
        #[serde(default)]
        content: Vec<Value>,
        #[serde(default)]
        summary: Vec<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        visibility: Option<Visibility>,
        /// Keys this model does not know (`cache_control`, a vendor's ids),
        /// kept so they survive a trip through the context and the store.
        #[serde(flatten)]
        extensions: JsonMap,
    },
}

impl ContentBlock {
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text { text: text.into(), visibility: None, extensions: JsonMap::new() }
    }
}

/// Message content: a plain string or a list of typed blocks (untagged, as upstream).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MessageContent {
    Text(String),
    Blocks(Vec<ContentBlock>),
}

impl Default for MessageContent {
    fn default() -> Self {
        MessageContent::Text(String::new())
    }
}

impl MessageContent {
    /// The concatenated text of the content, ignoring non-text blocks.
    pub fn text(&self) -> String {
        match self {
            MessageContent::Text(text) => text.clone(),
            MessageContent::Blocks(blocks) => blocks
                .iter()
                .filter_map(|block| match block {
                    ContentBlock::Text { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// The length in bytes of [`text`](Self::text), without building it.
    pub fn text_len(&self) -> usize {
        match self {
            MessageContent::Text(text) => text.len(),
            MessageContent::Blocks(blocks) => {
                let (count, bytes) = blocks.iter().fold((0usize, 0usize), |(count, bytes), block| match block {
                    ContentBlock::Text { text, .. } => (count + 1, bytes + text.len()),
                    _ => (count, bytes),
                });
                bytes + count.saturating_sub(1)
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    #[serde(default)]
    pub content: MessageContent,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Tool calls requested by an assistant message (OpenAI-style shape).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonMap>,
    /// Upstream's `extensions`: keys this model does not know, kept.
    #[serde(flatten)]
    pub extensions: JsonMap,
}

impl Message {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: MessageContent::Text(content.into()),
            name: None,
            tool_call_id: None,
            tool_calls: None,
            metadata: None,
            extensions: JsonMap::new(),
        }
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self::new(Role::User, content)
    }

    pub fn system(content: impl Into<String>) -> Self {
        Self::new(Role::System, content)
    }

    /// A tool result message answering `tool_call_id`.
    pub fn tool_result(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Message { tool_call_id: Some(tool_call_id.into()), ..Self::new(Role::Tool, content) }
    }

    /// A tool result message for a call that failed: marked `is_error`
    /// (an extension key, Anthropic's name for it), so a provider can tell
    /// the model.
    pub fn tool_error(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        let mut message = Self::tool_result(tool_call_id, content);
        message.extensions.insert(TOOL_ERROR_KEY.into(), Value::Bool(true));
        message
    }

    /// A tool result message of `result`: [`Message::tool_error`] when it
    /// failed; its images follow the output as image blocks.
    pub fn tool_result_of(tool_call_id: impl Into<String>, result: &ToolResult) -> Self {
        let mut message = match result.success {
            true => Self::tool_result(tool_call_id, result.serialized_output()),
            false => Self::tool_error(tool_call_id, result.serialized_output()),
        };
        if !result.images.is_empty() {
            let mut blocks = vec![ContentBlock::text(message.content.text())];
            blocks.extend(result.images.iter().map(|source| ContentBlock::Image {
                source: source.clone(),
                visibility: None,
                extensions: JsonMap::new(),
            }));
            message.content = MessageContent::Blocks(blocks);
        }
        message
    }

    /// The sources of this message's image blocks.
    pub fn image_sources(&self) -> Vec<&Value> {
        match &self.content {
            MessageContent::Text(_) => Vec::new(),
            MessageContent::Blocks(blocks) => blocks
                .iter()
                .filter_map(|block| match block {
                    ContentBlock::Image { source, .. } => Some(source),
                    _ => None,
                })
                .collect(),
        }
    }

    /// Whether this tool result reports a failed call.
    pub fn is_tool_error(&self) -> bool {
        self.extensions.get(TOOL_ERROR_KEY) == Some(&Value::Bool(true))
    }

    /// A tool result's text for a format with no error flag (OpenAI's, a
    /// chat template): a failure says so in its first word.
    pub fn tool_result_text(&self) -> String {
        let text = self.content.text();
        if self.is_tool_error() && !text.starts_with("Error") {
            format!("Error: {text}")
        } else {
            text
        }
    }

    /// The ids of every tool call this message requests, from either shape
    /// (`tool_calls` or `tool_call` content blocks).
    pub fn requested_tool_call_ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self.tool_calls.iter().flatten().map(|call| call.id.as_str()).collect();
        if let MessageContent::Blocks(blocks) = &self.content {
            for block in blocks {
                if let ContentBlock::ToolCall { id, .. } = block {
                    if !ids.contains(&id.as_str()) {
                        ids.push(id);
                    }
                }
            }
        }
        ids
    }
}

/// The extension key that marks a failed tool result ([`Message::tool_error`]).
pub const TOOL_ERROR_KEY: &str = "is_error";

// ---------------------------------------------------------------------------
// Tools

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    /// Upstream's stored transcripts spell it `tool` (`{id, tool, arguments}`).
    #[serde(alias = "tool")]
    pub name: String,
    #[serde(default)]
    pub arguments: Value,
    #[serde(flatten)]
    pub extensions: JsonMap,
}

impl ToolCall {
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        ToolCall { id: id.into(), name: name.into(), arguments, extensions: JsonMap::new() }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    /// JSON Schema of the tool's input.
    #[serde(default = "empty_object_schema")]
    pub parameters: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Upstream's `extensions`: keys this model does not know, kept.
    #[serde(flatten)]
    pub extensions: JsonMap,
}

impl ToolSpec {
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        ToolSpec { name: name.into(), parameters, description: Some(description.into()), extensions: JsonMap::new() }
    }
}

fn empty_object_schema() -> Value {
    serde_json::json!({"type": "object"})
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    #[serde(default = "default_true")]
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// `{message, type}` by convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonMap>,
    /// Images the tool returned beside its output, each an image block's
    /// `source` (`{type: base64, media_type, data}` or `{type: url, url}`).
    /// Ours: providers that take images in tool results send them with it;
    /// the others send the output alone, which should mention them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<Value>,
}

fn default_true() -> bool {
    true
}

/// The key of a result's `error` that marks a [`ToolResult::failed_call`].
const FAILED_CALL: &str = "failed_call";

impl ToolResult {
    pub fn ok(output: impl Into<Value>) -> Self {
        ToolResult { success: true, output: Some(output.into()), error: None, images: Vec::new() }
    }

    /// A failed result; `output` carries the message too, as upstream auto-populates it.
    pub fn error(kind: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        let mut error = JsonMap::new();
        error.insert("message".into(), Value::String(message.clone()));
        error.insert("type".into(), Value::String(kind.into()));
        ToolResult { success: false, output: Some(Value::String(message)), error: Some(error), images: Vec::new() }
    }

    /// A call that failed outside the tool's own answer: no such tool,
    /// input its schema refuses, a timeout, a cancel, a plugin fault.
    /// Upstream's loops raise these, and announce them as `tool:error`; a
    /// tool's own `success: false` answer goes through `tool:post`.
    pub fn failed_call(kind: &str, message: impl Into<String>) -> Self {
        let mut result = ToolResult::error(kind, message);
        result.error.get_or_insert_with(JsonMap::new).insert(FAILED_CALL.into(), Value::Bool(true));
        result
    }

    /// Whether this is a [`ToolResult::failed_call`].
    pub fn is_failed_call(&self) -> bool {
        !self.success && self.error.as_ref().and_then(|e| e.get(FAILED_CALL)) == Some(&Value::Bool(true))
    }

    /// The text a model sees for this result.
    pub fn serialized_output(&self) -> String {
        match &self.output {
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => self
                .error
                .as_ref()
                .and_then(|e| e.get("message"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
        }
    }
}

// ---------------------------------------------------------------------------
// Provider requests and responses

/// A request's messages, shared rather than copied.
///
/// A provider's SDK keeps the conversation in step with the context
/// (`context.sync_view`: only what changed crosses the ABI) and hands the
/// same list to every request; cloning is a reference count. Reading is
/// through `Deref` to `Vec<Message>`; writing (`DerefMut`) copies the list
/// first only if another holder still shares it.
#[derive(Clone, Default, PartialEq)]
pub struct Messages(std::sync::Arc<Vec<Message>>);

impl Messages {
    /// The list, copied only if it is shared.
    pub fn into_vec(self) -> Vec<Message> {
        std::sync::Arc::unwrap_or_clone(self.0)
    }
}

impl std::ops::Deref for Messages {
    type Target = Vec<Message>;

    fn deref(&self) -> &Vec<Message> {
        &self.0
    }
}

impl std::ops::DerefMut for Messages {
    fn deref_mut(&mut self) -> &mut Vec<Message> {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

impl std::fmt::Debug for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Vec<Message>> for Messages {
    fn from(messages: Vec<Message>) -> Self {
        Messages(std::sync::Arc::new(messages))
    }
}

impl FromIterator<Message> for Messages {
    fn from_iter<I: IntoIterator<Item = Message>>(iter: I) -> Self {
        Messages::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl IntoIterator for Messages {
    type Item = Message;
    type IntoIter = std::vec::IntoIter<Message>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Messages {
    type Item = &'a Message;
    type IntoIter = std::slice::Iter<'a, Message>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl PartialEq<Vec<Message>> for Messages {
    fn eq(&self, other: &Vec<Message>) -> bool {
        *self.0 == *other
    }
}

impl Serialize for Messages {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Messages {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<Message>::deserialize(deserializer).map(Messages::from)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub messages: Messages,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<ToolSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_format: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonMap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// Upstream's `extensions`: keys this model does not know, kept.
    #[serde(flatten)]
    pub extensions: JsonMap,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub total_tokens: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// Decimal string, as upstream (floats are rejected there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<String>,
    /// Upstream's `extensions`: keys this model does not know, kept.
    #[serde(flatten)]
    pub extensions: JsonMap,
}

impl Usage {
    /// Adds another usage record into this one (costs are summed as decimals).
    pub fn accumulate(&mut self, other: &Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.total_tokens += other.total_tokens;
        let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        self.reasoning_tokens = add(self.reasoning_tokens, other.reasoning_tokens);
        self.cache_read_tokens = add(self.cache_read_tokens, other.cache_read_tokens);
        self.cache_write_tokens = add(self.cache_write_tokens, other.cache_write_tokens);
        if let Some(cost) = &other.cost_usd {
            let sum = self.cost_usd.as_deref().and_then(|c| c.parse::<f64>().ok()).unwrap_or(0.0)
                + cost.parse::<f64>().unwrap_or(0.0);
            self.cost_usd = Some(format!("{sum:.6}"));
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Degradation {
    pub requested: String,
    pub actual: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub degradation: Option<Degradation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonMap>,
    /// Upstream's `extensions`: keys this model does not know, kept.
    #[serde(flatten)]
    pub extensions: JsonMap,
}

impl ChatResponse {
    /// The response's text blocks joined, as a final answer.
    pub fn text(&self) -> String {
        MessageContent::Blocks(self.content.clone()).text()
    }

    /// Tool calls from `tool_calls`, or else from `tool_call` content blocks.
    pub fn parse_tool_calls(&self) -> Vec<ToolCall> {
        if let Some(calls) = &self.tool_calls {
            if !calls.is_empty() {
                return calls.clone();
            }
        }
        self.content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::ToolCall { id, name, input, .. } => {
                    Some(ToolCall::new(id.clone(), name.clone(), input.clone()))
                }
                _ => None,
            })
            .collect()
    }
}

/// One streamed piece of a completion, sent while the provider works.
/// Orchestrators turn these into `content_block:*` / `thinking:delta` events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamDelta {
    /// More text for content block `index`.
    Text { index: usize, text: String },
    /// More reasoning for content block `index`.
    Thinking { index: usize, text: String },
    /// A piece of tool call `index`: the id and name arrive first, then
    /// argument JSON in fragments.
    ToolCall {
        index: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default)]
        arguments: String,
    },
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub context_window: u64,
    #[serde(default)]
    pub max_output_tokens: u64,
    #[serde(default)]
    pub capabilities: Vec<String>,
    #[serde(default)]
    pub defaults: JsonMap,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfigField {
    pub id: String,
    pub display_name: String,
    pub field_type: String,
    #[serde(default)]
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_var: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<String>>,
    #[serde(default = "default_true")]
    pub required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProviderInfo {
    pub id: String,
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub credential_env_vars: Vec<String>,
    #[serde(default)]
    pub capabilities: Vec<String>,
    #[serde(default)]
    pub defaults: JsonMap,
    #[serde(default)]
    pub config_fields: Vec<ConfigField>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModuleInfo {
    pub id: String,
    pub name: String,
    pub version: String,
    #[serde(rename = "type")]
    pub module_type: String,
    pub mount_point: String,
    #[serde(default)]
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_schema: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    Running,
    Completed,
    Failed,
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionStatus {
    pub session_id: String,
    pub started_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    pub status: RunStatus,
    pub total_messages: u64,
    pub tool_invocations: u64,
    pub tool_successes: u64,
    pub tool_failures: u64,
    pub total_input_tokens: u64,
    pub total_output_tokens: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_activity: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

// ---------------------------------------------------------------------------
// Hooks

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookAction {
    #[default]
    Continue,
    Deny,
    Modify,
    InjectContext,
    AskUser,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InjectionRole {
    #[default]
    System,
    User,
    Assistant,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApprovalDefault {
    Allow,
    #[default]
    Deny,
}

/// Ordered by severity: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MessageLevel {
    #[default]
    Info,
    Warning,
    Error,
}

/// What a hook handler tells the kernel to do. Field names and defaults are upstream's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookResult {
    #[serde(default)]
    pub action: HookAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<JsonMap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_injection: Option<String>,
    #[serde(default)]
    pub context_injection_role: InjectionRole,
    #[serde(default)]
    pub ephemeral: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_options: Option<Vec<String>>,
    #[serde(default = "default_approval_timeout")]
    pub approval_timeout: f64,
    #[serde(default)]
    pub approval_default: ApprovalDefault,
    #[serde(default)]
    pub suppress_output: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_message: Option<String>,
    #[serde(default)]
    pub user_message_level: MessageLevel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_message_source: Option<String>,
    #[serde(default)]
    pub append_to_last_tool_result: bool,
    /// Unknown keys from newer modules, kept as upstream's Rust kernel does.
    #[serde(flatten)]
    pub extensions: JsonMap,
}

fn default_approval_timeout() -> f64 {
    300.0
}

impl Default for HookResult {
    fn default() -> Self {
        HookResult {
            action: HookAction::Continue,
            data: None,
            reason: None,
            context_injection: None,
            context_injection_role: InjectionRole::System,
            ephemeral: false,
            approval_prompt: None,
            approval_options: None,
            approval_timeout: default_approval_timeout(),
            approval_default: ApprovalDefault::Deny,
            suppress_output: false,
            user_message: None,
            user_message_level: MessageLevel::Info,
            user_message_source: None,
            append_to_last_tool_result: false,
            extensions: JsonMap::new(),
        }
    }
}

impl HookResult {
    pub fn continue_() -> Self {
        Self::default()
    }

    pub fn deny(reason: impl Into<String>) -> Self {
        HookResult { action: HookAction::Deny, reason: Some(reason.into()), ..Self::default() }
    }

    pub fn modify(data: JsonMap) -> Self {
        HookResult { action: HookAction::Modify, data: Some(data), ..Self::default() }
    }

    pub fn inject(content: impl Into<String>) -> Self {
        HookResult { action: HookAction::InjectContext, context_injection: Some(content.into()), ..Self::default() }
    }

    pub fn ask_user(prompt: impl Into<String>) -> Self {
        HookResult { action: HookAction::AskUser, approval_prompt: Some(prompt.into()), ..Self::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_shared_until_written_and_serialize_as_a_list() {
        let shared: Messages = vec![Message::user("a")].into();
        let mut written = shared.clone();
        written.push(Message::user("b"));
        assert_eq!((shared.len(), written.len()), (1, 2), "writing copied the shared list");
        let json = serde_json::to_string(&written).unwrap();
        assert_eq!(json, r#"[{"role":"user","content":"a"},{"role":"user","content":"b"}]"#);
        assert_eq!(serde_json::from_str::<Messages>(&json).unwrap(), written.clone().into_vec());
    }

    #[test]
    fn a_roles_name_is_the_one_serde_writes() {
        for role in [Role::System, Role::Developer, Role::User, Role::Assistant, Role::Function, Role::Tool] {
            assert_eq!(json!(role.as_str()), serde_json::to_value(role).unwrap());
        }
    }

    #[test]
    fn text_len_is_the_length_of_text_without_building_it() {
        let blocks: MessageContent = serde_json::from_value(json!([
            {"type": "text", "text": "ab"},
            {"type": "thinking", "thinking": "skip"},
            {"type": "text", "text": "cde"},
        ]))
        .unwrap();
        for content in [blocks, MessageContent::Text("héllo".into()), MessageContent::Blocks(Vec::new())] {
            assert_eq!(content.text_len(), content.text().len(), "{content:?}");
        }
    }

    #[test]
    fn unknown_keys_round_trip_on_every_model() {
        let message = json!({
            "role": "assistant",
            "content": [
                {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}},
                {"type": "thinking", "thinking": "hmm", "signature": "s", "reasoning_id": "rs_1"},
                {"type": "tool_call", "id": "c1", "name": "echo", "input": {}, "vendor": 1},
            ],
            "provider_message_id": "msg_1",
        });
        let parsed: Message = serde_json::from_value(message.clone()).unwrap();
        assert_eq!(parsed.extensions["provider_message_id"], "msg_1");
        let MessageContent::Blocks(blocks) = &parsed.content else { panic!("blocks") };
        let ContentBlock::Text { extensions, .. } = &blocks[0] else { panic!("text") };
        assert_eq!(extensions.len(), 1, "the tag is not an extension: {extensions:?}");
        assert_eq!(extensions["cache_control"], json!({"type": "ephemeral"}));
        assert_eq!(serde_json::to_value(&parsed).unwrap(), message);

        let request = json!({"messages": [], "tools": [{"name": "t", "parameters": {"type": "object"}, "strict": true}], "service_tier": "flex"});
        let parsed: ChatRequest = serde_json::from_value(request.clone()).unwrap();
        assert_eq!(serde_json::to_value(&parsed).unwrap(), request);
        let response = json!({"content": [], "usage": {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3, "cached_by": "x"}, "id": "r1"});
        let parsed: ChatResponse = serde_json::from_value(response.clone()).unwrap();
        assert_eq!(serde_json::to_value(&parsed).unwrap(), response);
    }
    use serde_json::json;

    #[test]
    fn hook_result_defaults_match_upstream() {
        let result: HookResult = serde_json::from_value(json!({})).unwrap();
        assert_eq!(result.action, HookAction::Continue);
        assert_eq!(result.approval_timeout, 300.0);
        assert_eq!(result.approval_default, ApprovalDefault::Deny);
        assert_eq!(result.context_injection_role, InjectionRole::System);
        assert!(!result.ephemeral && !result.suppress_output && !result.append_to_last_tool_result);
    }

    #[test]
    fn hook_result_keeps_unknown_keys() {
        let value = json!({"action": "deny", "reason": "no", "future_field": 7});
        let result: HookResult = serde_json::from_value(value).unwrap();
        assert_eq!(result.extensions.get("future_field"), Some(&json!(7)));
        let back = serde_json::to_value(&result).unwrap();
        assert_eq!(back["future_field"], json!(7));
        assert_eq!(back["action"], json!("deny"));
    }

    #[test]
    fn a_message_with_upstreams_tool_call_shape_loads() {
        let stored = json!({"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "tool": "echo", "arguments": {"text": "hi"}}]});
        let message: Message = serde_json::from_value(stored).unwrap();
        let call = &message.tool_calls.unwrap()[0];
        assert_eq!((call.id.as_str(), call.name.as_str()), ("c1", "echo"));
        assert_eq!(call.arguments, json!({"text": "hi"}));
        assert!(call.extensions.is_empty(), "`tool` is the name, not an unknown key: {:?}", call.extensions);
    }

    #[test]
    fn message_content_is_string_or_blocks() {
        let plain: Message = serde_json::from_value(json!({"role": "user", "content": "hi"})).unwrap();
        assert_eq!(plain.content, MessageContent::Text("hi".into()));
        let blocks: Message = serde_json::from_value(json!({
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hm", "signature": "sig=="},
                {"type": "text", "text": "answer"},
                {"type": "tool_call", "id": "c1", "name": "echo", "input": {"x": 1}}
            ]
        }))
        .unwrap();
        assert_eq!(blocks.content.text(), "answer");
        assert_eq!(blocks.requested_tool_call_ids(), vec!["c1"]);
        let round = serde_json::to_value(&blocks).unwrap();
        assert_eq!(round["content"][0]["signature"], json!("sig=="));
        assert_eq!(round["content"][2]["type"], json!("tool_call"));
    }

    #[test]
    fn tool_result_error_populates_output() {
        let result = ToolResult::error("ValidationError", "bad input");
        assert!(!result.success);
        assert_eq!(result.serialized_output(), "bad input");
        assert_eq!(result.error.unwrap()["type"], json!("ValidationError"));
    }

    #[test]
    fn a_results_images_follow_its_output_in_the_message() {
        let plain = Message::tool_result_of("c1", &ToolResult::ok("text"));
        assert_eq!(plain.content, MessageContent::Text("text".into()));
        assert!(serde_json::to_value(ToolResult::ok("text")).unwrap().get("images").is_none(), "unchanged on the wire");
        let source = json!({"type": "base64", "media_type": "image/png", "data": "AAAA"});
        let result = ToolResult { images: vec![source.clone()], ..ToolResult::ok("[image: image/png, 3 bytes]") };
        let message = Message::tool_result_of("c1", &result);
        assert_eq!((message.role, message.tool_call_id.as_deref()), (Role::Tool, Some("c1")));
        assert_eq!(message.content.text(), "[image: image/png, 3 bytes]");
        assert_eq!(message.image_sources(), [&source]);
        let back: ToolResult = serde_json::from_value(serde_json::to_value(&result).unwrap()).unwrap();
        assert_eq!(back, result);
    }

    #[test]
    fn usage_accumulates_tokens_and_cost() {
        let mut total = Usage::default();
        let turn = Usage {
            input_tokens: 10,
            output_tokens: 5,
            total_tokens: 15,
            cost_usd: Some("0.001".into()),
            ..Usage::default()
        };
        total.accumulate(&turn);
        total.accumulate(&turn);
        assert_eq!((total.input_tokens, total.output_tokens, total.total_tokens), (20, 10, 30));
        assert_eq!(total.cost_usd.as_deref(), Some("0.002000"));
    }
}
