//! One routed turn: select, fetch, run, relay, persist.
//!
//! The caller's stream, as events of this session:
//! `router:selected` `{agent, classifier, classifier_choice}`, then the
//! agent's `router:thinking` / `router:delta` `{agent, delta}` and
//! `router:tool_call` `{agent, id, name, arguments}` as they happen, then
//! `router:final` `{agent, message}` or one terminal `router:error`
//! `{agent?, message}` (an error the agent reported itself is relayed once,
//! never repeated). Around them, the lifecycle every orchestrator has:
//! `prompt:submit` (hooks may deny the prompt), the agent's
//! `provider:request`/`provider:response` passed on (so usage is counted
//! here; each carries `relayed_from`, the agent's session, so an observer
//! of both sessions counts it once), `prompt:complete`, and
//! `orchestrator:complete` last.

use std::sync::Arc;

use amplifier_sdk::prelude::*;
use amplifier_sdk::trace::Span;
use amplifier_sdk::{events, ops};
use futures::StreamExt;

use crate::{Agent, Router};

pub(crate) const SELECTED: &str = "router:selected";
pub(crate) const THINKING: &str = "router:thinking";
pub(crate) const DELTA: &str = "router:delta";
pub(crate) const TOOL_CALL: &str = "router:tool_call";
pub(crate) const FINAL: &str = "router:final";
pub(crate) const ERROR: &str = "router:error";

const FAILED_MESSAGE: &str = "Sorry, something went wrong handling that. Please try again.";
const CANCELLED_MESSAGE: &str = "The turn was cancelled; nothing was saved.";

/// Why a turn failed, and whether the caller already heard about it.
struct Failure {
    error: ModuleError,
    reported: bool,
}

impl From<ModuleError> for Failure {
    fn from(error: ModuleError) -> Self {
        Failure { error, reported: false }
    }
}

/// What happened, for the root span.
#[derive(Default)]
struct Outcome {
    agent: Option<String>,
    classifier_choice: Option<String>,
    usage: Usage,
    /// Set when the answer was given but could not be saved.
    persist_error: Option<String>,
}

/// `amplifier serve` hands orchestrators the whole request (`{mode,
/// message | objective, threadId, …}`); the turn's input is its text.
fn user_input(prompt: String) -> String {
    let Ok(Value::Object(request)) = serde_json::from_str::<Value>(&prompt) else { return prompt };
    if !request.contains_key("threadId") {
        return prompt;
    }
    match request.get("message").or_else(|| request.get("objective")).and_then(Value::as_str) {
        Some(text) => text.to_owned(),
        None => prompt,
    }
}

pub(crate) async fn run(router: &Router, prompt: String) -> ModuleResult<String> {
    let prompt = user_input(prompt);
    let host = &router.host;
    let classifier = router.config.classifier.as_ref().map(|c| c.kind());
    let root = Span::start(host, "chat.turn", None, json!({"modality": "text", "classifier": classifier})).await;
    let mut outcome = Outcome::default();
    let result = serve(router, &root, &prompt, &mut outcome).await;
    let attributes = json!({
        "agent": outcome.agent,
        "classifier.choice": outcome.classifier_choice,
        "usage.input_tokens": outcome.usage.input_tokens,
        "usage.output_tokens": outcome.usage.output_tokens,
        "usage.total_tokens": outcome.usage.total_tokens,
    });
    match result {
        Ok(text) => {
            root.end(outcome.persist_error.map_or(Ok(()), Err), attributes).await;
            let preview: String = text.chars().take(200).collect();
            emit(host, events::PROMPT_COMPLETE, json!({"response_preview": preview, "length": text.len()})).await;
            complete(host, "success").await;
            Ok(text)
        }
        Err(failure) => {
            let cancelled = is_cancelled(host).await;
            if !failure.reported {
                let message = if cancelled { CANCELLED_MESSAGE } else { FAILED_MESSAGE };
                emit(host, ERROR, json!({"agent": outcome.agent, "message": message})).await;
            }
            root.end(Err(failure.error.message.clone()), attributes).await;
            complete(host, if cancelled { "cancelled" } else { "error" }).await;
            Err(failure.error)
        }
    }
}

/// The last event of every turn, as for any orchestrator.
async fn complete(host: &Host, status: &str) {
    emit(host, events::ORCHESTRATOR_COMPLETE, json!({"orchestrator": crate::NAME, "status": status})).await;
}

async fn is_cancelled(host: &Host) -> bool {
    host.session_info().await.map(|info| info.cancellation != "none").unwrap_or(false)
}

