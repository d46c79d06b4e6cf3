//! A provider's checks: `provider_get_info`, `provider_list_models`,
//! `provider_complete`, `provider_parse_tool_calls` and, with
//! `--behavioral`, `provider_stream` and `provider_concurrency`.

use std::sync::{Arc, Mutex};

use amplifier_kernel::models::{ChatRequest, Message, StreamDelta, ToolSpec};
use amplifier_kernel::traits::Provider;
use amplifier_kernel::{ErrorKind, ModuleError};
use serde_json::{json, Value};

use crate::{preview, timed, Checks, Severity, Validation, CHECK_TIMEOUT};

impl Validation<'_> {
    pub(crate) async fn check_provider(&self, checks: &mut Checks, provider: Arc<dyn Provider>) {
        let info = provider.info().clone();
        checks.record(
            "provider_get_info",
            Severity::Error,
            if info.id.trim().is_empty() {
                Err("ProviderInfo.id is empty".to_owned())
            } else if info.display_name.trim().is_empty() {
                Ok(format!("id '{}' (no display_name)", info.id))
            } else {
                Ok(format!("id '{}', {}", info.id, info.display_name))
            },
        );
        // A provider that needs credentials may fail these without them:
        // that is reported as a warning, not an error.
        let severity_of = |err: &ModuleError| {
            if err.kind == ErrorKind::Authentication {
                Severity::Warning
            } else {
                Severity::Error
            }
        };
        match timed(CHECK_TIMEOUT, provider.list_models()).await {
            Err(message) => checks.fail("provider_list_models", Severity::Error, message),
            Ok(Err(err)) => checks.fail("provider_list_models", severity_of(&err), err.message),
            Ok(Ok(models)) if models.iter().any(|m| m.id.trim().is_empty()) => {
                checks.fail("provider_list_models", Severity::Error, "a model has an empty id")
            }
            Ok(Ok(models)) => {
                let ids: Vec<&str> = models.iter().map(|m| m.id.as_str()).take(5).collect();
                checks.pass("provider_list_models", format!("{} model(s): {}", models.len(), ids.join(", ")))
            }
        }

        let request = ChatRequest {
            messages: vec![Message::system("You are being validated. Answer briefly."), Message::user("Say hello.")]
                .into(),
            max_output_tokens: Some(64),
            ..ChatRequest::default()
        };
        match timed(CHECK_TIMEOUT, provider.complete(request.clone(), None)).await {
            Err(message) => checks.fail("provider_complete", Severity::Error, message),
            Ok(Err(err)) => checks.fail("provider_complete", severity_of(&err), err.message),
            Ok(Ok(response)) if response.content.is_empty() && response.parse_tool_calls().is_empty() => {
                checks.fail("provider_complete", Severity::Warning, "answered a minimal request with no content")
            }
            Ok(Ok(response)) => checks.pass("provider_complete", format!("answered {}", preview(&response.text()))),
        }

        let tool = ToolSpec::new(
            "validate_echo",
            "Returns the given text.",
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        );
        let with_tools = ChatRequest {
            messages: vec![Message::user("Call the validate_echo tool with the text \"ping\".")].into(),
            tools: Some(vec![tool]),
            ..ChatRequest::default()
        };
        match timed(CHECK_TIMEOUT, provider.complete(with_tools, None)).await {
            Err(message) => checks.fail("provider_parse_tool_calls", Severity::Error, message),
            Ok(Err(err)) => checks.fail("provider_parse_tool_calls", severity_of(&err), err.message),
            Ok(Ok(response)) => {
                let calls = response.parse_tool_calls();
                let bad: Vec<String> = calls
                    .iter()
                    .filter_map(|call| {
                        if call.id.trim().is_empty() {
                            Some(format!("a call to '{}' has no id", call.name))
                        } else if call.name != "validate_echo" {
                            Some(format!("call {} names '{}', which was not offered", call.id, call.name))
                        } else if !call.arguments.is_object() {
                            Some(format!("call {} has arguments that are not an object: {}", call.id, call.arguments))
                        } else {
                            None
                        }
                    })
                    .collect();
                checks.record(
                    "provider_parse_tool_calls",
                    Severity::Error,
                    match (bad.first(), calls.len()) {
                        (Some(_), _) => Err(bad.join("; ")),
                        (None, 0) => Ok("no tool call in the answer; a model may answer in text".to_owned()),
                        (None, n) => Ok(format!("{n} well-formed tool call(s)")),
                    },
                );
            }
        }

        if self.options.behavioral {
            let events = Arc::new(Mutex::new(Vec::<Value>::new()));
            let sink_events = events.clone();
            let sink: amplifier_kernel::traits::StreamSink =
                Arc::new(move |event| sink_events.lock().expect("events lock").push(event));
            let outcome = match timed(CHECK_TIMEOUT, provider.complete(request.clone(), Some(sink))).await {
                Err(message) => Err(message),
                Ok(Err(err)) => Err(err.message),
                Ok(Ok(_)) => {
                    let events = events.lock().expect("events lock");
                    let unknown =
                        events.iter().filter(|e| serde_json::from_value::<StreamDelta>((*e).clone()).is_err());
                    match unknown.count() {
                        0 => Ok(format!("streamed {} delta(s)", events.len())),
                        n => Err(format!("{n} of {} streamed events are not StreamDelta JSON", events.len())),
                    }
                }
            };
            checks.record("provider_stream", Severity::Error, outcome);
            let runs = (0..4).map(|_| timed(CHECK_TIMEOUT, provider.complete(request.clone(), None)));
            let failures: Vec<String> = futures::future::join_all(runs)
                .await
                .into_iter()
                .filter_map(|r| match r {
                    Err(message) => Some(message),
                    Ok(Err(err)) => Some(err.message),
                    Ok(Ok(_)) => None,
                })
                .collect();
            checks.record(
                "provider_concurrency",
                Severity::Error,
                match failures.first() {
                    None => Ok("4 concurrent completions succeeded".to_owned()),
                    Some(first) => Err(format!("{} of 4 concurrent completions failed: {first}", failures.len())),
                },
            );
        }
    }
}
