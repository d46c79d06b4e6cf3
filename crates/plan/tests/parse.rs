use std::path::Path;

use amplifier_kernel::plan::{
    Isolation, DEFAULT_CANCEL_GRACE_SECS, DEFAULT_INJECTION_BUDGET_PER_TURN, DEFAULT_INJECTION_SIZE_LIMIT,
    DEFAULT_TOOL_TIMEOUT_SECS,
};
use amplifier_plan::{parse_plan_file, parse_plan_str, parse_plan_str_with_env, ParsedPlan, PlanError};
use serde_json::json;

const SECRET: &str = "sk-test-0123456789";

fn env(name: &str) -> Option<String> {
    match name {
        "OPENAI_API_KEY" => Some(SECRET.into()),
        "HOST" => Some("api.example.com".into()),
        "PORT" => Some("8443".into()),
        "PLUGINS" => Some("/opt/plugins".into()),
        _ => None,
    }
}

fn parse(text: &str) -> Result<ParsedPlan, PlanError> {
    parse_plan_str_with_env(text, Some(Path::new("plan.yaml")), &env)
}

fn parse_ok(text: &str) -> ParsedPlan {
    parse(text).unwrap_or_else(|err| panic!("plan should parse:\n{err}"))
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(parsed) => panic!("plan should not parse: {:?}", parsed.plan),
        Err(err) => err.to_string(),
    }
}

fn warnings(text: &str) -> Vec<String> {
    parse_ok(text).warnings.iter().map(ToString::to_string).collect()
}

const SESSION: &str = "session: {orchestrator: loop-basic, context: context-simple}\n";

#[test]
fn full_plan_in_upstream_format() {
    let parsed = parse_ok(
        r#"session:
  orchestrator: {module: loop-basic, source: ../plugins/loop-basic, config: {max_iterations: 10}}
  context: context-simple
  injection_size_limit: 2048
  injection_budget_per_turn: 500
  metadata: {team: core, tags: [a, b]}
  raw: true
  resolver: {module: my-resolver, source: ../plugins/resolver}
providers:
  - module: provider-scripted
    source: ../plugins/provider-scripted
    instance_id: fast
    config: {priority: 1, api_key: "${OPENAI_API_KEY}", model: "${MODEL:-small}"}
  - module: provider-scripted
tools:
  - {module: tool-echo, source: ../plugins/tool-echo}
hooks:
  - module: hooks-logging
    config: {path: events.jsonl}
agents:
  helper: {description: "Helps", providers: [{module: p, config: {key: "${OPENAI_API_KEY}"}}]}
"#,
    );
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    assert_eq!(parsed.path.as_deref(), Some(Path::new("plan.yaml")));
    let plan = parsed.plan;

    let session = &plan.session;
    assert_eq!(session.orchestrator.module, "loop-basic");
    assert_eq!(session.orchestrator.source.as_deref(), Some("../plugins/loop-basic"));
    assert_eq!(json!(session.orchestrator.config), json!({"max_iterations": 10}));
    assert_eq!(session.orchestrator.field_path, "session.orchestrator");
    assert_eq!(session.context.module, "context-simple");
    assert_eq!(session.context.field_path, "session.context");
    let resolver = session.resolver.as_ref().unwrap();
    assert_eq!(resolver.module, "my-resolver");
    assert_eq!(resolver.field_path, "session.resolver");
    assert_eq!(session.injection_size_limit, Some(2048));
    assert_eq!(session.injection_budget_per_turn, Some(500));
    assert_eq!(json!(session.metadata), json!({"team": "core", "tags": ["a", "b"]}));
    assert!(session.raw);

    let fast = &plan.providers[0];
    assert_eq!(fast.module, "provider-scripted");
    assert_eq!(fast.instance_id.as_deref(), Some("fast"));
    assert_eq!(fast.mount_name(), "fast");
    assert_eq!(json!(fast.config), json!({"priority": 1, "api_key": SECRET, "model": "small"}));
    assert_eq!(fast.field_path, "providers[0]");
    assert_eq!(plan.providers[1].mount_name(), "provider-scripted");
    assert_eq!(plan.providers[1].field_path, "providers[1]");
    assert_eq!(plan.tools[0].module, "tool-echo");
    assert_eq!(plan.tools[0].field_path, "tools[0]");
    assert_eq!(json!(plan.hooks[0].config), json!({"path": "events.jsonl"}));
    assert_eq!(plan.hooks[0].field_path, "hooks[0]");

    // Agent overlays are kept as written, references included.
    assert_eq!(
        plan.agents["helper"],
        json!({"description": "Helps", "providers": [{"module": "p", "config": {"key": "${OPENAI_API_KEY}"}}]})
    );
}

