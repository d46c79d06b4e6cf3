//! `cargo xtask docs`: the generated pages of `docs/reference/`.
//!
//! - `modules/<name>.md`, one per `plugins/<name>/amplifier.toml`, and the
//!   index `README.md`: every config key with its type, constraints and
//!   description, straight from the manifest's `config_schema` (a default is
//!   written once, in the manifest);
//! - `events.md`: the event names of `crates/protocol/src/events.rs`, read
//!   from the source (the constants and their doc comments);
//! - `cli.md`: the command tree, printed as JSON by the `amplifier` binary
//!   itself (`amplifier reference-json`, a hidden command that walks clap's
//!   definitions in `crates/cli/src/reference.rs`) and rendered here (see
//!   `cli_reference.rs`).
//!
//! Everything is sorted or in source order, so the same inputs always give
//! the same bytes; `cargo xtask tidy` regenerates in memory and compares.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

pub type Result<T, E = Box<dyn Error>> = std::result::Result<T, E>;

/// Where the generated pages live, relative to the repository root.
pub const REFERENCE_DIR: &str = "docs/reference";

/// The hidden `amplifier` command that prints the command tree as JSON.
pub const CLI_REFERENCE_COMMAND: &str = "reference-json";

/// Every generated page, keyed by its path relative to the repository root.
/// `cli` is the command tree as the binary prints it ([`read_cli`]).
pub fn generate(root: &Path, cli: &Value) -> Result<BTreeMap<PathBuf, String>> {
    let modules = read_modules(root)?;
    let mut pages = BTreeMap::new();
    let reference = Path::new(REFERENCE_DIR);
    for module in &modules {
        pages.insert(reference.join("modules").join(format!("{}.md", module.name)), module_page(module));
    }
    pages.insert(reference.join("README.md"), index_page(&modules));
    pages.insert(reference.join("events.md"), events_page(&read_events(root)?));
    pages.insert(reference.join("cli.md"), cli_page(cli)?);
    Ok(pages)
}

/// Writes the pages and removes Markdown files of the reference directory
/// that are no longer generated. Returns how many files changed.
pub fn write(root: &Path, pages: &BTreeMap<PathBuf, String>) -> Result<usize> {
    let mut changed = 0;
    for stale in markdown_files(&root.join(REFERENCE_DIR))? {
        let relative = stale.strip_prefix(root)?.to_owned();
        if !pages.contains_key(&relative) {
            std::fs::remove_file(&stale)?;
            changed += 1;
        }
    }
    for (path, text) in pages {
        let path = root.join(path);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        std::fs::create_dir_all(path.parent().ok_or("a page has no parent directory")?)?;
        std::fs::write(&path, text)?;
        changed += 1;
    }
    Ok(changed)
}

/// The `.md` files under `dir` (none if it does not exist), sorted.
pub fn markdown_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => return Err(format!("{}: {err}", dir.display()).into()),
        };
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Names a built `amplifier` to print the command tree with, instead of
/// `cargo run`: CI passes the binary its tests just built.
pub const BINARY_VARIABLE: &str = "XTASK_AMPLIFIER_BIN";

/// The command tree: `amplifier reference-json`, run through
/// `cargo run -q --bin amplifier` in `root` (so the binary is current), or
/// the binary `$XTASK_AMPLIFIER_BIN` names.
pub fn read_cli(root: &Path) -> Result<Value> {
    let (mut command, what) = amplifier(root, &[CLI_REFERENCE_COMMAND]);
    let output = command
        .current_dir(root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|err| format!("could not run `{what}`: {err}"))?;
    if !output.status.success() {
        return Err(format!("`{what}` failed ({}); the CLI reference needs the binary", output.status).into());
    }
    serde_json::from_slice(&output.stdout).map_err(|err| format!("`{what}` printed no JSON: {err}").into())
}

/// `amplifier ARGS` in `root`: through `cargo run -q --bin amplifier` (so
/// the binary is current), or the binary `$XTASK_AMPLIFIER_BIN` names; and
/// how to say it in an error.
pub fn amplifier(root: &Path, args: &[&str]) -> (Command, String) {
    match std::env::var_os(BINARY_VARIABLE).filter(|bin| !bin.is_empty()) {
        Some(bin) => {
            let what = format!("{} {}", Path::new(&bin).display(), args.join(" "));
            let mut command = Command::new(root.join(bin));
            command.args(args);
            (command, what)
        }
        None => {
            let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
            command.args(["run", "-q", "--bin", "amplifier", "--"]).args(args);
            (command, format!("cargo run -q --bin amplifier -- {}", args.join(" ")))
        }
    }
}

