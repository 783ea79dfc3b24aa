//! Training data for `fers-nnue` from fers's own games, for any variant
//! (file variants included): games of fers against itself at a fixed node
//! count, the first plies random for variety, optionally with a network
//! (`EvalFile`) so that each network plays the data of the next.
//!
//! Each recorded position is one line `FEN;cp;result`: the search's score
//! in centipawns and the game's result (`1`, `0.5`, `0`), both from
//! White's point of view. The trainer mixes them (`-lambda`). Recorded are
//! the searched positions after the random plies whose side to move is
//! not in check, whose score is not a mate, and whose best move is not a
//! capture (quiet positions, as the static evaluation sees them).

use crate::book_cli::bar;
use fers_core::game::Outcome;
use fers_core::variant::Variant;
use fers_core::{Color, Game, MoveList, Position};
use fers_engine::events::Score;
use fers_engine::nnue::Network;
use fers_engine::{Limits, Reporter, SearchPool};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::Arc;

/// The settings of a data run.
#[derive(Clone, Debug)]
pub struct DataGen {
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Plies played at random at the start of each game.
    pub random_plies: usize,
    /// A game still running after this many plies counts as a draw.
    pub max_plies: usize,
    pub seed: u64,
    pub hash_mb: usize,
    /// The network the games are played with (else the variant's own
    /// evaluation: the embedded network for chess, by hand elsewhere).
    pub net: Option<Arc<Network>>,
}

impl Default for DataGen {
    fn default() -> Self {
        DataGen {
            games: 100,
            nodes: 5000,
            random_plies: 8,
            max_plies: 400,
            seed: 1,
            hash_mb: 16,
            net: None,
        }
    }
}

/// What a data run wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataReport {
    pub games: usize,
    pub positions: usize,
    pub white_wins: usize,
    pub black_wins: usize,
    pub draws: usize,
}

/// Plays `g.games` games of `variant` and writes their positions to
/// `out`; a progress bar on stderr when `progress`.
pub fn selfplay(
    variant: &'static Variant,
    g: &DataGen,
    out: &mut impl Write,
    progress: bool,
) -> Result<DataReport, String> {
    let mut pool = SearchPool::new(g.hash_mb.max(1));
    pool.options.eval_net = g.net.clone();
    let quiet: Reporter = Arc::new(|_| {});
    let mut rng = StdRng::seed_from_u64(g.seed);
    let mut report = DataReport::default();
    let b = progress.then(|| bar(g.games as u64, "games"));
    let mut list = MoveList::new();
    for _ in 0..g.games {
        pool.clear_hash();
        let mut game = Game::new(Position::startpos(variant));
        let mut lines: Vec<(String, i32)> = Vec::new();
        let mut result = 0.5f32;
        while game.moves().len() < g.max_plies {
            if let Some(o) = game.outcome() {
                result = match o {
                    Outcome::Win(Color::White, _) => 1.0,
                    Outcome::Win(_, _) => 0.0,
                    Outcome::Draw(_) => 0.5,
                };
                break;
            }
            let m = if game.moves().len() < g.random_plies {
                game.position().legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                list.get(rng.gen_range(0..list.len()))
            } else {
                let limits = Limits {
                    nodes: Some(g.nodes),
                    ..Limits::default()
                };
                let r = pool.search_sync(&game, limits, quiet.clone());
                let Some(m) = r.best else { break };
                let pos = game.position();
                if let Score::Cp(cp) = Score::from_internal(r.score) {
                    if !pos.in_check() && !pos.is_capture(m) {
                        let white_cp = if pos.side_to_move() == Color::White {
                            cp
                        } else {
                            -cp
                        };
                        lines.push((pos.to_fen(), white_cp));
                    }
                }
                m
            };
            game.play(m);
        }
        let res = if result == 1.0 {
            report.white_wins += 1;
            "1"
        } else if result == 0.0 {
            report.black_wins += 1;
            "0"
        } else {
            report.draws += 1;
            "0.5"
        };
        for (fen, cp) in &lines {
            writeln!(out, "{fen};{cp};{res}").map_err(|e| e.to_string())?;
        }
        report.games += 1;
        report.positions += lines.len();
        if let Some(b) = &b {
            b.inc(1);
            b.set_message(format!(
                "+{} ={} -{}",
                report.white_wins, report.draws, report.black_wins
            ));
        }
    }
    if let Some(b) = b {
        b.finish_and_clear();
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two short games of Capablanca chess (a variant file): every line is
    /// `FEN;cp;result`, the FEN reads back in the variant, the result is
    /// the same on every line of a game and the counts add up.
    #[test]
    fn selfplay_writes_fen_score_result_lines() {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
        let (v, _) = crate::match_cli::resolve_variant("capablanca", Some(&file.into()))
            .expect("example variant");
        let g = DataGen {
            games: 2,
            nodes: 300,
            random_plies: 4,
            max_plies: 40,
            ..DataGen::default()
        };
        let mut out = Vec::new();
        let r = selfplay(v, &g, &mut out, false).expect("plays");
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(r.games, 2);
        assert_eq!(r.white_wins + r.black_wins + r.draws, 2);
        assert_eq!(text.lines().count(), r.positions);
        assert!(r.positions > 10, "{r:?}");
        for line in text.lines() {
            let f: Vec<&str> = line.split(';').collect();
            assert_eq!(f.len(), 3, "{line}");
            Position::from_fen(v, f[0]).expect("the FEN reads back");
            f[1].parse::<i32>().expect("centipawns");
            assert!(["1", "0.5", "0"].contains(&f[2]), "{line}");
        }
        // Same seed, same games.
        let mut again = Vec::new();
        selfplay(v, &g, &mut again, false).expect("plays");
        assert_eq!(String::from_utf8(again).expect("UTF-8"), text);
    }
}
