//! `amplifier serve [--plan FILE] [--addr 127.0.0.1:PORT]`: runs over HTTP.
//!
//! - `POST /v1/runs` with a run request `{mode, objective, constraints?,
//!   threadId?, agent?, payload?, correlationId?}` answers a Server-Sent
//!   Events stream of the run's frames (see [`amplifier_host::sse`]). The
//!   request, with `threadId` filled in, is the prompt of a new session of
//!   the plan.
//! - The same request again with `Last-Event-ID: N` is an EventSource
//!   reconnecting: it reads the run's frames from N + 1 on, on any worker
//!   of the store (a run's frames are copied into the store as they are
//!   sent, see [`amplifier_host::sse::FrameWriter`]); a run read to its end,
//!   or never started, answers 204, which tells EventSource to stop. A
//!   reconnect never starts a run.
//! - `GET /v1/runs/{thread}/events` follows the thread's current or last
//!   run the same way, from any worker.
//! - `GET /v1/runs/{thread}` answers the thread's run state as its
//!   orchestrator last saved it (`runs.save`, kept in the session store).
//! - `GET /v1/runs/{thread}/graph` answers the run's handoff graph (its
//!   state's `graph`, which orchestrator-plan keeps).
//! - `POST /v1/runs/{thread}/hitl` `{requestId, answer}` answers the
//!   question the thread's run waits for (its state's `pendingHitl`) and
//!   streams the resumed run, as `POST /v1/runs` does.
//!
//! One run per thread at a time (409 otherwise), across every `serve` of
//! one store: a run holds its thread's lock in the session store (see
//! `amplifier_store::SessionLock`), so a second worker on the same
//! PostgreSQL, or a second process on the same SQLite, refuses the thread
//! too. `--max-runs` runs at once (503 otherwise). A run nobody reads for
//! `--resume-window` seconds is cancelled: its client left and did not
//! come back.
//!
//! A run whose worker died is taken over by another worker of the store
//! (see [`takeover`]); with PostgreSQL, runs are kept as sessions for that.
//!
//! SIGTERM (or Ctrl-C) shuts the server down gracefully: it stops
//! accepting connections, refuses new runs on open ones (503), lets the
//! running ones finish for `--shutdown-grace` seconds, hands what is left
//! to another worker (PostgreSQL) or cancels it (SQLite), waits for clients
//! to read the last frames, and exits 0. A second signal exits at once.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use amplifier_host::sse::{self, Feed, FrameSink, FrameWriter, Mapper, Reader, StoredReader};
use amplifier_host::{Conversation, Host};
use amplifier_kernel::cancellation::CancellationToken;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use clap::Args;
use serde_json::{json, Value};
use tokio::sync::watch;

use crate::error::{CliError, CliResult};
use crate::hosting::{self, Flags};

mod door;
mod takeover;

#[derive(Args)]
pub struct ServeArgs {
    /// The mount plan (YAML) each run's session is built from (default: the
    /// `plan` setting, else amplifier's default plan).
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    /// Address to listen on; port 0 picks a free port (the address is printed).
    #[arg(long, default_value = "127.0.0.1:8787")]
    addr: SocketAddr,
    /// Seconds between heartbeat events on an idle stream.
    #[arg(long, value_name = "SECS", default_value_t = 15)]
    heartbeat: u64,
    /// Runs at once; more are refused with 503.
    #[arg(long, default_value_t = 4)]
    max_runs: usize,
    /// Require `Authorization: Bearer TOKEN`, the token read from this
    /// file (default: $AMPLIFIER_SERVE_TOKEN). Required when the address is
    /// not loopback.
    #[arg(long, value_name = "FILE")]
    token_file: Option<std::path::PathBuf>,
    /// Refused: a token on the command line is readable by every process of
    /// yours. Use --token-file or $AMPLIFIER_SERVE_TOKEN.
    #[arg(long, value_name = "TOKEN", hide = true)]
    token: Option<String>,
    /// Requests a minute from one client address; more are refused with 429.
    #[arg(long, value_name = "N", default_value_t = 120)]
    rate_limit: u32,
    /// Seconds a client has to send a request's headers, and then its body.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    read_timeout: u64,
    /// Seconds a run whose client left waits for it to reconnect (with
    /// `Last-Event-ID`) before the run is cancelled.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    resume_window: u64,
    /// Seconds running runs get to finish after SIGTERM (or Ctrl-C); then
    /// they are handed to another worker (a PostgreSQL store) or cancelled
    /// (SQLite), and the server exits.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    shutdown_grace: u64,
    /// Seconds the PostgreSQL server waits for a worker that vanished (its
    /// machine lost, its network cut) before its runs' locks go and another
    /// worker takes its runs over. A killed worker's go at once.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    lease_timeout: u64,
}

