//! Passive captures and immobilisation (Baroque / Ultima, seed 001 and
//! `ref/vchess/NOTES.md`), as data of the variant: each kind has a
//! [`CaptureStyle`], some kinds freeze the enemies next to them.
//!
//! A capture is then a property of the move, not of its landing square: the
//! generator works out the victims of each landing and stores them in the
//! move ([`MoveFlag::Passive`], one bit per way of capturing, see
//! [`VictimCode`]), so `Position::is_capture` and `Position::captures_of`
//! answer without looking at the board again, and `play` removes exactly
//! those pieces. A from/to pair always has one set of victims: every capture
//! the geometry of the move allows happens (the notes' rule; a chameleon's
//! captures in several ways combine), so SPEC notation needs no suffix.
//!
//! Per node the frozen squares of a side are computed once (a few
//! neighbour looks around each immobilizer and chameleon) and the generator
//! skips them. Check is "a non-frozen enemy could capture the royal piece by
//! its own capture rule", answered by reverse walks from the royal square,
//! one per style; the tests compare all of it with a literal generator.

use crate::attacks::simple_attackers;
use crate::geometry::{Geometry, SquareSet, Steps, NO_SQ};
use crate::movegen::targets;
use crate::moves::{Move, MoveFlag, MoveList};
use crate::piece::{Color, Family, Mode, PieceDef};
use crate::position::Position;
use crate::variant::MAX_KINDS;

/// How a piece kind captures.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum CaptureStyle {
    /// Moves onto the victim (orthodox; the Baroque king).
    #[default]
    Replace,
    /// Pincer pawn: after the move, each orthogonal neighbour that is an
    /// enemy with a friendly piece just beyond it.
    Pinch,
    /// Coordinator: the enemies on the two other corners of the rectangle
    /// of its landing square and its own royal piece.
    Coordinate,
    /// Long leaper: leaps along its line over enemies, each followed by an
    /// empty square, and may stop on any empty square after one.
    LongLeap,
    /// Withdrawer: the enemy next to its start square, opposite to its move.
    Withdraw,
    /// Captures each kind in that kind's style (pinches only by an
    /// orthogonal move); never captures chameleons or pieces that do not
    /// capture, and a royal piece that captures by replacement only from
    /// next to it (check).
    Chameleon,
    /// Never captures (the immobilizer).
    None,
}

/// The passive-capture part of a variant definition.
#[derive(Clone, Debug, Default)]
pub struct CaptureSpec {
    /// Styles by piece letter; letters not listed capture by replacement.
    pub styles: Vec<(char, CaptureStyle)>,
    /// Letters of the kinds that freeze the enemy pieces next to them.
    pub immobilizers: Vec<char>,
}

impl CaptureSpec {
    pub fn is_empty(&self) -> bool {
        self.immobilizers.is_empty() && self.styles.iter().all(|s| s.1 == CaptureStyle::Replace)
    }
}

/// The 8 unit vectors in turning order: the opposite of `i` is `i ^ 4`,
/// the orthogonal ones are the even `i`.
const UNIT: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Index into [`UNIT`] of the sign vector `(dx, dy)`, by `(dy+1)*3 + dx+1`.
const UNIT_OF_SIGNS: [u8; 9] = [5, 4, 3, 6, 255, 2, 7, 0, 1];

/// The victims of a passive capture, stored in the move's extra byte:
/// bits 0-3 a pinch towards orthogonal unit 0, 2, 4, 6; bit 4 the corner
/// (landing file, royal rank), bit 5 (royal file, landing rank); bit 6 the
/// piece withdrawn from; bit 7 every piece between from and to (leaps).
pub struct VictimCode;

impl VictimCode {
    pub const CORNER_1: u8 = 1 << 4;
    pub const CORNER_2: u8 = 1 << 5;
    pub const WITHDRAW: u8 = 1 << 6;
    pub const LEAP: u8 = 1 << 7;
}

/// The compiled rules: styles and masks by kind, unit directions.
#[derive(Clone, Debug)]
pub struct CaptureRules {
    pub style: [CaptureStyle; MAX_KINDS],
    /// Kinds of each style, as bit masks over kind numbers.
    pub pinch: u32,
    pub coordinate: u32,
    pub leap: u32,
    pub withdraw: u32,
    pub chameleon: u32,
    pub immobilizer: u32,
    /// Step-table direction numbers of the 8 unit vectors.
    pub unit: [u8; 8],
    /// Per kind, the unit directions it rides along (bit `i`: `UNIT[i]`);
    /// zero for kinds that capture by replacement (generated normally).
    pub rides: [u8; MAX_KINDS],
}

