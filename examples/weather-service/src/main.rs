//! An example remote service: registers `forecast {city, days?}` with the
//! service hub (the `tool-services` module), so a session's model can call
//! `weather__forecast`. The weather is made up (deterministic, no network).
//!
//! ```sh
//! weather-service [ws://127.0.0.1:3002]
//! ```
//!
//! The URL may also come from `AMPLIFIER_SERVICES_URL`, and the hub's shared
//! secret from `AMPLIFIER_SERVICES_TOKEN`. The service reconnects every five
//! seconds when the hub goes away.

use std::time::Duration;

use amplifier_service_sdk::{ConnectOptions, Service, Task, TaskError, ToolInfo};
use serde_json::{json, Value};

const SKIES: [&str; 5] = ["sunny", "cloudy", "rainy", "windy", "foggy"];

async fn forecast(task: Task) -> Result<Value, TaskError> {
    let city = task.params["city"].as_str().unwrap_or_default().trim().to_owned();
    if city.is_empty() {
        return Err(TaskError::new("BAD_INPUT", "city must not be empty"));
    }
    let days = task.params["days"].as_u64().unwrap_or(3).clamp(1, 7);
    let seed = city.bytes().fold(7u64, |acc, b| acc.wrapping_mul(31).wrapping_add(u64::from(b.to_ascii_lowercase())));
    let mut daily = Vec::new();
    for day in 0..days {
        task.progress((day as f64 + 1.0) * 100.0 / days as f64, &format!("day {} of {days}", day + 1));
        tokio::time::sleep(Duration::from_millis(50)).await; // pretend to work
        let value = seed.wrapping_add(day.wrapping_mul(2_654_435_761));
        daily.push(json!({
            "day": day + 1,
            "sky": SKIES[(value % SKIES.len() as u64) as usize],
            "high_c": 10 + (value % 20) as i64,
            "low_c": (value % 10) as i64,
        }));
    }
    Ok(json!({"city": city, "days": daily}))
}

fn service() -> Service {
    Service::new("weather", "Weather Service")
        .capability("forecast")
        .manifest(json!({"description": "Made-up weather forecasts", "version": "0.1.0", "supportsNotifications": true}))
        .tool(
            ToolInfo::new("forecast", "The weather forecast for a city, day by day")
                .name("Forecast")
                .input_schema(json!({
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "description": "City name"},
                        "days": {"type": "integer", "minimum": 1, "maximum": 7, "description": "Days to forecast (default 3)"}
                    },
                    "required": ["city"]
                }))
                .output_schema(json!({
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "days": {"type": "array"}}
                })),
            forecast,
        )
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt().with_target(false).init();
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("AMPLIFIER_SERVICES_URL").ok())
        .unwrap_or_else(|| "ws://127.0.0.1:3002".into());
    let mut options = ConnectOptions::new(url).reconnect_every(Duration::from_secs(5));
    if let Ok(token) = std::env::var("AMPLIFIER_SERVICES_TOKEN") {
        options = options.token(token);
    }
    if let Err(err) = service().run(&options).await {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}
