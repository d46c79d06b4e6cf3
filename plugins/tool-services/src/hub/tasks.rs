//! Tasks: each call is a task sent to its service, at once or from the
//! service's queue, and answered exactly once.

use std::sync::Arc;

use amplifier_sdk::ToolResult;
use serde_json::{json, Value};
use tokio::sync::oneshot;

use super::connection::{ConnId, Outgoing};
use super::registry::Status;
use super::{events, Caller, Hub, Priority, State};
use crate::wire::{self, code, out, Inbound};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TaskState {
    Queued,
    Running,
}

pub(super) struct Task {
    pub(super) service: String,
    /// The mounted tool name and the service's function name.
    tool: String,
    function: String,
    params: Value,
    pub(super) state: TaskState,
    pub(super) done: oneshot::Sender<ToolResult>,
    /// Who called, when known (a session hears the task's notifications).
    caller: Option<Caller>,
    priority: Priority,
}

impl Hub {
    pub(super) fn task_result(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let Some(task_id) = msg.field("taskId") else {
            let message = "service.task.result needs content.taskId";
            return self.send(conn, wire::error_frame(code::INVALID_MESSAGE, message, msg.id.as_deref(), None));
        };
        let result = interpret_result(&service, &msg.content);
        if !self.finish(task_id, &service, result) {
            tracing::warn!(service = %service, task = task_id, "ignoring a result for an unknown or finished task");
            let message = format!("task '{task_id}' is unknown or already finished; result ignored");
            self.send(conn, wire::error_frame(code::UNKNOWN_TASK, &message, msg.id.as_deref(), Some(task_id)));
        }
    }

    /// Answers a running task of `service`; false if there is none by that id.
    fn finish(&self, task_id: &str, service: &str, result: ToolResult) -> bool {
        let mut st = self.lock();
        match st.tasks.get(task_id) {
            Some(task) if task.service == service && task.state == TaskState::Running => {}
            _ => return false,
        }
        let task = st.tasks.remove(task_id).expect("task checked above");
        if let Some(svc) = st.services.get_mut(service) {
            svc.running = svc.running.saturating_sub(1);
        }
        self.pump(&mut st, service);
        let _ = task.done.send(result);
        true
    }

