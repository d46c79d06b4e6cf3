//! `allowed_commands` and `denied_commands` entries.

use std::fmt;

/// A `denied_commands` or `allowed_commands` entry.
///
/// Matched against a whole simple command, its words joined by single
/// spaces, quotes removed. `*` matches any text (spaces and `/` included);
/// a trailing ` *` also matches nothing (`git *` matches `git`); a single
/// word without `*` names a program (`curl` means `curl *`). Case-sensitive.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    glob: Vec<char>,
}

impl Pattern {
    pub fn new(source: &str) -> Result<Pattern, String> {
        let normalized = source.split_whitespace().collect::<Vec<_>>().join(" ");
        if normalized.is_empty() {
            return Err("a command pattern is empty".into());
        }
        let glob =
            if !normalized.contains(' ') && !normalized.contains('*') { format!("{normalized} *") } else { normalized };
        Ok(Pattern { source: source.trim().to_owned(), glob: glob.chars().collect() })
    }

    pub fn matches(&self, text: &str) -> bool {
        let text: Vec<char> = text.chars().collect();
        if glob_match(&self.glob, &text) {
            return true;
        }
        match self.glob.strip_suffix(&[' ', '*']) {
            Some(stem) => glob_match(stem, &text),
            None => false,
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// `*` matches any run of characters; everything else is literal.
///
/// Not `globset`: it is a path matcher that would also give `?`, `[…]`,
/// `{…}`, `\` and `**/` a meaning, and command lines use them literally.
fn glob_match(pattern: &[char], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == '*' {
            backtrack = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((star, matched)) = backtrack {
            p = star + 1;
            t = matched + 1;
            backtrack = Some((star, matched + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        let p = Pattern::new("  git   * ").unwrap();
        assert!(p.matches("git") && p.matches("git status") && !p.matches("gitk"));
        let p = Pattern::new("rm -rf *").unwrap();
        assert!(p.matches("rm -rf /") && p.matches("rm -rf a b") && p.matches("rm -rf") && !p.matches("rm -r x"));
        let p = Pattern::new("npm run *:dev").unwrap();
        assert!(p.matches("npm run web:dev") && !p.matches("npm run web:prod"));
        let p = Pattern::new("make").unwrap();
        assert!(p.matches("make") && p.matches("make all") && !p.matches("cmake"));
        assert!(Pattern::new("  ").is_err());
        assert!(glob_match(&['*', 'a', '*', 'b'], &['x', 'a', 'y', 'a', 'b']));
        assert!(!glob_match(&['a', '*', 'c'], &['a', 'b']));
    }
}
