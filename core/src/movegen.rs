//! Pseudo-legal move generation, generic over the variant's data.
//!
//! Pseudo-legal moves come from each piece's compiled components: one match
//! per component on the family, never dynamic dispatch. [`targets`] walks
//! one component and reports every landing square (and, for captures, the
//! square of the victim); generation and attack detection (`attacks.rs`)
//! share it, so a family's rules are written once. Pawns and castling are
//! generated here too; legality (`legality.rs`) and the conditions' moves
//! and filters (`rules.rs`) then take the list.
//!
//! Conventions for all families: a hole (vanished square) is not a square:
//! nothing lands on it, it stops rides and is no hurdle. A walk that comes
//! back to its start square (wrapped boards) stops there.

use crate::geometry::{MAX_SQUARES, NO_SQ};
use crate::legality::Pending;
use crate::moves::{Move, MoveFlag, MoveList};
use crate::piece::{Color, Family, Mode, Piece};
use crate::position::{castle_targets, Position, KING_SIDE, QUEEN_SIDE};
use crate::variant::{Component, Variant};

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
    /// All legal moves.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.pseudo_legal_moves(list);
        self.filter_legal(list);
    }

    /// The legal captures (en passant and locust captures included) and
    /// promotions: what a quiescence search looks at. Quiet moves are not
    /// generated at all, so an empty list does not mean mate or stalemate.
    /// Capture chains come only followed to their end (`gen_chains`).
    pub fn legal_noisy_moves(&self, list: &mut MoveList) {
        list.clear();
        self.gen_moves(list, true);
        self.filter_legal(list);
    }

    /// The moves a search tries at a node, whose side to move is in check
    /// exactly when `in_check` (the search knows it): the legal moves, or
    /// some of the pseudo-legal ones left to be confirmed by
    /// [`Position::candidate_legal`] once played. Those are every move where
    /// legality is tested lazily (`Capabilities::lazy_legality`); under
    /// `pin_legality` the royal piece's moves, and out of check with
    /// `lazy_pins` all (`Position::pending_test`). Empty when there is no
    /// legal move; otherwise [`Position::has_legal_candidate`] says whether
    /// one is legal.
    #[inline]
    pub fn candidate_moves(&self, list: &mut MoveList, in_check: bool) {
        self.candidates(list, false, in_check);
    }

    /// [`Position::legal_noisy_moves`], or the candidates among the
    /// pseudo-legal captures and promotions (see
    /// [`Position::candidate_moves`]).
    #[inline]
    pub fn candidate_noisy_moves(&self, list: &mut MoveList, in_check: bool) {
        self.candidates(list, true, in_check);
    }

    #[inline]
    fn candidates(&self, list: &mut MoveList, noisy: bool, in_check: bool) {
        debug_assert_eq!(in_check, self.in_check(), "{}", self.to_fen());
        list.clear();
        self.gen_moves(list, noisy);
        let caps = &self.v.caps;
        let royal = self.royal[self.side.index()] != NO_SQ;
        // `lazy_pins` is a refinement of `pin_legality` (a test that
        // clears the latter gets the filtered lists).
        let lazy_pins = caps.pin_legality && caps.lazy_pins;
        if caps.lazy_legality || (lazy_pins && royal && !in_check) {
            return;
        }
        if caps.pin_legality && royal {
            self.filter_fast(list, true);
        } else {
            self.filter_legal(list);
        }
    }

    /// Is the candidate `m` (from [`Position::candidate_moves`]), played
    /// from here into `next`, legal? The test it was left
    /// ([`Position::pending_test`]): [`Position::legal_after`], a look along
    /// one line, or none.
    #[inline]
    pub fn candidate_legal(&self, m: Move, next: &Position) -> bool {
        match self.pending_test(m) {
            Pending::None => true,
            Pending::Line => !self.opens_line(m),
            Pending::Whole => self.legal_after(m, next),
        }
    }

    /// [`Position::candidate_legal`] for a candidate not played
    /// ([`Position::is_legal`] for the whole test).
    #[inline]
    pub fn candidate_is_legal(&self, m: Move) -> bool {
        match self.pending_test(m) {
            Pending::None => true,
            Pending::Line => !self.opens_line(m),
            Pending::Whole => self.is_legal(m),
        }
    }

    /// Is one of the candidates `list` (all of this position's,
    /// [`Position::candidate_moves`]) legal? Stops at the first legal one.
    #[inline]
    pub fn has_legal_candidate(&self, list: &MoveList) -> bool {
        list.iter().any(|m| self.candidate_is_legal(m))
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
        if v.chains.is_some() {
            // Stones, lines and capture chains (`fanorona.rs`).
            self.gen_chains(list, noisy);
            return;
        }
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
