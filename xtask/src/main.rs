//! Project automation, run as `cargo xtask <command>` (the alias lives in
//! `.cargo/config.toml`).
//!
//! - `bench [W1|W2|W3|W4|W5|local-llm|first-run]...`: the performance report (see `bench.rs`).
//! - `eval [--plan PLAN] [--task ID]...`: the evaluation suite of
//!   `tests/eval/` (see `eval.rs`).
//! - `fuzz [TARGET]... [--runs N | --seconds S]`: the libFuzzer targets of `fuzz/` (see `fuzz.rs`).
//! - `docs`: writes the generated reference pages, `docs/reference/` (see
//!   `docs.rs`; the CLI's in `cli_reference.rs`).
//! - `man [DIR]`: writes the man pages (default `target/man`) with the
//!   binary's hidden `man-pages` command.
//! - `startup-order`: records the functions a start of `amplifier` runs, and
//!   the read-only data they address, for the linker to lay out together
//!   (see `startup_order.rs`).
//! - `tidy`: fails when the documentation names paths, links or generated
//!   pages that are not what the repository holds (see `tidy.rs`), or when
//!   the kernel's, the host's or the CLI's modules import each other in a
//!   circle (see `imports.rs`).

#[cfg(feature = "bench")]
mod bench;
mod cli_reference;
mod docs;
#[cfg(feature = "bench")]
mod eval;
mod fuzz;
mod imports;
mod startup_order;
mod tidy;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask bench [W1|W2|W3|W4|W5|local-llm|first-run]...
       cargo xtask eval [--plan PLAN] [--task ID]... [--timeout SECONDS] [--json FILE]
       cargo xtask fuzz [plan|ops|run_request|hub_frame|yaml|hooks_file]... [--runs N | --seconds S]
       cargo xtask docs
       cargo xtask man [DIR]
       cargo xtask startup-order
       cargo xtask tidy

bench: the performance report
  W1  cold start of `amplifier run` on the scripted plan (1 tool call)
  W2  1000 sequential tool calls with 5 hook plugins on every event
  W3  hook emit with 5 handlers, in-process and across the plugin ABI
  W4  context-simple with 10000 messages: adds and a compacted request view
  W5  `bash -c true` as tool-bash spawns it, unconfined and sandboxed
  local-llm  provider-local vs the same model in llama.cpp's server (xllamacpp):
             decode tokens/s and time to first token (builds llama.cpp, pulls
             491 MB; not part of the default set)
  first-run  the README's first command on a cold start: a clone of HEAD, an
             empty CARGO_HOME and AMPLIFIER_HOME; fetch, build (with cargo
             --timings), the first run (model pull, answer) and a later run,
             each timed, the heaviest build units and the binary's size (a
             15-minute cold build on 2 cores, a 1.1 GB pull; opt-in)
  With no workload named, W1 to W5 run. The report is a measurement, not a
  test: nothing fails because something is slow.

eval: the evaluation suite, tests/eval/suite.toml: each task is a question
  about the checkout tests/eval/fixture/, asked with `amplifier run` (on the
  default plan, or PLAN) in a fresh copy of it; prints each answer, right or
  wrong, its time and its tool calls, then right/total and the median time
  per task. Builds the release binary unless XTASK_AMPLIFIER_BIN names one.

