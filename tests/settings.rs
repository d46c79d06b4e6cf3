//! `amplifier config show`: every setting with the file or variable it came
//! from, later files winning, the environment over all, unknown keys named.

mod common;

use common::*;

#[test]
fn config_show_names_each_value_s_source_and_precedence_holds() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("settings.yaml"),
        "show_token_usage: true\nevents: {max_rows: 50}\nplan: user.yaml\n",
    )
    .unwrap();
    std::fs::create_dir_all(project.path().join(".amplifier")).unwrap();
    std::fs::write(project.path().join(".amplifier/settings.yaml"), "plan: project.yaml\ntheme: dark\n").unwrap();
    std::fs::write(project.path().join(".amplifier/settings.local.yaml"), "plan: mine.yaml\n").unwrap();

    let show = || {
        let output = amplifier(project.path())
            .env("AMPLIFIER_HOME", home.path())
            .env("AMPLIFIER_EVENTS_MAX_DAYS", "3")
            .env_remove("AMPLIFIER_PLAN")
            .args(["config", "show"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    // The project's `plan` waits for trust; the user's own file needs none.
    let text = show();
    let row =
        |text: &str, key: &str| text.lines().find(|l| l.starts_with(&format!("{key} "))).unwrap_or_default().to_owned();
    assert!(row(&text, "plan").contains("user.yaml"), "{text}");
    assert!(text.contains(".amplifier/settings.local.yaml (not trusted yet) sets plan: left out"), "{text}");
    let trusted = amplifier(project.path()).env("AMPLIFIER_HOME", home.path()).arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", stderr(&trusted));

    let text = show();
    let row = |key: &str| row(&text, key);
    assert!(row("plan").contains("mine.yaml") && row("plan").contains("settings.local.yaml"), "{text}");
    assert!(
        row("show_token_usage").contains("true")
            && row("show_token_usage").contains(&home.path().display().to_string()),
        "{text}"
    );
    assert!(row("events.max_rows").contains("50"), "{text}");
    assert!(
        row("events.max_days").contains('3') && row("events.max_days").contains("$AMPLIFIER_EVENTS_MAX_DAYS"),
        "{text}"
    );
    assert!(row("approvals.always_allow").contains("(default)"), "{text}");
    assert!(text.contains(".amplifier/settings.yaml: unknown setting `theme`"), "{text}");
    assert!(text.contains("precedence, lowest first"), "{text}");
}
