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
//! With `summarize`, a view that would drop messages gets them summarized
//! by a model instead, and the summary joins the history as a marked
//! message that later views start from ([`summary`]).
//!
//! This is a library for context plugins, not a plugin: each plugin crate
//! links its own copy and exports its own module.

pub mod budget;
pub mod compaction;
pub mod ingress;
pub mod summary;
pub mod tokens;
pub mod units;

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use amplifier_sdk::prelude::*;
use amplifier_sdk::{events, ops};
use serde::Deserialize;

use crate::budget::Budget;
use crate::compaction::{Compacted, Policy};
use crate::summary::Keep;

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
    /// Summarize the messages a view would drop, with a model.
    pub summarize: bool,
    /// The provider that summarizes; none: the one the view is for.
    pub summary_provider: Option<String>,
    /// The longest summary, in tokens.
    pub summary_max_tokens: u64,
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
            summarize: false,
            summary_provider: None,
            summary_max_tokens: 1024,
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
    /// `summarize`: who summarizes, and how long a summary may be.
    summary: Option<(Option<String>, u64)>,
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
            summary: config.summarize.then(|| (config.summary_provider.clone(), config.summary_max_tokens)),
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

    /// The view within `budget`: the history (from its last summary on)
    /// while it fits, known from the running estimate without reading it;
    /// else, with `summarize`, that with a new summary, compacted further if
    /// even that is over.
    async fn view_within(&self, budget: u64, provider: Option<&str>) -> Vec<Message> {
        let base = {
            let history = self.history();
            let base = history.base();
            if history.tokens <= budget {
                return base;
            }
            base
        };
        let base = match self.summarize(provider, budget).await {
            Some(summarized) => summarized,
            None => base,
        };
        let Some(compacted) = compaction::compact(&base, budget, &self.policy) else {
            return base;
        };
        // Compaction only builds this view, so announcing it once computed
        // shows hooks the same before/after as announcing it around the work.
        self.announce(&base, &compacted, budget).await;
        compacted.messages
    }

    /// With `summarize`: the older messages since the last summary (all but
    /// the `protected_recent` share) summarized by the summary provider
    /// (else the view's), the summary inserted into the history, and the
    /// view from it returned. `None` when there is too little to summarize
    /// (under a quarter of the budget: omitting it is cheaper than a model
    /// call, and a view whose recent share alone is over budget would
    /// otherwise be summarized again at every step) or summarizing failed
    /// (then not tried again until the history grows); the caller compacts
    /// as without `summarize`.
    async fn summarize(&self, view_provider: Option<&str>, budget: u64) -> Option<Vec<Message>> {
        let (provider, max_tokens) = self.summary.as_ref()?;
        let (messages, epoch) = {
            let history = self.history();
            if history.failed_at == Some(history.messages.len()) {
                return None;
            }
            (history.messages.clone(), history.epoch)
        };
        let at = summary::cut(&messages, Keep::Recent(self.policy.protected_recent))?;
        let covered = summary::covered(&messages, at);
        let fresh: u64 = covered.iter().filter(|m| !summary::is_summary(m)).map(tokens::estimate).sum();
        if fresh < budget / 4 {
            return None;
        }
        let before = data([
            ("message_count", json!(messages.len())),
            ("token_count", json!(self.history().tokens)),
            ("strategy", json!("summary")),
            ("messages_to_summarize", json!(covered.len())),
        ]);
        self.emit(events::CONTEXT_PRE_COMPACT, before).await;
        let request = summary::request(&covered, None, *max_tokens);
        let provider = provider.as_deref().or(view_provider);
        // Announced like any model call, so front ends count its tokens.
        self.emit(events::PROVIDER_REQUEST, data([("provider", json!(provider)), ("purpose", json!("summarize"))]))
            .await;
        let summarized = match self.host.complete(provider, request).await {
            Ok(response) => {
                let answered =
                    [("provider", json!(provider)), ("purpose", json!("summarize")), ("usage", json!(response.usage))];
                self.emit(events::PROVIDER_RESPONSE, data(answered)).await;
                match response.text() {
                    text if text.trim().is_empty() => Err("the summary came back empty".to_owned()),
                    text => Ok(text),
                }
            }
            Err(err) => Err(err.to_string()),
        };
        let text = match summarized {
            Ok(text) => text,
            Err(error) => {
                tracing::warn!(%error, "could not summarize the conversation; compacting without a summary");
                {
                    let mut history = self.history();
                    if history.epoch == epoch {
                        history.failed_at = Some(history.messages.len());
                    }
                }
                let after = data([("strategy", json!("summary")), ("error", json!(error))]);
                self.emit(events::CONTEXT_POST_COMPACT, after).await;
                return None;
            }
        };
        let summary = summary::message(&text, covered.len());
        let summary_tokens = tokens::estimate(&summary);
        let (base, tokens) = {
            let mut history = self.history();
            // Rewritten while the model wrote: the summary no longer fits in.
            if history.epoch != epoch {
                return None;
            }
            let mut messages = std::mem::take(&mut history.messages);
            messages.insert(at, summary);
            let failed_at = history.failed_at;
            *history = History::new(messages);
            history.failed_at = failed_at;
            (history.base(), history.tokens)
        };
        let after = data([
            ("message_count", json!(base.len())),
            ("token_count", json!(tokens)),
            ("strategy", json!("summary")),
            ("messages_summarized", json!(covered.len())),
            ("summary_tokens", json!(summary_tokens)),
        ]);
        self.emit(events::CONTEXT_POST_COMPACT, after).await;
        Some(base)
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
        Ok(self.view_within(budget, view.provider.as_deref()).await)
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
                return Ok(history.view_since(request.since));
            }
        }
        let messages = self.view_within(budget, request.view.provider.as_deref()).await;
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
/// them all: where views start (the last summary), their estimated tokens,
/// and the epoch of the list (a new one whenever it is replaced rather than
/// appended to).
struct History {
    messages: Vec<Message>,
    /// The system messages before the last summary, and its index.
    start: Option<(Vec<Message>, usize)>,
    /// The estimated tokens of a view's starting point (see [`History::base`]).
    tokens: u64,
    epoch: u64,
    /// The history's length when summarizing it failed: not tried again
    /// until it has grown.
    failed_at: Option<usize>,
}

