//! `tool-filesystem`: file tools for agents, confined to allowed roots.
//!
//! | tool | input | what it does |
//! |---|---|---|
//! | `read_file` | `file_path`, `offset` (1-based, default 1), `limit` (default 2000) | numbered lines like `cat -n` (number right-aligned in 6 columns, a tab, the line), then `[path: lines A-B of N]`, saying when output was cut and the offset to continue from |
//! | `write_file` | `file_path`, `content` | creates parent directories, then replaces the file atomically (a temporary file in the same directory, renamed over it; an existing file keeps its permissions) |
//! | `edit_file` | `file_path`, `old_string`, `new_string`, `replace_all` (default false) | `old_string` must occur; more than one occurrence without `replace_all` is an error that says how many; reports the number of replacements |
//! | `list_dir` | `path` (default `.`) | the entries, sorted, directories with a trailing `/` (at most 1000) |
//! | `glob` | `pattern`, `path` (default `.`) | files whose path relative to `path` matches (`*` stays in a directory, `**` crosses them), sorted, at most 1000 |
//! | `grep` | `pattern` (regex), `path` (default `.`), `glob`, `case_insensitive` (default false), `max_results` (default 200) | `path:line:text` for each matching line of the text files under `path` (or of the file `path`) |
//!
//! `write_file` and `edit_file` are offered only when `allowed_write_paths`
//! allows somewhere (a read-only plan's model never sees them).
//!
//! `glob` and `grep` walk like ripgrep: `.gitignore` and `.ignore` files are
//! honoured (also outside a git repository), hidden files are skipped, and
//! symlinks are not followed; `grep` skips binary files. Output cut at a cap
//! always says so.
//!
//! # Config
//!
//! The keys (`working_dir`, `allowed_read_paths`, `allowed_write_paths`,
//! `denied_paths`, `max_file_bytes`) and their defaults: `amplifier.toml`,
//! rendered as `docs/reference/modules/tool-filesystem.md`. Relative entries
//! resolve against `working_dir`; an empty list allows nothing.
//!
//! # Safety rules
//!
//! 1. A path is resolved before it is checked: relative to `working_dir`,
//!    then canonicalized, so `..`, absolute paths and symlinks (including a
//!    symlink inside a root that points outside it) are judged by where they
//!    really lead. A path that does not exist yet (a new file, in new
//!    directories) is judged by its nearest existing ancestor, canonicalized,
//!    plus the missing names; a `..` after a missing directory and a dangling
//!    symlink are refused.
//! 2. The resolved path must lie under an allowed root for the access
//!    (`edit_file` needs both read and write), and under no denied path:
//!    denied wins. Roots compare by whole components (`/a/b` does not allow `/a/bc`).
//! 3. Walks (`list_dir`, `glob`, `grep`) start from a checked directory,
//!    never follow symlinks and prune denied paths; `grep` reads regular
//!    files only.
//! 4. Binary files (a NUL byte in the first 8 KiB) are refused by
//!    `read_file` and `edit_file` and skipped by `grep`.
//! 5. Every refusal is a failed tool result whose message names the path
//!    (and where it resolves) and the rule, for example
//!    ``"`../x` (resolves to `/tmp/x`) is outside the allowed read paths (/tmp/work)"``.
//!
//! 6. The file operation opens exactly the path checked (`beneath`): it
//!    walks the canonical path from `/` with `O_NOFOLLOW`, so a directory a
//!    command swapped for a symlink since the check (`renameat2` with
//!    `RENAME_EXCHANGE`) fails the call instead of leading outside; writes
//!    create, write and rename relative to the parent directory opened so.
//! 7. Every file operation runs on one thread Landlock confines to the
//!    roots (`worker`), where the kernel has Landlock: the kernel's second
//!    line behind these checks.
//!
//! Upstream's module allows reads anywhere by default and has
//! `denied_write_paths`; this one restricts reads to `working_dir` by default
//! and its `denied_paths` apply to reads and writes.

mod beneath;
mod files;
mod policy;
mod search;
mod worker;

use std::sync::Arc;

use amplifier_sdk::prelude::*;
use serde::de::DeserializeOwned;

use crate::policy::{Config, Policy, ToolError};
use crate::worker::Worker;

/// Parses a tool's input; the host has checked it against the schema, but a
/// mismatch is still an error result, never a panic.
fn parse<T: DeserializeOwned>(tool: &str, input: Value) -> Result<T, ToolError> {
    serde_json::from_value(input).map_err(|err| ToolError::invalid(format!("invalid input for {tool}: {err}")))
}

