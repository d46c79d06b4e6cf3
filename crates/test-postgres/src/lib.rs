//! Tests only: a real PostgreSQL server, started once per test process on a
//! temporary directory and a free port, with a fresh database per test.
//!
//! - The server programs come from Debian's `postgresql` package;
//!   `tests/postgres/setup.sh` installs it when they are missing.
//! - PostgreSQL refuses to run as root: as root, the server runs as the
//!   package's `postgres` user (`runuser`).
//! - The server stops, and its directory is removed, when the test process
//!   ends however it ends: a shell beside it waits on a pipe only this
//!   process holds, and stops the server when the pipe closes.
//! - Durability is off (`fsync`, `synchronous_commit`): a test's database
//!   never outlives the test.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The user the server runs as when the tests run as root.
const SERVER_USER: &str = "postgres";
/// The superuser `initdb` creates; trusted on loopback.
const SUPERUSER: &str = "amplifier";

/// A running server.
pub struct Server {
    port: u16,
    /// Where its Unix socket is (`-k`).
    socket_dir: PathBuf,
    /// Closing this stops the server (see the module docs).
    _stop: Mutex<ChildStdin>,
    _watchdog: Mutex<Child>,
}

/// The test process's server, started on first use.
pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start().unwrap_or_else(|err| panic!("cannot start a PostgreSQL server: {err}")))
}

/// A fresh, empty database on the process's server: its URL.
pub fn database() -> String {
    server().create_database()
}

impl Server {
    fn start() -> Result<Server, String> {
        let bin = bin_dir()?;
        let as_root = is_root();
        let dir = tempfile::Builder::new()
            .prefix("amplifier-pg-")
            .tempdir()
            .map_err(|err| format!("temporary directory: {err}"))?
            .keep();
        if as_root {
            run(Command::new("chown").arg(format!("{SERVER_USER}:")).arg(&dir))?;
        }
        // As a system's /var/run/postgresql is: anyone may reach the socket.
        std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .map_err(|err| format!("chmod {}: {err}", dir.display()))?;
        let data = dir.join("data");
        let mut initdb = command(as_root, &bin.join("initdb"));
        initdb.arg("-D").arg(&data).args([
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        ]);
        run(&mut initdb)?;

        let port = free_port()?;
        // `read` returns when this process's end of the pipe closes.
        let script = r#"
            "$1" -D "$2" -p "$3" -k "$4" -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off \
                -c full_page_writes=off -c max_connections=200 -c log_min_messages=fatal >&2 &
            pid=$!
            echo started
            read -r _ || true
            kill -INT "$pid" 2>/dev/null
            wait "$pid"
            rm -rf "$4"
        "#;
        let mut watchdog = command(as_root, Path::new("sh"));
        watchdog
            .args(["-c", script, "sh"])
            .arg(bin.join("postgres"))
            .arg(&data)
            .arg(port.to_string())
            .arg(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = watchdog.spawn().map_err(|err| format!("cannot start postgres: {err}"))?;
        let stop = child.stdin.take().expect("stdin is piped");
        let mut started = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut started)
            .map_err(|err| format!("postgres watchdog: {err}"))?;
        let server = Server { port, socket_dir: dir, _stop: Mutex::new(stop), _watchdog: Mutex::new(child) };
        server.wait_ready()?;
        Ok(server)
    }

    fn url(&self, database: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{database}", self.port)
    }

    fn wait_ready(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match postgres::Client::connect(&self.url("postgres"), postgres::NoTls) {
                Ok(_) => return Ok(()),
                Err(err) if Instant::now() > deadline => return Err(format!("the server did not come up: {err}")),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// A new database; its URL.
    pub fn create_database(&self) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!("t{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let mut client =
            postgres::Client::connect(&self.url("postgres"), postgres::NoTls).expect("connect to the test server");
        client.batch_execute(&format!("CREATE DATABASE {name}")).expect("create a test database");
        self.url(&name)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's Unix socket: trust authentication, as the superuser.
    pub fn socket(&self) -> PathBuf {
        self.socket_dir.join(format!(".s.PGSQL.{}", self.port))
    }
}

/// The directory of `initdb` and `postgres`, installing them when missing.
fn bin_dir() -> Result<PathBuf, String> {
    if let Some(dir) = find_bin_dir() {
        return Ok(dir);
    }
    let setup = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/postgres/setup.sh");
    run(Command::new("bash").arg(&setup))?;
    find_bin_dir().ok_or_else(|| format!("{} ran, but initdb is still missing", setup.display()))
}

fn find_bin_dir() -> Option<PathBuf> {
    // Debian keeps the server programs off PATH: the newest version wins.
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").exists())
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find(|dir| dir.join("initdb").exists() && dir.join("postgres").exists())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// `program`, as the server's user when this process is root.
fn command(as_root: bool, program: &Path) -> Command {
    if as_root {
        let mut command = Command::new("runuser");
        command.args(["-u", SERVER_USER, "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn run(command: &mut Command) -> Result<(), String> {
    let out = command.output().map_err(|err| format!("{command:?}: {err}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "{command:?} failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|err| format!("no free port: {err}"))?;
    listener.local_addr().map(|addr| addr.port()).map_err(|err| err.to_string())
}
