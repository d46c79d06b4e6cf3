//! `tool-skills`: skills in Anthropic's format (also codex's and upstream
//! Amplifier's): a directory with a `SKILL.md` whose frontmatter gives a
//! `name` and a `description`, then instructions, beside any files they
//! refer to.
//!
//! ```yaml
//! tools:
//!   - module: tool-skills
//!     config: {skills_dirs: [~/anthropic-skills/skills]}
//! ```
//!
//! Every key and its default: `amplifier.toml`, rendered as
//! `docs/reference/modules/tool-skills.md`.
//!
//! Progressive disclosure, as the format intends: the skills are found at
//! mount, and their names and descriptions are the `load_skill` tool's
//! description, so the model sees them in every request; a skill's body is
//! read only when the model loads it, and its other files only when the
//! model reads them. With no skills found, no tool is mounted.
//!
//! `load_skill`'s input is upstream's: `{skill_name}` loads one
//! (`{skill_name, skill_directory, loaded_from, content}`), `{list: true}`
//! lists them, `{search}` filters them by a word of the name or
//! description, `{info}` gives one's metadata. A `SKILL.md` that cannot be
//! read is left out with a warning naming its file, line and field.

mod skill;

use std::path::PathBuf;
use std::sync::Arc;

use amplifier_sdk::paths;
use amplifier_sdk::prelude::*;
use serde::Deserialize;

use crate::skill::Skill;

/// The module's `config`; the loader has filled in `amplifier.toml`'s defaults.
#[derive(Debug, Deserialize)]
struct Config {
    skills_dirs: Vec<String>,
    include_defaults: bool,
}

/// The directories to search, in order: the plan's, then the project's,
/// the user's and `$AMPLIFIER_SKILLS_DIR`; relative ones beneath `cwd`.
fn directories(config: &Config, cwd: &std::path::Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = config.skills_dirs.iter().map(|dir| paths::expand(dir, cwd)).collect();
    if config.include_defaults {
        dirs.push(cwd.join(".amplifier/skills"));
        dirs.extend(paths::amplifier_home().map(|home| home.join("skills")));
        dirs.extend(paths::var("AMPLIFIER_SKILLS_DIR"));
    }
    dirs
}

struct LoadSkill {
    skills: Arc<Vec<Skill>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    #[serde(default)]
    skill_name: Option<String>,
    #[serde(default)]
    list: bool,
    #[serde(default)]
    search: Option<String>,
    #[serde(default)]
    info: Option<String>,
}

impl LoadSkill {
    fn find(&self, name: &str) -> Result<&Skill, ToolResult> {
        self.skills.iter().find(|skill| skill.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.skills.iter().map(|skill| skill.name.as_str()).collect();
            ToolResult::error("not_found", format!("no skill named `{name}`; the skills are: {}", known.join(", ")))
        })
    }

    fn summaries<'a>(skills: impl Iterator<Item = &'a Skill>) -> Value {
        skills.map(|skill| json!({"name": skill.name, "description": skill.description})).collect()
    }

    fn answer(&self, input: Input) -> Result<Value, ToolResult> {
        let asked = [input.skill_name.is_some(), input.list, input.search.is_some(), input.info.is_some()];
        if asked.iter().filter(|asked| **asked).count() != 1 {
            return Err(ToolResult::error(
                "invalid_input",
                "give exactly one of `skill_name` (load it), `list: true`, `search` or `info`",
            ));
        }
        if let Some(name) = input.skill_name {
            let skill = self.find(&name)?;
            let content = skill.body().map_err(|err| ToolResult::error("read_failed", err))?;
            return Ok(json!({
                "skill_name": skill.name,
                "skill_directory": skill.directory().display().to_string(),
                "loaded_from": skill.file.display().to_string(),
                "content": content,
            }));
        }
        if let Some(name) = input.info {
            let skill = self.find(&name)?;
            let mut info = skill.extra.clone();
            info.insert("name".into(), json!(skill.name));
            info.insert("description".into(), json!(skill.description));
            info.insert("path".into(), json!(skill.file.display().to_string()));
            return Ok(Value::Object(info));
        }
        if let Some(words) = input.search {
            let words = words.to_lowercase();
            let matches = self.skills.iter().filter(|skill| {
                let text = format!("{} {}", skill.name, skill.description).to_lowercase();
                words.split_whitespace().all(|word| text.contains(word))
            });
            return Ok(json!({"matches": Self::summaries(matches)}));
        }
        Ok(json!({"skills": Self::summaries(self.skills.iter())}))
    }
}

/// Characters of skill listing the tool's description holds: it is in
/// every request, so a large collection is listed shorter.
const LISTING_BUDGET: usize = 8_000;
/// A description's length in a listing over the budget.
const SHORT_DESCRIPTION: usize = 120;

/// `- name: description` lines within [`LISTING_BUDGET`]: whole when they
/// fit, else with descriptions cut, else as many as fit and a count of the rest.
fn listing(skills: &[Skill]) -> String {
    let line = |skill: &Skill, cut: bool| {
        let description = match skill.description.char_indices().nth(SHORT_DESCRIPTION).filter(|_| cut) {
            Some((end, _)) => format!("{}…", &skill.description[..end]),
            None => skill.description.clone(),
        };
        format!("\n- {}: {description}", skill.name)
    };
    let whole: String = skills.iter().map(|skill| line(skill, false)).collect();
    if whole.chars().count() <= LISTING_BUDGET {
        return whole;
    }
    let mut short = String::new();
    for (index, skill) in skills.iter().enumerate() {
        let next = line(skill, true);
        if short.chars().count() + next.chars().count() > LISTING_BUDGET {
            let rest = skills.len() - index;
            short.push_str(&format!("\n… and {rest} more: `list: true` or `search` shows them"));
            break;
        }
        short.push_str(&next);
    }
    short
}

impl Tool for LoadSkill {
    fn spec(&self) -> ToolSpec {
        let description = format!(
            "Loads a skill: instructions for a kind of task, and the directory of the files they mention. \
             When a task matches a skill's description, load the skill first and follow it.\n\nSkills:{}",
            listing(&self.skills)
        );
        ToolSpec::new(
            "load_skill",
            description,
            json!({
                "type": "object",
                "properties": {
                    "skill_name": {"type": "string", "description": "The skill to load: its instructions and directory"},
                    "list": {"type": "boolean", "description": "true: every skill's name and description"},
                    "search": {"type": "string", "description": "Words that a skill's name or description must all contain"},
                    "info": {"type": "string", "description": "A skill whose metadata to show, without its instructions"}
                },
                "additionalProperties": false
            }),
        )
    }

    async fn execute(&self, input: Value) -> ToolResult {
        let input: Input = match serde_json::from_value(input) {
            Ok(input) => input,
            Err(err) => return ToolResult::error("invalid_input", format!("invalid input for load_skill: {err}")),
        };
        self.answer(input).map_or_else(|failed| failed, ToolResult::ok)
    }
}

fn mount(ctx: MountContext) -> ModuleResult<Tools> {
    let config: Config = ctx.config()?;
    let cwd = std::env::current_dir()
        .map_err(|err| ModuleError::internal(format!("{}: no working directory: {err}", ctx.module)))?;
    let found = skill::discover(&directories(&config, &cwd));
    for problem in &found.problems {
        tracing::warn!("skill left out: {problem}");
    }
    if found.skills.is_empty() {
        return Ok(Tools::new());
    }
    Ok(Tools::new().with(LoadSkill { skills: Arc::new(found.skills) }))
}

export_module!(tool => mount);

#[cfg(test)]
mod tests;
