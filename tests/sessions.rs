//! The session suite (tests/session_suite) against SQLite, the default store.

mod common;
mod session_suite;

const POSTGRES: bool = false;