impl CaptureRules {
    /// Compiles the spec; `None` when no kind captures passively and none
    /// freezes. Passive kinds must move as riders along unit vectors to
    /// empty squares only (their captures are their styles').
    pub fn new(
        spec: &CaptureSpec,
        pieces: &[PieceDef],
        geo: &Geometry,
        steps: &mut Steps,
    ) -> Result<Option<CaptureRules>, String> {
        if spec.is_empty() {
            return Ok(None);
        }
        let kind_of = |l: char| {
            pieces
                .iter()
                .position(|p| p.letter == l.to_ascii_lowercase())
                .ok_or_else(|| format!("capture style for '{l}', which is not a piece"))
        };
        let mut r = CaptureRules {
            style: [CaptureStyle::Replace; MAX_KINDS],
            pinch: 0,
            coordinate: 0,
            leap: 0,
            withdraw: 0,
            chameleon: 0,
            immobilizer: 0,
            unit: [0; 8],
            rides: [0; MAX_KINDS],
        };
        for (i, &(x, y)) in UNIT.iter().enumerate() {
            r.unit[i] = steps.dir(geo, x, y);
        }
        for &(l, st) in &spec.styles {
            let k = kind_of(l)?;
            r.style[k] = st;
            let mask = match st {
                CaptureStyle::Pinch => &mut r.pinch,
                CaptureStyle::Coordinate => &mut r.coordinate,
                CaptureStyle::LongLeap => &mut r.leap,
                CaptureStyle::Withdraw => &mut r.withdraw,
                CaptureStyle::Chameleon => &mut r.chameleon,
                _ => continue,
            };
            *mask |= 1 << k;
        }
        for &l in &spec.immobilizers {
            r.immobilizer |= 1 << kind_of(l)?;
        }
        for (k, p) in pieces.iter().enumerate() {
            if r.style[k] != CaptureStyle::Replace {
                r.rides[k] = unit_rides(p)?;
            }
        }
        Ok(Some(r))
    }

    #[inline(always)]
    fn has(mask: u32, kind: u8) -> bool {
        mask & (1 << kind) != 0
    }
}

/// The unit directions of a passive kind's movement (riders only).
fn unit_rides(p: &PieceDef) -> Result<u8, String> {
    let mut rides = 0u8;
    for a in &p.movement.0 {
        let ok = a.family == Family::Rider
            && a.mode == Mode::MoveOnly
            && matches!(a.v1, (0, 1) | (1, 0) | (1, 1))
            && a.filter == 0xFF;
        if !ok {
            return Err(format!(
                "'{}' captures passively, so it must move as move-only rook or bishop riders",
                p.letter
            ));
        }
        let diagonal = a.v1 == (1, 1);
        for i in 0..8 {
            if (i & 1 == 1) == diagonal {
                rides |= 1 << i;
            }
        }
    }
    Ok(rides)
}

/// The unit direction index of the move from `a` to `b` on one line.
#[inline(always)]
fn unit_between(geo: &Geometry, a: u8, b: u8) -> usize {
    let sign = |x: u8, y: u8| (y as i32 - x as i32).signum();
    let dx = sign(geo.file_of(a), geo.file_of(b));
    let dy = sign(geo.rank_of(a), geo.rank_of(b));
    UNIT_OF_SIGNS[((dy + 1) * 3 + dx + 1) as usize] as usize
}

impl Position {
    #[inline(always)]
    fn rules(&self) -> &CaptureRules {
        self.v.capture.as_ref().expect("passive rules in force")
    }

    #[inline(always)]
    fn own(&self, s: u8, c: Color) -> bool {
        let p = self.board[s as usize];
        p.is_piece() && p.color() == c
    }

    /// Is there a piece of colour `c` of a kind in `mask` on `s`?
    #[inline(always)]
    fn kind_in(&self, s: u8, c: Color, mask: u32) -> bool {
        s != NO_SQ && self.own(s, c) && CaptureRules::has(mask, self.board[s as usize].kind())
    }

