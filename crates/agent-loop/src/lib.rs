//! The agent loop of the `loop-*` orchestrator plugins: upstream Amplifier's
//! reference loop, with the variations its family of loops has.
//!
//! Per prompt: `prompt:submit`, then per iteration `provider:request`, one
//! completion, `provider:response`; the requested tools run (`tool:pre` may
//! deny or rewrite a call, `tool:post` may rewrite a result) and their
//! results join the context in call order; the loop ends when the model
//! answers without tools (`prompt:complete`, `orchestrator:complete`).
//! Ephemeral hook injections go into the next request only, never the context.
//!
//! [`Style`] is what differs between the plugins: `loop-basic` runs a
//! turn's tools in parallel; `loop-events` runs them one at a time and asks
//! hooks first with `tool:selecting`, which may deny the choice or change
//! the tool or its input; `loop-streaming` streams tokens as
//! `content_block:start/delta` and `thinking:delta`, brackets the turn with
//! `execution:start/end`, and takes steering: what the user typed while the
//! turn ran (the kernel's queue, `session.steering_take`) joins the context
//! as user messages at the next iteration, and a turn that would end with
//! steering waiting goes on for one more answer.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

use amplifier_sdk::ops::{ContextView, EphemeralInjection, HookOutcome, HostCallTool};
use amplifier_sdk::prelude::*;
use amplifier_sdk::{events, HookAction};
use serde::Deserialize;

/// Upstream's, word for word.
const FINAL_ANSWER_REMINDER: &str = "<system-reminder source=\"orchestrator-loop-limit\">
You have reached the maximum number of iterations for this turn. Please provide a response to the user now, \
summarizing your progress and noting what remains to be done. You can continue in the next turn if needed.

DO NOT mention this iteration limit or reminder to the user explicitly. Simply wrap up naturally.
</system-reminder>";

#[derive(Debug, Deserialize)]
struct Config {
    #[serde(default = "unlimited")]
    max_iterations: i64,
    #[serde(default)]
    default_provider: Option<String>,
    #[serde(default)]
    extended_thinking: bool,
    #[serde(default)]
    reasoning_effort: Option<String>,
    /// Least time from the end of one provider call to the start of the
    /// next within a prompt (upstream loop-streaming's rate limit).
    #[serde(default)]
    min_delay_between_calls_ms: u64,
}

fn unlimited() -> i64 {
    -1
}

/// What distinguishes one loop plugin from another.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// The plugin's name, in `orchestrator:complete`.
    pub name: &'static str,
    /// One tool at a time, each preceded by `tool:selecting`.
    pub select_each_tool: bool,
    /// Ask for streamed completions and emit each text or thinking piece as
    /// `content_block:delta` while it arrives.
    pub stream: bool,
    /// `execution:start` and `execution:end` around each prompt.
    pub execution_events: bool,
    /// Take steering messages at iteration boundaries (and say so with the
    /// `session.steer` capability).
    pub steering: bool,
}

/// `loop-basic`: tools in parallel.
pub const BASIC: Style =
    Style { name: "loop-basic", select_each_tool: false, stream: false, execution_events: false, steering: false };
/// `loop-events`: `tool:selecting` before each tool, one at a time.
pub const EVENTS: Style =
    Style { name: "loop-events", select_each_tool: true, stream: false, execution_events: false, steering: false };
/// `loop-streaming`: tokens as they arrive, tools in parallel, steering.
pub const STREAMING: Style =
    Style { name: "loop-streaming", select_each_tool: false, stream: true, execution_events: true, steering: true };

const STEERING_LIMIT: usize = 100;

pub struct AgentLoop {
    host: Host,
    config: Config,
    style: Style,
    /// Prompts run so far, for unique `parallel_group_id`s.
    prompts: AtomicU64,
}

impl AgentLoop {
    async fn provider_name(&self) -> ModuleResult<String> {
        if let Some(name) = &self.config.default_provider {
            return Ok(name.clone());
        }
        let providers = self.host.providers().await?;
        providers
            .first()
            .map(|p| p.name.clone())
            .ok_or_else(|| ModuleError::new(ErrorKind::NotFound, "no provider is mounted"))
    }

