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
use std::sync::OnceLock;

use amplifier_yaml::YamlError;
use clap::{Args, Subcommand};
use yaml_rust2::{Yaml, YamlEmitter};

use crate::error::{CliError, CliResult};
use crate::trust::{Untrusted, GUARDED_SETTINGS};

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
    pub value: Yaml,
    pub source: String,
}

/// The settings of the project in `project`, merged.
pub struct Settings {
    pub values: Vec<Setting>,
    /// Problems found (unreadable files, unknown keys), for the user.
    pub warnings: Vec<String>,
    /// Project files whose [guarded](crate::trust::GUARDED_SETTINGS)
    /// settings were left out: the user has not trusted them.
    pub untrusted: Vec<Untrusted>,
}

static CURRENT: OnceLock<Settings> = OnceLock::new();

impl Settings {
    /// This directory's settings, read once per process: a project file
    /// that sets a guarded key is trusted first (asked on a terminal,
    /// refused elsewhere), and its warnings are printed.
    pub fn current() -> CliResult<&'static Settings> {
        if let Some(settings) = CURRENT.get() {
            return Ok(settings);
        }
        let mut settings = Settings::load(Path::new("."));
        if !settings.untrusted.is_empty() {
            // The plan they name is asked about in the same question.
            let mut asked = settings.untrusted.clone();
            if let Some(plan) = Settings::project_plan(Path::new(".")) {
                let named_by = asked[0].file.display().to_string();
                asked.extend(crate::trust::untrusted_plan(&plan, &named_by)?);
            }
            crate::trust::require(&asked)?;
            settings = Settings::load(Path::new("."));
        }
        // A settings file left out (unreadable, not YAML, over a limit) or
        // a key it misspells would otherwise only show in `config show`.
        for warning in &settings.warnings {
            eprintln!("warning: {warning}");
        }
        Ok(CURRENT.get_or_init(|| settings))
    }

    /// The settings of the project in `project`, as they are now, leaving
    /// out the guarded keys of project files the user has not trusted.
    pub fn load(project: &Path) -> Settings {
        let files = [
            amplifier_models::amplifier_home().join("settings.yaml"),
            project.join(".amplifier").join("settings.yaml"),
            project.join(".amplifier").join("settings.local.yaml"),
        ];
        let mut warnings = Vec::new();
        let mut untrusted = Vec::new();
        let trust = crate::trust::list().map_err(|err| warnings.push(err.to_string())).ok();
        let mut values: Vec<Setting> = KNOWN
            .iter()
            .map(|(key, _, default, _)| Setting {
                key,
                value: parse_yaml(default).unwrap_or(Yaml::Null),
                source: "default".to_owned(),
            })
            .collect();
        for (rank, file) in files.iter().enumerate() {
            let Some((document, text)) = read(file, &mut warnings) else { continue };
            for key in unknown_keys(&document, "") {
                warnings.push(format!("{}: unknown setting `{key}` (known: {})", file.display(), known_keys()));
            }
            let guarded: Vec<String> = GUARDED_SETTINGS
                .iter()
                .filter_map(|key| lookup(&document, key).map(|value| format!("{key}: {}", shown(key, value))))
                .collect();
            // The user's own file is trusted; a project's, once the user says so.
            let refused = rank > 0 && !guarded.is_empty() && {
                let check = trust.as_ref().map(|list| Untrusted::check(list, file, text.into_bytes(), guarded.clone()));
                match check {
                    Some(None) => false,
                    Some(Some(file)) => {
                        untrusted.push(file);
                        true
                    }
                    None => true,
                }
            };
            for setting in values.iter_mut() {
                if refused && GUARDED_SETTINGS.contains(&setting.key) {
                    continue;
                }
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
                setting.value = parse_yaml(&text).unwrap_or(Yaml::String(text));
                setting.source = format!("${var}");
            }
        }
        Settings { values, warnings, untrusted }
    }

    /// The plan a project's settings files name, trusted or not (the later
    /// file wins), for `amplifier trust` to trust with them.
    pub fn project_plan(project: &Path) -> Option<PathBuf> {
        ["settings.local.yaml", "settings.yaml"].iter().find_map(|name| {
            let (document, _) = read(&project.join(".amplifier").join(name), &mut Vec::new())?;
            lookup(&document, "plan").and_then(Yaml::as_str).map(PathBuf::from)
        })
    }

    /// Whether the setting came from a project's file (not the user's own
    /// file, the environment or the default).
    pub fn set_by_project(&self, key: &str) -> bool {
        let source = self.source(key);
        source != user_file().display().to_string()
            && (source.ends_with("settings.yaml") || source.ends_with("settings.local.yaml"))
    }

    pub fn get(&self, key: &str) -> Option<&Yaml> {
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
            Some(value) => match value.as_i64().and_then(|n| u64::try_from(n).ok()) {
                Some(0) => Ok(None),
                Some(n) => Ok(Some(n)),
                None => {
                    let source = self.source(key);
                    Err(CliError::usage(format!(
                        "setting `{key}` is {}: expected a whole number (0 for no limit)",
                        inline(value)
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
            // A string as it is, unquoted; a PostgreSQL URL without its password.
            let value = shown(setting.key, &setting.value);
            out.push_str(&format!("{:<24} {value:<32} ({})\n", setting.key, setting.source));
        }
        for warning in &self.warnings {
            out.push_str(&format!("warning: {warning}\n"));
        }
        for file in &self.untrusted {
            out.push_str(&format!("warning: {}: left out until you trust it (`amplifier trust`)\n", file.summary()));
        }
        out
    }
}

/// A value as `config show` and the trust question print it: a store's
/// URL without its password.
fn shown(key: &str, value: &Yaml) -> String {
    let text = match value {
        Yaml::String(text) => text.clone(),
        other => inline(other),
    };
    match key {
        "store" => amplifier_store::redact_url(&text),
        _ => text,
    }
}

/// The file's settings and its text, when it exists and holds a mapping.
fn read(file: &Path, warnings: &mut Vec<String>) -> Option<(Yaml, String)> {
    let text = match amplifier_yaml::read_file(file) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
        Err(err) => {
            warnings.push(format!("{}: cannot read: {err}", file.display()));
            return None;
        }
    };
    match parse_yaml(&text) {
        Ok(Yaml::Null) => None,
        Ok(document @ Yaml::Hash(_)) => Some((document, text)),
        Ok(_) => {
            warnings.push(format!("{}: expected a mapping of settings", file.display()));
            None
        }
        Err(err) => {
            warnings.push(err.in_file(file));
            None
        }
    }
}

fn lookup<'a>(document: &'a Yaml, key: &str) -> Option<&'a Yaml> {
    key.split('.').try_fold(document, |value, part| value.as_hash()?.get(&Yaml::String(part.to_owned())))
}

