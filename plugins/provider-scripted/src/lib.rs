//! A provider that plays a script instead of calling a model.
//!
//! ```yaml
//! config:
//!   script:
//!     - tool_calls: [{name: echo, arguments: {text: hi}}]
//!       repeat: 3                  # this turn three times in a row
//!     - text: "Done."
//!       usage: {input_tokens: 10, output_tokens: 2, total_tokens: 12}
//!     - fail: {kind: rate_limit, message: "slow down"}
//!   echo_last_user: true           # after the script: answer with the last user message
//! ```
//!
//! After the last turn it repeats that turn, or echoes the last user message.
//! Tool call ids are `call_1`, `call_2`, … so runs are reproducible.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use amplifier_sdk::prelude::*;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
struct ScriptedCall {
    name: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Debug, Clone, Deserialize)]
struct Failure {
    #[serde(default = "internal_kind")]
    kind: ErrorKind,
    message: String,
}

fn internal_kind() -> ErrorKind {
    ErrorKind::Internal
}

#[derive(Debug, Clone, Default, Deserialize)]
struct Turn {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    thinking: Option<String>,
    #[serde(default)]
    tool_calls: Vec<ScriptedCall>,
    #[serde(default)]
    usage: Option<Usage>,
    #[serde(default)]
    fail: Option<Failure>,
    /// The response's `metadata`: a provider's state across steps.
    #[serde(default)]
    metadata: Option<JsonMap>,
    #[serde(default = "one")]
    repeat: usize,
}

fn one() -> usize {
    1
}

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults
/// (those of a turn's fields, nested in `script`, are here).
#[derive(Debug, Deserialize)]
struct Config {
    script: Vec<Turn>,
    default_model: String,
    echo_last_user: bool,
    stream_chunk_chars: usize,
    /// Append every request received (messages and tools) as a JSON line here,
    /// so tests can check exactly what a model was shown.
    #[serde(default)]
    requests_log: Option<PathBuf>,
}

struct ScriptedProvider {
    /// The script with `repeat` expanded lazily: (turn, how many times).
    turns: Vec<Turn>,
    model: String,
    echo_last_user: bool,
    chunk_chars: usize,
    /// Calls answered so far.
    calls: AtomicUsize,
    next_call_id: AtomicU64,
    requests_log: Option<Mutex<File>>,
}

impl ScriptedProvider {
    /// The turn for the `n`th call (0-based), honouring `repeat`.
    fn turn_for(&self, mut n: usize) -> Option<&Turn> {
        for turn in &self.turns {
            if n < turn.repeat {
                return Some(turn);
            }
            n -= turn.repeat;
        }
        None
    }

    fn record(&self, request: &ChatRequest) -> ModuleResult<()> {
        let Some(log) = &self.requests_log else { return Ok(()) };
        let mut line = serde_json::to_vec(&json!({"messages": request.messages, "tools": request.tools}))
            .map_err(|err| ModuleError::internal(err.to_string()))?;
        line.push(b'\n');
        let mut file = log.lock().map_err(|_| ModuleError::internal("requests log lock poisoned"))?;
        file.write_all(&line).map_err(|err| ModuleError::internal(format!("cannot write the requests log: {err}")))
    }

