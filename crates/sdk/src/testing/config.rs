//! A module's config as the host hands it over.
//!
//! The loader fills each top-level key of `config_schema.properties` that the
//! plan leaves out with the property's `default` before `mount` runs, so a
//! module's config struct needs no serde defaults of its own; a test that
//! builds a config from partial JSON fills it the same way here.
//!
//! ```ignore
//! const MANIFEST: &str = include_str!("../amplifier.toml");
//! let config: Config = amplifier_sdk::testing::config_with_defaults(MANIFEST, json!({"timeout": 5}));
//! ```

use serde::de::DeserializeOwned;
use serde_json::Value;

/// `config` with the defaults of the manifest's `config_schema` filled in for
/// the top-level keys it leaves out (a key it has, even `null`, is kept), as
/// the loader does (`amplifier_protocol::config::apply_defaults`).
/// `manifest` is the text of the module's `amplifier.toml`. Panics when it is
/// not TOML or `config` is not an object.
pub fn with_defaults(manifest: &str, mut config: Value) -> Value {
    let manifest: toml::Table = toml::from_str(manifest).unwrap_or_else(|err| panic!("amplifier.toml: {err}"));
    let schema = manifest.get("config_schema").map(|schema| serde_json::to_value(schema).expect("TOML is JSON"));
    let map = config.as_object_mut().expect("a config is a JSON object");
    if let Some(schema) = schema {
        amplifier_protocol::config::apply_defaults(&schema, map);
    }
    config
}

/// [`with_defaults`], deserialized; panics when the module would refuse it.
pub fn config_with_defaults<T: DeserializeOwned>(manifest: &str, config: Value) -> T {
    serde_json::from_value(with_defaults(manifest, config)).unwrap_or_else(|err| panic!("invalid config: {err}"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const MANIFEST: &str = "[module]\nname = \"x\"\nkinds = [\"tool\"]\nversion = \"1.0.0\"\nabi = 1\n\n\
        [config_schema]\ntype = \"object\"\n\
        [config_schema.properties.timeout]\ntype = \"number\"\ndefault = 30\n\
        [config_schema.properties.tags]\ntype = \"array\"\ndefault = [\"a\"]\n\
        [config_schema.properties.limit]\ntype = [\"integer\", \"null\"]\ndefault = 100\n\
        [config_schema.properties.path]\ntype = \"string\"\n";

    #[test]
    fn keys_left_out_get_the_manifests_defaults() {
        assert_eq!(with_defaults(MANIFEST, json!({})), json!({"timeout": 30, "tags": ["a"], "limit": 100}));
        assert_eq!(
            with_defaults(MANIFEST, json!({"timeout": 5, "limit": null, "path": "p"})),
            json!({"timeout": 5, "tags": ["a"], "limit": null, "path": "p"})
        );
        #[derive(serde::Deserialize)]
        struct Config {
            timeout: f64,
            tags: Vec<String>,
        }
        let config: Config = config_with_defaults(MANIFEST, json!({"tags": []}));
        assert_eq!((config.timeout, config.tags.len()), (30.0, 0));
    }
}
