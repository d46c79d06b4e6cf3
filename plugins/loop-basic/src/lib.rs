//! `loop-basic`: upstream Amplifier's reference agent loop; a turn's tools
//! run in parallel. The loop itself is `amplifier-agent-loop`.

use amplifier_agent_loop::{AgentLoop, BASIC};
use amplifier_sdk::prelude::*;

fn mount(ctx: MountContext) -> ModuleResult<AgentLoop> {
    amplifier_agent_loop::mount(ctx, BASIC)
}

export_module!(orchestrator => mount);
