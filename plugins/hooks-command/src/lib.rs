//! `hooks-command`: hooks written as commands, in any language, the way
//! Claude Code's and codex's command hooks work.
//!
//! ```yaml
//! hooks:
//!   - module: hooks-command
//!     config:
//!       hooks:
//!         - {event: tool:pre, matcher: "bash|write_file", command: ./hooks/check.sh, timeout: 10}
//!         - {event: PostToolUse, command: "jq -c . >> tool-log.jsonl", sandbox: workspace-write}
//!       files: [.claude/settings.json]   # hooks in Claude Code's and codex's format
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/hooks-command.md`; the guide is
//! `docs/modules/command-hooks.md`.
//!
//! A command runs with `sh -c` in the working directory, in a process
//! group of its own that dies with amplifier, confined as tool-bash's
//! commands are (`sandbox`: read-only by default, per hook if it says;
//! `amplifier_sandbox::workspace`), with the event on stdin as one JSON
//! object: the
//! event's data, plus `event`, `hook_event_name` (the name the hook was
//! declared with), `cwd`, and Claude's names for what amplifier calls
//! otherwise (`tool_use_id`, `tool_response`, `source`). Its environment is
//! the safe variables only (`amplifier_sandbox::env`), plus
//! `AMPLIFIER_SESSION_ID`, `AMPLIFIER_PROJECT_DIR`, `AMPLIFIER_HOOK_EVENT`
//! and, for scripts written for Claude Code, `CLAUDE_PROJECT_DIR`.
//!
//! What the command says (see [`answer`]): exit 0 continues, or does what
//! a JSON answer on stdout says; exit 2 denies with stderr as the reason;
//! anything else, a timeout, or an answer that does not parse, is a failure
//! that is logged and shown to the user while the run goes on. Commands
//! that match one event run at the same time, and their answers combine in
//! the order they were declared: the first denial wins, then the first
//! question, then the last rewrite; added context is joined.

mod answer;
mod declared;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use amplifier_sandbox::workspace::{self, Mode};
use amplifier_sandbox::Sandbox;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::answer::{Answer, Ran};
use crate::declared::{Declared, EventPattern, Hook};

/// Characters kept of each of a command's output streams.
const OUTPUT_LIMIT: usize = 100_000;

/// The project's own hooks file, read when `project_file` is on.
const PROJECT_FILE: &str = ".amplifier/hooks.json";

/// A hooks file, read within `amplifier_trust`'s cap for checkout files.
fn read_hooks_file(path: &std::path::Path) -> std::io::Result<String> {
    let bytes = amplifier_trust::read_checkout_file(path)?;
    String::from_utf8(bytes).map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8"))
}

/// A hooks file the checkout carries (beneath the working directory) runs
/// its commands only once the user has trusted it as it is: a cloned
/// repository, or a command the agent ran, could have written it.
fn check_trust(
    trust: &amplifier_trust::TrustList,
    project_dir: &std::path::Path,
    path: &std::path::Path,
    text: &str,
) -> Result<(), String> {
    let inside =
        path.canonicalize().is_ok_and(|path| project_dir.canonicalize().is_ok_and(|dir| path.starts_with(dir)));
    let state = match trust.verdict(path, text.as_bytes()) {
        _ if !inside => return Ok(()),
        amplifier_trust::Verdict::Trusted => return Ok(()),
        untrusted => untrusted.describe(),
    };
    Err(format!(
        "{} is {state}: its hooks would run commands; read it, then run `amplifier trust {}` in {}",
        path.display(),
        path.strip_prefix(project_dir).unwrap_or(path).display(),
        project_dir.display()
    ))
}

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
struct Config {
    hooks: Vec<Declared>,
    files: Vec<String>,
    project_file: bool,
    timeout: f64,
    priority: i32,
    inherit_env: Vec<String>,
    env: BTreeMap<String, String>,
    sandbox: Mode,
    network: bool,
    readable_paths: Vec<String>,
}

struct CommandHooks {
    hooks: Vec<Hook>,
    priority: i32,
    project_dir: PathBuf,
    inherit_env: Vec<String>,
    env: BTreeMap<String, String>,
    sandboxes: Sandboxes,
}

/// The sandbox of each confined mode the hooks use, made once at mount,
/// and their private `TMPDIR`.
struct Sandboxes {
    default: Mode,
    read_only: Option<Sandbox>,
    workspace_write: Option<Sandbox>,
    /// Removed with the module.
    tmp: Option<tempfile::TempDir>,
}

/// The private `TMPDIRs`: `amplifier-hooks-<amplifier's pid>-<random>`.
const TMPDIR_PREFIX: &str = "amplifier-hooks-";

