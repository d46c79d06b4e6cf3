//! `amplifier update --plan FILE [MODULE]`: re-resolve and re-lock a plan's
//! modules (runs keep the lock through `amplifier_host::lock`).

use std::path::PathBuf;

use amplifier_host::lock::{plan_modules, PlanModules};
use amplifier_loader::lockfile::{Change, LockEntry, Lockfile, LOCK_FILE};
use amplifier_loader::DylibLoader;
use clap::Args;

use crate::error::{CliError, CliResult};

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
pub fn update(args: UpdateArgs) -> CliResult {
    let plan = amplifier_host::parse_plan(&args.plan, args.offline)?.plan;
    let mut modules = plan_modules(&plan);
    if let Some(name) = &args.module {
        modules.retain(|(_, spec)| spec.module == *name);
        if modules.is_empty() {
            let names: Vec<String> = plan_modules(&plan).iter().map(|(_, s)| s.module.clone()).collect();
            return Err(CliError::usage(format!("module '{name}' is not in {}", args.plan.display()))
                .hint(format!("its modules are {}", names.join(", "))));
        }
    }
    let lock_path = Lockfile::path_for(&args.plan);
    let mut lock = Lockfile::read(&lock_path)
        .map_err(|err| {
            CliError::usage(err)
                .hint(format!("delete it and run `amplifier update --plan {}` to write a new one", args.plan.display()))
        })?
        .unwrap_or_default();
    let base_dir = args.plan.canonicalize().ok().and_then(|p| p.parent().map(PathBuf::from));
    let mut loader = DylibLoader::new(base_dir, &amplifier_loader::amplifier_home());
    loader.set_offline(args.offline);
    let runtime = crate::hosting::runtime()?;
    let mut resolutions = Vec::new();
    let mut failed = 0;
    for (kind, spec) in &modules {
        match runtime.block_on(loader.resolution(*kind, spec, None)) {
            Ok((resolution, _, _)) => resolutions.push(resolution),
            Err(err) => {
                CliError::failed(err).print();
                failed += 1;
            }
        }
    }
    let plan_key = Lockfile::plan_key(&args.plan);
    let in_plan = PlanModules::of(&plan);
    let changes = lock.update(&plan_key, &resolutions, |entry| args.module.is_some() || in_plan.contains(entry));
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
    lock.write(&lock_path).map_err(CliError::failed)?;
    if failed > 0 {
        return Err(CliError::failed(format!(
            "{failed} module(s) could not be resolved; their entries in {LOCK_FILE} are unchanged"
        )));
    }
    Ok(())
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
