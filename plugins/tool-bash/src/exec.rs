//! Running commands: foreground runs with capped output and a timeout that
//! kills the whole process group, and background jobs killed with the module.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::{Child, Command};

/// How long a process group has between SIGTERM and SIGKILL after a timeout.
pub const TERM_GRACE: Duration = Duration::from_millis(1000);
/// How long to wait for the pipes to close once the group was killed (a
/// process that left the group with `setsid` may hold them open forever).
const DRAIN: Duration = Duration::from_millis(500);

/// How every command starts: where, with which environment, confined how.
#[derive(Debug)]
pub struct Launch {
    pub dir: PathBuf,
    /// `None` runs commands unconfined (`full-access`, or a kernel without
    /// Landlock and `allow_unsandboxed`).
    pub sandbox: Option<amplifier_sandbox::Sandbox>,
    /// Names passed on from amplifier's environment.
    pub inherit_env: Vec<String>,
    pub env: BTreeMap<String, String>,
}

impl Launch {
    /// `bash -c command` in `dir`, in a new process group, stdin from
    /// /dev/null, with only the allowed environment, confined.
    fn bash(&self, command: &str) -> Command {
        let mut bash = Command::new("bash");
        bash.arg("-c").arg(command).current_dir(&self.dir).stdin(Stdio::null()).process_group(0);
        let std = bash.as_std_mut();
        amplifier_sandbox::env::apply(std, self.inherit_env.iter().map(String::as_str), &self.env);
        if let Some(sandbox) = &self.sandbox {
            sandbox.confine(std);
        }
        bash
    }
}

/// Sends `signal` to every process of the group `pgid`.
fn signal_group(pgid: i32, signal: i32) -> bool {
    // SAFETY: killpg has no memory-safety preconditions.
    unsafe { libc::killpg(pgid, signal) == 0 }
}

/// Kills its process group with SIGKILL when dropped: after a normal exit
/// (leftovers a command started with `&`), on timeout, and when the call is
/// cancelled (the tool's future is dropped).
struct GroupGuard(i32);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        signal_group(self.0, libc::SIGKILL);
    }
}

/// Keeps the first and last characters of a stream, counting those cut.
///
/// Characters are UTF-8 code points, counted by their lead bytes, so memory
/// stays bounded however much a command prints.
#[derive(Debug)]
pub struct Capture {
    head: Vec<u8>,
    head_chars: usize,
    head_limit: usize,
    head_full: bool,
    tail: VecDeque<u8>,
    tail_chars: usize,
    tail_limit: usize,
    cut: usize,
}

fn is_char_start(byte: u8) -> bool {
    byte & 0xC0 != 0x80
}

impl Capture {
    /// At most `limit` characters: the first half and the last half.
    pub fn new(limit: usize) -> Capture {
        let head_limit = limit / 2;
        Capture {
            head: Vec::new(),
            head_chars: 0,
            head_limit,
            head_full: false,
            tail: VecDeque::new(),
            tail_chars: 0,
            tail_limit: limit - head_limit,
            cut: 0,
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if !self.head_full {
                if !is_char_start(byte) {
                    self.head.push(byte);
                    continue;
                }
                if self.head_chars < self.head_limit {
                    self.head_chars += 1;
                    self.head.push(byte);
                    continue;
                }
                self.head_full = true;
            }
            if is_char_start(byte) {
                if self.tail_chars == self.tail_limit {
                    if self.tail_limit == 0 {
                        self.cut += 1;
                        continue;
                    }
                    self.tail.pop_front();
                    while self.tail.front().is_some_and(|&b| !is_char_start(b)) {
                        self.tail.pop_front();
                    }
                    self.tail_chars -= 1;
                    self.cut += 1;
                }
                self.tail_chars += 1;
            } else if self.tail_limit == 0 {
                continue;
            }
            self.tail.push_back(byte);
        }
    }

    /// The text kept, with `…[cut N chars]…` where characters were dropped.
    pub fn finish(&mut self) -> String {
        let head = String::from_utf8_lossy(&self.head);
        let tail = String::from_utf8_lossy(self.tail.make_contiguous());
        if self.cut == 0 {
            format!("{head}{tail}")
        } else {
            format!("{head}\n…[cut {} chars]…\n{tail}", self.cut)
        }
    }
}

async fn pump(mut reader: impl AsyncRead + Unpin, capture: Arc<Mutex<Capture>>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match reader.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => capture.lock().unwrap_or_else(|e| e.into_inner()).push(&buf[..n]),
        }
    }
}

/// How a foreground command ended.
#[derive(Debug)]
pub enum Ending {
    /// Exit code, or 128 + the signal that ended the shell (bash's convention).
    Exited(i32),
    TimedOut,
}

#[derive(Debug)]
pub struct Finished {
    pub stdout: String,
    pub stderr: String,
    pub ending: Ending,
}

fn exit_code(status: ExitStatus) -> i32 {
    status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(-1)
}

