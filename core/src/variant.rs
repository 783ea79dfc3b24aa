//! Variants as data. A [`VariantSpec`] is what a built-in definition or a
//! variant file says (board, pieces, rules); [`Variant::build`] compiles it
//! into the tables the move generator reads: step tables, per-piece
//! [`Component`]s, the attack plan, Zobrist keys, pawn directions.
//!
//! Positions hold a `&'static Variant`: variants are built once and live for
//! the whole process (built-ins in a `OnceLock`, file variants leaked once per
//! load), so copying a position costs no reference counting.

use crate::geometry::{Geometry, Steps, Topology, SYMMETRIES};
use crate::piece::{named_piece, Atom, Color, Family, Mode, Movement, PieceDef};
use crate::zobrist::Zobrist;
use std::sync::OnceLock;

/// Largest number of piece kinds in one variant (the piece code has 6 bits).
pub const MAX_KINDS: usize = 30;

/// How a side that has no legal move and is not in check is scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StalemateRule {
    Draw,
    /// The side that cannot move loses.
    Loss,
    /// The side that cannot move wins.
    Win,
}

/// What a variant definition says, before compilation.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    pub name: String,
    pub files: u8,
    pub ranks: u8,
    pub topology: Topology,
    /// Piece kinds; the order fixes the kind numbers.
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    /// Letters pawns may promote to, in order.
    pub promotion: Vec<char>,
    pub castling: bool,
    pub double_step: bool,
    pub en_passant: bool,
    pub stalemate: StalemateRule,
    /// Plies without capture or pawn move after which the game is drawn (0: never).
    pub move_rule: u16,
    /// FIDE insufficient-material draws (only meaningful for chess pieces).
    pub insufficient_material: bool,
}

/// A compiled movement atom: the family with its direction numbers.
#[derive(Clone, Debug)]
pub struct Component {
    pub family: Family,
    pub mode: Mode,
    /// First-leg directions (all 8 symmetries, deduplicated).
    pub dirs: Vec<u8>,
    /// Second-leg directions, parallel to `dirs`, for two-leg families.
    pub dirs2: Vec<u8>,
}

/// One direction of the attack plan: which kinds attack a square from one
/// step away along it (`leap`) and which along the whole open ray (`ride`),
/// as bit masks over kind numbers. Attack detection walks the plan from the
/// attacked square outwards; the vector sets of leapers and riders are closed
/// under negation, so the same directions serve both ways.
#[derive(Clone, Copy, Debug)]
pub struct AttackRay {
    pub dir: u8,
    pub leap: u32,
    pub ride: u32,
}

/// A compiled variant: everything the rules code reads per node.
#[derive(Debug)]
pub struct Variant {
    pub name: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    /// Compiled movement per kind.
    pub components: Vec<Vec<Component>>,
    pub steps: Steps,
    pub start_fen: String,
    pub royal_kind: Option<u8>,
    pub pawn_kind: Option<u8>,
    /// Kinds a pawn may promote to.
    pub promotion: Vec<u8>,
    pub castling: bool,
    pub double_step: bool,
    pub en_passant: bool,
    pub stalemate: StalemateRule,
    pub move_rule: u16,
    pub insufficient_material: bool,
    /// Pawn forward step per colour.
    pub pawn_push: [u8; 2],
    /// Pawn capture directions per colour.
    pub pawn_captures: [[u8; 2]; 2],
    /// Attack plan for leapers and riders (pawns are separate).
    pub attack_rays: Vec<AttackRay>,
    /// True when every piece is a leaper, rider or pawn and there is one
    /// royal piece: then pins and check masks decide legality without
    /// playing the move (the fast path). Otherwise each pseudo-legal move is
    /// played and the royal piece tested.
    pub simple: bool,
    pub zobrist: Zobrist,
}

