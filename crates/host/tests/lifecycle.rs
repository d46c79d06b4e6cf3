//! The session lifecycle without the binary: the standard modules built in,
//! a real store in a temporary directory, a real `amplifier.lock`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use amplifier_host::{Conversation, Host, HostError, HostOptions, Notice, Notices, StoreConfig};
use amplifier_kernel::models::{Message, RunStatus};
use amplifier_store::{ListFilter, Store};

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new(extra: &str) -> Fixture {
        amplifier_loader::builtin::register(amplifier_builtins::MODULES);
        let dir = tempfile::tempdir().unwrap();
        let fixture = Fixture { dir };
        fixture.write_plan(extra);
        fixture
    }

    /// A plan of built-in modules whose provider answers in turn "one",
    /// "two", "three", logging each request it gets.
    fn write_plan(&self, extra: &str) {
        let log = self.requests_log();
        let plan = format!(
            "session: {{orchestrator: loop-basic, context: context-simple}}\n\
             providers:\n  - module: provider-scripted\n    config: {{requests_log: \"{}\", script: [{{text: one}}, {{text: two}}, {{text: three}}]}}\n{extra}",
            log.display()
        );
        std::fs::write(self.plan(), plan).unwrap();
    }

    /// A plan whose provider asks for `calls` calls of tool-echo, one after
    /// another, then answers "done"; with `log`, it logs each request it
    /// gets (the whole history each time, so not for a long loop).
    fn write_tool_loop(&self, calls: usize, log: bool) {
        let log = match log {
            true => format!("      requests_log: \"{}\"\n", self.requests_log().display()),
            false => String::new(),
        };
        let plan = format!(
            "session: {{orchestrator: loop-basic, context: context-simple}}\n\
             providers:\n  - module: provider-scripted\n    config:\n{log}      script:\n        \
             - {{tool_calls: [{{name: echo, arguments: {{text: x}}}}], repeat: {calls}}}\n        - {{text: done}}\n\
             tools: [{{module: tool-echo}}]\n"
        );
        std::fs::write(self.plan(), plan).unwrap();
    }

    fn requests_log(&self) -> PathBuf {
        self.dir.path().join("requests.jsonl")
    }

    fn plan(&self) -> PathBuf {
        self.dir.path().join("plan.yaml")
    }

    fn options(&self) -> HostOptions {
        let store = StoreConfig { dir: self.dir.path().join("state"), ..StoreConfig::default() };
        HostOptions { store, ..HostOptions::default() }
    }

    fn store(&self) -> Store {
        Store::open(&self.dir.path().join("state")).unwrap()
    }

    /// How many messages each request the provider got held.
    fn request_sizes(&self) -> Vec<usize> {
        let log = std::fs::read_to_string(self.requests_log()).unwrap_or_default();
        log.lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["messages"].as_array().unwrap().len())
            .collect()
    }
}

fn lock_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("amplifier.lock")).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn turns_are_recorded_and_a_resumed_session_continues_the_history() {
    let fixture = Fixture::new("");
    let host = Host::open(&fixture.plan(), fixture.options()).unwrap();
    let mut hosted = host.session().record(Some("first".into())).open().unwrap();
    let report = hosted.start().await.unwrap();
    assert!(report.failures.is_empty());
    assert_eq!(hosted.turn("hello").await.unwrap(), "one");
    assert_eq!(hosted.turn("again").await.unwrap(), "two");
    let id = hosted.session_id().to_owned();
    hosted.finish(true).await;

    let store = fixture.store();
    let sessions = store.list(&ListFilter::default()).unwrap();
    assert_eq!(sessions.len(), 1);
    let stored = &sessions[0];
    assert_eq!((stored.id.as_str(), stored.name.as_deref()), (id.as_str(), Some("first")));
    assert_eq!((stored.turn_count, stored.message_count, stored.status), (2, 4, RunStatus::Completed));
    assert!(lock_of(fixture.dir.path()).contains("provider-scripted"), "the lock records what loaded");

    // Resumed: the same id, the stored history before the new prompt.
    let lock = store.lock_session(&id).unwrap();
    let mut resumed = host.session().resume(store, stored.clone(), lock).open().unwrap();
    assert_eq!(resumed.session_id(), id);
    resumed.start().await.unwrap();
    // A new process's provider: its script starts over.
    assert_eq!(resumed.turn("and again").await.unwrap(), "one");
    resumed.finish(true).await;
    assert_eq!(fixture.request_sizes(), [1, 3, 5], "each request holds the whole conversation");
    let stored = fixture.store().resolve(&id).unwrap();
    assert_eq!((stored.turn_count, stored.message_count), (3, 6));
}

