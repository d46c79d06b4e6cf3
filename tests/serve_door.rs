//! `amplifier serve`'s door, against the real server over real sockets:
//! a foreign `Host`, a cross-origin page, a non-JSON body, a missing token,
//! a public address without one, a client that trickles its headers and one
//! that asks too often are each refused (docs/user/orchestrated-runs.md).

mod common;

use std::io::{Read, Write};
use std::process::Command;
use std::time::{Duration, Instant};

use common::serve::{exchange, http, start_server_with};
use common::*;

const RUN: &str = r#"{"mode": "chat", "message": "hi"}"#;

/// A directory whose plan answers "served" with built-in modules.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let plan = "session: {orchestrator: loop-basic, context: context-simple}\n\
                providers: [{module: provider-scripted, config: {script: [{text: served}, {text: served}]}}]\n";
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    dir
}

fn post(host: &str, extra_headers: &str, content_type: &str) -> String {
    format!(
        "POST /v1/runs HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n{extra_headers}Content-Length: {}\r\nConnection: close\r\n\r\n{RUN}",
        RUN.len()
    )
}

#[test]
fn foreign_hosts_cross_origin_pages_and_non_json_bodies_are_refused() {
    let dir = project();
    let server = start_server_with(amplifier(dir.path()), &["--plan", "plan.yaml"]);
    let port = server.addr.rsplit_once(':').unwrap().1;

    // DNS rebinding: the page's own name arrives as Host.
    let (status, _, body) = exchange(&server.addr, &post(&format!("evil.example:{port}"), "", "application/json"));
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("does not name this server"), "{body}");
    // A page elsewhere posting to localhost.
    let origin = "Origin: http://evil.example\r\n";
    let (status, _, body) = exchange(&server.addr, &post(&server.addr, origin, "application/json"));
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("cross-origin"), "{body}");
    // The "simple" content type a form may send without a preflight.
    let (status, _, body) = exchange(&server.addr, &post(&server.addr, "", "text/plain"));
    assert_eq!(status, 415, "{body}");

    // The same request, proper: same origin, JSON, a loopback name.
    let same_origin = format!("Origin: http://localhost:{port}\r\n");
    let (status, _, body) =
        exchange(&server.addr, &post(&format!("localhost:{port}"), &same_origin, "application/json"));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("event: complete"), "{body}");
}

#[test]
fn a_token_is_required_when_given_and_a_public_address_needs_one() {
    let dir = project();
    std::fs::write(dir.path().join("token"), "s3cret\n").unwrap();
    let server = start_server_with(amplifier(dir.path()), &["--plan", "plan.yaml", "--token-file", "token"]);
    let (status, head, _) = exchange(&server.addr, &post(&server.addr, "", "application/json"));
    assert_eq!(status, 401);
    assert!(head.to_lowercase().contains("www-authenticate: bearer"), "{head}");
    let wrong = "Authorization: Bearer guess\r\n";
    assert_eq!(exchange(&server.addr, &post(&server.addr, wrong, "application/json")).0, 401);
    let right = "Authorization: Bearer s3cret\r\n";
    let (status, _, body) = exchange(&server.addr, &post(&server.addr, right, "application/json"));
    assert_eq!(status, 200, "{body}");

    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_amplifier"))
        .current_dir(dir.path())
        .env("AMPLIFIER_HOME", dir.path().join("home"))
        .env_remove("AMPLIFIER_SERVE_TOKEN")
        .args(["serve", "--plan", "plan.yaml", "--addr", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("not a loopback address, and no token was given"), "{}", stderr(&output));
    assert!(started.elapsed() < Duration::from_secs(10), "refused before building or binding anything");
}

#[test]
fn a_client_that_trickles_its_headers_is_dropped_and_one_that_asks_too_often_is_refused() {
    let dir = project();
    let args = ["--plan", "plan.yaml", "--read-timeout", "1", "--rate-limit", "3"];
    let server = start_server_with(amplifier(dir.path()), &args);

    let mut slow = std::net::TcpStream::connect(&server.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    slow.write_all(b"GET /v1/runs/t HTTP/1.1\r\nHo").unwrap();
    let started = Instant::now();
    let mut rest = Vec::new();
    // The server closes the connection (hyper may answer 408 first).
    let _ = slow.read_to_end(&mut rest);
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(10), "held open for {waited:?}");
    let text = String::from_utf8_lossy(&rest);
    assert!(text.is_empty() || text.starts_with("HTTP/1.1 408"), "{text}");

    // Three requests a minute from this client; the fourth is refused.
    for _ in 0..3 {
        assert_eq!(http(&server.addr, "GET", "/v1/runs/nobody", "").0, 404);
    }
    let (status, _, body) = http(&server.addr, "GET", "/v1/runs/nobody", "");
    assert_eq!(status, 429, "{body}");
}
