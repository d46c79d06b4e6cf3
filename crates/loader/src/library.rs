//! Opening plugin libraries, with the version handshake.
//!
//! Order matters: the frozen `AbiStamp` is read first with libloading, so a
//! plugin from another ABI major gets a message naming both versions and the
//! fix instead of abi_stable's layout diff; then abi_stable checks the root
//! module's layout; then the protocol version. Libraries are never unloaded
//! (thread-local destructors make unloading unsound), and each is opened once
//! per process however many instances are mounted from it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use abi_stable::library::{lib_header_from_path, LibraryError as AbiStableError};
use amplifier_abi::{AbiStamp, PluginRoot_Ref, ABI_MAJOR, ABI_STAMP_MAGIC, ABI_STAMP_SYMBOL, PROTOCOL_VERSION};
use serde::Deserialize;

/// A plugin library could not be opened, or is not one this amplifier can load.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("cannot open module library {}: {source}", path.display())]
    NoFile { path: PathBuf, source: std::io::Error },
    /// The dynamic loader refused the file.
    #[error("cannot open module '{module}' at {}: {source}", path.display())]
    Open { module: String, path: PathBuf, source: libloading::Error },
    #[error(
        "{} is not an amplifier plugin (module '{module}'): it exports no AMPLIFIER_PLUGIN_ABI_STAMP.\n\
         hint: build it with amplifier-sdk and `export_module!`",
        path.display()
    )]
    NotAPlugin { module: String, path: PathBuf },
    #[error("module '{module}' ({}) has a corrupt ABI stamp; rebuild it", path.display())]
    CorruptStamp { module: String, path: PathBuf },
    #[error(
        "module '{module}' was built for plugin ABI {abi_major}.{abi_minor}, but this amplifier speaks ABI {ABI_MAJOR} ({}).\n\
         hint (users): install a version of the module built for ABI {ABI_MAJOR}, or an amplifier that speaks ABI {abi_major}\n\
         hint (module authors): rebuild against amplifier-sdk for ABI {ABI_MAJOR} (`cargo update -p amplifier-sdk`)",
        path.display()
    )]
    AbiMajor { module: String, path: PathBuf, abi_major: u32, abi_minor: u32 },
    #[error(
        "module '{module}' ({}) speaks module protocol {protocol}, but this amplifier speaks protocol {PROTOCOL_VERSION}.\n\
         hint: rebuild the module against this amplifier's SDK",
        path.display()
    )]
    Protocol { module: String, path: PathBuf, protocol: u32 },
    /// abi_stable refused the root module (its layout or versions differ).
    #[error("{}", describe_abi_stable_error(module, path, source))]
    Root { module: String, path: PathBuf, source: AbiStableError },
    #[error("module '{module}' ({location}) exports an invalid manifest: {source}")]
    InvalidManifest { module: String, location: String, source: serde_json::Error },
}

/// What a plugin says about itself (its `manifest()` export).
#[derive(Debug, Clone, Deserialize)]
pub struct ExportedManifest {
    pub name: String,
    pub version: String,
    pub kinds: Vec<String>,
    #[serde(default)]
    pub sdk_version: String,
}

pub struct PluginLibrary {
    pub path: PathBuf,
    pub root: PluginRoot_Ref,
    pub manifest: ExportedManifest,
}

fn opened() -> &'static Mutex<HashMap<PathBuf, Arc<PluginLibrary>>> {
    static OPENED: OnceLock<Mutex<HashMap<PathBuf, Arc<PluginLibrary>>>> = OnceLock::new();
    OPENED.get_or_init(Mutex::default)
}

/// Opens (once) and checks the plugin library at `path`. `module` names the
/// module in error messages.
pub fn open(path: &Path, module: &str) -> Result<Arc<PluginLibrary>, LibraryError> {
    let path = path.canonicalize().map_err(|source| LibraryError::NoFile { path: path.to_owned(), source })?;
    let mut opened = opened().lock().expect("library table lock");
    if let Some(library) = opened.get(&path) {
        return Ok(library.clone());
    }
    check_stamp(&path, module)?;
    let refused = |source| LibraryError::Root { module: module.to_owned(), path: path.clone(), source };
    let header = lib_header_from_path(&path).map_err(refused)?;
    let root = header.init_root_module::<PluginRoot_Ref>().map_err(refused)?;
    let manifest = exported_manifest(&root, module, &path.display().to_string())?;
    let library = Arc::new(PluginLibrary { path: path.clone(), root, manifest });
    opened.insert(path, library.clone());
    Ok(library)
}

/// What a module's root says about itself; `location` names it in messages.
pub fn exported_manifest(
    root: &PluginRoot_Ref,
    module: &str,
    location: &str,
) -> Result<ExportedManifest, LibraryError> {
    let manifest_json = (root.manifest())();
    serde_json::from_str(manifest_json.as_str()).map_err(|source| LibraryError::InvalidManifest {
        module: module.to_owned(),
        location: location.to_owned(),
        source,
    })
}

/// Reads the plugin's `AbiStamp` and refuses another ABI major or protocol.
fn check_stamp(path: &Path, module: &str) -> Result<(), LibraryError> {
    let (module, path) = (module.to_owned(), path.to_owned());
    // SAFETY: loading runs the library's initialisers; we only load files the
    // plan named (or the build cache produced). The library is leaked below:
    // it is never unloaded.
    let library = match unsafe { libloading::Library::new(&path) } {
        Ok(library) => library,
        Err(source) => return Err(LibraryError::Open { module, path, source }),
    };
    let library: &'static libloading::Library = Box::leak(Box::new(library));
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    crate::crash::register_library(&path);
    // SAFETY: the symbol, when present, is a `#[repr(C)] AbiStamp` static
    // emitted by `export_module!`; we check its magic before trusting the rest.
    let stamp: AbiStamp = unsafe {
        let Ok(symbol) = library.get::<*const AbiStamp>(ABI_STAMP_SYMBOL) else {
            return Err(LibraryError::NotAPlugin { module, path });
        };
        std::ptr::read(*symbol)
    };
    if stamp.magic != ABI_STAMP_MAGIC {
        return Err(LibraryError::CorruptStamp { module, path });
    }
    if stamp.abi_major != ABI_MAJOR {
        return Err(LibraryError::AbiMajor { module, path, abi_major: stamp.abi_major, abi_minor: stamp.abi_minor });
    }
    if stamp.protocol != PROTOCOL_VERSION {
        return Err(LibraryError::Protocol { module, path, protocol: stamp.protocol });
    }
    Ok(())
}

/// abi_stable's own messages name neither the module nor the fix.
fn describe_abi_stable_error(module: &str, path: &Path, err: &AbiStableError) -> String {
    match err {
        AbiStableError::AbiInstability(diff) => format!(
            "module '{module}' ({}) was built against an incompatible amplifier-abi (the layout of its types differs).\n\
             hint: rebuild the module against this amplifier's SDK\n\ndetails:\n{diff}",
            path.display()
        ),
        AbiStableError::IncompatibleVersionNumber {
            library_name,
            expected_version,
            actual_version,
        } => format!(
            "module '{module}' ({}) was built against {library_name} {actual_version}, this amplifier needs {expected_version}.\n\
             hint: rebuild the module against this amplifier's SDK",
            path.display()
        ),
        other => format!("cannot load module '{module}' from {}: {other}", path.display()),
    }
}
