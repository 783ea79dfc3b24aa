//! Polyglot books against two independent implementations.
//!
//! Games (random legal play from fers-core, sharing their first moves so
//! that weights add up, with castling and double steps favoured) are
//! written as PGN. Debian's `polyglot make-book` turns them into a book;
//! for every position of the games, the moves and weights fers reads from
//! it (through `AnyBook`, the engine's reader) must be those python-chess's
//! `chess.polyglot` reader lists, and the engine with `OwnBook` must play a
//! heaviest one. Then `fers-book build` writes a `.bin` from the same PGN:
//! python-chess must read the same entries from it as from polyglot's book,
//! and `polyglot info-book` must read it.
//!
//! Needs polyglot, python3 with python-chess and the fers binary: without
//! them the test prints `SKIPPED:`, except under CI, where it fails.

use fers_book::any::AnyBook;
use fers_core::{variant, MoveList, Position};
use fers_tests::require;
use fers_tools::san::to_san;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
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

/// Random games as PGN, and every position (FEN) they pass through.
fn games(count: usize, plies: usize, seed: u64) -> (String, Vec<String>) {
    let v = variant::chess();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pgn = String::new();
    let mut fens = Vec::new();
    let mut list = MoveList::new();
    for g in 0..count {
        let mut pos = Position::startpos(v);
        let mut text = String::new();
        for ply in 0..plies {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            fens.push(pos.to_fen());
            let moves = list.to_vec();
            let letter =
                |m: fers_core::Move| v.pieces[pos.piece_at(m.from()).kind() as usize].letter;
            let castle: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| letter(m) == 'k' && m.from().abs_diff(m.to()) == 2)
                .collect();
            let double: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| letter(m) == 'p' && m.from().abs_diff(m.to()) == 16)
                .collect();
            let m = if ply < 6 {
                // Shared openings: one of the first three moves.
                moves[rng.gen_range(0..moves.len().min(3))]
            } else if !castle.is_empty() && rng.gen_bool(0.7) {
                castle[rng.gen_range(0..castle.len())]
            } else if !double.is_empty() && rng.gen_bool(0.3) {
                double[rng.gen_range(0..double.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&to_san(&pos, m));
            text.push(' ');
            pos.play(m);
        }
        fens.push(pos.to_fen());
        let result = ["1-0", "0-1", "1/2-1/2"][rng.gen_range(0..3)];
        pgn.push_str(&format!(
            "[Event \"t\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"{}\"]\n\
             [White \"a\"]\n[Black \"b\"]\n[Result \"{result}\"]\n\n{text}{result}\n\n",
            g + 1
        ));
    }
    fens.sort();
    fens.dedup();
    (pgn, fens)
}

type Listing = BTreeMap<String, Vec<(String, u32)>>;

