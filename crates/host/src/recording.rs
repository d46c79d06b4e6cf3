//! Recording a session in the store while it runs.
//!
//! Only the host writes the store. A hook handler on `*`, registered after
//! every plugin hook (so it stores what hooks-redaction left) but before the
//! jsonl printer, collects the events of the turn and the usage of each
//! `provider:response`. What it collected is written with the context's new
//! messages (read through `Coordinator::sync_messages`, which answers what
//! was added since the last read, and appended to what is stored; only a
//! rewritten history is compared and written from its first difference),
//! in one transaction:
//!
//! - at the end of the turn, after `Session::execute` returned or failed
//!   (messages read before cleanup, written after it, with `session:end`);
//! - mid-turn, at most [`BOUND`] after the first event not yet written
//!   (sooner when the session goes quiet for [`QUIET`]: a provider call or
//!   a tool that takes a while; or once [`BATCH`] events wait). A `kill -9`
//!   then loses at most the last [`BOUND`] of work, and the history keeps
//!   the tool call that was running, which resume repairs. Each write is
//!   of what changed since the last, made by a task beside the session's
//!   (see [`Recorder::save`]), which folds a long WAL in after it
//!   ([`Store::tidy`]).
//!
//! The session's lock is held from before the session row exists until the
//! process exits.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use amplifier_kernel::events;
use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{HookResult, Message, RunStatus, Usage};
use amplifier_kernel::session::SessionObserver;
use amplifier_kernel::traits::{BoxFuture, ContextSyncMessages, HookHandler, ModuleResult, ViewCursor};
use amplifier_kernel::{Coordinator, ModuleError};
use amplifier_store::{
    Location, NewEvent, NewMessage, NewSession, Retention, SessionLock, SessionRecord, Store, StoreError, TurnWrite,
};

use crate::{Notice, Notices};

/// Overrides where the store lives (default: `$AMPLIFIER_HOME`).
pub const STATE_DIR_ENV: &str = "AMPLIFIER_STATE_DIR";

/// The crash-safety bound: what happened mid-turn is written at most this
/// long after it happened (the store's one transaction per write included
/// only as far as SQLite is fast; a busy disk adds to it).
pub const BOUND: Duration = Duration::from_millis(100);
/// A session quiet this long is saved before the bound is up.
const QUIET: Duration = Duration::from_millis(20);
/// A busy session is saved as soon as this many events wait, so what the
/// end of a turn has left to write stays small (saves run beside the agent
/// loop; the final one holds up the turn's end). 256 events are about
/// 1 ms of SQLite.
const BATCH: usize = 256;
/// After plugin hooks (redaction 10, logging 100), before the jsonl printer (`i32::MAX`).
const RECORDER_PRIORITY: i32 = i32::MAX - 1;

/// The directory holding `sessions.db` and `locks/`.
pub fn state_dir() -> PathBuf {
    match std::env::var_os(STATE_DIR_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => amplifier_loader::amplifier_home(),
    }
}

/// A session could not be recorded, or its stored history not restored.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    /// The store did not open; `location` is its database (never with a password).
    #[error("{source} ({location})")]
    Open { location: String, source: StoreError },
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The context refused the restored history.
    #[error(transparent)]
    Restore(#[from] ModuleError),
}

/// Where the session store is and what it keeps.
#[derive(Debug, Clone)]
pub struct StoreConfig {
    /// This machine's state directory: the SQLite store's, unless
    /// `location` names another store, and spilled tool results'.
    pub dir: PathBuf,
    /// The store (`None`: SQLite in `dir`).
    pub location: Option<Location>,
    pub retention: Retention,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig { dir: state_dir(), location: None, retention: Retention::default() }
    }
}

impl StoreConfig {
    /// The store's location.
    pub fn location(&self) -> Location {
        self.location.clone().unwrap_or_else(|| Location::Sqlite(self.dir.clone()))
    }

    /// Opens the store with this retention.
    pub fn open(&self) -> Result<Store, RecordingError> {
        let location = self.location();
        let mut store = Store::connect(&location, &self.dir)
            .map_err(|source| RecordingError::Open { location: location.to_string(), source })?;
        store.set_retention(self.retention);
        Ok(store)
    }
}

