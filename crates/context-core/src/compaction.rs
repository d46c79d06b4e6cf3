//! Fitting a conversation into a token budget, as pure functions over messages.
//!
//! The stored history is never touched: every level works on a copy, and a
//! request gets the first level's result that fits:
//!
//! 1. older tool results are truncated (the recent ones are what the model is
//!    working with);
//! 2. the oldest messages are omitted, except system messages, the first user
//!    message (usually the task) and the most recent share of the conversation;
//!    if that is not enough, the oldest of that recent share go too, down to
//!    the current turn, so the view still fills the budget;
//! 3. only system messages and the current turn (the last user message and
//!    what follows it) are kept, the turn's oldest units omitted if even that
//!    is too big.
//!
//! Omitting works on [`units`], so a tool call and its results go together.

use amplifier_sdk::prelude::*;

use crate::tokens;
use crate::units::{is_system, is_tool_result, is_user_prompt, units};

/// How compaction treats the history (the config minus the budget).
#[derive(Debug)]
pub struct Policy {
    /// The most recent tool results, never truncated.
    pub protected_tool_results: usize,
    /// What an older tool result keeps when truncated.
    pub truncate_chars: usize,
    /// Share of the most recent conversation messages level 2 never omits.
    pub protected_recent: f64,
    /// Share of the budget a view over it is brought down to (upstream's
    /// `target_usage`, as a share of the budget): 1.0 fits it just under.
    pub target_share: f64,
}

/// What compaction did, for the `context:post_compact` event.
#[derive(Debug)]
pub struct Stats {
    /// The level whose result was returned (3 also when even it is over budget).
    pub level: u8,
    pub messages_removed: usize,
    pub tool_results_truncated: usize,
    pub tokens_before: u64,
    pub tokens_after: u64,
}

#[derive(Debug)]
pub struct Compacted {
    pub messages: Vec<Message>,
    pub stats: Stats,
}

/// A view of `history` that fits `budget` tokens, or `None` when the history
/// fits as it is. Never empty when `history` isn't: when nothing fits, the
/// smallest view that still makes sense (system messages and the last user
/// message with the last exchange) is returned over budget.
pub fn compact(history: &[Message], budget: u64, policy: &Policy) -> Option<Compacted> {
    let tokens_before = tokens::estimate_all(history);
    if tokens_before <= budget {
        return None;
    }
    let (messages, truncated) = truncate_old_tool_results(history, policy);
    // Room for the note, sized for the largest count it could report.
    let reserve = tokens::estimate(&note(history.len(), truncated));
    let target = (budget as f64 * policy.target_share.clamp(0.0, 1.0)) as u64;
    let mut plan = Plan::new(&messages, target.saturating_sub(reserve));
    let level = if plan.fits() {
        1
    } else if plan.omit_oldest(policy.protected_recent) {
        2
    } else {
        plan.keep_last_turn();
        3
    };
    plan.omit_leading_orphans();
    let keep = plan.into_keep();
    let (view, removed) = assemble(messages, keep, truncated);
    let stats = Stats {
        level,
        messages_removed: removed,
        tool_results_truncated: truncated,
        tokens_before,
        tokens_after: tokens::estimate_all(&view),
    };
    Some(Compacted { messages: view, stats })
}

/// The system message telling the model (and a reader of the view) that
/// parts of the conversation are missing from it.
fn note(removed: usize, truncated: usize) -> Message {
    let mut parts = Vec::new();
    if removed > 0 {
        parts.push(format!("{removed} earlier messages omitted"));
    }
    if truncated > 0 {
        parts.push(format!("{truncated} older tool results truncated"));
    }
    Message::system(format!("[context compacted: {}]", parts.join("; ")))
}

