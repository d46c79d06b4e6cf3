//! Plugin logs reach the host's subscriber.
//!
//! `tracing`'s global dispatcher is per dylib, so a plugin's `tracing::info!`
//! would go nowhere. On first instantiate the SDK installs a small subscriber
//! that forwards each event through `HostApi::log`, and a panic hook that
//! reports panics the same way (the panic itself is caught and becomes an error).

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use amplifier_abi::HostApiBox;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

static INSTALLED: OnceLock<()> = OnceLock::new();

/// Installs the forwarding subscriber and panic hook once per plugin.
pub(crate) fn install(host: Arc<HostApiBox>, max_level: Level) {
    INSTALLED.get_or_init(|| {
        let forwarder = Forwarder { host: host.clone(), max_level };
        let _ = tracing::subscriber::set_global_default(forwarder);
        std::panic::set_hook(Box::new(move |info| {
            let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            host.log(1, "panic".into(), format!("plugin panicked{location}: {payload}").as_str().into());
        }));
    });
}

pub(crate) fn level_from_name(name: &str) -> Level {
    match name {
        "error" => Level::ERROR,
        "warn" => Level::WARN,
        "debug" => Level::DEBUG,
        "trace" => Level::TRACE,
        _ => Level::INFO,
    }
}

fn level_number(level: &Level) -> u8 {
    match *level {
        Level::ERROR => 1,
        Level::WARN => 2,
        Level::INFO => 3,
        Level::DEBUG => 4,
        Level::TRACE => 5,
    }
}

struct Forwarder {
    host: Arc<HostApiBox>,
    max_level: Level,
}

#[derive(Default)]
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.0, "{value:?}");
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.push_str(value);
        } else {
            let _ = write!(self.0, " {}={value}", field.name());
        }
    }
}

impl Subscriber for Forwarder {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.level() <= &self.max_level
    }

    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        // Spans are not forwarded; events carry their own fields.
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut message = Message::default();
        event.record(&mut message);
        let metadata = event.metadata();
        self.host.log(level_number(metadata.level()), metadata.target().into(), message.0.as_str().into());
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}
