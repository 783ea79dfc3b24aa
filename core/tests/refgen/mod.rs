//! A slow, literal reference generator for orthodox chess under the fairy
//! conditions of seed 003, written from the rule texts
//! (shared/seeds/003, shared/ref/popeye/NOTES.md where the seed is silent).
//! It shares nothing with fers-core but the square numbering (`rank * 8 +
//! file`) and the move notation (SPEC 4: `e2e4`, `e7e8q`, `e1g1`, `a1a8s`).
//!
//! The board is a plain array of 64 optional pieces. A move is generated
//! by the orthodox movement (the Leo family under `chinese`, wrapping steps
//! on cylinders), then every condition's text is applied to it as a filter;
//! it is played on a copy with every after-move effect written out in
//! full; it is legal when the opponent, to move on that copy, has no
//! capture of the king that the conditions allow ("legality by looking
//! for a king capture under the rules").
//!
//! Decisions where the texts leave room (the same as fers takes; each is
//! written where it acts):
//! - kamikaze: kings are excepted and capture normally (seed); a kamikaze
//!   pawn capturing onto its last rank vanishes without promoting, so that
//!   capture is one move with no promotion letter;
//! - anticirce is the Cheylan type (no capture onto the capturer's own
//!   rebirth square, seed), anticircecalvet allows it (the capturer stays);
//! - interchangecirce / parraincirce: a pawn reborn on its promotion rank
//!   promotes to the piece the move's promotion letter names (one move per
//!   letter); a pawn standing on its first rank otherwise moves one step
//!   (no double step), except under interchangecirce, where it is
//!   immovable (seed);
//! - sentinelles: at most 8 pawns per side and 16 in all;
//! - singlebox2: the waiting pawn that promotes is the one on the lowest
//!   square;
//! - cylinders: pawns never cross the horizontal seam (they move towards
//!   their promotion rank only); castling and en passant as on a plain
//!   board;
//! - observation ("threatened", "controlled", "attacked", and a king "in
//!   check" for transmuting kings) is the plain attack of the pieces'
//!   movement, not itself filtered by the conditions;
//! - a transmuted king moving as a pawn steps one square and captures
//!   diagonally, with no double step, en passant or promotion;
//! - castling: every square the king stands on, passes or reaches must be
//!   safe (no allowed capture of a king standing there), the rook moves
//!   too (so under beamten it must be threatened, under madrasi not
//!   paralysed); a rook appearing on its home square (rebirth, Andernach's
//!   colour change, Parrain's reappearance) or a king appearing on its own
//!   (Anticirce) gives back the right for each wing whose rook stands at
//!   home, if the king stands on its home square;
//! - madrasi: a pawn observes its two diagonal squares only (en passant is
//!   no observation).

#![allow(dead_code)]

use std::collections::BTreeMap;

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum Kind {
    P,
    N,
    B,
    R,
    Q,
    K,
}

const PROMOS: [Kind; 4] = [Kind::Q, Kind::R, Kind::B, Kind::N];

