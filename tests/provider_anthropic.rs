//! `provider-anthropic` against a local server that speaks the Messages API
//! wire format as Anthropic documents it (`message_start`,
//! `content_block_start`/`delta`/`stop` with `text_delta`, `input_json_delta`,
//! `thinking_delta`, `signature_delta`, `message_delta`, `message_stop`,
//! `ping`, `error`): there is no real Anthropic server here.

mod common;
mod provider_support;

use std::time::{Duration, Instant};

use amplifier_kernel::models::{ChatRequest, Message};
use amplifier_kernel::ErrorKind;
use common::*;
use provider_support::*;
use serde_json::{json, Value};

const KEY: &str = "sk-ant-api03-TESTKEY0123456789";
/// Thinking text and signature with what a careless round trip would change:
/// newlines, trailing spaces, `+`, `/`, `=`, non-ASCII.
const THINKING: &str = "The user wants an echo.\n  I will call the tool.  ";
const SIGNATURE: &str = "EqQBCkYIBRgCIkB+/vZ3Qm9=é/ü==";

fn event(name: &'static str, data: Value) -> (Option<&'static str>, Value) {
    (Some(name), data)
}

fn message_start(usage: Value) -> (Option<&'static str>, Value) {
    event(
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_01", "type": "message", "role": "assistant", "content": [],
            "model": "claude-test", "stop_reason": null, "stop_sequence": null, "usage": usage}}),
    )
}

fn block_start(index: usize, block: Value) -> (Option<&'static str>, Value) {
    event("content_block_start", json!({"type": "content_block_start", "index": index, "content_block": block}))
}

fn block_delta(index: usize, delta: Value) -> (Option<&'static str>, Value) {
    event("content_block_delta", json!({"type": "content_block_delta", "index": index, "delta": delta}))
}

fn block_stop(index: usize) -> (Option<&'static str>, Value) {
    event("content_block_stop", json!({"type": "content_block_stop", "index": index}))
}

fn message_end(stop_reason: &str, output_tokens: u64) -> Vec<(Option<&'static str>, Value)> {
    vec![
        event(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": null}, "usage": {"output_tokens": output_tokens}}),
        ),
        event("message_stop", json!({"type": "message_stop"})),
    ]
}

/// A streamed message with one text block.
fn text_message(text: &str) -> Reply {
    let mut frames = vec![
        message_start(json!({"input_tokens": 30, "output_tokens": 1})),
        block_start(0, json!({"type": "text", "text": ""})),
        block_delta(0, json!({"type": "text_delta", "text": text})),
        block_stop(0),
    ];
    frames.extend(message_end("end_turn", 5));
    Reply::sse(frames)
}

fn anthropic_config(server: &FakeServer, extra: &str) -> String {
    format!(
        "{{base_url: \"{}\", api_key: \"{KEY}\", default_model: claude-test, retry_jitter: false, min_retry_delay: 0.05, {extra}}}",
        server.url
    )
}

/// `amplifier run` of `prompt` with provider-anthropic on `server` (and the
/// standard loop, context and echo tool).
fn run_on(server: &FakeServer, prompt: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let provider = format!(
        "  - module: provider-anthropic\n    source: \"{}\"\n    config: {}\n",
        plugin("provider-anthropic"),
        anthropic_config(server, "max_retries: 0")
    );
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();
    amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", prompt]).output().unwrap()
}

