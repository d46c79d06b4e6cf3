//! A connection's life: the welcome, frames in and out, heartbeats, the disconnect.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde_json::json;
use tokio::sync::{mpsc, Notify};

use super::tasks::{answer_all, take_tasks};
use super::{events, Hub};
use crate::wire::{self, code, inbound, out, Inbound};

pub type ConnId = u64;

/// What the server writes to a connection.
#[derive(Debug, Clone, PartialEq)]
pub enum Outgoing {
    Text(String),
    /// A close frame; the connection ends after it.
    Close {
        code: u16,
        reason: String,
    },
}

/// A new connection's end of the hub: its id, its outgoing frames, and a
/// signal that the hub wants it closed (take-over, heartbeat, shutdown).
pub struct ConnectionHandle {
    pub id: ConnId,
    pub outgoing: mpsc::UnboundedReceiver<Outgoing>,
    pub kicked: Arc<Notify>,
}

pub(super) struct Conn {
    pub(super) tx: mpsc::UnboundedSender<Outgoing>,
    pub(super) kicked: Arc<Notify>,
    pub(super) service: Option<String>,
    peer: String,
    awaiting_pong: bool,
    missed: u32,
}

impl Hub {
    /// Registers a new connection and queues its `orchestrator.welcome`.
    pub fn connect(&self, peer: &str) -> ConnectionHandle {
        let id = self.next_conn.fetch_add(1, Ordering::Relaxed);
        let (tx, outgoing) = mpsc::unbounded_channel();
        let kicked = Arc::new(Notify::new());
        let welcome = wire::frame(
            out::WELCOME,
            None,
            json!({
                "version": wire::PROTOCOL_VERSION,
                "message": "Welcome to Agent Swarm Protocol",
                "config": {
                    "maxConcurrentTasks": self.config.max_concurrent_tasks,
                    "heartbeatInterval": self.config.heartbeat_interval.as_millis() as u64,
                    "taskTimeout": self.config.task_timeout.as_millis() as u64,
                    "maxMessageSize": self.config.max_message_bytes,
                },
            }),
        );
        let _ = tx.send(Outgoing::Text(welcome));
        let mut st = self.lock();
        if st.shutting_down {
            let _ = tx.send(Outgoing::Close { code: 1001, reason: "the orchestrator is shutting down".into() });
            kicked.notify_one();
        }
        st.conns.insert(
            id,
            Conn { tx, kicked: kicked.clone(), service: None, peer: peer.to_owned(), awaiting_pong: false, missed: 0 },
        );
        tracing::debug!(conn = id, peer, "service connection opened");
        ConnectionHandle { id, outgoing, kicked }
    }

    pub(super) fn send(&self, conn: ConnId, text: String) {
        if let Some(c) = self.lock().conns.get(&conn) {
            let _ = c.tx.send(Outgoing::Text(text));
        }
    }

    /// Sends an `error` frame to a connection.
    pub fn send_error(&self, conn: ConnId, code: &str, message: &str, request_id: Option<&str>) {
        tracing::debug!(conn, code, message, "error frame to a service");
        self.send(conn, wire::error_frame(code, message, request_id, None));
    }

    /// Sends an `error` frame, then closes the connection with `close_code`.
    pub fn close_with_error(&self, conn: ConnId, code: &str, message: &str, close_code: u16) {
        if let Some(c) = self.lock().conns.get(&conn) {
            let _ = c.tx.send(Outgoing::Text(wire::error_frame(code, message, None, None)));
            let _ = c.tx.send(Outgoing::Close { code: close_code, reason: code.to_owned() });
        }
    }

    /// One text frame from a connection. Never fails: problems are answered
    /// with `error` frames and the connection stays open.
    pub async fn handle_text(self: &Arc<Self>, conn: ConnId, text: &str) {
        let msg = match wire::parse(text) {
            Ok(msg) => msg,
            Err((code, message, request_id)) => {
                tracing::debug!(conn, code, %message, "unreadable frame from a service");
                return self.send(conn, wire::error_frame(code, &message, request_id.as_deref(), None));
            }
        };
        let request_id = msg.id.as_deref();
        match msg.kind.as_str() {
            inbound::REGISTER => self.register(conn, &msg).await,
            inbound::TASK_RESULT => self.task_result(conn, &msg),
            inbound::TASK_REQUEST => self.task_request(conn, &msg),
            inbound::TASK_NOTIFICATION | inbound::NOTIFICATION => self.notification(conn, &msg).await,
            inbound::STATUS | inbound::STATUS_ALIAS => self.status(conn, &msg).await,
            inbound::ERROR => self.service_error(conn, &msg).await,
            inbound::PING => self.send(conn, wire::frame(out::PONG, request_id, json!({"timestamp": wire::now()}))),
            inbound::PONG => self.pong(conn).await,
            other => {
                let message = format!("Unsupported message type: {other}");
                self.send(conn, wire::error_frame(code::UNSUPPORTED_MESSAGE_TYPE, &message, request_id, None));
            }
        }
    }

