//! Polyglot opening books (`.bin`) for orthodox chess.
//!
//! A book is a sequence of 16-byte big-endian entries sorted by key: the
//! position's Polyglot Zobrist key (u64), the move (u16), a weight (u16)
//! and a learn field (u32). A move packs the to-file (bits 0-2), to-row
//! (3-5), from-file (6-8), from-row (9-11) and promotion (12-14: none, n,
//! b, r, q); castling is written as the king taking its own rook (`e1h1`).

use crate::polyglot_random::POLYGLOT_RANDOM;
use fers_core::position::{KING_SIDE, QUEEN_SIDE};
use fers_core::variant::Variant;
use fers_core::{Color, Move, MoveList, Position};
use rand::Rng;
use std::fmt;
use std::path::{Path, PathBuf};

/// Offsets of the key's parts in [`POLYGLOT_RANDOM`].
const CASTLE: usize = 768;
const EN_PASSANT: usize = 772;
const TURN: usize = 780;

/// The size of one book entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// A problem with a Polyglot book or its use.
#[derive(Debug)]
pub enum BookError {
    /// Polyglot books are for 8x8 orthodox chess only.
    Variant(String),
    /// A piece the Polyglot key has no number for.
    Piece(char),
    Read {
        file: PathBuf,
        error: std::io::Error,
    },
    /// The file's length is not a multiple of 16 bytes.
    Truncated {
        file: PathBuf,
        len: usize,
    },
    /// The entries are not sorted by key.
    Unsorted {
        file: PathBuf,
        index: usize,
    },
    Empty(PathBuf),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Variant(v) => write!(
                f,
                "Polyglot books are for orthodox 8x8 chess, not for variant '{v}'"
            ),
            BookError::Piece(c) => write!(f, "piece '{c}' has no Polyglot key"),
            BookError::Read { file, error } => {
                write!(f, "cannot read book {}: {error}", file.display())
            }
            BookError::Truncated { file, len } => write!(
                f,
                "{}: {len} bytes is not a whole number of 16-byte Polyglot entries",
                file.display()
            ),
            BookError::Unsorted { file, index } => write!(
                f,
                "{}: entry {index} is out of key order (not a Polyglot book?)",
                file.display()
            ),
            BookError::Empty(file) => write!(f, "{}: the book has no entries", file.display()),
        }
    }
}

impl std::error::Error for BookError {}

/// Checks that the variant is orthodox chess on 8x8.
pub fn check_variant(v: &Variant) -> Result<(), BookError> {
    let g = v.geometry;
    if v.name != "chess" || g.files != 8 || g.ranks != 8 {
        return Err(BookError::Variant(v.name.clone()));
    }
    Ok(())
}

/// The Polyglot kind (pawn 0 .. king 5) of a FEN letter.
fn kind_index(letter: char) -> Option<usize> {
    "pnbrqk".find(letter.to_ascii_lowercase())
}

/// The Polyglot Zobrist key of an orthodox chess position.
pub fn key(pos: &Position) -> Result<u64, BookError> {
    let v = pos.variant();
    check_variant(v)?;
    let mut k = 0u64;
    for sq in 0..64u8 {
        let p = pos.piece_at(sq);
        if !p.is_piece() {
            continue;
        }
        let letter = v.pieces[p.kind() as usize].letter;
        let kind = kind_index(letter).ok_or(BookError::Piece(letter))?;
        let white = usize::from(p.color() == Color::White);
        k ^= POLYGLOT_RANDOM[64 * (2 * kind + white) + sq as usize];
    }
    for (i, (c, wing)) in [
        (Color::White, KING_SIDE),
        (Color::White, QUEEN_SIDE),
        (Color::Black, KING_SIDE),
        (Color::Black, QUEEN_SIDE),
    ]
    .into_iter()
    .enumerate()
    {
        if pos.castle_rook(c, wing).is_some() {
            k ^= POLYGLOT_RANDOM[CASTLE + i];
        }
    }
    if let Some(ep) = pos.ep_square() {
        // Only when a pawn of the side to move stands beside the pawn that
        // just made the double step (whether the capture is legal or not).
        let side = pos.side_to_move();
        let file = i32::from(ep % 8);
        let row = i32::from(ep / 8) + if side == Color::White { -1 } else { 1 };
        let beside = [file - 1, file + 1].into_iter().any(|f| {
            (0..8).contains(&f) && (0..8).contains(&row) && {
                let p = pos.piece_at((row * 8 + f) as u8);
                p.is_piece()
                    && p.color() == side
                    && kind_index(v.pieces[p.kind() as usize].letter) == Some(0)
            }
        });
        if beside {
            k ^= POLYGLOT_RANDOM[EN_PASSANT + file as usize];
        }
    }
    if pos.side_to_move() == Color::White {
        k ^= POLYGLOT_RANDOM[TURN];
    }
    Ok(k)
}

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    /// The entry's 16 bytes, big-endian.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut b = [0u8; ENTRY_SIZE];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Entry {
        let mut k = [0u8; 8];
        k.copy_from_slice(&b[0..8]);
        let mut l = [0u8; 4];
        l.copy_from_slice(&b[12..16]);
        Entry {
            key: u64::from_be_bytes(k),
            mv: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes(l),
        }
    }
}

