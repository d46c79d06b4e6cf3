//! Project automation, run as `cargo xtask <command>` (the alias lives in
//! `.cargo/config.toml`).
//!
//! - `bench [W1|W2|W3|W4|local-llm]...`: the performance report (see `bench.rs`).

mod bench;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask bench [W1|W2|W3|W4|local-llm]...

  W1  cold start of `amplifier run` on the scripted plan (1 tool call)
  W2  1000 sequential tool calls with 5 hook plugins on every event
  W3  hook emit with 5 handlers, in-process and across the plugin ABI
  W4  context-simple with 10000 messages: adds and a compacted request view
  local-llm  provider-local vs the same model in llama.cpp's server (xllamacpp):
             decode tokens/s and time to first token (builds llama.cpp, pulls
             491 MB; not part of the default set)

With no workload named, W1 to W4 run. The report is a measurement, not a test:
nothing fails because something is slow.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((command, rest)) if command == "bench" => {
            let result = bench::parse(rest).map_err(Into::into).and_then(|workloads| bench::run(&workloads));
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("error: {err}");
                    ExitCode::FAILURE
                }
            }
        }
        Some((command, _)) if matches!(command.as_str(), "help" | "-h" | "--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
