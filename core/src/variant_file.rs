//! Variant files (SPEC section 5): INI text with `[name]` or `[name:parent]`
//! sections, in fers keys or the common Fairy-Stockfish `variants.ini` keys.
//!
//! Text in, compiled variants out: this module does no I/O (the engine reads
//! the file). Each section is checked on its own: an error names the file,
//! the line and the reason, and the other sections still load. Parents are
//! the built-in variants and earlier sections of the same file.

use crate::betza;
use crate::geometry::Topology;
use crate::piece::{Movement, PieceDef};
use crate::position::Position;
use crate::variant::{self, StalemateRule, Variant, VariantSpec};
use std::fmt;

/// A problem in a variant file, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantFileError {
    pub file: String,
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for VariantFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

impl std::error::Error for VariantFileError {}

/// One section of a file, loaded or refused.
#[derive(Debug)]
pub struct Section {
    pub name: String,
    /// Line of the `[name]` header.
    pub line: usize,
    pub result: Result<&'static Variant, VariantFileError>,
    /// The definition it was built from (for children in other files).
    pub spec: Option<VariantSpec>,
}

/// Fairy-Stockfish's built-in piece names that the glossary expresses, with
/// their movement (Betza).
fn fsf_piece(name: &str) -> Option<&'static str> {
    Some(match name {
        "pawn" => "pawn",
        "knight" => "N",
        "bishop" => "B",
        "rook" => "R",
        "queen" => "Q",
        "king" => "K",
        "fers" | "met" => "F",
        "alfil" => "A",
        "fersAlfil" => "FA",
        "silver" | "khon" => "FfW",
        "gold" => "WfF",
        "aiwok" => "RNF",
        "bers" | "dragon" => "RF",
        "dragonHorse" => "BW",
        "archbishop" => "BN",
        "chancellor" => "RN",
        "amazon" => "QN",
        "knibis" => "mNcB",
        "biskni" => "mBcN",
        "kniroo" => "mNcR",
        "rookni" => "mRcN",
        "shogiPawn" => "fW",
        "lance" => "fR",
        "shogiKnight" => "ffN",
        "cannon" => "mRcpR",
        "soldier" => "fsW",
        "horse" => "nN",
        "elephant" => "nA",
        "wazir" => "W",
        "commoner" => "K",
        "centaur" => "KN",
        _ => return None,
    })
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(format!("'{v}' is not true or false")),
    }
}

/// A board dimension: a number, or a file letter for files (`maxFile = j`).
fn parse_dim(v: &str, letters: bool) -> Result<u8, String> {
    if let Ok(n) = v.parse::<u8>() {
        return Ok(n);
    }
    let b = v.as_bytes();
    if letters && b.len() == 1 && b[0].is_ascii_lowercase() {
        return Ok(b[0] - b'a' + 1);
    }
    Err(format!("'{v}' is not a board size"))
}

fn parse_letter(v: &str) -> Result<char, String> {
    let mut it = v.chars();
    match (it.next(), it.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Ok(c.to_ascii_lowercase()),
        _ => Err(format!("'{v}' is not a piece letter")),
    }
}

/// `MG EG` or one value for both, in centipawns; `-` gives the piece back
/// to the evaluation.
fn parse_value(v: &str) -> Result<Option<(i32, i32)>, String> {
    if v == "-" {
        return Ok(None);
    }
    let bad = || format!("value '{v}' is not 'MG EG' or one number (centipawns, 0 to 100000)");
    let nums: Vec<i32> = v
        .split_whitespace()
        .map(|x| x.parse::<i32>().ok().filter(|n| (0..=100_000).contains(n)))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    match nums[..] {
        [a] => Ok(Some((a, a))),
        [a, b] => Ok(Some((a, b))),
        _ => Err(bad()),
    }
}

