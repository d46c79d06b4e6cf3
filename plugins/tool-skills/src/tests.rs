use std::path::Path;

use super::*;

fn write_skill(dir: &Path, folder: &str, frontmatter: &str, body: &str) -> PathBuf {
    let folder = dir.join(folder);
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("SKILL.md");
    std::fs::write(&file, format!("---\n{frontmatter}\n---\n{body}")).unwrap();
    file
}

fn skill(name: &str, description: &str) -> Skill {
    Skill {
        name: name.into(),
        description: description.into(),
        file: PathBuf::from(format!("/skills/{name}/SKILL.md")),
        extra: Default::default(),
    }
}

#[test]
fn a_skill_file_is_read_with_its_metadata_and_body() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_skill(
        dir.path(),
        "pdf",
        "name: pdf\ndescription: Fill in PDF forms. Use for any .pdf file.\nlicense: MIT\nallowed-tools: [bash]",
        "\n# PDF\n\nRun `scripts/fill.py`.\n",
    );
    let read = skill::read(&file).unwrap();
    assert_eq!((read.name.as_str(), read.description.as_str()), ("pdf", "Fill in PDF forms. Use for any .pdf file."));
    assert_eq!(Value::Object(read.extra.clone()), json!({"license": "MIT", "allowed-tools": ["bash"]}));
    assert_eq!(read.body().unwrap(), "# PDF\n\nRun `scripts/fill.py`.");
    assert_eq!(read.directory(), dir.path().join("pdf"));
}

#[test]
fn a_broken_skill_file_is_named_with_its_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut alias_bomb = "name: x\ndescription: d\na0: &a0 [l, l, l, l, l, l, l, l, l]".to_owned();
    for level in 1..9 {
        alias_bomb.push_str(&format!("\na{level}: &a{level} [{}]", vec![format!("*a{}", level - 1); 9].join(", ")));
    }
    let cases = [
        ("no-front", None, "# just markdown", ":1: no frontmatter"),
        ("no-description", Some("name: x"), "", ":2: `description` is missing"),
        ("bad-name", Some("description: d\nname: Big Name"), "", ":3: `name` `Big Name` may hold only lowercase"),
        ("list-name", Some("name: [a]\ndescription: d"), "", ":2: `name` must be non-empty text"),
        ("bad-yaml", Some("name: x\ndescription: \"open"), "", "the frontmatter: invalid YAML"),
        // An alias bomb, refused at the alias that crosses the limit (line 9), not expanded.
        ("bomb", Some(alias_bomb.as_str()), "", ":9: the frontmatter: the document expands to more than 100000 values"),
    ];
    for (folder, frontmatter, body, expected) in cases {
        let file = match frontmatter {
            Some(frontmatter) => write_skill(dir.path(), folder, frontmatter, body),
            None => {
                std::fs::create_dir_all(dir.path().join(folder)).unwrap();
                let file = dir.path().join(folder).join("SKILL.md");
                std::fs::write(&file, body).unwrap();
                file
            }
        };
        let err = skill::read(&file).unwrap_err();
        assert!(err.starts_with(&file.display().to_string()) && err.contains(expected), "{folder}: {err}");
    }
    let long = write_skill(dir.path(), "long", &format!("name: long\ndescription: {}", "d".repeat(1025)), "");
    assert!(skill::read(&long).unwrap_err().contains(":3: `description` is longer than 1024 characters"));
}

