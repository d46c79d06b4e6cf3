//! Steering from the terminal: while a turn runs, each line typed goes to
//! the session's steering queue, which an orchestrator that takes steering
//! (`loop-streaming`, announced by the `session.steer` capability) reads at
//! its next iteration. What no orchestrator took is the next prompt (the
//! REPL's loop sends it).
//!
//! The line editor is idle during a turn and the terminal is back in its
//! cooked mode, so a line arrives whole when Enter is pressed. The reader
//! polls with a short timeout instead of blocking in `read`, so it has
//! stopped before the line editor takes the terminal again: a blocked read
//! would steal the next prompt. While the reader runs it is the terminal's
//! only reader: an approval question asked during the turn gets its answer
//! from it ([`next_line`]), since two readers would race for the line.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use amplifier_kernel::Coordinator;

/// How long the reader waits for input before it looks at its stop flag.
const POLL_MS: i32 = 50;

/// Whether a reader owns the terminal now.
static READING: AtomicBool = AtomicBool::new(false);
/// Where the next line goes instead of the steering queue: a question's answer.
static ANSWER: Mutex<Option<tokio::sync::oneshot::Sender<String>>> = Mutex::new(None);

/// The next line typed, when a reader owns the terminal (`None`: read it
/// yourself). For a question asked during a turn.
pub fn next_line() -> Option<tokio::sync::oneshot::Receiver<String>> {
    if !READING.load(Ordering::SeqCst) {
        return None;
    }
    let (sender, receiver) = tokio::sync::oneshot::channel();
    *ANSWER.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(sender);
    Some(receiver)
}

pub struct SteeringReader {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl SteeringReader {
    /// A reader for this turn, when standard input is a terminal.
    pub fn start(coordinator: &Arc<Coordinator>) -> Option<SteeringReader> {
        if !std::io::stdin().is_terminal() {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, coordinator) = (stop.clone(), coordinator.clone());
        READING.store(true, Ordering::SeqCst);
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                let Some(line) = read_line() else { continue };
                let question = ANSWER.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
                // A question that timed out meanwhile no longer listens.
                let unanswered = match question {
                    Some(answer) => answer.send(line).err(),
                    None => Some(line),
                };
                if let Some(line) = unanswered {
                    queue(&coordinator, line);
                }
            }
        });
        Some(SteeringReader { stop, thread })
    }

    /// Stops the reader (within one poll) and waits for it.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        READING.store(false, Ordering::SeqCst);
        ANSWER.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
    }
}

fn queue(coordinator: &Coordinator, text: String) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    // Asked now, not at the turn's start: an orchestrator may announce
    // steering when its first prompt begins.
    let taken = coordinator.get_capability(amplifier_kernel::capabilities::STEER).is_some();
    match coordinator.steer(text.to_owned()) {
        Ok(_) if taken => eprintln!("(queued: the model reads this at its next step)"),
        Ok(_) => eprintln!("(queued: sent as the next prompt when this turn ends)"),
        Err(err) => eprintln!("(not queued: {})", err.message),
    }
}

/// One typed line if one arrives within the poll timeout.
fn read_line() -> Option<String> {
    let mut poll = libc::pollfd { fd: libc::STDIN_FILENO, events: libc::POLLIN, revents: 0 };
    // SAFETY: one valid pollfd for the duration of the call.
    let ready = unsafe { libc::poll(&mut poll, 1, POLL_MS) };
    if ready <= 0 || poll.revents & libc::POLLIN == 0 {
        return None;
    }
    let mut buffer = [0u8; 4096];
    // SAFETY: reads at most buffer.len() bytes into the buffer; in cooked
    // mode one read returns at most one line.
    let n = unsafe { libc::read(libc::STDIN_FILENO, buffer.as_mut_ptr().cast(), buffer.len()) };
    (n > 0).then(|| String::from_utf8_lossy(&buffer[..n as usize]).into_owned())
}
