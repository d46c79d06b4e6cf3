//! Tool calls on the terminal: a spinner per running call (parallel calls
//! each get one), replaced by one line when the call ends: `✓` or `✗`, the
//! tool, what it was given, how long it took, and the first lines of what
//! it returned. A remote service's notices about a running call (its
//! progress) show after its spinner. Spinners draw on stderr and vanish when
//! it is not a terminal.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use amplifier_sdk::prelude::Value;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How much of a tool's input the line shows.
const SUMMARY_CHARS: usize = 60;
/// How much of each output line the preview shows.
const PREVIEW_CHARS: usize = 100;

pub enum Outcome<'a> {
    Done(Option<&'a Value>),
    Failed(&'a str),
}

pub struct ToolLines {
    progress: MultiProgress,
    /// Call id → (tool, spinner).
    running: Mutex<HashMap<String, (String, ProgressBar)>>,
    preview_lines: usize,
    styled: bool,
}

impl ToolLines {
    pub fn new(preview_lines: usize, styled: bool) -> ToolLines {
        ToolLines {
            progress: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
            running: Mutex::default(),
            preview_lines,
            styled,
        }
    }

    pub fn started(&self, call_id: &str, tool: &str, input: &Value) {
        let style = ProgressStyle::with_template("{spinner} {msg} {elapsed}{prefix}").expect("a valid template");
        let bar = self.progress.add(ProgressBar::new_spinner().with_style(style));
        bar.set_message(format!("{tool} {}", summary(input)));
        bar.enable_steady_tick(Duration::from_millis(100));
        self.running.lock().expect("tool lock").insert(call_id.to_owned(), (tool.to_owned(), bar));
    }

    /// A notice about the running calls of `tool` (notices name the tool,
    /// not the call), shown after their spinners until the next one.
    pub fn note(&self, tool: &str, text: &str) {
        let running = self.running.lock().expect("tool lock");
        for (_, bar) in running.values().filter(|(name, _)| name == tool) {
            bar.set_prefix(format!(" · {}", first_line(text, PREVIEW_CHARS)));
        }
    }

    pub fn finished(&self, call_id: &str, outcome: Outcome<'_>) {
        let Some((_, bar)) = self.running.lock().expect("tool lock").remove(call_id) else {
            return;
        };
        bar.finish_and_clear();
        self.progress.remove(&bar);
        let took = format!("{:.1}s", bar.elapsed().as_secs_f64());
        let mut lines = Vec::new();
        match outcome {
            Outcome::Done(output) => {
                lines.push(format!("{} {} {}", self.paint("32", "✓"), bar.message(), self.paint("2", &took)));
                lines.extend(self.preview(output).into_iter().map(|line| format!("  {}", self.paint("2", &line))));
            }
            Outcome::Failed(why) => {
                let why = first_line(why, PREVIEW_CHARS);
                lines.push(format!("{} {} {} {}", self.paint("31", "✗"), bar.message(), self.paint("2", &took), why));
            }
        }
        self.above(|| {
            for line in &lines {
                eprintln!("{line}");
            }
        });
    }

    /// Calls still spinning when the turn ends (it was cancelled) are
    /// cleared and listed as unfinished.
    pub fn clear(&self) {
        let left: Vec<ProgressBar> = self.running.lock().expect("tool lock").drain().map(|(_, (_, bar))| bar).collect();
        for bar in left {
            bar.finish_and_clear();
            self.progress.remove(&bar);
            let line = format!("{} {} (not finished)", self.paint("33", "·"), bar.message());
            self.above(|| eprintln!("{line}"));
        }
    }

    /// Stops drawing spinners (a question is being asked on the terminal).
    pub fn pause(&self) {
        self.progress.set_draw_target(ProgressDrawTarget::hidden());
    }

    pub fn resume(&self) {
        self.progress.set_draw_target(ProgressDrawTarget::stderr());
    }

    /// Runs `print` with the spinners lifted off the screen, so text never
    /// lands inside a spinner's line.
    pub fn above<R>(&self, print: impl FnOnce() -> R) -> R {
        self.progress.suspend(print)
    }

    fn preview(&self, output: Option<&Value>) -> Vec<String> {
        let text = match output {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Null) | None => String::new(),
            // A command's result: what it printed, not the JSON around it.
            Some(Value::Object(map)) if map.contains_key("stdout") => {
                let stream = |key: &str| map.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
                format!("{}\n{}", stream("stdout"), stream("stderr"))
            }
            Some(other) => other.to_string(),
        };
        let lines: Vec<&str> = text.lines().filter(|line| !line.trim().is_empty()).collect();
        let mut preview: Vec<String> =
            lines.iter().take(self.preview_lines).map(|line| first_line(line, PREVIEW_CHARS)).collect();
        if lines.len() > self.preview_lines && self.preview_lines > 0 {
            preview.push(format!("… {} more lines", lines.len() - self.preview_lines));
        }
        preview
    }

    fn paint(&self, sgr: &str, text: &str) -> String {
        if self.styled {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

/// What a call was given, in a few words: the argument people recognise
/// (a command, a path, a URL) or else the arguments as JSON.
fn summary(input: &Value) -> String {
    const TELLING: [&str; 8] = ["command", "file_path", "path", "pattern", "url", "query", "instruction", "agent"];
    let telling = TELLING.iter().find_map(|key| input.get(key).and_then(Value::as_str));
    match (telling, input) {
        (Some(text), _) => first_line(text, SUMMARY_CHARS),
        (None, Value::Object(map)) if map.is_empty() => String::new(),
        (None, Value::Null) => String::new(),
        (None, other) => first_line(&other.to_string(), SUMMARY_CHARS),
    }
}

/// `text`'s first line, cut to `max` characters with the cut marked.
fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or_default();
    let more = line.chars().count() > max || text.lines().nth(1).is_some();
    let cut: String = line.chars().take(max).collect();
    if more {
        format!("{cut}…")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_notice_shows_after_the_spinners_of_its_tool() {
        let lines = ToolLines::new(3, false);
        lines.progress.set_draw_target(ProgressDrawTarget::hidden());
        lines.started("c1", "weather__forecast", &serde_json::json!({"city": "Paris"}));
        lines.started("c2", "echo", &serde_json::json!({}));
        lines.note("weather__forecast", "day 1 of 2\nmore");
        let running = lines.running.lock().unwrap();
        assert_eq!(running["c1"].1.prefix(), " · day 1 of 2…");
        assert_eq!(running["c2"].1.prefix(), "", "another tool's spinner is left alone");
    }

    #[test]
    fn a_call_is_summarised_by_its_telling_argument() {
        assert_eq!(summary(&json!({"command": "ls -la", "timeout": 5})), "ls -la");
        assert_eq!(summary(&json!({"file_path": "src/main.rs"})), "src/main.rs");
        assert_eq!(summary(&json!({"text": "hi"})), r#"{"text":"hi"}"#);
        assert_eq!(summary(&json!({})), "");
        assert_eq!(summary(&json!({"command": "echo one\necho two"})), "echo one…");
        assert_eq!(summary(&json!({"command": "x".repeat(80)})), format!("{}…", "x".repeat(60)));
    }

    #[test]
    fn the_preview_shows_the_first_lines_and_counts_the_rest() {
        let lines = ToolLines::new(2, false);
        let output = json!("one\n\ntwo\nthree\nfour");
        assert_eq!(lines.preview(Some(&output)), ["one", "two", "… 2 more lines"]);
        assert_eq!(ToolLines::new(0, false).preview(Some(&output)), Vec::<String>::new());
        assert_eq!(lines.preview(Some(&json!({"a": 1}))), [r#"{"a":1}"#]);
        let bash = json!({"exit_code": 1, "stdout": "built\n", "stderr": "warning: x\n"});
        assert_eq!(lines.preview(Some(&bash)), ["built", "warning: x"]);
    }
}
