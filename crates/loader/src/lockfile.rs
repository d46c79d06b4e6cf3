//! `amplifier.lock`: what a plan's modules resolved to, next to the plan.
//!
//! ```toml
//! version = 1
//!
//! [[module]]
//! plan = "agent.yaml"            # one lock serves every plan in its directory
//! name = "tool-echo"
//! kind = "tool"
//! source = "git+https://example.org/org/tools@main#subdirectory=tool-echo"
//! commit = "4f0c…"               # git sources only
//! sha256 = "9a1e…"               # of the library that was loaded
//! artifact = "x86_64-unknown-linux-gnu"   # a prebuilt library's target; absent when built here
//! abi = 1                        # amplifier_abi::ABI_MAJOR
//! protocol = 1                   # amplifier_abi::PROTOCOL_VERSION
//! ```
//!
//! `amplifier run` rewrites the plan's entries after its modules loaded;
//! `amplifier run --locked` refuses a module whose resolution differs (see
//! [`Lockfile::check`]); `amplifier update [MODULE]` re-resolves and rewrites.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::builder::hex;
use crate::toml_file::{self, TomlFileError};

pub const LOCK_FILE: &str = "amplifier.lock";
pub const LOCK_VERSION: u32 = 1;

/// `amplifier.lock`, or a file hashed for it, could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum LockfileError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    File(#[from] TomlFileError),
    #[error("{}: lock version {version} is not supported (this amplifier writes version {LOCK_VERSION})", path.display())]
    Version { path: PathBuf, version: u32 },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
}

/// How a module's resolution differs from its lock entry; `module` names
/// it (`tool 'x' (tools[0])`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LockMismatch {
    #[error("{module} is not in {LOCK_FILE} (for plan {plan})")]
    NotLocked { module: String, plan: String },
    #[error("{module}: the plan's source is {plan_source}, {LOCK_FILE} has {locked}")]
    Source { module: String, plan_source: String, locked: String },
    #[error(
        "{module}: {plan_source} resolves to commit {}, {LOCK_FILE} has commit {}",
        commit.as_deref().unwrap_or("(none)"),
        locked.as_deref().unwrap_or("(none)")
    )]
    Commit { module: String, plan_source: String, commit: Option<String>, locked: Option<String> },
    #[error(
        "{module}: {LOCK_FILE} was written for ABI {abi} / protocol {protocol}, \
         this amplifier speaks ABI {} / protocol {}",
        amplifier_abi::ABI_MAJOR,
        amplifier_abi::PROTOCOL_VERSION
    )]
    Abi { module: String, abi: u32, protocol: u32 },
    #[error("{module}: the library's sha256 is {sha256}, {LOCK_FILE} has {locked}")]
    Sha256 { module: String, sha256: String, locked: String },
}

/// What one loaded module resolved to: a lock entry without its plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub name: String,
    pub kind: String,
    /// Where the module is in the plan (`tools[0]`), for messages.
    pub field_path: String,
    /// `git+<canonical url>[@ref][#subdirectory=…]` for git sources; else the
    /// path (relative to the plan's directory when it can be).
    pub source: String,
    /// The full commit id, for git sources.
    pub commit: Option<String>,
    /// sha256 of the library that was (or would be) opened.
    pub sha256: String,
    /// The target of the prebuilt library used (`[artifacts.<target>]`);
    /// `None` when the library was built here.
    pub artifact: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockEntry {
    /// The plan's file name: one lock serves every plan of a directory.
    pub plan: String,
    pub name: String,
    pub kind: String,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    pub sha256: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact: Option<String>,
    pub abi: u32,
    pub protocol: u32,
}

impl LockEntry {
    pub fn new(plan: &str, resolution: &Resolution) -> Self {
        LockEntry {
            plan: plan.to_owned(),
            name: resolution.name.clone(),
            kind: resolution.kind.clone(),
            source: resolution.source.clone(),
            commit: resolution.commit.clone(),
            sha256: resolution.sha256.clone(),
            artifact: resolution.artifact.clone(),
            abi: amplifier_abi::ABI_MAJOR,
            protocol: amplifier_abi::PROTOCOL_VERSION,
        }
    }