/// python-chess's entries (move, weight) for each FEN, sorted.
fn python_listing(python: &Path, book: &Path, fens: &[String]) -> Listing {
    let script = "import sys, chess, chess.polyglot\n\
                  r = chess.polyglot.open_reader(sys.argv[1])\n\
                  for line in sys.stdin:\n    \
                      fen = line.strip()\n    \
                      b = chess.Board(fen)\n    \
                      ms = sorted('%s:%d' % (e.move.uci(), e.weight) for e in r.find_all(b))\n    \
                      print(fen + '|' + ' '.join(ms))\n";
    let mut child = Command::new(python)
        .args(["-c", script])
        .arg(book)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python3");
    {
        let mut stdin = child.stdin.take().unwrap();
        for f in fens {
            writeln!(stdin, "{f}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess failed");
    let mut map = Listing::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let (fen, moves) = line.split_once('|').unwrap();
        let list = moves
            .split_whitespace()
            .map(|mw| {
                let (m, w) = mw.split_once(':').unwrap();
                (m.to_string(), w.parse().unwrap())
            })
            .collect();
        map.insert(fen.to_string(), list);
    }
    map
}

/// fers's entries, read as the engine reads a `BookFile`.
fn fers_listing(book: &Path, fens: &[String]) -> Listing {
    let b = AnyBook::open(book).unwrap_or_else(|e| panic!("{e}"));
    fens.iter()
        .map(|f| {
            let pos = Position::from_fen(variant::chess(), f).unwrap();
            let mut list: Vec<(String, u32)> = b
                .moves(&pos)
                .unwrap()
                .into_iter()
                .map(|(m, w)| (pos.move_to_uci(m), w))
                .collect();
            list.sort();
            (f.clone(), list)
        })
        .collect()
}

#[test]
fn polyglot_books_read_as_python_chess_reads_them() {
    let test = "polyglot_books_read_as_python_chess_reads_them";
    let Some(polyglot) = require::polyglot(test) else {
        return;
    };
    let Some(python) = require::python_with(test, &["chess"], "chess") else {
        return;
    };
    let dir = TempDir::new("book-polyglot");
    let (pgn, fens) = games(60, 24, 20);
    let pgn_file = dir.0.join("games.pgn");
    std::fs::write(&pgn_file, &pgn).unwrap();
    let theirs = dir.0.join("theirs.bin");
    let out = Command::new(&polyglot)
        .args(["make-book", "-pgn"])
        .arg(&pgn_file)
        .arg("-bin")
        .arg(&theirs)
        .args(["-min-game", "1"])
        .current_dir(&dir.0)
        .output()
        .expect("run polyglot");
    assert!(
        out.status.success() && theirs.is_file(),
        "polyglot make-book failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let py = python_listing(&python, &theirs, &fens);
    let fe = fers_listing(&theirs, &fens);
    assert_eq!(py.len(), fens.len());
    let in_book = py.values().filter(|l| !l.is_empty()).count();
    let castles = py
        .values()
        .flatten()
        .filter(|(m, _)| m == "e1g1" || m == "e1c1" || m == "e8g8" || m == "e8c8")
        .count();
    eprintln!(
        "{} positions, {in_book} in the book, {castles} castling entries",
        fens.len()
    );
    assert!(in_book > 200, "only {in_book} positions are in the book");
    assert!(castles > 0, "no castling move in the book");
    for f in &fens {
        assert_eq!(fe[f], py[f], "book moves differ in {f}");
    }

    // The engine plays a heaviest move of the start position.
    if let Some(fers) = require::searching_fers(test) {
        let start = Position::startpos(variant::chess()).to_fen();
        let best = py[&start].iter().map(|&(_, w)| w).max().unwrap();
        let heaviest: Vec<&str> = py[&start]
            .iter()
            .filter(|&&(_, w)| w == best)
            .map(|(m, _)| m.as_str())
            .collect();
        let input = format!(
            "setoption name BookFile value {}\nsetoption name OwnBook value true\n\
             setoption name BookVariety value Best\nposition startpos\ngo depth 3\n",
            theirs.display()
        );
        let lines = uci_session(&fers, &input);
        let note = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string book move "))
            .unwrap_or_else(|| panic!("no book move: {lines:?}"));
        eprintln!("engine book move {note}, heaviest {heaviest:?}");
        assert!(
            heaviest.contains(&note),
            "{note} is not one of {heaviest:?}"
        );
        assert!(lines.contains(&format!("bestmove {note}")), "{lines:?}");
    }

    // fers-book's own .bin, read by python-chess and by polyglot.
    let ours = dir.0.join("ours.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_fers-book"))
        .args(["build", "-q", "--max-ply", "1000", "-o"])
        .arg(&ours)
        .arg(&pgn_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "fers-book build failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let py_ours = python_listing(&python, &ours, &fens);
    for f in &fens {
        assert_eq!(
            py_ours[f], py[f],
            "fers-book's .bin differs from make-book's in {f}"
        );
    }
    let out = Command::new(&polyglot)
        .args(["info-book", "-bin"])
        .arg(&ours)
        .current_dir(&dir.0)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("Lines for white"),
        "polyglot info-book cannot read fers-book's .bin: {text}"
    );
}

/// Runs the engine on `input` (then `quit` once `bestmove` came).
pub fn uci_session(fers: &Path, input: &str) -> Vec<String> {
    let mut child = Command::new(fers)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start fers");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = Vec::new();
    use std::io::BufRead;
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    lines
}
