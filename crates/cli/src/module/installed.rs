//! Installed modules: `<dir>/<name>/<version>/` holding the built library,
//! its `amplifier.toml` and `install.json` (where it came from). `install`
//! writes into `$AMPLIFIER_HOME/modules`; `list` and `show` also read the
//! directories of `AMPLIFIER_MODULES`, as the loader's `installed` resolver does.

use std::path::{Path, PathBuf};

use amplifier_kernel::plan::{ModuleKind, ModuleSpec};
use amplifier_kernel::traits::ResolvedSource;
use amplifier_loader::index::safe_file_name;
use amplifier_loader::manifest::{version_order, Manifest, HOST_TARGET, MANIFEST_FILE};
use amplifier_loader::resolver::Installed;
use amplifier_loader::{amplifier_home, builtin, DylibLoader, ModuleCode};
use clap::Args;
use serde::{Deserialize, Serialize};

use super::package;
use crate::error::{CliError, CliResult};

const INSTALL_RECORD: &str = "install.json";

#[derive(Args)]
pub struct InstallArgs {
    /// A plugin crate directory, a built library, a package (`.tar.gz`, from
    /// `amplifier module package`) or its `https://` URL, a git source
    /// (`git+https://…`), or `NAME[@VERSION]` from the module indexes.
    source: String,
    /// Read this index (a directory, a `git+` URL or an `https://` URL) instead of the `module_indexes` setting; repeatable.
    #[arg(long = "index", value_name = "LOCATION")]
    indexes: Vec<String>,
}

/// What `install` installed.
pub struct Installation {
    pub name: String,
    pub version: String,
    pub kinds: Vec<String>,
}

#[derive(Args)]
pub struct ListArgs {
    /// Also list this mount plan's modules and where each resolves.
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
}

#[derive(Args)]
pub struct ShowArgs {
    /// The module's name.
    name: String,
}

#[derive(Args)]
pub struct RemoveArgs {
    /// The module's name.
    name: String,
    /// Remove only this version.
    #[arg(long)]
    version: Option<String>,
}

/// `install.json`: where an installed module came from.
#[derive(Debug, Serialize, Deserialize)]
struct InstallRecord {
    source: String,
    library: String,
    /// The target of the package's prebuilt library, when that was
    /// installed; absent when the library was built here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    artifact: Option<String>,
}

/// One installed version of a module.
struct InstalledModule {
    name: String,
    dir: PathBuf,
    manifest: Option<Manifest>,
    record: Option<InstallRecord>,
}

impl InstalledModule {
    fn version(&self) -> String {
        match &self.manifest {
            Some(manifest) => manifest.module.version.clone(),
            None => self.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        }
    }

    fn row(&self) -> [String; 5] {
        let manifest = self.manifest.as_ref();
        [
            self.name.clone(),
            manifest.map(|m| m.module.kinds.join(",")).unwrap_or_else(|| "?".into()),
            self.version(),
            manifest.map(|m| m.module.abi.to_string()).unwrap_or_else(|| "?".into()),
            self.record.as_ref().map(|r| r.source.clone()).unwrap_or_else(|| "-".into()),
        ]
    }
}

/// A module id for resolving `source`: its last path component (of the
/// `#subdirectory=` of a git source, when it has one), without `@ref`.
fn id_from_source(source: &str) -> String {
    let path = match source.split_once("#subdirectory=") {
        Some((_, subdirectory)) => subdirectory,
        None => source.split(['#', '?']).next().unwrap_or(source),
    };
    let trimmed = path.trim_end_matches(['/', '\\']);
    let last = trimmed.rsplit(['/', '\\', ':']).next().unwrap_or(trimmed);
    let last = if source.starts_with("git+") { last.split('@').next().unwrap_or(last) } else { last };
    let last = last.strip_suffix(".git").unwrap_or(last);
    let last = last
        .strip_prefix(std::env::consts::DLL_PREFIX)
        .and_then(|l| l.strip_suffix(std::env::consts::DLL_SUFFIX))
        .map(|l| l.replace('_', "-"))
        .unwrap_or_else(|| last.to_owned());
    if last.is_empty() {
        "module".to_owned()
    } else {
        last
    }
}

