//! `cargo xtask tidy`: the documentation still matches the repository.
//!
//! In `README.md`, `ARCHITECTURE.md` and `docs/**/*.md` (fenced code blocks
//! left out):
//!
//! - a backticked repository path must exist: a word of a code span whose
//!   first component is a top-level entry of the repository (`crates/…`,
//!   `plugins/…`, `docs/…`, …; `target/` is a build output, not a source)
//!   or a root file (`Cargo.toml`, `ARCHITECTURE.md`). Placeholders end the
//!   checked part (`plugins/<name>/amplifier.toml` checks `plugins`), and
//!   paths elsewhere (`$AMPLIFIER_HOME/…`, `~/…`, `../…`) are not checked;
//! - a relative Markdown link must lead to an existing file, and its
//!   `#anchor`, if any, to a heading of that file (GitHub's slugs);
//! - the generated reference (`docs/reference/`) must be what `cargo xtask
//!   docs` writes now: regenerated in memory and compared.
//!
//! Every problem is one line, `file:line: message`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::docs;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// Relative to the repository root.
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}

/// Root files a code span may name without a `/`. Other bare file names
/// are left alone: `AGENTS.md` or `plan.yaml` in the docs are the user's.
const ROOT_FILES: &[&str] = &[
    "ARCHITECTURE.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "Cargo.lock",
    "Cargo.toml",
    "README.md",
    "clippy.toml",
    "deny.toml",
    "rust-toolchain.toml",
    "rustfmt.toml",
];

/// The Markdown files tidy reads, relative to the root, sorted.
pub fn checked_files(root: &Path) -> docs::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for top in ["README.md", "ARCHITECTURE.md"] {
        if root.join(top).is_file() {
            files.push(PathBuf::from(top));
        }
    }
    for file in docs::markdown_files(&root.join("docs"))? {
        files.push(file.strip_prefix(root)?.to_owned());
    }
    Ok(files)
}

/// Every problem of the documentation under `root`; `generated` is what
/// `cargo xtask docs` would write.
pub fn check(root: &Path, generated: &BTreeMap<PathBuf, String>) -> docs::Result<Vec<Problem>> {
    let repo = Repo::new(root)?;
    let mut problems = Vec::new();
    for file in checked_files(root)? {
        let text = std::fs::read_to_string(root.join(&file))?;
        problems.extend(repo.check_paths(&file, &text));
        problems.extend(repo.check_links(&file, &text));
    }
    problems.extend(check_generated(root, generated)?);
    problems.sort();
    Ok(problems)
}

/// The generated pages against the files: missing, different (at the first
/// differing line) or no longer generated.
pub fn check_generated(root: &Path, generated: &BTreeMap<PathBuf, String>) -> docs::Result<Vec<Problem>> {
    let mut problems = Vec::new();
    let hint = "run `cargo xtask docs`";
    for (path, expected) in generated {
        match std::fs::read_to_string(root.join(path)) {
            Err(_) => problems.push(Problem {
                file: path.clone(),
                line: 1,
                message: format!("generated page missing; {hint}"),
            }),
            Ok(actual) if actual != *expected => {
                let mut actual_lines = actual.lines();
                let mut line = 1;
                for expected_line in expected.lines() {
                    if actual_lines.next() != Some(expected_line) {
                        break;
                    }
                    line += 1;
                }
                problems.push(Problem {
                    file: path.clone(),
                    line,
                    message: format!("generated page is stale from this line on; {hint}"),
                });
            }
            Ok(_) => {}
        }
    }
    for file in docs::markdown_files(&root.join(docs::REFERENCE_DIR))? {
        let relative = file.strip_prefix(root)?.to_owned();
        if !generated.contains_key(&relative) {
            problems.push(Problem {
                file: relative,
                line: 1,
                message: format!("not generated (its source is gone?); {hint} removes it"),
            });
        }
    }
    Ok(problems)
}

/// What the checks need to know of the repository.
struct Repo {
    root: PathBuf,
    /// Top-level directories a path may start with.
    top_dirs: BTreeSet<String>,
}

