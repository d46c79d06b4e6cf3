//! The SDK this host was built with, carried as source.
//!
//! A module depends on `amplifier-sdk` by version (`amplifier-sdk = "0.1"`),
//! never by path, so its crate builds anywhere. Until the SDK is on
//! crates.io, the host supplies it: the builder passes cargo a
//! config-level `[patch.crates-io]` pointing at a copy written from this
//! source (`$AMPLIFIER_HOME/sdk/<version>-<digest>/`), and `amplifier module
//! new` writes the same copy into the new crate for a plain `cargo build`.
//! Once the SDK is published the same `Cargo.toml` builds from the registry.
//!
//! The copy is three crates (`sdk`, `abi`, `protocol`), each made
//! stand-alone: what its `Cargo.toml` inherits from this workspace is
//! written out, and the path dependencies between them point at each other.

use std::path::{Path, PathBuf};

use toml::{Table, Value};

include!(concat!(env!("OUT_DIR"), "/sdk_files.rs"));

/// The version of `amplifier-sdk` this host carries (the workspace's).
pub const SDK_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The directory, inside a copy, of the `amplifier-sdk` crate.
pub const SDK_CRATE_DIR: &str = "sdk";

/// What [`write_to`] could not do.
#[derive(Debug, thiserror::Error)]
pub enum SdkSourceError {
    #[error("cannot write the SDK source to {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    /// The embedded manifests do not fit together: a bug of this build.
    #[error("the embedded SDK source is inconsistent: {0}")]
    Inconsistent(String),
}

/// A hash of the embedded source (and so of the SDK a module is built
/// against), taken when the host was built: part of every module's build
/// fingerprint.
pub fn digest() -> &'static str {
    SDK_DIGEST
}

/// The host's copy, `$AMPLIFIER_HOME/sdk/<version>-<digest>/`, written on
/// first use; the path of its `amplifier-sdk` crate.
pub fn host_copy(amplifier_home: &Path) -> Result<PathBuf, SdkSourceError> {
    let dir = amplifier_home.join("sdk").join(format!("{SDK_VERSION}-{SDK_DIGEST}"));
    if !dir.join(SDK_CRATE_DIR).join("Cargo.toml").is_file() {
        // Written aside and renamed: a concurrent build never sees half a copy.
        let partial = PathBuf::from(format!("{}.partial-{}", dir.display(), std::process::id()));
        let _ = std::fs::remove_dir_all(&partial);
        write_to(&partial)?;
        if let Err(source) = std::fs::rename(&partial, &dir) {
            let _ = std::fs::remove_dir_all(&partial);
            // Another process got there first.
            if !dir.join(SDK_CRATE_DIR).join("Cargo.toml").is_file() {
                return Err(SdkSourceError::Write { path: dir, source });
            }
        }
    }
    Ok(dir.join(SDK_CRATE_DIR))
}

/// Writes the stand-alone crates into `dir` (`dir/sdk`, `dir/abi`,
/// `dir/protocol`).
pub fn write_to(dir: &Path) -> Result<(), SdkSourceError> {
    let workspace: Table = toml::from_str(WORKSPACE_MANIFEST)
        .map_err(|err| SdkSourceError::Inconsistent(format!("the workspace manifest: {err}")))?;
    for (relative, bytes) in SDK_FILES {
        let path = dir.join(relative);
        let contents = if path.file_name().is_some_and(|name| name == "Cargo.toml") {
            let text =
                std::str::from_utf8(bytes).map_err(|err| SdkSourceError::Inconsistent(format!("{relative}: {err}")))?;
            stand_alone_manifest(text, &workspace)
                .map_err(|err| SdkSourceError::Inconsistent(format!("{relative}: {err}")))?
                .into_bytes()
        } else {
            bytes.to_vec()
        };
        std::fs::create_dir_all(path.parent().unwrap_or(dir))
            .and_then(|()| std::fs::write(&path, contents))
            .map_err(|source| SdkSourceError::Write { path, source })?;
    }
    Ok(())
}

