//! `isolation: process`: a module in a child process of its own.
//!
//! A native crash (a segfault, an abort, a stack overflow, `exit()`) can't
//! be survived inside the process it happens in. A module mounted with
//! `isolation: process` runs in a child `amplifier isolated-module`
//! process, which opens the same library (or built-in module) through the
//! same loader code and serves the ABI's operations over a Unix socket
//! ([`wire`]; the child's end is [`child`]). In the host the child is a
//! [`ProcessInstance`], a `PluginInstance` like any other, so the adapters,
//! streaming, cancellation and the module's calls back into the host are
//! the in-process ones.
//!
//! When the child dies, every call it had running, and every later one,
//! fails with [`ErrorKind::Crash`] naming the library and the signal (or
//! the exit status): a tool's failure is a result the model reads, and the
//! session goes on. The module is not restarted: its state (a context's
//! history, a provider's connection) died with it, and a module that
//! crashes once will likely crash again on the same input; the next session
//! gets a fresh process.

pub mod child;
pub mod wire;

use std::collections::HashMap;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr, RString};
use amplifier_abi::bridge::{error_json, from_ffi, to_ffi, WireResult};
use amplifier_abi::{
    CallOutcome, EventSink, EventSinkBox, EventSink_TO, HostApiBox, PluginInstance, PluginInstanceBox,
    PluginInstance_TO,
};
use amplifier_kernel::loading::{LoadError, LoadReason};
use amplifier_kernel::ops::host::log;
use amplifier_kernel::ops::Op;
use amplifier_kernel::{ErrorKind, ModuleError};

use self::wire::{Code, Inbox, Outbox, Relayed, ToHost, ToModule};
use crate::library::ExportedManifest;

/// The hidden subcommand that serves one module: `amplifier isolated-module`.
pub const SUBCOMMAND: &str = "isolated-module";
/// How long a module's process gets to answer `shutdown`, then to exit.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// A mounted module in its own process.
pub struct Spawned {
    pub instance: PluginInstanceBox,
    pub exported: ExportedManifest,
    /// The library path (or "built-in") as the child reports it.
    pub location: String,
}

/// What to start the module's process with.
pub struct Launch {
    /// The `amplifier` binary (whose `isolated-module` subcommand serves it).
    pub program: PathBuf,
    pub code: Code,
    pub module: String,
    pub field_path: String,
    pub kind: &'static str,
    pub config: String,
}

