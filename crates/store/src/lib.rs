//! The session store: sessions, their messages and their events, in one of
//! two backends behind one API ([`Location`] picks it):
//!
//! - **SQLite** (the default): one embedded database file,
//!   `$AMPLIFIER_HOME/sessions.db`, in write-ahead-log mode with
//!   `synchronous=NORMAL`: readers never block the writer, and a crashed
//!   process cannot corrupt it. Writers from several processes queue on
//!   SQLite's lock (`busy_timeout` 10 s).
//! - **PostgreSQL** (`postgres://…`): one database that processes on several
//!   machines share (see the `postgres` module).
//!
//! The queries are written once (the `sql` module); what differs per backend
//! is how a connection runs them, the schema's text, and how a session is
//! locked.
//!
//! - **All or nothing.** Every [`Store::write`] is one transaction (SQLite's
//!   `BEGIN IMMEDIATE`; PostgreSQL's locks the session's row): the messages,
//!   the events, the usage totals and the status of a turn land together or
//!   not at all, so a crash (or `kill -9`) never leaves half a write behind.
//! - **One process per session.** [`Store::lock_session`] takes an exclusive
//!   lock, held for as long as the [`SessionLock`] lives; a second process is
//!   refused with [`StoreError::Locked`], which names the session and the
//!   holder's pid.
//! - **Bounded events.** [`Retention`] caps the events kept per session (rows
//!   and age); what was dropped is counted in [`SessionRecord::events_dropped`].
//! - **Repair.** [`repair_orphan_tool_calls`] gives every tool call that has
//!   no result (a crash mid-tool) a synthetic cancelled result, so a resumed
//!   history is one any provider accepts.
//!
//! The store knows nothing of the CLI: it stores what it is given.

mod agents;
mod copy;
mod export;
mod frames;
mod lock;
mod postgres;
mod runs;
mod sql;
mod sqlite;

use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use amplifier_protocol::models::{Message, Role, RunStatus, Usage};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sql::{args, Arg, Col, Dialect, MultiInsert, Row, Sql, Work};

pub use agents::{trim_history, AgentScope};
pub use amplifier_protocol::repair::{repair_orphan_tool_calls, RepairedCall, CANCELLED_TOOL_RESULT};
pub use copy::CopyReport;
pub use export::{events_jsonl, markdown_transcript, metadata_json, transcript_jsonl};
pub use frames::{
    request_digest, thread_lock_name, StalledStream, StoredFrame, StreamAppend, StreamInfo, StreamOpen, StreamSession,
    FRAMES_CHANNEL,
};
pub use lock::SessionLock;
/// A store URL without its password, for messages and listings.
pub use postgres::redact as redact_url;
/// The lease of a PostgreSQL store's locks (see `amplifier serve --lease-timeout`).
pub use postgres::set_lease_timeout;

/// The database's file name inside the state directory.
pub const DB_FILE: &str = "sessions.db";
/// The schema this build reads and writes (SQLite's `PRAGMA user_version`,
/// PostgreSQL's `amplifier_schema`).
pub const SCHEMA_VERSION: i64 = 5;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("session store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("session store: {}", postgres::describe(.0))]
    Postgres(#[from] ::postgres::Error),
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
    #[error("{location} was written by a newer amplifier (schema {found}; this one reads up to {SCHEMA_VERSION})")]
    NewerSchema { location: String, found: i64 },
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

/// A message to store, with the turn it belongs to. Borrowed: the writer
/// keeps its messages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewMessage<'a> {
    pub turn: u32,
    pub message: &'a Message,
}

/// An event to store: its name, the kernel's timestamp and its data as a
/// JSON object's text. Borrowed, so a recorder can keep a batch of events
/// in one buffer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewEvent<'a> {
    pub name: &'a str,
    pub timestamp: &'a str,
    pub data: &'a str,
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
    pub messages: &'a [NewMessage<'a>],
    pub events: &'a [NewEvent<'a>],
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

