//! `amplifier serve` as one of several workers: a thread runs on one worker
//! of a store at a time, its frames can be read from any worker, and
//! SIGTERM drains a worker gracefully.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use common::serve::{exchange, http, parse_sse, start_server_with, Frame, Server};
use common::*;

/// A plan whose run calls `sleep SECS` through tool-bash, then answers.
fn write_sleeping_plan(dir: &Path, secs: u32) {
    let script = format!(
        r#"[{{tool_calls: [{{name: bash, arguments: {{command: "sleep {secs}", timeout: 120}}}}]}}, {{text: "slept"}}]"#
    );
    let bash = format!(
        "  - {{module: tool-bash, source: \"{}\", config: {{working_dir: \"{}\"}}}}",
        plugin("tool-bash"),
        dir.display()
    );
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&scripted(&script), &bash, "  []")).unwrap();
}

fn serve(dir: &Path, store: Option<&str>, args: &[&str]) -> Server {
    let mut command = amplifier(dir);
    command.env("AMPLIFIER_STATE_DIR", dir.join("state"));
    if let Some(store) = store {
        command.env("AMPLIFIER_STORE", store);
    }
    let mut all = vec!["--plan", "plan.yaml"];
    all.extend_from_slice(args);
    start_server_with(command, &all)
}

/// A `POST /v1/runs` whose streamed answer is read as it comes.
struct Run {
    reader: BufReader<TcpStream>,
    text: String,
}

