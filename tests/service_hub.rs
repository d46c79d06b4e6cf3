//! `tool-services` end to end: the real `amplifier` binary runs a session
//! with the service hub, and a service written with `amplifier-service-sdk`
//! connects to it over a real WebSocket on 127.0.0.1.
//!
//! Determinism: the hub listens on a random port (`port: 0`) and announces it
//! with `services:listening`, which the test reads from the jsonl output; the
//! script's first turn is `services_wait`, which returns only once the
//! service's tools are mounted, so the model sees them from its second turn.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use amplifier_service_sdk::{ConnectOptions, Service, Task, TaskError, ToolInfo};
use common::*;
use serde_json::{json, Value};

/// Plugin builds happen before the session starts; the first run builds them.
const FIRST_EVENT: Duration = Duration::from_secs(900);
const LATER_EVENT: Duration = Duration::from_secs(60);

/// A running `amplifier run --output-format jsonl`, read line by line.
struct Run {
    child: Child,
    lines: mpsc::Receiver<Value>,
    seen: Vec<Value>,
    stderr: std::thread::JoinHandle<String>,
}

impl Run {
    fn start(dir: &std::path::Path, prompt: &str) -> Run {
        let mut child = amplifier(dir)
            .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", prompt])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr_pipe = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let value = serde_json::from_str(&line).unwrap_or_else(|err| panic!("not JSON: {line}: {err}"));
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr_pipe.read_to_string(&mut text);
            text
        });
        Run { child, lines, seen: Vec::new(), stderr }
    }

    /// The next event named `name` (reading everything before it).
    fn wait_for(&mut self, name: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line["event"] == name {
                        return line;
                    }
                }
                Err(_) => panic!("no '{name}' event in time; events so far: {:?}", event_names(&self.seen)),
            }
        }
    }

    /// Waits for the process to end: every event line and stderr.
    fn finish(mut self) -> (bool, Vec<Value>, String) {
        self.seen.extend(self.lines.iter());
        let status = self.child.wait().unwrap();
        let stderr = std::mem::replace(&mut self.stderr, std::thread::spawn(String::new)).join().unwrap();
        (status.success(), std::mem::take(&mut self.seen), stderr)
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_plan(dir: &std::path::Path, script: &str) {
    write_plan_with(dir, script, "");
}

/// [`write_plan`] with more of the hub's config (`key: value, ` pairs).
fn write_plan_with(dir: &std::path::Path, script: &str, config: &str) {
    let requests = dir.join("requests.jsonl");
    let provider =
        scripted(script).replace("{script:", &format!("{{requests_log: \"{}\", script:", requests.display()));
    let services = format!(
        "  - {{module: tool-services, source: \"{}\", config: {{{config}port: 0, task_timeout_ms: 30000}}}}",
        plugin("tool-services")
    );
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&provider, &services, "  []")).unwrap();
}

/// Whether each provider request offered a tool named `name`.
fn offered(dir: &std::path::Path, name: &str) -> Vec<bool> {
    std::fs::read_to_string(dir.join("requests.jsonl"))
        .unwrap()
        .lines()
        .map(|line| {
            let request: Value = serde_json::from_str(line).unwrap();
            request["tools"].as_array().unwrap().iter().any(|t| t["name"] == name)
        })
        .collect()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap()
}

