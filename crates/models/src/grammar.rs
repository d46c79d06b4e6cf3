//! The tool-call grammar: a GBNF grammar (llama.cpp's grammar format) that
//! holds a local model to a well-formed call once it starts one.
//!
//! A call is the ```json block [`chat`](crate::chat) asks for:
//! `{"name": <an offered tool>, "arguments": <an object fitting that tool's
//! schema>}`. provider-local applies the grammar lazily: the model writes
//! freely until it writes [`TRIGGER`], and from there every token must keep
//! the text inside the grammar, so the call parses, names a real tool, has
//! the required arguments with the right types, and ends the reply.
//!
//! llama.cpp's own converter (`json-schema-to-grammar.cpp`) lives in its
//! `common` library, which the workspace does not build (it would compile a
//! JSON library and much else for this alone). Tool schemas use a small part
//! of JSON Schema, which this covers: `type` (one or several), `properties`
//! with `required`, `items`, `enum` and `const`. Anything else (`anyOf`,
//! `$ref`, patterns, bounds) is held to "any JSON value" of the right type;
//! the host still checks the arguments against the full schema.

use serde_json::Value;

use amplifier_protocol::models::ToolSpec;

/// A reply that cannot open with a tool call (or with any code fence, or
/// blank): for a request that offers no tool after the model has called
/// some. Having seen its calls in the history, a small model writes
/// another as text, which would reach the user as the answer.
pub const NO_CALL: &str = "root ::= [^`\\x00-\\x20] [^\\x00]*";

/// What starts a call: the grammar applies from here on.
pub const TRIGGER: &str = "```json";

/// Rules every grammar shares: JSON's own values, and a little whitespace
/// (bounded, so a model cannot stall in it).
const JSON_RULES: &str = r#"ws ::= | " " | "\n" [ \t]{0,8}
string ::= "\"" char* "\""
char ::= [^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})
integer ::= "-"? ([0-9] | [1-9] [0-9]{1,15})
number ::= integer ("." [0-9]+)? ([eE] [-+]? [0-9]+)?
boolean ::= "true" | "false"
null ::= "null"
value ::= object | array | string | number | boolean | null
object ::= "{" ws ( string ws ":" ws value ( ws "," ws string ws ":" ws value )* )? ws "}"
array ::= "[" ws ( value ( ws "," ws value )* )? ws "]"
"#;

/// The grammar for calls to `tools`; `None` when no tool is offered.
pub fn tool_calls(tools: &[ToolSpec]) -> Option<String> {
    if tools.is_empty() {
        return None;
    }
    let mut grammar = Grammar::default();
    let calls: Vec<String> = tools
        .iter()
        .enumerate()
        .map(|(index, tool)| {
            let arguments = grammar.schema(&format!("tool{index}"), &tool.parameters, true);
            format!(
                r#""{{" ws "\"name\"" ws ":" ws {} ws "," ws "\"arguments\"" ws ":" ws {arguments} ws "}}""#,
                literal(&Value::String(tool.name.clone()).to_string())
            )
        })
        .collect();
    let mut out = format!("root ::= {} ws call ws \"```\"\ncall ::= {}\n", literal(TRIGGER), calls.join(" | "));
    for (name, body) in grammar.rules {
        out.push_str(&format!("{name} ::= {body}\n"));
    }
    out.push_str(JSON_RULES);
    Some(out)
}

#[derive(Default)]
struct Grammar {
    rules: Vec<(String, String)>,
}

