//! A served run's frames in the session store, for clients of other
//! workers (see `amplifier_store`'s `frames`): the worker that runs a run
//! copies its [`Feed`]'s frames into the store ([`FrameWriter`]); a worker
//! that does not run it reads them back ([`StoredReader`]), numbered as
//! they were sent, so a client that moves between workers reads on with no
//! gap and no repeat.

use std::collections::HashMap;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use amplifier_store::{Store, StoreError, StoredFrame, StreamAppend, StreamInfo, StreamOpen, StreamSession};
use tokio::sync::{oneshot, watch};

use super::feed::Mirror;
use super::Feed;
use crate::{RecordingError, StoreConfig};

/// How often a reader without wake-ups (SQLite) looks for new frames.
const POLL: Duration = Duration::from_millis(100);
/// How often a reader with wake-ups looks anyway, in case one was missed.
const POLL_WOKEN: Duration = Duration::from_secs(2);
/// Frames read at once.
const BATCH: usize = 1000;
/// How long the writer gathers changes before it writes them: what a
/// reader on another worker waits, at most, beyond the write itself.
const GATHER: Duration = Duration::from_millis(50);
/// Changes written in one transaction, at most.
const WRITES: usize = 4096;
/// Tries of a batch that failed before the writer drops it.
const WRITE_TRIES: u32 = 3;
/// How often the writer drops streams that ended long ago.
const PRUNE_EVERY: Duration = Duration::from_secs(60);

enum Job {
    Open(StreamOpen),
    Session(StreamSession),
    Append(StreamAppend),
    /// Answered once everything queued before it was written.
    Flush(oneshot::Sender<()>),
}

/// Copies served runs' frames into the store: one thread per process, with
/// a connection of its own, that writes whatever all the runs sent since
/// its last transaction in the next, so a busy worker writes a few
/// transactions a second, not one per frame or per run.
#[derive(Clone)]
pub struct FrameWriter {
    jobs: mpsc::Sender<Job>,
}

impl FrameWriter {
    /// Opens the store and starts the writer's thread. Blocks.
    pub fn start(config: &StoreConfig) -> Result<FrameWriter, RecordingError> {
        let store = config.open()?;
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("amplifier-frames".into())
            .spawn(move || write_loop(&store, &queue))
            .map_err(|err| StoreError::Io(format!("cannot start the frame writer: {err}")))?;
        Ok(FrameWriter { jobs })
    }

    /// Starts the thread's stream for the run `correlation_id` names, which
    /// a request with `body` started (`prompt`: the run's prompt, for a
    /// worker that takes it over), and copies into it every frame `feed`
    /// sends from now on; the stream ends when the feed closes. Returns the
    /// stream's run id once the stream is stored (written at once, not
    /// gathered: a client may reconnect to another worker right away).
    pub async fn copy(&self, feed: &Feed, thread: &str, correlation_id: &str, body: &[u8], prompt: &str) -> String {
        // A client may give two runs one correlation id: the stream's is the run's own.
        let run = format!("{correlation_id}#{}", &super::correlation_id()[4..]);
        let open = StreamOpen {
            thread: thread.to_owned(),
            run: run.clone(),
            request: amplifier_store::request_digest(body),
            prompt: prompt.to_owned(),
        };
        let _ = self.jobs.send(Job::Open(open));
        self.resume(feed, thread, &run);
        self.flush().await;
        run
    }

    /// Copies every frame `feed` sends from now on into the thread's
    /// existing stream of `run` (a run taken over).
    pub fn resume(&self, feed: &Feed, thread: &str, run: &str) {
        feed.mirror(Box::new(Copier { jobs: self.jobs.clone(), thread: thread.to_owned(), run: run.to_owned() }));
    }

    /// Notes the session that runs the thread's stream of `run`, for a
    /// worker that takes the run over.
    pub fn session(&self, thread: &str, run: &str, session_id: &str) {
        let session =
            StreamSession { thread: thread.to_owned(), run: run.to_owned(), session_id: session_id.to_owned() };
        let _ = self.jobs.send(Job::Session(session));
    }

    /// Resolves once everything queued before it was written (or given up).
    pub async fn flush(&self) {
        let (done, written) = oneshot::channel();
        if self.jobs.send(Job::Flush(done)).is_ok() {
            let _ = written.await;
        }
    }
}

