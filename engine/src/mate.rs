//! `go mate N`: the exhaustive mate search of the problem solver
//! (`fers_core::solve`), not the selective game search, whose pruning
//! could miss a mate or, under fairy conditions, misjudge one. It either
//! proves the shortest forced mate in at most N moves (reported as
//! `score mate K` with a mating line) or proves that none exists (an
//! `info string`), after which the caller plays a normal search.

use crate::events::{SearchEvent, SearchInfo};
use crate::search::{Reporter, SearchShared, MATE};
use fers_core::solve::{mate_search, MateSearch};
use fers_core::Position;
use std::sync::atomic::Ordering;

/// What the mate search found.
pub enum MateOutcome {
    /// A proven mate: the line from the root (key first), the score on
    /// the search's internal scale, and the nodes.
    Mate {
        pv: Vec<fers_core::Move>,
        score: i32,
        nodes: u64,
    },
    /// Proven: no mate in N; or stopped before the proof.
    None,
}

/// Runs the mate search on `root` for at most `n` moves, stopping when
/// the search is told to stop or its time or node budget (`movetime`,
/// clocks, `nodes`) runs out.
pub fn run(root: &Position, n: u32, shared: &SearchShared, reporter: &Reporter) -> MateOutcome {
    // Mate needs a royal piece on the defender's side.
    if n == 0 || root.royal_square(root.side_to_move().flip()).is_none() {
        return MateOutcome::None;
    }
    let abort = || {
        shared.stop.load(Ordering::Relaxed)
            || shared.budget.is_some_and(|b| shared.elapsed() >= b.hard)
    };
    let mut nodes = 0;
    let n = n.min(fers_core::solve::stipulation::MAX_MOVES);
    let result = mate_search(root, n, &abort, shared.node_limit, &mut nodes);
    shared.nodes[0].store(nodes, Ordering::Relaxed);
    let elapsed = shared.elapsed();
    match result {
        MateSearch::Mate { moves, pv } => {
            let plies = 2 * moves as i32 - 1;
            let ms = elapsed.as_millis() as u64;
            reporter(&SearchEvent::Info(SearchInfo::proved_mate(
                plies,
                pv.clone(),
                nodes,
                ms,
            )));
            MateOutcome::Mate {
                pv,
                score: MATE - plies,
                nodes,
            }
        }
        MateSearch::NoMate => {
            reporter(&SearchEvent::Note(format!(
                "no mate in {n}: proven by exhaustive search ({nodes} nodes)"
            )));
            MateOutcome::None
        }
        MateSearch::Aborted => MateOutcome::None,
    }
}
