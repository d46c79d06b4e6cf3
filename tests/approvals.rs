//! hooks-approval and the CLI's approval system, end to end: rules decide,
//! an `ask` goes to the terminal (a real pseudo-terminal, made by
//! util-linux's `script`), and without one the default applies at once.

mod common;

use std::path::Path;
use std::process::{Output, Stdio};

use common::*;
use serde_json::Value;

/// A plan whose model calls `echo {text}` once, then answers "done"; every
/// request the model got is logged to `requests.jsonl`.
fn write_plan(dir: &Path, approval_config: &str) {
    let provider = format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    config: {{requests_log: \"{}\", script: [{{tool_calls: [{{name: echo, arguments: {{text: secret plan}}}}]}}, {{text: done}}]}}\n",
        plugin("provider-scripted"),
        dir.join("requests.jsonl").display()
    );
    let hooks =
        format!("  - {{module: hooks-approval, source: \"{}\", config: {approval_config}}}", plugin("hooks-approval"));
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&provider, "", &hooks)).unwrap();
}

fn run(dir: &Path) -> Output {
    amplifier(dir).args(["run", "--plan", "plan.yaml", "go"]).stdin(Stdio::null()).output().unwrap()
}

/// What the model was told about its `echo` call.
fn tool_result(dir: &Path) -> String {
    let requests: Vec<Value> = std::fs::read_to_string(dir.join("requests.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let messages = requests.last().unwrap()["messages"].as_array().unwrap().clone();
    let tool = messages.iter().rev().find(|m| m["role"] == "tool").expect("a tool result");
    tool["content"].to_string()
}

#[test]
fn rules_approve_deny_and_ask_and_without_a_terminal_the_default_applies() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");

    write_plan(
        dir.path(),
        &format!(
            r#"{{rules: [{{tool: echo, when: {{text: "secret*"}}, action: deny}}], audit_log: "{}"}}"#,
            audit.display()
        ),
    );
    let denied = run(dir.path());
    assert!(denied.status.success(), "{}", stderr(&denied));
    let result = tool_result(dir.path());
    assert!(result.contains("Denied by hook") && result.contains("rules[0]"), "the model hears why: {result}");
    let record: Value = serde_json::from_str(std::fs::read_to_string(&audit).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!((record["tool"].as_str(), record["decision"].as_str()), (Some("echo"), Some("deny")));

    write_plan(dir.path(), "{rules: [{tool: echo, action: ask}]}");
    let asked = run(dir.path());
    assert!(stderr(&asked).contains("no terminal to ask on; applying the default (deny)"), "{}", stderr(&asked));
    assert!(tool_result(dir.path()).contains("Denied by hook"), "{}", tool_result(dir.path()));

    write_plan(dir.path(), "{rules: [{tool: echo, action: ask}], approval_default: allow}");
    run(dir.path());
    assert!(
        tool_result(dir.path()).contains("secret plan"),
        "default allow runs the tool: {}",
        tool_result(dir.path())
    );

    write_plan(dir.path(), "{low_risk_action: auto_approve}");
    run(dir.path());
    assert!(tool_result(dir.path()).contains("secret plan"));
}

fn run_in_terminal(dir: &Path, answers: &str) -> String {
    in_terminal(dir, "run --plan plan.yaml go", answers)
}

#[test]
fn allow_always_on_the_terminal_is_remembered_for_the_project() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path(), "{rules: [{tool: echo, action: ask}]}");
    // Build the plugins first, so the terminal shows only the question.
    run(dir.path());

    let screen = run_in_terminal(dir.path(), "2\n");
    assert!(screen.contains("Allow the tool `echo`?") && screen.contains("2) Allow always"), "{screen}");
    assert!(tool_result(dir.path()).contains("secret plan"), "allowed: {}", tool_result(dir.path()));
    let settings = std::fs::read_to_string(dir.path().join(".amplifier/settings.local.yaml")).unwrap();
    assert!(settings.contains("always_allow") && settings.contains("Allow the tool `echo`?"), "{settings}");

    // Asked no more: nothing is typed, and the tool still runs.
    let screen = run_in_terminal(dir.path(), "");
    assert!(!screen.contains("Allow the tool"), "{screen}");
    assert!(tool_result(dir.path()).contains("secret plan"));

    // "Deny" on the terminal leaves the model a denied result.
    std::fs::remove_file(dir.path().join(".amplifier/settings.local.yaml")).unwrap();
    run_in_terminal(dir.path(), "3\n");
    assert!(tool_result(dir.path()).contains("User denied"), "{}", tool_result(dir.path()));
}
