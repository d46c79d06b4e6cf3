//! `web_fetch` against a real HTTP/1.1 server on 127.0.0.1, written here in
//! a few lines of std so the tests need no server dependency.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use amplifier_sdk::prelude::*;

use crate::{web_fetch, Config, WebFetch};

const PAGE: &str = "<!DOCTYPE html><html><head><title>Harbour</title>\
    <style>.hidden-style { color: red }</style>\
    <script>var hiddenScript = 'never shown';</script></head>\
    <body><h1>Harbour news</h1><p>The ferry leaves at <a href=\"/times\">nine</a>.</p></body></html>";

/// A server that answers each connection on its own thread; `hits` counts requests.
struct Server {
    port: u16,
    hits: Arc<AtomicUsize>,
}

impl Server {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let counter = counter.clone();
                thread::spawn(move || answer(stream, port, &counter));
            }
        });
        Server { port, hits }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

fn answer(mut stream: TcpStream, port: u16, hits: &AtomicUsize) {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    hits.fetch_add(1, Ordering::SeqCst);
    let head = String::from_utf8_lossy(&head);
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let html = "text/html; charset=utf-8";
    let (status, content_type, location, body): (&str, Option<&str>, Option<String>, Vec<u8>) = match path.as_str() {
        "/page" => ("200 OK", Some(html), None, PAGE.into()),
        "/untyped-page" => ("200 OK", None, None, PAGE.into()),
        "/plain" => ("200 OK", Some("text/plain"), None, "  just <b>plain</b> text\n".into()),
        "/json" => ("200 OK", Some("application/json"), None, r#"{"answer": 42, "list": [1, 2]}"#.into()),
        "/big" => ("200 OK", Some("text/plain"), None, "0123456789".repeat(100_000).into()),
        "/image" => ("200 OK", Some("image/png"), None, b"\x89PNG\r\n\x1a\n\0\0\0".to_vec()),
        "/missing" => ("404 Not Found", Some("text/plain"), None, "no such page".into()),
        "/broken" => ("500 Internal Server Error", Some("text/plain"), None, "oops".into()),
        "/slow" => {
            thread::sleep(Duration::from_secs(3));
            ("200 OK", Some("text/plain"), None, "too late".into())
        }
        "/redirect/page" => ("302 Found", None, Some("/page".into()), Vec::new()),
        "/redirect/blocked" => {
            ("301 Moved Permanently", None, Some(format!("http://www.blocked.test:{port}/x")), vec![])
        }
        "/redirect/localhost" => {
            ("307 Temporary Redirect", None, Some(format!("http://localhost:{port}/page")), vec![])
        }
        "/redirect/file" => ("302 Found", None, Some("file:///etc/passwd".into()), Vec::new()),
        p if p.starts_with("/loop/") => {
            let n: u32 = p["/loop/".len()..].parse().unwrap_or(0);
            ("302 Found", None, Some(format!("/loop/{}", n + 1)), Vec::new())
        }
        _ => ("404 Not Found", None, None, Vec::new()),
    };
    let mut response = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    if let Some(content_type) = content_type {
        response.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    if let Some(location) = location {
        response.push_str(&format!("Location: {location}\r\n"));
    }
    response.push_str("\r\n");
    // The client may hang up early (size cap, timeout): write errors are expected then.
    let _ = stream.write_all(response.as_bytes()).and_then(|()| stream.write_all(&body));
}

fn tool(config: Value) -> WebFetch {
    let config: Config = amplifier_sdk::testing::config_with_defaults(include_str!("../amplifier.toml"), config);
    web_fetch(config).unwrap_or_else(|err| panic!("{err}"))
}

fn open_tool() -> WebFetch {
    tool(json!({"allow_private_addresses": true}))
}

async fn fetch(tool: &WebFetch, url: &str) -> ToolResult {
    tool.execute(json!({"url": url})).await
}

fn output(result: &ToolResult) -> &Value {
    assert!(result.success, "expected success, got {result:?}");
    result.output.as_ref().unwrap()
}

/// `(type, message)` of a failed result.
fn failure(result: &ToolResult) -> (String, String) {
    assert!(!result.success, "expected an error, got {result:?}");
    let error = result.error.as_ref().unwrap();
    (error["type"].as_str().unwrap().to_owned(), error["message"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn an_html_page_becomes_readable_text() {
    let server = Server::start();
    let url = server.url("/page");
    let result = fetch(&open_tool(), &url).await;
    let out = output(&result);
    assert_eq!(out["url"], url);
    assert_eq!(out["status"], 200);
    assert_eq!(out["content_type"], "text/html; charset=utf-8");
    assert_eq!(out["truncated"], false);
    let text = out["text"].as_str().unwrap();
    assert!(text.contains("# Harbour news"), "{text}");
    assert!(text.contains("The ferry leaves at") && text.contains("nine"), "{text}");
    assert!(text.contains("/times"), "link targets are listed: {text}");
    for hidden in ["hiddenScript", "never shown", "hidden-style", "<h1>"] {
        assert!(!text.contains(hidden), "{hidden} leaked: {text}");
    }
}

#[tokio::test]
async fn an_untyped_html_body_is_sniffed_as_html() {
    let server = Server::start();
    let result = fetch(&open_tool(), &server.url("/untyped-page")).await;
    let out = output(&result);
    assert_eq!(out["content_type"], Value::Null);
    let text = out["text"].as_str().unwrap();
    assert!(text.contains("# Harbour news") && !text.contains("hiddenScript"), "{text}");
}

#[tokio::test]
async fn plain_text_and_json_bodies_are_returned_as_is() {
    let server = Server::start();
    let tool = open_tool();
    let plain = fetch(&tool, &server.url("/plain")).await;
    assert_eq!(output(&plain)["text"], "  just <b>plain</b> text\n");
    let json = fetch(&tool, &server.url("/json")).await;
    assert_eq!(output(&json)["text"], r#"{"answer": 42, "list": [1, 2]}"#);
    assert_eq!(output(&json)["content_type"], "application/json");
}

#[tokio::test]
async fn a_body_over_the_cap_is_cut_and_marked() {
    let server = Server::start();
    let tool = tool(json!({"allow_private_addresses": true, "max_bytes": 1000}));
    let result = fetch(&tool, &server.url("/big")).await;
    let out = output(&result);
    assert_eq!(out["truncated"], true);
    let text = out["text"].as_str().unwrap();
    let (body, marker) = text.split_once("\n\n").unwrap();
    assert_eq!(body, "0123456789".repeat(100));
    assert_eq!(marker, "[truncated: stopped reading at max_bytes = 1000 bytes]");
    // Under the cap: not truncated.
    let small = fetch(&tool, &server.url("/json")).await;
    assert_eq!(output(&small)["truncated"], false);
}

#[tokio::test]
async fn a_slow_endpoint_times_out() {
    let server = Server::start();
    let tool = tool(json!({"allow_private_addresses": true, "timeout": 0.5}));
    let started = Instant::now();
    let result = fetch(&tool, &server.url("/slow")).await;
    let elapsed = started.elapsed();
    let (kind, message) = failure(&result);
    assert_eq!(kind, "timeout");
    assert!(message.contains("timed out after 0.5s (rule: timeout)"), "{message}");
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
}

#[tokio::test]
async fn redirects_are_followed_and_the_final_url_reported() {
    let server = Server::start();
    let result = fetch(&open_tool(), &server.url("/redirect/page")).await;
    let out = output(&result);
    assert_eq!(out["url"], server.url("/page"));
    assert!(out["text"].as_str().unwrap().contains("Harbour news"));
    assert_eq!(server.hits(), 2);
}

#[tokio::test]
async fn a_redirect_to_a_blocked_domain_is_refused() {
    let server = Server::start();
    let tool = tool(json!({"allow_private_addresses": true, "blocked_domains": ["*.blocked.test"]}));
    let result = fetch(&tool, &server.url("/redirect/blocked")).await;
    let (kind, message) = failure(&result);
    assert_eq!(kind, "refused");
    assert_eq!(
        message,
        format!(
            "refused the redirect from {} to http://www.blocked.test:{}/x: the host www.blocked.test matches \
             blocked_domains entry '*.blocked.test' (rule: blocked_domains)",
            server.url("/redirect/blocked"),
            server.port
        )
    );
}

#[tokio::test]
async fn every_redirect_hop_is_checked_against_allowed_domains_and_scheme() {
    let server = Server::start();
    let tool = tool(json!({"allow_private_addresses": true, "allowed_domains": ["127.0.0.1"]}));
    assert!(fetch(&tool, &server.url("/page")).await.success, "the first host is allowed");
    let (kind, message) = failure(&fetch(&tool, &server.url("/redirect/localhost")).await);
    assert_eq!(kind, "refused");
    assert!(message.contains("the host localhost is not in allowed_domains (rule: allowed_domains)"), "{message}");
    let (kind, message) = failure(&fetch(&tool, &server.url("/redirect/file")).await);
    assert_eq!(kind, "refused");
    assert!(message.contains("to file:///etc/passwd: the scheme 'file' is not http or https"), "{message}");
}

#[tokio::test]
async fn redirects_stop_after_five() {
    let server = Server::start();
    let (kind, message) = failure(&fetch(&open_tool(), &server.url("/loop/0")).await);
    assert_eq!(kind, "too_many_redirects");
    assert!(message.contains("stopped after 5 redirects"), "{message}");
    assert_eq!(server.hits(), 6, "the first request and five redirects");
}

#[tokio::test]
async fn loopback_is_refused_by_default_before_connecting() {
    let server = Server::start();
    let tool = tool(json!({}));
    let url = server.url("/page");
    let (kind, message) = failure(&fetch(&tool, &url).await);
    assert_eq!(kind, "refused");
    assert_eq!(
        message,
        format!("refused {url}: 127.0.0.1 is a loopback address (rule: allow_private_addresses is false)")
    );

    // Other spellings of the same address.
    for url in [
        format!("http://[::ffff:127.0.0.1]:{}/page", server.port),
        format!("http://2130706433:{}/page", server.port),
        format!("http://0.0.0.0:{}/page", server.port),
        format!("http://[::1]:{}/page", server.port),
    ] {
        let (kind, message) = failure(&fetch(&tool, &url).await);
        assert_eq!(kind, "refused", "{url}");
        assert!(message.ends_with("(rule: allow_private_addresses is false)"), "{message}");
    }

    // A name that resolves to loopback: refused by the resolver, on the address it returned.
    let (kind, message) = failure(&fetch(&tool, &format!("http://localhost:{}/page", server.port)).await);
    assert_eq!(kind, "refused");
    assert!(message.contains("localhost resolves to"), "{message}");
    assert!(message.ends_with("loopback address (rule: allow_private_addresses is false)"), "{message}");

    assert_eq!(server.hits(), 0, "nothing reached the server");

    // Allowed when configured.
    assert!(fetch(&open_tool(), &url).await.success);
    assert!(fetch(&open_tool(), &format!("http://localhost:{}/page", server.port)).await.success);
}

#[tokio::test]
async fn http_errors_name_the_status() {
    let server = Server::start();
    let tool = open_tool();
    let (kind, message) = failure(&fetch(&tool, &server.url("/missing")).await);
    assert_eq!(kind, "http_error");
    assert_eq!(message, format!("{} answered HTTP 404 Not Found", server.url("/missing")));
    let (kind, message) = failure(&fetch(&tool, &server.url("/broken")).await);
    assert_eq!(kind, "http_error");
    assert!(message.ends_with("answered HTTP 500 Internal Server Error"), "{message}");
}

#[tokio::test]
async fn binary_bodies_and_bad_urls_are_errors() {
    let server = Server::start();
    let tool = open_tool();
    let (kind, message) = failure(&fetch(&tool, &server.url("/image")).await);
    assert_eq!(kind, "unsupported_content");
    assert!(message.contains("is image/png; web_fetch returns text only"), "{message}");
    let (kind, message) = failure(&fetch(&tool, "not a url").await);
    assert_eq!(kind, "invalid_url");
    assert!(message.contains("'not a url' is not a valid URL"), "{message}");
    let (kind, message) = failure(&fetch(&tool, "ftp://127.0.0.1/x").await);
    assert_eq!(kind, "refused");
    assert!(message.ends_with("the scheme 'ftp' is not http or https (rule: only http and https URLs)"), "{message}");
}

#[tokio::test]
async fn https_goes_through_rustls_and_a_failed_handshake_is_an_error_result() {
    // A plain-HTTP answer to a TLS ClientHello: rustls must report it, not panic.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let (kind, message) = failure(&fetch(&open_tool(), &format!("https://127.0.0.1:{port}/")).await);
    assert_eq!(kind, "fetch_failed");
    assert!(message.starts_with(&format!("fetching https://127.0.0.1:{port}/ failed: ")), "{message}");
}
