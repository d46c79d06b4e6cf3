//! `amplifier mcp-server` with a real MCP client: the `mcp` Python SDK's
//! stdio client (from PyPI, `tests/python/setup.sh`) starts the server,
//! lists the plan's tools, calls them, and asks the agent.

mod common;

use std::path::Path;
use std::process::Output;

use common::*;
use serde_json::{json, Value};

/// Runs the Python client in `dir` against `amplifier mcp-server ARGS`,
/// making `calls`; returns what it printed.
fn client(dir: &Path, calls: Value, args: &[&str]) -> (Value, Output) {
    let output = std::process::Command::new(python())
        .arg(workspace().join("tests/python/mcp_client.py"))
        .arg(env!("CARGO_BIN_EXE_amplifier"))
        .arg(calls.to_string())
        .arg("--")
        .arg("mcp-server")
        .args(args)
        .current_dir(dir)
        .env("AMPLIFIER_HOME", amplifier_home())
        .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
        .env("AMPLIFIER_STATE_DIR", dir.join("state"))
        .env_remove("AMPLIFIER_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "the client failed:\n{}", stderr(&output));
    let printed =
        serde_json::from_str(stdout(&output).trim()).unwrap_or_else(|err| panic!("{err}: {}", stdout(&output)));
    (printed, output)
}

#[test]
fn an_mcp_client_lists_and_calls_the_plans_tools_and_asks_the_agent() {
    let dir = tempfile::tempdir().unwrap();
    // The model answers the agent's one turn by calling echo, then from the tool's result.
    let provider =
        scripted(r#"[{tool_calls: [{name: echo, arguments: {text: from the agent}}]}, {text: "the agent says hi"}]"#);
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();
    let calls = json!([
        {"name": "echo", "arguments": {"text": "over MCP"}},
        {"name": "echo", "arguments": {}},
        {"name": "run_agent", "arguments": {"prompt": "say hi"}},
        {"name": "nope", "arguments": {}},
    ]);
    let (printed, output) = client(dir.path(), calls, &["--plan", "plan.yaml", "--agent"]);
    assert_eq!(printed["server"], "amplifier");
    let tools: Vec<&str> = printed["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(tools, ["echo", "run_agent"]);
    assert_eq!(printed["tools"][0]["input_schema"]["required"], json!(["text"]), "the tool's own schema");

    let results = printed["calls"].as_array().unwrap();
    assert_eq!(results[0], json!({"is_error": false, "text": "over MCP"}));
    assert_eq!(results[1]["is_error"], true, "input that fails the schema is a tool error: {}", results[1]);
    assert!(results[1]["text"].as_str().unwrap().contains("text"), "{}", results[1]);
    assert_eq!(results[2], json!({"is_error": false, "text": "the agent says hi"}));
    assert!(
        results[3]["protocol_error"].as_str().unwrap().contains("no tool named `nope` is served"),
        "{}",
        results[3]
    );

    // The agent's turn is a stored session, with the tool call in it.
    let list =
        amplifier(dir.path()).args(["session", "list"]).env("AMPLIFIER_STATE_DIR", dir.path().join("state")).output();
    assert!(stdout(&list.unwrap()).lines().count() >= 2, "one session recorded");
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

#[test]
fn only_the_named_tools_are_served_and_a_wrong_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&scripted("[{text: done}]"), "", "  []")).unwrap();
    let (printed, _) = client(
        dir.path(),
        json!([{"name": "echo", "arguments": {"text": "x"}}]),
        &["--plan", "plan.yaml", "--tool", "echo"],
    );
    assert_eq!(printed["tools"].as_array().unwrap().len(), 1);

    let refused = amplifier(dir.path())
        .args(["mcp-server", "--plan", "plan.yaml", "--tool", "bash"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "a usage error: {}", stderr(&refused));
    assert!(stderr(&refused).contains("--tool bash: the plan mounts no such tool"), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("the plan's tools: echo"), "{}", stderr(&refused));
    assert!(stdout(&refused).is_empty(), "stdout is the protocol's alone: {}", stdout(&refused));
}

/// A call from an MCP client goes through the plan's hooks, as the agent
/// loop's calls do: hooks-approval denies by its rules, and a `tool:post`
/// hook's result is what the client gets.
#[test]
fn a_served_tool_call_goes_through_the_plans_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let hooks = format!(
        "  - {{module: hooks-approval, source: \"{}\", config: {{rules: [{{tool: echo, when: {{text: \"forbidden*\"}}, action: deny}}]}}}}\n\
         \x20 - {{module: hook-verdict, source: \"{}\", config: {{event: \"tool:post\", result: {{action: modify, data: {{result: \"[checked by a hook]\"}}}}}}}}",
        plugin("hooks-approval"),
        fixture("hook-verdict")
    );
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&scripted("[{text: unused}]"), "", &hooks)).unwrap();
    let calls = json!([
        {"name": "echo", "arguments": {"text": "forbidden fruit"}},
        {"name": "echo", "arguments": {"text": "fine"}},
    ]);
    let (printed, output) = client(dir.path(), calls, &["--plan", "plan.yaml"]);
    let results = printed["calls"].as_array().unwrap();
    assert_eq!(results[0]["is_error"], true, "{}", results[0]);
    assert!(results[0]["text"].as_str().unwrap().starts_with("Denied by hook: hooks-approval"), "{}", results[0]);
    assert_eq!(results[1], json!({"is_error": false, "text": "[checked by a hook]"}));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

/// A served tool's images reach the client as image content: here an MCP
/// tool of the plan's own (tool-mcp on the Python SDK server's `pixel`),
/// passed through.
#[test]
fn a_tools_images_reach_the_client_as_image_content() {
    let dir = tempfile::tempdir().unwrap();
    let script = workspace().join("tests/python/mcp_tools_server.py");
    let tool = format!(
        "  - {{module: tool-mcp, source: \"{}\", config: {}}}",
        plugin("tool-mcp"),
        json!({"servers": {"py": {"command": python(), "args": [script, "stdio"], "timeout": 60}}})
    );
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&scripted("[{text: unused}]"), &tool, "  []")).unwrap();
    let calls = json!([{"name": "mcp_wait", "arguments": {}}, {"name": "py__pixel", "arguments": {}}]);
    let (printed, _) = client(dir.path(), calls, &["--plan", "plan.yaml"]);
    let pixel = &printed["calls"][1];
    assert_eq!(pixel["is_error"], false, "{printed}");
    assert_eq!(pixel["text"], "[image: image/png, 69 bytes]");
    assert_eq!(pixel["images"][0]["mime_type"], "image/png");
    assert!(pixel["images"][0]["data"].as_str().unwrap().starts_with("iVBORw0KGgo"), "a PNG: {pixel}");
}
