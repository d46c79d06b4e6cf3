//! `cargo xtask bench`: one line per workload on stdout (progress goes to
//! stderr). A report, not a test: nothing here asserts on time.
//!
//! W1 and W2 run the release `amplifier` binary as a child process; W3 and
//! W4 load the plugins in this process through the real loader; W5 spawns
//! commands as tool-bash does, confined and not; W6 runs the binary with
//! its tool in-process and with `isolation: process`. Every
//! workload uses `target/bench-home` as `AMPLIFIER_HOME`, so the plugin build
//! cache survives between bench runs (the first run builds the plugins),
//! and a store of its own, new for each workload.
//! `local-llm` (opt-in: it builds llama.cpp and pulls a 491 MB model) is in
//! `bench/local_llm.rs`; `serve` (opt-in: it starts PostgreSQL) in
//! `bench/serve.rs`; `first-run` (opt-in: a cold build in a clone, and a
//! 1.1 GB model pull) in `bench/first_run.rs`.

mod first_run;
mod local_llm;
mod serve;

use std::error::Error;
use std::ffi::OsString;
use std::fs::File;
use std::future::Future;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{HookResult, JsonMap, Message, Role, ToolCall};
use amplifier_kernel::ops::RequestView;
use amplifier_kernel::session::{Session, SessionOptions};
use amplifier_kernel::traits::{BoxFuture, HookHandler, ModuleResult};
use amplifier_kernel::HookRegistry;
use amplifier_loader::DylibLoader;
use serde_json::{json, Value};
use tokio::runtime::Runtime;

type Result<T, E = Box<dyn Error>> = std::result::Result<T, E>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Workload {
    W1,
    W2,
    W3,
    W4,
    W5,
    W6,
    LocalLlm,
    Serve,
    FirstRun,
}

/// `W1`…`W6`, `local-llm`, `serve` and `first-run` in any case and order; none means W1..W6.
/// Runs in that order.
pub fn parse(args: &[String]) -> Result<Vec<Workload>, String> {
    let mut chosen = Vec::new();
    for arg in args {
        chosen.push(match arg.to_ascii_uppercase().as_str() {
            "W1" => Workload::W1,
            "W2" => Workload::W2,
            "W3" => Workload::W3,
            "W4" => Workload::W4,
            "W5" => Workload::W5,
            "W6" => Workload::W6,
            "LOCAL-LLM" => Workload::LocalLlm,
            "SERVE" => Workload::Serve,
            "FIRST-RUN" => Workload::FirstRun,
            _ => {
                return Err(format!(
                    "unknown workload '{arg}' (expected W1, W2, W3, W4, W5, W6, local-llm, serve or first-run)"
                ))
            }
        });
    }
    if chosen.is_empty() {
        chosen = vec![Workload::W1, Workload::W2, Workload::W3, Workload::W4, Workload::W5, Workload::W6];
    }
    chosen.sort();
    chosen.dedup();
    Ok(chosen)
}

/// Where the host keeps its store (`amplifier_host::recording::STATE_DIR_ENV`):
/// each workload's scratch directory, so a run starts with a new user's
/// store, not one grown by every earlier bench run (468 MB once, which
/// added 1.4 ms to W1).
const STATE_DIR: &str = "AMPLIFIER_STATE_DIR";

struct Bench {
    /// The workspace root.
    root: PathBuf,
    /// `AMPLIFIER_HOME` for every workload.
    home: PathBuf,
    /// The release host binary.
    amplifier: PathBuf,
    cargo: OsString,
}

