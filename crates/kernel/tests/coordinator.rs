//! Conformance tests for the coordinator: `process_hook_result` (injection
//! limits, approvals, user messages), cleanups, contribution channels,
//! capabilities, provider preference and tool input validation.

mod support;

use std::sync::Arc;
use std::time::Duration;

use amplifier_kernel::coordinator::{Cleanup, Contributor, MountedProvider};
use amplifier_kernel::errors::{ErrorKind, ModuleError};
use amplifier_kernel::models::{
    ApprovalDefault, ChatRequest, HookAction, HookResult, InjectionRole, MessageContent, MessageLevel, Role,
};
use amplifier_kernel::plan::MountPlan;
use amplifier_kernel::traits::BoxFuture;
use amplifier_kernel::Coordinator;
use serde_json::{json, Value};
use support::{
    answer, coordinator_with, coordinator_with_context, is_rfc3339, map, plan, EchoTool, Log, MemoryContext, Recorder,
    RecordingDisplay, ScriptedApproval, StubProvider,
};

fn plan_with_limits(size_limit: Option<usize>, budget: Option<u64>) -> MountPlan {
    let mut plan = plan();
    plan.session.injection_size_limit = size_limit;
    plan.session.injection_budget_per_turn = budget;
    plan
}

/// A coordinator with a context and a recorder on `hook:injection_refused`.
fn injection_setup(size_limit: Option<usize>, budget: Option<u64>) -> (Arc<Coordinator>, Arc<MemoryContext>, Recorder) {
    let (coordinator, context) = coordinator_with_context(plan_with_limits(size_limit, budget));
    let refused = Recorder::new();
    coordinator.hooks().register("hook:injection_refused", refused.handler(), 0, "refused");
    (coordinator, context, refused)
}

fn text(chars: usize) -> String {
    "x".repeat(chars)
}

// ---------------------------------------------------------------------------
// process_hook_result: context injection

#[tokio::test]
async fn injection_is_added_to_context_with_hook_metadata() {
    let (coordinator, context, refused) = injection_setup(Some(100), Some(100));
    let result = HookResult { context_injection_role: InjectionRole::User, ..HookResult::inject("remember this") };
    let outcome = coordinator.process_hook_result(result, "tool:post", "my-hook").await;
    assert_eq!(outcome.action, HookAction::Continue);
    assert!(outcome.ephemeral_injections.is_empty());
    assert!(refused.events().is_empty());

    let messages = context.messages();
    assert_eq!(messages.len(), 1);
    let message = &messages[0];
    assert_eq!(message.role, Role::User);
    assert_eq!(message.content, MessageContent::Text("remember this".into()));
    let metadata = message.metadata.as_ref().expect("injected messages carry metadata");
    assert_eq!(metadata.get("source"), Some(&json!("hook")));
    assert_eq!(metadata.get("hook_name"), Some(&json!("my-hook")));
    assert_eq!(metadata.get("event"), Some(&json!("tool:post")));
    assert!(is_rfc3339(metadata["timestamp"].as_str().unwrap()));
}

#[tokio::test]
async fn injection_over_size_limit_is_refused() {
    let (coordinator, context, refused) = injection_setup(Some(10), None);
    let outcome = coordinator.process_hook_result(HookResult::inject(text(11)), "tool:post", "big-hook").await;
    assert_eq!(outcome.action, HookAction::Continue, "a refused injection doesn't stop the turn");
    assert!(context.messages().is_empty(), "the oversized injection must not reach the context");
    let events = refused.named("hook:injection_refused");
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].get("hook_name"), Some(&json!("big-hook")));
    assert_eq!(events[0].get("event"), Some(&json!("tool:post")));
    assert!(events[0]["reason"].as_str().unwrap().contains("injection_size_limit"));

    // Exactly at the limit is fine.
    coordinator.process_hook_result(HookResult::inject(text(10)), "tool:post", "big-hook").await;
    assert_eq!(context.messages().len(), 1);
    assert_eq!(refused.events().len(), 1);
}

#[tokio::test]
async fn injection_size_limit_counts_characters_not_bytes() {
    let (coordinator, context, refused) = injection_setup(Some(4), None);
    // Four characters, twelve bytes.
    coordinator.process_hook_result(HookResult::inject("ééé€"), "e", "h").await;
    assert_eq!(context.messages().len(), 1);
    assert!(refused.events().is_empty());
}

