//! Opening exactly the path the policy checked, never another.
//!
//! The policy checks a canonical path: no symbolic link on it, every `..`
//! resolved. Between that check and the use, a command running beside the
//! model (tool-bash, a build) can swap a directory on the path for a
//! symbolic link to somewhere else (`renameat2(RENAME_EXCHANGE)`), and a
//! plain `open` would follow it out of the allowed roots. So every use walks
//! the checked path from `/` one component at a time with `O_NOFOLLOW`:
//! a link that appeared since the check fails the call (`ELOOP` or
//! `ENOTDIR`, reported as the path having changed) instead of being
//! followed. The walk needs no kernel newer than `O_PATH` (Linux 2.6.39),
//! unlike `openat2(RESOLVE_NO_SYMLINKS)`, which gives the same guarantee.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the path"))
}

/// `openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC)`.
fn open_at(dir: RawFd, name: &OsStr, flags: libc::c_int, mode: libc::mode_t) -> io::Result<OwnedFd> {
    let name = c_name(name)?;
    // SAFETY: a valid descriptor (or AT_FDCWD) and a NUL-terminated name.
    let fd =
        unsafe { libc::openat(dir, name.as_ptr(), flags | libc::O_NOFOLLOW | libc::O_CLOEXEC, mode as libc::c_uint) };
    if fd < 0 {
        return Err(changed(io::Error::last_os_error()));
    }
    // SAFETY: a new descriptor, owned from here on.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A symbolic link where the check saw none: the path changed in between.
fn changed(err: io::Error) -> io::Error {
    match err.raw_os_error() {
        Some(libc::ELOOP) | Some(libc::ENOTDIR) => io::Error::other(
            "the path changed while it was used (a symbolic link appeared on it since it was checked); nothing was done",
        ),
        _ => err,
    }
}

/// The directory `dir` (absolute, checked), walked from `/` without
/// following any link; with `create`, missing directories are made.
pub fn directory(dir: &Path, create: bool) -> io::Result<OwnedFd> {
    let mut current = open_at(libc::AT_FDCWD, OsStr::new("/"), libc::O_PATH | libc::O_DIRECTORY, 0)?;
    for component in dir.components() {
        let name = match component {
            Component::RootDir => continue,
            Component::Normal(name) => name,
            _ => return Err(io::Error::new(io::ErrorKind::InvalidInput, "the path is not canonical")),
        };
        let next = match open_at(current.as_raw_fd(), name, libc::O_PATH | libc::O_DIRECTORY, 0) {
            Err(err) if create && err.kind() == io::ErrorKind::NotFound => {
                let c = c_name(name)?;
                // SAFETY: a valid descriptor and a NUL-terminated name.
                if unsafe { libc::mkdirat(current.as_raw_fd(), c.as_ptr(), 0o777) } != 0 {
                    let err = io::Error::last_os_error();
                    if err.kind() != io::ErrorKind::AlreadyExists {
                        return Err(err);
                    }
                }
                open_at(current.as_raw_fd(), name, libc::O_PATH | libc::O_DIRECTORY, 0)?
            }
            other => other?,
        };
        current = next;
    }
    Ok(current)
}

fn split(path: &Path) -> io::Result<(&Path, &OsStr)> {
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => Ok((parent, name)),
        _ => Err(io::Error::new(io::ErrorKind::InvalidInput, "the path names no file")),
    }
}

/// The existing file `path` (absolute, checked), opened for reading.
pub fn open_read(path: &Path) -> io::Result<File> {
    let (parent, name) = split(path)?;
    let dir = directory(parent, false)?;
    Ok(File::from(open_at(dir.as_raw_fd(), name, libc::O_RDONLY, 0)?))
}

/// The directory `path` (absolute, checked), opened to list its entries.
pub fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    match split(path) {
        Ok((parent, name)) => {
            open_at(directory(parent, false)?.as_raw_fd(), name, libc::O_RDONLY | libc::O_DIRECTORY, 0)
        }
        // `/` itself.
        Err(_) => open_at(libc::AT_FDCWD, OsStr::new("/"), libc::O_RDONLY | libc::O_DIRECTORY, 0),
    }
}

