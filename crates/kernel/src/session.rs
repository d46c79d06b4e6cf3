//! The session lifecycle: mount the plan's modules, run prompts, clean up.
//!
//! Policy (upstream's, made loud): the orchestrator and the context must load
//! or the session fails with an error naming the module; providers, tools and
//! hooks that fail emit `module:load_failed` and are reported in the
//! [`LoadReport`], which the front end must show (and by default treat as
//! fatal: upstream users lost work to silent partial composition).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use crate::coordinator::{Coordinator, MountedProvider};
use crate::errors::ModuleError;
use crate::events;
use crate::loading::{LoadError, LoadFailure, LoadReport, LoadedModule, ModuleLoader, Mounted, SessionReady};
use crate::models::{JsonMap, Message, RunStatus};
use crate::plan::{ModuleKind, ModuleSpec, MountPlan};

mod children;

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("cannot start the session: {kind} module '{module}' failed to load: {error}")]
    Essential { kind: ModuleKind, module: String, error: LoadError },
    #[error("invalid mount plan: {0}")]
    Plan(String),
    #[error("no provider is mounted: add one under `providers:` in the plan")]
    NoProvider,
    #[error("{0}")]
    Module(#[from] ModuleError),
}

#[derive(Default)]
pub struct SessionOptions {
    pub session_id: Option<String>,
    pub parent_id: Option<String>,
    /// Emit `session:resume` instead of `session:start`.
    pub is_resumed: bool,
    /// Fork metadata echoed in `session:fork`.
    pub metadata: Option<JsonMap>,
    /// How many sessions up the top-level one is (0 for a top-level session).
    pub depth: u32,
    /// The parent's token for a child session, so cancelling the parent
    /// cancels the child; a fresh token otherwise.
    pub cancellation: Option<crate::cancellation::CancellationToken>,
    /// Told about this session and, inherited, about every child session
    /// it spawns.
    pub observers: Vec<Arc<dyn SessionObserver>>,
}

/// Sees each session of a session tree as it is created, before any of its
/// modules mount: the top-level session and every child the kernel spawns
/// for it (children inherit their parent's observers). Front ends hang
/// their recorders and event mappers here.
pub trait SessionObserver: Send + Sync {
    fn session_created(&self, coordinator: &Arc<Coordinator>);
}

pub struct Session {
    coordinator: Arc<Coordinator>,
    loader: Arc<dyn ModuleLoader>,
    children: Arc<children::ChildSpawner>,
    is_resumed: bool,
    metadata: Option<JsonMap>,
    initialized: AtomicBool,
    started: AtomicBool,
    status: Mutex<RunStatus>,
    /// The mounted modules' `on_session_ready`, in mount order, by module id.
    ready: Mutex<Vec<(String, SessionReady)>>,
}

impl Session {
    pub fn new(plan: MountPlan, loader: Arc<dyn ModuleLoader>, options: SessionOptions) -> Self {
        let session_id = options.session_id.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let coordinator = Arc::new(Coordinator::with_lineage(
            session_id,
            options.parent_id,
            Arc::new(plan),
            options.depth,
            options.cancellation.unwrap_or_default(),
        ));
        let children = children::ChildSpawner::new(&coordinator, loader.clone(), options.observers.clone());
        coordinator.set_spawner(children.clone());
        for observer in &options.observers {
            observer.session_created(&coordinator);
        }
        Session {
            coordinator,
            loader,
            children,
            is_resumed: options.is_resumed,
            metadata: options.metadata,
            initialized: AtomicBool::new(false),
            started: AtomicBool::new(false),
            status: Mutex::new(RunStatus::Running),
            ready: Mutex::default(),
        }
    }

    pub fn coordinator(&self) -> &Arc<Coordinator> {
        &self.coordinator
    }

    pub fn session_id(&self) -> &str {
        self.coordinator.session_id()
    }

    pub fn status(&self) -> RunStatus {
        *self.status.lock().expect("status lock")
    }

    /// Mounts every module of the plan. Idempotent once it succeeded; a
    /// failed attempt leaves the session uninitialized (no `session:start`
    /// or `session:end`, and the next call tries again and reports again).
    pub async fn initialize(&self) -> Result<LoadReport, SessionError> {
        if self.initialized.swap(true, Ordering::SeqCst) {
            return Ok(LoadReport::default());
        }
        let result = self.mount_plan().await;
        if result.is_err() {
            self.initialized.store(false, Ordering::SeqCst);
        }
        result
    }

