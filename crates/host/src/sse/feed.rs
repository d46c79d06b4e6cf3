//! A run's encoded frames, kept while the run lives so that a client which
//! lost its connection resumes where it stopped.
//!
//! Ids and heartbeats belong to the run, not to a connection: every
//! [`Reader`] sees one numbering, and an EventSource that reconnects with
//! `Last-Event-ID: N` reads from frame N + 1 on, with no gap and no repeat.
//! The run notices when nobody has been reading for a while
//! ([`Feed::abandoned`]) and stops then, not at the first dropped connection.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use amplifier_store::StoredFrame;
use tokio::sync::watch;
use tokio::time::Instant;

use super::{encode, encode_heartbeat, Frame, FrameSink};

/// How much of a run's stream is kept for readers that reconnect. A run
/// that streams more drops its oldest frames; a reader that asks for them
/// is told they are gone ([`Gone`]).
const KEPT_BYTES: usize = 8 << 20;

struct State {
    /// Frames `first_id ..` (ids are consecutive), encoded.
    frames: VecDeque<String>,
    first_id: u64,
    bytes: usize,
    closed: bool,
    last_sent: Instant,
    /// When a reader last went away (for [`Feed::abandoned`]).
    last_left: Instant,
    /// Where every frame is copied as it is numbered; closed and dropped
    /// when the feed closes.
    mirror: Option<Box<dyn Mirror>>,
}

impl State {
    fn next_id(&self) -> u64 {
        self.first_id + self.frames.len() as u64
    }
}

/// Where a feed copies its frames (the store, see [`super::FrameWriter`]).
/// Called under the feed's lock: it must not block.
pub trait Mirror: Send {
    fn frame(&mut self, frame: StoredFrame);
    /// The feed closed: no frame follows.
    fn close(&mut self);
}

pub struct Feed {
    correlation_id: String,
    state: Mutex<State>,
    /// Bumped on every frame and on close. Its receivers are the readers,
    /// so it also counts them.
    changes: watch::Sender<()>,
}

/// The frames a reader asked for are no longer kept, or never existed.
#[derive(Debug, PartialEq)]
pub struct Gone;

impl Feed {
    pub fn new(correlation_id: String) -> Arc<Feed> {
        Feed::starting_at(correlation_id, 1)
    }

    /// A feed whose first frame is number `first_id` (a run taken over
    /// from another worker goes on after the frames that worker sent).
    pub fn starting_at(correlation_id: String, first_id: u64) -> Arc<Feed> {
        let now = Instant::now();
        let state = State {
            frames: VecDeque::new(),
            first_id,
            bytes: 0,
            closed: false,
            last_sent: now,
            last_left: now,
            mirror: None,
        };
        Arc::new(Feed { correlation_id, state: Mutex::new(state), changes: watch::Sender::new(()) })
    }

    fn push(&self, encode: impl FnOnce(u64) -> String) {
        let mut state = self.state.lock().expect("feed lock");
        if state.closed {
            return;
        }
        let id = state.next_id();
        let text = encode(id);
        // Copied under the lock: the copies go in id order.
        if let Some(mirror) = &mut state.mirror {
            mirror.frame(StoredFrame { id, text: text.clone() });
        }
        state.bytes += text.len();
        state.frames.push_back(text);
        while state.bytes > KEPT_BYTES && state.frames.len() > 1 {
            let dropped = state.frames.pop_front().expect("more than one frame");
            state.bytes -= dropped.len();
            state.first_id += 1;
        }
        state.last_sent = Instant::now();
        drop(state);
        self.changes.send_replace(());
    }

    /// Copies every frame sent from now on to `mirror`.
    pub fn mirror(&self, mirror: Box<dyn Mirror>) {
        self.state.lock().expect("feed lock").mirror = Some(mirror);
    }

    /// No frame follows: the copies end (readers here go on until
    /// [`Feed::close`]).
    pub fn end_copies(&self) {
        let mirror = self.state.lock().expect("feed lock").mirror.take();
        if let Some(mut mirror) = mirror {
            mirror.close();
        }
    }

    /// No frame follows here, but the run goes on elsewhere (handed to
    /// another worker): readers end once they have read what was sent, and
    /// the copies stop without an end.
    pub fn hand_over(&self) {
        let mut state = self.state.lock().expect("feed lock");
        state.closed = true;
        state.mirror = None;
        drop(state);
        self.changes.send_replace(());
    }

    /// No frame follows: readers end once they have read what was sent.
    pub fn close(&self) {
        let mut state = self.state.lock().expect("feed lock");
        state.closed = true;
        if let Some(mut mirror) = state.mirror.take() {
            mirror.close();
        }
        drop(state);
        self.changes.send_replace(());
    }

    /// A reader of the frames after id `after` (0: from the first).
    pub fn reader(self: &Arc<Self>, after: u64) -> Result<Reader, Gone> {
        let state = self.state.lock().expect("feed lock");
        if after + 1 < state.first_id || after >= state.next_id() {
            return Err(Gone);
        }
        Ok(Reader { feed: self.clone(), after, changes: self.changes.subscribe() })
    }

    /// Sends a `heartbeat` whenever nothing was sent for `every`, until the
    /// feed closes.
    pub async fn beat(&self, every: Duration) {
        loop {
            let due = {
                let state = self.state.lock().expect("feed lock");
                if state.closed {
                    return;
                }
                state.last_sent + every
            };
            tokio::time::sleep_until(due).await;
            let idle = self.state.lock().expect("feed lock").last_sent + every <= Instant::now();
            if idle {
                self.push(|id| encode_heartbeat(&self.correlation_id, id));
            }
        }
    }

