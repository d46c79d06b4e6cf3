//! llama.cpp in this process: one backend, each model file loaded once,
//! generation on a blocking thread with the text sent back as it comes.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;

use amplifier_models::chat::Turn;
use amplifier_models::grammar;

/// Tokens decoded per batch while reading the prompt.
const BATCH: usize = 512;

/// llama.cpp allows one backend per process.
fn backend() -> Result<&'static LlamaBackend, String> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp logs every tensor it loads, and warns about quirks of
            // model files that are no fault of the user's: only with -vv.
            let verbose = tracing::enabled!(tracing::Level::DEBUG);
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default().with_logs_enabled(verbose));
            LlamaBackend::init().map_err(|err| format!("cannot start llama.cpp: {err}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// A loaded model. One generation runs at a time: the CPU is the bottleneck
/// and llama.cpp's context creation is not safe in parallel.
pub struct Engine {
    /// Loaded once and kept for the process, so a context can borrow it.
    model: &'static LlamaModel,
    template: LlamaChatTemplate,
    /// The context kept from the last generation, with the tokens in its KV
    /// cache. An agent loop resends the whole conversation every time, so
    /// only what is new since the last call is decoded (as llama.cpp's
    /// server does with its prompt cache).
    cache: Mutex<Option<Cache>>,
}

struct Cache {
    ctx: LlamaContext<'static>,
    n_ctx: u32,
    n_threads: i32,
    tokens: Vec<LlamaToken>,
}

/// The model at `path`, loaded on first use and kept for the process.
pub fn engine(path: &Path) -> Result<Arc<Engine>, String> {
    static ENGINES: OnceLock<Mutex<HashMap<PathBuf, Arc<Engine>>>> = OnceLock::new();
    let mut engines = ENGINES.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(engine) = engines.get(path) {
        return Ok(engine.clone());
    }
    let backend = backend()?;
    let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
        .map_err(|err| format!("cannot load the model {}: {err}", path.display()))?;
    let template = model
        .chat_template(None)
        .map_err(|err| format!("the model {} has no usable chat template: {err}", path.display()))?;
    let engine = Arc::new(Engine { model: Box::leak(Box::new(model)), template, cache: Mutex::new(None) });
    engines.insert(path.to_owned(), engine.clone());
    Ok(engine)
}

/// A grammar (GBNF) the reply must fit.
pub struct Constraint {
    pub grammar: String,
    /// The whole reply fits the grammar; else only what follows
    /// [`grammar::TRIGGER`], where the model chooses to start a call.
    pub from_start: bool,
}

/// What one generation is asked to do.
#[derive(Debug, Clone, Copy)]
pub struct Generation {
    pub n_ctx: u32,
    pub n_threads: i32,
    pub max_tokens: u32,
    /// `0` is greedy (deterministic).
    pub temperature: f32,
    pub seed: u32,
}

/// How a generation ended.
pub struct Outcome {
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// `false` when `max_tokens` cut it, or nobody was listening any more.
    pub finished: bool,
}

/// A generation's failure, with the kind upstream gives it.
pub enum Failure {
    ContextLength(String),
    Internal(String),
}

impl Engine {
    /// The context the model was trained with: the most `n_ctx` may be.
    pub fn trained_context(&self) -> u32 {
        self.model.n_ctx_train()
    }

    /// Greedy at temperature 0, else sampled; behind the grammar when there is one.
    fn sampler(&self, settings: &Generation, grammar: Option<&Constraint>) -> LlamaSampler {
        let choose = if settings.temperature <= 0.0 {
            vec![LlamaSampler::greedy()]
        } else {
            vec![LlamaSampler::temp(settings.temperature), LlamaSampler::dist(settings.seed)]
        };
        // The trigger is a regex for llama.cpp (std::regex): backticks and
        // letters stand for themselves.
        let constrained = grammar.map(|constraint| match constraint.from_start {
            true => LlamaSampler::grammar(self.model, &constraint.grammar, "root"),
            false => LlamaSampler::grammar_lazy_patterns(
                self.model,
                &constraint.grammar,
                "root",
                &[grammar::TRIGGER.to_owned()],
                &[],
            ),
        });
        match constrained {
            Some(Ok(grammar)) => LlamaSampler::chain_simple(std::iter::once(grammar).chain(choose)),
            Some(Err(err)) => {
                // A schema the grammar cannot express must not stop the model.
                tracing::warn!(error = %err, "the tool-call grammar was refused; decoding unconstrained");
                LlamaSampler::chain_simple(choose)
            }
            None => LlamaSampler::chain_simple(choose),
        }
    }

    /// Generates a reply to `turns`, calling `on_text` with each piece of text
    /// as it is decoded (whole UTF-8 characters only); `on_text` returning
    /// false (nobody is listening any more) stops the generation. The text
    /// must fit `grammar`, if any: all of it, or what follows its trigger.
    pub fn generate(
        &self,
        turns: &[Turn],
        settings: &Generation,
        grammar: Option<&Constraint>,
        mut on_text: impl FnMut(&str) -> bool,
    ) -> Result<Outcome, Failure> {
        let internal = |what: &str, err: &dyn std::fmt::Display| Failure::Internal(format!("{what}: {err}"));
        let chat: Vec<LlamaChatMessage> = turns
            .iter()
            .map(|turn| LlamaChatMessage::new(turn.role.to_owned(), turn.content.clone()))
            .collect::<Result<_, _>>()
            .map_err(|err| internal("a message holds a NUL byte", &err))?;
        let prompt = self
            .model
            .apply_chat_template(&self.template, &chat, true)
            .map_err(|err| internal("cannot apply the chat template", &err))?;
        let vocab = self.model.vocab();
        let tokens = vocab.tokenize(prompt.as_bytes(), true, true);
        let n_ctx = settings.n_ctx.min(self.model.n_ctx_train()).max(1);
        if tokens.len() as u64 >= u64::from(n_ctx) {
            return Err(Failure::ContextLength(format!(
                "the prompt is {} tokens; the context window is {n_ctx} (config `n_ctx`, at most the model's {})",
                tokens.len(),
                self.model.n_ctx_train()
            )));
        }
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let reusable = cache.as_ref().is_some_and(|c| c.n_ctx == n_ctx && c.n_threads == settings.n_threads);
        if !reusable {
            let params = LlamaContextParams::default()
                .with_n_ctx(NonZeroU32::new(n_ctx))
                .with_n_batch(BATCH as u32)
                .with_n_threads(settings.n_threads)
                .with_n_threads_batch(settings.n_threads);
            let ctx = self
                .model
                .new_context(backend().map_err(|err| Failure::Internal(err.clone()))?, params)
                .map_err(|err| internal("cannot create a llama.cpp context", &err))?;
            *cache = Some(Cache { ctx, n_ctx, n_threads: settings.n_threads, tokens: Vec::new() });
        }
        let Cache { ctx, tokens: cached, .. } = cache.as_mut().expect("set above");
        // Keep the common prefix; at least one token is decoded, for its logits.
        let mut common = cached.iter().zip(&tokens).take_while(|(a, b)| a == b).count().min(tokens.len() - 1);
        let trimmed = ctx.clear_kv_cache_seq(Some(0), Some(common as u32), None).unwrap_or(false);
        if !trimmed {
            ctx.clear_kv_cache();
            common = 0;
        }
        cached.clear();
        let started = std::time::Instant::now();
        let mut batch = LlamaBatch::new(BATCH, 1);
        let last = tokens.len() - 1;
        for (chunk_index, chunk) in tokens[common..].chunks(BATCH).enumerate() {
            batch.clear();
            for (offset, token) in chunk.iter().enumerate() {
                let position = common + chunk_index * BATCH + offset;
                batch
                    .add(*token, position as i32, &[0], position == last)
                    .map_err(|err| internal("cannot batch the prompt", &err))?;
            }
            ctx.decode(&mut batch).map_err(|err| internal("llama.cpp failed on the prompt", &err))?;
        }
        cached.extend_from_slice(&tokens);

        let prompt_done = std::time::Instant::now();
        let mut sampler = self.sampler(settings, grammar);
        // The room left after the prompt caps the reply too.
        let budget = u64::from(settings.max_tokens).min(u64::from(n_ctx) - tokens.len() as u64);
        let mut position = tokens.len() as i32;
        let mut pending: Vec<u8> = Vec::new();
        let mut output_tokens = 0;
        let mut finished = false;
        while output_tokens < budget {
            let token = sampler.sample(ctx, batch.n_tokens() - 1);
            if vocab.is_eog(token) {
                finished = true;
                break;
            }
            output_tokens += 1;
            pending.extend(vocab.token_to_piece(token, false, None));
            // A token may end inside a character: send what is whole.
            let whole = match std::str::from_utf8(&pending) {
                Ok(text) => text.len(),
                Err(err) => err.valid_up_to(),
            };
            if whole > 0 {
                let listening = on_text(std::str::from_utf8(&pending[..whole]).expect("checked above"));
                pending.drain(..whole);
                if !listening {
                    break;
                }
            }
            batch.clear();
            batch.add(token, position, &[0], true).map_err(|err| internal("cannot batch a token", &err))?;
            position += 1;
            ctx.decode(&mut batch).map_err(|err| internal("llama.cpp failed while generating", &err))?;
            cached.push(token);
        }
        tracing::debug!(
            prompt_tokens = tokens.len(),
            reused = common,
            output_tokens,
            finished,
            prompt_ms = (prompt_done - started).as_millis() as u64,
            decode_ms = prompt_done.elapsed().as_millis() as u64,
            "local generation done"
        );
        Ok(Outcome { prompt_tokens: tokens.len() as u64, output_tokens, finished })
    }
}
