//! Conformance tests for `HookRegistry` (upstream `hooks.rs` semantics).

mod support;

use std::sync::Arc;
use std::time::Duration;

use amplifier_kernel::hooks::{HookCall, HookEvent, HookHandler};
use amplifier_kernel::models::{HookAction, HookResult, InjectionRole};
use amplifier_kernel::{BoxFuture, HookRegistry, ModuleResult};
use serde_json::{json, Value};
use support::{answer, failing, hook, is_rfc3339, logged, map, Log, Recorder, SlowHook};

fn registry_with_defaults() -> HookRegistry {
    let registry = HookRegistry::new();
    registry.set_default_fields(map(json!({"session_id": "sess-1", "parent_id": "parent-1"})));
    registry
}

#[tokio::test]
async fn emit_with_no_handlers_returns_continue() {
    let registry = registry_with_defaults();
    let data = map(json!({"tool": "bash", "n": 1}));
    let result = registry.emit("tool:pre", data.clone()).await;
    assert_eq!(result.action, HookAction::Continue);
    // The original data, untouched: no defaults merged, no timestamp stamped.
    assert_eq!(result.data, Some(data));
    let data = result.data.unwrap();
    assert!(!data.contains_key("timestamp"));
    assert!(!data.contains_key("session_id"));
}

#[tokio::test]
async fn emit_with_only_non_matching_handlers_returns_original_data() {
    let registry = registry_with_defaults();
    let recorder = Recorder::new();
    registry.register("tool:post", recorder.handler(), 0, "rec");
    let data = map(json!({"x": 1}));
    let result = registry.emit("tool:pre", data.clone()).await;
    assert_eq!(result.data, Some(data));
    assert!(recorder.events().is_empty());
}

#[tokio::test]
async fn priority_ordering() {
    let registry = HookRegistry::new();
    let log = Log::default();
    registry.register("e", logged(&log, "p10", HookResult::continue_()), 10, "p10");
    registry.register("e", logged(&log, "p-5", HookResult::continue_()), -5, "p-5");
    registry.register("e", logged(&log, "p0", HookResult::continue_()), 0, "p0");
    registry.emit("e", map(json!({}))).await;
    assert_eq!(log.entries(), ["p-5", "p0", "p10"]);
}

#[tokio::test]
async fn ties_keep_registration_order() {
    let registry = HookRegistry::new();
    let log = Log::default();
    registry.register("e", logged(&log, "a", HookResult::continue_()), 5, "a");
    registry.register("e", logged(&log, "b", HookResult::continue_()), 5, "b");
    registry.register("e", logged(&log, "first", HookResult::continue_()), 1, "first");
    registry.register("e", logged(&log, "c", HookResult::continue_()), 5, "c");
    registry.register("e", logged(&log, "last", HookResult::continue_()), 9, "last");
    registry.emit("e", map(json!({}))).await;
    assert_eq!(log.entries(), ["first", "a", "b", "c", "last"]);
}

#[tokio::test]
async fn deny_short_circuits() {
    let registry = HookRegistry::new();
    let log = Log::default();
    registry.register("e", logged(&log, "before", HookResult::continue_()), 0, "before");
    registry.register("e", logged(&log, "denier", HookResult::deny("blocked")), 1, "denier");
    registry.register("e", logged(&log, "after", HookResult::continue_()), 2, "after");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::Deny);
    assert_eq!(result.reason.as_deref(), Some("blocked"));
    assert_eq!(log.entries(), ["before", "denier"], "handlers after a deny must not run");
}

#[tokio::test]
async fn deny_takes_precedence_over_ask_user() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::ask_user("may I?")), 0, "asker");
    registry.register("e", answer(HookResult::inject("ctx")), 1, "injector");
    registry.register("e", answer(HookResult::deny("no")), 2, "denier");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::Deny);
    assert_eq!(result.reason.as_deref(), Some("no"));
}

