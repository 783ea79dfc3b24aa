//! Hand-analysed Baroque positions: each capture mode, immobilisation and
//! each chameleon case, with the boards after the move worked out from the
//! rules (`shared/ref/vchess/NOTES.md`) by hand, not by fers.

use fers_core::{variant, MoveList, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(variant::builtin("baroque").unwrap(), fen).unwrap()
}

/// The board field after playing `mv`.
fn after(fen: &str, mv: &str) -> String {
    let p = pos(fen);
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} at {fen}: {e}"));
    let mut next = p.clone();
    next.play(m);
    next.to_fen().split_whitespace().next().unwrap().to_string()
}

fn is_capture(fen: &str, mv: &str) -> bool {
    let p = pos(fen);
    p.is_capture(p.parse_move(mv).unwrap())
}

/// The legal moves from one square.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let p = pos(fen);
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut out: Vec<String> = list
        .iter()
        .map(|m| p.move_to_uci(m))
        .filter(|s| s.starts_with(from))
        .collect();
    out.sort();
    out
}

fn legal_count(fen: &str) -> usize {
    pos(fen).count_legal()
}

#[test]
fn pincer_takes_three_at_once_and_not_diagonally() {
    // d1-d4: c4 (between b4 and d4), e4 (d4, f4) and d5 (d4, d6) pinched.
    let fen = "7k/8/3P4/3r4/1Pn1bP2/8/8/K2P4 w 0";
    assert_eq!(after(fen, "d1d4"), "7k/8/3P4/8/1P1P1P2/8/8/K7");
    let p = pos(fen);
    assert_eq!(p.captures_of(p.parse_move("d1d4").unwrap()).len(), 3);
    // d1-d3: no enemy next to d3.
    assert!(!is_capture(fen, "d1d3"));
}

#[test]
fn pincer_anchors_on_its_own_king() {
    // c3-c1: b1 lies between c1 and the white king on a1.
    let fen = "7k/8/8/8/8/2P5/8/Kp6 w 0";
    assert_eq!(after(fen, "c3c1"), "7k/8/8/8/8/8/8/K1P5");
}

#[test]
fn coordinator_takes_both_corners() {
    // The site's diagram: Rc5 with the king on h7, corners c7 and h5.
    let fen = "8/2b4K/2q5/3p1N1p/8/8/2R5/k7 w 0";
    assert_eq!(after(fen, "c2c5"), "8/7K/2q5/2Rp1N2/8/8/8/k7");
    // c2-c3 makes a rectangle with h7 (corner c7 taken); c2-h2 lands on
    // the king's file: no rectangle.
    assert_eq!(after(fen, "c2c3"), "8/7K/2q5/3p1N1p/8/2R5/8/k7");
    assert!(!is_capture(fen, "c2h2"));
}

#[test]
fn long_leaper_jumps_a_line_and_stops_after_any_victim() {
    let fen = "2n4k/3r4/5b2/3p4/1m6/3b4/3N4/K7 w 0";
    assert_eq!(after(fen, "d2d4"), "2n4k/3r4/5b2/3p4/1m1N4/8/8/K7");
    assert_eq!(after(fen, "d2d6"), "2n4k/3r4/3N1b2/8/1m6/8/8/K7");
    assert_eq!(after(fen, "d2d8"), "2nN3k/8/5b2/8/1m6/8/8/K7");
    assert_eq!(after(fen, "d2a5"), "2n4k/3r4/5b2/N2p4/8/3b4/8/K7");
}

