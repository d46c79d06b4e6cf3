//! The WebSocket server: accepts services, checks the shared secret, caps
//! message sizes, pings on a timer, and feeds each connection's frames to the
//! [`Hub`] one at a time (so a service's messages are handled in order).

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::hub::{ConnectionHandle, Hub, Outgoing};
use crate::wire::code;

/// How long a client has to finish the WebSocket handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Accepts connections until the hub shuts down.
pub async fn serve(hub: Arc<Hub>, listener: TcpListener) {
    let mut shutdown = hub.shutdown_signal();
    let stopped = async move {
        let _ = shutdown.wait_for(|stopped| *stopped).await;
    };
    tokio::pin!(stopped);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => {
                    tokio::spawn(connection(hub.clone(), tcp, peer.to_string()));
                }
                Err(err) => {
                    // Out of file descriptors and the like: back off, don't spin.
                    tracing::warn!(error = %err, "service hub: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            () = &mut stopped => break,
        }
    }
    tracing::debug!("service hub: no longer accepting connections");
}

async fn connection(hub: Arc<Hub>, tcp: TcpStream, peer: String) {
    let _ = tcp.set_nodelay(true);
    let token = hub.config().token.clone();
    // The signature is tungstenite's handshake callback.
    #[allow(clippy::result_large_err)]
    let check = move |request: &Request, response: Response| -> Result<Response, ErrorResponse> {
        match &token {
            Some(token) if !authorized(request, token) => {
                let mut refusal = ErrorResponse::new(Some(
                    "a valid token is required: send `Authorization: Bearer <token>` or `?token=<token>`".into(),
                ));
                *refusal.status_mut() = StatusCode::UNAUTHORIZED;
                Err(refusal)
            }
            _ => Ok(response),
        }
    };
    let limit = hub.config().max_message_bytes;
    let config = WebSocketConfig::default().max_message_size(Some(limit)).max_frame_size(Some(limit));
    let handshake = tokio_tungstenite::accept_hdr_async_with_config(tcp, check, Some(config));
    let ws = match tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(err)) => {
            tracing::info!(peer, error = %err, "service connection refused during the handshake");
            return;
        }
        Err(_) => {
            tracing::info!(peer, "service connection dropped: no WebSocket handshake in time");
            return;
        }
    };
    let (mut sink, mut stream) = ws.split();
    let ConnectionHandle { id, mut outgoing, kicked } = hub.connect(&peer);
    let writer = tokio::spawn(async move {
        while let Some(frame) = outgoing.recv().await {
            match frame {
                Outgoing::Text(text) => {
                    if sink.send(Message::text(text)).await.is_err() {
                        break;
                    }
                }
                Outgoing::Close { code, reason } => {
                    let frame = CloseFrame { code: code.into(), reason: reason.into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            }
        }
    });
    let period = hub.config().heartbeat_interval;
    let mut heartbeat = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            frame = stream.next() => match frame {
                Some(Ok(Message::Text(text))) => hub.handle_text(id, text.as_str()).await,
                Some(Ok(Message::Binary(_))) => hub.send_error(
                    id,
                    code::INVALID_MESSAGE,
                    "binary frames are not supported: send JSON in text frames",
                    None,
                ),
                Some(Ok(Message::Close(_))) | None => break,
                Some(Ok(_)) => {} // WebSocket-level ping/pong: tungstenite answers them
                Some(Err(WsError::Capacity(err))) => {
                    tracing::warn!(conn = id, peer, error = %err, "service sent a message over the size limit");
                    let message = format!("{err}; the limit is {limit} bytes");
                    hub.close_with_error(id, code::MESSAGE_TOO_LARGE, &message, 1009);
                    break;
                }
                Some(Err(err)) => {
                    tracing::debug!(conn = id, peer, error = %err, "service connection error");
                    break;
                }
            },
            _ = heartbeat.tick() => {
                if !hub.heartbeat(id).await {
                    break;
                }
            }
            _ = kicked.notified() => break,
        }
    }
    hub.disconnect(id).await;
    // The hub dropped the connection's queue: the writer flushes what is left and ends.
    let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
}

/// `Authorization: Bearer <token>`, or `?token=<token>` in the request URL.
fn authorized(request: &Request, token: &str) -> bool {
    let header = request
        .headers()
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim);
    let query = request.uri().query().and_then(|query| query.split('&').find_map(|pair| pair.strip_prefix("token=")));
    [header, query].into_iter().flatten().any(|given| constant_time_eq(given.as_bytes(), token.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
