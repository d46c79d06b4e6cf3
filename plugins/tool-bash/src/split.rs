//! Splits a bash command line into the simple commands it would run.
//!
//! The line is parsed by [tree-sitter-bash](https://github.com/tree-sitter/tree-sitter-bash),
//! a real bash grammar, and its syntax tree is read the way the safety rules
//! need it:
//!
//! - Every simple command is returned, in source order: those of lists
//!   (`;`, `&`, `&&`, `||`, newlines), pipelines, `( … )`, `{ …; }`, the
//!   bodies of `if`, `while`, `until`, `for`, `select` and `case`, and of a
//!   function where it is defined. Reserved words are syntax, not words:
//!   `{ y; }` is the command `y`.
//! - Commands joined by `|` or `|&` share a pipeline number
//!   ([`SimpleCommand::pipeline`]), and so do the commands of a compound
//!   command in a pipeline (`curl … | { cd /tmp; sh; }`); a substitution's
//!   commands have their own.
//! - Assignments alone (`x=1`), `export`/`declare`/`local`/`readonly`/`unset`
//!   and the tests `[ … ]` and `[[ … ]]` are commands too, their words in
//!   order; `(( … ))` and the headers of `for`, `select` and `case` are not.
//! - Quotes are removed from words: `'…'` is literal, `"…"` keeps only the
//!   backslashes it doesn't use, `$'…'` is decoded, `$"…"` is its text, `\x`
//!   outside quotes is `x`, and `\` + newline joins what it separates (`s\`
//!   newline `udo` is `sudo`). So `"su"do` is the word `sudo`.
//! - `$(…)`, backquotes and process substitutions `<(…)` / `>(…)` are split
//!   recursively, wherever they are (in a word, in double quotes, in
//!   `${x:-…}`, in `$(( … ))`, in an unquoted here-document body): their
//!   commands are returned before the command that contains them. The word
//!   that holds a substitution keeps its source text (`$(date)`), since its
//!   value is only known when it runs. Backquotes are unescaped as bash does
//!   (`` \` ``, `\$`, `\\`) and parsed as a line of their own, so nested
//!   backquotes work.
//! - Redirections (`>`, `>>`, `<`, `2>&1`, `&>`, `<<<`, `<<`, …) are
//!   returned apart from the words, with their target; those of a compound
//!   command, a function definition or `$(< file)` make a command without
//!   words.
//! - Here-document bodies are not commands and are skipped, but the
//!   substitutions of an unquoted body are split, as bash would run them.
//! - `${…}` and `$VAR` are left as written: nothing is expanded.
//!
//! Where tree-sitter-bash reads a line otherwise than bash, bash wins: a
//! redirection at the end of `a && b > f`, `a | b > f` or `! b > f` is
//! `b`'s alone (and in `a && b 2>&1 | c` only `b` is piped), the words
//! after a redirection's target are the command's, `>` in `[ a > b ]` is a
//! redirection, and backquotes in here-document bodies and in `${…}` are
//! split although the grammar leaves them as text.
//!
//! A line the grammar can't parse is an error, and so is nesting deeper
//! than [`MAX_DEPTH`] substitutions (or 100 commands): a line that can't be
//! checked is never run. Can't parse means any `ERROR` or `MISSING` node in
//! the tree: unterminated quotes and substitutions, but also what
//! tree-sitter-bash doesn't know although bash does, such as two
//! here-documents on one command (`cat <<A <<B`), `<>`, a here-string after
//! another redirection (`cat > f <<< x`), or a redirection then a pipe after
//! a here-document (`cat <<EOF > f | x`).
//!
//! [`forking_functions`] reads the same tree for the fork-bomb rule.

use std::fmt;

use tree_sitter::{Node, Parser, Tree, TreeCursor};

/// How deep substitutions may nest before the line is refused.
pub const MAX_DEPTH: usize = 32;

/// How deep commands may nest (blocks, bodies, substitutions) before the
/// line is refused: the walk recurses on them, and a thread's stack is finite.
const MAX_NESTING: usize = 100;

/// One simple command: its words (quotes removed) and redirections.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// The words, assignments included, quotes removed.
    pub words: Vec<String>,
    pub redirects: Vec<Redirect>,
    /// Commands joined by `|` or `|&` share a pipeline number.
    pub pipeline: usize,
}

impl SimpleCommand {
    /// The words joined by single spaces.
    pub fn text(&self) -> String {
        self.words.join(" ")
    }
}

/// A redirection: the operator without its file descriptor (`>`, `>>`,
/// `<`, `>&`, `&>`, `<<`, `<<<`, …) and the word after it (`-` for `>&-`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub op: String,
    pub target: String,
}

/// Why a line could not be split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitError(pub String);

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SplitError {}

/// The simple commands of `line`, substitutions first, in source order otherwise.
pub fn split(line: &str) -> Result<Vec<SimpleCommand>, SplitError> {
    let mut pipelines = 0;
    walk_line(line, 0, 0, &mut pipelines)
}

/// The functions `line` defines whose body runs the function itself in a
/// pipeline or in the background (`:(){ :|:& }`, `f(){ f & f; }`): each
/// definition as written. Every such call forks a process that makes more.
pub fn forking_functions(line: &str) -> Result<Vec<String>, SplitError> {
    let tree = parse(line)?;
    let mut found = Vec::new();
    let mut nodes = Preorder::new(tree.root_node());
    while let Some(node) = nodes.next(true) {
        if node.kind() != "function_definition" {
            continue;
        }
        let (Some(name), Some(body)) = (node.child_by_field_name("name"), node.child_by_field_name("body")) else {
            continue;
        };
        let name = unquote(name, line);
        let mut calls = Preorder::new(body);
        while let Some(call) = calls.next(true) {
            let calls_itself =
                call.kind() == "command" && call.child_by_field_name("name").is_some_and(|n| unquote(n, line) == name);
            if calls_itself && forks(call, node) {
                found.push(line[node.byte_range()].to_owned());
                break;
            }
        }
    }
    Ok(found)
}

