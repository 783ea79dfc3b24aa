//! Betza notation (the convention of Fairy-Stockfish, XBoard and ChessV),
//! read into and written from the glossary families.
//!
//! Supported: atoms `W F D N A H C Z G` (leapers) and `R B Q K`; a doubled
//! leaper letter is its rider (`NN`); modifiers `m` (move only), `c`
//! (capture only), `n` (lame: `nN` mao, `nA`, `nD`), `j` (must jump: `jD`,
//! `jA` are equihoppers), `g` (grasshopper: hopper), `p` (cannon-like:
//! prolonged hopper; `mRcpR` is the pao); directions `f b l r s v` with the
//! doubled (`ff`) and combined (`fs`, `fl`, `br`) forms. Anything else is an
//! error that says what cannot be expressed.

use crate::geometry::SYMMETRIES;
use crate::piece::{Atom, Family, Mode, Movement, ALL_DIRECTIONS};

fn leaper_vector(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

fn vector_letter(v: (i8, i8)) -> Option<char> {
    let (a, b) = (
        v.0.unsigned_abs().min(v.1.unsigned_abs()),
        v.0.unsigned_abs().max(v.1.unsigned_abs()),
    );
    "WFDNAHCZG"
        .chars()
        .find(|&c| leaper_vector(c) == Some((a as i8, b as i8)))
}

/// Does displacement (dx, dy) (White's view) belong to a direction group?
fn in_group(group: &str, dx: i32, dy: i32) -> bool {
    let (ax, ay) = (dx.abs(), dy.abs());
    let oblique = ax != 0 && ay != 0 && ax != ay;
    match group {
        "f" => dy > 0,
        "b" => dy < 0,
        "l" => dx < 0,
        "r" => dx > 0,
        // Vertical and sideways: for oblique leaps the steep and the flat
        // ones; for orthogonal ones the file and the rank.
        "v" => {
            if oblique {
                ay > ax
            } else {
                dx == 0
            }
        }
        "s" => {
            if oblique {
                ax > ay
            } else {
                dy == 0
            }
        }
        "ff" => dy > 0 && (if oblique { ay > ax } else { dx == 0 }),
        "bb" => dy < 0 && (if oblique { ay > ax } else { dx == 0 }),
        "ll" => dx < 0 && (if oblique { ax > ay } else { dy == 0 }),
        "rr" => dx > 0 && (if oblique { ax > ay } else { dy == 0 }),
        "fs" | "sf" => dy > 0 && (if oblique { ax > ay } else { dx != 0 }),
        "bs" | "sb" => dy < 0 && (if oblique { ax > ay } else { dx != 0 }),
        "fl" | "lf" => dy > 0 && dx < 0,
        "fr" | "rf" => dy > 0 && dx > 0,
        "bl" | "lb" => dy < 0 && dx < 0,
        "br" | "rb" => dy < 0 && dx > 0,
        _ => false,
    }
}

const GROUPS: [&str; 16] = [
    "ff", "bb", "ll", "rr", "fs", "bs", "fl", "fr", "bl", "br", "f", "b", "l", "r", "v", "s",
];

/// Splits direction letters into groups, longest first (`fsb` = fs + b).
fn split_groups(dirs: &str) -> Result<Vec<&'static str>, String> {
    let mut out = Vec::new();
    let mut rest = dirs;
    while !rest.is_empty() {
        let g = GROUPS
            .iter()
            .find(|g| rest.starts_with(**g))
            .ok_or_else(|| format!("direction '{rest}' is not understood"))?;
        out.push(*g);
        rest = &rest[g.len()..];
    }
    Ok(out)
}

/// Filter bits of an atom for a direction string (empty: all directions).
fn filter_for(atom: &Atom, dirs: &str) -> Result<u8, String> {
    if dirs.is_empty() {
        return Ok(ALL_DIRECTIONS);
    }
    let groups = split_groups(dirs)?;
    let mut filter = 0u8;
    for i in 0..SYMMETRIES.len() {
        let (dx, dy) = atom.displacement(i);
        if groups.iter().any(|g| in_group(g, dx, dy)) {
            filter |= 1 << i;
        }
    }
    if filter == 0 {
        return Err(format!("direction '{dirs}' leaves no move"));
    }
    Ok(filter)
}

