//! The fairy conditions of seed 003 as data: the [`Condition`] names, a
//! [`Conditions`] set (`FromStr`/`Display` as space-separated names), which
//! combinations are refused and why, and the tables a variant compiles for
//! them (Circe rebirth squares, grid cells, Singlebox's original counts).
//!
//! A condition acts at four fixed points of the core, never through a
//! second move generator:
//! 1. movement: `chinese` substitutes pieces and the cylinders set the
//!    topology, both in the specification before compilation
//!    ([`apply_to_spec`]); `marscirce` makes captures start from the rebirth
//!    square (`movegen`);
//! 2. extra moves: Messigny exchanges (`movegen`);
//! 3. move filters on pseudo-legal moves, with per-node maps of observed
//!    squares (`rules.rs`): beamten, patrol, provocateurs, madrasi, grid,
//!    koeko, nocapture, singlebox, anticirce, interchange Circe's first-rank
//!    pawns, transmuting kings;
//! 4. after-move effects in `Position::play` (`effects.rs`): rebirths,
//!    Andernach's colour change, kamikaze, sentinelles, Singlebox type 2,
//!    Circe parrain's pending piece.
//!
//! Check follows the same rules: a royal piece is in check when the
//! opponent has a capture of it that the active conditions allow
//! (`rules.rs`).

use crate::geometry::{Geometry, Topology, NO_SQ};
use crate::piece::{named_piece, Color, PieceDef};
use std::fmt;
use std::str::FromStr;

/// One condition of seed 003, by the option names of SPEC section 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Condition {
    Andernach,
    /// Anticirce as the seed defines it (Cheylan type): no capture onto the
    /// capturer's own rebirth square.
    Anticirce,
    /// Popeye's default Anticirce (Calvet type), which allows it.
    AnticirceCalvet,
    Chinese,
    Circe,
    InterchangeCirce,
    CirceMalefique,
    MarsCirce,
    ParrainCirce,
    HCylinder,
    VCylinder,
    AnchorRing,
    Beamten,
    Grid,
    Kamikaze,
    Koeko,
    Madrasi,
    MadrasiRex,
    Messigny,
    MessignyRexExclusiv,
    Patrol,
    Provocateurs,
    TransmutingKings,
    NoCapture,
    Sentinelles,
    SingleBox1,
    SingleBox2,
}

impl Condition {
    pub const ALL: [Condition; 27] = [
        Condition::Andernach,
        Condition::Anticirce,
        Condition::AnticirceCalvet,
        Condition::Chinese,
        Condition::Circe,
        Condition::InterchangeCirce,
        Condition::CirceMalefique,
        Condition::MarsCirce,
        Condition::ParrainCirce,
        Condition::HCylinder,
        Condition::VCylinder,
        Condition::AnchorRing,
        Condition::Beamten,
        Condition::Grid,
        Condition::Kamikaze,
        Condition::Koeko,
        Condition::Madrasi,
        Condition::MadrasiRex,
        Condition::Messigny,
        Condition::MessignyRexExclusiv,
        Condition::Patrol,
        Condition::Provocateurs,
        Condition::TransmutingKings,
        Condition::NoCapture,
        Condition::Sentinelles,
        Condition::SingleBox1,
        Condition::SingleBox2,
    ];

    /// The option name (SPEC section 2).
    pub fn name(self) -> &'static str {
        match self {
            Condition::Andernach => "andernach",
            Condition::Anticirce => "anticirce",
            Condition::AnticirceCalvet => "anticircecalvet",
            Condition::Chinese => "chinese",
            Condition::Circe => "circe",
            Condition::InterchangeCirce => "interchangecirce",
            Condition::CirceMalefique => "circemalefique",
            Condition::MarsCirce => "marscirce",
            Condition::ParrainCirce => "parraincirce",
            Condition::HCylinder => "hcylinder",
            Condition::VCylinder => "vcylinder",
            Condition::AnchorRing => "anchorring",
            Condition::Beamten => "beamten",
            Condition::Grid => "grid",
            Condition::Kamikaze => "kamikaze",
            Condition::Koeko => "koeko",
            Condition::Madrasi => "madrasi",
            Condition::MadrasiRex => "madrasirex",
            Condition::Messigny => "messigny",
            Condition::MessignyRexExclusiv => "messignyrexexclusiv",
            Condition::Patrol => "patrol",
            Condition::Provocateurs => "provocateurs",
            Condition::TransmutingKings => "transmutingkings",
            Condition::NoCapture => "nocapture",
            Condition::Sentinelles => "sentinelles",
            Condition::SingleBox1 => "singlebox1",
            Condition::SingleBox2 => "singlebox2",
        }
    }

    #[inline]
    const fn bit(self) -> u32 {
        1 << self as u8
    }
}

