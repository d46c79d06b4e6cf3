//! Settings: three YAML files, later ones winning key by key, and the
//! environment over all of them. `amplifier config show` prints every
//! setting with the place its value came from, so no precedence is silent.
//!
//! | rank | where | for |
//! |---|---|---|
//! | 1 | built-in defaults | |
//! | 2 | `$AMPLIFIER_HOME/settings.yaml` | you, everywhere |
//! | 3 | `.amplifier/settings.yaml` | the project (commit it) |
//! | 4 | `.amplifier/settings.local.yaml` | you, in this project (approvals are remembered here) |
//! | 5 | environment variables | this shell |

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_yaml::Value;

use crate::error::{CliError, CliResult};

/// Every setting: its dotted key, the environment variable that overrides
/// it, its default, and what it does.
const KNOWN: &[(&str, Option<&str>, &str, &str)] = &[
    (
        "plan",
        Some("AMPLIFIER_PLAN"),
        "null",
        "the plan `amplifier run` and plain `amplifier` use when none is named (null: the default plan)",
    ),
    ("show_token_usage", None, "false", "the REPL prints tokens and cost after each turn"),
    (
        "strict",
        Some("AMPLIFIER_STRICT"),
        "false",
        "an unknown key in a plan or in a module's config is an error, not a warning (as `--strict`)",
    ),
    (
        "store",
        Some("AMPLIFIER_STORE"),
        "null",
        "the session store: a directory or `sqlite:DIR`, or a `postgres://` URL several machines share (null: $AMPLIFIER_HOME/sessions.db; as `--store`)",
    ),
    ("events.max_rows", Some("AMPLIFIER_EVENTS_MAX_ROWS"), "10000", "events kept per stored session (0: all)"),
    ("events.max_days", Some("AMPLIFIER_EVENTS_MAX_DAYS"), "0", "days events are kept (0: no limit)"),
    (
        "tool_results.max_bytes",
        Some("AMPLIFIER_TOOL_RESULTS_MAX_BYTES"),
        "1048576",
        "a larger tool result is kept as its beginning, the whole of it in a file (0: no limit)",
    ),
    ("approvals.always_allow", None, "[]", "questions answered \"Allow always\" (hooks-approval)"),
    (
        "module_indexes",
        Some("AMPLIFIER_MODULE_INDEXES"),
        "[]",
        "module indexes `module search`, `add` and `install NAME` read: directories, `git+` URLs, `https://` URLs",
    ),
];

/// One effective setting and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    pub key: &'static str,
    pub value: Value,
    pub source: String,
}

/// The settings of the project in `project`, merged.
pub struct Settings {
    pub values: Vec<Setting>,
    /// Problems found (unreadable files, unknown keys), for the user.
    pub warnings: Vec<String>,
}

impl Settings {
    pub fn load(project: &Path) -> Settings {
        let files = [
            amplifier_models::amplifier_home().join("settings.yaml"),
            project.join(".amplifier").join("settings.yaml"),
            project.join(".amplifier").join("settings.local.yaml"),
        ];
        let mut warnings = Vec::new();
        let mut values: Vec<Setting> = KNOWN
            .iter()
            .map(|(key, _, default, _)| Setting {
                key,
                value: serde_yaml::from_str(default).unwrap_or(Value::Null),
                source: "default".to_owned(),
            })
            .collect();
        for file in &files {
            let Some(document) = read(file, &mut warnings) else { continue };
            for key in unknown_keys(&document, "") {
                warnings.push(format!("{}: unknown setting `{key}` (known: {})", file.display(), known_keys()));
            }
            for setting in values.iter_mut() {
                if let Some(value) = lookup(&document, setting.key) {
                    setting.value = value.clone();
                    setting.source = file.display().to_string();
                }
            }
        }
        for setting in values.iter_mut() {
            let Some(var) = KNOWN.iter().find(|(key, ..)| *key == setting.key).and_then(|(_, var, ..)| *var) else {
                continue;
            };
            if let Ok(text) = std::env::var(var) {
                setting.value = serde_yaml::from_str(&text).unwrap_or(Value::String(text));
                setting.source = format!("${var}");
            }
        }
        Settings { values, warnings }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.values.iter().find(|s| s.key == key).map(|s| &s.value).filter(|v| !v.is_null())
    }

