//! `provider-openai` against a REAL llama.cpp server (xllamacpp, Qwen2.5-Coder
//! 0.5B, tests/llm/setup.sh), and its retries and error mapping against a
//! scripted local HTTP server (the only test double: a real server cannot be
//! made to fail on cue). Assertions on the model's output are limited to
//! what a tiny model reliably does: some text comes back; a tool call is
//! made with valid arguments.

mod common;
mod provider_support;

use std::time::{Duration, Instant};

use amplifier_kernel::models::{ChatRequest, ContentBlock, Message, ToolSpec};
use amplifier_kernel::ErrorKind;
use common::*;
use provider_support::*;
use serde_json::{json, Value};

const KEY: &str = "sk-test-SECRET0123456789";

fn openai(instance: &str, config: &str) -> String {
    provider_entry("provider-openai", instance, config)
}

fn hello() -> ChatRequest {
    ChatRequest { messages: vec![Message::user("Say hello in one short sentence.")].into(), ..ChatRequest::default() }
}

/// The real-server cases run one after another on one server: the machine is
/// small and the model is slow, so there are few of them and they are short.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_llama_cpp_server_completes_streams_lists_models_and_runs_a_tool_turn() {
    let server = LlmServer::start();
    let base = format!("{}/v1", server.url);
    let common = format!("base_url: \"{base}\", default_model: {LLM_MODEL_ALIAS}, max_tokens: 24, max_retries: 1");
    let harness = mount(&format!(
        "{}{}",
        openai("plain", &format!("{{{common}, use_streaming: false}}")),
        openai("streamed", &format!("{{{common}}}"))
    ))
    .await;

    // A plain (non-streamed) completion.
    let (response, deltas) = harness.complete("plain", hello(), false).await;
    let response = response.expect("a plain completion");
    assert!(!response.text().trim().is_empty(), "some text came back: {response:?}");
    let usage = response.usage.clone().expect("usage");
    assert!(usage.input_tokens > 0 && usage.output_tokens > 0, "{usage:?}");
    assert!(response.finish_reason.is_some());
    assert!(deltas.is_empty());
    let requests = harness.events.named("llm:request");
    assert_eq!(requests.len(), 1);
    assert_eq!((requests[0]["provider"].as_str(), requests[0]["stream"].as_bool()), (Some("openai"), Some(false)));
    let responses = harness.events.named("llm:response");
    assert_eq!(responses[0]["status"], "ok");
    assert!(responses[0]["duration_ms"].is_u64());
    assert_eq!(responses[0]["usage"]["output_tokens"].as_u64(), Some(usage.output_tokens));
    assert!(harness.events.named("content_block:delta").is_empty());
    harness.events.clear();

    // A streamed completion: deltas reach the caller as they arrive.
    let (response, deltas) = harness.complete("streamed", hello(), true).await;
    let response = response.expect("a streamed completion");
    let streamed: String =
        deltas.iter().filter(|d| d["type"] == "text").map(|d| d["text"].as_str().unwrap_or_default()).collect();
    assert!(!streamed.trim().is_empty(), "text deltas arrived: {deltas:?}");
    assert_eq!(streamed, response.text());
    // The caller asked for the stream, so the events are its to emit.
    assert!(harness.events.named("content_block:delta").is_empty());
    // stream_options.include_usage: the final chunk carried the usage.
    assert!(response.usage.as_ref().is_some_and(|u| u.input_tokens > 0 && u.output_tokens > 0), "{response:?}");
    assert_eq!(harness.events.named("llm:request")[0]["stream"], true);

    // list_models from /v1/models.
    let models = harness.list_models("streamed").await.expect("list_models");
    assert!(models.iter().any(|m| m.id == LLM_MODEL_ALIAS), "{models:?}");
    harness.close().await;

    // A full agent turn through `amplifier run` under loop-streaming: the
    // model calls echo, then answers. Greedy sampling: at the server's
    // default temperature the small model sometimes answered without the tool.
    let dir = tempfile::tempdir().unwrap();
    let provider = format!(
        "  - module: provider-openai\n    source: \"{}\"\n    config: {{base_url: \"{base}\", default_model: {LLM_MODEL_ALIAS}, max_tokens: 60, temperature: 0}}\n",
        plugin("provider-openai")
    );
    let plan = plan_yaml(&provider, "", "  []").replace(
        &format!("{{module: loop-basic, source: \"{}\"}}", plugin("loop-basic")),
        &format!("{{module: loop-streaming, source: \"{}\", config: {{max_iterations: 3}}}}", plugin("loop-streaming")),
    );
    assert!(plan.contains("max_iterations: 3"), "{plan}");
    let lines = echo_turn(dir.path(), &plan);
    let result = &lines.last().unwrap()["data"];
    // Each streamed piece is one content_block:delta, emitted once (by the
    // loop, which asked for the stream, not also by the provider): the last
    // call's text deltas spell its answer exactly.
    let last_call = lines.iter().rposition(|l| l["event"] == "provider:request").unwrap();
    let streamed: String = lines[last_call..]
        .iter()
        .filter(|l| l["event"] == "content_block:delta" && l["data"]["block_type"] == "text")
        .map(|l| l["data"]["delta"].as_str().unwrap())
        .collect();
    assert_eq!(streamed, result["response"].as_str().unwrap(), "{lines:?}");
    assert_eq!(result["status"], "success");
    assert!(!result["response"].as_str().unwrap_or_default().trim().is_empty(), "an answer came back: {result}");

    // llama.cpp's own Responses API (`/v1/responses`): the same streamed tool turn.
    let responses = plan.replace("temperature: 0}", "temperature: 0, api: responses}");
    assert!(responses.contains("api: responses"), "{responses}");
    let lines = echo_turn(dir.path(), &responses);
    let result = &lines.last().unwrap()["data"];
    assert_eq!(result["status"], "success", "{result}");
    assert!(!result["response"].as_str().unwrap_or_default().trim().is_empty(), "an answer came back: {result}");
    let request = &lines.iter().find(|l| l["event"] == "llm:request").unwrap()["data"];
    assert_eq!(request["api"], "responses", "{request}");
    let usage = &lines.iter().find(|l| l["event"] == "llm:response").unwrap()["data"]["usage"];
    assert!(usage["input_tokens"].as_u64() > Some(0), "usage from response.completed: {usage}");
    let deltas = lines.iter().filter(|l| l["event"] == "content_block:delta").count();
    assert!(deltas > 0, "the answer streamed");

    // The same server speaks Anthropic's Messages API too (llama.cpp's own
    // `/v1/messages`): provider-anthropic runs the same tool turn on it.
    let anthropic = format!(
        "  - module: provider-anthropic\n    source: \"{}\"\n    config: {{base_url: \"{}\", api_key: not-checked, default_model: {LLM_MODEL_ALIAS}, max_tokens: 60, temperature: 0}}\n",
        plugin("provider-anthropic"),
        server.url
    );
    let lines = echo_turn(dir.path(), &plan_yaml(&anthropic, "", "  []"));
    let responses: Vec<&Value> = lines.iter().filter(|l| l["event"] == "llm:response").collect();
    assert!(responses.iter().all(|r| r["data"]["provider"] == "anthropic"), "{responses:?}");
    assert!(
        responses[0]["data"]["usage"]["input_tokens"].as_u64() > Some(0),
        "usage from the server: {:?}",
        responses[0]
    );
    let result = &lines.last().unwrap()["data"];
    assert_eq!(result["status"], "success", "{result}");
    assert!(!result["response"].as_str().unwrap_or_default().trim().is_empty(), "an answer came back: {result}");
    drop(server);
}

