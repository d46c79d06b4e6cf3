//! `tool-mcp` end to end: `amplifier run` with real MCP servers over stdio:
//! `@modelcontextprotocol/server-everything` from npm (pinned, installed by
//! `tests/npm/install.sh`, run here when missing), and a small server written
//! by these tests on the same npm package's SDK, which can change its tool
//! list, crash, hang or refuse to start on demand. Needs node and npm. And
//! a server written with the `mcp` Python SDK (`tests/python/`), over stdio
//! and streamable HTTP.

mod common;
mod provider_support;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::*;
use provider_support::{assert_fits_sdk, FakeServer, Received, Reply};
use serde_json::{json, Value};

/// The installed server-everything's entry point (installing it if needed).
fn everything_entry() -> &'static Path {
    static ENTRY: OnceLock<PathBuf> = OnceLock::new();
    ENTRY.get_or_init(|| npm_package("@modelcontextprotocol/server-everything"))
}

/// The CommonJS build of the MCP TypeScript SDK installed beside server-everything.
fn sdk_dir() -> PathBuf {
    // <prefix>/node_modules/@modelcontextprotocol/server-everything/dist/index.js
    let node_modules = everything_entry().ancestors().nth(4).unwrap();
    node_modules.join("@modelcontextprotocol/sdk/dist/cjs")
}

/// A stdio MCP server whose `MODE` is `serve` (tools `pid`, `crash`,
/// `add_tool {name}`, `remove_tool {name}`), `hang` (never answers) or
/// `exit` (complains on stderr and exits). Each start appends its pid to `PID_FILE`.
const TEST_SERVER: &str = r#"
const path = require('path');
const fs = require('fs');
const sdk = process.env.MCP_SDK_CJS;
const { Server } = require(path.join(sdk, 'server/index.js'));
const { StdioServerTransport } = require(path.join(sdk, 'server/stdio.js'));
const { ListToolsRequestSchema, CallToolRequestSchema } = require(path.join(sdk, 'types.js'));

if (process.env.PID_FILE) fs.appendFileSync(process.env.PID_FILE, process.pid + '\n');
const mode = process.env.MODE || 'serve';
console.error(`test server ${process.pid} starting (${mode})`);
if (mode === 'exit') {
  console.error('fatal: the test server was told to exit');
  process.exit(2);
}
if (mode === 'hang') {
  setInterval(() => {}, 1000);
} else {
  const object = (properties = {}, required = []) => ({ type: 'object', properties, required });
  const named = object({ name: { type: 'string' } }, ['name']);
  const tools = new Map([
    ['pid', { description: 'Returns the process id', inputSchema: object() }],
    ['crash', { description: 'Exits at once, without answering', inputSchema: object() }],
    ['add_tool', { description: 'Adds a tool', inputSchema: named }],
    ['remove_tool', { description: 'Removes a tool', inputSchema: named }],
  ]);
  const server = new Server(
    { name: 'amplifier-test-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools].map(([name, tool]) => ({ name, ...tool })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
    switch (name) {
      case 'pid':
        return text(process.pid);
      case 'crash':
        process.exit(3);
      case 'add_tool':
        tools.set(args.name, { description: 'Added at run time', inputSchema: object() });
        await server.sendToolListChanged();
        return text(`added ${args.name}`);
      case 'remove_tool':
        tools.delete(args.name);
        await server.sendToolListChanged();
        return text(`removed ${args.name}`);
      default:
        if (tools.has(name)) return text(`dynamic ${name}`);
        throw new Error(`unknown tool ${name}`);
    }
  });
  server.connect(new StdioServerTransport());
}
"#;

/// Writes the test server into `dir`; returns a server config for it.
fn test_server(dir: &Path, mode: &str, pid_file: &Path) -> Value {
    let script = dir.join("server.cjs");
    std::fs::write(&script, TEST_SERVER).unwrap();
    json!({
        "command": "node",
        "args": [script],
        "env": {"MCP_SDK_CJS": sdk_dir(), "MODE": mode, "PID_FILE": pid_file},
        "timeout": 20,
    })
}

