//! `tool-bash`: the `bash` tool. Runs a command line with `bash -c` in the
//! configured working directory and returns `{stdout, stderr, exit_code}`.
//!
//! # The tool
//!
//! `bash {command, timeout = 30, run_in_background = false}`
//!
//! - **Output**: `{stdout, stderr, exit_code}`. Each stream keeps at most
//!   `max_output_chars` characters: its first and last halves, with the
//!   middle replaced by `…[cut 12345 chars]…`. Invalid UTF-8 becomes
//!   U+FFFD. Stdin is `/dev/null`.
//! - **Exit status**: exit code 0 is a successful result; any other code is
//!   a failed result (as upstream) that still carries the same
//!   `{stdout, stderr, exit_code}` output. A shell killed by a signal
//!   reports `128 + signal`, as bash does.
//! - **Timeout** (`timeout` seconds, default `timeout` from the config, at
//!   most `max_timeout`): the command's whole process group gets SIGTERM,
//!   then SIGKILL one second later (a process that ignores SIGTERM still
//!   dies), and the result is an error saying
//!   `command timed out after N s; its process group was killed`, with
//!   `exit_code: null` and whatever output was captured.
//! - **Background** (`run_in_background: true`): the command starts
//!   detached in its own process group, output discarded (redirect it to a
//!   file to keep it), and `{pid, started: true}` returns at once. The pid
//!   is the process group id; a signal sent to it reaches the shell. Every
//!   background process group is killed (SIGKILL) when the session ends.
//! - **Denied** commands never run: the result is an error naming the rule,
//!   e.g. ``command not run: denied by safety profile strict: `sudo ls` (privilege escalation)``.
//!
//! # Processes
//!
//! Every command runs as `bash -c COMMAND` in a **new process group**
//! (`process_group(0)`), led by a guardian that kills the group if
//! amplifier dies, SIGKILL included (`amplifier_sandbox::lifeline`). The
//! tool kills the whole group with `killpg`, never just the shell: on timeout
//! (SIGTERM, then SIGKILL), when a foreground command finishes (anything it
//! left running with `&` is killed: use `run_in_background` for servers),
//! when a call is cancelled, and, for background jobs, when the session
//! ends. In a sandbox nothing can leave the group (`setsid` and `setpgid`
//! fail); with `sandbox: full-access`, a process that leaves it on purpose
//! escapes.
//!
//! # Sandbox
//!
//! Unless `sandbox: full-access`, every command (background jobs too) is
//! confined by `amplifier-sandbox`, prepared once at mount: `read-only`
//! writes nothing, `workspace-write` (the default) writes beneath
//! `working_dir`, a private `TMPDIR` (removed with the module) and
//! `writable_paths`; both read only the system directories, `PATH`,
//! `working_dir` and `readable_paths` (or everything but the secret paths
//! with `read_everywhere`), open no socket but Unix ones unless `network`,
//! connect to no Unix socket but beneath the writable paths and
//! `unix_sockets` (a local database's socket is a way out of any sandbox),
//! and run without capabilities. Every command gets the allowlisted
//! environment (`amplifier_sandbox::env::INHERITED`, `inherit_env`, `env`),
//! whatever the mode. A kernel that can't confine fails the mount, unless
//! `allow_unsandboxed` (a warning, then unconfined). The description tells
//! the model which mode it is in.
//!
//! Cleanup: the SDK has no module-cleanup hook (the host's `shutdown`
//! only cancels running calls), so background jobs are killed in the
//! `Drop` of the tool's state, which runs when the host drops the module
//! at the end of the session.
//!
//! # Config
//!
//! The keys, their defaults and meanings: `amplifier.toml`, rendered as
//! `docs/reference/modules/tool-bash.md`. The loader fills in the defaults
//! written there, so `Config` has none but the computed ones
//! (`working_dir`, `timeout`).
//!
//! # Safety profiles
//!
//! Every program a line would run is checked: each simple command of the
//! line as a bash parser (tree-sitter-bash) reads it (in lists, pipelines,
//! `( … )`, `{ …; }`, loop, `if`, `case` and function bodies, `$(…)`,
//! backticks and `<(…)`, with quotes respected, so `echo "sudo"` is fine
//! and `ls; sudo x`, `$(sudo x)`, `"su"do x` are not), what wrappers run
//! (`env`, `sudo`, `nohup`, `timeout`, `xargs`, `find -exec`, …) and the
//! lines given to `bash -c`, `sh -c`, `eval`, `su -c`. See [`split`] and
//! [`policy`].
//!
//! | rule | strict | standard | permissive |
//! |---|---|---|---|
//! | recursive `rm` of `/`, `/*`, `~`, `~/*`, `$HOME`, the home directory's path or a top-level system directory (`/usr`, `/etc`, …; not `/tmp`); `rm --no-preserve-root`; `find / -delete` | deny | deny | – |
//! | formatting or partitioning: `mkfs*`, `mke2fs`, `mkswap`, `wipefs`, `fdisk`, `sfdisk`, `cfdisk`, `gdisk`, `sgdisk`, `parted`, `blkdiscard` | deny | deny | – |
//! | writing a device: `dd of=/dev/…`, `> /dev/…`, `tee`/`cp`/`mv`/`cat`/`shred` to `/dev/…` (not `/dev/null`, `/dev/zero`, `/dev/std*`, `/dev/tty`, `/dev/fd/*`, `/dev/shm/*`, …) | deny | deny | – |
//! | `chmod`/`chown`/`chgrp` on `/`, `~`, the home directory or a top-level system directory | deny | deny | – |
//! | `shutdown`, `reboot`, `halt`, `poweroff`, `init 0/6`, `systemctl poweroff/reboot/…` | deny | deny | – |
//! | fork bombs: a function that runs itself in a pipeline or in the background, whatever its name or syntax (`:(){ :\|:& };:`, `f(){ f & f; }`, `function f { f \| f & }`); not plain recursion (`f(){ f; }`) | deny | deny | – |
//! | privilege escalation: `sudo`, `sudoedit`, `su`, `doas`, `pkexec`, `run0`, `visudo` | deny | – (the command it runs is checked) | – |
//! | accounts: `passwd`, `chpasswd`, `useradd`, `usermod`, `userdel`, `groupadd`, … | deny | – | – |
//! | `mount`, `umount`, `swapon`, `swapoff` | deny | – | – |
//! | recursive `rm` of the working directory or its parent: `.`, `*`, `./*`, `.*`, `..`, `$PWD` | deny | – | – |
//! | a script fed to a shell through a pipe, its text unchecked: piped into a shell or interpreter that reads its program from stdin (`curl … \| sh`, `… \| base64 -d \| bash`, `… \| sh -s`, `… \| python3`, `… \| python -`, `… \| perl`, `… \| node`), or run from `<(…)` (`bash <(curl …)`); not `… \| python3 -m json.tool`, `… \| sh -c '…'`, `… \| bash script.sh` | deny | – | – |
//! | a command name known only at run time: `$CMD args`, `$(…) args` | deny | – | – |
//! | a line that can't be parsed (unterminated quote or substitution, or syntax tree-sitter-bash doesn't know: `cat <<A <<B`, `<>`) | deny | deny | deny if any pattern is set |
//!
//! Network tools (`curl`, `wget`, `ssh`, `nc`) are not denied by any
//! profile: a coding agent needs them, and a determined command reaches the
//! network anyway (`python -c`, `git`). Deny them with `denied_commands`,
//! or use `allowed_commands`.
//!
//! **Patterns** (`allowed_commands`, `denied_commands`) match a whole simple
//! command, words joined by single spaces, quotes removed. `*` matches any
//! text; a trailing ` *` also matches nothing (`git *` matches `git`); one
//! word without `*` names a program (`curl` means `curl *`). A denied
//! pattern also matches the command by its base name (`/usr/bin/curl x`
//! matches `curl`); an allowed pattern only as written. With
//! `allowed_commands` set, every program the line runs must match one,
//! the wrapped ones included (`timeout 5 make` needs `timeout *` and
//! `make`). The profile's rules come first, then `denied_commands`, then
//! `allowed_commands`: a deny always wins over an allow.
//!
//! The rules are a guard-rail against a model's mistakes, not a sandbox: a
//! command can write a script and run it.
//!
//! # Differences from upstream
//!
//! Upstream's `unrestricted` profile and `safety_overrides {allow, block}`
//! don't exist here: `permissive` with no patterns runs everything, and
//! `allowed_commands` is a real allow-list (upstream's only bypasses the
//! block list), so a deny always wins. `require_approval` is not a key:
//! approval belongs to hooks on `tool:pre`. Upstream's
//! `session.working_dir` capability is not read.

