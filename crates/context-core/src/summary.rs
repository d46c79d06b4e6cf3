//! Compaction by summary: older messages summarized by a model, the summary
//! kept in the history as a marked message that later request views start
//! from.
//!
//! Nothing is lost: the history keeps every message, and a summary is
//! inserted right after the messages it covers. A view holds the system
//! messages before the last summary, the summary, and everything after it
//! (then compacted as any view, when even that is over budget).
//!
//! The pure half lives here, for both callers: the context modules (which
//! summarize when a view would drop messages, through their [`Host`]) and
//! the REPL's `/compact` (through the session's coordinator).

use amplifier_sdk::prelude::*;

use crate::units::{is_system, is_user_prompt, units};

/// The metadata key that marks a summary: `{"messages": N}`, how many
/// messages (since the summary before it) it stands for.
pub const MARKER: &str = "compaction_summary";

/// How a summary message opens, so a model (and a reader of the
/// transcript) knows what it is.
pub const HEADING: &str = "[Summary of the earlier conversation]";

/// The summarizer's instructions.
const INSTRUCTIONS: &str = "You summarize a conversation between a user and an AI assistant that uses \
tools, so the assistant can continue the work without the original messages. Write a concise summary \
that keeps: the user's requests and constraints, in their words where they matter; decisions made and \
why; facts learned from tools (file paths, names, values, errors); what was done and what remains. Leave \
out pleasantries and repetition. Answer with the summary only.";

/// The longest stretch of one message's text a summarizer reads.
const MESSAGE_CHARS: usize = 4_000;

/// The longest stretch of one tool result's text a summarizer reads.
const RESULT_CHARS: usize = 1_000;

pub fn is_summary(message: &Message) -> bool {
    message.metadata.as_ref().is_some_and(|metadata| metadata.contains_key(MARKER))
}

/// The index of the last summary, where request views start.
pub fn last_summary(messages: &[Message]) -> Option<usize> {
    messages.iter().rposition(is_summary)
}

/// The system messages before the last summary (views keep them), and the
/// summary's index; `None` without a summary.
pub fn view_start(messages: &[Message]) -> Option<(Vec<Message>, usize)> {
    let at = last_summary(messages)?;
    Some((messages[..at].iter().filter(|m| is_system(m)).cloned().collect(), at))
}

/// What a request view starts from: `messages`, or with a summary in them,
/// the system messages before the last summary, then the summary and all
/// that follows.
pub fn from_last_summary(messages: &[Message]) -> Vec<Message> {
    match view_start(messages) {
        None => messages.to_vec(),
        Some((system, at)) => system.into_iter().chain(messages[at..].iter().cloned()).collect(),
    }
}

/// What a summary keeps out of itself.
#[derive(Debug, Clone, Copy)]
pub enum Keep {
    /// The most recent share of the conversation messages since the last
    /// summary (automatic compaction: `protected_recent`).
    Recent(f64),
    /// The current turn: the last user prompt and what follows it (`/compact`).
    LastTurn,
}

/// Where a new summary goes: the index of the first message it leaves out,
/// chosen so that no tool call is parted from its results and something
/// since the last summary is left to summarize. `None` when there is
/// nothing to summarize.
pub fn cut(messages: &[Message], keep: Keep) -> Option<usize> {
    let start = last_summary(messages).map_or(0, |at| at + 1);
    let conversation: Vec<usize> = (start..messages.len()).filter(|&i| !is_system(&messages[i])).collect();
    let wanted = match keep {
        Keep::Recent(share) => {
            let recent = ((conversation.len() as f64 * share).ceil() as usize).clamp(1, conversation.len().max(1));
            *conversation.get(conversation.len().checked_sub(recent)?)?
        }
        Keep::LastTurn => {
            let prompt = conversation.iter().rev().find(|&&i| is_user_prompt(&messages[i]));
            *prompt.or(conversation.last())?
        }
    };
    // A cut may not fall inside a unit (a call and its results).
    let spans: Vec<(usize, usize)> = units(messages).iter().map(|unit| (unit[0], unit[unit.len() - 1])).collect();
    let whole = |cut: usize| spans.iter().all(|&(first, last)| cut <= first || cut > last);
    let summarizable = |cut: usize| conversation.iter().any(|&i| i < cut);
    let at_or_before = (start..=wanted).rev().find(|&cut| whole(cut) && summarizable(cut));
    // Only a share may give way: the current turn is never summarized.
    let after = || match keep {
        Keep::Recent(_) => (wanted + 1..messages.len()).find(|&cut| whole(cut) && summarizable(cut)),
        Keep::LastTurn => None,
    };
    at_or_before.or_else(after)
}

/// The conversation a summary at `cut` stands for: the last summary (what
/// came before it), then the messages since, without system messages.
pub fn covered(messages: &[Message], cut: usize) -> Vec<Message> {
    let start = last_summary(messages).unwrap_or(0);
    messages[start..cut].iter().filter(|m| !is_system(m)).cloned().collect()
}

/// The request that asks a model for the summary of `covered`, at most
/// `max_tokens` long, with the user's `focus` (`/compact`'s argument), if any.
pub fn request(covered: &[Message], focus: Option<&str>, max_tokens: u64) -> ChatRequest {
    let mut ask = format!("Summarize this conversation:\n\n{}", transcript(covered));
    if let Some(focus) = focus.filter(|f| !f.trim().is_empty()) {
        ask.push_str(&format!("\n\nFocus the summary on: {focus}"));
    }
    ChatRequest {
        messages: vec![Message::system(INSTRUCTIONS), Message::user(ask)].into(),
        max_output_tokens: Some(max_tokens),
        // Not an answer: no deltas for a front end to show.
        stream: Some(false),
        ..ChatRequest::default()
    }
}