/// Parses a Betza string into a movement.
pub fn parse(text: &str) -> Result<Movement, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty Betza string".into());
    }
    let chars: Vec<char> = t.chars().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // Modifiers and directions before the atom letter.
        let start = i;
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            i += 1;
        }
        let prefix: String = chars[start..i].iter().collect();
        let letter = *chars.get(i).ok_or_else(|| {
            format!("'{t}': modifiers '{prefix}' are not followed by a piece letter")
        })?;
        i += 1;
        // A doubled letter makes a rider.
        let doubled = chars.get(i) == Some(&letter) && leaper_vector(letter).is_some();
        if doubled {
            i += 1;
        }
        if chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
            return Err(format!(
                "'{t}': range limits ({letter}{}) are not supported",
                chars[i]
            ));
        }

        let (mut mode_m, mut mode_c, mut lame, mut jump, mut grass, mut cannon) =
            (false, false, false, false, false, false);
        let mut dirs = String::new();
        for c in prefix.chars() {
            match c {
                'm' => mode_m = true,
                'c' => mode_c = true,
                'n' => lame = true,
                'j' => jump = true,
                'g' => grass = true,
                'p' => cannon = true,
                'f' | 'b' | 'l' | 'r' | 's' | 'v' => dirs.push(c),
                other => return Err(format!("'{t}': modifier '{other}' is not supported")),
            }
        }
        let mode = match (mode_m, mode_c) {
            (true, false) => Mode::MoveOnly,
            (false, true) => Mode::CaptureOnly,
            _ => Mode::Both,
        };
        // Base vectors and whether the atom rides.
        let (vectors, rides): (Vec<(i8, i8)>, bool) = match letter {
            'R' => (vec![(0, 1)], true),
            'B' => (vec![(1, 1)], true),
            'Q' => (vec![(0, 1), (1, 1)], true),
            'K' => (vec![(0, 1), (1, 1)], false),
            c => match leaper_vector(c) {
                Some(v) => (vec![v], doubled),
                None => return Err(format!("'{t}': '{c}' is not a Betza atom")),
            },
        };
        for v in vectors {
            let atom = if grass || cannon {
                if lame || jump {
                    return Err(format!(
                        "'{t}': '{prefix}{letter}' combines hopping modifiers"
                    ));
                }
                let fam = if grass {
                    Family::Hopper
                } else {
                    Family::ProlongedHopper
                };
                Atom::new(fam, v, (0, 0), mode)
            } else if lame && !rides && (v == (1, 2) || v == (2, 2) || v == (0, 2)) {
                // Lame leapers: the intermediate square must be empty.
                let (first, second) = match v {
                    (1, 2) => ((0, 1), (1, 1)),
                    (2, 2) => ((1, 1), (1, 1)),
                    _ => ((0, 1), (0, 1)),
                };
                Atom::new(Family::DecomposedLeaper, first, second, mode)
            } else if lame && !rides && (v == (0, 1) || v == (1, 1)) {
                Atom::new(Family::Leaper, v, (0, 0), mode) // nothing to block
            } else if jump && !rides && (v == (0, 2) || v == (2, 2)) {
                // Must jump: the intermediate square must be occupied.
                let half = (v.0 / 2, v.1 / 2);
                Atom::new(Family::Equihopper, half, (0, 0), mode)
            } else if jump && !rides && matches!(v, (0, 1) | (1, 1) | (1, 2)) {
                Atom::new(Family::Leaper, v, (0, 0), mode) // leaps anyway
            } else if lame || jump {
                return Err(format!("'{t}': '{prefix}{letter}' has no glossary family"));
            } else {
                Atom::new(
                    if rides { Family::Rider } else { Family::Leaper },
                    v,
                    (0, 0),
                    mode,
                )
            };
            let mut atom = atom;
            atom.filter = filter_for(&atom, &dirs)?;
            atoms.push(atom);
        }
    }
    Ok(Movement(atoms))
}

/// Writes a movement in Betza, if every atom has a Betza form.
pub fn write(m: &Movement) -> Option<String> {
    let mut parts: Vec<String> = m.0.iter().map(write_atom).collect::<Option<_>>()?;
    // Compounds read better: R+B is Q, W+F is K.
    for (a, b, c) in [("R", "B", "Q"), ("W", "F", "K")] {
        if let (Some(i), Some(j)) = (
            parts.iter().position(|p| p == a),
            parts.iter().position(|p| p == b),
        ) {
            parts[i.min(j)] = c.to_string();
            parts.remove(i.max(j));
        }
    }
    Some(parts.concat())
}

fn write_atom(a: &Atom) -> Option<String> {
    let mode = match a.mode {
        Mode::Both => "",
        Mode::MoveOnly => "m",
        Mode::CaptureOnly => "c",
    };
    let body = match a.family {
        Family::Leaper => vector_letter(a.v1)?.to_string(),
        Family::Rider => match vector_letter(a.v1)? {
            'W' => "R".to_string(),
            'F' => "B".to_string(),
            c => format!("{c}{c}"),
        },
        Family::Hopper | Family::ProlongedHopper => {
            let g = if a.family == Family::Hopper { "g" } else { "p" };
            match vector_letter(a.v1)? {
                'W' => format!("{g}R"),
                'F' => format!("{g}B"),
                c => format!("{g}{c}{c}"),
            }
        }
        Family::DecomposedLeaper => match (a.v1, a.v2) {
            ((0, 1), (1, 1)) => "nN".into(),
            ((1, 1), (1, 1)) => "nA".into(),
            ((0, 1), (0, 1)) => "nD".into(),
            _ => return None,
        },
        Family::Equihopper => match vector_letter(a.v1)? {
            'W' => "jD".into(),
            'F' => "jA".into(),
            _ => return None,
        },
        Family::Chinese => {
            let l = match vector_letter(a.v1)? {
                'W' => "R".to_string(),
                'F' => "B".to_string(),
                c => format!("{c}{c}"),
            };
            if a.filter != ALL_DIRECTIONS || a.mode != Mode::Both {
                return None;
            }
            return Some(format!("m{l}cp{l}"));
        }
        _ => return None,
    };
    let dirs = if a.filter == ALL_DIRECTIONS || a.filter == 0 {
        String::new()
    } else {
        direction_string(a)?
    };
    Some(format!("{mode}{dirs}{body}"))
}

