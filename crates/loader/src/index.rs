//! Module indexes: where `amplifier module search`, `add` and `install NAME`
//! find modules by name.
//!
//! An index is a directory of TOML entries, one per module, `<name>.toml`,
//! and an `index.toml` that lists them (`modules = ["tool-weather", …]`, so
//! an index served over HTTP can be read without a directory listing). It
//! may be a local directory, a git repository (`git+URL[@REF][#subdirectory=DIR]`,
//! fetched into the git cache like module sources), or an `http(s)://` URL
//! of the directory.
//!
//! ```toml
//! # tool-weather.toml
//! name = "tool-weather"
//! description = "Current weather for a city"
//! kinds = ["tool"]
//! keywords = ["weather", "forecast"]
//!
//! [[versions]]
//! version = "0.2.0"
//! abi = 1
//! source = "git+https://example.org/tools@v0.2.0#subdirectory=tool-weather"   # optional
//!
//! # packages (`amplifier module package`), by target; `package` is relative
//! # to the index, or a URL; `sha256` is the package file's
//! [versions.artifacts.x86_64-unknown-linux-gnu]
//! package = "tool-weather-0.2.0-x86_64-unknown-linux-gnu.tar.gz"
//! sha256 = "…"
//! ```
//!
//! `amplifier module package DIR --index INDEX_DIR` writes the package into
//! a local index and adds it to the module's entry ([`publish`]).

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::git::{GitCache, GitSpec};
use crate::lockfile;
use crate::manifest::{Manifest, HOST_TARGET};

pub const INDEX_FILE: &str = "index.toml";

/// One module's entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub kinds: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub versions: Vec<EntryVersion>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryVersion {
    pub version: String,
    /// The ABI major the version was built for.
    pub abi: u32,
    /// Where its source is: anything a plan's `source` takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Its packages, by target triple.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub artifacts: BTreeMap<String, EntryArtifact>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryArtifact {
    /// The package: relative to the index, or a URL.
    pub package: String,
    /// sha256 (hex) of the package file.
    pub sha256: String,
}

/// `index.toml`.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Listing {
    #[serde(default)]
    modules: Vec<String>,
}

/// Gets a URL's bytes (the front end's HTTP client: the loader has none).
pub trait Fetch {
    fn fetch(&self, url: &str) -> Result<Vec<u8>, String>;
}

/// Where an index's files are read from.
#[derive(Debug, Clone)]
enum Base {
    Dir(PathBuf),
    Url(String),
}

/// An index, read.
#[derive(Debug)]
pub struct Index {
    /// As configured (for messages).
    pub location: String,
    base: Base,
    pub entries: Vec<Entry>,
}

