//! The child sessions of one session (the kernel's [`SessionSpawner`]):
//! started from the plan's agent overlays (`crate::spawn`), resumable by
//! id for the parent's lifetime, ended at its cleanup.

use std::sync::{Arc, Weak};

use indexmap::IndexMap;
use serde_json::Value;

use super::{Session, SessionObserver, SessionOptions};
use crate::coordinator::Coordinator;
use crate::errors::{ErrorKind, ModuleError};
use crate::hooks::{HookEvent, HookHandler};
use crate::loading::ModuleLoader;
use crate::models::{HookResult, JsonMap, Message};
use crate::ops::{AgentTurn, AgentTurnResult, SpawnRequest, SpawnResult};
use crate::services::SessionSpawner;
use crate::spawn::{agent_plan, child_session_id};
use crate::{BoxFuture, ModuleResult, StreamSink};

pub(crate) struct ChildSpawner {
    parent: Weak<Coordinator>,
    loader: Arc<dyn ModuleLoader>,
    observers: Vec<Arc<dyn SessionObserver>>,
    children: tokio::sync::Mutex<IndexMap<String, Arc<Session>>>,
}

impl ChildSpawner {
    pub(crate) fn new(
        parent: &Arc<Coordinator>,
        loader: Arc<dyn ModuleLoader>,
        observers: Vec<Arc<dyn SessionObserver>>,
    ) -> Arc<Self> {
        let parent = Arc::downgrade(parent);
        Arc::new(ChildSpawner { parent, loader, observers, children: tokio::sync::Mutex::default() })
    }

    /// Ends every child session (at the parent's cleanup), newest first.
    /// Boxed: a child's cleanup ends its own children, recursively.
    pub(crate) fn cleanup_children(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let children: Vec<Arc<Session>> = self.children.lock().await.drain(..).map(|(_, s)| s).collect();
            for child in children.into_iter().rev() {
                child.cleanup().await;
            }
        })
    }

    async fn run(&self, request: SpawnRequest) -> ModuleResult<SpawnResult> {
        let parent = self.parent.upgrade().ok_or_else(|| ModuleError::unsupported("the parent session has ended"))?;
        if let Some(id) = &request.session_id {
            let child = self.children.lock().await.get(id).cloned().ok_or_else(|| {
                ModuleError::new(
                    ErrorKind::NotFound,
                    format!(
                        "no child session '{id}' in this session (children are resumable for the parent's lifetime)"
                    ),
                )
            })?;
            let response = child.execute(&request.instruction).await.map_err(|e| agent_error(&request.agent, e))?;
            return Ok(SpawnResult { response, session_id: id.clone() });
        }

        let (child, session_id) = self.start_child(&parent, &request).await?;
        self.children.lock().await.insert(session_id.clone(), child.clone());
        let response = child.execute(&request.instruction).await.map_err(|e| agent_error(&request.agent, e))?;
        Ok(SpawnResult { response, session_id })
    }

    /// A fresh child session for `request.agent`, initialized, its context
    /// holding the agent's system instruction.
    async fn start_child(
        &self,
        parent: &Arc<Coordinator>,
        request: &SpawnRequest,
    ) -> ModuleResult<(Arc<Session>, String)> {
        let overlay = parent.plan().agents.get(&request.agent).ok_or_else(|| {
            let known: Vec<&str> = parent.plan().agents.keys().map(String::as_str).collect();
            ModuleError::new(
                ErrorKind::NotFound,
                format!("no agent '{}' in the plan's `agents:` (known: {})", request.agent, known.join(", ")),
            )
        })?;
        let plan = agent_plan(parent.plan(), &request.agent, overlay, request)
            .map_err(|err| ModuleError::new(ErrorKind::InvalidRequest, err.to_string()))?;
        let session_id = child_session_id(parent.session_id(), &request.agent);
        let mut metadata = JsonMap::new();
        metadata.insert("agent".into(), Value::String(request.agent.clone()));
        let child = Arc::new(Session::new(
            plan,
            self.loader.clone(),
            SessionOptions {
                session_id: Some(session_id.clone()),
                parent_id: Some(parent.session_id().to_owned()),
                metadata: Some(metadata),
                depth: parent.depth() + 1,
                cancellation: Some(parent.cancellation().child()),
                observers: self.observers.clone(),
                ..SessionOptions::default()
            },
        ));
        parent.share_front_end_with(child.coordinator());
        let report = child.initialize().await.map_err(|e| agent_error(&request.agent, e))?;
        if !report.failures.is_empty() {
            let failures: Vec<String> = report.failures.iter().map(ToString::to_string).collect();
            child.cleanup().await;
            return Err(ModuleError::internal(format!(
                "agent '{}': {} module(s) failed to load: {}",
                request.agent,
                failures.len(),
                failures.join("; ")
            )));
        }
        if let Some(instruction) = overlay.pointer("/system/instruction").and_then(Value::as_str) {
            child.coordinator().add_message(Message::system(instruction)).await?;
        }
        Ok((child, session_id))
    }

    async fn agent_turn(&self, turn: AgentTurn, observer: Option<StreamSink>) -> ModuleResult<AgentTurnResult> {
        let parent = self.parent.upgrade().ok_or_else(|| ModuleError::unsupported("the parent session has ended"))?;
        let request = SpawnRequest { agent: turn.agent, instruction: turn.instruction, ..SpawnRequest::default() };
        let (child, session_id) = self.start_child(&parent, &request).await?;
        self.children.lock().await.insert(session_id.clone(), child.clone());
        let coordinator = child.coordinator();
        if let Some(sink) = observer {
            // Last, so the observer sees what the child's own hooks left.
            coordinator.hooks().register("*", Arc::new(ForwardEvents(sink)), i32::MAX, "agent-turn-observer");
        }
        for message in turn.history {
            coordinator.add_message(message).await?;
        }
        let seeded = coordinator.get_messages().await?.len();
        let response = child.execute(&request.instruction).await.map_err(|e| agent_error(&request.agent, e))?;
        let mut messages = coordinator.get_messages().await?;
        Ok(AgentTurnResult { response, session_id, messages: messages.split_off(seeded.min(messages.len())) })
    }
}

/// Passes a child's events to whoever asked for its turn.
struct ForwardEvents(StreamSink);

impl HookHandler for ForwardEvents {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        (self.0)(serde_json::json!({"event": event.name, "data": event.data}));
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

impl SessionSpawner for ChildSpawner {
    fn spawn(&self, request: SpawnRequest) -> BoxFuture<'_, ModuleResult<SpawnResult>> {
        Box::pin(self.run(request))
    }

    fn agent_turn(
        &self,
        turn: AgentTurn,
        observer: Option<StreamSink>,
    ) -> BoxFuture<'_, ModuleResult<AgentTurnResult>> {
        Box::pin(self.agent_turn(turn, observer))
    }
}

fn agent_error(agent: &str, err: impl std::fmt::Display) -> ModuleError {
    ModuleError::internal(format!("agent '{agent}' failed: {err}"))
}
