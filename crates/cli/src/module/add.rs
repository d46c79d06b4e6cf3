//! Modules by name, from the module indexes: `amplifier module search
//! WORDS`, `amplifier module install NAME[@VERSION]` and `amplifier module
//! add NAME[@VERSION]`, which installs and adds the module to a plan.

use std::path::{Path, PathBuf};

use amplifier_kernel::plan::ModuleKind;
use amplifier_loader::amplifier_home;
use amplifier_loader::git::GitCache;
use amplifier_loader::index::{Index, Offer};
use amplifier_loader::manifest::HOST_TARGET;
use clap::Args;

use super::installed::{install_source, Installation};
use crate::error::{CliError, CliResult};
use crate::http::Http;
use crate::settings::Settings;

#[derive(Args)]
pub struct SearchArgs {
    /// Words every listed module matches (its name, description, kinds or keywords).
    words: Vec<String>,
    /// Read this index (a directory, a `git+` URL or an `https://` URL) instead of the `module_indexes` setting; repeatable.
    #[arg(long = "index", value_name = "LOCATION")]
    indexes: Vec<String>,
}

#[derive(Args)]
pub struct AddArgs {
    /// `NAME[@VERSION]` from the module indexes, or anything `module install` takes.
    module: String,
    /// The plan to add it to (default: the plan `amplifier run` uses; the built-in one is copied to
    /// $AMPLIFIER_HOME/plan.yaml and made the `plan` setting first).
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    /// Read this index instead of the `module_indexes` setting; repeatable.
    #[arg(long = "index", value_name = "LOCATION")]
    indexes: Vec<String>,
}

/// Whether an argument is a module name (`tool-x`, `tool-x@0.2.0`) rather
/// than a path, a URL, a git source or a package.
pub fn is_name(argument: &str) -> bool {
    let name = argument.split('@').next().unwrap_or(argument);
    !Path::new(argument).exists()
        && !argument.contains(['/', '\\', ':'])
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && !super::package::is_package(argument)
}

/// The index locations: `--index` when given, else the `module_indexes` setting.
fn locations(given: &[String]) -> CliResult<Vec<String>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    let settings = Settings::load(Path::new("."));
    let locations: Vec<String> = match settings.get("module_indexes") {
        Some(serde_yaml::Value::Sequence(items)) => {
            items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()
        }
        Some(serde_yaml::Value::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    };
    if locations.is_empty() {
        return Err(CliError::failed("no module index is configured")
            .hint("pass --index DIR|git+URL|https://URL, or list them under `module_indexes` in settings.yaml (`amplifier config show`)"));
    }
    Ok(locations)
}

fn open(location: &str, git: &GitCache) -> CliResult<Index> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    Index::open(location, &cwd, git, &Http).map_err(CliError::failed)
}

pub fn search(args: SearchArgs) -> CliResult {
    let git = GitCache::new(&amplifier_home());
    let mut rows = Vec::new();
    for location in locations(&args.indexes)? {
        let index = open(&location, &git)?;
        for entry in index.search(&args.words) {
            let newest = entry.choose(None).ok();
            let prebuilt = newest.is_some_and(|v| v.artifacts.contains_key(HOST_TARGET));
            rows.push([
                entry.name.clone(),
                newest.map(|v| v.version.clone()).unwrap_or_else(|| "-".to_owned()),
                entry.kinds.join(","),
                if prebuilt { "yes" } else { "no" }.to_owned(),
                entry.description.clone(),
            ]);
        }
    }
    if rows.is_empty() {
        println!("No module matches {}.", args.words.join(" "));
        return Ok(());
    }
    super::installed::print_table(["NAME", "VERSION", "KIND", "PREBUILT", "DESCRIPTION"], &rows);
    Ok(())
}

