//! One process per session: an exclusive advisory lock (`flock`) on
//! `locks/<session-id>.lock`, held while the [`SessionLock`] lives. The
//! kernel releases it when the process dies, `kill -9` included, so a crash
//! never leaves a session locked. The holder writes its pid into the file so
//! a refused process can name it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::{Result, StoreError};

/// The held lock of one session; released on drop.
#[derive(Debug)]
pub struct SessionLock {
    file: File,
    path: PathBuf,
}

impl SessionLock {
    pub(crate) fn acquire(dir: &Path, session_id: &str) -> Result<SessionLock> {
        if session_id.is_empty() || session_id.contains(['/', '\\']) || session_id.starts_with('.') {
            return Err(StoreError::Invalid(format!("'{session_id}' is not a valid session id")));
        }
        std::fs::create_dir_all(dir)
            .map_err(|err| StoreError::Io(format!("cannot create {}: {err}", dir.display())))?;
        let path = dir.join(format!("{session_id}.lock"));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|err| StoreError::Io(format!("cannot open {}: {err}", path.display())))?;
        if !try_lock(&file).map_err(|err| StoreError::Io(format!("cannot lock {}: {err}", path.display())))? {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            return Err(StoreError::Locked { session: session_id.to_owned(), pid: text.trim().parse().ok() });
        }
        // Ours now: record our pid for whoever is refused next.
        let _ = file.set_len(0).and_then(|_| file.seek(SeekFrom::Start(0)));
        let _ = writeln!(file, "{}", std::process::id()).and_then(|_| file.flush());
        Ok(SessionLock { file, path })
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Releases the lock and removes its file (used when the session is
    /// deleted; a live session keeps its file, see [`SessionLock`]).
    pub(crate) fn remove(self) {
        let _ = std::fs::remove_file(&self.path);
        drop(self.file);
    }
}

/// Takes the exclusive lock without waiting: `Ok(false)` when another open
/// file description (another process) holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    loop {
        // SAFETY: flock on a file descriptor we own; no memory is shared.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let err = std::io::Error::last_os_error();
        match err.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(code) if code == libc::EWOULDBLOCK || code == libc::EAGAIN => return Ok(false),
            _ => return Err(err),
        }
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}