/// One `amplifier run` with tool-mcp configured by `config`, a scripted
/// provider playing `script` and logging its requests; returns the output,
/// the jsonl lines and the requests.
struct Run {
    output: Output,
    lines: Vec<Value>,
    requests: Vec<Value>,
}

fn run(dir: &Path, config: Value, script: Value, env: &[(&str, &str)]) -> Run {
    let requests = dir.join("requests.jsonl");
    let provider = scripted(&script.to_string())
        .replace("{script:", &format!("{{requests_log: \"{}\", script:", requests.display()));
    let tool = format!("  - {{module: tool-mcp, source: \"{}\", config: {config}}}", plugin("tool-mcp"));
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&provider, &tool, "  []")).unwrap();
    let mut command = amplifier(dir);
    command.args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "stderr:\n{}\nstdout:\n{}", stderr(&output), stdout(&output));
    let lines = json_lines(&output);
    let requests = std::fs::read_to_string(&requests)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Run { output, lines, requests }
}

impl Run {
    /// `(success, output or error message, error type)` of each call of `tool`, in order.
    fn results(&self, tool: &str) -> Vec<(bool, Value, Value)> {
        self.lines
            .iter()
            .filter(|l| l["data"]["tool_name"] == tool)
            .filter_map(|l| match l["event"].as_str() {
                // A tool's own failure is a tool:post too; a failed call (the
                // server died or never came up) a tool:error.
                Some("tool:post") => {
                    let result = &l["data"]["result"];
                    Some((result["success"] != false, result["output"].clone(), result["error"]["type"].clone()))
                }
                Some("tool:error") => {
                    Some((false, l["data"]["error"]["msg"].clone(), l["data"]["error"]["type"].clone()))
                }
                _ => None,
            })
            .collect()
    }

    fn events(&self, name: &str) -> Vec<&Value> {
        self.lines.iter().filter(|l| l["event"] == name).map(|l| &l["data"]).collect()
    }

    /// Seconds from the first `from` event to the first `to` event, by the kernel's timestamps.
    fn seconds_between(&self, from: &str, to: &str) -> f64 {
        let at = |name: &str| {
            let line = self.lines.iter().find(|l| l["event"] == name).unwrap_or_else(|| panic!("no {name} event"));
            let stamp = line["data"]["timestamp"].as_str().unwrap();
            // `…THH:MM:SS.fffffffffZ`: seconds into the day are enough for a test.
            let time = stamp.split('T').nth(1).unwrap().trim_end_matches('Z');
            let parts: Vec<f64> = time.split(':').map(|p| p.parse().unwrap()).collect();
            parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]
        };
        (at(to) - at(from)).rem_euclid(86_400.0)
    }

    /// Whether each provider request offered `tool`.
    fn offered(&self, tool: &str) -> Vec<bool> {
        self.requests
            .iter()
            .map(|r| r["tools"].as_array().is_some_and(|tools| tools.iter().any(|t| t["name"] == tool)))
            .collect()
    }
}

fn pids(pid_file: &Path) -> Vec<u32> {
    std::fs::read_to_string(pid_file).unwrap_or_default().lines().map(|l| l.trim().parse().unwrap()).collect()
}

/// Whether a process runs (a zombie waiting for its reaper does not).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
}

/// Asserts that none of `pids` runs, allowing a moment for the kernel to finish killing them.
fn assert_gone(pids: &[u32]) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|p| alive(*p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let running: Vec<&u32> = pids.iter().filter(|p| alive(**p)).collect();
    assert!(running.is_empty(), "MCP server processes outlived the session: {running:?}");
}

/// Pids of processes whose environment contains `needle`.
fn processes_with_env(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        if let Ok(environ) = std::fs::read(entry.path().join("environ")) {
            if environ.split(|b| *b == 0).any(|var| var == needle.as_bytes()) && alive(pid) {
                found.push(pid);
            }
        }
    }
    found
}

