//! Module packages: one `.tar.gz` holding a module's source, its
//! `amplifier.toml` and its library prebuilt for one target, so a machine
//! of that target installs it without cargo, and any other builds it from
//! the source.
//!
//! ```text
//! tool-shout-0.1.0/
//!   amplifier.toml                  # + [artifacts.<target>] {library, sha256, abi}
//!   Cargo.toml, Cargo.lock, src/…   # the crate, as in its directory
//!   lib/<target>/libtool_shout.so
//! ```
//!
//! The library's sha256 in the manifest is what the loader checks before it
//! opens the library ([`crate::manifest::Manifest::artifact`]).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Component, Path, PathBuf};

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use toml::{Table, Value};

use crate::lockfile;
use crate::manifest::{Manifest, HOST_TARGET, MANIFEST_FILE};

/// More than this unpacked is refused (a package is a crate and a library).
const MAX_UNPACKED_BYTES: u64 = 1 << 30;
/// More entries than this are refused.
const MAX_ENTRIES: usize = 100_000;

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: not a module package: {why}", path.display())]
    Invalid { path: PathBuf, why: String },
    #[error("{}: {why}", path.display())]
    Manifest { path: PathBuf, why: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PackageError + '_ {
    move |source| PackageError::Io { path: path.to_owned(), source }
}

/// `<name>-<version>.tar.gz`.
pub fn file_name(manifest: &Manifest) -> String {
    format!("{}-{}.tar.gz", manifest.module.name, manifest.module.version)
}

/// What [`write`] made.
#[derive(Debug, Clone)]
pub struct Written {
    pub path: PathBuf,
    /// The archive's own sha256 (what an index lists).
    pub sha256: String,
    /// The library's sha256, as the packaged manifest records it.
    pub library_sha256: String,
}

/// Packages the crate at `crate_dir` (every file but `target/` and
/// `.git/`) with `library`, built from it for this host, into `out`.
pub fn write(crate_dir: &Path, manifest: &Manifest, library: &Path, out: &Path) -> Result<Written, PackageError> {
    let top = PathBuf::from(format!("{}-{}", manifest.module.name, manifest.module.version));
    let library_sha256 = lockfile::sha256_file(library)
        .map_err(|err| PackageError::Invalid { path: library.to_owned(), why: err.to_string() })?;
    let library_name = library.file_name().and_then(|n| n.to_str()).unwrap_or("module");
    let library_entry = format!("lib/{HOST_TARGET}/{library_name}");
    let text = std::fs::read_to_string(&manifest.path).map_err(io(&manifest.path))?;
    let packaged_manifest = with_artifact(&text, &library_entry, &library_sha256)
        .map_err(|why| PackageError::Manifest { path: manifest.path.clone(), why })?;

    // Listed first, and without the package itself: packaging a crate into
    // its own directory must not put (half) a package inside the package.
    let partial = PathBuf::from(format!("{}.partial-{}", out.display(), std::process::id()));
    let own = |path: &Path| same_file(path, out) || same_file(path, &partial);
    let files: Vec<PathBuf> = crate_files(crate_dir)?.into_iter().filter(|file| !own(file)).collect();
    let written = (|| -> Result<(), PackageError> {
        let file = File::create(&partial).map_err(io(&partial))?;
        let mut tar = tar::Builder::new(GzEncoder::new(BufWriter::new(file), Compression::default()));
        let mut append = |path: &Path, bytes: &[u8], mode: u32| {
            let mut header = tar::Header::new_gnu();
            header.set_size(bytes.len() as u64);
            header.set_mode(mode);
            // Reproducible: the same crate and library make the same package.
            header.set_mtime(0);
            header.set_cksum();
            tar.append_data(&mut header, top.join(path), bytes).map_err(io(&partial))
        };
        for file in &files {
            let relative = file.strip_prefix(crate_dir).expect("under the crate");
            if relative == Path::new(MANIFEST_FILE) {
                continue;
            }
            let bytes = std::fs::read(file).map_err(io(file))?;
            append(relative, &bytes, file_mode(file))?;
        }
        append(Path::new(MANIFEST_FILE), packaged_manifest.as_bytes(), 0o644)?;
        let bytes = std::fs::read(library).map_err(io(library))?;
        append(Path::new(&library_entry), &bytes, 0o755)?;
        let mut writer = tar.into_inner().and_then(GzEncoder::finish).map_err(io(&partial))?;
        writer.flush().map_err(io(&partial))?;
        drop(writer);
        std::fs::rename(&partial, out).map_err(io(out))
    })();
    if let Err(err) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(err);
    }
    let sha256 = lockfile::sha256_file(out)
        .map_err(|err| PackageError::Invalid { path: out.to_owned(), why: err.to_string() })?;
    Ok(Written { path: out.to_owned(), sha256, library_sha256 })
}

