//! `docs/reference/cli.md`: the command tree that `amplifier reference-json`
//! prints (clap's definitions as JSON, see `crates/cli/src/reference.rs`),
//! rendered as Markdown. The binary renders no Markdown; this module does it
//! with the helpers the other pages use ([`escape_text`], [`escape_cell`],
//! and tidy's [`slug`] for the anchors).

use std::fmt::Write as _;

use serde_json::Value;

use crate::docs::{escape_cell, escape_text, Result};
use crate::tidy::slug;

/// The reference of the root command of `tree` and every command under it,
/// depth first: an index, then a section each.
pub fn markdown(tree: &Value) -> Result<String> {
    let mut commands = Vec::new();
    collect(tree, &mut Vec::new(), &mut commands)?;

    let mut out = String::new();
    out.push_str("# Command-line reference\n\n");
    let _ = writeln!(
        out,
        "Every `{name}` command with its arguments and options, as the binary built with the default features \
         defines them (`{name} COMMAND --help` prints the same). The guides are in [the user \
         documentation](../user/running.md).\n",
        name = string(tree, "name")?
    );
    for (path, _) in &commands {
        let depth = path.len() - 1;
        let _ = writeln!(out, "{}- [`{}`](#{})", "  ".repeat(depth), path.join(" "), slug(&path.join(" ")));
    }
    out.push('\n');
    for (path, command) in &commands {
        section(&mut out, path, command, path.len() == 1)?;
    }
    Ok(out)
}

/// `command` and the commands under it, with their names from the root.
fn collect<'a>(command: &'a Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, &'a Value)>) -> Result<()> {
    path.push(string(command, "name")?.to_owned());
    out.push((path.clone(), command));
    for sub in list(command, "subcommands") {
        collect(sub, path, out)?;
    }
    path.pop();
    Ok(())
}

fn section(out: &mut String, path: &[String], command: &Value, root: bool) -> Result<()> {
    let _ = writeln!(out, "## {}\n", path.join(" "));
    if let Some(about) = optional(command, "long_about").or_else(|| optional(command, "about")) {
        let _ = writeln!(out, "{}\n", sentence(escape_text(about)));
    }
    let aliases: Vec<String> = strings(command, "aliases").map(|alias| format!("`{alias}`")).collect();
    if !aliases.is_empty() {
        let _ = writeln!(out, "Also: {}.\n", aliases.join(", "));
    }
    let _ = writeln!(out, "```text\n{}\n```\n", string(command, "usage")?);

    let positionals: Vec<&Value> = list(command, "arguments").collect();
    if !positionals.is_empty() {
        out.push_str("| argument | |\n|---|---|\n");
        for arg in positionals {
            let _ = writeln!(out, "| `{}` | {} |", positional_name(arg).replace('|', "\\|"), describe(arg, true));
        }
        out.push('\n');
    }
    // Global options are listed once, with the root command.
    let options: Vec<&Value> = list(command, "options").filter(|arg| root || !flag(arg, "global")).collect();
    if !options.is_empty() {
        let heading = if root { "global option" } else { "option" };
        let _ = writeln!(out, "| {heading} | |\n|---|---|");
        for arg in options {
            let _ = writeln!(out, "| `{}` | {} |", option_name(arg).replace('|', "\\|"), describe(arg, false));
        }
        out.push('\n');
    }
    let subcommands: Vec<&Value> = list(command, "subcommands").collect();
    if !subcommands.is_empty() {
        out.push_str("| command | |\n|---|---|\n");
        for sub in subcommands {
            let name = string(sub, "name")?;
            let about = optional(sub, "about").map(cell).unwrap_or_default();
            let _ = writeln!(out, "| [`{name}`](#{}) | {about} |", slug(&format!("{} {name}", path.join(" "))));
        }
        out.push('\n');
    }
    if let Some(after) = optional(command, "after_long_help").or_else(|| optional(command, "after_help")) {
        let _ = writeln!(out, "{}\n", escape_text(after));
    }
    Ok(())
}

/// `<NAME>`, `[NAME]`, with `...` when it takes several values.
fn positional_name(arg: &Value) -> String {
    let names = value_names(arg);
    let mut name = if flag(arg, "required") { format!("<{names}>") } else { format!("[{names}]") };
    if flag(arg, "multiple") {
        name.push_str("...");
    }
    name
}

/// `-n, --limit <N>`.
fn option_name(arg: &Value) -> String {
    let mut names = Vec::new();
    let shorts = optional(arg, "short").into_iter().chain(strings(arg, "short_aliases"));
    names.extend(shorts.map(|short| format!("-{short}")));
    let longs = optional(arg, "long").into_iter().chain(strings(arg, "aliases"));
    names.extend(longs.map(|long| format!("--{long}")));
    let mut name = names.join(", ");
    if flag(arg, "takes_value") {
        let _ = write!(name, " <{}>", value_names(arg));
    }
    name
}

fn value_names(arg: &Value) -> String {
    let names: Vec<&str> = strings(arg, "value_names").collect();
    if names.is_empty() {
        optional(arg, "id").unwrap_or_default().to_uppercase()
    } else {
        names.join("> <")
    }
}

