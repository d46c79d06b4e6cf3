//! `serve` (opt-in: it starts PostgreSQL): many sessions at once against
//! `amplifier serve`, on one worker over SQLite and on two workers sharing
//! one PostgreSQL database (a real server, `amplifier-test-postgres`).
//!
//! Each session is a thread of [`TURNS`] runs posted one after another
//! (the scripted plan: a tool call, then an answer), [`SESSIONS`] sessions
//! at once, spread over the workers. Reports runs a second, the time to the
//! first frame (`start`) and to the last (`complete`) of each run at the
//! 50th and 99th percentile, the runs that failed, and each worker's peak
//! RSS (`VmHWM`).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Mutex;

use super::{human, nanos, Bench, Report, Result};

const SESSIONS: usize = 1000;
const TURNS: usize = 5;

const PLAN: &str = r#"session:
  orchestrator: {module: loop-basic}
  context: {module: context-simple}
providers:
  - module: provider-scripted
    config:
      script:
        - tool_calls: [{name: echo, arguments: {text: "hello"}}]
        - text: "done"
tools:
  - module: tool-echo
"#;

/// What one setup measured.
struct Figures {
    wall: Duration,
    first_frame: Vec<Duration>,
    complete: Vec<Duration>,
    errors: usize,
    first_error: Option<String>,
    peak_rss_kib: Vec<u64>,
}

impl Bench {
    pub(super) fn serve(&self) -> Result<Report> {
        let scratch = tempfile::tempdir()?;
        let plan = scratch.path().join("plan.yaml");
        std::fs::write(&plan, PLAN)?;
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
        eprintln!("bench: serve, 1 worker on SQLite");
        let sqlite = self.serve_setup(&runtime, &plan, scratch.path(), None, 1)?;
        eprintln!("bench: serve, 2 workers on one PostgreSQL");
        let url = amplifier_test_postgres::database();
        let postgres = self.serve_setup(&runtime, &plan, scratch.path(), Some(&url), 2)?;
        let line = |name: &str, f: &Figures| {
            format!(
                "{name}: {:.0} runs/s, first frame p50 {} p99 {}, complete p50 {} p99 {}, {} failed, peak RSS {} per worker",
                (SESSIONS * TURNS) as f64 / f.wall.as_secs_f64(),
                human(percentile(&f.first_frame, 50)),
                human(percentile(&f.first_frame, 99)),
                human(percentile(&f.complete, 50)),
                human(percentile(&f.complete, 99)),
                f.errors,
                f.peak_rss_kib.iter().map(|kib| format!("{:.1} MiB", *kib as f64 / 1024.0)).collect::<Vec<_>>().join(" / "),
            ) + &f.first_error.as_ref().map(|e| format!(" (first failure: {e})")).unwrap_or_default()
        };
        let figures = |f: &Figures| {
            json!({
                "runs_per_s": (SESSIONS * TURNS) as f64 / f.wall.as_secs_f64(),
                "first_frame_p50_ns": nanos(percentile(&f.first_frame, 50)),
                "first_frame_p99_ns": nanos(percentile(&f.first_frame, 99)),
                "complete_p50_ns": nanos(percentile(&f.complete, 50)),
                "complete_p99_ns": nanos(percentile(&f.complete, 99)),
                "errors": f.errors,
                "peak_rss_kib": f.peak_rss_kib,
            })
        };
        Ok(Report {
            text: format!(
                "serve: {SESSIONS} sessions at once, {TURNS} runs each (scripted, one tool call per run); {}; {}",
                line("1 worker, SQLite", &sqlite),
                line("2 workers, one PostgreSQL", &postgres)
            ),
            json: json!({
                "workload": "serve",
                "sessions": SESSIONS,
                "turns": TURNS,
                "sqlite_1_worker": figures(&sqlite),
                "postgres_2_workers": figures(&postgres),
            }),
        })
    }

