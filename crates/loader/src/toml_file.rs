//! The TOML files the loader reads (`Cargo.toml`, `amplifier.toml`,
//! `amplifier.lock`): read and parse in one place, one error for both.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// A TOML file that could not be read or parsed; `path` names it.
#[derive(Debug, thiserror::Error)]
pub enum TomlFileError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    // Boxed: a toml error is large, and this travels in every loader `Result`.
    #[error("invalid {}: {source}", path.display())]
    Parse { path: PathBuf, source: Box<toml::de::Error> },
}

/// Reads and parses `path`; `Ok(None)` when it does not exist.
pub fn read_if_exists<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, TomlFileError> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, path).map(Some),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(TomlFileError::Read { path: path.to_owned(), source }),
    }
}

/// Parses `text`, the contents of `path`.
pub fn parse<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, TomlFileError> {
    toml::from_str(text).map_err(|source| TomlFileError::Parse { path: path.to_owned(), source: Box::new(source) })
}
