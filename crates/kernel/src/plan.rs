//! The mount plan: which modules a session mounts, with what config.
//!
//! Parsing YAML with file:line:column errors lives in `amplifier-plan`; this is
//! the validated data model the kernel consumes. Field names are upstream's
//! (`MOUNT_PLAN_SPECIFICATION.md`).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::models::JsonMap;

/// Upstream documents these defaults but leaves them unenforced; we enforce them.
pub const DEFAULT_INJECTION_SIZE_LIMIT: usize = 10 * 1024;
pub const DEFAULT_INJECTION_BUDGET_PER_TURN: u64 = 10_000;
/// Seconds a tool call may run before the kernel ends it: longer than any
/// standard tool's own limit (tool-bash's longest timeout is 600 s), so it
/// only catches a tool that never returns.
pub const DEFAULT_TOOL_TIMEOUT_SECS: f64 = 900.0;
/// Seconds running tool and provider calls get to finish after a graceful
/// cancel (the first Ctrl-C) before they are dropped.
pub const DEFAULT_CANCEL_GRACE_SECS: f64 = 5.0;

/// The five kinds of module (plus `resolver`, which finds the others).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModuleKind {
    Orchestrator,
    Context,
    Provider,
    Tool,
    Hook,
    Resolver,
}

impl ModuleKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ModuleKind::Orchestrator => "orchestrator",
            ModuleKind::Context => "context",
            ModuleKind::Provider => "provider",
            ModuleKind::Tool => "tool",
            ModuleKind::Hook => "hook",
            ModuleKind::Resolver => "resolver",
        }
    }

    /// Upstream's mount point names (`TYPE_TO_MOUNT_POINT`).
    pub fn mount_point(self) -> &'static str {
        match self {
            ModuleKind::Orchestrator => "orchestrator",
            ModuleKind::Context => "context",
            ModuleKind::Provider => "providers",
            ModuleKind::Tool => "tools",
            ModuleKind::Hook => "hooks",
            ModuleKind::Resolver => "module-source-resolver",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        serde_json::from_value(Value::String(text.to_owned())).ok()
    }
}

impl std::fmt::Display for ModuleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The known key most like `key`, for "did you mean …?": none when no key
/// is much like it (a plan's misspelt `sourc`, a config's `max_tokns`).
pub fn nearest_key<'a>(key: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|candidate| (strsim::jaro(key, candidate), candidate))
        .filter(|(similarity, _)| *similarity > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

/// Where a module's code runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// In the host process: the fastest, and a native crash in the module
    /// (a segfault, an abort) ends the host.
    #[default]
    InProcess,
    /// In a child `amplifier` process of its own, reached over a socket: a
    /// native crash fails the module's calls and the session goes on.
    Process,
}

impl Isolation {
    pub fn is_in_process(&self) -> bool {
        *self == Isolation::InProcess
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Isolation::InProcess => "in-process",
            Isolation::Process => "process",
        }
    }
}

impl std::fmt::Display for Isolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where an entry's `config` keys sit in the plan file, so the loader can
/// point at one (an unknown key) the way the plan parser would.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigPositions {
    /// The plan's path as given (`<plan>` for text without one).
    pub file: String,
    /// Line and column (1-based) of each key, by its path inside `config`
    /// (`ui.show_tool_lines`).
    pub keys: std::collections::BTreeMap<String, (usize, usize)>,
    /// The keys written in another file than `file` (a bundle's config
    /// merged from its includes), with that file.
    pub files: std::collections::BTreeMap<String, String>,
}

impl ConfigPositions {
    /// `file:line:column` of a key, if its place is known.
    pub fn place(&self, key: &str) -> Option<String> {
        let (line, column) = self.keys.get(key)?;
        let file = self.files.get(key).unwrap_or(&self.file);
        Some(format!("{file}:{line}:{column}"))
    }
}

