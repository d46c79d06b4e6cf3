//! The bounded YAML reader every file a checkout carries goes through:
//! settings, skills' frontmatter (and the limits plans share).
#![no_main]

libfuzzer_sys::fuzz_target!(|text: &str| {
    if let Err(err) = amplifier_yaml::load(text) {
        // Positions name a place in the text.
        assert!(err.line >= 1, "{err:?}");
    }
});
