//! Nothing a tool starts outlives amplifier, however amplifier ends
//! (SIGKILL included): each command runs under a guardian that kills the
//! command's whole process group when amplifier's end of a pipe closes.
//!
//! amplifier keeps the write end of one pipe (the lifeline) open for as
//! long as it lives and never hands it on (it is close-on-exec, and every
//! guardian closes its copy). Between `fork` and `exec`, [`guard`] forks
//! once more: the child goes on to run the command, and the parent becomes
//! its guardian, never `exec`s, and waits for one of two things:
//! - the command exits: the guardian exits the same way, so whoever waits
//!   for it (tokio) sees the command's status;
//! - the lifeline closes (amplifier is gone): the guardian kills the
//!   process group, itself included. The sandbox keeps commands from
//!   leaving the group (`setsid`, `setpgid`).
//!
//! The guardian forks before the sandbox is applied, so it stays outside
//! the command's Landlock domain, where the command cannot signal it.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// The pipe, made once per process; `None` if it could not be made (the
/// commands then run unguarded, as before).
static LIFELINE: OnceLock<Option<(OwnedFd, OwnedFd)>> = OnceLock::new();

/// The lifeline's read end (the write end stays open in this process).
fn lifeline() -> Option<RawFd> {
    let pair = LIFELINE.get_or_init(|| {
        let mut fds = [0; 2];
        // SAFETY: pipe2 writes two descriptors into `fds`.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return None;
        }
        // SAFETY: both descriptors were just made and are owned here.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // Above the standard streams, which the child's stdio setup
        // overwrites (a process started without stdin gets fd 0 here).
        Some((above_stdio(read)?, above_stdio(write)?))
    });
    pair.as_ref().map(|(read, _write)| read.as_raw_fd())
}

fn above_stdio(fd: OwnedFd) -> Option<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Some(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC returns a new descriptor or -1.
    let moved = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    // SAFETY: a new descriptor, owned from here on.
    (moved >= 0).then(|| unsafe { OwnedFd::from_raw_fd(moved) })
}

/// Makes `command` run under a guardian (see the module's documentation).
/// Call it before [`Sandbox::confine`](crate::Sandbox::confine) and after
/// `process_group(0)`: the guardian must lead the command's group and stay
/// outside its sandbox.
pub fn guard(command: &mut std::process::Command) {
    let Some(read) = lifeline() else { return };
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure makes only async-signal-safe system calls; the
    // guardian branch never returns into the standard library.
    unsafe {
        command.pre_exec(move || {
            let pid = libc::fork();
            match pid {
                -1 => Err(io::Error::last_os_error()),
                0 => Ok(()),
                command => guardian(command, read),
            }
        });
    }
}

/// The command a guardian watches, for [`forward`].
static COMMAND: AtomicI32 = AtomicI32::new(0);

/// Signals a guardian passes on to its command.
const FORWARDED: [libc::c_int; 6] =
    [libc::SIGINT, libc::SIGQUIT, libc::SIGHUP, libc::SIGTERM, libc::SIGUSR1, libc::SIGUSR2];

extern "C" fn forward(signal: libc::c_int) {
    // SAFETY: kill is async-signal-safe.
    unsafe {
        libc::kill(COMMAND.load(Ordering::Relaxed), signal);
    }
}

/// # Safety
/// Runs in a forked child of a process that may have had many threads:
/// system calls only, no allocation, and it never returns.
unsafe fn guardian(command: libc::pid_t, read: RawFd) -> ! {
    // Hold nothing open but the lifeline's read end: not the command's
    // pipes (their readers wait for every writer to close), not the pipe
    // the standard library reads `exec` errors from, not the lifeline's
    // write end (amplifier's death would go unseen).
    close_all_but(read);
    // The guardian's pid is the one callers know (it leads the group): a
    // signal sent to it is meant for the command, and it stays to report
    // how the command ended.
    COMMAND.store(command, Ordering::Relaxed);
    for signal in FORWARDED {
        libc::signal(signal, forward as *const () as libc::sighandler_t);
    }
    libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    let pidfd = libc::syscall(libc::SYS_pidfd_open, command, 0) as RawFd;
    if pidfd >= 0 {
        let mut fds = [
            libc::pollfd { fd: read, events: libc::POLLIN, revents: 0 },
            libc::pollfd { fd: pidfd, events: libc::POLLIN, revents: 0 },
        ];
        loop {
            if libc::poll(fds.as_mut_ptr(), 2, -1) < 0 {
                continue; // EINTR
            }
            if fds[1].revents != 0 {
                break;
            }
            if fds[0].revents != 0 {
                // amplifier is gone: the group goes, this process with it.
                libc::kill(0, libc::SIGKILL);
                libc::_exit(137);
            }
        }
    }
    // The command exited (or, before Linux 5.3, this just waits for it).
    let mut status = 0;
    while libc::waitpid(command, &mut status, 0) < 0 {
        if *libc::__errno_location() != libc::EINTR {
            libc::_exit(127);
        }
    }
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        libc::signal(signal, libc::SIG_DFL);
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal);
    }
    libc::_exit(libc::WEXITSTATUS(status))
}

/// # Safety
/// System calls only.
unsafe fn close_all_but(keep: RawFd) {
    let close_range =
        |first: libc::c_uint, last: libc::c_uint| libc::syscall(libc::SYS_close_range, first, last, 0) == 0;
    let keep = keep as libc::c_uint;
    let below = keep == 0 || close_range(0, keep - 1);
    let above = close_range(keep + 1, libc::c_uint::MAX);
    if below && above {
        return;
    }
    // Before Linux 5.9: each descriptor up to the limit.
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    let last = match libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) {
        0 => limit.rlim_cur.min(1 << 16) as libc::c_int,
        _ => 1024,
    };
    for fd in 0..last {
        if fd as libc::c_uint != keep {
            libc::close(fd);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::process::{Command, Stdio};

    use super::*;

    fn guarded(script: &str) -> Command {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new("sh");
        command.arg("-c").arg(script).process_group(0);
        guard(&mut command);
        command
    }

    #[test]
    fn the_guardian_reports_the_commands_status_and_output() {
        let output = guarded("echo out; echo err >&2; exit 7").output().unwrap();
        assert_eq!(output.status.code(), Some(7));
        assert_eq!((&output.stdout[..], &output.stderr[..]), (&b"out\n"[..], &b"err\n"[..]));
        let killed = guarded("kill -USR1 $$").status().unwrap();
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&killed), Some(libc::SIGUSR1));
        // A signal to the pid the caller knows reaches the command.
        let mut sleeping = guarded("trap 'exit 3' TERM; sleep 30 & wait").spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        // SAFETY: kill with a pid this test started.
        unsafe { libc::kill(sleeping.id() as i32, libc::SIGTERM) };
        assert_eq!(sleeping.wait().unwrap().code(), Some(3));
        // An exec error still reaches the caller, and nothing waits on it.
        let mut missing = Command::new("/nonexistent/program");
        missing.stdin(Stdio::null());
        guard(&mut missing);
        assert_eq!(missing.spawn().unwrap_err().kind(), io::ErrorKind::NotFound);
    }
}
