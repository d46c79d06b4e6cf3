//! A tool's checks: `tool_name`, `tool_description`, `tool_input_schema`,
//! `tool_execute`, `tool_invalid_input` and, with `--behavioral`,
//! `tool_concurrency`.

use std::sync::Arc;

use amplifier_kernel::models::ToolResult;
use amplifier_kernel::traits::Tool;
use amplifier_kernel::Coordinator;
use serde_json::Value;

use crate::schema::{invalid_input, minimal_instance};
use crate::{preview, timed, Checks, Severity, Validation, CHECK_TIMEOUT};

impl Validation<'_> {
    pub(crate) async fn check_tools(
        &self,
        checks: &mut Checks,
        tools: Vec<Arc<dyn Tool>>,
        coordinator: &Arc<Coordinator>,
    ) {
        if tools.is_empty() {
            return checks.fail(
                "tool_name",
                Severity::Warning,
                "the module mounts no tools at mount time (tools mounted later at run time are not validated)",
            );
        }
        for tool in tools {
            let spec = tool.spec().clone();
            let name = spec.name.clone();
            let name_ok = !name.is_empty()
                && name.len() <= 64
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            checks.record(
                "tool_name",
                Severity::Error,
                if name_ok {
                    Ok(format!("`{name}`"))
                } else {
                    Err(format!("tool name '{name}' must be 1-64 characters of a-z, A-Z, 0-9, _ and - (model APIs reject others)"))
                },
            );
            checks.record(
                "tool_description",
                Severity::Warning,
                match spec.description.as_deref().map(str::trim) {
                    Some(text) if !text.is_empty() => Ok(format!("`{name}`: {}", preview(&text))),
                    _ => Err(format!("`{name}` has no description: models choose tools by their descriptions")),
                },
            );
            let validator = jsonschema::validator_for(&spec.parameters);
            checks.record(
                "tool_input_schema",
                Severity::Error,
                match (&validator, spec.parameters.get("type")) {
                    (Err(err), _) => Err(format!("`{name}`: the input schema is not a valid JSON Schema: {err}")),
                    (Ok(_), Some(t)) if t != "object" => Err(format!(
                        "`{name}`: the input schema must describe an object (`\"type\": \"object\"`), not {t}"
                    )),
                    (Ok(_), _) => Ok(format!("`{name}`: a valid JSON Schema")),
                },
            );
            let validator = validator.ok();
            coordinator.mount_tool(&self.name, tool.clone());

            let input = minimal_instance(&spec.parameters, "", &self.scratch);
            checks.record("tool_execute", Severity::Error, tool_execute(&tool, &name, input.clone()).await);

            let (invalid, what) = invalid_input(validator.as_ref(), &spec.parameters, &input);
            let outcome = match timed(CHECK_TIMEOUT, tool.execute(invalid.clone())).await {
                Err(message) => Err(format!("`{name}` with {what}: {message}")),
                Ok(result) if tool_result_panicked(&result) => {
                    Err(format!("`{name}` panicked on {what}: {}", result.serialized_output()))
                }
                Ok(direct) => {
                    let via_host = coordinator.execute_tool(&name, invalid, None).await;
                    if via_host.success {
                        Err(format!(
                            "`{name}` returned success for {what}: neither the input schema nor the tool rejects it"
                        ))
                    } else {
                        let itself = if direct.success { "success" } else { "an error result" };
                        Ok(format!("`{name}`: the host refuses {what}; called directly, the tool returns {itself}"))
                    }
                }
            };
            checks.record("tool_invalid_input", Severity::Error, outcome);

            if self.options.behavioral {
                let runs = (0..8).map(|_| timed(CHECK_TIMEOUT, tool.execute(input.clone())));
                let results = futures::future::join_all(runs).await;
                let problems: Vec<String> = results
                    .iter()
                    .filter_map(|r| match r {
                        Err(message) => Some(message.clone()),
                        Ok(result) if tool_result_panicked(result) => Some(result.serialized_output()),
                        Ok(_) => None,
                    })
                    .collect();
                checks.record(
                    "tool_concurrency",
                    Severity::Error,
                    match problems.first() {
                        None => Ok(format!("`{name}`: 8 concurrent calls all returned a ToolResult")),
                        Some(first) => {
                            Err(format!("`{name}`: {} of 8 concurrent calls failed: {first}", problems.len()))
                        }
                    },
                );
            }
        }
    }
}

fn tool_result_panicked(result: &ToolResult) -> bool {
    !result.success && result.error.as_ref().and_then(|e| e.get("type")).and_then(Value::as_str) == Some("panic")
}

/// One `tool_execute` run: a ToolResult, not a panic, within the time limit.
async fn tool_execute(tool: &Arc<dyn Tool>, name: &str, input: Value) -> Result<String, String> {
    let result = timed(CHECK_TIMEOUT, tool.execute(input.clone())).await.map_err(|m| format!("`{name}`: {m}"))?;
    if tool_result_panicked(&result) {
        return Err(format!("`{name}` panicked on {}: {}", preview(&input), result.serialized_output()));
    }
    if result.success {
        Ok(format!("`{name}` answered {} with success: {}", preview(&input), preview(&result.serialized_output())))
    } else {
        Ok(format!(
            "`{name}` answered {} with an error result: {}",
            preview(&input),
            preview(&result.serialized_output())
        ))
    }
}
