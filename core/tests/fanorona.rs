//! Fanorona by hand: positions analysed from the rules (seed 004 and
//! `shared/ref/vchess/NOTES.md`), each with its derivation and the exact
//! list of legal turns. Never copied from fers's output.
//!
//! Reminders for the derivations: files a..i are indices 0..8, ranks 1..5
//! indices 0..4; a point has diagonals when file + rank index is even
//! (a1, c1, b2, d2, a3, c3, e3, b4, d4, ... are; b1, d1, a2, c2, d3 are
//! not). FEN rows run from rank 5 down to rank 1; `P` White, `p` Black.

use fers_core::{variant, Color, Game, MoveError, MoveList, Outcome, Position, Termination};

fn pos(fen: &str) -> Position {
    let v = variant::builtin("fanorona").unwrap();
    Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal turns, sorted.
fn moves(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| p.move_to_uci(m)).collect();
    out.sort();
    out
}

/// The board field after playing `mv`.
fn after(fen: &str, mv: &str) -> String {
    let mut p = pos(fen);
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
    p.play(m);
    p.to_fen().split(' ').next().unwrap().to_string()
}

/// The names of the stones `mv` removes.
fn victims(fen: &str, mv: &str) -> Vec<String> {
    let p = pos(fen);
    let m = p.parse_move(mv).unwrap();
    let geo = p.variant().geometry;
    let mut v: Vec<String> = p
        .captures_of(m)
        .iter()
        .map(|s| geo.square_name(s))
        .collect();
    v.sort();
    v
}

#[test]
fn the_start_position() {
    // Only e3 is empty. d3 (White) -> e3 east: approach takes f3 (g3 is
    // White), withdrawal takes c3 (b3 is White): two moves. e2 -> e3 takes
    // e4, e5 by approach; d2 -> e3 (d2 even, so diagonal) takes f4, g5;
    // f2 -> e3 takes d4, c5. Nothing is behind d2, e2, f2 but White's rank
    // 1; f3 and d4/e4/f4 are Black. No stone can continue: the landing
    // point's neighbours are full but the one just left (visited).
    let start = "ppppppppp/ppppppppp/pPpP1pPpP/PPPPPPPPP/PPPPPPPPP w 0";
    assert_eq!(moves(start), ["d2e3a", "d3e3a", "d3e3w", "e2e3a", "f2e3a"]);
    assert_eq!(victims(start, "e2e3a"), ["e4", "e5"]);
    assert_eq!(victims(start, "d3e3w"), ["c3"]);
    // d3e3w: c3 is removed, b3 (White) ends the line.
    assert_eq!(
        after(start, "d3e3w"),
        "ppppppppp/ppppppppp/pP2PpPpP/PPPPPPPPP/PPPPPPPPP"
    );
}

#[test]
fn diagonals_only_from_even_points_and_paika_when_nothing_captures() {
    // White a1 (even: a2, b1, b2) and i2 (odd, 8+1: h2, i1, i3 only);
    // Black e5 is next to no landing point, so nothing captures and every
    // step is a paika.
    assert_eq!(
        moves("4p4/9/9/8P/P8 w 0"),
        ["a1a2", "a1b1", "a1b2", "i2h2", "i2i1", "i2i3"]
    );
    // White d1 (odd) with Black f3: d1-e2-f3 would be a diagonal approach,
    // but d1 has no diagonal, so no capture: paika d1c1, d1d2, d1e1.
    assert_eq!(moves("9/9/5p3/9/3P5 w 0"), ["d1c1", "d1d2", "d1e1"]);
    // White e3 (even) with Black i5 far away: all eight steps.
    assert_eq!(
        moves("8p/9/4P4/9/9 w 0"),
        ["e3d2", "e3d3", "e3d4", "e3e2", "e3e4", "e3f2", "e3f3", "e3f4"]
    );
}

