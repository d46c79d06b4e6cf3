//! Reads a YAML mount plan into the kernel's [`MountPlan`], with errors and
//! warnings that say `file:line:column: field.path: what was expected, what
//! was found`.
//!
//! # Two passes
//!
//! serde-style deserializers throw positions away, and a plan error without a
//! line is half an error. So parsing is split:
//!
//! 1. **Tree** (`tree`): yaml-rust2's marked event parser builds a small tree
//!    in which every value, and every map key, carries its line and column.
//!    All YAML-level questions are settled here: syntax, anchors and aliases,
//!    scalar types (YAML 1.2 core schema), unique string keys.
//! 2. **Walk** (`walk`): the tree is checked field by field against the plan's
//!    shape and turned into a [`MountPlan`], expanding `${VAR}` references
//!    (`interpolate`) in `config` values and `source` strings on the way.
//!    Every check knows its node, so every message has a position. Errors are
//!    collected rather than returned at the first one, so a single run
//!    reports everything wrong with the file.
//!
//! One YAML parser produces both the values and their positions, so the two
//! can never disagree (as they could if serde_yaml read values and a second
//! parser located them).
//!
//! # Environment references
//!
//! `${VAR}` and `${VAR:-default}` may appear anywhere in a string, any number
//! of times; `$${` is a literal `${`. The result is always a string (`"${PORT}"`
//! stays `"8080"`, not `8080`). An unset variable without a default is an
//! error; no diagnostic ever contains a variable's value.

pub mod bundle;
mod diagnostic;
mod interpolate;
mod tree;
mod walk;

use std::path::{Path, PathBuf};

use amplifier_kernel::plan::MountPlan;

pub use diagnostic::{PlanDiagnostic, PlanError};
use tree::{FileId, Files};

/// A plan that parsed, with whatever it ignored along the way.
#[derive(Debug, Clone)]
pub struct ParsedPlan {
    pub plan: MountPlan,
    /// Unknown keys and misplaced settings; the plan is usable regardless.
    pub warnings: Vec<PlanDiagnostic>,
    /// The file the plan came from, if any (relative `source`s resolve from it).
    pub path: Option<PathBuf>,
    /// The `bundle.name` of the bundle the plan was compiled from.
    pub bundle: Option<String>,
}

/// Reads and parses the plan at `path`, expanding `${VAR}` from the process
/// environment. A bundle (a directory, Markdown, or YAML with a `bundle:`
/// key) is compiled to its mount plan first; it may not include `git+` URLs.
pub fn parse_plan_file(path: &Path) -> Result<ParsedPlan, PlanError> {
    parse_plan_file_with(path, &bundle::NoFetcher)
}

/// [`parse_plan_file`], with a bundle's `git+` includes fetched by `fetcher`.
pub fn parse_plan_file_with(path: &Path, fetcher: &dyn bundle::IncludeFetcher) -> Result<ParsedPlan, PlanError> {
    let env = |name: &str| std::env::var(name).ok();
    if path.is_dir() || path.extension().is_some_and(|ext| ext == "md") {
        return compiled_plan(bundle::compile(path, fetcher)?, path, &env);
    }
    let text = std::fs::read_to_string(path).map_err(|source| PlanError::Read { path: path.to_owned(), source })?;
    let files = Files::one(&path.display().to_string());
    let root = tree::parse(&text, &files, FileId(0))
        .map_err(|error| PlanError::Invalid { errors: vec![error], warnings: Vec::new() })?;
    if bundle::is_bundle(path, Some(&root)) {
        return compiled_plan(bundle::compile(path, fetcher)?, path, &env);
    }
    let (plan, warnings) = walk::mount_plan(&root, &files, &env)?;
    Ok(ParsedPlan { plan, warnings, path: Some(path.to_owned()), bundle: None })
}

/// A bundle compiled to the mount plan `amplifier bundle compile` prints:
/// YAML, `${VAR}` references unexpanded, checked as a plan file is; with
/// the warnings of both.
pub fn compile_bundle(
    path: &Path,
    fetcher: &dyn bundle::IncludeFetcher,
) -> Result<(String, Vec<PlanDiagnostic>), PlanError> {
    let compiled = bundle::compile(path, fetcher)?;
    let yaml = bundle::to_yaml(&compiled.root);
    let parsed = compiled_plan(compiled, path, &|name: &str| std::env::var(name).ok())?;
    Ok((yaml, parsed.warnings))
}

fn compiled_plan(
    compiled: bundle::Compiled,
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<ParsedPlan, PlanError> {
    let bundle::Compiled { root, files, mut warnings, name } = compiled;
    let (plan, more) = match walk::mount_plan(&root, &files, env) {
        Ok(walked) => walked,
        Err(PlanError::Invalid { errors, warnings: more }) => {
            warnings.extend(more);
            return Err(PlanError::Invalid { errors, warnings });
        }
        Err(other) => return Err(other),
    };
    warnings.extend(more);
    Ok(ParsedPlan { plan, warnings, path: Some(path.to_owned()), bundle: name })
}

/// Parses plan text; `path` is only used to name the file in diagnostics
/// (`<plan>` without one) and is kept in [`ParsedPlan::path`].
pub fn parse_plan_str(text: &str, path: Option<&Path>) -> Result<ParsedPlan, PlanError> {
    parse_plan_str_with_env(text, path, &|name| std::env::var(name).ok())
}

/// [`parse_plan_str`] with `${VAR}` looked up through `env` instead of the
/// process environment.
pub fn parse_plan_str_with_env(
    text: &str,
    path: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<ParsedPlan, PlanError> {
    let files = Files::one(&path.map_or_else(|| "<plan>".to_owned(), |path| path.display().to_string()));
    let root = tree::parse(text, &files, FileId(0))
        .map_err(|error| PlanError::Invalid { errors: vec![error], warnings: Vec::new() })?;
    let (plan, warnings) = walk::mount_plan(&root, &files, env)?;
    Ok(ParsedPlan { plan, warnings, path: path.map(Path::to_owned), bundle: None })
}
