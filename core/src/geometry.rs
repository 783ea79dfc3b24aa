//! Board geometry: squares, board sizes up to 12x12, topologies (plain,
//! cylinders, torus) and the step tables every move generator walks.
//!
//! Squares are dense indices `rank * files + file` inside one variant's board,
//! so a 12x12 board uses 0..144. Geometry is computed once per variant: for
//! every direction vector any piece uses there is a table `step[dir][sq]`
//! giving the square one leap away, with wrapping already applied, or
//! [`NO_SQ`] off the board. No per-node code works out coordinates again.

use std::fmt;
use std::str::FromStr;

/// Largest supported board dimension (files and ranks).
pub const MAX_FILES: usize = 12;
/// Largest supported number of ranks.
pub const MAX_RANKS: usize = 12;
/// Largest number of squares on any board.
pub const MAX_SQUARES: usize = MAX_FILES * MAX_RANKS;
/// "No square": off the board in step tables, no en-passant square, no king.
pub const NO_SQ: u8 = 255;

/// How the board edges connect.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Topology {
    /// Ordinary board with edges.
    #[default]
    Plain,
    /// Rank 1 and the last rank are adjacent ("horizontal cylinder").
    HCylinder,
    /// File a and the last file are adjacent ("vertical cylinder").
    VCylinder,
    /// Both (anchor ring / torus).
    Torus,
}

impl Topology {
    pub fn wraps_files(self) -> bool {
        matches!(self, Topology::VCylinder | Topology::Torus)
    }
    pub fn wraps_ranks(self) -> bool {
        matches!(self, Topology::HCylinder | Topology::Torus)
    }
    pub fn name(self) -> &'static str {
        match self {
            Topology::Plain => "plain",
            Topology::HCylinder => "hcylinder",
            Topology::VCylinder => "vcylinder",
            Topology::Torus => "torus",
        }
    }
}

impl FromStr for Topology {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "plain" => Ok(Topology::Plain),
            "hcylinder" => Ok(Topology::HCylinder),
            "vcylinder" => Ok(Topology::VCylinder),
            "torus" | "anchorring" => Ok(Topology::Torus),
            other => Err(format!(
                "unknown topology '{other}' (plain, hcylinder, vcylinder, torus)"
            )),
        }
    }
}

/// Which lines join the points of the board: a board graph that is not a
/// plain grid (Fanorona's) removes diagonal steps from some squares, and
/// the step tables, which every generator reads, then simply lack them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Lines {
    /// Every direction from every square (chess boards).
    #[default]
    Grid,
    /// Orthogonal lines everywhere, diagonals only through the points whose
    /// file + rank (from a1 = 0,0) is even: the alquerque / Fanorona board.
    /// A diagonal vector from any other point leads nowhere.
    EvenDiagonals,
}

/// Board size and topology, with coordinate helpers and square notation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
    pub topology: Topology,
    pub lines: Lines,
}

impl Geometry {
    pub fn new(files: u8, ranks: u8, topology: Topology) -> Result<Self, String> {
        if !(1..=MAX_FILES as u8).contains(&files) || !(1..=MAX_RANKS as u8).contains(&ranks) {
            return Err(format!(
                "board {files}x{ranks} is outside 1x1..{MAX_FILES}x{MAX_RANKS}"
            ));
        }
        Ok(Geometry {
            files,
            ranks,
            topology,
            lines: Lines::Grid,
        })
    }

    /// The same board with other lines.
    pub fn with_lines(self, lines: Lines) -> Geometry {
        Geometry { lines, ..self }
    }

    /// Does the board have a diagonal line through `sq`?
    #[inline]
    pub fn has_diagonals(&self, sq: u8) -> bool {
        match self.lines {
            Lines::Grid => true,
            Lines::EvenDiagonals => (self.file_of(sq) + self.rank_of(sq)).is_multiple_of(2),
        }
    }

