//! Both ends of a call, shared by the host and the SDK so the rules are
//! written once: the callee polls the operation's future once inline (most
//! hook and context calls finish there, with no thread hop), spawns it on its
//! own runtime otherwise, finishes every pending call exactly once, and turns
//! a panic anywhere into an error instead of unwinding across the boundary.

use std::collections::HashMap;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use abi_stable::std_types::{RResult, RString};
use futures::channel::oneshot;
use futures::FutureExt;

use crate::{CallOutcome, EventSink, EventSinkBox, EventSink_TO};

/// The outcome of one operation as plain Rust: the JSON result or the JSON error.
pub type WireResult = Result<String, String>;
/// An operation's future, ready to be polled or spawned.
pub type CallFuture = Pin<Box<dyn Future<Output = WireResult> + Send>>;
/// Aborts a spawned call.
pub type AbortFn = Box<dyn FnOnce() + Send>;

/// A result as it crosses the ABI.
pub fn to_ffi(result: WireResult) -> RResult<RString, RString> {
    match result {
        Ok(ok) => RResult::ROk(ok.into()),
        Err(err) => RResult::RErr(err.into()),
    }
}

/// A result that crossed the ABI.
pub fn from_ffi(result: RResult<RString, RString>) -> WireResult {
    match result {
        RResult::ROk(ok) => Ok(ok.into_string()),
        RResult::RErr(err) => Err(err.into_string()),
    }
}

/// A panic payload as an error in the protocol's wire shape
/// (`{"kind":"panic","message":…}`), without depending on serde here.
pub fn panic_error(payload: &(dyn std::any::Any + Send)) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic payload".to_owned());
    error_json("panic", &format!("module panicked: {message}"))
}

/// An error in the protocol's wire shape.
pub fn error_json(kind: &str, message: &str) -> String {
    format!(r#"{{"kind":{},"message":{}}}"#, json_string(kind), json_string(message))
}

fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A sink that can finish only once; events after the finish are dropped.
pub struct SharedSink {
    sink: Mutex<Option<EventSinkBox>>,
}

impl SharedSink {
    pub fn new(sink: EventSinkBox) -> Arc<Self> {
        Arc::new(SharedSink { sink: Mutex::new(Some(sink)) })
    }

    pub fn event(&self, json: String) {
        if let Some(sink) = self.sink.lock().expect("sink lock").as_ref() {
            sink.event(json.into());
        }
    }

    /// Delivers the result; returns false when the call was already finished.
    pub fn finish(&self, result: WireResult) -> bool {
        match self.sink.lock().expect("sink lock").take() {
            Some(sink) => {
                sink.finish(to_ffi(result));
                true
            }
            None => false,
        }
    }
}

/// The caller's sink of a call being started. It is shared (one
/// allocation) only when something keeps it: an operation that streams
/// events, or a call that goes on after its first poll. A call answered at
/// once, as most hook and context calls are, hands it back untouched.
pub struct CallSink {
    owned: Option<EventSinkBox>,
    shared: Option<Arc<SharedSink>>,
}

impl CallSink {
    /// A call's sink, not yet shared.
    pub fn new(sink: EventSinkBox) -> Self {
        CallSink { owned: Some(sink), shared: None }
    }

    /// The sink, to stream events into or to finish the call with later.
    pub fn shared(&mut self) -> Arc<SharedSink> {
        if let Some(sink) = self.owned.take() {
            self.shared = Some(SharedSink::new(sink));
        }
        self.shared.clone().expect("a call's sink is either owned or shared")
    }
}

/// Where a started call is first polled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstPoll {
    /// On the caller's thread, answering `Ready` without a thread hop when
    /// the future completes at once (most hook and context calls): only
    /// for code that never blocks.
    Inline,
    /// On the callee's runtime: code that may block its thread (a tool, a
    /// provider) then never blocks the caller's.
    Spawned,
}

/// The callee's table of running calls.
#[derive(Default)]
pub struct PendingCalls {
    next_id: AtomicU64,
    running: Mutex<HashMap<u64, (AbortFn, Arc<SharedSink>)>>,
}

