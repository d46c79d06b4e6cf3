//! `amplifier.toml`: the manifest beside every module.
//!
//! ```toml
//! [module]
//! name = "tool-echo"
//! kinds = ["tool"]
//! version = "0.1.0"
//! abi = 1
//! description = "…"
//! # artifact = "libtool_echo.so"   # optional: a prebuilt library used instead of
//! # sha256 = "<hex>"               # building the crate, checked against sha256
//!
//! [config_schema]          # JSON Schema of the module's `config`, as TOML
//! type = "object"
//!
//! [config_compat]          # upstream Amplifier's keys for this module (optional)
//! aliases = { session_log_template = "path" }   # its name for a key we call otherwise
//! ignored = { auto_discover = "why it means nothing here" }
//! ```
//!
//! The loader reads it before opening the library, so a module mounted as the
//! wrong kind or given an invalid config is refused without running its code.
//! A property's `default` is the one place a literal default is written: the
//! loader fills it in for a key the plan leaves out
//! ([`amplifier_protocol::config::apply_defaults`]).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::toml_file::{self, TomlFileError};
use serde_json::Value;

pub const MANIFEST_FILE: &str = "amplifier.toml";

/// An `amplifier.toml` that cannot be read or is invalid; `path` names it.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error(transparent)]
    File(#[from] TomlFileError),
    #[error(
        "{}: module.artifact and module.sha256 go together (a prebuilt library is used only with its checksum)",
        path.display()
    )]
    ArtifactWithoutChecksum { path: PathBuf },
    #[error(
        "{}: unknown kind '{kind}' in module.kinds (expected one of: {})",
        path.display(),
        amplifier_abi::kind::ALL.join(", ")
    )]
    UnknownKind { path: PathBuf, kind: String },
}

#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub module: ModuleSection,
    /// JSON Schema of the module's config.
    #[serde(default)]
    pub config_schema: Option<toml::Value>,
    /// What a config written for upstream's module of the same name means here.
    #[serde(default)]
    pub config_compat: ConfigCompat,
    #[serde(skip)]
    pub path: PathBuf,
}

/// Upstream's config keys, by dotted path (`ui.show_tool_lines`): renamed
/// to ours before validation, or accepted and dropped with the reason.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigCompat {
    #[serde(default)]
    pub aliases: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    pub ignored: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleSection {
    pub name: String,
    pub kinds: Vec<String>,
    pub version: String,
    /// The ABI major version the module was written for.
    pub abi: u32,
    #[serde(default)]
    pub description: String,
    /// A prebuilt library shipped with the module (relative to this file's
    /// directory), used instead of building the crate; needs `sha256`.
    #[serde(default)]
    pub artifact: Option<String>,
    /// sha256 (hex) of `artifact`, checked before it is opened.
    #[serde(default)]
    pub sha256: Option<String>,
}

impl Manifest {
    /// Reads `<dir>/amplifier.toml`; `Ok(None)` when there is none.
    pub fn read_dir(dir: &Path) -> Result<Option<Manifest>, ManifestError> {
        let path = dir.join(MANIFEST_FILE);
        let Some(manifest) = toml_file::read_if_exists::<Manifest>(&path)? else { return Ok(None) };
        manifest.checked(path).map(Some)
    }

    /// Parses and checks a manifest's text; `path` names it in messages.
    pub fn parse(text: &str, path: PathBuf) -> Result<Manifest, ManifestError> {
        toml_file::parse::<Manifest>(text, &path)?.checked(path)
    }

    /// What TOML cannot say: the artifact and its checksum go together, and
    /// every kind is one amplifier knows.
    fn checked(mut self, path: PathBuf) -> Result<Manifest, ManifestError> {
        if self.module.artifact.is_some() != self.module.sha256.is_some() {
            return Err(ManifestError::ArtifactWithoutChecksum { path });
        }
        if let Some(kind) = self.module.kinds.iter().find(|k| !amplifier_abi::kind::ALL.contains(&k.as_str())) {
            return Err(ManifestError::UnknownKind { path, kind: kind.clone() });
        }
        self.path = path;
        Ok(self)
    }

    /// The prebuilt library this manifest names and its expected sha256.
    pub fn artifact(&self) -> Option<(PathBuf, String)> {
        let dir = self.path.parent()?;
        Some((dir.join(self.module.artifact.as_ref()?), self.module.sha256.as_ref()?.to_ascii_lowercase()))
    }

