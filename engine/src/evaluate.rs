//! Static evaluation, a per-variant component.
//!
//! Everything is computed from the variant's data, so any board size and any
//! piece is evaluated without hand tuning:
//! - piece values: a variant file's `value.<letter>` where given (fitted
//!   from self-play by `fers-tune -values`); else the orthodox pieces
//!   (recognised by their movement, not their name) get hand-tuned values,
//!   and any other piece gets a value from its
//!   average mobility on an empty board, riders weighted by a decay per step
//!   (a rough model of a board with pieces on it);
//! - piece-square tables: from each piece's empty-board mobility on each
//!   square (centralisation where it matters), pawn advancement, a king that
//!   hides in the middlegame and centralises in the endgame;
//! - mobility (safe from enemy pawns), king safety (attacks on the royal
//!   piece's zone, pawn shield), pawn structure (passed, doubled, isolated,
//!   supported), bishop pair, rooks on open files;
//! - all of it tapered between middlegame and endgame by a game phase that
//!   is measured against the variant's start position.
//!
//! What each tunable number means is in [`Params`]; their values,
//! [`PARAMS`], live in `tuned.rs`, written by `fers-tune` from positions
//! labelled by Stockfish.

use crate::nnue::{NetError, Network, NnueMap};
use crate::pawns::{PawnCache, PawnEntry, PawnSide};
use fers_core::baroque::CaptureStyle;
use fers_core::geometry::{SquareSet, Topology, MAX_SQUARES, NO_SQ};
use fers_core::piece::{named_piece, Family, Mode};
use fers_core::{Color, Condition, Position, Variant};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Tunable evaluation parameters (centipawns; `(mg, eg)` pairs).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub pawn: (i32, i32),
    pub knight: (i32, i32),
    pub bishop: (i32, i32),
    pub rook: (i32, i32),
    pub queen: (i32, i32),
    /// Value of a piece the evaluation does not know, where the board
    /// gives no curve through the orthodox pieces (`AutoCurve`):
    /// `lin * m + quad * m^2` (m = decayed empty-board mobility), in
    /// hundredths of a centipawn.
    pub auto_lin: i32,
    pub auto_quad: i32,
    /// Decay per rider step when measuring mobility (percent).
    pub rider_decay: i32,
    /// Centralisation weight of piece-square tables (percent of value / 10).
    pub center_mg: i32,
    pub center_eg: i32,
    /// Mobility slope numerator: bonus per square = mob_scale / avg mobility.
    pub mob_scale_mg: i32,
    pub mob_scale_eg: i32,
    pub pawn_advance_mg: [i32; 8],
    pub pawn_advance_eg: [i32; 8],
    pub passed_mg: [i32; 8],
    pub passed_eg: [i32; 8],
    pub pawn_center_mg: i32,
    pub doubled: (i32, i32),
    pub isolated: (i32, i32),
    pub supported: (i32, i32),
    pub bishop_pair: (i32, i32),
    pub rook_open: (i32, i32),
    pub rook_semi_open: (i32, i32),
    pub shield1: i32,
    pub shield2: i32,
    pub king_open_file: i32,
    /// King danger (middlegame): penalty = units4^2 * scale /
    /// (8 * king_danger_div), capped; units4 is the danger in quarter units,
    /// scale grows with the number of attacking pieces (1, 3, 4).
    pub king_danger_div: i32,
    pub king_danger_cap: i32,
    pub tempo: i32,
    pub king_rank_mg: i32,
    pub king_center_eg: i32,
    pub passed_king_dist_eg: i32,
    pub threat_by_pawn: (i32, i32),
    pub hanging: (i32, i32),
    /// Pawn with an own pawn beside it on the same rank.
    pub phalanx: (i32, i32),
    /// Passed pawn whose square in front is empty, per scaled rank.
    pub passed_free: (i32, i32),
    /// Minor piece on an outpost: in the enemy half, defended by a pawn,
    /// not attacked by enemy pawns.
    pub outpost: (i32, i32),
    /// Rook-like piece (not a queen) on the relative seventh rank.
    pub rook_seventh: (i32, i32),
    /// Middlegame bonus per castling right still held.
    pub castle_right_mg: i32,
    /// King danger, in quarter units, per square of the king's zone that
    /// the enemy attacks and no own piece or pawn defends, and per file at
    /// the king without an own pawn.
    pub danger_weak: i32,
    pub danger_open_file: i32,
    /// Middlegame bonus for a king on a central file (not the two files
    /// nearest either edge) that can no longer castle (usually negative).
    pub king_center_mg: i32,
    /// King danger, in quarter units, per enemy piece kind that can give a
    /// safe check (to a square the defender does not guard; a second such
    /// square adds half again), and per unsafe check square.
    pub danger_safe_check: i32,
    pub danger_unsafe_check: i32,
    /// King danger, in quarter units, when the attacker has no queen-class
    /// piece (worth 800 or more); usually negative.
    pub danger_no_queen: i32,
    /// King danger, in quarter units, per enemy piece attacking the zone.
    pub danger_attacker: i32,
    /// Endgame penalty per 64 quarter units of king danger.
    pub king_danger_eg: i32,
    /// Non-pawn piece attacked by a clearly less valuable piece (not a pawn).
    pub threat_by_lesser: (i32, i32),
    /// Middlegame penalty for the nearest enemy pawn on each file at the
    /// king, by its distance in ranks ahead of the king (1..=4).
    pub pawn_storm: [i32; 5],
    /// Endgame scale (out of 64) when the only pieces besides pawns are
    /// one bishop each, on squares of opposite colours.
    pub ocb_scale: i32,
    /// Pawn that no pawn of its side on a neighbouring file can support
    /// any more, whose square in front an enemy pawn attacks.
    pub backward: (i32, i32),
    /// Middlegame space: per safe central square behind the pawn chain
    /// (see `pawns.rs`), times the square of (own pieces - 3), / 256.
    pub space: i32,
    /// Per bishop, per own pawn on squares of the bishop's colour.
    pub bishop_pawns: (i32, i32),
    /// Minor piece (not a rider of rooks' lines) with a pawn just in front.
    pub minor_behind_pawn: (i32, i32),
    /// Royal piece on a flank (its file and two either side) without pawns.
    pub pawnless_flank: (i32, i32),
    /// Learned corrections for the orthodox pieces on an 8x8 board, added to
    /// the generated piece-square tables: `[role][square]` with roles pawn,
    /// knight, bishop, rook, queen, king and squares a1 = 0 from White's
    /// side (see [`crate::tuned`]).
    pub ortho_pst: [[(i32, i32); 64]; 6],
}

/// The parameters in use, fitted by `fers-tune` (see [`crate::tuned`]).
pub use crate::tuned::PARAMS;

/// Value of a draw.
pub const DRAW: i32 = 0;

