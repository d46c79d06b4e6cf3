//! The REPL in a real pseudo-terminal (util-linux `script`), typed into line
//! by line as its prompt appears: prompts are turns of one stored session,
//! slash commands answer, Ctrl-D leaves.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;

/// A program on a pseudo-terminal: what it printed so far, and its keyboard.
struct Terminal {
    child: Child,
    keyboard: ChildStdin,
    screen: Arc<Mutex<String>>,
    /// How much of the screen earlier `expect`s consumed.
    seen: usize,
}

impl Terminal {
    fn start(dir: &Path, state: &Path, command: &str) -> Terminal {
        // `exec`: with a shell that does not exec its last command (dash),
        // the shell would share the terminal's Ctrl-C and exit 130 for it.
        let command = format!("exec {command}");
        let mut child = Command::new("script")
            .args(["--quiet", "--return", "--command", &command, "/dev/null"])
            .current_dir(dir)
            .env("AMPLIFIER_HOME", amplifier_home())
            .env("AMPLIFIER_PLUGIN_PROFILE", "dev")
            .env("AMPLIFIER_STATE_DIR", state)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("util-linux `script`");
        let keyboard = child.stdin.take().unwrap();
        let mut output = child.stdout.take().unwrap();
        let screen = Arc::new(Mutex::new(String::new()));
        let sink = screen.clone();
        std::thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(n @ 1..) = output.read(&mut buffer) {
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        Terminal { child, keyboard, screen, seen: 0 }
    }

    /// Waits until `text` appears after what was already seen.
    fn expect(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen.lock().unwrap().clone();
            if let Some(at) = screen[self.seen..].find(text) {
                self.seen += at + text.len();
                return;
            }
            assert!(Instant::now() < deadline, "never saw {text:?}; the screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &str) {
        self.keyboard.write_all(keys.as_bytes()).unwrap();
        self.keyboard.flush().unwrap();
    }

    /// Waits for the program to end; a failure shows its status and screen.
    fn wait_for_success(mut self) {
        let status = self.child.wait().unwrap();
        // The reader thread may still be copying the last bytes.
        std::thread::sleep(Duration::from_millis(100));
        assert!(status.success(), "ended with {status}; the screen:\n{}", self.screen.lock().unwrap());
    }
}

#[test]
fn prompts_are_turns_of_one_stored_session_and_slash_commands_answer() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let requests = dir.path().join("requests.jsonl");
    let provider = scripted(r#"[{text: "first answer"}, {text: "second answer"}]"#)
        .replace("{script:", &format!("{{requests_log: \"{}\", script:", requests.display()));
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();
    // Build the plugins first, so the terminal shows only the session.
    let built = amplifier(dir.path())
        .args(["run", "--plan", "plan.yaml", "warm up"])
        .env("AMPLIFIER_STATE_DIR", &state)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    std::fs::remove_file(&requests).unwrap();

    let command = format!("{} run --plan plan.yaml", env!("CARGO_BIN_EXE_amplifier"));
    let mut terminal = Terminal::start(dir.path(), &state, &command);
    terminal.expect("/help for commands");
    terminal.expect("> ");
    terminal.type_keys("hello\r");
    terminal.expect("first answer");
    terminal.expect("> ");
    terminal.type_keys("/status\r");
    terminal.expect("turns    1");
    terminal.expect("provider provider-scripted (model script)");
    terminal.expect("> ");
    terminal.type_keys("/tools\r");
    terminal.expect("echo");
    terminal.expect("> ");
    terminal.type_keys("/nope\r");
    terminal.expect("unknown command /nope");
    terminal.expect("> ");
    // Tab completes a command; /mode sets how approvals are answered.
    terminal.type_keys("/mo\t");
    terminal.expect("/mode ");
    terminal.type_keys("auto\r");
    terminal.expect("mode auto: tool approvals are allowed without asking");
    terminal.expect("> ");
    // A trailing backslash continues the entry on the next line.
    terminal.type_keys("again, \\\r");
    terminal.type_keys("on two lines\r");
    terminal.expect("second answer");
    terminal.expect("> ");
    terminal.type_keys("/fork 1\r");
    terminal.expect("forked 1 turn(s) into ");
    terminal.expect("> ");
    let screen = terminal.screen.lock().unwrap().clone();
    let fork = screen.split("forked 1 turn(s) into ").nth(1).unwrap().split(';').next().unwrap().to_owned();
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();

    // The model got the two lines as one prompt.
    let log = std::fs::read_to_string(&requests).unwrap();
    let second: serde_json::Value = serde_json::from_str(log.lines().nth(1).unwrap()).unwrap();
    let prompt = second["messages"].as_array().unwrap().last().unwrap()["content"].clone();
    assert_eq!(prompt, "again, \non two lines");

    // The REPL's session is the newest: both turns, completed.
    let list = amplifier(dir.path()).args(["session", "list"]).env("AMPLIFIER_STATE_DIR", &state).output().unwrap();
    let newest =
        stdout(&list).lines().nth(1).unwrap_or_default().split_whitespace().next().unwrap_or_default().to_owned();
    let show =
        amplifier(dir.path()).args(["session", "show", &newest]).env("AMPLIFIER_STATE_DIR", &state).output().unwrap();
    let show = stdout(&show);
    let field = |name: &str| show.lines().find(|l| l.starts_with(name)).unwrap_or_default().to_owned();
    assert!(field("messages").trim_end().ends_with(" 4"), "{show}");
    assert!(field("turns").trim_end().ends_with(" 2"), "{show}");
    assert!(field("status").contains("completed"), "{show}");
    // The fork is a stored session of its own, with the first turn.
    let forked =
        amplifier(dir.path()).args(["session", "show", &fork]).env("AMPLIFIER_STATE_DIR", &state).output().unwrap();
    let forked = stdout(&forked);
    assert!(forked.lines().any(|l| l.starts_with("turns") && l.trim_end().ends_with(" 1")), "{forked}");
}

/// A REPL on `orchestrator` whose model first runs `bash` (which touches
/// `dir/started`, then sleeps 2 s), then answers `answer`; every request
/// is logged to `dir/requests.jsonl`. The plugins are built first, so the
/// terminal shows only the session.
fn sleeping_tool_session(dir: &Path, state: &Path, orchestrator: &str, answer: &str) -> Terminal {
    let bash = format!(
        "  - {{module: tool-bash, source: \"{}\", config: {{working_dir: \"{}\"}}}}",
        plugin("tool-bash"),
        dir.display()
    );
    let sleep = format!("touch {} && sleep 2", dir.join("started").display());
    let provider = scripted(&format!(
        r#"[{{tool_calls: [{{name: bash, arguments: {{command: "{sleep}"}}}}]}}, {{text: "{answer}"}}]"#
    ))
    .replace("{script:", &format!("{{requests_log: \"{}\", script:", dir.join("requests.jsonl").display()));
    let plan = on_orchestrator(&plan_yaml(&provider, &bash, "  []"), orchestrator);
    std::fs::write(dir.join("plan.yaml"), plan).unwrap();
    let built = amplifier(dir)
        .args(["run", "--plan", "plan.yaml", "--allow-partial", "warm up"])
        .env("AMPLIFIER_STATE_DIR", state)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    std::fs::remove_file(dir.join("started")).ok();
    std::fs::remove_file(dir.join("requests.jsonl")).ok();
    let command = format!("{} run --plan plan.yaml", env!("CARGO_BIN_EXE_amplifier"));
    Terminal::start(dir, state, &command)
}

/// `plan` with `orchestrator` in place of loop-basic.
fn on_orchestrator(plan: &str, orchestrator: &str) -> String {
    plan.replace(
        &format!("{{module: loop-basic, source: \"{}\"}}", plugin("loop-basic")),
        &format!("{{module: {orchestrator}, source: \"{}\"}}", plugin(orchestrator)),
    )
}

/// `amplifier run` of `dir/plan.yaml` with no terminal anywhere.
fn run_piped(dir: &Path, state: &Path, prompt: &str) -> std::process::Output {
    amplifier(dir)
        .args(["run", "--plan", "plan.yaml", prompt])
        .env("AMPLIFIER_STATE_DIR", state)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Waits until the session's bash tool has started.
fn wait_for_the_tool(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !dir.join("started").exists() {
        assert!(Instant::now() < deadline, "the tool never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_cancels_the_running_turn_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let mut terminal = sleeping_tool_session(dir.path(), &state, "loop-basic", "still here");
    terminal.expect("> ");
    terminal.type_keys("sleep please\r");
    wait_for_the_tool(dir.path());
    terminal.type_keys("\u{3}");
    terminal.expect("cancelling");
    terminal.expect("(turn cancelled)");
    // The running tool finishes (graceful), the turn ends, the prompt returns.
    terminal.expect("> ");
    terminal.type_keys("are you there?\r");
    terminal.expect("still here");
    terminal.expect("> ");
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();
}

#[test]
fn a_line_typed_during_a_turn_steers_it() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let mut terminal = sleeping_tool_session(dir.path(), &state, "loop-streaming", "steered answer");
    terminal.expect("> ");
    terminal.type_keys("take your time\r");
    wait_for_the_tool(dir.path());
    terminal.type_keys("and mention the weather\r");
    terminal.expect("(queued: the model reads this at its next step)");
    terminal.expect("steered answer");
    terminal.expect("> ");
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();

    // The request after the tool carried the steering as a user message, after the tool's result.
    let log = std::fs::read_to_string(dir.path().join("requests.jsonl")).unwrap();
    let second: serde_json::Value = serde_json::from_str(log.lines().nth(1).expect("a second request")).unwrap();
    let messages = second["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    assert_eq!((last["role"].as_str(), last["content"].as_str()), (Some("user"), Some("and mention the weather")));
    assert_eq!(messages[messages.len() - 2]["role"], "tool");
}

#[test]
fn an_approval_asked_during_a_turn_gets_the_typed_answer() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let provider =
        scripted(r#"[{tool_calls: [{name: echo, arguments: {text: approved text}}]}, {text: "tool said its piece"}]"#);
    let hooks = format!(
        "  - {{module: hooks-approval, source: \"{}\", config: {{rules: [{{tool: echo, action: ask}}]}}}}",
        plugin("hooks-approval")
    );
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", &hooks)).unwrap();
    let built = run_piped(dir.path(), &state, "warm up");
    assert!(built.status.success(), "{}", stderr(&built));

    let command = format!("{} run --plan plan.yaml", env!("CARGO_BIN_EXE_amplifier"));
    let mut terminal = Terminal::start(dir.path(), &state, &command);
    terminal.expect("> ");
    terminal.type_keys("echo something\r");
    terminal.expect("Allow the tool `echo`?");
    terminal.expect("choose [1-3]");
    // The steering reader is polling the same terminal; the answer is the question's.
    terminal.type_keys("1\r");
    terminal.expect("tool said its piece");
    terminal.expect("> ");
    let screen = terminal.screen.lock().unwrap().clone();
    assert!(!screen.contains("(queued") && !screen.contains("no answer in time"), "{screen}");
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();
}

#[test]
fn the_streaming_ui_renders_markdown_and_a_line_per_tool_and_stays_quiet_when_piped() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let answer = r"## Result\n\nThe tool said **two words**.\n\n- first\n- second\n";
    let provider = scripted(&format!(
        r#"[{{tool_calls: [{{name: echo, arguments: {{text: two words}}}}]}}, {{text: "{answer}"}}]"#
    ));
    let hooks = format!(
        "  - {{module: hooks-streaming-ui, source: \"{}\"}}\n  - {{module: hooks-approval, source: \"{}\", config: {{rules: [{{tool: echo, action: ask}}]}}}}",
        plugin("hooks-streaming-ui"),
        plugin("hooks-approval")
    );
    let plan = on_orchestrator(&plan_yaml(&provider, "", &hooks), "loop-streaming");
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();

    // Piped, the renderer draws nothing: stdout is the answer as the model wrote it.
    let piped = run_piped(dir.path(), &state, "go");
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), answer.replace(r"\n", "\n") + "\n");
    assert!(!stderr(&piped).contains("✓"), "{}", stderr(&piped));

    let command = format!("{} run --plan plan.yaml \"go\"", env!("CARGO_BIN_EXE_amplifier"));
    let mut terminal = Terminal::start(dir.path(), &state, &command);
    // The spinner gives way to the question, and the tool gets its line when it is done.
    terminal.expect("Allow the tool `echo`?");
    terminal.expect("choose [1-3]");
    terminal.type_keys("1\r");
    terminal.expect("✓\x1b[0m echo {\"text\":\"two words\"}");
    // Markdown rendered: a bold heading without its hashes, bold text, bullets.
    terminal.expect("\x1b[1mResult\x1b[0m");
    terminal.expect("The tool said \x1b[1mtwo words\x1b[0m.");
    terminal.expect("• first");
    terminal.expect("• second");
    let screen = terminal.screen.lock().unwrap().clone();
    terminal.wait_for_success();
    // Drawn once, by the renderer: the host's plain printer stood down.
    assert!(!screen.contains("**two words**") && !screen.contains("## Result"), "{screen}");
}

#[test]
fn the_streaming_ui_names_the_agent_a_router_chose() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let plan = format!(
        r#"session:
  orchestrator: {{module: orchestrator-router, source: "{router}"}}
  context: {{module: context-simple, source: "{context}"}}
hooks:
  - {{module: hooks-streaming-ui, source: "{ui}"}}
agents:
  support:
    description: the support agent
    providers: [{{module: provider-scripted, source: "{scripted}", config: {{script: [{{text: "Support answers."}}]}}}}]
"#,
        router = plugin("orchestrator-router"),
        context = plugin("context-simple"),
        ui = plugin("hooks-streaming-ui"),
        scripted = plugin("provider-scripted"),
    );
    std::fs::write(dir.path().join("plan.yaml"), plan).unwrap();
    let command = format!("{} run --plan plan.yaml \"hi\"", env!("CARGO_BIN_EXE_amplifier"));
    let mut terminal = Terminal::start(dir.path(), &state, &command);
    terminal.expect("\x1b[2m→ support\x1b[0m");
    terminal.expect("Support answers.");
    terminal.wait_for_success();
}

#[test]
fn locked_refuses_to_start_a_conversation_when_the_modules_differ_from_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let provider = scripted(r#"[{text: "locked in"}]"#);
    let hook = format!("  - {{module: hooks-redaction, source: \"{}\"}}", plugin("hooks-redaction"));
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", &hook)).unwrap();
    let locked =
        amplifier(dir.path()).args(["run", "--plan", "plan.yaml", "hi"]).env("AMPLIFIER_STATE_DIR", &state).output();
    let locked = locked.unwrap();
    assert!(locked.status.success(), "{}", stderr(&locked));
    assert!(std::fs::read_to_string(dir.path().join("amplifier.lock")).unwrap().contains("hooks-redaction"));
    // The plan drops the hook; the lock still has it.
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();

    let command = format!("{} run --plan plan.yaml --locked", env!("CARGO_BIN_EXE_amplifier"));
    let mut terminal = Terminal::start(dir.path(), &state, &command);
    terminal.expect("differ from");
    terminal.expect("hook 'hooks-redaction' is in amplifier.lock");
    terminal.expect("hint: run `amplifier update --plan plan.yaml [MODULE]`");
    let status = terminal.child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let screen = terminal.screen.lock().unwrap().clone();
    assert_eq!(status.code(), Some(1), "{screen}");
    assert!(!screen.contains("/help for commands"), "no conversation starts: {screen}");
}

/// A REPL on a plan whose scripted model answers `answer` (its requests
/// logged to `dir/requests.jsonl`), with `extra_tools`; the plugins are
/// built first, so the terminal shows only the session.
fn answering_session(dir: &Path, answer: &str, extra_tools: &str) -> Terminal {
    let requests = dir.join("requests.jsonl");
    let provider = scripted(&format!("[{{text: \"{answer}\"}}]"))
        .replace("{script:", &format!("{{requests_log: \"{}\", script:", requests.display()));
    std::fs::write(dir.join("plan.yaml"), plan_yaml(&provider, extra_tools, "  []")).unwrap();
    let built = amplifier(dir).args(["tool", "list", "--plan", "plan.yaml"]).output().unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    let command = format!("{} run --plan plan.yaml", env!("CARGO_BIN_EXE_amplifier"));
    Terminal::start(dir, &dir.join("state"), &command)
}

/// The messages of the first request `answering_session`'s model got.
fn first_request_messages(dir: &Path) -> Vec<serde_json::Value> {
    let log = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    let request: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    request["messages"].as_array().unwrap().clone()
}

#[test]
fn slash_skills_lists_the_skills_and_slash_skill_puts_one_into_the_conversation() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join(".amplifier/skills/haiku");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: haiku\ndescription: Answers in haiku.\n---\nAnswer in three lines of 5, 7 and 5 syllables.\n",
    )
    .unwrap();
    let mut terminal = answering_session(dir.path(), "an old silent pond", "  - {module: tool-skills}");
    terminal.expect("> ");
    terminal.type_keys("/skills\r");
    terminal.expect("haiku");
    terminal.expect("Answers in haiku.");
    terminal.expect("> ");
    terminal.type_keys("/skill limerick\r");
    terminal.expect("no skill named `limerick`; the skills are: haiku");
    terminal.expect("> ");
    terminal.type_keys("/skill haiku\r");
    terminal.expect("skill haiku is in the conversation");
    terminal.expect("> ");
    terminal.type_keys("write about a pond\r");
    terminal.expect("an old silent pond");
    terminal.expect("> ");
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();

    let messages = first_request_messages(dir.path());
    let skill = &messages[messages.len() - 2];
    assert_eq!(skill["role"], "user");
    assert!(skill["content"].as_str().unwrap().contains("Answer in three lines of 5, 7 and 5 syllables."), "{skill}");
    assert_eq!(messages.last().unwrap()["content"], "write about a pond");
}

