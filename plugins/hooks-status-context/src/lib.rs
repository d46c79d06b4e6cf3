//! `hooks-status-context`: before every model call, tells the model where it
//! runs, as codex and Claude Code tell theirs.
//!
//! ```yaml
//! hooks:
//!   - module: hooks-status-context
//!     config: {include_datetime: false, injection_role: system}
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/hooks-status-context.md`.
//!
//! Upstream's module of the same name injects, on `provider:request`, an
//! ephemeral `<system-reminder>` with the working directory, the platform,
//! the date, the session and the repository's git status. This one gives the
//! same block (without running git: see below) plus what a small model needs
//! most, a shallow listing of the directory: asked about "the config file",
//! it can name `config/app.toml` in its first tool call instead of guessing
//! `/path/to/directory`.
//!
//! Nothing here runs a program. A checkout's `.git/config` can make `git
//! status` run commands of the checkout's choosing (`core.fsmonitor`, clean
//! filters), so the branch is read from `.git/HEAD` and the listing comes
//! from a walk that honours `.gitignore` like tool-filesystem's.
//!
//! The text is built on each call, so it follows the files the agent writes.
//! With `include_datetime: false` and `include_session: false` it stays the
//! same from one call to the next while the files do, which lets a local
//! model keep its evaluated prompt (provider-local's prefix cache).

use std::path::{Path, PathBuf};

use amplifier_sdk::events;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

/// Directories that never help a model and can hold thousands of files.
const NEVER_LISTED: [&str; 9] =
    ["node_modules", "target", "__pycache__", "venv", ".venv", "dist", "build", ".git", ".amplifier"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Role {
    User,
    System,
}

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    working_dir: Option<PathBuf>,
    include_datetime: bool,
    datetime_include_timezone: bool,
    include_session: bool,
    include_git: bool,
    git_include_branch: bool,
    include_listing: bool,
    listing_max_entries: usize,
    injection_role: Role,
    priority: i32,
}

struct StatusContext {
    host: Host,
    config: Config,
    working_dir: PathBuf,
}

impl StatusContext {
    /// The `<system-reminder>` for the next request.
    async fn reminder(&self) -> String {
        let mut env = vec![format!("Working directory: {}", self.working_dir.display())];
        if self.config.include_session {
            if let Ok(info) = self.host.session_info().await {
                env.push(format!("Session ID: {}", info.session_id));
                match info.parent_id {
                    Some(parent) => {
                        env.push(format!("Parent Session ID: {parent}"));
                        env.push("Is sub-session: Yes".to_owned());
                    }
                    None => env.push("Is sub-session: No".to_owned()),
                }
            }
        }
        let git = self.config.include_git.then(|| git_dir(&self.working_dir)).flatten();
        if self.config.include_git {
            env.push(format!("Is directory a git repo: {}", if git.is_some() { "Yes" } else { "No" }));
            if let Some(branch) = git.as_deref().filter(|_| self.config.git_include_branch).and_then(current_branch) {
                env.push(format!("Current branch: {branch}"));
            }
        }
        env.push(format!("Platform: {}", std::env::consts::OS));
        env.push(format!("Today's date: {}", self.date()));
        let mut text = format!(
            "Here is useful information about the environment you are running in:\n<env>\n{}\n</env>",
            env.join("\n")
        );
        if self.config.include_listing {
            let listing = listing(&self.working_dir, self.config.listing_max_entries);
            text.push_str(
                "\n\nThe files in the working directory (two levels; tools take paths relative to it, \
                 such as `src/main.rs`):\n",
            );
            text.push_str(if listing.is_empty() { "(empty)" } else { &listing });
        }
        format!(
            "<system-reminder source=\"hooks-status-context\">\n{text}\n\nThis context is for your reference only. \
             DO NOT mention this status information to the user unless directly relevant to their question.\n\
             </system-reminder>"
        )
    }

    fn date(&self) -> String {
        let now = time::OffsetDateTime::now_utc();
        let date = format!("{:04}-{:02}-{:02}", now.year(), u8::from(now.month()), now.day());
        if !self.config.include_datetime {
            return date;
        }
        let zone = if self.config.datetime_include_timezone { " UTC" } else { "" };
        format!("{date} {:02}:{:02}:{:02}{zone}", now.hour(), now.minute(), now.second())
    }
}

/// The repository's git directory, when `dir` is inside a working tree.
fn git_dir(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find_map(|at| {
        let dot_git = at.join(".git");
        if dot_git.is_dir() {
            return Some(dot_git);
        }
        // A worktree or submodule: `.git` is a file naming the real directory.
        let pointer = std::fs::read_to_string(&dot_git).ok()?;
        let target = pointer.strip_prefix("gitdir:")?.trim();
        Some(at.join(target))
    })
}

/// The branch `HEAD` names; `None` for a detached head.
fn current_branch(git: &Path) -> Option<String> {
    let head = std::fs::read_to_string(git.join("HEAD")).ok()?;
    head.trim().strip_prefix("ref: refs/heads/").map(str::to_owned)
}

