//! What a shell and `man` need: `amplifier completions SHELL` prints a
//! completion script, and the hidden `amplifier man-pages DIR` writes the
//! man pages (`cargo xtask man` runs it). Both come from the same clap
//! definitions as `--help`, so they cannot drift from the commands.

use std::path::PathBuf;

use clap::{Args, Command, CommandFactory};

use crate::error::{CliError, CliResult};

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Args)]
pub struct ManPagesArgs {
    /// Where to write amplifier.1 and a page per subcommand (amplifier-run.1, …).
    dir: PathBuf,
}

pub fn completions(args: CompletionsArgs) -> CliResult {
    // Written whole, so a closed stdout (`| head`) is a quiet end, not a panic.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut public_command(), "amplifier", &mut script);
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), &script);
    Ok(())
}

pub fn man_pages(args: ManPagesArgs) -> CliResult {
    let failed =
        |err: std::io::Error| CliError::failed(format!("cannot write man pages into {}: {err}", args.dir.display()));
    std::fs::create_dir_all(&args.dir).map_err(failed)?;
    clap_mangen::generate_to(public_command(), &args.dir).map_err(failed)
}

/// The command tree without the hidden commands (the loader's and xtask's
/// entry points), which the generators would otherwise list.
fn public_command() -> Command {
    let cli = crate::Cli::command();
    let subcommands: Vec<Command> = cli.get_subcommands().filter(|command| !command.is_hide_set()).cloned().collect();
    let mut public = Command::new("amplifier")
        .version(env!("CARGO_PKG_VERSION"))
        .args(cli.get_arguments().cloned())
        .subcommands(subcommands);
    if let Some(about) = cli.get_about() {
        public = public.about(about.clone());
    }
    if let Some(about) = cli.get_long_about() {
        public = public.long_about(about.clone());
    }
    public
}
