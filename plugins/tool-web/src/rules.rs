//! Which URLs may be fetched: scheme, domain rules and address classes.
//!
//! Everything here is pure, so it is checked before any connection is made
//! (URLs, on every redirect hop) and again on every address DNS returns
//! (see `fetch::GuardedResolver`).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::Url;

/// A URL refused by one of the rules; the message names the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// Why, e.g. `127.0.0.1 is a loopback address`.
    pub reason: String,
    /// The config key (or built-in rule) that refused it.
    pub rule: &'static str,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (rule: {})", self.reason, self.rule)
    }
}

pub const RULE_SCHEME: &str = "only http and https URLs";
pub const RULE_BLOCKED: &str = "blocked_domains";
pub const RULE_ALLOWED: &str = "allowed_domains";
pub const RULE_PRIVATE: &str = "allow_private_addresses is false";

/// One `allowed_domains`/`blocked_domains` entry: an exact host or `*.suffix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DomainPattern {
    Exact(String),
    /// Any host ending in `.suffix` (not `suffix` itself).
    Subdomains(String),
}

impl DomainPattern {
    /// Parses an entry, normalising the host the way URLs are
    /// (lower case, punycode, no trailing dot).
    pub fn parse(entry: &str) -> Result<Self, String> {
        let entry = entry.trim();
        let (wildcard, host) = match entry.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, entry),
        };
        let ipv6_literal = host.starts_with('[') && host.ends_with(']');
        if host.is_empty() || host.contains(['*', '/', '@', '?', '#', '\\']) || (host.contains(':') && !ipv6_literal) {
            return Err(format!("'{entry}' is not a host name or `*.suffix`"));
        }
        let normalised = Url::parse(&format!("http://{host}/"))
            .ok()
            .and_then(|url| url.host().map(|h| host_key(&h)))
            .ok_or_else(|| format!("'{entry}' is not a host name or `*.suffix`"))?;
        Ok(if wildcard { DomainPattern::Subdomains(normalised) } else { DomainPattern::Exact(normalised) })
    }

    pub fn matches(&self, host: &str) -> bool {
        match self {
            DomainPattern::Exact(exact) => host == exact,
            DomainPattern::Subdomains(suffix) => {
                host.len() > suffix.len() + 1
                    && host.ends_with(suffix.as_str())
                    && host.as_bytes()[host.len() - suffix.len() - 1] == b'.'
            }
        }
    }
}

impl fmt::Display for DomainPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DomainPattern::Exact(host) => f.write_str(host),
            DomainPattern::Subdomains(suffix) => write!(f, "*.{suffix}"),
        }
    }
}

/// The host as the rules see it: lower case, no trailing dot, IPv6 without brackets.
fn host_key(host: &url::Host<&str>) -> String {
    match host {
        url::Host::Domain(domain) => domain.trim_end_matches('.').to_ascii_lowercase(),
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => ip.to_string(),
    }
}

/// The rules of one configured `web_fetch`.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    pub allowed: Vec<DomainPattern>,
    pub blocked: Vec<DomainPattern>,
    pub allow_private: bool,
}

impl Rules {
    /// Checks a URL before it is requested (the first one and every redirect
    /// target): scheme, domain rules, and the address when the host is an IP
    /// literal. Host names are checked again on the addresses they resolve to.
    pub fn check_url(&self, url: &Url) -> Result<(), Refused> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Refused {
                reason: format!("the scheme '{}' is not http or https", url.scheme()),
                rule: RULE_SCHEME,
            });
        }
        let host = url.host().ok_or_else(|| Refused { reason: "the URL has no host".into(), rule: RULE_SCHEME })?;
        let key = host_key(&host);
        if let Some(pattern) = self.blocked.iter().find(|p| p.matches(&key)) {
            return Err(Refused {
                reason: format!("the host {key} matches blocked_domains entry '{pattern}'"),
                rule: RULE_BLOCKED,
            });
        }
        if !self.allowed.is_empty() && !self.allowed.iter().any(|p| p.matches(&key)) {
            return Err(Refused { reason: format!("the host {key} is not in allowed_domains"), rule: RULE_ALLOWED });
        }
        let literal = match host {
            url::Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
            url::Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
            url::Host::Domain(_) => None,
        };
        if let Some(ip) = literal {
            self.check_ip(&key, ip)?;
        }
        Ok(())
    }

    /// Checks one address a host (`name`) resolved to, or an IP literal.
    pub fn check_ip(&self, name: &str, ip: IpAddr) -> Result<(), Refused> {
        if self.allow_private {
            return Ok(());
        }
        match non_public(ip) {
            None => Ok(()),
            Some(class) if name == ip.to_string() => {
                Err(Refused { reason: format!("{ip} is {class} address"), rule: RULE_PRIVATE })
            }
            Some(class) => {
                Err(Refused { reason: format!("{name} resolves to {ip}, {class} address"), rule: RULE_PRIVATE })
            }
        }
    }
}

