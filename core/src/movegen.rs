//! Move generation and attack detection, generic over the variant's data.
//!
//! Pseudo-legal moves come from each piece's compiled components: one match
//! per component on the family, never dynamic dispatch. [`targets`] walks
//! one component and reports every landing square (and, for captures, the
//! square of the victim); generation and attack detection share it, so a
//! family's rules are written once.
//!
//! Legality then takes one of two paths:
//! - the fast path (`Variant::simple`: only leapers, riders and pawns, one
//!   royal piece): checkers, check mask and pins are computed once per node,
//!   so a move is judged legal without being played; only royal moves and en
//!   passant look further;
//! - the general path: each pseudo-legal move is played on a copy and the
//!   mover's royal piece is tested. Every family and condition that breaks
//!   the assumptions of the fast path (hurdles, lame legs, rebirth, colour
//!   changes) uses this path automatically.
//!
//! Conventions for all families: a hole (vanished square) is not a square:
//! nothing lands on it, it stops rides and is no hurdle. A walk that comes
//! back to its start square (wrapped boards) stops there.

use crate::geometry::{SquareSet, MAX_SQUARES, NO_SQ};
use crate::moves::{Move, MoveFlag, MoveList};
use crate::piece::{Color, Family, Mode, Piece};
use crate::position::{castle_targets, Position, KING_SIDE, QUEEN_SIDE};
use crate::variant::{ComplexRay, Component, Variant};

/// Reports a landing square `to`; `victim` is `NO_SQ` for a quiet move,
/// else the square of the captured piece (`to` itself, except for locust
/// captures). Returns true to stop the walk early.
pub trait Sink {
    fn hit(&mut self, to: u8, victim: u8) -> bool;
}

impl<F: FnMut(u8, u8) -> bool> Sink for F {
    #[inline(always)]
    fn hit(&mut self, to: u8, victim: u8) -> bool {
        self(to, victim)
    }
}

/// Walks component `c` of a piece of colour `us` standing on `from`, on
/// `board`, reporting every destination it allows (mode included). Returns
/// true if the sink stopped the walk.
#[inline(always)]
pub fn targets(
    v: &Variant,
    board: &[Piece; MAX_SQUARES],
    from: u8,
    us: Color,
    c: &Component,
    sink: &mut impl Sink,
) -> bool {
    if v.holes.skip {
        return crate::wormhole::skip_targets(v, board, from, us, c, sink);
    }
    plain_targets(v, board, from, us, c, sink)
}

