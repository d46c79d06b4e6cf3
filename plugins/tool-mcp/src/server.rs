//! The MCP servers of one mounted `tool-mcp`: configuration, connection,
//! supervision (start in the background, restart once, fail) and calls.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::process::Stdio;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use amplifier_sdk::prelude::*;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, GetPromptRequestParams, Implementation,
    ProtocolVersion, ReadResourceRequestParams,
};
use rmcp::service::{NotificationContext, QuitReason, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError, ServiceExt};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Seconds allowed for a server to start and for each call, unless configured.
pub const DEFAULT_TIMEOUT_SECS: f64 = 30.0;
/// Lines of a server's stderr kept for error messages.
const STDERR_LINES: usize = 20;
/// How often waiters look again at what a watch does not announce (a closed connection).
const POLL: Duration = Duration::from_millis(20);
/// Variables a stdio server inherits from amplifier's environment besides its
/// `env` (the official SDKs' list): API keys in amplifier's environment never
/// reach a server unless the plan passes them.
const INHERITED_ENV: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/// One entry of `servers`, in the shape Claude Desktop, Claude Code, Cursor
/// and VS Code use. No `Debug`: `env` and `headers` hold secrets.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<String>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    timeout: Option<f64>,
    /// `stdio`, `http` or `streamable-http`; optional, checked against `command`/`url`.
    #[serde(rename = "type")]
    transport: Option<String>,
}

enum Transport {
    Stdio { command: String, args: Vec<String>, env: BTreeMap<String, String>, cwd: Option<String> },
    Http { url: String, headers: HashMap<http::HeaderName, http::HeaderValue> },
}

/// Where a server is in its life. `Starting` and `Restarting` are the only
/// states that change by themselves.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Starting,
    Ready,
    Restarting,
    Failed(String),
}

impl Status {
    fn settled(&self) -> bool {
        matches!(self, Status::Ready | Status::Failed(_))
    }
}

pub struct Server {
    pub name: String,
    pub timeout: Duration,
    transport: Transport,
    status: watch::Sender<Status>,
    /// Tool list changes: (announced by the server, handled). `mcp_wait`
    /// waits until every announced change has been handled.
    changes: Arc<watch::Sender<(u64, u64)>>,
    peer: RwLock<Option<Peer<RoleClient>>>,
    /// Process group of the running stdio server (its pid: it leads its group).
    pgid: Mutex<Option<i32>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: Mutex<Option<JoinHandle<()>>>,
}