/// Starts the module's process and mounts the module in it; blocks until
/// it answered (so call it off the async threads).
pub fn spawn(launch: Launch, host: HostApiBox) -> Result<Spawned, LoadError> {
    let at = launch.field_path.as_str();
    let unstartable = |err: std::io::Error| {
        LoadError::new(
            LoadReason::Unknown,
            format!(
                "{at}: cannot start a process for module '{}' ({}): {err}",
                launch.module,
                launch.program.display()
            ),
        )
    };
    let (ours, theirs) = UnixStream::pair().map_err(unstartable)?;
    let stdout = std::io::stderr().as_fd().try_clone_to_owned().map_err(unstartable)?;
    // The child's stdin is its end of the socket (it moves it aside at
    // once); its stdout is our stderr, so a module printing can't corrupt
    // the frames. It gets a process group of its own, so a Ctrl-C at the
    // terminal reaches the host alone, which cancels the module's calls
    // through the socket instead of the signal killing it.
    let process = Command::new(&launch.program)
        .arg(SUBCOMMAND)
        .process_group(0)
        .stdin(Stdio::from(OwnedFd::from(theirs)))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(unstartable)?;
    let pid = process.id();
    let describe = match &launch.code {
        Code::Library(path) => path.display().to_string(),
        Code::Builtin(name) => format!("built-in {name}"),
    };
    let outbox = Outbox::start(ours.try_clone().map_err(unstartable)?, "amplifier-module-out").map_err(unstartable)?;
    let (ready_tx, ready_rx) = mpsc::channel();
    let link = Arc::new(Link {
        module: launch.module.clone(),
        process_name: format!("pid {pid}, {describe}"),
        outbox,
        host,
        state: Mutex::new(State::default()),
        host_calls: Relayed::default(),
        process: Mutex::new(process),
        ready: Mutex::new(Some(ready_tx)),
        shut_down: Mutex::new(None),
    });
    let reader = link.clone();
    let inbox = Inbox::new(ours);
    std::thread::Builder::new()
        .name("amplifier-module-in".to_owned())
        .spawn(move || reader.read(inbox))
        .map_err(unstartable)?;
    let (sink, _) = amplifier_abi::bridge::reply_channel(None);
    let log_level = match link.host.call(log::Level::NAME.into(), "{}".into(), sink) {
        CallOutcome::Ready(RResult::ROk(level)) => Some(level.into_string()),
        _ => None,
    };
    link.outbox.send(&ToModule::Init {
        log_level,
        code: launch.code,
        module: launch.module.clone(),
        field_path: at.to_owned(),
        kind: launch.kind.to_owned(),
        config: launch.config,
    });
    let ready = ready_rx.recv().unwrap_or_else(|_| {
        let reason = link.state.lock().expect("isolated module state").dead.clone().unwrap_or_default();
        Err(LoadError::new(
            LoadReason::InvalidEntryPoint,
            format!("{at}: module '{}' did not mount: {reason}", launch.module),
        ))
    });
    let (manifest, location, description) = match ready {
        Ok(ready) => ready,
        Err(err) => {
            link.kill();
            return Err(err);
        }
    };
    let exported = serde_json::from_str(&manifest).map_err(|source| {
        LoadError::new(
            LoadReason::InvalidEntryPoint,
            crate::library::LibraryError::InvalidManifest {
                module: launch.module.to_owned(),
                location: location.clone(),
                source,
            }
            .to_string(),
        )
    })?;
    let instance = ProcessInstance { link, description };
    Ok(Spawned { instance: PluginInstance_TO::from_value(instance, TD_Opaque), exported, location })
}

type Ready = Result<(String, String, WireResult), LoadError>;

/// The host's side of one module process.
struct Link {
    module: String,
    /// "pid 123, /path/libx.so", for messages.
    process_name: String,
    outbox: Outbox,
    /// The module's way into the kernel (its `HostService`).
    host: HostApiBox,
    state: Mutex<State>,
    /// The module's calls into the host.
    host_calls: Relayed,
    process: Mutex<std::process::Child>,
    /// Until the module mounted: where its answer goes.
    ready: Mutex<Option<mpsc::Sender<Ready>>>,
    /// During `shutdown`: where the module's answer goes.
    shut_down: Mutex<Option<mpsc::Sender<Result<(), String>>>>,
}

#[derive(Default)]
struct State {
    next_id: u64,
    /// The host's calls into the module, by id.
    running: HashMap<u64, Arc<EventSinkBox>>,
    /// Why the process is gone, once it is.
    dead: Option<String>,
}

