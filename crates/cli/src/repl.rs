//! The interactive session: `amplifier run --plan FILE` with no prompt on a
//! terminal, or `amplifier` alone (with the setting `plan`).
//!
//! One session for the whole conversation, loaded once; each line is a
//! turn, recorded in the store like `amplifier run` (so `session resume`
//! picks it up). The line editor (rustyline) keeps its history in
//! `$AMPLIFIER_HOME/history`. Ctrl-C during a turn cancels it gracefully
//! (running tools finish), a second Ctrl-C immediately; at the prompt it
//! clears the line. Ctrl-D or `/exit` ends the session. With the setting
//! `show_token_usage`, each turn ends with its token count.

use std::path::Path;
use std::sync::Arc;

use amplifier_kernel::models::{Message, RunStatus};
use amplifier_kernel::session::{Session, SessionOptions};
use amplifier_kernel::Coordinator;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::Editor;

use crate::agent_history::Conversation;
use crate::approval::{ApprovalMode, TerminalApproval};
use crate::exit;
use crate::line_editor::ReplHelper;
use crate::output::{self, FrontEnd, OutputFormat};
use crate::run::{prepare, print_load_summary, Prepared};
use crate::store_recorder::{self, Recording};

const HELP: &str = "\
  /help          this list
  /tools         the tools the model can call
  /status        session id, turns, tokens, cost, providers and models
  /clear         forget the conversation (the session goes on)
  /save FILE     write the conversation as JSON
  /config        the settings and where each came from
  /agents        a routing orchestrator's agents, and which answered last
  /fork [TURN]   copy this session (up to TURN) into a new stored one
  /mode [MODE]   how tool approvals are answered: ask (default), auto, deny
  /exit          end the session (or Ctrl-D)
Anything else is a prompt; end a line with \\ to go on on the next one.
Tab completes commands and file paths. A line typed during a turn steers it.
Ctrl-C cancels a running turn (twice: at once).";

/// `amplifier run`'s flags that apply to the whole interactive session.
#[derive(Default)]
pub struct ReplOptions {
    pub offline: bool,
    pub locked: bool,
    pub session_name: Option<String>,
    pub conversation: Conversation,
}

