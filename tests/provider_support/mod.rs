//! What the provider tests share: a scripted local HTTP server (the only
//! test double: a real server cannot be made to fail on cue), an in-process
//! session that loads the real plugins through the loader and the ABI (to
//! call `complete` with a stream and `list_models`, which no CLI command
//! reaches), and the real llama.cpp server.

#![allow(dead_code)] // each test crate uses a different subset

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, Once};
use std::thread;
use std::time::Duration;

use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{ChatRequest, ChatResponse, HookResult, ModelInfo};
use amplifier_kernel::session::{Session, SessionOptions};
use amplifier_kernel::traits::{BoxFuture, HookHandler, ModuleResult};
use amplifier_kernel::ModuleError;
use amplifier_loader::DylibLoader;
use serde_json::Value;

use crate::common::{amplifier_home, plugin, workspace};

// ---------------------------------------------------------------------------
// A scripted HTTP server

/// What the server does with one request (one connection each).
#[derive(Clone)]
pub enum Reply {
    /// A complete answer.
    Body { status: u16, headers: Vec<(String, String)>, body: String },
    /// `200` with `text/event-stream` and these `(event name, data)` frames.
    Sse(Vec<(Option<String>, String)>),
    /// Read the request, then close the connection without a word.
    Drop,
    /// Send `200` headers (and `prefix`, if any) and then nothing for `hold`.
    Stall { prefix: String, hold: Duration },
}

impl Reply {
    pub fn json(status: u16, body: Value) -> Self {
        Reply::Body { status, headers: Vec::new(), body: body.to_string() }
    }

    pub fn with_header(self, name: &str, value: &str) -> Self {
        match self {
            Reply::Body { status, mut headers, body } => {
                headers.push((name.to_owned(), value.to_owned()));
                Reply::Body { status, headers, body }
            }
            other => other,
        }
    }

    /// SSE frames from `(event, data)` pairs; `None` leaves the `event:` line out.
    pub fn sse<'a>(frames: impl IntoIterator<Item = (Option<&'a str>, Value)>) -> Self {
        Reply::Sse(frames.into_iter().map(|(event, data)| (event.map(str::to_owned), data.to_string())).collect())
    }

    /// Ends an SSE reply with OpenAI's `data: [DONE]`.
    pub fn with_done(self) -> Self {
        match self {
            Reply::Sse(mut frames) => {
                frames.push((None, "[DONE]".to_owned()));
                Reply::Sse(frames)
            }
            other => other,
        }
    }
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// Lower-cased names.
    pub headers: BTreeMap<String, String>,
    pub body: String,
}

impl Received {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|err| panic!("request body is not JSON ({err}): {}", self.body))
    }
}

/// Fails unless every body of `received` fits the official Python SDK's
/// request type (`sdk`: `openai` or `anthropic`): `tests/python/check_requests.py`,
/// with the SDKs from PyPI (`tests/python/setup.sh`).
pub fn assert_fits_sdk(sdk: &str, received: &[Received]) {
    let file = tempfile::NamedTempFile::new().unwrap();
    let lines: Vec<String> = received.iter().map(|request| request.json().to_string()).collect();
    std::fs::write(file.path(), lines.join("\n") + "\n").unwrap();
    let output = Command::new(crate::common::python())
        .arg(workspace().join("tests/python/check_requests.py"))
        .arg(sdk)
        .arg(file.path())
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{said}");
    assert!(said.contains("every request fits"), "{said}");
}

