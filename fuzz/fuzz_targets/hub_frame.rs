//! One text frame a remote service sends the service hub (tool-services).
#![no_main]

libfuzzer_sys::fuzz_target!(|text: &str| {
    if let Ok(frame) = amplifier_service_sdk::wire::parse(text) {
        for field in ["taskId", "name", "status", "error", "requestId"] {
            let _ = frame.field(field);
        }
    }
});
