//! The session store: sessions, their messages and their events in one
//! embedded SQLite database (`$AMPLIFIER_HOME/sessions.db`).
//!
//! - **All or nothing.** Every [`Store::write`] is one `BEGIN IMMEDIATE`
//!   transaction: the messages, the events, the usage totals and the status
//!   of a turn land together or not at all, so a crash (or `kill -9`) never
//!   leaves half a write behind.
//! - **WAL.** The database runs in write-ahead-log mode with
//!   `synchronous=NORMAL`: readers never block the writer, and a crashed
//!   process cannot corrupt it. Writers from several processes queue on
//!   SQLite's lock (`busy_timeout` 10 s).
//! - **One process per session.** [`Store::lock_session`] takes an exclusive
//!   advisory lock on `locks/<session-id>.lock` beside the database, held for
//!   as long as the [`SessionLock`] lives; a second process is refused with
//!   [`StoreError::Locked`], which names the session and the holder's pid.
//! - **Bounded events.** [`Retention`] caps the events kept per session (rows
//!   and age); what was dropped is counted in [`SessionRecord::events_dropped`].
//! - **Repair.** [`repair_orphan_tool_calls`] gives every tool call that has
//!   no result (a crash mid-tool) a synthetic cancelled result, so a resumed
//!   history is one any provider accepts.
//!
//! The store knows nothing of the CLI: it stores what it is given.

mod agents;
mod export;
mod lock;
mod runs;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use amplifier_protocol::models::{Message, Role, RunStatus, Usage};
use rusqlite::config::DbConfig;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use serde::Serialize;
use serde_json::Value;

pub use agents::{trim_history, AgentScope};
pub use amplifier_protocol::repair::{repair_orphan_tool_calls, RepairedCall, CANCELLED_TOOL_RESULT};
pub use export::{events_jsonl, markdown_transcript, metadata_json, transcript_jsonl};
pub use lock::SessionLock;

/// The database's file name inside the state directory.
pub const DB_FILE: &str = "sessions.db";
/// The schema this build reads and writes (`PRAGMA user_version`).
/// 2 added `agent_messages` (the router's per-agent histories); the schema's
/// statements are idempotent, so running them again is the migration.
/// 3 added `sessions.agent` (sub-agent sessions), added to older tables.
/// 4 added `run_states` (orchestrator-plan's threads, once files of its own).
pub const SCHEMA_VERSION: i64 = 4;

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
"#;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("session store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("session store: {0}")]
    Io(String),
    #[error("no session matches '{0}'")]
    NotFound(String),
    #[error("'{prefix}' matches {} sessions ({}); give more of the id", candidates.len(), candidates.join(", "))]
    Ambiguous { prefix: String, candidates: Vec<String> },
    #[error(
        "session {session} is in use by another amplifier process ({}); wait for it to finish or stop it",
        pid.map_or_else(|| "pid unknown".to_owned(), |pid| format!("pid {pid}"))
    )]
    Locked { session: String, pid: Option<u32> },
    #[error("{} was written by a newer amplifier (schema {found}; this one reads up to {SCHEMA_VERSION})", path.display())]
    NewerSchema { path: PathBuf, found: i64 },
    #[error("session store: {0}")]
    Invalid(String),
}

impl StoreError {
    /// What the user can do about it, for a front end to show apart.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            StoreError::NotFound(_) => Some("`amplifier session list --all-projects` shows the stored sessions"),
            _ => None,
        }
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// How many events a session keeps. Checked after every write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// The newest this many events per session are kept (`None`: all).
    pub max_events: Option<u64>,
    /// Events stored more than this many days ago are dropped (`None`: never).
    pub max_age_days: Option<u64>,
}

impl Default for Retention {
    fn default() -> Self {
        Retention { max_events: Some(10_000), max_age_days: None }
    }
}

/// A session as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionRecord {
    pub id: String,
    /// The session this one was forked from, or (with `agent`) that spawned it.
    pub parent_id: Option<String>,
    /// Set for a sub-agent's session: the agent it ran.
    pub agent: Option<String>,
    pub name: Option<String>,
    /// The first user prompt, shortened (for listings).
    pub title: Option<String>,
    pub plan_path: Option<String>,
    pub plan_hash: Option<String>,
    pub working_dir: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: i64,
    pub updated_ms: i64,
    pub status: RunStatus,
    /// Turns started (a turn interrupted by a crash counts).
    pub turn_count: u32,
    pub message_count: u64,
    pub event_count: u64,
    /// Events removed by [`Retention`].
    pub events_dropped: u64,
    pub usage: Usage,
}

