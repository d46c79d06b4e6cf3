//! `amplifier mcp-server`: the plan's tools, and with `--agent` a
//! `run_agent` tool that runs a prompt through the plan's session, served
//! over the Model Context Protocol on stdio (rmcp's server side), so other
//! agents and IDEs can use amplifier's tools and agents.
//!
//! A served tool runs as `amplifier tool invoke` runs it: its input checked
//! against its schema, its own config (a sandbox, allowed roots) and timeout,
//! but outside any model's turn, so the plan's `tool:pre`/`tool:post` hooks
//! do not run; `--tool` narrows what is served. `run_agent` is a turn like
//! the REPL's, with every hook, in one session that lives as long as the
//! server and is recorded in the store; turns take their turn.
//!
//! Stdout carries the protocol and nothing else: it is moved to a private
//! descriptor at start, and fd 1 then points at stderr, so no stray print
//! (a module's, a child process's) can corrupt a message.

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::Arc;

use amplifier_host::HostedSession;
use amplifier_kernel::ops::HostCallTool;
use amplifier_kernel::Coordinator;
use clap::Args;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, InitializeResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};

use crate::error::{CliError, CliResult};
use crate::hosting::{self, Flags};

/// The name of the tool `--agent` adds.
const RUN_AGENT: &str = "run_agent";

#[derive(Args)]
pub struct McpServerArgs {
    /// The plan whose tools are served (default: the `plan` setting, else the default plan).
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    /// An upstream bundle instead of a plan.
    #[arg(short = 'B', long, value_name = "PATH", conflicts_with = "plan")]
    bundle: Option<PathBuf>,
    /// Also serve `run_agent {prompt}`: a turn of the plan's session, its answer the result.
    #[arg(long)]
    agent: bool,
    /// Serve only these tools of the plan (repeat it; default: all of them).
    #[arg(long = "tool", value_name = "NAME")]
    tools: Vec<String>,
    /// Do not record the `run_agent` session in the session store.
    #[arg(long)]
    no_session: bool,
}

/// Where the protocol's messages go: the process's original stdout, which
/// fd 1 no longer is.
fn take_stdout() -> CliResult<tokio::fs::File> {
    // SAFETY: dup and dup2 on the process's own standard descriptors; the
    // duplicate is owned by the returned file and by nothing else.
    let protocol = unsafe { libc::dup(libc::STDOUT_FILENO) };
    if protocol < 0 || unsafe { libc::dup2(libc::STDERR_FILENO, libc::STDOUT_FILENO) } < 0 {
        return Err(CliError::failed(format!("cannot set up stdout for MCP: {}", std::io::Error::last_os_error())));
    }
    // SAFETY: `protocol` is a fresh descriptor that nothing else owns.
    let owned = unsafe { OwnedFd::from_raw_fd(protocol) };
    Ok(tokio::fs::File::from_std(std::fs::File::from(owned)))
}

struct Server {
    coordinator: Arc<Coordinator>,
    /// `Some` with `--agent`: the session `run_agent` turns run in.
    agent: Option<Arc<tokio::sync::Mutex<HostedSession>>>,
    /// The tools served: all of the plan's when empty.
    allowed: Vec<String>,
}

impl Server {
    fn serves(&self, name: &str) -> bool {
        self.allowed.is_empty() || self.allowed.iter().any(|allowed| allowed == name)
    }

    fn tools(&self) -> Vec<Tool> {
        let mut specs = self.coordinator.tool_specs();
        specs.sort_by(|a, b| a.name.cmp(&b.name));
        let mut tools: Vec<Tool> = specs
            .into_iter()
            .filter(|spec| self.serves(&spec.name))
            .map(|spec| {
                let schema = match spec.parameters {
                    Value::Object(schema) => schema,
                    _ => serde_json::Map::from_iter([("type".to_owned(), json!("object"))]),
                };
                Tool::new_with_raw(spec.name, spec.description.map(Into::into), Arc::new(schema))
            })
            .collect();
        if self.agent.is_some() {
            let schema = json!({
                "type": "object",
                "properties": {"prompt": {"type": "string", "description": "What to ask the agent"}},
                "required": ["prompt"]
            });
            tools.push(Tool::new(
                RUN_AGENT,
                "Runs a prompt through this amplifier agent (its model, tools and hooks) and returns its answer. \
                 Turns share one conversation, in order.",
                Arc::new(schema.as_object().cloned().unwrap_or_default()),
            ));
        }
        tools
    }

