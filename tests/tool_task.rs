//! `tool-task` and the kernel's child sessions, end to end through real plugins.

mod common;

use common::*;
use serde_json::Value;

fn read_lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap_or_default().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn task_plan(dir: &std::path::Path, parent_script: &str, child_script: &str, task_config: &str) -> String {
    task_plan_with_hooks(dir, parent_script, child_script, task_config, "")
}

/// `task_plan` with more hook entries (YAML list items), which children inherit.
fn task_plan_with_hooks(
    dir: &std::path::Path,
    parent_script: &str,
    child_script: &str,
    task_config: &str,
    hooks: &str,
) -> String {
    let parent_log = dir.join("parent-requests.jsonl");
    let child_log = dir.join("child-requests.jsonl");
    let events = dir.join("events.jsonl");
    format!(
        r#"session:
  orchestrator: {{module: loop-basic, source: "{loop_basic}"}}
  context: {{module: context-simple, source: "{context}"}}
providers:
  - module: provider-scripted
    source: "{scripted}"
    config: {{requests_log: "{parent_log}", script: {parent_script}}}
tools:
  - {{module: tool-echo, source: "{echo}"}}
  - {{module: tool-task, source: "{task}", config: {task_config}}}
hooks:
  - {{module: hooks-logging, source: "{logging}", config: {{path: "{events}"}}}}
{hooks}
agents:
  helper:
    description: Answers questions about echoes
    system: {{instruction: "You are the helper agent."}}
    providers:
      - module: provider-scripted
        source: "{scripted}"
        config: {{requests_log: "{child_log}", script: {child_script}}}
"#,
        loop_basic = plugin("loop-basic"),
        context = plugin("context-simple"),
        scripted = plugin("provider-scripted"),
        echo = plugin("tool-echo"),
        task = plugin("tool-task"),
        logging = plugin("hooks-logging"),
        parent_log = parent_log.display(),
        child_log = child_log.display(),
        events = events.display(),
    )
}

#[test]
fn a_child_session_runs_the_agent_and_the_parent_sees_only_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let parent_script = r#"[{tool_calls: [{name: task, arguments: {agent: helper, instruction: "Check the echo tool"}}]}, {text: "parent done"}]"#;
    let child_script = r#"[{tool_calls: [{name: echo, arguments: {text: "from the child"}}]}, {text: "child answer"}]"#;
    std::fs::write(dir.path().join("plan.yaml"), task_plan(dir.path(), parent_script, child_script, "{}")).unwrap();
    let output = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "delegate please"])
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    let parent_id = lines[0]["data"]["session_id"].as_str().unwrap().to_owned();

    let post = lines.iter().find(|l| l["event"] == "tool:post").expect("the task call finished");
    let result = &post["data"]["result"]["output"];
    assert_eq!(result["response"], "child answer");
    let child_id = result["session_id"].as_str().unwrap().to_owned();
    let parent_span: String = parent_id.chars().filter(char::is_ascii_hexdigit).take(16).collect();
    assert!(child_id.starts_with(&format!("{parent_span}-")) && child_id.ends_with("_helper"), "{child_id}");
    let names = event_names(&lines);
    let spawned = names.iter().position(|n| n == "task:agent_spawned").expect("task:agent_spawned");
    let completed = names.iter().position(|n| n == "task:agent_completed").expect("task:agent_completed");
    assert!(spawned < completed);
    assert_eq!(lines.last().unwrap()["data"]["response"], "parent done");

    // The child ran in its own session: its events carry the parent's id and it forked.
    let logged = read_lines(&dir.path().join("events.jsonl"));
    let fork = logged.iter().find(|e| e["event"] == "session:fork").expect("the child emitted session:fork");
    assert_eq!(fork["data"]["parent"], parent_id.as_str());
    assert_eq!(fork["data"]["session_id"], child_id.as_str());
    let child_events: Vec<&Value> = logged.iter().filter(|e| e["session_id"] == child_id.as_str()).collect();
    assert!(child_events.iter().all(|e| e["data"]["parent_id"] == parent_id.as_str()));
    assert!(child_events.iter().any(|e| e["event"] == "tool:post" && e["data"]["tool_name"] == "echo"));
    assert!(child_events.iter().any(|e| e["event"] == "session:end"), "the child was cleaned up");

    // The child saw its system instruction and the task's instruction, not the parent's conversation.
    let child_requests = read_lines(&dir.path().join("child-requests.jsonl"));
    let first = &child_requests[0]["messages"];
    assert_eq!(first[0]["role"], "system");
    assert_eq!(first[0]["content"], "You are the helper agent.");
    assert_eq!(first[1]["content"], "Check the echo tool");
    assert!(!first.to_string().contains("delegate please"));
    let child_tools: Vec<&str> =
        child_requests[0]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(child_tools, ["echo"], "tool-task excludes itself from children by default");

    // The parent's transcript holds only the task result, not the child's work.
    let parent_requests = read_lines(&dir.path().join("parent-requests.jsonl"));
    let second = parent_requests[1]["messages"].as_array().unwrap();
    let roles: Vec<&str> = second.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "tool"]);
    assert!(second[2]["content"].as_str().unwrap().contains("child answer"));
    assert!(!parent_requests[1].to_string().contains("from the child"));
}