    #[inline]
    pub fn num_squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }
    #[inline]
    pub fn file_of(&self, sq: u8) -> u8 {
        sq % self.files
    }
    #[inline]
    pub fn rank_of(&self, sq: u8) -> u8 {
        sq / self.files
    }
    #[inline]
    pub fn square(&self, file: u8, rank: u8) -> u8 {
        rank * self.files + file
    }

    /// The square reached from `sq` by the vector (dx, dy), applying the
    /// topology's wrapping, or `None` off the board.
    pub fn offset(&self, sq: u8, dx: i32, dy: i32) -> Option<u8> {
        if dx != 0 && dx.abs() == dy.abs() && !self.has_diagonals(sq) {
            return None;
        }
        let (f, r) = (self.file_of(sq) as i32, self.rank_of(sq) as i32);
        let (nf, nr) = (self.files as i32, self.ranks as i32);
        let mut tf = f + dx;
        let mut tr = r + dy;
        if self.topology.wraps_files() {
            tf = tf.rem_euclid(nf);
        }
        if self.topology.wraps_ranks() {
            tr = tr.rem_euclid(nr);
        }
        if tf < 0 || tf >= nf || tr < 0 || tr >= nr {
            return None;
        }
        Some(self.square(tf as u8, tr as u8))
    }

    /// Writes a square as file letter + rank number (`a1`, `l12`).
    pub fn square_name(&self, sq: u8) -> String {
        let mut s = String::with_capacity(3);
        s.push((b'a' + self.file_of(sq)) as char);
        s.push_str(&(self.rank_of(sq) + 1).to_string());
        s
    }

    /// Parses a square name at the start of `s`; returns the square and the
    /// number of bytes used. Ranks may have two digits (`a10`).
    pub fn parse_square_prefix(&self, s: &[u8]) -> Option<(u8, usize)> {
        let f = *s.first()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f - b'a';
        let mut i = 1;
        let mut rank: u32 = 0;
        while i < s.len() && i <= 2 && s[i].is_ascii_digit() {
            rank = rank * 10 + (s[i] - b'0') as u32;
            i += 1;
        }
        if i == 1 || rank == 0 || file >= self.files || rank > self.ranks as u32 {
            return None;
        }
        // A two-digit rank only when the board has that many ranks ("a10" on 8
        // ranks is not a10; "a1" followed by "0" would be bad input anyway).
        Some((self.square(file, rank as u8 - 1), i))
    }

    /// Parses a whole square name.
    pub fn parse_square(&self, s: &str) -> Option<u8> {
        match self.parse_square_prefix(s.as_bytes()) {
            Some((sq, n)) if n == s.len() => Some(sq),
            _ => None,
        }
    }
}

