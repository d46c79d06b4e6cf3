//! `amplifier run`: the session lifecycle end to end through real plugins.

mod common;

use common::*;
use serde_json::{json, Value};

/// The exact event sequence of a run with one tool call.
#[test]
fn the_scripted_plan_emits_the_exact_event_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let events_file = dir.path().join("events.jsonl");
    let output = amplifier(dir.path())
        .args(["run", "--plan"])
        .arg(workspace().join("mount-plans/scripted.yaml"))
        .args(["--output-format", "jsonl", "say hello"])
        .env("AMPLIFIER_EVENTS", &events_file)
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(
        event_names(&lines),
        [
            "session:start",
            "prompt:submit",
            "provider:request",
            "context:budget",
            "provider:response",
            "content_block:start",
            "content_block:end",
            "tool:pre",
            "tool:post",
            "provider:request",
            "provider:response",
            "content_block:start",
            "content_block:end",
            "prompt:complete",
            "orchestrator:complete",
            "session:end",
            "run:result",
        ]
    );
    let session_id = lines[0]["data"]["session_id"].as_str().unwrap().to_owned();
    for line in &lines[..lines.len() - 1] {
        let data = &line["data"];
        assert_eq!(data["session_id"], session_id.as_str(), "every event carries the session id: {line}");
        assert!(data.get("parent_id").is_some(), "every event carries parent_id: {line}");
        assert!(data["timestamp"].as_str().is_some_and(|t| t.contains('T')), "kernel timestamp: {line}");
    }
    let tool_pre = &lines[7]["data"];
    assert_eq!(tool_pre["tool_name"], "echo");
    assert_eq!(tool_pre["tool_input"]["text"], "hello from a tool");
    let tool_post = &lines[8]["data"];
    assert_eq!(tool_post["result"]["output"], "hello from a tool");
    assert_eq!(tool_pre["parallel_group_id"], tool_post["parallel_group_id"]);
    assert_eq!(lines[14]["data"]["status"], "success");
    assert_eq!(lines[14]["data"]["turn_count"], 2);
    let result = &lines[16]["data"];
    assert_eq!(result["status"], "success");
    assert!(result["response"].as_str().unwrap().contains("hello from a tool"));

    // hooks-logging wrote the same events as JSON lines.
    let logged: Vec<Value> =
        std::fs::read_to_string(&events_file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let logged_names: Vec<&str> = logged.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(logged_names, event_names(&lines)[..16].iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(logged[0]["session_id"], session_id.as_str());
    assert!(logged[0]["timestamp"].is_string());
}

#[test]
fn json_output_reports_status_response_session_and_usage() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(
        &scripted(r#"[{text: "four", usage: {input_tokens: 7, output_tokens: 1, total_tokens: 8}}]"#),
        "",
        "  []",
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output =
        amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--output-format", "json", "2+2?"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let doc: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(doc["status"], "success");
    assert_eq!(doc["response"], "four");
    assert!(doc["session_id"].as_str().is_some_and(|s| s.len() == 36));
    assert_eq!(doc["usage"]["input_tokens"], 7);
    assert_eq!(doc["usage"]["total_tokens"], 8);
}

/// The store opens beside the mounting of the modules: one that cannot
/// open leaves the session unrecorded, says why, and the turn still runs.
#[test]
fn a_store_that_cannot_open_leaves_the_session_unsaved_and_the_turn_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&scripted(r#"[{text: "done"}]"#), "", "  []")).unwrap();
    // A file where the state directory should be.
    let state = dir.path().join("state");
    std::fs::write(&state, "not a directory").unwrap();
    let output = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "hi"])
        .env("AMPLIFIER_STATE_DIR", &state)
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "done");
    let log = stderr(&output);
    let warnings: Vec<&str> = log.lines().filter(|line| line.contains("will not be saved")).collect();
    assert_eq!(warnings.len(), 1, "told once:\n{log}");
    assert!(warnings[0].contains(&*state.to_string_lossy()), "names the store: {}", warnings[0]);
}

