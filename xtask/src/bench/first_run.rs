//! `first-run`: the README's first command as a newcomer meets it, timed
//! stage by stage. A clean clone of `HEAD` gets an empty `CARGO_HOME` (a
//! cold crate registry), no `target/` and a new `AMPLIFIER_HOME`; then
//!
//! 1. `cargo fetch --locked`: the crates are downloaded;
//! 2. `cargo build --release --locked --timings --bin amplifier`: what
//!    `cargo run --release` builds, with cargo's per-unit timings;
//! 3. `amplifier run "Say hello"`: the default plan's model is pulled and
//!    answers (the first run);
//! 4. the same again, the model now present (every later run).
//!
//! 1 to 3 are the README's first command. Each stage's wall time and the
//! CPU time of its processes are reported, the heaviest build units, and
//! the size of the binary. Only committed work is measured (it is a clone).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{Bench, Report, Result};

const PROMPT: &str = "Say hello";
/// The units listed by name; the rest are summed.
const HEAVIEST: usize = 12;

struct Stage {
    name: &'static str,
    wall: Duration,
    cpu: Duration,
}

impl Bench {
    pub(super) fn first_run(&self) -> Result<Report> {
        let scratch = self.root.join("target").join("first-run");
        if scratch.exists() {
            std::fs::remove_dir_all(&scratch)?;
        }
        std::fs::create_dir_all(&scratch)?;
        let dirty = Command::new("git").args(["status", "--porcelain"]).current_dir(&self.root).output()?;
        if !dirty.stdout.is_empty() {
            eprintln!("bench: first-run measures HEAD; the working tree's uncommitted changes are not in it");
        }
        let checkout = scratch.join("checkout");
        let cloned =
            Command::new("git").args(["clone", "--quiet", "--no-hardlinks"]).arg(&self.root).arg(&checkout).status()?;
        if !cloned.success() {
            return Err(format!("`git clone {}` failed", self.root.display()).into());
        }
        let cargo_home = scratch.join("cargo-home");
        std::fs::create_dir_all(&cargo_home)?;
        // A registry mirror or proxy the user configured is configuration,
        // not cache: keep it, so the cold registry is fetched as theirs is.
        if let Some(config) = user_cargo_config() {
            std::fs::copy(&config, cargo_home.join("config.toml"))?;
        }
        let home = scratch.join("amplifier-home");

        let cargo = |args: &[&str]| {
            let mut command = Command::new(&self.cargo);
            command.args(args).current_dir(&checkout).env("CARGO_HOME", &cargo_home).env_remove("CARGO_TARGET_DIR");
            command
        };
        let binary = checkout.join("target/release").join(format!("amplifier{}", std::env::consts::EXE_SUFFIX));
        let amplifier = || {
            let mut command = Command::new(&binary);
            command.args(["run", PROMPT]).current_dir(&checkout).env("AMPLIFIER_HOME", &home);
            command.env_remove("AMPLIFIER_STORE").env_remove("AMPLIFIER_STATE_DIR");
            command
        };
        let stages = [
            timed("fetch", cargo(&["fetch", "--locked"]))?,
            timed("build", cargo(&["build", "--release", "--locked", "--timings", "--bin", "amplifier"]))?,
            timed("first run (model pull, answer)", amplifier())?,
            timed("a later run", amplifier())?,
        ];
        let first_command: Duration = stages[..3].iter().map(|stage| stage.wall).sum();
        let binary_bytes = std::fs::metadata(&binary)?.len();
        let timing_page = checkout.join("target/cargo-timings/cargo-timing.html");
        let units = build_units(&std::fs::read_to_string(&timing_page)?)?;
        let kept = self.root.join("target/bench/first-run-timing.html");
        std::fs::create_dir_all(kept.parent().unwrap_or(&self.root))?;
        std::fs::copy(&timing_page, &kept)?;
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();

        let mut text = format!(
            "first-run  the README's first command {:.0} s (fetch + build + first run); binary {:.1} MB; load average before: {}\n",
            first_command.as_secs_f64(),
            binary_bytes as f64 / 1e6,
            load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        );
        for stage in &stages {
            text.push_str(&format!(
                "  {:<32} {:>7.1} s wall {:>8.1} s CPU\n",
                stage.name,
                stage.wall.as_secs_f64(),
                stage.cpu.as_secs_f64()
            ));
        }
        let unit_total: f64 = units.iter().map(|unit| unit.seconds).sum();
        text.push_str(&format!(
            "  {} build units, {:.0} s summed; the heaviest (cargo --timings, kept in {}):\n",
            units.len(),
            unit_total,
            kept.strip_prefix(&self.root).unwrap_or(&kept).display()
        ));
        for unit in units.iter().take(HEAVIEST) {
            text.push_str(&format!("    {:>6.1} s  {}\n", unit.seconds, unit.name));
        }
        let json = json!({
            "workload": "first-run",
            "first_command_s": first_command.as_secs_f64(),
            "binary_bytes": binary_bytes,
            "stages": stages.iter().map(|stage| json!({
                "stage": stage.name,
                "wall_s": stage.wall.as_secs_f64(),
                "cpu_s": stage.cpu.as_secs_f64(),
            })).collect::<Vec<_>>(),
            "units": units.iter().take(HEAVIEST).map(|unit| json!({"unit": unit.name, "s": unit.seconds})).collect::<Vec<_>>(),
            "units_summed_s": unit_total,
        });
        Ok(Report { text: text.trim_end().to_owned(), json })
    }
}

