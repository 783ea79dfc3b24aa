//! `fers-solve`'s output: the solution in Popeye's layout (English words,
//! its indentation, `!` for keys and `?` for tries, `but` before a try's
//! refutation), or one JSON object per problem for scripts.

use fers_core::solve::{Aim, Candidate, Line, Solution, Tree};
use fers_core::{Move, MoveFlag, Position};
use std::fmt::Write;

/// A move in Popeye's notation: piece letter (English, `S` the knight,
/// none for pawns), start, `-` or `*`, arrival, `=X` promotion, `0-0`,
/// `<->` for an exchange; ` +` after a check and ` #` after a mate is
/// added by the caller.
pub fn popeye_move(pos: &Position, m: Move) -> String {
    let v = pos.variant();
    let geo = v.geometry;
    match m.flag() {
        MoveFlag::CastleKing => return "0-0".into(),
        MoveFlag::CastleQueen => return "0-0-0".into(),
        _ => {}
    }
    let letter = |kind: u8| -> String {
        if Some(kind) == v.pawn_kind {
            return String::new();
        }
        match v.pieces[kind as usize].name.as_str() {
            "knight" => "S".into(),
            _ => v.pieces[kind as usize]
                .letter
                .to_ascii_uppercase()
                .to_string(),
        }
    };
    let mover = pos.piece_at(m.from());
    let mut s = letter(mover.kind());
    s.push_str(&geo.square_name(m.from()));
    if m.flag() == MoveFlag::Exchange {
        s.push_str("<->");
        s.push_str(&letter(pos.piece_at(m.to()).kind()));
    } else if pos.is_capture(m) {
        s.push('*');
    } else {
        s.push('-');
    }
    s.push_str(&geo.square_name(m.to()));
    if let Some(k) = m.promotion() {
        s.push('=');
        s.push_str(&letter(k));
    }
    s
}

/// ` +` or ` #` for the position after a move.
fn suffix(after: &Position) -> &'static str {
    if after.in_check() {
        if fers_core::solve::has_legal_move(after) {
            " +"
        } else {
            " #"
        }
    } else {
        ""
    }
}

fn played(pos: &Position, m: Move) -> Position {
    let mut p = pos.clone();
    p.play(m);
    p
}

fn attacker_indent(move_no: u32) -> usize {
    if move_no <= 1 {
        3
    } else {
        10 + 8 * (move_no as usize - 2)
    }
}

fn defence_indent(move_no: u32) -> usize {
    6 + 8 * (move_no as usize - 1)
}

/// The solution in Popeye's layout (without the closing time line).
pub fn text(root: &Position, sol: &Solution, no_threat: bool) -> String {
    let mut out = String::new();
    match sol.stipulation.aim {
        Aim::Help => help_text(root, sol, &mut out),
        _ => {
            for c in &sol.candidates {
                candidate_text(root, c, no_threat, &mut out);
                out.push('\n');
            }
            let keys = sol.keys();
            if keys.len() > 1 {
                let names: Vec<String> = keys
                    .iter()
                    .map(|&k| format!("1.{}", popeye_move(root, k)))
                    .collect();
                let _ = writeln!(out, "cooked: {} keys ({})", keys.len(), names.join(", "));
            }
            if keys.is_empty() && !sol.aborted {
                out.push_str("no solution\n");
            }
        }
    }
    out
}

fn candidate_text(root: &Position, c: &Candidate, no_threat: bool, out: &mut String) {
    let after = played(root, c.mv);
    let _ = write!(
        out,
        "{}1.{}{} {}",
        " ".repeat(attacker_indent(1)),
        popeye_move(root, c.mv),
        suffix(&after),
        if c.key { "!" } else { "?" }
    );
    match &c.tree {
        Some(t) => tree_text(&after, t, 1, no_threat, out),
        None => out.push('\n'),
    }
    if let Some(r) = c.refutation {
        let _ = writeln!(
            out,
            "    but\n{}1...{}{} !",
            " ".repeat(defence_indent(1)),
            popeye_move(&after, r),
            suffix(&played(&after, r))
        );
    }
}

/// The rest of an attacker's line (after its move text): threat, then the
/// defences with their continuations. `pos` is after the attacker's move
/// number `move_no`.
fn tree_text(pos: &Position, t: &Tree, move_no: u32, no_threat: bool, out: &mut String) {
    match &t.threats {
        Some(lines) if lines.is_empty() => out.push_str(" zugzwang.\n"),
        Some(lines) if !no_threat => {
            out.push_str(" threat:\n");
            let mut passed = pos.clone();
            passed.play_null();
            for l in lines {
                line_text(&passed, l, move_no + 1, no_threat, out);
            }
        }
        _ => out.push('\n'),
    }
    for d in &t.defences {
        let next = played(pos, d.mv);
        let _ = writeln!(
            out,
            "{}{}...{}{}",
            " ".repeat(defence_indent(move_no)),
            move_no,
            popeye_move(pos, d.mv),
            suffix(&next)
        );
        for l in &d.continuations {
            line_text(&next, l, move_no + 1, no_threat, out);
        }
    }
}

