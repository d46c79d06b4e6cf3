//! The plugin's own tokio runtime.
//!
//! Every cdylib links its own copy of tokio, with its own thread-local
//! "current runtime". Code in a plugin that used the host's runtime would
//! panic with "there is no reactor running" (tokio#5966), so each plugin
//! starts a small runtime of its own on first use and enters it for every
//! call the host makes.

use std::sync::OnceLock;

use tokio::runtime::Runtime;

static RUNTIME: OnceLock<Runtime> = OnceLock::new();

/// The plugin's runtime, started on first use.
pub fn runtime() -> &'static Runtime {
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("amplifier-plugin")
            .enable_all()
            .build()
            .expect("start the plugin's tokio runtime")
    })
}