#[tokio::test]
async fn ask_user_takes_precedence_over_inject_context() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::inject("ctx")), 0, "injector");
    registry.register("e", answer(HookResult::ask_user("may I?")), 1, "asker");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::AskUser);
    assert_eq!(result.approval_prompt.as_deref(), Some("may I?"));
}

#[tokio::test]
async fn ask_user_precedence_regardless_of_handler_order() {
    let registry = HookRegistry::new();
    let log = Log::default();
    registry.register("e", logged(&log, "ask1", HookResult::ask_user("first")), 0, "ask1");
    registry.register("e", logged(&log, "inject", HookResult::inject("ctx")), 1, "inject");
    registry.register("e", logged(&log, "ask2", HookResult::ask_user("second")), 2, "ask2");
    registry.register("e", logged(&log, "modify", HookResult::modify(map(json!({"m": 1})))), 3, "modify");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::AskUser);
    assert_eq!(result.approval_prompt.as_deref(), Some("first"), "the first ask_user is kept");
    // ask_user doesn't short-circuit: everyone ran.
    assert_eq!(log.entries(), ["ask1", "inject", "ask2", "modify"]);
}

#[tokio::test]
async fn inject_context_takes_precedence_over_modify() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::modify(map(json!({"m": 1})))), 0, "modifier");
    registry.register("e", answer(HookResult::inject("ctx")), 1, "injector");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::InjectContext);
    assert_eq!(result.context_injection.as_deref(), Some("ctx"));
    // The modified data still travels with the merged injection.
    assert_eq!(result.data.unwrap().get("m"), Some(&json!(1)));
}

#[tokio::test]
async fn data_modification_chains() {
    let registry = HookRegistry::new();
    registry.register(
        "e",
        hook(|event| {
            let mut data = event.data.clone();
            data.insert("step".into(), json!("first"));
            Ok(HookResult::modify(data))
        }),
        0,
        "first",
    );
    let seen = Arc::new(std::sync::Mutex::new(None));
    let seen_by_second = seen.clone();
    registry.register(
        "e",
        hook(move |event| {
            *seen_by_second.lock().unwrap() = event.data.get("step").cloned();
            Ok(HookResult::continue_())
        }),
        1,
        "second",
    );
    let result = registry.emit("e", map(json!({"original": true}))).await;
    assert_eq!(*seen.lock().unwrap(), Some(json!("first")), "the next handler sees the modified data");
    assert_eq!(result.action, HookAction::Continue);
    let data = result.data.unwrap();
    assert_eq!(data.get("step"), Some(&json!("first")));
    assert_eq!(data.get("original"), Some(&json!(true)));
}

#[tokio::test]
async fn multiple_modifiers_chain() {
    let registry = HookRegistry::new();
    for (priority, name) in [(0, "a"), (1, "b"), (2, "c")] {
        registry.register(
            "e",
            hook(move |event| {
                let mut data = event.data.clone();
                let mut trail = data.get("trail").and_then(Value::as_array).cloned().unwrap_or_default();
                trail.push(json!(name));
                data.insert("trail".into(), Value::Array(trail));
                Ok(HookResult::modify(data))
            }),
            priority,
            name,
        );
    }
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.data.unwrap().get("trail"), Some(&json!(["a", "b", "c"])));
}

#[tokio::test]
async fn modify_replaces_the_data_entirely() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::modify(map(json!({"only": 1})))), 0, "replacer");
    let recorder = Recorder::new();
    registry.register("e", recorder.handler(), 1, "rec");
    registry.emit("e", map(json!({"dropped": true}))).await;
    assert_eq!(recorder.events()[0].1, map(json!({"only": 1})));
}

