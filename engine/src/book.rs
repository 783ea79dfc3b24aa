//! The engine's own opening book (`OwnBook`, `BookFile`, `BookDepth`,
//! `BookVariety`): a Polyglot `.bin` (chess) or a fers book (any variant),
//! told apart by the file's content (`fers_book::any`).
//!
//! A book that cannot be read is refused when `BookFile` is set, with the
//! reason; the engine keeps the book it had (none at first) and plays on.
//! A book for another variant than the one being played is only noticed on
//! `go` (GUIs set `BookFile` before or after `UCI_Variant`): the search then
//! runs as without a book, and the reason is reported once per variant.

use crate::events::{BookNote, SearchEvent};
use crate::timeman::Limits;
use fers_book::any::{AnyBook, Variety};
use fers_core::{Color, Game, Move};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::Path;

/// Default `BookDepth`: plies of the game (from its first move) in which
/// the book is asked.
pub const DEFAULT_BOOK_DEPTH: i64 = 100;
/// `BookVariety`'s values, as the option lists them.
pub const VARIETY_BEST: &str = "Best";
pub const VARIETY_WEIGHTED: &str = "Weighted";

/// The book options and the book loaded.
#[derive(Debug)]
pub struct EngineBook {
    pub own_book: bool,
    pub depth: u32,
    pub variety: Variety,
    /// The path of the loaded book and the book.
    book: Option<(String, AnyBook)>,
    /// The variant whose book problem was already reported.
    warned: Option<String>,
    rng: StdRng,
}

impl Default for EngineBook {
    fn default() -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        EngineBook {
            own_book: false,
            depth: DEFAULT_BOOK_DEPTH as u32,
            variety: Variety::Weighted,
            book: None,
            warned: None,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

/// What the book says for a `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Search (no book, not in the book, or too deep in the game).
    Search,
    /// Search, after reporting why the book cannot serve.
    Error(String),
    /// Play this move at once.
    Move(Move),
}

impl EngineBook {
    /// `BookFile`: opens and checks the book. On an error the book loaded
    /// before (if any) stays; an empty path unloads the book.
    pub fn set_file(&mut self, path: &str) -> Result<(), String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            self.book = None;
            return Ok(());
        }
        match AnyBook::open(Path::new(path)) {
            Ok(b) => {
                self.book = Some((path.to_string(), b));
                self.warned = None;
                Ok(())
            }
            Err(e) => Err(match &self.book {
                Some((old, _)) => format!("{e} (the book stays {old})"),
                None => format!("{e} (no book is used)"),
            }),
        }
    }

    /// The path of the book loaded, if any.
    pub fn file(&self) -> Option<&str> {
        self.book.as_ref().map(|(p, _)| p.as_str())
    }

    pub fn set_variety(&mut self, name: &str) {
        self.variety = if name.eq_ignore_ascii_case(VARIETY_BEST) {
            Variety::Best
        } else {
            Variety::Weighted
        };
    }

    /// The book's answer for a search of the game's position with these
    /// limits. Pondering, infinite analysis and `searchmoves` always search.
    pub fn probe(&mut self, game: &Game, limits: &Limits) -> Probe {
        if !self.own_book || limits.ponder || limits.infinite || !limits.searchmoves.is_empty() {
            return Probe::Search;
        }
        let pos = game.position();
        let name = pos.variant().name.clone();
        let Some((_, book)) = &self.book else {
            return self.warn_once(name, "OwnBook is on but no BookFile is loaded".into());
        };
        let ply = (u32::from(pos.fullmove_number()).saturating_sub(1)) * 2
            + u32::from(pos.side_to_move() == Color::Black);
        if ply >= self.depth {
            return Probe::Search;
        }
        match book.pick(pos, self.variety, &mut self.rng) {
            Ok(Some(m)) => Probe::Move(m),
            Ok(None) => Probe::Search,
            Err(e) => self.warn_once(name, e.to_string()),
        }
    }

    fn warn_once(&mut self, variant: String, why: String) -> Probe {
        if self.warned.as_deref() == Some(variant.as_str()) {
            return Probe::Search;
        }
        self.warned = Some(variant);
        Probe::Error(why)
    }
}

/// The events of a `go` the book answers: the note, then the move.
pub fn book_events(m: Move) -> [SearchEvent; 2] {
    [
        SearchEvent::Book(BookNote::Move(m)),
        SearchEvent::BestMove {
            best: Some(m),
            ponder: None,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_book::fers::{self, BookMove, NewEntry};
    use fers_core::{variant, Position};

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("fers-engine-book-{}-{name}", std::process::id()))
    }

    fn write_book(name: &str) -> std::path::PathBuf {
        let v = variant::chess();
        let start = Position::startpos(v);
        let mv = |m: &str, weight| BookMove {
            mv: m.into(),
            weight,
            wins: 0,
            draws: 0,
            losses: 0,
        };
        let p = temp(name);
        fers::write(
            &p,
            v,
            vec![
                NewEntry {
                    key: start.key(),
                    mv: mv("d2d4", 9),
                },
                NewEntry {
                    key: start.key(),
                    mv: mv("e2e4", 1),
                },
            ],
        )
        .unwrap();
        p
    }

    #[test]
    fn probe_follows_the_options() {
        let p = write_book("probe.fbk");
        let mut b = EngineBook::default();
        let game = Game::new(Position::startpos(variant::chess()));
        let limits = Limits::default();
        assert_eq!(b.probe(&game, &limits), Probe::Search, "OwnBook off");
        b.own_book = true;
        assert!(
            matches!(b.probe(&game, &limits), Probe::Error(_)),
            "no file"
        );
        assert_eq!(b.probe(&game, &limits), Probe::Search, "reported once");
        b.set_file(p.to_str().unwrap()).unwrap();
        b.set_variety(VARIETY_BEST);
        let d4 = game.position().parse_move("d2d4").unwrap();
        assert_eq!(b.probe(&game, &limits), Probe::Move(d4));
        let pondering = Limits {
            ponder: true,
            ..Limits::default()
        };
        assert_eq!(b.probe(&game, &pondering), Probe::Search);
        b.depth = 0;
        assert_eq!(b.probe(&game, &limits), Probe::Search, "BookDepth 0");
        b.depth = 10;
        // A bad file keeps the book.
        let e = b.set_file("/nonexistent/book.bin").unwrap_err();
        assert!(e.contains("the book stays"), "{e}");
        assert_eq!(b.probe(&game, &limits), Probe::Move(d4));
        // Another variant: an error once, then plain searches.
        let text = "[nightrider-chess:chess]\npiece.n = nightrider\n";
        let sections = fers_core::variant_file::load("t.ini", text, &|_| None);
        let v = sections[0].result.as_ref().unwrap();
        let other = Game::new(Position::startpos(v));
        match b.probe(&other, &limits) {
            Probe::Error(e) => assert!(e.contains("not 'nightrider-chess'"), "{e}"),
            p => panic!("{p:?}"),
        }
        assert_eq!(b.probe(&other, &limits), Probe::Search);
        let _ = std::fs::remove_file(p);
    }
}
