//! Fanorona through fers-match: fers against fers-baseline playing the
//! vchess site's way (random capture chains followed to their end), two
//! games at a fixed low depth. Each must end by the rules, refereed move by
//! move by fers-core (a side without stones or moves loses, repetition,
//! the turn limit), never by a fault, a time loss or adjudication, and the
//! PGN must hold the turns in SPEC notation, chains included.

use fers_tests::require;
use std::process::Command;

#[test]
fn fers_plays_fanorona_against_random_chains() {
    let Some(fers) = require::searching_fers("fers_plays_fanorona_against_random_chains") else {
        return;
    };
    let pgn = std::env::temp_dir().join(format!("fers-fanorona-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new(env!("CARGO_BIN_EXE_fers-match"))
        .args([
            "-engine",
            &format!("cmd={}", fers.display()),
            "name=fers",
            "depth=3",
            "-engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_fers-baseline")),
            "name=site",
            "option.Mode=maximal",
            "depth=1",
            "-variant",
            "fanorona",
            "-games",
            "2",
            "-repeat",
            "-srand",
            "5",
            "-noprogress",
            "-pgnout",
            &pgn.display().to_string(),
        ])
        .output()
        .expect("run fers-match");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "fers-match failed:\n{text}");
    let finished: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(finished.len(), 2, "{text}");
    for line in &finished {
        assert!(
            !line.contains("adjudicat") && !line.contains("on time") && !text.contains("Warning:"),
            "{line}\n{text}"
        );
        assert!(
            ["by stalemate", "repetition", "moves rule", "-move rule"]
                .iter()
                .any(|r| line.contains(r)),
            "not a rules ending: {line}"
        );
    }
    let games = std::fs::read_to_string(&pgn).expect("the PGN");
    let _ = std::fs::remove_file(&pgn);
    assert!(games.contains("[Variant \"fanorona\"]"), "{games}");
    // Turns in SPEC notation: the first is one of the five legal ones.
    assert!(
        ["d2e3a", "d3e3a", "d3e3w", "e2e3a", "f2e3a"]
            .iter()
            .any(|m| games.contains(&format!("1. {m} "))),
        "{games}"
    );
    println!("{}", finished.join("\n"));
}
