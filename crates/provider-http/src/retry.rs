//! Retries with exponential backoff and jitter, as upstream's
//! `retry_with_backoff` (`RetryConfig{max_retries, initial_delay=1,
//! max_delay=60, backoff_factor=2, jitter, honor_retry_after}`).
//!
//! The delay before retry *n* is `min_delay · 2^(n-1)`, capped at
//! `max_delay`, plus up to as much again of random jitter (backon's
//! schedule); then multiplied by `overloaded_delay_multiplier` when the
//! server said it is overloaded (HTTP 529); then raised to the server's
//! `Retry-After` when that is longer. A `provider:retry` event announces each
//! wait. Only errors marked `retryable` are retried, and never once output
//! reached the caller (a retry would repeat it).
//!
//! It is plain async code: dropping the future (the caller cancelled)
//! stops it wherever it is, sleeping or waiting for the server.

use std::future::Future;
use std::time::Duration;

use amplifier_sdk::{json, ModuleError};
use backon::{BackoffBuilder, ExponentialBuilder};
use serde::Deserialize;

use crate::events::EventSink;

#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: usize,
    pub min_delay: Duration,
    pub max_delay: Duration,
    pub jitter: bool,
    /// Applied to the delay after an HTTP 529 (overloaded).
    pub overloaded_delay_multiplier: f64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            min_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            jitter: true,
            overloaded_delay_multiplier: 1.0,
        }
    }
}

impl RetryPolicy {
    /// From config values in seconds (negative or non-finite values are read as 0).
    pub fn from_seconds(
        max_retries: usize,
        min_delay: f64,
        max_delay: f64,
        jitter: bool,
        overloaded_delay_multiplier: f64,
    ) -> Self {
        let seconds = |s: f64| Duration::from_secs_f64(if s.is_finite() && s > 0.0 { s } else { 0.0 });
        RetryPolicy {
            max_retries,
            min_delay: seconds(min_delay),
            max_delay: seconds(max_delay.max(min_delay)),
            jitter,
            overloaded_delay_multiplier: if overloaded_delay_multiplier.is_finite() && overloaded_delay_multiplier > 0.0
            {
                overloaded_delay_multiplier
            } else {
                1.0
            },
        }
    }

    /// The backoff schedule: one delay per allowed retry.
    fn schedule(&self) -> impl Iterator<Item = Duration> {
        let builder = ExponentialBuilder::default()
            .with_min_delay(self.min_delay)
            .with_max_delay(self.max_delay)
            .with_factor(2.0)
            .with_max_times(self.max_retries);
        let builder = if self.jitter { builder.with_jitter() } else { builder };
        builder.build()
    }

    /// The wait before the next attempt, from the schedule's `base` delay and the error.
    pub fn delay_for(&self, base: Duration, error: &ModuleError) -> Duration {
        let mut delay = base;
        if error.status_code == Some(529) {
            delay = delay.mul_f64(self.overloaded_delay_multiplier);
        }
        if let Some(after) = error.retry_after.filter(|s| s.is_finite() && *s >= 0.0) {
            delay = delay.max(Duration::from_secs_f64(after));
        }
        // Whole milliseconds: the schedule multiplies in f32, and events read better without 0.400000004.
        Duration::from_millis((delay.as_secs_f64() * 1000.0).round() as u64)
    }
}

/// The retry keys of a provider's config, `#[serde(flatten)]`ed into it:
/// `max_retries` (by default `DEFAULT_MAX_RETRIES`, which upstream sets per
/// provider), `min_retry_delay` and `max_retry_delay` in seconds (1 and 60)
/// and `retry_jitter` (on).
#[derive(Debug, Deserialize)]
pub struct RetryConfig<const DEFAULT_MAX_RETRIES: usize> {
    #[serde(default = "constant::<DEFAULT_MAX_RETRIES>")]
    max_retries: usize,
    #[serde(default = "one")]
    min_retry_delay: f64,
    #[serde(default = "sixty")]
    max_retry_delay: f64,
    #[serde(default = "yes")]
    retry_jitter: bool,
}

