//! The hook registry and upstream's `emit` aggregation.
//!
//! Semantics are upstream's (`amplifier-core` `hooks.rs`): handlers run
//! sequentially by ascending priority, ties in registration order; `deny`
//! returns at once; `modify` replaces the data the next handler sees;
//! `inject_context` results are merged with blank lines; the first `ask_user`
//! wins; precedence is deny > ask_user > inject_context > modify > continue; a
//! failing handler is logged and skipped. Every event gets the registry's
//! default fields (`session_id`, `parent_id`) and a kernel-owned `timestamp`.
//!
//! Beyond upstream: a subscription may be an exact name, a prefix pattern
//! (`tool:*`) or `*`, and all three fire (upstream's `*` never does); and
//! the `user_message` of a handler that continued or modified is not lost
//! in the fold: the first one travels on the folded result (upstream
//! shows only the message of the result `emit` returns).

use std::sync::{Arc, OnceLock, RwLock};
use std::time::Duration;

use indexmap::IndexMap;
use serde_json::Value;

use crate::models::{HookAction, HookResult, JsonMap};
use crate::{BoxFuture, ModuleResult};

/// Handles the events it subscribed to; its [`HookResult`] may continue,
/// deny, modify, inject context or ask the user.
pub trait HookHandler: Send + Sync {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>>;

    /// What [`HookRegistry::emit`] calls: a handler that usually answers
    /// without waiting (a plugin hook, whose call is most often answered
    /// inline) answers here, and spares a boxed future per handler per event.
    fn start<'a>(&'a self, event: &'a HookEvent) -> HookCall<'a> {
        HookCall::Waiting(self.handle(event))
    }
}

/// A started [`HookHandler`] call.
pub enum HookCall<'a> {
    Answered(ModuleResult<HookResult>),
    Waiting(BoxFuture<'a, ModuleResult<HookResult>>),
}

/// One event as handlers see it. Its JSON text is produced at most once
/// per event, however many plugin handlers read it.
#[derive(Debug)]
pub struct HookEvent {
    pub name: String,
    pub data: JsonMap,
    /// `{"event":…,"data":…}`, and where the data starts in it.
    envelope: OnceLock<(String, usize)>,
}

impl HookEvent {
    pub fn new(name: impl Into<String>, data: JsonMap) -> Self {
        HookEvent { name: name.into(), data, envelope: OnceLock::new() }
    }

    /// The event as a plugin hook's `handle` parameters,
    /// `{"event":…,"data":…}` with `data` last (`ops::HandleEvent`),
    /// cached: every plugin handler gets the same text.
    pub fn envelope_json(&self) -> &str {
        &self.envelope().0
    }

    /// The event's data serialized as a JSON object, cached (a slice of the envelope).
    pub fn data_json(&self) -> &str {
        let (envelope, start) = self.envelope();
        &envelope[*start..envelope.len() - 1]
    }

    fn envelope(&self) -> &(String, usize) {
        self.envelope.get_or_init(|| {
            // Room for a typical event (a tool call, a content delta) without regrowing.
            let mut out = Vec::with_capacity(512);
            out.extend_from_slice(b"{\"event\":");
            let written = serde_json::to_writer(&mut out, &self.name);
            out.extend_from_slice(b",\"data\":");
            let start = out.len();
            if written.and_then(|()| serde_json::to_writer(&mut out, &self.data)).is_err() {
                out.truncate(start);
                out.extend_from_slice(b"{}");
            }
            out.push(b'}');
            (String::from_utf8(out).expect("serde_json writes UTF-8"), start)
        })
    }
}

/// Which events a handler receives.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    Exact(String),
    /// `tool:*` is stored as `tool:`.
    Prefix(String),
    All,
}

impl Pattern {
    fn parse(pattern: &str) -> Self {
        if pattern == "*" {
            Pattern::All
        } else if let Some(prefix) = pattern.strip_suffix('*') {
            Pattern::Prefix(prefix.to_owned())
        } else {
            Pattern::Exact(pattern.to_owned())
        }
    }

    fn matches(&self, event: &str) -> bool {
        match self {
            Pattern::Exact(name) => name == event,
            Pattern::Prefix(prefix) => event.starts_with(prefix.as_str()),
            Pattern::All => true,
        }
    }

