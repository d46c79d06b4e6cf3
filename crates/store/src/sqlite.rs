//! The embedded backend: one SQLite file, `sessions.db`, in WAL mode, with
//! per-session `flock` files beside it (see [`crate::lock`]).

use std::ffi::c_int;
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::hooks::Wal;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::sql::{Arg, Dialect, Row, Sql, Val, Work};
use crate::{Backend, Result, StoreError, DB_FILE, SCHEMA_VERSION};

/// Schema 2 added `agent_messages` (the router's per-agent histories); the
/// statements are idempotent, so running them again is the migration.
/// 3 added `sessions.agent` (sub-agent sessions), added to older tables.
/// 4 added `run_states` (orchestrator-plan's threads, once files of its own).
/// 5 added `run_streams` and `run_frames` (served runs' frames, for readers
/// on other workers).
const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS sessions (
    id             TEXT PRIMARY KEY,
    parent_id      TEXT,
    agent          TEXT,
    name           TEXT,
    title          TEXT,
    plan_path      TEXT,
    plan_hash      TEXT,
    working_dir    TEXT NOT NULL,
    created_ms     INTEGER NOT NULL,
    updated_ms     INTEGER NOT NULL,
    status         TEXT NOT NULL,
    turn_count     INTEGER NOT NULL DEFAULT 0,
    input_tokens   INTEGER NOT NULL DEFAULT 0,
    output_tokens  INTEGER NOT NULL DEFAULT 0,
    total_tokens   INTEGER NOT NULL DEFAULT 0,
    cost_usd       TEXT,
    events_dropped INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sessions_by_dir ON sessions (working_dir, updated_ms);
CREATE INDEX IF NOT EXISTS sessions_by_update ON sessions (updated_ms);
CREATE TABLE IF NOT EXISTS messages (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    turn       INTEGER NOT NULL,
    role       TEXT NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    name       TEXT NOT NULL,
    timestamp  TEXT NOT NULL,
    stored_ms  INTEGER NOT NULL,
    data       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_session ON events (session_id, id);
CREATE TABLE IF NOT EXISTS agent_messages (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    agent_id        TEXT NOT NULL,
    stored_ms       INTEGER NOT NULL,
    role            TEXT NOT NULL,
    body            TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_messages_by_scope ON agent_messages (user_id, conversation_id, agent_id, seq);
CREATE TABLE IF NOT EXISTS run_states (
    thread_id  TEXT PRIMARY KEY,
    state      TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS run_streams (
    thread_id  TEXT PRIMARY KEY,
    run_id     TEXT NOT NULL,
    request    TEXT NOT NULL,
    prompt     TEXT NOT NULL DEFAULT '',
    session_id TEXT,
    closed     INTEGER NOT NULL DEFAULT 0,
    updated_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS run_streams_by_request ON run_streams (request);
CREATE INDEX IF NOT EXISTS run_streams_by_update ON run_streams (closed, updated_ms);
CREATE TABLE IF NOT EXISTS run_frames (
    thread_id TEXT NOT NULL,
    id        INTEGER NOT NULL,
    frame     TEXT NOT NULL,
    PRIMARY KEY (thread_id, id)
) WITHOUT ROWID;
"#;

/// SQLite folds the WAL into the database once it holds this many pages
/// (SQLite's own default), whoever is writing.
const FOLD_WHILE_WRITING: c_int = 1000;

/// How long a statement waits for another connection's lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A WAL this many pages long is folded in: by a closing connection, which
/// also truncates it, and by the session recorder between its saves.
const LONG_WAL: c_int = 100;

/// How many pages the WAL held after this process's last commit.
static WAL_PAGES: AtomicI32 = AtomicI32::new(0);

fn wal_is_long() -> bool {
    WAL_PAGES.load(Ordering::Relaxed) >= LONG_WAL
}

/// After every commit: SQLite's automatic fold (a WAL hook replaces it), and
/// the WAL's length for `Drop`.
fn after_commit(wal: &Wal, pages: c_int) -> rusqlite::Result<()> {
    WAL_PAGES.store(pages, Ordering::Relaxed);
    if pages >= FOLD_WHILE_WRITING {
        // The commit has succeeded: an error returned here would be reported
        // as the commit's. A fold that cannot run now (another connection is
        // folding) is left for a later commit, as SQLite's own hook does.
        let _ = wal.checkpoint();
    }
    Ok(())
}

pub(crate) struct Sqlite {
    conn: Connection,
}

impl Sqlite {
    /// Opens (creating it if needed) `dir/sessions.db`; locks live in `dir/locks/`.
    pub(crate) fn open(dir: &Path) -> Result<Sqlite> {
        std::fs::create_dir_all(dir)
            .map_err(|err| StoreError::Io(format!("cannot create {}: {err}", dir.display())))?;
        let path = dir.join(DB_FILE);
        let mut conn = Connection::open(&path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // rusqlite keeps 16 prepared statements, about as many as a run
        // uses (a write alone up to 10: two of each `MultiInsert`); at the
        // default, a write re-prepared some of its statements.
        conn.set_prepared_statement_cache_capacity(64);
        // Before the switch to WAL, which a new file makes in a rollback
        // journal: at the default FULL, it syncs once more (a new store's
        // first run made six fsyncs, now five).
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Invalid(format!("{} cannot use WAL mode (got {mode})", path.display())));
        }
        // The last connection's close would fold the WAL into the database
        // and fsync it, at the end of every `amplifier run`; see `Drop`.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        conn.wal_hook(Some(after_commit));
        let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { location: path.display().to_string(), found: version });
        }
        if version < SCHEMA_VERSION {
            // Two processes may create the schema at once: the immediate
            // transaction serialises them, and the statements are idempotent.
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute_batch(SCHEMA)?;
            let has_agent: bool = tx.query_row(
                "SELECT COUNT(*) > 0 FROM pragma_table_info('sessions') WHERE name = 'agent'",
                [],
                |row| row.get(0),
            )?;
            if !has_agent {
                tx.execute_batch("ALTER TABLE sessions ADD COLUMN agent TEXT")?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            tx.commit()?;
        }
        Ok(Sqlite { conn })
    }
}

/// The next process to open the database rebuilds the WAL's index by
/// reading the WAL's frames (up to the first left from a previous pass).
/// Folded in only at 1,000 pages, that read averaged 2 MB and 0.8 ms of
/// every `amplifier run`'s start; folding it in at every close costs an
/// fsync each time. So a closing connection folds in and truncates a WAL of
/// 100 pages or more (a one-turn run writes about 25), the session recorder
/// folds one in between its background saves ([`Backend::tidy`]), and a
/// writer that does neither still folds only every 1,000 (each fold costs
/// it an fsync and its copying).
impl Sqlite {
    /// Folds the WAL into the database file and truncates it; `false` when
    /// another connection's read or write kept it from finishing.
    fn truncate_wal(&self) -> rusqlite::Result<bool> {
        self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| Ok(row.get::<_, i64>(0)? == 0))
    }

    /// Folds in and truncates a WAL of [`LONG_WAL`] pages or more.
    /// Without waiting: while another connection reads or writes, the WAL is
    /// left for a later try.
    fn truncate_long_wal(&self) {
        if !wal_is_long() {
            return;
        }
        // Truncated, not just folded: the next process's rebuild reads every
        // frame of the WAL's last pass, folded or not.
        let folded = self.conn.busy_timeout(Duration::ZERO).and_then(|()| self.truncate_wal());
        if folded == Ok(true) {
            WAL_PAGES.store(0, Ordering::Relaxed);
        }
        let _ = self.conn.busy_timeout(BUSY_TIMEOUT);
    }
}

impl Drop for Sqlite {
    fn drop(&mut self) {
        self.truncate_long_wal();
    }
}

impl Backend for Sqlite {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn transaction(&self, work: &mut Work<'_>) -> Result<()> {
        // Immediate: the write lock is taken at the start, so a read inside
        // the transaction never has to be retried as a write.
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)?;
        work(&mut Lite(&tx))?;
        tx.commit()?;
        Ok(())
    }

    fn run(&self, work: &mut Work<'_>) -> Result<()> {
        work(&mut Lite(&self.conn))
    }

    fn reclaim(&self) -> Result<()> {
        self.truncate_wal()?;
        Ok(())
    }

    /// A long session's recorder folds the WAL as it goes, in the
    /// background: at its exit, the fold and its two `fsync`s took 8 ms of
    /// a 1,000-call run. Folded, not truncated: the next write starts the
    /// WAL over from its beginning, so the file keeps its size instead of
    /// ext4 freeing and allocating its blocks at every fold (truncating
    /// cost a 1,000-call run 4 ms). A later process's rebuild stops at the
    /// first frame of the previous pass, and the exit's fold (`Drop`) still
    /// truncates a WAL of [`LONG_WAL`] pages.
    fn tidy(&self) {
        if wal_is_long() {
            // PASSIVE never waits: a fold another connection's reader holds
            // up is finished by a later one.
            let _ = self.conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        }
    }

    fn integrity_check(&self) -> Result<String> {
        Ok(self.conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))?)
    }

    fn journal_mode(&self) -> Result<Option<String>> {
        Ok(Some(self.conn.query_row("PRAGMA journal_mode", [], |row| row.get(0))?))
    }
}