/// The entries of the directory `path` (see [`open_dir`]), read through the
/// open descriptor: procfs names the very directory opened.
pub fn read_dir(path: &Path) -> io::Result<(OwnedFd, std::fs::ReadDir)> {
    let dir = open_dir(path)?;
    let entries = std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd()))?;
    Ok((dir, entries))
}

/// Writes `bytes` to `path` (absolute, checked) through a temporary file
/// beside it, renamed over it, so readers see the old content or the new,
/// never a part; missing parent directories are made, and an existing file
/// keeps its permissions. Every step is relative to the parent directory
/// opened once, so no step can be sent elsewhere.
pub fn atomic_write(path: &Path, bytes: &[u8], temp_name: &str) -> io::Result<()> {
    use std::io::Write;
    let (parent, name) = split(path)?;
    let dir = directory(parent, true)?;
    let name_c = c_name(name)?;
    // SAFETY: a zeroed stat is a valid out-parameter; the call fills it.
    let mut existing: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor, a NUL-terminated name, a stat to fill.
    let exists =
        unsafe { libc::fstatat(dir.as_raw_fd(), name_c.as_ptr(), &mut existing, libc::AT_SYMLINK_NOFOLLOW) } == 0;
    if exists && existing.st_mode & libc::S_IFMT == libc::S_IFLNK {
        return Err(changed(io::Error::from_raw_os_error(libc::ELOOP)));
    }
    let mode = if exists { existing.st_mode & 0o7777 } else { 0o666 };
    let temp = OsStr::new(temp_name);
    let mut file = File::from(open_at(dir.as_raw_fd(), temp, libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL, mode)?);
    let temp_c = c_name(temp)?;
    let result = (|| {
        file.write_all(bytes)?;
        if exists {
            // The umask narrowed what O_CREAT set.
            // SAFETY: a valid descriptor.
            if unsafe { libc::fchmod(file.as_raw_fd(), mode) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        file.sync_all()?;
        // SAFETY: valid descriptors and NUL-terminated names.
        match unsafe { libc::renameat(dir.as_raw_fd(), temp_c.as_ptr(), dir.as_raw_fd(), name_c.as_ptr()) } {
            0 => Ok(()),
            _ => Err(io::Error::last_os_error()),
        }
    })();
    if result.is_err() {
        // SAFETY: a valid descriptor and a NUL-terminated name.
        unsafe { libc::unlinkat(dir.as_raw_fd(), temp_c.as_ptr(), 0) };
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_on_the_path_is_refused_and_real_paths_work() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let (inside, outside) = (base.join("inside"), base.join("outside"));
        std::fs::create_dir_all(&inside).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(&outside, inside.join("sub")).unwrap();
        // Checked as if `inside/sub` were a real directory: the link is refused.
        let err = open_read(&inside.join("sub/secret")).unwrap_err().to_string();
        assert!(err.contains("the path changed while it was used"), "{err}");
        let err = atomic_write(&inside.join("sub/planted"), b"x", ".t").unwrap_err().to_string();
        assert!(err.contains("the path changed"), "{err}");
        assert!(!outside.join("planted").exists());
        std::os::unix::fs::symlink(outside.join("secret"), inside.join("file-link")).unwrap();
        assert!(open_read(&inside.join("file-link")).is_err());
        assert!(atomic_write(&inside.join("file-link"), b"x", ".t").is_err());
        assert_eq!(std::fs::read_to_string(outside.join("secret")).unwrap(), "s");

        atomic_write(&inside.join("new/dir/a.txt"), b"one", ".t").unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut open_read(&inside.join("new/dir/a.txt")).unwrap(), &mut text).unwrap();
        assert_eq!(text, "one");
        let (_fd, entries) = read_dir(&inside.join("new")).unwrap();
        assert_eq!(entries.map(|e| e.unwrap().file_name()).collect::<Vec<_>>(), ["dir"]);
    }
}
