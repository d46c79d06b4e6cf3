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
