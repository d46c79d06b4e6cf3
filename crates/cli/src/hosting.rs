//! What every front end shares over `amplifier-host`: opening a host from
//! the flags and settings, printing notices and errors, Ctrl-C, the async
//! runtime.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use amplifier_host::{Host, HostOptions, Notice, StoreConfig};
use amplifier_kernel::cancellation::CancelState;
use amplifier_kernel::loading::LoadReport;
use amplifier_kernel::Coordinator;
use amplifier_plan::PlanDiagnostic;
use amplifier_store::{Location, Retention, Store};
use yaml_rust2::Yaml;

use crate::error::{CliError, CliResult};
use crate::settings::Settings;

/// The flags `run`, the REPL and `resume` share.
#[derive(Clone, Copy, Default)]
pub struct Flags {
    pub offline: bool,
    pub locked: bool,
    pub allow_partial: bool,
    /// An unknown key in the plan or a module's config is an error.
    pub strict: bool,
}

static STORE_FLAG: OnceLock<Option<String>> = OnceLock::new();

/// `--store`, which wins over the `store` setting (kept here, not put in
/// the environment of anything amplifier starts).
pub fn set_store_flag(store: Option<String>) -> CliResult {
    let store = store.map(|text| command_line_secret("--store", &text)).transpose()?;
    let _ = STORE_FLAG.set(store);
    Ok(())
}

/// A store location given on the command line: `env:NAME` is the value of
/// variable NAME, and a URL with a password is refused. Every process of
/// the user can read amplifier's command line (`/proc/PID/cmdline`), the
/// commands an agent runs among them; its environment they cannot
/// (amplifier is not dumpable, and a command's environment is filtered).
pub fn command_line_secret(flag: &str, text: &str) -> CliResult<String> {
    if let Some(name) = text.strip_prefix("env:") {
        return std::env::var(name)
            .map_err(|_| CliError::usage(format!("{flag} env:{name}: the variable `{name}` is not set")));
    }
    let redacted = amplifier_store::redact_url(text);
    if redacted != text {
        return Err(CliError::usage(format!(
            "{flag} {redacted}: a password on the command line is readable by every process of yours, \
             the commands an agent runs included (/proc/PID/cmdline)"
        ))
        .hint(format!(
            "put the URL in a variable and pass `{flag} env:NAME`, or set AMPLIFIER_STORE, \
             or `store:` in $AMPLIFIER_HOME/settings.yaml"
        )));
    }
    Ok(text.to_owned())
}

/// The store `--store` or the `store` setting names (`None`: the default).
pub fn store_location(settings: &Settings) -> CliResult<Option<Location>> {
    let (text, source) = match STORE_FLAG.get().and_then(Option::as_deref) {
        Some(flag) => (flag.to_owned(), "--store".to_owned()),
        None => match settings.get("store") {
            None => return Ok(None),
            Some(Yaml::String(text)) => (text.clone(), settings.source("store")),
            Some(other) => {
                return Err(CliError::usage(format!(
                    "setting `store` is {}: expected a directory or a postgres:// URL",
                    crate::settings::inline(other)
                ))
                .hint(format!("it comes from {}", settings.source("store"))))
            }
        },
    };
    Location::parse(&text)
        .map(Some)
        .map_err(|err| CliError::usage(err.to_string()).hint(format!("it comes from {source}")))
}

/// Where the store is, with the retention `settings` ask for.
fn store_config(settings: &Settings) -> CliResult<StoreConfig> {
    let retention =
        Retention { max_events: settings.limit("events.max_rows")?, max_age_days: settings.limit("events.max_days")? };
    Ok(StoreConfig { retention, location: store_location(settings)?, ..StoreConfig::default() })
}

pub fn open_store() -> CliResult<Store> {
    store_config(Settings::current()?)?.open().map_err(CliError::failed)
}

fn print_notice(notice: Notice) {
    match notice {
        Notice::Warning(text) => eprintln!("warning: {text}"),
        Notice::Note(text) => eprintln!("note: {text}"),
    }
}

