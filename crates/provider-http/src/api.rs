//! One HTTP API and its completion call, whatever the wire format.
//!
//! A provider plugin owns its wire format (request body, response parsing,
//! a [`StreamDecoder`] for its SSE events); [`Api`] owns what is the same for
//! every format: the client with its headers, sending with an idle timeout,
//! reading a JSON body or an SSE stream, passing streamed pieces on as they
//! arrive, and telling a failure after output (never retried) from one
//! before it.

use std::time::Duration;

use amplifier_sdk::{ChatResponse, ErrorKind, Host, ModuleError, ModuleResult, Stream, Value};
use reqwest::header::{HeaderMap, CONTENT_TYPE};
use reqwest::{Client, Method, RequestBuilder};

use crate::error;
use crate::events::{Deltas, EventSink};
use crate::http::{ended_early, Endpoint};
use crate::join_url;
use crate::rate_limits::{RateLimits, Throttle};
use crate::retry::{with_retries, Failure, RetryLabels, RetryPolicy};

/// One piece of a streamed reply, to pass on as it arrives.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text {
        index: usize,
        text: String,
    },
    Thinking {
        index: usize,
        text: String,
    },
    /// `index` counts tool calls, not content blocks.
    ToolCall {
        index: usize,
        id: Option<String>,
        name: Option<String>,
        arguments: String,
    },
}

/// What one stream event means for the reply being built.
#[derive(Debug, PartialEq)]
pub enum Step {
    Pieces(Vec<Piece>),
    /// The reply is complete (OpenAI's `[DONE]`, Anthropic's `message_stop`).
    Done,
    /// The event is the server's error report; its data is mapped to an error.
    Error,
}

/// A wire format's streaming half: SSE event data in, pieces out, and the
/// whole reply at the end.
pub trait StreamDecoder: Default + Send {
    /// Takes the (non-blank, trimmed) data of one SSE event; `Err` says why
    /// the data is not what the format allows.
    fn apply(&mut self, data: &str) -> Result<Step, String>;

    /// Whether the stream may end here without its terminator (some
    /// OpenAI-compatible servers close after the finish reason).
    fn may_end(&self) -> bool {
        false
    }

    fn finish(self) -> ChatResponse;
}

/// An HTTP API: where it is, how to reach it, which key it holds back
/// from every message, and how it reports its rate limits.
pub struct Api {
    provider: &'static str,
    client: Client,
    endpoint: Endpoint,
    base_url: String,
    headers: HeaderMap,
    throttle: Option<(RateLimitReader, Throttle)>,
}

/// Reads one API's rate-limit headers ([`RateLimits::anthropic`]).
pub type RateLimitReader = fn(&HeaderMap) -> Option<RateLimits>;

impl Api {
    pub fn new(
        provider: &'static str,
        client: Client,
        base_url: String,
        headers: HeaderMap,
        key: Option<String>,
    ) -> Self {
        Api { provider, client, endpoint: Endpoint::new(provider, key), base_url, headers, throttle: None }
    }

    /// Throttles completions by the rate limits `read` finds in each reply.
    pub fn with_throttle(mut self, read: RateLimitReader, throttle: Throttle) -> Self {
        self.throttle = Some((read, throttle));
        self
    }

    /// Before a completion: waits if the last reply's rate limits ran low.
    pub async fn throttle(&self, events: &Host, model: &str) {
        if let Some((_, throttle)) = &self.throttle {
            throttle.wait(events, self.provider, model).await;
        }
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.client.request(method, join_url(&self.base_url, path)).headers(self.headers.clone())
    }

    /// `GET path` as JSON, retried like a completion (`list_models`).
    pub async fn get_json(&self, path: &str, idle: Duration, retry: &RetryPolicy, host: &Host) -> ModuleResult<Value> {
        let labels = RetryLabels { provider: self.provider, model: "" };
        with_retries(retry, host, labels, || async {
            let response = self.endpoint.send(self.request(Method::GET, path), idle).await?;
            Ok::<_, Failure>(self.endpoint.read_json(response, idle).await?)
        })
        .await
    }

    /// One attempt at a completion: `POST path` with `body`; a JSON reply read
    /// whole by `parse`, or an SSE stream read by `D` with its pieces passed
    /// on to `stream` and the hooks as they arrive.
    pub async fn complete<D: StreamDecoder>(
        &self,
        path: &str,
        body: &[u8],
        streaming: bool,
        (events, stream): (&Host, &Stream),
        idle: Duration,
        parse: fn(&Value) -> Result<ChatResponse, String>,
    ) -> Result<ChatResponse, Failure> {
        let provider = self.provider;
        let request = self.request(Method::POST, path).header(CONTENT_TYPE, "application/json").body(body.to_vec());
        let observe = |headers: &HeaderMap| {
            if let Some((read, throttle)) = &self.throttle {
                throttle.observe(read(headers));
            }
        };
        let response = self.endpoint.send_observed(request, idle, observe).await?;
        if !streaming {
            let json = self.endpoint.read_json(response, idle).await?;
            return parse(&json).map_err(|problem| {
                ModuleError::new(ErrorKind::Stream, format!("{provider}: unexpected response: {problem}")).into()
            });
        }
        let mut sse = self.endpoint.sse(response, idle);
        let mut deltas = Deltas::new(events, stream, provider);
        let mut decoder = D::default();
        let fail = |error: ModuleError, deltas: &Deltas<'_, Host>| Failure { error, delivered: deltas.delivered() };
        loop {
            let event = match sse.next().await {
                Some(Ok(event)) => event,
                Some(Err(error)) => return Err(fail(error, &deltas)),
                None if decoder.may_end() => break,
                None => return Err(fail(ended_early(provider), &deltas)),
            };
            let data = event.data.trim();
            if data.is_empty() {
                continue;
            }
            let pieces = match decoder.apply(data) {
                Ok(Step::Pieces(pieces)) => pieces,
                Ok(Step::Done) => break,
                Ok(Step::Error) => {
                    return Err(fail(error::from_stream_error(provider, data, self.endpoint.secret()), &deltas))
                }
                Err(problem) => {
                    let error = ModuleError::new(ErrorKind::Stream, format!("{provider}: {problem}"));
                    return Err(fail(error, &deltas));
                }
            };
            for piece in pieces {
                send(&mut deltas, piece).await;
            }
        }
        Ok(decoder.finish())
    }
}

async fn send<S: EventSink>(deltas: &mut Deltas<'_, S>, piece: Piece) {
    match piece {
        Piece::Text { index, text } => deltas.text(index, &text).await,
        Piece::Thinking { index, text } => deltas.thinking(index, &text).await,
        Piece::ToolCall { index, id, name, arguments } => {
            deltas.tool_call(index, id.as_deref(), name.as_deref(), &arguments).await
        }
    }
}
