//! Records the compiler that built the host: plugins are cached per toolchain,
//! and the host knows this without starting rustc at run time.

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = std::process::Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .unwrap_or_else(|| "unknown rustc".to_owned());
    println!("cargo:rustc-env=AMPLIFIER_HOST_RUSTC={}", version.trim());
    println!("cargo:rerun-if-env-changed=RUSTC");
}
