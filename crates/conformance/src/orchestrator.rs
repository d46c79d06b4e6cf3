//! An orchestrator's checks: `orchestrator_execute` and, with
//! `--behavioral`, `orchestrator_tool_loop`, each a session of the
//! orchestrator with the scripted provider, context-simple and an
//! in-process `validate_echo` tool.
//!
//! The provider and the context are the modules built into the program,
//! named without a `source`; `AMPLIFIER_VALIDATE_PROVIDER` and
//! `AMPLIFIER_VALIDATE_CONTEXT` name other copies (a crate directory or a
//! library).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use amplifier_kernel::events;
use amplifier_kernel::hooks::HookEvent;
use amplifier_kernel::models::{HookResult, JsonMap, Role, ToolResult, ToolSpec};
use amplifier_kernel::plan::{ModuleSpec, MountPlan, SessionSettings};
use amplifier_kernel::services::RunStates;
use amplifier_kernel::session::Session;
use amplifier_kernel::traits::{BoxFuture, HookHandler, ModuleResult, Tool};
use amplifier_loader::DylibLoader;
use serde_json::{json, Value};

use crate::{preview, timed, Checks, Severity, Validation, RUN_TIMEOUT};

impl Validation<'_> {
    pub(crate) async fn check_orchestrator(&self, checks: &mut Checks, config: JsonMap) {
        let helpers = match (PROVIDER.source(), CONTEXT.source()) {
            (Ok(provider), Ok(context)) => (provider, context),
            (Err(message), _) | (_, Err(message)) => {
                return checks.fail("orchestrator_execute", Severity::Error, message)
            }
        };
        let reply = "Validation reply.";
        let run = self.run_session(&helpers, config.clone(), json!([{"text": reply}]), &["Say hello."]).await;
        checks.record(
            "orchestrator_execute",
            Severity::Error,
            run.and_then(|run| {
                let answer = run.answers.first().cloned().unwrap_or_default();
                check_events(&run.events)?;
                if run.context_len < 2 {
                    return Err(format!(
                        "after the run the context holds {} message(s); the prompt and the reply belong there",
                        run.context_len
                    ));
                }
                Ok(format!(
                    "answered {} with the scripted provider; events {}",
                    preview(&answer),
                    run.events.join(", ")
                ))
            }),
        );
        if self.options.behavioral {
            let script = json!([
                {"tool_calls": [{"name": "validate_echo", "arguments": {"text": "one"}}]},
                {"tool_calls": [{"name": "validate_echo", "arguments": {"text": "two"}}]},
                {"text": "Loop done."},
                {"text": "Second answer."}
            ]);
            let run = self.run_session(&helpers, config, script, &["Use the tool twice.", "And again?"]).await;
            checks.record(
                "orchestrator_tool_loop",
                Severity::Error,
                run.and_then(|run| {
                    if run.tool_inputs != [json!({"text": "one"}), json!({"text": "two"})] {
                        return Err(format!(
                            "the scripted provider asked for validate_echo twice ({{text: one}}, then {{text: two}}); \
                             the tool saw {}",
                            preview(&run.tool_inputs)
                        ));
                    }
                    let count = |name: &str| run.events.iter().filter(|e| *e == name).count();
                    if count(events::TOOL_PRE) != 2 || count(events::TOOL_POST) != 2 {
                        return Err(format!(
                            "2 tool calls, but {} tool:pre and {} tool:post events",
                            count(events::TOOL_PRE),
                            count(events::TOOL_POST)
                        ));
                    }
                    if count(events::ORCHESTRATOR_COMPLETE) != 2 {
                        return Err(format!(
                            "2 prompts, but {} orchestrator:complete events",
                            count(events::ORCHESTRATOR_COMPLETE)
                        ));
                    }
                    check_events(&run.events)?;
                    if run.tool_results < 2 {
                        return Err(format!("{} tool result message(s) in the context, 2 expected", run.tool_results));
                    }
                    Ok(format!(
                        "2 tool calls over 3 provider requests, then a second prompt; answers {}",
                        preview(&run.answers)
                    ))
                }),
            );
        }
    }

    /// Runs `prompts` in a session of this orchestrator, the scripted
    /// provider (playing `script`) and context-simple (each named by
    /// [`Helper::source`]), with an in-process `validate_echo` tool.
    async fn run_session(
        &self,
        (provider_source, context_source): &(Option<String>, Option<String>),
        config: JsonMap,
        script: Value,
        prompts: &[&str],
    ) -> Result<SessionRun, String> {
        let orchestrator = ModuleSpec { field_path: "session.orchestrator".into(), ..self.spec(config) };
        let context = ModuleSpec {
            source: context_source.clone(),
            field_path: "session.context".into(),
            ..ModuleSpec::new("context-simple")
        };
        let mut provider_config = JsonMap::new();
        provider_config.insert("script".into(), script);
        let provider = ModuleSpec {
            source: provider_source.clone(),
            config: provider_config,
            field_path: "providers[0]".into(),
            ..ModuleSpec::new("provider-scripted")
        };
        let mut plan = MountPlan::new(SessionSettings::new(orchestrator, context));
        plan.providers.push(provider);
        // A routing orchestrator answers through the plan's agents; one with
        // no overlay of its own runs on the providers above.
        plan.agents.insert("validate".into(), json!({"description": "Answers the validator's prompts."}));
        let loader = Arc::new(DylibLoader::new(None, &self.options.amplifier_home));
        let session = Session::new(plan, loader, Default::default());
        let recorder = Arc::new(Recorder::default());
        session.coordinator().hooks().register("*", recorder.clone(), i32::MAX, "validate");
        session.coordinator().set_run_states(Arc::new(RunStatesInMemory::default()));
        let result = self.drive(&session, &recorder, prompts).await;
        session.cleanup().await;
        result
    }

    async fn drive(&self, session: &Session, recorder: &Arc<Recorder>, prompts: &[&str]) -> Result<SessionRun, String> {
        let report = session.initialize().await.map_err(|err| err.to_string())?;
        if let Some(failure) = report.failures.first() {
            return Err(format!("{} {} failed to load: {}", failure.kind, failure.module, failure.error));
        }
        let tool = Arc::new(EchoTool::new());
        let coordinator = session.coordinator();
        coordinator.mount_tool("validate", tool.clone());
        let mut answers = Vec::new();
        for prompt in prompts {
            let answer = timed(RUN_TIMEOUT, session.execute(prompt))
                .await?
                .map_err(|err| format!("the prompt {prompt:?} failed: {err}"))?;
            answers.push(answer);
        }
        let messages = coordinator.get_messages().await.map_err(|err| err.message)?;
        let started = recorder.0.lock().expect("recorder lock").clone();
        let tool_inputs = tool.inputs.lock().expect("tool lock").clone();
        Ok(SessionRun {
            answers,
            events: started.into_iter().filter(|e| e != events::SESSION_START).collect(),
            context_len: messages.len(),
            tool_results: messages.iter().filter(|m| m.role == Role::Tool).count(),
            tool_inputs,
        })
    }
}

