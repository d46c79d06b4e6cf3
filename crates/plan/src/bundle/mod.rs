//! Upstream Amplifier's bundles compiled to a mount plan.
//!
//! A bundle is Markdown with YAML frontmatter (or plain YAML): `bundle:
//! {name, version, description}`, `includes`, `session`, `providers`,
//! `tools`, `hooks`, `agents: {include}`, `context: {include}`, `spawn`;
//! the body is the system prompt. Compilation follows
//! amplifier-foundation's `Bundle.compose` and `to_mount_plan`:
//!
//! - includes are composed in the order listed, then the including
//!   bundle over them (a later one overrides an earlier one);
//! - `session` and `spawn` are deep-merged (lists concatenated without
//!   repeats); `providers`, `tools` and `hooks` merge by `id` or `module`,
//!   deep-merging an entry with the same one; an agent replaces the agent
//!   of the same name; the last non-empty body is the instruction;
//! - a bundle's `bundle.name` is its namespace: `ns:path` in includes,
//!   agents, context and mentions is beneath that bundle's directory.
//!
//! The composition works on the positioned YAML tree, so the mount plan
//! it produces is checked by the same walk as a plan file, and each
//! diagnostic names the file, line and column the value came from.
//!
//! Differences on purpose, each where upstream is silent: a relative
//! include is beneath the including bundle's directory (upstream: the
//! working directory); an include cycle, an unknown namespace, a missing
//! agent, context file or top-level mention is reported (a cycle and a
//! missing file as warnings, which `--strict` makes errors); the system
//! prompt is built once, when the session starts.

mod mention;

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use indexmap::IndexMap;

use crate::diagnostic::{PlanDiagnostic, PlanError};
use crate::tree::{self, Entry, FileId, Files, Node, Pos, Value};

/// Fetches a `git+` include: the file or directory the URI names, and the
/// root of the checkout it is in (where a behavior's root bundle is found).
/// A relative local repository is beneath `base_dir`, the including
/// bundle's directory.
pub trait IncludeFetcher {
    fn fetch(&self, uri: &str, base_dir: &Path) -> Result<Fetched, String>;
}

pub struct Fetched {
    pub path: PathBuf,
    pub root: PathBuf,
}

/// For callers that only read local bundles.
pub struct NoFetcher;

impl IncludeFetcher for NoFetcher {
    fn fetch(&self, uri: &str, _base_dir: &Path) -> Result<Fetched, String> {
        Err(format!("cannot fetch `{uri}` here: git includes are fetched by `amplifier run`"))
    }
}

/// A bundle compiled to a mount plan's tree.
pub struct Compiled {
    pub(crate) root: Node,
    pub(crate) files: Files,
    pub(crate) warnings: Vec<PlanDiagnostic>,
    /// The outermost bundle's `bundle.name`, if it has one.
    pub name: Option<String>,
}

const BUNDLE_KEYS: &[&str] =
    &["bundle", "includes", "session", "providers", "tools", "hooks", "agents", "context", "spawn"];
const MODULE_LISTS: [&str; 3] = ["providers", "tools", "hooks"];
/// Agent-file keys that become the agent's plan overlay.
const AGENT_KEYS: &[&str] = &["meta", "name", "description", "session", "providers", "tools", "hooks"];

/// Whether `path` is a bundle rather than a mount plan: a directory, a
/// Markdown file, or YAML with a `bundle:` key at the top.
pub(crate) fn is_bundle(path: &Path, yaml: Option<&Node>) -> bool {
    path.is_dir()
        || path.extension().is_some_and(|ext| ext == "md")
        || path.file_name().is_some_and(|name| name == "bundle.yaml" || name == "bundle.yml")
        || yaml
            .is_some_and(|root| matches!(&root.value, Value::Map(entries) if entries.iter().any(|e| e.key == "bundle")))
}

pub(crate) fn compile(path: &Path, fetcher: &dyn IncludeFetcher) -> Result<Compiled, PlanError> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut compiler = Compiler {
        files: Files::default(),
        fetcher,
        cwd,
        errors: Vec::new(),
        warnings: Vec::new(),
        namespaces: IndexMap::new(),
        done: HashMap::new(),
        chain: Vec::new(),
        outermost: None,
        roots: Default::default(),
    };
    let file = locate(path).map_err(|source| PlanError::Read { path: path.to_owned(), source })?;
    let text = std::fs::read_to_string(&file).map_err(|source| PlanError::Read { path: file.clone(), source })?;
    let bundle = compiler.load_text(&file, &path_name(path, &file), &text, None);
    let name = compiler.outermost.clone().filter(|name| !name.is_empty());
    let root = bundle.map(|bundle| compiler.mount_plan(bundle));
    let Compiler { mut errors, mut warnings, files, .. } = compiler;
    errors.sort_by_key(|d| (d.file_index, d.line, d.column));
    warnings.sort_by_key(|d| (d.file_index, d.line, d.column));
    match root {
        Some(root) if errors.is_empty() => Ok(Compiled { root, files, warnings, name }),
        _ => Err(PlanError::Invalid { errors, warnings }),
    }
}