/// Per-variant tables, built once per variant.
pub struct EvalTables {
    pub variant: &'static Variant,
    /// Baroque's own values (`baroque_eval.rs`), under capture styles.
    pub baroque: Option<crate::baroque_eval::BaroqueValues>,
    /// Drawish endgames (pawnless with a small edge, opposite-coloured
    /// bishops) scaled down; not where no game is drawn (`wormhole_eval.rs`).
    pub drawish_scaling: bool,
    /// The parameters these tables were built from.
    pub params: Params,
    /// Orthodox role (see [`Params::ortho_pst`]) of each kind, on 8x8 only.
    pub ortho_role: Vec<Option<u8>>,
    /// The learned network and its inputs: the embedded one when the
    /// variant is orthodox chess, or one loaded for the variant
    /// (`EvalFile`, see `nnue.rs`); the search then evaluates with it.
    pub nnue: Option<NnueMap>,
    pub(crate) n: usize,
    /// Middlegame/endgame material value per kind (royal: 0).
    pub value: Vec<(i32, i32)>,
    /// Value for move ordering and pruning (midgame value; royal large).
    pub order_value: Vec<i32>,
    /// `pst[colour][kind][sq]`, material included.
    pub(crate) pst: [Vec<[(i32, i32); MAX_SQUARES]>; 2],
    /// Mobility bonus per safe square and the average subtracted.
    mob: Vec<(i32, i32)>,
    mob_avg: Vec<i32>,
    pub(crate) phase_w: Vec<i32>,
    phase_total: i32,
    /// Squares around each square (king step), for the king zone.
    zone: Vec<SquareSet>,
    /// Kinds with an orthogonal rider component (rook-like).
    orth_rider: Vec<bool>,
    bishop_kind: Option<u8>,
    /// May the search use null moves (no zugzwang-prone rules)?
    pub null_move_ok: bool,
    /// The variant has stalemate as a draw and a royal piece (chess-like).
    pub chess_like: bool,
    /// `check_from[colour][kind][sq]`: squares from which such a piece
    /// attacks `sq` on an empty board (leapers, riders, pawns).
    check_from: [Vec<Vec<SquareSet>>; 2],
    /// Squares on a rider line through each square (discovered checks).
    lines: Vec<SquareSet>,
    /// The check pre-filter is exact (every family is a leaper, rider or pawn).
    check_filter: bool,
}

/// The values of pieces the evaluation does not know, from their mobility:
/// per phase, the curve `lin * m + quad * m^2` closest (least squares)
/// to the tuned values of the knight, bishop, rook and queen at their own
/// mobilities on a plain board of the variant's size. A fairy piece is so
/// valued against the orthodox pieces as they would stand on its board
/// (a chancellor on 10x8 about a queen, in both phases), and long riders
/// gain in the endgame as the orthodox ones do (the queen 1.46 times her
/// middlegame value, the knight 0.94).
struct AutoCurve {
    /// `(lin, quad)` per phase, in centipawns.
    mg: (f64, f64),
    eg: (f64, f64),
}

impl AutoCurve {
    fn new(files: u8, ranks: u8, decay: f64, p: &Params) -> AutoCurve {
        let (orth, diag, knight) = ([(0, 1)], [(1, 1)], [(1, 2), (2, 1)]);
        let m = |leaps: &[(i32, i32)], rides: &[(i32, i32)]| {
            plain_mobility(files, ranks, leaps, false, decay)
                + plain_mobility(files, ranks, rides, true, decay)
        };
        let anchors = [
            (m(&knight, &[]), p.knight),
            (m(&[], &diag), p.bishop),
            (m(&[], &orth), p.rook),
            (m(&[], &[(0, 1), (1, 1)]), p.queen),
        ];
        let fallback = (p.auto_lin as f64 / 100.0, p.auto_quad as f64 / 100.0);
        let fit = |phase: fn((i32, i32)) -> i32| {
            // Normal equations of the two-parameter least squares.
            let (mut s2, mut s3, mut s4, mut sv1, mut sv2) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(m, val) in &anchors {
                let v = phase(val) as f64;
                (s2, s3, s4) = (s2 + m * m, s3 + m * m * m, s4 + m * m * m * m);
                (sv1, sv2) = (sv1 + v * m, sv2 + v * m * m);
            }
            let det = s2 * s4 - s3 * s3;
            // A board too small or narrow for the anchors to tell a curve.
            if det <= 1e-6 * s2 * s4 {
                return fallback;
            }
            ((sv1 * s4 - sv2 * s3) / det, (s2 * sv2 - s3 * sv1) / det)
        };
        AutoCurve {
            mg: fit(|v| v.0),
            eg: fit(|v| v.1),
        }
    }

    /// The `(mg, eg)` value at mobility `m`, never below zero.
    fn value(&self, m: f64) -> (i32, i32) {
        let at = |(lin, quad): (f64, f64)| (lin * m + quad * m * m).max(0.0).round() as i32;
        (at(self.mg), at(self.eg))
    }
}

/// Average empty-board mobility on a plain `files` x `ranks` board of a
/// piece with the given vectors (each turned by quarter turns), as a
/// leaper or as a rider whose further steps weigh `decay`^(k-1).
fn plain_mobility(files: u8, ranks: u8, vectors: &[(i32, i32)], rider: bool, decay: f64) -> f64 {
    let (w, h) = (files as i32, ranks as i32);
    let mut total = 0.0;
    for x in 0..w {
        for y in 0..h {
            for &(a, b) in vectors {
                for (dx, dy) in [(a, b), (-a, -b), (-b, a), (b, -a)] {
                    let (mut weight, mut k) = (1.0, 1);
                    while (0..w).contains(&(x + dx * k)) && (0..h).contains(&(y + dy * k)) {
                        total += weight;
                        weight *= decay;
                        if !rider {
                            break;
                        }
                        k += 1;
                    }
                }
            }
        }
    }
    total / (w * h).max(1) as f64
}

/// Empty-board mobility of a kind from a square; riders count each further
/// step with weight `decay`^(k-1).
fn empty_mobility(v: &Variant, kind: usize, sq: u8, decay: f64) -> f64 {
    let mut m = 0.0;
    for c in &v.components[kind] {
        match c.family {
            Family::Leaper => {
                for &d in &c.dirs[0] {
                    if v.steps.step(d, sq) != NO_SQ {
                        m += 1.0;
                    }
                }
            }
            Family::Rider => {
                for &d in &c.dirs[0] {
                    let mut w = 1.0;
                    let mut s = v.steps.step(d, sq);
                    let mut n = 0;
                    while s != NO_SQ && s != sq && n < 24 {
                        m += w;
                        w *= decay;
                        s = v.steps.step(d, s);
                        n += 1;
                    }
                }
            }
            Family::Pawn => m += 1.0,
            _ => {
                // Families without a generator yet: count their leg vectors
                // as leaps (a rough but positive value).
                for &d in &c.dirs[0] {
                    if v.steps.step(d, sq) != NO_SQ {
                        m += 1.0;
                    }
                }
            }
        }
        if c.mode != Mode::Both {
            // Move-only or capture-only halves count half.
            m *= 0.75;
        }
    }
    m
}

fn same_movement(v: &Variant, kind: usize, name: &str) -> bool {
    named_piece(name)
        .map(|s| v.pieces[kind].movement.to_string() == s)
        .unwrap_or(false)
}

/// Orthodox role of a kind on an 8x8 board (0 pawn .. 5 king), recognised
/// by its movement, for the learned tables of [`Params::ortho_pst`].
pub fn ortho_role(v: &Variant, kind: usize) -> Option<u8> {
    if v.geometry.files != 8 || v.geometry.ranks != 8 || v.geometry.topology != Topology::Plain {
        return None;
    }
    if v.pawn_kind == Some(kind as u8) {
        return Some(0);
    }
    let roles = ["knight", "bishop", "rook", "queen"];
    if let Some(i) = roles.iter().position(|r| same_movement(v, kind, r)) {
        return Some(i as u8 + 1);
    }
    if v.royal_kind == Some(kind as u8) && same_movement(v, kind, "king") {
        return Some(5);
    }
    None
}

impl EvalTables {
    /// Tables for a variant (cached: built once per variant).
    pub fn for_variant(v: &'static Variant) -> Arc<EvalTables> {
        Self::cached(v, true)
    }

    /// The tables of `v` without the learned network (`Use NNUE false`).
    pub fn classical(v: &'static Variant) -> Arc<EvalTables> {
        Self::cached(v, false)
    }