/// A module the orchestrator checks run the orchestrator with.
struct Helper {
    /// The module id a plan names it by (and it is built in as).
    module: &'static str,
    /// The variable naming another copy: a crate directory or a library.
    variable: &'static str,
}

const PROVIDER: Helper = Helper { module: "provider-scripted", variable: "AMPLIFIER_VALIDATE_PROVIDER" };
const CONTEXT: Helper = Helper { module: "context-simple", variable: "AMPLIFIER_VALIDATE_CONTEXT" };

impl Helper {
    /// The helper's `source` in the session's plan: the path `$variable`
    /// names, else none, so that the loader finds the module by its name
    /// (the copy built into the program, unless `AMPLIFIER_MODULE_<ID>` or
    /// an installed module of that name comes first, as for any plan).
    fn source(&self) -> Result<Option<String>, String> {
        let built_in = amplifier_loader::builtin::find(self.module).is_some();
        self.source_from(std::env::var_os(self.variable), built_in)
    }

    /// [`Helper::source`] given the variable's value and whether the
    /// module is built into the program.
    fn source_from(&self, value: Option<OsString>, built_in: bool) -> Result<Option<String>, String> {
        let variable = self.variable;
        match value.filter(|value| !value.is_empty()) {
            Some(value) => {
                let path = PathBuf::from(value);
                let canonical = path.canonicalize().map_err(|err| {
                    format!(
                        "the orchestrator checks need {} (from ${variable}): {err}\nhint: set {variable} to its crate \
                         directory or library",
                        path.display()
                    )
                })?;
                Ok(Some(canonical.display().to_string()))
            }
            None if built_in => Ok(None),
            None => Err(format!(
                "the orchestrator checks need the module {}, which is not built into this program, and {variable} \
                 is not set\nhint: set {variable} to its crate directory or library (`plugins/{}` of the amplifier \
                 repository)",
                self.module, self.module
            )),
        }
    }
}

