//! `hooks-streaming-ui`: the session on the terminal. The model's text is
//! rendered as Markdown line by line as it streams (a line is drawn once it
//! is complete, so nothing drawn is ever taken back); thinking is dimmed;
//! each tool call is a spinner while it runs (with a remote service's latest
//! notice about it) and one compact line when it is done, with the first
//! lines of its output; a routing orchestrator's choice is a `→ agent` line
//! before the agent's answer.
//!
//! It renders only when the host says a person watches a text terminal
//! (the `ui.terminal` capability, which `amplifier` sets for `--output-format
//! text` on a TTY) and then claims the job (`ui.renderer`) so the host's
//! plain printer stands down. Child sessions (sub-agents) stay quiet: the
//! parent's `task` line stands for them.

mod markdown;
mod tools;

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use amplifier_sdk::prelude::*;
use amplifier_sdk::{capabilities, events};
use serde::Deserialize;

use crate::tools::ToolLines;

/// A routing orchestrator's relay of its agent's text.
const ROUTER_DELTA: &str = "router:delta";
/// A routing orchestrator chose the agent that answers.
const ROUTER_SELECTED: &str = "router:selected";
/// A remote service's notice about a task it runs for a tool call.
const SERVICE_NOTIFICATION: &str = "service:notification";
/// The stream key of relayed text (block indices are small numbers).
const RELAY: u64 = u64::MAX;

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    show_thinking: bool,
    show_tool_lines: usize,
    markdown: bool,
    priority: i32,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Text,
    Thinking,
}

/// One content block's text so far, and how many of its rendered lines are
/// on the screen.
struct Block {
    kind: Kind,
    source: String,
    drawn: usize,
}

impl Block {
    fn new(kind: Kind) -> Block {
        Block { kind, source: String::new(), drawn: 0 }
    }

    /// Adds `delta`; returns the lines it completed.
    fn push(&mut self, delta: &str, render: impl Fn(Kind, &str) -> Vec<String>) -> Vec<String> {
        self.source.push_str(delta);
        match self.source.rfind('\n') {
            Some(end) => self.undrawn(render(self.kind, &self.source[..=end])),
            None => Vec::new(),
        }
    }

    /// The block is complete: the lines not drawn yet.
    fn rest(&mut self, render: impl Fn(Kind, &str) -> Vec<String>) -> Vec<String> {
        if self.source.trim().is_empty() {
            return Vec::new();
        }
        self.undrawn(render(self.kind, &self.source))
    }

    /// A line already drawn is never redrawn, even if more text changed how
    /// it renders (a setext heading's underline, say).
    fn undrawn(&mut self, mut lines: Vec<String>) -> Vec<String> {
        let new = lines.split_off(self.drawn.min(lines.len()));
        self.drawn = self.drawn.max(lines.len() + new.len());
        new
    }
}

struct StreamingUi {
    host: Host,
    config: Config,
    /// Markdown styles and dimmed thinking (off with `NO_COLOR` or `markdown: false`).
    styled: bool,
    /// Decided at the first event: whether this session renders at all.
    active: OnceLock<bool>,
    blocks: Mutex<HashMap<u64, Block>>,
    tools: ToolLines,
}

impl StreamingUi {
    async fn is_active(&self, data: &JsonMap) -> bool {
        if let Some(active) = self.active.get() {
            return *active;
        }
        let child = data.get("parent_id").is_some_and(|parent| !parent.is_null());
        let terminal = !child && matches!(self.host.capability(capabilities::UI_TERMINAL).await, Ok(Some(_)));
        if terminal && self.active.set(true).is_ok() {
            let _ = self.host.register_capability(capabilities::UI_RENDERER, json!("hooks-streaming-ui")).await;
        }
        *self.active.get_or_init(|| terminal)
    }

    /// Adds `delta` to `index`'s block and draws the lines it completed.
    fn stream(&self, index: u64, kind: Kind, delta: &str) {
        let lines = {
            let mut blocks = self.blocks.lock().expect("block lock");
            blocks
                .entry(index)
                .or_insert_with(|| Block::new(kind))
                .push(delta, |kind, source| self.render(kind, source))
        };
        self.draw(&lines);
    }

    /// Draws the rest of `index`'s block; `full_text` is the whole block
    /// when it was not streamed.
    fn finish_block(&self, index: u64, kind: Kind, full_text: Option<&str>) {
        let mut block = self.blocks.lock().expect("block lock").remove(&index).unwrap_or_else(|| Block::new(kind));
        if block.source.is_empty() {
            block.source = full_text.unwrap_or_default().to_owned();
        }
        self.draw(&block.rest(|kind, source| self.render(kind, source)));
    }

    fn render(&self, kind: Kind, source: &str) -> Vec<String> {
        match kind {
            Kind::Text => markdown::render(source, self.styled),
            Kind::Thinking if self.styled => source.lines().map(|line| format!("\x1b[2;3m{line}\x1b[0m")).collect(),
            Kind::Thinking => source.lines().map(str::to_owned).collect(),
        }
    }

    fn draw(&self, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        self.tools.above(|| {
            let mut stdout = std::io::stdout().lock();
            for line in lines {
                let _ = writeln!(stdout, "{line}");
            }
            let _ = stdout.flush();
        });
    }
}

fn kind_of(data: &JsonMap, field: &str) -> Option<Kind> {
    match data.get(field).and_then(Value::as_str) {
        Some("text") => Some(Kind::Text),
        Some("thinking") => Some(Kind::Thinking),
        _ => None,
    }
}

