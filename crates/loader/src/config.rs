//! A module's `config`, from what the plan gives to what the module gets.
//!
//! A plan written for upstream Amplifier must load: its keys for the same
//! behaviour are renamed to ours (the manifest's `[config_compat]
//! aliases`), its keys that mean nothing here are dropped with a warning
//! that says why (`ignored`), and a key the module does not know at all is
//! dropped with a warning naming its line and the nearest known key, or
//! refused under `--strict`. Then the schema's defaults are filled in and
//! what is left is validated, before any of the module's code runs.

use amplifier_kernel::loading::{LoadError, LoadReason};
use amplifier_kernel::models::JsonMap;
use amplifier_kernel::plan::{nearest_key, ModuleSpec};
use serde_json::Value;

use crate::manifest::{ConfigCompat, Manifest};

/// Makes `config` what the module receives; returns the warnings.
pub(crate) fn configure(
    spec: &ModuleSpec,
    config: &mut JsonMap,
    manifest: &Manifest,
    strict: bool,
) -> Result<Vec<String>, LoadError> {
    let mut notes = Notes { spec, strict, warnings: Vec::new(), errors: Vec::new() };
    apply_compat(&manifest.config_compat, config, &mut notes);
    let Some(schema) = manifest.config_schema_json() else { return notes.finish(manifest) };
    drop_unknown(&schema, config, "", &mut notes);
    let warnings = notes.finish(manifest)?;
    amplifier_protocol::config::apply_defaults(&schema, config);
    let validator = jsonschema::validator_for(&schema).map_err(|err| {
        LoadError::new(
            LoadReason::InvalidModuleMetadata,
            format!("{}: config_schema is not a valid JSON Schema: {err}", manifest.path.display()),
        )
    })?;
    let config = Value::Object(config.clone());
    // The value itself is never shown: config holds API keys, and a huge
    // value would bury the message (the path says which value it is).
    let problems: Vec<String> = validator
        .iter_errors(&config)
        .map(|err| {
            let at = err.instance_path().to_string();
            format!("{}.config{}: {}", spec.field_path, at.replace('/', "."), err.masked_with("the value"))
        })
        .collect();
    if problems.is_empty() {
        return Ok(warnings);
    }
    Err(LoadError::new(
        LoadReason::ValidationFailed,
        format!("{} (schema: {})", problems.join("; "), manifest.path.display()),
    ))
}

/// What the checks found, each message already placed in the plan.
struct Notes<'a> {
    spec: &'a ModuleSpec,
    strict: bool,
    warnings: Vec<String>,
    errors: Vec<String>,
}

impl Notes<'_> {
    /// `plan.yaml:12:5: tools[0].config.key`, or just the field without positions.
    fn at(&self, key: &str) -> String {
        let field = format!("{}.config.{key}", self.spec.field_path);
        match self.spec.config_positions.as_ref().and_then(|p| p.place(key)) {
            Some(place) => format!("{place}: {field}"),
            None => field,
        }
    }

    fn warn(&mut self, key: &str, message: String) {
        let line = format!("{}: {message}", self.at(key));
        self.warnings.push(line);
    }

    fn finish(self, manifest: &Manifest) -> Result<Vec<String>, LoadError> {
        if self.errors.is_empty() {
            return Ok(self.warnings);
        }
        Err(LoadError::new(
            LoadReason::ValidationFailed,
            format!(
                "{} (schema: {}; without --strict an unknown key is a warning)",
                self.errors.join("; "),
                manifest.path.display()
            ),
        ))
    }
}

/// Renames upstream's keys to ours and drops the ones that mean nothing here.
fn apply_compat(compat: &ConfigCompat, config: &mut JsonMap, notes: &mut Notes) {
    for (theirs, ours) in &compat.aliases {
        let Some(value) = take(config, theirs) else { continue };
        if get(config, ours).is_some() {
            let message =
                format!("`{theirs}` is upstream's name for `{ours}`, which is set too; `{theirs}` is ignored");
            notes.warn(theirs, message);
        } else {
            set(config, ours, value);
        }
    }
    for (key, why) in &compat.ignored {
        if take(config, key).is_some() {
            let module = &notes.spec.module;
            notes.warn(key, format!("upstream's `{key}` means nothing to {module} and is ignored: {why}"));
        }
    }
}

/// Drops the keys a closed schema (`additionalProperties: false`) does not
/// know, at every level it describes.
fn drop_unknown(schema: &Value, config: &mut JsonMap, prefix: &str, notes: &mut Notes) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return };
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    let keys: Vec<String> = config.keys().cloned().collect();
    for key in keys {
        let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match properties.get(&key) {
            Some(property) => {
                if let Some(Value::Object(inner)) = config.get_mut(&key) {
                    drop_unknown(property, inner, &path, notes);
                }
            }
            None if closed => {
                config.remove(&key);
                let module = &notes.spec.module;
                let base = format!("unknown key `{key}` for module '{module}'");
                let near = nearest_key(&key, properties.keys().map(String::as_str))
                    .map(|near| format!("; did you mean `{near}`?"));
                let near = near.unwrap_or_default();
                let known: Vec<&str> = properties.keys().map(String::as_str).collect();
                let known = match known.is_empty() {
                    true => "it takes none".to_owned(),
                    false => format!("known keys: {}", known.join(", ")),
                };
                if notes.strict {
                    let line = format!("{}: {base}{near} ({known})", notes.at(&path));
                    notes.errors.push(line);
                } else {
                    notes.warn(&path, format!("{base} is ignored{near} ({known})"));
                }
            }
            None => {}
        }
    }
}

