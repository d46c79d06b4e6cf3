//! Failover: a run whose worker stopped (killed, its machine lost, or
//! handing its runs over on SIGTERM) is taken over by another worker of the
//! store, and its clients read one stream on.
//!
//! A worker's run holds its thread's lock in the store; the lock goes when
//! the worker's connection does (at once for a killed process, within
//! `--lease-timeout` for a lost machine). Every worker looks, every
//! [`SCAN_EVERY`], for open streams whose thread nobody holds
//! (`Store::stalled_streams`); one seen so on two looks in a row (its
//! worker was not just ending it) is taken over by the worker whose lock
//! attempt wins. The new worker resumes the run's recorded session,
//! repaired, and runs its prompt again from where the history stops
//! (`SessionBuilder::continue_turn`: a loop goes on from its last stored
//! step; orchestrator-plan resumes from its stored plan state), its frames
//! numbered on after the dead worker's, behind a `warning` frame. A run
//! with no stored history (a SQLite store keeps no served run as a
//! session) is not run again from its start, which would repeat what its
//! tools did: its stream ends with `run_error`.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use amplifier_host::sse::{Feed, FrameSink, Mapper};
use amplifier_kernel::cancellation::CancellationToken;
use amplifier_store::{StalledStream, StoreError, StoredFrame};
use serde_json::Value;
use tokio::sync::watch;

use super::{drive, lock_thread, user_of, App, LiveRun, Phase, Run};

/// How often a worker looks for stalled runs.
pub const SCAN_EVERY: Duration = Duration::from_secs(1);

/// How far a taken-over run's frame ids jump: a client of the dead worker
/// may have read frames that worker had not stored yet, and must not take
/// a new frame for one it read (ids only need to grow).
const ID_GAP: u64 = 1000;

/// A run whose stream went quiet longer ago than this is ended, not taken
/// over: nobody waits for it any more.
const TOO_OLD_MS: i64 = 60 * 60 * 1000;

const TAKEN_OVER: &str = "the worker running this run stopped; another worker took the run over";

/// Looks for stalled runs until the worker drains.
pub async fn watch(app: Arc<App>) {
    let mut suspects: HashMap<String, (String, Instant)> = HashMap::new();
    loop {
        tokio::time::sleep(SCAN_EVERY).await;
        if app.draining.load(Ordering::SeqCst) {
            return;
        }
        let stalled = match super::stored(&app, |store| store.stalled_streams()).await {
            Ok(stalled) => stalled,
            Err(_) => continue,
        };
        let mut seen = HashMap::new();
        for stream in stalled {
            if app.live.lock().expect("live lock").contains_key(&stream.thread) {
                continue;
            }
            let first_seen = match suspects.get(&stream.thread) {
                Some((run, since)) if *run == stream.run => *since,
                _ => Instant::now(),
            };
            if first_seen.elapsed() >= SCAN_EVERY / 2 {
                tokio::spawn(take_over(app.clone(), stream));
            } else {
                seen.insert(stream.thread.clone(), (stream.run, first_seen));
            }
        }
        suspects = seen;
    }
}

