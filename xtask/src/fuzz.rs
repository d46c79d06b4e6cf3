//! `cargo xtask fuzz [TARGET]... [--runs N | --seconds S]`: builds the
//! libFuzzer targets of `fuzz/` with coverage instrumentation on stable
//! Rust (the flags cargo-fuzz uses with `--sanitizer none`: Rust code needs
//! no sanitizer to find panics), runs each for N inputs (default
//! 1,000,000) or S seconds on its corpus in `fuzz/corpus/<target>` (seeded
//! from `fuzz/seeds/<target>`), and prints one line per target: inputs run,
//! time, and the crash if one was found (libFuzzer keeps it in
//! `fuzz/artifacts/<target>/`). CI runs every target for a few seconds.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

/// Every target of `fuzz/Cargo.toml`.
pub const TARGETS: &[&str] = &["plan", "ops", "run_request", "hub_frame", "yaml", "hooks_file"];

const RUSTFLAGS: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "--cfg=fuzzing",
    "-Cdebug-assertions",
    "-Coverflow-checks",
];

pub fn run(root: &Path, args: &[String]) -> Result<()> {
    let mut limit = Limit::Runs(1_000_000);
    let mut targets = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            limit = Limit::Runs(args.next().and_then(|n| n.parse().ok()).ok_or("--runs needs a number")?);
        } else if arg == "--seconds" {
            limit = Limit::Seconds(args.next().and_then(|n| n.parse().ok()).ok_or("--seconds needs a number")?);
        } else if TARGETS.contains(&arg.as_str()) {
            targets.push(arg.as_str());
        } else {
            return Err(format!("unknown fuzz target '{arg}' (expected {})", TARGETS.join(", ")).into());
        }
    }
    if targets.is_empty() {
        targets = TARGETS.to_vec();
    }
    let fuzz = root.join("fuzz");
    let target_dir = fuzz.join("target");
    eprintln!("fuzz: building the targets (instrumented, release)");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let triple = host_triple()?;
    let status = Command::new(cargo)
        .args(["build", "--release", "--bins", "--manifest-path"])
        .arg(fuzz.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        // With an explicit target, RUSTFLAGS reach the targets' crates but
        // not build scripts and proc macros, which run without libFuzzer.
        .args(["--target", &triple])
        .env("CARGO_ENCODED_RUSTFLAGS", RUSTFLAGS.join("\u{1f}"))
        .env_remove("RUSTFLAGS")
        .status()?;
    if !status.success() {
        return Err("building the fuzz targets failed".into());
    }
    let mut crashed = Vec::new();
    for target in targets {
        let corpus = fuzz.join("corpus").join(target);
        let artifacts = fuzz.join("artifacts").join(target);
        std::fs::create_dir_all(&corpus)?;
        std::fs::create_dir_all(&artifacts)?;
        let seeds = fuzz.join("seeds").join(target);
        eprintln!("fuzz: {target}, {}", limit.describe());
        let started = Instant::now();
        let output = Command::new(target_dir.join(&triple).join("release").join(target))
            .arg(&corpus)
            .arg(&seeds)
            .arg(limit.flag())
            .arg("-max_len=4096")
            .arg("-timeout=10")
            .arg("-print_final_stats=1")
            .arg(format!("-artifact_prefix={}/", artifacts.display()))
            .stdout(Stdio::null())
            .output()?;
        let elapsed = started.elapsed();
        let log = String::from_utf8_lossy(&output.stderr);
        let executed = log
            .lines()
            .find_map(|line| line.strip_prefix("stat::number_of_executed_units:"))
            .map_or_else(|| "?".to_owned(), |n| n.trim().to_owned());
        if output.status.success() {
            println!("{target}: {executed} inputs in {:.1} s, no crash", elapsed.as_secs_f64());
        } else {
            let artifact = log.lines().find(|line| line.contains("Test unit written to")).unwrap_or("no artifact");
            let panic = log.lines().find(|line| line.contains("panicked at")).unwrap_or("");
            println!("{target}: CRASH after {:.1} s: {panic} ({artifact})", elapsed.as_secs_f64());
            crashed.push(target);
        }
    }
    if crashed.is_empty() {
        Ok(())
    } else {
        Err(format!("crashes in {}", crashed.join(", ")).into())
    }
}

/// How long each target runs.
#[derive(Clone, Copy)]
enum Limit {
    Runs(u64),
    Seconds(u64),
}

impl Limit {
    fn flag(self) -> String {
        match self {
            Limit::Runs(runs) => format!("-runs={runs}"),
            Limit::Seconds(seconds) => format!("-max_total_time={seconds}"),
        }
    }

    fn describe(self) -> String {
        match self {
            Limit::Runs(runs) => format!("{runs} inputs"),
            Limit::Seconds(seconds) => format!("{seconds} s"),
        }
    }
}

/// The triple rustc builds for by default (`rustc -vV`'s `host:`).
fn host_triple() -> Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc).arg("-vV").output()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let host = text.lines().find_map(|line| line.strip_prefix("host: "));
    Ok(host.ok_or("`rustc -vV` printed no host triple")?.trim().to_owned())
}