    /// `commit 1234567` for git sources, else `sha256 89abcdef0123`.
    pub fn short_id(&self) -> String {
        match &self.commit {
            Some(commit) => format!("commit {}", &commit[..commit.len().min(7)]),
            None => format!("sha256 {}", &self.sha256[..self.sha256.len().min(12)]),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lockfile {
    pub version: u32,
    #[serde(default, rename = "module")]
    pub modules: Vec<LockEntry>,
}

impl Default for Lockfile {
    fn default() -> Self {
        Lockfile { version: LOCK_VERSION, modules: Vec::new() }
    }
}

/// An entry `update` changed: `old` is `None` for a new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub old: Option<LockEntry>,
    pub new: LockEntry,
}

impl Lockfile {
    /// `amplifier.lock` in the plan's directory.
    pub fn path_for(plan: &Path) -> PathBuf {
        plan.parent().map(|dir| dir.join(LOCK_FILE)).unwrap_or_else(|| PathBuf::from(LOCK_FILE))
    }

    /// The plan's key in the lock: its file name.
    pub fn plan_key(plan: &Path) -> String {
        plan.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| plan.display().to_string())
    }

    /// Reads a lock; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<Lockfile>, LockfileError> {
        let Some(lock) = toml_file::read_if_exists::<Lockfile>(path)? else { return Ok(None) };
        if lock.version != LOCK_VERSION {
            return Err(LockfileError::Version { path: path.to_owned(), version: lock.version });
        }
        Ok(Some(lock))
    }

    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!(
            "# Written by amplifier: what each plan's modules resolved to.\n\
             # `amplifier update --plan PLAN [MODULE]` refreshes it; `amplifier run --locked` enforces it.\n{body}"
        )
    }

    /// Writes the lock (temporary file, then rename) unless the file already
    /// says the same; returns whether it wrote.
    pub fn write(&self, path: &Path) -> Result<bool, LockfileError> {
        amplifier_models::write_if_changed(path, &self.to_toml())
            .map_err(|source| LockfileError::Write { path: path.to_owned(), source })
    }

    /// The entry a resolution is compared with: same kind, name and source
    /// first, else same kind and name.
    pub fn find(&self, plan: &str, resolution: &Resolution) -> Option<&LockEntry> {
        let mine =
            || self.modules.iter().filter(|e| e.plan == plan && e.kind == resolution.kind && e.name == resolution.name);
        mine().find(|e| e.source == resolution.source).or_else(|| mine().next())
    }

    /// How `resolution` differs from the lock, naming the module and both values.
    pub fn check(&self, plan: &str, resolution: &Resolution) -> Result<(), LockMismatch> {
        let module = format!("{} '{}' ({})", resolution.kind, resolution.name, resolution.field_path);
        let Some(entry) = self.find(plan, resolution) else {
            return Err(LockMismatch::NotLocked { module, plan: plan.to_owned() });
        };
        if entry.source != resolution.source {
            return Err(LockMismatch::Source {
                module,
                plan_source: resolution.source.clone(),
                locked: entry.source.clone(),
            });
        }
        if entry.commit != resolution.commit {
            return Err(LockMismatch::Commit {
                module,
                plan_source: resolution.source.clone(),
                commit: resolution.commit.clone(),
                locked: entry.commit.clone(),
            });
        }
        if (entry.abi, entry.protocol) != (amplifier_abi::ABI_MAJOR, amplifier_abi::PROTOCOL_VERSION) {
            return Err(LockMismatch::Abi { module, abi: entry.abi, protocol: entry.protocol });
        }
        if entry.sha256 != resolution.sha256 {
            return Err(LockMismatch::Sha256 {
                module,
                sha256: resolution.sha256.clone(),
                locked: entry.sha256.clone(),
            });
        }
        Ok(())
    }

    /// Entries of `plan` for modules the plan no longer names (`in_plan`
    /// is false for them).
    pub fn extras(&self, plan: &str, in_plan: impl Fn(&LockEntry) -> bool) -> Vec<String> {
        self.modules
            .iter()
            .filter(|e| e.plan == plan && !in_plan(e))
            .map(|e| format!("{} '{}' is in {LOCK_FILE} ({}) but not in the plan", e.kind, e.name, e.short_id()))
            .collect()
    }

    /// Records `resolutions` for `plan`, replacing the entries of the same
    /// kind and name; entries for which `keep` is false (modules the plan no
    /// longer names) are dropped. Returns what changed.
    pub fn update(&mut self, plan: &str, resolutions: &[Resolution], keep: impl Fn(&LockEntry) -> bool) -> Vec<Change> {
        let mut changes = Vec::new();
        let mut fresh: Vec<LockEntry> = Vec::new();
        for resolution in resolutions {
            let entry = LockEntry::new(plan, resolution);
            if fresh.contains(&entry) {
                continue;
            }
            let old = self.find(plan, resolution).cloned();
            if old.as_ref() != Some(&entry) {
                changes.push(Change { old, new: entry.clone() });
            }
            fresh.push(entry);
        }
        self.modules
            .retain(|e| e.plan != plan || (keep(e) && !fresh.iter().any(|f| f.kind == e.kind && f.name == e.name)));
        self.modules.extend(fresh);
        self.modules
            .sort_by(|a, b| (&a.plan, &a.kind, &a.name, &a.source).cmp(&(&b.plan, &b.kind, &b.name, &b.source)));
        changes
    }
}

