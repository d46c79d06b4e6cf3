//! Conformance tests for the session lifecycle: essential vs optional
//! modules, `module:load_failed`, `session:start`/`resume`/`fork`/`end`,
//! event identity fields, and the plan checks.

mod support;

use std::sync::Arc;

use amplifier_kernel::loading::LoadReason;
use amplifier_kernel::models::RunStatus;
use amplifier_kernel::plan::{ModuleKind, MountPlan};
use amplifier_kernel::session::{SessionError, SessionOptions};
use amplifier_kernel::Session;
use serde_json::{json, Value};
use support::{map, plan, plan_with_providers, spec, Recorder, TestLoader};

/// A session with a recorder on every event, registered before initialize
/// (as a front end registers its own handlers).
fn new_session(plan: MountPlan, loader: &Arc<TestLoader>, options: SessionOptions) -> (Session, Recorder) {
    let session = Session::new(plan, loader.clone(), options);
    let recorder = Recorder::with_log(&loader.log);
    session.coordinator().hooks().register("*", recorder.handler(), -100, "recorder");
    (session, recorder)
}

fn count(recorder: &Recorder, event: &str) -> usize {
    recorder.named(event).len()
}

#[tokio::test]
async fn orchestrator_failure_is_essential() {
    let loader = TestLoader::new();
    loader.fail("loop-basic", LoadReason::MissingSource, "no such crate");
    let (session, _recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    let err = session.initialize().await.unwrap_err();
    match &err {
        SessionError::Essential { kind, module, error } => {
            assert_eq!(*kind, ModuleKind::Orchestrator);
            assert_eq!(module, "loop-basic");
            assert_eq!(error.reason, LoadReason::MissingSource);
        }
        other => panic!("expected an essential failure, got {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("loop-basic") && text.contains("no such crate"), "{text}");
    assert!(
        !loader.log.entries().iter().any(|e| e.starts_with("load:provider")),
        "nothing else is loaded once an essential module failed"
    );
}

#[tokio::test]
async fn context_failure_is_essential() {
    let loader = TestLoader::new();
    loader.fail("context-simple", LoadReason::InvalidEntryPoint, "bad entry point");
    let (session, _recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    let err = session.execute("hi").await.unwrap_err();
    match err {
        SessionError::Essential { kind, module, .. } => {
            assert_eq!(kind, ModuleKind::Context);
            assert_eq!(module, "context-simple");
        }
        other => panic!("expected an essential failure, got {other:?}"),
    }
}

#[tokio::test]
async fn failed_initialize_is_not_initialized() {
    let loader = TestLoader::new();
    loader.fail("loop-basic", LoadReason::MissingSource, "no such crate");
    let (session, recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    assert!(matches!(session.execute("hi").await, Err(SessionError::Essential { .. })));
    // Trying again must report the same failure, not pretend the session is up.
    assert!(
        matches!(session.execute("again").await, Err(SessionError::Essential { .. })),
        "a second execute after a failed initialize must fail the same way"
    );
    session.cleanup().await;
    assert_eq!(count(&recorder, "session:start"), 0, "a session that never started doesn't announce it");
    assert_eq!(count(&recorder, "session:end"), 0, "session:end only for an initialized session");
}

#[tokio::test]
async fn optional_module_failure_emits_load_failed_and_continues() {
    let loader = TestLoader::new();
    loader.fail("provider-broken", LoadReason::ValidationFailed, "bad config");
    loader.fail("tool-broken", LoadReason::MissingSource, "not found");
    loader.fail("hooks-broken", LoadReason::InvalidModuleMetadata, "bad metadata");
    let mut plan = plan_with_providers(&["provider-a"]);
    let mut broken = spec("provider-broken", "providers[1]");
    broken.instance_id = Some("backup".into());
    plan.providers.push(broken);
    plan.tools = vec![spec("tool-ok", "tools[0]"), spec("tool-broken", "tools[1]")];
    plan.hooks = vec![spec("hooks-broken", "hooks[0]")];
    let (session, recorder) = new_session(plan, &loader, SessionOptions::default());

    let report = session.initialize().await.expect("optional failures don't fail the session");
    assert_eq!(report.failures.len(), 3);
    let provider_failure = &report.failures[0];
    assert_eq!(provider_failure.kind, ModuleKind::Provider);
    assert_eq!(provider_failure.module, "provider-broken");
    assert_eq!(provider_failure.field_path, "providers[1]");
    assert_eq!(provider_failure.reason, LoadReason::ValidationFailed);
    assert_eq!(provider_failure.error, "bad config");
    assert_eq!(provider_failure.to_string(), "provider provider-broken (providers[1]): bad config");
    let mut placed = provider_failure.clone();
    placed.error = "providers[1]: bad config".into();
    assert_eq!(placed.to_string(), provider_failure.to_string(), "the place is said once");
    assert_eq!(report.failures[1].kind, ModuleKind::Tool);
    assert_eq!(report.failures[2].kind, ModuleKind::Hook);
    assert!(report.mounted.iter().any(|m| m.contains("provider-a")));
    assert!(report.mounted.iter().any(|m| m.contains("tool-ok")));

    let events = recorder.named("module:load_failed");
    assert_eq!(events.len(), 3);
    let provider_event = &events[0];
    assert_eq!(provider_event.get("module_type"), Some(&json!("provider")));
    assert_eq!(provider_event.get("module_id"), Some(&json!("provider-broken")));
    assert_eq!(provider_event.get("error"), Some(&json!("bad config")));
    assert_eq!(provider_event.get("reason_code"), Some(&json!("validation_failed")));
    assert_eq!(provider_event.get("instance_id"), Some(&json!("backup")));
    assert_eq!(events[1].get("module_type"), Some(&json!("tool")));
    assert_eq!(events[1].get("reason_code"), Some(&json!("missing_source")));
    assert!(!events[1].contains_key("instance_id"), "instance_id only when the entry has one");
    assert_eq!(events[2].get("module_type"), Some(&json!("hook")));
    assert_eq!(events[2].get("reason_code"), Some(&json!("invalid_module_metadata")));

    // The session goes on with what loaded.
    let coordinator = session.coordinator();
    assert_eq!(coordinator.providers().len(), 1);
    assert_eq!(coordinator.tool_names(), ["tool-ok"]);
    assert_eq!(session.execute("hi").await.unwrap(), "done: hi");
}

#[tokio::test]
async fn modules_load_in_plan_order() {
    let loader = TestLoader::new();
    let mut plan = plan_with_providers(&["provider-a"]);
    plan.tools = vec![spec("tool-x", "tools[0]")];
    plan.hooks = vec![spec("hooks-y", "hooks[0]")];
    let session = Session::new(plan, loader.clone(), SessionOptions::default());
    session.initialize().await.unwrap();
    assert_eq!(
        loader.log.entries(),
        [
            "load:orchestrator loop-basic",
            "load:context context-simple",
            "load:provider provider-a",
            "load:tool tool-x",
            "load:hook hooks-y",
        ]
    );
    // initialize is idempotent.
    session.initialize().await.unwrap();
    assert_eq!(loader.log.entries().len(), 5);
}

#[tokio::test]
async fn session_start_emitted_once_across_executes() {
    let loader = TestLoader::new();
    let (session, recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    assert_eq!(session.execute("one").await.unwrap(), "done: one");
    assert_eq!(session.execute("two").await.unwrap(), "done: two");
    assert_eq!(session.execute("three").await.unwrap(), "done: three");
    assert_eq!(count(&recorder, "session:start"), 1);
    assert_eq!(count(&recorder, "session:resume"), 0);
    assert_eq!(count(&recorder, "prompt:submit"), 3);
    let names = recorder.names();
    let start = names.iter().position(|n| n == "session:start").unwrap();
    let first_prompt = names.iter().position(|n| n == "prompt:submit").unwrap();
    assert!(start < first_prompt, "session:start comes before the first prompt");
}

#[tokio::test]
async fn the_plans_metadata_is_echoed_and_raw_emits_the_plan_with_secrets_masked() {
    let loader = TestLoader::new();
    let mut plan = plan_with_providers(&["provider-a"]);
    plan.session.metadata = map(json!({"bundle": "foundation"}));
    plan.providers[0].config = map(json!({"api_key": "sk-secret", "max_tokens": 10, "headers": {"x-token": "t"}}));
    let (session, recorder) = new_session(plan.clone(), &loader, SessionOptions::default());
    session.execute("one").await.unwrap();
    assert_eq!(recorder.named("session:start")[0]["metadata"], json!({"bundle": "foundation"}));
    assert!(recorder.named("session:config").is_empty(), "only with session.raw");

    plan.session.raw = true;
    let (session, recorder) = new_session(plan, &loader, SessionOptions::default());
    session.execute("one").await.unwrap();
    let config = &recorder.named("session:config")[0]["config"];
    assert_eq!(
        config["providers"][0]["config"],
        json!({"api_key": "[REDACTED]", "max_tokens": 10, "headers": "[REDACTED]"})
    );
    assert_eq!(config["session"]["metadata"], json!({"bundle": "foundation"}));
    assert!(!config.to_string().contains("sk-secret"));
}

#[tokio::test]
async fn resumed_session_emits_resume_not_start() {
    let loader = TestLoader::new();
    let options =
        SessionOptions { is_resumed: true, session_id: Some("old-session".into()), ..SessionOptions::default() };
    let (session, recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, options);
    assert_eq!(session.session_id(), "old-session");
    session.execute("one").await.unwrap();
    session.execute("two").await.unwrap();
    assert_eq!(count(&recorder, "session:resume"), 1);
    assert_eq!(count(&recorder, "session:start"), 0);
}

#[tokio::test]
async fn session_end_emitted_before_cleanups() {
    let loader = TestLoader::new();
    let mut plan = plan_with_providers(&["provider-a"]);
    plan.tools = vec![spec("tool-x", "tools[0]")];
    let (session, recorder) = new_session(plan, &loader, SessionOptions::default());
    session.execute("hi").await.unwrap();
    session.cleanup().await;

    let entries = loader.log.entries();
    let tail: Vec<&str> = entries.iter().map(String::as_str).skip_while(|e| *e != "event:session:end").collect();
    assert_eq!(
        tail,
        ["event:session:end", "cleanup:tool-x", "cleanup:provider-a", "cleanup:context-simple", "cleanup:loop-basic",],
        "session:end first, then cleanups in reverse mount order"
    );
    let end = &recorder.named("session:end")[0];
    assert_eq!(end.get("status"), Some(&json!("completed")));
}

#[tokio::test]
async fn session_end_not_emitted_when_not_initialized() {
    let loader = TestLoader::new();
    let (session, recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    session.cleanup().await;
    assert_eq!(count(&recorder, "session:end"), 0);
    assert!(recorder.events().is_empty());
}

#[tokio::test]
async fn child_session_emits_fork() {
    let loader = TestLoader::new();
    let options = SessionOptions {
        session_id: Some("child-1".into()),
        parent_id: Some("parent-1".into()),
        metadata: Some(map(json!({"agent": "explorer"}))),
        ..SessionOptions::default()
    };
    let (session, recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, options);
    session.execute("hi").await.unwrap();
    let forks = recorder.named("session:fork");
    assert_eq!(forks.len(), 1);
    assert_eq!(forks[0].get("parent"), Some(&json!("parent-1")));
    assert_eq!(forks[0].get("session_id"), Some(&json!("child-1")));
    assert_eq!(forks[0].get("metadata"), Some(&json!({"agent": "explorer"})));
    assert_eq!(forks[0].get("parent_id"), Some(&json!("parent-1")));
}

#[tokio::test]
async fn root_session_does_not_emit_fork() {
    let loader = TestLoader::new();
    let (session, recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    session.execute("hi").await.unwrap();
    assert_eq!(count(&recorder, "session:fork"), 0);
}

#[tokio::test]
async fn hook_modules_see_session_events() {
    let loader = TestLoader::new();
    let module_recorder = Recorder::new();
    loader.hook_module("hooks-logging", "session:*", 0, "logging", module_recorder.handler());
    let mut plan = plan_with_providers(&["provider-a"]);
    plan.hooks = vec![spec("hooks-logging", "hooks[0]")];
    let options = SessionOptions { parent_id: Some("parent-1".into()), ..SessionOptions::default() };
    let session = Session::new(plan, loader.clone(), options);
    session.execute("hi").await.unwrap();
    session.cleanup().await;
    assert_eq!(module_recorder.names(), ["session:fork", "session:start", "session:end"]);
}

#[tokio::test]
async fn every_event_carries_session_id_and_parent_id() {
    for parent in [None, Some("parent-9")] {
        let loader = TestLoader::new();
        loader.fail("provider-broken", LoadReason::Unknown, "boom");
        let options = SessionOptions {
            session_id: Some("sess-42".into()),
            parent_id: parent.map(str::to_owned),
            ..SessionOptions::default()
        };
        let (session, recorder) =
            new_session(plan_with_providers(&["provider-a", "provider-broken"]), &loader, options);
        session.execute("hi").await.unwrap();
        session.cleanup().await;
        let events = recorder.events();
        assert!(events.len() >= 4, "{:?}", recorder.names());
        let expected_parent = parent.map_or(Value::Null, |p| json!(p));
        for (name, data) in events {
            assert_eq!(data.get("session_id"), Some(&json!("sess-42")), "{name}");
            assert_eq!(data.get("parent_id"), Some(&expected_parent), "{name}");
            assert!(data.contains_key("timestamp"), "{name}");
        }
    }
}

#[tokio::test]
async fn execute_without_providers_fails_with_no_provider() {
    let loader = TestLoader::new();
    let (session, recorder) = new_session(plan(), &loader, SessionOptions::default());
    let err = session.execute("hi").await.unwrap_err();
    assert!(matches!(err, SessionError::NoProvider), "{err:?}");
    assert_eq!(count(&recorder, "prompt:submit"), 0, "the orchestrator must not run");

    // All providers failing to load is the same situation.
    let loader = TestLoader::new();
    loader.fail("provider-a", LoadReason::MissingSource, "gone");
    let (session, _recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    assert!(matches!(session.execute("hi").await, Err(SessionError::NoProvider)));
}

#[tokio::test]
async fn duplicate_provider_mount_names_are_a_plan_error() {
    let loader = TestLoader::new();
    let (session, _recorder) =
        new_session(plan_with_providers(&["provider-openai", "provider-openai"]), &loader, SessionOptions::default());
    let err = session.initialize().await.unwrap_err();
    match &err {
        SessionError::Plan(message) => {
            assert!(message.contains("providers[1]"), "{message}");
            assert!(message.contains("provider-openai"), "{message}");
        }
        other => panic!("expected a plan error, got {other:?}"),
    }
    assert!(loader.log.entries().is_empty(), "nothing is loaded from an invalid plan: {:?}", loader.log.entries());

    // Distinct instance ids make the same module mountable twice; at most one may omit it.
    let loader = TestLoader::new();
    let mut plan = plan_with_providers(&["provider-openai", "provider-openai"]);
    plan.providers[1].instance_id = Some("openai-backup".into());
    let (session, _recorder) = new_session(plan, &loader, SessionOptions::default());
    session.initialize().await.unwrap();
    let names: Vec<String> = session.coordinator().providers().into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["provider-openai", "openai-backup"]);
}

#[tokio::test]
async fn duplicate_instance_ids_are_a_plan_error() {
    let loader = TestLoader::new();
    let mut plan = plan_with_providers(&["provider-openai", "provider-anthropic"]);
    plan.providers[0].instance_id = Some("main".into());
    plan.providers[1].instance_id = Some("main".into());
    let (session, _recorder) = new_session(plan, &loader, SessionOptions::default());
    assert!(matches!(session.initialize().await, Err(SessionError::Plan(_))));
}

#[tokio::test]
async fn provider_priority_comes_from_config() {
    let loader = TestLoader::new();
    let mut plan = plan_with_providers(&["provider-a", "provider-b", "provider-c"]);
    plan.providers[1].config.insert("priority".into(), json!(1));
    plan.providers[2].config.insert("priority".into(), json!(500));
    let (session, _recorder) = new_session(plan, &loader, SessionOptions::default());
    session.initialize().await.unwrap();
    let providers = session.coordinator().providers();
    let order: Vec<(&str, i64)> = providers.iter().map(|p| (p.name.as_str(), p.priority)).collect();
    assert_eq!(order, [("provider-b", 1), ("provider-a", 100), ("provider-c", 500)]);
}

#[tokio::test]
async fn status_follows_the_orchestrator() {
    let loader = TestLoader::new();
    let (session, recorder) = new_session(plan_with_providers(&["provider-a"]), &loader, SessionOptions::default());
    session.execute("ok").await.unwrap();
    assert_eq!(session.status(), RunStatus::Completed);
    let err = session.execute("fail").await.unwrap_err();
    assert!(matches!(err, SessionError::Module(_)), "{err:?}");
    assert_eq!(session.status(), RunStatus::Failed);
    session.cleanup().await;
    assert_eq!(recorder.named("session:end")[0].get("status"), Some(&json!("failed")));
}

/// Records the sessions it is told about, with their parents.
#[derive(Default)]
struct SeenSessions(std::sync::Mutex<Vec<(String, Option<String>)>>);

impl amplifier_kernel::session::SessionObserver for SeenSessions {
    fn session_created(&self, coordinator: &Arc<amplifier_kernel::Coordinator>) {
        let entry = (coordinator.session_id().to_owned(), coordinator.parent_id().map(str::to_owned));
        self.0.lock().unwrap().push(entry);
    }
}

#[tokio::test]
async fn observers_see_the_session_and_are_inherited_by_children() {
    let loader = TestLoader::new();
    let mut plan = plan_with_providers(&["provider-a"]);
    plan.agents.insert("helper".into(), json!({}));
    let seen = Arc::new(SeenSessions::default());
    let options =
        SessionOptions { session_id: Some("top".into()), observers: vec![seen.clone()], ..SessionOptions::default() };
    let session = Session::new(plan, loader.clone(), options);
    assert_eq!(*seen.0.lock().unwrap(), [("top".to_owned(), None)], "told before anything mounts");
    session.initialize().await.unwrap();
    let request =
        amplifier_kernel::ops::SpawnRequest { agent: "helper".into(), instruction: "hi".into(), ..Default::default() };
    let child = session.coordinator().spawn(request).await.unwrap();
    let seen = seen.0.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[1], (child.session_id, Some("top".to_owned())));
    session.cleanup().await;
}
