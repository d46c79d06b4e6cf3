//! The REPL's line-editor helper (rustyline): completion of slash commands
//! and file paths, and multi-line input: a line ending in `\` goes on on
//! the next line.

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};

/// The slash commands, for completion (the REPL's help describes them).
pub const COMMANDS: &[&str] = &[
    "help", "tools", "skills", "skill", "image", "prompts", "prompt", "status", "compact", "clear", "save", "config",
    "agents", "fork", "mode", "exit",
];

pub struct ReplHelper {
    files: FilenameCompleter,
}

impl ReplHelper {
    pub fn new() -> ReplHelper {
        ReplHelper { files: FilenameCompleter::new() }
    }
}

/// The text of a multi-line entry: the continuation backslashes removed.
pub fn joined(entry: &str) -> String {
    entry.replace("\\\n", "\n")
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        if let Some(partial) = line[..pos].strip_prefix('/') {
            if !partial.contains(char::is_whitespace) {
                let commands = COMMANDS
                    .iter()
                    .filter(|command| command.starts_with(partial))
                    .map(|command| Pair { display: format!("/{command}"), replacement: format!("/{command} ") })
                    .collect();
                return Ok((0, commands));
            }
        }
        self.files.complete(line, pos, ctx)
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if ctx.input().ends_with('\\') { ValidationResult::Incomplete } else { ValidationResult::Valid(None) })
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Highlighter for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use rustyline::history::DefaultHistory;

    use super::*;

    fn complete(line: &str) -> (usize, Vec<String>) {
        let history = DefaultHistory::new();
        let (start, pairs) = ReplHelper::new().complete(line, line.len(), &Context::new(&history)).unwrap();
        (start, pairs.into_iter().map(|p| p.replacement).collect())
    }

    #[test]
    fn slash_commands_complete_by_prefix() {
        assert_eq!(complete("/st"), (0, vec!["/status ".to_owned()]));
        assert_eq!(complete("/c"), (0, vec!["/compact ".to_owned(), "/clear ".to_owned(), "/config ".to_owned()]));
        assert_eq!(complete("/zz"), (0, Vec::<String>::new()));
    }

    #[test]
    fn other_words_complete_as_file_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes-for-today.md"), "").unwrap();
        let line = format!("summarize {}/notes-for", dir.path().display());
        let (start, candidates) = complete(&line);
        assert_eq!(start, "summarize ".len());
        assert_eq!(candidates, [format!("{}/notes-for-today.md", dir.path().display())]);
        // After a command's name, its argument is a path too.
        let (start, _) = complete(&format!("/save {}/notes", dir.path().display()));
        assert_eq!(start, "/save ".len());
    }

    #[test]
    fn a_trailing_backslash_continues_the_entry() {
        assert_eq!(joined("first line\\\nsecond line"), "first line\nsecond line");
        assert_eq!(joined("C:\\path"), "C:\\path");
    }
}