    /// The pieces of `c` that cannot move: those next to an enemy
    /// immobilizer unless another chameleon or immobilizer of `c` touches
    /// it, and immobilizers of `c` next to an enemy chameleon.
    pub fn frozen(&self, c: Color) -> SquareSet {
        let mut out = SquareSet::EMPTY;
        let Some(r) = self.v.capture.as_ref() else {
            return out;
        };
        let neutral = r.chameleon | r.immobilizer;
        for s in self.occ[c.flip().index()].iter() {
            let kind = self.board[s as usize].kind();
            let freezes = CaptureRules::has(r.immobilizer, kind);
            if !freezes && !CaptureRules::has(r.chameleon, kind) {
                continue;
            }
            let (mut near, mut neutralisers, mut immobilizers) =
                (SquareSet::EMPTY, SquareSet::EMPTY, SquareSet::EMPTY);
            for &d in &r.unit {
                let t = self.v.steps.step(d, s);
                if t == NO_SQ || !self.own(t, c) {
                    continue;
                }
                near.insert(t);
                let k = self.board[t as usize].kind();
                if CaptureRules::has(neutral, k) {
                    neutralisers.insert(t);
                }
                if CaptureRules::has(r.immobilizer, k) {
                    immobilizers.insert(t);
                }
            }
            if freezes {
                // One neutraliser frees the others but not itself.
                match neutralisers.len() {
                    0 => out = out.or(near),
                    1 => out = out.or(neutralisers),
                    _ => {}
                }
            } else {
                out = out.or(immobilizers);
            }
        }
        out
    }

    /// Passive pseudo-legal generation: the movement of each piece that is
    /// not frozen, each landing with its victims; with `noisy`, captures
    /// only.
    pub(crate) fn gen_passive(&self, list: &mut MoveList, noisy: bool) {
        let v = self.v;
        let r = self.rules();
        let us = self.side;
        let frozen = self.frozen(us);
        for from in self.occ[us.index()].iter() {
            if frozen.contains(from) {
                continue;
            }
            let kind = self.board[from as usize].kind();
            if r.rides[kind as usize] == 0 {
                // Captures by replacement: the ordinary generator.
                for c in &v.components[kind as usize] {
                    let mut push = |to: u8, victim: u8| {
                        if !noisy || victim != NO_SQ {
                            list.push(Move::new(from, to, MoveFlag::Normal));
                        }
                        false
                    };
                    targets(v, &self.board, from, us, c, &mut push);
                }
                continue;
            }
            self.gen_rides(r, from, kind, list, noisy);
        }
    }

    /// The rides of a passive piece, and its leaps where its style leaps.
    fn gen_rides(&self, r: &CaptureRules, from: u8, kind: u8, list: &mut MoveList, noisy: bool) {
        let st = r.style[kind as usize];
        let leaps = matches!(st, CaptureStyle::LongLeap | CaptureStyle::Chameleon);
        for i in 0..8 {
            if r.rides[kind as usize] & (1 << i) == 0 {
                continue;
            }
            let d = r.unit[i];
            let mut s = self.v.steps.step(d, from);
            while s != NO_SQ && self.board[s as usize].is_empty() {
                push_passive(list, from, s, self.victims(r, from, s, i, st), noisy);
                s = self.v.steps.step(d, s);
            }
            if leaps {
                self.gen_leaps(r, from, s, i, st, list, noisy);
            }
        }
    }

    /// Leaps along unit `i` from the first piece `s` met by a ride.
    #[allow(clippy::too_many_arguments)]
    fn gen_leaps(
        &self,
        r: &CaptureRules,
        from: u8,
        mut s: u8,
        i: usize,
        st: CaptureStyle,
        list: &mut MoveList,
        noisy: bool,
    ) {
        let d = r.unit[i];
        let jumpable = if st == CaptureStyle::Chameleon {
            r.leap
        } else {
            u32::MAX
        };
        let them = self.side.flip();
        while self.kind_in(s, them, jumpable) {
            let mut t = self.v.steps.step(d, s);
            if t == NO_SQ || !self.board[t as usize].is_empty() {
                return; // two pieces in a row, or the edge
            }
            while t != NO_SQ && self.board[t as usize].is_empty() {
                let code = VictimCode::LEAP | self.victims(r, from, t, i, st);
                push_passive(list, from, t, code, noisy);
                t = self.v.steps.step(d, t);
            }
            s = t;
        }
    }

