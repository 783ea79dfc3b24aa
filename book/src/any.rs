//! Either kind of book, told apart by its content: a fers book starts with
//! `FERSBOOK`; anything else is read as a Polyglot `.bin`.

use crate::fers::{self, FersBook, FersBookError};
use crate::polyglot::{self, BookError};
use fers_core::{Move, Position};
use rand::Rng;
use std::fmt;
use std::io::Read;
use std::path::Path;

/// Why a book could not be opened or used.
#[derive(Debug)]
pub enum AnyBookError {
    Polyglot(BookError),
    Fers(FersBookError),
}

impl fmt::Display for AnyBookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyBookError::Polyglot(e) => write!(f, "{e}"),
            AnyBookError::Fers(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AnyBookError {}

impl From<BookError> for AnyBookError {
    fn from(e: BookError) -> Self {
        AnyBookError::Polyglot(e)
    }
}

impl From<FersBookError> for AnyBookError {
    fn from(e: FersBookError) -> Self {
        AnyBookError::Fers(e)
    }
}

/// How a move is chosen among a position's book moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variety {
    /// The largest weight (the first stored of equal weights).
    Best,
    /// At random, with probability proportional to the weight.
    Weighted,
}

/// An open book of either format.
#[derive(Debug)]
pub enum AnyBook {
    Polyglot(polyglot::Book),
    Fers(FersBook),
}

impl AnyBook {
    /// Opens a book, its format detected from its first bytes.
    pub fn open(path: &Path) -> Result<AnyBook, AnyBookError> {
        let read_err = |error| {
            AnyBookError::Polyglot(BookError::Read {
                file: path.to_path_buf(),
                error,
            })
        };
        let mut first = [0u8; 8];
        let mut f = std::fs::File::open(path).map_err(read_err)?;
        let mut got = 0;
        while got < first.len() {
            match f.read(&mut first[got..]).map_err(read_err)? {
                0 => break,
                n => got += n,
            }
        }
        if fers::is_fers_book(&first[..got]) {
            Ok(AnyBook::Fers(FersBook::open(path)?))
        } else {
            Ok(AnyBook::Polyglot(polyglot::Book::load(path)?))
        }
    }

    /// "Polyglot book, N entries" / "fers book for V, N entries".
    pub fn describe(&self) -> String {
        match self {
            AnyBook::Polyglot(b) => format!("Polyglot book, {} entries", b.len()),
            AnyBook::Fers(b) => format!("fers book for {}, {} entries", b.variant(), b.len()),
        }
    }

    /// Whether the book can serve this position's variant (an error saying
    /// why not).
    pub fn check_variant(&self, pos: &Position) -> Result<(), AnyBookError> {
        match self {
            AnyBook::Polyglot(_) => Ok(polyglot::check_variant(pos.variant())?),
            AnyBook::Fers(b) => Ok(b.check_variant(pos.variant())?),
        }
    }

    /// The legal book moves of a position with their weights, in stored
    /// order.
    pub fn moves(&self, pos: &Position) -> Result<Vec<(Move, u32)>, AnyBookError> {
        match self {
            AnyBook::Polyglot(b) => Ok(b
                .moves(pos)?
                .into_iter()
                .map(|(m, w)| (m, u32::from(w)))
                .collect()),
            AnyBook::Fers(b) => Ok(b
                .moves(pos)?
                .into_iter()
                .map(|(m, b)| (m, b.weight))
                .collect()),
        }
    }

    /// A book move for the position, or `None` when the book has no move
    /// with a positive weight there.
    pub fn pick<R: Rng>(
        &self,
        pos: &Position,
        variety: Variety,
        rng: &mut R,
    ) -> Result<Option<Move>, AnyBookError> {
        Ok(choose(&self.moves(pos)?, variety, rng))
    }
}

/// Chooses among weighted moves (zero weights are never chosen).
pub fn choose<R: Rng>(moves: &[(Move, u32)], variety: Variety, rng: &mut R) -> Option<Move> {
    let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    match variety {
        Variety::Best => {
            let best = moves.iter().map(|&(_, w)| w).max()?;
            moves.iter().find(|&&(_, w)| w == best).map(|&(m, _)| m)
        }
        Variety::Weighted => {
            let mut pick = rng.gen_range(0..total);
            for &(m, w) in moves {
                if pick < u64::from(w) {
                    return Some(m);
                }
                pick -= u64::from(w);
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;
    use rand::SeedableRng;

    #[test]
    fn choose_best_and_weighted() {
        let pos = Position::startpos(variant::chess());
        let m = |s| pos.parse_move(s).unwrap();
        let moves = [
            (m("e2e4"), 1),
            (m("d2d4"), 5),
            (m("c2c4"), 0),
            (m("g1f3"), 5),
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        assert_eq!(choose(&moves, Variety::Best, &mut rng), Some(m("d2d4")));
        let mut seen = std::collections::HashMap::new();
        for _ in 0..1100 {
            let c = choose(&moves, Variety::Weighted, &mut rng).unwrap();
            *seen.entry(c).or_insert(0) += 1;
        }
        assert!(!seen.contains_key(&m("c2c4")));
        // 1 : 5 : 5 of 1100, about 100 : 500 : 500.
        assert!((50..160).contains(&seen[&m("e2e4")]), "{seen:?}");
        assert!((400..600).contains(&seen[&m("d2d4")]), "{seen:?}");
        assert_eq!(choose(&[(m("e2e4"), 0)], Variety::Best, &mut rng), None);
        assert_eq!(choose(&[], Variety::Weighted, &mut rng), None);
    }

    #[test]
    fn format_is_detected() {
        let dir = std::env::temp_dir();
        let pg = dir.join(format!("fers-any-{}.bin", std::process::id()));
        let pos = Position::startpos(variant::chess());
        let e4 = pos.parse_move("e2e4").unwrap();
        let book = polyglot::Book::from_entries(vec![polyglot::Entry {
            key: polyglot::key(&pos).unwrap(),
            mv: polyglot::to_polyglot(&pos, e4),
            weight: 3,
            learn: 0,
        }]);
        std::fs::write(&pg, book.to_bytes()).unwrap();
        let b = AnyBook::open(&pg).unwrap();
        assert!(matches!(b, AnyBook::Polyglot(_)));
        assert_eq!(b.moves(&pos).unwrap(), vec![(e4, 3)]);
        let fb = dir.join(format!("fers-any-{}.fbk", std::process::id()));
        fers::write(
            &fb,
            variant::chess(),
            vec![fers::NewEntry {
                key: pos.key(),
                mv: fers::BookMove {
                    mv: "e2e4".into(),
                    weight: 4,
                    wins: 1,
                    draws: 2,
                    losses: 0,
                },
            }],
        )
        .unwrap();
        let b = AnyBook::open(&fb).unwrap();
        assert!(matches!(b, AnyBook::Fers(_)));
        assert_eq!(b.moves(&pos).unwrap(), vec![(e4, 4)]);
        assert!(b.describe().contains("fers book for chess"));
        // A 10-byte file: neither format.
        std::fs::write(&pg, [1u8; 10]).unwrap();
        let e = AnyBook::open(&pg).unwrap_err();
        assert!(e.to_string().contains("16-byte"), "{e}");
        for p in [pg, fb] {
            let _ = std::fs::remove_file(p);
        }
    }
}