#[test]
fn debug_logging_times_each_phase_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&scripted(r#"[{text: "done"}]"#), "", "  []")).unwrap();
    let output = amplifier(dir.path()).args(["-vv", "run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let log = stderr(&output);
    let phases: Vec<(&str, f64, u64)> = log
        .lines()
        .filter(|line| line.contains(" timing "))
        .filter_map(|line| {
            let field = |name: &str| line.split(&format!("{name}=")).nth(1)?.split(['"', ' ']).find(|s| !s.is_empty());
            let phase = line.split("phase=\"").nth(1)?.split('"').next()?;
            Some((phase, field("ms")?.parse().ok()?, field("rss_kib")?.parse().ok()?))
        })
        .collect();
    let names: Vec<&str> = phases.iter().map(|(name, _, _)| *name).collect();
    assert_eq!(
        names,
        [
            "plan parsed, loader ready",
            "session opened (its store opening beside)",
            "modules mounted, store open",
            "turn run",
            "modules cleaned up",
            "session finished (last write)"
        ],
        "{log}"
    );
    assert!(phases.windows(2).all(|pair| pair[0].1 <= pair[1].1), "times only grow: {phases:?}");
    assert!(phases.iter().all(|(_, _, rss)| *rss > 0), "resident memory is read: {phases:?}");
    let quiet = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    assert!(!stderr(&quiet).contains(" timing "), "only with debug logging: {}", stderr(&quiet));
}

#[test]
fn prompt_is_read_from_piped_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(&scripted("[]").replace("{script: []}", "{echo_last_user: true}"), "", "  []");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let mut child = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"echo me back").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "echo me back");
}

#[test]
fn a_panicking_tool_becomes_an_error_result_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(
        &scripted(r#"[{tool_calls: [{name: explode}]}, {text: "recovered"}]"#),
        &format!("  - {{module: tool-panics, source: \"{}\"}}", fixture("tool-panics")),
        "  []",
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output =
        amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    let error = lines.iter().find(|l| l["event"] == "tool:error").expect("a tool:error event");
    let message = error["data"]["error"]["msg"].as_str().unwrap();
    assert!(message.contains("panicked") && message.contains("explode was called"), "{message}");
    assert_eq!(lines.last().unwrap()["data"]["response"], "recovered");
}

/// A native crash can't be caught in-process, but it is named: the line
/// says which signal and which plugin library, and the process still dies
/// of the signal. A plugin's `exit(0)` is a crash too, never a success.
#[test]
fn a_native_crash_or_exit_in_a_plugin_names_the_library() {
    use std::os::unix::process::ExitStatusExt;
    let library = format!("libtool_panics.{}", if cfg!(target_os = "macos") { "dylib" } else { "so" });
    for (how, signal) in [("segfault", Some(libc::SIGSEGV)), ("abort", Some(libc::SIGABRT)), ("exit", None)] {
        let dir = tempfile::tempdir().unwrap();
        let script =
            format!(r#"[{{tool_calls: [{{name: crash, arguments: {{how: {how}}}}}]}}, {{text: "unreachable"}}]"#);
        let plan = plan_yaml(
            &scripted(&script),
            &format!("  - {{module: tool-panics, source: \"{}\"}}", fixture("tool-panics")),
            "  []",
        );
        std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
        let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "go"]).output().unwrap();
        let err = stderr(&output);
        assert!(!output.status.success(), "{how}: the run succeeded");
        assert_eq!(output.status.signal(), signal, "{how}: {:?}\n{err}", output.status);
        let line =
            err.lines().find(|l| l.starts_with("amplifier: ")).unwrap_or_else(|| panic!("{how}: no report\n{err}"));
        assert!(line.contains(" in plugin library ") && line.contains(&library), "{how}: {line}");
        match how {
            "segfault" => assert!(line.starts_with("amplifier: SIGSEGV (segmentation fault) in plugin library ")),
            "abort" => assert!(line.starts_with("amplifier: SIGABRT (abort) in plugin library ")),
            _ => {
                assert!(line.starts_with("amplifier: exit(0) called in plugin library "), "{line}");
                assert_eq!(output.status.code(), Some(70));
            }
        }
        assert!(!stdout(&output).contains("unreachable"));
    }
}

#[test]
fn a_module_that_panics_at_mount_fails_loud_unless_partial_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(
        &scripted(r#"[{text: "still here"}]"#),
        &format!(
            "  - {{module: tool-panics, source: \"{}\", config: {{panic_at_mount: true}}}}",
            fixture("tool-panics")
        ),
        "  []",
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("1 module(s) failed to load"), "{err}");
    assert!(err.contains("tool tool-panics (tools[1])"), "{err}");
    assert!(err.contains("configured to panic at mount"), "{err}");
    assert!(err.contains("--allow-partial"), "{err}");

    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--allow-partial", "hi"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "still here");
}

