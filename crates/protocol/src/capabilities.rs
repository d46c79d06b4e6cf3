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
