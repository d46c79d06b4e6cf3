//! amplifier-host: the one session lifecycle every front end runs.
//!
//! `amplifier run`, the REPL, `amplifier serve`, SSE output and `resume`
//! are front ends over this crate (codex-rs's core and front-ends split).
//! A [`Host`] is a parsed plan with the loader that mounts it and the lock
//! policy for it; [`Host::session`] builds a [`HostedSession`], which owns
//! everything around the kernel's `Session`:
//!
//! ```text
//! open ──▶ start ──▶ turn ──▶ turn … ──▶ finish
//!  │        │         │                   │
//!  │        │         │                   └ history captured, modules cleaned
//!  │        │         │                     up, turn written, lock written
//!  │        │         └ cancellation reset, prompt run, turn saved
//!  │        └ modules mounted, --locked enforced (or the lock written),
//!  │          load failures refused unless partial loads are allowed,
//!  │          the store open (or the session left unrecorded), a resumed
//!  │          session's history restored (repaired)
//!  └ kernel session created; recorder, sub-agent recorders, per-agent
//!    histories, approval system and observers attached; a new session's
//!    store opening on a thread beside the mounting
//! ```
//!
//! The host never touches the terminal: what a person should see comes out
//! as [`Notice`]s and [`HostError`]s, which front ends render.

pub mod compact;
mod error;
pub mod history;
mod lazy_store;
pub mod lock;
pub mod recording;
pub mod runs;
pub mod spill;
pub mod sse;
pub mod timings;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use amplifier_kernel::capabilities;
use amplifier_kernel::loading::{LoadReport, ModuleLoader};
use amplifier_kernel::models::{Message, Role, RunStatus};
use amplifier_kernel::plan::{ModuleSpec, MountPlan, ProviderChoice};
use amplifier_kernel::services::ApprovalSystem;
use amplifier_kernel::session::{Session, SessionObserver, SessionOptions};
use amplifier_kernel::Coordinator;
use amplifier_loader::DylibLoader;
use amplifier_plan::PlanDiagnostic;
use amplifier_store::{SessionLock, SessionRecord, Store};

pub use error::{load_hint, HostError};
pub use history::Conversation;
pub use recording::{RecordingError, StoreConfig};

use lock::PlanLock;
use recording::Recording;

/// Something a person should be told that does not stop the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Warning(String),
    Note(String),
}

/// Where notices go (a front end prints them; the default logs them).
pub type Notices = Arc<dyn Fn(Notice) + Send + Sync>;

fn log_notices() -> Notices {
    Arc::new(|notice| match notice {
        Notice::Warning(text) => tracing::warn!("{text}"),
        Notice::Note(text) => tracing::info!("{text}"),
    })
}

/// How a host treats its plan.
pub struct HostOptions {
    /// Never touch the network: git sources from the cache, offline builds.
    pub offline: bool,
    /// Keep `amplifier.lock` beside the plan (run, REPL, resume).
    pub keep_lock: bool,
    /// Refuse modules that resolve differently from the lock; never write it.
    pub locked: bool,
    /// Run even when some providers, tools or hooks failed to load.
    pub allow_partial: bool,
    /// An unknown key, in the plan or in a module's config, is an error
    /// instead of a warning.
    pub strict: bool,
    pub store: StoreConfig,
    /// `run --provider/--model/--max-tokens`: which provider is preferred,
    /// with which model and reply length.
    pub provider_choice: ProviderChoice,
    /// A tool result larger than this (as JSON) is kept as its beginning,
    /// the whole of it in a file under the state directory (`None`: no cap).
    pub max_tool_result_bytes: Option<usize>,
    pub notices: Notices,
}

impl Default for HostOptions {
    fn default() -> Self {
        HostOptions {
            offline: false,
            keep_lock: true,
            locked: false,
            allow_partial: false,
            strict: false,
            provider_choice: ProviderChoice::default(),
            store: StoreConfig::default(),
            max_tool_result_bytes: Some(spill::DEFAULT_MAX_BYTES),
            notices: log_notices(),
        }
    }
}