impl Server {
    pub fn new(name: String, config: ServerConfig) -> Result<Server, String> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err("a server name may use only letters, digits, `_` and `-`".into());
        }
        let timeout = config.timeout.unwrap_or(DEFAULT_TIMEOUT_SECS);
        if !(timeout > 0.0 && timeout.is_finite()) {
            return Err(format!("timeout must be a positive number of seconds, not {timeout}"));
        }
        let transport = match (config.command, config.url) {
            (Some(_), Some(_)) => {
                return Err("give either `command` (stdio) or `url` (streamable HTTP), not both".into())
            }
            (None, None) => return Err("give `command` (a stdio server) or `url` (a streamable HTTP server)".into()),
            (Some(command), None) => {
                if !matches!(config.transport.as_deref(), None | Some("stdio")) {
                    return Err("`command` starts a stdio server; `type` must be `stdio` or left out".into());
                }
                if !config.headers.is_empty() {
                    return Err("`headers` is for `url` servers".into());
                }
                Transport::Stdio { command, args: config.args, env: config.env, cwd: config.cwd }
            }
            (None, Some(url)) => {
                if !matches!(config.transport.as_deref(), None | Some("http" | "streamable-http" | "streamableHttp")) {
                    return Err("`url` servers speak streamable HTTP: `type` must be `http` or left out \
                                (the older SSE transport is not supported)"
                        .into());
                }
                if !config.args.is_empty() || !config.env.is_empty() || config.cwd.is_some() {
                    return Err("`args`, `env` and `cwd` are for `command` servers".into());
                }
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err("`url` must start with http:// or https://".into());
                }
                let mut headers = HashMap::new();
                for (key, value) in config.headers {
                    let name = http::HeaderName::try_from(key.as_str())
                        .map_err(|_| format!("headers: `{key}` is not a valid header name"))?;
                    // The value is never shown: it is usually a token.
                    let mut value = http::HeaderValue::try_from(value)
                        .map_err(|_| format!("headers: the value of `{key}` is not a valid header value"))?;
                    value.set_sensitive(true);
                    headers.insert(name, value);
                }
                Transport::Http { url, headers }
            }
        };
        Ok(Server {
            name,
            timeout: Duration::from_secs_f64(timeout),
            transport,
            status: watch::Sender::new(Status::Starting),
            changes: Arc::new(watch::Sender::new((0, 0))),
            peer: RwLock::new(None),
            pgid: Mutex::new(None),
            stderr: Arc::default(),
            stderr_reader: Mutex::new(None),
        })
    }

    pub fn is_http(&self) -> bool {
        matches!(self.transport, Transport::Http { .. })
    }

    pub fn status(&self) -> Status {
        self.status.borrow().clone()
    }

    /// Waits up to `timeout` for the server to be ready (connected, with
    /// every announced tool list change handled) or failed.
    pub async fn settled(&self, timeout: Duration) -> Status {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let status = self.status();
            let done = match &status {
                Status::Ready => {
                    let (announced, handled) = *self.changes.borrow();
                    handled >= announced && self.live_peer().is_some()
                }
                other => other.settled(),
            };
            if done || tokio::time::Instant::now() >= deadline {
                return status;
            }
            let mut changed = self.status.subscribe();
            let _ = tokio::time::timeout_at(deadline.min(tokio::time::Instant::now() + POLL), changed.changed()).await;
        }
    }

    /// The connection, unless it has closed (the server just died and the
    /// supervisor is about to restart it).
    fn live_peer(&self) -> Option<Peer<RoleClient>> {
        self.peer.read().expect("peer lock").clone().filter(|p| !p.is_transport_closed())
    }

    /// Kills the server's process group, if it has one running.
    pub fn kill_group(&self) {
        if let Some(pgid) = self.pgid.lock().expect("pgid lock").take() {
            // Never 0 or 1: killpg(0) would be our own group.
            if pgid > 1 {
                // SAFETY: killpg has no memory effects; the group is the server's own.
                unsafe { libc::killpg(pgid, libc::SIGKILL) };
            }
        }
    }

    /// Starts the server and completes the MCP handshake within the timeout.
    async fn connect(&self) -> Result<RunningService<RoleClient, Handler>, String> {
        let handler = Handler { changes: self.changes.clone() };
        let started = match &self.transport {
            Transport::Stdio { command, args, env, cwd } => {
                let process = self.spawn(command, args, env, cwd.as_deref())?;
                tokio::time::timeout(self.timeout, handler.serve(process)).await
            }
            Transport::Http { url, headers } => {
                let config =
                    StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(headers.clone());
                let transport = StreamableHttpClientTransport::from_config(config);
                tokio::time::timeout(self.timeout, handler.serve(transport)).await
            }
        };
        match started {
            Ok(Ok(service)) => Ok(service),
            Ok(Err(err)) => {
                if let Transport::Http { url, headers } = &self.transport {
                    if speaks_legacy_sse(url, headers).await {
                        let message = format!(
                            "{url} looks like the old HTTP+SSE transport (a GET answers with an `endpoint` event), \
                             and tool-mcp speaks only streamable HTTP: point `url` at the server's streamable HTTP \
                             endpoint (often `/mcp`), or run the server over stdio (`command`)"
                        );
                        return Err(self.failure(message).await);
                    }
                }
                Err(self
                    .failure(format!("the MCP handshake failed: {}", plain_handshake_error(&err.to_string())))
                    .await)
            }
            Err(_) => {
                let secs = self.timeout.as_secs_f64();
                Err(self.failure(format!("it did not complete the MCP handshake within {secs}s")).await)
            }
        }
    }

    fn spawn(
        &self,
        command: &str,
        args: &[String],
        env: &BTreeMap<String, String>,
        cwd: Option<&str>,
    ) -> Result<TokioChildProcess, String> {
        let mut cmd = tokio::process::Command::new(command);
        cmd.args(args);
        amplifier_sandbox::env::apply(cmd.as_std_mut(), INHERITED_ENV.iter().copied(), env);
        if let Some(cwd) = cwd {
            cmd.current_dir(cwd);
        }
        // Its own process group, so the whole tree (npx → node …) is killed at
        // once; killed when dropped, as a second line behind `kill_group`.
        cmd.process_group(0).kill_on_drop(true);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe. Children are spawned from the plugin
        // runtime's worker threads, which live as long as the process, so the
        // signal comes only when amplifier itself dies without cleaning up.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let (process, stderr) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot start `{command}`: {err}"))?;
        if let Some(pid) = process.id() {
            *self.pgid.lock().expect("pgid lock") = i32::try_from(pid).ok();
        }
        self.stderr.lock().expect("stderr lock").clear();
        if let Some(stderr) = stderr {
            let (tail, server) = (self.stderr.clone(), self.name.clone());
            let reader = tokio::spawn(async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    tracing::debug!(server = %server, "stderr: {line}");
                    let mut tail = tail.lock().expect("stderr lock");
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            });
            *self.stderr_reader.lock().expect("stderr lock") = Some(reader);
        }
        Ok(process)
    }

    /// `what` with the end of the server's stderr; kills what is left of it.
    async fn failure(&self, what: String) -> String {
        self.kill_group();
        let reader = self.stderr_reader.lock().expect("stderr lock").take();
        if let Some(reader) = reader {
            // The group is dead, so stderr ends; wait briefly for its last lines.
            let _ = tokio::time::timeout(Duration::from_millis(500), reader).await;
        }
        let tail = self.stderr.lock().expect("stderr lock");
        let lines: Vec<&str> = tail.iter().map(String::as_str).filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            what
        } else {
            format!("{what}; its stderr ended with:\n{}", lines[lines.len().saturating_sub(5)..].join("\n"))
        }
    }

    /// The connection to call, once the server is ready (waiting for a start
    /// or restart in progress, within the timeout).
    async fn ready_peer(&self) -> Result<Peer<RoleClient>, String> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        loop {
            if let Status::Failed(reason) = self.status() {
                return Err(format!("MCP server '{}' is unavailable: {reason}", self.name));
            }
            if let (Status::Ready, Some(peer)) = (self.status(), self.live_peer()) {
                return Ok(peer);
            }
            if tokio::time::Instant::now() >= deadline {
                let secs = self.timeout.as_secs_f64();
                return Err(format!("MCP server '{}' was not ready within {secs}s", self.name));
            }
            let mut changed = self.status.subscribe();
            let _ = tokio::time::timeout_at(deadline.min(tokio::time::Instant::now() + POLL), changed.changed()).await;
        }
    }

    /// `request` on the ready server within its timeout; an error is a
    /// sentence naming the server and `what` was asked.
    async fn ask<T, F>(&self, what: &str, request: impl FnOnce(Peer<RoleClient>) -> F) -> Result<T, String>
    where
        F: std::future::Future<Output = Result<T, ServiceError>>,
    {
        let peer = self.ready_peer().await?;
        let name = &self.name;
        match tokio::time::timeout(self.timeout, request(peer)).await {
            Err(_) => Err(format!("MCP server '{name}' did not answer {what} within {}s", self.timeout.as_secs_f64())),
            Ok(Err(ServiceError::McpError(err))) => Err(format!("MCP server '{name}' refused {what}: {}", err.message)),
            Ok(Err(err)) => Err(format!("MCP server '{name}' failed {what}: {err}")),
            Ok(Ok(answer)) => Ok(answer),
        }
    }

    /// The server's resources, as MCP describes them (`uri`, `name`, …).
    pub async fn resources(&self) -> Result<Vec<Value>, String> {
        let listed = self.ask("the resource list", |peer| async move { peer.list_all_resources().await }).await?;
        Ok(listed.iter().filter_map(|resource| serde_json::to_value(resource).ok()).collect())
    }

    /// The contents of resource `uri`, as text.
    pub async fn read(&self, uri: &str) -> Result<String, String> {
        let params = ReadResourceRequestParams::new(uri);
        let read = self.ask(&format!("`{uri}`"), |peer| async move { peer.read_resource(params).await }).await?;
        let contents: Vec<Value> = read.contents.iter().filter_map(|c| serde_json::to_value(c).ok()).collect();
        Ok(crate::convert::resource_text(&contents))
    }

    /// The server's prompts, as MCP describes them (`name`, `description`, `arguments`).
    pub async fn prompts(&self) -> Result<Vec<Value>, String> {
        let listed = self.ask("the prompt list", |peer| async move { peer.list_all_prompts().await }).await?;
        Ok(listed.iter().filter_map(|prompt| serde_json::to_value(prompt).ok()).collect())
    }

    /// Prompt `name` filled in with `arguments`: its messages as `{role, text}`.
    pub async fn prompt(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) -> Result<Vec<Value>, String> {
        let mut params = GetPromptRequestParams::new(name);
        params.arguments = arguments;
        let got = self.ask(&format!("prompt `{name}`"), |peer| async move { peer.get_prompt(params).await }).await?;
        Ok(got
            .messages
            .iter()
            .filter_map(|message| serde_json::to_value(message).ok())
            .map(|message| json!({"role": message["role"], "text": crate::convert::block_text(&message["content"])}))
            .collect())
    }

    /// Calls MCP tool `tool` with `input` (`structured`: it declared an output schema).
    pub async fn call(&self, tool: &str, input: Value, structured: bool) -> ToolResult {
        let peer = match self.ready_peer().await {
            Ok(peer) => peer,
            Err(message) => return ToolResult::failed_call("McpServerUnavailable", message),
        };
        let arguments = match input {
            Value::Object(map) => map,
            Value::Null => Default::default(),
            other => return ToolResult::error("InvalidInput", format!("arguments must be an object, not {other}")),
        };
        let name = &self.name;
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        // Dropping the call (timeout, cancellation) sends notifications/cancelled.
        match tokio::time::timeout(self.timeout, peer.call_tool_once(params)).await {
            Err(_) => ToolResult::failed_call(
                "McpTimeout",
                format!("MCP server '{name}' did not answer `{tool}` within {}s", self.timeout.as_secs_f64()),
            ),
            Ok(Ok(CallToolResponse::Complete(result))) => match serde_json::to_value(&result) {
                Ok(result) => crate::convert::tool_result(name, tool, &result, structured),
                Err(err) => ToolResult::failed_call("McpError", format!("unreadable result from '{name}': {err}")),
            },
            Ok(Ok(CallToolResponse::InputRequired(_))) => ToolResult::failed_call(
                "McpUnsupported",
                format!("MCP server '{name}' asked for user input during `{tool}`, which tool-mcp does not support"),
            ),
            Ok(Ok(_)) => ToolResult::failed_call(
                "McpUnsupported",
                format!("MCP server '{name}' answered `{tool}` with a task, which tool-mcp does not support"),
            ),
            Ok(Err(ServiceError::McpError(err))) => {
                ToolResult::failed_call("McpError", format!("MCP server '{name}' refused `{tool}`: {}", err.message))
            }
            Ok(Err(ServiceError::TransportClosed | ServiceError::TransportSend(_))) => ToolResult::failed_call(
                "McpServerDied",
                format!(
                    "MCP server '{name}' closed the connection during `{tool}` (it exited?); a server is restarted \
                     once per session: `mcp_wait` tells whether it is back"
                ),
            ),
            Ok(Err(err)) => ToolResult::failed_call("McpError", format!("MCP server '{name}', `{tool}`: {err}")),
        }
    }
}