impl Variant {
    /// Compiles a specification. Errors name the problem in words.
    pub fn build(spec: VariantSpec) -> Result<Variant, String> {
        let geometry = Geometry::new(spec.files, spec.ranks, spec.topology)?;
        if spec.pieces.is_empty() {
            return Err("a variant needs at least one piece".into());
        }
        if spec.pieces.len() > MAX_KINDS {
            return Err(format!("at most {MAX_KINDS} piece kinds"));
        }
        for (i, p) in spec.pieces.iter().enumerate() {
            if !p.letter.is_ascii_lowercase() {
                return Err(format!(
                    "piece letter '{}' must be a lower-case letter",
                    p.letter
                ));
            }
            if p.letter == 'x' {
                return Err("the letter 'x' is reserved for vanished squares".into());
            }
            if spec.pieces[..i].iter().any(|q| q.letter == p.letter) {
                return Err(format!("piece letter '{}' is defined twice", p.letter));
            }
            for a in &p.movement.0 {
                if !a.family.implemented() {
                    return Err(format!(
                        "piece '{}': the {} family is not implemented yet",
                        p.name,
                        a.family.name()
                    ));
                }
            }
        }
        let royals: Vec<u8> = (0..spec.pieces.len() as u8)
            .filter(|&k| spec.pieces[k as usize].royal)
            .collect();
        if royals.len() > 1 {
            return Err("at most one royal piece kind".into());
        }
        let pawns: Vec<u8> = (0..spec.pieces.len() as u8)
            .filter(|&k| spec.pieces[k as usize].is_pawn())
            .collect();
        if pawns.len() > 1 {
            return Err("at most one pawn kind".into());
        }
        let mut promotion = Vec::new();
        for c in &spec.promotion {
            let k = spec
                .pieces
                .iter()
                .position(|p| p.letter == *c)
                .ok_or_else(|| format!("promotion letter '{c}' is not a piece of the variant"))?;
            if spec.pieces[k].royal || spec.pieces[k].is_pawn() {
                return Err(format!("cannot promote to '{c}'"));
            }
            promotion.push(k as u8);
        }

        let mut steps = Steps::new();
        let mut components: Vec<Vec<Component>> = Vec::new();
        for p in &spec.pieces {
            components.push(
                p.movement
                    .0
                    .iter()
                    .map(|a| compile_atom(a, &geometry, &mut steps))
                    .collect(),
            );
        }
        let fwd = [1, -1];
        let pawn_push = [
            steps.dir(&geometry, 0, fwd[0]),
            steps.dir(&geometry, 0, fwd[1]),
        ];
        let pawn_captures = [
            [
                steps.dir(&geometry, -1, fwd[0]),
                steps.dir(&geometry, 1, fwd[0]),
            ],
            [
                steps.dir(&geometry, -1, fwd[1]),
                steps.dir(&geometry, 1, fwd[1]),
            ],
        ];

        // Attack plan: merge every leaper/rider direction of every kind.
        let mut attack_rays: Vec<AttackRay> = Vec::new();
        for (k, comps) in components.iter().enumerate() {
            for c in comps.iter() {
                let c: &Component = c;
                if c.mode == Mode::MoveOnly {
                    continue;
                }
                for &d in &c.dirs {
                    let entry = match attack_rays.iter_mut().position(|r| r.dir == d) {
                        Some(i) => &mut attack_rays[i],
                        None => {
                            attack_rays.push(AttackRay {
                                dir: d,
                                leap: 0,
                                ride: 0,
                            });
                            attack_rays.last_mut().unwrap()
                        }
                    };
                    match c.family {
                        Family::Leaper => entry.leap |= 1 << k,
                        Family::Rider => entry.ride |= 1 << k,
                        _ => {}
                    }
                }
            }
        }
        // Riders first: the pin scan walks them, leapers are single looks.
        attack_rays.sort_by_key(|r| (r.ride == 0, r.dir));
        let simple = royals.len() == 1
            && spec.pieces.iter().all(|p| {
                p.movement.0.iter().all(|a| {
                    matches!(a.family, Family::Leaper | Family::Rider | Family::Pawn)
                        && a.mode == Mode::Both
                })
            });

        let zobrist = Zobrist::new(spec.pieces.len(), geometry.num_squares(), &spec.name);
        Ok(Variant {
            name: spec.name,
            geometry,
            pieces: spec.pieces,
            components,
            steps,
            start_fen: spec.start_fen,
            royal_kind: royals.first().copied(),
            pawn_kind: pawns.first().copied(),
            promotion,
            castling: spec.castling,
            double_step: spec.double_step,
            en_passant: spec.en_passant,
            stalemate: spec.stalemate,
            move_rule: spec.move_rule,
            insufficient_material: spec.insufficient_material,
            pawn_push,
            pawn_captures,
            attack_rays,
            simple,
            zobrist,
        })
    }