fn constant<const N: usize>() -> usize {
    N
}
fn one() -> f64 {
    1.0
}
fn sixty() -> f64 {
    60.0
}
fn yes() -> bool {
    true
}

impl<const DEFAULT_MAX_RETRIES: usize> RetryConfig<DEFAULT_MAX_RETRIES> {
    pub fn max_retries(&self) -> usize {
        self.max_retries
    }

    pub fn policy(&self, overloaded_delay_multiplier: f64) -> RetryPolicy {
        RetryPolicy::from_seconds(
            self.max_retries,
            self.min_retry_delay,
            self.max_retry_delay,
            self.retry_jitter,
            overloaded_delay_multiplier,
        )
    }
}

/// A failed attempt.
#[derive(Debug)]
pub struct Failure {
    pub error: ModuleError,
    /// Output already reached the caller or the hooks: never retried.
    pub delivered: bool,
}

impl From<ModuleError> for Failure {
    fn from(error: ModuleError) -> Self {
        Failure { error, delivered: false }
    }
}

/// Who is retrying, for the `provider:retry` event.
pub struct RetryLabels<'a> {
    pub provider: &'a str,
    pub model: &'a str,
}

/// Runs `attempt` until it succeeds, fails for good, or the retries run out.
pub async fn with_retries<T, S, F, Fut>(
    policy: &RetryPolicy,
    events: &S,
    labels: RetryLabels<'_>,
    mut attempt: F,
) -> Result<T, ModuleError>
where
    S: EventSink,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Failure>>,
{
    let mut schedule = policy.schedule();
    let mut retries = 0;
    loop {
        let failure = match attempt().await {
            Ok(value) => return Ok(value),
            Err(failure) => failure,
        };
        let error = failure.error;
        if !error.retryable || failure.delivered {
            return Err(error);
        }
        let Some(base) = schedule.next() else { return Err(error) };
        retries += 1;
        let delay = policy.delay_for(base, &error);
        tracing::info!(provider = labels.provider, attempt = retries, delay = delay.as_secs_f64(), error = %error.message, "retrying");
        let event = json!({
            "provider": labels.provider,
            "model": labels.model,
            "attempt": retries,
            "max_retries": policy.max_retries,
            "delay": delay.as_secs_f64(),
            "retry_after": error.retry_after,
            "error_type": error.kind_name(),
            "error_message": error.message,
            "status_code": error.status_code,
        });
        events.send_event(amplifier_sdk::events::PROVIDER_RETRY, event).await;
        tokio::time::sleep(delay).await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use amplifier_sdk::ErrorKind;

    use super::*;
    use crate::events::EventRecorder as Recorder;

    fn policy(max_retries: usize) -> RetryPolicy {
        RetryPolicy::from_seconds(max_retries, 1.0, 60.0, false, 10.0)
    }

    fn error(kind: ErrorKind, status: u16) -> ModuleError {
        let mut err = ModuleError::new(kind, "nope");
        err.status_code = Some(status);
        err
    }

    #[test]
    fn retry_config_has_upstreams_defaults_and_flattens_into_a_config() {
        #[derive(Deserialize)]
        struct Config {
            timeout: f64,
            #[serde(flatten)]
            retry: RetryConfig<5>,
        }
        let config: Config = serde_json::from_value(json!({"timeout": 30})).unwrap();
        assert_eq!(config.timeout, 30.0);
        assert_eq!(config.retry.max_retries(), 5);
        assert_eq!(config.retry.policy(10.0), RetryPolicy::from_seconds(5, 1.0, 60.0, true, 10.0));
        let given = json!({"timeout": 1, "max_retries": 0, "min_retry_delay": 0.5, "max_retry_delay": 2, "retry_jitter": false});
        let config: Config = serde_json::from_value(given).unwrap();
        assert_eq!(config.retry.policy(1.0), RetryPolicy::from_seconds(0, 0.5, 2.0, false, 1.0));
        assert!(serde_json::from_value::<Config>(json!({"timeout": 1, "max_retries": "3"})).is_err());
    }

    #[test]
    fn the_schedule_doubles_up_to_the_cap() {
        let delays: Vec<u64> =
            RetryPolicy::from_seconds(8, 1.0, 20.0, false, 1.0).schedule().map(|d| d.as_secs()).collect();
        assert_eq!(delays, [1, 2, 4, 8, 16, 20, 20, 20]);
    }

    #[test]
    fn jitter_adds_at_most_the_delay_again() {
        for delay in RetryPolicy::from_seconds(50, 1.0, 1.0, true, 1.0).schedule() {
            assert!(delay >= Duration::from_secs(1) && delay <= Duration::from_secs(2), "{delay:?}");
        }
    }

    #[test]
    fn overloaded_multiplies_and_retry_after_raises_the_delay() {
        let policy = policy(3);
        let base = Duration::from_secs(1);
        assert_eq!(policy.delay_for(base, &error(ErrorKind::Unavailable, 529)), Duration::from_secs(10));
        assert_eq!(policy.delay_for(base, &error(ErrorKind::Unavailable, 500)), Duration::from_secs(1));
        let mut limited = error(ErrorKind::RateLimit, 429);
        limited.retry_after = Some(7.0);
        assert_eq!(policy.delay_for(base, &limited), Duration::from_secs(7));
        limited.retry_after = Some(0.5);
        assert_eq!(policy.delay_for(base, &limited), Duration::from_secs(1));
    }

    #[tokio::test(start_paused = true)]
    async fn retries_retryable_errors_and_announces_each_wait() {
        let recorder = Recorder::default();
        let calls = AtomicUsize::new(0);
        let labels = RetryLabels { provider: "openai", model: "m" };
        let result = with_retries(&policy(3), &recorder, labels, || async {
            match calls.fetch_add(1, Ordering::SeqCst) {
                0 => Err(error(ErrorKind::Unavailable, 500).into()),
                1 => Err(error(ErrorKind::Unavailable, 529).into()),
                _ => Ok("done"),
            }
        })
        .await;
        assert_eq!(result.unwrap(), "done");
        let events = recorder.events();
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].0, "provider:retry");
        let first = &events[0].1;
        assert_eq!((first["attempt"].as_u64(), first["max_retries"].as_u64()), (Some(1), Some(3)));
        assert_eq!((first["delay"].as_f64(), first["error_type"].as_str()), (Some(1.0), Some("unavailable")));
        assert_eq!((first["provider"].as_str(), first["model"].as_str()), (Some("openai"), Some("m")));
        assert!(first["retry_after"].is_null() && first["error_message"] == "nope");
        // Second wait: 2 s from the schedule, times 10 for the 529.
        assert_eq!(events[1].1["delay"].as_f64(), Some(20.0));
    }

    #[tokio::test(start_paused = true)]
    async fn permanent_errors_delivered_output_and_exhaustion_end_the_loop() {
        let recorder = Recorder::default();
        let labels = || RetryLabels { provider: "p", model: "m" };
        let calls = AtomicUsize::new(0);
        let denied: Result<(), _> = with_retries(&policy(3), &recorder, labels(), || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(error(ErrorKind::Authentication, 401).into())
        })
        .await;
        assert_eq!((denied.unwrap_err().kind, calls.swap(0, Ordering::SeqCst)), (ErrorKind::Authentication, 1));

        let broken: Result<(), _> = with_retries(&policy(3), &recorder, labels(), || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(Failure { error: ModuleError::new(ErrorKind::Stream, "cut"), delivered: true })
        })
        .await;
        assert_eq!((broken.unwrap_err().kind, calls.swap(0, Ordering::SeqCst)), (ErrorKind::Stream, 1));

        let exhausted: Result<(), _> = with_retries(&policy(2), &recorder, labels(), || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(error(ErrorKind::Unavailable, 503).into())
        })
        .await;
        assert_eq!((exhausted.unwrap_err().status_code, calls.load(Ordering::SeqCst)), (Some(503), 3));
        assert_eq!(recorder.events().len(), 2);
    }
}