impl PendingCalls {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Starts one call. `make` builds the operation's future (it may stream
    /// events into the sink it can take from [`CallSink::shared`]); `spawn`
    /// runs a future on the callee's runtime and returns a way to abort it.
    /// With [`FirstPoll::Inline`] the caller must have entered that runtime,
    /// since the first poll happens right here. The future is `Unpin`
    /// (boxed, or a combinator over a box), so a call answered at once is
    /// boxed once, by `make`, and only a call that goes on is boxed again,
    /// to spawn it.
    pub fn start<F>(
        self: &Arc<Self>,
        sink: EventSinkBox,
        first_poll: FirstPoll,
        make: impl FnOnce(&mut CallSink) -> Result<F, String>,
        spawn: impl FnOnce(Pin<Box<dyn Future<Output = ()> + Send>>) -> AbortFn,
    ) -> CallOutcome
    where
        F: Future<Output = WireResult> + Send + Unpin + 'static,
    {
        let mut sink = CallSink::new(sink);
        let made = catch_unwind(AssertUnwindSafe(|| make(&mut sink)));
        let mut future = match made {
            Ok(Ok(future)) => future,
            Ok(Err(err)) => return CallOutcome::Ready(RResult::RErr(err.into())),
            Err(panic) => return CallOutcome::Ready(RResult::RErr(panic_error(&*panic).into())),
        };
        if first_poll == FirstPoll::Inline {
            let mut cx = Context::from_waker(futures::task::noop_waker_ref());
            match catch_unwind(AssertUnwindSafe(|| Pin::new(&mut future).poll(&mut cx))) {
                Ok(Poll::Ready(result)) => return CallOutcome::Ready(to_ffi(result)),
                Err(panic) => return CallOutcome::Ready(RResult::RErr(panic_error(&*panic).into())),
                Ok(Poll::Pending) => {}
            }
        }
        let shared = sink.shared();
        let guarded = AssertUnwindSafe(future).catch_unwind();
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let table = Arc::downgrade(self);
        let task_sink = shared.clone();
        // The entry must exist before the task can finish and remove it, so
        // hold the table lock across the spawn.
        let mut running = self.running.lock().expect("pending calls lock");
        let abort = spawn(Box::pin(async move {
            let result = match guarded.await {
                Ok(result) => result,
                Err(panic) => Err(panic_error(&*panic)),
            };
            if let Some(table) = table.upgrade() {
                table.running.lock().expect("pending calls lock").remove(&id);
            }
            task_sink.finish(result);
        }));
        running.insert(id, (abort, shared));
        CallOutcome::Pending(id)
    }

    /// Aborts a running call and finishes it with a `cancelled` error.
    pub fn cancel(&self, id: u64) {
        let entry = self.running.lock().expect("pending calls lock").remove(&id);
        if let Some((abort, sink)) = entry {
            abort();
            sink.finish(Err(error_json("cancelled", "cancelled")));
        }
    }

    /// Cancels every running call (at shutdown).
    pub fn cancel_all(&self) {
        let ids: Vec<u64> = self.running.lock().expect("pending calls lock").keys().copied().collect();
        for id in ids {
            self.cancel(id);
        }
    }
}

/// The caller's end: a sink that forwards events to `on_event` and the final
/// result to the returned receiver.
pub fn reply_channel(
    on_event: Option<Arc<dyn Fn(String) + Send + Sync>>,
) -> (EventSinkBox, oneshot::Receiver<WireResult>) {
    let (tx, rx) = oneshot::channel();
    let sink = ReplySink { on_event, reply: Mutex::new(Some(tx)) };
    (EventSink_TO::from_value(sink, abi_stable::sabi_trait::TD_Opaque), rx)
}

struct ReplySink {
    on_event: Option<Arc<dyn Fn(String) + Send + Sync>>,
    reply: Mutex<Option<oneshot::Sender<WireResult>>>,
}

impl EventSink for ReplySink {
    fn event(&self, json: RString) {
        if let Some(on_event) = &self.on_event {
            on_event(json.into_string());
        }
    }

    fn finish(&self, result: RResult<RString, RString>) {
        if let Some(tx) = self.reply.lock().expect("reply lock").take() {
            let _ = tx.send(from_ffi(result));
        }
    }
}

/// A call's answer: as it crossed the ABI (a `Ready` outcome), or as the
/// reply sink converted it. Read in place, a crossed answer is never
/// copied: a string the callee allocated becomes a `String` of the caller
/// only by a copy, when the two are different binaries.
pub enum Answer {
    Crossed(RResult<RString, RString>),
    Converted(WireResult),
}

