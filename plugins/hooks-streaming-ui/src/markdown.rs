//! Markdown to terminal lines: headings and emphasis in bold or italics,
//! inline code and code blocks in colour, list bullets, quotes with a bar.
//! Without styling (`NO_COLOR`, or `markdown: false`) the structure stays
//! readable: headings keep their `#`, code blocks their fences.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

const BOLD: &str = "\x1b[1m";
const ITALIC: &str = "\x1b[3m";
const UNDERLINE: &str = "\x1b[4m";
const BOLD_UNDERLINE: &str = "\x1b[1;4m";
const STRIKE: &str = "\x1b[9m";
const CYAN: &str = "\x1b[36m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// The lines `source` renders to, without line terminators.
pub fn render(source: &str, styled: bool) -> Vec<String> {
    let mut out = Writer { styled, ..Writer::default() };
    let options = Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for (event, range) in Parser::new_ext(source, options).into_offset_iter() {
        if let Event::End(TagEnd::CodeBlock) = event {
            // A block still streaming has no closing fence yet; its
            // unstyled rendering must not show one it may never get.
            out.code_block_closed = is_closed_fence(&source[range]);
        }
        out.event(event);
    }
    out.finish()
}

fn is_closed_fence(block: &str) -> bool {
    let block = block.trim_end();
    let fence = |line: &str| line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
    block.lines().count() > 1 && block.lines().last().is_some_and(fence) && block.lines().next().is_some_and(fence)
}

#[derive(Default)]
struct Writer {
    styled: bool,
    lines: Vec<String>,
    line: String,
    /// Active SGR codes, re-applied after a reset closes the innermost.
    styles: Vec<&'static str>,
    /// One entry per open list: the next number, or `None` for bullets.
    lists: Vec<Option<u64>>,
    quote_depth: usize,
    in_code_block: bool,
    /// Unstyled indented code keeps its indentation (it has no fences).
    code_indent: &'static str,
    /// The code block ending now had its closing fence in the source.
    code_block_closed: bool,
    /// A link's target, printed after its text.
    links: Vec<String>,
    /// A block ended: the next one starts after a blank line.
    block_ended: bool,
}