/// What a version offers this machine, in the order `install` prefers it.
#[derive(Debug, Clone, PartialEq)]
pub enum Offer<'a> {
    /// A package with a library prebuilt for this host's target.
    Prebuilt(&'a EntryArtifact),
    /// Its source, to build.
    Source(&'a str),
    /// A package for another target, whose source is built.
    OtherPackage { target: &'a str, artifact: &'a EntryArtifact },
}

fn invalid(location: &str, why: impl std::fmt::Display) -> String {
    format!("index {location}: {why}")
}

impl Index {
    /// Reads the index at `location` (a directory, a `git+` URL or an
    /// `http(s)://` URL; a relative directory from `base_dir`).
    pub fn open(location: &str, base_dir: &Path, git: &GitCache, http: &dyn Fetch) -> Result<Index, String> {
        let base = if location.starts_with("git+") {
            let spec = GitSpec::parse(location, Some(base_dir)).map_err(|err| invalid(location, err))?;
            let checkout = git.checkout(&spec).map_err(|err| invalid(location, err))?;
            Base::Dir(checkout.module_dir)
        } else if location.starts_with("https://") || location.starts_with("http://") {
            Base::Url(format!("{}/", location.trim_end_matches('/')))
        } else {
            Base::Dir(base_dir.join(location))
        };
        let read = |file: &str| -> Result<String, String> {
            match &base {
                Base::Dir(dir) => std::fs::read_to_string(dir.join(file))
                    .map_err(|err| invalid(location, format!("{}: {err}", dir.join(file).display()))),
                Base::Url(url) => {
                    let bytes = http.fetch(&format!("{url}{file}")).map_err(|err| invalid(location, err))?;
                    String::from_utf8(bytes).map_err(|err| invalid(location, format!("{file}: {err}")))
                }
            }
        };
        let listing: Listing =
            toml::from_str(&read(INDEX_FILE)?).map_err(|err| invalid(location, format!("{INDEX_FILE}: {err}")))?;
        let mut entries = Vec::new();
        for name in &listing.modules {
            if !safe_file_name(name) {
                return Err(invalid(location, format!("{INDEX_FILE} lists '{name}', which is not a module name")));
            }
            let file = format!("{name}.toml");
            let entry: Entry =
                toml::from_str(&read(&file)?).map_err(|err| invalid(location, format!("{file}: {err}")))?;
            if entry.name != *name {
                return Err(invalid(location, format!("{file} is the entry of '{}'", entry.name)));
            }
            entries.push(entry);
        }
        Ok(Index { location: location.to_owned(), base, entries })
    }

    /// The index's directory, when it is read from one (a local or git
    /// index): what a relative `source` of its entries is relative to.
    pub fn dir(&self) -> Option<&Path> {
        match &self.base {
            Base::Dir(dir) => Some(dir),
            Base::Url(_) => None,
        }
    }

    pub fn find(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.name == name)
    }

    /// The entries every word matches (name, description, kinds or
    /// keywords, ignoring case).
    pub fn search(&self, words: &[String]) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|entry| {
                let text = format!(
                    "{} {} {} {}",
                    entry.name,
                    entry.description,
                    entry.kinds.join(" "),
                    entry.keywords.join(" ")
                )
                .to_lowercase();
                words.iter().all(|word| text.contains(&word.to_lowercase()))
            })
            .collect()
    }

    /// The package an artifact names, as a local file: read from the index's
    /// directory, or downloaded into `downloads`; its sha256 checked
    /// against the entry's.
    pub fn package(&self, artifact: &EntryArtifact, downloads: &Path, http: &dyn Fetch) -> Result<PathBuf, String> {
        let location = &self.location;
        let url = |base: &str| match artifact.package.contains("://") {
            true => artifact.package.clone(),
            false => format!("{base}{}", artifact.package),
        };
        let path = match (&self.base, artifact.package.contains("://")) {
            (Base::Dir(dir), false) => {
                if !Path::new(&artifact.package).components().all(|c| matches!(c, Component::Normal(_))) {
                    return Err(invalid(location, format!("the package '{}' is outside the index", artifact.package)));
                }
                dir.join(&artifact.package)
            }
            (base, _) => {
                let url = url(match base {
                    Base::Url(url) => url,
                    Base::Dir(_) => "",
                });
                let bytes = http.fetch(&url).map_err(|err| invalid(location, err))?;
                let name = url.rsplit('/').next().filter(|n| safe_file_name(n)).unwrap_or("package.tar.gz");
                std::fs::create_dir_all(downloads).map_err(|err| format!("{}: {err}", downloads.display()))?;
                let path = downloads.join(format!("{}-{name}", std::process::id()));
                std::fs::write(&path, bytes).map_err(|err| format!("{}: {err}", path.display()))?;
                path
            }
        };
        let actual = lockfile::sha256_file(&path).map_err(|err| invalid(location, err))?;
        if actual != artifact.sha256.to_ascii_lowercase() {
            return Err(format!(
                "refused {}: the index ({location}) says sha256 = {}, the file has {actual}",
                artifact.package, artifact.sha256
            ));
        }
        Ok(path)
    }
}

/// A name or version usable as one path component.
pub fn safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
}

/// Versions in order: `1.10.0` after `1.9.0`.
pub fn version_key(version: &str) -> Vec<u64> {
    version.split(['.', '-', '+']).map(|part| part.parse().unwrap_or(0)).collect()
}

