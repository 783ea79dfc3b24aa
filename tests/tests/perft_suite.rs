//! The published orthodox perft suite (`tests/data/chess.perft`), line by
//! line, against fers-core.
//!
//! Each line is run three ways, because each catches different bugs:
//! - `perft` on the fast legality path (pins and check masks), the path every
//!   orthodox game uses;
//! - `perft` on the general legality path (each pseudo-legal move tried on a
//!   copy and the king tested), forced by building chess with `simple` and
//!   `pin_legality` cleared: the path that hoppers, lame leapers and fairy
//!   conditions rely on, so it must be exactly as right on chess;
//! - a walker of our own that counts without bulk counting and checks at
//!   every node that the incrementally updated Zobrist key equals the one
//!   computed from scratch (and, near the root, that the FEN round-trips),
//!   since a wrong key silently breaks the search's transposition table and
//!   repetition detection without changing any perft count.
//!
//! The default run keeps each line to about a million nodes; the ignored
//! `perft_suite_deep` runs every published depth
//! (`cargo test --release -- --ignored`).

use fers_core::variant::{self, Variant};
use fers_core::{MoveList, Position};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Default run: per line, the deepest depth whose published count is at most
/// this, on the fast path (about 50 M leaves/s with bulk counting).
const FAST_BUDGET: u64 = 1_000_000;
/// Default run, general path: it plays every pseudo-legal move, several times
/// slower than the fast path.
const GENERAL_BUDGET: u64 = 200_000;
/// Default run, key-checking walker: no bulk counting and a key computed from
/// scratch at every node.
const WALK_BUDGET: u64 = 50_000;
/// Deep run, general path (the fast path runs every depth).
const DEEP_GENERAL_BUDGET: u64 = 20_000_000;

struct Line {
    /// Line number in the data file, for messages.
    number: usize,
    fen: String,
    /// `counts[d - 1]` is the published leaf count at depth `d`.
    counts: Vec<u64>,
}

fn load_suite() -> Vec<Line> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chess.perft");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut fields = raw.split(';');
        let fen = fields.next().unwrap().trim().to_string();
        let counts: Vec<u64> = fields
            .map(|f| {
                f.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("{path}:{}: bad count {f:?}", i + 1))
            })
            .collect();
        assert!(!counts.is_empty(), "{path}:{}: no counts", i + 1);
        lines.push(Line {
            number: i + 1,
            fen,
            counts,
        });
    }
    lines
}

/// Chess compiled as usual but forced onto the general legality path.
/// Two flags choose the path in fers-core: `pin_legality` (pins and check
/// masks, versus testing each move on a board copy) and `simple` (castling
/// judged from the attack plan, versus played out). Both are cleared, so
/// every legality decision takes the code that fairy pieces rely on.
fn general_chess() -> &'static Variant {
    static V: OnceLock<&'static Variant> = OnceLock::new();
    V.get_or_init(|| {
        let mut v = Variant::build(variant::chess_spec()).expect("chess builds");
        assert!(
            v.caps.simple_castling && v.caps.pin_legality,
            "chess should be on the fast path by default"
        );
        v.caps.simple_castling = false;
        v.caps.pin_legality = false;
        variant::leak(v)
    })
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Fast,
    General,
    Walk,
}

struct Job {
    line: usize,
    depth: u32,
    kind: Kind,
}

/// Counts leaves without bulk counting and checks the key at every node;
/// problems go to `errors` with the path that reached them.
fn walk(pos: &Position, depth: u32, path: &mut Vec<String>, errors: &mut Vec<String>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut total = 0;
    for m in list.iter() {
        let mut next = pos.clone();
        next.play(m);
        path.push(pos.move_to_uci(m));
        if next.key() != next.compute_key() && errors.len() < 5 {
            errors.push(format!(
                "key after {}: incremental {:016x}, computed {:016x} ({})",
                path.join(" "),
                next.key(),
                next.compute_key(),
                next.to_fen()
            ));
        }
        // FEN round trip near the root only: it allocates, and two plies
        // already reach every kind of move the suite positions have.
        if path.len() <= 2 && errors.len() < 5 {
            let fen = next.to_fen();
            match Position::from_fen(next.variant(), &fen) {
                Ok(back) if back.to_fen() == fen && back.key() == next.key() => {}
                Ok(back) => errors.push(format!(
                    "FEN round trip after {}: {fen} reads back as {} key {:016x} vs {:016x}",
                    path.join(" "),
                    back.to_fen(),
                    back.key(),
                    next.key()
                )),
                Err(e) => errors.push(format!(
                    "FEN after {} does not parse: {fen}: {e}",
                    path.join(" ")
                )),
            }
        }
        total += walk(&next, depth - 1, path, errors);
        path.pop();
    }
    total
}

