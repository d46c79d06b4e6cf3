//! `orchestrator-router` end to end: the real binary, real plugins, a real
//! SQLite store per test (`AMPLIFIER_STATE_DIR`), scripted agents and a
//! scripted classifier. The caller's stream is the jsonl output's
//! `router:*` events; spans are its `trace:span_*` events (the CLI turns
//! them into `tracing` spans, tested with an in-memory exporter in the CLI).

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Output, Stdio};

use amplifier_store::{AgentScope, Store};
use common::serve::{http, parse_sse, start_server, start_server_with};
use common::*;
use serde_json::{json, Value};

const USER: &str = "u-42";
const CONVERSATION: &str = "s-99";

/// An agent of the plan: id, extra overlay keys (one YAML line each, may be
/// empty) and its provider's script.
struct Agent<'a> {
    id: &'a str,
    extra: &'a str,
    script: &'a str,
}

fn agent<'a>(id: &'a str, script: &'a str) -> Agent<'a> {
    Agent { id, extra: "", script }
}

/// Writes `dir/plan.yaml`: the router with `config` (a YAML flow map body),
/// top-level `providers` (YAML list body, may be empty), tool-echo, and the
/// agents, each logging its requests to `dir/<id>-requests.jsonl`.
fn write_plan(dir: &Path, config: &str, providers: &str, agents: &[Agent]) {
    let mut yaml = format!(
        r#"session:
  orchestrator:
    module: orchestrator-router
    source: "{router}"
    config: {{{config}}}
  context: {{module: context-simple, source: "{context}"}}
providers:
{providers}
tools:
  - {{module: tool-echo, source: "{echo}"}}
agents:
"#,
        router = plugin("orchestrator-router"),
        context = plugin("context-simple"),
        echo = plugin("tool-echo"),
    );
    for a in agents {
        yaml.push_str(&format!(
            r#"  {id}:
    description: the {id} agent
    system: {{instruction: "You are {id}."}}
{extra}    providers:
      - module: provider-scripted
        source: "{scripted}"
        instance_id: {id}-model
        config: {{requests_log: "{log}", script: {script}}}
"#,
            id = a.id,
            extra = if a.extra.is_empty() { String::new() } else { format!("    {}\n", a.extra) },
            scripted = plugin("provider-scripted"),
            log = dir.join(format!("{}-requests.jsonl", a.id)).display(),
            script = a.script,
        ));
    }
    std::fs::write(dir.join("plan.yaml"), yaml).unwrap();
}

fn state_dir(dir: &Path) -> std::path::PathBuf {
    dir.join("state")
}

/// `amplifier run` of the plan in `dir` for the test's user and conversation.
fn turn_command(dir: &Path, prompt: &str) -> std::process::Command {
    turn_command_as(dir, "jsonl", prompt)
}

fn turn_command_as(dir: &Path, format: &str, prompt: &str) -> std::process::Command {
    let mut command = amplifier(dir);
    command.env("AMPLIFIER_STATE_DIR", state_dir(dir)).args([
        "run",
        "--plan",
        "plan.yaml",
        "--output-format",
        format,
        "--user",
        USER,
        "--session",
        CONVERSATION,
        prompt,
    ]);
    command
}

fn turn(dir: &Path, prompt: &str) -> Output {
    turn_command(dir, prompt).output().unwrap()
}

fn stored(dir: &Path, agent: &str) -> Vec<(String, String)> {
    let store = Store::open(&state_dir(dir)).unwrap();
    let scope = AgentScope { user_id: USER, conversation_id: CONVERSATION, agent_id: agent };
    store.agent_history(scope, None).unwrap().iter().map(|m| (role(m.role), m.content.text())).collect()
}

fn role(role: amplifier_kernel::models::Role) -> String {
    serde_json::to_value(role).unwrap().as_str().unwrap().to_owned()
}

fn pair(user: &str, assistant: &str) -> Vec<(String, String)> {
    vec![("user".into(), user.into()), ("assistant".into(), assistant.into())]
}