fn is_library(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(std::env::consts::DLL_PREFIX) && n.ends_with(std::env::consts::DLL_SUFFIX))
}

fn read_installed(name: &str, dir: &Path) -> InstalledModule {
    let record = std::fs::read(dir.join(INSTALL_RECORD)).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok());
    InstalledModule {
        name: name.to_owned(),
        dir: dir.to_owned(),
        manifest: Manifest::read_dir(dir).ok().flatten(),
        record,
    }
}

/// Every installed version under the module directories, by name then version.
fn scan(dirs: &[PathBuf]) -> Vec<InstalledModule> {
    let mut found = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut modules: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        modules.sort();
        for module_dir in modules {
            let name = module_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name.starts_with('.') {
                continue;
            }
            let mut versions: Vec<PathBuf> = std::fs::read_dir(&module_dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.is_dir()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
                })
                .collect();
            if versions.is_empty() {
                // A module installed by hand as `<dir>/<name>/` with its library inside.
                if std::fs::read_dir(&module_dir).into_iter().flatten().flatten().any(|e| is_library(&e.path())) {
                    found.push(read_installed(&name, &module_dir));
                }
                continue;
            }
            let version = |p: &PathBuf| p.file_name().unwrap_or_default().to_string_lossy().into_owned();
            versions.sort_by(|a, b| version_order(&version(a), &version(b)));
            found.extend(versions.iter().map(|version| read_installed(&name, version)));
        }
    }
    found
}

const COLUMNS: [&str; 5] = ["NAME", "KIND", "VERSION", "ABI", "SOURCE"];

/// Rows under `header`, each column as wide as its widest cell, indented.
pub(super) fn print_table(header: [&str; 5], rows: &[[String; 5]]) {
    let header = header.map(str::to_owned);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(rows) {
        let cells: Vec<String> = row.iter().zip(widths).map(|(cell, width)| format!("{cell:<width$}")).collect();
        println!("  {}", cells.join("  ").trim_end());
    }
}

fn built_in(name: &str) -> CliError {
    CliError::usage(format!("'{name}' is built into amplifier: a plan names it without a `source`, nothing to install"))
        .hint("to install another build of it, give its crate directory or library")
}

pub fn install(args: InstallArgs) -> CliResult {
    // A name, not a path: someone who read `amplifier module list`, or an index.
    if !Path::new(&args.source).exists() && builtin::find(&args.source).is_some() {
        return Err(built_in(&args.source));
    }
    match super::add::is_name(&args.source) {
        true => super::add::install_named(&args.source, &args.indexes).map(drop),
        false => install_source(Source::from_argument(&args.source), None).map(drop),
    }
}

/// What `install` installs from.
pub enum Source<'a> {
    /// Anything a plan's `source` takes (relative to the current directory).
    Plan(&'a str),
    /// A package: a file, or an `http(s)://` URL.
    Package(&'a str),
}

impl<'a> Source<'a> {
    /// A command-line argument: a package when it looks like one.
    pub fn from_argument(argument: &'a str) -> Self {
        match package::is_package(argument) {
            true => Source::Package(argument),
            false => Source::Plan(argument),
        }
    }

    fn text(&self) -> &'a str {
        match self {
            Source::Plan(text) | Source::Package(text) => text,
        }
    }
}

