//! Moves: a [`Move`] is a whole turn (a 32-bit head, plus the legs of a
//! Fanorona capture chain), a [`MoveList`] on the stack (heads and legs
//! stored apart; only a Fanorona list of over 1024 moves allocates), a
//! small uncleared [`MoveBuf`], and the notation errors of SPEC section 4.
//!
//! The head says from, to, a kind ([`MoveFlag`]) and an extra byte
//! (promotion, locust square, passive victims, or a chain's leg count). A
//! Fanorona turn is one move however many captures it chains: the head holds
//! the stone's start and final points, and `legs` each leg's direction and
//! kind (approach or withdrawal), 4 bits a leg. Perft and the search count
//! whole turns; notation joins the legs with `,`.
//!
//! The bound: every leg of a chain captures at least one enemy stone, and a
//! Fanorona side has at most 22 stones (the start position's; FENs with more
//! are refused), so a chain has at most [`MAX_LEGS`] = 22 legs; 24 fit.

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
    /// A Fanorona capture chain: its legs are in `Move::legs`, each
    /// written with suffix `a` (approach) or `w` (withdrawal).
    Chain = 6,
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
            6 => MoveFlag::Chain,
            8 => MoveFlag::Locust,
            9 => MoveFlag::Passive,
            _ => MoveFlag::Normal,
        }
    }

    /// The suffix letter that fers always writes for this kind, if any.
    pub fn suffix(self) -> Option<char> {
        match self {
            MoveFlag::Exchange => Some('s'),
            _ => None,
        }
    }
}

/// Most legs of one Fanorona capture chain (see the module comment).
pub const MAX_LEGS: usize = 22;

/// One leg of a capture chain: the direction (an index into the variant's
/// eight line directions) and whether it captures by withdrawal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Leg {
    pub dir: u8,
    pub withdrawal: bool,
}

/// A move. The head `bits`: from (bits 0-7), to (8-15), an extra byte
/// (16-23: promotion kind + 1, the captured square of a locust capture,
/// passive victims, or a chain's leg count and a 3-bit digest of its legs)
/// and the flag (24-27). `legs`: a chain's legs, 4 bits each (3 bits of
/// direction, 1 of withdrawal), zero for every other move. `Move::NONE` is
/// no move.
///
/// The transposition table keeps the head alone (`head`/`from_head`):
/// for every move but a chain it is the whole move, and a chain is found
/// again among the generated moves by its head (`same_head`).
///
/// A [`MoveList`] stores heads and legs apart, so lists of moves other
/// than chains cost 4 bytes a move. Aligned to its 16 bytes so that a
/// whole move (a spilled list, a PV) never straddles two cache lines.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(C, align(16))]
pub struct Move {
    bits: u32,
    legs: [u32; 3],
}

impl Move {
    pub const NONE: Move = Move {
        bits: 0,
        legs: [0; 3],
    };

    #[inline(always)]
    const fn head_only(bits: u32) -> Move {
        Move { bits, legs: [0; 3] }
    }
    /// The 28-bit head (what the transposition table stores).
    #[inline]
    pub fn head(self) -> u32 {
        self.bits & 0x0FFF_FFFF
    }
    /// A move from its head alone (complete for every move but a chain).
    #[inline]
    pub fn from_head(head: u32) -> Move {
        Move::head_only(head & 0x0FFF_FFFF)
    }
    /// Same head: the same move, or chains alike in start, end, length and
    /// digest (an ordering hint from the table, then matched in the list).
    #[inline]
    pub fn same_head(self, other: Move) -> bool {
        self.bits == other.bits
    }
    /// A capture chain from `from` with its legs; `to` is the final point.
    pub fn chain(from: u8, to: u8, legs: &[Leg]) -> Move {
        debug_assert!(!legs.is_empty() && legs.len() <= MAX_LEGS);
        let mut words = [0u32; 3];
        let mut digest = 0u32;
        for (i, l) in legs.iter().enumerate() {
            let nibble = (l.dir as u32 & 7) | (l.withdrawal as u32) << 3;
            words[i / 8] |= nibble << ((i % 8) * 4);
            digest = digest.wrapping_mul(5).wrapping_add(nibble + 1);
        }
        Move {
            bits: from as u32
                | (to as u32) << 8
                | (legs.len() as u32) << 16
                | (digest & 7) << 21
                | (MoveFlag::Chain as u32) << 24,
            legs: words,
        }
    }
    /// The number of legs of a chain (0 for any other move).
    #[inline]
    pub fn leg_count(self) -> usize {
        if self.flag() == MoveFlag::Chain {
            ((self.bits >> 16) & 31) as usize
        } else {
            0
        }
    }
    /// Leg `i` of a chain.
    #[inline]
    pub fn leg(self, i: usize) -> Leg {
        let nibble = (self.legs[i / 8] >> ((i % 8) * 4)) & 15;
        Leg {
            dir: (nibble & 7) as u8,
            withdrawal: nibble & 8 != 0,
        }
    }
    /// The chain's legs, in order.
    pub fn legs(self) -> impl Iterator<Item = Leg> {
        (0..self.leg_count()).map(move |i| self.leg(i))
    }

