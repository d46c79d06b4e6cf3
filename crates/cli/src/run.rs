//! `amplifier run [--plan FILE] [PROMPT]`: one prompt, one session.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use amplifier_host::{Conversation, HostedSession};
use amplifier_kernel::models::Message;
use amplifier_kernel::plan::ProviderChoice;
use clap::Args;

use crate::error::{CliError, CliResult};
use crate::hosting::{self, Flags};
use crate::output::{self, OutputFormat};

#[derive(Args)]
pub struct RunArgs {
    /// The mount plan (YAML) describing the session's modules (default: the
    /// `plan` setting, else amplifier's default plan; `amplifier init` writes it out).
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    /// An upstream Amplifier bundle to compile and run instead of a plan:
    /// Markdown with YAML frontmatter, YAML with a `bundle:` key, or a
    /// directory holding bundle.md (`amplifier bundle compile` prints its plan).
    #[arg(short = 'B', long, value_name = "PATH", conflicts_with = "plan")]
    bundle: Option<PathBuf>,
    /// The prompt; read from standard input when omitted and input is piped.
    prompt: Option<String>,
    /// Attach an image (PNG, JPEG, GIF or WebP) to the prompt; repeat it for more.
    #[arg(long = "image", value_name = "FILE")]
    images: Vec<PathBuf>,
    /// Prefer this provider of the plan: a module (`anthropic` or
    /// `provider-anthropic`) or an `instance_id`.
    #[arg(short = 'p', long, value_name = "NAME")]
    provider: Option<String>,
    /// The model the chosen provider uses (its `default_model`).
    #[arg(short = 'm', long, value_name = "MODEL", requires = "provider")]
    model: Option<String>,
    /// Most tokens in a reply (the provider's `max_tokens`); without
    /// --provider, for the preferred provider.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_tokens: Option<u64>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    output_format: OutputFormat,
    /// Run even when some providers, tools or hooks failed to load.
    #[arg(long)]
    allow_partial: bool,
    /// Refuse an unknown key in the plan or in a module's config instead of
    /// warning and ignoring it (also the `strict` setting).
    #[arg(long)]
    strict: bool,
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
    /// Don't record the session in the store: nothing to resume, list or
    /// export afterwards (a throwaway run, or a benchmark of the loop alone).
    #[arg(long, conflicts_with = "session_name")]
    no_session: bool,
    /// Whose per-agent histories a routing orchestrator reads and writes.
    #[arg(long, value_name = "USER")]
    user: Option<String>,
    /// The conversation those histories belong to (default: a fresh one).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub fn run(args: RunArgs) -> CliResult {
    let plan_path = crate::default_plan::choose(args.plan.or(args.bundle))?;
    let flags =
        Flags { offline: args.offline, locked: args.locked, allow_partial: args.allow_partial, strict: args.strict };
    let conversation = Conversation { user: args.user, id: args.session };
    let choice = ProviderChoice { provider: args.provider, model: args.model, max_tokens: args.max_tokens };
    let images = args.images.iter().map(|path| crate::images::image_message(path)).collect::<CliResult<Vec<_>>>()?;
    // No prompt, and a person at the terminal: an interactive session.
    if args.prompt.is_none() && std::io::stdin().is_terminal() && args.output_format == OutputFormat::Text {
        let session_name = (!args.no_session).then_some(args.session_name);
        let options = crate::repl::ReplOptions { flags, session_name, conversation, choice, images };
        return crate::repl::repl(&plan_path, options);
    }
    let prompt = read_prompt(args.prompt)?;
    let runtime = hosting::runtime()?;
    let mut options = hosting::options(flags, true)?;
    options.provider_choice = choice;
    let host = hosting::open(&plan_path, options)?;
    let builder = match args.no_session {
        true => host.session(),
        false => host.session().record(args.session_name),
    };
    if args.output_format == OutputFormat::Sse {
        return runtime.block_on(crate::sse_stdout::run(builder, conversation, (&prompt, &images)));
    }
    runtime.block_on(run_session(builder, conversation, &prompt, &images, args.output_format))
}

