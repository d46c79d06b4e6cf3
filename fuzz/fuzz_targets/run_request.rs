//! The body of `POST /v1/runs`, as `amplifier serve` checks it.
#![no_main]

libfuzzer_sys::fuzz_target!(|body: &[u8]| {
    let _ = amplifier_protocol::runs::parse_request(body, || "thread_fuzz".into());
});