/// Whether two paths name one file (either may not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    let canonical = |path: &Path| {
        path.canonicalize().ok().or_else(|| {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            Some(parent.canonicalize().ok()?.join(path.file_name()?))
        })
    };
    canonical(a).is_some_and(|a| Some(a) == canonical(b))
}

/// The crate's files, sorted: all but `target/` and `.git/` at its top.
fn crate_files(crate_dir: &Path) -> Result<Vec<PathBuf>, PackageError> {
    let mut files = Vec::new();
    let mut pending = vec![crate_dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).map_err(io(&dir))? {
            let path = entry.map_err(io(&dir))?.path();
            let skipped = dir == crate_dir && path.file_name().is_some_and(|name| name == "target" || name == ".git");
            let kind = std::fs::symlink_metadata(&path).map_err(io(&path))?.file_type();
            if skipped || kind.is_symlink() {
                continue;
            }
            if kind.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(unix)]
fn file_mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    let executable = std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    if executable {
        0o755
    } else {
        0o644
    }
}

#[cfg(not(unix))]
fn file_mode(_path: &Path) -> u32 {
    0o644
}

/// The manifest `text` with `[artifacts.<host target>]` naming `library`.
fn with_artifact(text: &str, library: &str, sha256: &str) -> Result<String, String> {
    let mut manifest: Table = toml::from_str(text).map_err(|err| err.to_string())?;
    let entry = Table::from_iter([
        ("library".to_owned(), Value::String(library.to_owned())),
        ("sha256".to_owned(), Value::String(sha256.to_owned())),
        ("abi".to_owned(), Value::Integer(amplifier_abi::ABI_MAJOR.into())),
    ]);
    if !manifest.contains_key("artifacts") {
        // Kept as written (comments and all), the table appended.
        return Ok(format!("{}\n\n[artifacts.{HOST_TARGET}]\n{}", text.trim_end(), toml_text(&entry)?));
    }
    let artifacts = manifest.get_mut("artifacts").and_then(Value::as_table_mut).ok_or("`artifacts` is not a table")?;
    artifacts.insert(HOST_TARGET.to_owned(), Value::Table(entry));
    toml_text(&manifest)
}

fn toml_text(table: &Table) -> Result<String, String> {
    toml::to_string(table).map_err(|err| err.to_string())
}

/// The manifest of an installed module: `[artifacts]` reduced to the
/// library installed beside it, when that is the package's prebuilt one
/// (`prebuilt` is its sha256), so every load checks it; without one (a
/// library built here) none is named.
pub fn installed_manifest(manifest: &Manifest, library_name: &str, prebuilt: Option<&str>) -> Result<String, String> {
    let text = std::fs::read_to_string(&manifest.path).map_err(|err| format!("{}: {err}", manifest.path.display()))?;
    let mut table: Table = toml::from_str(&text).map_err(|err| err.to_string())?;
    if table.remove("artifacts").is_none() && prebuilt.is_none() {
        return Ok(text);
    }
    match prebuilt {
        Some(sha256) => with_artifact(&toml_text(&table)?, library_name, sha256),
        None => toml_text(&table),
    }
}

