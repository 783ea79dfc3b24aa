//! Time management: how long to think on this move.
//!
//! From the clock (`wtime btime winc binc movestogo`) a soft budget (do not
//! start another iteration past it) and a hard budget (abort the search) are
//! derived; `movetime` gives both directly. `Move Overhead` is taken off
//! every budget, and the hard budget never exceeds a fraction of the time
//! left, so that fers never loses on time even at 10s+0.1s.

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

/// Computes the budget for the side to move, or `None` without a time limit.
pub fn budget(limits: &Limits, us: Color, overhead_ms: u64) -> Option<Budget> {
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
    let time = time?;
    let inc = inc.unwrap_or(0);
    // Keep a reserve: the overhead, plus a little for the process itself.
    let left = time.saturating_sub(overhead_ms).max(1);
    let mtg = match limits.movestogo {
        Some(n) if n > 0 => n.min(40) as u64,
        _ => 20,
    };
    let mut soft = left / mtg + inc * 3 / 4;
    let cap = if mtg == 1 { left * 6 / 10 } else { left / 4 };
    let mut hard = (soft * 3).min(cap);
    // Very short clocks: think less than the increment would allow.
    hard = hard.min(left.saturating_sub(10)).max(1);
    soft = soft.min(hard * 2 / 3).max(1);
    Some(Budget {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
        fixed: false,
    })
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
        let b = budget(&l, Color::White, 30).unwrap();
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
                    let b = budget(&l, Color::White, 10).unwrap();
                    assert!(b.soft <= b.hard);
                    assert!(
                        b.hard.as_millis() as u64 <= time.max(1),
                        "time {time} inc {inc}: {b:?}"
                    );
                }
            }
        }
        assert!(budget(&Limits::default(), Color::White, 10).is_none());
        let l = Limits {
            btime: Some(10_000),
            binc: Some(100),
            ..Default::default()
        };
        let b = budget(&l, Color::Black, 10).unwrap();
        assert!(
            b.soft.as_millis() > 200 && b.hard.as_millis() < 4000,
            "{b:?}"
        );
    }
}