/// [`targets`] on a board without hole-skipping movement.
#[inline(always)]
fn plain_targets(
    v: &Variant,
    board: &[Piece; MAX_SQUARES],
    from: u8,
    us: Color,
    c: &Component,
    sink: &mut impl Sink,
) -> bool {
    let steps = &v.steps;
    let quiet_ok = c.mode != Mode::CaptureOnly;
    let capture_ok = c.mode != Mode::MoveOnly;
    let ci = us.index();
    // Square states.
    let is_sq = |s: u8| s != NO_SQ && board[s as usize] != Piece::HOLE;
    let empty = |s: u8| board[s as usize].is_empty();
    let enemy = |s: u8| {
        let p = board[s as usize];
        p.is_piece() && p.color() != us
    };
    // Landing on `s` by an ordinary move: quiet if empty, capture if enemy.
    // Returns (stop walk, square was empty).
    macro_rules! land {
        ($s:expr) => {{
            let s = $s;
            if !is_sq(s) || s == from {
                (false, false)
            } else if empty(s) {
                (quiet_ok && sink.hit(s, NO_SQ), true)
            } else if enemy(s) {
                (capture_ok && sink.hit(s, s), false)
            } else {
                (false, false)
            }
        }};
    }
    // Rides from `start` along `d`: every empty square, then the first
    // piece if enemy. Returns true if the sink stopped.
    macro_rules! ride {
        ($start:expr, $d:expr) => {{
            let d = $d;
            let mut s = steps.step(d, $start);
            let mut stop = false;
            for _ in 0..MAX_SQUARES {
                if !is_sq(s) || s == from {
                    break;
                }
                let (st, was_empty) = land!(s);
                if st {
                    stop = true;
                    break;
                }
                if !was_empty {
                    break;
                }
                s = steps.step(d, s);
            }
            stop
        }};
    }
    // First piece along `d` after `start` (the hurdle), or NO_SQ.
    let first_piece = |start: u8, d: u8| -> u8 {
        let mut s = steps.step(d, start);
        for _ in 0..MAX_SQUARES {
            if !is_sq(s) || s == from {
                return NO_SQ;
            }
            if !empty(s) {
                return s;
            }
            s = steps.step(d, s);
        }
        NO_SQ
    };

    let dirs = &c.dirs[ci];
    match c.family {
        Family::Leaper => {
            for &d in dirs {
                if land!(steps.step(d, from)).0 {
                    return true;
                }
            }
        }
        Family::Rider => {
            for &d in dirs {
                if ride!(from, d) {
                    return true;
                }
            }
        }
        Family::DecomposedLeaper => {
            for (i, &d) in dirs.iter().enumerate() {
                let m = steps.step(d, from);
                if is_sq(m) && empty(m) && land!(steps.step(c.dirs2[ci][i], m)).0 {
                    return true;
                }
            }
        }
        Family::DoubleLeaper => {
            for (i, &d) in dirs.iter().enumerate() {
                let m = steps.step(d, from);
                let (stop, was_empty) = land!(m);
                if stop {
                    return true;
                }
                if was_empty && land!(steps.step(c.dirs2[ci][i], m)).0 {
                    return true;
                }
            }
        }
        Family::LeaperRider => {
            for (i, &d) in dirs.iter().enumerate() {
                let m = steps.step(d, from);
                let (stop, was_empty) = land!(m);
                if stop || (was_empty && ride!(m, c.dirs2[ci][i])) {
                    return true;
                }
            }
        }
        Family::DecomposedLeaperRider => {
            for (i, &d) in dirs.iter().enumerate() {
                let m = steps.step(d, from);
                if is_sq(m) && m != from && empty(m) && ride!(m, c.dirs2[ci][i]) {
                    return true;
                }
            }
        }
        Family::DecomposedRider => {
            for (i, &d) in dirs.iter().enumerate() {
                let e = c.dirs2[ci][i];
                let mut cur = from;
                for _ in 0..MAX_SQUARES {
                    let m = steps.step(d, cur);
                    if !is_sq(m) || m == from || !empty(m) {
                        break;
                    }
                    let (stop, was_empty) = land!(steps.step(e, m));
                    if stop {
                        return true;
                    }
                    if !was_empty {
                        break;
                    }
                    cur = steps.step(e, m);
                }
            }
        }
        Family::DoubleRider => {
            for (i, &d) in dirs.iter().enumerate() {
                let legs = [d, c.dirs2[ci][i]];
                let mut cur = from;
                for n in 0..2 * MAX_SQUARES {
                    let (stop, was_empty) = land!(steps.step(legs[n & 1], cur));
                    if stop {
                        return true;
                    }
                    if !was_empty {
                        break;
                    }
                    cur = steps.step(legs[n & 1], cur);
                }
            }
        }
        Family::HornedRider => {
            for (i, &d) in dirs.iter().enumerate() {
                // Ride; on meeting a friendly piece (one it cannot take),
                // leap once by the step turned 90° left or right from the
                // last square reached, then ride on in the first direction.
                let mut last = from;
                let mut s = steps.step(d, from);
                let mut blocked_by_friend = false;
                for _ in 0..MAX_SQUARES {
                    if !is_sq(s) || s == from {
                        break;
                    }
                    let (stop, was_empty) = land!(s);
                    if stop {
                        return true;
                    }
                    if !was_empty {
                        blocked_by_friend = !enemy(s);
                        break;
                    }
                    last = s;
                    s = steps.step(d, s);
                }
                if !blocked_by_friend {
                    continue;
                }
                for turn in [c.dirs2[ci][i], c.dirs3[ci][i]] {
                    let t = steps.step(turn, last);
                    let (stop, was_empty) = land!(t);
                    if stop || (was_empty && ride!(t, d)) {
                        return true;
                    }
                }
            }
        }
        Family::Hopper => {
            for &d in dirs {
                let h = first_piece(from, d);
                if h != NO_SQ && land!(steps.step(d, h)).0 {
                    return true;
                }
            }
        }
        Family::ProlongedHopper => {
            for &d in dirs {
                let h = first_piece(from, d);
                if h != NO_SQ && ride!(h, d) {
                    return true;
                }
            }
        }
        Family::ContraHopper => {
            for &d in dirs {
                let h = steps.step(d, from);
                if is_sq(h) && h != from && !empty(h) && ride!(h, d) {
                    return true;
                }
            }
        }
        Family::Equihopper => {
            for &d in dirs {
                let h = steps.step(d, from);
                if is_sq(h) && h != from && !empty(h) && land!(steps.step(d, h)).0 {
                    return true;
                }
            }
        }
        Family::Kanghopper => {
            for &d in dirs {
                let h1 = first_piece(from, d);
                if h1 == NO_SQ {
                    continue;
                }
                let h2 = first_piece(h1, d);
                if h2 != NO_SQ && land!(steps.step(d, h2)).0 {
                    return true;
                }
            }
        }
        Family::Locuhopper | Family::Marine | Family::Chinese => {
            for &d in dirs {
                // Quiet moves: rider moves (Marine, Chinese), never the
                // Locuhopper's, which only moves by capturing.
                let mut s = steps.step(d, from);
                for _ in 0..MAX_SQUARES {
                    if !is_sq(s) || s == from || !empty(s) {
                        break;
                    }
                    if c.family != Family::Locuhopper && quiet_ok && sink.hit(s, NO_SQ) {
                        return true;
                    }
                    s = steps.step(d, s);
                }
                if !capture_ok || !is_sq(s) || s == from {
                    continue;
                }
                if c.family == Family::Chinese {
                    // Over exactly one hurdle, then to the first piece.
                    let t = first_piece(s, d);
                    if t != NO_SQ && enemy(t) && sink.hit(t, t) {
                        return true;
                    }
                } else if enemy(s) {
                    // Locust: capture the first piece, land just beyond.
                    let t = steps.step(d, s);
                    if is_sq(t) && (empty(t) || t == from) && sink.hit(t, s) {
                        return true;
                    }
                }
            }
        }
        Family::Pawn => {}
    }
    false
}

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
        self.filter_legal(list);
    }

    /// The legal captures (en passant and locust captures included) and
    /// promotions: what a quiescence search looks at. Quiet moves are not
    /// generated at all, so an empty list does not mean mate or stalemate.
    pub fn legal_noisy_moves(&self, list: &mut MoveList) {
        list.clear();
        self.gen_moves(list, true);
        self.filter_legal(list);
    }

    fn filter_legal(&self, list: &mut MoveList) {
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
            self.filter_fast(list);
        } else if self.v.caps.hole_legality {
            self.filter_skip(list);
        } else if self.v.caps.board_copy_legality {
            list.retain(|m| self.legal_general(m));
        } else {
            list.retain(|m| self.legal_by_play(m));
        }
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

    /// Number of legal moves (perft's last ply).
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// Pseudo-legal moves: every move by the pieces' movement, castling
    /// included (castling is checked fully here, it is rare).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        self.gen_moves(list, false);
    }

    /// Pseudo-legal moves; with `noisy`, captures and promotions only.
    fn gen_moves(&self, list: &mut MoveList, noisy: bool) {
        let v = self.v;
        if v.capture.is_some() {
            // Capture styles and frozen pieces (`baroque.rs`).
            self.gen_passive(list, noisy);
            if !v.conditions.is_empty() {
                self.adjust_moves(list, noisy);
            }
            return;
        }
        // Hole-skipping movement is a separate instance of the loop, so
        // that the ordinary generator does not test for it per piece.
        if v.holes.skip {
            self.gen_moves_by::<true>(list, noisy);
        } else {
            self.gen_moves_by::<false>(list, noisy);
        }
    }

    /// Pseudo-legal moves with hole-skipping movement (`SKIP`) or not.
    #[inline(always)]
    fn gen_moves_by<const SKIP: bool>(&self, list: &mut MoveList, noisy: bool) {
        let v = self.v;
        let us = self.side;
        let board = &self.board;
        for from in self.occ[us.index()].iter() {
            let start = list.len();
            let kind = self.board[from as usize].kind();
            if Some(kind) == v.pawn_kind {
                if SKIP {
                    self.gen_pawn_skip(from, list, noisy);
                } else {
                    self.gen_pawn(from, list, noisy);
                }
                continue;
            }
            for c in &v.components[kind as usize] {
                let mut push = |to: u8, victim: u8| {
                    if noisy && victim == NO_SQ && board[to as usize].is_empty() {
                        return false;
                    }
                    if victim == NO_SQ || victim == to {
                        list.push(Move::new(from, to, MoveFlag::Normal));
                    } else {
                        list.push(Move::locust(from, to, victim));
                    }
                    false
                };
                if SKIP {
                    crate::wormhole::skip_targets(v, &self.board, from, us, c, &mut push);
                } else {
                    plain_targets(v, &self.board, from, us, c, &mut push);
                }
            }
            if v.dedup_kinds & (1 << kind) != 0 {
                list.dedup_from(start);
            }
        }
        if !noisy && v.castling && self.royal[us.index()] != NO_SQ {
            self.gen_castling(list);
        }
        if !v.conditions.is_empty() {
            self.adjust_moves(list, noisy);
        }
    }

    fn gen_pawn(&self, from: u8, list: &mut MoveList, noisy: bool) {
        let v = self.v;
        let us = self.side;
        let promo_rank = v.promotion_rank(us);
        let geo = v.geometry;
        let push = |to: u8, list: &mut MoveList| {
            if geo.rank_of(to) == promo_rank && !v.promotion.is_empty() {
                match self.promotion_choices(us) {
                    PromotionChoices::All => {
                        for &k in &v.promotion {
                            list.push(Move::with_promotion(from, to, k));
                        }
                    }
                    PromotionChoices::Some(mask) => {
                        for &k in &v.promotion {
                            if mask & (1 << k) != 0 {
                                list.push(Move::with_promotion(from, to, k));
                            }
                        }
                    }
                    PromotionChoices::StayPawn => list.push(Move::new(from, to, MoveFlag::Normal)),
                }
            } else {
                list.push(Move::new(from, to, MoveFlag::Normal));
            }
        };
        // Pawns never cross a horizontal seam (cylinders): they move towards
        // their promotion rank and stop there.
        let wraps = geo.topology.wraps_ranks();
        let forward = |to: u8| !wraps || v.relative_rank(us, to) > v.relative_rank(us, from);
        let fwd = v.pawn_push[us.index()];
        let one = v.steps.step(fwd, from);
        if one != NO_SQ && forward(one) && self.board[one as usize].is_empty() {
            if noisy {
                if geo.rank_of(one) == promo_rank && !v.promotion.is_empty() {
                    push(one, list);
                }
            } else {
                push(one, list);
            }
            if !noisy && v.double_step && v.relative_rank(us, from) == 1 {
                let two = v.steps.step(fwd, one);
                if two != NO_SQ && self.board[two as usize].is_empty() {
                    list.push(Move::new(from, two, MoveFlag::DoubleStep));
                }
            }
        }
        let kamikaze = v.conditions.has(crate::conditions::Condition::Kamikaze);
        for &d in &v.pawn_captures[us.index()] {
            let to = v.steps.step(d, from);
            if to == NO_SQ || !forward(to) {
                continue;
            }
            let q = self.board[to as usize];
            if q.is_piece() && q.color() != us {
                if kamikaze {
                    // A kamikaze pawn vanishes on capturing: no promotion.
                    list.push(Move::new(from, to, MoveFlag::Normal));
                } else {
                    push(to, list);
                }
            } else if to == self.ep {
                list.push(Move::new(from, to, MoveFlag::EnPassant));
            }
        }
    }

    /// The promotions a pawn of `us` may make now (Singlebox limits them to
    /// the kinds missing from the side's original set).
    #[inline]
    pub(crate) fn promotion_choices(&self, us: Color) -> PromotionChoices {
        use crate::conditions::Condition;
        let v = self.v;
        let cond = v.conditions;
        if !cond.any(&[Condition::SingleBox1, Condition::SingleBox2]) {
            return PromotionChoices::All;
        }
        let mut mask = 0u32;
        for &k in &v.promotion {
            let have = self.occ[us.index()]
                .iter()
                .filter(|&s| self.board[s as usize] == Piece::new(k, us))
                .count();
            if have < v.rules.start_count[us.index()][k as usize] as usize {
                mask |= 1 << k;
            }
        }
        if mask == 0 && cond.has(Condition::SingleBox2) {
            PromotionChoices::StayPawn
        } else {
            PromotionChoices::Some(mask)
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
                .all(|s| geo.rank_of(s) == geo.rank_of(ksq) && self.royal_safe_on(s, them));
            if !safe {
                continue;
            }
            let flag = if wing == KING_SIDE {
                MoveFlag::CastleKing
            } else {
                MoveFlag::CastleQueen
            };
            let m = Move::new(ksq, kto, flag);
            if rsq == kto || kto == ksq || !v.caps.simple_castling {
                // Chess960 corners, and hurdle pieces for which the moved
                // rook may matter: play it out.
                if !self.legal_by_play(m) {
                    continue;
                }
            }
            list.push(m);
        }
    }

    /// Fast legality: computes checkers, the check mask and pins of the
    /// leaper/rider attackers from the royal square, then keeps only legal
    /// moves. Hopper-like and lame attackers (if any) are tested on a board
    /// copy, but only for moves that touch a square that matters to them
    /// (`sensitive`): the lines, legs and attacker squares around the royal.
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
        let mut ray_mask = [0u64; MAX_SQUARES];
        let mut ray_hits = 0u64;
        if per_ray {
            for (i, r) in rays.iter().enumerate() {
                self.mark_ray(ksq, r, 1 << i, &mut ray_mask);
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
                if matches!(m.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen) {
                    return true; // fully checked by gen_castling
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
                ray_mask[from as usize] | ray_mask[to as usize]
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

/// Which promotions a pawn may make (Singlebox).
#[derive(Clone, Copy)]
pub(crate) enum PromotionChoices {
    All,
    /// The kinds of this bit mask only (none: the pawn cannot promote, so
    /// it cannot reach the last rank).
    Some(u32),
    /// Singlebox type 2: none is possible, the pawn arrives as a pawn.
    StayPawn,
}

impl Position {
    /// Would the side to move's royal piece be safe on `s` (castling's
    /// squares)? Under rules that change check, the royal piece is put
    /// there and the rules asked.
    fn royal_safe_on(&self, s: u8, them: Color) -> bool {
        if self.v.caps.plain_check {
            return !self.attacked(s, them);
        }
        let us = self.side;
        let k = self.royal[us.index()];
        let mut next = self.clone();
        if s != k {
            let p = next.board[k as usize];
            next.remove_piece(k);
            if next.board[s as usize].is_piece() {
                next.remove_piece(s);
            }
            next.add_piece(s, p);
            next.royal[us.index()] = s;
        }
        !next.royal_capturable(them)
    }
}

/// Reverse rays tracked one by one in `filter_fast`; variants with more use
/// the all-rays test.
const MAX_TRACKED_RAYS: usize = 64;

/// Attack detection on a given board (the position's, or one with the king
/// lifted): walks the variant's attack plan outwards from `sq`, then asks
/// the pieces with complex families whether they could capture on `sq`.
#[inline]
fn attacked_on(pos: &Position, board: &[Piece; MAX_SQUARES], sq: u8, by: Color) -> bool {
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
fn attacked_by_complex(pos: &Position, board: &[Piece; MAX_SQUARES], sq: u8, by: Color) -> bool {
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
fn complex_ray_hits(
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
