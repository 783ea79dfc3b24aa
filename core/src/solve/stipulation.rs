//! Stipulations of problem chess: what the solver is asked to prove.
//!
//! `#N` (direct mate: the side to move forces mate in at most N moves),
//! `s#N` (self-mate: the side to move forces the other side to mate it in
//! at most N moves), `h#N` and `h#N.5` (help-mate: both sides cooperate so
//! that White mates; Black starts in `h#N`, White in `h#N.5`, as in
//! Popeye).

use crate::piece::Color;
use std::fmt;
use std::str::FromStr;

/// The goal of a stipulation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Aim {
    /// `#N`
    Direct,
    /// `s#N`
    SelfMate,
    /// `h#N`, `h#N.5`
    Help,
}

/// A stipulation: the aim and its length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stipulation {
    pub aim: Aim,
    /// Full moves (`#3` → 3; `h#2.5` → 2).
    pub moves: u32,
    /// `h#N.5`: one more half-move, White's, at the start.
    pub half: bool,
}

/// The longest stipulation accepted (full moves); beyond it no exhaustive
/// search ends in useful time.
pub const MAX_MOVES: u32 = 30;

/// Why a stipulation was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StipulationError(pub String);

impl fmt::Display for StipulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad stipulation: {}", self.0)
    }
}

impl std::error::Error for StipulationError {}

impl Stipulation {
    /// Plies of a help-mate (`h#2` → 4, `h#2.5` → 5); for the others the
    /// attacker's moves times two, minus one.
    pub fn plies(&self) -> u32 {
        match self.aim {
            Aim::Help => 2 * self.moves + self.half as u32,
            Aim::Direct => 2 * self.moves - 1,
            Aim::SelfMate => 2 * self.moves,
        }
    }

    /// For help-mates, the side that moves first (the mating side is
    /// White): Black in `h#N`, White in `h#N.5`. `None` for the others,
    /// where the side to move of the position attacks.
    pub fn help_starter(&self) -> Option<Color> {
        match self.aim {
            Aim::Help if self.half => Some(Color::White),
            Aim::Help => Some(Color::Black),
            _ => None,
        }
    }
}

impl FromStr for Stipulation {
    type Err = StipulationError;

    fn from_str(text: &str) -> Result<Stipulation, StipulationError> {
        let t = text.trim().to_ascii_lowercase();
        let err = |why: &str| Err(StipulationError(format!("'{}': {why}", text.trim())));
        let (aim, rest) = if let Some(r) = t.strip_prefix("s#") {
            (Aim::SelfMate, r)
        } else if let Some(r) = t.strip_prefix("h#") {
            (Aim::Help, r)
        } else if let Some(r) = t.strip_prefix('#') {
            (Aim::Direct, r)
        } else {
            return err("expected #N, s#N, h#N or h#N.5");
        };
        let (num, half) = match rest.strip_suffix(".5") {
            Some(n) if aim == Aim::Help => (n, true),
            Some(_) => return err("only help-mates have half moves"),
            None => (rest, false),
        };
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
            return err("the length must be a whole number of moves");
        }
        let moves: u32 = match num.parse() {
            Ok(n) => n,
            Err(_) => return err("the length is too large"),
        };
        if moves > MAX_MOVES {
            return err(&format!("at most {MAX_MOVES} moves"));
        }
        if moves == 0 && !(aim == Aim::Help && half) {
            return err("the length must be at least 1");
        }
        Ok(Stipulation { aim, moves, half })
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.aim {
            Aim::Direct => "#",
            Aim::SelfMate => "s#",
            Aim::Help => "h#",
        };
        write!(f, "{prefix}{}", self.moves)?;
        if self.half {
            write!(f, ".5")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for s in ["#2", "s#3", "h#2", "h#2.5", "h#0.5", "#12"] {
            assert_eq!(s.parse::<Stipulation>().unwrap().to_string(), s);
        }
        assert_eq!("H#3".parse::<Stipulation>().unwrap().plies(), 6);
        assert_eq!("h#1.5".parse::<Stipulation>().unwrap().plies(), 3);
        assert_eq!("#2".parse::<Stipulation>().unwrap().plies(), 3);
    }

    #[test]
    fn refuses() {
        for s in [
            "",
            "#",
            "#0",
            "s#2.5",
            "#2.5",
            "x#2",
            "h#-1",
            "#99",
            "h#",
            "#1a",
            "#99999999999",
        ] {
            assert!(s.parse::<Stipulation>().is_err(), "{s}");
        }
    }
}
