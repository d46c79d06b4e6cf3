//! `amplifier store`: the session store itself, whichever backend holds it.

use amplifier_store::{Location, Store};
use clap::{Args, Subcommand};

use crate::error::{CliError, CliResult};
use crate::hosting;
use crate::settings::Settings;

#[derive(Args)]
pub struct StoreArgs {
    #[command(subcommand)]
    command: StoreCommand,
}

#[derive(Subcommand)]
enum StoreCommand {
    /// Copy sessions, agent histories and run states into another store
    /// (SQLite into PostgreSQL, or back). Sessions the target already has
    /// are skipped, so an interrupted copy can be run again.
    Migrate(MigrateArgs),
}

#[derive(Args)]
struct MigrateArgs {
    /// The store to copy from: a directory, sqlite:DIR or a postgres:// URL
    /// (default: the store in use, as `--store` or the `store` setting name it).
    #[arg(long, value_name = "URL")]
    from: Option<String>,
    /// The store to copy into; its schema is created when missing.
    #[arg(long, value_name = "URL")]
    to: String,
}

pub fn run(args: StoreArgs) -> CliResult {
    match args.command {
        StoreCommand::Migrate(args) => migrate(args),
    }
}

fn parse(flag: &str, text: &str) -> CliResult<Location> {
    let text = hosting::command_line_secret(flag, text)?;
    Location::parse(&text).map_err(|err| CliError::usage(format!("{flag}: {err}")))
}

fn open(location: &Location) -> CliResult<Store> {
    let dir = amplifier_host::StoreConfig::default().dir;
    Store::connect(location, &dir).map_err(|err| CliError::failed(format!("{err} ({location})")))
}

fn migrate(args: MigrateArgs) -> CliResult {
    let from = match &args.from {
        Some(text) => parse("--from", text)?,
        None => hosting::store_location(Settings::current()?)?
            .unwrap_or_else(|| Location::Sqlite(amplifier_host::StoreConfig::default().dir)),
    };
    let to = parse("--to", &args.to)?;
    if from == to {
        return Err(CliError::usage(format!("--from and --to are the same store ({from})")));
    }
    let source = open(&from)?;
    let target = open(&to)?;
    let report = source.copy_into(&target).map_err(CliError::failed)?;
    println!(
        "copied {} session(s) ({} messages, {} events), {} agent message(s) and {} run state(s) from {from} to {to}",
        report.sessions, report.messages, report.events, report.agent_messages, report.run_states
    );
    if report.sessions_skipped > 0 {
        println!("{} session(s) were in {to} already and were left as they are", report.sessions_skipped);
    }
    Ok(())
}
