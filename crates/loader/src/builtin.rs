//! Modules linked into the host binary: the last resolver of the chain.
//!
//! The `amplifier` binary links the standard modules (`plugins/`) and
//! registers them here once at start ([`register`]); a loader made by a
//! program that registers none (a test, the benchmarks) has none. A built-in
//! module is the same crate as its cdylib, compiled with the SDK's `builtin`
//! feature: the loader takes its root from a function instead of a library,
//! and everything after that (the manifest and config checks, `instantiate`,
//! the SDK's entry points with their panic catching, the adapters) is the
//! path a library takes.

use std::sync::OnceLock;

use amplifier_abi::PluginRoot_Ref;
use amplifier_kernel::traits::{
    BoxFuture, ModuleSourceResolver, ResolveError, ResolveRequest, ResolvedModule, ResolvedSource,
};

use crate::manifest::{Manifest, ManifestError};

/// One module linked into the binary.
#[derive(Clone, Copy)]
pub struct BuiltinModule {
    /// The module id a plan names it by (`loop-basic`).
    pub name: &'static str,
    /// Its `amplifier.toml`, as text.
    pub manifest: &'static str,
    /// Its root: what a library exports through `export_module!`.
    pub root: fn() -> PluginRoot_Ref,
}

impl std::fmt::Debug for BuiltinModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinModule").field("name", &self.name).finish_non_exhaustive()
    }
}

impl BuiltinModule {
    /// The parsed `amplifier.toml`; the registry's test checks every one parses.
    pub fn manifest(&self) -> Result<Manifest, ManifestError> {
        Manifest::parse(self.manifest, format!("amplifier.toml of built-in module {}", self.name).into())
    }

    pub fn version(&self) -> String {
        self.manifest().map(|m| m.module.version).unwrap_or_else(|_| "?".into())
    }
}

static REGISTERED: OnceLock<&'static [BuiltinModule]> = OnceLock::new();

/// Makes `modules` the built-in modules of every loader in this process.
/// The first call wins; later ones are ignored.
pub fn register(modules: &'static [BuiltinModule]) {
    let _ = REGISTERED.set(modules);
}

/// The registered built-in modules (none when nothing registered any).
pub fn all() -> &'static [BuiltinModule] {
    REGISTERED.get().copied().unwrap_or_default()
}

/// The built-in module named `name`.
pub fn find(name: &str) -> Option<&'static BuiltinModule> {
    all().iter().find(|module| module.name == name)
}

/// Answers for the modules linked into the binary, after every other resolver.
pub struct Builtin;

impl ModuleSourceResolver for Builtin {
    fn name(&self) -> &str {
        "builtin"
    }

    fn resolve<'a>(&'a self, request: &'a ResolveRequest) -> BoxFuture<'a, Result<ResolvedModule, ResolveError>> {
        Box::pin(async move {
            let module = find(&request.module_id).ok_or(ResolveError::NotFound)?;
            Ok(ResolvedModule {
                source: ResolvedSource::Builtin { name: module.name.to_owned() },
                resolver: "builtin".to_owned(),
                origin: format!("built into amplifier {}", env!("CARGO_PKG_VERSION")),
            })
        })
    }
}
