//! `eval`: the evaluation suite (`tests/eval/suite.toml`), run through a
//! plan, scored right or wrong per task, timed.
//!
//! Each task runs `amplifier run --output-format json-trace PROMPT` in a fresh copy
//! of `tests/eval/fixture/`, with its own `AMPLIFIER_HOME` (so no settings,
//! skills or sessions of the user's take part) and the user's models
//! directory (so a model is pulled once). The answer is scored by
//! `tests/eval/score.rs`. A task that fails, or runs past `--timeout`, is
//! wrong. The report is a measurement, like the benchmarks: `eval` exits 0
//! whatever the score, and 1 only when it could not run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "../../tests/eval/score.rs"]
mod score;

type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

pub const USAGE: &str = "cargo xtask eval [--plan PLAN] [--task ID]... [--timeout SECONDS] [--json FILE]";

struct Task {
    id: String,
    prompt: String,
    expect: Vec<String>,
    any: Vec<String>,
}

struct Options {
    plan: Option<PathBuf>,
    tasks: Vec<String>,
    timeout: Duration,
    json: Option<PathBuf>,
}

fn options(args: &[String]) -> Result<Options, String> {
    let mut options = Options { plan: None, tasks: Vec::new(), timeout: Duration::from_secs(180), json: None };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().cloned().ok_or_else(|| format!("{arg} needs a value\nusage: {USAGE}"));
        match arg.as_str() {
            "--plan" => options.plan = Some(PathBuf::from(value()?)),
            "--task" => options.tasks.push(value()?),
            "--timeout" => {
                let seconds = value()?;
                let seconds: u64 =
                    seconds.parse().map_err(|_| format!("--timeout {seconds}: not a number of seconds"))?;
                options.timeout = Duration::from_secs(seconds);
            }
            "--json" => options.json = Some(PathBuf::from(value()?)),
            _ => return Err(format!("unknown argument '{arg}'\nusage: {USAGE}")),
        }
    }
    Ok(options)
}

fn suite(root: &Path) -> Result<Vec<Task>> {
    let path = root.join("tests/eval/suite.toml");
    let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let table: toml::Table = text.parse().map_err(|err| format!("{}: {err}", path.display()))?;
    let words = |task: &toml::Table, key: &str| -> Vec<String> {
        task.get(key)
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|w| w.as_str())
            .map(str::to_owned)
            .collect()
    };
    let tasks =
        table.get("task").and_then(toml::Value::as_array).ok_or_else(|| format!("{}: no [[task]]", path.display()))?;
    tasks
        .iter()
        .map(|task| {
            let task = task.as_table().ok_or_else(|| format!("{}: a [[task]] is not a table", path.display()))?;
            let text = |key: &str| {
                task.get(key)
                    .and_then(toml::Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| format!("{}: a task has no `{key}`", path.display()))
            };
            Ok(Task {
                id: text("id")?,
                prompt: text("prompt")?,
                expect: words(task, "expect"),
                any: words(task, "any"),
            })
        })
        .collect()
}

/// Copies the fixture checkout into `to`.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// One task's outcome.
struct Outcome {
    right: bool,
    seconds: f64,
    answer: String,
    tool_calls: Vec<String>,
    error: Option<String>,
}

