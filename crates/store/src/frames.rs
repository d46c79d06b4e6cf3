//! Served runs' frames (`amplifier serve`'s Server-Sent Events), kept while
//! a run streams and for a while after, so that a client on another worker
//! reads a run that executes elsewhere: an EventSource that reconnects
//! through a load balancer, or a client that follows a thread.
//!
//! One stream per thread (a thread runs one run at a time, under its lock):
//! `run_streams` says which run the thread's stream is and whether it is
//! over; `run_frames` holds its frames as they were sent, numbered as they
//! were. Writes come in batches ([`Store::write_streams`]: a worker writes
//! what all its runs sent since its last transaction in the next). In
//! PostgreSQL each batch also notifies [`FRAMES_CHANNEL`] with the ids of
//! the threads it appended to, a line each, which wakes their readers at once (see
//! [`crate::Location::frame_wakeups`]); SQLite's readers poll.

use crate::sql::{args, Dialect, Row};
use crate::{now_ms, Result, Store};

/// The channel PostgreSQL notifies, with the thread id, on every append.
pub const FRAMES_CHANNEL: &str = "amplifier_frames";

/// The name of the lock a thread's run holds in the store while it runs
/// (see [`crate::Location::lock`]).
pub fn thread_lock_name(thread: &str) -> String {
    format!("{THREAD_LOCK_PREFIX}{thread}")
}

const THREAD_LOCK_PREFIX: &str = "thread-";

/// How long a finished stream's frames are kept (for a client that comes
/// back late to read the end of its run).
const KEEP_CLOSED_MS: i64 = 60 * 60 * 1000;

/// A thread's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamInfo {
    pub thread: String,
    /// The run's correlation id.
    pub run: String,
    /// No frame follows.
    pub closed: bool,
    /// The id of its last frame (0: none yet).
    pub last_id: u64,
}

/// One frame as it went on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFrame {
    pub id: u64,
    pub text: String,
}

const STREAM_COLUMNS: &str = "s.thread_id, s.run_id, s.closed,
    COALESCE((SELECT max(f.id) FROM run_frames f WHERE f.thread_id = s.thread_id), 0)";

/// The digest a stream is found by: of the request body that started its
/// run, which an EventSource sends again when it reconnects.
pub fn request_digest(body: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(body).iter().map(|byte| format!("{byte:02x}")).collect()
}

fn json_text<T: serde::Serialize>(rows: &[T]) -> String {
    serde_json::to_string(rows).expect("strings and numbers serialize")
}

fn stream_info(row: &Row) -> Result<StreamInfo> {
    Ok(StreamInfo { thread: row.text(0)?, run: row.text(1)?, closed: row.int(2)? != 0, last_id: row.uint(3)? })
}

/// A thread's new stream, for [`Store::write_streams`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOpen {
    pub thread: String,
    /// The run's stream id (unique per run).
    pub run: String,
    /// The digest of the request that started the run ([`request_digest`]).
    pub request: String,
    /// The run's prompt (its request as the orchestrator reads it), for a
    /// worker that takes the run over.
    pub prompt: String,
}

/// The session a run's stream belongs to, for [`Store::write_streams`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamSession {
    pub thread: String,
    pub run: String,
    pub session_id: String,
}

/// An open stream no worker holds the thread of (see [`Store::stalled_streams`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StalledStream {
    pub thread: String,
    pub run: String,
    /// The digest of the request that started the run ([`request_digest`]).
    pub request: String,
    /// The run's prompt.
    pub prompt: String,
    /// The session that ran it, once the worker said.
    pub session_id: Option<String>,
    pub last_id: u64,
    /// When the stream last changed (ms since the epoch, the writer's clock).
    pub updated_ms: i64,
}

/// Frames for a thread's stream, for [`Store::write_streams`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamAppend {
    pub thread: String,
    /// Whose frames: nothing is written when the thread's stream is another run's.
    pub run: String,
    /// Ids consecutive, after the last stored.
    pub frames: Vec<StoredFrame>,
    /// No frame follows.
    pub close: bool,
}

/// PostgreSQL's NOTIFY payloads are at most 8,000 bytes.
const NOTIFY_BYTES: usize = 7000;

