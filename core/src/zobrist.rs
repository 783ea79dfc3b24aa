//! Zobrist keys, one table per variant, from a fixed seed so that keys are
//! the same in every run (books and logs stay comparable).

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

/// Random keys for piece-on-square, side to move, castling and en passant.
#[derive(Clone, Debug)]
pub struct Zobrist {
    /// `piece[code * squares + sq]`, for every piece code (holes included).
    piece: Vec<u64>,
    squares: usize,
    pub side: u64,
    /// `castle[colour][wing]`.
    pub castle: [[u64; 2]; 2],
    /// En-passant square by file.
    pub ep_file: [u64; 16],
    /// Circe parrain: the captured unit waiting to reappear, by piece code
    /// and capture square (same layout as `piece`).
    pending: Vec<u64>,
    /// Messigny: a square of the last exchange.
    exchanged: Vec<u64>,
}

impl Zobrist {
    pub fn new(kinds: usize, squares: usize, name: &str) -> Self {
        // The seed mixes in the variant name so variants never share keys.
        let mut seed: u64 = 0x6665_7273_2d7a_6f62;
        for b in name.bytes() {
            seed = seed.rotate_left(7) ^ b as u64;
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let codes = 2 * (kinds + 1) + 2;
        let piece = (0..codes * squares).map(|_| rng.next_u64()).collect();
        let side = rng.next_u64();
        let castle = [
            [rng.next_u64(), rng.next_u64()],
            [rng.next_u64(), rng.next_u64()],
        ];
        let mut ep_file = [0; 16];
        for k in ep_file.iter_mut() {
            *k = rng.next_u64();
        }
        let pending = (0..codes * squares).map(|_| rng.next_u64()).collect();
        let exchanged = (0..squares).map(|_| rng.next_u64()).collect();
        Zobrist {
            piece,
            squares,
            side,
            castle,
            ep_file,
            pending,
            exchanged,
        }
    }

    /// Key of a piece code (or the hole code 1) on a square.
    #[inline(always)]
    pub fn piece(&self, code: u8, sq: u8) -> u64 {
        self.piece[code as usize * self.squares + sq as usize]
    }
}

impl Zobrist {
    /// Key of Circe parrain's pending unit (piece code) and its square.
    #[inline]
    pub fn pending(&self, code: u8, sq: u8) -> u64 {
        self.pending[code as usize * self.squares + sq as usize]
    }

    /// Key of a square of Messigny's last exchange.
    #[inline]
    pub fn exchanged(&self, sq: u8) -> u64 {
        self.exchanged[sq as usize]
    }
}