impl History {
    fn new(messages: Vec<Message>) -> Self {
        let start = summary::view_start(&messages);
        let mut history = History { messages, start, tokens: 0, epoch: next_epoch(), failed_at: None };
        history.tokens = tokens::estimate_all(&history.base());
        history
    }

    fn push(&mut self, message: Message) {
        self.tokens += tokens::estimate(&message);
        self.messages.push(message);
    }

    /// What a request view starts from: the history, or with a summary in
    /// it, the system messages before the last summary, then the summary
    /// and all that follows.
    fn base(&self) -> Vec<Message> {
        match &self.start {
            None => self.messages.clone(),
            Some((system, at)) => system.iter().chain(&self.messages[*at..]).cloned().collect(),
        }
    }

    /// The history as what was added since `since`, when that copy is of
    /// this epoch; else all of it.
    fn since(&self, since: Option<ops::ViewCursor>) -> ops::ViewDelta {
        let cursor = ops::ViewCursor { epoch: self.epoch, len: self.messages.len() };
        let keep = kept(since, cursor);
        ops::ViewDelta { cursor, keep, messages: self.messages[keep..].to_vec() }
    }

    /// [`History::base`] as what was added since `since`; it only grows
    /// between rewrites, as the history does.
    fn view_since(&self, since: Option<ops::ViewCursor>) -> ops::ViewDelta {
        let Some((system, at)) = &self.start else { return self.since(since) };
        let cursor = ops::ViewCursor { epoch: self.epoch, len: system.len() + self.messages.len() - at };
        let keep = kept(since, cursor);
        let messages = match keep.checked_sub(system.len()) {
            Some(past_system) => self.messages[at + past_system..].to_vec(),
            None => system[keep..].iter().chain(&self.messages[*at..]).cloned().collect(),
        };
        ops::ViewDelta { cursor, keep, messages }
    }
}

