//! Hooks as declared, in the plan or in a hooks file, and the events and
//! tools each applies to.

use std::path::Path;
use std::time::Duration;

use amplifier_sandbox::workspace::Mode;
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
    ("PermissionRequest", &[events::APPROVAL_REQUIRED]),
    ("PermissionDenied", &[events::APPROVAL_DENIED]),
    ("UserPromptSubmit", &[events::PROMPT_SUBMIT]),
    ("Notification", &[events::USER_NOTIFICATION]),
    ("SessionStart", &[events::SESSION_START, events::SESSION_RESUME]),
    ("SessionEnd", &[events::SESSION_END]),
    ("SubagentStart", &[events::SESSION_FORK]),
    ("Stop", &[events::PROMPT_COMPLETE]),
    ("PreCompact", &[events::CONTEXT_PRE_COMPACT]),
    ("PostCompact", &[events::CONTEXT_POST_COMPACT]),
];

/// The rest of Claude Code's and codex's hook events: nothing in amplifier
/// happens at these moments, so their hooks are accepted and never run. A
/// hooks file written for Claude loads with them; a warning names each.
const NEVER_FIRED: &[&str] = &[
    "SubagentStop",
    "StopFailure",
    "Setup",
    "InstructionsLoaded",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
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
        !self.0.ends_with('*') && !names_a_tool(&self.0) && session_source(&self.0).is_none()
    }
}

/// Events whose data names the tool they concern: a tool's own, and the
/// approvals asked for a tool call.
fn names_a_tool(event: &str) -> bool {
    event.starts_with("tool:") || event.starts_with("approval:")
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
    /// The hook's own sandbox; `None`: the module's.
    pub sandbox: Option<Mode>,
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
        let Some(tool) = data.get("tool_name").and_then(Value::as_str).filter(|_| names_a_tool(event)) else {
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
    #[serde(default)]
    sandbox: Option<Mode>,
}

/// A positive, finite timeout that fits a `Duration` (1e300 seconds does
/// not, and a hooks file may say it).
pub fn seconds_to_duration(seconds: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(seconds).ok().filter(|duration| !duration.is_zero())
}

impl Declared {
    /// The hooks this declares, one per event; an error names the field.
    pub fn hooks(&self, default_timeout: Duration) -> Result<Vec<Hook>, String> {
        let names = match &self.event {
            Events::One(name) => std::slice::from_ref(name),
            Events::Many(names) => names.as_slice(),
        };
        let timeout = match self.timeout {
            None => default_timeout,
            Some(seconds) => seconds_to_duration(seconds).ok_or("timeout: must be a positive number of seconds")?,
        };
        let mut hooks = Vec::new();
        for (index, name) in names.iter().enumerate() {
            let field = match &self.event {
                Events::One(_) => "event".to_owned(),
                Events::Many(_) => format!("event[{index}]"),
            };
            hooks.extend(
                hooks_for(name, self.matcher.as_deref(), &self.command, timeout, false)
                    .map(|hooks| hooks.into_iter().map(|hook| Hook { sandbox: self.sandbox, ..hook }))
                    .map_err(|(on_event, message)| {
                        format!("{}: {message}", if on_event { &field } else { "matcher" })
                    })?,
            );
        }
        Ok(hooks)
    }
}

/// The message for event names that are neither amplifier's nor Claude Code's.
fn unknown_events(names: &[&str]) -> String {
    let known: Vec<&str> = CLAUDE_EVENTS.iter().map(|(claude, _)| *claude).chain(NEVER_FIRED.iter().copied()).collect();
    let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    format!(
        "unknown event{} {}: name an amplifier event (`tool:pre`, a prefix such as `tool:*`, or `*`) or one of Claude Code's: {}",
        if names.len() > 1 { "s" } else { "" },
        names.join(", "),
        known.join(", ")
    )
}

fn is_known(name: &str) -> bool {
    name.contains(':')
        || name.ends_with('*')
        || CLAUDE_EVENTS.iter().any(|(claude, _)| *claude == name)
        || NEVER_FIRED.contains(&name)
}

/// The hooks for one declared event name; an error says whether the event
/// (`true`) or the matcher is at fault. `from_a_file`: the hook comes from a
/// file written for Claude Code or codex, where a matcher may test what
/// amplifier's event does not carry (a notification's type, a compaction's
/// trigger); such a hook is left out with a warning instead of failing the
/// file, as it never fires here.
fn hooks_for(
    name: &str,
    matcher: Option<&str>,
    command: &str,
    timeout: Duration,
    from_a_file: bool,
) -> Result<Vec<Hook>, (bool, String)> {
    let events: Vec<EventPattern> = if name.contains(':') || name.ends_with('*') {
        vec![EventPattern(name.to_owned())]
    } else if let Some((_, ours)) = CLAUDE_EVENTS.iter().find(|(claude, _)| *claude == name) {
        ours.iter().map(|event| EventPattern((*event).to_owned())).collect()
    } else if NEVER_FIRED.contains(&name) {
        tracing::warn!("hooks-command: `{name}` hooks never run: amplifier has no such moment (`{command}`)");
        return Ok(Vec::new());
    } else {
        return Err((true, unknown_events(&[name])));
    };
    let matcher = match matcher.map(str::trim) {
        None | Some("" | "*") => None,
        Some(pattern) => {
            if let Some(event) = events.iter().find(|event| event.has_no_subject()) {
                if from_a_file {
                    tracing::warn!(
                        "hooks-command: a `{name}` hook with matcher `{pattern}` never runs: `{}` has no tool or source to match (`{command}`)",
                        event.0
                    );
                    return Ok(Vec::new());
                }
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
            sandbox: None,
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
    // All at once: a file refused for one name at a time takes as many tries.
    let unknown: Vec<&str> = by_event.keys().map(String::as_str).filter(|name| !is_known(name)).collect();
    if !unknown.is_empty() {
        return Err(at("hooks", unknown_events(&unknown)));
    }
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
                    // Claude's `prompt`, `agent` and `http` hooks: the file is
                    // still read, and its command hooks still run.
                    tracing::warn!(
                        "{}: {field}.type: `{kind}` hooks never run here, only `command` ones",
                        path.display()
                    );
                    continue;
                }
                let line = command
                    .get("command")
                    .and_then(Value::as_str)
                    .filter(|line| !line.trim().is_empty())
                    .ok_or_else(|| at(&format!("{field}.command"), "must be a non-empty string".into()))?;
                let timeout = match command.get("timeout") {
                    None | Some(Value::Null) => default_timeout,
                    Some(seconds) => seconds.as_f64().and_then(seconds_to_duration).ok_or_else(|| {
                        at(&format!("{field}.timeout"), "must be a positive number of seconds".into())
                    })?,
                };
                hooks.extend(hooks_for(name, matcher, line, timeout, true).map_err(|(on_event, message)| {
                    at(&if on_event { format!("hooks.{name}") } else { format!("{group_field}.matcher") }, message)
                })?);
            }
        }
    }
    Ok(hooks)
}
