//! The tool itself: real `bash` processes, on the plugin's runtime.

use std::path::Path;
use std::time::{Duration, Instant};

use amplifier_sdk::prelude::*;
use amplifier_sdk::runtime;
use amplifier_sdk::testing::{config_with_defaults, with_defaults};

use crate::{Bash, Config};

const MANIFEST: &str = include_str!("../amplifier.toml");

/// `config` as the loader hands it over: with the manifest's defaults.
fn config(config: Value) -> Config {
    config_with_defaults(MANIFEST, config)
}

fn tool(dir: &Path, mut config: Value) -> Bash {
    config["working_dir"] = json!(dir);
    Bash::new(self::config(config)).unwrap()
}

fn call(tool: &Bash, input: Value) -> ToolResult {
    runtime().block_on(tool.execute(input))
}

fn message(result: &ToolResult) -> String {
    result.error.as_ref().and_then(|e| e["message"].as_str()).unwrap_or_default().to_owned()
}

fn read_pid(path: &Path) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            if let Ok(pid) = text.trim().parse() {
                return pid;
            }
        }
        assert!(Instant::now() < deadline, "{} was never written", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Running (a zombie waiting for its parent to reap it is dead).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or_default().trim_start().chars().next();
            !matches!(state, Some('Z' | 'X' | 'x'))
        }
    }
}

#[track_caller]
fn assert_dies(pid: i32) {
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(pid) {
        assert!(Instant::now() < deadline, "process {pid} is still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    // And kill(pid, 0) agrees once it is reaped (or it is a zombie that can't run).
    // SAFETY: signal 0 only checks the pid.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    assert!(!exists || !alive(pid));
}

/// Running processes whose process group is `pgid`.
fn group_members(pgid: i32) -> Vec<i32> {
    let entries = std::fs::read_dir("/proc").unwrap().flatten();
    let pids = entries.filter_map(|entry| entry.file_name().to_string_lossy().parse::<i32>().ok());
    // SAFETY: getpgid has no memory-safety preconditions.
    pids.filter(|&pid| unsafe { libc::getpgid(pid) } == pgid && alive(pid)).collect()
}

#[track_caller]
fn assert_group_gone(pgid: i32) {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let members = group_members(pgid);
        if members.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "process group {pgid} still has running members: {members:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn returns_stdout_stderr_and_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let result = call(&bash, json!({"command": "echo out; echo err >&2"}));
    assert!(result.success, "{result:?}");
    assert_eq!(result.output.unwrap(), json!({"stdout": "out\n", "stderr": "err\n", "exit_code": 0}));

    let result = call(&bash, json!({"command": "echo partial; echo oops >&2; exit 3"}));
    assert!(!result.success);
    assert_eq!(result.output.clone().unwrap(), json!({"stdout": "partial\n", "stderr": "oops\n", "exit_code": 3}));
    assert_eq!(message(&result), "command exited with status 3");
    assert_eq!(result.error.unwrap()["type"], "CommandFailed");

    // A shell killed by a signal reports 128 + signal, as bash does.
    let result = call(&bash, json!({"command": "kill -9 $$"}));
    assert_eq!(result.output.unwrap()["exit_code"], 137);
}

#[test]
fn both_streams_are_capped_with_the_cut_marked() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({"max_output_chars": 100}));
    let command = "head -c 5000 /dev/zero | tr '\\0' a; head -c 300 /dev/zero | tr '\\0' e >&2";
    let output = call(&bash, json!({"command": command})).output.unwrap();
    let a = "a".repeat(50);
    assert_eq!(output["stdout"], format!("{a}\n…[cut 4900 chars]…\n{a}"));
    let e = "e".repeat(50);
    assert_eq!(output["stderr"], format!("{e}\n…[cut 200 chars]…\n{e}"));

    // The default keeps 30,000 characters of each.
    let bash = tool(dir.path(), json!({}));
    let output = call(&bash, json!({"command": "seq 1 20000"})).output.unwrap();
    let stdout = output["stdout"].as_str().unwrap();
    assert!(stdout.starts_with("1\n2\n3\n") && stdout.ends_with("19999\n20000\n"));
    let cut: usize = stdout.split("…[cut ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let total = (1..=20000).map(|n: u32| n.to_string().len() + 1).sum::<usize>();
    assert_eq!(cut, total - 30_000);
}

#[test]
fn timeout_kills_a_process_group_that_ignores_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let command = "echo started; echo $$ > shell.pid; \
                   bash -c 'trap \"\" TERM; echo $$ > inner.pid; sleep 30'";
    let started = Instant::now();
    let result = call(&bash, json!({"command": command, "timeout": 1}));
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    // SIGTERM was ignored, so only the SIGKILL after the grace period ended it.
    assert!(elapsed >= Duration::from_secs(1) + amplifier_sandbox::process::TERM_GRACE, "took {elapsed:?}");
    assert!(!result.success);
    assert_eq!(message(&result), "command timed out after 1 s; its process group was killed");
    assert_eq!(result.error.as_ref().unwrap()["type"], "Timeout");
    let output = result.output.unwrap();
    assert_eq!(output["stdout"], "started\n", "the output so far is kept");
    assert_eq!(output["exit_code"], Value::Null);
    assert!(output["error"].as_str().unwrap().contains("timed out after 1 s"));
    let shell = read_pid(&dir.path().join("shell.pid"));
    assert_dies(shell);
    assert_dies(read_pid(&dir.path().join("inner.pid")));
    assert_group_gone(shell);
}