    /// The tables of `v` with a network trained for it (`EvalFile`);
    /// refused when the network is for another variant or piece set. Kept
    /// while the same network is in use.
    pub fn with_network(
        v: &'static Variant,
        net: &Arc<Network>,
    ) -> Result<Arc<EvalTables>, NetError> {
        type Last = parking_lot::Mutex<Option<(usize, Arc<Network>, Arc<EvalTables>)>>;
        static LAST: OnceLock<Last> = OnceLock::new();
        let map = NnueMap::with_network(v, net.clone())?;
        let last = LAST.get_or_init(|| parking_lot::Mutex::new(None));
        let mut last = last.lock();
        let key = v as *const Variant as usize;
        if let Some((k, n, t)) = last.as_ref() {
            if *k == key && Arc::ptr_eq(n, net) {
                return Ok(t.clone());
            }
        }
        let mut t = EvalTables::build(v, &PARAMS);
        t.nnue = Some(map);
        let t = Arc::new(t);
        *last = Some((key, net.clone(), t.clone()));
        Ok(t)
    }

    /// The tables a search of `v` uses: with the network loaded by
    /// `EvalFile` when it fits `v`, else with the embedded one where it
    /// applies; without any network when `use_nnue` is off.
    pub fn for_search(
        v: &'static Variant,
        use_nnue: bool,
        eval_net: Option<&Arc<Network>>,
    ) -> Arc<EvalTables> {
        if !use_nnue {
            return Self::classical(v);
        }
        if let Some(Ok(t)) = eval_net.map(|net| Self::with_network(v, net)) {
            return t;
        }
        Self::for_variant(v)
    }

    fn cached(v: &'static Variant, nnue: bool) -> Arc<EvalTables> {
        type Cache = parking_lot::Mutex<HashMap<(usize, bool), Arc<EvalTables>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(|| parking_lot::Mutex::new(HashMap::new()));
        let key = (v as *const Variant as usize, nnue);
        let mut map = cache.lock();
        map.entry(key)
            .or_insert_with(|| {
                let mut t = EvalTables::build(v, &PARAMS);
                if !nnue {
                    t.nnue = None;
                }
                Arc::new(t)
            })
            .clone()
    }