async fn serve(router: &Router, root: &Span, prompt: &str, outcome: &mut Outcome) -> Result<String, Failure> {
    let host = &router.host;
    let submitted = host.dispatch(events::PROMPT_SUBMIT, event_data(json!({"prompt": prompt}))).await?;
    if submitted.is_denied() {
        let reason = submitted.reason.unwrap_or_default();
        return Err(ModuleError::new(ErrorKind::Abort, format!("prompt denied by hook: {reason}")).into());
    }
    let agents = router.agents().await?;
    let (agent, choice) = select(router, &agents, prompt, outcome).await?;
    outcome.agent = Some(agent.id.clone());
    outcome.classifier_choice = choice.clone();
    let classifier = router.config.classifier.as_ref().map(|c| c.kind());
    emit(host, SELECTED, json!({"agent": agent.id, "classifier": classifier, "classifier_choice": choice})).await;

    let max = router.config.max_messages;
    // A front end without a store (`amplifier serve`) still routes; it just
    // keeps no history.
    let history = match host.history(&agent.id, max).await {
        Ok(history) => Some(history),
        Err(err) if err.kind == ErrorKind::Unsupported => {
            tracing::warn!(error = %err, "routing without per-agent history");
            None
        }
        Err(err) => return Err(err.into()),
    };

    let span = Span::start(host, &format!("agent.{}", agent.id), Some(root), json!({"agent": agent.id})).await;
    let turn = ops::AgentTurn {
        agent: agent.id.clone(),
        instruction: prompt.to_owned(),
        history: history.clone().unwrap_or_default(),
    };
    let (result, relayed) = relay(host, &agent.id, turn).await;
    outcome.usage.accumulate(&relayed.usage);
    let usage = json!({
        "usage.input_tokens": relayed.usage.input_tokens,
        "usage.output_tokens": relayed.usage.output_tokens,
        "usage.total_tokens": relayed.usage.total_tokens,
    });
    let done = match result {
        Ok(done) => done,
        Err(error) => {
            span.end(Err(error.message.clone()), usage).await;
            return Err(Failure { error, reported: relayed.error_reported });
        }
    };
    span.end(Ok(()), usage).await;
    emit(host, FINAL, json!({"agent": agent.id, "message": done.response})).await;
    router.set_last(&agent.id);
    crate::publish(host, &agents, router.last().as_deref()).await;

    // The session's own context keeps the conversation as the caller saw
    // it, for the session store's transcript and `resume`.
    for message in [Message::user(prompt), Message::new(Role::Assistant, done.response.clone())] {
        if let Err(err) = host.add_message(message).await {
            tracing::warn!(error = %err, "could not add the turn to the session's context");
        }
    }
    if agent.save_chat && history.is_some() {
        // The user already has the answer: a failed save is the trace's
        // business, not an error for the caller.
        if let Err(err) = host.save_history(&agent.id, done.messages, max).await {
            tracing::warn!(agent = %agent.id, error = %err, "could not save the turn");
            outcome.persist_error = Some(format!("could not save the turn: {}", err.message));
        }
    }
    Ok(done.response)
}

/// The agent for this turn and the classifier's own choice (before the fallback).
async fn select<'a>(
    router: &Router,
    agents: &'a [Agent],
    prompt: &str,
    outcome: &mut Outcome,
) -> ModuleResult<(&'a Agent, Option<String>)> {
    let default = &agents[0];
    let Some(classifier) = &router.config.classifier else { return Ok((default, None)) };
    let history = match router.host.merged_history().await {
        Ok(history) => history,
        Err(err) if err.kind == ErrorKind::Unsupported => Vec::new(),
        Err(err) => return Err(err),
    };
    let choice = classifier.classify(&router.host, prompt, history, agents).await?;
    if let Some(usage) = &choice.usage {
        outcome.usage.accumulate(usage);
    }
    let selected = choice.agent.as_deref().and_then(|id| agents.iter().find(|a| a.id == id)).unwrap_or(default);
    Ok((selected, choice.agent))
}

/// What the relay saw of the agent's events.
#[derive(Default)]
struct Relayed {
    usage: Usage,
    error_reported: bool,
}

/// Runs the agent's turn, re-emitting its events here in order as they arrive.
async fn relay(host: &Host, agent: &str, turn: ops::AgentTurn) -> (ModuleResult<ops::AgentTurnResult>, Relayed) {
    // The host calls back synchronously; events are emitted from here, in order.
    let (sender, mut events) = futures::channel::mpsc::unbounded::<Option<Value>>();
    let forward = sender.clone();
    let on_event: Arc<dyn Fn(Value) + Send + Sync> = Arc::new(move |event| {
        let _ = forward.unbounded_send(Some(event));
    });
    let run = async {
        let result = host.agent_turn(turn, on_event).await;
        let _ = sender.unbounded_send(None);
        result
    };
    let forward_events = async {
        let mut relayed = Relayed::default();
        while let Some(Some(event)) = events.next().await {
            let name = event.get("event").and_then(Value::as_str).unwrap_or_default();
            let data = event.get("data").cloned().unwrap_or_default();
            if let Some((relay_name, payload)) = translate(agent, name, &data, &mut relayed) {
                emit(host, relay_name, payload).await;
            }
        }
        relayed
    };
    futures::join!(run, forward_events)
}