#[tokio::test]
async fn inject_context_merges_multiple() {
    let registry = HookRegistry::new();
    let first = HookResult {
        context_injection_role: InjectionRole::User,
        ephemeral: true,
        suppress_output: true,
        ..HookResult::inject("alpha")
    };
    let second = HookResult {
        context_injection_role: InjectionRole::Assistant,
        ephemeral: false,
        suppress_output: false,
        ..HookResult::inject("beta")
    };
    registry.register("e", answer(first), 0, "first");
    registry.register("e", answer(HookResult::inject("")), 1, "empty");
    registry.register("e", answer(second), 2, "second");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::InjectContext);
    assert_eq!(result.context_injection.as_deref(), Some("alpha\n\nbeta"));
    assert_eq!(result.context_injection_role, InjectionRole::User, "role comes from the first");
    assert!(result.ephemeral, "ephemeral comes from the first");
    assert!(result.suppress_output, "suppress_output comes from the first");
}

#[tokio::test]
async fn empty_injection_alone_is_not_an_injection() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::inject("")), 0, "empty");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::Continue);
}

#[tokio::test]
async fn merge_inject_context_preserves_append_to_last_tool_result() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::inject("one")), 0, "one");
    registry.register(
        "e",
        answer(HookResult { append_to_last_tool_result: true, ..HookResult::inject("two") }),
        1,
        "two",
    );
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.context_injection.as_deref(), Some("one\n\ntwo"));
    assert!(result.append_to_last_tool_result, "any handler asking for append wins");

    let single = HookRegistry::new();
    single.register("e", answer(HookResult::inject("one")), 0, "one");
    assert!(!single.emit("e", map(json!({}))).await.append_to_last_tool_result);
}

#[tokio::test]
async fn unregister_removes_handler() {
    let registry = HookRegistry::new();
    let log = Log::default();
    let id = registry.register("e", logged(&log, "gone", HookResult::continue_()), 0, "gone");
    registry.register("e", logged(&log, "kept", HookResult::continue_()), 1, "kept");
    assert!(registry.unregister(id));
    assert!(!registry.unregister(id), "a second unregister finds nothing");
    registry.emit("e", map(json!({}))).await;
    assert_eq!(log.entries(), ["kept"]);
    assert_eq!(registry.list_handlers(None).get("e").cloned(), Some(vec!["kept".to_owned()]));
}

#[tokio::test]
async fn default_fields_merged_into_events() {
    let registry = registry_with_defaults();
    let recorder = Recorder::new();
    registry.register("e", recorder.handler(), 0, "rec");
    registry.emit("e", map(json!({"k": "v"}))).await;
    let data = &recorder.events()[0].1;
    assert_eq!(data.get("session_id"), Some(&json!("sess-1")));
    assert_eq!(data.get("parent_id"), Some(&json!("parent-1")));
    assert_eq!(data.get("k"), Some(&json!("v")));
}

#[tokio::test]
async fn event_data_overrides_defaults() {
    let registry = registry_with_defaults();
    let recorder = Recorder::new();
    registry.register("e", recorder.handler(), 0, "rec");
    registry.emit("e", map(json!({"session_id": "child-7"}))).await;
    let data = &recorder.events()[0].1;
    assert_eq!(data.get("session_id"), Some(&json!("child-7")));
    assert_eq!(data.get("parent_id"), Some(&json!("parent-1")), "other defaults still apply");
}

#[tokio::test]
async fn emit_stamps_timestamp() {
    let registry = HookRegistry::new();
    let recorder = Recorder::new();
    registry.register("e", recorder.handler(), 0, "rec");
    let result = registry.emit("e", map(json!({}))).await;
    let seen = recorder.events()[0].1.get("timestamp").cloned().expect("handler sees a timestamp");
    let seen = seen.as_str().expect("timestamp is a string");
    assert!(is_rfc3339(seen), "not RFC 3339: {seen}");
    assert_eq!(result.data.unwrap().get("timestamp"), Some(&json!(seen)));
}

#[tokio::test]
async fn timestamp_is_infrastructure_owned() {
    let registry = HookRegistry::new();
    let recorder = Recorder::new();
    registry.register("e", recorder.handler(), 0, "rec");
    registry.emit("e", map(json!({"timestamp": "1999-01-01T00:00:00Z"}))).await;
    let seen = recorder.events()[0].1.get("timestamp").cloned().unwrap();
    assert_ne!(seen, json!("1999-01-01T00:00:00Z"), "a caller cannot set the timestamp");
    assert!(is_rfc3339(seen.as_str().unwrap()));
}

