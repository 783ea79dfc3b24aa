//! Building books from games: every position of a game up to a maximum ply
//! counts the move played there and the game's result for the side that
//! played it. Filters then keep the moves played often enough (minimum
//! games) and scoring well enough (minimum score); the weight of a move is
//! `2 * wins + draws`, as Polyglot's `make-book` computes it.
//!
//! Polyglot books (orthodox chess) are keyed by the Polyglot key and encode
//! moves the Polyglot way; fers books by the variant's own key and SPEC
//! notation. The statistics are gathered in a hash map while building
//! (building is not a lookup); the books written are sorted arrays.

use crate::fers::{self, BookMove, FersBookError, NewEntry};
use crate::polyglot::{self, BookError, Entry};
use fers_core::variant::Variant;
use fers_core::{Color, Move, Position};
use std::collections::HashMap;
use std::path::Path;

/// The result of a game, as PGN states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: the game is not counted.
    Unknown,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub fn from_pgn(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

/// The filters of a build.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filters {
    /// Positions after this many plies of a game are not recorded.
    pub max_ply: usize,
    /// A move must have been played in at least this many games.
    pub min_games: u32,
    /// Score of the side that played the move, in percent (0..=100).
    pub min_score: f64,
}

impl Default for Filters {
    fn default() -> Self {
        Filters {
            max_ply: 20,
            min_games: 1,
            min_score: 0.0,
        }
    }
}

/// Wins, draws and losses of the side that played a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Stats {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Percent scored (0..=100).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        100.0 * (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
    }

    /// `2 * wins + draws`.
    pub fn weight(&self) -> u64 {
        2 * u64::from(self.wins) + u64::from(self.draws)
    }

    fn keep(&self, f: &Filters) -> bool {
        self.games() >= f.min_games && self.score() >= f.min_score
    }
}

/// Which book is being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Fers,
    Polyglot,
}

/// Statistics of (position, move) pairs gathered from games of one variant.
#[derive(Debug)]
pub struct Builder {
    variant: &'static Variant,
    format: Format,
    filters: Filters,
    fers: HashMap<(u64, String), Stats>,
    polyglot: HashMap<(u64, u16), Stats>,
    games: u64,
}

impl Builder {
    /// A builder of a book for `variant`; a Polyglot book only for chess.
    pub fn new(
        variant: &'static Variant,
        format: Format,
        filters: Filters,
    ) -> Result<Builder, BookError> {
        if format == Format::Polyglot {
            polyglot::check_variant(variant)?;
        }
        Ok(Builder {
            variant,
            format,
            filters,
            fers: HashMap::new(),
            polyglot: HashMap::new(),
            games: 0,
        })
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// Games counted so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Distinct (position, move) pairs so far.
    pub fn pairs(&self) -> usize {
        self.fers.len() + self.polyglot.len()
    }

    /// Counts one game: `moves` are legal moves from `start`, a position of
    /// this builder's variant. Games with an unknown result are skipped
    /// (false is returned).
    pub fn add_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        result: GameResult,
    ) -> Result<bool, BookError> {
        if result == GameResult::Unknown {
            return Ok(false);
        }
        let mut pos = start.clone();
        for &m in moves.iter().take(self.filters.max_ply) {
            let mover_won = match (result, pos.side_to_move()) {
                (GameResult::Draw, _) => None,
                (GameResult::WhiteWins, c) => Some(c == Color::White),
                (_, c) => Some(c == Color::Black),
            };
            let stats = match self.format {
                Format::Fers => self
                    .fers
                    .entry((pos.key(), pos.move_to_uci(m)))
                    .or_default(),
                Format::Polyglot => self
                    .polyglot
                    .entry((polyglot::key(&pos)?, polyglot::to_polyglot(&pos, m)))
                    .or_default(),
            };
            match mover_won {
                None => stats.draws += 1,
                Some(true) => stats.wins += 1,
                Some(false) => stats.losses += 1,
            }
            pos.play(m);
        }
        self.games += 1;
        Ok(true)
    }

    /// The fers book's entries that pass the filters (weights saturate at
    /// `u32::MAX`).
    pub fn fers_entries(&self) -> Vec<NewEntry> {
        self.fers
            .iter()
            .filter(|(_, s)| s.keep(&self.filters))
            .map(|((key, mv), s)| NewEntry {
                key: *key,
                mv: BookMove {
                    mv: mv.clone(),
                    weight: s.weight().min(u64::from(u32::MAX)) as u32,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                },
            })
            .collect()
    }

