//! Search tests through the library API: mates, tactics, stop, threads,
//! ponder, MultiPV, searchmoves, and a property test of `go` parameters.

use fers_core::{variant, Game, MoveList, Position};
use fers_engine::{Limits, Reporter, SearchPool};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(variant::chess(), fen).unwrap())
}

fn collector() -> (Reporter, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let l2 = lines.clone();
    (Arc::new(move |s: &str| l2.lock().push(s.to_string())), lines)
}

/// Checks that every `pv` in the info lines is a legal sequence.
fn assert_pvs_legal(g: &Game, lines: &[String]) {
    for line in lines {
        if let Some(i) = line.find(" pv ") {
            let mut pos = g.position().clone();
            for m in line[i + 4..].split_whitespace() {
                let mv = pos
                    .parse_move(m)
                    .unwrap_or_else(|e| panic!("illegal PV move {m} ({e}) in '{line}'"));
                pos.play(mv);
            }
        }
    }
}

const MATES: &[(&str, u32, Option<&str>)] = &[
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, Some("h5f7")),
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2, Some("g3g6")),
    ("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", 2, Some("h6h7")),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, Some("d5f6")),
    ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", 2, Some("c6c4")),
    ("4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1", 2, Some("g4f3")),
    ("r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - 0 1", 4, Some("h3h7")),
];

#[test]
fn go_mate_finds_mates() {
    let mut pool = SearchPool::new(16);
    for &(fen, n, best) in MATES {
        let g = game(fen);
        let (rep, lines) = collector();
        let limits = Limits {
            mate: Some(n),
            ..Default::default()
        };
        let r = pool.search_sync(&g, limits, rep);
        let lines = lines.lock().clone();
        assert_pvs_legal(&g, &lines);
        let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
        assert!(
            last.contains(&format!("score mate {n} ")),
            "{fen}: expected mate {n}, got '{last}'"
        );
        if let Some(b) = best {
            assert_eq!(r.best_text.as_deref(), Some(b), "{fen}");
        }
        // The PV really mates: play it out.
        let mut pos = g.position().clone();
        for m in &r.pv {
            let mv = pos.parse_move(m).unwrap();
            pos.play(mv);
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert!(pos.in_check() && list.is_empty(), "{fen}: PV {:?} does not mate", r.pv);
        assert_eq!(r.pv.len() as u32, 2 * n - 1, "{fen}: PV {:?}", r.pv);
    }
}

/// Well-known tactical positions (Win At Chess) with their best move.
const TACTICS: &[(&str, &str)] = &[
    ("5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1", "e3g3"),
    ("7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", "b6b7"),
    ("rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1", "g4e3"),
    ("r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1", "e7f7"),
    ("3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1", "d6h2"),
    ("2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1", "h4h7"),
    ("r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1", "f3c6"),
    ("5rk1/pp4p1/2n1p2p/2Npq3/2p5/6P1/P3P1BP/R4Q1K w - - 0 1", "f1f8"),
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "g3g6"),
    ("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", "h6h7"),
    ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "c6c4"),
    ("4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1", "g4f3"),
    ("r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - 0 1", "h3h7"),
];

#[test]
fn tactics_at_fixed_depth() {
    let mut pool = SearchPool::new(32);
    let mut failed = Vec::new();
    for &(fen, bm) in TACTICS {
        let g = game(fen);
        let (rep, lines) = collector();
        let limits = Limits {
            depth: Some(10),
            ..Default::default()
        };
        pool.clear_hash();
        let r = pool.search_sync(&g, limits, rep);
        assert_pvs_legal(&g, &lines.lock());
        if r.best_text.as_deref() != Some(bm) {
            failed.push(format!("{fen}: expected {bm}, got {:?} ({})", r.best_text, r.score));
        }
    }
    assert!(failed.is_empty(), "unsolved:\n{}", failed.join("\n"));
}
