//! `orchestrator-plan` end to end: scripted planner and specialists, SSE
//! frames from `amplifier run --output-format sse` and from `amplifier serve`.

mod common;

use std::path::Path;
use std::process::Output;

use common::serve::{http, parse_sse, start_server, start_server_with, Frame};
use common::*;
use serde_json::{json, Value};

/// `amplifier` in `dir`, with its own session store (`dir/state`), where
/// run states are kept: thread ids repeat across tests and test runs.
fn amplifier(dir: &Path) -> std::process::Command {
    let mut command = common::amplifier(dir);
    command.env("AMPLIFIER_STATE_DIR", dir.join("state"));
    command
}

/// A thread's run state as the orchestrator last saved it (`runs.save`).
fn stored_state(dir: &Path, thread: &str) -> Value {
    let store = amplifier_store::Store::open(&dir.join("state")).unwrap();
    serde_json::from_str(&store.run_state(thread).unwrap().expect("a stored run state")).unwrap()
}

fn read_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap_or_default().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A specialist: name, capabilities, system instruction and script (YAML list).
struct Agent<'a> {
    name: &'a str,
    capabilities: &'a str,
    instruction: &'a str,
    script: &'a str,
    extra: &'a str,
}

fn agent<'a>(name: &'a str, capabilities: &'a str, instruction: &'a str, script: &'a str) -> Agent<'a> {
    Agent { name, capabilities, instruction, script, extra: "" }
}

const STRATEGIST_SYSTEM: &str = "You are the strategist specialist.";
const WRITER_SYSTEM: &str = "You are the writer specialist.";
const QA_SYSTEM: &str = "You are the QA specialist.";

const PLAN_ALL: &str = r#"[{text: '{"action": "plan_update", "note": "full plan", "planPatch": {"steps": [{"id": "strategy", "capabilityId": "plan.strategy"}, {"id": "draft", "capabilityId": "content.write"}, {"id": "review", "capabilityId": "qa.review"}, {"id": "finalize", "action": "finalize"}]}}'}]"#;
const STRATEGY_SCRIPT: &str = r#"[{text: '{"strategy": {"rationale": "lead with the date"}}'}]"#;
const DRAFT_1: &str = "First draft text.";
const DRAFT_2: &str = "Second draft text, revised.";

fn writer_script() -> String {
    format!(r#"[{{text: '{{"draft": {{"text": "{DRAFT_1}"}}}}'}}, {{text: '{{"draft": {{"text": "{DRAFT_2}"}}}}'}}]"#)
}

const QA_PASS: &str = r#"[{text: '{"pass": true, "score": 0.9, "issues": []}'}]"#;
const QA_FAIL_THEN_PASS: &str = r#"[{text: '{"pass": false, "score": 0.5, "issues": ["x"]}'}, {text: '{"pass": true, "score": 0.9, "issues": []}'}]"#;
const QA_ALWAYS_FAILS: &str = r#"[{text: '{"pass": false, "score": 0.4, "issues": ["still weak"]}'}]"#;

fn standard_agents(qa_script: &str) -> Vec<(String, String, String, String, String)> {
    vec![
        (
            "strategist".into(),
            "[plan.strategy]".into(),
            STRATEGIST_SYSTEM.into(),
            STRATEGY_SCRIPT.into(),
            String::new(),
        ),
        (
            "writer".into(),
            "[content.brief, content.write]".into(),
            WRITER_SYSTEM.into(),
            writer_script(),
            String::new(),
        ),
        ("qa".into(), "[qa.review]".into(), QA_SYSTEM.into(), qa_script.into(), String::new()),
    ]
}

/// Writes `dir/plan.yaml`: orchestrator-plan with `config`, a scripted
/// planner, and the agents (each with a requests log `dir/<name>-requests.jsonl`).
fn write_plan(dir: &Path, config: &str, planner_script: &str, agents: &[Agent]) {
    let mut yaml = format!(
        r#"session:
  orchestrator:
    module: orchestrator-plan
    source: "{orchestrator}"
    config: {{{config}}}
  context: {{module: context-simple, source: "{context}"}}
providers:
  - module: provider-scripted
    source: "{scripted}"
    config: {{requests_log: "{planner_log}", script: {planner_script}}}
agents:
"#,
        orchestrator = plugin("orchestrator-plan"),
        context = plugin("context-simple"),
        scripted = plugin("provider-scripted"),
        planner_log = dir.join("planner-requests.jsonl").display(),
    );
    for a in agents {
        yaml.push_str(&format!(
            r#"  {name}:
    description: the {name}
    capabilities: {caps}
    system: {{instruction: "{instruction}"}}
    providers:
      - module: provider-scripted
        source: "{scripted}"
        config: {{requests_log: "{log}", script: {script}}}
{extra}"#,
            name = a.name,
            caps = a.capabilities,
            instruction = a.instruction,
            scripted = plugin("provider-scripted"),
            log = dir.join(format!("{}-requests.jsonl", a.name)).display(),
            script = a.script,
            extra = a.extra,
        ));
    }
    std::fs::write(dir.join("plan.yaml"), yaml).unwrap();
}

fn write_standard_plan(dir: &Path, config: &str, planner_script: &str, qa_script: &str) {
    let owned = standard_agents(qa_script);
    let agents: Vec<Agent> = owned
        .iter()
        .map(|(n, c, i, s, e)| Agent { name: n, capabilities: c, instruction: i, script: s, extra: e })
        .collect();
    write_plan(dir, config, planner_script, &agents);
}

fn run_sse(dir: &Path, request: &Value, env: &[(&str, &str)]) -> (Output, Vec<Frame>) {
    let mut command = amplifier(dir);
    command.args(["run", "--plan", "plan.yaml", "--output-format", "sse", &request.to_string()]);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    let text = stdout(&output);
    assert!(text.starts_with(":\n\n"), "the stream starts with a comment: {text:?}\nstderr:\n{}", stderr(&output));
    let frames = parse_sse(&text);
    (output, frames)
}

fn app_request(thread: &str) -> Value {
    json!({"mode": "app", "objective": "Announce the new release", "threadId": thread, "payload": {"audience": "readers"}})
}

/// The stream's contract: `start` first, exactly one terminal frame last,
/// one correlation id on every frame, strictly increasing ids, deltas only
/// in the generation and qa phases.
fn check_stream(frames: &[Frame]) {
    assert!(!frames.is_empty());
    assert_eq!(frames[0].event, "start", "{frames:?}");
    let terminal: Vec<usize> = frames
        .iter()
        .enumerate()
        .filter(|(_, f)| f.event == "complete" || f.event == "run_error")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(terminal, [frames.len() - 1], "exactly one terminal frame, last: {:?}", events(frames));
    let correlation = frames[0].data["correlationId"].as_str().unwrap();
    assert!(!correlation.is_empty());
    let mut last_id = 0;
    let mut phase: Option<String> = None;
    for frame in frames {
        assert_eq!(frame.data["correlationId"], correlation, "{frame:?}");
        assert_eq!(frame.data["type"], seed_type(&frame.event));
        let id = frame.id.expect("every frame has an id");
        assert!(id > last_id, "ids strictly increase");
        last_id = id;
        if frame.event == "phase" {
            phase = frame.data["phase"].as_str().map(str::to_owned);
        }
        if frame.event == "delta" {
            let p = phase.as_deref().expect("a delta after a phase");
            assert!(p == "generation" || p == "qa", "delta in phase {p}");
        }
    }
}

/// The seed's type of a frame named `event` on the wire: `error` and
/// `message` travel as `run_error` and `run_message`.
fn seed_type(event: &str) -> &str {
    match event {
        "run_error" => "error",
        "run_message" => "message",
        other => other,
    }
}

fn events(frames: &[Frame]) -> Vec<&str> {
    frames.iter().map(|f| f.event.as_str()).collect()
}

fn complete(frames: &[Frame]) -> &Value {
    let last = frames.last().unwrap();
    assert_eq!(last.event, "complete", "{:?}", last.data);
    &last.data["data"]
}

fn handoffs(frames: &[Frame], status: &str) -> Vec<String> {
    frames
        .iter()
        .filter(|f| f.event == "handoff" && f.data["message"] == status)
        .map(|f| f.data["data"]["to"].as_str().unwrap().to_owned())
        .collect()
}

fn warnings<'a>(frames: &'a [Frame], reason: &str) -> Vec<&'a Frame> {
    frames.iter().filter(|f| f.event == "warning" && f.data["data"]["reason"] == reason).collect()
}

