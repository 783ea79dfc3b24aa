//! fers' perft divide against Fairy-Stockfish's on many positions.
//!
//! The published suite is small and hand-picked; random playouts reach the
//! odd corners (under-promotions with check, en passant out of a pin,
//! castling rights lost by capture, ...) in numbers no suite has. Positions
//! come from seeded random playouts (moves chosen by fers-core among its own
//! legal moves) from the start position and from every suite position, and
//! from the opening positions of `tests/data/openings-8moves-2000.epd`. Each is
//! compared at depth 3 (a sample at depth 4): same root moves, same counts.
//! A disagreement is walked down to the position whose move list differs (see
//! `fers_tests::fsf::compare`), and reported with the playout that led there.
//!
//! Without Fairy-Stockfish the tests skip (or fail under CI), see
//! `fsf::engine_or_skip`. The seed can be changed with `FERS_FSF_SEED` to
//! explore further; failures print the seed.

use fers_core::{variant, MoveList, Position};
use fers_tests::fsf::{self, Engine};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

const DEFAULT_SEED: u64 = 0x6665_7273; // "fers"

fn seed() -> u64 {
    std::env::var("FERS_FSF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED)
}

/// A position to compare and how it was reached, for the failure message.
struct Sample {
    origin: String,
    moves: Vec<String>,
    pos: Position,
}

fn suite_fens() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chess.perft");
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

fn openings() -> Vec<String> {
    // A copy of shared/ref/chess/openings-8moves-2000.epd (see
    // tests/data/README.md), so that CI needs nothing outside the clone.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings-8moves-2000.epd");
    let fens: Vec<String> = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(fens.len(), 2000, "{path}");
    fens
}

/// `playouts` random games of up to `max_plies` from `fen`, keeping
/// `per_playout` positions of each at random plies (the origin itself can be
/// one of them).
fn playouts(
    rng: &mut StdRng,
    fen: &str,
    playouts: usize,
    per_playout: usize,
    max_plies: usize,
    out: &mut Vec<Sample>,
) {
    let v = variant::chess();
    let root = Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut list = MoveList::new();
    for _ in 0..playouts {
        let mut keep: Vec<usize> = (0..per_playout)
            .map(|_| rng.gen_range(0..=max_plies))
            .collect();
        keep.sort_unstable();
        keep.dedup();
        let mut pos = root.clone();
        let mut moves = Vec::new();
        for ply in 0..=max_plies {
            if keep.binary_search(&ply).is_ok() {
                out.push(Sample {
                    origin: fen.to_string(),
                    moves: moves.clone(),
                    pos: pos.clone(),
                });
            }
            pos.legal_moves(&mut list);
            if list.is_empty() {
                // Mate or stalemate: a fine sample (FSF must agree there is
                // nothing), then the game is over.
                if keep.last().is_some_and(|&k| k > ply) {
                    out.push(Sample {
                        origin: fen.to_string(),
                        moves: moves.clone(),
                        pos: pos.clone(),
                    });
                }
                break;
            }
            let m = list.get(rng.gen_range(0..list.len()));
            moves.push(pos.move_to_uci(m));
            pos.play(m);
        }
    }
}

/// Compares every sample at `depth`; returns the failure reports.
fn compare_all(engine: &mut Engine, samples: &[&Sample], depth: u32, failures: &mut Vec<String>) {
    for s in samples {
        // Stop early: one bug usually shows in many samples, and each
        // report costs a walk down the tree.
        if failures.len() >= 5 {
            return;
        }
        match fsf::compare(engine, &s.pos, depth) {
            Ok(None) => {}
            Ok(Some(m)) => failures.push(format!(
                "{m}  reached from {} by moves: {}",
                s.origin,
                if s.moves.is_empty() {
                    "(none)".to_string()
                } else {
                    s.moves.join(" ")
                }
            )),
            Err(e) => panic!("fairy-stockfish failed on {}: {e}", s.pos.to_fen()),
        }
    }
}

/// Runs the comparison: every sample at depth `shallow`, every
/// `deep_every`-th one ply deeper (0: none).
fn check(test: &str, samples: &[Sample], shallow: u32, deep_every: usize) {
    let Some(mut engine) = fsf::engine_or_skip(test) else {
        return;
    };
    let start = Instant::now();
    let all: Vec<&Sample> = samples.iter().collect();
    let deep: Vec<&Sample> = samples.iter().step_by(deep_every.max(1)).collect();
    let mut failures = Vec::new();
    compare_all(&mut engine, &all, shallow, &mut failures);
    if deep_every > 0 {
        compare_all(&mut engine, &deep, shallow + 1, &mut failures);
    }
    let deeper = if deep_every > 0 {
        format!(", {} at depth {}", deep.len(), shallow + 1)
    } else {
        String::new()
    };
    println!(
        "{test}: {} positions at depth {shallow}{deeper} in {:.2?} (seed {})",
        all.len(),
        start.elapsed(),
        seed()
    );
    assert!(
        failures.is_empty(),
        "{test} (seed {}): {} mismatch(es), first ones:\n{}",
        seed(),
        failures.len(),
        failures.join("\n")
    );
}

fn playout_samples(from_start: usize, per_suite_line: usize, per_playout: usize) -> Vec<Sample> {
    let mut rng = StdRng::seed_from_u64(seed());
    let mut out = Vec::new();
    let start = variant::chess().start_fen.clone();
    playouts(&mut rng, &start, from_start, per_playout, 120, &mut out);
    // The suite's positions are chosen for their tricky features (castling
    // through attacks, en passant pins, promotions): short playouts keep
    // those features around.
    for fen in suite_fens() {
        playouts(&mut rng, &fen, per_suite_line, per_playout, 30, &mut out);
    }
    out
}

fn opening_samples(every: usize) -> Vec<Sample> {
    let v = variant::chess();
    openings()
        .iter()
        .step_by(every)
        .map(|fen| Sample {
            origin: fen.clone(),
            moves: Vec::new(),
            pos: Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}")),
        })
        .collect()
}

