//! Compiles llama.cpp's CPU backend with the `cc` crate: a C and C++
//! compiler is all it needs (no cmake, no libclang: the bindings are in
//! `src/bindings.rs`). The sources, defines and flags are those llama.cpp's
//! CMake build uses for a CPU-only static build (see README.md).
//!
//! `AMPLIFIER_LLAMA_MARCH` picks the instruction set: `native` (the default)
//! uses everything this CPU has, for a binary built where it runs; a
//! binary meant to be copied to other machines wants a baseline such as
//! `x86-64-v2`. On x86, AMX stays off either way: ggml's AMX kernels crash
//! on Sapphire Rapids (llama.cpp issue #20824).

use std::path::{Path, PathBuf};

const UNSUPPORTED: &[&str] =
    &["CUDA", "METAL", "VULKAN", "OPENCL", "ROCM", "MKL", "WEBGPU", "MTMD", "DYNAMIC_LINK", "SYSTEM_GGML", "COMMON"];

fn main() {
    for feature in UNSUPPORTED {
        if std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_some() {
            panic!(
                "llama-cpp-sys-2 (amplifier's CPU-only build) does not support the `{}` feature",
                feature.to_lowercase().replace('_', "-")
            );
        }
    }
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let llama = root.join("llama.cpp");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let openmp = std::env::var_os("CARGO_FEATURE_OPENMP").is_some();
    println!("cargo:rerun-if-env-changed=AMPLIFIER_LLAMA_MARCH");
    println!("cargo:rerun-if-changed=llama.cpp");
    println!("cargo:rerun-if-changed=generated");
    let march = std::env::var("AMPLIFIER_LLAMA_MARCH").unwrap_or_else(|_| "native".to_owned());

    let ggml = llama.join("ggml/src");
    let cpu = ggml.join("ggml-cpu");
    let cpu_arch = match arch.as_str() {
        "x86_64" | "x86" => Some(cpu.join("arch/x86")),
        "aarch64" | "arm" => Some(cpu.join("arch/arm")),
        _ => None,
    };
    let mut c_files = vec![
        ggml.join("ggml.c"),
        ggml.join("ggml-alloc.c"),
        ggml.join("ggml-quants.c"),
        cpu.join("ggml-cpu.c"),
        cpu.join("quants.c"),
    ];
    let mut cpp_files: Vec<PathBuf> = [
        "ggml.cpp",
        "ggml-backend.cpp",
        "ggml-backend-meta.cpp",
        "ggml-backend-reg.cpp",
        "ggml-backend-dl.cpp",
        "ggml-opt.cpp",
        "ggml-threading.cpp",
        "gguf.cpp",
    ]
    .iter()
    .map(|f| ggml.join(f))
    .chain(
        [
            "ggml-cpu.cpp",
            "repack.cpp",
            "hbm.cpp",
            "traits.cpp",
            "amx/amx.cpp",
            "amx/mmq.cpp",
            "tiled/tiled.cpp",
            "tiled/tiled-kernel.cpp",
            "binary-ops.cpp",
            "unary-ops.cpp",
            "vec.cpp",
            "ops.cpp",
            "llamafile/sgemm.cpp",
        ]
        .iter()
        .map(|f| cpu.join(f)),
    )
    .collect();
    if std::env::var("TARGET").unwrap_or_default().contains("-linux-gnu") {
        // libm bound on first call, not at every start (the file says why).
        c_files.push(root.join("src/lazy_libm.c"));
        println!("cargo:rerun-if-changed=src/lazy_libm.c");
    }
    if let Some(dir) = &cpu_arch {
        c_files.extend(files_with(dir, "c"));
        cpp_files.extend(files_with(dir, "cpp").into_iter().filter(|f| !f.ends_with("cpu-feats.cpp")));
    }
    cpp_files.extend(files_with(&llama.join("src"), "cpp"));
    cpp_files.extend(unity_sources(&llama.join("src/models")));

    let configure = |build: &mut cc::Build| {
        build
            .include(llama.join("ggml/include"))
            .include(&ggml)
            .include(llama.join("ggml"))
            .include(&cpu)
            .include(llama.join("include"))
            .include(llama.join("src"))
            .include(root.join("generated"))
            .define("NDEBUG", None)
            .define("GGML_USE_CPU", None)
            .define("GGML_USE_CPU_REPACK", None)
            .define("GGML_USE_LLAMAFILE", None)
            .define("GGML_SCHED_MAX_COPIES", "4")
            .define("_GNU_SOURCE", None)
            .define("_XOPEN_SOURCE", "600")
            .warnings(false)
            .flag_if_supported("-w")
            .flag(format!("-march={march}"));
        if matches!(arch.as_str(), "x86_64" | "x86") {
            build
                .flag_if_supported("-mno-amx-tile")
                .flag_if_supported("-mno-amx-int8")
                .flag_if_supported("-mno-amx-bf16");
        }
        if openmp {
            build.define("GGML_USE_OPENMP", None).flag("-fopenmp");
        }
    };

    let mut c = cc::Build::new();
    configure(&mut c);
    require_compiler(&c, "C");
    c.std("gnu11").files(&c_files);
    let objects = c.compile_intermediates();

    let mut cpp = cc::Build::new();
    configure(&mut cpp);
    cpp.cpp(true);
    require_compiler(&cpp, "C++");
    let static_runtime = static_cpp_runtime(&cpp);
    if static_runtime.is_some() {
        cpp.cpp_link_stdlib(None);
    }
    cpp.std("gnu++17").files(&cpp_files).objects(&objects);
    cpp.compile("llama");
    if let Some(dir) = static_runtime {
        println!("cargo:rustc-link-search=native={}", dir.display());
        // Not bundled into this crate's rlib: linked once, into the binary or cdylib.
        println!("cargo:rustc-link-lib=static:-bundle=stdc++");
    }
    if openmp {
        println!("cargo:rustc-link-lib=gomp");
    }
}