/// Why an address is not a public unicast one (its class with an article,
/// for messages), or `None` if it is public.
pub fn non_public(ip: IpAddr) -> Option<String> {
    match ip {
        IpAddr::V4(ip) => non_public_v4(ip).map(str::to_owned),
        IpAddr::V6(ip) => non_public_v6(ip),
    }
}

fn non_public_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, _, _) => "an unspecified (0.0.0.0/8)",
        (127, _, _) => "a loopback",
        (10, _, _) | (192, 168, _) => "a private",
        (172, 16..=31, _) => "a private",
        (169, 254, _) => "a link-local",
        (100, 64..=127, _) => "a shared (carrier-grade NAT)",
        (192, 0, 0) => "a reserved (IETF protocol assignments)",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation",
        (198, 18..=19, _) => "a benchmarking",
        (224..=239, _, _) => "a multicast",
        (240..=255, _, _) => "a reserved (240.0.0.0/4 or broadcast)",
        _ => return None,
    })
}

fn non_public_v6(ip: Ipv6Addr) -> Option<String> {
    let segments = ip.segments();
    let embedded = |high: u16, low: u16| Ipv4Addr::from((u32::from(high) << 16) | u32::from(low));
    if ip.is_unspecified() {
        return Some("an unspecified (::)".into());
    }
    if ip.is_loopback() {
        return Some("a loopback".into());
    }
    // ::ffff:a.b.c.d reaches the IPv4 address a.b.c.d.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return non_public_v4(v4).map(|class| format!("an IPv4-mapped {}", without_article(class)));
    }
    // ::a.b.c.d (the deprecated IPv4-compatible form): never public.
    if segments[..6] == [0; 6] {
        return Some("an IPv4-compatible (::/96, deprecated)".into());
    }
    // 64:ff9b::/96 (NAT64) and 2002::/16 (6to4) embed an IPv4 address.
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return non_public_v4(embedded(segments[6], segments[7]))
            .map(|class| format!("a NAT64 (to {})", without_article(class)));
    }
    if segments[0] == 0x2002 {
        return non_public_v4(embedded(segments[1], segments[2]))
            .map(|class| format!("a 6to4 (to {})", without_article(class)));
    }
    let class = match segments[0] {
        s if s & 0xffc0 == 0xfe80 => "a link-local",
        s if s & 0xffc0 == 0xfec0 => "a site-local (deprecated)",
        s if s & 0xfe00 == 0xfc00 => "a unique-local",
        s if s & 0xff00 == 0xff00 => "a multicast",
        0x2001 if segments[1] == 0x0db8 => "a documentation",
        0x0100 if segments[1..4] == [0, 0, 0] => "a discard-only (100::/64)",
        _ => return None,
    };
    Some(class.into())
}