fn result(outcome: Result<String, ToolError>) -> ToolResult {
    match outcome {
        Ok(text) => ToolResult::ok(text),
        Err(err) => ToolResult::error(err.kind, err.message),
    }
}

/// What every tool of the module shares: the policy, and the confined
/// thread the file operations run on.
struct Files {
    policy: Arc<Policy>,
    worker: Worker,
}

impl Files {
    fn new(policy: Policy) -> Files {
        let (worker, confined) = Worker::start(&policy);
        if let Err(why) = confined {
            tracing::debug!("tool-filesystem: file operations are not confined by the kernel: {why}");
        }
        Files { policy: Arc::new(policy), worker }
    }

    /// Parses `input` and runs `op` on the worker.
    async fn run<I: DeserializeOwned + Send + 'static>(
        &self,
        tool: &'static str,
        input: Value,
        op: fn(&Policy, I) -> Result<String, ToolError>,
    ) -> ToolResult {
        let policy = self.policy.clone();
        result(self.worker.run(move || parse(tool, input).and_then(|input| op(&policy, input))).await)
    }
}

struct ReadFile(Arc<Files>);

impl Tool for ReadFile {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "read_file",
            "Reads a text file. Output is numbered lines like `cat -n` (line number, a tab, the line), then \
             `[path: lines A-B of N]`; when it says the output was cut, continue with the offset it gives. \
             Binary files and files over the size cap are refused.",
            json!({
                "type": "object",
                "properties": {
                    "file_path": {"type": "string", "description": "The file, relative to the working directory or absolute"},
                    "offset": {"type": "integer", "minimum": 1, "description": "First line to show, 1-based (default 1)"},
                    "limit": {"type": "integer", "minimum": 1, "description": "Most lines to show (default 2000)"}
                },
                "required": ["file_path"],
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        self.0.run("read_file", input, files::read_file).await
    }
}

struct WriteFile(Arc<Files>);

impl Tool for WriteFile {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "write_file",
            "Writes a file with the given content, replacing it if it exists (atomically) and creating missing \
             parent directories. To change part of a file, prefer edit_file.",
            json!({
                "type": "object",
                "properties": {
                    "file_path": {"type": "string", "description": "The file, relative to the working directory or absolute"},
                    "content": {"type": "string", "description": "The whole new content of the file"}
                },
                "required": ["file_path", "content"],
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        self.0.run("write_file", input, files::write_file).await
    }
}

struct EditFile(Arc<Files>);

impl Tool for EditFile {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "edit_file",
            "Replaces exact text in a file. old_string must match the file exactly (including whitespace and \
             indentation; copy it without the line numbers read_file adds) and, unless replace_all is true, \
             occur exactly once. Returns the number of replacements.",
            json!({
                "type": "object",
                "properties": {
                    "file_path": {"type": "string", "description": "The file, relative to the working directory or absolute"},
                    "old_string": {"type": "string", "description": "The exact text to replace"},
                    "new_string": {"type": "string", "description": "The text to put in its place"},
                    "replace_all": {"type": "boolean", "description": "Replace every occurrence (default false: exactly one must exist)"}
                },
                "required": ["file_path", "old_string", "new_string"],
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        self.0.run("edit_file", input, |policy, input| files::edit_file(policy, input).map(|(text, _)| text)).await
    }
}

struct ListDir(Arc<Files>);

impl Tool for ListDir {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "list_dir",
            "Lists a directory's entries, sorted; directories end with `/`.",
            json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "The directory (default: the working directory)"}
                },
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        self.0.run("list_dir", input, files::list_dir).await
    }
}

struct Glob(Arc<Files>);