/// Runs the jobs on all cores (largest first, for balance) and panics with
/// every failure, each naming FEN, depth, expected and got.
fn run(suite: &[Line], mut jobs: Vec<Job>) {
    jobs.sort_by_key(|j| std::cmp::Reverse(suite[j.line].counts[j.depth as usize - 1]));
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<String>::new());
    let nodes = AtomicUsize::new(0);
    let start = Instant::now();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let line = &suite[job.line];
                let expected = line.counts[job.depth as usize - 1];
                let v = match job.kind {
                    Kind::General => general_chess(),
                    _ => variant::chess(),
                };
                let pos = match Position::from_fen(v, &line.fen) {
                    Ok(p) => p,
                    Err(e) => {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("line {}: {}: {e}", line.number, line.fen));
                        continue;
                    }
                };
                let mut errors = Vec::new();
                let got = match job.kind {
                    Kind::Fast | Kind::General => fers_core::perft::perft(&pos, job.depth),
                    Kind::Walk => walk(&pos, job.depth, &mut Vec::new(), &mut errors),
                };
                nodes.fetch_add(got as usize, Ordering::Relaxed);
                let mut f = failures.lock().unwrap();
                if got != expected {
                    f.push(format!(
                        "line {} ({:?} path): FEN {}  depth {}: expected {}, got {}",
                        line.number, job.kind, line.fen, job.depth, expected, got
                    ));
                }
                for e in errors {
                    f.push(format!("line {}: FEN {}: {e}", line.number, line.fen));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    println!(
        "{} jobs, {} nodes in {:.2?}",
        jobs.len(),
        nodes.load(Ordering::Relaxed),
        start.elapsed()
    );
    if !failures.is_empty() {
        panic!(
            "{} perft failure(s):\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

/// The deepest depth whose published count fits the budget (at least 1).
fn depth_within(line: &Line, budget: u64) -> u32 {
    let n = line.counts.iter().take_while(|&&c| c <= budget).count();
    n.max(1) as u32
}

#[test]
fn perft_suite() {
    let suite = load_suite();
    assert!(suite.len() >= 130, "suite has {} lines", suite.len());
    let mut jobs = Vec::new();
    for (i, line) in suite.iter().enumerate() {
        for (kind, budget) in [
            (Kind::Fast, FAST_BUDGET),
            (Kind::General, GENERAL_BUDGET),
            (Kind::Walk, WALK_BUDGET),
        ] {
            jobs.push(Job {
                line: i,
                depth: depth_within(line, budget),
                kind,
            });
        }
    }
    run(&suite, jobs);
}

#[test]
#[ignore = "deep: every published depth, minutes in release mode"]
fn perft_suite_deep() {
    let suite = load_suite();
    let mut jobs = Vec::new();
    for (i, line) in suite.iter().enumerate() {
        for depth in 1..=line.counts.len() as u32 {
            jobs.push(Job {
                line: i,
                depth,
                kind: Kind::Fast,
            });
        }
        jobs.push(Job {
            line: i,
            depth: depth_within(line, DEEP_GENERAL_BUDGET),
            kind: Kind::General,
        });
    }
    run(&suite, jobs);
}

/// The values the task requires are present in the data, so that editing the
/// data file cannot silently drop them.
#[test]
fn suite_has_the_reference_positions() {
    let suite = load_suite();
    let want: [(&str, &[u64]); 6] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &[20, 400, 8902, 197281, 4865609, 119060324],
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            &[48, 2039, 97862, 4085603, 193690690],
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            &[14, 191, 2812, 43238, 674624, 11030083],
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            &[6, 264, 9467, 422333, 15833292],
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            &[44, 1486, 62379, 2103487, 89941194],
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            &[46, 2079, 89890, 3894594, 164075551],
        ),
    ];
    for (fen, counts) in want {
        let line = suite
            .iter()
            .find(|l| l.fen == fen)
            .unwrap_or_else(|| panic!("{fen} missing from chess.perft"));
        assert!(
            line.counts.starts_with(counts),
            "{fen}: data {:?}, published {counts:?}",
            line.counts
        );
    }
}
