//! `provider-local`: a GGUF model run in this process by llama.cpp, on the
//! CPU. No key, no network, no server.
//!
//! ```yaml
//! providers:
//!   - module: provider-local
//!     config:
//!       model: qwen2.5-coder-0.5b   # a known model (`amplifier model list`) or a .gguf path
//!       n_threads: 2                # default: every core
//!       max_tokens: 1024
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/provider-local.md`.
//!
//! The model is loaded once per process and shared by every session that
//! mounts it. Text streams as it is decoded (`content_block:delta`, and
//! `StreamDelta`s to a caller that streams); a ```json block naming an
//! offered tool becomes a tool call, held back from the stream until it is
//! known not to be one (see `amplifier_models::chat`).
//!
//! llama.cpp is built without OpenMP (`third_party/llama-cpp-sys-2`): ggml's
//! own thread pool needs no runtime library beside the binary, and its
//! threads sleep between requests without the `OMP_WAIT_POLICY` that
//! libgomp reads before `main`, too early for a built-in module to set it.

mod engine;

use std::sync::Arc;

use amplifier_models::{chat, ModelRef, DEFAULT_MODEL};
use amplifier_sdk::prelude::*;
use amplifier_sdk::provider_events::ToolSequenceRepair;
use amplifier_sdk::provider_events::{Deltas, LlmCall};
use amplifier_sdk::ProviderInfo;
use serde::Deserialize;

use crate::engine::{Engine, Failure, Generation};

const PROVIDER: &str = "local";

/// Unknown keys are refused by the host against `amplifier.toml`'s schema,
/// which holds the literal defaults (the loader fills them in). Those left
/// here are computed: `model` is `amplifier_models::DEFAULT_MODEL`, which
/// the CLI also reads (to fetch a plan's models), `n_threads` every core.
#[derive(Debug, Deserialize)]
struct Config {
    #[serde(default = "default_model")]
    model: String,
    #[serde(default)]
    n_threads: Option<u32>,
    n_ctx: u32,
    max_tokens: u32,
    temperature: f32,
    seed: u32,
    act_first: bool,
}

fn default_model() -> String {
    DEFAULT_MODEL.to_owned()
}

struct LocalProvider {
    host: Host,
    /// Stand-in results for tool calls a history left unanswered.
    repair: ToolSequenceRepair,
    model_name: String,
    engine: Arc<Engine>,
    settings: Generation,
    act_first: bool,
}

impl LocalProvider {
    /// The window requests must fit: `n_ctx`, at most the model's own. Given
    /// to the context as the model's (not the 32,768 tokens Qwen was trained
    /// with), so that it compacts a history before the prompt outgrows
    /// `n_ctx`, which generation refuses.
    fn context_window(&self) -> u32 {
        self.settings.n_ctx.min(self.engine.trained_context())
    }
}

impl Provider for LocalProvider {
    fn info(&self) -> ProviderInfo {
        let mut defaults = JsonMap::new();
        defaults.insert("model".into(), json!(self.model_name));
        defaults.insert("max_tokens".into(), json!(self.settings.max_tokens));
        // What a context derives its budget from (upstream's model info).
        defaults.insert("context_window".into(), json!(self.context_window()));
        defaults.insert("max_output_tokens".into(), json!(self.settings.max_tokens));
        defaults.insert("n_threads".into(), json!(self.settings.n_threads));
        ProviderInfo {
            id: PROVIDER.to_owned(),
            display_name: "Local model (llama.cpp, in-process)".to_owned(),
            capabilities: vec!["tools".to_owned(), "streaming".to_owned()],
            defaults,
            ..ProviderInfo::default()
        }
    }

    async fn list_models(&self) -> ModuleResult<Vec<ModelInfo>> {
        Ok(vec![ModelInfo {
            id: self.model_name.clone(),
            display_name: self.model_name.clone(),
            context_window: u64::from(self.context_window()),
            max_output_tokens: u64::from(self.settings.max_tokens),
            capabilities: vec!["tools".to_owned(), "streaming".to_owned()],
            ..ModelInfo::default()
        }])
    }

