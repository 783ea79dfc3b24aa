//! Search tests through the library API: mates, tactics, stop, threads,
//! ponder, MultiPV, searchmoves, and a property test of `go` parameters.
//!
//! Timing. The tests that bound a wall-clock time (`stop`, `ponderhit`, a
//! clock, `movetime`) run one at a time with no other search of this binary
//! beside them: each takes [`timing`], the write side of a lock whose read
//! side every other searching test takes ([`untimed`]). The machine may
//! still be loaded by other processes (2 shared cores), so the bounds are
//! generous multiples of what the engine needs: they separate "ends when
//! told" from "does not end", not fast from slow. The real latency, `stop`
//! to `bestmove` over the UCI pipe, is a benchmark: `fers-bench latency`
//! (docs/search.md has the figures).

use fers_core::{variant, Game, MoveList, Position};
use fers_engine::notation::Notation;
use fers_engine::uci::format_event;
use fers_engine::{Limits, Reporter, SearchEvent, SearchPool, SearchResult};
use parking_lot::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::sync::Arc;
use std::time::{Duration, Instant};

static SEARCHES: RwLock<()> = RwLock::new(());

/// Held by a test that asserts a wall-clock bound: no other search of this
/// binary runs meanwhile.
fn timing() -> RwLockWriteGuard<'static, ()> {
    SEARCHES.write()
}

/// Held by every other searching test: they run in parallel with each
/// other, never beside a timing test.
fn untimed() -> RwLockReadGuard<'static, ()> {
    SEARCHES.read()
}

/// How long a bestmove may take after `stop` (or after `ponderhit`, whose
/// budget at 1 s on the clock is 150 ms) in these tests. The engine needs
/// well under a millisecond (`fers-bench latency`); a search that ignored
/// `stop` would never end.
const AFTER_STOP: Duration = Duration::from_secs(2);

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(variant::chess(), fen).unwrap())
}

/// A reporter that writes the events of a search of `g` as UCI lines.
fn collector_for(g: &Game) -> (Reporter, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let l2 = lines.clone();
    let root = g.position().clone();
    (
        Arc::new(move |e: &SearchEvent| l2.lock().push(format_event(&root, e, Notation::Fers))),
        lines,
    )
}

/// The best move of a result in UCI notation.
fn best_text(g: &Game, r: &SearchResult) -> Option<String> {
    r.best.map(|m| g.position().move_to_uci(m))
}

/// The `bestmove` line of a result.
fn bestmove_line(g: &Game, r: &SearchResult) -> String {
    format_event(
        g.position(),
        &SearchEvent::BestMove {
            best: r.best,
            ponder: r.ponder,
        },
        Notation::Fers,
    )
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
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        1,
        Some("h5f7"),
    ),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        2,
        Some("g3g6"),
    ),
    (
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        2,
        Some("h6h7"),
    ),
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
        Some("d5f6"),
    ),
    (
        "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        2,
        Some("c6c4"),
    ),
    (
        "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
        2,
        Some("g4f3"),
    ),
    (
        "r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - 0 1",
        4,
        Some("h3h7"),
    ),
];

#[test]
fn go_mate_finds_mates() {
    let _serial = untimed();
    let mut pool = SearchPool::new(16);
    for &(fen, n, best) in MATES {
        let g = game(fen);
        let (rep, lines) = collector_for(&g);
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
            assert_eq!(best_text(&g, &r).as_deref(), Some(b), "{fen}");
        }
        // The PV really mates: play it out.
        let mut pos = g.position().clone();
        for &m in &r.pv {
            pos.play(m);
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert!(
            pos.in_check() && list.is_empty(),
            "{fen}: PV {:?} does not mate",
            r.pv
        );
        assert_eq!(r.pv.len() as u32, 2 * n - 1, "{fen}: PV {:?}", r.pv);
    }
}

