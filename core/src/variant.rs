//! Variants as data. A [`VariantSpec`] is what a built-in definition or a
//! variant file says (board, pieces, rules); [`Variant::build`] compiles it
//! into the tables the move generator reads: step tables, per-piece
//! [`Component`]s, the attack plan, Zobrist keys, pawn directions.
//!
//! Positions hold a `&'static Variant`: variants are built once and live for
//! the whole process (built-ins in a `OnceLock`, file variants leaked once per
//! load), so copying a position costs no reference counting.

use crate::baroque::{CaptureRules, CaptureSpec, CaptureStyle};
use crate::capabilities::Capabilities;
use crate::conditions::{self, Condition, Conditions, RebirthTable};
use crate::fanorona::ChainRules;
use crate::geometry::{Geometry, Lines, SquareSet, Steps, Topology, NO_SQ, SYMMETRIES};
use crate::piece::{named_piece, Atom, Color, Family, Mode, Movement, PieceDef};
use crate::wormhole::{skip_family_ok, HoleRules, SkipTables};
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
    /// Files (0-based) the king castles to, king side and queen side;
    /// `None` is the default, the second file from each edge.
    pub castling_files: [Option<u8>; 2],
    pub double_step: bool,
    pub en_passant: bool,
    pub stalemate: StalemateRule,
    /// Plies without capture or pawn move after which the game is drawn (0: never).
    pub move_rule: u16,
    /// FIDE insufficient-material draws (only meaningful for chess pieces).
    pub insufficient_material: bool,
    /// Fairy conditions of seed 003 played on top of the pieces.
    pub conditions: Conditions,
    /// Vanishing squares and hole-skipping movement (Wormhole).
    pub holes: HoleRules,
    /// Pawns promote only by capturing onto the last rank; a push there
    /// leaves a pawn.
    pub capture_promotion: bool,
    /// Passive capture styles and immobilizers (Baroque); empty: every
    /// piece captures by replacement.
    pub captures: CaptureSpec,
    /// The lines joining the points (Fanorona's diagonals exist only
    /// through some points).
    pub lines: Lines,
    /// Fanorona: one kind of stone that captures by approach and
    /// withdrawal, in chains, compulsorily; a turn is one move
    /// (`fanorona.rs`).
    pub chains: bool,
    /// A network file trained for this variant (a variant file's
    /// `network` key, resolved against the file's directory): the engine
    /// evaluates with it when it fits (`engine/src/nnue.rs`). Not
    /// inherited: a network is for one variant name.
    pub network: Option<String>,
}

/// A compiled movement atom: the family with its direction numbers, per
/// colour (Black's vectors are White's mirrored top to bottom).
#[derive(Clone, Debug)]
pub struct Component {
    pub family: Family,
    pub mode: Mode,
    /// First-leg directions (the kept symmetric images, deduplicated).
    pub dirs: [Vec<u8>; 2],
    /// Second-leg directions, parallel to `dirs`, for two-leg families; for
    /// the horned rider, the 90° turn to the left.
    pub dirs2: [Vec<u8>; 2],
    /// Horned rider only: the 90° turn to the right.
    pub dirs3: [Vec<u8>; 2],
}

/// One direction of the attack plan: which kinds attack a square from one
/// step away along it (`leap`) and which along the whole open ray (`ride`),
/// as bit masks over kind numbers. Attack detection walks the plan from the
/// attacked square outwards, so `dir` is the attacker's move vector negated.
#[derive(Clone, Copy, Debug)]
pub struct AttackRay {
    pub dir: u8,
    pub leap: u32,
    pub ride: u32,
}

/// No ray (`Variant::pin_lines`).
pub const NO_RAY: u8 = u8::MAX;

