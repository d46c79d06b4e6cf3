//! `amplifier`: the command-line front end.
//!
//! Front ends over `amplifier-host` (codex-rs's split, ripgrep's thin
//! binary): argument parsing, the terminal (REPL, approvals, output
//! formats) and the HTTP server live here; the session lifecycle lives in
//! the host, which runs sessions of `amplifier-kernel` with modules that
//! `amplifier-loader` loads.

mod approval;
mod bundle;
mod default_plan;
mod error;
mod hosting;
mod http;
mod images;
mod line_editor;
mod mcp_server;
mod model;
mod module;
#[cfg(feature = "otlp")]
mod otlp;
mod output;
mod reference;
mod repl;
mod run;
mod serve;
mod session_cmd;
mod settings;
mod shell;
mod sse_stdout;
mod steering;
mod store_cmd;
mod tool_cmd;
mod trace_bridge;
mod trust;
mod trust_cmd;
mod update;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use error::CliError;

#[derive(Parser)]
#[command(name = "amplifier", version, about = "Run AI agents composed from plugin modules", long_about = None)]
struct Cli {
    /// More logging on stderr (-v info, -vv debug, -vvv trace).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Export plugins' trace spans (a router's `chat.turn`, `agent.<id>`)
    /// to this OTLP/HTTP collector, such as http://localhost:4318
    /// (default: $AMPLIFIER_OTLP_ENDPOINT).
    #[cfg(feature = "otlp")]
    #[arg(long, global = true, value_name = "ENDPOINT")]
    otlp: Option<String>,
    /// The session store: a directory or sqlite:DIR, or a postgres:// URL
    /// that several machines share (default: the `store` setting,
    /// $AMPLIFIER_STORE, else $AMPLIFIER_HOME/sessions.db).
    #[arg(long, global = true, value_name = "URL")]
    store: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run one prompt through the session a mount plan describes.
    Run(run::RunArgs),
    /// Upstream Amplifier bundles: `compile` prints the mount plan one compiles to.
    Bundle(bundle::BundleArgs),
    /// Write the default plan into the current directory, to edit.
    Init(default_plan::InitArgs),
    /// Re-resolve a plan's modules (fetching git refs again) and rewrite amplifier.lock.
    Update(update::UpdateArgs),
    /// Create, validate, package, find and install modules.
    Module(module::ModuleArgs),
    /// Local models for provider-local: pull, list.
    Model(model::ModelArgs),
    /// Settings: `config show` prints each one with where it came from.
    Config(settings::ConfigArgs),
    /// The plan's tools without a model: list, info NAME, invoke NAME key=value….
    Tool(tool_cmd::ToolArgs),
    /// Serve runs over HTTP: `POST /v1/runs` answers a Server-Sent Events stream.
    Serve(serve::ServeArgs),
    /// Serve the plan's tools, and with --agent the agent itself, over MCP on stdio.
    McpServer(mcp_server::McpServerArgs),
    /// Stored sessions: list, show, export, resume, fork, delete, cleanup.
    Session(session_cmd::SessionArgs),
    /// Run a new prompt in a stored session, its history restored (and repaired).
    Resume(session_cmd::ResumeArgs),
    /// Resume the most recent session of this directory.
    Continue(session_cmd::ContinueArgs),
    /// The session store itself: `store migrate` copies one into another.
    Store(store_cmd::StoreArgs),
    /// Trust this project's files to change what runs (settings naming a
    /// plan, a store or approvals; hooks files), as they are now.
    Trust(trust_cmd::TrustArgs),
    /// A shell completion script: `amplifier completions bash > ~/.local/share/bash-completion/completions/amplifier`.
    Completions(shell::CompletionsArgs),
    /// Writes the man pages into a directory (`cargo xtask man` runs it).
    #[command(name = "man-pages", hide = true)]
    ManPages(shell::ManPagesArgs),
    /// The command tree as JSON (`cargo xtask docs` renders it as the reference).
    #[command(name = "reference-json", hide = true)]
    ReferenceJson,
    /// Serves one module mounted with `isolation: process`; amplifier starts it.
    #[command(name = "isolated-module", hide = true)]
    IsolatedModule,
}

