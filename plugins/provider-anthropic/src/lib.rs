//! `provider-anthropic`: Claude through the Messages API.
//!
//! ```yaml
//! providers:
//!   - module: provider-anthropic
//!     source: ../plugins/provider-anthropic
//!     config:
//!       api_key: ${ANTHROPIC_API_KEY}      # default: $ANTHROPIC_API_KEY
//!       extended_thinking: true
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/provider-anthropic.md`.
//!
//! Streams over SSE (`use_streaming`); system messages go to the
//! top-level `system`; signed thinking blocks are kept and replayed exactly
//! on later turns; usage counts cache reads and writes. Retries, error
//! kinds, `llm:*` events and pricing are shared with provider-openai
//! (`amplifier-provider-http`); an overloaded server (529) backs off
//! `overloaded_delay_multiplier` times longer. When the last reply's
//! `anthropic-ratelimit-*` headers show a limit nearly used up
//! (`throttle_threshold`), the next request waits `throttle_delay` and
//! says so with `provider:throttle`.

mod wire;

use std::collections::BTreeMap;

use amplifier_provider_http::api::Api;
use amplifier_provider_http::http::http_client;
use amplifier_provider_http::pricing::{self, PriceTable};
use amplifier_provider_http::rate_limits::{RateLimits, Throttle, ThrottleConfig};
use amplifier_provider_http::retry::{RetryConfig, RetryPolicy};
use amplifier_provider_http::{
    api_key, api_key_field, base_url, header_map, info_defaults, run_completion, seconds, CompletionContext,
};
use amplifier_sdk::prelude::*;
use amplifier_sdk::provider_events::ToolSequenceRepair;
use amplifier_sdk::{ModelInfo, ProviderInfo};
use serde::Deserialize;

use crate::wire::{Defaults, StreamAccumulator};

const PROVIDER: &str = "anthropic";
const KEY_ENV: &str = "ANTHROPIC_API_KEY";
const BASE_URL_ENV: &str = "ANTHROPIC_BASE_URL";
const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
const DEFAULT_MAX_RETRIES: usize = 5;
const API_VERSION: &str = "2023-06-01";

/// The module's `config`; the loader has filled in `amplifier.toml`'s
/// defaults. Those left here are computed (`base_url`, `api_key`: the
/// environment) or shared (`priority`: the host's; the retry keys:
/// `amplifier-provider-http`'s).
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
    /// Extra headers on every request (e.g. `anthropic-beta`).
    headers: BTreeMap<String, String>,
    default_model: String,
    max_tokens: u64,
    #[serde(default)]
    temperature: Option<f64>,
    extended_thinking: bool,
    thinking_budget_tokens: u64,
    /// Seconds to wait for the next byte (connection, headers, each piece of the body).
    timeout: f64,
    use_streaming: bool,
    #[serde(flatten)]
    retry: RetryConfig<DEFAULT_MAX_RETRIES>,
    overloaded_delay_multiplier: f64,
    #[serde(flatten)]
    throttle: ThrottleConfig,
    pricing: PriceTable,
}

struct AnthropicProvider {
    host: Host,
    /// Stand-in results for tool calls a history left unanswered.
    repair: ToolSequenceRepair,
    api: Api,
    config: Config,
    retry: RetryPolicy,
}

impl Provider for AnthropicProvider {
    fn info(&self) -> ProviderInfo {
        let mut defaults = info_defaults(
            &self.config.default_model,
            self.api.base_url(),
            self.config.timeout,
            self.config.retry.max_retries(),
        );
        defaults.insert("max_tokens".into(), json!(self.config.max_tokens));
        ProviderInfo {
            id: PROVIDER.to_owned(),
            display_name: "Anthropic (Messages API)".to_owned(),
            credential_env_vars: vec![KEY_ENV.to_owned()],
            capabilities: vec!["tools".to_owned(), "streaming".to_owned(), "thinking".to_owned()],
            defaults,
            config_fields: vec![api_key_field("Anthropic API key", KEY_ENV)],
        }
    }

    async fn list_models(&self) -> ModuleResult<Vec<ModelInfo>> {
        let idle = seconds(None, self.config.timeout);
        Ok(wire::models(&self.api.get_json("v1/models?limit=1000", idle, &self.retry, &self.host).await?))
    }

    async fn complete(&self, mut request: ChatRequest, stream: Stream) -> ModuleResult<ChatResponse> {
        self.repair.repair(&mut request, &self.host, PROVIDER).await;
        let defaults = Defaults {
            model: &self.config.default_model,
            max_tokens: self.config.max_tokens,
            temperature: self.config.temperature,
            extended_thinking: self.config.extended_thinking,
            thinking_budget_tokens: self.config.thinking_budget_tokens,
        };
        // A request's `stream: false` (an internal call) is sent whole, so no
        // deltas reach the hooks; a caller that streams gets its stream.
        let streaming = stream.is_enabled() || (self.config.use_streaming && request.stream != Some(false));
        let body = wire::request_body(&request, &defaults, streaming);
        let model = body["model"].as_str().unwrap_or(&self.config.default_model).to_owned();
        let details = json!({
            "message_count": request.messages.len(),
            "tool_count": request.tools.as_ref().map_or(0, Vec::len),
            "stream": streaming,
            "max_tokens": body.get("max_tokens"),
            "thinking": body.get("thinking").is_some(),
        });
        let bytes = serde_json::to_vec(&body)?;
        let idle = seconds(request.timeout, self.config.timeout);
        self.api.throttle(&self.host, &model).await;
        let ctx = CompletionContext {
            events: &self.host,
            provider: PROVIDER,
            model: &model,
            retry: &self.retry,
            pricing: &self.config.pricing,
        };
        run_completion(ctx, details, || {
            self.api.complete::<StreamAccumulator>(
                "v1/messages",
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

fn mount(ctx: MountContext) -> ModuleResult<AnthropicProvider> {
    let mut config: Config = ctx.config()?;
    let base_url = base_url(ctx.module, config.base_url.as_deref(), BASE_URL_ENV, DEFAULT_BASE_URL)?;
    config.pricing = pricing::with_known(std::mem::take(&mut config.pricing), &base_url);
    let key = api_key(config.api_key.as_deref(), KEY_ENV);
    let mut extra = config.headers.clone();
    extra.entry("anthropic-version".to_owned()).or_insert_with(|| API_VERSION.to_owned());
    let headers = header_map(ctx.module, &extra, key.as_ref().map(|key| ("x-api-key", key.clone())))?;
    let timeout = seconds(None, config.timeout);
    let client = http_client(concat!("amplifier-provider-anthropic/", env!("CARGO_PKG_VERSION")), timeout)?;
    let retry = config.retry.policy(config.overloaded_delay_multiplier);
    tracing::debug!(base_url = %base_url, model = %config.default_model, has_key = key.is_some(), "provider-anthropic mounted");
    Ok(AnthropicProvider {
        host: ctx.host,
        repair: ToolSequenceRepair::default(),
        api: Api::new(PROVIDER, client, base_url, headers, key)
            .with_throttle(RateLimits::anthropic, Throttle::new(&config.throttle)),
        config,
        retry,
    })
}

export_module!(provider => mount);

#[cfg(test)]
mod tests {
    use amplifier_sdk::testing::{with_defaults, TestHost};

    #[test]
    fn the_anthropic_api_prices_its_models_without_a_pricing_table() {
        let config =
            with_defaults(include_str!("../amplifier.toml"), super::json!({"base_url": "https://api.anthropic.com"}));
        let mounted = TestHost::new().mount(super::mount, config).unwrap();
        assert!(mounted.config.pricing.contains_key("claude-sonnet-4-5"));
    }
}