/// How the outermost bundle is named in messages: as given.
fn path_name(given: &Path, file: &Path) -> String {
    if given.is_dir() {
        given.join(file.file_name().unwrap_or_default()).display().to_string()
    } else {
        given.display().to_string()
    }
}

/// The file a plan or bundle path names: a directory's `bundle.md`, else
/// its `bundle.yaml`; a file as it is.
pub fn locate(path: &Path) -> std::io::Result<PathBuf> {
    if !path.is_dir() {
        return Ok(path.to_owned());
    }
    ["bundle.md", "bundle.yaml", "bundle.yml"].iter().map(|name| path.join(name)).find(|p| p.is_file()).ok_or_else(
        || std::io::Error::new(std::io::ErrorKind::NotFound, "the directory has no bundle.md or bundle.yaml"),
    )
}

/// A reference that names a bundle may leave out its extension or name
/// its directory (upstream's `_find_resource_path`).
fn find_resource(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    [
        path.to_owned(),
        path.with_file_name(format!("{name}.yaml")),
        path.with_file_name(format!("{name}.yml")),
        path.with_file_name(format!("{name}.md")),
        path.join("bundle.yaml"),
        path.join("bundle.md"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// Splits Markdown into its frontmatter, padded so that its lines keep
/// their numbers in the file, and its body, trimmed, with the line it
/// starts on.
fn split_markdown(text: &str) -> (String, &str, usize) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        let blank = text.len() - text.trim_start().len();
        return (String::new(), text.trim(), 1 + text[..blank].matches('\n').count());
    }
    let mut yaml = String::from("\n");
    let mut offset = text.find('\n').map_or(text.len(), |i| i + 1);
    for (index, line) in lines.enumerate() {
        offset += line.len();
        if line.trim_end() == "---" {
            // The body is used trimmed: it starts at its first line of text.
            let body = &text[offset..];
            let blank = body.len() - body.trim_start().len();
            return (yaml, body.trim(), index + 3 + body[..blank].matches('\n').count());
        }
        yaml.push_str(line);
    }
    // No closing fence: it is all body, as upstream reads it.
    (String::new(), text.trim(), 1)
}

/// A bundle with its includes composed into it.
#[derive(Clone)]
struct Bundle {
    name: String,
    session: Option<Node>,
    spawn: Option<Node>,
    modules: [Vec<Node>; 3],
    agents: IndexMap<String, Agent>,
    context: IndexMap<String, ContextRef>,
    instruction: Option<Instruction>,
}

/// An include's file, and the root of the git checkout it came from.
type Included = (PathBuf, Option<PathBuf>);

#[derive(Clone)]
enum Agent {
    /// `agents: {include: [ns:name]}`: the file is read once all is composed.
    Include {
        reference: String,
        base_dir: PathBuf,
        pos: Pos,
    },
    Inline(Node),
}

#[derive(Clone)]
struct ContextRef {
    reference: String,
    /// Known at once for a plain path; an `ns:path` waits for every namespace.
    path: Option<PathBuf>,
    pos: Pos,
}

#[derive(Clone)]
struct Instruction {
    text: String,
    /// Where the body starts, for a mention's line.
    pos: Pos,
}

struct Compiler<'a> {
    files: Files,
    fetcher: &'a dyn IncludeFetcher,
    cwd: PathBuf,
    errors: Vec<PlanDiagnostic>,
    warnings: Vec<PlanDiagnostic>,
    /// `bundle.name` -> its directory; the first bundle to claim a name keeps it.
    namespaces: IndexMap<String, PathBuf>,
    /// Each file's bundle, composed, so a bundle included twice is read once.
    done: HashMap<PathBuf, Bundle>,
    /// The includes being read, outermost first, to find cycles.
    chain: Vec<PathBuf>,
    /// The `bundle.name` of the bundle compiled (the first one read).
    outermost: Option<String>,
    /// Root bundles already looked at: a repository's many behaviors find
    /// the same one.
    roots: std::collections::HashSet<PathBuf>,
}