/// `amplifier run` of `plan` asked to echo "hello": the model must call
/// echo with valid arguments, the tool must run, and a second model call
/// must follow. Returns the jsonl lines.
fn echo_turn(dir: &std::path::Path, plan: &str) -> Vec<Value> {
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir)
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl"])
        .arg("Use the echo tool to echo the text: hello")
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}\nstdout:\n{}", stderr(&output), stdout(&output));
    let lines = json_lines(&output);
    let pre = lines.iter().find(|l| l["event"] == "tool:pre").expect("the model called a tool");
    assert_eq!(pre["data"]["tool_name"], "echo");
    let text = pre["data"]["tool_input"]["text"].as_str().expect("valid arguments: {text: string}");
    assert!(!text.is_empty());
    let post = lines.iter().find(|l| l["event"] == "tool:post").expect("the tool ran");
    assert_eq!(post["data"]["result"]["success"], true);
    assert!(lines.iter().filter(|l| l["event"] == "llm:response").count() >= 2);
    lines
}

fn completion(text: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    })
}

fn fake_config(server: &FakeServer, extra: &str) -> String {
    format!(
        "{{base_url: \"{}/v1\", api_key: \"{KEY}\", default_model: fake-model, use_streaming: false, retry_jitter: false, min_retry_delay: 0.01, {extra}}}",
        server.url
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_retried_after_its_retry_after_and_costs_are_priced() {
    let server = FakeServer::start(vec![
        Reply::json(
            429,
            json!({"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}),
        )
        .with_header("Retry-After", "1"),
        Reply::json(200, completion("Hello!")),
    ]);
    let pricing = "pricing: {fake-model: {input_per_million: 1, output_per_million: 2}}";
    let harness = mount(&openai("openai", &fake_config(&server, pricing))).await;
    let started = Instant::now();
    let (response, _) = harness.complete("openai", hello(), false).await;
    let response = response.expect("success after one retry");
    assert!(started.elapsed() >= Duration::from_secs(1), "waited for Retry-After");
    assert_eq!(response.text(), "Hello!");
    assert_eq!(response.usage.unwrap().cost_usd.as_deref(), Some("0.002"));
    let retries = harness.events.named("provider:retry");
    assert_eq!(retries.len(), 1);
    let retry = &retries[0];
    assert_eq!((retry["provider"].as_str(), retry["model"].as_str()), (Some("openai"), Some("fake-model")));
    assert_eq!((retry["attempt"].as_u64(), retry["max_retries"].as_u64()), (Some(1), Some(3)));
    assert_eq!((retry["retry_after"].as_f64(), retry["delay"].as_f64()), (Some(1.0), Some(1.0)));
    assert_eq!(retry["error_type"], "rate_limit");
    assert!(retry["error_message"].as_str().unwrap().contains("Rate limit reached"));
    let received = server.received();
    assert_eq!(received.len(), 2);
    assert_eq!((received[0].method.as_str(), received[0].path.as_str()), ("POST", "/v1/chat/completions"));
    assert_eq!(received[0].headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(received[0].json()["model"], "fake-model");
    let response_event = &harness.events.named("llm:response")[0];
    assert_eq!(response_event["usage"]["cost_usd"], "0.002");
    harness.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connections_and_500s_are_retried_then_reported_without_the_key() {
    let server_error =
        json!({"error": {"message": format!("upstream exploded while using {KEY}"), "type": "server_error"}});
    let server =
        FakeServer::start(vec![Reply::Drop, Reply::json(500, server_error.clone()), Reply::json(500, server_error)]);
    let harness = mount(&openai("openai", &fake_config(&server, "max_retries: 2"))).await;
    let (result, _) = harness.complete("openai", hello(), false).await;
    let err = result.expect_err("three failures in a row");
    assert_eq!((err.kind, err.status_code, err.retryable), (ErrorKind::Unavailable, Some(500), true));
    assert!(err.message.contains("upstream exploded"), "{}", err.message);
    assert!(!err.message.contains("SECRET0123456789"), "the key leaked: {}", err.message);
    assert_eq!(server.received().len(), 3);
    let retries = harness.events.named("provider:retry");
    assert_eq!(retries.iter().map(|r| r["error_type"].as_str().unwrap()).collect::<Vec<_>>(), ["unavailable"; 2]);
    assert_eq!(retries.iter().map(|r| r["attempt"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2]);
    assert!(retries[0]["status_code"].is_null(), "the dropped connection had no status");
    let failed = &harness.events.named("llm:response")[0];
    assert_eq!((failed["status"].as_str(), failed["error"]["type"].as_str()), (Some("error"), Some("unavailable")));
    assert!(!failed.to_string().contains("SECRET0123456789"));
    harness.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_body_times_out_and_is_retried_only_before_output() {
    let stall = || Reply::Stall { prefix: String::new(), hold: Duration::from_secs(5) };
    // The first piece of text arrives, then nothing: output was delivered, so no retry.
    let partial = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n".to_owned();
    let server =
        FakeServer::start(vec![stall(), stall(), Reply::Stall { prefix: partial, hold: Duration::from_secs(5) }]);
    let config =
        fake_config(&server, "timeout: 0.5, max_retries: 1").replace("use_streaming: false", "use_streaming: true");
    let harness = mount(&openai("openai", &config)).await;

    let started = Instant::now();
    let (result, _) = harness.complete("openai", hello(), false).await;
    let err = result.expect_err("the body never came");
    assert_eq!((err.kind, err.retryable), (ErrorKind::Timeout, true));
    assert!(err.message.contains("0.5s"), "{}", err.message);
    assert!(started.elapsed() < Duration::from_secs(4), "two 0.5 s waits, not the server's 5 s");
    assert_eq!(server.received().len(), 2);
    assert_eq!(harness.events.named("provider:retry").len(), 1);

    harness.events.clear();
    let (result, deltas) = harness.complete("openai", hello(), true).await;
    assert_eq!(result.expect_err("stalled mid-stream").kind, ErrorKind::Timeout);
    assert_eq!(deltas, [json!({"type": "text", "index": 0, "text": "Hel"})]);
    assert_eq!(server.received().len(), 3, "not retried after output reached the caller");
    assert!(harness.events.named("provider:retry").is_empty());
    harness.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_map_to_upstreams_kinds_and_are_not_retried() {
    let error =
        |message: &str, kind: &str, code: &str| json!({"error": {"message": message, "type": kind, "code": code}});
    let server = FakeServer::start(vec![
        Reply::json(
            401,
            error(&format!("Incorrect API key provided: {KEY}."), "invalid_request_error", "invalid_api_key"),
        ),
        Reply::json(
            400,
            error(
                "This model's maximum context length is 4096 tokens.",
                "invalid_request_error",
                "context_length_exceeded",
            ),
        ),
        Reply::json(
            400,
            error(
                "The response was filtered by the content management policy.",
                "invalid_request_error",
                "content_filter",
            ),
        ),
        Reply::json(404, error("The model `nope` does not exist", "invalid_request_error", "model_not_found")),
        Reply::json(400, error("'messages' must not be empty", "invalid_request_error", "")),
    ]);
    let harness = mount(&openai("openai", &fake_config(&server, "max_retries: 3"))).await;
    let mut kinds = Vec::new();
    for _ in 0..5 {
        let err = harness.complete("openai", hello(), false).await.0.expect_err("an error");
        assert!(!err.message.contains("SECRET0123456789"), "the key leaked: {}", err.message);
        assert!(!err.retryable, "{err:?}");
        kinds.push((err.kind, err.status_code.unwrap()));
    }
    assert_eq!(
        kinds,
        [
            (ErrorKind::Authentication, 401),
            (ErrorKind::ContextLength, 400),
            (ErrorKind::ContentFilter, 400),
            (ErrorKind::NotFound, 404),
            (ErrorKind::InvalidRequest, 400),
        ]
    );
    assert_eq!(server.received().len(), 5, "none was retried");
    assert!(harness.events.named("provider:retry").is_empty());
    harness.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_tool_calls_are_assembled_by_index_and_history_is_sent_in_openai_shape() {
    let chunk = |delta: Value, finish: Value| json!({"model": "fake-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    let server = FakeServer::start(vec![Reply::sse([
        (None, chunk(json!({"role": "assistant", "content": null}), Value::Null)),
        (None, chunk(json!({"tool_calls": [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "echo", "arguments": ""}}]}), Value::Null)),
        (None, chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"text\": "}}]}), Value::Null)),
        (None, chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "\"hi\"}"}}]}), Value::Null)),
        (None, chunk(json!({}), json!("tool_calls"))),
        (None, json!({"choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}})),
    ])
    .with_done()]);
    let harness =
        mount(&openai("openai", &fake_config(&server, "use_streaming: true").replace("use_streaming: false, ", "")))
            .await;
    let request = ChatRequest {
        messages: vec![
            Message::system("Be brief."),
            Message::user("echo hi"),
            // A call the history left unanswered: the request gets a stand-in result.
            Message {
                content: amplifier_kernel::models::MessageContent::Blocks(vec![ContentBlock::text("Sure.")]),
                tool_calls: Some(vec![amplifier_kernel::models::ToolCall::new(
                    "call_x",
                    "echo",
                    json!({"text": "cut short"}),
                )]),
                ..Message::new(amplifier_kernel::models::Role::Assistant, "")
            },
            Message::user("again"),
        ]
        .into(),
        tools: Some(vec![ToolSpec::new(
            "echo",
            "Echoes",
            json!({"type": "object", "properties": {"text": {"type": "string"}}}),
        )]),
        ..ChatRequest::default()
    };
    let (response, deltas) = harness.complete("openai", request, true).await;
    let response = response.unwrap();
    let calls = response.tool_calls.clone().unwrap();
    assert_eq!((calls[0].id.as_str(), calls[0].name.as_str()), ("call_a", "echo"));
    assert_eq!(calls[0].arguments, json!({"text": "hi"}));
    assert_eq!(response.usage.unwrap().total_tokens, 10);
    assert_eq!(deltas[0], json!({"type": "tool_call", "index": 0, "id": "call_a", "name": "echo", "arguments": ""}));
    let arguments: String = deltas.iter().map(|d| d["arguments"].as_str().unwrap()).collect();
    assert_eq!(arguments, "{\"text\": \"hi\"}");
    let sent = server.received()[0].json();
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["stream_options"]["include_usage"], true);
    assert_eq!(sent["messages"][0], json!({"role": "system", "content": "Be brief."}));
    assert_eq!(sent["messages"][2]["content"], "Sure.");
    let stand_in = &sent["messages"][3];
    assert_eq!((stand_in["role"].as_str(), stand_in["tool_call_id"].as_str()), (Some("tool"), Some("call_x")));
    assert!(stand_in["content"].as_str().unwrap().starts_with("[no result: this tool call ended before it answered"));
    assert_eq!(sent["messages"][4], json!({"role": "user", "content": "again"}));
    let repaired = harness.events.named("provider:tool_sequence_repaired");
    assert_eq!(
        (repaired.len(), repaired[0]["provider"].as_str(), repaired[0]["repair_count"].as_u64()),
        (1, Some("openai"), Some(1))
    );
    assert_eq!(repaired[0]["repairs"], json!([{"tool_call_id": "call_x", "tool_name": "echo"}]));
    assert_eq!(sent["tools"][0]["function"]["name"], "echo");
    assert_fits_sdk("openai", &server.received());
    harness.close().await;
}