/// After the runs ended, how long clients get to read their last frames
/// before the process exits.
const READ_OUT: Duration = Duration::from_secs(5);

/// The largest run request body.
const MAX_BODY: usize = 1 << 20;

/// The body's opening: a comment, and how long an EventSource waits before
/// it reconnects (well inside the resume window).
const PROLOGUE: &str = ":\n\nretry: 1000\n\n";

struct App {
    host: Host,
    heartbeat: Duration,
    read_timeout: Duration,
    resume_window: Duration,
    /// The runs in progress, by thread.
    live: Mutex<HashMap<String, LiveRun>>,
    max_runs: u32,
    permits: Arc<tokio::sync::Semaphore>,
    /// Set on SIGTERM: no new run starts.
    draining: AtomicBool,
    /// Copies every run's frames into the store, for other workers' clients.
    frames: FrameWriter,
}

impl App {
    /// Workers on several machines may share the store (PostgreSQL): served
    /// runs are kept as sessions, and a stopping worker hands its runs over.
    fn shares_store(&self) -> bool {
        matches!(self.host.store().location(), amplifier_store::Location::Postgres(_))
    }
}

/// A run in progress: the digest of the request that started it, which an
/// EventSource sends again when it reconnects, its frames, and its cancellation once
/// its session exists.
struct LiveRun {
    /// The digest of the request that started it (`request_digest`).
    request: String,
    feed: Arc<Feed>,
    mapper: Arc<Mapper>,
    cancellation: watch::Receiver<Option<CancellationToken>>,
    phase: watch::Receiver<Phase>,
}

/// Where a run is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Running,
    /// Its last frames were sent; its stream's end is being stored.
    Ending,
    /// It let go of its thread.
    Ended,
}

/// The bearer token: from `--token-file`, else `$AMPLIFIER_SERVE_TOKEN`;
/// never from the command line, which every process of the user can read.
fn token(args: &ServeArgs) -> CliResult<Option<String>> {
    if args.token.is_some() {
        return Err(CliError::usage(
            "--token: a token on the command line is readable by every process of yours, \
             the commands an agent runs included (/proc/PID/cmdline)",
        )
        .hint("write it to a file only you can read and pass --token-file FILE, or set AMPLIFIER_SERVE_TOKEN"));
    }
    match &args.token_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|err| CliError::usage(format!("--token-file {}: {err}", path.display())))?;
            let token = text.trim_end_matches(['\n', '\r']).to_owned();
            if token.is_empty() {
                return Err(CliError::usage(format!("--token-file {}: the file is empty", path.display())));
            }
            Ok(Some(token))
        }
        None => Ok(std::env::var("AMPLIFIER_SERVE_TOKEN").ok().filter(|token| !token.is_empty())),
    }
}