impl Compiler<'_> {
    fn error(&mut self, pos: Pos, field: &str, message: String) -> &mut PlanDiagnostic {
        self.errors.push(PlanDiagnostic::new(self.files.name(pos.file), pos, field, message));
        self.errors.last_mut().expect("just pushed")
    }

    fn warn(&mut self, pos: Pos, field: &str, message: String) {
        self.warnings.push(PlanDiagnostic::new(self.files.name(pos.file), pos, field, message));
    }

    /// An included file as messages name it: from the working directory
    /// when it is beneath it.
    fn display(&self, file: &Path) -> String {
        let file = normalize(file);
        file.strip_prefix(&self.cwd).unwrap_or(&file).display().to_string()
    }

    /// A bundle or agent file's YAML as a tree in a file of its own, and its
    /// Markdown body (with the line it starts on).
    fn parse<'t>(&mut self, file: &Path, display: String, text: &'t str) -> Option<(FileId, Node, &'t str, usize)> {
        let id = self.files.add(display);
        let markdown = file.extension().is_some_and(|ext| ext == "md");
        let (yaml, body, body_line) = if markdown { split_markdown(text) } else { (text.to_owned(), "", 1) };
        match tree::parse(&yaml, &self.files, id) {
            Ok(node) => Some((id, node, body, body_line)),
            Err(error) => {
                self.errors.push(error);
                None
            }
        }
    }

    /// Reads, includes and composes the bundle in `file`.
    fn load_text(&mut self, file: &Path, display: &str, text: &str, root: Option<&Path>) -> Option<Bundle> {
        let canonical = file.canonicalize().unwrap_or_else(|_| file.to_owned());
        let (id, node, body, body_line) = self.parse(file, display.to_owned(), text)?;
        let base_dir = canonical.parent().map(Path::to_owned).unwrap_or_default();
        let entries: &[Entry] = match &node.value {
            Value::Map(entries) => entries,
            Value::Null => &[],
            other => {
                let message = format!("expected a map of bundle fields, found {}", other.describe());
                self.error(node.pos, "", message);
                return None;
            }
        };
        for entry in entries.iter().filter(|e| !BUNDLE_KEYS.contains(&e.key.as_str())) {
            let message =
                format!("unknown bundle key `{}` is ignored; known keys: {}", entry.key, BUNDLE_KEYS.join(", "));
            self.warn(entry.key_pos, &entry.key, message);
        }
        let get = |key: &str| entries.iter().find(|e| e.key == key).map(|e| &e.value);
        let meta = get("bundle");
        let name = meta.and_then(|m| string_at(m, "name")).unwrap_or_default().to_owned();
        let namespace_dir = match meta.and_then(|m| string_at(m, "namespace_root")) {
            Some(rel) => normalize(&base_dir.join(rel)),
            None => base_dir.clone(),
        };
        self.outermost.get_or_insert_with(|| name.clone());
        if !name.is_empty() {
            self.namespaces.entry(name.clone()).or_insert(namespace_dir);
        }
        self.register_root_bundle(&canonical, root);

        let mut own = Bundle {
            name: name.clone(),
            session: get("session").filter(|n| !is_null(n)).cloned(),
            spawn: get("spawn").filter(|n| !is_null(n)).cloned(),
            modules: Default::default(),
            agents: IndexMap::new(),
            context: IndexMap::new(),
            instruction: None,
        };
        if let Some(session) = &mut own.session {
            session_sources(session, &base_dir);
        }
        for (index, key) in MODULE_LISTS.iter().enumerate() {
            own.modules[index] = self.module_list(get(key), key, &base_dir);
        }
        if let Some(agents) = get("agents") {
            self.agents(agents, &base_dir, &mut own);
        }
        if let Some(context) = get("context") {
            self.context(context, &name, &base_dir, &mut own);
        }
        if !body.is_empty() {
            let pos = Pos { line: body_line, column: 1, file: id };
            own.instruction = Some(Instruction { text: body.to_owned(), pos });
        }

        let mut included: Vec<Bundle> = Vec::new();
        if let Some(includes) = get("includes").filter(|n| !is_null(n)) {
            self.chain.push(canonical.clone());
            included = self.includes(includes, &base_dir);
            self.chain.pop();
        }
        let mut composed = included.into_iter().reduce(compose);
        composed = Some(match composed {
            Some(base) => compose(base, own),
            None => own,
        });
        let bundle = composed.expect("set above");
        self.done.insert(canonical, bundle.clone());
        Some(bundle)
    }

    /// A behavior in a repository whose root holds a bundle can name that
    /// bundle's namespace (upstream's nested-bundle detection): the nearest
    /// `bundle.md` or `bundle.yaml` above the file, up to `root` (a git
    /// checkout's) or else the repository's root (the directory with
    /// `.git`), never beyond: an unrelated bundle higher up must not claim a
    /// namespace.
    fn register_root_bundle(&mut self, file: &Path, root: Option<&Path>) {
        let Some(mut dir) = file.parent() else { return };
        let root = root.map(|root| root.canonicalize().unwrap_or_else(|_| root.to_owned()));
        loop {
            if let Ok(found) = locate_in(dir) {
                if found != file && self.roots.insert(found.clone()) {
                    if let Some(name) = bundle_name(&found) {
                        self.namespaces.entry(name).or_insert_with(|| dir.to_owned());
                    }
                }
                return;
            }
            if root.as_deref().map_or(dir.join(".git").exists(), |root| dir == root) {
                return;
            }
            match dir.parent() {
                Some(parent) => dir = parent,
                None => return,
            }
        }
    }

    fn includes(&mut self, node: &Node, base_dir: &Path) -> Vec<Bundle> {
        let Value::List(items) = &node.value else {
            self.error(node.pos, "includes", format!("expected a list of bundles, found {}", node.value.describe()));
            return Vec::new();
        };
        let mut bundles = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let field = format!("includes[{index}]");
            let (reference, pos, field) = match &item.value {
                Value::Str(text) => (text.clone(), item.pos, field),
                Value::Map(_) => match map_get(item, "bundle") {
                    Some(Node { value: Value::Str(text), pos }) => (text.clone(), *pos, format!("{field}.bundle")),
                    _ => {
                        self.error(item.pos, &field, "expected a bundle reference or `{bundle: …}`".into());
                        continue;
                    }
                },
                other => {
                    let message = format!("expected a bundle reference, found {}", other.describe());
                    self.error(item.pos, &field, message);
                    continue;
                }
            };
            if let Some(bundle) = self.include(&reference, base_dir, pos, &field) {
                bundles.push(bundle);
            }
        }
        bundles
    }

    fn include(&mut self, reference: &str, base_dir: &Path, pos: Pos, field: &str) -> Option<Bundle> {
        let (file, root) = match self.resolve_include(reference, base_dir) {
            Ok(found) => found,
            Err((message, hint)) => {
                let error = self.error(pos, field, message);
                if let Some(hint) = hint {
                    error.hint = Some(hint);
                }
                return None;
            }
        };
        let canonical = file.canonicalize().unwrap_or_else(|_| file.clone());
        if let Some(start) = self.chain.iter().position(|p| *p == canonical) {
            let mut names: Vec<String> = self.chain[start..].iter().map(|p| short(p)).collect();
            names.push(short(&canonical));
            let message = format!("include cycle: {}; this include is skipped", names.join(" → "));
            self.warn(pos, field, message);
            return None;
        }
        if let Some(bundle) = self.done.get(&canonical) {
            return Some(bundle.clone());
        }
        match std::fs::read_to_string(&file) {
            Ok(text) => {
                let display = self.display(&file);
                self.load_text(&file, &display, &text, root.as_deref())
            }
            Err(err) => {
                self.error(pos, field, format!("cannot read {}: {err}", file.display()));
                None
            }
        }
    }

    /// The file an include names, and the checkout it is in for a git one;
    /// or why not, with a hint.
    fn resolve_include(&self, reference: &str, base_dir: &Path) -> Result<Included, (String, Option<String>)> {
        if reference.starts_with("git+") {
            let fetched = self.fetcher.fetch(reference, base_dir).map_err(|message| (message, None))?;
            let file = find_resource(&fetched.path)
                .ok_or_else(|| (format!("`{reference}` names no bundle in its repository"), None))?;
            return Ok((file, Some(fetched.root)));
        }
        if let Some(path) = reference.strip_prefix("file://") {
            let file = find_resource(Path::new(path)).ok_or_else(|| (format!("no bundle at {path}"), None))?;
            return Ok((file, None));
        }
        if reference.contains("://") {
            let message =
                format!("`{reference}`: only `git+` URLs, `file://` URLs, paths and `namespace:path` can be included");
            return Err((message, None));
        }
        let is_path = reference.starts_with('.') || reference.starts_with('/') || reference.starts_with('~');
        if let (Some((namespace, rest)), false) = (reference.split_once(':'), is_path) {
            let Some(dir) = self.namespaces.get(namespace) else {
                let known: Vec<&str> = self.namespaces.keys().map(String::as_str).collect();
                let hint = format!(
                    "a namespace is the `bundle.name` of a bundle read before this include; known: {}",
                    if known.is_empty() { "none".to_owned() } else { known.join(", ") }
                );
                return Err((format!("unknown namespace `{namespace}` in `{reference}`"), Some(hint)));
            };
            let file = find_resource(&dir.join(rest))
                .ok_or_else(|| (format!("namespace `{namespace}` ({}) has no bundle `{rest}`", dir.display()), None))?;
            return Ok((file, None));
        }
        let path = base_dir.join(reference);
        match find_resource(&path) {
            Some(file) => Ok((file, None)),
            None if !reference.contains('/') && !reference.contains('.') => Err((
                format!("`{reference}` is neither a file beside this bundle nor a `namespace:path`"),
                Some("include a bundle by path, `git+URL@ref`, or `namespace:path`; there is no registry of bundle names".into()),
            )),
            None => Err((format!("no bundle at {}", path.display()), None)),
        }
    }

    fn module_list(&mut self, node: Option<&Node>, key: &str, base_dir: &Path) -> Vec<Node> {
        let Some(node) = node.filter(|n| !is_null(n)) else { return Vec::new() };
        let Value::List(items) = &node.value else {
            let message = format!("expected a list of module specs, found {}", node.value.describe());
            self.error(node.pos, key, message);
            return Vec::new();
        };
        let mut items = items.clone();
        for item in &mut items {
            absolute_source(item, base_dir);
        }
        items
    }

    fn agents(&mut self, node: &Node, base_dir: &Path, bundle: &mut Bundle) {
        let Value::Map(entries) = &node.value else {
            // Upstream reads a string or list here as an agent file's
            // access rule, so a bundle's roster is empty.
            self.warn(node.pos, "agents", "expected a map with `include`; ignored".into());
            return;
        };
        for entry in entries {
            if entry.key != "include" {
                let mut overlay = entry.value.clone();
                overlay_sources(&mut overlay, base_dir);
                bundle.agents.insert(entry.key.clone(), Agent::Inline(overlay));
                continue;
            }
            for (reference, pos) in self.references(&entry.value, "agents.include") {
                let agent = Agent::Include { reference: reference.clone(), base_dir: base_dir.to_owned(), pos };
                bundle.agents.insert(reference, agent);
            }
        }
    }

    fn context(&mut self, node: &Node, name: &str, base_dir: &Path, bundle: &mut Bundle) {
        let Value::Map(entries) = &node.value else {
            self.error(node.pos, "context", format!("expected a map with `include`, found {}", node.value.describe()));
            return;
        };
        for entry in entries {
            if entry.key == "include" {
                for (reference, pos) in self.references(&entry.value, "context.include") {
                    let path = match reference.split_once(':') {
                        Some(_) => None,
                        None => Some(base_dir.join(reference.trim_start_matches('/'))),
                    };
                    // A plain path is keyed by where it is, so two bundles'
                    // files of one name stay two.
                    let key = match &path {
                        Some(path) => normalize(path).display().to_string(),
                        None => reference.clone(),
                    };
                    bundle.context.insert(key, ContextRef { reference, path, pos });
                }
            } else if let Value::Str(rel) = &entry.value.value {
                let reference = format!("{name}:{}", entry.key);
                let path = normalize(&base_dir.join(rel));
                let context = ContextRef { reference, path: Some(path.clone()), pos: entry.value.pos };
                bundle.context.insert(path.display().to_string(), context);
            } else {
                let message = format!("expected a path, found {}", entry.value.value.describe());
                self.error(entry.value.pos, &format!("context.{}", entry.key), message);
            }
        }
    }

    /// The strings of an `include:` list.
    fn references(&mut self, node: &Node, field: &str) -> Vec<(String, Pos)> {
        let Value::List(items) = &node.value else {
            self.error(node.pos, field, format!("expected a list, found {}", node.value.describe()));
            return Vec::new();
        };
        let mut found = Vec::new();
        for (index, item) in items.iter().enumerate() {
            match &item.value {
                Value::Str(text) if !text.is_empty() => found.push((text.clone(), item.pos)),
                other => {
                    let message = format!("expected a non-empty string, found {}", other.describe());
                    self.error(item.pos, &format!("{field}[{index}]"), message);
                }
            }
        }
        found
    }

    /// The composed bundle as a mount plan's tree, its system prompt built.
    fn mount_plan(&mut self, bundle: Bundle) -> Node {
        let start = Pos::start(FileId(0));
        let mut entries = Vec::new();
        let mut push = |key: &str, value: Node| entries.push(Entry { key: key.to_owned(), key_pos: value.pos, value });
        if let Some(session) = bundle.session {
            push("session", session);
        }
        for (key, items) in MODULE_LISTS.iter().zip(bundle.modules) {
            if let Some(first) = items.first() {
                let pos = first.pos;
                let items = items.into_iter().map(without_id).collect();
                push(key, Node { pos, value: Value::List(items) });
            }
        }
        let mut agents = Vec::new();
        for (name, agent) in bundle.agents {
            let overlay = match agent {
                Agent::Inline(node) => Some(node),
                Agent::Include { reference, base_dir, pos } => self.agent_file(&reference, &base_dir, pos),
            };
            if let Some(value) = overlay {
                agents.push(Entry { key: name, key_pos: value.pos, value });
            }
        }
        if let Some(first) = agents.first() {
            let pos = first.key_pos;
            push("agents", Node { pos, value: Value::Map(agents) });
        }
        if let Some(spawn) = bundle.spawn {
            push("spawn", spawn);
        }
        let prompt = self.system_prompt(bundle.instruction, bundle.context);
        if let Some((text, pos)) = prompt {
            let instruction =
                Entry { key: "instruction".into(), key_pos: pos, value: Node { pos, value: Value::Str(text) } };
            push("system", Node { pos, value: Value::Map(vec![instruction]) });
        }
        Node { pos: start, value: Value::Map(entries) }
    }

    /// Upstream's system prompt: the instruction, then (after a rule) the
    /// `context.include` files and what the instruction mentions.
    fn system_prompt(
        &mut self,
        instruction: Option<Instruction>,
        context: IndexMap<String, ContextRef>,
    ) -> Option<(String, Pos)> {
        let mut files = mention::ContextFiles::default();
        let mut pos = instruction.as_ref().map(|i| i.pos);
        for (_, entry) in context {
            pos.get_or_insert(entry.pos);
            let path = entry.path.or_else(|| {
                let (namespace, rest) = entry.reference.split_once(':')?;
                Some(self.namespaces.get(namespace)?.join(rest))
            });
            let added = path.as_deref().is_some_and(|path| files.add(path, Some(&entry.reference)));
            if !added {
                let message =
                    format!("context file `{}` was not found or is over 1 MiB; it is left out", entry.reference);
                self.warn(entry.pos, "context.include", message);
            }
        }
        let text = instruction.as_ref().map_or("", |i| i.text.as_str());
        if let Some(instruction) = &instruction {
            for (missing, why) in files.add_mentions(text, &self.namespaces, &self.cwd) {
                let at = Pos { line: instruction.pos.line + missing.line, ..instruction.pos };
                let message = format!("`{}` {why}; it stays in the prompt as written", missing.text);
                self.warn(at, "body", message);
            }
        }
        let pos = pos?;
        if files.is_empty() {
            return (!text.is_empty()).then(|| (text.to_owned(), pos));
        }
        Some((format!("{text}\n\n---\n\n{}", files.render()), pos))
    }

    /// An agent file (`agents/NAME.md` beneath its namespace) as a plan
    /// overlay: `description`, its module lists and session, and its body,
    /// mentions expanded, as `system.instruction`.
    fn agent_file(&mut self, reference: &str, base_dir: &Path, pos: Pos) -> Option<Node> {
        let (dir, name) = match reference.split_once(':') {
            Some((namespace, name)) => match self.namespaces.get(namespace) {
                Some(dir) => (dir.clone(), name),
                None => {
                    self.error(pos, "agents.include", format!("unknown namespace `{namespace}` in `{reference}`"));
                    return None;
                }
            },
            None => (base_dir.to_owned(), reference),
        };
        let file = dir.join("agents").join(format!("{name}.md"));
        let text = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(err) => {
                self.error(
                    pos,
                    "agents.include",
                    format!("agent `{reference}`: cannot read {}: {err}", file.display()),
                );
                return None;
            }
        };
        let (id, node, body, body_line) = self.parse(&file, self.display(&file), &text)?;
        let agent_dir = file.parent().map(Path::to_owned).unwrap_or_default();
        let entries = match node.value {
            Value::Map(entries) => entries,
            _ => Vec::new(),
        };
        let mut overlay = Vec::new();
        for entry in &entries {
            if !AGENT_KEYS.contains(&entry.key.as_str()) {
                let message = format!("`{}` means nothing here and is ignored", entry.key);
                self.warn(entry.key_pos, &entry.key, message);
            }
        }
        let meta = entries.iter().find(|e| e.key == "meta").map(|e| &e.value);
        let flat = Node { pos: node.pos, value: Value::Map(entries.clone()) };
        let description = meta.and_then(|m| map_get(m, "description")).or_else(|| map_get(&flat, "description"));
        if let Some(description) = description {
            overlay.push(Entry { key: "description".into(), key_pos: description.pos, value: description.clone() });
        }
        let plan = entries.into_iter().filter(|e| ["session", "providers", "tools", "hooks"].contains(&e.key.as_str()));
        let mut plan = Node { pos: node.pos, value: Value::Map(plan.collect()) };
        overlay_sources(&mut plan, &agent_dir);
        if let Value::Map(entries) = plan.value {
            overlay.extend(entries);
        }
        if !body.is_empty() {
            let mut files = mention::ContextFiles::default();
            let body_pos = Pos { line: body_line, column: 1, file: id };
            for (missing, why) in files.add_mentions(body, &self.namespaces, &self.cwd) {
                let at = Pos { line: body_line + missing.line, ..body_pos };
                self.warn(at, "body", format!("`{}` {why}; it stays in the prompt as written", missing.text));
            }
            // Upstream's layout for an agent: the files first.
            let text = if files.is_empty() { body.to_owned() } else { format!("{}\n\n{body}", files.render()) };
            let instruction = Entry {
                key: "instruction".into(),
                key_pos: body_pos,
                value: Node { pos: body_pos, value: Value::Str(text) },
            };
            overlay.push(Entry {
                key: "system".into(),
                key_pos: body_pos,
                value: Node { pos: body_pos, value: Value::Map(vec![instruction]) },
            });
        }
        Some(Node { pos: Pos::start(id), value: Value::Map(overlay) })
    }
}