/// A set of squares (up to 192, enough for 12x12), used for occupancy and
/// masks. Iterating yields squares in increasing order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub [u64; 3]);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet([0; 3]);
    /// Every square index (and the unused bits above them).
    pub const ALL: SquareSet = SquareSet([u64::MAX; 3]);

    #[inline]
    pub fn contains(&self, sq: u8) -> bool {
        (self.0[(sq >> 6) as usize] >> (sq & 63)) & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] |= 1u64 << (sq & 63);
    }
    #[inline]
    pub fn remove(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] &= !(1u64 << (sq & 63));
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }
    #[inline]
    pub fn len(&self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }
    #[inline]
    pub fn and(self, o: SquareSet) -> SquareSet {
        SquareSet([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
    #[inline]
    pub fn or(self, o: SquareSet) -> SquareSet {
        SquareSet([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
    /// The squares of `self` that are not in `o`.
    #[inline]
    pub fn and_not(self, o: SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
        ])
    }
    #[inline]
    pub fn iter(&self) -> SquareIter {
        SquareIter {
            words: self.0,
            word: 0,
        }
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over the squares of a [`SquareSet`].
pub struct SquareIter {
    words: [u64; 3],
    word: usize,
}

impl Iterator for SquareIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        while self.word < 3 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some((self.word as u32 * 64 + w.trailing_zeros()) as u8);
            }
            self.word += 1;
        }
        None
    }
}

/// The 8 symmetries of the square (rotations and reflections), applied to a
/// vector. Two-leg families apply the same symmetry to both legs at once.
pub type Symmetry = fn(i32, i32) -> (i32, i32);

/// The symmetries, in the order direction filters (`Atom::filter`) use.
pub const SYMMETRIES: [Symmetry; 8] = [
    |x, y| (x, y),
    |x, y| (-x, y),
    |x, y| (x, -y),
    |x, y| (-x, -y),
    |x, y| (y, x),
    |x, y| (-y, x),
    |x, y| (y, -x),
    |x, y| (-y, -x),
];

/// Step tables for all direction vectors of a variant.
#[derive(Clone, Debug)]
pub struct Steps {
    /// The vectors, indexed by direction number.
    pub vectors: Vec<(i8, i8)>,
    /// `table[dir][sq]`: the square one step of `vectors[dir]` from `sq`.
    pub table: Vec<[u8; MAX_SQUARES]>,
}

impl Steps {
    pub fn new() -> Self {
        Steps {
            vectors: Vec::new(),
            table: Vec::new(),
        }
    }

    /// The direction number of a vector, adding its table if new.
    pub fn dir(&mut self, geo: &Geometry, dx: i32, dy: i32) -> u8 {
        if let Some(i) = self.vectors.iter().position(|&v| v == (dx as i8, dy as i8)) {
            return i as u8;
        }
        let mut t = [NO_SQ; MAX_SQUARES];
        for sq in 0..geo.num_squares() as u8 {
            t[sq as usize] = geo.offset(sq, dx, dy).unwrap_or(NO_SQ);
        }
        self.vectors.push((dx as i8, dy as i8));
        self.table.push(t);
        assert!(self.vectors.len() < 255, "too many direction vectors");
        (self.vectors.len() - 1) as u8
    }

    #[inline(always)]
    pub fn step(&self, dir: u8, sq: u8) -> u8 {
        // Safety of indexing: dir comes from this table, sq < MAX_SQUARES.
        self.table[dir as usize][sq as usize]
    }
}

impl Default for Steps {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_on_big_boards() {
        let g = Geometry::new(12, 12, Topology::Plain).unwrap();
        for sq in 0..144u8 {
            let name = g.square_name(sq);
            assert_eq!(g.parse_square(&name), Some(sq), "{name}");
        }
        assert_eq!(g.parse_square("l12"), Some(143));
        assert_eq!(g.parse_square("a13"), None);
        assert_eq!(g.parse_square("m1"), None);
        assert_eq!(g.parse_square("a0"), None);
    }

    #[test]
    fn even_diagonals_exist_only_through_even_points() {
        let g = Geometry::new(9, 5, Topology::Plain)
            .unwrap()
            .with_lines(Lines::EvenDiagonals);
        let sq = |n: &str| g.parse_square(n).unwrap();
        // a1 (0+0) and e3 (4+2) have diagonals; b1 and e2 do not.
        assert_eq!(g.offset(sq("a1"), 1, 1), Some(sq("b2")));
        assert_eq!(g.offset(sq("e3"), -1, 1), Some(sq("d4")));
        assert_eq!(g.offset(sq("b1"), 1, 1), None);
        assert_eq!(g.offset(sq("e2"), 1, 1), None);
        assert_eq!(g.offset(sq("e2"), 0, 1), Some(sq("e3")));
        let diagonal_points = (0..45u8).filter(|&s| g.has_diagonals(s)).count();
        assert_eq!(diagonal_points, 23);
    }

    #[test]
    fn wrapping() {
        let g = Geometry::new(8, 8, Topology::VCylinder).unwrap();
        let h1 = g.parse_square("h1").unwrap();
        assert_eq!(g.offset(h1, 1, 0), g.parse_square("a1"));
        assert_eq!(g.offset(h1, 0, -1), None);
        let t = Geometry::new(8, 8, Topology::Torus).unwrap();
        assert_eq!(t.offset(h1, 1, -1), t.parse_square("a8"));
        let p = Geometry::new(8, 8, Topology::Plain).unwrap();
        assert_eq!(p.offset(h1, 1, 0), None);
    }

    #[test]
    fn square_set_iterates_in_order() {
        let mut s = SquareSet::EMPTY;
        for sq in [143u8, 0, 64, 63, 128] {
            s.insert(sq);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 128, 143]);
        s.remove(64);
        assert!(!s.contains(64));
        assert_eq!(s.len(), 4);
    }
}