impl Store {
    /// Starts the `opens` streams (a thread's earlier stream goes, with its
    /// frames), notes the `sessions`, then makes the `appends`, in one
    /// transaction of a few statements however many there are (the rows
    /// travel as JSON).
    pub fn write_streams(
        &self,
        opens: &[StreamOpen],
        sessions: &[StreamSession],
        appends: &[StreamAppend],
    ) -> Result<()> {
        let dialect = self.dialect();
        let opened: Vec<&str> = opens.iter().map(|open| open.thread.as_str()).collect();
        let opened = json_text(&opened);
        let streams = json_text(
            &opens
                .iter()
                .map(|o| serde_json::json!({"t": o.thread, "r": o.run, "q": o.request, "b": o.prompt}))
                .collect::<Vec<_>>(),
        );
        let appended: Vec<&str> = appends.iter().map(|append| append.thread.as_str()).collect();
        let appended_json = json_text(&appended);
        // PostgreSQL plans `= ANY(an array)` as index lookups; an IN over a
        // set-returning function, as a scan of the whole table.
        let threads_in = dialect
            .pick("IN (SELECT value FROM json_each(?1))", "= ANY(ARRAY(SELECT json_array_elements_text(?1::json)))");
        self.transact(|sql| {
            let now = now_ms();
            if !opens.is_empty() {
                sql.execute(&format!("DELETE FROM run_frames WHERE thread_id {threads_in}"), args![&opened])?;
                sql.execute(
                    dialect.pick(
                        "INSERT INTO run_streams (thread_id, run_id, request, prompt, session_id, closed, updated_ms)
                         SELECT json_extract(value, '$.t'), json_extract(value, '$.r'), json_extract(value, '$.q'),
                           json_extract(value, '$.b'), NULL, 0, ?2
                         FROM json_each(?1) WHERE true
                         ON CONFLICT (thread_id) DO UPDATE SET run_id = excluded.run_id, request = excluded.request,
                           prompt = excluded.prompt, session_id = NULL, closed = 0, updated_ms = excluded.updated_ms",
                        "INSERT INTO run_streams (thread_id, run_id, request, prompt, session_id, closed, updated_ms)
                         SELECT t, r, q, b, NULL, 0, ?2 FROM json_to_recordset(?1::json) AS x(t text, r text, q text, b text)
                         ON CONFLICT (thread_id) DO UPDATE SET run_id = excluded.run_id, request = excluded.request,
                           prompt = excluded.prompt, session_id = NULL, closed = 0, updated_ms = excluded.updated_ms",
                    ),
                    args![&streams, now],
                )?;
            }
            for session in sessions {
                sql.execute(
                    "UPDATE run_streams SET session_id = ?3 WHERE thread_id = ?1 AND run_id = ?2",
                    args![&session.thread, &session.run, &session.session_id],
                )?;
            }
            if appends.is_empty() {
                return Ok(());
            }
            // Whose each thread's stream is now: another run's frames are not written.
            let current: Vec<(String, String)> = sql
                .query(
                    &format!(
                        "SELECT thread_id, run_id FROM run_streams WHERE thread_id {threads_in}{}",
                        dialect.pick("", " FOR UPDATE")
                    ),
                    args![&appended_json],
                )?
                .iter()
                .map(|row| Ok((row.text(0)?, row.text(1)?)))
                .collect::<Result<_>>()?;
            let ours = |append: &&StreamAppend| current.iter().any(|(t, r)| *t == append.thread && *r == append.run);
            let live: Vec<&StreamAppend> = appends.iter().filter(ours).collect();
            let frames: Vec<serde_json::Value> = live
                .iter()
                .flat_map(|append| {
                    append.frames.iter().map(|f| serde_json::json!({"t": append.thread, "i": f.id, "f": f.text}))
                })
                .collect();
            if !frames.is_empty() {
                // A batch tried again after a commit whose answer was lost writes nothing twice.
                sql.execute(
                    dialect.pick(
                        "INSERT INTO run_frames (thread_id, id, frame)
                         SELECT json_extract(value, '$.t'), json_extract(value, '$.i'), json_extract(value, '$.f')
                         FROM json_each(?1) WHERE true ON CONFLICT DO NOTHING",
                        "INSERT INTO run_frames (thread_id, id, frame)
                         SELECT t, i, f FROM json_to_recordset(?1::json) AS x(t text, i bigint, f text)
                         ON CONFLICT DO NOTHING",
                    ),
                    args![&json_text(&frames)],
                )?;
            }
            let touched: Vec<&str> = live.iter().map(|append| append.thread.as_str()).collect();
            sql.execute(
                &format!("UPDATE run_streams SET updated_ms = ?2 WHERE thread_id {threads_in}"),
                args![&json_text(&touched), now],
            )?;
            let closing: Vec<&str> = live.iter().filter(|a| a.close).map(|a| a.thread.as_str()).collect();
            if !closing.is_empty() {
                sql.execute(
                    &format!("UPDATE run_streams SET closed = 1 WHERE thread_id {threads_in}"),
                    args![&json_text(&closing)],
                )?;
            }
            if dialect == Dialect::Postgres {
                // Delivered when the transaction commits, so a woken reader
                // finds the frames. The threads' ids, a line each.
                let mut payload = String::new();
                for thread in touched.iter().chain([&""]) {
                    if (thread.is_empty() || payload.len() + thread.len() >= NOTIFY_BYTES) && !payload.is_empty() {
                        sql.execute("SELECT pg_notify(?1, ?2)", args![FRAMES_CHANNEL, &payload])?;
                        payload.clear();
                    }
                    if !payload.is_empty() {
                        payload.push('\n');
                    }
                    payload.push_str(thread);
                }
            }
            Ok(())
        })
    }