fn get<'a>(config: &'a JsonMap, path: &str) -> Option<&'a Value> {
    let (head, rest) = path.split_once('.').map_or((path, None), |(h, r)| (h, Some(r)));
    match rest {
        None => config.get(head),
        Some(rest) => get(config.get(head)?.as_object()?, rest),
    }
}

/// Removes the value at `path`, and a map it leaves empty.
fn take(config: &mut JsonMap, path: &str) -> Option<Value> {
    let Some((head, rest)) = path.split_once('.') else { return config.remove(path) };
    let inner = config.get_mut(head)?.as_object_mut()?;
    let value = take(inner, rest)?;
    if inner.is_empty() {
        config.remove(head);
    }
    Some(value)
}

fn set(config: &mut JsonMap, path: &str, value: Value) {
    let Some((head, rest)) = path.split_once('.') else {
        config.insert(path.to_owned(), value);
        return;
    };
    let entry = config.entry(head.to_owned()).or_insert_with(|| Value::Object(JsonMap::new()));
    if let Value::Object(inner) = entry {
        set(inner, rest, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn manifest(text: &str) -> Manifest {
        let head = "[module]\nname = \"m\"\nkinds = [\"tool\"]\nversion = \"1.0.0\"\nabi = 1\n";
        Manifest::parse(&format!("{head}\n{text}"), "amplifier.toml".into()).unwrap()
    }

    const SCHEMA: &str = "[config_schema]\ntype = \"object\"\nadditionalProperties = false\n\
        [config_schema.properties.path]\ntype = \"string\"\n\
        [config_schema.properties.show_thinking]\ntype = \"boolean\"\n\
        [config_schema.properties.limits]\ntype = \"object\"\nadditionalProperties = false\n\
        properties = { max = { type = \"integer\" } }\n\
        [config_compat]\naliases = { session_log_template = \"path\", \"ui.show_thinking_stream\" = \"show_thinking\" }\n\
        ignored = { auto_discover = \"every event is logged\" }\n";

    fn spec() -> ModuleSpec {
        let mut spec = ModuleSpec::new("m");
        spec.field_path = "hooks[0]".into();
        let mut positions = amplifier_kernel::plan::ConfigPositions { file: "plan.yaml".into(), ..Default::default() };
        positions.keys.insert("pth".into(), (7, 14));
        spec.config_positions = Some(std::sync::Arc::new(positions));
        spec
    }

    #[test]
    fn upstream_keys_are_renamed_or_dropped_with_the_reason() {
        let mut config = json!({
            "session_log_template": "a/{session_id}.jsonl",
            "ui": {"show_thinking_stream": true},
            "auto_discover": true,
        });
        let config = config.as_object_mut().unwrap();
        let warnings = configure(&spec(), config, &manifest(SCHEMA), false).unwrap();
        assert_eq!(Value::Object(config.clone()), json!({"path": "a/{session_id}.jsonl", "show_thinking": true}));
        assert_eq!(
            warnings,
            ["hooks[0].config.auto_discover: upstream's `auto_discover` means nothing to m and is ignored: every event is logged"]
        );
    }

    #[test]
    fn an_alias_never_overrides_our_own_key() {
        let mut config = json!({"session_log_template": "theirs", "path": "ours"});
        let config = config.as_object_mut().unwrap();
        let warnings = configure(&spec(), config, &manifest(SCHEMA), false).unwrap();
        assert_eq!(config["path"], "ours");
        assert!(warnings[0].contains("`session_log_template` is upstream's name for `path`, which is set too"));
    }

    #[test]
    fn an_unknown_key_is_a_warning_at_its_line_with_the_nearest_key_or_an_error_when_strict() {
        let mut config = json!({"pth": "x", "limits": {"max": 1, "maxs": 0}, "zzz": 1});
        let config = config.as_object_mut().unwrap();
        let warnings = configure(&spec(), &mut config.clone(), &manifest(SCHEMA), false).unwrap();
        assert_eq!(
            warnings,
            [
                "hooks[0].config.limits.maxs: unknown key `maxs` for module 'm' is ignored; did you mean `max`? (known keys: max)",
                "plan.yaml:7:14: hooks[0].config.pth: unknown key `pth` for module 'm' is ignored; did you mean `path`? \
                 (known keys: limits, path, show_thinking)",
                "hooks[0].config.zzz: unknown key `zzz` for module 'm' is ignored (known keys: limits, path, show_thinking)",
            ]
        );
        let err = configure(&spec(), config, &manifest(SCHEMA), true).unwrap_err();
        assert_eq!(err.reason, LoadReason::ValidationFailed);
        assert!(err.message.starts_with("hooks[0].config.limits.maxs: unknown key `maxs`"), "{}", err.message);
        assert!(err.message.contains("plan.yaml:7:14: hooks[0].config.pth: unknown key `pth`"), "{}", err.message);
        assert!(err.message.contains("without --strict an unknown key is a warning"), "{}", err.message);
    }

    #[test]
    fn an_open_schema_lets_any_key_through() {
        let mut config = json!({"anything": 1});
        let config = config.as_object_mut().unwrap();
        let open = "[config_schema]\ntype = \"object\"\nproperties = { path = { type = \"string\" } }\n";
        assert!(configure(&spec(), config, &manifest(open), true).unwrap().is_empty());
        assert_eq!(config["anything"], 1);
    }
}
