//! The evaluation of Wormhole (`wormhole.rs` in fers-core): the generic
//! evaluation of `evaluate.rs` (material, piece-square tables, mobility,
//! king safety, pawn structure), which `EvalTables` hands over to here
//! for what a board that loses a square every ply changes. Each term was
//! kept only after a match at 0.1 s a move against the evaluation without
//! it (100 games, random 2-4 ply openings, `docs/wormhole.md`):
//!
//! - kept: there is no draw (the side that runs out of moves loses, and
//!   nothing else ends the game), so the chess rule that a pawnless side
//!   with a small edge cannot win (the generic endgame scaling, which
//!   divides the endgame score by 4 or 16) is off: +63 ± 70 Elo, 59-41;
//! - lost, not in: a move-reserve term (each side's pseudo-legal move
//!   count, weighted up as the existing squares run out below 40), 45-55;
//!   a king-room term (a penalty for a king with few directions to an
//!   existing square free of its own pieces), 35-65; leaving vanished
//!   squares out of the generic mobility and attacks, 39-61; the generic
//!   mobility weight doubled, 102-98 over 200 games (no difference).
//!   Late positions are the solver's anyway (`wormhole_solve.rs`).

use fers_core::Variant;

/// Does the generic evaluation scale down drawish endgames (chess rules of
/// thumb: a pawnless side with a small edge, opposite-coloured bishops)?
/// Not where a game cannot be drawn (`wormhole_solve::applies`: Wormhole).
pub fn drawish_scaling(v: &Variant) -> bool {
    !crate::wormhole_solve::applies(v)
}
