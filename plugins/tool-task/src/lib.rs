//! `task`: delegates an instruction to an agent of the plan (`agents:`),
//! which runs in a child session (its own context, the parent's id in its
//! events) and returns only its final answer to the parent.

use amplifier_sdk::ops::SpawnRequest;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
struct Config {
    max_recursion_depth: u32,
    exclude_tools: Vec<String>,
    #[serde(default)]
    inherit_tools: Option<Vec<String>>,
}

struct Task {
    host: Host,
    config: Config,
    /// Agent names and descriptions, for the model (read once at mount).
    agents: Vec<(String, String)>,
}

#[derive(Debug, Deserialize)]
struct Input {
    agent: String,
    instruction: String,
    #[serde(default)]
    session_id: Option<String>,
}

impl Task {
    async fn emit(&self, event: &str, data: Value) {
        if let Value::Object(data) = data {
            if let Err(err) = self.host.emit(event, data).await {
                tracing::warn!(event, error = %err, "could not emit");
            }
        }
    }

    async fn run(&self, input: Input) -> ModuleResult<ToolResult> {
        let info = self.host.session_info().await?;
        if info.depth >= self.config.max_recursion_depth {
            return Ok(ToolResult::error(
                "RecursionLimit",
                format!(
                    "cannot delegate: this session is {} level(s) deep and max_recursion_depth is {}",
                    info.depth, self.config.max_recursion_depth
                ),
            ));
        }
        let resumed = input.session_id.is_some();
        let started = if resumed { "task:agent_resumed" } else { "task:agent_spawned" };
        // `sub_session_id`, not `session_id`: event data would override the
        // emitting (parent) session's id, which every event must carry.
        self.emit(
            started,
            json!({"agent": input.agent, "sub_session_id": input.session_id, "parent_session_id": info.session_id}),
        )
        .await;
        let request = SpawnRequest {
            agent: input.agent.clone(),
            instruction: input.instruction,
            session_id: input.session_id,
            exclude_tools: self.config.exclude_tools.clone(),
            inherit_tools: self.config.inherit_tools.clone(),
        };
        let result = self.host.spawn(request).await;
        let completed = match &result {
            Ok(done) => json!({"agent": input.agent, "sub_session_id": done.session_id, "success": true}),
            Err(err) => json!({"agent": input.agent, "success": false, "error": err.message}),
        };
        self.emit("task:agent_completed", completed).await;
        Ok(match result {
            Ok(done) => ToolResult::ok(json!({"response": done.response, "session_id": done.session_id})),
            Err(err) => ToolResult::error(&err.kind_name(), err.message),
        })
    }
}

impl Tool for Task {
    fn spec(&self) -> ToolSpec {
        let names: Vec<&str> = self.agents.iter().map(|(name, _)| name.as_str()).collect();
        let listing: Vec<String> = self.agents.iter().map(|(name, about)| format!("- {name}: {about}")).collect();
        ToolSpec::new(
            "task",
            format!(
                "Delegate a self-contained instruction to a specialist agent, which works in its own session and \
                 returns its final answer. Pass session_id from an earlier answer to continue that conversation.\n\
                 Agents:\n{}",
                listing.join("\n")
            ),
            json!({
                "type": "object",
                "properties": {
                    "agent": {"type": "string", "enum": names, "description": "Which agent to run"},
                    "instruction": {"type": "string", "description": "What the agent should do, with all it needs to know"},
                    "session_id": {"type": "string", "description": "Continue this earlier task session"}
                },
                "required": ["agent", "instruction"]
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        let input: Input = match serde_json::from_value(input) {
            Ok(input) => input,
            Err(err) => return ToolResult::error("InvalidInput", format!("invalid task input: {err}")),
        };
        self.run(input)
            .await
            .unwrap_or_else(|err| ToolResult::error(&err.kind_name(), format!("task failed: {}", err.message)))
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    let config: Config = ctx.config()?;
    // The host answers this at once; the agents are fixed for the session.
    let agents = amplifier_sdk::runtime().block_on(ctx.host.agents())?;
    Ok(Tools::new().with(Task {
        host: ctx.host,
        config,
        agents: agents.into_iter().map(|a| (a.name, a.description)).collect(),
    }))
}

export_module!(tool => mount);