#[test]
fn a_streamed_tool_use_and_its_signed_thinking_block_round_trip_through_amplifier_run() {
    let mut first = vec![
        message_start(
            json!({"input_tokens": 50, "cache_read_input_tokens": 200, "cache_creation_input_tokens": 10, "output_tokens": 1}),
        ),
        block_start(0, json!({"type": "thinking", "thinking": ""})),
        block_delta(0, json!({"type": "thinking_delta", "thinking": &THINKING[..20]})),
        event("ping", json!({"type": "ping"})),
        block_delta(0, json!({"type": "thinking_delta", "thinking": &THINKING[20..]})),
        block_delta(0, json!({"type": "signature_delta", "signature": SIGNATURE})),
        block_stop(0),
        block_start(1, json!({"type": "text", "text": ""})),
        block_delta(1, json!({"type": "text_delta", "text": "Let me echo that."})),
        block_stop(1),
        block_start(2, json!({"type": "tool_use", "id": "toolu_01A", "name": "echo", "input": {}})),
        block_delta(2, json!({"type": "input_json_delta", "partial_json": ""})),
        block_delta(2, json!({"type": "input_json_delta", "partial_json": "{\"text\": \"round"})),
        block_delta(2, json!({"type": "input_json_delta", "partial_json": " trip\"}"})),
        block_stop(2),
    ];
    first.extend(message_end("tool_use", 30));
    let server = FakeServer::start(vec![Reply::sse(first), text_message("Echoed: round trip.")]);
    let output = run_on(&server, "Echo 'round trip'.");
    assert!(output.status.success(), "stderr:\n{}\nstdout:\n{}", stderr(&output), stdout(&output));
    let lines = json_lines(&output);
    let pre = lines.iter().find(|l| l["event"] == "tool:pre").expect("the tool call");
    assert_eq!(pre["data"]["tool_name"], "echo");
    assert_eq!(pre["data"]["tool_input"], json!({"text": "round trip"}));
    assert_eq!(pre["data"]["tool_call_id"], "toolu_01A");
    assert_eq!(lines.last().unwrap()["data"]["response"], "Echoed: round trip.");

    // Deltas were emitted as they arrived: thinking, text, the tool call's id/name then its JSON.
    let first_turn = lines.iter().take_while(|l| l["event"] != "llm:response");
    let deltas: Vec<&Value> = first_turn.filter(|l| l["event"] == "content_block:delta").map(|l| &l["data"]).collect();
    let kinds: Vec<&str> = deltas.iter().map(|d| d["block_type"].as_str().unwrap()).collect();
    assert_eq!(kinds[..3], ["thinking", "thinking", "text"]);
    assert!(kinds[3..].iter().all(|k| *k == "tool_call"), "{kinds:?}");
    assert_eq!(deltas[3]["name"], "echo");

    // Usage counts cache reads and writes.
    let first_response = lines.iter().find(|l| l["event"] == "llm:response").unwrap();
    let usage = &first_response["data"]["usage"];
    assert_eq!(usage["input_tokens"], 260);
    assert_eq!((usage["cache_read_tokens"].as_u64(), usage["cache_write_tokens"].as_u64()), (Some(200), Some(10)));
    assert_eq!((usage["output_tokens"].as_u64(), usage["total_tokens"].as_u64()), (Some(30), Some(290)));

    let received = server.received();
    assert_eq!(received.len(), 2);
    for request in &received {
        assert_eq!((request.method.as_str(), request.path.as_str()), ("POST", "/v1/messages"));
        assert_eq!(request.headers["x-api-key"], KEY);
        assert_eq!(request.headers["anthropic-version"], "2023-06-01");
        assert_eq!(request.json()["stream"], true);
    }
    // The second request replays the thinking block with the same signature, byte for byte.
    let second = received[1].json();
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{second}");
    assert_eq!(messages[0], json!({"role": "user", "content": [{"type": "text", "text": "Echo 'round trip'."}]}));
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(
        messages[1]["content"],
        json!([
            {"type": "thinking", "thinking": THINKING, "signature": SIGNATURE},
            {"type": "text", "text": "Let me echo that."},
            {"type": "tool_use", "id": "toolu_01A", "name": "echo", "input": {"text": "round trip"}}
        ])
    );
    let raw_signature = format!("\"signature\":{}", serde_json::to_string(SIGNATURE).unwrap());
    assert!(received[1].body.contains(&raw_signature), "byte-exact in the raw body: {}", received[1].body);
    assert_eq!(
        messages[2],
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "round trip"}]})
    );
    assert_fits_sdk("anthropic", &received);
}

