//! Resolves, builds and loads amplifier modules as cdylib plugins.
//!
//! **Architecture invariant:** this is the only crate that knows about
//! dynamic libraries and cargo. It implements the kernel's `ModuleLoader`:
//! resolve the module's source (see [`resolver`] and [`git`]), build a crate
//! into the cache (see [`builder`]), record what it resolved to for
//! `amplifier.lock` (see [`lockfile`]), check `amplifier.toml`, fill in its
//! config defaults and check the config schema before running any of the
//! module's code, open the library with the version handshake (see
//! [`library`]), instantiate the module with a `HostApi` of its own, and wrap
//! it in the kernel's traits (see [`adapters`]).

pub mod adapters;
pub mod builder;
pub mod builtin;
mod config;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub mod crash;
pub mod git;
pub mod host_service;
pub mod index;
#[cfg(unix)]
pub mod isolation;
pub mod library;
pub mod lockfile;
pub mod manifest;
pub mod package;
pub mod resolver;
pub mod sdk_source;
pub mod toml_file;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use amplifier_kernel::loading::{
    HookSubscription, LoadError, LoadReason, LoadedModule, ModuleLoader, Mounted, SessionReady,
};
use amplifier_kernel::ops::{HookDescription, Lifecycle, ProviderDescription, ToolDescription};
use amplifier_kernel::plan::{Isolation, ModuleKind, ModuleSpec};
use amplifier_kernel::traits::{
    BoxFuture, ModuleSourceResolver, ResolveError, ResolveRequest, ResolvedModule, ResolvedSource, Tool,
};
use amplifier_kernel::Coordinator;

use crate::adapters::{
    PluginContext, PluginHook, PluginModule, PluginOrchestrator, PluginProvider, PluginResolver, PluginTool,
};
pub use crate::builder::Builder;
use crate::manifest::{HostArtifact, Manifest};
pub use amplifier_models::amplifier_home;

/// The host's module loader: the resolver chain, the build cache and the dylib loader.
pub struct DylibLoader {
    /// Directory relative `source`s are resolved against (the plan's directory).
    base_dir: Option<PathBuf>,
    resolvers: Vec<Arc<dyn ModuleSourceResolver>>,
    builder: Builder,
    git: Arc<git::GitCache>,
    /// With `--locked`: the lock and this plan's key in it.
    locked: Option<(lockfile::Lockfile, String)>,
    record: lockfile::Recorder,
    /// The `amplifier` binary that runs modules mounted with
    /// `isolation: process` (this process's own executable by default).
    module_process: Option<PathBuf>,
    /// Refuse an unknown config key instead of warning and dropping it.
    strict: bool,
}

impl DylibLoader {
    pub fn new(base_dir: Option<PathBuf>, amplifier_home: &Path) -> Self {
        let git = Arc::new(git::GitCache::new(amplifier_home));
        DylibLoader {
            base_dir,
            resolvers: vec![
                Arc::new(resolver::EnvOverride),
                Arc::new(git::GitSource::new(git.clone())),
                Arc::new(resolver::PlanSource),
                Arc::new(resolver::Installed::new(amplifier_home)),
                Arc::new(builtin::Builtin),
            ],
            builder: Builder::new(amplifier_home),
            git,
            locked: None,
            record: lockfile::Recorder::default(),
            module_process: std::env::current_exe().ok(),
            strict: false,
        }
    }

    /// `--strict`: an unknown config key fails the module's load.
    pub fn set_strict(&mut self, strict: bool) {
        self.strict = strict;
    }

    /// The `amplifier` binary to run `isolation: process` modules with:
    /// for a program (a test, a benchmark) that is not one itself.
    pub fn set_module_process(&mut self, program: PathBuf) {
        self.module_process = Some(program);
    }

    /// Never touch the network: git refs resolve from the cache, cargo runs `--offline`.
    pub fn set_offline(&mut self, offline: bool) {
        self.git.set_offline(offline);
        self.builder.offline = offline;
    }

    /// Refuse (in `load`, before a module's library is opened) any module
    /// whose resolution differs from `lock`'s entry for it in plan `plan`.
    pub fn set_locked(&mut self, lock: lockfile::Lockfile, plan: String) {
        self.locked = Some((lock, plan));
    }

    /// What each module loaded so far resolved to, for `amplifier.lock`.
    pub fn resolutions(&self) -> Vec<lockfile::Resolution> {
        self.record.resolutions()
    }

