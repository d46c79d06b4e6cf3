//! `amplifier trust`: which of a project's files may change what runs.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::{CliError, CliResult};
use crate::settings::Settings;
use crate::trust::{in_project, list, PROJECT_HOOKS};

/// `amplifier trust`: the files of a project allowed to change what runs.
#[derive(Args)]
pub struct TrustArgs {
    /// Files to trust as they are now (default: this directory's settings
    /// files, its hooks file, and the plan its settings name).
    #[arg(value_name = "FILE", conflicts_with_all = ["list", "directory"])]
    files: Vec<PathBuf>,
    /// Trust a directory whole, whatever its files say now or later (what
    /// an agent writes there included).
    #[arg(long, value_name = "DIR", conflicts_with = "list")]
    directory: Option<PathBuf>,
    /// Print what is trusted.
    #[arg(long)]
    list: bool,
    /// Forget these files or directories.
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with_all = ["list", "directory"])]
    revoke: Vec<PathBuf>,
}

pub fn trust(args: TrustArgs) -> CliResult {
    let mut list = list()?;
    if args.list {
        for dir in list.directories() {
            println!("{dir}/ (directory)");
        }
        for (file, hash) in list.files() {
            println!("{file} (sha256 {})", &hash[..12]);
        }
        return Ok(());
    }
    if !args.revoke.is_empty() {
        for path in &args.revoke {
            let found = list.revoke(path).map_err(CliError::failed)?;
            match found {
                true => println!("no longer trusted: {}", path.display()),
                false => eprintln!("warning: {} was not trusted", path.display()),
            }
        }
        return Ok(());
    }
    if let Some(dir) = args.directory {
        if !dir.is_dir() {
            return Err(CliError::usage(format!("{} is not a directory", dir.display())));
        }
        list.trust_directory(&dir).map_err(CliError::failed)?;
        println!("trusted {} and everything beneath it, now and later", dir.display());
        return Ok(());
    }
    let files = if args.files.is_empty() { project_files() } else { args.files };
    if files.is_empty() {
        println!("nothing here needs trust: no .amplifier/settings.yaml, settings.local.yaml or hooks.json");
        return Ok(());
    }
    for file in files {
        let content = amplifier_trust::read_checkout_file(&file)
            .map_err(|err| CliError::usage(format!("cannot read {}: {err}", file.display())))?;
        list.trust_file(&file, &content).map_err(CliError::failed)?;
        println!("trusted {} as it is now (sha256 {})", file.display(), &amplifier_trust::digest(&content)[..12]);
    }
    Ok(())
}

/// This directory's files that need trust, those that exist: its settings,
/// its hooks file, and a plan its settings name beneath it.
fn project_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        [".amplifier/settings.yaml", ".amplifier/settings.local.yaml", PROJECT_HOOKS].map(PathBuf::from).to_vec();
    files.retain(|file| file.is_file());
    files.extend(Settings::project_plan(Path::new(".")).filter(|plan| in_project(plan)));
    files
}
