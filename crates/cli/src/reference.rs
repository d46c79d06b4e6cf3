//! `amplifier reference-json` (hidden): the command tree as JSON, walked
//! from clap's definitions, so the reference cannot drift from them.
//! `cargo xtask docs` renders it as `docs/reference/cli.md`, and `cargo
//! xtask tidy` fails when that file is not what this JSON renders to. The
//! binary renders no Markdown: that is xtask's (`xtask/src/cli_reference.rs`).
//!
//! Each command is `{name, about, long_about, after_help, after_long_help,
//! aliases, usage, arguments, options, subcommands}`; each argument or option
//! `{id, short, short_aliases, long, aliases, value_names, help, long_help,
//! action, takes_value, multiple, required, global, default_values,
//! possible_values: [{name, help}]}`. Help text is clap's, unstyled; a
//! missing text is `null`. Hidden commands, arguments and values are left
//! out, and so are clap's `help` command and its `--help`/`--version`.

use std::io::Write as _;

use clap::{Arg, ArgAction, Command, CommandFactory};
use serde_json::{json, Value};

/// Prints the tree of the whole command.
pub fn print() -> crate::error::CliResult {
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &tree(crate::Cli::command()))
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(stdout))
        .map_err(|err| crate::error::CliError::failed(format!("cannot write the reference: {err}")))
}

/// `cli` and its visible subcommands, recursively.
pub fn tree(mut cli: Command) -> Value {
    cli.build();
    command(&cli)
}

fn command(command: &Command) -> Value {
    let text = |styled: Option<&clap::builder::StyledStr>| styled.map(ToString::to_string);
    let usage = command.clone().render_usage().to_string();
    let usage = usage.trim().strip_prefix("Usage:").unwrap_or(&usage).trim().to_owned();
    let visible = |arg: &&Arg| !arg.is_hide_set() && !matches!(arg.get_action(), ArgAction::Help | ArgAction::Version);
    json!({
        "name": command.get_name(),
        "about": text(command.get_about()),
        "long_about": text(command.get_long_about()),
        "after_help": text(command.get_after_help()),
        "after_long_help": text(command.get_after_long_help()),
        "aliases": command.get_visible_aliases().collect::<Vec<_>>(),
        "usage": usage,
        "arguments": command.get_positionals().filter(visible).map(argument).collect::<Vec<_>>(),
        "options": command
            .get_arguments()
            .filter(|arg| !arg.is_positional())
            .filter(visible)
            .map(argument)
            .collect::<Vec<_>>(),
        "subcommands": command
            .get_subcommands()
            .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
            .map(self::command)
            .collect::<Vec<_>>(),
    })
}

fn argument(arg: &Arg) -> Value {
    let text = |styled: Option<&clap::builder::StyledStr>| styled.map(ToString::to_string);
    let action = match arg.get_action() {
        ArgAction::Set => "set",
        ArgAction::Append => "append",
        ArgAction::SetTrue => "set_true",
        ArgAction::SetFalse => "set_false",
        ArgAction::Count => "count",
        ArgAction::Help => "help",
        ArgAction::HelpShort => "help_short",
        ArgAction::HelpLong => "help_long",
        ArgAction::Version => "version",
        _ => "other",
    };
    json!({
        "id": arg.get_id().as_str(),
        "short": arg.get_short().map(String::from),
        "short_aliases": arg.get_visible_short_aliases().unwrap_or_default().into_iter().map(String::from).collect::<Vec<_>>(),
        "long": arg.get_long(),
        "aliases": arg.get_visible_aliases().unwrap_or_default(),
        "value_names": arg.get_value_names().unwrap_or_default().iter().map(|name| name.as_str()).collect::<Vec<_>>(),
        "help": text(arg.get_help()),
        "long_help": text(arg.get_long_help()),
        "action": action,
        "takes_value": arg.get_action().takes_values(),
        "multiple": arg.get_num_args().is_some_and(|range| range.max_values() > 1),
        "required": arg.is_required_set(),
        "global": arg.is_global_set(),
        "default_values": arg.get_default_values().iter().map(|value| value.to_string_lossy()).collect::<Vec<_>>(),
        "possible_values": arg
            .get_possible_values()
            .iter()
            .filter(|value| !value.is_hide_set())
            .map(|value| json!({"name": value.get_name(), "help": text(value.get_help())}))
            .collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(list: &'a Value, key: &str, value: &str) -> Option<&'a Value> {
        list.as_array()?.iter().find(|item| item[key] == value)
    }

    #[test]
    fn the_tree_has_clap_s_commands_and_options_and_no_hidden_ones() {
        let tree = tree(crate::Cli::command());
        assert_eq!(tree["name"], "amplifier");
        assert_eq!(tree["usage"], "amplifier [OPTIONS] [COMMAND]");
        let run = find(&tree["subcommands"], "name", "run").expect("run");
        assert!(run["about"].as_str().is_some_and(|about| about.starts_with("Run one prompt")), "{run:#}");
        let plan = find(&run["options"], "long", "plan").expect("--plan");
        assert_eq!((&plan["value_names"], &plan["takes_value"]), (&json!(["FILE"]), &json!(true)));
        let locked = find(&run["options"], "long", "locked").expect("--locked");
        assert_eq!((&locked["action"], &locked["takes_value"]), (&json!("set_true"), &json!(false)));
        assert!(find(&run["options"], "long", "help").is_none(), "clap's --help is listed");
        let prompt = find(&run["arguments"], "id", "prompt").expect("[PROMPT]");
        assert_eq!(prompt["required"], false);
        // Defaults and choices come from clap, not from a copy.
        let format = find(&run["options"], "long", "output-format").expect("--output-format");
        assert_eq!(format["default_values"], json!(["text"]));
        assert!(find(&format["possible_values"], "name", "jsonl").is_some(), "{format:#}");
        let session = find(&tree["subcommands"], "name", "session").expect("session");
        assert!(find(&session["subcommands"], "name", "list").is_some());

        let names: Vec<&str> =
            tree["subcommands"].as_array().unwrap().iter().filter_map(|sub| sub["name"].as_str()).collect();
        assert!(!names.contains(&"reference-json"), "the hidden command is listed: {names:?}");
        assert!(!names.contains(&"help"), "clap's help command is listed: {names:?}");
    }
}