pub fn run(workloads: &[Workload]) -> Result<()> {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().ok_or("the xtask crate has no parent directory")?.to_owned();
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    };
    // Another build (an older commit's, to compare): measured as it is, not rebuilt.
    let given = std::env::var_os(crate::docs::BINARY_VARIABLE).filter(|bin| !bin.is_empty()).map(|bin| root.join(bin));
    let bench = Bench {
        home: target.join("bench-home"),
        amplifier: given
            .clone()
            .unwrap_or_else(|| target.join("release").join(format!("amplifier{}", std::env::consts::EXE_SUFFIX))),
        cargo: std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
        root,
    };
    let facts = machine_facts();
    println!("{facts}");
    if given.is_none()
        && workloads
            .iter()
            .any(|w| matches!(w, Workload::W1 | Workload::W2 | Workload::W6 | Workload::LocalLlm | Workload::Serve))
    {
        bench.build_host()?;
    }
    let runtime = if workloads.iter().any(|w| matches!(w, Workload::W3 | Workload::W4)) {
        Some(tokio::runtime::Builder::new_multi_thread().enable_all().build()?)
    } else {
        None
    };
    let results = target.join("bench").join("results.jsonl");
    std::fs::create_dir_all(results.parent().unwrap_or(&target))?;
    let mut jsonl = String::new();
    for workload in workloads {
        let report = match (workload, &runtime) {
            (Workload::W1, _) => bench.w1()?,
            (Workload::W2, _) => bench.w2()?,
            (Workload::W3, Some(runtime)) => bench.w3(runtime)?,
            (Workload::W4, Some(runtime)) => bench.w4(runtime)?,
            (Workload::W5, _) => w5()?,
            (Workload::W6, _) => bench.w6()?,
            (Workload::Serve, _) => bench.serve()?,
            (Workload::FirstRun, _) => bench.first_run()?,
            (Workload::LocalLlm, _) => {
                let text = bench.local_llm()?;
                Report { json: json!({"workload": "local-llm", "text": text}), text }
            }
            (_, None) => unreachable!("the runtime is built for W3 and W4"),
        };
        println!("{}", report.text);
        let mut json = report.json;
        json["machine"] = json!(facts);
        jsonl.push_str(&json.to_string());
        jsonl.push('\n');
        // Written after each workload, so an interrupted run keeps what it measured.
        std::fs::write(&results, &jsonl)?;
    }
    eprintln!("bench: JSON lines in {}", results.display());
    Ok(())
}

/// One workload's line of text, and the same figures as a JSON object.
struct Report {
    text: String,
    json: Value,
}

fn machine_facts() -> String {
    let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let rustc = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .filter(|version| !version.is_empty())
        .unwrap_or_else(|| "rustc (unknown version)".to_owned());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, model)| format!(", {}", model.trim()))
        })
        .unwrap_or_default();
    format!("amplifier-rs bench: nproc {nproc}{cpu}, {rustc}, {} {}", std::env::consts::OS, std::env::consts::ARCH)
}

impl Bench {
    fn build_host(&self) -> Result<()> {
        eprintln!("bench: cargo build --release --bin amplifier");
        let status = Command::new(&self.cargo)
            .args(["build", "--release", "--bin", "amplifier"])
            .current_dir(&self.root)
            .status()?;
        if !status.success() {
            return Err(format!("building the host binary failed ({status})").into());
        }
        Ok(())
    }

    /// Runs `amplifier run --plan PLAN "hi"` once. Returns its wall time and
    /// its peak RSS in KiB (from `wait4`: this child's, not earlier ones').
    fn run_host(&self, plan: &Path, scratch: &Path) -> Result<(Duration, u64)> {
        self.run_host_with(plan, scratch, &[], &[])
    }