fn generated_by(source: &str) -> String {
    format!("<!-- Generated by `cargo xtask docs` from {source}: edit that, not this file. -->\n\n")
}

// ---------------------------------------------------------------- modules

/// A module's manifest, `plugins/<dir>/amplifier.toml`.
#[derive(Debug)]
pub struct Module {
    pub name: String,
    /// The plugin's directory name under `plugins/`.
    pub dir: String,
    pub kinds: Vec<String>,
    pub version: String,
    pub abi: Option<i64>,
    pub description: String,
    /// `config_schema` as JSON (null when the manifest has none).
    pub schema: Value,
    /// `config_compat` as JSON: upstream's key names (null when none).
    pub compat: Value,
}

/// Every `plugins/*/amplifier.toml`, sorted by module name.
pub fn read_modules(root: &Path) -> Result<Vec<Module>> {
    let plugins = root.join("plugins");
    let mut modules = Vec::new();
    let entries = std::fs::read_dir(&plugins).map_err(|err| format!("{}: {err}", plugins.display()))?;
    for entry in entries {
        let dir = entry?.path();
        let manifest = dir.join("amplifier.toml");
        if !manifest.is_file() {
            continue;
        }
        let dir_name = dir.file_name().and_then(|n| n.to_str()).ok_or("a plugin directory name is not UTF-8")?;
        let source = format!("plugins/{dir_name}/amplifier.toml");
        let text = std::fs::read_to_string(&manifest).map_err(|err| format!("{source}: {err}"))?;
        modules.push(parse_module(dir_name, &text).map_err(|err| format!("{source}: {err}"))?);
    }
    modules.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(modules)
}

/// A manifest's text as a [`Module`].
pub fn parse_module(dir: &str, text: &str) -> Result<Module> {
    let table: toml::Table = toml::from_str(text)?;
    let json = serde_json::to_value(table)?;
    let module = json.get("module").ok_or("no [module] table")?;
    let string = |key: &str| module.get(key).and_then(Value::as_str).map(str::to_owned);
    Ok(Module {
        name: string("name").ok_or("[module] has no name")?,
        dir: dir.to_owned(),
        kinds: match module.get("kinds").or_else(|| module.get("kind")) {
            Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            Some(Value::String(kind)) => vec![kind.clone()],
            _ => Vec::new(),
        },
        version: string("version").unwrap_or_default(),
        abi: module.get("abi").and_then(Value::as_i64),
        description: string("description").unwrap_or_default(),
        schema: json.get("config_schema").cloned().unwrap_or(Value::Null),
        compat: json.get("config_compat").cloned().unwrap_or(Value::Null),
    })
}

/// Where a module of `kind` sits in a mount plan.
fn plan_place(kind: &str) -> Option<(&'static str, String)> {
    Some(match kind {
        "orchestrator" => {
            ("`session.orchestrator`", "session:\n  orchestrator:\n    module: NAME\n    config: {}".into())
        }
        "context" => ("`session.context`", "session:\n  context:\n    module: NAME\n    config: {}".into()),
        "provider" => ("an entry of `providers:`", "providers:\n  - module: NAME\n    config: {}".into()),
        "tool" => ("an entry of `tools:`", "tools:\n  - module: NAME\n    config: {}".into()),
        "hook" => ("an entry of `hooks:`", "hooks:\n  - module: NAME\n    config: {}".into()),
        "resolver" => ("`session.resolver`", "session:\n  resolver:\n    module: NAME\n    config: {}".into()),
        _ => return None,
    })
}

