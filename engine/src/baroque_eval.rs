//! The evaluation of Baroque / Ultima (`baroque.rs` in fers-core). The
//! chess terms read attacks by replacement, pawn structure and a king
//! shield, none of which exist when pieces capture by pinching,
//! coordinating, leaping, withdrawing or imitating, so this is a separate
//! evaluation; `evaluate.rs` hands over to it by the variant's capture
//! rules (`Variant::capture`).
//!
//! Terms, from the side to move's view:
//! - material by capture style (`evaluate::passive_value`: the
//!   immobilizer and the withdrawer strong, the pincers weak), tapered by
//!   the pieces left;
//! - immobilised pieces: a frozen piece (`Position::frozen`) keeps only
//!   `100 - FROZEN` percent of its value, since it can neither move nor
//!   capture until its jailer leaves;
//! - mobility: the empty squares each free piece can reach along its
//!   lines (`MOBILITY` each, pincers half);
//! - king safety: a king hemmed in (few empty neighbours) is mated by a
//!   single check, an enemy withdrawer next to the king with room to back
//!   off threatens it, and when the two kings share a rank or file every
//!   square of the other line is a coordinator's capture square
//!   (`WITHDRAW_THREAT`, `COORD_LINE`, `KING_ROOM`).

use crate::evaluate::passive_value;
use fers_core::baroque::CaptureRules;
use fers_core::geometry::NO_SQ;
use fers_core::{Color, Position, SquareSet, Variant};

const FROZEN: i32 = 40;
const MOBILITY: i32 = 3;
const KING_ROOM: i32 = 12;
const WITHDRAW_THREAT: i32 = 60;
const COORD_LINE: i32 = 40;
const TEMPO: i32 = 15;

/// Middlegame and endgame values of each kind (0 for the king).
pub struct BaroqueValues {
    value: Vec<(i32, i32)>,
}

impl BaroqueValues {
    pub fn new(v: &Variant) -> BaroqueValues {
        let value = (0..v.pieces.len())
            .map(|k| {
                if v.royal_kind == Some(k as u8) {
                    (0, 0)
                } else {
                    passive_value(v, k).unwrap_or((300, 300))
                }
            })
            .collect();
        BaroqueValues { value }
    }
}

/// Empty squares reachable along the piece's lines.
fn reach(pos: &Position, r: &CaptureRules, sq: u8, kind: usize) -> i32 {
    let steps = &pos.variant().steps;
    let mut n = 0;
    for i in 0..8 {
        if r.rides[kind] & (1 << i) == 0 {
            continue;
        }
        let mut s = steps.step(r.unit[i], sq);
        while s != NO_SQ && pos.piece_at(s).is_empty() {
            n += 1;
            s = steps.step(r.unit[i], s);
        }
    }
    n
}

/// One side's score; `frozen` holds each colour's frozen squares.
fn side_score(
    pos: &Position,
    vals: &BaroqueValues,
    r: &CaptureRules,
    c: Color,
    phase: i32,
    frozen: &[SquareSet; 2],
) -> i32 {
    let v = pos.variant();
    let enemy_frozen = frozen[c.flip().index()];
    let frozen = frozen[c.index()];
    let mut score = 0;
    for sq in pos.occupied(c).iter() {
        let kind = pos.piece_at(sq).kind() as usize;
        if Some(kind as u8) == v.royal_kind {
            continue;
        }
        let (mg, eg) = vals.value[kind];
        let value = (mg * phase + eg * (256 - phase)) / 256;
        if frozen.contains(sq) {
            score += value * (100 - FROZEN) / 100;
            continue;
        }
        score += value;
        let m = reach(pos, r, sq, kind);
        score += if r.pinch & (1 << kind) != 0 {
            MOBILITY * m / 2
        } else {
            MOBILITY * m
        };
    }
    score - king_danger(pos, r, c, &enemy_frozen)
}

/// What threatens the king of `c`.
fn king_danger(pos: &Position, r: &CaptureRules, c: Color, frozen: &SquareSet) -> i32 {
    let Some(k) = pos.royal_square(c) else {
        return 0;
    };
    let v = pos.variant();
    let steps = &v.steps;
    let them = c.flip();
    let free = |s: u8, mask: u32| {
        s != NO_SQ
            && pos.piece_at(s).is_piece()
            && pos.piece_at(s).color() == them
            && mask & (1 << pos.piece_at(s).kind()) != 0
            && !frozen.contains(s)
    };
    let mut danger = 0;
    let mut room = 0;
    for i in 0..8 {
        let s = steps.step(r.unit[i], k);
        if s == NO_SQ {
            continue;
        }
        if pos.piece_at(s).is_empty() {
            room += 1;
        }
        // A withdrawer next to the king takes it by stepping away.
        if free(s, r.withdraw) {
            let away = steps.step(r.unit[i], s);
            if away != NO_SQ && pos.piece_at(away).is_empty() {
                danger += WITHDRAW_THREAT;
            }
        }
    }
    danger += KING_ROOM * (3 - room).max(0);
    // Kings on one line: a coordinator reaching the other line captures.
    if let Some(ek) = pos.royal_square(them) {
        let g = v.geometry;
        let shared = g.file_of(ek) == g.file_of(k) || g.rank_of(ek) == g.rank_of(k);
        let coordinators = pos.occupied(them).iter().any(|s| free(s, r.coordinate));
        if shared && coordinators {
            danger += COORD_LINE;
        }
    }
    danger
}

/// The position's value for the side to move.
pub fn evaluate(pos: &Position, vals: &BaroqueValues, r: &CaptureRules) -> i32 {
    // Phase: 256 with all 15 non-royal pieces a side, down to 0.
    let pieces = (pos.occupied(Color::White).len() + pos.occupied(Color::Black).len()) as i32;
    let phase = ((pieces - 2).max(0) * 256 / 30).min(256);
    let us = pos.side_to_move();
    let frozen = [pos.frozen(Color::White), pos.frozen(Color::Black)];
    side_score(pos, vals, r, us, phase, &frozen)
        - side_score(pos, vals, r, us.flip(), phase, &frozen)
        + TEMPO
}
