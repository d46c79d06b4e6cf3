//! `@mentions` in a bundle's body and the `<context_file>` blocks they and
//! `context.include` become, in upstream's format
//! (amplifier-foundation's `mentions/` and `PreparedBundle`'s system
//! prompt factory).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;

/// Upstream follows mentions inside mentioned files this deep.
const MAX_DEPTH: usize = 3;
/// The largest file a mention or `context.include` brings into a prompt:
/// a mention of `/dev/zero` or a log must not fill the memory.
pub(crate) const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// A mention as written (`@ns:path`, with its `@`) and the 0-based line of
/// the text it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mention {
    pub text: String,
    pub line: usize,
}

/// The mentions in `text`, each once, in order. Fenced code blocks and
/// inline code are skipped, as upstream skips them. Two differences on
/// purpose: an `@` inside a word (`me@example.com`) is not a mention, and
/// a sentence's final `.` or `:` is not part of one.
pub(crate) fn scan(text: &str) -> Vec<Mention> {
    let mut found: Vec<Mention> = Vec::new();
    let mut in_fence = false;
    for (line_index, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut in_code = false;
        let mut previous: Option<char> = None;
        for (at, c) in line.char_indices() {
            match c {
                '`' => in_code = !in_code,
                '@' if !in_code && !previous.is_some_and(|p| p.is_alphanumeric() || "._%+-".contains(p)) => {
                    let rest = &line[at + 1..];
                    let len =
                        rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_:./~-".contains(c))).unwrap_or(rest.len());
                    let name = rest[..len].trim_end_matches(['.', ':']);
                    if !name.is_empty() {
                        let text = format!("@{name}");
                        if !found.iter().any(|m| m.text == text) {
                            found.push(Mention { text, line: line_index });
                        }
                    }
                }
                _ => {}
            }
            previous = Some(c);
        }
    }
    found
}

/// Where a mention points, or `None`: `@ns:path` beneath the namespace's
/// directory, `@~/path` beneath the home directory, `@path` beneath the
/// working directory (the last two with `.md` tried too, as upstream).
pub(crate) fn resolve(mention: &str, namespaces: &IndexMap<String, PathBuf>, cwd: &Path) -> Option<PathBuf> {
    let name = mention.strip_prefix('@').unwrap_or(mention);
    let candidates: Vec<PathBuf> = if let Some(rest) = name.strip_prefix("~/") {
        let home = PathBuf::from(std::env::var_os("HOME")?);
        vec![home.join(rest), home.join(format!("{rest}.md"))]
    } else if let Some((namespace, path)) = name.split_once(':') {
        vec![namespaces.get(namespace)?.join(path)]
    } else {
        let path = name.strip_prefix("./").unwrap_or(name);
        vec![cwd.join(path), cwd.join(format!("{path}.md"))]
    };
    candidates.into_iter().find(|path| path.exists())
}

/// Files gathered for a prompt, each content once however many paths
/// named it, in the order first seen.
#[derive(Default)]
pub(crate) struct ContextFiles {
    blocks: Vec<Block>,
    by_content: HashMap<String, usize>,
}

struct Block {
    content: String,
    /// Each path with the names it was reached by (`@ns:x.md`, a
    /// `context.include` reference); none for a file a file mentioned.
    paths: Vec<(PathBuf, Vec<String>)>,
}

impl ContextFiles {
    /// Adds a file (or a directory's listing); false when it can't be read.
    pub fn add(&mut self, path: &Path, label: Option<&str>) -> bool {
        let Some(content) = read(path) else { return false };
        let index = match self.by_content.get(&content) {
            Some(&index) => index,
            None => {
                self.blocks.push(Block { content: content.clone(), paths: Vec::new() });
                self.by_content.insert(content, self.blocks.len() - 1);
                self.blocks.len() - 1
            }
        };
        let paths = &mut self.blocks[index].paths;
        let entry = match paths.iter().position(|(p, _)| p == path) {
            Some(i) => &mut paths[i],
            None => {
                paths.push((path.to_owned(), Vec::new()));
                paths.last_mut().expect("just pushed")
            }
        };
        if let Some(label) = label {
            if !entry.1.iter().any(|l| l == label) {
                entry.1.push(label.to_owned());
            }
        }
        true
    }

    /// Adds what `text`'s mentions name, and what those files mention in
    /// turn (to upstream's depth). Returns the top-level mentions left out,
    /// each with why.
    pub fn add_mentions(
        &mut self,
        text: &str,
        namespaces: &IndexMap<String, PathBuf>,
        cwd: &Path,
    ) -> Vec<(Mention, &'static str)> {
        let mut missing = Vec::new();
        for mention in scan(text) {
            match resolve(&mention.text, namespaces, cwd) {
                Some(path) if readable(&path) => self.add_nested(&path, Some(&mention.text), namespaces, cwd, 1),
                Some(_) => missing.push((mention, "is not a file or directory of at most 1 MiB")),
                None => missing.push((mention, "names no file")),
            }
        }
        missing
    }