/// The current directory, as sessions record it.
pub fn working_dir() -> String {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    cwd.canonicalize().unwrap_or(cwd).display().to_string()
}

/// The SHA-256 of a plan file, in hex.
pub fn plan_hash(path: &Path) -> std::io::Result<String> {
    Ok(amplifier_loader::lockfile::sha256_hex(&std::fs::read(path)?))
}

/// A session being recorded: its recorder, and (on resume) the history to
/// restore. The recorder holds the session's lock.
pub(crate) struct Recording {
    recorder: Arc<Recorder>,
    restore: Option<Vec<Message>>,
}

impl Recording {
    /// Records a new session (`agent`: a sub-agent's name). The store opens
    /// on a thread of its own, beside the mounting of the modules: opening
    /// it, taking the lock and writing the session's row took a millisecond
    /// of every `amplifier run`'s start. Events wait for it in the recorder;
    /// [`Recording::opened`] says whether it opened.
    pub(crate) fn create(
        config: &StoreConfig,
        coordinator: &Arc<Coordinator>,
        plan: &Path,
        name: Option<&str>,
        agent: Option<&str>,
        notices: &Notices,
    ) -> Recording {
        let config = config.clone();
        let (id, parent_id) = (coordinator.session_id().to_owned(), coordinator.parent_id().map(str::to_owned));
        let (name, agent) = (name.map(str::to_owned), agent.map(str::to_owned));
        let plan = plan.to_owned();
        let opening = std::thread::Builder::new().name("amplifier-store-open".to_owned()).spawn(move || {
            let mut store = config.open()?;
            let lock = store.lock_session(&id)?;
            let plan_path = plan.canonicalize().unwrap_or(plan);
            let new = NewSession {
                plan_hash: plan_hash(&plan_path).ok(),
                plan_path: Some(plan_path.display().to_string()),
                working_dir: working_dir(),
                id,
                parent_id,
                agent,
                name,
            };
            store.create_session(&new)?;
            let turn = store.begin_turn(&new.id)?;
            // Off the turn's path too; a statement that cannot be prepared
            // fails the write that runs it, which says why.
            let _ = store.prepare_writes();
            Ok(Opened { store, turn, _lock: lock })
        });
        let slot = match opening {
            Ok(thread) => Slot::Opening(thread),
            Err(err) => {
                let id = coordinator.session_id();
                notices(Notice::Warning(format!("session {id} will not be saved: cannot start a thread: {err}")));
                Slot::Failed
            }
        };
        let recorder = Recorder::attach(coordinator, slot, Vec::new(), notices.clone());
        Recording { recorder, restore: None }
    }

    /// Waits for the store to open: `false` (the user told why) when it did
    /// not, and the session is not recorded.
    pub(crate) fn opened(&self) -> bool {
        self.recorder.with_store(|_| ()).is_some()
    }

    /// Records the next turn of a stored session: the caller holds its
    /// lock; the stored history is restored after the modules mount.
    pub(crate) fn resume(
        coordinator: &Arc<Coordinator>,
        mut store: Store,
        record: &SessionRecord,
        lock: SessionLock,
        notices: Notices,
    ) -> Result<Recording, RecordingError> {
        let stored = store.messages(&record.id)?;
        let turn = store.begin_turn(&record.id)?;
        let history: Vec<Message> = stored.iter().map(|m| m.message.clone()).collect();
        let stored = stored.into_iter().map(|m| (m.turn, Arc::new(m.message))).collect();
        let recorder = Recorder::attach(coordinator, Slot::Open(Opened { store, turn, _lock: lock }), stored, notices);
        Ok(Recording { recorder, restore: Some(history) })
    }

