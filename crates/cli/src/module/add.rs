//! Modules by name, from the module indexes: `amplifier module search
//! WORDS`, `amplifier module install NAME[@VERSION]` and `amplifier module
//! add NAME[@VERSION]`, which installs and adds the module to a plan.

use std::path::{Path, PathBuf};

use amplifier_kernel::plan::ModuleKind;
use amplifier_loader::git::GitCache;
use amplifier_loader::index::{Index, Offer};
use amplifier_loader::manifest::HOST_TARGET;
use amplifier_loader::{amplifier_home, builtin};
use clap::Args;
use yaml_rust2::Yaml;

use super::installed::{install_source, Installation, Source};
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
    let settings = Settings::current()?;
    let locations: Vec<String> = match settings.get("module_indexes") {
        Some(Yaml::Array(items)) => items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect(),
        Some(Yaml::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    };
    if locations.is_empty() {
        return Err(CliError::failed("no module index is configured")
            .hint("pass --index DIR|git+URL|https://URL, or list them under `module_indexes` in settings.yaml (`amplifier config show`)"));
    }
    Ok(locations)
}

/// Every configured index that can be read; one that cannot, and the
/// entries an index leaves out, are warnings.
fn open_all(given: &[String], git: &GitCache, http: &Http) -> CliResult<Vec<Index>> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut indexes = Vec::new();
    for location in locations(given)? {
        match Index::open(&location, &cwd, git, http) {
            Ok(index) => {
                for warning in &index.warnings {
                    eprintln!("warning: {warning}");
                }
                indexes.push(index);
            }
            Err(err) => eprintln!("warning: {err}"),
        }
    }
    Ok(indexes)
}

pub fn search(args: SearchArgs) -> CliResult {
    let git = GitCache::new(&amplifier_home());
    let http = Http::new().map_err(CliError::failed)?;
    let mut rows = Vec::new();
    for index in open_all(&args.indexes, &git, &http)? {
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
    if locations(indexes).is_err() {
        return Err(CliError::failed(format!(
            "'{argument}' is not a file or directory here, and no module index is configured to look it up in"
        ))
        .hint("give a path, a package or a git source, or an index: --index LOCATION, or `module_indexes` in settings.yaml"));
    }
    let home = amplifier_home();
    let git = GitCache::new(&home);
    let http = Http::new().map_err(CliError::failed)?;
    let indexes = open_all(indexes, &git, &http)?;
    let Some((index, entry)) = indexes.iter().find_map(|index| Some((index, index.find(name)?))) else {
        let read: Vec<&str> = indexes.iter().map(|index| index.location.as_str()).collect();
        return Err(CliError::failed(format!(
            "no module named '{name}' in the module indexes ({})",
            if read.is_empty() { "none could be read".to_owned() } else { read.join(", ") }
        ))
        .hint("`amplifier module search WORDS` lists what they have"));
    };
    let location = &index.location;
    let version = entry.choose(requested).map_err(CliError::failed)?;
    let recorded = Some(format!("{name} {} from the index {location}", version.version));
    let offer = version.offer().ok_or_else(|| {
        CliError::failed(format!(
            "{name} {} in the index {location} has neither a package nor a source",
            version.version
        ))
    })?;
    eprintln!("   Found {name} {} in the index {location}", version.version);
    let artifact = match offer {
        Offer::Prebuilt(artifact) => artifact,
        Offer::OtherPackage { target, artifact } => {
            eprintln!("   It has a package for {target} only: building it from the source inside");
            artifact
        }
        Offer::Source(source) => {
            let source = index.source(source).map_err(CliError::failed)?;
            eprintln!("   It has no package for this machine ({HOST_TARGET}): building it from {source}");
            return install_source(Source::from_argument(&source), recorded);
        }
    };
    let package = index.package(artifact, &home.join("cache").join("downloads"), &http).map_err(CliError::failed)?;
    let installed = install_source(Source::Package(&package.path().display().to_string()), recorded);
    package.discard();
    installed
}

pub fn add(args: AddArgs) -> CliResult {
    let installed = match builtin::find(&args.module) {
        // Nothing to install: plans name it as it is.
        Some(module) if !Path::new(&args.module).exists() => Installation {
            name: module.name.to_owned(),
            version: module.version(),
            kinds: module.manifest().map(|m| m.module.kinds).unwrap_or_default(),
        },
        _ if is_name(&args.module) => install_named(&args.module, &args.indexes)?,
        _ => install_source(Source::from_argument(&args.module), None)?,
    };
    let (plan, new_default) = plan_to_edit(args.plan)?;
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
    if new_default {
        make_default(&plan)?;
    }
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
/// plan at `$AMPLIFIER_HOME/plan.yaml` (the built-in one is rewritten by
/// every new amplifier, so it is not edited), which is then to become the
/// `plan` setting (`true`).
fn plan_to_edit(explicit: Option<PathBuf>) -> CliResult<(PathBuf, bool)> {
    if let Some(plan) = explicit {
        return Ok((plan, false));
    }
    if let Some(plan) = Settings::current()?.get("plan").and_then(|p| p.as_str()) {
        return Ok((PathBuf::from(plan), false));
    }
    let home = amplifier_home();
    let plan = home.join("plan.yaml");
    if !plan.exists() {
        std::fs::create_dir_all(&home)
            .and_then(|()| std::fs::write(&plan, crate::default_plan::DEFAULT_PLAN))
            .map_err(|err| CliError::failed(format!("cannot write {}: {err}", plan.display())))?;
    }
    Ok((plan, true))
}

/// Makes `plan` the `plan` setting in `$AMPLIFIER_HOME/settings.yaml`,
/// replacing a `plan:` line there (`plan: ~`) or adding one.
fn make_default(plan: &Path) -> CliResult {
    let settings = amplifier_home().join("settings.yaml");
    let text = std::fs::read_to_string(&settings).unwrap_or_default();
    let quoted = crate::settings::yaml_text(&Yaml::String(plan.display().to_string()));
    let line = format!("plan: {}", quoted.trim_end());
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    match lines.iter_mut().find(|l| l.starts_with("plan:")) {
        Some(existing) => *existing = line,
        None => lines.push(line),
    }
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    std::fs::write(&settings, lines.join(newline) + newline)
        .map_err(|err| CliError::failed(format!("cannot write {}: {err}", settings.display())))?;
    println!("The default plan is now {} (the `plan` setting, in {})", plan.display(), settings.display());
    Ok(())
}

/// `text` (a plan) with `- module: NAME` appended to the block list under
/// the top-level key `section` (added at the end when there is none), the
/// rest of the file kept as written.
fn add_entry(text: &str, section: &str, name: &str) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    let key = format!("{section}:");
    let Some(start) = lines.iter().position(|line| line.starts_with(&key)) else {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let mut edited = text.trim_end().to_owned();
        edited.push_str(&format!("{newline}{newline}{section}:{newline}  - module: {name}{newline}"));
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
    // `lines` dropped the `\r` of a CRLF file: put it back.
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    Ok(edited.join(newline) + newline)
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
        assert_eq!(
            add_entry("tools:\r\n  - module: a\r\n", "tools", "b").unwrap(),
            "tools:\r\n  - module: a\r\n  - module: b\r\n"
        );
    }

    #[test]
    fn names_are_not_paths_urls_or_packages() {
        assert!(is_name("tool-weather") && is_name("tool-weather@0.2.0"));
        for not_a_name in ["./tool-weather", "git+https://x/y", "https://x/p.tar.gz", "p.tar.gz", "/abs", "@x"] {
            assert!(!is_name(not_a_name), "{not_a_name}");
        }
    }
}