    async fn complete(&self, mut request: ChatRequest, stream: Stream) -> ModuleResult<ChatResponse> {
        self.repair.repair(&mut request, &self.host, PROVIDER).await;
        let offered = request.tools.clone().unwrap_or_default();
        let (tools, forced) = callable(&request, offered, self.act_first);
        let turns = chat::turns(&request);
        let settings = Generation {
            max_tokens: request
                .max_output_tokens
                .map_or(self.settings.max_tokens, |n| n.min(u64::from(u32::MAX)) as u32),
            temperature: request.temperature.map_or(self.settings.temperature, |t| t as f32),
            ..self.settings
        };
        let details = json!({"message_count": request.messages.len(), "tool_count": tools.len(), "stream": true});
        let call = LlmCall::start(&self.host, PROVIDER, &self.model_name, details).await;
        let quiet = request.stream == Some(false);
        let constraint = match amplifier_models::grammar::tool_calls(&tools) {
            Some(grammar) => Some(engine::Constraint { grammar, from_start: forced }),
            None if request.messages.iter().any(|m| m.role == Role::Tool) => {
                Some(engine::Constraint { grammar: amplifier_models::grammar::NO_CALL.to_owned(), from_start: true })
            }
            None => None,
        };
        let outcome = self.generate(turns, settings, (&tools, constraint), (&stream, quiet)).await;
        call.finish(&outcome).await;
        outcome
    }
}

impl LocalProvider {
    async fn generate(
        &self,
        turns: Vec<chat::Turn>,
        settings: Generation,
        (tools, grammar): (&[ToolSpec], Option<engine::Constraint>),
        (stream, quiet): (&Stream, bool),
    ) -> ModuleResult<ChatResponse> {
        // Decoding is CPU-bound: it runs on a blocking thread and sends text
        // back here, where it becomes events and stream deltas. If this call
        // is cancelled (the receiver dropped), decoding stops at the next token.
        let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<String>();
        let engine = self.engine.clone();
        let worker = tokio::task::spawn_blocking(move || {
            engine.generate(&turns, &settings, grammar.as_ref(), |text| sender.send(text.to_owned()).is_ok())
        });
        let mut deltas = Deltas::new(&self.host, stream, PROVIDER).quiet(quiet);
        let mut reply = String::new();
        let mut shown = 0;
        while let Some(piece) = receiver.recv().await {
            reply.push_str(&piece);
            let visible = if tools.is_empty() { reply.len() } else { chat::shown_prefix(&reply) };
            if visible > shown {
                deltas.text(0, &reply[shown..visible]).await;
                shown = visible;
            }
        }
        let outcome = match worker.await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(Failure::ContextLength(message))) => {
                return Err(ModuleError::new(ErrorKind::ContextLength, format!("{PROVIDER}: {message}")))
            }
            Ok(Err(Failure::Internal(message))) => return Err(ModuleError::internal(format!("{PROVIDER}: {message}"))),
            Err(err) => return Err(ModuleError::internal(format!("{PROVIDER}: generation stopped: {err}"))),
        };
        let (text, calls) = chat::split_reply(&reply, tools);
        // Held back as a possible tool call, and it was not one.
        if calls.is_empty() && reply.len() > shown {
            deltas.text(0, &reply[shown..]).await;
        }
        let tool_calls: Vec<ToolCall> = calls
            .into_iter()
            .enumerate()
            .map(|(index, (name, arguments))| ToolCall {
                id: format!("call_{}", index + 1),
                name,
                arguments,
                extensions: JsonMap::new(),
            })
            .collect();
        for (index, call) in tool_calls.iter().enumerate() {
            deltas.tool_call(index, Some(&call.id), Some(&call.name), &call.arguments.to_string()).await;
        }
        let finish_reason = match (tool_calls.is_empty(), outcome.finished) {
            (false, _) => "tool_calls",
            (true, true) => "stop",
            (true, false) => "length",
        };
        let usage = Usage {
            input_tokens: outcome.prompt_tokens,
            output_tokens: outcome.output_tokens,
            total_tokens: outcome.prompt_tokens + outcome.output_tokens,
            ..Usage::default()
        };
        Ok(ChatResponse {
            content: if text.is_empty() { Vec::new() } else { vec![ContentBlock::text(text)] },
            tool_calls: (!tool_calls.is_empty()).then_some(tool_calls),
            usage: Some(usage),
            finish_reason: Some(finish_reason.to_owned()),
            ..ChatResponse::default()
        })
    }
}

