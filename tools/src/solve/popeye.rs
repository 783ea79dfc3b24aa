//! Popeye's input language, the subset fers solves: `BeginProblem`,
//! `Pieces White ... Black ...` (English piece codes K Q R B S P; a code
//! followed by one or more squares, `Pa2b2c2`), `Stipulation`, `Condition`,
//! `Option`, `NextProblem`, `EndProblem`, and the informative `Author`,
//! `Origin`, `Title`, `Award`, `Remark` (the rest of their line). Keywords
//! are case-insensitive and may be shortened to a unique prefix of at
//! least three letters, as Popeye allows. Anything else is refused with an
//! error naming it and its line.

use fers_core::solve::Stipulation;
use std::fmt;

/// One problem read from a Popeye file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PopeyeProblem {
    /// `Author`, `Origin`, `Title`, `Award`, `Remark` lines, as written.
    pub info: Vec<(String, String)>,
    /// The position in fers FEN (orthodox letters), the side to move set
    /// by the stipulation (White, Black for `h#N`), castling rights for
    /// kings and rooks on their home squares (Popeye's default).
    pub fen: String,
    pub stipulation: Stipulation,
    /// Condition names of SPEC section 2, space separated.
    pub conditions: String,
    /// `Option NoThreat`: the threat is not printed.
    pub no_threat: bool,
}

/// Why a Popeye file was refused: the line and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PopeyeError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for PopeyeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for PopeyeError {}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Command {
    Begin,
    End,
    Next,
    Pieces,
    Stipulation,
    Condition,
    Option,
    Info,
}

/// Popeye's commands: the ones fers reads, then the ones it refuses by
/// name (so that an abbreviation of those is not mistaken for ours).
const COMMANDS: &[(&str, Option<Command>)] = &[
    ("beginproblem", Some(Command::Begin)),
    ("endproblem", Some(Command::End)),
    ("nextproblem", Some(Command::Next)),
    ("pieces", Some(Command::Pieces)),
    ("stipulation", Some(Command::Stipulation)),
    ("condition", Some(Command::Condition)),
    ("option", Some(Command::Option)),
    ("author", Some(Command::Info)),
    ("origin", Some(Command::Info)),
    ("title", Some(Command::Info)),
    ("award", Some(Command::Info)),
    ("remark", Some(Command::Info)),
    ("twin", None),
    ("zeroposition", None),
    ("forsyth", None),
    ("protocol", None),
    ("sstipulation", None),
    ("language", None),
    ("input", None),
    ("layout", None),
];

/// The command a word names (exactly, or as a unique prefix of three or
/// more letters): `Ok(None)` for a word that is no command.
fn command(word: &str) -> Result<Option<(&'static str, Option<Command>)>, String> {
    let w = word.to_ascii_lowercase();
    if let Some(&(name, c)) = COMMANDS.iter().find(|(n, _)| *n == w) {
        return Ok(Some((name, c)));
    }
    if w.len() < 3 || !w.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Ok(None);
    }
    let hits: Vec<_> = COMMANDS.iter().filter(|(n, _)| n.starts_with(&w)).collect();
    match hits.len() {
        0 => Ok(None),
        1 => Ok(Some((hits[0].0, hits[0].1))),
        _ => Err(format!("'{word}' is ambiguous")),
    }
}

