//! Served runs (seed 002's run requests): the ids a client may choose.
//! `amplifier serve` checks them at the door, orchestrator-plan before it
//! starts a run and the host before it stores a run state, all by this one
//! rule.

/// A thread or user id: letters, digits, `-`, `_` and `.`, not starting
/// with `.`, at most 128 characters (so it is always a safe file name).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && !id.starts_with('.')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_safe_file_names() {
        assert!(super::valid_id("run-1_a.b"));
        for bad in ["", ".hidden", "..", "a/b", "a b", "ü", &"x".repeat(129)] {
            assert!(!super::valid_id(bad), "{bad}");
        }
    }
}