/// `other` over `base`, as upstream's `Bundle.compose`.
fn compose(mut base: Bundle, other: Bundle) -> Bundle {
    if !other.name.is_empty() {
        base.name = other.name;
    }
    base.session = merge_optional(base.session, other.session);
    base.spawn = merge_optional(base.spawn, other.spawn);
    for (mine, theirs) in base.modules.iter_mut().zip(other.modules) {
        merge_modules(mine, theirs);
    }
    base.agents.extend(other.agents);
    base.context.extend(other.context);
    if other.instruction.is_some() {
        base.instruction = other.instruction;
    }
    base
}

fn merge_optional(base: Option<Node>, other: Option<Node>) -> Option<Node> {
    match (base, other) {
        (Some(base), Some(other)) => Some(deep_merge(base, other)),
        (base, other) => other.or(base),
    }
}

/// Maps merge key by key, lists are concatenated without repeats, and
/// anything else is replaced by `child`.
fn deep_merge(parent: Node, child: Node) -> Node {
    match (parent.value, child.value) {
        (Value::Map(mut entries), Value::Map(theirs)) => {
            for entry in theirs {
                match entries.iter().position(|e| e.key == entry.key) {
                    Some(i) => {
                        let old =
                            std::mem::replace(&mut entries[i].value, Node { pos: entry.value.pos, value: Value::Null });
                        entries[i].value = deep_merge(old, entry.value);
                    }
                    None => entries.push(entry),
                }
            }
            Node { pos: parent.pos, value: Value::Map(entries) }
        }
        (Value::List(mut items), Value::List(theirs)) => {
            for item in theirs {
                if !items.iter().any(|existing| same(existing, &item)) {
                    items.push(item);
                }
            }
            Node { pos: parent.pos, value: Value::List(items) }
        }
        (_, value) => Node { pos: child.pos, value },
    }
}