/// A parsed plan, the loader that mounts its modules and its lock policy.
/// Cheap to clone; one host serves any number of sessions.
#[derive(Clone)]
pub struct Host(Arc<HostInner>);

struct HostInner {
    plan_path: PathBuf,
    plan: MountPlan,
    /// The `bundle.name` of the bundle the plan was compiled from.
    bundle: Option<String>,
    warnings: Vec<PlanDiagnostic>,
    loader: Arc<DylibLoader>,
    lock: Option<PlanLock>,
    options: HostOptions,
}

impl Host {
    /// Parses the plan and sets up what loads it.
    pub fn open(plan_path: &Path, options: HostOptions) -> Result<Host, HostError> {
        // A bundle's directory stands for its bundle.md, beside which its
        // lock is kept.
        let located = amplifier_plan::bundle::locate(plan_path);
        let plan_path = located.as_deref().unwrap_or(plan_path);
        let mut parsed = parse_plan(plan_path, options.offline)?;
        parsed.plan.choose_provider(&options.provider_choice)?;
        if options.strict && !parsed.warnings.is_empty() {
            let hint = "--strict (or the `strict` setting) makes this warning an error";
            let errors = parsed.warnings.into_iter().map(|warning| warning.with_hint(hint)).collect();
            return Err(HostError::Plan(amplifier_plan::PlanError::Invalid { errors, warnings: Vec::new() }));
        }
        let base_dir = plan_path.canonicalize().ok().and_then(|p| p.parent().map(PathBuf::from));
        let lock = match options.keep_lock || options.locked {
            true => Some(PlanLock::open(plan_path, &parsed.plan, options.locked)?),
            false => None,
        };
        let mut loader = DylibLoader::new(base_dir, &amplifier_loader::amplifier_home());
        loader.set_offline(options.offline);
        loader.set_strict(options.strict);
        if let Some(lock) = &lock {
            lock.configure(&mut loader);
        }
        timings::phase("plan parsed, loader ready");
        Ok(Host(Arc::new(HostInner {
            plan_path: plan_path.to_owned(),
            plan: parsed.plan,
            bundle: parsed.bundle,
            warnings: parsed.warnings,
            loader: Arc::new(loader),
            lock,
            options,
        })))
    }

    pub fn plan(&self) -> &MountPlan {
        &self.0.plan
    }

    /// The name of the bundle the plan was compiled from, if it was.
    pub fn bundle(&self) -> Option<&str> {
        self.0.bundle.as_deref()
    }

    /// Takes a named run's lock in the session store (`serve`'s threads):
    /// held while the returned lock lives, by one process of all that share
    /// the store.
    pub fn lock_run(&self, name: &str) -> Result<SessionLock, RecordingError> {
        Ok(self.0.options.store.location().lock(name)?)
    }

    /// Where this host keeps sessions and runs.
    pub fn store(&self) -> &StoreConfig {
        &self.0.options.store
    }

    /// What the plan parser warned about (unknown keys, legacy fields).
    pub fn warnings(&self) -> &[PlanDiagnostic] {
        &self.0.warnings
    }

    /// Builds (or finds in the cache) every module the plan and its agents
    /// mount, so the first session does not wait for a compiler.
    pub async fn prepare_all(&self) {
        let specs = all_modules(self.plan());
        let refs: Vec<&ModuleSpec> = specs.iter().collect();
        ModuleLoader::prepare(&*self.0.loader, &refs).await;
    }

    /// A new session of this plan.
    pub fn session(&self) -> SessionBuilder {
        SessionBuilder {
            host: self.clone(),
            record: Record::Not,
            continues: false,
            one_turn: false,
            approval: None,
            conversation: None,
            observers: Vec::new(),
        }
    }
}

