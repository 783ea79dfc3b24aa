//! The learned evaluation: a small NNUE-style network for any variant.
//!
//! Inputs per perspective: one per (colour relative to the perspective,
//! piece kind, square), the squares mirrored top to bottom for Black, so a
//! variant with `K` kinds on `S` squares has `2 K S` inputs (12x12 and 30
//! kinds: 8640). They feed the file's number of hidden units (any
//! multiple of [`HIDDEN_STEP`] up to [`MAX_HIDDEN`]; [`HIDDEN`] in the
//! shipped networks), shared by both perspectives; squared clipped ReLU;
//! one output from the side to move's half and the other side's. Weights are integers (feature layer scaled by [`QA`],
//! output by [`QB`]) trained by `fers-nnue` (tools).
//!
//! A network file says what it was trained for ([`NetId`]: the variant's
//! name, board size, number of kinds and a hash of the piece definitions),
//! and [`NnueMap::with_network`] refuses a network for another variant or
//! piece set. Orthodox chess embeds its network (`engine/nets/chess.nnue`,
//! the older `FERSNN01` format, whose six roles are mapped onto the
//! variant's kinds); `EvalFile` loads one for the variant being played.
//! Where no network fits, `evaluate.rs` evaluates by hand.
//!
//! The search keeps one accumulator per ply ([`NnueStack`]) with the board
//! it was computed for. A new evaluation starts from whichever of the
//! current and the parent ply's accumulators differs from the position in
//! fewest squares and adds and removes those pieces: no make/unmake hook,
//! and a stale accumulator (from a sibling subtree) is still exact, only
//! further away. The same code serves every variant and network.

use std::sync::{Arc, OnceLock};

use fers_core::geometry::MAX_SQUARES;
use fers_core::variant::MAX_KINDS;
use fers_core::{Color, Position, Variant};

/// Hidden units per perspective of the embedded chess network, and of
/// the networks `fers-nnue` makes unless told otherwise.
pub const HIDDEN: usize = 256;
/// The widest network read: hidden units per perspective, a multiple of
/// [`HIDDEN_STEP`] up to this.
pub const MAX_HIDDEN: usize = 1024;
/// Hidden layer widths are multiples of this (whole SIMD blocks).
pub const HIDDEN_STEP: usize = 32;
/// Inputs of the chess network (`FERSNN01`): 2 x 6 roles x 64 squares.
const CHESS_INPUTS: usize = 768;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Output scale: the network's unit is `SCALE` centipawns.
pub const SCALE: i32 = 400;
/// No piece on a square, in the snapshot boards (a piece is
/// `colour << 7 | kind`, and kinds are fewer than 127).
const EMPTY: u8 = 255;
/// Beyond this many changed squares a fresh sum is cheaper.
const MAX_DIFF: usize = 12;
/// The magic of the general format.
pub const MAGIC: &[u8; 8] = b"FERSNN02";
/// Header flag of a residual network: its output is added to the
/// hand-written evaluation, weighted by an i32 after the output bias
/// ([`Network::residual`]).
pub const FLAG_RESIDUAL: u8 = 1;
/// The unit of a residual network's weight of the hand-written score.
pub const HAND_UNIT: i32 = 1024;
/// Header flag of a network with output buckets ([`Buckets`]): two bytes
/// after the name give their count and the units per bucket, and the
/// output weights and bias come once per bucket.
pub const FLAG_BUCKETS: u8 = 2;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: u8 = 16;
/// Header flag of a network with king buckets ([`KingBuckets`]): after
/// the output buckets' bytes, their count and one bucket per square.
pub const FLAG_KING_BUCKETS: u8 = 4;
/// The most king buckets a file may have.
pub const MAX_KING_BUCKETS: u8 = 16;

/// King buckets: one set of feature weights per region of the board
/// where a perspective's own royal piece stands (Stockfish's HalfKA does
/// it per square), so that what a piece is worth can depend on where the
/// king it attacks or shelters is. `table` gives each network square, as
/// the perspective sees it (mirrored top to bottom for Black), its
/// bucket; a perspective without a royal piece reads bucket 0. A king
/// move across regions refreshes the accumulators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    pub count: u8,
    /// Per relative network square (`rank * files + file`), its bucket;
    /// empty for one bucket.
    pub table: Vec<u8>,
}

impl KingBuckets {
    /// One set of weights (every network before king buckets).
    pub fn one() -> KingBuckets {
        KingBuckets {
            count: 1,
            table: Vec::new(),
        }
    }

    /// `regions` file regions (the files shared evenly, the wings as wide
    /// as the centre or wider) times two rank regions (the own first
    /// rank, the rest): 6 for `regions` 3. `None` for 0 regions or more
    /// than the board's files.
    pub fn by_region(files: u8, ranks: u8, regions: u8) -> Option<KingBuckets> {
        if regions == 0 || regions > files || 2 * regions > MAX_KING_BUCKETS {
            return None;
        }
        let (f, r) = (files as usize, regions as usize);
        let table = (0..f * ranks as usize)
            .map(|sq| {
                let (file, rank) = (sq % f, sq / f);
                // Regions of the files, the middle ones no wider than the
                // outer ones: a..c, d..g, h..j on ten files.
                let region = (file * r + r / 2) / f;
                (region.min(r - 1) + r * (rank > 0) as usize) as u8
            })
            .collect();
        Some(KingBuckets {
            count: 2 * regions,
            table,
        })
    }
}

/// Output buckets: one output layer per range of the number of units on
/// the board (`(units - 1) / per`, the last bucket taking the rest), so
/// the network weighs its hidden features differently in the opening, the
/// middlegame and the endgame (Stockfish's networks do the same by piece
/// count). The accumulators are shared; only the output changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buckets {
    pub count: u8,
    /// Units per bucket.
    pub per: u8,
}

impl Buckets {
    /// A single output layer (every network before buckets).
    pub const ONE: Buckets = Buckets { count: 1, per: 255 };

    /// `count` buckets sharing the `units` a start position has evenly
    /// (rounded up); `None` for a count of 0 or above [`MAX_BUCKETS`].
    pub fn even(count: u8, units: usize) -> Option<Buckets> {
        if count == 0 || count > MAX_BUCKETS {
            return None;
        }
        let per = units.div_ceil(count as usize).clamp(1, 255) as u8;
        Some(Buckets { count, per })
    }

    /// The bucket of a board with `units` units on it.
    #[inline]
    pub fn of(self, units: usize) -> usize {
        (units.saturating_sub(1) / self.per as usize).min(self.count as usize - 1)
    }
}

static NET_BYTES: &[u8] = include_bytes!("../nets/chess.nnue");

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    BadMagic,
    WrongHidden(u32),
    WrongSize {
        expected: usize,
        found: usize,
    },
    /// The header is malformed (a board or a kind count out of range, a
    /// name that is not UTF-8).
    BadHeader(String),
    /// [`Network::transfer`] cannot map the network onto the variant (another
    /// board, or a kind list that does not fit).
    Transfer(String),
    /// [`Network::blended`] cannot blend it (a residual network, a share
    /// outside 0..1).
    Blend(String),
    /// The network was trained for another variant or piece set.
    Mismatch {
        network: NetId,
        variant: NetId,
    },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a fers network (bad magic)"),
            NetError::WrongHidden(h) => write!(
                f,
                "network has {h} hidden units; a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN} is read"
            ),
            NetError::WrongSize { expected, found } => {
                write!(f, "network file has {found} bytes, expected {expected}")
            }
            NetError::BadHeader(why) => write!(f, "bad network header: {why}"),
            NetError::Transfer(why) => write!(f, "cannot transfer the network: {why}"),
            NetError::Blend(why) => write!(f, "cannot blend the network: {why}"),
            NetError::Mismatch { network, variant } => {
                write!(f, "the network is for {network}, not for {variant}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// What a network was trained for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetId {
    /// The variant's name (`UCI_Variant`).
    pub variant: String,
    pub files: u8,
    pub ranks: u8,
    pub kinds: u8,
    /// FNV-1a of the board size and of each kind's letter, movement and
    /// royalty, in the variant's kind order (see [`NetId::of`]).
    pub pieces: u64,
}

impl std::fmt::Display for NetId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "'{}' ({}x{}, {} kinds, piece set {:016x})",
            self.variant, self.files, self.ranks, self.kinds, self.pieces
        )
    }
}

impl NetId {
    /// The identity of `v`: its name, board, and a hash of the text
    /// `FxR;` followed by `letter=movement;` per kind (`!` after a royal
    /// kind's movement), e.g. `8x8;p=pawn;n=leaper(1,2);...;k=...!;`.
    pub fn of(v: &Variant) -> NetId {
        let g = &v.geometry;
        let mut text = format!("{}x{};", g.files, g.ranks);
        for p in &v.pieces {
            text += &format!(
                "{}={}{};",
                p.letter,
                p.movement,
                if p.royal { "!" } else { "" }
            );
        }
        NetId {
            variant: v.name.clone(),
            files: g.files,
            ranks: g.ranks,
            kinds: v.pieces.len() as u8,
            pieces: fnv1a(text.as_bytes()),
        }
    }

    fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Inputs per perspective: 2 colours x kinds x squares.
    pub fn inputs(&self) -> usize {
        2 * self.kinds as usize * self.squares()
    }

