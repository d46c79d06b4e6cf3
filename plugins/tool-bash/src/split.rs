//! Splits a bash command line into the simple commands it would run.
//!
//! This is not a bash parser; it is the small tokenizer the safety rules
//! need. It knows enough of bash's quoting to tell a command from text:
//!
//! - Simple commands are separated by `;`, `&`, `&&`, `||`, `|`, `|&`,
//!   newlines and `(` / `)`; `|` and `|&` keep commands in one pipeline
//!   ([`SimpleCommand::pipeline`]).
//! - `'…'` is literal; `"…"` is literal except for `\`, `$(…)` and
//!   backticks; `$'…'` is ANSI-C quoting; `\x` escapes one character and
//!   `\` + newline continues the line; `#` at the start of a word starts a
//!   comment. Quotes are removed from words, so `"su"do` is the word `sudo`.
//! - `$(…)`, `$((…))`, backticks and process substitutions `<(…)` / `>(…)`
//!   are split recursively, wherever they appear (in a word, in double
//!   quotes, in an unquoted here-document body): their commands are
//!   returned as well, before the command that contains them. The word that
//!   holds a substitution keeps its source text (`$(date)`), since its value
//!   is only known when it runs.
//! - Redirections (`>`, `>>`, `<`, `2>&1`, `&>`, `<<<`, …) are returned
//!   apart from the words, with their target. Here-document bodies are not
//!   commands and are skipped (but substitutions in an unquoted body are
//!   split, as bash would run them).
//! - `${…}` and `$VAR` are left as written: the tokenizer never expands.
//!
//! An unterminated quote or substitution, or nesting deeper than
//! [`MAX_DEPTH`], is an error: bash would refuse the line too, and a line
//! that can't be checked is never run.

use std::fmt;

/// How deep substitutions may nest before the line is refused.
pub const MAX_DEPTH: usize = 32;

/// One simple command: its words (quotes removed) and redirections.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// The words, assignments and reserved words included, quotes removed.
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
/// `<`, `>&`, `&>`, `<<`, `<<<`, …) and the word after it.
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
    split_nested(line, 0, &mut pipelines)
}