pub fn module_page(module: &Module) -> String {
    let manifest = format!("plugins/{}/amplifier.toml", module.dir);
    let mut out = generated_by(&manifest);
    let _ = writeln!(out, "# {}\n", module.name);
    if !module.description.is_empty() {
        let _ = writeln!(out, "{}\n", escape_text(&module.description));
    }
    let _ = writeln!(out, "| | |\n|---|---|");
    let _ = writeln!(out, "| kind | {} |", module.kinds.join(", "));
    let _ = writeln!(out, "| version | {} |", module.version);
    if let Some(abi) = module.abi {
        let _ = writeln!(out, "| plugin ABI | {abi} |");
    }
    let _ = writeln!(out, "| manifest | [`{manifest}`](../../../{manifest}) |\n");

    let _ = writeln!(out, "## Config\n");
    let places: Vec<_> = module.kinds.iter().filter_map(|kind| plan_place(kind)).collect();
    if let Some((place, _)) = places.first() {
        let _ = write!(out, "The `config` map of the module's mount in a plan ({place}). ");
    }
    let rows = config_rows(&module.schema);
    if rows.is_empty() {
        let _ = writeln!(out, "The module takes no configuration.\n");
    } else {
        let closed = module.schema.get("additionalProperties") == Some(&Value::Bool(false));
        let _ = writeln!(
            out,
            "{}The loader validates it against this schema before the module is mounted.\n",
            if closed {
                "A key not listed here is dropped with a warning naming its line (an error under `--strict`). "
            } else {
                ""
            }
        );
        let _ = writeln!(out, "| key | type | description |\n|---|---|---|");
        for row in &rows {
            let _ = writeln!(out, "| `{}` | {} | {} |", row.key.replace('|', "\\|"), row.ty, row.description);
        }
        out.push('\n');
    }
    if let Some((_, example)) = places.first() {
        let _ = writeln!(out, "```yaml\n{}\n```\n", example.replace("NAME", &module.name));
    }
    compat_section(&mut out, &module.compat);
    let _ = writeln!(
        out,
        "What the standard modules do, and how they behave: [the standard modules](../../user/modules.md)."
    );
    out
}

/// Upstream Amplifier's keys for the module: renamed to ours, or ignored.
fn compat_section(out: &mut String, compat: &Value) {
    let table = |key: &str| compat.get(key).and_then(Value::as_object).filter(|t| !t.is_empty());
    let (aliases, ignored) = (table("aliases"), table("ignored"));
    if aliases.is_none() && ignored.is_none() {
        return;
    }
    let _ = writeln!(
        out,
        "### Upstream's keys

A config written for upstream Amplifier's module of this name may also use:
"
    );
    let _ = writeln!(
        out,
        "| upstream key | here |
|---|---|"
    );
    for (theirs, ours) in aliases.into_iter().flatten() {
        let _ = writeln!(out, "| `{theirs}` | read as `{}` |", ours.as_str().unwrap_or_default());
    }
    for (theirs, why) in ignored.into_iter().flatten() {
        let _ = writeln!(
            out,
            "| `{theirs}` | ignored, with a warning: {} |",
            escape_cell(why.as_str().unwrap_or_default())
        );
    }
    out.push('\n');
}

pub fn index_page(modules: &[Module]) -> String {
    let mut out =
        String::from("<!-- Generated by `cargo xtask docs`: edit the sources it names, not this file. -->\n\n");
    out.push_str(
        "# Reference\n\n\
         These pages are generated by `cargo xtask docs`, each from the one place its facts are written, and \
         `cargo xtask tidy` fails when one is stale.\n\n\
         - [The command line](cli.md): every `amplifier` command and option, from the CLI's clap definitions.\n\
         - [Events](events.md): the event names of the protocol crate.\n\
         - The standard modules, one page each, from their `amplifier.toml`: kind, version and every config key \
         with its type and default.\n\n\
         | module | kind | description |\n|---|---|---|\n",
    );
    for module in modules {
        let _ = writeln!(
            out,
            "| [`{name}`](modules/{name}.md) | {} | {} |",
            module.kinds.join(", "),
            escape_cell(&module.description),
            name = module.name,
        );
    }
    out
}

/// One line of a config table.
#[derive(Debug, PartialEq, Eq)]
pub struct ConfigRow {
    pub key: String,
    /// Markdown: the type and its constraints, escaped for a table cell.
    pub ty: String,
    /// Markdown, escaped for a table cell.
    pub description: String,
}

/// The rows of a `config_schema`: each property, sorted, then the keys of
/// its nested objects (`parent.child`), of its array items (`parent[].child`)
/// and of its map values (`parent.<name>.child`).
pub fn config_rows(schema: &Value) -> Vec<ConfigRow> {
    let mut rows = Vec::new();
    property_rows(schema, schema, "", &mut rows, 0);
    rows
}