/// Where a store lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// `sessions.db` (and `locks/`) in this directory.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://…` or `postgresql://…`).
    Postgres(String),
}

impl Location {
    /// `postgres://…`, `postgresql://…`, `sqlite:DIR` or a directory.
    pub fn parse(text: &str) -> Result<Location> {
        let text = text.trim();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Location::Postgres(text.to_owned()));
        }
        let dir = text.strip_prefix("sqlite:").unwrap_or(text);
        if dir.is_empty() || text.contains("://") {
            return Err(StoreError::Invalid(format!(
                "'{}' is not a store: give postgres://…, sqlite:DIR or a directory",
                postgres::redact(text)
            )));
        }
        // A path to the database file itself means its directory.
        let path = PathBuf::from(dir);
        Ok(Location::Sqlite(match path.file_name() {
            Some(name) if name == DB_FILE => path.parent().map_or_else(|| PathBuf::from("."), Path::to_owned),
            _ => path,
        }))
    }
}

impl Location {
    /// Takes a session's lock without opening the store (see [`SessionLock`]).
    pub fn lock(&self, session_id: &str) -> Result<SessionLock> {
        match self {
            Location::Sqlite(dir) => SessionLock::file(&dir.join("locks"), session_id),
            Location::Postgres(url) => postgres::lock(url, session_id),
        }
    }
}

impl Location {
    /// For readers of a thread's stored frames (see [`Store::frames_after`]):
    /// a wake-up that changes when frames may have been appended, from any
    /// process. `None` where there is none (SQLite): readers poll.
    pub fn frame_wakeups(&self, thread: &str) -> Option<tokio::sync::watch::Receiver<()>> {
        match self {
            Location::Sqlite(_) => None,
            Location::Postgres(url) => Some(postgres::frame_wakeups(url, thread)),
        }
    }
}

impl std::fmt::Display for Location {
    /// The database, never with a password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(dir) => write!(f, "{}", dir.join(DB_FILE).display()),
            Location::Postgres(url) => f.write_str(&postgres::redact(url)),
        }
    }
}