impl Entry {
    /// The version to install: `requested`, else the newest this amplifier's
    /// ABI can load.
    pub fn choose(&self, requested: Option<&str>) -> Result<&EntryVersion, String> {
        let abi = amplifier_abi::ABI_MAJOR;
        let listed = || {
            let versions: Vec<String> =
                self.versions.iter().map(|v| format!("{} (ABI {})", v.version, v.abi)).collect();
            versions.join(", ")
        };
        match requested {
            Some(requested) => {
                let version = self
                    .versions
                    .iter()
                    .find(|v| v.version == requested)
                    .ok_or_else(|| format!("{} has no version {requested} (it has {})", self.name, listed()))?;
                if version.abi != abi {
                    return Err(format!(
                        "{} {requested} is for ABI {}; this amplifier loads ABI {abi}",
                        self.name, version.abi
                    ));
                }
                Ok(version)
            }
            None => self
                .versions
                .iter()
                .filter(|v| v.abi == abi)
                .max_by_key(|v| version_key(&v.version))
                .ok_or_else(|| format!("{} has no version for ABI {abi} (it has {})", self.name, listed())),
        }
    }
}

impl EntryVersion {
    /// What this version offers this machine, best first: a package for
    /// its target, the source, a package for another target.
    pub fn offer(&self) -> Option<Offer<'_>> {
        if let Some(artifact) = self.artifacts.get(HOST_TARGET) {
            return Some(Offer::Prebuilt(artifact));
        }
        if let Some(source) = &self.source {
            return Some(Offer::Source(source));
        }
        self.artifacts.iter().next().map(|(target, artifact)| Offer::OtherPackage { target, artifact })
    }
}

/// A package's file name in an index: `<name>-<version>-<target>.tar.gz`
/// (one per target).
pub fn package_file_name(manifest: &Manifest) -> String {
    format!("{}-{}-{HOST_TARGET}.tar.gz", manifest.module.name, manifest.module.version)
}