    /// The header of the general format: the magic, then little-endian
    /// u32 hidden units, u8 files, ranks, kinds, flags, u64 piece hash,
    /// u16 name length and the name in UTF-8, then with more than one
    /// output bucket (flag [`FLAG_BUCKETS`]) their count and units per
    /// bucket as two u8, then with more than one king bucket (flag
    /// [`FLAG_KING_BUCKETS`]) their count as u8 and one u8 per square.
    /// `residual`: flag [`FLAG_RESIDUAL`].
    pub fn header(
        &self,
        hidden: usize,
        residual: bool,
        buckets: Buckets,
        kings: &KingBuckets,
    ) -> Vec<u8> {
        let bucketed = buckets.count > 1;
        let kinged = kings.count > 1;
        let flags = if residual { FLAG_RESIDUAL } else { 0 }
            | if bucketed { FLAG_BUCKETS } else { 0 }
            | if kinged { FLAG_KING_BUCKETS } else { 0 };
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&(hidden as u32).to_le_bytes());
        b.extend_from_slice(&[self.files, self.ranks, self.kinds, flags]);
        b.extend_from_slice(&self.pieces.to_le_bytes());
        b.extend_from_slice(&(self.variant.len() as u16).to_le_bytes());
        b.extend_from_slice(self.variant.as_bytes());
        if bucketed {
            b.extend_from_slice(&[buckets.count, buckets.per]);
        }
        if kinged {
            b.push(kings.count);
            b.extend_from_slice(&kings.table);
        }
        b
    }
}

/// Per square (`rank * files + file`), the square mirrored top to bottom.
fn mirror_table(id: &NetId) -> Vec<u8> {
    let (files, ranks) = (id.files as usize, id.ranks as usize);
    (0..files * ranks)
        .map(|s| ((ranks - 1 - s / files) * files + s % files) as u8)
        .collect()
}

/// The square map of [`Network::transfer`] from a board of `from`'s size
/// onto one of `to`'s: each of `to`'s files and ranks reads the nearest
/// one at the same fraction of `from`'s (the identity on the same board;
/// Capablanca's files a..j read chess's a b c c d e f f g h, so its king,
/// queen, bishops, knights and rooks stand where chess's do).
pub fn stretched_squares(from: &NetId, to: &NetId) -> Vec<usize> {
    let stretch = |i: usize, n_to: u8, n_from: u8| {
        let (n_to, n_from) = (n_to as usize, n_from as usize);
        if n_to <= 1 {
            0
        } else {
            // Round to nearest, ties up: i (n_from - 1) / (n_to - 1).
            (2 * i * (n_from - 1) + n_to - 1) / (2 * (n_to - 1))
        }
    };
    (0..to.squares())
        .map(|s| {
            let (file, rank) = (s % to.files as usize, s / to.files as usize);
            stretch(rank, to.ranks, from.ranks) * from.files as usize
                + stretch(file, to.files, from.files)
        })
        .collect()
}

/// Whether the engine reads networks of `hidden` units per perspective:
/// a multiple of [`HIDDEN_STEP`] up to [`MAX_HIDDEN`].
#[allow(clippy::manual_is_multiple_of)] // `is_multiple_of` is newer than the MSRV
pub fn readable_width(hidden: usize) -> bool {
    hidden > 0 && hidden <= MAX_HIDDEN && hidden % HIDDEN_STEP == 0
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The network's integer weights.
#[derive(Clone)]
pub struct Network {
    /// What it was trained for (the chess network: `chess`, 8x8, its six
    /// roles in the order pawn, knight, bishop, rook, queen, king).
    pub id: NetId,
    /// Kinds and squares of the inputs; inputs per king bucket.
    kinds: usize,
    squares: usize,
    inputs: usize,
    /// The feature weights' sets by the own king's square.
    kings: KingBuckets,
    /// Per square, the square mirrored top to bottom (Black's view).
    mirror: Vec<u8>,
    /// Hidden units per perspective (the width of every row below).
    hidden: usize,
    /// Feature weights, one row of `hidden` per input and king bucket
    /// (bucket-major).
    ft_w: Vec<i16>,
    ft_b: Vec<i16>,
    /// Output layers, one per bucket.
    buckets: Buckets,
    /// Output weights per bucket: side to move's half, then the other's
    /// (`2 hidden` each).
    out_w: Vec<i16>,
    /// Every output weight is within `i8`: a clipped activation times a
    /// weight fits in `i16`, so the output takes the 16-bit SIMD path.
    small_out: bool,
    /// Output bias per bucket.
    out_b: Vec<i32>,
    /// A residual network (header flag [`FLAG_RESIDUAL`]): the weight, in
    /// units of [`HAND_UNIT`], of the hand-written evaluation its output is
    /// added to. The network then learns only what that evaluation misses,
    /// which takes far fewer positions than learning all of it.
    pub residual: Option<i32>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({})", self.id)
    }
}

/// Reads little-endian numbers from a byte slice, checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(NetError::BadHeader(
                "the file ends inside the header".into(),
            ));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
}