/// Installs from `what`; install.json records `recorded`, else the source.
pub fn install_source(what: Source<'_>, recorded: Option<String>) -> CliResult<Installation> {
    let runtime = crate::hosting::runtime()?;
    let home = amplifier_home();
    let loader = DylibLoader::new(std::env::current_dir().ok(), &home);
    let source = what.text();
    let spec = match what {
        Source::Package(package) => {
            let module = package::unpacked(package, &home)?;
            let manifest = Manifest::read_dir(&module).map_err(CliError::failed)?.expect("an unpacked package's");
            ModuleSpec {
                source: Some(module.display().to_string()),
                field_path: "source".to_owned(),
                ..ModuleSpec::new(manifest.module.name)
            }
        }
        Source::Plan(source) => ModuleSpec {
            source: Some(source.to_owned()),
            field_path: "source".to_owned(),
            ..ModuleSpec::new(id_from_source(source))
        },
    };
    // `prebuilt`: the package's library, its checksum checked before it was opened.
    let (library, prebuilt, manifest) = match runtime.block_on(loader.prepare(&spec, None)) {
        Ok((ModuleCode::Library { library, prebuilt, .. }, manifest)) => (library, prebuilt, manifest),
        Ok((ModuleCode::Builtin(module), _)) => return Err(built_in(module.name)),
        Err(err) => {
            let message = err.message.strip_prefix("source: ").unwrap_or(&err.message);
            return Err(CliError::failed(message));
        }
    };
    let manifest = manifest.ok_or_else(|| {
        CliError::failed(format!(
            "{source} has no {MANIFEST_FILE}: a module needs one (name, version, kinds) to be installed"
        ))
        .hint(format!("`amplifier module new` writes a crate with its {MANIFEST_FILE}"))
    })?;
    let (name, version) = (manifest.module.name.as_str(), manifest.module.version.as_str());
    if !safe_file_name(name) || !safe_file_name(version) {
        return Err(CliError::failed(format!(
            "{}: module name '{name}' or version '{version}' cannot name a directory",
            manifest.path.display()
        )));
    }
    // Refuse what this amplifier could not load (another ABI, not a plugin).
    amplifier_loader::library::open(&library, name).map_err(CliError::failed)?;
    let local = Path::new(source);
    let recorded = recorded.unwrap_or_else(|| match local.exists() {
        true => local.canonicalize().map(|p| p.display().to_string()).unwrap_or_else(|_| source.to_owned()),
        false => source.to_owned(),
    });
    let module_dir = home.join("modules").join(name);
    let target = module_dir.join(version);
    place(&module_dir, &target, &library, &manifest, recorded, prebuilt.as_deref())?;
    println!("Installed {name} {version} ({}) in {}", manifest.module.kinds.join(", "), target.display());
    match prebuilt {
        Some(_) => println!("  its library: the package's, prebuilt for {HOST_TARGET}"),
        None => println!("  its library: built here"),
    }
    Ok(Installation { name: name.to_owned(), version: version.to_owned(), kinds: manifest.module.kinds.clone() })
}

/// Writes the module into a staging directory, then renames it into place,
/// so a reader never sees half an installation. `prebuilt` is the sha256 of
/// a package's prebuilt library, which the installed manifest keeps so that
/// every load checks it.
fn place(
    module_dir: &Path,
    target: &Path,
    library: &Path,
    manifest: &Manifest,
    source: String,
    prebuilt: Option<&str>,
) -> CliResult {
    let version = target.file_name().unwrap_or_default().to_string_lossy();
    let staging = module_dir.join(format!(".{version}.partial-{}", std::process::id()));
    let library_name = library.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let installed_manifest =
        amplifier_loader::package::installed_manifest(manifest, &library_name, prebuilt).map_err(CliError::failed)?;
    let artifact = prebuilt.map(|_| HOST_TARGET.to_owned());
    let record = InstallRecord { source, library: library_name.clone(), artifact };
    let result = (|| -> std::io::Result<()> {
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir_all(&staging)?;
        std::fs::copy(library, staging.join(&library_name))?;
        std::fs::write(staging.join(MANIFEST_FILE), &installed_manifest)?;
        std::fs::write(staging.join(INSTALL_RECORD), serde_json::to_vec_pretty(&record).unwrap_or_default())?;
        if target.exists() {
            std::fs::remove_dir_all(target)?;
        }
        std::fs::rename(&staging, target)
    })();
    result.map_err(|err| {
        let _ = std::fs::remove_dir_all(&staging);
        CliError::failed(format!("cannot install into {}: {err}", target.display()))
    })
}

