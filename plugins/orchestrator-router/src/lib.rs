//! `orchestrator-router`: each turn goes to one of the plan's `agents:`.
//!
//! The first agent is the default. Without a classifier every turn goes to
//! it; with one (`keywords` rules or an `llm` asked through a forced
//! `select_agent` tool) each turn is classified against the user input, the
//! merged cross-agent history and the agents' descriptions, and a turn the
//! classifier leaves unassigned falls back to the default.
//!
//! A turn ([`turn`]): select the agent; fetch its own history (per user,
//! conversation and agent, from the front end's store, trimmed to
//! `max_messages`); run it as a fresh child session seeded with that history
//! (the kernel's `session.agent_turn`), relaying its events to the caller as
//! `router:*` events; save the exchange, tool calls included, only when the
//! agent finished and its `save_chat` is on. Spans `chat.turn` and
//! `agent.<id>` cross the ABI as `trace:span_start`/`trace:span_end`
//! events (the SDK's `trace::Span`), which the CLI turns into `tracing`
//! spans.
//!
//! In the child session itself (an agent whose overlay names no orchestrator
//! of its own) this module is the agent: a streaming agent loop on the
//! agent's own provider ([`agent`]).

mod agent;
mod classifier;
mod turn;

use amplifier_sdk::ops;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::classifier::ClassifierConfig;

pub(crate) const NAME: &str = "orchestrator-router";
/// Where the router publishes its agents and the last one that answered
/// (for front ends: the REPL's `/agents`).
pub(crate) const CAPABILITY: &str = "router.agents";

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Config {
    /// Messages per agent history; `null` keeps everything (the loader
    /// leaves a `null` the plan gives, and fills the default in only for an
    /// absent key).
    max_messages: Option<usize>,
    #[serde(default)]
    classifier: Option<ClassifierConfig>,
}

/// One of the plan's agents, as the router sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Agent {
    pub id: String,
    pub description: String,
    pub save_chat: bool,
}

impl Agent {
    fn from_summary(summary: ops::AgentSummary) -> Agent {
        let save_chat = summary.settings.get("save_chat").and_then(Value::as_bool).unwrap_or(true);
        Agent { id: summary.name, description: summary.description, save_chat }
    }
}

pub(crate) struct Router {
    host: Host,
    config: Config,
    /// The agent that answered the last turn.
    last: std::sync::Mutex<Option<String>>,
}

impl Router {
    /// The plan's agents, in order; the first is the default.
    pub(crate) async fn agents(&self) -> ModuleResult<Vec<Agent>> {
        let agents: Vec<Agent> = self.host.agents().await?.into_iter().map(Agent::from_summary).collect();
        if agents.is_empty() {
            return Err(ModuleError::new(
                ErrorKind::InvalidRequest,
                format!("{NAME} routes to the plan's agents, but the plan has no `agents:` section"),
            ));
        }
        if let Some(classifier) = &self.config.classifier {
            classifier.check(&agents)?;
        }
        Ok(agents)
    }

    pub(crate) fn set_last(&self, agent: &str) {
        *self.last.lock().expect("last agent lock") = Some(agent.to_owned());
    }

    pub(crate) fn last(&self) -> Option<String> {
        self.last.lock().expect("last agent lock").clone()
    }
}

/// Publishes the agents and the last one that answered; a front end reads
/// it as the `router.agents` capability.
pub(crate) async fn publish(host: &Host, agents: &[Agent], last: Option<&str>) {
    let list: Vec<Value> = agents
        .iter()
        .enumerate()
        .map(|(i, a)| json!({"id": a.id, "description": a.description, "save_chat": a.save_chat, "default": i == 0}))
        .collect();
    let value = json!({"agents": list, "last_agent": last});
    if let Err(err) = host.register_capability(CAPABILITY, value).await {
        tracing::debug!(error = %err, "could not publish the router's agents");
    }
}

impl Orchestrator for Router {
    async fn execute(&self, prompt: String) -> ModuleResult<String> {
        let info = self.host.session_info().await?;
        if info.parent_id.is_some() {
            return agent::run(&self.host, &info.session_id, prompt).await;
        }
        turn::run(self, prompt).await
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Router> {
    let config: Config = ctx.config()?;
    let router = Router { host: ctx.host, config, last: std::sync::Mutex::default() };
    // Front ends may list the agents before the first turn.
    let host = router.host.clone();
    amplifier_sdk::runtime().spawn(async move {
        let Ok(info) = host.session_info().await else { return };
        if info.parent_id.is_some() {
            return;
        }
        if let Ok(agents) = host.agents().await {
            let agents: Vec<Agent> = agents.into_iter().map(Agent::from_summary).collect();
            publish(&host, &agents, None).await;
        }
    });
    Ok(router)
}

export_module!(orchestrator => mount);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_messages_defaults_to_100_and_null_keeps_everything() {
        use amplifier_sdk::testing::{config_with_defaults, with_defaults};
        const MANIFEST: &str = include_str!("../amplifier.toml");
        let config: Config = config_with_defaults(MANIFEST, json!({}));
        assert_eq!(config.max_messages, Some(100));
        let config: Config = config_with_defaults(MANIFEST, json!({"max_messages": null}));
        assert_eq!(config.max_messages, None);
        assert!(serde_json::from_value::<Config>(with_defaults(MANIFEST, json!({"max_message": 3}))).is_err());
    }

    #[test]
    fn save_chat_defaults_to_true() {
        let summary = |settings: Value| ops::AgentSummary {
            name: "a".into(),
            description: String::new(),
            capabilities: vec![],
            providers: vec![],
            settings: settings.as_object().cloned().unwrap_or_default(),
        };
        assert!(Agent::from_summary(summary(json!({}))).save_chat);
        assert!(!Agent::from_summary(summary(json!({"save_chat": false}))).save_chat);
    }
}
