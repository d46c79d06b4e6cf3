//! Specialist mode: in a child session (an agent whose overlay did not name
//! its own orchestrator), a plain agent loop. Streamed text becomes
//! `content_block:delta` events; tool calls run with `tool:pre` /
//! `tool:post` / `tool:error`; the loop ends when the model answers
//! without tools. Nothing of the parent's orchestration reaches the model:
//! the context holds the agent's own system instruction and the payload.

use std::sync::Arc;

use amplifier_sdk::events;
use amplifier_sdk::ops::HostCallTool;
use amplifier_sdk::prelude::*;

use crate::PlanOrchestrator;

/// The agent a child session runs, from the kernel's child id scheme
/// `{parent-span16}-{child-span16}_{agent}`.
fn agent_of(session_id: &str) -> Option<&str> {
    let bytes = session_id.as_bytes();
    (bytes.len() > 34 && bytes[16] == b'-' && bytes[33] == b'_').then(|| &session_id[34..])
}

/// The provider for this agent: the last of its own providers that is
/// mounted, else the preferred one.
async fn provider_for(orch: &PlanOrchestrator, session_id: &str) -> ModuleResult<Option<String>> {
    let Some(agent) = agent_of(session_id) else { return Ok(None) };
    let agents = orch.host.agents().await?;
    let Some(summary) = agents.into_iter().find(|a| a.name == agent) else { return Ok(None) };
    let mounted: Vec<String> = orch.host.providers().await?.into_iter().map(|p| p.name).collect();
    Ok(summary.providers.into_iter().rev().find(|p| mounted.contains(p)))
}

/// Where a completion's messages come from.
pub(crate) enum Conversation {
    /// These, sent with the request.
    Given(Vec<Message>),
    /// The session context's view, which the provider keeps in step
    /// itself: an agent loop's history is not sent on every iteration.
    Context(RequestView),
}

/// One completion, streamed: text deltas are emitted as `content_block:delta`
/// in order, before this returns.
pub(crate) async fn stream_completion(
    orch: &PlanOrchestrator,
    provider: Option<&str>,
    conversation: Conversation,
    tools: Option<Vec<ToolSpec>>,
) -> ModuleResult<ChatResponse> {
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Option<(u64, String)>>();
    let forward = sender.clone();
    let on_event: Arc<dyn Fn(Value) + Send + Sync> = Arc::new(move |delta: Value| {
        if delta.get("type").and_then(Value::as_str) == Some("text") {
            if let Some(text) = delta.get("text").and_then(Value::as_str) {
                let index = delta.get("index").and_then(Value::as_u64).unwrap_or(0);
                let _ = forward.send(Some((index, text.to_owned())));
            }
        }
    });
    let host = orch.host.clone();
    let emitter = tokio::spawn(async move {
        while let Some(Some((index, text))) = receiver.recv().await {
            let data = json!({"block_index": index, "block_type": "text", "delta": text});
            if let Value::Object(data) = data {
                let _ = host.emit(events::CONTENT_BLOCK_DELTA, data).await;
            }
        }
    });
    let request = ChatRequest { tools, stream: Some(true), ..ChatRequest::default() };
    let result = match conversation {
        Conversation::Given(messages) => {
            let request = ChatRequest { messages: messages.into(), ..request };
            orch.host.complete_streaming(provider, request, on_event).await
        }
        Conversation::Context(view) => {
            let context = ContextView { view, ephemeral: Vec::new() };
            orch.host.complete_from_context(provider, request, context, Some(on_event)).await
        }
    };
    let _ = sender.send(None);
    let _ = emitter.await;
    result
}

pub(crate) async fn run(orch: &PlanOrchestrator, session_id: &str, prompt: String) -> ModuleResult<String> {
    let host = &orch.host;
    let submitted = host.dispatch(events::PROMPT_SUBMIT, event_data(json!({"prompt": prompt}))).await?;
    if submitted.is_denied() {
        return Err(ModuleError::new(
            ErrorKind::Abort,
            format!("prompt denied by hook: {}", submitted.reason.unwrap_or_default()),
        ));
    }
    host.add_message(Message::user(prompt)).await?;
    let provider = provider_for(orch, session_id).await?;
    let max = orch.config.specialist_max_iterations.max(1);
    let mut text = String::new();
    for iteration in 1..=max {
        if orch.cancelled().await {
            return Err(ModuleError::cancelled());
        }
        let last = iteration == max;
        host.dispatch(events::PROVIDER_REQUEST, event_data(json!({"provider": provider, "iteration": iteration})))
            .await?;
        let view = RequestView { token_budget: None, provider: provider.clone() };
        let tools = host.tools().await?;
        let tools = (!last && !tools.is_empty()).then_some(tools);
        let response = match stream_completion(orch, provider.as_deref(), Conversation::Context(view), tools).await {
            Ok(response) => response,
            Err(err) => {
                let error = json!({"type": err.kind_name(), "msg": err.message});
                orch.emit(
                    events::PROVIDER_ERROR,
                    json!({"provider": provider, "error": error, "retryable": err.retryable}),
                )
                .await;
                return Err(err);
            }
        };
        let calls = if last { Vec::new() } else { response.parse_tool_calls() };
        orch.emit(
            events::PROVIDER_RESPONSE,
            json!({"provider": provider, "usage": response.usage, "tool_calls": !calls.is_empty()}),
        )
        .await;
        text = response.text();
        host.add_message(Message {
            content: MessageContent::Blocks(response.content.clone()),
            tool_calls: (!calls.is_empty()).then(|| calls.clone()),
            ..Message::new(Role::Assistant, "")
        })
        .await?;
        if calls.is_empty() {
            break;
        }
        for call in &calls {
            let result = run_tool(orch, call).await;
            host.add_message(Message {
                name: Some(call.name.clone()),
                ..Message::tool_result_of(call.id.clone(), &result)
            })
            .await?;
        }
    }
    let preview: String = text.chars().take(200).collect();
    orch.emit(events::PROMPT_COMPLETE, json!({"response_preview": preview, "length": text.len()})).await;
    orch.emit(events::ORCHESTRATOR_COMPLETE, json!({"orchestrator": crate::NAME, "status": "success"})).await;
    Ok(text)
}

/// The call with its hooks, in the kernel as for every agent loop.
/// Ephemeral injections the hooks queue are not used: the specialist's
/// requests carry the context's view alone.
async fn run_tool(orch: &PlanOrchestrator, call: &ToolCall) -> ToolResult {
    let request = HostCallTool {
        name: call.name.clone(),
        input: call.arguments.clone(),
        tool_call_id: Some(call.id.clone()),
        parallel_group_id: None,
    };
    match orch.host.call_tool(request).await {
        Ok(done) => done.result,
        Err(err) => ToolResult::failed_call("HostError", format!("tool '{}' could not run: {err}", call.name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_comes_from_the_child_id() {
        assert_eq!(agent_of("0123456789abcdef-fedcba9876543210_writer"), Some("writer"));
        assert_eq!(agent_of("0123456789abcdef-fedcba9876543210_qa_2"), Some("qa_2"));
        assert_eq!(agent_of("9a1f7c3e-0000-4000-8000-000000000000"), None);
    }
}