#[test]
fn long_leaper_cannot_jump_two_in_a_row() {
    // a2 and a3 touch: nothing north; east to g1, north-east to g7.
    let fen = "7k/8/8/8/8/p7/p7/N6K w 0";
    let want: Vec<String> = [
        "a1b1", "a1b2", "a1c1", "a1c3", "a1d1", "a1d4", "a1e1", "a1e5", "a1f1", "a1f6", "a1g1",
        "a1g7",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(moves_from(fen, "a1"), want);
}

#[test]
fn withdrawer_takes_by_moving_away() {
    let fen = "7k/8/8/3Qr3/8/8/8/K7 w 0";
    for mv in ["d5c5", "d5b5", "d5a5"] {
        assert!(is_capture(fen, mv), "{mv}");
    }
    assert_eq!(after(fen, "d5a5"), "7k/8/8/Q7/8/8/8/K7");
    assert!(!is_capture(fen, "d5c4"));
    assert!(!is_capture(fen, "d5d8"));
}

#[test]
fn immobilizer_freezes_its_neighbours() {
    // The black coordinator on e5 touches the white immobilizer: only the
    // king moves (g8, g7, h7).
    let fen = "7k/8/8/4r3/3M4/8/8/K7 b 0";
    assert!(moves_from(fen, "e5").is_empty());
    assert_eq!(legal_count(fen), 3);
}

#[test]
fn chameleon_next_to_the_immobilizer_frees_the_others_not_itself() {
    // The chameleon on c5 touches the immobilizer on d4: the coordinator on
    // e5 may move, the chameleon itself may not, and the immobilizer is
    // frozen by the chameleon.
    let black = "7k/8/8/2b1r3/3M4/8/8/K7 b 0";
    assert!(!moves_from(black, "e5").is_empty());
    assert!(moves_from(black, "c5").is_empty());
    let white = "7k/8/8/2b1r3/3M4/8/8/K7 w 0";
    assert!(moves_from(white, "d4").is_empty());
}

#[test]
fn two_immobilizers_freeze_each_other() {
    let fen = "7k/8/8/4m3/3M4/8/8/K7";
    assert!(moves_from(&format!("{fen} w 0"), "d4").is_empty());
    assert!(moves_from(&format!("{fen} b 0"), "e5").is_empty());
}

#[test]
fn a_frozen_piece_gives_no_check() {
    // The withdrawer on a2 could step to a3 away from the king on a1, but
    // the white immobilizer on b2 freezes it.
    assert!(!pos("7k/8/8/8/8/8/qM6/K7 w 0").in_check());
    assert!(pos("7k/8/8/8/8/8/q6M/K7 w 0").in_check());
}

#[test]
fn a_frozen_king_alone_is_stalemated() {
    let p = pos("7k/8/8/8/8/8/1m6/K7 w 0");
    assert_eq!(p.count_legal(), 0);
    assert!(!p.in_check());
}

#[test]
fn chameleon_against_chameleon_captures_nothing() {
    // Moving away from a chameleon is no withdrawal, and a chameleon is no
    // long leaper to jump; from a withdrawer it is.
    let fen = "7k/8/8/8/3Bb3/8/8/K7 w 0";
    assert!(!is_capture(fen, "d4a4"));
    assert!(!moves_from(fen, "d4").contains(&"d4f4".to_string()));
    assert_eq!(
        after("7k/8/8/8/3Bq3/8/8/K7 w 0", "d4a4"),
        "7k/8/8/8/B7/8/8/K7"
    );
}

#[test]
fn chameleon_against_the_immobilizer() {
    // Next to each other, the chameleon and the immobilizer both freeze.
    let fen = "7k/8/8/8/3Bm3/8/8/K7";
    assert!(moves_from(&format!("{fen} w 0"), "d4").is_empty());
    assert!(moves_from(&format!("{fen} b 0"), "e4").is_empty());
    // As coordinator the chameleon takes a coordinator on a corner but not
    // an immobilizer: Bc4-c6 with the king on a1 has corners c1 and a6.
    assert_eq!(
        after("7k/8/r7/8/2B5/8/8/K1m5 w 0", "c4c6"),
        "7k/8/2B5/8/8/8/8/K1m5"
    );
}

#[test]
fn chameleon_leaps_only_over_long_leapers() {
    // The chameleon takes the leaper on b2 landing on c3, but cannot go on
    // over the pincer on d4; a long leaper there takes both.
    let cham = "7k/8/8/8/3p4/8/1n6/B6K w 0";
    let got = moves_from(cham, "a1");
    assert!(got.contains(&"a1c3".to_string()), "{got:?}");
    for mv in ["a1d4", "a1e5", "a1f6", "a1g7"] {
        assert!(!got.contains(&mv.to_string()), "{mv}: {got:?}");
    }
    // North (7) and east (6) rides, and the one leap.
    assert_eq!(got.len(), 14);
    assert_eq!(after(cham, "a1c3"), "7k/8/8/8/3p4/2B5/8/7K");
    let leaper = "7k/8/8/8/3p4/8/1n6/N6K w 0";
    let got = moves_from(leaper, "a1");
    for mv in ["a1c3", "a1e5", "a1f6", "a1g7"] {
        assert!(got.contains(&mv.to_string()), "{mv}: {got:?}");
    }
    assert_eq!(after(leaper, "a1g7"), "7k/6N1/8/8/8/8/8/7K");
}

#[test]
fn chameleon_next_to_the_king_gives_check() {
    let p = pos("7k/6B1/8/8/8/8/8/K7 b 0");
    assert!(p.in_check());
    // g8 and h7 stay next to the chameleon: the king must take it.
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let moves: Vec<String> = list.iter().map(|m| p.move_to_uci(m)).collect();
    assert_eq!(moves, vec!["h8g7".to_string()]);
    // With White to move, Black would be in check: not a position.
    assert!(Position::from_fen(
        variant::builtin("baroque").unwrap(),
        "7k/6B1/8/8/8/8/8/K7 w 0"
    )
    .is_err());
}

#[test]
fn the_start_position_and_site_fens() {
    let v = variant::builtin("ultima").unwrap();
    let start = Position::startpos(v);
    assert_eq!(
        start.to_fen(),
        "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w - - 0 1"
    );
    let site = Position::from_fen(v, "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0").unwrap();
    assert_eq!(site.key(), start.key());
    // The site counts plies: ten played, White to move at move 6.
    let later = Position::from_fen(v, "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 10").unwrap();
    assert_eq!(later.fullmove_number(), 6);
}