/// The caller's stream: `router:*` events as (name, data).
fn router_events(lines: &[Value]) -> Vec<(String, Value)> {
    lines
        .iter()
        .filter(|l| l["event"].as_str().is_some_and(|e| e.starts_with("router:")))
        .map(|l| (l["event"].as_str().unwrap().to_owned(), l["data"].clone()))
        .collect()
}

fn names(events: &[(String, Value)]) -> Vec<&str> {
    events.iter().map(|(name, _)| name.as_str()).collect()
}

fn final_agent(lines: &[Value]) -> String {
    let events = router_events(lines);
    let (_, data) = events.iter().find(|(name, _)| name == "router:final").expect("a router:final event");
    data["agent"].as_str().unwrap().to_owned()
}

fn requests(dir: &Path, agent: &str) -> Vec<Value> {
    std::fs::read_to_string(dir.join(format!("{agent}-requests.jsonl")))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// (role, text) of the messages of a logged request.
fn request_messages(request: &Value) -> Vec<(String, String)> {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let content = &m["content"];
            let text = match content {
                Value::String(text) => text.clone(),
                Value::Array(blocks) => blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join(""),
                _ => String::new(),
            };
            (m["role"].as_str().unwrap().to_owned(), text)
        })
        .collect()
}

/// The span events: (kind, data) for `trace:span_start` and `trace:span_end`.
fn spans(lines: &[Value]) -> Vec<(String, Value)> {
    lines
        .iter()
        .filter(|l| l["event"].as_str().is_some_and(|e| e.starts_with("trace:span_")))
        .map(|l| (l["event"].as_str().unwrap().to_owned(), l["data"].clone()))
        .collect()
}

fn span_end<'a>(spans: &'a [(String, Value)], name: &str) -> &'a Value {
    let start = spans.iter().find(|(kind, d)| kind == "trace:span_start" && d["name"] == name).expect(name);
    let id = &start.1["span_id"];
    &spans.iter().find(|(kind, d)| kind == "trace:span_end" && &d["span_id"] == id).expect("the span ends").1
}

fn assert_success(output: &Output) {
    assert!(output.status.success(), "stderr: {}\nstdout: {}", stderr(output), stdout(output));
}

#[test]
fn a_single_agent_relays_its_events_in_order_and_stores_the_exchange() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{thinking: "hmm", text: "hello there, friend"}]"#;
    write_plan(dir.path(), "", "", &[agent("support", script)]);
    let output = turn(dir.path(), "q");
    assert_success(&output);
    let lines = json_lines(&output);
    let events = router_events(&lines);
    assert_eq!(
        names(&events),
        ["router:selected", "router:thinking", "router:delta", "router:delta", "router:delta", "router:final"]
    );
    assert_eq!(events[0].1["agent"], "support");
    assert_eq!(events[0].1["classifier"], Value::Null);
    let streamed: String =
        events.iter().filter(|(n, _)| n == "router:delta").map(|(_, d)| d["delta"].as_str().unwrap()).collect();
    assert_eq!(streamed, "hello there, friend");
    assert_eq!(events.last().unwrap().1["message"], "hello there, friend");
    // The agent's model usage is this run's, and the turn ends as any does.
    let result = lines.last().unwrap();
    assert_eq!(result["event"], "run:result");
    assert!(result["data"]["usage"]["total_tokens"].as_u64().unwrap() > 0, "{result}");
    let names_all = event_names(&lines);
    let complete = names_all.iter().rposition(|n| n == "orchestrator:complete").expect("orchestrator:complete");
    assert_eq!(&names_all[complete + 1..], ["session:end", "run:result"]);
    assert!(names_all.iter().any(|n| n == "prompt:submit"));
    assert_eq!(stored(dir.path(), "support"), pair("q", "hello there, friend"));
    // The agent saw its system instruction and the prompt, nothing else.
    assert_eq!(
        request_messages(&requests(dir.path(), "support")[0]),
        [("system".to_owned(), "You are support.".to_owned()), ("user".to_owned(), "q".to_owned())]
    );
}

