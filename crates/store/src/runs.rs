//! Run states of plan-driven orchestrators (`orchestrator-plan`): one JSON
//! document per thread, in the `run_states` table, written whole by the
//! `runs.save` host operation and read by `runs.load` and by `amplifier
//! serve`'s `GET /v1/runs/{thread}`. The store owns the file, so no plugin
//! and no front end reads another's private directory.

use rusqlite::{params, OptionalExtension};

use crate::{now_ms, Result, Store};

impl Store {
    /// The thread's stored state, as the JSON text it was saved as.
    pub fn run_state(&self, thread_id: &str) -> Result<Option<String>> {
        let mut stmt = self.conn.prepare_cached("SELECT state FROM run_states WHERE thread_id = ?1")?;
        Ok(stmt.query_row(params![thread_id], |row| row.get(0)).optional()?)
    }

    /// Replaces the thread's state (one statement: a crash keeps the old or the new).
    pub fn save_run_state(&self, thread_id: &str, state: &str) -> Result<()> {
        let mut stmt = self.conn.prepare_cached(
            "INSERT INTO run_states (thread_id, state, updated_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (thread_id) DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms",
        )?;
        stmt.execute(params![thread_id, state, now_ms()])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_replaced_whole_and_read_back_by_another_connection() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.run_state("t1").unwrap(), None);
        store.save_run_state("t1", r#"{"v":1}"#).unwrap();
        store.save_run_state("t1", r#"{"v":2}"#).unwrap();
        store.save_run_state("t2", r#"{"v":9}"#).unwrap();
        let other = Store::open(dir.path()).unwrap();
        assert_eq!(other.run_state("t1").unwrap().as_deref(), Some(r#"{"v":2}"#));
        assert_eq!(other.run_state("t2").unwrap().as_deref(), Some(r#"{"v":9}"#));
    }
}