/// The client side of one connection: it only listens for tool list changes
/// (no sampling, roots or elicitation are offered to servers).
struct Handler {
    changes: Arc<watch::Sender<(u64, u64)>>,
}

impl ClientHandler for Handler {
    fn on_tool_list_changed(
        &self,
        _context: NotificationContext<RoleClient>,
    ) -> impl std::future::Future<Output = ()> + Send + '_ {
        self.changes.send_modify(|(announced, _)| *announced += 1);
        std::future::ready(())
    }

    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("amplifier-tool-mcp", env!("CARGO_PKG_VERSION")),
        );
        // The `initialize` handshake, which every server deployed today speaks.
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info
    }
}

/// Which server a mounted tool belongs to, and its MCP name.
#[derive(Clone)]
struct Route {
    server: usize,
    tool: String,
    /// The tool declared an output schema: its structured content is its answer.
    structured: bool,
}

/// Whether `url` speaks MCP's old HTTP+SSE transport, which answers a GET
/// for an event stream with an `endpoint` event first.
async fn speaks_legacy_sse(url: &str, headers: &HashMap<http::HeaderName, http::HeaderValue>) -> bool {
    let Ok(client) = reqwest::Client::builder().timeout(Duration::from_secs(5)).build() else { return false };
    let mut request = client.get(url).header(http::header::ACCEPT, "text/event-stream");
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let Ok(mut response) = request.send().await else { return false };
    let event_stream = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"));
    if !response.status().is_success() || !event_stream {
        return false;
    }
    // The first event, at most 4 KiB of it.
    let mut seen = String::new();
    while !seen.contains("\n\n") && seen.len() < 4096 {
        match response.chunk().await {
            Ok(Some(chunk)) => seen.push_str(&String::from_utf8_lossy(&chunk)),
            _ => break,
        }
    }
    seen.lines().any(|line| line.trim_end() == "event: endpoint")
}

