//! fers-engine: protocols, search and evaluation over fers-core.

pub mod engine;
pub mod options;
pub mod uci;

pub use engine::Engine;
