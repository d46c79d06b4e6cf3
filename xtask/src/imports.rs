//! The module graph of the layered crates stays straight: in the kernel,
//! the host and the CLI no top-level module reaches (through `crate::…`)
//! one that reaches it back. A cycle means two files are one job split in
//! the wrong place (the kernel once had coordinator → spawn → session →
//! coordinator); tidy names the modules of each cycle.
//!
//! What counts as a use: a `crate::<module>` path anywhere in the file
//! before its `#[cfg(test)]` tests, comments included (an intra-doc link
//! is a dependency of the reader's). A submodule (`session/children.rs`)
//! belongs to its top-level module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::docs;
use crate::tidy::Problem;

/// The crates whose `src/` must have no module cycles.
pub const LAYERED: &[&str] = &["crates/kernel", "crates/host", "crates/cli"];

/// Each top-level module of `src` with the top-level modules it names.
pub fn graph(src: &Path) -> docs::Result<BTreeMap<String, BTreeSet<String>>> {
    let mut modules: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    collect(src, &mut files)?;
    for file in files {
        let relative = file.strip_prefix(src)?;
        let top = relative.components().next().map(|c| c.as_os_str().to_string_lossy().into_owned());
        let Some(top) = top.map(|t| t.trim_end_matches(".rs").to_owned()) else { continue };
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file)?;
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let used = code
            .match_indices("crate::")
            .map(|(at, _)| &code[at + "crate::".len()..])
            .map(|rest| rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>())
            .filter(|name| !name.is_empty() && *name != top)
            .collect::<Vec<_>>();
        modules.entry(top).or_default().extend(used);
    }
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    for uses in modules.values_mut() {
        uses.retain(|name| known.contains(name));
    }
    Ok(modules)
}

fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) -> docs::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    Ok(())
}

/// The cycles of a graph, each as its modules in order, smallest first and
/// each reported once (from its alphabetically first module).
pub fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for start in graph.keys() {
        // Shortest way back to `start`, breadth first.
        let mut from: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        'search: while let Some(node) = queue.pop_front() {
            for next in graph.get(node).into_iter().flatten() {
                if next == start {
                    let mut cycle = vec![node.clone()];
                    let mut at = node;
                    while at != start {
                        at = from[at];
                        cycle.push(at.clone());
                    }
                    cycle.reverse();
                    if cycle.iter().min() == Some(start) {
                        found.insert(cycle);
                    }
                    break 'search;
                }
                if !from.contains_key(next) && next != start {
                    from.insert(next, node);
                    queue.push_back(next);
                }
            }
        }
    }
    let mut cycles: Vec<Vec<String>> = found.into_iter().collect();
    cycles.sort_by_key(Vec::len);
    cycles
}

/// A problem per cycle in the layered crates.
pub fn check(root: &Path) -> docs::Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for krate in LAYERED {
        let src = root.join(krate).join("src");
        if !src.is_dir() {
            continue;
        }
        for cycle in cycles(&graph(&src)?) {
            let path = cycle.iter().chain(cycle.first()).map(String::as_str).collect::<Vec<_>>().join(" → ");
            problems.push(Problem {
                file: Path::new(krate).join("src").join(format!("{}.rs", cycle[0])),
                line: 1,
                message: format!("module cycle: {path}; move what both need into a module of its own"),
            });
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(src: &Path, file: &str, text: &str) {
        let path = src.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_cycle_is_found_and_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path();
        write(src, "lib.rs", "mod a; mod b; mod c; use crate::a::X;");
        write(src, "a.rs", "use crate::b::Y;");
        write(src, "b.rs", "/// See [`crate::c::Z`].\nuse crate::leaf;");
        write(src, "c.rs", "pub struct Z; fn f() { crate::a::g() }");
        write(src, "leaf.rs", "#[cfg(test)]\nmod tests { use crate::a::X; }");
        let graph = graph(src).unwrap();
        assert_eq!(graph["b"], BTreeSet::from(["c".to_owned(), "leaf".to_owned()]));
        assert!(graph["leaf"].is_empty(), "test modules are left out");
        assert_eq!(cycles(&graph), [["a", "b", "c"].map(str::to_owned).to_vec()]);
    }

    #[test]
    fn submodules_belong_to_their_module_and_a_straight_graph_passes() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path();
        write(src, "session.rs", "mod children; use crate::coordinator::C;");
        write(src, "session/children.rs", "use super::Session; use crate::spawn::plan;");
        write(src, "coordinator.rs", "pub struct C;");
        write(src, "spawn.rs", "pub fn plan() {}");
        let graph = graph(src).unwrap();
        assert_eq!(graph["session"], BTreeSet::from(["coordinator".to_owned(), "spawn".to_owned()]));
        assert!(cycles(&graph).is_empty());
    }
}