/// Module lists merge by `id` (else `module`): the same one is deep-merged
/// where it stands, a new one is added at the end.
fn merge_modules(base: &mut Vec<Node>, other: Vec<Node>) {
    for item in other {
        let id = module_id(&item);
        match base.iter().position(|existing| id.is_some() && module_id(existing) == id) {
            Some(i) => {
                let old = std::mem::replace(&mut base[i], Node { pos: item.pos, value: Value::Null });
                base[i] = deep_merge(old, item);
            }
            None => base.push(item),
        }
    }
}

fn module_id(node: &Node) -> Option<String> {
    string_at(node, "id").or_else(|| string_at(node, "module")).map(str::to_owned)
}

/// `id` names an entry for composition only; the plan has no such key.
fn without_id(mut node: Node) -> Node {
    if let Value::Map(entries) = &mut node.value {
        entries.retain(|e| e.key != "id");
    }
    node
}

/// Equal values, wherever they were written.
fn same(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::List(x), Value::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.key == b.key && same(&a.value, &b.value))
        }
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Str(x) | Value::Reference(x), Value::Str(y) | Value::Reference(y)) => x == y,
        _ => false,
    }
}

/// A `./` or `../` `source` made absolute from the bundle that wrote it,
/// so it still names the same crate once composed into another bundle.
fn absolute_source(spec: &mut Node, base_dir: &Path) {
    let Some(source) = map_value_mut(spec, "source") else { return };
    if let Value::Str(text) = &mut source.value {
        if text.starts_with("./") || text.starts_with("../") {
            *text = normalize(&base_dir.join(&*text)).display().to_string();
        }
    }
}