/// The entries under `root` two levels deep, directories first marked `/`,
/// children indented under their directory; at most `max` lines, and a line
/// counting the rest.
fn listing(root: &Path, max: usize) -> String {
    let walk = ignore::WalkBuilder::new(root)
        .max_depth(Some(2))
        .require_git(false)
        .follow_links(false)
        .sort_by_file_path(|a, b| a.cmp(b))
        .filter_entry(|entry| {
            entry.depth() == 0 || !NEVER_LISTED.iter().any(|name| entry.file_name() == std::ffi::OsStr::new(name))
        })
        .build();
    let mut lines = Vec::new();
    let mut more = 0usize;
    for entry in walk.flatten().filter(|entry| entry.depth() > 0) {
        if lines.len() >= max {
            more += 1;
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        let slash = if entry.file_type().is_some_and(|t| t.is_dir()) { "/" } else { "" };
        let indent = "  ".repeat(entry.depth() - 1);
        let path = entry.path().strip_prefix(root).unwrap_or(entry.path()).display().to_string();
        // Nested entries give their path from the root, which is what a tool takes.
        let shown = if entry.depth() == 1 { format!("{name}{slash}") } else { format!("{path}{slash}") };
        lines.push(format!("{indent}{shown}"));
    }
    if more > 0 {
        lines.push(format!("… and {more} more (use list_dir or glob)"));
    }
    lines.join("\n")
}

impl HookHandler for StatusContext {
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![Subscription::new(events::PROVIDER_REQUEST, self.config.priority, "hooks-status-context")]
    }

    async fn handle(&self, _event: &str, _data: JsonMap) -> ModuleResult<HookResult> {
        Ok(HookResult {
            context_injection_role: match self.config.injection_role {
                Role::User => InjectionRole::User,
                Role::System => InjectionRole::System,
            },
            ephemeral: true,
            suppress_output: true,
            ..HookResult::inject(self.reminder().await)
        })
    }
}

fn mount(ctx: MountContext) -> ModuleResult<StatusContext> {
    let config: Config = ctx.config()?;
    let cwd = std::env::current_dir()
        .map_err(|err| ModuleError::internal(format!("{}: no current directory: {err}", ctx.module)))?;
    let working_dir = match &config.working_dir {
        Some(dir) => cwd.join(dir),
        None => cwd,
    };
    if !working_dir.is_dir() {
        return Err(ModuleError::new(
            ErrorKind::InvalidRequest,
            format!("invalid config for {}: working_dir `{}` is not a directory", ctx.module, working_dir.display()),
        ));
    }
    Ok(StatusContext { host: ctx.host, config, working_dir })
}

export_module!(hook => mount);

#[cfg(test)]
mod tests {
    use amplifier_sdk::testing::TestHost;

    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        dir
    }

    #[test]
    fn the_listing_is_two_levels_with_paths_a_tool_takes() {
        let dir = tree(&["README.md", "src/main.rs", "src/deep/inner.rs", "config/app.toml", ".hidden/x"]);
        assert_eq!(
            listing(dir.path(), 60),
            "README.md\nconfig/\n  config/app.toml\nsrc/\n  src/deep/\n  src/main.rs",
            "hidden entries skipped, the third level not shown"
        );
    }

    #[test]
    fn the_listing_honours_gitignore_skips_build_output_and_counts_what_it_cuts() {
        let dir = tree(&[".gitignore", "secret.env", "a.txt", "b.txt", "c.txt", "node_modules/m/x.js", "target/t"]);
        std::fs::write(dir.path().join(".gitignore"), "*.env\n").unwrap();
        assert_eq!(listing(dir.path(), 10), "a.txt\nb.txt\nc.txt");
        assert_eq!(listing(dir.path(), 2), "a.txt\nb.txt\n… and 1 more (use list_dir or glob)");
    }

    #[test]
    fn the_branch_comes_from_head_and_a_detached_head_has_none() {
        let dir = tree(&[".git/HEAD", "sub/file"]);
        std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/feature/x\n").unwrap();
        let git = git_dir(&dir.path().join("sub")).expect("found from a subdirectory");
        assert_eq!(current_branch(&git).as_deref(), Some("feature/x"));
        std::fs::write(dir.path().join(".git/HEAD"), "0123abcd\n").unwrap();
        assert_eq!(current_branch(&git), None);
    }

    #[test]
    fn the_injection_is_ephemeral_and_says_where_the_model_runs() {
        let dir = tree(&["notes/todo.md"]);
        let host = TestHost::new();
        let config = json!({"working_dir": dir.path(), "include_datetime": false, "include_session": false, "injection_role": "system"});
        let hook = host
            .mount(mount, amplifier_sdk::testing::with_defaults(include_str!("../amplifier.toml"), config))
            .unwrap();
        let result = amplifier_sdk::runtime().block_on(hook.handle(events::PROVIDER_REQUEST, JsonMap::new())).unwrap();
        assert_eq!(result.action, HookAction::InjectContext);
        assert!(result.ephemeral && result.suppress_output);
        assert_eq!(result.context_injection_role, InjectionRole::System);
        let text = result.context_injection.unwrap();
        assert!(text.contains(&format!("Working directory: {}", dir.path().display())), "{text}");
        assert!(text.contains("Is directory a git repo: No") && text.contains("notes/\n  notes/todo.md"), "{text}");
        let date = text.lines().find_map(|line| line.strip_prefix("Today's date: ")).expect("a date line");
        assert_eq!(date.len(), "2026-11-28".len(), "the date alone: {date}");
        assert!(!text.contains("Session ID"), "{text}");
    }
}
