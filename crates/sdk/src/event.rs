//! An event's data as a hook receives it.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

use crate::models::JsonMap;

/// The data of one event: the JSON text the host sent, parsed into a
/// [`JsonMap`] the first time it is read. It dereferences to that map, so
/// `data.get("tool_name")` reads as it would on the map itself.
///
/// Why not the map: every hook on an event would parse the whole event
/// (a tool's input, a provider's response) on every emit, and most hooks
/// look at one field or none. A hook that only forwards the event can take
/// [`as_json`](Self::as_json) and parse nothing.
pub struct EventData {
    text: Text,
    map: OnceLock<JsonMap>,
}

/// Where the data's JSON text comes from. The host's text is a plain
/// field: filling a `OnceLock` at every event cost a sixth of the SDK's
/// share of a hook call (W3).
enum Text {
    /// As the host sent it, while the data is unchanged.
    Hosts(String),
    /// The map's, serialised when asked for.
    Maps(OnceLock<String>),
}

impl EventData {
    /// Data from the JSON text of an object, as the host sends it; the
    /// caller has checked that it starts as one.
    pub(crate) fn from_json(json: String) -> Self {
        EventData { text: Text::Hosts(json), map: OnceLock::new() }
    }

    /// The data as JSON text: the host's text while the data is unchanged.
    pub fn as_json(&self) -> &str {
        match &self.text {
            Text::Hosts(json) => json,
            Text::Maps(json) => {
                json.get_or_init(|| serde_json::to_string(self.as_map()).unwrap_or_else(|_| "{}".to_owned()))
            }
        }
    }

    /// The data as a map, parsed on first use.
    pub fn as_map(&self) -> &JsonMap {
        self.map.get_or_init(|| match &self.text {
            Text::Hosts(json) => serde_json::from_str(json).unwrap_or_else(|err| {
                tracing::warn!("the host sent event data that is not a JSON object ({err}); read as empty");
                JsonMap::new()
            }),
            Text::Maps(_) => JsonMap::new(),
        })
    }

    /// The data as an owned map, for a `modify` answer.
    pub fn into_map(mut self) -> JsonMap {
        self.as_map();
        self.map.take().unwrap_or_default()
    }
}

impl Deref for EventData {
    type Target = JsonMap;

    fn deref(&self) -> &JsonMap {
        self.as_map()
    }
}

/// Changing the map drops the host's text, which no longer says the same.
impl DerefMut for EventData {
    fn deref_mut(&mut self) -> &mut JsonMap {
        self.as_map();
        self.text = Text::Maps(OnceLock::new());
        self.map.get_mut().expect("parsed just above")
    }
}

impl From<JsonMap> for EventData {
    fn from(map: JsonMap) -> Self {
        EventData { text: Text::Maps(OnceLock::new()), map: OnceLock::from(map) }
    }
}

impl Clone for EventData {
    fn clone(&self) -> Self {
        match self.map.get() {
            Some(map) => map.clone().into(),
            None => EventData::from_json(self.as_json().to_owned()),
        }
    }
}

impl PartialEq for EventData {
    fn eq(&self, other: &Self) -> bool {
        self.as_map() == other.as_map()
    }
}

impl fmt::Debug for EventData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_map(), f)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn map(value: serde_json::Value) -> JsonMap {
        crate::event_data(value)
    }

    #[test]
    fn the_hosts_text_is_read_as_a_map_and_kept_as_text() {
        let data = EventData::from_json(r#"{"tool_name":"bash","tool_input":{"command":"ls"}}"#.to_owned());
        assert_eq!(data.as_json(), r#"{"tool_name":"bash","tool_input":{"command":"ls"}}"#);
        assert_eq!(data.get("tool_name"), Some(&json!("bash")));
        assert_eq!(data["tool_input"]["command"], "ls");
        assert_eq!(data.clone().into_map(), map(json!({"tool_name": "bash", "tool_input": {"command": "ls"}})));
    }

    #[test]
    fn a_changed_map_is_what_the_text_says() {
        let mut data = EventData::from_json(r#"{"a":1}"#.to_owned());
        data.insert("b".into(), json!(2));
        assert_eq!(serde_json::from_str::<serde_json::Value>(data.as_json()).unwrap(), json!({"a": 1, "b": 2}));
        assert_eq!(data, EventData::from(map(json!({"b": 2, "a": 1}))));
    }

    #[test]
    fn data_from_a_map_has_text_too() {
        let data = EventData::from(map(json!({"x": [1, 2]})));
        assert_eq!(data.as_json(), r#"{"x":[1,2]}"#);
        assert_eq!(format!("{data:?}"), format!("{:?}", map(json!({"x": [1, 2]}))));
    }
}
