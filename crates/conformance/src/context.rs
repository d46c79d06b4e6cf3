//! A context's checks (`context_round_trip`, `context_clear`,
//! `context_set_messages`, `context_compaction` and, with `--behavioral`,
//! `context_many_messages`) and the conversations they store.

use std::collections::HashSet;
use std::sync::Arc;

use amplifier_kernel::models::{Message, Role, ToolCall};
use amplifier_kernel::traits::{ContextManager, RequestView};
use amplifier_kernel::ModuleError;
use serde_json::{json, Value};

use crate::{preview, timed, Checks, Severity, Validation, CHECK_TIMEOUT};

impl Validation<'_> {
    pub(crate) async fn check_context(&self, checks: &mut Checks, context: Arc<dyn ContextManager>) {
        let conversation = sample_conversation();
        let outcome = async {
            for message in &conversation {
                context.add_message(message.clone()).await.map_err(|e| format!("add_message: {}", e.message))?;
            }
            let stored = context.get_messages().await.map_err(|e| format!("get_messages: {}", e.message))?;
            same_messages(&conversation, &stored)?;
            Ok(format!("{} messages added and read back in order", conversation.len()))
        };
        checks.record("context_round_trip", Severity::Error, timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r));

        let outcome = async {
            context.clear().await.map_err(|e| format!("clear: {}", e.message))?;
            let left = context.get_messages().await.map_err(|e| format!("get_messages: {}", e.message))?;
            match left.len() {
                0 => Ok("the history is empty after clear".to_owned()),
                n => Err(format!("{n} message(s) left after clear")),
            }
        };
        checks.record("context_clear", Severity::Error, timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r));

        let replacement = vec![
            Message::system("You are being validated."),
            Message::user("validate: replaced history"),
            Message::new(Role::Assistant, "Understood."),
        ];
        let outcome = async {
            context.add_message(Message::user("validate: to be replaced")).await.map_err(|e| e.message)?;
            context.set_messages(replacement.clone()).await.map_err(|e| format!("set_messages: {}", e.message))?;
            let stored = context.get_messages().await.map_err(|e| format!("get_messages: {}", e.message))?;
            same_messages(&replacement, &stored)?;
            context.clear().await.map_err(|e| format!("clear: {}", e.message))?;
            Ok(format!("the history was replaced by {} messages", replacement.len()))
        };
        checks.record("context_set_messages", Severity::Error, timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r));

        let history = long_history(40);
        const BUDGET: u64 = 2_000;
        let failed = |what: &str, err: ModuleError| (Severity::Error, format!("{what}: {}", err.message));
        let outcome = async {
            context.set_messages(history.clone()).await.map_err(|e| failed("set_messages", e))?;
            let view = context
                .get_messages_for_request(RequestView { token_budget: Some(BUDGET), provider: None })
                .await
                .map_err(|e| failed("get_messages_for_request", e))?;
            let after = context.get_messages().await.map_err(|e| failed("get_messages", e))?;
            context.clear().await.map_err(|e| failed("clear", e))?;
            same_messages(&history, &after)
                .map_err(|err| (Severity::Error, format!("the request view changed the history: {err}")))?;
            if let Some(split) = split_tool_pair(&view) {
                return Err((Severity::Error, format!("the view for a {BUDGET}-token budget {split}")));
            }
            if view.is_empty() {
                return Err((Severity::Error, format!("the view for a {BUDGET}-token budget is empty")));
            }
            if view.len() >= history.len() {
                return Err((
                    Severity::Warning,
                    format!(
                        "the view for a {BUDGET}-token budget has all {} messages (~{} tokens): a long conversation \
                         will overflow the model's context window",
                        history.len(),
                        estimated_tokens(&history)
                    ),
                ));
            }
            Ok(format!(
                "a view for {BUDGET} tokens kept {} of {} messages, no tool call split from its result; the history is unchanged",
                view.len(),
                history.len()
            ))
        };
        let outcome = match timed(CHECK_TIMEOUT, outcome).await {
            Err(message) => Err((Severity::Error, message)),
            Ok(result) => result,
        };
        match outcome {
            Ok(message) => checks.pass("context_compaction", message),
            Err((severity, message)) => checks.fail("context_compaction", severity, message),
        }

        if self.options.behavioral {
            let outcome = async {
                let started = std::time::Instant::now();
                for i in 0..1_000 {
                    context.add_message(Message::user(format!("message {i}"))).await.map_err(|e| e.message)?;
                }
                let stored = context.get_messages().await.map_err(|e| e.message)?;
                context.get_messages_for_request(RequestView::default()).await.map_err(|e| e.message)?;
                context.clear().await.map_err(|e| e.message)?;
                if stored.len() != 1_000 {
                    return Err(format!("1,000 messages added, {} read back", stored.len()));
                }
                if let Some(i) = (0..1_000).find(|i| stored[*i].content.text() != format!("message {i}")) {
                    return Err(format!("message {i} came back out of order"));
                }
                Ok(format!("1,000 messages added and read back in order in {} ms", started.elapsed().as_millis()))
            };
            checks.record(
                "context_many_messages",
                Severity::Error,
                timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r),
            );
        }
    }
}