impl Repo {
    fn new(root: &Path) -> docs::Result<Repo> {
        let mut top_dirs = BTreeSet::new();
        for entry in std::fs::read_dir(root)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() && name != "target" && name != ".git" {
                top_dirs.insert(name);
            }
        }
        Ok(Repo { root: root.to_owned(), top_dirs })
    }

    /// (a) Backticked repository paths that do not exist.
    fn check_paths(&self, file: &Path, text: &str) -> Vec<Problem> {
        let masked = mask_fences(text);
        let mut problems = Vec::new();
        for span in code_spans(&masked) {
            for word in span.content.split_whitespace() {
                let Some(path) = self.repo_path(word) else { continue };
                if !self.root.join(&path).exists() {
                    let mut message = format!("`{path}` does not exist");
                    if span.content.trim() != path {
                        message.push_str(&format!(" (in `{}`)", span.content.trim()));
                    }
                    problems.push(Problem { file: file.to_owned(), line: line_of(&masked, span.start), message });
                }
            }
        }
        problems
    }

    /// The part of `word` to check if it names something in the repository.
    fn repo_path(&self, word: &str) -> Option<String> {
        let word = word.trim_start_matches(['"', '\'', '(']);
        let word = word.trim_end_matches(['"', '\'', ',', ';', ':', ')', '.']);
        // `KEY=path`, `--plan=path`
        let word = word.rsplit('=').next().unwrap_or(word);
        let word = word.strip_prefix("./").unwrap_or(word);
        let word = strip_line_suffix(word);
        if !word.contains('/') {
            return ROOT_FILES.contains(&word).then(|| word.to_owned());
        }
        let mut components = word.split('/').filter(|c| !c.is_empty());
        let first = components.next()?;
        if !self.top_dirs.contains(first) {
            return None;
        }
        let mut path = first.to_owned();
        for component in components {
            if is_placeholder(component) && !self.root.join(&path).join(component).exists() {
                break;
            }
            path.push('/');
            path.push_str(component);
        }
        Some(path)
    }

    /// (b) Relative links whose file or anchor does not exist.
    fn check_links(&self, file: &Path, text: &str) -> Vec<Problem> {
        let masked = mask_code(&mask_fences(text));
        let mut problems = Vec::new();
        for link in links(&masked) {
            let target = link.target.as_str();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target, None),
            };
            let resolved = if path.is_empty() {
                file.to_owned()
            } else if let Some(from_root) = path.strip_prefix('/') {
                PathBuf::from(from_root)
            } else {
                normalize(&file.parent().unwrap_or(Path::new("")).join(path))
            };
            let line = line_of(&masked, link.start);
            let problem = |message: String| Problem { file: file.to_owned(), line, message };
            if resolved.starts_with("..") || !self.root.join(&resolved).exists() {
                problems.push(problem(format!("link to `{target}`: {} does not exist", resolved.display())));
                continue;
            }
            let Some(anchor) = anchor.filter(|a| !a.is_empty()) else { continue };
            if resolved.extension().is_none_or(|ext| ext != "md") {
                continue;
            }
            let Ok(target_text) = std::fs::read_to_string(self.root.join(&resolved)) else { continue };
            if !anchors(&target_text).contains(anchor) {
                problems.push(problem(format!("link to `{target}`: no heading `#{anchor}` in {}", resolved.display())));
            }
        }
        problems
    }
}

/// A path component that stands for something: `<name>`, `{thread}`, `*`,
/// `…`, `$VAR`, an all-caps word (`PATH`, `NAME`).
fn is_placeholder(component: &str) -> bool {
    component.contains(['<', '>', '{', '}', '*', '?', '[', ']', '…', '$', '%'])
        || component == "..."
        || (component.len() > 1 && component.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit()))
}

/// `file.rs:12` and `file.rs:12:5` name the file.
fn strip_line_suffix(word: &str) -> &str {
    let mut word = word;
    for _ in 0..2 {
        match word.rsplit_once(':') {
            Some((path, number)) if !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) => word = path,
            _ => break,
        }
    }
    word
}

