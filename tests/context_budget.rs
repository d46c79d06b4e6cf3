//! The context follows its provider, as upstream's context-simple does: the
//! budget is the model's window less half its most output and a margin
//! (`context:budget`, once per change), `max_tokens` caps it, and a tool
//! result over `max_tool_result_bytes` is cut as it enters the history
//! (`context:tool_result_ingress_truncated`), and with `summarize` a view
//! over budget starts from a model's summary, through the real plugins.

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

#[test]
fn a_view_over_budget_is_summarized_by_the_named_provider_and_later_requests_start_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let long = "word ".repeat(100);
    let script =
        format!("[{{tool_calls: [{{name: echo, arguments: {{text: \"{long}\"}}}}], repeat: 6}}, {{text: done}}]");
    let main = scripted(&script)
        .replace("{script:", &format!("{{requests_log: \"{}\", script:", dir.path().join("main.jsonl").display()));
    let summarizer = format!(
        "  - module: provider-scripted\n    instance_id: summarizer\n    source: \"{}\"\n    config: {{priority: 200, requests_log: \"{}\", script: [{{text: \"SUMMARY: six echoes of words\"}}]}}\n",
        plugin("provider-scripted"),
        dir.path().join("summarizer.jsonl").display()
    );
    let config = "{max_tokens: 1200, summarize: true, summary_provider: summarizer}";
    let plan = plan_yaml(&format!("{main}{summarizer}"), "", "  []").replace(
        &format!("{{module: context-simple, source: \"{}\"}}", plugin("context-simple")),
        &format!("{{module: context-simple, source: \"{}\", config: {config}}}", plugin("context-simple")),
    );
    let output = run_plan(dir.path(), &plan);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.last().unwrap()["data"]["response"], "done");

    // Announced before and after, and the model call as a summary's.
    let pre = events(&lines, "context:pre_compact");
    let post = events(&lines, "context:post_compact");
    let summarized = post.iter().find(|p| p["strategy"] == "summary").expect("a summary was made");
    assert!(pre.iter().any(|p| p["strategy"] == "summary"), "{pre:?}");
    assert!(summarized["messages_summarized"].as_u64() > Some(0), "{summarized}");
    assert!(events(&lines, "provider:request").iter().any(|r| r["purpose"] == "summarize"));

    // The named provider wrote it, from a transcript of the older messages.
    let log = |name: &str| -> Vec<Value> {
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    };
    let asked = log("summarizer.jsonl");
    let transcript = asked[0]["messages"][1]["content"].as_str().unwrap();
    assert!(transcript.contains("Assistant called echo with"), "{transcript}");
    assert!(transcript.contains("Tool result: word word"), "{transcript}");

    // The main model's last request starts from the summary, with every
    // tool result beside its call.
    let sent = log("main.jsonl");
    let last = sent.last().unwrap()["messages"].as_array().unwrap().clone();
    let summary = last
        .iter()
        .position(|m| m["content"].as_str().is_some_and(|t| t.starts_with("[Summary of the earlier conversation]")))
        .unwrap_or_else(|| panic!("no summary in {last:?}"));
    assert!(last[summary]["content"].as_str().unwrap().ends_with("SUMMARY: six echoes of words"));
    let calls: Vec<&str> = last
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().into_iter().flatten())
        .map(|call| call["id"].as_str().unwrap())
        .collect();
    let results: Vec<&str> = last.iter().filter_map(|m| m["tool_call_id"].as_str()).collect();
    assert!(!results.is_empty() && results.iter().all(|id| calls.contains(id)), "{calls:?} {results:?}");
    assert!(calls.len() < 6, "older calls are in the summary, not the request: {calls:?}");
}
