//! The wire format both ends speak (the hub in `tool-services`, services
//! built with this SDK): every frame is a JSON object
//! `{id, type, timestamp, content}` (plus `requestId` on replies and `taskId`
//! where a task is concerned).

use serde_json::{json, Map, Value};
use time::format_description::well_known::iso8601::{Config, EncodedConfig, Iso8601, TimePrecision};
use time::OffsetDateTime;

/// Message types, orchestrator → service.
pub mod out {
    pub const WELCOME: &str = "orchestrator.welcome";
    pub const REGISTERED: &str = "service.registered";
    pub const TASK_EXECUTE: &str = "service.task.execute";
    pub const NOTIFICATION_RECEIVED: &str = "notification.received";
    pub const STATUS_UPDATED: &str = "service.status.updated";
    pub const PING: &str = "ping";
    pub const PONG: &str = "pong";
    pub const ERROR: &str = "error";
    /// The answer to a service's `service.task.request`.
    pub const TASK_RESPONSE: &str = "service.task.response";
}

/// Message types, service → orchestrator.
pub mod inbound {
    pub const REGISTER: &str = "service.register";
    pub const TASK_RESULT: &str = "service.task.result";
    pub const TASK_NOTIFICATION: &str = "service.task.notification";
    pub const STATUS: &str = "service.status";
    /// The reference implementation's spelling of `service.status`; accepted too.
    pub const STATUS_ALIAS: &str = "service.status.update";
    pub const NOTIFICATION: &str = "service.notification";
    pub const ERROR: &str = "service.error";
    pub const PING: &str = "ping";
    pub const PONG: &str = "pong";
    /// A service asks the hub to run another service's tool.
    pub const TASK_REQUEST: &str = "service.task.request";
}

/// Error codes the hub sends in `error` frames and puts in failed tool results.
pub mod code {
    pub const INVALID_JSON: &str = "INVALID_JSON";
    pub const INVALID_MESSAGE: &str = "INVALID_MESSAGE";
    pub const UNSUPPORTED_MESSAGE_TYPE: &str = "UNSUPPORTED_MESSAGE_TYPE";
    pub const MESSAGE_TOO_LARGE: &str = "MESSAGE_TOO_LARGE";
    pub const INVALID_REGISTRATION: &str = "INVALID_REGISTRATION";
    pub const ALREADY_REGISTERED: &str = "ALREADY_REGISTERED";
    pub const TOOL_NAME_CONFLICT: &str = "TOOL_NAME_CONFLICT";
    pub const MOUNT_FAILED: &str = "MOUNT_FAILED";
    pub const NOT_REGISTERED: &str = "NOT_REGISTERED";
    pub const INVALID_STATUS: &str = "INVALID_STATUS";
    pub const INVALID_NOTIFICATION: &str = "INVALID_NOTIFICATION";
    pub const UNKNOWN_TASK: &str = "UNKNOWN_TASK";
    pub const NOT_FOUND: &str = "NOT_FOUND";
    pub const SERVICE_UNAVAILABLE: &str = "SERVICE_UNAVAILABLE";
    pub const SERVICE_DISCONNECTED: &str = "SERVICE_DISCONNECTED";
    pub const BUSY: &str = "BUSY";
    pub const TIMEOUT: &str = "TIMEOUT";
    pub const CANCELLED: &str = "CANCELLED";
    pub const TASK_FAILED: &str = "TASK_FAILED";
    pub const SERVICE_ERROR: &str = "SERVICE_ERROR";
    pub const SHUTDOWN: &str = "SHUTDOWN";
}

/// The protocol version announced in `orchestrator.welcome`.
pub const PROTOCOL_VERSION: &str = "1.0.0";

/// The notification types of `service.task.notification` and `service.notification`.
pub const NOTIFICATION_TYPES: [&str; 8] =
    ["progress", "info", "warning", "error", "debug", "started", "completed", "failed"];

/// A fresh message id.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// `2023-12-01T10:00:00.000Z`: RFC 3339, UTC, milliseconds (what the seed's
/// examples and JavaScript's `toISOString` write).
const TIMESTAMP: EncodedConfig =
    Config::DEFAULT.set_time_precision(TimePrecision::Second { decimal_digits: std::num::NonZeroU8::new(3) }).encode();

/// Now, as `2023-12-01T10:00:00.000Z`.
pub fn now() -> String {
    format_timestamp(OffsetDateTime::now_utc())
}

