//! Services and their tools: registration, status, listings.

use std::collections::{HashSet, VecDeque};
use std::time::Duration;

use amplifier_sdk::{tool_name, ToolSpec};
use serde_json::{json, Value};

use super::connection::{ConnId, Outgoing};
use super::tasks::fail_tasks;
use super::{events, Hub};
use crate::wire::{self, code, out, Inbound};

/// A service's operational status, as the document names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Active,
    Inactive,
    Busy,
    Error,
    Maintenance,
}

impl Status {
    /// The document's five values, and the reference code's `online`,
    /// `offline` and `initializing` as aliases.
    pub fn parse(status: &str) -> Option<Status> {
        Some(match status {
            "active" | "online" => Status::Active,
            "inactive" | "offline" | "initializing" => Status::Inactive,
            "busy" => Status::Busy,
            "error" => Status::Error,
            "maintenance" => Status::Maintenance,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Inactive => "inactive",
            Status::Busy => "busy",
            Status::Error => "error",
            Status::Maintenance => "maintenance",
        }
    }
}

#[derive(Debug, Clone)]
struct RemoteTool {
    /// The mounted name, `<service>__<tool>`.
    name: String,
    /// The service's tool id (`functionName` in `service.task.execute`).
    id: String,
    title: Option<String>,
    description: String,
    input_schema: Value,
    output_schema: Option<Value>,
}

pub(super) struct Service {
    pub(super) id: String,
    name: String,
    capabilities: Value,
    manifest: Value,
    registered_at: String,
    tools: Vec<RemoteTool>,
    /// The live connection; `None` once disconnected (the entry is kept for `registeredAt`).
    pub(super) conn: Option<ConnId>,
    pub(super) status: Status,
    status_message: Option<String>,
    /// No pong within the heartbeat interval.
    pub(super) heartbeat_lost: bool,
    /// Its tools are mounted in the session.
    pub(super) mounted: bool,
    pub(super) running: usize,
    pub(super) queue: VecDeque<String>,
}

impl Service {
    pub(super) fn available(&self) -> bool {
        self.conn.is_some() && self.status == Status::Active && !self.heartbeat_lost
    }

    fn effective_status(&self) -> &'static str {
        if self.conn.is_none() || self.heartbeat_lost {
            "inactive"
        } else {
            self.status.as_str()
        }
    }