    /// The config schema as JSON.
    pub fn config_schema_json(&self) -> Option<Value> {
        self.config_schema.as_ref().and_then(|schema| serde_json::to_value(schema).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    #[test]
    fn reads_a_manifest_with_a_schema() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(MANIFEST_FILE),
            "[module]\nname = \"x\"\nkinds = [\"tool\"]\nversion = \"1.0.0\"\nabi = 1\n\n[config_schema]\ntype = \"object\"\nproperties = { timeout = { type = \"integer\" } }\n",
        )
        .unwrap();
        let manifest = Manifest::read_dir(dir.path()).unwrap().unwrap();
        assert_eq!(manifest.module.kinds, vec!["tool"]);
        let schema = manifest.config_schema_json().unwrap();
        assert_eq!(schema["properties"]["timeout"]["type"], "integer");
    }

    #[test]
    fn rejects_unknown_kinds_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(MANIFEST_FILE),
            "[module]\nname = \"x\"\nkinds = [\"gadget\"]\nversion = \"1.0.0\"\nabi = 1\n",
        )
        .unwrap();
        let err = Manifest::read_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("unknown kind 'gadget'") && err.contains("amplifier.toml"), "{err}");
    }

    #[test]
    fn an_artifact_comes_with_its_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let head = "[module]\nname = \"x\"\nkinds = [\"tool\"]\nversion = \"1.0.0\"\nabi = 1\n";
        std::fs::write(dir.path().join(MANIFEST_FILE), format!("{head}artifact = \"libx.so\"\nsha256 = \"AB12\"\n"))
            .unwrap();
        let manifest = Manifest::read_dir(dir.path()).unwrap().unwrap();
        assert_eq!(manifest.artifact(), Some((dir.path().join("libx.so"), "ab12".to_owned())));
        std::fs::write(dir.path().join(MANIFEST_FILE), format!("{head}artifact = \"libx.so\"\n")).unwrap();
        let err = Manifest::read_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("module.artifact and module.sha256 go together"), "{err}");
    }

    /// What the loader does with a manifest's schema and a plan's config.
    fn apply_defaults(manifest: &Manifest, config: &mut Map<String, Value>) {
        if let Some(schema) = manifest.config_schema_json() {
            amplifier_protocol::config::apply_defaults(&schema, config);
        }
    }

    fn with_schema(schema: &str) -> Manifest {
        let head = "[module]\nname = \"x\"\nkinds = [\"tool\"]\nversion = \"1.0.0\"\nabi = 1\n";
        Manifest::parse(&format!("{head}\n{schema}"), "amplifier.toml".into()).unwrap()
    }

    #[test]
    fn defaults_fill_the_keys_a_config_leaves_out() {
        let manifest = with_schema(
            "[config_schema]\ntype = \"object\"\n\
             [config_schema.properties.timeout]\ntype = \"number\"\ndefault = 30\n\
             [config_schema.properties.ratio]\ntype = \"number\"\ndefault = 0.5\n\
             [config_schema.properties.name]\ntype = \"string\"\ndefault = \"strict\"\n\
             [config_schema.properties.on]\ntype = \"boolean\"\ndefault = true\n\
             [config_schema.properties.tags]\ntype = \"array\"\ndefault = [\"a\", \"b\"]\n\
             [config_schema.properties.headers]\ntype = \"object\"\ndefault = {}\n\
             [config_schema.properties.path]\ntype = \"string\"\n\
             [config_schema.properties.nested]\ntype = \"object\"\n\
             properties = { inner = { type = \"integer\", default = 3 } }\n",
        );
        let mut config = Map::new();
        apply_defaults(&manifest, &mut config);
        assert_eq!(
            Value::Object(config),
            serde_json::json!({"timeout": 30, "ratio": 0.5, "name": "strict", "on": true, "tags": ["a", "b"], "headers": {}}),
            "a key without a default and a nested default are left out"
        );
    }

    #[test]
    fn defaults_leave_the_keys_a_config_gives_even_null() {
        let manifest = with_schema(
            "[config_schema]\ntype = \"object\"\n\
             [config_schema.properties.max_messages]\ntype = [\"integer\", \"null\"]\ndefault = 100\n\
             [config_schema.properties.timeout]\ntype = \"number\"\ndefault = 30\n",
        );
        let mut config = serde_json::json!({"max_messages": null, "timeout": 5, "other": 1});
        apply_defaults(&manifest, config.as_object_mut().unwrap());
        assert_eq!(config, serde_json::json!({"max_messages": null, "timeout": 5, "other": 1}));
    }

    #[test]
    fn defaults_need_a_schema_with_properties() {
        let mut config = Map::new();
        apply_defaults(&with_schema(""), &mut config);
        apply_defaults(&with_schema("[config_schema]\ntype = \"object\"\n"), &mut config);
        assert!(config.is_empty());
    }

    #[test]
    fn missing_manifest_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(Manifest::read_dir(dir.path()).unwrap().is_none());
    }
}