    /// `run_host` with extra environment variables (`AMPLIFIER_MODULE_<ID>`
    /// overrides) and options; its standard output is left in
    /// `scratch/amplifier.stdout`.
    fn run_host_with(
        &self,
        plan: &Path,
        scratch: &Path,
        env: &[(String, OsString)],
        options: &[&str],
    ) -> Result<(Duration, u64)> {
        let log = scratch.join("amplifier.stderr");
        let started = Instant::now();
        let child = Command::new(&self.amplifier)
            .args(["run", "--plan"])
            .arg(plan)
            .args(options)
            .arg("hi")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.root)
            .env("AMPLIFIER_HOME", &self.home)
            .env(STATE_DIR, scratch.join("state"))
            // The scripted plan's event log, which would go to the checkout.
            .env("AMPLIFIER_EVENTS", scratch.join("events.jsonl"))
            .stdin(Stdio::null())
            .stdout(File::create(scratch.join("amplifier.stdout"))?)
            .stderr(File::create(&log)?)
            .spawn()?;
        let (success, peak_kib) = wait_with_peak_rss(&child)?;
        let wall = started.elapsed();
        if !success {
            let stderr = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(format!("`amplifier run --plan {}` failed:\n{stderr}", plan.display()).into());
        }
        Ok((wall, peak_kib))
    }

    /// A mount plan with absolute sources, as JSON (which YAML parsers read too).
    fn plan(&self, script: Value, with_tool: bool, hooks: usize) -> Value {
        let source = |dir: &str| self.root.join(dir).to_string_lossy().into_owned();
        let module = |name: &str, dir: &str| json!({"module": name, "source": source(dir)});
        let tools: Vec<Value> = if with_tool { vec![module("tool-echo", "plugins/tool-echo")] } else { Vec::new() };
        let hooks: Vec<Value> = (0..hooks)
            .map(|i| json!({"module": "hook-noop", "source": source("tests/fixtures/hook-noop"), "config": {"priority": i}}))
            .collect();
        json!({
            "session": {
                "orchestrator": module("loop-basic", "plugins/loop-basic"),
                "context": module("context-simple", "plugins/context-simple"),
            },
            "providers": [{
                "module": "provider-scripted",
                "source": source("plugins/provider-scripted"),
                "config": {"script": script},
            }],
            "tools": tools,
            "hooks": hooks,
        })
    }

    /// An initialized in-process session for `plan`, through the real loader.
    async fn session(&self, plan: &Value) -> Result<Session> {
        let parsed = amplifier_plan::parse_plan_str(&plan.to_string(), None)?;
        let loader = DylibLoader::new(None, &self.home);
        let session = Session::new(parsed.plan, Arc::new(loader), SessionOptions::default());
        let report = session.initialize().await?;
        if let Some(failure) = report.failures.first() {
            return Err(format!("{} {} failed to load: {}", failure.kind, failure.module, failure.error).into());
        }
        Ok(session)
    }

    /// W1 twice, interleaved: the scripted plan's modules built in, and the
    /// same modules as cdylibs (`AMPLIFIER_MODULE_<ID>` pointing at their crates).
    fn w1(&self) -> Result<Report> {
        const RUNS: usize = 20;
        const MODULES: [&str; 5] = ["loop-basic", "context-simple", "provider-scripted", "tool-echo", "hooks-logging"];
        let scratch = tempfile::tempdir()?;
        let plan = Path::new("mount-plans/scripted.yaml");
        let as_cdylibs: Vec<(String, OsString)> = MODULES
            .iter()
            .map(|m| {
                let id = m.to_uppercase().replace('-', "_");
                (format!("AMPLIFIER_MODULE_{id}"), self.root.join("plugins").join(m).into_os_string())
            })
            .collect();
        drop_page_cache(&self.amplifier)?;
        eprintln!("bench: W1 warm-up runs (the first bench run builds the plugins)");
        self.run_host(plan, scratch.path())?;
        self.run_host_with(plan, scratch.path(), &as_cdylibs, &[])?;
        let (mut builtin, mut cdylib) =
            ((Vec::with_capacity(RUNS), Vec::new()), (Vec::with_capacity(RUNS), Vec::new()));
        for _ in 0..RUNS {
            for ((walls, peaks), env) in [(&mut builtin, &[][..]), (&mut cdylib, &as_cdylibs[..])] {
                let (wall, kib) = self.run_host_with(plan, scratch.path(), env, &[])?;
                walls.push(wall);
                peaks.push(kib);
            }
        }
        // A run's peak RSS varies by a few hundred KiB with which pages the
        // kernel maps around each fault and how the threads interleave, so
        // the median says what a start takes and the highest what one may.
        let summed = |(walls, peaks): (Vec<Duration>, Vec<u64>)| {
            let highest = peaks.iter().max().copied().unwrap_or(0);
            (median(walls), median(peaks), highest)
        };
        let (builtin, cdylib) = (summed(builtin), summed(cdylib));
        let shown = |(wall, median_kib, max_kib): (Duration, u64, u64)| {
            format!(
                "{} wall (median of {RUNS}), peak RSS {:.1} MiB (median; the highest {:.1} MiB)",
                human(wall),
                median_kib as f64 / 1024.0,
                max_kib as f64 / 1024.0
            )
        };
        let figures = |(wall, median_kib, max_kib): (Duration, u64, u64)| json!({"wall_ns": nanos(wall), "peak_rss_kib_median": median_kib, "peak_rss_kib": max_kib});
        // A stale start-up order shows as RSS, so say how much of it holds.
        let order = crate::startup_order::coverage(&self.root, &self.amplifier);
        let order_text = match &order {
            Ok((found, listed)) => {
                format!("{found} of the {listed} names in the start-up order found in the binary")
            }
            Err(err) => format!("the start-up order not checked ({err})"),
        };
        let order_json = order.ok().map(|(found, listed)| json!({"found": found, "listed": listed}));
        Ok(Report {
            text: format!(
                "W1 cold start (scripted plan, 1 tool call; a new process per run, plugin build cache warm): \
                 built-in modules {}; the same modules as cdylibs {}; {order_text}",
                shown(builtin),
                shown(cdylib)
            ),
            json: json!({
                "workload": "W1",
                "runs": RUNS,
                "builtin": figures(builtin),
                "cdylib": figures(cdylib),
                "startup_order": order_json,
            }),
        })
    }

    /// W2 at three lengths of history. Per K: the time per iteration with
    /// the store on (the default) and off (`--no-session`), each the
    /// difference between a K-call run and a one-call run over K - 1
    /// (medians, interleaved); and, from the events the store-on run
    /// recorded, the median time from one `provider:request` to the next in
    /// each tenth of the run: flat deciles mean an iteration costs the same
    /// whatever the length of the history.
    fn w2(&self) -> Result<Report> {
        const HOOKS: usize = 5;
        let scratch = tempfile::tempdir()?;
        let write_plan = |calls: usize| -> Result<PathBuf> {
            let script = json!([
                {"tool_calls": [{"name": "echo", "arguments": {"text": "x"}}], "repeat": calls},
                {"text": "done"},
            ]);
            let path = scratch.path().join(format!("w2-{calls}-calls.yaml"));
            std::fs::write(&path, serde_json::to_string_pretty(&self.plan(script, true, HOOKS))?)?;
            Ok(path)
        };
        let short = write_plan(1)?;
        let (mut lines, mut sizes) = (Vec::new(), Vec::new());
        for (calls, runs) in [(100, 9), (1000, 5), (3000, 3)] {
            let long = write_plan(calls)?;
            eprintln!("bench: W2 K = {calls}");
            self.run_host(&short, scratch.path())?;
            self.run_host(&long, scratch.path())?;
            let [mut on_long, mut on_short, mut off_long, mut off_short] = [(); 4].map(|()| Vec::new());
            let mut session = String::new();
            for _ in 0..runs {
                on_short.push(self.run_w2(&short, scratch.path(), true)?.0);
                let (wall, id) = self.run_w2(&long, scratch.path(), true)?;
                on_long.push(wall);
                session = id;
                off_short.push(self.run_w2(&short, scratch.path(), false)?.0);
                off_long.push(self.run_w2(&long, scratch.path(), false)?.0);
            }
            let per = |long: Vec<Duration>, short: Vec<Duration>| {
                median(long).saturating_sub(median(short)) / (calls as u32 - 1)
            };
            let (on, off) = (per(on_long, on_short), per(off_long, off_short));
            let deciles = self.w2_deciles(&session, scratch.path())?;
            let (first, last) =
                (deciles.first().copied().unwrap_or_default(), deciles.last().copied().unwrap_or_default());
            lines.push(format!(
                "K = {calls}: {} per iteration with the store, {} without; deciles {} (last / first {:.2})",
                human(on),
                human(off),
                deciles.iter().map(|d| human(*d)).collect::<Vec<_>>().join(" "),
                ratio(last, first)
            ));
            sizes.push(json!({
                "calls": calls,
                "runs": runs,
                "per_iteration_ns": nanos(on),
                "per_iteration_no_store_ns": nanos(off),
                "deciles_ns": deciles.iter().map(|d| nanos(*d)).collect::<Vec<_>>(),
                "last_over_first_decile": ratio(last, first),
            }));
        }
        let growth = |key: &str| match (sizes.first(), sizes.last()) {
            (Some(a), Some(b)) => b[key].as_f64().unwrap_or(0.0) / a[key].as_f64().unwrap_or(f64::NAN),
            _ => f64::NAN,
        };
        let (growth_on, growth_off) = (growth("per_iteration_ns"), growth("per_iteration_no_store_ns"));
        Ok(Report {
            text: format!(
                "W2 K sequential tool calls, {HOOKS} hook plugins on every event; {}; K = 3000 over K = 100: \
                 {growth_on:.2} with the store, {growth_off:.2} without",
                lines.join("; ")
            ),
            json: json!({
                "workload": "W2",
                "hooks": HOOKS,
                "sizes": sizes,
                "growth_3000_over_100": growth_on,
                "growth_3000_over_100_no_store": growth_off,
            }),
        })
    }

    /// One W2 run; with `store`, also its session id (from `--output-format json`).
    fn run_w2(&self, plan: &Path, scratch: &Path, store: bool) -> Result<(Duration, String)> {
        // Every event kept, for the deciles.
        let env = [("AMPLIFIER_EVENTS_MAX_ROWS".to_owned(), OsString::from("0"))];
        let options: &[&str] = if store { &["--output-format", "json"] } else { &["--no-session"] };
        let (wall, _) = self.run_host_with(plan, scratch, &env, options)?;
        if !store {
            return Ok((wall, String::new()));
        }
        let result: Value = serde_json::from_str(&std::fs::read_to_string(scratch.join("amplifier.stdout"))?)?;
        let session = result["session_id"].as_str().ok_or("`run --output-format json` printed no session_id")?;
        Ok((wall, session.to_owned()))
    }

    /// The median time from one `provider:request` to the next, per tenth
    /// of the stored session's iterations (exported as upstream's events.jsonl).
    fn w2_deciles(&self, session: &str, scratch: &Path) -> Result<Vec<Duration>> {
        let dir = scratch.join(format!("export-{session}"));
        let status = Command::new(&self.amplifier)
            .args(["session", "export", session, "--out"])
            .arg(&dir)
            .env("AMPLIFIER_HOME", &self.home)
            .env(STATE_DIR, scratch.join("state"))
            .stdout(Stdio::null())
            .status()?;
        if !status.success() {
            return Err(format!("`amplifier session export {session}` failed ({status})").into());
        }
        let mut requests = Vec::new();
        for line in std::fs::read_to_string(dir.join("events.jsonl"))?.lines() {
            let event: Value = serde_json::from_str(line)?;
            if event["event"] == "provider:request" {
                let at = event["data"]["timestamp"].as_str().ok_or("a provider:request without a timestamp")?;
                requests.push(seconds_of_day(at).ok_or_else(|| format!("unreadable timestamp {at}"))?);
            }
        }
        let steps: Vec<Duration> =
            requests.windows(2).map(|pair| Duration::from_secs_f64((pair[1] - pair[0]).rem_euclid(86_400.0))).collect();
        if steps.len() < 10 {
            return Err(format!("session {session} recorded {} provider requests", requests.len()).into());
        }
        let tenth = steps.len() / 10;
        Ok((0..10).map(|i| median(steps[i * tenth..(i + 1) * tenth].to_vec())).collect())
    }

    /// W2's loop without hooks, its tool in-process and in a process of
    /// its own (`isolation: process`), interleaved: the cost per call of
    /// the socket round trip, and of starting the module's process.
    fn w6(&self) -> Result<Report> {
        const CALLS: usize = 1000;
        const RUNS: usize = 5;
        let scratch = tempfile::tempdir()?;
        let write_plan = |calls: usize, isolation: &str| -> Result<PathBuf> {
            let script = json!([
                {"tool_calls": [{"name": "echo", "arguments": {"text": "x"}}], "repeat": calls},
                {"text": "done"},
            ]);
            let mut plan = self.plan(script, true, 0);
            plan["tools"][0]["isolation"] = json!(isolation);
            let path = scratch.path().join(format!("w6-{calls}-{isolation}.yaml"));
            std::fs::write(&path, serde_json::to_string_pretty(&plan)?)?;
            Ok(path)
        };
        let plans = [
            (write_plan(CALLS, "in-process")?, write_plan(1, "in-process")?),
            (write_plan(CALLS, "process")?, write_plan(1, "process")?),
        ];
        eprintln!("bench: W6 warm-up runs");
        for (long, short) in &plans {
            self.run_host(short, scratch.path())?;
            self.run_host(long, scratch.path())?;
        }
        let mut times = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
        for _ in 0..RUNS {
            for ((long, short), times) in plans.iter().zip(times.iter_mut()) {
                times[1].push(self.run_host(short, scratch.path())?.0);
                times[0].push(self.run_host(long, scratch.path())?.0);
            }
        }
        let [[in_long, in_short], [iso_long, iso_short]] = times.map(|runs| runs.map(median));
        let per_call = |long: Duration, short: Duration| long.saturating_sub(short) / (CALLS as u32 - 1);
        let (in_call, iso_call) = (per_call(in_long, in_short), per_call(iso_long, iso_short));
        Ok(Report {
            text: format!(
                "W6 {CALLS} sequential tool calls, tool-echo in-process / isolation: process: {} / {} per iteration \
                 (the process costs {} per call); one-call run {} / {} (starting the module's process: {})",
                human(in_call),
                human(iso_call),
                human(iso_call.saturating_sub(in_call)),
                human(in_short),
                human(iso_short),
                human(iso_short.saturating_sub(in_short)),
            ),
            json: json!({
                "workload": "W6",
                "per_iteration_in_process_ns": nanos(in_call),
                "per_iteration_isolated_ns": nanos(iso_call),
                "one_call_run_in_process_ns": nanos(in_short),
                "one_call_run_isolated_ns": nanos(iso_short),
            }),
        })
    }

    fn w3(&self, runtime: &Runtime) -> Result<Report> {
        const HANDLERS: usize = 5;
        const IN_PROCESS: usize = 100_000;
        const ACROSS_ABI: usize = 20_000;
        let data = tool_pre_data();
        let bytes = serde_json::to_string(&data)?.len();

        let registry = HookRegistry::new();
        // The defaults a session's coordinator sets, so both sides stamp the same fields.
        let mut defaults = JsonMap::new();
        defaults.insert("session_id".into(), json!("00000000-0000-4000-8000-000000000000"));
        defaults.insert("parent_id".into(), Value::Null);
        registry.set_default_fields(defaults);
        for i in 0..HANDLERS {
            registry.register("*", Arc::new(Noop), i as i32, format!("noop-{i}"));
        }
        let in_process = runtime.block_on(per_emit(IN_PROCESS, &data, |d| registry.emit("tool:pre", d)));

        // Hooks that never read the data, then hooks that read a field of it.
        let mut across = [Duration::ZERO; 2];
        for (reads_data, per) in [false, true].into_iter().zip(&mut across) {
            let mut plan = self.plan(json!([{"text": "done"}]), false, HANDLERS);
            for hook in plan["hooks"].as_array_mut().into_iter().flatten() {
                hook["config"]["reads_data"] = json!(reads_data);
            }
            *per = runtime.block_on(async {
                let session = self.session(&plan).await?;
                let coordinator = session.coordinator();
                let handlers =
                    coordinator.hooks().list_handlers(Some("tool:pre")).values().map(Vec::len).sum::<usize>();
                if handlers != HANDLERS {
                    return Err(format!("expected {HANDLERS} plugin handlers on tool:pre, found {handlers}").into());
                }
                let per = per_emit(ACROSS_ABI, &data, |d| coordinator.emit("tool:pre", d)).await;
                session.cleanup().await;
                Ok::<_, Box<dyn Error>>(per)
            })?;
        }
        let [across_abi, reading] = across;
        Ok(Report {
            text: format!(
                "W3 hook emit, {HANDLERS} handlers: {} in-process, {} across the ABI, {} with hooks that read the \
                 data (per emit, {bytes}-byte event)",
                human(in_process),
                human(across_abi),
                human(reading)
            ),
            json: json!({
                "workload": "W3",
                "handlers": HANDLERS,
                "event_bytes": bytes,
                "in_process_ns": nanos(in_process),
                "across_abi_ns": nanos(across_abi),
                "across_abi_reading_data_ns": nanos(reading),
            }),
        })
    }

    fn w4(&self, runtime: &Runtime) -> Result<Report> {
        const MESSAGES: usize = 10_000;
        const VIEWS: usize = 10;
        const BUDGET: u64 = 20_000;
        runtime.block_on(async {
            let session = self.session(&self.plan(json!([{"text": "done"}]), false, 0)).await?;
            let coordinator = session.coordinator();
            let started = Instant::now();
            for message in conversation(MESSAGES) {
                coordinator.add_message(message).await?;
            }
            let per_add = started.elapsed() / MESSAGES as u32;
            let view = || RequestView { token_budget: Some(BUDGET), provider: None };
            let kept = coordinator.get_messages_for_request(view()).await?.len();
            let mut views = Vec::with_capacity(VIEWS);
            for _ in 0..VIEWS {
                let started = Instant::now();
                black_box(coordinator.get_messages_for_request(view()).await?);
                views.push(started.elapsed());
            }
            session.cleanup().await;
            let view = median(views);
            Ok(Report {
                text: format!(
                    "W4 context-simple, {MESSAGES} messages: {} per add, {} per compacted request view \
                     (median of {VIEWS}; a {BUDGET}-token view keeps {kept} messages)",
                    human(per_add),
                    human(view)
                ),
                json: json!({
                    "workload": "W4",
                    "messages": MESSAGES,
                    "budget_tokens": BUDGET,
                    "kept": kept,
                    "per_add_ns": nanos(per_add),
                    "per_compacted_view_ns": nanos(view),
                }),
            })
        })
    }
}

