//! `hooks-approval`: a decision for every tool call, before it runs.
//!
//! ```yaml
//! hooks:
//!   - module: hooks-approval
//!     source: ../plugins/hooks-approval
//!     config:
//!       rules:                                  # first match wins
//!         - {tool: bash, when: {command: "git status*"}, action: auto_approve}
//!         - {tool: bash, action: ask}
//!         - {tool: write_file, when: {file_path: "/etc/**"}, action: deny}
//!         - {pattern: "rm -rf*", action: auto_deny}   # upstream's shape: bash commands only
//!       high_risk_tools: [bash, write_file, edit_file, web_fetch]   # no rule matched: high_risk_action
//!       high_risk_action: ask
//!       audit_log: .amplifier/approvals.jsonl
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/hooks-approval.md`.
//!
//! Runs on `tool:pre` at priority -10, before hooks that rewrite input. An
//! `ask` is upstream's `ask_user` verdict: the kernel puts the question to
//! the front end's approval system (the CLI asks on the terminal; with no
//! terminal, `approval_default` applies) with the options `Allow once`,
//! `Allow always` and `Deny`. The question's first line names the tool
//! only, so a front end can remember "allow always" per tool.
//!
//! A rule in upstream's shape, `{pattern, action}`, is
//! `{tool: bash, when: {command: pattern}, action}` matched as upstream
//! matches it (see `command_pattern`), and its `auto_deny` is `deny`.
//! Upstream denies on any other action; here an action neither knows is
//! refused at mount, and `ask` asks.
//! Upstream's `default_action` is what an unanswered ask does, so it is
//! read as `approval_default` (its `continue` as `allow`); the action for
//! a tool no rule matched is `low_risk_action`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use amplifier_sdk::prelude::*;
use globset::{GlobBuilder, GlobMatcher};
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Action {
    AutoApprove,
    Ask,
    #[serde(alias = "auto_deny")]
    Deny,
}

/// A rule as the plan writes it.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RuleConfig {
    Ours {
        tool: String,
        #[serde(default)]
        when: std::collections::BTreeMap<String, String>,
        action: Action,
    },
    /// Upstream's: a pattern on the `bash` tool's command.
    Upstream { pattern: String, action: Action },
}

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
struct Config {
    rules: Vec<RuleConfig>,
    high_risk_tools: Vec<String>,
    high_risk_action: Action,
    low_risk_action: Action,
    timeout: f64,
    approval_default: Unanswered,
    #[serde(default)]
    audit_log: Option<PathBuf>,
}

/// `approval_default`, in our words or upstream's (`continue`).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Unanswered {
    #[serde(alias = "continue")]
    Allow,
    Deny,
}

impl From<Unanswered> for ApprovalDefault {
    fn from(unanswered: Unanswered) -> Self {
        match unanswered {
            Unanswered::Allow => ApprovalDefault::Allow,
            Unanswered::Deny => ApprovalDefault::Deny,
        }
    }
}

struct Rule {
    tool: GlobMatcher,
    /// Argument name → pattern on its value (a string as is, anything else as JSON).
    when: Vec<(String, GlobMatcher)>,
    action: Action,
}

impl Rule {
    fn matches(&self, tool: &str, input: &Value) -> bool {
        self.tool.is_match(tool)
            && self.when.iter().all(|(argument, pattern)| match input.get(argument) {
                Some(Value::String(text)) => pattern.is_match(text),
                Some(other) => pattern.is_match(other.to_string()),
                None => false,
            })
    }
}

struct Approvals {
    rules: Vec<Rule>,
    high_risk: Vec<GlobMatcher>,
    high_risk_action: Action,
    low_risk_action: Action,
    timeout: f64,
    approval_default: ApprovalDefault,
    audit: Option<Mutex<File>>,
}

impl Approvals {
    /// The action for a call and why.
    fn decide(&self, tool: &str, input: &Value) -> (Action, String) {
        if let Some((index, rule)) = self.rules.iter().enumerate().find(|(_, rule)| rule.matches(tool, input)) {
            return (rule.action, format!("rules[{index}]"));
        }
        if self.high_risk.iter().any(|pattern| pattern.is_match(tool)) {
            return (self.high_risk_action, "high_risk_action (a high-risk tool no rule matched)".to_owned());
        }
        (self.low_risk_action, "low_risk_action".to_owned())
    }

    fn audit(&self, data: &JsonMap, tool: &str, action: Action, why: &str) {
        let Some(file) = &self.audit else { return };
        let record = json!({
            "timestamp": data.get("timestamp"),
            "session_id": data.get("session_id"),
            "tool": tool,
            "tool_call_id": data.get("tool_call_id"),
            "decision": action,
            "by": why,
        });
        let mut line = record.to_string();
        line.push('\n');
        let mut file = file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Err(err) = file.write_all(line.as_bytes()) {
            tracing::warn!(error = %err, "cannot write the approval audit log");
        }
    }
}

impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match self {
            Action::AutoApprove => "auto_approve",
            Action::Ask => "ask",
            Action::Deny => "deny",
        })
    }
}

impl HookHandler for Approvals {
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![Subscription::new(amplifier_sdk::events::TOOL_PRE, -10, "hooks-approval")]
    }

    async fn handle(&self, _event: &str, data: JsonMap) -> ModuleResult<HookResult> {
        let tool = data.get("tool_name").and_then(Value::as_str).unwrap_or_default().to_owned();
        let input = data.get("tool_input").cloned().unwrap_or(Value::Null);
        let (action, why) = self.decide(&tool, &input);
        self.audit(&data, &tool, action, &why);
        Ok(match action {
            Action::AutoApprove => HookResult::continue_(),
            Action::Deny => HookResult::deny(format!("hooks-approval: `{tool}` is not allowed ({why})")),
            Action::Ask => HookResult {
                action: HookAction::AskUser,
                approval_prompt: Some(format!("Allow the tool `{tool}`?\n{}", arguments_line(&input))),
                approval_options: Some(["Allow once", "Allow always", "Deny"].map(str::to_owned).to_vec()),
                approval_timeout: self.timeout,
                approval_default: self.approval_default,
                reason: Some(format!("hooks-approval: `{tool}` needs approval ({why})")),
                ..HookResult::default()
            },
        })
    }
}

/// The arguments on one line, cut so a large file body does not flood the prompt.
fn arguments_line(input: &Value) -> String {
    const MAX: usize = 400;
    let text = input.to_string();
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn glob(module: &str, field: &str, glob: &GlobBuilder) -> ModuleResult<GlobMatcher> {
    glob.build().map(|glob| glob.compile_matcher()).map_err(|err| {
        ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {module}: {field}: {err}"))
    })
}

/// Upstream's command pattern as a glob that matches what upstream's does:
/// only `*` is special (any run of characters); a pattern with one is
/// anchored at the start only (`git *status` matches `git status -s`), one
/// without must equal the command; case does not matter. Upstream turns
/// `*` into regex `.*` without escaping the rest, so there `.` or `+` would
/// be regex too; here they are literal, which only narrows a pattern to what
/// its author most likely meant.
fn command_pattern(pattern: &str) -> String {
    let mut glob = String::new();
    for (index, literal) in pattern.split('*').enumerate() {
        // One `*` per run: `**` means something else to globset.
        if index > 0 && !glob.ends_with('*') {
            glob.push('*');
        }
        glob.push_str(&globset::escape(literal));
    }
    if pattern.contains('*') && !glob.ends_with('*') {
        glob.push('*');
    }
    glob
}

impl Rule {
    fn new(module: &str, index: usize, config: &RuleConfig) -> ModuleResult<Rule> {
        let field = |name: &str| format!("rules[{index}].{name}");
        Ok(match config {
            RuleConfig::Ours { tool, when, action } => Rule {
                tool: glob(module, &field("tool"), &GlobBuilder::new(tool))?,
                when: when
                    .iter()
                    .map(|(argument, pattern)| {
                        Ok((
                            argument.clone(),
                            glob(module, &field(&format!("when.{argument}")), &GlobBuilder::new(pattern))?,
                        ))
                    })
                    .collect::<ModuleResult<_>>()?,
                action: *action,
            },
            RuleConfig::Upstream { pattern, action } => {
                let command = command_pattern(pattern);
                let mut command = GlobBuilder::new(&command);
                // Escaped with classes (`[?]`), so a backslash is just a character, as in upstream's pattern.
                command.case_insensitive(true).backslash_escape(false);
                Rule {
                    tool: glob(module, &field("pattern"), &GlobBuilder::new("bash"))?,
                    when: vec![("command".to_owned(), glob(module, &field("pattern"), &command)?)],
                    action: *action,
                }
            }
        })
    }
}

impl Approvals {
    fn new(module: &str, config: Config) -> ModuleResult<Approvals> {
        let rules = config
            .rules
            .iter()
            .enumerate()
            .map(|(index, rule)| Rule::new(module, index, rule))
            .collect::<ModuleResult<_>>()?;
        let high_risk = config
            .high_risk_tools
            .iter()
            .enumerate()
            .map(|(index, pattern)| glob(module, &format!("high_risk_tools[{index}]"), &GlobBuilder::new(pattern)))
            .collect::<ModuleResult<_>>()?;
        let audit = match &config.audit_log {
            Some(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    let _ = std::fs::create_dir_all(dir);
                }
                let file = OpenOptions::new().create(true).append(true).open(path).map_err(|err| {
                    ModuleError::internal(format!("{module}: cannot open audit_log {}: {err}", path.display()))
                })?;
                Some(Mutex::new(file))
            }
            None => None,
        };
        Ok(Approvals {
            rules,
            high_risk,
            high_risk_action: config.high_risk_action,
            low_risk_action: config.low_risk_action,
            timeout: config.timeout,
            approval_default: config.approval_default.into(),
            audit,
        })
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Approvals> {
    Approvals::new(ctx.module, ctx.config()?)
}

export_module!(hook => mount);

#[cfg(test)]
mod tests {
    use amplifier_sdk::testing::config_with_defaults;
    use globset::Glob;

    use super::*;

    const MANIFEST: &str = include_str!("../amplifier.toml");

    /// `(tool, [(argument, pattern)], action)`.
    type TestRule<'a> = (&'a str, &'a [(&'a str, &'a str)], Action);

    fn approvals(rules: &[TestRule]) -> Approvals {
        Approvals {
            rules: rules
                .iter()
                .map(|(tool, when, action)| Rule {
                    tool: Glob::new(tool).unwrap().compile_matcher(),
                    when: when.iter().map(|(a, p)| (a.to_string(), Glob::new(p).unwrap().compile_matcher())).collect(),
                    action: *action,
                })
                .collect(),
            high_risk: vec![Glob::new("bash").unwrap().compile_matcher()],
            high_risk_action: Action::Deny,
            low_risk_action: Action::AutoApprove,
            timeout: 1.0,
            approval_default: ApprovalDefault::Deny,
            audit: None,
        }
    }

    #[test]
    fn the_first_matching_rule_wins_then_high_risk_then_the_default() {
        let a = approvals(&[
            ("bash", &[("command", "git status*")], Action::AutoApprove),
            ("bash", &[], Action::Ask),
            ("write_*", &[("file_path", "/etc/**")], Action::Deny),
        ]);
        assert_eq!(a.decide("bash", &json!({"command": "git status -s"})).0, Action::AutoApprove);
        assert_eq!(a.decide("bash", &json!({"command": "rm -rf x"})), (Action::Ask, "rules[1]".to_owned()));
        assert_eq!(a.decide("write_file", &json!({"file_path": "/etc/passwd"})).0, Action::Deny);
        assert_eq!(a.decide("write_file", &json!({"file_path": "notes.md"})).0, Action::AutoApprove);
        let none = approvals(&[]);
        assert_eq!(none.decide("bash", &json!({})).0, Action::Deny, "high risk, no rule");
        assert_eq!(none.decide("echo", &json!({})).0, Action::AutoApprove);
    }

    fn from_plan(config: Value) -> Approvals {
        Approvals::new("hooks-approval", config_with_defaults(MANIFEST, config)).unwrap()
    }

    #[test]
    fn upstreams_rules_approve_or_deny_bash_commands() {
        let plan =
            from_plan(json!({"rules": [{"pattern": "ls*", "action": "auto_approve"}], "approval_default": "continue"}));
        assert_eq!(plan.decide("bash", &json!({"command": "ls -la"})), (Action::AutoApprove, "rules[0]".to_owned()));
        assert_eq!(plan.approval_default, ApprovalDefault::Allow, "upstream's `continue` is allow");
        assert_eq!(plan.decide("read_file", &json!({})).0, Action::AutoApprove, "not high-risk: runs");
        let plan = from_plan(json!({"rules": [{"pattern": "rm*", "action": "auto_deny"}]}));
        assert_eq!(plan.decide("bash", &json!({"command": "rm -rf x"})), (Action::Deny, "rules[0]".to_owned()));
    }

    #[test]
    fn upstreams_patterns_match_as_upstream_matches_them() {
        let patterns = ["git *status", "pwd", "ls [a]?", r"echo \n", "a**b"];
        let rules: Vec<Value> = patterns.iter().map(|p| json!({"pattern": p, "action": "auto_approve"})).collect();
        let plan = from_plan(json!({"rules": rules, "high_risk_tools": []}));
        let by = |command: &str| plan.decide("bash", &json!({"command": command})).1;
        assert_eq!(by("git status --short"), "rules[0]", "anchored at the start only");
        assert_eq!(by("GIT Status"), "rules[0]", "case does not matter");
        assert_eq!(by("sudo git status"), "low_risk_action");
        assert_eq!(by("pwd"), "rules[1]");
        assert_eq!(by("pwd -P"), "low_risk_action", "without `*`, the whole command");
        assert_eq!(by("ls [a]?"), "rules[2]", "only `*` is special");
        assert_eq!(by("ls ab"), "low_risk_action");
        assert_eq!(by(r"echo \n"), "rules[3]");
        assert_eq!(by("a/x/b"), "rules[4]");
        assert_eq!(plan.decide("write_file", &json!({"command": "pwd"})).1, "low_risk_action", "bash only");
    }

    #[test]
    fn long_arguments_are_cut_in_the_question() {
        let line = arguments_line(&json!({"content": "x".repeat(1000)}));
        assert!(line.chars().count() <= 401 && line.ends_with('…'));
    }
}