#[test]
fn session_slots_accept_a_bare_module_id() {
    let plan = parse_ok("session:\n  orchestrator: loop-basic\n  context: context-simple\n").plan;
    assert_eq!(plan.session.context.module, "context-simple");
    assert_eq!(plan.session.context.source, None);
    assert!(plan.session.context.config.is_empty());
    assert_eq!(plan.session.context.field_path, "session.context");
    assert!(plan.providers.is_empty() && plan.tools.is_empty() && plan.hooks.is_empty());
    assert!(plan.agents.is_empty());
}

#[test]
fn injection_limits_absent_null_and_set() {
    let absent = parse_ok(SESSION).plan.session;
    assert_eq!(absent.injection_size_limit, Some(DEFAULT_INJECTION_SIZE_LIMIT));
    assert_eq!(absent.injection_budget_per_turn, Some(DEFAULT_INJECTION_BUDGET_PER_TURN));

    let null = parse_ok(
        "session:\n  orchestrator: o\n  context: c\n  injection_size_limit: null\n  injection_budget_per_turn: ~\n",
    )
    .plan
    .session;
    assert_eq!(null.injection_size_limit, None);
    assert_eq!(null.injection_budget_per_turn, None);

    let set = parse_ok(
        "session:\n  orchestrator: o\n  context: c\n  injection_size_limit: 0\n  injection_budget_per_turn: 7\n",
    )
    .plan
    .session;
    assert_eq!(set.injection_size_limit, Some(0));
    assert_eq!(set.injection_budget_per_turn, Some(7));
}

#[test]
fn tool_timeouts_and_the_cancel_grace_absent_null_and_set() {
    let absent = parse_ok(SESSION).plan.session;
    assert_eq!(absent.tool_timeout, Some(DEFAULT_TOOL_TIMEOUT_SECS));
    assert!(absent.tool_timeouts.is_empty());
    assert_eq!(absent.cancel_grace, DEFAULT_CANCEL_GRACE_SECS);

    let set = parse_ok(
        "session:\n  orchestrator: o\n  context: c\n  tool_timeout: null\n  tool_timeouts: {bash: 1200, web: 2.5, free: null}\n  cancel_grace: 0.5\n",
    )
    .plan
    .session;
    assert_eq!(set.tool_timeout, None);
    assert_eq!(set.tool_timeout("bash"), Some(std::time::Duration::from_secs(1200)));
    assert_eq!(set.tool_timeout("web"), Some(std::time::Duration::from_millis(2500)));
    assert_eq!(set.tool_timeout("free"), None);
    assert_eq!(set.cancel_grace(), std::time::Duration::from_millis(500));
}

#[test]
fn a_duration_that_is_not_one_names_its_field() {
    assert_eq!(
        error("session:\n  orchestrator: o\n  context: c\n  tool_timeouts: {bash: -1}\n"),
        "plan.yaml:4:25: session.tool_timeouts.bash: expected a number of seconds (0 or more) or null, found a negative integer"
    );
    assert_eq!(
        error("session:\n  orchestrator: o\n  context: c\n  cancel_grace: null\n"),
        "plan.yaml:4:17: session.cancel_grace: expected a number of seconds (0 or more), found null"
    );
}

#[test]
fn yaml_syntax_error_has_the_parser_position() {
    assert_eq!(
        error("session:\n  orchestrator: loop-basic\n context: context-simple\n"),
        "plan.yaml:3:9: invalid YAML: while parsing a block mapping, did not find expected key"
    );
    assert_eq!(
        error("session:\n  orchestrator: {module: loop-basic\n  context: context-simple\n"),
        "plan.yaml:3:10: session.orchestrator: invalid YAML: while parsing a flow mapping, \
         did not find expected ',' or '}'"
    );
}

#[test]
fn missing_orchestrator_points_at_session() {
    assert_eq!(
        error("# plan\nsession:\n  context: context-simple\n"),
        "plan.yaml:2:1: session.orchestrator: missing required field; \
         expected a module id or a map with `module`"
    );
}

