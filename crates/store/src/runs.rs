//! Run states of plan-driven orchestrators (`orchestrator-plan`): one JSON
//! document per thread, in the `run_states` table, written whole by the
//! `runs.save` host operation and read by `runs.load` and by `amplifier
//! serve`'s `GET /v1/runs/{thread}`. The store owns the file, so no plugin
//! and no front end reads another's private directory.

use crate::sql::args;
use crate::{now_ms, Result, Store};

impl Store {
    /// The thread's stored state, as the JSON text it was saved as.
    pub fn run_state(&self, thread_id: &str) -> Result<Option<String>> {
        self.read(|sql| {
            sql.query_row("SELECT state FROM run_states WHERE thread_id = ?1", args![thread_id])?
                .map(|row| row.text(0))
                .transpose()
        })
    }

    /// Replaces the thread's state (one statement: a crash keeps the old or the new).
    pub fn save_run_state(&self, thread_id: &str, state: &str) -> Result<()> {
        self.read(|sql| {
            sql.execute(
                "INSERT INTO run_states (thread_id, state, updated_ms) VALUES (?1, ?2, ?3)
                 ON CONFLICT (thread_id) DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms",
                args![thread_id, state, now_ms()],
            )
        })?;
        Ok(())
    }
}