impl Network {
    /// Reads a network: the general format (`FERSNN02`: the header of
    /// [`NetId::header`], then little-endian i16 feature weights
    /// `[inputs][H]`, feature bias `[H]`, output weights `[2H]`, and the
    /// output bias as i32, and for a residual network the weight of the
    /// hand-written score as i32), or the chess format `FERSNN01` (the hidden
    /// size as u32, then the same layout for 768 inputs), whose id is
    /// orthodox chess with its kinds in role order.
    pub fn parse(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 12 {
            return Err(NetError::BadMagic);
        }
        let h = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        let (id, at, flags, buckets, kings) = match &bytes[..8] {
            b"FERSNN01" => (Self::chess_id(), 12, 0, Buckets::ONE, KingBuckets::one()),
            m if m == MAGIC => {
                let mut r = Reader { bytes, at: 12 };
                let dims = r.take(4)?.to_vec();
                let pieces = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
                let len = u16::from_le_bytes(r.take(2)?.try_into().expect("2 bytes"));
                let name = std::str::from_utf8(r.take(len as usize)?)
                    .map_err(|_| NetError::BadHeader("the variant name is not UTF-8".into()))?
                    .to_string();
                let (files, ranks, kinds, flags) = (dims[0], dims[1], dims[2], dims[3]);
                if flags & !(FLAG_RESIDUAL | FLAG_BUCKETS | FLAG_KING_BUCKETS) != 0 {
                    return Err(NetError::BadHeader(format!("unknown flags {flags:#04x}")));
                }
                if !(1..=12).contains(&files) || !(1..=12).contains(&ranks) {
                    return Err(NetError::BadHeader(format!("board {files}x{ranks}")));
                }
                if kinds == 0 || kinds as usize > MAX_KINDS {
                    return Err(NetError::BadHeader(format!("{kinds} kinds")));
                }
                let buckets = if flags & FLAG_BUCKETS != 0 {
                    let b = r.take(2)?;
                    if !(2..=MAX_BUCKETS).contains(&b[0]) || b[1] == 0 {
                        return Err(NetError::BadHeader(format!(
                            "{} output buckets of {} units",
                            b[0], b[1]
                        )));
                    }
                    Buckets {
                        count: b[0],
                        per: b[1],
                    }
                } else {
                    Buckets::ONE
                };
                let kings = if flags & FLAG_KING_BUCKETS != 0 {
                    let count = r.take(1)?[0];
                    let table = r.take(files as usize * ranks as usize)?.to_vec();
                    if !(2..=MAX_KING_BUCKETS).contains(&count) || table.iter().any(|&b| b >= count)
                    {
                        return Err(NetError::BadHeader(format!(
                            "{count} king buckets, squares' buckets {table:?}"
                        )));
                    }
                    KingBuckets { count, table }
                } else {
                    KingBuckets::one()
                };
                let id = NetId {
                    variant: name,
                    files,
                    ranks,
                    kinds,
                    pieces,
                };
                (id, r.at, flags, buckets, kings)
            }
            _ => return Err(NetError::BadMagic),
        };
        let hidden = h as usize;
        if !readable_width(hidden) {
            return Err(NetError::WrongHidden(h));
        }
        let inputs = id.inputs();
        let rows = inputs * kings.count as usize;
        let residual = flags & FLAG_RESIDUAL != 0;
        let nb = buckets.count as usize;
        let expected =
            at + 2 * (rows * hidden + hidden + nb * 2 * hidden) + 4 * nb + 4 * residual as usize;
        if bytes.len() != expected {
            return Err(NetError::WrongSize {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = at;
        let mut words = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_w = words(rows * hidden);
        let ft_b = words(hidden);
        let out_w = words(nb * 2 * hidden);
        let word = |at: usize| {
            i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let out_b = (0..nb).map(|b| word(at + 4 * b)).collect();
        Ok(Network {
            residual: residual.then(|| word(at + 4 * nb)),
            buckets,
            kinds: id.kinds as usize,
            squares: id.squares(),
            inputs,
            kings,
            mirror: mirror_table(&id),
            id,
            hidden,
            ft_w,
            ft_b,
            small_out: small_weights(&out_w),
            out_w,
            out_b,
        })
    }

    /// The id a `FERSNN01` file stands for: orthodox chess, its kinds in
    /// role order.
    fn chess_id() -> NetId {
        let mut id = NetId::of(fers_core::variant::chess());
        id.kinds = (CHESS_INPUTS / 128) as u8;
        id
    }

    /// Writes the network in the general format (the inverse of
    /// [`Network::parse`] for `FERSNN02`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = self.id.header(
            self.hidden,
            self.residual.is_some(),
            self.buckets,
            &self.kings,
        );
        for x in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        for x in &self.out_b {
            b.extend_from_slice(&x.to_le_bytes());
        }
        if let Some(w) = self.residual {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// A network for `id` of [`HIDDEN`] units whose feature weight of
    /// (own colour or not, kind, square) in hidden unit `j` is
    /// `ft(own, kind, square, j)`, no feature bias, output weight `out` on
    /// the side to move's half and `-out` on the other's. For tests and
    /// hand-made starting points.
    pub fn from_fn(id: NetId, ft: impl Fn(bool, usize, usize, usize) -> i16, out: i16) -> Network {
        Self::from_fn_wide(id, HIDDEN, ft, out)
    }

    /// [`Network::from_fn`] with `hidden` units (a multiple of
    /// [`HIDDEN_STEP`] up to [`MAX_HIDDEN`]).
    pub fn from_fn_wide(
        id: NetId,
        hidden: usize,
        ft: impl Fn(bool, usize, usize, usize) -> i16,
        out: i16,
    ) -> Network {
        let (kinds, squares) = (id.kinds as usize, id.squares());
        let mut ft_w = Vec::with_capacity(id.inputs() * hidden);
        for other in 0..2 {
            for kind in 0..kinds {
                for sq in 0..squares {
                    ft_w.extend((0..hidden).map(|j| ft(other == 0, kind, sq, j)));
                }
            }
        }
        let mut out_w = vec![out; hidden];
        out_w.resize(2 * hidden, -out);
        Network {
            kinds,
            squares,
            inputs: id.inputs(),
            kings: KingBuckets::one(),
            mirror: mirror_table(&id),
            id,
            hidden,
            ft_w,
            ft_b: vec![0; hidden],
            buckets: Buckets::ONE,
            small_out: small_weights(&out_w),
            out_w,
            out_b: vec![0],
            residual: None,
        }
    }

    /// This network re-labelled for `to`, a related variant: `to`'s kind
    /// `k` reads the sum of the inputs of this network's kinds `from[k]`,
    /// and `to`'s square `s` (`rank * files + file`) those of this
    /// network's square `squares[s]` (see [`stretched_squares`] for
    /// another board). Capablanca's network for Embassy (the same pieces),
    /// chess's for Almost chess (the queen's inputs for the chancellor), or
    /// chess's for Capablanca (the archbishop as a bishop and a knight on
    /// one square, ten files read as eight). A related game's network
    /// judges a variant far better than one trained on a few of its own
    /// weak games, and serves as its teacher or as the start of its
    /// training. Sums saturate at the weights' 16 bits.
    pub fn transfer(
        &self,
        to: NetId,
        from: &[Vec<usize>],
        squares: &[usize],
    ) -> Result<Network, NetError> {
        if squares.len() != to.squares() || squares.iter().any(|&s| s >= self.squares) {
            return Err(NetError::Transfer(format!(
                "a square map of {} entries below {} for {to}, whose board has {} squares",
                squares.len(),
                self.squares,
                to.squares()
            )));
        }
        if from.len() != to.kinds as usize
            || from
                .iter()
                .any(|ks| ks.is_empty() || ks.iter().any(|&k| k >= self.kinds))
        {
            return Err(NetError::Transfer(format!(
                "kinds {from:?} of {} for the {} kinds of {to}",
                self.id, to.kinds
            )));
        }
        if self.kings.count > 1 {
            return Err(NetError::Transfer(
                "a network with king buckets does not transfer".into(),
            ));
        }
        let s = self.squares;
        let h = self.hidden;
        let mut ft_w = Vec::with_capacity(to.inputs() * h);
        for other in 0..2 {
            for ks in from {
                for &sq in squares {
                    let mut row = vec![0i16; h];
                    for &k in ks {
                        let src = self.feature_row((other * self.kinds + k) * s + sq);
                        for (w, &x) in row.iter_mut().zip(src) {
                            *w = w.saturating_add(x);
                        }
                    }
                    ft_w.extend(row);
                }
            }
        }
        Ok(Network {
            kinds: from.len(),
            squares: to.squares(),
            inputs: to.inputs(),
            kings: KingBuckets::one(),
            mirror: mirror_table(&to),
            id: to,
            hidden: h,
            ft_w,
            ft_b: self.ft_b.clone(),
            buckets: self.buckets,
            out_w: self.out_w.clone(),
            small_out: self.small_out,
            out_b: self.out_b.clone(),
            residual: self.residual,
        })
    }

    /// This network averaged with the hand-written evaluation: a residual
    /// network scoring `(1 - share) * this + share * hand-written` (its
    /// output weights and biases scaled by `1 - share`, the hand-written
    /// score's weight `share` in units of [`HAND_UNIT`]). At a fixed
    /// depth the average can judge better than either alone; it costs the
    /// hand-written evaluation at every node. Refused for a residual
    /// network or a share outside 0..1.
    pub fn blended(&self, share: f64) -> Result<Network, NetError> {
        if self.residual.is_some() {
            return Err(NetError::Blend("the network is residual already".into()));
        }
        if !(0.0..=1.0).contains(&share) {
            return Err(NetError::Blend(format!("a share of {share} (0 to 1)")));
        }
        let keep = 1.0 - share;
        let out_w: Vec<i16> = self
            .out_w
            .iter()
            .map(|&w| (w as f64 * keep).round() as i16)
            .collect();
        let out_b = self
            .out_b
            .iter()
            .map(|&b| (b as f64 * keep).round() as i32)
            .collect();
        Ok(Network {
            small_out: small_weights(&out_w),
            out_w,
            out_b,
            residual: Some((share * HAND_UNIT as f64).round() as i32),
            ..self.clone()
        })
    }

    /// The quantised weights, for a trainer to start from: input `i`'s
    /// feature row, the feature bias, and per output bucket the output
    /// weights (side to move's half, then the other's) and the output bias.
    pub fn feature_row(&self, i: usize) -> &[i16] {
        &self.ft_w[i * self.hidden..(i + 1) * self.hidden]
    }
    pub fn feature_bias(&self) -> &[i16] {
        &self.ft_b
    }
    pub fn output_weights(&self, bucket: usize, half: usize) -> &[i16] {
        let at = (2 * bucket + half) * self.hidden;
        &self.out_w[at..at + self.hidden]
    }
    /// The output buckets.
    pub fn buckets(&self) -> Buckets {
        self.buckets
    }
    /// The king buckets (one for a network without them).
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.kings
    }
    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }
    pub fn output_bias(&self, bucket: usize) -> i32 {
        self.out_b[bucket]
    }

    /// The embedded chess network (parsed once).
    pub fn embedded() -> Option<Arc<Network>> {
        static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
        NET.get_or_init(|| Network::parse(NET_BYTES).ok().map(Arc::new))
            .clone()
    }

    /// Reads a network file (`EvalFile`).
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read network file '{path}': {e}"))?;
        Network::parse(&bytes).map_err(|e| format!("network file '{path}': {e}"))
    }

    /// Score in centipawns for the side to move, from the two perspectives'
    /// accumulators (`acc`: White's `hidden` sums, then Black's) and the
    /// output bucket ([`Network::bucket`]).
    #[inline(always)]
    fn output<const AVX2: bool>(&self, acc: &[i16], stm: Color, bucket: usize) -> i32 {
        let h = self.hidden;
        let us = stm.index();
        let half = |view: usize| &acc[view * h..view * h + h];
        let halves = [
            (half(us), self.output_weights(bucket, 0)),
            (half(us ^ 1), self.output_weights(bucket, 1)),
        ];
        let mut sum = 0i32;
        for (a, w) in halves {
            let dot = if self.small_out {
                screlu_dot_small::<AVX2>(a, w)
            } else {
                screlu_dot(a, w)
            };
            sum = sum.wrapping_add(dot);
        }
        (sum / QA + self.out_b[bucket]) * SCALE / (QA * QB)
    }

    /// The output bucket of `pos`: by its units where the network has
    /// buckets, without counting them where it has one layer.
    #[inline(always)]
    fn bucket(&self, pos: &Position) -> usize {
        if self.buckets.count == 1 {
            0
        } else {
            self.buckets.of(units(pos))
        }
    }

    /// Input index of `piece` (`colour << 7 | kind`) on network square
    /// `sq` from perspective `view` (0 White, 1 Black), within the rows of
    /// the perspective's king bucket (`offs`, see [`Network::king_rows`]).
    #[inline]
    fn feature(&self, view: usize, piece: u8, sq: usize, offs: [usize; 2]) -> usize {
        let colour = (piece >> 7) as usize;
        let kind = (piece & 0x7f) as usize;
        let rel = if view == 0 {
            sq
        } else {
            self.mirror[sq] as usize
        };
        offs[view] + (((colour != view) as usize) * self.kinds + kind) * self.squares + rel
    }

    /// Per perspective, the first input of its king bucket's rows: the
    /// bucket of the square its own royal piece stands on (`king`, network
    /// squares; bucket 0 without one) times the inputs of a bucket.
    #[inline(always)]
    fn king_rows(&self, king: [Option<usize>; 2]) -> [usize; 2] {
        if self.kings.count == 1 {
            return [0, 0];
        }
        let mut offs = [0; 2];
        for (view, k) in king.into_iter().enumerate() {
            if let Some(sq) = k {
                let rel = if view == 0 {
                    sq
                } else {
                    self.mirror[sq] as usize
                };
                offs[view] = self.kings.table[rel] as usize * self.inputs;
            }
        }
        offs
    }

    /// Adds `piece` on `sq` to both halves of `acc` (`2 hidden` sums).
    #[inline(always)]
    fn add(&self, acc: &mut [i16], piece: u8, sq: usize, offs: [usize; 2]) {
        for (view, a) in acc.chunks_exact_mut(self.hidden).enumerate() {
            let row = self.feature_row(self.feature(view, piece, sq, offs));
            for (x, w) in a.iter_mut().zip(row) {
                *x = x.wrapping_add(*w);
            }
        }
    }

    #[inline(always)]
    fn sub(&self, acc: &mut [i16], piece: u8, sq: usize, offs: [usize; 2]) {
        for (view, a) in acc.chunks_exact_mut(self.hidden).enumerate() {
            let row = self.feature_row(self.feature(view, piece, sq, offs));
            for (x, w) in a.iter_mut().zip(row) {
                *x = x.wrapping_sub(*w);
            }
        }
    }

    #[inline(always)]
    fn refresh(&self, acc: &mut [i16], board: &[u8], offs: [usize; 2]) {
        for a in acc.chunks_exact_mut(self.hidden) {
            a.copy_from_slice(&self.ft_b);
        }
        for (sq, &p) in board.iter().enumerate() {
            if p != EMPTY {
                self.add(acc, p, sq, offs);
            }
        }
    }
}

/// How a variant's kinds and squares map onto a network's inputs, with
/// the network.
#[derive(Clone)]
pub struct NnueMap {
    net: Arc<Network>,
    /// The network's kind per variant kind.
    kind: Vec<u8>,
    /// Network square per board square.
    sq: Box<[u8; MAX_SQUARES]>,
    /// Squares of the board (and of the network).
    squares: usize,
}

impl std::fmt::Debug for NnueMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NnueMap({})", self.net.id)
    }
}