impl Tool for Glob {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "glob",
            "Finds files by glob pattern, matched against paths relative to `path`: `*.rs` (in `path` itself), \
             `**/*.rs` (at any depth), `src/**/test_*.py`. Skips hidden and .gitignored files. Returns sorted paths, \
             at most 1000.",
            json!({
                "type": "object",
                "properties": {
                    "pattern": {"type": "string", "description": "The glob pattern"},
                    "path": {"type": "string", "description": "The directory to search (default: the working directory)"}
                },
                "required": ["pattern"],
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        self.0.run("glob", input, search::glob).await
    }
}

struct Grep(Arc<Files>);

impl Tool for Grep {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "grep",
            "Searches file contents with a regular expression (Rust regex syntax), like ripgrep: skips hidden, \
             .gitignored and binary files. Output is `path:line:text` per matching line, at most max_results.",
            json!({
                "type": "object",
                "properties": {
                    "pattern": {"type": "string", "description": "The regular expression"},
                    "path": {"type": "string", "description": "A directory or file to search (default: the working directory)"},
                    "glob": {"type": "string", "description": "Only files matching this glob: `*.rs` matches file names; a glob with `/` matches paths relative to `path`"},
                    "case_insensitive": {"type": "boolean", "description": "Ignore case (default false)"},
                    "max_results": {"type": "integer", "minimum": 1, "description": "Most matching lines to return (default 200)"}
                },
                "required": ["pattern"],
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        self.0.run("grep", input, search::grep).await
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    let config: Config = ctx.config()?;
    let cwd = std::env::current_dir()
        .map_err(|err| ModuleError::internal(format!("tool-filesystem: no current directory: {err}")))?;
    let policy = Policy::from_config(config, &cwd).map_err(|err| {
        ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for {}: {err}", ctx.module))
    })?;
    let files = Arc::new(Files::new(policy));
    let tools = Tools::new().with(ReadFile(files.clone()));
    // With no write root every write would be refused: a model offered
    // write_file and edit_file anyway spends its prompt on them, and a small
    // one calls them.
    let tools = if files.policy.write_roots.is_empty() {
        tools
    } else {
        tools.with(WriteFile(files.clone())).with(EditFile(files.clone()))
    };
    Ok(tools.with(ListDir(files.clone())).with(Glob(files.clone())).with(Grep(files)))
}

export_module!(tool => mount);

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(root: &std::path::Path) -> Arc<Files> {
        Arc::new(Files::new(
            Policy::from_config(Config { working_dir: Some(root.into()), ..Config::defaults() }, root).unwrap(),
        ))
    }

    #[test]
    fn tools_turn_odd_input_into_error_results() {
        let dir = tempfile::tempdir().unwrap();
        let policy = policy(dir.path());
        let runtime = amplifier_sdk::runtime();
        let read = runtime.block_on(ReadFile(policy.clone()).execute(json!({"file_path": 5})));
        assert!(!read.success);
        assert_eq!(read.error.as_ref().unwrap()["type"], "InvalidInput");
        assert!(read.serialized_output().contains("invalid input for read_file"));
        let grep = runtime.block_on(Grep(policy.clone()).execute(json!(null)));
        assert!(!grep.success);
        let denied = runtime.block_on(ReadFile(policy.clone()).execute(json!({"file_path": "/etc/passwd"})));
        assert_eq!(denied.error.as_ref().unwrap()["type"], "AccessDenied");
        assert!(denied.serialized_output().contains("outside the allowed read paths"));
    }

    #[test]
    fn tools_round_trip_through_execute() {
        let dir = tempfile::tempdir().unwrap();
        let policy = policy(dir.path());
        let runtime = amplifier_sdk::runtime();
        let wrote =
            runtime.block_on(WriteFile(policy.clone()).execute(json!({"file_path": "d/a.txt", "content": "x\ny\n"})));
        assert!(wrote.success, "{wrote:?}");
        let edited = runtime.block_on(
            EditFile(policy.clone()).execute(json!({"file_path": "d/a.txt", "old_string": "y", "new_string": "z"})),
        );
        assert_eq!(edited.serialized_output(), "Edited `d/a.txt`: 1 replacement");
        let read = runtime.block_on(ReadFile(policy.clone()).execute(json!({"file_path": "d/a.txt"})));
        assert_eq!(read.serialized_output(), "     1\tx\n     2\tz\n[`d/a.txt`: lines 1-2 of 2]");
        let listed = runtime.block_on(ListDir(policy.clone()).execute(json!({})));
        assert_eq!(listed.serialized_output(), "d/");
        let globbed = runtime.block_on(Glob(policy.clone()).execute(json!({"pattern": "**/*.txt"})));
        assert_eq!(globbed.serialized_output(), "d/a.txt");
        let grepped = runtime.block_on(Grep(policy).execute(json!({"pattern": "z"})));
        assert_eq!(grepped.serialized_output(), "d/a.txt:2:z");
    }

    #[test]
    fn every_tool_has_an_object_schema() {
        let dir = tempfile::tempdir().unwrap();
        let policy = policy(dir.path());
        let names: Vec<String> = [
            ReadFile(policy.clone()).spec(),
            WriteFile(policy.clone()).spec(),
            EditFile(policy.clone()).spec(),
            ListDir(policy.clone()).spec(),
            Glob(policy.clone()).spec(),
            Grep(policy).spec(),
        ]
        .into_iter()
        .map(|spec| {
            assert_eq!(spec.parameters["type"], "object");
            spec.name
        })
        .collect();
        assert_eq!(names, ["read_file", "write_file", "edit_file", "list_dir", "glob", "grep"]);
    }
}