#[test]
fn a_plugin_built_for_another_abi_major_is_refused_with_versions_and_fix() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(
        &scripted(r#"[{text: "x"}]"#),
        &format!("  - {{module: abi-next-major, source: \"{}\"}}", fixture("abi-next-major")),
        "  []",
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.contains("module 'abi-next-major' was built for plugin ABI 2.0, but this amplifier speaks ABI 1"),
        "{err}"
    );
    assert!(err.contains("hint (users)") && err.contains("hint (module authors)"), "{err}");
}

#[test]
fn an_essential_module_that_fails_is_fatal_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(&scripted("[]"), "", "  []").replace(&plugin("context-simple"), "./no-such-crate");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("context module 'context-simple' failed to load"), "{err}");
    assert!(err.contains("session.context: source './no-such-crate'"), "{err}");
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn config_is_checked_against_the_module_schema_before_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(
        &scripted(r#"[{text: "x"}]"#),
        "",
        &format!("  - {{module: hooks-logging, source: \"{}\", config: {{path: 42}}}}", plugin("hooks-logging")),
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("hooks[0].config.path: the value is not of type \"string\""), "{err}");

    // A key in the wrong place is named by its path, never shown.
    let secret = "sk-live-0123456789abcdef".repeat(100);
    let plan = plan_yaml(
        &scripted(r#"[{text: "x"}]"#),
        "",
        &format!(
            "  - {{module: hooks-logging, source: \"{}\", config: {{path: [\"{secret}\"]}}}}",
            plugin("hooks-logging")
        ),
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    let err = stderr(&output);
    assert!(err.contains("hooks[0].config.path: the value is not of type \"string\""), "{err}");
    assert!(!err.contains("sk-live"), "the value is not echoed: {err}");
}

#[test]
fn tool_input_is_validated_against_the_tool_schema() {
    let dir = tempfile::tempdir().unwrap();
    let plan =
        plan_yaml(&scripted(r#"[{tool_calls: [{name: echo, arguments: {text: 5}}]}, {text: "done"}]"#), "", "  []");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output =
        amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    let error = lines.iter().find(|l| l["event"] == "tool:error").expect("a tool:error event");
    assert_eq!(error["data"]["error"]["type"], "InvalidInput");
    let message = error["data"]["error"]["msg"].as_str().unwrap();
    assert!(message.contains("invalid input for tool 'echo'") && message.contains("/text"), "{message}");
}

#[test]
fn tools_mounted_at_run_time_are_offered_and_routed_back_to_their_module() {
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let script = r#"[{tool_calls: [{name: add_tool, arguments: {name: greet}}]}, {tool_calls: [{name: greet, arguments: {who: you}}]}, {tool_calls: [{name: remove_tool, arguments: {name: greet}}]}, {tool_calls: [{name: greet}]}, {text: "done"}]"#;
    let provider =
        scripted(script).replace("{script:", &format!("{{requests_log: \"{}\", script:", requests.display()));
    let plan =
        plan_yaml(&provider, &format!("  - {{module: tool-dynamic, source: \"{}\"}}", fixture("tool-dynamic")), "  []");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output =
        amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    let greeted = lines
        .iter()
        .find(|l| l["event"] == "tool:post" && l["data"]["tool_name"] == "greet")
        .expect("the mounted tool ran");
    assert_eq!(greeted["data"]["result"]["output"], serde_json::json!({"dynamic": "greet", "input": {"who": "you"}}));
    let after_removal = lines
        .iter()
        .find(|l| l["event"] == "tool:error" && l["data"]["tool_name"] == "greet")
        .expect("the unmounted tool is gone");
    assert_eq!(after_removal["data"]["error"]["type"], "ToolNotFound");
    // The model was offered the tool between mounting and unmounting only.
    let offered: Vec<bool> = std::fs::read_to_string(&requests)
        .unwrap()
        .lines()
        .map(|l| {
            let request: Value = serde_json::from_str(l).unwrap();
            request["tools"].as_array().unwrap().iter().any(|t| t["name"] == "greet")
        })
        .collect();
    assert_eq!(offered, [false, true, true, false, false]);
}

#[test]
fn hooks_contributors_and_cleanups_registered_at_run_time_are_called_back() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("cleanup-marker");
    let calls = [
        r#"{name: watch, arguments: {event: "tool:pre"}}"#,
        r#"{name: collect, arguments: {channel: dynamic.seen}}"#,
        r#"{name: ask, arguments: {event: "tool:pre"}}"#,
        r#"{name: unwatch, arguments: {event: "tool:pre"}}"#,
        r#"{name: unwatch, arguments: {event: "tool:pre"}}"#,
        r#"{name: collect, arguments: {channel: dynamic.seen}}"#,
    ];
    let script: Vec<String> = calls.iter().map(|call| format!("{{tool_calls: [{call}]}}")).collect();
    let provider = scripted(&format!("[{}, {{text: done}}]", script.join(", ")));
    let tool = format!(
        "  - {{module: tool-dynamic, source: \"{}\", config: {{cleanup_marker: \"{}\"}}}}",
        fixture("tool-dynamic"),
        marker.display()
    );
    let output = run_plan(dir.path(), &plan_yaml(&provider, &tool, "  []"));
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    let outputs: Vec<&Value> =
        (1..=calls.len()).map(|n| &tool_event(&lines, &format!("call_{n}"))["data"]["result"]["output"]).collect();
    // The hook counts each `tool:pre` from the call after `watch` on; `ask`
    // adds its own `tool:pre` and the `emit_and_collect` it makes.
    assert_eq!(
        outputs,
        [
            &json!("watching"),
            &json!([{"seen": 1}]),
            &json!([{"watcher": "watch tool:pre", "seen": 3}]),
            &json!(true),
            &json!(false),
            &json!([{"seen": 4}]),
        ]
    );
    // The cleanup ran at session end, once.
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "4");
}

#[test]
fn on_session_ready_runs_once_every_module_is_mounted_and_a_failure_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    // tool-dynamic mounts before tool-filesystem, yet sees its tools: it
    // looks only once the whole plan is mounted.
    let tools = |ready: &str| {
        format!(
            "  - {{module: tool-dynamic, source: \"{}\", config: {{on_session_ready: {ready}}}}}\n  - {{module: tool-filesystem}}",
            fixture("tool-dynamic")
        )
    };
    let provider = scripted(r#"[{text: done}, {text: again}]"#);
    let output = run_plan(dir.path(), &plan_yaml(&provider, &tools("announce"), "  []"));
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    let names = event_names(&lines);
    let ready: Vec<&Value> = lines.iter().filter(|l| l["event"] == "dynamic:ready").collect();
    assert_eq!(ready.len(), 1, "{names:?}");
    let seen = ready[0]["data"]["tools"].as_array().unwrap();
    for tool in ["echo", "add_tool", "read_file", "grep"] {
        assert!(seen.contains(&json!(tool)), "{tool} not in {seen:?}");
    }
    let position = |event: &str| names.iter().position(|name| name == event).unwrap();
    assert!(position("dynamic:ready") < position("session:start"), "{names:?}");
    assert!(!names.iter().any(|name| name == "module:on_session_ready_failed"), "{names:?}");

    let output = run_plan(dir.path(), &plan_yaml(&provider, &tools("fail"), "  []"));
    assert!(output.status.success(), "a failed on_session_ready is not fatal: {}", stderr(&output));
    let lines = json_lines(&output);
    let failed: Vec<&Value> = lines.iter().filter(|l| l["event"] == "module:on_session_ready_failed").collect();
    assert_eq!(failed.len(), 1, "{:?}", event_names(&lines));
    assert_eq!(failed[0]["data"]["module_id"], "tool-dynamic");
    assert_eq!(failed[0]["data"]["error"], "not ready, on purpose");
    // The session went on to answer.
    assert!(lines.iter().any(|l| l["event"] == "session:start"), "{:?}", event_names(&lines));
}

#[test]
fn code_that_calls_itself_something_else_than_the_plan_is_pointed_out() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(
        &scripted(r#"[{text: "x"}]"#),
        &format!("  - {{module: tool-weather, source: \"{}\"}}", plugin("tool-echo")),
        "  []",
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(err.contains("tools[1]: the plan names module 'tool-weather', but its code"), "{err}");
    assert!(err.contains("is 'tool-echo'"), "{err}");
}

/// The binary's dynamic section as `readelf -d` prints it; `None` where
/// there is no readelf.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn dynamic_section() -> Option<String> {
    let output = std::process::Command::new("readelf").args(["-d", env!("CARGO_BIN_EXE_amplifier")]).output().ok()?;
    let dynamic = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(dynamic.contains("[libc.so.6]"), "not the dynamic section:\n{dynamic}");
    Some(dynamic)
}

/// `crates/cli/startup-order.txt`, the functions the linker places first.
fn startup_order() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/crates/cli/startup-order.txt")).unwrap()
}

/// The binary's relative relocations are packed (`DT_RELR`, crates/cli/build.rs)
/// where the toolchain has them: glibc 2.36 on (with GNU ld 2.38 or a newer
/// linker), as on the machines CI runs on. Unpacked, ld.so reads 1.8 MB of
/// them at every start and the peak RSS of a run is 4 MiB higher.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_packs_its_relocations_where_glibc_reads_them() {
    // SAFETY: glibc returns a static, NUL-terminated string.
    let glibc = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) }.to_str().unwrap().to_owned();
    let minor: u32 = glibc.split('.').nth(1).and_then(|m| m.parse().ok()).unwrap();
    let Some(dynamic) = dynamic_section() else { return eprintln!("no readelf here: nothing to read the binary with") };
    assert_eq!(dynamic.contains("(RELR)"), minor >= 36, "glibc {glibc}; the dynamic section:\n{dynamic}");
}