    pub(super) async fn service_error(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let error = match msg.content.get("error") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Object(object)) => {
                object.get("message").and_then(Value::as_str).map(str::to_owned).unwrap_or_else(|| object_text(object))
            }
            _ => "unspecified error".to_owned(),
        };
        let error_code = msg.field("code").unwrap_or(code::SERVICE_ERROR).to_owned();
        let task_id = msg.field("taskId").map(str::to_owned);
        if let Some(task_id) = &task_id {
            let result = ToolResult::error(&error_code, format!("service '{service}' failed the task: {error}"));
            if !self.finish(task_id, &service, result) {
                tracing::warn!(service = %service, task = %task_id, code = %error_code, %error, "service.error for an unknown or finished task");
            }
        } else {
            tracing::warn!(service = %service, code = %error_code, %error, "service reported an error");
        }
        let data = json!({"service": service, "task_id": task_id, "code": error_code, "error": error});
        self.host.emit(events::ERROR, data).await;
    }

    pub(super) async fn notification(&self, conn: ConnId, msg: &Inbound) {
        let Some(service) = self.registered_service(conn, msg) else { return };
        let note = msg.content.get("notification").filter(|n| n.is_object()).unwrap_or(&msg.content);
        let kind = note.get("type").and_then(Value::as_str).unwrap_or("info");
        if !wire::NOTIFICATION_TYPES.contains(&kind) {
            let message =
                format!("Unknown notification type '{kind}'; expected one of: {}", wire::NOTIFICATION_TYPES.join(", "));
            return self.send(conn, wire::error_frame(code::INVALID_NOTIFICATION, &message, msg.id.as_deref(), None));
        }
        self.send(
            conn,
            wire::frame(
                out::NOTIFICATION_RECEIVED,
                msg.id.as_deref(),
                json!({"message": "Notification received and processed", "notificationId": msg.id}),
            ),
        );
        let task_id = msg.field("taskId").or_else(|| note.get("taskId").and_then(Value::as_str));
        let (tool, function, caller) = match task_id {
            None => (None, None, None),
            Some(task_id) => {
                let st = self.lock();
                match st.tasks.get(task_id).filter(|t| t.service == service) {
                    Some(task) => (
                        Some(task.tool.clone()),
                        Some(task.function.clone()),
                        task.caller.as_ref().and_then(|c| c.host.clone()),
                    ),
                    None => {
                        tracing::debug!(service = %service, task = task_id, kind, "notification for an unknown or finished task ignored");
                        return;
                    }
                }
            }
        };
        let data = json!({
            "service": service,
            "task_id": task_id,
            "tool": tool,
            "function": function,
            "type": kind,
            "message": note.get("message").cloned().unwrap_or(Value::Null),
            "data": note.get("data").cloned().unwrap_or(Value::Null),
            "timestamp": note.get("timestamp").or_else(|| msg.raw.get("timestamp")).cloned().unwrap_or(Value::Null),
        });
        // A task's progress is the calling session's; other notices the hub's.
        caller.as_ref().unwrap_or(&self.host).emit(events::NOTIFICATION, data).await;
    }

    /// Runs a mounted service tool: sends `service.task.execute` (now or when
    /// a slot frees up) and waits for its answer, at most `task_timeout`.
    pub async fn call(self: &Arc<Self>, tool: &str, input: Value, caller: Option<Caller>) -> ToolResult {
        let (task_id, mut done) = match self.start_task(tool, input, caller) {
            Ok(started) => started,
            Err(refused) => return refused,
        };
        // Dropped before the answer (the caller was cancelled): forget the task.
        let mut guard = CancelOnDrop { hub: self, task_id: &task_id, armed: true };
        let result = match tokio::time::timeout(self.config.task_timeout, &mut done).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => ToolResult::failed_call(code::SHUTDOWN, "the service hub stopped before the task finished"),
            Err(_) => match self.expire(&task_id) {
                Some(timed_out) => timed_out,
                // Someone took the task out of the table just now and is about to answer it.
                None => (&mut done)
                    .await
                    .unwrap_or_else(|_| ToolResult::failed_call(code::SHUTDOWN, "the service hub stopped")),
            },
        };
        guard.armed = false;
        result
    }

    fn start_task(
        &self,
        tool: &str,
        mut input: Value,
        caller: Option<Caller>,
    ) -> Result<(String, oneshot::Receiver<ToolResult>), ToolResult> {
        // `_meta` is the call's, not the tool's (MCP's convention).
        let meta = input.as_object_mut().and_then(|input| input.remove("_meta"));
        let asked = meta.as_ref().and_then(|meta| meta.get("priority")).and_then(Value::as_str);
        let asked = match asked.map(|text| Priority::parse(text).ok_or(text)) {
            Some(Err(text)) => {
                let message = format!("_meta.priority `{text}` is not one of low, normal, high");
                return Err(ToolResult::failed_call(code::INVALID_MESSAGE, message));
            }
            Some(Ok(priority)) => Some(priority),
            None => None,
        };
        let mut guard = self.lock();
        let st = &mut *guard;
        if st.shutting_down {
            return Err(ToolResult::failed_call(code::SHUTDOWN, "the service hub is shutting down"));
        }
        let Some((service_id, function)) = st.routes.get(tool).cloned() else {
            return Err(ToolResult::failed_call(
                code::NOT_FOUND,
                format!("no registered service offers tool '{tool}' (it may have disconnected)"),
            ));
        };
        let Some(svc) = st.services.get_mut(&service_id) else {
            return Err(ToolResult::failed_call(code::NOT_FOUND, format!("service '{service_id}' is not registered")));
        };
        if svc.conn.is_none() {
            return Err(ToolResult::failed_call(code::SERVICE_DISCONNECTED, svc.unavailable_reason()));
        }
        if !svc.available() {
            return Err(ToolResult::failed_call(code::SERVICE_UNAVAILABLE, svc.unavailable_reason()));
        }
        let task_id = wire::new_id();
        let configured = self.config.priorities.get(tool).or_else(|| self.config.priorities.get(&service_id));
        let priority = asked.or(configured.copied()).unwrap_or(self.config.priority);
        let state = if svc.running < self.config.max_concurrent_tasks {
            svc.running += 1;
            TaskState::Running
        } else if svc.queue.len() < self.config.max_queued_tasks {
            // Before the first queued call of a lower priority.
            let tasks = &st.tasks;
            let lower = svc.queue.iter().position(|id| tasks.get(id).is_some_and(|t| t.priority < priority));
            svc.queue.insert(lower.unwrap_or(svc.queue.len()), task_id.clone());
            TaskState::Queued
        } else {
            return Err(ToolResult::failed_call(
                code::BUSY,
                format!(
                    "service '{service_id}' has {} tasks running and {} queued (the limit); try again later",
                    svc.running,
                    svc.queue.len()
                ),
            ));
        };
        let conn = svc.conn;
        let (done, receiver) = oneshot::channel();
        let task =
            Task { service: service_id, tool: tool.to_owned(), function, params: input, state, done, caller, priority };
        if state == TaskState::Running {
            if let Some(c) = conn.and_then(|conn| st.conns.get(&conn)) {
                let _ = c.tx.send(Outgoing::Text(self.execute_frame(&task_id, &task)));
            }
        }
        tracing::debug!(task = %task_id, tool, state = ?state, "service task");
        st.tasks.insert(task_id.clone(), task);
        Ok((task_id, receiver))
    }

    fn execute_frame(&self, task_id: &str, task: &Task) -> String {
        let agent_id = match &task.caller {
            Some(caller) => caller.agent_id.as_str(),
            None => self.agent_id.get().map_or("amplifier", String::as_str),
        };
        wire::frame_with_id(
            task_id,
            out::TASK_EXECUTE,
            None,
            json!({
                "taskId": task_id,
                "functionName": task.function,
                "toolId": task.function,
                "params": task.params,
                "metadata": {
                    "agentId": agent_id,
                    "clientId": "amplifier",
                    "timestamp": wire::now(),
                    "priority": task.priority.as_str(),
                    "tool": task.tool,
                },
            }),
        )
    }

    /// Sends queued tasks while the service is available and has free slots.
    pub(super) fn pump(&self, st: &mut State, service: &str) {
        let State { services, tasks, conns, .. } = st;
        let Some(svc) = services.get_mut(service) else { return };
        while svc.available() && svc.running < self.config.max_concurrent_tasks {
            let Some(task_id) = svc.queue.pop_front() else { break };
            let Some(task) = tasks.get_mut(&task_id) else { continue };
            task.state = TaskState::Running;
            svc.running += 1;
            if let Some(c) = svc.conn.and_then(|conn| conns.get(&conn)) {
                let _ = c.tx.send(Outgoing::Text(self.execute_frame(&task_id, task)));
            }
        }
    }

    /// After an availability change: dispatch queued tasks if the service can
    /// take them; fail them if it went away for more than a busy spell.
    pub(super) fn settle(&self, st: &mut State, service: &str) {
        let Some(svc) = st.services.get(service) else { return };
        if svc.available() {
            return self.pump(st, service);
        }
        if svc.status == Status::Busy && !svc.heartbeat_lost && svc.conn.is_some() {
            return; // queued calls wait for the service to be active again (or time out)
        }
        let reason = svc.unavailable_reason();
        fail_tasks(st, |t| t.service == service && t.state == TaskState::Queued, code::SERVICE_UNAVAILABLE, &reason);
    }

    /// The call timed out: forget the task (a late result will be ignored)
    /// and tell the service. `None` if it was answered meanwhile.
    fn expire(&self, task_id: &str) -> Option<ToolResult> {
        let mut st = self.lock();
        let task = st.tasks.remove(task_id)?;
        let timeout_ms = self.config.task_timeout.as_millis();
        let message = match task.state {
            TaskState::Running => format!(
                "service '{}' did not answer task {task_id} ('{}') within {timeout_ms} ms",
                task.service, task.function
            ),
            TaskState::Queued => format!(
                "task {task_id} ('{}') waited {timeout_ms} ms for a free slot of service '{}'",
                task.function, task.service
            ),
        };
        self.forget(&mut st, task_id, &task, code::TIMEOUT, &message);
        tracing::warn!(task = task_id, service = %task.service, "service task timed out");
        Some(ToolResult::failed_call(code::TIMEOUT, message))
    }

    /// The caller went away before the answer.
    fn cancel(&self, task_id: &str) {
        let mut st = self.lock();
        let Some(task) = st.tasks.remove(task_id) else { return };
        tracing::debug!(task = task_id, service = %task.service, "service task cancelled by the caller");
        self.forget(&mut st, task_id, &task, code::CANCELLED, "the caller cancelled the task");
    }

    /// Frees a removed task's slot (telling the service it may stop) or queue place.
    fn forget(&self, st: &mut State, task_id: &str, task: &Task, error_code: &str, message: &str) {
        let Some(svc) = st.services.get_mut(&task.service) else { return };
        match task.state {
            TaskState::Running => {
                svc.running = svc.running.saturating_sub(1);
                if let Some(c) = svc.conn.and_then(|conn| st.conns.get(&conn)) {
                    let _ = c.tx.send(Outgoing::Text(wire::error_frame(error_code, message, None, Some(task_id))));
                }
                self.pump(st, &task.service.clone());
            }
            TaskState::Queued => svc.queue.retain(|t| t != task_id),
        }
    }

    /// `service.task.request`: a service asks for another service's tool
    /// (`tool`, its mounted name, or `serviceId` and `functionName`), with
    /// `params` and an optional `priority`. It runs as any call does (queue,
    /// timeout, exactly one answer), and the answer goes back to the asking
    /// service as `service.task.response {tool, status, result | error}`.
    pub(super) fn task_request(self: &Arc<Self>, conn: ConnId, msg: &Inbound) {
        let Some(requester) = self.registered_service(conn, msg) else { return };
        let request_id = msg.id.clone();
        let tool = match msg.field("tool") {
            Some(tool) => Some(tool.to_owned()),
            None => {
                let service = msg.field("serviceId");
                let function = msg.field("functionName").or_else(|| msg.field("toolId"));
                let st = self.lock();
                let offers =
                    |(owner, f): &(String, String)| Some(owner.as_str()) == service && Some(f.as_str()) == function;
                st.routes.iter().find(|(_, route)| offers(route)).map(|(name, _)| name.clone())
            }
        };
        let Some(tool) = tool else {
            let message = "service.task.request needs `tool` (a mounted tool name) or `serviceId` and `functionName` of a registered service";
            return self.send(conn, wire::error_frame(code::NOT_FOUND, message, request_id.as_deref(), None));
        };
        let mut params = msg.content.get("params").cloned().unwrap_or_else(|| json!({}));
        if let (Some(priority), Some(object)) = (msg.field("priority"), params.as_object_mut()) {
            object.insert("_meta".into(), json!({"priority": priority}));
        }
        let hub = self.clone();
        tokio::spawn(async move {
            let caller = Caller { agent_id: requester, host: None };
            let result = hub.call(&tool, params, Some(caller)).await;
            let status = if result.success { "completed" } else { "failed" };
            let content = json!({"tool": tool, "status": status, "result": result.output, "error": result.error});
            hub.send(conn, wire::frame(out::TASK_RESPONSE, request_id.as_deref(), content));
        });
    }

    /// The tasks of `service`, for listings: `{taskId, tool, status, priority, requestedBy}`.
    pub(super) fn tasks_of(st: &State, service: &str) -> Vec<Value> {
        let mut tasks: Vec<(&String, &Task)> = st.tasks.iter().filter(|(_, t)| t.service == service).collect();
        tasks.sort_by(|a, b| a.0.cmp(b.0));
        tasks
            .into_iter()
            .map(|(id, task)| {
                let status = match task.state {
                    TaskState::Running => "running",
                    TaskState::Queued => "queued",
                };
                let requested_by = task.caller.as_ref().map(|c| c.agent_id.as_str());
                json!({"taskId": id, "tool": task.tool, "status": status, "priority": task.priority.as_str(), "requestedBy": requested_by})
            })
            .collect()
    }

    /// Tasks not yet answered (running or queued).
    #[cfg(test)]
    pub fn pending_tasks(&self) -> usize {
        self.lock().tasks.len()
    }
}