    fn add_nested(
        &mut self,
        path: &Path,
        label: Option<&str>,
        namespaces: &IndexMap<String, PathBuf>,
        cwd: &Path,
        depth: usize,
    ) {
        let seen = self.blocks.iter().any(|b| b.paths.iter().any(|(p, _)| p == path));
        if !self.add(path, label) || seen || depth >= MAX_DEPTH || !path.is_file() {
            return;
        }
        let content = self.blocks.iter().find(|b| b.paths.iter().any(|(p, _)| p == path)).map(|b| b.content.clone());
        // Prose in a knowledge file may hold an `@` that is no mention, so
        // what a file mentions and can't be found is left out quietly.
        for mention in scan(content.as_deref().unwrap_or_default()) {
            if let Some(nested) = resolve(&mention.text, namespaces, cwd) {
                self.add_nested(&nested, None, namespaces, cwd, depth + 1);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// `<context_file paths="@ns:x.md → /abs/x.md">…</context_file>` blocks,
    /// a blank line apart.
    pub fn render(&self) -> String {
        let blocks: Vec<String> = self
            .blocks
            .iter()
            .map(|block| {
                let paths: Vec<String> = block
                    .paths
                    .iter()
                    .flat_map(|(path, labels)| {
                        let path = path.display().to_string();
                        if labels.is_empty() {
                            vec![path]
                        } else {
                            labels.iter().map(|label| format!("{label} → {path}")).collect()
                        }
                    })
                    .collect();
                format!("<context_file paths=\"{}\">\n{}\n</context_file>", paths.join(", "), block.content)
            })
            .collect();
        blocks.join("\n\n")
    }
}

/// A directory, or a regular file of at most [`MAX_FILE_BYTES`].
pub(crate) fn readable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_dir() || (m.is_file() && m.len() <= MAX_FILE_BYTES))
}

/// A file's text, or a directory's listing in upstream's format.
fn read(path: &Path) -> Option<String> {
    if !readable(path) {
        return None;
    }
    if !path.is_dir() {
        return std::fs::read_to_string(path).ok();
    }
    let mut entries: Vec<(bool, String)> = std::fs::read_dir(path)
        .ok()?
        .flatten()
        .map(|entry| (!entry.path().is_dir(), entry.file_name().to_string_lossy().into_owned()))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.to_lowercase().cmp(&b.1.to_lowercase())));
    let mut listing = format!("Directory: {}\n\n", path.display());
    if entries.is_empty() {
        listing.push_str("  (empty directory)");
    }
    let lines: Vec<String> =
        entries.iter().map(|(file, name)| format!("  {} {name}", if *file { "FILE" } else { "DIR " })).collect();
    listing.push_str(&lines.join("\n"));
    Some(listing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        scan(text).into_iter().map(|m| m.text).collect()
    }

    #[test]
    fn mentions_skip_code_emails_and_trailing_punctuation() {
        let text = "See @foundation:context/a.md and @notes.\nMail me@example.com.\n`@not:this`\n```\n@nor:this\n```\n@b again @foundation:context/a.md";
        assert_eq!(texts(text), ["@foundation:context/a.md", "@notes", "@b"]);
        assert_eq!(scan(text)[2].line, 6);
    }

    #[test]
    fn blocks_are_deduplicated_by_content_and_name_every_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "same").unwrap();
        std::fs::write(dir.path().join("b.md"), "same").unwrap();
        std::fs::write(dir.path().join("c.md"), "see @b.md").unwrap();
        let namespaces = IndexMap::from([("ns".to_owned(), dir.path().to_owned())]);
        let mut files = ContextFiles::default();
        assert!(files.add(&dir.path().join("a.md"), Some("ns:a.md")));
        let missing = files.add_mentions("@ns:c.md and @nowhere and @/dev/zero", &namespaces, dir.path());
        assert_eq!(
            missing,
            [
                (Mention { text: "@nowhere".into(), line: 0 }, "names no file"),
                (Mention { text: "@/dev/zero".into(), line: 0 }, "is not a file or directory of at most 1 MiB")
            ]
        );
        let d = dir.path().display();
        assert_eq!(
            files.render(),
            format!(
                "<context_file paths=\"ns:a.md → {d}/a.md, {d}/b.md\">\nsame\n</context_file>\n\n\
                 <context_file paths=\"@ns:c.md → {d}/c.md\">\nsee @b.md\n</context_file>"
            )
        );
    }
}