/// The kept messages in their order, with the note right after the leading
/// system messages; and how many messages were omitted.
fn assemble(messages: Vec<Message>, keep: Vec<bool>, truncated: usize) -> (Vec<Message>, usize) {
    let removed = keep.iter().filter(|&&kept| !kept).count();
    let mut note = (removed > 0 || truncated > 0).then(|| note(removed, truncated));
    let mut view = Vec::with_capacity(messages.len() - removed + 1);
    for (message, kept) in messages.into_iter().zip(keep) {
        if !kept {
            continue;
        }
        if !is_system(&message) {
            view.extend(note.take());
        }
        view.push(message);
    }
    // Only system messages are left.
    view.extend(note);
    (view, removed)
}

// ---------------------------------------------------------------------------
// Level 1: truncating older tool results

/// A copy of `history` with all but the most recent tool results truncated,
/// and how many were.
fn truncate_old_tool_results(history: &[Message], policy: &Policy) -> (Vec<Message>, usize) {
    let results: Vec<usize> = (0..history.len()).filter(|&i| is_tool_result(&history[i])).collect();
    let older = results.len().saturating_sub(policy.protected_tool_results);
    let mut messages = history.to_vec();
    let truncated =
        results[..older].iter().filter(|&&i| truncate_tool_output(&mut messages[i], policy.truncate_chars)).count();
    (messages, truncated)
}

/// Truncates the tool output in `message`; whether anything got shorter.
fn truncate_tool_output(message: &mut Message, limit: usize) -> bool {
    // In a `tool` message every text is output; elsewhere (a user message
    // carrying `tool_result` blocks) text beside the results is someone's words.
    let all_text_is_output = message.role == Role::Tool;
    match &mut message.content {
        MessageContent::Text(text) => shorten(text, limit),
        MessageContent::Blocks(blocks) => blocks.iter_mut().fold(false, |changed, block| {
            let shortened = match block {
                ContentBlock::ToolResult { output, .. } => shorten_value(output, limit),
                ContentBlock::Text { text, .. } if all_text_is_output => shorten(text, limit),
                _ => false,
            };
            changed | shortened
        }),
    }
}

fn shorten(text: &mut String, limit: usize) -> bool {
    match truncated(text, limit) {
        Some(short) => {
            *text = short;
            true
        }
        None => false,
    }
}

/// Structured output is truncated as the JSON text the model would read.
fn shorten_value(output: &mut Value, limit: usize) -> bool {
    if let Value::String(text) = output {
        return shorten(text, limit);
    }
    match truncated(&output.to_string(), limit) {
        Some(short) => {
            *output = Value::String(short);
            true
        }
        None => false,
    }
}

/// The first `limit` characters and a marker saying how many were cut, or
/// `None` when that would not be shorter than `text`.
fn truncated(text: &str, limit: usize) -> Option<String> {
    let (cut, _) = text.char_indices().nth(limit)?;
    let omitted = text[cut..].chars().count();
    let marker = format!("…[truncated {omitted} chars]");
    (marker.chars().count() < omitted).then(|| format!("{}{marker}", &text[..cut]))
}

// ---------------------------------------------------------------------------
// Levels 2 and 3: omitting messages, a unit at a time

/// Which messages a view keeps. System messages belong to no unit, so they
/// are always kept.
struct Plan<'a> {
    messages: &'a [Message],
    units: Vec<Vec<usize>>,
    tokens: Vec<u64>,
    keep: Vec<bool>,
    kept_tokens: u64,
    budget: u64,
}

impl<'a> Plan<'a> {
    fn new(messages: &'a [Message], budget: u64) -> Self {
        let tokens: Vec<u64> = messages.iter().map(tokens::estimate).collect();
        Plan {
            messages,
            units: units(messages),
            kept_tokens: tokens.iter().sum(),
            keep: vec![true; messages.len()],
            tokens,
            budget,
        }
    }

    fn fits(&self) -> bool {
        self.kept_tokens <= self.budget
    }

    fn first(&self, unit: usize) -> &Message {
        &self.messages[self.units[unit][0]]
    }

