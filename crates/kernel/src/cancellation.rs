//! Cooperative cancellation with upstream's two steps: the first request is
//! graceful (running tools finish, their results are paired), the second is
//! immediate (stop now, synthesise cancelled results).

use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CancelState {
    None,
    Graceful,
    Immediate,
}

/// Shared by everything in a session, children included (a child's token is
/// cancelled with its parent's).
#[derive(Clone)]
pub struct CancellationToken {
    state: Arc<watch::Sender<CancelState>>,
    running_tools: Arc<std::sync::Mutex<IndexMap<String, String>>>,
}

impl Default for CancellationToken {
    fn default() -> Self {
        Self::new()
    }
}

impl CancellationToken {
    pub fn new() -> Self {
        CancellationToken { state: Arc::new(watch::channel(CancelState::None).0), running_tools: Arc::default() }
    }

    pub fn state(&self) -> CancelState {
        *self.state.borrow()
    }

    pub fn is_cancelled(&self) -> bool {
        self.state() != CancelState::None
    }

    pub fn is_immediate(&self) -> bool {
        self.state() == CancelState::Immediate
    }

    /// Asks for a graceful stop; returns false when one was already requested.
    pub fn request_graceful(&self) -> bool {
        self.state.send_if_modified(|state| {
            if *state == CancelState::None {
                *state = CancelState::Graceful;
                true
            } else {
                false
            }
        })
    }

    /// Asks for an immediate stop; returns false when already immediate.
    pub fn request_immediate(&self) -> bool {
        self.state.send_if_modified(|state| {
            if *state != CancelState::Immediate {
                *state = CancelState::Immediate;
                true
            } else {
                false
            }
        })
    }

    /// Escalates: graceful first, immediate on the second request (Ctrl-C twice).
    pub fn request(&self) -> CancelState {
        if !self.request_graceful() {
            self.request_immediate();
        }
        self.state()
    }

    /// Back to `None` for the next turn.
    pub fn reset(&self) {
        self.state.send_replace(CancelState::None);
    }

    /// Resolves once the state reaches at least `level`.
    pub async fn reached(&self, level: CancelState) {
        let mut rx = self.state.subscribe();
        // The sender lives as long as `self`, so this can't fail while we wait.
        let _ = rx.wait_for(|state| *state >= level).await;
    }

    /// A token that follows this one: cancelling the parent cancels the child.
    pub fn child(&self) -> CancellationToken {
        let child = CancellationToken::new();
        let mut parent_rx = self.state.subscribe();
        let child_state = child.state.clone();
        child_state.send_replace(*parent_rx.borrow());
        let weak = Arc::downgrade(&child_state);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                while parent_rx.changed().await.is_ok() {
                    let Some(child_state) = weak.upgrade() else { break };
                    let parent = *parent_rx.borrow();
                    child_state.send_if_modified(|state| {
                        let escalate = parent > *state;
                        if escalate {
                            *state = parent;
                        }
                        escalate
                    });
                }
            });
        }
        child
    }

    pub fn register_tool_start(&self, tool_call_id: &str, name: &str) {
        self.running_tools.lock().expect("running tools lock").insert(tool_call_id.to_owned(), name.to_owned());
    }

    pub fn register_tool_complete(&self, tool_call_id: &str) {
        self.running_tools.lock().expect("running tools lock").shift_remove(tool_call_id);
    }

    pub fn running_tool_names(&self) -> Vec<String> {
        self.running_tools.lock().expect("running tools lock").values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escalates_graceful_then_immediate() {
        let token = CancellationToken::new();
        assert_eq!(token.state(), CancelState::None);
        assert_eq!(token.request(), CancelState::Graceful);
        assert!(token.is_cancelled() && !token.is_immediate());
        assert_eq!(token.request(), CancelState::Immediate);
        assert!(!token.request_immediate());
        token.reset();
        assert!(!token.is_cancelled());
    }

    #[tokio::test]
    async fn child_follows_parent() {
        let parent = CancellationToken::new();
        let child = parent.child();
        parent.request_graceful();
        tokio::time::timeout(std::time::Duration::from_secs(1), child.reached(CancelState::Graceful))
            .await
            .expect("child saw the parent's cancellation");
        assert_eq!(child.state(), CancelState::Graceful);
    }

    #[test]
    fn tracks_running_tools() {
        let token = CancellationToken::new();
        token.register_tool_start("c1", "bash");
        token.register_tool_start("c2", "echo");
        token.register_tool_complete("c1");
        assert_eq!(token.running_tool_names(), vec!["echo".to_owned()]);
    }
}