/// Whether `call`, inside `definition`, is in a pipeline or in the background.
fn forks(call: Node, definition: Node) -> bool {
    let mut node = call;
    while node != definition {
        if node.kind() == "pipeline" || node.next_sibling().is_some_and(|next| next.kind() == "&") {
            return true;
        }
        let Some(parent) = node.parent() else { break };
        node = parent;
    }
    false
}

fn walk_line(
    line: &str,
    depth: usize,
    nesting: usize,
    pipelines: &mut usize,
) -> Result<Vec<SimpleCommand>, SplitError> {
    let tree = parse(line)?;
    let mut walk = Walk { src: line, out: Vec::new(), pipelines: *pipelines, pipeline: None, depth, nesting };
    walk.statement(tree.root_node())?;
    *pipelines = walk.pipelines;
    Ok(walk.out)
}

fn parse(line: &str) -> Result<Tree, SplitError> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|err| SplitError(format!("cannot load the bash grammar: {err}")))?;
    let tree = parser.parse(line, None).ok_or_else(|| SplitError("the bash parser gave up".into()))?;
    if tree.root_node().has_error() {
        return Err(syntax_error(tree.root_node(), line));
    }
    Ok(tree)
}

/// Describes the first `ERROR` or `MISSING` node under `root`.
fn syntax_error(root: Node, line: &str) -> SplitError {
    let mut nodes = Preorder::new(root);
    let mut node = root;
    let mut descend = true;
    while let Some(next) = nodes.next(descend) {
        node = next;
        if next.is_error() || next.is_missing() {
            break;
        }
        descend = next.has_error();
    }
    let source = &line[node.byte_range()];
    let text = source.trim_start();
    // ERROR nodes start at the blanks before what is wrong.
    let start = node.start_byte() + source.len() - text.len();
    let row_start = line[..start].rfind('\n').map_or(0, |newline| newline + 1);
    let place = format!(
        "line {}, column {}",
        line[..start].matches('\n').count() + 1,
        line[row_start..start].chars().count() + 1
    );
    if node.is_missing() {
        let token = if node.kind() == "`" { "closing backquote".to_owned() } else { format!("`{}`", node.kind()) };
        return SplitError(format!("bash syntax error at {place}: missing {token}"));
    }
    // An opening quote whose error runs to the end of the line is what bash
    // reports too ("unexpected EOF while looking for matching …").
    const OPENERS: [(&str, &str); 5] =
        [("$'", "`$'` quote"), ("'", "single quote"), ("\"", "double quote"), ("`", "backquote"), ("$(", "`$(`")];
    if node.end_byte() >= line.trim_end().len() {
        if let Some((_, what)) = OPENERS.iter().find(|(opener, _)| text.starts_with(opener)) {
            return SplitError(format!("unterminated {what} at {place}"));
        }
    }
    let near: String = text.lines().next().unwrap_or("").chars().take(40).collect();
    SplitError(format!("bash syntax error at {place}, near `{near}`"))
}

/// Statement kinds and the bodies that hold statements.
fn holds_commands(kind: &str) -> bool {
    matches!(
        kind,
        "c_style_for_statement"
            | "case_statement"
            | "command"
            | "compound_statement"
            | "declaration_command"
            | "for_statement"
            | "function_definition"
            | "if_statement"
            | "list"
            | "negated_command"
            | "pipeline"
            | "redirected_statement"
            | "subshell"
            | "test_command"
            | "unset_command"
            | "variable_assignment"
            | "variable_assignments"
            | "while_statement"
            | "do_group"
            | "elif_clause"
            | "else_clause"
            | "case_item"
    )
}

/// Nodes that are one word of a test or a declaration.
fn is_word(kind: &str) -> bool {
    matches!(
        kind,
        "word"
            | "string"
            | "raw_string"
            | "ansi_c_string"
            | "translated_string"
            | "concatenation"
            | "number"
            | "simple_expansion"
            | "expansion"
            | "command_substitution"
            | "process_substitution"
            | "arithmetic_expansion"
            | "brace_expression"
            | "variable_assignment"
            | "variable_name"
            | "test_operator"
            | "extglob_pattern"
            | "regex"
    )
}

/// The words and redirections gathered for one simple command.
#[derive(Default)]
struct Parts<'t> {
    /// Word nodes, in source order; adjacent ones make one word.
    pieces: Vec<Node<'t>>,
    redirects: Vec<Redirect>,
}

struct Walk<'s> {
    src: &'s str,
    out: Vec<SimpleCommand>,
    pipelines: usize,
    /// The pipeline of the commands being walked, if they are in one.
    pipeline: Option<usize>,
    /// Substitutions around the node being walked.
    depth: usize,
    /// Commands around the node being walked.
    nesting: usize,
}

