//! The session store against a real SQLite file in a temporary directory
//! and a real PostgreSQL server (one per test process, a fresh database per
//! test: `amplifier-test-postgres`). The tests in `on_both_backends!` run
//! once against each.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use amplifier_protocol::models::{Message, Role, RunStatus, Usage};
use amplifier_store::{
    request_digest, thread_lock_name, AgentScope, ListFilter, Location, NewEvent, NewMessage, NewSession, Retention,
    Store, StoreError, StoredFrame, StreamAppend, StreamInfo, StreamOpen, StreamSession, TurnWrite,
    CANCELLED_TOOL_RESULT,
};
use serde_json::json;

/// Where a test's store lives, with the state directory beside it.
struct Backing {
    location: Location,
    dir: tempfile::TempDir,
}

impl Backing {
    fn sqlite() -> Backing {
        let dir = tempfile::tempdir().unwrap();
        Backing { location: Location::Sqlite(dir.path().to_owned()), dir }
    }

    fn postgres() -> Backing {
        Backing { location: Location::Postgres(amplifier_test_postgres::database()), dir: tempfile::tempdir().unwrap() }
    }

    /// A new connection to the test's store.
    fn open(&self) -> Store {
        Store::connect(&self.location, self.dir.path()).unwrap()
    }

    /// Runs SQL behind the store's back, as another client would.
    fn raw(&self, sqlite: &str, postgres: &str) {
        match &self.location {
            Location::Sqlite(dir) => {
                rusqlite::Connection::open(dir.join("sessions.db")).unwrap().execute_batch(sqlite).unwrap()
            }
            Location::Postgres(url) => {
                postgres::Client::connect(url, postgres::NoTls).unwrap().batch_execute(postgres).unwrap()
            }
        }
    }
}

/// Each `fn name(backing) { … }` becomes `name::sqlite` and `name::postgres`.
macro_rules! on_both_backends {
    ($($(#[doc = $doc:literal])* fn $name:ident($backing:ident) $body:block)*) => {$(
        $(#[doc = $doc])*
        mod $name {
            use super::*;
            fn run($backing: Backing) $body
            #[test]
            fn sqlite() {
                run(Backing::sqlite())
            }
            #[test]
            fn postgres() {
                run(Backing::postgres())
            }
        }
    )*};
}

fn new_session(id: &str, dir: &str) -> NewSession {
    NewSession {
        id: id.to_owned(),
        working_dir: dir.to_owned(),
        plan_path: Some("/plans/p.yaml".to_owned()),
        plan_hash: Some("abc123".to_owned()),
        ..NewSession::default()
    }
}

// `NewEvent` and `NewMessage` borrow what they store. The tests' rows are
// leaked, a few KB for the life of a test process, so that each stays one
// expression where it is written.
fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn event(name: &str, data: serde_json::Value) -> NewEvent<'static> {
    NewEvent { name: leak(name.to_owned()), timestamp: "2025-01-01T00:00:00Z", data: leak(data.to_string()) }
}

fn messages(turn: u32, texts: &[&str]) -> Vec<NewMessage<'static>> {
    texts.iter().map(|t| NewMessage { turn, message: leak(Message::user(*t)) }).collect()
}

fn write(store: &mut Store, id: &str, turn: u32, at: u64, msgs: &[NewMessage<'_>], events: &[NewEvent<'_>]) {
    store
        .write(&TurnWrite { session_id: id, turn, messages_at: at, messages: msgs, events, usage: None, status: None })
        .unwrap();
}