#[tokio::test]
async fn injection_over_turn_budget_is_refused_and_reset_turn_resets_it() {
    let (coordinator, context, refused) = injection_setup(None, Some(5));
    // 16 chars ≈ 4 tokens: within the budget of 5.
    coordinator.process_hook_result(HookResult::inject(text(16)), "e", "h").await;
    assert_eq!(context.messages().len(), 1);
    // 8 more chars ≈ 2 tokens: 6 > 5, refused.
    coordinator.process_hook_result(HookResult::inject(text(8)), "e", "h").await;
    assert_eq!(context.messages().len(), 1, "over-budget injection must be refused");
    let events = refused.named("hook:injection_refused");
    assert_eq!(events.len(), 1);
    assert!(events[0]["reason"].as_str().unwrap().contains("injection_budget_per_turn"));

    coordinator.reset_turn();
    coordinator.process_hook_result(HookResult::inject(text(8)), "e", "h").await;
    assert_eq!(context.messages().len(), 2, "a new turn has a fresh budget");
}

#[tokio::test]
async fn refused_injection_does_not_use_budget() {
    let (coordinator, context, _refused) = injection_setup(Some(100), Some(30));
    // Over the size limit: refused, so its tokens must not count.
    coordinator.process_hook_result(HookResult::inject(text(101)), "e", "h").await;
    // 100 chars = 25 tokens, within 30 only if the refused one wasn't counted.
    coordinator.process_hook_result(HookResult::inject(text(100)), "e", "h").await;
    assert_eq!(context.messages().len(), 1);
}

#[tokio::test]
async fn default_injection_limits_are_enforced() {
    // SessionSettings::new: 10240 characters, 10000 tokens per turn.
    let (coordinator, context, refused) = injection_setup(Some(10_240), Some(10_000));
    let defaults = plan();
    assert_eq!(defaults.session.injection_size_limit, Some(10_240));
    assert_eq!(defaults.session.injection_budget_per_turn, Some(10_000));

    coordinator.process_hook_result(HookResult::inject(text(10_241)), "e", "h").await;
    assert!(context.messages().is_empty());
    // Three of 10240 chars = 7680 tokens; the fourth would be 10240 > 10000.
    for _ in 0..4 {
        coordinator.process_hook_result(HookResult::inject(text(10_240)), "e", "h").await;
    }
    assert_eq!(context.messages().len(), 3);
    assert_eq!(refused.events().len(), 2);
}

#[tokio::test]
async fn unlimited_injection_settings_allow_anything() {
    let (coordinator, context, refused) = injection_setup(None, None);
    for _ in 0..3 {
        coordinator.process_hook_result(HookResult::inject(text(50_000)), "e", "h").await;
    }
    assert_eq!(context.messages().len(), 3);
    assert!(refused.events().is_empty());
}

#[tokio::test]
async fn ephemeral_injection_is_returned_not_stored_but_counted() {
    let (coordinator, context, refused) = injection_setup(None, Some(5));
    let result = HookResult {
        ephemeral: true,
        context_injection_role: InjectionRole::User,
        append_to_last_tool_result: true,
        ..HookResult::inject(text(16))
    };
    let outcome = coordinator.process_hook_result(result, "e", "h").await;
    assert_eq!(outcome.action, HookAction::Continue);
    assert_eq!(outcome.ephemeral_injections.len(), 1);
    let injection = &outcome.ephemeral_injections[0];
    assert_eq!(injection.content, text(16));
    assert_eq!(injection.role, InjectionRole::User);
    assert!(injection.append_to_last_tool_result);
    assert!(context.messages().is_empty(), "ephemeral injections are not stored");

    // The 4 ephemeral tokens count: 2 more exceed the budget of 5.
    coordinator.process_hook_result(HookResult::inject(text(8)), "e", "h").await;
    assert!(context.messages().is_empty());
    assert_eq!(refused.events().len(), 1);
}

#[tokio::test]
async fn ephemeral_injection_over_size_limit_is_refused() {
    let (coordinator, _context, refused) = injection_setup(Some(3), None);
    let result = HookResult { ephemeral: true, ..HookResult::inject("four") };
    let outcome = coordinator.process_hook_result(result, "e", "h").await;
    assert!(outcome.ephemeral_injections.is_empty());
    assert_eq!(refused.events().len(), 1);
}

#[tokio::test]
async fn dispatch_emits_then_applies_the_verdict() {
    let (coordinator, context) = coordinator_with_context(plan());
    coordinator.hooks().register("tool:post", answer(HookResult::inject("from a handler")), 0, "injector");
    let outcome = coordinator.dispatch("tool:post", map(json!({"tool": "bash"}))).await;
    assert_eq!(outcome.action, HookAction::Continue);
    assert_eq!(outcome.data.unwrap().get("tool"), Some(&json!("bash")));
    let messages = context.messages();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].content.text(), "from a handler");
    assert_eq!(messages[0].metadata.as_ref().unwrap().get("event"), Some(&json!("tool:post")));
}

