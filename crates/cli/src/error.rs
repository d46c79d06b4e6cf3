//! The one error every command returns (cargo's `CliError`): what went
//! wrong, what the user can do about it, and the exit code. [`CliError::print`]
//! is the only place an `error:` line and its hints are written, for `main`
//! and for the REPL's in-session errors alike.

use std::fmt::Display;
use std::io::Write;

use amplifier_host::HostError;
use amplifier_plan::{PlanDiagnostic, PlanError};
use amplifier_store::StoreError;

/// Exit codes, as documented in `docs/user/running.md`.
pub mod exit {
    /// The run started but failed (a module failed to load, the provider erred…).
    pub const RUN_FAILED: u8 = 1;
    /// Bad usage or an invalid mount plan: nothing was run.
    pub const USAGE: u8 = 2;
    /// The user cancelled the run (Ctrl-C), as a shell reports SIGINT.
    pub const CANCELLED: u8 = 130;
}

/// What a command ends with when it does not succeed.
#[derive(Debug)]
pub struct CliError {
    body: Body,
    hints: Vec<String>,
    code: u8,
}

#[derive(Debug)]
enum Body {
    /// `error: {message}`.
    Message(String),
    /// A plan's diagnostics, each with its own position and hint.
    Plan { errors: Vec<PlanDiagnostic>, warnings: Vec<PlanDiagnostic> },
    /// The user stopped it: one quiet line, no `error:`.
    Cancelled,
    /// The command printed its own verdict (a validation report): only the
    /// exit code is left to give.
    Shown,
}

pub type CliResult<T = ()> = Result<T, CliError>;

impl CliError {
    /// The input was wrong (arguments, the plan, a setting): nothing ran. Exit 2.
    pub fn usage(message: impl Display) -> Self {
        CliError { body: Body::Message(message.to_string()), hints: Vec::new(), code: exit::USAGE }
    }

    /// The command ran and failed. Exit 1.
    pub fn failed(message: impl Display) -> Self {
        CliError { body: Body::Message(message.to_string()), hints: Vec::new(), code: exit::RUN_FAILED }
    }

    /// A failure the command has already shown in its own output.
    pub fn shown() -> Self {
        CliError { body: Body::Shown, hints: Vec::new(), code: exit::RUN_FAILED }
    }

    /// What the user can do about it, printed as `hint: …` after the error.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    pub fn code(&self) -> u8 {
        self.code
    }

    pub fn is_cancelled(&self) -> bool {
        matches!(self.body, Body::Cancelled)
    }

    /// Prints the error and its hints on stderr, in one write.
    pub fn print(&self) {
        let _ = std::io::stderr().lock().write_all(self.to_string().as_bytes());
    }
}

/// The lines [`CliError::print`] writes.
impl Display for CliError {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.body {
            Body::Message(message) => writeln!(out, "error: {message}")?,
            Body::Plan { errors, warnings } => {
                render_diagnostics(out, "error", errors)?;
                render_diagnostics(out, "warning", warnings)?;
            }
            Body::Cancelled => writeln!(out, "cancelled")?,
            Body::Shown => {}
        }
        for hint in &self.hints {
            writeln!(out, "hint: {hint}")?;
        }
        Ok(())
    }
}

/// `error: plan.yaml:3:5: …` lines, each diagnostic's hint indented under it.
pub fn render_diagnostics(
    out: &mut impl std::fmt::Write,
    severity: &str,
    diagnostics: &[PlanDiagnostic],
) -> std::fmt::Result {
    for diagnostic in diagnostics {
        writeln!(out, "{severity}: {diagnostic}")?;
        if let Some(hint) = &diagnostic.hint {
            writeln!(out, "  hint: {hint}")?;
        }
    }
    Ok(())
}

impl From<PlanError> for CliError {
    fn from(err: PlanError) -> Self {
        match err {
            PlanError::Invalid { errors, warnings } => {
                CliError { body: Body::Plan { errors, warnings }, hints: Vec::new(), code: exit::USAGE }
            }
            read @ PlanError::Read { .. } => CliError::usage(read),
        }
    }
}

impl From<HostError> for CliError {
    fn from(err: HostError) -> Self {
        let hints = err.hints();
        let mut cli = match err {
            HostError::Plan(plan) => CliError::from(plan),
            HostError::Turn { cancelled: true, .. } => {
                CliError { body: Body::Cancelled, hints: Vec::new(), code: exit::CANCELLED }
            }
            err if err.is_usage() => CliError::usage(err),
            err => CliError::failed(err),
        };
        cli.hints.extend(hints);
        cli
    }
}

impl From<StoreError> for CliError {
    fn from(err: StoreError) -> Self {
        let hint = err.hint();
        let cli = match err {
            StoreError::NotFound(_) | StoreError::Ambiguous { .. } | StoreError::Invalid(_) => CliError::usage(err),
            _ => CliError::failed(err),
        };
        match hint {
            Some(hint) => cli.hint(hint),
            None => cli,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(err: &CliError) -> String {
        err.to_string()
    }

    #[test]
    fn an_error_is_one_line_then_its_hints() {
        let err = CliError::usage("no prompt given").hint("pass it as an argument").hint("or pipe it");
        assert_eq!(rendered(&err), "error: no prompt given\nhint: pass it as an argument\nhint: or pipe it\n");
        assert_eq!(err.code(), exit::USAGE);
        assert_eq!(CliError::failed("x").code(), exit::RUN_FAILED);
    }

    #[test]
    fn a_shown_failure_prints_nothing_but_keeps_its_code() {
        assert_eq!(rendered(&CliError::shown()), "");
        assert_eq!(CliError::shown().code(), exit::RUN_FAILED);
    }

    #[test]
    fn store_errors_keep_their_hint_apart_and_pick_the_code() {
        let err = CliError::from(StoreError::NotFound("abc".into()));
        assert_eq!(err.code(), exit::USAGE);
        assert_eq!(
            rendered(&err),
            "error: no session matches 'abc'\nhint: `amplifier session list --all-projects` shows the stored sessions\n"
        );
        assert_eq!(CliError::from(StoreError::Io("disk".into())).code(), exit::RUN_FAILED);
    }
}
