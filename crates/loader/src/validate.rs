//! `amplifier module validate`: checks a module against its contract.
//!
//! The module is built with the loader's [`Builder`], opened with the
//! version handshake of [`library`], and mounted through [`DylibLoader`], so
//! it is checked exactly as a session would load it. Then its kind's
//! contract is exercised: a tool is executed (on a minimal valid input
//! generated from its schema, and on an invalid one), a provider completes a
//! minimal request, a hook answers every event it subscribes to (with
//! typical, empty and malformed data), a context round-trips, clears,
//! replaces and compacts its history, and an orchestrator runs a prompt in a
//! session with the scripted provider and context-simple.
//!
//! Each check has a name (upstream Amplifier's where one exists), a
//! severity and a message; the module passes when no `error` check fails.
//! Every check that runs module code has a time limit.
//!
//! The orchestrator checks need two helper plugins of this repository: the
//! scripted provider (`AMPLIFIER_VALIDATE_PROVIDER`, a crate directory or
//! library) and context-simple (`AMPLIFIER_VALIDATE_CONTEXT`); by default
//! the copies in the checkout this amplifier was built from.

use std::collections::HashSet;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::loading::{HookSubscription, LoadError, LoadedModule, ModuleLoader, Mounted};
use amplifier_kernel::models::{
    ChatRequest, HookResult, JsonMap, Message, Role, StreamDelta, ToolCall, ToolResult, ToolSpec,
};
use amplifier_kernel::plan::{ModuleKind, ModuleSpec, MountPlan, SessionSettings};
use amplifier_kernel::session::Session;
use amplifier_kernel::traits::{
    BoxFuture, ContextManager, HookHandler, ModuleResult, ModuleSourceResolver, Provider, RequestView, ResolveError,
    ResolveRequest, ResolvedSource, Tool,
};
use amplifier_kernel::{events, Coordinator, ErrorKind, ModuleError};
use serde::Serialize;
use serde_json::{json, Value};

use crate::manifest::{Manifest, MANIFEST_FILE};
use crate::{library, resolver, Builder, DylibLoader};

/// Time a single check may take (a module that hangs fails the check).
const CHECK_TIMEOUT: Duration = Duration::from_secs(60);
/// Time an orchestrator run may take.
const RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// The scripted provider crate in the checkout this amplifier was built from.
const DEFAULT_PROVIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../plugins/provider-scripted");
/// context-simple in the checkout this amplifier was built from.
const DEFAULT_CONTEXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../plugins/context-simple");

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

fn tool_result_panicked(result: &ToolResult) -> bool {
    !result.success && result.error.as_ref().and_then(|e| e.get("type")).and_then(Value::as_str) == Some("panic")
}