    /// On resume: repairs the stored history (a tool call without a result
    /// gets a synthetic cancelled one) and gives it to the context. Call
    /// after the modules mounted and before the prompt runs.
    pub(crate) async fn restore(&self, coordinator: &Coordinator) -> Result<(), RecordingError> {
        let Some(mut history) = self.restore.clone() else { return Ok(()) };
        let repaired = amplifier_store::repair_orphan_tool_calls(&mut history);
        if !repaired.is_empty() {
            let calls: Vec<String> = repaired.iter().map(|r| format!("{} ({})", r.tool_name, r.tool_call_id)).collect();
            (self.recorder.notices)(Notice::Note(format!(
                "{} tool call(s) left without a result by an interrupted run got a cancelled result: {}",
                repaired.len(),
                calls.join(", ")
            )));
        }
        Ok(coordinator.set_messages(history).await?)
    }

    /// Reads the context's history for the next write; call after the turn
    /// and before cleanup (which may shut the context down).
    pub(crate) async fn capture(&self, coordinator: &Coordinator) {
        let recorder = &self.recorder;
        recorder.stop_saver().await;
        match recorder.read_history(coordinator).await {
            Ok(()) => recorder.state().captured = true,
            Err(err) => tracing::debug!(error = %err, "no history to record"),
        }
    }

    /// Writes the turn: the captured messages, every event left, the usage
    /// and the final status, in one transaction.
    pub(crate) fn finish(self, status: RunStatus, succeeded: bool) {
        let status = match status {
            RunStatus::Running if succeeded => RunStatus::Completed,
            RunStatus::Running => RunStatus::Failed,
            other => other,
        };
        let recorder = &self.recorder;
        if let Some(handle) = recorder.saver.lock().unwrap_or_else(PoisonError::into_inner).take() {
            handle.abort();
        }
        let captured = std::mem::take(&mut recorder.state().captured);
        recorder.save(captured, Some(status));
    }

    /// Writes a finished turn of a session that goes on, leaving it
    /// `running`. Call after [`Recording::capture`].
    pub(crate) fn save_turn(&self) {
        let recorder = &self.recorder;
        let captured = std::mem::take(&mut recorder.state().captured);
        recorder.save(captured, None);
        // The quiet-period saver starts again with the next turn's first event.
        recorder.saver_started.store(false, Ordering::SeqCst);
    }

    /// Starts the next turn of a session that goes on (the first turn
    /// starts with the recording).
    pub(crate) fn begin_turn(&self) {
        let recorder = &self.recorder;
        match recorder.with_store(|store| store.begin_turn(&recorder.session_id)) {
            Some(Ok(turn)) => recorder.state().turn = turn,
            Some(Err(err)) => {
                recorder.notify_user(format!("cannot start turn in session {}: {err}", recorder.session_id))
            }
            None => {}
        }
    }
}

/// Records every sub-agent session (tool-task's, a router's agents) as a
/// session of its own, with its parent and agent: `amplifier session show
/// PARENT` lists them. Each is written as it goes and finished when it
/// ends (at its parent's cleanup).
pub(crate) fn sub_agents(config: &StoreConfig, plan: &Path, notices: Notices) -> Arc<dyn SessionObserver> {
    Arc::new(SubAgents { config: config.clone(), plan: plan.to_owned(), notices })
}

struct SubAgents {
    config: StoreConfig,
    plan: PathBuf,
    notices: Notices,
}

impl SessionObserver for SubAgents {
    fn session_created(&self, coordinator: &Arc<Coordinator>) {
        if coordinator.parent_id().is_none() {
            return;
        }
        let agent = amplifier_kernel::spawn::agent_of_child(coordinator.session_id());
        let recording =
            Recording::create(&self.config, coordinator, &self.plan, None, agent.or(Some("agent")), &self.notices);
        let end = SubAgentEnd { recording: Mutex::new(Some(recording)), coordinator: Arc::downgrade(coordinator) };
        // After the recorder, so the final write holds `session:end` too.
        coordinator.hooks().register(events::SESSION_END, Arc::new(end), i32::MAX, "host-sub-agent-store");
    }
}

/// Finishes a sub-agent session's recording when the session ends.
struct SubAgentEnd {
    recording: Mutex<Option<Recording>>,
    coordinator: Weak<Coordinator>,
}

