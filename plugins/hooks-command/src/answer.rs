//! What a command's exit code and output mean, and how the answers of the
//! commands that ran on one event combine into one `HookResult`.
//!
//! Exit 0 with nothing on stdout continues. Stdout may answer in either of
//! two shapes:
//! - amplifier's `HookResult` (an object with `action`); a `modify`'s
//!   `data` is merged over the event's data, so a command returns only what
//!   it changes;
//! - Claude Code's and codex's: `continue: false` with `stopReason`,
//!   `decision: "block"` with `reason`, `systemMessage`, `suppressOutput`,
//!   and `hookSpecificOutput` with `permissionDecision` (`allow`, `deny`,
//!   `ask`), `permissionDecisionReason`, `updatedInput` and
//!   `additionalContext`.
//!
//! Plain text on stdout is context for the model on `prompt:submit` and the
//! session-start events (as Claude does), and is ignored elsewhere. Exit 2
//! denies with stderr as the reason; after a tool ran (`tool:post`), where
//! nothing can be denied any more, the reason is appended to the tool's
//! result instead, so the model hears it.

use amplifier_sandbox::process::{Ending, Finished};
use amplifier_sdk::events;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

/// How running a command went.
pub enum Ran {
    Finished(Finished),
    NotStarted(std::io::Error),
}

/// One command's answer.
#[derive(Debug, Default)]
pub struct Answer {
    deny: Option<String>,
    ask: Option<String>,
    /// Keys to set in the event's data.
    modify: Option<JsonMap>,
    context: Option<String>,
    /// Appended to the tool's result (`tool:post`).
    feedback: Option<String>,
    /// For the user: a command's `systemMessage`.
    message: Option<(String, MessageLevel)>,
    suppress_output: bool,
}

/// Claude Code's and codex's answer on stdout.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClaudeAnswer {
    #[serde(rename = "continue")]
    keep_going: Option<bool>,
    stop_reason: Option<String>,
    decision: Option<String>,
    reason: Option<String>,
    system_message: Option<String>,
    #[serde(default)]
    suppress_output: bool,
    #[serde(default)]
    additional_context: Option<String>,
    #[serde(default)]
    hook_specific_output: Option<SpecificOutput>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SpecificOutput {
    permission_decision: Option<String>,
    permission_decision_reason: Option<String>,
    updated_input: Option<Value>,
    additional_context: Option<String>,
}

/// Why a command's answer counts for nothing: the caller logs it, and the
/// run goes on as if the command had not been there.
fn failed(command: &str, why: String) -> Result<Answer, String> {
    Err(format!("hook command `{command}` {why}"))
}