/// What an orchestrator run left behind.
struct SessionRun {
    answers: Vec<String>,
    /// Event names after `session:start`, in order.
    events: Vec<String>,
    context_len: usize,
    tool_results: usize,
    tool_inputs: Vec<Value>,
}

/// Upstream's orchestrator contract: these events, the last one `orchestrator:complete`.
fn check_events(events: &[String]) -> Result<(), String> {
    let required = [
        events::PROMPT_SUBMIT,
        events::PROVIDER_REQUEST,
        events::PROVIDER_RESPONSE,
        events::PROMPT_COMPLETE,
        events::ORCHESTRATOR_COMPLETE,
    ];
    let missing: Vec<&str> = required.iter().copied().filter(|r| !events.iter().any(|e| e == r)).collect();
    if !missing.is_empty() {
        return Err(format!("never emitted {} (emitted: {})", missing.join(", "), events.join(", ")));
    }
    match events.last() {
        Some(last) if last == events::ORCHESTRATOR_COMPLETE => Ok(()),
        last => Err(format!(
            "the last event of a run must be orchestrator:complete, not {}",
            last.map(String::as_str).unwrap_or("nothing")
        )),
    }
}

/// Records the name of every event.
#[derive(Default)]
struct Recorder(Mutex<Vec<String>>);

impl HookHandler for Recorder {
    fn handle<'a>(&'a self, event: &'a HookEvent) -> BoxFuture<'a, ModuleResult<HookResult>> {
        self.0.lock().expect("recorder lock").push(event.name.clone());
        Box::pin(async { Ok(HookResult::continue_()) })
    }
}

/// `validate_echo`: an in-process tool for the orchestrator's tool loop.
struct EchoTool {
    spec: ToolSpec,
    inputs: Mutex<Vec<Value>>,
}

impl EchoTool {
    fn new() -> Self {
        let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
        EchoTool { spec: ToolSpec::new("validate_echo", "Returns the given text.", schema), inputs: Mutex::default() }
    }
}

impl Tool for EchoTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, input: Value) -> BoxFuture<'_, ToolResult> {
        self.inputs.lock().expect("tool lock").push(input.clone());
        Box::pin(async move { ToolResult::ok(input.get("text").cloned().unwrap_or(Value::Null)) })
    }
}

/// Run states for the validator's sessions (`runs.*`), kept while it runs:
/// an orchestrator that keeps its runs is checked like any other.
#[derive(Default)]
struct RunStatesInMemory(Mutex<HashMap<String, Value>>);

impl RunStates for RunStatesInMemory {
    fn load<'a>(&'a self, thread: &'a str) -> BoxFuture<'a, ModuleResult<Option<Value>>> {
        let state = self.0.lock().expect("run states lock").get(thread).cloned();
        Box::pin(async move { Ok(state) })
    }

    fn save<'a>(&'a self, thread: &'a str, state: Value) -> BoxFuture<'a, ModuleResult<()>> {
        self.0.lock().expect("run states lock").insert(thread.to_owned(), state);
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_are_the_built_in_modules_unless_a_variable_names_another_copy() {
        assert_eq!(PROVIDER.source_from(None, true), Ok(None), "the built-in copy, by name");
        assert_eq!(CONTEXT.source_from(Some(OsString::new()), true), Ok(None), "an empty variable is unset");

        let dir = std::env::temp_dir().canonicalize().unwrap();
        let named = PROVIDER.source_from(Some(dir.clone().into_os_string()), true);
        assert_eq!(named, Ok(Some(dir.display().to_string())), "the variable wins over the built-in copy");
        let missing = PROVIDER.source_from(Some("/no/such/provider-scripted".into()), true).unwrap_err();
        assert!(missing.contains("$AMPLIFIER_VALIDATE_PROVIDER") && missing.contains("\nhint: "), "{missing}");
    }

    #[test]
    fn without_a_built_in_copy_or_a_variable_the_check_says_what_to_set() {
        let message = CONTEXT.source_from(None, false).unwrap_err();
        assert!(message.contains("the module context-simple, which is not built into this program"), "{message}");
        assert!(message.contains("\nhint: set AMPLIFIER_VALIDATE_CONTEXT to its crate directory or library"));
    }
}