    /// The victims (a [`VictimCode`]) of a landing on `to` by unit `i`
    /// from `from`, leaps aside.
    #[inline]
    fn victims(&self, r: &CaptureRules, from: u8, to: u8, i: usize, st: CaptureStyle) -> u8 {
        match st {
            CaptureStyle::Pinch => self.pinches(r, from, to, u32::MAX),
            CaptureStyle::Coordinate => self.corners(to, u32::MAX),
            CaptureStyle::Withdraw => self.withdrawal(r, from, i, u32::MAX),
            CaptureStyle::Chameleon => {
                let pinch = if i & 1 == 0 {
                    self.pinches(r, from, to, r.pinch)
                } else {
                    0
                };
                pinch | self.corners(to, r.coordinate) | self.withdrawal(r, from, i, r.withdraw)
            }
            _ => 0,
        }
    }

    /// Pinch bits: an enemy (of a kind in `mask`) orthogonally next to
    /// `to` with a piece of the mover's beyond it (the mover has left
    /// `from`).
    #[inline]
    fn pinches(&self, r: &CaptureRules, from: u8, to: u8, mask: u32) -> u8 {
        let us = self.side;
        let mut bits = 0;
        for j in 0..4 {
            let d = r.unit[2 * j];
            let s1 = self.v.steps.step(d, to);
            if !self.kind_in(s1, us.flip(), mask) {
                continue;
            }
            let s2 = self.v.steps.step(d, s1);
            if s2 != NO_SQ && s2 != from && self.own(s2, us) {
                bits |= 1 << j;
            }
        }
        bits
    }

    /// Corner bits of a coordinator landing on `to` with the mover's royal
    /// piece (none if they share a rank or file).
    #[inline]
    fn corners(&self, to: u8, mask: u32) -> u8 {
        let us = self.side;
        let k = self.royal[us.index()];
        let geo = self.v.geometry;
        if k == NO_SQ || geo.file_of(k) == geo.file_of(to) || geo.rank_of(k) == geo.rank_of(to) {
            return 0;
        }
        let c1 = geo.square(geo.file_of(to), geo.rank_of(k));
        let c2 = geo.square(geo.file_of(k), geo.rank_of(to));
        let mut bits = 0;
        if self.kind_in(c1, us.flip(), mask) {
            bits |= VictimCode::CORNER_1;
        }
        if self.kind_in(c2, us.flip(), mask) {
            bits |= VictimCode::CORNER_2;
        }
        bits
    }

    /// The withdrawal bit of a move by unit `i` from `from`.
    #[inline]
    fn withdrawal(&self, r: &CaptureRules, from: u8, i: usize, mask: u32) -> u8 {
        let s = self.v.steps.step(r.unit[i ^ 4], from);
        if self.kind_in(s, self.side.flip(), mask) {
            VictimCode::WITHDRAW
        } else {
            0
        }
    }

    /// The squares a passive capture removes, from its code (before it is
    /// played, with its mover to move).
    pub(crate) fn passive_victims(&self, m: Move) -> SquareSet {
        let mut out = SquareSet::EMPTY;
        let Some(r) = self.v.capture.as_ref() else {
            return out;
        };
        let (from, to, code) = (m.from(), m.to(), m.victim_code());
        let geo = self.v.geometry;
        let steps = &self.v.steps;
        let i = unit_between(&geo, from, to);
        if i >= 8 {
            return out;
        }
        for j in 0..4 {
            if code & (1 << j) != 0 {
                out.insert(steps.step(r.unit[2 * j], to));
            }
        }
        let k = self.royal[self.side.index()];
        if code & (VictimCode::CORNER_1 | VictimCode::CORNER_2) != 0 && k != NO_SQ {
            if code & VictimCode::CORNER_1 != 0 {
                out.insert(geo.square(geo.file_of(to), geo.rank_of(k)));
            }
            if code & VictimCode::CORNER_2 != 0 {
                out.insert(geo.square(geo.file_of(k), geo.rank_of(to)));
            }
        }
        if code & VictimCode::WITHDRAW != 0 {
            out.insert(steps.step(r.unit[i ^ 4], from));
        }
        if code & VictimCode::LEAP != 0 {
            let mut s = steps.step(r.unit[i], from);
            while s != NO_SQ && s != to {
                if self.board[s as usize].is_piece() {
                    out.insert(s);
                }
                s = steps.step(r.unit[i], s);
            }
        }
        out.and(self.occ[self.side.flip().index()])
    }

