//! Running a command to its end: in a process group of its own, with its
//! output captured within a limit, and a timeout that kills the whole group
//! (what a shell started with `&` included), never just the command.

use std::collections::VecDeque;
use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

/// How long a process group has between SIGTERM and SIGKILL after a timeout.
pub const TERM_GRACE: Duration = Duration::from_millis(1000);
/// How long to wait for the pipes to close once the group was killed (a
/// process that left the group with `setsid` may hold them open forever).
const DRAIN: Duration = Duration::from_millis(500);

/// Sends `signal` to every process of the group `pgid`; whether any was there
/// to get it (signal 0 only asks).
pub fn signal_group(pgid: i32, signal: i32) -> bool {
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

/// Runs `command` to completion or until `timeout`, in a process group of
/// its own, with `stdin` (when given) written to it and its output captured
/// up to `limit` characters per stream. On timeout the group gets SIGTERM,
/// then SIGKILL after [`TERM_GRACE`]; whatever is left in the group when the
/// command exits is killed too, and so is the group when the future is
/// dropped (the call was cancelled).
pub async fn run(
    mut command: Command,
    stdin: Option<Vec<u8>>,
    timeout: Duration,
    limit: usize,
) -> std::io::Result<Finished> {
    command.process_group(0).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
    if stdin.is_some() {
        command.stdin(Stdio::piped());
    }
    let mut child = command.spawn()?;
    let pgid = child.id().ok_or_else(|| std::io::Error::other("the command exited before its pid was read"))? as i32;
    let guard = GroupGuard(pgid);
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        // A command that never reads its input must not block on a full pipe,
        // nor fail for closing it early: the write runs beside the wait.
        tokio::spawn(async move {
            let _ = pipe.write_all(&bytes).await;
        });
    }
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

    fn sh(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.arg("-c").arg(script);
        command
    }

    #[tokio::test]
    async fn stdin_reaches_the_command_and_one_that_ignores_it_still_ends() {
        let echoed = run(sh("cat; echo done >&2; exit 3"), Some(b"{\"a\":1}".to_vec()), Duration::from_secs(10), 100)
            .await
            .unwrap();
        assert_eq!((echoed.stdout.as_str(), echoed.stderr.as_str()), ("{\"a\":1}", "done\n"));
        assert!(matches!(echoed.ending, Ending::Exited(3)), "{:?}", echoed.ending);
        // More than a pipe holds, to a command that never reads it.
        let ignored = run(sh("exit 0"), Some(vec![b'x'; 1 << 20]), Duration::from_secs(10), 100).await.unwrap();
        assert!(matches!(ignored.ending, Ending::Exited(0)), "{:?}", ignored.ending);
    }

    #[tokio::test]
    async fn a_timeout_kills_the_whole_group() {
        let slow = run(sh("sleep 30 & echo $!; sleep 30"), None, Duration::from_millis(300), 100).await.unwrap();
        assert!(matches!(slow.ending, Ending::TimedOut), "{:?}", slow.ending);
        let background = slow.stdout.trim();
        // Gone, or a zombie nobody reaped yet: either way, not running.
        let state = std::fs::read_to_string(format!("/proc/{background}/stat")).unwrap_or_default();
        let running = state.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z'));
        assert!(!background.is_empty() && !running, "the background sleep {background} died with the group: {state}");
    }
}