mod exec;
pub mod policy;
pub mod split;

#[cfg(test)]
mod tool_tests;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use amplifier_sandbox::process::Ending;
use amplifier_sandbox::workspace::{self, Mode};
use amplifier_sandbox::Sandbox;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::exec::{BackgroundJobs, Launch};
use crate::policy::{Policy, Profile};

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    /// Default: the current directory.
    #[serde(default)]
    working_dir: Option<PathBuf>,
    /// Seconds; default [`DEFAULT_TIMEOUT`], or `max_timeout` if that is smaller.
    #[serde(default)]
    timeout: Option<f64>,
    /// Seconds.
    max_timeout: f64,
    max_output_chars: usize,
    safety_profile: Profile,
    allowed_commands: Vec<String>,
    denied_commands: Vec<String>,
    sandbox: Mode,
    network: bool,
    writable_paths: Vec<String>,
    readable_paths: Vec<String>,
    protected_paths: Vec<String>,
    unix_sockets: Vec<String>,
    read_everywhere: bool,
    #[serde(default)]
    max_processes: Option<u64>,
    allow_unsandboxed: bool,
    inherit_env: Vec<String>,
    env: BTreeMap<String, String>,
}

/// Seconds a call may run when neither it nor the config says.
const DEFAULT_TIMEOUT: f64 = 30.0;