    pub(super) fn unavailable_reason(&self) -> String {
        if self.conn.is_none() {
            return format!("service '{}' is not connected", self.id);
        }
        if self.heartbeat_lost {
            return format!("service '{}' is inactive: it did not answer the last heartbeat ping", self.id);
        }
        match &self.status_message {
            Some(message) if !message.is_empty() => {
                format!("service '{}' is {}: {message}", self.id, self.status.as_str())
            }
            _ => format!("service '{}' is {}", self.id, self.status.as_str()),
        }
    }
}
impl Hub {
    pub(super) async fn register(&self, conn: ConnId, msg: &Inbound) {
        let request_id = msg.id.as_deref();
        let registration = match parse_registration(&msg.content) {
            Ok(registration) => registration,
            Err(message) => {
                return self.send(conn, wire::error_frame(code::INVALID_REGISTRATION, &message, request_id, None));
            }
        };
        let _mounting = self.mounting.lock().await;
        let (to_unmount, specs, registered_at, reconnected) = {
            let mut guard = self.lock();
            let st = &mut *guard;
            let Some(c) = st.conns.get(&conn) else { return };
            if let Some(current) = c.service.as_ref().filter(|s| **s != registration.id) {
                let message = format!(
                    "this connection already registered service '{current}'; register '{}' on a connection of its own",
                    registration.id
                );
                let _ =
                    c.tx.send(Outgoing::Text(wire::error_frame(code::ALREADY_REGISTERED, &message, request_id, None)));
                return;
            }
            for tool in &registration.tools {
                if let Some((owner, _)) = st.routes.get(&tool.name).filter(|(owner, _)| *owner != registration.id) {
                    let message = format!(
                        "tool '{}' (tool '{}') is already mounted by service '{owner}'; rename the tool or the service",
                        tool.name, tool.id
                    );
                    let _ = c.tx.send(Outgoing::Text(wire::error_frame(
                        code::TOOL_NAME_CONFLICT,
                        &message,
                        request_id,
                        None,
                    )));
                    return;
                }
            }
            let existing = st.services.get(&registration.id);
            let registered_at = existing.map_or_else(wire::now, |s| s.registered_at.clone());
            let reconnected = existing.is_some_and(|s| s.conn != Some(conn));
            let previous_conn = existing.and_then(|s| s.conn).filter(|&old| old != conn);
            if let Some(old) = previous_conn {
                // The service came back on a new connection: the old one is
                // stale; tasks sent on it can't be answered on this one.
                let reason = format!(
                    "service '{}' re-registered on a new connection; tasks sent on the old one are lost",
                    registration.id
                );
                fail_tasks(st, |t| t.service == registration.id, code::SERVICE_DISCONNECTED, &reason);
                if let Some(old_conn) = st.conns.get_mut(&old) {
                    old_conn.service = None;
                    let _ =
                        old_conn.tx.send(Outgoing::Close { code: 1000, reason: "replaced by a new connection".into() });
                    old_conn.kicked.notify_one();
                }
            }
            let old_names: Vec<String> =
                st.routes.iter().filter(|(_, (owner, _))| *owner == registration.id).map(|(n, _)| n.clone()).collect();
            let new_names: HashSet<&str> = registration.tools.iter().map(|t| t.name.as_str()).collect();
            let to_unmount: Vec<String> =
                old_names.iter().filter(|n| !new_names.contains(n.as_str())).cloned().collect();
            for name in &old_names {
                st.routes.remove(name);
            }
            for tool in &registration.tools {
                st.routes.insert(tool.name.clone(), (registration.id.clone(), tool.id.clone()));
            }
            let specs: Vec<ToolSpec> = registration.tools.iter().map(|t| tool_spec(t, &registration.name)).collect();
            let service = st.services.entry(registration.id.clone()).or_insert_with(|| Service {
                id: registration.id.clone(),
                name: String::new(),
                capabilities: Value::Null,
                manifest: Value::Null,
                registered_at: registered_at.clone(),
                tools: Vec::new(),
                conn: None,
                status: Status::Active,
                status_message: None,
                heartbeat_lost: false,
                mounted: false,
                running: 0,
                queue: VecDeque::new(),
            });
            if previous_conn.is_some() || service.conn.is_none() {
                service.running = 0;
                service.queue.clear();
            }
            service.name = registration.name.clone();
            service.capabilities = registration.capabilities.clone();
            service.manifest = registration.manifest.clone();
            service.tools = registration.tools.clone();
            service.conn = Some(conn);
            service.status = Status::Active;
            service.status_message = None;
            service.heartbeat_lost = false;
            service.mounted = false;
            if let Some(c) = st.conns.get_mut(&conn) {
                c.service = Some(registration.id.clone());
            }
            (to_unmount, specs, registered_at, reconnected)
        };
        if !to_unmount.is_empty() {
            if let Err(err) = self.host.unmount_tools(to_unmount).await {
                tracing::warn!(service = %registration.id, error = %err, "could not unmount replaced service tools");
            }
        }
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        if let Err(err) = self.host.mount_tools(specs).await {
            tracing::warn!(service = %registration.id, error = %err, "could not mount the service's tools");
            {
                let mut st = self.lock();
                st.routes.retain(|_, (owner, _)| *owner != registration.id);
                if let Some(service) = st.services.get_mut(&registration.id) {
                    service.conn = None;
                }
                if let Some(c) = st.conns.get_mut(&conn) {
                    c.service = None;
                }
            }
            let message = format!("the orchestrator could not mount the service's tools: {err}");
            return self.send(conn, wire::error_frame(code::MOUNT_FAILED, &message, request_id, None));
        }
        {
            let mut st = self.lock();
            if let Some(service) = st.services.get_mut(&registration.id).filter(|s| s.conn == Some(conn)) {
                service.mounted = true;
            }
            self.pump(&mut st, &registration.id);
        }
        let message = if reconnected { "Service reconnected successfully" } else { "Service registered successfully" };
        tracing::info!(service = %registration.id, tools = ?names, reconnected, "service registered");
        self.send(
            conn,
            wire::frame(
                out::REGISTERED,
                request_id,
                json!({
                    "serviceId": registration.id,
                    "name": registration.name,
                    "status": "active",
                    "registeredAt": registered_at,
                    "tools": names,
                    "message": message,
                }),
            ),
        );
        self.bump();
        let data = json!({
            "service": registration.id,
            "name": registration.name,
            "tools": names,
            "registered_at": registered_at,
            "reconnected": reconnected,
        });
        self.host.emit(events::REGISTERED, data).await;
    }

