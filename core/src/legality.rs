//! Legality, chosen by the variant's capability set (`Variant::caps`):
//! - pins and check masks computed once per node (`filter_fast`), so a move
//!   is judged without being played (`pin_legality`);
//! - a board copy with the move made (`legal_general`), where nothing but
//!   the move changes the board (`board_copy_legality`);
//! - otherwise the move played with `Position::play`, effects included,
//!   and the opponent asked whether it could capture the royal piece under
//!   the active rules (`legal_by_play`).
//!
//! Where that costs an attack detection per move (`lazy_legality`), the
//! search does not filter lists: it tests each move it tries after playing
//! it (`legal_after`, through `Position::candidate_legal`). Under
//! `pin_legality` the search's lists leave the royal piece's moves to be
//! tested so (each costs an attack detection); out of check, where
//! `lazy_pins` holds, they are not filtered at all, and a move tried is
//! checked against the one line it can open (`Position::opens_line`).

use crate::attacks::{attacked_by_complex, attacked_on, complex_ray_hits};
use crate::geometry::{SquareSet, MAX_SQUARES, NO_SQ};
use crate::moves::{Move, MoveFlag, MoveList};
use crate::piece::{Color, Family, Piece};
use crate::position::Position;
use crate::variant::{ComplexRay, NO_RAY};

/// Reverse rays tracked one by one in `filter_fast`; variants with more use
/// the all-rays test.
const MAX_TRACKED_RAYS: usize = 64;

/// See [`Position::pending_test`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Pending {
    None,
    Line,
    Whole,
}

impl Position {
    pub(crate) fn filter_legal(&self, list: &mut MoveList) {
        let conditions = !self.v.conditions.is_empty();
        if self.royal[self.side.index()] == NO_SQ {
            // Nothing to expose; only the conditions' after-move tests.
            if conditions {
                list.retain(|m| {
                    let mut next = self.clone();
                    next.play(m);
                    self.after_move_allows(m, &next)
                });
            }
            return;
        }
        if self.v.caps.pin_legality {
            self.filter_fast(list, false);
        } else if self.v.caps.hole_legality {
            self.filter_skip(list);
        } else if self.v.caps.board_copy_legality {
            list.retain(|m| self.legal_general(m));
        } else {
            list.retain(|m| self.legal_by_play(m));
        }
    }

    /// Is `m`, already played from here into `next`, legal? The test of
    /// [`Position::legal_by_play`], asked of the played position: the
    /// conditions' after-move tests, and the mover's royal piece (where it
    /// has one) not capturable under the active rules. `next` must be this
    /// position with the pseudo-legal `m` played (`Position::play`).
    pub fn legal_after(&self, m: Move, next: &Position) -> bool {
        self.after_move_allows(m, next)
            && (self.royal[self.side.index()] == NO_SQ || !next.royal_capturable(next.side))
    }

    /// What the search's candidate `m` (`Position::candidate_moves`) still
    /// needs to be known legal once it is tried. Where legality is lazy
    /// (`lazy_legality`), the whole test. Under `pin_legality`: the royal
    /// piece's moves but castling (an attack detection of the destination
    /// each, and most nodes cut before trying them), the whole test too;
    /// with `lazy_pins` the other moves but castling a look along the line
    /// they may open (en passant, which empties two squares, the whole
    /// test); none where the list was filtered.
    #[inline]
    pub(crate) fn pending_test(&self, m: Move) -> Pending {
        let caps = &self.v.caps;
        if caps.lazy_legality {
            return Pending::Whole;
        }
        if !caps.pin_legality || matches!(m.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen) {
            return Pending::None;
        }
        if m.from() == self.royal[self.side.index()] || m.flag() == MoveFlag::EnPassant {
            return Pending::Whole;
        }
        if caps.lazy_pins {
            Pending::Line
        } else {
            Pending::None
        }
    }

    /// Under `lazy_pins`, out of check: does the move `m` of a unit other
    /// than the royal piece (not en passant) leave its royal piece attacked
    /// along the line from it through `m`'s start square? The first unit
    /// on that line (the moved one where it lands on it) decides.
    #[inline]
    pub(crate) fn opens_line(&self, m: Move) -> bool {
        self.line_opened(m, self.side)
    }

    /// Under `lazy_pins` (else false): does the move `m` (not the royal
    /// piece's, castling or en passant) open the line from `king`'s royal
    /// piece through `m`'s start square to a rider of the other colour? For
    /// the mover's own royal piece, whether the move was pinned; for the
    /// other's, whether it gives a discovered check.
    pub fn line_opened(&self, m: Move, king: Color) -> bool {
        let v = self.v;
        if !v.caps.lazy_pins {
            return false;
        }
        let ksq = self.royal[king.index()];
        if ksq == NO_SQ {
            return false; // nothing to expose
        }
        let (from, to) = (m.from(), m.to());
        let them = king.flip().index();
        let n = v.geometry.num_squares();
        let i = v.pin_lines[them][ksq as usize * n + from as usize];
        if i == NO_RAY {
            return false;
        }
        let r = &v.attack_rays[them][i as usize];
        let mut s = ksq;
        let mut first = true;
        loop {
            s = v.steps.step(r.dir, s);
            if s == NO_SQ || s == to {
                return false;
            }
            let q = self.board[s as usize];
            if s != from && q.is_piece() {
                let bit = 1u32 << q.kind();
                let kinds = if first { r.ride | r.leap } else { r.ride };
                return q.color().index() == them && kinds & bit != 0;
            }
            first = false;
        }
    }

