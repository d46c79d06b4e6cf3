use std::time::Duration;

use amplifier_sdk::testing::config_with_defaults;
use tempfile::TempDir;

use super::*;

const MANIFEST: &str = include_str!("../amplifier.toml");

/// Unconfined unless the test says: these tests' scripts and files live in
/// temporary directories a sandbox rooted here would not let a hook read
/// (tests/command_hooks.rs runs hooks confined, in a project of their own).
fn hooks(mut config: Value) -> ModuleResult<CommandHooks> {
    if let Some(config) = config.as_object_mut() {
        config.entry("sandbox").or_insert(json!("full-access"));
    }
    CommandHooks::new("hooks-command", config_with_defaults(MANIFEST, config))
}

fn tool_pre(tool: &str, input: Value) -> JsonMap {
    let data = json!({"tool_name": tool, "tool_input": input, "tool_call_id": "call-1", "session_id": "s-1"});
    data.as_object().unwrap().clone()
}

fn err(result: ModuleResult<CommandHooks>) -> String {
    match result {
        Ok(_) => panic!("expected a config error"),
        Err(err) => err.to_string(),
    }
}

/// A script file in `dir`, for hooks that are longer than a line.
fn script(dir: &TempDir, name: &str, body: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn claudes_event_names_and_tool_names_mean_amplifiers() {
    let mounted = hooks(json!({"hooks": [
        {"event": "PreToolUse", "matcher": "Edit|Write", "command": "true"},
        {"event": ["SessionStart", "tool:*"], "command": "true"},
    ], "project_file": false}))
    .unwrap();
    let subscriptions = mounted.subscriptions();
    let events: Vec<&str> = subscriptions.iter().map(|s| s.event.as_str()).collect();
    assert_eq!(events, ["session:resume", "session:start", "tool:*"], "tool:* covers tool:pre");
    let edit = &mounted.hooks[0];
    assert!(edit.applies_to("tool:pre", &tool_pre("write_file", json!({}))), "Write is write_file");
    assert!(edit.applies_to("tool:pre", &tool_pre("Edit", json!({}))));
    assert!(!edit.applies_to("tool:pre", &tool_pre("write_file_2", json!({}))), "the whole name must match");
    assert!(!edit.applies_to("tool:post", &tool_pre("write_file", json!({}))));
    assert_eq!(edit.declared_as, "PreToolUse");
}

#[test]
fn an_event_reaches_the_handler_once_however_many_patterns_match_it() {
    let mounted = hooks(json!({"hooks": [
        {"event": "tool:pre", "command": "true"},
        {"event": ["tool:*", "tool:post"], "command": "true"},
        {"event": "prompt:submit", "command": "true"},
    ], "project_file": false}))
    .unwrap();
    let subscriptions = mounted.subscriptions();
    let events: Vec<&str> = subscriptions.iter().map(|s| s.event.as_str()).collect();
    assert_eq!(events, ["prompt:submit", "tool:*"]);
    let everything = hooks(json!({"hooks": [{"event": ["*", "tool:pre"], "command": "true"}], "project_file": false}));
    assert_eq!(everything.unwrap().subscriptions().len(), 1);
}

#[test]
fn a_session_start_matcher_tests_the_source() {
    let mounted = hooks(
        json!({"hooks": [{"event": "SessionStart", "matcher": "resume", "command": "true"}], "project_file": false}),
    )
    .unwrap();
    let fires: Vec<&str> = ["session:start", "session:resume"]
        .into_iter()
        .filter(|event| mounted.hooks.iter().any(|hook| hook.applies_to(event, &JsonMap::new())))
        .collect();
    assert_eq!(fires, ["session:resume"]);
}

#[test]
fn bad_declarations_are_named_by_field() {
    let unknown = err(hooks(json!({"hooks": [{"event": "BeforeTool", "command": "true"}]})));
    assert!(
        unknown.contains("hooks[0].event: unknown event `BeforeTool`") && unknown.contains("PreToolUse"),
        "{unknown}"
    );
    let pointless =
        err(hooks(json!({"hooks": [{"event": ["tool:pre", "prompt:submit"], "matcher": "bash", "command": "true"}]})));
    assert!(pointless.contains("hooks[0].matcher: `bash` cannot apply: `prompt:submit` has no tool"), "{pointless}");
    let regex = err(hooks(json!({"hooks": [{"event": "tool:pre", "matcher": "(bash", "command": "true"}]})));
    assert!(regex.contains("hooks[0].matcher: `(bash` is not a regular expression"), "{regex}");
    let missing = err(hooks(json!({"files": ["nope/hooks.json"]})));
    assert!(missing.contains("files: cannot read") && missing.contains("nope/hooks.json"), "{missing}");
}

#[test]
fn a_hooks_file_in_claudes_format_is_read_and_its_mistakes_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("settings.json");
    std::fs::write(
        &file,
        r#"{"permissions": {}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 5}]}]}}"#,
    )
    .unwrap();
    let mounted = hooks(json!({"files": [file.display().to_string()], "project_file": false})).unwrap();
    assert_eq!(mounted.hooks.len(), 1);
    assert_eq!((mounted.hooks[0].event.0.as_str(), mounted.hooks[0].timeout), ("tool:pre", Duration::from_secs(5)));

    let cases = [
        (
            r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command"}]}]}}"#,
            "hooks.PreToolUse[0].hooks[0].command: must be a non-empty string",
        ),
        (
            r#"{"hooks": {"Notify": [{"hooks": [{"command": "true"}]}], "Stop": [], "AfterTool": []}}"#,
            "hooks: unknown events `AfterTool`, `Notify`: name an amplifier event",
        ),
        (
            r#"{"hooks": {"Stop": [{"hooks": [{"command": "true", "timeout": -1}]}]}}"#,
            "hooks.Stop[0].hooks[0].timeout: must be a positive number",
        ),
        ("{\"hooks\": \n{", "not JSON: EOF while parsing an object at line 2 column 1"),
    ];
    for (text, expected) in cases {
        std::fs::write(&file, text).unwrap();
        let message = err(hooks(json!({"files": [file.display().to_string()]})));
        assert!(message.contains(&format!("{}: ", file.display())) && message.contains(expected), "{message}");
    }
}