fn without_article(class: &str) -> &str {
    class.strip_prefix("an ").or_else(|| class.strip_prefix("a ")).unwrap_or(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(allowed: &[&str], blocked: &[&str]) -> Rules {
        Rules {
            allowed: allowed.iter().map(|p| DomainPattern::parse(p).unwrap()).collect(),
            blocked: blocked.iter().map(|p| DomainPattern::parse(p).unwrap()).collect(),
            allow_private: false,
        }
    }

    fn check(rules: &Rules, url: &str) -> Result<(), Refused> {
        rules.check_url(&Url::parse(url).unwrap())
    }

    #[test]
    fn patterns_normalise_hosts_and_reject_junk() {
        assert_eq!(DomainPattern::parse("Example.COM.").unwrap(), DomainPattern::Exact("example.com".into()));
        assert_eq!(DomainPattern::parse("*.Docs.rs").unwrap(), DomainPattern::Subdomains("docs.rs".into()));
        assert_eq!(DomainPattern::parse("bücher.de").unwrap(), DomainPattern::Exact("xn--bcher-kva.de".into()));
        for junk in ["", "*.", "*", "a.*.com", "*foo.com", "http://x.com", "x.com/path", "x.com:80", "user@x.com"] {
            assert!(DomainPattern::parse(junk).is_err(), "{junk:?} should be refused");
        }
    }

    #[test]
    fn exact_and_wildcard_patterns_match_as_documented() {
        let exact = DomainPattern::parse("example.com").unwrap();
        assert!(exact.matches("example.com"));
        assert!(!exact.matches("www.example.com"));
        assert!(!exact.matches("notexample.com"));
        let wildcard = DomainPattern::parse("*.example.com").unwrap();
        assert!(wildcard.matches("www.example.com"));
        assert!(wildcard.matches("a.b.example.com"));
        assert!(!wildcard.matches("example.com"), "`*.suffix` is subdomains only");
        assert!(!wildcard.matches("badexample.com"));
        assert!(!wildcard.matches("example.com.evil.net"));
    }

    #[test]
    fn domain_rules_blocked_wins_and_allowed_restricts() {
        let rules = rules(&["*.example.com", "docs.rs"], &["secret.example.com"]);
        assert!(check(&rules, "https://www.example.com/a").is_ok());
        assert!(check(&rules, "https://DOCS.rs./x").is_ok(), "case and trailing dot are normalised");
        let blocked = check(&rules, "https://secret.example.com/").unwrap_err();
        assert_eq!(blocked.rule, RULE_BLOCKED);
        assert!(blocked.to_string().contains("'secret.example.com'"), "{blocked}");
        let not_allowed = check(&rules, "https://example.org/").unwrap_err();
        assert_eq!(not_allowed.rule, RULE_ALLOWED);
        assert!(not_allowed.to_string().contains("example.org is not in allowed_domains"), "{not_allowed}");
        // No allow list: everything not blocked is allowed.
        let open = self::rules(&[], &["*.evil.test"]);
        assert!(check(&open, "http://good.test/").is_ok());
        assert_eq!(check(&open, "http://x.evil.test/").unwrap_err().rule, RULE_BLOCKED);
    }

    #[test]
    fn only_http_and_https_schemes() {
        let rules = rules(&[], &[]);
        for url in ["file:///etc/passwd", "ftp://example.com/x", "gopher://example.com/", "data:text/plain,hi"] {
            let refused = check(&rules, url).unwrap_err();
            assert_eq!(refused.rule, RULE_SCHEME, "{url}");
            assert!(refused.to_string().contains("is not http or https"), "{refused}");
        }
        assert!(check(&rules, "http://example.com/").is_ok());
        assert!(check(&rules, "https://example.com/").is_ok());
    }

    #[test]
    fn ip_literals_are_checked_in_every_spelling() {
        let rules = rules(&[], &[]);
        for url in [
            "http://127.0.0.1/",
            "http://127.1.2.3:8080/",
            "http://2130706433/", // 127.0.0.1 as a number
            "http://0x7f.0.0.1/", // hex
            "http://0.0.0.0/",
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data/",
            "http://[::1]/",
            "http://[::]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:7f00:1]/",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
        ] {
            let refused = check(&rules, url).unwrap_err();
            assert_eq!(refused.rule, RULE_PRIVATE, "{url}");
            assert!(refused.to_string().contains("rule: allow_private_addresses is false"), "{refused}");
        }
        assert_eq!(
            check(&rules, "http://127.0.0.1:9/").unwrap_err().to_string(),
            "127.0.0.1 is a loopback address (rule: allow_private_addresses is false)"
        );
        assert!(check(&rules, "http://93.184.216.34/").is_ok());
        assert!(check(&rules, "http://[2606:4700::1111]/").is_ok());
        let open = Rules { allow_private: true, ..Rules::default() };
        assert!(check(&open, "http://127.0.0.1/").is_ok());
        assert!(check(&open, "http://[::1]/").is_ok());
    }

    #[test]
    fn ipv4_classification() {
        let class = |s: &str| non_public(s.parse().unwrap());
        assert_eq!(class("127.0.0.1").as_deref(), Some("a loopback"));
        assert_eq!(class("127.255.255.254").as_deref(), Some("a loopback"));
        assert_eq!(class("0.0.0.0").as_deref(), Some("an unspecified (0.0.0.0/8)"));
        assert_eq!(class("10.0.0.1").as_deref(), Some("a private"));
        assert_eq!(class("172.16.0.1").as_deref(), Some("a private"));
        assert_eq!(class("172.31.255.255").as_deref(), Some("a private"));
        assert_eq!(class("192.168.0.1").as_deref(), Some("a private"));
        assert_eq!(class("169.254.169.254").as_deref(), Some("a link-local"));
        assert_eq!(class("100.64.0.1").as_deref(), Some("a shared (carrier-grade NAT)"));
        assert_eq!(class("224.0.0.1").as_deref(), Some("a multicast"));
        assert_eq!(class("255.255.255.255").as_deref(), Some("a reserved (240.0.0.0/4 or broadcast)"));
        assert_eq!(class("192.0.2.1").as_deref(), Some("a documentation"));
        for public in
            ["1.1.1.1", "8.8.8.8", "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0", "93.184.216.34"]
        {
            assert_eq!(class(public).as_deref(), None, "{public}");
        }
    }

    #[test]
    fn ipv6_classification_including_mapped_forms() {
        let class = |s: &str| non_public(s.parse().unwrap());
        assert_eq!(class("::1").as_deref(), Some("a loopback"));
        assert_eq!(class("::").as_deref(), Some("an unspecified (::)"));
        assert_eq!(class("::ffff:127.0.0.1").as_deref(), Some("an IPv4-mapped loopback"));
        assert_eq!(class("::ffff:10.0.0.1").as_deref(), Some("an IPv4-mapped private"));
        assert_eq!(class("::ffff:169.254.169.254").as_deref(), Some("an IPv4-mapped link-local"));
        assert_eq!(class("::ffff:0.0.0.0").as_deref(), Some("an IPv4-mapped unspecified (0.0.0.0/8)"));
        assert_eq!(class("::ffff:8.8.8.8").as_deref(), None, "a mapped public address is public");
        assert_eq!(class("::127.0.0.1").as_deref(), Some("an IPv4-compatible (::/96, deprecated)"));
        assert_eq!(class("64:ff9b::7f00:1").as_deref(), Some("a NAT64 (to loopback)"));
        assert_eq!(class("64:ff9b::808:808").as_deref(), None);
        assert_eq!(class("2002:7f00:1::1").as_deref(), Some("a 6to4 (to loopback)"));
        assert_eq!(class("fe80::1").as_deref(), Some("a link-local"));
        assert_eq!(class("febf::1").as_deref(), Some("a link-local"));
        assert_eq!(class("fec0::1").as_deref(), Some("a site-local (deprecated)"));
        assert_eq!(class("fc00::1").as_deref(), Some("a unique-local"));
        assert_eq!(class("fdff:ffff::1").as_deref(), Some("a unique-local"));
        assert_eq!(class("ff02::1").as_deref(), Some("a multicast"));
        assert_eq!(class("2001:db8::1").as_deref(), Some("a documentation"));
        assert_eq!(class("2606:4700:4700::1111").as_deref(), None);
        assert_eq!(class("2a00:1450:4001::200e").as_deref(), None);
    }

    #[test]
    fn resolved_addresses_name_the_host_and_the_rule() {
        let rules = Rules::default();
        let refused = rules.check_ip("localhost", "127.0.0.1".parse().unwrap()).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "localhost resolves to 127.0.0.1, a loopback address (rule: allow_private_addresses is false)"
        );
        assert!(rules.check_ip("example.com", "93.184.216.34".parse().unwrap()).is_ok());
    }
}
