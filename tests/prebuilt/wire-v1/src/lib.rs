//! A plugin of every kind, built once and kept as a binary
//! (`libwire_v1.so`), so that a newer host must still load and speak to it.
//!
//! Its orchestrator calls each host service the SDK offers and returns a
//! JSON report of the answers; the provider, tool, hook, context and
//! resolver it exports are what those calls reach. It uses only the SDK's
//! named methods (`host.emit`, `host.complete`…), which every SDK since
//! the one it was built with offers, so this source still compiles.

use std::sync::{Arc, Mutex};

use amplifier_sdk::prelude::*;

// ---------------------------------------------------------------- tool

struct Echo;

impl Tool for Echo {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "wire_echo",
            "Answers with its input",
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        ToolResult::ok(json!({"echo": input["text"]}))
    }
}

/// Mounts `wire_late` at run time, as an MCP or services module would.
struct MountLate {
    host: Host,
}

impl Tool for MountLate {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new("wire_mount", "Mounts wire_late, or with {remove: true} unmounts it", json!({"type": "object"}))
    }

    async fn execute(&self, input: Value) -> ToolResult {
        let done = if input["remove"] == json!(true) {
            self.host.unmount_tools(vec!["wire_late".into()]).await
        } else {
            let spec = ToolSpec::new("wire_late", "Mounted at run time", json!({"type": "object"}));
            self.host.mount_tools(vec![spec]).await
        };
        match done {
            Ok(()) => ToolResult::ok(json!("done")),
            Err(err) => ToolResult::error(&err.kind_name(), err.message),
        }
    }
}

/// Runs the tools mounted at run time.
struct Mounted;

impl ToolDispatcher for Mounted {
    async fn execute(&self, name: &str, input: Value) -> ToolResult {
        ToolResult::ok(json!({"mounted": name, "input": input}))
    }
}

fn mount_tool(ctx: MountContext) -> ModuleResult<Tools> {
    Ok(Tools::new().with(Echo).with(MountLate { host: ctx.host }).with_dispatcher(Mounted))
}

// ---------------------------------------------------------------- provider

struct Parrot;

impl Provider for Parrot {
    fn info(&self) -> ProviderInfo {
        ProviderInfo { id: "wire".into(), display_name: "Wire parrot".into(), ..Default::default() }
    }

    async fn list_models(&self) -> ModuleResult<Vec<ModelInfo>> {
        Ok(vec![ModelInfo { id: "parrot-1".into(), context_window: 4096, ..Default::default() }])
    }

    async fn complete(&self, request: ChatRequest, stream: Stream) -> ModuleResult<ChatResponse> {
        let last = request.messages.last().map(|m| m.content.text()).unwrap_or_default();
        let text = format!("parrot: {last}");
        if stream.is_enabled() {
            for word in text.split_inclusive(' ') {
                stream.send(&StreamDelta::Text { index: 0, text: word.to_owned() });
            }
        }
        Ok(ChatResponse {
            content: vec![ContentBlock::text(text)],
            usage: Some(Usage { input_tokens: 3, output_tokens: 2, total_tokens: 5, ..Default::default() }),
            finish_reason: Some("stop".into()),
            ..Default::default()
        })
    }
}

fn mount_provider(_ctx: MountContext) -> ModuleResult<Parrot> {
    Ok(Parrot)
}

// ---------------------------------------------------------------- hook

struct Verdicts;

impl HookHandler for Verdicts {
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![Subscription::new("wire:*", 5, "wire-verdicts")]
    }

    async fn handle(&self, event: &str, data: JsonMap) -> ModuleResult<HookResult> {
        Ok(match event {
            "wire:deny" => HookResult::deny("the wire says no"),
            "wire:modify" => {
                let mut data = data;
                data.insert("modified".into(), json!(true));
                HookResult::modify(data)
            }
            "wire:inject" => HookResult::inject("remember the wire"),
            _ => HookResult::continue_(),
        })
    }
}

fn mount_hook(_ctx: MountContext) -> ModuleResult<Verdicts> {
    Ok(Verdicts)
}

// ---------------------------------------------------------------- context

#[derive(Default)]
struct Memory(Mutex<Vec<Message>>);

impl ContextManager for Memory {
    async fn add_message(&self, message: Message) -> ModuleResult<()> {
        self.0.lock().unwrap().push(message);
        Ok(())
    }

    async fn get_messages(&self) -> ModuleResult<Vec<Message>> {
        Ok(self.0.lock().unwrap().clone())
    }

    async fn get_messages_for_request(&self, _view: RequestView) -> ModuleResult<Vec<Message>> {
        Ok(self.0.lock().unwrap().clone())
    }

    async fn set_messages(&self, messages: Vec<Message>) -> ModuleResult<()> {
        *self.0.lock().unwrap() = messages;
        Ok(())
    }

    async fn clear(&self) -> ModuleResult<()> {
        self.0.lock().unwrap().clear();
        Ok(())
    }
}