#[test]
fn server_everything_tools_are_mounted_with_their_schemas_and_called() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("AMPLIFIER_MCP_TEST_MARKER={}-{}", std::process::id(), dir.path().display());
    let (key, value) = marker.split_once('=').unwrap();
    let config = json!({"servers": {"everything": {
        "command": "node",
        "args": [everything_entry(), "stdio"],
        "env": {key: value},
        "timeout": 30,
    }}});
    let script = json!([
        {"tool_calls": [{"name": "mcp_wait", "arguments": {"server": "everything"}}]},
        {"tool_calls": [
            {"name": "everything__echo", "arguments": {"message": "hello over MCP"}},
            {"name": "everything__get-sum", "arguments": {"a": 19, "b": 23}},
            {"name": "everything__get-structured-content", "arguments": {"location": "Chicago"}},
        ]},
        {"tool_calls": [{"name": "everything__get-env"}]},
        {"text": "done"},
    ]);
    let run = run(dir.path(), config, script, &[("AMPLIFIER_MCP_TEST_LEAK", "kept-from-servers")]);

    let waited = &run.results("mcp_wait")[0];
    assert!(waited.0, "mcp_wait: {waited:?}");
    assert_eq!(waited.1["servers"]["everything"]["status"], "ready");
    let tools = waited.1["servers"]["everything"]["tools"].as_array().unwrap();
    assert!(tools.contains(&json!("everything__echo")) && tools.contains(&json!("everything__get-sum")), "{tools:?}");

    assert_eq!(run.results("everything__echo"), [(true, json!("Echo: hello over MCP"), Value::Null)]);
    assert_eq!(run.results("everything__get-sum"), [(true, json!("The sum of 19 and 23 is 42."), Value::Null)]);
    // A tool with an output schema answers its structured content, once (not also as text).
    let weather = json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82});
    assert_eq!(run.results("everything__get-structured-content"), [(true, weather, Value::Null)]);
    // `env` reaches the server; amplifier's own environment does not (beyond PATH, HOME…).
    let env = run.results("everything__get-env")[0].1.as_str().unwrap().to_owned();
    assert!(env.contains(value), "{env}");
    assert!(!env.contains("AMPLIFIER_MCP_TEST_LEAK"), "{env}");

    // The model was offered the server's tools with the server's JSON Schemas.
    let offered = &run.requests[1]["tools"];
    let sum = offered.as_array().unwrap().iter().find(|t| t["name"] == "everything__get-sum").expect("offered");
    assert_eq!(sum["parameters"]["properties"]["a"]["type"], "number", "{sum}");
    assert_eq!(sum["description"], "Returns the sum of two numbers");
    assert_eq!(run.events("mcp:server_ready").len(), 1);

    // No server process outlives the session.
    assert_eq!(processes_with_env(&marker), Vec::<u32>::new(), "server-everything outlived the session");
}

#[test]
fn a_tool_list_change_mounts_and_unmounts_tools() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let config = json!({"servers": {"t": test_server(dir.path(), "serve", &pid_file)}});
    let script = json!([
        {"tool_calls": [{"name": "mcp_wait"}]},
        {"tool_calls": [{"name": "t__add_tool", "arguments": {"name": "extra"}}]},
        {"tool_calls": [{"name": "mcp_wait", "arguments": {"server": "t"}}]},
        {"tool_calls": [{"name": "t__extra"}]},
        {"tool_calls": [{"name": "t__remove_tool", "arguments": {"name": "extra"}}]},
        {"tool_calls": [{"name": "mcp_wait"}]},
        {"tool_calls": [{"name": "t__extra"}]},
        {"text": "done"},
    ]);
    let run = run(dir.path(), config, script, &[]);
    assert_eq!(run.results("t__add_tool"), [(true, json!("added extra"), Value::Null)]);
    let extra = run.results("t__extra");
    assert_eq!(extra[0], (true, json!("dynamic extra"), Value::Null));
    assert_eq!(extra[1].2, "ToolNotFound", "{extra:?}");
    let waits = run.results("mcp_wait");
    assert!(waits[1].1["servers"]["t"]["tools"].as_array().unwrap().contains(&json!("t__extra")), "{waits:?}");
    assert!(!waits[2].1["servers"]["t"]["tools"].as_array().unwrap().contains(&json!("t__extra")), "{waits:?}");
    let changes = run.events("mcp:tools_changed");
    assert!(changes.len() >= 2, "{changes:?}");
    // Offered from the request after the change was handled, until the removal was.
    let offered = run.offered("t__extra");
    assert_eq!((offered[0], offered[1], offered[3], offered[4]), (false, false, true, true), "{offered:?}");
    assert_eq!((offered[6], offered[7]), (false, false), "{offered:?}");
    assert_gone(&pids(&pid_file));
}