#[test]
fn timeout_kills_grandchildren_too() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let command = "trap '' TERM; sh -c 'sleep 30 & echo $! > sleep.pid; wait'";
    let started = Instant::now();
    let result = call(&bash, json!({"command": command, "timeout": 1.5}));
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    assert_eq!(message(&result), "command timed out after 1.5 s; its process group was killed");
    assert_dies(read_pid(&dir.path().join("sleep.pid")));
}

#[test]
fn what_a_foreground_command_leaves_running_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let started = Instant::now();
    let result = call(&bash, json!({"command": "sleep 30 & echo $! > left.pid; echo done"}));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(result.output.unwrap()["stdout"], "done\n");
    assert_dies(read_pid(&dir.path().join("left.pid")));
}

#[test]
fn a_cancelled_call_kills_its_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let call = bash.execute(json!({"command": "echo $$ > shell.pid; sleep 30"}));
    let cancelled = runtime().block_on(async { tokio::time::timeout(Duration::from_millis(500), call).await });
    assert!(cancelled.is_err(), "the call should still be running");
    assert_dies(read_pid(&dir.path().join("shell.pid")));
}

#[test]
fn commands_run_in_the_working_dir() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let bash = tool(&dir.path().join("sub"), json!({}));
    let output = call(&bash, json!({"command": "pwd -P; echo x > made.txt"})).output.unwrap();
    let expected = dir.path().join("sub").canonicalize().unwrap();
    assert_eq!(output["stdout"], format!("{}\n", expected.display()));
    assert!(dir.path().join("sub/made.txt").exists());

    let missing = config(json!({"working_dir": dir.path().join("nope")}));
    let error = Bash::new(missing).err().unwrap();
    assert!(error.message.contains("working_dir") && error.message.contains("nope"), "{}", error.message);
}

#[test]
fn background_runs_return_at_once_and_die_with_the_tool() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let started = Instant::now();
    let result = call(&bash, json!({"command": "echo $$ > bg.pid; sleep 30 & sleep 30", "run_in_background": true}));
    assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
    assert!(result.success, "{result:?}");
    let output = result.output.unwrap();
    assert_eq!(output["started"], true);
    let pid = output["pid"].as_i64().unwrap() as i32;
    // The pid given leads the group the shell runs in.
    // SAFETY: getpgid has no memory-safety preconditions.
    assert_eq!(unsafe { libc::getpgid(read_pid(&dir.path().join("bg.pid"))) }, pid);
    assert!(alive(pid));
    assert_eq!(bash.jobs.groups(), [pid]);
    drop(bash);
    assert_dies(pid);
    assert_group_gone(pid);
}

