//! What `amplifier run` prints: the final text, one JSON document, or a JSON
//! line per event as it happens.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{HookResult, MessageLevel, Usage};
use amplifier_kernel::services::DisplaySystem;
use amplifier_kernel::traits::{BoxFuture, HookHandler, ModuleResult};
use amplifier_kernel::{capabilities, events, Coordinator};
use clap::ValueEnum;
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// The final response as plain text.
    Text,
    /// One JSON document at the end: `{status, response, session_id, bundle,
    /// model, timestamp, usage}` (upstream's, with the usage).
    Json,
    /// `json` with `execution_trace` (each tool call: arguments, result,
    /// timestamp, duration_ms, sequence) and `metadata` (counts, duration).
    JsonTrace,
    /// One JSON line per kernel event as it happens, then a `run:result` line.
    Jsonl,
    /// Server-Sent Events frames as they happen, child sessions included
    /// (`start` … `complete` or `error`; see `amplifier serve`).
    Sse,
}

/// Runs after every other hook, so it prints what they left.
const OBSERVER_PRIORITY: i32 = i32::MAX;

/// Prints every event as a JSON line on stdout.
struct EventPrinter;

impl HookHandler for EventPrinter {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        let line = format!("{{\"event\":{},\"data\":{}}}\n", json!(event.name), event.data_json());
        let mut stdout = std::io::stdout().lock();
        // A closed stdout (`| head`) must not fail the run.
        let _ = stdout.write_all(line.as_bytes()).and_then(|_| stdout.flush());
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// Sums the usage of every provider response.
#[derive(Default)]
pub struct UsageMeter {
    total: Mutex<Usage>,
}

impl UsageMeter {
    pub fn total(&self) -> Usage {
        self.total.lock().expect("usage lock").clone()
    }
}

impl HookHandler for UsageMeter {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        if let Some(usage) = event.data.get("usage").and_then(|u| serde_json::from_value::<Usage>(u.clone()).ok()) {
            self.total.lock().expect("usage lock").accumulate(&usage);
        }
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// Prints the model's text as it streams (`content_block:delta`), for a
/// person watching a terminal; the final answer is then not printed again.
/// A renderer module (`ui.renderer`, such as hooks-streaming-ui) takes the
/// job over: this then only notes that the text was shown.
pub struct TextStreamer {
    coordinator: Weak<Coordinator>,
    streamed: AtomicBool,
    ends_with_newline: AtomicBool,
}

impl TextStreamer {
    fn new(coordinator: &Arc<Coordinator>) -> TextStreamer {
        TextStreamer {
            coordinator: Arc::downgrade(coordinator),
            streamed: AtomicBool::new(false),
            ends_with_newline: AtomicBool::new(false),
        }
    }

    /// Forgets what was streamed: the next turn starts afresh.
    pub fn reset(&self) {
        self.streamed.store(false, Ordering::SeqCst);
        self.ends_with_newline.store(false, Ordering::SeqCst);
    }

    /// Prints `response` unless it was streamed, ending the output with a newline.
    pub fn finish(&self, response: &str) {
        if !self.streamed.load(Ordering::SeqCst) {
            println!("{response}");
        } else if !self.ends_with_newline.load(Ordering::SeqCst) {
            println!();
        }
    }

