//! The terminal's answer to a hook's `ask_user` (hooks-approval's questions).
//!
//! With a terminal on stdin, the question and its options go to stderr and
//! the answer is read from stdin (a number, the option, or its first
//! letter), within the question's timeout. Without one (CI, piped input) it
//! never waits: the question's default applies, and stderr says so.
//!
//! "Allow always" is remembered for the project in
//! `.amplifier/settings.local.yaml` (`approvals.always_allow`), keyed by the
//! question's first line: hooks-approval puts only the tool's name there, so
//! it means "this tool, whatever its arguments". Remembered questions are
//! answered without asking.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use amplifier_kernel::models::ApprovalDefault;
use amplifier_kernel::services::ApprovalSystem;
use amplifier_kernel::traits::BoxFuture;
use yaml_rust2::yaml::Hash;
use yaml_rust2::Yaml;

use crate::settings::{parse_yaml, yaml_text};

const ALWAYS: &str = "Allow always";

/// How the REPL's `/mode` has questions answered for the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApprovalMode {
    /// Ask on the terminal (or apply the default without one).
    Ask,
    /// Allow every request, asking nothing.
    Auto,
    /// Deny every request, asking nothing.
    Deny,
}

impl ApprovalMode {
    pub const NAMES: &'static str = "ask, auto, deny";

    pub fn parse(name: &str) -> Option<ApprovalMode> {
        match name {
            "ask" => Some(ApprovalMode::Ask),
            "auto" => Some(ApprovalMode::Auto),
            "deny" => Some(ApprovalMode::Deny),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ApprovalMode::Ask => "ask",
            ApprovalMode::Auto => "auto",
            ApprovalMode::Deny => "deny",
        }
    }
}

/// The CLI's approval system for one run, rooted in a project directory.
pub struct TerminalApproval {
    mode: Mutex<ApprovalMode>,
    settings: PathBuf,
    /// Keeps two questions from interleaving on the terminal (parallel tools).
    asking: tokio::sync::Mutex<()>,
    remembered: Mutex<Vec<String>>,
}

impl TerminalApproval {
    pub fn new(project: &Path) -> TerminalApproval {
        let settings = project.join(".amplifier").join("settings.local.yaml");
        let checked = trusted(&settings).and_then(|trusted| match trusted {
            true => read_always_allow(&settings),
            false => Err(format!("{} is not trusted (`amplifier trust`)", settings.display())),
        });
        let remembered = checked.unwrap_or_else(|err| {
            eprintln!("warning: {err}; remembered approvals are ignored");
            Vec::new()
        });
        TerminalApproval {
            mode: Mutex::new(ApprovalMode::Ask),
            settings,
            asking: tokio::sync::Mutex::new(()),
            remembered: Mutex::new(remembered),
        }
    }

    pub fn mode(&self) -> ApprovalMode {
        *self.mode.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn set_mode(&self, mode: ApprovalMode) {
        *self.mode.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = mode;
    }

    fn remember(&self, key: &str) {
        let mut remembered = self.remembered.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if remembered.iter().any(|k| k == key) {
            return;
        }
        remembered.push(key.to_owned());
        // The file stays trusted if it was (or is new): the user wrote it, through amplifier.
        let was_trusted = trusted(&self.settings).unwrap_or(false);
        if let Err(err) = write_always_allow(&self.settings, &remembered) {
            eprintln!("warning: cannot remember the approval: {err}");
            return;
        }
        if was_trusted {
            let trusted = crate::trust::list().map_err(|err| err.to_string()).and_then(|mut list| {
                let content = amplifier_trust::read_checkout_file(&self.settings).map_err(|err| err.to_string())?;
                list.trust_file(&self.settings, &content).map_err(|err| err.to_string())
            });
            if let Err(err) = trusted {
                eprintln!("warning: the approval is remembered, but the file is not trusted: {err}");
            }
        }
    }
}

impl ApprovalSystem for TerminalApproval {
    fn request_approval<'a>(
        &'a self,
        prompt: &'a str,
        options: &'a [String],
        timeout: Duration,
        default: ApprovalDefault,
    ) -> BoxFuture<'a, Option<String>> {
        Box::pin(async move {
            let _one_question_at_a_time = self.asking.lock().await;
            let key = prompt.lines().next().unwrap_or_default().trim().to_owned();
            // The option a mode picks: its own word first ("Allow once", "Deny").
            let pick = |word: &str| options.iter().find(|o| o.to_lowercase().starts_with(word)).cloned();
            match self.mode() {
                ApprovalMode::Auto => {
                    eprintln!("approval (mode auto): allowed: {key}");
                    return pick("allow");
                }
                ApprovalMode::Deny => {
                    eprintln!("approval (mode deny): denied: {key}");
                    return pick("deny");
                }
                ApprovalMode::Ask => {}
            }
            let always = self.remembered.lock().unwrap_or_else(std::sync::PoisonError::into_inner).contains(&key);
            if always {
                return Some(ALWAYS.to_owned());
            }
            let default_name = match default {
                ApprovalDefault::Allow => "allow",
                ApprovalDefault::Deny => "deny",
            };
            if !std::io::stdin().is_terminal() {
                eprintln!("approval: no terminal to ask on; applying the default ({default_name}) to: {key}");
                return None;
            }
            let mut question = format!("\n{prompt}\n");
            for (index, option) in options.iter().enumerate() {
                question.push_str(&format!("  {}) {option}\n", index + 1));
            }
            question.push_str(&format!("choose [1-{}] ({}s, then {default_name}): ", options.len(), timeout.as_secs()));
            {
                let mut stderr = std::io::stderr().lock();
                let _ = stderr.write_all(question.as_bytes()).and_then(|_| stderr.flush());
            }
            let line = match crate::steering::next_line() {
                // The REPL's steering reader owns the terminal during a turn.
                Some(next) => tokio::time::timeout(timeout, next).await.ok().and_then(Result::ok),
                // A blocking read on its own thread; when the timeout wins, the
                // thread stays parked on stdin until the next line, harmlessly.
                None => {
                    let read = tokio::task::spawn_blocking(|| {
                        let mut line = String::new();
                        std::io::stdin().lock().read_line(&mut line).ok().map(|_| line)
                    });
                    tokio::time::timeout(timeout, read).await.ok().and_then(Result::ok).flatten()
                }
            };
            let answer = match line {
                Some(line) => choose(&line, options),
                _ => {
                    eprintln!("\napproval: no answer in time; {default_name}");
                    return None;
                }
            };
            let choice = answer.unwrap_or_else(|| {
                eprintln!("approval: not one of the options; deny");
                "Deny".to_owned()
            });
            if choice == ALWAYS {
                self.remember(&key);
            }
            Some(choice)
        })
    }
}

