//! Write amplifier modules (tools, providers, hooks, orchestrators, context
//! managers) as cdylib plugins that the `amplifier` host loads.
//!
//! A module is a crate of type `cdylib` that depends on this one by version:
//!
//! ```toml
//! [package]
//! name = "tool-shout"
//! version = "0.1.0"
//! edition = "2021"
//!
//! [lib]
//! crate-type = ["cdylib"]
//!
//! [dependencies]
//! amplifier-sdk = "0.1"
//! serde = { version = "1", features = ["derive"] }
//!
//! [dev-dependencies]
//! amplifier-sdk = { version = "0.1", features = ["testing"] }
//! ```
//!
//! with an `amplifier.toml` beside it (the module's name, kinds and the
//! JSON Schema of its config; `amplifier module new` writes one) and its
//! code: implement one of the traits with ordinary `async fn`s, write a
//! mount function, export it, and test it in-process with [`testing`]:
//!
//! ```no_run
//! use amplifier_sdk::prelude::*;
//! use serde::Deserialize;
//!
//! /// The module's config, as the plan gives it (checked against the
//! /// schema in amplifier.toml first).
//! #[derive(Deserialize)]
//! struct Config {
//!     #[serde(default)]
//!     suffix: String,
//! }
//!
//! struct Shout {
//!     suffix: String,
//! }
//!
//! impl Tool for Shout {
//!     fn spec(&self) -> ToolSpec {
//!         ToolSpec::new(
//!             "shout",
//!             "Returns `text` in capitals",
//!             json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
//!         )
//!     }
//!
//!     async fn execute(&self, input: Value) -> ToolResult {
//!         match input["text"].as_str() {
//!             Some(text) => ToolResult::ok(format!("{}{}", text.to_uppercase(), self.suffix)),
//!             None => ToolResult::error("InvalidInput", "`text` must be a string"),
//!         }
//!     }
//! }
//!
//! fn mount(ctx: MountContext) -> ModuleResult<Tools> {
//!     let config: Config = ctx.config()?;
//!     Ok(Tools::new().with(Shout { suffix: config.suffix }))
//! }
//!
//! export_module!(tool => mount);
//!
//! #[cfg(test)]
//! mod tests {
//!     use amplifier_sdk::testing::{block_on, TestHost};
//!
//!     use super::*;
//!
//!     #[test]
//!     fn shouts() {
//!         let tools = TestHost::new().mount(mount, json!({"suffix": "!"})).unwrap();
//!         let result = block_on(tools.call("shout", json!({"text": "hi"})));
//!         assert_eq!(result.output, Some(json!("HI!")));
//!     }
//! }
//! # fn main() {}
//! ```
//!
//! Then `cargo test`, `amplifier module validate .` (the black-box check of
//! the built library against its kind's contract) and, in a plan,
//! `tools: [{module: tool-shout, source: ./tool-shout}]`. The guide:
//! `docs/modules/writing.md` in the amplifier repository.
//!
//! The SDK owns everything about the boundary: a tokio runtime per plugin
//! (the host's runtime can't be used from a dylib), panics caught at every
//! entry point and returned as errors, `tracing` events forwarded to the
//! host's subscriber, and JSON (de)serialisation of every payload.
//!
//! # Versions
//!
//! The SDK's version follows the plugin ABI ([`ABI_MAJOR`]): while it is
//! 0.x, its minor number is the ABI major, so every `0.1.x` speaks ABI 1,
//! and from 1.0 on its major number will be the ABI major. Within one such
//! series, releases only add (host operations, optional fields, helpers): a
//! module built with any of them loads in every host of that ABI, older or
//! newer. A change the ABI cannot absorb bumps the ABI major and with it the
//! SDK to the next series; a host refuses a module of another ABI major
//! with a message naming both, before running any of its code. So a module
//! asks for the series (`amplifier-sdk = "0.1"`), never an exact version.
//!
//! Until the SDK is published on crates.io, the `amplifier` binary carries
//! its source and builds modules against it; `amplifier module new` puts a
//! copy in the new crate, patched in by its `.cargo/config.toml`.

mod callbacks;
mod event;
mod host;
mod logging;
mod module;
pub mod provider_events;
mod runtime;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod tool_name;
pub mod trace;

use std::future::Future;

