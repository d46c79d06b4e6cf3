//! What the kernel asks of whoever loads modules: a [`ModuleLoader`] turns
//! a plan entry into a live module ([`LoadedModule`]), or says why not
//! ([`LoadError`]); the session sums up a plan's load in a [`LoadReport`].

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::coordinator::{Cleanup, Coordinator, Orchestrator};
use crate::hooks::HookHandler;
use crate::plan::{ModuleKind, ModuleSpec};
use crate::traits::{ContextManager, ModuleSourceResolver, Provider, Tool};
use crate::BoxFuture;

/// Why a module failed to load (upstream's `reason_code`s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadReason {
    InvalidPackageLayout,
    /// The module's crate did not build (not one of upstream's codes: it builds nothing).
    BuildFailed,
    MissingSource,
    InvalidEntryPoint,
    InvalidModuleMetadata,
    ValidationFailed,
    Unknown,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct LoadError {
    pub reason: LoadReason,
    pub message: String,
}

impl LoadError {
    pub fn new(reason: LoadReason, message: impl Into<String>) -> Self {
        LoadError { reason, message: message.into() }
    }
}

/// One hook registration a hook module asks for.
pub struct HookSubscription {
    pub event: String,
    pub priority: i32,
    pub name: String,
    pub handler: Arc<dyn HookHandler>,
}

/// What a loaded module offers, by kind.
pub enum Mounted {
    Orchestrator(Arc<dyn Orchestrator>),
    Context(Arc<dyn ContextManager>),
    Provider(Arc<dyn Provider>),
    Tools(Vec<Arc<dyn Tool>>),
    Hooks(Vec<HookSubscription>),
    Resolver(Arc<dyn ModuleSourceResolver>),
}

/// A module's `on_session_ready`: run once, after the whole plan is
/// mounted, in mount order (upstream's lifecycle).
pub type SessionReady = Cleanup;

pub struct LoadedModule {
    pub mounted: Mounted,
    pub cleanup: Option<Cleanup>,
    pub session_ready: Option<SessionReady>,
    /// What the loader let pass but the user should hear of (an unknown
    /// config key it dropped), each a full line naming file, line and field.
    pub warnings: Vec<String>,
}

/// Turns a plan entry into a live module. The host implements this (the
/// kernel knows no dylibs); tests may implement it in-process.
pub trait ModuleLoader: Send + Sync {
    fn load<'a>(
        &'a self,
        kind: ModuleKind,
        spec: &'a ModuleSpec,
        coordinator: &'a Arc<Coordinator>,
    ) -> BoxFuture<'a, Result<LoadedModule, LoadError>>;

    /// Called once before the plan's modules load, with all of them, so a
    /// loader can prepare them together (the dylib loader builds every
    /// missing crate in one cargo run). Problems surface later from `load`.
    fn prepare<'a>(&'a self, _modules: &'a [&'a ModuleSpec]) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// A module that did not load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadFailure {
    pub kind: ModuleKind,
    pub module: String,
    /// Where the entry is in the plan (`providers[1]`).
    pub field_path: String,
    pub reason: LoadReason,
    pub error: String,
}

/// `tool tool-x (tools[0]): why`, the place said once (a loader's message
/// often starts with it already).
impl std::fmt::Display for LoadFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefix = format!("{}: ", self.field_path);
        let why = self.error.strip_prefix(&prefix).unwrap_or(&self.error);
        write!(f, "{} {} ({}): {why}", self.kind, self.module, self.field_path)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadReport {
    pub mounted: Vec<String>,
    pub failures: Vec<LoadFailure>,
    /// The loaded modules' warnings, in load order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}