impl Sandboxes {
    /// Prepares the modes `hooks` use (`default` where a hook names none).
    /// A kernel that can't confine leaves the hooks unconfined, with a
    /// warning: they are the user's own commands, which ran so before.
    fn new(hooks: &[Hook], config: &Config, dir: &std::path::Path) -> Result<Sandboxes, String> {
        let default = config.sandbox;
        let used = |mode: Mode| hooks.iter().any(|hook| hook.sandbox.unwrap_or(default) == mode);
        let mut sandboxes = Sandboxes { default, read_only: None, workspace_write: None, tmp: None };
        if !used(Mode::ReadOnly) && !used(Mode::WorkspaceWrite) {
            return Ok(sandboxes);
        }
        let support = amplifier_sandbox::support();
        if !support.is_enforceable() {
            tracing::warn!("hooks-command: {}; hook commands run unconfined", support.describe());
            return Ok(sandboxes);
        }
        let tmp = workspace::private_tmpdir(TMPDIR_PREFIX).map_err(|err| format!("cannot create a TMPDIR: {err}"))?;
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut readable = Vec::new();
        for path in &config.readable_paths {
            let path = amplifier_sandbox::expand_home(path, home.as_deref())
                .ok_or_else(|| format!("readable_paths: `{path}` starts with `~` but HOME is not set"))?;
            readable.push(dir.join(path));
        }
        let extras = workspace::Extras {
            readable,
            protected: workspace::PROTECTED_PATHS.iter().map(|path| path.to_string()).collect(),
            network: config.network,
            ..workspace::Extras::default()
        };
        let prepare = |mode: Mode| -> Result<Option<Sandbox>, String> {
            if !used(mode) {
                return Ok(None);
            }
            let policy = workspace::policy(mode, dir, Some(tmp.path()), extras.clone()).expect("a confined mode");
            Sandbox::new(policy).map(Some).map_err(|err| err.to_string())
        };
        sandboxes.read_only = prepare(Mode::ReadOnly)?;
        sandboxes.workspace_write = prepare(Mode::WorkspaceWrite)?;
        sandboxes.tmp = Some(tmp);
        Ok(sandboxes)
    }

    /// The sandbox `hook` runs in, and its `TMPDIR`; `None`: unconfined.
    fn of(&self, hook: &Hook) -> Option<(&Sandbox, &std::path::Path)> {
        let sandbox = match hook.sandbox.unwrap_or(self.default) {
            Mode::ReadOnly => self.read_only.as_ref(),
            Mode::WorkspaceWrite => self.workspace_write.as_ref(),
            Mode::FullAccess => None,
        };
        sandbox.zip(self.tmp.as_ref().map(tempfile::TempDir::path))
    }
}

impl CommandHooks {
    fn new(module: &str, config: Config) -> ModuleResult<CommandHooks> {
        let invalid = |message: String| {
            ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {module}: {message}"))
        };
        let project_dir = std::env::current_dir().map_err(|err| invalid(format!("no working directory: {err}")))?;
        let default_timeout = declared::seconds_to_duration(config.timeout)
            .ok_or_else(|| invalid("timeout: must be a positive number of seconds".into()))?;
        let mut hooks = Vec::new();
        for (index, declared) in config.hooks.iter().enumerate() {
            hooks.extend(declared.hooks(default_timeout).map_err(|err| invalid(format!("hooks[{index}].{err}")))?);
        }
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let trust = amplifier_trust::TrustList::open().map_err(|err| invalid(err.to_string()))?;
        for file in &config.files {
            let path = amplifier_sandbox::expand_home(file, home.as_deref())
                .ok_or_else(|| invalid(format!("files: `{file}` starts with `~` but HOME is not set")))?;
            let path = project_dir.join(path);
            let text = read_hooks_file(&path)
                .map_err(|err| invalid(format!("files: cannot read {}: {err}", path.display())))?;
            check_trust(&trust, &project_dir, &path, &text).map_err(invalid)?;
            hooks.extend(declared::from_file(&path, &text, default_timeout).map_err(invalid)?);
        }
        if config.project_file {
            let path = project_dir.join(PROJECT_FILE);
            match read_hooks_file(&path) {
                Ok(text) => {
                    check_trust(&trust, &project_dir, &path, &text).map_err(invalid)?;
                    hooks.extend(declared::from_file(&path, &text, default_timeout).map_err(invalid)?);
                }
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(invalid(format!("cannot read {}: {err}", path.display()))),
            }
        }
        let sandboxes = Sandboxes::new(&hooks, &config, &project_dir).map_err(invalid)?;
        Ok(CommandHooks {
            hooks,
            priority: config.priority,
            project_dir,
            inherit_env: config.inherit_env,
            env: config.env,
            sandboxes,
        })
    }