#[tokio::test]
async fn deny_and_modify_pass_through() {
    let coordinator = coordinator_with(plan());
    let outcome = coordinator.process_hook_result(HookResult::deny("nope"), "tool:pre", "h").await;
    assert!(outcome.is_denied());
    assert_eq!(outcome.reason.as_deref(), Some("nope"));

    let outcome = coordinator.process_hook_result(HookResult::modify(map(json!({"a": 1}))), "tool:pre", "h").await;
    assert_eq!(outcome.action, HookAction::Modify);
    assert_eq!(outcome.data, Some(map(json!({"a": 1}))));
}

// ---------------------------------------------------------------------------
// process_hook_result: approvals

fn with_approval(answer: Option<&str>) -> (Arc<Coordinator>, Arc<ScriptedApproval>) {
    let coordinator = coordinator_with(plan());
    let approval = Arc::new(ScriptedApproval::new(answer));
    coordinator.set_approval_system(approval.clone());
    (coordinator, approval)
}

#[tokio::test]
async fn approval_approved() {
    for choice in ["Allow", "allow", "Allow once", "ALLOW ALWAYS"] {
        let (coordinator, approval) = with_approval(Some(choice));
        let result = HookResult {
            approval_options: Some(vec!["Allow once".into(), "Allow always".into(), "Deny".into()]),
            approval_timeout: 7.5,
            approval_default: ApprovalDefault::Allow,
            ..HookResult::ask_user("Run rm -rf?")
        };
        let outcome = coordinator.process_hook_result(result, "tool:pre", "guard").await;
        assert_eq!(outcome.action, HookAction::Continue, "'{choice}' approves");
        let requests = approval.requests();
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0].prompt, "Run rm -rf?");
        assert_eq!(requests[0].options, ["Allow once", "Allow always", "Deny"]);
        assert_eq!(requests[0].timeout, Duration::from_secs_f64(7.5));
        assert_eq!(requests[0].default, ApprovalDefault::Allow);
    }
}

#[tokio::test]
async fn approval_denied() {
    for choice in ["Deny", "yes", "allowed", ""] {
        let (coordinator, _approval) = with_approval(Some(choice));
        let outcome = coordinator.process_hook_result(HookResult::ask_user("ok?"), "tool:pre", "guard").await;
        assert!(outcome.is_denied(), "'{choice}' must not approve");
        let reason = outcome.reason.unwrap();
        assert!(reason.starts_with("User denied"), "{reason}");
        assert!(reason.contains(choice));
    }
}

#[tokio::test]
async fn a_question_is_bracketed_by_approval_events_naming_the_tool_call() {
    for (answer, verdict) in [("Allow", "approval:granted"), ("Deny", "approval:denied")] {
        let (coordinator, _approval) = with_approval(Some(answer));
        let recorder = Recorder::new();
        coordinator.hooks().register("approval:*", recorder.handler(), 0, "recorder");
        let data = serde_json::from_value(json!({"tool_name": "bash", "tool_call_id": "call_7", "tool_input": {}}));
        let result = HookResult { data: Some(data.unwrap()), ..HookResult::ask_user("Run it?") };
        coordinator.process_hook_result(result, "tool:pre", "guard").await;
        let events = recorder.events();
        assert_eq!(recorder.names(), ["approval:required", verdict]);
        assert_eq!(events[0].1["prompt"], "Run it?");
        for (_, data) in &events {
            assert_eq!(
                (&data["tool_name"], &data["tool_call_id"], &data["event"]),
                (&json!("bash"), &json!("call_7"), &json!("tool:pre"))
            );
        }
        assert!(events[1].1["reason"].as_str().unwrap().contains(answer));
    }
}

#[tokio::test]
async fn approval_without_approval_system_denies() {
    let coordinator = coordinator_with(plan());
    let result = HookResult { approval_default: ApprovalDefault::Allow, ..HookResult::ask_user("ok?") };
    let outcome = coordinator.process_hook_result(result, "tool:pre", "guard").await;
    assert!(outcome.is_denied(), "fail closed even when the default is allow");
    assert_eq!(outcome.reason.as_deref(), Some("No approval system available"));
}

#[tokio::test]
async fn approval_timeout_allow() {
    let (coordinator, _approval) = with_approval(None);
    let result = HookResult { approval_default: ApprovalDefault::Allow, ..HookResult::ask_user("ok?") };
    let outcome = coordinator.process_hook_result(result, "tool:pre", "guard").await;
    assert_eq!(outcome.action, HookAction::Continue);
}

#[tokio::test]
async fn approval_timeout_deny() {
    let (coordinator, _approval) = with_approval(None);
    let result = HookResult { approval_default: ApprovalDefault::Deny, ..HookResult::ask_user("ok?") };
    let outcome = coordinator.process_hook_result(result, "tool:pre", "guard").await;
    assert!(outcome.is_denied());
}