pub fn list(args: ListArgs) -> CliResult {
    let home = amplifier_home();
    let dirs = Installed::new(&home).dirs().to_vec();
    let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    println!("Installed modules ({}):", shown.join(", "));
    let installed = scan(&dirs);
    if installed.is_empty() {
        println!("  (none)");
    } else {
        print_table(COLUMNS, &installed.iter().map(InstalledModule::row).collect::<Vec<_>>());
    }
    println!(
        "Built-in modules (amplifier {}; an installed module or a `source` of the same name wins):",
        env!("CARGO_PKG_VERSION")
    );
    let builtins: Vec<[String; 5]> = builtin::all()
        .iter()
        .map(|module| {
            let manifest = module.manifest().ok();
            [
                module.name.to_owned(),
                manifest.as_ref().map(|m| m.module.kinds.join(",")).unwrap_or_else(|| "?".into()),
                module.version(),
                manifest.as_ref().map(|m| m.module.abi.to_string()).unwrap_or_else(|| "?".into()),
                "built-in".to_owned(),
            ]
        })
        .collect();
    if builtins.is_empty() {
        println!("  (none)");
    } else {
        print_table(COLUMNS, &builtins);
    }
    let Some(plan_path) = args.plan else { return Ok(()) };
    let parsed = amplifier_host::parse_plan(&plan_path, false)?;
    let runtime = crate::hosting::runtime()?;
    let base_dir = plan_path.canonicalize().ok().and_then(|p| p.parent().map(PathBuf::from));
    let loader = DylibLoader::new(base_dir, &home);
    let plan = &parsed.plan;
    let entries: Vec<(ModuleKind, &ModuleSpec)> = [
        Some((ModuleKind::Orchestrator, &plan.session.orchestrator)),
        Some((ModuleKind::Context, &plan.session.context)),
        plan.session.resolver.as_ref().map(|spec| (ModuleKind::Resolver, spec)),
    ]
    .into_iter()
    .flatten()
    .chain(plan.providers.iter().map(|spec| (ModuleKind::Provider, spec)))
    .chain(plan.tools.iter().map(|spec| (ModuleKind::Tool, spec)))
    .chain(plan.hooks.iter().map(|spec| (ModuleKind::Hook, spec)))
    .collect();
    let mut rows = Vec::new();
    for (kind, spec) in entries {
        let row = match runtime.block_on(loader.resolve(spec, None)) {
            Ok(found) => {
                let manifest = match &found.source {
                    // `resolve` classifies a resolver's `path` answer.
                    ResolvedSource::Crate { path } | ResolvedSource::Path { path } => {
                        Manifest::read_dir(path).ok().flatten()
                    }
                    ResolvedSource::Library { path } => {
                        Manifest::read_dir(path.parent().unwrap_or(Path::new("."))).ok().flatten()
                    }
                    ResolvedSource::Builtin { name } => builtin::find(name).and_then(|m| m.manifest().ok()),
                };
                [
                    spec.mount_name().to_owned(),
                    kind.as_str().to_owned(),
                    manifest.as_ref().map(|m| m.module.version.clone()).unwrap_or_else(|| "?".into()),
                    manifest.as_ref().map(|m| m.module.abi.to_string()).unwrap_or_else(|| "?".into()),
                    format!("{} ({})", found.origin, found.resolver),
                ]
            }
            Err(err) => {
                let first = err.message.lines().next().unwrap_or_default();
                let why = if first.contains("not found") {
                    "not found (a resolver plugin may find it at run time)".to_owned()
                } else {
                    first.strip_prefix(&format!("{}: ", spec.field_path)).unwrap_or(first).to_owned()
                };
                [spec.mount_name().to_owned(), kind.as_str().to_owned(), "-".into(), "-".into(), why]
            }
        };
        rows.push(row);
    }
    println!("Modules of {}:", plan_path.display());
    print_table(COLUMNS, &rows);
    Ok(())
}

