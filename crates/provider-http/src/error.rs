//! HTTP failures as [`ModuleError`]s of upstream's kinds (`llm_errors.py`).
//!
//! | what happened | kind | retried |
//! |---|---|---|
//! | 429 | `rate_limit` (`insufficient_quota`: not retried) | yes |
//! | 401, 403 | `authentication` | no |
//! | 404 | `not_found` | no |
//! | 408, 504, no byte within `timeout` | `timeout` | yes |
//! | 413, or 400 whose error says the context/prompt is too long | `context_length` | no |
//! | 400 whose error names a content filter / policy | `content_filter` | no |
//! | other 4xx | `invalid_request` | no |
//! | 5xx (529 overloaded backs off longer) | `unavailable` | yes |
//! | connection refused, reset, dropped | `unavailable` | yes |
//! | the stream broke mid-body | `stream` | yes, unless output was already delivered |
//!
//! Messages are `"<provider>: HTTP <status> <type>: <server message>"`, cut
//! to a sane length, with the API key (and anything shaped like one) redacted.

use amplifier_sdk::{ErrorKind, ModuleError};
use serde_json::Value;

/// The longest server message kept in an error.
const MAX_MESSAGE_CHARS: usize = 600;

/// What a provider's error body said, in either vendor's shape:
/// OpenAI `{"error": {"message", "type", "code"}}`, Anthropic
/// `{"type": "error", "error": {"type", "message"}}`, or plain text.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ErrorBody {
    pub error_type: Option<String>,
    pub code: Option<String>,
    pub message: String,
}

impl ErrorBody {
    pub fn parse(body: &str) -> Self {
        let Ok(json) = serde_json::from_str::<Value>(body) else {
            return ErrorBody { message: body.trim().to_owned(), ..ErrorBody::default() };
        };
        let error = match json.get("error") {
            Some(Value::String(message)) => return ErrorBody { message: message.clone(), ..ErrorBody::default() },
            Some(error) => error,
            None => &json,
        };
        let text = |key: &str| match error.get(key) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        ErrorBody {
            error_type: text("type"),
            code: text("code"),
            message: text("message").unwrap_or_else(|| body.trim().to_owned()),
        }
    }

    fn mentions(&self, needles: &[&str]) -> bool {
        let haystack = format!(
            "{} {} {}",
            self.error_type.as_deref().unwrap_or_default(),
            self.code.as_deref().unwrap_or_default(),
            self.message
        )
        .to_ascii_lowercase();
        needles.iter().any(|needle| haystack.contains(needle))
    }
}

const CONTEXT_LENGTH_MARKERS: &[&str] = &[
    "context_length_exceeded",
    "context length",
    "context window",
    "maximum context",
    "prompt is too long",
    "too many tokens",
    "exceeds the available context",
    "request_too_large",
];
const CONTENT_FILTER_MARKERS: &[&str] =
    &["content_filter", "content management policy", "content_policy", "safety system"];

/// The error for a non-success HTTP answer. `retry_after` is the server's
/// `Retry-After` in seconds; `secret` is redacted from the message.
pub fn from_status(
    provider: &str,
    status: u16,
    retry_after: Option<f64>,
    body: &str,
    secret: Option<&str>,
) -> ModuleError {
    let parsed = ErrorBody::parse(body);
    let kind = match status {
        429 => ErrorKind::RateLimit,
        401 | 403 => ErrorKind::Authentication,
        404 => ErrorKind::NotFound,
        408 | 504 => ErrorKind::Timeout,
        413 => ErrorKind::ContextLength,
        400..=499 if parsed.mentions(CONTEXT_LENGTH_MARKERS) => ErrorKind::ContextLength,
        400..=499 if parsed.mentions(CONTENT_FILTER_MARKERS) => ErrorKind::ContentFilter,
        400..=499 => ErrorKind::InvalidRequest,
        _ => ErrorKind::Unavailable,
    };
    let label = parsed.error_type.as_deref().or(parsed.code.as_deref()).map(|t| format!(" {t}")).unwrap_or_default();
    let detail = if parsed.message.is_empty() { reason_phrase(status).to_owned() } else { parsed.message.clone() };
    let mut message = format!("{provider}: HTTP {status}{label}: {}", truncate(&detail));
    if kind == ErrorKind::Authentication && status == 401 {
        message.push_str(&format!(" (check the {provider} API key: config `api_key` or its environment variable)"));
    }
    let mut error = ModuleError::new(kind, redact(&message, secret));
    error.status_code = Some(status);
    error.retry_after = retry_after;
    // Out of credit is a 429 that waiting does not fix.
    if parsed.mentions(&["insufficient_quota"]) {
        error.retryable = false;
    }
    error
}

