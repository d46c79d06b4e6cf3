//! `hooks-redaction`: masks secrets (and, if asked, PII) in event data
//! before hooks-logging and the session store see it.
//!
//! ```yaml
//! hooks:
//!   - module: hooks-redaction
//!     config:
//!       rules: [secrets, pii-basic]
//!       allowlist: [data.path]             # dotted paths left verbatim
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/hooks-redaction.md`.
//!
//! A `modify` hook on every event (`*`) at an early priority, so it runs
//! before hooks-logging and the CLI's session recorder (later still). Every
//! string in the event's data is scanned; matches become `[REDACTED:SECRET]`
//! or `[REDACTED:PII]`, and the data gets `redaction: {applied: true, rules,
//! count}`. String values of credential-named keys (`password`, `api_key`,
//! `authorization`, …) are masked whole. `timestamp`, `session_id` and
//! `parent_id` are never touched.
//!
//! `tool:pre` and `tool:post` are skipped by default: their data flows back
//! into the loop (a modified `tool_input` is what the tool runs with, a
//! modified `result` is what the model reads), and the model should see
//! tool data verbatim. Other events are observations: redacting
//! `prompt:submit` changes what is logged, not the prompt the model gets.

use amplifier_sdk::prelude::*;
use regex::{Regex, RegexSet};
use serde::Deserialize;

const SECRET: &str = "[REDACTED:SECRET]";
const PII: &str = "[REDACTED:PII]";

/// Top-level fields the kernel stamps on every event: never secrets.
const INFRASTRUCTURE: [&str; 3] = ["timestamp", "session_id", "parent_id"];

/// Keys whose string values are credentials whatever they look like.
const SENSITIVE_KEYS: [&str; 12] = [
    "password",
    "passwd",
    "secret",
    "client_secret",
    "api_key",
    "apikey",
    "x-api-key",
    "access_token",
    "refresh_token",
    "auth_token",
    "authorization",
    "private_key",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
enum RuleSet {
    #[serde(rename = "secrets")]
    Secrets,
    #[serde(rename = "pii-basic")]
    PiiBasic,
}

impl RuleSet {
    fn name(self) -> &'static str {
        match self {
            RuleSet::Secrets => "secrets",
            RuleSet::PiiBasic => "pii-basic",
        }
    }
}

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    rules: Vec<RuleSet>,
    allowlist: Vec<String>,
    priority: i32,
    skip_events: Vec<String>,
}

