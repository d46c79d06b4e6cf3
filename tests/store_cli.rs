//! Choosing the session store from the command line, and `amplifier store
//! migrate`, against a real SQLite file and a real PostgreSQL server.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::*;

fn amp(dir: &Path) -> Command {
    let mut command = amplifier(dir);
    command.env("AMPLIFIER_STATE_DIR", dir.join("state")).env_remove("AMPLIFIER_STORE");
    command
}

fn ok(command: &mut Command) -> Output {
    let output = command.output().unwrap();
    assert!(output.status.success(), "{command:?} failed:\n{}", stderr(&output));
    output
}

fn listed(output: &Output) -> Vec<String> {
    stdout(output).lines().skip(1).filter_map(|row| row.split_whitespace().next()).map(str::to_owned).collect()
}

fn write_plan(dir: &Path) {
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&scripted(r#"[{text: "stored"}]"#), "", "  []")).unwrap();
}

/// `--store` wins over `AMPLIFIER_STORE`, which wins over the default; a
/// session recorded in PostgreSQL goes on with `continue` from another
/// directory's state, as a second machine would.
#[test]
fn the_flag_or_the_variable_picks_the_store_and_the_session_lives_there() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path());
    let url = amplifier_test_postgres::database();
    ok(amp(dir.path()).args(["--store", &url, "run", "--plan", "plan.yaml", "first"]));
    ok(amp(dir.path()).args(["run", "--plan", "plan.yaml", "local"]));

    let in_postgres = listed(&ok(amp(dir.path()).env("AMPLIFIER_STORE", &url).args(["session", "list"])));
    let in_sqlite = listed(&ok(amp(dir.path()).args(["session", "list"])));
    assert_eq!((in_postgres.len(), in_sqlite.len()), (1, 1));
    assert_ne!(in_postgres, in_sqlite);
    let flag_wins = listed(&ok(amp(dir.path())
        .env("AMPLIFIER_STORE", dir.path().join("elsewhere"))
        .args(["session", "list", "--store", &url])));
    assert_eq!(flag_wins, in_postgres, "--store, after the subcommand too, wins over the variable");

    // Another machine: its own state directory, the same database.
    let machine_b = tempfile::tempdir().unwrap();
    write_plan(machine_b.path());
    let mut resume = amp(machine_b.path());
    resume.args(["--store", &url, "resume", &in_postgres[0], "--plan", "plan.yaml", "second"]);
    ok(&mut resume);
    let show = stdout(&ok(amp(dir.path()).args(["--store", &url, "session", "show", &in_postgres[0]])));
    assert!(show.lines().any(|line| line.starts_with("turns") && line.ends_with(" 2")), "{show}");
}

#[test]
fn migrate_copies_the_sqlite_store_into_postgres_once() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path());
    for prompt in ["one", "two"] {
        ok(amp(dir.path()).args(["run", "--plan", "plan.yaml", prompt]));
    }
    let url = amplifier_test_postgres::database();
    let first = stdout(&ok(amp(dir.path()).args(["store", "migrate", "--to", &url])));
    assert!(first.starts_with("copied 2 session(s) (4 messages, "), "{first}");
    assert!(first.contains(&format!("to {url}")), "{first}");
    let again = stdout(&ok(amp(dir.path()).args(["store", "migrate", "--to", &url])));
    assert!(again.starts_with("copied 0 session(s)") && again.contains("2 session(s) were in"), "{again}");
    let sqlite = listed(&ok(amp(dir.path()).args(["session", "list"])));
    let postgres = listed(&ok(amp(dir.path()).args(["--store", &url, "session", "list"])));
    assert_eq!(sqlite, postgres);
}

/// A store that cannot be reached, or is no store at all, is an error that
/// says where the setting came from and never prints the password.
#[test]
fn a_bad_store_is_a_clear_error_without_the_password() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path());
    let port = amplifier_test_postgres::server().port();
    let url = format!("postgres://nobody:hunter2@127.0.0.1:{port}/none");
    let output = amp(dir.path()).env("AMPLIFIER_STORE", &url).args(["session", "list"]).output().unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("cannot connect to postgres://nobody:***@127.0.0.1:{port}/none")), "{err}");
    assert!(!err.contains("hunter2"), "{err}");

    let output =
        amp(dir.path()).args(["--store", "mysql://db/x", "run", "--plan", "plan.yaml", "hi"]).output().unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("'mysql://db/x' is not a store") && err.contains("--store"), "{err}");

    std::fs::create_dir_all(dir.path().join(".amplifier")).unwrap();
    std::fs::write(dir.path().join(".amplifier/settings.yaml"), format!("store: {url}\n")).unwrap();
    ok(amp(dir.path()).arg("trust"));
    let config = stdout(&ok(amp(dir.path()).args(["config", "show"])));
    let line = config.lines().find(|line| line.starts_with("store ")).unwrap();
    assert!(line.contains("postgres://nobody:***@") && !config.contains("hunter2"), "{config}");
}