/// The example plans parse, pass the providers' config schemas and mount,
/// with keys from the environment and nothing listening.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_plans_load_with_keys_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    let events = events.to_str().unwrap();
    let env = [("OPENAI_API_KEY", KEY), ("ANTHROPIC_API_KEY", "sk-ant-test-0123456789"), ("AMPLIFIER_EVENTS", events)];
    for (plan, provider, id) in [
        ("openai.yaml", "provider-openai", "openai"),
        ("anthropic.yaml", "provider-anthropic", "anthropic"),
        ("ollama.yaml", "provider-openai", "openai"),
    ] {
        let harness = mount_plan_file(&workspace().join("mount-plans").join(plan), &env).await;
        let mounted =
            harness.session.coordinator().provider(provider).unwrap_or_else(|| panic!("{plan}: no {provider}"));
        assert_eq!(mounted.provider.info().id, id, "{plan}");
        let defaults = &mounted.provider.info().defaults;
        if plan == "ollama.yaml" {
            assert_eq!(defaults["base_url"], "http://localhost:11434/v1");
        }
        harness.close().await;
    }
    // A missing key is a plan error that names the variable, never a silent keyless run.
    let text = std::fs::read_to_string(workspace().join("mount-plans/openai.yaml")).unwrap();
    let err = amplifier_plan::parse_plan_str_with_env(&text, None, &|_| None).unwrap_err().to_string();
    assert!(err.contains("OPENAI_API_KEY"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_tool_result_says_so_in_its_text() {
    let server = FakeServer::start(vec![Reply::json(200, completion("Noted."))]);
    let harness = mount(&openai("openai", &fake_config(&server, ""))).await;
    let called = |id: &str| amplifier_kernel::models::ToolCall::new(id, "read", json!({"path": "x"}));
    let request = ChatRequest {
        messages: vec![
            Message::user("read x and y"),
            Message {
                tool_calls: Some(vec![called("call_1"), called("call_2"), called("call_3")]),
                ..Message::new(amplifier_kernel::models::Role::Assistant, "")
            },
            Message::tool_error("call_1", "no such file: x"),
            Message::tool_error("call_2", "Error: permission denied"),
            Message::tool_result("call_3", "contents of y"),
        ]
        .into(),
        ..ChatRequest::default()
    };
    let (response, _) = harness.complete("openai", request, false).await;
    assert_eq!(response.unwrap().text(), "Noted.");
    let sent = server.received()[0].json();
    let results: Vec<&str> =
        sent["messages"].as_array().unwrap()[2..].iter().map(|m| m["content"].as_str().unwrap()).collect();
    // Chat Completions has no error flag: the text carries it, once.
    assert_eq!(results, ["Error: no such file: x", "Error: permission denied", "contents of y"]);
    assert_fits_sdk("openai", &server.received());
    harness.close().await;
}

/// One Responses API stream: `response.created`, each output item added,
/// its deltas and done, then `response.completed` with `usage`.
fn responses_stream(id: &str, items: &[Value], usage: Value) -> Reply {
    let mut frames = vec![(
        "response.created",
        json!({"type": "response.created", "response": {"id": id, "object": "response", "model": "gpt-5-mini", "status": "in_progress", "output": []}}),
    )];
    for (index, item) in items.iter().enumerate() {
        let item_id = item["id"].as_str().unwrap();
        let mut added = item.clone();
        match item["type"].as_str().unwrap() {
            "reasoning" => {
                added["summary"] = json!([]);
                added.as_object_mut().unwrap().remove("encrypted_content");
            }
            "message" => added["content"] = json!([]),
            _ => added["arguments"] = json!(""),
        }
        frames.push((
            "response.output_item.added",
            json!({"type": "response.output_item.added", "output_index": index, "item": added}),
        ));
        let (kind, delta) = match item["type"].as_str().unwrap() {
            "reasoning" => ("response.reasoning_summary_text.delta", item["summary"][0]["text"].clone()),
            "message" => ("response.output_text.delta", item["content"][0]["text"].clone()),
            _ => ("response.function_call_arguments.delta", item["arguments"].clone()),
        };
        frames.push((kind, json!({"type": kind, "item_id": item_id, "output_index": index, "summary_index": 0, "content_index": 0, "delta": delta})));
        frames.push((
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": index, "item": item}),
        ));
    }
    frames.push((
        "response.completed",
        json!({"type": "response.completed", "response": {"id": id, "object": "response", "model": "gpt-5-mini", "status": "completed", "output": items, "usage": usage}}),
    ));
    Reply::sse(frames.into_iter().map(|(event, data)| (Some(event), data)))
}

/// A whole `POST /responses` reply with one message.
fn responses_message(id: &str, text: &str) -> Value {
    json!({
        "id": id, "object": "response", "model": "gpt-5-mini", "status": "completed",
        "output": [{"type": "message", "id": format!("msg_{id}"), "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}],
        "usage": {"input_tokens": 12, "output_tokens": 3, "total_tokens": 15}
    })
}

/// A whole agent turn over the Responses API (the real binary, the real
/// loop): a reasoning model reasons and calls echo; its encrypted reasoning
/// goes back with the call on the next step, and every request fits the
/// OpenAI SDK's Responses request types.
#[test]
fn the_responses_api_carries_encrypted_reasoning_across_a_tool_step() {
    let reasoning = json!({"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "The user wants an echo."}], "encrypted_content": "ENCRYPTED-1"});
    let call = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "echo", "arguments": "{\"text\": \"hi\"}", "status": "completed"});
    let answer = json!({"type": "message", "id": "msg_2", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": "It said hi.", "annotations": []}]});
    let server = FakeServer::start(vec![
        responses_stream(
            "resp_1",
            &[reasoning, call],
            json!({"input_tokens": 100, "input_tokens_details": {"cached_tokens": 40}, "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 12}, "total_tokens": 120}),
        ),
        responses_stream("resp_2", &[answer], json!({"input_tokens": 130, "output_tokens": 5, "total_tokens": 135})),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let provider = format!(
        "  - module: provider-openai\n    source: \"{}\"\n    config: {{base_url: \"{}/v1\", api_key: \"{KEY}\", api: responses, default_model: gpt-5-mini, max_tokens: 200, temperature: 0.3, max_retries: 0}}\n",
        plugin("provider-openai"),
        server.url
    );
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();
    let output = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "echo hi"])
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}\nstdout:\n{}", stderr(&output), stdout(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.last().unwrap()["data"]["response"], "It said hi.");
    let post = lines.iter().find(|l| l["event"] == "tool:post").expect("echo ran");
    assert_eq!(post["data"]["result"]["success"], true);
    // Usage with the cached and reasoning tokens.
    let usage = &lines.iter().find(|l| l["event"] == "llm:response").unwrap()["data"]["usage"];
    assert_eq!((usage["cache_read_tokens"].as_u64(), usage["reasoning_tokens"].as_u64()), (Some(40), Some(12)));

    let received = server.received();
    assert_eq!(received.len(), 2);
    assert!(
        received.iter().all(|r| r.path == "/v1/responses"),
        "{:?}",
        received.iter().map(|r| &r.path).collect::<Vec<_>>()
    );
    let first = received[0].json();
    assert_eq!(first["include"], json!(["reasoning.encrypted_content"]));
    assert_eq!((first["store"].as_bool(), first["stream"].as_bool()), (Some(false), Some(true)));
    assert_eq!(first["max_output_tokens"], 200);
    assert!(first.get("temperature").is_none(), "a reasoning model refuses temperature: {first}");
    assert_eq!(first["tools"][0]["strict"], false);
    // The second step sends the reasoning item back, encrypted, before its call, then the result.
    let input = received[1].json()["input"].as_array().unwrap().clone();
    let at = |kind: &str| {
        input.iter().position(|item| item["type"] == kind).unwrap_or_else(|| panic!("no {kind}: {input:?}"))
    };
    assert_eq!(input[at("reasoning")]["encrypted_content"], "ENCRYPTED-1");
    assert_eq!(input[at("reasoning")]["id"], "rs_1");
    assert!(at("reasoning") < at("function_call") && at("function_call") < at("function_call_output"));
    assert_eq!(input[at("function_call")]["call_id"], "call_1");
    assert_eq!(input[at("function_call_output")]["call_id"], "call_1");
    assert!(input[at("function_call_output")]["output"].as_str().unwrap().contains("hi"));
    assert!(received[1].json().get("previous_response_id").is_none(), "chaining is off by default");
    assert_fits_sdk("openai-responses", &received);
}

/// With chaining on, a request names the last response and sends only what
/// followed it; when the server no longer has that response, the request
/// goes again whole, and says so. An `error` event in a stream is retried
/// like an HTTP error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chained_request_falls_back_to_the_whole_history_when_its_response_is_gone() {
    let gone = json!({"error": {"message": "Previous response with id 'resp_1' not found.", "type": "invalid_request_error", "param": "previous_response_id", "code": "previous_response_not_found"}});
    let rate_limited = Reply::sse([(
        Some("error"),
        json!({"type": "error", "code": "rate_limit_exceeded", "message": "Rate limit reached", "param": null}),
    )]);
    let server = FakeServer::start(vec![
        Reply::json(200, responses_message("resp_2", "Chained.")),
        Reply::json(400, gone),
        Reply::json(200, responses_message("resp_3", "Whole.")),
        rate_limited,
        responses_stream(
            "resp_4",
            &[responses_message("resp_4", "After the wait.")["output"][0].clone()],
            json!({"input_tokens": 12, "output_tokens": 3, "total_tokens": 15}),
        ),
    ]);
    let config = fake_config(&server, "api: responses, enable_response_chaining: true, max_retries: 1")
        .replace("default_model: fake-model", "default_model: gpt-4.1-mini");
    let harness = mount(&openai("openai", &config)).await;
    let history = |response_id: &str| ChatRequest {
        messages: vec![
            Message::system("Be brief."),
            Message::user("hi"),
            Message {
                metadata: Some(serde_json::from_value(json!({"response_id": response_id})).unwrap()),
                ..Message::new(amplifier_kernel::models::Role::Assistant, "Hello.")
            },
            Message::user("again"),
        ]
        .into(),
        ..ChatRequest::default()
    };

    let (response, _) = harness.complete("openai", history("resp_1"), false).await;
    assert_eq!(response.unwrap().text(), "Chained.");
    let chained = server.received()[0].json();
    assert_eq!((chained["previous_response_id"].as_str(), chained["store"].as_bool()), (Some("resp_1"), Some(true)));
    assert_eq!(chained["input"], json!([{"type": "message", "role": "user", "content": "again"}]));

    let (response, _) = harness.complete("openai", history("resp_1"), false).await;
    assert_eq!(response.unwrap().text(), "Whole.");
    let whole = server.received()[2].json();
    assert!(whole.get("previous_response_id").is_none(), "{whole}");
    assert_eq!(whole["input"].as_array().unwrap().len(), 4);
    let invalidated = harness.events.named("provider:response_chain_invalidated");
    assert_eq!(invalidated.len(), 1);
    assert_eq!(invalidated[0]["previous_response_id"], "resp_1");
    assert!(invalidated[0]["error"].as_str().unwrap().contains("not found"), "{}", invalidated[0]);

    // A Chat Completions id is no chain; the stream's error event is a 429.
    let (response, deltas) = harness.complete("openai", history("chatcmpl-1"), true).await;
    assert_eq!(response.unwrap().text(), "After the wait.");
    assert_eq!(deltas, [json!({"type": "text", "index": 0, "text": "After the wait."})]);
    assert!(server.received()[3].json().get("previous_response_id").is_none());
    let retries = harness.events.named("provider:retry");
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0]["error_type"], "rate_limit");
    assert_fits_sdk("openai-responses", &server.received());
    harness.close().await;
}

/// A request that says `stream: false` (a summary, a classifier) is sent
/// whole even when the provider streams, so no deltas reach the hooks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_says_stream_false_is_sent_whole() {
    let server = FakeServer::start(vec![Reply::json(200, completion("A summary."))]);
    let config = fake_config(&server, "").replace("use_streaming: false", "use_streaming: true");
    let harness = mount(&openai("openai", &config)).await;
    let request = ChatRequest { stream: Some(false), ..hello() };
    let (response, _) = harness.complete("openai", request, false).await;
    assert_eq!(response.unwrap().text(), "A summary.");
    assert!(server.received()[0].json().get("stream").is_none());
    assert!(harness.events.named("content_block:delta").is_empty());
    harness.close().await;
}
