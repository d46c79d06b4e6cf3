//! `tool-web` end to end: the real binary loads the plugin, the scripted
//! provider calls `web_fetch` on a page served by this test on 127.0.0.1.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use common::*;
use serde_json::Value;

const PAGE: &str = "<!DOCTYPE html><html><head><title>Lighthouse</title>\
    <script>var keeperSecret = 'script content';</script><style>.beam { color: yellow }</style></head>\
    <body><h1>Lighthouse keeping</h1><p>The lamp is lit at dusk and trimmed at dawn.</p></body></html>";

/// Serves PAGE to every request on 127.0.0.1; returns the port and a request counter.
/// Bounded: at most 16 connections, then the thread ends.
fn serve_page() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    thread::spawn(move || {
        for mut stream in listener.incoming().flatten().take(16) {
            stream.set_read_timeout(Some(Duration::from_secs(5))).ok();
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") {
                match stream.read(&mut byte) {
                    Ok(1) => head.push(byte[0]),
                    _ => break,
                }
            }
            counter.fetch_add(1, Ordering::SeqCst);
            let response = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{PAGE}",
                PAGE.len()
            );
            let _ = stream.write_all(response.as_bytes());
        }
    });
    (port, hits)
}

/// Runs a session whose provider fetches `url` then answers "done"; returns the jsonl lines.
fn run_fetch(url: &str, config: &str) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(r#"[{{tool_calls: [{{name: web_fetch, arguments: {{url: "{url}"}}}}]}}, {{text: "done"}}]"#);
    let tool = format!("  - {{module: tool-web, source: \"{}\", config: {config}}}", plugin("tool-web"));
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&scripted(&script), &tool, "  []")).unwrap();
    let output = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "read the page"])
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.last().unwrap()["data"]["response"], "done");
    lines
}

#[test]
fn web_fetch_returns_a_local_pages_readable_text() {
    let (port, hits) = serve_page();
    let url = format!("http://127.0.0.1:{port}/page");
    let lines = run_fetch(&url, "{allow_private_addresses: true}");
    let post = lines.iter().find(|l| l["event"] == "tool:post").expect("a tool:post event");
    assert_eq!(post["data"]["tool_name"], "web_fetch");
    let result = &post["data"]["result"];
    assert_eq!(result["success"], true, "{result}");
    let output = &result["output"];
    assert_eq!(output["url"], url);
    assert_eq!(output["status"], 200);
    assert_eq!(output["truncated"], false);
    let text = output["text"].as_str().unwrap();
    assert!(text.contains("Lighthouse keeping"), "{text}");
    assert!(text.contains("The lamp is lit at dusk and trimmed at dawn."), "{text}");
    for hidden in ["keeperSecret", "script content", "color: yellow", "<p>"] {
        assert!(!text.contains(hidden), "{hidden} leaked into: {text}");
    }
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[test]
fn web_fetch_refuses_loopback_by_default_and_names_the_rule() {
    let (port, hits) = serve_page();
    let lines = run_fetch(&format!("http://127.0.0.1:{port}/page"), "{}");
    // The tool's own refusal goes through tool:post, as upstream's loops send it.
    let post = lines.iter().find(|l| l["event"] == "tool:post").expect("a tool:post event");
    assert!(!lines.iter().any(|l| l["event"] == "tool:error"));
    let result = &post["data"]["result"];
    assert_eq!(result["success"], false);
    assert_eq!(result["error"]["type"], "refused");
    let message = result["output"].as_str().unwrap();
    assert!(message.contains("127.0.0.1 is a loopback address (rule: allow_private_addresses is false)"), "{message}");
    assert_eq!(hits.load(Ordering::SeqCst), 0, "nothing reached the server");
}
