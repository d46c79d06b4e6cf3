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

use amplifier_host::{Conversation, HostError, HostedSession};
use amplifier_kernel::models::Message;
use amplifier_kernel::Coordinator;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::Editor;
use serde_json::json;

use crate::approval::{ApprovalMode, TerminalApproval};
use crate::error::{CliError, CliResult};
use crate::hosting::{self, Flags};
use crate::line_editor::ReplHelper;
use crate::output::{self, FrontEnd, OutputFormat};

const HELP: &str = "\
  /help          this list
  /tools         the tools the model can call
  /skills        the skills the model is offered (tool-skills)
  /skill NAME    put a skill's instructions into the conversation
  /image FILE    attach an image (PNG, JPEG, GIF, WebP) to the next prompt
  /prompts       the MCP servers' prompts (tool-mcp)
  /prompt SERVER/NAME [key=value ...]
                 fill in an MCP prompt and send it as your prompt
                 (quote a value with spaces: key=\"two words\")
  /status        session id, turns, tokens, cost, providers and models
  /compact [FOCUS]
                 summarize the conversation before the last turn, so later
                 requests carry the summary instead (nothing is deleted)
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
    pub flags: Flags,
    /// `None`: the session is not recorded (`--no-session`); else its name, if any.
    pub session_name: Option<Option<String>>,
    pub conversation: Conversation,
    /// `--provider`, `--model`, `--max-tokens`.
    pub choice: amplifier_kernel::plan::ProviderChoice,
    /// `--image`: put into the conversation before the first prompt.
    pub images: Vec<Message>,
}

pub fn repl(plan_path: &Path, options: ReplOptions) -> CliResult {
    let runtime = hosting::runtime()?;
    let mut host_options = hosting::options(options.flags, true)?;
    host_options.provider_choice = options.choice;
    let host = hosting::open(plan_path, host_options)?;
    let approval = Arc::new(TerminalApproval::new(Path::new(".")));
    let builder = match options.session_name {
        Some(name) => host.session().record(name),
        None => host.session(),
    }
    .approval(approval.clone());
    let mut hosted = builder.conversation(options.conversation.clone()).open()?;
    let coordinator = hosted.coordinator().clone();
    let (user, id) = options.conversation.resolve(hosted.session_id());
    crate::trace_bridge::attach(&coordinator, user, id);
    let front = output::attach(&coordinator, OutputFormat::Text);
    // A refused lock, a module that did not load: no conversation starts.
    match runtime.block_on(hosted.start()) {
        Ok(report) => hosting::print_partial_load(&report),
        Err(err) => {
            runtime.block_on(hosted.finish(false));
            return Err(err.into());
        }
    }
    for image in options.images {
        if let Err(err) = runtime.block_on(coordinator.add_message(image)) {
            CliError::failed(format!("cannot attach the image: {err}")).print();
        }
    }

    let mut editor = Editor::<ReplHelper, DefaultHistory>::new()
        .map_err(|err| CliError::failed(format!("cannot start the line editor: {err}")))?;
    let history = amplifier_loader::amplifier_home().join("history");
    // A first session has no history yet.
    let _ = editor.load_history(&history);
    editor.set_helper(Some(ReplHelper::new()));
    eprintln!(
        "amplifier: session {} on {} — /help for commands, Ctrl-D to leave",
        hosted.session_id(),
        plan_path.display()
    );
    let show_usage =
        crate::settings::Settings::current()?.get("show_token_usage").and_then(|v| v.as_bool()).unwrap_or(false);
    let mut turns = 0;
    // Steering typed too late for the turn it was meant for.
    let mut pending: Option<String> = None;
    loop {
        let line = match pending.take().map(Ok).unwrap_or_else(|| editor.readline("> ")) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(err) => {
                CliError::failed(format!("cannot read the line: {err}")).print();
                break;
            }
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(line);
        let mut line = crate::line_editor::joined(line);
        if let Some(command) = line.strip_prefix('/') {
            let repl = Repl { hosted: &hosted, front: &front, approval: &approval, turns };
            match runtime.block_on(slash(command, &repl)) {
                Flow::Continue => continue,
                Flow::Exit => break,
                Flow::Prompt(text) => line = text,
            }
        }
        let line = &line;
        turns += 1;
        let before = front.meter.total();
        runtime.block_on(turn(&mut hosted, &front, line));
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
    runtime.block_on(hosted.finish(true));
    Ok(())
}

enum Flow {
    Continue,
    Exit,
    /// Run this as the turn's prompt (an MCP prompt, filled in).
    Prompt(String),
}

/// One prompt, with Ctrl-C wired to the session's cancellation and lines
/// typed meanwhile steering it.
async fn turn(hosted: &mut HostedSession, front: &FrontEnd, prompt: &str) {
    let ctrl_c = hosting::cancel_on_ctrl_c(hosted.coordinator());
    let steering = crate::steering::SteeringReader::start(hosted.coordinator());
    let result = hosted.turn(prompt).await;
    if let Some(reader) = steering {
        reader.stop();
    }
    ctrl_c.abort();
    match result {
        Ok(response) => front.text.finish(&response),
        Err(HostError::Turn { cancelled: true, .. }) => eprintln!("(turn cancelled)"),
        // The conversation goes on after a failed turn.
        Err(err) => CliError::from(err).print(),
    }
    front.text.reset();
}

/// What the slash commands look at.
struct Repl<'a> {
    hosted: &'a HostedSession,
    front: &'a FrontEnd,
    approval: &'a TerminalApproval,
    turns: usize,
}