/// Validates the module at `path` (a plugin crate, a built library, or an
/// installed module directory).
pub async fn validate(path: &Path, options: &ValidateOptions) -> Result<ValidationReport, ValidateError> {
    let shown = path.display().to_string();
    let canonical = path.canonicalize().map_err(|err| ValidateError(format!("{shown}: {err}")))?;
    let source = resolver::classify(&canonical).ok_or_else(|| {
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
            checks.fail("manifest_valid", Severity::Error, err);
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

    fn default_config(&self) -> JsonMap {
        match self.schema().map(|schema| minimal_instance(&schema, "", &self.scratch)) {
            Some(Value::Object(config)) => config,
            _ => JsonMap::new(),
        }
    }

    fn spec(&self, config: JsonMap) -> ModuleSpec {
        ModuleSpec {
            module: self.name.clone(),
            source: Some(self.canonical.display().to_string()),
            config,
            instance_id: None,
            field_path: self.name.clone(),
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
                match tokio::task::spawn_blocking(move || builder.library_for(&crate_dir)).await {
                    Ok(Ok(path)) => {
                        checks.pass("build", format!("built {}", file_name(&path)));
                        path
                    }
                    Ok(Err(err)) => return checks.fail("build", Severity::Error, err.to_string()),
                    Err(err) => return checks.fail("build", Severity::Error, format!("the build task failed: {err}")),
                }
            }
        };

        // ABI and protocol versions.
        let library = match library::open(&library_path, &self.name) {
            Ok(library) => library,
            Err(message) => return checks.fail("abi_version", Severity::Error, message),
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

        // Mount through the real loader, with the default config.
        let loader = DylibLoader::new(None, &self.options.amplifier_home);
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

        let LoadedModule { mounted, cleanup } = loaded;
        match mounted {
            Mounted::Tools(tools) => self.check_tools(checks, tools, &coordinator).await,
            Mounted::Provider(provider) => self.check_provider(checks, provider).await,
            Mounted::Hooks(subscriptions) => self.check_hooks(checks, subscriptions).await,
            Mounted::Context(context) => self.check_context(checks, context).await,
            Mounted::Orchestrator(_) => self.check_orchestrator(checks, default_config).await,
            Mounted::Resolver(resolver) => check_resolver(checks, resolver).await,
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
        let (host, _slot) = crate::host_service::HostService::new_api(
            coordinator,
            &self.name,
            self.kind,
            tokio::runtime::Handle::current(),
        );
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

    async fn check_tools(&self, checks: &mut Checks, tools: Vec<Arc<dyn Tool>>, coordinator: &Arc<Coordinator>) {
        if tools.is_empty() {
            return checks.fail(
                "tool_name",
                Severity::Warning,
                "the module mounts no tools at mount time (tools mounted later at run time are not validated)",
            );
        }
        for tool in tools {
            let spec = tool.spec().clone();
            let name = spec.name.clone();
            let name_ok = !name.is_empty()
                && name.len() <= 64
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            checks.record(
                "tool_name",
                Severity::Error,
                if name_ok {
                    Ok(format!("`{name}`"))
                } else {
                    Err(format!("tool name '{name}' must be 1-64 characters of a-z, A-Z, 0-9, _ and - (model APIs reject others)"))
                },
            );
            checks.record(
                "tool_description",
                Severity::Warning,
                match spec.description.as_deref().map(str::trim) {
                    Some(text) if !text.is_empty() => Ok(format!("`{name}`: {}", preview(&text))),
                    _ => Err(format!("`{name}` has no description: models choose tools by their descriptions")),
                },
            );
            let validator = jsonschema::validator_for(&spec.parameters);
            checks.record(
                "tool_input_schema",
                Severity::Error,
                match (&validator, spec.parameters.get("type")) {
                    (Err(err), _) => Err(format!("`{name}`: the input schema is not a valid JSON Schema: {err}")),
                    (Ok(_), Some(t)) if t != "object" => Err(format!(
                        "`{name}`: the input schema must describe an object (`\"type\": \"object\"`), not {t}"
                    )),
                    (Ok(_), _) => Ok(format!("`{name}`: a valid JSON Schema")),
                },
            );
            let validator = validator.ok();
            coordinator.mount_tool(&self.name, tool.clone());

            let input = minimal_instance(&spec.parameters, "", &self.scratch);
            checks.record("tool_execute", Severity::Error, tool_execute(&tool, &name, input.clone()).await);

            let (invalid, what) = invalid_input(validator.as_ref(), &spec.parameters, &input);
            let outcome = match timed(CHECK_TIMEOUT, tool.execute(invalid.clone())).await {
                Err(message) => Err(format!("`{name}` with {what}: {message}")),
                Ok(result) if tool_result_panicked(&result) => {
                    Err(format!("`{name}` panicked on {what}: {}", result.serialized_output()))
                }
                Ok(direct) => {
                    let via_host = coordinator.execute_tool(&name, invalid, None).await;
                    if via_host.success {
                        Err(format!(
                            "`{name}` returned success for {what}: neither the input schema nor the tool rejects it"
                        ))
                    } else {
                        let itself = if direct.success { "success" } else { "an error result" };
                        Ok(format!("`{name}`: the host refuses {what}; called directly, the tool returns {itself}"))
                    }
                }
            };
            checks.record("tool_invalid_input", Severity::Error, outcome);

            if self.options.behavioral {
                let runs = (0..8).map(|_| timed(CHECK_TIMEOUT, tool.execute(input.clone())));
                let results = futures::future::join_all(runs).await;
                let problems: Vec<String> = results
                    .iter()
                    .filter_map(|r| match r {
                        Err(message) => Some(message.clone()),
                        Ok(result) if tool_result_panicked(result) => Some(result.serialized_output()),
                        Ok(_) => None,
                    })
                    .collect();
                checks.record(
                    "tool_concurrency",
                    Severity::Error,
                    match problems.first() {
                        None => Ok(format!("`{name}`: 8 concurrent calls all returned a ToolResult")),
                        Some(first) => {
                            Err(format!("`{name}`: {} of 8 concurrent calls failed: {first}", problems.len()))
                        }
                    },
                );
            }
        }
    }

    async fn check_provider(&self, checks: &mut Checks, provider: Arc<dyn Provider>) {
        let info = provider.info().clone();
        checks.record(
            "provider_get_info",
            Severity::Error,
            if info.id.trim().is_empty() {
                Err("ProviderInfo.id is empty".to_owned())
            } else if info.display_name.trim().is_empty() {
                Ok(format!("id '{}' (no display_name)", info.id))
            } else {
                Ok(format!("id '{}', {}", info.id, info.display_name))
            },
        );
        // A provider that needs credentials may fail these without them:
        // that is reported as a warning, not an error.
        let severity_of = |err: &ModuleError| {
            if err.kind == ErrorKind::Authentication {
                Severity::Warning
            } else {
                Severity::Error
            }
        };
        match timed(CHECK_TIMEOUT, provider.list_models()).await {
            Err(message) => checks.fail("provider_list_models", Severity::Error, message),
            Ok(Err(err)) => checks.fail("provider_list_models", severity_of(&err), err.message),
            Ok(Ok(models)) if models.iter().any(|m| m.id.trim().is_empty()) => {
                checks.fail("provider_list_models", Severity::Error, "a model has an empty id")
            }
            Ok(Ok(models)) => {
                let ids: Vec<&str> = models.iter().map(|m| m.id.as_str()).take(5).collect();
                checks.pass("provider_list_models", format!("{} model(s): {}", models.len(), ids.join(", ")))
            }
        }

        let request = ChatRequest {
            messages: vec![Message::system("You are being validated. Answer briefly."), Message::user("Say hello.")],
            max_output_tokens: Some(64),
            ..ChatRequest::default()
        };
        match timed(CHECK_TIMEOUT, provider.complete(request.clone(), None)).await {
            Err(message) => checks.fail("provider_complete", Severity::Error, message),
            Ok(Err(err)) => checks.fail("provider_complete", severity_of(&err), err.message),
            Ok(Ok(response)) if response.content.is_empty() && response.parse_tool_calls().is_empty() => {
                checks.fail("provider_complete", Severity::Warning, "answered a minimal request with no content")
            }
            Ok(Ok(response)) => checks.pass("provider_complete", format!("answered {}", preview(&response.text()))),
        }

        let tool = ToolSpec::new(
            "validate_echo",
            "Returns the given text.",
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        );
        let with_tools = ChatRequest {
            messages: vec![Message::user("Call the validate_echo tool with the text \"ping\".")],
            tools: Some(vec![tool]),
            ..ChatRequest::default()
        };
        match timed(CHECK_TIMEOUT, provider.complete(with_tools, None)).await {
            Err(message) => checks.fail("provider_parse_tool_calls", Severity::Error, message),
            Ok(Err(err)) => checks.fail("provider_parse_tool_calls", severity_of(&err), err.message),
            Ok(Ok(response)) => {
                let calls = response.parse_tool_calls();
                let bad: Vec<String> = calls
                    .iter()
                    .filter_map(|call| {
                        if call.id.trim().is_empty() {
                            Some(format!("a call to '{}' has no id", call.name))
                        } else if call.name != "validate_echo" {
                            Some(format!("call {} names '{}', which was not offered", call.id, call.name))
                        } else if !call.arguments.is_object() {
                            Some(format!("call {} has arguments that are not an object: {}", call.id, call.arguments))
                        } else {
                            None
                        }
                    })
                    .collect();
                checks.record(
                    "provider_parse_tool_calls",
                    Severity::Error,
                    match (bad.first(), calls.len()) {
                        (Some(_), _) => Err(bad.join("; ")),
                        (None, 0) => Ok("no tool call in the answer; a model may answer in text".to_owned()),
                        (None, n) => Ok(format!("{n} well-formed tool call(s)")),
                    },
                );
            }
        }

        if self.options.behavioral {
            let events = Arc::new(Mutex::new(Vec::<Value>::new()));
            let sink_events = events.clone();
            let sink: amplifier_kernel::traits::StreamSink =
                Arc::new(move |event| sink_events.lock().expect("events lock").push(event));
            let outcome = match timed(CHECK_TIMEOUT, provider.complete(request.clone(), Some(sink))).await {
                Err(message) => Err(message),
                Ok(Err(err)) => Err(err.message),
                Ok(Ok(_)) => {
                    let events = events.lock().expect("events lock");
                    let unknown =
                        events.iter().filter(|e| serde_json::from_value::<StreamDelta>((*e).clone()).is_err());
                    match unknown.count() {
                        0 => Ok(format!("streamed {} delta(s)", events.len())),
                        n => Err(format!("{n} of {} streamed events are not StreamDelta JSON", events.len())),
                    }
                }
            };
            checks.record("provider_stream", Severity::Error, outcome);
            let runs = (0..4).map(|_| timed(CHECK_TIMEOUT, provider.complete(request.clone(), None)));
            let failures: Vec<String> = futures::future::join_all(runs)
                .await
                .into_iter()
                .filter_map(|r| match r {
                    Err(message) => Some(message),
                    Ok(Err(err)) => Some(err.message),
                    Ok(Ok(_)) => None,
                })
                .collect();
            checks.record(
                "provider_concurrency",
                Severity::Error,
                match failures.first() {
                    None => Ok("4 concurrent completions succeeded".to_owned()),
                    Some(first) => Err(format!("{} of 4 concurrent completions failed: {first}", failures.len())),
                },
            );
        }
    }

    async fn check_hooks(&self, checks: &mut Checks, subscriptions: Vec<HookSubscription>) {
        if subscriptions.is_empty() {
            return checks.fail("hook_subscriptions", Severity::Error, "the hook subscribes to no events");
        }
        let patterns: Vec<String> = subscriptions.iter().map(|s| s.event.clone()).collect();
        checks.pass("hook_subscriptions", format!("subscribes to {}", patterns.join(", ")));
        let mut calls = 0;
        let mut problems = Vec::new();
        let mut actions = Vec::new();
        for subscription in &subscriptions {
            for event in expand_pattern(&subscription.event) {
                for (payload, data) in
                    [("typical", event_data(&event)), ("empty", JsonMap::new()), ("malformed", malformed_data())]
                {
                    calls += 1;
                    let hook_event = HookEvent::new(event.clone(), data);
                    match timed(CHECK_TIMEOUT, subscription.handler.handle(&hook_event)).await {
                        Err(message) => problems.push(format!("{event} ({payload} data): {message}")),
                        Ok(Ok(result)) => {
                            let action =
                                serde_json::to_value(result.action).ok().and_then(|a| a.as_str().map(str::to_owned));
                            if let Some(action) = action.filter(|a| !actions.contains(a)) {
                                actions.push(action);
                            }
                        }
                        Ok(Err(err)) if is_panic(&err) => {
                            problems.push(format!("{event} ({payload} data) panicked: {}", err.message))
                        }
                        // Refusing empty or malformed data with an error is fine: the kernel logs it and goes on.
                        Ok(Err(_)) if payload != "typical" => {}
                        Ok(Err(err)) => problems.push(format!("{event} ({payload} data): {}", err.message)),
                    }
                }
            }
        }
        checks.record(
            "hook_call",
            Severity::Error,
            if problems.is_empty() {
                Ok(format!(
                    "{calls} calls (typical, empty and malformed data) returned a valid HookResult ({})",
                    actions.join(", ")
                ))
            } else {
                Err(format!("{} of {calls} calls failed: {}", problems.len(), problems.join("; ")))
            },
        );
    }

    async fn check_context(&self, checks: &mut Checks, context: Arc<dyn ContextManager>) {
        let conversation = sample_conversation();
        let outcome = async {
            for message in &conversation {
                context.add_message(message.clone()).await.map_err(|e| format!("add_message: {}", e.message))?;
            }
            let stored = context.get_messages().await.map_err(|e| format!("get_messages: {}", e.message))?;
            same_messages(&conversation, &stored)?;
            Ok(format!("{} messages added and read back in order", conversation.len()))
        };
        checks.record("context_round_trip", Severity::Error, timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r));

        let outcome = async {
            context.clear().await.map_err(|e| format!("clear: {}", e.message))?;
            let left = context.get_messages().await.map_err(|e| format!("get_messages: {}", e.message))?;
            match left.len() {
                0 => Ok("the history is empty after clear".to_owned()),
                n => Err(format!("{n} message(s) left after clear")),
            }
        };
        checks.record("context_clear", Severity::Error, timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r));

        let replacement = vec![
            Message::system("You are being validated."),
            Message::user("validate: replaced history"),
            Message::new(Role::Assistant, "Understood."),
        ];
        let outcome = async {
            context.add_message(Message::user("validate: to be replaced")).await.map_err(|e| e.message)?;
            context.set_messages(replacement.clone()).await.map_err(|e| format!("set_messages: {}", e.message))?;
            let stored = context.get_messages().await.map_err(|e| format!("get_messages: {}", e.message))?;
            same_messages(&replacement, &stored)?;
            context.clear().await.map_err(|e| format!("clear: {}", e.message))?;
            Ok(format!("the history was replaced by {} messages", replacement.len()))
        };
        checks.record("context_set_messages", Severity::Error, timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r));

        let history = long_history(40);
        const BUDGET: u64 = 2_000;
        let failed = |what: &str, err: ModuleError| (Severity::Error, format!("{what}: {}", err.message));
        let outcome = async {
            context.set_messages(history.clone()).await.map_err(|e| failed("set_messages", e))?;
            let view = context
                .get_messages_for_request(RequestView { token_budget: Some(BUDGET), provider: None })
                .await
                .map_err(|e| failed("get_messages_for_request", e))?;
            let after = context.get_messages().await.map_err(|e| failed("get_messages", e))?;
            context.clear().await.map_err(|e| failed("clear", e))?;
            same_messages(&history, &after)
                .map_err(|err| (Severity::Error, format!("the request view changed the history: {err}")))?;
            if let Some(split) = split_tool_pair(&view) {
                return Err((Severity::Error, format!("the view for a {BUDGET}-token budget {split}")));
            }
            if view.is_empty() {
                return Err((Severity::Error, format!("the view for a {BUDGET}-token budget is empty")));
            }
            if view.len() >= history.len() {
                return Err((
                    Severity::Warning,
                    format!(
                        "the view for a {BUDGET}-token budget has all {} messages (~{} tokens): a long conversation \
                         will overflow the model's context window",
                        history.len(),
                        estimated_tokens(&history)
                    ),
                ));
            }
            Ok(format!(
                "a view for {BUDGET} tokens kept {} of {} messages, no tool call split from its result; the history is unchanged",
                view.len(),
                history.len()
            ))
        };
        let outcome = match timed(CHECK_TIMEOUT, outcome).await {
            Err(message) => Err((Severity::Error, message)),
            Ok(result) => result,
        };
        match outcome {
            Ok(message) => checks.pass("context_compaction", message),
            Err((severity, message)) => checks.fail("context_compaction", severity, message),
        }

        if self.options.behavioral {
            let outcome = async {
                let started = std::time::Instant::now();
                for i in 0..1_000 {
                    context.add_message(Message::user(format!("message {i}"))).await.map_err(|e| e.message)?;
                }
                let stored = context.get_messages().await.map_err(|e| e.message)?;
                context.get_messages_for_request(RequestView::default()).await.map_err(|e| e.message)?;
                context.clear().await.map_err(|e| e.message)?;
                if stored.len() != 1_000 {
                    return Err(format!("1,000 messages added, {} read back", stored.len()));
                }
                if let Some(i) = (0..1_000).find(|i| stored[*i].content.text() != format!("message {i}")) {
                    return Err(format!("message {i} came back out of order"));
                }
                Ok(format!("1,000 messages added and read back in order in {} ms", started.elapsed().as_millis()))
            };
            checks.record(
                "context_many_messages",
                Severity::Error,
                timed(CHECK_TIMEOUT, outcome).await.and_then(|r| r),
            );
        }
    }

    async fn check_orchestrator(&self, checks: &mut Checks, config: JsonMap) {
        let helpers = match (
            helper_plugin("AMPLIFIER_VALIDATE_PROVIDER", DEFAULT_PROVIDER),
            helper_plugin("AMPLIFIER_VALIDATE_CONTEXT", DEFAULT_CONTEXT),
        ) {
            (Ok(provider), Ok(context)) => (provider, context),
            (Err(message), _) | (_, Err(message)) => {
                return checks.fail("orchestrator_execute", Severity::Error, message)
            }
        };
        let reply = "Validation reply.";
        let run = self.run_session(&helpers, config.clone(), json!([{"text": reply}]), &["Say hello."]).await;
        checks.record(
            "orchestrator_execute",
            Severity::Error,
            run.and_then(|run| {
                let answer = run.answers.first().cloned().unwrap_or_default();
                check_events(&run.events)?;
                if run.context_len < 2 {
                    return Err(format!(
                        "after the run the context holds {} message(s); the prompt and the reply belong there",
                        run.context_len
                    ));
                }
                Ok(format!(
                    "answered {} with the scripted provider; events {}",
                    preview(&answer),
                    run.events.join(", ")
                ))
            }),
        );
        if self.options.behavioral {
            let script = json!([
                {"tool_calls": [{"name": "validate_echo", "arguments": {"text": "one"}}]},
                {"tool_calls": [{"name": "validate_echo", "arguments": {"text": "two"}}]},
                {"text": "Loop done."},
                {"text": "Second answer."}
            ]);
            let run = self.run_session(&helpers, config, script, &["Use the tool twice.", "And again?"]).await;
            checks.record(
                "orchestrator_tool_loop",
                Severity::Error,
                run.and_then(|run| {
                    if run.tool_inputs != [json!({"text": "one"}), json!({"text": "two"})] {
                        return Err(format!(
                            "the scripted provider asked for validate_echo twice ({{text: one}}, then {{text: two}}); \
                             the tool saw {}",
                            preview(&run.tool_inputs)
                        ));
                    }
                    let count = |name: &str| run.events.iter().filter(|e| *e == name).count();
                    if count(events::TOOL_PRE) != 2 || count(events::TOOL_POST) != 2 {
                        return Err(format!(
                            "2 tool calls, but {} tool:pre and {} tool:post events",
                            count(events::TOOL_PRE),
                            count(events::TOOL_POST)
                        ));
                    }
                    if count(events::ORCHESTRATOR_COMPLETE) != 2 {
                        return Err(format!(
                            "2 prompts, but {} orchestrator:complete events",
                            count(events::ORCHESTRATOR_COMPLETE)
                        ));
                    }
                    check_events(&run.events)?;
                    if run.tool_results < 2 {
                        return Err(format!("{} tool result message(s) in the context, 2 expected", run.tool_results));
                    }
                    Ok(format!(
                        "2 tool calls over 3 provider requests, then a second prompt; answers {}",
                        preview(&run.answers)
                    ))
                }),
            );
        }
    }

    /// Runs `prompts` in a session of this orchestrator, the scripted
    /// provider (playing `script`) and context-simple, with an in-process
    /// `validate_echo` tool.
    async fn run_session(
        &self,
        (provider_dir, context_dir): &(PathBuf, PathBuf),
        config: JsonMap,
        script: Value,
        prompts: &[&str],
    ) -> Result<SessionRun, String> {
        let orchestrator = ModuleSpec { field_path: "session.orchestrator".into(), ..self.spec(config) };
        let context = ModuleSpec {
            source: Some(context_dir.display().to_string()),
            field_path: "session.context".into(),
            ..ModuleSpec::new("context-simple")
        };
        let mut provider_config = JsonMap::new();
        provider_config.insert("script".into(), script);
        let provider = ModuleSpec {
            source: Some(provider_dir.display().to_string()),
            config: provider_config,
            field_path: "providers[0]".into(),
            ..ModuleSpec::new("provider-scripted")
        };
        let mut plan = MountPlan::new(SessionSettings::new(orchestrator, context));
        plan.providers.push(provider);
        // A routing orchestrator answers through the plan's agents; one with
        // no overlay of its own runs on the providers above.
        plan.agents.insert("validate".into(), json!({"description": "Answers the validator's prompts."}));
        let loader = Arc::new(DylibLoader::new(None, &self.options.amplifier_home));
        let session = Session::new(plan, loader, Default::default());
        let recorder = Arc::new(Recorder::default());
        session.coordinator().hooks().register("*", recorder.clone(), i32::MAX, "validate");
        let result = self.drive(&session, &recorder, prompts).await;
        session.cleanup().await;
        result
    }

    async fn drive(&self, session: &Session, recorder: &Arc<Recorder>, prompts: &[&str]) -> Result<SessionRun, String> {
        let report = session.initialize().await.map_err(|err| err.to_string())?;
        if let Some(failure) = report.failures.first() {
            return Err(format!("{} {} failed to load: {}", failure.kind, failure.module, failure.error));
        }
        let tool = Arc::new(EchoTool::new());
        let coordinator = session.coordinator();
        coordinator.mount_tool("validate", tool.clone());
        let mut answers = Vec::new();
        for prompt in prompts {
            let answer = timed(RUN_TIMEOUT, session.execute(prompt))
                .await?
                .map_err(|err| format!("the prompt {prompt:?} failed: {err}"))?;
            answers.push(answer);
        }
        let messages = coordinator.get_messages().await.map_err(|err| err.message)?;
        let started = recorder.0.lock().expect("recorder lock").clone();
        let tool_inputs = tool.inputs.lock().expect("tool lock").clone();
        Ok(SessionRun {
            answers,
            events: started.into_iter().filter(|e| e != events::SESSION_START).collect(),
            context_len: messages.len(),
            tool_results: messages.iter().filter(|m| m.role == Role::Tool).count(),
            tool_inputs,
        })
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

/// One `tool_execute` run: a ToolResult, not a panic, within the time limit.
async fn tool_execute(tool: &Arc<dyn Tool>, name: &str, input: Value) -> Result<String, String> {
    let result = timed(CHECK_TIMEOUT, tool.execute(input.clone())).await.map_err(|m| format!("`{name}`: {m}"))?;
    if tool_result_panicked(&result) {
        return Err(format!("`{name}` panicked on {}: {}", preview(&input), result.serialized_output()));
    }
    if result.success {
        Ok(format!("`{name}` answered {} with success: {}", preview(&input), preview(&result.serialized_output())))
    } else {
        Ok(format!(
            "`{name}` answered {} with an error result: {}",
            preview(&input),
            preview(&result.serialized_output())
        ))
    }
}

async fn check_resolver(checks: &mut Checks, resolver: Arc<dyn ModuleSourceResolver>) {
    let request = ResolveRequest {
        module_id: format!("validate-no-such-module-{}", std::process::id()),
        source_hint: None,
        base_dir: None,
    };
    match timed(CHECK_TIMEOUT, resolver.resolve(&request)).await {
        Err(message) => checks.fail("resolver_resolve", Severity::Error, message),
        Ok(Err(ResolveError::NotFound)) => checks
            .pass("resolver_resolve", "answers \"not found\" for an unknown module, so the built-in chain goes on"),
        Ok(Err(ResolveError::Failed(message))) => checks.fail(
            "resolver_resolve",
            Severity::Error,
            format!("fails for an unknown module instead of answering \"not found\": {message}"),
        ),
        Ok(Ok(found)) => checks.fail(
            "resolver_resolve",
            Severity::Warning,
            format!(
                "claims the unknown module '{}' ({}): the built-in resolvers would never run",
                request.module_id, found.origin
            ),
        ),
    }
}

/// The crate or library of a helper plugin: `$variable`, else `default`.
fn helper_plugin(variable: &str, default: &str) -> Result<PathBuf, String> {
    let (path, from) = match std::env::var_os(variable) {
        Some(value) => (PathBuf::from(value), format!("${variable}")),
        None => (PathBuf::from(default), "the amplifier checkout".to_owned()),
    };
    path.canonicalize().map_err(|err| {
        format!(
            "the orchestrator checks need {} (from {from}): {err}\nhint: set {variable} to its crate directory or library",
            path.display()
        )
    })
}

/// What an orchestrator run left behind.
struct SessionRun {
    answers: Vec<String>,
    /// Event names after `session:start`, in order.
    events: Vec<String>,
    context_len: usize,
    tool_results: usize,
    tool_inputs: Vec<Value>,
}

/// Upstream's orchestrator contract: these events, the last one `orchestrator:complete`.
fn check_events(events: &[String]) -> Result<(), String> {
    let required = [
        events::PROMPT_SUBMIT,
        events::PROVIDER_REQUEST,
        events::PROVIDER_RESPONSE,
        events::PROMPT_COMPLETE,
        events::ORCHESTRATOR_COMPLETE,
    ];
    let missing: Vec<&str> = required.iter().copied().filter(|r| !events.iter().any(|e| e == r)).collect();
    if !missing.is_empty() {
        return Err(format!("never emitted {} (emitted: {})", missing.join(", "), events.join(", ")));
    }
    match events.last() {
        Some(last) if last == events::ORCHESTRATOR_COMPLETE => Ok(()),
        last => Err(format!(
            "the last event of a run must be orchestrator:complete, not {}",
            last.map(String::as_str).unwrap_or("nothing")
        )),
    }
}

/// Records the name of every event.
#[derive(Default)]
struct Recorder(Mutex<Vec<String>>);

impl HookHandler for Recorder {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        self.0.lock().expect("recorder lock").push(event.name.clone());
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// `validate_echo`: an in-process tool for the orchestrator's tool loop.
struct EchoTool {
    spec: ToolSpec,
    inputs: Mutex<Vec<Value>>,
}

impl EchoTool {
    fn new() -> Self {
        let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
        EchoTool { spec: ToolSpec::new("validate_echo", "Returns the given text.", schema), inputs: Mutex::default() }
    }
}

impl Tool for EchoTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, input: Value) -> BoxFuture<'_, ToolResult> {
        self.inputs.lock().expect("tool lock").push(input.clone());
        Box::pin(async move { ToolResult::ok(input.get("text").cloned().unwrap_or(Value::Null)) })
    }
}

// -- schema-driven values -------------------------------------------------------

fn schema_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(types)) => {
            types.iter().filter_map(Value::as_str).find(|t| *t != "null").or_else(|| types.first()?.as_str())
        }
        _ if schema.get("properties").is_some() || schema.get("required").is_some() => Some("object"),
        _ => None,
    }
}

