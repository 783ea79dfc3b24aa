//! fers-tests: helpers shared by the end-to-end and data-driven tests.
pub mod engine;
pub mod fsf;
pub mod require;