/// `text` (a member's `Cargo.toml`) with what it inherits from `workspace`
/// written out; path dependencies become siblings (`../abi`).
fn stand_alone_manifest(text: &str, workspace: &Table) -> Result<String, String> {
    let mut manifest: Table = toml::from_str(text).map_err(|err| err.to_string())?;
    let section = |name: &str| workspace.get("workspace").and_then(|w| w.get(name)).and_then(Value::as_table);
    let (package_defaults, dependencies) = (section("package"), section("dependencies"));
    if let Some(package) = manifest.get_mut("package").and_then(Value::as_table_mut) {
        for (key, value) in package.iter_mut() {
            if inherits(value) {
                *value = package_defaults
                    .and_then(|defaults| defaults.get(key))
                    .cloned()
                    .ok_or_else(|| format!("package.{key} is inherited, but the workspace does not set it"))?;
            }
        }
    }
    for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(table) = manifest.get_mut(kind).and_then(Value::as_table_mut) else { continue };
        for (name, dependency) in table.iter_mut() {
            if inherits(dependency) {
                let inherited = dependencies
                    .and_then(|all| all.get(name))
                    .ok_or_else(|| format!("{kind}.{name} is inherited, but the workspace does not declare it"))?;
                *dependency = Value::Table(inherited_dependency(inherited, dependency.as_table().expect("a table")));
            }
        }
    }
    toml::to_string(&manifest).map_err(|err| err.to_string())
}

/// `{workspace = true}`, the form of an inherited key.
fn inherits(value: &Value) -> bool {
    value.get("workspace").and_then(Value::as_bool) == Some(true)
}

/// The workspace's declaration of a dependency with the member's additions
/// (`features` add up; `optional` and the like are the member's).
fn inherited_dependency(inherited: &Value, member: &Table) -> Table {
    let mut dependency = match inherited {
        Value::String(version) => Table::from_iter([("version".to_owned(), Value::String(version.clone()))]),
        other => other.as_table().cloned().unwrap_or_default(),
    };
    if let Some(path) = dependency.get("path").and_then(Value::as_str) {
        let sibling = Path::new(path).file_name().and_then(|name| name.to_str()).unwrap_or(path);
        dependency.insert("path".to_owned(), Value::String(format!("../{sibling}")));
        dependency.insert("version".to_owned(), Value::String(SDK_VERSION.to_owned()));
    }
    for (key, value) in member {
        match (key.as_str(), dependency.get_mut(key)) {
            ("workspace", _) => {}
            ("features", Some(Value::Array(features))) => {
                for feature in value.as_array().into_iter().flatten() {
                    if !features.contains(feature) {
                        features.push(feature.clone());
                    }
                }
            }
            _ => {
                dependency.insert(key.clone(), value.clone());
            }
        }
    }
    dependency
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inherited_keys_are_written_out_and_path_dependencies_become_siblings() {
        let workspace: Table = toml::from_str(
            "[workspace.package]\nversion = \"0.3.0\"\nedition = \"2021\"\n\
             [workspace.dependencies]\namplifier-abi = { path = \"crates/abi\" }\nserde = \"1\"\n\
             tokio = { version = \"1.5\", features = [\"rt\"] }\n",
        )
        .unwrap();
        let member = "[package]\nname = \"amplifier-sdk\"\nversion.workspace = true\nedition.workspace = true\n\
            [dependencies]\namplifier-abi.workspace = true\nserde = { workspace = true, optional = true }\n\
            tokio = { workspace = true, features = [\"rt\", \"time\"] }\n";
        let written: Table = toml::from_str(&stand_alone_manifest(member, &workspace).unwrap()).unwrap();
        assert_eq!(written["package"]["version"].as_str(), Some("0.3.0"));
        assert_eq!(written["package"]["edition"].as_str(), Some("2021"));
        let dependencies = &written["dependencies"];
        assert_eq!(dependencies["amplifier-abi"]["path"].as_str(), Some("../abi"));
        assert_eq!(dependencies["amplifier-abi"]["version"].as_str(), Some(SDK_VERSION));
        assert_eq!(
            dependencies["serde"].as_table().unwrap(),
            &toml::from_str::<Table>("version = \"1\"\noptional = true").unwrap()
        );
        assert_eq!(dependencies["tokio"]["features"], Value::Array(vec!["rt".into(), "time".into()]));
        let missing = "[package]\nname = \"x\"\nlicense.workspace = true\n";
        assert!(stand_alone_manifest(missing, &workspace).unwrap_err().contains("package.license"));
    }

    #[test]
    fn the_embedded_sdk_is_written_stand_alone() {
        let dir = tempfile::tempdir().unwrap();
        write_to(dir.path()).unwrap();
        for name in ["sdk", "abi", "protocol"] {
            let text = std::fs::read_to_string(dir.path().join(name).join("Cargo.toml")).unwrap();
            assert!(!text.contains("workspace"), "{name}: {text}");
        }
        assert!(dir.path().join("sdk/src/lib.rs").is_file());
        assert_eq!(digest().len(), 16);
    }
}