/// W5: what the sandbox costs a command. `bash -c true` spawned and waited
/// for as tool-bash spawns it (own process group, cleaned environment),
/// unconfined and confined (workspace-write, no network), interleaved;
/// and what preparing the sandbox costs, once per tool mount.
fn w5() -> Result<Report> {
    use amplifier_sandbox::{Policy, Sandbox};
    use std::os::unix::process::CommandExt;
    const RUNS: usize = 200;
    let workspace = tempfile::tempdir()?;
    let policy = Policy { writable: vec![workspace.path().to_owned()], ..Policy::default() };
    let mut prepare = Vec::new();
    for _ in 0..10 {
        let started = Instant::now();
        black_box(Sandbox::new(policy.clone())?);
        prepare.push(started.elapsed());
    }
    let sandbox = Sandbox::new(policy.clone())?;
    // tool-bash's default: what configures git and amplifier bind-mounted
    // read-only in a mount namespace per command.
    std::fs::create_dir_all(workspace.path().join(".git/hooks"))?;
    std::fs::create_dir_all(workspace.path().join(".amplifier"))?;
    std::fs::write(workspace.path().join(".git/config"), "")?;
    let protected = [".amplifier", ".git/hooks", ".git/config"].map(|path| workspace.path().join(path)).to_vec();
    let protecting = Sandbox::new(Policy { read_only: protected, ..policy })?;
    // `guarded`: under the lifeline's guardian, as tool-bash runs every
    // command; `confined`: in the sandbox too (`protecting`'s, with `protect`).
    let spawn = |guarded: bool, confined: bool, protect: bool| -> Result<Duration> {
        let mut command = Command::new("bash");
        command.arg("-c").arg("true").current_dir(workspace.path()).process_group(0);
        amplifier_sandbox::env::apply(
            &mut command,
            amplifier_sandbox::env::INHERITED.iter().copied(),
            &Default::default(),
        );
        if guarded {
            amplifier_sandbox::lifeline::guard(&mut command);
        }
        if confined {
            if protect { &protecting } else { &sandbox }.confine(&mut command);
        }
        let started = Instant::now();
        let status = command.status()?;
        let took = started.elapsed();
        if !status.success() {
            return Err(format!("bash -c true failed ({status}), confined: {confined}").into());
        }
        Ok(took)
    };
    let (mut open, mut guarded, mut confined, mut protected) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        open.push(spawn(false, false, false)?);
        guarded.push(spawn(true, false, false)?);
        confined.push(spawn(true, true, false)?);
        protected.push(spawn(true, true, true)?);
    }
    let (open, guarded, confined, protected) = (median(open), median(guarded), median(confined), median(protected));
    let prepare = median(prepare);
    Ok(Report {
        text: format!(
            "W5 `bash -c true`: {} bare, {} under a guardian (+{}; full-access), {} guarded and sandboxed \
             (+{}), {} with the protected paths read-only in a mount namespace (+{}; as tool-bash runs it by \
             default; median of {RUNS} each, interleaved); preparing the sandbox {} (median of 10, once per mount)",
            human(open),
            human(guarded),
            human(guarded.saturating_sub(open)),
            human(confined),
            human(confined.saturating_sub(guarded)),
            human(protected),
            human(protected.saturating_sub(confined)),
            human(prepare)
        ),
        json: json!({
            "workload": "W5",
            "unconfined_ns": nanos(open),
            "guarded_ns": nanos(guarded),
            "sandboxed_ns": nanos(confined),
            "protected_ns": nanos(protected),
            "prepare_ns": nanos(prepare),
        }),
    })
}