/// What a backend does; the queries themselves are shared ([`Sql`]).
pub(crate) trait Backend: Send {
    fn dialect(&self) -> Dialect;
    /// Runs `work` in one transaction that takes the write lock at its start.
    fn transaction(&self, work: &mut Work<'_>) -> Result<()>;
    /// Runs `work` on the connection, each statement on its own.
    fn run(&self, work: &mut Work<'_>) -> Result<()>;
    /// Gives back the space of deleted rows.
    fn reclaim(&self) -> Result<()>;
    /// Upkeep a writer can do off its session's path, between writes.
    fn tidy(&self) {}
    fn integrity_check(&self) -> Result<String>;
    fn journal_mode(&self) -> Result<Option<String>>;
}

/// The session store. One connection; open one per thread or process.
pub struct Store {
    backend: Box<dyn Backend>,
    location: Location,
    dir: PathBuf,
    retention: Retention,
}

impl Store {
    /// Opens (creating it if needed) the SQLite store `dir/sessions.db`;
    /// locks live in `dir/locks/`.
    pub fn open(dir: &Path) -> Result<Store> {
        Store::connect(&Location::Sqlite(dir.to_owned()), dir)
    }

    /// Opens the store at `location`, migrating its schema. `dir` is the
    /// state directory of this machine (what the host keeps in files).
    pub fn connect(location: &Location, dir: &Path) -> Result<Store> {
        let backend: Box<dyn Backend> = match location {
            Location::Sqlite(dir) => Box::new(sqlite::Sqlite::open(dir)?),
            Location::Postgres(url) => Box::new(postgres::Postgres::connect(url)?),
        };
        Ok(Store { backend, location: location.clone(), dir: dir.to_owned(), retention: Retention::default() })
    }

    pub fn set_retention(&mut self, retention: Retention) {
        self.retention = retention;
    }

    /// This machine's state directory (for SQLite, the database's).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The database's journal mode (`wal`); `None` for PostgreSQL.
    pub fn journal_mode(&self) -> Result<Option<String>> {
        self.backend.journal_mode()
    }

    /// Upkeep between writes, for a writer with a moment to spare (the
    /// session recorder's background saves): the SQLite store folds a long
    /// WAL into the database here, so the process's exit need not.
    pub fn tidy(&self) {
        self.backend.tidy();
    }

    fn dialect(&self) -> Dialect {
        self.backend.dialect()
    }

    /// Runs `f` on the connection, each statement on its own.
    fn read<T: Send>(&self, f: impl FnMut(&mut dyn Sql) -> Result<T> + Send) -> Result<T> {
        self.work(false, f)
    }

    /// Runs `f` in one transaction.
    fn transact<T: Send>(&self, f: impl FnMut(&mut dyn Sql) -> Result<T> + Send) -> Result<T> {
        self.work(true, f)
    }

    fn work<T: Send>(&self, transaction: bool, mut f: impl FnMut(&mut dyn Sql) -> Result<T> + Send) -> Result<T> {
        let mut out = None;
        let mut work = |sql: &mut dyn Sql| {
            out = Some(f(sql)?);
            Ok(())
        };
        if transaction {
            self.backend.transaction(&mut work)?;
        } else {
            self.backend.run(&mut work)?;
        }
        Ok(out.expect("the backend returned Ok, so the work ran and succeeded"))
    }

    /// Takes the session's exclusive lock (see [`SessionLock`]).
    pub fn lock_session(&self, session_id: &str) -> Result<SessionLock> {
        self.location.lock(session_id)
    }

    /// Whether a process (this one included) holds the session's lock
    /// right now. A process locking the session at the same moment is not
    /// refused for it.
    pub fn is_locked(&self, session_id: &str) -> bool {
        let held = match &self.location {
            Location::Sqlite(dir) => SessionLock::file_is_held(&dir.join("locks"), session_id),
            Location::Postgres(url) => postgres::is_held(url, session_id),
        };
        held.unwrap_or(false)
    }

    /// Adds a session row (status `running`, no turns yet).
    pub fn create_session(&mut self, new: &NewSession) -> Result<SessionRecord> {
        let now = now_ms();
        self.read(|sql| {
            sql.execute(
                "INSERT INTO sessions (id, parent_id, agent, name, plan_path, plan_hash, working_dir, created_ms, updated_ms, status)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 'running')",
                args![&new.id, new.parent_id.as_deref(), new.agent.as_deref(), new.name.as_deref(), new.plan_path.as_deref(), new.plan_hash.as_deref(), &new.working_dir, now],
            )
        })?;
        self.require(&new.id)
    }

    /// Starts the next turn: counts it, marks the session `running`, and
    /// returns its number (1 for the first).
    pub fn begin_turn(&mut self, session_id: &str) -> Result<u32> {
        let now = now_ms();
        self.transact(|sql| {
            let changed = sql.execute(
                "UPDATE sessions SET turn_count = turn_count + 1, status = 'running', updated_ms = ?2 WHERE id = ?1",
                args![session_id, now],
            )?;
            if changed == 0 {
                return Err(StoreError::NotFound(session_id.to_owned()));
            }
            let row = sql.query_row("SELECT turn_count FROM sessions WHERE id = ?1", args![session_id])?;
            row.ok_or_else(|| StoreError::NotFound(session_id.to_owned()))?.uint(0)
        })
    }

    /// Records that the session now runs with this plan file.
    pub fn update_plan(&mut self, session_id: &str, plan_path: &str, plan_hash: &str) -> Result<()> {
        self.read(|sql| {
            sql.execute(
                "UPDATE sessions SET plan_path = ?2, plan_hash = ?3 WHERE id = ?1",
                args![session_id, plan_path, plan_hash],
            )
        })?;
        Ok(())
    }

    /// Writes messages, events, usage and status in one transaction: after
    /// an error (or a crash) nothing of it is stored.
    pub fn write(&mut self, write: &TurnWrite<'_>) -> Result<()> {
        let retention = self.retention;
        // PostgreSQL: the session's row stays locked until the commit, so
        // two writers of one session take turns (SQLite's transaction locks
        // the whole database). How many messages are stored is the next
        // `seq`: one lookup at the end of the session's key range, where
        // `COUNT(*)` read every stored message at every write.
        let select = self.write_select();
        let bodies = write
            .messages
            .iter()
            .map(|new| serde_json::to_string(new.message).map_err(|err| StoreError::Invalid(err.to_string())))
            .collect::<Result<Vec<String>>>()?;
        let title = write.messages.iter().find(|m| m.message.role == Role::User).map(|m| title_of(m.message));
        self.transact(|sql| {
            let now = now_ms();
            let row = sql.query_row(select, args![write.session_id])?;
            let row = row.ok_or_else(|| StoreError::NotFound(write.session_id.to_owned()))?;
            let mut usage = Usage {
                input_tokens: row.uint(0)?,
                output_tokens: row.uint(1)?,
                total_tokens: row.uint(2)?,
                cost_usd: row.opt_text(3)?,
                ..Usage::default()
            };
            let stored_messages: u64 = row.uint(4)?;
            if write.messages_at > stored_messages {
                return Err(StoreError::Invalid(format!(
                    "session {}: messages written at {} but only {stored_messages} are stored",
                    write.session_id, write.messages_at
                )));
            }
            if let Some(delta) = write.usage {
                usage.accumulate(delta);
            }
            sql.execute(
                WRITE_UPDATE,
                args![
                    write.session_id,
                    now,
                    usage.input_tokens,
                    usage.output_tokens,
                    usage.total_tokens,
                    usage.cost_usd.as_deref(),
                    write.status.map(status_str)
                ],
            )?;
            if write.messages_at < stored_messages {
                sql.execute(
                    "DELETE FROM messages WHERE session_id = ?1 AND seq >= ?2",
                    args![write.session_id, write.messages_at],
                )?;
            }
            let rows: Vec<Arg<'_>> = write
                .messages
                .iter()
                .zip(&bodies)
                .enumerate()
                .flat_map(|(offset, (new, body))| {
                    [
                        (write.messages_at + offset as u64).into(),
                        new.turn.into(),
                        new.message.role.as_str().into(),
                        body.into(),
                    ]
                })
                .collect();
            INSERT_MESSAGES.run(sql, args![write.session_id], &rows)?;
            if let Some(title) = &title {
                sql.execute(WRITE_TITLE, args![write.session_id, title])?;
            }
            let rows: Vec<Arg<'_>> = write
                .events
                .iter()
                .flat_map(|event| [event.name.into(), event.timestamp.into(), event.data.into()])
                .collect();
            INSERT_EVENTS.run(sql, args![write.session_id, write.turn, now], &rows)?;
            if !write.events.is_empty() {
                apply_retention(sql, write.session_id, retention, now)?;
            }
            Ok(())
        })
    }

    /// A write's first statement: the session's usage so far, and the next
    /// message's `seq` (PostgreSQL also locks the session's row).
    fn write_select(&self) -> &'static str {
        self.dialect().pick(
            "SELECT input_tokens, output_tokens, total_tokens, cost_usd,
                    (SELECT COALESCE(MAX(seq) + 1, 0) FROM messages WHERE session_id = ?1)
             FROM sessions WHERE id = ?1",
            "SELECT input_tokens, output_tokens, total_tokens, cost_usd,
                    (SELECT COALESCE(MAX(seq) + 1, 0) FROM messages WHERE session_id = ?1)
             FROM sessions WHERE id = ?1 FOR UPDATE",
        )
    }

    /// Prepares the statements a short [`Store::write`] runs, so that a
    /// session's first write, at the end of its first turn, does not parse
    /// them: a new session's store is opened on a thread beside the
    /// mounting of its modules, which can do this there.
    pub fn prepare_writes(&mut self) -> Result<()> {
        let retention = self.retention;
        let mut texts =
            vec![self.write_select(), WRITE_UPDATE, WRITE_TITLE, INSERT_MESSAGES.one(), INSERT_EVENTS.one()];
        texts.extend(retention.max_age_days.map(|_| DROP_OLD_EVENTS));
        texts.extend(retention.max_events.map(|_| DROP_EXCESS_EVENTS));
        self.read(|sql| texts.iter().try_for_each(|text| sql.prepare(text)))
    }

    /// The session with exactly this id.
    pub fn session(&self, id: &str) -> Result<Option<SessionRecord>> {
        let select = format!("{SELECT_SESSION} WHERE s.id = ?1");
        self.read(|sql| sql.query_row(&select, args![id])?.map(|row| session_from_row(&row)).transpose())
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
        let rows = self.read(|sql| {
            sql.query(
                "SELECT id, CASE WHEN agent IS NULL THEN 1 ELSE 0 END FROM sessions
                 WHERE substr(id, 1, length(?1)) = ?1 ORDER BY updated_ms DESC LIMIT 11",
                args![prefix],
            )?
            .iter()
            .map(|row| Ok((row.text(0)?, row.int(1)? != 0)))
            .collect::<Result<Vec<(String, bool)>>>()
        })?;
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
        let limit = filter.limit.map_or(i64::MAX, |n| i64::try_from(n).unwrap_or(i64::MAX));
        let select = format!(
            "{SELECT_SESSION} WHERE (CAST(?1 AS TEXT) IS NULL OR s.working_dir = ?1) AND s.agent IS NULL
             ORDER BY s.updated_ms DESC, {} DESC LIMIT ?2",
            self.dialect().pick("s.rowid", "s.row_seq")
        );
        self.read(|sql| {
            sql.query(&select, args![filter.working_dir.as_deref(), limit])?.iter().map(session_from_row).collect()
        })
    }

    /// The most recently updated session started in `working_dir`.
    pub fn latest_in(&self, working_dir: &str) -> Result<Option<SessionRecord>> {
        let filter = ListFilter { working_dir: Some(working_dir.to_owned()), limit: Some(1) };
        Ok(self.list(&filter)?.into_iter().next())
    }

    /// The sub-agent sessions `parent_id` spawned, oldest first.
    pub fn sub_agents(&self, parent_id: &str) -> Result<Vec<SessionRecord>> {
        let select = format!(
            "{SELECT_SESSION} WHERE s.parent_id = ?1 AND s.agent IS NOT NULL ORDER BY s.created_ms, {}",
            self.dialect().pick("s.rowid", "s.row_seq")
        );
        self.read(|sql| sql.query(&select, args![parent_id])?.iter().map(session_from_row).collect())
    }

    /// The session's history in order.
    pub fn messages(&self, session_id: &str) -> Result<Vec<StoredMessage>> {
        let rows = self.read(|sql| {
            sql.query("SELECT seq, turn, body FROM messages WHERE session_id = ?1 ORDER BY seq", args![session_id])
        })?;
        rows.iter()
            .map(|row| {
                let seq = row.uint(0)?;
                let message = serde_json::from_str(&row.text(2)?).map_err(|err| {
                    StoreError::Invalid(format!("session {session_id}: message {seq} is not a valid message: {err}"))
                })?;
                Ok(StoredMessage { seq, turn: row.uint(1)?, message })
            })
            .collect()
    }

    /// The session's events in order.
    pub fn events(&self, session_id: &str) -> Result<Vec<StoredEvent>> {
        let rows = self.read(|sql| {
            sql.query(
                r#"SELECT id, turn, name, "timestamp", data FROM events WHERE session_id = ?1 ORDER BY id"#,
                args![session_id],
            )
        })?;
        rows.iter()
            .map(|row| {
                let data = row.text(4)?;
                Ok(StoredEvent {
                    id: row.int(0)?,
                    turn: row.uint(1)?,
                    name: row.text(2)?,
                    timestamp: row.text(3)?,
                    data: serde_json::from_str(&data).unwrap_or(Value::String(data)),
                })
            })
            .collect()
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
        // The totals of the copied turns: the source's, or what their
        // provider responses add up to.
        let usage = if turns == source.turn_count {
            source.usage.clone()
        } else {
            let mut usage = Usage::default();
            for event in self.events(source_id)? {
                if event.turn <= turns && event.name == "provider:response" {
                    if let Some(delta) = event.data.get("usage").and_then(|u| Usage::deserialize(u).ok()) {
                        usage.accumulate(&delta);
                    }
                }
            }
            usage
        };
        let id = uuid::Uuid::new_v4().to_string();
        let now = now_ms();
        let status = if turns == source.turn_count { source.status } else { RunStatus::Completed };
        self.transact(|sql| {
            sql.execute(
                "INSERT INTO sessions (id, parent_id, name, title, plan_path, plan_hash, working_dir, created_ms, updated_ms,
                                       status, turn_count, input_tokens, output_tokens, total_tokens, cost_usd)
                 SELECT CAST(?2 AS TEXT), id, COALESCE(CAST(?3 AS TEXT), name), title, plan_path, plan_hash, working_dir,
                        CAST(?4 AS BIGINT), CAST(?4 AS BIGINT), CAST(?5 AS TEXT), CAST(?6 AS BIGINT),
                        CAST(?7 AS BIGINT), CAST(?8 AS BIGINT), CAST(?9 AS BIGINT), CAST(?10 AS TEXT)
                 FROM sessions WHERE id = ?1",
                args![
                    &source.id,
                    &id,
                    name,
                    now,
                    status_str(status),
                    turns,
                    usage.input_tokens,
                    usage.output_tokens,
                    usage.total_tokens,
                    usage.cost_usd.as_deref()
                ],
            )?;
            sql.execute(
                "INSERT INTO messages (session_id, seq, turn, role, body)
                 SELECT CAST(?2 AS TEXT), seq, turn, role, body FROM messages WHERE session_id = ?1 AND turn <= ?3",
                args![&source.id, &id, turns],
            )?;
            sql.execute(
                r#"INSERT INTO events (session_id, turn, name, "timestamp", stored_ms, data)
                 SELECT CAST(?2 AS TEXT), turn, name, "timestamp", stored_ms, data FROM events
                 WHERE session_id = ?1 AND turn <= ?3 ORDER BY id"#,
                args![&source.id, &id, turns],
            )?;
            Ok(())
        })?;
        self.require(&id)
    }

