//! `bench`: a fixed set of positions searched to a fixed depth with one
//! thread and a fresh 16 MB table, so that a build always reports the same
//! node count. The last line is `<N> nodes <M> nps` (OpenBench's format).

use crate::events::SearchEvent;
use crate::search::Reporter;
use crate::stats;
use crate::thread::SearchPool;
use crate::timeman::Limits;
use fers_core::{variant, Game, Position};
use std::sync::Arc;
use std::time::Instant;

/// Default search depth of `bench`.
pub const BENCH_DEPTH: i32 = 11;

/// The bench positions (orthodox chess: openings, middlegames, endgames).
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9",
    "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
    "2r3k1/pp3ppp/4p3/3pP3/1q1P4/1P3N2/P4PPP/2RQ2K1 w - - 0 20",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
];

/// Runs the bench; every line goes to `out`. Returns (nodes, nps).
pub fn run(depth: i32, out: &dyn Fn(&str)) -> (u64, u64) {
    let v = variant::chess();
    let mut pool = SearchPool::new(16);
    let quiet: Reporter = Arc::new(|_: &SearchEvent| {});
    stats::reset();
    let start = Instant::now();
    let mut total = 0u64;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = match Position::from_fen(v, fen) {
            Ok(p) => p,
            Err(e) => {
                out(&format!(
                    "info string bench position {} refused: {e}",
                    i + 1
                ));
                continue;
            }
        };
        pool.clear_hash();
        let game = Game::new(pos);
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = pool.search_sync(&game, limits, quiet.clone());
        out(&format!(
            "info string position {} depth {} nodes {} bestmove {}",
            i + 1,
            r.depth,
            r.nodes,
            r.best
                .map(|m| game.position().move_to_uci(m))
                .unwrap_or_else(|| "(none)".into())
        ));
        total += r.nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    let nps = total * 1000 / ms;
    out("");
    out(&format!("Total time (ms) : {ms}"));
    out(&format!("Nodes searched  : {total}"));
    out(&format!("Nodes/second    : {nps}"));
    // The census (built with the `stats` feature) before the last line,
    // which scripts read.
    for line in stats::report(total) {
        out(&format!("info string {line}"));
    }
    out(&format!("{total} nodes {nps} nps"));
    (total, nps)
}
