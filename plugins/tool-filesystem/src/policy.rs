//! The path policy: where a path really points, and whether it may be read or written.
//!
//! Everything here is a plain function of the file system, so it is tested
//! without the plugin machinery.

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

/// The module's `config`; the loader has filled in `amplifier.toml`'s
/// defaults. The ones left here are computed: the current directory, and
/// `[working_dir]` for an absent or `null` list of roots.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub working_dir: Option<PathBuf>,
    #[serde(default)]
    pub allowed_read_paths: Option<Vec<PathBuf>>,
    #[serde(default)]
    pub allowed_write_paths: Option<Vec<PathBuf>>,
    pub denied_paths: Vec<PathBuf>,
    pub protected_paths: Vec<PathBuf>,
    pub max_file_bytes: u64,
}

#[cfg(test)]
impl Config {
    /// The config of a plan that gives no key: the manifest's defaults.
    pub fn defaults() -> Config {
        amplifier_sdk::testing::config_with_defaults(include_str!("../amplifier.toml"), serde_json::json!({}))
    }
}

/// A failed tool call: `ToolResult::error(kind, message)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub kind: &'static str,
    pub message: String,
}

impl ToolError {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        ToolError { kind, message: message.into() }
    }

    pub fn denied(message: impl Into<String>) -> Self {
        Self::new("AccessDenied", message)
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new("InvalidInput", message)
    }

    /// An I/O error on `shown`, with a kind the model can act on.
    pub fn io(action: &str, shown: &str, err: &io::Error) -> Self {
        let kind = match err.kind() {
            io::ErrorKind::NotFound => "NotFound",
            io::ErrorKind::PermissionDenied => "AccessDenied",
            _ => "IoError",
        };
        Self::new(kind, format!("cannot {action} `{shown}`: {err}"))
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

/// What a tool wants to do with a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

impl Access {
    fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
        }
    }
}

/// A path that passed the policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// Canonical: symlinks and `..` resolved (for a path that does not exist
    /// yet, its nearest existing ancestor is canonical and the rest are plain names).
    pub path: PathBuf,
    /// Whether `path` existed when it was checked.
    pub exists: bool,
    /// How to name it in messages: the caller's spelling.
    pub shown: String,
}

/// The policy, with every root canonical.
#[derive(Debug, Clone)]
pub struct Policy {
    pub working_dir: PathBuf,
    pub read_roots: Vec<PathBuf>,
    pub write_roots: Vec<PathBuf>,
    pub denied: Vec<PathBuf>,
    /// Readable, never written: a file written there would configure the
    /// next run of amplifier or git, outside the sandbox of this one.
    pub protected: Vec<PathBuf>,
    pub max_file_bytes: u64,
}

impl Policy {
    /// Builds the policy from `config`; relative `working_dir` resolves against `cwd`.
    pub fn from_config(config: Config, cwd: &Path) -> Result<Self, String> {
        let working_dir = cwd.join(config.working_dir.unwrap_or_default());
        let working_dir = std::fs::canonicalize(&working_dir)
            .map_err(|err| format!("working_dir `{}` is not usable: {err}", working_dir.display()))?;
        if !working_dir.is_dir() {
            return Err(format!("working_dir `{}` is not a directory", working_dir.display()));
        }
        let roots = |key: &str, paths: Vec<PathBuf>| -> Result<Vec<PathBuf>, String> {
            paths
                .into_iter()
                .map(|path| {
                    resolve(&working_dir.join(&path))
                        .map(|(resolved, _)| resolved)
                        .map_err(|err| format!("{key}: `{}`: {err}", path.display()))
                })
                .collect()
        };
        let read_roots = match config.allowed_read_paths {
            Some(paths) => roots("allowed_read_paths", paths)?,
            None => vec![working_dir.clone()],
        };
        let write_roots = match config.allowed_write_paths {
            Some(paths) => roots("allowed_write_paths", paths)?,
            None => vec![working_dir.clone()],
        };
        let denied = roots("denied_paths", config.denied_paths)?;
        let protected = roots("protected_paths", config.protected_paths)?;
        Ok(Policy { working_dir, read_roots, write_roots, denied, protected, max_file_bytes: config.max_file_bytes })
    }