fn sorted_properties(schema: &Value) -> Vec<(&String, &Value)> {
    let mut properties: Vec<(&String, &Value)> =
        schema.get("properties").and_then(Value::as_object).map(|p| p.iter().collect()).unwrap_or_default();
    properties.sort_by(|a, b| a.0.cmp(b.0));
    properties
}

fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The smallest value `schema` accepts, as far as a simple generator can
/// tell: defaults, consts and enums first; an object with only its required
/// properties; strings whose name suggests a path point into `scratch`.
pub fn minimal_instance(schema: &Value, name: &str, scratch: &Path) -> Value {
    for key in ["default", "const"] {
        if let Some(value) = schema.get(key) {
            return value.clone();
        }
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|e| e.first()) {
            return minimal_instance(first, name, scratch);
        }
    }
    let number = |fallback: f64| {
        let minimum = schema.get("minimum").and_then(Value::as_f64);
        let exclusive = schema.get("exclusiveMinimum").and_then(Value::as_f64);
        let mut value = minimum.or(exclusive.map(|e| e.floor() + 1.0)).unwrap_or(fallback);
        if let Some(maximum) = schema.get("maximum").and_then(Value::as_f64) {
            value = value.min(maximum);
        }
        value
    };
    match schema_type(schema) {
        Some("object") => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let mut object = JsonMap::new();
            for key in required(schema) {
                let property = properties.and_then(|p| p.get(key)).cloned().unwrap_or(json!({}));
                object.insert(key.to_owned(), minimal_instance(&property, key, scratch));
            }
            Value::Object(object)
        }
        Some("array") => {
            let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let item = minimal_instance(schema.get("items").unwrap_or(&json!({})), name, scratch);
            Value::Array(vec![item; count])
        }
        Some("string") => {
            let lowered = name.to_lowercase();
            let format = schema.get("format").and_then(Value::as_str).unwrap_or_default();
            let mut text = if ["path", "file", "dir"].iter().any(|hint| lowered.contains(hint)) {
                scratch.join(name).display().to_string()
            } else if matches!(format, "uri" | "url") || lowered.contains("url") {
                "https://example.invalid/".to_owned()
            } else if format == "email" {
                "validate@example.invalid".to_owned()
            } else {
                "validate".to_owned()
            };
            let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            while text.chars().count() < min {
                text.push('x');
            }
            if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
                text = text.chars().take(max as usize).collect();
            }
            Value::String(text)
        }
        Some("integer") => json!(number(1.0) as i64),
        Some("number") => json!(number(1.0)),
        Some("boolean") => json!(false),
        Some("null") => Value::Null,
        _ if name.is_empty() => json!({}),
        _ => json!("validate"),
    }
}

