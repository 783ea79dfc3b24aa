//! Time management: how long to think on this move.
//!
//! From the clock (`wtime btime winc binc movestogo`) an optimum (the soft
//! budget) and a hard budget (abort the search) are derived; `movetime`
//! gives both directly. `Move Overhead` is taken off every budget, and the
//! hard budget never exceeds a fraction of the time left, so that fers never
//! loses on time even at 10s+0.1s. After each iteration `IterationClock`
//! scales the optimum by how settled the search looks (a falling score, a
//! changing best move, or a best move held for many plies) to decide whether
//! to start the next: Stockfish's scheme, except that the scaled optimum
//! never exceeds the optimum itself.

use fers_core::Color;
use std::time::Duration;

/// Search limits of one `go` command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (UCI notation).
    pub searchmoves: Vec<String>,
}

impl Limits {
    /// Does the search run on the clock (soft/hard budgets)?
    pub fn uses_clock(&self) -> bool {
        self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some()
    }
}

/// Budgets for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Abort the search at this point.
    pub hard: Duration,
    /// `movetime`: use the whole budget (no early stop).
    pub fixed: bool,
}

/// Moves the clock is shared over when `movestogo` does not say.
const HORIZON: u64 = 50;

/// Computes the budget for the side to move, or `None` without a time limit.
/// `ply` counts the plies of the game so far: the optimum grows with it, as
/// the clock is spent in the middlegame rather than kept for an endgame most
/// games never reach (Stockfish's scheme, tuned at 10+0.1).
pub fn budget(limits: &Limits, us: Color, overhead_ms: u64, ply: u32) -> Option<Budget> {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead_ms).max(1);
        return Some(Budget {
            soft: Duration::from_millis(t),
            hard: Duration::from_millis(t),
            fixed: true,
        });
    }
    let (time, inc) = match us {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let time = time?.max(1);
    let inc = inc.unwrap_or(0);
    let mtg = match limits.movestogo {
        Some(n) if n > 0 => (n as u64).min(HORIZON),
        _ => HORIZON,
    };
    // The time of the next `mtg` moves, each paying the overhead; the
    // overheads never take more than half the clock (a short clock without
    // increment would otherwise leave nothing).
    let pool = (time + inc * (mtg - 1))
        .saturating_sub(overhead_ms * (2 + mtg))
        .max(time / 2)
        .max(1) as f64;
    let (time_f, ply_f) = (time as f64, ply as f64);
    let (opt_share, max_scale) = if limits.movestogo.is_some_and(|n| n > 0) {
        (
            ((0.88 + ply_f / 116.4) / mtg as f64).min(0.88 * time_f / pool),
            (1.5 + 0.11 * mtg as f64).min(6.3),
        )
    } else {
        // A larger increment affords a little more now.
        let extra = (1.0 + 12.0 * inc as f64 / time_f).clamp(1.0, 1.12);
        (
            (0.012 + (ply_f + 3.0).powf(0.45) * 0.0039).min(0.2 * time_f / pool) * extra,
            (4.0 + ply_f / 12.0).min(7.0),
        )
    };
    let left = time.saturating_sub(overhead_ms).max(1);
    let cap = if mtg == 1 { left * 6 / 10 } else { left / 4 };
    let soft = (opt_share * pool) as u64;
    let hard = ((max_scale * soft as f64) as u64)
        .min(cap)
        .min(left.saturating_sub(10))
        .max(1);
    Some(Budget {
        soft: Duration::from_millis(soft.min(hard).max(1)),
        hard: Duration::from_millis(hard),
        fixed: false,
    })
}

/// What time management carries from one move of a game to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockMemory {
    /// The score the last search ended with, for its side to move.
    pub score: Option<i32>,
    /// The last search's `IterationClock::reduction`.
    pub reduction: f64,
}

impl Default for ClockMemory {
    fn default() -> Self {
        ClockMemory {
            score: None,
            reduction: 1.0,
        }
    }
}

/// The most of the optimum `IterationClock` lets an unsettled search use
/// before it stops starting iterations. Stockfish lets the product of its
/// factors reach 3 and more; at 10+0.1 fers then spent its opening moves'
/// clock on iterations that seldom changed the move, and had little left
/// for the middlegame, where Fairy-Stockfish kept more (docs/search.md:
/// +94.7 paired in Capablanca). The hard budget still bounds every move.
const MAX_SHARE: f64 = 1.0;