#[test]
fn a_childs_approval_question_reaches_the_parents_approval_system() {
    let dir = tempfile::tempdir().unwrap();
    let parent_script =
        r#"[{tool_calls: [{name: task, arguments: {agent: helper, instruction: "echo it"}}]}, {text: "parent done"}]"#;
    let child_script = r#"[{tool_calls: [{name: echo, arguments: {text: "asked first"}}]}, {text: "child answer"}]"#;
    let approval = format!(
        "  - {{module: hooks-approval, source: \"{}\", config: {{rules: [{{tool: echo, action: ask}}], approval_default: allow}}}}",
        plugin("hooks-approval")
    );
    let plan = task_plan_with_hooks(dir.path(), parent_script, child_script, "{}", &approval);
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "go"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    // The CLI's approval system answered the child (with no terminal: the
    // question's default), where a child without one would fail closed.
    assert!(
        stderr(&output).contains("approval: no terminal to ask on; applying the default (allow)"),
        "{}",
        stderr(&output)
    );
    let logged = read_lines(&dir.path().join("events.jsonl"));
    let granted = logged.iter().find(|e| e["event"] == "approval:granted").expect("approval:granted");
    assert_ne!(granted["data"]["parent_id"], Value::Null, "asked in the child: {granted}");
    assert!(logged.iter().any(|e| e["event"] == "tool:post" && e["data"]["tool_name"] == "echo"));
}

#[test]
fn a_sub_agents_session_is_stored_under_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let parent_script = r#"[{tool_calls: [{name: task, arguments: {agent: helper, instruction: "Check the echo tool"}}]}, {text: "parent done"}]"#;
    let child_script = r#"[{tool_calls: [{name: echo, arguments: {text: "from the child"}}]}, {text: "child answer"}]"#;
    std::fs::write(dir.path().join("plan.yaml"), task_plan(dir.path(), parent_script, child_script, "{}")).unwrap();
    let run = |args: &[&str]| amplifier(dir.path()).args(args).env("AMPLIFIER_STATE_DIR", &state).output().unwrap();
    let output = run(&["run", "--plan", "plan.yaml", "--output-format", "json", "delegate please"]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let parent_id = serde_json::from_str::<Value>(&stdout(&output)).unwrap()["session_id"].as_str().unwrap().to_owned();

    // `session list` shows the session the user started, not its sub-agent's.
    let list = stdout(&run(&["session", "list"]));
    assert_eq!(list.lines().count(), 2, "{list}");
    assert!(list.contains(&parent_id), "{list}");
    let show = stdout(&run(&["session", "show", &parent_id]));
    let line = show.lines().find(|l| l.starts_with("sub-agent")).unwrap_or_else(|| panic!("{show}"));
    let child_id = line.split_whitespace().nth(1).unwrap().to_owned();
    assert!(line.contains("(helper, 5 messages)"), "{line}");

    // The sub-agent's own record: its agent, its parent, its whole conversation.
    let child = stdout(&run(&["session", "show", &child_id, "--transcript"]));
    assert!(child.contains(&format!("a sub-agent of {parent_id}")), "{child}");
    assert!(child.lines().any(|l| l.starts_with("status") && l.contains("completed")), "{child}");
    assert!(child.contains("You are the helper agent.") && child.contains("child answer"), "{child}");
    assert!(child.contains(&format!("sub-agent `helper` of: {parent_id}")), "{child}");

    // Deleting the parent deletes its sub-agents.
    assert!(run(&["session", "delete", &parent_id]).status.success());
    let gone = run(&["session", "show", &child_id]);
    assert!(!gone.status.success() && stderr(&gone).contains("no session matches"), "{}", stderr(&gone));
}

#[test]
fn an_unknown_agent_is_an_error_result_naming_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let parent_script =
        r#"[{tool_calls: [{name: task, arguments: {agent: nobody, instruction: "x"}}]}, {text: "parent done"}]"#;
    std::fs::write(dir.path().join("plan.yaml"), task_plan(dir.path(), parent_script, "[]", "{}")).unwrap();
    let output =
        amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    // The schema's enum of agents refuses the call before it reaches the tool.
    let error = lines.iter().find(|l| l["event"] == "tool:error").expect("a tool:error");
    let message = error["data"]["error"]["msg"].as_str().unwrap();
    assert!(message.contains("invalid input for tool 'task'") && message.contains("helper"), "{message}");
}

#[test]
fn max_recursion_depth_stops_delegation_below_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    // The child inherits tool-task (exclude_tools: []) and tries to delegate again.
    let parent_script = r#"[{tool_calls: [{name: task, arguments: {agent: helper, instruction: "go deeper"}}]}, {text: "parent done"}]"#;
    let child_script = r#"[{tool_calls: [{name: task, arguments: {agent: helper, instruction: "deeper still"}}]}, {text: "child gave up"}]"#;
    let plan = task_plan(dir.path(), parent_script, child_script, "{exclude_tools: []}");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output =
        amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let child_requests = read_lines(&dir.path().join("child-requests.jsonl"));
    let refused = child_requests[1]["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap();
    assert!(refused.contains("max_recursion_depth is 1"), "{refused}");
    let lines = json_lines(&output);
    let post = lines.iter().find(|l| l["event"] == "tool:post").unwrap();
    assert_eq!(post["data"]["result"]["output"]["response"], "child gave up");
}