pub use amplifier_abi::ABI_MAJOR;
pub use amplifier_protocol::models::{self, *};
pub use amplifier_protocol::ops::{
    self, ContextView, HookOutcome, ProviderDescriptor, RequestView, ResolveRequest, ResolvedModule, ResolvedSource,
    SessionInfo, Subscription,
};
pub use amplifier_protocol::{capabilities, events, paths, runs, ErrorKind, ModuleError};
pub use event::EventData;
pub use host::Host;
pub use module::{MountContext, Stream, ToolDispatcher, Tools};
pub use runtime::runtime;
pub use serde_json::{json, Value};

/// The agent a child session runs, read from the kernel's child id scheme
/// `{parent-span16}-{child-span16}_{agent}`; `None` for a top-level session.
pub fn agent_of(session_id: &str) -> Option<&str> {
    let bytes = session_id.as_bytes();
    (bytes.len() > 34 && bytes[16] == b'-' && bytes[33] == b'_').then(|| &session_id[34..])
}

/// Result of a module operation.
pub type ModuleResult<T> = Result<T, ModuleError>;

/// Everything a module author usually needs.
pub mod prelude {
    pub use crate::models::*;
    pub use crate::{
        event_data, export_module, json, ContextManager, ContextView, ErrorKind, EventData, HookHandler, Host,
        ModuleError, ModuleResult, MountContext, Orchestrator, Provider, RequestView, ResolveRequest, ResolvedModule,
        ResolvedSource, Resolver, Stream, Subscription, Tool, ToolDispatcher, Tools, Value,
    };
}

/// Event data from a `json!({..})` object (anything else is empty data).
pub fn event_data(value: Value) -> models::JsonMap {
    match value {
        Value::Object(map) => map,
        _ => models::JsonMap::new(),
    }
}

/// A tool: a named capability with a JSON Schema for its input.
///
/// The host validates input against [`ToolSpec::parameters`] before `execute`
/// is called, so `execute` sees only schema-valid input.
pub trait Tool: Send + Sync + 'static {
    fn spec(&self) -> ToolSpec;
    /// Failures are `ToolResult::error(..)`, which the model reads.
    fn execute(&self, input: Value) -> impl Future<Output = ToolResult> + Send;
    /// Whether `execute` may block its thread (`std::fs`, a blocking
    /// client, a long computation). Then, the default, each call starts on
    /// the plugin's runtime and never holds the caller's thread. A tool that
    /// only awaits, or answers at once, says `false`: its call is first
    /// polled on the caller's thread, which saves two thread hops when it
    /// answers at once. A tool that says `false` and blocks anyway holds up
    /// the agent loop, and Ctrl-C with it.
    fn may_block(&self) -> bool {
        true
    }
}

/// An LLM backend.
pub trait Provider: Send + Sync + 'static {
    fn info(&self) -> ProviderInfo;
    fn list_models(&self) -> impl Future<Output = ModuleResult<Vec<ModelInfo>>> + Send {
        async { Ok(Vec::new()) }
    }
    /// One completion. When `stream.is_enabled()`, send deltas through it as they arrive.
    fn complete(&self, request: ChatRequest, stream: Stream)
        -> impl Future<Output = ModuleResult<ChatResponse>> + Send;
    /// Whether `complete` and `list_models` may block their thread: as
    /// [`Tool::may_block`].
    fn may_block(&self) -> bool {
        true
    }
}

/// Observes (and may deny, modify, inject into or ask about) kernel events.
pub trait HookHandler: Send + Sync + 'static {
    /// Events to receive: exact names, prefix patterns (`tool:*`) or `*`.
    fn subscriptions(&self) -> Vec<Subscription>;
    fn handle(&self, event: &str, data: JsonMap) -> impl Future<Output = ModuleResult<HookResult>> + Send;
    /// What the SDK calls for each event: its data as the host sent it,
    /// parsed only when read (see [`EventData`]). The default parses it
    /// for [`handle`](Self::handle). A hook that reads little of what it
    /// gets, or forwards the text as it is, overrides this instead, and
    /// writes `handle` as a call of it (`self.handle_event(event, data.into())`).
    fn handle_event(&self, event: &str, data: EventData) -> impl Future<Output = ModuleResult<HookResult>> + Send {
        self.handle(event, data.into_map())
    }
}