impl Grammar {
    /// A rule for values fitting `schema`, named after `name`; returns what
    /// to write where such a value goes.
    fn schema(&mut self, name: &str, schema: &Value, top: bool) -> String {
        if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
            let alternatives: Vec<String> = choices.iter().map(|choice| literal(&choice.to_string())).collect();
            return self.rule(name, alternatives.join(" | "));
        }
        if let Some(constant) = schema.get("const") {
            return literal(&constant.to_string());
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(several)) => several.iter().filter_map(Value::as_str).collect(),
            // The arguments are an object whatever the schema says.
            _ if top => vec!["object"],
            _ => return "value".to_owned(),
        };
        let bodies: Vec<String> = types
            .iter()
            .enumerate()
            .map(|(index, kind)| {
                let name = if types.len() == 1 { name.to_owned() } else { format!("{name}-{index}") };
                match *kind {
                    "object" => self.object(&name, schema),
                    "array" => match schema.get("items") {
                        Some(items) => {
                            let item = self.schema(&format!("{name}-item"), items, false);
                            format!(r#""[" ws ( {item} ( ws "," ws {item} )* )? ws "]""#)
                        }
                        None => "array".to_owned(),
                    },
                    "string" | "integer" | "number" | "boolean" | "null" => (*kind).to_owned(),
                    _ => "value".to_owned(),
                }
            })
            .collect();
        if bodies.len() == 1 && !bodies[0].contains(' ') {
            return bodies.into_iter().next().expect("one body");
        }
        self.rule(name, bodies.join(" | "))
    }

    /// An object with `schema`'s properties: the required ones, then any of
    /// the others, each group in key order (the order the model sees them
    /// in, serde_json's maps being sorted).
    fn object(&mut self, name: &str, schema: &Value) -> String {
        let Some(properties) = schema.get("properties").and_then(Value::as_object).filter(|p| !p.is_empty()) else {
            return "object".to_owned();
        };
        let required: Vec<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let mut members: Vec<(bool, String)> = Vec::new();
        for (key, property) in properties {
            let value = self.schema(&format!("{name}-{}", rule_name(key)), property, false);
            let member = format!(r#"{} ws ":" ws {value}"#, literal(&Value::String(key.clone()).to_string()));
            members.push((required.contains(&key.as_str()), member));
        }
        // Required first, so the sequence has a fixed head.
        members.sort_by_key(|(is_required, _)| !is_required);
        let (head, optional): (Vec<_>, Vec<_>) = members.into_iter().partition(|(is_required, _)| *is_required);
        let head: Vec<String> = head.into_iter().map(|(_, member)| member).collect();
        let optional: Vec<String> = optional.into_iter().map(|(_, member)| member).collect();
        let tail = |from: usize| -> String {
            optional[from..].iter().map(|member| format!(r#" ( ws "," ws {member} )?"#)).collect()
        };
        let inside = if head.is_empty() {
            // No member is required: any one may come first, the later ones after it.
            let firsts: Vec<String> =
                optional.iter().enumerate().map(|(index, member)| format!("{member}{}", tail(index + 1))).collect();
            format!("( {} )?", firsts.join(" | "))
        } else {
            format!(r#"{}{}"#, head.join(r#" ws "," ws "#), tail(0))
        };
        self.rule(name, format!(r#""{{" ws {inside} ws "}}""#))
    }

    fn rule(&mut self, name: &str, body: String) -> String {
        self.rules.push((name.to_owned(), body));
        name.to_owned()
    }
}

/// A GBNF string literal matching `text` exactly. Its escapes are close to
/// JSON's (`crates/abi`'s `json_string`) but not the same: GBNF has no `\b`
/// or `\f`, and writes other control characters as `\xHH`.
fn literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() && (c as u32) < 0x80 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A property name as a rule name: GBNF allows letters, digits and `-`.
fn rule_name(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, parameters: Value) -> ToolSpec {
        ToolSpec { extensions: Default::default(), name: name.into(), parameters, description: None }
    }

    #[test]
    fn no_tools_no_grammar() {
        assert_eq!(tool_calls(&[]), None);
    }

    #[test]
    fn each_tool_is_a_call_with_its_required_members_first() {
        let read = tool(
            "read_file",
            json!({"type": "object", "properties": {
                "offset": {"type": "integer"},
                "file_path": {"type": "string"},
                "mode": {"type": "string", "enum": ["a", "b"]},
            }, "required": ["file_path"]}),
        );
        let list = tool("list_dir", json!({"type": "object", "properties": {"path": {"type": ["string", "null"]}}}));
        let grammar = tool_calls(&[read, list]).unwrap();
        let lines: Vec<&str> = grammar.lines().collect();
        assert_eq!(lines[0], r#"root ::= "```json" ws call ws "```""#);
        assert_eq!(
            lines[1],
            r#"call ::= "{" ws "\"name\"" ws ":" ws "\"read_file\"" ws "," ws "\"arguments\"" ws ":" ws tool0 ws "}" | "{" ws "\"name\"" ws ":" ws "\"list_dir\"" ws "," ws "\"arguments\"" ws ":" ws tool1 ws "}""#
        );
        assert!(grammar.contains(r#"tool0-mode ::= "\"a\"" | "\"b\"""#), "{grammar}");
        assert!(
            grammar.contains(
                r#"tool0 ::= "{" ws "\"file_path\"" ws ":" ws string ( ws "," ws "\"mode\"" ws ":" ws tool0-mode )? ( ws "," ws "\"offset\"" ws ":" ws integer )? ws "}""#
            ),
            "{grammar}"
        );
        assert!(grammar.contains(r#"tool1-path ::= string | null"#), "{grammar}");
        assert!(grammar.contains(r#"tool1 ::= "{" ws ( "\"path\"" ws ":" ws tool1-path )? ws "}""#), "{grammar}");
    }

    #[test]
    fn arrays_nested_objects_and_odd_names_have_rules_of_their_own() {
        let t = tool(
            "multi edit",
            json!({"type": "object", "properties": {
                "edits": {"type": "array", "items": {"type": "object", "properties": {"old.text": {"type": "string"}}, "required": ["old.text"]}},
                "anything": {},
                "say \"hi\"": {"const": "x\\y"},
            }, "required": ["edits"]}),
        );
        let grammar = tool_calls(&[t]).unwrap();
        assert!(grammar.contains(r#""\"multi edit\"""#), "{grammar}");
        assert!(grammar.contains(r#"tool0-edits-item ::= "{" ws "\"old.text\"" ws ":" ws string ws "}""#), "{grammar}");
        assert!(
            grammar.contains(r#"tool0-edits ::= "[" ws ( tool0-edits-item ( ws "," ws tool0-edits-item )* )? ws "]""#),
            "{grammar}"
        );
        assert!(grammar.contains(r#"( ws "," ws "\"anything\"" ws ":" ws value )?"#), "{grammar}");
        assert!(grammar.contains(r#""\"say \\\"hi\\\"\"" ws ":" ws "\"x\\\\y\"""#), "{grammar}");
    }

    #[test]
    fn a_schema_with_no_properties_takes_any_object() {
        let grammar = tool_calls(&[tool("ping", json!({"type": "object"}))]).unwrap();
        assert!(grammar.contains(r#"ws "\"arguments\"" ws ":" ws object ws "}""#), "{grammar}");
    }
}