fn str_field<'a>(data: &'a JsonMap, field: &str) -> &'a str {
    data.get(field).and_then(Value::as_str).unwrap_or_default()
}

impl HookHandler for StreamingUi {
    fn subscriptions(&self) -> Vec<Subscription> {
        [
            events::PROMPT_SUBMIT,
            events::CONTENT_BLOCK_DELTA,
            events::CONTENT_BLOCK_END,
            ROUTER_DELTA,
            ROUTER_SELECTED,
            SERVICE_NOTIFICATION,
            events::TOOL_PRE,
            events::TOOL_POST,
            events::TOOL_ERROR,
            events::APPROVAL_REQUIRED,
            events::APPROVAL_GRANTED,
            events::APPROVAL_DENIED,
            events::ORCHESTRATOR_COMPLETE,
        ]
        .into_iter()
        .map(|event| Subscription::new(event, self.config.priority, "hooks-streaming-ui"))
        .collect()
    }

    async fn handle(&self, event: &str, data: JsonMap) -> ModuleResult<HookResult> {
        if !self.is_active(&data).await {
            return Ok(HookResult::continue_());
        }
        let index = data.get("block_index").and_then(Value::as_u64).unwrap_or(0);
        let call_id = str_field(&data, "tool_call_id");
        match event {
            events::CONTENT_BLOCK_DELTA => match kind_of(&data, "block_type") {
                Some(Kind::Thinking) if !self.config.show_thinking => {}
                Some(kind) => self.stream(index, kind, str_field(&data, "delta")),
                None => {}
            },
            events::CONTENT_BLOCK_END => {
                let block = data.get("block").and_then(Value::as_object);
                match block.and_then(|block| kind_of(block, "type")) {
                    Some(Kind::Thinking) if !self.config.show_thinking => {}
                    Some(kind) => {
                        let field = if kind == Kind::Text { "text" } else { "thinking" };
                        self.finish_block(index, kind, block.map(|block| str_field(block, field)));
                    }
                    None => {}
                }
            }
            ROUTER_DELTA => self.stream(RELAY, Kind::Text, str_field(&data, "delta")),
            SERVICE_NOTIFICATION => self.tools.note(str_field(&data, "tool"), str_field(&data, "message")),
            ROUTER_SELECTED => {
                let line = format!("→ {}", str_field(&data, "agent"));
                self.draw(&[if self.styled { format!("\x1b[2m{line}\x1b[0m") } else { line }]);
            }
            events::TOOL_PRE => {
                let input = data.get("tool_input").cloned().unwrap_or(Value::Null);
                self.tools.started(call_id, str_field(&data, "tool_name"), &input);
            }
            events::TOOL_POST => {
                let result = data.get("result");
                let output = result.and_then(|result| result.get("output"));
                // A tool's own failure comes as `tool:post` too (upstream's rule).
                if result.and_then(|r| r.get("success")) == Some(&Value::Bool(false)) {
                    let message = output.and_then(Value::as_str).unwrap_or("failed");
                    self.tools.finished(call_id, tools::Outcome::Failed(message));
                } else {
                    self.tools.finished(call_id, tools::Outcome::Done(output));
                }
            }
            events::TOOL_ERROR => {
                let message = data.get("error").and_then(|error| error.get("msg")).and_then(Value::as_str);
                self.tools.finished(call_id, tools::Outcome::Failed(message.unwrap_or("failed")));
            }
            // The approval question needs the terminal to itself.
            events::APPROVAL_REQUIRED => self.tools.pause(),
            events::APPROVAL_GRANTED => self.tools.resume(),
            events::APPROVAL_DENIED => {
                self.tools.resume();
                self.tools.finished(call_id, tools::Outcome::Failed("denied"));
            }
            events::ORCHESTRATOR_COMPLETE => {
                self.finish_block(RELAY, Kind::Text, None);
                self.blocks.lock().expect("block lock").clear();
                self.tools.clear();
            }
            _ => {}
        }
        Ok(HookResult::continue_())
    }
}

fn mount(ctx: MountContext) -> ModuleResult<StreamingUi> {
    let config: Config = ctx.config()?;
    let styled = config.markdown && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
    let tools = ToolLines::new(config.show_tool_lines, styled);
    Ok(StreamingUi { host: ctx.host, config, styled, active: OnceLock::new(), blocks: Mutex::default(), tools })
}

export_module!(hook => mount);

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(_: Kind, source: &str) -> Vec<String> {
        markdown::render(source, false)
    }

    #[test]
    fn a_streamed_block_draws_each_line_once_when_it_is_complete() {
        let mut block = Block::new(Kind::Text);
        assert!(block.push("# Pla", plain).is_empty(), "an incomplete line waits");
        assert_eq!(block.push("n\n\n- one", plain), ["# Plan"]);
        assert_eq!(block.push("\n- two\n", plain), ["", "• one", "• two"]);
        assert_eq!(block.push("\nDone", plain), Vec::<String>::new());
        assert_eq!(block.rest(plain), ["", "Done"]);
        assert!(block.rest(plain).is_empty(), "nothing is drawn twice");
    }

    #[test]
    fn lines_that_render_differently_later_are_not_drawn_again() {
        let mut block = Block::new(Kind::Text);
        assert_eq!(block.push("Title\n", plain), ["Title"]);
        // The underline turns the line into a heading: already on screen.
        assert_eq!(block.push("=====\nBody\n", plain), ["", "Body"]);
    }
}