#[tokio::test]
async fn approval_with_default_options_offers_allow_and_deny() {
    let (coordinator, approval) = with_approval(Some("Allow"));
    coordinator.process_hook_result(HookResult::ask_user("ok?"), "tool:pre", "guard").await;
    let request = &approval.requests()[0];
    assert!(request.options.iter().any(|o| o.eq_ignore_ascii_case("allow")));
    assert!(request.options.iter().any(|o| o.eq_ignore_ascii_case("deny")));
    assert_eq!(request.timeout, Duration::from_secs(300), "upstream's default timeout");
}

#[tokio::test]
async fn approval_with_out_of_range_timeout_does_not_panic() {
    // A plugin's HookResult is JSON: 1e30 seconds is a valid number there.
    for timeout in [1e30, f64::INFINITY, -3.0] {
        let (coordinator, approval) = with_approval(Some("Allow"));
        let result = HookResult { approval_timeout: timeout, ..HookResult::ask_user("ok?") };
        let outcome = coordinator.process_hook_result(result, "tool:pre", "guard").await;
        assert_eq!(outcome.action, HookAction::Continue, "timeout {timeout}");
        assert_eq!(approval.requests().len(), 1);
    }
}

// ---------------------------------------------------------------------------
// process_hook_result: user messages

#[tokio::test]
async fn user_message_is_displayed() {
    let coordinator = coordinator_with(plan());
    let display = Arc::new(RecordingDisplay::default());
    coordinator.set_display_system(display.clone());

    let with_source = HookResult {
        user_message: Some("careful".into()),
        user_message_level: MessageLevel::Warning,
        user_message_source: Some("linter".into()),
        ..HookResult::continue_()
    };
    let outcome = coordinator.process_hook_result(with_source, "tool:post", "hook-mod").await;
    assert_eq!(outcome.action, HookAction::Continue);

    // Without a source, the hook's name is used.
    let without_source = HookResult {
        user_message: Some("denied, sorry".into()),
        user_message_level: MessageLevel::Error,
        ..HookResult::deny("no")
    };
    let outcome = coordinator.process_hook_result(without_source, "tool:pre", "hook-mod").await;
    assert!(outcome.is_denied());

    assert_eq!(
        display.shown(),
        vec![
            ("careful".to_owned(), MessageLevel::Warning, "hook:linter".to_owned()),
            ("denied, sorry".to_owned(), MessageLevel::Error, "hook:hook-mod".to_owned()),
        ]
    );
}

#[tokio::test]
async fn user_message_is_not_displayed_for_ask_user() {
    let coordinator = coordinator_with(plan());
    let display = Arc::new(RecordingDisplay::default());
    coordinator.set_display_system(display.clone());
    coordinator.set_approval_system(Arc::new(ScriptedApproval::new(Some("Allow"))));
    let result = HookResult { user_message: Some("about to ask".into()), ..HookResult::ask_user("ok?") };
    let outcome = coordinator.process_hook_result(result, "tool:pre", "guard").await;
    assert_eq!(outcome.action, HookAction::Continue);
    assert!(display.shown().is_empty());
}

#[tokio::test]
async fn user_message_falls_back_without_display_system() {
    let coordinator = coordinator_with(plan());
    let result = HookResult {
        user_message: Some("nobody sees this".into()),
        data: Some(map(json!({"kept": true}))),
        ..HookResult::continue_()
    };
    // No display mounted: the message is only logged and the verdict stands.
    let outcome = coordinator.process_hook_result(result, "tool:post", "h").await;
    assert_eq!(outcome.action, HookAction::Continue);
    assert_eq!(outcome.data, Some(map(json!({"kept": true}))));

    // Mounting a display later routes the next message to it.
    let display = Arc::new(RecordingDisplay::default());
    coordinator.set_display_system(display.clone());
    let result = HookResult { user_message: Some("now visible".into()), ..HookResult::continue_() };
    coordinator.process_hook_result(result, "tool:post", "h").await;
    assert_eq!(display.shown().len(), 1);
    assert_eq!(display.shown()[0].0, "now visible");
}

#[tokio::test]
async fn empty_user_message_is_not_displayed() {
    let coordinator = coordinator_with(plan());
    let display = Arc::new(RecordingDisplay::default());
    coordinator.set_display_system(display.clone());
    let result = HookResult { user_message: Some(String::new()), ..HookResult::continue_() };
    coordinator.process_hook_result(result, "e", "h").await;
    assert!(display.shown().is_empty());
}

// ---------------------------------------------------------------------------
// Cleanups

fn cleanup(log: &Log, label: &str, fail: bool) -> Cleanup {
    let log = log.clone();
    let label = label.to_owned();
    Box::new(move || {
        Box::pin(async move {
            log.push(label.clone());
            if fail {
                Err(ModuleError::internal(format!("{label} failed")))
            } else {
                Ok(())
            }
        }) as BoxFuture<'static, _>
    })
}

