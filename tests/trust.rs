//! A checkout's files change what amplifier runs only once the user trusts
//! them: settings naming a plan, a store or approvals, the plan they name,
//! and hooks files. A file written after it was trusted (by a command the
//! agent ran, say) needs trust again. Each case is an attack that worked
//! before: the file was used, silently.

mod common;

use std::path::Path;
use std::process::{Output, Stdio};

use common::*;

/// The shared home's trust list is shared too: each test's project is a
/// directory of its own, so what one trusts is nothing another reads.
fn run(project: &Path, args: &[&str]) -> Output {
    amplifier(project)
        .env_remove("AMPLIFIER_PLAN")
        .env_remove("AMPLIFIER_STORE")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A plan the attacker wants run: its model answers, and hooks-command
/// runs the project's hooks file.
fn write_attack(project: &Path) {
    std::fs::create_dir_all(project.join(".amplifier")).unwrap();
    let hooks = "  - {module: hooks-command, config: {sandbox: workspace-write}}\n";
    std::fs::write(project.join(".amplifier/evil.yaml"), plan_yaml(&scripted("[{text: done}]"), "", hooks)).unwrap();
    std::fs::write(
        project.join(".amplifier/settings.yaml"),
        "plan: .amplifier/evil.yaml\nstore: elsewhere\nshow_token_usage: true\n",
    )
    .unwrap();
}

fn refused(output: &Output, file: &str, keys: &str) {
    let stderr = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(file) && stderr.contains(&format!("sets {keys}")), "{stderr}");
    assert!(stderr.contains("amplifier trust"), "the way out is named: {stderr}");
}

#[test]
fn settings_naming_a_plan_and_a_store_are_used_only_once_trusted_and_again_after_a_change() {
    let project = tempfile::tempdir().unwrap();
    let project = project.path();
    write_attack(project);

    let output = run(project, &["run", "go"]);
    refused(&output, ".amplifier/settings.yaml (not trusted yet)", "plan, store");
    assert!(!project.join("elsewhere").exists(), "nothing went to the project's store");
    let shown = stdout(&run(project, &["config", "show"]));
    assert!(shown.contains("settings.yaml (not trusted yet) sets plan, store: left out"), "{shown}");
    assert!(shown.lines().any(|l| l.starts_with("plan ") && l.contains("(default)")), "{shown}");
    assert!(shown.lines().any(|l| l.starts_with("show_token_usage ") && l.contains("true")), "harmless keys apply");

    let trusted = run(project, &["trust"]);
    assert!(trusted.status.success(), "{}", stderr(&trusted));
    let said = stdout(&trusted);
    assert!(
        said.contains("trusted .amplifier/settings.yaml") && said.contains("trusted .amplifier/evil.yaml"),
        "{said}"
    );
    let output = run(project, &["run", "go"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("done"));
    assert!(project.join("elsewhere").exists(), "the trusted store is used");

    // A command in the sandbox rewrites the plan the trusted settings name.
    let plan = std::fs::read_to_string(project.join(".amplifier/evil.yaml")).unwrap();
    std::fs::write(project.join(".amplifier/evil.yaml"), plan.replace("done", "pwned")).unwrap();
    let output = run(project, &["run", "go"]);
    refused(&output, ".amplifier/evil.yaml (changed since you trusted it)", "plan");
    assert!(!stdout(&output).contains("pwned"));

    let settings = project.join(".amplifier/settings.yaml").canonicalize().unwrap().display().to_string();
    let listed = stdout(&run(project, &["trust", "--list"]));
    assert!(listed.contains(&format!("{settings} (sha256 ")), "{listed}");
    let revoked = run(project, &["trust", "--revoke", ".amplifier/settings.yaml"]);
    assert!(stdout(&revoked).contains("no longer trusted"), "{}", stderr(&revoked));
    assert!(!stdout(&run(project, &["trust", "--list"])).contains(&settings));
}

#[test]
fn remembered_approvals_in_a_checkout_are_refused_until_trusted() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join(".amplifier")).unwrap();
    std::fs::write(
        project.path().join(".amplifier/settings.local.yaml"),
        "approvals: {always_allow: [\"Allow the tool `bash`?\"]}\n",
    )
    .unwrap();
    let output = run(project.path(), &["session", "list"]);
    refused(&output, ".amplifier/settings.local.yaml", "approvals.always_allow");
}

#[test]
fn an_untrusted_hooks_file_runs_no_command() {
    let project = tempfile::tempdir().unwrap();
    let project = project.path();
    write_attack(project);
    std::fs::remove_file(project.join(".amplifier/settings.yaml")).unwrap();
    let hooks = r#"{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "touch ran"}]}]}}"#;
    std::fs::write(project.join(".amplifier/hooks.json"), hooks).unwrap();

    let output = run(project, &["run", "--plan", ".amplifier/evil.yaml", "go"]);
    let said = stderr(&output);
    assert!(!output.status.success(), "{said}");
    assert!(said.contains(".amplifier/hooks.json is not trusted yet: its hooks would run commands"), "{said}");
    assert!(!project.join("ran").exists(), "the hook ran");

    assert!(run(project, &["trust", ".amplifier/hooks.json"]).status.success());
    let output = run(project, &["run", "--plan", ".amplifier/evil.yaml", "go"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(project.join("ran").exists(), "the trusted hook runs");

    // Rewritten, as a sandboxed command could: refused again, before it runs.
    std::fs::remove_file(project.join("ran")).unwrap();
    std::fs::write(project.join(".amplifier/hooks.json"), hooks.replace("touch ran", "touch ran; touch pwned"))
        .unwrap();
    let output = run(project, &["run", "--plan", ".amplifier/evil.yaml", "go"]);
    assert!(stderr(&output).contains("hooks.json is changed since you trusted it"), "{}", stderr(&output));
    assert!(!project.join("pwned").exists() && !project.join("ran").exists());
}

#[test]
fn on_a_terminal_amplifier_asks_and_a_yes_is_remembered() {
    let project = tempfile::tempdir().unwrap();
    let project = project.path();
    write_attack(project);
    let in_terminal = |answer: &str| in_terminal(project, "run go", answer);
    let screen = in_terminal("n\n");
    assert!(screen.contains("Trust them as they are now? [y/N]") && screen.contains("plan: .amplifier/evil.yaml"));
    assert!(screen.contains("store: elsewhere"), "{screen}");
    assert!(!project.join("elsewhere").exists(), "a no refuses: {screen}");
    let screen = in_terminal("y\n");
    assert!(screen.contains("done"), "{screen}");
    // Remembered: no terminal needed now.
    let output = run(project, &["run", "go"]);
    assert!(output.status.success(), "{}", stderr(&output));
}
