//! `hooks-logging`: every event, one JSON line each:
//! `{"event", "timestamp", "session_id", "data"}`.
//!
//! ```yaml
//! hooks:
//!   - module: hooks-logging
//!     config:
//!       path: ~/logs/{project}/{session_id}.jsonl   # upstream's session_log_template
//!       exclude_events: ["llm:stream_*delta"]       # fnmatch-style globs
//!       strip_raw: true                             # leave out providers' raw payloads
//! ```
//!
//! `path` is a template, as upstream's: `{session_id}` is each event's
//! (`data.session_id`), so one session's events land in its own file and
//! a file is opened on the first event that needs it; an event without a
//! session id is not logged when the path needs one. `{project}` is the
//! working directory as one name (`/home/a/p` → `-home-a-p`), and a leading
//! `~/` is `$HOME`. Without `path`, events go where upstream puts them:
//! `$AMPLIFIER_HOME/projects/{project}/sessions/{session_id}/events.jsonl`
//! (`$AMPLIFIER_HOME` defaults to `~/.amplifier`).
//!
//! Subscribes with `*` (which fires here, unlike upstream) at a late priority
//! so it records what redaction and other modifying hooks left. That is why
//! upstream's `auto_discover` and `additional_events` are accepted and
//! ignored: no event is missed to begin with. Upstream's
//! `session.working_dir` capability is not read (no front end here
//! registers it): `{project}` is the process's working directory.

use std::collections::hash_map::{Entry, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use amplifier_sdk::paths;
use amplifier_sdk::prelude::*;
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

/// Upstream's layout, under the amplifier home.
const DEFAULT_PATH: &str = "projects/{project}/sessions/{session_id}/events.jsonl";

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
struct Config {
    #[serde(default)]
    path: Option<String>,
    priority: i32,
    exclude_events: Vec<String>,
    strip_raw: bool,
}

/// What `~`, `{project}` and the default path stand for. Read once, at mount.
struct Env {
    home: Option<PathBuf>,
    amplifier_home: Option<PathBuf>,
    working_dir: Option<PathBuf>,
}

impl Env {
    fn current() -> Env {
        Env {
            home: paths::home(),
            amplifier_home: paths::var("AMPLIFIER_HOME"),
            working_dir: std::env::current_dir().ok(),
        }
    }
}

#[derive(Debug)]
enum Part {
    Text(String),
    SessionId,
}

/// `path` with `~/` and `{project}` filled in at mount; `{session_id}`
/// differs from event to event.
#[derive(Debug)]
struct PathTemplate {
    /// `$HOME` or the amplifier home, kept apart so a path that is not
    /// UTF-8 survives.
    base: Option<PathBuf>,
    parts: Vec<Part>,
}

impl PathTemplate {
    fn new(module: &str, path: Option<&str>, env: &Env) -> ModuleResult<PathTemplate> {
        let invalid = |message: String| {
            ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {module}: {message}"))
        };
        let (base, template) = match path {
            None => {
                let home = paths::amplifier_home_of(env.amplifier_home.clone(), env.home.as_deref())
                    .ok_or_else(|| invalid("no path, and neither AMPLIFIER_HOME nor HOME is set".into()))?;
                (Some(home), DEFAULT_PATH)
            }
            Some(path) => match path.strip_prefix("~/") {
                Some(rest) => {
                    let home = env.home.clone().ok_or_else(|| invalid(format!("path `{path}`: HOME is not set")))?;
                    (Some(home), rest)
                }
                None => (None, path),
            },
        };
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = template;
        while let Some((before, after)) = rest.split_once('{') {
            let Some((name, after)) = after.split_once('}') else { break };
            text.push_str(before);
            match name {
                "session_id" => {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                    parts.push(Part::SessionId);
                }
                "project" => {
                    let dir = env.working_dir.as_deref().ok_or_else(|| {
                        invalid("path: {project} needs the working directory, which cannot be read".into())
                    })?;
                    text.push_str(&project_slug(dir));
                }
                other => {
                    return Err(invalid(format!(
                        "path: unknown placeholder `{{{other}}}` (known: {{session_id}}, {{project}})"
                    )))
                }
            }
            rest = after;
        }
        text.push_str(rest);
        parts.push(Part::Text(text));
        Ok(PathTemplate { base, parts })
    }

    /// The file for an event of `session_id`; `None` when the path needs an id and there is none.
    fn resolve(&self, session_id: Option<&str>) -> Option<PathBuf> {
        let mut path = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => path.push_str(text),
                Part::SessionId => path.push_str(session_id?),
            }
        }
        Some(match &self.base {
            Some(base) => base.join(path),
            None => PathBuf::from(path),
        })
    }
}

