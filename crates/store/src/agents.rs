//! Per-agent chat histories for routing orchestrators (`orchestrator-router`):
//! each agent's own conversation, keyed by (user, conversation, agent), in
//! the `agent_messages` table.
//!
//! A history window counts messages and is applied on fetch and again after
//! a save. It keeps whole exchanges: the window rounds down to an even count
//! (a user/assistant pair is never split) and never starts with anything but
//! a user message, so a turn's tool calls and results stay with it.

use crate::sql::{args, Dialect, Sql};
use crate::{now_ms, Result, Store, StoreError};
use amplifier_protocol::models::{Message, Role};

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
        let mut messages = self.read(|sql| agent_rows(sql, scope))?;
        trim_history(&mut messages, max_messages);
        Ok(messages)
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
        // PostgreSQL: writers of one history take turns (SQLite's
        // transaction locks the whole database).
        let serialise = (self.dialect() == Dialect::Postgres)
            .then_some("SELECT pg_advisory_xact_lock(hashtextextended(?1 || chr(31) || ?2 || chr(31) || ?3, 1))");
        let now = now_ms();
        self.transact(|sql| {
            if let Some(serialise) = serialise {
                sql.execute(serialise, args![scope.user_id, scope.conversation_id, scope.agent_id])?;
            }
            let mut history = agent_rows(sql, scope)?;
            for message in messages {
                let repeats_user = message.role == Role::User && history.last().is_some_and(|m| m.role == Role::User);
                if repeats_user {
                    continue;
                }
                let body = serde_json::to_string(message).map_err(|err| StoreError::Invalid(err.to_string()))?;
                sql.execute(
                    "INSERT INTO agent_messages (user_id, conversation_id, agent_id, stored_ms, role, body)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    args![scope.user_id, scope.conversation_id, scope.agent_id, now, message.role.as_str(), &body],
                )?;
                history.push(message.clone());
            }
            let drop = kept_from(&history, max_messages);
            if drop > 0 {
                // The rows are the history in order: drop the oldest `drop`.
                sql.execute(
                    "DELETE FROM agent_messages WHERE seq IN (
                         SELECT seq FROM agent_messages
                         WHERE user_id = ?1 AND conversation_id = ?2 AND agent_id = ?3 ORDER BY seq LIMIT ?4)",
                    args![scope.user_id, scope.conversation_id, scope.agent_id, drop as u64],
                )?;
            }
            Ok(())
        })
    }

    /// Every agent's history in the conversation, in the order it was stored
    /// (user message before its answer), untrimmed: `(agent id, stored ms, message)`.
    pub fn conversation_messages(&self, user_id: &str, conversation_id: &str) -> Result<Vec<(String, i64, Message)>> {
        let rows = self.read(|sql| {
            sql.query(
                "SELECT agent_id, stored_ms, body FROM agent_messages
                 WHERE user_id = ?1 AND conversation_id = ?2 ORDER BY seq",
                args![user_id, conversation_id],
            )
        })?;
        rows.iter().map(|row| Ok((row.text(0)?, row.int(1)?, decode(&row.text(2)?)?))).collect()
    }
}

/// The agent's stored history, oldest first.
fn agent_rows(sql: &mut dyn Sql, scope: AgentScope<'_>) -> Result<Vec<Message>> {
    sql.query(
        "SELECT body FROM agent_messages
         WHERE user_id = ?1 AND conversation_id = ?2 AND agent_id = ?3 ORDER BY seq",
        args![scope.user_id, scope.conversation_id, scope.agent_id],
    )?
    .iter()
    .map(|row| decode(&row.text(0)?))
    .collect()
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
