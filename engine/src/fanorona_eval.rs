//! The evaluation of Fanorona (`fanorona.rs` in fers-core): the chess
//! terms (king safety, pawn structure, piece-square tables from movement)
//! mean nothing on a board of lines with one kind of stone, so this is a
//! separate, small evaluation. `evaluate.rs` hands over to it by the
//! variant's rules (`Variant::chains`).
//!
//! Terms, from the side to move's view:
//! - material: a stone is worth `STONE`;
//! - simplification: the side ahead gains as stones come off
//!   (`AHEAD * (own - their) / (own + their)`), since a small majority
//!   wins an ending of few stones and draws rarely;
//! - strong points: a stone on a point with eight lines (`STRONG`), where
//!   it both threatens and can escape along the diagonals;
//! - mobility: each empty point next to a stone along a line (`MOBILITY`),
//!   the room to make paika moves and to approach;
//! - the chase: with few stones left, the side ahead gains as the enemy
//!   stones' distance to its nearest stones shrinks, the side behind as
//!   it grows (`CHASE`), so that a won ending is pressed home before the
//!   turn limit.
//!
//! Measured at 0.1 s a move (`docs/fanorona.md`): the chase won 24-3-13
//! against the same evaluation without it; a term counting each side's
//! capturing first steps lost (11-16-13) and is not in: quiescence
//! already sees the side to move's captures.

use fers_core::fanorona::ChainRules;
use fers_core::geometry::NO_SQ;
use fers_core::{Color, Position};

const STONE: i32 = 100;
const AHEAD: i32 = 400;
const STRONG: i32 = 8;
const MOBILITY: i32 = 3;
const CHASE: i32 = 4;
/// Stones on the board at most for the chase to count.
const CHASE_STONES: i32 = 12;
/// Having the move is worth something in a game of compulsory captures.
const TEMPO: i32 = 10;

/// The stones of a colour as a mask (a Fanorona board has 45 points).
#[inline]
fn stones(pos: &Position, c: Color) -> u64 {
    pos.occupied(c).0[0]
}

/// Empty points next to the stones of `own` along the lines.
fn mobility(rules: &ChainRules, own: u64, empty: u64) -> i32 {
    let mut n = 0;
    let mut s = own;
    while s != 0 {
        let sq = s.trailing_zeros() as u8;
        s &= s - 1;
        for i in 0..8 {
            let t = rules.step(sq, i);
            if t != NO_SQ && empty & (1 << t) != 0 {
                n += 1;
            }
        }
    }
    n
}

/// Sum over the stones of `their` of the distance (in king steps) to the
/// nearest stone of `own`.
fn distance_sum(pos: &Position, own: u64, their: u64) -> i32 {
    let geo = pos.variant().geometry;
    let mut total = 0;
    let mut t = their;
    while t != 0 {
        let a = t.trailing_zeros() as u8;
        t &= t - 1;
        let (af, ar) = (geo.file_of(a) as i32, geo.rank_of(a) as i32);
        let mut best = i32::MAX;
        let mut o = own;
        while o != 0 {
            let b = o.trailing_zeros() as u8;
            o &= o - 1;
            let d = (af - geo.file_of(b) as i32)
                .abs()
                .max((ar - geo.rank_of(b) as i32).abs());
            best = best.min(d);
        }
        total += best;
    }
    total
}

/// The position's value for the side to move, in centipawn-like units.
pub fn evaluate(pos: &Position, rules: &ChainRules) -> i32 {
    let us = pos.side_to_move();
    let own = stones(pos, us);
    let their = stones(pos, us.flip());
    let empty = !(own | their);
    let (n_own, n_their) = (own.count_ones() as i32, their.count_ones() as i32);
    let mut score = STONE * (n_own - n_their) + TEMPO;
    if n_own + n_their > 0 {
        score += AHEAD * (n_own - n_their) / (n_own + n_their);
    }
    score += STRONG
        * ((own & rules.strong).count_ones() as i32 - (their & rules.strong).count_ones() as i32);
    score += MOBILITY * (mobility(rules, own, empty) - mobility(rules, their, empty));
    if n_own + n_their <= CHASE_STONES && n_own != n_their && n_own > 0 && n_their > 0 {
        let ahead = (n_own - n_their).signum();
        score -= ahead * CHASE * distance_sum(pos, own, their);
    }
    score
}
