//! Ctrl-C and timeouts end what never returns: a tool that awaits forever,
//! one that blocks its thread, a shell command, a provider whose server
//! accepts and never answers. The real binary, real signals, a real TCP
//! server and tool-bash's real process groups.

mod common;

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// Generous: a first run may build the plugins it loads.
const PATIENCE: Duration = Duration::from_secs(180);

fn stuck_tools(config: &str) -> String {
    format!("  - {{module: tool-stuck, source: \"{}\"{config}}}", fixture("tool-stuck"))
}

/// `plan_yaml` with `settings` (YAML lines, indented by two) added to `session:`.
fn plan_with(settings: &str, providers: &str, tools: &str) -> String {
    plan_yaml(providers, tools, "  []").replacen("session:\n", &format!("session:\n{settings}"), 1)
}

/// A running `amplifier run --output-format jsonl`, its stdout and stderr
/// read line by line as they come.
struct Run {
    child: Child,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    lines: Vec<Value>,
}

fn lines_of(pipe: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

impl Run {
    fn start(dir: &Path, plan: &str) -> Run {
        std::fs::write(dir.join("plan.yaml"), plan).unwrap();
        let mut child = amplifier(dir)
            .env("AMPLIFIER_STATE_DIR", dir.join("state"))
            .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = lines_of(child.stdout.take().unwrap());
        let stderr = lines_of(child.stderr.take().unwrap());
        Run { child, stdout, stderr, lines: Vec::new() }
    }

    /// Reads events until one named `event`.
    fn wait_for_event(&mut self, event: &str) {
        loop {
            let line = self.stdout.recv_timeout(PATIENCE).unwrap_or_else(|err| panic!("no {event} event: {err}"));
            let value: Value = serde_json::from_str(&line).unwrap();
            self.lines.push(value.clone());
            if value["event"] == event {
                return;
            }
        }
    }

    /// Reads stderr until a line containing `text`.
    fn wait_for_stderr(&self, text: &str) {
        loop {
            let line = self.stderr.recv_timeout(PATIENCE).unwrap_or_else(|err| panic!("no `{text}` on stderr: {err}"));
            if line.contains(text) {
                return;
            }
        }
    }

    fn interrupt(&self) {
        // SAFETY: kill has no memory-safety preconditions.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) }, 0);
    }

    fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Waits for the exit, then reads the rest of the events.
    fn finish(mut self) -> (ExitStatus, Vec<Value>) {
        let status = self.child.wait().unwrap();
        loop {
            match self.stdout.recv_timeout(Duration::from_secs(5)) {
                Ok(line) => self.lines.push(serde_json::from_str(&line).unwrap()),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("stdout stayed open after the exit"),
            }
        }
        (status, self.lines)
    }
}

/// The processes of group `group` that are not zombies, from `/proc`.
fn living_members(group: i32) -> Vec<String> {
    let mut living = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // `pid (comm) state ppid pgrp …`; comm may hold spaces, so split after it.
        let Some((_, rest)) = stat.rsplit_once(") ") else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2) == Some(&group.to_string().as_str()) && fields[0] != "Z" && fields[0] != "X" {
            living.push(stat.split(' ').take(2).collect::<Vec<_>>().join(" "));
        }
    }
    living
}

fn session_id(lines: &[Value]) -> String {
    lines.iter().find_map(|l| l["data"]["session_id"].as_str()).unwrap().to_owned()
}

