//! `provider-openai`: any OpenAI-compatible Chat Completions server: OpenAI,
//! Azure OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio.
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
//! Upstream's provider-openai speaks the Responses API; this one speaks Chat
//! Completions, which local servers implement. Completions stream over SSE
//! (`use_streaming`): deltas become `content_block:delta` events
//! and, when the caller streams, `StreamDelta`s. Retries, error kinds,
//! `llm:*` events and pricing are shared with provider-anthropic
//! (`amplifier-provider-http`).

mod wire;

use std::collections::BTreeMap;

use amplifier_provider_http::api::Api;
use amplifier_provider_http::http::http_client;
use amplifier_provider_http::pricing::{self, PriceTable};
use amplifier_provider_http::retry::{RetryConfig, RetryPolicy};
use amplifier_provider_http::{
    api_key, api_key_field, base_url, header_map, info_defaults, run_completion, seconds, CompletionContext,
};
use amplifier_sdk::prelude::*;
use amplifier_sdk::provider_events::ToolSequenceRepair;
use amplifier_sdk::{ConfigField, ModelInfo, ProviderInfo};
use serde::Deserialize;

use crate::wire::{Defaults, StreamAccumulator};

const PROVIDER: &str = "openai";
const KEY_ENV: &str = "OPENAI_API_KEY";
const BASE_URL_ENV: &str = "OPENAI_BASE_URL";
const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
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
    default_model: String,
    #[serde(default)]
    temperature: Option<f64>,
    #[serde(default)]
    max_tokens: Option<u64>,
    /// Seconds to wait for the next byte (connection, headers, each piece of the body).
    timeout: f64,
    use_streaming: bool,
    #[serde(flatten)]
    retry: RetryConfig<DEFAULT_MAX_RETRIES>,
    pricing: PriceTable,
}

struct OpenAiProvider {
    host: Host,
    /// Stand-in results for tool calls a history left unanswered.
    repair: ToolSequenceRepair,
    api: Api,
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
        ProviderInfo {
            id: PROVIDER.to_owned(),
            display_name: "OpenAI-compatible (Chat Completions)".to_owned(),
            credential_env_vars: vec![KEY_ENV.to_owned()],
            capabilities: vec!["tools".to_owned(), "streaming".to_owned()],
            defaults,
            config_fields: vec![
                api_key_field("OpenAI API key (none for local servers)", KEY_ENV),
                ConfigField {
                    id: "base_url".to_owned(),
                    display_name: "Base URL".to_owned(),
                    field_type: "text".to_owned(),
                    prompt: "Chat Completions base URL, e.g. http://localhost:11434/v1".to_owned(),
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
        Ok(wire::models(&self.api.get_json("models", idle, &self.retry, &self.host).await?))
    }

    async fn complete(&self, mut request: ChatRequest, stream: Stream) -> ModuleResult<ChatResponse> {
        self.repair.repair(&mut request, &self.host, PROVIDER).await;
        let defaults = Defaults {
            model: &self.config.default_model,
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
        };
        let streaming = self.config.use_streaming || stream.is_enabled();
        let body = wire::request_body(&request, &defaults, streaming);
        let model = body["model"].as_str().unwrap_or(&self.config.default_model).to_owned();
        let details = json!({
            "message_count": request.messages.len(),
            "tool_count": request.tools.as_ref().map_or(0, Vec::len),
            "stream": streaming,
            "max_tokens": body.get("max_tokens"),
        });
        let bytes = serde_json::to_vec(&body)?;
        let idle = seconds(request.timeout, self.config.timeout);
        let ctx = CompletionContext {
            events: &self.host,
            provider: PROVIDER,
            model: &model,
            retry: &self.retry,
            pricing: &self.config.pricing,
        };
        run_completion(ctx, details, || {
            self.api.complete::<StreamAccumulator>(
                "chat/completions",
                &bytes,
                streaming,
                (&self.host, &stream),
                idle,
                wire::parse_response,
            )
        })
        .await
    }
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
    tracing::debug!(base_url = %base_url, model = %config.default_model, has_key = key.is_some(), "provider-openai mounted");
    Ok(OpenAiProvider {
        host: ctx.host,
        repair: ToolSequenceRepair::default(),
        api: Api::new(PROVIDER, client, base_url, headers, key),
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
    }
}
