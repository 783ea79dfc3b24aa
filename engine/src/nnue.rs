//! The learned evaluation of orthodox chess: a small NNUE-style network.
//!
//! Inputs: 768 per perspective (piece colour relative to the perspective,
//! six roles, 64 squares, mirrored top to bottom for Black), into
//! [`HIDDEN`] units shared by both perspectives; squared clipped ReLU; one
//! output from the side to move's half and the other side's. Weights are
//! integers (feature layer scaled by [`QA`], output by [`QB`]) trained by
//! `fers-nnue` (tools) and embedded in the binary.
//!
//! The network applies to variants with exactly the orthodox pieces and
//! rules on a plain 8x8 board ([`NnueMap::for_variant`]); every other
//! variant keeps the hand-written evaluation of `evaluate.rs`.
//!
//! The search keeps one accumulator per ply ([`NnueStack`]) with the board
//! it was computed for. A new evaluation starts from whichever of the
//! current and the parent ply's accumulators differs from the position in
//! fewest squares and adds and removes those pieces: no make/unmake hook,
//! and a stale accumulator (from a sibling subtree) is still exact, only
//! further away.

use std::sync::OnceLock;

use fers_core::geometry::MAX_SQUARES;
use fers_core::{Color, Position, Variant};

/// Hidden units per perspective.
pub const HIDDEN: usize = 256;
const INPUTS: usize = 768;
const QA: i32 = 255;
const QB: i32 = 64;
/// Output scale: the network's unit is `SCALE` centipawns.
const SCALE: i32 = 400;
/// No piece on a square, in the snapshot boards.
const EMPTY: u8 = 12;
/// Beyond this many changed squares a fresh sum is cheaper.
const MAX_DIFF: usize = 12;

