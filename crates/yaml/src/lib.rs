//! YAML read with limits. A checkout is untrusted input: an alias bomb
//! (aliases of aliases, each copying its anchor) of a few hundred bytes
//! expands to more values than the memory holds, and yaml-rust2's
//! `YamlLoader` expands every one. Every YAML file amplifier reads goes
//! through [`load`] or through the plan crate's positioned tree, which
//! enforces the same limits ([`MAX_DEPTH`], [`MAX_VALUES`]).

use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::Path;
use std::str::Chars;

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};
pub use yaml_rust2::yaml::Hash;
pub use yaml_rust2::Yaml;

/// Deeper nesting is refused, not recursed into: readers walk documents
/// recursively, and a stack overflow would abort the process.
pub const MAX_DEPTH: usize = 128;
/// The most values a document may hold once its aliases are expanded;
/// real plans, settings and frontmatter hold hundreds.
pub const MAX_VALUES: usize = 100_000;
/// The largest YAML file [`read_file`] reads.
pub const MAX_BYTES: u64 = 4 << 20;

/// Where a document went wrong: a 1-based line and column, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl YamlError {
    /// `FILE:LINE:COLUMN: message`, as compilers print it.
    pub fn in_file(&self, file: &Path) -> String {
        format!("{}:{}:{}: {}", file.display(), self.line, self.column, self.message)
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for YamlError {}

/// A file's text, refused past [`MAX_BYTES`] before more is read.
pub fn read_file(file: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    std::fs::File::open(file)?.take(MAX_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{} is larger than {} MiB", file.display(), MAX_BYTES >> 20),
        ));
    }
    Ok(text)
}

/// The first document of `text` (`Null` when there is none), as
/// `YamlLoader` would build it, within the limits. A key repeated in one
/// mapping is refused: it would silently replace the first.
pub fn load(text: &str) -> Result<Yaml, YamlError> {
    let mut builder = Builder { parser: Parser::new_from_str(text), anchors: HashMap::new(), values: 0 };
    builder.document()
}

struct Builder<'a> {
    parser: Parser<Chars<'a>>,
    /// Anchor id -> its value and how many values it holds.
    anchors: HashMap<usize, (Yaml, usize)>,
    /// Values built so far, an alias counting as a copy of its anchor.
    values: usize,
}

impl Builder<'_> {
    fn document(&mut self) -> Result<Yaml, YamlError> {
        self.next()?; // StreamStart
        if self.next()?.0 == Event::StreamEnd {
            return Ok(Yaml::Null);
        }
        let (event, mark) = self.next()?;
        self.value(event, mark, 0)
    }

    fn next(&mut self) -> Result<(Event, Marker), YamlError> {
        self.parser.next_token().map_err(|err| error(*err.marker(), format!("invalid YAML: {}", err.info())))
    }

    fn value(&mut self, event: Event, mark: Marker, depth: usize) -> Result<Yaml, YamlError> {
        if depth > MAX_DEPTH {
            return Err(error(mark, format!("nesting is deeper than {MAX_DEPTH} levels")));
        }
        let before = self.values;
        self.values += 1;
        let (value, anchor) = match event {
            Event::Scalar(text, style, anchor, tag) => (scalar(text, style, tag.as_ref()), anchor),
            Event::SequenceStart(anchor, _) => (self.sequence(depth)?, anchor),
            Event::MappingStart(anchor, _) => (self.mapping(depth)?, anchor),
            Event::Alias(id) => return self.alias(id, mark),
            other => return Err(error(mark, format!("unexpected {other:?} where a value belongs"))),
        };
        // Anchor id 0 means "no anchor".
        if anchor > 0 {
            self.anchors.insert(anchor, (value.clone(), self.values - before));
        }
        Ok(value)
    }

    fn alias(&mut self, id: usize, mark: Marker) -> Result<Yaml, YamlError> {
        // The parser refuses unknown anchors; a miss is an alias inside
        // the value it names.
        let Some((value, size)) = self.anchors.get(&id) else {
            return Err(error(mark, "an alias cannot refer to a value that contains it".to_owned()));
        };
        // Checked before copying: each level of aliases of aliases doubles.
        if self.values + size > MAX_VALUES {
            return Err(error(
                mark,
                format!("the document expands to more than {MAX_VALUES} values through its aliases (an alias copies its anchor's whole value)"),
            ));
        }
        self.values += size;
        Ok(value.clone())
    }

    fn sequence(&mut self, depth: usize) -> Result<Yaml, YamlError> {
        let mut items = Vec::new();
        loop {
            let (event, mark) = self.next()?;
            if event == Event::SequenceEnd {
                return Ok(Yaml::Array(items));
            }
            items.push(self.value(event, mark, depth + 1)?);
        }
    }

    fn mapping(&mut self, depth: usize) -> Result<Yaml, YamlError> {
        let mut entries = Hash::new();
        let mut lines = HashMap::new();
        loop {
            let (event, mark) = self.next()?;
            if event == Event::MappingEnd {
                return Ok(Yaml::Hash(entries));
            }
            let key = self.value(event, mark, depth + 1)?;
            if let Some(first) = lines.insert(key.clone(), mark.line()) {
                let shown = key.as_str().map_or_else(|| format!("{key:?}"), |name| format!("`{name}`"));
                return Err(error(mark, format!("duplicate key {shown} (first on line {first})")));
            }
            let (event, mark) = self.next()?;
            let value = self.value(event, mark, depth + 1)?;
            entries.insert(key, value);
        }
    }
}