    /// Where the setting's value came from: a file, a variable or `default`.
    pub fn source(&self, key: &str) -> String {
        self.values.iter().find(|s| s.key == key).map(|s| s.source.clone()).unwrap_or_default()
    }

    /// A whole-number setting; `0` means no limit (`None`).
    pub fn limit(&self, key: &str) -> CliResult<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(value) => match value.as_u64() {
                Some(0) => Ok(None),
                Some(n) => Ok(Some(n)),
                None => {
                    let source = self.source(key);
                    Err(CliError::usage(format!(
                        "setting `{key}` is {}: expected a whole number (0 for no limit)",
                        serde_yaml::to_string(value).unwrap_or_default().trim_end()
                    ))
                    .hint(format!("it comes from {source}; `amplifier config show` lists every setting")))
                }
            },
        }
    }

    /// `amplifier config show` and the REPL's `/config`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for setting in &self.values {
            let value = serde_yaml::to_string(&setting.value).unwrap_or_default();
            let mut value = value.trim_end().replace('\n', " ");
            if setting.key == "store" {
                // A PostgreSQL URL may carry a password.
                value = amplifier_store::redact_url(&value);
            }
            out.push_str(&format!("{:<24} {value:<32} ({})\n", setting.key, setting.source));
        }
        for warning in &self.warnings {
            out.push_str(&format!("warning: {warning}\n"));
        }
        out
    }
}

fn read(file: &Path, warnings: &mut Vec<String>) -> Option<Value> {
    let text = std::fs::read_to_string(file).ok()?;
    match serde_yaml::from_str::<Value>(&text) {
        Ok(Value::Null) => None,
        Ok(document) if document.is_mapping() => Some(document),
        Ok(_) => {
            warnings.push(format!("{}: expected a mapping of settings", file.display()));
            None
        }
        Err(err) => {
            warnings.push(format!("{}: {err}", file.display()));
            None
        }
    }
}

fn lookup<'a>(document: &'a Value, key: &str) -> Option<&'a Value> {
    key.split('.').try_fold(document, |value, part| value.get(part))
}

/// Dotted keys in `document` that are not settings (nor parents of one).
fn unknown_keys(document: &Value, prefix: &str) -> Vec<String> {
    let Some(map) = document.as_mapping() else { return Vec::new() };
    let mut unknown = Vec::new();
    for key in map.keys().filter_map(Value::as_str) {
        let path = if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") };
        if KNOWN.iter().any(|(known, ..)| *known == path) {
            continue;
        }
        if KNOWN.iter().any(|(known, ..)| known.starts_with(&format!("{path}."))) {
            unknown.extend(unknown_keys(&map[key], &path));
        } else {
            unknown.push(path);
        }
    }
    unknown
}

fn known_keys() -> String {
    KNOWN.iter().map(|(key, ..)| *key).collect::<Vec<_>>().join(", ")
}

#[derive(Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    command: ConfigCommand,
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Every setting, its value, and the file or variable it came from.
    Show,
}

pub fn config(args: ConfigArgs) -> CliResult {
    match args.command {
        ConfigCommand::Show => {
            let settings = Settings::load(Path::new("."));
            print!("{}", settings.render());
            println!("\nprecedence, lowest first: default, {}, .amplifier/settings.yaml, .amplifier/settings.local.yaml, environment", user_file().display());
            Ok(())
        }
    }
}

fn user_file() -> PathBuf {
    amplifier_models::amplifier_home().join("settings.yaml")
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_tool_result_cap_defaults_to_the_hosts() {
        let default = KNOWN.iter().find(|(key, ..)| *key == "tool_results.max_bytes").unwrap().2;
        assert_eq!(default, amplifier_host::spill::DEFAULT_MAX_BYTES.to_string());
    }
    use super::*;

    #[test]
    fn unknown_keys_are_named_with_their_path() {
        let document: Value =
            serde_yaml::from_str("plan: a\nevents: {max_rows: 5, color: red}\ntheme: dark\n").unwrap();
        assert_eq!(unknown_keys(&document, ""), ["events.color", "theme"]);
        assert_eq!(lookup(&document, "events.max_rows").and_then(Value::as_u64), Some(5));
    }
}
