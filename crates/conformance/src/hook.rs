//! A hook's checks (`hook_subscriptions`, `hook_call`) and the event data
//! it is called with: typical data per standard event, empty, malformed.

use amplifier_kernel::events;
use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::loading::HookSubscription;
use amplifier_kernel::models::JsonMap;
use serde_json::{json, Value};

use crate::{is_panic, timed, Checks, Severity, Validation, CHECK_TIMEOUT};

impl Validation<'_> {
    pub(crate) async fn check_hooks(&self, checks: &mut Checks, subscriptions: Vec<HookSubscription>) {
        if subscriptions.is_empty() {
            return checks.fail("hook_subscriptions", Severity::Error, "the hook subscribes to no events");
        }
        let patterns: Vec<String> = subscriptions.iter().map(|s| s.event.clone()).collect();
        checks.pass("hook_subscriptions", format!("subscribes to {}", patterns.join(", ")));
        let mut calls = 0;
        let mut problems = Vec::new();
        let mut actions = Vec::new();
        for subscription in &subscriptions {
            for event in expand_pattern(&subscription.event) {
                for (payload, data) in
                    [("typical", event_data(&event)), ("empty", JsonMap::new()), ("malformed", malformed_data())]
                {
                    calls += 1;
                    let hook_event = HookEvent::new(event.clone(), data);
                    match timed(CHECK_TIMEOUT, subscription.handler.handle(&hook_event)).await {
                        Err(message) => problems.push(format!("{event} ({payload} data): {message}")),
                        Ok(Ok(result)) => {
                            let action =
                                serde_json::to_value(result.action).ok().and_then(|a| a.as_str().map(str::to_owned));
                            if let Some(action) = action.filter(|a| !actions.contains(a)) {
                                actions.push(action);
                            }
                        }
                        Ok(Err(err)) if is_panic(&err) => {
                            problems.push(format!("{event} ({payload} data) panicked: {}", err.message))
                        }
                        // Refusing empty or malformed data with an error is fine: the kernel logs it and goes on.
                        Ok(Err(_)) if payload != "typical" => {}
                        Ok(Err(err)) => problems.push(format!("{event} ({payload} data): {}", err.message)),
                    }
                }
            }
        }
        checks.record(
            "hook_call",
            Severity::Error,
            if problems.is_empty() {
                Ok(format!(
                    "{calls} calls (typical, empty and malformed data) returned a valid HookResult ({})",
                    actions.join(", ")
                ))
            } else {
                Err(format!("{} of {calls} calls failed: {}", problems.len(), problems.join("; ")))
            },
        );
    }
}

/// Standard events a `*` subscription is called with.
const REPRESENTATIVE_EVENTS: &[&str] = &[
    events::SESSION_START,
    events::SESSION_END,
    events::PROMPT_SUBMIT,
    events::PROMPT_COMPLETE,
    events::PROVIDER_REQUEST,
    events::PROVIDER_RESPONSE,
    events::PROVIDER_ERROR,
    events::CONTENT_BLOCK_START,
    events::CONTENT_BLOCK_END,
    events::TOOL_PRE,
    events::TOOL_POST,
    events::TOOL_ERROR,
    events::CONTEXT_PRE_COMPACT,
    events::CONTEXT_POST_COMPACT,
    events::ORCHESTRATOR_COMPLETE,
    events::USER_NOTIFICATION,
    events::CANCEL_REQUESTED,
    events::MODULE_LOAD_FAILED,
];

/// The events a subscription pattern stands for: itself, or the
/// representative standard events it matches.
fn expand_pattern(pattern: &str) -> Vec<String> {
    if pattern == "*" {
        return REPRESENTATIVE_EVENTS.iter().map(|e| (*e).to_owned()).collect();
    }
    let Some(prefix) = pattern.strip_suffix('*') else { return vec![pattern.to_owned()] };
    let matching: Vec<String> =
        REPRESENTATIVE_EVENTS.iter().filter(|e| e.starts_with(prefix)).map(|e| (*e).to_owned()).collect();
    if matching.is_empty() {
        vec![format!("{prefix}validate")]
    } else {
        matching
    }
}

/// Plausible data for `event`, as the kernel and loop-basic send it.
fn event_data(event: &str) -> JsonMap {
    let mut data = json!({
        "session_id": "validate-session",
        "parent_id": null,
        "timestamp": "2025-01-01T00:00:00Z",
    });
    let extra = match event {
        events::PROMPT_SUBMIT => json!({"prompt": "Say hello."}),
        events::PROMPT_COMPLETE => json!({"response_preview": "Hello!", "length": 6}),
        events::PROVIDER_REQUEST => json!({"provider": "validate", "iteration": 1, "max_reached": false}),
        events::PROVIDER_RESPONSE => json!({
            "provider": "validate",
            "usage": {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12},
            "tool_calls": false
        }),
        events::PROVIDER_ERROR => json!({"provider": "validate", "error": {"type": "rate_limit", "msg": "slow down"}}),
        events::TOOL_PRE => json!({
            "tool_name": "echo", "tool_input": {"text": "hi"}, "tool_call_id": "call_1", "parallel_group_id": "1-1"
        }),
        events::TOOL_POST => json!({
            "tool_name": "echo", "tool_input": {"text": "hi"}, "tool_call_id": "call_1", "parallel_group_id": "1-1",
            "result": {"success": true, "output": "hi"}
        }),
        events::TOOL_ERROR => json!({
            "tool_name": "echo", "tool_call_id": "call_1", "error": {"type": "InvalidInput", "msg": "bad input"}
        }),
        events::ORCHESTRATOR_COMPLETE => json!({"orchestrator": "validate", "turn_count": 1, "status": "success"}),
        events::SESSION_END => json!({"status": "completed"}),
        events::CONTEXT_PRE_COMPACT => json!({"message_count": 10, "token_count": 5000}),
        events::CONTEXT_POST_COMPACT => json!({"message_count": 4, "token_count": 900}),
        _ => json!({}),
    };
    if let (Value::Object(data), Value::Object(extra)) = (&mut data, extra) {
        data.extend(extra);
    }
    match data {
        Value::Object(map) => map,
        _ => JsonMap::new(),
    }
}

/// Data of the wrong shapes under the usual keys.
fn malformed_data() -> JsonMap {
    match json!({
        "session_id": 42,
        "prompt": {"not": "a string"},
        "tool_name": ["echo"],
        "tool_input": "not an object",
        "result": 17,
        "usage": "many tokens",
        "data": null,
        "\u{1F600}": [null, {"deep": [[[]]]}],
    }) {
        Value::Object(map) => map,
        _ => JsonMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_expand_to_standard_events() {
        assert_eq!(expand_pattern("tool:pre"), vec!["tool:pre"]);
        assert_eq!(expand_pattern("tool:*"), vec!["tool:pre", "tool:post", "tool:error"]);
        assert!(expand_pattern("*").len() > 10);
        assert_eq!(expand_pattern("custom:*"), vec!["custom:validate"]);
    }
}
