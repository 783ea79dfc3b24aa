//! A census of the search tree, for work on the search: how many nodes of
//! each kind it visits and how often each pruning, extension and re-search
//! fires. Compiled in only with the `stats` feature
//! (`cargo build --release -p fers-engine --features stats`); without it
//! `bump` is empty and the counters do not exist, so the search pays
//! nothing. `bench` prints the census after its totals and before its
//! last line, as shares of the nodes it counted (docs/search.md,
//! seventeenth session, reads one).

/// What the search counts. A node is one call of `search` (at depth > 0)
/// or of `qsearch`; the other entries are events at those nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Stat {
    /// Main-search nodes by type: PV, expected cut, expected all.
    PvNode,
    CutNode,
    AllNode,
    /// Quiescence nodes out of check, by quiescence ply: the first (which
    /// also tries quiet checks), the second and third, the fourth to
    /// sixth, and deeper.
    QsFirst,
    QsPly2To3,
    QsPly4To6,
    QsDeeper,
    /// Quiescence nodes in check (every evasion is tried).
    QsInCheck,
    /// Table cuts before any move, in the main search and in quiescence.
    TtCut,
    QsTtCut,
    /// Quiescence nodes whose static evaluation beat beta.
    StandPat,
    ReverseFutility,
    NullMoveTried,
    NullMoveCut,
    Razor,
    /// ProbCut: captures tried by quiescence, then by the reduced search,
    /// and the nodes it cut.
    ProbCutQs,
    ProbCutSearch,
    ProbCutCut,
    /// Singular extension: searches without the table's move, those that
    /// extended it (by one ply or two), those that extended it by two,
    /// and multi-cuts.
    SingularTried,
    SingularExtended,
    DoubleExtended,
    MultiCut,
    CheckExtension,
    /// Main-search nodes that failed high, and those whose first searched
    /// move did it: their ratio measures the move ordering.
    BetaCut,
    BetaCutFirst,
    /// Re-searches: a reduced move at full depth, a PV move with the full
    /// window, and the root again after an aspiration window failed.
    LmrResearch,
    PvsResearch,
    RootSearch,
}

/// The entries, in the order `bench` prints them.
pub const ALL: [Stat; 28] = [
    Stat::PvNode,
    Stat::CutNode,
    Stat::AllNode,
    Stat::QsFirst,
    Stat::QsPly2To3,
    Stat::QsPly4To6,
    Stat::QsDeeper,
    Stat::QsInCheck,
    Stat::TtCut,
    Stat::QsTtCut,
    Stat::StandPat,
    Stat::ReverseFutility,
    Stat::NullMoveTried,
    Stat::NullMoveCut,
    Stat::Razor,
    Stat::ProbCutQs,
    Stat::ProbCutSearch,
    Stat::ProbCutCut,
    Stat::SingularTried,
    Stat::SingularExtended,
    Stat::DoubleExtended,
    Stat::MultiCut,
    Stat::CheckExtension,
    Stat::BetaCut,
    Stat::BetaCutFirst,
    Stat::LmrResearch,
    Stat::PvsResearch,
    Stat::RootSearch,
];

#[cfg(feature = "stats")]
mod counters {
    use std::sync::atomic::{AtomicU64, Ordering};

    #[allow(clippy::declare_interior_mutable_const)]
    const ZERO: AtomicU64 = AtomicU64::new(0);
    pub static COUNTS: [AtomicU64; super::ALL.len()] = [ZERO; super::ALL.len()];

    pub fn get(i: usize) -> u64 {
        COUNTS[i].load(Ordering::Relaxed)
    }
}

/// Counts one event (nothing without the `stats` feature).
#[inline(always)]
pub fn bump(_s: Stat) {
    #[cfg(feature = "stats")]
    counters::COUNTS[_s as usize].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Whether this build counts.
pub const ENABLED: bool = cfg!(feature = "stats");

/// Sets every counter to zero.
pub fn reset() {
    #[cfg(feature = "stats")]
    for c in counters::COUNTS.iter() {
        c.store(0, std::sync::atomic::Ordering::Relaxed);
    }
}

/// One line per entry: its name, its count and its share of `nodes`.
/// Empty without the `stats` feature.
pub fn report(nodes: u64) -> Vec<String> {
    #[cfg(feature = "stats")]
    {
        ALL.iter()
            .map(|&s| {
                let n = counters::get(s as usize);
                let share = 100.0 * n as f64 / nodes.max(1) as f64;
                format!("stat {:<17} {n:>10} {share:6.2}%", format!("{s:?}"))
            })
            .collect()
    }
    #[cfg(not(feature = "stats"))]
    {
        let _ = nodes;
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entries_are_listed_once_in_their_own_order() {
        for (i, s) in ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
    }

    #[test]
    fn counting_follows_the_feature() {
        reset();
        bump(Stat::PvNode);
        bump(Stat::PvNode);
        let lines = report(4);
        if ENABLED {
            // Searches of other tests may add to the count, hence "at
            // least"; a `bench` among them would reset it, so `.ci/run`
            // runs these tests alone (`--lib stats`).
            assert_eq!(lines.len(), ALL.len());
            let fields: Vec<&str> = lines[0].split_whitespace().collect();
            assert_eq!(fields[..2], ["stat", "PvNode"], "{}", lines[0]);
            assert!(
                fields[2].parse::<u64>().is_ok_and(|n| n >= 2),
                "{}",
                lines[0]
            );
        } else {
            assert!(lines.is_empty());
        }
    }
}