    fn serve_setup(
        &self,
        runtime: &tokio::runtime::Runtime,
        plan: &Path,
        scratch: &Path,
        store: Option<&str>,
        workers: usize,
    ) -> Result<Figures> {
        let mut children = Vec::new();
        let mut addrs = Vec::new();
        for i in 0..workers {
            let (child, addr) =
                self.start_worker(plan, &scratch.join(format!("state-{}-{i}", store.is_some())), store)?;
            children.push(child);
            addrs.push(addr);
        }
        let outcome = runtime.block_on(load(Arc::new(addrs)));
        let peak_rss_kib = children.iter().map(|child| peak_rss_kib(child.id())).collect();
        for mut child in children {
            // A graceful stop: nothing runs any more.
            let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
            let _ = child.wait();
        }
        let (wall, first_frame, complete, errors, first_error) = outcome;
        Ok(Figures { wall, first_frame, complete, errors, first_error, peak_rss_kib })
    }

    fn start_worker(&self, plan: &Path, state: &Path, store: Option<&str>) -> Result<(Child, String)> {
        let mut command = Command::new(&self.amplifier);
        command
            .args(["serve", "--plan"])
            .arg(plan)
            .args(["--addr", "127.0.0.1:0", "--max-runs", &SESSIONS.to_string(), "--rate-limit", "100000000"])
            .env("AMPLIFIER_HOME", &self.home)
            .env("AMPLIFIER_STATE_DIR", state)
            .env_remove("AMPLIFIER_STORE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(store) = store {
            command.env("AMPLIFIER_STORE", store);
        }
        let mut child = command.spawn()?;
        let mut line = String::new();
        BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line)?;
        let addr = line.trim().strip_prefix("listening on http://").ok_or_else(|| format!("serve said {line:?}"))?;
        Ok((child, addr.to_owned()))
    }
}

type Outcome = (Duration, Vec<Duration>, Vec<Duration>, usize, Option<String>);

/// Every session at once; each posts its runs one after another.
async fn load(addrs: Arc<Vec<String>>) -> Outcome {
    let results = Arc::new(Mutex::new((Vec::new(), Vec::new(), 0usize, None::<String>)));
    let started = Instant::now();
    let tasks: Vec<_> = (0..SESSIONS)
        .map(|session| {
            let (addrs, results) = (addrs.clone(), results.clone());
            tokio::spawn(async move {
                let addr = &addrs[session % addrs.len()];
                for turn in 0..TURNS {
                    let body = json!({"mode": "chat", "message": format!("turn {turn}"), "threadId": format!("bench-{session}")});
                    let outcome = one_run(addr, &body.to_string()).await;
                    let mut results = results.lock().await;
                    match outcome {
                        Ok((first, complete)) => {
                            results.0.push(first);
                            results.1.push(complete);
                        }
                        Err(err) => {
                            results.2 += 1;
                            results.3.get_or_insert(err);
                        }
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        let _ = task.await;
    }
    let wall = started.elapsed();
    let (first, complete, errors, first_error) = Arc::try_unwrap(results).expect("every task ended").into_inner();
    (wall, first, complete, errors, first_error)
}

/// One `POST /v1/runs`: the time to its first frame and to `complete`.
async fn one_run(addr: &str, body: &str) -> std::result::Result<(Duration, Duration), String> {
    let started = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(addr).await.map_err(|err| format!("connect: {err}"))?;
    let request = format!(
        "POST /v1/runs HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.map_err(|err| format!("send: {err}"))?;
    let (mut text, mut buffer, mut first) = (Vec::new(), [0u8; 4096], None);
    loop {
        let read = stream.read(&mut buffer).await.map_err(|err| format!("read: {err}"))?;
        if read == 0 {
            break;
        }
        text.extend_from_slice(&buffer[..read]);
        if first.is_none() && contains(&text, b"event: start") {
            first = Some(started.elapsed());
        }
    }
    let complete = started.elapsed();
    let text = String::from_utf8_lossy(&text);
    if !text.starts_with("HTTP/1.1 200") {
        return Err(text.lines().next().unwrap_or_default().to_owned() + " " + text.lines().last().unwrap_or_default());
    }
    if !text.contains("event: complete") {
        return Err("the stream ended without `complete`".to_owned());
    }
    Ok((first.unwrap_or(complete), complete))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// The p-th percentile (nearest rank).
fn percentile(samples: &[Duration], p: usize) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    match sorted.len() {
        0 => Duration::ZERO,
        n => sorted[((n * p).div_ceil(100)).clamp(1, n) - 1],
    }
}

/// A live process's peak resident set (`VmHWM`), in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:").and_then(|v| v.trim().split(' ').next()?.parse().ok()))
        })
        .unwrap_or(0)
}
