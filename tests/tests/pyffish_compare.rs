//! Fairy pieces against Fairy-Stockfish (pyffish, which loads Betza pieces).
//!
//! For every variant of the reference file (`core/tests/data/fsf-variants.ini`,
//! a copy of shared/ref/fsf/variants.ini) and of `tests/data/pyffish-extra.ini`,
//! random playouts collect positions; at each, the legal move set of fers
//! must equal pyffish's, and after each legal move the children's move sets
//! must equal too (a depth-2 divide, which also checks `play`). The FEN
//! fields board, side to move and castling rights are compared for the
//! position itself (as pyffish reads fers' FEN back), after three random
//! moves and after every move that changes the castling rights; the test
//! counts those castling checks and fails if too few happened. The default
//! run takes 16 positions per variant (about 20 s on 2 loaded cores, two
//! pyffish processes); `--ignored` runs 300.
//!
//! Needs python3 with pyffish (`pip install pyffish`): without it the skip
//! rule of `fers_tests::require` applies (a failure under CI, where
//! `.ci/run` installs it; `SKIPPED:` elsewhere).

use fers_core::variant::Variant;
use fers_core::variant_file;
use fers_core::{MoveList, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

struct Oracle {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Oracle {
    fn start(python: &Path, files: &[PathBuf]) -> Option<Oracle> {
        let script = root().join("tests/py/pyffish_oracle.py");
        let mut child = Command::new(python)
            .arg(script)
            .args(files)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let mut output = BufReader::new(child.stdout.take()?);
        let mut line = String::new();
        output.read_line(&mut line).ok()?;
        if line.trim() != "ready" {
            eprintln!("pyffish oracle: {}", line.trim());
            return None;
        }
        Some(Oracle {
            child,
            input,
            output,
        })
    }

    /// Sends a batch of requests, then reads all answers (pipelined).
    fn ask(&mut self, requests: &[String]) -> Vec<String> {
        let mut text = String::new();
        for r in requests {
            text.push_str(r);
            text.push('\n');
        }
        self.input.write_all(text.as_bytes()).expect("oracle stdin");
        self.input.flush().expect("oracle flush");
        requests
            .iter()
            .map(|_| {
                let mut line = String::new();
                self.output.read_line(&mut line).expect("oracle answer");
                line.trim_end().to_string()
            })
            .collect()
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn sorted_moves(pos: &Position) -> String {
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let mut v: Vec<String> = l.iter().map(|m| pos.move_to_uci(m)).collect();
    v.sort();
    v.join(" ")
}

/// Board, side and castling fields (pyffish may print en passant squares
/// and counters differently; the move sets check those rules).
fn fen_core(fen: &str) -> String {
    fen.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// The castling field of a FEN.
fn castling(fen: &str) -> &str {
    fen.split_whitespace().nth(2).unwrap_or("-")
}

#[test]
fn fen_core_keeps_the_castling_rights() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w Kq e3 0 1";
    assert_eq!(fen_core(fen), "r3k2r/8/8/8/8/8/8/R3K2R w Kq");
    assert_ne!(
        fen_core(fen),
        fen_core("r3k2r/8/8/8/8/8/8/R3K2R w KQkq e3 0 1")
    );
    assert_eq!(castling(fen), "Kq");
}

fn variants() -> (Vec<PathBuf>, Vec<&'static Variant>) {
    let files = vec![
        root().join("core/tests/data/fsf-variants.ini"),
        root().join("tests/data/pyffish-extra.ini"),
    ];
    let mut out = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("variant file");
        for s in variant_file::load(&f.display().to_string(), &text, &|_| None) {
            out.push(s.result.unwrap_or_else(|e| panic!("{e}")));
        }
    }
    (files, out)
}

fn compare(test: &str, positions_per_variant: usize, seed: u64) {
    let (files, variants) = variants();
    let Some(python) = fers_tests::require::python_with(test, &["pyffish"], "pyffish") else {
        return;
    };
    // pyffish is the slow side: two oracles on two threads, each taking
    // every other variant with its own seeded generator.
    let counts: Vec<Counts> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|k| {
                let mine: Vec<&'static Variant> =
                    variants.iter().copied().skip(k).step_by(2).collect();
                let (files, python) = (&files, &python);
                s.spawn(move || {
                    check(
                        test,
                        python,
                        files,
                        &mine,
                        positions_per_variant,
                        seed + k as u64,
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let checked: usize = counts.iter().map(|c| c.checked).sum();
    let with_rights: usize = counts.iter().map(|c| c.with_rights).sum();
    let rights_changed: usize = counts.iter().map(|c| c.rights_changed).sum();
    eprintln!(
        "pyffish agrees on {checked} positions and all their children \
         ({with_rights} FENs after a move from a position with castling rights, \
         {rights_changed} of moves that change them)"
    );
    assert_eq!(checked, positions_per_variant * variants.len());
    assert!(
        with_rights >= checked / 4 && rights_changed >= checked / 4,
        "too few castling-rights checks: {with_rights} from positions with rights, \
         {rights_changed} changing them, in {checked} positions"
    );
}

/// What one oracle checked.
struct Counts {
    checked: usize,
    /// FEN comparisons from a position with castling rights, and of moves
    /// that change them: the castling field must really be exercised.
    with_rights: usize,
    rights_changed: usize,
}

fn check(
    test: &str,
    python: &Path,
    files: &[PathBuf],
    variants: &[&'static Variant],
    positions_per_variant: usize,
    seed: u64,
) -> Counts {
    let mut oracle = Oracle::start(python, files)
        .unwrap_or_else(|| panic!("{test}: the pyffish oracle did not start with {python:?}"));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    let mut with_rights = 0;
    let mut rights_changed = 0;
    for &v in variants {
        for _ in 0..positions_per_variant {
            // A random playout from the start.
            let mut pos = Position::startpos(v);
            let plies = rng.gen_range(0..50);
            for _ in 0..plies {
                let mut l = MoveList::new();
                pos.legal_moves(&mut l);
                if l.is_empty() {
                    break;
                }
                pos.play(l.get(rng.gen_range(0..l.len())));
            }
            let fen = pos.to_fen();
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            let moves: Vec<String> = l.iter().map(|m| pos.move_to_uci(m)).collect();
            let children: Vec<Position> = l
                .iter()
                .map(|m| {
                    let mut child = pos.clone();
                    child.play(m);
                    child
                })
                .collect();
            // pyffish takes milliseconds per call: every child's move set
            // (a depth-2 divide), but the FEN after only a few moves: three
            // at random, and every move that changes the castling rights
            // (king and rook moves, captures on a rook's square).
            let rights = castling(&fen).to_string();
            let mut fen_checks: Vec<usize> = (0..moves.len().min(3))
                .map(|_| rng.gen_range(0..moves.len()))
                .collect();
            for (i, child) in children.iter().enumerate() {
                if castling(&child.to_fen()) != rights && !fen_checks.contains(&i) {
                    fen_checks.push(i);
                }
            }
            // FSF's reading of fers' FEN, written back: the same board, side
            // and castling rights.
            let mut reqs = vec![format!("fen\t{}\t{}\t", v.name, fen)];
            reqs.push(format!("moves\t{}\t{}\t", v.name, fen));
            for m in &moves {
                reqs.push(format!("moves\t{}\t{}\t{}", v.name, fen, m));
            }
            for &i in &fen_checks {
                reqs.push(format!("fen\t{}\t{}\t{}", v.name, fen, moves[i]));
            }
            let answers = oracle.ask(&reqs);
            assert_eq!(
                fen_core(&answers[0]),
                fen_core(&fen),
                "{}: pyffish reads {fen} differently",
                v.name
            );
            let answers = &answers[1..];
            assert_eq!(answers[0], sorted_moves(&pos), "{}: moves of {fen}", v.name);
            for (i, child) in children.iter().enumerate() {
                assert_eq!(
                    answers[1 + i],
                    sorted_moves(child),
                    "{}: moves after {} from {fen}",
                    v.name,
                    moves[i]
                );
            }
            for (j, &i) in fen_checks.iter().enumerate() {
                let child = children[i].to_fen();
                assert_eq!(
                    fen_core(&answers[1 + moves.len() + j]),
                    fen_core(&child),
                    "{}: position after {} from {fen}",
                    v.name,
                    moves[i]
                );
                if rights != "-" {
                    with_rights += 1;
                }
                if castling(&child) != rights {
                    rights_changed += 1;
                }
            }
            checked += 1;
        }
    }
    Counts {
        checked,
        with_rights,
        rights_changed,
    }
}

#[test]
fn fairy_pieces_match_pyffish() {
    compare("fairy_pieces_match_pyffish", 16, 11);
}

#[test]
#[ignore]
fn fairy_pieces_match_pyffish_many() {
    compare("fairy_pieces_match_pyffish_many", 300, 12);
}