    /// Resolves once no reader is left: after [`Feed::close`], once every
    /// client read the last frame (or went away).
    pub async fn read_out(&self) {
        self.changes.closed().await;
    }

    /// Resolves once nobody has read the feed for `grace`: the client left
    /// and did not come back.
    pub async fn abandoned(&self, grace: Duration) {
        loop {
            self.changes.closed().await;
            let deadline = self.state.lock().expect("feed lock").last_left + grace;
            tokio::time::sleep_until(deadline).await;
            let last_left = self.state.lock().expect("feed lock").last_left;
            if self.changes.receiver_count() == 0 && last_left + grace <= Instant::now() {
                return;
            }
        }
    }
}

impl FrameSink for Feed {
    fn send(&self, frame: Frame) {
        self.push(|id| encode(&frame, id));
    }
}

/// One client's place in a [`Feed`].
pub struct Reader {
    feed: Arc<Feed>,
    after: u64,
    changes: watch::Receiver<()>,
}

impl Reader {
    /// Every frame sent since the last call, as one piece of text; waits
    /// for one when there is none. `None` once the feed is closed and read,
    /// or when this reader fell so far behind that its frames were dropped.
    pub async fn next(&mut self) -> Option<String> {
        loop {
            // Marked seen before looking, so a frame pushed after the look wakes us.
            self.changes.borrow_and_update();
            {
                let state = self.feed.state.lock().expect("feed lock");
                if self.after + 1 < state.first_id {
                    return None;
                }
                let skip = (self.after + 1 - state.first_id) as usize;
                if skip < state.frames.len() {
                    let text: String = state.frames.range(skip..).map(String::as_str).collect();
                    self.after = state.next_id() - 1;
                    return Some(text);
                }
                if state.closed {
                    return None;
                }
            }
            // The sender lives in the feed, which this reader holds.
            let _ = self.changes.changed().await;
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.feed.state.lock().expect("feed lock").last_left = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn frame(event: &str) -> Frame {
        Frame { event: event.into(), body: json!({"type": event}) }
    }

    fn ids(text: &str) -> Vec<u64> {
        text.lines().filter_map(|l| l.strip_prefix("id: ")).map(|id| id.parse().unwrap()).collect()
    }

    #[tokio::test]
    async fn a_reader_that_comes_back_reads_on_from_the_next_id() {
        let feed = Feed::new("run_1".into());
        let mut first = feed.reader(0).unwrap();
        feed.send(frame("start"));
        feed.send(frame("phase"));
        assert_eq!(ids(&first.next().await.unwrap()), [1, 2]);
        drop(first);
        feed.send(frame("delta"));
        feed.send(frame("complete"));
        feed.close();
        let mut again = feed.reader(1).unwrap();
        let text = again.next().await.unwrap();
        assert_eq!(ids(&text), [2, 3, 4]);
        assert!(text.starts_with("event: phase\nid: 2\n"), "{text}");
        assert_eq!(again.next().await, None, "closed and read");
        assert_eq!(feed.reader(9).err(), Some(Gone), "an id the run never sent");
    }

    #[tokio::test]
    async fn a_reader_waits_for_the_next_frame() {
        let feed = Feed::new("run_1".into());
        let mut reader = feed.reader(0).unwrap();
        let sender = feed.clone();
        let waiting = tokio::spawn(async move { reader.next().await });
        tokio::task::yield_now().await;
        sender.send(frame("start"));
        assert_eq!(ids(&waiting.await.unwrap().unwrap()), [1]);
    }

    #[tokio::test]
    async fn a_closed_feed_is_read_out_once_its_last_reader_is_done() {
        let feed = Feed::new("run_1".into());
        let mut reader = feed.reader(0).unwrap();
        feed.send(frame("complete"));
        feed.close();
        let read_out = tokio::spawn({
            let feed = feed.clone();
            async move { feed.read_out().await }
        });
        tokio::task::yield_now().await;
        assert!(!read_out.is_finished(), "a reader has not read the last frame");
        assert_eq!(ids(&reader.next().await.unwrap()), [1]);
        assert_eq!(reader.next().await, None);
        drop(reader);
        read_out.await.unwrap();
    }

    #[tokio::test]
    async fn frames_beyond_the_kept_window_are_gone() {
        let feed = Feed::new("run_1".into());
        let big = Frame { event: "delta".into(), body: json!({"message": "x".repeat(KEPT_BYTES / 2)}) };
        for _ in 0..3 {
            feed.send(big.clone());
        }
        assert_eq!(feed.reader(0).err(), Some(Gone), "frame 1 was dropped");
        assert!(feed.reader(2).is_ok());
    }

    #[tokio::test(start_paused = true)]
    async fn idle_feeds_beat_and_unread_feeds_are_abandoned_after_the_grace() {
        let feed = Feed::new("run_1".into());
        let reader = feed.reader(0).unwrap();
        let beating = tokio::spawn({
            let feed = feed.clone();
            async move { feed.beat(Duration::from_secs(15)).await }
        });
        let left = tokio::spawn({
            let feed = feed.clone();
            async move { feed.abandoned(Duration::from_secs(10)).await }
        });
        tokio::time::sleep(Duration::from_secs(31)).await;
        assert!(!left.is_finished(), "someone is reading");
        drop(reader);
        tokio::time::sleep(Duration::from_secs(5)).await;
        let mut back = feed.reader(0).unwrap();
        let text = back.next().await.unwrap();
        assert_eq!(ids(&text), [1, 2]);
        assert!(text.contains("event: heartbeat"), "{text}");
        drop(back);
        tokio::time::sleep(Duration::from_secs(9)).await;
        assert!(!left.is_finished(), "the grace counts from the last reader's leaving");
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(left.is_finished());
        feed.close();
        beating.await.unwrap();
    }
}
