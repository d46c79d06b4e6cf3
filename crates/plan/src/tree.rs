//! Pass 1: the YAML document as a tree of values that remember where they are.
//!
//! Everything YAML-level is settled here (syntax, anchors, scalar types, key
//! uniqueness), so pass 2 only has to ask "is this the shape a plan needs?".

use std::collections::HashMap;
use std::str::Chars;

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};
use yaml_rust2::Yaml;

use crate::diagnostic::PlanDiagnostic;

/// The builder and everything downstream recurse, so absurd nesting is
/// refused instead of overflowing the stack; an alias bomb is refused before
/// it fills the memory. The limits every YAML file amplifier reads is held to.
use amplifier_yaml::{MAX_DEPTH, MAX_VALUES as MAX_NODES};

/// A 1-based line and column in one of the files a plan was read from
/// (a bundle's includes are several files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Pos {
    pub line: usize,
    pub column: usize,
    /// An index into the table of file names the walk reports with.
    pub file: FileId,
}

/// Which file a position is in: an index into [`Files`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) struct FileId(pub u32);

/// The names of the files a plan was read from, as diagnostics print them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Files(Vec<String>);

impl Files {
    pub fn one(name: &str) -> Files {
        Files(vec![name.to_owned()])
    }

    pub fn add(&mut self, name: String) -> FileId {
        self.0.push(name);
        FileId(self.0.len() as u32 - 1)
    }

    pub fn name(&self, id: FileId) -> &str {
        &self.0[id.0 as usize]
    }
}

impl Pos {
    pub fn start(file: FileId) -> Pos {
        Pos { line: 1, column: 1, file }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub pos: Pos,
    pub value: Value,
}

#[derive(Debug, Clone)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A plain (unquoted) scalar that is one `${…}` reference: a string
    /// until expanded, then typed as YAML would have typed the text
    /// written in its place (`port: ${PORT:-8080}` is an integer).
    Reference(String),
    List(Vec<Node>),
    /// In document order; keys are unique strings (the builder enforces both,
    /// which is what lets any subtree become a JSON object).
    Map(Vec<Entry>),
}

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub key: String,
    pub key_pos: Pos,
    pub value: Node,
}

impl Value {
    /// The "found ..." half of a type error. Never the value itself: a
    /// misplaced string may be a secret.
    pub fn describe(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(n) if *n < 0 => "a negative integer",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Str(s) if s.is_empty() => "an empty string",
            Value::Str(_) | Value::Reference(_) => "a string",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
        }
    }
}

/// `session` + `orchestrator` -> `session.orchestrator`; the root has no name.
pub(crate) fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// Parses one YAML document; text without one (empty, or only comments) is a
/// `null`, as it would be in YAML's own loaders.
pub(crate) fn parse(text: &str, files: &Files, file: FileId) -> Result<Node, PlanDiagnostic> {
    let mut builder =
        Builder { parser: Parser::new_from_str(text), name: files.name(file), file, anchors: HashMap::new(), nodes: 0 };
    builder.document()
}

struct Builder<'a> {
    parser: Parser<Chars<'a>>,
    name: &'a str,
    file: FileId,
    /// Anchor id -> the finished node and how many nodes it holds;
    /// yaml-rust2 only hands us ids.
    anchors: HashMap<usize, (Node, usize)>,
    /// Nodes built so far, each alias counting as a copy of its anchor.
    nodes: usize,
}

