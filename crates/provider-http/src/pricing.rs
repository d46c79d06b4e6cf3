//! `usage.cost_usd` from a price table in the provider's config:
//!
//! ```yaml
//! pricing:
//!   gpt-4o-mini: {input_per_million: 0.15, output_per_million: 0.60}
//!   claude-sonnet-4-5: {input_per_million: 3, output_per_million: 15,
//!                       cache_read_per_million: 0.30, cache_write_per_million: 3.75}
//! ```
//!
//! over the known list prices of the hosted models ([`KNOWN`], dated
//! [`KNOWN_AS_OF`]), which apply only to a provider whose base URL is the
//! vendor's own API: the same model name on a local server or a proxy
//! costs what that server says, which is nothing we know.
//!
//! A model id with a date (`gpt-4o-mini-2024-07-18`,
//! `claude-sonnet-4-5-20250929`) or `-latest` is priced as its base id
//! when the table has no entry for it.
//!
//! `input_tokens` counts every prompt token, cached or not; cache reads and
//! writes are charged at their own prices when given, else at the input
//! price. The cost is a decimal string (upstream rejects floats), to 10
//! decimal places without trailing zeros.

use std::collections::BTreeMap;

use amplifier_sdk::Usage;
use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub input_per_million: f64,
    pub output_per_million: f64,
    #[serde(default)]
    pub cache_read_per_million: Option<f64>,
    #[serde(default)]
    pub cache_write_per_million: Option<f64>,
}

/// Prices by model id.
pub type PriceTable = BTreeMap<String, Price>;

/// The day [`KNOWN`]'s prices were read from the vendors' price pages.
pub const KNOWN_AS_OF: &str = "2025-10-15";

const fn price(input: f64, output: f64, cache_read: f64, cache_write: Option<f64>) -> Price {
    Price {
        input_per_million: input,
        output_per_million: output,
        cache_read_per_million: Some(cache_read),
        cache_write_per_million: cache_write,
    }
}

/// List prices in USD per million tokens, by the API host that bills them:
/// input, output, cached input (a cache read), and a cache write where the
/// API charges one (Anthropic's five-minute cache). Anthropic's higher
/// price for prompts over 200,000 tokens is not modelled.
pub const KNOWN: &[(&str, &str, Price)] = &[
    ("api.openai.com", "gpt-5", price(1.25, 10.0, 0.125, None)),
    ("api.openai.com", "gpt-5-mini", price(0.25, 2.0, 0.025, None)),
    ("api.openai.com", "gpt-5-nano", price(0.05, 0.40, 0.005, None)),
    ("api.openai.com", "gpt-4.1", price(2.0, 8.0, 0.50, None)),
    ("api.openai.com", "gpt-4.1-mini", price(0.40, 1.60, 0.10, None)),
    ("api.openai.com", "gpt-4.1-nano", price(0.10, 0.40, 0.025, None)),
    ("api.openai.com", "gpt-4o", price(2.50, 10.0, 1.25, None)),
    ("api.openai.com", "gpt-4o-mini", price(0.15, 0.60, 0.075, None)),
    ("api.openai.com", "o3", price(2.0, 8.0, 0.50, None)),
    ("api.openai.com", "o4-mini", price(1.10, 4.40, 0.275, None)),
    ("api.anthropic.com", "claude-opus-4-1", price(15.0, 75.0, 1.50, Some(18.75))),
    ("api.anthropic.com", "claude-opus-4", price(15.0, 75.0, 1.50, Some(18.75))),
    ("api.anthropic.com", "claude-sonnet-4-5", price(3.0, 15.0, 0.30, Some(3.75))),
    ("api.anthropic.com", "claude-sonnet-4", price(3.0, 15.0, 0.30, Some(3.75))),
    ("api.anthropic.com", "claude-3-7-sonnet", price(3.0, 15.0, 0.30, Some(3.75))),
    ("api.anthropic.com", "claude-haiku-4-5", price(1.0, 5.0, 0.10, Some(1.25))),
    ("api.anthropic.com", "claude-3-5-haiku", price(0.80, 4.0, 0.08, Some(1.0))),
];

/// `configured` over the known prices of the models `base_url`'s host bills.
pub fn with_known(mut configured: PriceTable, base_url: &str) -> PriceTable {
    let host = crate::host_of(base_url);
    for (biller, model, price) in KNOWN {
        if host.as_deref() == Some(*biller) {
            configured.entry((*model).to_owned()).or_insert_with(|| price.clone());
        }
    }
    configured
}

/// `model` without a trailing date (`-2024-07-18`, `-20250929`) or `-latest`.
fn base_id(model: &str) -> Option<&str> {
    if let Some(base) = model.strip_suffix("-latest") {
        return Some(base);
    }
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let (base, last) = model.rsplit_once('-')?;
    if last.len() == 8 && digits(last) {
        return Some(base);
    }
    // `-YYYY-MM-DD`: three numeric parts.
    let (base, month) = base.rsplit_once('-')?;
    let (base, year) = base.rsplit_once('-')?;
    (year.len() == 4 && digits(year) && month.len() == 2 && digits(month) && last.len() == 2 && digits(last))
        .then_some(base)
}

fn lookup<'a>(table: &'a PriceTable, model: &str) -> Option<&'a Price> {
    table.get(model).or_else(|| table.get(base_id(model)?))
}

