//! `glob` and `grep`: walks that respect `.gitignore`, skip hidden files, never
//! follow symlinks out of the searched root, and prune denied paths.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use ignore::{Walk, WalkBuilder};
use serde::Deserialize;

use crate::beneath;
use crate::files::{looks_binary, BINARY_SNIFF_BYTES};
use crate::policy::{has_other_links, Access, Checked, Policy, ToolError};

/// Most paths `glob` returns.
pub const MAX_GLOB_RESULTS: usize = 1000;
/// Default `max_results` of `grep`.
pub const DEFAULT_GREP_RESULTS: u64 = 200;
/// Longer matching lines are cut in `grep` output.
pub const MAX_GREP_LINE_CHARS: usize = 500;

#[derive(Debug, Deserialize)]
pub struct GlobInput {
    pub pattern: String,
    #[serde(default)]
    pub path: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct GrepInput {
    pub pattern: String,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub glob: Option<String>,
    #[serde(default)]
    pub case_insensitive: bool,
    #[serde(default)]
    pub max_results: Option<u64>,
}

/// A walk of `root` (a checked, existing path) with the standard filters:
/// `.gitignore` (even outside a git repository), `.ignore`, hidden files;
/// symlinks are not followed and denied paths are pruned.
fn walk(policy: &Policy, root: &Path) -> Walk {
    let denied = policy.denied.clone();
    WalkBuilder::new(root)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| !denied.iter().any(|d| entry.path().starts_with(d)))
        .build()
}

fn checked_dir(policy: &Policy, raw: Option<String>) -> Result<Checked, ToolError> {
    // An empty path is the default, as a model that fills every field writes it.
    let raw = raw.filter(|path| !path.is_empty()).unwrap_or_else(|| ".".to_owned());
    let checked = policy.check(&raw, Access::Read)?;
    if !checked.exists {
        return Err(ToolError::new("NotFound", format!("`{}` does not exist", checked.shown)));
    }
    Ok(checked)
}

fn glob_matcher(pattern: &str, what: &str) -> Result<GlobMatcher, ToolError> {
    if Path::new(pattern).is_absolute() || Path::new(pattern).components().any(|c| c == Component::ParentDir) {
        return Err(ToolError::invalid(format!(
            "{what} `{pattern}` must be relative to the searched directory, without `..`; pass the directory as `path`"
        )));
    }
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|glob| glob.compile_matcher())
        .map_err(|err| ToolError::invalid(format!("{what} `{pattern}` is not a valid glob: {err}")))
}

/// What to try after a search found nothing, for a model that searched
/// for a file's name, a phrase, or in too small a place.
fn no_match_hint(policy: &Policy, input: &GrepInput, checked: &Checked) -> String {
    let pattern = input.pattern.as_str();
    let in_searched = checked.path.join(pattern);
    let file = [policy.check(pattern, Access::Read).ok().map(|c| c.path), Some(in_searched)]
        .into_iter()
        .flatten()
        .find(|path| path.is_file() && policy.check(&path.display().to_string(), Access::Read).is_ok());
    if let Some(file) = file {
        return format!("; grep searches inside files: to read `{}`, call read_file", policy.display(&file));
    }
    let mut tries = Vec::new();
    if pattern.contains(' ') {
        tries.push("one word of it");
    }
    if !input.case_insensitive {
        tries.push("case_insensitive: true");
    }
    if checked.path != policy.working_dir {
        tries.push("path `.` (the whole working directory)");
    }
    match tries.is_empty() {
        true => String::new(),
        false => format!("; try {}", tries.join(", or ")),
    }
}

/// `glob`: files under `path` whose path relative to it matches `pattern`
/// (`*` stays within a directory, `**` crosses them), sorted, capped.
pub fn glob(policy: &Policy, input: GlobInput) -> Result<String, ToolError> {
    let matcher = glob_matcher(input.pattern.trim_start_matches("./"), "the pattern")?;
    let checked = checked_dir(policy, input.path)?;
    if !checked.path.is_dir() {
        return Err(ToolError::invalid(format!("`{}` is not a directory", checked.shown)));
    }
    let mut found: Vec<PathBuf> = walk(policy, &checked.path)
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_some_and(|t| !t.is_dir()))
        .filter(|entry| entry.path().strip_prefix(&checked.path).is_ok_and(|rel| matcher.is_match(rel)))
        .map(ignore::DirEntry::into_path)
        .collect();
    if found.is_empty() {
        let hint = if input.pattern.contains('/') { "" } else { "; `**/NAME` finds NAME at any depth" };
        return Ok(format!("[no files under `{}` match `{}`{hint}]", checked.shown, input.pattern));
    }
    found.sort();
    let total = found.len();
    let mut out: String = found.iter().take(MAX_GLOB_RESULTS).map(|p| policy.display(p) + "\n").collect();
    if total > MAX_GLOB_RESULTS {
        let _ = write!(out, "[output cut: {MAX_GLOB_RESULTS} of {total} files shown; narrow the pattern or the path]");
    } else {
        out.pop();
    }
    Ok(out)
}