#[tokio::test]
async fn handler_error_continues_to_next() {
    let registry = HookRegistry::new();
    let log = Log::default();
    registry.register("e", failing("boom"), 0, "broken");
    registry.register("e", logged(&log, "next", HookResult::modify(map(json!({"after_error": true})))), 1, "next");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(log.entries(), ["next"]);
    assert_eq!(result.action, HookAction::Continue);
    assert_eq!(result.data.unwrap().get("after_error"), Some(&json!(true)));
}

#[tokio::test]
async fn handler_error_does_not_lose_earlier_verdicts() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::ask_user("ok?")), 0, "asker");
    registry.register("e", failing("boom"), 1, "broken");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::AskUser);
}

#[tokio::test]
async fn emit_and_collect_returns_data() {
    let registry = HookRegistry::new();
    registry.register("e", answer(HookResult::modify(map(json!({"from": "b"})))), 2, "b");
    // No action semantics: a deny neither stops the others nor changes the data they see.
    registry.register(
        "e",
        answer(HookResult { data: Some(map(json!({"from": "a"}))), ..HookResult::deny("ignored") }),
        1,
        "a",
    );
    registry.register("e", answer(HookResult::continue_()), 3, "no-data");
    let recorder = Recorder::new();
    registry.register("e", recorder.handler(), 4, "rec");
    let collected = registry.emit_and_collect("e", map(json!({"q": 1})), Duration::from_secs(1)).await;
    assert_eq!(collected, vec![map(json!({"from": "a"})), map(json!({"from": "b"}))]);
    assert_eq!(recorder.events()[0].1.get("q"), Some(&json!(1)), "modify doesn't chain in collect");
}

#[tokio::test]
async fn emit_and_collect_skips_errors() {
    let registry = HookRegistry::new();
    registry.register("e", failing("boom"), 0, "broken");
    registry.register("e", answer(HookResult::modify(map(json!({"ok": true})))), 1, "ok");
    let collected = registry.emit_and_collect("e", map(json!({})), Duration::from_secs(1)).await;
    assert_eq!(collected, vec![map(json!({"ok": true}))]);
}

#[tokio::test(start_paused = true)]
async fn emit_and_collect_times_out() {
    let registry = HookRegistry::new();
    registry.register(
        "e",
        Arc::new(SlowHook { delay: Duration::from_secs(60), result: HookResult::modify(map(json!({"slow": true}))) }),
        0,
        "slow",
    );
    registry.register("e", answer(HookResult::modify(map(json!({"fast": true})))), 1, "fast");
    let started = tokio::time::Instant::now();
    let collected = registry.emit_and_collect("e", map(json!({})), Duration::from_millis(100)).await;
    assert_eq!(collected, vec![map(json!({"fast": true}))]);
    assert!(started.elapsed() < Duration::from_secs(60), "the slow handler was not awaited");
}

#[tokio::test]
async fn emit_and_collect_does_not_stamp_timestamp() {
    let registry = registry_with_defaults();
    let recorder = Recorder::new();
    registry.register("e", recorder.handler(), 0, "rec");
    registry.emit_and_collect("e", map(json!({"k": 1})), Duration::from_secs(1)).await;
    let data = &recorder.events()[0].1;
    assert!(!data.contains_key("timestamp"));
    assert_eq!(data.get("k"), Some(&json!(1)));
}

