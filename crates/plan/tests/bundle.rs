//! Bundle composition follows upstream's `Bundle.compose`: includes in
//! order, the including bundle last; maps deep-merged, lists concatenated
//! without repeats, modules merged by `id` or `module`, an agent replaced
//! whole, the last non-empty body the instruction.

use std::path::Path;

use amplifier_plan::parse_plan_file;

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn includes_compose_in_order_under_the_including_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    write(
        dir,
        "base.yaml",
        "bundle: {name: base}\n\
         session:\n  orchestrator: {module: loop-basic, config: {max_iterations: 5, stop: [a]}}\n  context: context-simple\n\
         tools:\n  - {module: tool-bash, config: {timeout: 10, allowed_commands: [ls]}}\n  - {id: second-echo, module: tool-echo}\n\
         agents:\n  helper: {description: base helper}\n\
         spawn: {exclude_tools: [tool-task]}\n",
    );
    write(
        dir,
        "more.md",
        "---\nbundle: {name: more}\ntools:\n  - {module: tool-bash, config: {allowed_commands: [ls, cat]}}\n  - {module: tool-web}\n---\nThe included body.\n",
    );
    write(
        dir,
        "top.md",
        "---\nbundle: {name: top}\nincludes:\n  - ./base.yaml\n  - bundle: ./more.md\n\
         session:\n  orchestrator: {config: {stop: [b]}}\n\
         tools:\n  - {id: second-echo, module: tool-echo, config: {prefix: x}}\n\
         providers: [{module: provider-scripted, source: ./providers/scripted}]\n\
         agents:\n  helper: {system: {instruction: replaced}}\n\
         spawn: {exclude_tools: [tool-web]}\n---\n",
    );
    let parsed = parse_plan_file(&dir.join("top.md")).unwrap_or_else(|err| panic!("{err}"));
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    assert_eq!(parsed.bundle.as_deref(), Some("top"));
    let plan = parsed.plan;

    let orchestrator = &plan.session.orchestrator;
    assert_eq!(orchestrator.module, "loop-basic");
    assert_eq!(orchestrator.config["max_iterations"], 5);
    assert_eq!(orchestrator.config["stop"], serde_json::json!(["a", "b"]), "lists concatenate");

    let tools: Vec<(&str, &serde_json::Map<String, serde_json::Value>)> =
        plan.tools.iter().map(|t| (t.module.as_str(), &t.config)).collect();
    assert_eq!(tools.iter().map(|t| t.0).collect::<Vec<_>>(), ["tool-bash", "tool-echo", "tool-web"]);
    assert_eq!(tools[0].1["timeout"], 10);
    assert_eq!(tools[0].1["allowed_commands"], serde_json::json!(["ls", "cat"]), "without repeats");
    assert_eq!(tools[1].1["prefix"], "x", "merged by id");

    // A relative source is made absolute from the bundle that wrote it.
    let source = plan.providers[0].source.as_deref().unwrap();
    assert_eq!(Path::new(source), dir.canonicalize().unwrap().join("providers/scripted"));

    assert_eq!(plan.agents["helper"], serde_json::json!({"system": {"instruction": "replaced"}}), "replaced whole");
    assert_eq!(plan.spawn.exclude_tools, ["tool-task", "tool-web"]);
    // top.md has no body: the last body composed is the instruction.
    assert_eq!(plan.system.unwrap().instruction, "The included body.");
}

#[test]
fn a_plain_plan_may_set_its_system_prompt() {
    let text = "session: {orchestrator: loop-basic, context: context-simple}\nsystem: {instruction: \"Be brief, ${NOT_EXPANDED}\"}\n";
    let parsed = amplifier_plan::parse_plan_str(text, None).unwrap();
    assert_eq!(parsed.plan.system.unwrap().instruction, "Be brief, ${NOT_EXPANDED}");
}

#[test]
fn the_compiled_plan_keeps_references_plain_so_they_are_typed_when_expanded() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "b.yaml",
        "bundle: {name: b}\nsession: {orchestrator: loop-basic, context: context-simple}\n\
         providers:\n  - module: provider-scripted\n    config:\n      priority: ${PRIORITY:-3}\n      note: \"${QUOTED:-q}\"\n",
    );
    let (yaml, _) = amplifier_plan::compile_bundle(&dir.path().join("b.yaml"), &amplifier_plan::bundle::NoFetcher)
        .unwrap_or_else(|err| panic!("{err}"));
    assert!(yaml.contains("priority: ${PRIORITY:-3}\n"), "{yaml}");
    assert!(yaml.contains("note: \"${QUOTED:-q}\""), "a quoted one stays quoted: {yaml}");
    let parsed = amplifier_plan::parse_plan_str_with_env(&yaml, None, &|name| (name == "QUOTED").then(|| "q".into()))
        .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(parsed.plan.providers[0].config["priority"], 3, "an integer, as in the bundle");
}