impl<'s> Walk<'s> {
    fn statement(&mut self, node: Node) -> Result<(), SplitError> {
        if self.nesting >= MAX_NESTING {
            return Err(SplitError(format!("commands nested more than {MAX_NESTING} deep")));
        }
        self.nesting += 1;
        match node.kind() {
            "command" => {
                let mut parts = Parts::default();
                self.command(node, &mut parts)?;
                self.emit(parts);
            }
            "redirected_statement" => self.redirected(node, false)?,
            "pipeline" => self.pipeline(node)?,
            "list" => {
                for operand in operands(node) {
                    self.statement(operand)?;
                }
            }
            "variable_assignment"
            | "variable_assignments"
            | "declaration_command"
            | "unset_command"
            | "test_command" => self.builtin(node)?,
            "function_definition" => {
                let mut parts = Parts::default();
                for (field, child) in children(node) {
                    match field {
                        Some("body") => self.statement(child)?,
                        Some("redirect") => self.redirect(child, &mut parts, &mut Vec::new())?,
                        _ => {}
                    }
                }
                self.emit(parts);
            }
            "command_substitution" | "process_substitution" => self.substitution(node)?,
            "c_style_for_statement" => {
                // `for ((i = 0; …))`: arithmetic, not commands, but for its substitutions.
                for (field, child) in children(node) {
                    if field == Some("body") {
                        self.statement(child)?;
                    } else if child.is_named() {
                        self.words(child)?;
                    }
                }
            }
            "comment" => {}
            _ => {
                for child in node.named_children(&mut node.walk()) {
                    if holds_commands(child.kind()) {
                        self.statement(child)?;
                    } else {
                        self.words(child)?;
                    }
                }
            }
        }
        self.nesting -= 1;
        Ok(())
    }

    fn pipeline(&mut self, node: Node) -> Result<(), SplitError> {
        let outer = self.pipeline;
        let (elements, first_done) = self.enter_pipeline(node)?;
        self.pipeline_elements(&elements, first_done)?;
        self.pipeline = outer;
        Ok(())
    }