/// Parses a mount plan, or compiles a bundle, fetching its `git+`
/// includes into the git cache under `$AMPLIFIER_HOME` (from the cache
/// alone when `offline`).
pub fn parse_plan(path: &Path, offline: bool) -> Result<amplifier_plan::ParsedPlan, amplifier_plan::PlanError> {
    amplifier_plan::parse_plan_file_with(path, &GitIncludes::new(offline))
}

/// The mount plan a bundle compiles to, as YAML, with its warnings.
pub fn compile_bundle(path: &Path, offline: bool) -> Result<(String, Vec<PlanDiagnostic>), amplifier_plan::PlanError> {
    amplifier_plan::compile_bundle(path, &GitIncludes::new(offline))
}

/// A bundle's `git+` includes, checked out as module sources are. The URI
/// may name a file (`#subdirectory=behaviors/x.yaml`), so the repository
/// is checked out whole and the subdirectory found in it.
struct GitIncludes(amplifier_loader::git::GitCache);

impl GitIncludes {
    fn new(offline: bool) -> Self {
        let cache = amplifier_loader::git::GitCache::new(&amplifier_loader::amplifier_home());
        cache.set_offline(offline);
        GitIncludes(cache)
    }
}

impl amplifier_plan::bundle::IncludeFetcher for GitIncludes {
    fn fetch(&self, uri: &str, base_dir: &Path) -> Result<amplifier_plan::bundle::Fetched, String> {
        let mut spec = amplifier_loader::git::GitSpec::parse(uri, Some(base_dir)).map_err(|e| e.to_string())?;
        let subdirectory = spec.subdirectory.take();
        let checkout = self.0.checkout(&spec).map_err(|e| format!("cannot fetch `{uri}`: {e}"))?;
        let path = match subdirectory {
            Some(sub) => checkout.module_dir.join(sub),
            None => checkout.module_dir.clone(),
        };
        Ok(amplifier_plan::bundle::Fetched { path, root: checkout.module_dir })
    }
}

/// The plan's modules and those of every agent overlay.
fn all_modules(plan: &MountPlan) -> Vec<ModuleSpec> {
    let mut plans = vec![plan.clone()];
    for (name, overlay) in &plan.agents {
        let request = amplifier_kernel::ops::SpawnRequest::default();
        if let Ok(agent) = amplifier_kernel::spawn::agent_plan(plan, name, overlay, &request) {
            plans.push(agent);
        }
    }
    let mut specs: Vec<ModuleSpec> = Vec::new();
    for plan in plans {
        let session = [plan.session.orchestrator, plan.session.context];
        for spec in session.into_iter().chain(plan.providers).chain(plan.tools).chain(plan.hooks) {
            if !specs.iter().any(|s| s.module == spec.module && s.source == spec.source) {
                specs.push(spec);
            }
        }
    }
    specs
}

/// Whether and how a session is kept in the store.
enum Record {
    Not,
    New { name: Option<String> },
    Resume { store: Box<Store>, session: Box<SessionRecord>, lock: SessionLock },
}

/// What a new session gets besides the plan.
pub struct SessionBuilder {
    host: Host,
    record: Record,
    /// The first turn goes on from the restored history's last prompt.
    continues: bool,
    one_turn: bool,
    approval: Option<Arc<dyn ApprovalSystem>>,
    conversation: Option<Conversation>,
    observers: Vec<Arc<dyn SessionObserver>>,
}

impl SessionBuilder {
    /// Keep the session, and its sub-agents' sessions, in the store.
    pub fn record(mut self, name: Option<String>) -> Self {
        self.record = Record::New { name };
        self
    }

    /// Continue a stored session: its id, its history (restored by
    /// [`HostedSession::start`]), its next turn. The caller holds its lock.
    pub fn resume(mut self, store: Store, session: SessionRecord, lock: SessionLock) -> Self {
        self.record = Record::Resume { store: Box::new(store), session: Box::new(session), lock };
        self
    }

    /// The resumed session's history ends inside the turn of the prompt its
    /// first turn runs again (its worker died): when the history's last
    /// user message is that prompt, the turn goes on from the history
    /// ([`amplifier_protocol::capabilities::RESUMED_TURN`]) instead of
    /// asking it a second time.
    pub fn continue_turn(mut self) -> Self {
        self.continues = true;
        self
    }