pub fn repl(plan_path: &Path, options: ReplOptions) -> u8 {
    let Prepared { plan, runtime, lock, loader } = match prepare(plan_path, options.offline, options.locked) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    let recorded = store_recorder::recording_sub_agents(loader.clone(), plan_path);
    let session = Session::new(plan, recorded, SessionOptions::default());
    let coordinator = session.coordinator().clone();
    let recording = Recording::create(&coordinator, plan_path, options.session_name.as_deref());
    // A routing orchestrator keeps per-agent histories for this conversation.
    options.conversation.attach(&session);
    let front = output::attach(&coordinator, OutputFormat::Text);
    let approval = Arc::new(TerminalApproval::new(Path::new(".")));
    coordinator.set_approval_system(approval.clone());

    let report = match runtime.block_on(session.initialize()) {
        Ok(report) => report,
        Err(err) => {
            eprintln!("error: {err}");
            return exit::RUN_FAILED;
        }
    };
    lock.after_load(&loader, report.failures.is_empty());
    if !report.failures.is_empty() {
        print_load_summary(&report);
        runtime.block_on(session.cleanup());
        return exit::RUN_FAILED;
    }

    let mut editor = match Editor::<ReplHelper, DefaultHistory>::new() {
        Ok(editor) => editor,
        Err(err) => {
            eprintln!("error: cannot start the line editor: {err}");
            return exit::RUN_FAILED;
        }
    };
    let history = amplifier_loader::amplifier_home().join("history");
    // A first session has no history yet.
    let _ = editor.load_history(&history);
    editor.set_helper(Some(ReplHelper::new()));
    eprintln!(
        "amplifier: session {} on {} — /help for commands, Ctrl-D to leave",
        session.session_id(),
        plan_path.display()
    );
    let show_usage = crate::settings::Settings::load(Path::new("."))
        .get("show_token_usage")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let mut turns = 0;
    // Steering typed too late for the turn it was meant for.
    let mut pending: Option<String> = None;
    loop {
        let line = match pending.take().map(Ok).unwrap_or_else(|| editor.readline("> ")) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(err) => {
                eprintln!("error: cannot read the line: {err}");
                break;
            }
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(line);
        let line = &crate::line_editor::joined(line);
        if let Some(command) = line.strip_prefix('/') {
            let repl = Repl { session: &session, coordinator: &coordinator, front: &front, approval: &approval, turns };
            match runtime.block_on(slash(command, &repl)) {
                Flow::Continue => continue,
                Flow::Exit => break,
            }
        }
        if turns > 0 {
            store_recorder::begin_turn(recording.as_ref());
        }
        turns += 1;
        let before = front.meter.total();
        runtime.block_on(turn(&session, &coordinator, &front, line, recording.as_ref()));
        let late = coordinator.take_steering();
        if !late.is_empty() {
            eprintln!("(typed after the answer: sent as the next prompt)");
            pending = Some(late.join("\n"));
        }
        if show_usage {
            let after = front.meter.total();
            let cost = after.cost_usd.as_deref().map(|c| format!(", ${c} so far")).unwrap_or_default();
            eprintln!(
                "[{} input + {} output tokens{cost}]",
                after.input_tokens - before.input_tokens,
                after.output_tokens - before.output_tokens
            );
        }
    }
    if let Some(dir) = history.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(err) = editor.save_history(&history) {
        eprintln!("warning: cannot save the line history to {}: {err}", history.display());
    }
    runtime.block_on(async {
        store_recorder::capture(recording.as_ref(), &coordinator).await;
        session.cleanup().await;
    });
    store_recorder::finish(recording, session.status(), true);
    lock.after_run(&loader, true);
    exit::SUCCESS
}

enum Flow {
    Continue,
    Exit,
}

/// One prompt, with Ctrl-C wired to the session's cancellation.
async fn turn(
    session: &Session,
    coordinator: &Arc<Coordinator>,
    front: &FrontEnd,
    prompt: &str,
    recording: Option<&Recording>,
) {
    coordinator.cancellation().reset();
    let cancellation = coordinator.cancellation().clone();
    let ctrl_c = tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            let state = cancellation.request();
            eprintln!("\ncancelling ({state:?}); press Ctrl-C again to stop immediately");
        }
    });
    let steering = crate::steering::SteeringReader::start(coordinator);
    let result = session.execute(prompt).await;
    if let Some(reader) = steering {
        reader.stop();
    }
    ctrl_c.abort();
    match result {
        Ok(response) => front.text.finish(&response),
        Err(_) if session.status() == RunStatus::Cancelled => eprintln!("(turn cancelled)"),
        Err(err) => eprintln!("error: {err}"),
    }
    front.text.reset();
    store_recorder::capture(recording, coordinator).await;
    store_recorder::save_turn(recording);
}

/// What the slash commands look at.
struct Repl<'a> {
    session: &'a Session,
    coordinator: &'a Coordinator,
    front: &'a FrontEnd,
    approval: &'a TerminalApproval,
    turns: usize,
}

