//! Pieces as data: colours, piece codes, and the movement families of the
//! fairy glossary (seed 000) from which every piece is summed.
//!
//! A piece kind is a [`PieceDef`]: a name, a letter and a list of [`Atom`]s,
//! each a family with its vector(s) and a mode (move, capture, or both). The
//! variant compiles atoms into [`Component`]s over its own step tables; the
//! move generator and attack detection read only components.

use std::fmt;
use std::str::FromStr;

/// Side: White moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// A board cell: empty, vanished (a Wormhole hole), or a piece of a kind and
/// colour. Encoded in one byte: `((kind + 1) << 1) | colour`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(pub u8);

impl Piece {
    pub const EMPTY: Piece = Piece(0);
    /// A square that no longer exists.
    pub const HOLE: Piece = Piece(1);

    #[inline]
    pub fn new(kind: u8, color: Color) -> Piece {
        Piece(((kind + 1) << 1) | color as u8)
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// A real piece (not empty, not a hole).
    #[inline]
    pub fn is_piece(self) -> bool {
        self.0 >= 2
    }
    #[inline]
    pub fn kind(self) -> u8 {
        (self.0 >> 1).wrapping_sub(1)
    }
    #[inline]
    pub fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// When a movement applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Moves and captures the same way.
    Both,
    /// Only to an empty square.
    MoveOnly,
    /// Only to capture.
    CaptureOnly,
}

/// The movement families of seed 000, plus the pawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    Leaper,
    Rider,
    DecomposedLeaper,
    DoubleLeaper,
    LeaperRider,
    DecomposedLeaperRider,
    DecomposedRider,
    DoubleRider,
    HornedRider,
    Hopper,
    ProlongedHopper,
    ContraHopper,
    Equihopper,
    Kanghopper,
    Locuhopper,
    Chinese,
    Marine,
    /// Chess pawn of the variant: step forward, double step, diagonal
    /// capture, en passant, promotion (variant data says which apply).
    Pawn,
}

impl Family {
    pub const ALL: [(Family, &'static str); 18] = [
        (Family::Leaper, "leaper"),
        (Family::Rider, "rider"),
        (Family::DecomposedLeaper, "decomposed-leaper"),
        (Family::DoubleLeaper, "double-leaper"),
        (Family::LeaperRider, "leaper-rider"),
        (Family::DecomposedLeaperRider, "decomposed-leaper-rider"),
        (Family::DecomposedRider, "decomposed-rider"),
        (Family::DoubleRider, "double-rider"),
        (Family::HornedRider, "horned-rider"),
        (Family::Hopper, "hopper"),
        (Family::ProlongedHopper, "prolonged-hopper"),
        (Family::ContraHopper, "contra-hopper"),
        (Family::Equihopper, "equihopper"),
        (Family::Kanghopper, "kanghopper"),
        (Family::Locuhopper, "locuhopper"),
        (Family::Chinese, "chinese"),
        (Family::Marine, "marine"),
        (Family::Pawn, "pawn"),
    ];

    pub fn name(self) -> &'static str {
        Family::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }

    /// Families whose movement has two vectors.
    pub fn two_legs(self) -> bool {
        matches!(
            self,
            Family::DecomposedLeaper
                | Family::DoubleLeaper
                | Family::LeaperRider
                | Family::DecomposedLeaperRider
                | Family::DecomposedRider
                | Family::DoubleRider
        )
    }

    /// Families whose attacks the attack plan covers (leapers and riders:
    /// attack = move geometry, no hurdles, no lame legs).
    pub fn is_simple(self) -> bool {
        matches!(self, Family::Leaper | Family::Rider | Family::Pawn)
    }
}

/// All 8 images of an atom (no direction filter).
pub const ALL_DIRECTIONS: u8 = 0xFF;