    /// The session runs one turn (`amplifier run`): [`HostedSession::finish`]
    /// writes it, with the final status, where a session that goes on has
    /// each turn written as it ends and then a last write. Until then the
    /// recorder's mid-turn saves keep the crash bound.
    pub fn one_turn(mut self) -> Self {
        self.one_turn = true;
        self
    }

    /// Who answers the hooks' approval questions.
    pub fn approval(mut self, approval: Arc<dyn ApprovalSystem>) -> Self {
        self.approval = Some(approval);
        self
    }

    /// Per-agent histories for a routing orchestrator, scoped to this
    /// conversation.
    pub fn conversation(mut self, conversation: Conversation) -> Self {
        self.conversation = Some(conversation);
        self
    }

    /// Told about this session and each of its sub-agent sessions.
    pub fn observe(mut self, observer: Arc<dyn SessionObserver>) -> Self {
        self.observers.push(observer);
        self
    }

    /// Creates the session; nothing is mounted yet ([`HostedSession::start`]).
    pub fn open(self) -> Result<HostedSession, HostError> {
        let host = self.host;
        let inner = &host.0;
        let notices = &inner.options.notices;
        let mut observers = self.observers;
        let mut options = SessionOptions::default();
        if let Record::Resume { session, .. } = &self.record {
            options.session_id = Some(session.id.clone());
            options.is_resumed = true;
        }
        if !matches!(self.record, Record::Not) {
            observers.push(recording::sub_agents(&inner.options.store, &inner.plan_path, notices.clone()));
        }
        options.observers = observers;
        let loader: Arc<dyn ModuleLoader> = inner.loader.clone();
        let session = Session::new(inner.plan.clone(), loader, options);
        let coordinator = session.coordinator();
        let recording = match self.record {
            Record::Not => None,
            Record::New { name } => Some(Recording::create(
                &inner.options.store,
                coordinator,
                &inner.plan_path,
                name.as_deref(),
                None,
                notices,
            )),
            Record::Resume { store, session, lock } => {
                let recording = Recording::resume(coordinator, *store, &session, lock, notices.clone())
                    .map_err(HostError::Restore)?;
                Some(recording)
            }
        };
        let services_store = Arc::new(lazy_store::LazyStore::new(&inner.options.store));
        if let Some(conversation) = &self.conversation {
            conversation.attach(coordinator, services_store.clone(), notices);
        }
        runs::attach(coordinator, services_store);
        if let Some(approval) = self.approval {
            coordinator.set_approval_system(approval);
        }
        if let Some(max) = inner.options.max_tool_result_bytes {
            let spill = spill::Spill::new(&inner.options.store.dir, coordinator.session_id(), max);
            coordinator.set_result_spill(Arc::new(spill));
        }
        timings::phase("session opened (its store opening beside)");
        Ok(HostedSession {
            host: host.clone(),
            session,
            recording,
            loaded: false,
            started: false,
            turns: 0,
            continues: self.continues,
            one_turn: self.one_turn,
        })
    }
}

/// One session of a host's plan, from mounting to its last write.
/// End it with [`HostedSession::finish`]: dropped without it, the modules
/// are not cleaned up and the last turn is not written.
pub struct HostedSession {
    host: Host,
    session: Session,
    recording: Option<Recording>,
    loaded: bool,
    started: bool,
    turns: u32,
    /// See [`SessionBuilder::continue_turn`].
    continues: bool,
    /// See [`SessionBuilder::one_turn`].
    one_turn: bool,
}

impl HostedSession {
    pub fn coordinator(&self) -> &Arc<Coordinator> {
        self.session.coordinator()
    }

    pub fn host(&self) -> &Host {
        &self.host
    }

    pub fn session_id(&self) -> &str {
        self.session.session_id()
    }

    pub fn status(&self) -> RunStatus {
        self.session.status()
    }