struct CancelOnDrop<'a> {
    hub: &'a Hub,
    task_id: &'a str,
    armed: bool,
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.hub.cancel(self.task_id);
        }
    }
}

/// Removes every task matching `which` from the table, freeing its slot or queue place.
pub(super) fn take_tasks(st: &mut State, which: impl Fn(&Task) -> bool) -> Vec<Task> {
    let ids: Vec<String> = st.tasks.iter().filter(|(_, t)| which(t)).map(|(id, _)| id.clone()).collect();
    let mut taken = Vec::with_capacity(ids.len());
    for id in &ids {
        if let Some(task) = st.tasks.remove(id) {
            if let Some(svc) = st.services.get_mut(&task.service) {
                match task.state {
                    TaskState::Running => svc.running = svc.running.saturating_sub(1),
                    TaskState::Queued => svc.queue.retain(|t| t != id),
                }
            }
            taken.push(task);
        }
    }
    taken
}

/// Answers taken tasks with an error; returns how many.
pub(super) fn answer_all(tasks: Vec<Task>, error_code: &str, message: &str) -> usize {
    let count = tasks.len();
    for task in tasks {
        let _ = task.done.send(ToolResult::failed_call(error_code, message));
    }
    count
}

/// Answers every task matching `which` with an error; returns how many.
pub(super) fn fail_tasks(st: &mut State, which: impl Fn(&Task) -> bool, error_code: &str, message: &str) -> usize {
    answer_all(take_tasks(st, which), error_code, message)
}

/// The tool result a `service.task.result` stands for. A result whose
/// `content.error` is set, whose `content.status` is `failed`, or whose
/// `result` is exactly `{error: "…"}` (how the reference service SDK reports
/// a failed handler) is a failure.
fn interpret_result(service: &str, content: &Value) -> ToolResult {
    let failure = |message: String| {
        let error_code = content.get("code").and_then(Value::as_str).unwrap_or(code::TASK_FAILED);
        ToolResult::error(error_code, format!("service '{service}' failed the task: {message}"))
    };
    match content.get("error") {
        None | Some(Value::Null) => {}
        Some(Value::String(message)) => return failure(message.clone()),
        Some(other) => return failure(other.to_string()),
    }
    let result = content.get("result").cloned().unwrap_or(Value::Null);
    if content.get("status").and_then(Value::as_str) == Some("failed") {
        return failure(result.to_string());
    }
    if let Some(object) = result.as_object() {
        if object.len() == 1 {
            if let Some(Value::String(message)) = object.get("error") {
                return failure(message.clone());
            }
        }
    }
    ToolResult::ok(result)
}

fn object_text(object: &serde_json::Map<String, Value>) -> String {
    Value::Object(object.clone()).to_string()
}
