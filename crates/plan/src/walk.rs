//! Pass 2: the positioned tree, checked field by field, becomes a `MountPlan`.
//!
//! A check that fails records a diagnostic and hands back a placeholder, so the
//! walk goes on and one run reports every problem in the file; the plan is
//! discarded if any error was recorded.

use amplifier_kernel::models::JsonMap;
use amplifier_kernel::plan::{
    nearest_key, ConfigPositions, Isolation, ModuleKind, ModuleSpec, MountPlan, SessionSettings, SpawnPolicy,
    SystemPrompt, DEFAULT_CANCEL_GRACE_SECS, DEFAULT_INJECTION_BUDGET_PER_TURN, DEFAULT_INJECTION_SIZE_LIMIT,
};
use indexmap::IndexMap;
use serde_json::Value as Json;

use crate::diagnostic::{PlanDiagnostic, PlanError};
use crate::interpolate;
use crate::tree::{child_path, Entry, Files, Node, Pos, Value};

const TOP_KEYS: &[&str] =
    &["session", "providers", "tools", "hooks", "agents", "spawn", "system", "orchestrator", "context"];
const SESSION_KEYS: &[&str] = &[
    "orchestrator",
    "context",
    "resolver",
    "injection_size_limit",
    "injection_budget_per_turn",
    "tool_timeout",
    "tool_timeouts",
    "cancel_grace",
    "metadata",
    "raw",
    "orchestrator_source",
    "context_source",
];
const MODULE_KEYS: &[&str] = &["module", "source", "config", "instance_id", "isolation"];

/// Turns the tree into a plan plus warnings, or every error found.
pub(crate) fn mount_plan(
    root: &Node,
    files: &Files,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(MountPlan, Vec<PlanDiagnostic>), PlanError> {
    let mut walker = Walker { files, env, errors: Vec::new(), warnings: Vec::new() };
    let plan = walker.plan(root);
    let Walker { mut errors, mut warnings, .. } = walker;
    // Missing fields are found at their parent, after its children: sort so
    // output follows the file (and a bundle's files in the order they were read).
    errors.sort_by_key(|d| (d.file_index, d.line, d.column));
    warnings.sort_by_key(|d| (d.file_index, d.line, d.column));
    if errors.is_empty() {
        Ok((plan, warnings))
    } else {
        Err(PlanError::Invalid { errors, warnings })
    }
}

/// Whether strings get `${VAR}` expansion: config and sources do; metadata
/// and agent overlays are kept as written.
#[derive(Clone, Copy)]
enum Strings {
    Expand,
    Verbatim,
}

struct Walker<'a> {
    files: &'a Files,
    env: &'a dyn Fn(&str) -> Option<String>,
    errors: Vec<PlanDiagnostic>,
    warnings: Vec<PlanDiagnostic>,
}

/// A map whose keys have already been checked against the known ones.
struct Fields<'n> {
    pos: Pos,
    path: String,
    entries: &'n [Entry],
}

impl<'n> Fields<'n> {
    fn get(&self, key: &str) -> Option<&'n Node> {
        self.entries.iter().find(|entry| entry.key == key).map(|entry| &entry.value)
    }

    /// For optional fields an explicit `null` means the same as leaving it out.
    fn optional(&self, key: &str) -> Option<&'n Node> {
        self.get(key).filter(|node| !matches!(node.value, Value::Null))
    }

    fn path(&self, key: &str) -> String {
        child_path(&self.path, key)
    }
}