/// Conversation memory.
pub trait ContextManager: Send + Sync + 'static {
    fn add_message(&self, message: Message) -> impl Future<Output = ModuleResult<()>> + Send;
    /// The full history.
    fn get_messages(&self) -> impl Future<Output = ModuleResult<Vec<Message>>> + Send;
    /// A view fit for one request; must not change the stored history.
    fn get_messages_for_request(&self, view: RequestView) -> impl Future<Output = ModuleResult<Vec<Message>>> + Send;
    /// The same view as what changed since `request.since`, for a
    /// provider's copy of it. A context whose history only grows between
    /// views should answer deltas (see `amplifier-context-core`); this
    /// default answers the whole view every time, which is correct but
    /// sends the history with every request.
    fn sync_view(&self, request: ops::ContextSyncView) -> impl Future<Output = ModuleResult<ops::ViewDelta>> + Send {
        async move { Ok(ops::ViewDelta::full(self.get_messages_for_request(request.view).await?)) }
    }
    /// The full history as what changed since `request.since`, for the
    /// host's session recorder; as [`sync_view`](Self::sync_view), the
    /// default answers all of it every time.
    fn sync_messages(
        &self,
        _request: ops::ContextSyncMessages,
    ) -> impl Future<Output = ModuleResult<ops::ViewDelta>> + Send {
        async move { Ok(ops::ViewDelta::full(self.get_messages().await?)) }
    }
    fn set_messages(&self, messages: Vec<Message>) -> impl Future<Output = ModuleResult<()>> + Send;
    fn clear(&self) -> impl Future<Output = ModuleResult<()>> + Send;
}

/// The agent loop. It reaches providers, tools, hooks and context through
/// the [`Host`] it was given at mount.
pub trait Orchestrator: Send + Sync + 'static {
    fn execute(&self, prompt: String) -> impl Future<Output = ModuleResult<String>> + Send;
}

/// Finds module code (mounted from the plan's `session.resolver`, asked
/// before the built-in resolvers). `Ok(None)` means "not mine": the host goes
/// on with its own chain (`AMPLIFIER_MODULE_<ID>`, the plan's `source`,
/// installed modules). An `Err` stops the chain with that error.
pub trait Resolver: Send + Sync + 'static {
    fn resolve(&self, request: ResolveRequest) -> impl Future<Output = ModuleResult<Option<ResolvedModule>>> + Send;
}

/// Implementation details used by [`export_module!`]; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::module::{
        erase_context, erase_hook, erase_orchestrator, erase_provider, erase_resolver, erase_tools, instantiate,
        manifest_json, MountFn,
    };
    pub use abi_stable::library::{__call_root_module_loader, CheckTypeLayout, LibHeader, RootModuleResult};
    pub use abi_stable::prefix_type::PrefixTypeTrait;
    pub use abi_stable::std_types::{RResult, RStr, RString};
    pub use amplifier_abi::{AbiStamp, AbiVersionInfo, HostApiBox, PluginInstanceBox, PluginRoot, PluginRoot_Ref};

    /// The symbol abi_stable's loader looks for (what `#[export_root_module]`
    /// would generate; spelled out so plugins need no direct abi_stable dependency).
    pub const ROOT_MODULE_LOADER_SYMBOL: &str = "_1as_0lib_1header_0root_bmodule_bloader";

    pub extern "C" fn stamp() -> AbiVersionInfo {
        AbiVersionInfo {
            abi_major: amplifier_abi::ABI_MAJOR,
            abi_minor: amplifier_abi::ABI_MINOR,
            protocol: amplifier_abi::PROTOCOL_VERSION,
        }
    }
}