#[test]
fn discovery_searches_nested_directories_in_order_and_keeps_the_first_of_a_name() {
    let project = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    write_skill(project.path(), "review", "name: review\ndescription: Project review rules", "");
    write_skill(project.path(), "writing/docs", "name: docs\ndescription: How docs are written", "");
    // A skill's own subdirectories hold its files, not more skills.
    write_skill(project.path(), "review/examples", "name: inner\ndescription: not a skill", "");
    write_skill(project.path(), ".hidden/x", "name: hidden\ndescription: not searched", "");
    write_skill(user.path(), "review", "name: review\ndescription: My review rules", "");
    write_skill(user.path(), "broken", "name: broken", "");
    let found = skill::discover(&[project.path().to_owned(), user.path().to_owned(), PathBuf::from("/nonexistent")]);
    let names: Vec<(&str, &str)> = found.skills.iter().map(|s| (s.name.as_str(), s.description.as_str())).collect();
    assert_eq!(names, [("review", "Project review rules"), ("docs", "How docs are written")]);
    assert_eq!(found.problems.len(), 2, "{:?}", found.problems);
    assert!(found.problems.iter().any(|p| p.contains("skill `review` is also in")), "{:?}", found.problems);
    assert!(found.problems.iter().any(|p| p.contains("broken/SKILL.md:2: `description` is missing")));
}

fn tool(skills: Vec<Skill>) -> LoadSkill {
    LoadSkill { skills: Arc::new(skills) }
}

#[tokio::test]
async fn load_skill_loads_lists_searches_and_describes() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_skill(dir.path(), "pdf", "name: pdf\ndescription: Fill PDF forms\nversion: 1.2.0", "Use pdftk.");
    let loader = tool(vec![skill::read(&file).unwrap(), skill("slides", "Make slide decks")]);
    let spec = loader.spec();
    assert!(spec
        .description
        .as_deref()
        .unwrap()
        .ends_with("Skills:\n- pdf: Fill PDF forms\n- slides: Make slide decks"));

    let loaded = loader.execute(json!({"skill_name": "pdf"})).await;
    assert_eq!(
        loaded.output,
        Some(json!({
            "skill_name": "pdf",
            "skill_directory": dir.path().join("pdf").display().to_string(),
            "loaded_from": file.display().to_string(),
            "content": "Use pdftk.",
        }))
    );
    let listed = loader.execute(json!({"list": true})).await.output.unwrap();
    assert_eq!(listed["skills"][1], json!({"name": "slides", "description": "Make slide decks"}));
    let searched = loader.execute(json!({"search": "SLIDE decks"})).await.output.unwrap();
    assert_eq!(searched, json!({"matches": [{"name": "slides", "description": "Make slide decks"}]}));
    let info = loader.execute(json!({"info": "pdf"})).await.output.unwrap();
    assert_eq!((info["version"].as_str(), info["name"].as_str()), (Some("1.2.0"), Some("pdf")));

    let unknown = loader.execute(json!({"skill_name": "docx"})).await;
    assert!(
        !unknown.success && unknown.serialized_output().contains("no skill named `docx`; the skills are: pdf, slides")
    );
    let two = loader.execute(json!({"list": true, "info": "pdf"})).await;
    assert!(!two.success && two.serialized_output().contains("give exactly one of"));
    let none = loader.execute(json!({})).await;
    assert!(!none.success);
}

#[test]
fn a_large_collection_is_listed_within_the_budget() {
    let many: Vec<Skill> = (0..200).map(|i| skill(&format!("skill-{i}"), &"word ".repeat(100))).collect();
    let listed = listing(&many);
    assert!(listed.chars().count() <= LISTING_BUDGET + 80, "{}", listed.chars().count());
    assert!(listed.contains("- skill-0: word word") && listed.contains('…'));
    assert!(listed.ends_with("more: `list: true` or `search` shows them"), "{listed}");
}

#[test]
fn the_plans_directories_come_first_then_the_defaults() {
    let config = Config { skills_dirs: vec!["team-skills".into(), "/abs".into()], include_defaults: false };
    assert_eq!(directories(&config, Path::new("/work")), [PathBuf::from("/work/team-skills"), PathBuf::from("/abs")]);
    let config = Config { skills_dirs: vec![], include_defaults: true };
    let dirs = directories(&config, Path::new("/work"));
    assert_eq!(dirs[0], PathBuf::from("/work/.amplifier/skills"));
    assert!(dirs[1].ends_with("skills"), "{dirs:?}");
}
