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

use amplifier_sdk::prelude::*;
use amplifier_sdk::{events, ops};
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
    history: Mutex<History>,
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
            history: Mutex::new(History::new(messages)),
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
    fn history(&self) -> MutexGuard<'_, History> {
        self.history.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The view's token budget. A budget the request names is the view's
    /// limit as it is; one derived from the provider's model is compacted
    /// at its threshold.
    async fn view_budget(&self, view: &RequestView) -> u64 {
        match view.token_budget {
            Some(budget) => budget,
            None => {
                let derived = self.budget(view.provider.clone()).await;
                (derived.effective as f64 * self.compact_threshold) as u64
            }
        }
    }

    /// The view within `budget`: the history while it fits (known from the
    /// running estimate, without reading it), else compacted.
    async fn view_within(&self, budget: u64) -> Vec<Message> {
        let history = {
            let history = self.history();
            if history.tokens <= budget {
                return history.messages.clone();
            }
            history.messages.clone()
        };
        let Some(compacted) = compaction::compact(&history, budget, &self.policy) else {
            return history;
        };
        // Compaction only builds this view, so announcing it once computed
        // shows hooks the same before/after as announcing it around the work.
        self.announce(&history, &compacted, budget).await;
        compacted.messages
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
        self.history().push(message);
        if let Some(data) = truncated {
            self.emit(ingress::EVENT, data).await;
        }
        Ok(())
    }

    async fn get_messages(&self) -> ModuleResult<Vec<Message>> {
        Ok(self.history().messages.clone())
    }

    async fn get_messages_for_request(&self, view: RequestView) -> ModuleResult<Vec<Message>> {
        let budget = self.view_budget(&view).await;
        Ok(self.view_within(budget).await)
    }

    /// While the history fits the budget, the view is the history, which
    /// only grows between rewrites: a caller whose copy is of this epoch
    /// gets the messages added since. A compacted view is sent whole, with
    /// an epoch of its own (compaction already reads the whole history).
    async fn sync_view(&self, request: ops::ContextSyncView) -> ModuleResult<ops::ViewDelta> {
        let budget = self.view_budget(&request.view).await;
        {
            let history = self.history();
            if history.tokens <= budget {
                return Ok(history.since(request.since));
            }
        }
        let messages = self.view_within(budget).await;
        Ok(ops::ViewDelta { cursor: ops::ViewCursor { epoch: next_epoch(), len: messages.len() }, keep: 0, messages })
    }

    async fn sync_messages(&self, request: ops::ContextSyncMessages) -> ModuleResult<ops::ViewDelta> {
        Ok(self.history().since(request.since))
    }

    async fn set_messages(&self, messages: Vec<Message>) -> ModuleResult<()> {
        let mut admitted = Vec::with_capacity(messages.len());
        let mut announcements = Vec::new();
        for message in messages {
            let (message, truncated) = ingress::limit(message, self.max_tool_result_bytes);
            admitted.push(message);
            announcements.extend(truncated);
        }
        *self.history() = History::new(admitted);
        for data in announcements {
            self.emit(ingress::EVENT, data).await;
        }
        Ok(())
    }

    async fn clear(&self) -> ModuleResult<()> {
        *self.history() = History::new(Vec::new());
        Ok(())
    }
}

/// The stored messages, with what a request view needs without reading
/// them all: their estimated tokens, and the epoch of the list (a new one
/// whenever it is replaced rather than appended to).
struct History {
    messages: Vec<Message>,
    tokens: u64,
    epoch: u64,
}

impl History {
    fn new(messages: Vec<Message>) -> Self {
        History { tokens: tokens::estimate_all(&messages), messages, epoch: next_epoch() }
    }

    fn push(&mut self, message: Message) {
        self.tokens += tokens::estimate(&message);
        self.messages.push(message);
    }

    /// The history as what was added since `since`, when that copy is of
    /// this epoch; else all of it.
    fn since(&self, since: Option<ops::ViewCursor>) -> ops::ViewDelta {
        let cursor = ops::ViewCursor { epoch: self.epoch, len: self.messages.len() };
        let keep = match since {
            Some(since) if since.epoch == self.epoch && since.len <= cursor.len => since.len,
            _ => 0,
        };
        ops::ViewDelta { cursor, keep, messages: self.messages[keep..].to_vec() }
    }
}

