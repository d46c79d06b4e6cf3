//! Classifiers: which agent should answer a turn. `None` means "no
//! opinion" and the router falls back to the default agent; a choice is
//! never second-guessed (there is no confidence threshold).

use amplifier_sdk::events;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::Agent;

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum ClassifierConfig {
    /// No model call: the first rule with a keyword in the input wins.
    Keywords { rules: Vec<Rule> },
    /// A model picks through a forced `select_agent` tool call.
    Llm {
        /// Mount name of the provider; the preferred one when absent.
        #[serde(default)]
        provider: Option<String>,
    },
    /// A hook picks: `router:classify` `{input, agents, history}` is
    /// dispatched, and a hook that answers `modify` with an `agent` chooses.
    Hook {},
}

/// The event a `hook` classifier dispatches.
pub(crate) const CLASSIFY: &str = "router:classify";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Rule {
    agent: String,
    keywords: Vec<String>,
}

/// What a classifier decided, and what it cost.
#[derive(Debug, Default)]
pub(crate) struct Choice {
    pub agent: Option<String>,
    pub usage: Option<Usage>,
}

pub(crate) const SELECT_AGENT: &str = "select_agent";

impl ClassifierConfig {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            ClassifierConfig::Keywords { .. } => "keywords",
            ClassifierConfig::Llm { .. } => "llm",
            ClassifierConfig::Hook {} => "hook",
        }
    }

    /// Rules must name agents of the plan: a typo would route nothing, silently.
    pub(crate) fn check(&self, agents: &[Agent]) -> ModuleResult<()> {
        let ClassifierConfig::Keywords { rules } = self else { return Ok(()) };
        for (index, rule) in rules.iter().enumerate() {
            if !agents.iter().any(|a| a.id == rule.agent) {
                let known: Vec<&str> = agents.iter().map(|a| a.id.as_str()).collect();
                return Err(ModuleError::new(
                    ErrorKind::InvalidRequest,
                    format!(
                        "{}: classifier.rules[{index}].agent: no agent `{}` in the plan's `agents:` (known: {})",
                        crate::NAME,
                        rule.agent,
                        known.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    pub(crate) async fn classify(
        &self,
        host: &Host,
        input: &str,
        history: Vec<Message>,
        agents: &[Agent],
    ) -> ModuleResult<Choice> {
        match self {
            ClassifierConfig::Keywords { rules } => Ok(Choice { agent: by_keywords(rules, input), usage: None }),
            ClassifierConfig::Llm { provider } => by_model(host, provider.as_deref(), input, history, agents).await,
            ClassifierConfig::Hook {} => by_hook(host, input, history, agents).await,
        }
    }
}

/// The `agent` a hook put into `router:classify`, if it names one of the
/// agents; a hook that denies the event fails the turn with its reason.
async fn by_hook(host: &Host, input: &str, history: Vec<Message>, agents: &[Agent]) -> ModuleResult<Choice> {
    let listed: Vec<Value> = agents.iter().map(|a| json!({"id": a.id, "description": a.description})).collect();
    let data = json!({"input": input, "agents": listed, "history": history});
    let answer = host.dispatch(CLASSIFY, event_data(data)).await?;
    if answer.is_denied() {
        let reason = answer.reason.unwrap_or_default();
        return Err(ModuleError::new(ErrorKind::Abort, format!("{CLASSIFY} denied by hook: {reason}")));
    }
    let named = answer.data.as_ref().and_then(|data| data.get("agent")).and_then(Value::as_str);
    let agent = named.filter(|id| agents.iter().any(|a| a.id == *id));
    if let (Some(id), None) = (named, agent) {
        tracing::warn!(agent = id, "a router:classify hook named no agent of the plan; the default answers");
    }
    Ok(Choice { agent: agent.map(str::to_owned), usage: None })
}

fn by_keywords(rules: &[Rule], input: &str) -> Option<String> {
    let input = input.to_lowercase();
    rules
        .iter()
        .find(|rule| rule.keywords.iter().any(|k| !k.is_empty() && input.contains(&k.to_lowercase())))
        .map(|rule| rule.agent.clone())
}

/// Adapted from agent-squad's AgentMatcher prompt.
fn system_prompt(agents: &[Agent]) -> String {
    let list: Vec<String> = agents.iter().map(|a| format!("- {}: {}", a.id, a.description)).collect();
    format!(
        "You are AgentMatcher, who routes each user request to the agent best suited to answer it.\n\
         The agents:\n{}\n\n\
         Read the conversation so far (an assistant message starts with the id of the agent that wrote it, \
         in brackets) and the new request. A short follow-up (\"yes\", \"tell me more\") usually belongs to the \
         agent that answered last. Call `{SELECT_AGENT}` with the id of the agent that should answer.",
        list.join("\n")
    )
}

/// The tool whose `agent` argument can only be one of the agents' ids.
pub(crate) fn select_agent_tool(agents: &[Agent]) -> ToolSpec {
    let ids: Vec<&str> = agents.iter().map(|a| a.id.as_str()).collect();
    ToolSpec::new(
        SELECT_AGENT,
        "Selects the agent that answers the user's request",
        json!({
            "type": "object",
            "properties": {
                "agent": {"type": "string", "enum": ids, "description": "The id of the chosen agent"},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1}
            },
            "required": ["agent"]
        }),
    )
}

/// The first `select_agent` call naming a real agent; anything else (no
/// call, an invented id) is no choice.
fn choice_of(response: &ChatResponse, agents: &[Agent]) -> Option<String> {
    let call = response.parse_tool_calls().into_iter().find(|call| call.name == SELECT_AGENT)?;
    let agent = call.arguments.get("agent")?.as_str()?;
    agents.iter().any(|a| a.id == agent).then(|| agent.to_owned())
}

async fn by_model(
    host: &Host,
    provider: Option<&str>,
    input: &str,
    history: Vec<Message>,
    agents: &[Agent],
) -> ModuleResult<Choice> {
    let mut messages = vec![Message::system(system_prompt(agents))];
    messages.extend(history);
    messages.push(Message::user(input));
    let request = ChatRequest {
        messages: messages.into(),
        tools: Some(vec![select_agent_tool(agents)]),
        tool_choice: Some(json!({"type": "function", "function": {"name": SELECT_AGENT}})),
        // Not an answer: no deltas for a front end to show.
        stream: Some(false),
        ..ChatRequest::default()
    };
    // Announced like any model call, so front ends count its tokens.
    let announced = json!({"provider": provider, "purpose": "classify"});
    host.emit(events::PROVIDER_REQUEST, event_data(announced)).await?;
    let response = host.complete(provider, request).await?;
    let answered = json!({"provider": provider, "purpose": "classify", "usage": response.usage, "tool_calls": true});
    host.emit(events::PROVIDER_RESPONSE, event_data(answered)).await?;
    Ok(Choice { agent: choice_of(&response, agents), usage: response.usage.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agents() -> Vec<Agent> {
        ["support", "billing"]
            .iter()
            .map(|id| Agent { id: id.to_string(), description: format!("{id} things"), save_chat: true })
            .collect()
    }

    #[test]
    fn the_first_matching_rule_wins_case_insensitively() {
        let config: ClassifierConfig = serde_json::from_value(json!({
            "type": "keywords",
            "rules": [{"agent": "billing", "keywords": ["Invoice", "refund"]}, {"agent": "support", "keywords": ["refund"]}]
        }))
        .unwrap();
        let ClassifierConfig::Keywords { rules } = &config else { panic!("keywords") };
        assert_eq!(by_keywords(rules, "Where is my INVOICE?").as_deref(), Some("billing"));
        assert_eq!(by_keywords(rules, "a refund please").as_deref(), Some("billing"));
        assert_eq!(by_keywords(rules, "hello"), None);
        config.check(&agents()).unwrap();
    }

    #[test]
    fn rules_must_name_known_agents() {
        let config: ClassifierConfig =
            serde_json::from_value(json!({"type": "keywords", "rules": [{"agent": "sales", "keywords": ["buy"]}]}))
                .unwrap();
        let err = config.check(&agents()).unwrap_err();
        assert!(err.message.contains("classifier.rules[0].agent: no agent `sales`"), "{}", err.message);
        assert!(err.message.contains("known: support, billing"), "{}", err.message);
    }

    #[test]
    fn the_tool_enumerates_the_ids_and_only_real_ids_count() {
        let tool = select_agent_tool(&agents());
        assert_eq!(tool.parameters["properties"]["agent"]["enum"], json!(["support", "billing"]));
        let answer = |agent: &str| ChatResponse {
            tool_calls: Some(vec![ToolCall::new("c", SELECT_AGENT, json!({"agent": agent}))]),
            ..ChatResponse::default()
        };
        assert_eq!(choice_of(&answer("billing"), &agents()).as_deref(), Some("billing"));
        assert_eq!(choice_of(&answer("sales"), &agents()), None);
        assert_eq!(choice_of(&ChatResponse::default(), &agents()), None);
    }

    #[test]
    fn the_prompt_lists_every_agent() {
        let prompt = system_prompt(&agents());
        assert!(prompt.contains("- support: support things\n- billing: billing things"), "{prompt}");
    }
}
