//! The JSON contract between the host and its modules ("module protocol v1").
//!
//! Serde types only: no I/O, no runtime, no dylib knowledge, so both the host
//! and every plugin can depend on it without weight. Field names are upstream
//! Amplifier's; [`ops`] lists the operations each side may start and their
//! parameter shapes.

pub mod capabilities;
pub mod config;
pub mod errors;
pub mod events;
pub mod models;
pub mod ops;
pub mod paths;
pub mod repair;
pub mod runs;

pub use errors::{ErrorKind, ModuleError};