    /// Sets the pipeline number for `node`'s commands, and returns its
    /// elements; `true` if the first is a list whose leading operands have
    /// been walked, outside the pipeline (see `redirected`: in
    /// `a && b 2>&1 | c` only `b` is piped).
    fn enter_pipeline<'t>(&mut self, node: Node<'t>) -> Result<(Vec<Node<'t>>, bool), SplitError> {
        let elements: Vec<Node> = node.named_children(&mut node.walk()).filter(|c| c.kind() != "comment").collect();
        let redirected_list = elements.first().and_then(|first| {
            first
                .child_by_field_name("body")
                .filter(|body| first.kind() == "redirected_statement" && body.kind() == "list")
        });
        if let Some(list) = redirected_list {
            let mut leading = operands(list);
            leading.pop();
            for operand in leading {
                self.statement(operand)?;
            }
        }
        if self.pipeline.is_none() {
            self.pipeline = Some(self.new_pipeline());
        }
        Ok((elements, redirected_list.is_some()))
    }

    fn pipeline_elements(&mut self, elements: &[Node], first_done: bool) -> Result<(), SplitError> {
        for (i, element) in elements.iter().enumerate() {
            if i == 0 && first_done {
                self.redirected(*element, true)?;
            } else {
                self.statement(*element)?;
            }
        }
        Ok(())
    }

    fn command<'t>(&mut self, node: Node<'t>, parts: &mut Parts<'t>) -> Result<(), SplitError> {
        for (field, child) in children(node) {
            match (field, child.kind()) {
                (_, "comment") => {}
                (Some("redirect"), _) => self.redirect(child, parts, &mut Vec::new())?,
                (Some("name" | "argument"), _) | (_, "variable_assignment") => {
                    if child.is_named() {
                        self.words(child)?;
                    }
                    parts.pieces.push(child);
                }
                _ if child.is_named() => self.words(child)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// tree-sitter-bash gives trailing redirections to everything before
    /// them: `a && b > f` is `(a && b) > f`, `a | b > f` is `(a | b) > f`,
    /// `! a > f` is `(! a) > f`. Bash gives them to the simple command at the
    /// end (`b`, `a`), and so does this. `leading_done`: the operands of such
    /// a list before its last have been walked.
    fn redirected(&mut self, node: Node, leading_done: bool) -> Result<(), SplitError> {
        let outer = self.pipeline;
        let mut skip_leading = leading_done;
        let mut last = node.child_by_field_name("body");
        while let Some(body) = last {
            let skip = std::mem::take(&mut skip_leading);
            match body.kind() {
                "list" => {
                    let mut leading = operands(body);
                    last = leading.pop();
                    if !skip {
                        for operand in leading {
                            self.statement(operand)?;
                        }
                    }
                }
                "pipeline" => {
                    let (mut elements, first_done) = self.enter_pipeline(body)?;
                    last = elements.pop();
                    self.pipeline_elements(&elements, first_done)?;
                }
                "negated_command" => last = body.named_child(0),
                _ => break,
            }
        }
        // tree-sitter-bash puts the rest of `cat <<EOF | sh` in the here-document's node.
        let piped = children(node).iter().any(|(_, child)| {
            child.kind() == "heredoc_redirect"
                && child.named_children(&mut child.walk()).any(|c| c.kind() == "pipeline")
        });
        if piped && self.pipeline.is_none() {
            self.pipeline = Some(self.new_pipeline());
        }
        let mut parts = Parts::default();
        match last {
            Some(command) if command.kind() == "command" => self.command(command, &mut parts)?,
            Some(other) => self.statement(other)?,
            None => {}
        }
        let mut after = Vec::new();
        for (field, child) in children(node) {
            if field != Some("body") && child.is_named() && child.kind() != "comment" {
                self.redirect(child, &mut parts, &mut after)?;
            }
        }
        self.emit(parts);
        for next in after {
            if next.kind() != "pipeline" {
                self.pipeline = outer;
            }
            self.statement(next)?;
        }
        self.pipeline = outer;
        Ok(())
    }

    /// Adds a redirection to `parts`; the commands that tree-sitter-bash
    /// hangs on a here-document (`| sh`, `&& next`) go to `after`.
    fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        parts: &mut Parts<'t>,
        after: &mut Vec<Node<'t>>,
    ) -> Result<(), SplitError> {
        if node.kind() == "heredoc_redirect" {
            let mut op = "<<";
            for (field, child) in children(node) {
                match (field, child.kind()) {
                    (_, "<<" | "<<-") if !child.is_named() => op = child.kind(),
                    (_, "heredoc_start") => {
                        let target: String =
                            self.text(child).chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect();
                        parts.redirects.push(Redirect { op: op.into(), target });
                    }
                    (_, "heredoc_body") => self.heredoc_body(child)?,
                    (_, "pipeline") | (Some("right"), _) => after.push(child),
                    (Some("redirect"), _) => self.redirect(child, parts, after)?,
                    (Some("argument"), _) => {
                        self.words(child)?;
                        parts.pieces.push(child);
                    }
                    _ => {}
                }
            }
            return Ok(());
        }
        let mut op = None;
        let mut targets = Vec::new();
        for (field, child) in children(node) {
            if field == Some("descriptor") || child.kind() == "comment" {
                continue;
            }
            if child.is_named() {
                self.words(child)?;
                targets.push(child);
            } else if op.is_none() {
                op = Some(child.kind());
            }
        }
        let (op, target) = match op.unwrap_or_default() {
            ">&-" => (">&", "-".to_owned()),
            "<&-" => ("<&", "-".to_owned()),
            op => {
                // tree-sitter-bash takes the words after a redirection's target
                // (`> out more words`) as more targets: they are the command's.
                let first = targets.windows(2).take_while(|pair| self.adjacent(pair[0], pair[1])).count() + 1;
                let first = first.min(targets.len());
                let target = concat(&targets[..first], self.src);
                parts.pieces.extend(&targets[first..]);
                (op, target)
            }
        };
        parts.redirects.push(Redirect { op: op.into(), target });
        Ok(())
    }

    /// Assignments, declarations and tests: their words in order.
    fn builtin(&mut self, node: Node) -> Result<(), SplitError> {
        for child in node.named_children(&mut node.walk()) {
            self.words(child)?;
        }
        // In `[ a > b ]` bash sees a redirection, where tree-sitter-bash sees a comparison.
        let single_bracket = node.kind() == "test_command" && node.child(0).is_some_and(|c| c.kind() == "[");
        let mut parts = Parts::default();
        let mut redirect = None;
        let mut nodes = Preorder::new(node);
        let mut descend = true;
        while let Some(n) = nodes.next(descend) {
            if n == node && n.kind() != "variable_assignment" {
                continue;
            }
            descend = n.is_named() && !is_word(n.kind());
            if descend || n.kind() == "comment" {
                continue;
            }
            let is_redirect = single_bracket
                && !n.is_named()
                && matches!(n.kind(), ">" | "<")
                && n.parent().is_some_and(|p| p.kind() == "binary_expression");
            if is_redirect {
                redirect = Some(n.kind());
            } else if let Some(op) = redirect.take() {
                parts.redirects.push(Redirect { op: op.into(), target: unquote(n, self.src) });
            } else {
                parts.pieces.push(n);
            }
        }
        self.emit(parts);
        Ok(())
    }

    /// Splits the substitutions in a word, an expression or anything else
    /// that is not a command. A loop: expressions nest as deep as the line is long.
    fn words(&mut self, node: Node) -> Result<(), SplitError> {
        let mut nodes = Preorder::new(node);
        let mut descend = true;
        while let Some(n) = nodes.next(descend) {
            descend = false;
            match n.kind() {
                "command_substitution" | "process_substitution" => self.substitution(n)?,
                "word" | "string_content" | "extglob_pattern" | "regex" => {
                    self.backquotes(n.start_byte(), n.end_byte(), &[])?
                }
                "raw_string" | "ansi_c_string" | "comment" => {}
                "variable_assignment" | "variable_assignments" => descend = true,
                kind if n != node && holds_commands(kind) => self.statement(n)?,
                _ => descend = true,
            }
        }
        Ok(())
    }

    fn substitution(&mut self, node: Node) -> Result<(), SplitError> {
        self.check_depth()?;
        let text = self.text(node);
        if let Some(inner) = text.strip_prefix('`') {
            return self.backquoted(inner.strip_suffix('`').unwrap_or(inner));
        }
        let outer = self.pipeline.take();
        self.depth += 1;
        let mut parts = Parts::default();
        for (field, child) in children(node) {
            if field == Some("redirect") {
                // `$(< file)`, or `$(> file)` which truncates it.
                self.redirect(child, &mut parts, &mut Vec::new())?;
            } else if child.is_named() {
                self.statement(child)?;
            }
        }
        self.emit(parts);
        self.depth -= 1;
        self.pipeline = outer;
        Ok(())
    }

    /// The text between backquotes: bash removes the backslashes of `` \` ``,
    /// `\$` and `\\`, then parses the rest as a command line of its own.
    fn backquoted(&mut self, inner: &str) -> Result<(), SplitError> {
        self.check_depth()?;
        let line = unescape(inner, |c| matches!(c, '`' | '$' | '\\'));
        let commands = walk_line(&line, self.depth + 1, self.nesting, &mut self.pipelines)?;
        self.out.extend(commands);
        Ok(())
    }

    fn check_depth(&self) -> Result<(), SplitError> {
        if self.depth >= MAX_DEPTH {
            return Err(SplitError(format!("substitutions nested more than {MAX_DEPTH} deep")));
        }
        Ok(())
    }

    /// An unquoted body's substitutions run; a quoted one (`<<'EOF'`) is text.
    fn heredoc_body(&mut self, node: Node) -> Result<(), SplitError> {
        let quoted = node.parent().is_some_and(|redirect| {
            children(redirect)
                .iter()
                .any(|(_, c)| c.kind() == "heredoc_start" && self.text(*c).contains(['\'', '"', '\\']))
        });
        if quoted {
            return Ok(());
        }
        let parsed: Vec<Node> =
            node.named_children(&mut node.walk()).filter(|c| c.kind() != "heredoc_content").collect();
        self.backquotes(node.start_byte(), node.end_byte(), &parsed)
    }

    /// Splits the backquoted commands in source text that tree-sitter-bash
    /// leaves literal although bash runs them: in here-document bodies and in
    /// `${x:-…}`. `parsed`: the nodes it did parse in that text (`$(…)`, `${…}`).
    fn backquotes(&mut self, start: usize, end: usize, parsed: &[Node]) -> Result<(), SplitError> {
        let src = self.src;
        let bytes = src.as_bytes();
        let mut parsed = parsed.iter().peekable();
        let mut i = start;
        while i < end {
            if let Some(node) = parsed.next_if(|n| n.start_byte() <= i) {
                self.words(*node)?;
                i = i.max(node.end_byte());
                continue;
            }
            match bytes[i] {
                b'\\' => i += 2,
                b'`' => {
                    let mut close = i + 1;
                    while close < end && bytes[close] != b'`' {
                        close += if bytes[close] == b'\\' { 2 } else { 1 };
                    }
                    if close >= end {
                        return Err(SplitError("unterminated backquote".into()));
                    }
                    self.backquoted(&src[i + 1..close])?;
                    // The nested line included whatever was parsed inside the backquotes.
                    while parsed.next_if(|n| n.start_byte() < close).is_some() {}
                    i = close + 1;
                }
                _ => i += 1,
            }
        }
        Ok(())
    }

    fn emit(&mut self, parts: Parts) {
        let mut words: Vec<String> = Vec::new();
        let mut group: Vec<Node> = Vec::new();
        for piece in parts.pieces {
            if group.last().is_some_and(|last| !self.adjacent(*last, piece)) {
                words.push(concat(&group, self.src));
                group.clear();
            }
            group.push(piece);
        }
        if !group.is_empty() {
            words.push(concat(&group, self.src));
        }
        if words.is_empty() && parts.redirects.is_empty() {
            return;
        }
        let pipeline = match self.pipeline {
            Some(pipeline) => pipeline,
            None => self.new_pipeline(),
        };
        self.out.push(SimpleCommand { words, redirects: parts.redirects, pipeline });
    }

    /// Whether two nodes are one word: nothing but line continuations between
    /// them. tree-sitter-bash splits `s\` newline `udo` in two, and ``a=`b`c`` too.
    fn adjacent(&self, left: Node, right: Node) -> bool {
        let between = self.src.get(left.end_byte()..right.start_byte()).unwrap_or(" ");
        between.split("\\\n").all(str::is_empty)
    }

    fn new_pipeline(&mut self) -> usize {
        self.pipelines += 1;
        self.pipelines
    }

    fn text(&self, node: Node) -> &'s str {
        &self.src[node.byte_range()]
    }
}