/// A move in Polyglot coordinates: squares 0..64 (a1 = 0, h8 = 63) and a
/// promotion letter (`n`, `b`, `r`, `q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawMove {
    pub from: u8,
    pub to: u8,
    pub promotion: Option<char>,
}

/// Unpacks a Polyglot move. `None` for an unknown promotion code.
pub fn decode_move(mv: u16) -> Option<RawMove> {
    let to = (mv & 0x3f) as u8;
    let from = ((mv >> 6) & 0x3f) as u8;
    let promotion = match (mv >> 12) & 7 {
        0 => None,
        1 => Some('n'),
        2 => Some('b'),
        3 => Some('r'),
        4 => Some('q'),
        _ => return None,
    };
    Some(RawMove {
        from,
        to,
        promotion,
    })
}

/// Packs a move the Polyglot way (castling must already be written as the
/// king taking its rook).
pub fn encode_move(from: u8, to: u8, promotion: Option<char>) -> u16 {
    let p = match promotion {
        Some('n') => 1,
        Some('b') => 2,
        Some('r') => 3,
        Some('q') => 4,
        _ => 0,
    };
    (p << 12) | (u16::from(from & 0x3f) << 6) | u16::from(to & 0x3f)
}

/// The Polyglot move of a legal fers move (castling as king takes rook).
pub fn to_polyglot(pos: &Position, m: Move) -> u16 {
    let uci = pos.move_to_uci(m);
    let sq = |s: &str| pos.variant().geometry.parse_square(s).unwrap_or(0);
    let (from, mut to) = (sq(&uci[0..2]), sq(&uci[2..4]));
    let promotion = uci[4..].chars().next();
    if is_king(pos, from) && from % 8 == 4 && (to % 8 == 6 || to % 8 == 2) && from / 8 == to / 8 {
        to = if to % 8 == 6 { from + 3 } else { from - 4 };
    }
    encode_move(from, to, promotion)
}

fn is_king(pos: &Position, sq: u8) -> bool {
    let p = pos.piece_at(sq);
    p.is_piece() && kind_index(pos.variant().pieces[p.kind() as usize].letter) == Some(5)
}

/// The legal fers move a Polyglot move names here, if any: castling
/// (`e1h1`, `e1a1`, `e8h8`, `e8a8` with the king on e1/e8) becomes the
/// king's move to g/c.
pub fn find_move(pos: &Position, mv: u16) -> Option<Move> {
    if pos.variant().geometry.files != 8 || pos.variant().geometry.ranks != 8 {
        return None;
    }
    let raw = decode_move(mv)?;
    let mut to = raw.to;
    if is_king(pos, raw.from) && raw.from % 8 == 4 && raw.from / 8 == raw.to / 8 {
        match raw.to % 8 {
            7 => to = raw.from + 2,
            0 => to = raw.from - 2,
            _ => {}
        }
    }
    let geo = pos.variant().geometry;
    let mut want = geo.square_name(raw.from);
    want.push_str(&geo.square_name(to));
    if let Some(p) = raw.promotion {
        want.push(p);
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().find(|&m| pos.move_to_uci(m) == want)
}

/// A Polyglot book in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads a book from its bytes; `file` names it in errors.
    pub fn from_bytes(file: &Path, bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.chunks_exact(ENTRY_SIZE).remainder().is_empty() {
            return Err(BookError::Truncated {
                file: file.to_path_buf(),
                len: bytes.len(),
            });
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_SIZE)
            .map(Entry::from_bytes)
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(BookError::Unsorted {
                file: file.to_path_buf(),
                index: i + 1,
            });
        }
        if entries.is_empty() {
            return Err(BookError::Empty(file.to_path_buf()));
        }
        Ok(Book { entries })
    }

    /// Reads a `.bin` file.
    pub fn load(file: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(file).map_err(|error| BookError::Read {
            file: file.to_path_buf(),
            error,
        })?;
        Book::from_bytes(file, &bytes)
    }

    /// A book of the given entries (sorted here by key, stable).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| e.key);
        Book { entries }
    }

    /// The book's bytes, as a `.bin` file holds them.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries of a key, in file order.
    pub fn lookup(&self, key: u64) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = self.entries.partition_point(|e| e.key <= key);
        &self.entries[lo..hi]
    }

    /// The book's legal moves in a position with their weights (entries
    /// whose move is not legal here, such as key collisions, are skipped).
    pub fn moves(&self, pos: &Position) -> Result<Vec<(Move, u16)>, BookError> {
        let k = key(pos)?;
        Ok(self
            .lookup(k)
            .iter()
            .filter_map(|e| find_move(pos, e.mv).map(|m| (m, e.weight)))
            .collect())
    }

    /// A random exit: from the variant's start position, book moves chosen
    /// with probability proportional to their weight, for at most `plies`
    /// plies or until the book has no (positively weighted) move. Moves
    /// after which the side to move has no legal move are not chosen.
    pub fn random_exit<R: Rng>(
        &self,
        variant: &'static Variant,
        plies: usize,
        rng: &mut R,
    ) -> Result<Exit, BookError> {
        check_variant(variant)?;
        let mut pos = Position::startpos(variant);
        let mut moves = Vec::new();
        let mut uci = Vec::new();
        let mut list = MoveList::new();
        for _ in 0..plies {
            let mut options = self.moves(&pos)?;
            options.retain(|&(m, w)| {
                let mut next = pos.clone();
                next.play(m);
                next.legal_moves(&mut list);
                w > 0 && !list.is_empty()
            });
            let total: u32 = options.iter().map(|&(_, w)| u32::from(w)).sum();
            if total == 0 {
                break;
            }
            let mut pick = rng.gen_range(0..total);
            let mut chosen = options[0].0;
            for &(m, w) in &options {
                if pick < u32::from(w) {
                    chosen = m;
                    break;
                }
                pick -= u32::from(w);
            }
            uci.push(pos.move_to_uci(chosen));
            moves.push(chosen);
            pos.play(chosen);
        }
        Ok(Exit {
            moves,
            uci,
            position: pos,
        })
    }
}