/// How much of a caller's copy (at `since`) still holds, given the list is
/// now at `cursor`.
fn kept(since: Option<ops::ViewCursor>, cursor: ops::ViewCursor) -> usize {
    match since {
        Some(since) if since.epoch == cursor.epoch && since.len <= cursor.len => since.len,
        _ => 0,
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

    /// A context that summarizes, over a history of a task and twelve long
    /// exchanges (about 1,200 tokens).
    fn summarizing(test: &TestHost) -> InMemoryContext {
        let config = Config { summarize: true, summary_max_tokens: 300, ..Config::default() };
        let context = InMemoryContext::new(&config, test.host());
        block_on(context.add_message(Message::system("sys"))).unwrap();
        let long = "word ".repeat(80);
        for i in 0..12 {
            let role = if i % 2 == 0 { Role::User } else { Role::Assistant };
            block_on(context.add_message(Message::new(role, format!("{i} {long}")))).unwrap();
        }
        context
    }

    fn view(context: &InMemoryContext, budget: u64) -> Vec<Message> {
        let view = RequestView { token_budget: Some(budget), provider: Some("main".into()) };
        block_on(context.get_messages_for_request(view)).unwrap()
    }

    #[test]
    fn a_view_over_budget_is_summarized_and_the_summary_joins_the_history() {
        let test = TestHost::new().with_response(amplifier_sdk::testing::text_response("They talked about words."));
        let context = summarizing(&test);
        let first = view(&context, 800);
        // The system message, the summary, then the recent share, whole.
        assert_eq!(first[0].content.text(), "sys");
        assert!(summary::is_summary(&first[1]), "{:?}", first[1]);
        assert_eq!(
            first[1].content.text(),
            format!(
                "{}
They talked about words.",
                summary::HEADING
            )
        );
        assert_eq!(first.len(), 2 + 4, "30% of twelve messages, rounded up");
        assert!(first[2].content.text().starts_with("8 "));
        // The summarizer read the older eight, and the view's provider answered.
        let asked = test.requests();
        assert_eq!(asked.len(), 1);
        let transcript = asked[0].messages[1].content.text();
        assert!(transcript.contains("User: 0 word") && transcript.contains("Assistant: 7 word"), "{transcript}");
        assert!(!transcript.contains("8 word"), "the recent share is not summarized");
        assert_eq!(asked[0].max_output_tokens, Some(300));
        // Nothing was lost: the history holds every message and the summary.
        let history = block_on(context.get_messages()).unwrap();
        assert_eq!(history.len(), 14);
        assert!(summary::is_summary(&history[9]));
        // Announced before and after.
        let pre = test.events_named("context:pre_compact");
        let post = test.events_named("context:post_compact");
        assert_eq!((pre[0]["strategy"].as_str(), pre[0]["messages_to_summarize"].as_u64()), (Some("summary"), Some(8)));
        assert_eq!((post[0]["messages_summarized"].as_u64(), post[0]["message_count"].as_u64()), (Some(8), Some(6)));
        // The next view fits: it starts from the summary, and no model is asked.
        assert_eq!(view(&context, 800), first);
        let delta = block_on(context.sync_view(ops::ContextSyncView {
            view: RequestView { token_budget: Some(800), provider: None },
            since: None,
        }))
        .unwrap();
        assert_eq!(delta.messages, first);
        block_on(context.add_message(Message::user("and now?"))).unwrap();
        let grown = block_on(context.sync_view(ops::ContextSyncView {
            view: RequestView { token_budget: Some(800), provider: None },
            since: Some(delta.cursor),
        }))
        .unwrap();
        assert_eq!((grown.keep, grown.messages.len()), (6, 1), "only the new message");
        assert_eq!(test.requests().len(), 1);
    }

    #[test]
    fn a_failed_summary_falls_back_to_omitting_and_is_not_retried_until_the_history_grows() {
        let test = TestHost::new()
            .with_provider_error(ModuleError::new(ErrorKind::Unavailable, "no model today"))
            .with_response(amplifier_sdk::testing::text_response("Words."));
        let context = summarizing(&test);
        let view_now = view(&context, 800);
        assert!(view_now.iter().any(|m| m.content.text().starts_with("[context compacted:")), "omitted instead");
        assert!(!view_now.iter().any(summary::is_summary));
        let post = test.events_named("context:post_compact");
        assert!(post[0]["error"].as_str().unwrap().contains("no model today"), "{post:?}");
        view(&context, 800);
        assert_eq!(test.requests().len(), 1, "not asked again for the same history");
        block_on(context.add_message(Message::user("more"))).unwrap();
        assert!(view(&context, 800).iter().any(summary::is_summary), "asked again once it grew");
        assert_eq!(test.requests().len(), 2);
    }

    #[test]
    fn too_little_to_summarize_is_omitted_without_a_model_call() {
        let test = TestHost::new();
        let config = Config { summarize: true, ..Config::default() };
        let context = InMemoryContext::new(&config, test.host());
        for message in [Message::user("hi"), Message::new(Role::Assistant, "hello"), Message::user("x".repeat(4_000))] {
            block_on(context.add_message(message)).unwrap();
        }
        // Over budget only for its last, recent message: summarizing "hi" and "hello" would not help.
        let view = view(&context, 800);
        assert!(test.requests().is_empty(), "no model was asked");
        assert!(!view.iter().any(summary::is_summary));
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