/// The summary as the message that goes into the history, standing for
/// `covered` messages.
pub fn message(summary: &str, covered: usize) -> Message {
    // A user message: every provider and chat template takes one anywhere,
    // which is not so for system messages after the first.
    let mut metadata = JsonMap::new();
    metadata.insert(MARKER.into(), json!({"messages": covered}));
    Message { metadata: Some(metadata), ..Message::user(format!("{HEADING}\n{}", summary.trim())) }
}

/// `messages` as plain text: who said what, which tools were called with
/// what, and what they answered (long texts cut).
fn transcript(messages: &[Message]) -> String {
    let mut out = String::new();
    for message in messages {
        if is_summary(message) {
            out.push_str(&format!("(summary of what came before)\n{}\n\n", message.content.text()));
            continue;
        }
        let text = message.content.text();
        let (label, limit) = match message.role {
            Role::User if is_user_prompt(message) => ("User", MESSAGE_CHARS),
            Role::Assistant => ("Assistant", MESSAGE_CHARS),
            _ => ("Tool result", RESULT_CHARS),
        };
        if !text.trim().is_empty() {
            out.push_str(&format!("{label}: {}\n", clip(&text, limit)));
        }
        if let MessageContent::Blocks(blocks) = &message.content {
            for block in blocks {
                match block {
                    ContentBlock::ToolResult { output, .. } => {
                        let output = output.as_str().map_or_else(|| output.to_string(), str::to_owned);
                        out.push_str(&format!("Tool result: {}\n", clip(&output, RESULT_CHARS)));
                    }
                    ContentBlock::ToolCall { name, input, .. } => {
                        out.push_str(&format!(
                            "Assistant called {name} with {}\n",
                            clip(&input.to_string(), RESULT_CHARS)
                        ));
                    }
                    ContentBlock::Image { .. } => out.push_str(&format!("{label}: [an image]\n")),
                    _ => {}
                }
            }
        }
        for call in message.tool_calls.iter().flatten() {
            out.push_str(&format!(
                "Assistant called {} with {}\n",
                call.name,
                clip(&call.arguments.to_string(), RESULT_CHARS)
            ));
        }
        out.push('\n');
    }
    out
}

fn clip(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((end, _)) => format!("{}…[{} more characters]", &text[..end], text[end..].chars().count()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(id: &str) -> Message {
        Message {
            tool_calls: Some(vec![ToolCall::new(id, "read", json!({"path": id}))]),
            ..Message::new(Role::Assistant, "")
        }
    }

    /// sys, task, answer, prompt, call a, result a, answer, prompt, answer
    fn history() -> Vec<Message> {
        vec![
            Message::system("sys"),
            Message::user("the task"),
            Message::new(Role::Assistant, "first answer"),
            Message::user("read a"),
            calls("a"),
            Message::tool_result("a", "contents of a"),
            Message::new(Role::Assistant, "a says hello"),
            Message::user("thanks"),
            Message::new(Role::Assistant, "welcome"),
        ]
    }

    #[test]
    fn a_cut_keeps_tool_calls_with_their_results() {
        let history = history();
        assert_eq!(cut(&history, Keep::LastTurn), Some(7), "the turn from the last prompt");
        // The recent share would start inside the call's unit: the cut moves before it.
        assert_eq!(cut(&history, Keep::Recent(0.5)), Some(4));
        assert_eq!(cut(&history, Keep::Recent(0.3)), Some(6));
        // Nothing to summarize in a lone turn.
        assert_eq!(cut(&history[..3], Keep::LastTurn), None);
        assert_eq!(cut(&[], Keep::Recent(0.3)), None);
    }

    #[test]
    fn a_summary_covers_what_came_since_the_last_one_and_views_start_there() {
        let mut history = history();
        let at = cut(&history, Keep::LastTurn).unwrap();
        let covered_messages = covered(&history, at);
        assert_eq!(covered_messages.len(), 6, "all but the system message");
        history.insert(at, message("The user asked for a, which says hello.", covered_messages.len()));
        assert!(is_summary(&history[7]) && history[7].content.text().starts_with(HEADING));
        let (system, start) = view_start(&history).unwrap();
        assert_eq!((system.len(), start), (1, 7));
        // The next summary rolls the last one in.
        history.push(Message::user("one more"));
        history.push(Message::new(Role::Assistant, "sure"));
        let next = cut(&history, Keep::LastTurn).unwrap();
        assert_eq!(next, 10);
        let rolled = covered(&history, next);
        assert!(is_summary(&rolled[0]), "{rolled:?}");
        assert_eq!(rolled.len(), 3);
    }

    #[test]
    fn the_request_holds_a_readable_transcript() {
        let request = request(&history()[1..], Some("the file a"), 500);
        assert_eq!((request.max_output_tokens, request.stream), (Some(500), Some(false)));
        let ask = request.messages[1].content.text();
        for line in [
            "User: the task",
            "Assistant called read with {\"path\":\"a\"}",
            "Tool result: contents of a",
            "Focus the summary on: the file a",
        ] {
            assert!(ask.contains(line), "{line}: {ask}");
        }
        let long = Message::tool_result("b", "y".repeat(5_000));
        let ask = super::request(&[long], None, 500).messages[1].content.text();
        assert!(ask.contains("…[4000 more characters]"), "{ask}");
    }
}