on_both_backends! {
fn a_turn_is_stored_with_its_messages_events_usage_and_status(backing) {
    let mut store = backing.open();
    let created = store.create_session(&new_session("s1", "/w")).unwrap();
    assert_eq!(created.status, RunStatus::Running);
    assert_eq!(store.begin_turn("s1").unwrap(), 1);
    // Every statement a write may run parses in this backend's dialect.
    store.set_retention(Retention { max_events: Some(1000), max_age_days: Some(30) });
    store.prepare_writes().unwrap();
    let usage = Usage {
        input_tokens: 10,
        output_tokens: 2,
        total_tokens: 12,
        cost_usd: Some("0.5".into()),
        ..Usage::default()
    };
    let (question, answer) = (Message::user("What is   the\nanswer?"), Message::new(Role::Assistant, "42"));
    let msgs = [NewMessage { turn: 1, message: &question }, NewMessage { turn: 1, message: &answer }];
    let events = [event("prompt:submit", json!({"prompt": "x"})), event("provider:response", json!({"usage": {}}))];
    for _ in 0..2 {
        let at = store.session("s1").unwrap().unwrap().message_count;
        store
            .write(&TurnWrite {
                session_id: "s1",
                turn: 1,
                messages_at: at,
                messages: &msgs,
                events: &events,
                usage: Some(&usage),
                status: Some(RunStatus::Completed),
            })
            .unwrap();
    }
    let record = store.session("s1").unwrap().unwrap();
    assert_eq!(record.status, RunStatus::Completed);
    assert_eq!((record.message_count, record.event_count, record.turn_count), (4, 4, 1));
    assert_eq!((record.usage.input_tokens, record.usage.total_tokens), (20, 24));
    assert_eq!(record.usage.cost_usd.as_deref(), Some("1.000000"));
    assert_eq!(record.title.as_deref(), Some("What is the answer?"));
    let stored = store.messages("s1").unwrap();
    assert_eq!(stored.iter().map(|m| m.seq).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(stored[1].message.content.text(), "42");
    let stored_events = store.events("s1").unwrap();
    assert_eq!(stored_events[0].name, "prompt:submit");
    assert_eq!(stored_events[0].data["prompt"], "x");
    assert_eq!(store.begin_turn("s1").unwrap(), 2);
    assert_eq!(store.session("s1").unwrap().unwrap().status, RunStatus::Running);
}

/// A failure in the middle of a write (here: the events insert aborts, after
/// the session row and the messages were written) leaves nothing behind.
fn a_write_is_all_or_nothing(backing) {
    let mut store = backing.open();
    store.create_session(&new_session("s1", "/w")).unwrap();
    store.begin_turn("s1").unwrap();
    write(&mut store, "s1", 1, 0, &messages(1, &["first"]), &[event("a", json!({}))]);
    let before = store.session("s1").unwrap().unwrap();

    backing.raw(
        "CREATE TRIGGER boom BEFORE INSERT ON events WHEN NEW.name = 'boom'
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
        "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
         CREATE TRIGGER boom BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.name = 'boom') EXECUTE FUNCTION boom();",
    );
    let usage = Usage { input_tokens: 5, output_tokens: 5, total_tokens: 10, ..Usage::default() };
    let msgs = messages(2, &["second", "third"]);
    let events = [event("ok", json!({})), event("boom", json!({}))];
    let attempt = TurnWrite {
        session_id: "s1",
        turn: 2,
        messages_at: 1,
        messages: &msgs,
        events: &events,
        usage: Some(&usage),
        status: Some(RunStatus::Failed),
    };
    let err = store.write(&attempt).unwrap_err();
    assert!(err.to_string().contains("injected failure"), "{err}");

    let after = store.session("s1").unwrap().unwrap();
    assert_eq!(after.message_count, 1, "no message of the failed write is stored");
    assert_eq!(after.event_count, 1, "no event of the failed write is stored");
    assert_eq!(after.usage, before.usage, "the totals are unchanged");
    assert_eq!(after.status, RunStatus::Running, "the status is unchanged");
    assert_eq!(store.messages("s1").unwrap()[0].message.content.text(), "first");

    backing.raw("DROP TRIGGER boom", "DROP TRIGGER boom ON events");
    store.write(&attempt).unwrap();
    let done = store.session("s1").unwrap().unwrap();
    assert_eq!((done.message_count, done.event_count, done.usage.total_tokens), (3, 3, 10));
    assert_eq!(done.status, RunStatus::Failed);
}

fn messages_can_be_replaced_from_an_index_but_never_leave_a_gap(backing) {
    let mut store = backing.open();
    store.create_session(&new_session("s1", "/w")).unwrap();
    write(&mut store, "s1", 1, 0, &messages(1, &["a", "b", "c"]), &[]);
    write(&mut store, "s1", 2, 1, &messages(2, &["B", "C", "D"]), &[]);
    let texts: Vec<String> = store.messages("s1").unwrap().iter().map(|m| m.message.content.text()).collect();
    assert_eq!(texts, ["a", "B", "C", "D"]);
    let turns: Vec<u32> = store.messages("s1").unwrap().iter().map(|m| m.turn).collect();
    assert_eq!(turns, [1, 2, 2, 2]);
    let gap = TurnWrite {
        session_id: "s1",
        turn: 2,
        messages_at: 9,
        messages: &messages(2, &["x"]),
        events: &[],
        usage: None,
        status: None,
    };
    assert!(store.write(&gap).is_err());
    assert_eq!(store.messages("s1").unwrap().len(), 4);
}

/// Rows go 32 to a statement and the rest one by one: counts with whole
/// statements and remainders keep each row, in order, with its own values.
fn a_write_of_many_rows_stores_each_in_order(backing) {
    let mut store = backing.open();
    store.create_session(&new_session("s1", "/w")).unwrap();
    let texts: Vec<String> = (0..77).map(|i| format!("m{i}")).collect();
    let names: Vec<String> = (0..100).map(|i| format!("e{i}")).collect();
    let events: Vec<NewEvent> = names.iter().map(|name| event(name, json!({"n": name}))).collect();
    write(&mut store, "s1", 1, 0, &messages(1, &texts.iter().map(String::as_str).collect::<Vec<_>>()), &events);
    // Replaces from 70 on, and appends past the first write's end.
    let more: Vec<String> = (70..103).map(|i| format!("n{i}")).collect();
    write(&mut store, "s1", 2, 70, &messages(2, &more.iter().map(String::as_str).collect::<Vec<_>>()), &events[..1]);

    let stored = store.messages("s1").unwrap();
    assert_eq!(stored.iter().map(|m| m.seq).collect::<Vec<_>>(), (0..103).collect::<Vec<u64>>());
    let expected: Vec<(u32, String)> =
        (0..70).map(|i| (1, format!("m{i}"))).chain((70..103).map(|i| (2, format!("n{i}")))).collect();
    assert_eq!(stored.iter().map(|m| (m.turn, m.message.content.text())).collect::<Vec<_>>(), expected);
    let stored_events = store.events("s1").unwrap();
    assert_eq!(stored_events.len(), 101);
    for (stored, name) in stored_events.iter().zip(names.iter().chain(&names[..1])) {
        assert_eq!((&stored.name, stored.data["n"].as_str()), (name, Some(name.as_str())));
    }
    assert_eq!(stored_events.iter().map(|e| e.turn).filter(|&turn| turn == 2).count(), 1);
}

fn retention_keeps_the_newest_events_and_counts_the_dropped(backing) {
    let mut store = backing.open();
    store.set_retention(Retention { max_events: Some(5), max_age_days: None });
    store.create_session(&new_session("s1", "/w")).unwrap();
    store.create_session(&new_session("s2", "/w")).unwrap();
    let events: Vec<NewEvent> = (0..8).map(|i| event(&format!("e{i}"), json!({"i": i}))).collect();
    write(&mut store, "s1", 1, 0, &[], &events);
    write(&mut store, "s2", 1, 0, &[], &events[..3]);
    let names: Vec<String> = store.events("s1").unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["e3", "e4", "e5", "e6", "e7"]);
    assert_eq!(store.session("s1").unwrap().unwrap().events_dropped, 3);
    assert_eq!(store.events("s2").unwrap().len(), 3, "the cap is per session");

    // Age: events stored 10 days ago go when the limit is 7 days.
    store.set_retention(Retention { max_events: None, max_age_days: Some(7) });
    let older = "UPDATE events SET stored_ms = stored_ms - 10 * 86400000 WHERE session_id = 's2'";
    backing.raw(older, older);
    write(&mut store, "s2", 2, 0, &[], &[event("fresh", json!({}))]);
    let names: Vec<String> = store.events("s2").unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["fresh"]);
    assert_eq!(store.session("s2").unwrap().unwrap().events_dropped, 3);
}

