//! fers books of a fairy variant, end to end: `fers-match` plays Capablanca
//! chess (10x8, archbishops and chancellors, from `variants/examples.ini`),
//! `fers-book build` makes a fers book of its PGN, and
//!
//! - the book holds every move the games played in their first plies;
//! - the engine with `OwnBook` plays the book's heaviest move at once, with
//!   `info string book move <m>`, along the first game;
//! - truncated, corrupt, foreign and missing books are refused with
//!   `info string error:`, and the engine still searches;
//! - `fers-match -openings file=<book>` starts games from book exits.
//!
//! Needs the fers binary: without it the test prints `SKIPPED:`, except
//! under CI, where it fails.

use fers_book::fers::FersBook;
use fers_core::variant_file;
use fers_core::{Position, Variant};
use fers_tests::require;
use fers_tools::pgn_games::read_games;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("fers-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/examples.ini")
}

fn capablanca() -> &'static Variant {
    let file = examples();
    let text = std::fs::read_to_string(&file).unwrap();
    variant_file::load(&file.display().to_string(), &text, &|_| None)
        .into_iter()
        .find(|s| s.name == "capablanca")
        .and_then(|s| s.result.ok())
        .expect("capablanca in variants/examples.ini")
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// `fers-match` output of games of the engine `e` against itself at depth
/// 1 in Capablanca, with further flags.
fn capablanca_selfplay(e: &str, flags: &[&str]) -> String {
    let cmd = format!("cmd={e}");
    let examples = examples().display().to_string();
    let mut args = vec![
        "-engine",
        &cmd,
        "name=A",
        "-engine",
        &cmd,
        "name=B",
        "-each",
        "depth=1",
        "-variant",
        "capablanca",
        "-variantfile",
        &examples,
        "-noprogress",
    ];
    args.extend_from_slice(flags);
    run(Command::new(env!("CARGO_BIN_EXE_fers-match")).args(args))
}