    fn respond(&self, request: &ChatRequest, stream: &Stream) -> ModuleResult<ChatResponse> {
        self.record(request)?;
        let n = self.calls.fetch_add(1, Ordering::Relaxed);
        let past_end = self.turn_for(n).is_none();
        let turn = match (self.turn_for(n), self.echo_last_user) {
            (Some(turn), _) => turn.clone(),
            (None, true) => Turn { text: Some(last_user_text(request)), ..Turn::default() },
            (None, false) => self
                .turns
                .last()
                .cloned()
                .unwrap_or_else(|| Turn { text: Some(last_user_text(request)), ..Turn::default() }),
        };
        if let Some(failure) = &turn.fail {
            return Err(ModuleError::new(failure.kind, failure.message.clone()));
        }
        tracing::debug!(call = n, past_end, "scripted turn");
        let mut content = Vec::new();
        if let Some(thinking) = &turn.thinking {
            self.stream_text(stream, content.len(), thinking, true);
            content.push(ContentBlock::Thinking {
                extensions: Default::default(),
                thinking: thinking.clone(),
                signature: None,
                content: None,
                visibility: None,
            });
        }
        if let Some(text) = &turn.text {
            self.stream_text(stream, content.len(), text, false);
            content.push(ContentBlock::text(text.clone()));
        }
        let tool_calls: Vec<ToolCall> = turn
            .tool_calls
            .iter()
            .enumerate()
            .map(|(index, call)| {
                let id = format!("call_{}", self.next_call_id.fetch_add(1, Ordering::Relaxed) + 1);
                let arguments = if call.arguments.is_null() { json!({}) } else { call.arguments.clone() };
                stream.send(&StreamDelta::ToolCall {
                    index,
                    id: Some(id.clone()),
                    name: Some(call.name.clone()),
                    arguments: arguments.to_string(),
                });
                ToolCall { id, name: call.name.clone(), arguments, extensions: Default::default() }
            })
            .collect();
        let usage = turn.usage.clone().unwrap_or_else(|| estimate_usage(request, &content));
        Ok(ChatResponse {
            finish_reason: Some(if tool_calls.is_empty() { "stop" } else { "tool_calls" }.to_owned()),
            tool_calls: (!tool_calls.is_empty()).then_some(tool_calls),
            content,
            usage: Some(usage),
            metadata: turn.metadata.clone(),
            ..ChatResponse::default()
        })
    }

    fn stream_text(&self, stream: &Stream, index: usize, text: &str, thinking: bool) {
        if !stream.is_enabled() {
            return;
        }
        let chars: Vec<char> = text.chars().collect();
        for piece in chars.chunks(self.chunk_chars) {
            let text: String = piece.iter().collect();
            let delta =
                if thinking { StreamDelta::Thinking { index, text } } else { StreamDelta::Text { index, text } };
            stream.send(&delta);
        }
    }
}

fn last_user_text(request: &ChatRequest) -> String {
    request.messages.iter().rev().find(|m| m.role == Role::User).map(|m| m.content.text()).unwrap_or_default()
}

/// About four characters per token, as the context managers estimate.
fn estimate_usage(request: &ChatRequest, content: &[ContentBlock]) -> Usage {
    let input_chars: usize = request.messages.iter().map(|m| m.content.text_len()).sum();
    let output_chars: usize = content
        .iter()
        .map(|block| match block {
            ContentBlock::Text { text, .. } => text.len(),
            ContentBlock::Thinking { thinking, .. } => thinking.len(),
            _ => 0,
        })
        .sum();
    let input_tokens = input_chars.div_ceil(4) as u64;
    let output_tokens = output_chars.div_ceil(4) as u64;
    Usage { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens, ..Usage::default() }
}

impl Provider for ScriptedProvider {
    fn info(&self) -> ProviderInfo {
        ProviderInfo {
            id: "scripted".to_owned(),
            display_name: "Scripted (deterministic)".to_owned(),
            capabilities: vec!["tools".to_owned(), "streaming".to_owned()],
            // The window and output of its one model (`list_models`).
            defaults: event_data(
                json!({"model": self.model, "context_window": 1_000_000, "max_output_tokens": 100_000}),
            ),
            ..ProviderInfo::default()
        }
    }

    async fn list_models(&self) -> ModuleResult<Vec<ModelInfo>> {
        Ok(vec![ModelInfo {
            id: "script".to_owned(),
            display_name: "The configured script".to_owned(),
            context_window: 1_000_000,
            max_output_tokens: 100_000,
            capabilities: vec!["tools".to_owned()],
            ..ModelInfo::default()
        }])
    }

    async fn complete(&self, request: ChatRequest, stream: Stream) -> ModuleResult<ChatResponse> {
        self.respond(&request, &stream)
    }

    /// It answers at once, unless it writes each request to a file.
    fn may_block(&self) -> bool {
        self.requests_log.is_some()
    }
}

fn mount(ctx: MountContext) -> ModuleResult<ScriptedProvider> {
    let config: Config = ctx.config()?;
    let requests_log = match &config.requests_log {
        Some(path) => Some(Mutex::new(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|err| ModuleError::internal(format!("cannot open {}: {err}", path.display())))?,
        )),
        None => None,
    };
    Ok(ScriptedProvider {
        requests_log,
        turns: config.script,
        model: config.default_model,
        echo_last_user: config.echo_last_user,
        chunk_chars: config.stream_chunk_chars.max(1),
        calls: AtomicUsize::new(0),
        next_call_id: AtomicU64::new(0),
    })
}

export_module!(provider => mount);