    /// The turn's last events: `execution:end` (for the styles that emit
    /// it), then `orchestrator:complete`, last as the contract requires.
    async fn complete_event(&self, turn_count: u64, status: &str, response: Option<&str>) -> ModuleResult<()> {
        if self.style.execution_events {
            let outcome = match status {
                "success" | "incomplete" => "completed",
                "cancelled" => "cancelled",
                _ => "error",
            };
            let end = json!({"response": response, "status": outcome});
            self.host.emit(events::EXECUTION_END, event_data(end)).await?;
        }
        let payload = json!({"orchestrator": self.style.name, "turn_count": turn_count, "status": status});
        self.host.emit(events::ORCHESTRATOR_COMPLETE, event_data(payload)).await.map(drop)
    }

    /// A `prompt:submit` or `provider:request` hook denied the turn: its
    /// answer is upstream's "Operation denied: …", not a failed run.
    async fn denied(&self, turns: u64, reason: Option<String>) -> ModuleResult<String> {
        let text = format!("Operation denied: {}", reason.unwrap_or_default());
        self.complete_event(turns, "denied", Some(&text)).await?;
        Ok(text)
    }

    /// Waits out what is left of `min_delay_between_calls_ms` since the
    /// previous call ended (tools running in between count), saying so.
    async fn rate_limit(&self, last_call_end: Option<std::time::Instant>) -> ModuleResult<()> {
        let minimum = std::time::Duration::from_millis(self.config.min_delay_between_calls_ms);
        let Some(remaining) = last_call_end.and_then(|end| minimum.checked_sub(end.elapsed())) else { return Ok(()) };
        if remaining.is_zero() {
            return Ok(());
        }
        let delay = json!({"delay_ms": remaining.as_millis() as u64, "min_delay_ms": minimum.as_millis() as u64});
        self.host.emit(events::ORCHESTRATOR_RATE_LIMIT_DELAY, event_data(delay)).await?;
        tokio::time::sleep(remaining).await;
        Ok(())
    }

    /// Steering typed since the last look joins the context as user
    /// messages; returns how many did.
    async fn take_steering(&self) -> ModuleResult<usize> {
        if !self.style.steering {
            return Ok(0);
        }
        let messages = self.host.take_steering().await?;
        for text in &messages {
            self.host.add_message(Message::user(text.clone())).await?;
        }
        if !messages.is_empty() {
            let injected = json!({"count": messages.len(), "messages": messages});
            self.host.emit(events::STEERING_INJECTED, event_data(injected)).await?;
        }
        Ok(messages.len())
    }