#[tokio::test]
async fn cleanups_run_in_reverse_registration_order() {
    let coordinator = coordinator_with(plan());
    let log = Log::default();
    for name in ["first", "second", "third"] {
        coordinator.register_cleanup(name, cleanup(&log, name, false));
    }
    let failures = coordinator.cleanup().await;
    assert!(failures.is_empty());
    assert_eq!(log.entries(), ["third", "second", "first"]);
}

#[tokio::test]
async fn failing_cleanup_does_not_stop_the_others() {
    let coordinator = coordinator_with(plan());
    let log = Log::default();
    coordinator.register_cleanup("a", cleanup(&log, "a", false));
    coordinator.register_cleanup("b", cleanup(&log, "b", true));
    coordinator.register_cleanup("c", cleanup(&log, "c", false));
    let failures = coordinator.cleanup().await;
    assert_eq!(log.entries(), ["c", "b", "a"]);
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].0, "b");
    assert_eq!(failures[0].1.message, "b failed");

    // Cleanups run once.
    assert!(coordinator.cleanup().await.is_empty());
    assert_eq!(log.entries().len(), 3);
}

// ---------------------------------------------------------------------------
// Contribution channels and capabilities

fn contributor(answer: Result<Option<Value>, ModuleError>) -> Contributor {
    Arc::new(move || {
        let answer = answer.clone();
        Box::pin(async move { answer }) as BoxFuture<'static, _>
    })
}

#[tokio::test]
async fn contributions_in_registration_order_none_filtered_failures_skipped() {
    let coordinator = coordinator_with(plan());
    coordinator.register_contributor("observability.events", "one", contributor(Ok(Some(json!(["a:x"])))));
    coordinator.register_contributor("observability.events", "none", contributor(Ok(None)));
    coordinator.register_contributor("observability.events", "broken", contributor(Err(ModuleError::internal("boom"))));
    coordinator.register_contributor("observability.events", "two", contributor(Ok(Some(json!({"b": 2})))));
    coordinator.register_contributor("other", "elsewhere", contributor(Ok(Some(json!("other")))));

    let collected = coordinator.collect_contributions("observability.events").await;
    assert_eq!(collected, vec![json!(["a:x"]), json!({"b": 2})]);
    assert!(coordinator.collect_contributions("nobody").await.is_empty());
}

#[tokio::test]
async fn capabilities_register_and_get() {
    let coordinator = coordinator_with(plan());
    assert_eq!(coordinator.get_capability("agents.list"), None);
    coordinator.register_capability("agents.list", json!(["a", "b"]));
    assert_eq!(coordinator.get_capability("agents.list"), Some(json!(["a", "b"])));
    coordinator.register_capability("agents.list", json!([]));
    assert_eq!(coordinator.get_capability("agents.list"), Some(json!([])), "re-registering replaces");
    assert!(coordinator.summary()["capabilities"].as_array().unwrap().contains(&json!("agents.list")));
}

// ---------------------------------------------------------------------------
// Providers

fn mounted(name: &str, priority: i64) -> MountedProvider {
    MountedProvider {
        name: name.to_owned(),
        module: format!("provider-{name}"),
        priority,
        provider: Arc::new(StubProvider::new(name)),
    }
}

#[tokio::test]
async fn providers_sorted_by_priority_ties_in_mount_order() {
    let coordinator = coordinator_with(plan());
    coordinator.mount_provider(mounted("slow", 200));
    coordinator.mount_provider(mounted("tie-a", 50));
    coordinator.mount_provider(mounted("fast", 10));
    coordinator.mount_provider(mounted("tie-b", 50));
    let names: Vec<String> = coordinator.providers().into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["fast", "tie-a", "tie-b", "slow"]);

    // complete() without a name uses the preferred provider.
    let response = coordinator.complete(None, ChatRequest::default(), None).await.unwrap();
    assert_eq!(response.text(), "from fast");
    let response = coordinator.complete(Some("slow"), ChatRequest::default(), None).await.unwrap();
    assert_eq!(response.text(), "from slow");
    let err = coordinator.complete(Some("missing"), ChatRequest::default(), None).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound);
}

#[tokio::test]
async fn complete_without_providers_is_not_found() {
    let coordinator = coordinator_with(plan());
    let err = coordinator.complete(None, ChatRequest::default(), None).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound);
}

// ---------------------------------------------------------------------------
// Tools

fn file_tool() -> EchoTool {
    EchoTool::new(
        "read_file",
        json!({
            "type": "object",
            "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["path"]
        }),
    )
}

/// Waits for a go-ahead, so a test can look at the session while it runs.
struct GatedTool {
    spec: amplifier_kernel::models::ToolSpec,
    started: Arc<tokio::sync::Notify>,
    go: Arc<tokio::sync::Notify>,
}

impl amplifier_kernel::traits::Tool for GatedTool {
    fn spec(&self) -> &amplifier_kernel::models::ToolSpec {
        &self.spec
    }