    /// Drops the streams that ended more than an hour ago, with their frames.
    pub fn prune_streams(&self) -> Result<()> {
        let expired = now_ms() - KEEP_CLOSED_MS;
        self.transact(|sql| {
            sql.execute(
                "DELETE FROM run_frames WHERE thread_id IN
                   (SELECT thread_id FROM run_streams WHERE closed = 1 AND updated_ms < ?1)",
                args![expired],
            )?;
            sql.execute("DELETE FROM run_streams WHERE closed = 1 AND updated_ms < ?1", args![expired])?;
            Ok(())
        })
    }

    /// The open streams whose thread no worker holds: their worker stopped
    /// (or is just ending them). PostgreSQL leaves out those whose lock is
    /// held; with SQLite the caller finds out by taking the lock.
    pub fn stalled_streams(&self) -> Result<Vec<StalledStream>> {
        // The lock's key as `crate::postgres` computes it, from the lock's name.
        let unheld = match self.dialect() {
            Dialect::Sqlite => String::new(),
            Dialect::Postgres => format!(
                "AND NOT EXISTS (SELECT 1 FROM pg_locks l
                   WHERE l.locktype = 'advisory' AND l.granted
                     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                     AND ((l.classid::bigint << 32) | l.objid::bigint)
                       = hashtextextended('{THREAD_LOCK_PREFIX}' || s.thread_id, 0))"
            ),
        };
        let query = format!(
            "SELECT s.thread_id, s.run_id, s.prompt, s.session_id,
               COALESCE((SELECT max(f.id) FROM run_frames f WHERE f.thread_id = s.thread_id), 0), s.updated_ms,
               s.request
             FROM run_streams s WHERE s.closed = 0 {unheld}"
        );
        self.read(|sql| {
            sql.query(&query, &[])?
                .iter()
                .map(|row| {
                    Ok(StalledStream {
                        thread: row.text(0)?,
                        run: row.text(1)?,
                        prompt: row.text(2)?,
                        session_id: row.opt_text(3)?,
                        last_id: row.uint(4)?,
                        updated_ms: row.int(5)?,
                        request: row.text(6)?,
                    })
                })
                .collect()
        })
    }

    /// The thread's stream, if it has one.
    pub fn stream(&self, thread: &str) -> Result<Option<StreamInfo>> {
        let query = format!("SELECT {STREAM_COLUMNS} FROM run_streams s WHERE s.thread_id = ?1");
        self.read(|sql| sql.query_row(&query, args![thread])?.map(|row| stream_info(&row)).transpose())
    }

    /// The stream a request with the digest `request` started, the newest
    /// if several did.
    pub fn stream_of_request(&self, request: &str) -> Result<Option<StreamInfo>> {
        let query = format!(
            "SELECT {STREAM_COLUMNS} FROM run_streams s WHERE s.request = ?1 ORDER BY s.updated_ms DESC LIMIT 1"
        );
        self.read(|sql| sql.query_row(&query, args![request])?.map(|row| stream_info(&row)).transpose())
    }

    /// At most `limit` frames of the thread's stream of run `run` after id
    /// `after`, in order (none once the thread streams another run).
    pub fn frames_after(&self, thread: &str, run: &str, after: u64, limit: usize) -> Result<Vec<StoredFrame>> {
        self.read(|sql| {
            sql.query(
                "SELECT f.id, f.frame FROM run_frames f JOIN run_streams s ON s.thread_id = f.thread_id
                 WHERE f.thread_id = ?1 AND s.run_id = ?2 AND f.id > ?3 ORDER BY f.id LIMIT ?4",
                args![thread, run, after, limit as u64],
            )?
            .iter()
            .map(|row| Ok(StoredFrame { id: row.uint(0)?, text: row.text(1)? }))
            .collect()
        })
    }
}