#[test]
fn a_server_that_dies_is_restarted_once_then_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let config = json!({"servers": {"t": test_server(dir.path(), "serve", &pid_file)}});
    let script = json!([
        {"tool_calls": [{"name": "mcp_wait"}]},
        {"tool_calls": [{"name": "t__pid"}]},
        {"tool_calls": [{"name": "t__crash"}]},
        {"tool_calls": [{"name": "t__pid"}]},
        {"tool_calls": [{"name": "t__crash"}]},
        {"tool_calls": [{"name": "mcp_wait", "arguments": {"server": "t"}}]},
        {"text": "done"},
    ]);
    let run = run(dir.path(), config, script, &[]);
    let started = pids(&pid_file);
    assert_eq!(started.len(), 2, "started once and restarted once: {started:?}");

    let pid = run.results("t__pid");
    assert_eq!(
        pid,
        [(true, json!(started[0].to_string()), Value::Null), (true, json!(started[1].to_string()), Value::Null)]
    );
    for (success, message, kind) in run.results("t__crash") {
        assert!(!success);
        assert_eq!(kind, "McpServerDied", "{message}");
        assert!(message.as_str().unwrap().contains("MCP server 't'"), "{message}");
    }
    assert_eq!(run.events("mcp:server_restarting").len(), 1);
    let failed = run.events("mcp:server_failed");
    assert_eq!(failed.len(), 1);
    let error = failed[0]["error"].as_str().unwrap();
    assert!(error.contains("after a restart; its stderr ended with:\ntest server"), "{error}");

    let (success, message, kind) = &run.results("mcp_wait")[1];
    assert!(!success);
    assert_eq!(kind, "McpServerUnavailable");
    assert!(message.as_str().unwrap().starts_with("MCP server 't' failed: "), "{message}");
    // Mounted from the first request after the start, kept through the restart,
    // unmounted after the second death (whose handling may beat request 5).
    let offered = run.offered("t__pid");
    assert_eq!((&offered[..5], offered[6]), (&[false, true, true, true, true][..], false), "{offered:?}");
    assert_gone(&started);
}

