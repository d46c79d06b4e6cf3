//! A module crate that fails to build: the error says why in a few lines,
//! with a hint that fits (not "fix the plan"), and names the file that has
//! cargo's whole output. Refresh with `SNAPSHOTS=overwrite cargo test --test module_build_errors`.

use snapbox::cmd::Command;
use snapbox::str;

#[test]
fn a_module_that_does_not_compile_gets_its_cause_a_hint_and_the_logs_path() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let module = dir.path().join("tool-broken");
    std::fs::create_dir_all(module.join("src")).unwrap();
    std::fs::write(
        module.join("Cargo.toml"),
        "[package]\nname = \"tool-broken\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\ncrate-type = [\"cdylib\"]\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(module.join("src/lib.rs"), "pub fn answer() -> u32 {\n    \"forty-two\"\n}\n").unwrap();
    let plan = "session: {orchestrator: loop-basic, context: context-simple}\n\
                providers: [{module: provider-scripted, config: {script: [{text: hi}]}}]\n\
                tools: [{module: tool-broken, source: ./tool-broken}]\n";
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();

    Command::new(env!("CARGO_BIN_EXE_amplifier"))
        .current_dir(dir.path())
        .env("AMPLIFIER_HOME", &home)
        .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
        .env_remove("AMPLIFIER_LOG")
        .args(["run", "--plan", "plan.yaml", "hi"])
        .assert()
        .code(1)
        .stderr_eq(str![[r#"
   Building tool-broken from [..]/tool-broken (first use of this version; cached afterwards)
error: 1 module(s) failed to load:
  - tool tool-broken (tools[0]): building the module crate at [..]/tool-broken failed:
  error[E0308]: mismatched types
   --> src/lib.rs:2:5
    |
  1 | pub fn answer() -> u32 {
    |                    --- expected `u32` because of return type
  2 |     "forty-two"
    |     ^^^^^^^^^^^ expected `u32`, found `&str`
  For more information about this error, try `rustc --explain E0308`.
  error: could not compile `tool-broken` (lib) due to 1 previous error
hint: the module's code does not compile: fix it, or use a version written for this amplifier's SDK
the full build log: [..]/home/cache/logs/build-tool-broken-[..].log
hint: fix the module's build (its log is named above), or pass --allow-partial to run without it

"#]]);
    let logs: Vec<_> = std::fs::read_dir(home.join("cache/logs")).unwrap().flatten().collect();
    let log = std::fs::read_to_string(logs[0].path()).unwrap();
    assert!(log.contains("Compiling tool-broken") && log.contains("E0308"), "the whole output: {log}");
}