    /// Units are omitted whole, so their first message tells.
    fn is_kept(&self, unit: usize) -> bool {
        self.keep[self.units[unit][0]]
    }

    fn omit(&mut self, unit: usize) {
        for &index in &self.units[unit] {
            if std::mem::replace(&mut self.keep[index], false) {
                self.kept_tokens -= self.tokens[index];
            }
        }
    }

    /// Omits unprotected units, oldest first, until the view fits; whether it does.
    fn omit_oldest_until_fits(&mut self, protected: &[bool]) -> bool {
        for (unit, &protected) in protected.iter().enumerate() {
            if self.fits() {
                break;
            }
            if !protected {
                self.omit(unit);
            }
        }
        self.fits()
    }

    /// Level 2: protects the first user message and the units holding the most
    /// recent `protected_recent` share of conversation messages.
    fn omit_oldest(&mut self, protected_recent: f64) -> bool {
        let conversation: Vec<usize> = (0..self.messages.len()).filter(|&i| !is_system(&self.messages[i])).collect();
        // Float to int casts saturate, so an out-of-range share can't panic.
        let recent = ((conversation.len() as f64 * protected_recent).ceil() as usize).min(conversation.len());
        // Every message from this index on is recent (none when `recent` is 0).
        let recent_from = conversation.get(conversation.len() - recent).copied().unwrap_or(usize::MAX);
        // A unit's members can interleave with other units, so it is recent
        // when its last member is.
        let mut protected: Vec<bool> = self.units.iter().map(|unit| unit[unit.len() - 1] >= recent_from).collect();
        let first_prompt = (0..self.units.len()).find(|&u| is_user_prompt(self.first(u)));
        if let Some(first_prompt) = first_prompt {
            protected[first_prompt] = true;
        }
        if self.omit_oldest_until_fits(&protected) {
            return true;
        }
        // The recent share alone is over budget: keep as much of it as fits,
        // newest last, rather than falling back to the bare current turn.
        let last_prompt = (0..self.units.len()).rev().find(|&u| is_user_prompt(self.first(u)));
        let turn_start = last_prompt.unwrap_or(self.units.len().saturating_sub(1));
        let essential: Vec<bool> =
            (0..self.units.len()).map(|unit| Some(unit) == first_prompt || unit >= turn_start).collect();
        self.omit_oldest_until_fits(&essential)
    }

    /// Level 3: keeps the last user message and what follows it, starting
    /// over from the full (truncated) history since level 2 may have omitted
    /// parts of that turn. A turn too big on its own loses its oldest units
    /// but never the user message or the latest unit.
    fn keep_last_turn(&mut self) {
        self.keep.fill(true);
        self.kept_tokens = self.tokens.iter().sum();
        let prompt = (0..self.units.len()).rev().find(|&u| is_user_prompt(self.first(u)));
        let turn_start = prompt.unwrap_or(0);
        for unit in 0..turn_start {
            self.omit(unit);
        }
        let mut protected = vec![false; self.units.len()];
        if let Some(prompt) = prompt {
            protected[prompt] = true;
        }
        if let Some(last) = protected.last_mut() {
            *last = true;
        }
        self.omit_oldest_until_fits(&protected);
    }

    /// A view must not open with results whose call is not in it; only an
    /// orphan already in the history can be such a unit, since units are
    /// omitted whole.
    fn omit_leading_orphans(&mut self) {
        for unit in 0..self.units.len() {
            if !self.is_kept(unit) {
                continue;
            }
            if !is_tool_result(self.first(unit)) {
                break;
            }
            self.omit(unit);
        }
    }

    fn into_keep(self) -> Vec<bool> {
        self.keep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy { protected_tool_results: 5, truncate_chars: 250, protected_recent: 0.30, target_share: 1.0 }
    }

    fn assistant(text: &str) -> Message {
        Message::new(Role::Assistant, text)
    }

