//! `fers-match -pool` and `-paired` on PGN files written as the runner
//! writes them: the lines they print and their errors.

use std::path::PathBuf;
use std::process::Command;

fn game(round: u32, white: &str, black: &str, result: &str) -> String {
    format!(
        "[Event \"fers-match\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n\n1. Ka2 {result}\n\n"
    )
}

fn write(name: &str, games: &[String]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fers-match-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, games.concat()).unwrap();
    p
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-match"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn pools_two_runs_and_compares_them_pair_by_pair() {
    // Run A: pairs of 2, 1 and 1 points; run B on the same rounds: 1, 1, 0.
    let a = write(
        "a.pgn",
        &[
            game(1, "a", "x", "1-0"),
            game(1, "x", "a", "0-1"),
            game(2, "a", "x", "1-0"),
            game(2, "x", "a", "1-0"),
            game(3, "a", "x", "1/2-1/2"),
            game(3, "x", "a", "1/2-1/2"),
        ],
    );
    let b = write(
        "b.pgn",
        &[
            game(1, "b", "x", "1-0"),
            game(1, "x", "b", "1-0"),
            game(2, "b", "x", "1/2-1/2"),
            game(2, "x", "b", "1/2-1/2"),
            game(3, "b", "x", "0-1"),
            game(3, "x", "b", "1-0"),
        ],
    );
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (ok, out, _) = run(&["-pool", "a", a]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Score of a vs x: 3 - 1 - 2  [0.667] 6");
    assert_eq!(lines[1], "...      Ptnml(0-2): [0, 0, 2, 0, 1]");
    assert!(
        lines[2].starts_with("...      Ptnml Elo: 120.4 +/- "),
        "{out}"
    );
    assert!(lines[3].starts_with("Elo difference: 120.4 +/- "), "{out}");

    // Both runs as one engine: 4 - 4 - 4 over 6 pairs.
    let (ok, out, _) = run(&["-pool", "a,b", a, b]);
    assert!(ok);
    assert!(
        out.starts_with("Score of a,b vs x: 4 - 4 - 4  [0.500] 12\n"),
        "{out}"
    );
    assert!(out.contains("Ptnml(0-2): [1, 0, 4, 0, 1]"), "{out}");

    let (ok, out, _) = run(&["-paired", "a", a, "b", b]);
    assert!(ok);
    assert!(
        out.starts_with(
            "a against b, 3 pairs on the same openings: score per game +0.3333 +/- 0.3267 (95%)"
        ),
        "{out}"
    );
}

#[test]
fn bad_arguments_and_missing_games_are_reported() {
    let a = write("c.pgn", &[game(1, "a", "x", "1-0")]);
    let a = a.to_str().unwrap();
    let (ok, _, err) = run(&["-pool", "nobody", a]);
    assert!(!ok);
    assert!(err.contains("no finished game of 'nobody'"), "{err}");
    let (ok, _, err) = run(&["-pool", "a", "/nonexistent/x.pgn"]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/x.pgn"), "{err}");
    let (ok, _, err) = run(&["-paired", "a", a]);
    assert!(!ok);
    assert!(err.contains("needs NAME_A PGN_A NAME_B PGN_B"), "{err}");
    let two = format!("{a},{a}");
    let (ok, _, err) = run(&["-paired", "a", &two, "a", a]);
    assert!(!ok);
    assert!(err.contains("must list as many files"), "{err}");
    let (ok, _, err) = run(&["-pool"]);
    assert!(!ok);
    assert!(err.contains("-pool NAME PGN..."), "{err}");
}