fn tool_call(id: &str, name: &str, arguments: Value) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

fn sample_conversation() -> Vec<Message> {
    vec![
        Message::user("validate: what is 2 + 2?"),
        Message {
            tool_calls: Some(vec![tool_call("call_validate_1", "calculator", json!({"expression": "2 + 2"}))]),
            ..Message::new(Role::Assistant, "Let me calculate.")
        },
        Message { name: Some("calculator".into()), ..Message::tool_result("call_validate_1", "4") },
        Message::new(Role::Assistant, "2 + 2 = 4."),
    ]
}

/// A system message, then `rounds` of question, tool call, long tool result, answer.
fn long_history(rounds: usize) -> Vec<Message> {
    let mut history = vec![Message::system("You are being validated.")];
    for i in 1..=rounds {
        let id = format!("call_validate_{i}");
        history.push(Message::user(format!("question {i}: {}", "words ".repeat(50))));
        history.push(Message {
            tool_calls: Some(vec![tool_call(&id, "search", json!({"query": format!("question {i}")}))]),
            ..Message::new(Role::Assistant, format!("Searching for {i}."))
        });
        history.push(Message { name: Some("search".into()), ..Message::tool_result(&id, "result ".repeat(170)) });
        history.push(Message::new(Role::Assistant, format!("answer {i}: {}", "text ".repeat(60))));
    }
    history
}

fn estimated_tokens(messages: &[Message]) -> usize {
    messages.iter().map(|m| m.content.text().len()).sum::<usize>() / 4
}

/// The same messages in the same order, as far as the contract goes: role,
/// text, tool call ids and the id a tool result answers.
fn same_messages(expected: &[Message], got: &[Message]) -> Result<(), String> {
    if expected.len() != got.len() {
        return Err(format!("{} message(s) stored, {} read back", expected.len(), got.len()));
    }
    for (i, (a, b)) in expected.iter().zip(got).enumerate() {
        let same = a.role == b.role
            && a.content.text() == b.content.text()
            && a.tool_call_id == b.tool_call_id
            && a.requested_tool_call_ids() == b.requested_tool_call_ids();
        if !same {
            return Err(format!("message {i} came back different: {} instead of {}", preview(b), preview(a)));
        }
    }
    Ok(())
}

/// Describes the first tool call separated from its result in `view`.
fn split_tool_pair(view: &[Message]) -> Option<String> {
    let mut requested: HashSet<&str> = HashSet::new();
    let answered: HashSet<&str> = view.iter().filter_map(|m| m.tool_call_id.as_deref()).collect();
    for message in view {
        if message.role == Role::Tool {
            let id = message.tool_call_id.as_deref().unwrap_or_default();
            if !requested.contains(id) {
                return Some(format!("keeps the result of tool call '{id}' but not the call"));
            }
        }
        requested.extend(message.requested_tool_call_ids());
    }
    requested.iter().find(|id| !answered.contains(*id)).map(|id| format!("keeps tool call '{id}' but not its result"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_tool_pairs_are_found() {
        let conversation = sample_conversation();
        assert_eq!(split_tool_pair(&conversation), None);
        assert!(split_tool_pair(&conversation[2..]).unwrap().contains("not the call"));
        assert!(split_tool_pair(&conversation[..2]).unwrap().contains("not its result"));
    }
}