    fn renderer_draws(&self) -> bool {
        self.coordinator.upgrade().is_some_and(|c| c.get_capability(capabilities::UI_RENDERER).is_some())
    }
}

impl HookHandler for TextStreamer {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        let data = &event.data;
        if event.name == events::CONTENT_BLOCK_END {
            // A renderer draws complete blocks too, streamed or not.
            let block = data.get("block");
            let text =
                block.filter(|b| b.get("type").and_then(Value::as_str) == Some("text")).and_then(|b| b.get("text"));
            if text.and_then(Value::as_str).is_some_and(|t| !t.is_empty()) && self.renderer_draws() {
                self.streamed.store(true, Ordering::SeqCst);
                self.ends_with_newline.store(true, Ordering::SeqCst);
            }
            return Box::pin(async { Ok(HookResult::continue_()) });
        }
        // A provider's text deltas, or a routing orchestrator's relay of its agent's.
        let is_text = event.name == "router:delta" || data.get("block_type").and_then(Value::as_str) == Some("text");
        let text = is_text.then(|| data.get("delta").and_then(Value::as_str)).flatten().filter(|text| !text.is_empty());
        if let Some(text) = text {
            self.streamed.store(true, Ordering::SeqCst);
            if self.renderer_draws() {
                // The renderer ends what it draws with a newline.
                self.ends_with_newline.store(true, Ordering::SeqCst);
            } else {
                self.ends_with_newline.store(text.ends_with('\n'), Ordering::SeqCst);
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
            }
        }
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// The front end's observers of one session.
pub struct FrontEnd {
    pub meter: Arc<UsageMeter>,
    pub text: Arc<TextStreamer>,
    pub trace: Option<Arc<TraceCollector>>,
}

/// Registers the front end's own observers on a session's hooks. Text
/// streams only to a terminal: piped output stays the final answer alone.
/// There the session is marked `ui.terminal`, which a renderer module
/// waits for before it draws.
pub fn attach(coordinator: &Arc<Coordinator>, format: OutputFormat) -> FrontEnd {
    let meter = Arc::new(UsageMeter::default());
    let text = Arc::new(TextStreamer::new(coordinator));
    let hooks = coordinator.hooks();
    hooks.register("provider:response", meter.clone(), OBSERVER_PRIORITY, "cli-usage");
    if format == OutputFormat::Jsonl {
        hooks.register("*", Arc::new(EventPrinter), OBSERVER_PRIORITY, "cli-jsonl");
    }
    if format == OutputFormat::Text && std::io::stdout().is_terminal() {
        coordinator.register_capability(capabilities::UI_TERMINAL, json!({"format": "text"}));
        for event in [events::CONTENT_BLOCK_DELTA, events::CONTENT_BLOCK_END, "router:delta"] {
            hooks.register(event, text.clone(), OBSERVER_PRIORITY, "cli-text");
        }
    }
    let trace = (format == OutputFormat::JsonTrace).then(|| Arc::new(TraceCollector::new()));
    if let Some(trace) = &trace {
        for event in [events::TOOL_PRE, events::TOOL_POST, events::TOOL_ERROR] {
            hooks.register(event, trace.clone(), OBSERVER_PRIORITY, "cli-trace");
        }
    }
    coordinator.set_display_system(Arc::new(StderrDisplay));
    FrontEnd { meter, text, trace }
}

/// Hook messages for the person at the terminal go to stderr.
struct StderrDisplay;

impl DisplaySystem for StderrDisplay {
    fn show_message(&self, message: &str, level: MessageLevel, source: &str) {
        let label = match level {
            MessageLevel::Info => "info",
            MessageLevel::Warning => "warning",
            MessageLevel::Error => "error",
        };
        eprintln!("{label} [{source}]: {message}");
    }
}

/// What a run's result document says besides its outcome.
pub struct RunFacts<'a> {
    pub session_id: &'a str,
    pub usage: &'a Usage,
    /// `bundle:<name>` when the plan was compiled from a bundle, as upstream names its source.
    pub bundle: Option<&'a str>,
    /// `<mount name>/<model>` of the preferred provider.
    pub model: Option<String>,
    pub trace: Option<&'a TraceCollector>,
}

impl RunFacts<'_> {
    /// `<mount name>/<model>` of the provider a request without a name goes to.
    pub fn model_of(coordinator: &Coordinator) -> Option<String> {
        let provider = coordinator.providers().into_iter().next()?;
        Some(match provider.provider.info().defaults.get("model").and_then(Value::as_str) {
            Some(model) => format!("{}/{model}", provider.name),
            None => provider.name,
        })
    }
}

/// The result document for `--output-format json` (and `json-trace`) and
/// the last `jsonl` line: upstream's fields, with `usage` and, on a failure,
/// `error`.
pub fn result_document(status: &str, response: Option<&str>, error: Option<&str>, facts: &RunFacts) -> Value {
    let mut doc = json!({
        "status": status,
        "response": response,
        "session_id": facts.session_id,
        "bundle": facts.bundle.map(|name| format!("bundle:{name}")),
        "model": facts.model,
        "timestamp": amplifier_store::rfc3339_ms(amplifier_store::now_ms()),
        "usage": facts.usage,
    });
    if let Some(error) = error {
        doc["error"] = json!(error);
    }
    if let Some(trace) = facts.trace {
        let (calls, metadata) = trace.finish();
        doc["execution_trace"] = calls;
        doc["metadata"] = metadata;
    }
    doc
}

/// `json-trace`'s record of the tool calls, from `tool:pre` to `tool:post`
/// or `tool:error`, matched by call id.
pub struct TraceCollector {
    started: Instant,
    calls: Mutex<Vec<(Option<String>, Instant, Value)>>,
}

impl TraceCollector {
    pub fn new() -> TraceCollector {
        TraceCollector { started: Instant::now(), calls: Mutex::new(Vec::new()) }
    }

    /// The calls and upstream's `metadata`: `total_tool_calls`,
    /// `total_agents_invoked` (calls of `task`) and `duration_ms`.
    fn finish(&self) -> (Value, Value) {
        let calls: Vec<Value> =
            self.calls.lock().expect("trace lock").iter().map(|(_, _, entry)| entry.clone()).collect();
        let agents = calls.iter().filter(|c| c["tool"] == "task").count();
        let metadata = json!({
            "total_tool_calls": calls.len(),
            "total_agents_invoked": agents,
            "duration_ms": millis(self.started.elapsed()),
        });
        (Value::Array(calls), metadata)
    }
}

fn millis(elapsed: std::time::Duration) -> f64 {
    (elapsed.as_secs_f64() * 100_000.0).round() / 100.0
}

impl HookHandler for TraceCollector {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        let data = &event.data;
        let id = data.get("tool_call_id").and_then(Value::as_str).map(str::to_owned);
        let mut calls = self.calls.lock().expect("trace lock");
        if event.name == events::TOOL_PRE {
            let entry = json!({
                "type": "tool_call",
                "tool": data.get("tool_name").cloned().unwrap_or(json!("unknown")),
                "arguments": data.get("tool_input").cloned().unwrap_or(json!({})),
                "result": null,
                "timestamp": amplifier_store::rfc3339_ms(amplifier_store::now_ms()),
                "duration_ms": null,
                "sequence": calls.len() + 1,
            });
            calls.push((id, Instant::now(), entry));
        } else if let Some((_, started, entry)) =
            calls.iter_mut().rev().find(|(call, _, entry)| *call == id && entry["result"].is_null())
        {
            entry["result"] = match event.name.as_str() {
                events::TOOL_ERROR => json!({"success": false, "error": data.get("error")}),
                _ => data.get("result").cloned().unwrap_or(Value::Null),
            };
            entry["duration_ms"] = json!(millis(started.elapsed()));
        }
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}
