//! Landlock, seccomp and rlimits, prepared in the parent, applied in the child.

use std::collections::BTreeMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use landlock::{Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope, ABI};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
};

use crate::{expand_home, Policy, SandboxError, Support, DEVICES, READABLE_DEVICES, SECRET_PATHS, SYSTEM_PATHS};

/// The newest Landlock ABI this crate asks for; older kernels get what
/// they support of it (best effort), newer ones nothing more.
const LANDLOCK_ABI: ABI = ABI::V9;

mod read_only;

use read_only::ReadOnly;

pub fn support() -> Support {
    // SAFETY: with a null attribute and the VERSION flag, the call only
    // returns the ABI version (or fails); it touches no memory.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    // SAFETY: PR_GET_SECCOMP has no arguments and touches no memory.
    let seccomp = unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) } >= 0;
    Support { landlock: u32::try_from(abi).ok().filter(|&abi| abi > 0), seccomp }
}

/// The kernel objects of a [`Policy`]: owned by the parent, used by every
/// child it confines.
#[derive(Debug)]
pub struct Prepared {
    ruleset: OwnedFd,
    seccomp: BpfProgram,
    max_processes: Option<libc::rlimit>,
    /// `None` when the policy has no read-only path, or this machine
    /// allows no mount namespace (then `read_only_lost` says so).
    read_only: Option<Arc<ReadOnly>>,
    pub read_only_lost: bool,
}

impl Prepared {
    pub fn new(policy: &Policy) -> Result<Prepared, SandboxError> {
        let prepare = |what: &str, err: &dyn std::fmt::Display| SandboxError::Prepare(format!("{what}: {err}"));
        let home = std::env::var_os("HOME").map(PathBuf::from).filter(|home| home.is_absolute());
        let mut hidden: Vec<PathBuf> =
            SECRET_PATHS.iter().filter_map(|path| expand_home(path, home.as_deref())).collect();
        hidden.extend(policy.hidden.iter().cloned());
        // `/dev` holds the disks: only the listed devices are ever opened.
        hidden.push(PathBuf::from("/dev"));
        let hidden: Vec<PathBuf> = hidden.iter().filter_map(|path| path.canonicalize().ok()).collect();

        let mut read_roots: Vec<PathBuf> = if policy.read_everywhere {
            vec![PathBuf::from("/")]
        } else {
            let mut roots: Vec<PathBuf> = SYSTEM_PATHS.iter().map(PathBuf::from).collect();
            if let Some(path) = std::env::var_os("PATH") {
                roots.extend(std::env::split_paths(&path).filter(|dir| dir.is_absolute()));
            }
            roots.extend(policy.readable.iter().cloned());
            roots
        };
        read_roots.extend(policy.writable.iter().cloned());
        let (mut readable, mut listable) = (Vec::new(), Vec::new());
        for root in &read_roots {
            grant(root, &hidden, &mut readable, &mut listable);
        }
        let mut writable = Vec::new();
        for root in &policy.writable {
            grant(root, &hidden, &mut writable, &mut Vec::new());
        }
        let read = AccessFs::from_read(LANDLOCK_ABI);
        let all = AccessFs::from_all(LANDLOCK_ABI);
        let sockets: Vec<PathBuf> = policy.unix_sockets.iter().filter_map(|path| path.canonicalize().ok()).collect();
        let ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(all)
            .and_then(|ruleset| ruleset.scope(Scope::Signal | Scope::AbstractUnixSocket))
            .and_then(|ruleset| ruleset.create())
            .and_then(|ruleset| ruleset.add_rules(landlock::path_beneath_rules(&readable, read)))
            .and_then(|ruleset| ruleset.add_rules(landlock::path_beneath_rules(&listable, AccessFs::ReadDir)))
            .and_then(|ruleset| ruleset.add_rules(landlock::path_beneath_rules(READABLE_DEVICES, read)))
            .and_then(|ruleset| ruleset.add_rules(landlock::path_beneath_rules(&writable, all)))
            .and_then(|ruleset| ruleset.add_rules(landlock::path_beneath_rules(DEVICES, all)))
            .and_then(|ruleset| ruleset.add_rules(landlock::path_beneath_rules(&sockets, AccessFs::ResolveUnix)))
            .map_err(|err| prepare("Landlock ruleset", &err))?;
        let ruleset: Option<OwnedFd> = ruleset.into();
        let ruleset = ruleset.ok_or_else(|| SandboxError::Unsupported(support()))?;

        // Where Landlock can't tell Unix sockets apart by path, they are all
        // closed, or all open once the policy names any.
        let unix = support().confines_unix_sockets_by_path() || !policy.unix_sockets.is_empty();
        let seccomp = seccomp_program(policy.network, unix).map_err(|err| prepare("seccomp filter", &err))?;
        let max_processes = policy.max_processes.map(|limit| libc::rlimit { rlim_cur: limit, rlim_max: limit });
        let wanted = ReadOnly::new(&policy.read_only).map(Arc::new);
        let read_only = wanted.clone().filter(ReadOnly::works);
        let read_only_lost = wanted.is_some() && read_only.is_none();
        Ok(Prepared { ruleset, seccomp, max_processes, read_only, read_only_lost })
    }

