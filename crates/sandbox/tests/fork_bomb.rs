//! A fork bomb under `max_processes` stays small and dies with its group.
//! Its own test binary: as root it first becomes `nobody` for good (the
//! kernel does not apply RLIMIT_NPROC to root), which must not touch any
//! other test.

#![cfg(target_os = "linux")]

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use amplifier_sandbox::{Policy, Sandbox};

const NOBODY: libc::uid_t = 65534;
/// Processes the bomb may add to those the user already has.
const ROOM: u64 = 40;

/// Tasks (processes and threads) of the real user: what RLIMIT_NPROC counts.
fn tasks_of_user() -> u64 {
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let pids = std::fs::read_dir("/proc").unwrap().flatten();
    let mut count = 0;
    for pid in pids.filter(|entry| entry.file_name().to_string_lossy().parse::<i32>().is_ok()) {
        let tasks = std::fs::read_dir(pid.path().join("task")).into_iter().flatten().flatten();
        for task in tasks {
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            let real =
                status.lines().find_map(|line| line.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().next());
            count += u64::from(real == Some(&uid.to_string()));
        }
    }
    count
}

/// Processes of process group `pgid`.
fn members(pgid: i32) -> usize {
    let pids = std::fs::read_dir("/proc").unwrap().flatten();
    let pids = pids.filter_map(|entry| entry.file_name().to_string_lossy().parse::<i32>().ok());
    // SAFETY: getpgid has no memory-safety preconditions.
    pids.filter(|&pid| unsafe { libc::getpgid(pid) } == pgid).count()
}

#[test]
fn a_fork_bomb_is_held_at_max_processes() {
    // SAFETY: plain system calls; this binary's only test runs alone.
    unsafe {
        if libc::geteuid() == 0 {
            assert_eq!(libc::setgroups(0, std::ptr::null()), 0);
            assert_eq!(libc::setgid(NOBODY), 0);
            assert_eq!(libc::setuid(NOBODY), 0);
        }
    }
    let workspace = tempfile::tempdir().unwrap();
    let limit = tasks_of_user() + ROOM;
    let policy = Policy { writable: vec![workspace.path().into()], max_processes: Some(limit), ..Policy::default() };
    let sandbox = Sandbox::new(policy).expect("sandbox");
    let mut command = Command::new("bash");
    // Not the textbook spelling, which the command rules would refuse.
    command.arg("-c").arg("bomb() { bomb | bomb & }; bomb").current_dir(workspace.path()).process_group(0);
    command.stdout(Stdio::null()).stderr(Stdio::null());
    sandbox.confine(&mut command);
    let mut child = command.spawn().expect("bash starts");
    let pgid = child.id() as i32;

    let mut most = 0;
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        most = most.max(members(pgid));
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: killpg has no memory-safety preconditions.
    unsafe { libc::killpg(pgid, libc::SIGKILL) };
    let _ = child.wait();
    let deadline = Instant::now() + Duration::from_secs(5);
    while members(pgid) > 0 {
        assert!(Instant::now() < deadline, "the bomb outlived its process group's kill");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(most > 1, "the bomb never forked");
    assert!(most as u64 <= ROOM, "{most} processes, over the room of {ROOM} the limit left");
}