#[test]
fn servers_that_cannot_start_are_reported_by_name_and_reason_within_their_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let mut hangs = test_server(dir.path(), "hang", &pid_file);
    hangs["timeout"] = json!(2);
    let config = json!({"servers": {
        "missing": {"command": "/nonexistent/amplifier-mcp-server", "timeout": 2},
        "hangs": hangs,
        "exits": test_server(dir.path(), "exit", &pid_file),
        "works": test_server(dir.path(), "serve", &pid_file),
    }});
    let script = json!([{"tool_calls": [{"name": "mcp_wait"}]}, {"text": "done"}]);
    let run = run(dir.path(), config, script, &[]);
    // Servers start at mount; mcp_wait returns once the last one gave up.
    let waited = run.seconds_between("session:start", "tool:post");
    assert!(waited < 10.0, "mcp_wait took {waited}s");

    let (success, message, kind) = &run.results("mcp_wait")[0];
    assert!(!success);
    assert_eq!(kind, "McpServerUnavailable");
    let message = message.as_str().unwrap();
    assert!(
        message.contains("MCP server 'missing' failed: cannot start `/nonexistent/amplifier-mcp-server`: No such file"),
        "{message}"
    );
    assert!(
        message.contains("MCP server 'hangs' failed: it did not complete the MCP handshake within 2s"),
        "{message}"
    );
    assert!(message.contains("MCP server 'exits' failed: the MCP handshake failed"), "{message}");
    assert!(message.contains("fatal: the test server was told to exit"), "{message}");
    assert!(!message.contains("'works'"), "{message}");
    let failed: Vec<&str> = run.events("mcp:server_failed").iter().map(|e| e["server"].as_str().unwrap()).collect();
    assert_eq!(failed.len(), 3, "{failed:?}");
    // The working server's tools were mounted all the same.
    assert!(run.offered("works__pid")[1]);
    assert_gone(&pids(&pid_file));
}

#[test]
fn a_slow_server_does_not_delay_the_session_and_dies_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let marker = format!("AMPLIFIER_MCP_TEST_MARKER={}-{}", std::process::id(), dir.path().display());
    let mut hangs = test_server(dir.path(), "hang", &pid_file);
    hangs["timeout"] = json!(60);
    hangs["env"]["AMPLIFIER_MCP_TEST_MARKER"] = json!(marker.split_once('=').unwrap().1);
    let config = json!({"servers": {"slow": hangs}});
    let run = run(dir.path(), config, json!([{"text": "done"}]), &[]);
    assert_eq!(run.lines.last().unwrap()["data"]["response"], "done", "{}", stdout(&run.output));
    let took = run.seconds_between("session:start", "session:end");
    assert!(took < 5.0, "the session waited for the server: {took}s");
    assert!(run.events("mcp:server_failed").is_empty() && run.events("mcp:server_ready").is_empty());
    // It was started (in the background) and killed at session end.
    assert_gone(&pids(&pid_file));
    // A server still starting when the session ended dies with amplifier
    // (PR_SET_PDEATHSIG): allow the kernel a moment, as assert_gone does.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut left = processes_with_env(&marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = processes_with_env(&marker);
    }
    assert_eq!(left, Vec::<u32>::new(), "the server outlived the session");
}

/// Kills the child process when dropped, so a failing test leaves no server behind.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_streamable_http_server_is_reached_by_url() {
    use std::io::{BufRead, BufReader};
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = std::process::Command::new("node")
        .arg(everything_entry())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start node");
    let server_stderr = child.stderr.take().unwrap();
    let server = KillOnDrop(child);
    let mut lines = BufReader::new(server_stderr).lines();
    let listening = lines.by_ref().take(20).map_while(Result::ok).any(|line| line.contains("listening on port"));
    assert!(listening, "server-everything did not start its HTTP transport");
    std::thread::spawn(move || lines.for_each(drop)); // keep its stderr drained

    let dir = tempfile::tempdir().unwrap();
    let config = json!({"servers": {"web": {
        "url": format!("http://127.0.0.1:{port}/mcp"),
        "headers": {"X-Amplifier-Test": "a value that is never logged"},
        "timeout": 30,
    }}});
    let script = json!([
        {"tool_calls": [{"name": "mcp_wait"}]},
        {"tool_calls": [
            {"name": "web__echo", "arguments": {"message": "over HTTP"}},
            {"name": "web__get-sum", "arguments": {"a": 1.5, "b": 2}},
        ]},
        {"text": "done"},
    ]);
    let run = run(dir.path(), config, script, &[]);
    assert_eq!(run.results("web__echo"), [(true, json!("Echo: over HTTP"), Value::Null)]);
    assert_eq!(run.results("web__get-sum"), [(true, json!("The sum of 1.5 and 2 is 3.5."), Value::Null)]);
    assert!(!stderr(&run.output).contains("never logged"));
    drop(server);
}