fn property_rows(object: &Value, root: &Value, prefix: &str, rows: &mut Vec<ConfigRow>, depth: usize) {
    let Some(properties) = object.get("properties").and_then(Value::as_object) else { return };
    let required: Vec<&str> =
        object.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let mut names: Vec<&String> = properties.keys().collect();
    names.sort();
    for name in names {
        let property = &properties[name];
        let key = format!("{prefix}{name}");
        let (schema, same_as) = resolve(property, root);
        let mut ty = match &same_as {
            Some(other) => format!("as {}", code(other)),
            None => type_text(schema, root),
        };
        if required.contains(&name.as_str()) {
            ty.push_str(", required");
        }
        let description = property.get("description").or_else(|| schema.get("description")).and_then(Value::as_str);
        let mut description = description.map(escape_cell).unwrap_or_default();
        if let Some(default) = property.get("default").or_else(|| schema.get("default")) {
            if !description.is_empty() {
                description.push(' ');
            }
            let _ = write!(description, "(default {})", code(&default.to_string()));
        }
        rows.push(ConfigRow { key: key.clone(), ty, description });
        if same_as.is_some() || depth >= 6 {
            continue;
        }
        property_rows(schema, root, &format!("{key}."), rows, depth + 1);
        if let Some(items) = schema.get("items") {
            property_rows(resolve(items, root).0, root, &format!("{key}[]."), rows, depth + 1);
        }
        if let Some(values) = schema.get("additionalProperties").filter(|v| v.is_object()) {
            property_rows(resolve(values, root).0, root, &format!("{key}.<name>."), rows, depth + 1);
        }
    }
}

/// Follows a local `$ref`. A reference to another property (`#/properties/x`)
/// is not followed: it comes back as that property's dotted name.
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> (&'a Value, Option<String>) {
    let Some(reference) = schema.get("$ref").and_then(Value::as_str) else { return (schema, None) };
    let Some(pointer) = reference.strip_prefix('#') else { return (schema, None) };
    if let Some(property) = pointer.strip_prefix("/properties/") {
        return (schema, Some(property.replace("/properties/", ".")));
    }
    match root.pointer(pointer) {
        Some(target) => (target, None),
        None => (schema, None),
    }
}

/// The type of a schema and its constraints, as Markdown for a table cell.
pub fn type_text(schema: &Value, root: &Value) -> String {
    let mut text = base_type(schema, root);
    let constraints = constraints(schema);
    if !constraints.is_empty() {
        let _ = write!(text, ", {}", constraints.join(", "));
    }
    text
}

fn base_type(schema: &Value, root: &Value) -> String {
    let schema = resolve(schema, root).0;
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let values: Vec<String> = values.iter().map(|v| code(&json_text(v))).collect();
        return format!("one of {}", values.join(", "));
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(ty)) => vec![ty.as_str()],
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect(),
        _ if schema.get("properties").is_some() => vec!["object"],
        _ if schema.get("additionalProperties").is_some_and(Value::is_object) => vec!["object"],
        _ => return "any".into(),
    };
    let named: Vec<String> = types
        .iter()
        .map(|ty| match *ty {
            "array" => match schema.get("items") {
                Some(items) => {
                    let each = constraints(resolve(items, root).0);
                    let mut text = format!("array of {}", base_type(items, root));
                    if !each.is_empty() {
                        let _ = write!(text, " (each {})", each.join(", "));
                    }
                    text
                }
                None => "array".into(),
            },
            "object" => match schema.get("additionalProperties").filter(|v| v.is_object()) {
                Some(values) if schema.get("properties").is_none() => {
                    let each = constraints(resolve(values, root).0);
                    let mut text = format!("map of {}", base_type(values, root));
                    if !each.is_empty() {
                        let _ = write!(text, " (each {})", each.join(", "));
                    }
                    text
                }
                _ => "object".into(),
            },
            other => other.into(),
        })
        .collect();
    named.join(" or ")
}

fn constraints(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let number = |key: &str| schema.get(key).filter(|v| v.is_number()).map(json_text);
    if let Some(n) = number("minimum") {
        found.push(format!("≥ {n}"));
    }
    if let Some(n) = number("exclusiveMinimum") {
        found.push(format!("> {n}"));
    }
    if let Some(n) = number("maximum") {
        found.push(format!("≤ {n}"));
    }
    if let Some(n) = number("exclusiveMaximum") {
        found.push(format!("< {n}"));
    }
    match schema.get("minLength").and_then(Value::as_u64) {
        Some(1) => found.push("non-empty".into()),
        Some(n) => found.push(format!("at least {n} characters")),
        None => {}
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        found.push(format!("matching {}", code(pattern)));
    }
    if let Some(pattern) = schema.pointer("/propertyNames/pattern").and_then(Value::as_str) {
        found.push(format!("names matching {}", code(pattern)));
    }
    found
}