    /// Could `by` capture the piece on `sq` by one move (under capture
    /// styles: by a non-frozen piece's own style; otherwise: attacked)?
    /// For the search and the evaluation.
    pub fn capturable(&self, sq: u8, by: Color) -> bool {
        let p = self.board[sq as usize];
        if !p.is_piece() || p.color() == by {
            return false;
        }
        if self.v.capture.is_some() {
            self.passive_capturable(sq, by)
        } else {
            self.attacked(sq, by)
        }
    }

    /// Could `by` capture the piece on `k` by a move of a non-frozen piece
    /// under the capture styles? (Check, when `k` is the royal square;
    /// legality asks it after every move, so it is a hot path.)
    pub(crate) fn passive_capturable(&self, k: u8, by: Color) -> bool {
        let r = self.rules();
        // Most tests find no candidate attacker: the mask is computed the
        // first time one is found.
        let frozen = LazyFrozen {
            pos: self,
            side: by,
            mask: std::cell::OnceCell::new(),
        };
        let vk = self.board[k as usize].kind() as usize;
        let victim = r.style[vk];
        // The chameleon joins the attackers that capture the victim's way.
        let cham = |st: CaptureStyle| if victim == st { r.chameleon } else { 0 };
        let free_replacer =
            |s: u8, p: crate::piece::Piece| !frozen.contains(s) && r.rides[p.kind() as usize] == 0;
        simple_attackers(self.v, &self.board, k, by, free_replacer)
            || (victim == CaptureStyle::Replace && self.chameleon_next(r, k, by, &frozen))
            || self.pinch_attack(r, k, by, &frozen, r.pinch | cham(CaptureStyle::Pinch))
            || self.corner_attack(
                r,
                k,
                by,
                &frozen,
                r.coordinate | cham(CaptureStyle::Coordinate),
            )
            || self.leap_attack(r, k, by, &frozen, r.leap | cham(CaptureStyle::LongLeap))
            || self.withdraw_attack(r, k, by, &frozen, r.withdraw | cham(CaptureStyle::Withdraw))
    }

    /// A free chameleon of `by` next to `k` (it takes a royal piece that
    /// captures by replacement with that piece's step).
    fn chameleon_next(&self, r: &CaptureRules, k: u8, by: Color, frozen: &LazyFrozen) -> bool {
        r.unit.iter().any(|&d| {
            let s = self.v.steps.step(d, k);
            self.kind_in(s, by, r.chameleon) && !frozen.contains(s)
        })
    }

    /// A free piece of `mask` that can ride onto an empty square
    /// orthogonally next to `k` with a piece of `by` on the other side.
    fn pinch_attack(
        &self,
        r: &CaptureRules,
        k: u8,
        by: Color,
        frozen: &LazyFrozen,
        mask: u32,
    ) -> bool {
        let steps = &self.v.steps;
        for j in [0, 2, 4, 6] {
            let land = steps.step(r.unit[j], k);
            let anchor = steps.step(r.unit[j ^ 4], k);
            if land == NO_SQ || anchor == NO_SQ || !self.board[land as usize].is_empty() {
                continue;
            }
            if !self.own(anchor, by) {
                continue;
            }
            for i in 0..8 {
                let s = self.first_piece(land, r.unit[i]);
                // It moves towards `land`, by unit i ^ 4; chameleons
                // pinch only by orthogonal moves.
                if self.kind_in(s, by, mask)
                    && !frozen.contains(s)
                    && r.rides[self.board[s as usize].kind() as usize] & (1 << (i ^ 4)) != 0
                    && (i & 1 == 0 || !self.kind_in(s, by, r.chameleon))
                {
                    return true;
                }
            }
        }
        false
    }

