//! `amplifier module package DIR`: one archive with the module's source and
//! its library prebuilt for this machine's target (`amplifier_loader::package`),
//! and the other half, a package (a file or a URL) made ready for `install`.

use std::path::{Path, PathBuf};

use amplifier_loader::builder::Builder;
use amplifier_loader::lockfile::sha256_file;
use amplifier_loader::manifest::{host_platform, Manifest, HOST_TARGET, MANIFEST_FILE};
use amplifier_loader::{amplifier_home, index, library, package};
use clap::Args;

use crate::error::{CliError, CliResult};
use crate::http::Http;

#[derive(Args)]
pub struct PackageArgs {
    /// The module's crate directory.
    dir: PathBuf,
    /// Where to write the package (default: ./<name>-<version>.tar.gz).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Publish the package in this local module index (a directory, created if need be):
    /// the package goes in as <name>-<version>-<target>.tar.gz and the module's entry records it.
    #[arg(long, value_name = "DIR")]
    index: Option<PathBuf>,
}

pub fn run(args: PackageArgs) -> CliResult {
    let dir = &args.dir;
    let manifest = Manifest::read_dir(dir).map_err(CliError::failed)?.ok_or_else(|| {
        CliError::failed(format!(
            "{} has no {MANIFEST_FILE}: a package needs the module's name and version",
            dir.display()
        ))
        .hint("`amplifier module new` writes a crate with its amplifier.toml")
    })?;
    if !dir.join("Cargo.toml").is_file() {
        return Err(CliError::failed(format!(
            "{} has no Cargo.toml: a package carries the module's crate, to build where its library does not fit",
            dir.display()
        )));
    }
    let library = Builder::new(&amplifier_home()).library_for(dir).map_err(CliError::failed)?;
    // What this amplifier cannot open, no other of its ABI can.
    library::open(&library, &manifest.module.name).map_err(CliError::failed)?;
    let out = match (args.output, &args.index) {
        (Some(out), _) => out,
        (None, Some(index)) => index.join(index::package_file_name(&manifest)),
        (None, None) => PathBuf::from(package::file_name(&manifest)),
    };
    if let Some(parent) = out.parent().filter(|parent| !parent.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|err| CliError::failed(format!("cannot create {}: {err}", parent.display())))?;
    }
    let written = package::write(dir, &manifest, &library, &out).map_err(CliError::failed)?;
    println!(
        "Packaged {} {} ({}) with its library for {HOST_TARGET}: {}",
        manifest.module.name,
        manifest.module.version,
        manifest.module.kinds.join(", "),
        written.path.display()
    );
    println!("  sha256 {}", written.sha256);
    if let Some(index_dir) = &args.index {
        let entry = index::publish(index_dir, &manifest, &written.path, &written.sha256).map_err(CliError::failed)?;
        println!("Published in the index {} (entry {})", index_dir.display(), entry.display());
    }
    Ok(())
}

/// Whether an `install` argument names a package: a `.tar.gz`/`.tgz` file,
/// or an `http(s)://` URL.
pub fn is_package(source: &str) -> bool {
    index::is_url(source) || source.ends_with(".tar.gz") || source.ends_with(".tgz")
}

/// The module directory of the package `source` (a file, or a URL it
/// downloads and removes again), unpacked under
/// `$AMPLIFIER_HOME/cache/packages/` by the package's sha256, and says
/// what `install` will do with it (use its prebuilt library, or build).
pub fn unpacked(source: &str, home: &Path) -> CliResult<PathBuf> {
    let downloaded = match index::is_url(source) {
        true => {
            if source.starts_with("http://") {
                eprintln!("warning: {source} is plain http: nothing checks who sent it (an index's sha256 would)");
            }
            let http = Http::new().map_err(CliError::failed)?;
            let bytes = http.get(source).map_err(CliError::failed)?;
            let downloads = home.join("cache").join("downloads");
            Some(index::save_download(source, &bytes, &downloads).map_err(CliError::failed)?)
        }
        false => None,
    };
    let archive = downloaded.clone().unwrap_or_else(|| PathBuf::from(source));
    let module = unpack_once(&archive, home);
    if let Some(downloaded) = &downloaded {
        let _ = std::fs::remove_file(downloaded);
    }
    let module = module?;
    let manifest = Manifest::read_dir(&module).map_err(CliError::failed)?.expect("extract checked it");
    match manifest.artifact() {
        Some(_) => eprintln!("   Using the prebuilt library for {HOST_TARGET}"),
        None => eprintln!(
            "   The package has no prebuilt library for this machine ({}; it has {}): building from source",
            host_platform(),
            manifest.artifact_targets()
        ),
    }
    Ok(module)
}

/// `archive` unpacked into `cache/packages/<sha256>/`, unless it is there
/// already; the module's directory.
fn unpack_once(archive: &Path, home: &Path) -> CliResult<PathBuf> {
    let sha256 = sha256_file(archive).map_err(CliError::failed)?;
    let into = home.join("cache").join("packages").join(&sha256[..32]);
    if let Some(module) = existing_module(&into) {
        return Ok(module);
    }
    // Unpacked aside and renamed: an interrupted unpack is never taken for
    // a package, and of two installs at once the first to rename wins.
    let staging = PathBuf::from(format!("{}.partial-{}", into.display(), std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(into.parent().expect("under the cache"))
        .map_err(|err| CliError::failed(format!("cannot create {}: {err}", into.display())))?;
    let module = package::extract(archive, &staging).map_err(CliError::failed)?;
    if std::fs::rename(&staging, &into).is_err() {
        let _ = std::fs::remove_dir_all(&staging);
        return existing_module(&into)
            .ok_or_else(|| CliError::failed(format!("cannot unpack {} into {}", archive.display(), into.display())));
    }
    Ok(into.join(module.file_name().expect("a module directory")))
}

/// The module directory of a package unpacked before.
fn existing_module(into: &Path) -> Option<PathBuf> {
    let mut entries = std::fs::read_dir(into).ok()?.flatten();
    let module = entries.next()?.path();
    (entries.next().is_none() && module.join(MANIFEST_FILE).is_file()).then_some(module)
}
