//! What every wire format reads alike in a reply, and writes alike in a
//! request.

use amplifier_sdk::{json, JsonMap, ToolSpec, Value};

/// A tool's wire spec (an object), with the tool's description added when
/// it has one.
pub fn described(tool: &ToolSpec, mut spec: Value) -> Value {
    if let Some(description) = &tool.description {
        spec["description"] = json!(description);
    }
    spec
}

/// The reply's `model` and `id` (as `response_id`), from a whole response or
/// the stream event that starts one; `None` when it has neither.
pub fn metadata(body: &Value) -> Option<JsonMap> {
    let mut metadata = JsonMap::new();
    if let Some(model) = body.get("model").and_then(Value::as_str) {
        metadata.insert("model".into(), json!(model));
    }
    if let Some(id) = body.get("id").and_then(Value::as_str) {
        metadata.insert("response_id".into(), json!(id));
    }
    (!metadata.is_empty()).then_some(metadata)
}

/// Tool-call arguments sent as JSON text: the JSON they hold, `{}` when
/// empty, the raw text when it is not JSON (the host's schema check then
/// tells the model).
pub fn tool_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return json!({});
    }
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_names_model_and_response_id() {
        let metadata = metadata(&json!({"id": "r1", "model": "m", "other": 1})).unwrap();
        assert_eq!(Value::Object(metadata), json!({"model": "m", "response_id": "r1"}));
        assert!(super::metadata(&json!({"object": "list"})).is_none());
    }

    #[test]
    fn tool_arguments_are_json_an_empty_object_or_the_raw_text() {
        assert_eq!(tool_arguments("{\"x\": 1}"), json!({"x": 1}));
        assert_eq!(tool_arguments(" "), json!({}));
        assert_eq!(tool_arguments("{\"x\""), json!("{\"x\""));
    }
}