impl HookHandler for SubAgentEnd {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        let recording = self.recording.lock().unwrap_or_else(PoisonError::into_inner).take();
        let status = event.data.get("status").and_then(|s| serde_json::from_value(s.clone()).ok());
        Box::pin(async move {
            if let (Some(recording), Some(coordinator)) = (recording, self.coordinator.upgrade()) {
                recording.capture(&coordinator).await;
                recording.finish(status.unwrap_or(RunStatus::Running), true);
            }
            Ok(HookResult::continue_())
        })
    }
}

/// A message of the history, shared by `stored` and `current` (a long
/// session's history is held once, and a save takes what it writes without
/// copying it).
type Shared = Arc<Message>;

struct State {
    turn: u32,
    /// The history as stored, with each message's turn.
    stored: Vec<Shared>,
    stored_turns: Vec<u32>,
    /// Events not yet written.
    events: EventBatch,
    usage: Usage,
    has_usage: bool,
    /// `current` holds the history as the turn left it.
    captured: bool,
    /// The context's history as last read, kept in step with
    /// `sync_messages` (only what was added since crosses), and where that
    /// copy stands.
    current: Vec<Shared>,
    cursor: Option<ViewCursor>,
    /// How many leading messages of `current` are known to equal `stored`,
    /// so a write finds what to append without comparing the history.
    synced: usize,
}

/// Events not yet written, in one buffer: a busy turn's recorder adds each
/// event's text to it instead of allocating three strings per event that
/// the saver's thread then frees (a free across threads takes the other
/// thread's malloc arena lock, which the agent loop's allocations wait for).
#[derive(Default)]
struct EventBatch {
    text: String,
    /// Where each event's name, timestamp and data end in `text`.
    ends: Vec<[usize; 3]>,
}

impl EventBatch {
    fn push(&mut self, event: NewEvent<'_>) {
        let mut ends = [0; 3];
        for (end, part) in ends.iter_mut().zip([event.name, event.timestamp, event.data]) {
            self.text.push_str(part);
            *end = self.text.len();
        }
        self.ends.push(ends);
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn iter(&self) -> impl Iterator<Item = NewEvent<'_>> {
        let mut start = 0;
        self.ends.iter().map(move |&[name, timestamp, data]| {
            let event = NewEvent {
                name: &self.text[start..name],
                timestamp: &self.text[name..timestamp],
                data: &self.text[timestamp..data],
            };
            start = data;
            event
        })
    }

    /// Adds `later`'s events after these.
    fn append(&mut self, later: &EventBatch) {
        for event in later.iter() {
            self.push(event);
        }
    }
}

/// The store a recorder writes, once it is open.
struct Opened {
    store: Store,
    /// The turn `begin_turn` started.
    turn: u32,
    _lock: SessionLock,
}

enum Slot {
    /// The thread opening a new session's store.
    Opening(std::thread::JoinHandle<Result<Opened, RecordingError>>),
    Open(Opened),
    /// The store did not open.
    Failed,
}

struct Recorder {
    session_id: String,
    store: Mutex<Slot>,
    /// The store did not open: events are no longer kept.
    off: AtomicBool,
    coordinator: Weak<Coordinator>,
    me: Weak<Recorder>,
    state: Mutex<State>,
    /// Events seen, for the quiet-period saver.
    seen: AtomicU64,
    notify: tokio::sync::Notify,
    /// [`BATCH`] events wait: the saver saves now.
    full: tokio::sync::Notify,
    saver: Mutex<Option<tokio::task::JoinHandle<()>>>,
    saver_started: AtomicBool,
    warned: AtomicBool,
    notices: Notices,
}