    /// The Polyglot book's entries that pass the filters and have a
    /// positive weight, as Polyglot's `make-book` keeps them. Weights above
    /// 65535 are scaled down (all of a book alike) so that their ratios stay.
    pub fn polyglot_entries(&self) -> Vec<Entry> {
        let kept: Vec<_> = self
            .polyglot
            .iter()
            // Moves that never scored have weight 0: `make-book` drops them.
            .filter(|(_, s)| s.keep(&self.filters) && s.weight() > 0)
            .collect();
        let max = kept.iter().map(|(_, s)| s.weight()).max().unwrap_or(0);
        let scale = |w: u64| {
            if max <= u64::from(u16::MAX) {
                w as u16
            } else {
                (w * u64::from(u16::MAX) / max) as u16
            }
        };
        let mut entries: Vec<Entry> = kept
            .into_iter()
            .map(|((key, mv), s)| Entry {
                key: *key,
                mv: *mv,
                weight: scale(s.weight()),
                learn: 0,
            })
            .collect();
        // By key, then the heaviest move first, as Polyglot writes them.
        entries.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a.mv.cmp(&b.mv))
        });
        entries
    }

    /// Writes the book; the number of entries written.
    pub fn write(&self, file: &Path) -> Result<usize, WriteError> {
        match self.format {
            Format::Fers => {
                let entries = self.fers_entries();
                let n = entries.len();
                fers::write(file, self.variant, entries).map_err(WriteError::Fers)?;
                Ok(n)
            }
            Format::Polyglot => {
                let entries = self.polyglot_entries();
                let n = entries.len();
                let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
                std::fs::write(file, bytes).map_err(|error| WriteError::Io {
                    file: file.display().to_string(),
                    error,
                })?;
                Ok(n)
            }
        }
    }
}

/// A book that could not be written.
#[derive(Debug)]
pub enum WriteError {
    Fers(FersBookError),
    Io { file: String, error: std::io::Error },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Fers(e) => write!(f, "{e}"),
            WriteError::Io { file, error } => write!(f, "cannot write book {file}: {error}"),
        }
    }
}

impl std::error::Error for WriteError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fers::FersBook;
    use fers_core::variant;

    fn line(pos: &Position, moves: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        moves
            .iter()
            .map(|s| {
                let m = p.parse_move(s).unwrap();
                p.play(m);
                m
            })
            .collect()
    }

    #[test]
    fn statistics_filters_and_weights() {
        let v = variant::chess();
        let start = Position::startpos(v);
        let filters = Filters {
            max_ply: 2,
            min_games: 2,
            min_score: 0.0,
        };
        let mut b = Builder::new(v, Format::Fers, filters).unwrap();
        let e4e5 = line(&start, &["e2e4", "e7e5", "g1f3"]);
        let d4 = line(&start, &["d2d4", "d7d5"]);
        b.add_game(&start, &e4e5, GameResult::WhiteWins).unwrap();
        b.add_game(&start, &e4e5, GameResult::Draw).unwrap();
        b.add_game(&start, &d4, GameResult::BlackWins).unwrap();
        assert!(!b.add_game(&start, &d4, GameResult::Unknown).unwrap());
        assert_eq!(b.games(), 3);
        let mut entries = b.fers_entries();
        entries.sort_by(|a, b| a.mv.mv.cmp(&b.mv.mv));
        // d2d4 (one game) is filtered out; g1f3 is beyond max_ply.
        let got: Vec<_> = entries
            .iter()
            .map(|e| {
                (
                    e.mv.mv.as_str(),
                    e.mv.wins,
                    e.mv.draws,
                    e.mv.losses,
                    e.mv.weight,
                )
            })
            .collect();
        assert_eq!(got, vec![("e2e4", 1, 1, 0, 3), ("e7e5", 0, 1, 1, 1)]);

        let strict = Filters {
            min_score: 60.0,
            ..filters
        };
        let mut b2 = Builder::new(v, Format::Fers, strict).unwrap();
        b2.add_game(&start, &e4e5, GameResult::WhiteWins).unwrap();
        b2.add_game(&start, &e4e5, GameResult::Draw).unwrap();
        let kept: Vec<_> = b2.fers_entries().into_iter().map(|e| e.mv.mv).collect();
        assert_eq!(kept, vec!["e2e4".to_string()]);

        let file = std::env::temp_dir().join(format!("fers-build-{}.fbk", std::process::id()));
        assert_eq!(b.write(&file).unwrap(), 2);
        let book = FersBook::open(&file).unwrap();
        let moves = book.moves(&start).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].1.mv, "e2e4");
        let _ = std::fs::remove_file(file);
    }

    #[test]
    fn polyglot_only_for_chess() {
        let text = "[nightrider-chess:chess]\npiece.n = nightrider\n";
        let sections = fers_core::variant_file::load("t.ini", text, &|_| None);
        let v = sections[0].result.as_ref().unwrap();
        assert!(Builder::new(v, Format::Polyglot, Filters::default()).is_err());
        assert!(Builder::new(v, Format::Fers, Filters::default()).is_ok());
        let c = variant::chess();
        let start = Position::startpos(c);
        let mut b = Builder::new(c, Format::Polyglot, Filters::default()).unwrap();
        let castle = line(
            &start,
            &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"],
        );
        b.add_game(&start, &castle, GameResult::Draw).unwrap();
        let entries = b.polyglot_entries();
        assert_eq!(entries.len(), 7);
        // A lost game's moves (weight 0) are left out, as make-book does.
        let mut won = Builder::new(c, Format::Polyglot, Filters::default()).unwrap();
        won.add_game(&start, &castle, GameResult::WhiteWins)
            .unwrap();
        assert_eq!(won.polyglot_entries().len(), 4);
        let book = polyglot::Book::from_entries(entries);
        let mut pos = start.clone();
        for &m in &castle {
            assert_eq!(
                book.moves(&pos)
                    .unwrap()
                    .iter()
                    .map(|x| x.0)
                    .collect::<Vec<_>>(),
                vec![m]
            );
            pos.play(m);
        }
    }
}
