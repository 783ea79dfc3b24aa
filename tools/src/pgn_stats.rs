//! Figures from the PGN files `fers-match` writes, with the runner's own
//! formulas (`stats`): one engine's games pooled over several runs
//! (`fers-match -pool`), and two engines' runs on the same openings set
//! against each other pair by pair (`fers-match -paired`).
//!
//! A pair is the two games of one `Round` in one file, which `-repeat`
//! plays from one opening with the colours swapped. Pooling by hand, as
//! earlier sessions did, meant adding pentanomial counts from several
//! logs; this reads them from the games themselves.

use crate::pgn_games::{read_games, PgnGame};
use crate::stats::{elo_line, elo_of_score, ptnml_counts_line, ptnml_line, score_line, Wdl};
use std::collections::BTreeMap;
use std::fmt;

/// Why a set of games gives no figure.
#[derive(Debug, Clone, PartialEq)]
pub enum StatsError {
    /// No finished game of the engine in the files.
    NoGames(String),
    /// A round of both runs whose two games start from different positions.
    Openings { round: String },
    /// No round of the first run has a complete pair in the second.
    NoCommonPairs,
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::NoGames(name) => write!(f, "no finished game of '{name}'"),
            StatsError::Openings { round } => write!(
                f,
                "round {round}: the two runs' games start from different positions"
            ),
            StatsError::NoCommonPairs => write!(f, "the two runs share no complete pair"),
        }
    }
}

impl std::error::Error for StatsError {}

/// One engine's finished games: their results, and their pairs by
/// `(file, Round)` with the pair's score (0 to 2) and its openings.
#[derive(Debug, Clone, Default)]
pub struct EngineGames {
    pub name: String,
    pub wdl: Wdl,
    /// The opponents' names, in order of appearance.
    pub opponents: Vec<String>,
    pub pairs: BTreeMap<(usize, String), Pair>,
}

/// The games of one round.
#[derive(Debug, Clone, Default)]
pub struct Pair {
    /// The engine's score in each game (1, 1/2, 0).
    pub scores: Vec<f64>,
    /// The games' starting positions (`FEN` tag; `startpos` without one).
    pub starts: Vec<String>,
}

impl Pair {
    fn complete(&self) -> bool {
        self.scores.len() == 2
    }
}

impl EngineGames {
    /// The games of `name` in `texts` (PGN files' contents, in order);
    /// `name` may list several names with commas, for runs in which one
    /// engine played under different names. Unfinished games (`*`) and
    /// games without it are left out.
    pub fn read(name: &str, texts: &[String]) -> Result<EngineGames, StatsError> {
        let mut e = EngineGames {
            name: name.to_string(),
            ..EngineGames::default()
        };
        for (file, text) in texts.iter().enumerate() {
            for g in read_games(text) {
                e.add(file, &g);
            }
        }
        if e.wdl.games() == 0 {
            return Err(StatsError::NoGames(name.to_string()));
        }
        Ok(e)
    }

    fn add(&mut self, file: usize, g: &PgnGame) {
        let (white, black) = (g.tag("White").unwrap_or(""), g.tag("Black").unwrap_or(""));
        let white_score = match g.tag("Result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => return,
        };
        let is_me = |n: &str| self.name.split(',').any(|m| m == n);
        let (score, opponent) = if is_me(white) {
            (white_score, black)
        } else if is_me(black) {
            (1.0 - white_score, white)
        } else {
            return;
        };
        if score == 1.0 {
            self.wdl.wins += 1;
        } else if score == 0.0 {
            self.wdl.losses += 1;
        } else {
            self.wdl.draws += 1;
        }
        if !self.opponents.iter().any(|o| o == opponent) {
            self.opponents.push(opponent.to_string());
        }
        let round = g.tag("Round").unwrap_or("?").to_string();
        let pair = self.pairs.entry((file, round)).or_default();
        pair.scores.push(score);
        pair.starts
            .push(g.tag("FEN").unwrap_or("startpos").to_string());
    }

