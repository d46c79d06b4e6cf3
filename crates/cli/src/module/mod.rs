//! `amplifier module …`: check, scaffold and install modules.
//!
//! Thin: validation lives in `amplifier_conformance`, resolution and
//! building in the loader; this prints and picks exit codes.

mod add;
mod installed;
mod new;
mod package;
mod validate;

use amplifier_kernel::plan::ModuleKind;
use clap::{Args, Subcommand, ValueEnum};

use crate::error::CliResult;

#[derive(Args)]
pub struct ModuleArgs {
    #[command(subcommand)]
    command: ModuleCommand,
}

#[derive(Subcommand)]
enum ModuleCommand {
    /// Build a module, load it through the loader and check it against its kind's contract.
    Validate(validate::ValidateArgs),
    /// Create a module crate (tool, provider, hook, orchestrator or context) that passes `validate`.
    New(new::NewArgs),
    /// Package a module: its source and its library prebuilt for this machine, in one archive.
    Package(package::PackageArgs),
    /// Install a module into $AMPLIFIER_HOME/modules/<name>/<version>/ (a package's prebuilt library, or built).
    Install(installed::InstallArgs),
    /// Find modules in the module indexes.
    Search(add::SearchArgs),
    /// Install a module (from the module indexes by name) and add it to a plan.
    Add(add::AddArgs),
    /// List installed modules (and, with --plan, the modules of a plan).
    List(installed::ListArgs),
    /// Show the installed versions of a module.
    Show(installed::ShowArgs),
    /// Remove an installed module (all versions, or one with --version).
    Remove(installed::RemoveArgs),
}

/// A module kind on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    Tool,
    Provider,
    Hook,
    Orchestrator,
    Context,
    Resolver,
}

impl From<KindArg> for ModuleKind {
    fn from(kind: KindArg) -> Self {
        match kind {
            KindArg::Tool => ModuleKind::Tool,
            KindArg::Provider => ModuleKind::Provider,
            KindArg::Hook => ModuleKind::Hook,
            KindArg::Orchestrator => ModuleKind::Orchestrator,
            KindArg::Context => ModuleKind::Context,
            KindArg::Resolver => ModuleKind::Resolver,
        }
    }
}

pub fn run(args: ModuleArgs) -> CliResult {
    match args.command {
        ModuleCommand::Validate(args) => validate::run(args),
        ModuleCommand::New(args) => new::run(args),
        ModuleCommand::Package(args) => package::run(args),
        ModuleCommand::Install(args) => installed::install(args),
        ModuleCommand::Search(args) => add::search(args),
        ModuleCommand::Add(args) => add::add(args),
        ModuleCommand::List(args) => installed::list(args),
        ModuleCommand::Show(args) => installed::show(args),
        ModuleCommand::Remove(args) => installed::remove(args),
    }
}
