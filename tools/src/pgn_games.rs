//! Reading whole PGN games (tags, main line, result) for building books:
//! the games `fers-match` writes (`Variant`, `FEN` and `SetUp` tags, SAN
//! of any board size) and ordinary chess PGN. Comments, variations and
//! NAGs are skipped; moves are SAN or SPEC coordinate notation.

use crate::openings::{find_san, strip_movetext};
use fers_book::build::GameResult;
use fers_core::variant::Variant;
use fers_core::{Move, MoveList, Position};

/// One game's text: its tags and movetext, and the line it starts on.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    pub line: usize,
    pub tags: Vec<(String, String)>,
    pub movetext: String,
}

/// A game replayed by fers-core.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The variant the `Variant` tag names, lower case; `chess` for none
    /// or `Standard`.
    pub fn variant_name(&self) -> String {
        match self.tag("Variant") {
            None => "chess".into(),
            Some(v) if v.eq_ignore_ascii_case("standard") || v.is_empty() => "chess".into(),
            Some(v) => v.to_ascii_lowercase(),
        }
    }

    /// Replays the main line in `variant` (at most `max_plies` moves are
    /// read; the result comes from the `Result` tag or the movetext's last
    /// token). Errors name the game's line and the move.
    pub fn replay(&self, variant: &'static Variant, max_plies: usize) -> Result<Replayed, String> {
        self.replay_moves(variant, max_plies)
            .map_err(|why| format!("game at line {}: {why}", self.line))
    }

    /// [`PgnGame::replay`], the error without the game's line.
    pub fn replay_moves(
        &self,
        variant: &'static Variant,
        max_plies: usize,
    ) -> Result<Replayed, String> {
        let start = match self.tag("FEN") {
            Some(f) => Position::from_fen(variant, f).map_err(|e| format!("FEN tag: {e}"))?,
            None => Position::startpos(variant),
        };
        let mut result = self.tag("Result").and_then(GameResult::from_pgn);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for tok in strip_movetext(&self.movetext).split_whitespace() {
            if let Some(r) = GameResult::from_pgn(tok) {
                result = result.or(Some(r));
                continue;
            }
            if tok == "e.p." || tok.starts_with('$') || moves.len() >= max_plies {
                continue;
            }
            let tok = match tok.rfind('.') {
                Some(i) if tok[..=i].chars().all(|c| c.is_ascii_digit() || c == '.') => {
                    &tok[i + 1..]
                }
                _ => tok,
            };
            if tok.is_empty() {
                continue;
            }
            let m = quick_san(&pos, tok)
                .ok_or_else(|| format!("'{tok}' is not a legal move in {}", pos.to_fen()))?;
            pos.play(m);
            moves.push(m);
        }
        Ok(Replayed {
            start,
            moves,
            result: result.unwrap_or(GameResult::Unknown),
        })
    }
}

/// [`find_san`], first trying the legal moves whose target square the
/// token names (one SAN per candidate instead of one per legal move).
fn quick_san(pos: &Position, token: &str) -> Option<Move> {
    if let Ok(m) = pos.parse_move(token) {
        return Some(m);
    }
    let geo = pos.variant().geometry;
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let target: Vec<Move> = list
        .iter()
        .filter(|&m| token.contains(geo.square_name(m.to()).as_str()))
        .collect();
    if target.len() == 1 && !token.starts_with(['O', '0']) {
        let san = crate::san::to_san(pos, target[0]);
        let clean = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).replace('=', "");
        if clean(&san) == clean(token) {
            return Some(target[0]);
        }
    }
    find_san(pos, token)
}

/// Splits a PGN text into games.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut games: Vec<PgnGame> = Vec::new();
    let mut in_moves = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('%') {
            continue;
        }
        if line.starts_with('[') && line.ends_with(']') {
            if in_moves || games.is_empty() {
                games.push(PgnGame {
                    line: i + 1,
                    ..PgnGame::default()
                });
                in_moves = false;
            }
            let inner = &line[1..line.len() - 1];
            if let Some((k, v)) = inner.split_once(' ') {
                let v = v.trim();
                let v = v.strip_prefix('"').unwrap_or(v);
                let v = v.strip_suffix('"').unwrap_or(v);
                let v = v.replace("\\\"", "\"").replace("\\\\", "\\");
                if let Some(g) = games.last_mut() {
                    g.tags.push((k.to_string(), v));
                }
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if games.is_empty() {
            games.push(PgnGame {
                line: i + 1,
                ..PgnGame::default()
            });
        }
        in_moves = true;
        if let Some(g) = games.last_mut() {
            g.movetext.push_str(raw);
            g.movetext.push('\n');
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    #[test]
    fn games_tags_and_results() {
        let text = r#"[Event "x"]
[Variant "Standard"]
[Result "1-0"]

1. e4 {+0.30/5 0.1s} e5 2. Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 a6 4. O-O 1-0

[Variant "capablanca"]
[FEN "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"]

1. e4 e5 *
"#;
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].variant_name(), "chess");
        assert_eq!(games[1].variant_name(), "capablanca");
        let r = games[0].replay(variant::chess(), 100).unwrap();
        assert_eq!(r.result, GameResult::WhiteWins);
        let uci: Vec<String> = {
            let mut p = r.start.clone();
            r.moves
                .iter()
                .map(|&m| {
                    let s = p.move_to_uci(m);
                    p.play(m);
                    s
                })
                .collect()
        };
        assert_eq!(
            uci,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]
        );
        assert_eq!(games[0].replay(variant::chess(), 3).unwrap().moves.len(), 3);
        let bad = read_games("1. e4 e4 1-0\n");
        let e = bad[0].replay(variant::chess(), 100).unwrap_err();
        assert!(e.contains("'e4' is not a legal move"), "{e}");
    }
}