/// An error event inside a stream (Anthropic's `event: error`, an OpenAI
/// chunk `{"error": …}`, the Responses API's `error` event or
/// `response.failed`): mapped through the HTTP status its type (or code)
/// stands for.
pub fn from_stream_error(provider: &str, data: &str, secret: Option<&str>) -> ModuleError {
    // `response.failed` holds its error inside the response.
    let failed = serde_json::from_str::<Value>(data).ok().and_then(|json| json.pointer("/response/error").cloned());
    let data = failed.map_or_else(|| data.to_owned(), |error| serde_json::json!({"error": error}).to_string());
    let parsed = ErrorBody::parse(&data);
    let status = match parsed.error_type.as_deref().unwrap_or_default() {
        "overloaded_error" => 529,
        "rate_limit_error" => 429,
        "authentication_error" => 401,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "invalid_request_error" => 400,
        "timeout_error" => 504,
        _ => match parsed.code.as_deref().unwrap_or_default() {
            "rate_limit_exceeded" => 429,
            "context_length_exceeded" | "invalid_prompt" | "invalid_request_error" => 400,
            _ => 500,
        },
    };
    from_status(provider, status, None, &data, secret)
}

/// A transport failure from reqwest (no HTTP answer, or a broken body).
pub fn from_transport(provider: &str, err: &reqwest::Error, during_body: bool, secret: Option<&str>) -> ModuleError {
    // `without_url`: URLs are not secret here, but a base_url may carry credentials.
    let mut chain = Vec::new();
    let mut source: Option<&dyn std::error::Error> = Some(err);
    while let Some(current) = source {
        let text = current.to_string();
        if !chain.iter().any(|seen: &String| seen.contains(&text)) {
            chain.push(text);
        }
        source = current.source();
    }
    let detail = chain.join(": ");
    let (kind, what) = if err.is_timeout() {
        (ErrorKind::Timeout, "timed out")
    } else if err.is_connect() {
        (ErrorKind::Unavailable, "cannot connect")
    } else if during_body {
        (ErrorKind::Stream, "the response broke off")
    } else {
        (ErrorKind::Unavailable, "the connection failed")
    };
    let message = format!("{provider}: {what}: {}", truncate(&strip_urls(&detail)));
    ModuleError::new(kind, redact(&message, secret))
}

/// No byte arrived for `seconds`.
pub fn idle_timeout(provider: &str, seconds: f64, waiting_for: &str) -> ModuleError {
    ModuleError::new(
        ErrorKind::Timeout,
        format!("{provider}: no {waiting_for} from the server within {seconds}s (timeout)"),
    )
}

/// Replaces the key, and anything that looks like an API key (`sk-…`,
/// `sk_…`, `sk-ant-…`), with `[REDACTED]`.
pub fn redact(text: &str, secret: Option<&str>) -> String {
    let mut text = text.to_owned();
    if let Some(secret) = secret.map(str::trim).filter(|s| s.len() >= 4) {
        text = text.replace(secret, "[REDACTED]");
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = find_key_start(rest) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '*' | '.')))
            .unwrap_or(tail.len());
        out.push_str("[REDACTED]");
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// Where a key-shaped token (`sk-`/`sk_` at a word start, 8+ more characters) begins.
fn find_key_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find("sk") {
        let at = from + found;
        let word_start = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        // `sk` then an ASCII `-`/`_`, so `at + 3` is a char boundary.
        let sep = bytes.get(at + 2).is_some_and(|b| *b == b'-' || *b == b'_');
        if word_start && sep {
            let body = text[at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '*' | '.'))
                .count();
            if body >= 8 {
                return Some(at);
            }
        }
        from = at + 2;
    }
    None
}