impl Writer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) if self.in_code_block => {
                for (i, line) in text.split_inclusive('\n').enumerate() {
                    if i > 0 || self.line.is_empty() {
                        self.prefix();
                        self.line.push_str(self.code_indent);
                    }
                    self.styled_text(CYAN, line.trim_end_matches('\n'));
                    if line.ends_with('\n') {
                        self.newline();
                    }
                }
            }
            Event::Text(text) => self.text(&text),
            Event::Code(code) => {
                if self.styled {
                    self.styled_text(CYAN, &code);
                } else {
                    self.text(&format!("`{code}`"));
                }
            }
            Event::Html(html) | Event::InlineHtml(html) => self.text(html.trim_end_matches('\n')),
            Event::SoftBreak | Event::HardBreak => {
                self.newline();
                self.prefix();
                // A wrapped list item's later lines line up with its text.
                self.line.push_str(&"  ".repeat(self.lists.len()));
            }
            Event::Rule => {
                self.begin_block();
                self.prefix();
                self.styled_text(DIM, &"─".repeat(40));
                self.newline();
                self.block_ended = true;
            }
            Event::TaskListMarker(done) => self.text(if done { "[x] " } else { "[ ] " }),
            Event::FootnoteReference(name) => self.text(&format!("[^{name}]")),
            Event::InlineMath(math) | Event::DisplayMath(math) => self.text(&math),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            // A list item's paragraph continues the bullet's line.
            Tag::Paragraph if self.line.is_empty() => {
                self.begin_block();
                self.prefix();
            }
            Tag::Heading { level, .. } => {
                self.begin_block();
                self.prefix();
                if self.styled {
                    self.push_style(if level == HeadingLevel::H1 { BOLD_UNDERLINE } else { BOLD });
                } else {
                    self.line.push_str(&"#".repeat(level as usize));
                    self.line.push(' ');
                }
            }
            Tag::BlockQuote(_) => {
                self.begin_block();
                self.quote_depth += 1;
            }
            Tag::CodeBlock(kind) => {
                self.begin_block();
                self.in_code_block = true;
                match kind {
                    CodeBlockKind::Fenced(language) if !self.styled => {
                        self.prefix();
                        self.line.push_str(&format!("```{language}"));
                        self.newline();
                    }
                    CodeBlockKind::Indented if !self.styled => self.code_indent = "    ",
                    _ => {}
                }
            }
            Tag::List(first) => {
                if self.lists.is_empty() {
                    self.begin_block();
                } else if !self.line.is_empty() {
                    self.newline();
                }
                self.lists.push(first);
            }
            Tag::Item => {
                if !self.line.is_empty() {
                    self.newline();
                }
                self.prefix();
                let depth = self.lists.len().saturating_sub(1);
                self.line.push_str(&"  ".repeat(depth));
                let marker = match self.lists.last_mut() {
                    Some(Some(number)) => {
                        *number += 1;
                        format!("{}. ", *number - 1)
                    }
                    _ => "• ".to_owned(),
                };
                self.line.push_str(&marker);
            }
            Tag::Emphasis => self.push_style(ITALIC),
            Tag::Strong => self.push_style(BOLD),
            Tag::Strikethrough => self.push_style(STRIKE),
            Tag::Link { dest_url, .. } => {
                self.links.push(dest_url.to_string());
                self.push_style(UNDERLINE);
            }
            Tag::Image { dest_url, .. } => {
                self.links.push(dest_url.to_string());
                self.text("[image: ");
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph if self.lists.is_empty() => {
                self.newline();
                self.block_ended = true;
            }
            TagEnd::Heading(_) => {
                self.pop_style();
                self.newline();
                self.block_ended = true;
            }
            TagEnd::BlockQuote(_) => {
                self.quote_depth -= 1;
                self.block_ended = true;
            }
            TagEnd::CodeBlock => {
                self.in_code_block = false;
                self.code_indent = "";
                if !self.line.is_empty() {
                    self.newline();
                }
                if !self.styled && self.code_block_closed {
                    self.prefix();
                    self.line.push_str("```");
                    self.newline();
                }
                self.block_ended = true;
            }
            TagEnd::List(_) => {
                self.lists.pop();
                if self.lists.is_empty() {
                    if !self.line.is_empty() {
                        self.newline();
                    }
                    self.block_ended = true;
                }
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => self.pop_style(),
            TagEnd::Link => {
                self.pop_style();
                self.link_target();
            }
            TagEnd::Image => {
                self.text("]");
                self.link_target();
            }
            _ => {}
        }
    }

    fn link_target(&mut self) {
        if let Some(url) = self.links.pop().filter(|url| !url.is_empty()) {
            self.styled_text(DIM, &format!(" ({url})"));
        }
    }

    /// A blank line between this block and the one before.
    fn begin_block(&mut self) {
        if self.block_ended {
            if !self.line.is_empty() {
                self.newline();
            }
            self.prefix();
            self.newline();
            self.block_ended = false;
        }
    }

    /// The quote bars a new line inside block quotes starts with.
    fn prefix(&mut self) {
        for _ in 0..self.quote_depth {
            self.styled_text(DIM, "│ ");
        }
    }

    fn text(&mut self, text: &str) {
        self.line.push_str(text);
    }

    fn styled_text(&mut self, style: &'static str, text: &str) {
        if self.styled {
            self.push_style(style);
            self.line.push_str(text);
            self.pop_style();
        } else {
            self.line.push_str(text);
        }
    }

    fn push_style(&mut self, style: &'static str) {
        if self.styled {
            self.styles.push(style);
            self.line.push_str(style);
        }
    }

    fn pop_style(&mut self) {
        if self.styled && self.styles.pop().is_some() {
            self.line.push_str(RESET);
            for style in &self.styles {
                self.line.push_str(style);
            }
        }
    }

    fn newline(&mut self) {
        // Styles never run past the end of a line: a spinner or the prompt
        // drawn next must not inherit them.
        if self.styled && !self.styles.is_empty() {
            self.line.push_str(RESET);
        }
        self.lines.push(std::mem::take(&mut self.line));
        if self.styled {
            for style in &self.styles {
                self.line.push_str(style);
            }
        }
    }

    fn finish(mut self) -> Vec<String> {
        if !self.line.is_empty() {
            self.newline();
        }
        self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(source: &str) -> Vec<String> {
        render(source, false)
    }

    #[test]
    fn emphasis_and_code_become_terminal_styles() {
        assert_eq!(
            render("Use **bold**, *slanted* and `code`.", true),
            ["Use \x1b[1mbold\x1b[0m, \x1b[3mslanted\x1b[0m and \x1b[36mcode\x1b[0m."]
        );
    }

    #[test]
    fn a_heading_is_bold_and_blocks_are_separated_by_a_blank_line() {
        assert_eq!(render("# Title\nText under it.", true), ["\x1b[1;4mTitle\x1b[0m", "", "Text under it."]);
        assert_eq!(plain("## Plan\n\nFirst.\n\nSecond."), ["## Plan", "", "First.", "", "Second."]);
    }

    #[test]
    fn lists_get_bullets_numbers_and_indentation() {
        assert_eq!(
            plain("- one\n- two\n  - nested\n\n3. three\n4. four"),
            ["• one", "• two", "  • nested", "", "3. three", "4. four"]
        );
        assert_eq!(plain("- [x] done\n- [ ] open"), ["• [x] done", "• [ ] open"]);
    }

    #[test]
    fn code_blocks_keep_their_lines_and_show_fences_when_unstyled() {
        let source = "Run:\n\n```sh\ncargo test\ncargo fmt\n```\nDone.";
        assert_eq!(plain(source), ["Run:", "", "```sh", "cargo test", "cargo fmt", "```", "", "Done."]);
        assert_eq!(render(source, true)[2..4], ["\x1b[36mcargo test\x1b[0m", "\x1b[36mcargo fmt\x1b[0m"]);
    }

    #[test]
    fn an_unclosed_fence_shows_no_closing_fence() {
        assert_eq!(plain("```rust\nfn main() {}\n"), ["```rust", "fn main() {}"]);
        assert_eq!(plain("    indented code\n"), ["    indented code"]);
    }

    #[test]
    fn quotes_links_and_rules() {
        assert_eq!(plain("> quoted\n> twice"), ["│ quoted", "│ twice"]);
        assert_eq!(plain("See [the docs](https://example.org)."), ["See the docs (https://example.org)."]);
        assert_eq!(plain("above\n\n---\n\nbelow"), ["above", "", "─".repeat(40).as_str(), "", "below"]);
    }

    #[test]
    fn a_style_open_at_a_line_break_is_closed_and_reopened() {
        assert_eq!(render("**two\nlines**", true), ["\x1b[1mtwo\x1b[0m", "\x1b[1mlines\x1b[0m"]);
    }
}
