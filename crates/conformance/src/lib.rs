//! The checks of `amplifier module validate`: a module against its contract.
//!
//! The module is built with the loader's [`Builder`], opened with the
//! version handshake of [`library`], and mounted through [`DylibLoader`], so
//! it is checked exactly as a session would load it (this file: the
//! pipeline). Then its kind's contract is exercised, one file per kind: a
//! tool is executed on a minimal valid input generated from its schema and
//! on an invalid one (`tool`, with the values from `schema`), a provider
//! completes a minimal request (`provider`), a hook answers every event it
//! subscribes to with typical, empty and malformed data (`hook`), a context
//! round-trips, clears, replaces and compacts its history (`context`), an
//! orchestrator runs a prompt in a session with the scripted provider and
//! context-simple (`orchestrator`), and a resolver answers "not found" for an
//! unknown module (`resolver`).
//!
//! Each check has a name (upstream Amplifier's where one exists), a
//! severity and a message; the module passes when no `error` check fails.
//! Every check that runs module code has a time limit.
//!
//! The orchestrator checks run the two helper modules built into the
//! program (`provider-scripted` and `context-simple`, registered with
//! `amplifier_loader::builtin::register`), named without a `source` so the
//! loader's chain finds them as it finds any module a plan names by name.
//! `AMPLIFIER_VALIDATE_PROVIDER` and `AMPLIFIER_VALIDATE_CONTEXT` (a crate
//! directory or a library) override them; a program that registered no
//! built-in modules needs them. Nothing here depends on where the program
//! was built.

mod context;
mod hook;
mod orchestrator;
mod provider;
mod resolver;
mod schema;
mod tool;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use amplifier_kernel::loading::{LoadError, LoadedModule, ModuleLoader, Mounted};
use amplifier_kernel::models::JsonMap;
use amplifier_kernel::plan::{ModuleKind, ModuleSpec, MountPlan, SessionSettings};
use amplifier_kernel::traits::ResolvedSource;
use amplifier_kernel::{Coordinator, ErrorKind, ModuleError};
use amplifier_loader::host_service::HostService;
use amplifier_loader::manifest::{Manifest, MANIFEST_FILE};
use amplifier_loader::{library, resolver as loader_resolver, Builder, DylibLoader};
use serde::Serialize;
use serde_json::Value;

use crate::schema::invalid_config;
pub use crate::schema::minimal_instance;

/// Time a single check may take (a module that hangs fails the check).
const CHECK_TIMEOUT: Duration = Duration::from_secs(60);
/// Time an orchestrator run may take.
const RUN_TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One named check. A passed check has severity `info` (as upstream's); a
/// failed one the severity of the problem.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub name: String,
    pub passed: bool,
    pub severity: Severity,
    pub message: String,
}

/// Upstream's `ValidationResult` shape: `{module_type, module_path, passed, checks}`.
#[derive(Debug, Clone, Serialize)]
pub struct ValidationReport {
    pub module_type: String,
    pub module_path: String,
    /// No check of severity `error` failed.
    pub passed: bool,
    pub checks: Vec<Check>,
}

impl ValidationReport {
    /// How many checks of `severity` failed.
    pub fn failed(&self, severity: Severity) -> usize {
        self.checks.iter().filter(|c| !c.passed && c.severity == severity).count()
    }
}

pub struct ValidateOptions {
    /// The kind to validate as; inferred from `amplifier.toml`, else from the
    /// directory name's prefix, when absent.
    pub kind: Option<ModuleKind>,
    /// Add the longer runs (a tool loop, 1,000 messages, concurrency).
    pub behavioral: bool,
    pub amplifier_home: PathBuf,
}

/// Why validation could not start (a usage problem, not a failed check).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ValidateError(pub String);

#[derive(Default)]
struct Checks(Vec<Check>);

impl Checks {
    fn pass(&mut self, name: &str, message: impl Into<String>) {
        self.0.push(Check { name: name.to_owned(), passed: true, severity: Severity::Info, message: message.into() });
    }