    fn execute(&self, _input: Value) -> BoxFuture<'_, amplifier_kernel::models::ToolResult> {
        Box::pin(async move {
            self.started.notify_one();
            self.go.notified().await;
            amplifier_kernel::models::ToolResult::ok(json!("done"))
        })
    }
}

#[tokio::test]
async fn a_tool_call_with_an_id_is_booked_as_running_while_it_runs() {
    let coordinator = coordinator_with(plan());
    let (started, go) = (Arc::new(tokio::sync::Notify::new()), Arc::new(tokio::sync::Notify::new()));
    let spec = amplifier_kernel::models::ToolSpec {
        extensions: Default::default(),
        name: "slow".into(),
        parameters: json!({}),
        description: None,
    };
    let tool = GatedTool { spec, started: started.clone(), go: go.clone() };
    coordinator.mount_tool("tool-slow", Arc::new(tool));
    let running = {
        let coordinator = coordinator.clone();
        tokio::spawn(async move { coordinator.execute_tool("slow", json!({}), Some("call_1")).await })
    };
    started.notified().await;
    assert_eq!(coordinator.cancellation().running_tool_names(), ["slow"]);
    go.notify_one();
    assert!(running.await.unwrap().success);
    assert!(coordinator.cancellation().running_tool_names().is_empty(), "booked out when it ends");
}

#[tokio::test]
async fn execute_tool_runs_valid_input() {
    let coordinator = coordinator_with(plan());
    coordinator.mount_tool("tool-fs", Arc::new(file_tool()));
    let result = coordinator.execute_tool("read_file", json!({"path": "a.txt"}), None).await;
    assert!(result.success);
    assert_eq!(result.output, Some(json!({"echo": {"path": "a.txt"}})));
}

#[tokio::test]
async fn execute_tool_rejects_input_that_breaks_the_schema() {
    let coordinator = coordinator_with(plan());
    coordinator.mount_tool("tool-fs", Arc::new(file_tool()));

    let missing = coordinator.execute_tool("read_file", json!({}), None).await;
    assert!(!missing.success);
    let error = missing.error.unwrap();
    assert_eq!(error.get("type"), Some(&json!("InvalidInput")));
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("read_file") && message.contains("path"), "{message}");

    let wrong_type = coordinator.execute_tool("read_file", json!({"path": "a", "limit": "ten"}), None).await;
    assert!(!wrong_type.success);
    let message = wrong_type.error.unwrap()["message"].as_str().unwrap().to_owned();
    assert!(message.contains("/limit"), "the problem is located: {message}");

    let not_object = coordinator.execute_tool("read_file", json!("a.txt"), None).await;
    assert!(!not_object.success);
}

#[tokio::test]
async fn execute_unknown_tool_lists_mounted_tools() {
    let coordinator = coordinator_with(plan());
    coordinator.mount_tool("tool-fs", Arc::new(file_tool()));
    coordinator.mount_tool("tool-echo", Arc::new(EchoTool::new("echo", json!({"type": "object"}))));
    let result = coordinator.execute_tool("bash", json!({}), None).await;
    assert!(!result.success);
    let message = result.error.unwrap()["message"].as_str().unwrap().to_owned();
    assert!(message.contains("bash"), "{message}");
    assert!(message.contains("read_file") && message.contains("echo"), "{message}");
}

#[tokio::test]
async fn tool_with_invalid_schema_is_mounted_without_validation() {
    let coordinator = coordinator_with(plan());
    coordinator.mount_tool("tool-odd", Arc::new(EchoTool::new("odd", json!({"type": 12}))));
    assert_eq!(coordinator.tool_names(), ["odd"]);
    let result = coordinator.execute_tool("odd", json!({"anything": 1}), None).await;
    assert!(result.success);
}

// ---------------------------------------------------------------------------
// Events through the coordinator

#[tokio::test]
async fn coordinator_events_carry_session_and_parent_ids() {
    let coordinator = Coordinator::new("child-1".into(), Some("parent-1".into()), Arc::new(plan()));
    let recorder = Recorder::new();
    coordinator.hooks().register("*", recorder.handler(), 0, "rec");
    coordinator.emit("custom:event", map(json!({}))).await;
    let data = &recorder.events()[0].1;
    assert_eq!(data.get("session_id"), Some(&json!("child-1")));
    assert_eq!(data.get("parent_id"), Some(&json!("parent-1")));

    let root = coordinator_with(plan());
    let recorder = Recorder::new();
    root.hooks().register("*", recorder.handler(), 0, "rec");
    root.emit("custom:event", map(json!({}))).await;
    assert_eq!(recorder.events()[0].1.get("parent_id"), Some(&Value::Null));
}

/// A tool answering after `delay`.
struct SlowTool {
    spec: amplifier_kernel::models::ToolSpec,
    delay: Duration,
}

