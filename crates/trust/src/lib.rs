//! `amplifier-trust`: which of the files a checkout carries the user has
//! agreed to let change what amplifier runs or where it sends data.
//!
//! A project's settings can name the plan to run, the store every prompt
//! goes to, and approvals to skip; its hooks files name commands to run. A
//! cloned repository, or a command the agent ran, can write all of them.
//! So amplifier uses them only once the user has trusted either that exact
//! content (its sha256: a changed file needs trust again, as codex trusts
//! hooks) or the whole directory. The list is `$AMPLIFIER_HOME/trust.json`;
//! files beneath `$AMPLIFIER_HOME` are the user's own and always trusted.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The list's file name beneath `$AMPLIFIER_HOME`.
pub const FILE_NAME: &str = "trust.json";

/// What the list says of one file's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// This content was trusted, the file lies beneath a trusted directory,
    /// or it is the user's own (beneath `$AMPLIFIER_HOME`).
    Trusted,
    /// Trusted once, with other content.
    Changed,
    /// Never trusted.
    New,
}

impl Verdict {
    /// How messages name the state of a file that is not trusted.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Trusted => "trusted",
            Verdict::Changed => "changed since you trusted it",
            Verdict::New => "not trusted yet",
        }
    }
}

/// The largest checkout file read to be hashed or parsed (as the YAML
/// reader's cap): a hostile one must not exhaust memory.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// A file a checkout carries, whole, when it is at most [`MAX_FILE_BYTES`].
pub fn read_checkout_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    File::open(path)?.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!("larger than {} MiB", MAX_FILE_BYTES >> 20)));
    }
    Ok(bytes)
}

/// Why the list could not be read or written; names the file.
#[derive(Debug)]
pub struct TrustError(String);

impl std::fmt::Display for TrustError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TrustError {}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    /// Canonical path to the sha256 (hex) of the content trusted.
    #[serde(default)]
    files: BTreeMap<String, String>,
    /// Canonical directories trusted whole.
    #[serde(default)]
    directories: BTreeSet<String>,
}

/// The user's trust list, as read once.
#[derive(Debug)]
pub struct TrustList {
    /// `None` without a home: nothing is trusted, nothing can be.
    home: Option<PathBuf>,
    stored: Stored,
}

/// The sha256 of `content`, in hex.
pub fn digest(content: &[u8]) -> String {
    Sha256::digest(content).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// `path` made absolute and free of `..` and links, where it exists.
fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_owned()))
}

fn key(path: &Path) -> String {
    canonical(path).to_string_lossy().into_owned()
}

impl TrustList {
    /// The list in `$AMPLIFIER_HOME` (else `~/.amplifier`).
    pub fn open() -> Result<TrustList, TrustError> {
        match amplifier_protocol::paths::amplifier_home() {
            Some(home) => TrustList::open_in(&home),
            None => Ok(TrustList { home: None, stored: Stored::default() }),
        }
    }

    /// The list in `home`; an absent file is an empty list.
    pub fn open_in(home: &Path) -> Result<TrustList, TrustError> {
        let stored = read(&home.join(FILE_NAME))?;
        Ok(TrustList { home: Some(home.to_owned()), stored })
    }

    /// What the list says of `file` holding `content`.
    pub fn verdict(&self, file: &Path, content: &[u8]) -> Verdict {
        let path = canonical(file);
        let own = self.home.as_deref().map(canonical).is_some_and(|home| path.starts_with(home));
        let in_trusted_dir = self.stored.directories.iter().any(|dir| path.starts_with(dir));
        if own || in_trusted_dir {
            return Verdict::Trusted;
        }
        match self.stored.files.get(path.to_string_lossy().as_ref()) {
            Some(hash) if *hash == digest(content) => Verdict::Trusted,
            Some(_) => Verdict::Changed,
            None => Verdict::New,
        }
    }

    /// Trusts `file` as long as it holds `content`.
    pub fn trust_file(&mut self, file: &Path, content: &[u8]) -> Result<(), TrustError> {
        let (path, hash) = (key(file), digest(content));
        self.update(|stored| {
            stored.files.insert(path, hash);
        })
    }

    /// Trusts every file beneath `dir`, whatever it holds.
    pub fn trust_directory(&mut self, dir: &Path) -> Result<(), TrustError> {
        let path = key(dir);
        self.update(|stored| {
            stored.directories.insert(path);
        })
    }

    /// Forgets `path` (a file or a directory); whether it was listed.
    pub fn revoke(&mut self, path: &Path) -> Result<bool, TrustError> {
        let path = key(path);
        let mut found = false;
        self.update(|stored| {
            found = stored.files.remove(&path).is_some() | stored.directories.remove(&path);
        })?;
        Ok(found)
    }