/// The stderr log (filtered by `-v` or `AMPLIFIER_LOG`) and, with
/// `otlp`, the span exporter, which must live until the end of `main`.
fn init_logging(verbose: u8, #[cfg(feature = "otlp")] otlp: Option<&str>) -> Option<Box<dyn std::any::Any>> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{EnvFilter, Layer};
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_env("AMPLIFIER_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    // Colour only for a person: a redirected stderr gets no escape codes.
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr()) && std::env::var_os("NO_COLOR").is_none();
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(colour)
        .with_filter(filter);
    #[cfg(feature = "otlp")]
    if let Some(endpoint) = otlp {
        match otlp::exporter(endpoint) {
            Ok(exporter) => {
                tracing_subscriber::registry().with(log).with(otlp::layer(exporter.provider())).init();
                return Some(Box::new(exporter));
            }
            Err(message) => eprintln!("warning: {message}"),
        }
    }
    tracing_subscriber::registry().with(log).init();
    None
}

fn main() -> ExitCode {
    amplifier_host::timings::start();
    // amplifier holds API keys in its environment and memory: like
    // ssh-agent, it is not dumpable, so a process of the same user without
    // CAP_SYS_PTRACE (a tool's child, a command under tool-bash's
    // full-access, which Landlock does not fence) can't read
    // /proc/<pid>/environ or attach to it.
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    amplifier_loader::builtin::register(amplifier_builtins::MODULES);
    let cli = Cli::parse();
    // After clap, which exits on `--help`: a native crash or an exit()
    // inside a plugin library now names the library.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    amplifier_loader::crash::install();
    let _exporter = init_logging(
        cli.verbose,
        #[cfg(feature = "otlp")]
        cli.otlp.or_else(|| std::env::var("AMPLIFIER_OTLP_ENDPOINT").ok().filter(|e| !e.is_empty())).as_deref(),
    );
    let result = hosting::set_store_flag(cli.store).and_then(|()| match cli.command {
        Some(Command::Run(args)) => run::run(args),
        Some(Command::Bundle(args)) => bundle::run(args),
        Some(Command::Init(args)) => default_plan::init(args),
        Some(Command::Update(args)) => update::update(args),
        Some(Command::Module(args)) => module::run(args),
        Some(Command::Model(args)) => model::run(args),
        Some(Command::Config(args)) => settings::config(args),
        Some(Command::Serve(args)) => serve::serve(args),
        Some(Command::McpServer(args)) => mcp_server::mcp_server(args),
        Some(Command::Tool(args)) => tool_cmd::run(args),
        Some(Command::Session(args)) => session_cmd::session(args),
        Some(Command::Trust(args)) => trust_cmd::trust(args),
        Some(Command::Resume(args)) => session_cmd::resume(args),
        Some(Command::Continue(args)) => session_cmd::continue_session(args),
        Some(Command::Store(args)) => store_cmd::run(args),
        Some(Command::Completions(args)) => shell::completions(args),
        Some(Command::ManPages(args)) => shell::man_pages(args),
        Some(Command::ReferenceJson) => reference::print(),
        Some(Command::IsolatedModule) => std::process::exit(amplifier_loader::isolation::child::serve()),
        // A person at a terminal: talk, with the `plan` setting or the default plan.
        None if std::io::IsTerminal::is_terminal(&std::io::stdin()) => {
            default_plan::choose(None).and_then(|plan| repl::repl(&plan, repl::ReplOptions::default()))
        }
        None => Err(CliError::usage("no command given")
            .hint("`amplifier run \"prompt\"` asks an agent (the `plan` setting, or the default plan); see `amplifier --help`")),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            err.print();
            ExitCode::from(err.code())
        }
    }
}