    /// A policy for tests: `root` is the working dir and the only read and write root.
    #[cfg(test)]
    pub fn rooted(root: &Path) -> Self {
        Self::from_config(Config { working_dir: Some(root.into()), ..Config::defaults() }, Path::new("/")).unwrap()
    }

    /// Resolves `raw` (relative to the working dir) and checks it for `access`.
    /// The check is on the canonical path, so `..`, symlinks and absolute
    /// paths cannot leave the allowed roots.
    pub fn check(&self, raw: &str, access: Access) -> Result<Checked, ToolError> {
        if raw.is_empty() {
            return Err(ToolError::invalid("the path is empty"));
        }
        if raw.contains('\0') {
            return Err(ToolError::invalid(format!("the path `{}` contains a NUL byte", raw.escape_debug())));
        }
        let joined = self.working_dir.join(raw);
        let (path, exists) = resolve(&joined).map_err(|err| match err {
            ResolveError::Io(err) => ToolError::io("resolve", raw, &err),
            other => ToolError::invalid(format!("`{raw}`: {other}")),
        })?;
        let shown = raw.to_owned();
        let described = if Path::new(raw) == path { format!("`{raw}`") } else { describe(raw, &path) };
        if let Some(denied) = self.denied.iter().find(|d| path.starts_with(d)) {
            return Err(ToolError::denied(format!(
                "{described} is inside a denied path ({}, from denied_paths); it can never be read or written",
                denied.display()
            )));
        }
        let roots = match access {
            Access::Read => &self.read_roots,
            Access::Write => &self.write_roots,
        };
        if !roots.iter().any(|root| path.starts_with(root)) {
            let list = if roots.is_empty() {
                "none are configured".to_owned()
            } else {
                roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ")
            };
            return Err(ToolError::denied(format!(
                "{described} is outside the allowed {} paths ({list})",
                access.name()
            )));
        }
        if let Some(protected) = self.protected.iter().find(|p| path.starts_with(p)).filter(|_| access == Access::Write)
        {
            return Err(ToolError::denied(format!(
                "{described} is in {}, which configures amplifier or git and is never written by the agent \
                 (protected_paths); ask the user to make this change",
                self.display(protected)
            )));
        }
        if access == Access::Read && exists {
            hard_links_refused(&path, &described)?;
        }
        Ok(Checked { path, exists, shown })
    }

    /// Whether a canonical path lies in a denied path (used to prune walks).
    pub fn is_denied(&self, path: &Path) -> bool {
        self.denied.iter().any(|d| path.starts_with(d))
    }

    /// How to show a canonical path in output: relative to the working dir
    /// when it is inside it (so it can be passed straight back), else absolute.
    pub fn display(&self, path: &Path) -> String {
        match path.strip_prefix(&self.working_dir) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}

/// A regular file with more than one hard link may be the same file as one
/// outside the allowed roots (a link made to `/etc/shadow` or `~/.ssh/…`),
/// and nothing tells where its other names are: it is not read.
pub fn has_other_links(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.is_file() && meta.nlink() > 1
}

fn hard_links_refused(path: &Path, described: &str) -> Result<(), ToolError> {
    match std::fs::metadata(path) {
        Ok(meta) if has_other_links(&meta) => {
            use std::os::unix::fs::MetadataExt;
            Err(ToolError::denied(format!(
                "{described} has {} hard links, and its other names may lie outside the allowed paths; \
                 files with more than one link are not read",
                meta.nlink()
            )))
        }
        _ => Ok(()),
    }
}

fn describe(raw: &str, path: &Path) -> String {
    format!("`{raw}` (resolves to `{}`)", path.display())
}

/// Why a path could not be resolved.
#[derive(Debug)]
pub enum ResolveError {
    /// `..` after a directory that does not exist: where it leads can't be known.
    ParentOfMissing(PathBuf),
    /// A symlink whose target does not exist.
    DanglingSymlink(PathBuf),
    Io(io::Error),
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::ParentOfMissing(dir) => {
                write!(f, "`..` follows `{}`, which does not exist; write the path without `..`", dir.display())
            }
            ResolveError::DanglingSymlink(link) => {
                write!(f, "`{}` is a symlink whose target does not exist; it is not followed", link.display())
            }
            ResolveError::Io(err) => write!(f, "{err}"),
        }
    }
}