#[test]
fn fsf_random_playouts() {
    // About 150 positions from the start, 2 from each of the 130 suite lines:
    // all at depth 3, one in 5 at depth 4.
    let samples = playout_samples(50, 1, 3);
    assert!(samples.len() >= 300, "only {} samples", samples.len());
    check("fsf_random_playouts", &samples, 3, 5);
}

#[test]
fn fsf_openings_sample() {
    // One opening in 10 at depth 3, one in 100 at depth 4.
    let samples = opening_samples(10);
    check("fsf_openings_sample", &samples, 3, 10);
}

#[test]
#[ignore = "large sample, minutes"]
fn fsf_random_playouts_deep() {
    let samples = playout_samples(400, 8, 4);
    check("fsf_random_playouts_deep", &samples, 4, 0);
}

#[test]
#[ignore = "all 2000 openings at depth 4, minutes"]
fn fsf_openings_all() {
    let samples = opening_samples(1);
    check("fsf_openings_all", &samples, 4, 0);
}

/// Small positions known for catching move generators out (en passant that
/// exposes or evades check, castling through or into attack, promotions out
/// of or into check, stalemate and self-stalemate). They are compared at
/// every depth up to 5 while the tree stays under 300,000 leaves; the counts
/// come from Fairy-Stockfish, as for every other sample here.
const TRICKY: [&str; 14] = [
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
];

#[test]
fn fsf_tricky_positions() {
    let Some(mut engine) = fsf::engine_or_skip("fsf_tricky_positions") else {
        return;
    };
    let v = variant::chess();
    let mut failures = Vec::new();
    for fen in TRICKY {
        let pos = Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for depth in 1..=5 {
            // Deeper only while the tree stays small: FSF takes about a
            // second per ten million leaves, and the default run stays short.
            if depth > 1 && fers_core::perft::perft(&pos, depth) > 300_000 {
                break;
            }
            match fsf::compare(&mut engine, &pos, depth) {
                Ok(None) => {}
                Ok(Some(m)) => {
                    failures.push(m.to_string());
                    break;
                }
                Err(e) => panic!("fairy-stockfish failed on {fen}: {e}"),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
