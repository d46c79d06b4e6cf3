//! A tool call with its hooks, written once for every caller: an agent
//! loop in a plugin (the `tool.call` host op) and the host's front ends
//! that run tools for someone else (`amplifier mcp-server`), so a hook that
//! denies, rewrites or redacts a tool call applies whoever asks.

use serde_json::{json, Value};

use crate::coordinator::Coordinator;
use crate::events;
use crate::models::{HookAction, JsonMap, ToolResult};
use crate::ops::{HostCallTool, ToolCallOutcome};

impl Coordinator {
    /// Upstream's loop-basic order: `tool:pre` (a deny answers in place of
    /// the tool; the input the hooks left is what runs), the call
    /// ([`Self::execute_tool`]), then `tool:error` for a call that failed
    /// (no such tool, a timeout, a plugin fault) or `tool:post`, whose hooks
    /// may replace the result. A tool's own `success: false` is a result
    /// like any other.
    pub async fn call_tool(&self, call: HostCallTool) -> ToolCallOutcome {
        let HostCallTool { name, input, tool_call_id, parallel_group_id } = call;
        let event = |fields: Value| {
            let Value::Object(mut data) = fields else { unreachable!("json! object") };
            if let Some(id) = &tool_call_id {
                data.insert("tool_call_id".to_owned(), json!(id));
            }
            if let Some(group) = &parallel_group_id {
                data.insert("parallel_group_id".to_owned(), json!(group));
            }
            data
        };
        let pre = self.dispatch(events::TOOL_PRE, event(json!({"tool_name": name, "tool_input": input}))).await;
        let mut injections = pre.ephemeral_injections;
        if pre.action == HookAction::Deny {
            let reason = pre.reason.unwrap_or_default();
            let result = ToolResult::error("Denied", format!("Denied by hook: {reason}"));
            return ToolCallOutcome { result, ephemeral_injections: injections };
        }
        // A `modify` shows in the data the hooks left: the kernel folds it
        // into `continue` with the changed data, as upstream does.
        let input = pre.data.and_then(|mut data| data.remove("tool_input")).unwrap_or(input);
        let mut result = self.execute_tool(&name, input.clone(), tool_call_id.as_deref()).await;
        if result.is_failed_call() {
            let kind = result.error.as_ref().and_then(|e| e.get("type")).cloned();
            let error = json!({"type": kind, "msg": result.serialized_output()});
            self.emit(events::TOOL_ERROR, event(json!({"tool_name": name, "error": error}))).await;
            return ToolCallOutcome { result, ephemeral_injections: injections };
        }
        let post = event(json!({"tool_name": name, "tool_input": input, "result": result}));
        let post = self.dispatch(events::TOOL_POST, post).await;
        if let Some(left) = post.data.as_ref().and_then(|data: &JsonMap| data.get("result")) {
            result = replaced_result(result, left);
        }
        injections.extend(post.ephemeral_injections);
        ToolCallOutcome { result, ephemeral_injections: injections }
    }
}

/// What a `tool:post` hook left as `result`: a result of the same shape
/// replaces the tool's, and any other value is the output the model sees
/// (upstream's modify may put anything there).
fn replaced_result(original: ToolResult, left: &Value) -> ToolResult {
    if serde_json::to_value(&original).is_ok_and(|value| value == *left) {
        return original;
    }
    if left.get("success").is_some_and(Value::is_boolean) {
        if let Ok(replaced) = serde_json::from_value::<ToolResult>(left.clone()) {
            return replaced;
        }
    }
    ToolResult::ok(left.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_post_hook_may_replace_the_result_with_any_value() {
        let original = ToolResult::ok(json!("42"));
        assert_eq!(replaced_result(original.clone(), &json!({"success": true, "output": "42"})), original);
        let failed = replaced_result(original.clone(), &json!({"success": false, "error": {"message": "no"}}));
        assert!(!failed.success);
        assert_eq!(replaced_result(original.clone(), &json!("[redacted]")).serialized_output(), "[redacted]");
        let any = replaced_result(original, &json!({"answer": 42}));
        assert!(any.success);
        assert_eq!(any.output, Some(json!({"answer": 42})));
    }
}