struct Lite<'c>(&'c Connection);

impl Sql for Lite<'_> {
    fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64> {
        let changed = self.0.prepare_cached(sql)?.execute(rusqlite::params_from_iter(args))?;
        Ok(changed as u64)
    }

    fn prepare(&mut self, sql: &str) -> Result<()> {
        // Dropped, the statement goes back to the connection's cache.
        self.0.prepare_cached(sql)?;
        Ok(())
    }

    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>> {
        let mut stmt = self.0.prepare_cached(sql)?;
        let columns = stmt.column_count();
        let rows = stmt.query_map(rusqlite::params_from_iter(args), |row| {
            (0..columns).map(|index| Ok(value(row.get_ref(index)?))).collect::<rusqlite::Result<Vec<Val>>>().map(Row)
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

fn value(value: ValueRef<'_>) -> Val {
    match value {
        ValueRef::Null => Val::Null,
        ValueRef::Integer(int) => Val::Int(int),
        ValueRef::Real(real) => Val::Text(real.to_string()),
        ValueRef::Text(text) | ValueRef::Blob(text) => Val::Text(String::from_utf8_lossy(text).into_owned()),
    }
}

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Arg::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Arg::Int(int) => ToSqlOutput::Borrowed(ValueRef::Integer(int)),
            Arg::Text(text) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Location, NewEvent, NewMessage, NewSession, Retention, Store, TurnWrite};
    use amplifier_protocol::models::Message;

    /// The statements the connection holds prepared (its cache's).
    fn prepared(handle: *mut rusqlite::ffi::sqlite3) -> usize {
        let mut count = 0;
        // SAFETY: `handle` is a live connection's, used on this thread only.
        let mut stmt = unsafe { rusqlite::ffi::sqlite3_next_stmt(handle, std::ptr::null_mut()) };
        while !stmt.is_null() {
            count += 1;
            stmt = unsafe { rusqlite::ffi::sqlite3_next_stmt(handle, stmt) };
        }
        count
    }

    #[test]
    fn a_first_short_write_prepares_nothing_that_prepare_writes_did_not() {
        let dir = tempfile::tempdir().unwrap();
        let sqlite = Sqlite::open(dir.path()).unwrap();
        // SAFETY: the handle outlives none of its uses: the store owns the connection below.
        let handle = unsafe { sqlite.conn.handle() };
        let location = Location::Sqlite(dir.path().to_owned());
        let mut store =
            Store { backend: Box::new(sqlite), location, dir: dir.path().to_owned(), retention: Retention::default() };
        store.set_retention(Retention { max_events: Some(100), max_age_days: Some(30) });
        store.create_session(&NewSession { id: "s".into(), ..NewSession::default() }).unwrap();
        let turn = store.begin_turn("s").unwrap();
        let before = prepared(handle);
        store.prepare_writes().unwrap();
        let ready = prepared(handle);
        assert!(ready > before, "statements were prepared: {before} then {ready}");
        let question = Message::user("what is it?");
        let event = NewEvent { name: "prompt:submit", timestamp: "2025-01-01T00:00:00Z", data: "{}" };
        store
            .write(&TurnWrite {
                session_id: "s",
                turn,
                messages_at: 0,
                messages: &[NewMessage { turn, message: &question }],
                events: &[event, event],
                usage: None,
                status: None,
            })
            .unwrap();
        assert_eq!(prepared(handle), ready, "the write found every statement prepared");
        assert_eq!(store.messages("s").unwrap().len(), 1);
    }
}
