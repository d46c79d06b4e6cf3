//! Canonical event names (upstream's `events.rs::ALL_EVENTS`, plus the host's own).

pub const SESSION_START: &str = "session:start";
pub const SESSION_RESUME: &str = "session:resume";
pub const SESSION_FORK: &str = "session:fork";
pub const SESSION_END: &str = "session:end";
pub const SESSION_CONFIG: &str = "session:config";
pub const PROMPT_SUBMIT: &str = "prompt:submit";
pub const PROMPT_COMPLETE: &str = "prompt:complete";
pub const PROVIDER_REQUEST: &str = "provider:request";
pub const PROVIDER_RESPONSE: &str = "provider:response";
pub const PROVIDER_ERROR: &str = "provider:error";
pub const PROVIDER_RETRY: &str = "provider:retry";
pub const LLM_REQUEST: &str = "llm:request";
pub const LLM_RESPONSE: &str = "llm:response";
pub const CONTENT_BLOCK_START: &str = "content_block:start";
pub const CONTENT_BLOCK_DELTA: &str = "content_block:delta";
pub const CONTENT_BLOCK_END: &str = "content_block:end";
pub const THINKING_DELTA: &str = "thinking:delta";
pub const THINKING_FINAL: &str = "thinking:final";
/// Before a tool is chosen to run (loop-events): hooks may deny or change the choice.
pub const TOOL_SELECTING: &str = "tool:selecting";
pub const TOOL_PRE: &str = "tool:pre";
pub const TOOL_POST: &str = "tool:post";
pub const TOOL_ERROR: &str = "tool:error";
pub const CONTEXT_PRE_COMPACT: &str = "context:pre_compact";
pub const CONTEXT_POST_COMPACT: &str = "context:post_compact";
pub const ORCHESTRATOR_COMPLETE: &str = "orchestrator:complete";
pub const EXECUTION_START: &str = "execution:start";
pub const EXECUTION_END: &str = "execution:end";
/// loop-streaming: text the user typed during the turn joined the context.
pub const STEERING_INJECTED: &str = "orchestrator:steering_injected";
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