/// Reverse attack entry for a family with hurdles or lame legs: walking
/// from the attacked square with the attacker's vectors negated.
#[derive(Clone, Copy, Debug)]
pub struct ComplexRay {
    pub family: Family,
    /// The attacker's (first-leg) vector, negated.
    pub back: u8,
    /// The attacker's vector itself (locust: the landing square beyond).
    pub fwd: u8,
    /// The second leg negated (decomposed leapers).
    pub back2: u8,
    pub kinds: u32,
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
    /// King destination files of castling, king side and queen side.
    pub castling_files: [u8; 2],
    pub double_step: bool,
    pub en_passant: bool,
    pub stalemate: StalemateRule,
    pub move_rule: u16,
    pub insufficient_material: bool,
    /// Pawn forward step per colour.
    pub pawn_push: [u8; 2],
    /// Pawn capture directions per colour.
    pub pawn_captures: [[u8; 2]; 2],
    /// Attack plan for leapers and riders, per attacking colour (pawns are
    /// separate).
    pub attack_rays: [Vec<AttackRay>; 2],
    /// Kinds (bit mask) that capture through families the attack plan does
    /// not cover (hoppers, lame leapers, ...): attack detection generates
    /// their captures instead.
    pub complex_kinds: u32,
    /// Where `Capabilities::lazy_pins` holds, per attacking colour: for a
    /// royal square `k` and another square `s`, at `k * num_squares + s`,
    /// the index in `attack_rays` of the rider ray from `k` through `s`, or
    /// `NO_RAY`. Empty elsewhere.
    pub pin_lines: [Vec<u8>; 2],
    /// Reverse attack plan for hopper-like and lame families, per attacking
    /// colour.
    pub complex_rays: [Vec<ComplexRay>; 2],
    /// Kinds with capturing families neither plan covers (two-leg riders,
    /// horned riders): attack detection generates their captures.
    pub fallback_kinds: u32,
    /// Kinds (bit mask) whose generated moves may repeat (overlapping atoms,
    /// wrapped boards): the generator removes duplicates for them.
    pub dedup_kinds: u32,
    /// The fairy conditions in force.
    pub conditions: Conditions,
    pub holes: HoleRules,
    pub capture_promotion: bool,
    /// Hole-skipping movement's tables (`holes.skip` only).
    pub skip: Option<SkipTables>,
    /// The tables the conditions read (rebirth squares, home squares, ...).
    pub rules: RuleTables,
    /// Passive capture styles and immobilisation (`baroque.rs`), if any.
    pub capture: Option<CaptureRules>,
    /// Capture chains (`fanorona.rs`), if any.
    pub chains: Option<ChainRules>,
    /// Which shortcuts are sound here (derived from everything above).
    pub caps: Capabilities,
    pub zobrist: Zobrist,
    /// The network file its variant file names (`VariantSpec::network`).
    pub network: Option<String>,
}

/// What the conditions read per move, compiled once per variant.
#[derive(Clone, Debug, Default)]
pub struct RuleTables {
    /// Circe rebirth squares (any rebirth condition, Mars Circe included).
    pub rebirth: Option<RebirthTable>,
    /// Start square of each side's royal piece, and of the rooks that have
    /// castling rights in the start position (`[colour][wing]`): a rook or
    /// royal piece reborn (or turned) there may castle again.
    pub royal_home: [u8; 2],
    pub rook_home: [[u8; 2]; 2],
    /// Singlebox: how many pieces of each kind each side starts with.
    pub start_count: [Vec<u8>; 2],
    /// Grid: the 2x2 cell of each square.
    pub cell: Vec<u8>,
    /// The squares next to each square (8 neighbours, topology applied).
    pub neighbours: Vec<SquareSet>,
    /// Mars Circe: where a kind of a colour could capture from a square on
    /// an empty board, `reach[(colour * kinds + kind) * squares + sq]` (all
    /// squares for families with hurdles or lame legs): a quick test before
    /// the real walk from the rebirth square.
    pub reach: Vec<SquareSet>,
}

