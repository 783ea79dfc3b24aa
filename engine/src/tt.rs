//! Transposition table shared by all search threads.
//!
//! Entries are two `AtomicU64`s: `check = key ^ data` and `data`. A reader
//! accepts an entry only when `check ^ data == key`, so an entry torn by a
//! concurrent writer (one word old, one new) fails the test and reads as a
//! miss: no lock, no torn data. Entries live in buckets of four (64 bytes, one
//! cache line); the bucket is chosen from the key's high bits.

use fers_core::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Bound type of a stored score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    None = 0,
    /// Score is an upper bound (fail low).
    Upper = 1,
    /// Score is a lower bound (fail high).
    Lower = 2,
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored bound settles a node searched with the window
    /// (`alpha`, `beta`): an exact score, a lower bound at or above beta,
    /// an upper bound at or below alpha.
    #[inline]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
            Bound::None => false,
        }
    }
}

const BUCKET: usize = 4;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

// Check word: `(key ^ data)` in bits 16..64, the static evaluation (i16) in
// bits 0..16. A reader compares the high 48 bits with `key ^ data`; a torn
// entry fails that test unless both words agree on the key, in which case
// the evaluation belongs to that key as well.
//
// Data word layout:
//   bits  0..24  move low 24 bits (from, to, promotion)
//   bits 24..28  move flag
//   bits 28..30  bound
//   bits 30..32  unused
//   bits 32..48  score (i16)
//   bits 48..56  depth (i8)
//   bits 56..64  generation

/// The evaluation field of an entry without one (a node in check).
pub const NO_EVAL: i32 = i16::MIN as i32;
const KEY_MASK: u64 = !0xFFFF;

#[inline]
fn matches(check: u64, data: u64, key: u64) -> bool {
    (check ^ data ^ key) & KEY_MASK == 0 && data != 0
}

/// The table.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    buckets: u64,
    generation: AtomicU8,
}

#[inline]
fn pack(mv: Move, score: i32, depth: i32, bound: Bound, gen: u8) -> u64 {
    (mv.head() as u64)
        | (bound as u64) << 28
        | ((score as i16 as u16) as u64) << 32
        | ((depth.clamp(-128, 127) as i8 as u8) as u64) << 48
        | (gen as u64) << 56
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Panics if the
    /// memory cannot be had; see [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).expect("transposition table memory")
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot
    /// be allocated. The memory comes zeroed from the allocator (an all-zero
    /// slot is an empty entry), so pages are only touched when used.
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let bytes = mb
            .max(1)
            .checked_mul(1024 * 1024)
            .ok_or("hash size overflows")?;
        let n_buckets = (bytes / (BUCKET * 16)).max(1);
        let n = n_buckets * BUCKET;
        let layout = std::alloc::Layout::array::<Slot>(n).map_err(|e| e.to_string())?;
        // SAFETY: the layout is non-zero-sized; a zeroed `Slot` is two zero
        // atomics, a valid value; the box takes ownership of exactly the
        // allocation made with this layout.
        let slots = unsafe {
            let p = std::alloc::alloc_zeroed(layout) as *mut Slot;
            if p.is_null() {
                return Err(format!("cannot allocate {mb} MB for the hash table"));
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
        };
        Ok(TranspositionTable {
            slots,
            buckets: n_buckets as u64,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in MB as created.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * 16 / (1024 * 1024)
    }

    /// Empties every entry.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become replaceable.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Hint to the CPU that `key`'s bucket will be read soon.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.slots.as_ptr().add(self.bucket(key)) as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up. Mate scores come back relative to the root of
    /// the probe (`ply` plies from the search root).
    #[inline]
    pub fn probe(&self, key: u64, ply: i32) -> Option<TtEntry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + BUCKET] {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if matches(check, data, key) {
                let bound = match (data >> 28) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => Bound::None,
                };
                let score = (data >> 32) as u16 as i16 as i32;
                return Some(TtEntry {
                    mv: Move::from_head((data & 0x0FFF_FFFF) as u32),
                    score: crate::search::score_from_tt(score, ply),
                    eval: check as u16 as i16 as i32,
                    depth: (data >> 48) as u8 as i8 as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result with the node's static evaluation (or [`NO_EVAL`]).
    /// Keeps the old move when the new one is none.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: i32,
        eval: i32,
    ) {
        let gen = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let bucket = &self.slots[b..b + BUCKET];
        // Same key, else the least valuable entry (shallow and old).
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data == 0 || matches(check, data, key) {
                victim = i;
                if data != 0 {
                    // Keep a deeper exact entry of the same search.
                    let old_depth = (data >> 48) as u8 as i8 as i32;
                    let old_gen = (data >> 56) as u8;
                    if bound != Bound::Exact && old_gen == gen && old_depth > depth + 3 {
                        return;
                    }
                }
                break;
            }
            let d = (data >> 48) as u8 as i8 as i32;
            let age = gen.wrapping_sub((data >> 56) as u8) as i32;
            let value = d - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let s = &bucket[victim];
        let mut mv = mv;
        if mv.is_none() {
            let data = s.data.load(Ordering::Relaxed);
            if matches(s.check.load(Ordering::Relaxed), data, key) {
                mv = Move::from_head((data & 0x0FFF_FFFF) as u32);
            }
        }
        let data = pack(
            mv,
            crate::search::score_to_tt(score, ply),
            depth,
            bound,
            gen,
        );
        s.data.store(data, Ordering::Relaxed);
        let ev = eval.clamp(NO_EVAL, i16::MAX as i32) as i16 as u16 as u64;
        s.check
            .store(((key ^ data) & KEY_MASK) | ev, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 56) as u8 == gen
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::MoveFlag;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(12, 28, MoveFlag::DoubleStep);
        tt.store(0xDEAD_BEEF_1234_5678, m, -321, 7, Bound::Lower, 0, -45);
        let e = tt.probe(0xDEAD_BEEF_1234_5678, 0).unwrap();
        assert_eq!(e.eval, -45);
        assert_eq!(e.mv, m);
        assert_eq!(e.score, -321);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0x1111, 0).is_none());
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678, 0).is_none());
    }

    #[test]
    fn promotion_moves_survive() {
        let tt = TranspositionTable::new(1);
        let m = Move::with_promotion(52, 60, 4);
        tt.store(42, m, 5, 1, Bound::Exact, 0, NO_EVAL);
        assert_eq!(tt.probe(42, 0).unwrap().eval, NO_EVAL);
        assert_eq!(tt.probe(42, 0).unwrap().mv, m);
    }
}
