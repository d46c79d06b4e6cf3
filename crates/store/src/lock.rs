//! One process per session, held while the [`SessionLock`] lives; a crash
//! (`kill -9` included) never leaves a session locked.
//!
//! - SQLite: an exclusive advisory lock (`flock`) on `locks/<session-id>.lock`
//!   beside the database, released by the kernel when the process dies. The
//!   holder writes its pid into the file so a refused process can name it.
//! - PostgreSQL: a session-level advisory lock on the process's lock
//!   connection, released on drop, or by the server when that connection
//!   closes (see [`crate::postgres`]), so it holds across machines.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::postgres::PgLock;
use crate::{Result, StoreError};

/// The held lock of one session; released on drop.
#[derive(Debug)]
pub struct SessionLock {
    held: Held,
}

#[derive(Debug)]
enum Held {
    File {
        file: File,
        path: PathBuf,
    },
    /// Held for its drop, which releases the lock.
    Postgres(#[allow(dead_code)] Box<PgLock>),
}

/// How long a refused locker of a lock file tries again before it reports
/// the session locked: [`SessionLock::file_is_held`] holds a free session's
/// lock for a moment, and must not make a process that locks it fail.
const PROBE_GRACE: Duration = Duration::from_millis(20);

pub(crate) fn check_id(session_id: &str) -> Result<()> {
    if session_id.is_empty() || session_id.contains(['/', '\\']) || session_id.starts_with('.') {
        return Err(StoreError::Invalid(format!("'{session_id}' is not a valid session id")));
    }
    Ok(())
}

impl SessionLock {
    pub(crate) fn postgres(lock: PgLock) -> SessionLock {
        SessionLock { held: Held::Postgres(Box::new(lock)) }
    }

    pub(crate) fn file(dir: &Path, session_id: &str) -> Result<SessionLock> {
        check_id(session_id)?;
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
        let refused_since = Instant::now();
        while !try_lock_at(&file, &path)? {
            if refused_since.elapsed() >= PROBE_GRACE {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(StoreError::Locked { session: session_id.to_owned(), pid: text.trim().parse().ok() });
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // Ours now: record our pid for whoever is refused next.
        let _ = file.set_len(0).and_then(|_| file.seek(SeekFrom::Start(0)));
        let _ = writeln!(file, "{}", std::process::id()).and_then(|_| file.flush());
        Ok(SessionLock { held: Held::File { file, path } })
    }

    /// Whether another open of the session's lock file holds it: tested by
    /// taking the lock for a moment, without writing to the file, so a
    /// holder's pid stays in it. A locker refused in that moment tries again
    /// (see [`PROBE_GRACE`]).
    pub(crate) fn file_is_held(dir: &Path, session_id: &str) -> Result<bool> {
        check_id(session_id)?;
        let path = dir.join(format!("{session_id}.lock"));
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(err) => return Err(StoreError::Io(format!("cannot open {}: {err}", path.display()))),
        };
        Ok(!try_lock_at(&file, &path)?)
    }

    /// The lock file's path (`None` for a lock held in PostgreSQL).
    pub fn path(&self) -> Option<&Path> {
        match &self.held {
            Held::File { path, .. } => Some(path),
            Held::Postgres(_) => None,
        }
    }

    /// Releases the lock and removes its file (used when the session is
    /// deleted; a live session keeps its file, see [`SessionLock`]).
    pub(crate) fn remove(self) {
        if let Held::File { file, path } = self.held {
            let _ = std::fs::remove_file(&path);
            drop(file);
        }
    }
}

/// [`try_lock`] on the lock file at `path`, its error naming the file.
fn try_lock_at(file: &File, path: &Path) -> Result<bool> {
    try_lock(file).map_err(|err| StoreError::Io(format!("cannot lock {}: {err}", path.display())))
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