/// `$CARGO_HOME/config.toml` (or the older `config`), if the user has one.
fn user_cargo_config() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))?;
    ["config.toml", "config"].into_iter().map(|name| home.join(name)).find(|path| path.is_file())
}

/// Runs `command` to its end; its wall time, and the CPU time of it and
/// every process it waited for (cargo's rustc and build scripts).
fn timed(name: &'static str, mut command: Command) -> Result<Stage> {
    eprintln!("bench: first-run: {name}");
    let cpu_before = children_cpu();
    let started = Instant::now();
    let status = command.status()?;
    let wall = started.elapsed();
    if !status.success() {
        return Err(format!("first-run: {name} failed ({status}): {command:?}").into());
    }
    Ok(Stage { name, wall, cpu: children_cpu().saturating_sub(cpu_before) })
}

fn children_cpu() -> Duration {
    // SAFETY: `rusage` is plain old data; all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a `rusage`.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

struct Unit {
    name: String,
    seconds: f64,
}

/// The units of cargo's timing page (its `UNIT_DATA` array), heaviest
/// first. A build script's run is its own unit (`NAME VERSION build-script (run)`).
fn build_units(page: &str) -> Result<Vec<Unit>> {
    const MARKER: &str = "const UNIT_DATA = ";
    let start = page.find(MARKER).ok_or("cargo's timing page has no UNIT_DATA")? + MARKER.len();
    let data: Value = serde_json::Deserializer::from_str(&page[start..])
        .into_iter::<Value>()
        .next()
        .ok_or("cargo's timing page: UNIT_DATA is empty")??;
    let mut units: Vec<Unit> = data
        .as_array()
        .ok_or("cargo's timing page: UNIT_DATA is not an array")?
        .iter()
        .map(|unit| {
            let field = |key: &str| unit[key].as_str().unwrap_or_default();
            // `target` is empty for a library, else such as ` build-script (run)`.
            Unit {
                name: format!("{} {}{}", field("name"), field("version"), field("target")),
                seconds: unit["duration"].as_f64().unwrap_or(0.0),
            }
        })
        .collect();
    units.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    Ok(units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_read_from_the_timing_page_heaviest_first() {
        let page = r#"<script>
const UNIT_DATA = [
  {"i": 0, "name": "cc", "version": "1.2.0", "mode": "todo", "target": "", "start": 0.0, "duration": 2.5},
  {"i": 1, "name": "llama-cpp-sys-2", "version": "0.1.161", "mode": "run-custom-build", "target": " build-script (run)", "start": 3.0, "duration": 250.0},
  {"i": 2, "name": "amplifier", "version": "0.1.0", "mode": "todo", "target": " bin", "start": 300.0, "duration": 40.0}
];
const CONCURRENCY_DATA = [];
</script>"#;
        let units = build_units(page).unwrap();
        let names: Vec<&str> = units.iter().map(|unit| unit.name.as_str()).collect();
        assert_eq!(names, ["llama-cpp-sys-2 0.1.161 build-script (run)", "amplifier 0.1.0 bin", "cc 1.2.0"]);
        assert_eq!(units[0].seconds, 250.0);
    }
}
