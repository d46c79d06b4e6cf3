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
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::git::{GitCache, GitSpec};
use crate::lockfile;
use crate::manifest::{inside, version_order, Manifest, HOST_TARGET};

pub const INDEX_FILE: &str = "index.toml";

/// One module's entry. The index structures ignore keys they do not know:
/// an index written for a newer amplifier still serves an older one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct EntryArtifact {
    /// The package: relative to the index, or a URL.
    pub package: String,
    /// sha256 (hex) of the package file.
    pub sha256: String,
}

/// `index.toml`.
#[derive(Debug, Default, Serialize, Deserialize)]
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
    /// Entries left out, each with why: one bad entry does not hide the others.
    pub warnings: Vec<String>,
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
        } else if is_url(location) {
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
        let (mut entries, mut warnings) = (Vec::new(), Vec::new());
        for name in &listing.modules {
            if !safe_file_name(name) {
                warnings.push(invalid(location, format!("{INDEX_FILE} lists '{name}', which is not a module name")));
                continue;
            }
            let file = format!("{name}.toml");
            let entry = read(&file).and_then(|text| {
                toml::from_str::<Entry>(&text).map_err(|err| invalid(location, format!("{file}: {err}")))
            });
            match entry {
                Ok(entry) if entry.name == *name => entries.push(entry),
                Ok(entry) => warnings.push(invalid(location, format!("{file} is the entry of '{}'", entry.name))),
                Err(err) => warnings.push(err),
            }
        }
        Ok(Index { location: location.to_owned(), base, entries, warnings })
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
    /// directory, or downloaded into `downloads` (a [`Package::Downloaded`]
    /// the caller removes when done); its sha256 checked against the entry's.
    pub fn package(&self, artifact: &EntryArtifact, downloads: &Path, http: &dyn Fetch) -> Result<Package, String> {
        let location = &self.location;
        let package = match (&self.base, is_url(&artifact.package)) {
            (Base::Dir(dir), false) => {
                if !inside(Path::new(&artifact.package)) {
                    return Err(invalid(location, format!("the package '{}' is outside the index", artifact.package)));
                }
                Package::Local(dir.join(&artifact.package))
            }
            (base, _) => {
                let url = match (base, is_url(&artifact.package)) {
                    (Base::Url(url), false) => format!("{url}{}", artifact.package),
                    _ => artifact.package.clone(),
                };
                let bytes = http.fetch(&url).map_err(|err| invalid(location, err))?;
                Package::Downloaded(save_download(&url, &bytes, downloads)?)
            }
        };
        let actual = lockfile::sha256_file(package.path()).map_err(|err| invalid(location, err))?;
        if actual != artifact.sha256.to_ascii_lowercase() {
            package.discard();
            return Err(format!(
                "refused {}: the index ({location}) says sha256 = {}, the file has {actual}",
                artifact.package, artifact.sha256
            ));
        }
        Ok(package)
    }

    /// A version's `source` as a plan would take it: a relative path is
    /// relative to a local index; an index served over HTTP has none.
    pub fn source(&self, source: &str) -> Result<String, String> {
        let relative = !is_url(source) && !source.starts_with("git+") && Path::new(source).is_relative();
        match (&self.base, relative) {
            (_, false) => Ok(source.to_owned()),
            (Base::Dir(dir), true) => Ok(dir.join(source).display().to_string()),
            (Base::Url(_), true) => Err(invalid(
                &self.location,
                format!("the source '{source}' is a relative path in an index served over HTTP"),
            )),
        }
    }
}

/// A package file an index named.
#[derive(Debug)]
pub enum Package {
    /// In the index's own directory.
    Local(PathBuf),
    /// Downloaded: remove it when done ([`Package::discard`]).
    Downloaded(PathBuf),
}

impl Package {
    pub fn path(&self) -> &Path {
        match self {
            Package::Local(path) | Package::Downloaded(path) => path,
        }
    }

