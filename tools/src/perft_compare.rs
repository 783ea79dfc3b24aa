//! Perft against another UCI engine: run the same divide on both sides and,
//! when the totals differ, walk down the first root move whose counts
//! differ until the position whose legal move lists differ, so that the
//! report names the exact move path, its FEN and the moves in question.

use crate::engine::EngineError;
use crate::uci::UciEngine;
use fers_core::{perft, Position};
use std::collections::BTreeMap;
use std::time::Duration;

/// Where fers and the other engine disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Moves from the start position to the position in question.
    pub path: Vec<String>,
    pub fen: String,
    /// Depth of the divide that differs there.
    pub depth: u32,
    /// Legal moves only fers generates, and only the engine.
    pub only_fers: Vec<String>,
    pub only_engine: Vec<String>,
    /// Moves with different counts: (move, fers, engine).
    pub counts: Vec<(String, u64, u64)>,
}

fn as_map(d: &[(String, u64)]) -> BTreeMap<String, u64> {
    d.iter().cloned().collect()
}

/// How two divides differ: moves only in the first, only in the second,
/// and common moves with different counts.
pub type DivideDiff = (Vec<String>, Vec<String>, Vec<(String, u64, u64)>);

/// Compares two divides of the same position.
pub fn diff_divides(ours: &[(String, u64)], theirs: &[(String, u64)]) -> DivideDiff {
    let (a, b) = (as_map(ours), as_map(theirs));
    let only_a = a.keys().filter(|k| !b.contains_key(*k)).cloned().collect();
    let only_b = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    let counts = a
        .iter()
        .filter_map(|(k, &n)| b.get(k).filter(|&&m| m != n).map(|&m| (k.clone(), n, m)))
        .collect();
    (only_a, only_b, counts)
}

/// Walks down from `start` (+ `moves`) at `depth` until the first
/// difference; `None` when both sides agree.
pub fn find_difference(
    engine: &mut UciEngine,
    start: &Position,
    moves: &[String],
    depth: u32,
    timeout: Duration,
) -> Result<Option<Mismatch>, EngineError> {
    let start_fen = start.to_fen();
    let mut path: Vec<String> = moves.to_vec();
    let mut pos = start.clone();
    for m in moves {
        if let Ok(mv) = pos.parse_move(m) {
            pos.play(mv);
        }
    }
    let mut d = depth;
    loop {
        let ours = perft::divide(&pos, d);
        let (theirs, _) = engine.perft(&start_fen, &path, d, timeout)?;
        let (only_fers, only_engine, counts) = diff_divides(&ours, &theirs);
        if !only_fers.is_empty() || !only_engine.is_empty() || d == 1 {
            if only_fers.is_empty() && only_engine.is_empty() && counts.is_empty() {
                return Ok(None);
            }
            return Ok(Some(Mismatch {
                path: path[moves.len()..].to_vec(),
                fen: pos.to_fen(),
                depth: d,
                only_fers,
                only_engine,
                counts,
            }));
        }
        let Some((m, _, _)) = counts.first().cloned() else {
            return Ok(None);
        };
        let Ok(mv) = pos.parse_move(&m) else {
            return Ok(None);
        };
        pos.play(mv);
        path.push(m);
        d -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_differences() {
        let ours = vec![
            ("a".to_string(), 3),
            ("b".to_string(), 4),
            ("c".to_string(), 1),
        ];
        let theirs = vec![
            ("b".to_string(), 5),
            ("a".to_string(), 3),
            ("d".to_string(), 1),
        ];
        let (oa, ob, c) = diff_divides(&ours, &theirs);
        assert_eq!(oa, ["c"]);
        assert_eq!(ob, ["d"]);
        assert_eq!(c, [("b".to_string(), 4, 5)]);
    }
}
