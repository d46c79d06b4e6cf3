//! `hooks-logging`: every event, one JSON line each:
//! `{"event", "timestamp", "session_id", "data"}`.
//!
//! Subscribes with `*` (which fires here, unlike upstream) at a late priority
//! so it records what redaction and other modifying hooks left.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use amplifier_sdk::prelude::*;
use serde::Deserialize;

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
struct Config {
    path: PathBuf,
    priority: i32,
    exclude_events: Vec<String>,
}

struct EventLog {
    file: Mutex<File>,
    priority: i32,
    exclude: Vec<String>,
}

impl EventLog {
    fn excluded(&self, event: &str) -> bool {
        self.exclude.iter().any(|pattern| match pattern.strip_suffix('*') {
            Some(prefix) => event.starts_with(prefix),
            None => pattern == event,
        })
    }
}

impl HookHandler for EventLog {
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![Subscription::new("*", self.priority, "hooks-logging")]
    }

    async fn handle(&self, event: &str, data: JsonMap) -> ModuleResult<HookResult> {
        if self.excluded(event) {
            return Ok(HookResult::continue_());
        }
        let record = json!({
            "event": event,
            "timestamp": data.get("timestamp"),
            "session_id": data.get("session_id"),
            "data": data,
        });
        let mut line = serde_json::to_vec(&record).map_err(|err| ModuleError::internal(err.to_string()))?;
        line.push(b'\n');
        // One write per line, so concurrent sessions appending to one file never interleave within a line.
        self.file
            .lock()
            .map_err(|_| ModuleError::internal("event log lock poisoned"))?
            .write_all(&line)
            .map_err(|err| ModuleError::internal(format!("cannot append to the event log: {err}")))?;
        Ok(HookResult::continue_())
    }
}

fn mount(ctx: MountContext) -> ModuleResult<EventLog> {
    let config: Config = ctx.config()?;
    if let Some(parent) = config.path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|err| ModuleError::internal(format!("cannot create {}: {err}", parent.display())))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.path)
        .map_err(|err| ModuleError::internal(format!("cannot open {}: {err}", config.path.display())))?;
    Ok(EventLog { file: Mutex::new(file), priority: config.priority, exclude: config.exclude_events })
}

export_module!(hook => mount);
