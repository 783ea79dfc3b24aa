//! The search under lazy legality (`Capabilities::lazy_legality`: the
//! pseudo-legal moves, each tested once played): it plays only legal
//! moves, its lines are legal, and it still sees a side without a legal
//! move. Wormhole and conditions variants search this way; chess with
//! the pin shortcut switched off shows the mates of a position whose
//! answers are known.

use fers_core::variant::{self, Variant};
use fers_core::{Game, MoveList, Position};
use fers_engine::search::MATE_IN_MAX;
use fers_engine::{Limits, Reporter, SearchEvent, SearchPool};
use parking_lot::Mutex;
use std::sync::Arc;

/// Collects the principal variations reported, from the root.
fn collector() -> (Reporter, Arc<Mutex<Vec<Vec<fers_core::Move>>>>) {
    let pvs = Arc::new(Mutex::new(Vec::new()));
    let p2 = pvs.clone();
    let rep: Reporter = Arc::new(move |e: &SearchEvent| {
        if let SearchEvent::Info(i) = e {
            p2.lock().push(i.pv.clone());
        }
    });
    (rep, pvs)
}

fn assert_line_legal(root: &Position, line: &[fers_core::Move]) {
    let mut pos = root.clone();
    for &m in line {
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        assert!(
            legal.iter().any(|l| l == m),
            "{} plays {} from {}",
            root.variant().name,
            pos.move_to_uci(m),
            pos.to_fen()
        );
        pos.play(m);
    }
}

/// Self-play at a few thousand nodes a move: every best move, ponder move
/// and reported line is legal.
fn self_play(v: &'static Variant, games: usize, plies: usize, multipv: usize) -> usize {
    let mut pool = SearchPool::new(8);
    pool.options.multipv = multipv;
    let mut moves = 0;
    for g in 0..games {
        let mut game = Game::new(Position::startpos(v));
        // Two different first plies per game, so the games differ.
        let mut first = MoveList::new();
        game.position().legal_moves(&mut first);
        game.play(first.get((g * 7) % first.len()));
        for _ in 0..plies {
            let (rep, pvs) = collector();
            let limits = Limits {
                nodes: Some(3000),
                ..Default::default()
            };
            let r = pool.search_sync(&game, limits, rep);
            let root = game.position().clone();
            for pv in pvs.lock().iter() {
                assert_line_legal(&root, pv);
            }
            let Some(best) = r.best else { break };
            let line: Vec<_> = std::iter::once(best).chain(r.ponder).collect();
            assert_line_legal(&root, &line);
            assert_line_legal(&root, &r.pv);
            game.play(best);
            moves += 1;
        }
    }
    moves
}

#[test]
fn wormhole_plays_legal_moves() {
    let v = variant::builtin("wormhole").unwrap();
    assert!(v.caps.lazy_legality);
    assert!(self_play(v, 2, 70, 1) > 40);
    // MultiPV: every line from the fully legal root list.
    assert!(self_play(v, 1, 20, 3) > 10);
}

#[test]
fn conditions_and_baroque_play_legal_moves() {
    for name in ["koeko", "circe", "madrasi", "transmutingkings", "baroque"] {
        let v = variant::builtin(name).unwrap();
        assert!(v.caps.lazy_legality, "{name}");
        assert!(self_play(v, 1, 30, 1) > 10, "{name}");
    }
}

/// Chess with the lazy path: the mated side's pseudo-legal moves are all
/// illegal, in the search and in quiescence, so the mates are found only
/// if a node without a legal move is scored as one.
#[test]
fn lazy_chess_finds_mates() {
    let mut lazy = Variant::build(variant::chess_spec()).unwrap();
    lazy.caps.pin_legality = false;
    lazy.caps.simple_castling = false;
    lazy.caps.lazy_legality = true;
    let lazy = variant::leak(lazy);
    let mut pool = SearchPool::new(16);
    for (fen, plies, best) in [
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            1,
            "h5f7",
        ),
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            3,
            "h6h7",
        ),
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            3,
            "d5f6",
        ),
        (
            "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
            3,
            "c6c4",
        ),
    ] {
        let game = Game::new(Position::from_fen(lazy, fen).unwrap());
        pool.clear_hash();
        let (rep, _) = collector();
        let limits = Limits {
            depth: Some(plies + 2),
            ..Default::default()
        };
        let r = pool.search_sync(&game, limits, rep);
        let got = r.best.map(|m| game.position().move_to_uci(m));
        assert_eq!(got.as_deref(), Some(best), "{fen}");
        assert!(r.score > MATE_IN_MAX, "{fen}: {}", r.score);
    }
}
