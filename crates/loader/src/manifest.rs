//! `amplifier.toml`: the manifest beside every module.
//!
//! ```toml
//! [module]
//! name = "tool-echo"
//! kinds = ["tool"]
//! version = "0.1.0"
//! abi = 1
//! description = "…"
//!
//! [config_schema]          # JSON Schema of the module's `config`, as TOML
//! type = "object"
//!
//! [config_compat]          # upstream Amplifier's keys for this module (optional)
//! aliases = { session_log_template = "path" }   # its name for a key we call otherwise
//! ignored = { auto_discover = "why it means nothing here" }
//!
//! # optional: prebuilt libraries by target triple (`amplifier module package`
//! # writes them), used instead of building the crate on a machine of that
//! # target and ABI, once the library's sha256 matched
//! [artifacts.x86_64-unknown-linux-gnu]
//! library = "lib/x86_64-unknown-linux-gnu/libtool_echo.so"
//! sha256 = "<hex>"
//! abi = 1
//! ```
//!
//! The loader reads it before opening the library, so a module mounted as the
//! wrong kind or given an invalid config is refused without running its code.
//! A property's `default` is the one place a literal default is written: the
//! loader fills it in for a key the plan leaves out
//! ([`amplifier_protocol::config::apply_defaults`]).

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::toml_file::{self, TomlFileError};
use serde_json::Value;

pub const MANIFEST_FILE: &str = "amplifier.toml";

/// The target triple this host was built for: the key of the prebuilt
/// library it can use.
pub const HOST_TARGET: &str = env!("AMPLIFIER_HOST_TARGET");

/// Whether `path` is relative and stays below where it starts.
pub fn inside(path: &Path) -> bool {
    path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Module versions in order: semver's (`1.10.0` after `1.9.0`, a
/// pre-release before its release), numbers part by part for what is not semver.
pub fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    match (semver::Version::parse(a), semver::Version::parse(b)) {
        (Ok(a), Ok(b)) => a.cmp(&b),
        _ => {
            let key = |v: &str| -> Vec<u64> { v.split(['.', '-', '+']).map(|p| p.parse().unwrap_or(0)).collect() };
            key(a).cmp(&key(b))
        }
    }
}

/// This machine as prebuilt libraries are chosen for it: `<target> with ABI <major>`.
pub fn host_platform() -> String {
    format!("{HOST_TARGET} with ABI {}", amplifier_abi::ABI_MAJOR)
}

/// An `amplifier.toml` that cannot be read or is invalid; `path` names it.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error(transparent)]
    File(#[from] TomlFileError),
    #[error("{}: artifacts.{target}.library must be a relative path inside the module's directory", path.display())]
    ArtifactOutside { path: PathBuf, target: String },
    #[error(
        "{}: module.artifact and module.sha256 are now written per target: \
         [artifacts.<target>] with library, sha256 and abi (`amplifier module package` writes it)",
        path.display()
    )]
    UntargetedArtifact { path: PathBuf },
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
    /// Prebuilt libraries, by target triple.
    #[serde(default)]
    pub artifacts: BTreeMap<String, Artifact>,
    #[serde(skip)]
    pub path: PathBuf,
}

/// One prebuilt library of a module. Keys it does not know are left for
/// the amplifier that wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// The library, relative to the manifest's directory.
    pub library: String,
    /// sha256 (hex) of the library, checked before it is opened.
    pub sha256: String,
    /// The ABI major it was built for.
    pub abi: u32,
}