/// (rule set, pattern, replacement); `$1` keeps a captured prefix.
const PATTERNS: &[(RuleSet, &str, &str)] = &[
    (RuleSet::Secrets, r"-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----", SECRET),
    (RuleSet::Secrets, r"\bsk-ant-[A-Za-z0-9_-]{16,}", SECRET),
    (RuleSet::Secrets, r"\bsk-[A-Za-z0-9][A-Za-z0-9_-]{15,}", SECRET),
    (RuleSet::Secrets, r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b", SECRET),
    (RuleSet::Secrets, r#"(?i)(aws_secret_access_key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}"#, "${1}[REDACTED:SECRET]"),
    (RuleSet::Secrets, r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})", SECRET),
    (RuleSet::Secrets, r"\bxox[abposr]-[A-Za-z0-9-]{10,}", SECRET),
    (RuleSet::Secrets, r"\bAIza[0-9A-Za-z_-]{35}", SECRET),
    (RuleSet::Secrets, r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", SECRET),
    (RuleSet::Secrets, r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/-]{8,}=*", "${1}[REDACTED:SECRET]"),
    (RuleSet::PiiBasic, r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b", PII),
    (RuleSet::PiiBasic, r"(?:\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)\s?|\b\d{3}[\s.-])\d{3}[\s.-]\d{4}\b", PII),
];

struct Rule {
    regex: Regex,
    replacement: &'static str,
}

struct Redactor {
    rules: Vec<Rule>,
    /// All rules at once: one pass tells which (if any) match a string.
    any: RegexSet,
    rule_names: Vec<&'static str>,
    allowlist: Vec<String>,
    skip_events: Vec<String>,
    priority: i32,
    mask_sensitive_keys: bool,
}

impl Redactor {
    fn new(config: Config) -> Result<Self, regex::Error> {
        let mut rule_sets = config.rules.clone();
        rule_sets.dedup();
        let active: Vec<&(RuleSet, &str, &str)> = PATTERNS.iter().filter(|(set, ..)| rule_sets.contains(set)).collect();
        let rules = active
            .iter()
            .map(|(_, pattern, replacement)| Ok(Rule { regex: Regex::new(pattern)?, replacement }))
            .collect::<Result<Vec<_>, regex::Error>>()?;
        let any = RegexSet::new(active.iter().map(|(_, pattern, _)| *pattern))?;
        Ok(Redactor {
            rules,
            any,
            rule_names: rule_sets.iter().map(|set| set.name()).collect(),
            allowlist: config.allowlist,
            skip_events: config.skip_events,
            priority: config.priority,
            mask_sensitive_keys: rule_sets.contains(&RuleSet::Secrets),
        })
    }

    fn skipped(&self, event: &str) -> bool {
        self.skip_events.iter().any(|pattern| match pattern.strip_suffix('*') {
            Some(prefix) => event.starts_with(prefix),
            None => pattern == event,
        })
    }

    fn allowed(&self, path: &[String]) -> bool {
        if self.allowlist.is_empty() {
            return false;
        }
        let joined = path.join(".");
        self.allowlist.iter().any(|entry| {
            joined == *entry
                || (joined.starts_with(entry.as_str()) && joined.as_bytes().get(entry.len()) == Some(&b'.'))
        })
    }

    /// The event's data with secrets masked, or `None` when nothing matched.
    fn redact(&self, event: &str, mut data: JsonMap) -> Option<JsonMap> {
        if self.skipped(event) || self.rules.is_empty() {
            return None;
        }
        let mut count = 0;
        let mut path = Vec::new();
        for (key, value) in data.iter_mut() {
            if INFRASTRUCTURE.contains(&key.as_str()) {
                continue;
            }
            path.push(key.clone());
            self.redact_entry(key, value, &mut path, &mut count);
            path.pop();
        }
        if count == 0 {
            return None;
        }
        data.insert("redaction".into(), json!({"applied": true, "rules": self.rule_names, "count": count}));
        Some(data)
    }

    fn redact_entry(&self, key: &str, value: &mut Value, path: &mut Vec<String>, count: &mut usize) {
        if self.mask_sensitive_keys && matches!(value, Value::String(s) if !s.is_empty() && s != SECRET) {
            let lowered = key.to_ascii_lowercase();
            if SENSITIVE_KEYS.contains(&lowered.as_str()) && !self.allowed(path) {
                *value = Value::String(SECRET.to_owned());
                *count += 1;
                return;
            }
        }
        self.redact_value(value, path, count);
    }

    fn redact_value(&self, value: &mut Value, path: &mut Vec<String>, count: &mut usize) {
        match value {
            Value::String(text) => {
                if self.allowed(path) {
                    return;
                }
                if let Some(masked) = self.redact_text(text, count) {
                    *text = masked;
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    path.push(index.to_string());
                    self.redact_value(item, path, count);
                    path.pop();
                }
            }
            Value::Object(map) => {
                for (key, item) in map.iter_mut() {
                    path.push(key.clone());
                    self.redact_entry(key, item, path, count);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// The text with every match masked, or `None` when nothing matched.
    fn redact_text(&self, text: &str, count: &mut usize) -> Option<String> {
        let matched = self.any.matches(text);
        if !matched.matched_any() {
            return None;
        }
        let mut current = text.to_owned();
        let mut found = 0;
        for index in matched.iter() {
            let rule = &self.rules[index];
            let hits = rule.regex.find_iter(&current).count();
            if hits > 0 {
                found += hits;
                current = rule.regex.replace_all(&current, rule.replacement).into_owned();
            }
        }
        if found == 0 {
            return None;
        }
        *count += found;
        Some(current)
    }
}

impl HookHandler for Redactor {
    fn subscriptions(&self) -> Vec<Subscription> {
        vec![Subscription::new("*", self.priority, "hooks-redaction")]
    }

    async fn handle(&self, event: &str, data: JsonMap) -> ModuleResult<HookResult> {
        Ok(match self.redact(event, data) {
            Some(redacted) => HookResult::modify(redacted),
            None => HookResult::continue_(),
        })
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Redactor> {
    let config: Config = ctx.config()?;
    Redactor::new(config).map_err(|err| ModuleError::internal(format!("a redaction pattern does not compile: {err}")))
}

export_module!(hook => mount);

#[cfg(test)]
mod tests {
    use amplifier_sdk::testing::{config_with_defaults, with_defaults};

    use super::*;

    const MANIFEST: &str = include_str!("../amplifier.toml");

    fn redactor(config: Value) -> Redactor {
        Redactor::new(config_with_defaults(MANIFEST, config)).unwrap()
    }

    fn redact(r: &Redactor, event: &str, data: Value) -> Option<Value> {
        let Value::Object(map) = data else { panic!("not an object") };
        r.redact(event, map).map(Value::Object)
    }

    const GITHUB: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const JWT: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

    #[test]
    fn every_kind_of_secret_is_masked() {
        let r = redactor(json!({}));
        let secrets = [
            "sk-test-abcdefghijklmnop1234",
            "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
            "sk-proj-ABCDEFGHIJKLMNOPQRST",
            "AKIAIOSFODNN7EXAMPLE",
            GITHUB,
            "github_pat_11ABCDEFG0123456789abcdefghij",
            "xoxb-123456789012-abcdefghijkl",
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
            JWT,
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----",
        ];
        for secret in secrets {
            let out = redact(&r, "prompt:submit", json!({"prompt": format!("use {secret} please")}))
                .unwrap_or_else(|| panic!("{secret} was not redacted"));
            let prompt = out["prompt"].as_str().unwrap();
            assert_eq!(prompt, "use [REDACTED:SECRET] please", "{secret}");
        }
        let out = redact(&r, "provider:request", json!({"headers": "Authorization: Bearer abc.def-ghi_jkl"})).unwrap();
        assert_eq!(out["headers"], "Authorization: Bearer [REDACTED:SECRET]");
        let out = redact(&r, "x", json!({"env": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}))
            .unwrap();
        assert_eq!(out["env"], "aws_secret_access_key = [REDACTED:SECRET]");
    }

    #[test]
    fn the_data_says_what_was_applied() {
        let r = redactor(json!({}));
        let out = redact(
            &r,
            "prompt:submit",
            json!({"prompt": "a sk-test-abcdefghijklmnop1234 b sk-test-zyxwvutsrqponmlk9876"}),
        )
        .unwrap();
        assert_eq!(out["redaction"], json!({"applied": true, "rules": ["secrets"], "count": 2}));
    }

    #[test]
    fn clean_data_is_left_alone() {
        let r = redactor(json!({"rules": ["secrets", "pii-basic"]}));
        let data = json!({"prompt": "what is 2+2? see sk-short and task-123", "n": 5, "list": ["a", {"b": "c"}]});
        assert!(redact(&r, "prompt:submit", data).is_none());
    }

    #[test]
    fn pii_only_when_asked() {
        let data = json!({"prompt": "mail jane.doe@example.com or call +1 415-555-0100 or (415) 555-0199"});
        assert!(redact(&redactor(json!({})), "prompt:submit", data.clone()).is_none());
        let out = redact(&redactor(json!({"rules": ["secrets", "pii-basic"]})), "prompt:submit", data).unwrap();
        assert_eq!(out["prompt"], "mail [REDACTED:PII] or call [REDACTED:PII] or [REDACTED:PII]");
        assert_eq!(out["redaction"]["rules"], json!(["secrets", "pii-basic"]));
    }

    #[test]
    fn nested_values_and_credential_keys_are_masked() {
        let r = redactor(json!({}));
        let data = json!({"request": {"messages": [{"content": format!("token {GITHUB}")}], "password": "hunter2", "api_key": 42}});
        let out = redact(&r, "provider:request", data).unwrap();
        assert_eq!(out["request"]["messages"][0]["content"], "token [REDACTED:SECRET]");
        assert_eq!(out["request"]["password"], "[REDACTED:SECRET]");
        assert_eq!(out["request"]["api_key"], 42, "only strings are masked");
    }

    #[test]
    fn tool_events_are_skipped_by_default_and_skip_events_is_configurable() {
        let data = json!({"tool_input": {"command": "curl -H 'Authorization: Bearer abcdefghijkl'"}});
        assert!(redact(&redactor(json!({})), "tool:pre", data.clone()).is_none());
        assert!(redact(&redactor(json!({})), "tool:post", data.clone()).is_none());
        assert!(redact(&redactor(json!({"skip_events": []})), "tool:pre", data.clone()).is_some());
        assert!(redact(&redactor(json!({"skip_events": ["provider:*"]})), "provider:request", data).is_none());
    }

    #[test]
    fn allowlisted_paths_and_infrastructure_fields_stay_verbatim() {
        let r = redactor(json!({"allowlist": ["config.keys", "prompt"]}));
        let data = json!({
            "prompt": "sk-test-abcdefghijklmnop1234",
            "config": {"keys": ["sk-test-abcdefghijklmnop1234"], "other": "sk-test-abcdefghijklmnop1234"},
            "session_id": "sk-test-abcdefghijklmnop1234",
        });
        let out = redact(&r, "session:config", data).unwrap();
        assert_eq!(out["prompt"], "sk-test-abcdefghijklmnop1234");
        assert_eq!(out["config"]["keys"][0], "sk-test-abcdefghijklmnop1234");
        assert_eq!(out["config"]["other"], "[REDACTED:SECRET]");
        assert_eq!(out["session_id"], "sk-test-abcdefghijklmnop1234");
        assert_eq!(out["redaction"]["count"], 1);
    }

    #[test]
    fn unknown_rules_and_keys_are_refused() {
        let parse = |config: Value| Config::deserialize(with_defaults(MANIFEST, config));
        assert!(parse(json!({"rules": ["everything"]})).unwrap_err().to_string().contains("unknown variant"));
        assert!(parse(json!({"rule": ["secrets"]})).unwrap_err().to_string().contains("unknown field `rule`"));
        assert_eq!(redactor(json!({})).priority, 10);
    }
}
