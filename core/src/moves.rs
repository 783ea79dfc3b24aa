//! Moves: a compact 32-bit [`Move`] (one leg), a fixed-capacity [`MoveList`]
//! that never allocates, and the notation errors of SPEC section 4.
//!
//! A move is one leg from a square to a square with a kind ([`MoveFlag`]) and
//! an optional promotion. Turns made of several legs (Fanorona capture chains)
//! are sequences of legs played by the same side: the position records that a
//! chain is under way, and notation joins the legs with `,`.

use std::fmt;
use std::mem::MaybeUninit;

/// The kind of a move, where from/to alone cannot tell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum MoveFlag {
    Normal = 0,
    /// Pawn double step (sets the en-passant square).
    DoubleStep = 1,
    EnPassant = 2,
    /// Castling towards the last file (king's move written e1g1).
    CastleKing = 3,
    /// Castling towards file a.
    CastleQueen = 4,
    /// Messigny exchange, written with suffix `s`.
    Exchange = 5,
    /// Fanorona capture by approach, suffix `a`.
    Approach = 6,
    /// Fanorona capture by withdrawal, suffix `w`.
    Withdrawal = 7,
    /// A capture whose victim is not on the landing square (locust,
    /// marine): the captured square is stored in the move.
    Locust = 8,
    /// A passive capture (Baroque): the victims follow from the variant's
    /// capture styles; the extra byte holds them as a `VictimCode`.
    Passive = 9,
}

impl MoveFlag {
    fn from_bits(b: u32) -> MoveFlag {
        match b {
            1 => MoveFlag::DoubleStep,
            2 => MoveFlag::EnPassant,
            3 => MoveFlag::CastleKing,
            4 => MoveFlag::CastleQueen,
            5 => MoveFlag::Exchange,
            6 => MoveFlag::Approach,
            7 => MoveFlag::Withdrawal,
            8 => MoveFlag::Locust,
            9 => MoveFlag::Passive,
            _ => MoveFlag::Normal,
        }
    }

    /// The suffix letter that fers always writes for this kind, if any.
    pub fn suffix(self) -> Option<char> {
        match self {
            MoveFlag::Exchange => Some('s'),
            MoveFlag::Approach => Some('a'),
            MoveFlag::Withdrawal => Some('w'),
            _ => None,
        }
    }
}

/// One leg: from (bits 0-7), to (8-15), an extra byte (16-23: promotion
/// kind + 1, or the captured square of a locust capture) and the flag
/// (24-27). `Move::NONE` is no move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

impl Move {
    pub const NONE: Move = Move(0);

    #[inline]
    pub fn new(from: u8, to: u8, flag: MoveFlag) -> Move {
        Move(from as u32 | (to as u32) << 8 | (flag as u32) << 24)
    }
    #[inline]
    pub fn with_promotion(from: u8, to: u8, kind: u8) -> Move {
        Move(from as u32 | (to as u32) << 8 | ((kind as u32 + 1) << 16))
    }
    /// A capture of the piece on `captured`, landing on `to`.
    #[inline]
    pub fn locust(from: u8, to: u8, captured: u8) -> Move {
        Move(
            from as u32
                | (to as u32) << 8
                | (captured as u32) << 16
                | (MoveFlag::Locust as u32) << 24,
        )
    }
    /// A passive capture from `from` to `to` with the victims `code`
    /// (a `baroque::VictimCode`).
    #[inline]
    pub fn passive(from: u8, to: u8, code: u8) -> Move {
        Move(
            from as u32 | (to as u32) << 8 | (code as u32) << 16 | (MoveFlag::Passive as u32) << 24,
        )
    }
    /// The victims of a passive capture, as a `baroque::VictimCode`.
    #[inline]
    pub fn victim_code(self) -> u8 {
        (self.0 >> 16) as u8
    }
    /// The square of the captured piece of a locust capture.
    #[inline]
    pub fn locust_square(self) -> u8 {
        (self.0 >> 16) as u8
    }
    #[inline]
    pub fn from(self) -> u8 {
        self.0 as u8
    }
    #[inline]
    pub fn to(self) -> u8 {
        (self.0 >> 8) as u8
    }
    #[inline]
    pub fn flag(self) -> MoveFlag {
        MoveFlag::from_bits((self.0 >> 24) & 0xF)
    }
    /// Promotion kind, if the move promotes.
    #[inline]
    pub fn promotion(self) -> Option<u8> {
        let p = (self.0 >> 16) & 0xFF;
        if p == 0 || matches!(self.flag(), MoveFlag::Locust | MoveFlag::Passive) {
            None
        } else {
            Some(p as u8 - 1)
        }
    }
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({}->{} {:?} promo {:?})",
            self.from(),
            self.to(),
            self.flag(),
            self.promotion()
        )
    }
}

/// Capacity of a [`MoveList`]: far above the legal moves of any position
/// reachable in the supported games (orthodox chess peaks at 218).
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack; creating one does not touch its storage.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

impl MoveList {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [MaybeUninit::uninit(); MAX_MOVES],
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // Bounds-checked: a position with more than MAX_MOVES moves is a bug
        // in the capacity, not something to write past.
        self.moves[self.len].write(m);
        self.len += 1;
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    /// Keeps the moves for which `keep` is true, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            // SAFETY: i < len, written.
            let m = unsafe { self.moves[i].assume_init() };
            if keep(m) {
                self.moves[j].write(m);
                j += 1;
            }
        }
        self.len = j;
    }
    /// Removes repeated moves among those pushed since `start` (a rider on a
    /// wrapped board reaches the same square both ways round).
    pub fn dedup_from(&mut self, start: usize) {
        let len = self.len;
        let seg = &mut self.as_mut_slice()[start..];
        seg.sort_unstable_by_key(|m| m.0);
        let mut j = 0;
        for i in 0..seg.len() {
            if i == 0 || seg[i] != seg[j - 1] {
                seg[j] = seg[i];
                j += 1;
            }
        }
        self.len = len - (seg.len() - j);
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Why a move string was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not of the form `<from><to>[promotion][suffix]`.
    Syntax(String),
    /// Well formed, but no legal move matches.
    Illegal(String),
    /// Without its suffix, more than one legal move matches.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "malformed move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
            MoveError::Ambiguous(s) => write!(f, "ambiguous move '{s}': add its suffix letter"),
        }
    }
}

impl std::error::Error for MoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_fields_round_trip() {
        let m = Move::new(143, 7, MoveFlag::Exchange);
        assert_eq!(
            (m.from(), m.to(), m.flag(), m.promotion()),
            (143, 7, MoveFlag::Exchange, None)
        );
        let p = Move::with_promotion(50, 58, 4);
        assert_eq!(
            (p.from(), p.to(), p.flag(), p.promotion()),
            (50, 58, MoveFlag::Normal, Some(4))
        );
        assert!(Move::NONE.is_none());
    }

    #[test]
    fn move_list_retain() {
        let mut l = MoveList::new();
        for i in 0..10 {
            l.push(Move::new(i, i + 1, MoveFlag::Normal));
        }
        l.retain(|m| m.from() % 2 == 0);
        assert_eq!(l.len(), 5);
        assert!(l.iter().all(|m| m.from() % 2 == 0));
    }
}