pub fn serve(args: ServeArgs) -> CliResult {
    let token = token(&args)?;
    let plan = crate::default_plan::choose(args.plan)?;
    // Refused before anything is built or bound.
    let door = door::Door::new(args.addr, token, args.rate_limit)?;
    let runtime = hosting::runtime()?;
    // Served runs do not write amplifier.lock; they are kept as sessions
    // only in a shared store (see `App::shares_store`).
    let host = hosting::open(&plan, hosting::options(Flags::default(), false)?)?;
    let max_runs = u32::try_from(args.max_runs.max(1)).unwrap_or(u32::MAX >> 3);
    amplifier_store::set_lease_timeout(Duration::from_secs(args.lease_timeout));
    let frames = FrameWriter::start(host.store())
        .map_err(|err| CliError::failed(format!("cannot open the session store: {err}")))?;
    let app = Arc::new(App {
        host,
        heartbeat: Duration::from_secs(args.heartbeat.max(1)),
        read_timeout: Duration::from_secs(args.read_timeout.max(1)),
        resume_window: Duration::from_secs(args.resume_window),
        live: Mutex::default(),
        max_runs,
        permits: Arc::new(tokio::sync::Semaphore::new(max_runs as usize)),
        draining: AtomicBool::new(false),
        frames,
    });
    let grace = Duration::from_secs(args.shutdown_grace);
    runtime.block_on(async move {
        // Build the plan's plugins (the agents' too) before taking requests.
        app.host.prepare_all().await;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|err| CliError::failed(format!("cannot listen on {}: {err}", args.addr)))?;
        let local = listener
            .local_addr()
            .map_err(|err| CliError::failed(format!("cannot read the address listened on: {err}")))?;
        // Port 0 was a wish: requests name the port actually bound.
        let door = Arc::new(door.listening_on(local));
        println!("listening on http://{local}");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let read_timeout = app.read_timeout;
        let router = Router::new()
            .route("/v1/runs", post(start_run))
            .route("/v1/runs/{thread}", get(get_run))
            .route("/v1/runs/{thread}/graph", get(get_graph))
            .route("/v1/runs/{thread}/events", get(follow_run))
            .route("/v1/runs/{thread}/hitl", post(answer_hitl))
            .with_state(app.clone())
            .layer(axum::middleware::from_fn_with_state(door, door::guard));
        // Draining before the listener closes: a client refused a connection
        // never finds a new run accepted on an older one.
        let stop = async {
            stop_requested().await;
            app.draining.store(true, Ordering::SeqCst);
        };
        tokio::spawn(takeover::watch(app.clone()));
        door::serve(listener, router, read_timeout, stop)
            .await
            .map_err(|err| CliError::failed(format!("the server stopped: {err}")))?;
        // Ctrl-C always works: a second signal ends the wait.
        tokio::select! {
            () = drain(&app, grace) => Ok(()),
            () = stop_requested() => Err(CliError::failed("stopped by a second signal; the runs in progress were dropped")),
        }
    })
}

/// Resolves on SIGTERM or SIGINT.
async fn stop_requested() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
        // No signal handling: the server runs until it is killed.
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

/// The graceful end: no new run; the running ones get `grace` to finish,
/// then are cancelled; their clients get [`READ_OUT`] to read the rest.
async fn drain(app: &App, grace: Duration) {
    app.draining.store(true, Ordering::SeqCst);
    let running = app.live.lock().expect("live lock").len();
    eprintln!("shutting down: {running} run(s) in progress get {}s to finish", grace.as_secs());
    // Every permit back: every run ended and its clients read it out.
    let all_done = || app.permits.acquire_many(app.max_runs);
    if tokio::time::timeout(grace, all_done()).await.is_err() {
        // In a shared store another worker takes them over; alone, they end.
        let hand_over = app.shares_store();
        {
            let live = app.live.lock().expect("live lock");
            let what = if hand_over { "handing over" } else { "cancelling" };
            eprintln!("shutting down: {what} {} run(s) still in progress", live.len());
            for run in live.values() {
                if let Some(token) = run.cancellation.borrow().as_ref() {
                    if hand_over {
                        run.feed.send(
                            run.mapper.warning("this server is shutting down: another worker takes the run over"),
                        );
                        // Its clients reconnect to another worker; its stream stays open for that worker.
                        run.feed.hand_over();
                    } else {
                        run.feed.send(run.mapper.warning("this server is shutting down: the run is cancelled"));
                    }
                    token.request_immediate();
                }
            }
        }
        if tokio::time::timeout(grace.max(READ_OUT), all_done()).await.is_err() {
            eprintln!("shutting down: some runs did not end; exiting anyway");
        }
    }
    // The runs' last frames, for clients of other workers.
    if tokio::time::timeout(READ_OUT, app.frames.flush()).await.is_err() {
        eprintln!("shutting down: the last frames could not be stored in time");
    }
    eprintln!("stopped");
}

