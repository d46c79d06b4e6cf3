//! The stable binary interface between the `amplifier` host and its cdylib plugins.
//!
//! This crate is deliberately tiny and data-shaped. Every payload crosses as JSON
//! text in abi_stable's `RString`/`RStr`; no Rust future, std collection, trait
//! object or tokio handle ever crosses. Asynchronous work uses one shape in both
//! directions (host → plugin through [`PluginInstance::start`], plugin → host
//! through [`HostApi::call`]):
//!
//! 1. the caller passes an operation name, JSON parameters and an [`EventSink`];
//! 2. the callee returns [`CallOutcome::Ready`] when the answer was available
//!    without waiting (the common case for hooks and in-memory context), or
//!    [`CallOutcome::Pending`] with a call id, and later calls `sink.finish`
//!    exactly once, after zero or more `sink.event` calls (streaming);
//! 3. the caller may `cancel(call_id)` a pending call.
//!
//! Each plugin runs its own tokio runtime, so a plugin never touches the host's
//! thread-locals (the "no reactor running" trap of tokio across dylibs).
//!
//! Versioning has three layers: the frozen [`AbiStamp`] read with libloading
//! before anything else (so a plugin from another ABI major gets a readable
//! message instead of a layout diff), abi_stable's own layout check of
//! [`PluginRoot`], and [`PROTOCOL_VERSION`] for the JSON payloads.

// abi_stable's derive and `sabi_trait` macros generate these names and impls.
#![allow(non_camel_case_types, non_local_definitions)]

pub mod bridge;

use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    package_version_strings, sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, RResult, RStr, RString},
    StableAbi,
};

/// Major version of this binary interface. Bump it on any change a plugin built
/// against the old value cannot survive; the loader refuses a mismatch.
pub const ABI_MAJOR: u32 = 1;
/// Minor version: additions that old plugins survive (new ops, new prefix fields).
pub const ABI_MINOR: u32 = 0;
/// Version of the JSON operations and payloads carried through the ABI.
pub const PROTOCOL_VERSION: u32 = 1;

/// Name of the C symbol holding the plugin's [`AbiStamp`].
pub const ABI_STAMP_SYMBOL: &[u8] = b"AMPLIFIER_PLUGIN_ABI_STAMP\0";
/// First field of every [`AbiStamp`]: tells a stamp from random memory.
pub const ABI_STAMP_MAGIC: u64 = 0x414d_504c_4946_5231; // "AMPLIFR1"

/// Frozen forever: the loader reads this plain C static before abi_stable's
/// checks, so it must never change layout, whatever else changes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbiStamp {
    pub magic: u64,
    pub abi_major: u32,
    pub abi_minor: u32,
    pub protocol: u32,
}

impl AbiStamp {
    /// The stamp of code compiled against this crate.
    pub const CURRENT: AbiStamp =
        AbiStamp { magic: ABI_STAMP_MAGIC, abi_major: ABI_MAJOR, abi_minor: ABI_MINOR, protocol: PROTOCOL_VERSION };
}

/// Module kinds a plugin may implement. Plain strings on the wire keep the
/// ABI free of enums that would need a major bump to extend.
pub mod kind {
    pub const PROVIDER: &str = "provider";
    pub const TOOL: &str = "tool";
    pub const HOOK: &str = "hook";
    pub const ORCHESTRATOR: &str = "orchestrator";
    pub const CONTEXT: &str = "context";
    pub const RESOLVER: &str = "resolver";
    pub const ALL: &[&str] = &[PROVIDER, TOOL, HOOK, ORCHESTRATOR, CONTEXT, RESOLVER];
}

/// The result of starting an operation on either side of the boundary.
#[repr(u8)]
#[derive(StableAbi, Debug)]
pub enum CallOutcome {
    /// Finished without waiting; the sink was dropped unused.
    Ready(RResult<RString, RString>),
    /// Still running: `finish` will be called on the sink exactly once.
    Pending(u64),
}

/// Receives the streamed events and the final result of one pending call.
/// Implementations must be callable from any thread.
#[sabi_trait]
pub trait EventSink: Send + Sync {
    /// One streamed JSON event (a text delta, a progress notice).
    fn event(&self, json: RString);
    /// The final result; called exactly once per pending call.
    #[sabi(last_prefix_field)]
    fn finish(&self, result: RResult<RString, RString>);
}

/// A boxed, owned [`EventSink`] trait object.
pub type EventSinkBox = EventSink_TO<'static, RBox<()>>;

/// Services the host offers to a plugin instance (the "kernel service"):
/// logging, and JSON operations such as `hooks.emit`, `provider.complete`,
/// `tool.execute` and `context.*` (listed in the kernel's `host_ops` module).
#[sabi_trait]
pub trait HostApi: Send + Sync {
    /// Forwards one log record into the host's tracing subscriber.
    /// `level`: 1 error, 2 warn, 3 info, 4 debug, 5 trace.
    fn log(&self, level: u8, target: RStr<'_>, message: RStr<'_>);
    /// Starts a host operation.
    fn call(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome;
    /// Cancels a pending host operation.
    #[sabi(last_prefix_field)]
    fn cancel(&self, call_id: u64);
}

/// A boxed, owned [`HostApi`] trait object.
pub type HostApiBox = HostApi_TO<'static, RBox<()>>;

/// One mounted module inside a plugin.
#[sabi_trait]
pub trait PluginInstance: Send + Sync {
    /// Static description as JSON: tool specs, provider info, hook subscriptions.
    fn describe(&self) -> RResult<RString, RString>;
    /// Starts an operation (`execute`, `complete`, `handle`, `add_message`…).
    fn start(&self, op: RStr<'_>, params: RStr<'_>, sink: EventSinkBox) -> CallOutcome;
    /// Cancels a pending operation; a no-op when it already finished.
    fn cancel(&self, call_id: u64);
    /// Releases the instance's resources (the module's cleanup).
    #[sabi(last_prefix_field)]
    fn shutdown(&self) -> RResult<(), RString>;
}

/// A boxed, owned [`PluginInstance`] trait object.
pub type PluginInstanceBox = PluginInstance_TO<'static, RBox<()>>;

/// The root module every plugin exports (through `amplifier_sdk::export_module!`).
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginRoot_Ref)))]
#[sabi(missing_field(panic))]
pub struct PluginRoot {
    /// The plugin's stamp, repeated inside the checked root module.
    pub stamp: extern "C" fn() -> AbiVersionInfo,
    /// JSON: `{name, version, kinds[], sdk_version, description}`.
    pub manifest: extern "C" fn() -> RString,
    /// Creates one instance of `kind` with its JSON config. Never unwinds:
    /// a panic comes back as `RErr`.
    #[sabi(last_prefix_field)]
    pub instantiate:
        extern "C" fn(kind: RStr<'_>, config: RStr<'_>, host: HostApiBox) -> RResult<PluginInstanceBox, RString>,
}

/// An FFI-safe copy of [`AbiStamp`] for use inside the checked root module.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbiVersionInfo {
    pub abi_major: u32,
    pub abi_minor: u32,
    pub protocol: u32,
}

impl RootModule for PluginRoot_Ref {
    declare_root_module_statics! {PluginRoot_Ref}
    const BASE_NAME: &'static str = "amplifier_plugin";
    const NAME: &'static str = "amplifier_plugin";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}
