//! The module's side of `isolation: process`: `amplifier isolated-module`.
//!
//! Started by the host with its end of a Unix socket as stdin and the
//! host's stderr as stdout. It moves the socket aside (so a module reading
//! stdin or printing can't touch the frames), mounts the one module the
//! `init` frame names through the loader's own code, and then serves the
//! host's calls until `shutdown`, or until the host is gone.

use std::collections::HashMap;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr, RString};
use amplifier_abi::bridge::{error_json, from_ffi, to_ffi};
use amplifier_abi::{CallOutcome, EventSink, EventSinkBox, EventSink_TO, HostApi, HostApi_TO, PluginInstanceBox};
use amplifier_kernel::loading::{LoadError, LoadReason};
use amplifier_kernel::ops::host::log;
use amplifier_kernel::ops::Op;

use super::wire::{Code, Inbox, Outbox, Relayed, ToHost, ToModule};
use crate::{builtin, library};

/// Serves one module; returns the process's exit status.
pub fn serve() -> i32 {
    let stream = match take_channel() {
        Ok(stream) => stream,
        Err(err) => {
            eprintln!(
                "error: amplifier {}: stdin is not a module socket ({err})\n\
                 hint: amplifier starts this command itself for a module mounted with `isolation: process`",
                super::SUBCOMMAND
            );
            return 2;
        }
    };
    let outbox = match stream.try_clone().and_then(|stream| Outbox::start(stream, "amplifier-host-out")) {
        Ok(outbox) => outbox,
        Err(err) => {
            eprintln!("error: amplifier {}: {err}", super::SUBCOMMAND);
            return 1;
        }
    };
    let mut inbox = Inbox::new(stream);
    let Some(Ok(ToModule::Init { code, module, field_path, kind, config, log_level })) = inbox.read::<ToModule>()
    else {
        return 2;
    };
    let host =
        Arc::new(RemoteHost { outbox: outbox.clone(), calls: Mutex::default(), next_id: AtomicU64::new(0), log_level });
    let api = HostApi_TO::from_value(RemoteHostApi(host.clone()), TD_Opaque);
    let instance = match mount(code, &module, &field_path, &kind, &config, api) {
        Ok((instance, manifest, location)) => {
            let description = from_ffi(instance.describe());
            outbox.send(&ToHost::Ready { manifest, location, description });
            instance
        }
        Err(err) => {
            outbox.send(&ToHost::Failed { reason: err.reason, message: err.message });
            outbox.flush(Duration::from_secs(5));
            return 1;
        }
    };
    let running = Relayed::default();
    while let Some(frame) = inbox.read::<ToModule>() {
        let Ok(frame) = frame else { break };
        match frame {
            ToModule::Start { id, op, params } => {
                running.begin(id);
                let sink = ForwardSink { id, outbox: outbox.clone(), running: running.clone() };
                match instance.start(
                    op.as_str().into(),
                    params.as_str().into(),
                    EventSink_TO::from_value(sink, TD_Opaque),
                ) {
                    CallOutcome::Ready(result) => {
                        running.finished(id);
                        outbox.send(&ToHost::Finish { id, result: from_ffi(result) });
                    }
                    CallOutcome::Pending(call) => running.pending(id, call),
                }
            }
            ToModule::Cancel { id } => {
                if let Some(call) = running.take(id) {
                    instance.cancel(call);
                }
            }
            ToModule::HostEvent { id, json } => host.event(id, json),
            ToModule::HostFinish { id, result } => host.finish(id, result),
            ToModule::Shutdown => {
                let result = instance.shutdown().into_result().map_err(RString::into_string);
                outbox.send(&ToHost::ShutDown { result });
                break;
            }
            ToModule::Init { .. } => break,
        }
    }
    // Shut down (again, harmlessly, after `shutdown`) so the module's
    // cleanups run even when the host vanished, but never hang on it.
    std::thread::spawn(|| {
        std::thread::sleep(super::SHUTDOWN_GRACE);
        // SAFETY: _exit ends the process at once.
        unsafe { libc::_exit(0) }
    });
    let _ = instance.shutdown();
    outbox.flush(super::SHUTDOWN_GRACE);
    // The module's runtime threads and its libraries' destructors are
    // not run: what they would do at exit is no longer anyone's business,
    // and a destructor that crashed would be reported as a crash.
    // SAFETY: _exit ends the process at once.
    unsafe { libc::_exit(0) }
}