/// Whose thread this is (`userId`, checked by [`validate`]).
fn user_of(request: &serde_json::Map<String, Value>) -> Option<String> {
    request.get("userId").and_then(Value::as_str).map(str::to_owned)
}

fn json_response(status: StatusCode, body: Value) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    json_response(status, json!({"error": message.into()}))
}

async fn start_run(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    let body = match door::read_body(body, MAX_BODY, app.read_timeout).await {
        Ok(body) => body,
        Err((status, message)) => return error(status, message),
    };
    if headers.contains_key("last-event-id") {
        return resume(&app, &headers, &body).await;
    }
    let new_thread = || format!("thread_{}", &sse::correlation_id()[4..]);
    let (request, thread) = match amplifier_protocol::runs::parse_request(&body, new_thread) {
        Ok(valid) => valid,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    launch(app, request, thread, body).await
}

/// A person's answer to the question the thread's run waits for: the run
/// goes on from where it paused.
async fn answer_hitl(
    State(app): State<Arc<App>>,
    Path(thread): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let body = match door::read_body(body, MAX_BODY, app.read_timeout).await {
        Ok(body) => body,
        Err((status, message)) => return error(status, message),
    };
    if headers.contains_key("last-event-id") {
        return resume(&app, &headers, &body).await;
    }
    let answer = serde_json::from_slice::<Value>(&body).ok();
    let field = |key: &str| answer.as_ref().and_then(|a| a.get(key)).and_then(Value::as_str).map(str::to_owned);
    let (Some(request_id), Some(text)) = (field("requestId"), field("answer")) else {
        return error(StatusCode::BAD_REQUEST, "the body must be a JSON object {requestId, answer}, both strings");
    };
    let state = match run_state(&app, &thread).await {
        Ok(state) => state,
        Err(response) => return response,
    };
    match state.pointer("/pendingHitl/id").and_then(Value::as_str) {
        Some(pending) if pending == request_id => {}
        Some(pending) => {
            let message =
                format!("`{request_id}` is not the question thread `{thread}` waits for (it waits for `{pending}`)");
            return error(StatusCode::CONFLICT, message);
        }
        None => return error(StatusCode::CONFLICT, format!("thread `{thread}` waits for no answer")),
    }
    let mut request = serde_json::Map::new();
    request.insert("mode".into(), json!("app"));
    request.insert("threadId".into(), json!(thread));
    request.insert("hitlResponse".into(), json!({"requestId": request_id, "answer": text}));
    if let Some(user) = field("userId").filter(|user| amplifier_protocol::runs::valid_id(user)) {
        request.insert("userId".into(), json!(user));
    }
    launch(app, request, thread, body).await
}

/// Starts a run of `request` on `thread` and answers its stream; `body`
/// is what a reconnecting EventSource will post again.
async fn launch(
    app: Arc<App>,
    mut request: serde_json::Map<String, Value>,
    thread: String,
    body: axum::body::Bytes,
) -> Response {
    let correlation = match request.remove("correlationId") {
        Some(Value::String(id)) if !id.is_empty() => id,
        _ => sse::correlation_id(),
    };
    let prompt = Value::Object(request.clone()).to_string();
    let feed = Feed::new(correlation.clone());
    let reader = feed.reader(0).expect("a new feed has frame 0");
    let mapper = Arc::new(Mapper::new(correlation.clone()));
    let (cancellation, cancellation_set) = watch::channel(None::<CancellationToken>);
    let (phase, phase_seen) = watch::channel(Phase::Running);
    // Checked and registered under one lock: two requests for a thread can't both start.
    let permit = loop {
        let mut finishing = {
            let mut live = app.live.lock().expect("live lock");
            if app.draining.load(Ordering::SeqCst) {
                return error(StatusCode::SERVICE_UNAVAILABLE, "this server is shutting down; try another");
            }
            match live.get(&thread) {
                // Its last frames were sent: it lets go of the thread once they are stored.
                Some(run) if *run.phase.borrow() != Phase::Running => run.phase.clone(),
                Some(_) => {
                    return error(StatusCode::CONFLICT, format!("thread `{thread}` already has a run in progress"))
                }
                None => {
                    let Ok(permit) = app.permits.clone().try_acquire_owned() else {
                        return error(StatusCode::SERVICE_UNAVAILABLE, "too many runs at once; try again later");
                    };
                    let run = LiveRun {
                        request: amplifier_store::request_digest(&body),
                        feed: feed.clone(),
                        mapper: mapper.clone(),
                        cancellation: cancellation_set.clone(),
                        phase: phase_seen.clone(),
                    };
                    live.insert(thread.clone(), run);
                    break permit;
                }
            }
        };
        let _ = tokio::time::timeout(READ_OUT, finishing.wait_for(|phase| *phase == Phase::Ended)).await;
    };
    // The thread's lock in the store: other workers of the store refuse it too.
    let thread_lock = match lock_thread(&app, &thread).await {
        Ok(lock) => lock,
        Err(response) => {
            app.live.lock().expect("live lock").remove(&thread);
            return response;
        }
    };
    // Their clients read its frames from the store, and take it over if this worker dies.
    let stream = app.frames.copy(&feed, &thread, &correlation, &body, &prompt).await;
    let start_data = json!({"threadId": thread, "mode": request.get("mode")});
    // With workers that share the store, the run is kept as a session: the
    // history a worker that takes the run over goes on from.
    let recorded = app.shares_store();
    let builder = match recorded {
        true => app.host.session().record(Some(format!("serve thread {thread}"))),
        false => app.host.session(),
    };
    let run = Run {
        thread,
        stream,
        prompt,
        user: user_of(&request),
        feed,
        mapper,
        cancellation: (cancellation, cancellation_set),
        phase,
        recorded,
    };
    drive(app, run, builder, Some(start_data), (thread_lock, permit));
    sse_response(Frames::Live(reader))
}

/// A run about to be driven: what [`drive`] needs besides its session.
struct Run {
    thread: String,
    /// Its stream's id in the store.
    stream: String,
    prompt: String,
    user: Option<String>,
    feed: Arc<Feed>,
    mapper: Arc<Mapper>,
    cancellation: (watch::Sender<Option<CancellationToken>>, watch::Receiver<Option<CancellationToken>>),
    phase: watch::Sender<Phase>,
    /// Its session is kept in the store.
    recorded: bool,
}

/// Runs `run` in a session from `builder`, in the background, holding the
/// thread's lock and a run permit until it ends; then frees the thread and
/// ends the feed.
fn drive(
    app: Arc<App>,
    run: Run,
    builder: amplifier_host::SessionBuilder,
    start_data: Option<Value>,
    (thread_lock, permit): (amplifier_store::SessionLock, tokio::sync::OwnedSemaphorePermit),
) {
    let Run {
        thread,
        stream,
        prompt,
        user,
        feed,
        mapper,
        cancellation: (cancellation, mut cancellation_set),
        phase,
        recorded,
    } = run;
    // Runs of one thread are one conversation: a routing orchestrator's
    // agents remember the thread's earlier turns.
    let conversation = Conversation { user, id: Some(thread.clone()) };
    let approval = Arc::new(crate::approval::TerminalApproval::new(std::path::Path::new(".")));
    let builder = builder.approval(approval).conversation(conversation.clone());
    tokio::spawn(async move {
        let beating = tokio::spawn({
            let (feed, every) = (feed.clone(), app.heartbeat);
            async move { feed.beat(every).await }
        });
        // Nobody is left to wait for the run: its calls are dropped at once.
        let watcher = tokio::spawn({
            let (feed, grace) = (feed.clone(), app.resume_window);
            async move {
                feed.abandoned(grace).await;
                if let Ok(token) = cancellation_set.wait_for(Option::is_some).await {
                    token.as_ref().expect("waited for").request_immediate();
                }
            }
        });
        let frames: (Arc<Mapper>, Arc<dyn FrameSink>) = (mapper, feed.clone());
        let _ = sse::stream(builder, (&prompt, &[]), start_data, frames, |coordinator| {
            let (user, id) = conversation.resolve(coordinator.session_id());
            crate::trace_bridge::attach(coordinator, user, id);
            // The session a worker that takes the run over resumes.
            if recorded {
                app.frames.session(&thread, &stream, coordinator.session_id());
            }
            cancellation.send_replace(Some(coordinator.cancellation().clone()));
        })
        .await;
        beating.abort();
        watcher.abort();
        // The stream's end is stored before the thread is free (a worker that
        // finds the thread free and its stream open takes the run over), and
        // the thread is free before the clients' streams end (a client that
        // posts again once it read the end is not refused; one that posts
        // sooner, to this worker, waits for this: see `launch`).
        phase.send_replace(Phase::Ending);
        feed.end_copies();
        app.frames.flush().await;
        app.live.lock().expect("live lock").remove(&thread);
        drop(thread_lock);
        phase.send_replace(Phase::Ended);
        feed.close();
        if app.draining.load(Ordering::SeqCst) {
            // The process is about to exit: its clients read the last frames first.
            let _ = tokio::time::timeout(READ_OUT, feed.read_out()).await;
        }
        drop(permit);
    });
}

/// Takes the thread's lock in the session store, or answers why not.
async fn lock_thread(app: &Arc<App>, thread: &str) -> Result<amplifier_store::SessionLock, Response> {
    let (host, name) = (app.host.clone(), amplifier_store::thread_lock_name(thread));
    // The store's calls block: off the async workers.
    match tokio::task::spawn_blocking(move || host.lock_run(&name)).await {
        Ok(Ok(lock)) => Ok(lock),
        Ok(Err(amplifier_host::RecordingError::Store(amplifier_store::StoreError::Locked { pid, .. }))) => {
            let holder = pid.map_or_else(String::new, |pid| format!(" (pid {pid})"));
            Err(error(
                StatusCode::CONFLICT,
                format!("thread `{thread}` already has a run in progress on another worker{holder}"),
            ))
        }
        Ok(Err(err)) => Err(error(StatusCode::SERVICE_UNAVAILABLE, format!("cannot lock the thread: {err}"))),
        Err(err) => Err(error(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot lock the thread: {err}"))),
    }
}

/// The frame id after which a client reads (`Last-Event-ID`; none: 0), or
/// why it cannot be.
fn last_event_id(headers: &HeaderMap) -> Result<u64, &'static str> {
    let Some(value) = headers.get("last-event-id") else { return Ok(0) };
    value
        .to_str()
        .ok()
        .and_then(|id| id.trim().parse::<u64>().ok())
        .ok_or("`Last-Event-ID` is not the id of a frame this server sent")
}

/// An EventSource reconnecting: the run it was reading, from the frame
/// after `Last-Event-ID` on, wherever it runs (its frames are in the store).
async fn resume(app: &Arc<App>, headers: &HeaderMap, body: &[u8]) -> Response {
    let after = match last_event_id(headers) {
        Ok(after) => after,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    let digest = amplifier_store::request_digest(body);
    let local = {
        let live = app.live.lock().expect("live lock");
        live.values().find(|run| run.request == digest).map(|run| run.feed.reader(after))
    };
    // Frames this worker no longer keeps, or never had (a run it took over), are in the store.
    if let Some(Ok(reader)) = local {
        return sse_response(Frames::Live(reader));
    }
    let found = stored(app, move |store| store.stream_of_request(&digest)).await;
    // Never here, nor anywhere: 204 is what stops an EventSource from
    // reconnecting; running the request again would pay for the same run
    // every few seconds.
    read_stored(app, found, after, || StatusCode::NO_CONTENT.into_response()).await
}

/// `GET /v1/runs/{thread}/events`: the thread's current (or last) run's
/// frames, after `Last-Event-ID` if given, from whichever worker runs it.
async fn follow_run(State(app): State<Arc<App>>, Path(thread): Path<String>, headers: HeaderMap) -> Response {
    if !amplifier_protocol::runs::valid_id(&thread) {
        return error(StatusCode::BAD_REQUEST, format!("`{thread}` is not a valid thread id"));
    }
    let after = match last_event_id(&headers) {
        Ok(after) => after,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    let local = app.live.lock().expect("live lock").get(&thread).map(|run| run.feed.reader(after));
    if let Some(Ok(reader)) = local {
        return sse_response(Frames::Live(reader));
    }
    let id = thread.clone();
    let found = stored(&app, move |store| store.stream(&id)).await;
    read_stored(&app, found, after, || error(StatusCode::NOT_FOUND, format!("thread `{thread}` has no run to follow")))
        .await
}

/// A store read off the async workers.
async fn stored<T: Send + 'static>(
    app: &Arc<App>,
    read: impl FnOnce(&amplifier_store::Store) -> Result<T, amplifier_store::StoreError> + Send + 'static,
) -> Result<T, Response> {
    let host = app.host.clone();
    let result =
        tokio::task::spawn_blocking(move || Ok::<_, amplifier_host::RecordingError>(read(&host.store().open()?)?))
            .await;
    match result {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(err)) => Err(error(StatusCode::SERVICE_UNAVAILABLE, format!("cannot read the store: {err}"))),
        Err(err) => Err(error(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot read the store: {err}"))),
    }
}

/// Streams a stored run's frames after `after`; `none` answers when there
/// is no such run, or nothing left to read of it.
async fn read_stored(
    app: &Arc<App>,
    found: Result<Option<amplifier_store::StreamInfo>, Response>,
    after: u64,
    none: impl FnOnce() -> Response,
) -> Response {
    let stream = match found {
        Ok(Some(stream)) => stream,
        Ok(None) => return none(),
        Err(response) => return response,
    };
    // A run still going may have sent frames its worker has not stored yet:
    // the reader waits for them. An ended run's frames are all there.
    if stream.closed && after > stream.last_id {
        return error(StatusCode::CONFLICT, format!("this run never sent a frame with id {after}"));
    }
    if stream.closed && after == stream.last_id {
        return none();
    }
    let host = app.host.clone();
    match tokio::task::spawn_blocking(move || StoredReader::open(host.store(), &stream, after)).await {
        Ok(Ok(reader)) => sse_response(Frames::Stored(reader)),
        Ok(Err(err)) => error(StatusCode::SERVICE_UNAVAILABLE, format!("cannot read the run's frames: {err}")),
        Err(err) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot read the run's frames: {err}")),
    }
}

/// Where a response's frames come from: the run's feed on this worker, or
/// the store when it runs on another.
enum Frames {
    Live(Reader),
    Stored(StoredReader),
}

impl Frames {
    async fn next(&mut self) -> Option<String> {
        match self {
            Frames::Live(reader) => reader.next().await,
            Frames::Stored(reader) => reader.next().await,
        }
    }
}

fn sse_response(frames: Frames) -> Response {
    let prologue = futures::stream::once(async { Ok::<_, std::convert::Infallible>(PROLOGUE.to_owned()) });
    // The reader goes with the body: when the client leaves, the server
    // drops both, and the feed counts one reader fewer.
    let frames = futures::stream::unfold(frames, |mut frames| async move {
        let text = frames.next().await?;
        Some((Ok(text), frames))
    });
    let body = Body::from_stream(futures::StreamExt::chain(prologue, frames));
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

async fn get_run(State(app): State<Arc<App>>, Path(thread): Path<String>) -> Response {
    match run_state(&app, &thread).await {
        Ok(state) => json_response(StatusCode::OK, state),
        Err(response) => response,
    }
}

async fn get_graph(State(app): State<Arc<App>>, Path(thread): Path<String>) -> Response {
    match run_state(&app, &thread).await {
        Ok(Value::Object(mut state)) if state.contains_key("graph") => {
            json_response(StatusCode::OK, state.remove("graph").unwrap_or_default())
        }
        Ok(_) => error(StatusCode::NOT_FOUND, format!("the run of thread `{thread}` keeps no handoff graph")),
        Err(response) => response,
    }
}

/// The thread's run state, or the response that says why there is none.
async fn run_state(app: &Arc<App>, thread: &str) -> Result<Value, Response> {
    if !amplifier_protocol::runs::valid_id(thread) {
        return Err(error(StatusCode::BAD_REQUEST, format!("`{thread}` is not a valid thread id")));
    }
    let id = thread.to_owned();
    match stored(app, move |store| amplifier_host::runs::load(store, &id)).await? {
        Some(state) => Ok(state),
        None => Err(error(StatusCode::NOT_FOUND, format!("no run state for thread `{thread}`"))),
    }
}
