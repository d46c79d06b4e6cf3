//! The loop plugins end to end: loop-events asks `tool:selecting` before
//! each tool, one at a time, and a hook's deny or modify there is obeyed;
//! loop-basic runs the same calls in parallel; loop-streaming streams its
//! blocks and brackets the turn with `execution:*` (its steering is tested
//! in a terminal, in tests/repl.rs).

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

/// A plan on `orchestrator` whose model calls echo twice in one turn, with a
/// hook-verdict answering `tool:selecting` with `verdict` (if any).
fn plan(dir: &Path, orchestrator: &str, verdict: Option<&str>) -> String {
    let script =
        r#"[{tool_calls: [{name: echo, arguments: {text: one}}, {name: echo, arguments: {text: two}}]}, {text: done}]"#;
    plan_with_script(dir, orchestrator, script, verdict)
}

fn plan_with_script(dir: &Path, orchestrator: &str, script: &str, verdict: Option<&str>) -> String {
    let provider = scripted(script)
        .replace("{script:", &format!("{{requests_log: \"{}\", script:", dir.join("requests.jsonl").display()));
    let hooks = match verdict {
        Some(result) => format!(
            "  - {{module: hook-verdict, source: \"{}\", config: {{event: \"tool:selecting\", result: {result}}}}}",
            fixture("hook-verdict")
        ),
        None => "  []".to_owned(),
    };
    plan_yaml(&provider, "", &hooks).replace(
        &format!("{{module: loop-basic, source: \"{}\"}}", plugin("loop-basic")),
        &format!("{{module: {orchestrator}, source: \"{}\"}}", plugin(orchestrator)),
    )
}

/// The tool results the model saw in its last request.
fn tool_results(dir: &Path) -> Vec<String> {
    let last = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap().lines().last().unwrap().to_owned();
    let request: Value = serde_json::from_str(&last).unwrap();
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].to_string())
        .collect()
}

/// `(event, tool_call_id)` of the tool events, in order.
fn tool_events(lines: &[Value]) -> Vec<(String, String)> {
    lines
        .iter()
        .filter(|l| l["event"].as_str().is_some_and(|e| e.starts_with("tool:")))
        .map(|l| (l["event"].as_str().unwrap().to_owned(), l["data"]["tool_call_id"].as_str().unwrap_or("").to_owned()))
        .collect()
}

#[test]
fn loop_events_selects_each_tool_then_runs_it_one_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let output = run_plan(dir.path(), &plan(dir.path(), "loop-events", None));
    assert!(output.status.success(), "{}", stderr(&output));
    let events = tool_events(&json_lines(&output));
    let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(names, ["tool:selecting", "tool:pre", "tool:post", "tool:selecting", "tool:pre", "tool:post"]);
    assert_eq!(events[0].1, events[2].1, "the first call finishes before the second is selected");
    let complete = json_lines(&output).into_iter().find(|l| l["event"] == "orchestrator:complete").unwrap();
    assert_eq!(complete["data"]["orchestrator"], "loop-events");

    // loop-basic: no selection.
    let output = run_plan(dir.path(), &plan(dir.path(), "loop-basic", None));
    let names: Vec<String> = tool_events(&json_lines(&output)).into_iter().map(|(e, _)| e).collect();
    assert!(!names.contains(&"tool:selecting".to_owned()) && names.len() == 4, "{names:?}");
}