#[tokio::test]
async fn wildcard_and_prefix_subscriptions_fire() {
    let registry = HookRegistry::new();
    let log = Log::default();
    registry.register("*", logged(&log, "all", HookResult::continue_()), 10, "all");
    registry.register("tool:pre", logged(&log, "exact", HookResult::continue_()), 5, "exact");
    registry.register("tool:*", logged(&log, "prefix", HookResult::continue_()), 0, "prefix");
    registry.register("tool:post", logged(&log, "other", HookResult::continue_()), 0, "other");

    registry.emit("tool:pre", map(json!({}))).await;
    assert_eq!(log.entries(), ["prefix", "exact", "all"], "one merged priority order");

    let log_session = Log::default();
    let registry2 = HookRegistry::new();
    registry2.register("*", logged(&log_session, "all", HookResult::continue_()), 0, "all");
    registry2.register("tool:*", logged(&log_session, "prefix", HookResult::continue_()), 0, "prefix");
    registry2.emit("session:start", map(json!({}))).await;
    registry2.emit("toolbox", map(json!({}))).await;
    assert_eq!(log_session.entries(), ["all", "all"], "tool:* matches only tool: events");

    let listing = registry.list_handlers(Some("tool:pre"));
    assert_eq!(listing.get("tool:*").cloned(), Some(vec!["prefix".to_owned()]));
    assert_eq!(listing.get("*").cloned(), Some(vec!["all".to_owned()]));
    assert!(!listing.contains_key("tool:post"));
}

#[tokio::test]
async fn ties_across_patterns_keep_registration_order() {
    let registry = HookRegistry::new();
    let log = Log::default();
    registry.register("*", logged(&log, "all", HookResult::continue_()), 0, "all");
    registry.register("tool:pre", logged(&log, "exact", HookResult::continue_()), 0, "exact");
    registry.register("tool:*", logged(&log, "prefix", HookResult::continue_()), 0, "prefix");
    registry.emit("tool:pre", map(json!({}))).await;
    assert_eq!(log.entries(), ["all", "exact", "prefix"]);
}

#[tokio::test]
async fn the_message_of_a_handler_that_continued_is_not_lost() {
    let registry = HookRegistry::new();
    let told = |text: &str| HookResult {
        user_message: Some(text.to_owned()),
        user_message_level: amplifier_kernel::models::MessageLevel::Warning,
        ..HookResult::continue_()
    };
    registry.register("e", answer(HookResult::continue_()), 0, "quiet");
    registry.register("e", answer(told("lint is slow")), 1, "linter");
    registry.register("e", answer(told("second")), 2, "other");
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!(result.action, HookAction::Continue);
    assert_eq!(result.user_message.as_deref(), Some("lint is slow"), "the first one travels");
    assert_eq!(result.user_message_source.as_deref(), Some("linter"));

    // An injection's own message comes first.
    registry.register(
        "e",
        answer(HookResult { user_message: Some("mine".into()), ..HookResult::inject("ctx") }),
        3,
        "injector",
    );
    let result = registry.emit("e", map(json!({}))).await;
    assert_eq!((result.action, result.user_message.as_deref()), (HookAction::InjectContext, Some("mine")));
}

/// A handler that answers when started, as a plugin hook answered inline
/// does; its `handle` would fail the test.
struct AnswersAtOnce(HookResult);

impl HookHandler for AnswersAtOnce {
    fn handle<'a>(&'a self, _event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        panic!("emit awaited a handler that had answered when started")
    }

    fn start<'a>(&'a self, _event: &'a HookEvent) -> HookCall<'a> {
        HookCall::Answered(Ok(self.0.clone()))
    }
}

#[tokio::test]
async fn a_handler_that_answers_when_started_is_folded_like_any_other() {
    let registry = registry_with_defaults();
    let log = Log::default();
    registry.register("e", Arc::new(AnswersAtOnce(HookResult::inject("at once"))), 0, "at-once");
    registry.register("e", logged(&log, "awaited", HookResult::continue_()), 1, "awaited");
    registry.register("e", Arc::new(AnswersAtOnce(HookResult::deny("stop"))), 2, "denier");
    registry.register("e", logged(&log, "after", HookResult::continue_()), 3, "after");
    let result = registry.emit("e", map(json!({"x": 1}))).await;
    assert_eq!(result.action, HookAction::Deny);
    assert_eq!(result.reason.as_deref(), Some("stop"));
    assert_eq!(log.entries(), ["awaited"], "the deny answered at start must stop the handlers after it");
}
