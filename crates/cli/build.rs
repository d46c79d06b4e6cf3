//! Links `amplifier` with packed relative relocations (`DT_RELR`) where the
//! linker and the C library support them.
//!
//! A position-independent executable carries one relocation per pointer in
//! its read-only data: about 97,000 here, 1.8 MB of `.rela.dyn` that the
//! dynamic loader reads and applies at every start. Packed, the same
//! relocations take 22 KB, which takes about 4 MiB off the peak RSS of a
//! one-turn `amplifier run` (docs/dev/benchmarks.md, W1).
//!
//! glibc reads `DT_RELR` from 2.36 on and GNU ld writes it from 2.38 on. An
//! older linker warns and ignores the option, and an older glibc refuses
//! the binary, so a tiny program is linked and run with the option first.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const FLAG: &str = "-Wl,-z,pack-relative-relocs";

fn main() {
    println!("cargo::rerun-if-changed=crates/cli/build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    // The probe runs here, so only for a build for this machine.
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" || var("HOST") != var("TARGET") {
        return;
    }
    if links_and_runs_packed(&var("RUSTC_LINKER"), &PathBuf::from(var("OUT_DIR")).join("relr-probe")) {
        println!("cargo::rustc-link-arg-bins={FLAG}");
    }
}

/// Whether a C program linked by `linker` (rustc's own default, `cc`, when
/// unset) with packed relocations builds without a warning and runs.
fn links_and_runs_packed(linker: &str, probe: &std::path::Path) -> bool {
    let linker = if linker.is_empty() { "cc" } else { linker };
    let compiled = Command::new(linker)
        .args(["-x", "c", "-", "-o"])
        .arg(probe)
        .args([FLAG, "-Wl,--fatal-warnings"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut child| {
            // The pointer makes sure there is a relative relocation to pack.
            let source = b"static const char *greeting = \"hi\";\nint main(void) { return greeting[0] != 'h'; }\n";
            child.stdin.take().expect("piped stdin").write_all(source)?;
            child.wait()
        });
    compiled.is_ok_and(|status| status.success())
        && Command::new(probe).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}
