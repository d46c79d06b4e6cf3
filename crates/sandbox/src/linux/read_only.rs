//! Paths beneath a writable tree that stay read-only (`.git/hooks`, what
//! configures amplifier): Landlock can only add access, never take part of
//! a granted tree back, so the child gets a mount namespace of its own in
//! which each path is bind-mounted onto itself read-only. A write there
//! fails with `EROFS`; renaming or removing it fails with `EBUSY` (it is a
//! mount point). Without root, a user namespace comes first, mapping the
//! user to itself.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::Arc;

/// What the child needs, prepared in the parent (the child must not
/// allocate).
#[derive(Debug)]
pub struct ReadOnly {
    paths: Vec<CString>,
    /// `None` as root: a mount namespace needs no user namespace then.
    maps: Option<Maps>,
}

#[derive(Debug)]
struct Maps {
    uid_map: CString,
    gid_map: CString,
}

const SETGROUPS: &std::ffi::CStr = c"/proc/self/setgroups";
const UID_MAP: &std::ffi::CStr = c"/proc/self/uid_map";
const GID_MAP: &std::ffi::CStr = c"/proc/self/gid_map";

impl ReadOnly {
    /// `paths` that exist (canonical); `None` when there are none.
    pub fn new(paths: &[PathBuf]) -> Option<ReadOnly> {
        let paths: Vec<CString> = paths
            .iter()
            .filter_map(|path| path.canonicalize().ok())
            .filter_map(|path| CString::new(path.as_os_str().as_bytes()).ok())
            .collect();
        if paths.is_empty() {
            return None;
        }
        // SAFETY: getuid and getgid have no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let maps = (uid != 0).then(|| Maps {
            uid_map: CString::new(format!("{uid} {uid} 1\n")).expect("digits"),
            gid_map: CString::new(format!("{gid} {gid} 1\n")).expect("digits"),
        });
        Some(ReadOnly { paths, maps })
    }

    /// Whether this machine lets a child make the namespaces (user
    /// namespaces may be off, or limited by a security module): one child
    /// that tries, once per sandbox.
    pub fn works(this: &Arc<ReadOnly>) -> bool {
        use std::os::unix::process::CommandExt;
        let mut probe = std::process::Command::new("/bin/sh");
        probe.args(["-c", "exit 0"]).stdin(std::process::Stdio::null());
        let this = this.clone();
        // SAFETY: `apply` makes system calls only, on memory `this` owns.
        unsafe {
            probe.pre_exec(move || this.apply());
        }
        probe.status().is_ok_and(|status| status.success())
    }

    /// In the child, before capabilities are dropped and Landlock applies.
    pub fn apply(&self) -> io::Result<()> {
        // SAFETY: system calls on C strings `self` owns and on the stack.
        unsafe {
            match &self.maps {
                Some(maps) => {
                    check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
                    write(SETGROUPS, c"deny")?;
                    write(UID_MAP, &maps.uid_map)?;
                    write(GID_MAP, &maps.gid_map)?;
                }
                None => check(libc::unshare(libc::CLONE_NEWNS))?,
            }
            // Nothing mounted here reaches the rest of the system.
            let root = c"/";
            check(libc::mount(
                std::ptr::null(),
                root.as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            for path in &self.paths {
                let path = path.as_ptr();
                check(libc::mount(path, path, std::ptr::null(), libc::MS_BIND | libc::MS_REC, std::ptr::null()))?;
                // A remount must keep the flags the mount beneath had (the
                // kernel refuses to clear a locked nosuid, nodev or noexec).
                let mut fs: libc::statvfs = std::mem::zeroed();
                check(libc::statvfs(path, &mut fs))?;
                let mut flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY;
                for (st, ms) in [
                    (libc::ST_NOSUID, libc::MS_NOSUID),
                    (libc::ST_NODEV, libc::MS_NODEV),
                    (libc::ST_NOEXEC, libc::MS_NOEXEC),
                    (libc::ST_NOATIME, libc::MS_NOATIME),
                    (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
                    (libc::ST_RELATIME, libc::MS_RELATIME),
                ] {
                    if fs.f_flag & st != 0 {
                        flags |= ms;
                    }
                }
                check(libc::mount(std::ptr::null(), path, std::ptr::null(), flags, std::ptr::null()))?;
            }
        }
        Ok(())
    }
}

fn check(result: libc::c_int) -> io::Result<()> {
    match result {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// # Safety
/// System calls only.
unsafe fn write(file: &std::ffi::CStr, text: &std::ffi::CStr) -> io::Result<()> {
    let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let bytes = text.to_bytes();
    let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    libc::close(fd);
    match written {
        n if n == bytes.len() as isize => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}