/// The working directory as one file name, spelled as upstream does.
fn project_slug(dir: &Path) -> String {
    let slug: String = dir
        .to_string_lossy()
        .chars()
        .filter(|&c| c != ':')
        .map(|c| if c == '/' || c == '\\' { '-' } else { c })
        .collect();
    if slug.starts_with('-') {
        slug
    } else {
        format!("-{slug}")
    }
}

/// Whether a session id can be put in a path: it comes from event data, and
/// an id like `../x` or `/etc/x` would write outside the template's directory.
fn usable_in_path(id: &str) -> bool {
    !id.is_empty() && Path::new(id).components().all(|part| matches!(part, Component::Normal(_)))
}

struct EventLog {
    path: PathTemplate,
    /// One per resolved path, opened on its first event.
    files: Mutex<HashMap<PathBuf, File>>,
    priority: i32,
    exclude: GlobSet,
    strip_raw: bool,
}

impl EventLog {
    fn new(module: &str, config: Config, env: &Env) -> ModuleResult<EventLog> {
        let mut exclude = GlobSetBuilder::new();
        for (index, pattern) in config.exclude_events.iter().enumerate() {
            let glob = Glob::new(pattern).map_err(|err| {
                ModuleError::new(
                    ErrorKind::InvalidRequest,
                    format!("invalid config for {module}: exclude_events[{index}]: {err}"),
                )
            })?;
            exclude.add(glob);
        }
        let exclude = exclude.build().map_err(|err| {
            ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {module}: {err}"))
        })?;
        Ok(EventLog {
            path: PathTemplate::new(module, config.path.as_deref(), env)?,
            files: Mutex::default(),
            priority: config.priority,
            exclude,
            strip_raw: config.strip_raw,
        })
    }

    fn log(&self, event: &str, mut data: JsonMap) -> ModuleResult<()> {
        if self.exclude.is_match(event) {
            return Ok(());
        }
        let session_id = data.get("session_id").and_then(Value::as_str).filter(|id| usable_in_path(id));
        let Some(path) = self.path.resolve(session_id) else { return Ok(()) };
        if self.strip_raw {
            data.remove("raw");
        }
        let record = json!({
            "event": event,
            "timestamp": data.get("timestamp"),
            "session_id": data.get("session_id"),
            "data": data,
        });
        let mut line = serde_json::to_vec(&record).map_err(|err| ModuleError::internal(err.to_string()))?;
        line.push(b'\n');
        let mut files =
            self.files.lock().map_err(|_| ModuleError::internal("hooks-logging: event log lock poisoned"))?;
        let file = match files.entry(path) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => {
                let file = open(entry.key())?;
                entry.insert(file)
            }
        };
        // One write per line, so concurrent sessions appending to one file never interleave within a line.
        file.write_all(&line)
            .map_err(|err| ModuleError::internal(format!("hooks-logging: cannot append to the event log: {err}")))
    }
}

fn open(path: &Path) -> ModuleResult<File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|err| {
            ModuleError::internal(format!("hooks-logging: cannot create {}: {err}", parent.display()))
        })?;
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|err| ModuleError::internal(format!("hooks-logging: cannot open {}: {err}", path.display())))
}

impl HookHandler for EventLog {
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![Subscription::new("*", self.priority, "hooks-logging")]
    }

    async fn handle(&self, event: &str, data: JsonMap) -> ModuleResult<HookResult> {
        self.log(event, data)?;
        Ok(HookResult::continue_())
    }
}

fn mount(ctx: MountContext) -> ModuleResult<EventLog> {
    EventLog::new(ctx.module, ctx.config()?, &Env::current())
}

export_module!(hook => mount);

#[cfg(test)]
mod tests {
    use amplifier_sdk::testing::config_with_defaults;

    use super::*;

    const MANIFEST: &str = include_str!("../amplifier.toml");

    fn env() -> Env {
        Env { home: Some("/home/u".into()), amplifier_home: None, working_dir: Some("/home/u/work/my project".into()) }
    }

    fn template(path: Option<&str>, env: &Env) -> PathTemplate {
        PathTemplate::new("hooks-logging", path, env).unwrap()
    }

    fn event_log(config: Value, dir: &Path) -> EventLog {
        let env = Env { home: Some(dir.to_owned()), amplifier_home: None, working_dir: Some("/w".into()) };
        EventLog::new("hooks-logging", config_with_defaults(MANIFEST, config), &env).unwrap()
    }

    fn lines(path: &Path) -> Vec<Value> {
        std::fs::read_to_string(path).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    }

    #[test]
    fn the_project_is_the_working_directory_as_one_name() {
        assert_eq!(project_slug(Path::new("/home/a/p")), "-home-a-p");
        assert_eq!(project_slug(Path::new(r"C:\Users\a\p")), "-C-Users-a-p");
    }

