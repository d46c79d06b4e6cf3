//! `loop-streaming`: the agent loop as the REPL wants it. Tokens stream as
//! they arrive (`content_block:start/delta`, `thinking:delta`), a turn's
//! tools run in parallel, `execution:start/end` bracket each prompt, and
//! steering works: text the user types while the turn runs is queued by the
//! host and joins the context at the next iteration. The loop itself is
//! `amplifier-agent-loop`.

use amplifier_agent_loop::{AgentLoop, STREAMING};
use amplifier_sdk::prelude::*;

fn mount(ctx: MountContext) -> ModuleResult<AgentLoop> {
    amplifier_agent_loop::mount(ctx, STREAMING)
}

export_module!(orchestrator => mount);
