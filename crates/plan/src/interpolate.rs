//! `${VAR}` and `${VAR:-default}` in config strings and sources.

/// Why a string could not be expanded. Only ever names a variable, never its
/// value: values are typically API keys.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ExpandError {
    #[error("environment variable {0} is not set")]
    Missing(String),
    #[error("`${{` has no closing `}}`")]
    Unterminated,
    #[error("`${{{0}}}` is not a valid variable reference")]
    InvalidName(String),
}

impl ExpandError {
    pub fn hint(&self) -> String {
        match self {
            ExpandError::Missing(name) => format!("set {name} or write ${{{name}:-default}}"),
            ExpandError::Unterminated | ExpandError::InvalidName(_) => {
                "write `${NAME}` or `${NAME:-default}` (NAME: letters, digits, `_`), or `$${` for a literal `${`".into()
            }
        }
    }
}

/// Replaces every reference in `text`; `$${` stands for a literal `${`.
/// Like the shell, `:-` falls back to the default when the variable is unset
/// or empty.
pub(crate) fn expand(text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let tail = &rest[dollar..];
        if let Some(after) = tail.strip_prefix("$${") {
            out.push_str("${");
            rest = after;
        } else if let Some(after) = tail.strip_prefix("${") {
            let end = closing_brace(after).ok_or(ExpandError::Unterminated)?;
            out.push_str(&resolve(&after[..end], env)?);
            rest = &after[end + 1..];
        } else {
            out.push('$');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// Whether `text` is exactly one `${…}` reference.
pub(crate) fn is_one_reference(text: &str) -> bool {
    text.strip_prefix("${").and_then(closing_brace).is_some_and(|end| end + 3 == text.len())
}

/// Where the reference that `text` follows (its `${` already read) ends: the
/// `}` that closes it, past any `${…}` nested in its default.
fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'$' if bytes.get(at + 1) == Some(&b'{') => {
                depth += 1;
                at += 1;
            }
            b'}' if depth == 0 => return Some(at),
            b'}' => depth -= 1,
            _ => {}
        }
        at += 1;
    }
    None
}

/// `reference` is what sits between `${` and `}`. A default may hold
/// references of its own, expanded only when the default is used.
fn resolve(reference: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, ExpandError> {
    let (name, default) = match reference.split_once(":-") {
        Some((name, default)) => (name, Some(default)),
        None => (reference, None),
    };
    if !is_variable_name(name) {
        return Err(ExpandError::InvalidName(reference.to_owned()));
    }
    match (env(name), default) {
        (Some(value), Some(default)) if value.is_empty() => expand(default, env),
        (Some(value), _) => Ok(value),
        (None, Some(default)) => expand(default, env),
        (None, None) => Err(ExpandError::Missing(name.to_owned())),
    }
}

fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|first| first == '_' || first.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "HOST" => Some("example.com".into()),
            "PORT" => Some("8080".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    fn run(text: &str) -> Result<String, ExpandError> {
        expand(text, &env)
    }

    #[test]
    fn text_without_references_is_unchanged() {
        assert_eq!(run("plain $ text $5 {x}").unwrap(), "plain $ text $5 {x}");
    }

    #[test]
    fn several_references_with_surrounding_text() {
        assert_eq!(run("http://${HOST:-localhost}:${PORT}/v1").unwrap(), "http://example.com:8080/v1");
    }

    #[test]
    fn default_applies_when_unset_or_empty() {
        assert_eq!(run("${NOPE:-small}").unwrap(), "small");
        assert_eq!(run("${EMPTY:-small}").unwrap(), "small");
        assert_eq!(run("${NOPE:-}").unwrap(), "");
        assert_eq!(run("${NOPE:-a:-b}").unwrap(), "a:-b");
    }

    #[test]
    fn defaults_may_hold_references_expanded_only_when_used() {
        assert_eq!(run("${NOPE:-${HOST:-x}}").unwrap(), "example.com");
        assert_eq!(run("${NOPE:-${ALSO_NOPE:-x}}/v1").unwrap(), "x/v1");
        assert_eq!(run("${HOST:-${MISSING}}").unwrap(), "example.com", "an unused default is not expanded");
        assert_eq!(run("${NOPE:-${MISSING}}").unwrap_err(), ExpandError::Missing("MISSING".into()));
        assert_eq!(run("${NOPE:-${HOST}").unwrap_err(), ExpandError::Unterminated);
    }

    #[test]
    fn one_reference_is_told_from_text_around_references() {
        assert!(is_one_reference("${PORT}") && is_one_reference("${A:-${B:-x}}"));
        for text in ["${PORT}/v1", "http://${HOST}", "${A}${B}", "$${A}", "${A"] {
            assert!(!is_one_reference(text), "{text}");
        }
    }

    #[test]
    fn set_but_empty_without_default_is_empty() {
        assert_eq!(run("[${EMPTY}]").unwrap(), "[]");
    }

    #[test]
    fn double_dollar_brace_is_a_literal() {
        assert_eq!(run("$${HOST} ${HOST}").unwrap(), "${HOST} example.com");
        assert_eq!(run("$$ $").unwrap(), "$$ $");
    }

    #[test]
    fn missing_variable_names_it_and_the_fix() {
        let err = run("Bearer ${API_KEY}").unwrap_err();
        assert_eq!(err, ExpandError::Missing("API_KEY".into()));
        assert_eq!(err.to_string(), "environment variable API_KEY is not set");
        assert_eq!(err.hint(), "set API_KEY or write ${API_KEY:-default}");
    }

    #[test]
    fn malformed_references_are_errors() {
        assert_eq!(run("${HOST").unwrap_err(), ExpandError::Unterminated);
        assert_eq!(run("${}").unwrap_err(), ExpandError::InvalidName(String::new()));
        let err = run("${1X:-y}").unwrap_err();
        assert_eq!(err.to_string(), "`${1X:-y}` is not a valid variable reference");
    }
}