impl SlowTool {
    fn mounted(coordinator: &Coordinator, name: &str, delay: Duration) {
        let spec = amplifier_kernel::models::ToolSpec {
            extensions: Default::default(),
            name: name.to_owned(),
            parameters: json!({"type": "object"}),
            description: None,
        };
        coordinator.mount_tool("slow-tools", Arc::new(SlowTool { spec, delay }));
    }
}

impl amplifier_kernel::traits::Tool for SlowTool {
    fn spec(&self) -> &amplifier_kernel::models::ToolSpec {
        &self.spec
    }

    fn execute(&self, _input: Value) -> BoxFuture<'_, amplifier_kernel::models::ToolResult> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            amplifier_kernel::models::ToolResult::ok(json!("finished"))
        })
    }
}

/// A provider whose answer never comes.
struct SilentProvider(amplifier_kernel::models::ProviderInfo);

impl amplifier_kernel::traits::Provider for SilentProvider {
    fn info(&self) -> &amplifier_kernel::models::ProviderInfo {
        &self.0
    }

    fn list_models(&self) -> BoxFuture<'_, amplifier_kernel::ModuleResult<Vec<amplifier_kernel::models::ModelInfo>>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn complete(
        &self,
        _request: ChatRequest,
        _stream: Option<amplifier_kernel::StreamSink>,
    ) -> BoxFuture<'_, amplifier_kernel::ModuleResult<amplifier_kernel::models::ChatResponse>> {
        Box::pin(std::future::pending())
    }
}

/// Runs `name` and requests `cancel` once the call is running; the result
/// and how long it took (in paused time).
async fn run_then_cancel(
    coordinator: &Arc<Coordinator>,
    name: &str,
    cancel: impl FnOnce(&Coordinator),
) -> (amplifier_kernel::models::ToolResult, Duration) {
    let started = tokio::time::Instant::now();
    let running = {
        let coordinator = coordinator.clone();
        let name = name.to_owned();
        tokio::spawn(async move { coordinator.execute_tool(&name, json!({}), Some("call-1")).await })
    };
    tokio::time::sleep(Duration::from_millis(10)).await;
    cancel(coordinator);
    (running.await.unwrap(), started.elapsed())
}

#[tokio::test(start_paused = true)]
async fn after_a_graceful_cancel_a_running_tool_may_finish_within_the_grace_period() {
    let coordinator = coordinator_with(plan());
    SlowTool::mounted(&coordinator, "slow", Duration::from_secs(3));
    let (result, took) = run_then_cancel(&coordinator, "slow", |c| assert!(c.cancellation().request_graceful())).await;
    assert!(result.success, "{result:?}");
    assert_eq!(took, Duration::from_secs(3));
}

#[tokio::test(start_paused = true)]
async fn past_the_grace_period_a_running_tool_is_cancelled() {
    let mut plan = plan();
    plan.session.cancel_grace = 2.0;
    let coordinator = coordinator_with(plan);
    SlowTool::mounted(&coordinator, "slow", Duration::from_secs(60));
    let (result, took) = run_then_cancel(&coordinator, "slow", |c| assert!(c.cancellation().request_graceful())).await;
    assert!(!result.success);
    let error = result.error.unwrap();
    assert_eq!(error["type"], "Cancelled");
    assert_eq!(
        error["message"],
        "tool 'slow' was cancelled (the session was cancelled and it ran past the 2s grace period)"
    );
    assert_eq!(took, Duration::from_millis(2010));
    assert!(coordinator.cancellation().running_tool_names().is_empty(), "the call is booked out");
}

#[tokio::test(start_paused = true)]
async fn an_immediate_cancel_drops_running_tool_and_provider_calls_at_once() {
    let coordinator = coordinator_with(plan());
    SlowTool::mounted(&coordinator, "slow", Duration::from_secs(60));
    let (result, took) = run_then_cancel(&coordinator, "slow", |c| {
        c.cancellation().request_graceful();
        c.cancellation().request_immediate();
    })
    .await;
    assert_eq!(result.error.unwrap()["message"], "tool 'slow' was cancelled (the session was stopped)");
    assert_eq!(took, Duration::from_millis(10));

    coordinator.mount_provider(MountedProvider {
        name: "silent".into(),
        module: "provider-silent".into(),
        priority: 0,
        provider: Arc::new(SilentProvider(Default::default())),
    });
    let err = coordinator.complete(None, ChatRequest::default(), None).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Cancelled);
    assert_eq!(err.message, "the call to provider 'provider-silent' was cancelled (the session was stopped)");
}

