//! The Wormhole endgame solver (`engine/src/wormhole_solve.rs`) against
//! positions analysed by hand and against a literal brute force: plain
//! minimax over `legal_moves` to the end of the game, no table, no move
//! ordering, no cutoff, so nothing of the solver's own machinery.

use fers_core::{variant, MoveList, Position};
use fers_engine::wormhole_solve::{applies, game_bound, Outcome, Solver};

fn wormhole() -> &'static fers_core::Variant {
    variant::builtin("wormhole").expect("wormhole is built in")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(wormhole(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Exact minimax by brute force: `(wins, plies)` for the side to move,
/// with the distance to the end of the game under best play (the winner
/// the shortest, the loser the longest); `None` past `budget` nodes.
fn brute(p: &Position, budget: &mut u64) -> Option<(bool, u32)> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut best: Option<(bool, u32)> = None;
    for m in list.iter() {
        let mut c = p.clone();
        c.play(m);
        let (child_wins, n) = brute(&c, budget)?;
        let mine = (!child_wins, n + 1);
        best = Some(match best {
            None => mine,
            Some(b) => match (b.0, mine.0) {
                (false, true) => mine,
                (true, false) => b,
                (true, true) => (true, b.1.min(mine.1)),
                (false, false) => (false, b.1.max(mine.1)),
            },
        });
    }
    // Without a move the side to move has lost, now.
    Some(best.unwrap_or((false, 0)))
}

fn solve(p: &Position) -> Outcome {
    Solver::new(1 << 16)
        .solve(p, u64::MAX, &|| false)
        .expect("no limit")
}

#[test]
fn wormhole_is_a_win_loss_game() {
    assert!(applies(wormhole()));
    assert!(!applies(variant::builtin("chess").unwrap()));
    assert_eq!(game_bound(&Position::startpos(wormhole())), 62);
}

/// Two kings alone, each with one square to go to and none after it: the
/// side to move loses. White Ka1 can only go to b1 (a2..a8, b2..h8 on the
/// diagonal and c1..h1 are holes), Black Kg8 only to f8 (h8 is a hole, the
/// g-file and both diagonals are holes); from b1 and from f8 every
/// direction meets only holes, the vacated squares included. No king ever
/// sees the other. The side to move makes its move, the other its one,
/// and the first is stuck: lost in 2 plies, whoever starts (parity).
#[test]
fn hand_side_to_move_loses_on_parity() {
    for side in ["w", "b"] {
        let fen = format!("xxxxx1kx/8/8/8/8/8/8/K1xxxxxx {side} 0").replace('8', "xxxxxxxx");
        let p = pos(&fen);
        assert_eq!(solve(&p), Outcome::Loss(2), "{fen}");
        assert_eq!(brute(&p, &mut 1000), Some((false, 2)), "{fen}");
    }
}

/// One winning move among two. Squares: White Ka1, empty b1 and a3,
/// Black Kg8 and empty f8; everything else a hole.
/// - White to move: Ka3 attacks f8 along the empty diagonal (b4..e7 are
///   holes), so Black's only move Kf8 is illegal: Black is stuck, White
///   wins in 1. Kb1 instead: Black plays Kf8 and White, on b1, meets only
///   holes: lost. So Win(1), and Ka3 is the move.
/// - Black to move: Kf8 (nothing on a1's lines reaches f8). White: Ka3
///   would stand on f8's diagonal (illegal), so Kb1. Black: Kxa3 is no
///   capture, a3 is empty: Ka3 along the diagonal. White on b1 is stuck:
///   Black wins in 3.
#[test]
fn hand_one_winning_move() {
    let rows = "xxxxx1kx/8/8/8/8/1xxxxxxx/8/K1xxxxxx";
    let rows = rows.replace('8', "xxxxxxxx");
    let w = pos(&format!("{rows} w 0"));
    let mut s = Solver::new(1 << 16);
    let (r, line) = s.solve_root(&w, u64::MAX, &|| false).unwrap();
    assert_eq!(r, Outcome::Win(1));
    assert_eq!(w.move_to_uci(line[0]), "a1a3");
    assert_eq!(brute(&w, &mut 1000), Some((true, 1)));
    let b = pos(&format!("{rows} b 0"));
    let (r, line) = s.solve_root(&b, u64::MAX, &|| false).unwrap();
    assert_eq!(r, Outcome::Win(3));
    let names: Vec<String> = {
        let mut p = b.clone();
        line.iter()
            .map(|&m| {
                let n = p.move_to_uci(m);
                p.play(m);
                n
            })
            .collect()
    };
    assert_eq!(names, ["g8f8", "a1b1", "f8a3"]);
    assert_eq!(brute(&b, &mut 1000), Some((true, 3)));
}

/// xorshift64
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Random late positions: random games from the start to a random length,
/// then solver and brute force must agree on who wins; the solver's
/// proved length is never shorter than the exact distance (it is the
/// length of a line it proved), never beyond the game's bound, and its
/// first move wins where the position is won.
fn random_late_positions(count: usize, budget: u64, seed: u64) {
    let mut seed = seed;
    let mut checked = 0;
    let mut wins = 0;
    let mut tries = 0;
    while checked < count {
        tries += 1;
        assert!(tries < 50 * count, "too few positions within budget");
        let mut p = Position::startpos(wormhole());
        let plies = 30 + next(&mut seed) % 30;
        for _ in 0..plies {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            p.play(list.get((next(&mut seed) % list.len() as u64) as usize));
        }
        let Some((wins_exact, dist)) = brute(&p, &mut budget.clone()) else {
            continue;
        };
        let mut s = Solver::new(1 << 16);
        let (r, line) = s.solve_root(&p, u64::MAX, &|| false).unwrap();
        let fen = p.to_fen();
        assert_eq!(r.is_win(), wins_exact, "{fen}");
        assert!(r.plies() >= dist, "{fen}: {r:?} vs {dist}");
        assert!(r.plies() as i32 <= game_bound(&p), "{fen}: {r:?}");
        if let Some(&m) = line.first() {
            let mut c = p.clone();
            c.play(m);
            let (child_wins, _) = brute(&c, &mut u64::MAX.clone()).unwrap();
            assert_eq!(
                child_wins,
                !wins_exact,
                "{fen}: first move {}",
                p.move_to_uci(m)
            );
        } else {
            assert_eq!(dist, 0, "{fen}: a move exists");
        }
        wins += wins_exact as usize;
        checked += 1;
    }
    // Both results occur in the sample.
    assert!(wins > 0 && wins < count, "{wins} wins of {count}");
}

#[test]
fn solver_equals_brute_force_on_random_late_positions() {
    random_late_positions(40, 100_000, 0x5eed_2026);
}

#[test]
#[ignore]
fn solver_equals_brute_force_on_many_random_late_positions() {
    random_late_positions(2000, 5_000_000, 0x0dd_ba11);
}

/// Measurement (prints, asserts nothing about speed): self-play games of
/// fers (5000 nodes a move), then each game's positions from 40 existing
/// squares on, in order, solved as the engine does it: one table for the
/// whole game, 0.1 s per position (`LIMIT_MS` to change it). Per existing
/// square count: positions, how many were solved in time, the slowest;
/// and per game, the square count from which every later position was
/// solved (from there on fers plays perfectly).
/// `cargo test --release -p fers-engine --test wormhole_solve -- --ignored --nocapture perfect_play_depth`
#[test]
#[ignore]
fn perfect_play_depth() {
    use fers_engine::{Limits, SearchPool};
    use std::time::{Duration, Instant};
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let games = env("GAMES", 20) as usize;
    let limit = Duration::from_millis(env("LIMIT_MS", 100));
    let mut pool = SearchPool::new(16);
    // (existing squares, solved in time, seconds)
    let mut rows: Vec<(i32, bool, f64)> = Vec::new();
    let mut perfect_from: Vec<i32> = Vec::new();
    let mut seed = 0x1234_5678u64;
    for g in 0..games {
        let mut game = fers_core::Game::new(Position::startpos(wormhole()));
        // Two random opening plies so the games differ.
        for _ in 0..2 {
            let mut list = MoveList::new();
            game.position().legal_moves(&mut list);
            let m = list.get((next(&mut seed) % list.len() as u64) as usize);
            game.play(m);
        }
        let mut positions = vec![game.position().clone()];
        loop {
            let limits = Limits {
                nodes: Some(5000),
                ..Default::default()
            };
            let quiet: fers_engine::Reporter =
                std::sync::Arc::new(|_: &fers_engine::SearchEvent| {});
            let r = pool.search_sync(&game, limits, quiet);
            let Some(m) = r.best else { break };
            game.play(m);
            positions.push(game.position().clone());
        }
        let mut s = Solver::default();
        let mut from = 0;
        for p in &positions {
            let squares = game_bound(p) + 2;
            if squares > 40 {
                continue;
            }
            let t = Instant::now();
            let deadline = t + limit;
            let ok = s.solve(p, u64::MAX, &|| Instant::now() >= deadline).is_ok();
            rows.push((squares, ok, t.elapsed().as_secs_f64()));
            if !ok {
                from = 0;
            } else if from == 0 {
                from = squares;
            }
        }
        eprintln!(
            "game {g}: {} plies, perfect from {from} squares",
            positions.len() - 1
        );
        perfect_from.push(from);
    }
    println!("existing squares: positions, solved within the limit, slowest (s)");
    let mut keys: Vec<i32> = rows.iter().map(|r| r.0).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let at: Vec<_> = rows.iter().filter(|r| r.0 == k).collect();
        let ok = at.iter().filter(|r| r.1).count();
        let slowest = at.iter().map(|r| r.2).fold(0.0f64, f64::max);
        println!("{k:3} {:4} {ok:4} {slowest:.3}", at.len());
    }
    perfect_from.sort();
    println!("perfect from (existing squares, per game, sorted): {perfect_from:?}");
}

/// Measurement: the solver's nodes per second on random positions with
/// 24 to 30 existing squares (1 s each at most).
#[test]
#[ignore]
fn solver_speed() {
    use std::time::{Duration, Instant};
    let mut seed = 0xfeed_beefu64;
    let (mut nodes, mut secs) = (0u64, 0f64);
    for _ in 0..20 {
        let mut p = Position::startpos(wormhole());
        let target = 24 + (next(&mut seed) % 7) as i32;
        while game_bound(&p) + 2 > target {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            p.play(list.get((next(&mut seed) % list.len() as u64) as usize));
        }
        let mut s = Solver::default();
        let t = Instant::now();
        let deadline = t + Duration::from_secs(1);
        let r = s.solve(&p, u64::MAX, &|| Instant::now() >= deadline);
        nodes += s.nodes;
        secs += t.elapsed().as_secs_f64();
        println!(
            "{} {:?} {} nodes {:.3} s",
            p.to_fen(),
            r,
            s.nodes,
            t.elapsed().as_secs_f64()
        );
    }
    println!("{:.0} nodes/s, {secs:.2} s", nodes as f64 / secs);
}