impl FromStr for Condition {
    type Err = String;
    fn from_str(s: &str) -> Result<Condition, String> {
        let l = s.trim().to_ascii_lowercase();
        Condition::ALL
            .iter()
            .copied()
            .find(|c| c.name() == l)
            .ok_or_else(|| format!("unknown condition '{}'", s.trim()))
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of conditions (one bit per [`Condition`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Conditions(pub u32);

/// The conditions that decide where a unit is reborn after a capture (or
/// where the capturer goes): at most one of them at a time.
const REBIRTH_RULES: u32 = Condition::Circe.bit()
    | Condition::CirceMalefique.bit()
    | Condition::InterchangeCirce.bit()
    | Condition::ParrainCirce.bit()
    | Condition::Anticirce.bit()
    | Condition::AnticirceCalvet.bit();

impl Conditions {
    pub const NONE: Conditions = Conditions(0);

    #[inline]
    pub fn has(self, c: Condition) -> bool {
        self.0 & c.bit() != 0
    }
    #[inline]
    pub fn any(self, cs: &[Condition]) -> bool {
        cs.iter().any(|&c| self.has(c))
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn insert(&mut self, c: Condition) {
        self.0 |= c.bit();
    }
    pub fn union(self, o: Conditions) -> Conditions {
        Conditions(self.0 | o.0)
    }
    pub fn iter(self) -> impl Iterator<Item = Condition> {
        Condition::ALL.into_iter().filter(move |&c| self.has(c))
    }

    /// Madrasi in either form.
    #[inline]
    pub fn madrasi(self) -> bool {
        self.any(&[Condition::Madrasi, Condition::MadrasiRex])
    }
    /// Messigny in either form.
    #[inline]
    pub fn messigny(self) -> bool {
        self.any(&[Condition::Messigny, Condition::MessignyRexExclusiv])
    }
    /// Anticirce in either form.
    #[inline]
    pub fn anticirce(self) -> bool {
        self.any(&[Condition::Anticirce, Condition::AnticirceCalvet])
    }

    /// Why this set cannot be played, if it cannot. The refused
    /// combinations are those whose rules contradict each other: two ways
    /// of deciding where a captured unit (or the capturer) is reborn, and
    /// the two Singlebox types. Everything else composes.
    pub fn contradiction(self) -> Option<String> {
        let rebirth: Vec<&str> = self
            .iter()
            .filter(|c| REBIRTH_RULES & c.bit() != 0)
            .map(|c| c.name())
            .collect();
        if rebirth.len() > 1 {
            return Some(format!(
                "{} contradict each other: each decides what becomes of a captured unit",
                rebirth.join(" and ")
            ));
        }
        if self.has(Condition::MarsCirce) && !rebirth.is_empty() {
            return Some(format!(
                "marscirce and {} contradict each other: both move units to rebirth squares",
                rebirth[0]
            ));
        }
        if self.has(Condition::SingleBox1) && self.has(Condition::SingleBox2) {
            return Some("singlebox1 and singlebox2 contradict each other".into());
        }
        None
    }

    /// The board topology these conditions ask for, if any.
    pub fn topology(self) -> Option<Topology> {
        let h = self.has(Condition::HCylinder);
        let v = self.has(Condition::VCylinder);
        if self.has(Condition::AnchorRing) || (h && v) {
            Some(Topology::Torus)
        } else if h {
            Some(Topology::HCylinder)
        } else if v {
            Some(Topology::VCylinder)
        } else {
            None
        }
    }
}

impl FromStr for Conditions {
    type Err = String;
    /// Space- or comma-separated names; empty (or `none`) is no condition.
    fn from_str(s: &str) -> Result<Conditions, String> {
        let mut set = Conditions::NONE;
        for w in s.split(|c: char| c.is_whitespace() || c == ',' || c == '+') {
            if w.is_empty() || w.eq_ignore_ascii_case("none") {
                continue;
            }
            set.insert(w.parse()?);
        }
        Ok(set)
    }
}

impl fmt::Display for Conditions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(|c| c.name()).collect();
        f.write_str(&names.join(" "))
    }
}

/// Applies the conditions that act on the specification itself: the Leo
/// family replaces the orthodox line pieces, the cylinders set the
/// topology. Errors when the board already has another topology.
pub fn apply_to_spec(
    conditions: Conditions,
    pieces: &mut [PieceDef],
    topology: &mut Topology,
) -> Result<(), String> {
    if conditions.has(Condition::Chinese) {
        for p in pieces.iter_mut() {
            let new = match p.name.as_str() {
                "knight" => "mao",
                "bishop" => "vao",
                "rook" => "pao",
                "queen" => "leo",
                _ => continue,
            };
            p.name = new.to_string();
            p.movement = named_piece(new)
                .ok_or("a Leo-family piece is missing from the named pieces")?
                .parse()?;
        }
    }
    if let Some(t) = conditions.topology() {
        if *topology != Topology::Plain && *topology != t {
            return Err(format!(
                "the cylinder conditions ask for a {} board, the variant has a {} one",
                t.name(),
                topology.name()
            ));
        }
        *topology = t;
    }
    Ok(())
}

/// The Circe rebirth squares of a variant, by kind, colour and capture
/// square, for the ordinary and the malefic modality.
#[derive(Clone, Debug)]
pub struct RebirthTable {
    squares: usize,
    /// `table[((malefic * 2 + colour) * kinds + kind) * squares + sq]`.
    table: Vec<u8>,
}

/// How a kind is reborn (the "modalités Circé").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RebirthClass {
    /// Pawns: the same file, on the colour's pawn rank.
    Pawn,
    /// Pieces with home squares in the start position: the home square of
    /// the same square colour as the capture square (rook, bishop,
    /// knight), or the only one (queen, king).
    Home,
    /// Fairy pieces: the same file, on the promotion rank of the side.
    Fairy,
}

impl RebirthTable {
    /// Builds the table from the start position's placement (`start[sq]`
    /// is `Some((kind, colour))`), the pawn kind and the orthodox-ness of
    /// each kind.
    pub fn new(
        geo: &Geometry,
        kinds: usize,
        start: &[Option<(u8, Color)>],
        classes: &[RebirthClass],
        pawn_rank: [u8; 2],
    ) -> RebirthTable {
        let n = geo.num_squares();
        let mut table = vec![NO_SQ; 4 * kinds * n];
        for malefic in 0..2 {
            for ci in 0..2 {
                let color = Color::from_index(ci);
                // The side whose start squares and ranks count.
                let home_side = if malefic == 1 { color.flip() } else { color };
                for kind in 0..kinds {
                    let homes: Vec<u8> = (0..n as u8)
                        .filter(|&s| start[s as usize] == Some((kind as u8, home_side)))
                        .collect();
                    let class = match classes[kind] {
                        RebirthClass::Home if homes.is_empty() => RebirthClass::Fairy,
                        c => c,
                    };
                    for sq in 0..n as u8 {
                        let file = geo.file_of(sq);
                        let r = match class {
                            RebirthClass::Pawn => geo.square(file, pawn_rank[home_side.index()]),
                            RebirthClass::Fairy => {
                                let rank = match home_side {
                                    Color::White => geo.ranks - 1,
                                    Color::Black => 0,
                                };
                                geo.square(file, rank)
                            }
                            RebirthClass::Home => {
                                let shade = |s: u8| (geo.file_of(s) + geo.rank_of(s)) % 2;
                                // Same square colour first, nearest file next.
                                *homes
                                    .iter()
                                    .min_by_key(|&&h| {
                                        (
                                            homes.len() > 1 && shade(h) != shade(sq),
                                            (geo.file_of(h) as i32 - file as i32).abs(),
                                        )
                                    })
                                    .unwrap_or(&NO_SQ)
                            }
                        };
                        table[((malefic * 2 + ci) * kinds + kind) * n + sq as usize] = r;
                    }
                }
            }
        }
        RebirthTable { squares: n, table }
    }

    /// The rebirth square of a `kind` of `color` captured (or capturing) on
    /// `sq`; `malefic` for Circe maléfique.
    #[inline]
    pub fn square(&self, kind: u8, color: Color, sq: u8, malefic: bool) -> u8 {
        let kinds = self.table.len() / (4 * self.squares);
        self.table[((malefic as usize * 2 + color.index()) * kinds + kind as usize) * self.squares
            + sq as usize]
    }
}

/// The kinds whose rebirth follows the orthodox home squares.
pub fn rebirth_class(def: &PieceDef, is_pawn: bool) -> RebirthClass {
    if is_pawn {
        return RebirthClass::Pawn;
    }
    match def.name.as_str() {
        "king" | "queen" | "rook" | "bishop" | "knight" => RebirthClass::Home,
        // The Leo family stands where the pieces it replaces stood.
        "mao" | "vao" | "pao" | "leo" => RebirthClass::Home,
        _ => RebirthClass::Fairy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in Condition::ALL {
            assert_eq!(c.name().parse::<Condition>(), Ok(c));
        }
        let set: Conditions = "circe  Madrasi".parse().unwrap();
        assert!(set.has(Condition::Circe) && set.has(Condition::Madrasi));
        assert_eq!(set.to_string(), "circe madrasi");
        assert!("circe frobnicate".parse::<Conditions>().is_err());
        assert_eq!("".parse::<Conditions>(), Ok(Conditions::NONE));
    }

    #[test]
    fn contradictions() {
        let bad = |s: &str| s.parse::<Conditions>().unwrap().contradiction().is_some();
        assert!(bad("circe anticirce"));
        assert!(bad("circe parraincirce"));
        assert!(bad("marscirce circe"));
        assert!(bad("singlebox1 singlebox2"));
        assert!(!bad("circe madrasi"));
        assert!(!bad("andernach grid"));
        assert!(!bad("anchorring kamikaze"));
        assert!(!bad("chinese circe"));
        assert!(!bad("hcylinder vcylinder"));
    }
}