#[tokio::test(start_paused = true)]
async fn a_tool_past_its_timeout_is_stopped_and_a_tool_may_have_its_own() {
    let mut plan = plan();
    plan.session.tool_timeout = Some(30.0);
    plan.session.tool_timeouts.insert("quick".into(), Some(1.5));
    plan.session.tool_timeouts.insert("patient".into(), None);
    let coordinator = coordinator_with(plan);
    SlowTool::mounted(&coordinator, "slow", Duration::from_secs(3600));
    SlowTool::mounted(&coordinator, "quick", Duration::from_secs(3600));
    SlowTool::mounted(&coordinator, "patient", Duration::from_secs(3600));
    let started = tokio::time::Instant::now();
    let result = coordinator.execute_tool("slow", json!({}), None).await;
    assert_eq!(result.error.unwrap()["type"], "Timeout");
    assert_eq!(started.elapsed(), Duration::from_secs(30));
    let result = coordinator.execute_tool("quick", json!({}), None).await;
    assert_eq!(
        result.error.unwrap()["message"],
        "tool 'quick' did not finish within 1.5s and was stopped (session.tool_timeouts.quick)"
    );
    // `null` lifts the limit: the tool answers after its hour.
    let result = coordinator.execute_tool("patient", json!({}), None).await;
    assert!(result.success);
}

// ---------------------------------------------------------------------------
// A tool call with its hooks (`Coordinator::call_tool`, the `tool.call` op)

fn call(name: &str, input: Value) -> amplifier_kernel::ops::HostCallTool {
    amplifier_kernel::ops::HostCallTool {
        name: name.into(),
        input,
        tool_call_id: Some("call_1".into()),
        parallel_group_id: Some("1-1".into()),
    }
}

#[tokio::test]
async fn a_tool_call_runs_the_input_its_hooks_left_and_the_result_they_replaced() {
    let coordinator = coordinator_with(plan());
    coordinator.mount_tool("tool-echo", Arc::new(EchoTool::new("echo", json!({"type": "object"}))));
    let recorder = Recorder::new();
    coordinator.hooks().register("tool:*", recorder.handler(), 10, "recorder");
    let rewrite = map(json!({"tool_name": "echo", "tool_input": {"text": "rewritten"}}));
    coordinator.hooks().register("tool:pre", answer(HookResult::modify(rewrite)), 0, "rewriter");
    coordinator.hooks().register("tool:post", answer(HookResult::inject("checked")), 0, "injector");

    let done = coordinator.call_tool(call("echo", json!({"text": "asked"}))).await;
    assert_eq!(done.result.output, Some(json!({"echo": {"text": "rewritten"}})), "the input the hooks left ran");
    assert_eq!(recorder.names(), ["tool:pre", "tool:post"]);
    let post = &recorder.named("tool:post")[0];
    assert_eq!(post["tool_input"], json!({"text": "rewritten"}));
    assert_eq!((post["tool_call_id"].as_str(), post["parallel_group_id"].as_str()), (Some("call_1"), Some("1-1")));
    assert_eq!(post["result"]["output"], json!({"echo": {"text": "rewritten"}}));
    assert!(done.ephemeral_injections.is_empty(), "a plain injection goes to the context");

    // A tool:post hook's `result` replaces the tool's.
    let redacted = map(json!({"result": "[redacted]"}));
    coordinator.hooks().register("tool:post", answer(HookResult::modify(redacted)), 5, "redactor");
    let done = coordinator.call_tool(call("echo", json!({"text": "asked"}))).await;
    assert_eq!(done.result.serialized_output(), "[redacted]");
}

#[tokio::test]
async fn a_denied_tool_call_never_runs_and_a_failed_one_is_a_tool_error() {
    let coordinator = coordinator_with(plan());
    coordinator.mount_tool("tool-echo", Arc::new(EchoTool::new("echo", json!({"type": "object"}))));
    let recorder = Recorder::new();
    // Before the guard: a deny ends the event's handlers.
    coordinator.hooks().register("tool:*", recorder.handler(), -10, "recorder");
    let deny = |event: &amplifier_kernel::HookEvent| {
        Ok(match event.data["tool_input"]["text"].as_str() {
            Some("rm -rf") => HookResult::deny("not that"),
            _ => HookResult::continue_(),
        })
    };
    coordinator.hooks().register("tool:pre", support::hook(deny), 0, "guard");

    let denied = coordinator.call_tool(call("echo", json!({"text": "rm -rf"}))).await;
    assert!(!denied.result.success);
    assert_eq!(denied.result.serialized_output(), "Denied by hook: not that");
    assert_eq!(recorder.names(), ["tool:pre"], "no tool:post for a call that never ran");

    let failed = coordinator.call_tool(call("nope", json!({}))).await;
    assert!(failed.result.is_failed_call());
    assert_eq!(recorder.names(), ["tool:pre", "tool:pre", "tool:error"]);
    let error = &recorder.named("tool:error")[0];
    assert_eq!(error["tool_name"], "nope");
    assert_eq!(error["tool_call_id"], "call_1");
    assert!(error["error"]["msg"].as_str().unwrap().contains("nope"), "{error:?}");
}
