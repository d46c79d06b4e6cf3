//! Per-agent chat histories in the session store, the kernel's
//! [`ChatHistory`] service for routing orchestrators (`history.*` host
//! operations), scoped by a [`Conversation`]: the CLI's `--user` and
//! `--session` (default: the amplifier session's id, so a run without
//! `--session` starts afresh), a served thread's `userId` and `threadId`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use amplifier_kernel::models::{Message, Role};
use amplifier_kernel::services::ChatHistory;
use amplifier_kernel::traits::{BoxFuture, ModuleResult};
use amplifier_kernel::{Coordinator, ModuleError};
use amplifier_store::{AgentScope, Store, StoreError};

use crate::lazy_store::LazyStore;
use crate::{Notice, Notices};

/// The user a history belongs to when `--user` is not given.
pub const DEFAULT_USER: &str = "local";

struct StoreHistory {
    store: Arc<LazyStore>,
    user: String,
    conversation: String,
    notices: Notices,
    /// The store could not be opened, and that was reported.
    reported: AtomicBool,
}

impl StoreHistory {
    fn scope<'a>(&'a self, agent: &'a str) -> AgentScope<'a> {
        AgentScope { user_id: &self.user, conversation_id: &self.conversation, agent_id: agent }
    }

    /// `use_it`'s result on the store. A store that cannot be opened is
    /// reported once; routing then goes on without history.
    fn with<T: Default>(&self, use_it: impl FnOnce(&mut Store) -> Result<T, StoreError>) -> ModuleResult<T> {
        match self.store.with(use_it) {
            Ok(result) => result.map_err(module_error),
            Err(message) => {
                if !self.reported.swap(true, Ordering::Relaxed) {
                    (self.notices)(Notice::Warning(format!("agents will have no history: {message}")));
                }
                Ok(T::default())
            }
        }
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
        let result = self.with(|store| store.agent_history(self.scope(agent), max_messages));
        Box::pin(async move { result })
    }

    fn fetch_all(&self) -> BoxFuture<'_, ModuleResult<Vec<Message>>> {
        let result = self.with(|store| store.conversation_messages(&self.user, &self.conversation));
        Box::pin(async move { result.map(merged_view) })
    }

    fn save<'a>(
        &'a self,
        agent: &'a str,
        messages: Vec<Message>,
        max_messages: Option<usize>,
    ) -> BoxFuture<'a, ModuleResult<()>> {
        let result = self.with(|store| store.save_agent_messages(self.scope(agent), &messages, max_messages));
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

    /// Gives the session per-agent histories for this conversation, kept
    /// in `store`.
    pub(crate) fn attach(&self, coordinator: &Coordinator, store: Arc<LazyStore>, notices: &Notices) {
        let (user, conversation) = self.resolve(coordinator.session_id());
        let history = StoreHistory {
            store,
            user: user.to_owned(),
            conversation: conversation.to_owned(),
            notices: notices.clone(),
            reported: AtomicBool::new(false),
        };
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
