//! The session suite (tests/session_suite) against a real PostgreSQL server:
//! one per test process, a fresh database per test (`amplifier-test-postgres`).

mod common;
mod session_suite;

const POSTGRES: bool = true;
