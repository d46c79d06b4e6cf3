//! Slowing down before the server says no: a provider keeps the rate-limit
//! headers of its last response and, when one of them is nearly used up,
//! waits a moment before its next request and says so with
//! `provider:throttle` (upstream provider-anthropic's behaviour).

use std::sync::Mutex;
use std::time::Duration;

use amplifier_sdk::events;
use amplifier_sdk::{json, Value};
use reqwest::header::HeaderMap;
use serde::Deserialize;

use crate::events::EventSink;

/// One limited quantity (requests, tokens, …) as the last response left it.
#[derive(Debug, Clone, PartialEq)]
pub struct Dimension {
    /// Upstream's name for it: `requests`, `tokens`, `input_tokens`, `output_tokens`.
    pub name: &'static str,
    pub remaining: u64,
    pub limit: u64,
    /// When the quantity is refilled, as the server wrote it (RFC 3339 for Anthropic).
    pub reset: Option<String>,
}

impl Dimension {
    fn ratio(&self) -> f64 {
        self.remaining as f64 / self.limit as f64
    }
}

/// Every limited quantity a response reported with both its remaining
/// amount and its limit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RateLimits(Vec<Dimension>);

impl RateLimits {
    /// Anthropic's `anthropic-ratelimit-{dimension}-{remaining,limit,reset}`
    /// headers; `None` when the response has none (a local server).
    pub fn anthropic(headers: &HeaderMap) -> Option<Self> {
        const DIMENSIONS: [(&str, &str); 4] = [
            ("requests", "requests"),
            ("tokens", "tokens"),
            ("input-tokens", "input_tokens"),
            ("output-tokens", "output_tokens"),
        ];
        let header = |dimension: &str, part: &str| {
            let value = headers.get(format!("anthropic-ratelimit-{dimension}-{part}"))?;
            value.to_str().ok().map(str::trim).filter(|value| !value.is_empty()).map(str::to_owned)
        };
        let dimensions: Vec<Dimension> = DIMENSIONS
            .iter()
            .filter_map(|&(header_name, name)| {
                let remaining = header(header_name, "remaining")?.parse().ok()?;
                let limit = header(header_name, "limit")?.parse().ok().filter(|limit| *limit > 0)?;
                Some(Dimension { name, remaining, limit, reset: header(header_name, "reset") })
            })
            .collect();
        (!dimensions.is_empty()).then_some(RateLimits(dimensions))
    }

    /// The quantity with the least left, relative to its limit.
    pub fn most_constrained(&self) -> Option<&Dimension> {
        self.0.iter().min_by(|a, b| a.ratio().total_cmp(&b.ratio()))
    }
}

fn default_threshold() -> f64 {
    0.02
}

fn default_delay() -> f64 {
    1.0
}

/// The config keys that set throttling up (flattened into a provider's config).
#[derive(Debug, Clone, Deserialize)]
pub struct ThrottleConfig {
    /// Throttle when the most constrained quantity has less than this
    /// fraction of its limit left; 0 turns throttling off.
    #[serde(default = "default_threshold")]
    throttle_threshold: f64,
    /// Seconds to wait when throttling.
    #[serde(default = "default_delay")]
    throttle_delay: f64,
}

/// A provider's throttle: the last response's limits and what to do about them.
#[derive(Debug)]
pub struct Throttle {
    threshold: f64,
    delay: Duration,
    last: Mutex<Option<RateLimits>>,
}

impl Throttle {
    pub fn new(config: &ThrottleConfig) -> Self {
        let delay = Duration::try_from_secs_f64(config.throttle_delay).unwrap_or_default();
        Throttle { threshold: config.throttle_threshold, delay, last: Mutex::default() }
    }

    /// Keeps the limits a response reported (a response without any leaves
    /// the last ones in place: they are all there is to go by).
    pub fn observe(&self, limits: Option<RateLimits>) {
        if let Some(limits) = limits {
            *self.last.lock().expect("rate limits") = Some(limits);
        }
    }

