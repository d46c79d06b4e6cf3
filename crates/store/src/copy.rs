//! Copying a store into another (`amplifier store migrate`): SQLite into
//! PostgreSQL when a team outgrows one machine, or back.
//!
//! Each session is copied in one transaction of the target with its
//! messages and events, so an interrupted copy leaves whole sessions, and a
//! second run copies what is missing: a session already in the target is
//! skipped, never overwritten. Event ids are the target's own (in the
//! source's order).

use serde::Serialize;

use crate::sql::{args, Arg, Row, Sql};
use crate::{Result, Store};

/// What a copy did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CopyReport {
    pub sessions: u64,
    /// Sessions the target already had.
    pub sessions_skipped: u64,
    pub messages: u64,
    pub events: u64,
    pub agent_messages: u64,
    pub run_states: u64,
}

const SESSION_COLUMNS: &str = "id, parent_id, agent, name, title, plan_path, plan_hash, working_dir, created_ms, \
     updated_ms, status, turn_count, input_tokens, output_tokens, total_tokens, cost_usd, events_dropped";

fn row_args(row: &Row) -> Vec<Arg<'_>> {
    row.0.iter().map(|value| value.as_arg()).collect()
}

/// `?1, ?2, …, ?n`.
fn placeholders(n: usize) -> String {
    (1..=n).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", ")
}

impl Store {
    /// Copies every session (with its messages and events), every agent
    /// history and every run state that `target` lacks into it.
    pub fn copy_into(&self, target: &Store) -> Result<CopyReport> {
        let mut report = CopyReport::default();
        let sessions =
            self.read(|sql| sql.query(&format!("SELECT {SESSION_COLUMNS} FROM sessions ORDER BY created_ms"), &[]))?;
        let insert_session = format!("INSERT INTO sessions ({SESSION_COLUMNS}) VALUES ({})", placeholders(17));
        for session in &sessions {
            let id = session.text(0)?;
            if target.read(|sql| sql.query_row("SELECT 1 FROM sessions WHERE id = ?1", args![&id]))?.is_some() {
                report.sessions_skipped += 1;
                continue;
            }
            let messages = self.read(|sql| {
                sql.query("SELECT seq, turn, role, body FROM messages WHERE session_id = ?1 ORDER BY seq", args![&id])
            })?;
            let events = self.read(|sql| {
                sql.query(
                    r#"SELECT turn, name, "timestamp", stored_ms, data FROM events WHERE session_id = ?1 ORDER BY id"#,
                    args![&id],
                )
            })?;
            target.transact(|sql| {
                sql.execute(&insert_session, &row_args(session))?;
                for message in &messages {
                    let mut values = vec![Arg::Text(&id)];
                    values.extend(row_args(message));
                    sql.execute(
                        "INSERT INTO messages (session_id, seq, turn, role, body) VALUES (?1, ?2, ?3, ?4, ?5)",
                        &values,
                    )?;
                }
                for event in &events {
                    let mut values = vec![Arg::Text(&id)];
                    values.extend(row_args(event));
                    sql.execute(
                        r#"INSERT INTO events (session_id, turn, name, "timestamp", stored_ms, data)
                           VALUES (?1, ?2, ?3, ?4, ?5, ?6)"#,
                        &values,
                    )?;
                }
                Ok(())
            })?;
            report.sessions += 1;
            report.messages += messages.len() as u64;
            report.events += events.len() as u64;
        }
        report.agent_messages = self.copy_agent_messages(target)?;
        let states = self.read(|sql| sql.query("SELECT thread_id, state, updated_ms FROM run_states", &[]))?;
        for state in &states {
            report.run_states += target.read(|sql| {
                sql.execute(
                    "INSERT INTO run_states (thread_id, state, updated_ms) VALUES (?1, ?2, ?3)
                     ON CONFLICT (thread_id) DO NOTHING",
                    &row_args(state),
                )
            })?;
        }
        Ok(report)
    }

    /// The agent histories whose scope the target has no message of.
    fn copy_agent_messages(&self, target: &Store) -> Result<u64> {
        let rows = self.read(|sql| {
            sql.query(
                "SELECT user_id, conversation_id, agent_id, stored_ms, role, body FROM agent_messages ORDER BY seq",
                &[],
            )
        })?;
        let mut copied = 0;
        let mut scopes: Vec<(String, String, String, bool)> = Vec::new();
        target.transact(|sql: &mut dyn Sql| {
            for row in &rows {
                let scope = (row.text(0)?, row.text(1)?, row.text(2)?);
                let known = scopes.iter().find(|(u, c, a, _)| (u, c, a) == (&scope.0, &scope.1, &scope.2));
                let copy = match known {
                    Some((_, _, _, copy)) => *copy,
                    None => {
                        let copy = sql
                            .query_row(
                                "SELECT 1 FROM agent_messages WHERE user_id = ?1 AND conversation_id = ?2 AND agent_id = ?3",
                                args![&scope.0, &scope.1, &scope.2],
                            )?
                            .is_none();
                        scopes.push((scope.0, scope.1, scope.2, copy));
                        copy
                    }
                };
                if copy {
                    sql.execute(
                        "INSERT INTO agent_messages (user_id, conversation_id, agent_id, stored_ms, role, body)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        &row_args(row),
                    )?;
                    copied += 1;
                }
            }
            Ok(())
        })?;
        Ok(copied)
    }
}