static NET_BYTES: &[u8] = include_bytes!("../nets/chess.nnue");

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    BadMagic,
    WrongHidden(u32),
    WrongSize { expected: usize, found: usize },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a fers network (bad magic)"),
            NetError::WrongHidden(h) => {
                write!(f, "network has {h} hidden units, this build {HIDDEN}")
            }
            NetError::WrongSize { expected, found } => {
                write!(f, "network file has {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

#[derive(Clone)]
#[repr(C, align(64))]
struct Row([i16; HIDDEN]);

/// The network's integer weights.
pub struct Network {
    ft_w: Vec<Row>,
    ft_b: Row,
    /// Output weights: side to move's half, then the other's.
    out_w: [Row; 2],
    out_b: i32,
}

impl Network {
    /// Reads the format `fers-nnue` writes: `FERSNN01`, the hidden size
    /// (u32), then little-endian i16 feature weights `[768][H]`, feature
    /// bias `[H]`, output weights `[2H]`, and the output bias as i32.
    pub fn parse(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 12 || &bytes[..8] != b"FERSNN01" {
            return Err(NetError::BadMagic);
        }
        let h = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if h as usize != HIDDEN {
            return Err(NetError::WrongHidden(h));
        }
        let expected = 12 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        if bytes.len() != expected {
            return Err(NetError::WrongSize {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = 12;
        let mut row = || {
            let mut r = Row([0; HIDDEN]);
            for x in r.0.iter_mut() {
                *x = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                at += 2;
            }
            r
        };
        let ft_w = (0..INPUTS).map(|_| row()).collect();
        let ft_b = row();
        let out_w = [row(), row()];
        let out_b = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        Ok(Network {
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }

    /// The embedded network (parsed once).
    pub fn embedded() -> Option<&'static Network> {
        static NET: OnceLock<Option<Network>> = OnceLock::new();
        NET.get_or_init(|| Network::parse(NET_BYTES).ok()).as_ref()
    }

    /// Score in centipawns for the side to move, from the two perspectives'
    /// accumulators (index 0 White's).
    fn output(&self, acc: &[Row; 2], stm: Color) -> i32 {
        let us = stm.index();
        let mut sum = 0i32;
        for (a, w) in [(&acc[us], &self.out_w[0]), (&acc[us ^ 1], &self.out_w[1])] {
            for (&x, &w) in a.0.iter().zip(w.0.iter()) {
                let v = (x as i32).clamp(0, QA);
                sum += v * w as i32 * v;
            }
        }
        (sum / QA + self.out_b) * SCALE / (QA * QB)
    }

    fn add(&self, acc: &mut [Row; 2], piece: u8, sq: usize) {
        for (view, a) in acc.iter_mut().enumerate() {
            let row = &self.ft_w[feature(view, piece, sq)].0;
            for (x, w) in a.0.iter_mut().zip(row.iter()) {
                *x += w;
            }
        }
    }

    fn sub(&self, acc: &mut [Row; 2], piece: u8, sq: usize) {
        for (view, a) in acc.iter_mut().enumerate() {
            let row = &self.ft_w[feature(view, piece, sq)].0;
            for (x, w) in a.0.iter_mut().zip(row.iter()) {
                *x -= w;
            }
        }
    }

    fn refresh(&self, acc: &mut [Row; 2], board: &[u8; 64]) {
        acc[0] = self.ft_b.clone();
        acc[1] = self.ft_b.clone();
        for (sq, &p) in board.iter().enumerate() {
            if p != EMPTY {
                self.add(acc, p, sq);
            }
        }
    }
}

/// Input index of `piece` (colour * 6 + role) on `sq` (a1 = 0, h8 = 63)
/// from perspective `view` (0 White, 1 Black).
#[inline]
fn feature(view: usize, piece: u8, sq: usize) -> usize {
    let colour = piece as usize / 6;
    let role = piece as usize % 6;
    let rel = if view == 0 { sq } else { sq ^ 56 };
    ((colour != view) as usize) * 384 + role * 64 + rel
}

/// How a variant's kinds and squares map onto the network's inputs.
#[derive(Clone, Debug)]
pub struct NnueMap {
    /// Role (0 pawn .. 5 king) per kind.
    role: Vec<u8>,
    /// Network square (0..64) per board square.
    sq: Box<[u8; MAX_SQUARES]>,
}

impl NnueMap {
    /// The map when `v` is orthodox chess (its six pieces, with `roles`
    /// from their movements, on a plain 8x8 board with the orthodox rules)
    /// and the embedded network loads; `None` otherwise.
    pub fn for_variant(v: &Variant, roles: &[Option<u8>]) -> Option<NnueMap> {
        // The core decides whether this is orthodox chess exactly
        // (`Capabilities::chess_network`): no condition, the six pieces,
        // the orthodox rules on a plain 8x8 board.
        if !v.caps.chess_network || roles.len() != 6 {
            return None;
        }
        let g = &v.geometry;
        let mut role = Vec::with_capacity(6);
        let mut seen = 0u8;
        for r in roles {
            let r = (*r)?;
            seen |= 1 << r;
            role.push(r);
        }
        if seen != 0b11_1111 {
            return None;
        }
        Network::embedded()?;
        let mut sq = Box::new([0u8; MAX_SQUARES]);
        for file in 0..8 {
            for rank in 0..8 {
                sq[g.square(file, rank) as usize] = rank * 8 + file;
            }
        }
        Some(NnueMap { role, sq })
    }

    fn board(&self, pos: &Position) -> [u8; 64] {
        let mut b = [EMPTY; 64];
        for c in [Color::White, Color::Black] {
            let base = c.index() as u8 * 6;
            for s in pos.occupied(c).iter() {
                let k = pos.piece_at(s).kind() as usize;
                b[self.sq[s as usize] as usize] = base + self.role[k];
            }
        }
        b
    }
}

/// Evaluates `pos` from scratch (for callers outside the search).
pub fn evaluate(pos: &Position, map: &NnueMap) -> i32 {
    let Some(net) = Network::embedded() else {
        return 0;
    };
    let mut acc = [net.ft_b.clone(), net.ft_b.clone()];
    net.refresh(&mut acc, &map.board(pos));
    net.output(&acc, pos.side_to_move())
}

#[derive(Clone)]
struct Slot {
    acc: [Row; 2],
    board: [u8; 64],
    valid: bool,
}

/// Per-thread accumulators, one per ply (see the module comment).
pub struct NnueStack {
    slots: Vec<Slot>,
}

impl NnueStack {
    pub fn new(plies: usize) -> NnueStack {
        let slot = Slot {
            acc: [Row([0; HIDDEN]), Row([0; HIDDEN])],
            board: [EMPTY; 64],
            valid: false,
        };
        NnueStack {
            slots: vec![slot; plies + 1],
        }
    }

    /// Forgets every accumulator (a new position or game).
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            s.valid = false;
        }
    }

    /// Evaluates `pos` at `ply`, updating that ply's accumulator.
    pub fn evaluate(&mut self, pos: &Position, map: &NnueMap, ply: usize) -> i32 {
        let Some(net) = Network::embedded() else {
            return 0;
        };
        let ply = ply.min(self.slots.len() - 1);
        let board = map.board(pos);
        let diff = |s: &Slot| {
            if s.valid {
                s.board
                    .iter()
                    .zip(board.iter())
                    .filter(|(a, b)| a != b)
                    .count()
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
        let from = if parent < here { ply - 1 } else { ply };
        if here.min(parent) > MAX_DIFF {
            let slot = &mut self.slots[ply];
            net.refresh(&mut slot.acc, &board);
        } else {
            if from != ply {
                let (lo, hi) = self.slots.split_at_mut(ply);
                hi[0].acc = lo[ply - 1].acc.clone();
                hi[0].board = lo[ply - 1].board;
            }
            let slot = &mut self.slots[ply];
            for (sq, &new) in board.iter().enumerate() {
                let old = slot.board[sq];
                if old != new {
                    if old != EMPTY {
                        net.sub(&mut slot.acc, old, sq);
                    }
                    if new != EMPTY {
                        net.add(&mut slot.acc, new, sq);
                    }
                }
            }
        }
        let slot = &mut self.slots[ply];
        slot.board = board;
        slot.valid = true;
        net.output(&slot.acc, pos.side_to_move())
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

    /// The per-ply accumulators, updated from the parent's or from a stale
    /// sibling's, give exactly the evaluation computed from scratch, along
    /// random games with castling, en passant and promotions.
    #[test]
    fn incremental_equals_fresh() {
        let v = fers_core::variant::chess();
        let map = chess_map();
        let mut stack = NnueStack::new(16);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPpP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for fen in fens {
            for _game in 0..20 {
                let mut pos = Position::from_fen(v, fen).expect("valid FEN");
                // Plies jump about (0, 1, 2, 1, 2, 3, ...) as in a search.
                let mut ply = 0usize;
                for step in 0..80 {
                    assert_eq!(
                        stack.evaluate(&pos, &map, ply),
                        evaluate(&pos, &map),
                        "{}",
                        pos.to_fen()
                    );
                    checked += 1;
                    if !crate::test_util::play_random(&mut pos, &mut seed) {
                        break;
                    }
                    ply = if step % 3 == 2 {
                        ply.saturating_sub(1)
                    } else {
                        (ply + 1) % 16
                    };
                }
            }
        }
        assert!(checked > 2000, "only {checked} positions");
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
}