#[test]
fn a_failed_tool_call_reaches_the_model_as_an_error_result() {
    // The model calls echo without its required `text`: the call fails before the tool runs.
    let mut first = vec![
        message_start(json!({"input_tokens": 20, "output_tokens": 1})),
        block_start(0, json!({"type": "tool_use", "id": "toolu_02", "name": "echo", "input": {}})),
        block_delta(0, json!({"type": "input_json_delta", "partial_json": "{\"words\": \"hi\"}"})),
        block_stop(0),
    ];
    first.extend(message_end("tool_use", 10));
    let server = FakeServer::start(vec![Reply::sse(first), text_message("I passed the wrong field.")]);
    let output = run_on(&server, "Echo hi.");
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let second = server.received()[1].json();
    let result = &second["messages"][2]["content"][0];
    assert_eq!(
        (&result["type"], &result["tool_use_id"], &result["is_error"]),
        (&json!("tool_result"), &json!("toolu_02"), &json!(true)),
        "{second}"
    );
    assert!(result["content"].as_str().unwrap().contains("text"), "the error names the missing field: {result}");
    assert_fits_sdk("anthropic", &server.received());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_system_prompt_is_top_level_and_overloaded_servers_get_longer_backoff() {
    let overloaded = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    let server = FakeServer::start(vec![
        Reply::json(529, overloaded.clone()),
        // An error event inside an otherwise fine stream, before any content.
        Reply::sse([message_start(json!({"input_tokens": 1, "output_tokens": 1})), event("error", overloaded)]),
        text_message("Hello there."),
    ]);
    let config = anthropic_config(&server, "max_retries: 2, overloaded_delay_multiplier: 4");
    let harness = mount(&provider_entry("provider-anthropic", "claude", &config)).await;
    let request = ChatRequest {
        messages: vec![Message::system("You are terse."), Message::user("Hi")].into(),
        ..ChatRequest::default()
    };
    let started = Instant::now();
    let (response, deltas) = harness.complete("claude", request, true).await;
    let response = response.expect("success on the third attempt");
    assert_eq!(response.text(), "Hello there.");
    assert_eq!(deltas, [json!({"type": "text", "index": 0, "text": "Hello there."})]);
    assert!(started.elapsed() >= Duration::from_millis(600));
    let retries = harness.events.named("provider:retry");
    let delays: Vec<f64> = retries.iter().map(|r| r["delay"].as_f64().unwrap()).collect();
    // 0.05 s then 0.1 s from the schedule, each times 4 for "overloaded".
    assert_eq!(delays, [0.2, 0.4]);
    assert!(retries.iter().all(|r| r["error_type"] == "unavailable" && r["status_code"] == 529), "{retries:?}");
    assert_eq!((retries[0]["provider"].as_str(), retries[0]["max_retries"].as_u64()), (Some("anthropic"), Some(2)));

    let sent = server.received()[2].json();
    assert_eq!(sent["system"], json!([{"type": "text", "text": "You are terse."}]));
    assert_eq!(sent["messages"], json!([{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]));
    assert_eq!((sent["model"].as_str(), sent["max_tokens"].as_u64()), (Some("claude-test"), Some(8192)));
    assert_fits_sdk("anthropic", &server.received());
    harness.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_map_to_kinds_without_the_key_and_models_are_listed() {
    let error = |kind: &str, message: &str| json!({"type": "error", "error": {"type": kind, "message": message}});
    let server = FakeServer::start(vec![
        Reply::json(401, error("authentication_error", &format!("invalid x-api-key {KEY}"))),
        Reply::json(400, error("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum")),
        Reply::json(429, error("rate_limit_error", "Number of request tokens has exceeded your rate limit"))
            .with_header("retry-after", "0"),
        Reply::json(
            200,
            json!({"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "text", "text": "Fine."}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 3, "output_tokens": 2}}),
        ),
        Reply::json(
            200,
            json!({"data": [{"type": "model", "id": "claude-test", "display_name": "Claude Test"}], "has_more": false}),
        ),
    ]);
    let config = anthropic_config(&server, "use_streaming: false, max_retries: 1");
    let harness = mount(&provider_entry("provider-anthropic", "claude", &config)).await;
    let hi = || ChatRequest { messages: vec![Message::user("Hi")].into(), ..ChatRequest::default() };

    let err = harness.complete("claude", hi(), false).await.0.expect_err("401");
    assert_eq!((err.kind, err.status_code, err.retryable), (ErrorKind::Authentication, Some(401), false));
    assert!(!err.message.contains("TESTKEY0123456789"), "the key leaked: {}", err.message);
    let err = harness.complete("claude", hi(), false).await.0.expect_err("400");
    assert_eq!((err.kind, err.status_code), (ErrorKind::ContextLength, Some(400)));
    assert!(err.message.contains("prompt is too long"), "{}", err.message);

    // A 429 is retried; the retry succeeds with a non-streamed message.
    let response = harness.complete("claude", hi(), false).await.0.expect("retried after the 429");
    assert_eq!(response.text(), "Fine.");
    assert_eq!(harness.events.named("provider:retry")[0]["error_type"], "rate_limit");

    let models = harness.list_models("claude").await.unwrap();
    assert_eq!((models[0].id.as_str(), models[0].display_name.as_str()), ("claude-test", "Claude Test"));
    let received = server.received();
    assert_eq!(received.len(), 5);
    assert!(received[..4].iter().all(|r| r.json().get("stream").is_none()));
    assert_eq!((received[4].method.as_str(), received[4].path.as_str()), ("GET", "/v1/models?limit=1000"));
    harness.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limit_nearly_used_up_slows_the_next_request_down_and_says_so() {
    let message = |text: &str| {
        Reply::json(
            200,
            json!({"id": "msg_t", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 3, "output_tokens": 2}}),
        )
    };
    let limited = json!({"type": "error", "error": {"type": "rate_limit_error", "message": "Slow down"}});
    let server = FakeServer::start(vec![
        // Refused, with one request in a hundred left; tokens are fine.
        Reply::json(429, limited)
            .with_header("anthropic-ratelimit-requests-remaining", "1")
            .with_header("anthropic-ratelimit-requests-limit", "100")
            .with_header("anthropic-ratelimit-requests-reset", "2026-11-26T10:30:00Z")
            .with_header("anthropic-ratelimit-tokens-remaining", "450000")
            .with_header("anthropic-ratelimit-tokens-limit", "500000"),
        message("two")
            .with_header("anthropic-ratelimit-requests-remaining", "50")
            .with_header("anthropic-ratelimit-requests-limit", "100"),
        message("three"),
    ]);
    let config = anthropic_config(&server, "use_streaming: false, max_retries: 0, throttle_delay: 0.3");
    let harness = mount(&provider_entry("provider-anthropic", "claude", &config)).await;
    let hi = || ChatRequest { messages: vec![Message::user("Hi")].into(), ..ChatRequest::default() };

    let refused = harness.complete("claude", hi(), false).await.0.unwrap_err();
    assert_eq!(refused.kind, ErrorKind::RateLimit);
    assert!(harness.events.named("provider:throttle").is_empty(), "nothing to go by before the first reply");
    let started = Instant::now();
    assert_eq!(harness.complete("claude", hi(), false).await.0.unwrap().text(), "two");
    assert!(started.elapsed() >= Duration::from_millis(300), "the request waited the delay");
    let throttles = harness.events.named("provider:throttle");
    assert_eq!(throttles.len(), 1, "{throttles:?}");
    let throttle = &throttles[0];
    assert_eq!(
        [&throttle["provider"], &throttle["model"], &throttle["reason"], &throttle["dimension"]],
        [&json!("anthropic"), &json!("claude-test"), &json!("requests_low"), &json!("requests")]
    );
    assert_eq!((throttle["remaining"].as_u64(), throttle["limit"].as_u64()), (Some(1), Some(100)));
    assert_eq!((throttle["ratio"].as_f64(), throttle["delay"].as_f64()), (Some(0.01), Some(0.3)));
    assert_eq!(throttle["reset_timestamp"], "2026-11-26T10:30:00Z");
    // The second reply left half the requests: no more waiting.
    assert_eq!(harness.complete("claude", hi(), false).await.0.unwrap().text(), "three");
    assert_eq!(harness.events.named("provider:throttle").len(), 1);
    harness.close().await;
}