    /// Pentanomial counts of the complete pairs (the engine's pair score
    /// 0, 1/2, 1, 3/2, 2).
    pub fn ptnml(&self) -> [u32; 5] {
        let mut p = [0u32; 5];
        for pair in self.pairs.values().filter(|p| p.complete()) {
            let s: f64 = pair.scores.iter().sum();
            p[(s * 2.0).round() as usize] += 1;
        }
        p
    }

    /// The runner's result lines for these games.
    pub fn lines(&self) -> Vec<String> {
        let opponent = match self.opponents.as_slice() {
            [one] => one.clone(),
            _ => "others".to_string(),
        };
        let t = self.ptnml();
        vec![
            score_line(&self.name, &opponent, &self.wdl),
            ptnml_counts_line(&t),
            ptnml_line(&t),
            elo_line(&self.wdl),
        ]
    }
}

/// Two runs compared on their common pairs: the mean of (A's pair score
/// less B's, per game) and its 95% half-width.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedDiff {
    pub pairs: usize,
    pub mean: f64,
    pub half_width: f64,
    /// B's mean score per game over the same pairs.
    pub base: f64,
}

impl PairedDiff {
    /// The difference at B's score level in Elo: (A's Elo, its interval's
    /// half-width), where a score is not 0 or 1.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let at = |s: f64| (s > 0.0 && s < 1.0).then(|| elo_of_score(s));
        let b = at(self.base)?;
        let a = at(self.base + self.mean)? - b;
        let lo = at(self.base + self.mean - self.half_width)? - b;
        let hi = at(self.base + self.mean + self.half_width)? - b;
        Some((a, (hi - lo) / 2.0))
    }

    pub fn line(&self, a: &str, b: &str) -> String {
        let elo = match self.elo() {
            Some((e, w)) => format!(", about {e:+.1} +/- {w:.1} Elo at {b}'s score"),
            None => String::new(),
        };
        format!(
            "{a} against {b}, {} pairs on the same openings: score per game {:+.4} +/- {:.4} (95%){elo}",
            self.pairs, self.mean, self.half_width
        )
    }
}