    #[test]
    fn placeholders_are_filled_in_from_the_event_and_the_working_directory() {
        let path = template(Some("logs/{project}/{session_id}.jsonl"), &env());
        assert_eq!(path.resolve(Some("s1")), Some("logs/-home-u-work-my project/s1.jsonl".into()));
        assert_eq!(path.resolve(None), None, "no session id, no file");
        let fixed = template(Some("events.jsonl"), &env());
        assert_eq!(fixed.resolve(None), Some("events.jsonl".into()));
    }

    #[test]
    fn a_leading_tilde_is_home() {
        let path = template(Some("~/logs/{session_id}.jsonl"), &env());
        assert_eq!(path.resolve(Some("s1")), Some("/home/u/logs/s1.jsonl".into()));
        let no_home = Env { home: None, ..env() };
        let err = PathTemplate::new("hooks-logging", Some("~/x.jsonl"), &no_home).unwrap_err();
        assert!(err.message.contains("HOME is not set"), "{}", err.message);
    }

    #[test]
    fn without_a_path_events_go_under_the_amplifier_home() {
        let path = template(None, &Env { amplifier_home: Some("/ah".into()), ..env() });
        assert_eq!(
            path.resolve(Some("s1")),
            Some("/ah/projects/-home-u-work-my project/sessions/s1/events.jsonl".into())
        );
        let path = template(None, &env());
        assert_eq!(
            path.resolve(Some("s1")),
            Some("/home/u/.amplifier/projects/-home-u-work-my project/sessions/s1/events.jsonl".into())
        );
    }

    #[test]
    fn an_unknown_placeholder_is_a_mount_error_naming_it() {
        let err = PathTemplate::new("hooks-logging", Some("logs/{date}/{session_id}.jsonl"), &env()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidRequest);
        assert!(err.message.starts_with("invalid config for hooks-logging: "), "{}", err.message);
        assert!(err.message.contains("unknown placeholder `{date}`"), "{}", err.message);
    }

    #[test]
    fn each_session_gets_its_own_file_and_an_id_cannot_climb_out() {
        let dir = tempfile::tempdir().unwrap();
        let log = event_log(json!({"path": "~/logs/{session_id}/events.jsonl"}), dir.path());
        for session_id in ["a", "b", "a", "../escape", ""] {
            log.log("session:start", event_data(json!({"session_id": session_id}))).unwrap();
        }
        log.log("session:start", event_data(json!({}))).unwrap();
        assert_eq!(lines(&dir.path().join("logs/a/events.jsonl")).len(), 2);
        assert_eq!(lines(&dir.path().join("logs/b/events.jsonl"))[0]["session_id"], "b");
        let mut written: Vec<_> =
            std::fs::read_dir(dir.path().join("logs")).unwrap().map(|e| e.unwrap().file_name()).collect();
        written.sort();
        assert_eq!(written, ["a", "b"], "an empty id would have made logs/events.jsonl");
        assert!(!dir.path().join("escape").exists());
    }

    #[test]
    fn excluded_events_are_matched_as_globs() {
        let dir = tempfile::tempdir().unwrap();
        let log = event_log(
            json!({"path": "~/events.jsonl", "exclude_events": ["llm:stream_*delta", "tool:?re"]}),
            dir.path(),
        );
        for event in ["llm:stream_text_delta", "llm:stream_delta", "tool:pre", "llm:stream_end", "tool:post"] {
            log.log(event, JsonMap::new()).unwrap();
        }
        let logged: Vec<Value> =
            lines(&dir.path().join("events.jsonl")).into_iter().map(|l| l["event"].clone()).collect();
        assert_eq!(logged, ["llm:stream_end", "tool:post"]);
        let config = config_with_defaults(MANIFEST, json!({"exclude_events": ["llm:["]}));
        let err = EventLog::new("hooks-logging", config, &env()).err().unwrap();
        assert!(err.message.starts_with("invalid config for hooks-logging: exclude_events[0]: "), "{}", err.message);
    }

    #[test]
    fn strip_raw_leaves_out_the_raw_payload() {
        let dir = tempfile::tempdir().unwrap();
        let data = json!({"session_id": "s", "raw": {"body": "…"}, "model": "m"});
        for (strip_raw, file) in [(false, "kept.jsonl"), (true, "stripped.jsonl")] {
            let log = event_log(json!({"path": format!("~/{file}"), "strip_raw": strip_raw}), dir.path());
            log.log("llm:response", event_data(data.clone())).unwrap();
        }
        assert_eq!(lines(&dir.path().join("kept.jsonl"))[0]["data"], data);
        assert_eq!(lines(&dir.path().join("stripped.jsonl"))[0]["data"], json!({"session_id": "s", "model": "m"}));
    }
}