    /// Deletes a session with its messages, events and sub-agent sessions;
    /// refuses while another process holds it. Returns whether it existed.
    pub fn delete(&mut self, session_id: &str) -> Result<bool> {
        let lock = self.lock_session(session_id)?;
        for child in self.sub_agents(session_id)? {
            self.delete(&child.id)?;
        }
        let deleted = self.read(|sql| sql.execute("DELETE FROM sessions WHERE id = ?1", args![session_id]))? > 0;
        lock.remove();
        Ok(deleted)
    }

    /// Deletes every session not updated for `older_than` (skipping those in
    /// use); returns the ids deleted and the ids skipped because in use.
    pub fn cleanup(&mut self, older_than: Duration) -> Result<(Vec<String>, Vec<String>)> {
        let cutoff = now_ms() - older_than.as_millis().min(i64::MAX as u128) as i64;
        let ids = self.read(|sql| {
            sql.query("SELECT id FROM sessions WHERE updated_ms <= ?1 ORDER BY updated_ms", args![cutoff])?
                .iter()
                .map(|row| row.text(0))
                .collect::<Result<Vec<String>>>()
        })?;
        let (mut deleted, mut skipped) = (Vec::new(), Vec::new());
        for id in ids {
            match self.delete(&id) {
                Ok(_) => deleted.push(id),
                Err(StoreError::Locked { .. }) => skipped.push(id),
                Err(err) => return Err(err),
            }
        }
        if !deleted.is_empty() {
            self.backend.reclaim()?;
        }
        Ok((deleted, skipped))
    }