    pub(super) async fn status(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let request_id = msg.id.as_deref();
        let Some(text) = msg.content.get("status").and_then(Value::as_str) else {
            return self.send(conn, wire::error_frame(code::INVALID_STATUS, "Status is required", request_id, None));
        };
        let Some(status) = Status::parse(text) else {
            let message =
                format!("Invalid status '{text}': expected one of active, inactive, busy, error, maintenance");
            return self.send(conn, wire::error_frame(code::INVALID_STATUS, &message, request_id, None));
        };
        let message = msg.content.get("message").and_then(Value::as_str).map(str::to_owned);
        let available = {
            let mut st = self.lock();
            let Some(svc) = st.services.get_mut(&service) else { return };
            svc.status = status;
            svc.status_message = message.clone();
            let available = svc.available();
            self.settle(&mut st, &service);
            available
        };
        tracing::info!(service = %service, status = status.as_str(), ?message, "service status");
        self.send(
            conn,
            wire::frame(
                out::STATUS_UPDATED,
                request_id,
                json!({"serviceId": service, "status": status.as_str(), "message": "Service status updated successfully"}),
            ),
        );
        self.bump();
        let data = json!({"service": service, "status": status.as_str(), "message": message, "available": available});
        self.host.emit(events::STATUS, data).await;
    }

    /// Every service the hub has seen, with its tools and state.
    pub fn list(&self) -> Value {
        let st = self.lock();
        let mut services: Vec<&Service> = st.services.values().collect();
        services.sort_by(|a, b| a.id.cmp(&b.id));
        let described = services.into_iter().map(|service| {
            let mut described = describe(service);
            described["tasks"] = json!(Hub::tasks_of(&st, &service.id));
            described
        });
        json!({"address": self.address.get(), "services": described.collect::<Vec<_>>()})
    }

    /// Waits until `service` (an id or a name; any service when `None`) is
    /// registered, its tools are mounted and it is active. `Err` on timeout.
    pub async fn wait_for(&self, service: Option<&str>, timeout: Duration) -> Result<Value, String> {
        let mut changed = self.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            {
                let st = self.lock();
                let ready = st.services.values().find(|s| {
                    s.mounted && s.available() && service.is_none_or(|wanted| s.id == wanted || s.name == wanted)
                });
                if let Some(found) = ready {
                    return Ok(describe(found));
                }
                if st.shutting_down {
                    return Err("the service hub is shutting down".into());
                }
            }
            match tokio::time::timeout_at(deadline, changed.changed()).await {
                Ok(Ok(())) => continue,
                Ok(Err(_)) => return Err("the service hub stopped".into()),
                Err(_) => {
                    let known = self.list();
                    let what = service.map_or_else(|| "any service".to_owned(), |s| format!("service '{s}'"));
                    return Err(format!(
                        "{what} did not register and become active within {} ms; known services: {}",
                        timeout.as_millis(),
                        known["services"]
                    ));
                }
            }
        }
    }
}

fn describe(svc: &Service) -> Value {
    json!({
        "id": svc.id,
        "name": svc.name,
        "status": svc.effective_status(),
        "connected": svc.conn.is_some(),
        "available": svc.available(),
        "statusMessage": svc.status_message,
        "registeredAt": svc.registered_at,
        "capabilities": svc.capabilities,
        "manifest": svc.manifest,
        "running": svc.running,
        "queued": svc.queue.len(),
        "tools": svc.tools.iter().map(|t| json!({
            "name": t.name,
            "id": t.id,
            "title": t.title,
            "description": t.description,
            "inputSchema": t.input_schema,
            "outputSchema": t.output_schema,
        })).collect::<Vec<_>>(),
    })
}