impl Recorder {
    fn attach(
        coordinator: &Arc<Coordinator>,
        slot: Slot,
        stored: Vec<(u32, Shared)>,
        notices: Notices,
    ) -> Arc<Recorder> {
        let (stored_turns, stored) = stored.into_iter().unzip();
        let turn = match &slot {
            Slot::Open(opened) => opened.turn,
            Slot::Opening(_) | Slot::Failed => 0,
        };
        let off = matches!(slot, Slot::Failed);
        let recorder = Arc::new_cyclic(|me| Recorder {
            session_id: coordinator.session_id().to_owned(),
            store: Mutex::new(slot),
            off: AtomicBool::new(off),
            coordinator: Arc::downgrade(coordinator),
            me: me.clone(),
            state: Mutex::new(State {
                turn,
                stored,
                stored_turns,
                events: EventBatch::default(),
                usage: Usage::default(),
                has_usage: false,
                captured: false,
                current: Vec::new(),
                cursor: None,
                synced: 0,
            }),
            seen: AtomicU64::new(0),
            notify: tokio::sync::Notify::new(),
            full: tokio::sync::Notify::new(),
            saver: Mutex::new(None),
            saver_started: AtomicBool::new(false),
            warned: AtomicBool::new(false),
            notices,
        });
        coordinator.hooks().register("*", recorder.clone(), RECORDER_PRIORITY, "host-session-store");
        recorder
    }

    /// Runs `work` on the store, first waiting for it to open; `None`
    /// when it did not (the user is told once). The store's lock is held
    /// throughout, which serialises saves.
    fn with_store<R>(&self, work: impl FnOnce(&mut Store) -> R) -> Option<R> {
        let mut slot = self.store.lock().unwrap_or_else(PoisonError::into_inner);
        if let Slot::Opening(_) = &*slot {
            let Slot::Opening(thread) = std::mem::replace(&mut *slot, Slot::Failed) else {
                unreachable!("matched above")
            };
            *slot = match thread.join() {
                Ok(Ok(opened)) => {
                    self.state().turn = opened.turn;
                    Slot::Open(opened)
                }
                Ok(Err(err)) => self.fail(err.to_string()),
                Err(_) => self.fail("the thread opening the store panicked".to_owned()),
            };
        }
        match &mut *slot {
            Slot::Open(opened) => Some(work(&mut opened.store)),
            Slot::Opening(_) | Slot::Failed => None,
        }
    }

    /// Stops keeping events for a store that did not open, and says so.
    fn fail(&self, why: String) -> Slot {
        self.off.store(true, Ordering::SeqCst);
        self.state().events = EventBatch::default();
        self.notify_user(format!("session {} will not be saved: {why}", self.session_id));
        Slot::Failed
    }

