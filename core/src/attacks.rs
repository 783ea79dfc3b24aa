//! Attack detection, generic over the variant's data: is a square
//! attacked by a colour? The attack plan (`Variant::attack_rays`) is walked
//! outwards from the square for leapers, riders and pawns; hopper-like and
//! lame families have reverse rules (`Variant::complex_rays`); the two-leg
//! riders and the horned rider generate their captures forward. Shared by
//! legality, check, static exchange and the conditions.

use crate::geometry::{MAX_SQUARES, NO_SQ};
use crate::movegen::targets;
use crate::piece::{Color, Family, Mode, Piece};
use crate::position::Position;
use crate::variant::Variant;

impl Position {
    /// Is `sq` attacked by a piece of colour `by`?
    #[inline]
    pub fn attacked(&self, sq: u8, by: Color) -> bool {
        attacked_on(self, &self.board, sq, by)
    }
}

/// Attack detection on a given board (the position's, or one with the king
/// lifted): walks the variant's attack plan outwards from `sq`, then asks
/// the pieces with complex families whether they could capture on `sq`.
#[inline]
pub(crate) fn attacked_on(pos: &Position, board: &[Piece; MAX_SQUARES], sq: u8, by: Color) -> bool {
    let v = pos.v;
    if v.holes.skip {
        return crate::wormhole::skip_attacked(v, board, sq, by);
    }
    if simple_attackers(v, board, sq, by, |_, _| true) {
        return true;
    }
    if v.complex_kinds != 0 {
        return attacked_by_complex(pos, board, sq, by);
    }
    false
}

/// Calls `found(square, piece)` for each piece of `by` that attacks `sq` on
/// `board` by the variant's simple attack plan (pawns first, then leapers
/// and riders walked outwards from `sq`), until `found` returns true; says
/// whether it did. Hoppers and lame leapers are not in this plan. Shared
/// by attack detection and static exchange (`see.rs`).
#[inline(always)]
pub(crate) fn simple_attackers(
    v: &Variant,
    board: &[Piece; MAX_SQUARES],
    sq: u8,
    by: Color,
    mut found: impl FnMut(u8, Piece) -> bool,
) -> bool {
    if let Some(pk) = v.pawn_kind {
        // A pawn of `by` attacks sq from sq minus its capture vector, which
        // is sq plus the other colour's capture vector.
        let pawn = Piece::new(pk, by);
        for &d in &v.pawn_captures[by.flip().index()] {
            let s = v.steps.step(d, sq);
            if s != NO_SQ && board[s as usize] == pawn && found(s, pawn) {
                return true;
            }
        }
    }
    for r in &v.attack_rays[by.index()] {
        let d = r.dir;
        let mut s = v.steps.step(d, sq);
        if s == NO_SQ {
            continue;
        }
        let q = board[s as usize];
        if q.is_piece() {
            if q.color() == by && (r.leap | r.ride) & (1 << q.kind()) != 0 && found(s, q) {
                return true;
            }
            continue;
        }
        if r.ride == 0 || q == Piece::HOLE {
            continue;
        }
        loop {
            s = v.steps.step(d, s);
            if s == NO_SQ || s == sq {
                break;
            }
            let q = board[s as usize];
            if q.is_piece() {
                if q.color() == by && r.ride & (1 << q.kind()) != 0 && found(s, q) {
                    return true;
                }
                break;
            }
            if q == Piece::HOLE {
                break;
            }
        }
    }
    false
}

/// The second stage of attack detection, for hopper-like and lame
/// families: reverse walks from `sq` (the attacker's vectors negated), then
/// forward generation for the few families without a reverse rule.
#[inline(never)]
pub(crate) fn attacked_by_complex(
    pos: &Position,
    board: &[Piece; MAX_SQUARES],
    sq: u8,
    by: Color,
) -> bool {
    let v = pos.v;
    if v.complex_rays[by.index()]
        .iter()
        .any(|r| complex_ray_hits(v, board, sq, by, r))
    {
        return true;
    }
    if v.fallback_kinds != 0 {
        return attacked_by_generation(pos, board, sq, by);
    }
    false
}