/// Asks tool-skills' `load_skill` tool, as the model would.
async fn skill_tool(coordinator: &Coordinator, input: serde_json::Value) -> Result<serde_json::Value, CliError> {
    if !coordinator.tool_specs().iter().any(|tool| tool.name == "load_skill") {
        return Err(CliError::failed("no skills: this plan mounts no tool-skills, or it found none")
            .hint("put skills in .amplifier/skills/NAME/SKILL.md and mount `tool-skills` in the plan"));
    }
    ask_tool(coordinator, "load_skill", input).await
}

/// Asks tool-mcp's prompt tools, as the model would.
async fn prompt_tool(
    coordinator: &Coordinator,
    tool: &str,
    input: serde_json::Value,
) -> Result<serde_json::Value, CliError> {
    if !coordinator.tool_specs().iter().any(|spec| spec.name == tool) {
        return Err(CliError::failed("no MCP prompts: this plan mounts no tool-mcp")
            .hint("add MCP servers to the plan with `tool-mcp` (docs/user/tools.md#tool-mcp)"));
    }
    ask_tool(coordinator, tool, input).await
}

/// A tool's output, or its failure as an error.
async fn ask_tool(
    coordinator: &Coordinator,
    tool: &str,
    input: serde_json::Value,
) -> Result<serde_json::Value, CliError> {
    let result = coordinator.execute_tool(tool, input, None).await;
    match result.success {
        true => Ok(result.output.unwrap_or_default()),
        false => Err(CliError::failed(result.serialized_output())),
    }
}

/// `SERVER/NAME key=value…` as `mcp_get_prompt`'s input.
fn prompt_input(argument: &str) -> Option<serde_json::Value> {
    // Shell-style words, so a value with spaces is quoted: topic="the API design".
    let words = shlex::split(argument)?;
    let mut words = words.iter();
    let (server, name) = words.next()?.split_once('/')?;
    let mut arguments = serde_json::Map::new();
    for word in words {
        let (key, value) = word.split_once('=')?;
        arguments.insert(key.to_owned(), json!(value));
    }
    Some(json!({"server": server, "name": name, "arguments": arguments}))
}

