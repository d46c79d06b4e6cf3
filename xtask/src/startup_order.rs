//! `cargo xtask startup-order`: writes `crates/cli/startup-order.txt`, the
//! functions a start of `amplifier` runs, which `crates/cli/build.rs` hands
//! the linker so that they sit together at the front of `.text` (why: the
//! build script's header; measured: docs/dev/benchmarks.md, W1).
//!
//! How: a release `amplifier` runs the scripted plan (W1's workload) with
//! `trace.c` preloaded, which puts a one-shot breakpoint on every function
//! `nm` lists and records the ones that trap. Linux on x86_64 only, and it
//! needs `nm` and a C compiler (`$CC`, else `cc`).
//!
//! It then writes `crates/cli/startup-rodata.ld`, a linker script that
//! gathers the read-only data those functions address into `.rodata.hot`,
//! before `.rodata`: LLVM's private constants and jump tables have no
//! symbol for the order file to name, only a section. Found by relinking
//! with a map (`-Map`), disassembling the ordered functions (`objdump`) and
//! matching the addresses their instructions name to the map's sections.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

pub const ORDER_FILE: &str = "crates/cli/startup-order.txt";
pub const RODATA_SCRIPT: &str = "crates/cli/startup-rodata.ld";
/// Runs of each workload: thread timing decides a few paths (a contended
/// lock, a wake-up), so the union of several runs is kept. They share one
/// store, as a user's runs do: the first creates it, the later ones find it,
/// split its B-tree pages as it grows and fold its WAL (every fourth run or
/// so: `LONG_WAL` in crates/store/src/sqlite.rs), paths a new store never
/// takes, whose functions each cost a start up to 128 KiB of resident code
/// when left out of the order.
const RUNS: usize = 10;
const TRACER: &str = include_str!("startup_order/trace.c");
/// Release builds drop the symbol table at the final link
/// (`crates/cli/build.rs`); the tracer and the map are read by function
/// name, so these builds keep it (a relink, the same code).
const KEEP_SYMBOLS: (&str, &str) = ("AMPLIFIER_KEEP_SYMBOLS", "1");