    fn calls(ids: &[&str]) -> Message {
        Message {
            tool_calls: Some(ids.iter().map(|id| ToolCall::new(*id, "read", json!({"path": id}))).collect()),
            ..assistant("")
        }
    }

    fn long(len: usize) -> String {
        "x".repeat(len)
    }

    /// Numbers the messages in `metadata` (which costs no tokens), so tests
    /// can tell which ones a view kept even when their content was truncated.
    fn numbered(messages: Vec<Message>) -> Vec<Message> {
        messages
            .into_iter()
            .enumerate()
            .map(|(i, message)| Message { metadata: Some(JsonMap::from_iter([("n".to_owned(), json!(i))])), ..message })
            .collect()
    }

    /// The history indices a view kept, in view order; the note has none.
    fn kept(view: &[Message]) -> Vec<usize> {
        view.iter()
            .filter_map(|m| m.metadata.as_ref().and_then(|meta| meta["n"].as_u64()))
            .map(|n| n as usize)
            .collect()
    }

    fn is_note(message: &Message) -> bool {
        message.role == Role::System && message.content.text().starts_with("[context compacted:")
    }

    /// A system message, the task, then `n` long assistant/user exchanges, numbered.
    fn exchanges(n: usize) -> Vec<Message> {
        let mut history = vec![Message::system("sys"), Message::user("the task")];
        for i in 0..n {
            history.push(assistant(&format!("answer {i} {}", long(400))));
            history.push(Message::user(format!("more {i} {}", long(400))));
        }
        numbered(history)
    }

    fn compact_ok(history: &[Message], budget: u64) -> Compacted {
        compact(history, budget, &policy()).expect("over budget, so compacted")
    }

    /// Every invariant a compacted view must keep, whatever the budget.
    fn assert_invariants(history: &[Message], compacted: &Compacted, budget: u64) {
        let view = &compacted.messages;
        let kept = kept(view);
        assert!(!view.is_empty(), "empty view at budget {budget}");
        assert!(kept.windows(2).all(|w| w[0] < w[1]), "order changed at budget {budget}: {kept:?}");
        let systems: Vec<usize> = (0..history.len()).filter(|&i| is_system(&history[i])).collect();
        let kept_systems: Vec<usize> = kept.iter().copied().filter(|&i| is_system(&history[i])).collect();
        assert_eq!(kept_systems, systems, "system messages lost at budget {budget}");
        for unit in units(history) {
            let in_view = unit.iter().filter(|i| kept.contains(i)).count();
            assert!(in_view == 0 || in_view == unit.len(), "unit {unit:?} split at budget {budget}");
        }
        let first = view.iter().find(|m| !is_system(m));
        assert!(!first.is_some_and(is_tool_result), "view opens with a tool result at budget {budget}");
        let notes = view.iter().filter(|m| is_note(m)).count();
        assert!(notes <= 1);
        if notes == 1 {
            let leading = view.iter().take_while(|m| is_system(m) && !is_note(m)).count();
            assert!(is_note(&view[leading]), "note not right after the leading system messages");
        }
        assert_eq!(compacted.stats.messages_removed, history.len() - kept.len());
        assert_eq!(compacted.stats.tokens_after, tokens::estimate_all(view));
        if compacted.stats.level < 3 {
            assert!(compacted.stats.tokens_after <= budget, "level {} over budget {budget}", compacted.stats.level);
        }
    }