#[test]
fn paika_is_refused_while_any_capture_exists() {
    // White a1 and i5, Black c1. a1 -> b1 approaches c1 (d1 empty): the
    // only capture; from b1 (odd) the stone could go b2 (nothing) or c1
    // (same direction again, and nothing beyond): it stops. So neither
    // a1's other steps nor any of i5's are allowed.
    let fen = "8P/9/9/9/P1p6 w 0";
    assert_eq!(moves(fen), ["a1b1a"]);
    assert!(pos(fen).parse_move("i5i4").is_err());
    assert!(pos(fen).parse_move("a1a2").is_err());
}

#[test]
fn a_line_of_stones_goes_up_to_a_gap() {
    // White a3; Black c3, d3, e3, g3 (f3 empty). a3 -> b3 approaches the
    // line c3-d3-e3, which ends at the gap f3: g3 stays. a3's other steps
    // (a2, a4, b2, b4) capture nothing; from b3 (odd) the stone has b2 and
    // b4 (nothing) and c3 (east again: banned).
    let fen = "9/9/P1ppp1p2/9/9 w 0";
    assert_eq!(moves(fen), ["a3b3a"]);
    assert_eq!(victims(fen, "a3b3a"), ["c3", "d3", "e3"]);
    assert_eq!(after(fen, "a3b3a"), "9/9/1P4p2/9/9");
}

#[test]
fn a_line_of_stones_goes_up_to_an_own_stone() {
    // White b1, e1; Black a1, c1, d1. e1 -> f1 withdraws from the line
    // d1-c1, which ends at White's b1: a1 stays. From f1 (odd): f2 takes
    // nothing, e1 is visited, g1 is east again. e1's other steps (e2, d2,
    // f2) capture nothing; b1 (odd) can only go b2, capturing nothing.
    let fen = "9/9/9/9/pPppP4 w 0";
    assert_eq!(moves(fen), ["e1f1w"]);
    assert_eq!(victims(fen, "e1f1w"), ["c1", "d1"]);
    assert_eq!(after(fen, "e1f1w"), "9/9/9/9/pP3P3");

    // White a1, c1, b2; Black b1 between them, White to move. c1 -> d1
    // withdraws b1 (a1, White, ends the line); b2 -> b3 withdraws b1 too.
    // a1 -> a2 and the other steps of b2 and c1 capture nothing (b2's
    // withdrawals point at a1, c1, a2, c2, none Black). After either
    // capture Black has no stone left to take.
    assert_eq!(moves("9/9/9/1P7/PpP6 w 0"), ["b2b3w", "c1d1w"]);
}

#[test]
fn a_step_that_captures_both_ways_gives_two_moves() {
    // White d3 between Black c3 and f3 (e3 empty). d3 -> e3 approaches f3
    // or withdraws from c3: two moves. d3 -> d4 / d2 capture nothing.
    // After d3e3a, c3 could only be reached by approach landing on d3
    // (visited). After d3e3w, f3 could be withdrawn from by e3 -> d3: d3
    // is the start point, visited, so that is banned too.
    let fen = "9/9/2pP1p3/9/9 w 0";
    assert_eq!(moves(fen), ["d3e3a", "d3e3w"]);
    assert_eq!(victims(fen, "d3e3a"), ["f3"]);
    assert_eq!(victims(fen, "d3e3w"), ["c3"]);
    assert_eq!(after(fen, "d3e3a"), "9/9/2p1P4/9/9");
    assert_eq!(after(fen, "d3e3w"), "9/9/4Pp3/9/9");
    // The same with colours swapped, Black to move.
    assert_eq!(moves("9/9/2Pp1P3/9/9 b 0"), ["d3e3a", "d3e3w"]);
}

