//! Short fers-match tournaments with real engines: two engine instances in
//! chess (the PGN is parsed back by python-chess) and in Capablanca chess
//! (a fairy variant from `variants/examples.ini`, the PGN replayed by
//! fers-core), and XBoard engines (Fairy-Max with `edit`, Sjaak II with
//! `setboard`) against each other and against a UCI engine.
//!
//! The engines: two fers instances at a low fixed depth (the `fers` binary
//! that `cargo test --workspace` builds next to `fers-match`, or
//! `$FERS_BIN`), which must search (`fers bench 1`): a fers that cannot is
//! a failure, never replaced by another engine. A missing fers,
//! Fairy-Stockfish, python3, python-chess, Fairy-Max or Sjaak II is the
//! skip rule of `fers_tests::require` (a failure under CI, `SKIPPED:`
//! elsewhere); `.ci/run` installs them all.

use fers_core::{variant_file, MoveList, Position};
use fers_tests::require;
use fers_tools::san::to_san;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The engine the chess and Capablanca matches use: the fers binary, which
/// must search.
fn engine_under_test(test: &str) -> Option<PathBuf> {
    let fers = require::searching_fers(test)?;
    let _ = writeln!(std::io::stderr(), "match engine: {}", fers.display());
    Some(fers)
}

struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let p = std::env::temp_dir().join(format!("fers-match-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        Temp(p)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn fers_match(args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-match"))
        .args(args)
        .output()
        .expect("run fers-match");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "fers-match failed:\n{text}");
    text
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The PGN games as (tags, movetext).
fn split_games(pgn: &str) -> Vec<(Vec<(String, String)>, String)> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut text = String::new();
    for line in pgn.lines() {
        if let Some(t) = line.strip_prefix('[') {
            if !text.is_empty() {
                games.push((std::mem::take(&mut tags), std::mem::take(&mut text)));
            }
            let (k, v) = t.split_once(' ').expect("tag");
            tags.push((
                k.to_string(),
                v.trim_end_matches(']').trim_matches('"').to_string(),
            ));
        } else if !line.trim().is_empty() {
            text.push_str(line);
            text.push(' ');
        }
    }
    if !text.is_empty() {
        games.push((tags, text));
    }
    games
}

fn tag<'a>(tags: &'a [(String, String)], k: &str) -> &'a str {
    tags.iter()
        .find(|(t, _)| t == k)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {k} tag"))
}

/// Replays a game's SAN with fers-core: every move must be the SAN of a
/// legal move. Returns the number of moves.
fn replay(pos: &Position, movetext: &str) -> usize {
    let mut pos = pos.clone();
    let mut n = 0;
    let mut in_comment = false;
    for tok in movetext.split_whitespace() {
        if in_comment {
            in_comment = !tok.ends_with('}');
            continue;
        }
        if tok.starts_with('{') {
            in_comment = !tok.ends_with('}');
            continue;
        }
        if tok.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok) {
            continue;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let m = list
            .iter()
            .find(|&m| to_san(&pos, m) == tok)
            .unwrap_or_else(|| panic!("'{tok}' is not a legal SAN move in {}", pos.to_fen()));
        pos.play(m);
        n += 1;
    }
    n
}

