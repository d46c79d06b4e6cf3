//! Getting a URL's bytes: packages and module indexes served over HTTP.

use std::time::Duration;

/// More than this is refused (a package is a crate and a library).
const MAX_BYTES: u64 = 1 << 30;
/// The longest wait for the connection, and then for each piece of an answer.
const IDLE: Duration = Duration::from_secs(60);

/// One client for a command's downloads (its connections are reused).
pub struct Http {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
}

impl Http {
    pub fn new() -> Result<Http, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|err| format!("cannot start the HTTP client: {err}"))?;
        // reqwest's TLS needs a process-wide provider; an error means one is installed.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .connect_timeout(IDLE)
            .read_timeout(IDLE)
            .build()
            .map_err(|err| format!("cannot start the HTTP client: {err}"))?;
        Ok(Http { runtime, client })
    }

    /// `GET url`: the body of a successful answer.
    pub fn get(&self, url: &str) -> Result<Vec<u8>, String> {
        let failed = |why: String| format!("cannot download {url}: {why}");
        self.runtime.block_on(async {
            let mut response = self.client.get(url).send().await.map_err(|err| failed(err.to_string()))?;
            if !response.status().is_success() {
                return Err(failed(format!("the server answered {}", response.status())));
            }
            let mut body = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(|err| failed(err.to_string()))? {
                if (body.len() + chunk.len()) as u64 > MAX_BYTES {
                    return Err(failed(format!("it is larger than {MAX_BYTES} bytes")));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(body)
        })
    }
}

/// The loader's way to read an index served over HTTP.
impl amplifier_loader::index::Fetch for Http {
    fn fetch(&self, url: &str) -> Result<Vec<u8>, String> {
        self.get(url)
    }
}