#[test]
fn missing_session_and_empty_plan() {
    let expected = "plan.yaml:1:1: session: missing required field; \
                    expected a map with `orchestrator` and `context`";
    assert_eq!(error("tools: []\n"), expected);
    assert_eq!(error("# nothing here\n"), expected);
    assert_eq!(error(""), expected);
    assert_eq!(error("~\n"), expected);
}

#[test]
fn source_given_as_a_map() {
    let text = format!(
        "{SESSION}providers:\n  - module: provider-a\n  - module: provider-b\n    source:\n      path: ../plugins/b\n"
    );
    assert_eq!(error(&text), "plan.yaml:5:5: providers[1].source: expected a string, found a map");
}

#[test]
fn missing_env_var_names_the_variable_and_the_fix() {
    let text = format!(
        "{SESSION}providers:\n  - module: p\n    config:\n      auth: \"Bearer ${{OPENAI_API_KEY}} ${{ORG_ID}}\"\n"
    );
    let err = error(&text);
    assert_eq!(
        err,
        "plan.yaml:5:13: providers[0].config.auth: environment variable ORG_ID is not set\n  \
         hint: set ORG_ID or write ${ORG_ID:-default}"
    );
    assert!(!err.contains(SECRET));
}

#[test]
fn missing_env_var_in_source_and_nested_config() {
    let text = format!(
        "{SESSION}tools:\n  - module: t\n    source: ${{TOOLS_DIR}}/t\n    config: {{urls: [{{primary: \"${{URL}}\"}}]}}\n"
    );
    assert_eq!(
        error(&text),
        "plan.yaml:4:13: tools[0].source: environment variable TOOLS_DIR is not set\n  \
         hint: set TOOLS_DIR or write ${TOOLS_DIR:-default}\n\
         plan.yaml:5:31: tools[0].config.urls[0].primary: environment variable URL is not set\n  \
         hint: set URL or write ${URL:-default}"
    );
}

#[test]
fn interpolation_in_config_and_source() {
    let text = format!(
        r#"{SESSION}providers:
  - module: p
    source: ${{PLUGINS}}/p
    config:
      url: "http://${{HOST:-localhost}}:${{PORT}}/v1"
      fallback: http://${{NOPE:-localhost}}/v1
      literal: "$${{HOST}} costs $5"
      nested: {{list: ["${{PORT}}", 3, {{deep: "${{HOST}}"}}]}}
"#
    );
    let spec = &parse_ok(&text).plan.providers[0];
    assert_eq!(spec.source.as_deref(), Some("/opt/plugins/p"));
    assert_eq!(
        json!(spec.config),
        json!({
            "url": "http://api.example.com:8443/v1",
            "fallback": "http://localhost/v1",
            "literal": "${HOST} costs $5",
            "nested": {"list": ["8443", 3, {"deep": "api.example.com"}]},
        })
    );
}

#[test]
fn a_plain_reference_is_typed_like_the_text_in_its_place() {
    let text = format!(
        r#"{SESSION}providers:
  - module: p
    config:
      port: ${{PORT}}
      retries: ${{NOPE:-5}}
      ratio: ${{NOPE:-0.5}}
      stream: ${{NOPE:-false}}
      quoted: "${{PORT}}"
      key: ${{OPENAI_API_KEY}}
      around: ${{PORT}}/v1
"#
    );
    let spec = &parse_ok(&text).plan.providers[0];
    assert_eq!(
        json!(spec.config),
        json!({
            "port": 8443,
            "retries": 5,
            "ratio": 0.5,
            "stream": false,
            "quoted": "8443",
            "key": SECRET,
            "around": "8443/v1",
        })
    );
}

#[test]
fn only_config_and_source_are_interpolated() {
    let text = "session:\n  orchestrator: {module: \"${HOST}\"}\n  context: c\n  metadata: {host: \"${HOST}\"}\n";
    let session = parse_ok(text).plan.session;
    assert_eq!(session.orchestrator.module, "${HOST}");
    assert_eq!(json!(session.metadata), json!({"host": "${HOST}"}));
}