fn line_text(pos: &Position, l: &Line, move_no: u32, no_threat: bool, out: &mut String) {
    let after = played(pos, l.mv);
    let _ = write!(
        out,
        "{}{}.{}{}",
        " ".repeat(attacker_indent(move_no)),
        move_no,
        popeye_move(pos, l.mv),
        suffix(&after)
    );
    match &l.tree {
        Some(t) => tree_text(&after, t, move_no, no_threat, out),
        None => out.push('\n'),
    }
}

/// Help-mate lines as Popeye writes them: `1.Bmove Wmove   2.Bmove Wmove #`
/// (`h#N.5`: `1...Wmove   2.Bmove Wmove ...`).
fn help_text(root: &Position, sol: &Solution, out: &mut String) {
    for line in &sol.help_lines {
        let mut pos = root.clone();
        // Popeye: two spaces before the line, three between move pairs.
        let mut s = String::new();
        let mut number = 1;
        let mut first_of_pair = !sol.stipulation.half;
        if sol.stipulation.half {
            s.push_str("1...");
            number = 2;
        }
        for (i, &m) in line.iter().enumerate() {
            let text = popeye_move(&pos, m);
            pos.play(m);
            let gap = if i == 0 {
                ""
            } else if first_of_pair {
                "   "
            } else {
                " "
            };
            if first_of_pair {
                let _ = write!(s, "{gap}{number}.{text}{}", suffix(&pos));
                number += 1;
            } else {
                let _ = write!(s, "{gap}{text}{}", suffix(&pos));
            }
            first_of_pair = !first_of_pair;
        }
        let _ = writeln!(out, "  {s}");
    }
    if sol.help_lines.is_empty() && !sol.aborted {
        out.push_str("no solution\n");
    }
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn json_list(items: &[String]) -> String {
    format!("[{}]", items.join(","))
}

/// What a problem's JSON object says besides the solution.
pub struct JsonHeader<'a> {
    pub fen: &'a str,
    pub variant: &'a str,
    pub conditions: &'a str,
    pub seconds: f64,
}

/// One JSON object (one line): `keys`, `tries` (each with its
/// `refutation`), `cooked`, `threats` (of the first key), `solutions`
/// (help-mates: every line), `seconds`, `nodes`, `complete`.
pub fn json(root: &Position, sol: &Solution, h: &JsonHeader) -> String {
    let keys: Vec<String> = sol
        .keys()
        .iter()
        .map(|&k| json_str(&root.move_to_uci(k)))
        .collect();
    let tries: Vec<String> = sol
        .tries()
        .iter()
        .map(|&(t, r)| {
            let after = played(root, t);
            format!(
                "{{\"move\":{},\"refutation\":{}}}",
                json_str(&root.move_to_uci(t)),
                json_str(&after.move_to_uci(r))
            )
        })
        .collect();
    let threats: Vec<String> = sol
        .candidates
        .iter()
        .find(|c| c.key)
        .and_then(|c| {
            let mut passed = played(root, c.mv);
            passed.play_null();
            let t = c.tree.as_ref()?.threats.as_ref()?;
            Some(
                t.iter()
                    .map(|l| json_str(&passed.move_to_uci(l.mv)))
                    .collect::<Vec<_>>(),
            )
        })
        .unwrap_or_default();
    let solutions: Vec<String> = sol
        .help_lines
        .iter()
        .map(|l| {
            let mut p = root.clone();
            let mut words = Vec::new();
            for &m in l {
                words.push(p.move_to_uci(m));
                p.play(m);
            }
            json_str(&words.join(" "))
        })
        .collect();
    format!(
        "{{\"fen\":{},\"variant\":{},\"conditions\":{},\"stipulation\":{},\"keys\":{},\"tries\":{},\"cooked\":{},\"threats\":{},\"solutions\":{},\"seconds\":{:.6},\"nodes\":{},\"complete\":{}}}",
        json_str(h.fen),
        json_str(h.variant),
        json_str(h.conditions),
        json_str(&sol.stipulation.to_string()),
        json_list(&keys),
        json_list(&tries),
        sol.stipulation.aim != Aim::Help && keys.len() > 1,
        json_list(&threats),
        json_list(&solutions),
        h.seconds,
        sol.nodes,
        !sol.aborted
    )
}