/// The functions a start runs (`crates/cli/startup-order.txt`) sit together
/// at the front of `.text` (crates/cli/build.rs): spread over the binary,
/// they kept 17 MiB of code resident for 3.6 MB run. Many names in the file
/// are a release build's; a debug build still has its C and C++ functions
/// and most of the dependencies' generic instances.
#[cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
#[test]
fn the_functions_a_start_runs_come_first_in_the_binary() {
    if !linked_with(env!("AMPLIFIER_STARTUP_ORDER_LINKED"), "ordering file") {
        return;
    }
    let order = startup_order();
    let wanted: std::collections::HashSet<&str> = order.lines().filter(|line| !line.starts_with('#')).collect();
    let symbols = std::process::Command::new("nm")
        .args(["--defined-only", "--numeric-sort", "--print-size", env!("CARGO_BIN_EXE_amplifier")])
        .output();
    let Ok(symbols) = symbols else { return eprintln!("no nm here: nothing to read the binary with") };
    let symbols = String::from_utf8_lossy(&symbols.stdout);
    let functions = symbols.lines().filter_map(|line| match line.split_whitespace().collect::<Vec<_>>()[..] {
        [address, size, "t" | "T" | "W", name] if !size.trim_start_matches('0').is_empty() => {
            Some((u64::from_str_radix(address, 16).unwrap(), name))
        }
        _ => None,
    });
    let (placed, others): (Vec<_>, Vec<_>) = functions.partition(|(_, name)| wanted.contains(name));
    assert!(placed.len() >= 100, "only {} of the file's functions are in the binary", placed.len());
    let last = placed.iter().map(|(address, _)| *address).max().unwrap();
    let between: Vec<_> = others.iter().filter(|(address, _)| *address < last).take(5).collect();
    assert!(between.is_empty(), "{} ordered functions end at {last:#x}, after {between:?}", placed.len());
}

