//! Tool results too large to keep: the whole output goes to a file under
//! the state directory, and the session (the model, the store) keeps its
//! beginning with the file's path. A 200 MB tool result once became a
//! 2.2 GB process and a 420 MB database.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use amplifier_kernel::models::ToolResult;
use amplifier_kernel::services::ResultSpill;
use serde_json::{json, Value};

/// The default cap on a tool result's JSON, in bytes.
pub const DEFAULT_MAX_BYTES: usize = 1 << 20;

pub(crate) struct Spill {
    dir: PathBuf,
    max_bytes: usize,
    count: AtomicU64,
}

impl Spill {
    /// Spills the results of session `session_id` over `max_bytes` into
    /// `state_dir/spill/<session_id>/`.
    pub(crate) fn new(state_dir: &std::path::Path, session_id: &str, max_bytes: usize) -> Spill {
        Spill { dir: state_dir.join("spill").join(session_id), max_bytes, count: AtomicU64::new(0) }
    }
}

/// Counts what is written, and fails once it passes `max`.
struct Cap {
    written: usize,
    max: usize,
}

impl std::io::Write for Cap {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.written += buf.len();
        if self.written > self.max {
            return Err(std::io::Error::other("over the cap"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl ResultSpill for Spill {
    fn spill(&self, tool: &str, tool_call_id: Option<&str>, result: &ToolResult) -> Option<ToolResult> {
        let output = result.output.as_ref()?;
        // Most results are small: count their JSON without building it.
        if serde_json::to_writer(Cap { written: 0, max: self.max_bytes }, output).is_ok() {
            return None;
        }
        let text = serde_json::to_string(output).ok()?;
        let n = self.count.fetch_add(1, Ordering::Relaxed);
        // Call ids come from the model: keep only what is safe in a file name.
        let id: String =
            tool_call_id.unwrap_or("call").chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let path = self.dir.join(format!("{n:04}-{id}.json"));
        let written = std::fs::create_dir_all(&self.dir).and_then(|()| std::fs::write(&path, &text));
        // The beginning of the output as text (a string output as itself).
        let head_of = |text: &str| {
            let mut end = (self.max_bytes / 2).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text[..end].to_owned()
        };
        let head = match output {
            Value::String(s) => head_of(s),
            _ => head_of(&text),
        };
        let note = match &written {
            Ok(()) => format!(
                "the output of {tool} was {} bytes, more than the {} kept; its beginning is below, and the whole of it is in {}",
                text.len(),
                self.max_bytes,
                path.display()
            ),
            Err(err) => format!(
                "the output of {tool} was {} bytes, more than the {} kept, and could not be saved ({err}); its beginning is below",
                text.len(),
                self.max_bytes
            ),
        };
        let full_output = written.ok().map(|()| path.display().to_string());
        Some(ToolResult {
            success: result.success,
            output: Some(
                json!({"truncated": true, "note": note, "bytes": text.len(), "full_output": full_output, "head": head}),
            ),
            error: result.error.clone(),
            images: result.images.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_results_stay_and_large_ones_are_spilled_whole() {
        let dir = tempfile::tempdir().unwrap();
        let spill = Spill::new(dir.path(), "s1", 100);
        assert!(spill.spill("t", Some("call_1"), &ToolResult::ok(json!("short"))).is_none());
        let big = "é".repeat(200);
        let kept = spill.spill("bash", Some("call/../2"), &ToolResult::ok(json!(big))).unwrap();
        let output = kept.output.unwrap();
        assert_eq!(output["truncated"], true);
        assert_eq!(output["bytes"], serde_json::to_string(&big).unwrap().len());
        assert!(output["head"].as_str().unwrap().len() <= 50 && big.starts_with(output["head"].as_str().unwrap()));
        let path = PathBuf::from(output["full_output"].as_str().unwrap());
        assert_eq!(path, dir.path().join("spill/s1/0000-call2.json"), "no path tricks from the call id");
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(saved, json!(big));
    }
}
