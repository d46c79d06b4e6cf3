//! The session store end to end, run twice: against a real SQLite file
//! (tests/sessions.rs) and a real PostgreSQL server (tests/sessions_postgres.rs,
//! a fresh database per test). Every `run` is recorded; `kill -9` mid-tool,
//! then `resume` repairs and goes on; one process per session; `session
//! list/show/export/fork/delete/cleanup`; redaction before storage;
//! context-persistent's memory files and restored history.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{json, Value};

/// A test directory with its own session store (the plugin build cache
/// stays shared), and this machine's state directory (spilled results; the
/// SQLite store's too when the suite runs on SQLite).
struct Env {
    dir: tempfile::TempDir,
    state: PathBuf,
    /// `AMPLIFIER_STORE`: a PostgreSQL database of the test's own.
    store: Option<String>,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        let store = super::POSTGRES.then(amplifier_test_postgres::database);
        Env { dir, state, store }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn amp(&self) -> Command {
        self.amp_in(self.path())
    }

    fn amp_in(&self, cwd: &Path) -> Command {
        let mut command = amplifier(cwd);
        command.env("AMPLIFIER_STATE_DIR", &self.state);
        if let Some(store) = &self.store {
            command.env("AMPLIFIER_STORE", store);
        }
        command
    }

    fn ok(&self, args: &[&str]) -> Output {
        let output = self.amp().args(args).output().unwrap();
        assert!(output.status.success(), "amplifier {args:?} failed:\n{}", stderr(&output));
        output
    }

    fn write_plan(&self, plan: &str) {
        std::fs::write(self.path().join("plan.yaml"), plan).unwrap();
    }

    /// `session show ID`'s `name value` lines.
    fn show(&self, id: &str) -> Vec<(String, String)> {
        stdout(&self.ok(&["session", "show", id]))
            .lines()
            .filter_map(|line| line.split_once(' ').map(|(k, v)| (k.to_owned(), v.trim().to_owned())))
            .collect()
    }

    fn field(&self, id: &str, name: &str) -> String {
        self.show(id).into_iter().find(|(k, _)| k == name).map(|(_, v)| v).unwrap_or_default()
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        // The PostgreSQL run must not have fallen back to SQLite.
        if self.store.is_some() && !std::thread::panicking() {
            assert!(!self.state.join("sessions.db").exists(), "a session went to SQLite, not PostgreSQL");
        }
    }
}

fn bash_tool(dir: &Path) -> String {
    format!(
        "  - {{module: tool-bash, source: \"{}\", config: {{working_dir: \"{}\"}}}}",
        plugin("tool-bash"),
        dir.display()
    )
}

fn with_requests_log(provider: String, log: &Path) -> String {
    provider.replace("{script:", &format!("{{requests_log: \"{}\", script:", log.display()))
}

fn read_json_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Starts `amplifier run` on a plan whose only tool call sleeps, and returns
/// once the tool has started and the session's first messages are stored.
fn start_sleeping_run(env: &Env) -> (Child, String) {
    let script = r#"[{tool_calls: [{name: bash, arguments: {command: "sleep 20", timeout: 60}}]}, {text: "never"}]"#;
    env.write_plan(&plan_yaml(&scripted(script), &bash_tool(env.path()), "  []"));
    let mut child = env
        .amp()
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut session_id = None;
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    loop {
        let line = lines.next().expect("the run ended before its tool started").unwrap();
        let value: Value = serde_json::from_str(&line).unwrap();
        session_id = session_id.or_else(|| value["data"]["session_id"].as_str().map(str::to_owned));
        if value["event"] == "tool:pre" {
            break;
        }
    }
    let id = session_id.unwrap();
    // The recorder saves once the session is quiet (the tool is sleeping).
    let started = Instant::now();
    while env.field(&id, "messages") != "2" {
        assert!(started.elapsed() < Duration::from_secs(30), "the running turn was never saved: {:?}", env.show(&id));
        std::thread::sleep(Duration::from_millis(100));
    }
    (child, id)
}

