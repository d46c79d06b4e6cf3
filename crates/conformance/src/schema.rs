//! Values derived from a JSON Schema: the smallest instance it accepts (a
//! default config, a tool input), and a config and an input it rejects.

use std::path::Path;

use amplifier_kernel::models::JsonMap;
use serde_json::{json, Value};

fn schema_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(types)) => {
            types.iter().filter_map(Value::as_str).find(|t| *t != "null").or_else(|| types.first()?.as_str())
        }
        _ if schema.get("properties").is_some() || schema.get("required").is_some() => Some("object"),
        _ => None,
    }
}

fn sorted_properties(schema: &Value) -> Vec<(&String, &Value)> {
    let mut properties: Vec<(&String, &Value)> =
        schema.get("properties").and_then(Value::as_object).map(|p| p.iter().collect()).unwrap_or_default();
    properties.sort_by(|a, b| a.0.cmp(b.0));
    properties
}

fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The smallest value `schema` accepts, as far as a simple generator can
/// tell: defaults, consts and enums first; an object with only its required
/// properties; strings whose name suggests a path point into `scratch`.
pub fn minimal_instance(schema: &Value, name: &str, scratch: &Path) -> Value {
    for key in ["default", "const"] {
        if let Some(value) = schema.get(key) {
            return value.clone();
        }
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|e| e.first()) {
            return minimal_instance(first, name, scratch);
        }
    }
    let number = |fallback: f64| {
        let minimum = schema.get("minimum").and_then(Value::as_f64);
        let exclusive = schema.get("exclusiveMinimum").and_then(Value::as_f64);
        let mut value = minimum.or(exclusive.map(|e| e.floor() + 1.0)).unwrap_or(fallback);
        if let Some(maximum) = schema.get("maximum").and_then(Value::as_f64) {
            value = value.min(maximum);
        }
        value
    };
    match schema_type(schema) {
        Some("object") => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let mut object = JsonMap::new();
            for key in required(schema) {
                let property = properties.and_then(|p| p.get(key)).cloned().unwrap_or(json!({}));
                object.insert(key.to_owned(), minimal_instance(&property, key, scratch));
            }
            Value::Object(object)
        }
        Some("array") => {
            let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let item = minimal_instance(schema.get("items").unwrap_or(&json!({})), name, scratch);
            Value::Array(vec![item; count])
        }
        Some("string") => {
            let lowered = name.to_lowercase();
            let format = schema.get("format").and_then(Value::as_str).unwrap_or_default();
            let mut text = if ["path", "file", "dir"].iter().any(|hint| lowered.contains(hint)) {
                scratch.join(name).display().to_string()
            } else if matches!(format, "uri" | "url") || lowered.contains("url") {
                "https://example.invalid/".to_owned()
            } else if format == "email" {
                "validate@example.invalid".to_owned()
            } else {
                "validate".to_owned()
            };
            let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            while text.chars().count() < min {
                text.push('x');
            }
            if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
                text = text.chars().take(max as usize).collect();
            }
            Value::String(text)
        }
        Some("integer") => json!(number(1.0) as i64),
        Some("number") => json!(number(1.0)),
        Some("boolean") => json!(false),
        Some("null") => Value::Null,
        _ if name.is_empty() => json!({}),
        _ => json!("validate"),
    }
}

