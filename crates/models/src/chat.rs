//! Between upstream's messages and a small local model (`provider-local`).
//!
//! The model's own chat template (ChatML for SmolLM2 and Qwen) frames the
//! turns; what goes in them follows `tests/llm/qwen_codeblock_tools_v2.jinja`,
//! measured to make Qwen2.5-Coder call tools: the tools are listed in the
//! system turn and the model answers a call as a ```json block, past calls
//! are shown the same way, and tool results come back as a user turn that
//! restates the question and asks for a plain-text answer or another call
//! (`after_results` says what each part is for).

use amplifier_protocol::models::{ChatRequest, ContentBlock, Message, MessageContent, Role, ToolSpec};
use serde_json::{json, Value};

/// One turn for the chat template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    pub role: &'static str,
    pub content: String,
}

const DEFAULT_SYSTEM: &str = "You are a helpful assistant.";
const CALL_FORMAT: &str = "For each function call, return a json object with function name and arguments \
    in a ```json code block:\n```json\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n```";

/// The turns for `request`: one system turn, then the conversation. The
/// system turn holds the system and developer messages that open the
/// request, then the tools, then the system messages that come later (what
/// hooks inject for this request, such as hooks-status-context's): text that
/// changes from one request to the next goes last, so the evaluated prefix a
/// local model keeps (the plan's prompt and the tools) stays valid.
pub fn turns(request: &ChatRequest) -> Vec<Turn> {
    let is_system = |m: &&Message| matches!(m.role, Role::System | Role::Developer);
    let texts = |messages: Vec<&Message>| -> Vec<String> {
        messages.into_iter().map(|m| m.content.text()).filter(|text| !text.trim().is_empty()).collect()
    };
    let opening = texts(request.messages.iter().take_while(is_system).collect());
    let injected = texts(request.messages.iter().skip_while(is_system).filter(is_system).collect());
    let mut system = if opening.is_empty() { DEFAULT_SYSTEM.to_owned() } else { opening.join("\n\n") };
    let tools = request.tools.as_deref().unwrap_or_default();
    if !tools.is_empty() {
        system.push_str("\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n");
        system.push_str("You are provided with function signatures within <tools></tools> XML tags:\n<tools>");
        for tool in tools {
            let signature = json!({
                "type": "function",
                "function": {"name": tool.name, "description": tool.description, "parameters": tool.parameters},
            });
            system.push('\n');
            system.push_str(&signature.to_string());
        }
        system.push_str("\n</tools>\n\n");
        system.push_str(CALL_FORMAT);
    }
    for text in injected {
        system.push_str("\n\n");
        system.push_str(&text);
    }
    let mut out = vec![Turn { role: "system", content: system }];
    // The question the results answer, restated after them: a small model
    // reading a numbered file otherwise answers with a line number.
    let mut question = String::new();
    // The user turn holding the latest results, and the length of its closing words.
    let mut open_results: Option<usize> = None;
    // This turn's calls so far, and whether the latest repeated one of them.
    let mut calls: Vec<(String, Value)> = Vec::new();
    let mut repeated = false;
    for message in &request.messages {
        match message.role {
            Role::System | Role::Developer => {}
            Role::User => {
                question = message.content.text();
                open_results = None;
                calls.clear();
                out.push(Turn { role: "user", content: question.clone() });
            }
            Role::Assistant => {
                open_results = None;
                let made = message_calls(message);
                repeated = !made.is_empty() && made.iter().all(|call| calls.contains(call));
                calls.extend(made);
                out.push(Turn { role: "assistant", content: assistant_text(message) });
            }
            Role::Tool | Role::Function => {
                let result = message.tool_result_text();
                // With no tool offered (the loop's last iteration), another
                // call cannot run: the model is told so, or it writes one as text.
                let closing = after_results(&question, repeated || tools.is_empty());
                match open_results {
                    // Consecutive results share one user turn.
                    Some(closing_len) if out.last().is_some_and(|last| last.role == "user") => {
                        let last = out.last_mut().expect("checked above");
                        let at = last.content.len() - closing_len;
                        last.content.insert_str(at, &format!("{result}\n"));
                    }
                    _ => out.push(Turn { role: "user", content: format!("Tool results:\n{result}\n{closing}") }),
                }
                open_results = Some(closing.len());
            }
        }
    }
    out
}