    /// `ok` for a sound database (SQLite's `PRAGMA integrity_check`;
    /// PostgreSQL's schema version).
    pub fn integrity_check(&self) -> Result<String> {
        self.backend.integrity_check()
    }
}

const SELECT_SESSION: &str =
    "SELECT s.id, s.parent_id, s.agent, s.name, s.title, s.plan_path, s.plan_hash, s.working_dir,
        s.created_ms, s.updated_ms, s.status, s.turn_count,
        (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id),
        (SELECT COUNT(*) FROM events e WHERE e.session_id = s.id),
        s.events_dropped, s.input_tokens, s.output_tokens, s.total_tokens, s.cost_usd
    FROM sessions s";

fn session_from_row(row: &Row) -> Result<SessionRecord> {
    Ok(SessionRecord {
        id: row.text(0)?,
        parent_id: row.opt_text(1)?,
        agent: row.opt_text(2)?,
        name: row.opt_text(3)?,
        title: row.opt_text(4)?,
        plan_path: row.opt_text(5)?,
        plan_hash: row.opt_text(6)?,
        working_dir: row.text(7)?,
        created_ms: row.int(8)?,
        updated_ms: row.int(9)?,
        status: parse_status(&row.text(10)?),
        turn_count: row.uint(11)?,
        message_count: row.uint(12)?,
        event_count: row.uint(13)?,
        events_dropped: row.uint(14)?,
        usage: Usage {
            input_tokens: row.uint(15)?,
            output_tokens: row.uint(16)?,
            total_tokens: row.uint(17)?,
            cost_usd: row.opt_text(18)?,
            ..Usage::default()
        },
    })
}