/// Where GNU's C++ runtime archive is (`libstdc++.a`, which Debian's and
/// Fedora's g++ packages install), to link it statically: loaded as a
/// shared library, binding its symbols and running its initialisers took
/// about 0.7 ms of every process start, `amplifier --version` included,
/// though only a run of the local model uses it. Elsewhere (macOS's libc++,
/// a compiler without the archive), `cc` links the shared runtime as before.
fn static_cpp_runtime(build: &cc::Build) -> Option<PathBuf> {
    if !std::env::var("TARGET").unwrap_or_default().contains("-linux-gnu") {
        return None;
    }
    let out = build.get_compiler().to_command().arg("-print-file-name=libstdc++.a").output().ok()?;
    // Without the archive, the compiler prints the bare name back.
    let archive = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    (out.status.success() && archive.is_absolute() && archive.is_file())
        .then(|| archive.parent().map(Path::to_path_buf))?
}

/// Stops the build with one line naming what to install when the compiler
/// `build` would use does not run (instead of a failure per source file).
fn require_compiler(build: &cc::Build, language: &str) {
    let compiler = build.get_compiler();
    let runs = compiler.to_command().arg("--version").output().is_ok_and(|o| o.status.success());
    if !runs {
        eprintln!(
            "error: llama.cpp (provider-local) needs a {language} compiler, and `{}` does not run.\n\
             hint: install one (Debian/Ubuntu: `apt-get install g++`; Fedora: `dnf install gcc-c++`), \
             or name it with CC and CXX",
            compiler.path().display()
        );
        std::process::exit(1);
    }
}

/// The files with extension `ext` directly in `dir`, sorted.
fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// llama.cpp builds its per-architecture model files as a unity build (they
/// are written for it, and it parses the shared headers 16 times instead of
/// 158): the same here, 16 files to a generated source.
fn unity_sources(dir: &Path) -> Vec<PathBuf> {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    files_with(dir, "cpp")
        .chunks(16)
        .enumerate()
        .map(|(i, chunk)| {
            let text: String = chunk.iter().map(|f| format!("#include \"{}\"\n", f.display())).collect();
            let path = out.join(format!("models_unity_{i}.cpp"));
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                std::fs::write(&path, text).expect("write a unity source");
            }
            path
        })
        .collect()
}