    #[allow(clippy::needless_range_loop)]
    pub fn build(v: &'static Variant, p: &Params) -> EvalTables {
        let n = v.pieces.len();
        let geo = v.geometry;
        let nsq = geo.num_squares();
        let decay = p.rider_decay as f64 / 100.0;
        let mut value = vec![(0, 0); n];
        let mut order_value = vec![0; n];
        let mut mob = vec![(0, 0); n];
        let mut mob_avg = vec![0; n];
        let mut phase_w = vec![0; n];
        let mut orth_rider = vec![false; n];
        let mut bishop_kind = None;
        let mut avg_mob_f = vec![0.0; n];
        let curve = AutoCurve::new(geo.files, geo.ranks, decay, p);
        for k in 0..n {
            let royal = v.royal_kind == Some(k as u8);
            let pawn = v.pawn_kind == Some(k as u8);
            let avg: f64 = (0..nsq as u8)
                .map(|s| empty_mobility(v, k, s, decay))
                .sum::<f64>()
                / nsq as f64;
            avg_mob_f[k] = avg;
            let auto = curve.value(avg);
            let val = if let Some(val) = v.pieces[k].value {
                // The variant file's value (fitted from self-play by
                // `fers-tune -values`, or given by hand) comes first.
                val
            } else if let Some(val) = passive_value(v, k) {
                val
            } else if pawn {
                p.pawn
            } else if same_movement(v, k, "knight") {
                p.knight
            } else if same_movement(v, k, "bishop") {
                bishop_kind = Some(k as u8);
                p.bishop
            } else if same_movement(v, k, "rook") {
                p.rook
            } else if same_movement(v, k, "queen") {
                p.queen
            } else {
                auto
            };
            orth_rider[k] = v.components[k].iter().any(|c| {
                c.family == Family::Rider
                    && c.dirs[0].iter().any(|&d| {
                        let (x, y) = v.steps.vectors[d as usize];
                        x == 0 || y == 0
                    })
            });
            if royal {
                value[k] = (0, 0);
                order_value[k] = 20000;
            } else {
                value[k] = val;
                order_value[k] = val.0;
            }
            if !royal && !pawn {
                phase_w[k] = (val.0 + 50) / 100;
                // Full-board mobility (no decay) for the mobility term.
                let full: f64 = (0..nsq as u8)
                    .map(|s| empty_mobility(v, k, s, 1.0))
                    .sum::<f64>()
                    / nsq as f64;
                let full = full.max(1.0);
                mob[k] = (
                    (p.mob_scale_mg as f64 / full).round() as i32,
                    (p.mob_scale_eg as f64 / full).round() as i32,
                );
                // Typical mobility in play is about 45% of the empty board's.
                mob_avg[k] = (full * 0.45 * 16.0) as i32; // in 1/16 squares
            }
        }

        // Piece-square tables (White's view; Black mirrored by rank).
        let mut pst_w = vec![[(0, 0); MAX_SQUARES]; n];
        let center_f = (geo.files as f64 - 1.0) / 2.0;
        let center_r = (geo.ranks as f64 - 1.0) / 2.0;
        let scale_rank = |r: u8| -> usize {
            // Relative rank mapped onto 0..7 for the 8-entry tables.
            if geo.ranks <= 1 {
                return 0;
            }
            ((r as usize * 7 + (geo.ranks as usize - 1) / 2) / (geo.ranks as usize - 1)).min(7)
        };
        // Under nocapture material changes only by promotion: it weighs a
        // quarter, so that mobility and the kings decide.
        let material_pct = if v.conditions.has(Condition::NoCapture) {
            25
        } else {
            100
        };
        for k in 0..n {
            let royal = v.royal_kind == Some(k as u8);
            let pawn = v.pawn_kind == Some(k as u8);
            for sq in 0..nsq as u8 {
                let f = geo.file_of(sq) as f64;
                let r = geo.rank_of(sq);
                let (mut mg, mut eg) = (
                    value[k].0 * material_pct / 100,
                    value[k].1 * material_pct / 100,
                );
                if pawn {
                    let rr = scale_rank(r);
                    mg += p.pawn_advance_mg[rr];
                    eg += p.pawn_advance_eg[rr];
                    let fd = (f - center_f).abs();
                    if fd < 1.0 && (2..=4).contains(&rr) {
                        mg += p.pawn_center_mg;
                    }
                } else if royal {
                    let fd = (f - center_f).abs();
                    mg += -p.king_rank_mg * r.min(4) as i32 - 20 + (10.0 * fd.min(3.0)) as i32;
                    let cd = fd.max((r as f64 - center_r).abs());
                    eg += (p.king_center_eg as f64 * (2.5 - cd)) as i32;
                } else {
                    let m = empty_mobility(v, k, sq, decay);
                    let avg = avg_mob_f[k].max(0.5);
                    let rel = (m - avg) / avg;
                    mg += (rel * value[k].0 as f64 * p.center_mg as f64 / 100.0) as i32;
                    eg += (rel * value[k].1 as f64 * p.center_eg as f64 / 100.0) as i32;
                }
                pst_w[k][sq as usize] = (mg, eg);
            }
        }
        // Learned corrections for the orthodox pieces of 8x8 chess.
        let ortho_role: Vec<Option<u8>> = (0..n).map(|k| ortho_role(v, k)).collect();
        for k in 0..n {
            if let Some(role) = ortho_role[k] {
                for sq in 0..64 {
                    let (a, b) = p.ortho_pst[role as usize][sq];
                    pst_w[k][sq].0 += a;
                    pst_w[k][sq].1 += b;
                }
            }
        }
        let mut pst_b = vec![[(0, 0); MAX_SQUARES]; n];
        for k in 0..n {
            for sq in 0..nsq as u8 {
                let m = geo.square(geo.file_of(sq), geo.ranks - 1 - geo.rank_of(sq));
                pst_b[k][sq as usize] = pst_w[k][m as usize];
            }
        }

        let mut zone = vec![SquareSet::EMPTY; MAX_SQUARES];
        for sq in 0..nsq as u8 {
            let mut z = SquareSet::EMPTY;
            z.insert(sq);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(t) = geo.offset(sq, dx, dy) {
                        z.insert(t);
                    }
                }
            }
            zone[sq as usize] = z;
        }

        // Phase total from the start position.
        let start = Position::startpos(v);
        let mut phase_total = 0;
        for c in [Color::White, Color::Black] {
            for sq in start.occupied(c).iter() {
                phase_total += phase_w[start.piece_at(sq).kind() as usize];
            }
        }

        // Check pre-filter tables.
        let mut check_filter = true;
        let mut check_from = [
            vec![vec![SquareSet::EMPTY; MAX_SQUARES]; n],
            vec![vec![SquareSet::EMPTY; MAX_SQUARES]; n],
        ];
        let mut lines = vec![SquareSet::EMPTY; MAX_SQUARES];
        for ci in 0..2 {
            for k in 0..n {
                let pawn = v.pawn_kind == Some(k as u8);
                for from in 0..nsq as u8 {
                    let mut hit = |to: u8| check_from[ci][k][to as usize].insert(from);
                    if pawn {
                        for &d in &v.pawn_captures[ci] {
                            let to = v.steps.step(d, from);
                            if to != NO_SQ {
                                hit(to);
                            }
                        }
                    }
                    for c in &v.components[k] {
                        match c.family {
                            Family::Leaper => {
                                for &d in &c.dirs[ci] {
                                    let to = v.steps.step(d, from);
                                    if to != NO_SQ {
                                        hit(to);
                                    }
                                }
                            }
                            Family::Rider => {
                                for &d in &c.dirs[ci] {
                                    let mut to = v.steps.step(d, from);
                                    let mut n = 0;
                                    while to != NO_SQ && to != from && n < MAX_SQUARES {
                                        hit(to);
                                        lines[to as usize].insert(from);
                                        lines[from as usize].insert(to);
                                        to = v.steps.step(d, to);
                                        n += 1;
                                    }
                                }
                            }
                            Family::Pawn => {}
                            _ => check_filter = false,
                        }
                    }
                }
            }
        }
        let chess_like =
            v.royal_kind.is_some() && v.stalemate == fers_core::variant::StalemateRule::Draw;
        let nnue = NnueMap::for_variant(v, &ortho_role);
        EvalTables {
            drawish_scaling: crate::wormhole_eval::drawish_scaling(v),
            baroque: v
                .capture
                .as_ref()
                .map(|_| crate::baroque_eval::BaroqueValues::new(v)),
            variant: v,
            params: p.clone(),
            ortho_role,
            nnue,
            n,
            value,
            order_value,
            pst: [pst_w, pst_b],
            mob,
            mob_avg,
            phase_w,
            phase_total: phase_total.max(1),
            zone,
            orth_rider,
            bishop_kind,
            // The core's capability set says which shortcuts are sound.
            null_move_ok: chess_like && v.caps.null_move,
            chess_like,
            check_from,
            lines,
            check_filter: check_filter && v.caps.check_filter,
        }
    }

    /// Game phase 0 (bare endgame) ..= 256 (start position).
    pub fn phase(&self, pos: &Position) -> i32 {
        let mut ph = 0;
        for c in [Color::White, Color::Black] {
            for sq in pos.occupied(c).iter() {
                ph += self.phase_w[pos.piece_at(sq).kind() as usize];
            }
        }
        ph.min(self.phase_total) * 256 / self.phase_total
    }

    /// May this move give check? False only when it certainly does not
    /// (a quick filter before playing the move to find out): it lands
    /// where its piece attacks the other royal piece on an empty board, or
    /// it opens a line to it (judged exactly where the core knows each
    /// rider's line, `lazy_pins`; else any start square on a line through
    /// the royal piece).
    #[inline]
    pub fn may_give_check(&self, pos: &Position, m: fers_core::Move) -> bool {
        match self.check_geometry(pos, m) {
            None => true,
            Some((direct, on_line)) => {
                direct
                    || (on_line
                        && (!pos.variant().caps.lazy_pins
                            || pos.line_opened(m, pos.side_to_move().flip())))
            }
        }
    }

    /// Could the move check on an empty board: it lands where its piece
    /// attacks the other royal piece, or it leaves a line through it? The
    /// search's continuation-history pruning spares these moves (sparing
    /// only those `may_give_check` keeps measured -17.4 +/- 25.7 Elo in
    /// chess at 20,000 nodes a move, docs/search.md, twenty-fifth session).
    #[inline]
    pub fn near_check(&self, pos: &Position, m: fers_core::Move) -> bool {
        match self.check_geometry(pos, m) {
            None => true,
            Some((direct, on_line)) => direct || on_line,
        }
    }

    /// The empty-board facts behind the check filters: whether the moved
    /// (or promoted) piece attacks the other royal square from `m.to()`,
    /// and whether `m.from()` is on a line through it. `None` where the
    /// filter does not apply (every move may check).
    #[inline]
    fn check_geometry(&self, pos: &Position, m: fers_core::Move) -> Option<(bool, bool)> {
        if !self.check_filter {
            return None;
        }
        let us = pos.side_to_move();
        let Some(ksq) = pos.royal_square(us.flip()) else {
            return Some((false, false));
        };
        if !matches!(
            m.flag(),
            fers_core::MoveFlag::Normal | fers_core::MoveFlag::DoubleStep
        ) {
            return None;
        }
        let kind = m
            .promotion()
            .unwrap_or_else(|| pos.piece_at(m.from()).kind()) as usize;
        if kind >= self.n {
            return None;
        }
        Some((
            self.check_from[us.index()][kind][ksq as usize].contains(m.to()),
            self.lines[ksq as usize].contains(m.from()),
        ))
    }

    /// Non-pawn, non-royal material of a side (midgame values).
    pub fn non_pawn_material(&self, pos: &Position, c: Color) -> i32 {
        let v = self.variant;
        pos.occupied(c)
            .iter()
            .map(|sq| {
                let k = pos.piece_at(sq).kind();
                if Some(k) == v.pawn_kind {
                    0
                } else {
                    self.value[k as usize].0
                }
            })
            .sum()
    }
}

