//! fers books: opening books for every variant.
//!
//! A fers book is keyed by the fers Zobrist key of the variant's position
//! ([`Position::key`]) and stores moves in SPEC notation
//! ([`Position::move_to_uci`]), so that any variant fers plays (built-in or
//! from a variant file, any board size, drops and multi-leg moves) has one.
//!
//! Layout (all numbers little-endian):
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `FERSBOOK` |
//! | 8 | 2 | format version ([`VERSION`]) |
//! | 10 | 2 | length `n` of the variant name |
//! | 12 | 8 | fingerprint: the key of the variant's start position |
//! | 20 | 4 | number of move strings `m` |
//! | 24 | 8 | number of entries `e` |
//! | 32 | 8 | FNV-1a 64 checksum of bytes 8..32 and of every byte from 40 on |
//! | 40 | n | the variant name (UTF-8) |
//! | .. | .. | `m` move strings, each a length byte and its UTF-8 text |
//! | .. | 28·e | the entries, sorted by key, then by weight (largest first) |
//!
//! An entry is the position key (u64), the index of its move string (u32),
//! the move's weight (u32) and the wins, draws and losses (u32 each) of the
//! side that played it. A lookup is a binary search over the entries in the
//! file itself (positioned reads), so an open book holds only its header and
//! move strings in memory, whatever its size. Opening a book checks its
//! length, checksum, key order and move indices in one streaming pass.

use fers_core::variant::Variant;
use fers_core::{Move, Position};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The first eight bytes of every fers book.
pub const MAGIC: &[u8; 8] = b"FERSBOOK";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// Size of the fixed header in bytes.
pub const HEADER_SIZE: u64 = 40;
/// Size of one entry in bytes.
pub const ENTRY_SIZE: u64 = 28;

/// A problem with a fers book or its use.
#[derive(Debug)]
pub enum FersBookError {
    Read {
        file: PathBuf,
        error: io::Error,
    },
    Write {
        file: PathBuf,
        error: io::Error,
    },
    /// The file does not start with [`MAGIC`].
    NotFersBook(PathBuf),
    /// A version this code does not read.
    Version {
        file: PathBuf,
        version: u16,
    },
    /// Shorter (or longer) than its header says.
    Truncated {
        file: PathBuf,
        expected: u64,
        actual: u64,
    },
    /// The content does not match its checksum, or breaks the format.
    Corrupt {
        file: PathBuf,
        why: String,
    },
    /// The book is for another variant.
    WrongVariant {
        file: PathBuf,
        book: String,
        wanted: String,
    },
    /// Same variant name, different start position (another definition).
    Fingerprint {
        file: PathBuf,
        variant: String,
    },
    /// A move string that cannot be stored (empty or over 255 bytes).
    BadMove(String),
}

impl fmt::Display for FersBookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FersBookError::Read { file, error } => {
                write!(f, "cannot read book {}: {error}", file.display())
            }
            FersBookError::Write { file, error } => {
                write!(f, "cannot write book {}: {error}", file.display())
            }
            FersBookError::NotFersBook(file) => {
                write!(
                    f,
                    "{}: not a fers book (no FERSBOOK header)",
                    file.display()
                )
            }
            FersBookError::Version { file, version } => write!(
                f,
                "{}: fers book format version {version}, this fers reads version {VERSION}",
                file.display()
            ),
            FersBookError::Truncated {
                file,
                expected,
                actual,
            } => write!(
                f,
                "{}: truncated fers book ({actual} bytes, the header announces {expected})",
                file.display()
            ),
            FersBookError::Corrupt { file, why } => {
                write!(f, "{}: corrupt fers book: {why}", file.display())
            }
            FersBookError::WrongVariant { file, book, wanted } => write!(
                f,
                "{}: the book is for variant '{book}', not '{wanted}'",
                file.display()
            ),
            FersBookError::Fingerprint { file, variant } => write!(
                f,
                "{}: the book's variant '{variant}' has another start position than the \
                 loaded definition (another variant file, or keys of another fers version)",
                file.display()
            ),
            FersBookError::BadMove(m) => {
                write!(f, "move '{m}' cannot be stored (1 to 255 bytes)")
            }
        }
    }
}