/// Adds a package of `manifest`'s module for this host's target to the
/// local index at `index_dir`: copies it in as
/// `<name>-<version>-<target>.tar.gz` and records it in the module's entry
/// (created, or given this version) and in `index.toml`. The entry's file.
pub fn publish(index_dir: &Path, manifest: &Manifest, package: &Path, sha256: &str) -> Result<PathBuf, String> {
    let module = &manifest.module;
    let io = |path: &Path, err: std::io::Error| format!("{}: {err}", path.display());
    std::fs::create_dir_all(index_dir).map_err(|err| io(index_dir, err))?;
    let file_name = package_file_name(manifest);
    let copy = index_dir.join(&file_name);
    if package != copy {
        std::fs::copy(package, &copy).map_err(|err| io(&copy, err))?;
    }
    let entry_path = index_dir.join(format!("{}.toml", module.name));
    let mut entry = match std::fs::read_to_string(&entry_path) {
        Ok(text) => toml::from_str::<Entry>(&text).map_err(|err| format!("{}: {err}", entry_path.display()))?,
        Err(_) => Entry {
            name: module.name.clone(),
            description: String::new(),
            kinds: Vec::new(),
            keywords: Vec::new(),
            versions: Vec::new(),
        },
    };
    entry.description = module.description.clone();
    entry.kinds = module.kinds.clone();
    let position = match entry.versions.iter().position(|v| v.version == module.version) {
        Some(position) => position,
        None => {
            entry.versions.push(EntryVersion {
                version: module.version.clone(),
                abi: amplifier_abi::ABI_MAJOR,
                source: None,
                artifacts: BTreeMap::new(),
            });
            entry.versions.len() - 1
        }
    };
    let version = &mut entry.versions[position];
    version.abi = amplifier_abi::ABI_MAJOR;
    version.artifacts.insert(HOST_TARGET.to_owned(), EntryArtifact { package: file_name, sha256: sha256.to_owned() });
    entry.versions.sort_by_key(|v| version_key(&v.version));
    let text = toml::to_string(&entry).map_err(|err| err.to_string())?;
    std::fs::write(&entry_path, text).map_err(|err| io(&entry_path, err))?;

    let listing_path = index_dir.join(INDEX_FILE);
    let mut listing: Listing = match std::fs::read_to_string(&listing_path) {
        Ok(text) => toml::from_str(&text).map_err(|err| format!("{}: {err}", listing_path.display()))?,
        Err(_) => Listing::default(),
    };
    if !listing.modules.contains(&module.name) {
        listing.modules.push(module.name.clone());
        listing.modules.sort();
    }
    let text = toml::to_string(&listing).map_err(|err| err.to_string())?;
    std::fs::write(&listing_path, text).map_err(|err| io(&listing_path, err))?;
    Ok(entry_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoHttp;

    impl Fetch for NoHttp {
        fn fetch(&self, url: &str) -> Result<Vec<u8>, String> {
            Err(format!("no network in this test ({url})"))
        }
    }

    fn manifest(dir: &Path, version: &str) -> Manifest {
        let text = format!(
            "[module]\nname = \"tool-x\"\nkinds = [\"tool\"]\nversion = \"{version}\"\nabi = 1\ndescription = \"Weather for a city\"\n"
        );
        std::fs::write(dir.join("amplifier.toml"), text).unwrap();
        Manifest::read_dir(dir).unwrap().unwrap()
    }

    #[test]
    fn published_packages_are_found_searched_chosen_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let index_dir = dir.path().join("index");
        let package = dir.path().join("p.tar.gz");
        std::fs::write(&package, b"package bytes").unwrap();
        let sha = lockfile::sha256_file(&package).unwrap();
        publish(&index_dir, &manifest(dir.path(), "0.9.0"), &package, &sha).unwrap();
        publish(&index_dir, &manifest(dir.path(), "0.10.0"), &package, &sha).unwrap();

        let git = GitCache::new(&dir.path().join("home"));
        let index = Index::open("index", dir.path(), &git, &NoHttp).unwrap();
        assert_eq!(index.search(&["WEATHER".into(), "tool".into()]).len(), 1);
        assert!(index.search(&["rain".into()]).is_empty());
        let entry = index.find("tool-x").unwrap();
        let newest = entry.choose(None).unwrap();
        assert_eq!(newest.version, "0.10.0", "by number, not by text");
        assert_eq!(entry.choose(Some("0.9.0")).unwrap().version, "0.9.0");
        assert!(entry
            .choose(Some("2.0.0"))
            .unwrap_err()
            .contains("has no version 2.0.0 (it has 0.9.0 (ABI 1), 0.10.0 (ABI 1))"));
        let Some(Offer::Prebuilt(artifact)) = newest.offer() else { panic!("{:?}", newest.offer()) };
        let local = index.package(artifact, &dir.path().join("downloads"), &NoHttp).unwrap();
        assert_eq!(std::fs::read(local).unwrap(), b"package bytes");

        let mut altered = artifact.clone();
        altered.sha256 = "0".repeat(64);
        let err = index.package(&altered, &dir.path().join("downloads"), &NoHttp).unwrap_err();
        assert!(err.contains("the index (index) says sha256 = 000"), "{err}");
        altered.package = "../p.tar.gz".into();
        assert!(index.package(&altered, dir.path(), &NoHttp).unwrap_err().contains("outside the index"));
    }

    #[test]
    fn an_offer_prefers_this_machines_package_then_the_source() {
        let artifact = EntryArtifact { package: "p".into(), sha256: "s".into() };
        let mut version =
            EntryVersion { version: "1.0.0".into(), abi: 1, source: Some("git+x".into()), artifacts: BTreeMap::new() };
        version.artifacts.insert("riscv64gc-unknown-linux-gnu".into(), artifact.clone());
        assert_eq!(version.offer(), Some(Offer::Source("git+x")));
        version.source = None;
        assert!(matches!(version.offer(), Some(Offer::OtherPackage { target: "riscv64gc-unknown-linux-gnu", .. })));
        version.artifacts.insert(HOST_TARGET.into(), artifact.clone());
        assert_eq!(version.offer(), Some(Offer::Prebuilt(&artifact)));
    }
}