/// One module entry: `{module, source?, config?, instance_id?, isolation?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModuleSpec {
    pub module: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default)]
    pub config: JsonMap,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    /// `isolation: process` runs the module in a child process (our extension).
    #[serde(default, skip_serializing_if = "Isolation::is_in_process")]
    pub isolation: Isolation,
    /// Where the entry sits in the plan (`providers[1]`), for error messages.
    #[serde(skip)]
    pub field_path: String,
    /// Where its `config` keys sit in the plan file, when it came from one.
    #[serde(skip)]
    pub config_positions: Option<std::sync::Arc<ConfigPositions>>,
}

impl ModuleSpec {
    pub fn new(module: impl Into<String>) -> Self {
        ModuleSpec {
            module: module.into(),
            source: None,
            config: JsonMap::new(),
            instance_id: None,
            isolation: Isolation::InProcess,
            field_path: String::new(),
            config_positions: None,
        }
    }

    /// The name the module is mounted under (`instance_id` remaps providers).
    pub fn mount_name(&self) -> &str {
        self.instance_id.as_deref().unwrap_or(&self.module)
    }

    /// A provider's `config.priority`: lower is preferred.
    pub fn priority(&self) -> i64 {
        self.config.get("priority").and_then(Value::as_i64).unwrap_or(DEFAULT_PROVIDER_PRIORITY)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionSettings {
    pub orchestrator: ModuleSpec,
    pub context: ModuleSpec,
    /// A resolver plugin consulted before the built-in chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolver: Option<ModuleSpec>,
    /// Characters; absent means the default, an explicit `null` unlimited.
    #[serde(default = "default_size_limit")]
    pub injection_size_limit: Option<usize>,
    /// Tokens (≈ chars / 4) per turn; absent means the default, `null` unlimited.
    #[serde(default = "default_budget")]
    pub injection_budget_per_turn: Option<u64>,
    /// Seconds a tool call may run; absent means the default, `null` unlimited.
    #[serde(default = "default_tool_timeout")]
    pub tool_timeout: Option<f64>,
    /// `tool_timeout` for single tools, by tool name.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub tool_timeouts: IndexMap<String, Option<f64>>,
    /// Seconds running calls get after a graceful cancel.
    #[serde(default = "default_cancel_grace")]
    pub cancel_grace: f64,
    #[serde(default)]
    pub metadata: JsonMap,
    #[serde(default)]
    pub raw: bool,
}

fn default_size_limit() -> Option<usize> {
    Some(DEFAULT_INJECTION_SIZE_LIMIT)
}

fn default_budget() -> Option<u64> {
    Some(DEFAULT_INJECTION_BUDGET_PER_TURN)
}

fn default_tool_timeout() -> Option<f64> {
    Some(DEFAULT_TOOL_TIMEOUT_SECS)
}

fn default_cancel_grace() -> f64 {
    DEFAULT_CANCEL_GRACE_SECS
}

impl SessionSettings {
    /// How long `tool` may run, `None` for no limit.
    pub fn tool_timeout(&self, tool: &str) -> Option<std::time::Duration> {
        let seconds = self.tool_timeouts.get(tool).copied().unwrap_or(self.tool_timeout)?;
        std::time::Duration::try_from_secs_f64(seconds).ok()
    }

    /// How long running calls may go on after a graceful cancel.
    pub fn cancel_grace(&self) -> std::time::Duration {
        std::time::Duration::try_from_secs_f64(self.cancel_grace).unwrap_or_default()
    }

    pub fn new(orchestrator: ModuleSpec, context: ModuleSpec) -> Self {
        SessionSettings {
            orchestrator,
            context,
            resolver: None,
            injection_size_limit: Some(DEFAULT_INJECTION_SIZE_LIMIT),
            injection_budget_per_turn: Some(DEFAULT_INJECTION_BUDGET_PER_TURN),
            tool_timeout: Some(DEFAULT_TOOL_TIMEOUT_SECS),
            tool_timeouts: IndexMap::new(),
            cancel_grace: DEFAULT_CANCEL_GRACE_SECS,
            metadata: JsonMap::new(),
            raw: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MountPlan {
    pub session: SessionSettings,
    #[serde(default)]
    pub providers: Vec<ModuleSpec>,
    #[serde(default)]
    pub tools: Vec<ModuleSpec>,
    #[serde(default)]
    pub hooks: Vec<ModuleSpec>,
    /// Agent overlays (`name -> partial plan`), kept for sub-sessions.
    #[serde(default)]
    pub agents: IndexMap<String, Value>,
    /// Which of this plan's tools child sessions get (upstream's `spawn`).
    #[serde(default, skip_serializing_if = "SpawnPolicy::is_empty")]
    pub spawn: SpawnPolicy,
    /// `system: {instruction}`: the system message a new session's context
    /// starts with (a bundle's body, its mentions and context files); the
    /// shape of an agent overlay's `system`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<SystemPrompt>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemPrompt {
    pub instruction: String,
}

/// What `run --provider/--model/--max-tokens` ask of the plan's providers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderChoice {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub max_tokens: Option<u64>,
}

impl ProviderChoice {
    pub fn is_empty(&self) -> bool {
        *self == ProviderChoice::default()
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("provider '{name}' is not in the plan (its providers: {})", if available.is_empty() { "none".to_owned() } else { available.join(", ") })]
pub struct UnknownProvider {
    pub name: String,
    pub available: Vec<String>,
}

/// Default provider priority; lower is preferred (upstream's convention).
pub const DEFAULT_PROVIDER_PRIORITY: i64 = 100;

/// Upstream's `spawn: {exclude_tools: […]}` or `{tools: […]}`: the tool
/// modules a child session inherits from its parent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpawnPolicy {
    /// Never given to a child.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude_tools: Vec<String>,
    /// When set, the only parent tools a child gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
}

impl SpawnPolicy {
    pub fn is_empty(&self) -> bool {
        self.exclude_tools.is_empty() && self.tools.is_none()
    }
}

impl MountPlan {
    pub fn new(session: SessionSettings) -> Self {
        MountPlan {
            session,
            providers: Vec::new(),
            tools: Vec::new(),
            hooks: Vec::new(),
            agents: IndexMap::new(),
            spawn: SpawnPolicy::default(),
            system: None,
        }
    }

    /// Upstream's `run --provider P --model M --max-tokens N`: the provider
    /// whose `instance_id` is P, else whose module is P or `provider-P`,
    /// becomes the preferred one (a priority below every other) and gets
    /// `default_model` and `max_tokens`. Without P, `max_tokens` goes to the
    /// provider already preferred. When P names none, the error lists the
    /// providers there are.
    pub fn choose_provider(&mut self, choice: &ProviderChoice) -> Result<(), UnknownProvider> {
        let index = match &choice.provider {
            Some(name) => {
                let module = if name.starts_with("provider-") { name.clone() } else { format!("provider-{name}") };
                let found = self
                    .providers
                    .iter()
                    .position(|p| p.instance_id.as_deref() == Some(name.as_str()))
                    .or_else(|| self.providers.iter().position(|p| p.module == module || p.module == *name));
                let Some(index) = found else {
                    let available = self.providers.iter().map(|p| p.mount_name().to_owned()).collect();
                    return Err(UnknownProvider { name: name.clone(), available });
                };
                let lowest = self
                    .providers
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != index)
                    .map(|(_, p)| p.priority())
                    .min()
                    .unwrap_or(0);
                self.providers[index].config.insert("priority".into(), Value::from(lowest.min(1) - 1));
                index
            }
            // The preferred provider: the lowest priority, the first of a tie.
            None => match self.providers.iter().enumerate().min_by_key(|(_, p)| p.priority()) {
                Some((index, _)) => index,
                None => return Ok(()),
            },
        };
        let config = &mut self.providers[index].config;
        if let Some(model) = &choice.model {
            // Upstream's key, unless the entry names its model another way
            // (provider-local's `model`), which would win over it.
            let key = if config.contains_key("model") && !config.contains_key("default_model") {
                "model"
            } else {
                "default_model"
            };
            config.insert(key.into(), Value::from(model.clone()));
        }
        if let Some(max_tokens) = choice.max_tokens {
            config.insert("max_tokens".into(), Value::from(max_tokens));
        }
        Ok(())
    }

    /// The plan as JSON with every value that may be a secret masked: the
    /// values of keys named like one (`api_key`, `token`, `password`, …)
    /// and every header. What `session.raw: true` emits in `session:config`.
    pub fn redacted_json(&self) -> Value {
        fn mask(value: &mut Value) {
            match value {
                Value::Object(map) => {
                    for (key, value) in map.iter_mut() {
                        let key = key.to_ascii_lowercase();
                        let secret = ["key", "token", "secret", "password", "authorization", "credential", "headers"]
                            .iter()
                            .any(|word| key == *word || key.ends_with(&format!("_{word}")));
                        if secret && !value.is_null() {
                            *value = Value::String("[REDACTED]".into());
                        } else {
                            mask(value);
                        }
                    }
                }
                Value::Array(items) => items.iter_mut().for_each(mask),
                _ => {}
            }
        }
        let mut plan = serde_json::to_value(self).unwrap_or(Value::Null);
        mask(&mut plan);
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> MountPlan {
        let mut plan =
            MountPlan::new(SessionSettings::new(ModuleSpec::new("loop-basic"), ModuleSpec::new("context-simple")));
        let mut anthropic = ModuleSpec::new("provider-anthropic");
        anthropic.config.insert("priority".into(), Value::from(1));
        let mut fast = ModuleSpec::new("provider-openai");
        fast.instance_id = Some("fast".into());
        fast.config.insert("priority".into(), Value::from(-3));
        plan.providers = vec![anthropic, fast, ModuleSpec::new("provider-openai")];
        plan
    }

    fn priority(plan: &MountPlan, index: usize) -> i64 {
        plan.providers[index].priority()
    }

    #[test]
    fn a_chosen_provider_is_preferred_by_instance_id_then_module() {
        let mut by_module = plan();
        let choice =
            ProviderChoice { provider: Some("anthropic".into()), model: Some("opus".into()), max_tokens: Some(64) };
        by_module.choose_provider(&choice).unwrap();
        assert!(priority(&by_module, 0) < priority(&by_module, 1), "below every other priority");
        assert_eq!(by_module.providers[0].config["default_model"], "opus");
        assert_eq!(by_module.providers[0].config["max_tokens"], 64);

        let mut by_id = plan();
        by_id.choose_provider(&ProviderChoice { provider: Some("fast".into()), ..Default::default() }).unwrap();
        assert_eq!(priority(&by_id, 1), 0, "upstream's 0, below the others' 1 and 100");
        let mut by_full_module = plan();
        by_full_module
            .choose_provider(&ProviderChoice { provider: Some("provider-openai".into()), ..Default::default() })
            .unwrap();
        assert_eq!(by_full_module.providers[1].instance_id.as_deref(), Some("fast"), "the first of the module");
        assert_eq!(priority(&by_full_module, 1), 0);

        let err = plan()
            .choose_provider(&ProviderChoice { provider: Some("ollama".into()), ..Default::default() })
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "provider 'ollama' is not in the plan (its providers: provider-anthropic, fast, provider-openai)"
        );
    }

    #[test]
    fn the_model_goes_where_the_entry_names_its_model() {
        let mut plan = plan();
        plan.providers[2].config.insert("model".into(), Value::from("smollm2-135m"));
        let choice = ProviderChoice {
            provider: Some("provider-openai".into()),
            model: Some("qwen".into()),
            ..Default::default()
        };
        plan.providers.remove(1);
        plan.choose_provider(&choice).unwrap();
        assert_eq!(plan.providers[1].config["model"], "qwen");
        assert!(!plan.providers[1].config.contains_key("default_model"));
    }

    #[test]
    fn max_tokens_alone_goes_to_the_preferred_provider() {
        let mut plan = plan();
        plan.choose_provider(&ProviderChoice { max_tokens: Some(10), ..Default::default() }).unwrap();
        assert_eq!(plan.providers[1].config["max_tokens"], 10);
        assert!(!plan.providers[0].config.contains_key("max_tokens"));
    }
}
