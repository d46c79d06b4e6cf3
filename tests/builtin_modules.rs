//! The standard modules built into `amplifier`: a plan names them without a
//! `source`, the binary alone runs them, they behave as their cdylibs do,
//! and an env override, a plan's `source` or an installed module of the same
//! name wins over the built-in copy.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use serde_json::Value;

/// The scripted session of `mount-plans/scripted.yaml`, every module named
/// without a `source`, the events file inside `dir`.
fn plan_by_name(dir: &Path) -> String {
    let shipped = std::fs::read_to_string(workspace().join("mount-plans/scripted.yaml")).unwrap();
    assert!(!shipped.contains("source:"), "the shipped scripted plan names its modules without a source");
    shipped.replace(".amplifier/scripted-events.jsonl", &dir.join("events.jsonl").display().to_string())
}

#[test]
fn the_binary_alone_runs_a_plan_of_standard_modules_named_without_sources() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.yaml"), plan_by_name(dir.path())).unwrap();
    let output = copied_binary(dir.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "json", "say hello"])
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["response"], "The echo tool answered: hello from a tool. Everything is wired up.");
    // Nothing was built: no plugin cache, no cargo.
    assert!(!dir.path().join("home/cache/plugins").exists(), "a plugin was built");
    // hooks-logging, built in, wrote its events.
    let events = std::fs::read_to_string(dir.path().join("events.jsonl")).unwrap();
    assert!(events.lines().any(|l| l.contains("\"tool:post\"")), "{events}");
}

/// Event data with what differs between any two runs taken out: times, ids
/// and durations.
fn comparable(mut event: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|key, _| {
                    !matches!(key.as_str(), "timestamp" | "session_id" | "parent_id")
                        && !key.ends_with("_ms")
                        && !key.ends_with("duration")
                });
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut event);
    event
}

#[test]
fn built_in_and_cdylib_modules_emit_the_same_events() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.yaml"), plan_by_name(dir.path())).unwrap();
    let run = |as_cdylibs: bool| -> Vec<Value> {
        let mut command = amplifier(dir.path());
        command.args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "say hello"]);
        if as_cdylibs {
            for module in ["loop-basic", "context-simple", "provider-scripted", "tool-echo", "hooks-logging"] {
                command.env(format!("AMPLIFIER_MODULE_{}", module.to_uppercase().replace('-', "_")), plugin(module));
            }
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "cdylibs: {as_cdylibs}; stderr:\n{}", stderr(&output));
        json_lines(&output).into_iter().map(comparable).collect()
    };
    let (built_in, cdylib) = (run(false), run(true));
    assert!(event_names(&built_in).contains(&"tool:post".to_owned()));
    assert_eq!(event_names(&built_in), event_names(&cdylib));
    for (a, b) in built_in.iter().zip(&cdylib) {
        assert_eq!(a, b, "the same event, built in and as a cdylib");
    }
}

/// The defaults of a module's `amplifier.toml` are the only place its
/// literal defaults are written: the loader fills them in for the keys a
/// plan leaves out, whether the module is built in or a cdylib.
#[test]
fn a_key_the_plan_leaves_out_gets_the_manifests_default_built_in_or_as_a_cdylib() {
    let dir = tempfile::tempdir().unwrap();
    for as_cdylib in [false, true] {
        let log = dir.path().join(format!("requests-{as_cdylib}.jsonl"));
        let plan = format!(
            "session:\n  orchestrator: {{module: loop-basic}}\n  context: {{module: context-simple}}\n\
             providers:\n  - module: provider-scripted\n    config: {{requests_log: \"{}\", script: [{{text: done}}]}}\n\
             tools:\n  - module: tool-bash\n    config: {{max_output_chars: 1234}}\n",
            log.display()
        );
        std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
        let mut command = amplifier(dir.path());
        command.args(["run", "--plan", "plan.yaml", "hi"]);
        if as_cdylib {
            command.env("AMPLIFIER_MODULE_TOOL_BASH", plugin("tool-bash"));
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "cdylib: {as_cdylib}; stderr:\n{}", stderr(&output));
        let request: Value =
            serde_json::from_str(std::fs::read_to_string(&log).unwrap().lines().next().unwrap()).unwrap();
        let bash = request["tools"].as_array().unwrap().iter().find(|t| t["name"] == "bash").unwrap().clone();
        // max_timeout, left out: plugins/tool-bash/amplifier.toml's `default = 600`.
        assert_eq!(bash["parameters"]["properties"]["timeout"]["maximum"].as_f64(), Some(600.0), "{bash}");
        // max_output_chars, given: the plan's.
        assert!(bash["description"].as_str().unwrap().contains("at most 1234 characters"), "{bash}");
    }
}

/// The `module list --plan` row of `module`: where it resolved, and by which resolver.
fn resolved(output: &Output, module: &str) -> String {
    let text = stdout(output);
    let plan_rows = text.split_once("Modules of ").map(|(_, rows)| rows).unwrap_or_default();
    plan_rows
        .lines()
        .find(|l| l.split_whitespace().next() == Some(module))
        .unwrap_or_else(|| panic!("no row for {module}:\n{text}\nstderr:\n{}", stderr(output)))
        .to_owned()
}