/// server-everything over the old HTTP+SSE transport, on a free port; killed on drop.
struct LegacyServer {
    child: std::process::Child,
    port: u16,
}

impl Drop for LegacyServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn legacy_server() -> LegacyServer {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new("node")
        .arg(everything_entry())
        .arg("sse")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "server-everything (sse) did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    LegacyServer { child, port }
}

#[test]
fn an_old_http_sse_endpoint_is_named_as_such_and_http_errors_read_plainly() {
    let server = legacy_server();
    let dir = tempfile::tempdir().unwrap();
    let base = format!("http://127.0.0.1:{}", server.port);
    let config = json!({"servers": {
        "old": {"url": format!("{base}/sse"), "timeout": 10},
        "nowhere": {"url": format!("{base}/nothing"), "timeout": 10},
    }});
    let script = json!([{"tool_calls": [{"name": "mcp_wait"}]}, {"text": "done"}]);
    let run = run(dir.path(), config, script, &[]);
    let (success, message, _) = &run.results("mcp_wait")[0];
    assert!(!success);
    let message = message.as_str().unwrap();
    assert!(
        message.contains(&format!("MCP server 'old' failed: {base}/sse looks like the old HTTP+SSE transport")),
        "{message}"
    );
    assert!(message.contains("point `url` at the server's streamable HTTP endpoint"), "{message}");
    assert!(
        message.contains(
            "MCP server 'nowhere' failed: the MCP handshake failed: unexpected server response: HTTP 404 Not Found (an HTML error page)"
        ),
        "{message}"
    );
    assert!(!message.contains("rmcp::") && !message.contains("<html"), "{message}");
}

/// The tools of `tests/python/mcp_tools_server.py` (the `mcp` Python SDK's
/// MCPServer, which was FastMCP) as server `py` answers them.
fn python_server_results(config: Value) -> Run {
    let script = json!([
        {"tool_calls": [{"name": "mcp_wait"}]},
        {"tool_calls": [
            {"name": "py__add", "arguments": {"a": 2, "b": 3}},
            {"name": "py__forecast", "arguments": {"city": "Oslo"}},
            {"name": "py__greet", "arguments": {"name": "Ada"}},
            {"name": "py__explode", "arguments": {}},
        ]},
        {"text": "done"},
    ]);
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), config, script, &[])
}

