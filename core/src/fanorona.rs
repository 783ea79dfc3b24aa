//! Fanorona (seed 004, `ref/vchess/NOTES.md`): stones on the points of a
//! 9x5 board of lines (`Lines::EvenDiagonals`), captures by approach and
//! withdrawal that remove whole lines of enemy stones, and capture chains.
//!
//! A whole turn is one [`Move`]: a paika (one step, no capture, allowed
//! only when no capture exists) is a plain move; a capture chain is a
//! `MoveFlag::Chain` move whose legs give each step's direction and kind.
//! The generator walks every chain depth first and writes every prefix,
//! since a turn may stop after any capture. A continuation may not land on
//! a point the stone has visited this turn (its start included) and may
//! not repeat the previous step's direction. Victims are worked out from
//! the legs when the move is played (`chain_victims`), so `play`,
//! `captures_of` and the search all ask the move.
//!
//! A point's stones are at most 45, so the walk keeps the board as two
//! 64-bit masks and allocates nothing.

use crate::geometry::{Geometry, SquareSet, Steps, NO_SQ};
use crate::moves::{Leg, Move, MoveFlag, MoveList, MAX_LEGS};
use crate::position::Position;

/// The eight line directions in a fixed order (east, then anticlockwise),
/// so that the opposite of direction `i` is `(i + 4) % 8`.
const VECTORS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Most stones of one side: the start position's; more cannot arise (no
/// stone is ever added), and the chain bound `MAX_LEGS` rests on it.
pub const MAX_STONES: u32 = 22;

/// The compiled tables of a capture-chain variant.
#[derive(Clone, Debug)]
pub struct ChainRules {
    /// `step[sq][i]`: the point one step along direction `i`, or `NO_SQ`
    /// (off the board, or a diagonal the point does not have).
    step: Vec<[u8; 8]>,
    /// Points with eight lines (the evaluation's strong points).
    pub strong: u64,
}

impl ChainRules {
    /// The tables for a board; capture chains need at most 64 points.
    pub fn new(geo: &Geometry, steps: &mut Steps) -> Result<ChainRules, String> {
        if geo.num_squares() > 64 {
            return Err("capture chains are defined on boards of at most 64 points".into());
        }
        let dirs: Vec<u8> = VECTORS.iter().map(|&(x, y)| steps.dir(geo, x, y)).collect();
        let mut step = vec![[NO_SQ; 8]; geo.num_squares()];
        let mut strong = 0u64;
        for (sq, row) in step.iter_mut().enumerate() {
            for (i, &d) in dirs.iter().enumerate() {
                row[i] = steps.step(d, sq as u8);
            }
            if row.iter().all(|&t| t != NO_SQ) {
                strong |= 1 << sq;
            }
        }
        Ok(ChainRules { step, strong })
    }

    /// The point one step from `sq` along direction `i`, or `NO_SQ`.
    #[inline(always)]
    pub fn step(&self, sq: u8, i: u8) -> u8 {
        self.step[sq as usize][i as usize]
    }

    /// The line of consecutive enemy stones from `start` along direction
    /// `i` (empty when `start` holds none).
    #[inline]
    fn line(&self, mut s: u8, i: u8, enemy: u64) -> u64 {
        let mut out = 0u64;
        while s != NO_SQ && enemy & (1 << s) != 0 {
            out |= 1 << s;
            s = self.step(s, i);
        }
        out
    }

    /// What one step from `at` along `i` to `to` captures: by approach
    /// (the line beyond `to`) and by withdrawal (the line behind `at`).
    #[inline]
    fn captures(&self, at: u8, to: u8, i: u8, enemy: u64) -> (u64, u64) {
        let back = (i + 4) & 7;
        (
            self.line(self.step(to, i), i, enemy),
            self.line(self.step(at, back), back, enemy),
        )
    }
}

#[inline]
fn mask(set: SquareSet) -> u64 {
    set.0[0]
}

/// One chain under construction: the stone's start and the legs so far.
struct Walk<'a> {
    rules: &'a ChainRules,
    /// Write every prefix (the legal turns), or only the chains that
    /// cannot go on (quiescence's captures).
    prefixes: bool,
    from: u8,
    legs: [Leg; MAX_LEGS],
    n: usize,
}