#[derive(Debug, Deserialize)]
struct Input {
    command: String,
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    run_in_background: bool,
}

struct Bash {
    launch: Launch,
    /// What `launch.sandbox` enforces, for the description: the mode, or
    /// why commands run unconfined.
    confinement: String,
    /// The `TMPDIR` of confined commands; removed with the module.
    _tmp: Option<tempfile::TempDir>,
    timeout: f64,
    max_timeout: f64,
    max_output_chars: usize,
    policy: Policy,
    /// Killed when this is dropped, with the module.
    jobs: BackgroundJobs,
}

fn invalid_config(message: impl Into<String>) -> ModuleError {
    ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for tool-bash: {}", message.into()))
}

impl Bash {
    fn new(config: Config) -> ModuleResult<Bash> {
        let cwd = std::env::current_dir().map_err(|err| invalid_config(format!("no current directory: {err}")))?;
        let working_dir = match &config.working_dir {
            Some(dir) => cwd.join(dir),
            None => cwd.clone(),
        };
        if !working_dir.is_dir() {
            return Err(invalid_config(format!("working_dir {} is not an existing directory", working_dir.display())));
        }
        let positive = |key: &str, value: f64| {
            if value.is_finite() && value > 0.0 {
                Ok(())
            } else {
                Err(invalid_config(format!("{key} must be a positive number of seconds, not {value}")))
            }
        };
        positive("max_timeout", config.max_timeout)?;
        let timeout = config.timeout.unwrap_or(DEFAULT_TIMEOUT.min(config.max_timeout));
        positive("timeout", timeout)?;
        if timeout > config.max_timeout {
            return Err(invalid_config(format!(
                "timeout ({}) is larger than max_timeout ({})",
                seconds(timeout),
                seconds(config.max_timeout)
            )));
        }
        if config.max_output_chars == 0 {
            return Err(invalid_config("max_output_chars must be at least 1"));
        }
        let home = std::env::var("HOME").ok().filter(|h| h.starts_with('/'));
        let mut env = config.env.clone();
        let (sandbox, confinement, tmp) = confine(&config, &cwd, home.as_deref(), &working_dir, &mut env)?;
        let policy = Policy::new(config.safety_profile, &config.allowed_commands, &config.denied_commands, home)
            .map_err(invalid_config)?;
        let mut inherit_env: Vec<String> = amplifier_sandbox::env::INHERITED.iter().map(|&key| key.into()).collect();
        inherit_env.extend(config.inherit_env);
        Ok(Bash {
            launch: Launch { dir: working_dir, sandbox, inherit_env, env },
            confinement,
            _tmp: tmp,
            timeout,
            max_timeout: config.max_timeout,
            max_output_chars: config.max_output_chars,
            policy,
            jobs: BackgroundJobs::default(),
        })
    }

    fn working_dir(&self) -> &Path {
        &self.launch.dir
    }

