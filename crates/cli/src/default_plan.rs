//! The plan a command uses when none is named: `--plan`, else the `plan`
//! setting (`$AMPLIFIER_PLAN`, `.amplifier/settings.yaml`…), else the
//! default plan built into the binary. `amplifier init` writes that default
//! into the current directory for editing.
//!
//! The built-in default is written to `$AMPLIFIER_HOME/default-plan.yaml`
//! before use, so that it is a file like any other plan: sessions record its
//! path and hash (and `resume` finds it), and its `amplifier.lock` lives
//! beside it.

use std::path::PathBuf;

use clap::Args;

use crate::error::{CliError, CliResult};
use crate::settings::Settings;

/// The default plan's text.
pub const DEFAULT_PLAN: &str = include_str!("default-plan.yaml");

/// The file `amplifier init` writes.
const INIT_FILE: &str = "plan.yaml";

/// `--plan` if given, else the `plan` setting, else the built-in default.
pub fn choose(explicit: Option<PathBuf>) -> CliResult<PathBuf> {
    if let Some(plan) = explicit {
        return Ok(plan);
    }
    let settings = Settings::current()?;
    if let Some(plan) = settings.get("plan").and_then(|p| p.as_str()) {
        let plan = PathBuf::from(plan);
        if settings.set_by_project("plan") {
            let untrusted = crate::trust::untrusted_plan(&plan, &settings.source("plan"))?;
            crate::trust::require(&untrusted.into_iter().collect::<Vec<_>>())?;
        }
        return Ok(plan);
    }
    let path = amplifier_loader::amplifier_home().join("default-plan.yaml");
    // A new amplifier's default replaces an older one.
    amplifier_models::write_if_changed(&path, DEFAULT_PLAN)
        .map_err(|err| CliError::failed(format!("cannot write the default plan to {}: {err}", path.display())))?;
    Ok(path)
}

#[derive(Args)]
pub struct InitArgs {
    /// Where to write the plan.
    #[arg(long, value_name = "FILE", default_value = INIT_FILE)]
    path: PathBuf,
    /// Replace the file if it exists.
    #[arg(long)]
    force: bool,
}

/// `amplifier init`: the default plan, written for editing.
pub fn init(args: InitArgs) -> CliResult {
    if args.path.exists() && !args.force {
        return Err(CliError::usage(format!("{} exists already", args.path.display()))
            .hint("pass --force to replace it, or --path FILE to write elsewhere"));
    }
    std::fs::write(&args.path, DEFAULT_PLAN)
        .map_err(|err| CliError::failed(format!("cannot write {}: {err}", args.path.display())))?;
    let shown = args.path.display();
    println!("Wrote {shown}: amplifier's default plan, to edit.");
    println!("  amplifier run --plan {shown} \"prompt\"   runs it");
    println!("  `plan: {shown}` in .amplifier/settings.yaml makes it this directory's default");
    Ok(())
}