#[test]
fn slash_image_attaches_an_image_to_the_next_prompt() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("dot.gif"), b"GIF89a\x01\x00\x01\x00\x00\x00\x00;").unwrap();
    let mut terminal = answering_session(dir.path(), "a dot", "");
    terminal.expect("> ");
    terminal.type_keys("/image dot.gif\r");
    terminal.expect("dot.gif is attached; the next prompt sees it");
    terminal.expect("> ");
    terminal.type_keys("what is it?\r");
    terminal.expect("a dot");
    terminal.expect("> ");
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();

    let messages = first_request_messages(dir.path());
    let image = &messages[messages.len() - 2]["content"][1];
    assert_eq!((image["type"].as_str(), image["source"]["media_type"].as_str()), (Some("image"), Some("image/gif")));
}

#[test]
fn slash_prompt_fills_in_an_mcp_prompt_and_sends_it() {
    let dir = tempfile::tempdir().unwrap();
    let everything = npm_package("@modelcontextprotocol/server-everything");
    let tool = format!(
        "  - {{module: tool-mcp, config: {{servers: {{everything: {{command: node, args: [\"{}\"]}}}}}}}}",
        everything.display()
    );
    let mut terminal = answering_session(dir.path(), "cold and clear", &tool);
    terminal.expect("> ");
    terminal.type_keys("/prompts\r");
    terminal.expect("everything/args-prompt");
    terminal.expect("[city state?]");
    terminal.expect("> ");
    terminal.type_keys("/prompt everything/args-prompt city=Oslo\r");
    terminal.expect("cold and clear");
    terminal.expect("> ");
    terminal.type_keys("/prompt args-prompt\r");
    terminal.expect("usage: /prompt SERVER/NAME");
    terminal.expect("> ");
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();
    let messages = first_request_messages(dir.path());
    assert_eq!(messages.last().unwrap()["content"], "What's weather in Oslo?");
}

