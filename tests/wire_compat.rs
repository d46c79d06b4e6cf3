//! A plugin built with an older SDK still loads and speaks to this host.
//!
//! `tests/prebuilt/wire-v1/libwire_v1.so` was built once, from the source
//! beside it, before the protocol's operations became types; it is never
//! rebuilt. Its orchestrator calls every host service its SDK offers and
//! reports the answers; its tool, provider, hook, context and resolver are
//! what those calls reach. Any change to the JSON on the wire, in either
//! direction, changes the report.

mod common;

use common::{amplifier, stderr, stdout, workspace};
use serde_json::{json, Value};

#[test]
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn a_plugin_built_with_the_previous_sdk_runs_every_operation() {
    let dir = tempfile::tempdir().unwrap();
    let library = workspace().join("tests/prebuilt/wire-v1/libwire_v1.so");
    // Only the resolver is given a source: it resolves every other module
    // of the plan to its own library.
    let plan = format!(
        r#"session:
  orchestrator: {{module: wire-v1}}
  context: {{module: wire-v1}}
  resolver:
    module: wire-v1
    source: "{library}"
    config: {{library: "{library}"}}
providers:
  - {{module: wire-v1}}
tools:
  - {{module: wire-v1}}
hooks:
  - {{module: wire-v1}}
"#,
        library = library.display()
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hello wire"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_str(stdout(&output).trim())
        .unwrap_or_else(|err| panic!("not a JSON report: {err}\n{}", stdout(&output)));

    assert_eq!(
        report["session.info"],
        json!({"depth": 0, "cancellation": "none", "tools": ["wire_echo", "wire_mount"]})
    );
    // Hook verdicts, raw and processed.
    assert_eq!(report["hooks.emit"], json!({"ok": "continue"}));
    assert_eq!(report["hooks.dispatch deny"], json!({"ok": {"action": "deny", "reason": "the wire says no"}}));
    // A modification is folded into the data the orchestrator gets back.
    let modified = &report["hooks.dispatch modify"]["ok"];
    assert_eq!(
        (&modified["action"], &modified["data"]["n"], &modified["data"]["modified"]),
        (&json!("continue"), &json!(2), &json!(true))
    );
    assert_eq!(report["hooks.dispatch inject"]["ok"]["action"], "continue");
    // The injection went into the context before the prompt.
    let messages = report["context.get_messages"]["ok"].as_array().unwrap();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!((&messages[0]["role"], &messages[0]["content"]), (&json!("system"), &json!("remember the wire")));
    assert_eq!(messages[1], json!({"role": "user", "content": "hello wire"}));
    assert_eq!(report["context.get_messages_for_request"], 2);
    // The provider, asked plainly and streaming.
    assert_eq!(report["provider.list"], json!([["wire-v1", "wire"]]));
    assert_eq!(report["provider.complete"], json!({"ok": "parrot: hello wire"}));
    assert_eq!(
        report["provider.complete stream"],
        json!({"answer": {"ok": "parrot: hello wire"}, "deltas": [
            {"type": "text", "index": 0, "text": "parrot: "},
            {"type": "text", "index": 0, "text": "hello "},
            {"type": "text", "index": 0, "text": "wire"},
        ]})
    );
    // Tools: mounted at load, validated input, mounted at run time.
    assert_eq!(report["tool.list"], json!(["wire_echo", "wire_mount"]));
    assert_eq!(report["tool.execute"]["ok"]["success"], true);
    assert_eq!(report["tool.execute"]["ok"]["output"], json!({"echo": "hi"}));
    assert_eq!(report["tool.execute invalid"]["ok"]["success"], false, "{}", report["tool.execute invalid"]);
    assert_eq!(report["tools.mount"], json!({"ok": "done"}));
    assert_eq!(report["tool.list mounted"], json!(["wire_echo", "wire_mount", "wire_late"]));
    assert_eq!(report["tool.execute mounted"]["ok"]["output"], json!({"mounted": "wire_late", "input": {"a": 1}}));
    assert_eq!(report["tools.unmount"], json!({"ok": "done"}));
    assert_eq!(report["tool.list after"], json!(["wire_echo", "wire_mount"]));
    // Capabilities, steering, agents, history.
    assert_eq!(report["capability.register"], json!({"ok": null}));
    assert_eq!(report["capability.get"], json!({"ok": 42}));
    assert_eq!(report["capability.get missing"], json!({"ok": null}));
    assert_eq!(report["session.steering_take"], json!({"ok": []}));
    assert_eq!(report["session.agents"], json!({"ok": []}));
    assert_eq!(report["history.fetch_all"], json!({"ok": []}));
    assert_eq!(report["context.set_messages"], json!({"ok": [{"role": "user", "content": "kept"}]}));
}

/// Today's agent loop sends the context's view in place of the history.
/// A provider built before that gets the messages filled in by the host,
/// and a context built before `sync_view` answers a provider's SDK with its
/// whole view: either way the model sees the conversation.
#[test]
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn todays_loop_reaches_a_provider_and_a_context_built_before_views_were_synced() {
    let library = workspace().join("tests/prebuilt/wire-v1/libwire_v1.so");
    let cases = [
        ("context-simple", "{module: wire-v1}", "parrot: hello wire"),
        ("wire-v1", "{module: provider-scripted, config: {echo_last_user: true}}", "hello wire"),
    ];
    for (context, provider, answer) in cases {
        let dir = tempfile::tempdir().unwrap();
        let plan = format!(
            r#"session:
  orchestrator: {{module: loop-basic}}
  context: {{module: {context}}}
  resolver:
    module: wire-v1
    source: "{library}"
    config: {{library: "{library}"}}
providers:
  - {provider}
"#,
            library = library.display()
        );
        std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
        let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hello wire"]).output().unwrap();
        assert!(output.status.success(), "{context} with {provider}: {}", stderr(&output));
        assert_eq!(stdout(&output).trim(), answer, "{context} with {provider}");
    }
}