/// What follows tool results: answer from them, or look further. Measured
/// on Qwen2.5-Coder: without "in plain text" the 0.5B model calls the same
/// tool again; without the question restated, it answers a numbered file
/// with a line number; told never to call again, the 1.5B model gives up
/// after a search in the wrong file. So another call is offered until the
/// model repeats one (same tool, same arguments), which gets the same
/// results: then it is told to answer (and provider-local offers no call,
/// see [`repeats_a_call`]).
fn after_results(question: &str, repeated: bool) -> String {
    if repeated {
        return format!(
            "Do not call the tool again. Answer my question in plain text using these results. My question: {question}"
        );
    }
    format!(
        "If these results answer my question, answer it in plain text. If they do not, call a tool again with \
         other arguments (another file, a simpler pattern). My question: {question}"
    )
}

/// Whether the latest assistant message of the current turn (since the
/// last user message) only repeated calls the turn had made already.
pub fn repeats_a_call(request: &ChatRequest) -> bool {
    let turn_start = request.messages.iter().rposition(|m| m.role == Role::User).map_or(0, |i| i + 1);
    let mut calls: Vec<(String, Value)> = Vec::new();
    let mut repeated = false;
    for message in request.messages.iter().skip(turn_start).filter(|m| m.role == Role::Assistant) {
        let made = message_calls(message);
        repeated = !made.is_empty() && made.iter().all(|call| calls.contains(call));
        calls.extend(made);
    }
    repeated
}

/// The calls an assistant message made, from its `tool_calls` and its
/// tool-call blocks.
fn message_calls(message: &Message) -> Vec<(String, Value)> {
    let mut calls: Vec<(String, Value)> =
        message.tool_calls.iter().flatten().map(|c| (c.name.clone(), c.arguments.clone())).collect();
    if let MessageContent::Blocks(blocks) = &message.content {
        for block in blocks {
            if let ContentBlock::ToolCall { name, input, .. } = block {
                calls.push((name.clone(), input.clone()));
            }
        }
    }
    calls
}

/// An assistant message as the model would have written it: its text, then
/// each tool call as a ```json block.
fn assistant_text(message: &Message) -> String {
    let mut text = message.content.text();
    for (name, arguments) in message_calls(message) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!("```json\n{}\n```", json!({"name": name, "arguments": arguments})));
    }
    text
}

/// A reply split into its text and its tool calls: every fenced block that
/// holds `{"name": <one of tools>, "arguments": {...}}` is a call; the rest is
/// text. Without tools nothing is a call.
pub fn split_reply(reply: &str, tools: &[ToolSpec]) -> (String, Vec<(String, Value)>) {
    let mut text = String::new();
    let mut calls = Vec::new();
    let mut rest = reply;
    while let Some(open) = rest.find("```") {
        let after_fence = &rest[open + 3..];
        let body_start = after_fence.find('\n').map_or(after_fence.len(), |i| i + 1);
        let Some(close) = after_fence[body_start..].find("```") else { break };
        let body = &after_fence[body_start..body_start + close];
        let block_end = open + 3 + body_start + close + 3;
        match parse_call(body, tools) {
            Some(call) => {
                text.push_str(&rest[..open]);
                calls.push(call);
            }
            None => text.push_str(&rest[..block_end]),
        }
        rest = &rest[block_end..];
    }
    text.push_str(rest);
    (text.trim().to_owned(), calls)
}

fn parse_call(body: &str, tools: &[ToolSpec]) -> Option<(String, Value)> {
    let value: Value = serde_json::from_str(body.trim()).ok()?;
    let name = value.get("name")?.as_str()?;
    if !tools.iter().any(|tool| tool.name == name) {
        return None;
    }
    let arguments = match value.get("arguments") {
        None | Some(Value::Null) => json!({}),
        // Some models quote the arguments object.
        Some(Value::String(raw)) => serde_json::from_str(raw).ok()?,
        Some(arguments) => arguments.clone(),
    };
    arguments.is_object().then(|| (name.to_owned(), arguments))
}