/// The shortest direction string that selects exactly the atom's moves.
fn direction_string(a: &Atom) -> Option<String> {
    let want = a.kept_displacements();
    let all = Atom {
        filter: ALL_DIRECTIONS,
        ..*a
    };
    if want.len() == all.kept_displacements().len() {
        return Some(String::new());
    }
    let matches = |s: &str| {
        filter_for(&all, s)
            .ok()
            .map(|f| Atom { filter: f, ..*a }.kept_displacements())
            .is_some_and(|mut k| {
                let mut w = want.clone();
                k.sort();
                w.sort();
                k == w
            })
    };
    for g in GROUPS {
        if matches(g) {
            return Some(g.to_string());
        }
    }
    for g in GROUPS {
        for h in GROUPS {
            let s = format!("{g}{h}");
            if split_groups(&s).ok()? == [g, h] && matches(&s) {
                return Some(s);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> String {
        parse(text).unwrap().to_string()
    }

    #[test]
    fn atoms_and_riders() {
        assert_eq!(moves("N"), "leaper(1,2)");
        assert_eq!(moves("NN"), "rider(1,2)");
        assert_eq!(moves("Q"), "rider(0,1)+rider(1,1)");
        assert_eq!(moves("KN"), "leaper(0,1)+leaper(1,1)+leaper(1,2)");
        assert_eq!(moves("C"), "leaper(1,3)");
        assert_eq!(moves("G"), "leaper(3,3)");
    }

    #[test]
    fn modifiers() {
        assert_eq!(moves("nN"), "decomposed-leaper(0,1;1,1)");
        assert_eq!(moves("nA"), "decomposed-leaper(1,1;1,1)");
        assert_eq!(moves("nD"), "decomposed-leaper(0,1;0,1)");
        assert_eq!(
            moves("mRcpR"),
            "move:rider(0,1)+capture:prolonged-hopper(0,1)"
        );
        assert_eq!(moves("gQ"), "hopper(0,1)+hopper(1,1)");
        assert_eq!(moves("pB"), "prolonged-hopper(1,1)");
        assert_eq!(moves("jD"), "equihopper(0,1)");
    }

    #[test]
    fn directions() {
        let m = parse("fW").unwrap();
        assert_eq!(m.0[0].kept_displacements(), vec![(0, 1)]);
        let m = parse("fF").unwrap();
        assert_eq!(m.0[0].kept_displacements().len(), 2);
        let m = parse("ffN").unwrap();
        let mut k = m.0[0].kept_displacements();
        k.sort();
        assert_eq!(k, vec![(-1, 2), (1, 2)]);
        let m = parse("fsN").unwrap();
        let mut k = m.0[0].kept_displacements();
        k.sort();
        assert_eq!(k, vec![(-2, 1), (2, 1)]);
        let m = parse("sW").unwrap();
        assert_eq!(m.0[0].kept_displacements().len(), 2);
        let m = parse("fmWfcF").unwrap(); // a Berolina-less chess pawn
        assert_eq!(m.0.len(), 2);
        assert_eq!(m.0[0].mode, Mode::MoveOnly);
    }

    #[test]
    fn errors_name_the_problem() {
        for bad in ["", "X", "nH", "R4", "qN", "fm", "gnN", "zW"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn writes_back() {
        for s in [
            "N", "NN", "nN", "gQ", "pR", "mRcpR", "R", "B", "fW", "ffN", "fsN", "jD", "cF", "WF",
        ] {
            let m = parse(s).unwrap();
            let w = write(&m).unwrap_or_else(|| panic!("{s} has no Betza form"));
            assert_eq!(parse(&w).unwrap(), m, "{s} -> {w}");
        }
        // The glossary's Chinese family prints in the pao's form.
        let pao: Movement = "chinese(0,1)".parse().unwrap();
        assert_eq!(write(&pao).unwrap(), "mRcpR");
        assert_eq!(write(&parse("Q").unwrap()).unwrap(), "Q");
        assert_eq!(write(&parse("KN").unwrap()).unwrap(), "KN");
        let nereid: Movement = "marine(1,1)".parse().unwrap();
        assert_eq!(write(&nereid), None);
    }
}