#[test]
fn a_hook_on_tool_selecting_denies_or_changes_the_choice() {
    let dir = tempfile::tempdir().unwrap();
    let denied = run_plan(dir.path(), &plan(dir.path(), "loop-events", Some(r#"{action: deny, reason: "not now"}"#)));
    assert!(denied.status.success(), "{}", stderr(&denied));
    let names: Vec<String> = tool_events(&json_lines(&denied)).into_iter().map(|(e, _)| e).collect();
    assert!(!names.contains(&"tool:pre".to_owned()), "a denied choice never runs: {names:?}");
    let results = tool_results(dir.path());
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|r| r.contains("Denied by hook: not now")), "{results:?}");

    let changed = run_plan(
        dir.path(),
        &plan(dir.path(), "loop-events", Some(r#"{action: modify, data: {tool_input: {text: "changed"}}}"#)),
    );
    assert!(changed.status.success(), "{}", stderr(&changed));
    let results = tool_results(dir.path());
    assert!(results.iter().all(|r| r.contains("changed") && !r.contains("one")), "{results:?}");
}

#[test]
fn a_hook_on_tool_pre_rewrites_the_input_in_loop_basic() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(dir.path(), "loop-basic", Some(r#"{action: modify, data: {tool_input: {text: "rewritten"}}}"#))
        .replace("event: \"tool:selecting\"", "event: \"tool:pre\"");
    let output = run_plan(dir.path(), &plan);
    assert!(output.status.success(), "{}", stderr(&output));
    let results = tool_results(dir.path());
    assert!(results.iter().all(|r| r.contains("rewritten")), "{results:?}");
}

/// `plan_with_script` with hook-verdict answering `event` with `result`.
fn plan_with_verdict(dir: &Path, orchestrator: &str, script: &str, event: &str, result: &str) -> String {
    plan_with_script(dir, orchestrator, script, Some(result))
        .replace("event: \"tool:selecting\"", &format!("event: \"{event}\""))
}

/// The requests the scripted provider received.
fn requests(dir: &Path) -> Vec<Value> {
    let log = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap_or_default();
    log.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn a_tool_post_hook_may_replace_the_result_with_any_value() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{tool_calls: [{name: echo, arguments: {text: secret}}]}, {text: done}]"#;
    let verdict = r#"{action: modify, data: {result: "[withheld by policy]"}}"#;
    let output = run_plan(dir.path(), &plan_with_verdict(dir.path(), "loop-basic", script, "tool:post", verdict));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(tool_results(dir.path()), [r#""[withheld by policy]""#]);
}

#[test]
fn a_denied_prompt_or_provider_request_answers_operation_denied_as_upstream() {
    // Not a failed run: upstream's loops answer with the denial.
    for event in ["prompt:submit", "provider:request"] {
        for orchestrator in ["loop-basic", "loop-streaming"] {
            let dir = tempfile::tempdir().unwrap();
            let script = r#"[{text: never}]"#;
            let verdict = r#"{action: deny, reason: "over budget"}"#;
            let plan = plan_with_verdict(dir.path(), orchestrator, script, event, verdict);
            let output = run_plan(dir.path(), &plan);
            assert!(output.status.success(), "{event}/{orchestrator}: {}", stderr(&output));
            let lines = json_lines(&output);
            assert_eq!(lines.last().unwrap()["data"]["response"], "Operation denied: over budget", "{event}");
            let complete = lines.iter().find(|l| l["event"] == "orchestrator:complete").unwrap();
            assert_eq!(complete["data"]["status"], "denied");
            assert!(requests(dir.path()).is_empty(), "{event}/{orchestrator}: the model was never asked");
        }
    }
}

#[test]
fn at_max_iterations_the_wrap_up_call_keeps_the_tools_and_reminds_as_a_user_message() {
    for (last_turn, response, status) in [
        (r#"{text: "wrapped up"}"#, "wrapped up", "success"),
        ("{tool_calls: [{name: echo, arguments: {text: two}}]}", "", "incomplete"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let script = format!(
            r#"[{{tool_calls: [{{name: echo, arguments: {{text: one}}}}], metadata: {{reasoning_id: r1}}}}, {last_turn}]"#
        );
        let plan = plan_with_script(dir.path(), "loop-basic", &script, None)
            .replace("{module: loop-basic, source:", "{module: loop-basic, config: {max_iterations: 1}, source:");
        let output = run_plan(dir.path(), &plan);
        assert!(output.status.success(), "{}", stderr(&output));
        let lines = json_lines(&output);
        assert_eq!(lines.last().unwrap()["data"]["response"], response);
        let complete = lines.iter().find(|l| l["event"] == "orchestrator:complete").unwrap();
        assert_eq!(
            (complete["data"]["status"].as_str(), complete["data"]["turn_count"].as_u64()),
            (Some(status), Some(1))
        );
        assert_eq!(lines.iter().filter(|l| l["event"] == "tool:pre").count(), 1, "the wrap-up call's tools never run");

        let requests = requests(dir.path());
        assert_eq!(requests.len(), 2);
        let wrap_up = &requests[1];
        assert!(wrap_up["tools"].as_array().is_some_and(|tools| !tools.is_empty()), "{wrap_up}");
        let messages = wrap_up["messages"].as_array().unwrap();
        let reminder = messages.last().unwrap();
        assert_eq!(reminder["role"], "user");
        assert!(reminder["content"]
            .as_str()
            .unwrap_or_default()
            .contains("<system-reminder source=\"orchestrator-loop-limit\">"));
        // The assistant message kept the response's metadata (a provider's state across steps).
        let assistant = messages.iter().find(|m| m["role"] == "assistant").unwrap();
        assert_eq!(assistant["metadata"]["reasoning_id"], "r1", "{assistant}");
    }
}

#[test]
fn loop_streaming_spaces_its_provider_calls_by_min_delay_between_calls_ms() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{tool_calls: [{name: echo, arguments: {text: one}}]}, {tool_calls: [{name: echo, arguments: {text: two}}]}, {text: done}]"#;
    let plan = plan_with_script(dir.path(), "loop-streaming", script, None).replace(
        "{module: loop-streaming, source:",
        "{module: loop-streaming, config: {min_delay_between_calls_ms: 1500}, source:",
    );
    let output = run_plan(dir.path(), &plan);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    let delays: Vec<&Value> =
        lines.iter().filter(|l| l["event"] == "orchestrator:rate_limit_delay").map(|l| &l["data"]).collect();
    // Three calls: the first is never delayed, the next two wait out the rest
    // of the 1.5 s since the previous call ended.
    assert_eq!(delays.len(), 2, "{delays:?}");
    for delay in delays {
        let waited = delay["delay_ms"].as_u64().unwrap();
        assert!(waited > 0 && waited <= 1500, "{delay}");
        assert_eq!(delay["min_delay_ms"], 1500);
    }
    assert_eq!(lines.last().unwrap()["data"]["response"], "done");
}

#[test]
fn loop_streaming_streams_its_blocks_and_brackets_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{thinking: "let me see", tool_calls: [{name: echo, arguments: {text: one}}, {name: echo, arguments: {text: two}}]}, {text: "all done"}]"#;
    let output = run_plan(dir.path(), &plan_with_script(dir.path(), "loop-streaming", script, None));
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    let names = event_names(&lines);
    let at = |name: &str| names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no {name} in {names:?}"));
    assert!(at("execution:start") < at("prompt:submit"), "{names:?}");
    assert_eq!(lines[at("execution:start")]["data"]["prompt"], "go");

    // Each block starts before its first piece; thinking also as thinking:delta.
    assert!(at("content_block:start") < at("thinking:delta"), "{names:?}");
    assert_eq!(lines[at("content_block:start")]["data"]["block_type"], "thinking");
    let thinking: String =
        lines.iter().filter(|l| l["event"] == "thinking:delta").map(|l| l["data"]["text"].as_str().unwrap()).collect();
    assert_eq!(thinking, "let me see");
    let text: String = lines
        .iter()
        .filter(|l| l["event"] == "content_block:delta" && l["data"]["block_type"] == "text")
        .map(|l| l["data"]["delta"].as_str().unwrap())
        .collect();
    assert_eq!(text, "all done");
    let starts = names.iter().filter(|n| *n == "content_block:start").count();
    let ends = names.iter().filter(|n| *n == "content_block:end").count();
    assert_eq!(starts, ends, "one start per block, streamed or not: {names:?}");

    // Both calls ran as one parallel group, and the model saw both results.
    let groups: Vec<&Value> =
        lines.iter().filter(|l| l["event"] == "tool:pre").map(|l| &l["data"]["parallel_group_id"]).collect();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0], groups[1]);
    assert_eq!(tool_results(dir.path()).len(), 2);

    // execution:end, then orchestrator:complete last.
    let end = at("execution:end");
    assert_eq!(names[end + 1], "orchestrator:complete", "{names:?}");
    assert_eq!(lines[end]["data"]["status"], "completed");
    assert_eq!(lines[end]["data"]["response"], "all done");
}

#[test]
fn a_tools_own_failure_goes_through_tool_post_and_a_failed_call_is_tool_error() {
    for orchestrator in ["loop-basic", "loop-streaming"] {
        let dir = tempfile::tempdir().unwrap();
        let script = r#"[{tool_calls: [{name: read_file, arguments: {file_path: missing.txt}}, {name: no_such_tool, arguments: {}}]}, {text: done}]"#;
        let plan = plan_with_script(dir.path(), orchestrator, script, None).replacen(
            "tools:\n",
            "tools:\n  - {module: tool-filesystem}\n",
            1,
        );
        let output = run_plan(dir.path(), &plan);
        assert!(output.status.success(), "{orchestrator}: {}", stderr(&output));
        let lines = json_lines(&output);
        // read_file answered `success: false` itself: upstream's loop-basic
        // sends that through tool:post, where hooks may rewrite it.
        let own = tool_event(&lines, "call_1");
        assert_eq!(own["event"], "tool:post", "{orchestrator}: {own}");
        assert_eq!(own["data"]["result"]["success"], false);
        // A tool that is not mounted never answered: tool:error.
        let failed = tool_event(&lines, "call_2");
        assert_eq!(failed["event"], "tool:error", "{orchestrator}: {failed}");
        assert_eq!(failed["data"]["error"]["type"], "ToolNotFound");
        let errors = lines.iter().filter(|l| l["event"] == "tool:error").count();
        assert_eq!(errors, 1, "{orchestrator}");
    }
}