#[test]
fn kill_9_mid_tool_call_then_resume_repairs_the_call_and_goes_on() {
    let env = Env::new();
    let (mut child, id) = start_sleeping_run(&env);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(env.field(&id, "status"), "interrupted");

    // The plan changes before the resume: the next turn answers with text.
    let requests = env.path().join("requests.jsonl");
    let provider = with_requests_log(scripted(r#"[{text: "resumed fine"}]"#), &requests);
    env.write_plan(&plan_yaml(&provider, &bash_tool(env.path()), "  []"));
    let output = env.amp().args(["resume", &id[..8], "--output-format", "jsonl", "again"]).output().unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "stderr:\n{err}");
    assert!(err.contains("changed since session") && err.contains("resuming with the current file"), "{err}");
    assert!(err.contains("bash (call_1)"), "the repair is announced: {err}");

    let lines = json_lines(&output);
    let names = event_names(&lines);
    assert_eq!(names[0], "session:resume");
    assert!(!names.contains(&"session:start".to_owned()), "{names:?}");
    assert!(lines.iter().all(|l| l["event"] == "run:result" || l["data"]["session_id"] == id.as_str()));
    assert_eq!(lines.last().unwrap()["data"]["response"], "resumed fine");
    assert_eq!(lines.last().unwrap()["data"]["session_id"], id.as_str());

    // The provider got the whole history, the orphan call answered.
    let request = &read_json_lines(&requests)[0];
    let messages = request["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "tool", "user"], "{messages:#?}");
    assert_eq!(messages[0]["content"], "go");
    assert_eq!(messages[1]["tool_calls"][0]["id"], "call_1");
    assert_eq!(messages[2]["tool_call_id"], "call_1");
    let result: Value = serde_json::from_str(messages[2]["content"].as_str().unwrap()).unwrap();
    assert_eq!(result, json!({"error": "Tool execution was cancelled", "cancelled": true}));
    assert_eq!(messages[3]["content"], "again");

    // No message is lost: the stored history has both turns, repaired.
    assert_eq!(env.field(&id, "messages"), "5");
    assert_eq!(env.field(&id, "turns"), "2");
    assert_eq!(env.field(&id, "status"), "completed");
    let transcript = stdout(&env.ok(&["session", "show", &id, "--transcript"]));
    assert!(transcript.contains("Tool execution was cancelled") && transcript.contains("resumed fine"), "{transcript}");
}

#[test]
fn a_second_process_on_a_running_session_is_refused() {
    let env = Env::new();
    let (mut child, id) = start_sleeping_run(&env);
    for args in [vec!["resume", id.as_str(), "hi"], vec!["continue", "hi"]] {
        let output = env.amp().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let err = stderr(&output);
        assert!(err.contains(&format!("session {id} is in use by another amplifier process")), "{err}");
        assert!(err.contains(&format!("pid {}", child.id())), "{err}");
    }
    let output = env.amp().args(["session", "delete", &id]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("in use"), "{}", stderr(&output));
    assert_eq!(env.field(&id, "status"), "running");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn session_commands_list_show_export_fork_delete_and_cleanup() {
    let env = Env::new();
    let usage = "usage: {input_tokens: 7, output_tokens: 1, total_tokens: 8}";
    env.write_plan(&plan_yaml(&scripted(&format!(r#"[{{text: "four", {usage}}}]"#)), "", "  []"));
    let output = env.ok(&["run", "--plan", "plan.yaml", "--output-format", "json", "--session-name", "maths", "2+2?"]);
    let doc: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let id = doc["session_id"].as_str().unwrap().to_owned();
    let plain = env.ok(&["run", "--plan", "plan.yaml", "what else?"]);
    assert_eq!(stdout(&plain), "four\n", "run prints what it always printed");

    // list: newest first, this directory only unless --all-projects.
    let list = stdout(&env.ok(&["session", "list"]));
    let rows: Vec<&str> = list.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{list}");
    assert!(rows[0].contains("what else?") && rows[1].starts_with(&id) && rows[1].contains("maths"), "{list}");
    assert!(rows[1].contains("completed"), "{list}");
    assert_eq!(stdout(&env.ok(&["session", "list", "-n", "1"])).lines().count(), 2);
    let elsewhere = tempfile::tempdir().unwrap();
    let other = env.amp_in(elsewhere.path()).args(["session", "list"]).output().unwrap();
    assert!(stdout(&other).is_empty() && stderr(&other).contains("--all-projects"), "{}", stderr(&other));
    let all = env.amp_in(elsewhere.path()).args(["session", "list", "--all-projects"]).output().unwrap();
    assert_eq!(stdout(&all).lines().count(), 3);

    // continue: the latest session of this directory gets a second turn.
    let latest = rows[0].split_whitespace().next().unwrap().to_owned();
    env.ok(&["continue", "and again?"]);
    assert_eq!(env.field(&latest, "turns"), "2");

    // show, by a unique prefix.
    let show = env.show(&id[..6]);
    let get = |name: &str| show.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("");
    assert_eq!(get("session"), id);
    assert_eq!(get("name"), "maths");
    assert_eq!(get("messages"), "2");
    assert!(get("usage").starts_with("7 input + 1 output = 8 tokens"), "{show:?}");
    assert!(get("plan").contains("plan.yaml (sha256 "), "{show:?}");

    // export: upstream's files, and Markdown.
    env.ok(&["session", "export", &id, "--format", "jsonl", "--out", "exported"]);
    let transcript = read_json_lines(&env.path().join("exported/transcript.jsonl"));
    assert_eq!(transcript.len(), 2);
    assert_eq!(transcript[0], json!({"role": "user", "content": "2+2?"}));
    assert_eq!(transcript[1]["content"][0]["text"], "four");
    let events = read_json_lines(&env.path().join("exported/events.jsonl"));
    assert_eq!(events[0]["event"], "session:start");
    assert_eq!(events[0]["session_id"], id.as_str());
    assert_eq!(events.last().unwrap()["event"], "session:end");
    assert!(events.iter().all(|e| e["schema"]["name"] == "amplifier.log" && e["ts"].is_string()));
    let metadata: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path().join("exported/metadata.json")).unwrap()).unwrap();
    assert_eq!(metadata["session_id"], id.as_str());
    assert_eq!(metadata["turn_count"], 1);
    let markdown = stdout(&env.ok(&["session", "export", &id, "--format", "md"]));
    assert!(markdown.starts_with(&format!("# Session {id}: maths")), "{markdown}");
    assert!(markdown.contains("**User:** 2+2?") && markdown.contains("**Assistant:** four"), "{markdown}");

    // fork the two-turn session at turn 1.
    let fork = env.ok(&["session", "fork", &latest, "--at-turn", "1"]);
    let fork_id = stdout(&fork).trim().to_owned();
    assert_eq!(fork_id.len(), 36);
    assert_eq!(env.field(&fork_id, "parent"), latest);
    assert_eq!(env.field(&fork_id, "turns"), "1");
    assert_eq!(env.field(&fork_id, "messages"), "2");
    let err = env.amp().args(["session", "fork", &latest, "--at-turn", "5"]).output().unwrap();
    assert_eq!(err.status.code(), Some(2));
    assert!(stderr(&err).contains("has 2 turn(s)"), "{}", stderr(&err));

    // delete, then unknown ids are usage errors.
    assert_eq!(stdout(&env.ok(&["session", "delete", &fork_id])).trim(), format!("deleted {fork_id}"));
    let gone = env.amp().args(["session", "show", &fork_id]).output().unwrap();
    assert_eq!(gone.status.code(), Some(2));
    assert!(stderr(&gone).contains(&format!("no session matches '{fork_id}'")), "{}", stderr(&gone));

    // cleanup: nothing is 30 days old; everything is 0 days old.
    assert!(stdout(&env.ok(&["session", "cleanup", "--days", "30"])).contains("deleted 0 session(s)"));
    assert!(stdout(&env.ok(&["session", "cleanup", "--days", "0"])).contains("deleted 2 session(s)"));
    assert!(stdout(&env.ok(&["session", "list", "--all-projects"])).is_empty());
}

#[test]
fn resume_with_a_missing_plan_says_how_to_fix_it() {
    let env = Env::new();
    env.write_plan(&plan_yaml(&scripted(r#"[{text: "hi"}]"#), "", "  []"));
    let doc: Value =
        serde_json::from_str(&stdout(&env.ok(&["run", "--plan", "plan.yaml", "--output-format", "json", "x"])))
            .unwrap();
    let id = doc["session_id"].as_str().unwrap().to_owned();
    std::fs::rename(env.path().join("plan.yaml"), env.path().join("moved.yaml")).unwrap();
    let output = env.amp().args(["resume", &id, "y"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("plan.yaml, no longer exists") && err.contains("pass --plan FILE"), "{err}");
    let output = env.amp().args(["resume", &id, "--plan", "moved.yaml", "y"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "hi\n");
    assert!(env.field(&id, "plan").contains("moved.yaml"));
}

#[test]
fn redaction_masks_a_planted_key_in_stored_and_logged_events_but_not_for_the_model() {
    let env = Env::new();
    let key = "sk-test-ABCDEFGHIJ0123456789abcd";
    let requests = env.path().join("requests.jsonl");
    let log = env.path().join("events.jsonl");
    let hooks = format!(
        "  - {{module: hooks-redaction, source: \"{}\"}}\n  - {{module: hooks-logging, source: \"{}\", config: {{path: \"{}\"}}}}",
        plugin("hooks-redaction"),
        plugin("hooks-logging"),
        log.display()
    );
    let provider = with_requests_log(scripted(r#"[{text: "noted"}]"#), &requests);
    env.write_plan(&plan_yaml(&provider, "", &hooks));
    let prompt = format!("my key is {key}, keep it safe");
    let output = env.ok(&["run", "--plan", "plan.yaml", "--output-format", "json", &prompt]);
    let id = serde_json::from_str::<Value>(&stdout(&output)).unwrap()["session_id"].as_str().unwrap().to_owned();

    // The model saw the prompt verbatim.
    let request = &read_json_lines(&requests)[0];
    assert_eq!(request["messages"][0]["content"], prompt.as_str());

    // hooks-logging's file and the stored events did not.
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(!logged.contains(key), "{logged}");
    env.ok(&["session", "export", &id, "--out", "exported"]);
    let events = std::fs::read_to_string(env.path().join("exported/events.jsonl")).unwrap();
    assert!(!events.contains(key), "{events}");
    let submit = read_json_lines(&env.path().join("exported/events.jsonl"))
        .into_iter()
        .find(|e| e["event"] == "prompt:submit")
        .unwrap();
    assert_eq!(submit["data"]["prompt"], "my key is [REDACTED:SECRET], keep it safe");
    assert_eq!(submit["data"]["redaction"]["applied"], true);
    assert_eq!(submit["data"]["redaction"]["rules"], json!(["secrets"]));

    // The transcript is what the model saw: stored verbatim, so a resume replays it.
    let transcript = std::fs::read_to_string(env.path().join("exported/transcript.jsonl")).unwrap();
    assert!(transcript.contains(key));
}

#[test]
fn context_persistent_loads_memory_files_and_continue_restores_the_history() {
    let env = Env::new();
    std::fs::write(env.path().join("AGENTS.md"), "Answer in haiku.\n").unwrap();
    let requests = env.path().join("requests.jsonl");
    let provider = format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    config: {{echo_last_user: true, requests_log: \"{}\"}}\n",
        plugin("provider-scripted"),
        requests.display()
    );
    let plan = plan_yaml(&provider, "", "  []").replace(
        &format!("context: {{module: context-simple, source: \"{}\"}}", plugin("context-simple")),
        &format!(
            "context: {{module: context-persistent, source: \"{}\", config: {{memory_files: [AGENTS.md, missing.md]}}}}",
            plugin("context-persistent")
        ),
    );
    assert!(plan.contains("context-persistent"), "{plan}");
    env.write_plan(&plan);
    env.ok(&["run", "--plan", "plan.yaml", "first question"]);
    std::fs::write(env.path().join("AGENTS.md"), "Answer in limericks.\n").unwrap();
    let output = env.ok(&["continue", "second question"]);
    assert_eq!(stdout(&output), "second question\n");

    let requests = read_json_lines(&requests);
    let first = requests[0]["messages"].as_array().unwrap();
    assert_eq!(first[0]["role"], "system");
    assert_eq!(first[0]["content"], "<memory_file path=\"AGENTS.md\">\nAnswer in haiku.\n</memory_file>");
    assert_eq!(first.len(), 2);
    let second = requests[1]["messages"].as_array().unwrap();
    let texts: Vec<String> = second
        .iter()
        .map(|m| m["content"].as_str().map(str::to_owned).unwrap_or_else(|| m["content"][0]["text"].to_string()))
        .collect();
    assert_eq!(second.len(), 4, "{texts:?}");
    assert!(texts[0].contains("Answer in limericks."), "the memory file is read again: {texts:?}");
    assert_eq!(texts[1], "first question");
    assert!(texts[2].contains("first question"), "the first answer is restored: {texts:?}");
    assert_eq!(texts[3], "second question");
}

#[test]
fn an_sse_run_is_stored_and_locked_like_any_other_run() {
    let env = Env::new();
    env.write_plan(&plan_yaml(&scripted(r#"[{text: "streamed"}]"#), "", "  []"));
    let output = env.ok(&["run", "--plan", "plan.yaml", "--output-format", "sse", "--session-name", "sse", "hi"]);
    let body = stdout(&output);
    let start = body.lines().find_map(|line| line.strip_prefix("data: ")).expect("a start frame");
    let start: Value = serde_json::from_str(start).unwrap();
    let id = start["data"]["sessionId"].as_str().expect("the start frame names the session").to_owned();
    assert!(body.contains("event: complete"), "{body}");

    assert_eq!(env.field(&id, "name"), "sse");
    assert_eq!(env.field(&id, "status"), "completed");
    assert_eq!(env.field(&id, "messages"), "2", "the user message and the answer");
    let lock = std::fs::read_to_string(env.path().join("amplifier.lock")).expect("the run wrote amplifier.lock");
    assert!(lock.contains("provider-scripted"), "{lock}");
}

/// `kill -9` at ten seeded random points of a 200-call run (each call a
/// 25 ms command): every tool result that finished more than the crash
/// bound before the kill is stored, and the stored session resumes.
#[test]
fn a_kill_9_loses_at_most_the_crash_bound_of_a_busy_run() {
    // The bound is 100 ms (amplifier_host::recording::BOUND); the rest is
    // slack for a loaded two-core machine.
    const MARGIN: Duration = Duration::from_millis(400);
    let nanos = |t: std::time::SystemTime| t.duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let mut seed: u64 = 0x5eed_2026;
    let mut next = move |range: std::ops::Range<u64>| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        range.start + (seed >> 33) % (range.end - range.start)
    };
    let calls: Vec<String> = (0..200)
        .map(|i| format!(r#"{{tool_calls: [{{name: bash, arguments: {{command: "sleep 0.025 && echo {i} $(date +%s%N) >> done.log"}}}}]}}"#))
        .collect();
    let script = format!("[{}, {{text: done}}]", calls.join(", "));
    for round in 0..10 {
        let env = Env::new();
        env.write_plan(&plan_yaml(&scripted(&script), &bash_tool(env.path()), "  []"));
        let mut run = env.amp();
        run.args(["run", "--plan", "plan.yaml", "go"]).stdout(Stdio::null()).stderr(Stdio::null());
        let mut child = run.spawn().unwrap();
        std::thread::sleep(Duration::from_millis(next(400..3000)));
        let killed = nanos(std::time::SystemTime::now());
        child.kill().unwrap();
        child.wait().unwrap();

        let done = std::fs::read_to_string(env.path().join("done.log")).unwrap_or_default();
        let finished = done.lines().map(|l| l.split_whitespace().nth(1).unwrap().parse::<u128>().unwrap());
        let due = finished.filter(|&at| at + MARGIN.as_nanos() < killed).count();
        let list = stdout(&env.ok(&["session", "list"]));
        let id = list.lines().nth(1).and_then(|l| l.split_whitespace().next()).expect("the run was stored").to_owned();
        let out = env.path().join("export");
        env.ok(&["session", "export", &id, "--out", out.to_str().unwrap()]);
        let transcript = read_json_lines(&out.join("transcript.jsonl"));
        let stored = transcript.iter().filter(|m| m["role"] == "tool").count();
        assert!(stored >= due, "round {round}: {stored} tool results stored, {due} finished before the bound");

        // What was stored is a valid history: it resumes (the call that
        // was running gets its cancelled result).
        env.write_plan(&plan_yaml(&scripted("[{text: resumed}]"), &bash_tool(env.path()), "  []"));
        let resumed = env.amp().args(["resume", &id, "again"]).output().unwrap();
        assert!(resumed.status.success(), "round {round}: {}", stderr(&resumed));
        assert_eq!(stdout(&resumed).trim(), "resumed", "round {round}");
    }
}

#[test]
fn a_listing_whose_reader_goes_away_ends_quietly() {
    let env = Env::new();
    env.write_plan(&plan_yaml(&scripted("[{text: hi}]"), "", "  []"));
    env.ok(&["run", "--plan", "plan.yaml", "hi"]);
    let mut child = env.amp().args(["session", "list"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // The reader closes its end before the listing is written (`| head -0`).
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!err.contains("panicked"), "{err}");
    use std::os::unix::process::ExitStatusExt;
    assert!(output.status.success() || output.status.signal() == Some(libc::SIGPIPE), "{:?}: {err}", output.status);
}

#[test]
fn a_tool_result_over_the_cap_is_kept_short_and_spilled_whole_to_a_file() {
    let env = Env::new();
    let script =
        r#"[{tool_calls: [{name: bash, arguments: {command: "yes amplifier | head -c 200000"}}]}, {text: done}]"#;
    let bash = format!(
        "  - {{module: tool-bash, source: \"{}\", config: {{working_dir: \"{}\", max_output_chars: 1000000}}}}",
        plugin("tool-bash"),
        env.path().display()
    );
    env.write_plan(&plan_yaml(&scripted(script), &bash, "  []"));
    let output =
        env.amp().args(["run", "--plan", "plan.yaml", "go"]).env("AMPLIFIER_TOOL_RESULTS_MAX_BYTES", "10000").output();
    let output = output.unwrap();
    assert!(output.status.success(), "{}", stderr(&output));

    let list = stdout(&env.ok(&["session", "list"]));
    let id = list.lines().nth(1).and_then(|l| l.split_whitespace().next()).unwrap().to_owned();
    let out = env.path().join("export");
    env.ok(&["session", "export", &id, "--out", out.to_str().unwrap()]);
    let transcript = read_json_lines(&out.join("transcript.jsonl"));
    let result = transcript.iter().find(|m| m["role"] == "tool").expect("the tool result is stored");
    let content = result["content"].as_str().unwrap();
    assert!(content.len() < 12_000, "kept short: {} bytes", content.len());
    let kept: Value = serde_json::from_str(content).unwrap();
    assert_eq!(kept["truncated"], true, "{kept}");
    // bash's output is an object: its beginning is the object's JSON text.
    assert!(kept["head"].as_str().unwrap().contains(r#""stdout":"amplifier\namplifier\n"#), "{kept}");
    let file = PathBuf::from(kept["full_output"].as_str().unwrap());
    assert!(file.starts_with(env.state.join("spill").join(&id)), "{}", file.display());
    let whole = std::fs::read_to_string(&file).unwrap();
    assert!(
        whole.len() > 200_000 && whole.contains(&"amplifier\n".repeat(100).replace('\n', "\\n")),
        "the whole output"
    );
}

#[test]
fn run_no_session_leaves_nothing_in_the_store() {
    let env = Env::new();
    env.write_plan(&plan_yaml(&scripted(r#"[{text: "gone"}]"#), "", "  []"));
    let output = env.ok(&["run", "--plan", "plan.yaml", "--no-session", "--output-format", "json", "hi"]);
    let doc: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(doc["response"], "gone");
    let listed = env.amp().args(["session", "list", "--all-projects"]).output().unwrap();
    assert!(stdout(&listed).is_empty(), "a session was stored: {}", stdout(&listed));
    let id = doc["session_id"].as_str().unwrap();
    let shown = env.amp().args(["session", "show", id]).output().unwrap();
    assert!(!shown.status.success(), "session show found {id}");
    // And recording still works without the flag.
    env.ok(&["run", "--plan", "plan.yaml", "hi"]);
    assert_eq!(stdout(&env.ok(&["session", "list"])).lines().count(), 2, "a header and the one run");
}
