//! `amplifier update --plan FILE [MODULE]`, and keeping `amplifier.lock` in
//! step on `amplifier run` ([`PlanLock`]).

use std::path::{Path, PathBuf};

use amplifier_kernel::plan::{ModuleKind, ModuleSpec, MountPlan};
use amplifier_loader::lockfile::{Change, LockEntry, Lockfile, LOCK_FILE};
use amplifier_loader::DylibLoader;
use clap::Args;
use serde_json::Value;

use crate::exit;

#[derive(Args)]
pub struct UpdateArgs {
    /// The mount plan whose lock entries to refresh (amplifier.lock beside it).
    #[arg(long, value_name = "FILE")]
    plan: PathBuf,
    /// Only this module (its `module` id); every module of the plan when omitted.
    module: Option<String>,
    /// Resolve git refs from the cache (as last fetched) without touching the network.
    #[arg(long)]
    offline: bool,
}

/// Re-resolves the plan's modules (fetching git branch and tag refs again),
/// builds them, and rewrites their lock entries, printing old → new.
pub fn update(args: UpdateArgs) -> u8 {
    let parsed = match amplifier_plan::parse_plan_file(&args.plan) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("error: {err}");
            return exit::USAGE;
        }
    };
    let plan = parsed.plan;
    let mut modules = plan_modules(&plan);
    if let Some(name) = &args.module {
        modules.retain(|(_, spec)| spec.module == *name);
        if modules.is_empty() {
            let names: Vec<String> = plan_modules(&plan).iter().map(|(_, s)| s.module.clone()).collect();
            eprintln!("error: module '{name}' is not in {} (its modules: {})", args.plan.display(), names.join(", "));
            return exit::USAGE;
        }
    }
    let lock_path = Lockfile::path_for(&args.plan);
    let mut lock = match Lockfile::read(&lock_path) {
        Ok(lock) => lock.unwrap_or_default(),
        Err(err) => {
            eprintln!(
                "error: {err}\nhint: delete it and run `amplifier update --plan {}` to write a new one",
                args.plan.display()
            );
            return exit::USAGE;
        }
    };
    let base_dir = args.plan.canonicalize().ok().and_then(|p| p.parent().map(PathBuf::from));
    let mut loader = DylibLoader::new(base_dir, &amplifier_loader::amplifier_home());
    loader.set_offline(args.offline);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the async runtime: {err}");
            return exit::RUN_FAILED;
        }
    };
    let mut resolutions = Vec::new();
    let mut failed = 0;
    for (kind, spec) in &modules {
        match runtime.block_on(loader.resolution(*kind, spec, None)) {
            Ok((resolution, _, _)) => resolutions.push(resolution),
            Err(err) => {
                eprintln!("error: {err}");
                failed += 1;
            }
        }
    }
    let plan_key = Lockfile::plan_key(&args.plan);
    let named = named_modules(&plan);
    let agents = agent_modules(&plan);
    let changes =
        lock.update(&plan_key, &resolutions, |entry| args.module.is_some() || in_plan(entry, &named, &agents));
    for resolution in &resolutions {
        let what = format!("{} {} ({})", resolution.kind, resolution.name, resolution.field_path);
        let new = LockEntry::new(&plan_key, resolution);
        match changes.iter().find(|c| c.new == new) {
            Some(Change { old: Some(old), new }) => {
                println!("    Updating {what}: {} → {}", id(old), id(new));
            }
            Some(Change { old: None, new }) => println!("      Locked {what} at {}", id(new)),
            None => println!("   Unchanged {what} at {}", id(&new)),
        }
    }
    match lock.write(&lock_path) {
        Ok(_) => {}
        Err(err) => {
            eprintln!("error: {err}");
            return exit::RUN_FAILED;
        }
    }
    if failed > 0 {
        eprintln!("error: {failed} module(s) could not be resolved; their entries in {LOCK_FILE} are unchanged");
        return exit::RUN_FAILED;
    }
    exit::SUCCESS
}