/// The cost of `usage` for the first of `models` the table knows (the
/// model the server reported, then the one requested).
pub fn cost_usd(table: &PriceTable, models: &[&str], usage: &Usage) -> Option<String> {
    let price = models.iter().find_map(|model| lookup(table, model))?;
    let cache_read = usage.cache_read_tokens.unwrap_or(0);
    let cache_write = usage.cache_write_tokens.unwrap_or(0);
    let uncached = usage.input_tokens.saturating_sub(cache_read + cache_write);
    let per_token = |per_million: f64| per_million / 1_000_000.0;
    let cost = uncached as f64 * per_token(price.input_per_million)
        + cache_read as f64 * per_token(price.cache_read_per_million.unwrap_or(price.input_per_million))
        + cache_write as f64 * per_token(price.cache_write_per_million.unwrap_or(price.input_per_million))
        + usage.output_tokens as f64 * per_token(price.output_per_million);
    Some(decimal(cost))
}

/// Sets `usage.cost_usd` of `response` (priced by the model the server
/// reported in `metadata.model`, else the one requested).
pub fn price_response(table: &PriceTable, response: &mut amplifier_sdk::ChatResponse, requested: &str) {
    if table.is_empty() {
        return;
    }
    let reported = response.metadata.as_ref().and_then(|m| m.get("model")).and_then(|m| m.as_str()).map(str::to_owned);
    if let Some(usage) = response.usage.as_mut() {
        let models: Vec<&str> = reported.as_deref().into_iter().chain([requested]).collect();
        usage.cost_usd = cost_usd(table, &models, usage);
    }
}

fn decimal(value: f64) -> String {
    let text = format!("{value:.10}");
    let text = text.trim_end_matches('0');
    text.strip_suffix('.').map(|t| format!("{t}.0")).unwrap_or_else(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> PriceTable {
        serde_json::from_value(serde_json::json!({
            "gpt-4o-mini": {"input_per_million": 0.15, "output_per_million": 0.6},
            "claude": {"input_per_million": 3, "output_per_million": 15, "cache_read_per_million": 0.3}
        }))
        .unwrap()
    }

    #[test]
    fn cost_is_a_decimal_string() {
        let usage = Usage { input_tokens: 1000, output_tokens: 500, total_tokens: 1500, ..Usage::default() };
        assert_eq!(cost_usd(&table(), &["gpt-4o-mini-2024", "gpt-4o-mini"], &usage).as_deref(), Some("0.00045"));
        assert_eq!(cost_usd(&table(), &["unknown"], &usage), None);
        let tiny = Usage { input_tokens: 10, ..Usage::default() };
        assert_eq!(cost_usd(&table(), &["gpt-4o-mini"], &tiny).as_deref(), Some("0.0000015"));
        assert_eq!(cost_usd(&table(), &["gpt-4o-mini"], &Usage::default()).as_deref(), Some("0.0"));
    }

    #[test]
    fn cache_tokens_have_their_own_prices_or_the_input_price() {
        let usage = Usage {
            input_tokens: 1_000_000,
            output_tokens: 0,
            cache_read_tokens: Some(500_000),
            cache_write_tokens: Some(100_000),
            ..Usage::default()
        };
        // 400k uncached at 3 + 500k reads at 0.3 + 100k writes at the input price 3.
        assert_eq!(cost_usd(&table(), &["claude"], &usage).as_deref(), Some("1.65"));
    }

    #[test]
    fn the_known_prices_apply_to_the_vendors_own_api_only() {
        let known = with_known(PriceTable::new(), "https://api.openai.com/v1");
        assert_eq!(known.get("gpt-4o-mini").map(|p| p.output_per_million), Some(0.60));
        assert!(!known.contains_key("claude-sonnet-4-5"), "Anthropic's models are not billed by OpenAI");
        assert!(with_known(PriceTable::new(), "http://127.0.0.1:8080/v1").is_empty(), "a local server");
        let anthropic = with_known(PriceTable::new(), "https://api.anthropic.com");
        assert_eq!(anthropic.get("claude-sonnet-4-5").and_then(|p| p.cache_write_per_million), Some(3.75));
        // The plan's price wins over the known one.
        let mine = with_known(table(), "https://api.openai.com/v1");
        let usage = Usage { input_tokens: 1000, output_tokens: 500, ..Usage::default() };
        assert_eq!(cost_usd(&mine, &["gpt-4o-mini"], &usage), cost_usd(&table(), &["gpt-4o-mini"], &usage));
        assert_eq!(cost_usd(&mine, &["gpt-4o"], &usage).as_deref(), Some("0.0075"), "2.5 in, 10 out");
    }

    #[test]
    fn a_dated_model_id_is_priced_as_its_base_id() {
        let known = with_known(PriceTable::new(), "https://api.anthropic.com/v1");
        let usage = Usage { input_tokens: 1_000_000, output_tokens: 0, ..Usage::default() };
        assert_eq!(cost_usd(&known, &["claude-sonnet-4-5-20250929"], &usage).as_deref(), Some("3.0"));
        assert_eq!(cost_usd(&known, &["claude-3-5-haiku-latest"], &usage).as_deref(), Some("0.8"));
        let openai = with_known(PriceTable::new(), "https://api.openai.com/v1");
        assert_eq!(cost_usd(&openai, &["gpt-4o-mini-2024-07-18"], &usage).as_deref(), Some("0.15"));
        assert_eq!(cost_usd(&openai, &["gpt-4o-2024-08-06"], &usage).as_deref(), Some("2.5"));
        assert_eq!(cost_usd(&openai, &["gpt-4o-audio-preview"], &usage), None, "not a date: unknown");
        assert_eq!(base_id("o3-mini"), None);
    }
}