    /// The files trusted, with the sha256 of their trusted content.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.stored.files.iter().map(|(path, hash)| (path.as_str(), hash.as_str()))
    }

    /// The directories trusted whole.
    pub fn directories(&self) -> impl Iterator<Item = &str> {
        self.stored.directories.iter().map(String::as_str)
    }

    /// The list's file.
    pub fn path(&self) -> Option<PathBuf> {
        self.home.as_ref().map(|home| home.join(FILE_NAME))
    }

    /// Applies `change` to the list as it is on disk now, under a lock, so
    /// two amplifiers trusting at once both keep what they added.
    fn update(&mut self, change: impl FnOnce(&mut Stored)) -> Result<(), TrustError> {
        let Some(home) = &self.home else {
            return Err(TrustError("no trust list: neither AMPLIFIER_HOME nor HOME is set".into()));
        };
        let path = home.join(FILE_NAME);
        let failed = |what: &str, err: std::io::Error| TrustError(format!("cannot {what} {}: {err}", path.display()));
        std::fs::create_dir_all(home).map_err(|err| failed("create the directory of", err))?;
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(home.join(format!("{FILE_NAME}.lock")))
            .map_err(|err| failed("lock", err))?;
        // SAFETY: flock on a descriptor this function owns; the lock goes
        // with the descriptor when `lock` is dropped.
        if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(failed("lock", std::io::Error::last_os_error()));
        }
        let mut stored = read(&path)?;
        change(&mut stored);
        let text = serde_json::to_string_pretty(&stored).expect("a map of strings serializes");
        let temporary = home.join(format!("{FILE_NAME}.{}.tmp", std::process::id()));
        let mut file = File::options()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&temporary)
            .map_err(|err| failed("write", err))?;
        file.write_all(format!("{text}\n").as_bytes()).map_err(|err| failed("write", err))?;
        file.sync_all().map_err(|err| failed("write", err))?;
        std::fs::rename(&temporary, &path).map_err(|err| failed("write", err))?;
        self.stored = stored;
        Ok(())
    }
}

fn read(path: &Path) -> Result<Stored, TrustError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map_err(|err| {
            TrustError(format!(
                "{}:{}:{}: not a trust list: {err} (fix or remove the file; it lists what `amplifier trust` trusted)",
                path.display(),
                err.line(),
                err.column()
            ))
        }),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Stored::default()),
        Err(err) => Err(TrustError(format!("cannot read {}: {err}", path.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_trusted_with_the_content_it_had_and_no_other() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let file = project.path().join("settings.yaml");
        std::fs::write(&file, "plan: a.yaml\n").unwrap();
        let mut list = TrustList::open_in(home.path()).unwrap();
        assert_eq!(list.verdict(&file, b"plan: a.yaml\n"), Verdict::New);
        list.trust_file(&file, b"plan: a.yaml\n").unwrap();
        // Read back from disk, by another path to the same file.
        let list = TrustList::open_in(home.path()).unwrap();
        let dotted = project.path().join(".").join("settings.yaml");
        assert_eq!(list.verdict(&dotted, b"plan: a.yaml\n"), Verdict::Trusted);
        assert_eq!(list.verdict(&file, b"plan: evil.yaml\n"), Verdict::Changed);
        assert_eq!(list.verdict(&project.path().join("other.yaml"), b"plan: a.yaml\n"), Verdict::New);
    }

    #[test]
    fn a_directory_trusts_what_lies_beneath_and_revoking_forgets() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join(".amplifier")).unwrap();
        let hooks = project.path().join(".amplifier/hooks.json");
        std::fs::write(&hooks, "{}").unwrap();
        let mut list = TrustList::open_in(home.path()).unwrap();
        list.trust_directory(project.path()).unwrap();
        assert_eq!(list.verdict(&hooks, b"anything"), Verdict::Trusted);
        assert!(list.revoke(project.path()).unwrap());
        assert!(!list.revoke(project.path()).unwrap());
        assert_eq!(TrustList::open_in(home.path()).unwrap().verdict(&hooks, b"{}"), Verdict::New);
    }

    #[test]
    fn the_users_own_files_are_trusted_and_a_broken_list_is_an_error_naming_it() {
        let home = tempfile::tempdir().unwrap();
        let own = home.path().join("settings.yaml");
        std::fs::write(&own, "store: /srv\n").unwrap();
        assert_eq!(TrustList::open_in(home.path()).unwrap().verdict(&own, b"store: /srv\n"), Verdict::Trusted);
        std::fs::write(home.path().join(FILE_NAME), "{\"files\": [").unwrap();
        let err = TrustList::open_in(home.path()).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}:1:", home.path().join(FILE_NAME).display())), "{err}");
    }

    #[test]
    fn two_writers_keep_both_entries() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let (a, b) = (project.path().join("a"), project.path().join("b"));
        let mut first = TrustList::open_in(home.path()).unwrap();
        let mut second = TrustList::open_in(home.path()).unwrap();
        first.trust_file(&a, b"a").unwrap();
        second.trust_file(&b, b"b").unwrap();
        let list = TrustList::open_in(home.path()).unwrap();
        assert_eq!(list.files().count(), 2);
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(home.path().join(FILE_NAME)).unwrap().permissions(),
        );
        assert_eq!(mode & 0o077, 0, "the list is the user's alone");
    }
}