/// Popeye condition spellings (lower case, `chess` suffix dropped) to SPEC
/// names; a second word completes some (`anticirce cheylan`).
fn condition(word: &str, next: Option<&str>) -> Result<(&'static str, bool), String> {
    let w = word.to_ascii_lowercase();
    let w = w.strip_suffix("chess").unwrap_or(&w).to_string();
    let n = next.map(|s| s.to_ascii_lowercase());
    let n = n.as_deref();
    let two = |s: &'static str| Ok((s, true));
    let one = |s: &'static str| Ok((s, false));
    match (w.as_str(), n) {
        ("anticirce", Some("cheylan")) => two("anticirce"),
        ("anticirce", Some("calvet")) => two("anticircecalvet"),
        ("anticirce", _) => one("anticircecalvet"),
        ("anticircecheylan", _) => one("anticirce"),
        ("anticircecalvet", _) => one("anticircecalvet"),
        ("madrasi", Some(x)) if x.starts_with("rexincl") || x.starts_with("rexinkl") => {
            two("madrasirex")
        }
        ("messigny", Some(x)) if x.starts_with("rexexcl") || x.starts_with("rexexkl") => {
            two("messignyrexexclusiv")
        }
        ("singlebox", Some("type1")) => two("singlebox1"),
        ("singlebox", Some("type2")) => two("singlebox2"),
        ("singlebox", Some(x)) => Err(format!("Singlebox {x} is not supported (Type1, Type2)")),
        ("singlebox", None) => Err("Singlebox needs a type (Type1 or Type2)".into()),
        ("circe" | "madrasi" | "messigny", Some(x)) if x.starts_with("rex") => Err(format!(
            "{word} {next_word} is not supported",
            next_word = next.unwrap_or("")
        )),
        ("andernach", _) => one("andernach"),
        ("circe", _) => one("circe"),
        ("circemalefique" | "malefiquecirce", _) => one("circemalefique"),
        ("marscirce", _) => one("marscirce"),
        ("circeparrain" | "parraincirce", _) => one("parraincirce"),
        ("circeechange" | "circeexchange" | "exchangecirce" | "interchangecirce", _) => {
            one("interchangecirce")
        }
        ("chinese", _) => one("chinese"),
        ("hcylinder", _) => one("hcylinder"),
        ("vcylinder", _) => one("vcylinder"),
        ("anchorring", _) => one("anchorring"),
        ("beamten", _) => one("beamten"),
        ("grid", _) => one("grid"),
        ("kamikaze", _) => one("kamikaze"),
        ("koeko", _) => one("koeko"),
        ("madrasi", _) => one("madrasi"),
        ("madrasirex", _) => one("madrasirex"),
        ("messigny", _) => one("messigny"),
        ("messignyrexexclusiv", _) => one("messignyrexexclusiv"),
        ("patrol", _) => one("patrol"),
        ("provocateurs", _) => one("provocateurs"),
        ("transmutingkings", _) => one("transmutingkings"),
        ("nocapture", _) => one("nocapture"),
        ("sentinelles", _) => one("sentinelles"),
        ("singlebox1", _) => one("singlebox1"),
        ("singlebox2", _) => one("singlebox2"),
        _ => Err(format!("condition '{word}' is not supported")),
    }
}

/// A word with its line number.
struct Word<'a> {
    text: &'a str,
    line: usize,
}