#[derive(Clone, Copy, Default)]
struct S(i32, i32);
impl std::ops::AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::AddAssign<(i32, i32)> for S {
    #[inline]
    fn add_assign(&mut self, o: (i32, i32)) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

/// Per-side information gathered in a first pass (the pawns' is in the
/// [`PawnEntry`]).
struct SideInfo {
    royal: u8,
    non_pawn: i32,
    bishops: i32,
    /// Square colours of the bishops, as bits `1 << ((file + rank) & 1)`.
    bishop_colours: u8,
}

/// Evaluates the position from the side to move's point of view (the pawn
/// structure computed afresh: for tools and tests).
pub fn evaluate(pos: &Position, t: &EvalTables) -> i32 {
    eval_with(pos, t, &PawnEntry::compute(pos, t), -i32::MAX, i32::MAX).0
}

/// The network's evaluation from the side to move's view, computed from
/// scratch (for tools and the `eval` command), a residual network's added
/// to its weight of [`evaluate`]; `None` when `t` has no network.
pub fn evaluate_network(pos: &Position, t: &EvalTables) -> Option<i32> {
    let map = t.nnue.as_ref()?;
    let net = crate::nnue::evaluate(pos, map);
    Some(match map.residual() {
        None => net,
        Some(_) => map.with_hand(net, evaluate(pos, t)),
    })
}

/// [`evaluate`], with the pawn structure from (and into) `cache`.
pub fn evaluate_cached(pos: &Position, t: &EvalTables, cache: &mut PawnCache) -> i32 {
    eval_with(pos, t, cache.probe(pos, t), -i32::MAX, i32::MAX).0
}

/// Margin of the lazy evaluation.
pub const LAZY_MARGIN: i32 = 500;

/// Like [`evaluate_cached`], but returns the material-and-tables score early
/// when it is more than [`LAZY_MARGIN`] outside `(alpha, beta)`; `true` when
/// the score is the full evaluation (not that early estimate).
pub fn evaluate_lazy_cached(
    pos: &Position,
    t: &EvalTables,
    cache: &mut PawnCache,
    alpha: i32,
    beta: i32,
) -> (i32, bool) {
    eval_with(pos, t, cache.probe(pos, t), alpha, beta)
}

/// The hand-written evaluation: material and tables (`material`), where
/// the lazy estimate may stop; then per side passed pawns (`passed_pawns`)
/// and pieces (`piece_terms`, which gather the attacks), threats
/// (`threats`) and king safety (`king_safety`); endgame scaling
/// (`endgame_scale`) and the taper by phase.
fn eval_with(pos: &Position, t: &EvalTables, pe: &PawnEntry, alpha: i32, beta: i32) -> (i32, bool) {
    let pw = &pe.side;
    let v = t.variant;
    if let Some(rules) = &v.chains {
        // Stones on lines: none of the chess terms below apply.
        return (crate::fanorona_eval::evaluate(pos, rules), true);
    }
    if let (Some(vals), Some(rules)) = (&t.baroque, &v.capture) {
        // Passive captures and immobilisers: `baroque_eval.rs`.
        return (crate::baroque_eval::evaluate(pos, vals, rules), true);
    }
    let p = &t.params;
    let (mut side, info, phase_sum) = material(pos, t, pw);
    let phase = phase_sum.min(t.phase_total) * 256 / t.phase_total;
    let ui = pos.side_to_move().index();
    let ti = ui ^ 1;
    let quick = taper(side[ui].0 - side[ti].0, side[ui].1 - side[ti].1, phase);
    if quick - LAZY_MARGIN >= beta || quick + LAZY_MARGIN <= alpha {
        return (quick, false);
    }

    let mut att = Attacks {
        danger_units: [0; 2],
        piece_att: [SquareSet::EMPTY; 2],
        kind_att: [[SquareSet::EMPTY; KIND_ATT]; 2],
        attackers: [0; 2],
        has_queen: [false; 2],
    };
    let pass = Pass {
        pos,
        t,
        pw,
        info: &info,
    };
    for c in [Color::White, Color::Black] {
        side[c.index()] += pass.passed_pawns(c);
        side[c.index()] += pass.piece_terms(c, &mut att);
    }
    // Threats assume a capture removes its victim and nothing else.
    if v.caps.exact_see || v.conditions.is_empty() {
        for c in [Color::White, Color::Black] {
            side[c.index()] += pass.threats(c, &att);
        }
    }
    for c in [Color::White, Color::Black] {
        side[c.index()] += pass.king_safety(c, &att);
    }

    let mg = side[ui].0 - side[ti].0 + p.tempo;
    let eg = endgame_scale(t, pw, &info, ui, side[ui].1 - side[ti].1);
    let score = taper(mg, eg, phase);
    // Fade towards a draw as the move-count rule approaches.
    let rule = v.move_rule as i32;
    if rule > 0 {
        let hm = pos.halfmove_clock() as i32;
        return (score * (rule * 2 - hm).max(0) / (rule * 2), true);
    }
    (score, true)
}

/// Middlegame and endgame scores blended by `phase` (256: all middlegame).
#[inline]
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (256 - phase)) / 256
}

/// What the pieces of each side attack, gathered by [`piece_terms`] for
/// threats and king safety (index: the attacking colour, except
/// `danger_units` and `attackers`, which count against that colour's king).
struct Attacks {
    danger_units: [i32; 2],
    /// Squares attacked by pieces (not pawns), and the same per kind.
    piece_att: [SquareSet; 2],
    kind_att: [[SquareSet; KIND_ATT]; 2],
    attackers: [i32; 2],
    has_queen: [bool; 2],
}

/// Pass 1: material and piece-square tables per side (the pawns' from the
/// entry), the bishop pair, and the game phase.
fn material(pos: &Position, t: &EvalTables, pw: &[PawnSide; 2]) -> ([S; 2], [SideInfo; 2], i32) {
    let v = t.variant;
    let geo = v.geometry;
    let mut side = [S::default(), S::default()];
    let mut info: [SideInfo; 2] = [0, 1].map(|_| SideInfo {
        royal: NO_SQ,
        non_pawn: 0,
        bishops: 0,
        bishop_colours: 0,
    });
    let mut phase_sum = pw[0].phase + pw[1].phase;
    for c in [Color::White, Color::Black] {
        let ci = c.index();
        let pst = &t.pst[ci];
        let mut s = S::default();
        s += pw[ci].pst;
        for sq in pos.occupied(c).and_not(pw[ci].set).iter() {
            let k = pos.piece_at(sq).kind() as usize;
            if k >= t.n {
                continue;
            }
            s += pst[k][sq as usize];
            phase_sum += t.phase_w[k];
            if Some(k as u8) == v.royal_kind {
                info[ci].royal = sq;
            } else {
                info[ci].non_pawn += t.value[k].0;
                if Some(k as u8) == t.bishop_kind {
                    info[ci].bishops += 1;
                    info[ci].bishop_colours |= 1 << ((geo.file_of(sq) + geo.rank_of(sq)) & 1);
                }
            }
        }
        if info[ci].bishops >= 2 {
            s += t.params.bishop_pair;
        }
        side[ci] = s;
    }
    (side, info, phase_sum)
}

/// What the passes after the material one read: the position, the
/// tables, the pawn entry's sides and the material pass's findings.
#[derive(Clone, Copy)]
struct Pass<'a> {
    pos: &'a Position,
    t: &'a EvalTables,
    pw: &'a [PawnSide; 2],
    info: &'a [SideInfo; 2],
}

