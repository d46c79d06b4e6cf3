//! `amplifier session list|show|export|resume|fork|delete|cleanup`,
//! `amplifier resume ID [PROMPT]` and `amplifier continue [PROMPT]`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use amplifier_host::recording::{plan_hash, working_dir};
use amplifier_host::Conversation;
use amplifier_kernel::models::RunStatus;
use amplifier_store::{ListFilter, SessionRecord, Store};
use clap::{Args, Subcommand, ValueEnum};

use crate::error::{CliError, CliResult};
use crate::hosting::{self, Flags};
use crate::output::OutputFormat;

#[derive(Args)]
pub struct SessionArgs {
    #[command(subcommand)]
    command: SessionCommand,
}

#[derive(Subcommand)]
enum SessionCommand {
    /// List stored sessions, most recent first (this directory's unless --all-projects).
    List(ListArgs),
    /// Show a session's details, and its transcript with --transcript.
    Show(ShowArgs),
    /// Export a session: upstream-style JSONL files, or a Markdown transcript.
    Export(ExportArgs),
    /// Run a new prompt in a stored session (same as `amplifier resume`).
    Resume(ResumeArgs),
    /// Copy a session, or its first N turns, into a new session.
    Fork(ForkArgs),
    /// Delete a session with its messages and events.
    Delete(DeleteArgs),
    /// Delete the sessions not used for N days.
    Cleanup(CleanupArgs),
}

#[derive(Args)]
struct ListArgs {
    /// Sessions of every directory, not just the current one.
    #[arg(long)]
    all_projects: bool,
    /// How many sessions to list.
    #[arg(short = 'n', long = "limit", value_name = "N", default_value_t = 20)]
    limit: usize,
}

#[derive(Args)]
struct ShowArgs {
    /// The session id (a unique prefix is enough).
    id: String,
    /// Also print the transcript (Markdown).
    #[arg(short = 'T', long)]
    transcript: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    /// `transcript.jsonl`, `events.jsonl` and `metadata.json` in a directory (upstream's layout).
    Jsonl,
    /// A readable Markdown transcript.
    Md,
}

