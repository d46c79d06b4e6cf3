//! `amplifier module new NAME --kind KIND [--path DIR]`: a module crate,
//! from the templates in `crates/cli/templates/`, that passes
//! `amplifier module validate` as created.

use std::path::{Path, PathBuf};

use clap::Args;

use super::KindArg;
use crate::error::{CliError, CliResult};

/// This checkout's SDK: modules depend on it by path (it is not published).
const SDK_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/sdk");
/// This checkout's lockfile: a new module starts from the dependency
/// versions the SDK is tested with (and builds without a registry update).
const LOCK_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock");

const CARGO_TOML: &str = include_str!("../../templates/Cargo.toml.tmpl");
const GITIGNORE: &str = include_str!("../../templates/gitignore.tmpl");
/// The style of the amplifier repository, which the templates follow.
const RUSTFMT: &str = include_str!("../../templates/rustfmt.toml.tmpl");

#[derive(Args)]
pub struct NewArgs {
    /// The module's name, also its crate name (lowercase letters, digits and `-`, e.g. `tool-weather`).
    name: String,
    /// What kind of module to create.
    #[arg(long, value_enum)]
    kind: KindArg,
    /// The directory to create (default: ./NAME).
    #[arg(long, value_name = "DIR")]
    path: Option<PathBuf>,
}

/// `amplifier.toml` and `src/lib.rs` for a kind.
fn template(kind: KindArg) -> Option<(&'static str, &'static str)> {
    Some(match kind {
        KindArg::Tool => {
            (include_str!("../../templates/tool/amplifier.toml.tmpl"), include_str!("../../templates/tool/lib.rs.tmpl"))
        }
        KindArg::Provider => (
            include_str!("../../templates/provider/amplifier.toml.tmpl"),
            include_str!("../../templates/provider/lib.rs.tmpl"),
        ),
        KindArg::Hook => {
            (include_str!("../../templates/hook/amplifier.toml.tmpl"), include_str!("../../templates/hook/lib.rs.tmpl"))
        }
        KindArg::Orchestrator => (
            include_str!("../../templates/orchestrator/amplifier.toml.tmpl"),
            include_str!("../../templates/orchestrator/lib.rs.tmpl"),
        ),
        KindArg::Context => (
            include_str!("../../templates/context/amplifier.toml.tmpl"),
            include_str!("../../templates/context/lib.rs.tmpl"),
        ),
        KindArg::Resolver => return None,
    })
}

fn valid_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && !name.ends_with('-')
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The SDK to depend on: `$AMPLIFIER_SDK_PATH`, else this checkout's.
fn sdk_dir() -> CliResult<PathBuf> {
    let (dir, from) = match std::env::var_os("AMPLIFIER_SDK_PATH") {
        Some(dir) => (PathBuf::from(dir), "AMPLIFIER_SDK_PATH"),
        None => (PathBuf::from(SDK_DIR), "the amplifier checkout this binary was built from"),
    };
    match dir.canonicalize() {
        Ok(dir) if dir.join("Cargo.toml").is_file() => Ok(dir),
        _ => Err(CliError::failed(format!("cannot find amplifier-sdk at {} (from {from})", dir.display()))
            .hint("set AMPLIFIER_SDK_PATH to the crates/sdk directory of an amplifier checkout")),
    }
}

/// A TOML basic string's contents.
fn toml_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

fn render(template: &str, name: &str, sdk: &Path) -> String {
    let tool_name = name.strip_prefix("tool-").unwrap_or(name).replace('-', "_");
    template
        .replace("{{name}}", name)
        .replace("{{tool_name}}", &tool_name)
        .replace("{{sdk_path}}", &toml_escape(&sdk.display().to_string()))
}

pub fn run(args: NewArgs) -> CliResult {
    if !valid_name(&args.name) {
        return Err(CliError::usage(format!("'{}' is not a valid module name", args.name))
            .hint("use lowercase letters, digits and `-`, starting with a letter (like tool-weather)"));
    }
    let Some((manifest, lib_rs)) = template(args.kind) else {
        return Err(CliError::usage("there is no template for resolver modules yet")
            .hint("see tests/fixtures/resolver-map in the amplifier repository"));
    };
    let dir = args.path.unwrap_or_else(|| PathBuf::from(&args.name));
    if dir.read_dir().is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(CliError::failed(format!("{} already exists and is not empty", dir.display()))
            .hint("pick another name, or give an empty directory with --path"));
    }
    let sdk = sdk_dir()?;
    let name = args.name.as_str();
    let files = [
        ("Cargo.toml", render(CARGO_TOML, name, &sdk)),
        ("amplifier.toml", render(manifest, name, &sdk)),
        ("src/lib.rs", render(lib_rs, name, &sdk)),
        (".gitignore", GITIGNORE.to_owned()),
        ("rustfmt.toml", RUSTFMT.to_owned()),
    ];
    files.iter().try_for_each(|(file, text)| {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap_or(&dir))
            .and_then(|_| std::fs::write(&path, text))
            .map_err(|err| CliError::failed(format!("cannot write {}: {err}", path.display())))
    })?;
    // Best effort: without it cargo resolves the newest compatible versions.
    let _ = std::fs::copy(LOCK_FILE, dir.join("Cargo.lock"));
    let kind = amplifier_kernel::plan::ModuleKind::from(args.kind);
    println!("Created {kind} module `{name}` in {}", dir.display());
    println!("  next: amplifier module validate {}", dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_crate_names() {
        assert!(valid_name("tool-weather2"));
        assert!(!valid_name("Tool"));
        assert!(!valid_name("-tool"));
        assert!(!valid_name("tool-"));
        assert!(!valid_name("tool_weather"));
    }

    #[test]
    fn templates_name_the_module_and_the_sdk() {
        let text = render(CARGO_TOML, "tool-weather", Path::new("/sdk"));
        assert!(text.contains("name = \"tool-weather\""));
        assert!(text.contains("path = \"/sdk\""));
        assert!(text.contains("[workspace]") && text.contains("crate-type = [\"cdylib\"]"));
        let (_, lib_rs) = template(KindArg::Tool).unwrap();
        assert!(render(lib_rs, "tool-weather", Path::new("/sdk")).contains("\"weather\""));
    }
}