#[test]
fn tool_calls_are_relayed_and_stored_with_their_turn() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{text: "checking", tool_calls: [{name: echo, arguments: {text: "42"}}]}, {text: "it is 42"}]"#;
    write_plan(dir.path(), "", "", &[agent("support", script)]);
    let output = turn(dir.path(), "what is it?");
    assert_success(&output);
    let events = router_events(&json_lines(&output));
    let call = events.iter().find(|(n, _)| n == "router:tool_call").expect("a tool call event");
    assert_eq!(call.1["name"], "echo");
    assert_eq!(call.1["arguments"], json!({"text": "42"}));
    let roles: Vec<String> = stored(dir.path(), "support").into_iter().map(|(role, _)| role).collect();
    assert_eq!(roles, ["user", "assistant", "tool", "assistant"]);

    // The next turn replays it whole: no tool call without its result.
    // (A new process: the script starts over, so its first request is the
    // third logged.)
    let output = turn(dir.path(), "and now?");
    assert_success(&output);
    let second = &requests(dir.path(), "support")[2];
    let roles: Vec<String> = request_messages(second).into_iter().map(|(role, _)| role).collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "assistant", "user"]);
}

const TWO_AGENTS_RULES: &str =
    "classifier: {type: keywords, rules: [{agent: billing, keywords: [invoice, refund]}, {agent: support, keywords: [hello]}]}";