    async fn run(&self, prompt: String) -> ModuleResult<String> {
        let prompt_no = self.prompts.fetch_add(1, Ordering::Relaxed) + 1;
        if self.style.steering {
            // Upstream's capability name; the value says how many may wait.
            let capability = json!({"orchestrator": self.style.name, "limit": STEERING_LIMIT});
            self.host.register_capability(amplifier_sdk::capabilities::STEER, capability).await?;
        }
        if self.style.execution_events {
            self.host.emit(events::EXECUTION_START, event_data(json!({"prompt": prompt}))).await?;
        }
        let submitted = self.host.dispatch(events::PROMPT_SUBMIT, event_data(json!({"prompt": prompt}))).await?;
        if submitted.is_denied() {
            return self.denied(0, submitted.reason).await;
        }
        // A turn taken over from a worker that died: the history already holds its prompt.
        let resumed = self.host.capability(amplifier_sdk::capabilities::RESUMED_TURN).await?;
        if resumed.as_ref().and_then(Value::as_str) != Some(prompt.as_str()) {
            self.host.add_message(Message::user(prompt)).await?;
        }
        let provider = self.provider_name().await?;
        let mut ephemeral = submitted.ephemeral_injections;
        let mut iteration: u64 = 0;
        let mut last_call_end: Option<std::time::Instant> = None;
        loop {
            iteration += 1;
            let cancellation = self.host.session_info().await?.cancellation;
            if cancellation != "none" {
                // As upstream's loops: the orchestrator announces the cancel it acts on.
                let state =
                    json!({"orchestrator": self.style.name, "state": cancellation, "turn_count": iteration - 1});
                self.host.emit(events::CANCEL_REQUESTED, event_data(state)).await?;
                let done = json!({"orchestrator": self.style.name, "was_immediate": cancellation == "immediate", "turn_count": iteration - 1});
                self.host.emit(events::CANCEL_COMPLETED, event_data(done)).await?;
                self.complete_event(iteration - 1, "cancelled", None).await?;
                return Err(ModuleError::cancelled());
            }
            self.take_steering().await?;
            let limit_reached = self.config.max_iterations >= 0 && iteration > self.config.max_iterations as u64;
            let request_event = json!({"provider": provider, "iteration": iteration, "max_reached": limit_reached});
            let requested = self.host.dispatch(events::PROVIDER_REQUEST, event_data(request_event)).await?;
            if requested.is_denied() {
                return self.denied(iteration - 1, requested.reason).await;
            }
            ephemeral.extend(requested.ephemeral_injections);
            if limit_reached {
                // Upstream's reminder: a user message in this request only.
                ephemeral.push(EphemeralInjection {
                    content: FINAL_ANSWER_REMINDER.to_owned(),
                    role: InjectionRole::User,
                    append_to_last_tool_result: false,
                });
            }
            // The request's messages are the context's view: the provider
            // keeps its copy of it in step, so the history is not sent again.
            let context = ContextView {
                view: RequestView { token_budget: None, provider: Some(provider.clone()) },
                ephemeral: std::mem::take(&mut ephemeral),
            };
            // Read every iteration: modules may mount tools while a turn runs.
            let tools = self.host.tools().await?;
            let request = ChatRequest {
                // The last call keeps the tools, as upstream's: a request
                // whose history holds tool calls but no tools confuses models.
                tools: (!tools.is_empty()).then_some(tools),
                reasoning_effort: self.config.reasoning_effort.clone(),
                metadata: self.config.extended_thinking.then(|| event_data(json!({"extended_thinking": true}))),
                ..ChatRequest::default()
            };
            self.rate_limit(last_call_end).await?;
            let mut started = HashSet::new();
            let completion = if self.style.stream {
                self.complete_streaming(&provider, request, context, &mut started).await
            } else {
                self.host.complete_from_context(Some(&provider), request, context, None).await
            };
            let response = match completion {
                Ok(response) => {
                    last_call_end = Some(std::time::Instant::now());
                    response
                }
                Err(err) => {
                    let error = json!({"type": err.kind_name(), "msg": err.message});
                    let payload = json!({"provider": provider, "error": error, "retryable": err.retryable, "status_code": err.status_code});
                    self.host.emit(events::PROVIDER_ERROR, event_data(payload)).await?;
                    self.complete_event(iteration, "error", None).await?;
                    return Err(err);
                }
            };
            // The wrap-up call's tool calls are not run, so not kept either:
            // a call without its result would make the history invalid.
            let tool_calls = if limit_reached { Vec::new() } else { response.parse_tool_calls() };
            let content: Vec<ContentBlock> = match limit_reached {
                true => {
                    response.content.iter().filter(|b| !matches!(b, ContentBlock::ToolCall { .. })).cloned().collect()
                }
                false => response.content.clone(),
            };
            let response_event =
                json!({"provider": provider, "usage": response.usage, "tool_calls": !tool_calls.is_empty()});
            let answered = self.host.dispatch(events::PROVIDER_RESPONSE, event_data(response_event)).await?;
            ephemeral.extend(answered.ephemeral_injections);
            self.emit_content_blocks(&response, &started).await?;
            self.host
                .add_message(Message {
                    content: MessageContent::Blocks(content),
                    tool_calls: (!tool_calls.is_empty()).then(|| tool_calls.clone()),
                    // A provider's state across steps (reasoning items) rides here.
                    metadata: response.metadata.clone(),
                    ..Message::new(Role::Assistant, "")
                })
                .await?;

            // A final answer with steering waiting is not the end: the
            // model answers what the user added.
            if tool_calls.is_empty() && !limit_reached && self.take_steering().await? > 0 {
                continue;
            }
            if tool_calls.is_empty() || limit_reached {
                let text = response.text();
                let preview: String = text.chars().take(200).collect();
                self.host
                    .emit(
                        events::PROMPT_COMPLETE,
                        event_data(json!({"response_preview": preview, "length": text.len()})),
                    )
                    .await?;
                // At the limit, the wrap-up call is not an iteration of its own
                // (upstream reports max_iterations), and an answer is a success.
                let (turns, status) = match limit_reached {
                    false => (iteration, "success"),
                    true if text.trim().is_empty() => (iteration - 1, "incomplete"),
                    true => (iteration - 1, "success"),
                };
                self.complete_event(turns, status, Some(&text)).await?;
                return Ok(text);
            }

            let group = format!("{prompt_no}-{iteration}");
            let results = if self.style.select_each_tool {
                let mut results = Vec::with_capacity(tool_calls.len());
                for call in &tool_calls {
                    results.push(self.select_and_run_tool(call, &group).await);
                }
                results
            } else {
                futures::future::join_all(tool_calls.iter().map(|call| self.run_tool(call, &group))).await
            };
            for (call, (result, injections)) in tool_calls.iter().zip(results) {
                ephemeral.extend(injections);
                self.host
                    .add_message(Message {
                        name: Some(call.name.clone()),
                        ..Message::tool_result_of(call.id.clone(), &result)
                    })
                    .await?;
            }
        }
    }

