//! PGN output: the seven-tag roster, `Variant`, `FEN`, `SetUp`,
//! `TimeControl`, `Termination`, `PlyCount`; SAN moves with cutechess-style
//! comments (`{+0.35/12 0.52s}`) and the result reason before the result.

use crate::engine::Score;
use crate::referee::{GameRecord, GameResult};
use crate::san::to_san;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Mate(n) if n > 0 => format!("+M{}", n),
        Score::Mate(n) => format!("-M{}", -n),
    }
}

/// PGN header values shared by every game of a tournament.
#[derive(Clone, Debug)]
pub struct PgnHeader {
    pub event: String,
    pub site: String,
    pub date: String,
    pub time_control: String,
}

/// The PGN text of one game, ending with a blank line.
pub fn write_game(h: &PgnHeader, g: &GameRecord) -> String {
    let mut out = String::new();
    let result = g.result.pgn();
    let variant = g.start.variant();
    let variant_tag = if variant.name.eq_ignore_ascii_case("chess") {
        "Standard".to_string()
    } else {
        variant.name.clone()
    };
    let tags: [(&str, String); 13] = [
        ("Event", h.event.clone()),
        ("Site", h.site.clone()),
        ("Date", h.date.clone()),
        ("Round", g.round.to_string()),
        ("White", g.white.clone()),
        ("Black", g.black.clone()),
        ("Result", result.to_string()),
        ("Variant", variant_tag),
        ("FEN", g.start.to_fen()),
        ("SetUp", "1".to_string()),
        ("TimeControl", h.time_control.clone()),
        ("Termination", g.termination.tag().to_string()),
        ("PlyCount", g.moves.len().to_string()),
    ];
    for (k, v) in tags {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(&v));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut pos = g.start.clone();
    let mut number = pos.fullmove_number() as u32;
    for (i, (m, note)) in g.moves.iter().zip(&g.notes).enumerate() {
        let white = pos.side_to_move() == fers_core::Color::White;
        if white {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(to_san(&pos, *m));
        let mut comment = String::new();
        if let Some(s) = note.eval.score {
            comment.push_str(&score_text(s));
            if let Some(d) = note.eval.depth {
                let _ = write!(comment, "/{d}");
            }
            comment.push(' ');
        }
        let _ = write!(comment, "{:.3}s", note.elapsed.as_secs_f64());
        tokens.push(format!("{{{comment}}}"));
        pos.play(*m);
        if !white {
            number += 1;
        }
    }
    if g.result != GameResult::Aborted {
        tokens.push(format!("{{{}}}", g.reason.replace('}', ")")));
    }
    tokens.push(result.to_string());

    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-03-01 is day 11017; 2026-11-30 is day 20787.
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn scores() {
        assert_eq!(score_text(Score::Cp(35)), "+0.35");
        assert_eq!(score_text(Score::Cp(-120)), "-1.20");
        assert_eq!(score_text(Score::Mate(3)), "+M3");
        assert_eq!(score_text(Score::Mate(-2)), "-M2");
        assert_eq!(escape("a\"b\\"), "a\\\"b\\\\");
    }
}
