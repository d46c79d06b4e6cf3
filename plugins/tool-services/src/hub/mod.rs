//! The hub: services, their tools and their tasks.
//!
//! It knows nothing of the amplifier host (it reaches it through [`HubHost`])
//! nor of sockets (the server feeds it each connection's text frames and
//! drains each connection's outgoing queue), so all of it can be tested
//! in-process.
//!
//! Invariants:
//! - every call gets exactly one answer: a result, the service's error, or a
//!   failure of ours (`TIMEOUT`, `SERVICE_DISCONNECTED`, `BUSY`, …); a task is
//!   removed from the table by whoever answers it, under the state lock;
//! - a service never has more than `max_concurrent_tasks` tasks sent to it and
//!   unanswered; extra calls wait in a bounded FIFO queue;
//! - host mounts and unmounts happen one at a time, in the order the state
//!   changed (the `mounting` lock), so a quick register/disconnect can't
//!   leave tools mounted.
//!
//! The registry (services, tool routes), the tasks (the table, each
//! service's slots and queue) and the connections (outgoing queues,
//! heartbeats) live in separate files but one `State` under one lock:
//! registering, a status change or a disconnect changes all three at once.

mod connection;
mod registry;
mod tasks;

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use amplifier_sdk::{ToolResult, ToolSpec};
use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::sync::watch;

use crate::wire::code;
use connection::{Conn, ConnId};
pub use connection::{ConnectionHandle, Outgoing};
use registry::Service;
use tasks::Task;

/// The hub's limits (the plugin's config, whose defaults are `amplifier.toml`'s).
#[derive(Debug, Clone)]
pub struct HubConfig {
    /// Tasks sent to one service and not yet answered.
    pub max_concurrent_tasks: usize,
    /// Calls waiting for a free slot, per service; more are refused with `BUSY`.
    pub max_queued_tasks: usize,
    /// How long a call may take, queueing included, before it fails with `TIMEOUT`.
    pub task_timeout: Duration,
    /// How often the hub pings; a service that hasn't answered the previous ping is `inactive`.
    pub heartbeat_interval: Duration,
    /// Consecutive missed pongs after which the connection is closed.
    pub heartbeat_max_missed: u32,
    /// The largest frame or message a service may send.
    pub max_message_bytes: usize,
    /// The shared secret a connection must present, if any.
    pub token: Option<String>,
    /// A call's priority when neither the call (`_meta.priority`) nor
    /// `priorities` gives one.
    pub priority: Priority,
    /// Priorities by tool name or service id.
    pub priorities: HashMap<String, Priority>,
}

/// How urgent a call is: its place in its service's queue (higher first,
/// FIFO within a priority), and `metadata.priority` of the task.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    Low,
    #[default]
    Normal,
    High,
}

impl Priority {
    pub fn parse(text: &str) -> Option<Priority> {
        match text {
            "low" => Some(Priority::Low),
            "normal" => Some(Priority::Normal),
            "high" => Some(Priority::High),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Priority::Low => "low",
            Priority::Normal => "normal",
            Priority::High => "high",
        }
    }
}

/// What the hub needs from the sessions it serves: mounting tools and
/// emitting events.
pub trait HubHost: Send + Sync + 'static {
    fn mount_tools(&self, tools: Vec<ToolSpec>) -> BoxFuture<'static, Result<(), String>>;
    fn unmount_tools(&self, names: Vec<String>) -> BoxFuture<'static, Result<(), String>>;
    fn emit(&self, event: &str, data: Value) -> BoxFuture<'static, ()>;
}

/// Who a call comes from: `agent_id` goes out as the task's
/// `metadata.agentId`; a calling session (`host`) hears the task's
/// notifications (else the hub's sessions do).
#[derive(Clone)]
pub struct Caller {
    pub agent_id: String,
    pub host: Option<Arc<dyn HubHost>>,
}

/// Events the hub emits.
pub mod events {
    pub const LISTENING: &str = "services:listening";
    pub const REGISTERED: &str = "service:registered";
    pub const STATUS: &str = "service:status";
    pub const NOTIFICATION: &str = "service:notification";
    pub const ERROR: &str = "service:error";
    pub const DISCONNECTED: &str = "service:disconnected";
}

#[derive(Default)]
struct State {
    services: HashMap<String, Service>,
    /// Mounted tool name → (service id, function name).
    routes: HashMap<String, (String, String)>,
    tasks: HashMap<String, Task>,
    conns: HashMap<ConnId, Conn>,
    shutting_down: bool,
}

/// The service hub.
pub struct Hub {
    config: HubConfig,
    host: Arc<dyn HubHost>,
    state: Mutex<State>,
    /// Serialises host mounts/unmounts with the state changes behind them.
    mounting: tokio::sync::Mutex<()>,
    /// Bumped whenever a service becomes (un)available; `services_wait` watches it.
    changed: watch::Sender<u64>,
    shutdown: watch::Sender<bool>,
    next_conn: AtomicU64,
    agent_id: OnceLock<String>,
    address: OnceLock<String>,
}

impl Hub {
    pub fn new(config: HubConfig, host: Arc<dyn HubHost>) -> Arc<Hub> {
        Arc::new(Hub {
            config,
            host,
            state: Mutex::default(),
            mounting: tokio::sync::Mutex::new(()),
            changed: watch::Sender::new(0),
            shutdown: watch::Sender::new(false),
            next_conn: AtomicU64::new(1),
            agent_id: OnceLock::new(),
            address: OnceLock::new(),
        })
    }

    pub fn config(&self) -> &HubConfig {
        &self.config
    }

    /// Sent as `metadata.agentId` with every task (the session id).
    pub fn set_agent_id(&self, agent_id: String) {
        let _ = self.agent_id.set(agent_id);
    }

    /// Where the server listens (`ws://…`), for listings.
    pub fn set_address(&self, address: String) {
        let _ = self.address.set(address);
    }

    pub fn is_shutting_down(&self) -> bool {
        self.lock().shutting_down
    }

    /// Mounts the tools of every service mounted so far in a session that
    /// joins now, in order with the mounts and unmounts of registrations.
    /// `join` runs under the same lock, so the session sees each later
    /// change.
    pub async fn mount_current(&self, host: &dyn HubHost, join: impl FnOnce()) -> Result<(), String> {
        let _mounting = self.mounting.lock().await;
        let specs = self.mounted_specs();
        join();
        if specs.is_empty() {
            return Ok(());
        }
        host.mount_tools(specs).await
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn bump(&self) {
        self.changed.send_modify(|version| *version += 1);
    }

    /// Resolves once [`Hub::shutdown`] was called.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Stops the hub: fails every pending task, closes every connection and
    /// tells the server to stop accepting. Idempotent.
    pub fn shutdown(&self) {
        {
            let mut st = self.lock();
            if st.shutting_down {
                return;
            }
            st.shutting_down = true;
            for (_, task) in st.tasks.drain() {
                let _ =
                    task.done.send(ToolResult::failed_call(code::SHUTDOWN, "the service hub stopped (session end)"));
            }
            for conn in st.conns.values() {
                let _ =
                    conn.tx.send(Outgoing::Close { code: 1001, reason: "the orchestrator is shutting down".into() });
                conn.kicked.notify_one();
            }
        }
        self.shutdown.send_replace(true);
        self.bump();
    }
}