/// Exports a plugin: one `kind => mount_fn` pair per module kind it provides.
///
/// Mount functions take a [`MountContext`] and return, by kind:
/// `tool` → [`Tools`]; `provider` → `impl Provider`; `hook` → `impl HookHandler`;
/// `context` → `impl ContextManager`; `orchestrator` → `impl Orchestrator`;
/// `resolver` → `impl Resolver`.
///
/// The macro defines `amplifier_plugin_root()`, the module's root (what the
/// host calls), and, unless the SDK's `builtin` feature is on, the two
/// symbols a host looks up in a dynamic library.
#[macro_export]
macro_rules! export_module {
    ($($kind:ident => $mount:path),+ $(,)?) => {
        /// The module's root: its stamp, manifest and mount entry point. A
        /// host that links this crate (a built-in module) calls it directly.
        #[doc(hidden)]
        pub fn amplifier_plugin_root() -> $crate::__private::PluginRoot_Ref {
            extern "C" fn manifest() -> $crate::__private::RString {
                $crate::__private::manifest_json(
                    env!("CARGO_PKG_NAME"),
                    env!("CARGO_PKG_VERSION"),
                    &[$(stringify!($kind)),+],
                )
                .into()
            }
            extern "C" fn instantiate(
                kind: $crate::__private::RStr<'_>,
                config: $crate::__private::RStr<'_>,
                host: $crate::__private::HostApiBox,
            ) -> $crate::__private::RResult<$crate::__private::PluginInstanceBox, $crate::__private::RString> {
                $crate::__private::instantiate(
                    env!("CARGO_PKG_NAME"),
                    kind.as_str(),
                    config.as_str(),
                    host,
                    &[$((stringify!($kind), &|ctx| $crate::export_module!(@erase $kind, $mount, ctx))),+],
                )
            }
            static ROOT: ::std::sync::OnceLock<$crate::__private::PluginRoot_Ref> = ::std::sync::OnceLock::new();
            *ROOT.get_or_init(|| {
                use $crate::__private::PrefixTypeTrait;
                $crate::__private::PluginRoot { stamp: $crate::__private::stamp, manifest, instantiate }
                    .leak_into_prefix()
            })
        }

        $crate::__export_library_symbols!();
    };
    (@erase tool, $mount:path, $ctx:ident) => { Ok($crate::__private::erase_tools($mount($ctx)?)) };
    (@erase provider, $mount:path, $ctx:ident) => {{
        let host = $ctx.host.clone();
        Ok($crate::__private::erase_provider($mount($ctx)?, host))
    }};
    (@erase hook, $mount:path, $ctx:ident) => { Ok($crate::__private::erase_hook($mount($ctx)?)) };
    (@erase context, $mount:path, $ctx:ident) => { Ok($crate::__private::erase_context($mount($ctx)?)) };
    (@erase orchestrator, $mount:path, $ctx:ident) => { Ok($crate::__private::erase_orchestrator($mount($ctx)?)) };
    (@erase resolver, $mount:path, $ctx:ident) => { Ok($crate::__private::erase_resolver($mount($ctx)?)) };
}

/// The symbols a host looks up when it opens the module as a library.
#[cfg(not(feature = "builtin"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __export_library_symbols {
    () => {
        /// Read by the host before anything else, so a plugin built for another
        /// ABI gets a readable refusal.
        #[no_mangle]
        pub static AMPLIFIER_PLUGIN_ABI_STAMP: $crate::__private::AbiStamp = $crate::__private::AbiStamp::CURRENT;

        #[no_mangle]
        #[allow(non_upper_case_globals)]
        pub static _1as_0lib_1header_0root_bmodule_bloader: $crate::__private::LibHeader = {
            extern "C" fn erased() -> $crate::__private::RootModuleResult {
                $crate::__private::__call_root_module_loader(amplifier_plugin_root)
            }
            // SAFETY: `amplifier_plugin_root` builds the `PluginRoot_Ref` this
            // header describes, and the loader checks its layout (`CheckTypeLayout::Yes`).
            unsafe {
                $crate::__private::LibHeader::from_constructor::<$crate::__private::PluginRoot_Ref>(
                    erased,
                    $crate::__private::CheckTypeLayout::Yes,
                )
            }
        };
    };
}

/// Built into the host (the `builtin` feature): `#[no_mangle]` symbols of
/// several modules linked into one binary would collide, and the host calls
/// `amplifier_plugin_root` directly.
#[cfg(feature = "builtin")]
#[doc(hidden)]
#[macro_export]
macro_rules! __export_library_symbols {
    () => {};
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_agent_comes_from_a_child_id() {
        assert_eq!(super::agent_of("0123456789abcdef-fedcba9876543210_writer"), Some("writer"));
        assert_eq!(super::agent_of("0123456789abcdef-fedcba9876543210_qa_2"), Some("qa_2"));
        assert_eq!(super::agent_of("9a1f7c3e-0000-4000-8000-000000000000"), None);
    }

    /// The versioning policy of the crate docs: `0.<ABI major>.x`.
    #[test]
    fn the_sdk_version_names_the_abi_major() {
        let version = env!("CARGO_PKG_VERSION");
        let mut parts = version.split('.');
        let series = match parts.next() {
            Some("0") => parts.next(),
            major => major,
        };
        assert_eq!(series, Some(super::ABI_MAJOR.to_string().as_str()), "amplifier-sdk {version}");
    }

    #[test]
    fn root_module_symbol_is_abi_stables() {
        assert_eq!(super::__private::ROOT_MODULE_LOADER_SYMBOL, abi_stable::library::ROOT_MODULE_LOADER_NAME);
    }
}