/// The payload each request of an agent carried (its last user message, as JSON).
fn payloads(dir: &Path, agent: &str) -> Vec<Value> {
    read_lines(&dir.join(format!("{agent}-requests.jsonl")))
        .iter()
        .map(|request| {
            let messages = request["messages"].as_array().unwrap();
            let user = messages.iter().rev().find(|m| m["role"] == "user").unwrap();
            serde_json::from_str(user["content"].as_str().unwrap()).unwrap()
        })
        .collect()
}

fn criterion<'a>(bundle: &'a Value, name: &str) -> &'a Value {
    bundle["acceptance-report"]["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["criterion"] == name)
        .unwrap_or_else(|| panic!("no criterion {name}"))
}

#[test]
fn happy_path_hands_off_strategy_writer_qa_and_completes() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "qualityThreshold: 0.8, executionDepth: 2", PLAN_ALL, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("happy"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa"]);
    assert_eq!(handoffs(&frames, "requested"), ["strategist", "writer", "qa"]);
    assert!(!events(&frames).contains(&"warning") && !events(&frames).contains(&"run_error"), "{:?}", events(&frames));
    let phases: Vec<&str> =
        frames.iter().filter(|f| f.event == "phase").map(|f| f.data["phase"].as_str().unwrap()).collect();
    assert_eq!(phases, ["planning", "analysis", "generation", "qa", "finalization"]);
    assert!(events(&frames).contains(&"delta"), "the writer's and QA's text streams as deltas");
    assert!(frames.iter().filter(|f| f.event == "metrics").count() >= 4, "per step and once at the end");
    assert!(!events(&frames).contains(&"prompt_preview"), "prompts are previewed only with `debug`");

    let bundle = complete(&frames);
    assert_eq!(bundle["result"]["content"], DRAFT_1);
    assert_eq!(bundle["quality"]["pass"], true);
    assert_eq!(bundle["quality"]["score"], 0.9);
    assert_eq!(bundle["acceptance-report"]["overall"], true);

    // Persisted: plan, history and artifacts under their step, and the bundle.
    let state = stored_state(dir.path(), "happy");
    assert_eq!(state["status"], "completed");
    assert_eq!(&state["bundle"], bundle);
    assert_eq!(state["history"].as_array().unwrap().len(), 3);
    let draft = state["plan"]["steps"].as_array().unwrap().iter().find(|s| s["id"] == "draft").unwrap();
    assert_eq!(draft["artifact"]["draft"]["text"], DRAFT_1);
    assert_eq!(draft["agent"], "writer");
}

