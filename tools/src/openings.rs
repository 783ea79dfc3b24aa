//! Opening positions from an EPD or FEN file (one position a line; `#`
//! comments and blank lines skipped) or a PGN file (the position after each
//! game's main line, or after its first `plies` moves), checked against the
//! variant, served in file order or in a seeded random order, starting at
//! any index; or random exits from a Polyglot `.bin` book (orthodox chess:
//! up to `plies` book moves from the start, chosen by weight, seeded).

use crate::san::to_san;
use fers_book::fers::{FersBook, FersBookError};
use fers_book::polyglot::{Book, BookError};
use fers_core::variant::Variant;
use fers_core::{Game, Move, MoveList, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file format (`format=epd|fen`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Board, side, castling, en passant, then operations (`hmvc`, `fmvn`
    /// are read; others are ignored).
    Epd,
    /// A full FEN a line (trailing fields may be omitted).
    Fen,
    /// Games in PGN: `FEN` tags and SAN (or coordinate) moves.
    Pgn,
    /// A Polyglot `.bin` book: random exits of `plies` book moves.
    Polyglot,
    /// A fers book (any variant): random exits of `plies` book moves.
    FersBook,
}

/// The order positions are served in (`order=sequential|random`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

/// A problem with the openings file.
#[derive(Debug)]
pub enum OpeningsError {
    Read {
        file: PathBuf,
        error: std::io::Error,
    },
    Position {
        file: PathBuf,
        line: usize,
        reason: String,
    },
    Empty(PathBuf),
    Book(BookError),
    FersBook(FersBookError),
    /// The book has no move in the start position.
    NoStart(PathBuf),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read { file, error } => {
                write!(f, "cannot read openings file {}: {error}", file.display())
            }
            OpeningsError::Position { file, line, reason } => {
                write!(f, "{}:{line}: {reason}", file.display())
            }
            OpeningsError::Empty(file) => write!(f, "{}: no positions", file.display()),
            OpeningsError::Book(e) => write!(f, "{e}"),
            OpeningsError::FersBook(e) => write!(f, "{e}"),
            OpeningsError::NoStart(file) => write!(
                f,
                "{}: the book has no move in the start position",
                file.display()
            ),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// The FEN of an EPD line: its first four fields, with `hmvc`/`fmvn`
/// operations as the clocks.
pub fn epd_to_fen(line: &str) -> Option<String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 2 {
        return None;
    }
    let (board, side) = (fields[0], fields[1]);
    let castling = fields.get(2).copied().unwrap_or("-");
    let ep = fields.get(3).copied().unwrap_or("-");
    let ops = fields.get(4..).map(|o| o.join(" ")).unwrap_or_default();
    let op = |name: &str| {
        ops.split(';')
            .map(str::trim)
            .find_map(|o| o.strip_prefix(name).map(|v| v.trim().to_string()))
            .filter(|v| v.parse::<u32>().is_ok())
    };
    let hmvc = op("hmvc").unwrap_or_else(|| "0".into());
    let fmvn = op("fmvn").unwrap_or_else(|| "1".into());
    Some(format!("{board} {side} {castling} {ep} {hmvc} {fmvn}"))
}

/// Parses the positions of an openings text for `variant`.
pub fn parse(
    file: &Path,
    text: &str,
    format: Format,
    variant: &'static Variant,
) -> Result<Vec<Position>, OpeningsError> {
    if format == Format::Pgn {
        return parse_pgn(file, text, variant, None);
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |reason: String| OpeningsError::Position {
            file: file.to_path_buf(),
            line: i + 1,
            reason,
        };
        let fen = match format {
            Format::Epd => epd_to_fen(line).ok_or_else(|| err("not an EPD line".into()))?,
            // Polyglot books are read by `load_polyglot`.
            Format::Fen | Format::Pgn | Format::Polyglot | Format::FersBook => line.to_string(),
        };
        let pos = Position::from_fen(variant, &fen).map_err(|e| err(format!("{e}")))?;
        if let Some(o) = Game::new(pos.clone()).outcome() {
            return Err(err(format!("the game is already over: {o}")));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(file.to_path_buf()));
    }
    Ok(out)
}

/// The legal move a SAN token (or a coordinate move) names: check marks,
/// annotations and `e.p.` are ignored, `=` before a promotion is optional.
pub fn find_san(pos: &Position, token: &str) -> Option<Move> {
    let clean = |s: &str| -> String {
        s.replace("e.p.", "")
            .trim_end_matches(['+', '#', '!', '?'])
            .replace('=', "")
            .replace('0', "O")
    };
    let want = clean(token);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let found = list.iter().find(|&m| clean(&to_san(pos, m)) == want);
    found.or_else(|| pos.parse_move(token).ok())
}

/// Removes comments (`{...}`, `;` to the end of the line), variations
/// (`(...)`, nested) and NAGs (`$n`) from movetext.
pub fn strip_movetext(text: &str) -> String {
    let mut out = String::new();
    let (mut depth, mut in_brace, mut in_line) = (0usize, false, false);
    for c in text.chars() {
        match c {
            '\n' => {
                in_line = false;
                out.push(' ');
            }
            _ if in_line => {}
            '}' if in_brace => in_brace = false,
            _ if in_brace => {}
            '{' => in_brace = true,
            ';' => in_line = true,
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

/// The positions after the main line (at most `plies` moves) of every game
/// of a PGN text.
pub fn parse_pgn(
    file: &Path,
    text: &str,
    variant: &'static Variant,
    plies: Option<usize>,
) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for g in crate::pgn_games::read_games(text) {
        let err = |reason: String| OpeningsError::Position {
            file: file.to_path_buf(),
            line: g.line,
            reason,
        };
        let game = g
            .replay_moves(variant, plies.unwrap_or(usize::MAX))
            .map_err(err)?;
        let mut pos = game.start;
        for m in game.moves {
            pos.play(m);
        }
        if let Some(o) = Game::new(pos.clone()).outcome() {
            return Err(err(format!("the game is already over: {o}")));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(file.to_path_buf()));
    }
    Ok(out)
}

/// Reads an openings file.
pub fn load(
    file: &Path,
    format: Format,
    variant: &'static Variant,
    plies: Option<usize>,
) -> Result<Vec<Position>, OpeningsError> {
    let text = std::fs::read_to_string(file).map_err(|error| OpeningsError::Read {
        file: file.to_path_buf(),
        error,
    })?;
    match format {
        Format::Pgn => parse_pgn(file, &text, variant, plies),
        _ => parse(file, &text, format, variant),
    }
}

/// The number of book moves of a Polyglot exit when `plies=` is not given.
pub const DEFAULT_BOOK_PLIES: usize = 8;

/// Reads a Polyglot book for random exits of at most `plies` moves from
/// the variant's start position (orthodox chess only).
pub fn load_polyglot(
    file: &Path,
    variant: &'static Variant,
    plies: usize,
    seed: u64,
) -> Result<OpeningBook, OpeningsError> {
    fers_book::polyglot::check_variant(variant).map_err(OpeningsError::Book)?;
    let book = Book::load(file).map_err(OpeningsError::Book)?;
    let start = Position::startpos(variant);
    if book.moves(&start).map_err(OpeningsError::Book)?.is_empty() {
        return Err(OpeningsError::NoStart(file.to_path_buf()));
    }
    Ok(OpeningBook {
        positions: vec![start],
        order: vec![0],
        next: 0,
        exits: Some(Exits {
            book: ExitBook::Polyglot(book),
            variant,
            plies,
            rng: StdRng::seed_from_u64(seed),
        }),
    })
}

/// Reads a fers book (any variant) for random exits of at most `plies`
/// moves from the variant's start position.
pub fn load_fers_book(
    file: &Path,
    variant: &'static Variant,
    plies: usize,
    seed: u64,
) -> Result<OpeningBook, OpeningsError> {
    let book = FersBook::open(file).map_err(OpeningsError::FersBook)?;
    let start = Position::startpos(variant);
    if book
        .moves(&start)
        .map_err(OpeningsError::FersBook)?
        .is_empty()
    {
        return Err(OpeningsError::NoStart(file.to_path_buf()));
    }
    Ok(OpeningBook {
        positions: vec![start],
        order: vec![0],
        next: 0,
        exits: Some(Exits {
            book: ExitBook::Fers(Arc::new(book)),
            variant,
            plies,
            rng: StdRng::seed_from_u64(seed),
        }),
    })
}

/// Whether a file starts like a fers book.
pub fn is_fers_book(file: &Path) -> bool {
    use std::io::Read;
    let mut first = [0u8; 8];
    std::fs::File::open(file)
        .and_then(|mut f| f.read_exact(&mut first))
        .is_ok()
        && fers_book::fers::is_fers_book(&first)
}

/// The book random exits come from.
#[derive(Clone, Debug)]
enum ExitBook {
    Polyglot(Book),
    Fers(Arc<FersBook>),
}

/// The source of random book exits.
#[derive(Clone, Debug)]
struct Exits {
    book: ExitBook,
    variant: &'static Variant,
    plies: usize,
    rng: StdRng,
}

/// Serves opening positions.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    positions: Vec<Position>,
    order: Vec<usize>,
    next: usize,
    /// A Polyglot book: every position is a new random exit.
    exits: Option<Exits>,
}

impl OpeningBook {
    /// `start` is the 1-based index of the first position (`start=N`).
    pub fn new(positions: Vec<Position>, order: Order, start: usize, seed: u64) -> OpeningBook {
        let mut idx: Vec<usize> = (0..positions.len()).collect();
        if order == Order::Random {
            idx.shuffle(&mut StdRng::seed_from_u64(seed));
        }
        let next = start.saturating_sub(1) % positions.len().max(1);
        OpeningBook {
            positions,
            order: idx,
            next,
            exits: None,
        }
    }

    /// A book of one position (the variant's start, or `-fen`).
    pub fn single(pos: Position) -> OpeningBook {
        OpeningBook::new(vec![pos], Order::Sequential, 1, 0)
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The next position, wrapping around at the end of the file; from a
    /// Polyglot book, a new random exit.
    pub fn next_position(&mut self) -> Position {
        if let Some(x) = &mut self.exits {
            let exit = match &x.book {
                ExitBook::Polyglot(b) => b
                    .random_exit(x.variant, x.plies, &mut x.rng)
                    .map(|e| e.position)
                    .map_err(|e| e.to_string()),
                ExitBook::Fers(b) => b
                    .random_exit(x.variant, x.plies, &mut x.rng)
                    .map_err(|e| e.to_string()),
            };
            return match exit {
                Ok(p) => p,
                // The variant was checked on loading.
                Err(_) => Position::startpos(x.variant),
            };
        }
        let p = self.positions[self.order[self.next]].clone();
        self.next = (self.next + 1) % self.positions.len();
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    #[test]
    fn epd_fields_and_ops() {
        assert_eq!(
            epd_to_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3").unwrap(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/8/K6k w - - hmvc 7; fmvn 40; id \"x\";").unwrap(),
            "8/8/8/8/8/8/8/K6k w - - 7 40"
        );
        assert!(epd_to_fen("justoneword").is_none());
    }

    #[test]
    fn parse_checks_positions() {
        let v = variant::chess();
        let text = "# comment\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n";
        let ps = parse(Path::new("t.epd"), text, Format::Epd, v).unwrap();
        assert_eq!(ps.len(), 2);
        let e = parse(Path::new("t.epd"), "foo w - -\n", Format::Epd, v).unwrap_err();
        assert!(e.to_string().starts_with("t.epd:1: "), "{e}");
        // A mated position is refused.
        let e = parse(
            Path::new("t.fen"),
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n",
            Format::Fen,
            v,
        )
        .unwrap_err();
        assert!(e.to_string().contains("already over"), "{e}");
        assert!(matches!(
            parse(Path::new("e"), "# nothing\n", Format::Fen, v),
            Err(OpeningsError::Empty(_))
        ));
    }

    #[test]
    fn pgn_openings() {
        let v = variant::chess();
        let text = r#"[Event "a"]
[Site "?"]

1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3.Bb5 a6 *

[Event "b"]
[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]
[SetUp "1"]

1. 0-0 O-O-O 2. Ra8+?! ; a comment to the end of the line
Kb7 1-0
"#;
        let ps = parse_pgn(Path::new("o.pgn"), text, v, None).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(
            ps[0].to_fen(),
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
        );
        assert_eq!(ps[1].to_fen(), "R2r3r/1k6/8/8/8/8/8/5RK1 w - - 4 3");
        let ps = parse_pgn(Path::new("o.pgn"), text, v, Some(2)).unwrap();
        assert_eq!(
            ps[0].to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(ps[1].to_fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
        // An illegal move names itself, the position and the game's line.
        let e = parse_pgn(Path::new("o.pgn"), "\n1. e4 e5 2. Ke3 *\n", v, None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("o.pgn:2: 'Ke3' is not a legal move"),
            "{e}"
        );
        // Promotions with or without '=', en passant with its mark.
        let pos = Position::from_fen(v, "4k3/P7/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
        assert_eq!(
            find_san(&pos, "a8Q+").map(|m| pos.move_to_uci(m)),
            Some("a7a8q".into())
        );
        assert_eq!(
            find_san(&pos, "a8=N").map(|m| pos.move_to_uci(m)),
            Some("a7a8n".into())
        );
        assert_eq!(
            find_san(&pos, "exd6e.p.").map(|m| pos.move_to_uci(m)),
            Some("e5d6".into())
        );
        assert_eq!(
            find_san(&pos, "e5d6").map(|m| pos.move_to_uci(m)),
            Some("e5d6".into())
        );
        assert_eq!(find_san(&pos, "Qa8"), None);
    }

    #[test]
    fn orders() {
        let v = variant::chess();
        let fens = [
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/2R1K3 w - - 0 1",
        ];
        let ps: Vec<Position> = fens
            .iter()
            .map(|f| Position::from_fen(v, f).unwrap())
            .collect();
        let mut b = OpeningBook::new(ps.clone(), Order::Sequential, 2, 0);
        let got: Vec<String> = (0..4).map(|_| b.next_position().to_fen()).collect();
        assert_eq!(got, [fens[1], fens[2], fens[0], fens[1]]);
        // Random: a permutation, the same for the same seed.
        let mut r1 = OpeningBook::new(ps.clone(), Order::Random, 1, 42);
        let mut r2 = OpeningBook::new(ps, Order::Random, 1, 42);
        let a: Vec<String> = (0..3).map(|_| r1.next_position().to_fen()).collect();
        let b: Vec<String> = (0..3).map(|_| r2.next_position().to_fen()).collect();
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        let mut want: Vec<String> = fens.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(sorted, want);
    }
    #[test]
    fn polyglot_exits() {
        use fers_book::polyglot::{self, Entry};
        let v = variant::chess();
        let start = Position::startpos(v);
        let mut e4 = start.clone();
        e4.play(start.parse_move("e2e4").unwrap());
        let entry = |p: &Position, mv: &str| {
            let m = p.parse_move(mv).unwrap();
            Entry {
                key: polyglot::key(p).unwrap(),
                mv: polyglot::to_polyglot(p, m),
                weight: 1,
                learn: 0,
            }
        };
        let book = Book::from_entries(vec![
            entry(&start, "e2e4"),
            entry(&e4, "e7e5"),
            entry(&e4, "c7c5"),
        ]);
        let file = std::env::temp_dir().join(format!("fers-openings-{}.bin", std::process::id()));
        std::fs::write(&file, book.to_bytes()).unwrap();
        let mut a = load_polyglot(&file, v, 8, 3).unwrap();
        let mut b = load_polyglot(&file, v, 8, 3).unwrap();
        let mut one = load_polyglot(&file, v, 1, 3).unwrap();
        let _ = std::fs::remove_file(&file);
        let mut seen = Vec::new();
        for _ in 0..20 {
            let p = a.next_position();
            assert_eq!(p.to_fen(), b.next_position().to_fen());
            assert!(p.fullmove_number() == 2, "{}", p.to_fen());
            seen.push(p.to_fen());
            assert_eq!(one.next_position().to_fen(), e4.to_fen());
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 2);
        // Not a book, not chess, no start move.
        let e = load_polyglot(Path::new("/nonexistent.bin"), v, 8, 0).unwrap_err();
        assert!(e.to_string().contains("cannot read book"), "{e}");
        let nostart = Book::from_entries(vec![entry(&e4, "e7e5")]);
        let file =
            std::env::temp_dir().join(format!("fers-openings-ns-{}.bin", std::process::id()));
        std::fs::write(&file, nostart.to_bytes()).unwrap();
        let e = load_polyglot(&file, v, 8, 0).unwrap_err();
        let _ = std::fs::remove_file(&file);
        assert!(matches!(e, OpeningsError::NoStart(_)), "{e}");
    }
}