pub fn run(root: &Path, args: &[String]) -> Result<()> {
    let options = options(args)?;
    let mut tasks = suite(root)?;
    if !options.tasks.is_empty() {
        if let Some(unknown) = options.tasks.iter().find(|id| !tasks.iter().any(|task| &&task.id == id)) {
            return Err(format!("no task '{unknown}' in tests/eval/suite.toml").into());
        }
        tasks.retain(|task| options.tasks.contains(&task.id));
    }
    let amplifier = match std::env::var_os(crate::docs::BINARY_VARIABLE).filter(|bin| !bin.is_empty()) {
        Some(bin) => root.join(bin),
        None => {
            eprintln!("eval: cargo build --release --bin amplifier");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status =
                Command::new(cargo).args(["build", "--release", "--bin", "amplifier"]).current_dir(root).status()?;
            if !status.success() {
                return Err(format!("building the host binary failed ({status})").into());
            }
            root.join("target/release/amplifier")
        }
    };
    let plan = options.plan.as_ref().map(|plan| std::env::current_dir().map(|cwd| cwd.join(plan))).transpose()?;
    let scratch = tempfile::tempdir()?;
    let models = models_dir();
    // The model is pulled once, before the clock starts.
    let mut prepare = Command::new(&amplifier);
    prepare.arg("run").env("AMPLIFIER_HOME", scratch.path().join("home")).env("AMPLIFIER_MODELS", &models);
    prepare.env_remove("AMPLIFIER_PLAN").current_dir(scratch.path());
    if let Some(plan) = &plan {
        prepare.arg("--plan").arg(plan);
    }
    let prepared = prepare.arg("Say OK.").stdout(Stdio::null()).status()?;
    if !prepared.success() {
        return Err(format!("a first run of {} failed ({prepared})", amplifier.display()).into());
    }
    let which = plan.as_ref().map_or_else(|| "the default plan".to_owned(), |plan| plan.display().to_string());
    println!("eval: {} tasks on {which}", tasks.len());
    let mut outcomes = Vec::new();
    let mut jsonl = String::new();
    for (index, task) in tasks.iter().enumerate() {
        let checkout = scratch.path().join(format!("task-{index}"));
        copy_tree(&root.join("tests/eval/fixture"), &checkout)?;
        let outcome = run_task(&amplifier, plan.as_deref(), &checkout, &models, task, options.timeout)?;
        let mark = if outcome.right { "right" } else { "WRONG" };
        let answer: String = outcome.answer.split_whitespace().collect::<Vec<_>>().join(" ");
        let shown: String = answer.chars().take(160).collect();
        println!(
            "{mark:5} {:>6.1} s  {:<18} [{}] {}{}",
            outcome.seconds,
            task.id,
            outcome.tool_calls.join(", "),
            shown,
            outcome.error.as_deref().map(|e| format!(" [{e}]")).unwrap_or_default()
        );
        jsonl.push_str(
            &json!({"task": task.id, "right": outcome.right, "seconds": outcome.seconds, "tool_calls": outcome.tool_calls,
                    "answer": outcome.answer, "error": outcome.error})
            .to_string(),
        );
        jsonl.push('\n');
        outcomes.push(outcome);
    }
    let right = outcomes.iter().filter(|o| o.right).count();
    let mut seconds: Vec<f64> = outcomes.iter().map(|o| o.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    let median = seconds.get(seconds.len() / 2).copied().unwrap_or_default();
    let total: f64 = seconds.iter().sum();
    let summary = format!(
        "eval: {right}/{} right ({:.0} %), median {median:.1} s per task, slowest {:.1} s, {total:.0} s in all",
        outcomes.len(),
        100.0 * right as f64 / outcomes.len().max(1) as f64,
        seconds.last().copied().unwrap_or_default()
    );
    println!("{summary}");
    if let Some(path) = &options.json {
        jsonl.push_str(
            &json!({"summary": summary, "right": right, "total": outcomes.len(), "median_seconds": median}).to_string(),
        );
        jsonl.push('\n');
        std::fs::write(path, jsonl)?;
    }
    Ok(())
}

fn run_task(
    amplifier: &Path,
    plan: Option<&Path>,
    checkout: &Path,
    models: &Path,
    task: &Task,
    timeout: Duration,
) -> Result<Outcome> {
    let mut command = Command::new(amplifier);
    command.arg("run").args(["--output-format", "json-trace"]);
    if let Some(plan) = plan {
        command.arg("--plan").arg(plan);
    }
    command
        .arg(&task.prompt)
        .current_dir(checkout)
        .env("AMPLIFIER_HOME", checkout.with_extension("home"))
        .env("AMPLIFIER_MODELS", models)
        .env_remove("AMPLIFIER_PLAN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn()?;
    let timed_out = loop {
        if child.try_wait()?.is_some() {
            break false;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            break true;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output()?;
    let seconds = started.elapsed().as_secs_f64();
    let result: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    let answer = result["response"].as_str().unwrap_or_default().to_owned();
    let error = if timed_out {
        Some(format!("timed out after {} s", timeout.as_secs()))
    } else if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Some(format!("{}: {}", output.status, stderr.lines().last().unwrap_or_default()))
    } else {
        None
    };
    let tool_calls = tool_calls(&result);
    let right = error.is_none() && score::is_right(&answer, &task.expect, &task.any);
    Ok(Outcome { right, seconds, answer, tool_calls, error })
}

/// The tools a run called, in order, from its `json-trace` result.
fn tool_calls(result: &Value) -> Vec<String> {
    let calls = result["execution_trace"].as_array().into_iter().flatten();
    calls.map(|call| format!("{}({})", call["tool"].as_str().unwrap_or("?"), call["arguments"])).collect()
}

/// The user's models (`$AMPLIFIER_MODELS`, else `$AMPLIFIER_HOME/models`,
/// else `~/.amplifier/models`), shared by every task.
fn models_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("AMPLIFIER_MODELS").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    match std::env::var_os("AMPLIFIER_HOME").filter(|d| !d.is_empty()) {
        Some(home) => PathBuf::from(home).join("models"),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".amplifier/models"),
    }
}