#[test]
fn a_chain_may_not_revisit_a_point_and_every_prefix_is_a_move() {
    // White d1 (odd); Black d3, c2, f2. d1 -> d2 approaches d3 (d4 empty);
    // d1 -> c1 / e1 capture nothing. From d2 (even), visited d1, d2, last
    // direction north: d3 is north again; d2 -> e2 approaches f2 or
    // withdraws from c2 (two ways); the diagonals e3, c3, e1, c1 have
    // nothing beyond or behind. After d2e2a (c2 left) e2 has nothing; after
    // d2e2w (f2 left) e2 -> d2 would withdraw from f2, but d2 is visited.
    // Stopping after d1d2a is a move of its own.
    let fen = "9/9/3p5/2p2p3/3P5 w 0";
    assert_eq!(moves(fen), ["d1d2a", "d1d2a,d2e2a", "d1d2a,d2e2w"]);
    assert_eq!(victims(fen, "d1d2a,d2e2w"), ["c2", "d3"]);
    assert_eq!(after(fen, "d1d2a,d2e2a"), "9/9/9/2p1P4/9");
    assert_eq!(after(fen, "d1d2a,d2e2w"), "9/9/9/4Pp3/9");
    assert_eq!(after(fen, "d1d2a"), "9/9/9/2pP1p3/9");
}

#[test]
fn a_chain_may_not_go_twice_in_the_same_direction() {
    // White c1; Black b1, f1, d3. c1 -> d1 withdraws from b1 (a1 empty).
    // From d1 (odd): d1 -> e1 would approach f1 but is east again: banned;
    // d1 -> d2 approaches d3 (north, allowed). From d2: north again to d3
    // is banned, d1 and c1 are visited, and no other step (c2, e2, c3, e3,
    // e1) has Black beyond or behind: f1 is east of e1, not south-east.
    // c1's other steps (c2, b2, d2) capture nothing.
    let fen = "9/9/3p5/9/1pP2p3 w 0";
    assert_eq!(moves(fen), ["c1d1w", "c1d1w,d1d2a"]);
    assert_eq!(after(fen, "c1d1w,d1d2a"), "9/9/9/3P5/5p3");
}

#[test]
fn notation_suffixes_may_be_left_out_when_only_one_kind_fits() {
    let start = pos("ppppppppp/ppppppppp/pPpP1pPpP/PPPPPPPPP/PPPPPPPPP w 0");
    // e2e3 can only approach.
    assert_eq!(start.parse_move("e2e3"), start.parse_move("e2e3a"));
    assert!(start.parse_move("e2e3").is_ok());
    // d3e3 approaches f3 or withdraws from c3.
    assert_eq!(
        start.parse_move("d3e3"),
        Err(MoveError::Ambiguous("d3e3".into()))
    );
    assert!(start.parse_move("d3e3a").is_ok());
    assert_ne!(start.parse_move("d3e3a"), start.parse_move("d3e3w"));
    // e2e3w does not exist (nothing behind e2).
    assert!(matches!(
        start.parse_move("e2e3w"),
        Err(MoveError::Illegal(_))
    ));

    // Chains: each leg may leave its suffix out.
    let p = pos("9/9/3p5/9/1pP2p3 w 0");
    let full = p.parse_move("c1d1w,d1d2a").unwrap();
    assert_eq!(p.parse_move("c1d1,d1d2"), Ok(full));
    assert_eq!(p.parse_move("c1d1w,d1d2"), Ok(full));
    assert_eq!(p.parse_move("c1d1,d1d2a"), Ok(full));
    assert_ne!(p.parse_move("c1d1"), Ok(full));
    // The second leg of d1d2a can go e2 both ways: ambiguous without it.
    let q = pos("9/9/3p5/2p2p3/3P5 w 0");
    assert!(matches!(
        q.parse_move("d1d2,d2e2"),
        Err(MoveError::Ambiguous(_))
    ));
    assert!(q.parse_move("d1d2,d2e2w").is_ok());
    // A leg that is no continuation of the previous one.
    assert!(q.parse_move("d1d2a,e2f2a").is_err());
    // The same direction twice.
    assert!(p.parse_move("c1d1w,d1e1a").is_err());
}