    fn notify_user(&self, warning: String) {
        (self.notices)(Notice::Warning(warning));
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts the quiet-period saver on the first event (there is a runtime by then).
    fn ensure_saver(&self) {
        if self.saver_started.swap(true, Ordering::SeqCst) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let me = self.me.clone();
        let handle = runtime.spawn(async move {
            loop {
                let Some(recorder) = me.upgrade() else { return };
                recorder.notify.notified().await;
                // Quiet for a moment, the bound is up, or a batch is full:
                // whichever comes first.
                let deadline = tokio::time::Instant::now() + BOUND;
                loop {
                    let seen = recorder.seen.load(Ordering::SeqCst);
                    let now = tokio::time::Instant::now();
                    if now >= deadline {
                        break;
                    }
                    tokio::select! {
                        () = tokio::time::sleep(QUIET.min(deadline - now)) => {}
                        () = recorder.full.notified() => break,
                    }
                    if recorder.seen.load(Ordering::SeqCst) == seen {
                        break;
                    }
                }
                recorder.checkpoint().await;
            }
        });
        *self.saver.lock().unwrap_or_else(PoisonError::into_inner) = Some(handle);
    }

    /// Stops the saver, waiting for a save in progress to finish (so no
    /// stale history is written after the final one).
    async fn stop_saver(&self) {
        self.saver_started.store(true, Ordering::SeqCst);
        let handle = self.saver.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(handle) = handle {
            handle.abort();
            let _ = handle.await;
        }
    }

    async fn checkpoint(&self) {
        let Some(coordinator) = self.coordinator.upgrade() else { return };
        match self.read_history(&coordinator).await {
            Ok(()) => {
                self.save(true, None);
                self.with_store(|store| store.tidy());
            }
            Err(err) => tracing::debug!(error = %err, "cannot read the history to save it"),
        }
    }

    /// Brings `current` up to date with the context's history.
    async fn read_history(&self, coordinator: &Coordinator) -> ModuleResult<()> {
        let since = self.state().cursor;
        let delta = coordinator.sync_messages(ContextSyncMessages { since }).await?;
        let added: Vec<Shared> = delta.messages.into_iter().map(Arc::new).collect();
        let mut state = self.state();
        state.synced = state.synced.min(delta.keep);
        state.cursor = Some(delta.cursor);
        state.current.truncate(delta.keep);
        state.current.extend(added);
        Ok(())
    }

    /// Writes what changed since the last write, in one transaction. A
    /// failure is reported once and the events are kept for the next try.
    /// With `messages`, the history in `current` is written too: appended
    /// when the stored history is a prefix of it (the usual case, found
    /// without comparing), else from the first difference.
    ///
    /// The store's lock serialises saves. The state's is held only to take
    /// what to write and to record what was written: every event passes
    /// through [`Recorder::handle`], which takes it too, so the session
    /// runs on while SQLite writes (held across the write, it stalled the
    /// agent loop for every mid-turn save). Nothing is copied under it:
    /// messages are shared, and the events are one buffer, taken whole.
    fn save(&self, messages: bool, status: Option<RunStatus>) {
        self.with_store(|store| self.save_to(store, messages, status));
    }

    fn save_to(&self, store: &mut Store, messages: bool, status: Option<RunStatus>) {
        let (turn, at, new, events, usage, synced) = {
            let mut state = self.state();
            let state = &mut *state;
            let (at, new) = match messages {
                true if state.synced == state.stored.len() => {
                    let new = state.current[state.synced..].iter();
                    (state.synced, new.map(|m| (state.turn, m.clone())).collect())
                }
                true => diff(&state.stored, &state.stored_turns, &state.current, state.turn),
                false => (state.stored.len(), Vec::new()),
            };
            if at == state.stored.len() && new.is_empty() && state.events.is_empty() && status.is_none() {
                return;
            }
            let usage = std::mem::take(&mut state.has_usage).then(|| std::mem::take(&mut state.usage));
            let synced = messages.then_some(state.current.len());
            (state.turn, at, new, std::mem::take(&mut state.events), usage, synced)
        };
        let result = {
            let messages: Vec<NewMessage<'_>> =
                new.iter().map(|(turn, message)| NewMessage { turn: *turn, message }).collect();
            let events: Vec<NewEvent<'_>> = events.iter().collect();
            store.write(&TurnWrite {
                session_id: &self.session_id,
                turn,
                messages_at: at as u64,
                messages: &messages,
                events: &events,
                usage: usage.as_ref(),
                status,
            })
        };
        let mut state = self.state();
        match result {
            Ok(()) => {
                state.stored.truncate(at);
                state.stored_turns.truncate(at);
                for (turn, message) in new {
                    state.stored_turns.push(turn);
                    state.stored.push(message);
                }
                if let Some(synced) = synced {
                    state.synced = synced;
                }
            }
            Err(err) => {
                // Put back in front of what arrived meanwhile.
                let mut events = events;
                events.append(&state.events);
                state.events = events;
                if let Some(mut usage) = usage {
                    usage.accumulate(&state.usage);
                    state.usage = usage;
                    state.has_usage = true;
                }
                drop(state);
                if !self.warned.swap(true, Ordering::SeqCst) {
                    self.notify_user(format!("cannot save session {}: {err}", self.session_id));
                }
            }
        }
    }
}

impl HookHandler for Recorder {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        if self.off.load(Ordering::Relaxed) {
            return Box::pin(async { Ok(HookResult::continue_()) });
        }
        let timestamp = event.data.get("timestamp").and_then(|t| t.as_str()).unwrap_or_default();
        {
            let mut state = self.state();
            if event.name == amplifier_kernel::events::PROVIDER_RESPONSE {
                if let Some(usage) =
                    event.data.get("usage").and_then(|u| serde_json::from_value::<Usage>(u.clone()).ok())
                {
                    state.usage.accumulate(&usage);
                    state.has_usage = true;
                }
            }
            state.events.push(NewEvent { name: &event.name, timestamp, data: event.data_json() });
            if state.events.len() == BATCH {
                self.full.notify_one();
            }
        }
        self.seen.fetch_add(1, Ordering::SeqCst);
        self.ensure_saver();
        self.notify.notify_one();
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// What to write to turn `stored` into `current`: the index to write from
/// and the messages from there, each with its turn. Appending is the common
/// case; when the history changed (a restored history was repaired, a
/// context rewrote it) the tail from the first difference is rewritten,
/// messages that survived keeping their turn, new ones before the last
/// survivor taking their predecessor's turn (0 at the start), new ones
/// after it taking the current turn.
fn diff(stored: &[Shared], stored_turns: &[u32], current: &[Shared], turn: u32) -> (usize, Vec<(u32, Shared)>) {
    let common = stored.iter().zip(current).take_while(|(a, b)| a == b).count();
    let tail = &current[common..];
    if common == stored.len() {
        return (common, tail.iter().map(|m| (turn, m.clone())).collect());
    }
    let (old, old_turns) = (&stored[common..], &stored_turns[common..]);
    let mut kept: Vec<Option<u32>> = vec![None; tail.len()];
    let mut from = 0;
    for (slot, message) in kept.iter_mut().zip(tail) {
        if let Some(offset) = old[from..].iter().position(|o| o == message) {
            *slot = Some(old_turns[from + offset]);
            from += offset + 1;
        }
    }
    let last_kept = kept.iter().rposition(Option::is_some);
    let mut previous = if common > 0 { stored_turns[common - 1] } else { 0 };
    let mut out = Vec::with_capacity(tail.len());
    for (index, message) in tail.iter().enumerate() {
        let message_turn = match kept[index] {
            Some(t) => t,
            None if last_kept.is_some_and(|last| index < last) => previous,
            None => turn,
        };
        previous = message_turn;
        out.push((message_turn, message.clone()));
    }
    (common, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(messages: &[(u32, Shared)]) -> Vec<(u32, String)> {
        messages.iter().map(|(turn, m)| (*turn, m.content.text())).collect()
    }

    fn shared<const N: usize>(messages: [Message; N]) -> [Shared; N] {
        messages.map(Arc::new)
    }

    #[test]
    fn a_batch_gives_back_each_event_as_pushed_and_in_order() {
        let event = |name, timestamp, data| NewEvent { name, timestamp, data };
        let (first, second, third) =
            (event("a:b", "t1", r#"{"x":1}"#), event("", "", "{}"), event("tool:post", "t3", r#"{"é":"ü"}"#));
        let mut batch = EventBatch::default();
        batch.push(first);
        batch.push(second);
        let mut later = EventBatch::default();
        later.push(third);
        batch.append(&later);
        assert_eq!(batch.len(), 3);
        assert_eq!(batch.iter().collect::<Vec<_>>(), [first, second, third]);
        assert!(EventBatch::default().is_empty() && !batch.is_empty());
    }

    #[test]
    fn new_messages_are_appended_with_the_current_turn() {
        let stored = shared([Message::user("a")]);
        let current = shared([Message::user("a"), Message::user("b")]);
        let (at, new) = diff(&stored, &[1], &current, 2);
        assert_eq!((at, texts(&new)), (1, vec![(2, "b".to_owned())]));
        let (at, new) = diff(&stored, &[1], &stored, 2);
        assert_eq!((at, new.len()), (1, 0));
    }

    #[test]
    fn a_changed_history_is_rewritten_from_the_first_difference_keeping_turns() {
        let stored = shared([Message::system("memory v1"), Message::user("q1"), Message::user("a1")]);
        let current = shared([
            Message::system("memory v2"),
            Message::user("q1"),
            Message::user("repair"),
            Message::user("a1"),
            Message::user("q2"),
        ]);
        let (at, new) = diff(&stored, &[0, 1, 1], &current, 2);
        assert_eq!(at, 0);
        assert_eq!(
            texts(&new),
            [(0, "memory v2"), (1, "q1"), (1, "repair"), (1, "a1"), (2, "q2")].map(|(t, s)| (t, s.to_owned())).to_vec()
        );
    }
}