/// Well-known tactical positions (Win At Chess) with their best move.
const TACTICS: &[(&str, &str)] = &[
    (
        "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
        "e3g3",
    ),
    ("7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", "b6b7"),
    (
        "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
        "g4e3",
    ),
    (
        "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
        "e7f7",
    ),
    (
        "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
        "d6h2",
    ),
    (
        "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
        "h4h7",
    ),
    (
        "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
        "f3c6",
    ),
    (
        "5rk1/pp4p1/2n1p2p/2Npq3/2p5/6P1/P3P1BP/R4Q1K w - - 0 1",
        "f1f8",
    ),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "g3g6",
    ),
    (
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        "h6h7",
    ),
    ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "c6c4"),
    (
        "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
        "g4f3",
    ),
    (
        "r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - 0 1",
        "h3h7",
    ),
];

#[test]
fn tactics_at_fixed_depth() {
    let _serial = untimed();
    let mut pool = SearchPool::new(32);
    let mut failed = Vec::new();
    for &(fen, bm) in TACTICS {
        let g = game(fen);
        let (rep, lines) = collector_for(&g);
        let limits = Limits {
            depth: Some(12),
            ..Default::default()
        };
        pool.clear_hash();
        let r = pool.search_sync(&g, limits, rep);
        assert_pvs_legal(&g, &lines.lock());
        if best_text(&g, &r).as_deref() != Some(bm) {
            failed.push(format!(
                "{fen}: expected {bm}, got {:?} ({})",
                best_text(&g, &r),
                r.score
            ));
        }
    }
    assert!(failed.is_empty(), "unsolved:\n{}", failed.join("\n"));
}

