//! Where amplifier keeps its files, read from the environment alike by the
//! host and every module: `$AMPLIFIER_HOME`, else `~/.amplifier`; `~/` at
//! the start of a configured path is `$HOME`. An empty variable counts as
//! unset.

use std::path::{Path, PathBuf};

/// An environment variable as a path, when it is set and not empty.
pub fn var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from)
}

/// `$HOME`.
pub fn home() -> Option<PathBuf> {
    var("HOME")
}

/// The amplifier home: `$AMPLIFIER_HOME`, else `~/.amplifier`; `None` when
/// neither variable is set.
pub fn amplifier_home() -> Option<PathBuf> {
    amplifier_home_of(var("AMPLIFIER_HOME"), home().as_deref())
}

/// [`amplifier_home`] from given values (for callers that read the
/// environment once, or test without it).
pub fn amplifier_home_of(amplifier_home: Option<PathBuf>, home: Option<&Path>) -> Option<PathBuf> {
    amplifier_home.or_else(|| home.map(|home| home.join(".amplifier")))
}

/// A configured path: `~/…` beneath `$HOME` (left as it is when HOME is
/// unset), a relative one beneath `base`, an absolute one as it is.
pub fn expand(path: &str, base: &Path) -> PathBuf {
    match (path.strip_prefix("~/"), home()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => base.join(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_amplifier_home_falls_back_to_the_users() {
        let home = Path::new("/home/u");
        assert_eq!(amplifier_home_of(Some("/ah".into()), Some(home)), Some("/ah".into()));
        assert_eq!(amplifier_home_of(None, Some(home)), Some("/home/u/.amplifier".into()));
        assert_eq!(amplifier_home_of(None, None), None);
    }

    #[test]
    fn relative_paths_are_beneath_the_base_and_absolute_ones_stay() {
        assert_eq!(expand("skills", Path::new("/w")), PathBuf::from("/w/skills"));
        assert_eq!(expand("/etc/x", Path::new("/w")), PathBuf::from("/etc/x"));
        if let Some(home) = home() {
            assert_eq!(expand("~/x", Path::new("/w")), home.join("x"));
        }
    }
}
