//! fers-baseline: a weak reference opponent for strength measurements. A
//! UCI engine for every fers variant that searches a fixed number of plies
//! (2 by default, option `Depth`) with plain alpha-beta and counts material
//! only: a kind is worth 50 per move it has from the centre of an empty
//! board, a pawn 100, so the baseline knows no more than its variant's
//! data. No quiescence, no transposition table; ties broken at random
//! (`Seed`) so that games differ. A side with no move scores by the
//! variant's rules (mate, or the stalemate rule).
//!
//! Option `Mode`: `search` (the above, default), `random` (a uniformly
//! random legal move) or `maximal` (a random legal move that no other legal
//! move extends: a Fanorona capture chain followed to its end, which is
//! what the vchess site's computer plays; elsewhere the same as `random`).
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name UCI_Variant |
//! Depth | Seed | Mode value V`, `position startpos|fen F [moves ...]`,
//! `go ...` (every limit ignored), `quit`.

use fers_core::variant::{self, StalemateRule};
use fers_core::{Move, MoveList, Position, Variant};
use std::io::{self, BufRead, Write};

const MATE: i32 = 1_000_000;

/// How the baseline chooses its move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Search,
    Random,
    Maximal,
}

struct Baseline {
    mode: Mode,
    v: &'static Variant,
    pos: Position,
    depth: u32,
    rng: u64,
    values: Vec<i32>,
}

/// Material values: 50 per move of the kind from a central square of an
/// empty board, pawns 100, royal kinds 0.
fn values(v: &'static Variant) -> Vec<i32> {
    let g = v.geometry;
    let centre = g.square(g.files / 2, g.ranks / 2);
    (0..v.pieces.len() as u8)
        .map(|k| {
            if Some(k) == v.royal_kind {
                return 0;
            }
            if Some(k) == v.pawn_kind {
                return 100;
            }
            let mut n = 0;
            for c in &v.components[k as usize] {
                let board = [fers_core::Piece::EMPTY; fers_core::geometry::MAX_SQUARES];
                let mut count = |_: u8, _: u8| {
                    n += 1;
                    false
                };
                fers_core::movegen::targets(
                    v,
                    &board,
                    centre,
                    fers_core::Color::White,
                    c,
                    &mut count,
                );
            }
            100 * n.max(1) / 2
        })
        .collect()
}

impl Baseline {
    fn new() -> Baseline {
        let v = variant::chess();
        Baseline {
            mode: Mode::Search,
            v,
            pos: Position::startpos(v),
            depth: 2,
            rng: 0x2545_f491_4f6c_dd1d,
            values: values(v),
        }
    }

    fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let v = variant::builtin(name).ok_or_else(|| format!("unknown variant '{name}'"))?;
        self.v = v;
        self.values = values(v);
        self.pos = Position::startpos(v);
        Ok(())
    }

    fn random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Material from the side to move's view.
    fn material(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let mut score = 0;
        for c in [fers_core::Color::White, fers_core::Color::Black] {
            let sign = if c == us { 1 } else { -1 };
            for sq in pos.occupied(c).iter() {
                score += sign * self.values[pos.piece_at(sq).kind() as usize];
            }
        }
        score
    }

    /// The score of a side with no legal move, at `ply`.
    fn no_move(&self, pos: &Position, ply: i32) -> i32 {
        if pos.in_check() {
            return -MATE + ply;
        }
        match self.v.stalemate {
            StalemateRule::Draw => 0,
            StalemateRule::Loss => -MATE + ply,
            StalemateRule::Win => MATE - ply,
        }
    }

    fn alphabeta(&self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return self.no_move(pos, ply);
        }
        if depth == 0 {
            return self.material(pos);
        }
        for m in list.iter() {
            let mut next = pos.clone();
            next.play(m);
            let s = -self.alphabeta(&next, depth - 1, -beta, -alpha, ply + 1);
            if s > alpha {
                alpha = s;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    /// A random legal move; with `maximal`, only among the moves that no
    /// other legal move extends (a chain's prefixes are left out).
    fn random_move(&mut self, maximal: bool) -> Option<Move> {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        let texts: Vec<String> = list.iter().map(|m| self.pos.move_to_uci(m)).collect();
        let pool: Vec<Move> = list
            .iter()
            .zip(&texts)
            .filter(|(_, t)| {
                let longer = format!("{t},");
                !maximal || !texts.iter().any(|o| o.starts_with(&longer))
            })
            .map(|(m, _)| m)
            .collect();
        if pool.is_empty() {
            return None;
        }
        let i = (self.random() % pool.len() as u64) as usize;
        Some(pool[i])
    }

    /// The move of the chosen mode; `None` without moves.
    fn choose(&mut self) -> Option<Move> {
        match self.mode {
            Mode::Search => self.best(),
            Mode::Random => self.random_move(false),
            Mode::Maximal => self.random_move(true),
        }
    }

    /// The best root move, ties broken at random; `None` without moves.
    fn best(&mut self) -> Option<Move> {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        let mut best: Vec<Move> = Vec::new();
        let mut best_score = -MATE - 1;
        for m in list.iter() {
            let mut next = self.pos.clone();
            next.play(m);
            let depth = self.depth.saturating_sub(1);
            // A window one wider than the best keeps equal moves exact.
            let s = -self.alphabeta(&next, depth, -MATE - 1, -(best_score - 1), 1);
            if s > best_score {
                best_score = s;
                best.clear();
            }
            if s == best_score {
                best.push(m);
            }
        }
        if best.is_empty() {
            return None;
        }
        let i = (self.random() % best.len() as u64) as usize;
        Some(best[i])
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let (mut pos, rest) = match args.first() {
            Some(&"startpos") => (Position::startpos(self.v), &args[1..]),
            Some(&"fen") => {
                let end = args
                    .iter()
                    .position(|&a| a == "moves")
                    .unwrap_or(args.len());
                let fen = args[1..end].join(" ");
                let p = Position::from_fen(self.v, &fen).map_err(|e| e.to_string())?;
                (p, &args[end..])
            }
            _ => return Err("position startpos|fen ...".into()),
        };
        for m in rest.iter().skip_while(|&&a| a == "moves") {
            let mv = pos.parse_move(m).map_err(|e| format!("{m}: {e:?}"))?;
            pos.play(mv);
        }
        self.pos = pos;
        Ok(())
    }

    fn command(&mut self, line: &str, out: &mut impl Write) -> io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                writeln!(out, "id name fers-baseline")?;
                writeln!(out, "id author fers")?;
                let names = variant::builtin_names().join(" var ");
                writeln!(
                    out,
                    "option name UCI_Variant type combo default chess var {names}"
                )?;
                writeln!(out, "option name Depth type spin default 2 min 1 max 6")?;
                writeln!(
                    out,
                    "option name Seed type spin default 0 min 0 max 1000000"
                )?;
                writeln!(
                    out,
                    "option name Mode type combo default search var search var random var maximal"
                )?;
                writeln!(out, "uciok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("setoption") => self.set_option(&words, out)?,
            Some("position") => {
                if let Err(e) = self.position(&words[1..]) {
                    writeln!(out, "info string error: {e}")?;
                }
            }
            Some("go") => match self.choose() {
                Some(m) => writeln!(out, "bestmove {}", self.pos.move_to_uci(m))?,
                None => writeln!(out, "bestmove 0000")?,
            },
            Some("quit") => return Ok(false),
            _ => {}
        }
        out.flush()?;
        Ok(true)
    }

    fn set_option(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let at = |w: &str| words.iter().position(|&x| x.eq_ignore_ascii_case(w));
        let (Some(n), Some(v)) = (at("name"), at("value")) else {
            return Ok(());
        };
        let name = words[n + 1..v].join(" ");
        let value = words[v + 1..].join(" ");
        let result = match name.to_ascii_lowercase().as_str() {
            "uci_variant" => self.set_variant(&value),
            "depth" => value
                .parse()
                .map(|d: u32| self.depth = d.clamp(1, 6))
                .map_err(|_| format!("bad depth '{value}'")),
            "seed" => value
                .parse()
                .map(|s: u64| self.rng = 0x2545_f491_4f6c_dd1d ^ s.wrapping_mul(0x9e37_79b9))
                .map_err(|_| format!("bad seed '{value}'")),
            "mode" => match value.to_ascii_lowercase().as_str() {
                "search" => Ok(Mode::Search),
                "random" => Ok(Mode::Random),
                "maximal" => Ok(Mode::Maximal),
                _ => Err(format!("bad mode '{value}' (search, random, maximal)")),
            }
            .map(|m| self.mode = m),
            _ => Ok(()),
        };
        if let Err(e) = result {
            writeln!(out, "info string error: {e}")?;
        }
        Ok(())
    }
}

fn main() -> io::Result<()> {
    let mut b = Baseline::new();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        if !b.command(&line?, &mut out)? {
            break;
        }
    }
    Ok(())
}
