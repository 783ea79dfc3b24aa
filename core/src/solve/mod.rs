//! The problem solver: direct mates, self-mates and help-mates under any
//! variant and conditions, by exhaustive full-width search over the rules
//! of [`Position`]. Pure like the rest of the core (no clock, no
//! printing): callers time it and format [`Solution`]s (`fers-solve`,
//! `go mate` in the engine).
//!
//! ```
//! use fers_core::{variant, Position};
//! use fers_core::solve::{solve, Stipulation};
//! let pos = Position::from_fen(variant::chess(), "7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
//! let sol = solve(&pos, "#1".parse::<Stipulation>().unwrap(), &|| false).unwrap();
//! assert_eq!(sol.keys().iter().map(|&m| pos.move_to_uci(m)).collect::<Vec<_>>(), ["a1a8"]);
//! ```

pub mod analysis;
pub mod search;
pub mod stipulation;

pub use analysis::{Candidate, Defence, Line, Solution, Tree};
pub use search::{has_legal_move, Searcher};
pub use stipulation::{Aim, Stipulation, StipulationError};

use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::fmt;

/// Why a problem cannot be solved as given.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SolveError {
    /// A help-mate must start with the side its stipulation names.
    WrongStarter(String),
    /// The side to be mated has no royal piece.
    NoRoyal,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::WrongStarter(s) => write!(f, "{s}"),
            SolveError::NoRoyal => write!(f, "the side to be mated has no royal piece (king)"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Solves `stip` from `root`. Direct mates and self-mates: the side to move
/// attacks; help-mates: the side to move must be the one the stipulation
/// starts with ([`Stipulation::help_starter`]). `abort` is asked now and
/// then; when it says stop, the solution is marked `aborted`.
pub fn solve(
    root: &Position,
    stip: Stipulation,
    abort: &dyn Fn() -> bool,
) -> Result<Solution, SolveError> {
    // Only the side to be mated needs a royal piece (Popeye solves
    // problems without the attacker's king).
    let mated = match stip.aim {
        Aim::Direct => root.side_to_move().flip(),
        Aim::SelfMate => root.side_to_move(),
        Aim::Help => crate::Color::Black,
    };
    if root.royal_square(mated).is_none() {
        return Err(SolveError::NoRoyal);
    }
    if let Some(c) = stip.help_starter() {
        if root.side_to_move() != c {
            return Err(SolveError::WrongStarter(format!(
                "{stip} starts with {c:?} to move, the position has {:?} to move",
                root.side_to_move()
            )));
        }
    }
    let mut s = Searcher::new(abort);
    let mut sol = Solution {
        stipulation: stip,
        candidates: Vec::new(),
        help_lines: Vec::new(),
        aborted: false,
        nodes: 0,
    };
    match stip.aim {
        Aim::Help => {
            let mut prefix = Vec::new();
            s.help(root, stip.plies(), &mut prefix, &mut sol.help_lines);
        }
        _ => sol.candidates = analysis::solve_attack(&mut s, root, stip),
    }
    sol.aborted = s.aborted();
    sol.nodes = s.nodes;
    Ok(sol)
}

/// The answer of a mate search (`go mate N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateSearch {
    /// A forced mate in `moves` (the shortest), and a line of it: the key,
    /// then a longest-resisting defence and a winning reply, and so on.
    Mate { moves: u32, pv: Vec<Move> },
    /// Proven: no mate in at most the given number of moves.
    NoMate,
    /// Stopped before the proof.
    Aborted,
}

/// Searches the shortest forced mate of the side to move in at most
/// `max_moves` moves, giving up (`Aborted`) when `abort` says so or after
/// about `node_limit` nodes; `nodes` receives the positions visited.
pub fn mate_search(
    root: &Position,
    max_moves: u32,
    abort: &dyn Fn() -> bool,
    node_limit: Option<u64>,
    nodes: &mut u64,
) -> MateSearch {
    let mut s = Searcher::new(abort);
    s.node_limit = node_limit;
    let mut found = None;
    for n in 1..=max_moves {
        if s.attack(root, n) {
            found = Some(n);
            break;
        }
        if s.aborted() {
            break;
        }
    }
    let result = match found {
        None if s.aborted() => MateSearch::Aborted,
        None => MateSearch::NoMate,
        Some(n) => {
            let pv = principal_line(&mut s, root, n);
            if s.aborted() {
                MateSearch::Aborted
            } else {
                MateSearch::Mate { moves: n, pv }
            }
        }
    };
    *nodes = s.nodes;
    result
}

/// A line of a proven mate in `n`: at each attacker node a move that wins
/// in the fewest moves, at each defender node the reply that resists
/// longest.
fn principal_line(s: &mut Searcher, root: &Position, n: u32) -> Vec<Move> {
    let mut pv = Vec::new();
    let mut pos = root.clone();
    let mut left = n;
    while left > 0 {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut key = None;
        for m in list.iter() {
            let next = s.child(&pos, m);
            if s.defend(&next, left) {
                key = Some((m, next));
                break;
            }
        }
        let Some((m, next)) = key else { break };
        pv.push(m);
        pos = next;
        if left == 1 {
            break;
        }
        let mut replies = MoveList::new();
        pos.legal_moves(&mut replies);
        // The reply after which the mate takes longest.
        let mut best: Option<(u32, Move, Position)> = None;
        for r in replies.iter() {
            let after = s.child(&pos, r);
            let k = (1..left).find(|&k| s.attack(&after, k)).unwrap_or(left - 1);
            if best.as_ref().is_none_or(|b| k > b.0) {
                best = Some((k, r, after));
            }
        }
        let Some((k, r, after)) = best else { break };
        pv.push(r);
        pos = after;
        left = k;
        if s.aborted() {
            break;
        }
    }
    pv
}