fn ids_resolve_from_unique_prefixes(backing) {
    let mut store = backing.open();
    for id in ["abc-1", "abc-2", "abd", "ab"] {
        store.create_session(&new_session(id, "/w")).unwrap();
    }
    assert_eq!(store.resolve("abc-1").unwrap().id, "abc-1");
    assert_eq!(store.resolve("abd").unwrap().id, "abd");
    assert_eq!(store.resolve("ab").unwrap().id, "ab", "an exact id wins over longer ones");
    match store.resolve("abc") {
        Err(StoreError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates.len(), 2);
        }
        other => panic!("expected ambiguous, got {other:?}"),
    }
    assert!(matches!(store.resolve("zzz"), Err(StoreError::NotFound(_))));
    assert!(matches!(store.resolve(""), Err(StoreError::NotFound(_))));
}

fn sub_agent_sessions_are_listed_under_their_parent_and_deleted_with_it(backing) {
    let mut store = backing.open();
    store.create_session(&new_session("parent", "/a")).unwrap();
    std::thread::sleep(Duration::from_millis(5));
    let sub_agent = |id: &str| NewSession {
        parent_id: Some("parent".into()),
        agent: Some("helper".into()),
        ..new_session(id, "/a")
    };
    store.create_session(&sub_agent("parent-1_helper")).unwrap();
    store.create_session(&sub_agent("parent-2_helper")).unwrap();
    let fork = NewSession { parent_id: Some("parent".into()), ..new_session("fork", "/a") };
    store.create_session(&fork).unwrap();
    // Lists and `continue` are about the sessions people started; forks are theirs too.
    let listed: Vec<String> = store.list(&ListFilter::default()).unwrap().into_iter().map(|s| s.id).collect();
    assert_eq!(listed, ["fork", "parent"]);
    assert_eq!(store.latest_in("/a").unwrap().unwrap().id, "fork");
    // A prefix shared with its sub-agents' ids names the parent.
    assert_eq!(store.resolve("pa").unwrap().id, "parent");
    let children: Vec<String> = store.sub_agents("parent").unwrap().into_iter().map(|s| s.id).collect();
    assert_eq!(children, ["parent-1_helper", "parent-2_helper"]);
    assert!(store.delete("parent").unwrap());
    for gone in ["parent", "parent-1_helper", "parent-2_helper"] {
        assert!(store.session(gone).unwrap().is_none(), "{gone}");
    }
    assert!(store.session("fork").unwrap().is_some(), "a fork outlives its source");
}

fn list_filters_by_directory_newest_first(backing) {
    let mut store = backing.open();
    store.create_session(&new_session("old", "/a")).unwrap();
    std::thread::sleep(Duration::from_millis(5));
    store.create_session(&new_session("other", "/b")).unwrap();
    std::thread::sleep(Duration::from_millis(5));
    store.create_session(&new_session("new", "/a")).unwrap();
    let ids = |filter: ListFilter| store.list(&filter).unwrap().into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(ids(ListFilter { working_dir: Some("/a".into()), limit: None }), ["new", "old"]);
    assert_eq!(ids(ListFilter { working_dir: None, limit: None }), ["new", "other", "old"]);
    assert_eq!(ids(ListFilter { working_dir: None, limit: Some(1) }), ["new"]);
    assert_eq!(store.latest_in("/b").unwrap().unwrap().id, "other");
    assert!(store.latest_in("/c").unwrap().is_none());
}

fn fork_copies_the_first_turns_with_their_usage(backing) {
    let mut store = backing.open();
    store.create_session(&new_session("src", "/w")).unwrap();
    for turn in 1..=2u32 {
        store.begin_turn("src").unwrap();
        let at = store.session("src").unwrap().unwrap().message_count;
        let usage = Usage {
            input_tokens: 10 * turn as u64,
            output_tokens: 1,
            total_tokens: 10 * turn as u64 + 1,
            ..Usage::default()
        };
        let events = [event("provider:response", json!({"usage": usage}))];
        store
            .write(&TurnWrite {
                session_id: "src",
                turn,
                messages_at: at,
                messages: &messages(turn, &["q", "a"]),
                events: &events,
                usage: Some(&usage),
                status: Some(RunStatus::Completed),
            })
            .unwrap();
    }
    let fork = store.fork("src", Some(1), Some("try again")).unwrap();
    assert_ne!(fork.id, "src");
    assert_eq!(fork.parent_id.as_deref(), Some("src"));
    assert_eq!(fork.name.as_deref(), Some("try again"));
    assert_eq!((fork.turn_count, fork.message_count, fork.event_count), (1, 2, 1));
    assert_eq!((fork.usage.input_tokens, fork.usage.total_tokens), (10, 11));
    assert_eq!(fork.plan_path.as_deref(), Some("/plans/p.yaml"));

    let whole = store.fork("src", None, None).unwrap();
    assert_eq!((whole.turn_count, whole.message_count, whole.usage.input_tokens), (2, 4, 30));
    let err = store.fork("src", Some(3), None).unwrap_err();
    assert!(err.to_string().contains("has 2 turn(s)"), "{err}");
    assert_eq!(store.messages("src").unwrap().len(), 4, "the source is untouched");
}

fn delete_and_cleanup_skip_sessions_in_use(backing) {
    let mut store = backing.open();
    for id in ["a", "b", "c"] {
        store.create_session(&new_session(id, "/w")).unwrap();
        write(&mut store, id, 1, 0, &messages(1, &["x"]), &[event("e", json!({}))]);
    }
    assert!(store.delete("a").unwrap());
    assert!(store.session("a").unwrap().is_none());
    assert!(store.messages("a").unwrap().is_empty() && store.events("a").unwrap().is_empty());
    assert!(!store.delete("a").unwrap());

    let held = backing.open().lock_session("b").unwrap();
    assert!(matches!(store.delete("b"), Err(StoreError::Locked { .. })));
    let (deleted, skipped) = store.cleanup(Duration::ZERO).unwrap();
    assert_eq!((deleted, skipped), (vec!["c".to_owned()], vec!["b".to_owned()]));
    drop(held);
    let (deleted, _) = store.cleanup(Duration::from_secs(3600)).unwrap();
    assert!(deleted.is_empty(), "b was updated just now");
    assert!(store.session("b").unwrap().is_some());
}