/// What a new session row holds.
#[derive(Debug, Clone, Default)]
pub struct NewSession {
    pub id: String,
    pub parent_id: Option<String>,
    /// A sub-agent's session: the agent's name (its parent is `parent_id`).
    pub agent: Option<String>,
    pub name: Option<String>,
    pub plan_path: Option<String>,
    pub plan_hash: Option<String>,
    pub working_dir: String,
}

/// A message as stored: its place in the history and the turn that added it
/// (0: before the first turn, such as a context's memory files).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage {
    pub seq: u64,
    pub turn: u32,
    pub message: Message,
}

/// A message to store, with the turn it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMessage {
    pub turn: u32,
    pub message: Message,
}

/// An event to store: its name, the kernel's timestamp and its data as a JSON object's text.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    pub name: String,
    pub timestamp: String,
    pub data: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredEvent {
    pub id: i64,
    pub turn: u32,
    pub name: String,
    pub timestamp: String,
    pub data: Value,
}

/// One all-or-nothing write (see [`Store::write`]).
#[derive(Debug, Clone, Copy)]
pub struct TurnWrite<'a> {
    pub session_id: &'a str,
    /// The turn the events belong to.
    pub turn: u32,
    /// The history index of `messages[0]`: stored messages from there on are
    /// replaced. Equal to the stored count to append; smaller when the
    /// history changed (a repair, a context that rewrote it).
    pub messages_at: u64,
    pub messages: &'a [NewMessage],
    pub events: &'a [NewEvent],
    /// Added to the session's totals.
    pub usage: Option<&'a Usage>,
    pub status: Option<RunStatus>,
}

/// Which sessions [`Store::list`] returns, newest first.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    /// Only sessions started in this directory (`None`: every directory).
    pub working_dir: Option<String>,
    pub limit: Option<usize>,
}

/// The session store. One connection; open one per thread or process.
pub struct Store {
    conn: Connection,
    dir: PathBuf,
    retention: Retention,
}

