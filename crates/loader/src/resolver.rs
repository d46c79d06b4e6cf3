//! Where module code comes from: a chain of `ModuleSourceResolver`s.
//!
//! Order (first answer wins; `NotFound` passes to the next):
//! 1. a resolver plugin the plan mounts at `module-source-resolver`;
//! 2. `AMPLIFIER_MODULE_<ID>` (the id upper-cased, `-` → `_`): a path;
//! 3. the plan's `source` (relative to the plan file);
//! 4. installed modules: each directory of `AMPLIFIER_MODULES` (`:`-separated),
//!    then `$AMPLIFIER_HOME/modules`, as `<dir>/<id>/` or `<dir>/<id>/<version>/`.
//!
//! A path may name a built library or a plugin crate directory. `git+…`
//! sources are resolved by [`crate::git::GitSource`], between 2 and 3.

use std::path::{Path, PathBuf};

use amplifier_kernel::traits::{
    BoxFuture, ModuleSourceResolver, ResolveError, ResolveRequest, ResolvedModule, ResolvedSource,
};

use crate::manifest::Manifest;

/// Classifies a path as a library or a crate directory.
pub fn classify(path: &Path) -> Option<ResolvedSource> {
    if path.is_file() {
        let is_library =
            path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(std::env::consts::DLL_SUFFIX));
        return is_library.then(|| ResolvedSource::Library { path: path.to_owned() });
    }
    if path.join("Cargo.toml").is_file() {
        return Some(ResolvedSource::Crate { path: path.to_owned() });
    }
    // A module directory whose amplifier.toml names a prebuilt artifact: the
    // loader checks the artifact's sha256 instead of building.
    if Manifest::read_dir(path).ok().flatten().is_some_and(|m| m.artifact().is_some()) {
        return Some(ResolvedSource::Crate { path: path.to_owned() });
    }
    // An installed module: a directory holding its built library.
    let library = std::fs::read_dir(path).ok()?.flatten().map(|e| e.path()).find(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(std::env::consts::DLL_PREFIX) && n.ends_with(std::env::consts::DLL_SUFFIX))
    })?;
    Some(ResolvedSource::Library { path: library })
}

fn resolved(path: &Path, resolver: &str, origin: String) -> Result<ResolvedModule, ResolveError> {
    let canonical = path.canonicalize();
    let path = canonical.as_deref().unwrap_or(path);
    if let Some(source) = classify(path) {
        return Ok(ResolvedModule { source, resolver: resolver.to_owned(), origin });
    }
    if let Some(manifest) = Manifest::read_dir(path).ok().flatten().filter(|m| !m.artifacts.is_empty()) {
        return Err(ResolveError::Failed(format!(
            "{origin}: {} has prebuilt libraries for {}, none for this machine ({}), and no crate to build from",
            path.display(),
            manifest.artifact_targets(),
            crate::manifest::host_platform()
        )));
    }
    if !path.exists() {
        return Err(ResolveError::Failed(format!("{origin}: {} does not exist", path.display())));
    }
    Err(ResolveError::Failed(format!(
        "{origin}: {} is neither a module library ({}) nor a plugin crate (no Cargo.toml)",
        path.display(),
        std::env::consts::DLL_SUFFIX
    )))
}

/// `AMPLIFIER_MODULE_<ID>=path` overrides everything in the plan.
pub struct EnvOverride;

impl EnvOverride {
    pub fn variable(module_id: &str) -> String {
        format!("AMPLIFIER_MODULE_{}", module_id.to_uppercase().replace(['-', '.'], "_"))
    }
}

impl ModuleSourceResolver for EnvOverride {
    fn name(&self) -> &str {
        "env"
    }

    fn resolve<'a>(&'a self, request: &'a ResolveRequest) -> BoxFuture<'a, Result<ResolvedModule, ResolveError>> {
        let variable = Self::variable(&request.module_id);
        Box::pin(async move {
            let Some(value) = std::env::var_os(&variable) else {
                return Err(ResolveError::NotFound);
            };
            resolved(Path::new(&value), "env", variable)
        })
    }
}

/// The plan's `source:` for the module.
pub struct PlanSource;

impl ModuleSourceResolver for PlanSource {
    fn name(&self) -> &str {
        "plan"
    }

    fn resolve<'a>(&'a self, request: &'a ResolveRequest) -> BoxFuture<'a, Result<ResolvedModule, ResolveError>> {
        Box::pin(async move {
            let Some(source) = request.source_hint.as_deref() else {
                return Err(ResolveError::NotFound);
            };
            if source.starts_with("git+") {
                // Handled by `git::GitSource`, earlier in the chain.
                return Err(ResolveError::NotFound);
            }
            let path = Path::new(source.strip_prefix("file://").unwrap_or(source));
            let path = match (&request.base_dir, path.is_relative()) {
                (Some(base), true) => base.join(path),
                _ => path.to_owned(),
            };
            resolved(&path, "plan", format!("source '{source}'"))
        })
    }
}

/// Modules installed under the module directories.
pub struct Installed {
    dirs: Vec<PathBuf>,
}

impl Installed {
    /// `AMPLIFIER_MODULES` entries first, then `<home>/modules`.
    pub fn new(amplifier_home: &Path) -> Self {
        let mut dirs: Vec<PathBuf> =
            std::env::var_os("AMPLIFIER_MODULES").map(|v| std::env::split_paths(&v).collect()).unwrap_or_default();
        dirs.push(amplifier_home.join("modules"));
        Installed { dirs }
    }

    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }
}

/// The highest version directory under `dir` (`1.10.0` > `1.9.2`).
fn newest_version(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_owned();
            name.chars().next()?.is_ascii_digit().then_some((name, p))
        })
        .max_by(|a, b| crate::manifest::version_order(&a.0, &b.0))
        .map(|(_, p)| p)
}

impl ModuleSourceResolver for Installed {
    fn name(&self) -> &str {
        "installed"
    }

    fn resolve<'a>(&'a self, request: &'a ResolveRequest) -> BoxFuture<'a, Result<ResolvedModule, ResolveError>> {
        Box::pin(async move {
            for dir in &self.dirs {
                let module_dir = dir.join(&request.module_id);
                if !module_dir.is_dir() {
                    continue;
                }
                let candidate = newest_version(&module_dir).unwrap_or(module_dir);
                let origin = format!("installed at {}", candidate.display());
                return resolved(&candidate, "installed", origin);
            }
            Err(ResolveError::NotFound)
        })
    }
}