    fn description(&self) -> String {
        let profile = match self.policy.profile() {
            Profile::Strict => {
                "strict: no sudo/su, no account or mount changes, no recursive delete of /, ~, system \
                 directories or the working directory, no disk formatting or device writes, no scripts piped into a \
                 shell (curl | sh)"
            }
            Profile::Standard => {
                "standard: no recursive delete of /, ~ or system directories, no disk formatting or device \
                 writes, no chmod/chown of system directories, no shutdown, no fork bombs"
            }
            Profile::Permissive => "permissive: only the configured patterns are refused",
        };
        format!(
            "Runs a bash command line (`bash -c`) in {dir} and returns {{stdout, stderr, exit_code}}; a non-zero \
             exit code is a failed result with the same output. Pipes, redirects, &&, $(...) all work. Each stream \
             keeps at most {cap} characters (the middle is cut, marked `…[cut N chars]…`): filter long output \
             with grep/head/tail. Stdin is /dev/null, so never run interactive commands. `timeout` (seconds, \
             default {timeout}, at most {max}) kills the command and everything it started. Commands left running \
             with `&` are killed when the command ends: for servers and watchers use `run_in_background: true`, \
             which returns {{pid, started: true}} at once, discards the output (redirect it to a file to keep it) \
             and kills the process when the session ends. Safety profile {profile}; refused commands never run. \
             {confinement}",
            confinement = self.confinement,
            dir = self.working_dir().display(),
            cap = self.max_output_chars,
            timeout = seconds(self.timeout),
            max = seconds(self.max_timeout),
        )
    }

    async fn run(&self, input: Input) -> ToolResult {
        let timeout = input.timeout.unwrap_or(self.timeout);
        if !(timeout.is_finite() && timeout > 0.0 && timeout <= self.max_timeout) {
            return ToolResult::error(
                "InvalidInput",
                format!("timeout must be more than 0 and at most {} seconds, not {timeout}", seconds(self.max_timeout)),
            );
        }
        if let Err(reason) = self.policy.check(&input.command) {
            return ToolResult::error("Denied", format!("command not run: {reason}"));
        }
        if input.run_in_background {
            return match self.jobs.start(&self.launch, &input.command) {
                Ok(pid) => ToolResult::ok(json!({"pid": pid, "started": true})),
                Err(err) => cannot_start(self.working_dir(), err),
            };
        }
        let finished = match exec::run(
            &self.launch,
            &input.command,
            Duration::from_secs_f64(timeout),
            self.max_output_chars,
        )
        .await
        {
            Ok(finished) => finished,
            Err(err) => return cannot_start(self.working_dir(), err),
        };
        match finished.ending {
            Ending::Exited(0) => {
                ToolResult::ok(json!({"stdout": finished.stdout, "stderr": finished.stderr, "exit_code": 0}))
            }
            Ending::Exited(code) => failed(
                "CommandFailed",
                format!("command exited with status {code}"),
                json!({"stdout": finished.stdout, "stderr": finished.stderr, "exit_code": code}),
            ),
            Ending::TimedOut => {
                let message = format!("command timed out after {} s; its process group was killed", seconds(timeout));
                let output = json!({
                    "error": message,
                    "stdout": finished.stdout,
                    "stderr": finished.stderr,
                    "exit_code": null,
                });
                failed("Timeout", message, output)
            }
        }
    }
}

/// The private `TMPDIR`s: `amplifier-bash-<amplifier's pid>-<random>`.
const TMPDIR_PREFIX: &str = "amplifier-bash-";

