//! Capability names the host and modules agree on (`Coordinator`
//! capabilities: registered by one side, looked up by the other).

/// Registered by an orchestrator that drains steering (loop-streaming):
/// text typed during a turn joins it instead of waiting for the next prompt.
pub const STEER: &str = "session.steer";
/// Set by a front end when a person reads the session on a text terminal
/// (`amplifier` with `--output-format text` on a TTY).
pub const UI_TERMINAL: &str = "ui.terminal";
/// Registered by a hook module that took over drawing the session
/// (hooks-streaming-ui); the front end's plain printer then stands down.
pub const UI_RENDERER: &str = "ui.renderer";
/// Set by the host, to the prompt, on a turn that goes on from a stored
/// history that ends inside that prompt's turn (a served run taken over
/// from a worker that died): the history already holds the prompt, so an
/// orchestrator goes on from it instead of adding the prompt again.
pub const RESUMED_TURN: &str = "session.resumed_turn";