fn unknown_keys_of_a_message_and_its_blocks_survive_the_store(backing) {
    let mut store = backing.open();
    store.create_session(&new_session("s1", "/w")).unwrap();
    assert_eq!(store.begin_turn("s1").unwrap(), 1);
    // Upstream's `extensions`: a vendor's cache marker and reasoning id.
    let message: Message = serde_json::from_value(json!({
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "…", "signature": "sig", "reasoning_id": "rs_9"},
            {"type": "text", "text": "done", "cache_control": {"type": "ephemeral"}},
        ],
        "provider_message_id": "msg_1",
    }))
    .unwrap();
    write(&mut store, "s1", 1, 0, &[NewMessage { turn: 1, message: &message }], &[]);
    drop(store);
    let stored = backing.open().messages("s1").unwrap();
    assert_eq!(stored[0].message, message);
    assert_eq!(stored[0].message.extensions["provider_message_id"], "msg_1");
}
}

#[test]
fn the_database_uses_wal_and_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    assert_eq!(store.journal_mode().unwrap().as_deref(), Some("wal"));
    store.create_session(&new_session("s1", "/w")).unwrap();
    drop(store);
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.journal_mode().unwrap().as_deref(), Some("wal"));
    assert!(store.session("s1").unwrap().is_some());
    assert!(dir.path().join("sessions.db").exists());
}

/// Each `amplifier run` opens the database in a new process, which reads
/// the whole WAL to rebuild its index; the WAL is folded in early enough that
/// this read stays short however many runs came before.
#[test]
fn the_wal_stays_short_across_many_runs() {
    let dir = tempfile::tempdir().unwrap();
    let text = "x".repeat(1500);
    for run in 0..60 {
        let mut store = Store::open(dir.path()).unwrap();
        let id = format!("s{run}");
        store.create_session(&new_session(&id, "/w")).unwrap();
        let events: Vec<NewEvent> = (0..20).map(|i| event("e", json!({"i": i, "text": text}))).collect();
        write(&mut store, &id, 1, 0, &messages(1, &["hi"]), &events);
    }
    // About 2 MB went through the WAL: at SQLite's default (1,000 pages) it
    // would all still be there.
    let wal = std::fs::metadata(dir.path().join("sessions.db-wal")).unwrap().len();
    assert!(wal < 200 * 4096, "the WAL holds {wal} bytes");
}

#[test]
fn a_newer_schema_is_refused_with_both_versions() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path()).unwrap());
    let raw = rusqlite::Connection::open(dir.path().join("sessions.db")).unwrap();
    raw.pragma_update(None, "user_version", 99).unwrap();
    drop(raw);
    let err = Store::open(dir.path()).err().unwrap();
    assert!(matches!(err, StoreError::NewerSchema { found: 99, .. }), "{err}");
    assert!(err.to_string().contains("schema 99"), "{err}");
}

#[test]
fn a_schema_2_database_gains_the_agent_column_and_keeps_its_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let raw = rusqlite::Connection::open(dir.path().join("sessions.db")).unwrap();
    raw.execute_batch(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_id TEXT, name TEXT, title TEXT, plan_path TEXT,
            plan_hash TEXT, working_dir TEXT NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
            status TEXT NOT NULL, turn_count INTEGER NOT NULL DEFAULT 0, input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0, total_tokens INTEGER NOT NULL DEFAULT 0, cost_usd TEXT,
            events_dropped INTEGER NOT NULL DEFAULT 0);
         INSERT INTO sessions (id, working_dir, created_ms, updated_ms, status) VALUES ('kept', '/a', 1, 1, 'completed');
         PRAGMA user_version = 2;",
    )
    .unwrap();
    drop(raw);
    let mut store = Store::open(dir.path()).unwrap();
    assert_eq!(store.session("kept").unwrap().unwrap().agent, None);
    let child = NewSession { parent_id: Some("kept".into()), agent: Some("helper".into()), ..new_session("c", "/a") };
    store.create_session(&child).unwrap();
    assert_eq!(store.session("c").unwrap().unwrap().agent.as_deref(), Some("helper"));
    drop(store);
    Store::open(dir.path()).expect("reopening a migrated database changes nothing");
}

on_both_backends! {
fn a_session_lock_is_exclusive_and_names_the_holder(backing) {
    let store = backing.open();
    let lock = store.lock_session("s1").unwrap();
    match &backing.location {
        Location::Sqlite(_) => assert!(lock.path().unwrap().ends_with("locks/s1.lock")),
        Location::Postgres(_) => assert_eq!(lock.path(), None),
    }
    let err = backing.open().lock_session("s1").unwrap_err();
    match &err {
        StoreError::Locked { session, pid } => {
            assert_eq!(session, "s1");
            assert_eq!(*pid, Some(std::process::id()));
        }
        other => panic!("expected Locked, got {other:?}"),
    }
    assert!(err.to_string().contains(&format!("pid {}", std::process::id())), "{err}");
    assert!(store.is_locked("s1"));
    assert!(!store.is_locked("s2"), "a lock is the session's own");
    drop(lock);
    assert!(!store.is_locked("s1"));
    let _again = store.lock_session("s1").unwrap();
    assert!(store.lock_session("../x").is_err());
}

/// `is_locked` (`session list` asks it of every running session) never
/// makes a process that locks the session at that moment fail: locked and
/// let go 200 times while another thread asks without pause.
fn asking_whether_a_session_is_locked_never_refuses_its_locker(backing) {
    let store = backing.open();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let asker = scope.spawn(|| {
            let store = backing.open();
            let (mut asked, mut seen_locked) = (0, 0);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                asked += 1;
                seen_locked += usize::from(store.is_locked("s1"));
            }
            (asked, seen_locked)
        });
        let refused: Vec<String> = (0..200)
            .filter_map(|_| match store.lock_session("s1") {
                Ok(_held) => {
                    // Held a moment, for the asker to see it.
                    std::thread::sleep(Duration::from_micros(200));
                    None
                }
                Err(err) => Some(err.to_string()),
            })
            .collect();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let (asked, seen_locked) = asker.join().unwrap();
        assert_eq!(refused, Vec::<String>::new(), "asked {asked} times");
        assert!(seen_locked > 0, "the asker saw the lock held ({asked} asks)");
    });
    assert!(!store.is_locked("s1"), "let go");
}