#[derive(Args)]
struct ExportArgs {
    /// The session id (a unique prefix is enough).
    id: String,
    #[arg(long, value_enum, default_value_t = ExportFormat::Jsonl)]
    format: ExportFormat,
    /// jsonl: the directory to write (default `./<session-id>`); md: the file (default: standard output).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

#[derive(Args)]
pub struct ResumeArgs {
    /// The session id (a unique prefix is enough). Without one, pick from
    /// this directory's recent sessions: a number, `n`/`p` to page, `q` to quit.
    id: Option<String>,
    /// Sessions per page of the picker.
    #[arg(short = 'n', long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    limit: u32,
    #[command(flatten)]
    turn: TurnArgs,
}

#[derive(Args)]
pub struct ContinueArgs {
    #[command(flatten)]
    turn: TurnArgs,
}

/// What resuming and continuing take, as `run` does.
#[derive(Args)]
struct TurnArgs {
    /// The prompt; read from standard input when omitted and input is piped.
    prompt: Option<String>,
    /// Run with this plan instead of the one the session was created with.
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    output_format: OutputFormat,
    /// Run even when some providers, tools or hooks failed to load.
    #[arg(long)]
    allow_partial: bool,
    /// Refuse an unknown key in the plan or in a module's config.
    #[arg(long)]
    strict: bool,
}

#[derive(Args)]
struct ForkArgs {
    /// The session id (a unique prefix is enough).
    id: String,
    /// Copy only the first N turns (default: all).
    #[arg(short = 't', long, value_name = "N")]
    at_turn: Option<u32>,
    /// A name for the new session (default: the source's).
    #[arg(short = 'n', long, value_name = "NAME")]
    name: Option<String>,
}

#[derive(Args)]
struct DeleteArgs {
    /// The session id (a unique prefix is enough).
    id: String,
}

#[derive(Args)]
struct CleanupArgs {
    /// Delete sessions last used more than this many days ago.
    #[arg(short = 'd', long, value_name = "N", default_value_t = 30)]
    days: u64,
}

fn open() -> CliResult<Store> {
    hosting::open_store()
}

pub fn session(args: SessionArgs) -> CliResult {
    if !matches!(args.command, SessionCommand::Resume(_)) {
        die_quietly_on_a_closed_pipe();
    }
    match args.command {
        SessionCommand::List(args) => list(args),
        SessionCommand::Show(args) => show(args),
        SessionCommand::Export(args) => export(args),
        SessionCommand::Resume(args) => resume(args),
        SessionCommand::Fork(args) => fork(args),
        SessionCommand::Delete(args) => delete(args),
        SessionCommand::Cleanup(args) => cleanup(args),
    }
}

/// `amplifier session list | head`: the listing commands end quietly when
/// the reader goes, as Unix tools do, instead of panicking in `println!`.
/// Only for commands that print and exit: a session must see a provider's
/// or a tool's closed socket as an error (Rust ignores SIGPIPE for that).
fn die_quietly_on_a_closed_pipe() {
    // SAFETY: setting a signal's disposition to the default is
    // async-signal-safe, and no handler of ours is replaced.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The status to show: a `running` session nobody holds was interrupted.
fn shown_status(store: &Store, session: &SessionRecord) -> &'static str {
    match session.status {
        RunStatus::Running if !store.is_locked(&session.id) => "interrupted",
        status => amplifier_store::status_str(status),
    }
}

fn list(args: ListArgs) -> CliResult {
    let store = open()?;
    let here = working_dir();
    let filter = ListFilter { working_dir: (!args.all_projects).then(|| here.clone()), limit: Some(args.limit) };
    let sessions = store.list(&filter)?;
    if sessions.is_empty() {
        if args.all_projects {
            eprintln!("no stored sessions");
        } else {
            eprintln!("no sessions in {here}\nhint: `amplifier session list --all-projects` lists every directory's");
        }
        return Ok(());
    }
    println!("{:<36}  {:<16}  {:>5}  {:<11}  NAME / FIRST PROMPT", "ID", "UPDATED (UTC)", "TURNS", "STATUS");
    for session in &sessions {
        let label = session.name.as_deref().or(session.title.as_deref()).unwrap_or("");
        let mut line = format!(
            "{:<36}  {:<16}  {:>5}  {:<11}  {label}",
            session.id,
            amplifier_store::format_ms(session.updated_ms),
            session.turn_count,
            shown_status(&store, session),
        );
        if args.all_projects {
            line.push_str(&format!("  [{}]", session.working_dir));
        }
        println!("{}", line.trim_end());
    }
    Ok(())
}

fn show(args: ShowArgs) -> CliResult {
    let store = open()?;
    let session = store.resolve(&args.id)?;
    let field = |name: &str, value: &str| println!("{name:<10}{value}");
    field("session", &session.id);
    if let Some(name) = &session.name {
        field("name", name);
    }
    match (&session.parent_id, &session.agent) {
        (Some(parent), Some(agent)) => field("agent", &format!("{agent}, a sub-agent of {parent}")),
        (Some(parent), None) => field("parent", parent),
        _ => {}
    }
    field("status", shown_status(&store, &session));
    field("created", &format!("{} UTC", amplifier_store::format_ms(session.created_ms)));
    field("updated", &format!("{} UTC", amplifier_store::format_ms(session.updated_ms)));
    field("directory", &session.working_dir);
    if let Some(plan) = &session.plan_path {
        let hash = session.plan_hash.as_deref().map(|h| format!(" (sha256 {})", short(h))).unwrap_or_default();
        field("plan", &format!("{plan}{hash}"));
    }
    field("turns", &session.turn_count.to_string());
    field("messages", &session.message_count.to_string());
    let dropped = match session.events_dropped {
        0 => String::new(),
        n => format!(" ({n} older events dropped by retention)"),
    };
    field("events", &format!("{}{dropped}", session.event_count));
    let usage = &session.usage;
    let cost = usage.cost_usd.as_deref().map(|c| format!(", ${c}")).unwrap_or_default();
    field(
        "usage",
        &format!("{} input + {} output = {} tokens{cost}", usage.input_tokens, usage.output_tokens, usage.total_tokens),
    );
    for child in store.sub_agents(&session.id)? {
        let agent = child.agent.as_deref().unwrap_or_default();
        field("sub-agent", &format!("{} ({agent}, {} messages)", child.id, child.message_count));
    }
    if args.transcript {
        let messages = store.messages(&session.id)?;
        println!("\n{}", amplifier_store::markdown_transcript(&session, &messages).trim_end());
    }
    Ok(())
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

fn write_file(path: &std::path::Path, text: &str) -> CliResult {
    std::fs::write(path, text).map_err(|err| CliError::failed(format!("cannot write {}: {err}", path.display())))
}

fn export(args: ExportArgs) -> CliResult {
    let store = open()?;
    let session = store.resolve(&args.id)?;
    let messages = store.messages(&session.id)?;
    match args.format {
        ExportFormat::Md => {
            let text = amplifier_store::markdown_transcript(&session, &messages);
            match &args.out {
                Some(path) => {
                    write_file(path, &text)?;
                    eprintln!("wrote {}", path.display());
                }
                None => print!("{text}"),
            }
        }
        ExportFormat::Jsonl => {
            let dir = args.out.unwrap_or_else(|| PathBuf::from(&session.id));
            std::fs::create_dir_all(&dir)
                .map_err(|err| CliError::failed(format!("cannot create {}: {err}", dir.display())))?;
            let events = store.events(&session.id)?;
            write_file(&dir.join("transcript.jsonl"), &amplifier_store::transcript_jsonl(&messages))?;
            write_file(&dir.join("events.jsonl"), &amplifier_store::events_jsonl(&session.id, &events))?;
            let metadata = serde_json::to_string_pretty(&amplifier_store::metadata_json(&session)).unwrap_or_default();
            write_file(&dir.join("metadata.json"), &format!("{metadata}\n"))?;
            eprintln!(
                "wrote {} (transcript.jsonl: {} messages, events.jsonl: {} events, metadata.json)",
                dir.display(),
                messages.len(),
                events.len()
            );
        }
    }
    Ok(())
}

fn fork(args: ForkArgs) -> CliResult {
    let mut store = open()?;
    let source = store.resolve(&args.id)?;
    let fork = store.fork(&source.id, args.at_turn, args.name.as_deref())?;
    eprintln!("forked {} ({} of {} turns) into a new session:", source.id, fork.turn_count, source.turn_count);
    println!("{}", fork.id);
    Ok(())
}

fn delete(args: DeleteArgs) -> CliResult {
    let mut store = open()?;
    let session = store.resolve(&args.id)?;
    store.delete(&session.id)?;
    println!("deleted {}", session.id);
    Ok(())
}

fn cleanup(args: CleanupArgs) -> CliResult {
    let mut store = open()?;
    let (deleted, skipped) = store.cleanup(Duration::from_secs(args.days.saturating_mul(86_400)))?;
    println!("deleted {} session(s) not used for {} day(s)", deleted.len(), args.days);
    for id in skipped {
        eprintln!("skipped {id}: in use by another amplifier process");
    }
    Ok(())
}

pub fn resume(args: ResumeArgs) -> CliResult {
    let store = open()?;
    let session = match &args.id {
        Some(id) => store.resolve(id)?,
        None => match pick(&store, args.limit as usize)? {
            Some(session) => session,
            None => return Ok(()),
        },
    };
    run_turn(store, session, args.turn)
}

/// Upstream's picker: this directory's sessions, newest first, a page at a
/// time on stderr; the choice is a line of standard input (Enter takes the
/// first of the page). `None` when the person quits.
fn pick(store: &Store, page: usize) -> CliResult<Option<SessionRecord>> {
    let here = working_dir();
    let sessions = store.list(&ListFilter { working_dir: Some(here.clone()), limit: None })?;
    match sessions.len() {
        0 => {
            return Err(CliError::usage(format!("no session to resume in {here}"))
                .hint("`amplifier resume ID` resumes another directory's (`amplifier session list --all-projects`)"))
        }
        1 => {
            eprintln!("resuming the only session here, {}", sessions[0].id);
            return Ok(sessions.into_iter().next());
        }
        _ => {}
    }
    let now = amplifier_store::now_ms();
    let mut offset = 0;
    loop {
        let shown = &sessions[offset..sessions.len().min(offset + page)];
        eprintln!("\nRecent sessions in {here}:\n");
        for (index, session) in shown.iter().enumerate() {
            let label =
                session.name.as_deref().or(session.title.as_deref()).map(|l| format!(" {l}")).unwrap_or_default();
            let plan = session.plan_path.as_deref().and_then(|p| Path::new(p).file_name()).map(|n| n.to_string_lossy());
            eprintln!(
                "  [{}] {}{label} | {} | {} turns | {}",
                offset + index + 1,
                short(&session.id),
                plan.as_deref().unwrap_or("-"),
                session.turn_count,
                ago(now - session.updated_ms),
            );
        }
        let mut keys = Vec::new();
        if offset + page < sessions.len() {
            keys.push(format!("'n' next ({})", sessions.len() - offset - page));
        }
        if offset > 0 {
            keys.push(format!("'p' prev ({offset})"));
        }
        keys.push("'q' quit".to_owned());
        eprint!("\n{}\nSelect session ({}): ", keys.join(" | "), offset + 1);
        let mut line = String::new();
        let read = std::io::stdin()
            .read_line(&mut line)
            .map_err(|err| CliError::failed(format!("cannot read the choice: {err}")))?;
        if read == 0 {
            return Err(CliError::usage("no session chosen (end of input)"));
        }
        match line.trim().to_lowercase().as_str() {
            "" => return Ok(Some(shown[0].clone())),
            "q" | "quit" | "exit" => {
                eprintln!("cancelled");
                return Ok(None);
            }
            "n" | "next" if offset + page < sessions.len() => offset += page,
            "p" | "prev" | "previous" if offset > 0 => offset -= page,
            choice => match choice.parse::<usize>() {
                Ok(n) if (offset + 1..=offset + shown.len()).contains(&n) => {
                    return Ok(Some(shown[n - offset - 1].clone()))
                }
                _ => eprintln!("enter {}-{}, 'n', 'p' or 'q'", offset + 1, offset + shown.len()),
            },
        }
    }
}

/// `5m ago`, as upstream's picker says it.
fn ago(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    match seconds {
        s if s < 60 => "just now".to_owned(),
        s if s < 3600 => format!("{}m ago", s / 60),
        s if s < 86_400 => format!("{}h ago", s / 3600),
        s if s < 30 * 86_400 => format!("{}d ago", s / 86_400),
        s if s < 365 * 86_400 => format!("{}mo ago", s / (30 * 86_400)),
        s => format!("{}y ago", s / (365 * 86_400)),
    }
}

pub fn continue_session(args: ContinueArgs) -> CliResult {
    let store = open()?;
    let here = working_dir();
    let session = store.latest_in(&here)?.ok_or_else(|| {
        CliError::usage(format!("no session to continue in {here}")).hint(
            "start one with `amplifier run --plan FILE \"prompt\"`, or resume another directory's with `amplifier resume ID`",
        )
    })?;
    run_turn(store, session, args.turn)
}

/// Resumes `session` for one prompt: lock it, find its plan, restore its
/// history (repaired), run the prompt, record the turn.
fn run_turn(mut store: Store, session: SessionRecord, args: TurnArgs) -> CliResult {
    let prompt = crate::run::read_prompt(args.prompt)?;
    let lock = store.lock_session(&session.id)?;
    let plan_path = plan_for(&session, args.plan)?;
    let hash =
        plan_hash(&plan_path).map_err(|err| CliError::usage(format!("cannot read {}: {err}", plan_path.display())))?;
    let recorded_path = plan_path.display().to_string();
    if session.plan_path.as_deref() == Some(recorded_path.as_str()) {
        if let Some(old) = session.plan_hash.as_deref().filter(|old| *old != hash) {
            eprintln!(
                "warning: {} changed since session {} last ran (sha256 {} then, {} now); resuming with the current file",
                recorded_path,
                session.id,
                short(old),
                short(&hash)
            );
        }
    }
    if session.plan_path.as_deref() != Some(recorded_path.as_str()) || session.plan_hash.as_deref() != Some(&hash) {
        store.update_plan(&session.id, &recorded_path, &hash)?;
    }

    let runtime = hosting::runtime()?;
    // amplifier.lock beside the plan is kept up to date as `run` does.
    let flags = Flags { allow_partial: args.allow_partial, strict: args.strict, ..Flags::default() };
    let host = hosting::open(&plan_path, hosting::options(flags, true)?)?;
    let builder = host.session().resume(store, session, lock);
    runtime.block_on(crate::run::run_session(builder, Conversation::default(), &prompt, &[], args.output_format))
}

/// The plan to resume with: `--plan`, or the one the session recorded.
fn plan_for(session: &SessionRecord, given: Option<PathBuf>) -> CliResult<PathBuf> {
    if let Some(path) = given {
        return path
            .canonicalize()
            .map_err(|err| CliError::usage(format!("cannot read the plan {}: {err}", path.display())));
    }
    let Some(recorded) = session.plan_path.as_deref() else {
        return Err(CliError::usage(format!("session {} has no recorded plan", session.id))
            .hint("pass --plan FILE to resume it with a plan"));
    };
    let path = PathBuf::from(recorded);
    if !path.is_file() {
        return Err(CliError::usage(format!(
            "the plan session {} was created with, {recorded}, no longer exists",
            session.id
        ))
        .hint("pass --plan FILE to resume it with another plan"));
    }
    Ok(path)
}
