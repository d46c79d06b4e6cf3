use std::fmt;
use std::path::PathBuf;

use crate::tree::Pos;

/// One problem (or warning) at a place in the plan file.
///
/// Displays as `plan.yaml:12:5: providers[1].source: expected a string, found a map`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanDiagnostic {
    /// The plan's path as given, or `<plan>` for text without one.
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// 1-based.
    pub column: usize,
    /// `providers[1].source`; empty when the problem is the document as a whole.
    pub field: String,
    pub message: String,
    /// How to fix it, when there is something better to say than the message.
    pub hint: Option<String>,
    /// Orders diagnostics of a bundle's several files as they were read.
    pub(crate) file_index: u32,
}

impl PlanDiagnostic {
    pub(crate) fn new(file: &str, pos: Pos, field: &str, message: String) -> Self {
        PlanDiagnostic {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            field: field.to_owned(),
            message,
            hint: None,
            file_index: pos.file.0,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for PlanDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("cannot read mount plan {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Every error found, in file order. The warnings ride along because an
    /// ignored, misspelt key is often the reason a required one is missing.
    #[error("{}", render(errors, warnings))]
    Invalid { errors: Vec<PlanDiagnostic>, warnings: Vec<PlanDiagnostic> },
}

fn render(errors: &[PlanDiagnostic], warnings: &[PlanDiagnostic]) -> String {
    let mut lines = Vec::new();
    for error in errors {
        lines.push(error.to_string());
        if let Some(hint) = &error.hint {
            lines.push(format!("  hint: {hint}"));
        }
    }
    lines.extend(warnings.iter().map(|warning| format!("warning: {warning}")));
    lines.join("\n")
}
