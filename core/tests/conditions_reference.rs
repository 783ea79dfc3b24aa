//! fers's conditions against a slow, literal reference generator
//! (`refgen/`, written from the rule texts of seed 003 and sharing no code
//! with fers-core's condition layer): perft divide over random playouts
//! from the start position, Kiwipete, CPW position 4 and a castling
//! middle game, for every condition of seed 003 and four combinations.
//!
//! At every playout position the two legal move lists must be equal; at
//! every `DEPTH2_EVERY`-th one, each move is played in both and the
//! resulting placement, side and castling rights must be equal, and so
//! must the replies' move lists (perft-2 divide). The playouts follow
//! fers's moves (which the reference generated too), so the rule state
//! that FEN cannot hold (Parrain's pending unit, Messigny's last
//! exchange) is carried by both sides alike.
//!
//! The default run is small; `cargo test --release -p fers-core --test
//! conditions_reference -- --ignored` runs a larger and deeper sample.
//! On a mismatch the message names the condition, the start position, the
//! moves played from it, the FEN, and the moves only one side generates.

mod refgen;

use fers_core::{variant, Conditions, Move, Position, Variant};
use refgen::{Board, Rules};
use std::collections::BTreeMap;

const STARTS: [(&str, &str); 4] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "cpw4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "castles",
        "1k5r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQ - 0 1",
    ),
];

/// The start position of the built-in variant where the orthodox one is
/// illegal (kings side by side across a horizontal seam).
const SEAM_START: &str = "pppppppp/rnbqkbnr/8/8/8/8/RNBQKBNR/PPPPPPPP w - - 0 1";

fn chess_with(conditions: &str) -> &'static Variant {
    let mut spec = variant::chess_spec();
    spec.conditions = conditions.parse::<Conditions>().unwrap();
    spec.name = format!("chess+{conditions}");
    variant::leak(Variant::build(spec).unwrap())
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// fers's legal moves by notation; a duplicate is an error.
fn fers_moves(pos: &Position) -> Result<BTreeMap<String, Move>, String> {
    let mut list = fers_core::MoveList::new();
    pos.legal_moves(&mut list);
    let mut out = BTreeMap::new();
    for m in list.iter() {
        if out.insert(pos.move_to_uci(m), m).is_some() {
            return Err(format!("fers generates {} twice", pos.move_to_uci(m)));
        }
    }
    Ok(out)
}

/// The placement, side and castling fields of fers's FEN.
fn fers_fields(pos: &Position) -> String {
    let fen = pos.to_fen();
    let f: Vec<&str> = fen.split_whitespace().collect();
    format!("{} {} {}", f[0], f[1], f[2])
}

struct Ctx<'a> {
    cond: &'a str,
    rules: Rules,
    start: &'a str,
    path: Vec<String>,
    nodes: u64,
}

impl Ctx<'_> {
    fn fail(&self, pos: &Position, what: String) -> String {
        format!(
            "[{}] from {} after [{}]\n  FEN {}\n  {}",
            self.cond,
            self.start,
            self.path.join(" "),
            pos.to_fen(),
            what
        )
    }

    /// Compares the move lists at this node, then (depth > 1) the children.
    fn compare(
        &mut self,
        pos: &Position,
        b: &Board,
        depth: u32,
    ) -> Result<BTreeMap<String, Move>, String> {
        let ours = fers_moves(pos).map_err(|e| self.fail(pos, e))?;
        let theirs = refgen::legal(b, &self.rules);
        self.nodes += 1;
        let only_fers: Vec<&String> = ours.keys().filter(|k| !theirs.contains_key(*k)).collect();
        let only_ref: Vec<&String> = theirs.keys().filter(|k| !ours.contains_key(*k)).collect();
        if !only_fers.is_empty() || !only_ref.is_empty() {
            return Err(self.fail(
                pos,
                format!("only fers: {only_fers:?}; only the reference: {only_ref:?}"),
            ));
        }
        if depth > 1 {
            for (text, &m) in &ours {
                let mut next = pos.clone();
                next.play(m);
                let nb = refgen::play(b, &self.rules, &theirs[text]);
                self.path.push(text.clone());
                let (fa, fb) = (fers_fields(&next), nb.fen_fields());
                if fa != fb {
                    let e = self.fail(pos, format!("after {text}: fers {fa}, the reference {fb}"));
                    self.path.pop();
                    return Err(e);
                }
                let r = self.compare(&next, &nb, depth - 1);
                self.path.pop();
                r?;
            }
        }
        Ok(ours)
    }
}

