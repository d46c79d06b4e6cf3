//! Per-agent chat histories in the session store, the kernel's
//! [`ChatHistory`] service for routing orchestrators (`history.*` host
//! operations), scoped by a [`Conversation`]: the CLI's `--user` and
//! `--session` (default: the amplifier session's id, so a run without
//! `--session` starts afresh), a served thread's `userId` and `threadId`.

use std::sync::{Arc, Mutex};

use amplifier_kernel::models::{Message, Role};
use amplifier_kernel::services::ChatHistory;
use amplifier_kernel::traits::{BoxFuture, ModuleResult};
use amplifier_kernel::{Coordinator, ModuleError};
use amplifier_store::{AgentScope, Store, StoreError};

use crate::{Notice, Notices, StoreConfig};

/// The user a history belongs to when `--user` is not given.
pub const DEFAULT_USER: &str = "local";

struct StoreHistory {
    store: Mutex<Store>,
    user: String,
    conversation: String,
}

impl StoreHistory {
    fn scope<'a>(&'a self, agent: &'a str) -> AgentScope<'a> {
        AgentScope { user_id: &self.user, conversation_id: &self.conversation, agent_id: agent }
    }

    fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        // A panic while holding the lock left no half-written transaction
        // (SQLite rolled it back), so the store is still usable.
        self.store.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn module_error(err: StoreError) -> ModuleError {
    ModuleError::internal(err.to_string())
}

/// The classifier's view: user and assistant texts of every agent in the
/// order they were stored, each assistant text prefixed with its agent.
pub fn merged_view(stored: Vec<(String, i64, Message)>) -> Vec<Message> {
    stored
        .into_iter()
        .filter_map(|(agent, _, message)| {
            let text = message.content.text();
            match message.role {
                Role::User if !text.is_empty() => Some(Message::user(text)),
                Role::Assistant if !text.is_empty() => Some(Message::new(Role::Assistant, format!("[{agent}] {text}"))),
                _ => None,
            }
        })
        .collect()
}

impl ChatHistory for StoreHistory {
    fn fetch<'a>(&'a self, agent: &'a str, max_messages: Option<usize>) -> BoxFuture<'a, ModuleResult<Vec<Message>>> {
        let result = self.store().agent_history(self.scope(agent), max_messages).map_err(module_error);
        Box::pin(async move { result })
    }

    fn fetch_all(&self) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        let result = self.store().conversation_messages(&self.user, &self.conversation).map_err(module_error);
        Box::pin(async move { result.map(merged_view) })
    }

    fn save<'a>(
        &'a self,
        agent: &'a str,
        messages: Vec<Message>,
        max_messages: Option<usize>,
    ) -> BoxFuture<'a, ModuleResult<()>> {
        let result = self.store().save_agent_messages(self.scope(agent), &messages, max_messages).map_err(module_error);
        Box::pin(async move { result })
    }
}

/// Whose turns these are: the scope of a routing orchestrator's per-agent
/// histories and of the trace spans plugins open (`--user`, `--session`).
#[derive(Clone, Debug, Default)]
pub struct Conversation {
    /// Default: [`DEFAULT_USER`].
    pub user: Option<String>,
    /// Default: the amplifier session's id, a fresh conversation.
    pub id: Option<String>,
}

impl Conversation {
    /// The user and conversation ids of a session with this scope.
    pub fn resolve<'a>(&'a self, session_id: &'a str) -> (&'a str, &'a str) {
        (self.user.as_deref().unwrap_or(DEFAULT_USER), self.id.as_deref().unwrap_or(session_id))
    }

    /// Gives the session per-agent histories for this conversation. A
    /// store that cannot be opened is reported; routing then goes on
    /// without history.
    pub(crate) fn attach(&self, coordinator: &Coordinator, config: &StoreConfig, notices: &Notices) {
        let (user, conversation) = self.resolve(coordinator.session_id());
        let store = match config.open() {
            Ok(store) => store,
            Err(message) => {
                notices(Notice::Warning(format!("agents will have no history: {message}")));
                return;
            }
        };
        let history =
            StoreHistory { store: Mutex::new(store), user: user.to_owned(), conversation: conversation.to_owned() };
        coordinator.set_chat_history(Arc::new(history));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_merged_view_attributes_answers_and_skips_tool_traffic() {
        let stored = vec![
            ("support".to_owned(), 1, Message::user("hi")),
            ("support".to_owned(), 1, Message::new(Role::Assistant, "hello")),
            ("billing".to_owned(), 2, Message::user("refund?")),
            ("billing".to_owned(), 2, Message::new(Role::Assistant, "")),
            ("billing".to_owned(), 2, Message::tool_result("call_1", "ok")),
            ("billing".to_owned(), 2, Message::new(Role::Assistant, "done")),
        ];
        let texts: Vec<(Role, String)> = merged_view(stored).iter().map(|m| (m.role, m.content.text())).collect();
        assert_eq!(
            texts,
            [
                (Role::User, "hi".to_owned()),
                (Role::Assistant, "[support] hello".to_owned()),
                (Role::User, "refund?".to_owned()),
                (Role::Assistant, "[billing] done".to_owned()),
            ]
        );
    }
}