/// Installs `NAME[@VERSION]` from the first index that has it: its package
/// for this machine, else its source, else a package for another target
/// (whose source is built), saying which.
pub fn install_named(argument: &str, indexes: &[String]) -> CliResult<Installation> {
    let (name, requested) = match argument.split_once('@') {
        Some((name, version)) => (name, Some(version)),
        None => (argument, None),
    };
    let home = amplifier_home();
    let git = GitCache::new(&home);
    let locations = locations(indexes)?;
    for location in &locations {
        let index = open(location, &git)?;
        let Some(entry) = index.find(name) else { continue };
        let version = entry.choose(requested).map_err(CliError::failed)?;
        let recorded = format!("{name} {} from the index {location}", version.version);
        let downloads = home.join("cache").join("downloads");
        let offer = version.offer().ok_or_else(|| {
            CliError::failed(format!(
                "{name} {} in the index {location} has neither a package nor a source",
                version.version
            ))
        })?;
        eprintln!("   Found {name} {} in the index {location}", version.version);
        return match offer {
            Offer::Prebuilt(artifact) => {
                let package = index.package(artifact, &downloads, &Http).map_err(CliError::failed)?;
                install_source(&package.display().to_string(), None, Some(recorded))
            }
            Offer::Source(source) => {
                eprintln!("   It has no package for this machine ({HOST_TARGET}): building it from {source}");
                install_source(source, index.dir(), Some(recorded))
            }
            Offer::OtherPackage { target, artifact } => {
                eprintln!("   It has a package for {target} only: building it from the source inside");
                let package = index.package(artifact, &downloads, &Http).map_err(CliError::failed)?;
                install_source(&package.display().to_string(), None, Some(recorded))
            }
        };
    }
    Err(CliError::failed(format!("no module named '{name}' in the module indexes ({})", locations.join(", ")))
        .hint("`amplifier module search WORDS` lists what they have"))
}

pub fn add(args: AddArgs) -> CliResult {
    let installed = match is_name(&args.module) {
        true => install_named(&args.module, &args.indexes)?,
        false => install_source(&args.module, None, None)?,
    };
    let plan = plan_to_edit(args.plan)?;
    let kind = installed.kinds.iter().find_map(|kind| section_of(kind)).ok_or_else(|| {
        CliError::failed(format!(
            "{} is a {} module: a plan has one; name it yourself in {} (`session: {{orchestrator|context: {{module: {}}}}}`)",
            installed.name,
            installed.kinds.join(", "),
            plan.display(),
            installed.name
        ))
    })?;
    let text = std::fs::read_to_string(&plan)
        .map_err(|err| CliError::failed(format!("cannot read {}: {err}", plan.display())))?;
    let parsed = amplifier_plan::parse_plan_str(&text, Some(&plan)).map_err(|err| CliError::failed(err.to_string()))?;
    let present = match kind {
        ModuleKind::Tool => &parsed.plan.tools,
        ModuleKind::Hook => &parsed.plan.hooks,
        _ => &parsed.plan.providers,
    };
    if present.iter().any(|spec| spec.module == installed.name) {
        println!("{} names {} already", plan.display(), installed.name);
        return Ok(());
    }
    let section = kind_section(kind);
    let edited = add_entry(&text, section, &installed.name).map_err(|why| {
        CliError::failed(format!("cannot add {} to {}: {why}", installed.name, plan.display()))
            .hint(format!("add `- module: {}` under `{section}:` yourself", installed.name))
    })?;
    // The edit must leave a plan that names the module.
    let reparsed =
        amplifier_plan::parse_plan_str(&edited, Some(&plan)).map_err(|err| CliError::failed(err.to_string()))?;
    let added = [&reparsed.plan.tools, &reparsed.plan.hooks, &reparsed.plan.providers]
        .iter()
        .any(|specs| specs.iter().any(|spec| spec.module == installed.name));
    if !added {
        return Err(CliError::failed(format!("cannot add {} to {}", installed.name, plan.display()))
            .hint(format!("add `- module: {}` under `{section}:` yourself", installed.name)));
    }
    std::fs::write(&plan, edited).map_err(|err| CliError::failed(format!("cannot write {}: {err}", plan.display())))?;
    println!("Added {} {} to {} (under `{section}:`)", installed.name, installed.version, plan.display());
    Ok(())
}

fn section_of(kind: &str) -> Option<ModuleKind> {
    match kind {
        "tool" => Some(ModuleKind::Tool),
        "hook" => Some(ModuleKind::Hook),
        "provider" => Some(ModuleKind::Provider),
        _ => None,
    }
}

fn kind_section(kind: ModuleKind) -> &'static str {
    match kind {
        ModuleKind::Tool => "tools",
        ModuleKind::Hook => "hooks",
        _ => "providers",
    }
}

