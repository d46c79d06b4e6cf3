//! Export formats: upstream's session directory files (`transcript.jsonl`,
//! `events.jsonl`, `metadata.json`) and a readable Markdown transcript.

use std::fmt::Write as _;

use amplifier_protocol::models::{ContentBlock, Message, MessageContent, Role};
use serde_json::{json, Value};

use crate::{format_ms, rfc3339_ms, status_str, SessionRecord, StoredEvent, StoredMessage};

/// Upstream's `transcript.jsonl`: one message per line, system and
/// developer messages left out (as upstream writes it).
pub fn transcript_jsonl(messages: &[StoredMessage]) -> String {
    let mut out = String::new();
    for stored in messages {
        if matches!(stored.message.role, Role::System | Role::Developer) {
            continue;
        }
        if let Ok(line) = serde_json::to_string(&stored.message) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Upstream's `events.jsonl` (hooks-logging's record shape): one event per
/// line, `{ts, lvl, schema, event, session_id, data}`.
pub fn events_jsonl(session_id: &str, events: &[StoredEvent]) -> String {
    let mut out = String::new();
    for event in events {
        let record = json!({
            "ts": event.timestamp,
            "lvl": "INFO",
            "schema": {"name": "amplifier.log", "ver": "1.0.0"},
            "event": event.name,
            "session_id": session_id,
            "turn": event.turn,
            "data": event.data,
        });
        out.push_str(&record.to_string());
        out.push('\n');
    }
    out
}

/// Upstream's `metadata.json`, plus this store's fields.
pub fn metadata_json(session: &SessionRecord) -> Value {
    json!({
        "session_id": session.id,
        "parent_id": session.parent_id,
        "agent": session.agent,
        "name": session.name,
        "created": rfc3339_ms(session.created_ms),
        "updated": rfc3339_ms(session.updated_ms),
        "status": status_str(session.status),
        "turn_count": session.turn_count,
        "message_count": session.message_count,
        "working_dir": session.working_dir,
        "plan_path": session.plan_path,
        "plan_hash": session.plan_hash,
        "usage": session.usage,
    })
}

/// A readable transcript: the session's facts, then each turn's messages.
pub fn markdown_transcript(session: &SessionRecord, messages: &[StoredMessage]) -> String {
    let mut out = String::new();
    let title = session.name.as_deref().or(session.title.as_deref()).unwrap_or("(untitled)");
    let _ = writeln!(out, "# Session {}: {title}\n", session.id);
    let _ = writeln!(out, "- started: {} UTC, in `{}`", format_ms(session.created_ms), session.working_dir);
    if let Some(plan) = &session.plan_path {
        let _ = writeln!(out, "- plan: `{plan}`");
    }
    match (&session.parent_id, &session.agent) {
        (Some(parent), Some(agent)) => _ = writeln!(out, "- sub-agent `{agent}` of: {parent}"),
        (Some(parent), None) => _ = writeln!(out, "- forked from: {parent}"),
        _ => {}
    }
    let _ = writeln!(
        out,
        "- {} turn(s), status {}, {} input + {} output tokens",
        session.turn_count,
        status_str(session.status),
        session.usage.input_tokens,
        session.usage.output_tokens
    );
    let mut turn = None;
    for stored in messages {
        if turn != Some(stored.turn) {
            turn = Some(stored.turn);
            if stored.turn == 0 {
                let _ = writeln!(out, "\n## Before the first turn");
            } else {
                let _ = writeln!(out, "\n## Turn {}", stored.turn);
            }
        }
        write_message(&mut out, &stored.message);
    }
    out
}

fn write_message(out: &mut String, message: &Message) {
    let who = match message.role {
        Role::System => "System",
        Role::Developer => "Developer",
        Role::User => "User",
        Role::Assistant => "Assistant",
        Role::Function | Role::Tool => "Tool result",
    };
    if message.role == Role::Tool || message.role == Role::Function {
        let id = message.tool_call_id.as_deref().unwrap_or("?");
        let name = message.name.as_deref().map(|n| format!(" `{n}`")).unwrap_or_default();
        let _ = writeln!(out, "\n**{who}**{name} ({id}):\n");
        fenced(out, "", &message.content.text());
        return;
    }
    let text = message.content.text();
    if !text.trim().is_empty() {
        let _ = writeln!(out, "\n**{who}:** {}", text.trim_end());
    }
    if let MessageContent::Blocks(blocks) = &message.content {
        for block in blocks {
            if let ContentBlock::Thinking { thinking, .. } = block {
                let _ = writeln!(out, "\n> _thinking:_ {}", thinking.replace('\n', "\n> "));
            }
        }
    }
    let mut calls: Vec<(String, String, String)> = message
        .tool_calls
        .iter()
        .flatten()
        .map(|call| (call.id.clone(), call.name.clone(), call.arguments.to_string()))
        .collect();
    if calls.is_empty() {
        if let MessageContent::Blocks(blocks) = &message.content {
            for block in blocks {
                if let ContentBlock::ToolCall { id, name, input, .. } = block {
                    calls.push((id.clone(), name.clone(), input.to_string()));
                }
            }
        }
    }
    for (id, name, arguments) in calls {
        let _ = writeln!(out, "\n**{who}** calls `{name}` ({id}):\n");
        fenced(out, "json", &arguments);
    }
}

/// A fenced code block whose fence is longer than any backtick run inside.
fn fenced(out: &mut String, language: &str, text: &str) {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(out, "{fence}{language}\n{}\n{fence}", text.trim_end());
}
