//! `tool-web`: the `web_fetch {url}` tool. Fetches an http(s) URL and returns
//! its readable text as `{url, status, content_type, text, truncated}`, where
//! `url` is the final URL after redirects.
//!
//! - **HTML** (`text/html`, XHTML) becomes plain text with html2text:
//!   headings marked `#`, links numbered with their targets listed after the
//!   text, `<script>` and `<style>` dropped. Text, JSON, XML and other
//!   textual types are returned as they are; a body without a useful content
//!   type is sniffed; images, audio, video, PDFs and archives are refused.
//!   Bodies are decoded as UTF-8 (invalid bytes become U+FFFD).
//! - **Size cap**: reading stops after `max_bytes`; the text then ends with a
//!   `[truncated: …]` line and `truncated` is true.
//! - **Timeout**: `timeout` seconds for the whole fetch, every redirect hop
//!   and the body included.
//! - **Redirects** are followed, at most 5, and every hop is checked against
//!   all the rules below, as the first URL is.
//! - **Errors** are error results the model reads: HTTP 4xx/5xx name the
//!   status; a refused URL names the rule that refused it, e.g.
//!   `refused http://127.0.0.1:8080/: 127.0.0.1 is a loopback address (rule: allow_private_addresses is false)`.
//!
//! # Rules
//!
//! - Only `http` and `https` URLs.
//! - `blocked_domains`: hosts never fetched. `allowed_domains`: if not empty,
//!   the only hosts fetched. Entries are exact hosts (`example.com`) or
//!   `*.suffix`, which matches any subdomain of `suffix` but not `suffix`
//!   itself (list both to allow both). Blocked wins over allowed.
//! - Non-public addresses are refused unless `allow_private_addresses: true`:
//!   loopback, private (RFC 1918), link-local (including cloud metadata at
//!   169.254.169.254), unique-local, unspecified (`0.0.0.0`, `::`),
//!   carrier-grade NAT, multicast, documentation and reserved ranges, in
//!   IPv4 and IPv6, including IPv4-mapped (`::ffff:127.0.0.1`), NAT64 and
//!   6to4 forms. IP literals are checked before connecting (in any spelling:
//!   `2130706433` is 127.0.0.1); host names are checked on **every address
//!   they resolve to**, inside the HTTP client's own resolver, so the
//!   addresses checked are the ones connected to (no DNS-rebinding window).
//!   A name with any non-public address is refused. Proxies are not used.
//!
//! There is no `web_search`: upstream's searches DuckDuckGo, and machines
//! running this project often have no route to the internet at all.
//!
//! HTTP/1.1 only, no compression, TLS by rustls (ring) verified against the
//! system's certificates.
//!
//! The config keys and their defaults: `amplifier.toml`, rendered as
//! `docs/reference/modules/tool-web.md` (the loader fills the defaults in).

mod fetch;
mod rules;
mod text;

#[cfg(test)]
mod server_tests;

use std::time::Duration;

use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::fetch::Fetcher;
use crate::rules::{DomainPattern, Rules};

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    max_bytes: u64,
    /// Seconds.
    timeout: f64,
    allowed_domains: Vec<String>,
    blocked_domains: Vec<String>,
    allow_private_addresses: bool,
}

struct WebFetch {
    fetcher: Fetcher,
}

impl Tool for WebFetch {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "web_fetch",
            "Fetches an http or https URL and returns its readable text as {url, status, content_type, text, \
             truncated}: HTML is converted to plain text (scripts and styles dropped, links listed after the text), \
             text and JSON are returned as they are. Large pages are cut (truncated: true). Private and local \
             addresses may be refused. This tool cannot search the web: give it a URL.",
            json!({
                "type": "object",
                "properties": {
                    "url": {"type": "string", "description": "The http:// or https:// URL to fetch"}
                },
                "required": ["url"]
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        let Some(url) = input["url"].as_str() else {
            return ToolResult::error("invalid_input", "web_fetch needs a `url` string");
        };
        match self.fetcher.fetch(url).await {
            Ok(fetched) => match serde_json::to_value(&fetched) {
                Ok(output) => ToolResult::ok(output),
                Err(err) => ToolResult::error("internal", format!("unserialisable result: {err}")),
            },
            Err(err) => ToolResult::error(err.kind, err.message),
        }
    }
}

fn invalid(message: String) -> ModuleError {
    ModuleError::new(ErrorKind::InvalidRequest, format!("invalid config for tool-web: {message}"))
}

fn patterns(key: &str, entries: &[String]) -> ModuleResult<Vec<DomainPattern>> {
    entries.iter().map(|entry| DomainPattern::parse(entry).map_err(|err| invalid(format!("{key}: {err}")))).collect()
}

fn web_fetch(config: Config) -> ModuleResult<WebFetch> {
    if config.max_bytes == 0 {
        return Err(invalid("max_bytes must be at least 1".into()));
    }
    if !(config.timeout.is_finite() && config.timeout > 0.0) {
        return Err(invalid(format!("timeout must be a positive number of seconds, not {}", config.timeout)));
    }
    let rules = Rules {
        allowed: patterns("allowed_domains", &config.allowed_domains)?,
        blocked: patterns("blocked_domains", &config.blocked_domains)?,
        allow_private: config.allow_private_addresses,
    };
    let max_bytes = usize::try_from(config.max_bytes).unwrap_or(usize::MAX);
    let timeout = Duration::try_from_secs_f64(config.timeout).map_err(|err| invalid(format!("timeout: {err}")))?;
    let fetcher = Fetcher::new(rules, max_bytes, timeout).map_err(ModuleError::internal)?;
    Ok(WebFetch { fetcher })
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    Ok(Tools::new().with(web_fetch(ctx.config()?)?))
}

export_module!(tool => mount);

#[cfg(test)]
mod tests {
    use amplifier_sdk::testing::{config_with_defaults, with_defaults};

    use super::*;

    const MANIFEST: &str = include_str!("../amplifier.toml");

    fn config(value: Value) -> Result<WebFetch, String> {
        let config: Config = serde_json::from_value(with_defaults(MANIFEST, value)).map_err(|e| e.to_string())?;
        web_fetch(config).map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_are_one_mebibyte_ten_seconds_and_no_private_addresses() {
        let config: Config = config_with_defaults(MANIFEST, json!({}));
        assert_eq!(config.max_bytes, 1_048_576);
        assert_eq!(config.timeout, 10.0);
        assert!(!config.allow_private_addresses);
        assert!(config.allowed_domains.is_empty() && config.blocked_domains.is_empty());
        assert!(web_fetch(config).is_ok());
    }

    #[test]
    fn bad_config_is_refused_at_mount_with_the_key() {
        let err = config(json!({"blocked_domains": ["ok.com", "a.*.com"]})).err().unwrap();
        assert!(err.contains("blocked_domains: 'a.*.com' is not a host name"), "{err}");
        let err = config(json!({"timeout": 0})).err().unwrap();
        assert!(err.contains("timeout must be a positive number"), "{err}");
        let err = config(json!({"max_bytes": 0})).err().unwrap();
        assert!(err.contains("max_bytes must be at least 1"), "{err}");
        let err = config(json!({"max_byte": 10})).err().unwrap();
        assert!(err.contains("unknown field `max_byte`"), "{err}");
    }

    #[test]
    fn the_spec_says_there_is_no_search() {
        let spec = config(json!({})).ok().unwrap().spec();
        assert_eq!(spec.name, "web_fetch");
        assert!(spec.description.unwrap().contains("cannot search the web"));
        assert_eq!(spec.parameters["required"], json!(["url"]));
    }
}