    /// Runs in the child between `fork` and `exec`: system calls only.
    pub fn apply(&self) -> io::Result<()> {
        // SAFETY: each call gets valid pointers to memory `self` owns or to
        // the stack, or plain integers; none of them allocates.
        unsafe {
            // Mounting needs the capabilities dropped next.
            if let Some(read_only) = &self.read_only {
                read_only.apply()?;
            }
            drop_capabilities()?;
            if let Some(limit) = &self.max_processes {
                if libc::setrlimit(libc::RLIMIT_NPROC, limit) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, self.ruleset.as_raw_fd(), 0u32) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        seccompiler::apply_filter(&self.seccomp).map_err(|_| io::Error::last_os_error())
    }
}

impl Prepared {
    /// Landlock on the calling thread alone (`no_new_privs` first, which
    /// Landlock requires of a process without `CAP_SYS_ADMIN`; both are
    /// per thread).
    pub fn restrict_thread(&self) -> io::Result<()> {
        // SAFETY: prctl with integers; landlock_restrict_self with a
        // descriptor `self` owns.
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, self.ruleset.as_raw_fd(), 0u32) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// Leaves the command no capabilities, for good: root keeps its uid but
/// loses what makes it root (loading kernel modules, reading any file,
/// tracing any process), and `exec` can't give them back.
///
/// # Safety
/// System calls only, on stack memory.
unsafe fn drop_capabilities() -> io::Result<()> {
    const SECBIT_NOROOT: libc::c_ulong = 1 << 0;
    const SECBIT_NOROOT_LOCKED: libc::c_ulong = 1 << 1;
    const SECBIT_NO_SETUID_FIXUP: libc::c_ulong = 1 << 2;
    const SECBIT_NO_SETUID_FIXUP_LOCKED: libc::c_ulong = 1 << 3;
    const SECBIT_KEEP_CAPS_LOCKED: libc::c_ulong = 1 << 5;
    const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;
    const CAP_LAST: libc::c_ulong = 63;
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    // These need CAP_SETPCAP: a process without it has no bounding set or
    // root semantics worth removing, so their failure is no failure.
    let bits = SECBIT_NOROOT
        | SECBIT_NOROOT_LOCKED
        | SECBIT_NO_SETUID_FIXUP
        | SECBIT_NO_SETUID_FIXUP_LOCKED
        | SECBIT_KEEP_CAPS_LOCKED;
    libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0);
    for cap in 0..=CAP_LAST {
        libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
    }
    libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    let header = Header { version: LINUX_CAPABILITY_VERSION_3, pid: 0 };
    let none =
        [Data { effective: 0, permitted: 0, inheritable: 0 }, Data { effective: 0, permitted: 0, inheritable: 0 }];
    // Lowering one's own capabilities is always allowed.
    if libc::syscall(libc::SYS_capset, &header, none.as_ptr()) != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Adds `root` to `out`, or, when a `hidden` path lies beneath it, each of
/// its entries but the hidden ones (recursively), and `root` to `listable`:
/// a directory that holds a hidden one can still be listed (`ls ~` works;
/// the names in `~/.ssh` show, its files stay closed). Symbolic links among
/// the entries are skipped: a rule on one would open its target, which may
/// be a hidden file.
fn grant(root: &Path, hidden: &[PathBuf], out: &mut Vec<PathBuf>, listable: &mut Vec<PathBuf>) {
    let Ok(root) = root.canonicalize() else { return };
    if hidden.iter().any(|hidden| root.starts_with(hidden)) {
        return;
    }
    if !hidden.iter().any(|hidden| hidden.starts_with(&root)) {
        out.push(root);
        return;
    }
    let Ok(entries) = std::fs::read_dir(&root) else { return };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|kind| !kind.is_symlink()) {
            grant(&entry.path(), hidden, out, listable);
        }
    }
    listable.push(root);
}

/// Denies (`EPERM`) `setsid` and `setpgid`, so the process group holds the
/// whole tree; without `network`, sockets of any family but `AF_UNIX`, and
/// `io_uring`, whose operations seccomp cannot see; without `unix`,
/// `AF_UNIX` sockets (`socketpair` is another call, and stays).
fn seccomp_program(network: bool, unix: bool) -> Result<BpfProgram, seccompiler::BackendError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(libc::SYS_setsid, vec![]);
    rules.insert(libc::SYS_setpgid, vec![]);
    let family = |op| SeccompCondition::new(0, SeccompCmpArgLen::Dword, op, libc::AF_UNIX as u64);
    match (network, unix) {
        (true, true) => {}
        (true, false) => {
            rules.insert(libc::SYS_socket, vec![SeccompRule::new(vec![family(SeccompCmpOp::Eq)?])?]);
        }
        (false, true) => {
            rules.insert(libc::SYS_socket, vec![SeccompRule::new(vec![family(SeccompCmpOp::Ne)?])?]);
        }
        (false, false) => {
            rules.insert(libc::SYS_socket, vec![]);
        }
    }
    if !network {
        for call in [libc::SYS_io_uring_setup, libc::SYS_io_uring_enter, libc::SYS_io_uring_register] {
            rules.insert(call, vec![]);
        }
    }
    let arch = std::env::consts::ARCH.try_into()?;
    SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(libc::EPERM as u32), arch)?.try_into()
}
