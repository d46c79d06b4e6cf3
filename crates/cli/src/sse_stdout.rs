//! `amplifier run --output-format sse`: the run's frames on stdout.

use std::io::Write;
use std::sync::Arc;

use amplifier_host::sse::{self, Encoder, Frame, FrameSink, Mapper};
use amplifier_host::{Conversation, SessionBuilder};
use amplifier_kernel::models::Message;
use serde_json::{json, Value};

use crate::error::{CliError, CliResult};
use crate::hosting;

/// Frames to standard output, as they happen.
struct StdoutSink {
    encoder: Encoder,
}

impl FrameSink for StdoutSink {
    fn send(&self, frame: Frame) {
        write(&self.encoder.encode(&frame));
    }
}

fn write(text: &str) {
    let mut stdout = std::io::stdout().lock();
    // A closed stdout (`| head`) must not fail the run.
    let _ = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
}

pub async fn run(
    builder: SessionBuilder,
    conversation: Conversation,
    (prompt, images): (&str, &[Message]),
) -> CliResult {
    write(sse::PROLOGUE);
    let thread = serde_json::from_str::<Value>(prompt).ok().and_then(|v| v.get("threadId").cloned());
    let approval = Arc::new(crate::approval::TerminalApproval::new(std::path::Path::new(".")));
    let mapper = Arc::new(Mapper::new(sse::correlation_id()));
    let sink = Arc::new(StdoutSink { encoder: Encoder::default() });
    let mut ctrl_c = None;
    let builder = builder.approval(approval).conversation(conversation.clone());
    let result =
        sse::stream(builder, (prompt, images), Some(json!({"threadId": thread})), (mapper, sink), |coordinator| {
            let (user, id) = conversation.resolve(coordinator.session_id());
            crate::trace_bridge::attach(coordinator, user, id);
            ctrl_c = Some(hosting::cancel_on_ctrl_c(coordinator));
        })
        .await;
    if let Some(task) = ctrl_c {
        task.abort();
    }
    result.map(drop).map_err(CliError::from)
}
