//! hooks-command end to end: the built-in module runs commands from the
//! plan and from the project's `.amplifier/hooks.json` around a real run,
//! and what they answer reaches the model, the tools and the user.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

/// A plan whose model calls `echo {text: "secret plan"}` once, then answers
/// "done"; every request the model got is logged to `requests.jsonl`.
fn write_plan(dir: &Path, hooks_config: &str) {
    let provider = format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    config: {{requests_log: \"{}\", script: [{{tool_calls: [{{name: echo, arguments: {{text: secret plan}}}}]}}, {{text: done}}]}}\n",
        plugin("provider-scripted"),
        dir.join("requests.jsonl").display()
    );
    let hooks = format!("  - {{module: hooks-command, config: {hooks_config}}}");
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&provider, "", &hooks)).unwrap();
}

/// The messages of the model's last request.
fn last_request(dir: &Path) -> Vec<Value> {
    let log = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    last["messages"].as_array().unwrap().clone()
}

fn tool_result(messages: &[Value]) -> String {
    messages.iter().rev().find(|m| m["role"] == "tool").expect("a tool result")["content"].to_string()
}

#[test]
fn project_and_plan_commands_deny_a_tool_add_context_and_report_failures() {
    let dir = tempfile::tempdir().unwrap();
    // The project's hooks, in Claude Code's format: a policy on echo.
    std::fs::create_dir(dir.path().join(".amplifier")).unwrap();
    std::fs::write(
        dir.path().join(".amplifier/hooks.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "echo", "hooks": [{"type": "command", "command": "if grep -q secret; then echo 'no secrets in echo' >&2; exit 2; fi"}]}]}}"#,
    )
    .unwrap();
    let config = r#"{hooks: [
        {event: UserPromptSubmit, command: "echo 'The build is green.'"},
        {event: prompt:complete, command: "echo 'disk full' >&2; exit 1"}]}"#;
    write_plan(dir.path(), config);
    let trusted = amplifier(dir.path()).args(["trust", ".amplifier/hooks.json"]).output().unwrap();
    assert!(trusted.status.success(), "{}", stderr(&trusted));
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "go"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));

    let messages = last_request(dir.path());
    let result = tool_result(&messages);
    assert!(result.contains("Denied by hook: no secrets in echo"), "the model hears why: {result}");
    let everything = Value::Array(messages).to_string();
    assert!(everything.contains("The build is green."), "the prompt hook's context: {everything}");
    // The failing command is reported and the run goes on.
    let stderr = stderr(&output);
    assert!(stderr.contains("hook command `echo 'disk full' >&2; exit 1` exited with 1: disk full"), "{stderr}");
}

#[test]
fn a_post_tool_command_gets_the_result_and_the_session_id() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git/hooks")).unwrap();
    // The first hook writes the project (workspace-write) but not what
    // configures git; the second, in the default read-only sandbox, writes
    // nothing but its TMPDIR.
    let config = r#"{hooks: [
        {event: PostToolUse, matcher: echo, sandbox: workspace-write,
         command: "env > env.txt; echo \"$AMPLIFIER_SESSION_ID\" > session.txt; cat > event.json; touch .git/hooks/pre-commit || echo refused > git.txt"},
        {event: PostToolUse, matcher: echo, command: "touch \"$TMPDIR/scratch\" && echo tmp-ok > /dev/null; touch readonly.txt"}]}"#;
    write_plan(dir.path(), config);
    let output = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"])
        .env("OPENAI_API_KEY", "sk-not-for-hooks")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let event: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("event.json")).unwrap()).unwrap();
    assert_eq!((event["hook_event_name"].as_str(), event["tool_name"].as_str()), (Some("PostToolUse"), Some("echo")));
    assert!(event["tool_response"].to_string().contains("secret plan"), "{event}");
    let session = std::fs::read_to_string(dir.path().join("session.txt")).unwrap();
    let ran = json_lines(&output).into_iter().find(|line| line["event"] == "session:start").expect("session:start");
    assert_eq!(session.trim(), ran["data"]["session_id"].as_str().unwrap());
    let env = std::fs::read_to_string(dir.path().join("env.txt")).unwrap();
    assert!(!env.contains("sk-not-for-hooks"), "a provider key reached a hook: {env}");
    // Confined: the hooks reach no further than their sandboxes.
    assert_eq!(std::fs::read_to_string(dir.path().join("git.txt")).unwrap(), "refused\n");
    assert!(!dir.path().join(".git/hooks/pre-commit").exists() && !dir.path().join("readonly.txt").exists());
    let said = stderr(&output);
    assert!(said.contains("touch readonly.txt` exited with 1") && said.contains("readonly.txt"), "{said}");
    assert!(!said.contains("scratch': "), "the TMPDIR is writable: {said}");
}
