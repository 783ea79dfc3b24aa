//! Pawn-structure cache: everything the evaluation derives from the pawns
//! alone, computed once per pawn configuration and kept by pawn key (as
//! Stockfish's `pawns.cpp`). Pawns move rarely, so most evaluations find
//! their entry here and skip the pawns entirely.
//!
//! The terms that also depend on other pieces (a passed pawn's free path,
//! the kings' distances to it) stay in `evaluate.rs`; the entry gives them
//! the set of passed pawns.

use crate::evaluate::{is_passed, scale_rank8, EvalTables};
use fers_core::geometry::{SquareSet, NO_SQ};
use fers_core::{Color, Position};

/// One side's pawns.
#[derive(Clone, Copy)]
pub struct PawnSide {
    /// Pawns per file (files beyond 16 share the last slot).
    pub files: [u8; 16],
    /// Lowest and highest rank of this side's pawns per file.
    pub min: [u8; 16],
    pub max: [u8; 16],
    /// Squares attacked by this side's pawns.
    pub attacks: SquareSet,
    /// Squares of this side's pawns (the other pieces are the rest).
    pub set: SquareSet,
    /// Passed pawns.
    pub passed: SquareSet,
    pub count: i32,
    /// Piece-square score of the pawns `(mg, eg)`.
    pub pst: (i32, i32),
    /// Doubled, isolated, supported, phalanx and passed-by-rank terms.
    pub structure: (i32, i32),
    /// Game-phase weight of the pawns (zero in chess).
    pub phase: i32,
    /// Pawns on squares of each colour (`(file + rank) & 1`).
    pub by_colour: [i32; 2],
    /// Safe central squares on this side's half, those behind its pawns
    /// counted twice (the `space` term).
    pub space: i32,
}

impl PawnSide {
    const EMPTY: PawnSide = PawnSide {
        files: [0; 16],
        min: [u8::MAX; 16],
        max: [0; 16],
        attacks: SquareSet::EMPTY,
        set: SquareSet::EMPTY,
        passed: SquareSet::EMPTY,
        count: 0,
        pst: (0, 0),
        structure: (0, 0),
        phase: 0,
        by_colour: [0; 2],
        space: 0,
    };
}

/// Both sides' pawns, for one pawn key.
#[derive(Clone, Copy)]
pub struct PawnEntry {
    key: u64,
    filled: bool,
    pub side: [PawnSide; 2],
}

impl PawnEntry {
    const EMPTY: PawnEntry = PawnEntry {
        key: 0,
        filled: false,
        side: [PawnSide::EMPTY; 2],
    };

    /// Computes the entry of `pos` from scratch.
    pub fn compute(pos: &Position, t: &EvalTables) -> PawnEntry {
        let mut e = PawnEntry::EMPTY;
        e.key = pos.pawn_key();
        e.filled = true;
        let v = t.variant;
        let Some(pk) = v.pawn_kind.filter(|&k| (k as usize) < t.n) else {
            return e;
        };
        let geo = v.geometry;
        // First the placement: files, ranks, attacks.
        for c in [Color::White, Color::Black] {
            let ci = c.index();
            let ps = &mut e.side[ci];
            for sq in pos.occupied(c).iter() {
                if pos.piece_at(sq).kind() != pk {
                    continue;
                }
                let f = (geo.file_of(sq) as usize).min(15);
                let r = geo.rank_of(sq);
                ps.set.insert(sq);
                ps.files[f] += 1;
                ps.min[f] = ps.min[f].min(r);
                ps.max[f] = ps.max[f].max(r);
                ps.count += 1;
                ps.by_colour[((geo.file_of(sq) + geo.rank_of(sq)) & 1) as usize] += 1;
                let s = t.pst[ci][pk as usize][sq as usize];
                ps.pst.0 += s.0;
                ps.pst.1 += s.1;
                ps.phase += t.phase_w[pk as usize];
                for &d in &v.pawn_captures[ci] {
                    let to = v.steps.step(d, sq);
                    if to != NO_SQ {
                        ps.attacks.insert(to);
                    }
                }
            }
        }
        // Then the structure, which needs both sides' placement.
        let p = &t.params;
        for c in [Color::White, Color::Black] {
            let ci = c.index();
            let (own, enemy) = (e.side[ci], e.side[ci ^ 1]);
            let mut s = (0, 0);
            let mut passed = SquareSet::EMPTY;
            for sq in own.set.iter() {
                let f = geo.file_of(sq) as usize;
                if own.files[f] > 1 {
                    s.0 += p.doubled.0 / 2;
                    s.1 += p.doubled.1 / 2;
                }
                let left = if f > 0 { own.files[f - 1] } else { 0 };
                let right = if f + 1 < 16 { own.files[f + 1] } else { 0 };
                if left == 0 && right == 0 {
                    s.0 += p.isolated.0;
                    s.1 += p.isolated.1;
                }
                if own.attacks.contains(sq) {
                    s.0 += p.supported.0;
                    s.1 += p.supported.1;
                }
                if geo.offset(sq, 1, 0).is_some_and(|t| own.set.contains(t)) {
                    s.0 += p.phalanx.0;
                    s.1 += p.phalanx.1;
                }
                // Backward: no pawn on a neighbouring file is level or
                // behind, and an enemy pawn guards the square in front.
                let r = geo.rank_of(sq);
                let neighbours = [
                    f.checked_sub(1),
                    (f + 1 < geo.files as usize).then_some(f + 1),
                ];
                let mut has_neighbour = false;
                let mut supportable = false;
                for nf in neighbours.into_iter().flatten().filter(|&nf| nf < 16) {
                    if own.files[nf] == 0 {
                        continue;
                    }
                    has_neighbour = true;
                    supportable |= match c {
                        Color::White => own.min[nf] <= r,
                        Color::Black => own.max[nf] >= r,
                    };
                }
                if has_neighbour && !supportable {
                    let front = v.steps.step(v.pawn_push[ci], sq);
                    if front != NO_SQ && enemy.attacks.contains(front) {
                        s.0 += p.backward.0;
                        s.1 += p.backward.1;
                    }
                }
                // Passed: no enemy pawn ahead on this or adjacent files.
                if is_passed(&enemy, geo.files as usize, c, f, geo.rank_of(sq)) {
                    let idx = scale_rank8(geo.ranks, v.relative_rank(c, sq));
                    s.0 += p.passed_mg[idx];
                    s.1 += p.passed_eg[idx];
                    passed.insert(sq);
                }
            }
            e.side[ci].structure = s;
            e.side[ci].passed = passed;
            e.side[ci].space = space(t, &e, c);
        }
        e
    }
}

