//! `amplifier completions SHELL` and the man pages (`amplifier man-pages
//! DIR`, which `cargo xtask man` runs): scripts a real bash completes with,
//! and pages for every command a user can type.

mod common;

use common::*;

fn completions(shell: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let output = amplifier(dir.path()).args(["completions", shell]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

/// What bash's completion function offers for `words` (the last one being
/// completed), with the script sourced as a user would.
fn bash_completes(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let current = words.last().unwrap();
    let previous = words[words.len() - 2];
    let program = format!(
        "source {}; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; _amplifier amplifier '{current}' '{previous}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1,
        words.join(" "),
    );
    let output = std::process::Command::new("bash").args(["-c", &program]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output).lines().map(str::to_owned).collect()
}

#[test]
fn bash_completes_commands_and_option_values() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("amplifier.bash");
    std::fs::write(&script, completions("bash")).unwrap();
    assert_eq!(bash_completes(&script, &["amplifier", "se"]), ["serve", "session"]);
    assert_eq!(
        bash_completes(&script, &["amplifier", "run", "--output-format", ""]),
        ["text", "json", "json-trace", "jsonl", "sse"]
    );
    let hidden = bash_completes(&script, &["amplifier", ""]);
    assert!(hidden.contains(&"completions".to_owned()) && !hidden.contains(&"reference-json".to_owned()), "{hidden:?}");
}

#[test]
fn every_supported_shell_gets_its_own_script_and_others_are_refused() {
    for (shell, marker) in [
        ("zsh", "#compdef amplifier"),
        ("fish", "complete -c amplifier"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[amplifier]"),
    ] {
        let script = completions(shell);
        assert!(script.contains(marker), "{shell}: no `{marker}` in\n{script}");
    }
    let dir = tempfile::tempdir().unwrap();
    let output = amplifier(dir.path()).args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("[possible values: bash, elvish, fish, powershell, zsh]"), "{}", stderr(&output));
}

#[test]
fn man_pages_cover_every_command_a_user_can_type() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man");
    let output = amplifier(dir.path()).args(["man-pages"]).arg(&pages).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let page = |name: &str| std::fs::read_to_string(pages.join(name)).unwrap_or_else(|err| panic!("{name}: {err}"));
    assert!(page("amplifier.1").contains(".TH amplifier 1"));
    let run = page("amplifier-run.1");
    assert!(run.contains(".TH amplifier-run 1") && run.contains("\\-\\-output\\-format"), "{run}");
    for name in
        ["amplifier-serve.1", "amplifier-session-resume.1", "amplifier-module-validate.1", "amplifier-completions.1"]
    {
        assert!(pages.join(name).is_file(), "no {name}");
    }
    for hidden in ["amplifier-reference-json.1", "amplifier-man-pages.1", "amplifier-isolated-module.1"] {
        assert!(!pages.join(hidden).exists(), "{hidden} is an internal command");
    }
}
