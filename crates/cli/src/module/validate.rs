//! `amplifier module validate PATH`.

use std::path::PathBuf;

use amplifier_conformance::{validate, Severity, ValidateOptions, ValidationReport};
use clap::{Args, ValueEnum};

use super::KindArg;
use crate::error::{CliError, CliResult};

#[derive(Args)]
pub struct ValidateArgs {
    /// The module: a plugin crate directory, a built library, or an installed module directory.
    path: PathBuf,
    /// Validate as this kind (default: from amplifier.toml, else the directory name's prefix).
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// How to print the checks.
    #[arg(long, value_enum, default_value_t = ValidateOutput::Human)]
    output: ValidateOutput,
    /// Add the longer runs: a multi-turn tool loop, 1,000 messages, concurrent calls.
    #[arg(long)]
    behavioral: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ValidateOutput {
    /// One line per check and a summary.
    Human,
    /// `{module_type, module_path, passed, checks: [{name, passed, severity, message}]}`.
    Json,
}

pub fn run(args: ValidateArgs) -> CliResult {
    let runtime = crate::hosting::runtime()?;
    let options = ValidateOptions {
        kind: args.kind.map(Into::into),
        behavioral: args.behavioral,
        amplifier_home: amplifier_loader::amplifier_home(),
    };
    let report = runtime.block_on(validate(&args.path, &options)).map_err(CliError::usage)?;
    match args.output {
        ValidateOutput::Human => print_human(&report),
        ValidateOutput::Json => {
            let json = serde_json::to_string_pretty(&report)
                .map_err(|err| CliError::failed(format!("cannot write the report as JSON: {err}")))?;
            println!("{json}");
        }
    }
    // The report said why.
    if report.passed {
        Ok(())
    } else {
        Err(CliError::shown())
    }
}

fn print_human(report: &ValidationReport) {
    for check in &report.checks {
        let mut lines = check.message.lines();
        let first = lines.next().unwrap_or_default();
        if check.passed {
            println!("✓ {}: {first}", check.name);
        } else {
            println!("✗ {} [{}]: {first}", check.name, check.severity.as_str());
        }
        for line in lines {
            println!("    {line}");
        }
    }
    let total = report.checks.len();
    let passed = report.checks.iter().filter(|c| c.passed).count();
    let (errors, warnings) = (report.failed(Severity::Error), report.failed(Severity::Warning));
    let (kind, path) = (&report.module_type, &report.module_path);
    if report.passed {
        let warned = if warnings > 0 { format!(", {warnings} warning(s)") } else { String::new() };
        println!("{kind} module {path}: valid ({passed} of {total} checks passed{warned})");
    } else {
        println!(
            "{kind} module {path}: INVALID ({errors} error(s), {warnings} warning(s); {passed} of {total} checks passed)"
        );
    }
}