/// A process killed with its session locked leaves the session free.
fn a_killed_holders_lock_is_released(backing) {
    let location = match &backing.location {
        Location::Sqlite(dir) => dir.display().to_string(),
        Location::Postgres(url) => url.clone(),
    };
    let mut holder = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "lock_holder", "--nocapture", "--test-threads=1"])
        .env("STORE_TEST_LOCK", &location)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let store = backing.open();
    let started = Instant::now();
    while !store.is_locked("held") {
        assert!(started.elapsed() < Duration::from_secs(60), "the holder never locked");
        std::thread::sleep(Duration::from_millis(20));
    }
    match store.lock_session("held") {
        Err(StoreError::Locked { pid, .. }) => assert_eq!(pid, Some(holder.id())),
        other => panic!("expected Locked, got {other:?}"),
    }
    holder.kill().unwrap();
    holder.wait().unwrap();
    let started = Instant::now();
    while store.is_locked("held") {
        assert!(started.elapsed() < Duration::from_secs(10), "the lock outlived its holder");
        std::thread::sleep(Duration::from_millis(20));
    }
    store.lock_session("held").unwrap();
}

fn run_states_are_replaced_whole_and_read_by_another_connection(backing) {
    let store = backing.open();
    assert_eq!(store.run_state("t1").unwrap(), None);
    store.save_run_state("t1", r#"{"v":1}"#).unwrap();
    store.save_run_state("t1", r#"{"v":2}"#).unwrap();
    store.save_run_state("t2", r#"{"v":9}"#).unwrap();
    let other = backing.open();
    assert_eq!(other.run_state("t1").unwrap().as_deref(), Some(r#"{"v":2}"#));
    assert_eq!(other.run_state("t2").unwrap().as_deref(), Some(r#"{"v":9}"#));
}

fn agent_histories_append_trim_and_stay_in_their_scope(backing) {
    let mut store = backing.open();
    let scope = |agent| AgentScope { user_id: "u", conversation_id: "c", agent_id: agent };
    let pairs: Vec<Message> = (0..6)
        .map(|i| if i % 2 == 0 { Message::user(format!("q{i}")) } else { Message::new(Role::Assistant, format!("a{i}")) })
        .collect();
    store.save_agent_messages(scope("a"), &pairs, Some(4)).unwrap();
    let texts = |messages: Vec<Message>| messages.iter().map(|m| m.content.text()).collect::<Vec<_>>();
    assert_eq!(texts(store.agent_history(scope("a"), None).unwrap()), ["q2", "a3", "q4", "a5"]);
    store.save_agent_messages(scope("a"), &[Message::user("again")], None).unwrap();
    store.save_agent_messages(scope("a"), &[Message::user("again")], None).unwrap();
    assert_eq!(store.agent_history(scope("a"), None).unwrap().len(), 5, "a repeated user message is dropped");
    store.save_agent_messages(scope("b"), &pairs[..2], None).unwrap();
    let merged: Vec<String> = backing.open().conversation_messages("u", "c").unwrap().into_iter().map(|(a, _, _)| a).collect();
    assert_eq!(merged, ["a", "a", "a", "a", "a", "b", "b"]);
}
}

/// Run by `a_killed_holders_lock_is_released` as a child: locks `held` and waits to be killed.
#[test]
fn lock_holder() {
    let Ok(location) = std::env::var("STORE_TEST_LOCK") else { return };
    let state = tempfile::tempdir().unwrap();
    let store = Store::connect(&Location::parse(&location).unwrap(), state.path()).unwrap();
    // The parent's `is_locked` takes the lock for a moment to test it: try
    // again while it does.
    let started = Instant::now();
    let _lock = loop {
        match store.lock_session("held") {
            Err(StoreError::Locked { .. }) if started.elapsed() < Duration::from_secs(30) => {
                std::thread::sleep(Duration::from_millis(5));
            }
            locked => break locked.unwrap(),
        }
    };
    std::thread::sleep(Duration::from_secs(600));
}

fn write_many(store: &mut Store, session: &str, writes: usize, per_write: usize) {
    for i in 0..writes {
        let texts: Vec<String> = (0..per_write).map(|j| format!("{i}-{j}")).collect();
        let msgs = messages(1, &texts.iter().map(String::as_str).collect::<Vec<_>>());
        let events: Vec<NewEvent> = (0..per_write).map(|j| event("e", json!({"i": i, "j": j}))).collect();
        // Two writers of one session would race on message positions (the
        // CLI's session lock prevents that); the shared session gets events only.
        let at = store.session(session).unwrap().unwrap().message_count;
        store
            .write(&TurnWrite {
                session_id: session,
                turn: 1,
                messages_at: at,
                messages: &msgs,
                events: &events,
                usage: None,
                status: None,
            })
            .unwrap();
        store
            .write(&TurnWrite {
                session_id: "shared",
                turn: 1,
                messages_at: 0,
                messages: &[],
                events: &events[..1],
                usage: None,
                status: None,
            })
            .unwrap();
    }
}

fn setup_shared(backing: &Backing, own: &[&str]) {
    let mut store = backing.open();
    store.create_session(&new_session("shared", "/w")).unwrap();
    for id in own {
        store.create_session(&new_session(id, "/w")).unwrap();
    }
}

/// Run by the process tests below as a child: `STORE_TEST_CHILD` is the
/// store's location, a newline, the session and another newline, the writes.
#[test]
fn child_writer() {
    let Ok(spec) = std::env::var("STORE_TEST_CHILD") else { return };
    let [location, session, writes] = spec.splitn(3, '\n').collect::<Vec<_>>()[..] else { panic!("{spec}") };
    let location = Location::parse(location).unwrap();
    let state = tempfile::tempdir().unwrap();
    let mut store = Store::connect(&location, state.path()).unwrap();
    write_many(&mut store, session, writes.parse().unwrap(), 25);
}

fn child(backing: &Backing, session: &str, writes: usize) -> std::process::Child {
    let location = match &backing.location {
        Location::Sqlite(dir) => dir.display().to_string(),
        Location::Postgres(url) => url.clone(),
    };
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_writer", "--nocapture", "--test-threads=1"])
        .env("STORE_TEST_CHILD", format!("{location}\n{session}\n{writes}"))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

on_both_backends! {
fn concurrent_writers_in_two_threads_do_not_corrupt(backing) {
    setup_shared(&backing, &["t1", "t2"]);
    std::thread::scope(|scope| {
        for id in ["t1", "t2"] {
            let mut store = backing.open();
            scope.spawn(move || write_many(&mut store, id, 40, 5));
        }
    });
    let store = backing.open();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    for id in ["t1", "t2"] {
        assert_eq!(store.messages(id).unwrap().len(), 200);
        assert_eq!(store.events(id).unwrap().len(), 200);
    }
    assert_eq!(store.events("shared").unwrap().len(), 80);
}

fn concurrent_writers_in_two_processes_do_not_corrupt(backing) {
    setup_shared(&backing, &["p1", "p2"]);
    let children = [child(&backing, "p1", 30), child(&backing, "p2", 30)];
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let store = backing.open();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    for id in ["p1", "p2"] {
        assert_eq!(store.messages(id).unwrap().len(), 750);
        assert_eq!(store.events(id).unwrap().len(), 750);
    }
    assert_eq!(store.events("shared").unwrap().len(), 60);
}

/// `kill -9` while a process writes: every write is either whole or absent.
fn a_writer_killed_mid_write_leaves_only_whole_writes(backing) {
    setup_shared(&backing, &["k"]);
    let mut writer = child(&backing, "k", 100_000);
    let store = backing.open();
    let started = Instant::now();
    while store.session("k").unwrap().unwrap().message_count < 100 {
        assert!(started.elapsed() < Duration::from_secs(60), "the writer never wrote");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(150));
    writer.kill().unwrap();
    writer.wait().unwrap();
    let store = backing.open();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let record = store.session("k").unwrap().unwrap();
    assert!(record.message_count >= 100);
    assert_eq!(record.message_count % 25, 0, "a write's 25 messages land together: {}", record.message_count);
    assert_eq!(record.event_count, record.message_count, "a write's events land with its messages");
    let seqs: Vec<u64> = store.messages("k").unwrap().iter().map(|m| m.seq).collect();
    assert!(seqs.iter().enumerate().all(|(i, s)| *s == i as u64), "no gap in the history");
}
}

#[test]
fn the_cancelled_result_is_upstreams() {
    let value: serde_json::Value = serde_json::from_str(CANCELLED_TOOL_RESULT).unwrap();
    assert_eq!(value, json!({"error": "Tool execution was cancelled", "cancelled": true}));
}

#[test]
fn a_location_is_a_postgres_url_or_a_sqlite_directory() {
    let url = "postgres://amp:s3cret@db:5432/amplifier";
    assert_eq!(Location::parse(url).unwrap(), Location::Postgres(url.to_owned()));
    assert_eq!(Location::parse(url).unwrap().to_string(), "postgres://amp:***@db:5432/amplifier");
    assert_eq!(Location::parse("sqlite:/var/amp").unwrap(), Location::Sqlite("/var/amp".into()));
    assert_eq!(Location::parse("/var/amp/sessions.db").unwrap(), Location::Sqlite("/var/amp".into()));
    assert_eq!(Location::parse("/var/amp").unwrap().to_string(), "/var/amp/sessions.db");
    let err = Location::parse("mysql://u:pw@h/db").unwrap_err().to_string();
    assert!(err.contains("postgres://") && !err.contains("pw"), "{err}");
    assert!(Location::parse("sqlite:").is_err());
}

#[test]
fn postgres_workers_starting_together_migrate_once() {
    let backing = Backing::postgres();
    std::thread::scope(|scope| {
        let opens: Vec<_> = (0..4).map(|_| scope.spawn(|| backing.open())).collect();
        for open in opens {
            open.join().unwrap();
        }
    });
    let Location::Postgres(url) = &backing.location else { unreachable!() };
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let row =
        admin.query_one("SELECT count(*), count(DISTINCT version), max(version) FROM amplifier_schema", &[]).unwrap();
    let (recorded, distinct, newest): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
    assert_eq!(recorded, distinct, "each migration recorded once");
    assert_eq!(newest, amplifier_store::SCHEMA_VERSION);
}

/// A process checks the schema when it first connects to a database.
#[test]
fn postgres_refuses_a_database_a_newer_amplifier_wrote() {
    let backing = Backing::postgres();
    backing.raw(
        "",
        "CREATE TABLE amplifier_schema (version BIGINT NOT NULL, applied_ms BIGINT NOT NULL);
         INSERT INTO amplifier_schema (version, applied_ms) VALUES (99, 0);",
    );
    let err = Store::connect(&backing.location, backing.dir.path()).err().unwrap();
    assert!(matches!(err, StoreError::NewerSchema { found: 99, .. }), "{err}");
    assert!(err.to_string().contains("schema 99"), "{err}");
}

#[test]
fn a_wrong_postgres_password_is_an_error_that_never_shows_it() {
    let url = format!("postgres://nobody:hunter2@127.0.0.1:{}/x", amplifier_test_postgres::server().port());
    let err = Store::connect(&Location::Postgres(url), Path::new("/nonexistent")).err().unwrap().to_string();
    assert!(err.contains("cannot connect to postgres://nobody:***@127.0.0.1"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
}

/// `amplifier store migrate`: SQLite into PostgreSQL, whole sessions, and a
/// second run copies only what is missing.
#[test]
fn a_store_is_copied_into_another_whole_and_only_once() {
    let from = Backing::sqlite();
    let to = Backing::postgres();
    let mut source = from.open();
    source.create_session(&new_session("s1", "/w")).unwrap();
    source.begin_turn("s1").unwrap();
    let usage = Usage { input_tokens: 7, output_tokens: 3, total_tokens: 10, ..Usage::default() };
    source
        .write(&TurnWrite {
            session_id: "s1",
            turn: 1,
            messages_at: 0,
            messages: &messages(1, &["q", "a"]),
            events: &[event("prompt:submit", json!({"p": 1})), event("provider:response", json!({"usage": usage}))],
            usage: Some(&usage),
            status: Some(RunStatus::Completed),
        })
        .unwrap();
    let sub =
        NewSession { parent_id: Some("s1".into()), agent: Some("helper".into()), ..new_session("s1_helper", "/w") };
    source.create_session(&sub).unwrap();
    source.save_run_state("thread-1", r#"{"step":2}"#).unwrap();
    let scope = AgentScope { user_id: "u", conversation_id: "c", agent_id: "a" };
    source.save_agent_messages(scope, &[Message::user("hi"), Message::new(Role::Assistant, "yo")], None).unwrap();

    let target = to.open();
    let report = source.copy_into(&target).unwrap();
    assert_eq!((report.sessions, report.messages, report.events), (2, 2, 2));
    assert_eq!((report.agent_messages, report.run_states, report.sessions_skipped), (2, 1, 0));
    let copied = target.session("s1").unwrap().unwrap();
    let original = source.session("s1").unwrap().unwrap();
    assert_eq!(copied, original, "the session row comes across as it was");
    assert_eq!(target.messages("s1").unwrap(), source.messages("s1").unwrap());
    let names = |store: &Store| store.events("s1").unwrap().into_iter().map(|e| (e.name, e.data)).collect::<Vec<_>>();
    assert_eq!(names(&target), names(&source));
    assert_eq!(target.sub_agents("s1").unwrap().len(), 1);
    assert_eq!(target.run_state("thread-1").unwrap().as_deref(), Some(r#"{"step":2}"#));
    assert_eq!(target.agent_history(scope, None).unwrap().len(), 2);

    let again = source.copy_into(&target).unwrap();
    assert_eq!((again.sessions, again.sessions_skipped, again.agent_messages, again.run_states), (0, 2, 0, 0));
    assert_eq!(target.messages("s1").unwrap().len(), 2, "nothing is copied twice");
}

/// A worker holding many sessions holds them on one connection, and gives
/// each back when its lock is dropped.
#[test]
fn postgres_locks_of_one_process_share_one_connection() {
    let backing = Backing::postgres();
    let store = backing.open();
    let locks: Vec<_> = (0..50).map(|i| store.lock_session(&format!("s{i}")).unwrap()).collect();
    let Location::Postgres(url) = &backing.location else { unreachable!() };
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let connections: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
            &[&format!("amplifier-lock pid={}", std::process::id())],
        )
        .unwrap()
        .get(0);
    assert_eq!(connections, 1);
    assert!(store.is_locked("s7"));
    drop(locks);
    assert!(!store.is_locked("s7"), "a dropped lock is given back at once");
    let _again = backing.open().lock_session("s7").unwrap();
}

/// However many stores a process opens on one database, it keeps a pool
/// of at most 16 connections to it.
#[test]
fn postgres_stores_of_one_process_share_a_bounded_pool() {
    let backing = Backing::postgres();
    setup_shared(&backing, &[]);
    let mut stores: Vec<Store> = (0..40).map(|_| backing.open()).collect();
    std::thread::scope(|scope| {
        for (i, store) in stores.iter_mut().enumerate() {
            scope.spawn(move || {
                let id = format!("pooled-{i}");
                store.create_session(&new_session(&id, "/w")).unwrap();
                write(store, &id, 1, 0, &messages(1, &["q", "a"]), &[event("e", json!({}))]);
            });
        }
    });
    let Location::Postgres(url) = &backing.location else { unreachable!() };
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let open: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'amplifier'",
            &[],
        )
        .unwrap()
        .get(0);
    assert!((1..=16).contains(&open), "{open} connections for 40 stores");
    assert_eq!(backing.open().list(&ListFilter::default()).unwrap().len(), 41);
}

fn frames(ids: std::ops::RangeInclusive<u64>) -> Vec<StoredFrame> {
    ids.map(|id| StoredFrame { id, text: format!("id: {id}\n\n") }).collect()
}

fn open_stream(thread: &str, run: &str, request: &str) -> StreamOpen {
    StreamOpen { thread: thread.into(), run: run.into(), request: request.into(), prompt: format!("prompt of {run}") }
}

fn append(thread: &str, run: &str, ids: std::ops::RangeInclusive<u64>, close: bool) -> StreamAppend {
    StreamAppend { thread: thread.into(), run: run.into(), frames: frames(ids), close }
}

on_both_backends! {
fn a_threads_stream_is_read_back_in_order_and_found_by_its_request(backing) {
    let store = backing.open();
    let digest = request_digest(b"{\"message\": \"hi\"}");
    assert_eq!(digest.len(), 64);
    store.write_streams(&[open_stream("t1", "run_a", &digest)], &[], &[append("t1", "run_a", 1..=3, false)]).unwrap();
    // Another connection, as a reader on another worker.
    let reader = backing.open();
    let stream = reader.stream_of_request(&digest).unwrap().expect("found by its request");
    assert_eq!(stream, StreamInfo { thread: "t1".into(), run: "run_a".into(), closed: false, last_id: 3 });
    assert_eq!(reader.frames_after("t1", "run_a", 1, 10).unwrap(), frames(2..=3));
    assert_eq!(reader.frames_after("t1", "run_a", 0, 2).unwrap(), frames(1..=2), "at most the limit");
    store.write_streams(&[], &[], &[append("t1", "run_a", 4..=4, true)]).unwrap();
    // A batch tried again (its commit's answer lost) writes nothing twice.
    store.write_streams(&[], &[], &[append("t1", "run_a", 4..=4, true)]).unwrap();
    let stream = reader.stream("t1").unwrap().unwrap();
    assert!(stream.closed && stream.last_id == 4, "{stream:?}");
    assert_eq!(reader.stream("t2").unwrap(), None);
    assert_eq!(reader.stream_of_request(&request_digest(b"other")).unwrap(), None);
}

fn a_threads_next_run_replaces_its_stream_and_the_old_run_writes_no_more(backing) {
    let store = backing.open();
    store.write_streams(&[open_stream("t1", "run_a", "digest-a")], &[], &[append("t1", "run_a", 1..=2, false)]).unwrap();
    // In one transaction, as a worker's writer batches them: run_a's last
    // frames come after run_b started, and are not written.
    store.write_streams(&[open_stream("t1", "run_b", "digest-b")], &[], &[append("t1", "run_a", 3..=3, true)]).unwrap();
    assert_eq!(store.frames_after("t1", "run_a", 0, 10).unwrap(), [], "nothing of run_a is read as run_b's");
    let stream = store.stream("t1").unwrap().unwrap();
    assert_eq!((stream.run.as_str(), stream.closed, stream.last_id), ("run_b", false, 0));
    assert_eq!(store.stream_of_request("digest-a").unwrap(), None);
    store.write_streams(&[], &[], &[append("t1", "run_b", 1..=1, false), append("t2", "run_x", 1..=1, false)]).unwrap();
    assert_eq!(store.stream("t2").unwrap(), None, "frames of a stream never opened are not kept");
    assert_eq!(store.frames_after("t1", "run_b", 0, 10).unwrap(), frames(1..=1));
}

fn streams_that_ended_long_ago_are_pruned(backing) {
    let store = backing.open();
    store
        .write_streams(&[open_stream("old", "run_a", "digest-a"), open_stream("open", "run_b", "digest-b")], &[], &[append("old", "run_a", 1..=2, true)])
        .unwrap();
    // Two hours ago, behind the store's back.
    let sql = "UPDATE run_streams SET updated_ms = updated_ms - 7200000";
    backing.raw(sql, sql);
    store.write_streams(&[open_stream("new", "run_c", "digest-c")], &[], &[]).unwrap();
    store.prune_streams().unwrap();
    assert_eq!(store.stream("old").unwrap(), None, "ended long ago");
    assert!(store.stream("open").unwrap().is_some(), "a stream still open is kept however old");
    assert_eq!(store.frames_after("old", "run_a", 0, 10).unwrap(), []);
}
}

/// A reader in one process is woken when another process appends frames
/// to its thread (PostgreSQL's `LISTEN`/`NOTIFY`), not by polling.
#[test]
fn postgres_wakes_a_threads_readers_when_frames_are_appended() {
    let backing = Backing::postgres();
    let store = backing.open();
    store.write_streams(&[open_stream("t1", "run_a", "digest")], &[], &[]).unwrap();
    let mut woken = backing.location.frame_wakeups("t1").expect("PostgreSQL wakes readers");
    let mut other = backing.location.frame_wakeups("t2").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    runtime.block_on(async {
        // The listener's first wake-up says it listens; frames before it would be missed.
        tokio::time::timeout(Duration::from_secs(10), woken.changed()).await.unwrap().unwrap();
        // A listener that cannot connect, or loses its connection, wakes every
        // reader (they may have missed frames), and so wakes `other` too: a
        // thread's frames must leave it asleep in one of three tries.
        let mut asleep = false;
        for run in 1..=3 {
            woken.borrow_and_update();
            other.borrow_and_update();
            let writer = backing.open();
            std::thread::spawn(move || {
                writer.write_streams(&[], &[], &[append("t1", "run_a", run..=run, false)]).unwrap()
            })
            .join()
            .unwrap();
            tokio::time::timeout(Duration::from_secs(10), woken.changed()).await.expect("woken within 10 s").unwrap();
            if !other.has_changed().unwrap() {
                asleep = true;
                break;
            }
        }
        assert!(asleep, "another thread's readers sleep on");
    });
}

on_both_backends! {
fn an_open_stream_nobody_holds_is_stalled_with_what_a_worker_needs_to_take_it_over(backing) {
    let store = backing.open();
    let session = StreamSession { thread: "t1".into(), run: "run_a".into(), session_id: "s-1".into() };
    store
        .write_streams(
            &[open_stream("t1", "run_a", "digest"), open_stream("t2", "run_b", "digest")],
            &[session],
            &[append("t1", "run_a", 1..=2, false), append("t2", "run_b", 1..=1, true)],
        )
        .unwrap();
    let stalled = store.stalled_streams().unwrap();
    assert_eq!(stalled.len(), 1, "an ended stream is not stalled: {stalled:?}");
    let one = &stalled[0];
    assert_eq!(
        (one.thread.as_str(), one.run.as_str(), one.request.as_str(), one.prompt.as_str(), one.session_id.as_deref(), one.last_id),
        ("t1", "run_a", "digest", "prompt of run_a", Some("s-1"), 2)
    );
    let held = backing.location.lock(&thread_lock_name("t1")).unwrap();
    if let Location::Postgres(_) = backing.location {
        assert_eq!(store.stalled_streams().unwrap(), [], "a held thread's stream is not stalled");
    }
    drop(held);
    assert_eq!(store.stalled_streams().unwrap().len(), 1);
    // The thread's next run: the stream is new, and so far has no session.
    store.write_streams(&[open_stream("t1", "run_c", "digest")], &[], &[]).unwrap();
    assert_eq!(store.stalled_streams().unwrap()[0].session_id, None);
}
}