impl Pass<'_> {
    /// The pawn structure of `c` from the entry, space, and what its passed
    /// pawns owe to the other pieces: a free square in front, the kings'
    /// distances.
    fn passed_pawns(&self, c: Color) -> S {
        let Pass { pos, t, pw, info } = *self;
        let v = t.variant;
        let geo = v.geometry;
        let p = &t.params;
        let (ci, ti) = (c.index(), c.flip().index());
        let mut s = S::default();
        s += pw[ci].structure;
        let weight = (pos.occupied(c).len() as i32 - 3).max(0);
        s += (p.space * pw[ci].space * weight * weight / 256, 0);
        for sq in pw[ci].passed.iter() {
            let idx = scale_rank8(geo.ranks, v.relative_rank(c, sq));
            let front = v.steps.step(v.pawn_push[ci], sq);
            if front != NO_SQ && pos.piece_at(front).is_empty() {
                let w = idx as i32;
                s += (p.passed_free.0 * w / 4, p.passed_free.1 * w / 4);
            }
            if front != NO_SQ && info[ti].royal != NO_SQ && info[ci].royal != NO_SQ {
                let dt = dist(geo, info[ti].royal, front);
                let do_ = dist(geo, info[ci].royal, front);
                s += (
                    0,
                    (dt - do_) * p.passed_king_dist_eg * (idx as i32).max(1) / 3,
                );
            }
        }
        s
    }

    /// Pass 2 for the pieces of `c` (not pawns, not the royal piece):
    /// mobility and king-zone attacks (recorded in `att`), bishops and their
    /// own pawns, minor pieces behind pawns, outposts, rooks on the seventh
    /// and on open files.
    fn piece_terms(&self, c: Color, att: &mut Attacks) -> S {
        let Pass { pos, t, pw, info } = *self;
        let v = t.variant;
        let geo = v.geometry;
        let p = &t.params;
        let (ci, ti) = (c.index(), c.flip().index());
        let own = pos.occupied(c);
        let enemy_king_zone = if info[ti].royal != NO_SQ {
            t.zone[info[ti].royal as usize]
        } else {
            SquareSet::EMPTY
        };
        let unsafe_sq = pw[ti].attacks;
        let mut s = S::default();
        for sq in own.and_not(pw[ci].set).iter() {
            let k = pos.piece_at(sq).kind();
            let ku = k as usize;
            if ku >= t.n || Some(k) == v.royal_kind {
                continue;
            }
            let (m, hits, reach) = piece_reach(pos, v, ku, c, sq, own, unsafe_sq, enemy_king_zone);
            att.piece_att[ci] = att.piece_att[ci].or(reach);
            if ku < KIND_ATT {
                att.kind_att[ci][ku] = att.kind_att[ci][ku].or(reach);
            }
            if t.value[ku].0 >= 800 {
                att.has_queen[ci] = true;
            }
            let (wm, we) = t.mob[ku];
            let centered = m * 16 - t.mob_avg[ku];
            s += (wm * centered / 16, we * centered / 16);
            if hits > 0 {
                att.attackers[ti] += 1;
                att.danger_units[ti] += hits * (t.value[ku].0 / 100).max(1);
            }
            if Some(k) == t.bishop_kind {
                let colour = ((geo.file_of(sq) + geo.rank_of(sq)) & 1) as usize;
                let n = pw[ci].by_colour[colour];
                s += (p.bishop_pawns.0 * n, p.bishop_pawns.1 * n);
            }
            if v.pawn_kind.is_some() {
                let rr = v.relative_rank(c, sq) as usize;
                let minor = !t.orth_rider[ku] && t.value[ku].0 < 400;
                if minor {
                    let front = v.steps.step(v.pawn_push[ci], sq);
                    if front != NO_SQ && (pw[0].set.contains(front) || pw[1].set.contains(front)) {
                        s += p.minor_behind_pawn;
                    }
                }
                if t.orth_rider[ku] && t.value[ku].0 < 700 && rr + 2 == geo.ranks as usize {
                    s += p.rook_seventh;
                }
                if minor
                    && 2 * rr >= geo.ranks as usize
                    && pw[ci].attacks.contains(sq)
                    && !pw[ti].attacks.contains(sq)
                {
                    s += p.outpost;
                }
                if t.orth_rider[ku] {
                    let f = geo.file_of(sq) as usize;
                    if pw[ci].files[f] == 0 {
                        if pw[ti].files[f] == 0 {
                            s += p.rook_open;
                        } else {
                            s += p.rook_semi_open;
                        }
                    }
                }
            }
        }
        s
    }

    /// Threats against the pieces of `c`'s enemy: attacked by pawns, hanging
    /// (attacked and undefended), attacked by a clearly less valuable piece.
    /// They assume that a capture removes its victim and nothing else
    /// (`Capabilities::exact_see`); under Circe, Andernach, kamikaze or
    /// nocapture an attacked piece is no such threat (`eval_with` skips them).
    fn threats(&self, c: Color, att: &Attacks) -> S {
        let Pass { pos, t, pw, info } = *self;
        let v = t.variant;
        let p = &t.params;
        let (ci, ti) = (c.index(), c.flip().index());
        let mut defended = att.piece_att[ti].or(pw[ti].attacks);
        if info[ti].royal != NO_SQ {
            defended = defended.or(t.zone[info[ti].royal as usize]);
        }
        let mut s = S::default();
        for sq in pos.occupied(c.flip()).and_not(pw[ti].set).iter() {
            let k = pos.piece_at(sq).kind();
            if Some(k) == v.pawn_kind || Some(k) == v.royal_kind || k as usize >= t.n {
                continue;
            }
            if pw[ci].attacks.contains(sq) {
                s += p.threat_by_pawn;
            } else if att.piece_att[ci].contains(sq) {
                if !defended.contains(sq) {
                    s += p.hanging;
                }
                // Attacked by a clearly less valuable piece.
                let victim = t.value[k as usize].0;
                if (0..t.n.min(KIND_ATT))
                    .any(|a| t.value[a].0 + 100 < victim && att.kind_att[ci][a].contains(sq))
                {
                    s += p.threat_by_lesser;
                }
            }
        }
        s
    }

    /// King safety of `c`: the pawn shelter (`king_shelter`), castling rights
    /// and a king left in the centre, and the danger from the enemy's attacks
    /// and checks (`king_danger`).
    fn king_safety(&self, c: Color, att: &Attacks) -> S {
        let Pass { pos, t, info, .. } = *self;
        let geo = t.variant.geometry;
        let p = &t.params;
        let ci = c.index();
        let k = info[ci].royal;
        if k == NO_SQ {
            return S::default();
        }
        let (mut s, open_files) = self.king_shelter(c, k);
        // Castling rights; a king left in the centre without them.
        let rights = (0..2)
            .filter(|&wing| pos.castle_rook(c, wing).is_some())
            .count() as i32;
        s += (p.castle_right_mg * rights, 0);
        let kf = geo.file_of(k) as i32;
        if rights == 0 && kf >= 2 && kf + 3 <= geo.files as i32 {
            s += (p.king_center_mg, 0);
        }
        if info[c.flip().index()].non_pawn > 0 {
            let d = self.king_danger(c, k, att, open_files);
            s += d;
        }
        s
    }

    /// The pawns at `c`'s king on `k`: the shield in front, enemy pawns
    /// storming, files without an own pawn (also returned: they add to the
    /// danger), a flank without pawns.
    fn king_shelter(&self, c: Color, k: u8) -> (S, i32) {
        let Pass { pos, t, pw, .. } = *self;
        let v = t.variant;
        let geo = v.geometry;
        let p = &t.params;
        let ci = c.index();
        let mut s = S::default();
        let mut open_files = 0;
        let Some(pk) = v.pawn_kind else {
            return (s, 0);
        };
        let kf = geo.file_of(k) as i32;
        let near_files = (kf - 1).max(0)..=(kf + 1).min(geo.files as i32 - 1);
        if v.relative_rank(c, k) <= 1 {
            let push = v.pawn_push[ci];
            let pawn = fers_core::Piece::new(pk, c);
            for f in near_files.clone() {
                let base = geo.square(f as u8, geo.rank_of(k));
                let s1 = v.steps.step(push, base);
                if s1 == NO_SQ {
                    continue;
                }
                if pos.piece_at(s1) == pawn {
                    s += (p.shield1, 0);
                } else {
                    let s2 = v.steps.step(push, s1);
                    if s2 != NO_SQ && pos.piece_at(s2) == pawn {
                        s += (p.shield2, 0);
                    }
                }
            }
        }
        // Enemy pawns storming the files at the king: the nearest one ahead
        // on each file, by its distance in ranks.
        if v.relative_rank(c, k) <= 2 {
            let kr = v.relative_rank(c, k) as i32;
            let e = &pw[ci ^ 1];
            for f in near_files.clone() {
                if e.files[f as usize] == 0 {
                    continue;
                }
                let near = if c == Color::White {
                    e.min[f as usize] as i32
                } else {
                    geo.ranks as i32 - 1 - e.max[f as usize] as i32
                };
                let d = near - kr;
                if (1..=4).contains(&d) {
                    s += (p.pawn_storm[d as usize], 0);
                }
            }
        }
        // Files at the king without an own pawn, wherever it stands.
        for f in near_files {
            if pw[ci].files[f as usize] == 0 {
                s += (p.king_open_file, 0);
                open_files += 1;
            }
        }
        // No pawn at all on the king's flank: open to attack, and nothing to
        // shelter behind in the endgame.
        let flank = (kf - 2).max(0)..=(kf + 2).min(geo.files as i32 - 1);
        if flank
            .into_iter()
            .all(|f| pw[0].files[f as usize] + pw[1].files[f as usize] == 0)
        {
            s += p.pawnless_flank;
        }
        (s, open_files)
    }

    /// The danger to `c`'s king on `k` from the enemy's pieces: king-zone
    /// attacks and attackers, weak zone squares, open files, safe and unsafe
    /// checks, no queen; quadratic in the middlegame, linear in the endgame.
    fn king_danger(&self, c: Color, k: u8, att: &Attacks, open_files: i32) -> S {
        let Pass { pos, t, pw, .. } = *self;
        let p = &t.params;
        let (ci, ti) = (c.index(), c.flip().index());
        let n_att = att.attackers[ci];
        let (safe, unsafe_) = checks(pos, t, c, k, &att.kind_att[ti], &att.piece_att, pw);
        if n_att < 1 && safe <= 0 {
            return S::default();
        }
        let weak = t.zone[k as usize]
            .and(att.piece_att[ti])
            .and_not(att.piece_att[ci].or(pw[ci].attacks))
            .len() as i32;
        let units4 = 4 * att.danger_units[ci]
            + p.danger_attacker * n_att
            + p.danger_weak * weak
            + p.danger_open_file * open_files
            + p.danger_safe_check * safe / 2
            + p.danger_unsafe_check * unsafe_
            + if att.has_queen[ti] {
                0
            } else {
                p.danger_no_queen
            };
        let units4 = units4.max(0);
        let scale = match n_att {
            0 | 1 => 1,
            2 => 3,
            _ => 4,
        };
        let pen = (units4 * units4 * scale / (8 * p.king_danger_div)).min(p.king_danger_cap);
        S(-pen, -(units4 * p.king_danger_eg / 64))
    }
}