/// The host options of a terminal front end: notices on stderr.
pub fn options(flags: Flags, keep_lock: bool) -> CliResult<HostOptions> {
    let settings = Settings::current()?;
    let store = store_config(settings)?;
    // The setting's default is the host's cap; 0 is none.
    let max_tool_result_bytes = settings.limit("tool_results.max_bytes")?.map(|n| n as usize);
    Ok(HostOptions {
        offline: flags.offline,
        keep_lock,
        locked: flags.locked,
        allow_partial: flags.allow_partial,
        strict: flags.strict || settings.get("strict").and_then(Yaml::as_bool) == Some(true),
        provider_choice: Default::default(),
        store,
        max_tool_result_bytes,
        notices: Arc::new(print_notice),
    })
}

/// Opens the plan (its warnings printed) and pulls the local models it needs.
pub fn open(plan_path: &Path, options: HostOptions) -> CliResult<Host> {
    ask_to_trust_project_hooks(plan_path)?;
    let offline = options.offline;
    let host = Host::open(plan_path, options)?;
    print_warnings(host.warnings());
    if !offline {
        crate::model::pull_missing_for(host.plan())?;
    }
    Ok(host)
}

/// hooks-command refuses an untrusted project hooks file when it mounts;
/// on a terminal the user is asked first instead, when the plan names the
/// module (a bundle that brings it in meets the module's refusal).
fn ask_to_trust_project_hooks(plan_path: &Path) -> CliResult {
    use std::io::IsTerminal;
    let hooks = Path::new(crate::trust::PROJECT_HOOKS);
    if !(std::io::stdin().is_terminal() && hooks.is_file()) {
        return Ok(());
    }
    let names_it = amplifier_yaml::read_file(plan_path).is_ok_and(|text| text.contains("hooks-command"));
    let Ok(content) = amplifier_trust::read_checkout_file(hooks) else { return Ok(()) };
    if !names_it {
        return Ok(());
    }
    let effect = "hooks: commands hooks-command runs on the session's events".to_owned();
    let untrusted = crate::trust::Untrusted::check(&crate::trust::list()?, hooks, content, vec![effect]);
    crate::trust::require(&untrusted.into_iter().collect::<Vec<_>>())
}

pub fn print_warnings(diagnostics: &[PlanDiagnostic]) {
    let mut text = String::new();
    crate::error::render_diagnostics(&mut text, "warning", diagnostics).expect("writing to a String");
    eprint!("{text}");
}

/// The modules a partial load went without.
pub fn print_partial_load(report: &LoadReport) {
    if report.failures.is_empty() {
        return;
    }
    eprintln!("warning: {} module(s) failed to load; running without them:", report.failures.len());
    for failure in &report.failures {
        eprintln!("  - {failure}");
    }
}

/// Ctrl-C cancels the session: gracefully, then at once. Abort the handle
/// when the turn is over.
pub fn cancel_on_ctrl_c(coordinator: &Coordinator) -> tokio::task::JoinHandle<()> {
    let cancellation = coordinator.cancellation().clone();
    let grace = coordinator.plan().session.cancel_grace();
    // Listening starts here, not when the task first runs: a Ctrl-C in
    // between would take the default action and end the process silently.
    let mut interrupts = CtrlC::listen();
    tokio::spawn(async move {
        while interrupts.pressed().await {
            // The session did not wind down after two presses: leave without
            // it. What was recorded is at most the recorder's bound behind.
            if cancellation.state() == CancelState::Immediate {
                eprintln!("\nexiting");
                std::process::exit(crate::error::exit::CANCELLED.into());
            }
            match cancellation.request() {
                CancelState::Graceful => eprintln!(
                    "\ncancelling: running tools get {grace:?} to finish (session.cancel_grace); \
                     press Ctrl-C again to stop now"
                ),
                _ => eprintln!("\nstopping now: running calls are dropped; press Ctrl-C again to exit at once"),
            }
        }
    })
}

/// Ctrl-C presses, listened for from the moment this exists.
struct CtrlC {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl CtrlC {
    /// Must run inside the runtime.
    fn listen() -> CtrlC {
        CtrlC {
            #[cfg(unix)]
            signal: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok(),
        }
    }

    async fn pressed(&mut self) -> bool {
        #[cfg(unix)]
        if let Some(signal) = &mut self.signal {
            return signal.recv().await.is_some();
        }
        tokio::signal::ctrl_c().await.is_ok()
    }
}

/// The async runtime a command runs sessions and module builds on.
pub(crate) fn runtime() -> CliResult<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|err| CliError::failed(format!("cannot start the async runtime: {err}")))
}