/// Does the attacker of one reverse ray (see `ComplexRay`) hit `sq`?
#[inline]
pub(crate) fn complex_ray_hits(
    v: &Variant,
    board: &[Piece; MAX_SQUARES],
    sq: u8,
    by: Color,
    r: &crate::variant::ComplexRay,
) -> bool {
    let steps = &v.steps;
    let exists = |s: u8| s != NO_SQ && board[s as usize] != Piece::HOLE;
    let piece = |s: u8| board[s as usize].is_piece();
    let attacker = |s: u8, kinds: u32| {
        let p = board[s as usize];
        p.is_piece() && p.color() == by && kinds & (1 << p.kind()) != 0
    };
    // The first piece walking from `s` along `d` (exclusive), or NO_SQ.
    let next_piece = |mut s: u8, d: u8| -> u8 {
        for _ in 0..MAX_SQUARES {
            s = steps.step(d, s);
            if !exists(s) || s == sq {
                return NO_SQ;
            }
            if piece(s) {
                return s;
            }
        }
        NO_SQ
    };
    match r.family {
        Family::Hopper => {
            let h = steps.step(r.back, sq);
            exists(h) && piece(h) && {
                let a = next_piece(h, r.back);
                a != NO_SQ && attacker(a, r.kinds)
            }
        }
        Family::ProlongedHopper => {
            let h = next_piece(sq, r.back);
            h != NO_SQ && {
                let a = next_piece(h, r.back);
                a != NO_SQ && attacker(a, r.kinds)
            }
        }
        Family::DecomposedLeaper => {
            let m = steps.step(r.back2, sq);
            exists(m) && !piece(m) && {
                let a = steps.step(r.back, m);
                exists(a) && attacker(a, r.kinds)
            }
        }
        Family::Equihopper => {
            let h = steps.step(r.back, sq);
            exists(h) && piece(h) && {
                let a = steps.step(r.back, h);
                exists(a) && attacker(a, r.kinds)
            }
        }
        Family::ContraHopper => {
            let h = next_piece(sq, r.back);
            h != NO_SQ && {
                let a = steps.step(r.back, h);
                exists(a) && attacker(a, r.kinds)
            }
        }
        Family::Kanghopper => {
            let h2 = steps.step(r.back, sq);
            exists(h2) && piece(h2) && {
                let h1 = next_piece(h2, r.back);
                h1 != NO_SQ && {
                    let a = next_piece(h1, r.back);
                    a != NO_SQ && attacker(a, r.kinds)
                }
            }
        }
        Family::Locuhopper => {
            // The victim on sq, the landing square just beyond empty.
            let l = steps.step(r.fwd, sq);
            exists(l) && !piece(l) && {
                let a = next_piece(sq, r.back);
                a != NO_SQ && attacker(a, r.kinds)
            }
        }
        _ => false,
    }
}

/// Forward generation for families without a reverse rule: every such piece
/// of `by` walks its captures, with `sq` treated as holding an enemy piece
/// (an empty square is attacked where a capture would be).
#[cold]
fn attacked_by_generation(pos: &Position, board: &[Piece; MAX_SQUARES], sq: u8, by: Color) -> bool {
    let v = pos.v;
    let target = board[sq as usize];
    let mut copy;
    let b = if target.is_piece() && target.color() != by {
        board
    } else {
        copy = *board;
        copy[sq as usize] = Piece::new(0, by.flip());
        &copy
    };
    for from in pos.occ[by.index()].iter() {
        let p = b[from as usize];
        if !p.is_piece() || p.color() != by || v.fallback_kinds & (1 << p.kind()) == 0 {
            continue;
        }
        for c in &v.components[p.kind() as usize] {
            if c.family.is_simple() || c.mode == Mode::MoveOnly {
                continue;
            }
            let mut hit = |_to: u8, victim: u8| victim == sq;
            if targets(v, b, from, by, c, &mut hit) {
                return true;
            }
        }
    }
    false
}