/// Takes the stalled run over, if this worker gets its thread and it is
/// still stalled; ends its stream with an error when it cannot go on.
async fn take_over(app: Arc<App>, stalled: StalledStream) {
    let Ok(permit) = app.permits.clone().try_acquire_owned() else { return };
    // Another worker may be quicker: the lock decides.
    let Ok(thread_lock) = lock_thread(&app, &stalled.thread).await else { return };
    let (thread, run) = (stalled.thread.clone(), stalled.run.clone());
    let current = super::stored(&app, move |store| store.stream(&thread)).await;
    let Ok(Some(current)) = current else { return };
    if current.closed || current.run != stalled.run {
        return;
    }
    // The stream's id is the run's correlation id and a `#` suffix of its own.
    let correlation = run.rsplit_once('#').map_or(run.as_str(), |(id, _)| id).to_owned();
    let mapper = Arc::new(Mapper::new(correlation.clone()));
    if amplifier_store::now_ms() - stalled.updated_ms > TOO_OLD_MS {
        end(&app, &stalled, current.last_id, &mapper, "the worker running this run stopped long ago").await;
        return;
    }
    // No stored history to go on from (a SQLite store keeps no served run
    // as a session, or the worker died before it said which): running the
    // prompt from its start would repeat what its tools did.
    let Some(session_id) = stalled.session_id.clone() else {
        let why = "the worker running this run stopped; post the request again to run it again";
        end(&app, &stalled, current.last_id, &mapper, why).await;
        return;
    };
    let feed = Feed::starting_at(correlation, current.last_id + ID_GAP);
    let (cancellation, cancellation_set) = watch::channel(None::<CancellationToken>);
    let (phase, phase_seen) = watch::channel(Phase::Running);
    {
        let mut live = app.live.lock().expect("live lock");
        if app.draining.load(Ordering::SeqCst) || live.contains_key(&stalled.thread) {
            return;
        }
        let entry = LiveRun {
            request: stalled.request.clone(),
            feed: feed.clone(),
            mapper: mapper.clone(),
            cancellation: cancellation_set.clone(),
            phase: phase_seen,
        };
        live.insert(stalled.thread.clone(), entry);
    }
    app.frames.resume(&feed, &stalled.thread, &stalled.run);
    feed.send(mapper.warning(TAKEN_OVER));
    eprintln!("taking over the run of thread `{}` from a worker that stopped", stalled.thread);
    let builder =
        match resumed_session(&app, session_id).await {
            Ok(builder) => builder,
            Err(message) => {
                tracing::warn!(thread = %stalled.thread, error = %message, "cannot take the run over");
                feed.send(mapper.fail(&format!(
                    "the worker running this run stopped, and its session cannot be resumed: {message}"
                )));
                feed.close();
                // Ended in the store before the thread is free: nobody takes it over again.
                app.frames.flush().await;
                app.live.lock().expect("live lock").remove(&stalled.thread);
                return;
            }
        };
    let user = serde_json::from_str::<Value>(&stalled.prompt).ok().and_then(|v| v.as_object().and_then(user_of));
    let run = Run {
        thread: stalled.thread,
        stream: stalled.run,
        prompt: stalled.prompt,
        user,
        feed,
        mapper,
        cancellation: (cancellation, cancellation_set),
        phase,
        recorded: true,
    };
    drive(app, run, builder, None, (thread_lock, permit));
}

/// The run's own session, resumed (its lock is free: its worker is gone).
async fn resumed_session(app: &Arc<App>, id: String) -> Result<amplifier_host::SessionBuilder, String> {
    let host = app.host.clone();
    let opened = tokio::task::spawn_blocking(move || {
        let store = host.store().open().map_err(|err| err.to_string())?;
        let record = store.session(&id).map_err(|err| err.to_string())?.ok_or(format!("no session {id}"))?;
        let lock = store.lock_session(&id).map_err(|err: StoreError| err.to_string())?;
        Ok::<_, String>((store, record, lock))
    })
    .await
    .map_err(|err| err.to_string())??;
    let (store, record, lock) = opened;
    Ok(app.host.session().resume(store, record, lock).continue_turn())
}

/// Ends a stalled stream with `run_error` saying `why`.
async fn end(app: &Arc<App>, stalled: &StalledStream, last_id: u64, mapper: &Mapper, why: &str) {
    let id = last_id + ID_GAP;
    let text = amplifier_host::sse::encode(&mapper.fail(why), id);
    let append = amplifier_store::StreamAppend {
        thread: stalled.thread.clone(),
        run: stalled.run.clone(),
        frames: vec![StoredFrame { id, text }],
        close: true,
    };
    let _ = super::stored(app, move |store| store.write_streams(&[], &[], &[append])).await;
}
