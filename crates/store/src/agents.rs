//! Per-agent chat histories for routing orchestrators (`orchestrator-router`):
//! each agent's own conversation, keyed by (user, conversation, agent), in
//! the `agent_messages` table.
//!
//! A history window counts messages and is applied on fetch and again after
//! a save. It keeps whole exchanges: the window rounds down to an even count
//! (a user/assistant pair is never split) and never starts with anything but
//! a user message, so a turn's tool calls and results stay with it.

use amplifier_protocol::models::{Message, Role};
use rusqlite::{params, TransactionBehavior};

use crate::{now_ms, role_str, Result, Store, StoreError};

/// Whose history: the front end's user and conversation, and the agent.
#[derive(Debug, Clone, Copy)]
pub struct AgentScope<'a> {
    pub user_id: &'a str,
    pub conversation_id: &'a str,
    pub agent_id: &'a str,
}

/// How many of the newest `messages` a window of `max` keeps (all when
/// `None`): at most `max` rounded down to even, starting at a user message.
fn kept_from(messages: &[Message], max: Option<usize>) -> usize {
    let Some(max) = max else { return 0 };
    let window = max - max % 2;
    let mut start = messages.len().saturating_sub(window);
    while start < messages.len() && messages[start].role != Role::User {
        start += 1;
    }
    start
}

/// Trims `messages` to the newest window of `max` (see the module docs).
pub fn trim_history(messages: &mut Vec<Message>, max: Option<usize>) {
    let start = kept_from(messages, max);
    messages.drain(..start);
}

fn decode(body: &str) -> Result<Message> {
    serde_json::from_str(body).map_err(|err| StoreError::Invalid(format!("unreadable agent message: {err}")))
}

impl Store {
    /// The agent's history, oldest first, trimmed to `max_messages`.
    pub fn agent_history(&self, scope: AgentScope<'_>, max_messages: Option<usize>) -> Result<Vec<Message>> {
        let mut messages: Vec<Message> =
            self.agent_rows(scope)?.into_iter().map(|(_, body)| decode(&body)).collect::<Result<_>>()?;
        trim_history(&mut messages, max_messages);
        Ok(messages)
    }

    fn agent_rows(&self, scope: AgentScope<'_>) -> Result<Vec<(i64, String)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT seq, body FROM agent_messages
             WHERE user_id = ?1 AND conversation_id = ?2 AND agent_id = ?3 ORDER BY seq",
        )?;
        let rows = stmt.query_map(params![scope.user_id, scope.conversation_id, scope.agent_id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Appends `messages` to the agent's history and trims it to
    /// `max_messages`, in one transaction. A user message right after
    /// another user message is dropped (agent-squad's same-role rule; only
    /// user messages, since a turn's tool traffic repeats the assistant role),
    /// so the history reads as providers expect.
    pub fn save_agent_messages(
        &mut self,
        scope: AgentScope<'_>,
        messages: &[Message],
        max_messages: Option<usize>,
    ) -> Result<()> {
        let mut history = self.agent_history(scope, None)?;
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO agent_messages (user_id, conversation_id, agent_id, stored_ms, role, body)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let now = now_ms();
            for message in messages {
                let repeats_user = message.role == Role::User && history.last().is_some_and(|m| m.role == Role::User);
                if repeats_user {
                    continue;
                }
                let body = serde_json::to_string(message).map_err(|err| StoreError::Invalid(err.to_string()))?;
                insert.execute(params![
                    scope.user_id,
                    scope.conversation_id,
                    scope.agent_id,
                    now,
                    role_str(message.role),
                    body
                ])?;
                history.push(message.clone());
            }
        }
        let drop = kept_from(&history, max_messages);
        if drop > 0 {
            // The rows are the history in order: drop the oldest `drop`.
            tx.prepare_cached(
                "DELETE FROM agent_messages WHERE seq IN (
                     SELECT seq FROM agent_messages
                     WHERE user_id = ?1 AND conversation_id = ?2 AND agent_id = ?3 ORDER BY seq LIMIT ?4)",
            )?
            .execute(params![scope.user_id, scope.conversation_id, scope.agent_id, drop as i64])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Every agent's history in the conversation, in the order it was stored
    /// (user message before its answer), untrimmed: `(agent id, stored ms, message)`.
    pub fn conversation_messages(&self, user_id: &str, conversation_id: &str) -> Result<Vec<(String, i64, Message)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT agent_id, stored_ms, body FROM agent_messages
             WHERE user_id = ?1 AND conversation_id = ?2 ORDER BY seq",
        )?;
        let rows = stmt.query_map(params![user_id, conversation_id], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?, row.get::<_, String>(2)?))
        })?;
        rows.map(|row| {
            let (agent, ms, body) = row?;
            Ok((agent, ms, decode(&body)?))
        })
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(n: usize) -> Vec<Message> {
        (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    Message::user(format!("q{i}"))
                } else {
                    Message::new(Role::Assistant, format!("a{i}"))
                }
            })
            .collect()
    }

    fn texts(messages: &[Message]) -> Vec<String> {
        messages.iter().map(|m| m.content.text()).collect()
    }

    #[test]
    fn the_window_rounds_down_to_whole_pairs() {
        let mut ten = pairs(10);
        trim_history(&mut ten, Some(5));
        assert_eq!(texts(&ten), ["q6", "a7", "q8", "a9"]);
        for max in [0, 1] {
            let mut all = pairs(10);
            trim_history(&mut all, Some(max));
            assert!(all.is_empty(), "max {max}");
        }
        let mut all = pairs(10);
        trim_history(&mut all, None);
        assert_eq!(all.len(), 10);
    }

    #[test]
    fn saves_append_trim_and_stay_in_their_scope() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let scope = |agent| AgentScope { user_id: "u", conversation_id: "c", agent_id: agent };
        store.save_agent_messages(scope("a"), &pairs(6), Some(4)).unwrap();
        assert_eq!(texts(&store.agent_history(scope("a"), None).unwrap()), ["q2", "a3", "q4", "a5"]);
        // A user message repeating the last role (an unfinished turn) is dropped.
        store.save_agent_messages(scope("a"), &[Message::user("again")], None).unwrap();
        store.save_agent_messages(scope("a"), &[Message::user("again")], None).unwrap();
        assert_eq!(store.agent_history(scope("a"), None).unwrap().len(), 5);
        store.save_agent_messages(scope("b"), &pairs(2), None).unwrap();
        assert_eq!(store.agent_history(scope("b"), Some(100)).unwrap().len(), 2);
        let merged: Vec<String> =
            store.conversation_messages("u", "c").unwrap().into_iter().map(|(a, _, _)| a).collect();
        assert_eq!(merged, ["a", "a", "a", "a", "a", "b", "b"]);
        assert!(store.conversation_messages("u", "other").unwrap().is_empty());
    }

    #[test]
    fn the_window_never_starts_inside_a_turn() {
        // q0 a1 | q2 [assistant calls a tool] [tool result] a3
        let history = vec![
            Message::user("q0"),
            Message::new(Role::Assistant, "a1"),
            Message::user("q2"),
            Message::new(Role::Assistant, "calling"),
            Message::tool_result("call_1", "42"),
            Message::new(Role::Assistant, "a3"),
        ];
        let mut four = history.clone();
        trim_history(&mut four, Some(5));
        assert_eq!(texts(&four), ["q2", "calling", "42", "a3"]);
        let mut two = history;
        trim_history(&mut two, Some(3));
        assert!(two.is_empty(), "half a turn is never kept: {:?}", texts(&two));
    }
}
