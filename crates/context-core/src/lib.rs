//! What `context-simple` and `context-persistent` share: an in-memory
//! history whose request views fit a token budget.
//!
//! The history itself is never compacted: `get_messages` always returns all
//! of it, and each request gets a view that fits its token budget (see
//! [`compaction`]), announced by `context:pre_compact`/`context:post_compact`.
//!
//! This is a library for context plugins, not a plugin: each plugin crate
//! links its own copy and exports its own module.

pub mod compaction;
pub mod tokens;
pub mod units;

use std::sync::{Mutex, MutexGuard, PoisonError};

use amplifier_sdk::events;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::compaction::{Compacted, Policy};

/// The compaction settings both context modules take (`config:` keys).
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub max_tokens: u64,
    pub compact_threshold: f64,
    pub protected_tool_results: usize,
    pub truncate_chars: usize,
    pub protected_recent: f64,
    /// Share of `max_tokens` a view over the budget is compacted down to;
    /// none: just under the budget.
    pub target_usage: Option<f64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_tokens: 200_000,
            compact_threshold: 0.92,
            protected_tool_results: 5,
            truncate_chars: 250,
            protected_recent: 0.30,
            target_usage: None,
        }
    }
}

impl Config {
    /// The budget of a request that names none; the margin below the window
    /// absorbs the estimate's error and leaves room for the answer.
    pub fn default_budget(&self) -> u64 {
        (self.max_tokens as f64 * self.compact_threshold) as u64
    }

    pub fn policy(&self) -> Policy {
        Policy {
            protected_tool_results: self.protected_tool_results,
            truncate_chars: self.truncate_chars,
            protected_recent: self.protected_recent,
            // The budget is `compact_threshold` of the window; the target a
            // share of the window too.
            target_share: self.target_usage.map_or(1.0, |target| (target / self.compact_threshold).min(1.0)),
        }
    }
}

/// Conversation memory kept in memory, with compacted request views.
pub struct InMemoryContext {
    messages: Mutex<Vec<Message>>,
    default_budget: u64,
    policy: Policy,
    host: Host,
}

impl InMemoryContext {
    pub fn new(config: &Config, host: Host) -> Self {
        Self::with_messages(config, host, Vec::new())
    }

    /// A context whose history starts with `messages`.
    pub fn with_messages(config: &Config, host: Host, messages: Vec<Message>) -> Self {
        InMemoryContext {
            messages: Mutex::new(messages),
            default_budget: config.default_budget(),
            policy: config.policy(),
            host,
        }
    }

    /// Every critical section is one push, clone or replacement, so a panic
    /// elsewhere can't leave the history half-written: a poisoned lock is
    /// still safe to use. Never held across an await.
    fn messages(&self) -> MutexGuard<'_, Vec<Message>> {
        self.messages.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn announce(&self, history: &[Message], compacted: &Compacted) {
        let stats = &compacted.stats;
        let before = data([("message_count", json!(history.len())), ("token_count", json!(stats.tokens_before))]);
        self.emit(events::CONTEXT_PRE_COMPACT, before).await;
        let after = data([
            ("message_count", json!(compacted.messages.len())),
            ("token_count", json!(stats.tokens_after)),
            ("strategy_level", json!(stats.level)),
            ("messages_removed", json!(stats.messages_removed)),
            ("tool_results_truncated", json!(stats.tool_results_truncated)),
        ]);
        self.emit(events::CONTEXT_POST_COMPACT, after).await;
    }

    /// Events are informational here: a failing hook must not cost the
    /// request its context.
    async fn emit(&self, event: &str, data: JsonMap) {
        if let Err(err) = self.host.emit(event, data).await {
            tracing::warn!(event, error = %err, "could not emit a compaction event");
        }
    }
}

fn data<const N: usize>(fields: [(&str, Value); N]) -> JsonMap {
    fields.into_iter().map(|(key, value)| (key.to_owned(), value)).collect()
}

impl ContextManager for InMemoryContext {
    async fn add_message(&self, message: Message) -> ModuleResult<()> {
        self.messages().push(message);
        Ok(())
    }

    async fn get_messages(&self) -> ModuleResult<Vec<Message>> {
        Ok(self.messages().clone())
    }

    async fn get_messages_for_request(&self, view: RequestView) -> ModuleResult<Vec<Message>> {
        let history = self.messages().clone();
        let budget = view.token_budget.unwrap_or(self.default_budget);
        let Some(compacted) = compaction::compact(&history, budget, &self.policy) else {
            return Ok(history);
        };
        // Compaction only builds this view, so announcing it once computed
        // shows hooks the same before/after as announcing it around the work.
        self.announce(&history, &compacted).await;
        Ok(compacted.messages)
    }

    async fn set_messages(&self, messages: Vec<Message>) -> ModuleResult<()> {
        *self.messages() = messages;
        Ok(())
    }

    async fn clear(&self) -> ModuleResult<()> {
        self.messages().clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(config: Value) -> Option<Config> {
        Config::deserialize(config).ok()
    }

    #[test]
    fn config_defaults_match_upstream() {
        let config = parse(json!({})).unwrap();
        assert_eq!(config.default_budget(), 184_000);
        let policy = config.policy();
        assert_eq!((policy.protected_tool_results, policy.truncate_chars), (5, 250));
        assert_eq!(policy.protected_recent, 0.30);
    }

    #[test]
    fn config_budget_follows_the_window_and_threshold() {
        let config = parse(json!({"max_tokens": 1000, "compact_threshold": 0.5})).unwrap();
        assert_eq!(config.default_budget(), 500);
    }

    #[test]
    fn target_usage_is_a_share_of_the_window_below_the_threshold() {
        let config = parse(json!({"max_tokens": 1000, "compact_threshold": 0.8, "target_usage": 0.4})).unwrap();
        assert_eq!(config.policy().target_share, 0.5);
        assert_eq!(parse(json!({})).unwrap().policy().target_share, 1.0, "without it, a view fits just under");
        let above = parse(json!({"compact_threshold": 0.5, "target_usage": 0.9})).unwrap();
        assert_eq!(above.policy().target_share, 1.0);
    }

    #[test]
    fn config_rejects_unknown_keys_like_its_schema() {
        assert!(parse(json!({"max_messages": 100})).is_none());
    }
}
