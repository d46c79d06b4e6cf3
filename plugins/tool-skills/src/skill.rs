//! Finding skills and reading their `SKILL.md`: YAML frontmatter between
//! `---` lines (`name` and `description` required), then the instructions.

use std::path::{Path, PathBuf};

use amplifier_yaml::Yaml;

/// A skill directory is found this deep beneath a skills directory at most
/// (collections group skills by category).
const MAX_DEPTH: usize = 4;
/// The longest name and description Anthropic's format allows.
const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    pub name: String,
    pub description: String,
    /// The `SKILL.md` file.
    pub file: PathBuf,
    /// The other frontmatter keys (`license`, `version`, `allowed-tools`, `metadata`, …) as JSON.
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl Skill {
    /// The directory the skill's other files are in.
    pub fn directory(&self) -> &Path {
        self.file.parent().unwrap_or(Path::new("."))
    }

    /// The instructions: the file after its frontmatter, read now, so an
    /// edit shows without a restart.
    pub fn body(&self) -> Result<String, String> {
        let text =
            std::fs::read_to_string(&self.file).map_err(|err| format!("cannot read {}: {err}", self.file.display()))?;
        Ok(split(&text).map_or(text.as_str(), |(_, body)| body).trim().to_owned())
    }
}

/// The file line the frontmatter's first line is on.
const FIRST_LINE: usize = 2;

/// `(frontmatter, body)`, or `None` when the text does not open with a
/// `---` line.
fn split(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n'))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

/// Reads `file`; an error names the file, the line where it can, and the field.
pub fn read(file: &Path) -> Result<Skill, String> {
    let at = |line: Option<usize>, message: String| match line {
        Some(line) => format!("{}:{line}: {message}", file.display()),
        None => format!("{}: {message}", file.display()),
    };
    let text = amplifier_yaml::read_file(file).map_err(|err| at(None, format!("cannot read: {err}")))?;
    let first_line = FIRST_LINE;
    let (frontmatter, _) = split(&text).ok_or_else(|| {
        at(
            Some(1),
            "no frontmatter: the file must open with a `---` line, `name:` and `description:`, and `---`".into(),
        )
    })?;
    let document = amplifier_yaml::load(frontmatter).map_err(|err| {
        at(Some(first_line + err.line.saturating_sub(1)), format!("the frontmatter: {}", err.message))
    })?;
    let Yaml::Hash(fields) = document else {
        return Err(at(Some(first_line), "the frontmatter must be a map with `name` and `description`".into()));
    };
    let line_of = |key: &str| {
        frontmatter.lines().position(|line| line.starts_with(&format!("{key}:"))).map(|index| first_line + index)
    };
    let text_field = |key: &str, max: usize| -> Result<String, String> {
        match fields.get(&Yaml::String(key.to_owned())) {
            Some(Yaml::String(value)) if !value.trim().is_empty() => match value.chars().count() > max {
                true => Err(at(line_of(key), format!("`{key}` is longer than {max} characters"))),
                false => Ok(value.trim().to_owned()),
            },
            Some(_) => Err(at(line_of(key), format!("`{key}` must be non-empty text"))),
            None => Err(at(Some(first_line), format!("`{key}` is missing"))),
        }
    };
    let name = text_field("name", MAX_NAME)?;
    if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
        return Err(at(line_of("name"), format!("`name` `{name}` may hold only lowercase letters, digits and `-`")));
    }
    let description = text_field("description", MAX_DESCRIPTION)?;
    let mut extra = serde_json::Map::new();
    for (key, value) in &fields {
        if let Some(key) = key.as_str().filter(|key| !["name", "description"].contains(key)) {
            extra.insert(key.to_owned(), json(value));
        }
    }
    Ok(Skill { name, description, file: file.to_owned(), extra })
}

fn json(value: &Yaml) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Yaml::String(text) | Yaml::Real(text) => Value::String(text.clone()),
        Yaml::Integer(n) => Value::from(*n),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => items.iter().map(json).collect(),
        Yaml::Hash(map) => {
            Value::Object(map.iter().filter_map(|(k, v)| Some((k.as_str()?.to_owned(), json(v)))).collect())
        }
        _ => Value::Null,
    }
}

/// What searching the directories found: the skills, first directory
/// first, and why any `SKILL.md` was left out.
#[derive(Debug, Default)]
pub struct Found {
    pub skills: Vec<Skill>,
    pub problems: Vec<String>,
}

/// Every skill beneath `dirs`, in order; of two skills with one name the
/// first found is kept (a project's skill over the user's).
pub fn discover(dirs: &[PathBuf]) -> Found {
    let mut found = Found::default();
    for dir in dirs {
        let mut files = Vec::new();
        skill_files(dir, 0, &mut files);
        files.sort();
        for file in files {
            match read(&file) {
                Ok(skill) => match found.skills.iter().find(|s| s.name == skill.name) {
                    Some(kept) => found.problems.push(format!(
                        "{}: skill `{}` is also in {}, which is kept",
                        file.display(),
                        skill.name,
                        kept.file.display()
                    )),
                    None => found.skills.push(skill),
                },
                Err(problem) => found.problems.push(problem),
            }
        }
    }
    found
}

/// The `SKILL.md` files beneath `dir`; a skill's own subdirectories are not
/// searched (they hold its files, not more skills).
fn skill_files(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) {
    let skill = dir.join("SKILL.md");
    if depth > 0 && skill.is_file() {
        files.push(skill);
        return;
    }
    if depth == MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        // `Path::is_dir` follows symlinks: a linked-in skill counts.
        if !hidden && entry.path().is_dir() {
            skill_files(&entry.path(), depth + 1, files);
        }
    }
}
