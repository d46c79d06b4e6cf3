//! `amplifier run [--plan FILE] [PROMPT]`.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use amplifier_kernel::plan::MountPlan;
use amplifier_kernel::session::{LoadReason, LoadReport, Session, SessionOptions};
use amplifier_loader::DylibLoader;
use amplifier_plan::{PlanDiagnostic, PlanError};
use clap::Args;

use crate::agent_history::Conversation;
use crate::exit;
use crate::output::{self, OutputFormat};
use crate::store_recorder::{self, Recording};
use crate::update::PlanLock;

#[derive(Args)]
pub struct RunArgs {
    /// The mount plan (YAML) describing the session's modules (default: the
    /// `plan` setting, else amplifier's default plan; `amplifier init` writes it out).
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    /// The prompt; read from standard input when omitted and input is piped.
    prompt: Option<String>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    output_format: OutputFormat,
    /// Run even when some providers, tools or hooks failed to load.
    #[arg(long)]
    allow_partial: bool,
    /// Refuse to run when a module resolves differently from amplifier.lock
    /// (another git commit or library); never write the lock.
    #[arg(long)]
    locked: bool,
    /// Never touch the network: git sources come from the cache (branch and
    /// tag refs as last fetched) and cargo builds offline.
    #[arg(long)]
    offline: bool,
    /// A name for the stored session (`amplifier session list` shows it).
    #[arg(long, value_name = "NAME")]
    session_name: Option<String>,
    /// Whose per-agent histories a routing orchestrator reads and writes.
    #[arg(long, value_name = "USER")]
    user: Option<String>,
    /// The conversation those histories belong to (default: a fresh one).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub fn run(args: RunArgs) -> u8 {
    let plan_path = match crate::default_plan::choose(args.plan) {
        Ok(plan) => plan,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::RUN_FAILED;
        }
    };
    // No prompt, and a person at the terminal: an interactive session.
    if args.prompt.is_none() && std::io::stdin().is_terminal() && args.output_format == OutputFormat::Text {
        let options = crate::repl::ReplOptions {
            offline: args.offline,
            locked: args.locked,
            session_name: args.session_name,
            conversation: Conversation { user: args.user, id: args.session },
        };
        return crate::repl::repl(&plan_path, options);
    }
    let prompt = match read_prompt(args.prompt) {
        Ok(prompt) => prompt,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::USAGE;
        }
    };
    let prepared = match prepare(&plan_path, args.offline, args.locked) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    let Prepared { plan, runtime, lock, loader } = prepared;
    let conversation = Conversation { user: args.user, id: args.session };
    if args.output_format == OutputFormat::Sse {
        let persist = crate::sse::Persist { lock, loader, plan_path, session_name: args.session_name };
        return runtime.block_on(crate::sse::run_to_stdout(plan, persist, conversation, prompt, args.allow_partial));
    }
    let recorded = store_recorder::recording_sub_agents(loader.clone(), &plan_path);
    let session = Session::new(plan, recorded, SessionOptions::default());
    let recording = Recording::create(session.coordinator(), &plan_path, args.session_name.as_deref());
    conversation.attach(&session);
    runtime.block_on(run_session(session, prompt, args.output_format, args.allow_partial, (lock, loader), recording))
}

/// What a session needs before it starts: the parsed plan, a runtime, the
/// plan's lock and the loader (missing local models pulled).
pub(crate) struct Prepared {
    pub plan: MountPlan,
    pub runtime: tokio::runtime::Runtime,
    pub lock: PlanLock,
    pub loader: Arc<DylibLoader>,
}

/// Parses the plan and sets up what loads it; `Err` is the exit code, the
/// reason already printed.
pub(crate) fn prepare(plan_path: &Path, offline: bool, locked: bool) -> Result<Prepared, u8> {
    let parsed = amplifier_plan::parse_plan_file(plan_path).map_err(|err| {
        print_plan_error(&err);
        exit::USAGE
    })?;
    print_diagnostics("warning", &parsed.warnings);
    let base_dir = plan_path.canonicalize().ok().and_then(|p| p.parent().map(PathBuf::from));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|err| {
        eprintln!("error: cannot start the async runtime: {err}");
        exit::RUN_FAILED
    })?;
    let lock = PlanLock::open(plan_path, &parsed.plan, locked).map_err(|message| {
        eprintln!("error: {message}");
        exit::USAGE
    })?;
    if !offline {
        crate::model::pull_missing_for(&parsed.plan).map_err(|message| {
            eprintln!("error: {message}");
            exit::RUN_FAILED
        })?;
    }
    let mut loader = DylibLoader::new(base_dir, &amplifier_loader::amplifier_home());
    loader.set_offline(offline);
    lock.configure(&mut loader);
    Ok(Prepared { plan: parsed.plan, runtime, lock, loader: Arc::new(loader) })
}

pub(crate) fn print_plan_error(err: &PlanError) {
    match err {
        PlanError::Invalid { errors, warnings } => {
            print_diagnostics("error", errors);
            print_diagnostics("warning", warnings);
        }
        other => eprintln!("error: {other}"),
    }
}

