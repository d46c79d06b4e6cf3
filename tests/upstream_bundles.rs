//! Upstream Amplifier's bundles: `amplifier bundle compile` and
//! `amplifier run --bundle`, on a bundle in the shape of upstream's
//! foundation (`tests/bundles/foundation`): an include by namespace (which
//! includes another), one by relative path, one from a real git repository
//! whose behavior names its root bundle's namespace, an agent file, a
//! context file and an `@mention`.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use serde_json::Value;

/// The fixture bundles copied into `dir`, the notes repository made a git
/// repository with a `main` branch, and the notes the agent reads.
fn foundation(dir: &Path) {
    for name in ["foundation", "notes-repo"] {
        copy_dir(&workspace().join("tests/bundles").join(name), &dir.join(name));
    }
    let repo = dir.join("notes-repo");
    for args in [&["init", "-q", "-b", "main"][..], &["add", "."], &["commit", "-q", "-m", "notes"]] {
        let status = Command::new("git")
            .args(args)
            .current_dir(&repo)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }
    std::fs::write(dir.join("notes.txt"), "buy milk\n").unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn requests(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn a_foundation_shaped_bundle_compiles_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    foundation(&dir);
    let output = amplifier(&dir)
        .args(["run", "--bundle", "foundation", "--output-format", "jsonl", "What do the notes say?"])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(err.is_empty(), "the bundle compiles without a warning: {err}");
    let lines = json_lines(&output);
    assert_eq!(lines.last().unwrap()["data"]["response"], "The explorer says the notes ask for milk.");

    // The system prompt: the including bundle's body, then the context
    // files (the git behavior's, by its root bundle's namespace, then the
    // bundle's own) and what the body mentions, in upstream's format.
    let parent = requests(&dir.join("parent-requests.jsonl"));
    let messages = parent[0]["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    let prompt = messages[0]["content"].as_str().unwrap();
    let (body, files) = prompt.split_once("\n\n---\n\n").unwrap_or_else(|| panic!("no context: {prompt}"));
    assert_eq!(
        body,
        "# Foundation Bundle\n\nYou are a careful assistant. Read the notes before you answer.\n\n\
         @foundation:context/house-rules.md"
    );
    let blocks: Vec<&str> = files.split("\n\n<context_file").collect();
    assert_eq!(blocks.len(), 3, "{files}");
    assert!(blocks[0].starts_with("<context_file paths=\"notes:context/notes-guide.md → "), "{}", blocks[0]);
    assert!(blocks[0].contains("/cache/git/checkouts/notes-repo-"), "from the git checkout: {}", blocks[0]);
    assert!(
        blocks[0].ends_with("/context/notes-guide.md\">\nNotes live in notes.txt, one per line.\n\n</context_file>")
    );
    let foundation = dir.join("foundation");
    assert_eq!(
        blocks[1],
        format!(
            " paths=\"foundation:context/shared/common-system-base.md → {}\">\n# Primary Core Instructions\n\n\
             Say what you did, and what you did not do.\n\n</context_file>",
            foundation.join("context/shared/common-system-base.md").display()
        )
    );
    assert!(blocks[2].starts_with(" paths=\"@foundation:context/house-rules.md → "), "{}", blocks[2]);
    assert_eq!(messages[1]["content"], "What do the notes say?");

    // The tools come from the bundle, the provider from the relative
    // include; the hooks of the namespaced include and the one it includes
    // merged into one hooks-logging, which wrote where its config says.
    let tools: Vec<&str> = parent[0]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(tools.contains(&"task") && tools.contains(&"read_file"), "{tools:?}");
    let events =
        std::fs::read_to_string(dir.join("events.jsonl")).expect("hooks-logging's path from behaviors/logging");
    assert!(events.contains("\"session:start\""));
    assert!(!events.contains("llm:stream_"), "exclude_events from behaviors/sessions");

    // The agent ran with its file's provider and its body as its system
    // message, the mentioned file before it (upstream's agent layout).
    let explorer = requests(&dir.join("explorer-requests.jsonl"));
    let system = explorer[0]["messages"][0]["content"].as_str().unwrap();
    assert_eq!(
        system,
        format!(
            "<context_file paths=\"@foundation:context/house-rules.md → {}\">\nHouse rule: quote the notes exactly.\n\n\
             </context_file>\n\n# Explorer\n\nYou explore before you answer. @foundation:context/house-rules.md",
            foundation.join("context/house-rules.md").display()
        )
    );
    assert_eq!(explorer[0]["messages"][1]["content"], "What do the notes say?");

    // `bundle compile` prints the same plan: run as a plan file, it asks
    // the model the same things.
    let compiled = amplifier(&dir).args(["bundle", "compile", "foundation"]).output().unwrap();
    assert!(compiled.status.success(), "{}", stderr(&compiled));
    let yaml = stdout(&compiled);
    assert!(yaml.contains("\"foundation:explorer\":"), "{yaml}");
    std::fs::write(dir.join("compiled.yaml"), &yaml).unwrap();
    std::fs::remove_file(dir.join("parent-requests.jsonl")).unwrap();
    let rerun = amplifier(&dir).args(["run", "--plan", "compiled.yaml", "What do the notes say?"]).output().unwrap();
    assert!(rerun.status.success(), "{}", stderr(&rerun));
    assert_eq!(stdout(&rerun).trim(), "The explorer says the notes ask for milk.");
    let again = requests(&dir.join("parent-requests.jsonl"));
    assert_eq!(again[0]["messages"], parent[0]["messages"]);
}

#[test]
fn a_resumed_bundle_session_keeps_one_system_message() {
    let dir = tempfile::tempdir().unwrap();
    foundation(dir.path());
    let first = amplifier(dir.path()).args(["run", "-B", "foundation/bundle.md", "first"]).output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    let second = amplifier(dir.path()).args(["continue", "second"]).output().unwrap();
    assert!(second.status.success(), "{}", stderr(&second));
    let parent = requests(&dir.path().join("parent-requests.jsonl"));
    let last = parent.last().unwrap()["messages"].as_array().unwrap();
    let systems = last.iter().filter(|m| m["role"] == "system").count();
    assert_eq!(systems, 1, "{last:?}");
    assert!(last.iter().any(|m| m["content"] == "first") && last.iter().any(|m| m["content"] == "second"));
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn bundle_errors_name_the_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    write(
        dir,
        "top.md",
        "---\nbundle: {name: top}\nincludes:\n  - ./middle.yaml\nsession: {orchestrator: loop-basic, context: context-simple}\n\
         providers: [{module: provider-scripted}]\n---\nHello @top:missing.md\n",
    );
    write(
        dir,
        "middle.yaml",
        "bundle: {name: middle}\nincludes:\n  - bundle: top:top.md\nhooks:\n  - {module: hooks-logging, confg: {}}\n",
    );
    // A cycle and an unknown key are warnings, each at its line.
    let output = amplifier(dir).args(["bundle", "compile", "top.md"]).output().unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "warning: top.md:8:1: body: `@top:missing.md` names no file; it stays in the prompt as written",
            "warning: middle.yaml:3:13: includes[0].bundle: include cycle: top.md → middle.yaml → top.md; this include is skipped",
            "warning: middle.yaml:5:29: hooks[0].confg: unknown key `confg` is ignored; did you mean `config`? known keys: module, source, config, instance_id, isolation",
        ]
        .map(|line| line.replace("top.md → middle.yaml → top.md", &cycle(dir))),
        "{err}"
    );
    // --strict refuses them.
    let strict = amplifier(dir).args(["bundle", "compile", "--strict", "top.md"]).output().unwrap();
    assert_eq!(strict.status.code(), Some(2), "{}", stderr(&strict));
    assert!(stderr(&strict).starts_with("error: top.md:8:1:"), "{}", stderr(&strict));

    // An unknown namespace and a missing agent are errors, with a hint.
    write(
        dir,
        "middle.yaml",
        "bundle: {name: middle}\nincludes:\n  - elsewhere:behaviors/x\nagents:\n  include: [ghost]\n",
    );
    let output = amplifier(dir).args(["run", "--bundle", "top.md", "hi"]).output().unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("error: middle.yaml:3:5: includes[0]: unknown namespace `elsewhere` in `elsewhere:behaviors/x`\n  hint: a namespace is the `bundle.name` of a bundle read before this include; known: top, middle"), "{err}");
    assert!(err.contains("error: middle.yaml:5:13: agents.include: agent `ghost`: cannot read "), "{err}");
}

/// How the cycle's files are named: each with its directory.
fn cycle(dir: &Path) -> String {
    let parent = dir.canonicalize().unwrap();
    let name = parent.file_name().unwrap().to_string_lossy().into_owned();
    format!("{name}/top.md → {name}/middle.yaml → {name}/top.md")
}

#[test]
fn a_merged_configs_unknown_key_is_named_in_the_file_that_wrote_it() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    write(
        dir,
        "base.yaml",
        "bundle: {name: base}\nproviders:\n  - module: provider-scripted\n    config: {priority: 1}\n",
    );
    write(
        dir,
        "top.yaml",
        "bundle: {name: top}\nincludes: [./base.yaml]\nsession: {orchestrator: loop-basic, context: context-simple}\n\
         providers:\n  - module: provider-scripted\n    config: {script: [{text: hi}], prioirty: 2}\n",
    );
    let output = amplifier(dir).args(["run", "--bundle", "top.yaml", "hi"]).output().unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(
        err.contains("warning: top.yaml:6:36: providers[0].config.prioirty: unknown key `prioirty`"),
        "the key is in top.yaml, though the entry began in base.yaml: {err}"
    );
}