/// The option an answer names: its number, its text, or its first letter.
fn choose(answer: &str, options: &[String]) -> Option<String> {
    let answer = answer.trim().to_lowercase();
    if answer.is_empty() {
        return None;
    }
    if let Ok(number) = answer.parse::<usize>() {
        return options.get(number.wrapping_sub(1)).cloned();
    }
    let words = |option: &String| option.to_lowercase();
    options
        .iter()
        .find(|option| words(option) == answer)
        .or_else(|| options.iter().find(|option| words(option).split_whitespace().last() == Some(answer.as_str())))
        .or_else(|| {
            let mut first_letter = options.iter().filter(|option| {
                words(option).split_whitespace().last().and_then(|w| w.chars().next()) == answer.chars().next()
            });
            let only = first_letter.next();
            if answer.chars().count() == 1 && first_letter.next().is_none() {
                only
            } else {
                None
            }
        })
        .cloned()
}

/// Whether the user trusts `path` as it is now (a missing file: yes).
fn trusted(path: &Path) -> Result<bool, String> {
    let content = match amplifier_trust::read_checkout_file(path) {
        Ok(content) => content,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(err) => return Err(format!("cannot read {}: {err}", path.display())),
    };
    let list = crate::trust::list().map_err(|err| err.to_string())?;
    Ok(list.verdict(path, &content) == amplifier_trust::Verdict::Trusted)
}

fn read_always_allow(path: &Path) -> Result<Vec<String>, String> {
    let text = match amplifier_yaml::read_file(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(format!("cannot read {}: {err}", path.display())),
    };

    let settings = parse_yaml(&text).map_err(|err| err.in_file(path))?;
    Ok(settings["approvals"]["always_allow"]
        .as_vec()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect())
}

/// Rewrites `approvals.always_allow`, keeping every other setting in the file.
fn write_always_allow(path: &Path, keys: &[String]) -> Result<(), String> {
    let mut settings = match amplifier_yaml::read_file(path) {
        Ok(text) => parse_yaml(&text).map_err(|err| err.in_file(path))?,
        Err(_) => Yaml::Null,
    };
    if settings.is_null() {
        settings = Yaml::Hash(Hash::new());
    }
    let Yaml::Hash(top) = &mut settings else {
        return Err(format!("{}: expected a mapping at the top", path.display()));
    };
    let approvals = top.entry(Yaml::String("approvals".to_owned())).or_insert_with(|| Yaml::Hash(Hash::new()));
    let Yaml::Hash(approvals) = approvals else {
        return Err(format!("{}: `approvals` must be a mapping", path.display()));
    };
    approvals
        .insert(Yaml::String("always_allow".to_owned()), Yaml::Array(keys.iter().cloned().map(Yaml::String).collect()));
    let text = yaml_text(&settings) + "\n";
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|err| format!("cannot write {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> Vec<String> {
        ["Allow once", "Allow always", "Deny"].map(str::to_owned).to_vec()
    }

    #[test]
    fn answers_by_number_text_or_letter() {
        let o = options();
        assert_eq!(choose("2\n", &o).as_deref(), Some("Allow always"));
        assert_eq!(choose("deny", &o).as_deref(), Some("Deny"));
        assert_eq!(choose("Allow once", &o).as_deref(), Some("Allow once"));
        assert_eq!(choose("always", &o).as_deref(), Some("Allow always"));
        assert_eq!(choose("a", &o).as_deref(), Some("Allow always"));
        assert_eq!(choose("o", &o).as_deref(), Some("Allow once"));
        assert_eq!(choose("d", &o).as_deref(), Some("Deny"));
        assert_eq!(choose("7", &o), None);
        assert_eq!(choose("", &o), None);
    }

    #[test]
    fn allow_always_is_kept_beside_other_settings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".amplifier/settings.local.yaml");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "show_token_usage: true\n").unwrap();
        write_always_allow(&path, &["Allow the tool `bash`?".to_owned()]).unwrap();
        assert_eq!(read_always_allow(&path).unwrap(), ["Allow the tool `bash`?"]);
        assert!(std::fs::read_to_string(&path).unwrap().contains("show_token_usage: true"));
        assert_eq!(read_always_allow(&dir.path().join("missing.yaml")).unwrap(), Vec::<String>::new());
        // An empty file is an empty mapping, not an error.
        std::fs::write(&path, "").unwrap();
        write_always_allow(&path, &["Allow: `rm -rf build`?".to_owned()]).unwrap();
        assert_eq!(read_always_allow(&path).unwrap(), ["Allow: `rm -rf build`?"]);
    }
}
