//! What the search tells the outside world, as data: progress lines and the
//! final move. The search knows no protocol; each front-end (UCI, USI,
//! XBoard) turns these events into its own words (`uci::format_event`,
//! `usi.rs`, `xboard.rs`).

use crate::search::{MATE, MATE_IN_MAX};
use fers_core::{Move, MoveList, Position};
use std::sync::Arc;

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// A forced mate, in plies: positive when the side to move mates,
    /// negative when it is mated; 0 when it is mated already.
    Mate(i32),
}

impl Score {
    /// From the search's internal scale, where mates are `MATE - plies`.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_IN_MAX {
            Score::Mate(MATE - s)
        } else if s <= -MATE_IN_MAX {
            Score::Mate(-(MATE + s))
        } else {
            Score::Cp(s)
        }
    }

    /// Moves (not plies) to mate, signed as UCI and XBoard count them: a
    /// mate in 1 ply is mate in 1 move, being mated in 2 plies is -1.
    pub fn mate_moves(plies: i32) -> i32 {
        if plies >= 0 {
            (plies + 1) / 2
        } else {
            -((-plies) / 2)
        }
    }
}

/// Whether the score is exact or only a bound (aspiration window failed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One progress report: a finished (or failed) iteration of one PV line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based line number under MultiPV.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    pub time_ms: u64,
    /// The principal variation, legal move by move from the root.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// The one line of a proved mate in `plies` (an exhaustive solver's
    /// result: `go mate`, Wormhole's endgame solver), after `ms`.
    pub fn proved_mate(plies: i32, pv: Vec<Move>, nodes: u64, ms: u64) -> SearchInfo {
        SearchInfo {
            depth: plies,
            seldepth: pv.len(),
            multipv: 1,
            score: Score::Mate(plies),
            bound: Bound::Exact,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            hashfull: 0,
            time_ms: ms,
            pv,
        }
    }
}

/// An event of one search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SearchEvent {
    Info(SearchInfo),
    /// The root has no legal move: `score` is mate 0 (checkmated) or 0
    /// (stalemate, in the variants where that is a draw).
    NoLegalMove {
        score: Score,
    },
    /// The search has ended. `best` is `None` when there is no legal move;
    /// `ponder` is a legal reply to `best`.
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
    /// The opening book answered (before any other event of that `go`).
    Book(BookNote),
    /// A remark for the user (`go mate`: no mate exists), written as
    /// `info string` (UCI, USI) or a comment (XBoard).
    Note(String),
}

/// What the opening book did for a `go` (`OwnBook`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BookNote {
    /// The move is played from the book (a `BestMove` with it follows).
    Move(Move),
    /// The book cannot serve this position's variant (or none is loaded):
    /// the search runs as without a book.
    Error(String),
}

/// Receives the events of a search, on the search's thread.
pub type Reporter = Arc<dyn Fn(&SearchEvent) + Send + Sync>;

/// The longest prefix of `pv` that is legal from `root`, move by move. A
/// correct search only makes legal PVs, but GUIs reject the whole line on
/// one bad move, so the search checks before it reports.
pub fn legal_prefix(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    let mut list = MoveList::new();
    for &m in pv {
        list.clear();
        pos.legal_moves(&mut list);
        if !list.contains(m) {
            break;
        }
        out.push(m);
        pos.play(m);
    }
    out
}

/// Formats each move of a (legal) line with the position it is played
/// from: the front-ends pass their own move notation.
pub fn line_text(root: &Position, pv: &[Move], fmt: impl Fn(&Position, Move) -> String) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        words.push(fmt(&pos, m));
        pos.play(m);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    #[test]
    fn scores_from_the_internal_scale() {
        assert_eq!(Score::from_internal(35), Score::Cp(35));
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-2));
        assert_eq!(Score::mate_moves(1), 1);
        assert_eq!(Score::mate_moves(3), 2);
        assert_eq!(Score::mate_moves(-2), -1);
        assert_eq!(Score::mate_moves(-4), -2);
        assert_eq!(Score::mate_moves(0), 0);
    }

    #[test]
    fn legal_prefix_stops_at_the_first_bad_move() {
        let pos = Position::startpos(variant::chess());
        let e4 = pos.parse_move("e2e4").expect("legal");
        let mut next = pos.clone();
        next.play(e4);
        let e5 = next.parse_move("e7e5").expect("legal");
        // e2e4 twice: the second is not legal after e7e5... nor at all.
        let pv = [e4, e5, e4];
        assert_eq!(legal_prefix(&pos, &pv), vec![e4, e5]);
        let text = line_text(&pos, &[e4, e5], |p, m| p.move_to_uci(m));
        assert_eq!(text, "e2e4 e7e5");
    }
}
