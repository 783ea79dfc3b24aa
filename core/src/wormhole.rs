//! Vanishing squares and hole-skipping movement (Wormhole, seed 002 and
//! `ref/vchess/NOTES.md`), as two variant rules any variant file may use:
//!
//! - `HoleRules::vanish`: every move leaves a hole on the square it
//!   started from (`Position::play`);
//! - `HoleRules::skip`: a vector `(dx, dy)` along a line lands on the n-th
//!   *existing* square along its unit direction, n = max(|dx|, |dy|):
//!   holes are skipped and not counted, and the move is impossible if the
//!   edge comes first. Pieces never block: every move is a leap, and a
//!   two-leg leaper (`decomposed-leaper`) makes its two shifts in order,
//!   whatever stands on the square between. A vector off the lines (a
//!   plain `leaper(1,2)`) has no unit direction and leaps directly, onto
//!   an existing square only.
//!
//! The tables are computed once by `Variant::build` (`SkipTables`): the unit
//! direction and count of every direction number, and a reverse attack plan
//! per attacking colour. The ordinary generator pays one branch per node
//! for the existence of this path (`gen_moves` picks one of two instances
//! of its loop), attack detection one per test.

use crate::geometry::{Geometry, SquareSet, Steps, MAX_SQUARES, NO_SQ};
use crate::movegen::Sink;
use crate::moves::{Move, MoveFlag, MoveList};
use crate::piece::{Color, Family, Mode, Piece};
use crate::position::Position;
use crate::variant::{Component, Variant};

/// What a variant says about holes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct HoleRules {
    /// A moving piece leaves a hole on its start square.
    pub vanish: bool,
    /// Movement skips holes (see the module documentation).
    pub skip: bool,
}

impl HoleRules {
    pub const NONE: HoleRules = HoleRules {
        vanish: false,
        skip: false,
    };
}

/// One shift of a hole-skipping move: `n` existing squares along the unit
/// direction `unit` (`n == 0`: a direct leap by the original vector).
#[derive(Clone, Copy, Debug)]
pub struct Shift {
    pub unit: u8,
    pub n: u8,
}

/// One reverse walk of the attack plan: from the attacked square, shift by
/// `first`, then (if `second.n > 0` or it is a direct leap of a two-leg
/// move) by `second`; the kinds in `kinds` standing there attack.
#[derive(Clone, Copy, Debug)]
pub struct SkipAttack {
    pub first: Shift,
    pub second: Option<Shift>,
    pub kinds: u32,
}

/// The compiled tables of hole-skipping movement.
#[derive(Clone, Debug, Default)]
pub struct SkipTables {
    /// Per direction number: its shift (the unit direction and the count).
    pub shift: Vec<Shift>,
    /// Per attacking colour, the reverse walks (pawn captures included).
    pub attacks: [Vec<SkipAttack>; 2],
}

/// The families hole-skipping movement is defined for.
pub fn skip_family_ok(f: Family) -> bool {
    matches!(f, Family::Leaper | Family::DecomposedLeaper | Family::Pawn)
}

/// The shift of vector `(x, y)`: along a line, its unit direction and
/// length; off the lines, the vector itself as a direct leap.
fn shift_of(geo: &Geometry, steps: &mut Steps, x: i32, y: i32) -> Shift {
    let n = x.abs().max(y.abs());
    if x == 0 || y == 0 || x.abs() == y.abs() {
        Shift {
            unit: steps.dir(geo, x.signum(), y.signum()),
            n: n as u8,
        }
    } else {
        Shift {
            unit: steps.dir(geo, x, y),
            n: 0,
        }
    }
}

impl SkipTables {
    /// Builds the tables from the compiled components (pawn vectors come
    /// from `pawn_captures`). Registers the unit and reverse directions it
    /// needs in `steps`.
    pub fn new(
        geo: &Geometry,
        steps: &mut Steps,
        components: &[Vec<Component>],
        pawn: Option<(u8, [[u8; 2]; 2])>,
    ) -> SkipTables {
        let mut t = SkipTables::default();
        // The reverse of a shift: the negated vector, as its own shift.
        let back = |steps: &mut Steps, d: u8| {
            let (x, y) = steps.vectors[d as usize];
            shift_of(geo, steps, -(x as i32), -(y as i32))
        };
        for (k, comps) in components.iter().enumerate() {
            for c in comps.iter().filter(|c| c.mode != Mode::MoveOnly) {
                for color in 0..2 {
                    for (i, &d) in c.dirs[color].iter().enumerate() {
                        let entry = match c.dirs2[color].get(i) {
                            // Two legs: undo the second, then the first.
                            Some(&e) if c.family == Family::DecomposedLeaper => SkipAttack {
                                first: back(steps, e),
                                second: Some(back(steps, d)),
                                kinds: 1 << k,
                            },
                            _ => SkipAttack {
                                first: back(steps, d),
                                second: None,
                                kinds: 1 << k,
                            },
                        };
                        add_attack(&mut t.attacks[color], entry);
                    }
                }
            }
        }
        if let Some((pk, captures)) = pawn {
            for (color, dirs) in captures.iter().enumerate() {
                for &d in dirs {
                    let entry = SkipAttack {
                        first: back(steps, d),
                        second: None,
                        kinds: 1 << pk,
                    };
                    add_attack(&mut t.attacks[color], entry);
                }
            }
        }
        // Shifts of the directions registered above (units, reverses).
        while t.shift.len() < steps.vectors.len() {
            let (x, y) = steps.vectors[t.shift.len()];
            let s = shift_of(geo, steps, x as i32, y as i32);
            t.shift.push(s);
        }
        t
    }
}