#[test]
fn slash_compact_summarizes_the_conversation_before_the_last_turn() {
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let script =
        "[{text: \"first answer\"}, {text: \"second answer\"}, {text: \"They said hello.\"}, {text: \"third answer\"}]";
    let provider =
        scripted(script).replace("{script:", &format!("{{requests_log: \"{}\", script:", requests.display()));
    std::fs::write(dir.path().join("plan.yaml"), plan_yaml(&provider, "", "  []")).unwrap();
    let built = amplifier(dir.path()).args(["tool", "list", "--plan", "plan.yaml"]).output().unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    let command = format!("{} run --plan plan.yaml", env!("CARGO_BIN_EXE_amplifier"));
    let mut terminal = Terminal::start(dir.path(), &dir.path().join("state"), &command);
    terminal.expect("> ");
    terminal.type_keys("/compact\r");
    terminal.expect("nothing to compact yet");
    terminal.expect("> ");
    terminal.type_keys("hello\r");
    terminal.expect("first answer");
    terminal.expect("> ");
    terminal.type_keys("more\r");
    terminal.expect("second answer");
    terminal.expect("> ");
    terminal.type_keys("/compact the greetings\r");
    terminal.expect("compacted: 2 messages summarized");
    terminal.expect("> ");
    terminal.type_keys("again\r");
    terminal.expect("third answer");
    terminal.expect("> ");
    terminal.type_keys("/save conversation.json\r");
    terminal.expect("saved 7 messages");
    terminal.expect("> ");
    terminal.type_keys("\u{4}");
    terminal.wait_for_success();

    let log = std::fs::read_to_string(&requests).unwrap();
    let sent: Vec<serde_json::Value> = log.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(sent.len(), 4);
    // The summary request: the first turn as a transcript, with the focus.
    let ask = sent[2]["messages"][1]["content"].as_str().unwrap();
    assert!(ask.contains("User: hello") && ask.contains("Assistant: first answer"), "{ask}");
    assert!(!ask.contains("more"), "the last turn is kept whole: {ask}");
    assert!(ask.contains("Focus the summary on: the greetings"), "{ask}");
    // The next turn carries the summary instead of the first turn.
    let texts: Vec<String> = sent[3]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| match m["content"].as_array() {
            Some(blocks) => blocks.iter().filter_map(|b| b["text"].as_str()).collect(),
            None => m["content"].as_str().unwrap_or_default().to_owned(),
        })
        .collect();
    assert!(!texts.iter().any(|t| t == "hello"), "{texts:?}");
    let summary = texts.iter().position(|t| t.starts_with("[Summary of the earlier conversation]")).expect("{texts:?}");
    assert!(texts[summary].ends_with("They said hello."));
    assert_eq!(texts[summary + 1..], ["more", "second answer", "again"]);
    // Nothing is lost: the history keeps the first turn, and the summary beside it.
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("conversation.json")).unwrap()).unwrap();
    assert_eq!(saved[0]["content"], "hello");
    assert_eq!(saved[2]["metadata"]["compaction_summary"]["messages"], 2);
}
