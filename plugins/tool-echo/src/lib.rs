//! `echo`: returns its input. The smallest useful tool, for tests and the quickstart.

use amplifier_sdk::prelude::*;

struct Echo;

impl Tool for Echo {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "echo",
            "Returns the given text unchanged. Use it to test tool calling.",
            json!({
                "type": "object",
                "properties": {"text": {"type": "string", "description": "The text to echo"}},
                "required": ["text"]
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        ToolResult::ok(input["text"].clone())
    }

    /// It answers at once: no thread hop.
    fn may_block(&self) -> bool {
        false
    }
}

fn mount(_ctx: MountContext) -> ModuleResult<Tools> {
    Ok(Tools::new().with(Echo))
}

export_module!(tool => mount);