/// A `session` map's module sources made absolute.
fn session_sources(session: &mut Node, base_dir: &Path) {
    for key in ["orchestrator", "context"] {
        if let Some(spec) = map_value_mut(session, key) {
            absolute_source(spec, base_dir);
        }
    }
}

/// An agent's plan overlay with its `./` sources made absolute: its
/// session modules and its module lists.
fn overlay_sources(overlay: &mut Node, base_dir: &Path) {
    if let Some(session) = map_value_mut(overlay, "session") {
        session_sources(session, base_dir);
    }
    for key in MODULE_LISTS {
        if let Some(Node { value: Value::List(items), .. }) = map_value_mut(overlay, key) {
            items.iter_mut().for_each(|item| absolute_source(item, base_dir));
        }
    }
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn is_null(node: &Node) -> bool {
    matches!(node.value, Value::Null)
}

fn map_get<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    match &node.value {
        Value::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| &e.value),
        _ => None,
    }
}

fn map_value_mut<'n>(node: &'n mut Node, key: &str) -> Option<&'n mut Node> {
    match &mut node.value {
        Value::Map(entries) => entries.iter_mut().find(|e| e.key == key).map(|e| &mut e.value),
        _ => None,
    }
}

fn string_at<'n>(node: &'n Node, key: &str) -> Option<&'n str> {
    match map_get(node, key).map(|n| &n.value) {
        Some(Value::Str(text)) => Some(text),
        _ => None,
    }
}