fn listening_url(run: &mut Run) -> String {
    let listening = run.wait_for("services:listening", FIRST_EVENT);
    let url = listening["data"]["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with("ws://127.0.0.1:"), "{url}");
    assert_ne!(listening["data"]["port"], 0);
    url
}

#[test]
fn a_session_calls_a_remote_tool_validated_and_sees_its_progress_as_events() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{tool_calls: [{name: services_wait, arguments: {service: weather, timeout: 60}}]}, {tool_calls: [{name: weather__forecast, arguments: {city: 5}}]}, {tool_calls: [{name: weather__forecast, arguments: {city: Paris, days: 2}}]}, {text: "done"}]"#;
    write_plan(dir.path(), script);
    let mut run = Run::start(dir.path(), "weather in Paris?");
    let url = listening_url(&mut run);

    let tasks = Arc::new(AtomicUsize::new(0));
    let counted = tasks.clone();
    let service = Service::new("weather", "Weather Service").tool(
        ToolInfo::new("forecast", "Forecast for a city").input_schema(json!({
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"]
        })),
        move |task: Task| {
            counted.fetch_add(1, Ordering::SeqCst);
            async move {
                let days = task.params["days"].as_u64().unwrap_or(1);
                for day in 1..=days {
                    task.progress(day as f64 * 100.0 / days as f64, &format!("day {day}"));
                }
                Ok::<_, TaskError>(json!({"city": task.params["city"], "days": days, "sky": "clear"}))
            }
        },
    );
    let rt = runtime();
    let connection = rt.block_on(service.connect(&ConnectOptions::new(&url))).unwrap();
    assert_eq!(connection.registered()["tools"], json!(["weather__forecast"]));

    run.wait_for("run:result", LATER_EVENT);
    drop(connection);
    let (success, lines, stderr) = run.finish();
    assert!(success, "stderr:\n{stderr}");
    let names = event_names(&lines);
    assert!(names.contains(&"service:registered".to_owned()), "{names:?}");

    let waited = lines
        .iter()
        .find(|l| l["event"] == "tool:post" && l["data"]["tool_name"] == "services_wait")
        .expect("services_wait finished");
    assert_eq!(waited["data"]["result"]["output"]["id"], "weather");
    assert_eq!(waited["data"]["result"]["output"]["tools"][0]["name"], "weather__forecast");

    // The host validated the first call against the service's schema: it never reached the service.
    let invalid = lines.iter().find(|l| l["event"] == "tool:error").expect("the invalid call failed");
    assert_eq!(invalid["data"]["tool_name"], "weather__forecast");
    assert_eq!(invalid["data"]["error"]["type"], "InvalidInput");
    assert_eq!(tasks.load(Ordering::SeqCst), 1, "only the valid call reached the service");

    let post_at = names.iter().position(|n| n == "tool:post").map(|_| {
        lines.iter().rposition(|l| l["event"] == "tool:post" && l["data"]["tool_name"] == "weather__forecast").unwrap()
    });
    let post_at = post_at.expect("the forecast call finished");
    let post = &lines[post_at];
    assert_eq!(post["data"]["result"]["output"], json!({"city": "Paris", "days": 2, "sky": "clear"}));
    let pre_at =
        lines.iter().rposition(|l| l["event"] == "tool:pre" && l["data"]["tool_name"] == "weather__forecast").unwrap();

    // Its notifications arrived as events, in order, between tool:pre and tool:post.
    let notes: Vec<(usize, &Value)> =
        lines.iter().enumerate().filter(|(_, l)| l["event"] == "service:notification").collect();
    let kinds: Vec<&str> = notes.iter().map(|(_, n)| n["data"]["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["started", "progress", "progress", "completed"]);
    let progress: Vec<f64> = notes.iter().filter_map(|(_, n)| n["data"]["data"]["progress"].as_f64()).collect();
    assert_eq!(progress, [50.0, 100.0]);
    let task_id = notes[0].1["data"]["task_id"].as_str().unwrap();
    for (at, note) in &notes {
        assert!(pre_at < *at && *at < post_at, "notification outside the call: {note}");
        assert_eq!(note["data"]["task_id"], task_id);
        assert_eq!(note["data"]["service"], "weather");
        assert_eq!(note["data"]["tool"], "weather__forecast");
    }
    assert_eq!(lines.last().unwrap()["data"]["response"], "done");
    // The model was offered the tool from the turn after services_wait on (the
    // first request may or may not offer it, depending on when the service connected).
    assert_eq!(offered(dir.path(), "weather__forecast")[1..], [true, true, true]);
}

#[test]
fn a_service_that_disconnects_mid_task_fails_the_call_within_a_second_and_its_tools_go() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"[{tool_calls: [{name: services_wait, arguments: {service: weather}}]}, {tool_calls: [{name: weather__slow}]}, {text: "done"}]"#;
    write_plan(dir.path(), script);
    let mut run = Run::start(dir.path(), "go");
    let url = listening_url(&mut run);

    let (started_tx, started) = mpsc::channel::<()>();
    let started_tx = std::sync::Mutex::new(started_tx);
    let service =
        Service::new("weather", "Weather Service").tool(ToolInfo::new("slow", "Never finishes"), move |_task| {
            let _ = started_tx.lock().unwrap().send(());
            async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok::<_, TaskError>(Value::Null)
            }
        });
    let rt = runtime();
    let connection = rt.block_on(service.connect(&ConnectOptions::new(&url))).unwrap();
    started.recv_timeout(LATER_EVENT).expect("the session called the remote tool");
    let dropped = Instant::now();
    drop(connection);
    let error = run.wait_for("tool:error", LATER_EVENT);
    let elapsed = dropped.elapsed();
    assert!(elapsed < Duration::from_secs(1), "the call failed {elapsed:?} after the disconnect");
    assert_eq!(error["data"]["tool_name"], "weather__slow");
    assert_eq!(error["data"]["error"]["type"], "SERVICE_DISCONNECTED");

    let (success, lines, stderr) = run.finish();
    assert!(success, "stderr:\n{stderr}");
    let disconnected = lines.iter().find(|l| l["event"] == "service:disconnected").expect("service:disconnected");
    assert_eq!(disconnected["data"]["failed_tasks"], 1);
    assert_eq!(lines.last().unwrap()["data"]["response"], "done");
    // The next request no longer offered the service's tool.
    assert_eq!(offered(dir.path(), "weather__slow")[1..], [true, false]);
}