/// `commit 1234567` (or `sha256 …` for modules that are not git sources),
/// adding the library's hash when only it changed.
fn id(entry: &LockEntry) -> String {
    match &entry.commit {
        Some(commit) => format!(
            "commit {} (sha256 {})",
            &commit[..commit.len().min(7)],
            &entry.sha256[..12.min(entry.sha256.len())]
        ),
        None => entry.short_id(),
    }
}

/// Every module of the plan with the kind it is mounted as.
pub(crate) fn plan_modules(plan: &MountPlan) -> Vec<(ModuleKind, &ModuleSpec)> {
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

fn named_modules(plan: &MountPlan) -> Vec<(String, String)> {
    plan_modules(plan).into_iter().map(|(kind, spec)| (kind.as_str().to_owned(), spec.module.clone())).collect()
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

fn in_plan(entry: &LockEntry, named: &[(String, String)], agents: &[String]) -> bool {
    named.iter().any(|(kind, name)| *kind == entry.kind && *name == entry.name) || agents.contains(&entry.name)
}

/// `amplifier.lock` for one `amplifier run`: written after the modules
/// loaded (and again after the run, for modules child sessions loaded), or,
/// with `--locked`, enforced.
pub(crate) struct PlanLock {
    plan_path: PathBuf,
    path: PathBuf,
    plan: String,
    locked: bool,
    lock: Lockfile,
    named: Vec<(String, String)>,
    agents: Vec<String>,
}

impl PlanLock {
    /// Reads the lock beside the plan; with `locked`, a missing lock is an error.
    pub(crate) fn open(plan_path: &Path, plan: &MountPlan, locked: bool) -> Result<PlanLock, String> {
        let path = Lockfile::path_for(plan_path);
        let lock = match Lockfile::read(&path)? {
            Some(lock) => lock,
            None if locked => {
                return Err(format!(
                    "--locked: {} does not exist\nhint: run `amplifier update --plan {}` (or run once without --locked) to write it",
                    path.display(),
                    plan_path.display()
                ))
            }
            None => Lockfile::default(),
        };
        Ok(PlanLock {
            plan_path: plan_path.to_owned(),
            path,
            plan: Lockfile::plan_key(plan_path),
            locked,
            lock,
            named: named_modules(plan),
            agents: agent_modules(plan),
        })
    }

    /// Makes the loader refuse modules that differ from the lock.
    pub(crate) fn configure(&self, loader: &mut DylibLoader) {
        if self.locked {
            loader.set_locked(self.lock.clone(), self.plan.clone());
        }
    }

    /// After the plan's modules loaded (`loaded`: the session initialized).
    /// With `--locked`, prints every difference from the lock and returns the
    /// failure; otherwise records what loaded.
    pub(crate) fn after_load(&self, loader: &DylibLoader, loaded: bool) -> Option<String> {
        if !self.locked {
            if loaded {
                self.write(loader);
            }
            return None;
        }
        let mut problems = loader.lock_violations();
        problems.extend(self.lock.extras(&self.plan, &self.named, &self.agents));
        if problems.is_empty() {
            return None;
        }
        eprintln!("error: the plan's modules differ from {} (--locked):", self.path.display());
        for problem in &problems {
            eprintln!("  - {problem}");
        }
        eprintln!(
            "hint: run `amplifier update --plan {} [MODULE]` to accept the new resolution, or run without --locked",
            self.plan_path.display()
        );
        Some(format!("{} difference(s) from {LOCK_FILE}; the prompt was not run", problems.len()))
    }

    /// After the run: adds modules that child sessions loaded.
    pub(crate) fn after_run(&self, loader: &DylibLoader, loaded: bool) {
        if !self.locked && loaded {
            self.write(loader);
        }
    }

    fn write(&self, loader: &DylibLoader) {
        // Re-read: another plan of this directory may have written meanwhile.
        let mut lock = Lockfile::read(&self.path).ok().flatten().unwrap_or_else(|| self.lock.clone());
        lock.update(&self.plan, &loader.resolutions(), |entry| in_plan(entry, &self.named, &self.agents));
        if let Err(err) = lock.write(&self.path) {
            eprintln!("warning: {err}");
        }
    }
}
