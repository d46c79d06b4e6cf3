//! App mode (plan → (step → update)* → finalize) and chat mode.
//!
//! The planner is asked for an action whenever the plan has no pending step;
//! pending steps run in order, each a handoff to the specialist holding its
//! capability. After a QA step the quality gate may add a revision (a
//! generation step carrying the QA issues, then a QA step) while the
//! execution depth allows. A question to a person pauses the run (see the
//! crate docs). The state is persisted after every step.

use std::time::{Duration, Instant};

use amplifier_sdk::events;
use amplifier_sdk::ops::{AgentSummary, SpawnRequest};
use amplifier_sdk::prelude::*;
use amplifier_sdk::trace::Span;

use crate::action::{parse_action, scrub, Action, PlanPatch, StepSpec, SENTINEL_END, SENTINEL_START};
use crate::quality::{self, artifact_from, content_of, parse_qa};
use crate::state::{ChatTurn, HistoryEntry, HitlRequest, RunState, Step, StepStatus, Store};
use crate::{new_thread_id, PlanOrchestrator, RunRequest};

/// How much of a prompt a `plan:prompt_preview` shows.
const PREVIEW_CHARS: usize = 8000;

const ORCHESTRATOR: &str = "orchestrator";
/// Test-only crash point: after this many finished handoff steps are
/// persisted, the process exits at once (no cleanup), as if killed.
const STOP_AFTER_STEP_ENV: &str = "AMPLIFIER_PLAN_STOP_AFTER_STEP";

