//! The context follows its provider, as upstream's context-simple does: the
//! budget is the model's window less half its most output and a margin
//! (`context:budget`, once per change), `max_tokens` caps it, and a tool
//! result over `max_tool_result_bytes` is cut as it enters the history
//! (`context:tool_result_ingress_truncated`), through the real plugins.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

/// A plan whose model echoes `text` twice (two turns), with `context_config`.
fn plan(dir: &Path, context_config: &str, text: &str) -> String {
    let script = format!(
        r#"[{{tool_calls: [{{name: echo, arguments: {{text: "{text}"}}}}]}}, {{tool_calls: [{{name: echo, arguments: {{text: "{text}"}}}}]}}, {{text: done}}]"#
    );
    let provider = scripted(&script)
        .replace("{script:", &format!("{{requests_log: \"{}\", script:", dir.join("requests.jsonl").display()));
    plan_yaml(&provider, "", "  []").replace(
        &format!("{{module: context-simple, source: \"{}\"}}", plugin("context-simple")),
        &format!("{{module: context-simple, source: \"{}\", config: {context_config}}}", plugin("context-simple")),
    )
}

fn events<'a>(lines: &'a [Value], name: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["event"] == name).map(|l| &l["data"]).collect()
}

#[test]
fn the_budget_follows_the_providers_model_and_max_tokens_caps_it() {
    let dir = tempfile::tempdir().unwrap();
    let output = run_plan(dir.path(), &plan(dir.path(), "{}", "hi"));
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    // provider-scripted's one model: a 1,000,000-token window, 100,000 out.
    let budgets = events(&lines, "context:budget");
    assert_eq!(budgets.len(), 1, "announced once, for three requests: {budgets:?}");
    assert_eq!(budgets[0]["source"], "provider_model_info");
    assert_eq!(budgets[0]["context_window"], 1_000_000);
    assert_eq!(budgets[0]["reserved_output"], 50_000);
    assert_eq!(budgets[0]["effective_budget"], 1_000_000 - 50_000 - 4096);
    assert_eq!(budgets[0]["capped"], false);

    let capped = run_plan(dir.path(), &plan(dir.path(), "{max_tokens: 5000}", "hi"));
    let lines = json_lines(&capped);
    let budgets = events(&lines, "context:budget");
    assert_eq!((budgets[0]["effective_budget"].clone(), budgets[0]["capped"].clone()), (5000.into(), true.into()));
}

#[test]
fn a_tool_result_over_the_ingress_cap_is_cut_as_it_enters() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(1000);
    let output = run_plan(dir.path(), &plan(dir.path(), "{max_tool_result_bytes: 400}", &long));
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    let cut = events(&lines, "context:tool_result_ingress_truncated");
    assert_eq!(cut.len(), 2, "{cut:?}");
    assert_eq!(cut[0]["original_text_utf8_bytes"], 1000);
    assert_eq!(cut[0]["max_tool_result_bytes"], 400);
    assert_eq!(cut[0]["content_kind"], "string");
    assert_eq!(cut[0]["tool_call_id"], "call_1");
    assert!(cut[0]["stored_text_utf8_bytes"].as_u64().unwrap() <= 400);

    // The model saw the beginning and upstream's marker, not the whole.
    let last = std::fs::read_to_string(dir.path().join("requests.jsonl")).unwrap();
    let request: Value = serde_json::from_str(last.lines().last().unwrap()).unwrap();
    let tool = request["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap();
    let text = tool["content"].as_str().unwrap();
    assert!(text.starts_with("xxxx"), "{text}");
    assert!(
        text.ends_with("[tool-result truncated at ingress: original_text_utf8_bytes=1000; retrieve missing content using narrower read/query parameters; do not repeat state-changing actions just to recover output.]"),
        "{text}"
    );
}

#[test]
fn a_compacted_view_is_announced_as_upstreams_context_compaction() {
    let dir = tempfile::tempdir().unwrap();
    let long = "y".repeat(2000);
    let output = run_plan(
        dir.path(),
        &plan(dir.path(), "{max_tokens: 500, truncate_chars: 50, protected_tool_results: 0}", &long),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    let compactions = events(&lines, "context:compaction");
    assert!(!compactions.is_empty(), "{:?}", event_names(&lines));
    let first = compactions[0];
    assert!(first["before_tokens"].as_u64() > first["after_tokens"].as_u64(), "{first}");
    assert_eq!(first["budget"], 460, "500 tokens at the 0.92 threshold");
    assert!(first["messages_truncated"].as_u64().unwrap() >= 1, "{first}");
    assert_eq!(first["protected_tool_results"], 0);
}