    fn as_string(&self) -> String {
        match self {
            Pattern::Exact(name) => name.clone(),
            Pattern::Prefix(prefix) => format!("{prefix}*"),
            Pattern::All => "*".to_owned(),
        }
    }
}

/// Identifies one registration, for `unregister`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HandlerId(u64);

struct Entry {
    id: HandlerId,
    pattern: Pattern,
    priority: i32,
    name: String,
    handler: Arc<dyn HookHandler>,
}

#[derive(Default)]
struct Handlers {
    next_id: u64,
    /// Kept sorted by (priority, registration order), so emit never sorts.
    entries: Arc<Vec<Arc<Entry>>>,
}

/// Registry of hook handlers for one session.
#[derive(Default)]
pub struct HookRegistry {
    handlers: RwLock<Handlers>,
    defaults: RwLock<JsonMap>,
}

impl HookRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `handler` for `pattern` (exact name, `prefix:*` or `*`).
    /// Lower priorities run first.
    pub fn register(
        &self,
        pattern: &str,
        handler: Arc<dyn HookHandler>,
        priority: i32,
        name: impl Into<String>,
    ) -> HandlerId {
        let mut handlers = self.handlers.write().expect("hook registry lock");
        handlers.next_id += 1;
        let entry = Arc::new(Entry {
            id: HandlerId(handlers.next_id),
            pattern: Pattern::parse(pattern),
            priority,
            name: name.into(),
            handler,
        });
        let id = entry.id;
        let mut entries: Vec<Arc<Entry>> = handlers.entries.as_ref().clone();
        // Stable position: after every entry with priority <= ours.
        let at = entries.partition_point(|e| e.priority <= priority);
        entries.insert(at, entry);
        handlers.entries = Arc::new(entries);
        id
    }

    /// Removes one registration; returns whether it existed.
    pub fn unregister(&self, id: HandlerId) -> bool {
        self.retain(|entry| entry.id != id)
    }

    fn retain(&self, keep: impl Fn(&Entry) -> bool) -> bool {
        let mut handlers = self.handlers.write().expect("hook registry lock");
        let before = handlers.entries.len();
        let entries: Vec<Arc<Entry>> = handlers.entries.iter().filter(|e| keep(e)).cloned().collect();
        let removed = entries.len() != before;
        handlers.entries = Arc::new(entries);
        removed
    }

    /// Fields merged into every emitted event (event data wins over them).
    pub fn set_default_fields(&self, fields: JsonMap) {
        *self.defaults.write().expect("hook defaults lock") = fields;
    }

    /// Handler names by subscription pattern, optionally only those an event reaches.
    pub fn list_handlers(&self, event: Option<&str>) -> IndexMap<String, Vec<String>> {
        let mut listing: IndexMap<String, Vec<String>> = IndexMap::new();
        for entry in self.snapshot().iter() {
            if event.is_none_or(|e| entry.pattern.matches(e)) {
                listing.entry(entry.pattern.as_string()).or_default().push(entry.name.clone());
            }
        }
        listing
    }

    fn snapshot(&self) -> Arc<Vec<Arc<Entry>>> {
        self.handlers.read().expect("hook registry lock").entries.clone()
    }

    /// Adds defaults (under the event's own fields) and the kernel timestamp.
    fn stamp(&self, mut data: JsonMap) -> JsonMap {
        for (key, value) in self.defaults.read().expect("hook defaults lock").iter() {
            data.entry(key.clone()).or_insert_with(|| value.clone());
        }
        data.insert("timestamp".to_owned(), Value::String(crate::now_rfc3339()));
        data
    }

    /// Emits `event` and aggregates the handlers' answers (see the module docs).
    pub async fn emit(&self, event: &str, data: JsonMap) -> HookResult {
        // One snapshot per emit: a handler registered meanwhile sees the next event.
        let snapshot = self.snapshot();
        if !snapshot.iter().any(|entry| entry.pattern.matches(event)) {
            return HookResult { data: Some(data), ..HookResult::default() };
        }
        let mut current = HookEvent::new(event, self.stamp(data));
        let mut ask_user: Option<HookResult> = None;
        let mut injections: Vec<HookResult> = Vec::new();
        // The first message of a handler whose result the fold would drop.
        let mut message: Option<HookResult> = None;
        // A plain loop: a filter closure held across the awaits would make
        // this future's `Send` bound higher-ranked, which callers can't prove.
        for entry in snapshot.iter() {
            if !entry.pattern.matches(event) {
                continue;
            }
            let answer = match entry.handler.start(&current) {
                HookCall::Answered(answer) => answer,
                HookCall::Waiting(future) => future.await,
            };
            let result = match answer {
                Ok(result) => result,
                Err(err) => {
                    tracing::warn!(handler = %entry.name, event, error = %err, "hook handler failed; skipped");
                    continue;
                }
            };
            if matches!(result.action, HookAction::Modify | HookAction::Continue)
                && message.is_none()
                && result.user_message.as_deref().is_some_and(|m| !m.is_empty())
            {
                message = Some(HookResult {
                    user_message: result.user_message.clone(),
                    user_message_level: result.user_message_level,
                    user_message_source: result.user_message_source.clone().or_else(|| Some(entry.name.clone())),
                    ..HookResult::default()
                });
            }
            match result.action {
                HookAction::Deny => return result,
                HookAction::Modify => {
                    if let Some(data) = result.data {
                        current = HookEvent::new(event, data);
                    }
                }
                HookAction::InjectContext => {
                    if result.context_injection.as_deref().is_some_and(|c| !c.is_empty()) {
                        injections.push(result);
                    }
                }
                HookAction::AskUser => {
                    if ask_user.is_none() {
                        ask_user = Some(result);
                    }
                }
                HookAction::Continue => {}
            }
        }
        if let Some(ask) = ask_user {
            return ask;
        }
        let mut folded = match injections.is_empty() {
            false => merge_injections(injections, current.data),
            true => HookResult { data: Some(current.data), ..HookResult::default() },
        };
        if let Some(message) = message.filter(|_| folded.user_message.is_none()) {
            folded.user_message = message.user_message;
            folded.user_message_level = message.user_message_level;
            folded.user_message_source = message.user_message_source;
        }
        folded
    }

    /// Runs every handler with a timeout each and collects the `data` they
    /// return; no actions apply and no timestamp is stamped (upstream's rule).
    pub async fn emit_and_collect(&self, event: &str, data: JsonMap, timeout: Duration) -> Vec<JsonMap> {
        let current = HookEvent::new(event, data);
        let mut collected = Vec::new();
        for entry in self.snapshot().iter() {
            if !entry.pattern.matches(event) {
                continue;
            }
            match tokio::time::timeout(timeout, entry.handler.handle(&current)).await {
                Ok(Ok(result)) => collected.extend(result.data),
                Ok(Err(err)) => tracing::warn!(handler = %entry.name, event, error = %err, "hook handler failed"),
                Err(_) => tracing::warn!(handler = %entry.name, event, "hook handler timed out"),
            }
        }
        collected
    }
}

fn merge_injections(injections: Vec<HookResult>, data: JsonMap) -> HookResult {
    let append_to_last_tool_result = injections.iter().any(|r| r.append_to_last_tool_result);
    let text = injections.iter().filter_map(|r| r.context_injection.as_deref()).collect::<Vec<_>>().join("\n\n");
    let first = injections.into_iter().next().expect("at least one injection");
    HookResult {
        action: HookAction::InjectContext,
        context_injection: Some(text),
        append_to_last_tool_result,
        data: Some(data),
        ..first
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_envelope_is_a_handle_events_text_with_the_data_last() {
        let Value::Object(data) = json!({"tool_name": "bash", "tool_input": {"command": "echo \"hi\""}}) else {
            unreachable!()
        };
        let event = HookEvent::new("tool:pre", data.clone());
        let handle = crate::ops::HandleEvent { event: "tool:pre".into(), data: data.clone() };
        assert_eq!(event.envelope_json(), serde_json::to_string(&handle).unwrap());
        assert_eq!(event.data_json(), serde_json::to_string(&data).unwrap());
        assert_eq!(event.envelope_json(), format!(r#"{{"event":"tool:pre","data":{}}}"#, event.data_json()));
    }
}
