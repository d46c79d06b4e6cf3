//! `tool-mcp`: the tools of Model Context Protocol servers, through the
//! official Rust SDK (`rmcp`), stdio and streamable HTTP.
//!
//! ```yaml
//! tools:
//!   - module: tool-mcp
//!     source: ../plugins/tool-mcp
//!     config:
//!       servers:                      # `mcpServers` is accepted too, so a Claude Desktop block pastes as is
//!         everything: {command: npx, args: ["-y", "@modelcontextprotocol/server-everything"]}
//!         github:
//!           url: https://api.githubcopilot.com/mcp/
//!           headers: {Authorization: "Bearer ${GITHUB_TOKEN}"}
//!           timeout: 60               # seconds to start, and for each call (default 30)
//! ```
//!
//! Each server tool is mounted as `<server>__<tool>` (characters outside
//! `[A-Za-z0-9_-]` become `_`, cut to 64) with the server's JSON Schema, so
//! the host validates input before the call reaches the server.
//!
//! **Start.** Servers start in the background when the module is mounted,
//! each within its `timeout`, so a slow or broken server never delays the
//! session; a server's tools are mounted (`Host::mount_tools`) as soon as it
//! has answered `tools/list`, and the loop offers them from its next request
//! on. Starting on first use instead would hide the tools from the model,
//! which can only call what it was offered. The static tool `mcp_wait
//! {server?, timeout?}` waits until the servers are ready or failed and
//! reports each one's status, tools and error: for agents and tests that need
//! the tools now. Mounting fails until the host has registered this module,
//! which happens just after `mount` returns, so a server that is up before
//! that retries for a few seconds. The handshake is MCP's `initialize`
//! (protocol 2025-11-25 and earlier, what servers speak today).
//!
//! **Restart.** When a server's connection closes (its process died), it is
//! started again once: its tools stay mounted meanwhile and calls wait for
//! it. A call in flight when it died fails (it is not retried: it may have
//! had effects). A second death, or a failed start, unmounts the server's
//! tools, and `mcp_wait` and calls report the reason, with the end of the
//! server's stderr.
//!
//! **Stop.** A stdio server runs in its own process group (with
//! `kill_on_drop`). When the session ends, the host drops this module, and
//! the drop kills every server's group with SIGKILL at once (so `npx`
//! wrappers and their children go too), then stops the connections. On Linux
//! each server also gets `PR_SET_PDEATHSIG`, so it dies if amplifier is killed
//! before it could clean up.
//!
//! **Changes.** `notifications/tools/list_changed` re-lists the server's tools
//! and mounts, replaces and unmounts to match.
//!
//! **Resources and prompts.** `mcp_resources {server?}` lists the servers'
//! resources (`resources/list`, every page), and `mcp_read_resource
//! {server, uri}` reads one (`resources/read`) as text, a binary one as a
//! placeholder; `mcp_prompts {server?}` lists their prompts and
//! `mcp_get_prompt {server, name, arguments?}` fills one in (`prompts/get`)
//! as `{messages: [{role, text}]}`. The REPL's `/prompts` and `/prompt`
//! reach the prompts through them.
//!
//! **Results.** Sent once: the text of the `content` blocks, joined (images,
//! audio and binary resources as a one-line placeholder), or the
//! `structuredContent` object when the tool declared an output schema or the
//! text is that object serialized (see `convert::tool_result`); `isError`
//! makes a failed result.
//!
//! **Secrets.** A stdio server gets only `HOME`, `LOGNAME`, `PATH`, `SHELL`,
//! `TERM` and `USER` from amplifier's environment (as the official SDKs do)
//! plus its `env`: pass a key explicitly (`env: {KEY: "${KEY}"}`). Values of
//! `env` and `headers`, and `args`, are never logged or put in messages.
//!
//! Events: `mcp:server_ready {server, tools, restarted}`,
//! `mcp:server_restarting {server, reason}`, `mcp:server_failed {server,
//! error}`, `mcp:tools_changed {server, tools}`. They may come before
//! `session:start`.

mod convert;
mod server;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use amplifier_sdk::prelude::*;
use serde::Deserialize;
use server::{Mcp, Server, ServerConfig, Status};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    /// Its default (none) stays here, not in `amplifier.toml`: the loader
    /// would add `servers` beside a plan's `mcpServers`, a duplicate field.
    #[serde(default, alias = "mcpServers")]
    servers: BTreeMap<String, ServerConfig>,
}

/// Kills the servers when the host drops this module (the session ended).
struct Shutdown(Arc<Mcp>);

impl Drop for Shutdown {
    fn drop(&mut self) {
        // The host drops the module on its own thread: enter the plugin's
        // runtime, where the connections' tasks live.
        let _entered = amplifier_sdk::runtime().enter();
        self.0.shutdown();
    }
}