/// Collects the matching lines of one file; gives up on binary data.
struct Collect {
    lines: Vec<(u64, String)>,
    room: usize,
    binary: bool,
}

impl Sink for Collect {
    type Error = io::Error;

    fn matched(&mut self, _searcher: &Searcher, found: &SinkMatch<'_>) -> Result<bool, io::Error> {
        let text = String::from_utf8_lossy(found.bytes());
        let text = text.trim_end_matches(['\n', '\r']);
        let text = match text.char_indices().nth(MAX_GREP_LINE_CHARS) {
            Some((at, _)) => format!("{}… [line cut]", &text[..at]),
            None => text.to_owned(),
        };
        self.lines.push((found.line_number().unwrap_or(0), text));
        Ok(self.lines.len() < self.room)
    }

    fn binary_data(&mut self, _searcher: &Searcher, _offset: u64) -> Result<bool, io::Error> {
        self.binary = true;
        Ok(false)
    }
}

/// Whether a file starts like a binary file (or can't be read); reads
/// without moving the file's position.
fn starts_binary(file: &fs::File) -> bool {
    use std::os::unix::fs::FileExt;
    let mut head = vec![0; BINARY_SNIFF_BYTES];
    match file.read_at(&mut head, 0) {
        Ok(n) => looks_binary(&head[..n]),
        Err(_) => true,
    }
}

/// `grep`: `path:line:text` for each line matching the regex `pattern` in
/// the text files under `path` (or in the file `path`), capped at `max_results`.
pub fn grep(policy: &Policy, input: GrepInput) -> Result<String, ToolError> {
    let matcher = RegexMatcherBuilder::new()
        .case_insensitive(input.case_insensitive)
        .line_terminator(Some(b'\n'))
        .build(&input.pattern)
        .map_err(|err| ToolError::invalid(format!("`{}` is not a valid regex: {err}", input.pattern)))?;
    let file_filter = match input.glob.as_ref().filter(|glob| !glob.is_empty()) {
        Some(glob) => Some((glob_matcher(glob.trim_start_matches("./"), "the glob")?, glob.contains('/'))),
        None => None,
    };
    let checked = checked_dir(policy, input.path.clone())?;
    let max_results = usize::try_from(input.max_results.unwrap_or(DEFAULT_GREP_RESULTS).max(1)).unwrap_or(usize::MAX);
    let mut searcher = SearcherBuilder::new().line_number(true).binary_detection(BinaryDetection::quit(b'\0')).build();
    let mut results: Vec<String> = Vec::new();
    let mut cut = false;
    for entry in walk(policy, &checked.path).filter_map(Result::ok) {
        // Regular files only: a symlink is not followed (its target may lie outside).
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if entry.metadata().map_or(true, |meta| has_other_links(&meta)) {
            continue;
        }
        let path = entry.path();
        if let Some((glob, by_path)) = &file_filter {
            let subject = if *by_path { path.strip_prefix(&checked.path).unwrap_or(path) } else { file_name(path) };
            if !glob.is_match(subject) {
                continue;
            }
        }
        // The file the walk found, or none: a link swapped in since is refused.
        let Ok(file) = beneath::open_read(path) else { continue };
        if file.metadata().map_or(true, |meta| !meta.is_file() || has_other_links(&meta)) || starts_binary(&file) {
            continue;
        }
        let room = max_results + 1 - results.len();
        let mut sink = Collect { lines: Vec::new(), room, binary: false };
        if searcher.search_file(&matcher, &file, &mut sink).is_err() || sink.binary {
            continue;
        }
        let shown = policy.display(path);
        results.extend(sink.lines.into_iter().map(|(line, text)| format!("{shown}:{line}:{text}")));
        if results.len() > max_results {
            results.truncate(max_results);
            cut = true;
            break;
        }
    }
    if results.is_empty() {
        return Ok(format!(
            "[no matches for `{}` under `{}`{}]",
            input.pattern,
            checked.shown,
            no_match_hint(policy, &input, &checked)
        ));
    }
    let mut out = results.join("\n");
    if cut {
        let _ = write!(out, "\n[output cut at {max_results} matches; narrow the pattern, the path or the glob]");
    }
    Ok(out)
}

