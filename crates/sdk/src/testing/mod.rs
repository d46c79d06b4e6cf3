//! The test kit for a module's own unit tests (the `testing` feature,
//! turned on in the module's `[dev-dependencies]`): test a tool, hook,
//! provider, context manager or orchestrator without building a cdylib or
//! starting a session.
//!
//! - [`TestHost`]: an in-process host to mount the module into, which
//!   records its events, scripts the provider's answers and the hooks'
//!   verdicts, offers tools and keeps a context;
//! - [`Tools::call`](crate::Tools::call): run one of a tool module's tools;
//! - [`HookResultAssertions`]: what a hook answered, checked in one line;
//! - [`with_defaults`], [`config_with_defaults`]: a config as the loader
//!   hands it over, the manifest's defaults filled in;
//! - [`block_on`]: run a module's `async fn` from a plain `#[test]`.
//!
//! ```ignore
//! use amplifier_sdk::prelude::*;
//! use amplifier_sdk::testing::{block_on, text_response, tool_call_response, TestHost};
//!
//! #[test]
//! fn the_loop_runs_the_tool_the_model_asks_for() {
//!     let host = TestHost::new()
//!         .with_tool(MyTool)
//!         .with_response(tool_call_response(&[("my_tool", json!({"x": 1}))]))
//!         .with_response(text_response("done"));
//!     let orchestrator = host.mount(mount, json!({})).unwrap();
//!     assert_eq!(block_on(orchestrator.execute("go".into())).unwrap(), "done");
//!     assert_eq!(host.tool_calls(), [("my_tool".to_owned(), json!({"x": 1}))]);
//!     assert!(host.event_names().contains(&"tool:pre".to_owned()));
//! }
//! ```
//!
//! `amplifier module validate` remains the black-box check of the built
//! library against its kind's contract.

mod config;
mod host;

use std::future::Future;

use amplifier_protocol::models::{HookAction, HookResult, JsonMap};

pub use config::{config_with_defaults, with_defaults};
pub use host::{text_response, tool_call_response, TestHost};

/// Runs `future` to completion on the plugin's runtime (where the host
/// would run the module's code).
pub fn block_on<F: Future>(future: F) -> F::Output {
    crate::runtime().block_on(future)
}

/// One-line checks of a hook's answer; each panics, naming what the hook
/// answered instead, and returns what the verdict carries.
pub trait HookResultAssertions {
    /// The hook lets the event through unchanged.
    fn assert_continues(&self);
    /// The hook denies; its reason.
    fn assert_denies(&self) -> &str;
    /// The hook changes the event's data; the new data.
    fn assert_modifies(&self) -> &JsonMap;
    /// The hook adds to the context; what it adds.
    fn assert_injects(&self) -> &str;
    /// The hook asks the user; its question.
    fn assert_asks_user(&self) -> &str;
}

fn expected(result: &HookResult, what: &str) -> ! {
    panic!("expected the hook to {what}, but it answered {result:?}")
}

impl HookResultAssertions for HookResult {
    fn assert_continues(&self) {
        if self.action != HookAction::Continue {
            expected(self, "continue");
        }
    }

    fn assert_denies(&self) -> &str {
        match self.action {
            HookAction::Deny => self.reason.as_deref().unwrap_or_default(),
            _ => expected(self, "deny"),
        }
    }

    fn assert_modifies(&self) -> &JsonMap {
        match (&self.action, &self.data) {
            (HookAction::Modify, Some(data)) => data,
            _ => expected(self, "modify the data"),
        }
    }

    fn assert_injects(&self) -> &str {
        match (&self.action, &self.context_injection) {
            (HookAction::InjectContext, Some(content)) => content,
            _ => expected(self, "inject context"),
        }
    }