    fn fail(&mut self, name: &str, severity: Severity, message: impl Into<String>) {
        self.0.push(Check { name: name.to_owned(), passed: false, severity, message: message.into() });
    }

    /// `Ok(message)` passes; `Err(message)` fails with `severity`.
    fn record(&mut self, name: &str, severity: Severity, outcome: Result<String, String>) {
        match outcome {
            Ok(message) => self.pass(name, message),
            Err(message) => self.fail(name, severity, message),
        }
    }
}

/// The kind a directory name suggests (`tool-echo` → tool, `loop-basic` → orchestrator).
pub fn kind_from_name(name: &str) -> Option<ModuleKind> {
    const PREFIXES: &[(&str, ModuleKind)] = &[
        ("provider-", ModuleKind::Provider),
        ("tool-", ModuleKind::Tool),
        ("hooks-", ModuleKind::Hook),
        ("hook-", ModuleKind::Hook),
        ("loop-", ModuleKind::Orchestrator),
        ("orchestrator-", ModuleKind::Orchestrator),
        ("context-", ModuleKind::Context),
        ("resolver-", ModuleKind::Resolver),
    ];
    PREFIXES.iter().find(|(prefix, _)| name.starts_with(prefix)).map(|(_, kind)| *kind)
}

/// Runs a future with the check time limit.
async fn timed<T>(limit: Duration, future: impl Future<Output = T>) -> Result<T, String> {
    tokio::time::timeout(limit, future).await.map_err(|_| format!("did not answer within {}s", limit.as_secs()))
}

fn preview(value: &impl Serialize) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    if text.chars().count() <= 60 {
        return text;
    }
    let cut: String = text.chars().take(57).collect();
    format!("{cut}…")
}

fn is_panic(err: &ModuleError) -> bool {
    err.kind == ErrorKind::Panic
}

/// Validates the module at `path` (a plugin crate, a built library, or an
/// installed module directory).
pub async fn validate(path: &Path, options: &ValidateOptions) -> Result<ValidationReport, ValidateError> {
    let shown = path.display().to_string();
    let canonical = path.canonicalize().map_err(|err| ValidateError(format!("{shown}: {err}")))?;
    let source = loader_resolver::classify(&canonical).ok_or_else(|| {
        ValidateError(format!(
            "{shown} is neither a plugin crate (no Cargo.toml), a module library ({}) nor a directory holding one",
            std::env::consts::DLL_SUFFIX
        ))
    })?;
    let (manifest_dir, library_given) = match &source {
        ResolvedSource::Crate { path } => (path.clone(), None),
        ResolvedSource::Library { path } => (path.parent().map(Path::to_owned).unwrap_or_default(), Some(path.clone())),
        ResolvedSource::Builtin { .. } | ResolvedSource::Path { .. } => {
            unreachable!("classify answers a library or a crate")
        }
    };
    let mut checks = Checks::default();

    let manifest = check_manifest(&mut checks, &manifest_dir);
    let dir_name = manifest_dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
    let kind = options
        .kind
        .or_else(|| {
            let kinds = &manifest.as_ref()?.module.kinds;
            let parsed: Vec<ModuleKind> = kinds.iter().filter_map(|k| ModuleKind::parse(k)).collect();
            parsed.iter().copied().find(|k| Some(*k) == kind_from_name(&dir_name)).or(parsed.first().copied())
        })
        .or_else(|| kind_from_name(&dir_name))
        .ok_or_else(|| {
            ValidateError(format!(
                "cannot tell what kind of module {shown} is (no {MANIFEST_FILE} with `kinds`, and the directory \
                 name has no kind prefix)\nhint: pass --kind tool|provider|hook|orchestrator|context|resolver"
            ))
        })?;
    let name = manifest.as_ref().map(|m| m.module.name.clone()).unwrap_or_else(|| dir_name.clone());

    let scratch = Scratch::new();
    let context = Validation { name, kind, canonical, manifest, scratch: scratch.path.clone(), options };
    context.run(&mut checks, library_given).await;

    let checks = checks.0;
    let passed = !checks.iter().any(|c| !c.passed && c.severity == Severity::Error);
    Ok(ValidationReport { module_type: kind.as_str().to_owned(), module_path: shown, passed, checks })
}