/// A handshake error as a person needs it: rmcp's transport type names and
/// an HTML error page say nothing the status line does not.
fn plain_handshake_error(error: &str) -> String {
    let text = error.find("unexpected server response: ").map_or(error, |at| &error[at..]);
    match text.find("<!DOCTYPE").or_else(|| text.find("<html")) {
        Some(at) => format!("{} (an HTML error page)", text[..at].trim_end_matches([' ', ':', '\n'])),
        None => text.to_owned(),
    }
}

/// All servers of one mounted `tool-mcp`, and the tools they mounted.
pub struct Mcp {
    host: Host,
    pub servers: Vec<Arc<Server>>,
    routes: Mutex<BTreeMap<String, Route>>,
    cancel: CancellationToken,
}

impl Mcp {
    pub fn new(host: Host, servers: Vec<Arc<Server>>) -> Mcp {
        Mcp { host, servers, routes: Mutex::default(), cancel: CancellationToken::new() }
    }

    /// Starts every server's supervisor on the plugin's runtime.
    pub fn start(self: &Arc<Self>) {
        for index in 0..self.servers.len() {
            let mcp = self.clone();
            amplifier_sdk::runtime().spawn(async move {
                let cancel = mcp.cancel.clone();
                tokio::select! {
                    _ = cancel.cancelled() => {}
                    _ = mcp.supervise(index) => {}
                }
            });
        }
    }

