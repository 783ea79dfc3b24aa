//! Perft: counting the leaf nodes of the legal move tree, the standard proof
//! of a move generator. The last ply is bulk-counted (the number of legal
//! moves), as Stockfish and Fairy-Stockfish do.

use crate::moves::MoveList;
use crate::position::Position;

/// Leaf nodes at `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for m in list.iter() {
        let mut next = pos.clone();
        next.play(m);
        total += perft(&next, depth - 1);
    }
    total
}

/// Perft per root move, in generation order: `(move text, count)`.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m);
            let n = if depth <= 1 {
                1
            } else {
                perft(&next, depth - 1)
            };
            (pos.move_to_uci(m), n)
        })
        .collect()
}