    /// Is the pseudo-legal move `m` legal? Played on a copy and tested by
    /// [`Position::legal_after`]; for single moves, not for lists.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut next = self.clone();
        next.play(m);
        self.legal_after(m, &next)
    }

    /// Legality under conditions: the move is played with all its effects
    /// (`Position::play`), then the conditions' after-move tests apply and
    /// the opponent may not be able to capture the mover's royal piece
    /// under the active rules.
    pub(crate) fn legal_by_play(&self, m: Move) -> bool {
        let mut next = self.clone();
        next.play(m);
        self.after_move_allows(m, &next) && !next.royal_capturable(next.side)
    }

    /// General legality without conditions: the same test as
    /// [`Position::legal_by_play`], on a copy of the board alone, because
    /// nothing but the move itself changes the board (castling plays the
    /// whole move; a vanishing start square is part of the move).
    pub(crate) fn legal_general(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        match m.flag() {
            MoveFlag::CastleKing | MoveFlag::CastleQueen | MoveFlag::Exchange => {
                self.legal_by_play(m)
            }
            flag => {
                let v = self.v;
                let mut b = self.board;
                match flag {
                    MoveFlag::EnPassant => {
                        b[v.steps.step(v.pawn_push[them.index()], to) as usize] = Piece::EMPTY
                    }
                    MoveFlag::Locust => b[m.locust_square() as usize] = Piece::EMPTY,
                    _ => {}
                }
                b[to as usize] = match m.promotion() {
                    Some(k) => Piece::new(k, us),
                    None => b[from as usize],
                };
                // Vanishing squares: the start square is a hole after it.
                b[from as usize] = if v.holes.vanish {
                    Piece::HOLE
                } else {
                    Piece::EMPTY
                };
                let k = self.royal[us.index()];
                let k = if k == from { to } else { k };
                !attacked_on(self, &b, k, them)
            }
        }
    }

    /// Fast legality: computes checkers, the check mask and pins of the
    /// leaper/rider attackers from the royal square, then keeps only legal
    /// moves. Hopper-like and lame attackers (if any) are tested on a board
    /// copy, but only for moves that touch a square that matters to them
    /// (`sensitive`): the lines, legs and attacker squares around the royal.
    /// With `defer_royal`, the royal piece's moves but castling are kept
    /// untested (see [`Position::pending_test`]).
    pub(crate) fn filter_fast(&self, list: &mut MoveList, defer_royal: bool) {
        let v = self.v;
        let us = self.side;
        let them = us.flip();
        let ksq = self.royal[us.index()];
        if ksq == NO_SQ {
            return;
        }
        // Checkers as a set: on a wrapped board one piece may check along
        // two rays, which is not a double check.
        let mut checkers = SquareSet::EMPTY;
        let mut check_mask = SquareSet::ALL;
        // Pinned pieces: (square, allowed squares). A piece pinned twice
        // (wrapped boards) must satisfy both entries.
        let mut pins: [(u8, SquareSet); 16] = [(NO_SQ, SquareSet::EMPTY); 16];
        let mut npins = 0;

        for r in &v.attack_rays[them.index()] {
            let d = r.dir;
            let first = v.steps.step(d, ksq);
            if first == NO_SQ {
                continue;
            }
            if r.ride == 0 {
                let q = self.board[first as usize];
                if q.is_piece() && q.color() == them && r.leap & (1 << q.kind()) != 0 {
                    checkers.insert(first);
                    let mut m = SquareSet::EMPTY;
                    m.insert(first);
                    check_mask = check_mask.and(m);
                }
                continue;
            }
            // Walk the ray: squares up to and including the first enemy.
            let mut ray = SquareSet::EMPTY;
            let mut s = first;
            let mut dist = 1;
            let mut own: u8 = NO_SQ;
            while s != NO_SQ && s != ksq {
                ray.insert(s);
                let q = self.board[s as usize];
                if q.is_piece() {
                    let bit = 1u32 << q.kind();
                    if q.color() == them {
                        let hits = r.ride & bit != 0 || (dist == 1 && r.leap & bit != 0);
                        if own == NO_SQ {
                            if hits {
                                checkers.insert(s);
                                check_mask = check_mask.and(ray);
                            }
                        } else if r.ride & bit != 0 && npins < pins.len() {
                            pins[npins] = (own, ray);
                            npins += 1;
                        }
                        break;
                    }
                    if own != NO_SQ {
                        break; // two own pieces: no pin
                    }
                    own = s;
                } else if q == Piece::HOLE {
                    break;
                }
                s = v.steps.step(d, s);
                dist += 1;
            }
        }
        // Pawn checks: an enemy pawn stands where our pawn would capture.
        for &d in &v.pawn_captures[us.index()] {
            let s = v.steps.step(d, ksq);
            if s != NO_SQ {
                let q = self.board[s as usize];
                if q.is_piece() && q.color() == them && Some(q.kind()) == v.pawn_kind {
                    checkers.insert(s);
                    let mut m = SquareSet::EMPTY;
                    m.insert(s);
                    check_mask = check_mask.and(m);
                }
            }
        }

        // Hopper-like and lame attackers.
        let complex = v.complex_kinds != 0;
        // Per reverse ray: whether it attacks now, and per square the rays
        // whose verdict a change there can alter. A move re-walks only the
        // rays it touches (`ray_mask[from] | ray_mask[to]`).
        let rays = &v.complex_rays[them.index()];
        let per_ray = complex && v.fallback_kinds == 0 && rays.len() <= MAX_TRACKED_RAYS;
        // Zeroed only when used (hopper-like attackers): clearing 1 KB at
        // every node cost orthodox perft 1.4% of its instructions.
        let mut ray_mask = std::mem::MaybeUninit::<[u64; MAX_SQUARES]>::uninit();
        if per_ray {
            ray_mask.write([0u64; MAX_SQUARES]);
        }
        let mut ray_hits = 0u64;
        if per_ray {
            for (i, r) in rays.iter().enumerate() {
                // SAFETY: written just above, since `per_ray` holds.
                self.mark_ray(ksq, r, 1 << i, unsafe { ray_mask.assume_init_mut() });
                if complex_ray_hits(v, &self.board, ksq, them, r) {
                    ray_hits |= 1 << i;
                }
            }
        }

        let mut board_wo_king = [Piece::EMPTY; MAX_SQUARES];
        let mut have_board = false;
        let pins = &pins[..npins];
        let nchecks = checkers.len();
        list.retain(|m| {
            let from = m.from();
            if from == ksq {
                if defer_royal || matches!(m.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen) {
                    return true; // fully checked by gen_castling, or later
                }
                if complex {
                    return self.legal_general(m);
                }
                if !have_board {
                    board_wo_king = self.board;
                    board_wo_king[ksq as usize] = Piece::EMPTY;
                    have_board = true;
                }
                return !attacked_on(self, &board_wo_king, m.to(), them);
            }
            if matches!(m.flag(), MoveFlag::EnPassant | MoveFlag::Locust) {
                // Two squares change besides `to`: play it out.
                return self.legal_general(m);
            }
            if nchecks > 1 {
                return false;
            }
            let to = m.to();
            if nchecks == 1 && !check_mask.contains(to) {
                return false;
            }
            if !pins
                .iter()
                .all(|&(sq, allowed)| sq != from || allowed.contains(to))
            {
                return false;
            }
            if !complex {
                return true;
            }
            let touched = if per_ray {
                // SAFETY: initialised above whenever `per_ray` holds.
                let mask = unsafe { ray_mask.assume_init_ref() };
                mask[from as usize] | mask[to as usize]
            } else {
                u64::MAX
            };
            // Untouched rays keep their verdict.
            if ray_hits & !touched != 0 {
                return false;
            }
            if touched == 0 {
                return true;
            }
            let mut b = self.board;
            b[to as usize] = match m.promotion() {
                Some(k) => Piece::new(k, us),
                None => b[from as usize],
            };
            b[from as usize] = Piece::EMPTY;
            if !per_ray {
                return !attacked_by_complex(self, &b, ksq, them);
            }
            let mut t = touched;
            while t != 0 {
                let i = t.trailing_zeros() as usize;
                t &= t - 1;
                if complex_ray_hits(v, &b, ksq, them, &rays[i]) {
                    return false;
                }
            }
            true
        });
    }

    /// Marks with `bit` the squares whose change of occupancy can change
    /// whether the attacker of one reverse ray hits `ksq`: the leg and
    /// attacker squares of a lame leaper or equihopper, the whole line for
    /// hoppers (and, for the locust, the landing square in front of the
    /// royal piece).
    fn mark_ray(&self, ksq: u8, r: &ComplexRay, bit: u64, mask: &mut [u64; MAX_SQUARES]) {
        let v = self.v;
        let add = |mask: &mut [u64; MAX_SQUARES], s: u8| {
            if s != NO_SQ {
                mask[s as usize] |= bit;
            }
        };
        match r.family {
            Family::DecomposedLeaper => {
                let m = v.steps.step(r.back2, ksq);
                if m != NO_SQ {
                    add(mask, m);
                    add(mask, v.steps.step(r.back, m));
                }
            }
            Family::Equihopper => {
                let h = v.steps.step(r.back, ksq);
                if h != NO_SQ {
                    add(mask, h);
                    add(mask, v.steps.step(r.back, h));
                }
            }
            _ => {
                if r.family == Family::Locuhopper {
                    add(mask, v.steps.step(r.fwd, ksq));
                }
                let mut s = v.steps.step(r.back, ksq);
                for _ in 0..MAX_SQUARES {
                    if s == NO_SQ || s == ksq {
                        break;
                    }
                    add(mask, s);
                    s = v.steps.step(r.back, s);
                }
            }
        }
    }
}