fuzz: builds fuzz/ with libFuzzer coverage instrumentation (stable Rust, no
  sanitizer) and runs each target N times (default 1000000), or S seconds, on
  its corpus:
  plan         the mount-plan parser
  ops          every host and plugin operation's parameters (JSON round trip)
  run_request  the body of `amplifier serve`'s POST /v1/runs
  hub_frame    a frame a remote service sends the service hub
  yaml         the bounded YAML reader (settings, skills' frontmatter)
  hooks_file   a hooks file in Claude Code's and codex's format
  A crash is kept in fuzz/artifacts/<target>/; exit 1 if any target crashed.

man: writes amplifier.1 and a page per subcommand into DIR (default
  target/man), from the CLI's clap definitions (`amplifier man-pages DIR`);
  read one with `man -l target/man/amplifier-run.1`.

startup-order: writes crates/cli/startup-order.txt, the functions that one
  `amplifier run` of mount-plans/scripted.yaml executes (a release build,
  traced with a breakpoint on every function; x86_64 Linux, needs nm and a C
  compiler), which the build hands the linker to place first; and
  crates/cli/startup-rodata.ld, the read-only data they address (a relink
  with a map, and objdump), which the build gathers before .rodata.

docs: writes docs/reference/ (modules from plugins/*/amplifier.toml, events
  from crates/protocol, the CLI rendered from the JSON command tree of
  `amplifier reference-json`, which `cargo run` builds).

tidy: checks README.md, ARCHITECTURE.md and docs/**/*.md: backticked
  repository paths exist, relative links and their anchors resolve, and
  docs/reference/ is what `docs` would write; and the modules of
  crates/kernel, crates/host and crates/cli import each other in no circle.
  Exit 1 with `file:line: message` lines when not.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.split_first() {
        #[cfg(feature = "bench")]
        Some((command, rest)) if command == "bench" => {
            bench::parse(rest).map_err(Into::into).and_then(|workloads| bench::run(&workloads))
        }
        #[cfg(feature = "bench")]
        Some((command, rest)) if command == "eval" => eval::run(&root(), rest),
        #[cfg(not(feature = "bench"))]
        Some((command, _)) if command == "bench" || command == "eval" => {
            Err("xtask was built without its `bench` feature".into())
        }
        Some((command, rest)) if command == "fuzz" => fuzz::run(&root(), rest),
        Some((command, rest)) if command == "docs" && rest.is_empty() => write_docs(),
        Some((command, rest)) if command == "tidy" && rest.is_empty() => tidy(),
        Some((command, rest)) if command == "startup-order" && rest.is_empty() => startup_order::run(&root()),
        Some((command, rest)) if command == "man" && rest.len() <= 1 => write_man(rest.first()),
        Some((command, _)) if matches!(command.as_str(), "help" | "-h" | "--help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the xtask crate is in the workspace").to_owned()
}

fn write_docs() -> docs::Result<()> {
    let root = root();
    let pages = docs::generate(&root, &docs::read_cli(&root)?)?;
    let changed = docs::write(&root, &pages)?;
    println!("{}: {} pages, {changed} changed", docs::REFERENCE_DIR, pages.len());
    Ok(())
}

fn write_man(dir: Option<&String>) -> docs::Result<()> {
    let root = root();
    let dir = dir.map_or_else(|| root.join("target/man"), PathBuf::from);
    let dir = std::env::current_dir().map(|cwd| cwd.join(&dir)).unwrap_or(dir);
    let (mut command, what) = docs::amplifier(&root, &["man-pages", &dir.display().to_string()]);
    let status = command.current_dir(&root).status().map_err(|err| format!("could not run `{what}`: {err}"))?;
    if !status.success() {
        return Err(format!("`{what}` failed ({status})").into());
    }
    let pages = std::fs::read_dir(&dir).map(|entries| entries.count()).unwrap_or(0);
    println!("{}: {pages} man pages (read one with `man -l {}/amplifier.1`)", dir.display(), dir.display());
    Ok(())
}

fn tidy() -> docs::Result<()> {
    let started = Instant::now();
    let root = root();
    let pages = docs::generate(&root, &docs::read_cli(&root)?)?;
    let mut problems = tidy::check(&root, &pages)?;
    problems.extend(imports::check(&root)?);
    let files = tidy::checked_files(&root)?.len();
    if problems.is_empty() {
        println!("tidy: {files} Markdown files, {} generated pages: ok ({:.1?})", pages.len(), started.elapsed());
        return Ok(());
    }
    for problem in &problems {
        eprintln!("{problem}");
    }
    Err(format!("tidy: {} problem(s)", problems.len()).into())
}
