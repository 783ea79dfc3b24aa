//! fers-engine: protocols, search and evaluation over fers-core.

pub mod bench;
pub mod engine;
pub mod evaluate;
pub mod nnue;
pub mod options;
pub mod pawns;
pub mod search;
pub mod thread;
pub mod timeman;
pub mod tt;
pub mod tuned;
pub mod uci;

pub use engine::Engine;
pub use search::Reporter;
pub use thread::{SearchOptions, SearchPool, SearchResult};
pub use timeman::Limits;
