//! Names of tools a module mounts for another party (an MCP server, a remote
//! service): `<prefix>__<tool>`, so two parties can each offer a tool of the
//! same name and the model still tells them apart.

/// The longest tool name every provider API accepts (OpenAI's limit).
pub const MAX_LEN: usize = 64;

/// `<prefix>__<tool>`, every character outside `[A-Za-z0-9_-]` replaced by
/// `_`: the only characters every provider API accepts in a tool name.
///
/// One character becomes one ASCII character, so the name is as many bytes
/// long as the two parts have characters (plus two), and may be longer than
/// [`MAX_LEN`]: whether to cut it (which may make two names equal) or to
/// refuse it is the caller's choice.
pub fn prefixed(prefix: &str, tool: &str) -> String {
    format!("{prefix}__{tool}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_prefixed_and_sanitised() {
        assert_eq!(prefixed("everything", "get-sum"), "everything__get-sum");
        assert_eq!(prefixed("fs", "read.file/v2 now"), "fs__read_file_v2_now");
        assert_eq!(prefixed("my.svc/v1", "q"), "my_svc_v1__q");
        assert_eq!(prefixed("s", "é"), "s___");
    }

    #[test]
    fn long_names_are_left_to_the_caller() {
        let name = prefixed("server", &"x".repeat(100));
        assert_eq!(name.len(), "server__".len() + 100);
        assert!(name.len() > MAX_LEN);
    }
}
