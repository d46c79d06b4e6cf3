//! A smoke test of the evaluation suite (`cargo xtask eval` runs all of it,
//! as a benchmark): three of its questions, asked of the default plan (the
//! real model, pulled on first use) in a copy of `tests/eval/fixture/`, and
//! scored as the suite scores them. The agent must look at the files: the
//! answers are in them, not in any model's memory.

mod common;

#[path = "eval/score.rs"]
mod score;

use std::path::Path;

use common::*;
use serde_json::Value;

/// Questions the default plan's model answers with one tool call.
const SMOKE: [&str; 3] = ["package-version", "docker-base", "rust-files"];

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

fn words(task: &toml::Table, key: &str) -> Vec<String> {
    let list = task.get(key).and_then(toml::Value::as_array).cloned().unwrap_or_default();
    list.iter().map(|w| w.as_str().unwrap().to_owned()).collect()
}

#[test]
fn the_default_plan_answers_questions_about_a_checkout_from_its_files() {
    let suite: toml::Table =
        std::fs::read_to_string(workspace().join("tests/eval/suite.toml")).unwrap().parse().unwrap();
    let tasks = suite["task"].as_array().unwrap();
    let mut right = Vec::new();
    let mut report = Vec::new();
    for id in SMOKE {
        let task = tasks.iter().filter_map(toml::Value::as_table).find(|t| t["id"].as_str() == Some(id)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let checkout = dir.path().join("tidepool");
        copy_tree(&workspace().join("tests/eval/fixture"), &checkout);
        let output = amplifier(&checkout)
            .env_remove("AMPLIFIER_PLAN")
            .args(["run", "--output-format", "json-trace", task["prompt"].as_str().unwrap()])
            .output()
            .unwrap();
        assert!(output.status.success(), "{id}: {}", stderr(&output));
        let result: Value = serde_json::from_str(&stdout(&output)).unwrap();
        let answer = result["response"].as_str().unwrap_or_default();
        let calls = result["execution_trace"].as_array().map_or(0, Vec::len);
        report.push(format!("{id}: {calls} tool call(s), {answer:?}"));
        if score::is_right(answer, &words(task, "expect"), &words(task, "any")) {
            assert!(calls > 0, "{id}: right without looking: {answer:?}");
            right.push(id);
        }
    }
    // Greedy decoding, but the prompt holds the temporary directory's name:
    // one miss in three is allowed; an agent that does not act gets none.
    assert!(right.len() >= 2, "right: {right:?}\n{}", report.join("\n"));
}