/// Random playouts under `cond`: `playouts` games of up to `plies` plies,
/// each node compared at depth 1, every `depth2_every`-th at `deep`.
/// Returns (positions, nodes).
fn run(cond: &str, seed: u64, playouts: usize, plies: usize, depth2_every: usize, deep: u32) {
    let v = chess_with(cond);
    let rules = Rules::parse(cond);
    let mut starts: Vec<(&str, &str)> = Vec::new();
    if rules.wrap_ranks {
        starts.push(("seam-start", SEAM_START));
    }
    for &(name, fen) in &STARTS {
        let b = Board::from_fen(fen);
        // Skip positions illegal under the rules (kings across the seam).
        if refgen::king_capturable(&b, &rules) {
            continue;
        }
        if Position::from_fen(v, fen).is_ok() {
            starts.push((name, fen));
        }
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut failures = Vec::new();
    let mut positions = 0u64;
    let mut nodes = 0u64;
    // At least `playouts` games, and more (up to ten times as many) until
    // the positions reach `playouts * plies`: under beamten or messigny
    // games end early.
    let mut game = 0;
    while game < playouts || (positions < (playouts * plies) as u64 && game < 10 * playouts) {
        game += 1;
        let (sname, fen) = starts[game % starts.len()];
        let mut pos = Position::from_fen(v, fen).unwrap();
        let mut b = Board::from_fen(fen);
        let mut ctx = Ctx {
            cond,
            rules,
            start: sname,
            path: Vec::new(),
            nodes: 0,
        };
        for ply in 0..plies {
            let depth = if ply % depth2_every == depth2_every - 1 {
                deep
            } else {
                1
            };
            positions += 1;
            let moves = match ctx.compare(&pos, &b, depth) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(e);
                    break;
                }
            };
            if moves.is_empty() {
                break;
            }
            let keys: Vec<&String> = moves.keys().collect();
            let text = keys[rng.below(keys.len())].clone();
            let m = moves[&text];
            let rm = refgen::legal(&b, &rules)[&text];
            pos.play(m);
            b = refgen::play(&b, &rules, &rm);
            ctx.path.push(text);
        }
        nodes += ctx.nodes;
    }
    eprintln!("{cond}: {positions} playout positions, {nodes} nodes compared");
    assert!(
        failures.is_empty(),
        "{} mismatches under {cond}:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Default run: 8 playouts of 30 plies (240 positions), every 6th
/// position at depth 2.
fn quick(cond: &str, seed: u64) {
    run(cond, seed, 8, 30, 6, 2);
}

/// The larger sample (about a minute per condition in release): 60
/// playouts of 60 plies with every position at depth 2, then 20 more with
/// every 10th position at depth 3.
fn deep(cond: &str, seed: u64) {
    run(cond, seed ^ 0xDEE9, 60, 60, 1, 2);
    run(cond, seed ^ 0x3333, 20, 60, 10, 3);
}

/// Positions made for the rules the playouts reach rarely (and for the
/// disagreements found), compared at depth 2 or 3: (conditions, FEN).
const TARGETED: &[(&str, &str)] = &[
    // Singlebox 1: Black has his whole set, so the g2 pawn cannot move
    // onto the first rank, nor capture a king there: f1 and g1 are safe.
    (
        "singlebox1",
        "r3k2r/p1ppqpb1/bn2pnp1/P2PN2Q/1p2P3/2N5/1PPBBPpP/R3K2R w KQk - 0 4",
    ),
    // Interchange Circe: the white pawn reborn on e1 is immovable, so it
    // gives no check to a king on d2 or f2.
    ("interchangecirce", "8/8/8/8/8/8/4k3/K3P3 b - - 0 1"),
    ("interchangecirce", "k7/4p3/8/8/8/8/8/4K3 w - - 0 1"),
    ("interchangecirce", "r3k3/8/8/8/8/8/8/4K1p1 w - - 0 1"),
    // Singlebox 2: the pawn waits on the last rank, then promotes.
    (
        "singlebox2",
        "r1b1k1nr/pPpqpppp/2n5/1b6/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    // Transmuting kings in check by several kinds.
    ("transmutingkings", "7k/8/8/8/8/2n5/3p4/r3K3 w - - 0 1"),
    // Mars Circe with pieces off their rebirth squares.
    ("marscirce", "4k3/8/3q4/8/2N5/8/4P3/4K3 w - - 0 1"),
    // Parrain: a capture now, the rebirth next move (a pawn to promote).
    ("parraincirce", "4k3/8/8/8/8/8/p7/RN2K3 w - - 0 1"),
    // Anticirce: captures onto the capturer's own rebirth square.
    ("anticirce", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
    ("anticircecalvet", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
    // Messigny: kings exchanging, and the last exchange's units.
    ("messigny", "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1"),
    ("messignyrexexclusiv", "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1"),
    // Castling rights given back: a rook turned white on h1 (Andernach),
    // a rook reborn on a1 (Circe), a king reborn on e1 (Anticirce).
    ("andernach", "4k3/7r/8/8/8/8/8/4K2N b - - 0 1"),
    ("circe", "r3k3/8/8/8/8/R7/8/4K3 b - - 0 1"),
    ("anticirce", "4k3/8/8/8/8/8/5p2/4K2R w - - 0 1"),
    ("parraincirce", "4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1"),
    // Castling on a vertical cylinder: once the rook has left h1 (a1),
    // the queen on a1 (h8) sees the king's destination across the seam.
    (
        "vcylinder",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/Q1N5/1PPBBPPP/q1R1K2R w Kkq - 0 3",
    ),
    (
        "vcylinder",
        "r3k1nQ/1ppp1ppp/1b4bN/nP6/BBP1P3/q4N2/Pp1P1RPP/R2Q2K1 b q - 0 2",
    ),
    ("anchorring", "1k5r/8/8/8/8/8/8/q1R1K2R w K - 0 1"),
    // Sentinelles at the pawn limits.
    (
        "sentinelles",
        "4k3/pppppppp/8/8/3N4/8/PPPPPPPP/4K3 w - - 0 1",
    ),
    (
        "sentinelles",
        "4k3/ppppppp1/8/8/3N4/8/PPPPPPP1/4K3 w - - 0 1",
    ),
];

#[test]
fn targeted_positions() {
    let mut failures = Vec::new();
    for &(cond, fen) in TARGETED {
        let v = chess_with(cond);
        let rules = Rules::parse(cond);
        let pos = match Position::from_fen(v, fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("[{cond}] {fen}: {e:?}"));
                continue;
            }
        };
        let b = Board::from_fen(fen);
        let mut ctx = Ctx {
            cond,
            rules,
            start: fen,
            path: Vec::new(),
            nodes: 0,
        };
        // Depth 3 where the board is light, 2 where it is full.
        let units = b.sq.iter().flatten().count();
        let depth = if units <= 12 { 3 } else { 2 };
        if let Err(e) = ctx.compare(&pos, &b, depth) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

macro_rules! conditions {
    ($($name:ident, $deep:ident: $cond:expr;)*) => {
        $(
            #[test]
            fn $name() {
                quick($cond, line!() as u64);
            }
            #[test]
            #[ignore]
            fn $deep() {
                deep($cond, line!() as u64);
            }
        )*
    };
}

conditions! {
    andernach, deep_andernach: "andernach";
    anticirce, deep_anticirce: "anticirce";
    anticircecalvet, deep_anticircecalvet: "anticircecalvet";
    chinese, deep_chinese: "chinese";
    circe, deep_circe: "circe";
    interchangecirce, deep_interchangecirce: "interchangecirce";
    circemalefique, deep_circemalefique: "circemalefique";
    marscirce, deep_marscirce: "marscirce";
    parraincirce, deep_parraincirce: "parraincirce";
    hcylinder, deep_hcylinder: "hcylinder";
    vcylinder, deep_vcylinder: "vcylinder";
    anchorring, deep_anchorring: "anchorring";
    beamten, deep_beamten: "beamten";
    grid, deep_grid: "grid";
    kamikaze, deep_kamikaze: "kamikaze";
    koeko, deep_koeko: "koeko";
    madrasi, deep_madrasi: "madrasi";
    madrasirex, deep_madrasirex: "madrasirex";
    messigny, deep_messigny: "messigny";
    messignyrexexclusiv, deep_messignyrexexclusiv: "messignyrexexclusiv";
    patrol, deep_patrol: "patrol";
    provocateurs, deep_provocateurs: "provocateurs";
    transmutingkings, deep_transmutingkings: "transmutingkings";
    nocapture, deep_nocapture: "nocapture";
    sentinelles, deep_sentinelles: "sentinelles";
    singlebox1, deep_singlebox1: "singlebox1";
    singlebox2, deep_singlebox2: "singlebox2";
    circe_madrasi, deep_circe_madrasi: "circe madrasi";
    andernach_grid, deep_andernach_grid: "andernach grid";
    anchorring_kamikaze, deep_anchorring_kamikaze: "anchorring kamikaze";
    chinese_circe, deep_chinese_circe: "chinese circe";
}