/// `--plan`, else the `plan` setting, else a copy of the built-in default
/// plan at `$AMPLIFIER_HOME/plan.yaml`, made the `plan` setting (the
/// built-in one is rewritten by every new amplifier, so it is not edited).
fn plan_to_edit(explicit: Option<PathBuf>) -> CliResult<PathBuf> {
    if let Some(plan) = explicit {
        return Ok(plan);
    }
    if let Some(plan) = Settings::load(Path::new(".")).get("plan").and_then(|p| p.as_str()) {
        return Ok(PathBuf::from(plan));
    }
    let home = amplifier_home();
    let plan = home.join("plan.yaml");
    let write = |path: &Path, text: &str| {
        std::fs::create_dir_all(&home)
            .and_then(|()| std::fs::write(path, text))
            .map_err(|err| CliError::failed(format!("cannot write {}: {err}", path.display())))
    };
    if !plan.exists() {
        write(&plan, crate::default_plan::DEFAULT_PLAN)?;
    }
    let settings = home.join("settings.yaml");
    let mut text = std::fs::read_to_string(&settings).unwrap_or_default();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let quoted = serde_yaml::to_string(&plan.display().to_string()).unwrap_or_default();
    text.push_str(&format!("plan: {}", quoted.trim_end()));
    text.push('\n');
    write(&settings, &text)?;
    println!("The default plan is now {} (the `plan` setting, in {})", plan.display(), settings.display());
    Ok(plan)
}

/// `text` (a plan) with `- module: NAME` appended to the block list under
/// the top-level key `section` (added at the end when there is none), the
/// rest of the file kept as written.
fn add_entry(text: &str, section: &str, name: &str) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    let key = format!("{section}:");
    let Some(start) = lines.iter().position(|line| line.starts_with(&key)) else {
        let mut edited = text.trim_end().to_owned();
        edited.push_str(&format!("\n\n{section}:\n  - module: {name}\n"));
        return Ok(edited);
    };
    let rest = lines[start][key.len()..].split('#').next().unwrap_or_default().trim();
    if !rest.is_empty() {
        return Err(format!("`{section}:` is written on one line ({rest})"));
    }
    let in_block =
        |line: &&str| line.trim().is_empty() || line.starts_with(' ') || line.starts_with('-') || line.starts_with('#');
    let block: Vec<(usize, &str)> =
        lines.iter().enumerate().skip(start + 1).take_while(|(_, line)| in_block(line)).map(|(i, l)| (i, *l)).collect();
    let items: Vec<&(usize, &str)> =
        block.iter().filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#')).collect();
    let indent = items
        .iter()
        .find(|(_, line)| line.trim_start().starts_with('-'))
        .map(|(_, line)| &line[..line.len() - line.trim_start().len()])
        .unwrap_or("  ");
    let after = items.last().map_or(start, |(i, _)| *i);
    let mut edited: Vec<String> = lines.iter().map(|line| (*line).to_owned()).collect();
    edited.insert(after + 1, format!("{indent}- module: {name}"));
    Ok(edited.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_joins_its_block_and_keeps_the_rest_as_written() {
        let plan = "session:\n  orchestrator: {module: loop-basic}\n\ntools:\n  - module: tool-echo   # echoes\n    config: {}\n  # a comment\n\nhooks:\n  - module: hooks-logging\n";
        assert_eq!(
            add_entry(plan, "tools", "tool-x").unwrap(),
            "session:\n  orchestrator: {module: loop-basic}\n\ntools:\n  - module: tool-echo   # echoes\n    config: {}\n  - module: tool-x\n  # a comment\n\nhooks:\n  - module: hooks-logging\n"
        );
        assert_eq!(
            add_entry("tools:\n- module: a\nhooks: []\n", "tools", "b").unwrap(),
            "tools:\n- module: a\n- module: b\nhooks: []\n"
        );
        assert_eq!(add_entry("session: {}\n", "hooks", "h").unwrap(), "session: {}\n\nhooks:\n  - module: h\n");
        assert_eq!(add_entry("tools:\nhooks: []\n", "tools", "t").unwrap(), "tools:\n  - module: t\nhooks: []\n");
        assert!(add_entry("hooks: []\n", "hooks", "h").unwrap_err().contains("written on one line"));
    }

    #[test]
    fn names_are_not_paths_urls_or_packages() {
        assert!(is_name("tool-weather") && is_name("tool-weather@0.2.0"));
        for not_a_name in ["./tool-weather", "git+https://x/y", "https://x/p.tar.gz", "p.tar.gz", "/abs", "@x"] {
            assert!(!is_name(not_a_name), "{not_a_name}");
        }
    }
}