/// Where the piece of kind `ku` of `c` on `sq` reaches: its mobility (the
/// squares neither own nor attacked by enemy pawns), its hits on the
/// enemy king's zone, and every square it attacks.
#[allow(clippy::too_many_arguments)]
#[inline]
fn piece_reach(
    pos: &Position,
    v: &Variant,
    ku: usize,
    c: Color,
    sq: u8,
    own: SquareSet,
    unsafe_sq: SquareSet,
    enemy_king_zone: SquareSet,
) -> (i32, i32, SquareSet) {
    let ci = c.index();
    let mut m = 0i32;
    let mut hits = 0i32;
    let mut att = SquareSet::EMPTY;
    let mut visit = |to: u8| {
        if !unsafe_sq.contains(to) && !own.contains(to) {
            m += 1;
        }
        att.insert(to);
        if enemy_king_zone.contains(to) {
            hits += 1;
        }
    };
    // Move-only components count for mobility as well.
    for comp in &v.components[ku] {
        match comp.family {
            Family::Rider => {
                for &d in &comp.dirs[ci] {
                    let mut to = v.steps.step(d, sq);
                    while to != NO_SQ && to != sq {
                        visit(to);
                        if !pos.piece_at(to).is_empty() {
                            break;
                        }
                        to = v.steps.step(d, to);
                    }
                }
            }
            _ => {
                for &d in &comp.dirs[ci] {
                    let to = v.steps.step(d, sq);
                    if to != NO_SQ {
                        visit(to);
                    }
                }
            }
        }
    }
    (m, hits, att)
}

/// Endgame scaling of `eg` (White-relative to the side `ui`): a side
/// without pawns needs more than a minor piece; bishops of opposite
/// colours alone are hard to convert. Not in games without draws
/// (Wormhole: an edge is an edge).
fn endgame_scale(
    t: &EvalTables,
    pw: &[PawnSide; 2],
    info: &[SideInfo; 2],
    ui: usize,
    eg: i32,
) -> i32 {
    if !t.drawish_scaling {
        return eg;
    }
    let strong = if eg > 0 { ui } else { ui ^ 1 };
    let weak = strong ^ 1;
    if pw[strong].count == 0 && t.variant.pawn_kind.is_some() {
        let diff = info[strong].non_pawn - info[weak].non_pawn;
        if diff <= 400 {
            return eg / if info[strong].non_pawn <= 400 { 16 } else { 4 };
        }
        return eg;
    }
    if let Some(b) = t.bishop_kind {
        // The defender blockades on the squares the other bishop cannot
        // reach.
        let bishop = t.value[b as usize].0;
        if info[0].non_pawn == bishop
            && info[1].non_pawn == bishop
            && info[0].bishops == 1
            && info[1].bishops == 1
            && info[0].bishop_colours != info[1].bishop_colours
        {
            return eg * t.params.ocb_scale.clamp(0, 64) / 64;
        }
    }
    eg
}

/// Kinds whose attacks are kept apart for the safe-check count (kinds
/// beyond this count are not counted as checkers).
const KIND_ATT: usize = 16;

/// Checks the enemy of `c` can give to `c`'s royal piece at `k`: per
/// checking kind, 2 for one safe check square and 3 for more (summed over
/// kinds; safe = not guarded by `c`'s pawns, pieces or royal piece), and the
/// number of other check squares.
fn checks(
    pos: &Position,
    t: &EvalTables,
    c: Color,
    k: u8,
    kind_att: &[SquareSet; KIND_ATT],
    piece_att: &[SquareSet; 2],
    pw: &[PawnSide; 2],
) -> (i32, i32) {
    let v = t.variant;
    let ci = c.index();
    let them = c.flip();
    let ti = them.index();
    let guarded = piece_att[ci].or(pw[ci].attacks).or(t.zone[k as usize]);
    let (mut safe, mut unsafe_) = (0, 0);
    for (kind, att) in kind_att.iter().enumerate().take(t.n) {
        // Candidates first (the empty-board table): most kinds have none,
        // and then no line needs tracing.
        let reach = att
            .and_not(pos.occupied(them))
            .and(t.check_from[ti][kind][k as usize]);
        if reach.is_empty() {
            continue;
        }
        // Squares from which this kind attacks the royal piece now: the
        // empty-board table, cut by the occupancy along rider lines traced
        // from the royal piece (exact for symmetric pieces).
        let mut from = SquareSet::EMPTY;
        for comp in &v.components[kind] {
            for &d in &comp.dirs[ti] {
                let mut to = v.steps.step(d, k);
                while to != NO_SQ && to != k {
                    from.insert(to);
                    if comp.family != Family::Rider || !pos.piece_at(to).is_empty() {
                        break;
                    }
                    to = v.steps.step(d, to);
                }
            }
        }
        let hit = reach.and(from);
        if hit.is_empty() {
            continue;
        }
        let s = hit.and_not(guarded).len() as i32;
        safe += match s {
            0 => 0,
            1 => 2,
            _ => 3,
        };
        unsafe_ += hit.len() as i32 - s;
    }
    (safe, unsafe_)
}

#[inline]
pub(crate) fn scale_rank8(ranks: u8, rr: u8) -> usize {
    if ranks <= 1 {
        return 0;
    }
    ((rr as usize * 7 + (ranks as usize - 1) / 2) / (ranks as usize - 1)).min(7)
}

