//! Builds plugin crates with cargo and caches the libraries.
//!
//! Start-up time is a product feature, so a cache hit must not start cargo:
//! the cache key is a fingerprint of the crate's sources, the sources of its
//! path dependencies (the SDK, the ABI crate…), the workspace's `Cargo.lock`,
//! the host's rustc, the SDK it carries and the ABI major version. Layout:
//!
//! ```text
//! $AMPLIFIER_HOME/cache/plugins/<crate>-<fingerprint>-<profile>/lib<crate>.so   # one per fingerprint
//! $AMPLIFIER_HOME/cache/target/                                                 # shared cargo target dir
//! ```
//!
//! Every edit of a module makes a new entry, so storing one removes all but
//! the [`KEEP_PER_CRATE`] newest entries of that crate and profile (a module
//! author iterating would otherwise fill the disk: a debug build is ~30 MB),
//! sparing entries younger than [`PRUNE_GRACE`], which another process may
//! have just built and not yet opened. A pruned entry that a plan still uses
//! is simply built again.
//!
//! Crates inside a cargo workspace build in that workspace's target dir (so
//! the host's own `cargo build` and the plugins share compiled dependencies);
//! stand-alone crates and git checkouts (`cache/git/checkouts/…`, whatever
//! workspace they belong to) share `cache/target`.
//!
//! A crate that depends on `amplifier-sdk` by version builds against the
//! SDK this host carries ([`crate::sdk_source`]), through a config-level
//! `[patch.crates-io]` on cargo's command line.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use sha2::{Digest, Sha256};

use crate::sdk_source::{self, SdkSourceError};
use crate::toml_file::{self, TomlFileError};

/// Cache entries kept per crate and profile: the one just built and the two
/// before it (enough for a git source moving between two refs and back).
pub const KEEP_PER_CRATE: usize = 3;
/// Entries this recent are never pruned.
pub const PRUNE_GRACE: std::time::Duration = std::time::Duration::from_secs(600);

/// Builds crates into the plugin cache.
#[derive(Debug, Clone)]
pub struct Builder {
    amplifier_home: PathBuf,
    cache_dir: PathBuf,
    /// The cargo profile plugins are built with: `release` unless
    /// `AMPLIFIER_PLUGIN_PROFILE` says otherwise (the test suite uses `dev`,
    /// reusing the dependencies `cargo test` already compiled).
    profile: String,
    /// Print a progress line when a build starts and ends.
    pub show_progress: bool,
    /// Pass `--offline` to cargo (`amplifier run --offline`).
    pub offline: bool,
}

/// A crate could not be built into the cache.
#[derive(Debug, thiserror::Error)]
#[error("building the module crate at {} failed:\n{cause}", crate_dir.display())]
pub struct BuildError {
    pub crate_dir: PathBuf,
    #[source]
    pub cause: BuildFailure,
}

