//! The standard modules of `plugins/`, linked into the `amplifier` binary.
//!
//! A plan may name any of them without a `source`: the loader's last
//! resolver answers with the module linked here (see
//! `amplifier_loader::builtin`). The same crates still build as cdylibs, and
//! a module's `source`, an installed module or `AMPLIFIER_MODULE_<ID>` wins
//! over its built-in copy.
//!
//! provider-local brings llama.cpp, compiled from
//! `third_party/llama-cpp-sys-2` with nothing but a C/C++ compiler.

use amplifier_loader::builtin::BuiltinModule;

macro_rules! builtins {
    ($($name:literal => $krate:ident),+ $(,)?) => {
        /// Every built-in module, by the name a plan gives it.
        pub static MODULES: &[BuiltinModule] = &[$(
            BuiltinModule {
                name: $name,
                manifest: include_str!(concat!("../../../plugins/", $name, "/amplifier.toml")),
                root: $krate::amplifier_plugin_root,
            }
        ),+];
    };
}

builtins! {
    "context-persistent" => context_persistent,
    "context-simple" => context_simple,
    "hooks-approval" => hooks_approval,
    "hooks-command" => hooks_command,
    "hooks-logging" => hooks_logging,
    "hooks-redaction" => hooks_redaction,
    "hooks-streaming-ui" => hooks_streaming_ui,
    "hooks-status-context" => hooks_status_context,
    "loop-basic" => loop_basic,
    "loop-events" => loop_events,
    "loop-streaming" => loop_streaming,
    "orchestrator-plan" => orchestrator_plan,
    "orchestrator-router" => orchestrator_router,
    "provider-anthropic" => provider_anthropic,
    "provider-local" => provider_local,
    "provider-openai" => provider_openai,
    "provider-scripted" => provider_scripted,
    "tool-bash" => tool_bash,
    "tool-echo" => tool_echo,
    "tool-filesystem" => tool_filesystem,
    "tool-mcp" => tool_mcp,
    "tool-services" => tool_services,
    "tool-skills" => tool_skills,
    "tool-task" => tool_task,
    "tool-web" => tool_web,
}

#[cfg(test)]
mod tests {
    use super::MODULES;

    #[test]
    fn each_manifest_names_its_module_and_the_kinds_it_exports() {
        for module in MODULES {
            let manifest = module.manifest().unwrap_or_else(|err| panic!("{}: {err}", module.name));
            assert_eq!(manifest.module.name, module.name);
            let exported = amplifier_loader::library::exported_manifest(&(module.root)(), module.name, "built-in")
                .unwrap_or_else(|err| panic!("{err}"));
            assert_eq!(exported.name, module.name, "the crate behind built-in {}", module.name);
            assert_eq!(
                exported.kinds, manifest.module.kinds,
                "{}: amplifier.toml and export_module! disagree",
                module.name
            );
        }
    }

    #[test]
    fn every_module_of_the_workspace_is_built_in() {
        let workspace: toml::Table =
            include_str!("../../../Cargo.toml").parse().expect("the workspace's Cargo.toml parses");
        let plugins = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../plugins")).expect("plugins/");
        let excluded = workspace["workspace"]["exclude"].as_array().expect("workspace.exclude");
        for entry in plugins.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if excluded.iter().any(|e| e.as_str() == Some(&format!("plugins/{name}"))) {
                continue;
            }
            assert!(MODULES.iter().any(|m| m.name == name), "plugins/{name} is not in MODULES");
        }
    }
}