/// `manifest_present` and `manifest_valid`; the manifest when it could be read.
fn check_manifest(checks: &mut Checks, dir: &Path) -> Option<Manifest> {
    let manifest = match Manifest::read_dir(dir) {
        Ok(Some(manifest)) => manifest,
        Ok(None) => {
            checks.fail(
                "manifest_present",
                Severity::Error,
                format!(
                    "no {MANIFEST_FILE} in {}: the loader cannot check the module's kind or config before running \
                     its code",
                    dir.display()
                ),
            );
            return None;
        }
        Err(err) => {
            checks.pass("manifest_present", format!("{MANIFEST_FILE} found"));
            checks.fail("manifest_valid", Severity::Error, err.to_string());
            return None;
        }
    };
    checks.pass("manifest_present", format!("{MANIFEST_FILE} found"));
    let module = &manifest.module;
    let mut problems = Vec::new();
    if module.name.trim().is_empty() {
        problems.push("module.name is empty".to_owned());
    }
    if module.kinds.is_empty() {
        problems.push("module.kinds is empty".to_owned());
    }
    let core = module.version.split(['-', '+']).next().unwrap_or_default();
    if core.split('.').count() != 3 || core.split('.').any(|part| part.parse::<u64>().is_err()) {
        problems.push(format!("module.version '{}' is not a semantic version (like 0.1.0)", module.version));
    }
    let schema_note = match manifest.config_schema_json() {
        None => "no config_schema (configs are not checked before mount)".to_owned(),
        Some(schema) => match jsonschema::validator_for(&schema) {
            Err(err) => {
                problems.push(format!("config_schema is not a valid JSON Schema: {err}"));
                String::new()
            }
            Ok(_) if schema.get("type").is_some_and(|t| t != "object") => {
                problems.push("config_schema must describe an object (`type = \"object\"`)".to_owned());
                String::new()
            }
            Ok(_) => "config_schema is a valid JSON Schema".to_owned(),
        },
    };
    if problems.is_empty() {
        checks.pass(
            "manifest_valid",
            format!("{} {}, kinds [{}]; {schema_note}", module.name, module.version, module.kinds.join(", ")),
        );
    } else {
        checks.fail("manifest_valid", Severity::Error, format!("{}: {}", manifest.path.display(), problems.join("; ")));
    }
    Some(manifest)
}

/// A scratch directory for files modules write while validated (removed at the end).
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    fn new() -> Self {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("amplifier-validate-{}-{nanos}", std::process::id()));
        let _ = std::fs::create_dir_all(&path);
        Scratch { path }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

struct Validation<'a> {
    name: String,
    kind: ModuleKind,
    canonical: PathBuf,
    manifest: Option<Manifest>,
    scratch: PathBuf,
    options: &'a ValidateOptions,
}