impl NnueMap {
    /// The embedded chess network's map when `v` is orthodox chess (its six
    /// pieces, with `roles` from their movements, on a plain 8x8 board
    /// with the orthodox rules) and the network loads; `None` otherwise.
    pub fn for_variant(v: &Variant, roles: &[Option<u8>]) -> Option<NnueMap> {
        // The core decides whether this is orthodox chess exactly
        // (`Capabilities::chess_network`): no condition, the six pieces,
        // the orthodox rules on a plain 8x8 board.
        if !v.caps.chess_network || roles.len() != 6 {
            return None;
        }
        let mut kind = Vec::with_capacity(6);
        let mut seen = 0u8;
        for r in roles {
            let r = (*r)?;
            seen |= 1 << r;
            kind.push(r);
        }
        if seen != 0b11_1111 {
            return None;
        }
        Some(Self::new(v, Network::embedded()?, kind))
    }

    /// The map of a network trained for `v` (an `EvalFile`): refused when
    /// the network names another variant, board or piece set, or when the
    /// core's capability set says the board's pieces do not describe the
    /// position (`Capabilities::piece_network`).
    pub fn with_network(v: &Variant, net: Arc<Network>) -> Result<NnueMap, NetError> {
        let want = NetId::of(v);
        if net.id != want {
            return Err(NetError::Mismatch {
                network: net.id.clone(),
                variant: want,
            });
        }
        if !v.caps.piece_network {
            return Err(NetError::BadHeader(format!(
                "'{}' has squares the inputs cannot show (holes): no network applies",
                v.name
            )));
        }
        let kind = (0..v.pieces.len() as u8).collect();
        Ok(Self::new(v, net, kind))
    }

    fn new(v: &Variant, net: Arc<Network>, kind: Vec<u8>) -> NnueMap {
        let g = &v.geometry;
        let mut sq = Box::new([0u8; MAX_SQUARES]);
        for file in 0..g.files {
            for rank in 0..g.ranks {
                sq[g.square(file, rank) as usize] = rank * g.files + file;
            }
        }
        NnueMap {
            net,
            kind,
            sq,
            squares: g.num_squares(),
        }
    }

    /// What the network was trained for.
    pub fn id(&self) -> &NetId {
        &self.net.id
    }

    /// The weight of the hand-written score a residual network's output is
    /// added to (see [`Network::residual`]).
    #[inline]
    pub fn residual(&self) -> Option<i32> {
        self.net.residual
    }

    /// A residual network's score: its output `net` plus its weight of the
    /// hand-written score `hand` (both in centipawns, side to move).
    #[inline]
    pub fn with_hand(&self, net: i32, hand: i32) -> i32 {
        net + hand * self.net.residual.unwrap_or(0) / HAND_UNIT
    }

    /// The king-bucket rows of `pos` (see [`Network::king_rows`]).
    #[inline(always)]
    fn king_rows(&self, pos: &Position) -> [usize; 2] {
        if self.net.kings.count == 1 {
            return [0, 0];
        }
        let king = |c: Color| pos.royal_square(c).map(|s| self.sq[s as usize] as usize);
        self.net.king_rows([king(Color::White), king(Color::Black)])
    }

    fn board(&self, pos: &Position) -> [u8; MAX_SQUARES] {
        let mut b = [EMPTY; MAX_SQUARES];
        for c in [Color::White, Color::Black] {
            let base = (c.index() as u8) << 7;
            for s in pos.occupied(c).iter() {
                let k = pos.piece_at(s).kind() as usize;
                b[self.sq[s as usize] as usize] = base | self.kind[k];
            }
        }
        b
    }
}

/// The units on the board, both sides': what picks an output bucket.
#[inline]
pub fn units(pos: &Position) -> usize {
    (pos.occupied(Color::White).len() + pos.occupied(Color::Black).len()) as usize
}

/// Evaluates `pos` from scratch (for callers outside the search).
pub fn evaluate(pos: &Position, map: &NnueMap) -> i32 {
    let net = &*map.net;
    let mut acc = vec![0; 2 * net.hidden];
    net.refresh(&mut acc, &map.board(pos)[..map.squares], map.king_rows(pos));
    net.output::<false>(&acc, pos.side_to_move(), net.bucket(pos))
}

/// A ply's snapshot: the board its accumulator (in [`NnueStack::acc`]) was
/// computed for.
#[derive(Clone)]
struct Slot {
    board: [u8; MAX_SQUARES],
    /// The king-bucket rows it was computed with.
    offs: [usize; 2],
    valid: bool,
}

/// Whether every output weight is within `i8` (`Network::small_out`).
fn small_weights(out_w: &[i16]) -> bool {
    out_w
        .iter()
        .all(|&w| (i8::MIN as i16..=i8::MAX as i16).contains(&w))
}

/// `sum(clamp(a, 0, QA)^2 * w)` over a half, in wrapping 32-bit sums.
#[inline]
fn screlu_dot(a: &[i16], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in a.iter().zip(w) {
        let v = (x as i32).clamp(0, QA);
        sum = sum.wrapping_add(v * w as i32 * v);
    }
    sum
}

/// [`screlu_dot`] for weights within `i8`, the same sum: `v * w` fits in
/// 16 bits (`|v| <= 255`, `|w| <= 128`), so eight lanes multiply it in
/// `i16` and `madd` multiplies by `v` again and adds pairs into `i32`
/// (SSE2, part of every x86-64). About a third of the scalar
/// instructions.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn screlu_dot_small<const AVX2: bool>(a: &[i16], w: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    if AVX2 {
        // SAFETY: only `NnueStack::evaluate_avx2` (the CPU has AVX2)
        // asks for it.
        return unsafe { screlu_dot_small_avx2(a, w) };
    }
    // Whole blocks of eight; widths are multiples of HIDDEN_STEP, so
    // nothing is left over in a network's rows.
    let n = a.len().min(w.len()) / 8 * 8;
    // SAFETY: SSE2 is always enabled on x86-64; each load reads 8 i16 at
    // `i + 8 <= n`, within both slices (unaligned loads).
    let simd = unsafe {
        let zero = _mm_setzero_si128();
        let qa = _mm_set1_epi16(QA as i16);
        let mut acc = _mm_setzero_si128();
        for i in (0..n).step_by(8) {
            let x = _mm_loadu_si128(a.as_ptr().add(i) as *const __m128i);
            let v = _mm_min_epi16(_mm_max_epi16(x, zero), qa);
            let ww = _mm_loadu_si128(w.as_ptr().add(i) as *const __m128i);
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_mullo_epi16(v, ww), v));
        }
        let s = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    };
    simd.wrapping_add(screlu_dot(&a[n..], &w[n..]))
}

/// [`screlu_dot_small`] sixteen lanes at a time, the same sum.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_small_avx2(a: &[i16], w: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let n = a.len().min(w.len()) / 16 * 16;
    // SAFETY: each load reads 16 i16 at `i + 16 <= n`, within both
    // slices (unaligned loads).
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut acc = _mm256_setzero_si256();
    for i in (0..n).step_by(16) {
        let x = _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i);
        let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
        let ww = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_mullo_epi16(v, ww), v));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256(acc, 1),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s).wrapping_add(screlu_dot_small::<false>(&a[n..], &w[n..]))
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn screlu_dot_small<const AVX2: bool>(a: &[i16], w: &[i16]) -> i32 {
    screlu_dot(a, w)
}