/// Where the absolute path `path` really points, and whether it exists.
///
/// An existing path is canonicalized (symlinks and `..` resolved by the OS).
/// For a path that does not exist yet, the nearest existing ancestor is
/// canonicalized and the missing components are appended; they must be plain
/// names (a missing component can't be a symlink, and a `..` after it is refused).
pub fn resolve(path: &Path) -> Result<(PathBuf, bool), ResolveError> {
    match std::fs::canonicalize(path) {
        Ok(canonical) => return Ok((canonical, true)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => return Err(ResolveError::Io(err)),
    }
    let mut missing: Vec<OsString> = Vec::new();
    let mut current = path.to_path_buf();
    loop {
        match current.components().next_back() {
            Some(Component::Normal(name)) => {
                // Missing for canonicalize, yet present: a dangling symlink.
                if std::fs::symlink_metadata(&current).is_ok() {
                    return Err(ResolveError::DanglingSymlink(current));
                }
                missing.push(name.to_owned());
            }
            Some(Component::CurDir) => {}
            Some(Component::ParentDir) => {
                current.pop();
                return Err(ResolveError::ParentOfMissing(current));
            }
            Some(Component::RootDir | Component::Prefix(_)) | None => {
                return Err(ResolveError::Io(io::Error::new(io::ErrorKind::NotFound, "no part of the path exists")));
            }
        }
        current.pop();
        match std::fs::canonicalize(&current) {
            Ok(mut base) => {
                if !base.is_dir() {
                    return Err(ResolveError::Io(io::Error::new(
                        io::ErrorKind::NotADirectory,
                        format!("`{}` is not a directory", base.display()),
                    )));
                }
                base.extend(missing.iter().rev());
                return Ok((base, false));
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            Err(err) => return Err(ResolveError::Io(err)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    struct Fixture {
        _dir: tempfile::TempDir,
        /// Canonical tempdir: holds `root/` (the working dir) and `outside.txt`.
        base: PathBuf,
        root: PathBuf,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        fs::create_dir_all(root.join("sub")).unwrap();
        fs::write(root.join("sub/inside.txt"), "inside").unwrap();
        fs::write(base.join("outside.txt"), "secret").unwrap();
        Fixture { _dir: dir, base, root }
    }

    fn refused(policy: &Policy, raw: &str, access: Access) -> String {
        match policy.check(raw, access) {
            Ok(checked) => panic!("`{raw}` should be refused, resolved to {}", checked.path.display()),
            Err(err) => {
                assert_eq!(err.kind, "AccessDenied", "{err}");
                err.message
            }
        }
    }

    #[test]
    fn relative_paths_resolve_against_the_working_dir() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        let checked = policy.check("sub/inside.txt", Access::Read).unwrap();
        assert_eq!(checked.path, f.root.join("sub/inside.txt"));
        assert!(checked.exists);
        assert_eq!(policy.check("sub/../sub/./inside.txt", Access::Read).unwrap().path, checked.path);
        assert_eq!(policy.check(".", Access::Read).unwrap().path, f.root);
    }

    #[test]
    fn dot_dot_cannot_escape() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        let message = refused(&policy, "../outside.txt", Access::Read);
        assert_eq!(
            message,
            format!(
                "`../outside.txt` (resolves to `{}`) is outside the allowed read paths ({})",
                f.base.join("outside.txt").display(),
                f.root.display()
            )
        );
        refused(&policy, "sub/../../outside.txt", Access::Write);
        refused(&policy, "..", Access::Read);
        // A `..` after a directory that does not exist is refused outright.
        let err = policy.check("new/../../outside.txt", Access::Write).unwrap_err();
        assert_eq!(err.kind, "InvalidInput");
        assert!(err.message.contains("does not exist"), "{err}");
    }

    #[test]
    fn absolute_paths_outside_are_refused_and_inside_are_fine() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        let message = refused(&policy, "/etc/passwd", Access::Read);
        assert!(message.starts_with("`/etc/passwd`"), "{message}");
        assert!(message.contains(&format!("outside the allowed read paths ({})", f.root.display())), "{message}");
        let inside = f.root.join("sub/inside.txt");
        assert_eq!(policy.check(inside.to_str().unwrap(), Access::Read).unwrap().path, inside);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_cannot_escape() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        std::os::unix::fs::symlink(f.base.join("outside.txt"), f.root.join("link.txt")).unwrap();
        std::os::unix::fs::symlink(&f.base, f.root.join("up")).unwrap();
        let message = refused(&policy, "link.txt", Access::Read);
        assert!(message.contains(&format!("resolves to `{}`", f.base.join("outside.txt").display())), "{message}");
        refused(&policy, "link.txt", Access::Write);
        refused(&policy, "up/outside.txt", Access::Read);
        // A new file under a symlinked directory resolves through the link.
        refused(&policy, "up/new-file.txt", Access::Write);
        refused(&policy, "up/newdir/new-file.txt", Access::Write);
        // A symlink that stays inside is followed.
        std::os::unix::fs::symlink(f.root.join("sub"), f.root.join("alias")).unwrap();
        assert_eq!(policy.check("alias/inside.txt", Access::Read).unwrap().path, f.root.join("sub/inside.txt"));
        // A dangling symlink is not followed (its target might be created outside).
        std::os::unix::fs::symlink(f.base.join("not-yet"), f.root.join("dangling")).unwrap();
        let err = policy.check("dangling", Access::Write).unwrap_err();
        assert!(err.message.contains("symlink whose target does not exist"), "{err}");
        assert!(policy.check("dangling/x", Access::Write).is_err());
    }

    #[test]
    fn hard_links_are_not_read() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        fs::hard_link(f.base.join("outside.txt"), f.root.join("linked.txt")).unwrap();
        let err = refused(&policy, "linked.txt", Access::Read);
        assert!(err.starts_with("`linked.txt` (resolves to") && err.contains("has 2 hard links"), "{err}");
        // Writing replaces the file (a new inode), which never reaches the other name.
        policy.check("linked.txt", Access::Write).unwrap();
        policy.check("sub/inside.txt", Access::Read).unwrap();
    }

    #[test]
    fn denied_paths_win_inside_an_allowed_root() {
        let f = fixture();
        let config = Config {
            working_dir: Some(f.root.clone()),
            denied_paths: vec!["sub".into(), "secrets/keys".into()],
            ..Config::defaults()
        };
        let policy = Policy::from_config(config, Path::new("/")).unwrap();
        let message = refused(&policy, "sub/inside.txt", Access::Read);
        assert!(
            message.contains(&format!("inside a denied path ({}, from denied_paths)", f.root.join("sub").display()))
        );
        refused(&policy, "sub", Access::Read);
        refused(&policy, "sub/new.txt", Access::Write);
        // A denied path that does not exist yet is still denied once created.
        refused(&policy, "secrets/keys/id", Access::Write);
        assert!(policy.check("secrets/other", Access::Write).is_ok());
        assert!(policy.check("subway.txt", Access::Write).is_ok(), "a denied path is a prefix by component");
        assert!(policy.is_denied(&f.root.join("sub/x")));
    }

    /// What a write there would do outside this run: settings that pick
    /// the next run's plan or store, hooks files it runs, git hooks run by
    /// the user's next commit.
    #[test]
    fn what_configures_amplifier_or_git_is_read_but_never_written() {
        let f = fixture();
        fs::create_dir_all(f.root.join(".amplifier")).unwrap();
        fs::write(f.root.join(".amplifier/settings.yaml"), "plan: mine.yaml\n").unwrap();
        fs::create_dir_all(f.root.join(".git/hooks")).unwrap();
        fs::write(f.root.join(".git/config"), "[core]\n").unwrap();
        std::os::unix::fs::symlink(f.root.join(".git"), f.root.join("dotgit")).unwrap();
        let policy = Policy::rooted(&f.root);
        for path in [
            ".amplifier/settings.yaml",
            ".amplifier/settings.local.yaml",
            ".amplifier/hooks.json",
            ".amplifier",
            ".git/hooks/pre-commit",
            ".git/config",
            "dotgit/hooks/post-checkout",
            "sub/../.amplifier/evil.yaml",
        ] {
            let message = refused(&policy, path, Access::Write);
            assert!(
                message.contains("configures amplifier or git") && message.contains("protected_paths"),
                "{message}"
            );
        }
        let message = refused(&policy, ".git/hooks/pre-commit", Access::Write);
        assert!(message.contains(") is in .git/hooks, which configures amplifier or git"), "{message}");
        assert!(policy.check(".amplifier/settings.yaml", Access::Read).is_ok());
        for path in [".gitignore", ".git/index", ".amplifierrc", "sub/.amplifier/x", "notes/.git-config"] {
            assert!(policy.check(path, Access::Write).is_ok(), "{path}");
        }
        // The plan may give them to the agent.
        let config = Config { working_dir: Some(f.root.clone()), protected_paths: Vec::new(), ..Config::defaults() };
        let open = Policy::from_config(config, Path::new("/")).unwrap();
        assert!(open.check(".git/hooks/pre-commit", Access::Write).is_ok());
    }

    #[test]
    fn new_files_in_new_dirs_are_allowed_inside_and_refused_outside() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        let checked = policy.check("a/b/c.txt", Access::Write).unwrap();
        assert_eq!(checked.path, f.root.join("a/b/c.txt"));
        assert!(!checked.exists);
        let outside = f.base.join("elsewhere/new/file.txt");
        let message = refused(&policy, outside.to_str().unwrap(), Access::Write);
        assert!(message.contains("outside the allowed write paths"), "{message}");
        refused(&policy, "../elsewhere/file.txt", Access::Write);
    }

    #[test]
    fn read_and_write_roots_are_separate() {
        let f = fixture();
        let config = Config {
            working_dir: Some(f.root.clone()),
            allowed_read_paths: Some(vec![f.base.clone()]),
            allowed_write_paths: Some(vec!["out".into()]),
            ..Config::defaults()
        };
        let policy = Policy::from_config(config, Path::new("/")).unwrap();
        assert!(policy.check("../outside.txt", Access::Read).is_ok());
        assert!(policy.check("out/new.txt", Access::Write).is_ok());
        let message = refused(&policy, "sub/inside.txt", Access::Write);
        assert!(message.contains(&format!("outside the allowed write paths ({})", f.root.join("out").display())));
        let nothing =
            Config { working_dir: Some(f.root.clone()), allowed_write_paths: Some(vec![]), ..Config::defaults() };
        let policy = Policy::from_config(nothing, Path::new("/")).unwrap();
        assert!(refused(&policy, "x.txt", Access::Write).contains("(none are configured)"));
    }

    #[test]
    fn a_missing_working_dir_is_a_config_error() {
        let f = fixture();
        let config = Config { working_dir: Some(f.root.join("nope")), ..Config::defaults() };
        let err = Policy::from_config(config, Path::new("/")).unwrap_err();
        assert!(err.contains("working_dir") && err.contains("nope"), "{err}");
    }

    #[test]
    fn odd_input_is_an_error_not_a_panic() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        assert_eq!(policy.check("", Access::Read).unwrap_err().kind, "InvalidInput");
        assert_eq!(policy.check("a\0b", Access::Read).unwrap_err().kind, "InvalidInput");
        let err = policy.check("sub/inside.txt/x", Access::Write).unwrap_err();
        assert!(err.message.contains("sub/inside.txt/x"), "{err}");
        assert!(policy.check("/", Access::Read).is_err());
    }

    #[test]
    fn display_is_relative_inside_the_working_dir() {
        let f = fixture();
        let policy = Policy::rooted(&f.root);
        assert_eq!(policy.display(&f.root.join("sub/inside.txt")), "sub/inside.txt");
        assert_eq!(policy.display(&f.root), ".");
        assert_eq!(policy.display(&f.base), f.base.display().to_string());
    }
}