fn error(mark: Marker, message: String) -> YamlError {
    // yaml-rust2 counts lines from 1 but columns from 0.
    YamlError { line: mark.line(), column: mark.col() + 1, message }
}

/// A scalar as `YamlLoader` types it: quoted or `!!str` text stays text,
/// a plain one is a null, boolean, number or text.
fn scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Yaml {
    let core = tag.filter(|tag| tag.handle == "tag:yaml.org,2002:").map(|tag| tag.suffix.as_str());
    match core {
        Some("str") => Yaml::String(text),
        Some("int") => text.parse().map_or(Yaml::BadValue, Yaml::Integer),
        Some("float") => text.parse::<f64>().map_or(Yaml::BadValue, |_| Yaml::Real(text)),
        Some("bool") => text.parse().map_or(Yaml::BadValue, Yaml::Boolean),
        Some("null") => Yaml::Null,
        _ if style != TScalarStyle::Plain => Yaml::String(text),
        _ => Yaml::from_str(&text),
    }
}

#[cfg(test)]
mod tests {
    use yaml_rust2::YamlLoader;

    use super::*;

    /// Each level's list holds nine aliases of the level before.
    fn alias_bomb(levels: usize) -> String {
        let mut text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n".to_owned();
        for level in 1..levels {
            let previous = format!("*a{}", level - 1);
            text.push_str(&format!("a{level}: &a{level} [{}]\n", vec![previous; 9].join(", ")));
        }
        text
    }

    #[test]
    fn documents_read_as_yaml_loader_reads_them() {
        let text = "name: demo\ncount: 3\nratio: 0.5\non: true\nnothing: ~\nquoted: \"10\"\ntagged: !!str 7\n\
                    list: [1, two]\nnested: {a: {b: [x]}}\nanchor: &x {k: v}\ncopy: *x\nmulti: |\n  one\n  two\n";
        let expected = YamlLoader::load_from_str(text).unwrap().remove(0);
        assert_eq!(load(text).unwrap(), expected);
    }

    #[test]
    fn an_empty_text_is_null_and_only_the_first_document_is_read() {
        assert_eq!(load("").unwrap(), Yaml::Null);
        assert_eq!(load("# only a comment\n").unwrap(), Yaml::Null);
        assert_eq!(load("a: 1\n---\nb: 2\n").unwrap(), YamlLoader::load_from_str("a: 1").unwrap().remove(0));
    }

    #[test]
    fn an_alias_bomb_is_refused_at_the_alias_that_crosses_the_limit() {
        let err = load(&alias_bomb(9)).unwrap_err();
        assert!(err.message.contains("more than 100000 values through its aliases"), "{err}");
        assert!((5..=9).contains(&err.line), "{err}");
        // A few aliases stay well within it.
        assert!(load(&alias_bomb(3)).is_ok());
    }

    #[test]
    fn nesting_past_the_limit_is_refused() {
        let deep = format!("{}x{}", "[".repeat(MAX_DEPTH + 2), "]".repeat(MAX_DEPTH + 2));
        let err = load(&deep).unwrap_err();
        assert!(err.message.contains("deeper than 128 levels"), "{err}");
        assert!(load(&format!("{}x{}", "[".repeat(100), "]".repeat(100))).is_ok());
    }

    #[test]
    fn a_repeated_key_is_refused_with_both_lines() {
        let err = load("plan: a.yaml\nother: 1\nplan: evil.yaml\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, 1));
        assert_eq!(err.message, "duplicate key `plan` (first on line 1)");
    }

    #[test]
    fn syntax_errors_name_the_line_and_column() {
        let err = load("a: [1, 2\nb: 3\n").unwrap_err();
        assert!(err.message.starts_with("invalid YAML: "), "{err}");
        assert!(err.line >= 1, "{err}");
        assert_eq!(err.in_file(Path::new("s.yaml")), format!("s.yaml:{}:{}: {}", err.line, err.column, err.message));
    }

    #[test]
    fn files_past_the_size_limit_are_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.yaml");
        std::fs::write(&big, vec![b'#'; MAX_BYTES as usize + 1]).unwrap();
        let err = read_file(&big).unwrap_err();
        assert!(err.to_string().contains("larger than 4 MiB"), "{err}");
        std::fs::write(&big, "a: 1\n").unwrap();
        assert_eq!(read_file(&big).unwrap(), "a: 1\n");
    }
}
