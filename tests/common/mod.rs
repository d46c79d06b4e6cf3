//! Shared helpers for the end-to-end tests: they drive the real `amplifier`
//! binary, which builds and loads the real plugin crates through the loader.

#![allow(dead_code)] // each test crate uses a different subset

pub mod serve;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The workspace root (plugin crates live under it).
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn plugin(name: &str) -> String {
    workspace().join("plugins").join(name).display().to_string()
}

pub fn fixture(name: &str) -> String {
    workspace().join("tests/fixtures").join(name).display().to_string()
}

/// One AMPLIFIER_HOME for every test, so each plugin is built once per run.
pub fn amplifier_home() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("amplifier-home")
}

/// `amplifier` with a shared build cache, run in `cwd`.
pub fn amplifier(cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_amplifier"));
    command
        .current_dir(cwd)
        .env("AMPLIFIER_HOME", amplifier_home())
        // Debug plugins reuse the dependencies `cargo test` compiled already.
        .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
        .env_remove("AMPLIFIER_LOG")
        .env_remove("AMPLIFIER_MODULES")
        .env_remove("AMPLIFIER_MODELS");
    command
}

/// `amplifier` copied alone into `dir/bin` and run in `dir` as someone who
/// installed the binary would run it: a fresh `AMPLIFIER_HOME` (`dir/home`),
/// nothing but `dir/bin` on `PATH` (no cargo, compiler or Python), no
/// `CARGO` and no amplifier settings from the environment.
pub fn copied_binary(dir: &Path) -> Command {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let amplifier = bin.join("amplifier");
    if !amplifier.exists() {
        std::fs::copy(env!("CARGO_BIN_EXE_amplifier"), &amplifier).unwrap();
    }
    let mut command = Command::new(amplifier);
    command
        .current_dir(dir)
        .env("AMPLIFIER_HOME", dir.join("home"))
        .env("PATH", &bin)
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .env_remove("AMPLIFIER_LOG")
        .env_remove("AMPLIFIER_PLAN")
        .env_remove("AMPLIFIER_MODULES")
        .env_remove("AMPLIFIER_MODELS");
    command
}

/// The pinned file of npm `package` (`tests/npm/pins`), installed by
/// `tests/npm/install.sh` when missing. Needs node and npm.
pub fn npm_package(package: &str) -> PathBuf {
    let script = workspace().join("tests/npm/install.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg(package)
        .output()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", script.display()));
    assert!(output.status.success(), "{} failed (needs node and npm):\n{}", script.display(), stderr(&output));
    let entry = PathBuf::from(stdout(&output).trim());
    assert!(entry.is_file(), "the install script printed {}, which is not a file", entry.display());
    entry
}

/// The python of `target/pyvenv`, with `tests/python/requirements.txt`
/// installed by `tests/python/setup.sh` when missing. Needs python3 and PyPI.
pub fn python() -> PathBuf {
    let script = workspace().join("tests/python/setup.sh");
    let output = Command::new("bash")
        .arg(&script)
        .env("AMPLIFIER_PYVENV", workspace().join("target/pyvenv"))
        .output()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", script.display()));
    assert!(output.status.success(), "{} failed (needs python3 and PyPI):\n{}", script.display(), stderr(&output));
    workspace().join("target/pyvenv/bin/python")
}

/// An OTLP/HTTP collector on a free port that answers every request and
/// hands over each one's head and body: its endpoint and the receiver.
pub fn otlp_collector() -> (String, std::sync::mpsc::Receiver<(String, Vec<u8>)>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let (sender, bodies) = std::sync::mpsc::channel::<(String, Vec<u8>)>();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut request = Vec::new();
            let mut buffer = [0u8; 8192];
            // Headers, then as many body bytes as Content-Length says.
            let (head, length) = loop {
                let n = stream.read(&mut buffer).unwrap_or(0);
                if n == 0 {
                    break (String::new(), 0);
                }
                request.extend_from_slice(&buffer[..n]);
                if let Some(end) = request.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&request[..end]).into_owned();
                    let length = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    request.drain(..end + 4);
                    break (head, length);
                }
            };
            while request.len() < length {
                let n = stream.read(&mut buffer).unwrap_or(0);
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buffer[..n]);
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n");
            let _ = sender.send((head, request));
        }
    });
    (endpoint, bodies)
}

/// `amplifier ARGS` in a pseudo-terminal (util-linux `script`) in `dir`,
/// `answers` typed into it; what the terminal showed.
pub fn in_terminal(dir: &Path, args: &str, answers: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    // `exec`: no shell in between to take the terminal's signals.
    let command = format!("exec {} {args}", env!("CARGO_BIN_EXE_amplifier"));
    let mut script = Command::new("script")
        .args(["--quiet", "--return", "--command", &command, "/dev/null"])
        .current_dir(dir)
        .env("AMPLIFIER_HOME", amplifier_home())
        .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
        .env_remove("AMPLIFIER_PLAN")
        .env_remove("AMPLIFIER_STORE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script`");
    // A command that exits before reading closes the pipe: not a failure.
    let _ = script.stdin.take().unwrap().write_all(answers.as_bytes());
    let output = script.wait_with_output().unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The JSON lines of a `--output-format jsonl` run.
pub fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|err| panic!("not JSON: {line}: {err}")))
        .collect()
}

/// The event names of a jsonl run, in order.
pub fn event_names(lines: &[Value]) -> Vec<String> {
    lines.iter().map(|line| line["event"].as_str().unwrap_or_default().to_owned()).collect()
}

/// A plan with the standard loop, context and echo tool around `providers`,
/// `extra_tools` and `hooks` YAML fragments (each a list body, may be empty).
pub fn plan_yaml(providers: &str, extra_tools: &str, hooks: &str) -> String {
    format!(
        r#"session:
  orchestrator: {{module: loop-basic, source: "{loop_basic}"}}
  context: {{module: context-simple, source: "{context}"}}
providers:
{providers}
tools:
  - {{module: tool-echo, source: "{echo}"}}
{extra_tools}
hooks:
{hooks}
"#,
        loop_basic = plugin("loop-basic"),
        context = plugin("context-simple"),
        echo = plugin("tool-echo"),
    )
}

/// A scripted provider entry whose script is the given YAML list (one line).
pub fn scripted(script: &str) -> String {
    format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    config: {{script: {script}}}\n",
        plugin("provider-scripted")
    )
}

/// Writes `plan` to `dir/plan.yaml` and runs it with `--output-format jsonl` and the prompt "go".
pub fn run_plan(dir: &Path, plan: &str) -> Output {
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
    amplifier(dir).args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]).output().unwrap()
}

/// The `tool:post` or `tool:error` event of the call with this id.
pub fn tool_event<'a>(lines: &'a [Value], call_id: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| (l["event"] == "tool:post" || l["event"] == "tool:error") && l["data"]["tool_call_id"] == call_id)
        .unwrap_or_else(|| panic!("no tool:post or tool:error for {call_id}"))
}