/// The sandbox `config` asks for, what to tell the model about it, and the
/// private `TMPDIR` (set in `env`) of a workspace-write sandbox.
fn confine(
    config: &Config,
    cwd: &Path,
    home: Option<&str>,
    working_dir: &Path,
    env: &mut BTreeMap<String, String>,
) -> ModuleResult<(Option<Sandbox>, String, Option<tempfile::TempDir>)> {
    let mode = config.sandbox;
    if mode == Mode::FullAccess {
        return Ok((None, "Commands run unconfined (sandbox: full-access).".into(), None));
    }
    let resolve = |path: &String| {
        let path = amplifier_sandbox::expand_home(path, home.map(Path::new))
            .ok_or_else(|| invalid_config(format!("`{path}` needs HOME, which is not set")))?;
        Ok::<_, ModuleError>(cwd.join(path))
    };
    let resolve_all = |paths: &[String]| paths.iter().map(resolve).collect::<ModuleResult<Vec<_>>>();
    let mut tmp = None;
    if mode == Mode::WorkspaceWrite {
        let dir = workspace::private_tmpdir(TMPDIR_PREFIX)
            .map_err(|err| invalid_config(format!("cannot create the commands' TMPDIR: {err}")))?;
        env.insert("TMPDIR".into(), dir.path().display().to_string());
        tmp = Some(dir);
    }
    let extras = workspace::Extras {
        writable: resolve_all(&config.writable_paths)?,
        readable: resolve_all(&config.readable_paths)?,
        unix_sockets: resolve_all(&config.unix_sockets)?,
        protected: config.protected_paths.clone(),
        read_everywhere: config.read_everywhere,
        network: config.network,
        max_processes: config.max_processes,
    };
    let policy = workspace::policy(mode, working_dir, tmp.as_ref().map(tempfile::TempDir::path), extras)
        .expect("a confined mode has a policy");
    let network = if config.network { "may" } else { "can't" };
    match Sandbox::new(policy) {
        Ok(sandbox) => {
            let writes = if mode == Mode::ReadOnly {
                "write no file"
            } else {
                "write only beneath the working directory and $TMPDIR"
            };
            let protected = match mode == Mode::WorkspaceWrite && !config.protected_paths.is_empty() {
                true if sandbox.keeps_read_only() => format!(" (but not {})", config.protected_paths.join(", ")),
                true => {
                    tracing::warn!(
                        "tool-bash: this machine allows no mount namespace, so commands can write {}",
                        config.protected_paths.join(", ")
                    );
                    String::new()
                }
                false => String::new(),
            };
            let confinement = format!(
                "Commands are sandboxed ({}): they {writes}{protected}, read only system and listed directories, and \
                 {network} use the network; a `Permission denied`, `Read-only file system` or `Operation not \
                 permitted` outside them is the sandbox.",
                mode.name()
            );
            Ok((Some(sandbox), confinement, tmp))
        }
        Err(err) => Ok((None, unconfined(&err, mode, config.allow_unsandboxed)?, tmp)),
    }
}

/// What happens when the sandbox can't be made: the mount fails, or, if
/// the plan allows it, a warning now and unconfined commands.
fn unconfined(err: &amplifier_sandbox::SandboxError, mode: Mode, allowed: bool) -> ModuleResult<String> {
    if !allowed {
        return Err(invalid_config(format!(
            "{err}, so `sandbox: {}` can't be enforced; set `allow_unsandboxed: true` to run commands unconfined \
             anyway, or `sandbox: full-access`",
            mode.name()
        )));
    }
    tracing::warn!("tool-bash: {err}; commands run unconfined (allow_unsandboxed: true)");
    Ok("Commands run unconfined (the sandbox is not available here).".into())
}

/// A failed result whose output is still the structured command output.
fn failed(kind: &str, message: String, output: Value) -> ToolResult {
    let mut error = JsonMap::new();
    error.insert("message".into(), Value::String(message));
    error.insert("type".into(), Value::String(kind.into()));
    ToolResult { success: false, output: Some(output), error: Some(error), images: Vec::new() }
}

fn cannot_start(dir: &std::path::Path, err: std::io::Error) -> ToolResult {
    ToolResult::error("SpawnFailed", format!("cannot start bash in {}: {err}", dir.display()))
}

/// `30` or `0.5`.
fn seconds(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

impl Tool for Bash {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "bash",
            self.description(),
            json!({
                "type": "object",
                "properties": {
                    "command": {"type": "string", "minLength": 1, "description": "The bash command line to run"},
                    "timeout": {
                        "type": "number",
                        "exclusiveMinimum": 0,
                        "maximum": self.max_timeout,
                        "description": format!("Seconds before the command and everything it started are killed (default {})", seconds(self.timeout)),
                    },
                    "run_in_background": {
                        "type": "boolean",
                        "default": false,
                        "description": "Start detached and return {pid, started: true} at once; killed when the session ends",
                    },
                },
                "required": ["command"],
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        match serde_json::from_value::<Input>(input) {
            Ok(input) => self.run(input).await,
            Err(err) => ToolResult::error("InvalidInput", format!("invalid input for bash: {err}")),
        }
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    let config: Config = ctx.config()?;
    Ok(Tools::new().with(Bash::new(config)?))
}

export_module!(tool => mount);
