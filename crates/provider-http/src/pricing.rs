//! `usage.cost_usd` from a price table in the provider's config:
//!
//! ```yaml
//! pricing:
//!   gpt-4o-mini: {input_per_million: 0.15, output_per_million: 0.60}
//!   claude-sonnet-4-5: {input_per_million: 3, output_per_million: 15,
//!                       cache_read_per_million: 0.30, cache_write_per_million: 3.75}
//! ```
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

/// The cost of `usage` for the first of `models` the table knows (the
/// model the server reported, then the one requested).
pub fn cost_usd(table: &PriceTable, models: &[&str], usage: &Usage) -> Option<String> {
    let price = models.iter().find_map(|model| table.get(*model))?;
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
}
