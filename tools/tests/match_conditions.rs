//! One fers-match self-play game in every fairy condition of seed 003
//! (orthodox chess under it, the built-in variant of that name): each must
//! end by the rules, refereed move by move by fers-core (mate, stalemate as
//! the variant scores it, repetition, the move rule), not by a fault, a
//! time loss or adjudication. Two fers instances at a fixed low depth.

use fers_core::Condition;
use fers_tests::require;
use std::process::Command;

/// Plays one game of `variant` and returns fers-match's output.
fn one_game(fers: &std::path::Path, variant: &str) -> String {
    let e = format!("cmd={}", fers.display());
    let out = Command::new(env!("CARGO_BIN_EXE_fers-match"))
        .args([
            "-engine",
            &e,
            "name=A",
            "-engine",
            &e,
            "name=B",
            "-each",
            "depth=2",
            "-variant",
            variant,
            "-games",
            "1",
            "-srand",
            "7",
            "-noprogress",
        ])
        .output()
        .expect("run fers-match");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{variant}: fers-match failed:\n{text}"
    );
    text
}

#[test]
fn a_self_play_game_ends_by_the_rules_in_every_condition() {
    let Some(fers) =
        require::searching_fers("a_self_play_game_ends_by_the_rules_in_every_condition")
    else {
        return;
    };
    // Two games at a time: the machine has two cores.
    let names: Vec<&str> = Condition::ALL.iter().map(|c| c.name()).collect();
    let results: Vec<(String, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = names
            .chunks(names.len().div_ceil(2))
            .map(|chunk| {
                let fers = &fers;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|v| (v.to_string(), one_game(fers, v)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("no panic"))
            .collect()
    });
    let rules = [
        " mates",
        "by stalemate",
        "repetition",
        "moves rule",
        "-move rule",
        "insufficient",
        " wins (",
    ];
    for (variant, text) in &results {
        let line = text
            .lines()
            .find(|l| l.starts_with("Finished game 1"))
            .unwrap_or_else(|| panic!("{variant}: no finished game:\n{text}"));
        assert!(
            !text.contains("Warning:") && !line.contains("adjudicat") && !line.contains("on time"),
            "{variant}: {line}\n{text}"
        );
        assert!(
            rules.iter().any(|r| line.contains(r)),
            "{variant}: not a rules ending: {line}"
        );
        println!("{variant}: {line}");
    }
}