fn assert_python_tools(run: &Run) {
    // A typed return: structured content with an output schema, sent once, as the object.
    assert_eq!(run.results("py__add"), [(true, json!({"result": 5}), Value::Null)]);
    // A dict return: no output schema, so the SDK sends it as JSON text only, which passes as it came.
    let forecast = run.results("py__forecast");
    let text: Value = serde_json::from_str(forecast[0].1.as_str().unwrap()).unwrap();
    assert_eq!(text, json!({"city": "Oslo", "celsius": 21, "sky": "clear"}));
    assert_eq!(run.results("py__greet"), [(true, json!("Hello, Ada!"), Value::Null)]);
    let exploded = &run.results("py__explode")[0];
    assert!(!exploded.0 && exploded.1.to_string().contains("the fuse was lit"), "{exploded:?}");
    // What the model read for the add call: the object alone, not the text beside it too.
    let last = run.requests.last().unwrap()["messages"].as_array().unwrap();
    let add = last.iter().find(|m| m["role"] == "tool" && m["tool_call_id"] == run.call_id("py__add")).unwrap();
    assert_eq!(add["content"].as_str().map(str::trim), Some(r#"{"result":5}"#), "{add}");
}

impl Run {
    /// The id of the first call of `tool`.
    fn call_id(&self, tool: &str) -> Value {
        let pre = self.lines.iter().find(|l| l["event"] == "tool:pre" && l["data"]["tool_name"] == tool);
        pre.map(|l| l["data"]["tool_call_id"].clone()).unwrap_or(Value::Null)
    }
}

#[test]
fn a_python_sdk_server_is_reached_over_stdio() {
    let script = workspace().join("tests/python/mcp_tools_server.py");
    let config = json!({"servers": {"py": {"command": python(), "args": [script, "stdio"], "timeout": 60}}});
    assert_python_tools(&python_server_results(config));
}

#[test]
fn a_python_sdk_server_is_reached_over_streamable_http() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new(python())
        .arg(workspace().join("tests/python/mcp_tools_server.py"))
        .args(["streamable-http", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let server = KillOnDrop(child);
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the Python MCP server did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let config = json!({"servers": {"py": {"url": format!("http://127.0.0.1:{port}/mcp"), "timeout": 30}}});
    assert_python_tools(&python_server_results(config));
    drop(server);
}

#[test]
fn a_servers_resources_are_listed_and_read_and_its_prompts_filled_in() {
    let dir = tempfile::tempdir().unwrap();
    let config = json!({"servers": {"everything": {"command": "node", "args": [everything_entry()]}}});
    let uri = "demo://resource/static/document/features.md";
    let script = json!([
        {"tool_calls": [{"name": "mcp_wait"}]},
        {"tool_calls": [
            {"name": "mcp_resources", "arguments": {"server": "everything"}},
            {"name": "mcp_read_resource", "arguments": {"server": "everything", "uri": uri}},
            {"name": "mcp_read_resource", "arguments": {"server": "everything", "uri": "demo://nothing/here"}},
            {"name": "mcp_read_resource", "arguments": {"server": "elsewhere", "uri": uri}},
            {"name": "mcp_prompts", "arguments": {}},
            {"name": "mcp_get_prompt", "arguments": {"server": "everything", "name": "args-prompt", "arguments": {"city": "Oslo"}}},
        ]},
        {"text": "done"},
    ]);
    let run = run(dir.path(), config, script, &[]);
    let (listed, resources, _) = &run.results("mcp_resources")[0];
    assert!(listed, "{resources}");
    let entry = resources["servers"]["everything"].as_array().unwrap().iter().find(|r| r["uri"] == uri);
    let entry = entry.unwrap_or_else(|| panic!("{uri} is listed: {resources}"));
    assert_eq!((entry["name"].as_str(), entry["mimeType"].as_str()), (Some("features.md"), Some("text/markdown")));

    // The calls ran together: find each by what it answered.
    let reads = run.results("mcp_read_resource");
    let said = |needle: &str| reads.iter().find(|(_, out, _)| out.as_str().is_some_and(|t| t.contains(needle)));
    // The file server-everything serves at that URI, whole.
    let file = everything_entry().parent().unwrap().join("docs/features.md");
    let whole = std::fs::read_to_string(file).unwrap();
    assert!(reads.iter().any(|read| *read == (true, json!(whole), Value::Null)), "{reads:?}");
    let missing = said("MCP server 'everything' refused `demo://nothing/here`").expect("an unknown URI is refused");
    assert!(!missing.0);
    let elsewhere = said(r#"/server: "elsewhere" is not one of "everything""#).expect("an unknown server is refused");
    assert!(!elsewhere.0);

    let (listed, prompts, _) = &run.results("mcp_prompts")[0];
    let args_prompt = prompts["servers"]["everything"].as_array().unwrap().iter().find(|p| p["name"] == "args-prompt");
    let args_prompt = args_prompt.unwrap_or_else(|| panic!("args-prompt is listed: {prompts}"));
    assert!(*listed && args_prompt["arguments"][0]["name"] == "city", "{args_prompt}");
    let filled = &run.results("mcp_get_prompt")[0];
    assert_eq!(
        filled,
        &(true, json!({"messages": [{"role": "user", "text": "What's weather in Oslo?"}]}), Value::Null)
    );
}

/// An image an MCP tool returns (the Python server's `pixel`) reaches the
/// model: inside the tool result for Anthropic's API, in a user message
/// after the turn's results for Chat Completions. Both providers run against
/// a scripted local HTTP server, and every request they sent fits the
/// official Python SDK's request types.
#[test]
fn an_mcp_image_reaches_the_model_with_the_tool_result() {
    const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
    let script = workspace().join("tests/python/mcp_tools_server.py");
    let tool = format!(
        "  - {{module: tool-mcp, source: \"{}\", config: {}}}",
        plugin("tool-mcp"),
        json!({"servers": {"py": {"command": python(), "args": [script, "stdio"], "timeout": 60}}})
    );
    let run = |provider: &str, replies: Vec<Reply>| -> Vec<Received> {
        let server = FakeServer::start(replies);
        let dir = tempfile::tempdir().unwrap();
        let provider = provider.replace("URL", &server.url);
        std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, &tool, "  []")).unwrap();
        let output = amplifier(dir.path())
            .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "What does pixel show?"])
            .output()
            .unwrap();
        assert!(output.status.success(), "stderr:\n{}\nstdout:\n{}", stderr(&output), stdout(&output));
        assert!(stdout(&output).contains("A red pixel."), "{}", stdout(&output));
        server.received()
    };

    let message = |id: &str, content: Value, stop: &str| {
        let body = json!({"id": id, "type": "message", "role": "assistant", "model": "m", "content": content,
            "stop_reason": stop, "usage": {"input_tokens": 10, "output_tokens": 2}});
        Reply::json(200, body)
    };
    let tool_use = |id: &str, name: &str| json!([{"type": "tool_use", "id": id, "name": name, "input": {}}]);
    let anthropic = format!(
        "  - {{module: provider-anthropic, source: \"{}\", config: {{base_url: \"URL\", api_key: k, default_model: m, use_streaming: false, max_retries: 0}}}}\n",
        plugin("provider-anthropic")
    );
    let received = run(
        &anthropic,
        vec![
            message("msg_1", tool_use("toolu_1", "mcp_wait"), "tool_use"),
            message("msg_2", tool_use("toolu_2", "py__pixel"), "tool_use"),
            message("msg_3", json!([{"type": "text", "text": "A red pixel."}]), "end_turn"),
        ],
    );
    let last = received[2].json();
    let result = last["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .find(|block| block["type"] == "tool_result" && block["tool_use_id"] == "toolu_2")
        .unwrap_or_else(|| panic!("{last}"))
        .clone();
    assert_eq!(result["content"][0], json!({"type": "text", "text": "[image: image/png, 69 bytes]"}));
    assert_eq!(
        result["content"][1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PIXEL}})
    );
    assert_fits_sdk("anthropic", &received);

    let completion = |calls: Value, text: Value| {
        let finish = if calls.is_null() { "stop" } else { "tool_calls" };
        let message = json!({"role": "assistant", "content": text, "tool_calls": calls});
        Reply::json(
            200,
            json!({"id": "c", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "finish_reason": finish, "message": message}]}),
        )
    };
    let call =
        |id: &str, name: &str| json!([{"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}}]);
    let openai = format!(
        "  - {{module: provider-openai, source: \"{}\", config: {{base_url: \"URL/v1\", default_model: m, use_streaming: false, max_retries: 0}}}}\n",
        plugin("provider-openai")
    );
    let received = run(
        &openai,
        vec![
            completion(call("call_1", "mcp_wait"), Value::Null),
            completion(call("call_2", "py__pixel"), Value::Null),
            completion(Value::Null, json!("A red pixel.")),
        ],
    );
    let messages = received[2].json()["messages"].as_array().unwrap().clone();
    let result = messages.iter().position(|m| m["tool_call_id"] == "call_2").unwrap();
    assert_eq!(messages[result]["content"], "[image: image/png, 69 bytes]");
    assert_eq!(
        messages[result + 1],
        json!({"role": "user", "content": [
            {"type": "text", "text": "The images tool call call_2 returned:"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PIXEL}")}}
        ]})
    );
    assert_fits_sdk("openai", &received);
}