fn split_nested(line: &str, depth: usize, pipelines: &mut usize) -> Result<Vec<SimpleCommand>, SplitError> {
    if depth > MAX_DEPTH {
        return Err(SplitError(format!("substitutions nested more than {MAX_DEPTH} deep")));
    }
    let mut parser = Parser { chars: line.chars().collect(), pos: 0, out: Vec::new(), pipelines: *pipelines, depth };
    parser.list(Until::End)?;
    *pipelines = parser.pipelines;
    Ok(parser.out)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Until {
    End,
    /// The `)` closing a `$(`, `<(` or `>(`.
    Paren,
}

struct Heredoc {
    delimiter: String,
    strip_tabs: bool,
    expands: bool,
}

/// The command being read.
#[derive(Default)]
struct Current {
    cmd: SimpleCommand,
    word: String,
    word_started: bool,
    word_quoted: bool,
    /// A redirection operator waiting for its target word.
    redirect: Option<String>,
    pipeline: usize,
    heredocs: Vec<Heredoc>,
}

impl Current {
    fn push(&mut self, c: char) {
        self.word.push(c);
        self.word_started = true;
    }

    fn push_str(&mut self, s: &str) {
        self.word.push_str(s);
        self.word_started = true;
    }

    fn end_word(&mut self) {
        if !self.word_started {
            return;
        }
        let word = std::mem::take(&mut self.word);
        match self.redirect.take() {
            Some(op) => {
                if op == "<<" || op == "<<-" {
                    self.heredocs.push(Heredoc {
                        delimiter: word.clone(),
                        strip_tabs: op == "<<-",
                        expands: !self.word_quoted,
                    });
                }
                self.cmd.redirects.push(Redirect { op, target: word });
            }
            None => self.cmd.words.push(word),
        }
        self.word_started = false;
        self.word_quoted = false;
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    out: Vec<SimpleCommand>,
    pipelines: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn source(&self, start: usize) -> String {
        self.chars[start..self.pos].iter().collect()
    }

    fn new_pipeline(&mut self) -> usize {
        self.pipelines += 1;
        self.pipelines
    }

    /// Ends the current command; `same_pipeline` for `|` and `|&`.
    fn finish(&mut self, cur: &mut Current, same_pipeline: bool) {
        cur.end_word();
        cur.redirect = None;
        let mut cmd = std::mem::take(&mut cur.cmd);
        if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
            cmd.pipeline = cur.pipeline;
            self.out.push(cmd);
        }
        if !same_pipeline {
            cur.pipeline = self.new_pipeline();
        }
    }

    /// Reads a list of commands until the end of input or the `)` of a substitution.
    fn list(&mut self, until: Until) -> Result<(), SplitError> {
        let mut cur = Current { pipeline: self.new_pipeline(), ..Current::default() };
        let mut parens = 0usize;
        loop {
            let Some(c) = self.peek() else {
                if until == Until::Paren {
                    return Err(SplitError("unterminated `$(` or `<(`: missing `)`".into()));
                }
                self.finish(&mut cur, false);
                return Ok(());
            };
            match c {
                ' ' | '\t' | '\r' => {
                    cur.end_word();
                    self.pos += 1;
                }
                '\n' => {
                    self.pos += 1;
                    cur.end_word();
                    let heredocs = std::mem::take(&mut cur.heredocs);
                    self.finish(&mut cur, false);
                    for heredoc in heredocs {
                        self.heredoc_body(&heredoc)?;
                    }
                }
                '#' if !cur.word_started => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                '\\' => {
                    match self.peek_at(1) {
                        Some('\n') => {}
                        Some(next) => cur.push(next),
                        None => cur.push('\\'),
                    }
                    self.pos += 2;
                }
                '\'' => {
                    self.pos += 1;
                    let text = self.single_quoted()?;
                    cur.push_str(&text);
                    cur.word_quoted = true;
                }
                '"' => {
                    self.pos += 1;
                    let text = self.double_quoted()?;
                    cur.push_str(&text);
                    cur.word_quoted = true;
                }
                '`' => {
                    let text = self.backticks()?;
                    cur.push_str(&text);
                }
                '$' if self.peek_at(1) == Some('(') => {
                    let text = self.substitution(2)?;
                    cur.push_str(&text);
                }
                '$' if self.peek_at(1) == Some('\'') => {
                    self.pos += 2;
                    let text = self.ansi_c_quoted()?;
                    cur.push_str(&text);
                    cur.word_quoted = true;
                }
                '(' if cur.word_started && cur.word.ends_with('=') => {
                    // An array assignment: `a=(x y)` is one word, not a subshell.
                    let text = self.array_literal()?;
                    cur.push_str(&text);
                }
                '(' => {
                    self.finish(&mut cur, false);
                    parens += 1;
                    self.pos += 1;
                }
                ')' => {
                    self.pos += 1;
                    if parens == 0 && until == Until::Paren {
                        self.finish(&mut cur, false);
                        return Ok(());
                    }
                    parens = parens.saturating_sub(1);
                    self.finish(&mut cur, false);
                }
                ';' => {
                    self.pos += 1;
                    self.finish(&mut cur, false);
                }
                '&' if self.peek_at(1) == Some('>') => {
                    cur.end_word();
                    let op = if self.peek_at(2) == Some('>') { "&>>" } else { "&>" };
                    self.pos += op.len();
                    cur.redirect = Some(op.into());
                }
                '&' => {
                    self.pos += if self.peek_at(1) == Some('&') { 2 } else { 1 };
                    self.finish(&mut cur, false);
                }
                '|' => match self.peek_at(1) {
                    Some('|') => {
                        self.pos += 2;
                        self.finish(&mut cur, false);
                    }
                    Some('&') => {
                        self.pos += 2;
                        self.finish(&mut cur, true);
                    }
                    _ => {
                        self.pos += 1;
                        self.finish(&mut cur, true);
                    }
                },
                '<' | '>' if self.peek_at(1) == Some('(') => {
                    let text = self.substitution(2)?;
                    cur.push_str(&text);
                }
                '<' | '>' => {
                    // `2>file`: a word of digits right before the operator is its file descriptor.
                    if cur.word_started && !cur.word_quoted && cur.word.chars().all(|c| c.is_ascii_digit()) {
                        cur.word.clear();
                        cur.word_started = false;
                    }
                    cur.end_word();
                    let op = self.redirect_operator();
                    cur.redirect = Some(op);
                }
                _ => {
                    cur.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    fn redirect_operator(&mut self) -> String {
        const OPERATORS: [&str; 10] = ["<<<", "<<-", "<<", "<&", "<>", ">>", ">&", ">|", "<", ">"];
        for op in OPERATORS {
            if op.chars().enumerate().all(|(i, c)| self.peek_at(i) == Some(c)) {
                self.pos += op.len();
                return op.into();
            }
        }
        unreachable!("called on `<` or `>`")
    }

    /// After the opening `'`.
    fn single_quoted(&mut self) -> Result<String, SplitError> {
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(SplitError("unterminated single quote".into())),
                Some('\'') => {
                    self.pos += 1;
                    return Ok(text);
                }
                Some(c) => {
                    text.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// After the opening `$'`: decodes bash's escapes (`\n`, `\x73`, `\163`, `\u0073`, …).
    fn ansi_c_quoted(&mut self) -> Result<String, SplitError> {
        let unterminated = || SplitError("unterminated `$'` quote".into());
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(unterminated()),
                Some('\'') => {
                    self.pos += 1;
                    return Ok(text);
                }
                Some('\\') => {
                    let escaped = self.peek_at(1).ok_or_else(unterminated)?;
                    self.pos += 2;
                    let numeric = match escaped {
                        'x' => Some((16, 2)),
                        'u' => Some((16, 4)),
                        'U' => Some((16, 8)),
                        '0'..='7' => {
                            self.pos -= 1;
                            Some((8, 3))
                        }
                        _ => None,
                    };
                    if let Some((radix, max_digits)) = numeric {
                        let mut value = 0u32;
                        let mut digits = 0;
                        while digits < max_digits {
                            let Some(digit) = self.peek().and_then(|c| c.to_digit(radix)) else { break };
                            value = value.saturating_mul(radix).saturating_add(digit);
                            digits += 1;
                            self.pos += 1;
                        }
                        match char::from_u32(value).filter(|_| digits > 0) {
                            Some(c) => text.push(c),
                            None => {
                                text.push('\\');
                                text.push(escaped);
                            }
                        }
                        continue;
                    }
                    text.push(match escaped {
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
                Some(c) => {
                    text.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// After the opening `"`: `\` escapes `$`, `` ` ``, `"`, `\` and newline;
    /// substitutions are split.
    fn double_quoted(&mut self) -> Result<String, SplitError> {
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(SplitError("unterminated double quote".into())),
                Some('"') => {
                    self.pos += 1;
                    return Ok(text);
                }
                Some('\\') => {
                    match self.peek_at(1) {
                        Some('\n') => {}
                        Some(c @ ('$' | '`' | '"' | '\\')) => text.push(c),
                        Some(c) => {
                            text.push('\\');
                            text.push(c);
                        }
                        None => return Err(SplitError("unterminated double quote".into())),
                    }
                    self.pos += 2;
                }
                Some('$') if self.peek_at(1) == Some('(') => text.push_str(&self.substitution(2)?),
                Some('`') => text.push_str(&self.backticks()?),
                Some(c) => {
                    text.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// At `$(`, `<(` or `>(` (`open` characters long): splits the inside and
    /// returns its source text.
    fn substitution(&mut self, open: usize) -> Result<String, SplitError> {
        if self.depth >= MAX_DEPTH {
            return Err(SplitError(format!("substitutions nested more than {MAX_DEPTH} deep")));
        }
        let start = self.pos;
        self.pos += open;
        self.depth += 1;
        let result = self.list(Until::Paren);
        self.depth -= 1;
        result?;
        Ok(self.source(start))
    }

    /// At a backtick: the inside, unescaped as bash does (`` \` ``, `\$`,
    /// `\\`), is split as a command line of its own.
    fn backticks(&mut self) -> Result<String, SplitError> {
        let start = self.pos;
        self.pos += 1;
        let mut inner = String::new();
        loop {
            match self.peek() {
                None => return Err(SplitError("unterminated backtick".into())),
                Some('`') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') => {
                    match self.peek_at(1) {
                        Some(c @ ('`' | '$' | '\\')) => inner.push(c),
                        Some(c) => {
                            inner.push('\\');
                            inner.push(c);
                        }
                        None => return Err(SplitError("unterminated backtick".into())),
                    }
                    self.pos += 2;
                }
                Some(c) => {
                    inner.push(c);
                    self.pos += 1;
                }
            }
        }
        let nested = split_nested(&inner, self.depth + 1, &mut self.pipelines)?;
        self.out.extend(nested);
        Ok(self.source(start))
    }

    /// At the `(` of `name=(…)`: the literal up to its `)`, quotes respected.
    fn array_literal(&mut self) -> Result<String, SplitError> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.peek() {
                None => return Err(SplitError("unterminated array assignment: missing `)`".into())),
                Some(')') => {
                    self.pos += 1;
                    return Ok(self.source(start));
                }
                Some('\'') => {
                    self.pos += 1;
                    self.single_quoted()?;
                }
                Some('"') => {
                    self.pos += 1;
                    self.double_quoted()?;
                }
                Some('\\') => self.pos += 2,
                Some('$') if self.peek_at(1) == Some('(') => {
                    self.substitution(2)?;
                }
                Some('`') => {
                    self.backticks()?;
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// Skips a here-document body (after the newline that ends its command);
    /// an unquoted delimiter means the body's substitutions run, so they are split.
    fn heredoc_body(&mut self, heredoc: &Heredoc) -> Result<(), SplitError> {
        let mut body = String::new();
        while self.peek().is_some() {
            let line_start = self.pos;
            while self.peek().is_some_and(|c| c != '\n') {
                self.pos += 1;
            }
            let line = self.source(line_start);
            if self.peek() == Some('\n') {
                self.pos += 1;
            }
            let compared = if heredoc.strip_tabs { line.trim_start_matches('\t') } else { line.as_str() };
            if compared == heredoc.delimiter {
                break;
            }
            body.push_str(&line);
            body.push('\n');
        }
        if heredoc.expands {
            let mut scanner = Parser {
                chars: body.chars().collect(),
                pos: 0,
                out: Vec::new(),
                pipelines: self.pipelines,
                depth: self.depth,
            };
            scanner.expansions()?;
            self.pipelines = scanner.pipelines;
            self.out.extend(scanner.out);
        }
        Ok(())
    }

    /// Splits the substitutions in text that is otherwise literal (a here-document body).
    fn expansions(&mut self) -> Result<(), SplitError> {
        while let Some(c) = self.peek() {
            match c {
                '\\' => self.pos += 2,
                '$' if self.peek_at(1) == Some('(') => {
                    self.substitution(2)?;
                }
                '`' => {
                    self.backticks()?;
                }
                _ => self.pos += 1,
            }
        }
        Ok(())
    }
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
        assert_eq!(texts("(cd x && make) ; { y; }"), ["cd x", "make", "{ y", "}"]);
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
        assert_eq!(texts("echo $((1 + 2))"), ["1 + 2", "echo $((1 + 2))"]);
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
        assert_eq!(texts(line), ["cat", "whoami", "echo after"]);
        let quoted = "cat <<'EOF'\n$(sudo x)\nEOF\nls";
        assert_eq!(texts(quoted), ["cat", "ls"]);
        let tabs = "cat <<-END\n\tbody\n\tEND\nls";
        assert_eq!(texts(tabs), ["cat", "ls"]);
    }

    #[test]
    fn arrays_and_functions() {
        assert_eq!(texts("a=(x y 'z w'); echo ${a[@]}"), ["a=(x y 'z w')", "echo ${a[@]}"]);
        assert_eq!(texts("f() { sudo x; }; f"), ["f", "{ sudo x", "}", "f"]);
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
}