#[test]
fn unknown_keys_are_warnings() {
    let text = "session:\n  orchestrator: {module: o, sourc: x}\n  context: c\n  contxt: d\nmodels: []\n";
    assert_eq!(
        warnings(text),
        [
            "plan.yaml:2:29: session.orchestrator.sourc: unknown key `sourc` is ignored; did you mean `source`? \
             known keys: module, source, config, instance_id, isolation",
            "plan.yaml:4:3: session.contxt: unknown key `contxt` is ignored; did you mean `context`? known keys: \
             orchestrator, context, resolver, injection_size_limit, injection_budget_per_turn, \
             tool_timeout, tool_timeouts, cancel_grace, metadata, raw, orchestrator_source, context_source",
            "plan.yaml:5:1: models: unknown key `models` is ignored; \
             known keys: session, providers, tools, hooks, agents, spawn, system, orchestrator, context",
        ]
    );
}

#[test]
fn warnings_accompany_errors() {
    let text = format!("{SESSION}hooks:\n  - modul: hooks-logging\n");
    assert_eq!(
        error(&text),
        "plan.yaml:3:5: hooks[0].module: missing required field; expected a non-empty string\n\
         warning: plan.yaml:3:5: hooks[0].modul: unknown key `modul` is ignored; did you mean `module`? \
         known keys: module, source, config, instance_id, isolation"
    );
}

#[test]
fn instance_id_outside_providers_is_a_warning_and_ignored() {
    let text = format!("{SESSION}tools:\n  - module: tool-echo\n    instance_id: echo2\n");
    let parsed = parse_ok(&text);
    assert_eq!(parsed.plan.tools[0].instance_id, None);
    assert_eq!(
        parsed.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["plan.yaml:4:18: tools[0].instance_id: `instance_id` only applies to providers; ignored"]
    );
}

#[test]
fn upstreams_legacy_forms_and_spawn_are_read_as_upstream_defines_them() {
    let text = "session:\n  orchestrator: loop-basic\n  context: {module: context-simple, config: {max_tokens: 9}}\n  \
                orchestrator_source: ./loop\n  context_source: ./ctx\n\
                orchestrator:\n  config: {max_iterations: 3}\ncontext:\n  config: {max_tokens: 1, compact_threshold: 0.5}\n\
                spawn:\n  exclude_tools: [tool-task]\n";
    let parsed = parse_ok(text);
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let session = &parsed.plan.session;
    assert_eq!(session.orchestrator.source.as_deref(), Some("./loop"));
    assert_eq!(json!(session.orchestrator.config), json!({"max_iterations": 3}));
    assert_eq!(session.context.source.as_deref(), Some("./ctx"));
    // The session's own config wins over the legacy top-level one.
    assert_eq!(json!(session.context.config), json!({"max_tokens": 9, "compact_threshold": 0.5}));
    let positions = session.orchestrator.config_positions.as_ref().unwrap();
    assert_eq!(positions.keys["max_iterations"], (7, 12));
    assert_eq!(parsed.plan.spawn.exclude_tools, ["tool-task"]);
    assert_eq!(parsed.plan.spawn.tools, None);
    let text = "session: {orchestrator: {module: o, source: ./a}, context: c, orchestrator_source: ./b}\n\
                spawn: {tools: [tool-echo]}\n";
    let parsed = parse_ok(text);
    assert_eq!(parsed.plan.session.orchestrator.source.as_deref(), Some("./a"));
    assert_eq!(
        parsed.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["plan.yaml:1:84: session.orchestrator_source: `orchestrator_source` differs from `session.orchestrator.source`, which wins"]
    );
    assert_eq!(parsed.plan.spawn.tools, Some(vec!["tool-echo".to_owned()]));
}

#[test]
fn isolation_is_in_process_unless_the_plan_says_process() {
    let text = format!("{SESSION}tools:\n  - module: tool-echo\n    isolation: process\n  - module: tool-bash\n");
    let tools = parse_ok(&text).plan.tools;
    assert_eq!(tools[0].isolation, Isolation::Process);
    assert_eq!(tools[1].isolation, Isolation::InProcess);
    let text = format!("{SESSION}tools:\n  - module: tool-echo\n    isolation: sandbox\n");
    assert_eq!(error(&text), "plan.yaml:4:16: tools[0].isolation: expected `in-process` or `process`, found `sandbox`");
}