/// The operands of `a && b || c`, in order. Lists nest, to the left as deep
/// as the chain is long: a loop, not recursion.
fn operands(node: Node) -> Vec<Node> {
    let mut operands = Vec::new();
    let mut pending = vec![node];
    while let Some(next) = pending.pop() {
        if next.kind() == "list" {
            let mut inner: Vec<Node> =
                next.named_children(&mut next.walk()).filter(|c| c.kind() != "comment").collect();
            inner.reverse();
            pending.extend(inner);
        } else {
            operands.push(next);
        }
    }
    operands
}

/// A node's children with their field names.
fn children(node: Node) -> Vec<(Option<&'static str>, Node)> {
    let mut cursor = node.walk();
    let mut children = Vec::new();
    if cursor.goto_first_child() {
        loop {
            children.push((cursor.field_name(), cursor.node()));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    children
}

/// A pre-order walk of a subtree, in a loop rather than by recursion.
struct Preorder<'t> {
    cursor: TreeCursor<'t>,
    started: bool,
}

impl<'t> Preorder<'t> {
    fn new(root: Node<'t>) -> Self {
        Preorder { cursor: root.walk(), started: false }
    }

    /// The next node: the root first; `descend` enters the children of the
    /// node returned last. The cursor can't leave the root.
    fn next(&mut self, descend: bool) -> Option<Node<'t>> {
        if !self.started {
            self.started = true;
            return Some(self.cursor.node());
        }
        if descend && self.cursor.goto_first_child() {
            return Some(self.cursor.node());
        }
        loop {
            if self.cursor.goto_next_sibling() {
                return Some(self.cursor.node());
            }
            if !self.cursor.goto_parent() {
                return None;
            }
        }
    }
}

/// Adjacent pieces of one word, unquoted and joined. `$"…"` (a translated
/// string) is its text.
fn concat(pieces: &[Node], src: &str) -> String {
    let mut word = String::new();
    for (i, piece) in pieces.iter().enumerate() {
        let translated =
            !piece.is_named() && piece.kind() == "$" && pieces.get(i + 1).is_some_and(|next| next.kind() == "string");
        if !translated {
            word.push_str(&unquote(*piece, src));
        }
    }
    word
}

