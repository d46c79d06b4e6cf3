//! What the HTTP provider plugins (`provider-openai`, `provider-anthropic`)
//! share, so neither copies the other:
//!
//! - [`api`]: one completion attempt against an HTTP API, whatever the wire
//!   format (each plugin supplies its body, parser and [`api::StreamDecoder`]);
//! - [`http`]: the client, sending with an idle timeout, reading JSON bodies
//!   and SSE streams (framed by `eventsource-stream`);
//! - [`error`]: HTTP statuses and transport failures as [`ModuleError`]s of
//!   upstream's kinds, with messages that never contain the API key;
//! - [`retry`]: exponential backoff with jitter (`backon`'s schedule) that
//!   honours `Retry-After`, backs off longer on 529, and emits `provider:retry`;
//!   the config keys that set it up ([`retry::RetryConfig`]);
//! - [`events`]: `llm:request`/`llm:response` and streamed deltas (as
//!   `content_block:delta` events and as [`StreamDelta`]s to the caller);
//! - [`pricing`]: `usage.cost_usd` from a per-model price table;
//! - [`rate_limits`]: the last reply's rate limits, and `provider:throttle`
//!   with a short wait when one runs low;
//! - [`reply`]: what both wire formats read alike in a reply (metadata,
//!   tool-call arguments).
//!
//! [`ModuleError`]: amplifier_sdk::ModuleError
//! [`StreamDelta`]: amplifier_sdk::StreamDelta

pub mod api;
pub mod error;
/// Shared with every provider plugin, so it lives in the SDK.
pub use amplifier_sdk::provider_events as events;
pub mod http;
pub mod pricing;
pub mod rate_limits;
pub mod reply;
pub mod retry;

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use amplifier_sdk::{json, ChatResponse, ConfigField, ErrorKind, JsonMap, ModuleError, Value};
pub use reqwest;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use crate::events::{EventSink, LlmCall};
use crate::pricing::PriceTable;
use crate::retry::{with_retries, Failure, RetryLabels, RetryPolicy};

/// A config error that names the module.
pub fn invalid_config(module: &str, message: impl std::fmt::Display) -> ModuleError {
    ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {module}: {message}"))
}

/// The host name of `url`, when it is a URL with one.
pub fn host_of(url: &str) -> Option<String> {
    reqwest::Url::parse(url).ok().and_then(|url| url.host_str().map(str::to_owned))
}

/// The base URL: the configured one, else `env_var`'s value, else `default`; checked to be a URL.
pub fn base_url(module: &str, configured: Option<&str>, env_var: &str, default: &str) -> Result<String, ModuleError> {
    let url = configured
        .map(str::trim)
        .filter(|url| !url.is_empty())
        .map(str::to_owned)
        .or_else(|| std::env::var(env_var).ok().map(|url| url.trim().to_owned()).filter(|url| !url.is_empty()))
        .unwrap_or_else(|| default.to_owned());
    reqwest::Url::parse(&url).map_err(|err| invalid_config(module, format!("base_url '{url}' is not a URL: {err}")))?;
    Ok(url)
}

/// The headers every request carries: `extra` (from config), then `key` as
/// `(header, value)`, marked sensitive so it is never logged.
pub fn header_map(
    module: &str,
    extra: &BTreeMap<String, String>,
    key: Option<(&str, String)>,
) -> Result<HeaderMap, ModuleError> {
    let mut headers = HeaderMap::new();
    for (name, value) in extra {
        let header = HeaderName::try_from(name.as_str())
            .map_err(|err| invalid_config(module, format!("headers: '{name}': {err}")))?;
        let value = HeaderValue::try_from(value.as_str()).map_err(|_| {
            invalid_config(module, format!("headers: the value of '{name}' is not a valid header value"))
        })?;
        headers.insert(header, value);
    }
    if let Some((name, value)) = key {
        let header = HeaderName::try_from(name).map_err(|err| invalid_config(module, format!("'{name}': {err}")))?;
        let mut value = HeaderValue::try_from(value)
            .map_err(|_| invalid_config(module, "api_key: the key contains characters a header cannot carry"))?;
        value.set_sensitive(true);
        headers.insert(header, value);
    }
    Ok(headers)
}

/// A positive number of seconds as a duration (`default` otherwise).
pub fn seconds(value: Option<f64>, default: f64) -> Duration {
    let value = value.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(default);
    Duration::from_secs_f64(value.max(0.001))
}

/// What one completion needs besides its attempts.
pub struct CompletionContext<'a, S> {
    pub events: &'a S,
    pub provider: &'a str,
    pub model: &'a str,
    pub retry: &'a RetryPolicy,
    pub pricing: &'a PriceTable,
}

