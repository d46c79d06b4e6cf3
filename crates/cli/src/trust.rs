//! Project files are untrusted until the user trusts them (see
//! `amplifier-trust`): what the settings of a checkout may only do once
//! trusted, the question on a terminal and the refusal elsewhere.
//! `amplifier trust` is `trust_cmd`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use amplifier_trust::{TrustList, Verdict};

use crate::error::{CliError, CliResult};

/// Settings a project file may set only once trusted: each changes what
/// runs (a plan, modules from an index, tools run without asking) or where
/// the prompts and answers go (a store).
pub const GUARDED_SETTINGS: &[&str] = &["plan", "store", "approvals.always_allow", "module_indexes"];

/// The project's hooks file hooks-command reads.
pub const PROJECT_HOOKS: &str = ".amplifier/hooks.json";

/// A project file that needs trust and does not have it.
#[derive(Debug, Clone)]
pub struct Untrusted {
    pub file: PathBuf,
    pub content: Vec<u8>,
    pub verdict: Verdict,
    /// What it would do, one line each (`plan: x.yaml`).
    pub effects: Vec<String>,
}

impl Untrusted {
    /// `file` holding `content`, when the list does not trust it.
    pub fn check(list: &TrustList, file: &Path, content: Vec<u8>, effects: Vec<String>) -> Option<Untrusted> {
        match list.verdict(file, &content) {
            Verdict::Trusted => None,
            verdict => Some(Untrusted { file: file.to_owned(), content, verdict, effects }),
        }
    }

    fn state(&self) -> &'static str {
        self.verdict.describe()
    }

    /// One line for a warning: the file, its state, what it sets.
    pub fn summary(&self) -> String {
        let keys: Vec<&str> = self.effects.iter().map(|e| e.split(':').next().unwrap_or(e)).collect();
        let file = self.file.strip_prefix(".").unwrap_or(&self.file);
        format!("{} ({}) sets {}", file.display(), self.state(), keys.join(", "))
    }
}

/// The trust list, or an error naming its file.
pub fn list() -> CliResult<TrustList> {
    TrustList::open().map_err(CliError::usage)
}

/// Asks on a terminal whether to trust `files` as they are now, recording
/// a yes; without a terminal, or on a no, refuses with what to do.
pub fn require(files: &[Untrusted]) -> CliResult {
    if files.is_empty() {
        return Ok(());
    }
    let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if terminal && ask(files)? {
        let mut list = list()?;
        for file in files {
            list.trust_file(&file.file, &file.content).map_err(CliError::failed)?;
        }
        return Ok(());
    }
    let lines: Vec<String> = files.iter().map(|file| format!("  {}", file.summary())).collect();
    Err(CliError::usage(format!(
        "this project's files would change what amplifier runs, and you have not trusted them:\n{}",
        lines.join("\n")
    ))
    .hint("read them; to use them as they are, run `amplifier trust` in this directory (`amplifier trust --help`)")
    .hint("a cloned repository, or a command an agent ran, can write these files: nothing in them is used until you trust it"))
}

fn ask(files: &[Untrusted]) -> CliResult<bool> {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "This project's files would change what amplifier runs:");
    for file in files {
        let shown = file.file.strip_prefix(".").unwrap_or(&file.file);
        let _ = writeln!(err, "  {} ({}):", shown.display(), file.state());
        for effect in &file.effects {
            let _ = writeln!(err, "      {effect}");
        }
    }
    let _ = writeln!(err, "A cloned repository, or a command an agent ran, can write these files.");
    let _ = write!(err, "Trust them as they are now? [y/N] ");
    let _ = err.flush();
    drop(err);
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|err| CliError::failed(format!("cannot read the answer: {err}")))?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}

/// Whether `path` lies beneath the working directory: a file the checkout
/// carries (or an agent working there wrote).
pub fn in_project(path: &Path) -> bool {
    let (Ok(path), Ok(here)) = (path.canonicalize(), std::env::current_dir()) else { return false };
    path.starts_with(here)
}

/// A plan a project's settings name, when it lies in the project and is
/// not trusted: it needs trust of its own, for what a trusted settings
/// file points to can change.
pub fn untrusted_plan(plan: &Path, named_by: &str) -> CliResult<Option<Untrusted>> {
    if !in_project(plan) {
        return Ok(None);
    }
    let Ok(content) = amplifier_trust::read_checkout_file(plan) else { return Ok(None) };
    let named_by = Path::new(named_by);
    let named_by = named_by.strip_prefix(".").unwrap_or(named_by).display();
    let effect = format!("plan: named by {named_by}; its modules, sandbox and hooks run");
    Ok(Untrusted::check(&list()?, plan, content, vec![effect]))
}