/// `a/./b/../c` as `a/c`; a path that climbs out of the root keeps a leading `..`.
fn normalize(path: &Path) -> PathBuf {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    let mut above = 0;
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if parts.pop().is_none() {
                    above += 1;
                }
            }
            other => parts.push(other.as_os_str()),
        }
    }
    let mut normal = PathBuf::new();
    for _ in 0..above {
        normal.push("..");
    }
    normal.extend(parts);
    normal
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The text with fenced code blocks blanked (line breaks kept, so offsets
/// and line numbers stay).
pub fn mask_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<(char, usize)> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |m| trimmed.chars().take_while(|c| *c == m).count());
        let inside = match (fence, marker) {
            (None, Some(m)) if indent <= 3 && run >= 3 && !(m == '`' && trimmed[run..].contains('`')) => {
                fence = Some((m, run));
                true
            }
            (Some((m, n)), Some(c)) if c == m && run >= n && trimmed[run..].trim().is_empty() => {
                fence = None;
                true
            }
            (Some(_), _) => true,
            (None, _) => false,
        };
        if inside {
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// A code span: where its opening backticks start, and its content.
#[derive(Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    /// Just after its closing backticks.
    pub end: usize,
    pub content: String,
}

/// CommonMark code spans: a run of N backticks up to the next run of
/// exactly N, within a paragraph (not across a blank line). An unmatched
/// run is literal text.
pub fn code_spans(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let start = i;
        let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
        let open_end = start + run;
        let paragraph_end = text[open_end..].find("\n\n").map_or(text.len(), |p| open_end + p);
        let mut j = open_end;
        let mut close = None;
        while j < paragraph_end {
            if bytes[j] == b'`' {
                let n = bytes[j..paragraph_end].iter().take_while(|&&b| b == b'`').count();
                if n == run {
                    close = Some(j);
                    break;
                }
                j += n;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                let raw = text[open_end..end].replace('\n', " ");
                let content = match raw.strip_prefix(' ').and_then(|r| r.strip_suffix(' ')) {
                    Some(inner) if !inner.trim().is_empty() => inner.to_owned(),
                    _ => raw,
                };
                spans.push(Span { start, end: end + run, content });
                i = end + run;
            }
            None => i = open_end,
        }
    }
    spans
}

/// The text with code spans blanked, so links are looked for in prose only.
fn mask_code(text: &str) -> String {
    let mut out = text.to_owned().into_bytes();
    for span in code_spans(text) {
        for byte in &mut out[span.start..span.end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    // Spans start and end at backticks, so whole characters became spaces.
    String::from_utf8(out).unwrap_or_default()
}

/// A link's target and where its `](` or `]:` is.
#[derive(Debug, PartialEq, Eq)]
pub struct Link {
    pub start: usize,
    pub target: String,
}

/// Inline links and images `[text](target "title")` and reference
/// definitions `[label]: target`.
pub fn links(text: &str) -> Vec<Link> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(p) = text[from..].find("](") {
        let start = from + p;
        let rest = &text[start + 2..];
        let mut depth = 0usize;
        let mut end = None;
        for (k, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(k);
                    break;
                }
                ')' => depth -= 1,
                '\n' => break,
                _ => {}
            }
        }
        if let Some(end) = end {
            let inner = rest[..end].trim();
            let target = match inner.strip_prefix('<') {
                Some(angled) => angled.split('>').next().unwrap_or_default(),
                None => inner.split_whitespace().next().unwrap_or_default(),
            };
            found.push(Link { start, target: target.to_owned() });
        }
        from = start + 2;
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('[') {
            if let Some((label, target)) = rest.split_once("]:") {
                if !label.is_empty() && !label.contains(']') {
                    let target = target.split_whitespace().next().unwrap_or_default();
                    let target = target.trim_start_matches('<').trim_end_matches('>');
                    found.push(Link { start: offset + (line.len() - trimmed.len()), target: target.to_owned() });
                }
            }
        }
        offset += line.len();
    }
    found.sort_by_key(|link| link.start);
    found
}

/// The anchors of a Markdown file: its headings' GitHub slugs (repeats get
/// `-1`, `-2`, …) and explicit `<a id="…">`/`name="…"` anchors.
pub fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut found = BTreeSet::new();
    let masked = mask_fences(text);
    for line in masked.lines() {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && line.len() - trimmed.len() <= 3 {
            let rest = &trimmed[hashes..];
            if rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t') {
                let title = rest.trim().trim_end_matches('#').trim_end();
                let slug = slug(title);
                let count = seen.entry(slug.clone()).or_insert(0);
                found.insert(if *count == 0 { slug.clone() } else { format!("{slug}-{count}") });
                *count += 1;
            }
        }
        for attribute in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(p) = rest.find(attribute) {
                rest = &rest[p + attribute.len()..];
                if let Some(end) = rest.find('"') {
                    found.insert(rest[..end].to_owned());
                }
            }
        }
    }
    found
}