    #[inline]
    pub fn new(from: u8, to: u8, flag: MoveFlag) -> Move {
        Move::head_only(from as u32 | (to as u32) << 8 | (flag as u32) << 24)
    }
    #[inline]
    pub fn with_promotion(from: u8, to: u8, kind: u8) -> Move {
        Move::head_only(from as u32 | (to as u32) << 8 | ((kind as u32 + 1) << 16))
    }
    /// A capture of the piece on `captured`, landing on `to`.
    #[inline]
    pub fn locust(from: u8, to: u8, captured: u8) -> Move {
        Move::head_only(
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
        Move::head_only(
            from as u32 | (to as u32) << 8 | (code as u32) << 16 | (MoveFlag::Passive as u32) << 24,
        )
    }
    /// The victims of a passive capture, as a `baroque::VictimCode`.
    #[inline]
    pub fn victim_code(self) -> u8 {
        (self.bits >> 16) as u8
    }
    /// The same move with another promotion kind (`None`: none).
    #[inline]
    pub fn with_promotion_kind(self, kind: Option<u8>) -> Move {
        let extra = kind.map_or(0, |k| k as u32 + 1);
        Move::head_only((self.bits & !(0xFF << 16)) | extra << 16)
    }
    /// The square of the captured piece of a locust capture.
    #[inline]
    pub fn locust_square(self) -> u8 {
        (self.bits >> 16) as u8
    }
    #[inline]
    pub fn from(self) -> u8 {
        self.bits as u8
    }
    #[inline]
    pub fn to(self) -> u8 {
        (self.bits >> 8) as u8
    }
    #[inline]
    pub fn flag(self) -> MoveFlag {
        MoveFlag::from_bits((self.bits >> 24) & 0xF)
    }
    /// Promotion kind, if the move promotes.
    #[inline]
    pub fn promotion(self) -> Option<u8> {
        let p = (self.bits >> 16) & 0xFF;
        if p == 0
            || matches!(
                self.flag(),
                MoveFlag::Locust | MoveFlag::Passive | MoveFlag::Chain
            )
        {
            None
        } else {
            Some(p as u8 - 1)
        }
    }
    #[inline]
    pub fn is_none(self) -> bool {
        self.bits == 0
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

/// Inline capacity of a [`MoveList`]: far above the legal moves of chess
/// positions (orthodox chess peaks at 218); past it the list spills to the
/// heap (Fanorona's chains and their prefixes can number thousands).
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack; creating one does not touch its storage.
///
/// The storage is split: the 32-bit heads in one array, the legs of capture
/// chains in another, written and read only for chains. A list of chess
/// moves therefore moves 4 bytes a move, as it did before moves carried
/// chains (a list of whole 16-byte moves made chess perft ~15% slower in
/// time). Moves come out by value ([`MoveList::get`], [`MoveList::iter`]).
///
/// Up to [`MAX_MOVES`] moves live in the inline arrays. A position with
/// more (a Fanorona position can have thousands of chains and prefixes)
/// moves the list into `spill`, a heap vector of whole moves, on the one
/// push that overflows: exact in every position, and no allocation in any
/// other. Invariant: the list is spilled exactly when `len > MAX_MOVES`;
/// inline, `legs[i]` is written whenever `heads[i]` is a chain.
pub struct MoveList {
    len: usize,
    /// Whether a chain was ever written inline since the list was cleared
    /// (so that lists of other moves take the head-only paths).
    has_chains: bool,
    heads: [MaybeUninit<u32>; MAX_MOVES],
    legs: [MaybeUninit<[u32; 3]>; MAX_MOVES],
    spill: Vec<Move>,
}

impl Move {
    /// Whether a head is a chain's (whose legs live outside the head).
    #[inline(always)]
    const fn head_is_chain(bits: u32) -> bool {
        (bits >> 24) & 0xF == MoveFlag::Chain as u32
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            has_chains: false,
            // SAFETY: arrays of `MaybeUninit` need no initialisation.
            // (The array-repeat form `[MaybeUninit::uninit(); N]` was
            // compiled to a memset of the whole list: 23% of perft's
            // instructions with 4-byte moves.)
            heads: unsafe { MaybeUninit::uninit().assume_init() },
            legs: unsafe { MaybeUninit::uninit().assume_init() },
            spill: Vec::new(),
        }
    }
    /// Writes `m` into inline slot `i` (`i < MAX_MOVES`).
    #[inline(always)]
    fn write_inline(&mut self, i: usize, m: Move) {
        self.heads[i].write(m.bits);
        if Move::head_is_chain(m.bits) {
            self.legs[i].write(m.legs);
            self.has_chains = true;
        }
    }
    /// The move in inline slot `i` (`i < len.min(MAX_MOVES)`).
    #[inline(always)]
    fn read_inline(&self, i: usize) -> Move {
        // SAFETY: slots below `len` were written by `write_inline`, which
        // writes the legs of every chain head.
        let bits = unsafe { self.heads[i].assume_init() };
        if Move::head_is_chain(bits) {
            Move {
                bits,
                legs: unsafe { self.legs[i].assume_init() },
            }
        } else {
            Move::head_only(bits)
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.write_inline(self.len, m);
            self.len += 1;
        } else {
            self.push_spilled(m);
        }
    }
    #[cold]
    #[inline(never)]
    fn push_spilled(&mut self, m: Move) {
        if self.len == MAX_MOVES {
            self.spill = (0..MAX_MOVES).map(|i| self.read_inline(i)).collect();
        }
        self.spill.push(m);
        self.len += 1;
    }
    #[inline(always)]
    fn spilled(&self) -> bool {
        self.len > MAX_MOVES
    }
    /// The `i`-th move (`i < len`).
    #[inline(always)]
    pub fn get(&self, i: usize) -> Move {
        assert!(i < self.len, "move index {i} out of {}", self.len);
        self.get_below_len(i)
    }
    /// `get` for an index already known to be below `len`.
    #[inline(always)]
    fn get_below_len(&self, i: usize) -> Move {
        if self.spilled() {
            self.spill[i]
        } else {
            self.read_inline(i)
        }
    }
    /// Replaces the `i`-th move (`i < len`).
    #[inline(always)]
    pub fn set(&mut self, i: usize, m: Move) {
        assert!(i < self.len, "move index {i} out of {}", self.len);
        if self.spilled() {
            self.spill[i] = m;
        } else {
            self.write_inline(i, m);
        }
    }
    /// Exchanges the `i`-th and `j`-th moves.
    #[inline]
    pub fn swap(&mut self, i: usize, j: usize) {
        if !self.has_chains && !self.spilled() {
            assert!(
                i < self.len && j < self.len,
                "move index out of {}",
                self.len
            );
            self.heads.swap(i, j);
            return;
        }
        let (a, b) = (self.get(i), self.get(j));
        self.set(i, b);
        self.set(j, a);
    }
    /// Shortens the list to `n` moves (`n <= len`), back inline if they fit.
    fn set_len(&mut self, n: usize) {
        debug_assert!(n <= self.len);
        if self.spilled() {
            self.spill.truncate(n);
            if n <= MAX_MOVES {
                self.unspill();
            }
        }
        self.len = n;
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
        if self.spilled() {
            self.spill = Vec::new();
        }
        self.len = 0;
        self.has_chains = false;
    }
    /// Keeps the first `n` moves.
    pub fn truncate(&mut self, n: usize) {
        if n < self.len {
            self.set_len(n);
        }
    }
    /// The moves, by value, in order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        let inline = if self.spilled() { 0 } else { self.len };
        // SAFETY: inline slots below `len` were written.
        let heads =
            unsafe { std::slice::from_raw_parts(self.heads.as_ptr() as *const u32, inline) };
        Iter {
            heads,
            legs: &self.legs,
            next: 0,
            spill: self.spill.iter(),
        }
    }
    /// The moves as a vector (outside hot paths).
    pub fn to_vec(&self) -> Vec<Move> {
        self.iter().collect()
    }
    /// Keeps the moves for which `keep` is true, in order.
    ///
    /// One loop, one call of `keep`: with a second call site (a separate
    /// loop for spilled lists) the legality filter's closure was no longer
    /// inlined, +15% of perft's instructions.
    #[inline(always)]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let spilled = self.spilled();
        // Heads alone are the whole moves: no chain inline, not spilled.
        let heads_only = !spilled && !self.has_chains;
        let mut j = 0;
        for i in 0..self.len {
            let m = if heads_only {
                // SAFETY: inline slots below `len` were written.
                Move::head_only(unsafe { self.heads[i].assume_init() })
            } else {
                self.get_below_len(i)
            };
            if keep(m) {
                if heads_only {
                    self.heads[j].write(m.bits);
                } else if spilled {
                    self.spill[j] = m;
                } else {
                    self.write_inline(j, m);
                }
                j += 1;
            }
        }
        if spilled {
            self.spill.truncate(j);
            if j <= MAX_MOVES {
                self.unspill();
            }
        }
        self.len = j;
    }
    /// Moves a spilled list of at most `MAX_MOVES` moves back inline.
    #[cold]
    fn unspill(&mut self) {
        let spill = std::mem::take(&mut self.spill);
        for (i, &m) in spill.iter().enumerate() {
            self.write_inline(i, m);
        }
    }
    /// Removes repeated moves among those pushed since `start` (a rider on a
    /// wrapped board reaches the same square both ways round).
    pub fn dedup_from(&mut self, start: usize) {
        if self.spilled() || self.has_chains {
            // Not met in practice (wrapped boards have no chains); whole moves.
            let mut seg: Vec<Move> = (start..self.len).map(|i| self.get(i)).collect();
            seg.sort_unstable_by_key(|m| (m.bits, m.legs));
            seg.dedup();
            self.set_len(start);
            for m in seg {
                self.push(m);
            }
            return;
        }
        // SAFETY: inline and below `len`, every head was written; without
        // chains the heads are the whole moves.
        let seg = unsafe {
            std::slice::from_raw_parts_mut(
                self.heads.as_mut_ptr().add(start) as *mut u32,
                self.len - start,
            )
        };
        seg.sort_unstable();
        let mut j = 0;
        for i in 0..seg.len() {
            if i == 0 || seg[i] != seg[j - 1] {
                seg[j] = seg[i];
                j += 1;
            }
        }
        self.len = start + j;
    }