/// A word's value as bash would see it before expansion: quotes removed,
/// expansions and substitutions as written.
fn unquote(node: Node, src: &str) -> String {
    let text = &src[node.byte_range()];
    match node.kind() {
        "word" => unescape(text, |_| true),
        "raw_string" => text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or(text).to_owned(),
        "string" => double_quoted(node, src),
        "translated_string" => node.named_child(0).map(|string| double_quoted(string, src)).unwrap_or_default(),
        "ansi_c_string" => ansi_c(text.strip_prefix("$'").and_then(|t| t.strip_suffix('\'')).unwrap_or(text)),
        "concatenation" | "command_name" => {
            let pieces: Vec<Node> = node.children(&mut node.walk()).filter(|c| c.kind() != "comment").collect();
            concat(&pieces, src)
        }
        "variable_assignment" => {
            // `a=b=c` nests its values: a loop.
            let mut assignment = node;
            while let Some(value) = assignment.child_by_field_name("value") {
                if value.kind() != "variable_assignment" {
                    return format!("{}{}", &src[node.start_byte()..value.start_byte()], unquote(value, src));
                }
                assignment = value;
            }
            text.to_owned()
        }
        _ => text.to_owned(),
    }
}

/// The inside of `"…"`: its backslashes removed, substitutions and
/// expansions as written.
fn double_quoted(node: Node, src: &str) -> String {
    let inside = |c: char| matches!(c, '$' | '`' | '"' | '\\' | '\n');
    let end = node.end_byte().saturating_sub(1);
    let mut text = String::new();
    let mut at = node.start_byte() + 1;
    for child in node.named_children(&mut node.walk()) {
        if child.start_byte() > at {
            text.push_str(&unescape(&src[at..child.start_byte()], inside));
        }
        let value = &src[child.byte_range()];
        if child.kind() == "string_content" {
            text.push_str(&unescape(value, inside));
        } else {
            text.push_str(value);
        }
        at = child.end_byte();
    }
    if at < end {
        text.push_str(&unescape(&src[at..end], inside));
    }
    text
}