/// A config `schema` rejects, derived from the valid `base`: one property of
/// the wrong type, else an unknown key when `additionalProperties` is false.
fn invalid_config(schema: &Value, base: &JsonMap) -> Option<(JsonMap, String)> {
    let validator = jsonschema::validator_for(schema).ok()?;
    let candidates =
        [json!(42), json!("validate"), json!(true), json!(["validate"]), json!({"validate": 1}), json!(1.5)];
    for (name, property) in sorted_properties(schema) {
        let Some(expected) = schema_type(property) else { continue };
        // A value of another type first (42 for a number is "too large", not "wrong type").
        let (other, same): (Vec<&Value>, Vec<&Value>) = candidates.iter().partition(|c| !has_type(c, expected));
        for bad in other.into_iter().chain(same) {
            let mut config = base.clone();
            config.insert(name.clone(), bad.clone());
            if !validator.is_valid(&Value::Object(config.clone())) {
                return Some((config, format!("`{name}` = {bad} (the schema expects {expected})")));
            }
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        let mut config = base.clone();
        config.insert("validate_unknown_key".into(), json!(true));
        if !validator.is_valid(&Value::Object(config.clone())) {
            return Some((config, "the unknown key `validate_unknown_key`".to_owned()));
        }
    }
    None
}

/// Whether `value` is of JSON Schema type `expected`.
fn has_type(value: &Value, expected: &str) -> bool {
    match expected {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => false,
    }
}

/// A tool input the schema rejects: the valid input without a required
/// property, or with a property of the wrong type, or not an object at all.
fn invalid_input(validator: Option<&jsonschema::Validator>, schema: &Value, valid: &Value) -> (Value, String) {
    let not_an_object = (json!("validate: not an object"), "a string instead of an object".to_owned());
    let Some(validator) = validator else { return not_an_object };
    let mut candidates = Vec::new();
    if let (Some(first), Value::Object(object)) = (required(schema).first(), valid) {
        let mut without = object.clone();
        without.remove(*first);
        candidates.push((Value::Object(without), format!("an input without the required `{first}`")));
    }
    for (name, property) in sorted_properties(schema) {
        if let (Some(expected), Value::Object(object)) = (schema_type(property), valid) {
            for bad in [json!(42), json!("validate"), json!({"validate": 1})] {
                let mut wrong = object.clone();
                wrong.insert(name.clone(), bad.clone());
                candidates.push((Value::Object(wrong), format!("`{name}` = {bad} (the schema expects {expected})")));
            }
        }
    }
    candidates.push(not_an_object.clone());
    candidates.into_iter().find(|(input, _)| !validator.is_valid(input)).unwrap_or(not_an_object)
}

// -- hook events -------------------------------------------------------------------

/// Standard events a `*` subscription is called with.
const REPRESENTATIVE_EVENTS: &[&str] = &[
    events::SESSION_START,
    events::SESSION_END,
    events::PROMPT_SUBMIT,
    events::PROMPT_COMPLETE,
    events::PROVIDER_REQUEST,
    events::PROVIDER_RESPONSE,
    events::PROVIDER_ERROR,
    events::CONTENT_BLOCK_START,
    events::CONTENT_BLOCK_END,
    events::TOOL_PRE,
    events::TOOL_POST,
    events::TOOL_ERROR,
    events::CONTEXT_PRE_COMPACT,
    events::CONTEXT_POST_COMPACT,
    events::ORCHESTRATOR_COMPLETE,
    events::USER_NOTIFICATION,
    events::CANCEL_REQUESTED,
    events::MODULE_LOAD_FAILED,
];

/// The events a subscription pattern stands for: itself, or the
/// representative standard events it matches.
fn expand_pattern(pattern: &str) -> Vec<String> {
    if pattern == "*" {
        return REPRESENTATIVE_EVENTS.iter().map(|e| (*e).to_owned()).collect();
    }
    let Some(prefix) = pattern.strip_suffix('*') else { return vec![pattern.to_owned()] };
    let matching: Vec<String> =
        REPRESENTATIVE_EVENTS.iter().filter(|e| e.starts_with(prefix)).map(|e| (*e).to_owned()).collect();
    if matching.is_empty() {
        vec![format!("{prefix}validate")]
    } else {
        matching
    }
}

/// Plausible data for `event`, as the kernel and loop-basic send it.
fn event_data(event: &str) -> JsonMap {
    let mut data = json!({
        "session_id": "validate-session",
        "parent_id": null,
        "timestamp": "2025-01-01T00:00:00Z",
    });
    let extra = match event {
        events::PROMPT_SUBMIT => json!({"prompt": "Say hello."}),
        events::PROMPT_COMPLETE => json!({"response_preview": "Hello!", "length": 6}),
        events::PROVIDER_REQUEST => json!({"provider": "validate", "iteration": 1, "max_reached": false}),
        events::PROVIDER_RESPONSE => json!({
            "provider": "validate",
            "usage": {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12},
            "tool_calls": false
        }),
        events::PROVIDER_ERROR => json!({"provider": "validate", "error": {"type": "rate_limit", "msg": "slow down"}}),
        events::TOOL_PRE => json!({
            "tool_name": "echo", "tool_input": {"text": "hi"}, "tool_call_id": "call_1", "parallel_group_id": "1-1"
        }),
        events::TOOL_POST => json!({
            "tool_name": "echo", "tool_input": {"text": "hi"}, "tool_call_id": "call_1", "parallel_group_id": "1-1",
            "result": {"success": true, "output": "hi"}
        }),
        events::TOOL_ERROR => json!({
            "tool_name": "echo", "tool_call_id": "call_1", "error": {"type": "InvalidInput", "msg": "bad input"}
        }),
        events::ORCHESTRATOR_COMPLETE => json!({"orchestrator": "validate", "turn_count": 1, "status": "success"}),
        events::SESSION_END => json!({"status": "completed"}),
        events::CONTEXT_PRE_COMPACT => json!({"message_count": 10, "token_count": 5000}),
        events::CONTEXT_POST_COMPACT => json!({"message_count": 4, "token_count": 900}),
        _ => json!({}),
    };
    if let (Value::Object(data), Value::Object(extra)) = (&mut data, extra) {
        data.extend(extra);
    }
    match data {
        Value::Object(map) => map,
        _ => JsonMap::new(),
    }
}

/// Data of the wrong shapes under the usual keys.
fn malformed_data() -> JsonMap {
    match json!({
        "session_id": 42,
        "prompt": {"not": "a string"},
        "tool_name": ["echo"],
        "tool_input": "not an object",
        "result": 17,
        "usage": "many tokens",
        "data": null,
        "\u{1F600}": [null, {"deep": [[[]]]}],
    }) {
        Value::Object(map) => map,
        _ => JsonMap::new(),
    }
}

// -- context fixtures ------------------------------------------------------------------

fn tool_call(id: &str, name: &str, arguments: Value) -> ToolCall {
    ToolCall { id: id.to_owned(), name: name.to_owned(), arguments, extensions: JsonMap::new() }
}

fn sample_conversation() -> Vec<Message> {
    vec![
        Message::user("validate: what is 2 + 2?"),
        Message {
            tool_calls: Some(vec![tool_call("call_validate_1", "calculator", json!({"expression": "2 + 2"}))]),
            ..Message::new(Role::Assistant, "Let me calculate.")
        },
        Message { name: Some("calculator".into()), ..Message::tool_result("call_validate_1", "4") },
        Message::new(Role::Assistant, "2 + 2 = 4."),
    ]
}

/// A system message, then `rounds` of question, tool call, long tool result, answer.
fn long_history(rounds: usize) -> Vec<Message> {
    let mut history = vec![Message::system("You are being validated.")];
    for i in 1..=rounds {
        let id = format!("call_validate_{i}");
        history.push(Message::user(format!("question {i}: {}", "words ".repeat(50))));
        history.push(Message {
            tool_calls: Some(vec![tool_call(&id, "search", json!({"query": format!("question {i}")}))]),
            ..Message::new(Role::Assistant, format!("Searching for {i}."))
        });
        history.push(Message { name: Some("search".into()), ..Message::tool_result(&id, "result ".repeat(170)) });
        history.push(Message::new(Role::Assistant, format!("answer {i}: {}", "text ".repeat(60))));
    }
    history
}

fn estimated_tokens(messages: &[Message]) -> usize {
    messages.iter().map(|m| m.content.text().len()).sum::<usize>() / 4
}

/// The same messages in the same order, as far as the contract goes: role,
/// text, tool call ids and the id a tool result answers.
fn same_messages(expected: &[Message], got: &[Message]) -> Result<(), String> {
    if expected.len() != got.len() {
        return Err(format!("{} message(s) stored, {} read back", expected.len(), got.len()));
    }
    for (i, (a, b)) in expected.iter().zip(got).enumerate() {
        let same = a.role == b.role
            && a.content.text() == b.content.text()
            && a.tool_call_id == b.tool_call_id
            && a.requested_tool_call_ids() == b.requested_tool_call_ids();
        if !same {
            return Err(format!("message {i} came back different: {} instead of {}", preview(b), preview(a)));
        }
    }
    Ok(())
}

/// Describes the first tool call separated from its result in `view`.
fn split_tool_pair(view: &[Message]) -> Option<String> {
    let mut requested: HashSet<&str> = HashSet::new();
    let answered: HashSet<&str> = view.iter().filter_map(|m| m.tool_call_id.as_deref()).collect();
    for message in view {
        if message.role == Role::Tool {
            let id = message.tool_call_id.as_deref().unwrap_or_default();
            if !requested.contains(id) {
                return Some(format!("keeps the result of tool call '{id}' but not the call"));
            }
        }
        requested.extend(message.requested_tool_call_ids());
    }
    requested.iter().find(|id| !answered.contains(*id)).map(|id| format!("keeps tool call '{id}' but not its result"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_instances_satisfy_their_schemas() {
        let scratch = Path::new("/tmp/scratch");
        let schema = json!({
            "type": "object",
            "required": ["path", "count", "mode", "tags", "ratio"],
            "properties": {
                "path": {"type": "string"},
                "count": {"type": "integer", "minimum": 3},
                "mode": {"enum": ["fast", "slow"]},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "optional": {"type": "boolean"}
            }
        });
        let instance = minimal_instance(&schema, "", scratch);
        assert_eq!(instance["path"], "/tmp/scratch/path");
        assert_eq!(instance["count"], 3);
        assert_eq!(instance["mode"], "fast");
        assert_eq!(instance["tags"], json!(["validate"]));
        assert!(instance.get("optional").is_none());
        assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&instance), "{instance}");
    }

    #[test]
    fn invalid_configs_use_a_wrong_type_then_an_unknown_key() {
        let typed = json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}});
        let (config, what) = invalid_config(&typed, &JsonMap::new()).unwrap();
        assert_eq!(config["a"], "validate", "properties in name order, first wrong value");
        assert!(what.contains("`a`") && what.contains("integer"), "{what}");
        let closed = json!({"type": "object", "additionalProperties": false, "properties": {}});
        let (config, _) = invalid_config(&closed, &JsonMap::new()).unwrap();
        assert!(config.contains_key("validate_unknown_key"));
        assert!(invalid_config(&json!({"type": "object"}), &JsonMap::new()).is_none());
    }

    #[test]
    fn invalid_inputs_drop_a_required_property_first() {
        let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
        let validator = jsonschema::validator_for(&schema).unwrap();
        let valid = minimal_instance(&schema, "", Path::new("/tmp"));
        let (input, what) = invalid_input(Some(&validator), &schema, &valid);
        assert_eq!(input, json!({}));
        assert!(what.contains("required `text`"), "{what}");
        let (input, _) = invalid_input(None, &schema, &valid);
        assert!(input.is_string());
    }

    #[test]
    fn patterns_expand_to_standard_events() {
        assert_eq!(expand_pattern("tool:pre"), vec!["tool:pre"]);
        assert_eq!(expand_pattern("tool:*"), vec!["tool:pre", "tool:post", "tool:error"]);
        assert!(expand_pattern("*").len() > 10);
        assert_eq!(expand_pattern("custom:*"), vec!["custom:validate"]);
    }

    #[test]
    fn split_tool_pairs_are_found() {
        let conversation = sample_conversation();
        assert_eq!(split_tool_pair(&conversation), None);
        assert!(split_tool_pair(&conversation[2..]).unwrap().contains("not the call"));
        assert!(split_tool_pair(&conversation[..2]).unwrap().contains("not its result"));
    }

    #[test]
    fn kinds_follow_directory_prefixes() {
        assert_eq!(kind_from_name("loop-basic"), Some(ModuleKind::Orchestrator));
        assert_eq!(kind_from_name("hooks-logging"), Some(ModuleKind::Hook));
        assert_eq!(kind_from_name("my-thing"), None);
    }
}