/// A config `schema` rejects, derived from the valid `base`: one property of
/// the wrong type, else an unknown key when `additionalProperties` is false.
pub(crate) fn invalid_config(schema: &Value, base: &JsonMap) -> Option<(JsonMap, String)> {
    let validator = jsonschema::validator_for(schema).ok()?;
    let candidates =
        [json!(42), json!("validate"), json!(true), json!(["validate"]), json!({"validate": 1}), json!(1.5)];
    for (name, property) in sorted_properties(schema) {
        let Some(expected) = schema_type(property) else { continue };
        // A value of another type first (42 for a number is "too large", not "wrong type").
        let (other, same): (Vec<&Value>, Vec<&Value>) = candidates.iter().partition(|c| !has_type(c, expected));
        for bad in other.into_iter().chain(same) {
            let mut config = base.clone();
            config.insert(name.clone(), bad.clone());
            if !validator.is_valid(&Value::Object(config.clone())) {
                return Some((config, format!("`{name}` = {bad} (the schema expects {expected})")));
            }
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        let mut config = base.clone();
        config.insert("validate_unknown_key".into(), json!(true));
        if !validator.is_valid(&Value::Object(config.clone())) {
            return Some((config, "the unknown key `validate_unknown_key`".to_owned()));
        }
    }
    None
}

/// Whether `value` is of JSON Schema type `expected`.
fn has_type(value: &Value, expected: &str) -> bool {
    match expected {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => false,
    }
}

/// A tool input the schema rejects: the valid input without a required
/// property, or with a property of the wrong type, or not an object at all.
pub(crate) fn invalid_input(
    validator: Option<&jsonschema::Validator>,
    schema: &Value,
    valid: &Value,
) -> (Value, String) {
    let not_an_object = (json!("validate: not an object"), "a string instead of an object".to_owned());
    let Some(validator) = validator else { return not_an_object };
    let mut candidates = Vec::new();
    if let (Some(first), Value::Object(object)) = (required(schema).first(), valid) {
        let mut without = object.clone();
        without.remove(*first);
        candidates.push((Value::Object(without), format!("an input without the required `{first}`")));
    }
    for (name, property) in sorted_properties(schema) {
        if let (Some(expected), Value::Object(object)) = (schema_type(property), valid) {
            for bad in [json!(42), json!("validate"), json!({"validate": 1})] {
                let mut wrong = object.clone();
                wrong.insert(name.clone(), bad.clone());
                candidates.push((Value::Object(wrong), format!("`{name}` = {bad} (the schema expects {expected})")));
            }
        }
    }
    candidates.push(not_an_object.clone());
    candidates.into_iter().find(|(input, _)| !validator.is_valid(input)).unwrap_or(not_an_object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_instances_satisfy_their_schemas() {
        let scratch = Path::new("/tmp/scratch");
        let schema = json!({
            "type": "object",
            "required": ["path", "count", "mode", "tags", "ratio"],
            "properties": {
                "path": {"type": "string"},
                "count": {"type": "integer", "minimum": 3},
                "mode": {"enum": ["fast", "slow"]},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "optional": {"type": "boolean"}
            }
        });
        let instance = minimal_instance(&schema, "", scratch);
        assert_eq!(instance["path"], "/tmp/scratch/path");
        assert_eq!(instance["count"], 3);
        assert_eq!(instance["mode"], "fast");
        assert_eq!(instance["tags"], json!(["validate"]));
        assert!(instance.get("optional").is_none());
        assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&instance), "{instance}");
    }

    #[test]
    fn invalid_configs_use_a_wrong_type_then_an_unknown_key() {
        let typed = json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}});
        let (config, what) = invalid_config(&typed, &JsonMap::new()).unwrap();
        assert_eq!(config["a"], "validate", "properties in name order, first wrong value");
        assert!(what.contains("`a`") && what.contains("integer"), "{what}");
        let closed = json!({"type": "object", "additionalProperties": false, "properties": {}});
        let (config, _) = invalid_config(&closed, &JsonMap::new()).unwrap();
        assert!(config.contains_key("validate_unknown_key"));
        assert!(invalid_config(&json!({"type": "object"}), &JsonMap::new()).is_none());
    }

    #[test]
    fn invalid_inputs_drop_a_required_property_first() {
        let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
        let validator = jsonschema::validator_for(&schema).unwrap();
        let valid = minimal_instance(&schema, "", Path::new("/tmp"));
        let (input, what) = invalid_input(Some(&validator), &schema, &valid);
        assert_eq!(input, json!({}));
        assert!(what.contains("required `text`"), "{what}");
        let (input, _) = invalid_input(None, &schema, &valid);
        assert!(input.is_string());
    }
}