#[test]
fn finished_background_jobs_are_forgotten() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let result = call(&bash, json!({"command": "true", "run_in_background": true}));
    assert!(result.success);
    let deadline = Instant::now() + Duration::from_secs(3);
    while !bash.jobs.groups().is_empty() {
        assert!(Instant::now() < deadline, "the finished job is still tracked");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn denied_commands_never_run_and_name_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({}));
    let result = call(&bash, json!({"command": "touch made; sudo ls"}));
    assert!(!result.success);
    assert_eq!(message(&result), "command not run: denied by safety profile strict: `sudo ls` (privilege escalation)");
    assert_eq!(result.error.unwrap()["type"], "Denied");
    assert!(!dir.path().join("made").exists());

    let bash = tool(dir.path(), json!({"safety_profile": "permissive", "denied_commands": ["touch *"]}));
    let result = call(&bash, json!({"command": "touch made", "run_in_background": true}));
    assert_eq!(message(&result), "command not run: denied by denied_commands pattern `touch *`: `touch made`");
    let result = call(&bash, json!({"command": "sudo -n true 2>/dev/null; echo ran"}));
    assert_eq!(result.output.unwrap()["stdout"], "ran\n");

    let bash = tool(dir.path(), json!({"allowed_commands": ["echo *"]}));
    assert!(call(&bash, json!({"command": "echo fine"})).success);
    let result = call(&bash, json!({"command": "echo fine | cat"}));
    assert_eq!(message(&result), "command not run: denied by allowed_commands: `cat` matches none of `echo *`");
}

#[test]
fn invalid_input_and_config_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bash = tool(dir.path(), json!({"max_timeout": 10}));
    let result = call(&bash, json!({"command": "true", "timeout": 11}));
    assert_eq!(message(&result), "timeout must be more than 0 and at most 10 seconds, not 11");
    let result = call(&bash, json!({"command": 3}));
    assert!(message(&result).starts_with("invalid input for bash:"));
    let spec = bash.spec();
    assert_eq!(spec.name, "bash");
    assert_eq!(spec.parameters["properties"]["timeout"]["maximum"], 10.0);

    let parse = |value: Value| serde_json::from_value::<Config>(with_defaults(MANIFEST, value));
    assert!(parse(json!({"safety_overrides": {}}))
        .unwrap_err()
        .to_string()
        .contains("unknown field `safety_overrides`"));
    let profile = parse(json!({"safety_profile": "unrestricted"}));
    assert!(profile.unwrap_err().to_string().contains("unknown variant `unrestricted`"));
    let patterns = config(json!({"working_dir": dir.path(), "denied_commands": [" "]}));
    assert!(Bash::new(patterns).err().unwrap().message.contains("denied_commands: a command pattern is empty"));
}

/// stdout of a successful call, or a panic with the whole result.
fn stdout(result: &ToolResult) -> String {
    let output = result.output.as_ref().expect("an output");
    output["stdout"].as_str().unwrap_or_default().to_owned()
}

fn stderr_of(result: &ToolResult) -> String {
    result.output.as_ref().and_then(|o| o["stderr"].as_str()).unwrap_or_default().to_owned()
}