impl Run {
    fn post(addr: &str, body: &str) -> Run {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(90))).unwrap();
        let request = format!(
            "POST /v1/runs HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        Run { reader: BufReader::new(stream), text: String::new() }
    }

    /// A run of [`write_sleeping_plan`]'s plan on `thread`, read until its
    /// tool call: from here on it naps.
    fn napping(addr: &str, thread: &str) -> Run {
        let mut run = Run::post(addr, &format!(r#"{{"mode": "chat", "message": "nap", "threadId": "{thread}"}}"#));
        run.until("event: tool_call");
        run
    }

    /// Reads until `needle` has arrived.
    fn until(&mut self, needle: &str) {
        while !self.text.contains(needle) {
            let mut line = String::new();
            let read = self.reader.read_line(&mut line).unwrap();
            assert!(read > 0, "the stream ended before {needle:?}:\n{}", self.text);
            self.text.push_str(&line);
        }
    }

    /// The whole answer, once the server closed it.
    fn finish(mut self) -> String {
        self.reader.read_to_string(&mut self.text).unwrap();
        self.text
    }
}

/// One request on a kept-alive connection: (status, body). The answer must
/// have a `content-length` (a JSON answer, not a stream).
fn ask(reader: &mut BufReader<TcpStream>, addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    reader.get_mut().write_all(request.as_bytes()).unwrap();
    let (mut status, mut length) = (0, 0);
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(code) = line.strip_prefix("HTTP/1.1 ") {
            status = code[..3].parse().unwrap();
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut answer = vec![0; length];
    reader.read_exact(&mut answer).unwrap();
    (status, String::from_utf8(answer).unwrap())
}

#[test]
fn sigterm_lets_the_running_run_finish_refuses_new_ones_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    write_sleeping_plan(dir.path(), 2);
    let mut server = serve(dir.path(), None, &[]);
    let run = Run::napping(&server.addr, "t1");
    // A client with a connection open from before the signal.
    let mut open = BufReader::new(TcpStream::connect(&server.addr).unwrap());
    assert_eq!(ask(&mut open, &server.addr, "GET", "/v1/runs/none", "").0, 404);
    server.terminate();
    // The listener closes at once: a new client is refused.
    let started = Instant::now();
    while TcpStream::connect(&server.addr).is_ok() {
        assert!(started.elapsed() < Duration::from_secs(10), "the server still accepts connections");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, answer) =
        ask(&mut open, &server.addr, "POST", "/v1/runs", r#"{"mode": "chat", "message": "more", "threadId": "t2"}"#);
    assert_eq!(status, 503, "no new run on a connection opened before: {answer}");
    assert!(answer.contains("shutting down"), "{answer}");
    let text = run.finish();
    assert!(text.contains("event: complete") && text.contains("slept"), "the run finished:\n{text}");
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    let status = server.wait_exit(Duration::from_secs(30));
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_run_still_going_after_the_grace_is_cancelled_and_its_client_told() {
    let dir = tempfile::tempdir().unwrap();
    write_sleeping_plan(dir.path(), 60);
    let mut server = serve(dir.path(), None, &["--shutdown-grace", "1"]);
    let run = Run::napping(&server.addr, "t1");
    let terminated = Instant::now();
    server.terminate();
    let text = run.finish();
    let events: Vec<&str> = text.lines().filter_map(|line| line.strip_prefix("event: ")).collect();
    assert_eq!(events.last(), Some(&"run_error"), "the run ends as a cancelled one:\n{text}");
    assert!(text.contains("this server is shutting down: the run is cancelled"), "the client is told why:\n{text}");
    assert_eq!(server.wait_exit(Duration::from_secs(30)).code(), Some(0));
    assert!(terminated.elapsed() < Duration::from_secs(30), "the 60 s tool was not waited for");
}

/// Two workers on one PostgreSQL store: a thread running on one is refused
/// by the other, and free for both once the run ended.
#[test]
fn a_thread_runs_on_one_worker_of_a_shared_store_at_a_time() {
    let url = amplifier_test_postgres::database();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_sleeping_plan(dir_a.path(), 2);
    write_sleeping_plan(dir_b.path(), 0);
    let worker_a = serve(dir_a.path(), Some(&url), &[]);
    let worker_b = serve(dir_b.path(), Some(&url), &[]);
    let body = r#"{"mode": "chat", "message": "nap", "threadId": "shared-thread"}"#;
    let run = Run::napping(&worker_a.addr, "shared-thread");

    let (status, _, answer) = http(&worker_b.addr, "POST", "/v1/runs", body);
    assert_eq!(status, 409, "{answer}");
    assert!(answer.contains("already has a run in progress on another worker (pid "), "{answer}");
    let (status, _, _) =
        http(&worker_b.addr, "POST", "/v1/runs", r#"{"mode": "chat", "message": "hi", "threadId": "other"}"#);
    assert_eq!(status, 200, "another thread runs on worker B");

    let text = run.finish();
    assert!(text.contains("event: complete"), "{text}");
    let (status, _, answer) = http(&worker_b.addr, "POST", "/v1/runs", body);
    assert_eq!(status, 200, "the thread is free once its run ended: {answer}");
    assert!(answer.contains("event: complete"), "{answer}");
}

/// Ctrl-C always works: a second signal ends the wait for running runs.
#[test]
fn a_second_signal_exits_at_once() {
    let dir = tempfile::tempdir().unwrap();
    write_sleeping_plan(dir.path(), 60);
    let mut server = serve(dir.path(), None, &[]);
    let _run = Run::napping(&server.addr, "t1");
    let terminated = Instant::now();
    server.terminate();
    std::thread::sleep(Duration::from_millis(300));
    server.terminate();
    assert_eq!(server.wait_exit(Duration::from_secs(20)).code(), Some(1));
    assert!(terminated.elapsed() < Duration::from_secs(20), "the 30 s grace was not waited for");
}

/// A GET of a thread's events on `addr`, after frame `after`: (status, frames).
fn follow(addr: &str, thread: &str, after: Option<u64>) -> (u16, Vec<Frame>) {
    let last = after.map_or_else(String::new, |id| format!("Last-Event-ID: {id}\r\n"));
    let request = format!("GET /v1/runs/{thread}/events HTTP/1.1\r\nHost: {addr}\r\n{last}Connection: close\r\n\r\n");
    let (status, _, body) = exchange(addr, &request);
    (status, parse_sse(&body))
}

/// An EventSource's reconnect on `addr`: the run's request again, with
/// `Last-Event-ID`.
fn reconnect(addr: &str, body: &str, after: u64) -> (u16, Vec<Frame>) {
    let request = format!(
        "POST /v1/runs HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nLast-Event-ID: {after}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let (status, _, answer) = exchange(addr, &request);
    (status, parse_sse(&answer))
}

/// Two workers of one store: a run on worker A read whole, while it runs,
/// by a client of worker B, and from the middle by an EventSource that
/// reconnected to B.
fn a_run_on_one_worker_is_read_from_another(store: &str) {
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_sleeping_plan(dir_a.path(), 2);
    write_sleeping_plan(dir_b.path(), 0);
    let worker_a = serve(dir_a.path(), Some(store), &[]);
    let worker_b = serve(dir_b.path(), Some(store), &[]);
    let run = Run::napping(&worker_a.addr, "roaming");
    let body = r#"{"mode": "chat", "message": "nap", "threadId": "roaming"}"#;
    let (follower, resumer) = std::thread::scope(|scope| {
        let follower = scope.spawn(|| follow(&worker_b.addr, "roaming", None));
        let resumer = scope.spawn(|| reconnect(&worker_b.addr, body, 2));
        (follower.join().unwrap(), resumer.join().unwrap())
    });
    let direct = parse_sse(&run.finish());
    assert_eq!(direct.last().map(|f| f.event.as_str()), Some("complete"), "{direct:?}");
    let ids: Vec<u64> = direct.iter().map(|f| f.id.unwrap()).collect();
    assert_eq!(ids, (1..=ids.len() as u64).collect::<Vec<_>>(), "consecutive ids");
    assert_eq!(follower.0, 200);
    assert_eq!(follower.1, direct, "worker B's client read every frame of the run, as sent");
    assert_eq!(resumer.0, 200);
    assert_eq!(resumer.1, direct[2..], "the reconnect read on from frame 3, no gap and no repeat");

    // The run is over: its end is still there for a client that comes back late.
    let (status, late) = reconnect(&worker_b.addr, body, ids.len() as u64 - 1);
    assert_eq!((status, late.as_slice()), (200, &direct[ids.len() - 1..]));
    assert_eq!(reconnect(&worker_b.addr, body, ids.len() as u64).0, 204, "read to the end: EventSource stops");
    assert_eq!(follow(&worker_b.addr, "nowhere", None).0, 404);
}

#[test]
fn a_run_on_one_postgresql_worker_is_read_from_another() {
    a_run_on_one_worker_is_read_from_another(&amplifier_test_postgres::database());
}

#[test]
fn a_run_on_one_sqlite_worker_is_read_from_another() {
    let shared = tempfile::tempdir().unwrap();
    a_run_on_one_worker_is_read_from_another(&format!("sqlite:{}", shared.path().display()));
}

/// A plan whose run answers `text` at once, logging each request its
/// provider gets to `dir/requests.jsonl`.
fn write_answering_plan(dir: &Path, text: &str) {
    let provider = format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    config: {{script: [{{text: \"{text}\"}}], requests_log: \"{}\"}}\n",
        plugin("provider-scripted"),
        dir.join("requests.jsonl").display()
    );
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();
}

/// What a taken-over run's stream must show: the run from its start, once,
/// the worker's replacement, and the end the second worker gave it.
fn assert_taken_over(frames: &[Frame]) {
    let events: Vec<&str> = frames.iter().map(|f| f.event.as_str()).filter(|e| *e != "heartbeat").collect();
    let count = |name: &str| events.iter().filter(|e| **e == name).count();
    assert_eq!((count("start"), count("tool_call"), count("complete")), (1, 1, 1), "{events:?}");
    assert_eq!(events.first(), Some(&"start"));
    assert_eq!(events.last(), Some(&"complete"), "{events:?}");
    let replaced = frames.iter().position(|f| {
        f.event == "warning"
            && f.data["message"].as_str().unwrap_or_default().contains("another worker took the run over")
    });
    let replaced = replaced.unwrap_or_else(|| panic!("no warning that the worker was replaced: {events:?}"));
    assert!(frames[..replaced].iter().any(|f| f.event == "tool_call"), "the first worker's frames come first");
    assert_eq!(frames.last().unwrap().data["data"]["message"], "finished on B");
    let ids: Vec<u64> = frames.iter().map(|f| f.id.unwrap()).collect();
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "ids only grow: {ids:?}");
    let correlation = &frames[0].data["correlationId"];
    assert!(frames.iter().all(|f| f.data["correlationId"] == *correlation), "one run, one correlation id");
}

/// What worker B's model was asked: the run's history as worker A stored
/// it (the prompt once, the tool call, its result repaired as cancelled),
/// not the prompt again.
fn assert_history_went_on(dir: &Path) {
    let log = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let roles: Vec<&str> = first["messages"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles.iter().filter(|r| **r == "user").count(), 1, "the prompt once: {first}");
    let calls = first["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "assistant").count();
    assert_eq!(calls, 1, "worker A's tool call, restored: {first}");
    assert_eq!(roles.last(), Some(&"tool"), "the interrupted call's result, repaired: {first}");
}

/// Reads what a stream sent until its connection ended, however it ended.
fn read_until_broken(run: Run) -> Vec<Frame> {
    let mut reader = run.reader;
    let mut raw = run.text.into_bytes();
    let mut chunk = [0; 4096];
    while let Ok(read) = reader.read(&mut chunk) {
        if read == 0 {
            break;
        }
        raw.extend_from_slice(&chunk[..read]);
    }
    parse_sse(&String::from_utf8_lossy(&raw))
}

/// The failover: worker A is killed mid-run; worker B takes the run over
/// and finishes it from A's stored history. A client that followed on B
/// reads one stream; A's own client reconnects to B and reads the rest.
#[test]
fn a_run_whose_worker_is_killed_is_finished_by_another() {
    let url = amplifier_test_postgres::database();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_sleeping_plan(dir_a.path(), 60);
    write_answering_plan(dir_b.path(), "finished on B");
    let mut worker_a = serve(dir_a.path(), Some(&url), &[]);
    let worker_b = serve(dir_b.path(), Some(&url), &[]);
    let run = Run::napping(&worker_a.addr, "failover");
    let follower = std::thread::spawn({
        let addr = worker_b.addr.clone();
        move || follow(&addr, "failover", None)
    });
    // The tool call is stored within 100 ms of its event.
    std::thread::sleep(Duration::from_millis(500));
    worker_a.kill();
    let direct = read_until_broken(run);
    let last_read = direct.last().unwrap().id.unwrap();
    let body = r#"{"mode": "chat", "message": "nap", "threadId": "failover"}"#;
    let (status, rest) = reconnect(&worker_b.addr, body, last_read);
    let (follower_status, followed) = follower.join().unwrap();
    assert_eq!((status, follower_status), (200, 200));
    assert_taken_over(&followed);
    assert_eq!(direct[..], followed[..direct.len()], "the follower read what A's client read");
    let after: Vec<&Frame> = followed.iter().filter(|f| f.id.unwrap() > last_read).collect();
    assert_eq!(rest.iter().collect::<Vec<_>>(), after, "A's client read on from where it stopped");
    assert_history_went_on(dir_b.path());
}

/// Two processes on one SQLite store keep no served run as a session: a
/// run whose process is killed cannot go on from a stored history, so the
/// other process ends its stream, and does not run its tools again.
#[test]
fn a_run_without_a_stored_history_ends_when_its_worker_dies() {
    let shared = tempfile::tempdir().unwrap();
    let store = format!("sqlite:{}", shared.path().display());
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_sleeping_plan(dir_a.path(), 60);
    write_answering_plan(dir_b.path(), "finished on B");
    let mut worker_a = serve(dir_a.path(), Some(&store), &[]);
    let worker_b = serve(dir_b.path(), Some(&store), &[]);
    let _run = Run::napping(&worker_a.addr, "orphan");
    let follower = std::thread::spawn({
        let addr = worker_b.addr.clone();
        move || follow(&addr, "orphan", None)
    });
    std::thread::sleep(Duration::from_millis(300));
    worker_a.kill();
    let (status, frames) = follower.join().unwrap();
    assert_eq!(status, 200);
    let last = frames.last().unwrap();
    assert_eq!(last.event, "run_error", "{frames:?}");
    assert_eq!(last.data["message"], "the worker running this run stopped; post the request again to run it again");
    assert_eq!(last.data["correlationId"], frames[0].data["correlationId"], "the run's own correlation id");
    assert!(frames.iter().any(|f| f.event == "tool_call"), "it read the run before: {frames:?}");
    assert!(!dir_b.path().join("requests.jsonl").exists(), "B ran nothing of it");
    let (status, _, answer) =
        http(&worker_b.addr, "POST", "/v1/runs", r#"{"mode": "chat", "message": "again", "threadId": "orphan"}"#);
    assert_eq!(status, 200, "the dead worker's thread is free: {answer}");
}

/// SIGTERM on a worker of a PostgreSQL store: what is still running after
/// the grace is handed to another worker, not cancelled.
#[test]
fn a_stopping_worker_hands_its_runs_to_another() {
    let url = amplifier_test_postgres::database();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_sleeping_plan(dir_a.path(), 60);
    write_answering_plan(dir_b.path(), "finished on B");
    let mut worker_a = serve(dir_a.path(), Some(&url), &["--shutdown-grace", "1"]);
    let worker_b = serve(dir_b.path(), Some(&url), &[]);
    let run = Run::napping(&worker_a.addr, "handed");
    std::thread::sleep(Duration::from_millis(300));
    worker_a.terminate();
    let direct = parse_sse(&run.finish());
    let last = direct.last().unwrap();
    assert_eq!(last.event, "warning", "A's client is told, and its stream ends: {direct:?}");
    assert_eq!(last.data["message"], "this server is shutting down: another worker takes the run over");
    assert!(!direct.iter().any(|f| f.event == "run_error"), "not cancelled: {direct:?}");
    assert_eq!(worker_a.wait_exit(Duration::from_secs(30)).code(), Some(0));
    let body = r#"{"mode": "chat", "message": "nap", "threadId": "handed"}"#;
    let (status, rest) = reconnect(&worker_b.addr, body, last.id.unwrap());
    assert_eq!(status, 200);
    let mut whole = direct.clone();
    whole.extend(rest);
    assert_taken_over(&whole);
    assert_history_went_on(dir_b.path());
}