/// A feed's copies, queued for the writer.
struct Copier {
    jobs: mpsc::Sender<Job>,
    thread: String,
    run: String,
}

impl Copier {
    fn append(&self, frames: Vec<StoredFrame>, close: bool) {
        let append = StreamAppend { thread: self.thread.clone(), run: self.run.clone(), frames, close };
        let _ = self.jobs.send(Job::Append(append));
    }
}

impl Mirror for Copier {
    fn frame(&mut self, frame: StoredFrame) {
        self.append(vec![frame], false);
    }

    fn close(&mut self) {
        self.append(Vec::new(), true);
    }
}

fn write_loop(store: &Store, queue: &mpsc::Receiver<Job>) {
    let mut pruned: Option<std::time::Instant> = None;
    while let Ok(first) = queue.recv() {
        let mut batch = Batch::default();
        batch.take(first);
        // What comes within the window joins this transaction: without it,
        // a writer quicker than its runs writes a transaction per frame. A
        // new stream, a stream's session (all a worker that takes the run
        // over goes on from, should this one die within the window) or
        // someone waiting goes at once, with what is queued.
        let until = std::time::Instant::now() + GATHER;
        while batch.size < WRITES {
            let job = if batch.opens.is_empty() && batch.sessions.is_empty() && batch.flushed.is_empty() {
                let Some(left) = until.checked_duration_since(std::time::Instant::now()) else { break };
                queue.recv_timeout(left).ok()
            } else {
                queue.try_recv().ok()
            };
            let Some(job) = job else { break };
            batch.take(job);
        }
        let mut tries = 0;
        while !(batch.opens.is_empty() && batch.sessions.is_empty() && batch.appends.is_empty()) {
            tries += 1;
            match store.write_streams(&batch.opens, &batch.sessions, &batch.appends) {
                Ok(()) => break,
                Err(err) if tries < WRITE_TRIES => {
                    tracing::warn!(error = %err, "cannot write run frames; trying again");
                    std::thread::sleep(Duration::from_millis(200 * u64::from(tries)));
                }
                Err(err) => {
                    tracing::warn!(error = %err, dropped = batch.size, "cannot write run frames; readers on other workers miss them");
                    break;
                }
            }
        }
        for flushed in batch.flushed {
            let _ = flushed.send(());
        }
        if pruned.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
            if let Err(err) = store.prune_streams() {
                tracing::warn!(error = %err, "cannot drop old run frames");
            }
            pruned = Some(std::time::Instant::now());
        }
    }
}

/// The writes of one transaction: the streams opened, then each stream's
/// appends merged into one.
#[derive(Default)]
struct Batch {
    opens: Vec<StreamOpen>,
    sessions: Vec<StreamSession>,
    appends: Vec<StreamAppend>,
    /// Where each (thread, run)'s appends are.
    index: HashMap<(String, String), usize>,
    /// Jobs taken.
    size: usize,
    flushed: Vec<oneshot::Sender<()>>,
}

impl Batch {
    fn take(&mut self, job: Job) {
        self.size += 1;
        match job {
            Job::Flush(done) => self.flushed.push(done),
            Job::Session(session) => self.sessions.push(session),
            Job::Append(append) => {
                let key = (append.thread, append.run);
                match self.index.get(&key) {
                    Some(&at) => {
                        let merged = &mut self.appends[at];
                        merged.frames.extend(append.frames);
                        merged.close |= append.close;
                    }
                    None => {
                        self.index.insert(key.clone(), self.appends.len());
                        let (thread, run) = key;
                        self.appends.push(StreamAppend { thread, run, frames: append.frames, close: append.close });
                    }
                }
            }
            Job::Open(open) => {
                // Opens are made first: what this batch holds for the
                // thread's earlier stream would land in the new one, or be
                // dropped with it.
                self.opens.retain(|earlier| earlier.thread != open.thread);
                self.sessions.retain(|earlier| earlier.thread != open.thread);
                if self.appends.iter().any(|append| append.thread == open.thread) {
                    self.appends.retain(|append| append.thread != open.thread);
                    self.index = self
                        .appends
                        .iter()
                        .enumerate()
                        .map(|(at, append)| ((append.thread.clone(), append.run.clone()), at))
                        .collect();
                }
                self.opens.push(open);
            }
        }
    }
}