    /// Session end: kills every server's process group now, then stops the
    /// supervisors (which drop the connections on the plugin's runtime).
    pub fn shutdown(&self) {
        tracing::debug!(servers = self.servers.len(), "stopping the MCP servers");
        for server in &self.servers {
            server.kill_group();
        }
        self.cancel.cancel();
    }

    /// Routes a call of mounted tool `name` to its server.
    pub async fn call(&self, name: &str, input: Value) -> ToolResult {
        let route = self.routes.lock().expect("routes lock").get(name).cloned();
        match route {
            Some(route) => self.servers[route.server].call(&route.tool, input, route.structured).await,
            None => ToolResult::failed_call("ToolNotFound", format!("no MCP tool '{name}' is mounted")),
        }
    }

    /// The mounted tool names of server `index`.
    pub fn tools_of(&self, index: usize) -> Vec<String> {
        let routes = self.routes.lock().expect("routes lock");
        routes.iter().filter(|(_, r)| r.server == index).map(|(n, _)| n.clone()).collect()
    }

    /// Start, serve, restart once after a death, and give up after the second
    /// (or when a start fails).
    async fn supervise(&self, index: usize) {
        let server = &self.servers[index];
        let mut restarted = false;
        loop {
            let mut was_ready = false;
            let reason = match server.connect().await {
                Err(reason) => reason,
                Ok(service) => {
                    *server.peer.write().expect("peer lock") = Some(service.peer().clone());
                    // The listing below covers every change announced so far.
                    let announced = server.changes.borrow().0;
                    match self.sync_tools(index, service.peer()).await {
                        Err(reason) => server.failure(reason).await,
                        Ok(tools) => {
                            was_ready = true;
                            server.changes.send_modify(|(_, handled)| *handled = announced.max(*handled));
                            server.status.send_replace(Status::Ready);
                            tracing::info!(server = %server.name, tools = tools.len(), restarted, "MCP server ready");
                            let data = json!({"server": server.name, "tools": tools, "restarted": restarted});
                            self.emit("mcp:server_ready", data).await;
                            let mut closed = self.serve(index, service).await;
                            if restarted {
                                closed.push_str(", after a restart");
                            }
                            // Calls and `mcp_wait` wait from now on, not after the cleanup.
                            *server.peer.write().expect("peer lock") = None;
                            server.status.send_replace(Status::Restarting);
                            server.failure(closed).await
                        }
                    }
                }
            };
            *server.peer.write().expect("peer lock") = None;
            if !was_ready || restarted {
                let reason =
                    if restarted && !was_ready { format!("it died, and its restart failed: {reason}") } else { reason };
                return self.fail(index, reason).await;
            }
            restarted = true;
            tracing::warn!(server = %server.name, %reason, "MCP server died; restarting it once");
            server.status.send_replace(Status::Restarting);
            self.emit("mcp:server_restarting", json!({"server": server.name, "reason": reason})).await;
        }
    }