/// A JSON value as text: strings bare, the rest as JSON.
fn json_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A code span for a table cell (only `|` needs escaping there).
fn code(text: &str) -> String {
    format!("`{}`", text.replace('\n', " ").replace('|', "\\|"))
}

/// Text for a Markdown table cell: `|` escaped (inside code spans too, as
/// tables need), line breaks joined, `<` and `>` outside code spans escaped
/// so that `<name>` shows instead of vanishing as an HTML tag.
pub fn escape_cell(text: &str) -> String {
    escape_text(&text.replace('\n', " ")).replace('|', "\\|")
}

/// `<` and `>` outside code spans as entities.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(part);
        } else {
            out.push_str(&part.replace('<', "&lt;").replace('>', "&gt;"));
        }
    }
    out
}

// ---------------------------------------------------------------- events

pub const EVENTS_SOURCE: &str = "crates/protocol/src/events.rs";

/// One `pub const NAME: &str = "value";` of the events module.
#[derive(Debug, PartialEq, Eq)]
pub struct Event {
    pub constant: String,
    pub name: String,
    /// Its doc comment, joined into one line.
    pub doc: String,
}

fn read_events(root: &Path) -> Result<(String, Vec<Event>)> {
    let text = std::fs::read_to_string(root.join(EVENTS_SOURCE)).map_err(|err| format!("{EVENTS_SOURCE}: {err}"))?;
    let parsed = parse_events(&text);
    if parsed.1.is_empty() {
        return Err(format!("{EVENTS_SOURCE}: no `pub const NAME: &str = \"…\";` found").into());
    }
    Ok(parsed)
}

/// The module's `//!` text and its string constants in source order.
pub fn parse_events(source: &str) -> (String, Vec<Event>) {
    let mut intro = Vec::new();
    let mut events = Vec::new();
    let mut doc: Vec<&str> = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        if let Some(text) = line.strip_prefix("//!") {
            intro.push(text.trim());
        } else if let Some(text) = line.strip_prefix("///") {
            doc.push(text.trim());
        } else if let Some(rest) = line.strip_prefix("pub const ") {
            let parsed = rest.split_once(':').and_then(|(constant, rest)| {
                let value = rest.trim().strip_prefix("&str")?.trim().strip_prefix('=')?.trim();
                let value = value.strip_suffix(';')?.trim().strip_prefix('"')?.strip_suffix('"')?;
                Some((constant.trim(), value))
            });
            if let Some((constant, name)) = parsed {
                events.push(Event { constant: constant.to_owned(), name: name.to_owned(), doc: doc.join(" ") });
            }
            doc.clear();
        } else if !line.starts_with("#[") {
            doc.clear();
        }
    }
    (intro.join(" ").trim().to_owned(), events)
}

fn events_page((intro, events): &(String, Vec<Event>)) -> String {
    let mut out = generated_by(EVENTS_SOURCE);
    out.push_str("# Events\n\n");
    if !intro.is_empty() {
        let _ = writeln!(out, "{}\n", escape_text(intro));
    }
    out.push_str(
        "The kernel and the standard modules emit these names; a hook subscribes to a name, a prefix pattern \
         (`tool:*`) or `*`. In Rust they are the constants of `amplifier_protocol::events` (re-exported as \
         `amplifier_sdk::events`). Every event's data carries `session_id`, `parent_id` and a kernel-owned \
         `timestamp`.\n\n\
         | event | constant | |\n|---|---|---|\n",
    );
    for event in events {
        let _ =
            writeln!(out, "| `{}` | `{}` | {} |", escape_cell(&event.name), event.constant, escape_cell(&event.doc));
    }
    out.push_str(
        "\nModules emit events of their own too, documented with them: `tool-mcp`'s `mcp:*` and `tool-task`'s \
         `task:*` ([standard tools](../user/tools.md)), `tool-services`' `service:*` \
         ([remote services](../user/remote-services.md)), `orchestrator-router`'s `router:*` and `trace:*` \
         ([router](../user/router.md)), `orchestrator-plan`'s `plan:*` ([orchestrated runs](../user/orchestrated-runs.md)).\n",
    );
    out
}

// ---------------------------------------------------------------- CLI

