//! A hooks file in Claude Code's and codex's format, as hooks-command reads
//! one from a checkout.
#![no_main]

libfuzzer_sys::fuzz_target!(|text: &str| {
    let _ = hooks_command::read_hooks_file_text(text);
});