/// What the loader saw while loading: resolutions of loaded modules and,
/// with `--locked`, the differences from the lock.
#[derive(Default)]
pub struct Recorder {
    resolutions: Mutex<Vec<Resolution>>,
    violations: Mutex<Vec<String>>,
}

impl Recorder {
    pub fn loaded(&self, resolution: Resolution) {
        let mut all = self.resolutions.lock().unwrap_or_else(|e| e.into_inner());
        if !all.contains(&resolution) {
            all.push(resolution);
        }
    }

    pub fn violation(&self, message: String) {
        self.violations.lock().unwrap_or_else(|e| e.into_inner()).push(message);
    }

    pub fn resolutions(&self) -> Vec<Resolution> {
        self.resolutions.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn violations(&self) -> Vec<String> {
        self.violations.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// sha256 of bytes, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// sha256 of a file, as lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, LockfileError> {
    let unreadable = |source| LockfileError::Read { path: path.to_owned(), source };
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer).map_err(unreadable)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// sha256 of a library. Libraries in the build cache (under `cache_dir`) never
/// change once stored, so their hash is kept beside them (`<lib>.sha256`,
/// with the size and mtime it was computed for) and start-up does not
/// hash megabytes on every run.
pub fn library_sha256(library: &Path, cache_dir: &Path) -> Result<String, LockfileError> {
    if !library.starts_with(cache_dir) {
        return sha256_file(library);
    }
    let meta = std::fs::metadata(library).map_err(|source| LockfileError::Read { path: library.to_owned(), source })?;
    let modified =
        meta.modified().ok().and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
    let stamp = format!("{} {modified}", meta.len());
    let mut sidecar = library.as_os_str().to_owned();
    sidecar.push(".sha256");
    let sidecar = PathBuf::from(sidecar);
    if let Some((hash, stamped)) = std::fs::read_to_string(&sidecar).ok().as_deref().and_then(|t| t.split_once(' ')) {
        if stamped.trim() == stamp && hash.len() == 64 {
            return Ok(hash.to_owned());
        }
    }
    let hash = sha256_file(library)?;
    let _ = std::fs::write(&sidecar, format!("{hash} {stamp}\n"));
    Ok(hash)
}

/// `path` relative to `base` when they share more than the root
/// (`../plugins/tool-echo`), so a lock holds no machine's absolute paths
/// for modules that live beside the plan; else `path` as is.
pub fn portable_path(path: &Path, base: Option<&Path>) -> String {
    let Some(base) = base else { return path.display().to_string() };
    let base = base.canonicalize().unwrap_or_else(|_| base.to_owned());
    let from: Vec<Component<'_>> = base.components().collect();
    let to: Vec<Component<'_>> = path.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common <= 1 || !path.is_absolute() {
        return path.display().to_string();
    }
    let mut relative = PathBuf::new();
    for _ in common..from.len() {
        relative.push("..");
    }
    for part in &to[common..] {
        relative.push(part.as_os_str());
    }
    if relative.as_os_str().is_empty() {
        ".".to_owned()
    } else {
        relative.display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolution(name: &str, commit: Option<&str>, sha: &str) -> Resolution {
        Resolution {
            name: name.into(),
            kind: "tool".into(),
            field_path: "tools[0]".into(),
            source: format!("git+file:///r@main#subdirectory={name}"),
            commit: commit.map(str::to_owned),
            sha256: sha.into(),
            artifact: None,
        }
    }

    #[test]
    fn round_trips_and_checks_each_difference() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        let mut lock = Lockfile::default();
        let a = resolution("a", Some("1111111111111111111111111111111111111111"), "aa");
        let changes = lock.update("plan.yaml", std::slice::from_ref(&a), |_| true);
        assert_eq!(changes.len(), 1);
        assert!(changes[0].old.is_none());
        assert!(lock.write(&path).unwrap());
        assert!(!lock.write(&path).unwrap(), "unchanged: not rewritten");
        let read = Lockfile::read(&path).unwrap().unwrap();
        assert_eq!(read, lock);
        assert_eq!(read.modules[0].abi, amplifier_abi::ABI_MAJOR);

        assert_eq!(read.check("plan.yaml", &a), Ok(()));
        let moved = resolution("a", Some("2222222222222222222222222222222222222222"), "aa");
        let err = read.check("plan.yaml", &moved).unwrap_err().to_string();
        assert!(err.contains("resolves to commit 2222222222222222222222222222222222222222"), "{err}");
        assert!(err.contains("has commit 1111111111111111111111111111111111111111"), "{err}");
        let rebuilt = resolution("a", Some("1111111111111111111111111111111111111111"), "bb");
        let err = read.check("plan.yaml", &rebuilt).unwrap_err().to_string();
        assert!(err.contains("sha256 is bb") && err.contains("has aa"), "{err}");
        let err = read.check("other.yaml", &a).unwrap_err().to_string();
        assert!(err.contains("tool 'a' (tools[0]) is not in amplifier.lock"), "{err}");
        assert_eq!(read.extras("plan.yaml", |e| e.name == "b").len(), 1, "a is in the lock, not in the plan");
        assert!(read.extras("plan.yaml", |e| e.name == "a").is_empty(), "the plan mounts a");
    }

    #[test]
    fn update_replaces_this_plans_entries_only() {
        let mut lock = Lockfile::default();
        lock.update("one.yaml", &[resolution("a", None, "aa")], |_| true);
        lock.update("two.yaml", &[resolution("a", None, "aa")], |_| true);
        let changes = lock.update("one.yaml", &[resolution("a", None, "cc")], |_| true);
        assert_eq!(changes[0].old.as_ref().unwrap().sha256, "aa");
        assert_eq!(changes[0].new.sha256, "cc");
        assert_eq!(lock.modules.len(), 2);
        lock.update("one.yaml", &[], |e| e.name != "a");
        assert_eq!(lock.modules.len(), 1, "dropped from one.yaml only");
        assert_eq!(lock.modules[0].plan, "two.yaml");
    }

    #[test]
    fn cached_library_hashes_are_kept_beside_them() {
        let dir = tempfile::tempdir().unwrap();
        let library = dir.path().join("plugins/libx.so");
        std::fs::create_dir_all(library.parent().unwrap()).unwrap();
        std::fs::write(&library, b"abc").unwrap();
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(library_sha256(&library, dir.path()).unwrap(), expected);
        assert!(dir.path().join("plugins/libx.so.sha256").is_file());
        assert_eq!(library_sha256(&library, dir.path()).unwrap(), expected);
    }

    #[test]
    fn paths_beside_the_plan_are_relative() {
        assert_eq!(portable_path(Path::new("/w/plugins/x"), Some(Path::new("/w/plans"))), "../plugins/x");
        assert_eq!(portable_path(Path::new("/opt/x"), Some(Path::new("/w/plans"))), "/opt/x");
        assert_eq!(portable_path(Path::new("/w/plans/x"), Some(Path::new("/w/plans"))), "x");
    }
}