/// Decides after each completed iteration whether to start the next: the
/// soft budget, scaled down when the best move has held for many plies and
/// the score holds, kept nearer the whole of it (never past `MAX_SHARE`)
/// when the score falls or the best move keeps changing.
#[derive(Clone, Debug)]
pub struct IterationClock {
    last: ClockMemory,
    /// Scores of the last four iterations (a ring, `idx` the oldest), all
    /// the last search's score at first; without one, the first
    /// iteration's.
    scores: Option<[i32; 4]>,
    idx: usize,
    /// Changes of the best move, halved each iteration.
    changes: f64,
    /// The depth at which the best move last changed.
    change_depth: i32,
    reduction: f64,
}

impl IterationClock {
    pub fn new(last: ClockMemory) -> IterationClock {
        IterationClock {
            last,
            scores: last.score.map(|s| [s; 4]),
            idx: 0,
            changes: 0.0,
            change_depth: 0,
            reduction: last.reduction,
        }
    }

    /// Takes in the iteration of `depth` just completed (its best score,
    /// the new best moves found at the root, whether the best move differs
    /// from the last iteration's) and returns the share of the soft budget
    /// after which no new iteration should start.
    pub fn update(&mut self, depth: i32, score: i32, changes: u32, new_best: bool) -> f64 {
        if new_best {
            self.change_depth = depth;
        }
        self.changes = self.changes / 2.0 + changes as f64;
        let ring = self.scores.get_or_insert([score; 4]);
        let back4 = std::mem::replace(&mut ring[self.idx], score);
        self.idx = (self.idx + 1) % 4;
        // A score falling from the last move's, or from four iterations
        // ago, asks for more time (centipawns).
        let last = self.last.score.unwrap_or(score);
        let drop = 27.0 * (last - score) as f64 + 12.0 * (back4 - score) as f64;
        let falling = ((69.0 + drop) / 620.0).clamp(0.5, 1.5);
        self.reduction = if self.change_depth + 10 < depth {
            1.63
        } else {
            0.73
        };
        let settled = (1.56 + self.last.reduction) / (2.2 * self.reduction);
        let instability = 1.073 + (2.25 - 9.9 / depth as f64).max(1.0) * self.changes;
        (falling * settled * instability).min(MAX_SHARE)
    }

    /// What the next move's clock should know of this search: its latest
    /// iteration's score and reduction.
    pub fn memory(&self) -> ClockMemory {
        ClockMemory {
            score: self.scores.map(|r| r[(self.idx + 3) % 4]),
            reduction: self.reduction,
        }
    }
}

impl Limits {
    /// Parses the arguments of a UCI `go` command (the words after `go`).
    /// Unknown words and bad numbers are skipped; `searchmoves` takes every
    /// following word that is not a `go` keyword.
    pub fn parse_go(words: &[&str]) -> Limits {
        const KEYS: &[&str] = &[
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "movetime",
            "mate",
            "infinite",
            "ponder",
            "searchmoves",
            "perft",
        ];
        let mut l = Limits::default();
        let mut i = 0;
        let num = |i: usize| words.get(i + 1).and_then(|s| s.parse::<i64>().ok());
        while i < words.len() {
            let w = words[i];
            let n = num(i);
            let clamp_u = |x: i64| x.max(0) as u64;
            match w {
                "wtime" => l.wtime = n.map(clamp_u),
                "btime" => l.btime = n.map(clamp_u),
                "winc" => l.winc = n.map(clamp_u),
                "binc" => l.binc = n.map(clamp_u),
                "movestogo" => l.movestogo = n.map(|x| x.clamp(0, 10_000) as u32),
                "depth" => l.depth = n.map(|x| x.clamp(1, 1000) as i32),
                "nodes" => l.nodes = n.map(|x| x.max(1) as u64),
                "movetime" => l.movetime = n.map(clamp_u),
                "mate" => l.mate = n.map(|x| x.clamp(1, 1000) as u32),
                "infinite" => l.infinite = true,
                "ponder" => l.ponder = true,
                "searchmoves" => {
                    while i + 1 < words.len() && !KEYS.contains(&words[i + 1]) {
                        l.searchmoves.push(words[i + 1].to_string());
                        i += 1;
                    }
                }
                _ => {}
            }
            if n.is_some() && w != "searchmoves" && KEYS.contains(&w) {
                i += 1;
            }
            i += 1;
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_minus_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Default::default()
        };
        let b = budget(&l, Color::White, 30, 0).unwrap();
        assert_eq!(b.hard, Duration::from_millis(970));
    }