impl Walker<'_> {
    fn plan(&mut self, root: &Node) -> MountPlan {
        // An empty plan is missing its session rather than being the wrong type.
        let top = if let Value::Null = root.value {
            Some(Fields { pos: root.pos, path: String::new(), entries: &[] })
        } else {
            self.fields(root, String::new(), "a map", TOP_KEYS)
        };
        let Some(top) = top else {
            return MountPlan::new(placeholder_session());
        };
        let session = match top.get("session") {
            Some(node) => self.session(node),
            None => {
                let expected = "a map with `orchestrator` and `context`";
                self.missing(top.pos, "session", expected);
                placeholder_session()
            }
        };
        let mut plan = MountPlan::new(session);
        plan.providers = self.modules(&top, "providers", ModuleKind::Provider);
        plan.tools = self.modules(&top, "tools", ModuleKind::Tool);
        plan.hooks = self.modules(&top, "hooks", ModuleKind::Hook);
        plan.agents = self.agents(&top);
        if let Some(node) = top.optional("spawn") {
            plan.spawn = self.spawn(node);
        }
        if let Some(node) = top.optional("system") {
            plan.system = self.system(node);
        }
        // Upstream's legacy form: the session modules' config at the top level.
        for (key, spec) in [("orchestrator", &mut plan.session.orchestrator), ("context", &mut plan.session.context)] {
            if let Some(node) = top.optional(key) {
                self.legacy_config(node, key, spec);
            }
        }
        plan
    }

    /// `spawn: {exclude_tools: […], tools: […]}`.
    fn spawn(&mut self, node: &Node) -> SpawnPolicy {
        let mut policy = SpawnPolicy::default();
        let Some(fields) = self.fields(node, "spawn".into(), "a map", &["exclude_tools", "tools"]) else {
            return policy;
        };
        if let Some(node) = fields.optional("exclude_tools") {
            policy.exclude_tools = self.strings(node, &fields.path("exclude_tools"));
        }
        if let Some(node) = fields.optional("tools") {
            policy.tools = Some(self.strings(node, &fields.path("tools")));
        }
        policy
    }

    /// `system: {instruction: TEXT}`, kept as written (a prompt is no place
    /// for `${VAR}` expansion).
    fn system(&mut self, node: &Node) -> Option<SystemPrompt> {
        let fields = self.fields(node, "system".into(), "a map with `instruction`", &["instruction"])?;
        let node = fields.optional("instruction")?;
        let instruction = self.string(node, &fields.path("instruction"));
        (!instruction.is_empty()).then_some(SystemPrompt { instruction })
    }

    fn strings(&mut self, node: &Node, path: &str) -> Vec<String> {
        let Value::List(items) = &node.value else {
            self.mismatch(node, path, "a list of module ids");
            return Vec::new();
        };
        items.iter().enumerate().map(|(index, item)| self.non_empty_string(item, &format!("{path}[{index}]"))).collect()
    }

    /// Top-level `orchestrator: {config: …}` (or `context:`): its keys join
    /// the session module's config, which wins where both set one.
    fn legacy_config(&mut self, node: &Node, key: &str, spec: &mut ModuleSpec) {
        let Some(fields) = self.fields(node, key.into(), "a map with `config`", &["config"]) else { return };
        let Some(node) = fields.optional("config") else { return };
        let legacy = self.json_map(node, &fields.path("config"), Strings::Expand);
        let file = self.files.name(node.pos.file).to_owned();
        let mut positions = spec
            .config_positions
            .as_deref()
            .cloned()
            .unwrap_or_else(|| ConfigPositions { file: file.clone(), ..Default::default() });
        let mut found = ConfigPositions { file, ..Default::default() };
        key_positions(self.files, node, "", &mut found);
        for (name, value) in legacy {
            if !spec.config.contains_key(&name) {
                spec.config.insert(name, value);
            }
        }
        for (name, place) in found.keys {
            if positions.keys.contains_key(&name) {
                continue;
            }
            let file = found.files.get(&name).unwrap_or(&found.file);
            if *file != positions.file {
                positions.files.insert(name.clone(), file.clone());
            }
            positions.keys.insert(name, place);
        }
        spec.config_positions = Some(std::sync::Arc::new(positions));
    }

    fn session(&mut self, node: &Node) -> SessionSettings {
        let Some(fields) = self.fields(node, "session".into(), "a map", SESSION_KEYS) else {
            return placeholder_session();
        };
        let orchestrator = self.session_module(&fields, "orchestrator", ModuleKind::Orchestrator);
        let context = self.session_module(&fields, "context", ModuleKind::Context);
        let mut session = SessionSettings::new(orchestrator, context);
        session.resolver = fields
            .optional("resolver")
            .map(|node| self.module_spec(node, fields.path("resolver"), ModuleKind::Resolver));
        session.injection_size_limit = self.limit(&fields, "injection_size_limit", DEFAULT_INJECTION_SIZE_LIMIT);
        session.injection_budget_per_turn =
            self.limit(&fields, "injection_budget_per_turn", DEFAULT_INJECTION_BUDGET_PER_TURN);
        if let Some(node) = fields.get("tool_timeout") {
            session.tool_timeout = self.seconds(node, &fields.path("tool_timeout"), true);
        }
        if let Some(node) = fields.optional("tool_timeouts") {
            session.tool_timeouts = self.tool_timeouts(node, &fields.path("tool_timeouts"));
        }
        if let Some(node) = fields.get("cancel_grace") {
            let path = fields.path("cancel_grace");
            session.cancel_grace = self.seconds(node, &path, false).unwrap_or(DEFAULT_CANCEL_GRACE_SECS);
        }
        if let Some(node) = fields.optional("metadata") {
            session.metadata = self.json_map(node, &fields.path("metadata"), Strings::Verbatim);
        }
        if let Some(node) = fields.optional("raw") {
            session.raw = self.boolean(node, &fields.path("raw"));
        }
        // Upstream's legacy `session.orchestrator_source` / `context_source`.
        for (key, spec) in
            [("orchestrator_source", &mut session.orchestrator), ("context_source", &mut session.context)]
        {
            let Some(node) = fields.optional(key) else { continue };
            let path = fields.path(key);
            let text = self.string(node, &path);
            let source = self.expand(&text, node.pos, &path);
            match &spec.source {
                None => spec.source = Some(source),
                Some(given) if *given != source => {
                    let message = format!("`{key}` differs from `{}.source`, which wins", spec.field_path);
                    self.warn(node.pos, &path, message);
                }
                Some(_) => {}
            }
        }
        session
    }

    fn session_module(&mut self, fields: &Fields, key: &str, kind: ModuleKind) -> ModuleSpec {
        match fields.get(key) {
            Some(node) => self.module_spec(node, fields.path(key), kind),
            None => {
                self.missing(fields.pos, &fields.path(key), expected_module(kind));
                ModuleSpec::new("")
            }
        }
    }

    /// Absent -> the default; `null` -> `None` (unlimited).
    fn limit<T: TryFrom<i64>>(&mut self, fields: &Fields, key: &str, default: T) -> Option<T> {
        let Some(node) = fields.get(key) else {
            return Some(default);
        };
        let limit = match node.value {
            Value::Null => return None,
            Value::Int(n) => T::try_from(n).ok(),
            _ => None,
        };
        if limit.is_none() {
            self.mismatch(node, &fields.path(key), "a non-negative integer or null");
        }
        limit
    }

    /// A duration in seconds (an integer or a float, not negative); `null`
    /// (no limit) where `nullable`. A mismatch is reported and reads as `None`.
    fn seconds(&mut self, node: &Node, path: &str, nullable: bool) -> Option<f64> {
        let seconds = match node.value {
            Value::Null if nullable => return None,
            Value::Int(n) => Some(n as f64),
            Value::Float(x) => Some(x),
            _ => None,
        };
        match seconds.filter(|s| std::time::Duration::try_from_secs_f64(*s).is_ok()) {
            Some(seconds) => Some(seconds),
            None => {
                let expected = if nullable {
                    "a number of seconds (0 or more) or null"
                } else {
                    "a number of seconds (0 or more)"
                };
                self.mismatch(node, path, expected);
                None
            }
        }
    }

    fn tool_timeouts(&mut self, node: &Node, path: &str) -> IndexMap<String, Option<f64>> {
        let Value::Map(entries) = &node.value else {
            self.mismatch(node, path, "a map of tool names to seconds");
            return IndexMap::new();
        };
        entries
            .iter()
            .map(|entry| (entry.key.clone(), self.seconds(&entry.value, &child_path(path, &entry.key), true)))
            .collect()
    }

    fn modules(&mut self, top: &Fields, key: &str, kind: ModuleKind) -> Vec<ModuleSpec> {
        let Some(node) = top.optional(key) else {
            return Vec::new();
        };
        let path = top.path(key);
        let Value::List(items) = &node.value else {
            self.mismatch(node, &path, "a list of module specs");
            return Vec::new();
        };
        let mut specs: Vec<ModuleSpec> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let spec = self.module_spec(item, format!("{path}[{index}]"), kind);
            if kind == ModuleKind::Provider {
                self.check_mount_name(&spec, &specs, item.pos);
            }
            specs.push(spec);
        }
        specs
    }

    /// The kernel refuses duplicate mount names too, but only here is the
    /// line known.
    fn check_mount_name(&mut self, spec: &ModuleSpec, earlier: &[ModuleSpec], pos: Pos) {
        let name = spec.mount_name();
        // An empty name has already been reported as a bad `module`.
        if name.is_empty() {
            return;
        }
        if let Some(first) = earlier.iter().find(|other| other.mount_name() == name) {
            let message = format!("provider mount name `{name}` is already used by {}", first.field_path);
            let hint = format!("give each instance of `{}` its own `instance_id`", spec.module);
            self.error(self.diagnostic(pos, &spec.field_path, message).with_hint(hint));
        }
    }

    fn module_spec(&mut self, node: &Node, path: String, kind: ModuleKind) -> ModuleSpec {
        let mut spec = match &node.value {
            Value::Str(_) | Value::Reference(_) if accepts_bare_id(kind) => {
                ModuleSpec::new(self.non_empty_string(node, &path))
            }
            _ => self.module_map(node, &path, kind),
        };
        spec.field_path = path;
        spec
    }

    fn module_map(&mut self, node: &Node, path: &str, kind: ModuleKind) -> ModuleSpec {
        let Some(fields) = self.fields(node, path.to_owned(), expected_module(kind), MODULE_KEYS) else {
            return ModuleSpec::new("");
        };
        let module = match fields.get("module") {
            Some(node) => self.non_empty_string(node, &fields.path("module")),
            None => {
                self.missing(fields.pos, &fields.path("module"), "a non-empty string");
                String::new()
            }
        };
        let mut spec = ModuleSpec::new(module);
        if let Some(node) = fields.optional("source") {
            let path = fields.path("source");
            let source = self.string(node, &path);
            spec.source = Some(self.expand(&source, node.pos, &path));
        }
        if let Some(node) = fields.optional("config") {
            spec.config = self.json_map(node, &fields.path("config"), Strings::Expand);
            let file = self.files.name(node.pos.file).to_owned();
            let mut positions = ConfigPositions { file, ..Default::default() };
            key_positions(self.files, node, "", &mut positions);
            spec.config_positions = Some(std::sync::Arc::new(positions));
        }
        if let Some(node) = fields.optional("instance_id") {
            let path = fields.path("instance_id");
            if kind == ModuleKind::Provider {
                spec.instance_id = Some(self.non_empty_string(node, &path));
            } else {
                let message = "`instance_id` only applies to providers; ignored";
                self.warn(node.pos, &path, message.into());
            }
        }
        if let Some(node) = fields.optional("isolation") {
            let path = fields.path("isolation");
            spec.isolation = match &node.value {
                Value::Str(text) if text == "process" => Isolation::Process,
                Value::Str(text) if text == "in-process" => Isolation::InProcess,
                Value::Str(text) => {
                    let message = format!("expected `in-process` or `process`, found `{text}`");
                    self.error(self.diagnostic(node.pos, &path, message));
                    Isolation::InProcess
                }
                _ => {
                    self.mismatch(node, &path, "`in-process` or `process`");
                    Isolation::InProcess
                }
            };
        }
        spec
    }

    fn agents(&mut self, top: &Fields) -> IndexMap<String, Json> {
        let Some(node) = top.optional("agents") else {
            return IndexMap::new();
        };
        let path = top.path("agents");
        let Value::Map(entries) = &node.value else {
            self.mismatch(node, &path, "a map of agent names to plan overlays");
            return IndexMap::new();
        };
        if entries.is_empty() {
            // A router would fail every turn; say so now, not at the first one.
            let message = "names no agent; name at least one, or remove `agents:`".to_owned();
            self.error(self.diagnostic(node.pos, &path, message));
        }
        entries
            .iter()
            .map(|entry| {
                let overlay_path = child_path(&path, &entry.key);
                let overlay = self.json(&entry.value, &overlay_path, Strings::Verbatim);
                (entry.key.clone(), overlay)
            })
            .collect()
    }

    /// Checks that `node` is a map and warns about keys outside `known`.
    fn fields<'n>(&mut self, node: &'n Node, path: String, expected: &str, known: &[&str]) -> Option<Fields<'n>> {
        let Value::Map(entries) = &node.value else {
            self.mismatch(node, &path, expected);
            return None;
        };
        for entry in entries.iter().filter(|entry| !known.contains(&entry.key.as_str())) {
            let near = nearest_key(&entry.key, known.iter().copied())
                .map(|candidate| format!(" did you mean `{candidate}`?"))
                .unwrap_or_default();
            let message = format!("unknown key `{}` is ignored;{near} known keys: {}", entry.key, known.join(", "));
            let field = child_path(&path, &entry.key);
            self.warn(entry.key_pos, &field, message);
        }
        Some(Fields { pos: node.pos, path, entries })
    }

    fn json_map(&mut self, node: &Node, path: &str, strings: Strings) -> JsonMap {
        let Value::Map(entries) = &node.value else {
            self.mismatch(node, path, "a map");
            return JsonMap::new();
        };
        entries
            .iter()
            .map(|entry| {
                let value = self.json(&entry.value, &child_path(path, &entry.key), strings);
                (entry.key.clone(), value)
            })
            .collect()
    }

    fn json(&mut self, node: &Node, path: &str, strings: Strings) -> Json {
        match &node.value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(n) => Json::from(*n),
            Value::Float(x) => serde_json::Number::from_f64(*x).map_or_else(
                || {
                    let message = format!("expected a finite number, found {x}");
                    self.error(self.diagnostic(node.pos, path, message));
                    Json::Null
                },
                Json::Number,
            ),
            Value::Str(text) => Json::String(match strings {
                Strings::Expand => self.expand(text, node.pos, path),
                Strings::Verbatim => text.clone(),
            }),
            Value::Reference(text) => match strings {
                Strings::Expand => {
                    let expanded = self.expand(text, node.pos, path);
                    let typed = Node { pos: node.pos, value: crate::tree::plain(expanded) };
                    self.json(&typed, path, Strings::Verbatim)
                }
                Strings::Verbatim => Json::String(text.clone()),
            },
            Value::List(items) => items
                .iter()
                .enumerate()
                .map(|(index, item)| self.json(item, &format!("{path}[{index}]"), strings))
                .collect(),
            Value::Map(_) => Json::Object(self.json_map(node, path, strings)),
        }
    }

    fn expand(&mut self, text: &str, pos: Pos, path: &str) -> String {
        interpolate::expand(text, self.env).unwrap_or_else(|err| {
            let hint = err.hint();
            self.error(self.diagnostic(pos, path, err.to_string()).with_hint(hint));
            String::new()
        })
    }

    fn string(&mut self, node: &Node, path: &str) -> String {
        match &node.value {
            Value::Str(text) | Value::Reference(text) => text.clone(),
            _ => {
                self.mismatch(node, path, "a string");
                String::new()
            }
        }
    }

    fn non_empty_string(&mut self, node: &Node, path: &str) -> String {
        match &node.value {
            Value::Str(text) | Value::Reference(text) if !text.is_empty() => text.clone(),
            _ => {
                self.mismatch(node, path, "a non-empty string");
                String::new()
            }
        }
    }

    fn boolean(&mut self, node: &Node, path: &str) -> bool {
        match node.value {
            Value::Bool(b) => b,
            _ => {
                self.mismatch(node, path, "a boolean");
                false
            }
        }
    }

    fn mismatch(&mut self, node: &Node, path: &str, expected: &str) {
        let message = format!("expected {expected}, found {}", node.value.describe());
        self.error(self.diagnostic(node.pos, path, message));
    }

    fn missing(&mut self, pos: Pos, path: &str, expected: &str) {
        let message = format!("missing required field; expected {expected}");
        self.error(self.diagnostic(pos, path, message));
    }

    fn warn(&mut self, pos: Pos, path: &str, message: String) {
        self.warnings.push(self.diagnostic(pos, path, message));
    }

    fn error(&mut self, diagnostic: PlanDiagnostic) {
        self.errors.push(diagnostic);
    }

    fn diagnostic(&self, pos: Pos, path: &str, message: String) -> PlanDiagnostic {
        PlanDiagnostic::new(self.files.name(pos.file), pos, path, message)
    }
}