#[tokio::test(flavor = "multi_thread")]
async fn locked_refuses_a_plan_that_differs_from_its_lock_before_any_prompt() {
    let fixture = Fixture::new("hooks: [{module: hooks-redaction}]\n");
    let host = Host::open(&fixture.plan(), fixture.options()).unwrap();
    let mut hosted = host.session().open().unwrap();
    hosted.start().await.unwrap();
    hosted.finish(true).await;
    let written = lock_of(fixture.dir.path());
    assert!(written.contains("hooks-redaction"), "{written}");

    fixture.write_plan("");
    let locked = HostOptions { locked: true, ..fixture.options() };
    let host = Host::open(&fixture.plan(), locked).unwrap();
    let mut hosted = host.session().open().unwrap();
    match hosted.start().await {
        Err(HostError::LockDiffers { problems, .. }) => {
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(problems[0].contains("hook 'hooks-redaction' is in amplifier.lock"), "{problems:?}");
        }
        other => panic!("expected LockDiffers, got {:?}", other.map(|r| r.failures)),
    }
    hosted.finish(false).await;
    assert_eq!(lock_of(fixture.dir.path()), written, "--locked never writes the lock");
    assert!(fixture.request_sizes().is_empty(), "no prompt ran");

    // With no lock at all, --locked is a usage error naming the fix.
    std::fs::remove_file(fixture.dir.path().join("amplifier.lock")).unwrap();
    let locked = HostOptions { locked: true, ..fixture.options() };
    let err = Host::open(&fixture.plan(), locked).err().expect("no lock: refused");
    assert!(err.is_usage() && matches!(err, HostError::NoLockfile { .. }), "{err}");
    assert!(err.hints()[0].contains("amplifier update --plan"), "{:?}", err.hints());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_module_that_does_not_load_stops_the_session_unless_partial_loads_are_allowed() {
    let fixture = Fixture::new("tools: [{module: tool-nowhere}]\n");
    let host = Host::open(&fixture.plan(), fixture.options()).unwrap();
    let mut hosted = host.session().record(None).open().unwrap();
    let err = hosted.start().await.expect_err("tool-nowhere does not exist");
    let HostError::LoadFailed(report) = &err else { panic!("expected LoadFailed, got {err}") };
    assert_eq!(report.failures[0].module, "tool-nowhere");
    assert!(err.to_string().starts_with("1 module(s) failed to load:\n  - tool tool-nowhere (tools[0])"), "{err}");
    assert!(err.hints()[0].contains("--allow-partial"), "{:?}", err.hints());
    let id = hosted.session_id().to_owned();
    hosted.finish(false).await;
    assert_eq!(fixture.store().resolve(&id).unwrap().status, RunStatus::Failed, "the failed session is kept");
    assert!(!lock_of(fixture.dir.path()).contains("tool-nowhere"), "a failed load writes no lock");

    let partial = HostOptions { allow_partial: true, ..fixture.options() };
    let host = Host::open(&fixture.plan(), partial).unwrap();
    let mut hosted = host.session().open().unwrap();
    assert_eq!(hosted.start().await.unwrap().failures.len(), 1);
    assert_eq!(hosted.turn("hi").await.unwrap(), "one");
    hosted.finish(true).await;
}

#[test]
fn a_malformed_plan_is_a_usage_error_with_its_line() {
    let fixture = Fixture::new("");
    std::fs::write(fixture.plan(), "session:\n  orchestrator: loop-basic\n  context: [\n").unwrap();
    let err = Host::open(&fixture.plan(), fixture.options()).err().expect("malformed");
    assert!(err.is_usage(), "{err}");
    assert!(err.to_string().contains("plan.yaml:"), "names the file and line: {err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sessions_run_states_are_what_the_host_reads_back() {
    let fixture = Fixture::new("");
    let host = Host::open(&fixture.plan(), fixture.options()).unwrap();
    let hosted = host.session().open().unwrap();
    let runs = hosted.coordinator().run_states().expect("every hosted session keeps run states");
    assert_eq!(runs.load("t-1").await.unwrap(), None);
    runs.save("t-1", serde_json::json!({"status": "running"})).await.unwrap();
    runs.save("t-1", serde_json::json!({"status": "completed"})).await.unwrap();
    assert_eq!(runs.load("t-1").await.unwrap(), Some(serde_json::json!({"status": "completed"})));
    // What `serve` answers: another connection to the same store.
    let other = host.store().open().unwrap();
    assert_eq!(amplifier_host::runs::load(&other, "t-1").unwrap(), Some(serde_json::json!({"status": "completed"})));
    assert_eq!(amplifier_host::runs::load(&other, "t-2").unwrap(), None);
    hosted.finish(true).await;
}

/// Notices that collect the warnings the host gives the user.
fn warnings() -> (Arc<Mutex<Vec<String>>>, Notices) {
    let said = Arc::new(Mutex::new(Vec::new()));
    let notices: Notices = Arc::new({
        let said = said.clone();
        move |notice| {
            if let Notice::Warning(text) = notice {
                said.lock().unwrap().push(text);
            }
        }
    });
    (said, notices)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_services_store_opens_on_first_use_and_a_store_that_cannot_open_is_reported_once() {
    let fixture = Fixture::new("");
    // A store that cannot be opened: its directory would sit under a file.
    let blocker = fixture.dir.path().join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    let (said, notices) = warnings();
    let store = StoreConfig { dir: blocker.join("state"), ..StoreConfig::default() };
    let host = Host::open(&fixture.plan(), HostOptions { store, notices, ..HostOptions::default() }).unwrap();
    let conversation = Conversation { user: Some("u".into()), id: Some("thread-1".into()) };
    let mut hosted = host.session().conversation(conversation).open().unwrap();
    hosted.start().await.unwrap();
    assert_eq!(hosted.turn("hello").await.unwrap(), "one");
    assert!(said.lock().unwrap().is_empty(), "nothing asked for history, so nothing opened the store: {said:?}");
    let history = hosted.coordinator().chat_history().unwrap();
    assert_eq!(history.fetch("support", None).await.unwrap(), [], "no store: the agent starts afresh");
    history.save("support", vec![Message::user("hi")], None).await.unwrap();
    let said = said.lock().unwrap().clone();
    assert_eq!(said.len(), 1, "reported once: {said:?}");
    assert!(said[0].starts_with("agents will have no history: "), "{said:?}");
    hosted.finish(true).await;
}

/// The recorder saves a busy turn as it goes, beside the agent loop: while
/// another connection holds the store's write lock (a save waits up to
/// SQLite's busy timeout), the loop goes on making provider calls. Before,
/// a waiting save held the state every event passes through, and the turn
/// stopped at its first mid-turn save.
#[tokio::test(flavor = "multi_thread")]
async fn a_turn_runs_on_while_a_save_waits_for_the_store() {
    const CALLS: usize = 200;
    let fixture = Fixture::new("");
    fixture.write_tool_loop(CALLS, true);
    let log = fixture.requests_log();
    let host = Host::open(&fixture.plan(), fixture.options()).unwrap();
    let mut hosted = host.session().record(None).open().unwrap();
    hosted.start().await.unwrap();
    let id = hosted.session_id().to_owned();

    let blocker = rusqlite::Connection::open(fixture.dir.path().join("state/sessions.db")).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    let turn = tokio::spawn(async move {
        let reply = hosted.turn("go").await;
        hosted.finish(true).await;
        reply
    });
    let requests = || std::fs::read_to_string(&log).map(|text| text.lines().count()).unwrap_or(0);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while requests() <= CALLS && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let made = requests();
    blocker.execute_batch("COMMIT").unwrap();
    assert_eq!(made, CALLS + 1, "every provider call was made while the store was locked");
    assert_eq!(turn.await.unwrap().unwrap(), "done");

    let stored = fixture.store().resolve(&id).unwrap();
    assert_eq!(stored.message_count as usize, 2 + 2 * CALLS, "the prompt, each call and its result, the reply");
    let requests_stored = fixture.store().events(&id).unwrap().iter().filter(|e| e.name == "provider:request").count();
    assert_eq!(requests_stored, CALLS + 1);
}

/// A save that fails keeps what it was to write: the events go back in
/// front of those that came meanwhile, and the next save that succeeds
/// writes them all, in order, with the whole history. Here every save of
/// the turn fails (a trigger refuses events), the user is told once, and
/// the session's final save, after the trigger is gone, stores it all.
#[tokio::test(flavor = "multi_thread")]
async fn events_of_failed_saves_are_kept_and_written_in_order_by_the_next() {
    const CALLS: usize = 600;
    let fixture = Fixture::new("");
    fixture.write_tool_loop(CALLS, false);
    let (said, notices) = warnings();
    let host = Host::open(&fixture.plan(), HostOptions { notices, ..fixture.options() }).unwrap();
    let mut hosted = host.session().record(None).open().unwrap();
    hosted.start().await.unwrap();
    let id = hosted.session_id().to_owned();

    let db = rusqlite::Connection::open(fixture.dir.path().join("state/sessions.db")).unwrap();
    db.execute_batch("CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'refused'); END")
        .unwrap();
    assert_eq!(hosted.turn("go").await.unwrap(), "done");
    assert_eq!(fixture.store().events(&id).unwrap().len(), 0, "every save of the turn failed");
    db.execute_batch("DROP TRIGGER refuse").unwrap();
    hosted.finish(true).await;

    let said = said.lock().unwrap().clone();
    assert_eq!(said.len(), 1, "told once: {said:?}");
    assert!(said[0].contains("refused"), "{said:?}");
    let events = fixture.store().events(&id).unwrap();
    let iterations: Vec<u64> = events
        .iter()
        .filter(|e| e.name == "provider:request")
        .map(|e| e.data["iteration"].as_u64().expect("a provider:request's iteration"))
        .collect();
    let expected: Vec<u64> = (1..=CALLS as u64 + 1).collect();
    assert_eq!(iterations, expected, "each provider request kept, in the order they happened");
    assert_eq!(fixture.store().resolve(&id).unwrap().message_count as usize, 2 + 2 * CALLS);
}

/// A long turn's WAL is folded into the database between the background
/// saves, not all at once when the process exits: after the turn, the WAL
/// file (started over after each fold) is well under half of what the turn
/// wrote.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_turns_wal_is_folded_as_it_goes() {
    const CALLS: usize = 1000;
    let fixture = Fixture::new("");
    fixture.write_tool_loop(CALLS, false);
    let host = Host::open(&fixture.plan(), fixture.options()).unwrap();
    let mut hosted = host.session().record(None).open().unwrap();
    hosted.start().await.unwrap();
    assert_eq!(hosted.turn("go").await.unwrap(), "done");
    let state = fixture.dir.path().join("state");
    let wal = std::fs::metadata(state.join("sessions.db-wal")).map(|m| m.len()).unwrap_or(0);
    hosted.finish(true).await;
    let written = std::fs::metadata(state.join("sessions.db")).unwrap().len();
    assert!(wal < written / 2, "the WAL holds {wal} bytes after a turn that wrote {written}");
}