/// What went wrong in the builder: reading a crate (its fingerprint too),
/// running cargo, or storing the library.
#[derive(Debug, thiserror::Error)]
pub enum BuildFailure {
    /// The crate's directory does not resolve (it does not exist).
    #[error("{}: {source}", path.display())]
    NoCrateDir { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    CargoToml(#[from] TomlFileError),
    #[error("{} has no [package] name", path.display())]
    NoPackageName { path: PathBuf },
    #[error("cannot run cargo: {source} (is the Rust toolchain installed and on PATH?)")]
    SpawnCargo { source: std::io::Error },
    #[error("cargo did not finish: {source}")]
    WaitCargo { source: std::io::Error },
    /// cargo failed: `summary` is the report [`Builder`] made of its output
    /// (the cause, a hint, where the whole log is).
    #[error("{summary}")]
    Cargo { summary: String },
    #[error("cargo built {package} but produced no cdylib: add `[lib] crate-type = [\"cdylib\"]` to its Cargo.toml")]
    NoCdylib { package: String },
    #[error("cannot create {}: {source}", path.display())]
    CreateEntry { path: PathBuf, source: std::io::Error },
    #[error("cannot store {} in the cache: {source}", artifact.display())]
    Store { artifact: PathBuf, source: std::io::Error },
    #[error(transparent)]
    SdkSource(#[from] SdkSourceError),
}

/// Where a crate's library lives in the cache.
struct CacheEntry {
    package: String,
    dir: PathBuf,
    library: PathBuf,
}

impl Builder {
    pub fn new(amplifier_home: &Path) -> Self {
        let profile = std::env::var("AMPLIFIER_PLUGIN_PROFILE").unwrap_or_else(|_| "release".to_owned());
        Builder {
            amplifier_home: amplifier_home.to_owned(),
            cache_dir: amplifier_home.join("cache"),
            profile,
            show_progress: true,
            offline: false,
        }
    }

    /// `$AMPLIFIER_HOME/cache`.
    pub fn cache_dir(&self) -> &Path {
        &self.cache_dir
    }

    fn entry(&self, crate_dir: &Path) -> Result<CacheEntry, BuildFailure> {
        let (package, fingerprint) = self.stamped_fingerprint(crate_dir)?;
        // The profile is part of the entry: a dev build never stands in for a release one.
        let dir = self.cache_dir.join("plugins").join(format!("{package}-{}-{}", &fingerprint[..16], self.profile));
        let library = dir.join(library_file_name(&package));
        Ok(CacheEntry { package, dir, library })
    }

    /// The crate's package name and fingerprint, from the stat cache when
    /// none of its inputs changed.
    fn stamped_fingerprint(&self, crate_dir: &Path) -> Result<(String, String), BuildFailure> {
        let canonical = canonical_crate_dir(crate_dir)?;
        let key = hex(&Sha256::digest(canonical.to_string_lossy().as_bytes()));
        let stamp_path = self.cache_dir.join("fingerprints").join(format!("{}.json", &key[..16]));
        if let Some(stamped) = std::fs::read(&stamp_path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<StampedFingerprint>(&bytes).ok())
            .filter(StampedFingerprint::is_fresh)
        {
            return Ok((stamped.package, stamped.fingerprint));
        }
        let package = package_name(crate_dir)?;
        let (fingerprint, inputs) = fingerprint_with_inputs(crate_dir)?;
        let stamped = StampedFingerprint {
            scheme: FINGERPRINT_SCHEME,
            host: host_identity(),
            package: package.clone(),
            fingerprint: fingerprint.clone(),
            inputs: inputs
                .into_iter()
                .map(|path| {
                    let (len, modified) = stat(&path);
                    (path, len, modified)
                })
                .collect(),
        };
        // Best effort: without the stamp the next start just hashes again.
        if let Ok(json) = serde_json::to_vec(&stamped) {
            let _ = std::fs::create_dir_all(stamp_path.parent().expect("stamp dir"))
                .and_then(|_| std::fs::write(&stamp_path, json));
        }
        Ok((package, fingerprint))
    }

    /// The library for the crate at `crate_dir`, building it on a cache miss.
    pub fn library_for(&self, crate_dir: &Path) -> Result<PathBuf, BuildError> {
        let fail = |cause: BuildFailure| BuildError { crate_dir: crate_dir.to_owned(), cause };
        let entry = self.entry(crate_dir).map_err(fail)?;
        if entry.library.is_file() {
            return Ok(entry.library);
        }
        let started = self.announce(&[(&entry.package, crate_dir)]);
        let host_sdk = takes_sdk_by_version(crate_dir);
        let artifacts = self.cargo_build(crate_dir, &[entry.package.as_str()], host_sdk).map_err(fail)?;
        let artifact = artifacts
            .iter()
            .find(|(p, _)| *p == entry.package)
            .map(|(_, a)| a.clone())
            .ok_or_else(|| fail(BuildFailure::NoCdylib { package: entry.package.clone() }))?;
        store(&entry, &artifact).map_err(fail)?;
        self.report(started);
        Ok(entry.library)
    }

    /// Builds every crate not yet in the cache, one cargo run per workspace,
    /// so cargo compiles them in parallel with one feature resolution. Best
    /// effort: a crate that fails here is built (and reported) on its own later.
    pub fn prebuild(&self, crate_dirs: &[PathBuf]) {
        let mut groups: Vec<(PathBuf, Vec<(CacheEntry, PathBuf)>)> = Vec::new();
        for dir in crate_dirs {
            let (Ok(entry), Some(root)) = (self.entry(dir), workspace_root(dir)) else { continue };
            if entry.library.is_file() || groups.iter().flat_map(|(_, g)| g).any(|(e, _)| e.package == entry.package) {
                continue;
            }
            match groups.iter_mut().find(|(r, _)| *r == root) {
                Some((_, group)) => group.push((entry, dir.clone())),
                None => groups.push((root, vec![(entry, dir.clone())])),
            }
        }
        for (root, group) in groups.into_iter().filter(|(_, g)| g.len() > 1) {
            let listed: Vec<(&str, &Path)> = group.iter().map(|(e, d)| (e.package.as_str(), d.as_path())).collect();
            let started = self.announce(&listed);
            let packages: Vec<&str> = group.iter().map(|(e, _)| e.package.as_str()).collect();
            let host_sdk = group.iter().any(|(_, dir)| takes_sdk_by_version(dir));
            let Ok(artifacts) = self.cargo_build(&root, &packages, host_sdk) else { continue };
            for (entry, _) in &group {
                if let Some((_, artifact)) = artifacts.iter().find(|(p, _)| *p == entry.package) {
                    let _ = store(entry, artifact);
                }
            }
            self.report(started);
        }
    }

    fn announce(&self, crates: &[(&str, &Path)]) -> Instant {
        if self.show_progress {
            let names: Vec<&str> = crates.iter().map(|(package, _)| *package).collect();
            let location = match crates {
                [(_, dir)] => format!(" from {}", dir.display()),
                _ => String::new(),
            };
            eprintln!("   Building {}{location} (first use of this version; cached afterwards)", names.join(", "));
        }
        Instant::now()
    }

    fn report(&self, started: Instant) {
        if self.show_progress {
            eprintln!("      Built in {:.1}s", started.elapsed().as_secs_f64());
        }
    }

    /// Runs cargo on the manifest in `dir` for `packages` (against the
    /// host's SDK when `host_sdk`); returns each package's cdylib.
    fn cargo_build(
        &self,
        dir: &Path,
        packages: &[&str],
        host_sdk: bool,
    ) -> Result<Vec<(String, PathBuf)>, BuildFailure> {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut command = Command::new(cargo);
        command
            .args(["build", "--profile", &self.profile, "--lib", "--message-format=json-render-diagnostics"])
            .arg("--manifest-path")
            .arg(dir.join("Cargo.toml"))
            // Cargo reads `.cargo/config.toml` from where it runs: the crate's own applies.
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for package in packages {
            command.args(["-p", package]);
        }
        if self.offline {
            command.arg("--offline");
        }
        if host_sdk {
            // Over any `[patch]` of the crate's own `.cargo/config.toml` (the
            // copy `module new` wrote): the host's SDK is the one it speaks.
            let sdk = sdk_source::host_copy(&self.amplifier_home)?;
            let path = toml::Value::String(sdk.display().to_string());
            command.arg("--config").arg(format!("patch.crates-io.amplifier-sdk.path={path}"));
        }
        // Stand-alone crates and git checkouts (which live in the cache) share `cache/target`.
        let shared_target = is_stand_alone(dir) || dir.starts_with(&self.cache_dir);
        if shared_target && std::env::var_os("CARGO_TARGET_DIR").is_none() {
            command.env("CARGO_TARGET_DIR", self.cache_dir.join("target"));
        }
        let mut child = command.spawn().map_err(|source| BuildFailure::SpawnCargo { source })?;
        // Drain stderr on a thread so a chatty compiler can't fill the pipe and stall.
        let mut stderr = child.stderr.take().expect("piped stderr");
        let stderr_reader = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut artifacts = Vec::new();
        for line in BufReader::new(child.stdout.take().expect("piped stdout")).lines().map_while(Result::ok) {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(&line) else { continue };
            if message["reason"] != "compiler-artifact" {
                continue;
            }
            let Some(package) = packages.iter().find(|p| message["target"]["name"] == p.replace('-', "_")) else {
                continue;
            };
            let library = message["filenames"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f.as_str())
                .find(|f| f.ends_with(std::env::consts::DLL_SUFFIX));
            if let Some(library) = library {
                artifacts.push((package.to_string(), PathBuf::from(library)));
            }
        }
        let status = child.wait().map_err(|source| BuildFailure::WaitCargo { source })?;
        let stderr = stderr_reader.join().unwrap_or_default();
        if !status.success() {
            return Err(BuildFailure::Cargo { summary: self.build_failure(packages, &stderr) });
        }
        Ok(artifacts)
    }

    /// A failed build's cause in a few lines with a hint that fits it; the
    /// whole of cargo's output goes to a log file that the message names.
    fn build_failure(&self, packages: &[&str], stderr: &str) -> String {
        let logs = self.cache_dir.join("logs");
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let log = logs.join(format!("build-{}-{stamp}.log", packages.first().copied().unwrap_or("modules")));
        let saved = std::fs::create_dir_all(&logs).and_then(|_| std::fs::write(&log, stderr));
        let (cause, hint) = summarize_build_failure(stderr);
        let mut message = cause.iter().map(|line| format!("  {line}\n")).collect::<String>();
        message.push_str(&format!("hint: {hint}\n"));
        match saved {
            Ok(()) => message.push_str(&format!("the full build log: {}", log.display())),
            Err(err) => message.push_str(&format!("(the build log could not be saved to {}: {err})", log.display())),
        }
        message
    }
}

/// The lines of cargo's output that say why a build failed (from the first
/// error on, without backtraces, build-script directives or compiler
/// chatter), at most 12, and the hint that fits them.
fn summarize_build_failure(stderr: &str) -> (Vec<String>, &'static str) {
    let noise = |line: &str| {
        let trimmed = line.trim_start();
        trimmed.is_empty()
            || trimmed.starts_with("cargo:")
            || trimmed.starts_with("stack backtrace:")
            || trimmed.starts_with("note: Some details are omitted")
            || trimmed.starts_with("note: run with `RUST_BACKTRACE")
            || trimmed.starts_with("at /")
            || trimmed.split_once(": ").is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            || trimmed.starts_with("Compiling ")
            || trimmed.starts_with("warning: build failed, waiting")
    };
    let lines: Vec<&str> = stderr.lines().filter(|l| !noise(l)).collect();
    let first_error = lines.iter().position(|l| l.trim_start().starts_with("error")).unwrap_or(0);
    let cause: Vec<String> = lines[first_error..].iter().take(12).map(|l| l.trim_end().to_owned()).collect();
    let has = |needle: &str| stderr.contains(needle);
    let hint = if has("linker `cc` not found") || has("failed to find tool") || has("needs a C") {
        "install a C/C++ compiler (Debian/Ubuntu: `apt-get install build-essential`)"
    } else if has("Unable to find libclang") {
        "the module's build needs libclang (Debian/Ubuntu: `apt-get install libclang-dev`, or set LIBCLANG_PATH)"
    } else if has("failed to download") || has("failed to get `") || has("failed to query replaced source") {
        "cargo could not fetch the module's dependencies: check the network, or build with what is cached (--offline)"
    } else if has("amplifier-sdk") && (has("failed to select a version") || has("no matching package")) {
        "the module asks for an amplifier-sdk version this amplifier does not carry (it carries the version `amplifier --version` names): build it with a matching amplifier, or change its requirement"
    } else if has("error[E") || has("error: could not compile") {
        "the module's code does not compile: fix it, or use a version written for this amplifier's SDK"
    } else {
        "the build log below has cargo's whole output"
    };
    (cause, hint)
}

/// Copies a built library into its cache entry: copy then rename, so a
/// concurrent reader never sees half a library.
fn store(entry: &CacheEntry, artifact: &Path) -> Result<(), BuildFailure> {
    std::fs::create_dir_all(&entry.dir)
        .map_err(|source| BuildFailure::CreateEntry { path: entry.dir.clone(), source })?;
    let file_name = entry.library.file_name().and_then(|n| n.to_str()).unwrap_or("module");
    let partial = entry.dir.join(format!("{file_name}.partial-{}", std::process::id()));
    std::fs::copy(artifact, &partial)
        .and_then(|_| std::fs::rename(&partial, &entry.library))
        .map_err(|source| BuildFailure::Store { artifact: artifact.to_owned(), source })?;
    prune_older_entries(entry);
    Ok(())
}

/// Removes all but the [`KEEP_PER_CRATE`] newest entries of `entry`'s crate
/// and profile. Best effort; deleting a library that a running process has
/// mapped is safe on Unix (the mapping keeps the file alive).
fn prune_older_entries(entry: &CacheEntry) {
    let (Some(plugins), Some(name)) = (entry.dir.parent(), entry.dir.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let profile = name.rsplit('-').next().unwrap_or_default();
    let prefix = format!("{}-", entry.package);
    let suffix = format!("-{profile}");
    let same_crate = |name: &str| {
        name.strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(&suffix))
            .is_some_and(|fingerprint| fingerprint.len() == 16 && fingerprint.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    let Ok(read) = std::fs::read_dir(plugins) else { return };
    let mut siblings: Vec<(std::time::SystemTime, PathBuf)> = read
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(same_crate))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    // Newest first; the entry just stored always stays.
    siblings.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    siblings.retain(|(_, dir)| *dir != entry.dir);
    let grace_ends = std::time::SystemTime::now() - PRUNE_GRACE;
    for (_, dir) in siblings.into_iter().skip(KEEP_PER_CRATE - 1).filter(|(modified, _)| *modified < grace_ends) {
        tracing::debug!(dir = %dir.display(), "removing an old plugin build from the cache");
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// `libfoo_bar.so` for package `foo-bar` on this platform.
pub fn library_file_name(package: &str) -> String {
    format!("{}{}{}", std::env::consts::DLL_PREFIX, package.replace('-', "_"), std::env::consts::DLL_SUFFIX)
}

fn read_manifest(crate_dir: &Path) -> Result<toml::Table, BuildFailure> {
    let path = crate_dir.join("Cargo.toml");
    let not_found = || std::io::Error::from(std::io::ErrorKind::NotFound);
    toml_file::read_if_exists(&path)?.ok_or_else(|| TomlFileError::Read { path, source: not_found() }.into())
}

fn package_name(crate_dir: &Path) -> Result<String, BuildFailure> {
    read_manifest(crate_dir)?
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .map(str::to_owned)
        .ok_or_else(|| BuildFailure::NoPackageName { path: crate_dir.join("Cargo.toml") })
}

fn canonical_crate_dir(crate_dir: &Path) -> Result<PathBuf, BuildFailure> {
    crate_dir.canonicalize().map_err(|source| BuildFailure::NoCrateDir { path: crate_dir.to_owned(), source })
}

/// The directory of the workspace that contains `crate_dir`, if any.
fn workspace_root(crate_dir: &Path) -> Option<PathBuf> {
    crate_dir.ancestors().find_map(|dir| {
        let table = read_manifest(dir).ok()?;
        table.contains_key("workspace").then(|| dir.to_owned())
    })
}

/// A crate outside any larger workspace: none above it, or a `[workspace]`
/// table of its own without members (a crate its repository keeps out of
/// its workspace, as this one does with provider-local).
fn is_stand_alone(crate_dir: &Path) -> bool {
    match workspace_root(crate_dir) {
        None => true,
        Some(root) => {
            root == crate_dir
                && read_manifest(&root).is_ok_and(|manifest| {
                    manifest.contains_key("package")
                        && manifest.get("workspace").and_then(|w| w.get("members")).is_none()
                })
        }
    }
}

/// Hash of everything that decides the built library's bytes.
pub fn fingerprint(crate_dir: &Path) -> Result<String, BuildFailure> {
    fingerprint_with_inputs(crate_dir).map(|(fingerprint, _)| fingerprint)
}

/// The fingerprint and every path it was computed from (files read,
/// directories listed), for the stat cache.
fn fingerprint_with_inputs(crate_dir: &Path) -> Result<(String, Vec<PathBuf>), BuildFailure> {
    let mut hasher = Sha256::new();
    let mut inputs = Vec::new();
    hasher.update(host_identity());
    hasher.update(amplifier_abi::ABI_MAJOR.to_le_bytes());
    let workspace = workspace_root(crate_dir);
    if let Some(root) = &workspace {
        for file in ["Cargo.toml", "Cargo.lock"] {
            hash_file(&mut hasher, &root.join(file));
            inputs.push(root.join(file));
        }
    }
    let mut seen = BTreeSet::new();
    let mut pending = vec![canonical_crate_dir(crate_dir)?];
    while let Some(dir) = pending.pop() {
        if !seen.insert(dir.clone()) {
            continue;
        }
        let manifest = read_manifest(&dir)?;
        // A crate's own `.cargo/config.toml` can change its build (provider-local's
        // compiles llama.cpp for this CPU), so it is an input too.
        let mut files = vec![
            dir.join("Cargo.toml"),
            dir.join("build.rs"),
            dir.join("amplifier.toml"),
            dir.join(".cargo").join("config.toml"),
        ];
        collect_files(&dir.join("src"), &mut files, &mut inputs);
        files.sort();
        for file in &files {
            hasher.update(file.strip_prefix(&dir).unwrap_or(file).to_string_lossy().as_bytes());
            hash_file(&mut hasher, file);
        }
        inputs.extend(files);
        pending.extend(path_dependencies(&dir, &manifest, workspace.as_deref()));
    }
    Ok((hex(&hasher.finalize()), inputs))
}

fn hash_file(hasher: &mut Sha256, path: &Path) {
    if let Ok(bytes) = std::fs::read(path) {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
}

/// Files under `dir` into `files`; every directory listed into `dirs` (a
/// directory's mtime changes when an entry is added or removed).
fn collect_files(dir: &Path, files: &mut Vec<PathBuf>, dirs: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    dirs.push(dir.to_owned());
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, files, dirs);
        } else {
            files.push(path);
        }
    }
}

/// Size and modification time of a path; a missing path stamps as `(0, -1)`
/// so its appearance is noticed.
fn stat(path: &Path) -> (u64, i128) {
    std::fs::metadata(path)
        .ok()
        .and_then(|m| {
            let modified = m.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
            Some((m.len(), modified.as_nanos() as i128))
        })
        .unwrap_or((0, -1))
}

/// A fingerprint with the stats of its inputs. Start-up reads this instead
/// of hashing the sources again when no input's size or mtime changed (the
/// rule cargo uses for its own fingerprints).
#[derive(serde::Serialize, serde::Deserialize)]
struct StampedFingerprint {
    /// [`FINGERPRINT_SCHEME`] when stamped: a host that fingerprints other
    /// inputs must not trust a stamp that never looked at them.
    #[serde(default)]
    scheme: u32,
    /// [`host_identity`] when stamped: another rustc or SDK builds anew.
    #[serde(default)]
    host: String,
    package: String,
    fingerprint: String,
    inputs: Vec<(PathBuf, u64, i128)>,
}

/// Bumped whenever [`fingerprint_with_inputs`] reads other files.
const FINGERPRINT_SCHEME: u32 = 3;

impl StampedFingerprint {
    fn is_fresh(&self) -> bool {
        self.scheme == FINGERPRINT_SCHEME
            && self.host == host_identity()
            && self.inputs.iter().all(|(path, len, modified)| stat(path) == (*len, *modified))
    }
}

/// What besides a crate's files decides its library: the host's rustc and
/// the SDK it carries.
fn host_identity() -> String {
    format!("{} / amplifier-sdk {} {}", env!("AMPLIFIER_HOST_RUSTC"), sdk_source::SDK_VERSION, sdk_source::digest())
}

/// Whether the crate at `crate_dir` takes `amplifier-sdk` by version (from
/// a registry) rather than by path or git: then the host's SDK stands in.
fn takes_sdk_by_version(crate_dir: &Path) -> bool {
    let Ok(manifest) = read_manifest(crate_dir) else { return false };
    let by_version = |spec: &toml::Value| match spec {
        toml::Value::String(_) => true,
        toml::Value::Table(table) => !table.contains_key("path") && !table.contains_key("git"),
        _ => false,
    };
    ["dependencies", "dev-dependencies"].iter().filter_map(|key| manifest.get(*key)?.get("amplifier-sdk")).any(|spec| {
        if spec.get("workspace").and_then(toml::Value::as_bool) != Some(true) {
            return by_version(spec);
        }
        let declared = workspace_root(crate_dir).and_then(|root| {
            let root = read_manifest(&root).ok()?;
            root.get("workspace")?.get("dependencies")?.get("amplifier-sdk").cloned()
        });
        declared.as_ref().is_some_and(by_version)
    })
}

/// Directories of the crate's path dependencies, including `workspace = true`
/// ones that the workspace declares with a path.
fn path_dependencies(dir: &Path, manifest: &toml::Table, workspace: Option<&Path>) -> Vec<PathBuf> {
    let workspace_deps =
        workspace.and_then(|root| read_manifest(root).ok().map(|t| (root.to_owned(), t))).and_then(|(root, table)| {
            let deps = table.get("workspace")?.get("dependencies")?.as_table()?.clone();
            Some((root, deps))
        });
    let mut tables: Vec<&toml::Table> = ["dependencies", "build-dependencies"]
        .iter()
        .filter_map(|key| manifest.get(*key).and_then(|v| v.as_table()))
        .collect();
    if let Some(targets) = manifest.get("target").and_then(|t| t.as_table()) {
        for target in targets.values().filter_map(|t| t.as_table()) {
            tables.extend(["dependencies", "build-dependencies"].iter().filter_map(|key| target.get(*key)?.as_table()));
        }
    }
    let mut dirs = Vec::new();
    for (name, spec) in tables.into_iter().flat_map(|t| t.iter()) {
        if let Some(path) = spec.get("path").and_then(|p| p.as_str()) {
            dirs.push(dir.join(path));
        } else if spec.get("workspace").and_then(|w| w.as_bool()) == Some(true) {
            if let Some((root, deps)) = &workspace_deps {
                if let Some(path) = deps.get(name).and_then(|d| d.get("path")).and_then(|p| p.as_str()) {
                    dirs.push(root.join(path));
                }
            }
        }
    }
    dirs.into_iter().filter_map(|d| d.canonicalize().ok()).collect()
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn storing_an_entry_keeps_only_the_newest_of_its_crate_and_profile() {
        let cache = tempfile::tempdir().unwrap();
        let plugins = cache.path().join("plugins");
        let dir = |name: &str| plugins.join(name);
        let old = ["my-tool-0000000000000001-dev", "my-tool-0000000000000002-dev", "my-tool-0000000000000003-dev"];
        let others = ["my-tool-0000000000000004-release", "my-tool-extra-0000000000000005-dev"];
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for (age, name) in old.iter().chain(&others).enumerate() {
            write(&dir(name).join("libmy_tool.so"), "old");
            // Past the grace period, oldest first.
            let modified = hour_ago + std::time::Duration::from_secs(age as u64);
            std::fs::File::open(dir(name)).unwrap().set_modified(modified).unwrap();
        }
        write(&dir("my-tool-0000000000000000-dev").join("libmy_tool.so"), "just built by another process");
        let artifact = cache.path().join("libmy_tool.so");
        write(&artifact, "new");
        let entry = CacheEntry {
            package: "my-tool".into(),
            dir: dir("my-tool-00000000000000ff-dev"),
            library: dir("my-tool-00000000000000ff-dev").join("libmy_tool.so"),
        };
        store(&entry, &artifact).unwrap();
        assert_eq!(std::fs::read_to_string(&entry.library).unwrap(), "new");
        let mut left: Vec<String> =
            std::fs::read_dir(&plugins).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        // The two newest dev builds of my-tool (one just built elsewhere) stay
        // beside the new one; another profile and another crate whose name
        // extends this one are untouched.
        assert_eq!(
            left,
            [
                "my-tool-0000000000000000-dev",
                "my-tool-0000000000000003-dev",
                "my-tool-0000000000000004-release",
                "my-tool-00000000000000ff-dev",
                "my-tool-extra-0000000000000005-dev",
            ]
        );
    }

    #[test]
    fn entries_inside_the_grace_period_are_never_pruned() {
        let cache = tempfile::tempdir().unwrap();
        let plugins = cache.path().join("plugins");
        for n in 1..=4 {
            write(&plugins.join(format!("my-tool-000000000000000{n}-dev/libmy_tool.so")), "built by a parallel run");
        }
        let artifact = cache.path().join("libmy_tool.so");
        write(&artifact, "new");
        let dir = plugins.join("my-tool-00000000000000ff-dev");
        let entry = CacheEntry { package: "my-tool".into(), library: dir.join("libmy_tool.so"), dir };
        store(&entry, &artifact).unwrap();
        assert_eq!(std::fs::read_dir(&plugins).unwrap().count(), 5);
    }

    #[test]
    fn a_crate_with_its_own_empty_workspace_is_stand_alone() {
        let root = tempfile::tempdir().unwrap();
        let ws = root.path();
        write(&ws.join("Cargo.toml"), "[workspace]\nmembers = [\"a\"]\nexclude = [\"own\"]\n");
        write(&ws.join("a/Cargo.toml"), "[package]\nname = \"a\"\n");
        write(&ws.join("own/Cargo.toml"), "[package]\nname = \"own\"\n[workspace]\n");
        write(&ws.join("alone/Cargo.toml"), "[package]\nname = \"alone\"\n");
        assert!(!is_stand_alone(&ws.join("a")), "a member builds in its workspace");
        assert!(!is_stand_alone(ws), "the workspace itself is not stand-alone");
        assert!(is_stand_alone(&ws.join("own")));
        // Without a table of its own, the parent workspace is the one cargo finds.
        assert!(!is_stand_alone(&ws.join("alone")));
        let outside = tempfile::tempdir().unwrap();
        write(&outside.path().join("Cargo.toml"), "[package]\nname = \"x\"\n");
        assert!(is_stand_alone(outside.path()));
    }

    #[test]
    fn fingerprint_follows_path_dependencies() {
        let root = tempfile::tempdir().unwrap();
        let ws = root.path();
        write(
            &ws.join("Cargo.toml"),
            "[workspace]\nmembers = [\"a\", \"b\"]\n[workspace.dependencies]\nb = { path = \"b\" }\n",
        );
        write(&ws.join("a/Cargo.toml"), "[package]\nname = \"a\"\n[dependencies]\nb.workspace = true\n");
        write(&ws.join("a/src/lib.rs"), "pub fn a() {}");
        write(&ws.join("b/Cargo.toml"), "[package]\nname = \"b\"\n");
        write(&ws.join("b/src/lib.rs"), "pub fn b() {}");
        let before = fingerprint(&ws.join("a")).unwrap();
        assert_eq!(before, fingerprint(&ws.join("a")).unwrap(), "stable when nothing changed");
        write(&ws.join("b/src/lib.rs"), "pub fn b() { /* changed */ }");
        assert_ne!(before, fingerprint(&ws.join("a")).unwrap(), "a change in a path dependency rebuilds");
    }

    #[test]
    fn the_stat_cache_notices_edits_and_new_files() {
        let root = tempfile::tempdir().unwrap();
        let krate = root.path().join("k");
        write(&krate.join("Cargo.toml"), "[package]\nname = \"k\"\n");
        write(&krate.join("src/lib.rs"), "pub fn k() {}");
        let builder = Builder::new(&root.path().join("home"));
        let (_, first) = builder.stamped_fingerprint(&krate).unwrap();
        assert_eq!(builder.stamped_fingerprint(&krate).unwrap().1, first, "served from the stamp");
        write(&krate.join("src/lib.rs"), "pub fn k() { /* edited, longer */ }");
        let (_, edited) = builder.stamped_fingerprint(&krate).unwrap();
        assert_ne!(edited, first, "an edit changes size or mtime");
        write(&krate.join("src/extra/mod.rs"), "");
        assert_ne!(builder.stamped_fingerprint(&krate).unwrap().1, edited, "a new file changes its directory");
    }

    #[test]
    fn a_build_script_panic_is_summed_up_without_its_backtrace() {
        let stderr = "   Compiling clang-sys v1.8.1\n\
            error: failed to run custom build command for `llama-cpp-sys-2 v0.1.161`\n\n\
            Caused by:\n  process didn't exit successfully: `/t/build-script-build` (exit status: 101)\n\
            --- stdout\ncargo:rerun-if-changed=wrapper.h\n--- stderr\n\n\
            thread 'main' panicked at bindgen-0.72.1/lib.rs:616:27:\nUnable to find libclang: \"couldn't find any valid shared libraries\"\n\
            stack backtrace:\n   0: __rustc::rust_begin_unwind\n             at /rustc/abc/library/std/src/panicking.rs:689:5\n\
            note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n\
            warning: build failed, waiting for other jobs to finish...\n";
        let (cause, hint) = summarize_build_failure(stderr);
        assert_eq!(cause[0], "error: failed to run custom build command for `llama-cpp-sys-2 v0.1.161`");
        assert!(cause.iter().any(|l| l.starts_with("Unable to find libclang")), "{cause:#?}");
        assert!(!cause.iter().any(|l| l.contains("rust_begin_unwind") || l.contains("cargo:") || l.contains("at /")));
        assert!(hint.contains("libclang-dev"), "{hint}");
        let (_, hint) = summarize_build_failure("error: linker `cc` not found\n");
        assert!(hint.contains("build-essential"), "{hint}");
        let long: String = (0..40).map(|i| format!("error: problem {i}\n")).collect();
        assert_eq!(summarize_build_failure(&long).0.len(), 12, "at most 12 lines");
    }

    #[test]
    fn library_names_follow_the_platform() {
        assert_eq!(
            library_file_name("tool-echo"),
            format!("{}tool_echo{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX)
        );
    }
}