/// The moves of a random exit and the position they reach.
#[derive(Clone, Debug)]
pub struct Exit {
    pub moves: Vec<Move>,
    /// The moves in fers notation (`e2e4`, `e1g1`).
    pub uci: Vec<String>,
    pub position: Position,
}

impl Exit {
    pub fn fen(&self) -> String {
        self.position.to_fen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;
    use rand::SeedableRng;

    #[test]
    fn start_position_key() {
        let pos = Position::startpos(variant::chess());
        assert_eq!(key(&pos).unwrap(), 0x463b96181691fc9c);
    }

    #[test]
    fn published_keys() {
        // The example positions of the Polyglot format description.
        let v = variant::chess();
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0x823c9b50fd114196u64,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756b94461c50fb0,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                0x662fafb965db29d4,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a48b5a8e47ff78,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
                0x652a607ca3f242c1,
            ),
            (
                "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
                0x00fdd303c946bdd9,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c8123ea7b067637,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                0x5c3f9b829b279560,
            ),
        ];
        for (fen, want) in cases {
            let pos = Position::from_fen(v, fen).unwrap();
            assert_eq!(key(&pos).unwrap(), want, "{fen}");
        }
    }

    #[test]
    fn other_variants_refused() {
        // An 8x8 variant with chess's letters is still not chess.
        let text = "[nightrider-chess:chess]\npiece.n = nightrider\n";
        let sections = fers_core::variant_file::load("t.ini", text, &|_| None);
        let v = sections[0].result.as_ref().unwrap();
        let pos = Position::startpos(v);
        let e = key(&pos).unwrap_err();
        assert!(e.to_string().contains("nightrider-chess"), "{e}");
        let e = Book::default()
            .random_exit(v, 4, &mut rand::rngs::StdRng::seed_from_u64(1))
            .unwrap_err();
        assert!(matches!(e, BookError::Variant(_)), "{e}");
    }

    #[test]
    fn move_codes() {
        let e2e4 = encode_move(12, 28, None);
        assert_eq!(
            decode_move(e2e4),
            Some(RawMove {
                from: 12,
                to: 28,
                promotion: None
            })
        );
        assert_eq!(
            decode_move(encode_move(52, 60, Some('q')))
                .unwrap()
                .promotion,
            Some('q')
        );
        assert_eq!(decode_move(5 << 12), None);
    }

    #[test]
    fn bad_files() {
        let p = Path::new("x.bin");
        assert!(matches!(
            Book::from_bytes(p, &[0u8; 17]),
            Err(BookError::Truncated { len: 17, .. })
        ));
        assert!(matches!(Book::from_bytes(p, &[]), Err(BookError::Empty(_))));
        let mut bytes = Entry {
            key: 2,
            mv: 0,
            weight: 1,
            learn: 0,
        }
        .to_bytes()
        .to_vec();
        bytes.extend(
            Entry {
                key: 1,
                mv: 0,
                weight: 1,
                learn: 0,
            }
            .to_bytes(),
        );
        assert!(matches!(
            Book::from_bytes(p, &bytes),
            Err(BookError::Unsorted { index: 1, .. })
        ));
        let e = Book::load(Path::new("/nonexistent/book.bin")).unwrap_err();
        assert!(e.to_string().contains("cannot read book"), "{e}");
    }
}