/// Reads every problem of a Popeye file.
pub fn parse(text: &str) -> Result<Vec<PopeyeProblem>, PopeyeError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut words: Vec<Word> = Vec::new();
    // Informative commands take the rest of their line: kept aside.
    let mut rest_of_line: Vec<Option<(usize, String)>> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let mut it = l.split_whitespace().peekable();
        while let Some(w) = it.next() {
            let is_info = matches!(command(w), Ok(Some((_, Some(Command::Info)))));
            words.push(Word {
                text: w,
                line: i + 1,
            });
            if is_info {
                let rest: Vec<&str> = it.by_ref().collect();
                rest_of_line.resize(words.len(), None);
                rest_of_line[words.len() - 1] = Some((i + 1, rest.join(" ")));
            }
        }
    }
    rest_of_line.resize(words.len(), None);
    let err = |line: usize, reason: String| PopeyeError { line, reason };

    let mut problems = Vec::new();
    let mut i = 0;
    let mut started = false;
    let mut current = Draft::default();
    let mut ended = false;
    while i < words.len() {
        let w = &words[i];
        let (name, cmd) = match command(w.text).map_err(|e| err(w.line, e))? {
            Some(c) => c,
            None => {
                return Err(err(
                    w.line,
                    format!("unknown or unsupported input '{}'", w.text),
                ))
            }
        };
        let Some(cmd) = cmd else {
            return Err(err(
                w.line,
                format!("Popeye command '{name}' is not supported by fers-solve"),
            ));
        };
        if ended {
            return Err(err(w.line, format!("'{}' after EndProblem", w.text)));
        }
        if !started && cmd != Command::Begin {
            return Err(err(
                w.line,
                format!("expected BeginProblem, found '{}'", w.text),
            ));
        }
        i += 1;
        // The words up to the next command are this command's arguments.
        let start = i;
        while i < words.len() && !matches!(command(words[i].text), Ok(Some(_))) {
            i += 1;
        }
        // Piece squares such as `Rea1` are never commands, but a piece
        // token could look like an abbreviation ("Sta"?): Popeye has the
        // same rule, squares decide.
        let args = &words[start..i];
        match cmd {
            Command::Begin => {
                if started {
                    return Err(err(w.line, "BeginProblem twice".into()));
                }
                started = true;
                expect_no_args(args, name)?;
            }
            Command::Next | Command::End => {
                expect_no_args(args, name)?;
                problems.push(current.finish(w.line)?);
                current = Draft::default();
                ended = cmd == Command::End;
            }
            Command::Info => {
                if let Some((_, text)) = &rest_of_line[start - 1] {
                    current.info.push((name.to_string(), text.clone()));
                }
                // Its words were taken with the line; skip any left.
                i = start;
                while i < words.len() && words[i].line == w.line {
                    i += 1;
                }
            }
            Command::Pieces => current.pieces(args)?,
            Command::Stipulation => {
                let [s] = args else {
                    return Err(err(
                        w.line,
                        "Stipulation takes one word (#2, s#3, h#2, h#2.5)".into(),
                    ));
                };
                current.stipulation = Some((
                    s.text.parse::<Stipulation>().map_err(|e| {
                        err(s.line, format!("{e} (fers solves #N, s#N, h#N, h#N.5)"))
                    })?,
                    s.line,
                ));
            }
            Command::Condition => {
                let mut k = 0;
                while k < args.len() {
                    let next = args.get(k + 1).map(|a| a.text);
                    let (c, both) =
                        condition(args[k].text, next).map_err(|e| err(args[k].line, e))?;
                    if !current.conditions.is_empty() {
                        current.conditions.push(' ');
                    }
                    current.conditions.push_str(c);
                    k += if both { 2 } else { 1 };
                }
            }
            Command::Option => {
                let mut k = 0;
                while k < args.len() {
                    let o = args[k].text.to_ascii_lowercase();
                    match o.as_str() {
                        // fers always shows tries, variations and moves.
                        "try" | "variation" | "noboard" | "movenumbers" | "intelligent" => {}
                        "nothreat" => current.no_threat = true,
                        "defence" => {
                            // Tries refuted by one move: Popeye's `Defence 1`.
                            match args.get(k + 1).map(|a| a.text) {
                                Some("1") => k += 1,
                                _ => {
                                    return Err(err(
                                        args[k].line,
                                        "only Defence 1 is supported".into(),
                                    ))
                                }
                            }
                        }
                        _ => {
                            return Err(err(
                                args[k].line,
                                format!("option '{}' is not supported", args[k].text),
                            ))
                        }
                    }
                    k += 1;
                }
            }
        }
    }
    if !started {
        return Err(err(1, "no BeginProblem".into()));
    }
    if !ended {
        return Err(err(lines.len().max(1), "missing EndProblem".into()));
    }
    Ok(problems)
}

fn expect_no_args(args: &[Word], name: &str) -> Result<(), PopeyeError> {
    match args.first() {
        Some(a) => Err(PopeyeError {
            line: a.line,
            reason: format!("unexpected '{}' after {name}", a.text),
        }),
        None => Ok(()),
    }
}

/// A problem being read.
#[derive(Default)]
struct Draft {
    info: Vec<(String, String)>,
    /// Board, rank 8 first: a fers letter or nothing.
    board: [[Option<char>; 8]; 8],
    any_piece: bool,
    stipulation: Option<(Stipulation, usize)>,
    conditions: String,
    no_threat: bool,
}