    /// A conversation with every shape compaction must respect: leading and
    /// mid-history system messages, parallel calls, block-style calls with
    /// results in a user message, and long tool output.
    fn rich_history() -> Vec<Message> {
        let block_call = Message {
            content: MessageContent::Blocks(vec![
                ContentBlock::text("let me look"),
                ContentBlock::ToolCall {
                    extensions: Default::default(),
                    id: "b1".into(),
                    name: "read".into(),
                    input: json!({"path": "b1"}),
                    visibility: None,
                },
            ]),
            ..assistant("")
        };
        let block_result = Message {
            content: MessageContent::Blocks(vec![ContentBlock::ToolResult {
                extensions: Default::default(),
                tool_call_id: "b1".into(),
                output: json!({"lines": long(900)}),
                visibility: None,
            }]),
            ..Message::user("")
        };
        numbered(vec![
            Message::system("You are helpful."),
            Message::new(Role::Developer, "Be brief."),
            Message::user(format!("The task: {}", long(300))),
            calls(&["p1", "p2", "p3"]),
            Message::tool_result("p1", long(1200)),
            Message::tool_result("p2", long(800)),
            Message::tool_result("p3", long(1500)),
            assistant(&long(400)),
            Message::system("Remember the style guide."),
            Message::user(long(200)),
            block_call,
            block_result,
            calls(&["s1"]),
            Message::tool_result("s1", long(2000)),
            assistant(&long(300)),
            Message::user("and now?"),
            calls(&["t1", "t2"]),
            Message::tool_result("t1", long(600)),
            Message::tool_result("t2", long(700)),
            assistant("done"),
        ])
    }

    #[test]
    fn a_history_that_fits_is_returned_unchanged() {
        let history = rich_history();
        let total = tokens::estimate_all(&history);
        assert!(compact(&history, total, &policy()).is_none());
        assert!(compact(&[], 0, &policy()).is_none());
    }

    #[test]
    fn invariants_hold_at_every_budget() {
        let history = rich_history();
        let total = tokens::estimate_all(&history);
        let mut levels = [false; 4];
        for budget in 0..total {
            let compacted = compact_ok(&history, budget);
            assert_invariants(&history, &compacted, budget);
            if compacted.stats.level == 2 {
                assert!(kept(&compacted.messages).contains(&2), "first user message lost at budget {budget}");
            }
            levels[compacted.stats.level as usize] = true;
        }
        assert_eq!(levels, [false, true, true, true], "the sweep should reach every level");
    }

    #[test]
    fn the_stored_history_is_unchanged_by_a_compacted_view() {
        let history = rich_history();
        let before = history.clone();
        let compacted = compact_ok(&history, 50);
        assert_eq!(compacted.stats.level, 3);
        assert_ne!(compacted.messages, history);
        assert_eq!(history, before);
    }

    #[test]
    fn level_1_truncates_only_older_tool_results() {
        let mut history = vec![Message::system("sys"), Message::user("go")];
        for i in 0..7 {
            let id = format!("c{i}");
            history.push(calls(&[&id]));
            history.push(Message::tool_result(&id, long(2000)));
        }
        history.push(assistant("done"));
        let history = numbered(history);
        let budget = tokens::estimate_all(&history) - 500;
        let compacted = compact_ok(&history, budget);
        assert_invariants(&history, &compacted, budget);
        assert_eq!(compacted.stats.level, 1);
        assert_eq!((compacted.stats.messages_removed, compacted.stats.tool_results_truncated), (0, 2));
        let view = &compacted.messages;
        assert_eq!(view[1].content.text(), "[context compacted: 2 older tool results truncated]");
        let results: Vec<String> = view.iter().filter(|m| m.role == Role::Tool).map(|m| m.content.text()).collect();
        let truncated = format!("{}…[truncated 1750 chars]", long(250));
        assert_eq!(results[..2], [truncated.clone(), truncated]);
        assert!(results[2..].iter().all(|text| *text == long(2000)));
    }