async fn slash(command: &str, repl: &Repl<'_>) -> Flow {
    let Repl { hosted, front, turns, .. } = *repl;
    let coordinator: &Coordinator = hosted.coordinator();
    let (name, argument) = command.split_once(' ').map_or((command, ""), |(n, a)| (n, a.trim()));
    match name {
        "help" => println!("{HELP}"),
        "exit" | "quit" => return Flow::Exit,
        "tools" => {
            for tool in coordinator.tool_specs() {
                println!("  {:<24} {}", tool.name, tool.description.unwrap_or_default().lines().next().unwrap_or(""));
            }
        }
        "skills" => match skill_tool(coordinator, json!({"list": true})).await {
            Ok(listed) => {
                for skill in listed["skills"].as_array().into_iter().flatten() {
                    let name = skill["name"].as_str().unwrap_or_default();
                    println!("  {name:<24} {}", skill["description"].as_str().unwrap_or_default());
                }
            }
            Err(err) => err.print(),
        },
        "skill" if argument.is_empty() => eprintln!("usage: /skill NAME (/skills lists them)"),
        "skill" => match skill_tool(coordinator, json!({"skill_name": argument})).await {
            Ok(loaded) => {
                let content = loaded["content"].as_str().unwrap_or_default();
                let directory = loaded["skill_directory"].as_str().unwrap_or_default();
                // As the model would have it from `load_skill`: the instructions and where their files are.
                let text = format!("Use the skill `{argument}` (its files are in {directory}):\n\n{content}");
                match coordinator.add_message(Message::user(text)).await {
                    Ok(()) => println!("skill {argument} is in the conversation; the next prompt follows it"),
                    Err(err) => CliError::failed(format!("cannot add the skill to the conversation: {err}")).print(),
                }
            }
            Err(err) => err.print(),
        },
        "image" if argument.is_empty() => eprintln!("usage: /image FILE"),
        "image" => match crate::images::image_message(Path::new(argument)) {
            Ok(image) => match coordinator.add_message(image).await {
                Ok(()) => println!("{argument} is attached; the next prompt sees it"),
                Err(err) => CliError::failed(format!("cannot attach the image: {err}")).print(),
            },
            Err(err) => err.print(),
        },
        "prompts" => match prompt_tool(coordinator, "mcp_prompts", json!({})).await {
            Ok(listed) => {
                for (server, prompts) in listed["servers"].as_object().into_iter().flatten() {
                    if let Some(error) = prompts["error"].as_str() {
                        println!("  {server:<24} ({error})");
                    }
                    for prompt in prompts.as_array().into_iter().flatten() {
                        let name = format!("{server}/{}", prompt["name"].as_str().unwrap_or_default());
                        let arguments: Vec<String> = prompt["arguments"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|a| {
                                let required = a["required"].as_bool() == Some(true);
                                format!("{}{}", a["name"].as_str().unwrap_or_default(), if required { "" } else { "?" })
                            })
                            .collect();
                        let arguments =
                            if arguments.is_empty() { String::new() } else { format!(" [{}]", arguments.join(" ")) };
                        println!("  {name:<24} {}{arguments}", prompt["description"].as_str().unwrap_or_default());
                    }
                }
            }
            Err(err) => err.print(),
        },
        "prompt" => match prompt_input(argument) {
            Some(input) => match prompt_tool(coordinator, "mcp_get_prompt", input).await {
                Ok(filled) => {
                    let texts: Vec<&str> = filled["messages"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|m| m["text"].as_str())
                        .collect();
                    let text = texts.join("\n\n");
                    if !text.trim().is_empty() {
                        return Flow::Prompt(text);
                    }
                    eprintln!("the prompt {argument} filled in to no text; nothing was sent");
                }
                Err(err) => err.print(),
            },
            None => eprintln!("usage: /prompt SERVER/NAME [key=value ...] (/prompts lists them)"),
        },
        "status" => {
            let usage = front.meter.total();
            let cost = usage.cost_usd.as_deref().map(|c| format!(", ${c}")).unwrap_or_default();
            println!("session  {}", hosted.session_id());
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
        "compact" => match amplifier_host::compact::compact(coordinator, Some(argument).filter(|a| !a.is_empty())).await
        {
            Ok(Some(done)) => println!(
                "compacted: {} messages summarized in about {} tokens; requests start from about {} tokens instead of {}",
                done.messages_summarized, done.summary_tokens, done.tokens_after, done.tokens_before
            ),
            Ok(None) => println!("nothing to compact yet: the conversation is its last turn"),
            Err(err) => CliError::failed(format!("cannot compact the conversation: {err}")).print(),
        },
        "clear" => match coordinator.set_messages(Vec::<Message>::new()).await {
            Ok(()) => println!("the conversation is forgotten; the session goes on"),
            Err(err) => CliError::failed(format!("cannot clear the context: {err}")).print(),
        },
        "save" if !argument.is_empty() => match coordinator.get_messages().await {
            Ok(messages) => {
                let text = serde_json::to_string_pretty(&messages).unwrap_or_default();
                match std::fs::write(argument, text) {
                    Ok(()) => println!("saved {} messages to {argument}", messages.len()),
                    Err(err) => CliError::failed(format!("cannot write {argument}: {err}")).print(),
                }
            }
            Err(err) => CliError::failed(format!("cannot read the conversation: {err}")).print(),
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
        "fork" => fork(hosted.session_id(), argument),
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
fn fork(session_id: &str, argument: &str) {
    let at_turn = match argument {
        "" => None,
        turn => match turn.parse::<u32>() {
            Ok(turn) => Some(turn),
            Err(_) => return eprintln!("usage: /fork [TURN] (TURN counts from 1)"),
        },
    };
    let forked = hosting::open_store().and_then(|mut store| Ok(store.fork(session_id, at_turn, None)?));
    match forked {
        Ok(fork) => println!(
            "forked {} turn(s) into {}; continue it with `amplifier session resume {}`",
            fork.turn_count, fork.id, fork.id
        ),
        Err(err) => err.print(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_arguments_are_shell_words() {
        let input = prompt_input(r#"docs/review topic="the API design" depth=2 note='it''s fine'"#).unwrap();
        assert_eq!(
            input,
            json!({"server": "docs", "name": "review", "arguments": {"topic": "the API design", "depth": "2", "note": "its fine"}})
        );
        assert_eq!(prompt_input("docs/review").unwrap()["arguments"], json!({}));
        assert!(prompt_input("no-slash").is_none());
        assert!(prompt_input("docs/review topic").is_none(), "an argument without =");
        assert!(prompt_input(r#"docs/review topic="unclosed"#).is_none());
    }
}
