//! Bindings to llama.cpp, generated once by bindgen 0.72.1 from
//! llama-cpp-sys-2 0.1.161's `wrapper.h` (see README.md beside Cargo.toml).
//! The `llama_rs_*` declarations belong to its `common` helpers, which this
//! build does not compile: calling one would not link.

#![allow(non_upper_case_globals)]
#![allow(non_camel_case_types)]
#![allow(non_snake_case)]
#![allow(dead_code)]
#![allow(clippy::all)]
#![allow(unpredictable_function_pointer_comparisons)]

include!("bindings.rs");

/// llama.cpp's libm functions are bound on their first call
/// (`src/lazy_libm.c`, which says why), but tokio's multi-threaded scheduler
/// calls `pow` after every batch of tasks it runs, so every process would
/// load libm within milliseconds of its start. This `pow` is compiled in
/// instead; llama.cpp calls it only while building an RWKV model's graph.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[no_mangle]
pub extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}
