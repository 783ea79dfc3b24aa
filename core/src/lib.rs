//! fers-core: the rules of chess and its fairy relatives, as data.
//!
//! Pure library: no I/O, no threads, no printing. See `ARCHITECTURE.md` at
//! the repository root for how variants, pieces and conditions plug in.
//!
//! ```
//! use fers_core::{variant, perft, Position};
//! let pos = Position::startpos(variant::chess());
//! assert_eq!(perft::perft(&pos, 3), 8902);
//! ```

mod attacks;
pub mod baroque;
pub mod betza;
pub mod capabilities;
pub mod conditions;
mod effects;
pub mod fanorona;
pub mod game;
pub mod geometry;
mod legality;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod registry;
mod rules;
pub mod see;
pub mod solve;
pub mod variant;
pub mod variant_file;
pub mod wormhole;
pub mod zobrist;

pub use capabilities::Capabilities;
pub use conditions::{Condition, Conditions};
pub use game::{Game, Outcome, Termination};
pub use geometry::{Geometry, Lines, SquareSet, Topology};
pub use moves::{Leg, Move, MoveError, MoveFlag, MoveList};
pub use piece::{Color, Piece};
pub use position::{FenError, Position};
pub use variant::{Variant, VariantSpec};