impl std::error::Error for FersBookError {}

/// The fingerprint of a variant: the key of its start position.
pub fn fingerprint(v: &'static Variant) -> u64 {
    Position::startpos(v).key()
}

/// FNV-1a, 64 bits, continued from `h`.
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// One book move of a position, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// SPEC notation.
    pub mv: String,
    pub weight: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// One entry to write: a position key and a book move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntry {
    pub key: u64,
    pub mv: BookMove,
}

/// Writes a fers book for `variant` to `file`. The entries are sorted
/// here; their order does not matter.
pub fn write(
    file: &Path,
    variant: &'static Variant,
    entries: Vec<NewEntry>,
) -> Result<(), FersBookError> {
    let bytes = to_bytes(&variant.name, fingerprint(variant), entries)?;
    let werr = |error| FersBookError::Write {
        file: file.to_path_buf(),
        error,
    };
    let mut f = File::create(file).map_err(werr)?;
    f.write_all(&bytes).map_err(werr)?;
    f.flush().map_err(werr)
}

/// The bytes of a fers book (see the module comment for the layout).
pub fn to_bytes(
    variant: &str,
    fingerprint: u64,
    mut entries: Vec<NewEntry>,
) -> Result<Vec<u8>, FersBookError> {
    entries.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.mv.weight.cmp(&a.mv.weight))
            .then(a.mv.mv.cmp(&b.mv.mv))
    });
    let mut names: Vec<&str> = entries.iter().map(|e| e.mv.mv.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    if let Some(bad) = names.iter().find(|m| m.is_empty() || m.len() > 255) {
        return Err(FersBookError::BadMove(bad.to_string()));
    }
    let name = variant.as_bytes();
    let name_len = u16::try_from(name.len())
        .map_err(|_| FersBookError::BadMove(format!("variant name {variant}")))?;
    let mut body = Vec::with_capacity(name.len() + entries.len() * ENTRY_SIZE as usize);
    body.extend_from_slice(name);
    for m in &names {
        body.push(m.len() as u8);
        body.extend_from_slice(m.as_bytes());
    }
    for e in &entries {
        let index = names.binary_search(&e.mv.mv.as_str()).unwrap_or(0) as u32;
        body.extend_from_slice(&e.key.to_le_bytes());
        body.extend_from_slice(&index.to_le_bytes());
        for n in [e.mv.weight, e.mv.wins, e.mv.draws, e.mv.losses] {
            body.extend_from_slice(&n.to_le_bytes());
        }
    }
    let mut out = Vec::with_capacity(HEADER_SIZE as usize + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&name_len.to_le_bytes());
    out.extend_from_slice(&fingerprint.to_le_bytes());
    out.extend_from_slice(&(names.len() as u32).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    let checksum = fnv1a(fnv1a(FNV_OFFSET, &out[8..32]), &body);
    out.extend_from_slice(&checksum.to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

/// An open fers book: its header and move strings in memory, the entries
/// read from the file on each lookup.
#[derive(Debug)]
pub struct FersBook {
    path: PathBuf,
    file: File,
    variant: String,
    fingerprint: u64,
    moves: Vec<String>,
    entries: u64,
    entries_offset: u64,
    /// Every `stride`-th key (at most [`INDEX_KEYS`] of them, so a fixed
    /// amount of memory whatever the book's size): a lookup searches these,
    /// then reads one block of at most `stride` entries.
    index: Vec<u64>,
    stride: u64,
}

/// Most keys of the in-memory sample index (256 KB at most, whatever the
/// book's size; a 2-million-entry book reads 62 entries a lookup).
pub const INDEX_KEYS: u64 = 32768;
/// Most entries a lookup reads at once (about 56 KB); larger ranges are
/// narrowed by reading single entries first.
const BLOCK_ENTRIES: u64 = 2048;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(x)
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// A raw entry of the file.
#[derive(Clone, Copy)]
struct RawEntry {
    key: u64,
    index: u32,
    numbers: [u32; 4],
}

fn parse_entry(b: &[u8]) -> RawEntry {
    RawEntry {
        key: u64_at(b, 0),
        index: u32_at(b, 8),
        numbers: [u32_at(b, 12), u32_at(b, 16), u32_at(b, 20), u32_at(b, 24)],
    }
}

impl FersBook {
    /// Opens and checks a fers book (length, checksum, key order, move
    /// indices), reading it once from start to end in constant memory.
    pub fn open(path: &Path) -> Result<FersBook, FersBookError> {
        FersBook::open_indexed(path, INDEX_KEYS)
    }

    /// [`FersBook::open`] with at most `index_keys` sampled keys.
    fn open_indexed(path: &Path, index_keys: u64) -> Result<FersBook, FersBookError> {
        let rerr = |error| FersBookError::Read {
            file: path.to_path_buf(),
            error,
        };
        let corrupt = |why: String| FersBookError::Corrupt {
            file: path.to_path_buf(),
            why,
        };
        let file = File::open(path).map_err(rerr)?;
        let actual = file.metadata().map_err(rerr)?.len();
        let mut r = BufReader::with_capacity(1 << 16, file.try_clone().map_err(rerr)?);
        let mut header = [0u8; HEADER_SIZE as usize];
        let got = read_up_to(&mut r, &mut header).map_err(rerr)?;
        if got < MAGIC.len() || &header[..8] != MAGIC {
            return Err(FersBookError::NotFersBook(path.to_path_buf()));
        }
        if got < header.len() {
            return Err(FersBookError::Truncated {
                file: path.to_path_buf(),
                expected: HEADER_SIZE,
                actual,
            });
        }
        let version = u16_at(&header, 8);
        if version != VERSION {
            return Err(FersBookError::Version {
                file: path.to_path_buf(),
                version,
            });
        }
        let name_len = u16_at(&header, 10) as u64;
        let fingerprint = u64_at(&header, 12);
        let move_count = u32_at(&header, 20);
        let entries = u64_at(&header, 24);
        let checksum = u64_at(&header, 32);
        let truncated = |expected| FersBookError::Truncated {
            file: path.to_path_buf(),
            expected,
            actual,
        };
        // The smallest file the header allows (move strings of one byte).
        let least = HEADER_SIZE
            .saturating_add(name_len)
            .saturating_add(2 * u64::from(move_count))
            .saturating_add(entries.saturating_mul(ENTRY_SIZE));
        if actual < least {
            return Err(truncated(least));
        }
        let mut hash = fnv1a(FNV_OFFSET, &header[8..32]);
        let mut name = vec![0u8; name_len as usize];
        r.read_exact(&mut name).map_err(rerr)?;
        hash = fnv1a(hash, &name);
        let variant =
            String::from_utf8(name).map_err(|_| corrupt("the variant name is not UTF-8".into()))?;
        let mut moves = Vec::with_capacity(move_count.min(1 << 20) as usize);
        let mut offset = HEADER_SIZE + name_len;
        for i in 0..move_count {
            let mut len = [0u8; 1];
            r.read_exact(&mut len).map_err(|_| truncated(least))?;
            let mut text = vec![0u8; len[0] as usize];
            r.read_exact(&mut text).map_err(|_| truncated(least))?;
            hash = fnv1a(fnv1a(hash, &len), &text);
            offset += 1 + u64::from(len[0]);
            let text = String::from_utf8(text)
                .map_err(|_| corrupt(format!("move string {i} is not UTF-8")))?;
            moves.push(text);
        }
        let entries_offset = offset;
        let expected = entries_offset.saturating_add(entries.saturating_mul(ENTRY_SIZE));
        if actual != expected {
            return Err(if actual < expected {
                truncated(expected)
            } else {
                corrupt(format!(
                    "{} bytes after the last entry",
                    actual.saturating_sub(expected)
                ))
            });
        }
        let stride = entries.div_ceil(index_keys.max(1)).max(1);
        let mut sample = Vec::with_capacity(entries.div_ceil(stride) as usize);
        let mut buf = vec![0u8; ENTRY_SIZE as usize * 2048];
        let mut left = entries;
        let mut last = 0u64;
        let mut index = 0u64;
        while left > 0 {
            let n = left.min(2048) as usize;
            let chunk = &mut buf[..n * ENTRY_SIZE as usize];
            r.read_exact(chunk).map_err(rerr)?;
            hash = fnv1a(hash, chunk);
            for b in chunk.chunks_exact(ENTRY_SIZE as usize) {
                let e = parse_entry(b);
                if e.key < last {
                    return Err(corrupt(format!("entry {index} is out of key order")));
                }
                if e.index >= move_count {
                    return Err(corrupt(format!(
                        "entry {index} names move {} of {move_count}",
                        e.index
                    )));
                }
                if index.is_multiple_of(stride) {
                    sample.push(e.key);
                }
                last = e.key;
                index += 1;
            }
            left -= n as u64;
        }
        if hash != checksum {
            return Err(corrupt("the checksum does not match the content".into()));
        }
        Ok(FersBook {
            path: path.to_path_buf(),
            file,
            variant,
            fingerprint,
            moves,
            entries,
            entries_offset,
            index: sample,
            stride,
        })
    }

    /// The variant the book was built for.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of entries (position and move pairs).
    pub fn len(&self) -> u64 {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Bytes the open book holds in memory besides the `File`: the move
    /// strings and the variant name.
    pub fn heap_bytes(&self) -> usize {
        self.variant.capacity()
            + self.index.capacity() * 8
            + self.moves.capacity() * std::mem::size_of::<String>()
            + self.moves.iter().map(String::capacity).sum::<usize>()
    }

    /// Refuses a book built for another variant (by name, and by start
    /// position for same-named definitions that differ).
    pub fn check_variant(&self, v: &'static Variant) -> Result<(), FersBookError> {
        if self.variant != v.name {
            return Err(FersBookError::WrongVariant {
                file: self.path.clone(),
                book: self.variant.clone(),
                wanted: v.name.clone(),
            });
        }
        if self.fingerprint != fingerprint(v) {
            return Err(FersBookError::Fingerprint {
                file: self.path.clone(),
                variant: self.variant.clone(),
            });
        }
        Ok(())
    }

    fn entry(&self, i: u64) -> Result<RawEntry, FersBookError> {
        let mut b = [0u8; ENTRY_SIZE as usize];
        read_exact_at(&self.file, &mut b, self.entries_offset + i * ENTRY_SIZE).map_err(
            |error| FersBookError::Read {
                file: self.path.clone(),
                error,
            },
        )?;
        Ok(parse_entry(&b))
    }

    /// The stored moves of a key, largest weight first.
    pub fn lookup(&self, key: u64) -> Result<Vec<BookMove>, FersBookError> {
        // The first entry with this key lies in (lo, hi]: sample j - 1 is
        // below the key, sample j (if any) is not.
        let j = self.index.partition_point(|&k| k < key) as u64;
        let mut lo = if j == 0 { 0 } else { (j - 1) * self.stride + 1 };
        let mut hi = (j * self.stride).min(self.entries);
        while hi - lo > BLOCK_ENTRIES {
            let mid = lo + (hi - lo) / 2;
            if self.entry(mid)?.key < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        // One read: the range and a few entries past it.
        let end = (hi + 8).min(self.entries);
        let mut block = vec![0u8; ((end - lo) * ENTRY_SIZE) as usize];
        read_exact_at(
            &self.file,
            &mut block,
            self.entries_offset + lo * ENTRY_SIZE,
        )
        .map_err(|error| FersBookError::Read {
            file: self.path.clone(),
            error,
        })?;
        let mut out = Vec::new();
        let mut i = lo;
        for b in block.chunks_exact(ENTRY_SIZE as usize) {
            let e = parse_entry(b);
            i += 1;
            if e.key < key {
                continue;
            }
            if e.key > key {
                return Ok(out);
            }
            out.push(self.book_move(e));
        }
        // The key's run goes on past the block.
        while i < self.entries {
            let e = self.entry(i)?;
            if e.key != key {
                break;
            }
            out.push(self.book_move(e));
            i += 1;
        }
        Ok(out)
    }

    fn book_move(&self, e: RawEntry) -> BookMove {
        let [weight, wins, draws, losses] = e.numbers;
        BookMove {
            mv: self.moves[e.index as usize].clone(),
            weight,
            wins,
            draws,
            losses,
        }
    }

    /// The book's legal moves in a position with their stored data (moves
    /// that are not legal here, such as key collisions, are skipped). The
    /// variant is checked first.
    pub fn moves(&self, pos: &Position) -> Result<Vec<(Move, BookMove)>, FersBookError> {
        self.check_variant(pos.variant())?;
        let stored = self.lookup(pos.key())?;
        if stored.is_empty() {
            return Ok(Vec::new());
        }
        Ok(stored
            .into_iter()
            .filter_map(|b| pos.parse_move(&b.mv).ok().map(|m| (m, b)))
            .collect())
    }

    /// A random exit: from the variant's start position, book moves chosen
    /// with probability proportional to their weight, for at most `plies`
    /// plies or until the book has no (positively weighted) move. Moves
    /// after which the side to move has no legal move are not chosen.
    pub fn random_exit<R: rand::Rng>(
        &self,
        variant: &'static Variant,
        plies: usize,
        rng: &mut R,
    ) -> Result<Position, FersBookError> {
        self.check_variant(variant)?;
        let mut pos = Position::startpos(variant);
        let mut list = fers_core::MoveList::new();
        for _ in 0..plies {
            let options: Vec<(Move, u32)> = self
                .moves(&pos)?
                .into_iter()
                .filter(|(m, b)| {
                    let mut next = pos.clone();
                    next.play(*m);
                    next.legal_moves(&mut list);
                    b.weight > 0 && !list.is_empty()
                })
                .map(|(m, b)| (m, b.weight))
                .collect();
            match crate::any::choose(&options, crate::any::Variety::Weighted, rng) {
                Some(m) => pos.play(m),
                None => break,
            }
        }
        Ok(pos)
    }

    /// Every entry in key order, read in one streaming pass (for dumps).
    pub fn for_each(&self, mut f: impl FnMut(u64, BookMove)) -> Result<(), FersBookError> {
        for i in 0..self.entries {
            let e = self.entry(i)?;
            let [weight, wins, draws, losses] = e.numbers;
            f(
                e.key,
                BookMove {
                    mv: self.moves[e.index as usize].clone(),
                    weight,
                    wins,
                    draws,
                    losses,
                },
            );
        }
        Ok(())
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Whether these first bytes of a file are a fers book's.
pub fn is_fers_book(first: &[u8]) -> bool {
    first.starts_with(MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    fn bm(mv: &str, weight: u32) -> BookMove {
        BookMove {
            mv: mv.into(),
            weight,
            wins: weight,
            draws: 1,
            losses: 2,
        }
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("fers-book-{}-{name}", std::process::id()))
    }

    fn sample(name: &str) -> (PathBuf, Vec<u8>) {
        let v = variant::chess();
        let start = Position::startpos(v);
        let mut e4 = start.clone();
        e4.play(start.parse_move("e2e4").unwrap());
        let entries = vec![
            NewEntry {
                key: start.key(),
                mv: bm("d2d4", 3),
            },
            NewEntry {
                key: e4.key(),
                mv: bm("e7e5", 1),
            },
            NewEntry {
                key: start.key(),
                mv: bm("e2e4", 7),
            },
        ];
        let bytes = to_bytes(&v.name, fingerprint(v), entries).unwrap();
        let p = temp(name);
        std::fs::write(&p, &bytes).unwrap();
        (p, bytes)
    }

    #[test]
    fn written_book_reads_back() {
        let (p, _) = sample("read.fbk");
        let book = FersBook::open(&p).unwrap();
        assert_eq!(book.variant(), "chess");
        assert_eq!(book.len(), 3);
        let start = Position::startpos(variant::chess());
        let got = book.lookup(start.key()).unwrap();
        assert_eq!(got, vec![bm("e2e4", 7), bm("d2d4", 3)]);
        let legal = book.moves(&start).unwrap();
        assert_eq!(start.move_to_uci(legal[0].0), "e2e4");
        assert!(book.lookup(12345).unwrap().is_empty());
        let mut n = 0;
        book.for_each(|_, _| n += 1).unwrap();
        assert_eq!(n, 3);
        let _ = std::fs::remove_file(p);
    }

    #[test]
    fn damaged_books_are_refused() {
        let (p, bytes) = sample("damaged.fbk");
        // Every proper prefix is refused, never read as a smaller book.
        for cut in 0..bytes.len() {
            std::fs::write(&p, &bytes[..cut]).unwrap();
            let e = FersBook::open(&p).unwrap_err();
            assert!(
                matches!(
                    e,
                    FersBookError::Truncated { .. } | FersBookError::NotFersBook(_)
                ),
                "{cut}: {e}"
            );
        }
        // Every flipped byte after the magic is refused.
        for at in 8..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            std::fs::write(&p, &b).unwrap();
            assert!(
                FersBook::open(&p).is_err(),
                "byte {at} flipped was accepted"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        std::fs::write(&p, &long).unwrap();
        assert!(matches!(
            FersBook::open(&p),
            Err(FersBookError::Corrupt { .. })
        ));
        let _ = std::fs::remove_file(&p);
        assert!(matches!(
            FersBook::open(&p),
            Err(FersBookError::Read { .. })
        ));
    }

    #[test]
    fn other_variants_are_refused() {
        let (p, _) = sample("variants.fbk");
        let book = FersBook::open(&p).unwrap();
        let text = "[nightrider-chess:chess]\npiece.n = nightrider\n";
        let sections = fers_core::variant_file::load("t.ini", text, &|_| None);
        let v = sections[0].result.as_ref().unwrap();
        let e = book.moves(&Position::startpos(v)).unwrap_err();
        assert!(e.to_string().contains("not 'nightrider-chess'"), "{e}");
        // Same name, another start position.
        let text =
            "[chess:chess]\nstart = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1\n";
        let sections = fers_core::variant_file::load("t.ini", text, &|_| None);
        if let Ok(v) = sections[0].result.as_ref() {
            let e = book.check_variant(v).unwrap_err();
            assert!(matches!(e, FersBookError::Fingerprint { .. }), "{e}");
        }
        let _ = std::fs::remove_file(p);
    }

    #[test]
    fn lookups_in_a_large_book_match_a_linear_scan() {
        // 30000 keys, some with runs of many moves, so that the sample
        // index, the narrowing reads and runs past a block are all used.
        let mut entries = Vec::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..30_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let key = x % 50_000;
            let n = if i % 1000 == 0 { 40 } else { 1 + i % 3 };
            for j in 0..n {
                entries.push(NewEntry {
                    key,
                    mv: bm(&format!("m{}", j % 7), (i + j) as u32),
                });
            }
        }
        let bytes = to_bytes("chess", 0, entries.clone()).unwrap();
        let p = temp("large.fbk");
        std::fs::write(&p, &bytes).unwrap();
        let book = FersBook::open(&p).unwrap();
        assert!(book.stride > 1);
        // Four samples: ranges above a block, narrowed by single reads.
        let sparse = FersBook::open_indexed(&p, 4).unwrap();
        assert!(sparse.stride > BLOCK_ENTRIES);
        let mut by_key: std::collections::BTreeMap<u64, usize> = Default::default();
        for e in &entries {
            *by_key.entry(e.key).or_default() += 1;
        }
        for key in 0..50_001u64 {
            let want = by_key.get(&key).copied().unwrap_or(0);
            let got = book.lookup(key).unwrap();
            assert_eq!(got.len(), want, "key {key}");
            assert_eq!(sparse.lookup(key).unwrap(), got, "key {key}");
            assert!(got.windows(2).all(|w| w[0].weight >= w[1].weight));
        }
        let _ = std::fs::remove_file(p);
    }

    #[test]
    fn unstorable_moves() {
        let long = "a".repeat(256);
        let e = to_bytes(
            "chess",
            0,
            vec![NewEntry {
                key: 1,
                mv: bm(&long, 1),
            }],
        )
        .unwrap_err();
        assert!(matches!(e, FersBookError::BadMove(_)));
    }
}