/// `mcp_wait {server?, timeout?}`.
struct McpWait {
    mcp: Arc<Mcp>,
    _shutdown: Arc<Shutdown>,
}

impl Tool for McpWait {
    fn spec(&self) -> ToolSpec {
        let mut server = json!({"type": "string", "description": "Only this server (default: all)"});
        if !self.mcp.servers.is_empty() {
            server["enum"] = self.mcp.servers.iter().map(|s| s.name.clone()).collect();
        }
        ToolSpec::new(
            "mcp_wait",
            "Waits until the MCP servers are connected (or have failed) and reports each one's status, its tools \
             (named `<server>__<tool>`, offered once connected) and any error.",
            json!({
                "type": "object",
                "properties": {
                    "server": server,
                    "timeout": {"type": "number", "exclusiveMinimum": 0, "description": "Seconds to wait at most (default: long enough for every server to start)"}
                },
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        let only = input.get("server").and_then(Value::as_str);
        let chosen: Vec<(usize, &Arc<Server>)> =
            self.mcp.servers.iter().enumerate().filter(|(_, s)| only.is_none_or(|n| s.name == n)).collect();
        if chosen.is_empty() {
            return match only {
                Some(name) => ToolResult::error("InvalidInput", format!("no MCP server named '{name}'")),
                None => ToolResult::ok(json!({"servers": {}})),
            };
        }
        let timeout = match input.get("timeout").and_then(Value::as_f64) {
            Some(secs) if secs > 0.0 && secs.is_finite() => Duration::from_secs_f64(secs.min(3600.0)),
            // A start, and a restart's start, each within the server's timeout.
            _ => chosen.iter().map(|(_, s)| s.timeout * 2).max().unwrap_or_default() + Duration::from_secs(1),
        };
        // One deadline for all: the servers start in parallel.
        let deadline = tokio::time::Instant::now() + timeout;
        let mut statuses = Vec::new();
        for (_, server) in &chosen {
            statuses.push(server.settled(deadline.saturating_duration_since(tokio::time::Instant::now())).await);
        }
        let mut report = serde_json::Map::new();
        let mut problems = Vec::new();
        for ((index, server), status) in chosen.iter().zip(statuses) {
            let tools = self.mcp.tools_of(*index);
            let entry = match &status {
                Status::Ready => json!({"status": "ready", "tools": tools}),
                Status::Failed(error) => {
                    problems.push(format!("MCP server '{}' failed: {error}", server.name));
                    json!({"status": "failed", "error": error})
                }
                Status::Starting | Status::Restarting => {
                    let secs = timeout.as_secs_f64();
                    problems.push(format!("MCP server '{}' is still starting after {secs}s", server.name));
                    json!({"status": "starting"})
                }
            };
            report.insert(server.name.clone(), entry);
        }
        if problems.is_empty() {
            return ToolResult::ok(json!({"servers": report}));
        }
        let mut result = ToolResult::error("McpServerUnavailable", problems.join("\n"));
        if let Some(error) = result.error.as_mut() {
            error.insert("servers".into(), Value::Object(report));
        }
        result
    }
}

/// The servers' resources and prompts, as four static tools.
#[derive(Clone, Copy)]
enum Catalog {
    /// `mcp_resources {server?}`
    Resources,
    /// `mcp_read_resource {server, uri}`
    ReadResource,
    /// `mcp_prompts {server?}`
    Prompts,
    /// `mcp_get_prompt {server, name, arguments?}`
    GetPrompt,
}

struct CatalogTool {
    mcp: Arc<Mcp>,
    kind: Catalog,
    _shutdown: Arc<Shutdown>,
}

impl CatalogTool {
    fn server(&self, name: &str) -> Result<&Arc<Server>, ToolResult> {
        self.mcp.servers.iter().find(|s| s.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.mcp.servers.iter().map(|s| s.name.as_str()).collect();
            ToolResult::error(
                "InvalidInput",
                format!("no MCP server named '{name}'; the servers: {}", names.join(", ")),
            )
        })
    }

    /// Each chosen server's answer to `list`, by name; a server that has
    /// none of what is listed says so in its entry.
    async fn listing<F: std::future::Future<Output = Result<Vec<Value>, String>>>(
        &self,
        named: Option<&str>,
        list: impl Fn(Arc<Server>) -> F,
    ) -> ToolResult {
        let chosen: Vec<&Arc<Server>> = match named {
            Some(name) => match self.server(name) {
                Ok(server) => vec![server],
                Err(refused) => return refused,
            },
            None => self.mcp.servers.iter().collect(),
        };
        let mut listing = serde_json::Map::new();
        for server in chosen {
            let entry = match list(server.clone()).await {
                Ok(items) => json!(items),
                Err(message) => json!({"error": message}),
            };
            listing.insert(server.name.clone(), entry);
        }
        ToolResult::ok(json!({"servers": listing}))
    }
}

impl Tool for CatalogTool {
    fn spec(&self) -> ToolSpec {
        let mut server = json!({"type": "string"});
        if !self.mcp.servers.is_empty() {
            server["enum"] = self.mcp.servers.iter().map(|s| s.name.clone()).collect();
        }
        let (name, description, mut properties, required) = match self.kind {
            Catalog::Resources => (
                "mcp_resources",
                "Lists the resources (files, records, documents) the MCP servers offer: each one's `uri`, `name`, \
                 `description` and `mimeType`, by server. Read one with `mcp_read_resource`.",
                json!({}),
                json!([]),
            ),
            Catalog::ReadResource => (
                "mcp_read_resource",
                "Reads a resource of an MCP server by its URI (`mcp_resources` lists them): its text, or a line \
                 describing a binary one.",
                json!({"uri": {"type": "string", "description": "The resource's URI"}}),
                json!(["server", "uri"]),
            ),
            Catalog::Prompts => (
                "mcp_prompts",
                "Lists the prompts (templates of messages) the MCP servers offer: each one's `name`, `description` \
                 and `arguments`, by server. Fill one in with `mcp_get_prompt`.",
                json!({}),
                json!([]),
            ),
            Catalog::GetPrompt => (
                "mcp_get_prompt",
                "Fills in a prompt of an MCP server (`mcp_prompts` lists them) and returns its messages.",
                json!({
                    "name": {"type": "string", "description": "The prompt's name"},
                    "arguments": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Its arguments, by name"}
                }),
                json!(["server", "name"]),
            ),
        };
        server["description"] = match self.kind {
            Catalog::Resources | Catalog::Prompts => json!("Only this server (default: all)"),
            Catalog::ReadResource | Catalog::GetPrompt => json!("The MCP server"),
        };
        properties["server"] = server;
        ToolSpec::new(
            name,
            description,
            json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false}),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        let text = |key: &str| input.get(key).and_then(Value::as_str);
        let named = text("server");
        match self.kind {
            Catalog::Resources => self.listing(named, |server| async move { server.resources().await }).await,
            Catalog::Prompts => self.listing(named, |server| async move { server.prompts().await }).await,
            Catalog::ReadResource | Catalog::GetPrompt => {
                let (Some(name), Some(what)) = (named, text("uri").or(text("name"))) else {
                    return ToolResult::error("InvalidInput", "give `server` and what to read or fill in");
                };
                let server = match self.server(name) {
                    Ok(server) => server,
                    Err(refused) => return refused,
                };
                let answer = match self.kind {
                    Catalog::ReadResource => server.read(what).await.map(Value::String),
                    _ => {
                        let arguments = input.get("arguments").and_then(Value::as_object).cloned();
                        server.prompt(what, arguments).await.map(|messages| json!({"messages": messages}))
                    }
                };
                match answer {
                    Ok(answer) => ToolResult::ok(answer),
                    Err(message) => ToolResult::error("McpError", message),
                }
            }
        }
    }
}

/// Routes the calls of the server tools this module mounted at run time.
struct Dispatcher {
    mcp: Arc<Mcp>,
    _shutdown: Arc<Shutdown>,
}

impl ToolDispatcher for Dispatcher {
    async fn execute(&self, name: &str, input: Value) -> ToolResult {
        self.mcp.call(name, input).await
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    let config: Config = ctx.config()?;
    let mut servers = Vec::new();
    for (name, server) in config.servers {
        let server = Server::new(name.clone(), server).map_err(|message| {
            ModuleError::new(
                ErrorKind::InvalidRequest,
                format!("invalid config for tool-mcp: servers.{name}: {message}"),
            )
        })?;
        servers.push(Arc::new(server));
    }
    if servers.iter().any(|s| s.is_http()) {
        // reqwest is built without a TLS provider of its own (as in tool-web):
        // ring, installed once per process; an earlier one is kept.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    let mcp = Arc::new(Mcp::new(ctx.host, servers));
    mcp.start();
    let shutdown = Arc::new(Shutdown(mcp.clone()));
    let mut tools = Tools::new().with(McpWait { mcp: mcp.clone(), _shutdown: shutdown.clone() });
    for kind in [Catalog::Resources, Catalog::ReadResource, Catalog::Prompts, Catalog::GetPrompt] {
        tools = tools.with(CatalogTool { mcp: mcp.clone(), kind, _shutdown: shutdown.clone() });
    }
    Ok(tools.with_dispatcher(Dispatcher { mcp, _shutdown: shutdown }))
}

export_module!(tool => mount);