    /// A streamed completion whose text and thinking pieces are emitted as
    /// `content_block:delta` (thinking also as `thinking:delta`) in arrival
    /// order, all before this returns; each block's first piece is preceded
    /// by its `content_block:start`, and its index is added to `started`.
    async fn complete_streaming(
        &self,
        provider: &str,
        mut request: ChatRequest,
        context: ContextView,
        started: &mut HashSet<u64>,
    ) -> ModuleResult<ChatResponse> {
        use futures::StreamExt;
        request.stream = Some(true);
        // The host calls back synchronously; events are emitted from here, in order.
        let (sender, mut deltas) = futures::channel::mpsc::unbounded::<Option<Value>>();
        let forward = sender.clone();
        let on_event: std::sync::Arc<dyn Fn(Value) + Send + Sync> = std::sync::Arc::new(move |delta| {
            let _ = forward.unbounded_send(Some(delta));
        });
        let complete = async {
            let result = self.host.complete_from_context(Some(provider), request, context, Some(on_event)).await;
            let _ = sender.unbounded_send(None);
            result
        };
        let relay = async {
            while let Some(Some(delta)) = deltas.next().await {
                let block_type = match delta.get("type").and_then(Value::as_str) {
                    Some(kind @ ("text" | "thinking")) => kind.to_owned(),
                    // The provider left these to us, as it leaves every piece to a streaming caller.
                    Some("tool_call") => {
                        let mut event = json!({
                            "provider": provider,
                            "block_type": "tool_call",
                            "tool_call_index": delta.get("index"),
                            "delta": delta.get("arguments").cloned().unwrap_or_default(),
                        });
                        for key in ["id", "name"] {
                            if let (Some(value), Some(event)) = (delta.get(key), event.as_object_mut()) {
                                event.insert(key.to_owned(), value.clone());
                            }
                        }
                        let _ = self.host.emit(events::CONTENT_BLOCK_DELTA, event_data(event)).await;
                        continue;
                    }
                    _ => continue,
                };
                let index = delta.get("index").and_then(Value::as_u64).unwrap_or(0);
                let text = delta.get("text").cloned().unwrap_or_default();
                // A lost delta must not fail the turn: the final answer still carries the text.
                if started.insert(index) {
                    let start = json!({"block_type": block_type, "block_index": index});
                    let _ = self.host.emit(events::CONTENT_BLOCK_START, event_data(start)).await;
                }
                if block_type == "thinking" {
                    let thinking = json!({"block_index": index, "text": text});
                    let _ = self.host.emit(events::THINKING_DELTA, event_data(thinking)).await;
                }
                let event =
                    json!({"provider": provider, "block_index": index, "block_type": block_type, "delta": text});
                let _ = self.host.emit(events::CONTENT_BLOCK_DELTA, event_data(event)).await;
            }
        };
        futures::join!(complete, relay).0
    }