    #[test]
    fn level_1_truncates_tool_result_blocks_and_structured_output() {
        let answers = Message {
            content: MessageContent::Blocks(vec![
                ContentBlock::text(long(1000)),
                ContentBlock::ToolResult {
                    extensions: Default::default(),
                    tool_call_id: "a".into(),
                    output: json!({"data": long(1000)}),
                    visibility: None,
                },
            ]),
            ..Message::user("")
        };
        let history = vec![Message::user("go"), calls(&["a"]), answers, assistant("ok")];
        let strict = Policy { protected_tool_results: 0, ..policy() };
        let compacted = compact(&history, 400, &strict).unwrap();
        assert_eq!(compacted.stats.level, 1);
        let MessageContent::Blocks(blocks) = &compacted.messages[3].content else { panic!("blocks expected") };
        // The user's own text beside the results is not tool output.
        assert_eq!(blocks[0], ContentBlock::text(long(1000)));
        let ContentBlock::ToolResult { output, .. } = &blocks[1] else { panic!("a tool result expected") };
        let output = output.as_str().unwrap();
        assert!(output.starts_with("{\"data\":\"xxx") && output.ends_with("…[truncated 761 chars]"));
    }

    #[test]
    fn truncation_never_lengthens_and_respects_characters() {
        assert_eq!(truncated(&long(250), 250), None);
        // Cutting 10 characters would add a longer marker.
        assert_eq!(truncated(&long(260), 250), None);
        let text = "é".repeat(300);
        assert_eq!(truncated(&text, 5), Some("ééééé…[truncated 295 chars]".to_owned()));
        assert_eq!(truncated(&long(100), 0), Some("…[truncated 100 chars]".to_owned()));
    }

    #[test]
    fn level_2_omits_the_oldest_but_keeps_the_first_user_message_and_recent_ones() {
        let history = exchanges(10);
        let budget = tokens::estimate_all(&history) / 2;
        let compacted = compact_ok(&history, budget);
        assert_invariants(&history, &compacted, budget);
        assert_eq!(compacted.stats.level, 2);
        let kept = kept(&compacted.messages);
        assert_eq!(kept[..2], [0, 1], "system and first user message kept");
        // Oldest first: what is kept after the task is one contiguous tail.
        let tail = &kept[2..];
        assert_eq!(tail, (tail[0]..history.len()).collect::<Vec<_>>());
        assert!(tail.len() >= 7, "at least 30% of the 21 conversation messages");
        let omitted = compacted.stats.messages_removed;
        assert_eq!(
            compacted.messages[1].content.text(),
            format!("[context compacted: {omitted} earlier messages omitted]")
        );
    }

    #[test]
    fn a_target_share_compacts_below_the_budget_and_only_past_it() {
        let history = exchanges(20);
        let total = tokens::estimate_all(&history);
        let half = Policy { target_share: 0.5, ..policy() };
        assert!(compact(&history, total, &half).is_none(), "a history within its budget is left alone");
        let budget = total * 9 / 10;
        let to_budget = compact_ok(&history, budget);
        let to_target = compact(&history, budget, &half).unwrap();
        assert!(to_budget.stats.tokens_after > budget / 2, "{:?}", to_budget.stats);
        assert!(to_target.stats.tokens_after <= budget / 2, "{:?}", to_target.stats);
        assert_invariants(&history, &to_target, budget);
    }

    #[test]
    fn level_2_fills_the_budget_when_the_recent_share_alone_is_too_big() {
        let mut history = vec![Message::system("sys"), Message::user("the task")];
        for i in 0..100 {
            history.push(assistant(&format!("answer {i} {}", long(400))));
            history.push(Message::user(format!("more {i} {}", long(400))));
        }
        let history = numbered(history);
        // A tenth of the history: less than the protected 30%, far more than the last turn.
        let budget = tokens::estimate_all(&history) / 10;
        let compacted = compact_ok(&history, budget);
        assert_invariants(&history, &compacted, budget);
        assert_eq!(compacted.stats.level, 2);
        let kept = kept(&compacted.messages);
        assert_eq!(kept[..2], [0, 1], "system and first user message kept");
        let tail = &kept[2..];
        assert_eq!(tail, (tail[0]..history.len()).collect::<Vec<_>>(), "one contiguous, most recent tail");
        assert!(tail.len() >= 15, "the view uses the budget: kept {} recent messages", tail.len());
        assert!(compacted.stats.tokens_after * 10 >= budget * 8, "at least 80% of the budget is used");
    }

