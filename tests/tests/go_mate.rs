//! `go mate N` end to end: the real `fers` binary answers a proven mate
//! with `score mate K` and a mating first move, and says so when no mate
//! in N exists, under conditions too. Expected keys are the published
//! solutions (Popeye's, `shared/ref/popeye/problems-sample.json`) or
//! derived by hand in the comments.

use fers_tests::engine::EngineProcess;

/// Sends the setup lines and `go mate N`; returns the lines up to
/// `bestmove` (included).
fn go_mate(setup: &[&str], n: u32) -> Vec<String> {
    go_mate_with(setup, &format!("go mate {n}"))
}

fn go_mate_with(setup: &[&str], go: &str) -> Vec<String> {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for l in setup {
        e.send(l);
    }
    e.send("isready");
    e.read_until(|l| l == "readyok");
    e.send(go);
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    e.send("quit");
    let status = e.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", e.report());
    lines
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("")
}

#[test]
fn finds_popeyes_key_under_andernach() {
    // Popeye: 1.Be3-g5! (BEISPIEL/andrnach.inp#16).
    let lines = go_mate(
        &[
            "setoption name Conditions value andernach",
            "position fen 8/4KN2/4pNp1/5k2/1p4b1/4B3/1q2P2r/b1n5 w - - 0 1",
        ],
        2,
    );
    assert!(
        lines.iter().any(|l| l.contains(" score mate 2 ")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "e3g5", "{lines:?}");
}

#[test]
fn finds_the_shortest_mate_within_n() {
    // Back-rank mate in one (Ra1-a8#: the king on h8 is boxed in by the
    // king on g6); asked for a mate in 3, the answer is mate 1.
    let lines = go_mate(&["position fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1"], 3);
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "a1a8", "{lines:?}");
}

#[test]
fn says_when_no_mate_exists() {
    // King and rook against king cannot mate in one from here: the black
    // king on e5 in the centre has squares whatever White does.
    let lines = go_mate(&["position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1"], 1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string no mate in 1:")),
        "{lines:?}"
    );
    assert_ne!(bestmove(&lines), "(none)", "{lines:?}");
}

#[test]
fn a_node_limit_stops_the_proof() {
    // A mate in 5 asked in an opening position: the proof
    // cannot finish in 2000 nodes; the engine still answers a legal move.
    let lines = go_mate_with(
        &["position fen r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"],
        "go mate 5 nodes 2000",
    );
    assert!(!lines.iter().any(|l| l.contains("score mate")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("no mate in")), "{lines:?}");
    assert_ne!(bestmove(&lines), "(none)", "{lines:?}");
}