/// A UCI session: `lines`, then for each `go` the lines up to `bestmove`.
fn session(fers: &Path, lines: &[String]) -> Vec<String> {
    let mut child = Command::new(fers)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start fers");
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    writeln!(stdin, "isready").unwrap();
    stdin.flush().unwrap();
    let gos = lines.iter().filter(|l| l.starts_with("go")).count();
    let mut out = Vec::new();
    let mut seen = 0;
    let mut ready = false;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        seen += usize::from(line.starts_with("bestmove"));
        ready |= line == "readyok";
        out.push(line);
        if seen == gos && ready {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    out
}

fn setup(book: &Path, variant: &str) -> Vec<String> {
    vec![
        format!("setoption name VariantPath value {}", examples().display()),
        format!("setoption name UCI_Variant value {variant}"),
        format!("setoption name BookFile value {}", book.display()),
        "setoption name OwnBook value true".into(),
        "setoption name BookVariety value Best".into(),
    ]
}

#[test]
fn fairy_book_from_match_games() {
    let test = "fairy_book_from_match_games";
    let Some(fers) = require::searching_fers(test) else {
        return;
    };
    let dir = TempDir::new("book-fairy");
    let v = capablanca();
    let pgn = dir.0.join("games.pgn");
    let e = fers.display().to_string();
    // Two node budgets make two different games (colours alternate).
    run(Command::new(env!("CARGO_BIN_EXE_fers-match")).args([
        "-engine",
        &format!("cmd={e}"),
        "name=A",
        "nodes=400",
        "-engine",
        &format!("cmd={e}"),
        "name=B",
        "nodes=700",
        "-variant",
        "capablanca",
        "-variantfile",
        &examples().display().to_string(),
        "-games",
        "4",
        "-maxmoves",
        "30",
        "-noprogress",
        "-pgnout",
        &pgn.display().to_string(),
    ]));
    let book = dir.0.join("capablanca.fbk");
    let text = run(Command::new(env!("CARGO_BIN_EXE_fers-book"))
        .args(["build", "-q", "--max-ply", "12", "--variant-file"])
        .arg(examples())
        .arg("-o")
        .arg(&book)
        .arg(&pgn));
    assert!(text.contains("4 games read, 4 used"), "{text}");

    // Every move of the first 12 plies is in the book.
    let b = FersBook::open(&book).unwrap();
    assert_eq!(b.variant(), "capablanca");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    let games = read_games(&pgn_text);
    assert_eq!(games.len(), 4);
    let first = games[0].replay(v, 12).unwrap();
    for g in &games {
        let r = g.replay(v, 12).unwrap();
        let mut pos = r.start.clone();
        for &m in &r.moves {
            let moves = b.moves(&pos).unwrap();
            assert!(
                moves.iter().any(|(bm, _)| *bm == m),
                "{} missing in {}",
                pos.move_to_uci(m),
                pos.to_fen()
            );
            pos.play(m);
        }
    }

    // The engine plays the heaviest book move along the first game.
    let mut pos = Position::startpos(v);
    let mut played: Vec<String> = Vec::new();
    let mut lines = setup(&book, "capablanca");
    let mut want = Vec::new();
    for &m in first.moves.iter().take(6) {
        let moves = b.moves(&pos).unwrap();
        let heaviest = moves.iter().map(|(_, s)| s.weight).max().unwrap();
        let best = moves.iter().find(|(_, s)| s.weight == heaviest).unwrap();
        want.push(pos.move_to_uci(best.0));
        if played.is_empty() {
            lines.push("position startpos".into());
        } else {
            lines.push(format!("position startpos moves {}", played.join(" ")));
        }
        lines.push("go depth 4".into());
        played.push(pos.move_to_uci(m));
        pos.play(m);
    }
    let out = session(&fers, &lines);
    let notes: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("info string book move "))
        .collect();
    assert_eq!(notes, want, "{out:?}");
    let best: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best, want, "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("info depth")), "{out:?}");

    // Broken books: an error, then a plain search.
    let bytes = std::fs::read(&book).unwrap();
    let truncated = dir.0.join("truncated.fbk");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let corrupt = dir.0.join("corrupt.fbk");
    let mut c = bytes.clone();
    let mid = c.len() * 3 / 4;
    c[mid] ^= 0x55;
    std::fs::write(&corrupt, &c).unwrap();
    let garbage = dir.0.join("garbage.bin");
    std::fs::write(&garbage, b"not a book at all").unwrap();
    let missing = dir.0.join("missing.fbk");
    for (file, why) in [
        (&truncated, "truncated fers book"),
        (&corrupt, "corrupt fers book"),
        (&garbage, "16-byte"),
        (&missing, "cannot read book"),
    ] {
        let mut lines = setup(file, "capablanca");
        lines.push("position startpos".into());
        lines.push("go depth 2".into());
        let out = session(&fers, &lines);
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .collect();
        assert!(
            errors.len() == 2 && errors[0].contains(why),
            "{}: {out:?}",
            file.display()
        );
        assert!(errors[1].contains("no BookFile"), "{out:?}");
        assert!(out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
        assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:?}");
    }
    // A book for another variant: refused on `go`, once; the engine searches.
    let mut lines = setup(&book, "chess");
    lines.extend(["position startpos".into(), "go depth 2".into()]);
    lines.extend(["position startpos".into(), "go depth 2".into()]);
    let out = session(&fers, &lines);
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect();
    assert_eq!(errors.len(), 1, "{out:?}");
    assert!(
        errors[0].contains("for variant 'capablanca', not 'chess'"),
        "{out:?}"
    );
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 2);

    // fers-match openings from the book: random exits of 4 book plies.
    let exits_pgn = dir.0.join("exits.pgn");
    let book_flag = format!("file={}", book.display());
    let exits = exits_pgn.display().to_string();
    let text = capablanca_selfplay(
        &e,
        &[
            "-games",
            "4",
            "-repeat",
            "-maxmoves",
            "10",
            "-openings",
            &book_flag,
            "plies=4",
            "-srand",
            "3",
            "-pgnout",
            &exits,
        ],
    );
    assert_eq!(text.matches("Finished game ").count(), 4, "{text}");
    // The positions 4 book plies from the start.
    // (Or fewer, where the book has no move with a positive weight.)
    let mut level = vec![Position::startpos(v)];
    let mut reach = level.clone();
    for _ in 0..4 {
        level = level
            .iter()
            .flat_map(|p| {
                b.moves(p).unwrap().into_iter().map(|(m, _)| {
                    let mut n = p.clone();
                    n.play(m);
                    n
                })
            })
            .collect();
        reach.extend(level.iter().cloned());
    }
    let reachable: BTreeSet<String> = reach.iter().map(Position::to_fen).collect();
    let exits_text = std::fs::read_to_string(&exits_pgn).unwrap();
    let fens: Vec<&str> = exits_text
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .collect();
    assert_eq!(fens.len(), 4, "{exits_text}");
    for f in fens {
        assert!(reachable.contains(f), "{f} is not a book exit");
    }
}