    /// With `set_locked`: every difference from the lock found while loading.
    pub fn lock_violations(&self) -> Vec<String> {
        self.record.violations()
    }

    pub fn builder_mut(&mut self) -> &mut Builder {
        &mut self.builder
    }

    /// Finds a module's code: a resolver plugin first (when the plan mounts
    /// one), then the built-in chain. A `path` answer comes back classified
    /// (a library or a crate), never as `ResolvedSource::Path`.
    pub async fn resolve(
        &self,
        spec: &ModuleSpec,
        coordinator: Option<&Arc<Coordinator>>,
    ) -> Result<ResolvedModule, LoadError> {
        let request = ResolveRequest {
            module_id: spec.module.clone(),
            source_hint: spec.source.clone(),
            base_dir: self.base_dir.clone(),
        };
        let mounted = coordinator.and_then(|c| c.resolver());
        for resolver in mounted.iter().chain(self.resolvers.iter()) {
            match resolver.resolve(&request).await {
                Ok(found) => return classified(found, spec),
                Err(ResolveError::NotFound) => continue,
                Err(ResolveError::Failed(message)) => {
                    return Err(LoadError::new(LoadReason::MissingSource, format!("{}: {message}", spec.field_path)))
                }
            }
        }
        Err(LoadError::new(
            LoadReason::MissingSource,
            format!(
                "{}: module '{}' not found: the plan gives no `source`, {} is not set, it is not installed, \
                 and it is not built into amplifier.\n\
                 hint: add `source: ./path/to/the/module/crate` to {}, or name a module `amplifier module list` shows",
                spec.field_path,
                spec.module,
                resolver::EnvOverride::variable(&spec.module),
                spec.field_path
            ),
        ))
    }

    /// Resolves and (if needed) builds a module; returns its code and manifest.
    pub async fn prepare(
        &self,
        spec: &ModuleSpec,
        coordinator: Option<&Arc<Coordinator>>,
    ) -> Result<(ModuleCode, Option<Manifest>), LoadError> {
        self.prepare_found(spec, coordinator).await.map(|(_, code, manifest)| (code, manifest))
    }

    /// Resolves and builds a module without opening it, and says what it
    /// resolved to (source, commit, library sha256): what `amplifier.lock` records.
    pub async fn resolution(
        &self,
        kind: ModuleKind,
        spec: &ModuleSpec,
        coordinator: Option<&Arc<Coordinator>>,
    ) -> Result<(lockfile::Resolution, ModuleCode, Option<Manifest>), LoadError> {
        let (found, code, manifest) = self.prepare_found(spec, coordinator).await?;
        let at = &spec.field_path;
        let mut artifact = None;
        let (source, commit, sha256) = match &code {
            // A built-in module is identified by the binary's version and its manifest.
            ModuleCode::Builtin(module) => {
                let identity = format!("{} {} {}", module.name, env!("CARGO_PKG_VERSION"), module.manifest);
                ("builtin".to_owned(), None, lockfile::sha256_hex(identity.as_bytes()))
            }
            ModuleCode::Library { library, source, prebuilt } => {
                let sha256 = match prebuilt {
                    Some(sha256) => {
                        artifact = Some(manifest::HOST_TARGET.to_owned());
                        sha256.clone()
                    }
                    None => lockfile::library_sha256(library, self.builder.cache_dir())
                        .map_err(|err| LoadError::new(LoadReason::InvalidPackageLayout, format!("{at}: {err}")))?,
                };
                match found.resolver.as_str() {
                    "git" => (found.origin.clone(), self.git.commit_of(source), sha256),
                    _ => (lockfile::portable_path(source, self.base_dir.as_deref()), None, sha256),
                }
            }
        };
        let resolution = lockfile::Resolution {
            name: spec.module.clone(),
            kind: kind.as_str().to_owned(),
            field_path: spec.field_path.clone(),
            source,
            commit,
            sha256,
            artifact,
        };
        Ok((resolution, code, manifest))
    }