    #[test]
    fn level_2_omits_a_parallel_tool_exchange_whole() {
        let history = numbered(vec![
            Message::system("sys"),
            Message::user("go"),
            calls(&["a", "b", "c"]),
            Message::tool_result("a", long(200)),
            Message::tool_result("b", long(200)),
            Message::tool_result("c", long(200)),
            assistant(&long(400)),
            Message::user(long(400)),
            assistant(&long(400)),
        ]);
        let budget = tokens::estimate_all(&history) - 100;
        let compacted = compact_ok(&history, budget);
        assert_invariants(&history, &compacted, budget);
        assert_eq!(compacted.stats.level, 2);
        // The first unit that goes is the whole exchange, not just the call.
        assert_eq!(kept(&compacted.messages), [0, 1, 6, 7, 8]);
        assert_eq!(compacted.stats.messages_removed, 4);
    }

    #[test]
    fn level_3_keeps_system_messages_and_the_last_turn() {
        let history = numbered(vec![
            Message::system("sys"),
            Message::user(long(8000)),
            assistant(&long(400)),
            Message::system("mid"),
            Message::user("and now?"),
            calls(&["a"]),
            Message::tool_result("a", "42"),
            assistant("it is 42"),
        ]);
        let compacted = compact_ok(&history, 200);
        assert_invariants(&history, &compacted, 200);
        assert_eq!(compacted.stats.level, 3);
        assert_eq!(kept(&compacted.messages), [0, 3, 4, 5, 6, 7]);
        // With the first turn gone, "mid" joins the leading system messages.
        assert!(is_note(&compacted.messages[2]));
    }

    #[test]
    fn level_3_trims_a_turn_too_big_for_the_budget() {
        let mut history = vec![Message::system("sys"), Message::user("go")];
        for i in 0..10 {
            let id = format!("c{i}");
            history.push(calls(&[&id]));
            history.push(Message::tool_result(&id, long(4000)));
        }
        history.push(assistant("done"));
        let history = numbered(history);
        let budget = 3000;
        let compacted = compact_ok(&history, budget);
        assert_invariants(&history, &compacted, budget);
        assert_eq!(compacted.stats.level, 3);
        assert!(compacted.stats.tokens_after <= budget);
        let kept = kept(&compacted.messages);
        assert_eq!(kept[..2], [0, 1], "the user message survives");
        assert_eq!(kept.last(), Some(&(history.len() - 1)));
    }

    #[test]
    fn a_leading_orphan_result_is_omitted() {
        let history = numbered(vec![
            Message::system("sys"),
            Message::tool_result("from-before", long(40)),
            Message::user("go"),
            assistant(&long(2000)),
            Message::user("again"),
            assistant("ok"),
        ]);
        let compacted = compact_ok(&history, 200);
        assert_invariants(&history, &compacted, 200);
        assert!(!kept(&compacted.messages).contains(&1));
    }

    #[test]
    fn a_huge_single_message_still_yields_a_view() {
        let huge = long(1_000_000);
        for history in [
            vec![Message::user(huge.clone())],
            vec![Message::system("sys"), Message::user(huge.clone())],
            vec![assistant(&huge)],
            vec![Message::system(huge.clone())],
        ] {
            let compacted = compact_ok(&history, 10);
            assert_eq!(compacted.stats.level, 3);
            assert_eq!(compacted.messages, history, "nothing to omit, so nothing said");
        }
        let history = vec![Message::system("sys"), Message::user("go"), assistant(&huge)];
        let compacted = compact_ok(&history, 0);
        assert_eq!(compacted.messages.last(), history.last(), "the latest message is kept");
    }

    #[test]
    fn an_orphan_alone_leaves_the_note() {
        let history = vec![Message::tool_result("gone", long(10_000))];
        let view = compact_ok(&history, 10).messages;
        assert_eq!(view.len(), 1);
        assert!(is_note(&view[0]));
    }
}