/// Compares the runs of `a` and `b` round by round (the same file index
/// and `Round`), over the rounds complete in both; the two runs must have
/// started each common round from the same positions.
pub fn paired(a: &EngineGames, b: &EngineGames) -> Result<PairedDiff, StatsError> {
    let mut diffs = Vec::new();
    let mut base = 0.0;
    for (key, pa) in a.pairs.iter().filter(|(_, p)| p.complete()) {
        let Some(pb) = b.pairs.get(key).filter(|p| p.complete()) else {
            continue;
        };
        let mut sa = pa.starts.clone();
        let mut sb = pb.starts.clone();
        sa.sort();
        sb.sort();
        if sa != sb {
            return Err(StatsError::Openings {
                round: key.1.clone(),
            });
        }
        let score = |p: &Pair| p.scores.iter().sum::<f64>() / 2.0;
        diffs.push(score(pa) - score(pb));
        base += score(pb);
    }
    let n = diffs.len();
    if n == 0 {
        return Err(StatsError::NoCommonPairs);
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    Ok(PairedDiff {
        pairs: n,
        mean,
        half_width: 1.96 * (var / n as f64).sqrt(),
        base: base / n as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of `fers-match`'s kind, tags only (the movetext is not read).
    fn game(round: u32, white: &str, black: &str, result: &str, fen: &str) -> String {
        format!(
            "[Event \"fers-match\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[FEN \"{fen}\"]\n\n1. e4 {result}\n\n"
        )
    }

    const F1: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    const F2: &str = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";

    #[test]
    fn pools_results_and_pairs_across_files() {
        // File 1: round 1 won twice (pair 2), round 2 won and drawn (3/2),
        // round 3 unfinished in one game (no pair, one loss counted).
        let f1 = [
            game(1, "a", "x", "1-0", F1),
            game(1, "x", "a", "0-1", F1),
            game(2, "a", "x", "1/2-1/2", F2),
            game(2, "x", "a", "0-1", F2),
            game(3, "a", "x", "0-1", F1),
            game(3, "x", "a", "*", F1),
        ]
        .concat();
        // File 2: round 1 again (another pair: its file differs), lost twice.
        let f2 = [game(1, "a", "y", "0-1", F1), game(1, "y", "a", "1-0", F1)].concat();
        let e = EngineGames::read("a", &[f1, f2]).unwrap();
        assert_eq!(e.wdl, Wdl::new(3, 3, 1));
        assert_eq!(e.ptnml(), [1, 0, 0, 1, 1]);
        assert_eq!(e.opponents, ["x", "y"]);
        let lines = e.lines();
        assert_eq!(lines[0], "Score of a vs others: 3 - 3 - 1  [0.500] 7");
        assert_eq!(lines[1], "...      Ptnml(0-2): [1, 0, 0, 1, 1]");
        assert!(lines[2].starts_with("...      Ptnml Elo: "), "{}", lines[2]);
        assert!(
            lines[3].starts_with("Elo difference: 0.0 +/- "),
            "{}",
            lines[3]
        );
    }

    #[test]
    fn an_engine_without_games_is_an_error() {
        let f = game(1, "a", "x", "1-0", F1);
        assert_eq!(
            EngineGames::read("b", std::slice::from_ref(&f)).unwrap_err(),
            StatsError::NoGames("b".into())
        );
        // One engine under two names.
        let g = game(1, "x", "c", "0-1", F1);
        let e = EngineGames::read("c,a", &[f, g]).unwrap();
        assert_eq!(e.wdl, Wdl::new(2, 0, 0));
        assert_eq!(e.opponents, ["x"]);
    }

    #[test]
    fn paired_difference_over_common_rounds() {
        // A: pairs 2, 1, 1 (per game 1, 0.5, 0.5); B: 1, 1, 0 (0.5, 0.5, 0).
        // Differences 0.5, 0, 0.5: mean 1/3, sample variance 1/12.
        let a = [
            game(1, "a", "x", "1-0", F1),
            game(1, "x", "a", "0-1", F1),
            game(2, "a", "x", "1-0", F2),
            game(2, "x", "a", "1-0", F2),
            game(3, "a", "x", "1/2-1/2", F1),
            game(3, "x", "a", "1/2-1/2", F1),
        ]
        .concat();
        let b = [
            game(1, "b", "x", "1-0", F1),
            game(1, "x", "b", "1-0", F1),
            game(2, "b", "x", "1/2-1/2", F2),
            game(2, "x", "b", "1/2-1/2", F2),
            game(3, "b", "x", "0-1", F1),
            game(3, "x", "b", "1-0", F1),
            // A round A lacks: left out.
            game(4, "b", "x", "1-0", F2),
            game(4, "x", "b", "0-1", F2),
        ]
        .concat();
        let ea = EngineGames::read("a", &[a]).unwrap();
        let eb = EngineGames::read("b", &[b]).unwrap();
        let d = paired(&ea, &eb).unwrap();
        assert_eq!(d.pairs, 3);
        assert!((d.mean - 1.0 / 3.0).abs() < 1e-12);
        let hw = 1.96 * (1.0f64 / 12.0 / 3.0).sqrt();
        assert!((d.half_width - hw).abs() < 1e-12);
        assert!((d.base - 1.0 / 3.0).abs() < 1e-12);
        let (elo, _) = d.elo().unwrap();
        assert!((elo - (elo_of_score(2.0 / 3.0) - elo_of_score(1.0 / 3.0))).abs() < 1e-9);
        assert!(d.line("a", "b").starts_with("a against b, 3 pairs"));
    }

    #[test]
    fn paired_rounds_must_share_their_openings() {
        let a = [game(1, "a", "x", "1-0", F1), game(1, "x", "a", "0-1", F1)].concat();
        let b = [game(1, "b", "x", "1-0", F2), game(1, "x", "b", "0-1", F2)].concat();
        let ea = EngineGames::read("a", &[a]).unwrap();
        let eb = EngineGames::read("b", &[b]).unwrap();
        assert_eq!(
            paired(&ea, &eb).unwrap_err(),
            StatsError::Openings { round: "1".into() }
        );
        let c = [game(2, "b", "x", "1-0", F1), game(2, "x", "b", "0-1", F1)].concat();
        let ec = EngineGames::read("b", &[c]).unwrap();
        assert_eq!(paired(&ea, &ec).unwrap_err(), StatsError::NoCommonPairs);
    }
}