    async fn prepare_found(
        &self,
        spec: &ModuleSpec,
        coordinator: Option<&Arc<Coordinator>>,
    ) -> Result<(ResolvedModule, ModuleCode, Option<Manifest>), LoadError> {
        let found = self.resolve(spec, coordinator).await?;
        let at = &spec.field_path;
        let (source, manifest_dir) = match &found.source {
            ResolvedSource::Builtin { name } => {
                let module = builtin::find(name).ok_or_else(|| {
                    LoadError::new(LoadReason::MissingSource, format!("{at}: no built-in module '{name}'"))
                })?;
                let manifest = module
                    .manifest()
                    .map_err(|err| LoadError::new(LoadReason::InvalidModuleMetadata, format!("{at}: {err}")))?;
                return Ok((found, ModuleCode::Builtin(module), Some(manifest)));
            }
            ResolvedSource::Path { .. } => unreachable!("resolve() classifies every path"),
            // A library's manifest sits beside it; a crate's in its directory.
            ResolvedSource::Library { path } => (path.clone(), path.parent().map(Path::to_owned).unwrap_or_default()),
            ResolvedSource::Crate { path } => (path.clone(), path.clone()),
        };
        let manifest = Manifest::read_dir(&manifest_dir)
            .map_err(|err| LoadError::new(LoadReason::InvalidModuleMetadata, format!("{at}: {err}")))?;
        let (library, prebuilt) = match &found.source {
            ResolvedSource::Crate { path } => match prebuilt_artifact(at, manifest.as_ref())? {
                Some((artifact, sha256)) => (artifact, Some(sha256)),
                None => {
                    let builder = self.builder.clone();
                    let crate_dir = path.clone();
                    let library = tokio::task::spawn_blocking(move || builder.library_for(&crate_dir))
                        .await
                        .map_err(|err| LoadError::new(LoadReason::Unknown, format!("build task failed: {err}")))?
                        .map_err(|err| LoadError::new(LoadReason::BuildFailed, format!("{at}: {err}")))?;
                    (library, None)
                }
            },
            _ => (source.clone(), None),
        };
        Ok((found, ModuleCode::Library { library, source, prebuilt }, manifest))
    }
}

/// `found` with a `path` answer classified as a library or a crate.
fn classified(found: ResolvedModule, spec: &ModuleSpec) -> Result<ResolvedModule, LoadError> {
    let ResolvedSource::Path { path } = &found.source else { return Ok(found) };
    let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
    match resolver::classify(&canonical) {
        Some(source) => Ok(ResolvedModule { source, ..found }),
        None => Err(LoadError::new(
            LoadReason::MissingSource,
            format!(
                "{}: resolver '{}' answered {} for module '{}', which is neither a module library, \
                 a plugin crate nor an installed module directory",
                spec.field_path,
                found.resolver,
                canonical.display(),
                spec.module
            ),
        )),
    }
}

impl DylibLoader {
    /// Opens the module's code in this process and instantiates it.
    fn instantiate(
        &self,
        kind: ModuleKind,
        spec: &ModuleSpec,
        code: &ModuleCode,
        config: &str,
        host: amplifier_abi::HostApiBox,
    ) -> Result<(amplifier_abi::PluginInstanceBox, library::ExportedManifest, String), LoadError> {
        let at = &spec.field_path;
        let entry_point = |message: String| LoadError::new(LoadReason::InvalidEntryPoint, format!("{at}: {message}"));
        let (root, exported, location) = match code {
            ModuleCode::Library { library: path, .. } => {
                let library = library::open(path, &spec.module).map_err(|err| entry_point(err.to_string()))?;
                (library.root, library.manifest.clone(), library.path.display().to_string())
            }
            ModuleCode::Builtin(module) => {
                let root = (module.root)();
                let exported = library::exported_manifest(&root, &spec.module, "built-in")
                    .map_err(|err| entry_point(err.to_string()))?;
                (root, exported, "built-in".to_owned())
            }
        };
        check_exports(at, &spec.module, &location, &exported, kind.as_str())?;
        let instance = (root.instantiate())(kind.as_str().into(), config.into(), host)
            .into_result()
            .map_err(|err| refused_to_mount(at, &spec.module, err.as_str()))?;
        Ok((instance, exported, location))
    }

