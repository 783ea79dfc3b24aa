//! fers-perft: published counts, divide output, variant files, and the
//! comparison with Fairy-Stockfish (agreement and a reported difference).

use std::path::Path;
use std::process::Command;

fn perft(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-perft"))
        .args(args)
        .output()
        .expect("run fers-perft");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn examples() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../variants/examples.ini")
        .display()
        .to_string()
}

#[test]
fn published_counts_and_divide() {
    // Published: startpos depth 3 = 8902; Kiwipete depth 2 = 2039.
    let (ok, text) = perft(&["3"]);
    assert!(ok, "{text}");
    assert!(text.contains("Nodes: 8902"), "{text}");
    assert!(text.contains("NPS: "), "{text}");
    let (ok, text) = perft(&[
        "2",
        "--divide",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("Nodes: 2039"), "{text}");
    assert!(text.contains("e1g1: "), "{text}");
    // After 1. e4 (20 replies, 600 leaves at depth 2 from the published e2e4 divide).
    let (ok, text) = perft(&["2", "--moves", "e2e4"]);
    assert!(ok, "{text}");
    assert!(text.contains("Nodes: 600"), "{text}");
}

#[test]
fn variant_files_and_errors() {
    // Capablanca depth 2 = 784 (28 moves a side at the start).
    let (ok, text) = perft(&["2", "-v", "capablanca", "-f", &examples()]);
    assert!(ok, "{text}");
    assert!(text.contains("Nodes: 784"), "{text}");
    let (ok, text) = perft(&["2", "-v", "nosuch"]);
    assert!(!ok);
    assert!(text.contains("unknown variant 'nosuch'"), "{text}");
    let (ok, text) = perft(&["2", "--fen", "garbage"]);
    assert!(!ok);
    assert!(text.contains("bad FEN"), "{text}");
    let (ok, text) = perft(&["2", "--moves", "e2e5"]);
    assert!(!ok);
    assert!(text.contains("e2e5"), "{text}");
}

#[test]
fn compare_with_fairy_stockfish() {
    let Some(fsf) = fers_tests::require::fairy_stockfish("compare_with_fairy_stockfish") else {
        return;
    };
    let fsf = fsf.display().to_string();
    let (ok, text) = perft(&["3", "--compare", &fsf]);
    assert!(ok, "{text}");
    assert!(text.contains("agree: 8902 nodes"), "{text}");
    let (ok, text) = perft(&[
        "3",
        "-v",
        "capablanca",
        "-f",
        &examples(),
        "--compare",
        &fsf,
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("agree: 25228 nodes"), "{text}");
    // A variant Fairy-Stockfish does not know from a fers-format file: it
    // plays chess instead, and the walk-down names the differing moves.
    let (ok, text) = perft(&[
        "2",
        "-v",
        "nightrider-chess",
        "-f",
        &examples(),
        "--compare",
        &fsf,
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("MISMATCH"), "{text}");
    assert!(text.contains("first difference after: (root)"), "{text}");
    assert!(text.contains("only fers: "), "{text}");
}