    /// The service registered on `conn`, or an `error` frame saying it must register first.
    pub(super) fn registered_service(&self, conn: ConnId, msg: &Inbound) -> Option<String> {
        let service = self.lock().conns.get(&conn).and_then(|c| c.service.clone());
        if service.is_none() {
            let message = format!("'{}' before service.register: register first", msg.kind);
            self.send(conn, wire::error_frame(code::NOT_REGISTERED, &message, msg.id.as_deref(), None));
        }
        service
    }

    /// One heartbeat tick: counts a missed pong, marks the service inactive
    /// after the first, pings again. False: too many missed, close it.
    pub async fn heartbeat(&self, conn: ConnId) -> bool {
        let lost = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.get_mut(&conn) else { return false };
            if c.awaiting_pong {
                c.missed += 1;
            }
            if c.missed >= self.config.heartbeat_max_missed {
                tracing::warn!(conn, peer = %c.peer, service = ?c.service, missed = c.missed, "no pong: closing the service connection");
                let _ = c.tx.send(Outgoing::Close { code: 1000, reason: "heartbeat lost".into() });
                return false;
            }
            c.awaiting_pong = true;
            let _ = c.tx.send(Outgoing::Text(wire::frame(out::PING, None, json!({"timestamp": wire::now()}))));
            let service = c.service.clone().filter(|_| c.missed == 1);
            match service {
                Some(service) => {
                    match st.services.get_mut(&service).filter(|s| s.conn == Some(conn) && !s.heartbeat_lost) {
                        Some(svc) => {
                            svc.heartbeat_lost = true;
                            self.settle(st, &service);
                            Some(service)
                        }
                        None => None,
                    }
                }
                None => None,
            }
        };
        if let Some(service) = lost {
            tracing::warn!(service = %service, "no pong within the heartbeat interval: service marked inactive");
            self.bump();
            let message = "no pong within the heartbeat interval";
            let data = json!({"service": service, "status": "inactive", "message": message, "available": false});
            self.host.emit(events::STATUS, data).await;
        }
        true
    }

    async fn pong(&self, conn: ConnId) {
        let back = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.get_mut(&conn) else { return };
            c.awaiting_pong = false;
            c.missed = 0;
            let service = c.service.clone();
            match service.and_then(|s| st.services.get_mut(&s).filter(|s| s.conn == Some(conn) && s.heartbeat_lost)) {
                Some(svc) => {
                    svc.heartbeat_lost = false;
                    let (id, status, available) = (svc.id.clone(), svc.status, svc.available());
                    self.settle(st, &id);
                    Some((id, status, available))
                }
                None => None,
            }
        };
        if let Some((service, status, available)) = back {
            tracing::info!(service = %service, "heartbeat answered again");
            self.bump();
            let data = json!({"service": service, "status": status.as_str(), "message": "heartbeat answered", "available": available});
            self.host.emit(events::STATUS, data).await;
        }
    }

    /// The connection is gone: its service's pending tasks fail now, its
    /// tools are unmounted, and it shows as inactive.
    pub async fn disconnect(&self, conn: ConnId) {
        let _mounting = self.mounting.lock().await;
        let (service, names, failed) = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.remove(&conn) else { return };
            tracing::debug!(conn, peer = %c.peer, "service connection closed");
            let Some(service) = c.service else { return };
            let Some(svc) = st.services.get_mut(&service).filter(|s| s.conn == Some(conn)) else { return };
            svc.conn = None;
            svc.mounted = false;
            svc.running = 0;
            svc.queue.clear();
            let names: Vec<String> =
                st.routes.iter().filter(|(_, (owner, _))| *owner == service).map(|(name, _)| name.clone()).collect();
            for name in &names {
                st.routes.remove(name);
            }
            // Out of the table now (nobody else answers them), answered once
            // the tools are unmounted: a caller that goes on to its next
            // model request must not be offered them any more.
            let failed = take_tasks(st, |t| t.service == service);
            (service, names, failed)
        };
        self.bump();
        if !names.is_empty() {
            if let Err(err) = self.host.unmount_tools(names.clone()).await {
                tracing::debug!(service = %service, error = %err, "could not unmount the service's tools");
            }
        }
        let reason = format!("service '{service}' disconnected before answering");
        let failed = answer_all(failed, code::SERVICE_DISCONNECTED, &reason);
        tracing::info!(service = %service, failed_tasks = failed, "service disconnected");
        let data = json!({"service": service, "tools": names, "failed_tasks": failed});
        self.host.emit(events::DISCONNECTED, data).await;
    }
}
