//! Agent mode: in the child session of one agent turn, the router is the
//! agent itself, a streaming agent loop (`amplifier-agent-loop`) on the
//! agent's own provider, so its text reaches the caller as it is written.

use amplifier_agent_loop::Style;
use amplifier_sdk::prelude::*;

const STYLE: Style =
    Style { name: crate::NAME, select_each_tool: false, stream: true, execution_events: false, steering: false };

/// The provider the agent's overlay brought: the last of its own that is
/// mounted. The parent's providers (a classifier's, say) are mounted in the
/// child too, so "the preferred one" could be somebody else's.
async fn own_provider(host: &Host, session_id: &str) -> ModuleResult<Option<String>> {
    let Some(agent) = amplifier_sdk::agent_of(session_id) else { return Ok(None) };
    let Some(summary) = host.agents().await?.into_iter().find(|a| a.name == agent) else { return Ok(None) };
    let mounted: Vec<String> = host.providers().await?.into_iter().map(|p| p.name).collect();
    Ok(summary.providers.into_iter().rev().find(|p| mounted.contains(p)))
}

pub(crate) async fn run(host: &Host, session_id: &str, prompt: String) -> ModuleResult<String> {
    let mut config = JsonMap::new();
    if let Some(provider) = own_provider(host, session_id).await? {
        config.insert("default_provider".into(), Value::String(provider));
    }
    let agent_loop =
        amplifier_agent_loop::mount(MountContext { config, host: host.clone(), module: crate::NAME }, STYLE)?;
    agent_loop.execute(prompt).await
}