/// One completion, observed: `llm:request`, the attempts with retries
/// (`provider:retry`), `usage.cost_usd` from the price table, `llm:response`.
/// `details` is merged into `llm:request`.
pub async fn run_completion<S, F, Fut>(
    ctx: CompletionContext<'_, S>,
    details: Value,
    attempt: F,
) -> Result<ChatResponse, ModuleError>
where
    S: EventSink,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<ChatResponse, Failure>>,
{
    let call = LlmCall::start(ctx.events, ctx.provider, ctx.model, details).await;
    let labels = RetryLabels { provider: ctx.provider, model: ctx.model };
    let mut outcome = with_retries(ctx.retry, ctx.events, labels, attempt).await;
    if let Ok(response) = outcome.as_mut() {
        pricing::price_response(ctx.pricing, response, ctx.model);
    }
    call.finish(&outcome).await;
    outcome
}

/// The API key: the configured one when it is non-empty, else `env_var`'s value.
pub fn api_key(configured: Option<&str>, env_var: &str) -> Option<String> {
    configured
        .map(str::trim)
        .filter(|key| !key.is_empty())
        .map(str::to_owned)
        .or_else(|| std::env::var(env_var).ok().map(|key| key.trim().to_owned()).filter(|key| !key.is_empty()))
}

/// The `api_key` config field a setup asks for (optional: the key may come
/// from `env_var`).
pub fn api_key_field(prompt: &str, env_var: &str) -> ConfigField {
    ConfigField {
        id: "api_key".to_owned(),
        display_name: "API key".to_owned(),
        field_type: "secret".to_owned(),
        prompt: prompt.to_owned(),
        env_var: Some(env_var.to_owned()),
        required: false,
        ..ConfigField::default()
    }
}

/// The settings every HTTP provider reports in its info's `defaults`.
pub fn info_defaults(model: &str, base_url: &str, timeout: f64, max_retries: usize) -> JsonMap {
    let mut defaults = JsonMap::new();
    defaults.insert("model".into(), json!(model));
    defaults.insert("base_url".into(), json!(base_url));
    defaults.insert("timeout".into(), json!(timeout));
    defaults.insert("max_retries".into(), json!(max_retries));
    defaults
}

/// `base` and `path` joined with exactly one `/`.
pub fn join_url(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim_end_matches('/'), path.trim_start_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_key_wins_and_blank_means_none() {
        assert_eq!(api_key(Some(" sk-1 "), "AMPLIFIER_TEST_NO_SUCH_VAR"), Some("sk-1".to_owned()));
        assert_eq!(api_key(Some(""), "AMPLIFIER_TEST_NO_SUCH_VAR"), None);
        assert_eq!(api_key(None, "AMPLIFIER_TEST_NO_SUCH_VAR"), None);
    }

    #[test]
    fn base_url_falls_back_and_must_be_a_url() {
        let url = |configured| base_url("m", configured, "AMPLIFIER_TEST_NO_SUCH_VAR", "https://api.example/v1");
        assert_eq!(url(None).unwrap(), "https://api.example/v1");
        assert_eq!(url(Some(" ")).unwrap(), "https://api.example/v1");
        assert_eq!(url(Some("http://localhost:11434/v1")).unwrap(), "http://localhost:11434/v1");
        assert!(url(Some("localhost")).unwrap_err().message.contains("invalid config for m: base_url 'localhost'"));
    }

    #[test]
    fn the_key_header_is_sensitive() {
        let extra = BTreeMap::from([("x-extra".to_owned(), "1".to_owned())]);
        let headers = header_map("m", &extra, Some(("authorization", "Bearer sk-x".to_owned()))).unwrap();
        assert!(headers["authorization"].is_sensitive());
        assert_eq!(headers["x-extra"], "1");
        assert!(header_map("m", &BTreeMap::from([("bad name".to_owned(), "1".to_owned())]), None).is_err());
    }

    #[test]
    fn info_has_the_common_settings_and_an_optional_key() {
        let defaults = info_defaults("m", "http://h/v1", 300.0, 3);
        assert_eq!(
            Value::Object(defaults),
            json!({"model": "m", "base_url": "http://h/v1", "timeout": 300.0, "max_retries": 3})
        );
        let field = api_key_field("Key?", "K");
        assert_eq!(
            (field.id.as_str(), field.field_type.as_str(), field.prompt.as_str()),
            ("api_key", "secret", "Key?")
        );
        assert_eq!((field.env_var.as_deref(), field.required), (Some("K"), false));
    }

    #[test]
    fn urls_join_with_one_slash() {
        assert_eq!(join_url("http://h/v1/", "/models"), "http://h/v1/models");
        assert_eq!(join_url("http://h/v1", "chat/completions"), "http://h/v1/chat/completions");
    }
}
