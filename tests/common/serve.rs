//! A client of `amplifier serve`: the server on a free port, one HTTP/1.1
//! exchange over a plain socket, and the SSE frames of a response body.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

/// One SSE frame as a client sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub event: String,
    pub id: Option<u64>,
    pub data: Value,
}

pub fn parse_sse(text: &str) -> Vec<Frame> {
    let mut frames = Vec::new();
    for block in text.split("\n\n") {
        let (mut event, mut id, mut data) = (None, None, None);
        for line in block.lines() {
            if let Some(value) = line.strip_prefix("event: ") {
                event = Some(value.to_owned());
            } else if let Some(value) = line.strip_prefix("id: ") {
                id = value.parse().ok();
            } else if let Some(value) = line.strip_prefix("data: ") {
                data = Some(serde_json::from_str(value).unwrap_or_else(|e| panic!("data is not JSON: {value}: {e}")));
            }
        }
        if let (Some(event), Some(data)) = (event, data) {
            frames.push(Frame { event, id, data });
        }
    }
    frames
}

pub struct Server {
    child: std::process::Child,
    pub addr: String,
}

impl Server {
    /// Sends the server SIGTERM.
    pub fn terminate(&self) {
        let status = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success());
    }

    /// Kills the server (SIGKILL): it gets no chance to tidy up.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Waits for the server to exit, at most `timeout`.
    pub fn wait_exit(&mut self, timeout: std::time::Duration) -> std::process::ExitStatus {
        let started = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(started.elapsed() < timeout, "the server did not exit within {timeout:?}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `amplifier serve` of `plan.yaml` on a free port (`amplifier`: the
/// command with its directory and environment).
pub fn start_server(amplifier: Command) -> Server {
    start_server_with(amplifier, &["--plan", "plan.yaml"])
}

/// `amplifier serve` with `args` on a free port.
pub fn start_server_with(mut amplifier: Command, args: &[&str]) -> Server {
    let mut child = amplifier
        .arg("serve")
        .args(args)
        .args(["--addr", "127.0.0.1:0", "--heartbeat", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").unwrap_or_else(|| panic!("{line:?}")).to_owned();
    Server { child, addr }
}

/// One HTTP/1.1 exchange over a plain TcpStream: (status, headers, body),
/// with a chunked body decoded.
pub fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    exchange(addr, &request)
}

/// Sends `request` as it is (it should ask for `Connection: close`) and
/// reads the response: (status, headers, body).
pub fn exchange(addr: &str, request: &str) -> (u16, String, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(120))).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8(raw).unwrap();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = if head.to_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_owned() };
    (status, head.to_owned(), body)
}

fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").unwrap();
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            return body;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
}
