//! `amplifier.lock` beside a plan: written after the modules load (and
//! again after the run, for modules child sessions loaded) or, with
//! `--locked`, enforced.

use std::path::{Path, PathBuf};

use amplifier_kernel::plan::{ModuleKind, ModuleSpec, MountPlan};
use amplifier_loader::lockfile::{LockEntry, Lockfile, LOCK_FILE};
use amplifier_loader::DylibLoader;
use serde_json::Value;

use crate::{HostError, Notice, Notices};

/// Every module of the plan with the kind it is mounted as.
pub fn plan_modules(plan: &MountPlan) -> Vec<(ModuleKind, &ModuleSpec)> {
    let mut modules =
        vec![(ModuleKind::Orchestrator, &plan.session.orchestrator), (ModuleKind::Context, &plan.session.context)];
    modules.extend(plan.session.resolver.iter().map(|spec| (ModuleKind::Resolver, spec)));
    for (kind, specs) in
        [(ModuleKind::Provider, &plan.providers), (ModuleKind::Tool, &plan.tools), (ModuleKind::Hook, &plan.hooks)]
    {
        modules.extend(specs.iter().map(|spec| (kind, spec)));
    }
    modules
}

/// Module ids the plan's agent overlays mount (child sessions load them later).
fn agent_modules(plan: &MountPlan) -> Vec<String> {
    fn walk(value: &Value, names: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("module", Value::String(name)) => names.push(name.clone()),
                        _ => walk(value, names),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, names)),
            _ => {}
        }
    }
    let mut names = Vec::new();
    plan.agents.values().for_each(|overlay| walk(overlay, &mut names));
    names
}

/// The modules a plan mounts, as lock entries name them: its own (kind and
/// id) and those of its agent overlays (id only; child sessions load them).
pub struct PlanModules {
    named: Vec<(String, String)>,
    agents: Vec<String>,
}

impl PlanModules {
    pub fn of(plan: &MountPlan) -> PlanModules {
        let named = plan_modules(plan)
            .into_iter()
            .map(|(kind, spec)| (kind.as_str().to_owned(), spec.module.clone()))
            .collect();
        PlanModules { named, agents: agent_modules(plan) }
    }

    /// Whether a lock entry belongs to one of these modules.
    pub fn contains(&self, entry: &LockEntry) -> bool {
        self.named.iter().any(|(kind, name)| *kind == entry.kind && *name == entry.name)
            || self.agents.contains(&entry.name)
    }
}

/// The lock of one plan for one process.
pub(crate) struct PlanLock {
    plan_path: PathBuf,
    path: PathBuf,
    plan: String,
    locked: bool,
    lock: Lockfile,
    modules: PlanModules,
}

impl PlanLock {
    /// Reads the lock beside the plan; with `locked`, a missing lock is an error.
    pub(crate) fn open(plan_path: &Path, plan: &MountPlan, locked: bool) -> Result<PlanLock, HostError> {
        let path = Lockfile::path_for(plan_path);
        let lock = match Lockfile::read(&path)? {
            Some(lock) => lock,
            None if locked => {
                return Err(HostError::NoLockfile { lock_path: path, plan_path: plan_path.to_owned() });
            }
            None => Lockfile::default(),
        };
        Ok(PlanLock {
            plan_path: plan_path.to_owned(),
            path,
            plan: Lockfile::plan_key(plan_path),
            locked,
            lock,
            modules: PlanModules::of(plan),
        })
    }

    /// Makes the loader refuse modules that differ from the lock.
    pub(crate) fn configure(&self, loader: &mut DylibLoader) {
        if self.locked {
            loader.set_locked(self.lock.clone(), self.plan.clone());
        }
    }

    /// After the plan's modules loaded (`loaded`: the session initialized).
    /// With `--locked`, every difference from the lock is an error;
    /// otherwise what loaded is recorded.
    pub(crate) fn after_load(&self, loader: &DylibLoader, loaded: bool, notices: &Notices) -> Result<(), HostError> {
        if !self.locked {
            if loaded {
                self.write(loader, notices);
            }
            return Ok(());
        }
        let mut problems = loader.lock_violations();
        problems.extend(self.lock.extras(&self.plan, |entry| self.modules.contains(entry)));
        if problems.is_empty() {
            return Ok(());
        }
        Err(HostError::LockDiffers { lock_path: self.path.clone(), plan_path: self.plan_path.clone(), problems })
    }

    /// After the run: adds modules that child sessions loaded.
    pub(crate) fn after_run(&self, loader: &DylibLoader, loaded: bool, notices: &Notices) {
        if !self.locked && loaded {
            self.write(loader, notices);
        }
    }

    fn write(&self, loader: &DylibLoader, notices: &Notices) {
        // Re-read: another plan of this directory may have written meanwhile.
        let mut lock = Lockfile::read(&self.path).ok().flatten().unwrap_or_else(|| self.lock.clone());
        lock.update(&self.plan, &loader.resolutions(), |entry| self.modules.contains(entry));
        if let Err(err) = lock.write(&self.path) {
            notices(Notice::Warning(format!("{err} ({LOCK_FILE} not updated)")));
        }
    }
}