impl Answer {
    /// The JSON result or the JSON error, borrowed.
    pub fn as_result(&self) -> Result<&str, &str> {
        match self {
            Answer::Crossed(RResult::ROk(ok)) => Ok(ok.as_str()),
            Answer::Crossed(RResult::RErr(err)) => Err(err.as_str()),
            Answer::Converted(result) => result.as_deref().map_err(String::as_str),
        }
    }

    pub fn into_result(self) -> WireResult {
        match self {
            Answer::Crossed(result) => from_ffi(result),
            Answer::Converted(result) => result,
        }
    }
}

/// Waits for a started call: `Ready` answers at once, `Pending` waits for the
/// sink. Dropping the returned future cancels a pending call through `cancel`.
pub async fn await_answer(
    outcome: CallOutcome,
    reply: oneshot::Receiver<WireResult>,
    cancel: impl FnOnce(u64),
) -> Answer {
    let id = match outcome {
        CallOutcome::Ready(result) => return Answer::Crossed(result),
        CallOutcome::Pending(id) => id,
    };
    struct CancelOnDrop<F: FnOnce(u64)>(Option<F>, u64);
    impl<F: FnOnce(u64)> Drop for CancelOnDrop<F> {
        fn drop(&mut self) {
            if let Some(cancel) = self.0.take() {
                cancel(self.1);
            }
        }
    }
    let mut guard = CancelOnDrop(Some(cancel), id);
    let result = reply.await;
    guard.0 = None;
    Answer::Converted(
        result.unwrap_or_else(|_| Err(error_json("internal", "the module dropped a call without answering it"))),
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use futures::future::{ready, BoxFuture};

    use super::*;

    /// A started call: its outcome, its reply, the events it streamed, and
    /// its task when it was spawned.
    type Started = (
        CallOutcome,
        oneshot::Receiver<WireResult>,
        Arc<Mutex<Vec<String>>>,
        Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
    );

    /// Starts a call whose future `make` builds, keeping a spawned task aside.
    fn start(make: impl FnOnce(&mut CallSink) -> Result<BoxFuture<'static, WireResult>, String>) -> Started {
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = events.clone();
        let (sink, reply) = reply_channel(Some(Arc::new(move |json| seen.lock().unwrap().push(json))));
        let mut spawned = None;
        let outcome = PendingCalls::new().start(sink, FirstPoll::Inline, make, |task| {
            spawned = Some(task);
            Box::new(|| {})
        });
        (outcome, reply, events, spawned)
    }

    #[test]
    fn a_call_answered_at_once_is_ready_and_never_finishes_its_sink() {
        let (outcome, reply, _, spawned) = start(|_| Ok(Box::pin(ready(Ok("{}".to_owned())))));
        assert!(matches!(outcome, CallOutcome::Ready(RResult::ROk(ref json)) if json.as_str() == "{}"));
        assert!(spawned.is_none());
        // The sink was dropped unfinished: the answer is the outcome itself.
        assert!(futures::executor::block_on(reply).is_err());
    }

    #[test]
    fn a_call_that_goes_on_finishes_through_the_sink_make_never_took() {
        let (tx, rx) = oneshot::channel::<String>();
        let (outcome, reply, _, spawned) =
            start(|_| Ok(Box::pin(async move { rx.await.map_err(|_| "dropped".to_owned()) })));
        assert!(matches!(outcome, CallOutcome::Pending(1)));
        tx.send("\"later\"".to_owned()).unwrap();
        futures::executor::block_on(spawned.expect("a pending call is spawned"));
        assert_eq!(futures::executor::block_on(reply), Ok(Ok("\"later\"".to_owned())));
    }

    #[test]
    fn an_operation_that_streams_takes_the_sink_and_may_still_answer_at_once() {
        let (outcome, _, events, _) = start(|sink| {
            sink.shared().event(r#"{"delta":"hi"}"#.to_owned());
            Ok(Box::pin(ready(Ok("{}".to_owned()))))
        });
        assert!(matches!(outcome, CallOutcome::Ready(RResult::ROk(_))));
        assert_eq!(*events.lock().unwrap(), [r#"{"delta":"hi"}"#]);
    }
}