#[test]
fn duplicate_provider_instance_points_at_the_second_entry() {
    let text = format!(
        "{SESSION}providers:\n  - module: provider-a\n    instance_id: fast\n  - module: provider-b\n    instance_id: fast\n"
    );
    assert_eq!(
        error(&text),
        "plan.yaml:5:5: providers[1]: provider mount name `fast` is already used by providers[0]\n  \
         hint: give each instance of `provider-b` its own `instance_id`"
    );
}

#[test]
fn one_provider_module_twice_without_instance_id() {
    let text = format!("{SESSION}providers:\n  - {{module: provider-a}}\n  - {{module: provider-a}}\n");
    assert_eq!(
        error(&text),
        "plan.yaml:4:5: providers[1]: provider mount name `provider-a` is already used by providers[0]\n  \
         hint: give each instance of `provider-a` its own `instance_id`"
    );
    let distinct =
        format!("{SESSION}providers:\n  - {{module: provider-a}}\n  - {{module: provider-a, instance_id: second}}\n");
    assert_eq!(parse_ok(&distinct).plan.providers.len(), 2);
}

#[test]
fn every_type_error_is_reported_in_file_order() {
    let text = r#"session:
  orchestrator: {module: ""}
  context: [context-simple]
  injection_size_limit: -1
  injection_budget_per_turn: lots
  raw: "yes"
providers:
  - module: 42
    config: [a, b]
  - provider-b
tools: {module: tool-echo}
"#;
    assert_eq!(
        error(text),
        "plan.yaml:2:26: session.orchestrator.module: expected a non-empty string, found an empty string
plan.yaml:3:12: session.context: expected a module id or a map with `module`, found a list
plan.yaml:4:25: session.injection_size_limit: expected a non-negative integer or null, found a negative integer
plan.yaml:5:30: session.injection_budget_per_turn: expected a non-negative integer or null, found a string
plan.yaml:6:8: session.raw: expected a boolean, found a string
plan.yaml:8:13: providers[0].module: expected a non-empty string, found an integer
plan.yaml:9:13: providers[0].config: expected a map, found a list
plan.yaml:10:5: providers[1]: expected a map with `module`, found a string
plan.yaml:11:8: tools: expected a list of module specs, found a map"
    );
}

#[test]
fn config_keys_must_be_strings() {
    let text = format!("{SESSION}providers:\n  - module: p\n    config:\n      1: one\n");
    assert_eq!(
        error(&text),
        "plan.yaml:5:7: providers[0].config: expected a string key, found an integer\n  \
         hint: quote the key to make it a string"
    );
    let quoted = format!("{SESSION}providers:\n  - module: p\n    config:\n      \"1\": one\n");
    assert_eq!(json!(parse_ok(&quoted).plan.providers[0].config), json!({"1": "one"}));
}

#[test]
fn duplicate_keys_are_errors() {
    assert_eq!(
        error("session:\n  orchestrator: a\n  context: c\n  orchestrator: b\n"),
        "plan.yaml:4:3: session.orchestrator: duplicate key `orchestrator` (first defined on line 2)"
    );
}

#[test]
fn an_empty_agents_map_is_an_error() {
    assert_eq!(
        error("session: {orchestrator: orchestrator-router, context: c}\nagents: {}\n"),
        "plan.yaml:2:9: agents: names no agent; name at least one, or remove `agents:`"
    );
}

#[test]
fn config_values_become_json() {
    let text = format!(
        r#"{SESSION}hooks:
  - module: h
    config:
      int: 10
      hex: 0x1F
      float: 2.5
      exp: 1e3
      yes_is_a_string: yes
      bool: false
      none: null
      tilde: ~
      empty:
      quoted_number: "10"
      tagged: !!str true
      block: |
        line one
        line two
      defaults: &defaults {{retries: 3}}
      again: *defaults
"#
    );
    assert_eq!(
        json!(parse_ok(&text).plan.hooks[0].config),
        json!({
            "int": 10,
            "hex": 31,
            "float": 2.5,
            "exp": 1000.0,
            "yes_is_a_string": "yes",
            "bool": false,
            "none": null,
            "tilde": null,
            "empty": null,
            "quoted_number": "10",
            "tagged": "true",
            "block": "line one\nline two\n",
            "defaults": {"retries": 3},
            "again": {"retries": 3},
        })
    );
}