#[test]
fn specialists_never_see_the_orchestrators_prompt() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "acceptanceCriteria: [\"mentions the date\"]", PLAN_ALL, QA_PASS);
    let (output, _) = run_sse(dir.path(), &app_request("hygiene"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let planner = read_lines(&dir.path().join("planner-requests.jsonl"));
    let orchestrator_system = planner[0]["messages"][0]["content"].as_str().unwrap().to_owned();
    assert!(orchestrator_system.contains("ORCH_SYS_START"), "the planner gets the orchestrator's prompt");
    for (agent, system) in [("strategist", STRATEGIST_SYSTEM), ("writer", WRITER_SYSTEM), ("qa", QA_SYSTEM)] {
        let requests = read_lines(&dir.path().join(format!("{agent}-requests.jsonl")));
        assert!(!requests.is_empty(), "{agent} was asked");
        for request in &requests {
            let messages = request["messages"].as_array().unwrap();
            assert_eq!(messages[0]["role"], "system");
            assert_eq!(messages[0]["content"], system, "the first system message is the specialist's own");
            assert_eq!(messages.iter().filter(|m| m["role"] == "system").count(), 1);
            let text = request.to_string();
            for marker in ["ORCH_SYS", "REDACTED_ORCH", "You are the orchestrator", "plan_update", "planPatch"] {
                assert!(!text.contains(marker), "{agent} saw `{marker}`: {text}");
            }
        }
        let payload = &payloads(dir.path(), agent)[0];
        assert_eq!(payload["objective"], "Announce the new release");
        assert_eq!(payload["brief"]["audience"], "readers");
    }
    // QA gets the draft and the criteria; the writer gets the strategy as context.
    let qa = &payloads(dir.path(), "qa")[0];
    assert_eq!(qa["draft"], DRAFT_1);
    assert_eq!(qa["acceptanceCriteria"], json!(["mentions the date"]));
    assert_eq!(
        payloads(dir.path(), "writer")[0]["context"]["plan.strategy"]["strategy"]["rationale"],
        "lead with the date"
    );
}

#[test]
fn a_failed_review_adds_one_revision_and_the_second_draft_passes() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "qualityThreshold: 0.8, executionDepth: 2", PLAN_ALL, QA_FAIL_THEN_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("revise"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa", "writer", "qa"]);
    let revisions: Vec<&Frame> =
        frames.iter().filter(|f| f.event == "plan_update" && f.data["data"]["patch"]["replace"] == false).collect();
    assert_eq!(revisions.len(), 1, "exactly one plan_update adds the revision");
    let added: Vec<&str> = revisions[0].data["data"]["patch"]["add"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["capabilityId"].as_str().unwrap())
        .collect();
    assert_eq!(added, ["content.write", "qa.review"]);

    let writer = payloads(dir.path(), "writer");
    assert_eq!(writer.len(), 2, "the writer is invoked twice");
    assert!(writer[0].get("revisionNotes").is_none());
    let notes: Vec<&str> = writer[1]["revisionNotes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(notes.contains(&"x"), "{notes:?}");

    let bundle = complete(&frames);
    assert_eq!(bundle["quality"]["score"], 0.9);
    assert_eq!(bundle["quality"]["pass"], true);
    assert_eq!(bundle["result"]["content"], DRAFT_2);
    assert_eq!(bundle["acceptance-report"]["overall"], true);
}

#[test]
fn at_the_depth_limit_it_finalizes_best_effort() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "qualityThreshold: 0.8, executionDepth: 2", PLAN_ALL, QA_ALWAYS_FAILS);
    let (output, frames) = run_sse(dir.path(), &app_request("depth"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    assert_eq!(payloads(dir.path(), "writer").len(), 2);
    assert_eq!(payloads(dir.path(), "qa").len(), 2);
    assert!(!events(&frames).contains(&"run_error"));
    let bundle = complete(&frames);
    assert_eq!(bundle["quality"]["pass"], false);
    assert_eq!(bundle["acceptance-report"]["overall"], false);
    assert_eq!(bundle["result"]["content"], DRAFT_2, "the best effort is the last draft");
}

#[test]
fn a_missing_capability_is_skipped_with_a_warning_and_the_run_completes() {
    let dir = tempfile::tempdir().unwrap();
    let writer = writer_script();
    let agents = [
        agent("strategist", "[plan.strategy]", STRATEGIST_SYSTEM, STRATEGY_SCRIPT),
        agent("writer", "[content.write]", WRITER_SYSTEM, &writer),
    ];
    write_plan(dir.path(), "maxTurns: 10", PLAN_ALL, &agents);
    let (output, frames) = run_sse(dir.path(), &app_request("missing"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer"]);
    assert_eq!(warnings(&frames, "missing_qa").len(), 2, "when skipped and at finalization");
    let bundle = complete(&frames);
    assert_eq!(criterion(bundle, "qa_performed")["passed"], false);
    assert_eq!(bundle["quality"]["pass"], false);
    assert_eq!(bundle["result"]["content"], DRAFT_1);
}

#[test]
fn a_final_action_before_any_draft_gives_an_empty_result_and_warnings() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "", r#"[{text: '{"action": "final", "bundle": {"summary": "done"}}'}]"#, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("early-final"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    assert!(handoffs(&frames, "occurred").is_empty());
    assert_eq!(warnings(&frames, "missing_generation").len(), 1);
    let bundle = complete(&frames);
    assert_eq!(bundle["result"]["content"], "");
    assert_eq!(criterion(bundle, "content_generated")["passed"], false);
}

#[test]
fn malformed_planner_output_is_reprompted_once_then_the_default_plan_runs() {
    let dir = tempfile::tempdir().unwrap();
    let planner = r#"[{text: "I think we should write something."}, {text: '{"action": "dance"}'}]"#;
    write_standard_plan(dir.path(), "", planner, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("malformed"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let planner_requests = read_lines(&dir.path().join("planner-requests.jsonl"));
    assert_eq!(planner_requests.len(), 2, "one re-prompt");
    let reprompt = planner_requests[1]["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap();
    assert!(reprompt.contains("not a valid action"), "{reprompt}");
    assert_eq!(warnings(&frames, "planner_parse_failed").len(), 1);
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa"]);
    assert_eq!(complete(&frames)["quality"]["pass"], true);
}

#[test]
fn a_run_killed_after_any_step_resumes_and_gives_the_same_bundle() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "", PLAN_ALL, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("whole"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let uninterrupted = complete(&frames).clone();

    for step in 1..=3 {
        let thread = format!("killed-{step}");
        let planner_before = read_lines(&dir.path().join("planner-requests.jsonl")).len();
        let (killed, frames) =
            run_sse(dir.path(), &app_request(&thread), &[("AMPLIFIER_PLAN_STOP_AFTER_STEP", &step.to_string())]);
        // The crash point calls exit(86) inside the plugin: a crash, status 70.
        assert_eq!(killed.status.code(), Some(70), "killed after step {step}: {}", stderr(&killed));
        assert!(stderr(&killed).contains("amplifier: exit(86) called in plugin library "), "{}", stderr(&killed));
        assert!(!events(&frames).contains(&"complete"));
        assert_eq!(handoffs(&frames, "occurred").len(), step);
        let state = stored_state(dir.path(), &thread);
        assert_eq!(state["status"], "running");
        assert_eq!(state["history"].as_array().unwrap().len(), step);

        let (resumed, frames) = run_sse(dir.path(), &app_request(&thread), &[]);
        assert!(resumed.status.success(), "stderr:\n{}", stderr(&resumed));
        check_stream(&frames);
        assert!(frames
            .iter()
            .any(|f| f.event == "run_message" && f.data["message"] == "Resuming existing thread state"));
        let expected: Vec<&str> = ["strategist", "writer", "qa"][step..].to_vec();
        assert_eq!(handoffs(&frames, "occurred"), expected, "it continues from step {}", step + 1);
        assert!(!events(&frames).contains(&"plan_update"), "no second planning");
        assert_eq!(read_lines(&dir.path().join("planner-requests.jsonl")).len(), planner_before + 1);
        assert_eq!(complete(&frames), &uninterrupted, "resumed after step {step}");
    }

    // A finished thread answers its stored bundle without running anything.
    let (again, frames) = run_sse(dir.path(), &app_request("whole"), &[]);
    assert!(again.status.success());
    assert!(handoffs(&frames, "occurred").is_empty());
    assert_eq!(complete(&frames), &uninterrupted);
}

/// The standard plan, with tool-echo for a strategist whose script is `strategist`.
fn write_plan_with_echo(dir: &Path, strategist: &str) {
    let writer = writer_script();
    let tools = format!("    tools: [{{module: tool-echo, source: \"{}\"}}]\n", plugin("tool-echo"));
    let agents = [
        Agent { extra: &tools, ..agent("strategist", "[plan.strategy]", STRATEGIST_SYSTEM, strategist) },
        agent("writer", "[content.write]", WRITER_SYSTEM, &writer),
        agent("qa", "[qa.review]", QA_SYSTEM, QA_PASS),
    ];
    write_plan(dir, "", PLAN_ALL, &agents);
}

#[test]
fn a_specialists_tool_calls_stream_as_tool_frames() {
    let dir = tempfile::tempdir().unwrap();
    let strategist = r#"[{tool_calls: [{name: echo, arguments: {text: "a1"}}]}, {text: '{"strategy": {}}'}]"#;
    write_plan_with_echo(dir.path(), strategist);
    let (output, frames) = run_sse(dir.path(), &app_request("tools"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let names = events(&frames);
    let occurred = frames.iter().position(|f| f.event == "handoff" && f.data["message"] == "occurred").unwrap();
    let call = names.iter().position(|e| *e == "tool_call").expect("a tool_call frame");
    let result = names.iter().position(|e| *e == "tool_result").expect("a tool_result frame");
    let next_handoff =
        frames.iter().skip(occurred + 1).position(|f| f.event == "handoff").map(|i| i + occurred + 1).unwrap();
    assert!(occurred < call && call < result && result < next_handoff, "{names:?}");
    assert_eq!(frames[call].data["message"], "echo");
    assert_eq!(frames[call].data["data"]["args"], json!({"text": "a1"}));
    assert_eq!(frames[result].data["message"], "echo");
}

/// A specialist's tool call goes through the hooks as the agent loop's
/// does: a `tool:pre` hook's rewritten input is what runs.
#[test]
fn a_specialists_tool_call_runs_the_input_its_hooks_left() {
    let dir = tempfile::tempdir().unwrap();
    let strategist = r#"[{tool_calls: [{name: echo, arguments: {text: "asked"}}]}, {text: '{"strategy": {}}'}]"#;
    write_plan_with_echo(dir.path(), strategist);
    let mut plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
    plan.push_str(&format!(
        "hooks:\n  - {{module: hook-verdict, source: \"{}\", config: {{event: \"tool:pre\", \
         result: {{action: modify, data: {{tool_name: echo, tool_input: {{text: rewritten}}}}}}}}}}\n",
        common::fixture("hook-verdict")
    ));
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let (output, frames) = run_sse(dir.path(), &app_request("hooked"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let requests = read_lines(&dir.path().join("strategist-requests.jsonl"));
    let results: Vec<&Value> = requests
        .iter()
        .flat_map(|request| request["messages"].as_array().unwrap())
        .filter(|m| m["role"] == "tool")
        .collect();
    assert!(!results.is_empty(), "the strategist got its tool's result back");
    let text = serde_json::to_string(&results).unwrap();
    assert!(text.contains("rewritten") && !text.contains("asked"), "{text}");
}

#[test]
fn chat_mode_talks_to_one_specialist_without_plan_frames() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "", PLAN_ALL, r#"[{text: "Looks good to me."}]"#);
    let request = json!({"mode": "chat", "message": "Is this clear?", "agent": "qa", "threadId": "chat-1"});
    let (output, frames) = run_sse(dir.path(), &request, &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let mut kinds: Vec<&str> = events(&frames);
    kinds.dedup();
    assert_eq!(kinds, ["start", "phase", "delta", "run_message", "metrics", "complete"]);
    assert_eq!(complete(&frames), &json!({"message": "Looks good to me."}));
    let requests = read_lines(&dir.path().join("qa-requests.jsonl"));
    let messages = requests[0]["messages"].as_array().unwrap();
    assert_eq!(messages[0]["content"], QA_SYSTEM);
    assert_eq!(messages[1]["content"], "Is this clear?");
    assert!(!requests[0].to_string().contains("ORCH_SYS"));
    assert!(read_lines(&dir.path().join("planner-requests.jsonl")).is_empty(), "the planner is not asked in chat mode");
}

#[test]
fn chat_mode_with_the_orchestrator_uses_its_own_model() {
    let dir = tempfile::tempdir().unwrap();
    // An older plan's `runsDir` is warned about, not refused.
    let config = "chatInstruction: \"Be brief.\", runsDir: old-runs";
    write_standard_plan(dir.path(), config, r#"[{text: "Hello there."}]"#, QA_PASS);
    let request = json!({"mode": "chat", "message": "Hi", "threadId": "chat-2"});
    let (output, frames) = run_sse(dir.path(), &request, &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    assert!(stderr(&output).contains("`runsDir: old-runs` is ignored"), "stderr:\n{}", stderr(&output));
    assert!(!dir.path().join("old-runs").exists(), "no state files of the plugin's own");
    check_stream(&frames);
    assert!(handoffs(&frames, "occurred").is_empty());
    assert_eq!(complete(&frames), &json!({"message": "Hello there."}));
    let requests = read_lines(&dir.path().join("planner-requests.jsonl"));
    let roles: Vec<&str> =
        requests[0]["messages"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["system", "user"]);
    assert_eq!(requests[0]["messages"][0]["content"], "Be brief.");
    let state = stored_state(dir.path(), "chat-2");
    assert_eq!(state["chat"].as_array().unwrap().len(), 2, "the conversation is kept per thread");
}

#[test]
fn a_planner_error_ends_the_stream_with_exactly_one_error_frame() {
    let dir = tempfile::tempdir().unwrap();
    let planner = r#"[{fail: {kind: invalid_request, message: "the planner model refused"}}]"#;
    write_standard_plan(dir.path(), "", planner, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("failing"), &[]);
    assert_eq!(output.status.code(), Some(1));
    check_stream(&frames);
    let errors: Vec<&Frame> = frames.iter().filter(|f| f.event == "run_error").collect();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].data["message"].as_str().unwrap().contains("the planner model refused"), "{:?}", errors[0]);
}

/// A specialist whose first turn runs `command` through tool-bash.
fn with_command<'a>(name: &'a str, caps: &'a str, system: &'a str, script: &'a str, tools: &'a str) -> Agent<'a> {
    Agent { extra: tools, ..agent(name, caps, system, script) }
}

fn bash_tools() -> String {
    format!("    tools: [{{module: tool-bash, source: \"{}\"}}]\n", plugin("tool-bash"))
}

/// A script that runs `command`, then answers `answer` (a JSON text).
fn command_then(command: &str, answer: &str) -> String {
    format!(r#"[{{tool_calls: [{{name: bash, arguments: {{command: "{command}"}}}}]}}, {{text: '{answer}'}}]"#)
}

#[test]
fn a_step_that_times_out_is_retried_and_the_retry_answers() {
    let dir = tempfile::tempdir().unwrap();
    // The first attempt hangs past the step timeout; the second finds the mark.
    let mark = dir.path().join("tried");
    let command = format!("if [ -e {0} ]; then echo ready; else touch {0}; sleep 30; fi", mark.display());
    let strategist = command_then(&command, r#"{"strategy": {}}"#);
    let (tools, writer) = (bash_tools(), writer_script());
    let agents = [
        with_command("strategist", "[plan.strategy]", STRATEGIST_SYSTEM, &strategist, &tools),
        agent("writer", "[content.write]", WRITER_SYSTEM, &writer),
        agent("qa", "[qa.review]", QA_SYSTEM, QA_PASS),
    ];
    // Long enough that the retry answers in time on a loaded machine.
    write_plan(dir.path(), "stepTimeoutSecs: 8, stepRetries: 1", PLAN_ALL, &agents);
    let (output, frames) = run_sse(dir.path(), &app_request("slow-once"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let retried = warnings(&frames, "step_retry");
    assert_eq!(retried.len(), 1, "{:?}", events(&frames));
    assert_eq!(retried[0].data["message"], "Step strategy failed (timeout after 8 s); retrying");
    assert!(warnings(&frames, "step_failed").is_empty());
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa"]);
    assert_eq!(complete(&frames)["quality"]["pass"], true);
}

#[test]
fn a_step_that_never_answers_is_skipped_best_effort_and_the_run_completes() {
    let dir = tempfile::tempdir().unwrap();
    let writer = command_then("sleep 30", r#"{"draft": {"text": "never"}}"#);
    let tools = bash_tools();
    let agents = [
        agent("strategist", "[plan.strategy]", STRATEGIST_SYSTEM, STRATEGY_SCRIPT),
        with_command("writer", "[content.write]", WRITER_SYSTEM, &writer, &tools),
        agent("qa", "[qa.review]", QA_SYSTEM, QA_PASS),
    ];
    write_plan(dir.path(), "stepTimeoutSecs: 1, stepRetries: 1", PLAN_ALL, &agents);
    let (output, frames) = run_sse(dir.path(), &app_request("never"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let reasons: Vec<&str> = frames
        .iter()
        .filter(|f| f.event == "warning")
        .map(|f| f.data["data"]["reason"].as_str().unwrap())
        .filter(|r| r.starts_with("step_"))
        .collect();
    assert_eq!(reasons, ["step_retry", "step_failed"]);
    assert_eq!(
        warnings(&frames, "step_failed")[0].data["message"],
        "Step draft failed (timeout after 1 s); proceeding best-effort"
    );
    let bundle = complete(&frames);
    assert_eq!(criterion(bundle, "content_generated")["passed"], false, "{bundle}");
    assert_eq!(bundle["acceptance-report"]["overall"], false);
    let state = stored_state(dir.path(), "never");
    assert_eq!(state["status"], "completed");
    let draft = state["plan"]["steps"].as_array().unwrap().iter().find(|s| s["id"] == "draft").unwrap();
    assert_eq!(draft["status"], "failed");
}

#[test]
fn a_planner_that_fails_once_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let planner =
        PLAN_ALL.replacen('[', r#"[{fail: {kind: unavailable, message: "the planner model is overloaded"}}, "#, 1);
    write_standard_plan(dir.path(), "", &planner, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("planner-retry"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let retried = warnings(&frames, "planner_retry");
    assert_eq!(retried.len(), 1, "{:?}", events(&frames));
    assert!(retried[0].data["message"].as_str().unwrap().contains("the planner model is overloaded"));
    assert_eq!(read_lines(&dir.path().join("planner-requests.jsonl")).len(), 2);
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa"]);
}

/// Out of turns, the run finalizes what it has (a best-effort bundle with a
/// `max_turns` warning) rather than failing: the client gets the work done
/// so far, and the bundle's quality says it is incomplete.
#[test]
fn running_out_of_turns_finalizes_best_effort() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "maxTurns: 2", PLAN_ALL, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("short"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    // Turn 1 planned, turn 2 was the strategist's.
    assert_eq!(handoffs(&frames, "occurred"), ["strategist"]);
    let out = warnings(&frames, "max_turns");
    assert_eq!(out.len(), 1, "{:?}", events(&frames));
    assert_eq!(out[0].data["message"], "maxTurns (2) reached; finalizing best-effort");
    assert_eq!(warnings(&frames, "missing_generation").len(), 1);
    let bundle = complete(&frames);
    assert_eq!(bundle["quality"]["pass"], false);
    assert_eq!(stored_state(dir.path(), "short")["status"], "completed");
}

const ASK_AUDIENCE: &str =
    r#"{text: '{"action": "hitl_request", "question": "Which audience?", "options": ["developers", "managers"]}'}"#;

/// Failover of a plan-driven run: the worker running it dies after its
/// first handoff; another worker of the PostgreSQL store takes the run over
/// and finishes it from its stored plan state. The run's client reconnects
/// to the second worker and reads the run whole, ending in the bundle an
/// uninterrupted run gives; a client that followed the thread there reads
/// the same stream, but for what the first worker sent in its last moment.
#[test]
fn a_plan_driven_run_whose_worker_dies_is_finished_from_its_stored_state_by_another() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "", PLAN_ALL, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("whole"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let uninterrupted = complete(&frames).clone();
    let planner_before = read_lines(&dir.path().join("planner-requests.jsonl")).len();

    let url = amplifier_test_postgres::database();
    let worker = |crash: bool| {
        let mut command = amplifier(dir.path());
        command.env("AMPLIFIER_STORE", &url);
        if crash {
            command.env("AMPLIFIER_PLAN_STOP_AFTER_STEP", "1");
        }
        start_server_with(command, &["--plan", "plan.yaml"])
    };
    let (mut dying, taking_over) = (worker(true), worker(false));
    let request = app_request("failover").to_string();
    let post = |addr: &str, last_event_id: Option<u64>| {
        let resume = last_event_id.map_or_else(String::new, |id| format!("Last-Event-ID: {id}\r\n"));
        let text = format!(
            "POST /v1/runs HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{resume}Connection: close\r\n\r\n{request}",
            request.len()
        );
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        std::io::Write::write_all(&mut stream, text.as_bytes()).unwrap();
        let mut raw = Vec::new();
        // The first worker's connection breaks when it dies: what came, came.
        let _ = std::io::Read::read_to_end(&mut stream, &mut raw);
        parse_sse(&String::from_utf8_lossy(&raw))
    };
    let (direct, followed) = std::thread::scope(|scope| {
        let posted = scope.spawn(|| post(&dying.addr, None));
        // The follower asks until the run's stream is stored (404 before).
        let started = std::time::Instant::now();
        let followed = loop {
            let (status, _, followed) = http(&taking_over.addr, "GET", "/v1/runs/failover/events", "");
            if status == 200 {
                break followed;
            }
            assert_eq!(status, 404, "{followed}");
            assert!(started.elapsed() < std::time::Duration::from_secs(60), "the run never started");
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        (posted.join().unwrap(), parse_sse(&followed))
    });
    assert_eq!(dying.wait_exit(std::time::Duration::from_secs(30)).code(), Some(70), "the crash point fired");
    assert_eq!(handoffs(&direct, "occurred"), ["strategist"], "the first worker died after one step");

    let mut frames = direct.clone();
    frames.extend(post(&taking_over.addr, Some(direct.last().unwrap().id.unwrap())));
    check_stream(&frames);
    assert!(
        frames.iter().any(|f| f.event == "warning"
            && f.data["message"] == "the worker running this run stopped; another worker took the run over"),
        "{:?}",
        events(&frames)
    );
    assert!(frames.iter().any(|f| f.event == "run_message" && f.data["message"] == "Resuming existing thread state"));
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa"], "each step once");
    assert_eq!(read_lines(&dir.path().join("planner-requests.jsonl")).len(), planner_before + 1, "planned once");
    assert_eq!(complete(&frames), &uninterrupted);

    check_stream(&followed);
    assert_eq!((followed.first(), followed.last()), (frames.first(), frames.last()));
    assert!(followed.iter().all(|f| frames.contains(f)), "nothing the run's client did not read");
}

#[test]
fn a_question_for_a_person_pauses_the_served_run_until_it_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "", &format!("[{ASK_AUDIENCE}]"), QA_PASS);
    let server = start_server(amplifier(dir.path()));
    let request = app_request("asks").to_string();

    let (status, _, body) = http(&server.addr, "POST", "/v1/runs", &request);
    assert_eq!(status, 200, "{body}");
    let frames = parse_sse(&body);
    check_stream(&frames);
    let asked: Vec<&Frame> = frames.iter().filter(|f| f.event == "hitl_request").collect();
    assert_eq!(asked.len(), 1, "{:?}", events(&frames));
    assert_eq!(asked[0].data["message"], "Which audience?");
    assert_eq!(asked[0].data["data"]["options"], json!(["developers", "managers"]));
    assert_eq!(asked[0].data["data"]["requestId"], "hitl_1");
    let paused = complete(&frames);
    assert_eq!((&paused["status"], &paused["pendingRequestId"]), (&json!("pending_hitl"), &json!("hitl_1")));
    assert!(handoffs(&frames, "occurred").is_empty());
    let (_, _, state) = http(&server.addr, "GET", "/v1/runs/asks", "");
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!((&state["status"], &state["pendingHitl"]["id"]), (&json!("awaiting_hitl"), &json!("hitl_1")));

    // Asked again without an answer: the same question, and nothing runs.
    let (_, _, body) = http(&server.addr, "POST", "/v1/runs", &request);
    let again = parse_sse(&body);
    assert_eq!(again.iter().filter(|f| f.event == "hitl_request").count(), 1, "{body}");
    assert_eq!(complete(&again)["pendingRequestId"], "hitl_1");
    assert_eq!(read_lines(&dir.path().join("planner-requests.jsonl")).len(), 1);

    // The answer may come much later: to another server process, whose
    // scripted planner now plans.
    drop(server);
    write_standard_plan(dir.path(), "", PLAN_ALL, QA_PASS);
    let server = start_server(amplifier(dir.path()));
    let (status, _, body) =
        http(&server.addr, "POST", "/v1/runs/asks/hitl", r#"{"requestId": "hitl_9", "answer": "x"}"#);
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("it waits for `hitl_1`"), "{body}");

    let (status, _, body) =
        http(&server.addr, "POST", "/v1/runs/asks/hitl", r#"{"requestId": "hitl_1", "answer": "developers"}"#);
    assert_eq!(status, 200, "{body}");
    let resumed = parse_sse(&body);
    check_stream(&resumed);
    assert_eq!(handoffs(&resumed, "occurred"), ["strategist", "writer", "qa"]);
    assert_eq!(complete(&resumed)["quality"]["pass"], true);
    // The answer reached the planner and every specialist.
    let said = json!([{"question": "Which audience?", "answer": "developers"}]);
    let planner = read_lines(&dir.path().join("planner-requests.jsonl"));
    let view: Value = serde_json::from_str(planner[1]["messages"][1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(view["humanInput"], said);
    for agent in ["strategist", "writer", "qa"] {
        assert_eq!(payloads(dir.path(), agent)[0]["humanInput"], said, "{agent}");
    }
    let state = stored_state(dir.path(), "asks");
    assert_eq!((&state["status"], &state["hitl"][0]["answer"]), (&json!("completed"), &json!("developers")));
    assert!(state.get("pendingHitl").is_none());
    let (status, _, body) =
        http(&server.addr, "POST", "/v1/runs/asks/hitl", r#"{"requestId": "hitl_1", "answer": "again"}"#);
    assert_eq!(status, 409, "{body}");
}

#[test]
fn a_specialist_may_ask_too_and_questions_past_the_limit_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let strategist = r#"[{text: '{"hitl_request": {"question": "Which tone?"}}'}, {text: '{"strategy": {}}'}]"#;
    let writer = writer_script();
    let agents = [
        agent("strategist", "[plan.strategy]", STRATEGIST_SYSTEM, strategist),
        agent("writer", "[content.write]", WRITER_SYSTEM, &writer),
        agent("qa", "[qa.review]", QA_SYSTEM, QA_PASS),
    ];
    write_plan(dir.path(), "hitlMaxRequests: 1", &format!("[{ASK_AUDIENCE}]"), &agents);
    let (output, frames) = run_sse(dir.path(), &app_request("limit"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    assert_eq!(complete(&frames)["pendingRequestId"], "hitl_1");
    // Each run's scripted planner starts its script afresh: now it plans.
    write_plan(dir.path(), "hitlMaxRequests: 1", PLAN_ALL, &agents);

    // Answered through `amplifier run`: the strategist's own question is one too many.
    let answer = json!({"threadId": "limit", "hitlResponse": {"requestId": "hitl_1", "answer": "managers"}});
    let (output, frames) = run_sse(dir.path(), &answer, &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let refused = warnings(&frames, "hitl_denied");
    assert_eq!(refused.len(), 1, "{:?}", events(&frames));
    assert_eq!(refused[0].data["data"]["question"], "Which tone?");
    assert_eq!(complete(&frames)["quality"]["pass"], true);
    // The strategist ran again, told it gets no answer, and answered.
    let strategist = payloads(dir.path(), "strategist");
    assert_eq!(strategist.len(), 2);
    assert_eq!(strategist[1]["humanInput"][1]["question"], "Which tone?");
    assert!(strategist[1]["humanInput"][1]["answer"].is_null());
    let state = stored_state(dir.path(), "limit");
    assert_eq!(state["hitl"][1]["denied"], true);
}

#[test]
fn debug_previews_every_prompt_before_it_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "debug: true", PLAN_ALL, QA_PASS);
    let (output, frames) = run_sse(dir.path(), &app_request("debug"), &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let previews: Vec<&Frame> = frames.iter().filter(|f| f.event == "prompt_preview").collect();
    let agents: Vec<&str> = previews.iter().map(|f| f.data["data"]["agent"].as_str().unwrap()).collect();
    assert_eq!(agents, ["orchestrator", "strategist", "writer", "qa"]);
    assert!(previews[0].data["message"].as_str().unwrap().contains("ORCH_SYS_START"), "the planner's own prompt");
    let strategist: Value = serde_json::from_str(previews[1].data["message"].as_str().unwrap()).unwrap();
    assert_eq!(strategist, payloads(dir.path(), "strategist")[0], "what the strategist was sent");
    assert_eq!(previews[1].data["data"]["stepId"], "strategy");
}

#[test]
fn a_briefs_must_include_texts_are_checked_literally_against_the_draft() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "", PLAN_ALL, QA_PASS);
    let request = json!({"objective": "Announce it", "threadId": "literal", "payload": {"mustInclude": ["draft text", "launch date"]}});
    let (output, frames) = run_sse(dir.path(), &request, &[]);
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    check_stream(&frames);
    let bundle = complete(&frames);
    assert_eq!(criterion(bundle, "includes \"draft text\"")["passed"], true, "{bundle}");
    let missing = criterion(bundle, "includes \"launch date\"");
    assert_eq!(
        (&missing["passed"], &missing["details"]),
        (&json!(false), &json!("literal check for \"launch date\": not found"))
    );
    assert_eq!(bundle["acceptance-report"]["overall"], false);
    // QA passed, but the missing text asked for a revision.
    let writer = payloads(dir.path(), "writer");
    assert_eq!(writer.len(), 2);
    assert_eq!(writer[1]["revisionNotes"], json!(["acceptance criterion not met: includes \"launch date\""]));
    assert_eq!(
        payloads(dir.path(), "qa")[0]["acceptanceCriteria"],
        json!(["includes \"draft text\"", "includes \"launch date\""])
    );
}

#[test]
fn a_run_is_one_trace_with_a_span_per_handoff_exported_over_otlp() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "workflowName: launch-posts", PLAN_ALL, QA_FAIL_THEN_PASS);
    let (endpoint, bodies) = otlp_collector();
    let mut command = amplifier(dir.path());
    command.args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "--otlp", &endpoint]);
    let output = command.arg(app_request("traced").to_string()).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    let data =
        |event: &str| -> Vec<&Value> { lines.iter().filter(|l| l["event"] == event).map(|l| &l["data"]).collect() };
    let (starts, ends) = (data("trace:span_start"), data("trace:span_end"));
    let names: Vec<&str> = starts.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["plan.run", "handoff.strategist", "handoff.writer", "handoff.qa", "handoff.writer", "handoff.qa"]
    );
    let root = starts[0];
    assert!(root["parent_span_id"].is_null());
    assert_eq!(
        (&root["attributes"]["workflowName"], &root["attributes"]["threadId"]),
        (&json!("launch-posts"), &json!("traced"))
    );
    for handoff in &starts[1..] {
        assert_eq!(handoff["parent_span_id"], root["span_id"], "every handoff is the run's child");
    }
    let depths: Vec<u64> = starts[1..].iter().map(|s| s["attributes"]["depth"].as_u64().unwrap()).collect();
    assert_eq!(depths, [1, 1, 1, 2, 2], "the revision is the second generation → QA cycle");
    let ended = |span: &Value| ends.iter().find(|e| e["span_id"] == span["span_id"]).copied().unwrap();
    let (first_qa, second_qa) = (ended(starts[3]), ended(starts[5]));
    assert_eq!((&first_qa["attributes"]["qa.score"], &first_qa["attributes"]["qa.pass"]), (&json!(0.5), &json!(false)));
    assert_eq!(
        (&second_qa["attributes"]["qa.score"], &second_qa["attributes"]["qa.pass"]),
        (&json!(0.9), &json!(true))
    );
    assert_eq!(ended(root)["status"], "ok");
    assert_eq!(ended(root)["attributes"]["handoffs"], 5);

    let (head, body) = bodies
        .recv_timeout(std::time::Duration::from_secs(10))
        .unwrap_or_else(|_| panic!("no OTLP export; stderr:\n{}", stderr(&output)));
    assert!(head.starts_with("POST /v1/traces "), "{head}");
    let body = String::from_utf8_lossy(&body);
    for expected in ["plan.run", "handoff.strategist", "handoff.qa", "launch-posts", "qa.score"] {
        assert!(body.contains(expected), "no {expected} in the export");
    }
}

#[test]
fn domain_words_appear_only_where_the_payload_puts_them() {
    // Static check: the plugin's source names no brand, platform or tone.
    let source = workspace().join("plugins/orchestrator-plan/src");
    let banned = [
        "linkedin",
        "twitter",
        "facebook",
        "instagram",
        "tiktok",
        "awesomeposter",
        "brand",
        "platform",
        "tone of voice",
        "knob",
        "social media",
    ];
    for entry in std::fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap().to_lowercase();
        for word in banned {
            assert!(!text.contains(word), "{} mentions `{word}`", path.display());
        }
    }
    // Dynamic check: two runs with different payloads on the same binary.
    for (thread, brand) in [("acme", "AcmeCorp"), ("globex", "GlobexInc")] {
        let dir = tempfile::tempdir().unwrap();
        write_standard_plan(dir.path(), "", PLAN_ALL, QA_PASS);
        let request = json!({"objective": "Write a post", "threadId": thread, "payload": {"brand": brand, "channel": "newsletter"}});
        let (output, _) = run_sse(dir.path(), &request, &[]);
        assert!(output.status.success(), "stderr:\n{}", stderr(&output));
        for agent in ["strategist", "writer", "qa"] {
            assert_eq!(payloads(dir.path(), agent)[0]["brief"]["brand"], brand);
            let system = read_lines(&dir.path().join(format!("{agent}-requests.jsonl")))[0]["messages"][0].to_string();
            assert!(!system.contains(brand), "only the payload carries it");
        }
    }
}

// -- amplifier serve ----------------------------------------------------------------

#[test]
fn serve_without_a_plan_serves_the_plan_setting() {
    let dir = tempfile::tempdir().unwrap();
    let plan = "session: {orchestrator: loop-basic, context: context-simple}\n\
                providers: [{module: provider-scripted, config: {script: [{text: served by the setting}]}}]\n";
    std::fs::write(dir.path().join("chat.yaml"), plan).unwrap();
    std::fs::create_dir_all(dir.path().join(".amplifier")).unwrap();
    std::fs::write(dir.path().join(".amplifier/settings.yaml"), "plan: chat.yaml\n").unwrap();
    // The project's plan setting and its plan are used once trusted.
    assert!(amplifier(dir.path()).arg("trust").output().unwrap().status.success());
    let server = start_server_with(amplifier(dir.path()), &[]);
    let (status, _, body) = http(&server.addr, "POST", "/v1/runs", r#"{"mode": "chat", "message": "hi"}"#);
    assert_eq!(status, 200, "{body}");
    let frames = parse_sse(&body);
    let last = frames.last().unwrap();
    assert_eq!((last.event.as_str(), &last.data["data"]["message"]), ("complete", &json!("served by the setting")));
}

#[test]
fn serve_streams_a_run_over_http_and_keeps_its_state() {
    let dir = tempfile::tempdir().unwrap();
    // The strategist takes a while (a 1.5 s command), so a heartbeat shows up.
    let strategist = r#"[{tool_calls: [{name: bash, arguments: {command: "sleep 1.5"}}]}, {text: '{"strategy": {}}'}]"#;
    let writer = writer_script();
    let tools = format!("    tools: [{{module: tool-bash, source: \"{}\"}}]\n", plugin("tool-bash"));
    let agents = [
        Agent { extra: &tools, ..agent("strategist", "[plan.strategy]", STRATEGIST_SYSTEM, strategist) },
        agent("writer", "[content.write]", WRITER_SYSTEM, &writer),
        agent("qa", "[qa.review]", QA_SYSTEM, QA_PASS),
    ];
    write_plan(dir.path(), "", PLAN_ALL, &agents);
    let server = start_server(amplifier(dir.path()));

    let request = json!({"mode": "app", "objective": "Announce it", "threadId": "served", "correlationId": "corr-1"});
    let (status, head, body) = http(&server.addr, "POST", "/v1/runs", &request.to_string());
    assert_eq!(status, 200, "{head}\n{body}");
    assert!(head.to_lowercase().contains("content-type: text/event-stream"), "{head}");
    assert!(body.starts_with(":\n\n"), "{body:?}");
    let frames = parse_sse(&body);
    assert!(frames.iter().any(|f| f.event == "heartbeat"), "an idle stream gets heartbeats");
    let frames: Vec<Frame> = frames.into_iter().filter(|f| f.event != "heartbeat").collect();
    check_stream(&frames);
    assert_eq!(frames[0].data["correlationId"], "corr-1");
    assert_eq!(frames[0].data["data"]["threadId"], "served");
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa"]);
    assert_eq!(complete(&frames)["quality"]["pass"], true);

    let (status, _, state) = http(&server.addr, "GET", "/v1/runs/served", "");
    assert_eq!(status, 200);
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["status"], "completed");
    assert_eq!(&state["bundle"], complete(&frames));

    // The handoff graph: who handed off to whom, with QA's verdict.
    let (status, _, graph) = http(&server.addr, "GET", "/v1/runs/served/graph", "");
    assert_eq!(status, 200, "{graph}");
    let graph: Value = serde_json::from_str(&graph).unwrap();
    let edges: Vec<(&str, &str, &str)> = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["from"].as_str().unwrap(), e["to"].as_str().unwrap(), e["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        edges,
        [("orchestrator", "strategist", "done"), ("orchestrator", "writer", "done"), ("orchestrator", "qa", "done")]
    );
    assert_eq!(graph["edges"][2]["qa"], json!({"score": 0.9, "pass": true}));
    assert_eq!(graph["nodes"].as_array().unwrap().len(), 4);
    let (status, _, _) = http(&server.addr, "GET", "/v1/runs/nobody/graph", "");
    assert_eq!(status, 404);

    let (status, _, body) = http(&server.addr, "GET", "/v1/runs/nobody", "");
    assert_eq!(status, 404, "{body}");
    let (status, _, body) = http(&server.addr, "POST", "/v1/runs", r#"{"mode": "app"}"#);
    assert_eq!(status, 400);
    assert!(body.contains("objective"), "{body}");
}

// -- an EventSource client -----------------------------------------------------------

/// What a standard EventSource client (npm `eventsource`, see
/// tests/eventsource/client.mjs) saw reading a run of `request` from
/// `addr`, as JSON lines; it drops its first connection once a `cut_after`
/// frame arrived.
fn eventsource(addr: &str, request: &Value, cut_after: Option<&str>, env: &[(&str, &Path)]) -> Vec<Value> {
    let mut command = std::process::Command::new("node");
    command
        .arg(workspace().join("tests/eventsource/client.mjs"))
        .arg(npm_package("eventsource"))
        .arg(format!("http://{addr}/v1/runs"))
        .arg(request.to_string())
        .args(cut_after);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("node runs (needs node)");
    assert!(output.status.success(), "the client failed:\n{}", stderr(&output));
    json_lines(&output)
}

fn of_kind<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|line| line["kind"] == kind).collect()
}

/// The frames the client received, as the tests' [`Frame`]s.
fn received(lines: &[Value]) -> Vec<Frame> {
    of_kind(lines, "frame")
        .into_iter()
        .map(|line| Frame {
            event: line["event"].as_str().unwrap().to_owned(),
            id: line["id"].as_str().and_then(|id| id.parse().ok()),
            data: line["data"].clone(),
        })
        .collect()
}

/// The statuses of the client's requests, each with the `Last-Event-ID` it sent.
fn responses(lines: &[Value]) -> Vec<(u64, Value)> {
    of_kind(lines, "response").iter().map(|r| (r["status"].as_u64().unwrap(), r["lastEventId"].clone())).collect()
}

/// EventSource's own `error` events (a failed connection) are the only
/// `error` events, and no frame fires the default `message` event.
fn check_no_collisions(lines: &[Value]) {
    assert!(of_kind(lines, "message").is_empty(), "a frame fired `onmessage`: {lines:?}");
    for error in of_kind(lines, "error") {
        assert_eq!(error["frame"], false, "a frame fired `onerror`: {error}");
    }
    assert_eq!(of_kind(lines, "end")[0]["readyState"], 2, "the EventSource is closed: {lines:?}");
}

#[test]
fn an_eventsource_reads_a_finished_run_once_and_stops() {
    let dir = tempfile::tempdir().unwrap();
    write_standard_plan(dir.path(), "", PLAN_ALL, r#"[{text: "Looks good to me."}]"#);
    let server = start_server(amplifier(dir.path()));
    // No threadId: a rerun would be a new orchestration, paid for again.
    let request = json!({"mode": "chat", "message": "Is this clear?", "agent": "qa"});
    let lines = eventsource(&server.addr, &request, None, &[]);
    let frames = received(&lines);
    check_stream(&frames);
    let message = frames.iter().find(|f| f.event == "run_message").expect("a run_message frame");
    assert_eq!((&message.data["type"], &message.data["message"]), (&json!("message"), &json!("Looks good to me.")));
    check_no_collisions(&lines);
    // It reconnected once after `complete`, and 204 stopped it: no second run.
    let last = frames.last().unwrap().id.unwrap().to_string();
    assert_eq!(responses(&lines), [(200, Value::Null), (204, json!(last))], "{lines:?}");
    assert_eq!(read_lines(&dir.path().join("qa-requests.jsonl")).len(), 1, "the run ran once");
}

#[test]
fn a_failed_run_reaches_an_eventsource_as_run_error_not_as_a_connection_error() {
    let dir = tempfile::tempdir().unwrap();
    let planner = r#"[{fail: {kind: invalid_request, message: "the planner model refused"}}]"#;
    write_standard_plan(dir.path(), "", planner, QA_PASS);
    let server = start_server(amplifier(dir.path()));
    let lines = eventsource(&server.addr, &app_request("failing-es"), None, &[]);
    let frames = received(&lines);
    check_stream(&frames);
    let error = frames.last().unwrap();
    assert_eq!((error.event.as_str(), &error.data["type"]), ("run_error", &json!("error")));
    assert!(error.data["message"].as_str().unwrap().contains("the planner model refused"), "{error:?}");
    check_no_collisions(&lines);
    assert_eq!(responses(&lines).iter().map(|r| r.0).collect::<Vec<_>>(), [200, 204]);
    assert_eq!(read_lines(&dir.path().join("planner-requests.jsonl")).len(), 1, "the planner was asked once");
}

#[test]
fn an_eventsource_that_loses_its_connection_resumes_the_live_run_with_no_gap() {
    let dir = tempfile::tempdir().unwrap();
    // The strategist's tool waits until the client has reconnected, so the
    // run is live when it does (the client drops its first connection at
    // this tool's `tool_call`).
    let mark = dir.path().join("reconnected");
    let wait = format!("for i in $(seq 600); do [ -e {} ] && break; sleep 0.1; done", mark.display());
    let strategist = format!(
        r#"[{{tool_calls: [{{name: bash, arguments: {{command: "{wait}"}}}}]}}, {{text: '{{"strategy": {{}}}}'}}]"#
    );
    let writer = writer_script();
    let tools = format!("    tools: [{{module: tool-bash, source: \"{}\"}}]\n", plugin("tool-bash"));
    let agents = [
        Agent { extra: &tools, ..agent("strategist", "[plan.strategy]", STRATEGIST_SYSTEM, &strategist) },
        agent("writer", "[content.write]", WRITER_SYSTEM, &writer),
        agent("qa", "[qa.review]", QA_SYSTEM, QA_PASS),
    ];
    write_plan(dir.path(), "", PLAN_ALL, &agents);
    let server = start_server(amplifier(dir.path()));
    let request = json!({"mode": "app", "objective": "Announce it"});
    let lines = eventsource(&server.addr, &request, Some("tool_call"), &[("MARK_RECONNECT", &mark)]);
    assert_eq!(of_kind(&lines, "cut").len(), 1, "{lines:?}");
    let frames = received(&lines);
    // Every frame once, in order, with no gap: heartbeats are the run's too.
    let ids: Vec<u64> = frames.iter().map(|f| f.id.unwrap()).collect();
    assert_eq!(ids, (1..=ids.len() as u64).collect::<Vec<_>>(), "{:?}", events(&frames));
    let frames: Vec<Frame> = frames.into_iter().filter(|f| f.event != "heartbeat").collect();
    check_stream(&frames);
    assert_eq!(handoffs(&frames, "occurred"), ["strategist", "writer", "qa"]);
    assert_eq!(complete(&frames)["quality"]["pass"], true);
    check_no_collisions(&lines);
    let responses = responses(&lines);
    assert_eq!(responses.iter().map(|r| r.0).collect::<Vec<_>>(), [200, 200, 204], "{lines:?}");
    let resumed_after: u64 = responses[1].1.as_str().unwrap().parse().unwrap();
    let call = frames.iter().find(|f| f.event == "tool_call").unwrap().id.unwrap();
    assert!(resumed_after >= call, "it reconnected after the tool_call it cut at");
    // One run: the planner asked once, the strategist twice (its tool call, then its answer).
    assert_eq!(read_lines(&dir.path().join("planner-requests.jsonl")).len(), 1);
    assert_eq!(read_lines(&dir.path().join("strategist-requests.jsonl")).len(), 2);
}