    #[test]
    fn clock_budgets_are_safe() {
        for time in [1u64, 5, 50, 100, 500, 2000, 10_000, 600_000] {
            for inc in [0u64, 100, 2000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let l = Limits {
                        wtime: Some(time),
                        winc: Some(inc),
                        movestogo: mtg,
                        ..Default::default()
                    };
                    let b = budget(&l, Color::White, 10, 40).unwrap();
                    assert!(b.soft <= b.hard);
                    assert!(
                        b.hard.as_millis() as u64 <= time.max(1),
                        "time {time} inc {inc}: {b:?}"
                    );
                }
            }
        }
        assert!(budget(&Limits::default(), Color::White, 10, 0).is_none());
        let l = Limits {
            btime: Some(10_000),
            binc: Some(100),
            ..Default::default()
        };
        let b = budget(&l, Color::Black, 10, 20).unwrap();
        assert!(
            b.soft.as_millis() > 200 && b.hard.as_millis() < 4000,
            "{b:?}"
        );
    }

    #[test]
    fn the_optimum_is_spent_by_the_middlegame() {
        let at = |time: u64, ply: u32| {
            let l = Limits {
                wtime: Some(time),
                winc: Some(100),
                ..Default::default()
            };
            budget(&l, Color::White, 10, ply).unwrap().soft.as_millis()
        };
        // The same clock buys more later in the game ...
        assert!(at(10_000, 40) > at(10_000, 16));
        // ... and a low clock falls back towards the increment.
        assert!(at(500, 100) < 150, "{}", at(500, 100));
        assert!(at(500, 100) > 50);
        // Without increment the overheads of 50 moves (1.5 s at 30 ms)
        // still leave a second's clock something to think with.
        let l = Limits {
            wtime: Some(1000),
            ..Default::default()
        };
        let b = budget(&l, Color::White, 30, 20).unwrap();
        assert!(b.soft.as_millis() >= 8 && b.hard.as_millis() >= 30, "{b:?}");
    }

    #[test]
    fn iterations_stop_sooner_when_settled() {
        let settled = {
            let mut c = IterationClock::new(ClockMemory::default());
            let mut share = 0.0;
            for depth in 1..=16 {
                share = c.update(depth, 30, 0, depth == 1);
            }
            share
        };
        // The best move changed twice in the last iteration.
        let unstable = {
            let mut c = IterationClock::new(ClockMemory::default());
            let mut share = 0.0;
            for depth in 1..=16 {
                share = c.update(
                    depth,
                    30,
                    if depth == 16 { 2 } else { 0 },
                    depth == 1 || depth == 16,
                );
            }
            share
        };
        // The score fell by 40 centipawns since the last move.
        let falling = {
            let last = ClockMemory {
                score: Some(70),
                reduction: 1.0,
            };
            let mut c = IterationClock::new(last);
            let mut share = 0.0;
            for depth in 1..=16 {
                share = c.update(depth, 30, 0, depth == 1);
            }
            share
        };
        assert!(settled < 0.6, "{settled}");
        assert!(unstable > 2.0 * settled, "{unstable} {settled}");
        assert!(falling > 2.0 * settled, "{falling} {settled}");
        // Neither asks for more than the optimum.
        assert!(unstable <= MAX_SHARE && falling <= MAX_SHARE);
        // The next move learns this one's score and reduction.
        let mut c = IterationClock::new(ClockMemory::default());
        assert_eq!(c.memory(), ClockMemory::default());
        c.update(11, 20, 0, true);
        c.update(12, -15, 0, false);
        assert_eq!(
            c.memory(),
            ClockMemory {
                score: Some(-15),
                reduction: 0.73
            }
        );
    }
}
