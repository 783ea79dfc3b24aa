//! Wormhole through the UCI front-end: the site's FENs, perft as the site
//! counts it (ref/vchess/cases.json), a search to a legal move, and a side
//! without moves.

use fers_engine::uci::Uci;

fn session(lines: &[&str]) -> String {
    let mut uci = Uci::new(Vec::new());
    for l in lines {
        uci.handle_line(l).expect("writing to a Vec cannot fail");
    }
    uci.wait_for_search().expect("writing to a Vec cannot fail");
    uci.finish().expect("writing to a Vec cannot fail");
    String::from_utf8(uci.output().clone()).expect("output is UTF-8")
}

/// The engine takes the site's FEN, counts its perft as the site does
/// (ref/vchess/cases.json) and searches it to a legal move.
#[test]
fn uci_plays_wormhole_from_a_site_fen() {
    let fen = "cwkxxxwn/ppxppppx/2mxxW2/4x2p/3P1x2/3n1x2/PPPxPPPP/CWxxxNKC b 14";
    let out = session(&[
        "setoption name UCI_Variant value wormhole",
        &format!("position fen {fen}"),
        "go perft 2",
        "go depth 4",
    ]);
    assert!(out.contains("Nodes searched: 796"), "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove "));
    let best = best
        .and_then(|b| b.split_whitespace().next())
        .expect("a bestmove");
    let v = fers_core::variant::builtin("wormhole").unwrap();
    let pos = fers_core::Position::from_fen(v, fen).unwrap();
    assert!(pos.parse_move(best).is_ok(), "{best} is legal");
}

/// A side that cannot move has lost: the search reports no move.
#[test]
fn no_move_is_lost() {
    let walled = "x6x/x5x1/x4x2/x3x3/x2x4/x1x5/xx2k3/Kxxxxxxx w 0";
    let out = session(&[
        "setoption name UCI_Variant value wormhole",
        &format!("position fen {walled}"),
        "go depth 3",
    ]);
    assert!(out.ends_with("bestmove (none)\n"), "{out}");
}

/// Late in the game the exact solver plays (`wormhole_solve.rs`): a
/// position won in 3 plies (analysed by hand in
/// `engine/tests/wormhole_solve.rs`) is reported as a mate in 2 with its
/// line, and its only first move is played.
#[test]
fn the_solver_reports_a_proved_win() {
    let fen = "xxxxx1kx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/1xxxxxxx/xxxxxxxx/K1xxxxxx b 0";
    let out = session(&[
        "setoption name UCI_Variant value wormhole",
        &format!("position fen {fen}"),
        "go movetime 200",
    ]);
    assert!(out.contains("score mate 2 "), "{out}");
    assert!(out.contains("pv g8f8 a1b1 f8a3"), "{out}");
    assert!(out.contains("bestmove g8f8"), "{out}");
}