pub(crate) fn read_prompt(arg: Option<String>) -> CliResult<String> {
    if let Some(prompt) = arg {
        return Ok(prompt);
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(CliError::usage("no prompt given")
            .hint("pass it as an argument (`amplifier run --plan FILE \"prompt\"`) or pipe it on stdin"));
    }
    let mut prompt = String::new();
    stdin
        .lock()
        .read_to_string(&mut prompt)
        .map_err(|err| CliError::usage(format!("cannot read the prompt from stdin: {err}")))?;
    if prompt.trim().is_empty() {
        return Err(CliError::usage("the prompt read from stdin is empty"));
    }
    Ok(prompt)
}

/// Mounts the modules and runs the prompt after the attached `images`,
/// Ctrl-C cancelling it.
async fn start_and_turn(
    hosted: &mut HostedSession,
    prompt: &str,
    images: &[Message],
) -> Result<String, amplifier_host::HostError> {
    let report = hosted.start().await?;
    hosting::print_partial_load(&report);
    let ctrl_c = hosting::cancel_on_ctrl_c(hosted.coordinator());
    let result = hosted.turn_with(images, prompt).await;
    ctrl_c.abort();
    result
}

/// One prompt in a hosted session, printed in `format`.
pub(crate) async fn run_session(
    builder: amplifier_host::SessionBuilder,
    conversation: Conversation,
    prompt: &str,
    images: &[Message],
    format: OutputFormat,
) -> CliResult {
    let approval = Arc::new(crate::approval::TerminalApproval::new(Path::new(".")));
    let mut hosted = builder.one_turn().approval(approval).conversation(conversation.clone()).open()?;
    let (user, id) = conversation.resolve(hosted.session_id());
    crate::trace_bridge::attach(hosted.coordinator(), user, id);
    let front = output::attach(hosted.coordinator(), format);
    let result = start_and_turn(&mut hosted, prompt, images).await;
    let session_id = hosted.session_id().to_owned();
    let bundle = hosted.host().bundle().map(str::to_owned);
    let model = output::RunFacts::model_of(hosted.coordinator());
    hosted.finish(result.is_ok()).await;
    let usage = front.meter.total();
    let facts = output::RunFacts {
        session_id: &session_id,
        usage: &usage,
        bundle: bundle.as_deref(),
        model,
        trace: front.trace.as_deref(),
    };
    match result {
        Ok(response) => {
            print_success(format, &front.text, &response, &facts);
            Ok(())
        }
        Err(err) => {
            let message = err.to_string();
            let err = CliError::from(err);
            let status = if err.is_cancelled() { "cancelled" } else { "error" };
            report_failure(format, status, &message, &facts);
            Err(err)
        }
    }
}

fn print_success(format: OutputFormat, text: &output::TextStreamer, response: &str, facts: &output::RunFacts) {
    let document = || output::result_document("success", Some(response), None, facts);
    match format {
        OutputFormat::Text => text.finish(response),
        OutputFormat::Sse => println!("{response}"),
        OutputFormat::Json | OutputFormat::JsonTrace => println!("{:#}", document()),
        OutputFormat::Jsonl => println!("{}", serde_json::json!({"event": "run:result", "data": document()})),
    }
}

/// The failure in the result document of the machine-readable formats
/// (the error itself goes to stderr).
fn report_failure(format: OutputFormat, status: &str, message: &str, facts: &output::RunFacts) {
    let document = || output::result_document(status, None, Some(message), facts);
    match format {
        OutputFormat::Text | OutputFormat::Sse => {}
        OutputFormat::Json | OutputFormat::JsonTrace => println!("{:#}", document()),
        OutputFormat::Jsonl => println!("{}", serde_json::json!({"event": "run:result", "data": document()})),
    }
}