#[inline]
fn dist(geo: fers_core::Geometry, a: u8, b: u8) -> i32 {
    let df = (geo.file_of(a) as i32 - geo.file_of(b) as i32).abs();
    let dr = (geo.rank_of(a) as i32 - geo.rank_of(b) as i32).abs();
    df.max(dr)
}

/// Is a pawn of `c` on file `f`, rank `r` passed, given the enemy's pawn
/// ranks per file?
#[inline]
pub(crate) fn is_passed(enemy: &PawnSide, files: usize, c: Color, f: usize, r: u8) -> bool {
    let lo = f.saturating_sub(1);
    let hi = (f + 1).min(files - 1).min(15);
    for ff in lo..=hi {
        if enemy.files[ff] == 0 {
            continue;
        }
        match c {
            Color::White if enemy.max[ff] > r => return false,
            Color::Black if enemy.min[ff] < r => return false,
            _ => {}
        }
    }
    true
}

/// Piece values under capture styles (Baroque), from how much each style
/// captures, not from its queen-like movement: the immobilizer and the
/// withdrawer strong, the pincers weak (middlegame, endgame).
pub(crate) fn passive_value(v: &Variant, k: usize) -> Option<(i32, i32)> {
    let r = v.capture.as_ref()?;
    if r.immobilizer & (1 << k) != 0 {
        return Some((700, 650));
    }
    Some(match r.style[k] {
        CaptureStyle::Pinch => (120, 150),
        CaptureStyle::Coordinate => (480, 500),
        CaptureStyle::LongLeap => (420, 450),
        CaptureStyle::Chameleon => (450, 450),
        CaptureStyle::Withdraw => (550, 520),
        CaptureStyle::None => (300, 300),
        CaptureStyle::Replace => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    #[test]
    fn start_position_is_balanced() {
        let v = variant::chess();
        let t = EvalTables::for_variant(v);
        let pos = Position::startpos(v);
        let e = evaluate(&pos, &t);
        assert_eq!(e, PARAMS.tempo, "only the tempo bonus at the start");
        assert_eq!(t.phase(&pos), 256);
    }

    #[test]
    fn symmetric_positions_mirror() {
        let v = variant::chess();
        let t = EvalTables::for_variant(v);
        let a = Position::from_fen(
            v,
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .unwrap();
        let b = Position::from_fen(
            v,
            "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 4 4",
        )
        .unwrap();
        assert_eq!(evaluate(&a, &t), evaluate(&b, &t));
    }

    #[test]
    fn material_counts() {
        let v = variant::chess();
        let t = EvalTables::for_variant(v);
        let up_queen = Position::from_fen(
            v,
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        assert!(evaluate(&up_queen, &t) > 700);
    }

    #[test]
    fn auto_values_follow_the_orthodox_pieces_on_every_board() {
        // The curve through the orthodox pieces, at their own mobilities,
        // gives back their tuned values within 15%, on any board size.
        let decay = PARAMS.rider_decay as f64 / 100.0;
        let tuned = [PARAMS.knight, PARAMS.bishop, PARAMS.rook, PARAMS.queen];
        type Vectors = &'static [(i32, i32)];
        let vectors: [(Vectors, Vectors); 4] = [
            (&[(1, 2), (2, 1)], &[]),
            (&[], &[(1, 1)]),
            (&[], &[(0, 1)]),
            (&[], &[(0, 1), (1, 1)]),
        ];
        for (files, ranks) in [(8, 8), (10, 8), (12, 12), (9, 9), (6, 6)] {
            let curve = AutoCurve::new(files, ranks, decay, &PARAMS);
            for ((leaps, rides), t) in vectors.iter().zip(tuned) {
                let m = plain_mobility(files, ranks, leaps, false, decay)
                    + plain_mobility(files, ranks, rides, true, decay);
                let (mg, eg) = curve.value(m);
                for (a, b) in [(mg, t.0), (eg, t.1)] {
                    let ratio = a as f64 / b as f64;
                    assert!((0.85..1.15).contains(&ratio), "{files}x{ranks}: {a} vs {b}");
                }
            }
        }
        // Capablanca's pieces on their 10x8 board: the chancellor about a
        // queen, the archbishop less; both gain in the endgame.
        let capa = crate::test_support::example("capablanca");
        let t = EvalTables::for_variant(capa);
        let value = |l: char| t.value[capa.kind_of_letter(l).unwrap() as usize];
        let (a, c, q, r) = (value('a'), value('c'), value('q'), value('r'));
        assert!(
            r.0 < a.0 && a.0 < c.0 && c.0 <= q.0 + 50,
            "{a:?} {c:?} {q:?}"
        );
        assert!(a.1 > a.0 && c.1 > c.0, "{a:?} {c:?}");
        assert!((c.1 - q.1).abs() < 100, "{c:?} {q:?}");
    }

    #[test]
    fn plain_mobility_counts_moves() {
        // A knight on 8x8: 336 moves from 64 squares; a rook 14 anywhere.
        assert_eq!(plain_mobility(8, 8, &[(1, 2), (2, 1)], false, 1.0), 5.25);
        assert_eq!(plain_mobility(8, 8, &[(0, 1)], true, 1.0), 14.0);
        // Decay 0.5 along a rook's ray on a 1x3 board: from the ends 1 + 0.5,
        // from the middle 1 + 1.
        assert_eq!(plain_mobility(1, 3, &[(0, 1)], true, 0.5), 5.0 / 3.0);
    }

    /// The check pre-filter never misses a check: in random games of
    /// chess, of every example variant and of a variant of riders and
    /// leapers of many shapes, every legal move that gives check is one
    /// `may_give_check` lets through (and, where the filter is exact, it
    /// lets through few others: discovered checks are judged along the
    /// line, `Position::line_opened`).
    #[test]
    fn the_check_filter_lets_every_check_through() {
        use fers_core::{variant_file, MoveList};
        use rand::{rngs::StdRng, Rng, SeedableRng};
        const EXAMPLES: &str = include_str!("../../variants/examples.ini");
        let pins = "[pins:chess]\nfiles = 10\nranks = 10\npiece.a = betza:BN\n\
                    piece.c = betza:RN\npiece.z = betza:NNZ\npiece.q = betza:QAD\n\
                    start = rnzbqkbczr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNZBQKBCZR w KQkq - 0 1\n\
                    promotion = q c z\n";
        let mut variants = vec![variant::chess()];
        for (name, text) in [("examples.ini", EXAMPLES), ("pins.ini", pins)] {
            for s in variant_file::load(name, text, &|_| None) {
                variants.push(s.result.unwrap_or_else(|e| panic!("{e}")));
            }
        }
        let mut rng = StdRng::seed_from_u64(677);
        let (mut checks, mut passed, mut moves) = (0usize, 0usize, 0usize);
        for v in variants {
            let t = EvalTables::for_variant(v);
            for _ in 0..8 {
                let mut pos = Position::startpos(v);
                for _ in 0..rng.gen_range(20..100) {
                    let mut list = MoveList::new();
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    for m in list.iter() {
                        let mut next = pos.clone();
                        next.play(m);
                        let may = t.may_give_check(&pos, m);
                        if next.in_check() {
                            assert!(may, "{} {} {}", v.name, pos.to_fen(), pos.move_to_uci(m));
                            checks += 1;
                        }
                        if t.check_filter && v.caps.lazy_pins {
                            moves += 1;
                            passed += may as usize;
                        }
                    }
                    pos.play(list.get(rng.gen_range(0..list.len())));
                }
            }
        }
        assert!(checks > 1000, "only {checks} checks");
        // Exact discovered checks: the filter passes a small share.
        assert!(moves > 10_000 && passed * 5 < moves, "{passed} of {moves}");
    }
}