fn two_agents(dir: &Path) {
    write_plan(
        dir,
        TWO_AGENTS_RULES,
        "",
        &[agent("support", r#"[{text: "support answers"}]"#), agent("billing", r#"[{text: "billing answers"}]"#)],
    );
}

#[test]
fn the_classifiers_choice_is_honoured_including_the_default_agent() {
    let dir = tempfile::tempdir().unwrap();
    two_agents(dir.path());
    let output = turn(dir.path(), "I want a REFUND");
    assert_success(&output);
    let lines = json_lines(&output);
    assert_eq!(final_agent(&lines), "billing");
    assert_eq!(router_events(&lines)[0].1["classifier_choice"], "billing");
    assert_eq!(stored(dir.path(), "billing"), pair("I want a REFUND", "billing answers"));
    assert!(stored(dir.path(), "support").is_empty());

    let output = turn(dir.path(), "hello");
    assert_success(&output);
    let lines = json_lines(&output);
    assert_eq!(final_agent(&lines), "support");
    assert_eq!(router_events(&lines)[0].1["classifier_choice"], "support");
}

#[test]
fn no_choice_falls_back_to_the_first_agent() {
    let dir = tempfile::tempdir().unwrap();
    two_agents(dir.path());
    let output = turn(dir.path(), "what's the weather?");
    assert_success(&output);
    let lines = json_lines(&output);
    assert_eq!(final_agent(&lines), "support");
    assert_eq!(router_events(&lines)[0].1["classifier_choice"], Value::Null);
    assert!(router_events(&lines).iter().all(|(n, _)| n != "router:error"));
}

/// The plan with an `llm` classifier whose provider answers with `choice`
/// (each run is a new process, so each turn gets its own script).
fn llm_classified(dir: &Path, choice: &str) {
    let classifier = format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    instance_id: classifier\n    config: {{requests_log: \"{}\", script: [{{tool_calls: [{{name: select_agent, arguments: {{agent: {choice}}}}}]}}]}}\n",
        plugin("provider-scripted"),
        dir.join("classifier-requests.jsonl").display()
    );
    write_plan(
        dir,
        "classifier: {type: llm, provider: classifier}",
        &classifier,
        &[agent("support", r#"[{text: "support answers"}]"#), agent("billing", r#"[{text: "billing answers"}]"#)],
    );
}

#[test]
fn the_llm_classifier_sees_the_merged_history_and_picks_through_select_agent() {
    let dir = tempfile::tempdir().unwrap();
    llm_classified(dir.path(), "billing");
    let output = turn(dir.path(), "first question");
    assert_success(&output);
    let lines = json_lines(&output);
    assert_eq!(final_agent(&lines), "billing");
    // The classifier's call is a model call of the run: its tokens count.
    let total = |usage: &Value| usage["total_tokens"].as_u64().unwrap_or(0);
    let responses: Vec<&Value> =
        lines.iter().filter(|l| l["event"] == "provider:response").map(|l| &l["data"]).collect();
    let classify = responses.iter().find(|d| d["purpose"] == "classify").expect("the classifier's provider:response");
    assert!(total(&classify["usage"]) > 0, "{classify}");
    let summed: u64 = responses.iter().map(|d| total(&d["usage"])).sum();
    assert_eq!(total(&lines.last().unwrap()["data"]["usage"]), summed);
    assert!(summed > total(&classify["usage"]), "the agent's tokens count too");

    // An id that is no agent's is no choice: the default answers.
    llm_classified(dir.path(), "nobody");
    let output = turn(dir.path(), "second question");
    assert_success(&output);
    assert_eq!(final_agent(&json_lines(&output)), "support");

    let logged: Vec<Value> = std::fs::read_to_string(dir.path().join("classifier-requests.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(logged.len(), 2, "one classifier call per turn");
    let tool = &logged[0]["tools"][0];
    assert_eq!(tool["name"], "select_agent");
    assert_eq!(tool["parameters"]["properties"]["agent"]["enum"], json!(["support", "billing"]));
    let system = &request_messages(&logged[0])[0].1;
    assert!(system.contains("- billing: the billing agent"), "{system}");
    // The second call saw the first turn, attributed.
    let seen = request_messages(&logged[1]);
    assert_eq!(
        seen[1..].to_vec(),
        [
            ("user".to_owned(), "first question".to_owned()),
            ("assistant".to_owned(), "[billing] billing answers".to_owned()),
            ("user".to_owned(), "second question".to_owned()),
        ]
    );
    // The agents never see the classifier's tool.
    let tools = &requests(dir.path(), "billing")[0]["tools"];
    assert!(tools.as_array().is_none_or(|t| t.iter().all(|t| t["name"] != "select_agent")), "{tools}");
}

/// A turn's SSE frames from `amplifier run --output-format sse`.
fn sse_turn(dir: &Path, prompt: &str) -> (Output, Vec<common::serve::Frame>) {
    let output = turn_command_as(dir, "sse", prompt).output().unwrap();
    let frames = parse_sse(&stdout(&output));
    (output, frames)
}

#[test]
fn an_sse_stream_names_the_agent_and_counts_each_models_tokens_once() {
    let dir = tempfile::tempdir().unwrap();
    let classifier = format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    instance_id: classifier\n    config: {{script: [{{tool_calls: [{{name: select_agent, arguments: {{agent: billing}}}}], usage: {{input_tokens: 7, output_tokens: 1, total_tokens: 8}}}}]}}\n",
        plugin("provider-scripted")
    );
    let answer = r#"[{text: "billing answers", usage: {input_tokens: 10, output_tokens: 2, total_tokens: 12}}]"#;
    let agents = [agent("support", r#"[{text: "support answers"}]"#), agent("billing", answer)];
    write_plan(dir.path(), "classifier: {type: llm, provider: classifier}", &classifier, &agents);
    let (output, frames) = sse_turn(dir.path(), "my invoice");
    assert_success(&output);
    let selected: Vec<_> = frames.iter().filter(|f| f.event == "agent_selected").collect();
    assert_eq!(selected.len(), 1, "{frames:?}");
    assert_eq!(
        (&selected[0].data["message"], &selected[0].data["data"]["classifier"]),
        (&json!("billing"), &json!("llm"))
    );
    let complete = frames.last().unwrap();
    assert_eq!((complete.event.as_str(), &complete.data["agent"]), ("complete", &json!("billing")));
    // The classifier's 8 and the agent's 12, each once: the agent's
    // response is seen in its own session and again as the router passes it on.
    let totals = &frames[frames.len() - 2];
    assert_eq!(totals.event, "metrics");
    assert_eq!(totals.data["tokens"], json!({"input": 17, "output": 3, "total": 20}));
}

#[test]
fn a_hook_can_be_the_classifier() {
    let dir = tempfile::tempdir().unwrap();
    let agents =
        [agent("support", r#"[{text: "support answers"}]"#), agent("billing", r#"[{text: "billing answers"}]"#)];
    for (answer, expected) in [("billing", "billing"), ("nobody", "support")] {
        write_plan(dir.path(), "classifier: {type: hook}", "", &agents);
        let hook = format!(
            "hooks:\n  - {{module: hook-verdict, source: \"{}\", config: {{event: \"router:classify\", result: {{action: modify, data: {{agent: {answer}}}}}}}}}\n",
            fixture("hook-verdict")
        );
        let mut plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
        plan.push_str(&hook);
        std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
        let output = turn(dir.path(), "which one?");
        assert_success(&output);
        let lines = json_lines(&output);
        assert_eq!(final_agent(&lines), expected, "the hook answered {answer}");
        let selected = router_events(&lines).into_iter().find(|(name, _)| name == "router:selected").unwrap().1;
        assert_eq!(selected["classifier"], "hook");
        assert_eq!(selected["classifier_choice"], if answer == "billing" { json!("billing") } else { Value::Null });
    }
}

#[test]
fn the_agent_gets_the_history_window_starting_with_a_user_message() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path(), "max_messages: 5", "", &[agent("support", r#"[{text: "fresh answer"}]"#)]);
    {
        let mut store = Store::open(&state_dir(dir.path())).unwrap();
        let scope = AgentScope { user_id: USER, conversation_id: CONVERSATION, agent_id: "support" };
        let history: Vec<_> = (0..10)
            .map(|i| {
                use amplifier_kernel::models::{Message, Role};
                if i % 2 == 0 {
                    Message::user(format!("q{i}"))
                } else {
                    Message::new(Role::Assistant, format!("a{i}"))
                }
            })
            .collect();
        store.save_agent_messages(scope, &history, None).unwrap();
    }
    let output = turn(dir.path(), "now");
    assert_success(&output);
    let seen = request_messages(&requests(dir.path(), "support")[0]);
    let texts: Vec<&str> = seen.iter().map(|(_, text)| text.as_str()).collect();
    assert_eq!(texts, ["You are support.", "q6", "a7", "q8", "a9", "now"]);
    // Trimmed again after the save: the newest 4.
    let kept: Vec<String> = stored(dir.path(), "support").into_iter().map(|(_, text)| text).collect();
    assert_eq!(kept, ["q8", "a9", "now", "fresh answer"]);
}

#[test]
fn an_error_before_the_final_answer_saves_nothing_and_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{text: "partial", tool_calls: [{name: echo, arguments: {text: "x"}}]}, {fail: {kind: unavailable, message: "model offline"}}]"#;
    write_plan(dir.path(), "", "", &[agent("support", script)]);
    let output = turn(dir.path(), "q");
    assert!(!output.status.success());
    let events = router_events(&json_lines(&output));
    let errors: Vec<&Value> = events.iter().filter(|(n, _)| n == "router:error").map(|(_, d)| d).collect();
    assert_eq!(errors.len(), 1, "{events:?}");
    // The agent's own error is what the caller hears, once.
    assert_eq!(errors[0]["message"], "model offline");
    assert_eq!(names(&events).last(), Some(&"router:error"));
    assert!(names(&events).contains(&"router:delta"));
    assert!(stored(dir.path(), "support").is_empty());
}

#[test]
fn a_failure_outside_the_agent_is_one_friendly_error() {
    let dir = tempfile::tempdir().unwrap();
    // The rule names no agent of the plan: the turn fails before any agent runs.
    write_plan(
        dir.path(),
        "classifier: {type: keywords, rules: [{agent: sales, keywords: [buy]}]}",
        "",
        &[agent("support", r#"[{text: "x"}]"#)],
    );
    let output = turn(dir.path(), "q");
    assert!(!output.status.success());
    let events = router_events(&json_lines(&output));
    assert_eq!(names(&events), ["router:error"]);
    assert_eq!(events[0].1["message"], "Sorry, something went wrong handling that. Please try again.");
    assert!(stderr(&output).contains("classifier.rules[0].agent: no agent `sales`"), "{}", stderr(&output));

    // An SSE client reads the same words, and the error itself in `data.cause`.
    let (output, frames) = sse_turn(dir.path(), "q");
    assert!(!output.status.success());
    let errors: Vec<_> = frames.iter().filter(|f| f.event == "run_error").collect();
    assert_eq!(errors.len(), 1, "{frames:?}");
    assert_eq!(errors[0].data["message"], "Sorry, something went wrong handling that. Please try again.");
    let cause = errors[0].data["data"]["cause"].as_str().unwrap();
    assert!(cause.contains("classifier.rules[0].agent: no agent `sales`"), "{cause}");
}

#[test]
fn save_chat_false_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ephemeral = Agent { id: "support", extra: "save_chat: false", script: r#"[{text: "not kept"}]"# };
    write_plan(dir.path(), "", "", &[ephemeral]);
    let output = turn(dir.path(), "q");
    assert_success(&output);
    assert_eq!(final_agent(&json_lines(&output)), "support");
    assert!(stored(dir.path(), "support").is_empty());
}

#[test]
fn a_persistence_failure_after_the_answer_is_on_the_trace_only() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path(), "", "", &[agent("support", r#"[{text: "answered"}]"#)]);
    drop(Store::open(&state_dir(dir.path())).unwrap());
    let db = rusqlite::Connection::open(state_dir(dir.path()).join(amplifier_store::DB_FILE)).unwrap();
    db.execute_batch(
        "CREATE TRIGGER full_disk BEFORE INSERT ON agent_messages BEGIN SELECT RAISE(ABORT, 'disk is full'); END;",
    )
    .unwrap();
    let output = turn(dir.path(), "q");
    assert_success(&output);
    let lines = json_lines(&output);
    let events = router_events(&lines);
    assert_eq!(names(&events).last(), Some(&"router:final"));
    assert!(names(&events).iter().all(|n| *n != "router:error"));
    let spans = spans(&lines);
    let root = span_end(&spans, "chat.turn");
    assert_eq!(root["status"], "error");
    assert!(root["error"].as_str().unwrap().contains("disk is full"), "{root}");
    assert_eq!(span_end(&spans, "agent.support")["status"], "ok");
}

#[test]
fn each_turn_is_one_root_span_with_one_agent_span() {
    let dir = tempfile::tempdir().unwrap();
    two_agents(dir.path());
    let output = turn(dir.path(), "refund please");
    assert_success(&output);
    let spans = spans(&json_lines(&output));
    let starts: Vec<&Value> = spans.iter().filter(|(k, _)| k == "trace:span_start").map(|(_, d)| d).collect();
    assert_eq!(starts.len(), 2, "{starts:?}");
    let roots: Vec<&&Value> = starts.iter().filter(|d| d["parent_span_id"].is_null()).collect();
    assert_eq!(roots.len(), 1);
    assert_eq!(roots[0]["name"], "chat.turn");
    let child = starts.iter().find(|d| !d["parent_span_id"].is_null()).unwrap();
    assert_eq!(child["name"], "agent.billing");
    assert_eq!(child["parent_span_id"], roots[0]["span_id"]);
    assert_eq!(spans.iter().filter(|(k, _)| k == "trace:span_end").count(), 2);
    let root = span_end(&spans, "chat.turn");
    assert_eq!(root["status"], "ok");
    assert_eq!(root["attributes"]["agent"], "billing");
    assert_eq!(root["attributes"]["classifier.choice"], "billing");
    assert!(span_end(&spans, "agent.billing")["attributes"]["usage.total_tokens"].as_u64().unwrap() > 0);
}

#[test]
fn duplicate_agent_ids_are_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path(), "", "", &[agent("support", "[]"), agent("billing", "[]"), agent("support", "[]")]);
    let output = turn(dir.path(), "q");
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("agents.support: duplicate agent id `support` (lines 12 and 28)"), "{err}");
}

#[test]
fn a_cancelled_turn_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // The tool call blocks long enough to interrupt the turn in the middle.
    let script = r#"[{text: "working", tool_calls: [{name: bash, arguments: {command: "sleep 2"}}]}, {text: "done"}]"#;
    let bash = Agent {
        id: "support",
        extra: &format!("tools: [{{module: tool-bash, source: \"{}\"}}]", plugin("tool-bash")),
        script,
    };
    write_plan(dir.path(), "", "", &[bash]);
    let mut child = turn_command(dir.path(), "q").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    let mut interrupted = false;
    for line in stdout.lines() {
        let line = line.unwrap();
        let value: Value = serde_json::from_str(&line).unwrap();
        if !interrupted && value["event"] == "router:tool_call" {
            let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
            assert!(status.success());
            interrupted = true;
        }
        lines.push(value);
    }
    let status = child.wait().unwrap();
    assert!(interrupted, "the turn never reached its tool call: {lines:?}");
    assert!(!status.success());
    let events = router_events(&lines);
    assert!(names(&events).iter().all(|n| *n != "router:final"), "{events:?}");
    let errors: Vec<&Value> = events.iter().filter(|(n, _)| n == "router:error").map(|(_, d)| d).collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["message"], "The turn was cancelled; nothing was saved.");
    assert!(stored(dir.path(), "support").is_empty());
}

#[test]
fn otlp_exports_the_turns_spans_to_a_collector() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path(), "", "", &[agent("support", r#"[{text: "traced"}]"#)]);
    let (endpoint, bodies) = otlp_collector();
    let output = turn_command(dir.path(), "q").args(["--otlp", &endpoint]).output().unwrap();
    assert_success(&output);
    let (head, body) = bodies
        .recv_timeout(std::time::Duration::from_secs(10))
        .unwrap_or_else(|_| panic!("no OTLP export; stderr:\n{}", stderr(&output)));
    assert!(head.starts_with("POST /v1/traces "), "{head}");
    let body = String::from_utf8_lossy(&body);
    for expected in ["chat.turn", "agent.support", "amplifier", CONVERSATION] {
        assert!(body.contains(expected), "no {expected} in the export");
    }
}

#[test]
fn sse_and_served_runs_keep_the_conversation_like_plain_runs() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path(), "", "", &[agent("support", r#"[{text: "noted"}]"#)]);
    let output = turn_command_as(dir.path(), "sse", "first").output().unwrap();
    assert_success(&output);
    assert!(parse_sse(&stdout(&output)).iter().any(|f| f.event == "complete"), "{}", stdout(&output));
    assert_eq!(stored(dir.path(), "support"), pair("first", "noted"));

    // A served thread is the conversation, `userId` its user.
    let mut command = amplifier(dir.path());
    command.env("AMPLIFIER_STATE_DIR", state_dir(dir.path()));
    let server = start_server(command);
    let request = json!({"mode": "chat", "message": "second", "threadId": CONVERSATION, "userId": USER});
    let (status, head, body) = http(&server.addr, "POST", "/v1/runs", &request.to_string());
    assert_eq!(status, 200, "{head}\n{body}");
    assert!(parse_sse(&body).iter().any(|f| f.event == "complete"), "{body}");
    assert_eq!(stored(dir.path(), "support"), [pair("first", "noted"), pair("second", "noted")].concat());
    // The agent was given the thread's earlier turn, and the served text, not the request.
    let last = requests(dir.path(), "support").pop().unwrap().to_string();
    assert!(last.contains("first") && last.contains("second") && !last.contains("threadId"), "{last}");

    let (status, _, body) = http(&server.addr, "POST", "/v1/runs", r#"{"message": "x", "userId": "../etc"}"#);
    assert_eq!(status, 400);
    assert!(body.contains("`userId`"), "{body}");
}

#[test]
fn a_client_that_leaves_cancels_the_served_turn_and_nothing_is_saved() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("started");
    // Long enough that the turn is still in the tool when the client leaves.
    let command = format!("touch {} && sleep 4", started.display());
    let script =
        format!(r#"[{{tool_calls: [{{name: bash, arguments: {{command: "{command}"}}}}]}}, {{text: "done"}}]"#);
    let tools = format!("tools: [{{module: tool-bash, source: \"{}\"}}]", plugin("tool-bash"));
    write_plan(dir.path(), "", "", &[Agent { id: "support", extra: &tools, script: &script }]);
    let mut command = amplifier(dir.path());
    command.env("AMPLIFIER_STATE_DIR", state_dir(dir.path()));
    // The run waits a second for the client to come back, while the tool still runs.
    let server = start_server_with(command, &["--plan", "plan.yaml", "--resume-window", "1"]);

    let body = json!({"mode": "chat", "message": "left", "threadId": CONVERSATION, "userId": USER}).to_string();
    let mut client = std::net::TcpStream::connect(&server.addr).unwrap();
    let request = format!(
        "POST /v1/runs HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    client.write_all(request.as_bytes()).unwrap();
    let mut first = [0u8; 64];
    assert!(client.read(&mut first).unwrap() > 0, "the stream began");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !started.exists() {
        assert!(std::time::Instant::now() < deadline, "the tool never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(client);

    // The thread is busy until the cancelled turn ends; then it takes the next one.
    let request = json!({"mode": "chat", "message": "stayed", "threadId": CONVERSATION, "userId": USER});
    let (status, body) = loop {
        let (status, _, body) = http(&server.addr, "POST", "/v1/runs", &request.to_string());
        if status != 409 {
            break (status, body);
        }
        assert!(std::time::Instant::now() < deadline, "the left turn never ended");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(status, 200, "{body}");
    assert!(parse_sse(&body).iter().any(|f| f.event == "complete"), "{body}");
    // Only the second turn (with its tool call and result): the left one saved nothing.
    let stored = stored(dir.path(), "support");
    assert_eq!(stored.len(), 4, "{stored:?}");
    assert_eq!((&stored[0], &stored[3]), (&pair("stayed", "done")[0], &pair("stayed", "done")[1]), "{stored:?}");
}

/// The per-agent histories live in the store in use: here PostgreSQL, as
/// two machines of one team would share it.
#[test]
fn the_agents_history_lives_in_postgres_when_the_store_is_there() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path(), "", "", &[agent("support", r#"[{text: "first answer"}, {text: "second answer"}]"#)]);
    let url = amplifier_test_postgres::database();
    for prompt in ["one", "two"] {
        assert_success(&turn_command(dir.path(), prompt).env("AMPLIFIER_STORE", &url).output().unwrap());
    }
    let second = request_messages(&requests(dir.path(), "support")[1]);
    let texts: Vec<&str> = second.iter().map(|(_, text)| text.as_str()).collect();
    assert_eq!(texts, ["You are support.", "one", "first answer", "two"], "the second turn saw the first");
    let store = Store::connect(&amplifier_store::Location::Postgres(url), dir.path()).unwrap();
    let scope = AgentScope { user_id: USER, conversation_id: CONVERSATION, agent_id: "support" };
    assert_eq!(store.agent_history(scope, None).unwrap().len(), 4);
    assert!(!state_dir(dir.path()).join(amplifier_store::DB_FILE).exists(), "nothing went to SQLite");
}
