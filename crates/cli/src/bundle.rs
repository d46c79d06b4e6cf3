//! `amplifier bundle compile PATH`: an upstream Amplifier bundle as the
//! mount plan it compiles to (`run --bundle` runs it).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::error::{CliError, CliResult};

#[derive(Args)]
pub struct BundleArgs {
    #[command(subcommand)]
    command: BundleCommand,
}

#[derive(Subcommand)]
enum BundleCommand {
    /// Print the mount plan a bundle compiles to, its includes composed and
    /// its system prompt built (warnings on stderr).
    Compile {
        /// The bundle: Markdown with YAML frontmatter, YAML with a `bundle:`
        /// key, or a directory holding bundle.md.
        path: PathBuf,
        /// Take `git+` includes from the cache, never the network.
        #[arg(long)]
        offline: bool,
        /// Refuse what would be a warning (an unknown key, a cycle, a
        /// missing context file).
        #[arg(long)]
        strict: bool,
    },
}

pub fn run(args: BundleArgs) -> CliResult {
    match args.command {
        BundleCommand::Compile { path, offline, strict } => {
            let (yaml, warnings) = amplifier_host::compile_bundle(&path, offline)?;
            if strict && !warnings.is_empty() {
                let hint = "--strict makes this warning an error";
                let errors = warnings.into_iter().map(|warning| warning.with_hint(hint)).collect();
                return Err(CliError::from(amplifier_plan::PlanError::Invalid { errors, warnings: Vec::new() }));
            }
            crate::hosting::print_warnings(&warnings);
            print!("{yaml}");
            Ok(())
        }
    }
}