/// How much of streamed `text` can be shown now: everything before a fence
/// that may open a tool call (```, or a trailing ` or `` that may become
/// one) is text whatever follows.
pub fn shown_prefix(text: &str) -> usize {
    if let Some(open) = text.find("```") {
        return open;
    }
    text.len() - text.chars().rev().take_while(|c| *c == '`').count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use amplifier_protocol::models::ToolCall;

    fn tool(name: &str) -> ToolSpec {
        ToolSpec {
            extensions: Default::default(),
            name: name.into(),
            parameters: json!({"type": "object"}),
            description: Some("d".into()),
        }
    }

    #[test]
    fn tools_go_into_the_system_turn_and_history_is_rendered_as_the_model_writes() {
        let mut call = Message::new(Role::Assistant, "");
        call.tool_calls = Some(vec![ToolCall::new("c1", "echo", json!({"text": "x"}))]);
        let request = ChatRequest {
            messages: vec![
                Message::system("Be brief."),
                Message::user("echo x"),
                call,
                Message::tool_result("c1", "x"),
                Message::tool_result("c2", "y"),
            ]
            .into(),
            tools: Some(vec![tool("echo")]),
            ..Default::default()
        };
        let turns = turns(&request);
        assert_eq!(turns.len(), 4);
        assert!(turns[0].content.starts_with("Be brief.\n\n# Tools"), "{}", turns[0].content);
        assert!(turns[0].content.contains(r#""name":"echo""#) && turns[0].content.ends_with("```"));
        assert_eq!(turns[2].content, "```json\n{\"arguments\":{\"text\":\"x\"},\"name\":\"echo\"}\n```");
        assert_eq!(turns[3].content, format!("Tool results:\nx\ny\n{}", after_results("echo x", false)));
        assert!(!repeats_a_call(&request));
    }

    #[test]
    fn a_repeated_call_is_told_to_answer() {
        let call = |id: &str, text: &str| {
            let mut message = Message::new(Role::Assistant, "");
            message.tool_calls = Some(vec![ToolCall::new(id, "echo", json!({"text": text}))]);
            message
        };
        let mut request = ChatRequest {
            messages: vec![Message::user("echo x"), call("c1", "x"), Message::tool_result("c1", "x")].into(),
            tools: Some(vec![tool("echo")]),
            ..Default::default()
        };
        assert!(!repeats_a_call(&request));
        request.messages.push(call("c2", "x"));
        request.messages.push(Message::tool_result("c2", "x"));
        assert!(repeats_a_call(&request), "the same tool with the same arguments");
        let turns = turns(&request);
        assert!(turns[3].content.ends_with(&after_results("echo x", false)), "the first results offer another call");
        assert!(turns[5].content.ends_with(&after_results("echo x", true)), "the repeat's results do not");
        request.messages.push(Message::user("now echo y"));
        assert!(!repeats_a_call(&request), "a new turn starts afresh");
    }

    /// The loop's last iteration offers no tool: results are followed by
    /// the words that rule out another call, or the model writes one as text.
    #[test]
    fn results_with_no_tool_offered_are_told_to_answer() {
        let mut call = Message::new(Role::Assistant, "");
        call.tool_calls = Some(vec![ToolCall::new("c1", "echo", json!({"text": "x"}))]);
        let mut request = ChatRequest {
            messages: vec![Message::user("echo x"), call, Message::tool_result("c1", "x")].into(),
            tools: Some(vec![tool("echo")]),
            ..Default::default()
        };
        assert!(turns(&request)[3].content.ends_with(&after_results("echo x", false)));
        request.tools = None;
        let turns = turns(&request);
        assert!(!turns[0].content.contains("# Tools"), "{}", turns[0].content);
        assert!(turns[3].content.ends_with(&after_results("echo x", true)), "{}", turns[3].content);
    }

    #[test]
    fn fenced_calls_to_known_tools_are_calls_and_everything_else_is_text() {
        let tools = [tool("read_file")];
        let reply = "Let me look.\n```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}\n```";
        let (text, calls) = split_reply(reply, &tools);
        assert_eq!(text, "Let me look.");
        assert_eq!(calls, vec![("read_file".to_owned(), json!({"path": "a"}))]);

        let quoted = "```json\n{\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\": \\\"b\\\"}\"}\n```";
        assert_eq!(split_reply(quoted, &tools).1, vec![("read_file".to_owned(), json!({"path": "b"}))]);

        let code = "Use:\n```rust\nfn main() {}\n```\nDone.";
        assert_eq!(split_reply(code, &tools), (code.to_owned(), vec![]));
        let unknown = "```json\n{\"name\": \"rm\", \"arguments\": {}}\n```";
        assert_eq!(split_reply(unknown, &tools).1, vec![]);
        assert_eq!(split_reply(reply, &[]).1, vec![], "no tools offered, no calls");
    }

    #[test]
    fn text_is_shown_up_to_a_possible_fence() {
        assert_eq!(shown_prefix("hello"), 5);
        assert_eq!(shown_prefix("hello `"), 6);
        assert_eq!(shown_prefix("hello ``"), 6);
        assert_eq!(shown_prefix("a ```json {"), 2);
    }
}