pub(crate) fn print_diagnostics(severity: &str, diagnostics: &[PlanDiagnostic]) {
    for diagnostic in diagnostics {
        eprintln!("{severity}: {diagnostic}");
        if let Some(hint) = &diagnostic.hint {
            eprintln!("  hint: {hint}");
        }
    }
}

pub(crate) fn read_prompt(arg: Option<String>) -> Result<String, String> {
    if let Some(prompt) = arg {
        return Ok(prompt);
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err("no prompt given\n\nhint: pass it as an argument (`amplifier run --plan FILE \"prompt\"`) or pipe it on stdin".into());
    }
    let mut prompt = String::new();
    stdin.lock().read_to_string(&mut prompt).map_err(|err| format!("cannot read the prompt from stdin: {err}"))?;
    if prompt.trim().is_empty() {
        return Err("the prompt read from stdin is empty".into());
    }
    Ok(prompt)
}

/// How a run ended, printed only after cleanup so `session:end` precedes it.
enum Outcome {
    Success(String),
    Failure(String),
}

pub(crate) async fn run_session(
    session: Session,
    prompt: String,
    format: OutputFormat,
    allow_partial: bool,
    (lock, loader): (PlanLock, Arc<DylibLoader>),
    recording: Option<Recording>,
) -> u8 {
    let coordinator = session.coordinator().clone();
    let front = output::attach(&coordinator, format);
    coordinator.set_approval_system(Arc::new(crate::approval::TerminalApproval::new(Path::new("."))));
    let initialized = session.initialize().await;
    // The lock records a successful load (a partial one only when asked for).
    let loaded = matches!(&initialized, Ok(report) if report.failures.is_empty() || allow_partial);
    let refused = lock.after_load(&loader, loaded);
    let outcome = match initialized {
        _ if refused.is_some() => Outcome::Failure(refused.unwrap_or_default()),
        Err(err) => Outcome::Failure(err.to_string()),
        Ok(report) if !report.failures.is_empty() && !allow_partial => {
            print_load_summary(&report);
            Outcome::Failure(format!("{} module(s) failed to load", report.failures.len()))
        }
        Ok(report) => {
            if !report.failures.is_empty() {
                print_load_summary(&report);
            }
            let cancellation = coordinator.cancellation().clone();
            let ctrl_c = tokio::spawn(async move {
                while tokio::signal::ctrl_c().await.is_ok() {
                    let state = cancellation.request();
                    eprintln!("\ncancelling ({state:?}); press Ctrl-C again to stop immediately");
                }
            });
            // On resume: the stored history, repaired, before the prompt.
            let result = match store_recorder::restore(recording.as_ref(), &coordinator).await {
                Ok(()) => session.execute(&prompt).await.map_err(|err| err.to_string()),
                Err(message) => Err(message),
            };
            ctrl_c.abort();
            match result {
                Ok(response) => Outcome::Success(response),
                Err(err) => Outcome::Failure(err),
            }
        }
    };
    store_recorder::capture(recording.as_ref(), &coordinator).await;
    session.cleanup().await;
    store_recorder::finish(recording, session.status(), matches!(outcome, Outcome::Success(_)));
    lock.after_run(&loader, loaded);
    let usage = front.meter.total();
    let session_id = session.session_id();
    match outcome {
        Outcome::Success(response) => {
            print_success(format, &front.text, &response, session_id, &usage);
            exit::SUCCESS
        }
        Outcome::Failure(message) => {
            report_failure(format, &message, session_id, &usage);
            exit::RUN_FAILED
        }
    }
}

pub(crate) fn print_load_summary(report: &LoadReport) {
    eprintln!("error: {} module(s) failed to load:", report.failures.len());
    for failure in &report.failures {
        eprintln!("  - {} {} ({}): {}", failure.kind, failure.module, failure.field_path, failure.error);
    }
    let builds = report.failures.iter().filter(|f| f.reason == LoadReason::BuildFailed).count();
    if builds == report.failures.len() {
        eprintln!("hint: fix the module's build (its log is named above), or pass --allow-partial to run without it");
    } else {
        eprintln!("hint: fix the plan, or pass --allow-partial to run without them");
    }
}

fn print_success(
    format: OutputFormat,
    text: &output::TextStreamer,
    response: &str,
    session_id: &str,
    usage: &amplifier_kernel::models::Usage,
) {
    match format {
        OutputFormat::Text => text.finish(response),
        OutputFormat::Sse => println!("{response}"),
        OutputFormat::Json => {
            println!("{}", output::result_document("success", Some(response), None, session_id, usage))
        }
        OutputFormat::Jsonl => println!(
            "{}",
            serde_json::json!({"event": "run:result", "data": output::result_document("success", Some(response), None, session_id, usage)})
        ),
    }
}

fn report_failure(format: OutputFormat, message: &str, session_id: &str, usage: &amplifier_kernel::models::Usage) {
    eprintln!("error: {message}");
    match format {
        OutputFormat::Text | OutputFormat::Sse => {}
        OutputFormat::Json => println!("{}", output::result_document("error", None, Some(message), session_id, usage)),
        OutputFormat::Jsonl => println!(
            "{}",
            serde_json::json!({"event": "run:result", "data": output::result_document("error", None, Some(message), session_id, usage)})
        ),
    }
}
