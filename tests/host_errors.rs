//! What a session refuses to start with, as the user sees it: each error
//! class of the session host, rendered once by the CLI (message, hints,
//! exit code), snapshot-tested.

mod common;

use snapbox::cmd::Command;
use snapbox::str;

/// A directory with `plan.yaml` (built-in modules, a scripted provider,
/// then `extra`) and its own `AMPLIFIER_HOME`.
fn project(extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let plan = format!(
        "session: {{orchestrator: loop-basic, context: context-simple}}\n\
         providers: [{{module: provider-scripted, config: {{script: [{{text: hi}}, {{text: hi}}]}}}}]\n{extra}"
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    dir
}

fn amplifier(dir: &tempfile::TempDir, args: &[&str]) -> Command {
    Command::new(env!("CARGO_BIN_EXE_amplifier"))
        .current_dir(dir.path())
        .env("AMPLIFIER_HOME", dir.path().join("home"))
        .env_remove("AMPLIFIER_LOG")
        .env("NO_COLOR", "1")
        .args(args)
}

#[test]
fn locked_without_a_lock_is_a_usage_error_naming_the_fix() {
    let dir = project("");
    amplifier(&dir, &["run", "--plan", "plan.yaml", "--locked", "hi"]).assert().code(2).stdout_eq("").stderr_eq(str![
        [r#"
error: --locked: amplifier.lock does not exist
hint: run `amplifier update --plan plan.yaml` (or run once without --locked) to write it

"#]
    ]);
}

#[test]
fn locked_with_a_module_the_plan_dropped_lists_the_difference_and_runs_nothing() {
    let dir = project("hooks: [{module: hooks-redaction}]\n");
    amplifier(&dir, &["run", "--plan", "plan.yaml", "hi"]).assert().success();
    let plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
    std::fs::write(dir.path().join("plan.yaml"), plan.replace("hooks: [{module: hooks-redaction}]\n", "")).unwrap();
    amplifier(&dir, &["run", "--plan", "plan.yaml", "--locked", "hi"]).assert().code(1).stdout_eq("").stderr_eq(str![
        [r#"
error: the plan's modules differ from amplifier.lock (--locked):
  - hook 'hooks-redaction' is in amplifier.lock (sha256 [..]) but not in the plan
hint: run `amplifier update --plan plan.yaml [MODULE]` to accept the new resolution, or run without --locked

"#]
    ]);
}

#[test]
fn a_module_that_cannot_be_found_stops_the_run_unless_partial_loads_are_allowed() {
    let dir = project("tools: [{module: tool-nowhere}]\n");
    amplifier(&dir, &["run", "--plan", "plan.yaml", "hi"]).assert().code(1).stdout_eq("").stderr_eq(str![[r#"
error: 1 module(s) failed to load:
  - tool tool-nowhere (tools[0]): [..]
hint: add `source: ./path/to/the/module/crate` to tools[0], or name a module `amplifier module list` shows
hint: fix the plan, or pass --allow-partial to run without them

"#]]);
    amplifier(&dir, &["run", "--plan", "plan.yaml", "--allow-partial", "hi"])
        .assert()
        .success()
        .stdout_eq("hi\n")
        .stderr_eq(str![[r#"
warning: 1 module(s) failed to load; running without them:
  - tool tool-nowhere (tools[0]): [..]
hint: add `source: ./path/to/the/module/crate` to tools[0], or name a module `amplifier module list` shows

"#]]);
}