#[test]
fn an_env_override_beats_a_source_beats_an_installed_module_beats_the_built_in() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let list = |plan: &str, env: Option<PathBuf>| -> String {
        std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
        let mut command = amplifier(dir.path());
        command.env("AMPLIFIER_HOME", &home).args(["module", "list", "--plan", "plan.yaml"]);
        if let Some(path) = env {
            command.env("AMPLIFIER_MODULE_TOOL_ECHO", path);
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "stderr:\n{}", stderr(&output));
        resolved(&output, "tool-echo")
    };
    let by_name = plan_by_name(dir.path());
    let sourced = by_name
        .replace("- module: tool-echo", &format!("- module: tool-echo\n    source: \"{}\"", plugin("tool-echo")));
    assert_ne!(by_name, sourced);

    // 1. Nothing else: the built-in module.
    assert!(list(&by_name, None).ends_with("(builtin)"), "{}", list(&by_name, None));

    // 2. Installed: it wins over the built-in.
    let install = amplifier(dir.path())
        .env("AMPLIFIER_HOME", &home)
        .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
        .args(["module", "install", &plugin("tool-echo")])
        .output()
        .unwrap();
    assert!(install.status.success(), "stderr:\n{}", stderr(&install));
    let row = list(&by_name, None);
    assert!(row.ends_with("(installed)") && row.contains(&home.display().to_string()), "{row}");

    // 3. The plan's source wins over the installed module.
    let row = list(&sourced, None);
    assert!(row.ends_with("(plan)"), "{row}");

    // 4. The environment wins over the plan's source.
    let row = list(&sourced, Some(PathBuf::from(plugin("tool-echo"))));
    assert!(row.ends_with("(env)") && row.contains("AMPLIFIER_MODULE_TOOL_ECHO"), "{row}");

    // And a run says which one it used.
    std::fs::write(dir.path().join("plan.yaml"), &by_name).unwrap();
    let output = amplifier(dir.path())
        .env("AMPLIFIER_HOME", &home)
        .args(["-v", "run", "--plan", "plan.yaml", "hi"])
        .output()
        .unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let log = stderr(&output);
    let line = |module: &str| {
        log.lines().find(|l| l.contains("loaded") && l.contains(&format!("module={module} "))).map(str::to_owned)
    };
    assert!(line("tool-echo").is_some_and(|l| l.contains(&home.display().to_string())), "{log}");
    assert!(line("loop-basic").is_some_and(|l| l.contains("code=built-in")), "{log}");
}

#[test]
fn module_list_shows_the_built_in_modules_with_their_versions() {
    let dir = tempfile::tempdir().unwrap();
    let output = copied_binary(dir.path()).args(["module", "list"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    let text = stdout(&output);
    let built_in = text.split_once("Built-in modules").map(|(_, rest)| rest).unwrap_or_else(|| panic!("{text}"));
    for module in ["loop-basic", "context-simple", "provider-openai", "tool-bash", "hooks-streaming-ui"] {
        let row = built_in.lines().find(|l| l.split_whitespace().next() == Some(module));
        assert!(row.is_some_and(|r| r.contains("0.1.0") && r.ends_with("built-in")), "{module}:\n{text}");
    }
}

#[test]
fn run_without_a_plan_takes_the_plan_setting_else_the_default_plan() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("scripted.yaml"), plan_by_name(dir.path())).unwrap();
    let output =
        copied_binary(dir.path()).env("AMPLIFIER_PLAN", "scripted.yaml").args(["run", "say hello"]).output().unwrap();
    assert!(output.status.success(), "stderr:\n{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "The echo tool answered: hello from a tool. Everything is wired up.");

    // No setting: the default plan, written into AMPLIFIER_HOME so that sessions can name it.
    let default_plan = dir.path().join("home/default-plan.yaml");
    let _ = copied_binary(dir.path()).args(["run", "--offline", "say hello"]).output().unwrap();
    let written = std::fs::read_to_string(&default_plan).expect("the default plan was written");
    let default = amplifier_plan::parse_plan_str(&written, None).expect("the default plan parses").plan;
    assert_eq!(default.providers[0].module, "provider-local");
    let specs = [&default.session.orchestrator, &default.session.context]
        .into_iter()
        .chain(&default.providers)
        .chain(&default.tools)
        .chain(&default.hooks);
    assert!(specs.into_iter().all(|spec| spec.source.is_none()), "every module built in: {written}");
    // The standard tools, with safe defaults: read-only.
    assert_eq!(default.tools[0].module, "tool-filesystem");
    assert_eq!(default.tools[0].config["allowed_write_paths"], serde_json::json!([]));

    // `init` writes the same plan to edit, and never over a file.
    let init = copied_binary(dir.path()).arg("init").output().unwrap();
    assert!(init.status.success(), "stderr:\n{}", stderr(&init));
    assert_eq!(std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap(), written);
    let again = copied_binary(dir.path()).arg("init").output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("plan.yaml exists already"), "{}", stderr(&again));
}