/// Merges walks that go the same way, so each is walked once per test.
fn add_attack(list: &mut Vec<SkipAttack>, a: SkipAttack) {
    let same = |x: &Shift, y: &Shift| x.unit == y.unit && x.n == y.n;
    let found = list.iter_mut().find(|b| {
        same(&b.first, &a.first)
            && match (&b.second, &a.second) {
                (None, None) => true,
                (Some(x), Some(y)) => same(x, y),
                _ => false,
            }
    });
    match found {
        Some(b) => b.kinds |= a.kinds,
        None => list.push(a),
    }
}

/// The square a shift from `s` lands on, or `NO_SQ`. Holes are skipped and
/// not counted; pieces count and do not block.
#[inline(always)]
pub fn shift_square(v: &Variant, board: &[Piece; MAX_SQUARES], s: u8, sh: Shift) -> u8 {
    // The common cases first: one or two steps onto existing squares.
    let t = v.steps.step(sh.unit, s);
    if t == NO_SQ {
        return NO_SQ;
    }
    if board[t as usize] != Piece::HOLE {
        if sh.n <= 1 {
            return t;
        }
        // Two existing squares in a row: the champion's and lion's leaps.
        let t2 = v.steps.step(sh.unit, t);
        if sh.n == 2 && t2 != NO_SQ && t2 != s && board[t2 as usize] != Piece::HOLE {
            return t2;
        }
    }
    shift_walk(v, board, s, sh)
}

/// [`shift_square`] past holes or further than one square.
#[inline(never)]
fn shift_walk(v: &Variant, board: &[Piece; MAX_SQUARES], s: u8, sh: Shift) -> u8 {
    let steps = &v.steps;
    if sh.n == 0 {
        let t = steps.step(sh.unit, s);
        return if t != NO_SQ && board[t as usize] != Piece::HOLE {
            t
        } else {
            NO_SQ
        };
    }
    let mut left = sh.n;
    let mut t = s;
    // Bounded: on a wrapped board a line of holes could loop.
    for _ in 0..MAX_SQUARES {
        t = steps.step(sh.unit, t);
        if t == NO_SQ || t == s {
            return NO_SQ;
        }
        if board[t as usize] != Piece::HOLE {
            left -= 1;
            if left == 0 {
                return t;
            }
        }
    }
    NO_SQ
}

/// `movegen::targets` under hole-skipping movement: every vector of the
/// component is a leap by shifts.
#[inline]
pub(crate) fn skip_targets(
    v: &Variant,
    board: &[Piece; MAX_SQUARES],
    from: u8,
    us: Color,
    c: &Component,
    sink: &mut impl Sink,
) -> bool {
    let Some(t) = v.skip.as_ref() else {
        return false;
    };
    let ci = us.index();
    let quiet_ok = c.mode != Mode::CaptureOnly;
    let capture_ok = c.mode != Mode::MoveOnly;
    for (i, &d) in c.dirs[ci].iter().enumerate() {
        let mut to = shift_square(v, board, from, t.shift[d as usize]);
        if to != NO_SQ && c.family == Family::DecomposedLeaper {
            if let Some(&e) = c.dirs2[ci].get(i) {
                to = shift_square(v, board, to, t.shift[e as usize]);
            }
        }
        if to == NO_SQ || to == from {
            continue;
        }
        let p = board[to as usize];
        let stop = if p.is_empty() {
            quiet_ok && sink.hit(to, NO_SQ)
        } else {
            p.is_piece() && p.color() != us && capture_ok && sink.hit(to, to)
        };
        if stop {
            return true;
        }
    }
    false
}

/// Is `sq` attacked by `by` under hole-skipping movement? Walks the
/// reverse plan from `sq`.
#[inline(never)]
pub(crate) fn skip_attacked(v: &Variant, board: &[Piece; MAX_SQUARES], sq: u8, by: Color) -> bool {
    let Some(t) = v.skip.as_ref() else {
        return false;
    };
    for a in &t.attacks[by.index()] {
        let mut s = shift_square(v, board, sq, a.first);
        if s == NO_SQ {
            continue;
        }
        if let Some(second) = a.second {
            s = shift_square(v, board, s, second);
            if s == NO_SQ {
                continue;
            }
        }
        let p = board[s as usize];
        if p.is_piece() && p.color() == by && a.kinds & (1 << p.kind()) != 0 {
            return true;
        }
    }
    false
}