impl Walk<'_> {
    /// Writes every capture leg from `at` (and, recursively, every
    /// continuation): `blocked` are the points the stone may not land on
    /// (stones and visited points), `last` the previous direction.
    fn extend(&mut self, list: &mut MoveList, at: u8, enemy: u64, blocked: u64, last: u8) {
        for i in 0..8u8 {
            if i == last {
                continue;
            }
            let to = self.rules.step(at, i);
            if to == NO_SQ || blocked & (1 << to) != 0 {
                continue;
            }
            let (approach, withdrawal) = self.rules.captures(at, to, i, enemy);
            for (victims, w) in [(approach, false), (withdrawal, true)] {
                if victims == 0 || self.n == MAX_LEGS {
                    continue;
                }
                self.legs[self.n] = Leg {
                    dir: i,
                    withdrawal: w,
                };
                self.n += 1;
                let m = Move::chain(self.from, to, &self.legs[..self.n]);
                if self.prefixes {
                    list.push(m);
                }
                let before = list.len();
                let left = enemy & !victims;
                self.extend(list, to, left, (blocked & !victims) | 1 << to, i);
                if !self.prefixes && list.len() == before {
                    list.push(m);
                }
                self.n -= 1;
            }
        }
    }
}

impl Position {
    /// The chains' rules; only called in a capture-chain variant.
    #[inline]
    fn chain_rules(&self) -> &'static ChainRules {
        self.v.chains.as_ref().expect("a capture-chain variant")
    }

    /// Every legal turn of a capture-chain variant: the capture chains and
    /// their prefixes if any capture exists, else the paika moves. All are
    /// legal: there is no royal piece. With `noisy` (quiescence), only the
    /// chains followed to their end and no paika: stopping early is a
    /// choice for the full-width search, and the prefixes would multiply
    /// quiescence's width by the chains' lengths.
    pub(crate) fn gen_chains(&self, list: &mut MoveList, noisy: bool) {
        let rules = self.chain_rules();
        let us = self.side.index();
        let own = mask(self.occ[us]);
        let enemy = mask(self.occ[1 - us]);
        let start = list.len();
        let mut walk = Walk {
            rules,
            prefixes: !noisy,
            from: NO_SQ,
            legs: [Leg {
                dir: 0,
                withdrawal: false,
            }; MAX_LEGS],
            n: 0,
        };
        let mut stones = own;
        while stones != 0 {
            let from = stones.trailing_zeros() as u8;
            stones &= stones - 1;
            walk.from = from;
            // The stone's own start counts as visited.
            walk.extend(list, from, enemy, own | enemy, 8);
        }
        if list.len() > start || noisy {
            return;
        }
        let mut stones = own;
        while stones != 0 {
            let from = stones.trailing_zeros() as u8;
            stones &= stones - 1;
            for i in 0..8u8 {
                let to = rules.step(from, i);
                if to != NO_SQ && (own | enemy) & (1 << to) == 0 {
                    list.push(Move::new(from, to, MoveFlag::Normal));
                }
            }
        }
    }

    /// Does the side to move have a capture (so a paika is not allowed)?
    pub fn chain_capture_exists(&self) -> bool {
        let rules = self.chain_rules();
        let us = self.side.index();
        let own = mask(self.occ[us]);
        let enemy = mask(self.occ[1 - us]);
        let empty = !(own | enemy);
        let mut stones = own;
        while stones != 0 {
            let from = stones.trailing_zeros() as u8;
            stones &= stones - 1;
            for i in 0..8u8 {
                let to = rules.step(from, i);
                if to != NO_SQ && empty & (1 << to) != 0 {
                    let (a, w) = rules.captures(from, to, i, enemy);
                    if a | w != 0 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The stones a chain removes, and the point where the stone ends.
    pub(crate) fn chain_victims(&self, m: Move) -> (SquareSet, u8) {
        let rules = self.chain_rules();
        let mut enemy = mask(self.occ[1 - self.side.index()]);
        let mut taken = 0u64;
        let mut at = m.from();
        for leg in m.legs() {
            let to = rules.step(at, leg.dir);
            if to == NO_SQ {
                break;
            }
            let (a, w) = rules.captures(at, to, leg.dir, enemy);
            let victims = if leg.withdrawal { w } else { a };
            taken |= victims;
            enemy &= !victims;
            at = to;
        }
        (SquareSet([taken, 0, 0]), at)
    }

    /// The points a chain passes through, its start first (notation).
    pub fn chain_points(&self, m: Move) -> Vec<u8> {
        let rules = self.chain_rules();
        let mut out = vec![m.from()];
        let mut at = m.from();
        for leg in m.legs() {
            at = rules.step(at, leg.dir);
            if at == NO_SQ {
                break;
            }
            out.push(at);
        }
        out
    }
}