/// The tools the reply may call, and whether it must call one, from the
/// request's `tool_choice` (OpenAI's values: `auto`, `none`, `required`, or
/// one function by name) and `act_first`: a turn's first reply (the
/// conversation ends with the user's message) calls a tool. After a reply
/// that only repeated earlier calls, none is offered.
fn callable(request: &ChatRequest, offered: Vec<ToolSpec>, act_first: bool) -> (Vec<ToolSpec>, bool) {
    fn named(choice: &Value) -> Option<&str> {
        choice.get("function").and_then(|f| f.get("name")).or_else(|| choice.get("name")).and_then(Value::as_str)
    }
    match request.tool_choice.as_ref() {
        Some(Value::String(choice)) if choice == "none" => (Vec::new(), false),
        Some(Value::String(choice)) if choice == "required" || choice == "any" => {
            let forced = !offered.is_empty();
            (offered, forced)
        }
        Some(choice @ Value::Object(_)) if named(choice).is_some() => {
            let name = named(choice).unwrap_or_default();
            let one: Vec<ToolSpec> = offered.into_iter().filter(|tool| tool.name == name).collect();
            let forced = !one.is_empty();
            (one, forced)
        }
        // The same call again would get the same results: the reply answers.
        _ if chat::repeats_a_call(request) => (Vec::new(), false),
        _ => {
            let last = request.messages.iter().rev().find(|m| !matches!(m.role, Role::System | Role::Developer));
            let opens_turn = last.is_some_and(|m| m.role == Role::User);
            let forced = act_first && opens_turn && !offered.is_empty();
            (offered, forced)
        }
    }
}

fn mount(ctx: MountContext) -> ModuleResult<LocalProvider> {
    let config: Config = ctx.config()?;
    let invalid = |message: String| ModuleError::new(ErrorKind::InvalidRequest, format!("{}: {message}", ctx.module));
    let model = ModelRef::parse(&config.model, std::path::Path::new(""))
        .map_err(|err| invalid(format!("config.model: {err}")))?;
    let path = model.path();
    if !path.is_file() {
        let hint = match model {
            ModelRef::Known(known) => {
                format!("\nhint: run `{}` ({} MB)", known.pull_command(), known.size_bytes / 1_000_000)
            }
            ModelRef::File(_) => String::new(),
        };
        return Err(ModuleError::new(
            ErrorKind::NotFound,
            format!("{}: model '{}' is not installed at {}{hint}", ctx.module, config.model, path.display()),
        ));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let n_threads = config.n_threads.unwrap_or(cores).max(1);
    let engine = engine::engine(&path).map_err(|err| ModuleError::internal(format!("{}: {err}", ctx.module)))?;
    tracing::debug!(model = %config.model, path = %path.display(), n_threads, "provider-local mounted");
    Ok(LocalProvider {
        host: ctx.host,
        repair: ToolSequenceRepair::default(),
        model_name: config.model,
        act_first: config.act_first,
        engine,
        settings: Generation {
            n_ctx: config.n_ctx,
            n_threads: n_threads as i32,
            max_tokens: config.max_tokens,
            temperature: config.temperature,
            seed: config.seed,
        },
    })
}

export_module!(provider => mount);