    async fn mount_plan(&self) -> Result<LoadReport, SessionError> {
        // What an earlier, failed attempt mounted is not this one's.
        self.ready.lock().expect("session-ready lock").clear();
        let plan = self.coordinator.plan().clone();
        validate_provider_instances(&plan.providers)?;
        let mut report = LoadReport::default();

        let specs: Vec<&ModuleSpec> = [&plan.session.orchestrator, &plan.session.context]
            .into_iter()
            .chain(plan.providers.iter())
            .chain(plan.tools.iter())
            .chain(plan.hooks.iter())
            .collect();
        self.loader.prepare(&specs).await;
        if let Some(spec) = &plan.session.resolver {
            self.load_optional(ModuleKind::Resolver, spec, &mut report).await;
        }
        for (kind, spec) in
            [(ModuleKind::Orchestrator, &plan.session.orchestrator), (ModuleKind::Context, &plan.session.context)]
        {
            let mut loaded = self.load(kind, spec).await.map_err(|error| SessionError::Essential {
                kind,
                module: spec.module.clone(),
                error,
            })?;
            report.warnings.append(&mut loaded.warnings);
            self.mount(kind, spec, loaded);
            report.mounted.push(format!("{kind} {}", spec.module));
        }
        for (kind, specs) in
            [(ModuleKind::Provider, &plan.providers), (ModuleKind::Tool, &plan.tools), (ModuleKind::Hook, &plan.hooks)]
        {
            for spec in specs {
                self.load_optional(kind, spec, &mut report).await;
            }
        }

        self.session_ready().await;
        // A resumed session's history already starts with it.
        if let (Some(system), false) = (&plan.system, self.is_resumed) {
            self.coordinator.add_message(Message::system(system.instruction.clone())).await?;
        }
        if let Some(parent) = self.coordinator.parent_id() {
            let mut data = JsonMap::new();
            data.insert("parent".into(), json!(parent));
            data.insert("session_id".into(), json!(self.session_id()));
            if let Some(metadata) = self.metadata() {
                data.insert("metadata".into(), Value::Object(metadata));
            }
            self.coordinator.emit(events::SESSION_FORK, data).await;
        }
        Ok(report)
    }

    /// Upstream's `on_session_ready` wave: each module that has one, in
    /// mount order, one after the other; a failure is reported and the
    /// session goes on without it.
    async fn session_ready(&self) {
        let ready = std::mem::take(&mut *self.ready.lock().expect("session-ready lock"));
        for (module, ready) in ready {
            if let Err(err) = ready().await {
                tracing::warn!(%module, error = %err, "on_session_ready failed");
                let mut data = JsonMap::new();
                data.insert("module_id".into(), json!(module));
                data.insert("error".into(), json!(err.to_string()));
                self.coordinator.emit(events::MODULE_ON_SESSION_READY_FAILED, data).await;
            }
        }
    }

    /// What `session:start` and `session:fork` echo: the plan's
    /// `session.metadata`, under the metadata this session was made with.
    fn metadata(&self) -> Option<JsonMap> {
        let mut metadata = self.coordinator.plan().session.metadata.clone();
        metadata.extend(self.metadata.iter().flatten().map(|(k, v)| (k.clone(), v.clone())));
        (!metadata.is_empty()).then_some(metadata)
    }

    async fn load(&self, kind: ModuleKind, spec: &ModuleSpec) -> Result<LoadedModule, LoadError> {
        self.loader.load(kind, spec, &self.coordinator).await
    }

    async fn load_optional(&self, kind: ModuleKind, spec: &ModuleSpec, report: &mut LoadReport) {
        match self.load(kind, spec).await {
            Ok(mut loaded) => {
                report.warnings.append(&mut loaded.warnings);
                self.mount(kind, spec, loaded);
                report.mounted.push(format!("{kind} {}", spec.mount_name()));
            }
            Err(error) => {
                // The report carries it to the front end, which tells the user once.
                tracing::info!(module = %spec.module, %kind, error = %error.message, "module failed to load");
                let mut data = JsonMap::new();
                data.insert("module_type".into(), json!(kind.as_str()));
                data.insert("module_id".into(), json!(spec.module));
                data.insert("error".into(), json!(error.message));
                data.insert("reason_code".into(), json!(error.reason));
                if let Some(instance) = &spec.instance_id {
                    data.insert("instance_id".into(), json!(instance));
                }
                self.coordinator.emit(events::MODULE_LOAD_FAILED, data).await;
                report.failures.push(LoadFailure {
                    kind,
                    module: spec.module.clone(),
                    field_path: spec.field_path.clone(),
                    reason: error.reason,
                    error: error.message,
                });
            }
        }
    }

