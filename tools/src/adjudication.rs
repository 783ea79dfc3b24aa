//! Optional adjudication from engine scores, as cutechess-cli's `-resign`
//! and `-draw`, and a move limit (`-maxmoves`).
//!
//! - resign `movecount=N score=S [twosided=true]`: a side whose own score
//!   is at most -S for N consecutive moves loses (with `twosided`, the
//!   opponent must agree with at least +S at the same time);
//! - draw `movenumber=K movecount=N score=S`: from move K on, when both
//!   sides' scores stay within ±S for N consecutive moves each, the game is
//!   drawn;
//! - maxmoves `N`: the game is drawn after N moves by each side.

use crate::engine::Score;
use fers_core::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// The adjudication rules of a tournament.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudicator {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub max_moves: Option<u32>,
}

/// What the adjudicator says after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    Win(Color),
    Draw,
    MoveLimit,
}

/// Adjudication state during one game.
#[derive(Clone, Debug)]
pub struct AdjudicationState {
    rules: Adjudicator,
    resign_count: [u32; 2],
    draw_count: [u32; 2],
    last: [Option<i32>; 2],
}

impl Adjudicator {
    pub fn start(&self) -> AdjudicationState {
        AdjudicationState {
            rules: *self,
            resign_count: [0; 2],
            draw_count: [0; 2],
            last: [None; 2],
        }
    }
}

impl AdjudicationState {
    /// Records `side`'s score for the move it just played; `fullmove` is
    /// the move number after it and `plies` the moves of the game so far.
    pub fn record(
        &mut self,
        side: Color,
        score: Option<Score>,
        fullmove: u32,
        plies: usize,
    ) -> Verdict {
        let i = side.index();
        let o = side.flip().index();
        let cp = score.map(Score::centipawns);
        self.last[i] = cp;
        if let Some(r) = self.rules.resign {
            let losing = cp.is_some_and(|s| s <= -r.score);
            let agreed = !r.two_sided || self.last[o].is_some_and(|s| s >= r.score);
            if losing && agreed {
                self.resign_count[i] += 1;
            } else {
                self.resign_count[i] = 0;
            }
            if self.resign_count[i] >= r.move_count {
                return Verdict::Win(side.flip());
            }
        }
        if let Some(d) = self.rules.draw {
            if fullmove >= d.move_number && cp.is_some_and(|s| s.abs() <= d.score) {
                self.draw_count[i] += 1;
            } else {
                self.draw_count[i] = 0;
            }
            if self.draw_count[i] >= d.move_count && self.draw_count[o] >= d.move_count {
                return Verdict::Draw;
            }
        }
        if let Some(m) = self.rules.max_moves {
            if plies as u64 >= 2 * m as u64 {
                return Verdict::MoveLimit;
            }
        }
        Verdict::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn resign_after_consecutive_bad_scores() {
        let rules = Adjudicator {
            resign: Some(ResignRule {
                move_count: 3,
                score: 500,
                two_sided: false,
            }),
            ..Adjudicator::default()
        };
        let mut s = rules.start();
        let cp = |c| Some(Score::Cp(c));
        assert_eq!(s.record(White, cp(-600), 1, 1), Verdict::Continue);
        assert_eq!(s.record(White, cp(-700), 2, 3), Verdict::Continue);
        // A better score resets the count.
        assert_eq!(s.record(White, cp(-100), 3, 5), Verdict::Continue);
        assert_eq!(s.record(White, cp(-600), 4, 7), Verdict::Continue);
        assert_eq!(s.record(White, cp(-600), 5, 9), Verdict::Continue);
        assert_eq!(
            s.record(White, Some(Score::Mate(-4)), 6, 11),
            Verdict::Win(Black)
        );
    }

    #[test]
    fn two_sided_resign_needs_agreement() {
        let rules = Adjudicator {
            resign: Some(ResignRule {
                move_count: 1,
                score: 300,
                two_sided: true,
            }),
            ..Adjudicator::default()
        };
        let mut s = rules.start();
        assert_eq!(
            s.record(Black, Some(Score::Cp(100)), 1, 1),
            Verdict::Continue
        );
        assert_eq!(
            s.record(White, Some(Score::Cp(-400)), 2, 2),
            Verdict::Continue
        );
        assert_eq!(
            s.record(Black, Some(Score::Cp(400)), 2, 3),
            Verdict::Continue
        );
        assert_eq!(
            s.record(White, Some(Score::Cp(-400)), 3, 4),
            Verdict::Win(Black)
        );
    }

    #[test]
    fn draw_after_movenumber_and_both_sides() {
        let rules = Adjudicator {
            draw: Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 20,
            }),
            ..Adjudicator::default()
        };
        let mut s = rules.start();
        let cp = |c| Some(Score::Cp(c));
        // Before move 10 nothing counts.
        assert_eq!(s.record(White, cp(0), 9, 16), Verdict::Continue);
        assert_eq!(s.record(Black, cp(0), 10, 17), Verdict::Continue);
        assert_eq!(s.record(White, cp(5), 10, 18), Verdict::Continue);
        assert_eq!(s.record(Black, cp(-10), 11, 19), Verdict::Continue);
        assert_eq!(s.record(White, cp(15), 11, 20), Verdict::Draw);
        // No score breaks the run.
        let mut s = rules.start();
        s.record(White, cp(0), 10, 18);
        s.record(Black, cp(0), 11, 19);
        s.record(White, None, 11, 20);
        assert_eq!(s.record(Black, cp(0), 12, 21), Verdict::Continue);
    }

    #[test]
    fn move_limit() {
        let rules = Adjudicator {
            max_moves: Some(2),
            ..Adjudicator::default()
        };
        let mut s = rules.start();
        assert_eq!(s.record(White, None, 1, 1), Verdict::Continue);
        assert_eq!(s.record(Black, None, 2, 2), Verdict::Continue);
        assert_eq!(s.record(White, None, 2, 3), Verdict::Continue);
        assert_eq!(s.record(Black, None, 3, 4), Verdict::MoveLimit);
    }
}
