//! `amplifier-sandbox`: confines the commands a tool runs.
//!
//! A [`Policy`] says what a command may do; [`Sandbox::new`] turns it into
//! kernel objects once (a Landlock ruleset, a seccomp program), and
//! [`Sandbox::confine`] makes a `Command` apply them in the child, between
//! `fork` and `exec`, so the host process itself is never restricted and
//! nothing needs a helper executable.
//!
//! On Linux:
//! - **Files** (Landlock): reads only beneath the system directories, the
//!   directories on `PATH`, the working directory and the configured paths,
//!   or everywhere but the [secret paths](SECRET_PATHS) when asked; writes
//!   only beneath the writable paths. Landlock also keeps the command from
//!   signalling or tracing processes outside its sandbox (amplifier
//!   included), and from changing mounts.
//! - **Network** (seccomp): unless allowed, `socket` fails with `EPERM`
//!   for every address family but `AF_UNIX`, and `io_uring` is refused.
//! - **Unix sockets**: connecting to a pathname socket (a database's, a
//!   container daemon's) is refused but beneath the writable paths and
//!   [`Policy::unix_sockets`]: by Landlock on Linux 7.1 and later
//!   (`LANDLOCK_ACCESS_FS_RESOLVE_UNIX`); before that, where Landlock can't
//!   tell paths apart, `socket(AF_UNIX)` fails with `EPERM` unless the
//!   policy lists a path, when it is allowed everywhere. `socketpair`
//!   always works; abstract sockets made outside the sandbox never do.
//! - **Process tree** (seccomp): `setsid` and `setpgid` fail with `EPERM`,
//!   so nothing a command starts can leave the process group the tool
//!   kills at the end.
//! - **Processes** (`RLIMIT_NPROC`), when a limit is set.
//! - **Read-only paths** beneath writable ones ([`Policy::read_only`]):
//!   bind-mounted read-only in a mount namespace of the command's own
//!   (with a user namespace unless root), which Landlock can't express.
//!
//! Everything the child does between `fork` and `exec` is a raw system
//! call on memory prepared by the parent: the parent may have many threads,
//! so the child must not allocate.
//!
//! Elsewhere, and on kernels without Landlock, [`support`] says so and
//! [`Sandbox::new`] fails: callers decide whether to run unconfined.

#[cfg(target_os = "linux")]
mod linux;

pub mod env;
pub mod lifeline;
pub mod process;
pub mod workspace;

use std::path::PathBuf;

/// Paths never readable by a confined command, even with
/// [`Policy::read_everywhere`], as long as they exist; `~` is the home
/// directory.
pub const SECRET_PATHS: &[&str] = &[
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssh",
    "/etc/ssl/private",
    "~/.ssh",
    "~/.gnupg",
    "~/.aws",
    "~/.azure",
    "~/.config/gcloud",
    "~/.kube",
    "~/.docker",
    "~/.netrc",
    "~/.git-credentials",
    "~/.password-store",
    "~/.amplifier",
    "/run/secrets",
];

/// Directories every confined command may read and execute from (those
/// that exist): the programs, their libraries and configuration.
pub const SYSTEM_PATHS: &[&str] =
    &["/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix/store", "/proc", "/sys"];

/// Device files every confined command may read; the rest of `/dev` (disks
/// among it) stays closed even with [`Policy::read_everywhere`].
pub const READABLE_DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
    "/dev/shm",
];

/// What a confined command may do.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Directories (or files) the command may create, change and delete
    /// files beneath; nothing else is writable but the [`DEVICES`].
    pub writable: Vec<PathBuf>,
    /// Read access besides [`SYSTEM_PATHS`], the directories on `PATH` and
    /// `writable`.
    pub readable: Vec<PathBuf>,
    /// Read everything but [`SECRET_PATHS`] and [`Policy::hidden`].
    pub read_everywhere: bool,
    /// Never readable, like [`SECRET_PATHS`] (amplifier's own state
    /// directory, for one).
    pub hidden: Vec<PathBuf>,
    /// Sockets other than `AF_UNIX` may be opened.
    pub network: bool,
    /// Where Unix sockets the command may connect to lie (beyond the
    /// writable paths); see the crate's documentation for older kernels.
    pub unix_sockets: Vec<PathBuf>,
    /// Paths beneath the writable ones that stay read-only (what
    /// configures amplifier or git): bind-mounted read-only in a mount
    /// namespace of the command's own. Those that don't exist are skipped;
    /// see [`Sandbox::keeps_read_only`].
    pub read_only: Vec<PathBuf>,
    /// `RLIMIT_NPROC`: how many processes the user may have. The kernel
    /// counts all of the user's processes and threads, and does not apply
    /// it to root.
    pub max_processes: Option<u64>,
}

