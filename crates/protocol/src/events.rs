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
/// After a tool ran: hooks may rewrite its result. A tool's own
/// `success: false` answer comes here too.
pub const TOOL_POST: &str = "tool:post";
/// A call that failed outside the tool's answer: no such tool, refused
/// input, a timeout, a cancel, a plugin fault (`ToolResult::failed_call`).
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

/// orchestrator-plan, as a run starts (`{threadId, mode, …}`).
pub const PLAN_START: &str = "plan:start";
/// Upstream's; nothing here emits it yet.
pub const PLAN_END: &str = "plan:end";
/// provider-anthropic waits before a request: the last reply's rate limits
/// ran low (`{provider, model, reason, dimension, remaining, limit, ratio, delay, reset_timestamp}`).
pub const PROVIDER_THROTTLE: &str = "provider:throttle";
/// A provider filled in tool results missing from the history it was sent
/// (`{provider, repair_count, repairs}`).
pub const PROVIDER_TOOL_SEQUENCE_REPAIRED: &str = "provider:tool_sequence_repaired";
/// Upstream's; nothing here emits it yet.
pub const PROVIDER_RESOLVE: &str = "provider:resolve";
/// provider-openai (upstream's too): the server no longer had the response a
/// chained request named; the request went again, whole
/// (`{provider, model, previous_response_id, error}`).
pub const PROVIDER_RESPONSE_CHAIN_INVALIDATED: &str = "provider:response_chain_invalidated";
/// context-core compacted the history to fit its budget (upstream's fields).
pub const CONTEXT_COMPACTION: &str = "context:compaction";
/// Upstream's; nothing here emits it yet.
pub const CONTEXT_INCLUDE: &str = "context:include";
/// Upstream's; nothing here emits it yet.
pub const ARTIFACT_WRITE: &str = "artifact:write";
/// Upstream's; nothing here emits it yet.
pub const ARTIFACT_READ: &str = "artifact:read";
/// Upstream's; nothing here emits it yet.
pub const POLICY_VIOLATION: &str = "policy:violation";
/// A module's `on_session_ready` failed; the session went on (`{module_id, error}`).
pub const MODULE_ON_SESSION_READY_FAILED: &str = "module:on_session_ready_failed";

/// Upstream's `ALL_EVENTS` (amplifier-core 1.6's 42, in its order) and
/// 2.0's `module:load_failed`: what a hook that wants every canonical
/// event subscribes to.
pub const ALL_EVENTS: &[&str] = &[
    SESSION_START,
    SESSION_END,
    SESSION_FORK,
    SESSION_RESUME,
    PROMPT_SUBMIT,
    PROMPT_COMPLETE,
    PLAN_START,
    PLAN_END,
    PROVIDER_REQUEST,
    PROVIDER_RESPONSE,
    PROVIDER_RETRY,
    PROVIDER_ERROR,
    PROVIDER_THROTTLE,
    PROVIDER_TOOL_SEQUENCE_REPAIRED,
    PROVIDER_RESOLVE,
    LLM_REQUEST,
    LLM_RESPONSE,
    CONTENT_BLOCK_START,
    CONTENT_BLOCK_DELTA,
    CONTENT_BLOCK_END,
    THINKING_DELTA,
    THINKING_FINAL,
    TOOL_PRE,
    TOOL_POST,
    TOOL_ERROR,
    CONTEXT_PRE_COMPACT,
    CONTEXT_POST_COMPACT,
    CONTEXT_COMPACTION,
    CONTEXT_INCLUDE,
    ORCHESTRATOR_COMPLETE,
    EXECUTION_START,
    EXECUTION_END,
    USER_NOTIFICATION,
    ARTIFACT_WRITE,
    ARTIFACT_READ,
    POLICY_VIOLATION,
    APPROVAL_REQUIRED,
    APPROVAL_GRANTED,
    APPROVAL_DENIED,
    CANCEL_REQUESTED,
    CANCEL_COMPLETED,
    MODULE_ON_SESSION_READY_FAILED,
    MODULE_LOAD_FAILED,
];

/// The events of this host and its standard modules that upstream's list
/// lacks (upstream's modules declare theirs as `observability.events`).
pub const HOST_EVENTS: &[&str] = &[
    SESSION_CONFIG,
    TOOL_SELECTING,
    STEERING_INJECTED,
    ORCHESTRATOR_RATE_LIMIT_DELAY,
    HOOK_INJECTION_REFUSED,
    PROVIDER_RESPONSE_CHAIN_INVALIDATED,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// amplifier-core's `crates/amplifier-core/src/events.rs` at 7a47143, in order.
    const UPSTREAM: [&str; 42] = [
        "session:start",
        "session:end",
        "session:fork",
        "session:resume",
        "prompt:submit",
        "prompt:complete",
        "plan:start",
        "plan:end",
        "provider:request",
        "provider:response",
        "provider:retry",
        "provider:error",
        "provider:throttle",
        "provider:tool_sequence_repaired",
        "provider:resolve",
        "llm:request",
        "llm:response",
        "content_block:start",
        "content_block:delta",
        "content_block:end",
        "thinking:delta",
        "thinking:final",
        "tool:pre",
        "tool:post",
        "tool:error",
        "context:pre_compact",
        "context:post_compact",
        "context:compaction",
        "context:include",
        "orchestrator:complete",
        "execution:start",
        "execution:end",
        "user:notification",
        "artifact:write",
        "artifact:read",
        "policy:violation",
        "approval:required",
        "approval:granted",
        "approval:denied",
        "cancel:requested",
        "cancel:completed",
        "module:on_session_ready_failed",
    ];

    #[test]
    fn all_events_is_upstreams_list_then_module_load_failed() {
        assert_eq!(ALL_EVENTS[..42], UPSTREAM);
        assert_eq!(ALL_EVENTS[42..], [MODULE_LOAD_FAILED]);
    }

    #[test]
    fn every_name_here_is_canonical_or_ours_and_none_twice() {
        let names: Vec<&str> = include_str!("events.rs")
            .lines()
            .filter_map(|line| line.trim().strip_prefix("pub const ")?.split_once(": &str = \"")?.1.strip_suffix("\";"))
            .collect();
        assert!(names.len() >= ALL_EVENTS.len() + HOST_EVENTS.len());
        for name in &names {
            assert!(ALL_EVENTS.contains(name) != HOST_EVENTS.contains(name), "{name}: in exactly one list");
        }
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "a name defined twice");
    }
}