fn transcript(dir: &Path, id: &str) -> String {
    let output = amplifier(dir)
        .env("AMPLIFIER_STATE_DIR", dir.join("state"))
        .args(["session", "show", id, "--transcript"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

#[test]
fn a_tool_that_never_returns_is_stopped_by_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{tool_calls: [{name: hang}]}, {tool_calls: [{name: block}]}, {text: done}]"#;
    let plan = plan_with("  tool_timeout: 1\n  tool_timeouts: {block: 0.5}\n", &scripted(script), &stuck_tools(""));
    let output = run_plan(dir.path(), &plan);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    let hang = &tool_event(&lines, "call_1")["data"]["error"];
    assert_eq!(hang["type"], "Timeout");
    assert_eq!(hang["msg"], "tool 'hang' did not finish within 1s and was stopped (session.tool_timeout)");
    // Blocking its thread does not keep the host waiting either.
    let block = &tool_event(&lines, "call_2")["data"]["error"];
    assert_eq!(block["type"], "Timeout");
    assert_eq!(block["msg"], "tool 'block' did not finish within 500ms and was stopped (session.tool_timeouts.block)");
    // The model read both results and the turn went on.
    assert_eq!(lines.last().unwrap()["data"]["response"], "done");
}

#[test]
fn the_first_ctrl_c_gives_a_command_its_grace_then_kills_its_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    // Not `exec`: the shell waits on a child, and both must die.
    let command = format!("echo $$ > {}; sleep 1000; echo survived", pid_file.display());
    let script = format!(r#"[{{tool_calls: [{{name: bash, arguments: {{command: "{command}"}}}}]}}, {{text: never}}]"#);
    let bash = format!("  - {{module: tool-bash, source: \"{}\"}}", plugin("tool-bash"));
    let mut run = Run::start(dir.path(), &plan_with("  cancel_grace: 0.5\n", &scripted(&script), &bash));
    run.wait_for_event("tool:pre");
    while std::fs::read_to_string(&pid_file).map_or(true, |pid| pid.trim().is_empty()) {
        assert!(run.is_running(), "the run ended before the command started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let group: i32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    run.interrupt();
    run.wait_for_stderr("cancelling: running tools get 500ms to finish");
    let (status, lines) = run.finish();

    assert_eq!(status.code(), Some(130));
    let result = &tool_event(&lines, "call_1")["data"]["error"];
    assert_eq!(result["type"], "Cancelled");
    assert!(result["msg"].as_str().unwrap().contains("ran past the 500ms grace period"), "{result}");
    assert_eq!(lines.last().unwrap()["data"]["status"], "cancelled");
    // The loop announced the cancel it acted on, as upstream's loops do.
    let requested = lines.iter().find(|l| l["event"] == "cancel:requested").expect("cancel:requested");
    assert_eq!(requested["data"]["state"], "graceful");
    let completed = lines.iter().find(|l| l["event"] == "cancel:completed").expect("cancel:completed");
    assert_eq!(completed["data"]["was_immediate"], false);
    // tool-bash put the command in a process group of its own: the shell
    // and its `sleep` are gone (dead, if not yet reaped).
    let started = std::time::Instant::now();
    while !living_members(group).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(5), "survivors: {:?}", living_members(group));
        std::thread::sleep(Duration::from_millis(50));
    }
    // The cancelled call is in the stored history, paired with its call.
    let transcript = transcript(dir.path(), &session_id(&lines));
    assert!(transcript.contains("tool 'bash' was cancelled"), "{transcript}");
}

#[test]
fn a_second_ctrl_c_drops_a_provider_call_whose_server_never_answers() {
    let dir = tempfile::tempdir().unwrap();
    let server = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/v1", server.local_addr().unwrap());
    let provider = format!(
        "  - module: provider-openai\n    source: \"{}\"\n    config: {{base_url: \"{base}\", api_key: none, default_model: m}}\n",
        plugin("provider-openai")
    );
    // A grace period longer than the test: only the second Ctrl-C can end it.
    let mut run = Run::start(dir.path(), &plan_with("  cancel_grace: 600\n", &provider, ""));
    // Accepted, read, never answered; held open until the test ends.
    let (_connection, _) = server.accept().unwrap();
    run.interrupt();
    run.wait_for_stderr("cancelling:");
    assert!(run.is_running(), "the first Ctrl-C waits for the grace period");
    run.interrupt();
    run.wait_for_stderr("stopping now");
    let (status, lines) = run.finish();
    assert_eq!(status.code(), Some(130));
    assert_eq!(lines.last().unwrap()["data"]["status"], "cancelled");
}

#[test]
fn a_second_ctrl_c_abandons_a_tool_that_blocks_its_thread() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{tool_calls: [{name: block}]}, {text: never}]"#;
    let plan = plan_with("  cancel_grace: 600\n  tool_timeout: null\n", &scripted(script), &stuck_tools(""));
    let mut run = Run::start(dir.path(), &plan);
    run.wait_for_event("tool:pre");
    run.interrupt();
    run.wait_for_stderr("cancelling:");
    run.interrupt();
    run.wait_for_stderr("stopping now");
    let (status, lines) = run.finish();
    assert_eq!(status.code(), Some(130));
    let result = &tool_event(&lines, "call_1")["data"]["error"];
    assert_eq!(result, &json!({"type": "Cancelled", "msg": "tool 'block' was cancelled (the session was stopped)"}));
    let completed = lines.iter().find(|l| l["event"] == "cancel:completed").expect("cancel:completed");
    assert_eq!(completed["data"]["was_immediate"], true, "{completed}");
}