/// Moves the socket off stdin (to a close-on-exec descriptor, so a
/// command a tool runs doesn't inherit it) and puts /dev/null there.
fn take_channel() -> std::io::Result<UnixStream> {
    // SAFETY: fcntl, open, dup2 and close on descriptors this process owns;
    // the duplicate is owned by the returned stream alone.
    let stream = unsafe {
        let fd = libc::fcntl(libc::STDIN_FILENO, libc::F_DUPFD_CLOEXEC, 3);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        if null >= 0 {
            libc::dup2(null, libc::STDIN_FILENO);
            libc::close(null);
        }
        UnixStream::from(OwnedFd::from_raw_fd(fd))
    };
    stream.local_addr()?;
    Ok(stream)
}

/// Opens the module's code and instantiates it, with the checks and the
/// messages of an in-process load.
fn mount(
    code: Code,
    module: &str,
    at: &str,
    kind: &str,
    config: &str,
    host: amplifier_abi::HostApiBox,
) -> Result<(PluginInstanceBox, String, String), LoadError> {
    let entry_point = |message: String| LoadError::new(LoadReason::InvalidEntryPoint, format!("{at}: {message}"));
    let (root, location) = match code {
        Code::Library(path) => {
            let library = library::open(&path, module).map_err(|err| entry_point(err.to_string()))?;
            (library.root, library.path.display().to_string())
        }
        Code::Builtin(name) => {
            let found = builtin::find(&name).ok_or_else(|| entry_point(format!("no built-in module '{name}'")))?;
            ((found.root)(), "built-in".to_owned())
        }
    };
    let exported = library::exported_manifest(&root, module, &location).map_err(|err| entry_point(err.to_string()))?;
    crate::check_exports(at, module, &location, &exported, kind)?;
    let instance = (root.instantiate())(kind.into(), config.into(), host)
        .into_result()
        .map_err(|err| crate::refused_to_mount(at, module, err.as_str()))?;
    Ok((instance, (root.manifest())().into_string(), location))
}

/// Carries one call's events and answer to the host.
struct ForwardSink {
    id: u64,
    outbox: Outbox,
    running: Relayed,
}

impl EventSink for ForwardSink {
    fn event(&self, json: RString) {
        self.outbox.send(&ToHost::Event { id: self.id, json: json.into_string() });
    }

    fn finish(&self, result: RResult<RString, RString>) {
        self.running.finished(self.id);
        self.outbox.send(&ToHost::Finish { id: self.id, result: from_ffi(result) });
    }
}

/// The host, as the module sees it from its process.
struct RemoteHost {
    outbox: Outbox,
    calls: Mutex<HashMap<u64, Arc<EventSinkBox>>>,
    next_id: AtomicU64,
    /// The host's answer to `log.level`.
    log_level: Option<String>,
}

impl RemoteHost {
    fn event(&self, id: u64, json: String) {
        let sink = self.calls.lock().expect("host calls").get(&id).cloned();
        if let Some(sink) = sink {
            sink.event(json.into());
        }
    }

    fn finish(&self, id: u64, result: Result<String, String>) {
        let sink = self.calls.lock().expect("host calls").remove(&id);
        if let Some(sink) = sink {
            sink.finish(to_ffi(result));
        }
    }
}

struct RemoteHostApi(Arc<RemoteHost>);

impl HostApi for RemoteHostApi {
    fn log(&self, level: u8, target: RStr<'_>, message: RStr<'_>) {
        let (target, message) = (target.as_str().to_owned(), message.as_str().to_owned());
        self.0.outbox.send(&ToHost::Log { level, target, message });
    }

    fn call(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome {
        if let (log::Level::NAME, Some(level)) = (op.as_str(), &self.0.log_level) {
            return CallOutcome::Ready(RResult::ROk(level.as_str().into()));
        }
        let id = self.0.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        self.0.calls.lock().expect("host calls").insert(id, Arc::new(sink));
        let call = ToHost::HostCall { id, op: op.as_str().to_owned(), params: params.as_str().to_owned() };
        if !self.0.outbox.send(&call) {
            self.0.calls.lock().expect("host calls").remove(&id);
            return CallOutcome::Ready(RResult::RErr(error_json("unavailable", "the host is gone").into()));
        }
        CallOutcome::Pending(id)
    }

    fn cancel(&self, id: u64) {
        let sink = self.0.calls.lock().expect("host calls").remove(&id);
        if let Some(sink) = sink {
            self.0.outbox.send(&ToHost::HostCancel { id });
            sink.finish(RResult::RErr(error_json("cancelled", "cancelled").into()));
        }
    }
}
