//! `loop-events`: the agent loop with `tool:selecting` before each tool, so
//! hooks can deny the model's choice or change the tool or its input; tools
//! run one at a time. The loop itself is `amplifier-agent-loop`.

use amplifier_agent_loop::{AgentLoop, EVENTS};
use amplifier_sdk::prelude::*;

fn mount(ctx: MountContext) -> ModuleResult<AgentLoop> {
    amplifier_agent_loop::mount(ctx, EVENTS)
}

export_module!(orchestrator => mount);