/// GitHub's heading slug: lower case, letters, digits, `-` and `_` kept,
/// spaces as `-`, everything else dropped. Link targets in a heading count
/// by their text only.
pub fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // [text](target) → text
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").and_then(|mid| rest[open + mid..].find(')').map(|close| (mid, close))) {
            Some((mid, close)) => {
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..open + mid]);
                rest = &rest[open + mid + close + 1..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small repository: `crates/real.rs`, `docs/user/guide.md`.
    fn repo(readme: &str) -> (tempfile::TempDir, Vec<Problem>) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("crates/kernel/src")).unwrap();
        std::fs::write(root.join("crates/kernel/src/lib.rs"), "").unwrap();
        std::fs::create_dir_all(root.join("docs/user")).unwrap();
        std::fs::write(
            root.join("docs/user/guide.md"),
            "# Guide\n\n## Where module code comes from\n\nSee `crates/kernel`.\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("target/debug")).unwrap();
        std::fs::write(root.join("Cargo.toml"), "").unwrap();
        std::fs::write(root.join("README.md"), readme).unwrap();
        let problems = check(root, &BTreeMap::new()).unwrap();
        (dir, problems)
    }

    fn messages(problems: &[Problem]) -> Vec<String> {
        problems.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn existing_paths_and_links_pass() {
        let (_dir, problems) = repo(
            "# Title\n\nThe kernel is `crates/kernel/src/lib.rs:12` (`crates/kernel/`), built by `Cargo.toml`;\n\
             run `cargo test --manifest-path=crates/kernel/src/lib.rs`.\n\
             See [the guide](docs/user/guide.md#where-module-code-comes-from), [below](#title) and\n\
             [upstream](https://example.com/x/y.md).\n",
        );
        assert_eq!(messages(&problems), Vec::<String>::new());
    }

    #[test]
    fn a_stale_path_is_caught_with_its_line() {
        let (_dir, problems) =
            repo("# Title\n\nfine\n\nThe loop is in\n`crates/agent-loop/src/lib.rs`, see `ARCHITECTURE.md`.\n");
        assert_eq!(
            messages(&problems),
            [
                "README.md:6: `ARCHITECTURE.md` does not exist",
                "README.md:6: `crates/agent-loop/src/lib.rs` does not exist",
            ]
        );
    }

    #[test]
    fn a_stale_path_inside_a_command_is_caught() {
        let (_dir, problems) = repo("Run `amplifier run --plan crates/gone.yaml \"hi\"`.\n");
        assert_eq!(
            messages(&problems),
            ["README.md:1: `crates/gone.yaml` does not exist (in `amplifier run --plan crates/gone.yaml \"hi\"`)"]
        );
    }

    #[test]
    fn placeholders_and_paths_outside_the_repository_are_not_checked() {
        let (_dir, problems) = repo(
            "`$AMPLIFIER_HOME/runs/<threadId>/state.json`, `~/.amplifier/cache/plugins/`, `../plugins/tool-echo`,\n\
             `crates/<name>/Cargo.toml`, `crates/kernel/src/*.rs`, `crates/NAME/src`, `target/llm/venv`,\n\
             `locks/<id>.lock`, `http://127.0.0.1:8787/v1/runs`, `tool:pre`, `amplifier_sdk::events`, `a/b`,\n\
             `AGENTS.md`, `plan.yaml`.\n",
        );
        assert_eq!(messages(&problems), Vec::<String>::new());
    }

    #[test]
    fn a_placeholder_does_not_hide_a_stale_directory() {
        let (_dir, problems) = repo("`crates/gone/<name>.rs`\n");
        assert_eq!(messages(&problems), ["README.md:1: `crates/gone` does not exist (in `crates/gone/<name>.rs`)"]);
    }

    #[test]
    fn fenced_code_is_not_checked_but_what_follows_it_is() {
        let (_dir, problems) = repo("```sh\ncat `crates/nothing.rs`\n[x](nowhere.md)\n```\n\n`crates/missing.rs`\n");
        assert_eq!(messages(&problems), ["README.md:6: `crates/missing.rs` does not exist"]);
    }

    #[test]
    fn broken_links_and_anchors_are_caught() {
        let (_dir, problems) = repo(
            "# Title\n\n[a](docs/user/missing.md) [b](docs/user/guide.md#no-such-heading)\n\
             [c](#nowhere) ![d](docs/img.png)\n\n[ref]: docs/gone.md\n`[not a link](x.md)`\n",
        );
        assert_eq!(
            messages(&problems),
            [
                "README.md:3: link to `docs/user/guide.md#no-such-heading`: no heading `#no-such-heading` in docs/user/guide.md",
                "README.md:3: link to `docs/user/missing.md`: docs/user/missing.md does not exist",
                "README.md:4: link to `#nowhere`: no heading `#nowhere` in README.md",
                "README.md:4: link to `docs/img.png`: docs/img.png does not exist",
                "README.md:6: link to `docs/gone.md`: docs/gone.md does not exist",
            ]
        );
    }

    #[test]
    fn links_resolve_from_the_file_s_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("docs/user")).unwrap();
        std::fs::create_dir_all(root.join("docs/dev")).unwrap();
        std::fs::write(root.join("README.md"), "# R\n").unwrap();
        std::fs::write(root.join("docs/dev/testing.md"), "# Testing\n").unwrap();
        std::fs::write(
            root.join("docs/user/guide.md"),
            "[ok](../dev/testing.md#testing) [ok](../../README.md#r) [bad](testing.md) [out](../../../x.md)\n",
        )
        .unwrap();
        assert_eq!(
            messages(&check(root, &BTreeMap::new()).unwrap()),
            [
                "docs/user/guide.md:1: link to `../../../x.md`: ../x.md does not exist",
                "docs/user/guide.md:1: link to `testing.md`: docs/user/testing.md does not exist",
            ]
        );
    }

    #[test]
    fn stale_missing_and_extra_generated_pages_are_caught() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("docs/reference/modules")).unwrap();
        std::fs::write(root.join("docs/reference/cli.md"), "# CLI\n\nold line\nsame\n").unwrap();
        std::fs::write(root.join("docs/reference/modules/gone.md"), "# gone\n").unwrap();
        std::fs::write(root.join("docs/reference/events.md"), "# Events\n").unwrap();
        let generated: BTreeMap<PathBuf, String> = [
            ("docs/reference/cli.md", "# CLI\n\nnew line\nsame\n"),
            ("docs/reference/events.md", "# Events\n"),
            ("docs/reference/README.md", "# Reference\n"),
        ]
        .into_iter()
        .map(|(path, text)| (PathBuf::from(path), text.to_owned()))
        .collect();
        assert_eq!(
            messages(&check(root, &generated).unwrap()),
            [
                "docs/reference/README.md:1: generated page missing; run `cargo xtask docs`",
                "docs/reference/cli.md:3: generated page is stale from this line on; run `cargo xtask docs`",
                "docs/reference/modules/gone.md:1: not generated (its source is gone?); run `cargo xtask docs` removes it",
            ]
        );
        // `docs` brings them up to date, and then tidy is content.
        docs::write(root, &generated).unwrap();
        assert_eq!(messages(&check(root, &generated).unwrap()), Vec::<String>::new());
    }

    #[test]
    fn code_spans_follow_commonmark() {
        let spans = code_spans("a `one` b ``two ` inside`` c `unclosed\n\nd `x\ny` \\`escaped`");
        let contents: Vec<&str> = spans.iter().map(|s| s.content.as_str()).collect();
        assert_eq!(contents, ["one", "two ` inside", "x y"]);
    }

    #[test]
    fn slugs_are_github_s() {
        assert_eq!(slug("Talking to an agent (REPL)"), "talking-to-an-agent-repl");
        assert_eq!(
            slug("Where the protocol's document and its reference code disagree"),
            "where-the-protocols-document-and-its-reference-code-disagree"
        );
        assert_eq!(slug("`tool-bash`: the shell"), "tool-bash-the-shell");
        assert_eq!(slug("Retries, errors and events"), "retries-errors-and-events");
        let anchors = anchors("# A\n## A\n```\n# not a heading\n```\n<a id=\"custom\"></a>\n");
        assert_eq!(anchors.into_iter().collect::<Vec<_>>(), ["a", "a-1", "custom"]);
    }
}
