//! Hooks as declared, in the plan or in a hooks file, and the events and
//! tools each applies to.

use std::path::Path;
use std::time::Duration;

use amplifier_sdk::events;
use amplifier_sdk::prelude::*;
use regex::Regex;
use serde::Deserialize;

/// Claude Code's event names (which codex shares) and the amplifier
/// events they stand for.
const CLAUDE_EVENTS: &[(&str, &[&str])] = &[
    ("PreToolUse", &[events::TOOL_PRE]),
    ("PostToolUse", &[events::TOOL_POST]),
    ("PostToolUseFailure", &[events::TOOL_ERROR]),
    ("UserPromptSubmit", &[events::PROMPT_SUBMIT]),
    ("SessionStart", &[events::SESSION_START, events::SESSION_RESUME]),
    ("SessionEnd", &[events::SESSION_END]),
    ("Stop", &[events::PROMPT_COMPLETE]),
    ("PreCompact", &[events::CONTEXT_PRE_COMPACT]),
];

/// Claude Code's names for the standard tools, so a matcher written for
/// Claude (`Bash`, `Edit|Write`) matches amplifier's tools too.
const CLAUDE_TOOLS: &[(&str, &str)] = &[
    ("bash", "Bash"),
    ("read_file", "Read"),
    ("write_file", "Write"),
    ("edit_file", "Edit"),
    ("glob", "Glob"),
    ("grep", "Grep"),
    ("web_fetch", "WebFetch"),
    ("task", "Task"),
];

/// An event name, a prefix pattern (`tool:*`) or `*`, as the kernel reads
/// a subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventPattern(pub String);

impl EventPattern {
    pub fn matches(&self, event: &str) -> bool {
        match self.0.strip_suffix('*') {
            Some(prefix) => event.starts_with(prefix),
            None => self.0 == event,
        }
    }

    /// Whether every event `other` reaches, this reaches too.
    pub fn covers(&self, other: &EventPattern) -> bool {
        match self.0.strip_suffix('*') {
            Some(prefix) => other.0.starts_with(prefix),
            None => self == other,
        }
    }

    /// Whether every event this reaches has no tool or session source for a matcher to test.
    fn has_no_subject(&self) -> bool {
        !self.0.ends_with('*') && !self.0.starts_with("tool:") && session_source(&self.0).is_none()
    }
}

/// Claude's `source` of a session event: what a `SessionStart` matcher tests.
pub fn session_source(event: &str) -> Option<&'static str> {
    match event {
        events::SESSION_START => Some("startup"),
        events::SESSION_RESUME => Some("resume"),
        _ => None,
    }
}

/// One command on one event pattern.
#[derive(Debug)]
pub struct Hook {
    pub event: EventPattern,
    /// The name the hook was declared with: the command's `hook_event_name`.
    pub declared_as: String,
    /// `None`: every tool (or no tool).
    pub matcher: Option<Regex>,
    pub command: String,
    pub timeout: Duration,
}

impl Hook {
    /// Whether this hook runs for `event` with `data`: a matcher must match
    /// the whole tool name (or Claude's name for the tool), or the session's
    /// source on session events.
    pub fn applies_to(&self, event: &str, data: &JsonMap) -> bool {
        if !self.event.matches(event) {
            return false;
        }
        let Some(matcher) = &self.matcher else { return true };
        if let Some(source) = session_source(event) {
            return matcher.is_match(source);
        }
        let Some(tool) = data.get("tool_name").and_then(Value::as_str).filter(|_| event.starts_with("tool:")) else {
            return false;
        };
        let claude = CLAUDE_TOOLS.iter().find(|(ours, _)| *ours == tool).map(|(_, theirs)| *theirs);
        matcher.is_match(tool) || claude.is_some_and(|name| matcher.is_match(name))
    }
}

/// One name or several.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Events {
    One(String),
    Many(Vec<String>),
}

/// A hook as the plan writes it.
#[derive(Debug, Deserialize)]
pub struct Declared {
    event: Events,
    #[serde(default)]
    matcher: Option<String>,
    command: String,
    #[serde(default)]
    timeout: Option<f64>,
}

impl Declared {
    /// The hooks this declares, one per event; an error names the field.
    pub fn hooks(&self, default_timeout: Duration) -> Result<Vec<Hook>, String> {
        let names = match &self.event {
            Events::One(name) => std::slice::from_ref(name),
            Events::Many(names) => names.as_slice(),
        };
        let timeout = self.timeout.map_or(default_timeout, Duration::from_secs_f64);
        let mut hooks = Vec::new();
        for (index, name) in names.iter().enumerate() {
            let field = match &self.event {
                Events::One(_) => "event".to_owned(),
                Events::Many(_) => format!("event[{index}]"),
            };
            hooks.extend(
                hooks_for(name, self.matcher.as_deref(), &self.command, timeout).map_err(|(on_event, message)| {
                    format!("{}: {message}", if on_event { &field } else { "matcher" })
                })?,
            );
        }
        Ok(hooks)
    }
}