fn wait_for_bestmove(lines: &Arc<Mutex<Vec<String>>>, timeout: Duration) -> Option<String> {
    let t = Instant::now();
    while t.elapsed() < timeout {
        if let Some(l) = lines.lock().iter().find(|l| l.starts_with("bestmove")) {
            return Some(l.clone());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    None
}

/// The largest `time` (ms since the search started, as the engine counts
/// it) of the info lines.
fn reported_time_ms(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|&x| x == "time")?;
            w.get(i + 1)?.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

fn assert_legal_bestmove(g: &Game, line: &str) {
    let mut w = line.split_whitespace();
    assert_eq!(w.next(), Some("bestmove"));
    let best = w.next().unwrap();
    let mut pos = g.position().clone();
    let m = pos
        .parse_move(best)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    pos.play(m);
    if w.next() == Some("ponder") {
        let p = w.next().unwrap();
        pos.parse_move(p)
            .unwrap_or_else(|e| panic!("{line}: ponder {e}"));
    }
}

#[test]
fn stop_during_go_infinite_is_prompt() {
    let _serial = timing();
    let mut pool = SearchPool::new(16);
    for threads in [1, 2] {
        pool.options.threads = threads;
        let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let (rep, lines) = collector_for(&g);
        pool.go(
            &g,
            Limits {
                infinite: true,
                ..Default::default()
            },
            rep,
        );
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !lines.lock().iter().any(|l| l.starts_with("bestmove")),
            "go infinite must not end by itself"
        );
        let t = Instant::now();
        pool.stop();
        let bm = wait_for_bestmove(&lines, 2 * AFTER_STOP).expect("bestmove after stop");
        let took = t.elapsed();
        assert!(
            took < AFTER_STOP,
            "stop took {took:?} with {threads} threads"
        );
        assert_legal_bestmove(&g, &bm);
        assert_pvs_legal(&g, &lines.lock());
        pool.wait();
    }
}

#[test]
fn go_infinite_with_a_finished_search_waits_for_stop() {
    let _serial = timing();
    // Mate in one is found at once; go infinite still waits for stop.
    let mut pool = SearchPool::new(16);
    let g = game(MATES[0].0);
    let (rep, lines) = collector_for(&g);
    pool.go(
        &g,
        Limits {
            infinite: true,
            depth: Some(3),
            ..Default::default()
        },
        rep,
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!lines.lock().iter().any(|l| l.starts_with("bestmove")));
    pool.stop();
    let bm = wait_for_bestmove(&lines, AFTER_STOP).unwrap();
    assert_eq!(bm, "bestmove h5f7");
    pool.wait();
}

#[test]
fn two_threads_give_legal_results() {
    let _serial = timing();
    let mut pool = SearchPool::new(16);
    pool.options.threads = 2;
    for &(fen, _) in TACTICS.iter().take(6) {
        let g = game(fen);
        let (rep, lines) = collector_for(&g);
        let r = pool.search_sync(
            &g,
            Limits {
                depth: Some(8),
                ..Default::default()
            },
            rep,
        );
        assert_legal_bestmove(&g, &bestmove_line(&g, &r));
        assert_pvs_legal(&g, &lines.lock());
        assert!(r.nodes > 0);
    }
    // And on the clock, from the start position and a few moves in.
    let mut g = Game::new(Position::startpos(variant::chess()));
    for _ in 0..6 {
        let (rep, lines) = collector_for(&g);
        pool.go(
            &g,
            Limits {
                wtime: Some(2000),
                btime: Some(2000),
                winc: Some(20),
                binc: Some(20),
                ..Default::default()
            },
            rep,
        );
        // The hard budget at 2 s + 20 ms is 500 ms; 3 s of wall clock more
        // than the whole clock is still "in time" on a loaded machine, and
        // the search time the engine reports must stay within the clock.
        let bm = wait_for_bestmove(&lines, Duration::from_secs(5)).expect("bestmove in time");
        pool.wait();
        let used = reported_time_ms(&lines.lock());
        assert!(used < 2000, "the engine reports {used} ms on a 2 s clock");
        assert_legal_bestmove(&g, &bm);
        assert_pvs_legal(&g, &lines.lock());
        g.play_str(bm.split_whitespace().nth(1).unwrap()).unwrap();
    }
}

#[test]
fn ponder_then_ponderhit_then_bestmove() {
    let _serial = timing();
    let mut pool = SearchPool::new(16);
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let (rep, lines) = collector_for(&g);
    pool.go(
        &g,
        Limits {
            ponder: true,
            wtime: Some(1000),
            btime: Some(1000),
            ..Default::default()
        },
        rep,
    );
    // While pondering the clock does not run: no bestmove even past the budget.
    std::thread::sleep(Duration::from_millis(600));
    assert!(!lines.lock().iter().any(|l| l.starts_with("bestmove")));
    let t = Instant::now();
    pool.ponderhit();
    let bm = wait_for_bestmove(&lines, 2 * AFTER_STOP).expect("bestmove after ponderhit");
    assert!(t.elapsed() < AFTER_STOP, "{:?}", t.elapsed());
    assert_legal_bestmove(&g, &bm);
    pool.wait();

    // Ponder miss: stop ends the ponder search at once.
    let (rep, lines) = collector_for(&g);
    pool.go(
        &g,
        Limits {
            ponder: true,
            wtime: Some(1000),
            btime: Some(1000),
            ..Default::default()
        },
        rep,
    );
    std::thread::sleep(Duration::from_millis(100));
    pool.stop();
    let bm = wait_for_bestmove(&lines, AFTER_STOP).expect("bestmove after stop");
    assert_legal_bestmove(&g, &bm);
    pool.wait();
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let _serial = timing();
    let mut pool = SearchPool::new(1);
    // Checkmated and stalemated sides.
    for fen in [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let g = game(fen);
        let (rep, lines) = collector_for(&g);
        pool.go(&g, Limits::default(), rep);
        let bm = wait_for_bestmove(&lines, 2 * AFTER_STOP).unwrap();
        assert_eq!(bm, "bestmove (none)");
        pool.wait();
    }
}

#[test]
fn multipv_and_searchmoves() {
    let _serial = untimed();
    let mut pool = SearchPool::new(16);
    pool.options.multipv = 3;
    let g = Game::new(Position::startpos(variant::chess()));
    let (rep, lines) = collector_for(&g);
    pool.search_sync(
        &g,
        Limits {
            depth: Some(6),
            ..Default::default()
        },
        rep,
    );
    let lines = lines.lock().clone();
    assert_pvs_legal(&g, &lines);
    let last6: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 6 "))
        .collect();
    assert_eq!(last6.len(), 3, "{lines:?}");
    let firsts: Vec<&str> = last6
        .iter()
        .map(|l| {
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
        })
        .collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    for (i, l) in last6.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", i + 1)), "{l}");
    }

    pool.options.multipv = 1;
    let (rep, _lines) = collector_for(&g);
    let r = pool.search_sync(
        &g,
        Limits {
            depth: Some(5),
            searchmoves: vec!["a2a3".into(), "h2h3".into()],
            ..Default::default()
        },
        rep,
    );
    let b = best_text(&g, &r).unwrap();
    assert!(b == "a2a3" || b == "h2h3", "{b}");
}