    /// A free coordinator of `by` that can land on the line through `k`
    /// that makes `k` a corner with `by`'s royal piece.
    fn corner_attack(
        &self,
        r: &CaptureRules,
        k: u8,
        by: Color,
        frozen: &LazyFrozen,
        mask: u32,
    ) -> bool {
        let geo = self.v.geometry;
        let own_royal = self.royal[by.index()];
        if mask == 0 || own_royal == NO_SQ {
            return false;
        }
        // Same rank as the royal piece: land on k's file; same file: on k's rank.
        let on_line: fn(&Geometry, u8, u8) -> bool = if geo.rank_of(own_royal) == geo.rank_of(k) {
            |g, a, b| g.file_of(a) == g.file_of(b)
        } else if geo.file_of(own_royal) == geo.file_of(k) {
            |g, a, b| g.rank_of(a) == g.rank_of(b)
        } else {
            return false;
        };
        for c in self.occ[by.index()].iter() {
            if !self.kind_in(c, by, mask) || frozen.contains(c) {
                continue;
            }
            let rides = r.rides[self.board[c as usize].kind() as usize];
            for i in 0..8 {
                if rides & (1 << i) == 0 {
                    continue;
                }
                let mut s = self.v.steps.step(r.unit[i], c);
                while s != NO_SQ && self.board[s as usize].is_empty() {
                    if on_line(&geo, s, k) {
                        return true;
                    }
                    s = self.v.steps.step(r.unit[i], s);
                }
            }
        }
        false
    }

    /// A free leaper of `by` on a line through `k`, with only jumpable
    /// pieces (each followed by an empty square) between, and an empty
    /// square beyond `k`.
    fn leap_attack(
        &self,
        r: &CaptureRules,
        k: u8,
        by: Color,
        frozen: &LazyFrozen,
        mask: u32,
    ) -> bool {
        let steps = &self.v.steps;
        for i in 0..8 {
            let beyond = steps.step(r.unit[i], k);
            if beyond == NO_SQ || !self.board[beyond as usize].is_empty() {
                continue;
            }
            let back = r.unit[i ^ 4];
            // Whether the square inward of `s` is empty, and whether every
            // piece jumped so far is a leaper (all a chameleon may jump).
            let (mut gap, mut leapers_only) = (false, true);
            let mut s = steps.step(back, k);
            while s != NO_SQ {
                let p = self.board[s as usize];
                if p.is_empty() {
                    gap = true;
                    s = steps.step(back, s);
                    continue;
                }
                if !p.is_piece() {
                    break;
                }
                if p.color() == by {
                    let kind = p.kind();
                    let fits = CaptureRules::has(mask, kind)
                        && !frozen.contains(s)
                        && r.rides[kind as usize] & (1 << i) != 0
                        && (leapers_only || !CaptureRules::has(r.chameleon, kind));
                    if fits {
                        return true;
                    }
                    break;
                }
                if !gap {
                    break;
                }
                leapers_only &= CaptureRules::has(r.leap, p.kind());
                gap = false;
                s = steps.step(back, s);
            }
        }
        false
    }

    /// A free withdrawer of `by` next to `k` that can step away from it.
    fn withdraw_attack(
        &self,
        r: &CaptureRules,
        k: u8,
        by: Color,
        frozen: &LazyFrozen,
        mask: u32,
    ) -> bool {
        let steps = &self.v.steps;
        (0..8).any(|i| {
            let s = steps.step(r.unit[i], k);
            if !self.kind_in(s, by, mask) || frozen.contains(s) {
                return false;
            }
            let t = steps.step(r.unit[i], s);
            t != NO_SQ
                && self.board[t as usize].is_empty()
                && r.rides[self.board[s as usize].kind() as usize] & (1 << i) != 0
        })
    }

    /// The first piece (or hole) from `s` along `d`, exclusive, or `NO_SQ`.
    fn first_piece(&self, mut s: u8, d: u8) -> u8 {
        loop {
            s = self.v.steps.step(d, s);
            if s == NO_SQ || !self.board[s as usize].is_empty() {
                return s;
            }
        }
    }
}

/// A landing with victims is a passive capture, without a quiet move.
#[inline(always)]
fn push_passive(list: &mut MoveList, from: u8, to: u8, code: u8, noisy: bool) {
    if code != 0 {
        list.push(Move::passive(from, to, code));
    } else if !noisy {
        list.push(Move::new(from, to, MoveFlag::Normal));
    }
}

/// The frozen squares of one side (`Position::frozen`), computed on first
/// use.
struct LazyFrozen<'a> {
    pos: &'a Position,
    side: Color,
    mask: std::cell::OnceCell<SquareSet>,
}

impl LazyFrozen<'_> {
    #[inline]
    fn contains(&self, s: u8) -> bool {
        self.mask
            .get_or_init(|| self.pos.frozen(self.side))
            .contains(s)
    }
}