    /// Mounts the plan's modules. `Ok` carries the load report: its
    /// failures are those a partial load allowed.
    pub async fn start(&mut self) -> Result<LoadReport, HostError> {
        let inner = &self.host.0;
        let initialized = self.session.initialize().await;
        self.loaded = matches!(&initialized, Ok(report) if report.failures.is_empty() || inner.options.allow_partial);
        if let Some(lock) = &inner.lock {
            lock.after_load(&inner.loader, self.loaded, &inner.options.notices)?;
        }
        let report = initialized.map_err(HostError::Initialize)?;
        for warning in &report.warnings {
            (inner.options.notices)(Notice::Warning(warning.clone()));
        }
        if !self.loaded {
            return Err(HostError::LoadFailed(report));
        }
        // The store opened beside the mounting; a session it cannot record
        // still runs (the user was told why).
        if self.recording.as_ref().is_some_and(|recording| !recording.opened()) {
            self.recording = None;
        }
        if let Some(recording) = &self.recording {
            recording.restore(self.session.coordinator()).await.map_err(HostError::Restore)?;
        }
        self.started = true;
        timings::phase("modules mounted, store open");
        Ok(report)
    }

    /// Runs one prompt and saves the turn. Call after a successful
    /// [`HostedSession::start`].
    /// A turn whose prompt follows `attached` messages (images a person
    /// attached), which join the conversation first.
    pub async fn turn_with(&mut self, attached: &[Message], prompt: &str) -> Result<String, HostError> {
        for message in attached {
            self.session
                .coordinator()
                .add_message(message.clone())
                .await
                .map_err(|err| HostError::Turn { error: err.into(), cancelled: false })?;
        }
        self.turn(prompt).await
    }

    pub async fn turn(&mut self, prompt: &str) -> Result<String, HostError> {
        assert!(self.started, "HostedSession::turn before a successful start");
        assert!(!self.one_turn || self.turns == 0, "a second turn of a one-turn session");
        if self.turns > 0 {
            if let Some(recording) = &self.recording {
                recording.begin_turn();
            }
        }
        self.turns += 1;
        let coordinator = self.session.coordinator().clone();
        coordinator.cancellation().reset();
        let continued = std::mem::take(&mut self.continues) && self.last_prompt_is(prompt).await;
        if continued {
            coordinator.register_capability(capabilities::RESUMED_TURN, serde_json::json!(prompt));
        }
        let result = self.session.execute(prompt).await;
        if continued {
            coordinator.register_capability(capabilities::RESUMED_TURN, serde_json::Value::Null);
        }
        timings::phase("turn run");
        if let Some(recording) = self.recording.as_ref().filter(|_| !self.one_turn) {
            recording.capture(&coordinator).await;
            recording.save_turn();
            timings::phase("turn written");
        }
        result.map_err(|error| HostError::Turn { error, cancelled: self.session.status() == RunStatus::Cancelled })
    }

    /// Whether the history's last user message is `prompt`.
    async fn last_prompt_is(&self, prompt: &str) -> bool {
        let Ok(history) = self.session.coordinator().get_messages().await else { return false };
        history.iter().rev().find(|m| m.role == Role::User).is_some_and(|m| m.content.text() == prompt)
    }

    /// Ends the session: modules cleaned up, the last write made with the
    /// final status, the lock updated with what child sessions loaded.
    pub async fn finish(self, succeeded: bool) {
        let inner = &self.host.0;
        // Read again even right after a turn: a front end may have changed
        // the history since (the REPL's `/clear`).
        if let Some(recording) = &self.recording {
            recording.capture(self.session.coordinator()).await;
        }
        self.session.cleanup().await;
        timings::phase("modules cleaned up");
        if let Some(recording) = self.recording {
            recording.finish(self.session.status(), succeeded);
        }
        timings::phase("session finished (last write)");
        if let Some(lock) = &inner.lock {
            lock.after_run(&inner.loader, self.loaded, &inner.options.notices);
        }
    }
}