/// The read-only data those functions address sits together as well, in
/// `.rodata.hot` just before `.rodata` (crates/cli/startup-rodata.ld):
/// spread over `.rodata`, the 198 pages a start reads kept 585 resident.
/// A debug build still has the C libraries' tables (SQLite's parser's,
/// its keyword hash), named as in a release build.
#[cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
#[test]
fn the_read_only_data_a_start_reads_comes_before_the_rest() {
    if !linked_with(env!("AMPLIFIER_STARTUP_RODATA_LINKED"), "linker script") {
        return;
    }
    let output = std::process::Command::new("readelf").args(["-SW", env!("CARGO_BIN_EXE_amplifier")]).output();
    let Ok(output) = output else { return eprintln!("no readelf here: nothing to read the binary with") };
    let sections = String::from_utf8_lossy(&output.stdout);
    // `[Nr] Name Type Address Off Size …`: the address and size of a section.
    let section = |wanted: &str| {
        sections.lines().find_map(|line| {
            let fields: Vec<&str> = line.split(']').nth(1)?.split_whitespace().collect();
            match fields[..] {
                [name, _, address, _, size, ..] if name == wanted => {
                    Some((u64::from_str_radix(address, 16).ok()?, u64::from_str_radix(size, 16).ok()?))
                }
                _ => None,
            }
        })
    };
    let (Some((hot, hot_size)), Some((rest, _))) = (section(".rodata.hot"), section(".rodata")) else {
        panic!("no .rodata.hot, or no .rodata, in:\n{sections}");
    };
    assert!(hot_size > 0, "an empty .rodata.hot");
    assert!(hot + hot_size <= rest, ".rodata.hot ({hot:#x}, {hot_size} bytes) is not before .rodata ({rest:#x})");
}

