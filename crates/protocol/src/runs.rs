//! Served runs (seed 002's run requests): what a client may ask for, and
//! the ids it may choose. `amplifier serve` checks requests at the door
//! ([`parse_request`]), orchestrator-plan checks ids before it starts a run
//! and the host before it stores a run state, all by this one rule.

use serde_json::{json, Map, Value};

/// A thread or user id: letters, digits, `-`, `_` and `.`, not starting
/// with `.`, at most 128 characters (so it is always a safe file name).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && !id.starts_with('.')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Checks a run request's body, `{mode, objective, constraints?,
/// threadId?, userId?, agent?}`, and fills in its `mode` and `threadId`
/// (`new_thread()` when the client named none). Returns the request and
/// its thread id, or the message for a 400.
pub fn parse_request(body: &[u8], new_thread: impl FnOnce() -> String) -> Result<(Map<String, Value>, String), String> {
    let Ok(Value::Object(mut request)) = serde_json::from_slice::<Value>(body) else {
        return Err(
            "the body must be a JSON object: {mode, objective, constraints?, threadId?, userId?, agent?}".into()
        );
    };
    let mode = request.get("mode").map(|m| m.as_str().unwrap_or("?")).unwrap_or("app").to_owned();
    if mode != "app" && mode != "chat" {
        return Err(format!("`mode` must be \"app\" or \"chat\", not {}", request["mode"]));
    }
    let objective = request.get("objective").or_else(|| request.get("message")).and_then(Value::as_str);
    if objective.is_none_or(|o| o.trim().is_empty()) {
        return Err("`objective` (or `message` in chat mode) must be a non-empty string".into());
    }
    if request.get("constraints").is_some_and(|constraints| !constraints.is_object()) {
        return Err("`constraints` must be an object".into());
    }
    let invalid = |key: &str, value: &Value| {
        format!(
            "`{key}` {value} is not valid: use letters, digits, `-`, `_` and `.` (at most 128, not starting with `.`)"
        )
    };
    let thread = match request.get("threadId") {
        None | Some(Value::Null) => new_thread(),
        Some(Value::String(id)) if valid_id(id) => id.clone(),
        Some(other) => return Err(invalid("threadId", other)),
    };
    match request.get("userId") {
        None | Some(Value::Null) => {}
        Some(Value::String(id)) if valid_id(id) => {}
        Some(other) => return Err(invalid("userId", other)),
    }
    request.insert("threadId".into(), json!(thread));
    request.insert("mode".into(), json!(mode));
    Ok((request, thread))
}

#[cfg(test)]
mod tests {
    use super::parse_request;

    #[test]
    fn requests_are_checked_and_get_a_thread_id() {
        let (request, thread) = parse_request(br#"{"objective": "x"}"#, || "thread_new".into()).unwrap();
        assert_eq!(thread, "thread_new");
        assert_eq!(request["threadId"], "thread_new");
        assert_eq!(request["mode"], "app");
        let (_, thread) =
            parse_request(br#"{"mode": "chat", "message": "hi", "threadId": "t-1"}"#, || unreachable!()).unwrap();
        assert_eq!(thread, "t-1");
        for bad in [
            &b"[]"[..],
            br#"{"objective": ""}"#,
            br#"{"mode": "x", "objective": "o"}"#,
            br#"{"objective": "o", "threadId": "../x"}"#,
            br#"{"objective": "o", "userId": 7}"#,
            br#"{"objective": "o", "constraints": []}"#,
        ] {
            assert!(parse_request(bad, || "t".into()).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn ids_are_safe_file_names() {
        assert!(super::valid_id("run-1_a.b"));
        for bad in ["", ".hidden", "..", "a/b", "a b", "ü", &"x".repeat(129)] {
            assert!(!super::valid_id(bad), "{bad}");
        }
    }
}