fn file_name(path: &Path) -> &Path {
    path.file_name().map(Path::new).unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Config;

    struct Fixture {
        _dir: tempfile::TempDir,
        root: PathBuf,
        policy: Policy,
    }

    /// A tree with a `.gitignore` (no git repository around it).
    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        for (path, content) in [
            (".gitignore", "target/\n*.log\n"),
            ("src/main.rs", "fn main() {\n    println!(\"Hello\");\n}\n"),
            ("src/lib.rs", "pub fn hello() -> &'static str {\n    \"hello\"\n}\n"),
            ("src/nested/deep.rs", "// HELLO from deep\n"),
            ("README.md", "# hello\n"),
            ("target/debug/out.rs", "fn hello() {}\n"),
            ("build.log", "hello log\n"),
            (".hidden/secret.rs", "hello hidden\n"),
        ] {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, content).unwrap();
        }
        fs::write(root.join("src/blob.bin"), b"hello\0binary").unwrap();
        let policy = Policy::rooted(&root);
        Fixture { _dir: dir, root, policy }
    }

    fn globbed(policy: &Policy, pattern: &str, path: Option<&str>) -> String {
        glob(policy, GlobInput { pattern: pattern.into(), path: path.map(Into::into) }).unwrap()
    }

    fn grepped(policy: &Policy, pattern: &str, f: impl FnOnce(&mut GrepInput)) -> Result<String, ToolError> {
        let mut input =
            GrepInput { pattern: pattern.into(), path: None, glob: None, case_insensitive: false, max_results: None };
        f(&mut input);
        grep(policy, input)
    }

    #[test]
    fn glob_respects_gitignore_without_a_git_repo() {
        let f = fixture();
        assert_eq!(globbed(&f.policy, "**/*.rs", None), "src/lib.rs\nsrc/main.rs\nsrc/nested/deep.rs");
        assert_eq!(
            globbed(&f.policy, "*.log", None),
            "[no files under `.` match `*.log`; `**/NAME` finds NAME at any depth]"
        );
        assert_eq!(globbed(&f.policy, "*", None), "README.md");
        assert_eq!(globbed(&f.policy, "src/*.rs", None), "src/lib.rs\nsrc/main.rs");
        assert_eq!(globbed(&f.policy, "*.rs", Some("src")), "src/lib.rs\nsrc/main.rs");
        assert_eq!(globbed(&f.policy, "./src/**/deep.rs", None), "src/nested/deep.rs");
    }

    #[test]
    fn glob_refuses_escapes_and_bad_patterns() {
        let f = fixture();
        let err = glob(&f.policy, GlobInput { pattern: "*".into(), path: Some("..".into()) }).unwrap_err();
        assert!(err.message.contains("outside the allowed read paths"), "{err}");
        let err = glob(&f.policy, GlobInput { pattern: "../*".into(), path: None }).unwrap_err();
        assert!(err.message.contains("without `..`"), "{err}");
        let err = glob(&f.policy, GlobInput { pattern: "/etc/*".into(), path: None }).unwrap_err();
        assert_eq!(err.kind, "InvalidInput");
        let err = glob(&f.policy, GlobInput { pattern: "a[".into(), path: None }).unwrap_err();
        assert!(err.message.contains("not a valid glob"), "{err}");
        let err = glob(&f.policy, GlobInput { pattern: "*".into(), path: Some("README.md".into()) }).unwrap_err();
        assert!(err.message.contains("not a directory"), "{err}");
    }

    #[test]
    fn glob_is_capped_and_says_so() {
        let f = fixture();
        fs::create_dir(f.root.join("many")).unwrap();
        for i in 0..(MAX_GLOB_RESULTS + 3) {
            fs::write(f.root.join(format!("many/{i:05}.txt")), "").unwrap();
        }
        let out = globbed(&f.policy, "many/*.txt", None);
        assert_eq!(out.lines().count(), MAX_GLOB_RESULTS + 1);
        assert!(out.starts_with("many/00000.txt\n"));
        assert!(out.ends_with("[output cut: 1000 of 1003 files shown; narrow the pattern or the path]"));
    }

    #[test]
    fn grep_respects_gitignore_and_skips_binary_and_hidden_files() {
        let f = fixture();
        assert_eq!(
            grepped(&f.policy, "hello", |_| {}).unwrap(),
            "README.md:1:# hello\nsrc/lib.rs:1:pub fn hello() -> &'static str {\nsrc/lib.rs:2:    \"hello\""
        );
        assert_eq!(
            grepped(&f.policy, r"hel+o\b", |i| i.case_insensitive = true).unwrap(),
            "README.md:1:# hello\nsrc/lib.rs:1:pub fn hello() -> &'static str {\nsrc/lib.rs:2:    \"hello\"\n\
             src/main.rs:2:    println!(\"Hello\");\nsrc/nested/deep.rs:1:// HELLO from deep"
        );
    }

    #[test]
    fn grep_filters_by_glob_and_path() {
        let f = fixture();
        let out = grepped(&f.policy, "(?i)hello", |i| i.glob = Some("*.rs".into())).unwrap();
        assert_eq!(out.lines().count(), 4, "{out}");
        assert!(out.lines().all(|l| l.starts_with("src/")), "{out}");
        let out = grepped(&f.policy, "(?i)hello", |i| i.glob = Some("src/nested/*.rs".into())).unwrap();
        assert_eq!(out, "src/nested/deep.rs:1:// HELLO from deep");
        let out = grepped(&f.policy, "fn", |i| i.path = Some("src/main.rs".into())).unwrap();
        assert_eq!(out, "src/main.rs:1:fn main() {");
        let everywhere = grepped(&f.policy, "(?i)hello", |_| {}).unwrap();
        let empty = grepped(&f.policy, "(?i)hello", |i| (i.path, i.glob) = (Some(String::new()), Some(String::new())));
        assert_eq!(empty.unwrap(), everywhere, "an empty path and glob are their defaults");
        let out = grepped(&f.policy, "nothing-here", |i| i.case_insensitive = true).unwrap();
        assert_eq!(out, "[no matches for `nothing-here` under `.`]");
        let out = grepped(&f.policy, "nothing here", |i| i.path = Some("src".into())).unwrap();
        assert_eq!(
            out,
            "[no matches for `nothing here` under `src`; try one word of it, or case_insensitive: true, \
             or path `.` (the whole working directory)]"
        );
        let out = grepped(&f.policy, "deep.rs", |i| i.path = Some("src/nested".into())).unwrap();
        assert!(
            out.ends_with("to read `src/nested/deep.rs`, call read_file]"),
            "a name found where it searched: {out}"
        );
        let out = grepped(&f.policy, "src/nested/deep.rs", |_| {}).unwrap();
        assert_eq!(
            out,
            "[no matches for `src/nested/deep.rs` under `.`; grep searches inside files: to read `src/nested/deep.rs`, call read_file]",
            "a file's name given as the pattern"
        );
    }

    #[test]
    fn grep_is_capped_and_says_so() {
        let f = fixture();
        let out = grepped(&f.policy, "(?i)hello", |i| i.max_results = Some(2)).unwrap();
        assert_eq!(
            out,
            "README.md:1:# hello\nsrc/lib.rs:1:pub fn hello() -> &'static str {\n\
             [output cut at 2 matches; narrow the pattern, the path or the glob]"
        );
        let exactly = grepped(&f.policy, "hello", |i| i.max_results = Some(3)).unwrap();
        assert!(!exactly.contains("output cut"), "{exactly}");
    }

    #[test]
    fn grep_refuses_escapes_and_bad_regexes_and_prunes_denied_paths() {
        let f = fixture();
        let err = grepped(&f.policy, "x", |i| i.path = Some("/etc".into())).unwrap_err();
        assert!(err.message.contains("outside the allowed read paths"), "{err}");
        let err = grepped(&f.policy, "(unclosed", |_| {}).unwrap_err();
        assert!(err.message.contains("not a valid regex"), "{err}");
        let config =
            Config { working_dir: Some(f.root.clone()), denied_paths: vec!["src".into()], ..Config::defaults() };
        let policy = Policy::from_config(config, Path::new("/")).unwrap();
        assert_eq!(grepped(&policy, "hello", |_| {}).unwrap(), "README.md:1:# hello");
        assert_eq!(globbed(&policy, "**/*.rs", None), "[no files under `.` match `**/*.rs`]");
    }

    #[cfg(unix)]
    #[test]
    fn walks_do_not_follow_symlinks_out_of_the_root() {
        let f = fixture();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.txt"), "hello secret").unwrap();
        std::os::unix::fs::symlink(outside.path(), f.root.join("escape")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), f.root.join("secret-link.txt")).unwrap();
        let out = grepped(&f.policy, "secret", |_| {}).unwrap();
        assert!(out.starts_with("[no matches for `secret` under `.`"), "{out}");
        // The link's name may be listed (reading it is checked), never what is behind a linked directory.
        assert_eq!(globbed(&f.policy, "**/*.txt", None), "secret-link.txt");
    }

    #[test]
    fn grep_skips_files_with_other_hard_links() {
        let f = fixture();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("shadow"), "root:secret-hash").unwrap();
        fs::hard_link(outside.path().join("shadow"), f.root.join("copy")).unwrap();
        let out = grepped(&f.policy, "secret-hash", |_| {}).unwrap();
        assert!(out.starts_with("[no matches for `secret-hash` under `.`"), "{out}");
    }
}
