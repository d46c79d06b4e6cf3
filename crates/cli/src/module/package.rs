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
    is_url(source) || source.ends_with(".tar.gz") || source.ends_with(".tgz")
}

fn is_url(source: &str) -> bool {
    source.starts_with("https://") || source.starts_with("http://")
}

/// The module directory of the package `source` (a file or a URL), unpacked
/// under `$AMPLIFIER_HOME/cache/packages/` by the package's sha256, and
/// what `install` will do with it (use its prebuilt library, or build).
pub fn unpacked(source: &str, home: &Path) -> CliResult<PathBuf> {
    let archive = match is_url(source) {
        true => download(source, &home.join("cache").join("downloads"))?,
        false => PathBuf::from(source),
    };
    let sha256 = sha256_file(&archive).map_err(CliError::failed)?;
    let into = home.join("cache").join("packages").join(&sha256[..32]);
    let module = match existing_module(&into) {
        Some(module) => module,
        None => {
            // Unpacked aside and renamed: an interrupted unpack is never taken for a package.
            let staging = into.with_extension(format!("partial-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&staging);
            let module = package::extract(&archive, &staging).map_err(CliError::failed)?;
            let _ = std::fs::remove_dir_all(&into);
            std::fs::rename(&staging, &into)
                .map_err(|err| CliError::failed(format!("cannot unpack into {}: {err}", into.display())))?;
            into.join(module.file_name().expect("a module directory"))
        }
    };
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

/// The module directory of a package unpacked before.
fn existing_module(into: &Path) -> Option<PathBuf> {
    let mut entries = std::fs::read_dir(into).ok()?.flatten();
    let module = entries.next()?.path();
    (entries.next().is_none() && module.join(MANIFEST_FILE).is_file()).then_some(module)
}

/// Downloads `url` into `dir`; the file.
fn download(url: &str, dir: &Path) -> CliResult<PathBuf> {
    let name =
        url.rsplit('/').next().filter(|name| is_package(name) && !name.starts_with('.')).unwrap_or("package.tar.gz");
    let bytes = crate::http::fetch(url).map_err(CliError::failed)?;
    let path = dir.join(format!("{}-{name}", std::process::id()));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, bytes))
        .map_err(|err| CliError::failed(format!("cannot write {}: {err}", path.display())))?;
    Ok(path)
}
