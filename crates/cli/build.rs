//! Links `amplifier` with packed relative relocations (`DT_RELR`) where the
//! linker and the C library support them, and with the functions a start
//! runs laid out together where the linker takes an ordering file.
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
//!
//! `crates/cli/startup-order.txt` names the 4,600 functions one `amplifier
//! run` executes (`cargo xtask startup-order` records them). Left where the
//! compiler put them, they are spread over 1,750 pages of a 38 MB `.text`,
//! and the kernel maps each page in with its neighbours (fault-around, and
//! whole large folios where readahead made them): 17 MiB of code resident
//! for 3.6 MB run. Placed first, the code a run touches is one 3.6 MB range:
//! W1's peak RSS 25 → 13 MiB. A name the binary no longer has (a dependency
//! or the compiler changed) is skipped silently; the rest still move. Only
//! LLD and mold take the file (rustc links with LLD on x86_64 Linux), so
//! rustc links a tiny program with it first, as it would link `amplifier`.
//!
//! The read-only data a start reads is spread the same way: 198 pages read
//! of `.rodata`, 585 resident. The order file cannot move most of it:
//! LLVM's private constants and jump tables have no symbol to name, only a
//! section. `crates/cli/startup-rodata.ld`, a linker script written with
//! the order file, gathers the sections the ordered functions address into
//! `.rodata.hot`, before `.rodata`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const FLAG: &str = "-Wl,-z,pack-relative-relocs";
const STARTUP_ORDER: &str = "crates/cli/startup-order.txt";
const STARTUP_RODATA: &str = "crates/cli/startup-rodata.ld";

fn main() {
    println!("cargo::rerun-if-changed=crates/cli/build.rs");
    println!("cargo::rerun-if-changed={STARTUP_ORDER}");
    println!("cargo::rerun-if-changed={STARTUP_RODATA}");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    // The probe runs here, so only for a build for this machine.
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" || var("HOST") != var("TARGET") {
        return;
    }
    let out_dir = PathBuf::from(var("OUT_DIR"));
    if links_and_runs_packed(&var("RUSTC_LINKER"), &out_dir.join("relr-probe")) {
        println!("cargo::rustc-link-arg-bins={FLAG}");
    }
    // The linker reads a copy in OUT_DIR: checkouts that share a target
    // directory share this script's cached output, which must not name a
    // file in a checkout that may since have been deleted.
    let manifest_dir = PathBuf::from(var("CARGO_MANIFEST_DIR"));
    let order = out_dir.join("startup-order.txt");
    let copied = std::fs::copy(manifest_dir.join(STARTUP_ORDER), &order).is_ok();
    // `-Xlinker` rather than `-Wl,`, which would split a path at its commas.
    let order_args = [
        "-Xlinker".to_owned(),
        format!("--symbol-ordering-file={}", order.display()),
        "-Xlinker".to_owned(),
        "--no-warn-symbol-ordering".to_owned(),
    ];
    let ordered = copied && rustc_links_with(&order_args, &out_dir);
    if ordered {
        for arg in order_args {
            println!("cargo::rustc-link-arg-bins={arg}");
        }
    }
    let script = out_dir.join("startup-rodata.ld");
    let script_args = ["-Xlinker".to_owned(), format!("--script={}", script.display())];
    let gathered = ordered
        && std::fs::read_to_string(manifest_dir.join(STARTUP_RODATA))
            .and_then(|text| std::fs::write(&script, for_this_profile(&text)))
            .is_ok()
        && rustc_links_with(&script_args, &out_dir);
    if gathered {
        for arg in script_args {
            println!("cargo::rustc-link-arg-bins={arg}");
        }
    }
    // For the test that checks the layout (tests/run.rs), which expects it
    // where rustc's own choice of linker is LLD's.
    // The symbol table only names frames in a backtrace, and is a fifth of
    // the binary (11.5 of 61.5 MB). It goes at this final link, where no
    // crate's symbol hashes change: a profile `strip` would change them all,
    // and the start-up order names functions by them. AMPLIFIER_KEEP_SYMBOLS
    // keeps it (`cargo xtask startup-order`, symbolised backtraces).
    println!("cargo::rerun-if-env-changed=AMPLIFIER_KEEP_SYMBOLS");
    if var("PROFILE") == "release" && std::env::var_os("AMPLIFIER_KEEP_SYMBOLS").is_none() {
        println!("cargo::rustc-link-arg-bins=-Wl,--strip-all");
    }
    let linker_chosen = !var("RUSTC_LINKER").is_empty() || var("CARGO_ENCODED_RUSTFLAGS").contains("link");
    println!("cargo::rustc-env=AMPLIFIER_STARTUP_ORDER_LINKED={ordered}");
    println!("cargo::rustc-env=AMPLIFIER_STARTUP_RODATA_LINKED={gathered}");
    println!("cargo::rustc-env=AMPLIFIER_LINKER_CHOSEN={linker_chosen}");
}

/// The script as this build can use it. LLD tries each input section
/// against each name, which in a debug build (no LTO: many more sections)
/// added 6 to 10 s to every link, while the names of the Rust crates'
/// sections there differ from a release build's anyway (their codegen
/// units and symbol hashes do). So a debug build keeps only the names
/// that hold in both: the C and C++ libraries' tables, and the prebuilt
/// standard library's jump tables.
fn for_this_profile(script: &str) -> String {
    if var("PROFILE") == "release" {
        return script.to_owned();
    }
    let rust_crates = |name: &str| {
        let legacy_hash = name.len() > 20 && name.ends_with('E') && {
            let (tag, hash) = name[name.len() - 20..name.len() - 1].split_at(3);
            tag == "17h" && hash.bytes().all(|b| b.is_ascii_hexdigit())
        };
        name.starts_with(".rodata..L") || name.starts_with(".rodata.anon.") || legacy_hash
    };
    script.lines().filter(|line| !rust_crates(line.trim())).flat_map(|line| [line, "\n"]).collect()
}

/// A variable cargo sets for build scripts; empty when unset.
fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// Whether rustc links an empty program for this target with `link_args`,
/// given the flags and linker this build uses (which choose the linker).
fn rustc_links_with(link_args: &[String], out_dir: &Path) -> bool {
    let source = out_dir.join("order-probe.rs");
    if std::fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut rustc = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()));
    rustc.arg(&source).arg("-o").arg(out_dir.join("order-probe")).args(["--target", &var("TARGET")]);
    rustc.args(var("CARGO_ENCODED_RUSTFLAGS").split('\x1f').filter(|flag| !flag.is_empty()));
    if !var("RUSTC_LINKER").is_empty() {
        rustc.arg(format!("-Clinker={}", var("RUSTC_LINKER")));
    }
    rustc.args(link_args.iter().map(|arg| format!("-Clink-arg={arg}")));
    rustc.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|status| status.success())
}

/// Whether a C program linked by `linker` (rustc's own default, `cc`, when
/// unset) with packed relocations builds without a warning and runs.
fn links_and_runs_packed(linker: &str, probe: &Path) -> bool {
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
