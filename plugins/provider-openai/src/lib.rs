//! `provider-openai`: OpenAI's Responses API, and any OpenAI-compatible
//! Chat Completions server: OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp's
//! server, LM Studio.
//!
//! ```yaml
//! providers:
//!   - module: provider-openai
//!     source: ../plugins/provider-openai
//!     config:
//!       base_url: http://localhost:11434/v1   # default: $OPENAI_BASE_URL, else https://api.openai.com/v1
//!       api_key: ${OPENAI_API_KEY}             # default: $OPENAI_API_KEY; none for local servers
//!       default_model: llama3.2
//!       max_tokens: 1024
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/provider-openai.md`.
//!
//! `api` picks the wire format: the Responses API (`responses.rs`), which
//! OpenAI's newest models require and upstream speaks, or Chat Completions
//! (`chat.rs`), which local servers implement; by default the first for
//! OpenAI's own API and the second for every other server. Both stream over
//! SSE (`use_streaming`): deltas become `content_block:delta` events and,
//! when the caller streams, `StreamDelta`s. Retries, error kinds, `llm:*`
//! events and pricing are shared with provider-anthropic
//! (`amplifier-provider-http`).

mod chat;
mod responses;

use std::collections::BTreeMap;

use amplifier_provider_http::api::{Api, StreamDecoder};
use amplifier_provider_http::http::http_client;
use amplifier_provider_http::pricing::{self, PriceTable};
use amplifier_provider_http::retry::{RetryConfig, RetryPolicy};
use amplifier_provider_http::{
    api_key, api_key_field, base_url, header_map, host_of, info_defaults, run_completion, seconds, CompletionContext,
};
use amplifier_sdk::prelude::*;
use amplifier_sdk::provider_events::ToolSequenceRepair;
use amplifier_sdk::{events, ConfigField, ModelInfo, ProviderInfo};
use serde::Deserialize;

const PROVIDER: &str = "openai";
const KEY_ENV: &str = "OPENAI_API_KEY";
const BASE_URL_ENV: &str = "OPENAI_BASE_URL";
const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The host whose API speaks the Responses API when `api` is `auto`.
const RESPONSES_HOST: &str = "api.openai.com";
const DEFAULT_MAX_RETRIES: usize = 3;

/// The module's `config`; the loader has filled in `amplifier.toml`'s
/// defaults. Those left here are computed (`base_url`, `api_key`: the
/// environment; `temperature`, `max_tokens`: the server's) or shared
/// (`priority`: the host's; the retry keys: `amplifier-provider-http`'s).
#[derive(Debug, Deserialize)]
struct Config {
    /// Read by the host to order providers.
    #[serde(default)]
    #[allow(dead_code)]
    priority: Option<i64>,
    #[serde(default)]
    base_url: Option<String>,
    #[serde(default)]
    api_key: Option<String>,
    /// `Authorization` (sent as `Bearer <key>`) or another header that
    /// carries the bare key (Azure: `api-key`).
    api_key_header: String,
    /// Extra headers on every request.
    headers: BTreeMap<String, String>,
    api: ApiChoice,
    default_model: String,
    #[serde(default)]
    temperature: Option<f64>,
    #[serde(default)]
    max_tokens: Option<u64>,
    #[serde(default)]
    reasoning: Option<String>,
    #[serde(default)]
    reasoning_summary: Option<String>,
    enable_response_chaining: Chaining,
    enable_state: bool,
    /// Seconds to wait for the next byte (connection, headers, each piece of the body).
    timeout: f64,
    use_streaming: bool,
    #[serde(flatten)]
    retry: RetryConfig<DEFAULT_MAX_RETRIES>,
    pricing: PriceTable,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum ApiChoice {
    Auto,
    Responses,
    Chat,
}

/// Upstream's tri-state `enable_response_chaining`: `true`, `false`, or
/// `"auto"` (on for reasoning models).
#[derive(Debug, Deserialize, Clone, Copy, PartialEq)]
#[serde(untagged)]
enum Chaining {
    Set(bool),
    Auto(Auto),
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Auto {
    Auto,
}

/// The wire format a mounted provider speaks.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Wire {
    Responses,
    Chat,
}

/// Whether `model` is one of OpenAI's reasoning models (the o-series, GPT-5
/// but its chat variants): they refuse sampling settings, take
/// `max_completion_tokens` over Chat Completions, and return encrypted
/// reasoning. A vendor prefix (`openai/o3`) is looked through.
pub(crate) fn reasoning_model(model: &str) -> bool {
    let name = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
    let o_series = name.strip_prefix('o').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    o_series || (name.starts_with("gpt-5") && !name.contains("-chat"))
}

struct OpenAiProvider {
    host: Host,
    /// Stand-in results for tool calls a history left unanswered.
    repair: ToolSequenceRepair,
    api: Api,
    wire: Wire,
    config: Config,
    retry: RetryPolicy,
}

impl Provider for OpenAiProvider {
    fn info(&self) -> ProviderInfo {
        let mut defaults = info_defaults(
            &self.config.default_model,
            self.api.base_url(),
            self.config.timeout,
            self.config.retry.max_retries(),
        );
        if let Some(max_tokens) = self.config.max_tokens {
            defaults.insert("max_tokens".into(), json!(max_tokens));
        }
        let (display_name, api) = match self.wire {
            Wire::Responses => ("OpenAI (Responses API)", "responses"),
            Wire::Chat => ("OpenAI-compatible (Chat Completions)", "chat"),
        };
        defaults.insert("api".into(), json!(api));
        ProviderInfo {
            id: PROVIDER.to_owned(),
            display_name: display_name.to_owned(),
            credential_env_vars: vec![KEY_ENV.to_owned()],
            capabilities: vec!["tools".to_owned(), "streaming".to_owned()],
            defaults,
            config_fields: vec![
                api_key_field("OpenAI API key (none for local servers)", KEY_ENV),
                ConfigField {
                    id: "base_url".to_owned(),
                    display_name: "Base URL".to_owned(),
                    field_type: "text".to_owned(),
                    prompt: "API base URL, e.g. http://localhost:11434/v1".to_owned(),
                    env_var: Some(BASE_URL_ENV.to_owned()),
                    required: false,
                    default: Some(json!(DEFAULT_BASE_URL)),
                    ..ConfigField::default()
                },
            ],
        }
    }

    async fn list_models(&self) -> ModuleResult<Vec<ModelInfo>> {
        let idle = seconds(None, self.config.timeout);
        Ok(chat::models(&self.api.get_json("models", idle, &self.retry, &self.host).await?))
    }

    async fn complete(&self, mut request: ChatRequest, stream: Stream) -> ModuleResult<ChatResponse> {
        self.repair.repair(&mut request, &self.host, PROVIDER).await;
        // A request's `stream: false` (an internal call) is sent whole, so no
        // deltas reach the hooks; a caller that streams gets its stream.
        let streaming = stream.is_enabled() || (self.config.use_streaming && request.stream != Some(false));
        match self.wire {
            Wire::Chat => {
                let defaults = chat::Defaults {
                    model: &self.config.default_model,
                    temperature: self.config.temperature,
                    max_tokens: self.config.max_tokens,
                    reasoning: self.config.reasoning.as_deref(),
                };
                let body = chat::request_body(&request, &defaults, streaming);
                let call = Call { path: "chat/completions", request: &request, streaming, stream: &stream };
                self.send::<chat::StreamAccumulator>(call, &body, chat::parse_response).await
            }
            Wire::Responses => self.complete_responses(&request, streaming, &stream).await,
        }
    }
}

/// One completion call, whatever the wire format.
#[derive(Clone, Copy)]
struct Call<'a> {
    path: &'static str,
    request: &'a ChatRequest,
    streaming: bool,
    stream: &'a Stream,
}

impl OpenAiProvider {
    async fn complete_responses(
        &self,
        request: &ChatRequest,
        streaming: bool,
        stream: &Stream,
    ) -> ModuleResult<ChatResponse> {
        let settings = responses::Settings {
            model: &self.config.default_model,
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
            reasoning: self.config.reasoning.as_deref(),
            reasoning_summary: self.config.reasoning_summary.as_deref(),
            store: self.config.enable_state,
        };
        let model = request.model.as_deref().unwrap_or(&self.config.default_model);
        let chaining = match self.config.enable_response_chaining {
            Chaining::Set(on) => on,
            Chaining::Auto(Auto::Auto) => reasoning_model(model),
        };
        let chain = if chaining { responses::chain_point(&request.messages) } else { None };
        let call = Call { path: "responses", request, streaming, stream };
        let body = responses::request_body(request, &settings, streaming, chain.as_ref());
        let result = self.send::<responses::StreamAccumulator>(call, &body, responses::parse_response).await;
        let Some(chain) = chain else { return result };
        match result {
            // Stored responses expire, and a server may not keep them at all:
            // send the whole history instead.
            Err(err) if chain_gone(&err) => {
                let data = json!({
                    "provider": PROVIDER,
                    "model": model,
                    "previous_response_id": chain.previous_response_id,
                    "error": err.message,
                });
                let data = data.as_object().cloned().unwrap_or_default();
                self.host.emit(events::PROVIDER_RESPONSE_CHAIN_INVALIDATED, data).await?;
                let body = responses::request_body(request, &settings, streaming, None);
                self.send::<responses::StreamAccumulator>(call, &body, responses::parse_response).await
            }
            result => result,
        }
    }

    async fn send<D: StreamDecoder>(
        &self,
        call: Call<'_>,
        body: &Value,
        parse: fn(&Value) -> Result<ChatResponse, String>,
    ) -> ModuleResult<ChatResponse> {
        let model = body["model"].as_str().unwrap_or(&self.config.default_model).to_owned();
        let max_tokens =
            ["max_tokens", "max_completion_tokens", "max_output_tokens"].iter().find_map(|key| body.get(*key));
        let details = json!({
            "api": if call.path == "responses" { "responses" } else { "chat" },
            "message_count": call.request.messages.len(),
            "tool_count": call.request.tools.as_ref().map_or(0, Vec::len),
            "stream": call.streaming,
            "max_tokens": max_tokens,
        });
        let bytes = serde_json::to_vec(body)?;
        let idle = seconds(call.request.timeout, self.config.timeout);
        let ctx = CompletionContext {
            events: &self.host,
            provider: PROVIDER,
            model: &model,
            retry: &self.retry,
            pricing: &self.config.pricing,
        };
        run_completion(ctx, details, || {
            self.api.complete::<D>(call.path, &bytes, call.streaming, (&self.host, call.stream), idle, parse)
        })
        .await
    }
}

/// Whether a chained request failed because the server no longer has (or
/// never kept) the response it named.
fn chain_gone(err: &ModuleError) -> bool {
    let message = err.message.to_ascii_lowercase();
    matches!(err.status_code, Some(400 | 404))
        && (message.contains("previous_response") || message.contains("previous response"))
}

fn mount(ctx: MountContext) -> ModuleResult<OpenAiProvider> {
    let mut config: Config = ctx.config()?;
    let base_url = base_url(ctx.module, config.base_url.as_deref(), BASE_URL_ENV, DEFAULT_BASE_URL)?;
    config.pricing = pricing::with_known(std::mem::take(&mut config.pricing), &base_url);
    let key = api_key(config.api_key.as_deref(), KEY_ENV);
    // `Authorization: Bearer <key>`, or the bare key in another header (Azure's `api-key`).
    let key_header = key.as_ref().map(|key| {
        let bearer = config.api_key_header.eq_ignore_ascii_case("authorization");
        (config.api_key_header.as_str(), if bearer { format!("Bearer {key}") } else { key.clone() })
    });
    let headers = header_map(ctx.module, &config.headers, key_header)?;
    let timeout = seconds(None, config.timeout);
    let client = http_client(concat!("amplifier-provider-openai/", env!("CARGO_PKG_VERSION")), timeout)?;
    let retry = config.retry.policy(1.0);
    let wire = match config.api {
        ApiChoice::Responses => Wire::Responses,
        ApiChoice::Chat => Wire::Chat,
        ApiChoice::Auto if host_of(&base_url).as_deref() == Some(RESPONSES_HOST) => Wire::Responses,
        ApiChoice::Auto => Wire::Chat,
    };
    tracing::debug!(base_url = %base_url, model = %config.default_model, has_key = key.is_some(), ?wire, "provider-openai mounted");
    Ok(OpenAiProvider {
        host: ctx.host,
        repair: ToolSequenceRepair::default(),
        api: Api::new(PROVIDER, client, base_url, headers, key),
        wire,
        config,
        retry,
    })
}

export_module!(provider => mount);

#[cfg(test)]
mod tests {
    use amplifier_sdk::testing::{with_defaults, TestHost};

    #[test]
    fn the_openai_api_prices_its_models_without_a_pricing_table() {
        let config =
            with_defaults(include_str!("../amplifier.toml"), super::json!({"base_url": "https://api.openai.com/v1"}));
        let mounted = TestHost::new().mount(super::mount, config).unwrap();
        assert!(mounted.config.pricing.contains_key("gpt-4o-mini"));
        assert_eq!(mounted.wire, super::Wire::Responses, "OpenAI's own API speaks the Responses API");
    }

    #[test]
    fn other_servers_get_chat_completions_unless_the_plan_says() {
        let mount = |config| {
            let config = with_defaults(include_str!("../amplifier.toml"), config);
            TestHost::new().mount(super::mount, config).unwrap().wire
        };
        assert_eq!(mount(super::json!({"base_url": "http://localhost:11434/v1"})), super::Wire::Chat);
        let chosen = super::json!({"base_url": "http://localhost:8080/v1", "api": "responses"});
        assert_eq!(mount(chosen), super::Wire::Responses);
        let chosen =
            super::json!({"base_url": "https://api.openai.com/v1", "api": "chat", "enable_response_chaining": "auto"});
        assert_eq!(mount(chosen), super::Wire::Chat);
    }

    #[test]
    fn reasoning_models_are_the_o_series_and_gpt_5() {
        for model in ["o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5.1-codex", "openai/gpt-5-mini", "GPT-5"] {
            assert!(super::reasoning_model(model), "{model}");
        }
        for model in ["gpt-4o", "gpt-4.1-mini", "gpt-5-chat-latest", "gpt-oss-20b", "omni-moderation", "llama3.2"] {
            assert!(!super::reasoning_model(model), "{model}");
        }
    }
}