/// Whether crates/cli/build.rs linked the binary with `what` (`linked`, its
/// answer). rustc links with LLD here, which takes both the ordering file
/// and the script, unless the build chose another linker.
#[cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
fn linked_with(linked: &str, what: &str) -> bool {
    if linked == "true" {
        return true;
    }
    assert_eq!(env!("AMPLIFIER_LINKER_CHOSEN"), "true", "rustc's own linker took no {what}");
    eprintln!("the linker this build chose takes no {what}");
    false
}

/// LLVM renames a function that thin local LTO shares between its crate's
/// codegen units `NAME.llvm.SUFFIX`, one start-up function in ten. By
/// default SUFFIX hashes the unit's code, checkout path included, and the
/// file then held only in the directory it was generated in (W1 18 MiB
/// instead of 12 elsewhere). `.cargo/config.toml` makes it the unit's name.
#[test]
fn the_start_up_order_names_functions_as_every_checkout_does() {
    let order = startup_order();
    let renamed: Vec<&str> = order.lines().filter(|line| line.contains(".llvm.")).collect();
    assert!(!renamed.is_empty(), "no renamed function in the file: is it a release build's?");
    for name in renamed {
        let unit = name.rsplit(".llvm.").next().unwrap();
        let per_unit = unit.rsplit_once("_cgu_").is_some_and(|(krate, number)| {
            krate.rsplit_once('_').is_some_and(|(_, hash)| u64::from_str_radix(hash, 16).is_ok())
                && number.bytes().all(|byte| byte.is_ascii_digit())
        });
        assert!(
            per_unit,
            "{name}: a suffix that is not its codegen unit's name (regenerate with .cargo/config.toml's flags)"
        );
    }
}

/// libgit2's zlib is compiled in (crates/loader/Cargo.toml): the system's
/// libz.so, loaded and relocated at every start, took about 0.15 MiB of W1.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_loads_no_zlib_at_start() {
    let Some(dynamic) = dynamic_section() else { return eprintln!("no readelf here: nothing to read the binary with") };
    assert!(!dynamic.contains("[libz.so"), "the binary loads the system's zlib:\n{dynamic}");
}

/// llama.cpp's libm functions are bound on their first call
/// (third_party/llama-cpp-sys-2/src/lazy_libm.c): libm.so, loaded and
/// relocated at every start for them, took about 0.5 MiB of W1. A run
/// without the local model loads it at no point either, as it once did for
/// tokio's scheduler, which calls `pow`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn a_run_without_the_local_model_loads_no_libm() {
    let Some(dynamic) = dynamic_section() else { return eprintln!("no readelf here: nothing to read the binary with") };
    assert!(!dynamic.contains("[libm.so"), "the binary loads libm at start:\n{dynamic}");
    let dir = tempfile::tempdir().unwrap();
    let output = amplifier(dir.path())
        .args(["run", "--plan"])
        .arg(workspace().join("mount-plans/scripted.yaml"))
        .arg("hi")
        .env("AMPLIFIER_EVENTS", dir.path().join("events.jsonl"))
        // glibc's loader names each library it opens, at start or later.
        .env("LD_DEBUG", "files")
        .output()
        .unwrap();
    let log = stderr(&output);
    assert!(output.status.success(), "stderr:\n{log}");
    assert!(log.contains("file=libc.so.6"), "LD_DEBUG named no library:\n{log}");
    assert!(!log.contains("file=libm.so"), "the run loaded libm:\n{log}");
}

/// The C++ runtime llama.cpp needs is linked in where the compiler has its
/// archive (third_party/llama-cpp-sys-2/build.rs), as on the machines CI
/// runs on: loaded at every start, it took about 0.7 ms of each run.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_loads_no_cpp_runtime_at_start_where_it_can_link_it_in() {
    let compiler = std::env::var("CXX").unwrap_or_else(|_| "c++".to_owned());
    let archive = std::process::Command::new(&compiler).arg("-print-file-name=libstdc++.a").output();
    let Ok(archive) = archive else { return eprintln!("no {compiler} here: the build linked what it found") };
    let archive = std::path::PathBuf::from(String::from_utf8_lossy(&archive.stdout).trim());
    let Some(dynamic) = dynamic_section() else { return eprintln!("no readelf here: nothing to read the binary with") };
    assert_eq!(
        dynamic.contains("[libstdc++.so"),
        !archive.is_file(),
        "{compiler} names {}; the dynamic section:\n{dynamic}",
        archive.display()
    );
}
