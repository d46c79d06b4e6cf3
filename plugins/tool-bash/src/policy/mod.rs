//! The safety policy: which command lines may run.
//!
//! A line is split into simple commands ([`crate::split`]), and every
//! program it would run is checked: each simple command, the command a
//! wrapper runs (`sudo X`, `env A=1 X`, `timeout 5 X`, `xargs X`,
//! `find … -exec X`, …) and the lines given to `bash -c`, `sh -c`, `eval`,
//! `su -c` and `watch`, recursively. Leading assignments (`A=1 X`) and
//! reserved words (`if`, `then`, `do`, `!`, `{`, `time`, …) are skipped.
//!
//! Order: the profile's rules, then `denied_commands`, then
//! `allowed_commands`; the first refusal is reported, naming its rule, so a
//! deny always wins over an allow.
//!
//! This is a guard-rail against mistakes, not a sandbox: a command can
//! still write a script and run it, or compute a command's name at run time
//! (strict refuses the latter).

mod paths;
mod pattern;
mod rules;
mod wrappers;

use crate::split::{split, SimpleCommand};
use paths::{basename, is_device, normalize_absolute};
pub use pattern::Pattern;
use rules::{fork_bomb, piped_to_shell};
pub use rules::{Profile, Rule};
pub use wrappers::{expand, Expanded};

/// How deep `bash -c "bash -c '…'"` may nest before the line is refused.
const MAX_NESTED_LINES: usize = 8;

/// Decides whether a command line may run.
#[derive(Debug, Clone)]
pub struct Policy {
    profile: Profile,
    allowed: Vec<Pattern>,
    denied: Vec<Pattern>,
    /// The user's home directory, itself protected like `~`.
    home: Option<String>,
}

impl Policy {
    pub fn new(
        profile: Profile,
        allowed: &[String],
        denied: &[String],
        home: Option<String>,
    ) -> Result<Policy, String> {
        let patterns = |key: &str, list: &[String]| -> Result<Vec<Pattern>, String> {
            list.iter().map(|p| Pattern::new(p).map_err(|err| format!("{key}: {err}"))).collect()
        };
        Ok(Policy {
            profile,
            allowed: patterns("allowed_commands", allowed)?,
            denied: patterns("denied_commands", denied)?,
            home: home.map(|h| normalize_absolute(&h).map(|c| format!("/{}", c.join("/"))).unwrap_or(h)),
        })
    }

    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// `Ok` if `line` may run; otherwise why not, naming the rule.
    pub fn check(&self, line: &str) -> Result<(), String> {
        if self.profile == Profile::Permissive && self.allowed.is_empty() && self.denied.is_empty() {
            return Ok(());
        }
        self.check_denials(line, 0)?;
        if !self.allowed.is_empty() {
            self.check_allowed(line, 0)?;
        }
        Ok(())
    }

    fn parse(&self, line: &str, depth: usize) -> Result<Vec<SimpleCommand>, String> {
        if depth > MAX_NESTED_LINES {
            return Err(format!("cannot check the command line: shells nested more than {MAX_NESTED_LINES} deep"));
        }
        split(line).map_err(|err| format!("cannot check the command line against the safety rules: {err}"))
    }

    fn check_denials(&self, line: &str, depth: usize) -> Result<(), String> {
        let commands = self.parse(line, depth)?;
        if self.profile.applies(Rule::ForkBomb) {
            if let Some(definition) = fork_bomb(line) {
                return Err(self.profile_denial(Rule::ForkBomb, &definition));
            }
        }
        for command in &commands {
            if self.profile.applies(Rule::WriteDevice) {
                for redirect in &command.redirects {
                    let writes = matches!(redirect.op.as_str(), ">" | ">>" | ">|" | "&>" | "&>>" | "<>" | ">&");
                    if writes && is_device(&redirect.target) {
                        let shown = format!("{} {}{}", command.text(), redirect.op, redirect.target);
                        return Err(self.profile_denial(Rule::WriteDevice, shown.trim()));
                    }
                }
            }
            let expanded = expand(&command.words);
            for view in &expanded.views {
                self.check_view(view)?;
            }
            for nested in &expanded.lines {
                self.check_denials(nested, depth + 1)?;
            }
        }
        if self.profile.applies(Rule::PipeToShell) {
            if let Some(shown) = piped_to_shell(&commands) {
                return Err(self.profile_denial(Rule::PipeToShell, &shown));
            }
        }
        Ok(())
    }

    fn check_view(&self, view: &[String]) -> Result<(), String> {
        let text = view.join(" ");
        if let Some(rule) = Rule::ALL.into_iter().find(|&rule| self.profile.applies(rule) && self.breaks(rule, view)) {
            return Err(self.profile_denial(rule, &text));
        }
        let base = basename(&view[0]);
        let by_name = if base == view[0] {
            None
        } else {
            Some([base].into_iter().chain(view[1..].iter().map(String::as_str)).collect::<Vec<_>>().join(" "))
        };
        for pattern in &self.denied {
            if pattern.matches(&text) || by_name.as_deref().is_some_and(|t| pattern.matches(t)) {
                return Err(format!("denied by denied_commands pattern `{pattern}`: `{}`", excerpt(&text)));
            }
        }
        Ok(())
    }

    fn check_allowed(&self, line: &str, depth: usize) -> Result<(), String> {
        for command in self.parse(line, depth)? {
            let expanded = expand(&command.words);
            for view in &expanded.views {
                let text = view.join(" ");
                if !self.allowed.iter().any(|p| p.matches(&text)) {
                    let list: Vec<String> = self.allowed.iter().map(|p| format!("`{p}`")).collect();
                    return Err(format!(
                        "denied by allowed_commands: `{}` matches none of {}",
                        excerpt(&text),
                        list.join(", ")
                    ));
                }
            }
            for nested in &expanded.lines {
                self.check_allowed(nested, depth + 1)?;
            }
        }
        Ok(())
    }

