//! `amplifier tool list | info NAME | invoke NAME key=value…`: the tools a
//! plan (or bundle) mounts, without a model. The session is mounted as
//! `run` mounts it; an invoked tool runs as the kernel runs a model's call
//! (its input checked against its schema, its timeout) but, as upstream's
//! `tool invoke`, without the loop's `tool:pre`/`tool:post` hooks. Nothing
//! is recorded.

use std::path::PathBuf;
use std::sync::Arc;

use amplifier_host::HostedSession;
use amplifier_kernel::coordinator::MountedTool;
use amplifier_kernel::models::JsonMap;
use clap::{Args, Subcommand, ValueEnum};
use serde_json::{json, Value};

use crate::error::{CliError, CliResult};
use crate::hosting::{self, Flags};

#[derive(Args)]
pub struct ToolArgs {
    #[command(subcommand)]
    command: ToolCommand,
}

#[derive(Subcommand)]
enum ToolCommand {
    /// The tools the plan mounts, with their modules and descriptions.
    List {
        #[command(flatten)]
        source: Source,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// One tool: its module, description and input schema.
    Info {
        name: String,
        #[command(flatten)]
        source: Source,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Call a tool with `key=value` arguments: a value is read as JSON when
    /// it parses (`n=5`, `flag=true`, `items='["a"]'`), else as a string.
    /// Exits 1 when the tool answers `success: false`.
    Invoke {
        name: String,
        #[arg(value_name = "KEY=VALUE")]
        arguments: Vec<String>,
        #[command(flatten)]
        source: Source,
        #[arg(short, long, value_enum, default_value_t = Format::Text)]
        output: Format,
    },
}

/// Which session's tools: `--plan`, `--bundle`, else the `plan` setting
/// or the default plan, as `run` chooses.
#[derive(Args)]
struct Source {
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    #[arg(short = 'B', long, value_name = "PATH", conflicts_with = "plan")]
    bundle: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn run(args: ToolArgs) -> CliResult {
    match args.command {
        ToolCommand::List { source, format } => with_session(source, async |hosted| {
            let mut tools = tools(hosted);
            tools.sort_by(|a, b| a.0.cmp(&b.0));
            let listed: Vec<Value> = tools.iter().map(|(name, tool)| summary(name, tool)).collect();
            if format == Format::Json {
                println!("{:#}", Value::Array(listed));
            } else if tools.is_empty() {
                println!("no tools are mounted");
            } else {
                let width = tools.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
                for (name, tool) in &tools {
                    let description = tool.tool.spec().description.as_deref().unwrap_or("");
                    let first = description.lines().next().unwrap_or("");
                    println!("{name:width$}  {:<18}  {first}", tool.module);
                }
            }
            Ok(())
        }),
        ToolCommand::Info { name, source, format } => with_session(source, async |hosted| {
            let tool = find(hosted, &name)?;
            let spec = tool.tool.spec();
            if format == Format::Json {
                let mut info = summary(&name, &tool);
                info["parameters"] = spec.parameters.clone();
                println!("{info:#}");
            } else {
                println!("{name}  (module {})", tool.module);
                if let Some(description) = &spec.description {
                    println!("\n{description}");
                }
                println!("\ninput schema:\n{:#}", spec.parameters);
                println!("\nUsage: amplifier tool invoke {name} key=value ...");
            }
            Ok(())
        }),
        ToolCommand::Invoke { name, arguments, source, output } => {
            let input = parse_arguments(&arguments)?;
            with_session(source, async |hosted| {
                find(hosted, &name)?;
                let result = hosted.coordinator().execute_tool(&name, Value::Object(input), None).await;
                if output == Format::Json {
                    let status = if result.success { "success" } else { "error" };
                    println!("{:#}", json!({"status": status, "tool": name, "result": result}));
                } else if result.success {
                    println!("{}", result.serialized_output());
                } else {
                    eprintln!("error: {}", result.serialized_output());
                }
                if result.success {
                    Ok(())
                } else {
                    Err(CliError::shown())
                }
            })
        }
    }
}

/// Mounts the session, runs `body`, and cleans up whatever it returned.
fn with_session(source: Source, body: impl AsyncFnOnce(&HostedSession) -> CliResult) -> CliResult {
    let plan_path = crate::default_plan::choose(source.plan.or(source.bundle))?;
    let runtime = hosting::runtime()?;
    let host = hosting::open(&plan_path, hosting::options(Flags::default(), false)?)?;
    let approval = Arc::new(crate::approval::TerminalApproval::new(std::path::Path::new(".")));
    let mut hosted = host.session().approval(approval).open()?;
    runtime.block_on(async move {
        let result = match hosted.start().await {
            Ok(report) => {
                hosting::print_partial_load(&report);
                body(&hosted).await
            }
            Err(err) => Err(CliError::from(err)),
        };
        hosted.finish(result.is_ok()).await;
        result
    })
}

fn tools(hosted: &HostedSession) -> Vec<(String, MountedTool)> {
    let coordinator = hosted.coordinator();
    coordinator.tool_names().into_iter().filter_map(|name| coordinator.tool(&name).map(|tool| (name, tool))).collect()
}

fn find(hosted: &HostedSession, name: &str) -> CliResult<MountedTool> {
    hosted.coordinator().tool(name).ok_or_else(|| {
        let mut names = hosted.coordinator().tool_names();
        names.sort();
        CliError::usage(format!("no tool named '{name}' is mounted"))
            .hint(format!("the plan's tools: {}", if names.is_empty() { "none".into() } else { names.join(", ") }))
    })
}

fn summary(name: &str, tool: &MountedTool) -> Value {
    json!({"name": name, "module": tool.module, "description": tool.tool.spec().description})
}

/// `key=value` pairs as upstream's `tool invoke` reads them: the value as
/// JSON when it parses, else the text; a repeated key's last value wins.
fn parse_arguments(arguments: &[String]) -> CliResult<JsonMap> {
    let mut input = JsonMap::new();
    for argument in arguments {
        let Some((key, value)) = argument.split_once('=').filter(|(key, _)| !key.is_empty()) else {
            return Err(CliError::usage(format!("invalid argument '{argument}'"))
                .hint("arguments are key=value (a value is read as JSON when it parses, else as text)"));
        };
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
        input.insert(key.to_owned(), value);
    }
    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_json_when_they_parse_else_text() {
        let args: Vec<String> =
            ["n=5", "flag=true", "items=[\"a\"]", "path=src/main.rs", "empty=", "n=6"].map(String::from).to_vec();
        let input = parse_arguments(&args).unwrap();
        assert_eq!(
            Value::Object(input),
            json!({"n": 6, "flag": true, "items": ["a"], "path": "src/main.rs", "empty": ""})
        );
        assert!(parse_arguments(&["novalue".into()]).is_err());
        assert!(parse_arguments(&["=x".into()]).is_err());
    }
}