/// A settings file as Claude Code users have them: every event of Claude's
/// current spec loads; those amplifier has a moment for run there, the
/// rest (and `prompt` hooks, and matchers on what amplifier's event does not
/// carry) are left out with a warning, and the file's policy hooks stay.
#[test]
fn a_real_claude_settings_file_loads_with_every_event_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("settings.json");
    let group = |matcher: &str, command: &str| json!([{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]);
    let mut by_event = serde_json::Map::new();
    for (event, matcher) in [
        ("PreToolUse", "Bash"),
        ("PermissionRequest", "Bash|Edit"),
        ("PermissionDenied", ""),
        ("Notification", ""),
        ("SubagentStart", ""),
        ("SubagentStop", ""),
        ("PostCompact", ""),
        ("Setup", ""),
        ("TeammateIdle", ""),
        ("WorktreeCreate", ""),
    ] {
        by_event.insert(event.to_owned(), group(matcher, &format!("echo {event}")));
    }
    // Claude tests a notification's type; amplifier's carries none.
    by_event.insert("Stop".into(), group("", "echo Stop"));
    by_event["Notification"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": "idle_prompt", "hooks": [{"command": "echo idle"}]}));
    by_event["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "prompt", "prompt": "Is this safe?"}));
    std::fs::write(&file, json!({"permissions": {"allow": []}, "hooks": by_event}).to_string()).unwrap();

    let mounted = hooks(json!({"files": [file.display().to_string()], "project_file": false})).unwrap();
    let mut declared: Vec<(&str, &str)> =
        mounted.hooks.iter().map(|hook| (hook.declared_as.as_str(), hook.event.0.as_str())).collect();
    declared.sort();
    assert_eq!(
        declared,
        [
            ("Notification", "user:notification"),
            ("PermissionDenied", "approval:denied"),
            ("PermissionRequest", "approval:required"),
            ("PostCompact", "context:post_compact"),
            ("PreToolUse", "tool:pre"),
            ("Stop", "prompt:complete"),
            ("SubagentStart", "session:fork"),
        ]
    );
    // A permission hook's matcher tests the tool the approval is about.
    let request = mounted.hooks.iter().find(|hook| hook.declared_as == "PermissionRequest").unwrap();
    let about = |tool: &str| json!({"tool_name": tool, "prompt": "Allow?"}).as_object().unwrap().clone();
    assert!(request.applies_to("approval:required", &about("bash")));
    assert!(request.applies_to("approval:required", &about("edit_file")));
    assert!(!request.applies_to("approval:required", &about("read_file")));
}

async fn handle(mounted: &CommandHooks, event: &str, data: JsonMap) -> HookResult {
    mounted.handle(event, data).await.unwrap()
}

#[tokio::test]
async fn the_event_arrives_on_stdin_with_a_clean_environment() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen.json");
    let env = dir.path().join("env.txt");
    let command = format!("cat > {}; env > {}", seen.display(), env.display());
    let mounted =
        hooks(json!({"hooks": [{"event": "PreToolUse", "command": command}], "env": {"TEAM": "blue"}})).unwrap();
    let result = handle(&mounted, "tool:pre", tool_pre("bash", json!({"command": "ls"}))).await;
    assert_eq!(result.action, HookAction::Continue);
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    let cwd = std::env::current_dir().unwrap().display().to_string();
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["event"], "tool:pre");
    assert_eq!(seen["tool_input"], json!({"command": "ls"}));
    assert_eq!((seen["tool_use_id"].as_str(), seen["cwd"].as_str()), (Some("call-1"), Some(cwd.as_str())));
    let env = std::fs::read_to_string(&env).unwrap();
    for expected in ["AMPLIFIER_SESSION_ID=s-1", "AMPLIFIER_HOOK_EVENT=tool:pre", "TEAM=blue"] {
        assert!(env.lines().any(|line| line == expected), "{expected} in {env}");
    }
    assert!(env.lines().any(|line| line == format!("CLAUDE_PROJECT_DIR={cwd}")), "{env}");
    // cargo sets these for the test process; a hook must not inherit them.
    assert!(std::env::var_os("CARGO_PKG_NAME").is_some());
    assert!(!env.contains("CARGO_PKG_NAME"), "{env}");
}