/// Reads a thread's stream from the store, for a client of a worker that
/// does not run it.
pub struct StoredReader {
    /// Lent to each blocking read.
    store: Option<Store>,
    thread: Arc<str>,
    run: Arc<str>,
    after: u64,
    wake: Option<watch::Receiver<()>>,
}

impl StoredReader {
    /// A reader of `stream`'s frames after id `after`. Blocks.
    pub fn open(config: &StoreConfig, stream: &StreamInfo, after: u64) -> Result<StoredReader, RecordingError> {
        Ok(StoredReader {
            store: Some(config.open()?),
            thread: stream.thread.as_str().into(),
            run: stream.run.as_str().into(),
            after,
            wake: config.location().frame_wakeups(&stream.thread),
        })
    }

    /// Every frame appended since the last call, as one piece of text;
    /// waits for one when there is none. `None` once the stream ended and
    /// was read, when the thread streams another run, or when the store
    /// cannot be read (the client reconnects). A run whose worker died goes
    /// on once another worker took it over.
    pub async fn next(&mut self) -> Option<String> {
        loop {
            let (store, thread, run, after) = (self.store.take()?, self.thread.clone(), self.run.clone(), self.after);
            // The stream before its frames: a stream read as ended has all its frames stored.
            let read = tokio::task::spawn_blocking(move || {
                let read =
                    store.stream(&thread).and_then(|s| Ok((s, store.frames_after(&thread, &run, after, BATCH)?)));
                (store, read)
            })
            .await;
            let (stream, frames) = match read {
                Ok((store, Ok(read))) => {
                    self.store = Some(store);
                    read
                }
                Ok((_, Err(err))) => {
                    tracing::warn!(thread = %self.thread, error = %err, "cannot read the run's frames");
                    return None;
                }
                Err(err) => {
                    tracing::warn!(thread = %self.thread, error = %err, "cannot read the run's frames");
                    return None;
                }
            };
            if let Some(last) = frames.last() {
                self.after = last.id;
                return Some(frames.into_iter().map(|frame| frame.text).collect());
            }
            stream.filter(|stream| *stream.run == *self.run && !stream.closed)?;
            match &mut self.wake {
                Some(wake) => {
                    let _ = tokio::time::timeout(POLL_WOKEN, wake.changed()).await;
                }
                None => tokio::time::sleep(POLL).await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(thread: &str, run: &str) -> Job {
        Job::Open(StreamOpen { thread: thread.into(), run: run.into(), request: "digest".into(), prompt: "{}".into() })
    }

    fn append(thread: &str, run: &str, id: u64, close: bool) -> Job {
        let frames = vec![StoredFrame { id, text: format!("id: {id}\n\n") }];
        Job::Append(StreamAppend { thread: thread.into(), run: run.into(), frames, close })
    }

    #[test]
    fn a_batch_merges_each_streams_appends_and_a_later_open_drops_the_earlier_stream() {
        let mut batch = Batch::default();
        for job in [
            open("x", "r1"),
            append("x", "r1", 1, false),
            append("y", "q", 7, false),
            append("x", "r1", 2, true),
            append("y", "q", 8, false),
        ] {
            batch.take(job);
        }
        let summary = |batch: &Batch| -> Vec<(String, Vec<u64>, bool)> {
            let ids = |a: &StreamAppend| a.frames.iter().map(|f| f.id).collect();
            batch.appends.iter().map(|a| (format!("{}/{}", a.thread, a.run), ids(a), a.close)).collect()
        };
        assert_eq!(
            summary(&batch),
            [("x/r1".to_owned(), vec![1, 2], true), ("y/q".to_owned(), vec![7, 8], false)],
            "one append per stream, frames in order"
        );
        // The thread's next run within the same batch: r1 is replaced whole.
        batch.take(open("x", "r2"));
        batch.take(append("x", "r2", 1, false));
        assert_eq!(batch.opens.iter().map(|o| o.run.as_str()).collect::<Vec<_>>(), ["r2"]);
        assert_eq!(summary(&batch), [("y/q".to_owned(), vec![7, 8], false), ("x/r2".to_owned(), vec![1], false)]);
        assert_eq!(batch.size, 7);
    }
}