/// Unpacks the package at `archive` into `into`, a directory it creates
/// (and removes again when the package is refused); the module's directory.
/// Refuses entries that are not plain files or directories (links), that
/// would land outside `into`, more than 100,000 entries, and more than 1 GiB.
pub fn extract(archive: &Path, into: &Path) -> Result<PathBuf, PackageError> {
    // `create_dir`, not `create_dir_all`: two unpacks never share a directory.
    std::fs::create_dir(into).map_err(io(into))?;
    let unpacked = unpack(archive, into);
    if unpacked.is_err() {
        let _ = std::fs::remove_dir_all(into);
    }
    unpacked
}

fn unpack(archive: &Path, into: &Path) -> Result<PathBuf, PackageError> {
    let invalid = |why: String| PackageError::Invalid { path: archive.to_owned(), why };
    let file = File::open(archive).map_err(io(archive))?;
    let mut tar = tar::Archive::new(GzDecoder::new(file));
    let mut top: Option<PathBuf> = None;
    let mut unpacked = 0u64;
    for (count, entry) in tar.entries().map_err(|err| invalid(err.to_string()))?.enumerate() {
        if count >= MAX_ENTRIES {
            return Err(invalid(format!("it has more than {MAX_ENTRIES} entries")));
        }
        let mut entry = entry.map_err(|err| invalid(err.to_string()))?;
        let path = entry.path().map_err(|err| invalid(err.to_string()))?.into_owned();
        if !path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(invalid(format!("the entry {} leaves the package", path.display())));
        }
        let kind = entry.header().entry_type();
        if !(kind.is_file() || kind.is_dir()) {
            return Err(invalid(format!("the entry {} is not a file or a directory", path.display())));
        }
        let first = path.components().next().map(|c| PathBuf::from(c.as_os_str()));
        match (&top, first) {
            (None, Some(first)) => top = Some(first),
            (Some(top), Some(first)) if *top == first => {}
            _ => return Err(invalid("its entries are not all under one directory".to_owned())),
        }
        unpacked += entry.size();
        if unpacked > MAX_UNPACKED_BYTES {
            return Err(invalid(format!("it unpacks to more than {MAX_UNPACKED_BYTES} bytes")));
        }
        if kind.is_dir() {
            std::fs::create_dir_all(into.join(&path)).map_err(io(&into.join(&path)))?;
            continue;
        }
        let target = into.join(&path);
        std::fs::create_dir_all(target.parent().unwrap_or(into)).map_err(io(&target))?;
        let mut file = File::create(&target).map_err(io(&target))?;
        // No more than the header says, which the cap above counted.
        let size = entry.size();
        std::io::copy(&mut (&mut entry).take(size), &mut file).map_err(|err| invalid(err.to_string()))?;
        #[cfg(unix)]
        if entry.header().mode().is_ok_and(|mode| mode & 0o111 != 0) {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755));
        }
    }
    let module = into.join(top.ok_or_else(|| invalid("it is empty".to_owned()))?);
    if !module.join(MANIFEST_FILE).is_file() {
        return Err(invalid(format!("it has no {MANIFEST_FILE}")));
    }
    Ok(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str =
        "# the module\n[module]\nname = \"tool-x\"\nkinds = [\"tool\"]\nversion = \"0.2.0\"\nabi = 1\n";

    fn module(dir: &Path) -> Manifest {
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::create_dir_all(dir.join("target/debug")).unwrap();
        std::fs::write(dir.join("amplifier.toml"), MANIFEST).unwrap();
        std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"tool-x\"\n").unwrap();
        std::fs::write(dir.join("src/lib.rs"), "// code\n").unwrap();
        std::fs::write(dir.join("target/debug/junk"), "not packaged").unwrap();
        Manifest::read_dir(dir).unwrap().unwrap()
    }

    #[test]
    fn a_package_holds_the_crate_and_the_library_its_manifest_checks() {
        let dir = tempfile::tempdir().unwrap();
        let crate_dir = dir.path().join("tool-x");
        let manifest = module(&crate_dir);
        let library = dir.path().join("libtool_x.so");
        std::fs::write(&library, b"\x7fELF pretend").unwrap();
        let out = dir.path().join(file_name(&manifest));
        let written = write(&crate_dir, &manifest, &library, &out).unwrap();
        assert_eq!(written.sha256, lockfile::sha256_file(&out).unwrap());
        let again = write(&crate_dir, &manifest, &library, &dir.path().join("again.tar.gz")).unwrap();
        assert_eq!(again.sha256, written.sha256, "reproducible");

        let unpacked = extract(&out, &dir.path().join("unpacked")).unwrap();
        assert_eq!(unpacked, dir.path().join("unpacked/tool-x-0.2.0"));
        assert!(unpacked.join("src/lib.rs").is_file() && !unpacked.join("target").exists());
        let text = std::fs::read_to_string(unpacked.join("amplifier.toml")).unwrap();
        assert!(text.starts_with("# the module\n"), "kept as written:\n{text}");
        let packaged = Manifest::read_dir(&unpacked).unwrap().unwrap();
        let artifact = packaged.artifact().expect("the host's artifact");
        assert_eq!(artifact.library, unpacked.join(format!("lib/{HOST_TARGET}/libtool_x.so")));
        assert_eq!(artifact.sha256, written.library_sha256);
        assert_eq!(std::fs::read(artifact.library).unwrap(), b"\x7fELF pretend");

        // Installed, the artifact is the library beside the manifest.
        let installed = installed_manifest(&packaged, "libtool_x.so", Some(&written.library_sha256)).unwrap();
        let installed: Table = toml::from_str(&installed).unwrap();
        assert_eq!(installed["artifacts"][HOST_TARGET]["library"].as_str(), Some("libtool_x.so"));
        let built_here: Table = toml::from_str(&installed_manifest(&packaged, "libtool_x.so", None).unwrap()).unwrap();
        assert!(!built_here.contains_key("artifacts"));

        // Packaged into its own directory, twice: the package never holds a package.
        let inside = crate_dir.join(file_name(&manifest));
        write(&crate_dir, &manifest, &library, &inside).unwrap();
        let second = write(&crate_dir, &manifest, &library, &inside).unwrap();
        assert_eq!(second.sha256, written.sha256, "the same package as made from outside");
    }

    #[test]
    fn hostile_packages_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let package = |entries: &[(&str, &[u8])]| {
            let path = dir.path().join("p.tar.gz");
            let mut tar = tar::Builder::new(GzEncoder::new(File::create(&path).unwrap(), Compression::fast()));
            for (name, bytes) in entries {
                let mut header = tar::Header::new_gnu();
                header.set_size(bytes.len() as u64);
                header.set_mode(0o644);
                // `set_path` refuses `..`; a hostile archive writes the name itself.
                header.as_gnu_mut().unwrap().name[..name.len()].copy_from_slice(name.as_bytes());
                header.set_cksum();
                tar.append(&header, *bytes).unwrap();
            }
            tar.into_inner().unwrap().finish().unwrap();
            path
        };
        let refused = |entries: &[(&str, &[u8])]| {
            let out = dir.path().join("out");
            let err = extract(&package(entries), &out).unwrap_err().to_string();
            assert!(!out.exists(), "nothing is left of a refused package");
            err
        };
        assert!(refused(&[("m/../../escape", b"x")]).contains("leaves the package"));
        assert!(refused(&[("m/amplifier.toml", b"x"), ("n/other", b"y")]).contains("not all under one directory"));
        assert!(refused(&[("m/readme", b"x")]).contains("has no amplifier.toml"));
        let link = dir.path().join("link.tar.gz");
        let mut tar = tar::Builder::new(GzEncoder::new(File::create(&link).unwrap(), Compression::fast()));
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Symlink);
        header.set_size(0);
        tar.append_link(&mut header, "m/amplifier.toml", "/etc/passwd").unwrap();
        tar.into_inner().unwrap().finish().unwrap();
        let err = extract(&link, &dir.path().join("out")).unwrap_err().to_string();
        assert!(err.contains("is not a file or a directory"), "{err}");
        assert!(!dir.path().join("escape").exists());
    }
}