pub fn run(root: &Path) -> Result<()> {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        return Err("startup-order traces with x86_64 breakpoints on Linux".into());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--release", "--bin", "amplifier"])
        .env(KEEP_SYMBOLS.0, KEEP_SYMBOLS.1)
        .current_dir(root)
        .status()?;
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
    for _ in 0..RUNS {
        for options in [&[][..], &["--no-session"][..]] {
            let state = scratch.join("state");
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
    write_rodata_script(root, &scratch, &names)
}

/// Relinks `amplifier` with the new order and a map, and writes
/// [`RODATA_SCRIPT`] from the sections the ordered functions address.
fn write_rodata_script(root: &Path, scratch: &Path, ordered: &BTreeSet<&str>) -> Result<()> {
    let map = scratch.join("amplifier.map");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let linked = Command::new(cargo)
        .args(["rustc", "--release", "--bin", "amplifier", "--", "-C"])
        .arg(format!("link-arg=-Wl,-Map={}", map.display()))
        .env(KEEP_SYMBOLS.0, KEEP_SYMBOLS.1)
        .current_dir(root)
        .status()?;
    if !linked.success() {
        return Err(format!("relinking `amplifier` with a map failed ({linked})").into());
    }
    let binary = root.join("target/release/amplifier");
    let placed: Vec<(u64, u64)> = functions(&binary)?
        .into_iter()
        .filter(|(_, function)| function.names.iter().any(|name| ordered.contains(name.as_str())))
        .map(|(address, function)| (address, address + function.size))
        .collect();
    let (Some(start), Some(end)) = (placed.iter().map(|r| r.0).min(), placed.iter().map(|r| r.1).max()) else {
        return Err("none of the ordered functions is in the relinked binary".into());
    };
    let sections = rodata_sections(&std::fs::read_to_string(&map)?);
    let addressed = addressed(&binary, start, end)?;
    let mut hot = BTreeSet::new();
    for address in addressed {
        let at = sections.partition_point(|section| section.address <= address);
        if let Some(section) = at.checked_sub(1).map(|index| &sections[index]) {
            if address < section.address + section.size && movable(&section.name) {
                hot.insert(section.name.as_str());
            }
        }
    }
    let bytes: u64 = sections.iter().filter(|s| hot.contains(s.name.as_str())).map(|s| s.size).sum();
    let mut text = String::from(
        "/* The read-only data the functions in startup-order.txt address, gathered\n\
         \x20  before `.rodata` (crates/cli/build.rs says why). Written by\n\
         \x20  `cargo xtask startup-order`, with that file. */\n\
         SECTIONS {\n  .rodata.hot : {\n    *(\n",
    );
    // One pattern list, not a `*(NAME)` per section: LLD tries every
    // input section against every description in turn, and 2,500 of them
    // added 25 s to a release link (one list: 5 s).
    for name in &hot {
        text.push_str(&format!("      {name}\n"));
    }
    text.push_str("    )\n  }\n} INSERT BEFORE .rodata;\n");
    std::fs::write(root.join(RODATA_SCRIPT), text)?;
    println!("{RODATA_SCRIPT}: {} sections, {:.0} KiB", hot.len(), bytes as f64 / 1024.0);
    Ok(())
}

struct Section {
    address: u64,
    size: u64,
    name: String,
}

/// The input sections of `.rodata` (and of `.rodata.hot`, where an earlier
/// script put some) in an LLD map, by address. The map's columns are
/// `VMA LMA Size Align Out In Symbol`; a name's indentation says which of
/// the last three it is.
fn rodata_sections(map: &str) -> Vec<Section> {
    let mut lines = map.lines();
    let header = lines.next().unwrap_or_default();
    let (Some(out_column), Some(in_column)) = (header.find("Out"), header.find("In ")) else { return Vec::new() };
    let mut sections = Vec::new();
    let mut inside = false;
    for line in lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [address, _, size, _, name] = fields[..] else { continue };
        let column = line.trim_end().len() - name.len();
        if column == out_column {
            inside = name == ".rodata" || name == ".rodata.hot";
        } else if column == in_column && inside {
            let Some((file, section)) = name.split_once(":(") else { continue };
            let (Ok(address), Ok(size)) = (u64::from_str_radix(address, 16), u64::from_str_radix(size, 16)) else {
                continue;
            };
            if file != "<internal>" {
                sections.push(Section { address, size, name: section.trim_end_matches(')').to_owned() });
            }
        }
    }
    sections.sort_by_key(|section| section.address);
    sections
}

/// What a linker script can move by name: not the linker's merged
/// constants and strings (`.rodata.cst16`, `.rodata.str1.1`), which it
/// builds itself, nor a C file's plain `.rodata`, a name every C file
/// shares.
fn movable(name: &str) -> bool {
    let merged = name.starts_with(".rodata.cst") || name.starts_with(".rodata.str") || name.contains(".str1.");
    name.starts_with(".rodata.") && !merged && !name.contains(|c: char| c.is_whitespace() || "()*?[]\"\\,;".contains(c))
}

/// Every address an instruction between `start` and `end` names
/// (`objdump` prints it after a `#`: a RIP-relative operand).
fn addressed(binary: &Path, start: u64, end: u64) -> Result<BTreeSet<u64>> {
    let output = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn"])
        .arg(format!("--start-address={start:#x}"))
        .arg(format!("--stop-address={end:#x}"))
        .arg(binary)
        .output()?;
    if !output.status.success() {
        return Err(
            format!("`objdump -d {}` failed: {}", binary.display(), String::from_utf8_lossy(&output.stderr)).into()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_once("# ")?.1.split_whitespace().next())
        .filter_map(|address| u64::from_str_radix(address, 16).ok())
        .collect())
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
    if functions.is_empty() {
        return Err(format!(
            "{} has no symbol table (release builds drop it; build with {}={} to check)",
            binary.display(),
            KEEP_SYMBOLS.0,
            KEEP_SYMBOLS.1
        )
        .into());
    }
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
