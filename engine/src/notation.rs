//! Move notations of the protocols. fers-core writes and reads one notation
//! (SPEC 4: `e2e4`, `e7e8q`, castling as the king's move `e1g1`); the
//! front-ends pass a [`Notation`] value explicitly wherever a move is read or
//! written, so no global flag changes how moves look.
//!
//! - [`Notation::Fers`]: SPEC 4, used by UCI and XBoard.
//! - [`Notation::Chess960`]: UCI with `UCI_Chess960`: castling is written as
//!   the king taking its own rook (`e1h1`), as Stockfish does; the king's
//!   move (`e1g1`) is still read where it is not ambiguous.
//! - [`Notation::Usi`]: USI squares: file number, rank letter. Files are
//!   numbered from the right as the first player sees the board (shogi's
//!   `1` is fers's last file, `h` on 8x8), ranks lettered from the far side
//!   (`a` is fers's last rank). So chess's e2 is `4g` and e2e4 is `4g4e`;
//!   the first player (fers White, USI "black"/sente) starts at the bottom
//!   as in shogi. Promotions and suffixes are written as in SPEC 4.

use fers_core::position::{KING_SIDE, QUEEN_SIDE};
use fers_core::{Color, Geometry, Move, MoveError, MoveFlag, MoveList, Position};

/// How a protocol writes moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    Fers,
    Chess960,
    Usi,
}

impl Notation {
    /// `m` (legal in `pos`) as text.
    pub fn format(self, pos: &Position, m: Move) -> String {
        match self {
            Notation::Fers => pos.move_to_uci(m),
            Notation::Chess960 => match castle_rook_square(pos, m) {
                Some(rook) => {
                    let geo = pos.variant().geometry;
                    geo.square_name(m.from()) + &geo.square_name(rook)
                }
                None => pos.move_to_uci(m),
            },
            Notation::Usi => fers_to_usi(pos, &pos.move_to_uci(m)),
        }
    }

    /// Reads a move and checks that it is legal in `pos`.
    pub fn parse(self, pos: &Position, text: &str) -> Result<Move, MoveError> {
        match self {
            Notation::Fers => pos.parse_move(text),
            Notation::Chess960 => {
                let wanted = text.trim().to_ascii_lowercase();
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                let castle = list.iter().find(|&m| {
                    castle_rook_square(pos, m).is_some() && self.format(pos, m) == wanted
                });
                match castle {
                    Some(m) => Ok(m),
                    None => pos.parse_move(text),
                }
            }
            Notation::Usi => {
                let fers = usi_to_fers(pos.variant().geometry, text.trim())
                    .ok_or_else(|| MoveError::Syntax(text.trim().to_string()))?;
                // Errors quote the move as it was sent.
                pos.parse_move(&fers).map_err(|e| match e {
                    MoveError::Illegal(_) => MoveError::Illegal(text.trim().into()),
                    MoveError::Ambiguous(_) => MoveError::Ambiguous(text.trim().into()),
                    _ => MoveError::Syntax(text.trim().into()),
                })
            }
        }
    }
}

/// The rook square of a castling move, before it is played.
fn castle_rook_square(pos: &Position, m: Move) -> Option<u8> {
    let wing = match m.flag() {
        MoveFlag::CastleKing => KING_SIDE,
        MoveFlag::CastleQueen => QUEEN_SIDE,
        _ => return None,
    };
    pos.castle_rook(pos.side_to_move(), wing)
}

/// A USI square name (`7g`).
pub fn usi_square(geo: Geometry, sq: u8) -> String {
    let file = geo.files - geo.file_of(sq);
    let rank = (b'a' + (geo.ranks - 1 - geo.rank_of(sq))) as char;
    format!("{file}{rank}")
}

/// Reads a USI square at the start of `s`: the square and the bytes used.
fn parse_usi_square(geo: Geometry, s: &[u8]) -> Option<(u8, usize)> {
    let digits = s.iter().take(2).take_while(|b| b.is_ascii_digit()).count();
    let file: u8 = std::str::from_utf8(&s[..digits]).ok()?.parse().ok()?;
    let letter = *s.get(digits)?;
    if file == 0 || file > geo.files || !letter.is_ascii_lowercase() {
        return None;
    }
    let from_top = letter - b'a';
    if from_top >= geo.ranks {
        return None;
    }
    Some((
        geo.square(geo.files - file, geo.ranks - 1 - from_top),
        digits + 1,
    ))
}

/// A fers move text with its two squares rewritten as USI squares.
fn fers_to_usi(pos: &Position, fers: &str) -> String {
    if fers.contains(',') {
        // A capture chain: each leg in USI squares.
        let legs: Vec<String> = fers.split(',').map(|l| fers_to_usi(pos, l)).collect();
        return legs.join(",");
    }
    let geo = pos.variant().geometry;
    let b = fers.as_bytes();
    let Some((from, n1)) = geo.parse_square_prefix(b) else {
        return fers.to_string();
    };
    let Some((to, n2)) = geo.parse_square_prefix(&b[n1..]) else {
        return fers.to_string();
    };
    usi_square(geo, from) + &usi_square(geo, to) + &fers[n1 + n2..]
}

/// A USI move text as fers text; `None` when its squares do not read.
fn usi_to_fers(geo: Geometry, usi: &str) -> Option<String> {
    if usi.contains(',') {
        let legs: Option<Vec<String>> = usi.split(',').map(|l| usi_to_fers(geo, l)).collect();
        return legs.map(|l| l.join(","));
    }
    let b = usi.as_bytes();
    let (from, n1) = parse_usi_square(geo, b)?;
    let (to, n2) = parse_usi_square(geo, &b[n1..])?;
    let rest = usi.get(n1 + n2..)?;
    Some(geo.square_name(from) + &geo.square_name(to) + rest)
}

/// The USI side letter: `b` for the first player (fers White), `w` for the
/// second, the reverse of FEN's letters.
pub fn usi_side(c: Color) -> char {
    match c {
        Color::White => 'b',
        Color::Black => 'w',
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    #[test]
    fn usi_squares_count_files_from_the_right() {
        let pos = Position::startpos(variant::chess());
        let geo = pos.variant().geometry;
        assert_eq!(usi_square(geo, geo.parse_square("e2").unwrap()), "4g");
        assert_eq!(usi_square(geo, geo.parse_square("a8").unwrap()), "8a");
        assert_eq!(usi_square(geo, geo.parse_square("h1").unwrap()), "1h");
        let m = Notation::Usi.parse(&pos, "4g4e").expect("e2e4");
        assert_eq!(pos.move_to_uci(m), "e2e4");
        assert_eq!(Notation::Usi.format(&pos, m), "4g4e");
        for bad in ["", "4g", "9g4e", "0g4e", "4z4e", "4g4eqq", "e2e4", "4g4d"] {
            assert!(Notation::Usi.parse(&pos, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(variant::chess(), fen).unwrap();
        let oo = pos.parse_move("e1g1").unwrap();
        assert_eq!(Notation::Chess960.format(&pos, oo), "e1h1");
        assert_eq!(Notation::Fers.format(&pos, oo), "e1g1");
        assert_eq!(Notation::Chess960.parse(&pos, "e1h1"), Ok(oo));
        let ooo = Notation::Chess960.parse(&pos, "e1a1").unwrap();
        assert_eq!(pos.move_to_uci(ooo), "e1c1");
        assert!(Notation::Fers.parse(&pos, "e1h1").is_err());
        let plain = Notation::Chess960.parse(&pos, "a1a5").unwrap();
        assert_eq!(Notation::Chess960.format(&pos, plain), "a1a5");
    }
}