#[test]
fn malformed_moves_are_refused_with_an_error() {
    let start = pos("ppppppppp/ppppppppp/pPpP1pPpP/PPPPPPPPP/PPPPPPPPP w 0");
    for bad in [
        "",
        " ",
        ",",
        "e2",
        "e2e",
        "hello",
        "j1j2",
        "e6e5",
        "e0e1",
        "e2e3a,",
        ",e2e3a",
        "e2e3a,,e3e4a",
        "e2e3aaa",
        "e2e3-",
        "é2e3",
        "e2e3é",
        "e2e3a;",
    ] {
        let r = start.parse_move(bad);
        assert!(r.is_err(), "{bad:?} gave {r:?}");
    }
    for bad in ["", "e2", "hello", "j1j2", "e6e5", "e2e3a,", "e2e3aaa"] {
        assert!(
            matches!(start.parse_move(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
    }
    // Well formed but not a legal turn here.
    for bad in [
        "a1a2",
        "e2e4",
        "e2e3x",
        "e2e3a,e3e4a",
        "d3e3w,e3d3w",
        "e3e4",
    ] {
        assert!(start.parse_move(bad).is_err(), "{bad:?}");
    }
    // A long string of legs is refused, not a panic.
    let long = vec!["a1a2a"; 200].join(",");
    assert!(start.parse_move(&long).is_err());
}

#[test]
fn a_side_without_stones_loses() {
    // Black to move with no stones.
    let g = Game::new(pos("9/9/9/9/P8 b 0"));
    assert!(matches!(g.outcome(), Some(Outcome::Win(Color::White, _))));
    // White takes Black's last stone: a1 -> b1 approaches c1.
    let mut g = Game::new(pos("9/9/9/9/P1p6 w 0"));
    assert_eq!(g.outcome(), None);
    g.play_str("a1b1a").unwrap();
    assert_eq!(g.position().to_fen(), "9/9/9/9/1P7 b 1");
    assert!(matches!(g.outcome(), Some(Outcome::Win(Color::White, _))));
    // And the other way round.
    let g = Game::new(pos("p8/9/9/9/9 w 0"));
    assert!(matches!(g.outcome(), Some(Outcome::Win(Color::Black, _))));
}

#[test]
fn a_side_with_stones_but_no_move_loses() {
    // Black b1 (odd: neighbours a1, c1, b2 only, all White; a2 and c2 are
    // empty but not on b1's lines). Black cannot move: Black loses.
    let fen = "9/9/9/1P7/PpP6 b 0";
    assert!(moves(fen).is_empty());
    let g = Game::new(pos(fen));
    assert!(matches!(g.outcome(), Some(Outcome::Win(Color::White, _))));
    // Black a1 (even) walled in by a2, b1, b2.
    let g = Game::new(pos("9/9/9/PP7/pP7 b 0"));
    assert!(matches!(g.outcome(), Some(Outcome::Win(Color::White, _))));
}

#[test]
fn draw_after_100_plies_without_capture() {
    let v = variant::builtin("fanorona").unwrap();
    assert_eq!(v.move_rule, 100);
    // White a1, Black i5: nothing can capture. With the clock at 99, one
    // more paika makes 100 plies without capture: a draw.
    let mut g = Game::new(pos("8p/9/9/9/P8 w - - 99 50"));
    assert_eq!(g.outcome(), None);
    g.play_str("a1a2").unwrap();
    assert_eq!(g.position().halfmove_clock(), 100);
    assert_eq!(g.outcome(), Some(Outcome::Draw(Termination::MoveRule)));
    // A capture resets the clock: a1 -> b1 takes c1, Black's i5 remains.
    let mut g = Game::new(pos("8p/9/9/9/P1p6 w - - 99 50"));
    g.play_str("a1b1").unwrap();
    assert_eq!(g.position().halfmove_clock(), 0);
    assert_eq!(g.outcome(), None);
    // A paika counts one ply from a site FEN (clock 0).
    let mut g = Game::new(pos("8p/9/9/9/P8 w 0"));
    g.play_str("a1b2").unwrap();
    assert_eq!(g.position().halfmove_clock(), 1);
}

#[test]
fn draw_by_threefold_repetition() {
    // White a1, Black i5, nothing captures; both step out and back twice:
    // the start position is there for the third time after eight plies.
    let mut g = Game::new(pos("8p/9/9/9/P8 w 0"));
    let plies = [
        "a1a2", "i5i4", "a2a1", "i4i5", "a1a2", "i5i4", "a2a1", "i4i5",
    ];
    for (i, m) in plies.iter().enumerate() {
        assert_eq!(g.outcome(), None, "before ply {i}");
        g.play_str(m).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw(Termination::Repetition)));
}

#[test]
fn fens_with_more_than_22_stones_a_side_are_refused() {
    let v = variant::builtin("fanorona").unwrap();
    // 5 + 9 + 9 = 23 White stones; 22 is the start position's number.
    assert!(Position::from_fen(v, "9/9/PPPPP4/PPPPPPPPP/PPPPPPPPP w 0").is_err());
    assert!(Position::from_fen(v, "ppppppppp/ppppppppp/ppppp4/9/9 b 0").is_err());
    assert!(Position::from_fen(v, "ppppppppp/ppppppppp/ppppp4/9/P8 w - - 0 1").is_err());
    assert!(Position::from_fen(v, "9/9/PPPP5/PPPPPPPPP/PPPPPPPPP w 0").is_ok());
    // Malformed boards: an error, not a panic.
    for bad in [
        "",
        "9/9/9/9 w 0",
        "9/9/9/9/9/9 w 0",
        "10/9/9/9/9 w 0",
        "8/9/9/9/9 w 0",
        "9/9/9/9/PPPPPPPPPP w 0",
        "9/9/9/9/K8 w 0",
        "9/9/9/9/P8 x 0",
    ] {
        assert!(Position::from_fen(v, bad).is_err(), "{bad:?}");
    }
}

#[test]
fn site_fens_come_back_as_given() {
    for fen in [
        "ppppppppp/ppppppppp/pPpP1pPpP/PPPPPPPPP/PPPPPPPPP w 0",
        "pppp1p1pp/pppppPppp/pP1PPp1pP/PPPpPPPPP/PPPP1PPPP b 0",
        "pppp1p1pp/pppppP1pp/pP1PPpppP/PPPpPP1PP/PPPP1P1PP w 7",
        "9/9/2pP1p3/9/9 w 12",
        "9/9/9/9/P8 b 3",
    ] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
    // The count counts turns played: one more after each move.
    let mut p = pos("ppppppppp/ppppppppp/pPpP1pPpP/PPPPPPPPP/PPPPPPPPP w 0");
    p.play(p.parse_move("d3e3w").unwrap());
    assert_eq!(
        p.to_fen(),
        "ppppppppp/ppppppppp/pP2PpPpP/PPPPPPPPP/PPPPPPPPP b 1"
    );
    // A full fers FEN comes back as a full FEN.
    let full = "9/9/2pP1p3/9/9 w - - 7 20";
    assert_eq!(pos(full).to_fen(), full);
}

/// The long chain: White a2 alone against 13 Black stones, each leg taking
/// one of them (checked leg by leg; d = direction, taken = victims):
///
/// | leg | step  | d  | kind | taken | why the line stops            |
/// |-----|-------|----|------|-------|-------------------------------|
/// | 1   | a2 a3 | N  | w    | a1    | board edge                    |
/// | 2   | a3 b4 | NE | a    | c5    | board edge (a3, b4 even)      |
/// | 3   | b4 c3 | SE | w    | a5    | board edge                    |
/// | 4   | c3 d4 | NE | a    | e5    | board edge                    |
/// | 5   | d4 e3 | SE | a    | f2    | g1 empty                      |
/// | 6   | e3 f4 | NE | w    | d2    | c1 empty                      |
/// | 7   | f4 g3 | SE | a    | h2    | i1 empty                      |
/// | 8   | g3 h4 | NE | a    | i5    | board edge                    |
/// | 9   | h4 i3 | SE | w    | g5    | board edge                    |
/// | 10  | i3 i2 | S  | w    | i4    | i5 taken at leg 8             |
/// | 11  | i2 h2 | W  | a    | g2    | f2 taken at leg 5             |
/// | 12  | h2 h1 | S  | w    | h3    | h4 empty (left at leg 9)      |
/// | 13  | h1 g1 | W  | a    | f1    | e1 empty                      |
///
/// No two consecutive legs share a direction; the points a2, a3, b4, c3,
/// d4, e3, f4, g3, h4, i3, i2, h2, h1, g1 are all different, and each is
/// empty when the stone lands (h2 and the others are captured first or
/// were never occupied). Every victim is still there when its leg comes
/// (no earlier leg's line reaches it). The chain ends with Black's last
/// stone gone: White wins.
#[test]
fn a_thirteen_leg_chain() {
    let fen = "p1p1p1p1p/8p/7p1/P2p1ppp1/p4p3 w 0";
    let chain = "a2a3w,a3b4a,b4c3w,c3d4a,d4e3a,e3f4w,f4g3a,g3h4a,h4i3w,i3i2w,i2h2a,h2h1w,h1g1a";
    let p = pos(fen);
    let all = moves(fen);
    assert!(all.iter().any(|m| m == chain), "the chain is generated");
    // Every prefix is a turn of its own.
    let legs: Vec<&str> = chain.split(',').collect();
    for n in 1..=legs.len() {
        let prefix = legs[..n].join(",");
        assert!(all.contains(&prefix), "prefix {prefix}");
    }
    let m = p.parse_move(chain).unwrap();
    assert_eq!(m.leg_count(), 13);
    assert_eq!(p.move_to_uci(m), chain);
    assert_eq!(p.parse_move(&p.move_to_uci(m)), Ok(m));
    assert!(p.is_capture(m));
    assert_eq!(
        victims(fen, chain),
        ["a1", "a5", "c5", "d2", "e5", "f1", "f2", "g2", "g5", "h2", "h3", "i4", "i5"]
    );
    let mut g = Game::new(p.clone());
    g.play(m);
    assert_eq!(g.position().to_fen(), "9/9/9/9/6P2 b 1");
    assert!(matches!(g.outcome(), Some(Outcome::Win(Color::White, _))));
    // Round trip of every turn of the position through the notation.
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    for t in list.iter() {
        assert_eq!(p.parse_move(&p.move_to_uci(t)), Ok(t));
    }
}

/// Quiescence's moves (`legal_noisy_moves`) are the capture chains that no
/// other legal turn extends, and no paika: checked over random playouts
/// against the full list (a turn `t` is extended when `t,` begins another).
#[test]
fn noisy_moves_are_the_chains_followed_to_their_end() {
    let v = fers_core::variant::builtin("fanorona").unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut compared = 0;
    for _ in 0..40 {
        let mut pos = fers_core::Position::startpos(v);
        for _ in 0..60 {
            let mut all = fers_core::MoveList::new();
            pos.legal_moves(&mut all);
            if all.is_empty() {
                break;
            }
            let texts: Vec<String> = all.iter().map(|m| pos.move_to_uci(m)).collect();
            let mut want: Vec<String> = all
                .iter()
                .zip(&texts)
                .filter(|(m, t)| {
                    pos.is_capture(*m) && !texts.iter().any(|o| o.starts_with(&format!("{t},")))
                })
                .map(|(_, t)| t.clone())
                .collect();
            let mut noisy = fers_core::MoveList::new();
            pos.legal_noisy_moves(&mut noisy);
            let mut got: Vec<String> = noisy.iter().map(|m| pos.move_to_uci(m)).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{}", pos.to_fen());
            compared += 1;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = all.get((seed % all.len() as u64) as usize);
            pos.play(m);
        }
    }
    assert!(compared > 500, "{compared}");
}