impl Link {
    /// Reads the module's frames until its process is gone.
    fn read(self: Arc<Self>, mut inbox: Inbox) {
        while let Some(frame) = inbox.read::<ToHost>() {
            let frame = match frame {
                Ok(frame) => frame,
                Err(err) => {
                    tracing::error!(module = %self.module, "the module's process sent a {err}; stopping it");
                    self.kill();
                    break;
                }
            };
            match frame {
                ToHost::Ready { manifest, location, description } => {
                    if let Some(ready) = self.ready.lock().expect("ready").take() {
                        let _ = ready.send(Ok((manifest, location, description)));
                    }
                }
                ToHost::Failed { reason, message } => {
                    if let Some(ready) = self.ready.lock().expect("ready").take() {
                        let _ = ready.send(Err(LoadError::new(reason, message)));
                    }
                }
                ToHost::Event { id, json } => {
                    let sink = self.state.lock().expect("isolated module state").running.get(&id).cloned();
                    if let Some(sink) = sink {
                        sink.event(json.into());
                    }
                }
                ToHost::Finish { id, result } => {
                    let sink = self.state.lock().expect("isolated module state").running.remove(&id);
                    if let Some(sink) = sink {
                        sink.finish(to_ffi(result));
                    }
                }
                ToHost::HostCall { id, op, params } => self.host_call(id, &op, &params),
                ToHost::HostCancel { id } => {
                    if let Some(call) = self.host_calls.take(id) {
                        self.host.cancel(call);
                    }
                }
                ToHost::Log { level, target, message } => {
                    self.host.log(level, target.as_str().into(), message.as_str().into())
                }
                ToHost::ShutDown { result } => {
                    if let Some(done) = self.shut_down.lock().expect("shutdown").take() {
                        let _ = done.send(result);
                    }
                }
            }
        }
        self.died();
    }

    /// Starts the host operation the module asked for; its events and
    /// answer go back as frames.
    fn host_call(self: &Arc<Self>, id: u64, op: &str, params: &str) {
        self.host_calls.begin(id);
        let sink = HostCallSink { id, link: Arc::downgrade(self) };
        match self.host.call(op.into(), params.into(), EventSink_TO::from_value(sink, TD_Opaque)) {
            CallOutcome::Ready(result) => {
                self.host_calls.finished(id);
                self.outbox.send(&ToModule::HostFinish { id, result: from_ffi(result) });
            }
            CallOutcome::Pending(call) => self.host_calls.pending(id, call),
        }
    }

    /// The process is gone: say why, and fail everything it had running.
    fn died(&self) {
        let status = self.reap();
        let reason = format!("the module's process ({}) {}", self.process_name, describe_exit(status));
        let running = {
            let mut state = self.state.lock().expect("isolated module state");
            state.dead.get_or_insert_with(|| reason.clone());
            std::mem::take(&mut state.running)
        };
        self.ready.lock().expect("ready").take();
        self.shut_down.lock().expect("shutdown").take();
        if !running.is_empty() {
            tracing::error!(module = %self.module, "{reason}; its {} running call(s) failed", running.len());
        }
        let error = crash_error(&reason);
        for sink in running.into_values() {
            sink.finish(RResult::RErr(error.clone().into()));
        }
        for call in self.host_calls.drain() {
            self.host.cancel(call);
        }
    }

    /// Waits for the process to end (it closed the socket, so it is
    /// exiting), killing it if it lingers.
    fn reap(&self) -> Option<ExitStatus> {
        let mut process = self.process.lock().expect("module process");
        let deadline = Instant::now() + SHUTDOWN_GRACE;
        loop {
            match process.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                Ok(None) => {
                    let _ = process.kill();
                    return process.wait().ok();
                }
                Err(_) => return None,
            }
        }
    }

    fn kill(&self) {
        let _ = self.process.lock().expect("module process").kill();
    }

    fn dead(&self) -> Option<String> {
        self.state.lock().expect("isolated module state").dead.clone()
    }
}

/// Carries one host operation's events and answer back to the module.
struct HostCallSink {
    id: u64,
    link: std::sync::Weak<Link>,
}

impl EventSink for HostCallSink {
    fn event(&self, json: RString) {
        if let Some(link) = self.link.upgrade() {
            link.outbox.send(&ToModule::HostEvent { id: self.id, json: json.into_string() });
        }
    }

    fn finish(&self, result: RResult<RString, RString>) {
        if let Some(link) = self.link.upgrade() {
            link.host_calls.finished(self.id);
            link.outbox.send(&ToModule::HostFinish { id: self.id, result: from_ffi(result) });
        }
    }
}

/// The module, as the host's adapters see it.
struct ProcessInstance {
    link: Arc<Link>,
    description: WireResult,
}