impl Validation<'_> {
    fn schema(&self) -> Option<Value> {
        self.manifest.as_ref().and_then(Manifest::config_schema_json)
    }

    /// The config the checks mount with: the schema's first `examples`
    /// entry when it gives one (a module that does nothing until configured,
    /// such as hooks-command, shows there what to check it with), else the
    /// smallest config the schema accepts.
    fn default_config(&self) -> JsonMap {
        let schema = self.schema();
        let example =
            schema.as_ref().and_then(|schema| schema.get("examples")?.as_array()?.first()?.as_object().cloned());
        if let Some(example) = example {
            return example;
        }
        match schema.map(|schema| minimal_instance(&schema, "", &self.scratch)) {
            Some(Value::Object(config)) => config,
            _ => JsonMap::new(),
        }
    }

    fn spec(&self, config: JsonMap) -> ModuleSpec {
        ModuleSpec {
            module: self.name.clone(),
            source: Some(self.canonical.display().to_string()),
            config,
            field_path: self.name.clone(),
            ..ModuleSpec::new("")
        }
    }

    async fn run(&self, checks: &mut Checks, library_given: Option<PathBuf>) {
        // Build.
        let library_path = match library_given {
            Some(path) => {
                checks.pass("build", format!("prebuilt library {}", file_name(&path)));
                path
            }
            None => {
                let builder = Builder::new(&self.options.amplifier_home);
                let crate_dir = self.canonical.clone();
                // The message only: a `BuildError` is large to move around.
                let build = move || builder.library_for(&crate_dir).map_err(|err| err.to_string());
                match tokio::task::spawn_blocking(build).await {
                    Ok(Ok(path)) => {
                        checks.pass("build", format!("built {}", file_name(&path)));
                        path
                    }
                    Ok(Err(message)) => return checks.fail("build", Severity::Error, message),
                    Err(err) => return checks.fail("build", Severity::Error, format!("the build task failed: {err}")),
                }
            }
        };

        // ABI and protocol versions.
        let library = match library::open(&library_path, &self.name) {
            Ok(library) => library,
            Err(err) => return checks.fail("abi_version", Severity::Error, err.to_string()),
        };
        let stamp = (library.root.stamp())();
        let declared = self.manifest.as_ref().map(|m| m.module.abi);
        match declared {
            Some(abi) if abi != stamp.abi_major => checks.fail(
                "abi_version",
                Severity::Error,
                format!(
                    "{MANIFEST_FILE} says abi = {abi}, but the library is built for plugin ABI {}.{}",
                    stamp.abi_major, stamp.abi_minor
                ),
            ),
            _ => checks.pass(
                "abi_version",
                format!(
                    "plugin ABI {}.{}, protocol {} (amplifier-sdk {})",
                    stamp.abi_major, stamp.abi_minor, stamp.protocol, library.manifest.sdk_version
                ),
            ),
        }

        // The kind the module exports and declares.
        let kind = self.kind.as_str();
        let exported = library.manifest.kinds.join(", ");
        let declared_kinds = self.manifest.as_ref().map(|m| m.module.kinds.clone());
        if !library.manifest.kinds.iter().any(|k| k == kind) {
            return checks.fail(
                "kind_matches",
                Severity::Error,
                format!("validating as a {kind} module, but the library exports kinds [{exported}]"),
            );
        }
        if let Some(declared) = &declared_kinds {
            if !declared.iter().any(|k| k == kind) {
                return checks.fail(
                    "kind_matches",
                    Severity::Error,
                    format!(
                        "validating as a {kind} module, but {MANIFEST_FILE} declares kinds [{}] (the library exports [{exported}])",
                        declared.join(", ")
                    ),
                );
            }
        }
        checks.pass("kind_matches", format!("exports {kind}, as {MANIFEST_FILE} declares"));

        // Mount through the real loader, with the default config. Strict:
        // a module's schema must refuse what it does not know, even though
        // a plan's unknown key is only a warning.
        let mut loader = DylibLoader::new(None, &self.options.amplifier_home);
        loader.set_strict(true);
        let coordinator = Arc::new(scratch_coordinator());
        let default_config = self.default_config();
        let spec = self.spec(default_config.clone());
        let loaded = match timed(CHECK_TIMEOUT, loader.load(self.kind, &spec, &coordinator)).await {
            Ok(Ok(loaded)) => {
                let shown = if default_config.is_empty() { "{}".to_owned() } else { preview(&default_config) };
                checks.pass("mount_default_config", format!("mounted with config {shown}"));
                loaded
            }
            Ok(Err(err)) => return checks.fail("mount_default_config", Severity::Error, err.message),
            Err(message) => return checks.fail("mount_default_config", Severity::Error, message),
        };

        self.check_invalid_config(checks, &loader, &library, &coordinator, &default_config).await;

        let LoadedModule { mounted, cleanup, session_ready, .. } = loaded;
        // Only a module that has one: the scratch session has no other
        // modules, so a failure here is a warning, not a broken contract.
        if let Some(ready) = session_ready {
            match timed(CHECK_TIMEOUT, ready()).await {
                Ok(Ok(())) => checks.pass("on_session_ready", "ran once the module was mounted"),
                Ok(Err(err)) => checks.fail("on_session_ready", Severity::Warning, err.message),
                Err(message) => checks.fail("on_session_ready", Severity::Warning, message),
            }
        }
        match mounted {
            Mounted::Tools(tools) => self.check_tools(checks, tools, &coordinator).await,
            Mounted::Provider(provider) => self.check_provider(checks, provider).await,
            Mounted::Hooks(subscriptions) => self.check_hooks(checks, subscriptions).await,
            Mounted::Context(context) => self.check_context(checks, context).await,
            Mounted::Orchestrator(_) => self.check_orchestrator(checks, default_config).await,
            Mounted::Resolver(resolver) => crate::resolver::check_resolver(checks, resolver).await,
        }
        if let Some(cleanup) = cleanup {
            let _ = cleanup().await;
        }
        coordinator.cleanup().await;
    }

    /// `mount_invalid_config`: the loader refuses an invalid config with a
    /// message naming the field, and the module, given it directly (as if
    /// the schema let it through), fails without panicking.
    async fn check_invalid_config(
        &self,
        checks: &mut Checks,
        loader: &DylibLoader,
        library: &library::PluginLibrary,
        coordinator: &Arc<Coordinator>,
        default_config: &JsonMap,
    ) {
        const NAME: &str = "mount_invalid_config";
        let Some((config, what)) = self.schema().and_then(|schema| invalid_config(&schema, default_config)) else {
            return checks.pass(
                NAME,
                "skipped: no invalid config can be derived from config_schema (no typed property, unknown keys allowed)",
            );
        };
        let spec = self.spec(config.clone());
        let refused = match timed(CHECK_TIMEOUT, loader.load(self.kind, &spec, coordinator)).await {
            Err(message) => return checks.fail(NAME, Severity::Error, format!("with {what}: {message}")),
            Ok(Ok(loaded)) => {
                if let Some(cleanup) = loaded.cleanup {
                    let _ = cleanup().await;
                }
                return checks.fail(NAME, Severity::Error, format!("mounted with an invalid config ({what})"));
            }
            Ok(Err(LoadError { message, .. })) if message.contains("module panicked") => {
                return checks.fail(NAME, Severity::Error, format!("panicked when mounted with {what}: {message}"));
            }
            Ok(Err(err)) => err.message,
        };
        // As the loader does, but without the schema check in front.
        let (host, _slot) = HostService::new_api(coordinator, &self.name, self.kind, tokio::runtime::Handle::current());
        let json = serde_json::to_string(&config).unwrap_or_else(|_| "{}".to_owned());
        let direct =
            match (library.root.instantiate())(self.kind.as_str().into(), json.as_str().into(), host).into_result() {
                Ok(instance) => {
                    let _ = instance.shutdown();
                    Ok(())
                }
                Err(err) => Err(ModuleError::from_wire(err.as_str())),
            };
        match direct {
            Err(err) if is_panic(&err) => checks.fail(
                NAME,
                Severity::Error,
                format!(
                    "the loader refuses {what}, but the module itself panics when mounted with it ({}); \
                     return an error from mount instead",
                    err.message
                ),
            ),
            _ => checks.pass(NAME, format!("refused {what}: {refused}")),
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A coordinator for mounting one module outside any session.
fn scratch_coordinator() -> Coordinator {
    let placeholder = ModuleSpec::new("validate");
    let plan = MountPlan::new(SessionSettings::new(placeholder.clone(), placeholder));
    Coordinator::new(format!("validate-{}", std::process::id()), None, Arc::new(plan))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_directory_prefixes() {
        assert_eq!(kind_from_name("loop-basic"), Some(ModuleKind::Orchestrator));
        assert_eq!(kind_from_name("hooks-logging"), Some(ModuleKind::Hook));
        assert_eq!(kind_from_name("my-thing"), None);
    }
}