/// Eight squares of a snapshot board from `at` (`at + 8 <= MAX_SQUARES`).
#[inline(always)]
fn word(b: &[u8; MAX_SQUARES], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// How many of the first `n` squares two snapshot boards disagree on,
/// eight squares a word.
#[inline]
fn changed_squares(a: &[u8; MAX_SQUARES], b: &[u8; MAX_SQUARES], n: usize) -> usize {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut count = 0;
    let words = n / 8;
    for i in 0..words {
        let x = word(a, 8 * i) ^ word(b, 8 * i);
        // The top bit of each byte set exactly when the byte is not zero
        // (the low seven bits plus 0x7f carry into it, never beyond).
        let nonzero = (((x & LOW7) + LOW7) | x) & !LOW7;
        count += nonzero.count_ones() as usize;
    }
    count + (8 * words..n).filter(|&s| a[s] != b[s]).count()
}

/// Does the CPU run AVX2 (`NnueStack::evaluate_avx2`)? `FERS_NO_AVX2`
/// in the environment says no, to compare the two paths.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::env::var_os("FERS_NO_AVX2").is_none() && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Per-thread accumulators, one per ply (see the module comment).
pub struct NnueStack {
    /// Per ply, `2 hidden` sums (White's half, then Black's) for the
    /// width of the last network evaluated; resized, and every ply
    /// forgotten, when a network of another width comes.
    acc: Vec<i16>,
    hidden: usize,
    slots: Vec<Slot>,
    /// Does this CPU run AVX2? The same code is then compiled for it
    /// (`evaluate_avx2`): sixteen lanes a vector instead of eight.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
}

impl NnueStack {
    pub fn new(plies: usize) -> NnueStack {
        let slot = Slot {
            board: [EMPTY; MAX_SQUARES],
            offs: [0; 2],
            valid: false,
        };
        NnueStack {
            acc: Vec::new(),
            hidden: 0,
            slots: vec![slot; plies + 1],
            avx2: has_avx2(),
        }
    }

    /// Forgets every accumulator (a new position, game or network).
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            s.valid = false;
        }
    }

    /// Sizes the accumulators for `hidden` units (a new width forgets
    /// them all).
    fn fit(&mut self, hidden: usize) {
        if self.hidden != hidden {
            self.hidden = hidden;
            self.acc = vec![0; self.slots.len() * 2 * hidden];
            self.clear();
        }
    }

    /// Evaluates `pos` at `ply`, updating that ply's accumulator. The
    /// stack must be cleared when the map changes (a new search does).
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, map: &NnueMap, ply: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the CPU has AVX2.
            return unsafe { self.evaluate_avx2(pos, map, ply) };
        }
        self.evaluate_here::<false>(pos, map, ply)
    }

    /// [`NnueStack::evaluate`] compiled for AVX2: the accumulator's
    /// updates and the output, inlined here, are vectorised sixteen lanes
    /// wide. The same sums in the same wrapping arithmetic, so the same
    /// scores as without it.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&mut self, pos: &Position, map: &NnueMap, ply: usize) -> i32 {
        self.evaluate_here::<true>(pos, map, ply)
    }

    /// The evaluation itself, for the instruction set of its caller
    /// (`AVX2`: only from `evaluate_avx2`).
    #[inline(always)]
    fn evaluate_here<const AVX2: bool>(
        &mut self,
        pos: &Position,
        map: &NnueMap,
        ply: usize,
    ) -> i32 {
        let net = &*map.net;
        self.fit(net.hidden);
        let n = map.squares;
        let ply = ply.min(self.slots.len() - 1);
        let board = map.board(pos);
        let offs = map.king_rows(pos);
        // A king that changed buckets changes every input: no update then.
        let diff = |s: &Slot| {
            if s.valid && s.offs == offs {
                changed_squares(&s.board, &board, n)
            } else {
                usize::MAX
            }
        };
        let here = diff(&self.slots[ply]);
        let parent = if ply > 0 {
            diff(&self.slots[ply - 1])
        } else {
            usize::MAX
        };
        let width = 2 * net.hidden;
        let at = ply * width;
        if here.min(parent) > MAX_DIFF {
            net.refresh(&mut self.acc[at..at + width], &board[..n], offs);
        } else {
            if parent < here {
                let (lo, hi) = self.acc.split_at_mut(at);
                hi[..width].copy_from_slice(&lo[at - width..]);
                self.slots[ply].board = self.slots[ply - 1].board;
            }
            let acc = &mut self.acc[at..at + width];
            let snapshot = &self.slots[ply].board;
            // Eight squares at a time past the unchanged ones.
            let mut from = 0;
            while from < n {
                let end = (from + 8).min(n);
                if end - from == 8 && word(snapshot, from) == word(&board, from) {
                    from = end;
                    continue;
                }
                for sq in from..end {
                    let (old, new) = (snapshot[sq], board[sq]);
                    if old != new {
                        if old != EMPTY {
                            net.sub(acc, old, sq, offs);
                        }
                        if new != EMPTY {
                            net.add(acc, new, sq, offs);
                        }
                    }
                }
                from = end;
            }
        }
        let slot = &mut self.slots[ply];
        slot.board = board;
        slot.offs = offs;
        slot.valid = true;
        net.output::<AVX2>(
            &self.acc[at..at + width],
            pos.side_to_move(),
            net.bucket(pos),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::EvalTables;
    use fers_core::registry::Registry;

    fn chess_map() -> NnueMap {
        let t = EvalTables::for_variant(fers_core::variant::chess());
        t.nnue.clone().expect("chess has the network")
    }

    #[test]
    fn changed_squares_counts_every_differing_square() {
        let mut seed = 12345u64;
        for round in 0..500 {
            let mut a = [EMPTY; MAX_SQUARES];
            let mut b = [EMPTY; MAX_SQUARES];
            for s in 0..MAX_SQUARES {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = (seed >> 33) as u32;
                a[s] = [EMPTY, 0, 1, 128, 129, 127][r as usize % 6];
                b[s] = if r % 7 < 5 {
                    a[s]
                } else {
                    [EMPTY, 0, 0x80, 3][(r >> 8) as usize % 4]
                };
            }
            let n = [64, 80, 144, 63, 1, 0][round % 6].min(MAX_SQUARES);
            let expected = (0..n).filter(|&s| a[s] != b[s]).count();
            assert_eq!(changed_squares(&a, &b, n), expected, "round {round}, n {n}");
        }
    }

    #[test]
    fn the_simd_output_sums_exactly_as_the_scalar_one() {
        // Accumulators below zero, inside the clip and above it; weights
        // over the whole i8 range, extremes included.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |lo: i32, hi: i32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            lo + (seed % (hi - lo + 1) as u64) as i32
        };
        for round in 0..200 {
            let mut a = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for j in 0..HIDDEN {
                a[j] = next(-600, 900) as i16;
                w[j] = match round % 3 {
                    0 => next(-128, 127),
                    1 => [-128, 127][j % 2],
                    _ => next(-3, 3),
                } as i16;
            }
            if round == 0 {
                a = [QA as i16; HIDDEN];
                w = [-128; HIDDEN];
            }
            assert_eq!(
                screlu_dot_small::<false>(&a, &w),
                screlu_dot(&a, &w),
                "round {round}"
            );
            if has_avx2() {
                assert_eq!(
                    screlu_dot_small::<true>(&a, &w),
                    screlu_dot(&a, &w),
                    "round {round}, AVX2"
                );
            }
        }
        let net = Network::embedded().expect("embedded network");
        assert!(
            net.small_out,
            "the chess network's output weights fit in i8"
        );
    }

    #[test]
    fn embedded_network_loads_and_bad_files_are_refused() {
        assert!(Network::embedded().is_some());
        assert_eq!(Network::parse(b"nonsense").err(), Some(NetError::BadMagic));
        let mut short = NET_BYTES.to_vec();
        short.pop();
        assert!(matches!(
            Network::parse(&short),
            Err(NetError::WrongSize { .. })
        ));
        let mut other = NET_BYTES.to_vec();
        other[8] = 7;
        assert_eq!(
            Network::parse(&other).err(),
            Some(NetError::WrongHidden(u32::from_le_bytes([
                7, other[9], other[10], other[11]
            ])))
        );
    }

    /// Only orthodox chess gets the network; the example variants (fairy
    /// pieces, other boards, other rules) keep the hand-written evaluation.
    #[test]
    fn network_only_for_orthodox_chess() {
        let mut reg = Registry::new();
        for r in reg.load("examples.ini", include_str!("../../variants/examples.ini")) {
            r.expect("example variants load");
        }
        let names = reg.names();
        assert!(names.len() >= 14, "{names:?}");
        for name in names {
            let v = reg.get(&name).expect("listed variant");
            let has = EvalTables::for_variant(v).nnue.is_some();
            assert_eq!(has, name == "chess", "{name}");
        }
        assert!(EvalTables::for_variant(fers_core::variant::chess())
            .nnue
            .is_some());
        assert!(EvalTables::classical(fers_core::variant::chess())
            .nnue
            .is_none());
    }

    /// Plays up to `steps` random moves from `pos`, the ply jumping about
    /// (0, 1, 2, 1, 2, 3, ...) as in a search, and checks at each position
    /// that `stack` evaluates exactly as the sum from scratch. Returns the
    /// number of positions checked.
    fn check_incremental(
        stack: &mut NnueStack,
        map: &NnueMap,
        mut pos: Position,
        seed: &mut u64,
        steps: usize,
    ) -> usize {
        let mut ply = 0usize;
        let mut checked = 0;
        for step in 0..steps {
            assert_eq!(
                stack.evaluate(&pos, map, ply),
                evaluate(&pos, map),
                "{} {}",
                pos.variant().name,
                pos.to_fen()
            );
            checked += 1;
            if !crate::test_util::play_random(&mut pos, seed) {
                break;
            }
            ply = if step % 3 == 2 {
                ply.saturating_sub(1)
            } else {
                (ply + 1) % 16
            };
        }
        checked
    }

    /// The per-ply accumulators, updated from the parent's or from a stale
    /// sibling's, give exactly the evaluation computed from scratch, along
    /// random games with castling, en passant and promotions.
    #[test]
    fn incremental_equals_fresh() {
        let v = fers_core::variant::chess();
        let map = chess_map();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPpP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        // Both instruction sets where the CPU has AVX2; the fresh
        // evaluation is always the portable code's.
        for avx2 in [false, has_avx2()] {
            let mut stack = NnueStack::new(16);
            stack.avx2 = avx2;
            for fen in fens {
                for _game in 0..20 {
                    let pos = Position::from_fen(v, fen).expect("valid FEN");
                    checked += check_incremental(&mut stack, &map, pos, &mut seed, 80);
                }
            }
        }
        assert!(checked > 4000, "only {checked} positions");
    }

    /// The trained network knows material: level at the start, a queen
    /// up is winning for either side to move.
    #[test]
    fn network_sees_material() {
        let v = fers_core::variant::chess();
        let map = chess_map();
        let at = |fen: &str| evaluate(&Position::from_fen(v, fen).expect("valid FEN"), &map);
        let start = at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // White's first-move edge (Stockfish gives about +0.3 to +0.5).
        assert!((0..150).contains(&start), "start {start}");
        let up = at("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(up > 500, "white a queen up, white to move: {up}");
        let down = at("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(down < -500, "black a queen down, black to move: {down}");
    }

    use crate::test_support::example;

    /// Capablanca's kinds: p n b r q k a c (the file's order).
    fn capablanca() -> &'static Variant {
        example("capablanca")
    }

    /// A tiny material network for `v`: every hidden unit adds 3 x the
    /// piece's value in pawns for the perspective's own pieces (pawn 1,
    /// knight 3, ... by `values`) and nothing for the other side's, so a
    /// half's accumulator is 3 x its material.
    fn material_net(v: &Variant, values: &[i16]) -> Network {
        let values = values.to_vec();
        Network::from_fn(
            NetId::of(v),
            move |own, kind, _sq, _j| if own { 3 * values[kind] } else { 0 },
            8,
        )
    }

    /// A network with pseudo-random weights per input and unit.
    fn random_net(v: &Variant, seed: u64, hidden: usize) -> Network {
        Network::from_fn_wide(
            NetId::of(v),
            hidden,
            move |own, kind, sq, j| {
                let at = [own as u8, kind as u8, sq as u8, j as u8, (j >> 8) as u8];
                let x = fnv1a(&[&at[..], &[seed as u8]].concat());
                (x % 61) as i16 - 30
            },
            5,
        )
    }

    /// A network for Capablanca chess, written to bytes, read back,
    /// accepted for Capablanca and evaluating material: level (exactly 0,
    /// the position is symmetric) at the start, a chancellor up is winning
    /// for either side to move.
    #[test]
    fn fairy_network_round_trips_loads_and_evaluates() {
        let v = capablanca();
        let net = material_net(v, &[1, 3, 3, 5, 9, 0, 7, 8]);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], MAGIC);
        let back = Network::parse(&bytes).expect("own format reads back");
        assert_eq!(back.id, NetId::of(v));
        assert_eq!(back.id.inputs(), 2 * 8 * 80);
        assert_eq!(back.to_bytes(), bytes);
        let map = NnueMap::with_network(v, Arc::new(back)).expect("fits Capablanca");
        let at = |fen: &str| evaluate(&Position::from_fen(v, fen).expect("valid FEN"), &map);
        assert_eq!(at(&v.start_fen), 0);
        // Without Black's chancellor (c on i8): by hand, White's material
        // is 10 + 2x3 + 2x3 + 2x5 + 9 + 7 + 8 = 56 pawns, so its half is
        // 3 x 56 = 168 and Black's 3 x 48 = 144; each of the 256 units gives
        // 8 (168² - 144²) = 59 904 for White to move, so (integer division)
        // 256 x 59 904 / 255 = 60 138, x 400 / (255 x 64) = 1473 centipawns.
        let up = "rnabqkb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
        assert_eq!(at(up), 1473);
        let down = "rnabqkb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1";
        assert_eq!(at(down), -1473);
    }

    /// A residual network (header flag, the hand-written score's weight
    /// after the output bias) reads back as written; `evaluate_network`
    /// adds its output to that weight of the hand-written evaluation. A
    /// flag this build does not know is refused, and so is a residual
    /// header on a file without the weight.
    #[test]
    fn residual_networks_round_trip_and_add_the_hand_written_score() {
        use crate::evaluate::{evaluate as hand, evaluate_network, EvalTables};
        let v = capablanca();
        let mut net = material_net(v, &[1, 3, 3, 5, 9, 0, 7, 8]);
        net.residual = Some(HAND_UNIT * 3 / 2);
        let bytes = net.to_bytes();
        assert_eq!(bytes[15], FLAG_RESIDUAL);
        let back = Network::parse(&bytes).expect("reads back");
        assert_eq!(back.residual, Some(1536));
        assert_eq!(back.to_bytes(), bytes);
        let plain = material_net(v, &[1, 3, 3, 5, 9, 0, 7, 8]).to_bytes();
        assert_eq!(bytes.len(), plain.len() + 4, "one i32 more");
        let mut flagged = plain.clone();
        flagged[15] = FLAG_RESIDUAL;
        assert!(matches!(
            Network::parse(&flagged),
            Err(NetError::WrongSize { .. })
        ));
        let mut unknown = bytes.clone();
        unknown[15] = 4 | FLAG_RESIDUAL;
        assert!(matches!(
            Network::parse(&unknown),
            Err(NetError::BadHeader(_))
        ));

        let map = NnueMap::with_network(v, Arc::new(back)).expect("fits");
        assert_eq!(map.residual(), Some(1536));
        let mut t = EvalTables::build(v, &crate::evaluate::PARAMS);
        t.nnue = Some(map.clone());
        let up = "rnabqkb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1";
        let fen = "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR w KQkq - 4 5";
        for fen in [v.start_fen.as_str(), up, fen] {
            let pos = Position::from_fen(v, fen).expect("FEN");
            let want = evaluate(&pos, &map) + hand(&pos, &t) * 3 / 2;
            assert_eq!(evaluate_network(&pos, &t), Some(want), "{fen}");
        }
        // The material network alone says -1473 there; the hand-written
        // evaluation agrees in sign, so the sum is further from zero.
        let pos = Position::from_fen(v, up).expect("FEN");
        assert!(evaluate_network(&pos, &t).expect("a network") < -1473 - 300);
    }

    /// A blend scores `(1 - share)` of the network plus `share` of the
    /// hand-written evaluation (within the rounding of the scaled
    /// weights), reads back as a residual network, and is refused for a
    /// residual network or a share outside 0..1.
    #[test]
    fn a_blend_averages_the_network_and_the_hand_written_evaluation() {
        use crate::evaluate::{evaluate as hand, evaluate_network, EvalTables};
        let v = capablanca();
        let net = random_net(v, 21, HIDDEN);
        let blend = net.blended(0.4).expect("blends");
        assert_eq!(blend.residual, Some(410));
        let back = Network::parse(&blend.to_bytes()).expect("reads back");
        assert_eq!(back.to_bytes(), blend.to_bytes());
        assert!(blend.blended(0.4).is_err());
        assert!(net.blended(1.5).is_err());
        let plain = NnueMap::with_network(v, Arc::new(net)).expect("fits");
        let mut t = EvalTables::build(v, &crate::evaluate::PARAMS);
        t.nnue = Some(NnueMap::with_network(v, Arc::new(back)).expect("fits"));
        let up = "rnabqkb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1";
        let fen = "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR w KQkq - 4 5";
        for fen in [v.start_fen.as_str(), up, fen] {
            let pos = Position::from_fen(v, fen).expect("FEN");
            let n = evaluate(&pos, &plain) as f64;
            let h = hand(&pos, &t) as f64;
            let want = 0.6 * n + 0.4 * h;
            let got = evaluate_network(&pos, &t).expect("a network") as f64;
            assert!(
                (got - want).abs() <= 2.0 + 0.02 * n.abs(),
                "{fen}: {got} against {want}"
            );
        }
    }

    /// Output buckets: a file with them reads back to the same bytes and
    /// picks its output layer by the units on the board; a bad bucket
    /// header is an error.
    #[test]
    fn output_buckets_round_trip_and_pick_by_units() {
        let v = capablanca();
        let values = [1, 3, 3, 5, 9, 0, 7, 8];
        let one = material_net(v, &values);
        // Two buckets of 20 units: the material layer, then it doubled.
        let mut net = material_net(v, &values);
        net.buckets = Buckets { count: 2, per: 20 };
        let doubled: Vec<i16> = net.out_w.iter().map(|w| 2 * w).collect();
        net.out_w.extend(doubled);
        net.out_b = vec![0, 0];
        net.small_out = small_weights(&net.out_w);
        let bytes = net.to_bytes();
        assert_eq!(bytes[15], FLAG_BUCKETS);
        let at = 36; // the bucket bytes, after the name "capablanca"
        assert_eq!(bytes[at..at + 2], [2, 20]);
        let back = Network::parse(&bytes).expect("reads back");
        assert_eq!(back.buckets(), Buckets { count: 2, per: 20 });
        assert_eq!(back.to_bytes(), bytes);
        let a = NnueMap::with_network(v, Arc::new(one)).expect("fits");
        let b = NnueMap::with_network(v, Arc::new(back)).expect("fits");
        let up = "rnabqkb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1";
        let late = "4k5/10/10/10/10/10/4P5/2C1K3A1 w - - 0 1";
        let eval =
            |map: &NnueMap, fen: &str| evaluate(&Position::from_fen(v, fen).expect("FEN"), map);
        // 39 units: the second layer; 5: the first.
        let (x, y) = (eval(&a, up), eval(&b, up));
        assert!(x != 0 && (y - 2 * x).abs() <= 2, "{x} {y}");
        assert_eq!(eval(&a, late), eval(&b, late));
        // The search's accumulators pick the same layers as the sum from
        // scratch, along random games that cross from one bucket to the
        // other, on both instruction sets.
        for avx2 in [false, has_avx2()] {
            let mut stack = NnueStack::new(16);
            stack.avx2 = avx2;
            let mut seed = 17u64;
            let mut checked = 0;
            for _game in 0..6 {
                let pos = Position::from_fen(v, up).expect("FEN");
                checked += check_incremental(&mut stack, &b, pos, &mut seed, 200);
            }
            assert!(checked > 300, "only {checked} positions");
        }
        assert_eq!(Buckets::even(4, 32), Some(Buckets { count: 4, per: 8 }));
        assert_eq!(Buckets::even(0, 32), None);
        assert_eq!(Buckets::even(MAX_BUCKETS + 1, 32), None);
        for (count, per) in [(1, 20), (MAX_BUCKETS + 1, 20), (2, 0)] {
            let mut bad = bytes.clone();
            bad[at..at + 2].copy_from_slice(&[count, per]);
            assert!(
                matches!(Network::parse(&bad), Err(NetError::BadHeader(_))),
                "{count} of {per}"
            );
        }
        assert!(Network::parse(&bytes[..at + 1]).is_err());
        assert!(matches!(
            Network::parse(&bytes[..bytes.len() - 4]),
            Err(NetError::WrongSize { .. })
        ));
    }

    /// A network is refused for another variant, another piece set or a
    /// damaged header, and where the capability set says no network
    /// applies (Wormhole's holes).
    #[test]
    fn mismatched_networks_are_refused() {
        let capa = capablanca();
        let chess = fers_core::variant::chess();
        let net = Arc::new(material_net(capa, &[1, 3, 3, 5, 9, 0, 7, 8]));
        let err = NnueMap::with_network(chess, net.clone()).unwrap_err();
        assert!(matches!(err, NetError::Mismatch { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("'capablanca' (10x8, 8 kinds"), "{text}");
        assert!(text.contains("'chess' (8x8, 6 kinds"), "{text}");
        // Same name and board, another piece set: the hash differs.
        let mut bytes = net.to_bytes();
        bytes[16] ^= 1;
        let other = Arc::new(Network::parse(&bytes).expect("well formed"));
        assert!(matches!(
            NnueMap::with_network(capa, other),
            Err(NetError::Mismatch { .. })
        ));
        // A variant file's piece set: a file variant named like the
        // network but with a knight for an archbishop does not fit.
        let mut reg = Registry::new();
        let file = "[capablanca:chess]\nfiles = 10\npiece.a = knight\npiece.c = betza:RN\n\
                    start = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n\
                    promotion = q r b n a c\ncastlingKingsideFile = i\ncastlingQueensideFile = c\n";
        for r in reg.load("other.ini", file) {
            r.expect("loads");
        }
        let lookalike = reg.get("capablanca").expect("loaded");
        assert_eq!(NetId::of(lookalike).variant, "capablanca");
        assert!(NnueMap::with_network(lookalike, net.clone()).is_err());
        // Damaged or foreign files.
        assert_eq!(
            Network::parse(&bytes[..20])
                .err()
                .map(|e| matches!(e, NetError::BadHeader(_))),
            Some(true)
        );
        let mut big = net.to_bytes();
        big[12] = 13;
        assert!(matches!(Network::parse(&big), Err(NetError::BadHeader(_))));
        let mut short = net.to_bytes();
        short.pop();
        assert!(matches!(
            Network::parse(&short),
            Err(NetError::WrongSize { .. })
        ));
        // Wormhole: holes are no input, so no network applies.
        let w = fers_core::variant::builtin("wormhole").expect("built in");
        assert!(!w.caps.piece_network);
        let wnet = Arc::new(material_net(w, &vec![1; w.pieces.len()]));
        assert!(NnueMap::with_network(w, wnet).is_err());
    }

    /// Damaged files never panic: every truncation of the header and
    /// every single-byte change in it gives a network or an error.
    #[test]
    fn damaged_headers_are_errors_not_panics() {
        let bytes = material_net(capablanca(), &[1, 3, 3, 5, 9, 0, 7, 8]).to_bytes();
        let header = NetId::of(capablanca())
            .header(HIDDEN, false, Buckets::ONE, &KingBuckets::one())
            .len();
        for len in 0..header + 8 {
            assert!(Network::parse(&bytes[..len]).is_err(), "{len} bytes");
        }
        for at in 0..header {
            for x in [0u8, 1, 0x7f, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[at] = x;
                let _ = Network::parse(&b);
            }
        }
    }

    /// Incremental updates equal a fresh sum along random games of
    /// Capablanca (10x8) and of a 12x12 variant with 11 kinds.
    #[test]
    fn incremental_equals_fresh_in_fairy_variants() {
        // One stack for networks of every width in turn: a new width
        // resizes it and forgets what it held.
        let mut stack = NnueStack::new(16);
        for (v, seed, hidden) in [
            (capablanca(), 1u64, HIDDEN),
            (example("grand-leapers"), 2, HIDDEN),
            (capablanca(), 3, 512),
            (example("grand-leapers"), 4, 96),
            (capablanca(), 5, MAX_HIDDEN),
        ] {
            let net = random_net(v, seed, hidden);
            let net = Network::parse(&net.to_bytes()).expect("reads back");
            assert_eq!(net.hidden(), hidden);
            let map = NnueMap::with_network(v, Arc::new(net)).expect("fits");
            let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ seed;
            let mut checked = 0;
            for _game in 0..12 {
                let pos = Position::from_fen(v, &v.start_fen).expect("start");
                checked += check_incremental(&mut stack, &map, pos, &mut rng, 100);
            }
            assert!(checked > 600, "{}: only {checked} positions", v.name);
        }
    }

    /// King buckets: the regions' table; a bucketed network written and
    /// read back; each perspective reads its own king's bucket (the same
    /// position scores otherwise than under bucket 0's weights alone); the
    /// per-ply accumulators, refreshed when a king changes buckets, give
    /// exactly the evaluation from scratch along random games, endgames
    /// with kings walking across the regions included; a damaged table is
    /// refused.
    #[test]
    fn king_buckets_pick_weights_by_the_own_king_and_update_exactly() {
        let ten = KingBuckets::by_region(10, 8, 3).expect("3 regions of 10 files");
        assert_eq!(ten.count, 6);
        assert_eq!(&ten.table[..10], &[0, 0, 0, 1, 1, 1, 1, 2, 2, 2]);
        assert_eq!(&ten.table[70..], &[3, 3, 3, 4, 4, 4, 4, 5, 5, 5]);
        let eight = KingBuckets::by_region(8, 8, 3).expect("3 regions of 8 files");
        assert_eq!(&eight.table[..8], &[0, 0, 0, 1, 1, 2, 2, 2]);
        assert!(KingBuckets::by_region(8, 8, 9).is_none());
        assert!(KingBuckets::by_region(8, 8, 0).is_none());

        let v = capablanca();
        let plain = random_net(v, 7, HIDDEN);
        // Each bucket's rows: the plain network's, each weight moved by
        // up to 20 (a hash of the bucket and the weight's place); bucket
        // 0's as the plain network's.
        let mut net = plain.clone();
        net.kings = ten.clone();
        net.ft_w = (0..ten.count as usize)
            .flat_map(|b| {
                plain.ft_w.iter().enumerate().map(move |(i, &w)| {
                    let x = (i as u64 ^ (b as u64) << 40).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    if b == 0 {
                        w
                    } else {
                        w + ((x >> 59) as i16) - 16
                    }
                })
            })
            .collect();
        let net = Network::parse(&net.to_bytes()).expect("reads back");
        assert_eq!(net.king_buckets(), &ten);
        let map = NnueMap::with_network(v, Arc::new(net.clone())).expect("fits");
        // Bucket 0's weights alone, for comparison.
        let mut first = net.clone();
        first.kings = KingBuckets::one();
        first.ft_w.truncate(first.inputs * first.hidden);
        let first = NnueMap::with_network(v, Arc::new(first)).expect("fits");
        let mut differs = 0;
        for fen in [
            "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq - 0 1",
            "k9/10/10/10/10/10/4P5/9K w - - 0 1",
            "4k5/10/10/10/10/10/4P5/K9 b - - 0 1",
        ] {
            let pos = Position::from_fen(v, fen).expect("FEN");
            if evaluate(&pos, &map) != evaluate(&pos, &first) {
                differs += 1;
            }
        }
        assert_eq!(differs, 3, "the kings' buckets change the evaluation");

        let mut stack = NnueStack::new(16);
        let mut rng = 0x5DEE_CE66_D1CE_4E5Bu64;
        let mut checked = 0;
        for fen in [
            v.start_fen.as_str(),
            "4k5/10/10/3c6/10/10/4P5/4K5 w - - 0 1",
            "k9/p9/10/10/10/10/9P/9K b - - 0 1",
        ] {
            for _game in 0..10 {
                let pos = Position::from_fen(v, fen).expect("FEN");
                checked += check_incremental(&mut stack, &map, pos, &mut rng, 100);
            }
        }
        assert!(checked > 900, "only {checked} positions");

        let mut bytes = net.to_bytes();
        let table_at = bytes.len() - 2 * (net.ft_w.len() + 256 + 512) - 4 - 80;
        bytes[table_at] = 6;
        assert!(matches!(
            Network::parse(&bytes),
            Err(NetError::BadHeader(_))
        ));
        // A network with king buckets does not transfer.
        assert!(net
            .transfer(NetId::of(v), &vec![vec![0]; 8], &[0; 80])
            .is_err());
    }

    /// Widths the engine does not read are refused with the reason: none,
    /// one not a multiple of the SIMD step, one past the widest.
    #[test]
    fn networks_of_unread_widths_are_refused() {
        let v = capablanca();
        let bytes = random_net(v, 7, 64).to_bytes();
        assert_eq!(Network::parse(&bytes).map(|n| n.hidden()), Ok(64));
        for bad in [0u32, 100, 2 * MAX_HIDDEN as u32] {
            let mut b = bytes.clone();
            b[8..12].copy_from_slice(&bad.to_le_bytes());
            let err = Network::parse(&b).map(|_| ()).unwrap_err();
            assert_eq!(err, NetError::WrongHidden(bad));
            assert!(err.to_string().contains("a multiple of 32"), "{err}");
        }
    }

    /// The embedded chess network read as the general network: the
    /// `FERSNN01` file has chess's id, and written in the general format
    /// and read back it evaluates exactly as before.
    #[test]
    fn chess_network_in_the_general_format() {
        let v = fers_core::variant::chess();
        let net = Network::embedded().expect("embedded");
        assert_eq!(net.id, NetId::of(v));
        let again = Arc::new(Network::parse(&net.to_bytes()).expect("reads back"));
        let loaded = NnueMap::with_network(v, again).expect("fits chess");
        let map = chess_map();
        let mut pos = Position::startpos(v);
        let mut rng = 7u64;
        for _ in 0..60 {
            assert_eq!(
                evaluate(&pos, &loaded),
                evaluate(&pos, &map),
                "{}",
                pos.to_fen()
            );
            if !crate::test_util::play_random(&mut pos, &mut rng) {
                break;
            }
        }
    }

    /// The chess network transferred to Almost chess (kinds p n b r k c),
    /// its chancellor reading the queen's inputs, evaluates each position
    /// as the chess network does the same position with queens for
    /// chancellors; a network for another board, or a kind list that does
    /// not fit, is refused.
    #[test]
    fn a_network_transfers_to_a_variant_of_related_pieces() {
        let chess = fers_core::variant::chess();
        let almost = example("almost");
        let net = Network::embedded().expect("embedded");
        let kinds = |ks: &[usize]| ks.iter().map(|&k| vec![k]).collect::<Vec<_>>();
        let same = stretched_squares(&net.id, &NetId::of(almost));
        assert_eq!(same, (0..64).collect::<Vec<_>>(), "the same board");
        let moved = net
            .transfer(NetId::of(almost), &kinds(&[0, 1, 2, 3, 5, 4]), &same)
            .expect("same board");
        let moved = Network::parse(&moved.to_bytes()).expect("reads back");
        let map = NnueMap::with_network(almost, Arc::new(moved)).expect("fits almost");
        let chess_map = chess_map();
        let mut pos = Position::startpos(chess);
        let mut rng = 11u64;
        for _ in 0..80 {
            let fen = pos.to_fen();
            let (board, rest) = fen.split_once(' ').expect("fields");
            let as_almost = format!("{} {rest}", board.replace('q', "c").replace('Q', "C"));
            let there = Position::from_fen(almost, &as_almost).expect("an almost position");
            assert_eq!(
                evaluate(&there, &map),
                evaluate(&pos, &chess_map),
                "{as_almost}"
            );
            if !crate::test_util::play_random(&mut pos, &mut rng) {
                break;
            }
        }
        let refused = |id: NetId, from: &[Vec<usize>], squares: &[usize]| {
            matches!(net.transfer(id, from, squares), Err(NetError::Transfer(_)))
        };
        let capa = NetId::of(capablanca());
        assert!(refused(capa, &kinds(&[0; 8]), &same), "64 squares for 80");
        assert!(
            refused(NetId::of(almost), &kinds(&[0, 1, 2, 3, 4]), &same),
            "a kind short"
        );
        assert!(
            refused(NetId::of(almost), &kinds(&[0, 1, 2, 3, 4, 6]), &same),
            "no kind 6"
        );
        assert!(
            refused(NetId::of(almost), &vec![vec![]; 6], &same),
            "a kind reading none"
        );
        assert!(
            refused(NetId::of(almost), &kinds(&[0; 6]), &[64; 64]),
            "no square 64"
        );
    }

    /// The chess network onto Capablanca's 10x8 board: files a..j read
    /// chess's a b c c d e f f g h, and each Capablanca kind's input row
    /// is the sum of the rows of the chess kinds it is made of (the
    /// archbishop a bishop and a knight, the chancellor a rook and a
    /// knight), for both colours.
    #[test]
    fn a_network_transfers_to_another_board_and_compound_pieces() {
        let net = Network::embedded().expect("embedded");
        let capa = capablanca();
        let id = NetId::of(capa);
        let squares = stretched_squares(&net.id, &id);
        let files: Vec<usize> = squares[..10].to_vec();
        assert_eq!(files, [0, 1, 2, 2, 3, 4, 5, 5, 6, 7]);
        assert_eq!(squares[79], 63, "j8 reads h8");
        assert_eq!(squares[10 + 5], 8 + 4, "f2 reads e2");
        // Chess kinds: p n b r q k. Capablanca's, by letter.
        let of = |c: char| -> Vec<usize> {
            match c {
                'a' => vec![2, 1],
                'c' => vec![3, 1],
                _ => vec!["pnbrqk".find(c).expect("a chess letter")],
            }
        };
        let from: Vec<Vec<usize>> = capa.pieces.iter().map(|p| of(p.letter)).collect();
        let moved = net
            .transfer(id.clone(), &from, &squares)
            .expect("transfers");
        let moved = Network::parse(&moved.to_bytes()).expect("reads back");
        assert_eq!(moved.id, id);
        let (kinds, s) = (capa.pieces.len(), 80);
        for other in 0..2 {
            for (k, ks) in from.iter().enumerate() {
                for (sq, &src) in squares.iter().enumerate() {
                    let mut want = [0i16; HIDDEN];
                    for &c in ks {
                        let row = net.feature_row((other * 6 + c) * 64 + src);
                        for (w, &x) in want.iter_mut().zip(row) {
                            *w = w.saturating_add(x);
                        }
                    }
                    let got = moved.feature_row((other * kinds + k) * s + sq);
                    assert_eq!(got, &want[..], "colour {other}, kind {k}, square {sq}");
                }
            }
        }
        assert_eq!(moved.feature_bias(), net.feature_bias());
        assert_eq!(moved.output_bias(0), net.output_bias(0));

        // Judged by play's evaluation: a Capablanca position on files that
        // map one to one (a b e f g i j onto a b d e f g h) scores as the
        // chess position with the same pieces on those files, either side
        // to move (Black's view mirrored on both boards).
        let map = NnueMap::with_network(capa, Arc::new(moved)).expect("fits capablanca");
        let chess_map = chess_map();
        for stm in ["w", "b"] {
            let there = format!("5k2nr/pp2p1p2p/10/10/10/10/PP2PPP3/R4K2N1 {stm} - - 0 1");
            let here = format!("4k1nr/pp1p1p1p/8/8/8/8/PP1PPP2/R3K1N1 {stm} - - 0 1");
            let there = Position::from_fen(capa, &there).expect("a Capablanca position");
            let here = Position::from_fen(fers_core::variant::chess(), &here).expect("chess");
            assert_eq!(evaluate(&there, &map), evaluate(&here, &chess_map), "{stm}");
        }
    }
}