/// The escape corpus, through the tool as a model would call it, with the
/// default config (`sandbox: workspace-write`, no network).
#[test]
fn sandboxed_commands_cannot_escape() {
    let workspace = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let bash = tool(workspace.path(), json!({"safety_profile": "permissive"}));
    assert!(bash.launch.sandbox.is_some(), "this kernel can't sandbox: {}", amplifier_sandbox::support().describe());

    // Writing inside works, and so does $TMPDIR; outside, nothing is written or removed.
    let inside = call(&bash, json!({"command": "echo hi > a.txt && mktemp && cat a.txt"}));
    assert!(inside.success, "{inside:?}");
    assert!(stdout(&inside).ends_with("hi\n"));
    let target = outside.path().join("x");
    std::fs::write(outside.path().join("keep"), "kept").unwrap();
    for command in [
        format!("echo no > {}", target.display()),
        format!("rm -rf {}", outside.path().display()),
        format!("cp a.txt {}/", outside.path().display()),
        "echo no > ~/amplifier-escape-test".to_string(),
    ] {
        let result = call(&bash, json!({"command": command}));
        assert!(!result.success, "`{command}` ran: {result:?}");
    }
    assert!(!target.exists());
    assert_eq!(std::fs::read_to_string(outside.path().join("keep")).unwrap(), "kept");

    // Secrets and the home directory stay unread; programs still run.
    for command in ["cat /etc/shadow", "ls ~/", "ls ~/.ssh", &format!("cat {}/keep", outside.path().display())] {
        let result = call(&bash, json!({"command": command}));
        assert!(!result.success, "`{command}` ran: {result:?}");
        assert!(stdout(&result).is_empty(), "`{command}` printed {}", stdout(&result));
    }

    // No network: a listener on 127.0.0.1 is out of reach.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = call(&bash, json!({"command": format!("echo hi > /dev/tcp/127.0.0.1/{port}")}));
    assert!(!connect.success);
    assert!(stderr_of(&connect).contains("Operation not permitted"), "{connect:?}");

    // Nothing leaves the process group, so nothing outlives the command.
    let marker = workspace.path().join("survivor.pid");
    let setsid =
        call(&bash, json!({"command": format!("setsid bash -c 'echo $$ > {}; sleep 60' &", marker.display())}));
    assert!(setsid.success, "{setsid:?}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!marker.exists(), "setsid started a process");
    let nohup = call(
        &bash,
        json!({"command": format!("nohup bash -c 'echo $$ > {}; sleep 60' >/dev/null 2>&1 & sleep 0.5", marker.display())}),
    );
    assert!(nohup.success, "{nohup:?}");
    assert_dies(read_pid(&marker));
}

#[test]
fn commands_get_only_the_allowed_environment() {
    let dir = tempfile::tempdir().unwrap();
    // Cargo gives every test process CARGO_PKG_NAME and friends: stand-ins for a key.
    assert!(std::env::var_os("CARGO_PKG_NAME").is_some());
    let bash = tool(dir.path(), json!({"inherit_env": ["CARGO_PKG_NAME"], "env": {"GREETING": "hi"}}));
    let result = call(&bash, json!({"command": "env"}));
    let mut names: Vec<String> =
        stdout(&result).lines().filter_map(|l| l.split('=').next()).map(String::from).collect();
    names.sort();
    let mut allowed: Vec<&str> = amplifier_sandbox::env::INHERITED.to_vec();
    // What bash sets itself, the configured ones and the private TMPDIR.
    allowed.extend(["PWD", "SHLVL", "_", "OLDPWD", "CARGO_PKG_NAME", "GREETING", "TMPDIR"]);
    for name in &names {
        assert!(allowed.contains(&name.as_str()), "{name} reached the command");
    }
    assert!(names.iter().any(|n| n == "GREETING") && names.iter().any(|n| n == "CARGO_PKG_NAME"), "{names:?}");
    assert!(!names.iter().any(|n| n == "CARGO_MANIFEST_DIR"));
}

#[test]
fn sandbox_modes_network_and_extra_paths() {
    let workspace = tempfile::tempdir().unwrap();
    let extra = tempfile::tempdir().unwrap();
    std::fs::write(extra.path().join("data"), "shared").unwrap();
    let read_only = tool(workspace.path(), json!({"sandbox": "read-only", "readable_paths": [extra.path()]}));
    let result = call(&read_only, json!({"command": format!("cat {}/data && touch new", extra.path().display())}));
    assert_eq!(stdout(&result), "shared");
    assert!(!result.success && !workspace.path().join("new").exists());
    assert!(read_only.spec().description.unwrap().contains("sandboxed (read-only)"));

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let writable = tool(
        workspace.path(),
        json!({"network": true, "writable_paths": [extra.path()], "safety_profile": "permissive"}),
    );
    let command = format!("echo hi > /dev/tcp/127.0.0.1/{port} && echo more >> {}/data", extra.path().display());
    let result = call(&writable, json!({"command": command}));
    assert!(result.success, "{result:?}");
    assert_eq!(std::fs::read_to_string(extra.path().join("data")).unwrap(), "sharedmore\n");

    let open = tool(workspace.path(), json!({"sandbox": "full-access"}));
    assert!(open.launch.sandbox.is_none());
    assert!(open.spec().description.unwrap().contains("unconfined"));
}

#[test]
fn a_kernel_without_landlock_refuses_to_mount_unless_the_plan_accepts_it() {
    use amplifier_sandbox::{SandboxError, Support};
    let old_kernel = SandboxError::Unsupported(Support { landlock: None, seccomp: true });
    let refused = crate::unconfined(&old_kernel, crate::Mode::WorkspaceWrite, false).unwrap_err();
    assert_eq!(
        refused.message,
        "invalid config for tool-bash: cannot confine commands: this kernel has no Landlock (Linux 5.13 or later with \
         `landlock` in its LSM list), so `sandbox: workspace-write` can't be enforced; set `allow_unsandboxed: true` \
         to run commands unconfined anyway, or `sandbox: full-access`"
    );
    let accepted = crate::unconfined(&old_kernel, crate::Mode::ReadOnly, true).unwrap();
    assert_eq!(accepted, "Commands run unconfined (the sandbox is not available here).");
}