/// The first line of `text`, cut, for a message about a failure.
fn first_line(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or_default();
    match line.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

/// What `ran` says, for `event`; an error says how the command failed.
pub fn read(ran: Ran, event: &str, command: &str, timeout: std::time::Duration) -> Result<Answer, String> {
    let finished = match ran {
        Ran::NotStarted(err) => return failed(command, format!("did not start: {err}")),
        Ran::Finished(finished) => finished,
    };
    match finished.ending {
        Ending::TimedOut => {
            failed(command, format!("timed out after {} s; its process group was killed", timeout.as_secs_f64()))
        }
        Ending::Exited(0) => stdout_answer(&finished.stdout, event, command),
        Ending::Exited(2) => {
            let reason = match finished.stderr.trim() {
                "" => format!("hook command `{command}` exited with 2 and gave no reason on stderr"),
                reason => reason.to_owned(),
            };
            Ok(if event == events::TOOL_POST {
                Answer { feedback: Some(reason), ..Answer::default() }
            } else {
                Answer { deny: Some(reason), ..Answer::default() }
            })
        }
        Ending::Exited(code) => {
            let stderr = first_line(&finished.stderr);
            let said = if stderr.is_empty() { String::new() } else { format!(": {stderr}") };
            failed(command, format!("exited with {code}{said}"))
        }
    }
}

fn stdout_answer(stdout: &str, event: &str, command: &str) -> Result<Answer, String> {
    let text = stdout.trim();
    if text.is_empty() {
        return Ok(Answer::default());
    }
    if !text.starts_with('{') {
        let context_events = [events::PROMPT_SUBMIT, events::SESSION_START, events::SESSION_RESUME];
        return Ok(match context_events.contains(&event) {
            true => Answer { context: Some(text.to_owned()), ..Answer::default() },
            false => {
                tracing::debug!(command, "a hook command's plain output is ignored on {event}");
                Answer::default()
            }
        });
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => return failed(command, format!("printed JSON that does not parse: {err}")),
    };
    if value.get("action").is_some() {
        return match serde_json::from_value::<HookResult>(value) {
            Ok(result) => Ok(native(result)),
            Err(err) => failed(command, format!("printed a HookResult that does not fit: {err}")),
        };
    }
    match serde_json::from_value::<ClaudeAnswer>(value) {
        Ok(answer) => Ok(claude(answer, event)),
        Err(err) => failed(command, format!("printed an answer that does not fit Claude Code's shape: {err}")),
    }
}

fn native(result: HookResult) -> Answer {
    let message = result.user_message.clone().map(|message| (message, result.user_message_level));
    let mut answer = Answer { message, suppress_output: result.suppress_output, ..Answer::default() };
    match result.action {
        HookAction::Continue => {}
        HookAction::Deny => answer.deny = Some(result.reason.unwrap_or_else(|| "denied by a hook command".into())),
        HookAction::AskUser => {
            answer.ask = Some(result.approval_prompt.or(result.reason).unwrap_or_else(|| "Allow this?".into()))
        }
        HookAction::Modify => answer.modify = result.data,
        HookAction::InjectContext => answer.context = result.context_injection,
    }
    answer
}

fn claude(answer: ClaudeAnswer, event: &str) -> Answer {
    let specific = answer.hook_specific_output.unwrap_or_default();
    let mut out = Answer {
        message: answer.system_message.map(|message| (message, MessageLevel::Warning)),
        suppress_output: answer.suppress_output,
        context: specific.additional_context.or(answer.additional_context),
        ..Answer::default()
    };
    if answer.keep_going == Some(false) {
        out.deny = Some(answer.stop_reason.unwrap_or_else(|| "stopped by a hook command".into()));
        return out;
    }
    let reason = specific.permission_decision_reason.or(answer.reason);
    let block = answer.decision.as_deref() == Some("block");
    match specific.permission_decision.as_deref() {
        Some("deny") => out.deny = Some(reason.unwrap_or_else(|| "denied by a hook command".into())),
        Some("ask") => out.ask = Some(reason.unwrap_or_default()),
        _ if block => {
            let reason = reason.unwrap_or_else(|| "blocked by a hook command".into());
            match event == events::TOOL_POST {
                true => out.feedback = Some(reason),
                false => out.deny = Some(reason),
            }
        }
        _ => {}
    }
    if let Some(input) = specific.updated_input {
        out.modify = Some(JsonMap::from_iter([("tool_input".to_owned(), input)]));
    }
    out
}

/// The answers of the commands that ran on `event`, in the order they were
/// declared, as one result: the first denial wins, then the first question,
/// then the rewrites (later ones over earlier ones), then added context.
pub fn combine(answers: Vec<Answer>, event: &str, mut data: JsonMap) -> HookResult {
    let messages: Vec<&(String, MessageLevel)> = answers.iter().filter_map(|a| a.message.as_ref()).collect();
    let level = messages.iter().map(|(_, level)| *level).max();
    let user_message = (!messages.is_empty())
        .then(|| messages.iter().map(|(message, _)| message.as_str()).collect::<Vec<_>>().join("\n"));
    let finish = |mut result: HookResult| {
        result.user_message = user_message.clone();
        result.user_message_level = level.unwrap_or_default();
        result.user_message_source = Some("hooks-command".to_owned());
        result.suppress_output = answers.iter().any(|a| a.suppress_output);
        result
    };
    if let Some(reason) = answers.iter().find_map(|a| a.deny.clone()) {
        return finish(HookResult::deny(reason));
    }
    if let Some(question) = answers.iter().find_map(|a| a.ask.clone()) {
        return finish(ask(question, &data));
    }
    let mut modified = false;
    for changes in answers.iter().filter_map(|a| a.modify.as_ref()) {
        data.extend(changes.clone());
        modified = true;
    }
    let context: Vec<&str> = answers.iter().filter_map(|a| a.context.as_deref()).collect();
    let feedback: Vec<&str> = answers.iter().filter_map(|a| a.feedback.as_deref()).collect();
    if modified {
        if !context.is_empty() || !feedback.is_empty() {
            // One result carries one action, and a rewrite is the one that must not be lost.
            tracing::warn!("{event}: a hook command's added context is dropped because another rewrote the event");
        }
        return finish(HookResult { action: HookAction::Modify, data: Some(data), ..HookResult::default() });
    }
    if !feedback.is_empty() {
        let mut result = inject(feedback.join("\n\n"));
        result.append_to_last_tool_result = true;
        return finish(result);
    }
    if !context.is_empty() {
        return finish(inject(context.join("\n\n")));
    }
    finish(HookResult::continue_())
}

fn inject(text: String) -> HookResult {
    HookResult { action: HookAction::InjectContext, context_injection: Some(text), ..HookResult::default() }
}

/// A question in the shape hooks-approval asks it: the first line names the
/// tool only, so a front end can remember "Allow always" per tool.
fn ask(question: String, data: &JsonMap) -> HookResult {
    let prompt = match data.get("tool_name").and_then(Value::as_str) {
        Some(tool) if question.is_empty() => format!("Allow the tool `{tool}`?"),
        Some(tool) => format!("Allow the tool `{tool}`?\n{question}"),
        None => question,
    };
    HookResult {
        action: HookAction::AskUser,
        reason: Some(format!("hooks-command: {}", prompt.lines().next().unwrap_or_default())),
        approval_prompt: Some(prompt),
        approval_options: Some(["Allow once", "Allow always", "Deny"].map(str::to_owned).to_vec()),
        ..HookResult::default()
    }
}
