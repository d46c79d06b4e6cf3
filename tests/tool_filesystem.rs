//! `tool-filesystem` end to end: the real binary loads the plugin, a scripted
//! provider calls its tools, and the path policy holds.

mod common;

use common::*;

/// `- {module: tool-filesystem, …}` with the given flow-style `config`.
fn filesystem_tool(config: &str) -> String {
    format!("  - {{module: tool-filesystem, source: \"{}\", config: {config}}}", plugin("tool-filesystem"))
}

#[test]
fn write_read_edit_then_an_escape_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let root = base.join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(base.join("outside.txt"), "top secret\n").unwrap();
    let script = r#"[
      {tool_calls: [{name: write_file, arguments: {file_path: "notes/todo.txt", content: "alpha\nbeta\ngamma\n"}}]},
      {tool_calls: [{name: read_file, arguments: {file_path: "notes/todo.txt"}}]},
      {tool_calls: [{name: edit_file, arguments: {file_path: "notes/todo.txt", old_string: "beta", new_string: "BETA"}}]},
      {tool_calls: [{name: read_file, arguments: {file_path: "notes/todo.txt", offset: 2, limit: 1}}]},
      {tool_calls: [{name: read_file, arguments: {file_path: "../outside.txt"}}]},
      {text: "all done"}]"#
        .replace('\n', " ");
    let config = format!("{{working_dir: \"{}\", allowed_read_paths: null}}", root.display());
    let output = run_plan(&base, &plan_yaml(&scripted(&script), &filesystem_tool(&config), "  []"));
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);

    assert_eq!(std::fs::read_to_string(root.join("notes/todo.txt")).unwrap(), "alpha\nBETA\ngamma\n");

    let wrote = &tool_event(&lines, "call_1")["data"];
    assert_eq!(wrote["result"]["output"], "Created `notes/todo.txt` (17 bytes)");
    let read = &tool_event(&lines, "call_2")["data"];
    assert_eq!(read["tool_name"], "read_file");
    assert_eq!(
        read["result"]["output"],
        "     1\talpha\n     2\tbeta\n     3\tgamma\n[`notes/todo.txt`: lines 1-3 of 3]"
    );
    let edited = &tool_event(&lines, "call_3")["data"];
    assert_eq!(edited["result"]["output"], "Edited `notes/todo.txt`: 1 replacement");
    let reread = &tool_event(&lines, "call_4")["data"];
    assert_eq!(
        reread["result"]["output"],
        "     2\tBETA\n[`notes/todo.txt`: lines 2-2 of 3; output cut, 1 more line: continue with offset=3]"
    );

    let escape = tool_event(&lines, "call_5");
    assert_eq!(escape["event"], "tool:post", "the tool's own refusal");
    assert_eq!(escape["data"]["result"]["error"]["type"], "AccessDenied");
    let message = escape["data"]["result"]["output"].as_str().unwrap();
    assert_eq!(
        message,
        format!(
            "`../outside.txt` (resolves to `{}`) is outside the allowed read paths ({})",
            base.join("outside.txt").display(),
            root.display()
        )
    );
    assert!(!stdout(&output).contains("top secret"), "the outside file's content never reaches the model");
    assert_eq!(lines.last().unwrap()["data"]["response"], "all done");
}

#[test]
fn glob_grep_and_denied_paths_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let root = base.join("work");
    for (path, content) in [
        (".gitignore", "target/\n"),
        ("src/main.rs", "fn main() {}\n"),
        ("target/gen.rs", "fn main() {}\n"),
        ("secrets/key.rs", "fn main() {}\n"),
    ] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), content).unwrap();
    }
    let script = r#"[
      {tool_calls: [{name: glob, arguments: {pattern: "**/*.rs"}}, {name: grep, arguments: {pattern: "fn main"}}]},
      {tool_calls: [{name: read_file, arguments: {file_path: "secrets/key.rs"}}]},
      {text: "searched"}]"#
        .replace('\n', " ");
    // working_dir is relative to the process's directory (where amplifier runs).
    let output = run_plan(
        &base,
        &plan_yaml(&scripted(&script), &filesystem_tool("{working_dir: work, denied_paths: [secrets]}"), "  []"),
    );
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(tool_event(&lines, "call_1")["data"]["result"]["output"], "src/main.rs");
    assert_eq!(tool_event(&lines, "call_2")["data"]["result"]["output"], "src/main.rs:1:fn main() {}");
    let denied = tool_event(&lines, "call_3");
    assert_eq!(denied["event"], "tool:post");
    assert_eq!(denied["data"]["result"]["success"], false);
    let message = denied["data"]["result"]["output"].as_str().unwrap();
    assert!(message.contains("is inside a denied path") && message.contains("from denied_paths"), "{message}");
}

#[test]
fn a_bad_config_fails_the_load_and_names_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    let tool = filesystem_tool(&format!("{{working_dir: \"{}\"}}", missing.display()));
    let output = run_plan(dir.path(), &plan_yaml(&scripted(r#"[{text: "x"}]"#), &tool, "  []"));
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("tool-filesystem") && err.contains("working_dir") && err.contains("no-such-dir"), "{err}");

    let tool = filesystem_tool("{max_file_bytes: lots}");
    let output = run_plan(dir.path(), &plan_yaml(&scripted(r#"[{text: "x"}]"#), &tool, "  []"));
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("tools[1].config.max_file_bytes"), "{err}");
}
