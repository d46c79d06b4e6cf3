//! tool-skills end to end: skills in `.amplifier/skills` are offered to the
//! model in the `load_skill` tool's description, the model loads one, and
//! the REPL's `/skills` and `/skill NAME` reach the same skills.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

fn write_skill(dir: &Path) {
    let skill = dir.join(".amplifier/skills/release-notes");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: release-notes\ndescription: Writes release notes from a changelog. Use when asked for release notes.\n---\n\n# Release notes\n\nGroup the changes under Added, Fixed and Removed.\n",
    )
    .unwrap();
}

/// The requests the model got, from the scripted provider's log.
fn requests(dir: &Path) -> Vec<Value> {
    let log = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    log.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn the_model_is_offered_the_projects_skills_and_loads_one() {
    let dir = tempfile::tempdir().unwrap();
    write_skill(dir.path());
    let provider = format!(
        "  - module: provider-scripted\n    source: \"{}\"\n    config: {{requests_log: \"{}\", script: [{{tool_calls: [{{name: load_skill, arguments: {{skill_name: release-notes}}}}]}}, {{text: done}}]}}\n",
        plugin("provider-scripted"),
        dir.path().join("requests.jsonl").display()
    );
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "  - {module: tool-skills}", "  []")).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "write the notes"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));

    let requests = requests(dir.path());
    let tools = requests[0]["tools"].as_array().expect("tools in the request");
    let load_skill = tools.iter().find(|tool| tool["name"] == "load_skill").expect("load_skill is offered");
    let description = load_skill["description"].as_str().unwrap();
    assert!(
        description.contains("- release-notes: Writes release notes from a changelog."),
        "the skill's name and description are offered: {description}"
    );
    let messages = requests[1]["messages"].as_array().unwrap();
    let result = messages.iter().rev().find(|m| m["role"] == "tool").expect("a tool result")["content"].to_string();
    assert!(result.contains("Group the changes under Added, Fixed and Removed."), "{result}");
    assert!(result.contains(".amplifier/skills/release-notes"), "the skill's directory: {result}");
}

#[test]
fn without_skills_no_tool_is_mounted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("plan.yaml"),
        plan_yaml(&scripted("[{text: done}]"), "  - {module: tool-skills}", "  []"),
    )
    .unwrap();
    let output = amplifier(dir.path()).args(["tool", "list", "--plan", "plan.yaml"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("echo") && !stdout(&output).contains("load_skill"), "{}", stdout(&output));
}