impl Builder<'_> {
    fn document(&mut self) -> Result<Node, PlanDiagnostic> {
        self.next("")?; // StreamStart
        if self.next("")?.0 == Event::StreamEnd {
            return Ok(Node { pos: Pos::start(self.file), value: Value::Null });
        }
        let (event, mark) = self.next("")?;
        let root = self.node(event, mark, "", 0)?;
        self.next("")?; // DocumentEnd
        let (event, mark) = self.next("")?;
        if event != Event::StreamEnd {
            return Err(self.error(self.pos(mark), "", "expected a single YAML document, found a second one".into()));
        }
        Ok(root)
    }

    /// `path` is the field being read, so syntax errors can name it too.
    fn next(&mut self, path: &str) -> Result<(Event, Marker), PlanDiagnostic> {
        self.parser.next_token().map_err(|err| self.syntax_error(&err, path))
    }

    fn node(&mut self, event: Event, mark: Marker, path: &str, depth: usize) -> Result<Node, PlanDiagnostic> {
        if depth > MAX_DEPTH {
            return Err(self.error(self.pos(mark), path, format!("nesting is deeper than {MAX_DEPTH} levels")));
        }
        let before = self.nodes;
        self.nodes += 1;
        let (node, anchor) = match event {
            Event::Scalar(text, style, anchor, tag) => {
                let pos = self.pos(mark);
                let value = scalar(text, style, tag.as_ref());
                (Node { pos, value }, anchor)
            }
            Event::SequenceStart(anchor, _) => (self.list(mark, path, depth)?, anchor),
            Event::MappingStart(anchor, _) => (self.map(mark, path, depth)?, anchor),
            Event::Alias(id) => return self.alias(id, mark, path),
            other => unreachable!("yaml-rust2 emitted {other:?} where a node belongs"),
        };
        // Anchor id 0 means "no anchor".
        if anchor > 0 {
            self.anchors.insert(anchor, (node.clone(), self.nodes - before));
        }
        Ok(node)
    }

    fn alias(&mut self, id: usize, mark: Marker, path: &str) -> Result<Node, PlanDiagnostic> {
        // The parser has already rejected unknown anchors, so a miss means the
        // alias sits inside the node it names.
        let Some((node, size)) = self.anchors.get(&id) else {
            return Err(self.error(self.pos(mark), path, "an alias cannot refer to a node that contains it".into()));
        };
        // Checked before copying: aliases of aliases double at every level
        // ("billion laughs"), and an 800-byte plan would fill the memory.
        if self.nodes + size > MAX_NODES {
            let message = format!(
                "the plan expands to more than {MAX_NODES} values through its aliases (an alias copies its anchor's whole value)"
            );
            return Err(self.error(self.pos(mark), path, message));
        }
        self.nodes += size;
        Ok(Node { pos: self.pos(mark), value: node.value.clone() })
    }

    fn list(&mut self, start: Marker, path: &str, depth: usize) -> Result<Node, PlanDiagnostic> {
        let mut items = Vec::new();
        loop {
            let (event, mark) = self.next(path)?;
            if event == Event::SequenceEnd {
                break;
            }
            let item_path = format!("{path}[{}]", items.len());
            items.push(self.node(event, mark, &item_path, depth + 1)?);
        }
        Ok(Node { pos: self.pos(start), value: Value::List(items) })
    }

    fn map(&mut self, start: Marker, path: &str, depth: usize) -> Result<Node, PlanDiagnostic> {
        let mut entries: Vec<Entry> = Vec::new();
        loop {
            let (event, mark) = self.next(path)?;
            if event == Event::MappingEnd {
                break;
            }
            let key = self.node(event, mark, path, depth + 1)?;
            let key_pos = key.pos;
            let name = self.key_name(key, path, &entries)?;
            let field = child_path(path, &name);
            let (event, mark) = self.next(&field)?;
            let mut value = self.node(event, mark, &field, depth + 1)?;
            // Block collections and empty values start on a later line (an
            // empty value is even marked at the next token); readers look for
            // them at their key.
            if value.pos.line > key_pos.line {
                value.pos = key_pos;
            }
            entries.push(Entry { key: name, key_pos, value });
        }
        // A block map's start mark is its first `:`; it begins at its first key.
        let start = self.pos(start);
        let pos = entries.first().map_or(start, |first| first.key_pos.min(start));
        Ok(Node { pos, value: Value::Map(entries) })
    }

    /// Keys must be unique strings: JSON objects need string keys, and a
    /// repeated key would silently drop the first value.
    fn key_name(&self, key: Node, path: &str, earlier: &[Entry]) -> Result<String, PlanDiagnostic> {
        let (Value::Str(name) | Value::Reference(name)) = key.value else {
            let message = format!("expected a string key, found {}", key.value.describe());
            return Err(self.error(key.pos, path, message).with_hint("quote the key to make it a string"));
        };
        if let Some(first) = earlier.iter().find(|entry| entry.key == name) {
            let line = first.key_pos.line;
            // Unlike agent-squad, where the first agent silently wins and the
            // second is unroutable, a repeated agent id is refused.
            let message = if path == "agents" {
                format!("duplicate agent id `{name}` (lines {line} and {}): agent ids must be unique", key.pos.line)
            } else {
                format!("duplicate key `{name}` (first defined on line {line})")
            };
            return Err(self.error(key.pos, &child_path(path, &name), message));
        }
        Ok(name)
    }

    fn syntax_error(&self, err: &ScanError, path: &str) -> PlanDiagnostic {
        let message = format!("invalid YAML: {}", err.info());
        self.error(self.pos(*err.marker()), path, message)
    }

    fn pos(&self, mark: Marker) -> Pos {
        // yaml-rust2 counts lines from 1 but columns from 0.
        Pos { line: mark.line(), column: mark.col() + 1, file: self.file }
    }

    fn error(&self, pos: Pos, path: &str, message: String) -> PlanDiagnostic {
        PlanDiagnostic::new(self.name, pos, path, message)
    }
}

/// Resolves a scalar by the YAML 1.2 core schema. Quoting or `!!str` keeps any
/// scalar a string (`"10"`, `!!str true`).
fn scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    let tagged_str = tag.is_some_and(|tag| tag.handle == "tag:yaml.org,2002:" && tag.suffix == "str");
    if style != TScalarStyle::Plain || tagged_str {
        return Value::Str(text);
    }
    if crate::interpolate::is_one_reference(&text) {
        return Value::Reference(text);
    }
    plain(text)
}

/// A plain scalar's value: null, a boolean, a number, else a string.
pub(crate) fn plain(text: String) -> Value {
    let resolved = Yaml::from_str(&text);
    match resolved {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Integer(n) => Value::Int(n),
        Yaml::Real(_) => resolved.as_f64().map_or(Value::Str(text), Value::Float),
        _ => Value::Str(text),
    }
}