/// One movement family with its vector(s) and mode: a summand of a piece.
///
/// `filter` selects which of the 8 symmetric images of the movement the
/// piece has (bit `i` keeps the image made by `geometry::SYMMETRIES[i]`),
/// as seen by White; Black's are mirrored top to bottom. Directional Betza
/// pieces (`fW`, `fsN`) use it; glossary families have all 8.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Atom {
    pub family: Family,
    pub v1: (i8, i8),
    pub v2: (i8, i8),
    pub mode: Mode,
    pub filter: u8,
}

impl Atom {
    pub fn new(family: Family, v1: (i8, i8), v2: (i8, i8), mode: Mode) -> Atom {
        Atom {
            family,
            v1,
            v2,
            mode,
            filter: ALL_DIRECTIONS,
        }
    }

    /// The total displacement of one image (both legs for two-leg families);
    /// direction filters are judged on it.
    pub fn image(&self, sym: usize) -> ((i32, i32), (i32, i32)) {
        let f = crate::geometry::SYMMETRIES[sym];
        (
            f(self.v1.0 as i32, self.v1.1 as i32),
            f(self.v2.0 as i32, self.v2.1 as i32),
        )
    }

    /// The distinct displacement vectors this atom keeps (White's view).
    pub fn kept_displacements(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for i in 0..8 {
            if self.filter & (1 << i) == 0 {
                continue;
            }
            let d = self.displacement(i);
            if !out.contains(&d) {
                out.push(d);
            }
        }
        out
    }

    /// Displacement of image `sym`: v1 (+ v2 for the two-leg families whose
    /// legs add up to one jump).
    pub fn displacement(&self, sym: usize) -> (i32, i32) {
        let (a, b) = self.image(sym);
        if self.family.two_legs() {
            (a.0 + b.0, a.1 + b.1)
        } else {
            a
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.mode {
            Mode::Both => "",
            Mode::MoveOnly => "move:",
            Mode::CaptureOnly => "capture:",
        };
        if self.family == Family::Pawn {
            return write!(f, "{prefix}pawn");
        }
        let name = self.family.name();
        let (a, b) = (self.v1, self.v2);
        if self.family.two_legs() {
            write!(f, "{prefix}{name}({},{};{},{})", a.0, a.1, b.0, b.1)?;
        } else {
            write!(f, "{prefix}{name}({},{})", a.0, a.1)?;
        }
        if self.filter != ALL_DIRECTIONS {
            // The kept displacements, White's view: `leaper(0,1)[0,1]`.
            let all = Atom {
                filter: ALL_DIRECTIONS,
                ..*self
            }
            .kept_displacements();
            let kept = self.kept_displacements();
            if kept.len() < all.len() {
                let list: Vec<String> = kept.iter().map(|(x, y)| format!("{x},{y}")).collect();
                write!(f, "[{}]", list.join(";"))?;
            }
        }
        Ok(())
    }
}

/// A parsed movement: a sum of atoms (`leaper(1,2)+rider(0,1)`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Movement(pub Vec<Atom>);

impl fmt::Display for Movement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{a}")?;
        }
        Ok(())
    }
}

fn parse_int(s: &str) -> Result<i8, String> {
    let v: i32 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number", s.trim()))?;
    if !(-11..=11).contains(&v) {
        return Err(format!("vector component {v} does not fit a 12x12 board"));
    }
    Ok(v as i8)
}

fn parse_vec(s: &str) -> Result<(i8, i8), String> {
    let mut it = s.split(',');
    let (a, b) = (it.next(), it.next());
    match (a, b, it.next()) {
        (Some(a), Some(b), None) => Ok((parse_int(a)?, parse_int(b)?)),
        _ => Err(format!("'{s}' is not a vector m,n")),
    }
}