/// The help text, then what clap knows: required, repeatable, choices, default.
fn describe(arg: &Value, positional: bool) -> String {
    let mut parts = Vec::new();
    if let Some(help) = optional(arg, "long_help").or_else(|| optional(arg, "help")) {
        parts.push(sentence(cell(help)));
    }
    if flag(arg, "required") && !positional {
        parts.push("Required.".to_owned());
    }
    let action = optional(arg, "action").unwrap_or_default();
    if matches!(action, "count" | "append") {
        parts.push("Repeatable.".to_owned());
    }
    let choices: Vec<String> = list(arg, "possible_values")
        .map(|value| {
            let name = optional(value, "name").unwrap_or_default();
            match optional(value, "help") {
                Some(help) => format!("`{name}` ({})", cell(help)),
                None => format!("`{name}`"),
            }
        })
        .collect();
    if !choices.is_empty() && !matches!(action, "set_true" | "set_false") {
        parts.push(format!("One of {}.", choices.join(", ")));
    }
    let defaults: Vec<String> = strings(arg, "default_values").map(|value| format!("`{}`", cell(value))).collect();
    if !defaults.is_empty() && flag(arg, "takes_value") {
        parts.push(format!("Default: {}.", defaults.join(", ")));
    }
    parts.join(" ")
}

/// clap drops the full stop of a one-sentence doc comment; prose gets it back.
fn sentence(mut text: String) -> String {
    if !text.is_empty() && !text.ends_with(['.', '!', '?', ':']) {
        text.push('.');
    }
    text
}

/// Help text for a table cell: its whitespace runs as one space.
fn cell(help: &str) -> String {
    escape_cell(&help.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn string<'a>(object: &'a Value, key: &str) -> Result<&'a str> {
    optional(object, key).ok_or_else(|| format!("the command tree has no string `{key}` in {object}").into())
}

fn optional<'a>(object: &'a Value, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

fn flag(object: &Value, key: &str) -> bool {
    object.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn list<'a>(object: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    object.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn strings<'a>(object: &'a Value, key: &str) -> impl Iterator<Item = &'a str> {
    list(object, key).filter_map(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_small_tree_renders_as_the_reference() {
        let arg = |id: &str| {
            json!({"id": id, "short": null, "short_aliases": [], "long": null, "aliases": [], "value_names": [],
                   "help": null, "long_help": null, "action": "set", "takes_value": true, "multiple": false,
                   "required": false, "global": false, "default_values": [], "possible_values": []})
        };
        let mut verbose = arg("verbose");
        verbose["short"] = json!("v");
        verbose["long"] = json!("verbose");
        verbose["help"] = json!("More logging");
        verbose["action"] = json!("count");
        verbose["takes_value"] = json!(false);
        verbose["global"] = json!(true);
        let mut limit = arg("limit");
        limit["short"] = json!("n");
        limit["long"] = json!("limit");
        limit["value_names"] = json!(["N"]);
        limit["help"] = json!("At most this many <items>,\n  newest first");
        limit["default_values"] = json!(["20"]);
        let mut format = arg("format");
        format["long"] = json!("format");
        format["long_help"] = json!("How to print: `a|b`");
        format["possible_values"] = json!([{"name": "text", "help": null}, {"name": "json", "help": "One document"}]);
        let mut ids = arg("id");
        ids["required"] = json!(true);
        ids["multiple"] = json!(true);
        ids["help"] = json!("The sessions");
        let tree = json!({
            "name": "demo", "about": "Demo tool", "long_about": null, "after_help": null, "after_long_help": null,
            "aliases": [], "usage": "demo [OPTIONS] [COMMAND]", "arguments": [], "options": [verbose],
            "subcommands": [{
                "name": "session-list", "about": "List sessions", "long_about": null, "aliases": ["ls"],
                "after_help": "See also `demo <x>`.", "after_long_help": null,
                "usage": "demo session-list [OPTIONS] <ID>...", "arguments": [ids],
                "options": [verbose, limit, format], "subcommands": [],
            }],
        });
        let expected = "# Command-line reference\n\n\
            Every `demo` command with its arguments and options, as the binary built with the default features \
            defines them (`demo COMMAND --help` prints the same). The guides are in [the user \
            documentation](../user/running.md).\n\n\
            - [`demo`](#demo)\n  - [`demo session-list`](#demo-session-list)\n\n\
            ## demo\n\nDemo tool.\n\n```text\ndemo [OPTIONS] [COMMAND]\n```\n\n\
            | global option | |\n|---|---|\n| `-v, --verbose` | More logging. Repeatable. |\n\n\
            | command | |\n|---|---|\n| [`session-list`](#demo-session-list) | List sessions |\n\n\
            ## demo session-list\n\nList sessions.\n\nAlso: `ls`.\n\n\
            ```text\ndemo session-list [OPTIONS] <ID>...\n```\n\n\
            | argument | |\n|---|---|\n| `<ID>...` | The sessions. |\n\n\
            | option | |\n|---|---|\n\
            | `-n, --limit <N>` | At most this many &lt;items&gt;, newest first. Default: `20`. |\n\
            | `--format <FORMAT>` | How to print: `a\\|b`. One of `text`, `json` (One document). |\n\n\
            See also `demo <x>`.\n\n";
        assert_eq!(markdown(&tree).unwrap(), expected);
    }

    #[test]
    fn a_command_without_a_name_is_an_error() {
        let err = markdown(&json!({"usage": "x"})).unwrap_err();
        assert!(err.to_string().contains("no string `name`"), "{err}");
    }
}