// -- sub-agents use their parent's hub -------------------------------------------------

/// A port free a moment ago: the plans below name it, so the test knows
/// where to connect before any event says so.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The weather service of these tests: `forecast` reports a progress notice
/// per day.
fn weather_service() -> Service {
    Service::new("weather", "Weather Service").tool(
        ToolInfo::new("forecast", "Forecast for a city").input_schema(json!({
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"]
        })),
        |task: Task| async move {
            let days = task.params["days"].as_u64().unwrap_or(1);
            for day in 1..=days {
                task.progress(day as f64 * 100.0 / days as f64, &format!("day {day}"));
            }
            Ok::<_, TaskError>(json!({"city": task.params["city"], "days": days, "sky": "clear"}))
        },
    )
}

/// The script of an agent that waits for the weather service, asks it for
/// two days of Paris, then answers `answer`.
fn weather_script(answer: &str) -> String {
    format!(
        r#"[{{tool_calls: [{{name: services_wait, arguments: {{service: weather, timeout: 600}}}}]}}, {{tool_calls: [{{name: weather__forecast, arguments: {{city: Paris, days: 2}}}}]}}, {{text: '{answer}'}}]"#
    )
}

/// `amplifier run --output-format sse` of `dir/plan.yaml` with `prompt`,
/// while the weather service connects to the hub on `port`: the frames.
fn run_with_the_weather_service(dir: &std::path::Path, port: u16, prompt: &str) -> Vec<common::serve::Frame> {
    let mut child = amplifier(dir)
        .env("AMPLIFIER_STATE_DIR", dir.join("state"))
        .args(["run", "--plan", "plan.yaml", "--output-format", "sse", prompt])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout_pipe = child.stdout.take().unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout_pipe.read_to_string(&mut text);
        text
    });
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr_pipe.read_to_string(&mut text);
        text
    });
    let rt = runtime();
    let options = ConnectOptions::new(format!("ws://127.0.0.1:{port}"));
    let service = weather_service();
    // The hub listens once the plugins are built and the session is open.
    let deadline = Instant::now() + FIRST_EVENT;
    let connection = loop {
        match rt.block_on(service.connect(&options)) {
            Ok(connection) => break connection,
            Err(err) => {
                let exited = child.try_wait().unwrap();
                assert!(
                    exited.is_none() && Instant::now() < deadline,
                    "could not connect ({err}); the run ended: {exited:?}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    };
    let status = child.wait().unwrap();
    drop(connection);
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    assert!(status.success(), "stderr:\n{stderr}");
    assert!(!stderr.contains("cannot listen"), "a child bound the port again:\n{stderr}");
    common::serve::parse_sse(&stdout)
}

/// The forecast call as the client saw it: called, its notices as
/// `progress` frames in order, answered; then the agent's answer.
fn check_forecast_frames(frames: &[common::serve::Frame]) {
    let complete = frames.last().unwrap();
    assert_eq!(
        (complete.event.as_str(), &complete.data["data"]["message"]),
        ("complete", &json!("Clear skies in Paris.")),
        "the agent answered after the forecast"
    );
    let at = |event: &str, tool: &str| {
        frames.iter().position(|f| f.event == event && f.data["message"] == tool).unwrap_or_else(|| {
            panic!("no {event} of {tool}: {:?}", frames.iter().map(|f| &f.event).collect::<Vec<_>>())
        })
    };
    let (call, result) = (at("tool_call", "weather__forecast"), at("tool_result", "weather__forecast"));
    assert_eq!(
        frames[result].data["data"]["result"]["output"],
        json!({"city": "Paris", "days": 2, "sky": "clear"}),
        "{:?}",
        frames[result]
    );
    let notices: Vec<(usize, &common::serve::Frame)> =
        frames.iter().enumerate().filter(|(_, f)| f.event == "progress").collect();
    let kinds: Vec<&str> = notices.iter().map(|(_, f)| f.data["data"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["started", "progress", "progress", "completed"]);
    let days: Vec<&str> = notices
        .iter()
        .filter(|(_, f)| f.data["data"]["kind"] == "progress")
        .map(|(_, f)| f.data["message"].as_str().unwrap())
        .collect();
    assert_eq!(days, ["day 1", "day 2"]);
    for (at, notice) in &notices {
        assert!(call < *at && *at < result, "a notice outside the call: {notice:?}");
        assert_eq!(
            (&notice.data["data"]["service"], &notice.data["data"]["tool"]),
            (&json!("weather"), &json!("weather__forecast"))
        );
    }
}

/// Writes `dir/plan.yaml`: `orchestrator` with the service hub on a free
/// port among its `tools:` (its agents inherit them), `top` (more top-level
/// YAML) and one agent `name` (with `overlay` lines) running
/// [`weather_script`]. Returns the port.
fn plan_with_one_agent(dir: &std::path::Path, orchestrator: &str, top: &str, name: &str, overlay: &str) -> u16 {
    let port = free_port();
    let plan = format!(
        r#"session:
  orchestrator: {{module: {orchestrator}, source: "{orchestrator_source}"}}
  context: {{module: context-simple, source: "{context}"}}
{top}tools:
  - {{module: tool-services, source: "{services}", config: {{port: {port}, task_timeout_ms: 30000}}}}
agents:
  {name}:
    description: the {name}
{overlay}    providers: [{{module: provider-scripted, source: "{scripted}", config: {{script: {script}}}}}]
"#,
        orchestrator_source = plugin(orchestrator),
        context = plugin("context-simple"),
        services = plugin("tool-services"),
        scripted = plugin("provider-scripted"),
        script = weather_script("Clear skies in Paris."),
    );
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
    port
}

#[test]
fn a_routed_agent_calls_a_remote_tool_through_its_parents_hub() {
    let dir = tempfile::tempdir().unwrap();
    let port = plan_with_one_agent(dir.path(), "orchestrator-router", "", "support", "");
    let frames = run_with_the_weather_service(dir.path(), port, "weather in Paris?");
    assert_eq!(frames.iter().find(|f| f.event == "agent_selected").unwrap().data["message"], "support");
    check_forecast_frames(&frames);
}

#[test]
fn a_specialist_calls_a_remote_tool_through_its_parents_hub() {
    let dir = tempfile::tempdir().unwrap();
    let scripted = plugin("provider-scripted");
    let planner = format!("providers:\n  - {{module: provider-scripted, source: \"{scripted}\", config: {{script: [{{text: unused}}]}}}}\n");
    let port = plan_with_one_agent(
        dir.path(),
        "orchestrator-plan",
        &planner,
        "strategist",
        "    capabilities: [plan.strategy]\n",
    );
    let request =
        json!({"mode": "chat", "message": "weather in Paris?", "agent": "strategist", "threadId": "weather-1"});
    let frames = run_with_the_weather_service(dir.path(), port, &request.to_string());
    check_forecast_frames(&frames);
}

#[test]
fn a_service_calls_another_services_tool_through_the_hub() {
    let dir = tempfile::tempdir().unwrap();
    // The call says how urgent it is; the plan makes the weather service's tasks low priority.
    let script = r#"[{tool_calls: [{name: services_wait, arguments: {service: planner, timeout: 60}}]}, {tool_calls: [{name: planner__plan, arguments: {city: Paris, _meta: {priority: high}}}]}, {text: "planned"}]"#;
    write_plan_with(dir.path(), script, "priorities: {weather: low}, ");
    let mut run = Run::start(dir.path(), "plan a trip");
    let url = listening_url(&mut run);
    let (seen_tx, seen) = mpsc::channel::<Value>();
    let seen_tx = std::sync::Mutex::new(seen_tx);
    let weather =
        Service::new("weather", "Weather Service").tool(ToolInfo::new("forecast", "Forecast"), move |task: Task| {
            let _ = seen_tx.lock().unwrap().send(task.metadata.clone());
            async move { Ok::<_, TaskError>(json!({"city": task.params["city"], "sky": "clear"})) }
        });
    // The planner asks the weather service, through the hub, while it runs its own task.
    let planner =
        Service::new("planner", "Trip Planner").tool(ToolInfo::new("plan", "Plans a trip"), |task: Task| async move {
            let forecast = task.request("weather__forecast", json!({"city": task.params["city"]})).await?;
            let missing = task.request("weather__nothing", json!({})).await.unwrap_err();
            let priority = task.metadata["priority"].clone();
        Ok::<_, TaskError>(json!({"go": forecast["sky"] == "clear", "forecast": forecast, "missing": missing.code, "priority": priority}))
        });
    let rt = runtime();
    let options = ConnectOptions::new(&url);
    let weather = rt.block_on(weather.connect(&options)).unwrap();
    let planner = rt.block_on(planner.connect(&options)).unwrap();

    run.wait_for("run:result", LATER_EVENT);
    drop((weather, planner));
    let (success, lines, stderr) = run.finish();
    assert!(success, "stderr:\n{stderr}");
    let post = lines
        .iter()
        .find(|l| l["event"] == "tool:post" && l["data"]["tool_name"] == "planner__plan")
        .expect("the planner answered");
    assert_eq!(
        post["data"]["result"]["output"],
        json!({"go": true, "forecast": {"city": "Paris", "sky": "clear"}, "missing": "NOT_FOUND", "priority": "high"})
    );
    let metadata = seen.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(metadata["agentId"], "planner", "the weather task was the planner's");
    assert_eq!(metadata["priority"], "low", "the plan's priority for the weather service");
}