fn cli_page(cli: &Value) -> Result<String> {
    let mut out = generated_by("the clap definitions of `crates/cli` (`amplifier reference-json`)");
    out.push_str(crate::cli_reference::markdown(cli)?.trim_end());
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TOOL: &str = r#"
[module]
name = "tool-demo"
kinds = ["tool"]
version = "0.2.0"
abi = 1
description = "Demo <tool> for tests"

[config_schema]
type = "object"
additionalProperties = false
required = ["path"]

[config_schema.properties.path]
type = "string"
description = "Where to write (default: none)"

[config_schema.properties.mode]
type = "string"
enum = ["a", "b"]

[config_schema.properties.limit]
type = ["integer", "null"]
minimum = 1
description = "At most this many (default 5)"

[config_schema.properties.rules]
type = "array"
description = "first|match"
items = { type = "object", required = ["tool"], properties = { tool = { type = "string", minLength = 1 } } }

[config_schema.properties.headers]
additionalProperties = { type = "string" }
"#;

    #[test]
    fn a_manifest_becomes_a_page_with_every_key() {
        let module = parse_module("tool-demo", TOOL).unwrap();
        assert_eq!(
            (module.name.as_str(), module.kinds.as_slice(), module.abi),
            ("tool-demo", &["tool".into()][..], Some(1))
        );
        let page = module_page(&module);
        assert!(page.starts_with("<!-- Generated by `cargo xtask docs` from plugins/tool-demo/amplifier.toml"));
        assert!(page.contains("Demo &lt;tool&gt; for tests"), "{page}");
        assert!(
            page.contains(
                "A key not listed here is dropped with a warning naming its line (an error under `--strict`)."
            ),
            "{page}"
        );
        assert!(page.contains("| `path` | string, required | Where to write (default: none) |"), "{page}");
        assert!(page.contains("| `mode` | one of `a`, `b` |  |"), "{page}");
        assert!(page.contains("| `limit` | integer or null, ≥ 1 | At most this many (default 5) |"), "{page}");
        assert!(page.contains("| `rules` | array of object | first\\|match |"), "{page}");
        assert!(page.contains("| `rules[].tool` | string, non-empty, required |  |"), "{page}");
        assert!(page.contains("| `headers` | map of string |  |"), "{page}");
        assert!(page.contains("tools:\n  - module: tool-demo\n    config: {}"), "{page}");
    }

    #[test]
    fn rows_are_sorted_and_follow_refs() {
        let schema = json!({
            "properties": {
                "servers": {"additionalProperties": {"$ref": "#/$defs/server"}, "description": "By name"},
                "aliases": {"$ref": "#/properties/servers"},
            },
            "$defs": {"server": {"properties": {"url": {"type": "string", "pattern": "^https?://"}}}},
        });
        let keys: Vec<String> = config_rows(&schema).into_iter().map(|row| format!("{} {}", row.key, row.ty)).collect();
        assert_eq!(
            keys,
            ["aliases as `servers`", "servers map of object", "servers.<name>.url string, matching `^https?://`"]
        );
    }

    #[test]
    fn a_schema_default_is_shown() {
        let rows = config_rows(&json!({"properties": {"n": {"type": "integer", "default": 3}}}));
        assert_eq!(rows[0].description, "(default `3`)");
    }

    #[test]
    fn events_come_from_the_constants_with_their_docs() {
        let source = "//! Event names.\n\npub const A: &str = \"a:start\";\n/// Before b.\n/// Really.\npub const B: &str = \"b:pre\";\nconst HIDDEN: &str = \"x\";\n";
        let (intro, events) = parse_events(source);
        assert_eq!(intro, "Event names.");
        assert_eq!(
            events,
            [
                Event { constant: "A".into(), name: "a:start".into(), doc: String::new() },
                Event { constant: "B".into(), name: "b:pre".into(), doc: "Before b. Really.".into() },
            ]
        );
    }

    #[test]
    fn the_repository_s_modules_all_have_pages() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let modules = read_modules(root).unwrap();
        let plugins = std::fs::read_dir(root.join("plugins"))
            .unwrap()
            .filter(|entry| entry.as_ref().unwrap().path().join("amplifier.toml").is_file())
            .count();
        assert_eq!(modules.len(), plugins);
        let bash = modules.iter().find(|m| m.name == "tool-bash").expect("tool-bash");
        let page = module_page(bash);
        assert!(page.contains("| `safety_profile` | one of `strict`, `standard`, `permissive` |"), "{page}");
        let cli = json!({"name": "demo", "usage": "demo", "subcommands": []});
        let pages = generate(root, &cli).unwrap();
        assert!(pages[Path::new("docs/reference/events.md")].contains("| `tool:pre` | `TOOL_PRE` |"));
        assert!(pages[Path::new("docs/reference/cli.md")].ends_with("```text\ndemo\n```\n"));
    }
}
