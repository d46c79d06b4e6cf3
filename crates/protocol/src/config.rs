//! A module's `config` as it receives it: what the plan gives, and for each
//! top-level key the plan leaves out, its `default` from the config schema of
//! the module's `amplifier.toml`. The loader applies it before `mount`; a
//! module's unit tests apply it through the SDK's `testing` feature. One
//! function, so the two cannot disagree.

use serde_json::Value;

use crate::models::JsonMap;

/// Fills in each top-level property of `schema.properties` that has a
/// `default` and that `config` leaves out. A key `config` has, even `null`,
/// is kept; nested objects are not filled.
pub fn apply_defaults(schema: &Value, config: &mut JsonMap) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return };
    for (key, property) in properties {
        if let Some(default) = property.get("default").filter(|_| !config.contains_key(key)) {
            config.insert(key.clone(), default.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_keys_left_out_get_their_default() {
        let schema = json!({"properties": {
            "timeout": {"type": "number", "default": 30},
            "limit": {"type": ["integer", "null"], "default": 100},
            "nested": {"type": "object", "default": {"a": 1}, "properties": {"b": {"default": 2}}},
            "path": {"type": "string"}
        }});
        let mut config = json!({"limit": null, "nested": {}}).as_object().unwrap().clone();
        apply_defaults(&schema, &mut config);
        assert_eq!(Value::Object(config), json!({"timeout": 30, "limit": null, "nested": {}}));
        let mut empty = JsonMap::new();
        apply_defaults(&json!({"type": "object"}), &mut empty);
        assert!(empty.is_empty());
    }
}