/// The squares whose vanishing can change a reverse walk from `k`: those
/// each shift passes or lands on (a new hole beyond the landing square
/// changes nothing, and one on a walk that falls off the edge keeps it
/// off). Occupancy never matters to a walk, and a capture only removes
/// attackers. Also says whether a walk finds an attacker (in check now).
fn walk_lines(
    v: &Variant,
    t: &SkipTables,
    board: &[Piece; MAX_SQUARES],
    k: u8,
    by: Color,
) -> (SquareSet, bool) {
    let mut set = SquareSet::EMPTY;
    let mut check = false;
    for a in &t.attacks[by.index()] {
        let mut s = mark_shift(v, board, &mut set, k, a.first);
        if let (Some(second), true) = (a.second, s != NO_SQ) {
            s = mark_shift(v, board, &mut set, s, second);
        }
        if s != NO_SQ {
            let p = board[s as usize];
            check |= p.is_piece() && p.color() == by && a.kinds & (1 << p.kind()) != 0;
        }
    }
    (set, check)
}

/// [`shift_square`], marking the squares it passes and lands on.
fn mark_shift(
    v: &Variant,
    board: &[Piece; MAX_SQUARES],
    set: &mut SquareSet,
    s: u8,
    sh: Shift,
) -> u8 {
    let to = shift_square(v, board, s, sh);
    if to == NO_SQ {
        return NO_SQ;
    }
    let mut t = s;
    for _ in 0..MAX_SQUARES {
        t = v.steps.step(sh.unit, t);
        if t == NO_SQ || t == s {
            break;
        }
        set.insert(t);
        if t == to {
            break;
        }
    }
    to
}

impl Position {
    /// Legality under hole-skipping movement (`Capabilities::hole_legality`):
    /// in check, or for a move of the royal piece or from a square on the
    /// attackers' lines, the move is tested on a board copy; any other
    /// move leaves every attacker's walk as it was.
    pub(crate) fn filter_skip(&self, list: &mut MoveList) {
        let v = self.v;
        let us = self.side;
        let k = self.royal[us.index()];
        let them = us.flip();
        let walked = v
            .skip
            .as_ref()
            .map(|t| walk_lines(v, t, &self.board, k, them));
        let lines = match walked {
            Some((lines, false)) => lines,
            _ => SquareSet::ALL,
        };
        list.retain(|m| {
            let quiet_shape = m.flag() == MoveFlag::Normal && m.from() != k;
            (quiet_shape && !lines.contains(m.from())) || self.legal_general(m)
        });
    }

    /// Pawn moves under hole-skipping movement: one shift forward to an
    /// empty square, two from the second rank over two empty squares,
    /// captures one shift diagonally forward. No en passant. With
    /// `capture_promotion`, only a capture onto the last rank promotes; a
    /// push there leaves a pawn.
    pub(crate) fn gen_pawn_skip(&self, from: u8, list: &mut MoveList, noisy: bool) {
        let v = self.v;
        let Some(t) = v.skip.as_ref() else { return };
        let us = self.side;
        let last = v.promotion_rank(us);
        let geo = v.geometry;
        let forward = |to: u8| to != NO_SQ && v.relative_rank(us, to) > v.relative_rank(us, from);
        let promotes = |to: u8, capture: bool| {
            geo.rank_of(to) == last && !v.promotion.is_empty() && (capture || !v.capture_promotion)
        };
        let push = |to: u8, capture: bool, list: &mut MoveList| {
            if promotes(to, capture) {
                for &k in &v.promotion {
                    list.push(Move::with_promotion(from, to, k));
                }
            } else {
                list.push(Move::new(from, to, MoveFlag::Normal));
            }
        };
        let fwd = t.shift[v.pawn_push[us.index()] as usize];
        let one = shift_square(v, &self.board, from, fwd);
        if forward(one) && self.board[one as usize].is_empty() {
            if !noisy || promotes(one, false) {
                push(one, false, list);
            }
            if !noisy && v.double_step && v.relative_rank(us, from) == 1 {
                let two = shift_square(v, &self.board, one, fwd);
                if forward(two) && self.board[two as usize].is_empty() {
                    push(two, false, list);
                }
            }
        }
        for &d in &v.pawn_captures[us.index()] {
            let to = shift_square(v, &self.board, from, t.shift[d as usize]);
            if !forward(to) {
                continue;
            }
            let q = self.board[to as usize];
            if q.is_piece() && q.color() != us {
                push(to, true, list);
            }
        }
    }

    /// The start square of a move becomes a hole (`HoleRules::vanish`).
    pub(crate) fn vanish(&mut self, from: u8) {
        if self.board[from as usize].is_empty() {
            self.board[from as usize] = Piece::HOLE;
            self.key ^= self.v.zobrist.piece(Piece::HOLE.0, from);
        }
    }
}