/// The space of `c`: squares of the central files (the middle half) on
/// the ranks 2 to 4 of `c`'s side (on 8 ranks; a proportional band
/// elsewhere) that hold no pawn of `c` and that no enemy pawn attacks; a
/// square up to three squares behind one of `c`'s pawns counts twice.
fn space(t: &EvalTables, e: &PawnEntry, c: Color) -> i32 {
    let v = t.variant;
    let geo = v.geometry;
    let (files, ranks) = (geo.files, geo.ranks);
    let ci = c.index();
    let (own, enemy) = (&e.side[ci], &e.side[ci ^ 1]);
    let push = v.pawn_push[ci];
    let mut count = 0;
    for f in files / 4..files - files / 4 {
        for rr in 1..ranks / 2 {
            let r = match c {
                Color::White => rr,
                Color::Black => ranks - 1 - rr,
            };
            let sq = geo.square(f, r);
            if own.set.contains(sq) || enemy.attacks.contains(sq) {
                continue;
            }
            count += 1;
            let mut ahead = sq;
            for _ in 0..3 {
                ahead = v.steps.step(push, ahead);
                if ahead == NO_SQ {
                    break;
                }
                if own.set.contains(ahead) {
                    count += 1;
                    break;
                }
            }
        }
    }
    count
}

/// Entries per thread (a power of two).
const ENTRIES: usize = 8192;

/// A thread's pawn cache, indexed by the low bits of the pawn key.
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            entries: vec![PawnEntry::EMPTY; ENTRIES],
        }
    }
}

impl PawnCache {
    /// The entry of `pos`'s pawns, computed on a miss.
    #[inline]
    pub fn probe(&mut self, pos: &Position, t: &EvalTables) -> &PawnEntry {
        let key = pos.pawn_key();
        let slot = &mut self.entries[key as usize & (ENTRIES - 1)];
        if !slot.filled || slot.key != key {
            *slot = PawnEntry::compute(pos, t);
        }
        slot
    }

    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::EMPTY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::{evaluate, evaluate_cached};
    use fers_core::registry::Registry;

    #[test]
    fn start_position_space_and_colours() {
        let v = fers_core::variant::chess();
        let t = EvalTables::for_variant(v);
        let e = PawnEntry::compute(&Position::startpos(v), &t);
        for side in &e.side {
            // c3-f3 and c4-f4: the second rank holds the side's own pawns.
            assert_eq!(side.space, 8);
            assert_eq!(side.by_colour, [4, 4]);
            assert_eq!(side.count, 8);
            assert!(side.passed.is_empty());
        }
    }

    #[test]
    fn backward_pawn_is_found() {
        // d3 cannot be supported (c4 and e4 are ahead of it), and the black
        // pawn on c5 guards d4: d3 is backward, c4 and e4 are not.
        let v = fers_core::variant::chess();
        let pos = Position::from_fen(v, "4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1").unwrap();
        let mut p = crate::evaluate::PARAMS.clone();
        p.backward = (0, 0);
        let without = PawnEntry::compute(&pos, &EvalTables::build(v, &p));
        p.backward = (-100, -60);
        let with = PawnEntry::compute(&pos, &EvalTables::build(v, &p));
        let diff = |c: usize| {
            let (a, b) = (with.side[c].structure, without.side[c].structure);
            (a.0 - b.0, a.1 - b.1)
        };
        assert_eq!(diff(0), (-100, -60));
        assert_eq!(diff(1), (0, 0));
    }

    /// Along pseudo-random games of several variants, the cached evaluation
    /// equals the one computed from scratch: the incremental pawn key finds
    /// the right entry, and a key collision in a slot is told apart.
    #[test]
    fn cached_evaluation_matches_fresh() {
        let mut reg = Registry::new();
        let text = include_str!("../../variants/examples.ini");
        for r in reg.load("examples.ini", text) {
            r.expect("example variants load");
        }
        let mut checked = 0;
        for name in reg.names() {
            let v = reg.get(&name).expect("listed variant");
            let t = EvalTables::for_variant(v);
            let mut cache = PawnCache::default();
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            for _game in 0..3 {
                let mut pos = Position::startpos(v);
                for _ply in 0..60 {
                    assert_eq!(
                        evaluate_cached(&pos, &t, &mut cache),
                        evaluate(&pos, &t),
                        "{name}: {}",
                        pos.to_fen()
                    );
                    checked += 1;
                    if !crate::test_util::play_random(&mut pos, &mut seed) {
                        break;
                    }
                }
            }
        }
        assert!(checked > 2000, "only {checked} positions");
    }
}
