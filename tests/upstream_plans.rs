//! A plan written for upstream Amplifier runs unchanged: its foundation
//! bundle's mount plan (`tests/plans/upstream-foundation.yaml`, the `git+`
//! sources left out so the built-in modules load, the providers replaced by
//! provider-scripted) loads with warnings only, each naming its line, and
//! runs; `--strict` refuses it.

mod common;

use common::*;
use serde_json::Value;

fn foundation_plan(dir: &std::path::Path) {
    let plan = std::fs::read_to_string(workspace().join("tests/plans/upstream-foundation.yaml")).unwrap();
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
    std::fs::write(dir.join("notes.txt"), "remember the milk\n").unwrap();
}

#[test]
fn upstreams_foundation_plan_loads_with_warnings_only_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    foundation_plan(dir.path());
    let home = dir.path().join("home");
    let output = amplifier(dir.path())
        .env("HOME", &home)
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "what do the notes say?"])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    let lines = json_lines(&output);
    assert_eq!(lines.last().unwrap()["data"]["response"], "The notes say: remember the milk.");
    assert_eq!(tool_event(&lines, "call_1")["data"]["result"]["success"], true);

    // Only what means nothing here is warned about, each at its line; the
    // upstream keys with a meaning here (target_usage, min_delay_between_calls_ms,
    // session_log_template, exclude_events, default_action, rules in
    // upstream's shape, the `ui:` block) pass without a word.
    let warned: Vec<&str> = err
        .lines()
        .map(|line| line.strip_prefix("warning: plan.yaml:").unwrap_or_else(|| panic!("not a warning: {line}\n{err}")))
        .map(|line| line.split(": ").nth(1).unwrap())
        .collect();
    assert_eq!(
        warned,
        [
            "providers[0].config.max_tokens",
            "tools[0].config.require_approval",
            "tools[2].config.max_results",
            "hooks[3].config.ui.show_token_usage",
        ],
        "{err}"
    );
    assert!(err.contains("warning: plan.yaml:19:7: providers[0].config.max_tokens: unknown key `max_tokens`"), "{err}");

    // session.metadata is echoed; hooks-logging wrote where its upstream
    // template says, `~` and `{project}` (the directory as a slug) filled in.
    let start = lines.iter().find(|l| l["event"] == "session:start").unwrap();
    assert_eq!(start["data"]["metadata"], serde_json::json!({"bundle": "foundation"}));
    let session = start["data"]["session_id"].as_str().unwrap();
    let project = dir.path().canonicalize().unwrap().display().to_string().replace('/', "-");
    let log = home.join(".amplifier/projects").join(&project).join("sessions").join(session).join("events.jsonl");
    let logged = std::fs::read_to_string(&log).unwrap_or_else(|err| panic!("{}: {err}", log.display()));
    let first: Value = serde_json::from_str(logged.lines().next().unwrap()).unwrap();
    assert_eq!(first["session_id"], session);
}

#[test]
fn strict_refuses_what_upstreams_plan_leaves_to_warnings() {
    let dir = tempfile::tempdir().unwrap();
    foundation_plan(dir.path());
    let output = amplifier(dir.path())
        .env("HOME", dir.path().join("home"))
        .args(["run", "--strict", "--plan", "plan.yaml", "hi"])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("module(s) failed to load"), "{err}");
    assert!(
        err.contains(
            "plan.yaml:19:7: providers[0].config.max_tokens: unknown key `max_tokens` for module 'provider-scripted'"
        ),
        "{err}"
    );
    assert!(err.contains("without --strict an unknown key is a warning"), "{err}");
    // The plan's own unknown keys too, with the reason it is an error.
    let plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
    std::fs::write(dir.path().join("typo.yaml"), plan.replace("spawn:", "spwan:")).unwrap();
    let output = amplifier(dir.path()).args(["run", "--strict", "--plan", "typo.yaml", "hi"]).output().unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: typo.yaml:51:1: spwan: unknown key `spwan` is ignored; did you mean `spawn`?"),
        "{err}"
    );
    assert!(err.contains("hint: --strict (or the `strict` setting) makes this warning an error"), "{err}");
    // The setting does what the flag does.
    let output = amplifier(dir.path())
        .env("HOME", dir.path().join("home"))
        .env("AMPLIFIER_STRICT", "true")
        .args(["run", "--plan", "plan.yaml", "hi"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
}