    /// Starts the module in a process of its own (`isolation: process`).
    async fn spawn_isolated(
        &self,
        kind: ModuleKind,
        spec: &ModuleSpec,
        code: &ModuleCode,
        config: String,
        host: amplifier_abi::HostApiBox,
    ) -> Result<(amplifier_abi::PluginInstanceBox, library::ExportedManifest, String), LoadError> {
        let at = &spec.field_path;
        #[cfg(unix)]
        {
            let program = self.module_process.clone().ok_or_else(|| {
                LoadError::new(
                    LoadReason::Unknown,
                    format!("{at}: `isolation: process` needs the amplifier binary, and its path is unknown"),
                )
            })?;
            let launch = isolation::Launch {
                program,
                code: match code {
                    ModuleCode::Library { library, .. } => isolation::wire::Code::Library(library.clone()),
                    ModuleCode::Builtin(module) => isolation::wire::Code::Builtin(module.name.to_owned()),
                },
                module: spec.module.clone(),
                field_path: at.clone(),
                kind: kind.as_str(),
                config,
            };
            let spawned = tokio::task::spawn_blocking(move || isolation::spawn(launch, host))
                .await
                .map_err(|err| LoadError::new(LoadReason::Unknown, format!("{at}: {err}")))??;
            Ok((spawned.instance, spawned.exported, spawned.location))
        }
        #[cfg(not(unix))]
        {
            let _ = (kind, code, config, host);
            Err(LoadError::new(LoadReason::ValidationFailed, format!("{at}.isolation: `process` needs a Unix host")))
        }
    }
}

/// Refuses code that does not export the kind the plan mounts it as.
fn check_exports(
    at: &str,
    module: &str,
    location: &str,
    exported: &library::ExportedManifest,
    kind: &str,
) -> Result<(), LoadError> {
    if exported.kinds.iter().any(|k| k == kind) {
        return Ok(());
    }
    Err(LoadError::new(
        LoadReason::InvalidEntryPoint,
        format!("{at}: module '{module}' ({location}) exports kinds [{}], not {kind}", exported.kinds.join(", ")),
    ))
}

/// A module's `instantiate` said no (`err` in the wire shape).
fn refused_to_mount(at: &str, module: &str, err: &str) -> LoadError {
    let err = amplifier_kernel::ModuleError::from_wire(err);
    LoadError::new(LoadReason::ValidationFailed, format!("{at}: module '{module}' refused to mount: {}", err.message))
}

