//! `amplifier module new NAME --kind KIND [--path DIR]`: a module crate,
//! from the templates in `crates/cli/templates/`, that passes
//! `amplifier module validate` as created.

use std::path::PathBuf;

use clap::Args;

use amplifier_loader::sdk_source::{self, SDK_VERSION};

use super::KindArg;
use crate::error::{CliError, CliResult};

/// The lockfile the SDK is tested with: a new module starts from the same
/// dependency versions (and builds without a registry update).
const LOCK_FILE: &str = include_str!("../../../../Cargo.lock");

const CARGO_TOML: &str = include_str!("../../templates/Cargo.toml.tmpl");
const CARGO_CONFIG: &str = include_str!("../../templates/cargo-config.toml.tmpl");
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

/// The requirement a module puts on the SDK: its major version, or
/// `0.minor` while the major is 0 (cargo's compatibility rule).
fn sdk_requirement(version: &str) -> String {
    let mut parts = version.split('.');
    match (parts.next(), parts.next()) {
        (Some("0"), Some(minor)) => format!("0.{minor}"),
        (Some(major), _) => major.to_owned(),
        _ => version.to_owned(),
    }
}

/// Where the crate keeps its copy of the SDK, relative to its root.
fn sdk_copy() -> String {
    format!(".amplifier/sdk-{SDK_VERSION}")
}

fn render(template: &str, name: &str) -> String {
    let tool_name = name.strip_prefix("tool-").unwrap_or(name).replace('-', "_");
    template
        .replace("{{name}}", name)
        .replace("{{tool_name}}", &tool_name)
        .replace("{{sdk_requirement}}", &sdk_requirement(SDK_VERSION))
        .replace("{{sdk_copy}}", &sdk_copy())
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
    let name = args.name.as_str();
    let files = [
        ("Cargo.toml", render(CARGO_TOML, name)),
        ("Cargo.lock", LOCK_FILE.to_owned()),
        (".cargo/config.toml", render(CARGO_CONFIG, name)),
        ("amplifier.toml", render(manifest, name)),
        ("src/lib.rs", render(lib_rs, name)),
        (".gitignore", GITIGNORE.to_owned()),
        ("rustfmt.toml", RUSTFMT.to_owned()),
    ];
    files.iter().try_for_each(|(file, text)| {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap_or(&dir))
            .and_then(|_| std::fs::write(&path, text))
            .map_err(|err| CliError::failed(format!("cannot write {}: {err}", path.display())))
    })?;
    let copy = dir.join(sdk_copy());
    sdk_source::write_to(&copy).map_err(|err| CliError::failed(err.to_string()))?;
    let kind = amplifier_kernel::plan::ModuleKind::from(args.kind);
    println!("Created {kind} module `{name}` in {}", dir.display());
    println!("  next: cd {} && cargo test && amplifier module validate .", dir.display());
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
    fn templates_name_the_module_and_the_sdk_by_version() {
        let text = render(CARGO_TOML, "tool-weather");
        assert!(text.contains("name = \"tool-weather\""));
        assert!(text.contains(&format!("amplifier-sdk = \"{}\"", sdk_requirement(SDK_VERSION))), "{text}");
        assert!(text.contains("[workspace]") && text.contains("crate-type = [\"cdylib\"]"));
        assert!(!text.contains("path ="), "{text}");
        let config = render(CARGO_CONFIG, "tool-weather");
        assert!(config.contains(&format!("amplifier-sdk = {{ path = \".amplifier/sdk-{SDK_VERSION}/sdk\" }}")));
        let (_, lib_rs) = template(KindArg::Tool).unwrap();
        assert!(render(lib_rs, "tool-weather").contains("\"weather\""));
    }

    #[test]
    fn the_requirement_follows_cargos_compatibility_rule() {
        assert_eq!(sdk_requirement("0.1.0"), "0.1");
        assert_eq!(sdk_requirement("0.12.3"), "0.12");
        assert_eq!(sdk_requirement("2.4.1"), "2");
    }
}