impl Hub {
    /// The tools mounted for the services connected now.
    pub(super) fn mounted_specs(&self) -> Vec<ToolSpec> {
        let st = self.lock();
        st.services
            .values()
            .filter(|service| service.mounted)
            .flat_map(|service| service.tools.iter().map(|tool| tool_spec(tool, &service.name)))
            .collect()
    }
}

fn tool_spec(tool: &RemoteTool, service_name: &str) -> ToolSpec {
    let description = if tool.description.is_empty() {
        format!("Tool '{}' of the remote service '{service_name}'.", tool.id)
    } else {
        format!("{} (tool '{}' of the remote service '{service_name}')", tool.description, tool.id)
    };
    ToolSpec::new(tool.name.clone(), description, tool.input_schema.clone())
}

struct Registration {
    id: String,
    name: String,
    capabilities: Value,
    manifest: Value,
    tools: Vec<RemoteTool>,
}

/// Checks a `service.register` content and names its tools.
fn parse_registration(content: &Value) -> Result<Registration, String> {
    let name = content
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .ok_or("Service name is required")?
        .to_owned();
    let id = match content.get("id") {
        None | Some(Value::Null) => slug(&name),
        Some(Value::String(id)) if !id.trim().is_empty() => id.trim().to_owned(),
        Some(_) => return Err("Service id must be a non-empty string".into()),
    };
    // Only the slug of a name without ASCII letters or digits is empty.
    if id.is_empty() {
        return Err(format!("Service id '{id}' has no letters or digits"));
    }
    let capabilities = match content.get("capabilities") {
        None | Some(Value::Null) => json!([]),
        Some(caps @ Value::Array(_)) => caps.clone(),
        Some(_) => return Err("capabilities must be an array".into()),
    };
    let manifest = match content.get("manifest") {
        None | Some(Value::Null) => json!({}),
        Some(manifest @ Value::Object(_)) => manifest.clone(),
        Some(_) => return Err("manifest must be an object".into()),
    };
    let raw_tools = match content.get("tools") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(tools)) => tools.clone(),
        Some(_) => return Err("tools must be an array".into()),
    };
    let mut tools = Vec::new();
    let mut seen = HashSet::new();
    for (index, tool) in raw_tools.iter().enumerate() {
        let text = |key: &str| tool.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        let Some(tool_id) = text("id").or_else(|| text("name")) else {
            return Err(format!("tools[{index}] needs an id (or a name)"));
        };
        let input_schema = match tool.get("inputSchema") {
            None | Some(Value::Null) => json!({"type": "object"}),
            Some(schema @ Value::Object(_)) => schema.clone(),
            Some(_) => return Err(format!("tools[{index}].inputSchema must be a JSON Schema object")),
        };
        let mounted = tool_name::prefixed(&id, tool_id);
        if mounted.len() > tool_name::MAX_LEN {
            return Err(format!(
                "tools[{index}]: the tool name '{mounted}' is longer than {} characters; shorten the service or tool id",
                tool_name::MAX_LEN
            ));
        }
        if !seen.insert(mounted.clone()) {
            return Err(format!("tools[{index}]: two tools would both be named '{mounted}'"));
        }
        tools.push(RemoteTool {
            name: mounted,
            id: tool_id.to_owned(),
            title: text("name").map(str::to_owned),
            description: text("description").unwrap_or_default().to_owned(),
            input_schema,
            output_schema: tool.get("outputSchema").filter(|s| !s.is_null()).cloned(),
        });
    }
    Ok(Registration { id, name, capabilities, manifest, tools })
}

/// `LLM Service` → `llm-service` (the id of a service that gives none).
fn slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_without_an_id_gets_the_slug_of_its_name() {
        assert_eq!(slug("LLM Service 2.0"), "llm-service-2-0");
    }
}
