//! `local-llm`: provider-local against the same model served by llama.cpp's
//! own server (xllamacpp, from `tests/llm/setup.sh`): same GGUF, same
//! prompt, greedy, the same number of threads, one run each after a
//! warm-up. Reports decode speed (tokens after the first, per second of
//! streaming) and time to first token (from the request to the first text,
//! the prompt evaluated in full on both sides).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{Bench, Result};

const MODEL: &str = "qwen2.5-coder-0.5b";
const MODEL_FILE: &str = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf";
const PROMPT: &str = "Write a short poem about the sea.";
const MAX_TOKENS: u64 = 128;
const THREADS: u64 = 2;

/// One streamed generation, timed.
struct Timing {
    first_token: Duration,
    streaming: Duration,
    output_tokens: u64,
}

impl Timing {
    fn decode_rate(&self) -> f64 {
        self.output_tokens.saturating_sub(1) as f64 / self.streaming.as_secs_f64().max(1e-9)
    }
}

impl Bench {
    pub(super) fn local_llm(&self) -> Result<String> {
        let pull =
            Command::new(&self.amplifier).args(["model", "pull", MODEL]).env("AMPLIFIER_HOME", &self.home).status()?;
        if !pull.success() {
            return Err(format!("`amplifier model pull {MODEL}` failed").into());
        }
        let model = self.home.join("models").join(MODEL_FILE);
        let scratch = tempfile::tempdir()?;
        let plan = scratch.path().join("local.json");
        std::fs::write(&plan, self.local_plan().to_string())?;
        eprintln!("bench: local-llm warm-up (the first run builds provider-local with llama.cpp: minutes)");
        self.time_local(&plan)?;
        let local = self.time_local(&plan)?;

        let setup = Command::new("bash").arg("tests/llm/setup.sh").current_dir(&self.root).status()?;
        if !setup.success() {
            return Err("tests/llm/setup.sh failed (it needs python3 and PyPI)".into());
        }
        let mut server = Server::start(&self.root, &model)?;
        time_server(&server.url)?;
        let served = time_server(&server.url);
        server.stop();
        let served = served?;

        Ok(format!(
            "local-llm {MODEL}, {THREADS} threads, {MAX_TOKENS} tokens max: provider-local {:.1} tok/s \
             (first token {}, {} tokens), llama.cpp server {:.1} tok/s (first token {}, {} tokens): ratio {:.2}",
            local.decode_rate(),
            super::human(local.first_token),
            local.output_tokens,
            served.decode_rate(),
            super::human(served.first_token),
            served.output_tokens,
            local.decode_rate() / served.decode_rate().max(1e-9),
        ))
    }

    fn local_plan(&self) -> Value {
        let source = |path: &str| self.root.join(path).display().to_string();
        json!({
            "session": {
                "orchestrator": {"module": "loop-basic", "source": source("plugins/loop-basic")},
                "context": {"module": "context-simple", "source": source("plugins/context-simple")},
            },
            "providers": [{
                "module": "provider-local",
                "source": source("plugins/provider-local"),
                "config": {"model": MODEL, "max_tokens": MAX_TOKENS, "n_threads": THREADS},
            }],
        })
    }

    /// One `amplifier run --output-format jsonl`, timed from its events as
    /// they arrive: `llm:request` → first text `content_block:delta` →
    /// `llm:response`.
    fn time_local(&self, plan: &Path) -> Result<Timing> {
        let mut child = Command::new(&self.amplifier)
            .args(["run", "--output-format", "jsonl", "--plan"])
            .arg(plan)
            .arg(PROMPT)
            .env("AMPLIFIER_HOME", &self.home)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()?;
        let lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
        let (mut requested, mut first, mut done, mut output_tokens) = (None, None, None, 0);
        for line in lines {
            let line: Value = serde_json::from_str(&line?)?;
            let now = Instant::now();
            match line["event"].as_str().unwrap_or_default() {
                "llm:request" => requested = Some(now),
                "content_block:delta" if first.is_none() && line["data"]["block_type"] == "text" => first = Some(now),
                "llm:response" => {
                    done = Some(now);
                    output_tokens = line["data"]["usage"]["output_tokens"].as_u64().unwrap_or(0);
                }
                _ => {}
            }
        }
        if !child.wait()?.success() {
            return Err("`amplifier run` on the local plan failed".into());
        }
        match (requested, first, done) {
            (Some(requested), Some(first), Some(done)) => {
                Ok(Timing { first_token: first - requested, streaming: done - first, output_tokens })
            }
            _ => Err("the local run streamed no text".into()),
        }
    }
}

/// `tests/llm/serve_xll.py` on a free port.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(root: &Path, model: &Path) -> Result<Server> {
        let mut child = Command::new(root.join("target/llm/venv/bin/python"))
            .arg(root.join("tests/llm/serve_xll.py"))
            .arg("--model")
            .arg(model)
            .args(["--port", "0", "--alias", "bench", "--threads", &THREADS.to_string(), "--exit-on-eof"])
            .env("OMP_WAIT_POLICY", "passive")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        for line in BufReader::new(stdout).lines() {
            if let Some(url) = line?.strip_prefix("READY ") {
                return Ok(Server { child, url: url.trim().to_owned() });
            }
        }
        let _ = child.kill();
        Err("the llama.cpp server exited before it was ready".into())
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One streamed chat completion with curl, timed as its SSE lines arrive.
fn time_server(url: &str) -> Result<Timing> {
    let body = json!({
        "model": "bench",
        "messages": [{"role": "system", "content": "You are a helpful assistant."}, {"role": "user", "content": PROMPT}],
        "max_tokens": MAX_TOKENS,
        "temperature": 0,
        "stream": true,
        "stream_options": {"include_usage": true},
        // Each provider-local run is a new process with an empty cache: make
        // the server evaluate the prompt too, for a like-for-like first token.
        "cache_prompt": false,
    });
    let started = Instant::now();
    let mut curl = Command::new("curl")
        .args(["-sN", "-H", "content-type: application/json", "-d"])
        .arg(body.to_string())
        .arg(format!("{}/v1/chat/completions", url.trim_end_matches('/')))
        .stdout(Stdio::piped())
        .spawn()?;
    let lines = BufReader::new(curl.stdout.take().ok_or("no stdout")?).lines();
    let (mut first, mut done, mut output_tokens) = (None, None, 0);
    for line in lines {
        let line = line?;
        let Some(data) = line.strip_prefix("data: ") else { continue };
        let now = Instant::now();
        if data.trim() == "[DONE]" {
            break;
        }
        let chunk: Value = serde_json::from_str(data)?;
        let text = chunk["choices"][0]["delta"]["content"].as_str().unwrap_or_default();
        if first.is_none() && !text.is_empty() {
            first = Some(now);
        }
        if chunk["choices"][0]["finish_reason"].is_string() {
            done = Some(now);
        }
        if let Some(tokens) = chunk["usage"]["completion_tokens"].as_u64() {
            output_tokens = tokens;
        }
    }
    curl.wait()?;
    match (first, done) {
        (Some(first), Some(done)) => {
            Ok(Timing { first_token: first - started, streaming: done - first, output_tokens })
        }
        _ => Err("the llama.cpp server streamed no text".into()),
    }
}