    /// Kind number of a FEN letter (either case).
    pub fn kind_of_letter(&self, c: char) -> Option<u8> {
        let l = c.to_ascii_lowercase();
        self.pieces
            .iter()
            .position(|p| p.letter == l)
            .map(|k| k as u8)
    }

    /// The FEN letter of a kind in a colour.
    pub fn letter(&self, kind: u8, color: Color) -> char {
        let l = self.pieces[kind as usize].letter;
        match color {
            Color::White => l.to_ascii_uppercase(),
            Color::Black => l,
        }
    }

    /// Rank index (0-based) of a colour's promotion rank.
    #[inline]
    pub fn promotion_rank(&self, c: Color) -> u8 {
        match c {
            Color::White => self.geometry.ranks - 1,
            Color::Black => 0,
        }
    }

    /// Relative rank (0 = own back rank) of a square for a colour.
    #[inline]
    pub fn relative_rank(&self, c: Color, sq: u8) -> u8 {
        let r = self.geometry.rank_of(sq);
        match c {
            Color::White => r,
            Color::Black => self.geometry.ranks - 1 - r,
        }
    }
}

/// Expands an atom's vectors by the 8 symmetries (jointly for both legs) and
/// registers their step tables.
fn compile_atom(a: &Atom, geo: &Geometry, steps: &mut Steps) -> Component {
    let mut pairs: Vec<((i32, i32), (i32, i32))> = Vec::new();
    for sym in SYMMETRIES {
        let v1 = sym(a.v1.0 as i32, a.v1.1 as i32);
        let v2 = sym(a.v2.0 as i32, a.v2.1 as i32);
        if !pairs.contains(&(v1, v2)) {
            pairs.push((v1, v2));
        }
    }
    let mut dirs = Vec::new();
    let mut dirs2 = Vec::new();
    if a.family != Family::Pawn {
        for (v1, v2) in pairs {
            dirs.push(steps.dir(geo, v1.0, v1.1));
            if a.family.two_legs() {
                dirs2.push(steps.dir(geo, v2.0, v2.1));
            }
        }
    }
    Component {
        family: a.family,
        mode: a.mode,
        dirs,
        dirs2,
    }
}

fn piece(name: &str, letter: char) -> PieceDef {
    let movement: Movement = named_piece(name)
        .expect("built-in piece name")
        .parse()
        .expect("built-in movement");
    PieceDef {
        name: name.to_string(),
        letter,
        movement,
        royal: name == "king",
    }
}

/// The orthodox chess specification, the parent of most variants.
pub fn chess_spec() -> VariantSpec {
    VariantSpec {
        name: "chess".into(),
        files: 8,
        ranks: 8,
        topology: Topology::Plain,
        pieces: vec![
            piece("pawn", 'p'),
            piece("knight", 'n'),
            piece("bishop", 'b'),
            piece("rook", 'r'),
            piece("queen", 'q'),
            piece("king", 'k'),
        ],
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        promotion: vec!['q', 'r', 'b', 'n'],
        castling: true,
        double_step: true,
        en_passant: true,
        stalemate: StalemateRule::Draw,
        move_rule: 100,
        insufficient_material: true,
    }
}

/// Names of the built-in variants, for `UCI_Variant`.
pub fn builtin_names() -> &'static [&'static str] {
    &["chess"]
}

/// A built-in variant by name (case-insensitive), built on first use.
pub fn builtin(name: &str) -> Option<&'static Variant> {
    static CHESS: OnceLock<Variant> = OnceLock::new();
    match name.to_ascii_lowercase().as_str() {
        "chess" | "standard" | "normal" => {
            Some(CHESS.get_or_init(|| Variant::build(chess_spec()).expect("chess builds")))
        }
        _ => None,
    }
}

/// The orthodox chess variant.
pub fn chess() -> &'static Variant {
    builtin("chess").expect("chess is built in")
}

/// Builds a variant and keeps it for the life of the process.
pub fn leak(v: Variant) -> &'static Variant {
    Box::leak(Box::new(v))
}
