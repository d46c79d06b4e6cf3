//! `cargo xtask startup-order`: writes `crates/cli/startup-order.txt`, the
//! functions a start of `amplifier` runs, which `crates/cli/build.rs` hands
//! the linker so that they sit together at the front of `.text` (why: the
//! build script's header; measured: docs/dev/benchmarks.md, W1).
//!
//! How: a release `amplifier` runs the scripted plan (W1's workload) with
//! `trace.c` preloaded, which puts a one-shot breakpoint on every function
//! `nm` lists and records the ones that trap. Linux on x86_64 only, and it
//! needs `nm` and a C compiler (`$CC`, else `cc`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

pub const ORDER_FILE: &str = "crates/cli/startup-order.txt";
/// Runs of each workload: thread timing decides a few paths (a contended
/// lock, a wake-up), so the union of several runs is kept.
const RUNS: usize = 5;
const TRACER: &str = include_str!("startup_order/trace.c");

pub fn run(root: &Path) -> Result<()> {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        return Err("startup-order traces with x86_64 breakpoints on Linux".into());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo).args(["build", "--release", "--bin", "amplifier"]).current_dir(root).status()?;
    if !built.success() {
        return Err(format!("`cargo build --release --bin amplifier` failed ({built})").into());
    }
    let scratch = root.join("target/startup-order");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch)?;
    // A copy, so the tracer can tell the traced executable by its path.
    let binary = scratch.join("amplifier");
    std::fs::copy(root.join("target/release/amplifier"), &binary)?;

    let functions = functions(&binary)?;
    let entries = scratch.join("functions.txt");
    std::fs::write(&entries, functions.keys().map(|address| format!("{address:x}\n")).collect::<String>())?;
    let tracer = scratch.join("trace.so");
    compile_tracer(&scratch.join("trace.c"), &tracer)?;

    let hits_file = scratch.join("hits.bin");
    for run in 0..RUNS {
        for options in [&[][..], &["--no-session"][..]] {
            let state = scratch.join(format!("state-{run}"));
            let output = Command::new(&binary)
                .args(["run", "--plan", "mount-plans/scripted.yaml"])
                .args(options)
                .arg("hi")
                .current_dir(root)
                .env("AMPLIFIER_HOME", scratch.join("home"))
                .env("AMPLIFIER_STATE_DIR", &state)
                .env("AMPLIFIER_EVENTS", state.join("events.jsonl"))
                .env("LD_PRELOAD", &tracer)
                .env("TRACE_FUNCS", &entries)
                .env("TRACE_OUT", &hits_file)
                .env("TRACE_EXE", &binary)
                .stdin(Stdio::null())
                .output()?;
            if !output.status.success() {
                let stderr = String::from_utf8_lossy(&output.stderr);
                return Err(format!("the traced `amplifier run` failed ({}):\n{stderr}", output.status).into());
            }
        }
    }

    let hits: BTreeSet<u64> = std::fs::read(&hits_file)?
        .chunks_exact(8)
        .map(|bytes| u64::from_le_bytes(bytes.try_into().expect("chunks of 8")))
        .collect();
    // Every name at an address (aliases too), sorted by name: the linker
    // places them in the file's order, and a run touches all of them
    // anyway, so the order that keeps a regenerated file's diff small wins.
    let names: BTreeSet<&str> = hits.iter().flat_map(|address| &functions[address].names).map(String::as_str).collect();
    let bytes: u64 = hits.iter().map(|address| functions[address].size).sum();
    let mut text = String::from(
        "# The functions one `amplifier run` of mount-plans/scripted.yaml executes,\n\
         # for the linker to place first (crates/cli/build.rs says why).\n\
         # Written by `cargo xtask startup-order`; regenerate it when the toolchain\n\
         # or a dependency changes (docs/dev/benchmarks.md).\n",
    );
    for name in &names {
        text.push_str(name);
        text.push('\n');
    }
    std::fs::write(root.join(ORDER_FILE), text)?;
    println!(
        "{ORDER_FILE}: {} functions of {} ran ({} names, {:.1} MB of code)",
        hits.len(),
        functions.len(),
        names.len(),
        bytes as f64 / 1e6
    );
    Ok(())
}

/// How many of the file's names `binary` has, and how many it lists: a
/// name changes with the toolchain, with a dependency's version or
/// features, or with the code that instantiates it, and a missing name is
/// a function the linker left where it was (`cargo xtask bench W1`
/// reports it).
#[cfg(feature = "bench")]
pub fn coverage(root: &Path, binary: &Path) -> Result<(usize, usize)> {
    let order = std::fs::read_to_string(root.join(ORDER_FILE))?;
    let listed: BTreeSet<&str> = order.lines().filter(|line| !line.starts_with('#')).collect();
    let functions = functions(binary)?;
    let found = functions.values().flat_map(|function| &function.names).filter(|name| listed.contains(name.as_str()));
    Ok((found.collect::<BTreeSet<_>>().len(), listed.len()))
}

struct Function {
    size: u64,
    names: Vec<String>,
}

/// The executable's functions by address, from `nm` (the same tool the
/// test that checks the layout reads the binary with).
fn functions(binary: &Path) -> Result<BTreeMap<u64, Function>> {
    let output = Command::new("nm").args(["--defined-only", "--print-size"]).arg(binary).output()?;
    if !output.status.success() {
        return Err(format!("`nm {}` failed: {}", binary.display(), String::from_utf8_lossy(&output.stderr)).into());
    }
    let mut functions = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let mut fields = line.split_whitespace();
        let (Some(address), Some(size), Some(kind), Some(name)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let (Ok(address), Ok(size)) = (u64::from_str_radix(address, 16), u64::from_str_radix(size, 16)) else {
            continue;
        };
        if matches!(kind, "t" | "T" | "W") && size > 0 {
            let function = functions.entry(address).or_insert(Function { size, names: Vec::new() });
            function.size = function.size.max(size);
            function.names.push(name.to_owned());
        }
    }
    Ok(functions)
}

fn compile_tracer(source: &Path, library: &Path) -> Result<()> {
    std::fs::write(source, TRACER)?;
    let compiler = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let status = Command::new(&compiler).args(["-shared", "-fPIC", "-O2", "-o"]).arg(library).arg(source).status()?;
    if !status.success() {
        return Err(format!("compiling {} failed ({status})", source.display()).into());
    }
    Ok(())
}
