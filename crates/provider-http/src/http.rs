//! Sending requests and reading answers, each step under an idle timeout.
//!
//! `timeout` is the longest wait for the next byte: for the connection and
//! the response headers, then for each piece of the body. A stream that
//! keeps producing is never cut; a server that stalls is. Non-success
//! answers become errors here (see [`crate::error`]).

use std::pin::Pin;
use std::time::Duration;

use amplifier_sdk::{ErrorKind, ModuleError, Value};
use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{Stream, StreamExt};
use reqwest::{Client, RequestBuilder, Response};

use crate::error;

/// Bodies larger than this are refused (a JSON completion is far smaller).
const MAX_BODY_BYTES: usize = 64 << 20;
/// How much of an error body is read.
const MAX_ERROR_BODY_BYTES: usize = 64 << 10;

/// A client for one provider: HTTP/1.1, rustls (ring); `HTTP(S)_PROXY`/`NO_PROXY` are honoured.
pub fn http_client(user_agent: &str, connect_timeout: Duration) -> Result<Client, ModuleError> {
    // rustls needs a process-wide crypto provider; this plugin's copy of
    // rustls is its own, so installing ring here touches nothing else.
    // An error only means it is already installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::builder()
        .user_agent(user_agent)
        .connect_timeout(connect_timeout)
        .build()
        .map_err(|err| ModuleError::internal(format!("cannot build the HTTP client: {err}")))
}

/// The provider's name and key, for error messages (which name the one and never contain the other).
#[derive(Clone)]
pub struct Endpoint {
    pub provider: String,
    secret: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint").field("provider", &self.provider).finish_non_exhaustive()
    }
}

impl Endpoint {
    pub fn new(provider: impl Into<String>, secret: Option<String>) -> Self {
        Endpoint { provider: provider.into(), secret }
    }

    pub fn secret(&self) -> Option<&str> {
        self.secret.as_deref()
    }

    /// Sends `request`; a non-success status becomes the mapped error.
    pub async fn send(&self, request: RequestBuilder, idle: Duration) -> Result<Response, ModuleError> {
        self.send_observed(request, idle, |_| {}).await
    }

    /// [`Endpoint::send`], showing `observe` the headers of any answer,
    /// failed ones included (a 429's rate-limit headers matter most).
    pub async fn send_observed(
        &self,
        request: RequestBuilder,
        idle: Duration,
        observe: impl FnOnce(&reqwest::header::HeaderMap),
    ) -> Result<Response, ModuleError> {
        let response = match tokio::time::timeout(idle, request.send()).await {
            Err(_) => return Err(error::idle_timeout(&self.provider, idle.as_secs_f64(), "response")),
            Ok(Err(err)) => return Err(error::from_transport(&self.provider, &err, false, self.secret())),
            Ok(Ok(response)) => response,
        };
        observe(response.headers());
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let retry_after = error::retry_after(response.headers());
        // Best effort: a body that breaks off still leaves the status to go by.
        let body = self.read_bytes(response, idle, MAX_ERROR_BODY_BYTES).await.unwrap_or_default();
        Err(error::from_status(
            &self.provider,
            status.as_u16(),
            retry_after,
            &String::from_utf8_lossy(&body),
            self.secret(),
        ))
    }

    /// The whole body, read piece by piece under the idle timeout.
    async fn read_bytes(&self, response: Response, idle: Duration, limit: usize) -> Result<Vec<u8>, ModuleError> {
        let mut body = Vec::new();
        let mut chunks = response.bytes_stream();
        loop {
            match tokio::time::timeout(idle, chunks.next()).await {
                Err(_) => return Err(error::idle_timeout(&self.provider, idle.as_secs_f64(), "data")),
                Ok(None) => return Ok(body),
                Ok(Some(Err(err))) => return Err(error::from_transport(&self.provider, &err, true, self.secret())),
                Ok(Some(Ok(chunk))) => {
                    if body.len() + chunk.len() > limit {
                        return Err(ModuleError::new(
                            ErrorKind::Stream,
                            format!("{}: the response is larger than {} bytes", self.provider, limit),
                        ));
                    }
                    body.extend_from_slice(&chunk);
                }
            }
        }
    }

    /// A JSON body.
    pub async fn read_json(&self, response: Response, idle: Duration) -> Result<Value, ModuleError> {
        let body = self.read_bytes(response, idle, MAX_BODY_BYTES).await?;
        serde_json::from_slice(&body).map_err(|err| {
            ModuleError::new(ErrorKind::Stream, format!("{}: the response is not valid JSON: {err}", self.provider))
        })
    }

    /// The body as server-sent events.
    pub fn sse(&self, response: Response, idle: Duration) -> SseReader {
        SseReader { events: Box::pin(response.bytes_stream().eventsource()), idle, endpoint: self.clone() }
    }
}

type EventStream = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// Server-sent events, one at a time, each within the idle timeout.
pub struct SseReader {
    events: EventStream,
    idle: Duration,
    endpoint: Endpoint,
}

impl SseReader {
    /// The next event; `None` when the server closed the stream.
    pub async fn next(&mut self) -> Option<Result<Event, ModuleError>> {
        let provider = &self.endpoint.provider;
        match tokio::time::timeout(self.idle, self.events.next()).await {
            Err(_) => Some(Err(error::idle_timeout(provider, self.idle.as_secs_f64(), "event"))),
            Ok(None) => None,
            Ok(Some(Ok(event))) => Some(Ok(event)),
            Ok(Some(Err(EventStreamError::Transport(err)))) => {
                Some(Err(error::from_transport(provider, &err, true, self.endpoint.secret())))
            }
            Ok(Some(Err(err))) => {
                Some(Err(ModuleError::new(ErrorKind::Stream, format!("{provider}: malformed event stream: {err}"))))
            }
        }
    }
}

/// A stream that ended before its terminal event.
pub fn ended_early(provider: &str) -> ModuleError {
    ModuleError::new(ErrorKind::Stream, format!("{provider}: the event stream ended before the response was complete"))
}