/// Device files every confined command may write.
pub const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts"];

/// What this kernel can enforce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Support {
    /// The Landlock ABI version, if Landlock is enabled.
    pub landlock: Option<u32>,
    /// seccomp filters are available.
    pub seccomp: bool,
}

/// The first Landlock ABI that confines connecting to pathname Unix
/// sockets (Linux 7.1).
pub const LANDLOCK_UNIX_SOCKETS: u32 = 9;

impl Support {
    /// Landlock tells Unix sockets apart by path.
    pub fn confines_unix_sockets_by_path(&self) -> bool {
        self.landlock.is_some_and(|abi| abi >= LANDLOCK_UNIX_SOCKETS)
    }

    /// Files can be confined: Landlock is there.
    pub fn is_enforceable(&self) -> bool {
        self.landlock.is_some() && self.seccomp
    }

    /// One line for a warning or an error: what is missing.
    pub fn describe(&self) -> String {
        match (self.landlock, self.seccomp) {
            (Some(abi), true) => format!("Landlock ABI {abi} and seccomp"),
            (None, _) if !cfg!(target_os = "linux") => "no sandbox on this operating system (Linux only)".to_string(),
            (None, true) => "this kernel has no Landlock (Linux 5.13 or later with `landlock` in its LSM list)".into(),
            (_, false) => "this kernel has no seccomp filters".into(),
        }
    }
}

/// What this kernel can enforce, probed once per call (two system calls).
pub fn support() -> Support {
    #[cfg(target_os = "linux")]
    {
        linux::support()
    }
    #[cfg(not(target_os = "linux"))]
    {
        Support { landlock: None, seccomp: false }
    }
}

/// Why a sandbox could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot confine commands: {}", .0.describe())]
    Unsupported(Support),
    #[error("cannot prepare the sandbox: {0}")]
    Prepare(String),
}

/// A policy made into kernel objects, ready to confine any number of
/// commands.
#[derive(Debug)]
pub struct Sandbox {
    #[cfg(target_os = "linux")]
    inner: std::sync::Arc<linux::Prepared>,
}

impl Sandbox {
    /// Prepares `policy`; fails if this kernel can't enforce it.
    pub fn new(policy: Policy) -> Result<Sandbox, SandboxError> {
        let support = support();
        if !support.is_enforceable() {
            return Err(SandboxError::Unsupported(support));
        }
        #[cfg(target_os = "linux")]
        {
            let inner = std::sync::Arc::new(linux::Prepared::new(&policy)?);
            Ok(Sandbox { inner })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = policy;
            Err(SandboxError::Unsupported(support))
        }
    }

    /// Whether the policy's read-only paths are kept read-only: false when
    /// this machine lets no unprivileged process make a mount namespace
    /// (user namespaces off, or limited by a security module).
    pub fn keeps_read_only(&self) -> bool {
        #[cfg(target_os = "linux")]
        {
            !self.inner.read_only_lost
        }
        #[cfg(not(target_os = "linux"))]
        false
    }

    /// Confines the calling thread to the policy's files (Landlock only:
    /// no seccomp, capabilities kept), for good: a thread of the host that
    /// does a tool's file operations, as a second line behind the tool's
    /// own checks. Other threads are not affected.
    pub fn confine_this_thread(&self) -> std::io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            self.inner.restrict_thread()
        }
        #[cfg(not(target_os = "linux"))]
        Err(std::io::Error::other("no sandbox on this operating system"))
    }

    /// Makes `command` confine its child before `exec`; if confining fails
    /// the spawn fails, so a command never runs unconfined by accident.
    pub fn confine(&self, command: &mut std::process::Command) {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            let inner = self.inner.clone();
            // SAFETY: `apply` makes only async-signal-safe system calls on
            // memory `Prepared` owns; it neither allocates nor takes locks.
            unsafe {
                command.pre_exec(move || inner.apply());
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = command;
    }
}

/// `~/rest` with the home directory (`None` without one), or the path as
/// it is.
pub fn expand_home(path: &str, home: Option<&std::path::Path>) -> Option<PathBuf> {
    match path.strip_prefix("~/") {
        Some(rest) => home.map(|home| home.join(rest)),
        None => Some(PathBuf::from(path)),
    }
}