#[tokio::test]
async fn exit_codes_continue_deny_or_fail() {
    let dir = tempfile::tempdir().unwrap();
    let deny = script(&dir, "deny.sh", "echo 'no rm here' >&2; exit 2");
    let mounted = hooks(json!({"hooks": [
        {"event": "tool:pre", "matcher": "bash", "command": "exit 0"},
        {"event": "tool:pre", "matcher": "bash", "command": deny},
    ]}))
    .unwrap();
    let denied = handle(&mounted, "tool:pre", tool_pre("bash", json!({"command": "rm -rf /"}))).await;
    assert_eq!((denied.action, denied.reason.as_deref()), (HookAction::Deny, Some("no rm here")));
    let other = handle(&mounted, "tool:pre", tool_pre("read_file", json!({}))).await;
    assert_eq!(other.action, HookAction::Continue, "the matcher leaves other tools alone");

    let failing = hooks(json!({"hooks": [{"event": "tool:pre", "command": "echo broken >&2; exit 7"}]})).unwrap();
    let failed = handle(&failing, "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!((failed.action, failed.reason), (HookAction::Continue, None), "a failure is not a denial");

    let slow = hooks(json!({"hooks": [{"event": "tool:pre", "command": "sleep 30", "timeout": 0.2}]})).unwrap();
    let timed_out = handle(&slow, "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!(timed_out.action, HookAction::Continue);
}

#[tokio::test]
async fn after_a_tool_ran_exit_2_tells_the_model() {
    let mounted =
        hooks(json!({"hooks": [{"event": "PostToolUse", "command": "echo 'lint failed: x.rs:3' >&2; exit 2"}]}))
            .unwrap();
    let mut data = tool_pre("write_file", json!({}));
    data.insert("result".into(), json!({"success": true, "output": "written"}));
    let result = handle(&mounted, "tool:post", data).await;
    assert_eq!(result.action, HookAction::InjectContext);
    assert_eq!(result.context_injection.as_deref(), Some("lint failed: x.rs:3"));
    assert!(result.append_to_last_tool_result);
}

#[tokio::test]
async fn answers_in_claudes_shape() {
    let dir = tempfile::tempdir().unwrap();
    let answer = |body: &str| {
        let path = dir.path().join(format!("{}.json", body.len()));
        std::fs::write(&path, body).unwrap();
        json!({"hooks": [{"event": "PreToolUse", "command": format!("cat {}", path.display())}]})
    };
    let deny = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not on main"}}"#;
    let result = handle(&hooks(answer(deny)).unwrap(), "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!((result.action, result.reason.as_deref()), (HookAction::Deny, Some("not on main")));

    let ask = r#"{"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "touches prod"}}"#;
    let result = handle(&hooks(answer(ask)).unwrap(), "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!(result.action, HookAction::AskUser);
    assert_eq!(result.approval_prompt.as_deref(), Some("Allow the tool `bash`?\ntouches prod"));

    let rewrite = r#"{"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "ls -a"}}, "systemMessage": "rewrote ls"}"#;
    let result = handle(&hooks(answer(rewrite)).unwrap(), "tool:pre", tool_pre("bash", json!({"command": "ls"}))).await;
    assert_eq!(result.action, HookAction::Modify);
    let data = result.data.unwrap();
    assert_eq!(
        (data["tool_input"].clone(), data["tool_call_id"].clone()),
        (json!({"command": "ls -a"}), json!("call-1"))
    );
    assert_eq!(result.user_message.as_deref(), Some("rewrote ls"));

    let stop = r#"{"continue": false, "stopReason": "budget spent"}"#;
    let result = handle(&hooks(answer(stop)).unwrap(), "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!((result.action, result.reason.as_deref()), (HookAction::Deny, Some("budget spent")));

    let broken = handle(&hooks(answer("{\"decision\": ")).unwrap(), "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!(broken.action, HookAction::Continue);
}

#[tokio::test]
async fn answers_in_amplifiers_shape_and_plain_context() {
    let native = r#"echo '{"action": "modify", "data": {"tool_input": {"text": "redacted"}}}'"#;
    let mounted = hooks(json!({"hooks": [{"event": "tool:pre", "command": native}]})).unwrap();
    let result = handle(&mounted, "tool:pre", tool_pre("echo", json!({"text": "secret"}))).await;
    assert_eq!(result.action, HookAction::Modify);
    let data = result.data.unwrap();
    assert_eq!((data["tool_input"].clone(), data["tool_name"].clone()), (json!({"text": "redacted"}), json!("echo")));

    let context = hooks(json!({"hooks": [
        {"event": "UserPromptSubmit", "command": "echo 'The build is green.'"},
        {"event": "prompt:submit", "command": "echo '{\"hookSpecificOutput\": {\"additionalContext\": \"Branch: main\"}}'"},
    ]}))
    .unwrap();
    let result = handle(&context, "prompt:submit", json!({"prompt": "hi"}).as_object().unwrap().clone()).await;
    assert_eq!(result.action, HookAction::InjectContext);
    assert_eq!(result.context_injection.as_deref(), Some("The build is green.\n\nBranch: main"));
}

#[tokio::test]
async fn matching_commands_run_together_and_the_first_denial_wins() {
    let dir = tempfile::tempdir().unwrap();
    // Each waits (up to 5 s) for the other to start: only together do both deny.
    let meet = |mine: &str, theirs: &str, name: &str| {
        let (mine, theirs) = (dir.path().join(mine), dir.path().join(theirs));
        format!(
            "touch {mine}; i=0; while [ ! -e {theirs} ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; [ -e {theirs} ] && {{ echo {name} >&2; exit 2; }}; exit 0",
            mine = mine.display(),
            theirs = theirs.display()
        )
    };
    let mounted = hooks(json!({"hooks": [
        {"event": "tool:pre", "command": meet("a", "b", "first")},
        {"event": "tool:pre", "command": meet("b", "a", "second")},
    ]}))
    .unwrap();
    let result = handle(&mounted, "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!((result.action, result.reason.as_deref()), (HookAction::Deny, Some("first")), "declared order wins");
}

#[test]
fn failures_say_what_went_wrong() {
    use amplifier_sandbox::process::{Ending, Finished};
    let ran = |ending, stdout: &str, stderr: &str| {
        answer::Ran::Finished(Finished { stdout: stdout.into(), stderr: stderr.into(), ending })
    };
    let read = |ran| answer::read(ran, "tool:pre", "check", Duration::from_millis(1500)).err().unwrap();
    assert_eq!(read(ran(Ending::Exited(7), "", "broken\nmore")), "hook command `check` exited with 7: broken");
    assert_eq!(read(ran(Ending::Exited(1), "", "")), "hook command `check` exited with 1");
    assert_eq!(
        read(ran(Ending::TimedOut, "", "")),
        "hook command `check` timed out after 1.5 s; its process group was killed"
    );
    assert!(read(ran(Ending::Exited(0), "{\"decision\": ", ""))
        .starts_with("hook command `check` printed JSON that does not parse"));
    assert!(read(ran(Ending::Exited(0), "{\"action\": \"explode\"}", ""))
        .starts_with("hook command `check` printed a HookResult that does not fit"));
    let missing = answer::Ran::NotStarted(std::io::Error::from(std::io::ErrorKind::NotFound));
    assert!(read(missing).starts_with("hook command `check` did not start"));
}

#[tokio::test]
async fn the_most_severe_message_sets_the_level() {
    let told = |level: &str| {
        format!(
            "echo '{{\"action\": \"continue\", \"user_message\": \"{level}\", \"user_message_level\": \"{level}\"}}'"
        )
    };
    let mounted = hooks(json!({"hooks": [
        {"event": "tool:pre", "command": told("info")},
        {"event": "tool:pre", "command": told("error")},
        {"event": "tool:pre", "command": told("warning")},
    ]}))
    .unwrap();
    let result = handle(&mounted, "tool:pre", tool_pre("bash", json!({}))).await;
    assert_eq!(result.user_message.as_deref(), Some("info\nerror\nwarning"));
    assert_eq!(result.user_message_level, MessageLevel::Error);
}

/// Found by the `hooks_file` fuzz target: a timeout too large for a
/// `Duration` panicked instead of being refused.
#[test]
fn a_timeout_too_large_is_refused_not_a_panic() {
    let file = r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true", "timeout": 1e300}]}]}}"#;
    let said = read_hooks_file_text(file).unwrap_err();
    assert!(said.contains("timeout") && said.contains("positive number of seconds"), "{said}");
    let plan = err(hooks(json!({"hooks": [{"event": "tool:pre", "command": "true", "timeout": 1e300}]})));
    assert!(plan.contains("timeout"), "{plan}");
    assert!(err(hooks(json!({"timeout": 1e300}))).contains("timeout"));
}
