//! fers-match with Polyglot book exits (`-openings format=polyglot`): a
//! book written here, two fers instances at depth 2, two opening pairs.
//! The fers binary (`fers_tests::require::searching_fers`) must search; a
//! missing one fails under CI (`CI` set) and prints `SKIPPED:` elsewhere.

use fers_book::polyglot::{self, Book, Entry};
use fers_core::{variant, Position};
use std::path::PathBuf;
use std::process::Command;

struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let p = std::env::temp_dir().join(format!("fers-match-book-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        Temp(p)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn after(moves: &[&str]) -> Position {
    let mut p = Position::startpos(variant::chess());
    for m in moves {
        let mv = p.parse_move(m).unwrap();
        p.play(mv);
    }
    p
}

/// A book entry for a move (in fers notation) after `line`.
fn entry(line: &[&str], mv: &str, weight: u16) -> Entry {
    let p = after(line);
    let m = p.parse_move(mv).unwrap();
    Entry {
        key: polyglot::key(&p).unwrap(),
        mv: polyglot::to_polyglot(&p, m),
        weight,
        learn: 0,
    }
}

#[test]
fn match_from_polyglot_exits() {
    let test = "match_from_polyglot_exits";
    let Some(engine) = fers_tests::require::searching_fers(test) else {
        return;
    };
    let book = Book::from_entries(vec![
        entry(&[], "e2e4", 1),
        entry(&[], "d2d4", 1),
        entry(&["e2e4"], "c7c5", 1),
        entry(&["e2e4"], "e7e5", 1),
        entry(&["d2d4"], "d7d5", 1),
        entry(&["d2d4"], "g8f6", 1),
        // Beyond plies=2: never reached.
        entry(&["e2e4", "e7e5"], "g1f3", 1),
    ]);
    let bin = Temp::new("book.bin");
    std::fs::write(&bin.0, book.to_bytes()).unwrap();
    let pgn = Temp::new("games.pgn");
    let e = engine.display().to_string();
    let args: Vec<String> = [
        "-engine",
        &format!("cmd={e}"),
        "name=A",
        "-engine",
        &format!("cmd={e}"),
        "name=B",
        "-each",
        "depth=2",
        "-games",
        "4",
        "-repeat",
        "-maxmoves",
        "60",
        "-openings",
        &format!("file={}", bin.0.display()),
        "format=polyglot",
        "plies=2",
        "order=random",
        "-srand",
        "5",
        "-noprogress",
        "-pgnout",
        &pgn.0.display().to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_fers-match"))
        .args(&args)
        .output()
        .expect("run fers-match");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "fers-match failed:\n{text}");
    assert_eq!(text.matches("Finished game ").count(), 4, "{text}");
    let exits: Vec<String> = [
        ["e2e4", "c7c5"],
        ["e2e4", "e7e5"],
        ["d2d4", "d7d5"],
        ["d2d4", "g8f6"],
    ]
    .iter()
    .map(|l| after(l).to_fen())
    .collect();
    let pgn_text = std::fs::read_to_string(&pgn.0).expect("PGN written");
    let mut fens: Vec<&str> = pgn_text
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .collect();
    assert_eq!(fens.len(), 4, "{pgn_text}");
    for f in &fens {
        assert!(exits.iter().any(|x| x == f), "{f} is not a book exit");
    }
    // Each exit is played twice, colours reversed.
    fens.sort();
    assert_eq!(fens[0], fens[1]);
    assert_eq!(fens[2], fens[3]);
    let whites: Vec<&str> = pgn_text
        .lines()
        .filter_map(|l| l.strip_prefix("[White \"")?.strip_suffix("\"]"))
        .collect();
    assert_eq!(
        whites.iter().filter(|w| **w == "A").count(),
        2,
        "{pgn_text}"
    );

    // Other variants and broken books are refused with a message.
    let mut bad = args.clone();
    let i = bad.iter().position(|a| a == "-openings").unwrap();
    bad[i + 1] = "file=/nonexistent/book.bin".into();
    let out = Command::new(env!("CARGO_BIN_EXE_fers-match"))
        .args(&bad)
        .output()
        .expect("run fers-match");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read book"), "{err}");
}
