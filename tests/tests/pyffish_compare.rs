//! Fairy pieces against Fairy-Stockfish (pyffish, which loads Betza pieces).
//!
//! For every variant of the reference file (`core/tests/data/fsf-variants.ini`,
//! a copy of shared/ref/fsf/variants.ini) and of `tests/data/pyffish-extra.ini`,
//! random playouts collect positions; at each, the legal move set of fers
//! must equal pyffish's, and after each legal move the children's move sets
//! and FENs must equal too (a depth-2 divide, which also checks `play`).
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
    let mut v: Vec<String> = l.iter().map(|&m| pos.move_to_uci(m)).collect();
    v.sort();
    v.join(" ")
}

/// Board, side and castling fields (pyffish may print en passant squares
/// and counters differently; the move sets check those rules).
fn fen_core(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
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
    let mut oracle = Oracle::start(&python, &files)
        .unwrap_or_else(|| panic!("{test}: the pyffish oracle did not start with {python:?}"));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for v in variants {
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
                pos.play(l.as_slice()[rng.gen_range(0..l.len())]);
            }
            let fen = pos.to_fen();
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            let moves: Vec<String> = l.iter().map(|&m| pos.move_to_uci(m)).collect();
            // pyffish takes milliseconds per call: every child's move set
            // (a depth-2 divide), but the FEN after only a few moves.
            let fen_checks: Vec<usize> = (0..moves.len().min(3))
                .map(|_| rng.gen_range(0..moves.len()))
                .collect();
            let mut reqs = vec![format!("moves\t{}\t{}\t", v.name, fen)];
            for m in &moves {
                reqs.push(format!("moves\t{}\t{}\t{}", v.name, fen, m));
            }
            for &i in &fen_checks {
                reqs.push(format!("fen\t{}\t{}\t{}", v.name, fen, moves[i]));
            }
            let answers = oracle.ask(&reqs);
            assert_eq!(answers[0], sorted_moves(&pos), "{}: moves of {fen}", v.name);
            let children: Vec<Position> = l
                .iter()
                .map(|&m| {
                    let mut child = pos.clone();
                    child.play(m);
                    child
                })
                .collect();
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
                assert_eq!(
                    fen_core(&answers[1 + moves.len() + j]),
                    fen_core(&children[i].to_fen()),
                    "{}: position after {} from {fen}",
                    v.name,
                    moves[i]
                );
            }
            checked += 1;
        }
    }
    eprintln!("pyffish agrees on {checked} positions and all their children");
}

#[test]
fn fairy_pieces_match_pyffish() {
    compare("fairy_pieces_match_pyffish", 8, 11);
}

#[test]
#[ignore]
fn fairy_pieces_match_pyffish_many() {
    compare("fairy_pieces_match_pyffish_many", 300, 12);
}