impl FromStr for Atom {
    type Err = String;
    fn from_str(s: &str) -> Result<Atom, String> {
        let s = s.trim();
        let (mode, body) = if let Some(r) = s.strip_prefix("move:") {
            (Mode::MoveOnly, r)
        } else if let Some(r) = s.strip_prefix("capture:") {
            (Mode::CaptureOnly, r)
        } else {
            (Mode::Both, s)
        };
        let mut body = body.trim();
        if body == "pawn" {
            return Ok(Atom::new(Family::Pawn, (0, 1), (0, 0), mode));
        }
        // Optional direction list: `leaper(1,2)[1,2;-1,2]`.
        let mut wanted: Option<Vec<(i32, i32)>> = None;
        if body.ends_with(']') {
            let open = body
                .rfind('[')
                .ok_or_else(|| format!("'{body}': missing '['"))?;
            let mut list = Vec::new();
            for v in body[open + 1..body.len() - 1].split(';') {
                let (x, y) = parse_vec(v)?;
                list.push((x as i32, y as i32));
            }
            wanted = Some(list);
            body = body[..open].trim();
        }
        let open = body
            .find('(')
            .ok_or_else(|| format!("'{body}': expected family(m,n)"))?;
        if !body.ends_with(')') {
            return Err(format!("'{body}': missing ')'"));
        }
        let name = body[..open].trim().to_ascii_lowercase();
        let args = &body[open + 1..body.len() - 1];
        let family = Family::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(f, _)| *f)
            .ok_or_else(|| format!("unknown movement family '{name}'"))?;
        let (v1, v2) = if family.two_legs() {
            let mut legs = args.split(';');
            match (legs.next(), legs.next(), legs.next()) {
                (Some(a), Some(b), None) => (parse_vec(a)?, parse_vec(b)?),
                _ => return Err(format!("{name} needs two vectors 'm1,n1;m2,n2'")),
            }
        } else {
            (parse_vec(args)?, (0, 0))
        };
        if v1 == (0, 0) || (family.two_legs() && v2 == (0, 0)) {
            return Err(format!("{name}: a null vector does not move"));
        }
        let mut atom = Atom::new(family, v1, v2, mode);
        if let Some(list) = wanted {
            atom.filter = 0;
            for i in 0..8 {
                if list.contains(&atom.displacement(i)) {
                    atom.filter |= 1 << i;
                }
            }
            for v in &list {
                if !(0..8).any(|i| atom.displacement(i) == *v) {
                    return Err(format!("{name}: ({},{}) is not one of its moves", v.0, v.1));
                }
            }
        }
        Ok(atom)
    }
}

impl FromStr for Movement {
    type Err = String;
    fn from_str(s: &str) -> Result<Movement, String> {
        if s.trim().is_empty() {
            return Err("empty movement".into());
        }
        let mut atoms = Vec::new();
        for part in s.split('+') {
            atoms.push(part.parse::<Atom>()?);
        }
        Ok(Movement(atoms))
    }
}

impl Movement {
    /// A movement as variant files write it: a named piece (`knight`), a
    /// sum of families (`leaper(1,2)+rider(0,1)`) or Betza (`betza:QN`).
    pub fn parse_any(text: &str) -> Result<Movement, String> {
        let t = text.trim();
        if let Some(b) = t.strip_prefix("betza:") {
            return crate::betza::parse(b);
        }
        if let Some(m) = named_piece(t) {
            return m.parse();
        }
        t.parse()
    }
}

/// A kind of piece in a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    pub name: String,
    /// FEN letter, lower case (White's is upper case).
    pub letter: char,
    pub movement: Movement,
    /// Capturing or mating this piece ends the game (the king).
    pub royal: bool,
    /// Material value (middlegame, endgame centipawns) given by a variant
    /// file's `value.<letter>` (for example fitted by `fers-tune -values`
    /// from self-play); `None`: the evaluation values the piece itself.
    pub value: Option<(i32, i32)>,
}

impl PieceDef {
    pub fn is_pawn(&self) -> bool {
        self.movement.0.iter().any(|a| a.family == Family::Pawn)
    }
}