/// Sets (or replaces) the piece with `letter`.
fn set_piece(spec: &mut VariantSpec, letter: char, name: &str, movement: Movement) {
    match spec.pieces.iter_mut().find(|p| p.letter == letter) {
        Some(p) => {
            p.movement = movement;
            p.name = name.to_string();
            // A value was for the old movement.
            p.value = None;
        }
        None => spec.pieces.push(PieceDef {
            name: name.to_string(),
            letter,
            movement,
            royal: false,
            value: None,
        }),
    }
}

fn remove_piece_named(spec: &mut VariantSpec, name: &str) {
    if let Some(i) = spec.pieces.iter().position(|p| p.name == name) {
        let letter = spec.pieces[i].letter;
        spec.pieces.remove(i);
        spec.promotion.retain(|&c| c != letter);
    }
}

/// `network = PATH`: a relative path is read from the variant file's
/// directory, so a file and its networks move together; `-` drops it.
fn network_path(file: &str, v: &str) -> Result<Option<String>, String> {
    if v == "-" {
        return Ok(None);
    }
    if v.is_empty() {
        return Err("network needs a file name (or '-')".into());
    }
    let p = std::path::Path::new(v);
    if p.is_absolute() {
        return Ok(Some(v.to_string()));
    }
    let dir = std::path::Path::new(file)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    Ok(Some(dir.join(p).to_string_lossy().into_owned()))
}