    pub fn contains(&self, m: Move) -> bool {
        self.iter().any(|x| x == m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

/// The moves of a [`MoveList`], by value: its inline heads (with the
/// legs of its chains) or its spilled moves, whichever holds the list.
pub struct Iter<'a> {
    heads: &'a [u32],
    legs: &'a [MaybeUninit<[u32; 3]>; MAX_MOVES],
    next: usize,
    spill: std::slice::Iter<'a, Move>,
}

impl Iterator for Iter<'_> {
    type Item = Move;
    #[inline(always)]
    fn next(&mut self) -> Option<Move> {
        let i = self.next;
        if i < self.heads.len() {
            self.next += 1;
            let bits = self.heads[i];
            Some(if Move::head_is_chain(bits) {
                // SAFETY: a chain head's legs were written with it.
                Move {
                    bits,
                    legs: unsafe { self.legs[i].assume_init() },
                }
            } else {
                Move::head_only(bits)
            })
        } else {
            self.spill.next().copied()
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.heads.len() - self.next + self.spill.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a MoveList {
    type Item = Move;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A few whole moves on the stack, up to `N`, never initialised: what the
/// search remembers of the moves it tried at a node.
pub struct MoveBuf<const N: usize> {
    len: usize,
    moves: [MaybeUninit<Move>; N],
}

impl<const N: usize> MoveBuf<N> {
    #[inline]
    pub fn new() -> Self {
        MoveBuf {
            len: 0,
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            moves: unsafe { MaybeUninit::uninit().assume_init() },
        }
    }
    /// Adds `m`; a full buffer ignores it.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < N {
            self.moves[self.len].write(m);
            self.len += 1;
        }
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
}

impl<const N: usize> Default for MoveBuf<N> {
    fn default() -> Self {
        Self::new()
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
    fn chain_of_the_longest_length_round_trips() {
        let legs: Vec<Leg> = (0..MAX_LEGS)
            .map(|i| Leg {
                dir: (i * 3 % 8) as u8,
                withdrawal: i % 3 == 0,
            })
            .collect();
        let m = Move::chain(44, 3, &legs);
        assert_eq!((m.from(), m.to(), m.flag()), (44, 3, MoveFlag::Chain));
        assert_eq!(m.leg_count(), MAX_LEGS);
        assert_eq!(m.legs().collect::<Vec<_>>(), legs);
        assert_eq!(m.promotion(), None);
        // The head alone is what the table keeps; it finds the chain again.
        assert!(Move::from_head(m.head()).same_head(m));
        assert_ne!(Move::from_head(m.head()), m);
        let short = Move::chain(44, 3, &legs[..1]);
        assert_eq!(short.leg_count(), 1);
        assert_ne!(short, m);
    }

    #[test]
    fn move_list_spills_past_its_capacity_and_comes_back() {
        let mut l = MoveList::new();
        let n = MAX_MOVES + 300;
        for i in 0..n {
            l.push(Move::new(
                (i % 200) as u8,
                (i / 200) as u8,
                MoveFlag::Normal,
            ));
        }
        assert_eq!(l.len(), n);
        assert_eq!(l.iter().count(), n);
        assert_eq!(l.get(MAX_MOVES + 5).from(), ((MAX_MOVES + 5) % 200) as u8);
        // Keep every other move: back inline, order kept.
        let want: Vec<Move> = l.iter().step_by(2).collect();
        let mut k = 0;
        l.retain(|_| {
            k += 1;
            k % 2 == 1
        });
        assert_eq!(l.to_vec(), want);
        l.push(Move::new(1, 2, MoveFlag::Normal));
        assert_eq!(l.len(), want.len() + 1);
        l.truncate(3);
        assert_eq!(l.to_vec(), &want[..3]);
        l.clear();
        assert!(l.is_empty());
    }

    #[test]
    fn chains_keep_their_legs_through_every_list_operation() {
        // Heads and legs are stored apart: each operation must carry the
        // legs of a chain with its head, inline and spilled.
        let chain = |i: usize| {
            let legs: Vec<Leg> = (0..1 + i % MAX_LEGS)
                .map(|k| Leg {
                    dir: ((i + k) % 8) as u8,
                    withdrawal: (i + k).is_multiple_of(3),
                })
                .collect();
            Move::chain((i % 45) as u8, (i / 45 % 45) as u8, &legs)
        };
        let mk = |i: usize| {
            if i.is_multiple_of(3) {
                chain(i)
            } else {
                Move::new((i % 200) as u8, (i / 200) as u8, MoveFlag::Normal)
            }
        };
        for n in [10, MAX_MOVES, MAX_MOVES + 77] {
            let mut l = MoveList::new();
            let mut want: Vec<Move> = (0..n).map(mk).collect();
            for &m in &want {
                l.push(m);
            }
            assert_eq!(l.to_vec(), want);
            l.swap(0, n - 1);
            want.swap(0, n - 1);
            l.set(1, chain(7));
            want[1] = chain(7);
            assert_eq!(l.to_vec(), want);
            assert!(l.contains(chain(7)));
            let mut k = 0;
            l.retain(|_| {
                k += 1;
                k % 3 != 2
            });
            let mut k = 0;
            want.retain(|_| {
                k += 1;
                k % 3 != 2
            });
            assert_eq!(l.to_vec(), want);
            l.truncate(5);
            assert_eq!(l.to_vec(), &want[..5]);
        }
    }

    #[test]
    fn move_buf_keeps_the_first_moves() {
        let mut b = MoveBuf::<3>::new();
        assert!(b.as_slice().is_empty());
        for i in 0..5 {
            b.push(Move::new(i, i + 1, MoveFlag::Normal));
        }
        let froms: Vec<u8> = b.as_slice().iter().map(|m| m.from()).collect();
        assert_eq!(froms, [0, 1, 2]);
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