/// Waits for `child` with `wait4`, which reports that child's own rusage.
/// (`getrusage(RUSAGE_CHILDREN)` would report the peak over every child ever
/// waited for, cargo and rustc included.) Returns success and peak RSS in KiB.
/// Drops `binary`'s pages from the page cache, so that W1's runs read it in
/// as an installed binary's first run does. The kernel maps a binary's
/// pages in the page cache's units (folios), and a file just written (a
/// binary just built or copied) has other units than one read from disk:
/// the same binary measured 9.5 MiB of peak RSS copied a moment before and
/// 9.1 MiB read back, which made builds compare by how they were copied.
#[cfg(target_os = "linux")]
fn drop_page_cache(binary: &Path) -> Result<()> {
    use std::os::fd::AsRawFd;
    let file = File::open(binary)?;
    // Dirty pages (not yet written back) are not dropped.
    file.sync_data()?;
    // SAFETY: a valid descriptor, the whole file.
    let failed = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    if failed != 0 {
        return Err(
            format!("posix_fadvise({}): {}", binary.display(), std::io::Error::from_raw_os_error(failed)).into()
        );
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn drop_page_cache(_binary: &Path) -> Result<()> {
    Ok(())
}

fn wait_with_peak_rss(child: &std::process::Child) -> Result<(bool, u64)> {
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain old data; all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our child and nothing else waits for it (std only
        // reaps in `wait`/`try_wait`, which are never called on it).
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited == pid {
            break;
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err.into());
        }
    }
    let success = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    let maxrss = u64::try_from(usage.ru_maxrss).unwrap_or(0);
    // Linux reports KiB, macOS bytes.
    let kib = if cfg!(target_os = "macos") { maxrss / 1024 } else { maxrss };
    Ok((success, kib))
}

/// Mean time of `emit` over `iterations` calls, after a warm-up. The data
/// maps are cloned outside the timed region; dropping the result is inside.
async fn per_emit<F, Fut>(iterations: usize, data: &JsonMap, mut emit: F) -> Duration
where
    F: FnMut(JsonMap) -> Fut,
    Fut: Future<Output = HookResult>,
{
    const BATCH: usize = 1000;
    for _ in 0..BATCH {
        black_box(emit(data.clone()).await);
    }
    let mut total = Duration::ZERO;
    let mut done = 0;
    while done < iterations {
        let batch: Vec<JsonMap> = (0..BATCH).map(|_| data.clone()).collect();
        let started = Instant::now();
        for data in batch {
            black_box(emit(data).await);
        }
        total += started.elapsed();
        done += BATCH;
    }
    total / done as u32
}

/// An in-process handler that answers `continue` at once.
struct Noop;

impl HookHandler for Noop {
    fn handle<'a>(&'a self, _event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// A `tool:pre` payload as loop-basic sends it (~150 bytes of JSON).
fn tool_pre_data() -> JsonMap {
    let data = json!({
        "tool_name": "echo",
        "tool_input": {"text": "a short line of text for the echo tool to send back"},
        "tool_call_id": "call_17",
        "parallel_group_id": "1-17",
    });
    match data {
        Value::Object(map) => map,
        _ => unreachable!("json! object"),
    }
}

/// A coding conversation of `n` messages in rounds of four: a user request,
/// an assistant tool call, its result, and the assistant's answer.
fn conversation(n: usize) -> Vec<Message> {
    (0..n)
        .map(|i| {
            let round = i / 4;
            let call_id = format!("call_{round}");
            match i % 4 {
                0 => Message::user(prose(
                    &format!("Could you look at src/module_{round}.rs and explain what the handler does?"),
                    i,
                )),
                1 => Message {
                    tool_calls: Some(vec![ToolCall {
                        id: call_id,
                        name: "read_file".to_owned(),
                        arguments: json!({"path": format!("src/module_{round}.rs")}),
                        extensions: JsonMap::new(),
                    }]),
                    ..Message::new(Role::Assistant, prose(&format!("I'll read src/module_{round}.rs first."), i))
                },
                2 => Message {
                    name: Some("read_file".to_owned()),
                    ..Message::tool_result(
                        call_id,
                        prose(&format!("// src/module_{round}.rs\nfn handle(event: &Event) -> Result<()> {{"), i),
                    )
                },
                _ => Message::new(
                    Role::Assistant,
                    prose(&format!("The handler in module {round} validates the event, then"), i),
                ),
            }
        })
        .collect()
}

/// `lead` followed by words until the text is about 200 characters long.
fn prose(lead: &str, seed: usize) -> String {
    const WORDS: [&str; 16] = [
        "checks", "the", "session", "returns", "an", "error", "when", "input", "is", "missing", "then", "writes", "to",
        "cache", "and", "logs",
    ];
    let mut text = lead.to_owned();
    let mut k = seed;
    while text.len() < 200 {
        text.push(' ');
        text.push_str(WORDS[k % WORDS.len()]);
        k = k.wrapping_mul(31).wrapping_add(7);
    }
    text
}

/// An RFC 3339 timestamp's time of day in seconds (nanoseconds kept): the
/// kernel stamps every event in UTC.
fn seconds_of_day(timestamp: &str) -> Option<f64> {
    let time = timestamp.split_once('T')?.1.trim_end_matches('Z');
    let mut parts = time.splitn(3, ':');
    let hours: f64 = parts.next()?.parse().ok()?;
    let minutes: f64 = parts.next()?.parse().ok()?;
    let seconds: f64 = parts.next()?.parse().ok()?;
    Some(hours * 3600.0 + minutes * 60.0 + seconds)
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

/// A measurement the benchmarks take the median of.
trait Sample: Ord + Copy + Default {
    fn midpoint(self, other: Self) -> Self;
}

impl Sample for Duration {
    fn midpoint(self, other: Self) -> Self {
        (self + other) / 2
    }
}

/// KiB of peak RSS.
impl Sample for u64 {
    fn midpoint(self, other: Self) -> Self {
        u64::midpoint(self, other)
    }
}

/// The middle sample, or the midpoint of the two middle ones; the default (zero) for none.
fn median<T: Sample>(mut samples: Vec<T>) -> T {
    samples.sort_unstable();
    let n = samples.len();
    match n {
        0 => T::default(),
        _ if n % 2 == 1 => samples[n / 2],
        _ => samples[n / 2 - 1].midpoint(samples[n / 2]),
    }
}

/// Three significant digits in a fitting unit: `190 ns`, `2.41 µs`, `41.0 ms`.
fn human(duration: Duration) -> String {
    let ns = duration.as_secs_f64() * 1e9;
    let (value, unit) = match ns {
        ns if ns < 1e3 => (ns, "ns"),
        ns if ns < 1e6 => (ns / 1e3, "µs"),
        ns if ns < 1e9 => (ns / 1e6, "ms"),
        ns => (ns / 1e9, "s"),
    };
    let decimals = match value {
        v if v < 10.0 => 2,
        v if v < 100.0 => 1,
        _ => 0,
    };
    format!("{value:.decimals$} {unit}")
}