/// Records where each key of a map (and of the maps inside it) sits, by its
/// dotted path from `prefix`.
fn key_positions(files: &Files, node: &Node, prefix: &str, out: &mut ConfigPositions) {
    let Value::Map(entries) = &node.value else { return };
    for entry in entries {
        let path = if prefix.is_empty() { entry.key.clone() } else { format!("{prefix}.{}", entry.key) };
        out.keys.insert(path.clone(), (entry.key_pos.line, entry.key_pos.column));
        // A bundle's merged config holds keys from several files.
        let file = files.name(entry.key_pos.file);
        if file != out.file {
            out.files.insert(path.clone(), file.to_owned());
        }
        key_positions(files, &entry.value, &path, out);
    }
}

/// Upstream lets the session slots name just the module id
/// (`context: context-simple`); list entries must be maps.
fn accepts_bare_id(kind: ModuleKind) -> bool {
    matches!(kind, ModuleKind::Orchestrator | ModuleKind::Context | ModuleKind::Resolver)
}

fn expected_module(kind: ModuleKind) -> &'static str {
    if accepts_bare_id(kind) {
        "a module id or a map with `module`"
    } else {
        "a map with `module`"
    }
}

/// Stands in for a session that failed to parse; never returned to callers.
fn placeholder_session() -> SessionSettings {
    SessionSettings::new(ModuleSpec::new(""), ModuleSpec::new(""))
}
