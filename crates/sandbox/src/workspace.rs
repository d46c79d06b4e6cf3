//! The sandbox modes every module that runs commands offers (tool-bash's
//! `sandbox` key, hooks-command's), made into a [`Policy`] for a working
//! directory, with the private `TMPDIR` a confined command writes to.

use std::path::{Path, PathBuf};

use crate::Policy;

/// How much a command may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Writes nothing but its private `TMPDIR`; reads the system, `PATH`
    /// and the working directory.
    ReadOnly,
    /// Writes beneath the working directory too, but its protected paths.
    WorkspaceWrite,
    /// Confined in nothing.
    FullAccess,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::ReadOnly => "read-only",
            Mode::WorkspaceWrite => "workspace-write",
            Mode::FullAccess => "full-access",
        }
    }
}

/// What configures amplifier and git: read-only to `workspace-write`
/// commands unless a module's config says otherwise.
pub const PROTECTED_PATHS: &[&str] = &[".amplifier", ".git/hooks", ".git/config"];

/// What a mode's policy takes beyond the working directory; paths are
/// absolute (resolved by the module against its own base).
#[derive(Debug, Clone, Default)]
pub struct Extras {
    pub writable: Vec<PathBuf>,
    pub readable: Vec<PathBuf>,
    pub unix_sockets: Vec<PathBuf>,
    /// Relative to the working directory.
    pub protected: Vec<String>,
    pub read_everywhere: bool,
    pub network: bool,
    pub max_processes: Option<u64>,
}

/// The policy of `mode` in `dir` (`None` for full-access): both confined
/// modes read `dir` and write `tmp` (a private `TMPDIR`, when given);
/// workspace-write writes `dir` but its protected paths; amplifier's home
/// (`$AMPLIFIER_HOME`, where sessions are) is hidden.
pub fn policy(mode: Mode, dir: &Path, tmp: Option<&Path>, extras: Extras) -> Option<Policy> {
    let mut writable: Vec<PathBuf> = tmp.map(Path::to_owned).into_iter().collect();
    let mut read_only = Vec::new();
    match mode {
        Mode::FullAccess => return None,
        Mode::ReadOnly => {}
        Mode::WorkspaceWrite => {
            writable.push(dir.to_owned());
            writable.extend(extras.writable);
            read_only.extend(extras.protected.iter().map(|path| dir.join(path)));
        }
    }
    let mut readable = vec![dir.to_owned()];
    readable.extend(extras.readable);
    // An empty AMPLIFIER_HOME is unset: joined, it would hide `dir`.
    let home = std::env::var_os("AMPLIFIER_HOME").filter(|home| !home.is_empty());
    let hidden = home.map(|home| std::env::current_dir().unwrap_or_default().join(home)).into_iter().collect();
    Some(Policy {
        writable,
        readable,
        read_everywhere: extras.read_everywhere,
        hidden,
        network: extras.network,
        unix_sockets: extras.unix_sockets,
        read_only,
        max_processes: extras.max_processes,
    })
}

/// A confined command's private `TMPDIR`, named `<prefix><pid>-<random>`
/// so a later process can tell one whose owner is gone; removed when
/// dropped. Those of processes killed before they could remove theirs go
/// first.
pub fn private_tmpdir(prefix: &str) -> std::io::Result<tempfile::TempDir> {
    let tmp = std::env::temp_dir();
    remove_stale(&tmp, prefix);
    tempfile::Builder::new().prefix(&format!("{prefix}{}-", std::process::id())).tempdir_in(tmp)
}

/// Removes the user's own `<prefix><pid>-…` directories whose process is gone.
fn remove_stale(tmp: &Path, prefix: &str) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(tmp) else { return };
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|name| name.strip_prefix(prefix)?.split('-').next()) else {
            continue;
        };
        let gone = pid.parse::<u32>().is_ok_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
        // Not following a link: the entry itself must be the user's directory.
        let ours = entry.metadata().is_ok_and(|meta| meta.is_dir() && meta.uid() == uid);
        if gone && ours {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mode_writes_what_it_says() {
        let (dir, tmp) = (Path::new("/work/repo"), Some(Path::new("/tmp/t")));
        let extras =
            Extras { writable: vec!["/srv/cache".into()], protected: vec![".git/hooks".into()], ..Extras::default() };
        assert!(policy(Mode::FullAccess, dir, tmp, extras.clone()).is_none());
        let read_only = policy(Mode::ReadOnly, dir, tmp, extras.clone()).unwrap();
        assert_eq!(read_only.writable, [Path::new("/tmp/t")]);
        assert!(read_only.read_only.is_empty() && read_only.readable.contains(&dir.to_path_buf()));
        let workspace = policy(Mode::WorkspaceWrite, dir, tmp, extras).unwrap();
        assert_eq!(workspace.writable, [Path::new("/tmp/t"), dir, Path::new("/srv/cache")]);
        assert_eq!(workspace.read_only, [dir.join(".git/hooks")]);
    }

    #[test]
    fn a_dead_processs_tmpdir_goes_and_a_live_ones_stays() {
        let tmp = tempfile::tempdir().unwrap();
        let dead = tmp.path().join("amplifier-test-999999999-abc");
        let alive = tmp.path().join(format!("amplifier-test-{}-abc", std::process::id()));
        for dir in [&dead, &alive] {
            std::fs::create_dir(dir).unwrap();
        }
        remove_stale(tmp.path(), "amplifier-test-");
        assert!(!dead.exists() && alive.exists());
    }
}