fn mount_context(_ctx: MountContext) -> ModuleResult<Memory> {
    Ok(Memory::default())
}

// ---------------------------------------------------------------- orchestrator

struct Survey {
    host: Host,
}

/// An answer for the report: the value, or the error's kind and message.
fn answer<T: serde::Serialize>(result: Result<T, ModuleError>) -> Value {
    match result {
        Ok(value) => json!({"ok": value}),
        Err(err) => json!({"error": err.kind_name(), "message": err.message}),
    }
}

impl Orchestrator for Survey {
    async fn execute(&self, prompt: String) -> ModuleResult<String> {
        let host = &self.host;
        let mut report = JsonMap::new();
        let mut put = |key: &str, value: Value| {
            report.insert(key.to_owned(), value);
        };

        let info = host.session_info().await?;
        put("session.info", json!({"depth": info.depth, "cancellation": info.cancellation, "tools": info.tools}));
        put("hooks.emit", answer(host.emit("wire:ping", event_data(json!({"n": 1}))).await.map(|r| r.action)));
        put("hooks.dispatch deny", answer(host.dispatch("wire:deny", JsonMap::new()).await));
        put("hooks.dispatch modify", answer(host.dispatch("wire:modify", event_data(json!({"n": 2}))).await));
        put("hooks.dispatch inject", answer(host.dispatch("wire:inject", JsonMap::new()).await));

        host.add_message(Message::user(prompt)).await?;
        put("context.get_messages", answer(host.get_messages().await));
        let view = host.get_messages_for_request(RequestView::default()).await?;
        put("context.get_messages_for_request", json!(view.len()));

        let providers = host.providers().await?;
        put("provider.list", json!(providers.iter().map(|p| (&p.name, &p.info.id)).collect::<Vec<_>>()));
        let request = ChatRequest { messages: view, ..Default::default() };
        put("provider.complete", answer(host.complete(None, request.clone()).await.map(|r| r.text())));
        let deltas = Arc::new(Mutex::new(Vec::new()));
        let seen = deltas.clone();
        let streamed = host
            .complete_streaming(None, request, Arc::new(move |event| seen.lock().unwrap().push(event)))
            .await
            .map(|r| r.text());
        put("provider.complete stream", json!({"answer": answer(streamed), "deltas": *deltas.lock().unwrap()}));

        put("tool.list", json!(host.tools().await?.iter().map(|t| t.name.clone()).collect::<Vec<_>>()));
        put("tool.execute", answer(host.execute_tool("wire_echo", json!({"text": "hi"}), Some("call-1")).await));
        put("tool.execute invalid", answer(host.execute_tool("wire_echo", json!({"text": 7}), None).await));
        put("tools.mount", answer(host.execute_tool("wire_mount", json!({}), None).await.map(|r| r.output)));
        put("tool.list mounted", json!(host.tools().await?.iter().map(|t| t.name.clone()).collect::<Vec<_>>()));
        put("tool.execute mounted", answer(host.execute_tool("wire_late", json!({"a": 1}), None).await));
        let unmount = host.execute_tool("wire_mount", json!({"remove": true}), None).await.map(|r| r.output);
        put("tools.unmount", answer(unmount));
        put("tool.list after", json!(host.tools().await?.iter().map(|t| t.name.clone()).collect::<Vec<_>>()));

        put("capability.register", answer(host.register_capability("wire.answer", json!(42)).await));
        put("capability.get", answer(host.capability("wire.answer").await));
        put("capability.get missing", answer(host.capability("wire.nothing").await));
        put("session.steering_take", answer(host.take_steering().await));
        put("session.agents", answer(host.agents().await));
        put("history.fetch_all", answer(host.merged_history().await));

        host.set_messages(vec![Message::user("kept")]).await?;
        put("context.set_messages", answer(host.get_messages().await));

        Ok(Value::Object(report).to_string())
    }
}

fn mount_orchestrator(ctx: MountContext) -> ModuleResult<Survey> {
    Ok(Survey { host: ctx.host })
}

// ---------------------------------------------------------------- resolver

/// Resolves `wire-*` module ids to this very library, whose path the plan
/// gives as config `library`; anything else is "not mine".
struct SelfResolver {
    library: String,
}

impl Resolver for SelfResolver {
    async fn resolve(&self, request: ResolveRequest) -> ModuleResult<Option<ResolvedModule>> {
        Ok(request
            .module_id
            .starts_with("wire-")
            .then(|| ResolvedModule::path(&self.library, format!("wire-v1 resolver: {}", request.module_id))))
    }
}

fn mount_resolver(ctx: MountContext) -> ModuleResult<SelfResolver> {
    let library = ctx.config.get("library").and_then(Value::as_str).unwrap_or_default().to_owned();
    Ok(SelfResolver { library })
}

export_module!(
    tool => mount_tool,
    provider => mount_provider,
    hook => mount_hook,
    context => mount_context,
    orchestrator => mount_orchestrator,
    resolver => mount_resolver,
);