    fn assert_asks_user(&self) -> &str {
        match (&self.action, &self.approval_prompt) {
            (HookAction::AskUser, Some(prompt)) => prompt,
            _ => expected(self, "ask the user"),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::prelude::*;

    struct Shout;

    impl Tool for Shout {
        fn spec(&self) -> ToolSpec {
            ToolSpec::new("shout", "Upper-cases `text`", json!({"type": "object"}))
        }

        async fn execute(&self, input: Value) -> ToolResult {
            ToolResult::ok(input["text"].as_str().unwrap_or_default().to_uppercase())
        }
    }

    #[test]
    fn a_tool_module_is_mounted_and_its_tools_called() {
        let host = TestHost::new();
        let tools = host.mount(|_ctx| Ok(Tools::new().with(Shout)), json!({})).unwrap();
        assert_eq!(tools.specs()[0].name, "shout");
        assert_eq!(block_on(tools.call("shout", json!({"text": "hi"}))).output, Some(json!("HI")));
        assert!(block_on(tools.call("whisper", json!({}))).is_failed_call());
        assert!(host.mount(|_ctx| Ok(()), json!([])).is_err(), "a config is an object");
    }

    struct DenyRm;

    impl HookHandler for DenyRm {
        fn subscriptions(&self) -> Vec<Subscription> {
            vec![Subscription::new("tool:pre", 0, "deny-rm")]
        }

        async fn handle(&self, _event: &str, data: JsonMap) -> ModuleResult<HookResult> {
            Ok(match data.get("tool_name").and_then(Value::as_str) {
                Some("rm") => HookResult::deny("no rm"),
                _ => HookResult::continue_(),
            })
        }
    }

    #[test]
    fn hook_answers_are_checked_in_one_line() {
        let hook = TestHost::new().mount(|_ctx| Ok(DenyRm), json!({})).unwrap();
        let call = |tool: &str| block_on(hook.handle("tool:pre", event_data(json!({"tool_name": tool})))).unwrap();
        assert_eq!(call("rm").assert_denies(), "no rm");
        call("ls").assert_continues();
        let modified = HookResult::modify(event_data(json!({"x": 1})));
        assert_eq!(modified.assert_modifies()["x"], 1);
        assert_eq!(HookResult::inject("note").assert_injects(), "note");
        assert_eq!(HookResult::ask_user("sure?").assert_asks_user(), "sure?");
        let wrong = std::panic::catch_unwind(|| call("ls").assert_denies().to_owned()).unwrap_err();
        assert!(wrong.downcast_ref::<String>().unwrap().contains("expected the hook to deny"));
    }

    /// The smallest agent loop: a completion, the tools it asks for
    /// (`tool:pre` may deny them), then an answer.
    struct Loop(Host);

    impl Orchestrator for Loop {
        async fn execute(&self, prompt: String) -> ModuleResult<String> {
            let host = &self.0;
            host.add_message(Message::user(prompt)).await?;
            loop {
                let request = ChatRequest {
                    messages: host.get_messages_for_request(RequestView::default()).await?.into(),
                    tools: Some(host.tools().await?),
                    ..ChatRequest::default()
                };
                let response = host.complete(None, request).await?;
                let calls = response.parse_tool_calls();
                if calls.is_empty() {
                    return Ok(response.text());
                }
                for call in calls {
                    let pre = host.dispatch("tool:pre", event_data(json!({"tool_name": call.name}))).await?;
                    let result = match pre.is_denied() {
                        true => ToolResult::error("Denied", pre.reason.unwrap_or_default()),
                        false => host.execute_tool(&call.name, call.arguments.clone(), Some(&call.id)).await?,
                    };
                    host.add_message(Message::tool_result(call.id, result.serialized_output())).await?;
                }
            }
        }
    }

    #[test]
    fn an_orchestrator_runs_against_a_scripted_provider_and_offered_tools() {
        let host = TestHost::new()
            .with_tool(Shout)
            .with_response(tool_call_response(&[("shout", json!({"text": "hi"}))]))
            .with_response(text_response("done"));
        let orchestrator = host.mount(|ctx| Ok(Loop(ctx.host)), json!({})).unwrap();
        assert_eq!(block_on(orchestrator.execute("go".into())).unwrap(), "done");
        assert_eq!(host.tool_calls(), [("shout".to_owned(), json!({"text": "hi"}))]);
        assert_eq!(host.event_names(), ["tool:pre"]);
        let requests = host.requests();
        assert_eq!(requests.len(), 2);
        assert_eq!(requests[0].tools.as_ref().unwrap()[0].name, "shout");
        let messages = host.messages();
        assert_eq!((messages.len(), messages[1].content.text().as_str()), (2, "HI"));

        // A scripted verdict, and a provider that has nothing left to say.
        let host = TestHost::new()
            .with_tool(Shout)
            .with_verdict("tool:*", HookResult::deny("not now"))
            .with_response(tool_call_response(&[("shout", json!({"text": "hi"}))]));
        let orchestrator = host.mount(|ctx| Ok(Loop(ctx.host)), json!({})).unwrap();
        let err = block_on(orchestrator.execute("go".into())).unwrap_err();
        assert!(err.message.contains("no response left"), "{err}");
        assert!(host.tool_calls().is_empty());
        assert!(host.messages()[1].content.text().contains("not now"));
    }

    #[test]
    fn registrations_and_the_lifecycle_work_as_in_a_session() {
        let host = TestHost::new();
        let cleaned = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = cleaned.clone();
        let module = host
            .mount(
                move |ctx| {
                    let host = ctx.host.clone();
                    ctx.host.on_session_ready(move || async move {
                        host.register_hook("tool:pre", 0, "guard", |_, _| async { Ok(HookResult::deny("guarded")) })
                            .await?;
                        host.register_capability("guard.ready", json!(true)).await?;
                        host.register_cleanup("flag", move || async move {
                            flag.store(true, std::sync::atomic::Ordering::SeqCst);
                            Ok(())
                        })
                        .await
                    });
                    Ok(ctx.host)
                },
                json!({}),
            )
            .unwrap();
        let pre = || block_on(module.dispatch("tool:pre", JsonMap::new())).unwrap();
        assert!(!pre().is_denied(), "nothing registered before the session is ready");
        assert!(block_on(host.session_ready()).is_empty());
        assert_eq!(pre().reason.as_deref(), Some("guarded"));
        assert_eq!(host.capability("guard.ready"), Some(json!(true)));
        assert!(block_on(host.cleanup()).is_empty());
        assert!(cleaned.load(std::sync::atomic::Ordering::SeqCst));
        host.mount(
            |ctx| {
                ctx.host.on_session_ready(|| async { Err(ModuleError::internal("not ready")) });
                Ok(())
            },
            json!({}),
        )
        .unwrap();
        let failures = block_on(host.session_ready());
        assert_eq!(failures.len(), 1);
        assert_eq!(host.events_named("module:on_session_ready_failed")[0]["error"], "not ready");
        let err = block_on(module.spawn(crate::ops::SpawnRequest::default())).unwrap_err();
        assert!(err.message.contains("does not answer 'session.spawn'"), "{err}");
    }
}