async fn slash(command: &str, repl: &Repl<'_>) -> Flow {
    let Repl { session, coordinator, front, turns, .. } = *repl;
    let (name, argument) = command.split_once(' ').map_or((command, ""), |(n, a)| (n, a.trim()));
    match name {
        "help" => println!("{HELP}"),
        "exit" | "quit" => return Flow::Exit,
        "tools" => {
            for tool in coordinator.tool_specs() {
                println!("  {:<24} {}", tool.name, tool.description.unwrap_or_default().lines().next().unwrap_or(""));
            }
        }
        "status" => {
            let usage = front.meter.total();
            let cost = usage.cost_usd.as_deref().map(|c| format!(", ${c}")).unwrap_or_default();
            println!("session  {}", session.session_id());
            println!("turns    {turns}");
            println!(
                "tokens   {} input + {} output = {}{cost}",
                usage.input_tokens, usage.output_tokens, usage.total_tokens
            );
            // The model each provider uses unless a request names another.
            let providers: Vec<String> = coordinator
                .providers()
                .into_iter()
                .map(|p| match p.provider.info().defaults.get("model").and_then(|m| m.as_str()) {
                    Some(model) => format!("{} (model {model})", p.name),
                    None => p.name,
                })
                .collect();
            println!("provider {}", providers.join(", "));
        }
        "clear" => match coordinator.set_messages(Vec::<Message>::new()).await {
            Ok(()) => println!("the conversation is forgotten; the session goes on"),
            Err(err) => eprintln!("error: cannot clear the context: {err}"),
        },
        "save" if !argument.is_empty() => match coordinator.get_messages().await {
            Ok(messages) => {
                let text = serde_json::to_string_pretty(&messages).unwrap_or_default();
                match std::fs::write(argument, text) {
                    Ok(()) => println!("saved {} messages to {argument}", messages.len()),
                    Err(err) => eprintln!("error: cannot write {argument}: {err}"),
                }
            }
            Err(err) => eprintln!("error: cannot read the conversation: {err}"),
        },
        "save" => eprintln!("usage: /save FILE"),
        "config" => print!("{}", crate::settings::Settings::load(Path::new(".")).render()),
        "agents" => match coordinator.get_capability("router.agents") {
            Some(agents) => {
                let last = agents.get("last_agent").and_then(|a| a.as_str()).unwrap_or("");
                for agent in agents.get("agents").and_then(|a| a.as_array()).into_iter().flatten() {
                    let id = agent.get("id").and_then(|i| i.as_str()).unwrap_or_default();
                    let mark = if id == last { "*" } else { " " };
                    let description = agent.get("description").and_then(|d| d.as_str()).unwrap_or_default();
                    println!("{mark} {id:<20} {description}");
                }
                println!("(* answered last)");
            }
            None => println!("this plan's orchestrator does not route between agents"),
        },
        "fork" => fork(session, argument),
        "mode" if argument.is_empty() => {
            println!("mode {} (one of {})", repl.approval.mode().name(), ApprovalMode::NAMES)
        }
        "mode" => match ApprovalMode::parse(argument) {
            Some(mode) => {
                repl.approval.set_mode(mode);
                println!(
                    "mode {}: tool approvals are {}",
                    mode.name(),
                    match mode {
                        ApprovalMode::Ask => "asked on the terminal",
                        ApprovalMode::Auto => "allowed without asking",
                        ApprovalMode::Deny => "denied without asking",
                    }
                );
            }
            None => eprintln!("unknown mode `{argument}`; one of {}", ApprovalMode::NAMES),
        },
        _ => eprintln!("unknown command /{name}; /help lists them"),
    }
    Flow::Continue
}

/// `/fork [TURN]`: the stored session so far (or up to TURN) copied into a
/// new one, which `amplifier session resume` continues.
fn fork(session: &Session, argument: &str) {
    let at_turn = match argument {
        "" => None,
        turn => match turn.parse::<u32>() {
            Ok(turn) => Some(turn),
            Err(_) => return eprintln!("usage: /fork [TURN] (TURN counts from 1)"),
        },
    };
    let forked = store_recorder::open_store()
        .and_then(|mut store| store.fork(session.session_id(), at_turn, None).map_err(|err| err.to_string()));
    match forked {
        Ok(fork) => println!(
            "forked {} turn(s) into {}; continue it with `amplifier session resume {}`",
            fork.turn_count, fork.id, fork.id
        ),
        Err(err) => eprintln!("error: cannot fork: {err}"),
    }
}