/// The caller-facing event for one of the agent's events, if it has one.
fn translate(agent: &str, name: &str, data: &Value, relayed: &mut Relayed) -> Option<(&'static str, Value)> {
    match name {
        events::CONTENT_BLOCK_DELTA => {
            let relay_name = match data.get("block_type").and_then(Value::as_str) {
                Some("text") => DELTA,
                Some("thinking") => THINKING,
                _ => return None,
            };
            Some((relay_name, json!({"agent": agent, "delta": data.get("delta")})))
        }
        events::TOOL_PRE => Some((
            TOOL_CALL,
            json!({
                "agent": agent,
                "id": data.get("tool_call_id"),
                "name": data.get("tool_name"),
                "arguments": data.get("tool_input"),
            }),
        )),
        // Passed on as they are (with the agent), so this session's
        // observers (usage meters, the store's totals) count the agent's model.
        events::PROVIDER_REQUEST => Some((events::PROVIDER_REQUEST, with_agent(agent, data))),
        events::PROVIDER_RESPONSE => {
            if let Some(usage) = data.get("usage").and_then(|u| serde_json::from_value::<Usage>(u.clone()).ok()) {
                relayed.usage.accumulate(&usage);
            }
            Some((events::PROVIDER_RESPONSE, with_agent(agent, data)))
        }
        events::PROVIDER_ERROR => {
            relayed.error_reported = true;
            let message = data.pointer("/error/msg").and_then(Value::as_str).unwrap_or(FAILED_MESSAGE);
            Some((ERROR, json!({"agent": agent, "message": message})))
        }
        _ => None,
    }
}

/// The child's event data without its session fields (the kernel stamps
/// this session's), plus the agent and the child session it came from.
fn with_agent(agent: &str, data: &Value) -> Value {
    let mut data = data.as_object().cloned().unwrap_or_default();
    let child = data.remove("session_id");
    for key in ["parent_id", "timestamp"] {
        data.remove(key);
    }
    data.insert("agent".into(), json!(agent));
    data.insert("relayed_from".into(), child.unwrap_or(Value::Null));
    Value::Object(data)
}

/// Relaying is observability: a failed emit never fails the turn.
async fn emit(host: &Host, event: &str, data: Value) {
    if let Value::Object(data) = data {
        if let Err(err) = host.emit(event, data).await {
            tracing::debug!(event, error = %err, "could not emit");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_served_request_is_reduced_to_its_text() {
        let chat = json!({"mode": "chat", "message": "refund please", "threadId": "t-1"}).to_string();
        assert_eq!(user_input(chat), "refund please");
        let app = json!({"mode": "app", "objective": "write a post", "threadId": "t-1"}).to_string();
        assert_eq!(user_input(app), "write a post");
        // JSON typed by a person is a prompt like any other.
        let typed = json!({"message": "not a request"}).to_string();
        assert_eq!(user_input(typed.clone()), typed);
        assert_eq!(user_input("plain words".into()), "plain words");
    }

    #[test]
    fn the_agents_events_become_the_callers() {
        let mut relayed = Relayed::default();
        let delta = json!({"block_type": "text", "delta": "hi"});
        assert_eq!(
            translate("a", events::CONTENT_BLOCK_DELTA, &delta, &mut relayed),
            Some((DELTA, json!({"agent": "a", "delta": "hi"})))
        );
        let thinking = json!({"block_type": "thinking", "delta": "hm"});
        assert_eq!(translate("a", events::CONTENT_BLOCK_DELTA, &thinking, &mut relayed).unwrap().0, THINKING);
        let pre = json!({"tool_call_id": "call_1", "tool_name": "echo", "tool_input": {"text": "x"}});
        assert_eq!(
            translate("a", events::TOOL_PRE, &pre, &mut relayed),
            Some((TOOL_CALL, json!({"agent": "a", "id": "call_1", "name": "echo", "arguments": {"text": "x"}})))
        );
        let response =
            json!({"session_id": "child", "usage": {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}});
        let (name, passed_on) = translate("a", events::PROVIDER_RESPONSE, &response, &mut relayed).unwrap();
        assert_eq!(name, events::PROVIDER_RESPONSE);
        assert_eq!(
            passed_on,
            json!({"agent": "a", "relayed_from": "child", "usage": {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}})
        );
        assert_eq!(relayed.usage.total_tokens, 5);
        assert!(!relayed.error_reported);
        let error = json!({"error": {"type": "rate_limit", "msg": "offline"}});
        assert_eq!(
            translate("a", events::PROVIDER_ERROR, &error, &mut relayed),
            Some((ERROR, json!({"agent": "a", "message": "offline"})))
        );
        assert!(relayed.error_reported);
        assert_eq!(translate("a", "session:start", &json!({}), &mut relayed), None);
    }
}