impl Variant {
    /// Compiles a specification. Errors name the problem in words.
    pub fn build(mut spec: VariantSpec) -> Result<Variant, String> {
        if let Some(why) = spec.conditions.contradiction() {
            return Err(why);
        }
        if !spec.conditions.is_empty() && !spec.captures.is_empty() {
            // The conditions speak of the capturing piece and one victim
            // on its landing square; passive captures have neither.
            return Err(
                "fairy conditions cannot be combined with passive captures (Baroque)".into(),
            );
        }
        conditions::apply_to_spec(spec.conditions, &mut spec.pieces, &mut spec.topology)?;
        let geometry = Geometry::new(spec.files, spec.ranks, spec.topology)?.with_lines(spec.lines);
        if spec.chains {
            check_chain_spec(&spec)?;
        }
        for f in spec.castling_files.iter().flatten() {
            if *f == 0 || *f + 1 >= spec.files {
                return Err(format!(
                    "castling file {} leaves no room for the rook",
                    (b'a' + f) as char
                ));
            }
        }
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
            if spec.pieces[..i].iter().any(|q| q.letter == p.letter) {
                return Err(format!("piece letter '{}' is defined twice", p.letter));
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

        let skip = if spec.holes.skip {
            if let Some(p) = spec
                .pieces
                .iter()
                .find(|p| p.movement.0.iter().any(|a| !skip_family_ok(a.family)))
            {
                return Err(format!(
                    "piece '{}': hole-skipping movement is defined for leapers, \
                     decomposed leapers and pawns only",
                    p.letter
                ));
            }
            let pawn = pawns.first().map(|&k| (k, pawn_captures));
            Some(SkipTables::new(&geometry, &mut steps, &components, pawn))
        } else {
            None
        };

        // Attack plan: merge every leaper/rider direction of every kind, per
        // attacking colour, walking from the target (negated vectors).
        let mut attack_rays: [Vec<AttackRay>; 2] = [Vec::new(), Vec::new()];
        let mut complex_kinds = 0u32;
        let mut complex_rays: [Vec<ComplexRay>; 2] = [Vec::new(), Vec::new()];
        let mut fallback_kinds = 0u32;
        let mut dedup_kinds = 0u32;
        for (k, comps) in components.iter().enumerate() {
            let mut seen_vectors = Vec::new();
            for c in comps.iter() {
                if !c.family.is_simple() || geometry.topology != Topology::Plain {
                    dedup_kinds |= 1 << k;
                }
                for &d in &c.dirs[0] {
                    if seen_vectors.contains(&d) {
                        dedup_kinds |= 1 << k;
                    }
                    seen_vectors.push(d);
                }
                if c.mode == Mode::MoveOnly || c.family == Family::Pawn {
                    continue;
                }
                if !c.family.is_simple() {
                    complex_kinds |= 1 << k;
                    let reversible = matches!(
                        c.family,
                        Family::Hopper
                            | Family::ProlongedHopper
                            | Family::Chinese
                            | Family::DecomposedLeaper
                            | Family::Equihopper
                            | Family::ContraHopper
                            | Family::Kanghopper
                            | Family::Locuhopper
                            | Family::Marine
                    );
                    if !reversible {
                        fallback_kinds |= 1 << k;
                        continue;
                    }
                    // Prolonged hoppers and Chinese pieces capture alike.
                    let family = if c.family == Family::Chinese {
                        Family::ProlongedHopper
                    } else {
                        c.family
                    };
                    let family = if family == Family::Marine {
                        Family::Locuhopper
                    } else {
                        family
                    };
                    for (color, rays) in complex_rays.iter_mut().enumerate() {
                        for (i, &d) in c.dirs[color].iter().enumerate() {
                            let (x, y) = steps.vectors[d as usize];
                            let back = steps.dir(&geometry, -(x as i32), -(y as i32));
                            let back2 = match c.dirs2[color].get(i) {
                                Some(&e) => {
                                    let (x2, y2) = steps.vectors[e as usize];
                                    steps.dir(&geometry, -(x2 as i32), -(y2 as i32))
                                }
                                None => back,
                            };
                            match rays
                                .iter_mut()
                                .find(|r| r.family == family && r.back == back && r.back2 == back2)
                            {
                                Some(r) => r.kinds |= 1 << k,
                                None => rays.push(ComplexRay {
                                    family,
                                    back,
                                    fwd: d,
                                    back2,
                                    kinds: 1 << k,
                                }),
                            }
                        }
                    }
                    continue;
                }
                for (color, rays) in attack_rays.iter_mut().enumerate() {
                    for &d in &c.dirs[color] {
                        let (x, y) = steps.vectors[d as usize];
                        let back = steps.dir(&geometry, -(x as i32), -(y as i32));
                        let entry = match rays.iter().position(|r| r.dir == back) {
                            Some(i) => &mut rays[i],
                            None => {
                                rays.push(AttackRay {
                                    dir: back,
                                    leap: 0,
                                    ride: 0,
                                });
                                rays.last_mut().expect("just pushed")
                            }
                        };
                        match c.family {
                            Family::Leaper => entry.leap |= 1 << k,
                            _ => entry.ride |= 1 << k,
                        }
                    }
                }
            }
        }
        // Riders first: the pin scan walks them, leapers are single looks.
        for rays in attack_rays.iter_mut() {
            rays.sort_by_key(|r| (r.ride == 0, r.dir));
        }
        let all_simple = spec
            .pieces
            .iter()
            .all(|p| p.movement.0.iter().all(|a| a.family.is_simple()));
        let capture = CaptureRules::new(&spec.captures, &spec.pieces, &geometry, &mut steps)?;
        let chains = if spec.chains {
            Some(ChainRules::new(&geometry, &mut steps)?)
        } else {
            None
        };
        let caps = derive_capabilities(&spec, royals.len(), all_simple, complex_kinds);

        let zobrist = Zobrist::new(spec.pieces.len(), geometry.num_squares(), &spec.name);
        let mut v = Variant {
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
            castling_files: [
                spec.castling_files[0].unwrap_or(spec.files.saturating_sub(2)),
                spec.castling_files[1].unwrap_or(2),
            ],
            double_step: spec.double_step,
            en_passant: spec.en_passant,
            stalemate: spec.stalemate,
            move_rule: spec.move_rule,
            // FIDE's dead positions are orthodox facts; a condition may
            // make them live (or die sooner).
            insufficient_material: spec.insufficient_material && spec.conditions.is_empty(),
            pawn_push,
            pawn_captures,
            attack_rays,
            complex_kinds,
            pin_lines: [Vec::new(), Vec::new()],
            complex_rays,
            fallback_kinds,
            dedup_kinds,
            conditions: spec.conditions,
            holes: spec.holes,
            capture_promotion: spec.capture_promotion,
            skip,
            rules: RuleTables::default(),
            capture,
            chains,
            caps,
            zobrist,
            network: spec.network,
        };
        if !v.conditions.is_empty() {
            v.rules = RuleTables::new(&v)?;
        }
        if v.caps.lazy_pins {
            match (v.rider_lines(0), v.rider_lines(1)) {
                (Some(white), Some(black)) => v.pin_lines = [white, black],
                // Two rider lines through one square (a bishop's and an
                // alfilrider's): a move there may open either.
                _ => v.caps.lazy_pins = false,
            }
        }
        Ok(v)
    }

    /// The `pin_lines` table of one attacking colour: each rider ray
    /// walked from each square to the edge. `None` when two rays pass
    /// through one square (riders whose steps are multiples of each
    /// other's).
    fn rider_lines(&self, colour: usize) -> Option<Vec<u8>> {
        let n = self.geometry.num_squares();
        let mut lines = vec![NO_RAY; n * n];
        for k in 0..n as u8 {
            for (i, r) in self.attack_rays[colour].iter().enumerate() {
                if r.ride == 0 {
                    continue;
                }
                if i >= NO_RAY as usize {
                    return None;
                }
                let mut s = self.steps.step(r.dir, k);
                while s != NO_SQ && s != k {
                    let at = &mut lines[k as usize * n + s as usize];
                    if *at != NO_RAY {
                        return None;
                    }
                    *at = i as u8;
                    s = self.steps.step(r.dir, s);
                }
            }
        }
        Some(lines)
    }

    /// Are the rules the same when the board is mirrored left to right
    /// (files a and last swapped), once nobody may castle? True when every
    /// piece's movement is (each atom's set of leg vectors, per colour,
    /// closed under `(dx, dy) -> (-dx, dy)`) and nothing else looks at files:
    /// no conditions, holes, passive captures or capture chains. A trainer
    /// then has each position without castling rights twice.
    pub fn file_mirror_symmetric(&self) -> bool {
        if !self.conditions.is_empty()
            || self.holes.vanish
            || self.holes.skip
            || self.capture.is_some()
            || self.chains.is_some()
        {
            return false;
        }
        let vec = |d: u8| self.steps.vectors[d as usize];
        let mirrored = |(dx, dy): (i8, i8)| (-dx, dy);
        // Pawns push straight ahead and capture on both forward diagonals
        // in every variant (`Variant::build`): only the atoms are checked.
        // Per kind and colour, every (family, mode, leg vectors) of all its
        // atoms together (a side-only atom may have its twin in another).
        type Move = (Family, crate::piece::Mode, Vec<(i8, i8)>);
        let closed = |moves: &[Move]| {
            moves.iter().all(|(f, m, legs)| {
                let legs: Vec<_> = legs.iter().copied().map(mirrored).collect();
                moves.iter().any(|(g, n, l)| g == f && n == m && *l == legs)
            })
        };
        self.components.iter().all(|atoms| {
            (0..2).all(|col| {
                let moves: Vec<Move> = atoms
                    .iter()
                    .flat_map(|c| {
                        (0..c.dirs[col].len()).map(move |i| {
                            let legs = [&c.dirs[col], &c.dirs2[col], &c.dirs3[col]]
                                .iter()
                                .filter_map(|d| d.get(i).copied().map(vec))
                                .collect();
                            (c.family, c.mode, legs)
                        })
                    })
                    .collect();
                closed(&moves)
            })
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

    /// The FEN character of a vanished square: `x`, or `*` in a variant
    /// that uses `x` as a piece letter (Fairy-Stockfish's files may).
    pub fn hole_char(&self) -> char {
        if self.kind_of_letter('x').is_some() {
            '*'
        } else {
            'x'
        }
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

/// Conditions that change only which moves exist, never what a move does
/// to the board or what gives check: the shortcuts stay sound under them.
/// (Not Singlebox type 1: a pawn with no promotion left gives no check on
/// its last rank.)
const SHAPE_ONLY: [Condition; 5] = [
    Condition::Chinese,
    Condition::HCylinder,
    Condition::VCylinder,
    Condition::AnchorRing,
    Condition::NoCapture,
];

/// Conditions that filter or move the attackers of a royal piece.
const CHECK_RULES: [Condition; 13] = [
    Condition::Anticirce,
    Condition::AnticirceCalvet,
    Condition::MarsCirce,
    Condition::Beamten,
    Condition::Grid,
    Condition::Koeko,
    Condition::Madrasi,
    Condition::MadrasiRex,
    Condition::Patrol,
    Condition::Provocateurs,
    Condition::TransmutingKings,
    Condition::SingleBox1,
    Condition::InterchangeCirce,
];

/// The one place that decides which shortcuts a variant allows.
/// A capture-chain variant has one kind of stone and nothing else that
/// changes moves or captures.
fn check_chain_spec(spec: &VariantSpec) -> Result<(), String> {
    if spec.pieces.len() != 1 || spec.pieces[0].royal {
        return Err("capture chains need exactly one kind of stone, not royal".into());
    }
    if !spec.conditions.is_empty() || !spec.captures.is_empty() || spec.holes != HoleRules::NONE {
        return Err(
            "capture chains cannot be combined with conditions, capture styles or holes".into(),
        );
    }
    if spec.topology != Topology::Plain || spec.castling || spec.en_passant || spec.double_step {
        return Err(
            "capture chains are played on a plain board without castling or pawn moves".into(),
        );
    }
    Ok(())
}

fn derive_capabilities(
    spec: &VariantSpec,
    royals: usize,
    all_simple: bool,
    complex_kinds: u32,
) -> Capabilities {
    if spec.chains {
        // No royal piece, so nothing to pin, check or test; the shortcuts
        // that speak of checks, exchanges on one square, passing or the
        // chess pieces do not apply. Captures remove stones for good, but
        // capture is compulsory and nearly every early position has only
        // captures (each chain prefix one of them): unlimited quiescence
        // would search most of the game tree, so `captures_simplify` stays
        // off and quiescence keeps its ply limit. The stones on the points
        // are the whole board, so a network can read it.
        return Capabilities {
            piece_network: true,
            ..Capabilities::NONE
        };
    }
    let cond = spec.conditions;
    // A vanished start square and skipped holes change the lines: pins,
    // check masks and the attack plan's empty-board geometry mean nothing
    // there. Attack detection itself follows the holes
    // (`wormhole::skip_attacked`), so check stays plain, and legality on a
    // board copy holds (`legal_general` leaves the hole).
    let holes = spec.holes.vanish || spec.holes.skip;
    // Passive captures remove pieces away from the landing square and
    // change what gives check; immobilisation changes who can move.
    let passive = !spec.captures.is_empty();
    let shape_only = cond.iter().all(|c| SHAPE_ONLY.contains(&c)) && !holes && !passive;
    let plain_check = !cond.any(&CHECK_RULES) && !passive;
    let pin_legality = royals == 1 && shape_only;
    let plain_8x8 = spec.files == 8 && spec.ranks == 8 && spec.topology == Topology::Plain;
    let orthodox_pieces = spec.pieces.len() == 6
        && ["pawn", "knight", "bishop", "rook", "queen", "king"]
            .iter()
            .all(|name| {
                let want = named_piece(name).unwrap_or("");
                spec.pieces
                    .iter()
                    .any(|p| p.movement.to_string() == want && (p.royal == (*name == "king")))
            });
    let chess_network = cond.is_empty()
        && !holes
        && !passive
        && plain_8x8
        && orthodox_pieces
        && spec.castling
        && spec.en_passant
        && spec.double_step
        && spec.stalemate == StalemateRule::Draw
        && spec.move_rule == 100;
    let no_state = !cond.any(&[
        Condition::ParrainCirce,
        Condition::Messigny,
        Condition::MessignyRexExclusiv,
        Condition::SingleBox2,
        Condition::Beamten,
    ]);
    let captures_simplify = !cond.any(&UNSIMPLIFYING);
    Capabilities {
        pin_legality,
        board_copy_legality: cond.is_empty() && !passive,
        hole_legality: spec.holes.skip && royals == 1 && cond.is_empty() && !passive,
        lazy_legality: !pin_legality,
        lazy_pins: pin_legality
            && complex_kinds == 0
            && cond.is_empty()
            && spec.topology == Topology::Plain,
        // On files that wrap, the rook's home square is no board edge: the
        // king's destination may see past it once the rook has moved.
        simple_castling: pin_legality && all_simple && !spec.topology.wraps_files(),
        plain_check,
        exact_see: complex_kinds == 0 && shape_only && !cond.has(Condition::NoCapture),
        captures_simplify,
        // Exchanges move pawns backwards and can be undone.
        clock_bounds_repetition: captures_simplify
            && !cond.any(&[Condition::Messigny, Condition::MessignyRexExclusiv]),
        null_move: royals == 1 && spec.stalemate == StalemateRule::Draw && no_state,
        chess_network,
        piece_network: !holes,
        check_filter: all_simple && shape_only,
    }
}

/// The conditions under which a capture may bring a unit back, change its
/// colour or add one (`Capabilities::captures_simplify` is false).
const UNSIMPLIFYING: [Condition; 6] = [
    Condition::Circe,
    Condition::CirceMalefique,
    Condition::InterchangeCirce,
    Condition::ParrainCirce,
    Condition::Andernach,
    Condition::Sentinelles,
];

impl RuleTables {
    /// The tables of a variant with conditions.
    fn new(v: &Variant) -> Result<RuleTables, String> {
        let geo = v.geometry;
        let n = geo.num_squares();
        let kinds = v.pieces.len();
        let start = start_placement(v)?;
        let mut t = RuleTables {
            royal_home: [NO_SQ; 2],
            rook_home: [[NO_SQ; 2]; 2],
            start_count: [vec![0; kinds], vec![0; kinds]],
            ..RuleTables::default()
        };
        for (sq, p) in start.iter().enumerate() {
            if let Some((k, c)) = *p {
                t.start_count[c.index()][k as usize] += 1;
                if Some(k) == v.royal_kind {
                    t.royal_home[c.index()] = sq as u8;
                }
            }
        }
        // The castling rooks of the start position: the outermost rook on
        // each side of the royal piece on its back rank.
        if let Some(rook) = v.kind_of_letter('r') {
            for c in [Color::White, Color::Black] {
                let k = t.royal_home[c.index()];
                if k == NO_SQ || !v.castling {
                    continue;
                }
                let rank = geo.rank_of(k);
                let is_rook = |f: u8| start[geo.square(f, rank) as usize] == Some((rook, c));
                let kf = geo.file_of(k);
                if let Some(f) = (kf + 1..geo.files).rev().find(|&f| is_rook(f)) {
                    t.rook_home[c.index()][0] = geo.square(f, rank);
                }
                if let Some(f) = (0..kf).find(|&f| is_rook(f)) {
                    t.rook_home[c.index()][1] = geo.square(f, rank);
                }
            }
        }
        let cond = v.conditions;
        if cond.any(&[
            Condition::Circe,
            Condition::CirceMalefique,
            Condition::Anticirce,
            Condition::AnticirceCalvet,
            Condition::MarsCirce,
        ]) {
            let classes: Vec<_> = (0..kinds)
                .map(|k| conditions::rebirth_class(&v.pieces[k], v.pawn_kind == Some(k as u8)))
                .collect();
            let pawn_rank = [1, geo.ranks.saturating_sub(2)];
            t.rebirth = Some(RebirthTable::new(&geo, kinds, &start, &classes, pawn_rank));
        }
        if cond.has(Condition::MarsCirce) {
            t.reach = empty_board_reach(v);
        }
        t.cell = (0..n as u8)
            .map(|s| (geo.rank_of(s) / 2) * geo.files.div_ceil(2) + geo.file_of(s) / 2)
            .collect();
        t.neighbours = (0..n as u8)
            .map(|s| {
                let mut set = SquareSet::EMPTY;
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if (dx, dy) != (0, 0) {
                            if let Some(t) = geo.offset(s, dx, dy) {
                                if t != s {
                                    set.insert(t);
                                }
                            }
                        }
                    }
                }
                set
            })
            .collect();
        Ok(t)
    }
}

/// Per colour, kind and square, the squares a capture could land on with
/// no other piece on the board (`RuleTables::reach`).
fn empty_board_reach(v: &Variant) -> Vec<SquareSet> {
    let n = v.geometry.num_squares();
    let kinds = v.pieces.len();
    let mut out = vec![SquareSet::EMPTY; 2 * kinds * n];
    for ci in 0..2 {
        for kind in 0..kinds {
            for sq in 0..n as u8 {
                let set = &mut out[(ci * kinds + kind) * n + sq as usize];
                if v.pawn_kind == Some(kind as u8) {
                    for &d in &v.pawn_captures[ci] {
                        let t = v.steps.step(d, sq);
                        if t != NO_SQ {
                            set.insert(t);
                        }
                    }
                    continue;
                }
                for c in &v.components[kind] {
                    match c.family {
                        Family::Leaper => {
                            for &d in &c.dirs[ci] {
                                let t = v.steps.step(d, sq);
                                if t != NO_SQ {
                                    set.insert(t);
                                }
                            }
                        }
                        Family::Rider => {
                            for &d in &c.dirs[ci] {
                                let mut t = v.steps.step(d, sq);
                                while t != NO_SQ && t != sq && !set.contains(t) {
                                    set.insert(t);
                                    t = v.steps.step(d, t);
                                }
                            }
                        }
                        _ => *set = SquareSet::ALL,
                    }
                }
            }
        }
    }
    out
}

/// The pieces of the variant's start position, square by square.
fn start_placement(v: &Variant) -> Result<Vec<Option<(u8, Color)>>, String> {
    let geo = v.geometry;
    let mut out = vec![None; geo.num_squares()];
    let board = v.start_fen.split_whitespace().next().unwrap_or("");
    for (i, row) in board.split('/').enumerate() {
        if i >= geo.ranks as usize {
            return Err("the start position has too many ranks".into());
        }
        let rank = geo.ranks - 1 - i as u8;
        let mut file = 0u32;
        let mut digits = 0u32;
        for ch in row.chars().chain(std::iter::once('/')) {
            if let Some(d) = ch.to_digit(10) {
                digits = digits * 10 + d;
                continue;
            }
            file += digits;
            digits = 0;
            if ch == '/' {
                break;
            }
            if file < geo.files as u32 {
                if let Some(k) = v.kind_of_letter(ch).filter(|_| ch.is_ascii_alphabetic()) {
                    let c = if ch.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    out[geo.square(file as u8, rank) as usize] = Some((k, c));
                }
            }
            file += 1;
        }
    }
    Ok(out)
}

/// Expands an atom's vectors by the 8 symmetries (jointly for both legs),
/// keeps the images its direction filter selects, mirrors them for Black and
/// registers their step tables.
fn compile_atom(a: &Atom, geo: &Geometry, steps: &mut Steps) -> Component {
    let mut c = Component {
        family: a.family,
        mode: a.mode,
        dirs: [Vec::new(), Vec::new()],
        dirs2: [Vec::new(), Vec::new()],
        dirs3: [Vec::new(), Vec::new()],
    };
    if a.family == Family::Pawn {
        return c;
    }
    let mut pairs: Vec<((i32, i32), (i32, i32))> = Vec::new();
    for (i, sym) in SYMMETRIES.iter().enumerate() {
        if a.filter & (1 << i) == 0 {
            continue;
        }
        let v1 = sym(a.v1.0 as i32, a.v1.1 as i32);
        let v2 = sym(a.v2.0 as i32, a.v2.1 as i32);
        if !pairs.contains(&(v1, v2)) {
            pairs.push((v1, v2));
        }
    }
    for (color, mirror) in [(0, 1), (1, -1)] {
        for &(v1, v2) in &pairs {
            c.dirs[color].push(steps.dir(geo, v1.0, v1.1 * mirror));
            if a.family.two_legs() {
                c.dirs2[color].push(steps.dir(geo, v2.0, v2.1 * mirror));
            }
            if a.family == Family::HornedRider {
                // The 90° turns of the step vector, left and right.
                let (x, y) = (v1.0, v1.1 * mirror);
                c.dirs2[color].push(steps.dir(geo, -y, x));
                c.dirs3[color].push(steps.dir(geo, y, -x));
            }
        }
    }
    c
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
        value: None,
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
        castling_files: [None, None],
        double_step: true,
        en_passant: true,
        stalemate: StalemateRule::Draw,
        move_rule: 100,
        insufficient_material: true,
        conditions: Conditions::NONE,
        holes: HoleRules::NONE,
        capture_promotion: false,
        captures: CaptureSpec::default(),
        lines: Lines::Grid,
        chains: false,
        network: None,
    }
}

/// Baroque / Ultima (seed 001, `ref/vchess/NOTES.md`): the vchess letters
/// and start position; pincers move as rooks, the king as a king, the
/// others as queens, all to empty squares but the king.
pub fn baroque_spec() -> VariantSpec {
    let passive = |name: &str, letter: char, movement: &str| PieceDef {
        name: name.into(),
        letter,
        movement: movement.parse().expect("built-in movement"),
        royal: false,
        value: None,
    };
    let queen = "move:rider(0,1)+move:rider(1,1)";
    VariantSpec {
        name: "baroque".into(),
        pieces: vec![
            passive("pincer", 'p', "move:rider(0,1)"),
            passive("coordinator", 'r', queen),
            passive("long leaper", 'n', queen),
            passive("chameleon", 'b', queen),
            passive("withdrawer", 'q', queen),
            piece("king", 'k'),
            passive("immobilizer", 'm', queen),
        ],
        start_fen: "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w - - 0 1".into(),
        promotion: Vec::new(),
        castling: false,
        double_step: false,
        en_passant: false,
        // fers: the site has no move rule; 100 plies without a capture draw,
        // so that games end (threefold repetition draws as well).
        move_rule: 100,
        insufficient_material: false,
        captures: CaptureSpec {
            styles: vec![
                ('p', CaptureStyle::Pinch),
                ('r', CaptureStyle::Coordinate),
                ('n', CaptureStyle::LongLeap),
                ('b', CaptureStyle::Chameleon),
                ('q', CaptureStyle::Withdraw),
                ('m', CaptureStyle::None),
            ],
            immobilizers: vec!['m'],
        },
        ..chess_spec()
    }
}

/// A blank 8x8 specification with no pieces, the parent of a variant file
/// section that names none.
pub fn empty_spec() -> VariantSpec {
    VariantSpec {
        name: String::new(),
        pieces: Vec::new(),
        start_fen: String::new(),
        promotion: Vec::new(),
        castling: false,
        double_step: false,
        en_passant: false,
        insufficient_material: false,
        ..chess_spec()
    }
}

/// `p` with a material value (middlegame, endgame) of its variant's own.
fn valued(mut p: PieceDef, value: (i32, i32)) -> PieceDef {
    p.value = Some(value);
    p
}

fn custom(name: &str, letter: char, movement: &str) -> PieceDef {
    PieceDef {
        name: name.to_string(),
        letter,
        movement: movement.parse().expect("built-in movement"),
        royal: name == "king",
        value: None,
    }
}

/// Wormhole (seed 002, the vchess site's "Wormhole1", `ref/vchess/NOTES.md`):
/// vacated squares vanish, moves skip holes, pieces never block. The
/// knight is one orthogonal shift then one outward diagonal shift, the
/// wizard two orthogonal then one diagonal (or one diagonal), and the lion
/// captures (only) like a king besides its two-square leaps.
pub fn wormhole_spec() -> VariantSpec {
    VariantSpec {
        name: "wormhole".into(),
        // Values fitted by `fers-tune -values` to fers's own Wormhole games
        // (docs/wormhole.md): on a board that vanishes, pawns (which
        // promote by capture) and the lion (which captures all around)
        // are worth more than their mobility says, the knight and wizard
        // less.
        pieces: vec![
            valued(piece("pawn", 'p'), (225, 188)),
            valued(
                custom("knight", 'n', "decomposed-leaper(0,1;1,1)"),
                (374, 435),
            ),
            valued(
                custom("champion", 'c', "leaper(0,1)+leaper(0,2)+leaper(2,2)"),
                (502, 794),
            ),
            valued(
                custom("wizard", 'w', "leaper(1,1)+decomposed-leaper(0,2;1,1)"),
                (537, 681),
            ),
            valued(
                custom(
                    "lion",
                    'm',
                    "leaper(0,2)+leaper(2,2)+capture:leaper(0,1)+capture:leaper(1,1)",
                ),
                (774, 705),
            ),
            piece("king", 'k'),
        ],
        start_fen: "cnwmkwnc/pppppppp/8/8/8/8/PPPPPPPP/CNWMKWNC w 0".into(),
        promotion: vec!['m', 'c', 'w', 'n'],
        castling: false,
        en_passant: false,
        // Every ply adds a hole: a game ends within 64 plies by itself.
        move_rule: 0,
        insufficient_material: false,
        stalemate: StalemateRule::Loss,
        holes: HoleRules {
            vanish: true,
            skip: true,
        },
        capture_promotion: true,
        ..chess_spec()
    }
}

/// Fanorona (seed 004, `ref/vchess/NOTES.md`): 9x5 points, diagonals
/// through the even points, the site's start position (White moves first)
/// and letters. fers: a side that cannot move loses; a draw by threefold
/// repetition or after 50 turns of each side without a capture
/// (`docs/fanorona.md`).
pub fn fanorona_spec() -> VariantSpec {
    VariantSpec {
        name: "fanorona".into(),
        files: 9,
        ranks: 5,
        pieces: vec![PieceDef {
            name: "stone".into(),
            letter: 'p',
            // What the stone's step is as a piece (the generator of
            // `fanorona.rs` moves it; the evaluation reads this).
            movement: "move:leaper(0,1)+move:leaper(1,1)"
                .parse()
                .expect("built-in movement"),
            royal: false,
            value: None,
        }],
        start_fen: "ppppppppp/ppppppppp/pPpP1pPpP/PPPPPPPPP/PPPPPPPPP w 0".into(),
        promotion: Vec::new(),
        castling: false,
        double_step: false,
        en_passant: false,
        stalemate: StalemateRule::Loss,
        move_rule: 100,
        insufficient_material: false,
        lines: Lines::EvenDiagonals,
        chains: true,
        ..chess_spec()
    }
}

/// The specification of a built-in variant, to inherit from.
pub fn builtin_spec(name: &str) -> Option<VariantSpec> {
    match name.to_ascii_lowercase().as_str() {
        "chess" | "standard" | "normal" => Some(chess_spec()),
        "wormhole" => Some(wormhole_spec()),
        "baroque" | "ultima" => Some(baroque_spec()),
        "fanorona" => Some(fanorona_spec()),
        other => other.parse::<Condition>().ok().map(condition_spec),
    }
}

/// Orthodox chess under one condition, named after it (SPEC section 2).
/// `andernach` and `grid` start from the orthodox position, as in
/// CuteChess, which plays them under the same names. On a board whose
/// first and last ranks touch (hcylinder, anchorring) the orthodox
/// position is illegal (the kings stand side by side across the seam), so
/// there the pawns stand on the seam, behind the pieces, where they cannot
/// capture each other (docs/conditions.md).
fn condition_spec(c: Condition) -> VariantSpec {
    let mut spec = chess_spec();
    spec.name = c.name().to_string();
    spec.conditions.insert(c);
    if matches!(c, Condition::HCylinder | Condition::AnchorRing) {
        spec.start_fen = "pppppppp/rnbqkbnr/8/8/8/8/RNBQKBNR/PPPPPPPP w - - 0 1".into();
    }
    spec
}

/// Names of the built-in variants, for `UCI_Variant`: chess, then one per
/// condition.
pub fn builtin_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = vec!["chess", "wormhole", "baroque", "fanorona"];
        names.extend(Condition::ALL.iter().map(|c| c.name()));
        names
    })
}

