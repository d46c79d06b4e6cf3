//! `amplifier module …` end to end: validate real plugins and broken
//! fixtures, scaffold every kind and validate the result, install / list /
//! show / remove, and a resolver plugin named in a plan. Refresh the
//! snapshot with `SNAPSHOTS=overwrite cargo test --test module_commands`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use serde_json::Value;
use snapbox::cmd::Command;
use snapbox::str;

/// `amplifier module validate ARGS --output json`: the exit code and the report.
fn validate_json(cwd: &Path, args: &[&str]) -> (i32, Value, Output) {
    let output = amplifier(cwd).args(["module", "validate", "--output", "json"]).args(args).output().unwrap();
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("not a JSON report ({err}):\n{}\nstderr:\n{}", stdout(&output), stderr(&output)));
    (output.status.code().unwrap_or(-1), report, output)
}

/// The check named `name` (the first one).
fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no check {name} in {report:#}"))
}

fn failed_checks(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["passed"] == false)
        .map(|c| format!("{} [{}]: {}", c["name"], c["severity"], c["message"]))
        .collect()
}

#[test]
fn validate_prints_one_line_per_check_and_a_summary() {
    Command::new(env!("CARGO_BIN_EXE_amplifier"))
        .current_dir(workspace())
        .env("AMPLIFIER_HOME", amplifier_home())
        .env_remove("AMPLIFIER_MODULES")
        .args(["module", "validate", "plugins/tool-echo"])
        .assert()
        .code(0)
        .stdout_eq(str![[r#"
✓ manifest_present: amplifier.toml found
✓ manifest_valid: tool-echo 0.1.0, kinds [tool]; config_schema is a valid JSON Schema
✓ build: built libtool_echo[..]
✓ abi_version: plugin ABI 1.0, protocol 1 (amplifier-sdk 0.1.0)
✓ kind_matches: exports tool, as amplifier.toml declares
✓ mount_default_config: mounted with config {}
✓ mount_invalid_config: refused the unknown key `validate_unknown_key`: tool-echo.config.validate_unknown_key: unknown key `validate_unknown_key` for module 'tool-echo' (it takes none) (schema: [..]/plugins/tool-echo/amplifier.toml; without --strict an unknown key is a warning)
✓ tool_name: `echo`
✓ tool_description: `echo`: "Returns the given text unchanged. Use it to test tool ca…
✓ tool_input_schema: `echo`: a valid JSON Schema
✓ tool_execute: `echo` answered {"text":"validate"} with success: "validate"
✓ tool_invalid_input: `echo`: the host refuses an input without the required `text`; called directly, the tool returns success
tool module plugins/tool-echo: valid (12 of 12 checks passed)

"#]]);
}

#[test]
fn validate_json_has_upstreams_shape() {
    let (code, report, _) = validate_json(&workspace(), &["plugins/tool-echo"]);
    assert_eq!(code, 0);
    assert_eq!(report["module_type"], "tool");
    assert_eq!(report["module_path"], "plugins/tool-echo");
    assert_eq!(report["passed"], true);
    for check in report["checks"].as_array().unwrap() {
        let keys: Vec<&str> = check.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 4, "{check}");
        assert!(check["name"].is_string() && check["passed"].is_boolean() && check["message"].is_string());
        assert!(["error", "warning", "info"].contains(&check["severity"].as_str().unwrap()), "{check}");
    }
}

#[test]
fn the_standard_plugins_pass_behavioral_validation() {
    let plugins = [
        "provider-scripted",
        "hooks-logging",
        "hooks-streaming-ui",
        "hooks-command",
        "context-simple",
        "loop-basic",
        "loop-streaming",
    ];
    for plugin in plugins {
        let path = format!("plugins/{plugin}");
        let (code, report, output) = validate_json(&workspace(), &[&path, "--behavioral"]);
        assert_eq!(code, 0, "{plugin}: {:#?}\nstderr:\n{}", failed_checks(&report), stderr(&output));
        let names: Vec<&str> =
            report["checks"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        let expected: &[&str] = match plugin {
            "provider-scripted" => &[
                "provider_get_info",
                "provider_list_models",
                "provider_complete",
                "provider_parse_tool_calls",
                "provider_stream",
            ],
            "hooks-logging" | "hooks-streaming-ui" | "hooks-command" => &["hook_subscriptions", "hook_call"],
            "context-simple" => &[
                "context_round_trip",
                "context_clear",
                "context_set_messages",
                "context_compaction",
                "context_many_messages",
            ],
            _ => &["orchestrator_execute", "orchestrator_tool_loop"],
        };
        for name in expected {
            assert!(names.contains(name), "{plugin}: no {name} in {names:?}");
        }
    }
}

#[test]
fn a_routing_orchestrator_passes_validation_through_an_agent() {
    let (code, report, output) = validate_json(&workspace(), &["plugins/orchestrator-router"]);
    assert_eq!(code, 0, "{:#?}\nstderr:\n{}", failed_checks(&report), stderr(&output));
    let execute = report["checks"].as_array().unwrap().iter().find(|c| c["name"] == "orchestrator_execute").unwrap();
    assert!(execute["message"].as_str().unwrap().contains("router:selected"), "{execute}");
}

#[test]
fn validate_fails_a_tool_that_panics() {
    let (code, report, _) = validate_json(&workspace(), &["tests/fixtures/tool-panics"]);
    assert_eq!(code, 1);
    assert_eq!(report["passed"], false);
    for name in ["tool_execute", "tool_invalid_input"] {
        let check = check(&report, name);
        assert_eq!(check["passed"], false, "{check}");
        assert_eq!(check["severity"], "error");
        assert!(check["message"].as_str().unwrap().contains("panicked"), "{check}");
    }
    assert_eq!(check(&report, "mount_default_config")["passed"], true, "the host survived the panics");
}

#[test]
fn validate_runs_a_modules_on_session_ready() {
    let (_, report, _) = validate_json(&workspace(), &["tests/fixtures/tool-dynamic"]);
    let ready = check(&report, "on_session_ready");
    assert_eq!(ready["passed"], true, "{ready}");
    // A module without one has no such check.
    let (_, report, _) = validate_json(&workspace(), &["tests/fixtures/tool-panics"]);
    assert!(!report["checks"].as_array().unwrap().iter().any(|c| c["name"] == "on_session_ready"), "{report:#}");
}

#[test]
fn validate_fails_an_invalid_input_schema() {
    let (code, report, _) = validate_json(&workspace(), &["tests/fixtures/tool-bad-schema"]);
    assert_eq!(code, 1);
    let schema = check(&report, "tool_input_schema");
    assert_eq!(schema["passed"], false);
    assert_eq!(schema["severity"], "error");
    assert!(schema["message"].as_str().unwrap().contains("not a valid JSON Schema"), "{schema}");
}

#[test]
fn validate_fails_the_wrong_kind() {
    let (code, report, _) = validate_json(&workspace(), &["plugins/tool-echo", "--kind", "provider"]);
    assert_eq!(code, 1);
    assert_eq!(report["module_type"], "provider");
    let kind = check(&report, "kind_matches");
    assert_eq!(kind["passed"], false);
    assert!(kind["message"].as_str().unwrap().contains("exports kinds [tool]"), "{kind}");
}

#[test]
fn validate_fails_a_module_without_a_manifest_and_a_wrong_abi() {
    // A built library alone in a directory: no amplifier.toml beside it.
    let (code, _, output) = validate_json(&workspace(), &["plugins/tool-echo"]);
    assert_eq!(code, 0, "{}", stderr(&output));
    let library = std::fs::read_dir(amplifier_home().join("cache/plugins"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("tool-echo-"))
        .flat_map(|e| std::fs::read_dir(e.path()).unwrap().flatten().map(|f| f.path()))
        .find(|p| p.extension().is_some_and(|x| x == std::env::consts::DLL_EXTENSION))
        .expect("tool-echo's library in the build cache");
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("tool-copy");
    std::fs::create_dir(&module).unwrap();
    std::fs::copy(&library, module.join(library.file_name().unwrap())).unwrap();
    let (code, report, _) = validate_json(dir.path(), &["tool-copy"]);
    assert_eq!(code, 1);
    assert_eq!(report["module_type"], "tool", "the kind comes from the directory's prefix");
    assert_eq!(check(&report, "manifest_present")["passed"], false);
    assert_eq!(failed_checks(&report).len(), 1, "{:#?}", failed_checks(&report));

    let (code, report, _) = validate_json(&workspace(), &["tests/fixtures/abi-next-major"]);
    assert_eq!(code, 1);
    let abi = check(&report, "abi_version");
    assert_eq!(abi["passed"], false);
    assert!(abi["message"].as_str().unwrap().contains("plugin ABI 2.0"), "{abi}");
}

#[test]
fn validate_usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let output = amplifier(dir.path()).args(["module", "validate", "no-such-dir"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    std::fs::create_dir(dir.path().join("mystery")).unwrap();
    std::fs::write(dir.path().join("mystery/Cargo.toml"), "[package]\nname = \"mystery\"\n").unwrap();
    let output = amplifier(dir.path()).args(["module", "validate", "mystery"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--kind"), "{}", stderr(&output));
}

#[test]
fn the_binary_alone_validates_an_orchestrator_with_its_built_in_provider_and_context() {
    // loop-basic installed (built once, in the workspace's target dir), then
    // validated by the binary copied out of the checkout: no cargo on PATH,
    // no AMPLIFIER_VALIDATE_*. The session of the orchestrator checks runs
    // provider-scripted and context-simple as built into the binary; a copy
    // to build from the checkout would fail here (no cargo).
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let output = amplifier(&workspace())
        .env("AMPLIFIER_HOME", &home)
        .args(["module", "install", &plugin("loop-basic")])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let versions = std::fs::read_dir(home.join("modules/loop-basic")).unwrap();
    let installed: Vec<PathBuf> = versions.flatten().map(|e| e.path()).collect();
    assert_eq!(installed.len(), 1, "{installed:?}");

    let output = copied_binary(dir.path())
        .env_remove("AMPLIFIER_VALIDATE_PROVIDER")
        .env_remove("AMPLIFIER_VALIDATE_CONTEXT")
        .args(["module", "validate", "--output", "json", "--behavioral"])
        .arg(&installed[0])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("not a JSON report ({err}):\n{}\nstderr:\n{}", stdout(&output), stderr(&output)));
    assert_eq!(report["module_type"], "orchestrator");
    assert!(check(&report, "build")["message"].as_str().unwrap().starts_with("prebuilt library"), "{report:#}");
    for name in ["orchestrator_execute", "orchestrator_tool_loop"] {
        assert_eq!(check(&report, name)["passed"], true, "{:#?}\nstderr:\n{}", failed_checks(&report), stderr(&output));
    }
    assert_eq!(output.status.code(), Some(0), "{:#?}", failed_checks(&report));
}

/// One target dir for every scaffold (they are stand-alone workspaces), kept
/// between test runs so their dependencies are compiled once.
fn scaffold_target() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scaffold-target")
}

#[test]
fn new_modules_of_every_kind_pass_validate() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["tool", "provider", "hook", "orchestrator", "context"] {
        let name = format!("my-{kind}");
        let output = amplifier(dir.path()).args(["module", "new", &name, "--kind", kind]).output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stdout(&output).contains(&format!("Created {kind} module `{name}`")), "{}", stdout(&output));
        let cargo_toml = std::fs::read_to_string(dir.path().join(&name).join("Cargo.toml")).unwrap();
        assert!(cargo_toml.contains("crate-type = [\"cdylib\"]") && cargo_toml.contains("\n[workspace]\n"));
        assert!(cargo_toml.contains("amplifier-sdk = \"0.1\""), "{cargo_toml}");
        let manifest = std::fs::read_to_string(dir.path().join(&name).join("amplifier.toml")).unwrap();
        assert!(manifest.contains(&format!("kinds = [\"{kind}\"]")) && manifest.contains("[config_schema]"));
        assert!(std::fs::read_to_string(dir.path().join(&name).join("src/lib.rs")).unwrap().contains("#[cfg(test)]"));

        let output = amplifier(dir.path())
            .env("CARGO_TARGET_DIR", scaffold_target())
            .args(["module", "validate", "--output", "json", "--behavioral", &name])
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|err| panic!("{kind}: {err}\nstderr:\n{}", stderr(&output)));
        assert_eq!(report["module_type"], kind);
        assert_eq!(output.status.code(), Some(0), "{kind}: {:#?}\n{}", failed_checks(&report), stderr(&output));
        assert!(failed_checks(&report).is_empty(), "{kind}: warnings too: {:#?}", failed_checks(&report));
    }

    // An existing module is never overwritten; names must be crate names.
    let output = amplifier(dir.path()).args(["module", "new", "my-tool", "--kind", "tool"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("already exists"), "{}", stderr(&output));
    let output = amplifier(dir.path()).args(["module", "new", "My_Tool", "--kind", "tool"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn install_list_show_remove() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let module = |args: &[&str]| -> Output {
        amplifier(cwd.path()).env("AMPLIFIER_HOME", home.path()).arg("module").args(args).output().unwrap()
    };

    let output = module(&["install", &plugin("tool-echo")]);
    assert!(output.status.success(), "{}", stderr(&output));
    let installed = home.path().join("modules/tool-echo/0.1.0");
    assert!(stdout(&output).contains("Installed tool-echo 0.1.0 (tool)"), "{}", stdout(&output));
    let files: Vec<String> = std::fs::read_dir(&installed)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.contains(&"amplifier.toml".to_owned()) && files.contains(&"install.json".to_owned()), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with(std::env::consts::DLL_SUFFIX)), "{files:?}");

    let output = module(&["list"]);
    assert!(output.status.success());
    let listed = stdout(&output);
    let row = listed.lines().find(|l| l.trim_start().starts_with("tool-echo")).unwrap_or_else(|| panic!("{listed}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[..4], ["tool-echo", "tool", "0.1.0", "1"], "{row}");
    assert!(row.ends_with(&plugin("tool-echo")), "the source: {row}");

    let output = module(&["show", "tool-echo"]);
    assert!(output.status.success());
    let shown = stdout(&output);
    assert!(shown.starts_with("tool-echo 0.1.0 (the version plans get)"), "{shown}");
    assert!(shown.contains("kinds:       tool") && shown.contains(&installed.display().to_string()), "{shown}");

    // A plan may now name tool-echo without a source.
    let plan = plan_yaml(
        &scripted(r#"[{tool_calls: [{name: echo, arguments: {text: installed}}]}, {text: done}]"#),
        "",
        "  []",
    )
    .replace(&format!("{{module: tool-echo, source: \"{}\"}}", plugin("tool-echo")), "{module: tool-echo}");
    assert!(!plan.contains(&plugin("tool-echo")), "{plan}");
    std::fs::write(cwd.path().join("plan.yaml"), &plan).unwrap();
    let output = module(&["list", "--plan", "plan.yaml"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listed = stdout(&output);
    let plan_rows = listed.split("Modules of plan.yaml:").nth(1).unwrap_or_else(|| panic!("{listed}"));
    let echo = plan_rows.lines().find(|l| l.trim_start().starts_with("tool-echo")).unwrap();
    assert!(echo.contains("installed at") && echo.contains("(installed)"), "{echo}");
    let looped = plan_rows.lines().find(|l| l.trim_start().starts_with("loop-basic")).unwrap();
    assert!(looped.contains("orchestrator") && looped.contains("(plan)"), "{looped}");
    let output = amplifier(cwd.path())
        .env("AMPLIFIER_HOME", home.path())
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(tool_event(&lines, "call_1")["data"]["result"]["output"], "installed");

    let output = module(&["remove", "tool-echo", "--version", "0.1.0"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!home.path().join("modules/tool-echo").exists(), "the last version gone, the module's directory goes");
    // What is left is the copy built into amplifier.
    let output = module(&["show", "tool-echo"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("built into amplifier"), "{}", stdout(&output));
    assert_eq!(module(&["show", "tool-nowhere"]).status.code(), Some(1));
    assert_eq!(module(&["remove", "tool-echo"]).status.code(), Some(1));
    assert_eq!(module(&["remove", "../escape"]).status.code(), Some(2));
}

#[test]
fn a_resolver_plugin_finds_modules_and_falls_through_to_the_built_in_chain() {
    let dir = tempfile::tempdir().unwrap();
    // A relative path in the resolver's map is taken relative to the plan.
    std::os::unix::fs::symlink(workspace().join("plugins/tool-echo"), dir.path().join("echo-crate")).unwrap();
    let plan = format!(
        r#"session:
  orchestrator: {{module: loop-basic, source: "{loop_basic}"}}
  context: {{module: context-simple}}
  resolver:
    module: resolver-map
    source: "{resolver}"
    config: {{modules: {{tool-echo: ./echo-crate}}}}
providers:
{providers}
tools:
  - {{module: tool-echo}}
"#,
        loop_basic = plugin("loop-basic"),
        resolver = fixture("resolver-map"),
        providers = scripted(r#"[{tool_calls: [{name: echo, arguments: {text: resolved}}]}, {text: done}]"#),
    );
    std::fs::write(dir.path().join("plan.yaml"), &plan).unwrap();
    // context-simple has no source and is not in the map: the resolver says
    // "not found" and the built-in chain (here AMPLIFIER_MODULE_<ID>) finds it.
    let output = amplifier(dir.path())
        .env("AMPLIFIER_MODULE_CONTEXT_SIMPLE", plugin("context-simple"))
        .args(["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(tool_event(&lines, "call_1")["data"]["result"]["output"], "resolved");
    assert_eq!(lines.last().unwrap()["data"]["response"], "done");

    // Unknown to the resolver and to every built-in resolver: a load failure naming it.
    let plan = plan.replace("  - {module: tool-echo}", "  - {module: tool-echo}\n  - {module: tool-nowhere}");
    std::fs::write(dir.path().join("plan.yaml"), &plan).unwrap();
    let output = amplifier(dir.path())
        .env("AMPLIFIER_MODULE_CONTEXT_SIMPLE", plugin("context-simple"))
        .args(["run", "--plan", "plan.yaml", "go"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("tool-nowhere") && err.contains("not found"), "{err}");
}

/// Every file under `dir`, with its text (the SDK copy's too).
fn files_under(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push((path.clone(), std::fs::read_to_string(&path).unwrap_or_default()));
            }
        }
    }
    files
}

/// A module author outside this repository, with the binary alone: `module
/// new` writes a crate that names the SDK by version and no absolute path,
/// `cargo test` runs its unit tests on the test kit against the SDK copy it
/// carries, and `module validate` and a plan build it against the SDK the
/// binary carries (in `$AMPLIFIER_HOME/sdk`). `module package` puts its
/// source and library in one archive, which another machine's amplifier
/// installs without cargo, refuses when the library was altered, and builds
/// from source when the library is for another target.
#[test]
fn a_module_made_with_the_binary_alone_builds_tests_validates_packages_installs_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_amplifier"), bin.join("amplifier")).unwrap();
    let home = dir.path().join("home");
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let run = |cwd: &Path, program: &Path, args: &[&str]| {
        let output = std::process::Command::new(program)
            .args(args)
            .current_dir(cwd)
            .env("AMPLIFIER_HOME", &home)
            .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
            .env("CARGO_TARGET_DIR", scaffold_target())
            .env_remove("AMPLIFIER_LOG")
            .output()
            .unwrap();
        assert!(output.status.success(), "{program:?} {args:?}:\n{}\n{}", stdout(&output), stderr(&output));
        output
    };
    let amplifier = bin.join("amplifier");
    run(&work, &amplifier, &["module", "new", "tool-shout", "--kind", "tool"]);
    let module = work.join("tool-shout");

    let cargo_toml = std::fs::read_to_string(module.join("Cargo.toml")).unwrap();
    assert!(cargo_toml.contains("amplifier-sdk = \"0.1\""), "{cargo_toml}");
    let files = files_under(&module);
    assert!(files.iter().any(|(path, _)| path.ends_with(".amplifier/sdk-0.1.0/sdk/src/lib.rs")));
    for (path, text) in &files {
        for absolute in [workspace().display().to_string(), dir.path().display().to_string()] {
            assert!(!text.contains(&absolute), "{} names {absolute}", path.display());
        }
    }

    let cargo = std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from);
    let tested = run(&module, &cargo, &["test"]);
    assert!(stdout(&tested).contains("returns_the_text_after_the_prefix ... ok"), "{}", stdout(&tested));

    let validated = run(&module, &amplifier, &["module", "validate", "--output", "json", "."]);
    let report: Value = serde_json::from_slice(&validated.stdout).unwrap();
    assert!(failed_checks(&report).is_empty(), "{:#?}", failed_checks(&report));
    let abi = check(&report, "abi_version")["message"].as_str().unwrap().to_owned();
    assert!(abi.contains("amplifier-sdk 0.1.0"), "{abi}");
    let copies: Vec<_> = std::fs::read_dir(home.join("sdk")).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert!(copies[0].join("sdk/Cargo.toml").is_file());

    let plan = "session:\n  orchestrator: {module: loop-basic}\n  context: {module: context-simple}\n\
        providers:\n  - module: provider-scripted\n    config:\n      script:\n\
        \x20       - {tool_calls: [{name: shout, arguments: {text: hi}}]}\n        - {text: done}\n\
        tools:\n  - {module: tool-shout, source: ./tool-shout, config: {prefix: \"> \"}}\n";
    std::fs::write(work.join("plan.yaml"), plan).unwrap();
    let shouted = |ran: &Output| {
        let post = json_lines(ran)
            .into_iter()
            .find(|line| line["event"] == "tool:post")
            .unwrap_or_else(|| panic!("no tool:post in\n{}", stdout(ran)));
        assert_eq!(post["data"]["result"]["output"], "> hi");
    };
    shouted(&run(&work, &amplifier, &["run", "--plan", "plan.yaml", "--output-format", "jsonl", "go"]));

    // Packaged, then installed on a machine without cargo.
    let archive = work.join("tool-shout-0.1.0.tar.gz");
    let packaged = run(&module, &amplifier, &["module", "package", ".", "--output", archive.to_str().unwrap()]);
    let target = amplifier_loader::manifest::HOST_TARGET;
    assert!(stdout(&packaged).contains(&format!("with its library for {target}")), "{}", stdout(&packaged));
    let no_cargo = dir.path().join("empty-path");
    std::fs::create_dir(&no_cargo).unwrap();
    // Another machine's working directory, without the crate in it.
    let machine = dir.path().join("machine");
    std::fs::create_dir(&machine).unwrap();
    let elsewhere = |home: &Path, args: &[&str]| {
        std::process::Command::new(&amplifier)
            .args(args)
            .current_dir(&machine)
            .env_clear()
            .env("HOME", dir.path())
            .env("PATH", &no_cargo)
            .env("AMPLIFIER_HOME", home)
            .output()
            .unwrap()
    };
    let other_home = dir.path().join("other-home");
    let installed = elsewhere(&other_home, &["module", "install", archive.to_str().unwrap()]);
    assert!(installed.status.success(), "{}\n{}", stdout(&installed), stderr(&installed));
    assert!(stderr(&installed).contains(&format!("Using the prebuilt library for {target}")), "{}", stderr(&installed));
    assert!(stdout(&installed).contains("its library: the package's, prebuilt for"), "{}", stdout(&installed));
    std::fs::write(machine.join("installed.yaml"), plan.replace(", source: ./tool-shout", "")).unwrap();
    let ran = elsewhere(&other_home, &["run", "--plan", "installed.yaml", "--output-format", "jsonl", "go"]);
    assert!(ran.status.success(), "{}", stderr(&ran));
    shouted(&ran);
    let lock = std::fs::read_to_string(machine.join("amplifier.lock")).unwrap();
    let entry = lock.split("[[module]]").find(|e| e.contains("plan = \"installed.yaml\"") && e.contains("tool-shout"));
    assert!(entry.unwrap_or_default().contains(&format!("artifact = \"{target}\"")), "{lock}");

    // From a URL.
    let url = serve_once(std::fs::read(&archive).unwrap());
    let fourth_home = dir.path().join("fourth-home");
    let downloaded = elsewhere(&fourth_home, &["module", "install", &format!("{url}/tool-shout-0.1.0.tar.gz")]);
    assert!(downloaded.status.success(), "{}", stderr(&downloaded));
    assert!(stdout(&downloaded).contains("its library: the package's, prebuilt for"), "{}", stdout(&downloaded));
    let record = std::fs::read_to_string(fourth_home.join("modules/tool-shout/0.1.0/install.json")).unwrap();
    assert!(record.contains(&format!("\"artifact\": \"{target}\"")), "{record}");

    // Published in an index, found and added by name: from a directory, a git repository, a URL.
    let index = work.join("index");
    let published = run(&module, &amplifier, &["module", "package", ".", "--index", index.to_str().unwrap()]);
    assert!(stdout(&published).contains("Published in the index"), "{}", stdout(&published));
    let entry = std::fs::read_to_string(index.join("tool-shout.toml")).unwrap();
    assert!(entry.contains(&format!("[versions.artifacts.{target}]")), "{entry}");
    let found = elsewhere(&fourth_home, &["module", "search", "shout", "tool", "--index", index.to_str().unwrap()]);
    assert!(found.status.success(), "{}", stderr(&found));
    let listed = stdout(&found);
    assert!(
        listed.lines().any(|l| l.trim_start().starts_with("tool-shout") && l.contains("0.1.0") && l.contains("yes")),
        "{listed}"
    );
    let nothing = elsewhere(&fourth_home, &["module", "search", "weather", "--index", index.to_str().unwrap()]);
    assert!(stdout(&nothing).contains("No module matches weather"), "{}", stdout(&nothing));

    let bare = "session:\n  orchestrator: {module: loop-basic}\n  context: {module: context-simple}\n\
        providers:\n  - module: provider-scripted\n    config:\n      script:\n\
        \x20       - {tool_calls: [{name: shout, arguments: {text: hi}}]}\n        - {text: done}\n";
    std::fs::write(machine.join("added.yaml"), bare).unwrap();
    let fifth_home = dir.path().join("fifth-home");
    let added = elsewhere(
        &fifth_home,
        &["module", "add", "tool-shout@0.1.0", "--index", index.to_str().unwrap(), "--plan", "added.yaml"],
    );
    assert!(added.status.success(), "{}", stderr(&added));
    assert!(stdout(&added).contains("Added tool-shout 0.1.0 to added.yaml (under `tools:`)"), "{}", stdout(&added));
    let again = elsewhere(
        &fifth_home,
        &["module", "add", "tool-shout", "--index", index.to_str().unwrap(), "--plan", "added.yaml"],
    );
    assert!(stdout(&again).contains("names tool-shout already"), "{}\n{}", stdout(&again), stderr(&again));
    let plan_text = std::fs::read_to_string(machine.join("added.yaml")).unwrap();
    assert_eq!(plan_text.matches("module: tool-shout").count(), 1, "{plan_text}");
    // Without --plan: the plan `amplifier run` uses, the built-in one copied first.
    let to_default = elsewhere(&fifth_home, &["module", "add", "tool-shout", "--index", index.to_str().unwrap()]);
    assert!(to_default.status.success(), "{}", stderr(&to_default));
    let copy = fifth_home.join("plan.yaml");
    assert!(
        stdout(&to_default).contains(&format!("The default plan is now {}", copy.display())),
        "{}",
        stdout(&to_default)
    );
    let default_plan = std::fs::read_to_string(&copy).unwrap();
    assert!(default_plan.contains("  - module: tool-filesystem") && default_plan.contains("  - module: tool-shout\n"));
    let shown = elsewhere(&fifth_home, &["config", "show"]);
    assert!(stdout(&shown).contains(&copy.display().to_string()), "{}", stdout(&shown));
    // The tool's default config has no prefix: the model gets the text back.
    let ran = elsewhere(&fifth_home, &["run", "--plan", "added.yaml", "--output-format", "jsonl", "go"]);
    assert!(ran.status.success(), "{}", stderr(&ran));
    assert!(json_lines(&ran).iter().any(|l| l["event"] == "tool:post" && l["data"]["result"]["output"] == "hi"));

    let git = |args: &[&str]| {
        let status = std::process::Command::new("git").args(args).current_dir(&index).status().unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "add", "-A"]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "index"]);
    let git_index = format!("git+file://{}@main", index.display());
    let found = elsewhere(&fifth_home, &["module", "search", "shout", "--index", &git_index]);
    assert!(stdout(&found).contains("tool-shout"), "{}\n{}", stdout(&found), stderr(&found));

    let files: Vec<String> = ["index.toml", "tool-shout.toml", &format!("tool-shout-0.1.0-{target}.tar.gz")]
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    let url = serve_files(&index, &files);
    let sixth_home = dir.path().join("sixth-home");
    let from_url = elsewhere(&sixth_home, &["module", "install", "tool-shout", "--index", &format!("{url}/")]);
    assert!(from_url.status.success(), "{}", stderr(&from_url));
    assert!(stdout(&from_url).contains("its library: the package's, prebuilt for"), "{}", stdout(&from_url));

    // An index whose checksum does not match its package is refused.
    std::fs::write(index.join("tool-shout.toml"), entry.replace("sha256 = \"", "sha256 = \"00")).unwrap();
    let refused = elsewhere(
        &dir.path().join("seventh-home"),
        &["module", "install", "tool-shout", "--index", index.to_str().unwrap()],
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("says sha256 = 00"), "{}", stderr(&refused));

    // The same package with its library altered, and with a library for another target only.
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir(&unpacked).unwrap();
    let tar = |args: &[&str]| assert!(std::process::Command::new("tar").args(args).status().unwrap().success());
    tar(&["-xzf", archive.to_str().unwrap(), "-C", unpacked.to_str().unwrap()]);
    let package_dir = unpacked.join("tool-shout-0.1.0");
    let library = package_dir.join(format!("lib/{target}/libtool_shout.so"));
    let original = std::fs::read(&library).unwrap();
    let mut altered = original.clone();
    altered.push(0);
    std::fs::write(&library, &altered).unwrap();
    let tampered = work.join("tampered.tar.gz");
    tar(&["-czf", tampered.to_str().unwrap(), "-C", unpacked.to_str().unwrap(), "tool-shout-0.1.0"]);
    let third_home = dir.path().join("third-home");
    let refused = elsewhere(&third_home, &["module", "install", tampered.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("checksum mismatch for the prebuilt artifact"), "{}", stderr(&refused));
    assert!(!third_home.join("modules/tool-shout").exists(), "nothing installed");

    std::fs::write(&library, &original).unwrap();
    let manifest = std::fs::read_to_string(package_dir.join("amplifier.toml")).unwrap();
    std::fs::write(package_dir.join("amplifier.toml"), manifest.replace(target, "riscv64gc-unknown-linux-gnu"))
        .unwrap();
    let foreign = work.join("foreign.tar.gz");
    tar(&["-czf", foreign.to_str().unwrap(), "-C", unpacked.to_str().unwrap(), "tool-shout-0.1.0"]);
    let no_build = elsewhere(&third_home, &["module", "install", foreign.to_str().unwrap()]);
    assert_eq!(no_build.status.code(), Some(1), "without cargo there is nothing to build with");
    assert!(stderr(&no_build).contains("building from source"), "{}", stderr(&no_build));
    assert!(stderr(&no_build).contains("cannot run cargo"), "{}", stderr(&no_build));
    let built = run(&work, &amplifier, &["module", "install", foreign.to_str().unwrap()]);
    assert!(
        stderr(&built).contains("riscv64gc-unknown-linux-gnu (ABI 1)): building from source"),
        "{}",
        stderr(&built)
    );
    assert!(stdout(&built).contains("its library: built here"), "{}", stdout(&built));
}

/// Serves `body` to one HTTP request on a loopback port; the base URL.
fn serve_once(body: Vec<u8>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
            line.clear();
        }
        let mut stream = reader.into_inner();
        let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
        let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&body));
    });
    url
}

/// Serves each of `files` (names in `dir`) at `/<name>`, one request each
/// (in any order); the base URL.
fn serve_files(dir: &Path, files: &[String]) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (dir, count) = (dir.to_owned(), files.len());
    std::thread::spawn(move || {
        for stream in listener.incoming().take(count) {
            let mut reader = BufReader::new(stream.unwrap());
            let mut request = String::new();
            reader.read_line(&mut request).unwrap();
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                line.clear();
            }
            let name = request.split_whitespace().nth(1).unwrap_or("/").trim_start_matches('/').to_owned();
            let mut stream = reader.into_inner();
            let reply = match std::fs::read(dir.join(&name)) {
                Ok(body) => [
                    format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())
                        .into_bytes(),
                    body,
                ]
                .concat(),
                Err(_) => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
            };
            let _ = stream.write_all(&reply);
        }
    });
    url
}
