//! Who may talk to `amplifier serve`, checked before any handler runs, and
//! connections that cannot hold the server hostage.
//!
//! A served plan may drive a shell, so a request must prove it is meant for
//! this server:
//!
//! - `Host` names this server: on a loopback address a loopback name with
//!   the served port, which DNS rebinding cannot forge (a rebound page sends
//!   its own host name);
//! - an `Origin`, when a browser sends one, is this server's own: a web page
//!   elsewhere cannot start runs;
//! - a body is JSON (`Content-Type: application/json`): the content types a
//!   page may POST cross-origin without a preflight are refused;
//! - with a token, `Authorization: Bearer TOKEN` (required whenever the
//!   address is not loopback: binding one without a token is refused);
//! - at most `rate` requests a minute per client address.
//!
//! Request headers and bodies must arrive within the read timeout; a client
//! that trickles bytes is dropped.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use tower::ServiceExt;

use crate::error::{CliError, CliResult};

/// What the door lets in.
pub struct Door {
    token: Option<String>,
    local: SocketAddr,
    rate: u32,
    seen: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl Door {
    /// The door of a server listening on `local`. A non-loopback address
    /// without a token is refused: anyone who can reach it could run the
    /// plan's tools.
    pub fn new(local: SocketAddr, token: Option<String>, rate: u32) -> CliResult<Door> {
        let token = token.filter(|t| !t.is_empty());
        if !local.ip().is_loopback() && token.is_none() {
            return Err(CliError::usage(format!(
                "{local} is not a loopback address, and no token was given: anyone who reaches it could run the plan's tools"
            ))
            .hint("pass --token-file FILE (or set AMPLIFIER_SERVE_TOKEN), or serve on 127.0.0.1"));
        }
        Ok(Door { token, local, rate: rate.max(1), seen: Mutex::default() })
    }

    /// The same door at the address the listener got (the same IP, the
    /// port it was given for port 0).
    pub fn listening_on(self, local: SocketAddr) -> Door {
        Door { local, ..self }
    }

    /// Why a request may not come in, if it may not.
    fn refuse(&self, peer: IpAddr, method: &Method, headers: &HeaderMap) -> Option<(StatusCode, String)> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
        if !self.is_our_host(host) {
            return Some((StatusCode::FORBIDDEN, format!("`Host: {host}` does not name this server")));
        }
        if let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
            if origin != format!("http://{host}") {
                return Some((
                    StatusCode::FORBIDDEN,
                    format!("cross-origin requests are refused (`Origin: {origin}`)"),
                ));
            }
        }
        if let Some(token) = &self.token {
            let given = headers.get(header::AUTHORIZATION).and_then(|a| a.to_str().ok()).unwrap_or_default();
            let expected = format!("Bearer {token}");
            if !constant_time_eq(given.as_bytes(), expected.as_bytes()) {
                return Some((StatusCode::UNAUTHORIZED, "a valid `Authorization: Bearer TOKEN` is required".into()));
            }
        }
        if *method == Method::POST {
            let json = headers
                .get(header::CONTENT_TYPE)
                .and_then(|c| c.to_str().ok())
                .and_then(|c| c.split(';').next())
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
            if !json {
                return Some((
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "the body must be `Content-Type: application/json`".into(),
                ));
            }
        }
        if !self.admit(peer) {
            return Some((StatusCode::TOO_MANY_REQUESTS, format!("more than {} requests a minute", self.rate)));
        }
        None
    }

    /// On loopback, a loopback name with our port; elsewhere any name (the
    /// token guards the door there).
    fn is_our_host(&self, host: &str) -> bool {
        if !self.local.ip().is_loopback() {
            return !host.is_empty();
        }
        let Some((name, port)) = host.rsplit_once(':') else { return false };
        let port_matches = port.parse::<u16>().is_ok_and(|p| p == self.local.port());
        let loopback_name = matches!(name, "localhost" | "127.0.0.1" | "[::1]")
            || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
        port_matches && loopback_name
    }

    /// Counts the request in its client's one-minute window.
    fn admit(&self, peer: IpAddr) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        seen.retain(|_, (start, _)| now.duration_since(*start) < Duration::from_secs(60));
        let (_, count) = seen.entry(peer).or_insert((now, 0));
        *count += 1;
        *count <= self.rate
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The middleware that applies the door to every request.
pub async fn guard(State(door): State<Arc<Door>>, request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let peer = peer.unwrap_or(IpAddr::from([0, 0, 0, 0]));
    match door.refuse(peer, request.method(), request.headers()) {
        Some((status, message)) => {
            let mut response =
                (status, [(header::CONTENT_TYPE, "application/json")], json!({"error": message}).to_string())
                    .into_response();
            if status == StatusCode::UNAUTHORIZED {
                response.headers_mut().insert(header::WWW_AUTHENTICATE, header::HeaderValue::from_static("Bearer"));
            }
            response
        }
        None => next.run(request).await,
    }
}

