//! The frames the host and an isolated module's process exchange: one JSON
//! object per line over a Unix socket. They carry the ABI's own calls
//! (`start`, `cancel`, `shutdown`, and the `HostApi`'s `call`, `cancel`,
//! `log`) with their JSON payloads as strings, so an isolated module speaks
//! exactly the operations an in-process one does.
//!
//! Each side writes from one thread fed by a queue ([`Outbox`]), so a
//! reader never waits on a full socket: two processes each blocked writing
//! to the other would deadlock.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::sync::{mpsc, Arc, Mutex};

use serde::{Deserialize, Serialize};

use amplifier_abi::bridge::WireResult;

/// Where the module's code is, for the child to open.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    Library(std::path::PathBuf),
    Builtin(String),
}

/// From the host to the module's process.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToModule {
    /// The first frame: open `code`, check it exports `kind`, instantiate it.
    /// `log_level` is the host's answer to `log.level`, which the module
    /// asks as it mounts and is then answered without a round trip.
    Init {
        code: Code,
        module: String,
        field_path: String,
        kind: String,
        config: String,
        log_level: Option<String>,
    },
    /// `PluginInstance::start`, under the host's call id.
    Start {
        id: u64,
        op: String,
        params: String,
    },
    Cancel {
        id: u64,
    },
    /// `PluginInstance::shutdown`; the process exits after answering.
    Shutdown,
    /// A streamed event of the host operation the module started as `id`.
    HostEvent {
        id: u64,
        json: String,
    },
    HostFinish {
        id: u64,
        result: WireResult,
    },
}

/// From the module's process to the host.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToHost {
    /// Mounted: what the library exports about itself and `describe()`.
    Ready {
        manifest: String,
        location: String,
        description: WireResult,
    },
    /// Could not mount; `reason` is the loader's `LoadReason`.
    Failed {
        reason: amplifier_kernel::loading::LoadReason,
        message: String,
    },
    Event {
        id: u64,
        json: String,
    },
    Finish {
        id: u64,
        result: WireResult,
    },
    /// `HostApi::call`, under the module's call id.
    HostCall {
        id: u64,
        op: String,
        params: String,
    },
    HostCancel {
        id: u64,
    },
    Log {
        level: u8,
        target: String,
        message: String,
    },
    ShutDown {
        result: Result<(), String>,
    },
}

/// The writing half of a channel: frames are queued, and one thread writes them.
#[derive(Clone)]
pub struct Outbox(mpsc::Sender<Out>);

enum Out {
    Frame(Vec<u8>),
    /// Answered once every frame queued before it is written.
    Flush(mpsc::Sender<()>),
}

impl Outbox {
    /// Starts the writer thread on `stream`; it ends when every `Outbox`
    /// clone is dropped or the peer is gone.
    pub fn start(mut stream: UnixStream, name: &str) -> std::io::Result<Outbox> {
        let (tx, rx) = mpsc::channel::<Out>();
        std::thread::Builder::new().name(name.to_owned()).spawn(move || {
            for out in rx {
                match out {
                    Out::Frame(frame) => {
                        if stream.write_all(&frame).is_err() {
                            break;
                        }
                    }
                    Out::Flush(done) => {
                        let _ = done.send(());
                    }
                }
            }
            let _ = stream.shutdown(std::net::Shutdown::Write);
        })?;
        Ok(Outbox(tx))
    }

    /// Queues `frame`; false once the writer has stopped.
    pub fn send(&self, frame: &impl Serialize) -> bool {
        let Ok(mut line) = serde_json::to_vec(frame) else { return false };
        line.push(b'\n');
        self.0.send(Out::Frame(line)).is_ok()
    }

    /// Waits (at most `limit`) until everything queued so far is written.
    pub fn flush(&self, limit: std::time::Duration) {
        let (done_tx, done_rx) = mpsc::channel();
        if self.0.send(Out::Flush(done_tx)).is_ok() {
            let _ = done_rx.recv_timeout(limit);
        }
    }
}

/// Calls one side starts for the other (the host's calls into the module
/// in the child, the module's calls into the host in the host): the
/// peer's id → this side's call id, once the call is pending. The entry
/// exists from before the call starts, so a call that finishes before
/// `start` returns is never recorded as pending.
#[derive(Clone, Default)]
pub struct Relayed(Arc<Mutex<HashMap<u64, Option<u64>>>>);

impl Relayed {
    fn calls(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Option<u64>>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Before starting the peer's call `id`.
    pub fn begin(&self, id: u64) {
        self.calls().insert(id, None);
    }

    /// Call `id` is pending as `call`, unless it finished already.
    pub fn pending(&self, id: u64, call: u64) {
        if let Some(slot) = self.calls().get_mut(&id) {
            *slot = Some(call);
        }
    }

    /// Call `id` is over (answered, or refused at once).
    pub fn finished(&self, id: u64) {
        self.calls().remove(&id);
    }

    /// Forgets call `id`; its call id when it is pending, to cancel.
    pub fn take(&self, id: u64) -> Option<u64> {
        self.calls().remove(&id).flatten()
    }

    /// Forgets every call; the pending ones' call ids.
    pub fn drain(&self) -> Vec<u64> {
        self.calls().drain().filter_map(|(_, call)| call).collect()
    }
}

/// The reading half: frames one line at a time.
pub struct Inbox(BufReader<UnixStream>);

impl Inbox {
    pub fn new(stream: UnixStream) -> Self {
        Inbox(BufReader::new(stream))
    }

    /// The next frame; `None` at the end of the stream. A line that is not
    /// a frame is an error (the peer is not an amplifier module process).
    pub fn read<T: for<'de> Deserialize<'de>>(&mut self) -> Option<Result<T, String>> {
        let mut line = String::new();
        match self.0.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(serde_json::from_str(&line).map_err(|err| format!("malformed frame ({err})"))),
        }
    }
}
