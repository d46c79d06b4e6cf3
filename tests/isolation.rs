//! `isolation: process`: a module in a child `amplifier` process. A native
//! crash there fails that module's calls, named by library and signal, and
//! the session goes on; a session runs the same with its modules isolated;
//! Ctrl-C reaches an isolated tool; no module process outlives its host.
//! The real binary, real cdylibs, real signals.

mod common;

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

const LIBRARY: &str = "libtool_panics.so";

fn panics_tool(config: &str) -> String {
    format!("  - {{module: tool-panics, source: \"{}\", isolation: process{config}}}", fixture("tool-panics"))
}

/// The processes whose parent is `parent` and that serve an isolated module.
fn module_processes(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(") ") else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if fields.get(1) == Some(&parent.to_string().as_str())
            && cmdline.split(|b| *b == 0).any(|arg| arg == b"isolated-module")
        {
            found.push(pid);
        }
    }
    found
}

/// Whether `pid` is gone (or a zombie nobody reaped yet).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
    }
}

fn wait_until_gone(pids: &[u32]) {
    // A module process gets 5 s to shut down once its host is gone; a
    // loaded CI machine has taken close to 10 s, so wait well past that.
    let started = Instant::now();
    while !pids.iter().all(|pid| gone(*pid)) {
        assert!(started.elapsed() < Duration::from_secs(30), "module processes still alive: {pids:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts `amplifier run` with jsonl output and waits for its first
/// `tool:pre`. It leads a process group of its own, as a shell's
/// foreground job does.
fn start_until_tool_pre(
    dir: &Path,
    plan: &str,
) -> (Child, std::io::Lines<std::io::BufReader<std::process::ChildStdout>>) {
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
    let mut child = amplifier(dir)
        .process_group(0)
        .env("AMPLIFIER_STATE_DIR", dir.join("state"))
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    for line in lines.by_ref() {
        if line.unwrap().contains(r#""event":"tool:pre""#) {
            return (child, lines);
        }
    }
    panic!("the run ended before a tool:pre event: {:?}", child.wait());
}

#[test]
fn a_native_crash_in_an_isolated_module_fails_its_calls_and_the_session_goes_on() {
    for (how, ending) in [
        ("segfault", "was killed by SIGSEGV (segmentation fault)"),
        ("abort", "was killed by SIGABRT (abort)"),
        ("exit", "exited with status 70 (the module called exit())"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let script = format!(
            r#"[{{tool_calls: [{{name: crash, arguments: {{how: {how}}}}}]}},
                {{tool_calls: [{{name: crash, arguments: {{how: {how}}}}}, {{name: echo, arguments: {{text: still}}}}]}},
                {{text: survived}}]"#
        );
        let plan = plan_yaml(&scripted(&script), &panics_tool(""), "  []");
        std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
        let output = amplifier(dir.path())
            .env("AMPLIFIER_STATE_DIR", dir.path().join("state"))
            .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"])
            .output()
            .unwrap();
        let err = stderr(&output);
        assert!(output.status.success(), "{how}: {:?}\n{err}", output.status);
        let lines = json_lines(&output);
        // The crashing call failed, naming the library and how its process ended.
        let crashed = &tool_event(&lines, "call_1")["data"]["error"];
        assert_eq!(crashed["type"], "crash", "{how}: {crashed}");
        let message = crashed["msg"].as_str().unwrap();
        assert!(message.starts_with("tool 'crash' (tool-panics) failed: the module's process (pid "), "{message}");
        assert!(message.contains(LIBRARY) && message.contains(ending), "{how}: {message}");
        // Later calls to that module fail at once with the same reason; the
        // other tools, and the session, go on.
        assert_eq!(&tool_event(&lines, "call_2")["data"]["error"], crashed);
        assert_eq!(tool_event(&lines, "call_3")["data"]["result"]["output"], "still");
        assert_eq!(lines.last().unwrap()["data"]["response"], "survived");
        // The module's process named its library too, before it died.
        if how != "exit" {
            assert!(err.contains("in plugin library ") && err.contains(LIBRARY), "{how}: {err}");
        }
        // The failure is in the stored transcript, paired with its call.
        let session = lines.iter().find_map(|l| l["data"]["session_id"].as_str()).unwrap();
        let shown = amplifier(dir.path())
            .env("AMPLIFIER_STATE_DIR", dir.path().join("state"))
            .args(["session", "show", session, "--transcript"])
            .output()
            .unwrap();
        assert!(stdout(&shown).contains(ending), "{how}: {}", stdout(&shown));
    }
}

#[test]
fn a_crash_while_an_isolated_module_mounts_is_a_load_failure() {
    let dir = tempfile::tempdir().unwrap();
    let plan =
        plan_yaml(&scripted(r#"[{text: "still here"}]"#), &panics_tool(", config: {crash_at_mount: segfault}"), "  []");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("1 module(s) failed to load"), "{err}");
    assert!(err.contains("(tools[1]): module 'tool-panics' did not mount: the module's process (pid "), "{err}");
    assert!(err.contains("was killed by SIGSEGV (segmentation fault)") && err.contains(LIBRARY), "{err}");

    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--allow-partial", "hi"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "still here");
}

/// The events of a run, without what differs between any two runs.
fn normalized(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .map(|line| {
            let mut line = line.clone();
            if let Some(data) = line["data"].as_object_mut() {
                for volatile in ["timestamp", "session_id", "duration_ms", "elapsed_ms"] {
                    data.remove(volatile);
                }
            }
            line
        })
        .collect()
}

#[test]
fn a_session_runs_the_same_with_every_module_isolated() {
    // loop-streaming asks the provider to stream, so deltas cross two
    // module processes (provider to host, host to the orchestrator).
    let script =
        r#"[{tool_calls: [{name: echo, arguments: {text: ping}}]}, {text: "pong, streamed"}], stream_chunk_chars: 3"#;
    let hooks = format!("  - {{module: hook-noop, source: \"{}\"}}", fixture("hook-noop"));
    let in_process = plan_yaml(&scripted(script), "", &hooks).replace("loop-basic", "loop-streaming");
    let isolated = in_process
        .replace(", source: \"", ", isolation: process, source: \"")
        .replace("\n    source: \"", "\n    isolation: process\n    source: \"");
    // The orchestrator, the context, the provider, the tool and the hook.
    assert_eq!(isolated.matches("isolation: process").count(), 5, "{isolated}");
    let runs: Vec<Vec<Value>> = [in_process, isolated]
        .iter()
        .map(|plan| {
            let dir = tempfile::tempdir().unwrap();
            let output = run_plan(dir.path(), plan);
            assert!(output.status.success(), "{}", stderr(&output));
            normalized(&json_lines(&output))
        })
        .collect();
    assert!(runs[0].iter().any(|l| l["event"] == "tool:post"), "{:?}", runs[0]);
    let deltas = runs[1].iter().filter(|l| l["event"] == "content_block:delta").count();
    assert!(deltas >= 5, "{deltas} deltas: {:?}", runs[1]);
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[1].last().unwrap()["data"]["response"], "pong, streamed");
}

#[test]
fn ctrl_c_reaches_an_isolated_tool_and_its_process_ends_with_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let command = format!("echo $$ > {}; sleep 1000; echo survived", pid_file.display());
    let script = format!(r#"[{{tool_calls: [{{name: bash, arguments: {{command: "{command}"}}}}]}}, {{text: never}}]"#);
    let bash = format!("  - {{module: tool-bash, source: \"{}\", isolation: process}}", plugin("tool-bash"));
    let plan =
        plan_yaml(&scripted(&script), &bash, "  []").replacen("session:\n", "session:\n  cancel_grace: 0.5\n", 1);
    let (mut run, lines) = start_until_tool_pre(dir.path(), &plan);
    while std::fs::read_to_string(&pid_file).map_or(true, |pid| pid.trim().is_empty()) {
        assert!(run.try_wait().unwrap().is_none(), "the run ended before the command started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let shell: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    let modules = module_processes(run.id());
    assert_eq!(modules.len(), 1, "one isolated module, one process: {modules:?}");
    // Ctrl-C at a terminal: SIGINT to the whole foreground process group.
    // SAFETY: kill has no memory-safety preconditions.
    assert_eq!(unsafe { libc::kill(-(run.id() as i32), libc::SIGINT) }, 0);
    let status = run.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let lines: Vec<Value> = lines.map(|l| serde_json::from_str(&l.unwrap()).unwrap()).collect();
    let result = &tool_event(&lines, "call_1")["data"]["error"];
    assert_eq!(result["type"], "Cancelled", "{result}");
    // The cancel crossed into the module's process, and tool-bash killed
    // the command's process group; the module's process ended with the session.
    wait_until_gone(&[shell]);
    wait_until_gone(&modules);
}

#[test]
fn a_killed_host_takes_its_module_processes_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{tool_calls: [{name: hang}]}, {text: never}]"#;
    let stuck = format!("  - {{module: tool-stuck, source: \"{}\", isolation: process}}", fixture("tool-stuck"));
    let (mut run, _lines) = start_until_tool_pre(dir.path(), &plan_yaml(&scripted(script), &stuck, "  []"));
    let modules = module_processes(run.id());
    assert_eq!(modules.len(), 1, "{modules:?}");
    run.kill().unwrap();
    run.wait().unwrap();
    wait_until_gone(&modules);
}