/// The hooks for one declared event name; an error says whether the event
/// (`true`) or the matcher is at fault.
fn hooks_for(name: &str, matcher: Option<&str>, command: &str, timeout: Duration) -> Result<Vec<Hook>, (bool, String)> {
    let events: Vec<EventPattern> = if name.contains(':') || name.ends_with('*') {
        vec![EventPattern(name.to_owned())]
    } else if let Some((_, ours)) = CLAUDE_EVENTS.iter().find(|(claude, _)| *claude == name) {
        ours.iter().map(|event| EventPattern((*event).to_owned())).collect()
    } else {
        let known: Vec<&str> = CLAUDE_EVENTS.iter().map(|(claude, _)| *claude).collect();
        return Err((
            true,
            format!(
                "unknown event `{name}`: name an amplifier event (`tool:pre`, a prefix such as `tool:*`, or `*`) or one of Claude Code's: {}",
                known.join(", ")
            ),
        ));
    };
    let matcher = match matcher.map(str::trim) {
        None | Some("" | "*") => None,
        Some(pattern) => {
            if let Some(event) = events.iter().find(|event| event.has_no_subject()) {
                return Err((
                    false,
                    format!(
                        "`{pattern}` cannot apply: `{}` has no tool (a matcher is for tool and session-start events)",
                        event.0
                    ),
                ));
            }
            Some(
                Regex::new(&format!("^(?:{pattern})$"))
                    .map_err(|err| (false, format!("`{pattern}` is not a regular expression: {err}")))?,
            )
        }
    };
    Ok(events
        .into_iter()
        .map(|event| Hook {
            event,
            declared_as: name.to_owned(),
            matcher: matcher.clone(),
            command: command.to_owned(),
            timeout,
        })
        .collect())
}

/// The hooks of a file in Claude Code's and codex's format:
/// `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}}`.
/// Other top-level keys (a Claude `settings.json` has many) are left alone.
pub fn from_file(path: &Path, text: &str, default_timeout: Duration) -> Result<Vec<Hook>, String> {
    let at = |field: &str, message: String| format!("{}: {field}: {message}", path.display());
    let file: Value = serde_json::from_str(text).map_err(|err| format!("{}: not JSON: {err}", path.display()))?;
    let Some(by_event) = file.get("hooks") else { return Ok(Vec::new()) };
    let by_event = by_event.as_object().ok_or_else(|| at("hooks", "must be an object of event names".into()))?;
    let mut hooks = Vec::new();
    for (name, groups) in by_event {
        let groups = groups.as_array().ok_or_else(|| at(&format!("hooks.{name}"), "must be a list".into()))?;
        for (g, group) in groups.iter().enumerate() {
            let group_field = format!("hooks.{name}[{g}]");
            let field = &group_field;
            let matcher = match group.get("matcher") {
                None | Some(Value::Null) => None,
                Some(Value::String(matcher)) => Some(matcher.as_str()),
                Some(_) => return Err(at(&format!("{field}.matcher"), "must be a string".into())),
            };
            let commands = group
                .get("hooks")
                .and_then(Value::as_array)
                .ok_or_else(|| at(&format!("{field}.hooks"), "must be a list of commands".into()))?;
            for (c, command) in commands.iter().enumerate() {
                let field = format!("{field}.hooks[{c}]");
                let kind = command.get("type").and_then(Value::as_str).unwrap_or("command");
                if kind != "command" {
                    return Err(at(
                        &format!("{field}.type"),
                        format!("`{kind}` hooks are not supported, only `command` ones"),
                    ));
                }
                let line = command
                    .get("command")
                    .and_then(Value::as_str)
                    .filter(|line| !line.trim().is_empty())
                    .ok_or_else(|| at(&format!("{field}.command"), "must be a non-empty string".into()))?;
                let timeout = match command.get("timeout") {
                    None | Some(Value::Null) => default_timeout,
                    Some(seconds) => {
                        seconds.as_f64().filter(|s| *s > 0.0 && s.is_finite()).map(Duration::from_secs_f64).ok_or_else(
                            || at(&format!("{field}.timeout"), "must be a positive number of seconds".into()),
                        )?
                    }
                };
                hooks.extend(hooks_for(name, matcher, line, timeout).map_err(|(on_event, message)| {
                    at(&if on_event { format!("hooks.{name}") } else { format!("{group_field}.matcher") }, message)
                })?);
            }
        }
    }
    Ok(hooks)
}
