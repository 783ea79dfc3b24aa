//! fers-engine: protocols, search and evaluation over fers-core.

pub mod baroque_eval;
pub mod bench;
pub mod book;
pub mod engine;
pub mod evaluate;
pub mod events;
pub mod fanorona_eval;
pub mod mate;
pub mod nnue;
pub mod notation;
pub mod options;
pub mod pawns;
pub mod protocol;
pub mod search;
pub mod stats;
#[cfg(test)]
mod test_support;
pub mod thread;
pub mod timeman;
pub mod tt;
pub mod tuned;
pub mod uci;
pub mod usi;
pub mod wormhole_eval;
pub mod wormhole_solve;
pub mod xboard;

pub use engine::Engine;
pub use events::{Reporter, SearchEvent};
pub use thread::{SearchOptions, SearchPool, SearchResult};
pub use timeman::Limits;

/// Helpers shared by the unit tests.
#[cfg(test)]
pub(crate) mod test_util {
    use fers_core::{MoveList, Position};

    /// Plays a pseudo-random legal move chosen by the xorshift `seed`;
    /// `false` (nothing played) when there is none.
    pub fn play_random(pos: &mut Position, seed: &mut u64) -> bool {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return false;
        }
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        pos.play(list.get((*seed % list.len() as u64) as usize));
        true
    }
}