/// Named pieces of the glossary (SPEC section 3) and their movements.
pub fn named_piece(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "king" => "leaper(0,1)+leaper(1,1)",
        "queen" => "rider(0,1)+rider(1,1)",
        "rook" => "rider(0,1)",
        "bishop" => "rider(1,1)",
        "knight" => "leaper(1,2)",
        "pawn" => "pawn",
        "wazir" => "leaper(0,1)",
        "ferz" => "leaper(1,1)",
        "dabbaba" => "leaper(0,2)",
        "alfil" => "leaper(2,2)",
        "threeleaper" => "leaper(0,3)",
        "tripper" => "leaper(3,3)",
        "camel" => "leaper(1,3)",
        "zebra" => "leaper(2,3)",
        "giraffe" => "leaper(1,4)",
        "nightrider" => "rider(1,2)",
        "amazon" => "rider(0,1)+rider(1,1)+leaper(1,2)",
        "archbishop" | "princess" | "cardinal" => "rider(1,1)+leaper(1,2)",
        "chancellor" | "empress" | "marshal" => "rider(0,1)+leaper(1,2)",
        "champion" => "leaper(0,1)+leaper(0,2)+leaper(2,2)",
        "wizard" => "leaper(1,1)+leaper(1,3)",
        "mann" | "commoner" => "leaper(0,1)+leaper(1,1)",
        "mao" => "decomposed-leaper(0,1;1,1)",
        "moa" => "decomposed-leaper(1,1;0,1)",
        "maorider" => "decomposed-rider(0,1;1,1)",
        "pao" => "chinese(0,1)",
        "vao" => "chinese(1,1)",
        "leo" => "chinese(0,1)+chinese(1,1)",
        "nao" => "chinese(1,2)",
        "grasshopper" => "hopper(0,1)+hopper(1,1)",
        "kangaroo" => "kanghopper(0,1)+kanghopper(1,1)",
        "locust" => "locuhopper(0,1)+locuhopper(1,1)",
        "nereid" => "marine(1,1)",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes() {
        let p = Piece::new(5, Color::Black);
        assert_eq!(p.kind(), 5);
        assert_eq!(p.color(), Color::Black);
        assert!(p.is_piece());
        assert!(!Piece::HOLE.is_piece());
        assert!(!Piece::EMPTY.is_piece());
    }

    #[test]
    fn direction_lists_round_trip() {
        let a: Atom = "leaper(0,1)[0,1]".parse().unwrap();
        assert_eq!(a.kept_displacements(), vec![(0, 1)]);
        assert_eq!(a.to_string(), "leaper(0,1)[0,1]");
        let n: Atom = "leaper(1,2)[1,2;-1,2;2,1;-2,1]".parse().unwrap();
        assert_eq!(n.kept_displacements().len(), 4);
        assert_eq!(n.to_string().parse::<Atom>().unwrap(), n);
        assert!("leaper(1,2)[1,1]".parse::<Atom>().is_err());
        // A full list is no filter.
        let w: Atom = "leaper(0,1)[0,1;0,-1;1,0;-1,0]".parse().unwrap();
        assert_eq!(w.to_string(), "leaper(0,1)");
    }

    #[test]
    fn movement_parses_and_prints() {
        let m: Movement = "leaper(1,2)+rider(0,1)+capture:rider(1,1)".parse().unwrap();
        assert_eq!(m.0.len(), 3);
        assert_eq!(m.0[2].mode, Mode::CaptureOnly);
        assert_eq!(m.to_string(), "leaper(1,2)+rider(0,1)+capture:rider(1,1)");
        let d: Movement = "decomposed-leaper(0,1;1,1)".parse().unwrap();
        assert_eq!(d.0[0].v2, (1, 1));
        for bad in [
            "",
            "leaper(1)",
            "foo(1,2)",
            "rider(0,0)",
            "leaper(1,2",
            "mao(1,2;3)",
        ] {
            assert!(bad.parse::<Movement>().is_err(), "{bad}");
        }
        for name in ["knight", "mao", "leo", "grasshopper", "amazon"] {
            named_piece(name).unwrap().parse::<Movement>().unwrap();
        }
    }
}
