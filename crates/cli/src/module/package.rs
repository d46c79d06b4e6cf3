//! `amplifier module package DIR`: one archive with the module's source and
//! its library prebuilt for this machine's target (`amplifier_loader::package`),
//! and the other half, a package (a file or a URL) made ready for `install`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use amplifier_loader::builder::Builder;
use amplifier_loader::lockfile::sha256_file;
use amplifier_loader::manifest::{host_platform, Manifest, HOST_TARGET, MANIFEST_FILE};
use amplifier_loader::{amplifier_home, library, package};
use clap::Args;

use crate::error::{CliError, CliResult};

/// A package downloaded is refused past this size.
const MAX_DOWNLOAD_BYTES: u64 = 1 << 30;

#[derive(Args)]
pub struct PackageArgs {
    /// The module's crate directory.
    dir: PathBuf,
    /// Where to write the package (default: ./<name>-<version>.tar.gz).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
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
    let out = args.output.unwrap_or_else(|| PathBuf::from(package::file_name(&manifest)));
    let written = package::write(dir, &manifest, &library, &out).map_err(CliError::failed)?;
    println!(
        "Packaged {} {} ({}) with its library for {HOST_TARGET}: {}",
        manifest.module.name,
        manifest.module.version,
        manifest.module.kinds.join(", "),
        written.path.display()
    );
    println!("  sha256 {}", written.sha256);
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
    std::fs::create_dir_all(dir).map_err(|err| CliError::failed(format!("cannot create {}: {err}", dir.display())))?;
    let path = dir.join(format!("{}-{name}", std::process::id()));
    let failed = |why: String| CliError::failed(format!("cannot download {url}: {why}"));
    let runtime = crate::hosting::runtime()?;
    runtime
        .block_on(async {
            // reqwest's TLS needs a process-wide provider; an error means one is installed.
            let _ = rustls::crypto::ring::default_provider().install_default();
            let client = reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(30))
                .build()
                .map_err(|err| failed(err.to_string()))?;
            let mut response = client.get(url).send().await.map_err(|err| failed(err.to_string()))?;
            if !response.status().is_success() {
                return Err(failed(format!("the server answered {}", response.status())));
            }
            let mut file = std::fs::File::create(&path).map_err(|err| failed(format!("{}: {err}", path.display())))?;
            let mut size = 0u64;
            while let Some(chunk) = response.chunk().await.map_err(|err| failed(err.to_string()))? {
                size += chunk.len() as u64;
                if size > MAX_DOWNLOAD_BYTES {
                    return Err(failed(format!("it is larger than {MAX_DOWNLOAD_BYTES} bytes")));
                }
                file.write_all(&chunk).map_err(|err| failed(format!("{}: {err}", path.display())))?;
            }
            Ok(())
        })
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&path);
        })?;
    Ok(path)
}