/// Dotted keys in `document` that are not settings (nor parents of one).
fn unknown_keys(document: &Yaml, prefix: &str) -> Vec<String> {
    let Some(map) = document.as_hash() else { return Vec::new() };
    let mut unknown = Vec::new();
    for (key, value) in map {
        let Some(key) = key.as_str() else { continue };
        let path = if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") };
        if KNOWN.iter().any(|(known, ..)| *known == path) {
            continue;
        }
        if KNOWN.iter().any(|(known, ..)| known.starts_with(&format!("{path}."))) {
            unknown.extend(unknown_keys(value, &path));
        } else {
            unknown.push(path);
        }
    }
    unknown
}

/// The first document of a YAML text (`Null` for an empty one), within
/// the limits every YAML file is read with.
pub(crate) fn parse_yaml(text: &str) -> Result<Yaml, YamlError> {
    amplifier_yaml::load(text)
}

/// `value` as a YAML document, without the `---` line the emitter starts with.
pub(crate) fn yaml_text(value: &Yaml) -> String {
    let mut out = String::new();
    // Only a key that is itself a mapping or a list fails to emit, and
    // settings files have none; what was written is kept either way.
    let _ = YamlEmitter::new(&mut out).dump(value);
    out.strip_prefix("---\n").map(str::to_owned).unwrap_or(out)
}

/// `value` as YAML on one line, for messages and `config show`.
pub(crate) fn inline(value: &Yaml) -> String {
    match value {
        Yaml::Null => "null".to_owned(),
        other => yaml_text(other).replace('\n', " "),
    }
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
        let document = parse_yaml("plan: a\nevents: {max_rows: 5, color: red}\ntheme: dark\n").unwrap();
        assert_eq!(unknown_keys(&document, ""), ["events.color", "theme"]);
        assert_eq!(lookup(&document, "events.max_rows").and_then(Yaml::as_i64), Some(5));
    }

    #[test]
    fn values_show_on_one_line_and_a_store_url_without_its_password() {
        let setting = |key: &'static str, text: &str| Setting {
            key,
            value: parse_yaml(text).unwrap(),
            source: "test".to_owned(),
        };
        let settings = Settings {
            values: vec![
                setting("plan", "null"),
                setting("store", "postgres://amp:hunter2@db.internal/sessions"),
                setting("module_indexes", "[/srv/index, 'git+https://example.com/i.git']"),
                setting("events.max_rows", "10000"),
            ],
            warnings: Vec::new(),
            untrusted: Vec::new(),
        };
        let shown = settings.render();
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("db.internal/sessions"), "{shown}");
        let row = |key: &str| shown.lines().find(|l| l.starts_with(key)).unwrap().to_owned();
        assert!(row("plan ").contains(" null "), "{shown}");
        assert!(row("module_indexes").contains("- /srv/index - \"git+https://example.com/i.git\""), "{shown}");
        assert!(row("events.max_rows").contains(" 10000 "), "{shown}");
        assert_eq!(settings.limit("events.max_rows").unwrap(), Some(10000));
    }

    #[test]
    fn a_malformed_file_is_a_warning_naming_it_and_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.yaml");
        std::fs::write(&file, "plan: a.yaml\nevents: [1\nstrict: true\n").unwrap();
        let mut warnings = Vec::new();
        assert!(read(&file, &mut warnings).is_none());
        // `FILE:LINE:COLUMN: message`, as every YAML file's errors are.
        assert!(warnings.len() == 1 && warnings[0].starts_with(&format!("{}:3:", file.display())), "{warnings:?}");
        assert!(warnings[0].contains("invalid YAML"), "{warnings:?}");
        std::fs::write(&file, "- a list\n").unwrap();
        assert!(read(&file, &mut warnings).is_none());
        assert!(warnings[1].ends_with("expected a mapping of settings"), "{warnings:?}");
    }
}
