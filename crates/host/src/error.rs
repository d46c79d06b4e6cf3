//! What can stop a hosted session, with the hints a front end shows.

use std::path::PathBuf;

use amplifier_kernel::loading::{LoadReason, LoadReport};
use amplifier_kernel::session::SessionError;
use amplifier_loader::lockfile::LockfileError;
use amplifier_plan::PlanError;

use crate::recording::RecordingError;

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The plan does not parse or is invalid; its diagnostics carry file,
    /// line and column.
    #[error("{0}")]
    Plan(#[from] PlanError),
    /// `--provider` names no provider of the plan.
    #[error("{0}")]
    UnknownProvider(#[from] amplifier_kernel::plan::UnknownProvider),
    /// `amplifier.lock` exists but cannot be read.
    #[error(transparent)]
    Lockfile(#[from] LockfileError),
    #[error("--locked: {} does not exist", lock_path.display())]
    NoLockfile { lock_path: PathBuf, plan_path: PathBuf },
    /// `--locked`, and some module resolved differently from the lock.
    #[error("the plan's modules differ from {} (--locked):{}", lock_path.display(), bullets(problems))]
    LockDiffers { lock_path: PathBuf, plan_path: PathBuf, problems: Vec<String> },
    /// The orchestrator or context did not mount, or the plan is unusable.
    #[error("{0}")]
    Initialize(SessionError),
    /// Some providers, tools or hooks did not mount (and partial loads
    /// were not allowed).
    #[error("{} module(s) failed to load:{}", .0.failures.len(), bullets(&failures(.0)))]
    LoadFailed(LoadReport),
    #[error("cannot restore the session's history: {0}")]
    Restore(#[source] RecordingError),
    /// The turn failed; `cancelled` when the user cancelled it.
    #[error("{error}")]
    Turn { error: SessionError, cancelled: bool },
}

fn bullets(lines: &[String]) -> String {
    lines.iter().map(|line| format!("\n  - {line}")).collect()
}

fn failures(report: &LoadReport) -> Vec<String> {
    report.failures.iter().map(ToString::to_string).collect()
}

impl HostError {
    /// Whether the input was wrong (the plan, the lock): nothing ran.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            HostError::Plan(_) | HostError::UnknownProvider(_) | HostError::Lockfile(_) | HostError::NoLockfile { .. }
        )
    }

    /// What the user can do about it.
    pub fn hints(&self) -> Vec<String> {
        match self {
            HostError::Lockfile(_) => {
                vec!["delete it and run `amplifier update --plan FILE` to write a new one".into()]
            }
            HostError::NoLockfile { plan_path, .. } => vec![format!(
                "run `amplifier update --plan {}` (or run once without --locked) to write it",
                plan_path.display()
            )],
            HostError::LockDiffers { plan_path, .. } => vec![format!(
                "run `amplifier update --plan {} [MODULE]` to accept the new resolution, or run without --locked",
                plan_path.display()
            )],
            HostError::LoadFailed(report) => vec![load_hint(report).into()],
            HostError::UnknownProvider(_) => {
                vec!["pass one of them to --provider (a module such as `anthropic` or an instance_id), or add the provider to the plan".into()]
            }
            _ => Vec::new(),
        }
    }
}

/// The hint after a list of load failures.
pub fn load_hint(report: &LoadReport) -> &'static str {
    let builds = report.failures.iter().filter(|f| f.reason == LoadReason::BuildFailed).count();
    if builds == report.failures.len() {
        "fix the module's build (its log is named above), or pass --allow-partial to run without it"
    } else {
        "fix the plan, or pass --allow-partial to run without them"
    }
}