#[test]
fn non_finite_floats_cannot_become_json() {
    let text = format!("{SESSION}hooks:\n  - {{module: h, config: {{limit: .inf}}}}\n");
    assert_eq!(error(&text), "plan.yaml:3:33: hooks[0].config.limit: expected a finite number, found inf");
}

#[test]
fn plan_must_be_one_map() {
    assert_eq!(error("- session\n"), "plan.yaml:1:1: expected a map, found a list");
    assert_eq!(
        error(&format!("{SESSION}---\n{SESSION}")),
        "plan.yaml:2:1: expected a single YAML document, found a second one"
    );
}

#[test]
fn text_without_a_path_is_called_plan() {
    let err = parse_plan_str_with_env("tools: []\n", None, &env).unwrap_err();
    assert_eq!(
        err.to_string(),
        "<plan>:1:1: session: missing required field; \
         expected a map with `orchestrator` and `context`"
    );
    let parsed = parse_plan_str_with_env(SESSION, None, &env).unwrap();
    assert_eq!(parsed.path, None);
}

#[test]
fn diagnostics_expose_their_parts() {
    let Err(PlanError::Invalid { errors, warnings }) =
        parse(&format!("{SESSION}tools: [{{module: t, source: [x]}}]\n"))
    else {
        panic!("expected an invalid plan");
    };
    assert!(warnings.is_empty());
    let error = &errors[0];
    assert_eq!((error.file.as_str(), error.line, error.column), ("plan.yaml", 2, 29));
    assert_eq!(error.field, "tools[0].source");
    assert_eq!(error.message, "expected a string, found a list");
    assert_eq!(error.hint, None);
}

#[test]
fn parse_plan_str_reads_the_process_environment() {
    // Cargo sets CARGO_PKG_NAME for the test process.
    let text = format!("{SESSION}tools:\n  - {{module: t, config: {{name: \"${{CARGO_PKG_NAME}}\"}}}}\n");
    let plan = parse_plan_str(&text, None).unwrap().plan;
    assert_eq!(json!(plan.tools[0].config), json!({"name": "amplifier-plan"}));
}

#[test]
fn parse_plan_file_reads_and_names_the_file() {
    let dir = std::env::temp_dir().join(format!("amplifier-plan-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.yaml");
    std::fs::write(&good, SESSION).unwrap();
    let parsed = parse_plan_file(&good).unwrap();
    assert_eq!(parsed.plan.session.orchestrator.module, "loop-basic");
    assert_eq!(parsed.path.as_deref(), Some(good.as_path()));

    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "session: {context: c}\n").unwrap();
    let err = parse_plan_file(&bad).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "{}:1:10: session.orchestrator: missing required field; \
             expected a module id or a map with `module`",
            bad.display()
        )
    );

    let missing = dir.join("missing.yaml");
    let err = parse_plan_file(&missing).unwrap_err();
    assert!(matches!(err, PlanError::Read { .. }));
    assert!(err.to_string().starts_with(&format!("cannot read mount plan {}: ", missing.display())));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hostile_yaml_is_refused_not_crashed_on() {
    let deep = format!("{SESSION}agents: {{a: {}{}}}\n", "[".repeat(200), "]".repeat(200));
    let err = error(&deep);
    assert!(err.starts_with("plan.yaml:2:"), "{err}");
    assert!(err.ends_with(": nesting is deeper than 128 levels"), "{err}");
    assert_eq!(
        error(&format!("{SESSION}agents: {{a: &loop [*loop]}}\n")),
        "plan.yaml:2:20: agents.a[0]: an alias cannot refer to a node that contains it"
    );
    // "Billion laughs": nine levels of aliases, each copying the one below
    // ten times, would be 10^9 values from under a kilobyte.
    let mut laughs = format!("{SESSION}agents:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..=9 {
        let below = format!("*l{}", level - 1);
        laughs.push_str(&format!("  l{level}: &l{level} [{}]\n", [below.as_str(); 10].join(", ")));
    }
    assert!(laughs.len() < 1024, "{} bytes", laughs.len());
    let started = std::time::Instant::now();
    let err = error(&laughs);
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "refused at once, not after expanding");
    assert!(err.contains("expands to more than 100000 values through its aliases"), "{err}");
    assert!(err.starts_with("plan.yaml:7:47: agents.l4[7]: "), "the alias that crosses the bound: {err}");
}