/// A built-in variant by name (case-insensitive), built on first use.
pub fn builtin(name: &str) -> Option<&'static Variant> {
    static CHESS: OnceLock<Variant> = OnceLock::new();
    static WORMHOLE: OnceLock<Variant> = OnceLock::new();
    #[allow(clippy::declare_interior_mutable_const)]
    const UNBUILT: OnceLock<Variant> = OnceLock::new();
    static CONDITIONS: [OnceLock<Variant>; Condition::ALL.len()] = [UNBUILT; Condition::ALL.len()];
    match name.to_ascii_lowercase().as_str() {
        "chess" | "standard" | "normal" => {
            Some(CHESS.get_or_init(|| Variant::build(chess_spec()).expect("chess builds")))
        }
        "wormhole" => {
            Some(WORMHOLE.get_or_init(|| Variant::build(wormhole_spec()).expect("wormhole builds")))
        }
        "baroque" | "ultima" => {
            static BAROQUE: OnceLock<Variant> = OnceLock::new();
            Some(BAROQUE.get_or_init(|| Variant::build(baroque_spec()).expect("baroque builds")))
        }
        "fanorona" => {
            static FANORONA: OnceLock<Variant> = OnceLock::new();
            Some(FANORONA.get_or_init(|| Variant::build(fanorona_spec()).expect("fanorona builds")))
        }
        other => {
            let c = other.parse::<Condition>().ok()?;
            Some(CONDITIONS[c as usize].get_or_init(|| {
                Variant::build(condition_spec(c)).expect("chess under one condition builds")
            }))
        }
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
