//! Move generation and attack detection, generic over the variant's data.
//!
//! Pseudo-legal moves come from each piece's compiled components (one match
//! per component on the family, never dynamic dispatch). Legality then takes
//! one of two paths:
//! - the fast path (`Variant::simple`: only leapers, riders and pawns, one
//!   royal piece): checkers, check mask and pins are computed once per node,
//!   so a move is judged legal without being played; only royal moves and en
//!   passant look further;
//! - the general path: each pseudo-legal move is played on a copy and the
//!   mover's royal piece is tested. Every family and condition that breaks
//!   the assumptions of the fast path (hurdles, lame legs, rebirth, colour
//!   changes) uses this path automatically.

use crate::geometry::{SquareSet, MAX_SQUARES, NO_SQ};
use crate::moves::{Move, MoveFlag, MoveList};
use crate::piece::{Color, Family, Mode, Piece};
use crate::position::{castle_targets, Position, KING_SIDE, QUEEN_SIDE};

impl Position {
    /// Is `sq` attacked by a piece of colour `by`?
    #[inline]
    pub fn attacked(&self, sq: u8, by: Color) -> bool {
        attacked_on(self, &self.board, sq, by)
    }

    /// All legal moves.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.pseudo_legal_moves(list);
        if self.v.simple {
            self.filter_fast(list);
        } else {
            let us = self.side;
            list.retain(|m| {
                let mut next = self.clone();
                next.play(m);
                let k = next.royal[us.index()];
                k == NO_SQ || !next.attacked(k, us.flip())
            });
        }
    }

    /// Number of legal moves (perft's last ply).
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// Is the move legal here? (Slow: for input checking, not search.)
    pub fn is_legal(&self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.contains(m)
    }

    /// Pseudo-legal moves: every move by the pieces' movement, castling
    /// included (castling is checked fully here, it is rare).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        let v = self.v;
        let us = self.side;
        let wraps = v.geometry.topology != crate::geometry::Topology::Plain;
        for from in self.occ[us.index()].iter() {
            let start = list.len();
            let p = self.board[from as usize];
            let kind = p.kind();
            if Some(kind) == v.pawn_kind {
                self.gen_pawn(from, list);
                continue;
            }
            for c in &v.components[kind as usize] {
                match c.family {
                    Family::Leaper => {
                        for &d in &c.dirs {
                            let to = v.steps.step(d, from);
                            if to != NO_SQ {
                                self.push_target(from, to, c.mode, list);
                            }
                        }
                    }
                    Family::Rider => {
                        for &d in &c.dirs {
                            let mut to = v.steps.step(d, from);
                            while to != NO_SQ && to != from {
                                let q = self.board[to as usize];
                                if q.is_empty() {
                                    if c.mode != Mode::CaptureOnly {
                                        list.push(Move::new(from, to, MoveFlag::Normal));
                                    }
                                } else {
                                    if q.is_piece() && q.color() != us && c.mode != Mode::MoveOnly {
                                        list.push(Move::new(from, to, MoveFlag::Normal));
                                    }
                                    break;
                                }
                                to = v.steps.step(d, to);
                            }
                        }
                    }
                    // Other families are refused by Variant::build until
                    // their generators land.
                    _ => {}
                }
            }
            if wraps {
                list.dedup_from(start);
            }
        }
        if v.castling && self.royal[us.index()] != NO_SQ {
            self.gen_castling(list);
        }
    }

    #[inline(always)]
    fn push_target(&self, from: u8, to: u8, mode: Mode, list: &mut MoveList) {
        let q = self.board[to as usize];
        if q.is_empty() {
            if mode != Mode::CaptureOnly {
                list.push(Move::new(from, to, MoveFlag::Normal));
            }
        } else if q.is_piece() && q.color() != self.side && mode != Mode::MoveOnly {
            list.push(Move::new(from, to, MoveFlag::Normal));
        }
    }

    fn gen_pawn(&self, from: u8, list: &mut MoveList) {
        let v = self.v;
        let us = self.side;
        let promo_rank = v.promotion_rank(us);
        let geo = v.geometry;
        let push = |to: u8, list: &mut MoveList| {
            if geo.rank_of(to) == promo_rank && !v.promotion.is_empty() {
                for &k in &v.promotion {
                    list.push(Move::with_promotion(from, to, k));
                }
            } else {
                list.push(Move::new(from, to, MoveFlag::Normal));
            }
        };
        let fwd = v.pawn_push[us.index()];
        let one = v.steps.step(fwd, from);
        if one != NO_SQ && self.board[one as usize].is_empty() {
            push(one, list);
            if v.double_step && v.relative_rank(us, from) == 1 {
                let two = v.steps.step(fwd, one);
                if two != NO_SQ && self.board[two as usize].is_empty() {
                    list.push(Move::new(from, two, MoveFlag::DoubleStep));
                }
            }
        }
        for &d in &v.pawn_captures[us.index()] {
            let to = v.steps.step(d, from);
            if to == NO_SQ {
                continue;
            }
            let q = self.board[to as usize];
            if q.is_piece() && q.color() != us {
                push(to, list);
            } else if to == self.ep {
                list.push(Move::new(from, to, MoveFlag::EnPassant));
            }
        }
    }

    /// Castling: king and rook squares between their start and destination
    /// must be empty (but for each other), the king may not be in check nor
    /// pass over or land on an attacked square.
    fn gen_castling(&self, list: &mut MoveList) {
        let v = self.v;
        let us = self.side;
        let ksq = self.royal[us.index()];
        let geo = v.geometry;
        for wing in [KING_SIDE, QUEEN_SIDE] {
            let rsq = self.castle_rooks[us.index()][wing];
            if rsq == NO_SQ {
                continue;
            }
            let (kto, rto) = castle_targets(v, us, wing);
            let span = |a: u8, b: u8| {
                let (lo, hi) = (a.min(b), a.max(b));
                lo..=hi
            };
            let clear = span(ksq, kto)
                .chain(span(rsq, rto))
                .all(|s| s == ksq || s == rsq || self.board[s as usize].is_empty());
            if !clear {
                continue;
            }
            let them = us.flip();
            // Squares the king stands on, passes and reaches (same rank).
            let safe = span(ksq, kto)
                .all(|s| geo.rank_of(s) == geo.rank_of(ksq) && !self.attacked(s, them));
            if !safe {
                continue;
            }
            let flag = if wing == KING_SIDE {
                MoveFlag::CastleKing
            } else {
                MoveFlag::CastleQueen
            };
            if rsq == kto || (kto == ksq) {
                // Chess960 corner cases need a rook-hidden test; play it out.
                let m = Move::new(ksq, kto, flag);
                let mut next = self.clone();
                next.play(m);
                if !next.attacked(next.royal[us.index()], them) {
                    list.push(m);
                }
                continue;
            }
            list.push(Move::new(ksq, kto, flag));
        }
    }

    /// Fast legality for leaper/rider variants: computes checkers, the check
    /// mask and pins from the royal square, then keeps only legal moves.
    fn filter_fast(&self, list: &mut MoveList) {
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
        let mut check_mask = SquareSet::full(MAX_SQUARES);
        // Up to a handful of pinned pieces: (square, allowed squares).
        let mut pins: [(u8, SquareSet); 16] = [(NO_SQ, SquareSet::EMPTY); 16];
        let mut npins = 0;

        for r in &v.attack_rays {
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
            // Walk the ray: squares up to and including the first piece.
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
        // Pawn checks.
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

        let mut board_wo_king = [Piece::EMPTY; MAX_SQUARES];
        let mut have_board = false;
        let pins = &pins[..npins];
        list.retain(|m| {
            let from = m.from();
            if from == ksq {
                if matches!(m.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen) {
                    return true; // fully checked by gen_castling
                }
                if !have_board {
                    board_wo_king = self.board;
                    board_wo_king[ksq as usize] = Piece::EMPTY;
                    have_board = true;
                }
                return !attacked_on(self, &board_wo_king, m.to(), them);
            }
            if m.flag() == MoveFlag::EnPassant {
                let mut next = self.clone();
                next.play(m);
                return !next.attacked(next.royal[us.index()], them);
            }
            let n = checkers.len();
            if n > 1 {
                return false;
            }
            let to = m.to();
            if n == 1 && !check_mask.contains(to) {
                return false;
            }
            for &(sq, allowed) in pins {
                if sq == from && !allowed.contains(to) {
                    return false;
                }
            }
            true
        });
    }
}

/// Attack detection on a given board (the position's, or one with the king
/// lifted): walks the variant's attack plan outwards from `sq`.
#[inline]
fn attacked_on(pos: &Position, board: &[Piece; MAX_SQUARES], sq: u8, by: Color) -> bool {
    let v = pos.v;
    for r in &v.attack_rays {
        let d = r.dir;
        let mut s = v.steps.step(d, sq);
        if s == NO_SQ {
            continue;
        }
        let q = board[s as usize];
        if q.is_piece() {
            if q.color() == by && (r.leap | r.ride) & (1 << q.kind()) != 0 {
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
                if q.color() == by && r.ride & (1 << q.kind()) != 0 {
                    return true;
                }
                break;
            }
            if q == Piece::HOLE {
                break;
            }
        }
    }
    if let Some(pk) = v.pawn_kind {
        // A pawn of `by` attacks sq from sq minus its capture vector, which
        // is sq plus the other colour's capture vector.
        let pawn = Piece::new(pk, by);
        for &d in &v.pawn_captures[by.flip().index()] {
            let s = v.steps.step(d, sq);
            if s != NO_SQ && board[s as usize] == pawn {
                return true;
            }
        }
    }
    false
}