impl PluginInstance for ProcessInstance {
    fn describe(&self) -> RResult<RString, RString> {
        to_ffi(self.description.clone())
    }

    fn start(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome {
        let id = {
            let mut state = self.link.state.lock().expect("isolated module state");
            if let Some(reason) = &state.dead {
                return CallOutcome::Ready(RResult::RErr(crash_error(reason).into()));
            }
            state.next_id += 1;
            let id = state.next_id;
            state.running.insert(id, Arc::new(sink));
            id
        };
        let start = ToModule::Start { id, op: op.as_str().to_owned(), params: params.as_str().to_owned() };
        if !self.link.outbox.send(&start) {
            self.link.state.lock().expect("isolated module state").running.remove(&id);
            let reason = self.link.dead().unwrap_or_else(|| "the module's process is gone".to_owned());
            return CallOutcome::Ready(RResult::RErr(crash_error(&reason).into()));
        }
        CallOutcome::Pending(id)
    }

    fn cancel(&self, id: u64) {
        let sink = self.link.state.lock().expect("isolated module state").running.remove(&id);
        if let Some(sink) = sink {
            self.link.outbox.send(&ToModule::Cancel { id });
            sink.finish(RResult::RErr(error_json("cancelled", "cancelled").into()));
        }
    }

    fn shutdown(&self) -> RResult<(), RString> {
        if self.link.dead().is_some() {
            return RResult::ROk(());
        }
        let (done_tx, done_rx) = mpsc::channel();
        *self.link.shut_down.lock().expect("shutdown") = Some(done_tx);
        self.link.outbox.send(&ToModule::Shutdown);
        match done_rx.recv_timeout(SHUTDOWN_GRACE) {
            Ok(Ok(())) => RResult::ROk(()),
            Ok(Err(err)) => RResult::RErr(err.into()),
            // Gone already (its calls failed with the reason), or stuck.
            Err(mpsc::RecvTimeoutError::Disconnected) => RResult::ROk(()),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.link.kill();
                let message = format!("module did not shut down within {} s; killed", SHUTDOWN_GRACE.as_secs());
                RResult::RErr(error_json("timeout", &message).into())
            }
        }
    }
}

impl Drop for ProcessInstance {
    fn drop(&mut self) {
        // The reader thread reaps it and fails what was running.
        self.link.kill();
    }
}

/// A crash as a module error, in the wire shape.
fn crash_error(reason: &str) -> String {
    ModuleError::new(ErrorKind::Crash, format!("{reason}; its calls fail for the rest of this session")).to_wire()
}

/// "was killed by SIGSEGV (segmentation fault)", "exited with status 3".
fn describe_exit(status: Option<ExitStatus>) -> String {
    let Some(status) = status else { return "ended".to_owned() };
    match (status.signal(), status.code()) {
        (Some(signal), _) => match signal_name(signal) {
            Some(name) => format!("was killed by {name}"),
            None => format!("was killed by signal {signal}"),
        },
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        (None, Some(crate::crash::EXIT_CRASH)) => {
            format!("exited with status {} (the module called exit())", crate::crash::EXIT_CRASH)
        }
        (None, Some(code)) => format!("exited with status {code}"),
        (None, None) => "ended".to_owned(),
    }
}

/// A signal's name and what it usually means (no allocation: the crash
/// handler uses it too).
pub fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGSEGV => "SIGSEGV (segmentation fault)",
        libc::SIGBUS => "SIGBUS (bus error)",
        libc::SIGILL => "SIGILL (illegal instruction)",
        libc::SIGFPE => "SIGFPE (arithmetic fault)",
        libc::SIGABRT => "SIGABRT (abort)",
        libc::SIGKILL => "SIGKILL (killed, perhaps by the out-of-memory killer)",
        libc::SIGTERM => "SIGTERM (terminated)",
        libc::SIGINT => "SIGINT (interrupted)",
        libc::SIGPIPE => "SIGPIPE (broken pipe)",
        _ => return None,
    })
}
