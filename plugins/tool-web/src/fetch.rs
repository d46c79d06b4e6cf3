//! The fetch: one GET per hop, redirects followed by hand so every hop is
//! checked, a DNS resolver that refuses non-public addresses, a size cap and
//! an overall timeout.

use std::error::Error as StdError;
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use reqwest::redirect::Policy;
use reqwest::{Client, StatusCode};
use serde::Serialize;
use url::Url;

use crate::rules::{Refused, Rules};
use crate::text::{self, BodyKind};

/// Redirects followed before giving up.
pub const MAX_REDIRECTS: usize = 5;

/// What a successful fetch returns to the model.
#[derive(Debug, Serialize)]
pub struct Fetched {
    /// The final URL, after redirects.
    pub url: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub text: String,
    /// Whether the body was cut at `max_bytes`.
    pub truncated: bool,
}

/// A failed fetch: `kind` becomes the error result's `type`.
#[derive(Debug)]
pub struct FetchError {
    pub kind: &'static str,
    pub message: String,
}

impl FetchError {
    fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }
}

/// The checked, configured fetcher one `web_fetch` tool owns.
pub struct Fetcher {
    client: Client,
    rules: Arc<Rules>,
    max_bytes: usize,
    timeout: Duration,
}

impl Fetcher {
    pub fn new(rules: Rules, max_bytes: usize, timeout: Duration) -> Result<Self, String> {
        // rustls needs a process-wide crypto provider; this plugin's copy of
        // rustls is its own, so installing ring here touches nothing else.
        // An error only means it is already installed.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let rules = Arc::new(rules);
        let client = Client::builder()
            // Redirects are followed in `fetch`, so each hop is checked against the rules.
            .redirect(Policy::none())
            // A proxy would connect on our behalf to addresses we never see.
            .no_proxy()
            .dns_resolver(GuardedResolver { rules: rules.clone() })
            .connect_timeout(timeout)
            .user_agent(concat!("amplifier-tool-web/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|err| format!("cannot build the HTTP client: {}", chain(&err)))?;
        Ok(Self { client, rules, max_bytes, timeout })
    }

    /// Fetches `url`, following redirects, within the timeout.
    pub async fn fetch(&self, url: &str) -> Result<Fetched, FetchError> {
        let seconds = self.timeout.as_secs_f64();
        match tokio::time::timeout(self.timeout, self.fetch_unbounded(url)).await {
            Ok(result) => result,
            Err(_) => {
                Err(FetchError::new("timeout", format!("fetching {url} timed out after {seconds}s (rule: timeout)")))
            }
        }
    }

    async fn fetch_unbounded(&self, url: &str) -> Result<Fetched, FetchError> {
        let mut url = Url::parse(url.trim())
            .map_err(|err| FetchError::new("invalid_url", format!("'{url}' is not a valid URL: {err}")))?;
        let mut from: Option<Url> = None;
        let mut redirects = 0;
        loop {
            if let Err(refused) = self.rules.check_url(&url) {
                return Err(refused_error(&url, from.as_ref(), &refused));
            }
            let response = self
                .client
                .get(url.clone())
                .header(ACCEPT, "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.8")
                .send()
                .await
                .map_err(|err| self.send_error(&url, from.as_ref(), &err))?;
            let status = response.status();
            if status.is_redirection() && status != StatusCode::NOT_MODIFIED {
                if let Some(location) = response.headers().get(LOCATION) {
                    let location = location.to_str().map_err(|_| {
                        FetchError::new("fetch_failed", format!("{url} redirected to a Location that is not text"))
                    })?;
                    let next = url.join(location).map_err(|err| {
                        FetchError::new(
                            "fetch_failed",
                            format!("{url} redirected to an invalid URL '{location}': {err}"),
                        )
                    })?;
                    if redirects == MAX_REDIRECTS {
                        return Err(FetchError::new(
                            "too_many_redirects",
                            format!("stopped after {MAX_REDIRECTS} redirects: {url} redirects again to {next}"),
                        ));
                    }
                    redirects += 1;
                    from = Some(std::mem::replace(&mut url, next));
                    continue;
                }
            }
            if status.is_client_error() || status.is_server_error() {
                return Err(FetchError::new("http_error", format!("{url} answered HTTP {status}")));
            }
            return self.read(url, response).await;
        }
    }

    /// Reads the body up to `max_bytes` and turns it into text.
    async fn read(&self, url: Url, mut response: reqwest::Response) -> Result<Fetched, FetchError> {
        let status = response.status().as_u16();
        let content_type = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let mut kind = text::kind_of(content_type.as_deref());
        if kind == BodyKind::Binary {
            return Err(unsupported(&url, content_type.as_deref()));
        }
        let mut body = Vec::new();
        let mut truncated = false;
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|err| FetchError::new("fetch_failed", format!("reading {url}: {}", chain(&err))))?
        {
            let room = self.max_bytes - body.len();
            if chunk.len() > room {
                body.extend_from_slice(&chunk[..room]);
                truncated = true;
                break; // dropping the response closes the connection: nothing more is read
            }
            body.extend_from_slice(&chunk);
        }
        if kind == BodyKind::Sniff {
            kind = text::sniff(&body);
            if kind == BodyKind::Binary {
                return Err(unsupported(&url, content_type.as_deref()));
            }
        }
        let mut text = if kind == BodyKind::Html {
            tokio::task::spawn_blocking(move || text::html_to_text(&body))
                .await
                .map_err(|err| FetchError::new("fetch_failed", format!("converting {url} to text failed: {err}")))?
        } else {
            String::from_utf8_lossy(&body).into_owned()
        };
        if truncated {
            text.push_str(&format!("\n\n[truncated: stopped reading at max_bytes = {} bytes]", self.max_bytes));
        }
        Ok(Fetched { url: url.to_string(), status, content_type, text, truncated })
    }

    /// Names the rule when the resolver refused the address, else describes the failure.
    fn send_error(&self, url: &Url, from: Option<&Url>, err: &reqwest::Error) -> FetchError {
        let mut source: Option<&(dyn StdError + 'static)> = Some(err);
        while let Some(current) = source {
            if let Some(PrivateAddress(refused)) = current.downcast_ref::<PrivateAddress>() {
                return refused_error(url, from, refused);
            }
            source = current.source();
        }
        if err.is_timeout() {
            let seconds = self.timeout.as_secs_f64();
            return FetchError::new(
                "timeout",
                format!("connecting to {url} timed out after {seconds}s (rule: timeout)"),
            );
        }
        FetchError::new("fetch_failed", format!("fetching {url} failed: {}", chain(err)))
    }
}

fn refused_error(url: &Url, from: Option<&Url>, refused: &Refused) -> FetchError {
    let message = match from {
        None => format!("refused {url}: {refused}"),
        Some(from) => format!("refused the redirect from {from} to {url}: {refused}"),
    };
    FetchError::new("refused", message)
}

fn unsupported(url: &Url, content_type: Option<&str>) -> FetchError {
    let what = content_type.unwrap_or("binary content");
    FetchError::new("unsupported_content", format!("{url} is {what}; web_fetch returns text only"))
}

/// An error and its sources, `: `-separated (reqwest's own message is often just "error sending request").
fn chain(err: &dyn StdError) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

/// The resolver's refusal, found again in reqwest's error chain.
#[derive(Debug)]
struct PrivateAddress(Refused);

impl fmt::Display for PrivateAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl StdError for PrivateAddress {}

/// Resolves with the system resolver, then refuses the name if ANY address
/// is non-public (unless `allow_private_addresses`). The client connects only
/// to the addresses this returns, so a name can't pass the check and then
/// connect elsewhere (DNS rebinding). IP literals never reach a resolver:
/// `Rules::check_url` checks them.
struct GuardedResolver {
    rules: Arc<Rules>,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let rules = self.rules.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            for addr in &addrs {
                rules.check_ip(&host, addr.ip()).map_err(PrivateAddress)?;
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}
