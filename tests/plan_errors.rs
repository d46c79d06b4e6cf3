//! Plan errors as the user sees them: file, line, column, field path, what
//! was expected, and exit code 2 (nothing ran). Snapshots are in the tests;
//! refresh them with `SNAPSHOTS=overwrite cargo test --test plan_errors`.

mod common;

use snapbox::cmd::Command;
use snapbox::str;

fn run_plan(plan: &str) -> Command {
    Command::new(env!("CARGO_BIN_EXE_amplifier"))
        .current_dir(common::workspace().join("tests/plans"))
        .env("AMPLIFIER_HOME", common::amplifier_home())
        .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
        .env_remove("NO_SUCH_KEY_FOR_TEST")
        .args(["run", "--plan", plan, "hi"])
}

#[test]
fn wrong_types_and_missing_fields_are_located() {
    run_plan("malformed.yaml").assert().code(2).stdout_eq(str![""]).stderr_eq(str![[r#"
error: malformed.yaml:6:13: providers[0].source: expected a string, found a map
error: malformed.yaml:8:5: tools[0].module: missing required field; expected a non-empty string
warning: malformed.yaml:8:5: tools[0].modul: unknown key `modul` is ignored; did you mean `module`? known keys: module, source, config, instance_id, isolation

"#]]);
}

#[test]
fn yaml_syntax_errors_are_located() {
    run_plan("syntax-error.yaml").assert().code(2).stderr_eq(str![[r#"
error: syntax-error.yaml:3:10: session.orchestrator: invalid YAML: while parsing a flow mapping, did not find expected ',' or '}'

"#]]);
}

#[test]
fn a_missing_environment_variable_names_the_fix() {
    run_plan("missing-env.yaml").assert().code(2).stderr_eq(str![[r#"
error: missing-env.yaml:6:23: providers[0].config.api_key: environment variable NO_SUCH_KEY_FOR_TEST is not set
  hint: set NO_SUCH_KEY_FOR_TEST or write ${NO_SUCH_KEY_FOR_TEST:-default}

"#]]);
}

#[test]
fn duplicate_agent_ids_are_refused_naming_both() {
    run_plan("duplicate-agents.yaml").assert().code(2).stdout_eq(str![""]).stderr_eq(str![[r#"
error: duplicate-agents.yaml:9:3: agents.support: duplicate agent id `support` (lines 5 and 9): agent ids must be unique

"#]]);
}

#[test]
fn a_missing_plan_file_is_a_usage_error() {
    run_plan("no-such-plan.yaml").assert().code(2).stderr_eq(str![[r#"
error: cannot read mount plan no-such-plan.yaml: No such file or directory (os error 2)

"#]]);
}

#[test]
fn no_prompt_on_a_terminal_less_stdin_is_a_usage_error() {
    Command::new(env!("CARGO_BIN_EXE_amplifier"))
        .args(["run", "--plan", "x.yaml"])
        .stdin("")
        .assert()
        .code(2)
        .stderr_eq(str![[r#"
error: the prompt read from stdin is empty

"#]]);
}
