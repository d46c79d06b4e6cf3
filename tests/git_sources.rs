//! Git module sources end to end: real repositories made here (with the
//! `git` command), cloned into the git cache, built, locked in
//! `amplifier.lock`, refused with `--locked`, moved with `amplifier update`,
//! served from the cache with `--offline`, and fetched from `git daemon`.

mod common;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use amplifier_loader::git::{canonical_url, ident, OK_MARKER};
use common::*;

/// Where the module crate sits in the test repositories.
const SUBDIR: &str = "modules/tool-echo";
/// The copy of tool-echo gets its own package name: its cdylib must not
/// overwrite the workspace's `libtool_echo.so` in the shared target dir.
const PACKAGE: &str = "git-tool-echo";

/// The tests that build share one crate name and the build cache; one at a time.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// `amplifier` building in the workspace's target dir, so the cloned crate
/// reuses the dependencies the test build already compiled.
fn amp(cwd: &Path) -> Command {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target dir").to_owned();
    let mut command = amplifier(cwd);
    command.env("CARGO_TARGET_DIR", target).env_remove("AMPLIFIER_GIT_FETCH_WITH_CLI");
    command
}

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .output()
        .expect("git is installed");
    assert!(output.status.success(), "git {args:?} failed:\n{}", stderr(&output));
    stdout(&output).trim().to_owned()
}