/// reqwest's messages name the URL; keep the host out of the way of secrets in paths.
fn strip_urls(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let bare = word.trim_matches(|c| c == '(' || c == ')');
            if bare.starts_with("http://") || bare.starts_with("https://") {
                word.replace(bare, "<url>")
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn truncate(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
    format!("{cut}…")
}

fn reason_phrase(status: u16) -> &'static str {
    reqwest::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("error")
}

/// `Retry-After` (seconds, possibly fractional) or OpenAI's `retry-after-ms`.
/// HTTP-date values are ignored (the backoff schedule applies).
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<f64> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        return Some(ms / 1000.0).filter(|s| s.is_finite() && *s >= 0.0);
    }
    header("retry-after").and_then(|v| v.parse::<f64>().ok()).filter(|s| s.is_finite() && *s >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_upstreams_kinds() {
        let kind = |status, body: &str| from_status("openai", status, None, body, None).kind;
        assert_eq!(kind(429, "{}"), ErrorKind::RateLimit);
        assert_eq!(kind(401, "{}"), ErrorKind::Authentication);
        assert_eq!(kind(403, "{}"), ErrorKind::Authentication);
        assert_eq!(kind(404, "{}"), ErrorKind::NotFound);
        assert_eq!(kind(408, ""), ErrorKind::Timeout);
        assert_eq!(kind(500, "boom"), ErrorKind::Unavailable);
        assert_eq!(kind(529, ""), ErrorKind::Unavailable);
        assert_eq!(kind(413, ""), ErrorKind::ContextLength);
        assert_eq!(kind(422, "{}"), ErrorKind::InvalidRequest);
        let openai_context = r#"{"error": {"message": "This model's maximum context length is 8192 tokens", "type": "invalid_request_error", "code": "context_length_exceeded"}}"#;
        assert_eq!(kind(400, openai_context), ErrorKind::ContextLength);
        let anthropic_context = r#"{"type": "error", "error": {"type": "invalid_request_error", "message": "prompt is too long: 210000 tokens > 200000 maximum"}}"#;
        assert_eq!(kind(400, anthropic_context), ErrorKind::ContextLength);
        let azure_filter = r#"{"error": {"code": "content_filter", "message": "The response was filtered due to the prompt triggering Azure OpenAI's content management policy."}}"#;
        assert_eq!(kind(400, azure_filter), ErrorKind::ContentFilter);
        assert_eq!(
            kind(400, r#"{"error": {"message": "bad", "type": "invalid_request_error"}}"#),
            ErrorKind::InvalidRequest
        );
    }

    #[test]
    fn errors_carry_status_retry_hint_and_retryability() {
        let err = from_status(
            "anthropic",
            429,
            Some(2.0),
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#,
            None,
        );
        assert_eq!(err.status_code, Some(429));
        assert_eq!(err.retry_after, Some(2.0));
        assert!(err.retryable);
        assert_eq!(err.message, "anthropic: HTTP 429 rate_limit_error: slow down");
        let quota = from_status(
            "openai",
            429,
            None,
            r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}}"#,
            None,
        );
        assert!(!quota.retryable);
        assert!(!from_status("openai", 400, None, "{}", None).retryable);
        assert!(from_status("openai", 503, None, "", None).retryable);
        assert_eq!(from_status("openai", 503, None, "", None).message, "openai: HTTP 503: Service Unavailable");
    }

    #[test]
    fn messages_never_contain_the_key() {
        let body = r#"{"error": {"message": "Incorrect API key provided: sk-proj-abcDEF123456789. You can find your API key at https://platform.openai.com/account/api-keys.", "type": "invalid_request_error", "code": "invalid_api_key"}}"#;
        let err = from_status("openai", 401, None, body, Some("sk-proj-abcDEF123456789"));
        assert!(!err.message.contains("abcDEF123456789"), "{}", err.message);
        assert!(err.message.contains("[REDACTED]"), "{}", err.message);
        // A key of another shape is still removed when it is the configured one.
        let err = from_status("local", 500, None, "token my-local-token-42 rejected", Some("my-local-token-42"));
        assert_eq!(err.message, "local: HTTP 500: token [REDACTED] rejected");
        // Masked keys are key-shaped too.
        assert_eq!(redact("key sk-ant-api03-****abcd was wrong", None), "key [REDACTED] was wrong");
        assert_eq!(redact("task-runner and sk-1 stay", None), "task-runner and sk-1 stay");
    }

    #[test]
    fn stream_error_events_map_through_their_type() {
        let data = r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#;
        let err = from_stream_error("anthropic", data, None);
        assert_eq!((err.kind, err.status_code, err.retryable), (ErrorKind::Unavailable, Some(529), true));
        // The Responses API's two shapes: an `error` event, and a failed response.
        let data = r#"{"type": "error", "code": "rate_limit_exceeded", "message": "Slow down", "param": null}"#;
        let err = from_stream_error("openai", data, None);
        assert_eq!((err.kind, err.status_code), (ErrorKind::RateLimit, Some(429)));
        assert!(err.message.contains("Slow down"), "{}", err.message);
        let data = r#"{"type": "response.failed", "response": {"status": "failed", "error": {"code": "server_error", "message": "The model broke"}}}"#;
        let err = from_stream_error("openai", data, None);
        assert_eq!((err.kind, err.status_code), (ErrorKind::Unavailable, Some(500)));
        assert_eq!(err.message, "openai: HTTP 500 server_error: The model broke");
    }

    #[test]
    fn retry_after_reads_seconds_and_milliseconds() {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert("retry-after", "3".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(3.0));
        headers.insert("retry-after-ms", "1500".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(1.5));
        headers.clear();
        headers.insert("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
    }
}