    fn mount(&self, kind: ModuleKind, spec: &ModuleSpec, loaded: LoadedModule) {
        let coordinator = &self.coordinator;
        match loaded.mounted {
            Mounted::Orchestrator(orchestrator) => coordinator.mount_orchestrator(orchestrator),
            Mounted::Context(context) => coordinator.mount_context(context),
            Mounted::Provider(provider) => coordinator.mount_provider(MountedProvider {
                name: spec.mount_name().to_owned(),
                module: spec.module.clone(),
                priority: spec.priority(),
                provider,
            }),
            Mounted::Tools(tools) => {
                for tool in tools {
                    coordinator.mount_tool(&spec.module, tool);
                }
            }
            Mounted::Hooks(subscriptions) => {
                for sub in subscriptions {
                    coordinator.hooks().register(&sub.event, sub.handler, sub.priority, sub.name);
                }
            }
            Mounted::Resolver(resolver) => coordinator.mount_resolver(resolver),
        }
        if let Some(cleanup) = loaded.cleanup {
            coordinator.register_cleanup(format!("{kind} {}", spec.mount_name()), cleanup);
        }
        if let Some(ready) = loaded.session_ready {
            self.ready.lock().expect("session-ready lock").push((spec.module.clone(), ready));
        }
    }

    /// Runs one prompt through the orchestrator.
    pub async fn execute(&self, prompt: &str) -> Result<String, SessionError> {
        self.initialize().await?;
        let coordinator = &self.coordinator;
        // A session that hands its work to the plan's agents (a router) may
        // have no model of its own: the agents bring theirs.
        if coordinator.providers().is_empty() && coordinator.plan().agents.is_empty() {
            return Err(SessionError::NoProvider);
        }
        if !self.started.swap(true, Ordering::SeqCst) {
            let event = if self.is_resumed { events::SESSION_RESUME } else { events::SESSION_START };
            let mut data = JsonMap::new();
            if let Some(metadata) = self.metadata() {
                data.insert("metadata".into(), Value::Object(metadata));
            }
            coordinator.emit(event, data).await;
            // Upstream's `session.raw: true`: the plan, secrets masked.
            if coordinator.plan().session.raw {
                let mut data = JsonMap::new();
                data.insert("config".into(), coordinator.plan().redacted_json());
                coordinator.emit(events::SESSION_CONFIG, data).await;
            }
        }
        let orchestrator =
            coordinator.orchestrator().ok_or_else(|| SessionError::Plan("no orchestrator is mounted".into()))?;
        coordinator.reset_turn();
        *self.status.lock().expect("status lock") = RunStatus::Running;
        let result = orchestrator.execute(prompt.to_owned(), coordinator.clone()).await;
        let status = match &result {
            Ok(_) if coordinator.cancellation().is_cancelled() => RunStatus::Cancelled,
            Ok(_) => RunStatus::Completed,
            Err(err) if err.kind == crate::ErrorKind::Cancelled => RunStatus::Cancelled,
            Err(_) => RunStatus::Failed,
        };
        *self.status.lock().expect("status lock") = status;
        Ok(result?)
    }

    /// Emits `session:end` (only when initialized) and runs cleanups in reverse.
    pub async fn cleanup(&self) {
        self.children.cleanup_children().await;
        if self.initialized.load(Ordering::SeqCst) {
            let mut data = JsonMap::new();
            data.insert("status".into(), json!(self.status()));
            self.coordinator.emit(events::SESSION_END, data).await;
        }
        self.coordinator.cleanup().await;
    }
}

/// At most one entry per provider module may omit `instance_id`, and mount
/// names must be unique (upstream's multi-instance rule).
fn validate_provider_instances(providers: &[ModuleSpec]) -> Result<(), SessionError> {
    let mut seen: Vec<&str> = Vec::new();
    for spec in providers {
        let name = spec.mount_name();
        if seen.contains(&name) {
            return Err(SessionError::Plan(format!(
                "{}: provider mount name '{name}' is used twice; give each instance of '{}' its own instance_id",
                spec.field_path, spec.module
            )));
        }
        seen.push(name);
    }
    Ok(())
}