/// Applies one `key = value` line to a spec (`file` names the variant
/// file, for the paths it gives).
fn apply(spec: &mut VariantSpec, file: &str, key: &str, value: &str) -> Result<(), String> {
    let v = value.trim();
    if let Some(letter) = key.strip_prefix("piece.") {
        let letter = parse_letter(letter)?;
        if v == "-" {
            spec.pieces.retain(|p| p.letter != letter);
            spec.promotion.retain(|&c| c != letter);
            return Ok(());
        }
        let movement = Movement::parse_any(v)?;
        let name = if crate::piece::named_piece(v).is_some() {
            v.to_string()
        } else {
            format!("piece-{letter}")
        };
        set_piece(spec, letter, &name, movement);
        return Ok(());
    }
    if let Some(letter) = key.strip_prefix("value.") {
        let letter = parse_letter(letter)?;
        let value = parse_value(v)?;
        let p = spec
            .pieces
            .iter_mut()
            .find(|p| p.letter == letter)
            .ok_or_else(|| format!("value for '{letter}', which is not defined"))?;
        p.value = value;
        return Ok(());
    }
    if let Some(n) = key.strip_prefix("customPiece") {
        if n.parse::<u8>().is_err() {
            return Err(format!("unknown key '{key}'"));
        }
        let (l, b) = v
            .split_once(':')
            .ok_or("customPiece needs 'letter:Betza'")?;
        let letter = parse_letter(l.trim())?;
        let movement = betza::parse(b.trim())?;
        set_piece(spec, letter, &format!("custom-{letter}"), movement);
        return Ok(());
    }
    match key {
        "files" | "maxFile" => spec.files = parse_dim(v, key == "maxFile")?,
        "ranks" | "maxRank" => spec.ranks = parse_dim(v, false)?,
        "topology" => spec.topology = v.parse::<Topology>()?,
        "royal" => {
            let l = parse_letter(v)?;
            if !spec.pieces.iter().any(|p| p.letter == l) {
                return Err(format!("royal piece '{l}' is not defined"));
            }
            for p in spec.pieces.iter_mut() {
                p.royal = p.letter == l;
            }
        }
        "start" | "startFen" => spec.start_fen = v.to_string(),
        "promotion" | "promotionPieceTypes" => {
            spec.promotion = v
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '-')
                .map(|c| c.to_ascii_lowercase())
                .collect();
        }
        "castling" => spec.castling = parse_bool(v)?,
        "double_step" | "doubleStep" => spec.double_step = parse_bool(v)?,
        "en_passant" | "enPassant" => spec.en_passant = parse_bool(v)?,
        // Wormhole's rules, for any variant (`wormhole.rs`).
        "vanishing_squares" | "vanishingSquares" => spec.holes.vanish = parse_bool(v)?,
        "skip_holes" | "skipHoles" => spec.holes.skip = parse_bool(v)?,
        "capture_promotion" | "capturePromotion" => spec.capture_promotion = parse_bool(v)?,
        "stalemate" => {
            spec.stalemate = match v {
                "draw" => StalemateRule::Draw,
                "loss" => StalemateRule::Loss,
                "win" => StalemateRule::Win,
                _ => return Err(format!("stalemate '{v}' is not draw, loss or win")),
            }
        }
        "conditions" => {
            let set: crate::conditions::Conditions = if v == "-" {
                crate::conditions::Conditions::NONE
            } else {
                v.parse()?
            };
            // Added to the parent's conditions.
            spec.conditions = spec.conditions.union(set);
        }
        "castlingKingsideFile" | "castlingQueensideFile" => {
            let f = parse_dim(v, true)?;
            if f == 0 {
                return Err(format!("'{v}' is not a file"));
            }
            let slot = if key == "castlingKingsideFile" { 0 } else { 1 };
            spec.castling_files[slot] = Some(f - 1);
        }
        "promotionRegionWhite" | "promotionRegionBlack" => {
            // Only whole last ranks are supported (`*8`, `*1`).
            let rank = v.strip_prefix('*').and_then(|r| r.parse::<u8>().ok());
            let last = if key == "promotionRegionWhite" {
                Some(spec.ranks)
            } else {
                Some(1)
            };
            if rank != last {
                return Err(format!(
                    "{key} = {v}: only the whole last rank is supported"
                ));
            }
        }
        "doubleStepRegionWhite" | "doubleStepRegionBlack" => {
            // Only each side's second rank is supported (`*2`, `*7` on 8 ranks).
            let rank = v.strip_prefix('*').and_then(|r| r.parse::<u8>().ok());
            let second = if key == "doubleStepRegionWhite" {
                2
            } else {
                spec.ranks.saturating_sub(1)
            };
            if rank != Some(second) {
                return Err(format!("{key} = {v}: only the second rank is supported"));
            }
        }
        "network" => spec.network = network_path(file, v)?,
        "pieceToCharTable" => {} // display only
        _ => {
            if let Some(b) = fsf_piece(key) {
                if v == "-" {
                    remove_piece_named(spec, key);
                    return Ok(());
                }
                let letter = parse_letter(v)?;
                let movement = if b == "pawn" {
                    "pawn".parse()?
                } else {
                    betza::parse(b)?
                };
                // A built-in name moves to its new letter.
                if let Some(i) = spec.pieces.iter().position(|p| p.name == key) {
                    spec.pieces[i].letter = letter;
                    spec.pieces[i].movement = movement;
                } else {
                    set_piece(spec, letter, key, movement);
                    if key == "king" {
                        for p in spec.pieces.iter_mut() {
                            p.royal = p.letter == letter;
                        }
                    }
                }
                return Ok(());
            }
            return Err(format!("unknown key '{key}'"));
        }
    }
    Ok(())
}

