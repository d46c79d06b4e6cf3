//! A checkout is untrusted input: each case puts hostile files where
//! amplifier reads them from a project (`.amplifier/`) and runs a command
//! there, as a user who cloned it would. A case fails if the command does
//! not finish, runs out of its memory cap, or does not say which file (and
//! line) it refused. The cap turns an attack that fills the memory into a
//! failure of this test, not of the machine.

mod common;

use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// Well above what any of these commands needs (a debug build maps more
/// than it touches), far below what an expanded alias bomb takes.
const ADDRESS_SPACE: libc::rlim_t = 4 << 30;
const PATIENCE: Duration = Duration::from_secs(120);

/// Nine aliases of the level before, at each of `levels` levels: 9^9 values
/// expanded, from 300 bytes.
fn alias_bomb(levels: usize) -> String {
    let mut text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n".to_owned();
    for level in 1..levels {
        let aliases = vec![format!("*a{}", level - 1); 9].join(", ");
        text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
    }
    text
}

struct Case {
    name: &'static str,
    /// Files written into the project, by path below it.
    files: Vec<(&'static str, String)>,
    args: Vec<String>,
    /// Each must be in the command's output (stdout and stderr).
    expected: Vec<&'static str>,
}

#[test]
fn a_hostile_checkout_is_refused_file_by_file_and_every_command_finishes() {
    let scripted_plan = workspace().join("mount-plans/scripted.yaml").display().to_string();
    let skill = |frontmatter: &str| format!("---\nname: bomb\ndescription: d\n{frontmatter}---\n# Bomb\n");
    let cases = [
        Case {
            name: "an alias bomb in the project's settings: config show",
            files: vec![(".amplifier/settings.yaml", alias_bomb(9))],
            args: vec!["config".into(), "show".into()],
            expected: vec![
                ".amplifier/settings.yaml:6:",
                "the document expands to more than 100000 values through its aliases",
            ],
        },
        Case {
            name: "an alias bomb in the project's local settings: run",
            files: vec![(".amplifier/settings.local.yaml", alias_bomb(9))],
            args: vec!["run".into(), "--plan".into(), scripted_plan.clone(), "hi".into()],
            expected: vec![".amplifier/settings.local.yaml:6:", "more than 100000 values"],
        },
        Case {
            name: "nesting past the limit in the project's settings: run",
            files: vec![(".amplifier/settings.yaml", format!("plan: {}x{}\n", "[".repeat(200), "]".repeat(200)))],
            args: vec!["run".into(), "--plan".into(), scripted_plan.clone(), "hi".into()],
            expected: vec![".amplifier/settings.yaml:1:", "nesting is deeper than 128 levels"],
        },
        Case {
            name: "an alias bomb in a skill's frontmatter: tool list on the default plan",
            files: vec![(".amplifier/skills/bomb/SKILL.md", skill(&alias_bomb(9)))],
            args: vec!["tool".into(), "list".into()],
            expected: vec!["skills/bomb/SKILL.md:9: the frontmatter: the document expands to more than 100000 values"],
        },
    ];
    let mut failures = Vec::new();
    for case in cases {
        let project = tempfile::tempdir().unwrap();
        for (path, text) in &case.files {
            let file = project.path().join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        let mut command = amplifier(project.path());
        command.args(&case.args).env_remove("AMPLIFIER_PLAN");
        let (output, took) = capped(command);
        let text = format!("{}{}", stdout(&output), stderr(&output));
        let missing: Vec<_> = case.expected.iter().filter(|wanted| !text.contains(*wanted)).collect();
        if !output.status.success() || !missing.is_empty() {
            failures.push(format!("{}: {} after {took:?}; missing {missing:?} in:\n{text}", case.name, output.status));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs `command` under the memory cap, killed after [`PATIENCE`]
/// (coreutils' `timeout`, which stays its parent).
fn capped(command: Command) -> (Output, Duration) {
    let mut capped = Command::new("timeout");
    capped.args(["-s", "KILL", &PATIENCE.as_secs().to_string()]).arg(command.get_program()).args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        capped.current_dir(dir);
    }
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => capped.env(key, value),
            None => capped.env_remove(key),
        };
    }
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        capped.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: ADDRESS_SPACE, rlim_max: ADDRESS_SPACE };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let output = capped.stdin(Stdio::null()).output().unwrap();
    (output, started.elapsed())
}
