//! Variant files through the `fers` binary: `VariantPath` loads them into
//! `UCI_Variant`, `check` validates one, and broken files or sections answer
//! errors without disturbing the rest (SPEC sections 5 and 6).

use fers_tests::engine::EngineProcess;
use std::path::PathBuf;

fn examples() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../variants/examples.ini")
        .display()
        .to_string()
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("fers-variant-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn variant_path_adds_variants_that_play() {
    let mut e = EngineProcess::start();
    let out = e.command(&format!("setoption name VariantPath value {}", examples()));
    assert!(
        out.iter()
            .any(|l| l == "info string loaded variant capablanca"),
        "{out:?}"
    );
    let option = out
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .expect("option line re-sent");
    assert!(
        option.contains(" var chess") && option.contains(" var capablanca"),
        "{option}"
    );
    // The new list also appears at the next `uci`.
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant") && l.contains(" var grand-leapers")));
    // Select one, play moves on its 10x8 board, perft from there.
    let out = e.command("setoption name UCI_Variant value capablanca");
    assert_eq!(
        out,
        vec!["info string variant capablanca files 10 ranks 8 startpos rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"]
    );
    e.command("position startpos moves e2e4 j7j6 c1d3");
    assert_eq!(
        e.fen(),
        "rnabqkbcnr/ppppppppp1/9p/10/4P5/3A6/PPPP1PPPPP/RN1BQKBCNR b KQkq - 1 2"
    );
    // Fairy-Stockfish 11.1, built-in capablanca: perft 2 = 784.
    e.command("position startpos");
    let out = e.command("go perft 2");
    assert_eq!(
        out.last().map(String::as_str),
        Some("Nodes searched: 784"),
        "{out:?}"
    );
    // 12x12 with two-digit ranks in moves.
    e.command("setoption name UCI_Variant value grand-leapers");
    e.command("position startpos moves a2a4 a11a9");
    assert!(
        e.fen().starts_with("rzcgwbqkhnzr/1ppppppppppp/12/p11/"),
        "{}",
        e.fen()
    );
}

#[test]
fn broken_files_and_sections_answer_errors_and_keep_the_state() {
    let mut e = EngineProcess::start();
    let path = temp_file(
        "mixed.ini",
        "[good:chess]\npiece.z = zebra\n\n[bad:chess]\npiece.z = warp(1,2)\n",
    );
    let out = e.command(&format!("setoption name VariantPath value {path}"));
    assert!(
        out.contains(&"info string loaded variant good".to_string()),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with(&format!("info string error: {path}:5: ")) && l.contains("warp")),
        "{out:?}"
    );
    // A missing file: one error, nothing changes.
    e.command("position startpos moves e2e4");
    let before = e.fen();
    let out = e.command("setoption name VariantPath value /no/such/file.ini");
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("info string error: cannot read variant file"),
        "{out:?}"
    );
    assert_eq!(e.fen(), before);
    let out = e.command("setoption name UCI_Variant value bad");
    assert_eq!(out, vec!["info string error: unknown variant 'bad'"]);
    assert_eq!(e.fen(), before);
    e.send("quit");
    assert_eq!(e.wait_exit().code(), Some(0));
}

#[test]
fn check_lists_variants_and_errors_without_loading() {
    let mut e = EngineProcess::start();
    let out = e.command(&format!("check {}", examples()));
    assert!(out.len() >= 12, "{out:?}");
    assert!(
        out.iter().all(|l| l.starts_with("info string check ok ")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains("check ok capablanca 10x8 plain")),
        "{out:?}"
    );
    // Checking does not load: the variant is still unknown.
    let out = e.command("setoption name UCI_Variant value capablanca");
    assert_eq!(out, vec!["info string error: unknown variant 'capablanca'"]);
    let path = temp_file("broken.ini", "[x:chess]\nfiles = 13\n");
    let out = e.command(&format!("check {path}"));
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with(&format!("info string error: {path}:1: ")),
        "{out:?}"
    );
    let out = e.command("check");
    assert_eq!(
        out,
        vec!["info string error: check needs a variant file: check <file>"]
    );
}