pub struct FakeServer {
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl FakeServer {
    /// Serves `script` in order, one reply per connection; past its end, 500s.
    pub fn start(script: Vec<Reply>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        let bound = script.len() + 4;
        thread::spawn(move || {
            for (n, stream) in listener.incoming().flatten().take(bound).enumerate() {
                let reply = script.get(n).cloned().unwrap_or_else(|| {
                    Reply::json(500, serde_json::json!({"error": {"message": "the test script ran out"}}))
                });
                let log = log.clone();
                // A stalled reply must not hold up the next connection.
                thread::spawn(move || serve(stream, reply, &log));
            }
        });
        FakeServer { url, received }
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

fn serve(mut stream: TcpStream, reply: Reply, log: &Mutex<Vec<Received>>) {
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let Some(request) = read_request(&mut stream) else { return };
    log.lock().unwrap().push(request);
    let head = |status: u16, content_type: &str, length: Option<usize>, extra: &[(String, String)]| {
        let mut head =
            format!("HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nConnection: close\r\n", reason(status));
        if let Some(length) = length {
            head.push_str(&format!("Content-Length: {length}\r\n"));
        }
        for (name, value) in extra {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        head
    };
    let _ = match reply {
        Reply::Body { status, headers, body } => {
            stream.write_all((head(status, "application/json", Some(body.len()), &headers) + &body).as_bytes())
        }
        Reply::Sse(frames) => {
            let mut out = head(200, "text/event-stream", None, &[]);
            for (event, data) in frames {
                if let Some(event) = event {
                    out.push_str(&format!("event: {event}\n"));
                }
                out.push_str(&format!("data: {data}\n\n"));
            }
            stream.write_all(out.as_bytes())
        }
        Reply::Drop => Ok(()),
        Reply::Stall { prefix, hold } => {
            let _ = stream.write_all((head(200, "text/event-stream", None, &[]) + &prefix).as_bytes());
            let _ = stream.flush();
            thread::sleep(hold);
            Ok(())
        }
    };
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        529 => "Overloaded",
        _ => "Status",
    }
}

fn read_request(stream: &mut TcpStream) -> Option<Received> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let (method, path) = (request_line.next()?.to_owned(), request_line.next()?.to_owned());
    let headers: BTreeMap<String, String> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length: usize = headers.get("content-length").and_then(|l| l.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).ok()?;
    Some(Received { method, path, headers, body: String::from_utf8_lossy(&body).into_owned() })
}

// ---------------------------------------------------------------------------
// An in-process session over the real plugins

/// Records every event the session emits.
#[derive(Default)]
pub struct Recorder(Mutex<Vec<(String, Value)>>);

impl Recorder {
    pub fn events(&self) -> Vec<(String, Value)> {
        self.0.lock().unwrap().clone()
    }

    pub fn named(&self, name: &str) -> Vec<Value> {
        self.events().into_iter().filter(|(event, _)| event == name).map(|(_, data)| data).collect()
    }

    pub fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
}

impl HookHandler for Recorder {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        self.0.lock().unwrap().push((event.name.clone(), Value::Object(event.data.clone())));
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// A session with loop-basic, context-simple and the given provider entries
/// (YAML list items), loaded through the real loader. Plugins are built
/// unoptimised into the tests' shared cache, as the CLI tests do.
pub struct Harness {
    pub session: Session,
    pub events: Arc<Recorder>,
}

pub async fn mount(providers: &str) -> Harness {
    // tool-echo too, so the CLI runs that follow find every plugin built.
    let plan = format!(
        "session:\n  orchestrator: {{module: loop-basic, source: \"{}\"}}\n  context: {{module: context-simple, source: \"{}\"}}\nproviders:\n{providers}tools:\n  - {{module: tool-echo, source: \"{}\"}}\n",
        plugin("loop-basic"),
        plugin("context-simple"),
        plugin("tool-echo"),
    );
    let parsed = amplifier_plan::parse_plan_str(&plan, None).unwrap_or_else(|err| panic!("{err}\n{plan}"));
    mount_parsed(parsed.plan, workspace()).await
}

/// Mounts a plan file (relative sources resolve from its directory), with
/// `${VAR}` looked up in `env` only.
pub async fn mount_plan_file(path: &std::path::Path, env: &[(&str, &str)]) -> Harness {
    let text = std::fs::read_to_string(path).unwrap();
    let lookup = |name: &str| env.iter().find(|(key, _)| *key == name).map(|(_, value)| (*value).to_owned());
    let parsed = amplifier_plan::parse_plan_str_with_env(&text, Some(path), &lookup)
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    assert!(parsed.warnings.is_empty(), "{}: {:?}", path.display(), parsed.warnings);
    mount_parsed(parsed.plan, path.parent().unwrap().to_owned()).await
}

async fn mount_parsed(plan: amplifier_kernel::plan::MountPlan, base_dir: PathBuf) -> Harness {
    static PROFILE: Once = Once::new();
    // The loader reads the build profile from the environment; set once,
    // before any loader exists, to what the CLI tests use.
    PROFILE.call_once(|| std::env::set_var("AMPLIFIER_PLUGIN_PROFILE", "dev"));
    // The shipped plans name standard modules without a source, as the CLI runs them.
    amplifier_loader::builtin::register(amplifier_builtins::MODULES);
    let loader = Arc::new(DylibLoader::new(Some(base_dir), &amplifier_home()));
    let session = Session::new(plan, loader, SessionOptions::default());
    // One build at a time: concurrent loaders building the same crates into
    // one target dir can catch a library while cargo replaces it.
    static BUILDS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let report = {
        let _one_at_a_time = BUILDS.lock().await;
        session.initialize().await.expect("the session initializes")
    };
    assert!(report.failures.is_empty(), "modules failed to load: {:?}", report.failures);
    let events = Arc::new(Recorder::default());
    session.coordinator().hooks().register("*", events.clone(), 0, "test-recorder");
    Harness { session, events }
}

impl Harness {
    /// One completion; with `stream`, also every streamed delta.
    pub async fn complete(
        &self,
        provider: &str,
        request: ChatRequest,
        stream: bool,
    ) -> (Result<ChatResponse, ModuleError>, Vec<Value>) {
        let deltas = Arc::new(Mutex::new(Vec::new()));
        let sink = deltas.clone();
        let sink: Option<amplifier_kernel::traits::StreamSink> =
            stream.then(|| Arc::new(move |delta: Value| sink.lock().unwrap().push(delta)) as _);
        let result = self.session.coordinator().complete(Some(provider), request, sink).await;
        let deltas = deltas.lock().unwrap().clone();
        (result, deltas)
    }

    pub async fn list_models(&self, provider: &str) -> Result<Vec<ModelInfo>, ModuleError> {
        let mounted = self.session.coordinator().provider(provider).expect("the provider is mounted");
        mounted.provider.list_models().await
    }

    pub async fn close(self) {
        self.session.cleanup().await;
    }
}

/// A provider list item for a plan.
pub fn provider_entry(module: &str, instance_id: &str, config: &str) -> String {
    format!("  - {{module: {module}, instance_id: {instance_id}, source: \"{}\", config: {config}}}\n", plugin(module))
}

// ---------------------------------------------------------------------------
// The real llama.cpp server

/// `target/llm`, where tests/llm/setup.sh puts the venv and the model.
pub fn llm_dir() -> PathBuf {
    std::env::var_os("AMPLIFIER_LLM_DIR").map(PathBuf::from).unwrap_or_else(|| workspace().join("target/llm"))
}

/// llama.cpp's server (xllamacpp) with the Qwen model on 127.0.0.1; stopped on drop.
pub struct LlmServer {
    child: Child,
    stdin: Option<ChildStdin>,
    /// `http://127.0.0.1:PORT`
    pub url: String,
}

pub const LLM_MODEL_ALIAS: &str = "test-model";

impl LlmServer {
    /// Runs tests/llm/setup.sh when the model or the venv is missing, then starts the server.
    pub fn start() -> Self {
        let dir = llm_dir();
        let model = dir.join("models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf");
        let python = dir.join("venv/bin/python");
        if !model.is_file() || !python.is_file() {
            let status = Command::new("bash")
                .arg(workspace().join("tests/llm/setup.sh"))
                .env("AMPLIFIER_LLM_DIR", &dir)
                .status()
                .expect("run tests/llm/setup.sh");
            assert!(status.success(), "tests/llm/setup.sh failed ({status}); it needs python3 and PyPI");
        }
        let mut child = Command::new(&python)
            .arg(workspace().join("tests/llm/serve_xll.py"))
            .arg("--model")
            .arg(&model)
            .args(["--port", "0", "--alias", LLM_MODEL_ALIAS, "--ctx", "4096", "--exit-on-eof"])
            .arg("--chat-template-file")
            .arg(workspace().join("tests/llm/qwen_codeblock_tools_v2.jinja"))
            // OpenMP threads spin-wait by default and collapse under parallel load.
            .env("OMP_WAIT_POLICY", "passive")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tests/llm/serve_xll.py");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (ready, wait) = std::sync::mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("READY ") {
                    let _ = ready.send(url.trim().to_owned());
                }
            }
        });
        let mut server = LlmServer { child, stdin, url: String::new() };
        match wait.recv_timeout(Duration::from_secs(180)) {
            Ok(url) => server.url = url,
            Err(_) => panic!("the llama.cpp server did not print READY within 180 s"),
        }
        server
    }
}

impl Drop for LlmServer {
    fn drop(&mut self) {
        // Closing stdin asks it to stop (--exit-on-eof); kill it if it lingers.
        drop(self.stdin.take());
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