/// Loads every section of a variant file. `file` names it in errors.
/// `known` gives the specs of variants loaded before (other files), looked
/// up after this file's earlier sections and the built-ins.
pub fn load(file: &str, text: &str, known: &dyn Fn(&str) -> Option<VariantSpec>) -> Vec<Section> {
    struct Raw<'a> {
        name: String,
        parent: Option<String>,
        line: usize,
        body: Vec<(usize, &'a str)>,
        header_error: Option<String>,
    }
    let mut raws: Vec<Raw> = Vec::new();
    let mut stray: Option<VariantFileError> = None;
    for (i, raw_line) in text.lines().enumerate() {
        let n = i + 1;
        // A `#` or `;` after whitespace starts a comment (no FEN or Betza
        // string contains either).
        let cut = raw_line
            .char_indices()
            .find(|&(i, c)| (c == '#' || c == ';') && raw_line[..i].ends_with(char::is_whitespace))
            .map_or(raw_line.len(), |(i, _)| i);
        let line = raw_line[..cut].trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(h) = line.strip_prefix('[') {
            let (inner, header_error) = match h.strip_suffix(']') {
                Some(inner) => (inner, None),
                None => (h, Some("section header is missing ']'".to_string())),
            };
            let (name, parent) = match inner.split_once(':') {
                Some((a, b)) => (a.trim(), Some(b.trim().to_string())),
                None => (inner.trim(), None),
            };
            let header_error = header_error.or_else(|| {
                (name.is_empty()
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c)))
                .then(|| format!("'{name}' is not a variant name (letters, digits, - and _)"))
            });
            raws.push(Raw {
                name: name.to_string(),
                parent,
                line: n,
                body: Vec::new(),
                header_error,
            });
            continue;
        }
        match raws.last_mut() {
            Some(r) => r.body.push((n, line)),
            None => {
                if stray.is_none() {
                    stray = Some(VariantFileError {
                        file: file.into(),
                        line: n,
                        reason: "a setting before the first [section]".into(),
                    });
                }
            }
        }
    }

    let mut done: Vec<(String, VariantSpec)> = Vec::new();
    let mut out = Vec::new();
    if let Some(e) = stray {
        out.push(Section {
            name: String::new(),
            line: e.line,
            result: Err(e),
            spec: None,
        });
    }
    for r in raws {
        let err = |line: usize, reason: String| VariantFileError {
            file: file.into(),
            line,
            reason,
        };
        let result = (|| {
            if let Some(e) = &r.header_error {
                return Err(err(r.line, e.clone()));
            }
            let mut spec = match &r.parent {
                None => variant::empty_spec(),
                Some(p) => done
                    .iter()
                    .rev()
                    .find(|(n, _)| n == p)
                    .map(|(_, s)| s.clone())
                    .or_else(|| variant::builtin_spec(p))
                    .or_else(|| known(p))
                    .ok_or_else(|| err(r.line, format!("unknown parent variant '{p}'")))?,
            };
            spec.name = r.name.clone();
            // A parent's network is for the parent's name.
            spec.network = None;
            for &(n, line) in &r.body {
                let (k, v) = line
                    .split_once('=')
                    .ok_or_else(|| err(n, format!("'{line}' is not 'key = value'")))?;
                apply(&mut spec, file, k.trim(), v).map_err(|e| err(n, e))?;
            }
            let v = Variant::build(spec.clone()).map_err(|e| err(r.line, e))?;
            let v = variant::leak(v);
            if let Err(e) = Position::from_fen(v, &v.start_fen) {
                let line = r
                    .body
                    .iter()
                    .find(|(_, l)| l.starts_with("start"))
                    .map(|(n, _)| *n)
                    .unwrap_or(r.line);
                return Err(err(line, format!("start position: {e}")));
            }
            Ok((spec, v))
        })();
        match result {
            Ok((spec, v)) => {
                done.push((r.name.clone(), spec.clone()));
                out.push(Section {
                    name: r.name,
                    line: r.line,
                    result: Ok(v),
                    spec: Some(spec),
                });
            }
            Err(e) => out.push(Section {
                name: r.name,
                line: r.line,
                result: Err(e),
                spec: None,
            }),
        }
    }
    out
}

/// A one-line description of a loaded variant, for `check` listings.
pub fn describe(v: &Variant) -> String {
    let pieces: Vec<String> = v
        .pieces
        .iter()
        .map(|p| {
            let betza = betza::write(&p.movement)
                .map(|b| format!(" [{b}]"))
                .unwrap_or_default();
            format!("{}={}{}", p.letter, p.movement, betza)
        })
        .collect();
    format!(
        "{} {}x{} {} pieces: {} start: {}",
        v.name,
        v.geometry.files,
        v.geometry.ranks,
        v.geometry.topology.name(),
        pieces.join(", "),
        v.start_fen
    )
}