fn python_chess_check(test: &str, pgn: &Path, games: usize) {
    const SCRIPT: &str = r#"
import sys, chess.pgn
n = 0
with open(sys.argv[1]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        n += 1
        assert not g.errors, g.errors
        board = g.end().board()
        r = g.headers["Result"]
        assert r in ("1-0", "0-1", "1/2-1/2"), r
        assert int(g.headers["PlyCount"]) == len(list(g.mainline_moves()))
        if g.headers["Termination"] == "normal" and r != "1/2-1/2":
            assert board.is_checkmate(), (r, board.fen())
assert n == int(sys.argv[2]), (n, sys.argv[2])
print("python-chess ok", n)
"#;
    let Some(py) = require::python_with(test, &["chess", "chess.pgn"], "chess") else {
        return;
    };
    let o = Command::new(py)
        .args(["-c", SCRIPT])
        .arg(pgn)
        .arg(games.to_string())
        .output()
        .expect("python3 starts");
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("python-chess ok"),
        "python-chess rejected the PGN:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn chess_match_pgn_parses_in_python_chess() {
    let test = "chess_match_pgn_parses_in_python_chess";
    let Some(engine) = engine_under_test(test) else {
        return;
    };
    let pgn = Temp::new("chess.pgn");
    let openings = repo().join("tests/data/openings-8moves-2000.epd");
    let e = engine.display();
    let text = fers_match(&strings(&[
        "-engine",
        &format!("cmd={e}"),
        "name=A",
        "-engine",
        &format!("cmd={e}"),
        "name=B",
        "-each",
        "depth=1",
        "-games",
        "4",
        "-repeat",
        "-concurrency",
        "2",
        "-maxmoves",
        "120",
        "-openings",
        &format!("file={}", openings.display()),
        "order=random",
        "-srand",
        "7",
        "-pgnout",
        &pgn.0.display().to_string(),
    ]));
    assert!(text.contains("Score of A vs B: "), "{text}");
    assert!(text.contains("Elo difference: "), "{text}");
    assert!(text.contains("Finished match"), "{text}");
    assert_eq!(text.matches("Finished game ").count(), 4, "{text}");
    // Two opening pairs in the pentanomial counts.
    let ptnml = text
        .lines()
        .find_map(|l| {
            l.split_once("Ptnml(0-2): [")
                .map(|(_, r)| r.trim_end_matches(']').to_string())
        })
        .unwrap_or_else(|| panic!("no Ptnml line in\n{text}"));
    let pairs: u32 = ptnml
        .split(", ")
        .map(|n| n.parse::<u32>().expect("count"))
        .sum();
    assert_eq!(pairs, 2, "{text}");
    assert!(text.contains("...      Ptnml Elo: "), "{text}");
    let pgn_text = std::fs::read_to_string(&pgn.0).expect("PGN written");
    let games = split_games(&pgn_text);
    assert_eq!(games.len(), 4);
    for (tags, moves) in &games {
        assert_eq!(tag(tags, "Variant"), "Standard");
        assert_eq!(tag(tags, "SetUp"), "1");
        assert!(!tag(tags, "Termination").is_empty());
        let start = Position::from_fen(fers_core::variant::chess(), tag(tags, "FEN")).unwrap();
        assert_eq!(replay(&start, moves).to_string(), tag(tags, "PlyCount"));
    }
    // Games 1-2 and 3-4 share their opening with colours reversed.
    // PGN is written in finishing order: count the FENs instead.
    let mut fens: Vec<&str> = games.iter().map(|(t, _)| tag(t, "FEN")).collect();
    fens.sort();
    assert_eq!(fens[0], fens[1]);
    assert_eq!(fens[2], fens[3]);
    // The PGN serves as an openings file too (`-openings format=pgn plies=N`).
    let again =
        fers_tools::openings::parse_pgn(&pgn.0, &pgn_text, fers_core::variant::chess(), Some(6))
            .expect("PGN openings");
    assert_eq!(again.len(), 4);
    python_chess_check(test, &pgn.0, 4);
}

#[test]
fn capablanca_match_from_variant_file() {
    let test = "capablanca_match_from_variant_file";
    let Some(engine) = engine_under_test(test) else {
        return;
    };
    let pgn = Temp::new("capablanca.pgn");
    let file = repo().join("variants/examples.ini");
    let e = engine.display();
    let text = fers_match(&strings(&[
        "-engine",
        &format!("cmd={e}"),
        "name=A",
        "-engine",
        &format!("cmd={e}"),
        "name=B",
        "-each",
        "depth=1",
        "-variant",
        "capablanca",
        "-variantfile",
        &file.display().to_string(),
        "-games",
        "2",
        "-maxmoves",
        "80",
        "-pgnout",
        &pgn.0.display().to_string(),
    ]));
    assert!(text.contains("Score of A vs B: "), "{text}");
    let pgn_text = std::fs::read_to_string(&pgn.0).expect("PGN written");
    let games = split_games(&pgn_text);
    assert_eq!(games.len(), 2);
    let capa = variant_file::load(
        "examples.ini",
        &std::fs::read_to_string(&file).unwrap(),
        &|_| None,
    )
    .into_iter()
    .find(|s| s.name == "capablanca")
    .and_then(|s| s.result.ok())
    .expect("capablanca loads");
    for (tags, moves) in &games {
        assert_eq!(tag(tags, "Variant"), "capablanca");
        let start = Position::from_fen(capa, tag(tags, "FEN")).unwrap();
        assert_eq!(start.to_fen(), Position::startpos(capa).to_fen());
        assert_eq!(replay(&start, moves).to_string(), tag(tags, "PlyCount"));
    }
}

#[test]
fn xboard_engines_play_chess_and_capablanca() {
    let test = "xboard_engines_play_chess_and_capablanca";
    let hint = ".ci/run installs them: apt-get install fairymax sjaakii";
    let Some(fmax) = require::or_skip(
        require::find_program("fairymax", "FERS_FAIRYMAX"),
        test,
        "fairymax not found",
        hint,
    ) else {
        return;
    };
    let Some(sjaak) = require::or_skip(
        require::find_program("sjaakii", "FERS_SJAAKII"),
        test,
        "sjaakii not found",
        hint,
    ) else {
        return;
    };
    let pgn = Temp::new("xboard.pgn");
    let openings = repo().join("tests/data/openings-8moves-2000.epd");
    // Chess from book positions: Fairy-Max gets them by `edit`, Sjaak II by `setboard`.
    let text = fers_match(&strings(&[
        "-engine",
        &format!("cmd={}", fmax.display()),
        "proto=xboard",
        "-engine",
        &format!("cmd={}", sjaak.display()),
        "proto=xboard",
        "-each",
        "depth=2",
        "-games",
        "2",
        "-maxmoves",
        "40",
        "-openings",
        &format!("file={}", openings.display()),
        "-pgnout",
        &pgn.0.display().to_string(),
    ]));
    assert!(text.contains("Score of fairymax vs sjaakii: "), "{text}");
    assert!(!text.contains("Warning"), "{text}");
    python_chess_check(test, &pgn.0, 2);

    if let Some(engine) = require::fairy_stockfish(test) {
        let file = repo().join("variants/examples.ini");
        let text = fers_match(&strings(&[
            "-engine",
            &format!("cmd={}", fmax.display()),
            "proto=xboard",
            "-engine",
            &format!("cmd={}", engine.display()),
            "-each",
            "depth=2",
            "-variant",
            "capablanca",
            "-variantfile",
            &file.display().to_string(),
            "-games",
            "2",
            "-maxmoves",
            "40",
        ]));
        assert!(
            text.contains("Score of fairymax vs fairy-stockfish: "),
            "{text}"
        );
        assert!(!text.contains("Warning"), "{text}");
    }
}

/// A longer run under a real clock (about half a minute): fers against
/// Fairy-Stockfish at 4 s + 0.05 s (200 ms margin), no engine may lose on
/// time or fault.
/// `cargo test -p fers-tools --test match_games -- --ignored`
#[test]
#[ignore]
fn fers_against_fairy_stockfish_on_the_clock() {
    let test = "fers_against_fairy_stockfish_on_the_clock";
    let (Some(fers), Some(engine)) = (
        require::searching_fers(test),
        require::fairy_stockfish(test),
    ) else {
        return;
    };
    let pgn = Temp::new("clock.pgn");
    let openings = repo().join("tests/data/openings-8moves-2000.epd");
    let text = fers_match(&strings(&[
        "-engine",
        &format!("cmd={}", fers.display()),
        "name=fers",
        "-engine",
        &format!("cmd={}", engine.display()),
        "name=fsf",
        "-each",
        "tc=4+0.05",
        // A loaded machine (tests in parallel) delays the pipes a little.
        "timemargin=200",
        "-games",
        "4",
        "-repeat",
        "-concurrency",
        "2",
        "-openings",
        &format!("file={}", openings.display()),
        "order=random",
        "-pgnout",
        &pgn.0.display().to_string(),
    ]));
    assert!(text.contains("Score of fers vs fsf: "), "{text}");
    assert!(!text.contains("Warning"), "{text}");
    assert!(!text.contains("loses on time"), "{text}");
    python_chess_check(test, &pgn.0, 4);
}

#[test]
fn restart_on_starts_a_fresh_process_every_game() {
    let test = "restart_on_starts_a_fresh_process_every_game";
    let Some(engine) = require::fairy_stockfish(test) else {
        return;
    };
    let starts = |restart: &str| {
        let text = fers_match(&strings(&[
            "-engine",
            &format!("cmd={}", engine.display()),
            "name=A",
            &format!("restart={restart}"),
            "-engine",
            &format!("cmd={}", engine.display()),
            "name=B",
            "-each",
            "depth=1",
            "-games",
            "3",
            "-maxmoves",
            "5",
            "-debug",
        ]));
        text.lines().filter(|l| *l == "A > uci").count()
    };
    // One start to check the engine, then one per game or one in all.
    assert_eq!(starts("on"), 4);
    assert_eq!(starts("off"), 2);
}