fn format_timestamp(at: OffsetDateTime) -> String {
    at.format(&Iso8601::<TIMESTAMP>).expect("a UTC date-time always formats as ISO 8601")
}

/// A frame with a fresh id: `{id, type, timestamp, content}` (+ `requestId`).
pub fn frame(kind: &str, request_id: Option<&str>, content: Value) -> String {
    frame_with_id(&new_id(), kind, request_id, content)
}

pub fn frame_with_id(id: &str, kind: &str, request_id: Option<&str>, content: Value) -> String {
    let mut frame = Map::new();
    frame.insert("id".into(), json!(id));
    frame.insert("type".into(), json!(kind));
    frame.insert("timestamp".into(), json!(now()));
    if let Some(request_id) = request_id {
        frame.insert("requestId".into(), json!(request_id));
    }
    frame.insert("content".into(), content);
    Value::Object(frame).to_string()
}

/// An `error` frame: content `{error, code}` (+ `taskId`), `requestId` when
/// the offending message had a readable id.
pub fn error_frame(code: &str, message: &str, request_id: Option<&str>, task_id: Option<&str>) -> String {
    let mut content = json!({"error": message, "code": code});
    if let Some(task_id) = task_id {
        content["taskId"] = json!(task_id);
    }
    frame(out::ERROR, request_id, content)
}

/// A parsed inbound frame.
#[derive(Debug, Clone)]
pub struct Inbound {
    pub id: Option<String>,
    pub kind: String,
    pub content: Value,
    /// The whole frame (for top-level `taskId`).
    pub raw: Value,
}

impl Inbound {
    /// A string field of `content`, else of the frame itself.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.content.get(name).and_then(Value::as_str).or_else(|| self.raw.get(name).and_then(Value::as_str))
    }
}

/// Why an inbound text could not be read: `(code, message, requestId)`.
pub type ParseError = (&'static str, String, Option<String>);

/// Parses one text frame. Non-JSON, a non-object or a missing `type` are errors.
pub fn parse(text: &str) -> Result<Inbound, ParseError> {
    let raw: Value = serde_json::from_str(text)
        .map_err(|err| (code::INVALID_JSON, format!("Invalid JSON: {err}"), None::<String>))?;
    let Some(object) = raw.as_object() else {
        return Err((code::INVALID_MESSAGE, "Invalid message format: expected a JSON object".into(), None));
    };
    let id = object.get("id").and_then(|id| match id {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    });
    let Some(kind) = object.get("type").and_then(Value::as_str).filter(|t| !t.is_empty()) else {
        return Err((code::INVALID_MESSAGE, "Invalid message format: type is required".into(), id));
    };
    let content = match object.get("content") {
        None | Some(Value::Null) => json!({}),
        Some(content) => content.clone(),
    };
    Ok(Inbound { id, kind: kind.to_owned(), content, raw })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_utc_with_millis() {
        let at = |secs: i64, millis: i64| {
            OffsetDateTime::from_unix_timestamp(secs).unwrap() + time::Duration::milliseconds(millis)
        };
        assert_eq!(format_timestamp(at(0, 0)), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_timestamp(at(1_701_424_800, 5)), "2023-12-01T10:00:00.005Z");
        assert_eq!(format_timestamp(at(951_782_400, 999)), "2000-02-29T00:00:00.999Z");
        assert!(now().ends_with('Z') && now().len() == 24);
    }

    #[test]
    fn frames_carry_the_envelope() {
        let frame: Value = serde_json::from_str(&frame("ping", Some("r1"), json!({"a": 1}))).unwrap();
        assert_eq!(frame["type"], "ping");
        assert_eq!(frame["requestId"], "r1");
        assert_eq!(frame["content"]["a"], 1);
        assert!(frame["id"].as_str().is_some_and(|id| id.len() == 36));
        assert!(frame["timestamp"].is_string());
    }

    #[test]
    fn parse_reports_codes() {
        assert_eq!(parse("{nope").unwrap_err().0, code::INVALID_JSON);
        assert_eq!(parse("[1]").unwrap_err().0, code::INVALID_MESSAGE);
        let (code, message, id) = parse(r#"{"id": "m1", "content": {}}"#).unwrap_err();
        assert_eq!((code, id.as_deref()), (code::INVALID_MESSAGE, Some("m1")));
        assert!(message.contains("type is required"));
        let ok = parse(r#"{"id": "m2", "type": "pong", "taskId": "t"}"#).unwrap();
        assert_eq!(ok.content, json!({}));
        assert_eq!(ok.field("taskId"), Some("t"));
    }
}
