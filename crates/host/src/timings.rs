//! Where a run's time and memory go. With debug logging (`amplifier -vv`),
//! each phase of a session's life is logged as `phase` with the time since
//! `main` began and the resident memory then, so a slow start can be told
//! from a slow turn or a slow last write. The front end calls [`start`]
//! first thing; the host marks the rest.

use std::sync::OnceLock;
use std::time::Instant;

static START: OnceLock<Instant> = OnceLock::new();

/// Marks the start of `main`; later phases are timed from it.
pub fn start() {
    START.get_or_init(Instant::now);
}

/// Logs that `name` has just ended, at debug level (nothing is read when
/// debug logging is off).
pub fn phase(name: &'static str) {
    if !tracing::enabled!(tracing::Level::DEBUG) {
        return;
    }
    let ms = START.get().map_or(0.0, |start| start.elapsed().as_secs_f64() * 1e3);
    tracing::debug!(phase = name, ms = format!("{ms:.2}"), rss_kib = rss_kib(), "timing");
}

/// The resident set size, from `/proc` (0 where there is none).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}
