//! Images attached to a prompt (`amplifier run --image FILE`, in any output
//! format; the REPL's `/image FILE`) reach the provider as image blocks
//! before the prompt.

mod common;

use std::path::Path;

use common::*;
use serde_json::{json, Value};

/// The smallest PNG there is: one transparent pixel.
const PIXEL: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\x00\x01\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82";

fn write_plan(dir: &Path) {
    let provider = scripted(r#"[{text: "a single pixel"}]"#)
        .replace("{script:", &format!("{{requests_log: \"{}\", script:", dir.join("requests.jsonl").display()));
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();
}

/// The messages of the model's first request.
fn first_request(dir: &Path) -> Vec<Value> {
    let log = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    let first: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    first["messages"].as_array().unwrap().clone()
}

#[test]
fn an_image_reaches_the_model_before_the_prompt() {
    // Whatever the output: the SSE frames of `--output-format sse` too.
    for format in ["text", "sse"] {
        let dir = tempfile::tempdir().unwrap();
        write_plan(dir.path());
        std::fs::write(dir.path().join("pixel.png"), PIXEL).unwrap();
        let output = amplifier(dir.path())
            .args(["run", "--plan", "plan.yaml", "--output-format", format, "--image", "pixel.png", "what is this?"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{format}: {}", stderr(&output));
        if format == "sse" {
            assert!(stdout(&output).contains("a single pixel"), "{}", stdout(&output));
        }
        assert_image_then_prompt(dir.path());
    }
}

fn assert_image_then_prompt(dir: &Path) {
    let messages = first_request(dir);
    let image = &messages[messages.len() - 2];
    assert_eq!(image["role"], "user");
    assert_eq!(image["content"][0], json!({"type": "text", "text": "Attached image: pixel.png"}));
    let source = &image["content"][1]["source"];
    assert_eq!(
        (image["content"][1]["type"].as_str(), source["media_type"].as_str()),
        (Some("image"), Some("image/png"))
    );
    assert_eq!(source["data"].as_str().map(str::len), Some(PIXEL.len().div_ceil(3) * 4), "base64 of the file");
    assert_eq!(messages.last().unwrap(), &json!({"role": "user", "content": "what is this?"}));
}

#[test]
fn a_file_that_is_not_an_image_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    write_plan(dir.path());
    std::fs::write(dir.path().join("notes.png"), "just words").unwrap();
    let output = amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "--image", "notes.png", "hi"]).output();
    let output = output.unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("notes.png is not a PNG, JPEG, GIF or WebP image"), "{}", stderr(&output));
    assert!(!dir.path().join("requests.jsonl").exists(), "the model was never asked");
}