fn locate_in(dir: &Path) -> std::io::Result<PathBuf> {
    let found = ["bundle.md", "bundle.yaml"].iter().map(|name| dir.join(name)).find(|p| p.is_file());
    found.ok_or_else(|| std::io::ErrorKind::NotFound.into())
}

/// Just the `bundle.name` of a bundle file.
fn bundle_name(file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let yaml = if file.extension().is_some_and(|e| e == "md") { split_markdown(&text).0 } else { text };
    let node = tree::parse(&yaml, &Files::one(""), FileId(0)).ok()?;
    string_at(map_get(&node, "bundle")?, "name").map(str::to_owned)
}

/// A file's last two path components, for a cycle's message.
fn short(path: &Path) -> String {
    let parts: Vec<_> = path.components().rev().take(2).collect();
    parts.iter().rev().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The compiled plan as YAML, `${VAR}` references as written: a plain
/// reference stays plain (the emitter would quote it, and a quoted
/// reference stays a string once expanded, where a plain one is typed).
pub(crate) fn to_yaml(root: &Node) -> String {
    use yaml_rust2::{Yaml, YamlEmitter};
    fn convert(node: &Node, references: &mut Vec<String>) -> Yaml {
        match &node.value {
            Value::Null => Yaml::Null,
            Value::Bool(b) => Yaml::Boolean(*b),
            Value::Int(n) => Yaml::Integer(*n),
            Value::Float(x) => Yaml::Real(x.to_string()),
            Value::Str(text) => Yaml::String(text.clone()),
            // A placeholder the emitter writes plain, replaced afterwards.
            Value::Reference(text) => {
                references.push(text.clone());
                Yaml::String(format!("AMPLIFIERREFERENCE{}X", references.len() - 1))
            }
            Value::List(items) => Yaml::Array(items.iter().map(|item| convert(item, references)).collect()),
            Value::Map(entries) => Yaml::Hash(
                entries.iter().map(|e| (Yaml::String(e.key.clone()), convert(&e.value, references))).collect(),
            ),
        }
    }
    let mut references = Vec::new();
    let document = convert(root, &mut references);
    let mut out = String::new();
    let mut emitter = YamlEmitter::new(&mut out);
    emitter.multiline_strings(true);
    emitter.dump(&document).expect("writing to a String");
    for (index, reference) in references.iter().enumerate() {
        out = out.replace(&format!("AMPLIFIERREFERENCE{index}X"), reference);
    }
    out.push('\n');
    out
}