impl Draft {
    fn pieces(&mut self, args: &[Word]) -> Result<(), PopeyeError> {
        let mut white: Option<bool> = None;
        for a in args {
            let err = |reason: String| PopeyeError {
                line: a.line,
                reason,
            };
            match a.text.to_ascii_lowercase().as_str() {
                "white" => {
                    white = Some(true);
                    continue;
                }
                "black" => {
                    white = Some(false);
                    continue;
                }
                "neutral" => return Err(err("neutral pieces are not supported".into())),
                _ => {}
            }
            let Some(white) = white else {
                return Err(err(format!("'{}': White or Black must come first", a.text)));
            };
            let t = a.text.to_ascii_lowercase();
            let b = t.as_bytes();
            // The piece code is the letters before the squares.
            let code_len = (1..=2)
                .find(|&n| n <= b.len() && squares(&b[n..]).is_some())
                .ok_or_else(|| {
                    err(format!(
                        "'{}' is no piece and squares (e.g. Ke1, Pa2b2)",
                        a.text
                    ))
                })?;
            let code = &t[..code_len];
            let letter = match code {
                "k" => 'k',
                "q" => 'q',
                "r" => 'r',
                "b" => 'b',
                "s" => 'n',
                "p" => 'p',
                _ => {
                    return Err(err(format!(
                        "piece '{}' is not supported (K Q R B S P)",
                        &a.text[..code_len]
                    )))
                }
            };
            let letter = if white {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            for (file, rank) in squares(&b[code_len..]).unwrap_or_default() {
                let cell = &mut self.board[7 - rank][file];
                if cell.is_some() {
                    return Err(err(format!(
                        "two pieces on {}{}",
                        (b'a' + file as u8) as char,
                        rank + 1
                    )));
                }
                *cell = Some(letter);
                self.any_piece = true;
            }
        }
        Ok(())
    }

    fn finish(self, line: usize) -> Result<PopeyeProblem, PopeyeError> {
        let err = |reason: &str| PopeyeError {
            line,
            reason: reason.to_string(),
        };
        let (stipulation, _) = self
            .stipulation
            .ok_or_else(|| err("the problem has no Stipulation"))?;
        if !self.any_piece {
            return Err(err("the problem has no Pieces"));
        }
        let mut placement = String::new();
        for (r, row) in self.board.iter().enumerate() {
            let mut empty = 0;
            for cell in row {
                match cell {
                    Some(c) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        placement.push(*c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if r < 7 {
                placement.push('/');
            }
        }
        let at = |file: usize, rank: usize| self.board[7 - rank][file];
        let mut castling = String::new();
        for (white, rank) in [(true, 0), (false, 7)] {
            let k = if white { 'K' } else { 'k' };
            let r = if white { 'R' } else { 'r' };
            if at(4, rank) == Some(k) {
                if at(7, rank) == Some(r) {
                    castling.push(if white { 'K' } else { 'k' });
                }
                if at(0, rank) == Some(r) {
                    castling.push(if white { 'Q' } else { 'q' });
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = match stipulation.help_starter() {
            Some(fers_core::Color::Black) => 'b',
            _ => 'w',
        };
        Ok(PopeyeProblem {
            info: self.info,
            fen: format!("{placement} {side} {castling} - 0 1"),
            stipulation,
            conditions: self.conditions,
            no_threat: self.no_threat,
        })
    }
}

/// `a2b2c2` → [(file, rank)], or `None` if it is not a list of squares.
fn squares(b: &[u8]) -> Option<Vec<(usize, usize)>> {
    if b.is_empty() || !b.len().is_multiple_of(2) {
        return None;
    }
    b.chunks(2)
        .map(|c| match (c[0], c[1]) {
            (f @ b'a'..=b'h', r @ b'1'..=b'8') => Some(((f - b'a') as usize, (r - b'1') as usize)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANDERNACH: &str = "BeginProblem
Author Somebody
Pieces White Ke7 Sf7f6 Be3 Pe2
       Black Kf5 Qb2 Rh2 Bg4a1 Sc1 Pe6g6b4
Stipulation #2
Condition AndernachChess
Option Try Variation
EndProblem
";

    #[test]
    fn reads_a_problem() {
        let p = parse(ANDERNACH).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].fen, "8/4KN2/4pNp1/5k2/1p4b1/4B3/1q2P2r/b1n5 w - - 0 1");
        assert_eq!(p[0].conditions, "andernach");
        assert_eq!(p[0].stipulation.to_string(), "#2");
        assert_eq!(
            p[0].info,
            vec![("author".to_string(), "Somebody".to_string())]
        );
    }

    #[test]
    fn several_problems_abbreviations_and_castling() {
        let text = "begi pieces white ke1 rh1a1 black ke8 stip h#2.5 cond anticirce cheylan madrasi rexinclusive \
                    next pie white ke1 black ke8 pa7 stip h#2 endp";
        let p = parse(text).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].fen, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(p[0].conditions, "anticirce madrasirex");
        assert_eq!(p[1].fen, "4k3/p7/8/8/8/8/8/4K3 b - - 0 1");
    }

    #[test]
    fn refuses_what_it_does_not_know() {
        for (text, needle) in [
            ("BeginProblem Twin Pieces White Ke1 EndProblem", "twin"),
            (
                "BeginProblem Pieces White Ke1 Gd4 Stipulation #2 EndProblem",
                "piece 'G'",
            ),
            (
                "BeginProblem Pieces White Ke1 Stipulation ser-#2 EndProblem",
                "stipulation",
            ),
            (
                "BeginProblem Pieces White Ke1 Stipulation #2 Condition Isardam EndProblem",
                "Isardam",
            ),
            (
                "BeginProblem Pieces White Ke1 Stipulation #2 Option SetPlay EndProblem",
                "SetPlay",
            ),
            ("BeginProblem Pieces Neutral Ke1 EndProblem", "neutral"),
            ("BeginProblem Pieces White Ke1 Stipulation #2", "EndProblem"),
            ("Pieces White Ke1", "BeginProblem"),
            (
                "BeginProblem Pieces White Ke1 Ke1 Stipulation #2 EndProblem",
                "two pieces",
            ),
            (
                "BeginProblem Pieces White Ke9 Stipulation #2 EndProblem",
                "Ke9",
            ),
            ("BeginProblem Frobnicate EndProblem", "Frobnicate"),
            ("BeginProblem Pieces White Ke1 EndProblem", "Stipulation"),
            ("", "BeginProblem"),
        ] {
            match parse(text) {
                Ok(p) => panic!("{text}: accepted as {p:?}"),
                Err(e) => assert!(
                    e.to_string()
                        .to_lowercase()
                        .contains(&needle.to_lowercase()),
                    "{text}: {e}"
                ),
            }
        }
    }

    /// Garbage never panics: random sequences of keywords, piece tokens,
    /// stipulations and junk (multi-byte characters included).
    #[test]
    fn random_input_never_panics() {
        let words = [
            "BeginProblem",
            "EndProblem",
            "NextProblem",
            "Pieces",
            "White",
            "Black",
            "Neutral",
            "Stipulation",
            "Condition",
            "Option",
            "Title",
            "Ke1",
            "Sé1",
            "Pa2b2",
            "Qz9",
            "#2",
            "h#2.5",
            "s#",
            "Circe",
            "AntiCirce",
            "Cheylan",
            "Singlebox",
            "Type3",
            "Madrasi",
            "RexInclusive",
            "Try",
            "Defence",
            "1",
            "€",
            "\n",
            "sti",
            "con",
            "be",
            "Twin",
            "ke8",
            "",
            "h#0.5",
            "Pa7a7",
        ];
        let mut x: u64 = 0x1234_5678_9ABC_DEF1;
        for _ in 0..3000 {
            let mut text = String::new();
            let n = (x % 24) as usize;
            for _ in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text.push_str(words[(x % words.len() as u64) as usize]);
                text.push(if x.is_multiple_of(5) { '\n' } else { ' ' });
            }
            let _ = parse(&text);
        }
    }
}
