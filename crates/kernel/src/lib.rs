//! The amplifier kernel.
//!
//! **Architecture invariant:** this crate knows nothing of dynamic libraries,
//! files, processes or the network. It defines the data models, the module
//! traits, the hook registry, the coordinator (mount points, capabilities,
//! contribution channels, cleanups, cancellation) and the session lifecycle.
//! Loading modules is delegated to a [`loading::ModuleLoader`] that the host
//! supplies; everything a module does reaches the kernel through the traits in
//! [`traits`].

pub use amplifier_protocol::{capabilities, errors, events, models, ops};

pub mod cancellation;
pub mod coordinator;
pub mod hooks;
pub mod loading;
pub mod plan;
pub mod services;
pub mod session;
pub mod spawn;
mod tool_call;
pub mod traits;

pub use cancellation::{CancelState, CancellationToken};
pub use coordinator::Coordinator;
pub use errors::{ErrorKind, ModuleError};
pub use hooks::{HookEvent, HookRegistry};
pub use session::Session;

/// A boxed future; the kernel's traits spell their futures out (no
/// `async_trait`) so their signatures say exactly what is boxed.
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;
/// What a module call returns.
pub type ModuleResult<T> = Result<T, ModuleError>;
/// Receives streamed JSON events (text deltas, tool-call deltas) while a call runs.
pub type StreamSink = std::sync::Arc<dyn Fn(serde_json::Value) + Send + Sync>;

/// The current UTC time as RFC 3339, the kernel's one timestamp format.
pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}