    /// Removes a downloaded package.
    pub fn discard(&self) {
        if let Package::Downloaded(path) = self {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Whether `location` is an `http(s)://` URL.
pub fn is_url(location: &str) -> bool {
    location.starts_with("https://") || location.starts_with("http://")
}

/// Writes downloaded `bytes` into `dir` under a name taken from `url`; the file.
pub fn save_download(url: &str, bytes: &[u8], dir: &Path) -> Result<PathBuf, String> {
    let name = url.rsplit('/').next().filter(|name| safe_file_name(name)).unwrap_or("download");
    let path = dir.join(format!("{}-{name}", std::process::id()));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, bytes))
        .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    Ok(path)
}

fn is_prerelease(version: &str) -> bool {
    semver::Version::parse(version).is_ok_and(|v| !v.pre.is_empty())
}

/// A name or version usable as one path component.
pub fn safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
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
            None => {
                // As cargo: a pre-release only when asked for, or when there is nothing else.
                let loadable: Vec<&EntryVersion> = self.versions.iter().filter(|v| v.abi == abi).collect();
                let released: Vec<&EntryVersion> =
                    loadable.iter().copied().filter(|v| !is_prerelease(&v.version)).collect();
                let candidates = if released.is_empty() { loadable } else { released };
                candidates
                    .into_iter()
                    .max_by(|a, b| version_order(&a.version, &b.version))
                    .ok_or_else(|| format!("{} has no version for ABI {abi} (it has {})", self.name, listed()))
            }
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
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => return Err(io(&entry_path, err)),
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
    entry.versions.sort_by(|a, b| version_order(&a.version, &b.version));
    write_aside(&entry_path, &toml::to_string(&entry).map_err(|err| err.to_string())?)?;

    let listing_path = index_dir.join(INDEX_FILE);
    let mut listing: Listing = match std::fs::read_to_string(&listing_path) {
        Ok(text) => toml::from_str(&text).map_err(|err| format!("{}: {err}", listing_path.display()))?,
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => return Err(io(&listing_path, err)),
        Err(_) => Listing::default(),
    };
    if !listing.modules.contains(&module.name) {
        listing.modules.push(module.name.clone());
        listing.modules.sort();
    }
    write_aside(&listing_path, &toml::to_string(&listing).map_err(|err| err.to_string())?)?;
    Ok(entry_path)
}

/// Writes `text` to a file beside `path`, then renames it over `path`: a
/// reader of the index sees the old file or the new one, never half of one.
fn write_aside(path: &Path, text: &str) -> Result<(), String> {
    let partial = PathBuf::from(format!("{}.partial-{}", path.display(), std::process::id()));
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|err| format!("cannot write {}: {err}", path.display()))
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
        assert_eq!(std::fs::read(local.path()).unwrap(), b"package bytes");
        let mut here = artifact.clone();
        here.package = format!("./{}", artifact.package);
        assert!(index.package(&here, dir.path(), &NoHttp).is_ok(), "`./` stays in the index");

        let mut altered = artifact.clone();
        altered.sha256 = "0".repeat(64);
        let err = index.package(&altered, &dir.path().join("downloads"), &NoHttp).unwrap_err();
        assert!(err.contains("the index (index) says sha256 = 000"), "{err}");
        altered.package = "../p.tar.gz".into();
        assert!(index.package(&altered, dir.path(), &NoHttp).unwrap_err().contains("outside the index"));

        // A pre-release only when asked for; a broken entry is left out, with why.
        publish(&index_dir, &manifest(dir.path(), "0.11.0-beta.1"), &package, &sha).unwrap();
        std::fs::write(index_dir.join("index.toml"), "modules = [\"tool-x\", \"tool-y\"]\n").unwrap();
        std::fs::write(index_dir.join("tool-y.toml"), "name = 3\n").unwrap();
        let index = Index::open("index", dir.path(), &git, &NoHttp).unwrap();
        let entry = index.find("tool-x").unwrap();
        assert_eq!(entry.choose(None).unwrap().version, "0.10.0");
        assert_eq!(entry.choose(Some("0.11.0-beta.1")).unwrap().version, "0.11.0-beta.1");
        let versions: Vec<&str> = entry.versions.iter().map(|v| v.version.as_str()).collect();
        assert_eq!(versions, ["0.9.0", "0.10.0", "0.11.0-beta.1"]);
        assert!(index.find("tool-y").is_none());
        assert!(index.warnings[0].contains("tool-y.toml"), "{:?}", index.warnings);
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