    async fn run_agent(&self, session: &tokio::sync::Mutex<HostedSession>, arguments: &Value) -> CallToolResult {
        let Some(prompt) = arguments.get("prompt").and_then(Value::as_str).filter(|p| !p.trim().is_empty()) else {
            return CallToolResult::error(vec![ContentBlock::text("run_agent needs a non-empty `prompt` string")]);
        };
        let mut session = session.lock().await;
        match session.turn(prompt).await {
            Ok(answer) => CallToolResult::success(vec![ContentBlock::text(answer)]),
            Err(err) => CallToolResult::error(vec![ContentBlock::text(CliError::from(err).to_string())]),
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        let mut info = InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
        info.server_info = Implementation::new("amplifier", env!("CARGO_PKG_VERSION"));
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        if let (RUN_AGENT, Some(session)) = (request.name.as_ref(), &self.agent) {
            return Ok(self.run_agent(session, &arguments).await.into());
        }
        if !self.serves(&request.name) || self.coordinator.tool(&request.name).is_none() {
            return Err(McpError::invalid_params(format!("no tool named `{}` is served", request.name), None));
        }
        // With its hooks, as the agent loop calls it: an approval, a
        // redaction or a log applies to a call from an MCP client too.
        let call = HostCallTool {
            name: request.name.to_string(),
            input: arguments,
            tool_call_id: None,
            parallel_group_id: None,
        };
        let result = self.coordinator.call_tool(call).await.result;
        let mut content = vec![ContentBlock::text(result.serialized_output())];
        // A tool's base64 images go to the client as image content.
        content.extend(result.images.iter().filter_map(|source| {
            let data = source.get("data").and_then(Value::as_str)?;
            Some(ContentBlock::image(data, source.get("media_type").and_then(Value::as_str).unwrap_or("image/png")))
        }));
        Ok(match result.success {
            true => CallToolResult::success(content),
            false => CallToolResult::error(content),
        }
        .into())
    }
}

/// `--tool` names tools the plan mounts, and `--agent`'s tool is not one of them.
fn check_tools(coordinator: &Coordinator, tools: &[String], agent: bool) -> CliResult {
    if let Some(unknown) = tools.iter().find(|name| coordinator.tool(name).is_none()) {
        let mut names = coordinator.tool_names();
        names.sort();
        return Err(CliError::usage(format!("--tool {unknown}: the plan mounts no such tool"))
            .hint(format!("the plan's tools: {}", names.join(", "))));
    }
    if agent && coordinator.tool(RUN_AGENT).is_some() {
        return Err(CliError::usage(format!("--agent: the plan mounts a tool named `{RUN_AGENT}` already")));
    }
    Ok(())
}

pub fn mcp_server(args: McpServerArgs) -> CliResult {
    let protocol_out = take_stdout()?;
    let plan_path = crate::default_plan::choose(args.plan.or(args.bundle))?;
    let runtime = hosting::runtime()?;
    let host = hosting::open(&plan_path, hosting::options(Flags::default(), args.agent)?)?;
    // Stdin is the protocol: no question can be asked there, so the plan's
    // approval default answers (see `TerminalApproval`).
    let approval = Arc::new(crate::approval::TerminalApproval::new(std::path::Path::new(".")));
    let mut builder = host.session().approval(approval);
    if args.agent && !args.no_session {
        builder = builder.record(None);
    }
    let mut hosted = builder.open()?;
    runtime.block_on(async move {
        let started = hosted.start().await.map_err(CliError::from).and_then(|report| {
            hosting::print_partial_load(&report);
            check_tools(hosted.coordinator(), &args.tools, args.agent)
        });
        if let Err(err) = started {
            hosted.finish(false).await;
            return Err(err);
        }
        let coordinator = hosted.coordinator().clone();
        let session = Arc::new(tokio::sync::Mutex::new(hosted));
        let server = Server { coordinator, agent: args.agent.then(|| session.clone()), allowed: args.tools };
        // The server, and its handle on the session, is gone once this returns.
        let ended = match server.serve((tokio::io::stdin(), protocol_out)).await {
            Ok(served) => served
                .waiting()
                .await
                .map(drop)
                .map_err(|err| CliError::failed(format!("the MCP server stopped: {err}"))),
            Err(err) => Err(CliError::failed(format!("the MCP client's handshake failed: {err}"))),
        };
        let hosted = Arc::try_unwrap(session).map_err(|_| CliError::failed("a run_agent turn outlived the server"))?;
        hosted.into_inner().finish(ended.is_ok()).await;
        ended
    })
}