pub fn show(args: ShowArgs) -> CliResult {
    let home = amplifier_home();
    let dirs = Installed::new(&home).dirs().to_vec();
    let versions: Vec<InstalledModule> = scan(&dirs).into_iter().filter(|m| m.name == args.name).collect();
    let built_in = builtin::find(&args.name);
    if versions.is_empty() && built_in.is_none() {
        let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(CliError::failed(format!(
            "module '{}' is neither installed (looked in {}) nor built into amplifier",
            args.name,
            shown.join(", ")
        ))
        .hint("`amplifier module list` shows the modules there are"));
    }
    let newest = versions.iter().map(InstalledModule::version).max_by(|a, b| version_order(a, b));
    for module in &versions {
        let used = if Some(module.version()) == newest { " (the version plans get)" } else { "" };
        println!("{} {}{used}", module.name, module.version());
        if let Some(manifest) = &module.manifest {
            print_manifest(manifest);
        }
        if let Some(record) = &module.record {
            println!("  source:      {}", record.source);
            println!("  library:     {}", record.library);
            if let Some(target) = &record.artifact {
                println!("  prebuilt:    for {target}, from the package");
            }
        }
        println!("  location:    {}", module.dir.display());
    }
    if let Some(module) = built_in {
        let used = if versions.is_empty() { " (what plans get)" } else { " (installed versions win over it)" };
        println!("{} {} built into amplifier {}{used}", module.name, module.version(), env!("CARGO_PKG_VERSION"));
        if let Ok(manifest) = module.manifest() {
            print_manifest(&manifest);
        }
    }
    Ok(())
}

/// A manifest's kinds, ABI, description and config keys, indented.
fn print_manifest(manifest: &Manifest) {
    println!("  kinds:       {}", manifest.module.kinds.join(", "));
    println!("  abi:         {}", manifest.module.abi);
    if !manifest.module.description.is_empty() {
        println!("  description: {}", manifest.module.description);
    }
    let Some(schema) = manifest.config_schema_json() else { return };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    let keys: Vec<String> = schema
        .get("properties")
        .and_then(|p| p.as_object())
        .map(|p| {
            p.iter()
                .map(|(key, property)| {
                    let kind = property.get("type").and_then(|t| t.as_str()).unwrap_or("any");
                    let required = if required.contains(&key.as_str()) { ", required" } else { "" };
                    format!("{key} ({kind}{required})")
                })
                .collect()
        })
        .unwrap_or_default();
    if !keys.is_empty() {
        println!("  config:      {}", keys.join(", "));
    }
}

pub fn remove(args: RemoveArgs) -> CliResult {
    let modules = amplifier_home().join("modules");
    if !safe_file_name(&args.name) || args.version.as_deref().is_some_and(|v| !safe_file_name(v)) {
        let what = args.version.as_deref().unwrap_or(&args.name);
        return Err(CliError::usage(format!("'{what}' is not a module name or version")));
    }
    let module_dir = modules.join(&args.name);
    let target = match &args.version {
        Some(version) => module_dir.join(version),
        None => module_dir.clone(),
    };
    if !target.is_dir() {
        let what = match &args.version {
            Some(version) => format!("{} {version}", args.name),
            None => args.name.clone(),
        };
        return Err(CliError::failed(format!("{what} is not installed in {}", modules.display()))
            .hint("`amplifier module list` shows the installed modules"));
    }
    std::fs::remove_dir_all(&target)
        .map_err(|err| CliError::failed(format!("cannot remove {}: {err}", target.display())))?;
    // The last version gone: the module's directory goes too.
    if module_dir.read_dir().is_ok_and(|mut entries| entries.next().is_none()) {
        let _ = std::fs::remove_dir(&module_dir);
    }
    println!(
        "Removed {} from {}",
        args.version.map(|v| format!("{} {v}", args.name)).unwrap_or(args.name),
        target.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_last_path_component() {
        assert_eq!(id_from_source("./plugins/tool-echo/"), "tool-echo");
        assert_eq!(id_from_source("git+https://example.com/org/tool-x.git@v1"), "tool-x");
        assert_eq!(id_from_source("git+https://host/org/repo@v1.2#subdirectory=plugins/tool-y"), "tool-y");
        let library = format!("/tmp/{}tool_echo{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
        assert_eq!(id_from_source(&library), "tool-echo");
    }

    #[test]
    fn names_stay_one_path_component() {
        assert!(safe_file_name("tool-echo") && safe_file_name("1.2.0-beta+1"));
        assert!(!safe_file_name("../x") && !safe_file_name(".hidden") && !safe_file_name("a/b"));
    }
}