    /// `content_block:end` for each block of the response, preceded by its
    /// `content_block:start` unless streaming already sent that.
    async fn emit_content_blocks(&self, response: &ChatResponse, started: &HashSet<u64>) -> ModuleResult<()> {
        let total = response.content.len();
        for (index, block) in response.content.iter().enumerate() {
            let block_type = serde_json::to_value(block).ok().and_then(|v| v.get("type").cloned());
            if !started.contains(&(index as u64)) {
                let start = json!({"block_type": block_type, "block_index": index, "total_blocks": total});
                self.host.emit(events::CONTENT_BLOCK_START, event_data(start)).await?;
            }
            let end = json!({"block_index": index, "total_blocks": total, "block": block});
            self.host.emit(events::CONTENT_BLOCK_END, event_data(end)).await?;
        }
        Ok(())
    }

    /// `tool:selecting` first: a hook may deny the choice, or modify it
    /// (`tool_name`, `tool_input`); then the call runs as [`Self::run_tool`].
    async fn select_and_run_tool(&self, call: &ToolCall, group: &str) -> (ToolResult, Vec<EphemeralInjection>) {
        let selecting = json!({"tool_name": call.name, "tool_input": call.arguments, "tool_call_id": call.id, "parallel_group_id": group});
        let outcome: HookOutcome = match self.host.dispatch(events::TOOL_SELECTING, event_data(selecting)).await {
            Ok(outcome) => outcome,
            Err(err) => {
                let message = format!("tool '{}' could not be selected: {err}", call.name);
                return (ToolResult::failed_call("HostError", message), Vec::new());
            }
        };
        if outcome.action == HookAction::Deny {
            let reason = outcome.reason.unwrap_or_default();
            return (ToolResult::error("Denied", format!("Denied by hook: {reason}")), outcome.ephemeral_injections);
        }
        // The event's data as the hooks left it: a `modify` shows there (the
        // kernel folds it into `continue` with the changed data, as upstream).
        let mut chosen = call.clone();
        let left = outcome.data.as_ref();
        if let Some(name) = left.and_then(|d| d.get("tool_name")).and_then(Value::as_str) {
            chosen.name = name.to_owned();
        }
        if let Some(input) = left.and_then(|d| d.get("tool_input")) {
            chosen.arguments = input.clone();
        }
        let (result, mut injections) = self.run_tool(&chosen, group).await;
        let mut all = outcome.ephemeral_injections;
        all.append(&mut injections);
        (result, all)
    }

    /// Runs one tool call with its hooks; returns the result and any
    /// ephemeral injections the hooks queued for the next request.
    async fn run_tool(&self, call: &ToolCall, group: &str) -> (ToolResult, Vec<EphemeralInjection>) {
        match self.try_run_tool(call, group).await {
            Ok(done) => done,
            Err(err) => {
                (ToolResult::failed_call("HostError", format!("tool '{}' could not run: {err}", call.name)), Vec::new())
            }
        }
    }

    /// `tool:pre`, the call and `tool:post` run in the kernel (the
    /// `tool.call` host op), the same for every caller.
    async fn try_run_tool(&self, call: &ToolCall, group: &str) -> ModuleResult<(ToolResult, Vec<EphemeralInjection>)> {
        let call = HostCallTool {
            name: call.name.clone(),
            input: call.arguments.clone(),
            tool_call_id: Some(call.id.clone()),
            parallel_group_id: Some(group.to_owned()),
        };
        let done = self.host.call_tool(call).await?;
        Ok((done.result, done.ephemeral_injections))
    }
}

impl Orchestrator for AgentLoop {
    async fn execute(&self, prompt: String) -> ModuleResult<String> {
        self.run(prompt).await
    }
}

/// The loop a plugin of `style` mounts.
pub fn mount(ctx: MountContext, style: Style) -> ModuleResult<AgentLoop> {
    Ok(AgentLoop { config: ctx.config()?, host: ctx.host, style, prompts: AtomicU64::new(0) })
}