/// A resolved module's code.
#[derive(Debug, Clone)]
pub enum ModuleCode {
    /// A library (built, prebuilt or given) to open, and the path it was
    /// resolved from (the crate directory, or the library itself);
    /// `prebuilt` is the sha256 of a prebuilt library, already checked
    /// against its manifest (so nothing hashes it again).
    Library { library: PathBuf, source: PathBuf, prebuilt: Option<String> },
    /// A module linked into this binary.
    Builtin(&'static builtin::BuiltinModule),
}

/// The prebuilt library a module directory's `amplifier.toml` names for
/// this host and its sha256, once that matched; `None` when it names none
/// (the crate is built).
fn prebuilt_artifact(at: &str, manifest: Option<&Manifest>) -> Result<Option<(PathBuf, String)>, LoadError> {
    let Some(HostArtifact { library: artifact, sha256: expected }) = manifest.and_then(Manifest::artifact) else {
        return Ok(None);
    };
    let actual = lockfile::sha256_file(&artifact)
        .map_err(|err| LoadError::new(LoadReason::InvalidPackageLayout, format!("{at}: prebuilt artifact: {err}")))?;
    if actual != expected {
        return Err(LoadError::new(
            LoadReason::ValidationFailed,
            format!(
                "{at}: checksum mismatch for the prebuilt artifact {}: amplifier.toml says sha256 = {expected}, the file has {actual}",
                artifact.display()
            ),
        ));
    }
    Ok(Some((artifact, actual)))
}

impl ModuleLoader for DylibLoader {
    fn prepare<'a>(&'a self, modules: &'a [&'a ModuleSpec]) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let mut crates = Vec::new();
            for spec in modules {
                if let Ok(ResolvedModule { source: ResolvedSource::Crate { path }, .. }) =
                    self.resolve(spec, None).await
                {
                    // A module with a prebuilt artifact is not built.
                    if Manifest::read_dir(&path).ok().flatten().is_none_or(|m| m.artifact().is_none()) {
                        crates.push(path);
                    }
                }
            }
            // Built-in modules and libraries need no build, and no thread.
            if crates.is_empty() {
                return;
            }
            let builder = self.builder.clone();
            let _ = tokio::task::spawn_blocking(move || builder.prebuild(&crates)).await;
        })
    }

    fn load<'a>(
        &'a self,
        kind: ModuleKind,
        spec: &'a ModuleSpec,
        coordinator: &'a Arc<Coordinator>,
    ) -> BoxFuture<'a, Result<LoadedModule, LoadError>> {
        Box::pin(async move {
            let (resolution, code, manifest) = self.resolution(kind, spec, Some(coordinator)).await?;
            let at = &spec.field_path;
            if let Some((lock, plan)) = &self.locked {
                if let Err(difference) = lock.check(plan, &resolution) {
                    self.record.violation(difference.to_string());
                    return Err(LoadError::new(LoadReason::ValidationFailed, format!("{difference} (--locked)")));
                }
            }
            // What the module receives: the plan's config and, for each key
            // it leaves out, the manifest's default (built-in or library alike).
            let mut config = spec.config.clone();
            let mut warnings = Vec::new();
            if let Some(manifest) = &manifest {
                if !manifest.module.kinds.iter().any(|k| k == kind.as_str()) {
                    return Err(LoadError::new(
                        LoadReason::InvalidModuleMetadata,
                        format!(
                            "{at}: module '{}' is mounted as a {kind}, but its {} says kinds = [{}]",
                            spec.module,
                            manifest.path.display(),
                            manifest.module.kinds.join(", ")
                        ),
                    ));
                }
                warnings = config::configure(spec, &mut config, manifest, self.strict)?;
            }
            let (host, caller) = host_service::HostService::new_api(
                coordinator,
                spec.mount_name(),
                kind,
                tokio::runtime::Handle::current(),
            );
            let config = serde_json::to_string(&config).unwrap_or_else(|_| "{}".to_owned());
            let (instance, exported, location) = match spec.isolation {
                Isolation::InProcess => self.instantiate(kind, spec, &code, &config, host)?,
                Isolation::Process => self.spawn_isolated(kind, spec, &code, config, host).await?,
            };
            tracing::info!(module = %spec.module, at = %at, code = %location, isolation = %spec.isolation, "loaded");
            // The plan's id is what the lock, `-v` and the events call the
            // module; code that calls itself something else is likely the
            // wrong crate or library, so say so (loudly, not fatally: a plan
            // may deliberately name a fork by its own id).
            if exported.name != spec.module {
                tracing::warn!(
                    "{at}: the plan names module '{}', but its code ({location}) is '{}'",
                    spec.module,
                    exported.name
                );
            }
            let module = PluginModule::new(instance, spec.mount_name().to_owned());
            caller.bind(&module);
            let described = |err: amplifier_kernel::ModuleError| {
                LoadError::new(LoadReason::InvalidEntryPoint, format!("{at}: {}", err.message))
            };
            let description = module.description().map_err(described)?;
            let lifecycle: Lifecycle = module.read_description(&description).map_err(described)?;
            let mounted = match kind {
                ModuleKind::Tool => {
                    let description: ToolDescription = module.read_description(&description).map_err(described)?;
                    Mounted::Tools(
                        description
                            .tools
                            .into_iter()
                            .map(|spec| Arc::new(PluginTool::new(module.clone(), spec)) as Arc<dyn Tool>)
                            .collect(),
                    )
                }
                ModuleKind::Provider => {
                    let description: ProviderDescription = module.read_description(&description).map_err(described)?;
                    Mounted::Provider(Arc::new(PluginProvider::new(
                        module.clone(),
                        description.info,
                        description.syncs_context,
                    )))
                }
                ModuleKind::Hook => {
                    let description: HookDescription = module.read_description(&description).map_err(described)?;
                    let handler = Arc::new(PluginHook::new(module.clone()));
                    Mounted::Hooks(
                        description
                            .subscriptions
                            .into_iter()
                            .map(|s| HookSubscription {
                                event: s.event,
                                priority: s.priority,
                                name: s.name,
                                handler: handler.clone(),
                            })
                            .collect(),
                    )
                }
                ModuleKind::Context => Mounted::Context(Arc::new(PluginContext::new(module.clone()))),
                ModuleKind::Orchestrator => Mounted::Orchestrator(Arc::new(PluginOrchestrator::new(module.clone()))),
                ModuleKind::Resolver => Mounted::Resolver(Arc::new(PluginResolver::new(module.clone()))),
            };
            self.record.loaded(resolution);
            let session_ready = lifecycle.session_ready.then(|| {
                let module = module.clone();
                Box::new(move || Box::pin(async move { module.session_ready().await }) as BoxFuture<'static, _>)
                    as SessionReady
            });
            Ok(LoadedModule {
                mounted,
                cleanup: Some(Box::new(move || Box::pin(async move { module.shutdown() }))),
                session_ready,
                warnings,
            })
        })
    }
}