impl Store {
    /// Opens (creating it if needed) `dir/sessions.db`; locks live in `dir/locks/`.
    pub fn open(dir: &Path) -> Result<Store> {
        std::fs::create_dir_all(dir)
            .map_err(|err| StoreError::Io(format!("cannot create {}: {err}", dir.display())))?;
        let path = dir.join(DB_FILE);
        let mut conn = Connection::open(&path)?;
        conn.busy_timeout(Duration::from_secs(10))?;
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Invalid(format!("{} cannot use WAL mode (got {mode})", path.display())));
        }
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        // The last connection's close would fold the WAL into the database
        // and fsync it, at the end of every `amplifier run`. The WAL is as
        // durable; SQLite folds it in as it grows (every 1,000 pages), and
        // `session cleanup` truncates it.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { path, found: version });
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
        Ok(Store { conn, dir: dir.to_owned(), retention: Retention::default() })
    }

    pub fn set_retention(&mut self, retention: Retention) {
        self.retention = retention;
    }

    /// The directory holding the database and the locks.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The database's journal mode (`wal`).
    pub fn journal_mode(&self) -> Result<String> {
        Ok(self.conn.query_row("PRAGMA journal_mode", [], |row| row.get(0))?)
    }

    /// Takes the session's exclusive lock (see [`SessionLock`]).
    pub fn lock_session(&self, session_id: &str) -> Result<SessionLock> {
        SessionLock::acquire(&self.dir.join("locks"), session_id)
    }

    /// Whether another process holds the session's lock right now.
    pub fn is_locked(&self, session_id: &str) -> bool {
        matches!(self.lock_session(session_id), Err(StoreError::Locked { .. }))
    }

    /// Adds a session row (status `running`, no turns yet).
    pub fn create_session(&mut self, new: &NewSession) -> Result<SessionRecord> {
        let now = now_ms();
        self.conn.execute(
            "INSERT INTO sessions (id, parent_id, agent, name, plan_path, plan_hash, working_dir, created_ms, updated_ms, status)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 'running')",
            params![new.id, new.parent_id, new.agent, new.name, new.plan_path, new.plan_hash, new.working_dir, now],
        )?;
        self.require(&new.id)
    }

    /// Starts the next turn: counts it, marks the session `running`, and
    /// returns its number (1 for the first).
    pub fn begin_turn(&mut self, session_id: &str) -> Result<u32> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let changed = tx.execute(
            "UPDATE sessions SET turn_count = turn_count + 1, status = 'running', updated_ms = ?2 WHERE id = ?1",
            params![session_id, now_ms()],
        )?;
        if changed == 0 {
            return Err(StoreError::NotFound(session_id.to_owned()));
        }
        let turn: u32 = tx.query_row("SELECT turn_count FROM sessions WHERE id = ?1", [session_id], |r| r.get(0))?;
        tx.commit()?;
        Ok(turn)
    }

    /// Records that the session now runs with this plan file.
    pub fn update_plan(&mut self, session_id: &str, plan_path: &str, plan_hash: &str) -> Result<()> {
        self.conn.execute(
            "UPDATE sessions SET plan_path = ?2, plan_hash = ?3 WHERE id = ?1",
            params![session_id, plan_path, plan_hash],
        )?;
        Ok(())
    }

    /// Writes messages, events, usage and status in one transaction: after
    /// an error (or a crash) nothing of it is stored.
    pub fn write(&mut self, write: &TurnWrite<'_>) -> Result<()> {
        let retention = self.retention;
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now = now_ms();
        let (old_usage, stored_messages) = {
            let mut stmt = tx.prepare_cached(
                "SELECT input_tokens, output_tokens, total_tokens, cost_usd,
                        (SELECT COUNT(*) FROM messages WHERE session_id = ?1)
                 FROM sessions WHERE id = ?1",
            )?;
            stmt.query_row([write.session_id], |row| {
                let usage = Usage {
                    input_tokens: row.get(0)?,
                    output_tokens: row.get(1)?,
                    total_tokens: row.get(2)?,
                    cost_usd: row.get(3)?,
                    ..Usage::default()
                };
                Ok((usage, row.get::<_, u64>(4)?))
            })
            .optional()?
            .ok_or_else(|| StoreError::NotFound(write.session_id.to_owned()))?
        };
        if write.messages_at > stored_messages {
            return Err(StoreError::Invalid(format!(
                "session {}: messages written at {} but only {stored_messages} are stored",
                write.session_id, write.messages_at
            )));
        }

        let mut usage = old_usage;
        if let Some(delta) = write.usage {
            usage.accumulate(delta);
        }
        let status = write.status.map(status_str);
        tx.prepare_cached(
            "UPDATE sessions SET updated_ms = ?2, input_tokens = ?3, output_tokens = ?4, total_tokens = ?5,
                    cost_usd = ?6, status = COALESCE(?7, status)
             WHERE id = ?1",
        )?
        .execute(params![
            write.session_id,
            now,
            usage.input_tokens,
            usage.output_tokens,
            usage.total_tokens,
            usage.cost_usd,
            status
        ])?;

        if write.messages_at < stored_messages {
            tx.prepare_cached("DELETE FROM messages WHERE session_id = ?1 AND seq >= ?2")?
                .execute(params![write.session_id, write.messages_at])?;
        }
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO messages (session_id, seq, turn, role, body) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (offset, new) in write.messages.iter().enumerate() {
                let body = serde_json::to_string(&new.message).map_err(|err| StoreError::Invalid(err.to_string()))?;
                insert.execute(params![
                    write.session_id,
                    write.messages_at + offset as u64,
                    new.turn,
                    role_str(new.message.role),
                    body
                ])?;
            }
        }
        if let Some(title) = write.messages.iter().find(|m| m.message.role == Role::User).map(|m| title_of(&m.message))
        {
            tx.prepare_cached("UPDATE sessions SET title = ?2 WHERE id = ?1 AND title IS NULL")?
                .execute(params![write.session_id, title])?;
        }
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO events (session_id, turn, name, timestamp, stored_ms, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for event in write.events {
                insert.execute(params![write.session_id, write.turn, event.name, event.timestamp, now, event.data])?;
            }
        }
        if !write.events.is_empty() {
            apply_retention(&tx, write.session_id, retention, now)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The session with exactly this id.
    pub fn session(&self, id: &str) -> Result<Option<SessionRecord>> {
        let sql = format!("{SELECT_SESSION} WHERE s.id = ?1");
        Ok(self.conn.query_row(&sql, [id], session_from_row).optional()?)
    }

    fn require(&self, id: &str) -> Result<SessionRecord> {
        self.session(id)?.ok_or_else(|| StoreError::NotFound(id.to_owned()))
    }

    /// The one session whose id starts with `prefix`.
    pub fn resolve(&self, prefix: &str) -> Result<SessionRecord> {
        let prefix = prefix.trim();
        if prefix.is_empty() {
            return Err(StoreError::NotFound(String::new()));
        }
        let mut stmt = self.conn.prepare(
            "SELECT id, agent IS NULL FROM sessions WHERE substr(id, 1, length(?1)) = ?1 ORDER BY updated_ms DESC LIMIT 11",
        )?;
        let rows: Vec<(String, bool)> =
            stmt.query_map([prefix], |row| Ok((row.get(0)?, row.get(1)?)))?.collect::<Result<_, _>>()?;
        // A sub-agent's id starts with its parent's hex digits, so a short
        // prefix of the parent's id also matches its sub-agents: the one
        // session a person started wins.
        let started: Vec<String> = rows.iter().filter(|(_, started)| *started).map(|(id, _)| id.clone()).collect();
        let ids: Vec<String> = rows.iter().map(|(id, _)| id.clone()).collect();
        match (ids.as_slice(), started.as_slice()) {
            ([], _) => Err(StoreError::NotFound(prefix.to_owned())),
            ([id], _) | (_, [id]) => self.require(id),
            _ if ids.iter().any(|id| id == prefix) => self.require(prefix),
            _ => Err(StoreError::Ambiguous { prefix: prefix.to_owned(), candidates: ids }),
        }
    }

    /// Sessions people started (not sub-agents'), most recently updated first.
    pub fn list(&self, filter: &ListFilter) -> Result<Vec<SessionRecord>> {
        let limit = filter.limit.map_or(-1, |n| n as i64);
        let sql = format!(
            "{SELECT_SESSION} WHERE (?1 IS NULL OR s.working_dir = ?1) AND s.agent IS NULL
             ORDER BY s.updated_ms DESC, s.rowid DESC LIMIT ?2"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map(params![filter.working_dir, limit], session_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The most recently updated session started in `working_dir`.
    pub fn latest_in(&self, working_dir: &str) -> Result<Option<SessionRecord>> {
        let filter = ListFilter { working_dir: Some(working_dir.to_owned()), limit: Some(1) };
        Ok(self.list(&filter)?.into_iter().next())
    }

    /// The sub-agent sessions `parent_id` spawned, oldest first.
    pub fn sub_agents(&self, parent_id: &str) -> Result<Vec<SessionRecord>> {
        let sql =
            format!("{SELECT_SESSION} WHERE s.parent_id = ?1 AND s.agent IS NOT NULL ORDER BY s.created_ms, s.rowid");
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map([parent_id], session_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The session's history in order.
    pub fn messages(&self, session_id: &str) -> Result<Vec<StoredMessage>> {
        let mut stmt =
            self.conn.prepare_cached("SELECT seq, turn, body FROM messages WHERE session_id = ?1 ORDER BY seq")?;
        let rows = stmt.query_map([session_id], |row| {
            Ok((row.get::<_, u64>(0)?, row.get::<_, u32>(1)?, row.get::<_, String>(2)?))
        })?;
        let mut messages = Vec::new();
        for row in rows {
            let (seq, turn, body) = row?;
            let message = serde_json::from_str(&body).map_err(|err| {
                StoreError::Invalid(format!("session {session_id}: message {seq} is not a valid message: {err}"))
            })?;
            messages.push(StoredMessage { seq, turn, message });
        }
        Ok(messages)
    }

    /// The session's events in order.
    pub fn events(&self, session_id: &str) -> Result<Vec<StoredEvent>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, turn, name, timestamp, data FROM events WHERE session_id = ?1 ORDER BY id")?;
        let rows = stmt.query_map([session_id], |row| {
            let data: String = row.get(4)?;
            Ok(StoredEvent {
                id: row.get(0)?,
                turn: row.get(1)?,
                name: row.get(2)?,
                timestamp: row.get(3)?,
                data: serde_json::from_str(&data).unwrap_or(Value::String(data)),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Copies the first `at_turn` turns (all when `None`) of a session into a
    /// new one whose parent it is; returns the new session.
    pub fn fork(&mut self, source_id: &str, at_turn: Option<u32>, name: Option<&str>) -> Result<SessionRecord> {
        let source = self.require(source_id)?;
        let turns = match at_turn {
            None => source.turn_count,
            Some(0) => return Err(StoreError::Invalid("--at-turn counts from 1".to_owned())),
            Some(n) if n > source.turn_count => {
                return Err(StoreError::Invalid(format!(
                    "session {} has {} turn(s); cannot fork at turn {n}",
                    source.id, source.turn_count
                )))
            }
            Some(n) => n,
        };
        let id = uuid::Uuid::new_v4().to_string();
        let now = now_ms();
        let status = if turns == source.turn_count { source.status } else { RunStatus::Completed };
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO sessions (id, parent_id, name, title, plan_path, plan_hash, working_dir, created_ms, updated_ms,
                                   status, turn_count)
             SELECT ?2, id, COALESCE(?3, name), title, plan_path, plan_hash, working_dir, ?4, ?4, ?5, ?6
             FROM sessions WHERE id = ?1",
            params![source.id, id, name, now, status_str(status), turns],
        )?;
        tx.execute(
            "INSERT INTO messages (session_id, seq, turn, role, body)
             SELECT ?2, seq, turn, role, body FROM messages WHERE session_id = ?1 AND turn <= ?3",
            params![source.id, id, turns],
        )?;
        tx.execute(
            "INSERT INTO events (session_id, turn, name, timestamp, stored_ms, data)
             SELECT ?2, turn, name, timestamp, stored_ms, data FROM events WHERE session_id = ?1 AND turn <= ?3
             ORDER BY id",
            params![source.id, id, turns],
        )?;
        if turns == source.turn_count {
            tx.execute(
                "UPDATE sessions SET (input_tokens, output_tokens, total_tokens, cost_usd) =
                    (SELECT input_tokens, output_tokens, total_tokens, cost_usd FROM sessions WHERE id = ?1)
                 WHERE id = ?2",
                params![source.id, id],
            )?;
        } else {
            // The totals of the copied turns, from their provider responses.
            tx.execute(
                "UPDATE sessions SET (input_tokens, output_tokens, total_tokens, cost_usd) = (
                    SELECT COALESCE(SUM(json_extract(data, '$.usage.input_tokens')), 0),
                           COALESCE(SUM(json_extract(data, '$.usage.output_tokens')), 0),
                           COALESCE(SUM(json_extract(data, '$.usage.total_tokens')), 0),
                           printf('%.6f', SUM(CAST(json_extract(data, '$.usage.cost_usd') AS REAL)))
                    FROM events WHERE session_id = ?1 AND name = 'provider:response' AND json_valid(data))
                 WHERE id = ?1",
                [&id],
            )?;
        }
        tx.commit()?;
        self.require(&id)
    }

    /// Deletes a session with its messages, events and sub-agent sessions;
    /// refuses while another process holds it. Returns whether it existed.
    pub fn delete(&mut self, session_id: &str) -> Result<bool> {
        let lock = self.lock_session(session_id)?;
        for child in self.sub_agents(session_id)? {
            self.delete(&child.id)?;
        }
        let deleted = self.conn.execute("DELETE FROM sessions WHERE id = ?1", [session_id])? > 0;
        lock.remove();
        Ok(deleted)
    }

    /// Deletes every session not updated for `older_than` (skipping those in
    /// use); returns the ids deleted and the ids skipped because in use.
    pub fn cleanup(&mut self, older_than: Duration) -> Result<(Vec<String>, Vec<String>)> {
        let cutoff = now_ms() - older_than.as_millis().min(i64::MAX as u128) as i64;
        let ids: Vec<String> = {
            let mut stmt = self.conn.prepare("SELECT id FROM sessions WHERE updated_ms <= ?1 ORDER BY updated_ms")?;
            let ids = stmt.query_map([cutoff], |row| row.get(0))?.collect::<Result<_, _>>()?;
            ids
        };
        let (mut deleted, mut skipped) = (Vec::new(), Vec::new());
        for id in ids {
            match self.delete(&id) {
                Ok(_) => deleted.push(id),
                Err(StoreError::Locked { .. }) => skipped.push(id),
                Err(err) => return Err(err),
            }
        }
        if !deleted.is_empty() {
            // Give the space back: fold the WAL into the database file.
            self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        }
        Ok((deleted, skipped))
    }

    /// `PRAGMA integrity_check`: `ok` for a sound database.
    pub fn integrity_check(&self) -> Result<String> {
        Ok(self.conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))?)
    }
}

const SELECT_SESSION: &str =
    "SELECT s.id, s.parent_id, s.agent, s.name, s.title, s.plan_path, s.plan_hash, s.working_dir,
        s.created_ms, s.updated_ms, s.status, s.turn_count,
        (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id),
        (SELECT COUNT(*) FROM events e WHERE e.session_id = s.id),
        s.events_dropped, s.input_tokens, s.output_tokens, s.total_tokens, s.cost_usd
    FROM sessions s";

fn session_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<SessionRecord> {
    let status: String = row.get(10)?;
    Ok(SessionRecord {
        id: row.get(0)?,
        parent_id: row.get(1)?,
        agent: row.get(2)?,
        name: row.get(3)?,
        title: row.get(4)?,
        plan_path: row.get(5)?,
        plan_hash: row.get(6)?,
        working_dir: row.get(7)?,
        created_ms: row.get(8)?,
        updated_ms: row.get(9)?,
        status: parse_status(&status),
        turn_count: row.get(11)?,
        message_count: row.get(12)?,
        event_count: row.get(13)?,
        events_dropped: row.get(14)?,
        usage: Usage {
            input_tokens: row.get(15)?,
            output_tokens: row.get(16)?,
            total_tokens: row.get(17)?,
            cost_usd: row.get(18)?,
            ..Usage::default()
        },
    })
}

fn apply_retention(tx: &rusqlite::Transaction<'_>, session_id: &str, retention: Retention, now: i64) -> Result<()> {
    let mut dropped = 0;
    if let Some(days) = retention.max_age_days {
        let cutoff = now - (days as i64).saturating_mul(86_400_000);
        dropped += tx
            .prepare_cached("DELETE FROM events WHERE session_id = ?1 AND stored_ms < ?2")?
            .execute(params![session_id, cutoff])?;
    }
    if let Some(max) = retention.max_events {
        dropped += tx
            .prepare_cached(
                "DELETE FROM events WHERE session_id = ?1 AND id <= (
                    SELECT id FROM events WHERE session_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
            )?
            .execute(params![session_id, max])?;
    }
    if dropped > 0 {
        tx.prepare_cached("UPDATE sessions SET events_dropped = events_dropped + ?2 WHERE id = ?1")?
            .execute(params![session_id, dropped as i64])?;
    }
    Ok(())
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// `2025-01-31 14:05` (UTC) for a stored time.
pub fn format_ms(ms: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| t.format(&format).ok())
        .unwrap_or_else(|| ms.to_string())
}

/// RFC 3339 (UTC) for a stored time.
pub fn rfc3339_ms(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_else(|| ms.to_string())
}

pub fn status_str(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Running => "running",
        RunStatus::Completed => "completed",
        RunStatus::Failed => "failed",
        RunStatus::Cancelled => "cancelled",
    }
}

fn parse_status(text: &str) -> RunStatus {
    match text {
        "completed" => RunStatus::Completed,
        "failed" => RunStatus::Failed,
        "cancelled" => RunStatus::Cancelled,
        _ => RunStatus::Running,
    }
}

fn role_str(role: Role) -> String {
    serde_json::to_value(role).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn title_of(message: &Message) -> String {
    let text = message.content.text();
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut title: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        title.push('…');
    }
    title
}