/// A repository (branch `main`, tag `v1`) whose `modules/tool-echo` is a
/// copy of plugins/tool-echo as a stand-alone crate. Returns the commit id.
fn make_repo(repo: &Path) -> String {
    let krate = repo.join(SUBDIR);
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let plugin = workspace().join("plugins/tool-echo");
    std::fs::copy(plugin.join("src/lib.rs"), krate.join("src/lib.rs")).unwrap();
    std::fs::copy(plugin.join("amplifier.toml"), krate.join("amplifier.toml")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{PACKAGE}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\namplifier-sdk = {{ path = \"{}\" }}\n\n[workspace]\n",
        workspace().join("crates/sdk").display()
    );
    std::fs::write(krate.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock (so the same dependency versions are reused),
    // trimmed by cargo now so that building the checkout leaves it as committed.
    std::fs::copy(workspace().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let _ = Command::new(cargo)
        .args(["metadata", "--offline", "--format-version", "1", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    std::fs::write(repo.join("README.md"), "modules for the git source tests\n").unwrap();
    git(repo, &["init", "-q", "-b", "main"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "tool-echo"]);
    git(repo, &["tag", "v1"]);
    git(repo, &["rev-parse", "HEAD"])
}

/// Commits a change that leaves the crate as it is (so nothing is rebuilt).
fn move_main(repo: &Path, text: &str) -> String {
    std::fs::write(repo.join("README.md"), text).unwrap();
    git(repo, &["commit", "-q", "-am", text]);
    git(repo, &["rev-parse", "HEAD"])
}

/// A plan with the standard modules, `source` for tool-echo, and a script
/// that calls `echo` once.
fn write_plan(dir: &Path, source: &str) -> PathBuf {
    let script = scripted(r#"[{tool_calls: [{name: echo, arguments: {text: "echo from git"}}]}, {text: "done"}]"#);
    let plan = plan_yaml(&script, "", "  []").replace(&plugin("tool-echo"), source);
    let path = dir.join("plan.yaml");
    std::fs::write(&path, plan).unwrap();
    path
}

fn run(dir: &Path, extra: &[&str]) -> Output {
    amp(dir).args(["run", "--plan", "plan.yaml"]).args(extra).arg("go").output().unwrap()
}

fn assert_ran(output: &Output) {
    assert!(output.status.success(), "the run failed:\n{}", stderr(output));
    assert_eq!(stdout(output).trim(), "done");
}

fn lock(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("amplifier.lock")).expect("amplifier.lock was written")
}

/// `checkouts/<ident>/<short commit>` for a source URL.
fn checkout_dir(url: &str, commit: &str) -> PathBuf {
    amplifier_home().join("cache/git/checkouts").join(ident(&canonical_url(url))).join(&commit[..7])
}

#[test]
fn a_git_source_is_cloned_built_locked_then_served_offline_from_the_cache() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let commit = make_repo(&repo);
    let url = format!("file://{}", repo.display());
    let source = format!("git+{url}@v1#subdirectory={SUBDIR}");
    write_plan(dir.path(), &source);

    assert_ran(&run(dir.path(), &[]));
    let lock = lock(dir.path());
    assert!(lock.contains(&format!("source = \"{source}\"")), "{lock}");
    assert!(lock.contains(&format!("commit = \"{commit}\"")), "{lock}");
    assert!(lock.contains("kind = \"tool\"") && lock.contains("abi = 1") && lock.contains("protocol = 1"), "{lock}");
    let checkout = checkout_dir(&url, &commit);
    assert_eq!(std::fs::read_to_string(checkout.join(OK_MARKER)).unwrap(), commit);
    let db = amplifier_home().join("cache/git/db").join(ident(&canonical_url(&url)));
    assert!(db.join("HEAD").is_file() && !db.join("modules").exists(), "a bare db per remote");

    // The remote is gone: --offline runs from the cache, without building.
    std::fs::rename(&repo, dir.path().join("elsewhere")).unwrap();
    let offline = run(dir.path(), &["--offline"]);
    assert_ran(&offline);
    assert!(!stderr(&offline).contains("Building"), "a cache hit:\n{}", stderr(&offline));
    assert_ran(&run(dir.path(), &["--offline", "--locked"]));

    // Online, the unreachable remote is named with the reason.
    let online = run(dir.path(), &[]);
    assert_eq!(online.status.code(), Some(1));
    let err = stderr(&online);
    assert!(err.contains(&format!("cannot fetch from the git remote {url}")), "{err}");
    assert!(err.contains("No such file or directory") || err.contains("failed to resolve path"), "{err}");
}

#[test]
fn a_moved_branch_is_refused_when_locked_until_amplifier_update_moves_the_lock() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let first = make_repo(&repo);
    write_plan(dir.path(), &format!("git+file://{}@main#subdirectory={SUBDIR}", repo.display()));
    assert_ran(&run(dir.path(), &[]));
    assert!(lock(dir.path()).contains(&first));

    let second = move_main(&repo, "second");
    let refused = run(dir.path(), &["--locked"]);
    assert_eq!(refused.status.code(), Some(1), "stderr:\n{}", stderr(&refused));
    let err = stderr(&refused);
    assert!(err.contains("tool 'tool-echo' (tools[0])"), "names the module: {err}");
    assert!(err.contains(&format!("resolves to commit {second}")), "the new commit: {err}");
    assert!(err.contains(&format!("amplifier.lock has commit {first}")), "the locked commit: {err}");
    assert!(err.contains("amplifier update --plan plan.yaml"), "the fix: {err}");
    assert!(stdout(&refused).trim().is_empty(), "the prompt did not run");
    assert!(lock(dir.path()).contains(&first), "--locked never writes the lock");

    let update = amp(dir.path()).args(["update", "--plan", "plan.yaml", "tool-echo"]).output().unwrap();
    assert!(update.status.success(), "stderr:\n{}", stderr(&update));
    let out = stdout(&update);
    assert!(out.contains(&format!("Updating tool tool-echo (tools[0]): commit {}", &first[..7])), "{out}");
    assert!(out.contains(&format!("→ commit {}", &second[..7])), "{out}");
    assert!(lock(dir.path()).contains(&second) && !lock(dir.path()).contains(&first));
    assert_ran(&run(dir.path(), &["--locked"]));

    // Without --locked a run follows the branch and records where it went.
    let third = move_main(&repo, "third");
    assert_ran(&run(dir.path(), &[]));
    assert!(lock(dir.path()).contains(&third));
}

#[test]
fn an_interrupted_checkout_is_redone() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let commit = make_repo(&repo);
    let url = format!("file://{}", repo.display());
    write_plan(dir.path(), &format!("git+{url}@v1#subdirectory={SUBDIR}"));
    assert_ran(&run(dir.path(), &[]));
    let checkout = checkout_dir(&url, &commit);

    // The marker is gone (the checkout was cut short): it is made again.
    std::fs::remove_file(checkout.join(OK_MARKER)).unwrap();
    std::fs::write(checkout.join("half-written"), "").unwrap();
    assert_ran(&run(dir.path(), &[]));
    assert_eq!(std::fs::read_to_string(checkout.join(OK_MARKER)).unwrap(), commit);
    assert!(!checkout.join("half-written").exists(), "the partial checkout was deleted");

    // A partial directory with no marker at all.
    std::fs::remove_dir_all(&checkout).unwrap();
    std::fs::create_dir_all(checkout.join(SUBDIR)).unwrap();
    assert_ran(&run(dir.path(), &[]));
    assert!(checkout.join(SUBDIR).join("src/lib.rs").is_file() && checkout.join(OK_MARKER).is_file());
}

#[test]
fn a_missing_subdirectory_and_an_unknown_ref_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let commit = make_repo(&repo);

    write_plan(dir.path(), &format!("git+file://{}@v1#subdirectory=modules/nope", repo.display()));
    let output = run(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.contains(&format!(
            "subdirectory 'modules/nope' does not exist in the repository at commit {}",
            &commit[..7]
        )),
        "{err}"
    );

    write_plan(dir.path(), &format!("git+file://{}@nope#subdirectory={SUBDIR}", repo.display()));
    let output = run(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("unknown ref 'nope'"), "{err}");
    assert!(err.contains("(branches: main; tags: v1)"), "lists what there is: {err}");

    // Offline, a ref never fetched is reported as missing from the cache.
    write_plan(dir.path(), &format!("git+file://{}@v2#subdirectory={SUBDIR}", repo.display()));
    let output = run(dir.path(), &["--offline"]);
    let err = stderr(&output);
    assert!(
        err.contains(&format!(
            "git source file://{} at ref v2 is not in the cache and --offline is set",
            repo.display()
        )),
        "{err}"
    );
}

#[test]
fn a_prebuilt_artifact_is_used_only_when_its_sha256_matches() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    write_plan(dir.path(), &format!("git+file://{}@v1#subdirectory={SUBDIR}", repo.display()));
    assert_ran(&run(dir.path(), &[]));
    // The library just built, shipped prebuilt in another repository.
    let library_name = format!("lib{}.so", PACKAGE.replace('-', "_"));
    let built = std::fs::read_dir(amplifier_home().join("cache/plugins"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join(&library_name))
        .find(|p| p.is_file())
        .expect("the built library is in the cache");
    let prebuilt = dir.path().join("prebuilt");
    let module = prebuilt.join("tool-echo");
    std::fs::create_dir_all(&module).unwrap();
    std::fs::copy(&built, module.join(&library_name)).unwrap();
    let actual = amplifier_loader::lockfile::sha256_file(&built).unwrap();
    let manifest = |sha: &str| {
        format!(
            "[module]\nname = \"tool-echo\"\nkinds = [\"tool\"]\nversion = \"0.1.0\"\nabi = 1\n\
             [artifacts.{}]\nlibrary = \"{library_name}\"\nsha256 = \"{sha}\"\nabi = 1\n",
            amplifier_loader::manifest::HOST_TARGET
        )
    };
    std::fs::write(module.join("amplifier.toml"), manifest(&actual)).unwrap();
    git(&prebuilt, &["init", "-q", "-b", "main"]);
    git(&prebuilt, &["add", "-A"]);
    git(&prebuilt, &["commit", "-q", "-m", "prebuilt"]);
    git(&prebuilt, &["tag", "good"]);
    let wrong = "0".repeat(64);
    std::fs::write(module.join("amplifier.toml"), manifest(&wrong)).unwrap();
    git(&prebuilt, &["commit", "-q", "-am", "wrong checksum"]);
    git(&prebuilt, &["tag", "bad"]);

    write_plan(dir.path(), &format!("git+file://{}@good#subdirectory=tool-echo", prebuilt.display()));
    let output = run(dir.path(), &[]);
    assert_ran(&output);
    assert!(!stderr(&output).contains("Building"), "used as is:\n{}", stderr(&output));
    let locked = lock(dir.path());
    assert!(locked.contains(&format!("sha256 = \"{actual}\"")), "{locked}");
    let target = amplifier_loader::manifest::HOST_TARGET;
    assert!(
        locked.contains(&format!("artifact = \"{target}\"")),
        "the lock says a prebuilt library was used:\n{locked}"
    );

    write_plan(dir.path(), &format!("git+file://{}@bad#subdirectory=tool-echo", prebuilt.display()));
    let output = run(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("checksum mismatch for the prebuilt artifact"), "{err}");
    assert!(err.contains(&format!("amplifier.toml says sha256 = {wrong}, the file has {actual}")), "{err}");
}

/// `git daemon` on a free loopback port, killed when dropped.
struct Daemon {
    child: Child,
    port: u16,
}

impl Daemon {
    fn serve(base: &Path) -> Daemon {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        // `git-daemon` itself, not `git daemon`: the `git` wrapper would leave
        // the daemon running when killed.
        let exec_path = git(base, &["--exec-path"]);
        let child = Command::new(Path::new(&exec_path).join("git-daemon"))
            .args(["--reuseaddr", "--export-all", "--listen=127.0.0.1"])
            .arg(format!("--base-path={}", base.display()))
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("git daemon starts");
        let daemon = Daemon { child, port };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "git daemon did not listen on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        daemon
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn fetches_over_the_network_from_git_daemon_shallowly_and_with_the_git_command() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let served = dir.path().join("served");
    let repo = served.join("repo");
    let first = make_repo(&repo);
    let daemon = Daemon::serve(&served);
    let url = format!("git://127.0.0.1:{}/repo", daemon.port);
    write_plan(dir.path(), &format!("git+{url}@main#subdirectory={SUBDIR}"));

    assert_ran(&run(dir.path(), &[]));
    assert!(lock(dir.path()).contains(&first));
    let db = amplifier_home().join("cache/git/db").join(ident(&canonical_url(&url)));
    let shallow = std::fs::read_to_string(db.join("shallow")).unwrap_or_default();
    assert!(shallow.contains(&first), "a shallow fetch (depth 1)");

    // The same remote through the `git` command (AMPLIFIER_GIT_FETCH_WITH_CLI).
    let second = move_main(&repo, "second");
    let output = amp(dir.path())
        .args(["run", "--plan", "plan.yaml", "go"])
        .env("AMPLIFIER_GIT_FETCH_WITH_CLI", "true")
        .output()
        .unwrap();
    assert_ran(&output);
    assert!(lock(dir.path()).contains(&second));
    drop(daemon);
}

/// `ssh://` is fetched by the `git` command (this build of libgit2 has no
/// ssh), so the user's ssh applies: here `GIT_SSH_COMMAND`, a stand-in for
/// ssh that runs the remote command on this machine, as git's own test
/// suite stands in for an sshd.
#[cfg(unix)]
#[test]
fn an_ssh_source_is_fetched_with_the_git_command_and_the_users_ssh() {
    use std::os::unix::fs::PermissionsExt;
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let commit = make_repo(&repo);
    let ssh = dir.path().join("fake-ssh");
    // git calls `ssh [options] HOST COMMAND`: run the last argument here.
    std::fs::write(&ssh, "#!/bin/sh\nwhile [ $# -gt 1 ]; do shift; done\nexec sh -c \"$1\"\n").unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    write_plan(dir.path(), &format!("git+ssh://localhost{}@v1#subdirectory={SUBDIR}", repo.display()));

    let output =
        amp(dir.path()).args(["run", "--plan", "plan.yaml", "go"]).env("GIT_SSH_COMMAND", &ssh).output().unwrap();
    assert_ran(&output);
    assert!(lock(dir.path()).contains(&commit), "{}", lock(dir.path()));
}

/// `https://` is the `git` command's too: its own error comes back, naming
/// the URL; and without git installed, the error says to install it.
#[test]
fn an_https_source_is_the_git_commands_which_must_be_installed() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    // Nothing listens on port 1.
    write_plan(dir.path(), "git+https://127.0.0.1:1/modules.git@v1#subdirectory=tool-echo");
    let output = run(dir.path(), &[]);
    let err = stderr(&output);
    assert!(!output.status.success());
    assert!(err.contains("cannot fetch from the git remote https://127.0.0.1:1/modules.git"), "{err}");
    assert!(err.contains("unable to access 'https://127.0.0.1:1/modules.git/'"), "not git's own message:\n{err}");

    let no_git = tempfile::tempdir().unwrap();
    let output =
        amp(dir.path()).args(["run", "--plan", "plan.yaml", "go"]).env("PATH", no_git.path()).output().unwrap();
    let err = stderr(&output);
    assert!(!output.status.success());
    assert!(err.contains("cannot run `git ls-remote`"), "{err}");
    assert!(err.contains("hint: install git: https:// and ssh:// sources are fetched with the `git` command"), "{err}");
}