/// Reads a request body of at most `limit` bytes within `timeout`.
pub async fn read_body(body: Body, limit: usize, timeout: Duration) -> Result<axum::body::Bytes, (StatusCode, String)> {
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err((StatusCode::PAYLOAD_TOO_LARGE, format!("the body is larger than {limit} bytes"))),
        Err(_) => Err((StatusCode::REQUEST_TIMEOUT, format!("the body did not arrive within {timeout:?}"))),
    }
}

/// Serves `router` on `listener`, HTTP/1.1, each connection on a task of
/// its own, with its client's address in the request extensions; a client
/// whose request headers take longer than `read_timeout` is dropped. When
/// `stop` resolves, the listener closes (new clients are refused) and this
/// returns; open connections go on.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    read_timeout: Duration,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            biased;
            () = &mut stop => return Ok(()),
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            // Out of file descriptors and the like: the next accept may work.
            Err(err) => {
                tracing::warn!(error = %err, "cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = router.clone().map_request(move |request: Request<hyper::body::Incoming>| {
            let mut request = request.map(Body::new);
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        });
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            if let Err(err) = connection.await {
                tracing::debug!(%peer, error = %err, "connection ended");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (name.clone(), value.parse().unwrap())).collect()
    }

    #[test]
    fn hosts_origins_types_tokens_and_rates_are_checked() {
        let local: SocketAddr = "127.0.0.1:8787".parse().unwrap();
        let door = Door::new(local, Some("s3cret".into()), 3).unwrap();
        let me = IpAddr::from([127, 0, 0, 1]);
        let ok = [
            (header::HOST, "localhost:8787"),
            (header::AUTHORIZATION, "Bearer s3cret"),
            (header::CONTENT_TYPE, "application/json; charset=utf-8"),
        ];
        assert_eq!(door.refuse(me, &Method::POST, &headers(&ok)), None);
        let refused = |pairs: &[(header::HeaderName, &str)]| door.refuse(me, &Method::POST, &headers(pairs)).unwrap().0;
        assert_eq!(
            refused(&[ok[1].clone(), ok[2].clone(), (header::HOST, "evil.example:8787")]),
            StatusCode::FORBIDDEN
        );
        assert_eq!(refused(&[ok[1].clone(), ok[2].clone(), (header::HOST, "localhost:9999")]), StatusCode::FORBIDDEN);
        let cross = [ok[0].clone(), ok[1].clone(), ok[2].clone(), (header::ORIGIN, "http://evil.example")];
        assert_eq!(refused(&cross), StatusCode::FORBIDDEN);
        assert_eq!(refused(&[ok[0].clone(), ok[2].clone()]), StatusCode::UNAUTHORIZED);
        assert_eq!(
            refused(&[ok[0].clone(), ok[1].clone(), (header::CONTENT_TYPE, "text/plain")]),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        // The refusals above did not count; the first request did: two more pass, then 429.
        assert_eq!(door.refuse(me, &Method::POST, &headers(&ok)), None);
        assert_eq!(door.refuse(me, &Method::POST, &headers(&ok)), None);
        assert_eq!(door.refuse(me, &Method::POST, &headers(&ok)).unwrap().0, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(door.refuse(IpAddr::from([127, 0, 0, 2]), &Method::POST, &headers(&ok)), None, "per client");
    }

    #[test]
    fn a_public_address_needs_a_token() {
        let public: SocketAddr = "0.0.0.0:8787".parse().unwrap();
        let Err(err) = Door::new(public, None, 10) else { panic!("a public address without a token was accepted") };
        assert_eq!(err.code(), crate::error::exit::USAGE);
        assert!(err.to_string().contains("hint: pass --token"), "{err}");
        assert!(Door::new(public, Some(String::new()), 10).is_err(), "an empty token is no token");
        let door = Door::new(public, Some("t".into()), 10).unwrap();
        let request = headers(&[(header::HOST, "agents.example.com"), (header::AUTHORIZATION, "Bearer t")]);
        assert_eq!(door.refuse(IpAddr::from([10, 0, 0, 9]), &Method::GET, &request), None);
    }
}