/// Removes the backslashes before the characters `escapes`; an escaped
/// newline (a line continuation) goes too.
fn unescape(text: &str, escapes: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') if escapes('\n') => {}
            Some(next) if escapes(next) => out.push(next),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Decodes the inside of `$'…'` as bash does (`\n`, `\x73`, `\163`, `\u0073`, …).
fn ansi_c(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(escaped) = chars.next() else {
            out.push('\\');
            break;
        };
        let numeric = match escaped {
            'x' => Some((16, 2, 0)),
            'u' => Some((16, 4, 0)),
            'U' => Some((16, 8, 0)),
            '0'..='7' => Some((8, 2, escaped.to_digit(8).unwrap_or(0))),
            _ => None,
        };
        if let Some((radix, max_digits, first)) = numeric {
            let mut value = first;
            let mut digits = 0;
            while digits < max_digits {
                let Some(digit) = chars.peek().and_then(|c| c.to_digit(radix)) else { break };
                value = value.saturating_mul(radix).saturating_add(digit);
                digits += 1;
                chars.next();
            }
            let octal = radix == 8;
            match char::from_u32(value).filter(|_| digits > 0 || octal) {
                Some(decoded) => out.push(decoded),
                None => {
                    out.push('\\');
                    out.push(escaped);
                }
            }
            continue;
        }
        out.push(match escaped {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'a' => '\u{7}',
            'b' => '\u{8}',
            'e' | 'E' => '\u{1b}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            other => other,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        split(line).unwrap().iter().map(SimpleCommand::text).collect()
    }

    #[test]
    fn separators_split_simple_commands() {
        assert_eq!(texts("ls -la"), ["ls -la"]);
        assert_eq!(texts("ls; sudo rm x"), ["ls", "sudo rm x"]);
        assert_eq!(texts("a && b || c & d"), ["a", "b", "c", "d"]);
        assert_eq!(texts("a\nb\n\n  c  "), ["a", "b", "c"]);
        assert_eq!(texts("(cd x && make) ; { y; }"), ["cd x", "make", "y"]);
        assert_eq!(texts(""), Vec::<String>::new());
        assert_eq!(texts("  # just a comment"), Vec::<String>::new());
        assert_eq!(texts("echo a#b # comment ; sudo x"), ["echo a#b"]);
    }

    #[test]
    fn pipelines_share_a_number() {
        let commands = split("cat f | grep x |& wc -l; echo done && curl u | sh").unwrap();
        let pipelines: Vec<usize> = commands.iter().map(|c| c.pipeline).collect();
        assert_eq!(pipelines[0], pipelines[1]);
        assert_eq!(pipelines[1], pipelines[2]);
        assert_ne!(pipelines[2], pipelines[3]);
        assert_ne!(pipelines[3], pipelines[4]);
        assert_eq!(pipelines[4], pipelines[5]);
        // A substitution inside a pipeline doesn't break it.
        let commands = split("curl u | sh $(echo -s) | tee log").unwrap();
        let texts: Vec<(String, usize)> = commands.iter().map(|c| (c.text(), c.pipeline)).collect();
        assert_eq!(texts[1].0, "echo -s");
        assert_ne!(texts[1].1, texts[0].1);
        assert_eq!([texts[0].1, texts[2].1, texts[3].1], [texts[0].1; 3]);
    }

    #[test]
    fn quotes_are_removed_and_hide_separators() {
        assert_eq!(texts(r#"echo "sudo; rm -rf /" 'a | b'"#), ["echo sudo; rm -rf / a | b"]);
        assert_eq!(split(r#"echo "sudo""#).unwrap()[0].words, ["echo", "sudo"]);
        assert_eq!(texts(r#""su"do ls"#), ["sudo ls"]);
        assert_eq!(texts(r"s\udo ls \; x"), ["sudo ls ; x"]);
        assert_eq!(texts("echo $'a\\tb'"), ["echo a\tb"]);
        assert_eq!(texts(r"$'\x73udo' $'\163\165do' $'\u0073udo' $'\x' $'\'' x"), ["sudo sudo sudo \\x ' x"]);
        assert_eq!(split(r#"echo "" ''"#).unwrap()[0].words, ["echo", "", ""]);
        assert_eq!(texts("echo a\\\nb"), ["echo ab"]);
        assert_eq!(texts(r#"echo "a \"b\" \$c""#), [r#"echo a "b" $c"#]);
    }

    #[test]
    fn substitutions_are_split_everywhere() {
        assert_eq!(texts("echo $(sudo x)"), ["sudo x", "echo $(sudo x)"]);
        assert_eq!(texts(r#"echo "today: $(date; sudo y)""#), ["date", "sudo y", "echo today: $(date; sudo y)"]);
        assert_eq!(texts("echo `sudo x`"), ["sudo x", "echo `sudo x`"]);
        assert_eq!(texts("a=$(b $(c))"), ["c", "b $(c)", "a=$(b $(c))"]);
        assert_eq!(texts("diff <(sort a) >(tee b)"), ["sort a", "tee b", "diff <(sort a) >(tee b)"]);
        assert_eq!(texts("echo $((1 + 2))"), ["echo $((1 + 2))"]);
        assert_eq!(texts(r"echo `echo \`sudo x\``"), ["sudo x", "echo `sudo x`", r"echo `echo \`sudo x\``"]);
        assert_eq!(texts("echo '$(sudo x)' \"\\$(sudo y)\""), ["echo $(sudo x) $(sudo y)"]);
        assert_eq!(texts("echo $(echo \")\")"), ["echo )", "echo $(echo \")\")"]);
    }

    #[test]
    fn redirections_are_kept_apart_from_words() {
        let commands = split("dd if=x of=y 2>&1 >> log < in &> all").unwrap();
        assert_eq!(commands[0].words, ["dd", "if=x", "of=y"]);
        let redirects: Vec<(&str, &str)> =
            commands[0].redirects.iter().map(|r| (r.op.as_str(), r.target.as_str())).collect();
        assert_eq!(redirects, [(">&", "1"), (">>", "log"), ("<", "in"), ("&>", "all")]);
        let commands = split("echo hi >/dev/sda").unwrap();
        assert_eq!(commands[0].redirects, [Redirect { op: ">".into(), target: "/dev/sda".into() }]);
        assert_eq!(split("echo 2 > x").unwrap()[0].words, ["echo", "2"]);
        assert_eq!(split("echo x2>y").unwrap()[0].words, ["echo", "x2"]);
    }

    #[test]
    fn heredoc_bodies_are_not_commands_but_their_substitutions_are() {
        let line = "cat <<EOF > out.txt\nsudo is just text; don't split\n$(whoami)\nEOF\necho after";
        assert_eq!(texts(line), ["whoami", "cat", "echo after"]);
        let quoted = "cat <<'EOF'\n$(sudo x)\nEOF\nls";
        assert_eq!(texts(quoted), ["cat", "ls"]);
        let tabs = "cat <<-END\n\tbody\n\tEND\nls";
        assert_eq!(texts(tabs), ["cat", "ls"]);
    }

    #[test]
    fn arrays_and_functions() {
        assert_eq!(texts("a=(x y 'z w'); echo ${a[@]}"), ["a=(x y 'z w')", "echo ${a[@]}"]);
        assert_eq!(texts("f() { sudo x; }; f"), ["sudo x", "f"]);
    }

    #[test]
    fn unterminated_input_is_an_error() {
        for line in ["echo 'a", "echo \"a", "echo $(a", "echo `a", "echo $'a", "a=(x", "echo \"$(x\""] {
            assert!(split(line).is_err(), "{line}");
        }
        let deep = format!("{}x{}", "$(".repeat(MAX_DEPTH + 2), ")".repeat(MAX_DEPTH + 2));
        assert!(split(&deep).unwrap_err().0.contains("nested"));
        let fine = format!("{}x{}", "$(".repeat(5), ")".repeat(5));
        assert!(split(&fine).is_ok());
    }

    #[test]
    fn line_continuations_join_words() {
        assert_eq!(texts("s\\\nudo ls"), ["sudo ls"]);
        assert_eq!(texts("echo a \\\n  b"), ["echo a b"]);
        assert_eq!(texts("echo 'a\\\nb' \"c\\\nd\""), ["echo a\\\nb cd"]);
    }

    #[test]
    fn backquotes_the_grammar_leaves_as_text_are_split() {
        // tree-sitter-bash doesn't parse backquotes in here-document bodies or in `${…}`; bash runs them.
        let line = "cat <<EOF\na `sudo x` $(y) `echo $(sudo z)` \\`not\\`\nEOF";
        assert_eq!(texts(line), ["sudo x", "y", "sudo z", "echo $(sudo z)", "cat"]);
        let line = "echo ${x:-`sudo w`} \"${y:-`sudo v`}\"";
        assert_eq!(texts(line), ["sudo w", "sudo v", "echo ${x:-`sudo w`} ${y:-`sudo v`}"]);
        assert_eq!(split("cat <<EOF\n`oops\nEOF").unwrap_err().0, "unterminated backquote");
    }

    #[test]
    fn words_are_whole_where_the_grammar_splits_them() {
        assert_eq!(split("echo a=`b`c").unwrap()[1].words, ["echo", "a=`b`c"]);
        assert_eq!(texts("$\"sudo\" x$\"y\" $"), ["sudo xy $"]);
        // Words after a redirection's target are the command's.
        let commands = split("echo > out a b").unwrap();
        assert_eq!(commands[0].words, ["echo", "a", "b"]);
        assert_eq!(commands[0].redirects, [Redirect { op: ">".into(), target: "out".into() }]);
    }

    #[test]
    fn redirections_and_pipes_bind_to_the_last_command_of_a_list() {
        let shown = |line: &str| -> Vec<(String, Vec<String>, usize)> {
            let commands = split(line).unwrap();
            let redirects = |c: &SimpleCommand| c.redirects.iter().map(|r| format!("{}{}", r.op, r.target)).collect();
            commands.iter().map(|c| (c.text(), redirects(c), c.pipeline)).collect()
        };
        let commands = shown("a && b > f; ! c > /dev/sda");
        assert_eq!(commands[0].1, Vec::<String>::new());
        assert_eq!(commands[1].1, [">f"]);
        assert_eq!(commands[2].1, [">/dev/sda"]);
        let commands = shown("cd x && cargo build 2>&1 | grep y | sort > f");
        assert_eq!(commands[1], ("cargo build".into(), vec![">&1".into()], commands[2].2));
        assert_eq!(commands[3], ("sort".into(), vec![">f".into()], commands[2].2));
        assert_ne!(commands[0].2, commands[1].2);
    }

    #[test]
    fn a_pipeline_includes_the_commands_of_its_compound_commands() {
        let numbers = |line: &str| split(line).unwrap().iter().map(|c| c.pipeline).collect::<Vec<_>>();
        let pipelines = numbers("curl x | { cd /tmp; sh; }; ls");
        assert_eq!(pipelines[..3], [pipelines[0]; 3]);
        assert_ne!(pipelines[3], pipelines[0]);
        let pipelines = numbers("cat <<EOF | sh\nx\nEOF");
        assert_eq!(pipelines, [pipelines[0]; 2]);
    }

    #[test]
    fn redirections_outside_simple_commands() {
        let wordless = |line: &str, index: usize| {
            let command = &split(line).unwrap()[index];
            assert!(command.words.is_empty(), "{line}: {command:?}");
            command.redirects.iter().map(|r| format!("{}{}", r.op, r.target)).collect::<Vec<_>>()
        };
        assert_eq!(wordless("{ x; } > /dev/sda", 1), [">/dev/sda"]);
        assert_eq!(wordless("f() { y; } 2>/dev/null", 1), [">/dev/null"]);
        assert_eq!(wordless("echo $(> /dev/sda)", 0), [">/dev/sda"]);
        let test = &split("[ a > /dev/sda ]").unwrap()[0];
        assert_eq!(test.words, ["[", "a", "]"]);
        assert_eq!(test.redirects, [Redirect { op: ">".into(), target: "/dev/sda".into() }]);
        assert_eq!(split("exec 3>&-").unwrap()[0].redirects, [Redirect { op: ">&".into(), target: "-".into() }]);
    }

    #[test]
    fn reserved_words_are_syntax() {
        assert_eq!(texts("if true; then sudo x; elif a; then b; else c; fi"), ["true", "sudo x", "a", "b", "c"]);
        assert_eq!(texts("for f in *.txt $(ls); do wc -l \"$f\"; done"), ["ls", "wc -l $f"]);
        assert_eq!(texts("case $x in a|b) sudo x ;; *) y ;; esac"), ["sudo x", "y"]);
        assert_eq!(texts("(( i++ )); [[ -f $(z) ]]; [ -f x ]"), ["z", "[[ -f $(z) ]]", "[ -f x ]"]);
        assert_eq!(texts("for ((i = $(x); i < 3; i++)); do echo $i; done"), ["x", "echo $i"]);
        assert_eq!(
            texts("declare -x A=$(q); x=1 y=2; ! sudo x; time -p ls"),
            ["q", "declare -x A=$(q)", "x=1 y=2", "sudo x", "time -p ls"]
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(split("echo 'a").unwrap_err().0, "unterminated single quote at line 1, column 6");
        assert_eq!(split("echo $(a").unwrap_err().0, "bash syntax error at line 1, column 9: missing `)`");
        // Lines bash takes that tree-sitter-bash can't parse are refused too.
        for line in ["cat <<A <<B\na\nA\nb\nB", "echo a <> f", "cat > out <<< x"] {
            assert!(split(line).unwrap_err().0.starts_with("bash syntax error"), "{line}");
        }
    }

    #[test]
    fn nesting_is_bounded_and_long_chains_are_fine() {
        let blocks = |n: usize| (0..n).fold("x".to_owned(), |inner, _| format!("{{ {inner}; }}"));
        assert_eq!(texts(&blocks(MAX_NESTING - 2)), ["x"]);
        assert!(split(&blocks(MAX_NESTING + 1)).unwrap_err().0.contains("nested"));
        assert_eq!(split(&vec!["true"; 5000].join(" && ")).unwrap().len(), 5000);
        assert_eq!(texts(&format!("echo $(({}1))", "1+".repeat(5000))).len(), 1);
    }

    #[test]
    fn functions_that_fork_themselves() {
        let line = "ok() { ok; }; :(){ :|:& };: ; g() { f | f & }";
        assert_eq!(forking_functions(line).unwrap(), [":(){ :|:& }"]);
    }
}