#[test]
fn repetition_with_the_game_history_is_a_draw() {
    let _serial = untimed();
    // White (knight against queen) is lost, but Nf3 repeats a position of
    // the game: the search must see that draw and take it.
    let mut g =
        Game::new(Position::from_fen(variant::chess(), "k7/8/8/8/8/1q6/8/6NK w - - 0 1").unwrap());
    for m in ["g1f3", "a8b8", "f3g1", "b8a8"] {
        g.play_str(m).unwrap();
    }
    let mut pool = SearchPool::new(16);
    let (rep, lines) = collector_for(&g);
    let r = pool.search_sync(
        &g,
        Limits {
            depth: Some(8),
            ..Default::default()
        },
        rep,
    );
    assert_pvs_legal(&g, &lines.lock());
    assert_eq!(best_text(&g, &r).as_deref(), Some("g1f3"));
    assert_eq!(r.score, 0);
    // Without the history the same position is simply lost: a queen
    // against a knight, far from a draw (the evaluation gives that ending
    // about -500, so a bound there would test the evaluation, not the
    // repetition).
    let fresh = Game::new(g.position().clone());
    let (rep, _l) = collector_for(&g);
    let r = pool.search_sync(
        &fresh,
        Limits {
            depth: Some(8),
            ..Default::default()
        },
        rep,
    );
    assert!(r.score < -300, "{}", r.score);
}

#[test]
fn fifty_move_rule_inside_the_tree() {
    let _serial = untimed();
    // Black is a queen up but the half-move clock is at 99: any quiet move
    // draws; the score must be (near) a draw, not a queen up for Black.
    let g = game("k7/8/8/8/8/1q6/8/6NK b - - 99 80");
    let mut pool = SearchPool::new(16);
    let (rep, _l) = collector_for(&g);
    let r = pool.search_sync(
        &g,
        Limits {
            depth: Some(6),
            ..Default::default()
        },
        rep,
    );
    // Capturing nothing resets nothing here: every black move reaches 100.
    assert_eq!(r.score, 0, "{:?}", r);
}

#[test]
fn node_and_depth_limits() {
    let _serial = untimed();
    let mut pool = SearchPool::new(16);
    let g = Game::new(Position::startpos(variant::chess()));
    let (rep, _l) = collector_for(&g);
    let r = pool.search_sync(
        &g,
        Limits {
            nodes: Some(5000),
            ..Default::default()
        },
        rep,
    );
    assert!(r.nodes <= 6000, "{}", r.nodes);
    let (rep, _l) = collector_for(&g);
    let r = pool.search_sync(
        &g,
        Limits {
            depth: Some(3),
            ..Default::default()
        },
        rep,
    );
    assert_eq!(r.depth, 3);
}