    /// Serves one connection until it closes, re-listing tools when the
    /// server says they changed; returns why it closed.
    async fn serve(&self, index: usize, service: RunningService<RoleClient, Handler>) -> String {
        let server = &self.servers[index];
        let peer = service.peer().clone();
        let mut changes = server.changes.subscribe();
        let closed = service.waiting();
        tokio::pin!(closed);
        loop {
            let (announced, handled) = *changes.borrow_and_update();
            if announced > handled {
                // One listing covers every change announced before it starts.
                match self.sync_tools(index, &peer).await {
                    Ok(tools) => self.emit("mcp:tools_changed", json!({"server": server.name, "tools": tools})).await,
                    Err(reason) => {
                        tracing::warn!(server = %server.name, %reason, "cannot re-list the tools of an MCP server")
                    }
                }
                server.changes.send_modify(|(_, handled)| *handled = announced.max(*handled));
                continue;
            }
            tokio::select! {
                quit = &mut closed => return match quit {
                    Ok(QuitReason::JoinError(err)) | Err(err) => format!("its connection failed: {err}"),
                    Ok(_) => "it closed the connection (the server exited?)".to_owned(),
                },
                _ = changes.changed() => {}
            }
        }
    }

    /// Lists the server's tools and makes the mounted set match: new ones
    /// mounted, changed ones replaced, gone ones unmounted.
    async fn sync_tools(&self, index: usize, peer: &Peer<RoleClient>) -> Result<Vec<String>, String> {
        let server = &self.servers[index];
        let listed = match tokio::time::timeout(server.timeout, peer.list_all_tools()).await {
            Ok(Ok(listed)) => listed,
            Ok(Err(err)) => return Err(format!("tools/list failed: {err}")),
            Err(_) => return Err(format!("tools/list got no answer within {}s", server.timeout.as_secs_f64())),
        };
        let (specs, stale) = {
            let mut routes = self.routes.lock().expect("routes lock");
            let mut specs = Vec::new();
            let mut names = BTreeSet::new();
            for tool in listed {
                let name = crate::convert::tool_name(&server.name, &tool.name);
                let taken = routes.get(&name).is_some_and(|r| r.server != index) || names.contains(&name);
                if taken {
                    tracing::warn!(server = %server.name, tool = %tool.name, %name, "tool name already taken; not mounted");
                    continue;
                }
                let structured = tool.output_schema.is_some();
                routes.insert(name.clone(), Route { server: index, tool: tool.name.to_string(), structured });
                specs.push(ToolSpec {
                    extensions: Default::default(),
                    name: name.clone(),
                    parameters: Value::Object((*tool.input_schema).clone()),
                    description: tool.description.map(|d| d.into_owned()).or(tool.title),
                });
                names.insert(name);
            }
            let stale: Vec<String> = routes
                .iter()
                .filter(|(n, r)| r.server == index && !names.contains(*n))
                .map(|(n, _)| n.clone())
                .collect();
            for name in &stale {
                routes.remove(name);
            }
            (specs, stale)
        };
        let names = specs.iter().map(|s| s.name.clone()).collect();
        if !stale.is_empty() {
            if let Err(err) = self.host.unmount_tools(stale).await {
                tracing::warn!(server = %server.name, error = %err.message, "cannot unmount MCP tools");
            }
        }
        self.mount(specs).await.map_err(|err| format!("cannot mount its tools: {}", err.message))?;
        Ok(names)
    }