/// `fers-book openings`: distinct positions exactly `plies` random legal
/// moves from the start, reproducible by seed, read by `fers-match`; a
/// request for more positions than the depth holds is refused.
#[test]
fn random_openings_for_matches() {
    let dir = TempDir::new("openings");
    let file = dir.0.join("openings.fen");
    let openings = |count: &str, plies: &str, seed: &str, out: Option<&Path>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fers-book"));
        cmd.args(["openings", "--variant", "capablanca", "--variant-file"])
            .arg(examples())
            .args(["--count", count, "--plies", plies, "--seed", seed]);
        if let Some(p) = out {
            cmd.arg("--out").arg(p);
        }
        cmd.output().expect("run fers-book")
    };
    let out = openings("50", "2", "5", Some(&file));
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let fens: Vec<&str> = text.lines().collect();
    assert_eq!(fens.len(), 50);
    assert_eq!(
        fens.iter().collect::<BTreeSet<_>>().len(),
        50,
        "not distinct"
    );

    // Every position two plies from the start, and only those.
    let v = capablanca();
    let start = Position::startpos(v);
    let mut reach = BTreeSet::new();
    let mut list = fers_core::MoveList::new();
    start.legal_moves(&mut list);
    for m in list.to_vec() {
        let mut p = start.clone();
        p.play(m);
        let mut replies = fers_core::MoveList::new();
        p.legal_moves(&mut replies);
        for r in replies.to_vec() {
            let mut q = p.clone();
            q.play(r);
            reach.insert(q.to_fen());
        }
    }
    for f in &fens {
        assert!(reach.contains(*f), "{f} is not two plies deep");
    }

    // The same seed gives the same file; another seed other positions.
    let again = openings("50", "2", "5", None);
    assert_eq!(String::from_utf8_lossy(&again.stdout), text);
    let other = openings("50", "2", "6", None);
    assert_ne!(String::from_utf8_lossy(&other.stdout), text);

    // One ply holds 28 positions: 100 distinct ones cannot be drawn.
    let short = openings("100", "1", "1", None);
    assert!(!short.status.success());
    let err = String::from_utf8_lossy(&short.stderr);
    assert!(err.contains("distinct positions"), "{err}");

    // fers-match plays from them.
    let Some(e) = require::searching_fers("random_openings_for_matches") else {
        return;
    };
    let file_flag = format!("file={}", file.display());
    let text = capablanca_selfplay(
        &e.display().to_string(),
        &[
            "-games",
            "2",
            "-repeat",
            "-maxmoves",
            "4",
            "-openings",
            &file_flag,
            "format=fen",
        ],
    );
    assert_eq!(text.matches("Finished game ").count(), 2, "{text}");
}