const PLANNER_RULES: &str = "You are the orchestrator of a team of specialist agents.
Rules:
- You never write deliverables yourself and never call tools; you only answer with one JSON action.
- Build and evolve a minimal plan from the capabilities in the registry.
- After each handoff the plan is updated and the constraints are evaluated; revisions are scheduled for you when QA fails and the execution depth allows.
- Finalize only when the constraints are met or the execution depth is reached. Be concise.
Answer with exactly one JSON object, one of:
{\"action\": \"plan_update\", \"planPatch\": {\"steps\": [{\"id\": \"...\", \"capabilityId\": \"...\", \"agent\": \"...\", \"note\": \"...\"}, {\"id\": \"finalize\", \"action\": \"finalize\"}]}, \"note\": \"...\"}
{\"action\": \"handoff\", \"to\": \"<agent>\", \"capabilityId\": \"<capability>\", \"payload\": {...}, \"note\": \"...\"}
{\"action\": \"final\", \"bundle\": {\"summary\": \"...\"}}
{\"action\": \"hitl_request\", \"question\": \"...\", \"options\": [\"...\"]} (only when a person must decide; the run waits for the answer, which appears as humanInput)";

const DEFAULT_CHAT_INSTRUCTION: &str = "You are a helpful assistant. Answer the user directly.";

struct Run<'a> {
    orch: &'a PlanOrchestrator,
    store: Store,
    state: RunState,
    registry: Vec<AgentSummary>,
    phase: Option<String>,
    /// `plan.run`: the run's trace span; each handoff's is its child.
    span: Span,
}

/// What the planner's turn decided.
enum Next {
    Continue,
    Finalize,
    /// The run waits for a person: the result to return now.
    Pause(String),
}

fn resolve_thread(request: &RunRequest) -> ModuleResult<String> {
    let thread = request.thread_id.clone().unwrap_or_else(new_thread_id);
    if !amplifier_sdk::runs::valid_id(&thread) {
        return Err(ModuleError::new(
            ErrorKind::InvalidRequest,
            format!("invalid threadId `{thread}`: use letters, digits, `-`, `_` and `.` (at most 128, not starting with `.`)"),
        ));
    }
    Ok(thread)
}

pub(crate) async fn run_app(orch: &PlanOrchestrator, request: RunRequest) -> ModuleResult<String> {
    let thread = resolve_thread(&request)?;
    let store = Store::new(&orch.host, &thread);
    let existing = store.load().await?;
    let resumed = existing.as_ref().is_some_and(|s| s.bundle.is_some() || !s.plan.steps.is_empty());
    let state = match existing {
        Some(state) => state,
        None => {
            let objective = request.objective.clone().unwrap_or_default();
            if objective.trim().is_empty() {
                return Err(ModuleError::new(ErrorKind::InvalidRequest, "the run request has no `objective`"));
            }
            RunState::new(&thread, &objective, request.payload.clone(), request.constraints(&orch.config))
        }
    };
    let registry = orch.host.agents().await?;
    let attributes =
        json!({"workflowName": orch.config.workflow_name, "threadId": thread, "mode": "app", "resumed": resumed});
    let span = Span::start(&orch.host, "plan.run", None, attributes).await;
    let mut run = Run { orch, store, state, registry, phase: None, span };
    let result = run.app(resumed, request.hitl_response).await;
    let Run { state, span, .. } = run;
    let attributes = json!({"status": state.status, "turns": state.turns, "handoffs": state.finished_handoffs()});
    span.end(result.as_ref().map(drop).map_err(|err| err.message.clone()), attributes).await;
    result
}

impl Run<'_> {
    /// Announces the run, settles a pending question, and drives the plan.
    async fn app(&mut self, resumed: bool, hitl_response: Option<crate::HitlResponse>) -> ModuleResult<String> {
        let (orch, thread) = (self.orch, self.state.thread_id.clone());
        orch.emit("plan:start", json!({"threadId": thread, "mode": "app", "resumed": resumed})).await;
        if let Some(bundle) = self.state.bundle.clone() {
            orch.emit(
                "plan:message",
                json!({"message": "Thread already completed; returning the stored bundle", "threadId": thread}),
            )
            .await;
            return Ok(bundle.to_string());
        }
        match (self.state.pending_hitl.clone(), hitl_response) {
            (Some(pending), Some(response)) if response.request_id == pending.id => {
                self.answered(pending, response.answer).await?;
            }
            (Some(pending), Some(response)) => {
                return Err(ModuleError::new(
                    ErrorKind::InvalidRequest,
                    format!(
                        "`{}` is not the question thread {thread} waits for (it waits for `{}`)",
                        response.request_id, pending.id
                    ),
                ));
            }
            // Asked again without an answer: the same question, nothing runs.
            (Some(pending), None) => return Ok(self.announce(&pending).await),
            (None, Some(response)) => {
                return Err(ModuleError::new(
                    ErrorKind::InvalidRequest,
                    format!("thread {thread} waits for no answer (hitlResponse `{}`)", response.request_id),
                ));
            }
            (None, None) => {}
        }
        if resumed {
            orch.emit("plan:message", json!({"message": "Resuming existing thread state", "threadId": thread})).await;
        }
        self.store.save(&self.state).await?;
        self.drive().await
    }

    fn config(&self) -> &crate::Config {
        &self.orch.config
    }

    async fn set_phase(&mut self, phase: &str, message: &str) {
        if self.phase.as_deref() == Some(phase) {
            return;
        }
        self.phase = Some(phase.to_owned());
        self.orch.emit("plan:phase", json!({"phase": phase, "message": message})).await;
    }

    async fn warn(&mut self, reason: &str, message: String, extra: Value) {
        let mut data = json!({"reason": reason});
        if let (Value::Object(data), Value::Object(extra)) = (&mut data, extra) {
            data.extend(extra);
        }
        self.state.warnings.push(json!({"message": message, "data": data}));
        self.orch.emit("plan:warning", json!({"message": message, "data": data})).await;
    }

    async fn save(&self) -> ModuleResult<()> {
        self.store.save(&self.state).await
    }

    async fn plan_updated(&mut self, patch: Value, note: Option<String>) -> ModuleResult<()> {
        self.state.plan.version += 1;
        self.save().await?;
        let plan = serde_json::to_value(&self.state.plan).unwrap_or_default();
        self.orch
            .emit(
                "plan:update",
                json!({"patch": patch, "planVersion": self.state.plan.version, "plan": plan, "note": note}),
            )
            .await;
        Ok(())
    }

    async fn drive(&mut self) -> ModuleResult<String> {
        loop {
            if self.orch.cancelled().await {
                self.save().await?;
                return Err(ModuleError::cancelled());
            }
            let next = self.state.plan.steps.iter().position(Step::is_pending);
            match next {
                Some(index) if self.state.plan.steps[index].is_finalize() => {
                    self.state.plan.steps[index].status = StepStatus::Done;
                    return self.finalize().await;
                }
                Some(_) if self.state.turns >= self.state.constraints.max_turns => {
                    return self.out_of_turns().await;
                }
                Some(index) => {
                    if let Some(paused) = self.run_step(index).await? {
                        return Ok(paused);
                    }
                }
                None if self.state.turns >= self.state.constraints.max_turns => {
                    return self.out_of_turns().await;
                }
                None => match self.plan_turn().await? {
                    Next::Continue => {}
                    Next::Finalize => return self.finalize().await,
                    Next::Pause(paused) => return Ok(paused),
                },
            }
        }
    }

    // -- human in the loop ----------------------------------------------------------

    /// Puts `question` to a person: the run pauses (`Some`: its result now)
    /// or, past `hitlMaxRequests`, the question is refused and the run goes
    /// on (`None`).
    async fn ask_person(
        &mut self,
        asked_by: &str,
        step_id: Option<String>,
        question: String,
        options: Vec<String>,
    ) -> ModuleResult<Option<String>> {
        let asked = self.state.hitl.iter().filter(|h| !h.denied).count() as u32;
        let mut request = HitlRequest {
            id: format!("hitl_{}", self.state.hitl.len() + 1),
            question,
            options,
            asked_by: asked_by.to_owned(),
            step_id,
            answer: None,
            denied: false,
        };
        let max = self.config().hitl_max_requests;
        if asked >= max {
            let message = format!(
                "{asked_by} asked a person, but the run has asked {max} questions already; going on without an answer"
            );
            let data = json!({"question": request.question, "askedBy": asked_by, "hitlMaxRequests": max});
            self.warn("hitl_denied", message, data).await;
            request.denied = true;
            self.state.hitl.push(request);
            self.save().await?;
            return Ok(None);
        }
        self.state.pending_hitl = Some(request.clone());
        self.state.status = "awaiting_hitl".into();
        self.save().await?;
        Ok(Some(self.announce(&request).await))
    }

    /// Announces the pending question; the run's result while it waits.
    async fn announce(&mut self, request: &HitlRequest) -> String {
        let data = json!({
            "requestId": request.id,
            "question": request.question,
            "options": request.options,
            "askedBy": request.asked_by,
            "stepId": request.step_id,
            "threadId": self.state.thread_id,
        });
        self.orch.emit("plan:hitl_request", data).await;
        self.set_phase("idle", "Waiting for a person's answer").await;
        json!({"status": "pending_hitl", "pendingRequestId": request.id, "question": request.question, "options": request.options})
            .to_string()
    }

    async fn answered(&mut self, mut pending: HitlRequest, answer: String) -> ModuleResult<()> {
        let message = format!("A person answered `{}`; resuming", pending.question);
        pending.answer = Some(answer);
        self.state.hitl.push(pending);
        self.state.pending_hitl = None;
        self.state.status = "running".into();
        self.save().await?;
        self.orch.emit("plan:message", json!({"message": message, "threadId": self.state.thread_id})).await;
        Ok(())
    }

    /// What people said so far, for the planner and the specialists.
    fn human_input(&self) -> Option<Value> {
        let said: Vec<Value> = self
            .state
            .hitl
            .iter()
            .map(|h| match &h.answer {
                Some(answer) => json!({"question": h.question, "answer": answer}),
                None => json!({"question": h.question, "answer": null, "note": "refused: no more questions to a person in this run"}),
            })
            .collect();
        (!said.is_empty()).then_some(Value::Array(said))
    }

    /// With `debug`, what `agent` is about to be sent.
    async fn preview(&self, agent: &str, step_id: Option<&str>, prompt: &str) {
        if !self.config().debug {
            return;
        }
        let shown: String = prompt.chars().take(PREVIEW_CHARS).collect();
        let data = json!({"agent": agent, "stepId": step_id, "prompt": shown, "truncated": shown.len() < prompt.len()});
        self.orch.emit("plan:prompt_preview", data).await;
    }

    async fn out_of_turns(&mut self) -> ModuleResult<String> {
        let max = self.state.constraints.max_turns;
        self.warn("max_turns", format!("maxTurns ({max}) reached; finalizing best-effort"), json!({"maxTurns": max}))
            .await;
        self.finalize().await
    }

    // -- planning -------------------------------------------------------------

    fn planner_view(&self) -> Value {
        let registry: Vec<Value> = self
            .registry
            .iter()
            .map(|a| json!({"name": a.name, "description": a.description, "capabilities": a.capabilities}))
            .collect();
        let steps: Vec<Value> = self
            .state
            .plan
            .steps
            .iter()
            .map(|s| {
                json!({"id": s.id, "capabilityId": s.capability_id, "action": s.action, "agent": s.agent,
                       "status": s.status, "qa": s.qa})
            })
            .collect();
        let mut view = json!({
            "objective": self.state.objective,
            "brief": self.state.payload,
            "constraints": self.state.constraints,
            "registry": registry,
            "plan": {"version": self.state.plan.version, "steps": steps},
        });
        if let Some(said) = self.human_input() {
            view["humanInput"] = said;
        }
        view
    }

    fn planner_system(&self) -> String {
        let extra = self.config().planner_instruction.as_deref().map(|i| format!("\n{i}")).unwrap_or_default();
        format!("{SENTINEL_START}\n{PLANNER_RULES}{extra}\n{SENTINEL_END}")
    }

    async fn ask_planner(&mut self, messages: Vec<Message>) -> ModuleResult<String> {
        self.state.turns += 1;
        let provider = self.orch.config.provider.clone();
        let mut attempt = 0;
        let prompt: Vec<String> = messages.iter().map(|m| m.content.text()).collect();
        self.preview(ORCHESTRATOR, None, &prompt.join("\n\n")).await;
        loop {
            attempt += 1;
            let request = ChatRequest { messages: messages.clone().into(), ..ChatRequest::default() };
            let request_event = json!({"provider": provider, "iteration": self.state.turns, "role": "planner"});
            self.orch.emit(events::PROVIDER_REQUEST, request_event).await;
            match self.orch.host.complete(provider.as_deref(), request).await {
                Ok(response) => {
                    self.orch
                        .emit(
                            events::PROVIDER_RESPONSE,
                            json!({"provider": provider, "usage": response.usage, "role": "planner"}),
                        )
                        .await;
                    return Ok(response.text());
                }
                Err(err) => {
                    let error = json!({"type": err.kind_name(), "msg": err.message});
                    self.orch
                        .emit(
                            events::PROVIDER_ERROR,
                            json!({"provider": provider, "error": error, "retryable": err.retryable}),
                        )
                        .await;
                    if err.retryable && attempt <= self.config().step_retries {
                        self.warn(
                            "planner_retry",
                            format!("the planner failed ({}); retrying", err.message),
                            json!({}),
                        )
                        .await;
                        continue;
                    }
                    self.save().await?;
                    return Err(err);
                }
            }
        }
    }

    /// One planner turn.
    async fn plan_turn(&mut self) -> ModuleResult<Next> {
        self.set_phase("planning", "Planning the next steps").await;
        let mut messages = vec![Message::system(self.planner_system()), Message::user(self.planner_view().to_string())];
        let reply = self.ask_planner(messages.clone()).await?;
        let action = match parse_action(&reply) {
            Ok(action) => Ok(action),
            Err(problem) => {
                messages.push(Message::new(Role::Assistant, reply));
                messages.push(Message::user(format!(
                    "Your answer was not a valid action: {problem}. Answer again with exactly one JSON object: a plan_update, handoff or final action."
                )));
                let retry = self.ask_planner(messages).await?;
                parse_action(&retry)
            }
        };
        let action = match action {
            Ok(action) => action,
            Err(problem) => {
                self.warn(
                    "planner_parse_failed",
                    format!("the planner's answer was not a valid action twice ({problem}); using the default plan"),
                    json!({}),
                )
                .await;
                let steps = self.default_plan();
                let patch = PlanPatch { steps: Some(steps), ..PlanPatch::default() };
                self.apply_patch(&patch, Some("default plan".into())).await?;
                return Ok(Next::Continue);
            }
        };
        match action {
            Action::PlanUpdate { plan_patch, note } => {
                self.apply_patch(&plan_patch, note).await?;
                Ok(Next::Continue)
            }
            Action::Handoff { to, capability_id, payload, note } => {
                let spec = StepSpec {
                    capability_id: Some(capability_id),
                    agent: Some(to),
                    payload: Some(payload),
                    note,
                    ..StepSpec::default()
                };
                let patch = PlanPatch { add: vec![spec], ..PlanPatch::default() };
                self.apply_patch(&patch, Some("handoff".into())).await?;
                Ok(Next::Continue)
            }
            Action::Final { bundle, note } => {
                self.state.summary = bundle.get("summary").and_then(Value::as_str).map(str::to_owned).or(note);
                Ok(Next::Finalize)
            }
            Action::HitlRequest { question, options, .. } => {
                Ok(match self.ask_person(ORCHESTRATOR, None, question, options).await? {
                    Some(paused) => Next::Pause(paused),
                    None => Next::Continue,
                })
            }
        }
    }

    /// Strategy (when someone offers it), generation, QA, finalize, leaving
    /// out roles already done.
    fn default_plan(&self) -> Vec<StepSpec> {
        let roles = &self.config().roles;
        let done = |cap: &str| {
            self.state
                .plan
                .steps
                .iter()
                .any(|s| s.status == StepStatus::Done && s.capability_id.as_deref() == Some(cap))
        };
        let offered = |cap: &str| self.registry.iter().any(|a| a.capabilities.iter().any(|c| c == cap));
        let mut steps = Vec::new();
        if offered(&roles.strategy) && !done(&roles.strategy) {
            steps.push(StepSpec { capability_id: Some(roles.strategy.clone()), ..StepSpec::default() });
        }
        if let Some(generation) = roles.generation.first() {
            if !roles.generation.iter().any(|g| done(g)) {
                steps.push(StepSpec { capability_id: Some(generation.clone()), ..StepSpec::default() });
            }
        }
        if !done(&roles.qa) {
            steps.push(StepSpec { capability_id: Some(roles.qa.clone()), ..StepSpec::default() });
        }
        steps.push(StepSpec { id: Some("finalize".into()), action: Some("finalize".into()), ..StepSpec::default() });
        steps
    }

    fn unique_id(&self, wanted: Option<&str>, capability: Option<&str>) -> String {
        let base = wanted
            .map(str::to_owned)
            .or_else(|| capability.map(|c| c.replace(|ch: char| !ch.is_ascii_alphanumeric(), "_")))
            .unwrap_or_else(|| "step".into());
        let taken = |id: &str| self.state.plan.steps.iter().any(|s| s.id == id);
        if !taken(&base) {
            return base;
        }
        (2..).map(|n| format!("{base}_{n}")).find(|id| !taken(id)).unwrap_or(base)
    }

    fn step_from(&self, spec: &StepSpec) -> Step {
        let finalize = spec.action.as_deref() == Some("finalize");
        Step {
            id: self.unique_id(spec.id.as_deref(), spec.capability_id.as_deref()),
            capability_id: if finalize { None } else { spec.capability_id.clone() },
            action: finalize.then(|| "finalize".to_owned()),
            agent: spec.agent.clone(),
            status: StepStatus::Pending,
            note: spec.note.clone(),
            payload: spec.payload.clone(),
            artifact: None,
            qa: None,
        }
    }

    async fn apply_patch(&mut self, patch: &PlanPatch, note: Option<String>) -> ModuleResult<()> {
        let steps = &mut self.state.plan.steps;
        steps.retain(|s| !(s.is_pending() && patch.remove.contains(&s.id)));
        if let Some(replacement) = &patch.steps {
            steps.retain(|s| !s.is_pending());
            for spec in replacement {
                let step = self.step_from(spec);
                self.state.plan.steps.push(step);
            }
        }
        for spec in &patch.add {
            let step = self.step_from(spec);
            self.insert_before_finalize(step);
        }
        let added: Vec<Value> = patch
            .steps
            .iter()
            .flatten()
            .chain(&patch.add)
            .map(|s| {
                let fields =
                    [("id", &s.id), ("capabilityId", &s.capability_id), ("action", &s.action), ("agent", &s.agent)];
                let present = fields.into_iter().filter_map(|(k, v)| v.as_ref().map(|v| (k.to_owned(), json!(v))));
                Value::Object(present.collect())
            })
            .collect();
        let patch_json = json!({"replace": patch.steps.is_some(), "add": added, "remove": patch.remove});
        self.plan_updated(patch_json, note).await
    }

    fn insert_before_finalize(&mut self, step: Step) {
        let steps = &mut self.state.plan.steps;
        match steps.iter().position(|s| s.is_pending() && s.is_finalize()) {
            Some(at) => steps.insert(at, step),
            None => steps.push(step),
        }
    }

    // -- steps ------------------------------------------------------------------

    fn agent_for(&self, step: &Step) -> Option<String> {
        let capability = step.capability_id.as_deref()?;
        let has = |a: &AgentSummary| a.capabilities.iter().any(|c| c == capability);
        if let Some(wanted) = &step.agent {
            if self.registry.iter().any(|a| &a.name == wanted && has(a)) {
                return Some(wanted.clone());
            }
        }
        self.registry.iter().find(|a| has(a)).map(|a| a.name.clone())
    }

    fn missing_reason(&self, capability: &str) -> &'static str {
        let roles = &self.config().roles;
        if capability == roles.qa {
            "missing_qa"
        } else if roles.generation.iter().any(|g| g == capability) {
            "missing_generation"
        } else {
            "missing_capability"
        }
    }

    /// The latest artifact of each capability done so far, QA reports aside.
    fn context_artifacts(&self) -> Value {
        let mut context = serde_json::Map::new();
        for step in &self.state.plan.steps {
            let (Some(cap), Some(artifact)) = (&step.capability_id, &step.artifact) else { continue };
            if step.status == StepStatus::Done && *cap != self.config().roles.qa {
                context.insert(cap.clone(), artifact.clone());
            }
        }
        Value::Object(context)
    }

    fn latest_generation(&self) -> Option<&Step> {
        let roles = &self.config().roles;
        self.state.plan.steps.iter().rev().find(|s| {
            s.status == StepStatus::Done
                && s.artifact.is_some()
                && s.capability_id.as_deref().is_some_and(|c| roles.generation.iter().any(|g| g == c))
        })
    }

    /// What the specialist receives: the payload only (no orchestration
    /// prompt), with the relevant artifacts as its filtered history.
    fn payload_for(&self, step: &Step) -> Value {
        let capability = step.capability_id.clone().unwrap_or_default();
        let constraints = &self.state.constraints;
        let mut payload = serde_json::Map::new();
        payload.insert("capabilityId".into(), json!(capability));
        payload.insert("objective".into(), json!(self.state.objective));
        if !self.state.payload.is_null() {
            payload.insert("brief".into(), self.state.payload.clone());
        }
        if !constraints.acceptance_criteria.is_empty() {
            payload.insert("acceptanceCriteria".into(), json!(constraints.acceptance_criteria));
        }
        let context = self.context_artifacts();
        if context.as_object().is_some_and(|c| !c.is_empty()) {
            payload.insert("context".into(), context);
        }
        if capability == self.config().roles.qa {
            payload.insert("qualityThreshold".into(), json!(constraints.quality_threshold));
            if let Some(draft) = self.latest_generation().and_then(|s| s.artifact.as_ref()) {
                payload.insert("draft".into(), json!(content_of(draft)));
            }
        }
        if let Some(note) = &step.note {
            payload.insert("instructions".into(), json!(note));
        }
        if let Some(said) = self.human_input() {
            payload.insert("humanInput".into(), said);
        }
        if let Some(Value::Object(extra)) = &step.payload {
            for (key, value) in extra {
                if key != "capabilityId" {
                    payload.insert(key.clone(), value.clone());
                }
            }
        }
        let mut payload = Value::Object(payload);
        scrub(&mut payload);
        payload
    }

    /// Runs one step; `Some` when its specialist asked a person and the run
    /// pauses (the result to return now).
    async fn run_step(&mut self, index: usize) -> ModuleResult<Option<String>> {
        let step = &self.state.plan.steps[index];
        let Some(agent) = self.agent_for(step) else { return self.skip_step(index).await };
        let attributes = json!({
            "stepId": step.id,
            "capabilityId": step.capability_id,
            "agent": agent,
            // The generation → QA cycle this step belongs to.
            "depth": self.qa_cycles() + 1,
        });
        let span = Span::start(&self.orch.host, &format!("handoff.{agent}"), Some(&self.span), attributes).await;
        let result = self.handoff(index, agent).await;
        let step = &self.state.plan.steps[index];
        let mut attributes = json!({"status": step.status, "asked_person": matches!(result, Ok(Some(_)))});
        if let Some(qa) = &step.qa {
            attributes["qa.score"] = json!(qa.score);
            attributes["qa.pass"] = json!(qa.pass);
        }
        let outcome = match &result {
            Err(err) => Err(err.message.clone()),
            Ok(_) if step.status == StepStatus::Failed => Err("the specialist never answered".to_owned()),
            Ok(_) => Ok(()),
        };
        span.end(outcome, attributes).await;
        result
    }

    /// No agent offers the step's capability: it is skipped, with a warning.
    async fn skip_step(&mut self, index: usize) -> ModuleResult<Option<String>> {
        let step = self.state.plan.steps[index].clone();
        let capability = step.capability_id.clone().unwrap_or_default();
        self.state.plan.steps[index].status = StepStatus::Skipped;
        let reason = self.missing_reason(&capability);
        self.warn(
            reason,
            format!("no agent offers capability `{capability}`; step `{}` is skipped", step.id),
            json!({"capabilityId": capability, "stepId": step.id}),
        )
        .await;
        let patch = json!({"skip": [step.id], "reason": "missing capability"});
        self.plan_updated(patch, Some(format!("capability `{capability}` is not available"))).await?;
        Ok(None)
    }

    /// Hands step `index` off to `agent` and takes in the answer.
    async fn handoff(&mut self, index: usize, agent: String) -> ModuleResult<Option<String>> {
        let step = self.state.plan.steps[index].clone();
        let capability = step.capability_id.clone().unwrap_or_default();
        self.state.turns += 1;
        self.state.plan.steps[index].agent = Some(agent.clone());
        let payload = self.payload_for(&step);
        let handoff = |status: &str| json!({"status": status, "from": ORCHESTRATOR, "to": agent, "capabilityId": capability, "stepId": step.id});
        self.orch.emit("plan:handoff", handoff("requested")).await;
        self.orch.emit("plan:handoff", handoff("occurred")).await;
        let phase = self.config().phase_of(&capability);
        self.set_phase(&phase, &format!("{agent}: {capability}")).await;
        let started = Instant::now();
        let answer = self.spawn_with_retries(&agent, &step.id, &payload).await?;
        let duration_ms = started.elapsed().as_millis() as u64;

        let status = match answer {
            Some(answer) => {
                let artifact = artifact_from(&answer);
                if let Some((question, options)) = hitl_request_in(&artifact) {
                    // Asked once more after a refusal, the answer is taken as it is.
                    let refused_before =
                        self.state.hitl.iter().any(|h| h.denied && h.step_id.as_ref() == Some(&step.id));
                    if !refused_before {
                        // Paused, or refused: then the step runs again, told so.
                        return self.ask_person(&agent, Some(step.id.clone()), question, options).await;
                    }
                }
                self.state.history.push(HistoryEntry {
                    step_id: step.id.clone(),
                    agent: agent.clone(),
                    capability_id: capability.clone(),
                    payload: payload.clone(),
                    output: answer.clone(),
                });
                let target = &mut self.state.plan.steps[index];
                target.artifact = Some(artifact);
                target.status = StepStatus::Done;
                if capability == self.config().roles.qa {
                    self.quality_gate(index, &answer).await?;
                }
                StepStatus::Done
            }
            None => {
                self.state.plan.steps[index].status = StepStatus::Failed;
                StepStatus::Failed
            }
        };
        self.save().await?;
        self.orch
            .emit(
                "plan:step",
                json!({"stepId": step.id, "agent": agent, "capabilityId": capability, "status": status,
                       "finished": self.state.finished_handoffs()}),
            )
            .await;
        self.orch.emit("plan:metrics", json!({"agent": agent, "stepId": step.id, "durationMs": duration_ms})).await;
        stop_after_step_for_tests(self.state.finished_handoffs());
        Ok(None)
    }

    /// Runs the specialist, retrying failures and timeouts; `None` when it
    /// never answered (the run goes on best-effort). Cancellation is an error.
    async fn spawn_with_retries(
        &mut self,
        agent: &str,
        step_id: &str,
        payload: &Value,
    ) -> ModuleResult<Option<String>> {
        let instruction = serde_json::to_string_pretty(payload).unwrap_or_default();
        self.preview(agent, Some(step_id), &instruction).await;
        let timeout = Duration::from_secs(self.config().step_timeout_secs.max(1));
        let attempts = self.config().step_retries + 1;
        for attempt in 1..=attempts {
            let session_id = self.orch.children.lock().await.get(agent).cloned();
            let request = SpawnRequest {
                agent: agent.to_owned(),
                instruction: instruction.clone(),
                session_id,
                ..SpawnRequest::default()
            };
            let failure = match tokio::time::timeout(timeout, self.orch.host.spawn(request)).await {
                Ok(Ok(done)) => {
                    self.orch.children.lock().await.insert(agent.to_owned(), done.session_id);
                    return Ok(Some(done.response));
                }
                Ok(Err(err)) if err.kind == ErrorKind::Cancelled || self.orch.cancelled().await => {
                    self.save().await?;
                    return Err(err);
                }
                Ok(Err(err)) => err.message,
                Err(_) => format!("timeout after {} s", timeout.as_secs()),
            };
            // A failed child is not continued: the next attempt starts afresh.
            self.orch.children.lock().await.remove(agent);
            let data = json!({"stepId": step_id, "agent": agent, "attempt": attempt, "error": failure});
            if attempt < attempts {
                self.warn("step_retry", format!("Step {step_id} failed ({failure}); retrying"), data).await;
            } else {
                self.warn("step_failed", format!("Step {step_id} failed ({failure}); proceeding best-effort"), data)
                    .await;
            }
        }
        Ok(None)
    }

    async fn quality_gate(&mut self, index: usize, answer: &str) -> ModuleResult<()> {
        let threshold = self.state.constraints.quality_threshold;
        let qa = match parse_qa(answer, threshold) {
            Some(qa) => qa,
            None => {
                let step_id = self.state.plan.steps[index].id.clone();
                self.warn(
                    "qa_parse_failed",
                    format!("the QA answer of step {step_id} holds no {{pass, score, issues}} report"),
                    json!({"stepId": step_id}),
                )
                .await;
                crate::state::QaReport {
                    pass: false,
                    score: 0.0,
                    issues: vec!["the QA answer was not a {pass, score, issues} report".into()],
                    criteria: vec![],
                }
            }
        };
        self.state.plan.steps[index].qa = Some(qa.clone());
        let content = self.latest_generation().and_then(|s| s.artifact.as_ref()).map(content_of).unwrap_or_default();
        let criteria = quality::evaluate_criteria(&self.state.constraints.acceptance_criteria, Some(&qa), &content);
        let Some(notes) = quality::revision_notes(&qa, &criteria, threshold) else { return Ok(()) };
        let cycles = self.qa_cycles();
        let depth = self.state.constraints.execution_depth;
        if cycles >= depth {
            self.orch
                .emit(
                    "plan:message",
                    json!({"message": format!("execution depth {depth} reached with QA failing; finalizing best-effort")}),
                )
                .await;
            return Ok(());
        }
        let Some(generation) = self.latest_generation().cloned() else {
            self.warn("missing_generation", "QA failed but there is no draft to revise".into(), json!({})).await;
            return Ok(());
        };
        let qa_step = &self.state.plan.steps[index];
        let revise = StepSpec {
            id: Some(format!("rev_generation_{cycles}")),
            capability_id: generation.capability_id.clone(),
            agent: generation.agent.clone(),
            payload: Some(json!({"mode": "revise", "revisionNotes": notes})),
            ..StepSpec::default()
        };
        let review = StepSpec {
            id: Some(format!("rev_qa_{cycles}")),
            capability_id: qa_step.capability_id.clone(),
            agent: qa_step.agent.clone(),
            ..StepSpec::default()
        };
        let patch = PlanPatch { add: vec![revise, review], ..PlanPatch::default() };
        self.apply_patch(&patch, Some(format!("revision {cycles}: QA score {} (threshold {threshold})", qa.score)))
            .await
    }

    fn qa_cycles(&self) -> u32 {
        let qa = &self.config().roles.qa;
        self.state
            .plan
            .steps
            .iter()
            .filter(|s| s.status == StepStatus::Done && s.capability_id.as_ref() == Some(qa))
            .count() as u32
    }

    // -- finalization -------------------------------------------------------------

    async fn finalize(&mut self) -> ModuleResult<String> {
        self.set_phase("finalization", "Assembling the final bundle").await;
        let generation = self.latest_generation().cloned();
        let qa = self.state.plan.steps.iter().rev().find_map(|s| s.qa.clone());
        if generation.is_none() {
            self.warn("missing_generation", "no specialist produced the deliverable".into(), json!({})).await;
        }
        if qa.is_none() {
            self.warn("missing_qa", "the deliverable was not reviewed by a QA specialist".into(), json!({})).await;
        }
        let artifacts: serde_json::Map<String, Value> =
            self.state.plan.steps.iter().filter_map(|s| s.artifact.clone().map(|a| (s.id.clone(), a))).collect();
        let outcome = quality::Outcome {
            content: generation.as_ref().and_then(|s| s.artifact.as_ref()).map(content_of),
            qa: qa.as_ref(),
            constraints: &self.state.constraints,
            artifacts: Value::Object(artifacts),
            cycles: self.qa_cycles(),
        };
        let bundle = quality::bundle(&outcome);
        for step in self.state.plan.steps.iter_mut().filter(|s| s.is_pending()) {
            step.status = StepStatus::Skipped;
        }
        self.state.bundle = Some(bundle.clone());
        self.state.status = "completed".into();
        self.save().await?;
        self.orch.emit("plan:complete", json!({"threadId": self.state.thread_id, "bundle": bundle})).await;
        Ok(bundle.to_string())
    }
}

/// A specialist's `{"hitl_request": {question, options?}}`: it asks a person.
fn hitl_request_in(artifact: &Value) -> Option<(String, Vec<String>)> {
    let asked = artifact.get("hitl_request")?;
    let question = asked.get("question")?.as_str()?.trim();
    if question.is_empty() {
        return None;
    }
    let options = asked.get("options").and_then(Value::as_array);
    let options = options.map(|o| o.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default();
    Some((question.to_owned(), options))
}

fn stop_after_step_for_tests(finished: usize) {
    if let Some(stop) = std::env::var(STOP_AFTER_STEP_ENV).ok().and_then(|v| v.parse::<usize>().ok()) {
        if finished >= stop {
            eprintln!("{STOP_AFTER_STEP_ENV}={stop}: exiting after step {finished} (test crash point)");
            std::process::exit(86);
        }
    }
}

// -- chat mode ----------------------------------------------------------------------

pub(crate) async fn run_chat(orch: &PlanOrchestrator, request: RunRequest) -> ModuleResult<String> {
    let thread = resolve_thread(&request)?;
    let message = request.objective.clone().unwrap_or_default();
    if message.trim().is_empty() {
        return Err(ModuleError::new(ErrorKind::InvalidRequest, "the chat request has no `message` (or `objective`)"));
    }
    let store = Store::new(&orch.host, &thread);
    let mut state = match store.load().await? {
        Some(state) => state,
        None => {
            let mut state = RunState::new(&thread, "", Value::Null, request.constraints(&orch.config));
            state.status = "chat".into();
            state
        }
    };
    orch.emit("plan:start", json!({"threadId": thread, "mode": "chat", "agent": request.agent})).await;
    orch.emit("plan:phase", json!({"phase": "generation", "message": "chat"})).await;
    let started = Instant::now();
    let earlier: Vec<&ChatTurn> = state.chat.iter().filter(|t| t.agent == request.agent).collect();
    let answer = match &request.agent {
        Some(agent) => {
            let registry = orch.host.agents().await?;
            if !registry.iter().any(|a| &a.name == agent) {
                let known: Vec<&str> = registry.iter().map(|a| a.name.as_str()).collect();
                return Err(ModuleError::new(
                    ErrorKind::NotFound,
                    format!("no agent `{agent}` in the plan's `agents:` (known: {})", known.join(", ")),
                ));
            }
            let mut instruction = String::new();
            if !earlier.is_empty() {
                instruction.push_str("Earlier in this conversation:\n");
                for turn in &earlier {
                    instruction.push_str(&format!("{}: {}\n", turn.role, turn.content));
                }
                instruction.push('\n');
            }
            instruction.push_str(&message);
            let mut payload = Value::String(instruction);
            scrub(&mut payload);
            let request = SpawnRequest {
                agent: agent.clone(),
                instruction: payload.as_str().unwrap_or_default().to_owned(),
                ..SpawnRequest::default()
            };
            orch.host.spawn(request).await?.response
        }
        None => {
            let instruction = orch.config.chat_instruction.clone().unwrap_or_else(|| DEFAULT_CHAT_INSTRUCTION.into());
            let mut messages = vec![Message::system(instruction)];
            for turn in &earlier {
                let role = if turn.role == "assistant" { Role::Assistant } else { Role::User };
                messages.push(Message::new(role, turn.content.clone()));
            }
            messages.push(Message::user(message.clone()));
            let conversation = crate::specialist::Conversation::Given(messages);
            crate::specialist::stream_completion(orch, orch.config.provider.as_deref(), conversation, None)
                .await?
                .text()
        }
    };
    state.chat.push(ChatTurn { role: "user".into(), content: message, agent: request.agent.clone() });
    state.chat.push(ChatTurn { role: "assistant".into(), content: answer.clone(), agent: request.agent.clone() });
    store.save(&state).await?;
    orch.emit("plan:message", json!({"message": answer})).await;
    tracing::debug!(duration_ms = started.elapsed().as_millis() as u64, "chat turn done");
    Ok(json!({"message": answer}).to_string())
}