    /// Before a request: when the last response left a quantity below the
    /// threshold, emits `provider:throttle` and waits the delay (a cancel
    /// drops the wait with the request).
    pub async fn wait<S: EventSink>(&self, events: &S, provider: &str, model: &str) {
        if self.threshold <= 0.0 {
            return;
        }
        let low = {
            let last = self.last.lock().expect("rate limits");
            last.as_ref().and_then(RateLimits::most_constrained).filter(|d| d.ratio() < self.threshold).cloned()
        };
        let Some(low) = low else { return };
        tracing::info!(provider, dimension = low.name, remaining = low.remaining, limit = low.limit, "throttling");
        let data = json!({
            "provider": provider,
            "model": model,
            "reason": format!("{}_low", low.name),
            "dimension": low.name,
            "remaining": low.remaining,
            "limit": low.limit,
            "ratio": low.ratio(),
            "delay": self.delay.as_secs_f64(),
            "reset_timestamp": low.reset.map_or(Value::Null, Value::String),
        });
        events.send_event(events::PROVIDER_THROTTLE, data).await;
        tokio::time::sleep(self.delay).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::EventRecorder;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (name.parse().unwrap(), value.parse().unwrap())).collect()
    }

    #[test]
    fn anthropic_headers_are_read_by_dimension_and_the_lowest_ratio_wins() {
        let limits = RateLimits::anthropic(&headers(&[
            ("anthropic-ratelimit-requests-remaining", "95"),
            ("anthropic-ratelimit-requests-limit", "100"),
            ("anthropic-ratelimit-requests-reset", "2026-02-24T10:30:00Z"),
            ("anthropic-ratelimit-input-tokens-remaining", "8000"),
            ("anthropic-ratelimit-input-tokens-limit", "1000000"),
            // Half a dimension, a zero limit and a non-number are left out.
            ("anthropic-ratelimit-tokens-remaining", "5"),
            ("anthropic-ratelimit-output-tokens-remaining", "0"),
            ("anthropic-ratelimit-output-tokens-limit", "0"),
        ]))
        .unwrap();
        let names: Vec<&str> = limits.0.iter().map(|d| d.name).collect();
        assert_eq!(names, ["requests", "input_tokens"]);
        assert_eq!(limits.0[0].reset.as_deref(), Some("2026-02-24T10:30:00Z"));
        let low = limits.most_constrained().unwrap();
        assert_eq!((low.name, low.remaining, low.limit, low.reset.as_deref()), ("input_tokens", 8000, 1_000_000, None));
        assert_eq!(RateLimits::anthropic(&headers(&[("anthropic-ratelimit-requests-remaining", "x")])), None);
        assert_eq!(RateLimits::anthropic(&HeaderMap::new()), None);
    }

    #[tokio::test(start_paused = true)]
    async fn only_a_ratio_below_the_threshold_waits_and_zero_turns_throttling_off() {
        let low = || {
            RateLimits::anthropic(&headers(&[
                ("anthropic-ratelimit-tokens-remaining", "19"),
                ("anthropic-ratelimit-tokens-limit", "1000"),
            ]))
        };
        let throttle =
            |threshold: f64| Throttle::new(&ThrottleConfig { throttle_threshold: threshold, throttle_delay: 2.0 });
        let events = EventRecorder::default();
        let on = throttle(0.02);
        on.wait(&events, "anthropic", "m").await;
        assert!(events.events().is_empty(), "no reply seen yet");
        on.observe(low());
        on.observe(None);
        let started = tokio::time::Instant::now();
        on.wait(&events, "anthropic", "m").await;
        assert_eq!(started.elapsed(), Duration::from_secs(2));
        let seen = events.events();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].0, "provider:throttle");
        assert_eq!(seen[0].1["reason"], "tokens_low");
        assert_eq!(seen[0].1["reset_timestamp"], Value::Null);

        let at_the_threshold = throttle(0.019);
        at_the_threshold.observe(low());
        let off = throttle(0.0);
        off.observe(low());
        let started = tokio::time::Instant::now();
        at_the_threshold.wait(&events, "anthropic", "m").await;
        off.wait(&events, "anthropic", "m").await;
        assert_eq!(started.elapsed(), Duration::ZERO);
        assert_eq!(events.events().len(), 1);
    }
}