/// A fresh epoch. The sequence is process-wide and starts from the clock,
/// so two contexts, or two plugins that link this crate, never hand out
/// the same one (a provider's copy of one context's view must not pass for
/// another's); 0 stays "a context that keeps no cursors".
fn next_epoch() -> u64 {
    static NEXT: std::sync::OnceLock<std::sync::atomic::AtomicU64> = std::sync::OnceLock::new();
    let next = NEXT.get_or_init(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        std::sync::atomic::AtomicU64::new((now.as_nanos() as u64) << 8 | 1)
    });
    next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use amplifier_sdk::testing::{block_on, TestHost};

    fn sync(context: &InMemoryContext, budget: u64, since: Option<ops::ViewCursor>) -> ops::ViewDelta {
        let view = RequestView { token_budget: Some(budget), provider: None };
        block_on(context.sync_view(ops::ContextSyncView { view, since })).unwrap()
    }

    #[test]
    fn a_view_that_only_grew_is_synced_as_the_messages_added() {
        let test = TestHost::new();
        let context = InMemoryContext::new(&Config::default(), test.host());
        block_on(context.add_message(Message::user("one"))).unwrap();
        block_on(context.add_message(Message::new(Role::Assistant, "two"))).unwrap();
        let mut copy = Vec::new();

        let first = sync(&context, 10_000, None);
        assert_eq!((first.keep, first.messages.len(), first.cursor.len), (0, 2, 2));
        let cursor = first.cursor;
        first.apply(&mut copy);

        block_on(context.add_message(Message::user("three"))).unwrap();
        let grown = sync(&context, 10_000, Some(cursor));
        assert_eq!((grown.keep, grown.messages.len()), (2, 1), "only the new message");
        assert_eq!(grown.cursor, ops::ViewCursor { epoch: cursor.epoch, len: 3 });
        let cursor = grown.cursor;
        grown.apply(&mut copy);
        assert_eq!(copy, block_on(context.get_messages()).unwrap());

        let unchanged = sync(&context, 10_000, Some(cursor));
        assert_eq!((unchanged.keep, unchanged.messages.len()), (3, 0));

        // A cursor of another epoch, or ahead of the history, gets the whole view.
        for stranger in [ops::ViewCursor { epoch: cursor.epoch + 1, len: 3 }, ops::ViewCursor { len: 4, ..cursor }] {
            let whole = sync(&context, 10_000, Some(stranger));
            assert_eq!((whole.keep, whole.messages.len()), (0, 3), "{stranger:?}");
        }
    }

    #[test]
    fn the_whole_history_syncs_as_what_was_added_even_when_views_are_compacted() {
        let test = TestHost::new();
        let context = InMemoryContext::new(&Config::default(), test.host());
        let long = "word ".repeat(400);
        for i in 0..12 {
            block_on(context.add_message(Message::user(format!("{i} {long}")))).unwrap();
        }
        let read = |since| block_on(context.sync_messages(ops::ContextSyncMessages { since })).unwrap();
        let all = read(None);
        assert_eq!((all.keep, all.messages.len()), (0, 12));
        // A compacted request view changes nothing for the history's readers.
        assert!(sync(&context, 2_000, None).messages.len() < 12);
        block_on(context.add_message(Message::user("thirteen"))).unwrap();
        let added = read(Some(all.cursor));
        assert_eq!((added.keep, added.messages.len()), (12, 1));
        block_on(context.set_messages(vec![Message::user("new")])).unwrap();
        let rewritten = read(Some(added.cursor));
        assert_eq!((rewritten.keep, rewritten.messages), (0, vec![Message::user("new")]));
    }

    #[test]
    fn a_rewritten_history_or_a_compacted_view_is_synced_whole_under_a_new_epoch() {
        let test = TestHost::new();
        let context = InMemoryContext::new(&Config::default(), test.host());
        block_on(context.add_message(Message::user("one"))).unwrap();
        let before = sync(&context, 10_000, None).cursor;

        block_on(context.set_messages(vec![Message::user("other"), Message::user("history")])).unwrap();
        let rewritten = sync(&context, 10_000, Some(before));
        assert_eq!((rewritten.keep, rewritten.messages.len()), (0, 2));
        assert_ne!(rewritten.cursor.epoch, before.epoch);

        block_on(context.clear()).unwrap();
        let cleared = sync(&context, 10_000, Some(rewritten.cursor));
        assert_eq!((cleared.keep, cleared.messages.len()), (0, 0));
        assert_ne!(cleared.cursor.epoch, rewritten.cursor.epoch);

        // Over the budget the view is compacted: sent whole, and its epoch
        // is no history's, so the next sync is whole again.
        let long = "word ".repeat(400);
        for i in 0..12 {
            block_on(context.add_message(Message::user(format!("{i} {long}")))).unwrap();
        }
        let history = sync(&context, 1_000_000, Some(cleared.cursor)).cursor;
        let compacted = sync(&context, 2_000, Some(history));
        let view = RequestView { token_budget: Some(2_000), provider: None };
        assert_eq!(compacted.messages, block_on(context.get_messages_for_request(view)).unwrap());
        assert!(compacted.messages.len() < 12, "compacted to {}", compacted.messages.len());
        assert_eq!(compacted.keep, 0);
        assert_ne!(compacted.cursor.epoch, history.epoch);
        let after = sync(&context, 2_000, Some(compacted.cursor));
        assert_eq!(after.keep, 0, "a compacted view's cursor never continues");
        assert!(test.event_names().iter().any(|name| name == "context:compaction"), "{:?}", test.event_names());
    }

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
