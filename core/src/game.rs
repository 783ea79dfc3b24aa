//! A game: the start position, the moves played and the keys seen, so that
//! results that need history (threefold repetition) can be judged. Positions
//! themselves carry no history (they are copied on every move).

use crate::moves::{Move, MoveError, MoveList};
use crate::piece::Color;
use crate::position::Position;
use crate::variant::StalemateRule;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Termination {
    Checkmate,
    Stalemate,
    /// The move-count rule (50 moves in chess).
    MoveRule,
    Repetition,
    InsufficientMaterial,
}

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Win(Color, Termination),
    Draw(Termination),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(Color::White, t) => write!(f, "1-0 ({t:?})"),
            Outcome::Win(Color::Black, t) => write!(f, "0-1 ({t:?})"),
            Outcome::Draw(t) => write!(f, "1/2-1/2 ({t:?})"),
        }
    }
}

/// A position with the history that led to it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    moves: Vec<Move>,
    /// Keys of every position of the game, the current one last.
    keys: Vec<u64>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        let key = start.key();
        Game {
            current: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn position(&self) -> &Position {
        &self.current
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Keys of the positions since the last irreversible move, oldest first
    /// (what a search needs for repetition detection). Where no move is
    /// irreversible for sure (a Circe rebirth brings a captured unit back,
    /// a Messigny exchange a pawn): every key of the game
    /// (`Capabilities::clock_bounds_repetition`).
    pub fn reversible_keys(&self) -> &[u64] {
        if !self.current.variant().caps.clock_bounds_repetition {
            return &self.keys;
        }
        let n = (self.current.halfmove_clock() as usize + 1).min(self.keys.len());
        &self.keys[self.keys.len() - n..]
    }

    /// Plays a move given as text, if legal.
    pub fn play_str(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.current.parse_move(text)?;
        self.play(m);
        Ok(m)
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        self.current.play(m);
        self.moves.push(m);
        self.keys.push(self.current.key());
    }

    /// How often the current position has occurred (same key, same side).
    pub fn repetitions(&self) -> usize {
        let k = self.current.key();
        self.reversible_keys().iter().filter(|&&x| x == k).count()
    }

    /// The result if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = &self.current;
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            let mover = pos.side_to_move();
            if pos.in_check() {
                return Some(Outcome::Win(mover.flip(), Termination::Checkmate));
            }
            return Some(match pos.variant().stalemate {
                StalemateRule::Draw => Outcome::Draw(Termination::Stalemate),
                StalemateRule::Loss => Outcome::Win(mover.flip(), Termination::Stalemate),
                StalemateRule::Win => Outcome::Win(mover, Termination::Stalemate),
            });
        }
        let rule = pos.variant().move_rule;
        if rule > 0 && pos.halfmove_clock() >= rule {
            return Some(Outcome::Draw(Termination::MoveRule));
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw(Termination::Repetition));
        }
        if pos.insufficient_material() {
            return Some(Outcome::Draw(Termination::InsufficientMaterial));
        }
        None
    }
}