impl Kind {
    fn letter(self) -> char {
        match self {
            Kind::P => 'p',
            Kind::N => 'n',
            Kind::B => 'b',
            Kind::R => 'r',
            Kind::Q => 'q',
            Kind::K => 'k',
        }
    }
    fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_lowercase() {
            'p' => Kind::P,
            'n' => Kind::N,
            'b' => Kind::B,
            'r' => Kind::R,
            'q' => Kind::Q,
            'k' => Kind::K,
            _ => return None,
        })
    }
    /// The number of each kind in a side's original set (Singlebox).
    fn original(self) -> usize {
        match self {
            Kind::P => 8,
            Kind::N | Kind::B | Kind::R => 2,
            Kind::Q | Kind::K => 1,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pc {
    pub white: bool,
    pub kind: Kind,
}

impl Pc {
    fn new(white: bool, kind: Kind) -> Pc {
        Pc { white, kind }
    }
}

#[derive(Clone)]
pub struct Board {
    pub sq: [Option<Pc>; 64],
    /// White to move.
    pub white: bool,
    /// `[white, black][king side, queen side]`.
    pub castle: [[bool; 2]; 2],
    /// The square a double step passed over, for one move.
    pub ep: Option<u8>,
    /// Circe parrain: the unit captured by the last move, and where.
    pub pending: Option<(Pc, u8)>,
    /// Messigny: the two squares of the last move if it was an exchange.
    pub exchanged: Option<[u8; 2]>,
}

/// The conditions, one flag each.
#[derive(Clone, Copy, Default, Debug)]
pub struct Rules {
    pub andernach: bool,
    pub anticirce: bool,
    pub anticirce_calvet: bool,
    pub chinese: bool,
    pub circe: bool,
    pub interchange: bool,
    pub malefique: bool,
    pub mars: bool,
    pub parrain: bool,
    pub wrap_ranks: bool,
    pub wrap_files: bool,
    pub beamten: bool,
    pub grid: bool,
    pub kamikaze: bool,
    pub koeko: bool,
    pub madrasi: bool,
    pub madrasi_rex: bool,
    pub messigny: bool,
    pub messigny_rex_exclusiv: bool,
    pub patrol: bool,
    pub provocateurs: bool,
    pub transmuting: bool,
    pub nocapture: bool,
    pub sentinelles: bool,
    pub singlebox1: bool,
    pub singlebox2: bool,
}

impl Rules {
    pub fn parse(s: &str) -> Rules {
        let mut r = Rules::default();
        for w in s.split_whitespace() {
            match w {
                "andernach" => r.andernach = true,
                "anticirce" => r.anticirce = true,
                "anticircecalvet" => r.anticirce_calvet = true,
                "chinese" => r.chinese = true,
                "circe" => r.circe = true,
                "interchangecirce" => r.interchange = true,
                "circemalefique" => r.malefique = true,
                "marscirce" => r.mars = true,
                "parraincirce" => r.parrain = true,
                "hcylinder" => r.wrap_ranks = true,
                "vcylinder" => r.wrap_files = true,
                "anchorring" => {
                    r.wrap_ranks = true;
                    r.wrap_files = true
                }
                "beamten" => r.beamten = true,
                "grid" => r.grid = true,
                "kamikaze" => r.kamikaze = true,
                "koeko" => r.koeko = true,
                "madrasi" => r.madrasi = true,
                "madrasirex" => {
                    r.madrasi = true;
                    r.madrasi_rex = true
                }
                "messigny" => r.messigny = true,
                "messignyrexexclusiv" => {
                    r.messigny = true;
                    r.messigny_rex_exclusiv = true
                }
                "patrol" => r.patrol = true,
                "provocateurs" => r.provocateurs = true,
                "transmutingkings" => r.transmuting = true,
                "nocapture" => r.nocapture = true,
                "sentinelles" => r.sentinelles = true,
                "singlebox1" => r.singlebox1 = true,
                "singlebox2" => r.singlebox2 = true,
                other => panic!("reference: unknown condition {other}"),
            }
        }
        r
    }
    fn anti(&self) -> bool {
        self.anticirce || self.anticirce_calvet
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Special {
    None,
    Double,
    EnPassant,
    /// 0 king side, 1 queen side.
    Castle(usize),
    Exchange,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RMove {
    pub from: u8,
    pub to: u8,
    /// A pawn's promotion, or (Circe échange / parrain) what a reborn pawn
    /// becomes.
    pub promo: Option<Kind>,
    pub special: Special,
}

impl RMove {
    fn plain(from: u8, to: u8) -> RMove {
        RMove {
            from,
            to,
            promo: None,
            special: Special::None,
        }
    }
    pub fn text(&self) -> String {
        let mut s = format!("{}{}", name(self.from), name(self.to));
        if let Some(k) = self.promo {
            s.push(k.letter());
        }
        if self.special == Special::Exchange {
            s.push('s');
        }
        s
    }
}

pub fn name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

fn file(sq: u8) -> i32 {
    (sq % 8) as i32
}
fn rank(sq: u8) -> i32 {
    (sq / 8) as i32
}
/// Rank counted from the side's own first rank (0..7).
fn rel_rank(white: bool, sq: u8) -> i32 {
    if white {
        rank(sq)
    } else {
        7 - rank(sq)
    }
}
fn last_rank(white: bool) -> i32 {
    if white {
        7
    } else {
        0
    }
}

impl Board {
    pub fn from_fen(fen: &str) -> Board {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut sq = [None; 64];
        for (i, row) in f[0].split('/').enumerate() {
            let r = 7 - i as u8;
            let mut c = 0u8;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    c += d as u8;
                } else {
                    let k = Kind::from_letter(ch).expect("piece letter");
                    sq[(r * 8 + c) as usize] = Some(Pc::new(ch.is_ascii_uppercase(), k));
                    c += 1;
                }
            }
        }
        let cs = f.get(2).copied().unwrap_or("-");
        let castle = [
            [cs.contains('K'), cs.contains('Q')],
            [cs.contains('k'), cs.contains('q')],
        ];
        let ep = match f.get(3) {
            Some(&e) if e != "-" => {
                let b = e.as_bytes();
                Some((b[1] - b'1') * 8 + (b[0] - b'a'))
            }
            _ => None,
        };
        let mut b = Board {
            sq,
            white: f.get(1).copied() != Some("b"),
            castle,
            ep,
            pending: None,
            exchanged: None,
        };
        // A right needs its king and rook at home.
        for c in 0..2 {
            for w in 0..2 {
                if b.castle[c][w] && !b.castle_pieces_home(c == 0, w) {
                    b.castle[c][w] = false;
                }
            }
        }
        b
    }

    fn castle_pieces_home(&self, white: bool, wing: usize) -> bool {
        let back = if white { 0 } else { 56 };
        let rook = back + if wing == 0 { 7 } else { 0 };
        self.sq[back as usize + 4] == Some(Pc::new(white, Kind::K))
            && self.sq[rook as usize] == Some(Pc::new(white, Kind::R))
    }

    /// Placement, side and castling as FEN fields.
    pub fn fen_fields(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for c in 0..8 {
                match self.sq[r * 8 + c] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = p.kind.letter();
                        s.push(if p.white { l.to_ascii_uppercase() } else { l });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.white { " w " } else { " b " });
        let mut c = String::new();
        for (i, ch) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
            if self.castle[i / 2][i % 2] {
                c.push(*ch);
            }
        }
        if c.is_empty() {
            c.push('-');
        }
        s.push_str(&c);
        s
    }

    fn king(&self, white: bool) -> Option<u8> {
        (0..64u8).find(|&s| self.sq[s as usize] == Some(Pc::new(white, Kind::K)))
    }
}

/// One step on the board of the rules (cylinders wrap).
fn step(r: &Rules, sq: u8, dx: i32, dy: i32) -> Option<u8> {
    let mut f = file(sq) + dx;
    let mut k = rank(sq) + dy;
    if r.wrap_files {
        f = f.rem_euclid(8);
    }
    if r.wrap_ranks {
        k = k.rem_euclid(8);
    }
    if !(0..8).contains(&f) || !(0..8).contains(&k) {
        return None;
    }
    Some((k * 8 + f) as u8)
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

/// The movement of a unit of colour `white` standing on `from` if it were
/// a `kind` (the board as given): the empty squares it may move to, and
/// the occupied squares it hits (whose occupant, if an enemy, it may
/// capture). Pawns: one step and the diagonal hits (the double step and
/// en passant are added by the caller, not for a transmuted king).
fn movement(
    b: &Board,
    r: &Rules,
    from: u8,
    white: bool,
    kind: Kind,
    quiet: &mut Vec<u8>,
    hits: &mut Vec<u8>,
) {
    let occ = |s: u8| b.sq[s as usize].is_some();
    let leap = |d: (i32, i32), quiet: &mut Vec<u8>, hits: &mut Vec<u8>| {
        if let Some(t) = step(r, from, d.0, d.1) {
            if t == from {
                return;
            }
            if occ(t) {
                hits.push(t);
            } else {
                quiet.push(t);
            }
        }
    };
    let ride = |d: (i32, i32), hop: bool, quiet: &mut Vec<u8>, hits: &mut Vec<u8>| {
        let mut cur = from;
        let mut hurdle = false;
        loop {
            let Some(t) = step(r, cur, d.0, d.1) else {
                return;
            };
            if t == from {
                return; // came back round the cylinder
            }
            cur = t;
            if !occ(t) {
                if !hurdle {
                    quiet.push(t);
                }
                continue;
            }
            if hop && !hurdle {
                hurdle = true;
                continue;
            }
            hits.push(t);
            return;
        }
    };
    match kind {
        Kind::P => {
            let dy = if white { 1 } else { -1 };
            // Never across the horizontal seam: forward means a higher
            // relative rank.
            let fwd = |t: u8| rel_rank(white, t) > rel_rank(white, from);
            if let Some(one) = step(r, from, 0, dy) {
                if fwd(one) && !occ(one) {
                    quiet.push(one);
                }
            }
            for dx in [-1, 1] {
                if let Some(t) = step(r, from, dx, dy) {
                    if fwd(t) && occ(t) {
                        hits.push(t);
                    }
                }
            }
        }
        Kind::K => {
            for d in ORTHO.iter().chain(DIAG.iter()) {
                leap(*d, quiet, hits);
            }
        }
        Kind::N if !r.chinese => {
            for d in KNIGHT {
                leap(d, quiet, hits);
            }
        }
        Kind::N => {
            // Mao: one orthogonal step (to an empty square), then one
            // diagonal step outwards.
            for (ox, oy) in ORTHO {
                let Some(mid) = step(r, from, ox, oy) else {
                    continue;
                };
                if occ(mid) {
                    continue;
                }
                for side in [-1, 1] {
                    let (dx, dy) = if ox == 0 { (side, oy) } else { (ox, side) };
                    if let Some(t) = step(r, mid, dx, dy) {
                        if t == from {
                            continue;
                        }
                        if occ(t) {
                            hits.push(t);
                        } else {
                            quiet.push(t);
                        }
                    }
                }
            }
        }
        Kind::B | Kind::R | Kind::Q => {
            let hop = r.chinese; // Vao, Pao, Leo: capture by one hurdle
            if kind != Kind::B {
                for d in ORTHO {
                    ride(d, hop, quiet, hits);
                }
            }
            if kind != Kind::R {
                for d in DIAG {
                    ride(d, hop, quiet, hits);
                }
            }
        }
    }
}

/// Squares the unit on `from` hits, by its own movement.
fn hits_of(b: &Board, r: &Rules, from: u8) -> Vec<u8> {
    let p = b.sq[from as usize].unwrap();
    let (mut q, mut h) = (Vec::new(), Vec::new());
    movement(b, r, from, p.white, p.kind, &mut q, &mut h);
    h
}

/// Plain attack: does a unit of `by` (of `kind`, if given) hit the
/// occupied square `s`?
fn attacked(b: &Board, r: &Rules, s: u8, by: bool, kind: Option<Kind>) -> bool {
    (0..64u8).any(|f| match b.sq[f as usize] {
        Some(p) if p.white == by && kind.is_none_or(|k| k == p.kind) => {
            hits_of(b, r, f).contains(&s)
        }
        _ => false,
    })
}

/// The Circe rebirth square of `p` for a capture (or, under Anticirce and
/// Mars Circe, a capturer) on `sq`: orthodox home squares, the one of the
/// same square colour for rooks, bishops and knights (the Leo family
/// stands for them), pawns on their file; malefic: the other side's.
pub fn rebirth(p: Pc, sq: u8, malefic: bool) -> u8 {
    let home_white = p.white != malefic;
    let back: u8 = if home_white { 0 } else { 7 };
    let f = sq % 8;
    let shade = |s: u8| (s % 8 + s / 8) % 2;
    let pick = |a: u8, c: u8| {
        let (sa, sc) = (back * 8 + a, back * 8 + c);
        if shade(sa) == shade(sq) {
            sa
        } else {
            sc
        }
    };
    match p.kind {
        Kind::P => (if home_white { 1 } else { 6 }) * 8 + f,
        Kind::N => pick(1, 6),
        Kind::B => pick(2, 5),
        Kind::R => pick(0, 7),
        Kind::Q => back * 8 + 3,
        Kind::K => back * 8 + 4,
    }
}

fn cell(sq: u8) -> u8 {
    (rank(sq) / 2 * 4 + file(sq) / 2) as u8
}

/// The square of the unit a move captures, if it does.
fn victim_square(b: &Board, m: &RMove) -> Option<u8> {
    match m.special {
        Special::Castle(_) | Special::Exchange | Special::Double => None,
        Special::EnPassant => Some(if b.white { m.to - 8 } else { m.to + 8 }),
        Special::None => b.sq[m.to as usize]
            .filter(|p| p.white != b.white)
            .map(|_| m.to),
    }
}

/// The board right after the move itself (no condition effects), for
/// Koeko's contact test.
fn bare_after(b: &Board, m: &RMove) -> Board {
    let mut n = b.clone();
    let p = n.sq[m.from as usize].take();
    if let Some(v) = victim_square(b, m) {
        n.sq[v as usize] = None;
    }
    n.sq[m.to as usize] = p;
    n
}

fn koeko_ok(r: &Rules, after: &Board, dest: u8) -> bool {
    ORTHO.iter().chain(DIAG.iter()).any(|&(dx, dy)| {
        step(r, dest, dx, dy).is_some_and(|t| t != dest && after.sq[t as usize].is_some())
    })
}

fn count(b: &Board, p: Pc) -> usize {
    b.sq.iter().filter(|&&q| q == Some(p)).count()
}

/// The moves of the side to move that the conditions allow, the king's
/// safety aside. `king_target`: only the captures of the unit on that
/// square (the check test); castling and exchanges are then skipped.
pub fn pseudo(b: &Board, r: &Rules, king_target: Option<u8>) -> Vec<RMove> {
    let us = b.white;
    let mut out = Vec::new();
    let my_king = b.king(us);
    // Transmuting kings: a king in check (attacked) moves only as the kinds
    // of its checkers.
    let checker_kinds: Vec<Kind> = match (r.transmuting, my_king) {
        (true, Some(k)) => [Kind::P, Kind::N, Kind::B, Kind::R, Kind::Q, Kind::K]
            .into_iter()
            .filter(|&kind| attacked(b, r, k, !us, Some(kind)))
            .collect(),
        _ => Vec::new(),
    };
    for from in 0..64u8 {
        let Some(p) = b.sq[from as usize] else {
            continue;
        };
        if p.white != us {
            continue;
        }
        let mut moves: Vec<(RMove, bool)> = Vec::new(); // (move, capture)
        let is_transmuted = p.kind == Kind::K && !checker_kinds.is_empty();
        let kinds: Vec<Kind> = if is_transmuted {
            checker_kinds.clone()
        } else {
            vec![p.kind]
        };
        for &kind in &kinds {
            let (mut quiet, mut hits) = (Vec::new(), Vec::new());
            movement(b, r, from, us, kind, &mut quiet, &mut hits);
            // Mars Circe: captures are made from the rebirth square, which
            // must be empty (or the unit's own square).
            if r.mars {
                let rs = rebirth(p, from, false);
                hits.clear();
                if rs == from || b.sq[rs as usize].is_none() {
                    let mut nb = b.clone();
                    nb.sq[from as usize] = None;
                    nb.sq[rs as usize] = Some(p);
                    let mut q2 = Vec::new();
                    movement(&nb, r, rs, us, kind, &mut q2, &mut hits);
                }
            }
            let pawn = kind == Kind::P;
            for t in quiet {
                moves.push((RMove::plain(from, t), false));
            }
            for t in hits {
                if b.sq[t as usize].is_some_and(|q| q.white != us) {
                    moves.push((RMove::plain(from, t), true));
                }
            }
            if pawn && !is_transmuted {
                let dy = if us { 1 } else { -1 };
                // Double step from the second rank.
                if rel_rank(us, from) == 1 {
                    if let (Some(one), Some(two)) = (step(r, from, 0, dy), step(r, from, 0, 2 * dy))
                    {
                        if b.sq[one as usize].is_none() && b.sq[two as usize].is_none() {
                            moves.push((
                                RMove {
                                    special: Special::Double,
                                    ..RMove::plain(from, two)
                                },
                                false,
                            ));
                        }
                    }
                }
                // En passant (not under Mars Circe: from the pawn's rebirth
                // square no double step can be taken).
                if let Some(e) = b.ep {
                    for dx in [-1, 1] {
                        if !r.mars && step(r, from, dx, dy) == Some(e) {
                            let fwd = rel_rank(us, e) > rel_rank(us, from);
                            if fwd {
                                moves.push((
                                    RMove {
                                        special: Special::EnPassant,
                                        ..RMove::plain(from, e)
                                    },
                                    true,
                                ));
                            }
                        }
                    }
                }
            }
        }
        if let Some(k) = king_target {
            moves.retain(|(m, cap)| *cap && victim_square(b, m) == Some(k));
            if moves.is_empty() {
                continue;
            }
        }
        moves.dedup_by(|a, b| a.0 == b.0);
        // Conditions on the unit.
        if r.madrasi
            && (p.kind != Kind::K || r.madrasi_rex)
            && attacked(b, r, from, !us, Some(p.kind))
        {
            continue; // paralysed
        }
        if r.beamten && !attacked(b, r, from, !us, None) {
            continue;
        }
        if r.interchange && p.kind == Kind::P && rel_rank(us, from) == 0 {
            continue; // immovable on its first rank
        }
        let friend_obs = r.patrol && attacked(b, r, from, us, None);
        let enemy_obs = r.provocateurs && attacked(b, r, from, !us, None);
        for (m, cap) in moves {
            let moving_pawn = p.kind == Kind::P && !is_transmuted;
            if cap {
                if r.patrol && !friend_obs {
                    continue;
                }
                if r.provocateurs && !enemy_obs {
                    continue;
                }
                let v = victim_square(b, &m).unwrap();
                if r.nocapture && b.sq[v as usize].unwrap().kind != Kind::K {
                    continue;
                }
            }
            if r.grid && cell(m.from) == cell(m.to) {
                continue;
            }
            if r.koeko && !koeko_ok(r, &bare_after(b, &m), m.to) {
                continue;
            }
            // Promotions.
            let mut variants: Vec<RMove> = Vec::new();
            if moving_pawn && rank(m.to) == last_rank(us) {
                if r.kamikaze && cap {
                    // Vanishes at once: nothing to promote.
                    variants.push(m);
                } else {
                    let allowed: Vec<Kind> = PROMOS
                        .into_iter()
                        .filter(|&k| {
                            !(r.singlebox1 || r.singlebox2)
                                || count(b, Pc::new(us, k)) < k.original()
                        })
                        .collect();
                    if allowed.is_empty() {
                        if r.singlebox2 {
                            variants.push(m); // stays a pawn, waiting
                        }
                    } else {
                        for k in allowed {
                            variants.push(RMove {
                                promo: Some(k),
                                ..m
                            });
                        }
                    }
                }
            } else {
                variants.push(m);
            }
            for m in variants {
                if cap && r.anti() && !anticirce_ok(b, r, p, &m) {
                    continue;
                }
                for m in reborn_letters(b, r, m) {
                    out.push(m);
                }
            }
        }
    }
    if king_target.is_some() {
        return out;
    }
    castling(b, r, &mut out);
    if r.messigny {
        exchanges(b, r, &mut out);
    }
    out
}

/// Anticirce: the capturer (as it is after promoting) goes to its rebirth
/// square, which must be empty (or the square it leaves); a capture on
/// that square itself is forbidden, except in the Calvet type.
fn anticirce_ok(b: &Board, r: &Rules, p: Pc, m: &RMove) -> bool {
    let unit = Pc::new(p.white, m.promo.unwrap_or(p.kind));
    let rs = rebirth(unit, m.to, false);
    if rs == m.to {
        return r.anticirce_calvet;
    }
    rs == m.from || b.sq[rs as usize].is_none()
}

/// Circe échange / parrain: a move after which a pawn reappears on its
/// promotion rank comes once per promotion letter.
fn reborn_letters(b: &Board, r: &Rules, m: RMove) -> Vec<RMove> {
    if m.promo.is_some() || !(r.interchange || r.parrain) {
        return vec![m];
    }
    let reappears_promoting = if r.interchange {
        victim_square(b, &m).is_some_and(|v| {
            let victim = b.sq[v as usize].unwrap();
            victim.kind == Kind::P && rank(m.from) == last_rank(victim.white)
        })
    } else {
        match b.pending {
            Some((pp, ps)) if pp.kind == Kind::P && m.special != Special::EnPassant => {
                let after = bare_after(b, &m);
                parrain_square(r, ps, &m).is_some_and(|t| {
                    after.sq[t as usize].is_none() && rank(t) == last_rank(pp.white)
                })
            }
            _ => false,
        }
    };
    if !reappears_promoting {
        return vec![m];
    }
    PROMOS
        .into_iter()
        .map(|k| RMove {
            promo: Some(k),
            ..m
        })
        .collect()
}

/// Circe parrain: the capture square shifted by the move's vector (the
/// king's, for castling).
fn parrain_square(r: &Rules, ps: u8, m: &RMove) -> Option<u8> {
    step(r, ps, file(m.to) - file(m.from), rank(m.to) - rank(m.from))
}

/// Castling, orthodox: the right, king and rook at home, the squares
/// between them empty, the king safe on each square it stands on, passes
/// and reaches; the king and rook both move (beamten, madrasi); grid and
/// koeko judge the king's move.
fn castling(b: &Board, r: &Rules, out: &mut Vec<RMove>) {
    let us = b.white;
    let back: u8 = if us { 0 } else { 56 };
    let ksq = back + 4;
    for wing in 0..2 {
        if !b.castle[if us { 0 } else { 1 }][wing] || !b.castle_pieces_home(us, wing) {
            continue;
        }
        let (rsq, kto, between): (u8, u8, &[u8]) = if wing == 0 {
            (back + 7, back + 6, &[5, 6])
        } else {
            (back, back + 2, &[1, 2, 3])
        };
        if between.iter().any(|&f| b.sq[(back + f) as usize].is_some()) {
            continue;
        }
        let path: Vec<u8> = if wing == 0 {
            vec![ksq, ksq + 1, ksq + 2]
        } else {
            vec![ksq, ksq - 1, ksq - 2]
        };
        if path.iter().any(|&s| !king_safe_on(b, r, ksq, s)) {
            continue;
        }
        let mover_ok = |s: u8| {
            let p = b.sq[s as usize].unwrap();
            if r.madrasi
                && (p.kind != Kind::K || r.madrasi_rex)
                && attacked(b, r, s, !us, Some(p.kind))
            {
                return false;
            }
            !r.beamten || attacked(b, r, s, !us, None)
        };
        if !mover_ok(ksq) || !mover_ok(rsq) {
            continue;
        }
        if r.grid && cell(ksq) == cell(kto) {
            continue;
        }
        let m = RMove {
            from: ksq,
            to: kto,
            promo: None,
            special: Special::Castle(wing),
        };
        if r.koeko {
            let after = play_bare_castle(b, &m);
            if !koeko_ok(r, &after, kto) {
                continue;
            }
        }
        if r.parrain {
            out.extend(reborn_letters(b, r, m));
        } else {
            out.push(m);
        }
    }
}

fn play_bare_castle(b: &Board, m: &RMove) -> Board {
    let mut n = b.clone();
    let Special::Castle(wing) = m.special else {
        unreachable!()
    };
    let back = m.from - 4;
    let (rf, rt) = if wing == 0 {
        (back + 7, back + 5)
    } else {
        (back, back + 3)
    };
    let k = n.sq[m.from as usize].take();
    let rk = n.sq[rf as usize].take();
    n.sq[m.to as usize] = k;
    n.sq[rt as usize] = rk;
    n
}

/// Would the king of the side to move, standing on `s` instead of `ksq`,
/// be capturable under the rules?
fn king_safe_on(b: &Board, r: &Rules, ksq: u8, s: u8) -> bool {
    let mut n = b.clone();
    let k = n.sq[ksq as usize].take();
    n.sq[s as usize] = k;
    n.white = !b.white;
    n.ep = None;
    !king_capturable(&n, r)
}

/// Messigny: a unit may change places with an enemy unit of its kind,
/// except the units of the last exchange (kings not under Rex Exclusiv).
fn exchanges(b: &Board, r: &Rules, out: &mut Vec<RMove>) {
    let us = b.white;
    let last = b.exchanged.unwrap_or([64, 64]);
    for from in 0..64u8 {
        let Some(p) = b.sq[from as usize] else {
            continue;
        };
        if p.white != us || last.contains(&from) {
            continue;
        }
        if r.messigny_rex_exclusiv && p.kind == Kind::K {
            continue;
        }
        for to in 0..64u8 {
            if last.contains(&to) {
                continue;
            }
            if b.sq[to as usize] == Some(Pc::new(!us, p.kind)) {
                out.push(RMove {
                    from,
                    to,
                    promo: None,
                    special: Special::Exchange,
                });
            }
        }
    }
}

/// Has the side to move a capture of the other side's king that the
/// conditions allow?
pub fn king_capturable(b: &Board, r: &Rules) -> bool {
    match b.king(!b.white) {
        Some(k) => !pseudo(b, r, Some(k)).is_empty(),
        None => false,
    }
}

/// A rook appearing on its home square while its king stands on its own,
/// or a king appearing on its home square, gives back the right of each
/// wing whose rook is at home.
fn regain(n: &mut Board, sq: u8, p: Pc) {
    let back: u8 = if p.white { 0 } else { 56 };
    let c = if p.white { 0 } else { 1 };
    for w in 0..2 {
        let home = if w == 0 { back + 7 } else { back };
        let appeared = (p.kind == Kind::R && sq == home) || (p.kind == Kind::K && sq == back + 4);
        if appeared && n.castle_pieces_home(p.white, w) {
            n.castle[c][w] = true;
        }
    }
}

/// The unit that reappears on `sq` (Circe échange, parrain): a pawn on its
/// promotion rank becomes the piece the move's letter names (a queen when
/// the move has none).
fn reborn_unit(m: &RMove, unit: Pc, sq: u8) -> Pc {
    if unit.kind == Kind::P && rank(sq) == last_rank(unit.white) {
        Pc::new(unit.white, m.promo.unwrap_or(Kind::Q))
    } else {
        unit
    }
}

/// Plays a move with every effect of the conditions.
pub fn play(b: &Board, r: &Rules, m: &RMove) -> Board {
    let us = b.white;
    let ci = if us { 0 } else { 1 };
    let mover = b.sq[m.from as usize].unwrap();
    let mut n = b.clone();
    n.ep = None;
    n.exchanged = None;
    let victim_sq = victim_square(b, m);
    let victim = victim_sq.map(|s| b.sq[s as usize].unwrap());
    // The move itself.
    match m.special {
        Special::Castle(_) => {
            n = play_bare_castle(b, m);
            n.ep = None;
            n.exchanged = None;
        }
        Special::Exchange => {
            n.sq.swap(m.from as usize, m.to as usize);
            n.exchanged = Some([m.from, m.to]);
        }
        _ => {
            if let Some(v) = victim_sq {
                n.sq[v as usize] = None;
            }
            n.sq[m.from as usize] = None;
            let mut unit = mover;
            if mover.kind == Kind::P && rank(m.to) == last_rank(us) {
                if let Some(k) = m.promo {
                    unit = Pc::new(us, k);
                }
            }
            n.sq[m.to as usize] = Some(unit);
            if m.special == Special::Double {
                n.ep = Some(if us { m.from + 8 } else { m.from - 8 });
            }
        }
    }
    // Castling rights: a king or rook leaving or being taken on its home.
    for c in 0..2 {
        let back: u8 = if c == 0 { 0 } else { 56 };
        for w in 0..2 {
            let rook = if w == 0 { back + 7 } else { back };
            for s in [m.from, m.to] {
                if s == back + 4 || s == rook {
                    n.castle[c][w] = false;
                }
            }
        }
    }
    // Circe parrain: last move's victim reappears, shifted by this move.
    if r.parrain {
        if let Some((pp, ps)) = b.pending {
            if let Some(t) = parrain_square(r, ps, m) {
                if n.sq[t as usize].is_none() {
                    let u = reborn_unit(m, pp, t);
                    n.sq[t as usize] = Some(u);
                    regain(&mut n, t, u);
                }
            }
        }
        n.pending = victim
            .filter(|v| v.kind != Kind::K)
            .map(|v| (v, victim_sq.unwrap()));
    }
    if let Some(victim) = victim {
        let vsq = victim_sq.unwrap();
        // Kamikaze: the capturer (not a king) vanishes.
        if mover.kind != Kind::K {
            if r.kamikaze {
                n.sq[m.to as usize] = None;
            } else if r.andernach {
                // Andernach: the capturer (not a king) changes colour.
                let u = n.sq[m.to as usize].unwrap();
                let t = Pc::new(!u.white, u.kind);
                n.sq[m.to as usize] = Some(t);
                regain(&mut n, m.to, t);
            }
        }
        if (r.circe || r.malefique) && victim.kind != Kind::K {
            let rs = rebirth(victim, vsq, r.malefique);
            if n.sq[rs as usize].is_none() {
                n.sq[rs as usize] = Some(victim);
                regain(&mut n, rs, victim);
            }
        } else if r.interchange && victim.kind != Kind::K {
            if n.sq[m.from as usize].is_none() {
                let u = reborn_unit(m, victim, m.from);
                n.sq[m.from as usize] = Some(u);
                regain(&mut n, m.from, u);
            }
        } else if r.anti() {
            if let Some(u) = n.sq[m.to as usize] {
                let rs = rebirth(u, m.to, false);
                if rs != m.to && n.sq[rs as usize].is_none() {
                    n.sq[m.to as usize] = None;
                    n.sq[rs as usize] = Some(u);
                    regain(&mut n, rs, u);
                }
            }
        }
        // Singlebox type 2: a waiting pawn of the victim's side takes its
        // kind (the one on the lowest square).
        if r.singlebox2 && victim.kind != Kind::K && victim.kind != Kind::P {
            let lr = last_rank(victim.white);
            if let Some(s) = (0..64u8).find(|&s| {
                rank(s) == lr && n.sq[s as usize] == Some(Pc::new(victim.white, Kind::P))
            }) {
                n.sq[s as usize] = Some(victim);
            }
        }
    }
    // Sentinelles: a unit other than a pawn leaves a pawn behind.
    if r.sentinelles
        && mover.kind != Kind::P
        && n.sq[m.from as usize].is_none()
        && rank(m.from) != 0
        && rank(m.from) != 7
    {
        let mine = count(&n, Pc::new(us, Kind::P));
        let theirs = count(&n, Pc::new(!us, Kind::P));
        if mine < 8 && mine + theirs < 16 {
            n.sq[m.from as usize] = Some(Pc::new(us, Kind::P));
        }
    }
    let _ = ci;
    n.white = !us;
    n
}

/// The legal moves, by their notation.
pub fn legal(b: &Board, r: &Rules) -> BTreeMap<String, RMove> {
    let mut out = BTreeMap::new();
    for m in pseudo(b, r, None) {
        let n = play(b, r, &m);
        if !king_capturable(&n, r) {
            out.insert(m.text(), m);
        }
    }
    out
}