    /// The event as the command reads it on stdin.
    fn payload(&self, hook: &Hook, event: &str, data: &JsonMap) -> JsonMap {
        let mut payload = data.clone();
        let mut add = |key: &str, value: Value| {
            payload.entry(key.to_owned()).or_insert(value);
        };
        add("event", Value::from(event));
        add("hook_event_name", Value::from(hook.declared_as.as_str()));
        add("cwd", Value::from(self.project_dir.display().to_string()));
        if let Some(id) = data.get("tool_call_id") {
            add("tool_use_id", id.clone());
        }
        if let Some(result) = data.get("result").filter(|_| event == amplifier_sdk::events::TOOL_POST) {
            add("tool_response", result.clone());
        }
        if let Some(source) = declared::session_source(event) {
            add("source", Value::from(source));
        }
        payload
    }

    fn command(&self, hook: &Hook, event: &str, data: &JsonMap) -> tokio::process::Command {
        let mut command = tokio::process::Command::new("sh");
        command.arg("-c").arg(&hook.command).current_dir(&self.project_dir).process_group(0);
        // A hook's command dies with amplifier, as a tool's does.
        amplifier_sandbox::lifeline::guard(command.as_std_mut());
        let mut env = self.env.clone();
        let sandbox = self.sandboxes.of(hook);
        if let Some((_, tmp)) = sandbox {
            env.insert("TMPDIR".into(), tmp.display().to_string());
        }
        let session = data.get("session_id").and_then(Value::as_str).unwrap_or_default();
        let project = self.project_dir.display().to_string();
        env.insert("AMPLIFIER_SESSION_ID".into(), session.to_owned());
        env.insert("AMPLIFIER_HOOK_EVENT".into(), event.to_owned());
        env.insert("AMPLIFIER_PROJECT_DIR".into(), project.clone());
        env.insert("CLAUDE_PROJECT_DIR".into(), project);
        let inherit =
            amplifier_sandbox::env::INHERITED.iter().copied().chain(self.inherit_env.iter().map(String::as_str));
        amplifier_sandbox::env::apply(command.as_std_mut(), inherit, &env);
        // After the guardian, which stays outside the sandbox.
        if let Some((sandbox, _)) = sandbox {
            sandbox.confine(command.as_std_mut());
        }
        command
    }

    async fn run(&self, hook: &Hook, event: &str, data: &JsonMap) -> Ran {
        let stdin = Value::Object(self.payload(hook, event, data)).to_string().into_bytes();
        let command = self.command(hook, event, data);
        match amplifier_sandbox::process::run(command, Some(stdin), hook.timeout, OUTPUT_LIMIT).await {
            Ok(finished) => Ran::Finished(finished),
            Err(err) => Ran::NotStarted(err),
        }
    }
}

impl HookHandler for CommandHooks {
    /// One subscription per pattern no other pattern covers: the kernel
    /// calls a handler once per matching subscription, and `handle` runs
    /// every hook the event matches, so `tool:*` beside `tool:pre` must not
    /// run the `tool:pre` hooks twice.
    fn subscriptions(&self) -> Vec<Subscription> {
        let mut patterns: Vec<&EventPattern> = self.hooks.iter().map(|hook| &hook.event).collect();
        patterns.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        patterns.dedup();
        let covered = |pattern: &EventPattern| patterns.iter().any(|other| *other != pattern && other.covers(pattern));
        patterns
            .iter()
            .filter(|pattern| !covered(pattern))
            .map(|pattern| Subscription::new(pattern.0.as_str(), self.priority, "hooks-command"))
            .collect()
    }

    async fn handle(&self, event: &str, data: JsonMap) -> ModuleResult<HookResult> {
        let matched: Vec<&Hook> = self.hooks.iter().filter(|hook| hook.applies_to(event, &data)).collect();
        if matched.is_empty() {
            return Ok(HookResult::continue_());
        }
        let runs = matched.iter().map(|hook| self.run(hook, event, &data));
        let answers: Vec<Answer> = futures::future::join_all(runs)
            .await
            .into_iter()
            .zip(&matched)
            .map(|(ran, hook)| {
                answer::read(ran, event, &hook.command, hook.timeout).unwrap_or_else(|failure| {
                    tracing::warn!("{failure}");
                    Answer::default()
                })
            })
            .collect();
        Ok(answer::combine(answers, event, data))
    }
}

/// How many hooks a hooks file's text declares, or why it is refused: the
/// reader a checkout's file meets, for the fuzz target (`fuzz/`).
#[doc(hidden)]
pub fn read_hooks_file_text(text: &str) -> Result<usize, String> {
    let path = std::path::Path::new(PROJECT_FILE);
    declared::from_file(path, text, Duration::from_secs(60)).map(|hooks| hooks.len())
}

fn mount(ctx: MountContext) -> ModuleResult<CommandHooks> {
    CommandHooks::new(ctx.module, ctx.config()?)
}

export_module!(hook => mount);

#[cfg(test)]
mod tests;