    /// `Host::mount_tools`, retried for a few seconds: a server may be up
    /// before the host has registered this module (mounting fails until then).
    async fn mount(&self, specs: Vec<ToolSpec>) -> ModuleResult<()> {
        let mut attempts = 0;
        loop {
            match self.host.mount_tools(specs.clone()).await {
                Err(err) if err.kind == ErrorKind::Unsupported && attempts < 250 => {
                    attempts += 1;
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                done => return done,
            }
        }
    }

    /// Gives up on a server: its tools are unmounted and calls and
    /// `mcp_wait` report `reason`.
    async fn fail(&self, index: usize, reason: String) {
        let server = &self.servers[index];
        tracing::warn!(server = %server.name, %reason, "MCP server failed");
        let tools = {
            let mut routes = self.routes.lock().expect("routes lock");
            let tools: Vec<String> = routes.iter().filter(|(_, r)| r.server == index).map(|(n, _)| n.clone()).collect();
            for name in &tools {
                routes.remove(name);
            }
            tools
        };
        if !tools.is_empty() {
            if let Err(err) = self.host.unmount_tools(tools).await {
                tracing::warn!(server = %server.name, error = %err.message, "cannot unmount MCP tools");
            }
        }
        server.status.send_replace(Status::Failed(reason.clone()));
        self.emit("mcp:server_failed", json!({"server": server.name, "error": reason})).await;
    }

    async fn emit(&self, event: &str, data: Value) {
        let Value::Object(data) = data else { return };
        if let Err(err) = self.host.emit(event, data).await {
            tracing::debug!(event, error = %err.message, "cannot emit");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(name: &str, config: Value) -> Result<Server, String> {
        Server::new(name.to_owned(), serde_json::from_value(config).map_err(|e| e.to_string())?)
    }

    #[test]
    fn a_server_is_stdio_or_http_and_says_what_is_wrong() {
        assert!(!server("a", json!({"command": "node", "args": ["x"], "env": {"K": "v"}})).unwrap().is_http());
        let http = server("b", json!({"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer t"}}));
        assert!(http.unwrap().is_http());
        let error = |name, config| server(name, config).err().unwrap();
        assert!(error("a", json!({"command": "x", "url": "http://x"})).contains("not both"));
        assert!(error("a", json!({})).contains("give `command`"));
        assert!(error("a b", json!({"command": "x"})).contains("server name"));
        assert!(error("a", json!({"url": "http://x", "type": "sse"})).contains("SSE"));
        assert!(error("a", json!({"url": "ftp://x"})).contains("http://"));
        assert!(error("a", json!({"url": "http://x", "env": {"K": "v"}})).contains("`command` servers"));
        assert!(error("a", json!({"command": "x", "timeout": 0})).contains("timeout"));
        assert!(error("a", json!({"command": "x", "commnd": "y"})).contains("unknown field"));
        // A bad header value is named by its header, never shown.
        let bad = error("a", json!({"url": "http://x", "headers": {"Authorization": "secret\nvalue"}}));
        assert!(bad.contains("`Authorization`") && !bad.contains("secret"), "{bad}");
    }
}
