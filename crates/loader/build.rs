//! Records the compiler that built the host (plugins are cached per
//! toolchain, and the host knows this without starting rustc at run time)
//! and the target it runs on (prebuilt libraries are chosen by it), and embeds the source of the SDK crates, so modules that depend on
//! `amplifier-sdk` by version build against this host's SDK wherever the
//! binary is installed (`src/sdk_source.rs`).

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// The crates a module's `amplifier-sdk` dependency brings, as directories
/// of the workspace's `crates/`.
const SDK_CRATES: [&str; 3] = ["sdk", "abi", "protocol"];

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = std::process::Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .unwrap_or_else(|| "unknown rustc".to_owned());
    println!("cargo:rustc-env=AMPLIFIER_HOST_RUSTC={}", version.trim());
    println!("cargo:rerun-if-env-changed=RUSTC");
    // The triple prebuilt module libraries are matched against.
    println!("cargo:rustc-env=AMPLIFIER_HOST_TARGET={}", std::env::var("TARGET").expect("TARGET"));
    embed_sdk();
}

/// Writes `sdk_files.rs`: `SDK_FILES`, each `(path under the crates dir,
/// bytes)`, `WORKSPACE_MANIFEST`, whose `[workspace.package]` and
/// `[workspace.dependencies]` the crates inherit from, and `SDK_DIGEST`.
fn embed_sdk() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let crates = manifest_dir.parent().expect("crates/").to_owned();
    let workspace_manifest = crates.parent().expect("the workspace").join("Cargo.toml");
    let mut files = Vec::new();
    for name in SDK_CRATES {
        let dir = crates.join(name);
        println!("cargo:rerun-if-changed={}", dir.display());
        files.push(dir.join("Cargo.toml"));
        collect(&dir.join("src"), &mut files);
    }
    println!("cargo:rerun-if-changed={}", workspace_manifest.display());
    files.sort();
    // A digest of what is embedded, so a host with another SDK builds
    // modules anew; computed here, so no start-up hashes it.
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    let mut code = String::from("pub(crate) const SDK_FILES: &[(&str, &[u8])] = &[\n");
    for file in &files {
        let relative = file.strip_prefix(&crates).expect("under crates/").to_str().expect("a UTF-8 path");
        let _ = writeln!(code, "    ({relative:?}, include_bytes!({:?})),", file.display().to_string());
        relative.hash(&mut digest);
        std::fs::read(file).unwrap_or_else(|err| panic!("{}: {err}", file.display())).hash(&mut digest);
    }
    code.push_str("];\n");
    std::fs::read(&workspace_manifest).expect("the workspace manifest").hash(&mut digest);
    let _ = writeln!(code, "pub(crate) const SDK_DIGEST: &str = \"{:016x}\";", digest.finish());
    let _ = writeln!(
        code,
        "pub(crate) const WORKSPACE_MANIFEST: &str = include_str!({:?});",
        workspace_manifest.display().to_string()
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("sdk_files.rs");
    std::fs::write(out, code).expect("write sdk_files.rs");
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