fn apply_retention(sql: &mut dyn Sql, session_id: &str, retention: Retention, now: i64) -> Result<()> {
    let mut dropped = 0;
    if let Some(days) = retention.max_age_days {
        let cutoff = now - (days as i64).saturating_mul(86_400_000);
        dropped += sql.execute(DROP_OLD_EVENTS, args![session_id, cutoff])?;
    }
    if let Some(max) = retention.max_events {
        dropped += sql.execute(DROP_EXCESS_EVENTS, args![session_id, max])?;
    }
    if dropped > 0 {
        sql.execute(
            "UPDATE sessions SET events_dropped = events_dropped + ?2 WHERE id = ?1",
            args![session_id, dropped],
        )?;
    }
    Ok(())
}

const WRITE_UPDATE: &str =
    "UPDATE sessions SET updated_ms = ?2, input_tokens = ?3, output_tokens = ?4, total_tokens = ?5,
        cost_usd = ?6, status = COALESCE(?7, status)
 WHERE id = ?1";

const WRITE_TITLE: &str = "UPDATE sessions SET title = ?2 WHERE id = ?1 AND title IS NULL";

const DROP_OLD_EVENTS: &str = "DELETE FROM events WHERE session_id = ?1 AND stored_ms < ?2";

const DROP_EXCESS_EVENTS: &str = "DELETE FROM events WHERE session_id = ?1 AND id <= (
    SELECT id FROM events WHERE session_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)";

static INSERT_MESSAGES: LazyLock<MultiInsert> = LazyLock::new(|| {
    MultiInsert::new(
        "INSERT INTO messages (session_id, seq, turn, role, body) VALUES",
        1,
        &[Col::Shared(1), Col::Own(0), Col::Own(1), Col::Own(2), Col::Own(3)],
    )
});

static INSERT_EVENTS: LazyLock<MultiInsert> = LazyLock::new(|| {
    MultiInsert::new(
        r#"INSERT INTO events (session_id, turn, name, "timestamp", stored_ms, data) VALUES"#,
        3,
        &[Col::Shared(1), Col::Shared(2), Col::Own(0), Col::Own(1), Col::Shared(3), Col::Own(2)],
    )
});

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

fn title_of(message: &Message) -> String {
    let text = message.content.text();
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut title: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        title.push('…');
    }
    title
}