/// Property test: random combinations of `go` parameters (including odd
/// values) always end with a legal bestmove in bounded time.
#[test]
fn go_parameters_property() {
    let _serial = timing();
    let mut pool = SearchPool::new(8);
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "7k/8/6K1/8/8/8/8/6R1 w - - 0 1",
    ];
    let words_pool = [
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "movetime",
        "mate",
        "searchmoves",
        "e2e4",
        "a1a2",
        "zz",
        "-5",
        "0",
        "1",
        "7",
        "30",
        "100",
        "99999999999",
    ];
    for i in 0..40 {
        let g = game(fens[i % fens.len()]);
        let mut words: Vec<&str> = Vec::new();
        for _ in 0..rnd(8) {
            words.push(words_pool[rnd(words_pool.len() as u64) as usize]);
        }
        // Always bound the search so the test stays fast.
        words.extend(["movetime", "50"]);
        threads_and_multipv(&mut pool, rnd(3) as usize + 1, rnd(3) as usize + 1);
        let limits = Limits::parse_go(&words);
        let (rep, lines) = collector_for(&g);
        let t = Instant::now();
        pool.go(&g, limits, rep);
        // `movetime 50` (or less) bounds every search: 3 s of wall clock
        // separates "ends by itself" from "does not end" on a loaded machine.
        let bm = wait_for_bestmove(&lines, Duration::from_secs(6))
            .unwrap_or_else(|| panic!("no bestmove for go {}", words.join(" ")));
        assert!(
            t.elapsed() < Duration::from_secs(3),
            "go {}: {:?}",
            words.join(" "),
            t.elapsed()
        );
        pool.wait();
        assert_legal_bestmove(&g, &bm);
        assert_pvs_legal(&g, &lines.lock());
    }
}

fn threads_and_multipv(pool: &mut SearchPool, threads: usize, multipv: usize) {
    pool.options.threads = threads;
    pool.options.multipv = multipv;
}

#[test]
fn parse_go_words() {
    let l = Limits::parse_go(&[
        "wtime",
        "1000",
        "btime",
        "2000",
        "winc",
        "10",
        "binc",
        "20",
        "movestogo",
        "5",
        "searchmoves",
        "e2e4",
        "d2d4",
        "depth",
        "7",
    ]);
    assert_eq!(l.wtime, Some(1000));
    assert_eq!(l.btime, Some(2000));
    assert_eq!(l.winc, Some(10));
    assert_eq!(l.binc, Some(20));
    assert_eq!(l.movestogo, Some(5));
    assert_eq!(l.depth, Some(7));
    assert_eq!(l.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
    let l = Limits::parse_go(&["infinite", "ponder", "mate", "3", "nodes", "x"]);
    assert!(l.infinite && l.ponder);
    assert_eq!(l.mate, Some(3));
    assert_eq!(l.nodes, None);
}

/// The learnt tables (history, correction history) carry over from one
/// search to the next of a game; `Clear Hash` and `ucinewgame` drop them
/// with the hash, so that after a clear a search repeats a fresh pool's
/// search node for node.
#[test]
fn clearing_the_hash_drops_the_learnt_tables() {
    let _serial = untimed();
    let search = |pool: &mut SearchPool, fen: &str| {
        let g = game(fen);
        let (rep, _l) = collector_for(&g);
        pool.search_sync(
            &g,
            Limits {
                depth: Some(8),
                ..Default::default()
            },
            rep,
        )
        .nodes
    };
    let a = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let b = "r2q1rk1/pp2bppp/2n1bn2/3p4/3P4/2NBBN2/PP3PPP/R2Q1RK1 w - - 0 11";
    let fresh = search(&mut SearchPool::new(16), a);
    let mut pool = SearchPool::new(16);
    assert_eq!(search(&mut pool, a), fresh, "a fresh pool is deterministic");
    search(&mut pool, b);
    assert_ne!(search(&mut pool, a), fresh, "the second search starts warm");
    pool.clear_hash();
    assert_eq!(search(&mut pool, a), fresh, "a clear forgets everything");
}