/// The prebuilt library a host can use: its path and expected sha256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostArtifact {
    pub library: PathBuf,
    pub sha256: String,
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
    /// The untargeted form `[artifacts]` replaced: read only to say so.
    #[serde(default, rename = "artifact")]
    legacy_artifact: Option<toml::Value>,
    #[serde(default, rename = "sha256")]
    legacy_sha256: Option<toml::Value>,
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

    /// What TOML cannot say: an artifact stays inside the module's
    /// directory, and every kind is one amplifier knows.
    fn checked(mut self, path: PathBuf) -> Result<Manifest, ManifestError> {
        if self.module.legacy_artifact.is_some() || self.module.legacy_sha256.is_some() {
            return Err(ManifestError::UntargetedArtifact { path });
        }
        for (target, artifact) in &self.artifacts {
            let inside = inside(Path::new(&artifact.library));
            if !inside || artifact.library.is_empty() {
                return Err(ManifestError::ArtifactOutside { path, target: target.clone() });
            }
        }
        if let Some(kind) = self.module.kinds.iter().find(|k| !amplifier_abi::kind::ALL.contains(&k.as_str())) {
            return Err(ManifestError::UnknownKind { path, kind: kind.clone() });
        }
        self.path = path;
        Ok(self)
    }

    /// The prebuilt library for this host: built for its target triple and
    /// its ABI major.
    pub fn artifact(&self) -> Option<HostArtifact> {
        let artifact = self.artifacts.get(HOST_TARGET).filter(|a| a.abi == amplifier_abi::ABI_MAJOR)?;
        let dir = self.path.parent()?;
        Some(HostArtifact { library: dir.join(&artifact.library), sha256: artifact.sha256.to_ascii_lowercase() })
    }

    /// The targets (and ABIs) this manifest has prebuilt libraries for, for messages.
    pub fn artifact_targets(&self) -> String {
        let targets: Vec<String> =
            self.artifacts.iter().map(|(target, artifact)| format!("{target} (ABI {})", artifact.abi)).collect();
        match targets.is_empty() {
            true => "none".to_owned(),
            false => targets.join(", "),
        }
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
    fn the_hosts_artifact_is_the_one_of_its_target_and_abi() {
        let dir = tempfile::tempdir().unwrap();
        let head = "[module]\nname = \"x\"\nkinds = [\"tool\"]\nversion = \"1.0.0\"\nabi = 1\n";
        let write =
            |artifacts: &str| std::fs::write(dir.path().join(MANIFEST_FILE), format!("{head}{artifacts}")).unwrap();
        write(&format!(
            "[artifacts.{HOST_TARGET}]\nlibrary = \"lib/libx.so\"\nsha256 = \"AB12\"\nabi = 1\n\
             [artifacts.riscv64gc-unknown-linux-gnu]\nlibrary = \"lib/riscv/libx.so\"\nsha256 = \"cd\"\nabi = 1\n"
        ));
        let manifest = Manifest::read_dir(dir.path()).unwrap().unwrap();
        let expected = HostArtifact { library: dir.path().join("lib/libx.so"), sha256: "ab12".to_owned() };
        assert_eq!(manifest.artifact(), Some(expected));
        assert!(manifest.artifact_targets().contains("riscv64gc-unknown-linux-gnu (ABI 1)"));

        write(&format!("[artifacts.{HOST_TARGET}]\nlibrary = \"libx.so\"\nsha256 = \"ab\"\nabi = 99\n"));
        assert_eq!(Manifest::read_dir(dir.path()).unwrap().unwrap().artifact(), None, "another ABI");
        write("[artifacts.t]\nlibrary = \"../libx.so\"\nsha256 = \"ab\"\nabi = 1\n");
        let err = Manifest::read_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("artifacts.t.library must be a relative path inside"), "{err}");
        write("[artifacts.t]\nlibrary = \"libx.so\"\nabi = 1\n");
        let err = Manifest::read_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("sha256"), "{err}");
        let legacy = "[module]\nname = \"x\"\nkinds = [\"tool\"]\nversion = \"1.0.0\"\nabi = 1\nartifact = \"libx.so\"\nsha256 = \"ab\"\n";
        std::fs::write(dir.path().join(MANIFEST_FILE), legacy).unwrap();
        let err = Manifest::read_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("are now written per target: [artifacts.<target>]"), "{err}");
    }

    #[test]
    fn versions_are_ordered_as_semver_says() {
        use std::cmp::Ordering::*;
        assert_eq!(version_order("1.10.0", "1.9.0"), Greater);
        assert_eq!(version_order("0.2.0-beta.1", "0.2.0"), Less);
        assert_eq!(version_order("0.2.0-beta.2", "0.2.0-rc.1"), Less);
        assert_eq!(version_order("2", "10"), Less, "not semver: by number");
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
