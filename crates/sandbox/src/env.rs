//! The environment a spawned command gets: an allowlist, never amplifier's
//! whole environment (which holds the provider keys).

use std::collections::BTreeMap;
use std::process::Command;

/// Variables a spawned command inherits from amplifier's environment
/// unless its module's config says otherwise: what programs need to find
/// things and print text, nothing that holds a secret.
pub const INHERITED: &[&str] =
    &["HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LOGNAME", "PATH", "SHELL", "TERM", "TZ", "USER"];

/// Clears `command`'s environment, then gives it `inherit` (names) from
/// this process's environment and `set` as given.
pub fn apply<'a>(command: &mut Command, inherit: impl IntoIterator<Item = &'a str>, set: &BTreeMap<String, String>) {
    command.env_clear();
    for key in inherit {
        if let Some(value) = std::env::var_os(key) {
            command.env(key, value);
        }
    }
    command.envs(set);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_listed_variables_reach_the_command() {
        let mut command = Command::new("env");
        let set = BTreeMap::from([("GREETING".to_string(), "hi".to_string())]);
        apply(&mut command, ["PATH", "AMPLIFIER_SANDBOX_TEST_UNSET"], &set);
        let output = command.output().expect("env runs");
        let text = String::from_utf8(output.stdout).expect("utf-8");
        let mut names: Vec<&str> = text.lines().filter_map(|line| line.split('=').next()).collect();
        names.sort();
        assert_eq!(names, ["GREETING", "PATH"]);
    }
}
