//! The mount-plan parser: YAML with positions, aliases, `${VAR}`, the walk.
#![no_main]

libfuzzer_sys::fuzz_target!(|text: &str| {
    let env = |name: &str| (name.len() % 2 == 0).then(|| format!("value-of-{name}"));
    let _ = amplifier_plan::parse_plan_str_with_env(text, None, &env);
});
