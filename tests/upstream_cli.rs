//! Upstream Amplifier's CLI habits: `run --provider/--model/--max-tokens`,
//! the `json` document's `bundle`, `model` and `timestamp`, `json-trace`,
//! `resume` without an id (the picker), and `tool list | info | invoke`.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

use common::*;
use serde_json::{json, Value};

/// Two scripted providers: `provider-scripted` (preferred, priority 1) and
/// the instance `b` (priority 50), each saying which it is; the tool echo.
fn two_providers(dir: &Path) {
    let providers = r#"  - module: provider-scripted
    config: {priority: 1, default_model: alpha, script: [{text: "from a"}]}
  - module: provider-scripted
    instance_id: b
    config: {priority: 50, script: [{tool_calls: [{name: echo, arguments: {text: traced}}]}, {text: "from b"}]}
"#;
    std::fs::write(dir.join("plan.yaml"), plan_yaml(providers, "", "  []")).unwrap();
}

fn document(output: &Output) -> Value {
    assert!(output.status.success(), "{:?}: {}", output.status, stderr(output));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| panic!("{err}: {}", stdout(output)))
}

#[test]
fn provider_model_and_the_json_documents() {
    let dir = tempfile::tempdir().unwrap();
    two_providers(dir.path());
    let run = |args: &[&str]| amplifier(dir.path()).args(["run", "--plan", "plan.yaml"]).args(args).output().unwrap();

    // The preferred provider answers; its model is named as upstream names it.
    let plain = document(&run(&["--output-format", "json", "hi"]));
    assert_eq!(plain["response"], "from a");
    assert_eq!(plain["model"], "provider-scripted/alpha");
    assert_eq!(plain["bundle"], Value::Null, "a plan, not a bundle");
    let stamp = plain["timestamp"].as_str().unwrap();
    assert!(stamp.starts_with("20") && stamp.ends_with('Z') && stamp.contains('T'), "{stamp}");

    // --provider by instance_id, with --model: `b` is preferred, with that model.
    let chosen = document(&run(&["-p", "b", "-m", "opus", "--output-format", "json-trace", "hi"]));
    assert_eq!(chosen["response"], "from b");
    assert_eq!(chosen["model"], "b/opus");
    let trace = chosen["execution_trace"].as_array().unwrap();
    assert_eq!(trace.len(), 1, "{chosen:#}");
    assert_eq!(trace[0]["type"], "tool_call");
    assert_eq!(trace[0]["tool"], "echo");
    assert_eq!(trace[0]["arguments"], json!({"text": "traced"}));
    assert_eq!(trace[0]["result"]["success"], true);
    assert_eq!(trace[0]["sequence"], 1);
    assert!(trace[0]["duration_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{}", trace[0]);
    assert_eq!(chosen["metadata"]["total_tool_calls"], 1);
    assert_eq!(chosen["metadata"]["total_agents_invoked"], 0);

    // A provider the plan lacks is refused, naming the ones it has.
    let unknown = run(&["--provider", "ollama", "hi"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown)
            .starts_with("error: provider 'ollama' is not in the plan (its providers: provider-scripted, b)"),
        "{}",
        stderr(&unknown)
    );
    // --model needs --provider, as upstream says.
    let model_alone = run(&["-m", "opus", "hi"]);
    assert_eq!(model_alone.status.code(), Some(2), "{}", stderr(&model_alone));
}

#[test]
fn resume_without_an_id_picks_from_this_directorys_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_yaml(&scripted("[]").replace("{script: []}", "{echo_last_user: true, script: []}"), "", "  []");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let mut ids = Vec::new();
    for prompt in ["first", "second"] {
        let output = amplifier(dir.path())
            .args(["run", "--plan", "plan.yaml", "--output-format", "json", prompt])
            .output()
            .unwrap();
        ids.push(document(&output)["session_id"].as_str().unwrap().to_owned());
    }
    // Newest first: `2` is the first session. The prompt follows the choice.
    let picked = resume_with_input(dir.path(), "2\nonce more\n");
    let picked = document(&picked);
    assert_eq!(picked["session_id"], ids[0].as_str());
    assert_eq!(picked["response"], "once more\n", "the prompt as piped");

    let quit = resume_with_input(dir.path(), "q\n");
    assert!(quit.status.success(), "{}", stderr(&quit));
    assert!(quit.stdout.is_empty());
    let listing = stderr(&quit);
    assert!(listing.contains(&format!("[1] {} first", &ids[0][..12])), "the one resumed is the newest now: {listing}");
    assert!(listing.contains(&format!("[2] {} second", &ids[1][..12])), "{listing}");
}

fn resume_with_input(dir: &Path, input: &str) -> Output {
    let mut child = amplifier(dir)
        .args(["resume", "--output-format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn tool_list_info_and_invoke_mount_the_plans_tools() {
    let dir = tempfile::tempdir().unwrap();
    two_providers(dir.path());
    let tool =
        |args: &[&str]| amplifier(dir.path()).arg("tool").args(args).args(["--plan", "plan.yaml"]).output().unwrap();

    let listed = document(&tool(&["list", "--format", "json"]));
    assert_eq!(listed[0]["name"], "echo");
    assert_eq!(listed[0]["module"], "tool-echo");
    let info = document(&tool(&["info", "echo", "--format", "json"]));
    assert_eq!(info["parameters"]["required"], json!(["text"]));

    // Values are JSON when they parse, text otherwise.
    let invoked = tool(&["invoke", "echo", "text=hello there"]);
    assert!(invoked.status.success(), "{}", stderr(&invoked));
    assert_eq!(stdout(&invoked).trim(), "hello there");
    let quoted = document(&tool(&["invoke", "echo", "text=\"[1,2]\"", "-o", "json"]));
    assert_eq!(quoted["status"], "success");
    assert_eq!(quoted["result"]["output"], "[1,2]", "a JSON string: {quoted}");

    // `[1,2]` is JSON, an array, which echo's schema refuses: the call
    // fails, exit 1.
    let refused = tool(&["invoke", "echo", "text=[1,2]", "-o", "json"]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let refused: Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(refused["status"], "error");
    assert_eq!(refused["result"]["error"]["type"], "InvalidInput", "{refused}");
    let unknown = tool(&["invoke", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("hint: the plan's tools: echo"), "{}", stderr(&unknown));
}