/// Runs `command` to completion or until `timeout`; on timeout the process
/// group gets SIGTERM, then SIGKILL after [`TERM_GRACE`]. Whatever is left
/// in the group when the shell exits is killed too.
pub async fn run(launch: &Launch, command: &str, timeout: Duration, limit: usize) -> std::io::Result<Finished> {
    let mut child = launch.bash(command).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true).spawn()?;
    let pgid = child.id().ok_or_else(|| std::io::Error::other("bash exited before its pid was read"))? as i32;
    let guard = GroupGuard(pgid);
    let stdout = Arc::new(Mutex::new(Capture::new(limit)));
    let stderr = Arc::new(Mutex::new(Capture::new(limit)));
    let mut pumps = Vec::new();
    if let Some(out) = child.stdout.take() {
        pumps.push(tokio::spawn(pump(out, stdout.clone())));
    }
    if let Some(err) = child.stderr.take() {
        pumps.push(tokio::spawn(pump(err, stderr.clone())));
    }

    let ending = match tokio::time::timeout(timeout, child.wait()).await {
        Ok(status) => Ending::Exited(exit_code(status?)),
        Err(_elapsed) => {
            signal_group(pgid, libc::SIGTERM);
            let _ = tokio::time::timeout(TERM_GRACE, child.wait()).await;
            Ending::TimedOut
        }
    };
    drop(guard);
    if matches!(ending, Ending::TimedOut) {
        let _ = tokio::time::timeout(DRAIN, child.wait()).await;
    }
    let _ = tokio::time::timeout(DRAIN, async {
        for pump in &mut pumps {
            let _ = pump.await;
        }
    })
    .await;
    for pump in &pumps {
        pump.abort();
    }
    let text = |capture: &Arc<Mutex<Capture>>| capture.lock().unwrap_or_else(|e| e.into_inner()).finish();
    Ok(Finished { stdout: text(&stdout), stderr: text(&stderr), ending })
}

/// Commands started with `run_in_background`, by process group; all of
/// them are killed when this is dropped (when the module is unloaded at
/// the end of the session).
#[derive(Debug, Default)]
pub struct BackgroundJobs {
    groups: Arc<Mutex<HashSet<i32>>>,
}

impl BackgroundJobs {
    /// Starts `command` detached (own process group, no stdin, output
    /// discarded) and returns its pid, which is also its process group id.
    pub fn start(&self, launch: &Launch, command: &str) -> std::io::Result<u32> {
        let child = launch.bash(command).stdout(Stdio::null()).stderr(Stdio::null()).kill_on_drop(false).spawn()?;
        let pid = child.id().ok_or_else(|| std::io::Error::other("bash exited before its pid was read"))?;
        self.lock().insert(pid as i32);
        tokio::spawn(reap(child, pid as i32, self.groups.clone()));
        Ok(pid)
    }

    /// The process groups still tracked.
    #[cfg(test)]
    pub fn groups(&self) -> Vec<i32> {
        self.lock().iter().copied().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<i32>> {
        self.groups.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Kills every background process group (SIGKILL).
    pub fn kill_all(&self) {
        for pgid in self.lock().drain() {
            signal_group(pgid, libc::SIGKILL);
        }
    }
}

/// Waits for a background shell (so it never lingers as a zombie) and
/// forgets its group once the group is empty; a group whose shell exited
/// but whose children still run stays tracked, to be killed at the end.
async fn reap(mut child: Child, pgid: i32, groups: Arc<Mutex<HashSet<i32>>>) {
    let _ = child.wait().await;
    let empty = !signal_group(pgid, 0);
    if empty {
        groups.lock().unwrap_or_else(|e| e.into_inner()).remove(&pgid);
    }
}

impl Drop for BackgroundJobs {
    fn drop(&mut self) {
        self.kill_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn captured(limit: usize, chunks: &[&[u8]]) -> String {
        let mut capture = Capture::new(limit);
        for chunk in chunks {
            capture.push(chunk);
        }
        capture.finish()
    }

    #[test]
    fn capture_keeps_output_under_the_limit_whole() {
        assert_eq!(captured(10, &[b"hello", b" world"]), "hello\n…[cut 1 chars]…\nworld");
        assert_eq!(captured(11, &[b"hello", b" world"]), "hello world");
        assert_eq!(captured(30_000, &[b""]), "");
    }

    #[test]
    fn capture_cuts_the_middle_and_counts_characters() {
        let text = "a".repeat(100) + &"b".repeat(12_345) + &"c".repeat(100);
        let kept = captured(200, &[text.as_bytes()]);
        assert_eq!(kept, format!("{}\n…[cut 12345 chars]…\n{}", "a".repeat(100), "c".repeat(100)));
        // Multi-byte characters count once and are never split, whatever the chunking.
        let text = "é".repeat(10) + "€€€" + &"ü".repeat(10);
        let bytes = text.as_bytes();
        let chunks: Vec<&[u8]> = bytes.chunks(3).collect();
        assert_eq!(captured(20, &chunks), format!("{}\n…[cut 3 chars]…\n{}", "é".repeat(10), "ü".repeat(10)));
        assert_eq!(captured(1, &[b"xyz"]), "\n…[cut 2 chars]…\nz");
    }
}