    fn profile_denial(&self, rule: Rule, shown: &str) -> String {
        format!("denied by safety profile {}: `{}` ({})", self.profile.name(), excerpt(shown), rule.description())
    }
}

fn excerpt(text: &str) -> String {
    const MAX: usize = 200;
    if text.chars().count() <= MAX {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn policy(profile: Profile) -> Policy {
        Policy::new(profile, &[], &[], Some("/home/agent".into())).unwrap()
    }

    fn with_lists(profile: Profile, allowed: &[&str], denied: &[&str]) -> Policy {
        let owned = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Policy::new(profile, &owned(allowed), &owned(denied), Some("/home/agent".into())).unwrap()
    }

    #[track_caller]
    pub(super) fn denied(policy: &Policy, line: &str) -> String {
        match policy.check(line) {
            Ok(()) => panic!("expected `{line}` to be denied under {:?}", policy.profile),
            Err(message) => message,
        }
    }

    #[track_caller]
    pub(super) fn allowed(policy: &Policy, line: &str) {
        if let Err(message) = policy.check(line) {
            panic!("expected `{line}` to be allowed under {:?}: {message}", policy.profile);
        }
    }

    #[test]
    fn everyday_commands_pass_every_profile() {
        let everyday = [
            "ls -la",
            "cat src/main.rs",
            "cargo test --workspace 2>&1 | tail -n 50",
            "git status && git diff --stat",
            "grep -rn 'sudo' src/ || true",
            "echo \"sudo\"",
            "echo 'rm -rf /'",
            "rm -rf target/debug build/",
            "rm -rf ~/.cache/some-tool",
            "mkdir -p out && cd out && ls",
            "find . -name '*.rs' -exec grep -l TODO {} +",
            "FOO=1 cargo build",
            "for f in *.txt; do wc -l \"$f\"; done",
            "if [ -f Cargo.toml ]; then echo rust; fi",
            "cat <<EOF > notes.md\nsudo rm -rf / is a bad idea\nEOF",
            "python3 -c 'print(1)' > /dev/null 2>&1",
            "curl -s https://example.com | python3 -m json.tool",
            "chmod +x scripts/run.sh",
            "dd if=/dev/zero of=disk.img bs=1M count=1",
            "command -v sudo",
            "timeout 5 cargo run",
            "echo $(date) `whoami`",
            "x=$(git rev-parse HEAD); echo $x",
        ];
        for profile in [Profile::Strict, Profile::Standard, Profile::Permissive] {
            let policy = policy(profile);
            for line in everyday {
                allowed(&policy, line);
            }
        }
    }

    #[test]
    fn permissive_denies_nothing_but_denied_commands() {
        let permissive = policy(Profile::Permissive);
        for line in ["sudo rm -rf /", ":(){ :|:& };:", "echo 'unterminated", "mkfs /dev/sda"] {
            allowed(&permissive, line);
        }
        let custom = with_lists(Profile::Permissive, &[], &["rm -rf *", "curl"]);
        let message = denied(&custom, "ls && rm -rf build");
        assert_eq!(message, "denied by denied_commands pattern `rm -rf *`: `rm -rf build`");
        let message = denied(&custom, "/usr/bin/curl -s https://x");
        assert_eq!(message, "denied by denied_commands pattern `curl`: `/usr/bin/curl -s https://x`");
        denied(&custom, "bash -c 'curl x'");
        denied(&custom, "curl");
        allowed(&custom, "rm -r build");
        allowed(&custom, "echo curl");
        // With rules in effect, a line that can't be split is refused.
        let message = denied(&custom, "echo 'unterminated");
        assert!(message.contains("cannot check the command line") && message.contains("single quote"), "{message}");
    }

    #[test]
    fn allowed_commands_is_an_allow_list_and_deny_wins() {
        let policy = with_lists(Profile::Standard, &["cargo *", "git status", "ls *", "bash *"], &["cargo publish*"]);
        allowed(&policy, "cargo test && git status");
        allowed(&policy, "ls");
        allowed(&policy, "cargo build 2>&1 | ls");
        allowed(&policy, "bash -c 'cargo fmt'");
        allowed(&policy, "FOO=1 cargo build");
        let message = denied(&policy, "git push");
        assert_eq!(
            message,
            "denied by allowed_commands: `git push` matches none of `cargo *`, `git status`, `ls *`, `bash *`"
        );
        denied(&policy, "cargo test; curl x");
        denied(&policy, "echo $(whoami)");
        denied(&policy, "bash -c 'make'");
        denied(&policy, "/usr/bin/cargo test");
        // deny wins over allow, whatever the order of the commands
        let message = denied(&policy, "cargo publish --dry-run");
        assert_eq!(message, "denied by denied_commands pattern `cargo publish*`: `cargo publish --dry-run`");
        let message = denied(&policy, "curl x; cargo publish");
        assert!(message.starts_with("denied by denied_commands"), "{message}");
        // and the profile's rules win too
        let message = denied(&policy, "cargo build; rm -rf /");
        assert!(message.starts_with("denied by safety profile standard"), "{message}");
        // wrapped programs must be allowed as well
        let wrapped = with_lists(Profile::Permissive, &["timeout *", "cargo *"], &[]);
        allowed(&wrapped, "timeout 60 cargo test");
        denied(&wrapped, "timeout 60 make");
    }
}
