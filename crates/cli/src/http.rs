//! Getting a URL's bytes: packages and module indexes served over HTTP.

use std::time::Duration;

/// More than this is refused (a package is a crate and a library).
const MAX_BYTES: u64 = 1 << 30;

/// `GET url`: the body of a successful answer.
pub fn fetch(url: &str) -> Result<Vec<u8>, String> {
    let failed = |why: String| format!("cannot download {url}: {why}");
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|err| failed(err.to_string()))?;
    runtime.block_on(async {
        // reqwest's TLS needs a process-wide provider; an error means one is installed.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(30))
            .build()
            .map_err(|err| failed(err.to_string()))?;
        let mut response = client.get(url).send().await.map_err(|err| failed(err.to_string()))?;
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

/// The loader's way to read an index served over HTTP.
pub struct Http;

impl amplifier_loader::index::Fetch for Http {
    fn fetch(&self, url: &str) -> Result<Vec<u8>, String> {
        fetch(url)
    }
}
