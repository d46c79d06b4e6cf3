//! Canonical event names (upstream's `events.rs::ALL_EVENTS`, plus the host's own).

/// Once per session, before its first prompt is handled (a resumed session has `session:resume`
/// instead).
pub const SESSION_START: &str = "session:start";
/// Instead of `session:start` when a stored session is resumed, its history restored.
pub const SESSION_RESUME: &str = "session:resume";
/// A child session starts (`tool-task`, a router's agent, a plan specialist); its events carry the
/// parent's id.
pub const SESSION_FORK: &str = "session:fork";
pub const SESSION_END: &str = "session:end";
pub const SESSION_CONFIG: &str = "session:config";
/// The prompt `{prompt}`, as an orchestrator starts on it.
pub const PROMPT_SUBMIT: &str = "prompt:submit";
pub const PROMPT_COMPLETE: &str = "prompt:complete";
/// An orchestrator asks a provider for a completion (`purpose: classify` for a router's
/// classifier).
pub const PROVIDER_REQUEST: &str = "provider:request";
/// The completion came back; its usage counts in the run's tokens and cost.
pub const PROVIDER_RESPONSE: &str = "provider:response";
pub const PROVIDER_ERROR: &str = "provider:error";
/// A provider waits before retrying: `{provider, model, attempt, max_retries, delay, retry_after,
/// error_type, error_message, status_code}`.
pub const PROVIDER_RETRY: &str = "provider:retry";
/// The provider's own, as it sends a request: `{provider, model, message_count, tool_count, stream,
/// max_tokens}`.
pub const LLM_REQUEST: &str = "llm:request";
/// The provider's own: `{provider, model, status: ok, duration_ms, usage, finish_reason}`, or
/// `status: error` with `error: {type, msg, status_code}`.
pub const LLM_RESPONSE: &str = "llm:response";
/// Before a streamed block's first delta (`loop-streaming`).
pub const CONTENT_BLOCK_START: &str = "content_block:start";
/// A streamed piece, from the provider: `{provider, block_index, block_type: text or thinking,
/// delta}`, or `{provider, block_type: tool_call, tool_call_index, id?, name?, delta}`.
pub const CONTENT_BLOCK_DELTA: &str = "content_block:delta";
pub const CONTENT_BLOCK_END: &str = "content_block:end";
/// Thinking text as it streams (`loop-streaming`), besides its `content_block:delta`.
pub const THINKING_DELTA: &str = "thinking:delta";
pub const THINKING_FINAL: &str = "thinking:final";
/// Before a tool is chosen to run (loop-events): hooks may deny or change the choice.
pub const TOOL_SELECTING: &str = "tool:selecting";
/// Before a tool runs: hooks may deny the call or rewrite its input.
pub const TOOL_PRE: &str = "tool:pre";
/// After a tool ran: hooks may rewrite its result.
pub const TOOL_POST: &str = "tool:post";
pub const TOOL_ERROR: &str = "tool:error";
/// Before a context compacts a request view to fit its budget.
pub const CONTEXT_PRE_COMPACT: &str = "context:pre_compact";
/// After a context compacted a request view.
pub const CONTEXT_POST_COMPACT: &str = "context:post_compact";
/// The orchestrator finished the prompt: the prompt's last event.
pub const ORCHESTRATOR_COMPLETE: &str = "orchestrator:complete";
/// `loop-streaming`, as a prompt starts: `{prompt}`.
pub const EXECUTION_START: &str = "execution:start";
/// `loop-streaming`, just before `orchestrator:complete`: `{response, status: completed, cancelled
/// or error}`.
pub const EXECUTION_END: &str = "execution:end";
/// loop-streaming: text the user typed during the turn joined the context (`{count, messages}`).
pub const STEERING_INJECTED: &str = "orchestrator:steering_injected";
/// loop-streaming waited before a provider call (`min_delay_between_calls_ms`).
pub const ORCHESTRATOR_RATE_LIMIT_DELAY: &str = "orchestrator:rate_limit_delay";
/// Around an `ask_user` verdict: the question is asked, then answered.
pub const APPROVAL_REQUIRED: &str = "approval:required";
pub const APPROVAL_GRANTED: &str = "approval:granted";
pub const APPROVAL_DENIED: &str = "approval:denied";
pub const USER_NOTIFICATION: &str = "user:notification";
pub const CANCEL_REQUESTED: &str = "cancel:requested";
pub const CANCEL_COMPLETED: &str = "cancel:completed";
pub const MODULE_LOAD_FAILED: &str = "module:load_failed";
/// Ours: an injection refused by the enforced size limit or turn budget.
pub const HOOK_INJECTION_REFUSED: &str = "hook:injection_refused";
