//! `context-persistent`: `context-simple` plus memory files.
//!
//! ```yaml
//! session:
//!   context:
//!     module: context-persistent
//!     config:
//!       memory_files: [AGENTS.md, ~/.amplifier/AGENTS.md]
//!       max_memory_chars: 20000     # per file; longer files are cut, saying so
//!       max_tokens: 100000          # and every other context-simple key
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/context-persistent.md`.
//!
//! At mount, each memory file that exists (relative paths resolve against
//! the current directory, `~/` against `$HOME`) becomes a labelled system
//! message at the start of the history; a missing file is skipped, an
//! unreadable one fails the mount. The history is kept in memory with
//! context-simple's compaction (`amplifier-context-core`).
//!
//! **Persistence** is the host's: `amplifier` stores every session's messages
//! and, on `amplifier resume`, restores them with `set_messages`. Memory
//! messages in a restored history are replaced by the files' current
//! contents, so an edited AGENTS.md is what a resumed session sees.

use std::path::Path;

use amplifier_context_core::{Config, InMemoryContext};
use amplifier_sdk::ops;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

/// `metadata.source` of a memory message.
const MEMORY_SOURCE: &str = "memory_file";

/// This module's own keys; the loader has filled in `amplifier.toml`'s
/// defaults. The compaction keys are `amplifier-context-core`'s, defaults
/// included (shared with context-simple).
struct MemoryConfig {
    memory_files: Vec<String>,
    max_memory_chars: usize,
}

struct PersistentContext {
    inner: InMemoryContext,
    memory: Vec<Message>,
}

impl ContextManager for PersistentContext {
    async fn add_message(&self, message: Message) -> ModuleResult<()> {
        self.inner.add_message(message).await
    }

    async fn get_messages(&self) -> ModuleResult<Vec<Message>> {
        self.inner.get_messages().await
    }

    async fn get_messages_for_request(&self, view: RequestView) -> ModuleResult<Vec<Message>> {
        self.inner.get_messages_for_request(view).await
    }

    async fn sync_view(&self, request: ops::ContextSyncView) -> ModuleResult<ops::ViewDelta> {
        self.inner.sync_view(request).await
    }

    async fn sync_messages(&self, request: ops::ContextSyncMessages) -> ModuleResult<ops::ViewDelta> {
        self.inner.sync_messages(request).await
    }

    async fn set_messages(&self, messages: Vec<Message>) -> ModuleResult<()> {
        self.inner.set_messages(with_memory(&self.memory, messages)).await
    }

    /// Clears the conversation; the memory files stay.
    async fn clear(&self) -> ModuleResult<()> {
        self.inner.set_messages(self.memory.clone()).await
    }
}

fn is_memory(message: &Message) -> bool {
    message.metadata.as_ref().and_then(|m| m.get("source")).and_then(Value::as_str) == Some(MEMORY_SOURCE)
}

/// `messages` with their memory messages replaced by `memory`, first.
fn with_memory(memory: &[Message], messages: Vec<Message>) -> Vec<Message> {
    memory.iter().cloned().chain(messages.into_iter().filter(|m| !is_memory(m))).collect()
}

/// One system message per memory file that exists, in the configured order.
fn load_memory(files: &[String], max_chars: usize) -> Result<Vec<Message>, String> {
    let mut memory = Vec::new();
    for configured in files {
        let path = amplifier_sdk::paths::expand(configured, Path::new(""));
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                tracing::debug!(path = %path.display(), "memory file not found; skipped");
                continue;
            }
            Err(err) => return Err(format!("cannot read memory file {}: {err}", path.display())),
        };
        let mut body: String = text.chars().take(max_chars).collect();
        if body.len() < text.len() {
            body.push_str(&format!(
                "\n[… cut: the file has {} characters; the first {max_chars} are shown]",
                text.chars().count()
            ));
        }
        let mut metadata = JsonMap::new();
        metadata.insert("source".into(), json!(MEMORY_SOURCE));
        metadata.insert("path".into(), json!(configured));
        let content = format!("<memory_file path=\"{configured}\">\n{}\n</memory_file>", body.trim_end());
        memory.push(Message { metadata: Some(metadata), ..Message::system(content) });
    }
    Ok(memory)
}

fn mount(ctx: MountContext) -> ModuleResult<PersistentContext> {
    let mut compaction = ctx.config.clone();
    let memory_config = MemoryConfig {
        memory_files: take(&mut compaction, "memory_files", ctx.module)?,
        max_memory_chars: take(&mut compaction, "max_memory_chars", ctx.module)?,
    };
    let config = Config::deserialize(Value::Object(compaction)).map_err(|err| {
        ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {}: {err}", ctx.module))
    })?;
    let memory = load_memory(&memory_config.memory_files, memory_config.max_memory_chars)
        .map_err(|message| ModuleError::new(ErrorKind::InvalidRequest, message))?;
    tracing::debug!(files = memory.len(), "memory files loaded");
    Ok(PersistentContext { inner: InMemoryContext::with_messages(&config, ctx.host, memory.clone()), memory })
}

/// Removes `key` from the config and parses it (absent reads as `null`).
fn take<T: serde::de::DeserializeOwned>(config: &mut JsonMap, key: &str, module: &str) -> ModuleResult<T> {
    T::deserialize(config.remove(key).unwrap_or(Value::Null)).map_err(|err| {
        ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {module}: {key}: {err}"))
    })
}

export_module!(context => mount);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_become_labelled_system_messages_and_missing_ones_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let agents = dir.path().join("AGENTS.md");
        std::fs::write(&agents, "Always answer in French.\n").unwrap();
        let files = vec![agents.display().to_string(), dir.path().join("missing.md").display().to_string()];
        let memory = load_memory(&files, 1000).unwrap();
        assert_eq!(memory.len(), 1);
        assert_eq!(memory[0].role, Role::System);
        let text = memory[0].content.text();
        assert!(text.starts_with(&format!("<memory_file path=\"{}\">", agents.display())), "{text}");
        assert!(text.contains("Always answer in French."), "{text}");
        assert!(is_memory(&memory[0]));
    }

    #[test]
    fn a_long_memory_file_is_cut_saying_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.md");
        std::fs::write(&path, "x".repeat(100)).unwrap();
        let memory = load_memory(&[path.display().to_string()], 10).unwrap();
        let text = memory[0].content.text();
        assert!(text.contains(&"x".repeat(10)) && !text.contains(&"x".repeat(11)), "{text}");
        assert!(text.contains("the file has 100 characters"), "{text}");
    }

    #[test]
    fn an_unreadable_memory_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = load_memory(&[dir.path().display().to_string()], 10).unwrap_err();
        assert!(err.contains("cannot read memory file"), "{err}");
    }

    #[test]
    fn restored_histories_get_the_current_memory_instead_of_the_stored_one() {
        let mut old = Message::system("<memory_file path=\"AGENTS.md\">\nold\n</memory_file>");
        old.metadata = Some([("source".to_owned(), json!(MEMORY_SOURCE))].into_iter().collect());
        let mut current = old.clone();
        current.content = MessageContent::Text("new".into());
        let restored =
            with_memory(&[current.clone()], vec![old, Message::user("hi"), Message::system("a hook's note")]);
        assert_eq!(restored.len(), 3);
        assert_eq!(restored[0], current);
        assert_eq!(restored[1].content.text(), "hi");
        assert_eq!(restored[2].content.text(), "a hook's note", "other system messages stay");
    }
}
