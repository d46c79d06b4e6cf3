//! The one error type that crosses module boundaries.
//!
//! A `ModuleError` travels across the ABI as JSON, so a provider plugin's rate
//! limit reaches the orchestrator plugin with its kind, status and retry hint
//! intact. Messages must never contain secrets: providers build them from the
//! HTTP status and the server's error text, never from request headers.

use serde::{Deserialize, Serialize};

/// Upstream's error kinds (`llm_errors.py`), plus the host's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    RateLimit,
    Authentication,
    ContextLength,
    ContentFilter,
    InvalidRequest,
    Unavailable,
    Timeout,
    NotFound,
    Stream,
    Abort,
    /// The module panicked; the host caught it and went on.
    Panic,
    /// The module's process died (a native crash, under `isolation: process`).
    Crash,
    /// The call was cancelled by the user or the session.
    Cancelled,
    /// Input did not match the module's schema.
    InvalidInput,
    /// The module or operation is not mounted or not supported.
    Unsupported,
    #[serde(other)]
    Internal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct ModuleError {
    pub kind: ErrorKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_code: Option<u16>,
    #[serde(default)]
    pub retryable: bool,
    /// Seconds the server asked us to wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<f64>,
    /// The module that failed, filled in by the host when it knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
}

impl ModuleError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ModuleError {
            kind,
            message: message.into(),
            status_code: None,
            retryable: matches!(
                kind,
                ErrorKind::RateLimit | ErrorKind::Unavailable | ErrorKind::Timeout | ErrorKind::Stream
            ),
            retry_after: None,
            module: None,
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, message)
    }

    pub fn cancelled() -> Self {
        Self::new(ErrorKind::Cancelled, "cancelled")
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported, message)
    }

    pub fn with_module(mut self, module: impl Into<String>) -> Self {
        self.module.get_or_insert_with(|| module.into());
        self
    }

    /// Reads an error that crossed the ABI: JSON when the other side is ours,
    /// plain text otherwise.
    pub fn from_wire(text: &str) -> Self {
        serde_json::from_str(text).unwrap_or_else(|_| Self::internal(text))
    }

    pub fn to_wire(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| self.message.clone())
    }

    /// Snake-case name of the kind, as used in `error.type` fields of events.
    pub fn kind_name(&self) -> String {
        serde_json::to_value(self.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| "internal".into())
    }
}

impl From<serde_json::Error> for ModuleError {
    fn from(err: serde_json::Error) -> Self {
        ModuleError::new(ErrorKind::InvalidRequest, format!("invalid JSON payload: {err}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_over_the_wire() {
        let mut err = ModuleError::new(ErrorKind::RateLimit, "slow down");
        err.status_code = Some(429);
        err.retry_after = Some(2.0);
        let back = ModuleError::from_wire(&err.to_wire());
        assert_eq!(back, err);
        assert!(back.retryable);
    }

    #[test]
    fn plain_text_from_a_foreign_side_is_internal() {
        let err = ModuleError::from_wire("boom");
        assert_eq!(err.kind, ErrorKind::Internal);
        assert_eq!(err.message, "boom");
    }

    #[test]
    fn unknown_kinds_fall_back_to_internal() {
        let err = ModuleError::from_wire(r#"{"kind":"quantum","message":"?"}"#);
        assert_eq!(err.kind, ErrorKind::Internal);
    }
}
