//! What `context-simple` and `context-persistent` share: an in-memory
//! history whose request views fit a token budget.
//!
//! The history itself is never compacted: `get_messages` always returns all
//! of it, and each request gets a view that fits its token budget (see
//! [`compaction`]), announced by `context:pre_compact`/`context:post_compact`
//! and upstream's `context:compaction`.
//!
//! As upstream's context-simple: a request's budget follows its provider's
//! model (`budget`), announced by `context:budget` when it changes, and a
//! tool result is cut to `max_tool_result_bytes` as it enters the history
//! (`ingress`), announced by `context:tool_result_ingress_truncated`.
//!
//! This is a library for context plugins, not a plugin: each plugin crate
//! links its own copy and exports its own module.

pub mod budget;
pub mod compaction;
pub mod ingress;
pub mod tokens;
pub mod units;

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use amplifier_sdk::events;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::budget::Budget;
use crate::compaction::{Compacted, Policy};

/// The compaction settings both context modules take (`config:` keys).
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// A cap on every request's budget; none: the provider's window decides.
    pub max_tokens: Option<u64>,
    /// The budget when the provider does not say its window.
    pub max_tokens_fallback: u64,
    /// Share of the model's most output kept free for the answer.
    pub output_reserve_fraction: f64,
    /// A tool result larger than this (UTF-8 bytes of its text) is cut as
    /// it enters the history.
    pub max_tool_result_bytes: usize,
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
            max_tokens: None,
            max_tokens_fallback: budget::DEFAULT_FALLBACK,
            output_reserve_fraction: 0.5,
            max_tool_result_bytes: ingress::DEFAULT_MAX_BYTES,
            compact_threshold: 0.92,
            protected_tool_results: 5,
            truncate_chars: 250,
            protected_recent: 0.30,
            target_usage: None,
        }
    }
}

impl Config {
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
    budget: budget::Settings,
    compact_threshold: f64,
    max_tool_result_bytes: usize,
    policy: Policy,
    /// Each provider's model, asked once.
    models: Mutex<HashMap<Option<String>, Option<budget::Model>>>,
    /// The last `context:budget` payload, announced again only when it changes.
    announced: Mutex<Option<Budget>>,
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
            budget: budget::Settings {
                cap: config.max_tokens,
                fallback: config.max_tokens_fallback,
                output_reserve_fraction: config.output_reserve_fraction,
            },
            compact_threshold: config.compact_threshold,
            max_tool_result_bytes: config.max_tool_result_bytes,
            policy: config.policy(),
            models: Mutex::new(HashMap::new()),
            announced: Mutex::new(None),
            host,
        }
    }

    /// The budget of a request for `provider`'s model, announced as
    /// `context:budget` when it is not the one announced last.
    async fn budget(&self, provider: Option<String>) -> Budget {
        let known = self.models.lock().unwrap_or_else(PoisonError::into_inner).get(&provider).copied();
        let model = match known {
            Some(model) => model,
            None => {
                // A provider that can't say has no window to follow: the
                // fallback budget, as upstream falls back.
                let asked = match self.host.model_info(provider.as_deref()).await {
                    Ok(info) => info.map(|m| (m.context_window, m.max_output_tokens)),
                    Err(err) => {
                        tracing::debug!(error = %err, "the provider's model is unknown; the fallback budget applies");
                        None
                    }
                };
                self.models.lock().unwrap_or_else(PoisonError::into_inner).insert(provider, asked);
                asked
            }
        };
        let budget = self.budget.derive(model);
        let changed = {
            let mut announced = self.announced.lock().unwrap_or_else(PoisonError::into_inner);
            let changed = announced.as_ref() != Some(&budget);
            *announced = Some(budget.clone());
            changed
        };
        if changed {
            self.emit(budget::EVENT, budget.payload()).await;
        }
        budget
    }

    /// Every critical section is one push, clone or replacement, so a panic
    /// elsewhere can't leave the history half-written: a poisoned lock is
    /// still safe to use. Never held across an await.
    fn messages(&self) -> MutexGuard<'_, Vec<Message>> {
        self.messages.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn announce(&self, history: &[Message], compacted: &Compacted, budget: u64) {
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
        // Upstream's one event, in its field names.
        let system = history.iter().filter(|m| matches!(m.role, Role::System | Role::Developer)).count();
        let compaction = data([
            ("before_tokens", json!(stats.tokens_before)),
            ("after_tokens", json!(stats.tokens_after)),
            ("before_messages", json!(history.len())),
            ("after_messages", json!(compacted.messages.len())),
            ("messages_removed", json!(stats.messages_removed)),
            ("messages_truncated", json!(stats.tool_results_truncated)),
            ("system_messages_preserved", json!(system)),
            ("strategy_level", json!(stats.level)),
            ("budget", json!(budget)),
            ("target_tokens", json!((budget as f64 * self.policy.target_share) as u64)),
            ("protected_recent", json!(self.policy.protected_recent)),
            ("protected_tool_results", json!(self.policy.protected_tool_results)),
        ]);
        self.emit(events::CONTEXT_COMPACTION, compaction).await;
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
        let (message, truncated) = ingress::limit(message, self.max_tool_result_bytes);
        self.messages().push(message);
        if let Some(data) = truncated {
            self.emit(ingress::EVENT, data).await;
        }
        Ok(())
    }

    async fn get_messages(&self) -> ModuleResult<Vec<Message>> {
        Ok(self.messages().clone())
    }

    async fn get_messages_for_request(&self, view: RequestView) -> ModuleResult<Vec<Message>> {
        let history = self.messages().clone();
        // A budget the request names is the view's limit as it is; one
        // derived from the provider's model is compacted at its threshold.
        let budget = match view.token_budget {
            Some(budget) => budget,
            None => {
                let derived = self.budget(view.provider).await;
                (derived.effective as f64 * self.compact_threshold) as u64
            }
        };
        let Some(compacted) = compaction::compact(&history, budget, &self.policy) else {
            return Ok(history);
        };
        // Compaction only builds this view, so announcing it once computed
        // shows hooks the same before/after as announcing it around the work.
        self.announce(&history, &compacted, budget).await;
        Ok(compacted.messages)
    }

    async fn set_messages(&self, messages: Vec<Message>) -> ModuleResult<()> {
        let mut admitted = Vec::with_capacity(messages.len());
        let mut announcements = Vec::new();
        for message in messages {
            let (message, truncated) = ingress::limit(message, self.max_tool_result_bytes);
            admitted.push(message);
            announcements.extend(truncated);
        }
        *self.messages() = admitted;
        for data in announcements {
            self.emit(ingress::EVENT, data).await;
        }
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
        assert_eq!(config.max_tokens, None, "no cap: the provider's window decides");
        assert_eq!((config.max_tokens_fallback, config.output_reserve_fraction), (200_000, 0.5));
        assert_eq!((config.compact_threshold, config.max_tool_result_bytes), (0.92, 131_072));
        let policy = config.policy();
        assert_eq!((policy.protected_tool_results, policy.truncate_chars), (5, 250));
        assert_eq!(policy.protected_recent, 0.30);
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
