//! The USI front-end (the shogi GUIs' protocol), chosen by the first
//! command `usi`. fers has no shogi yet, so USI drives fers's own variants
//! (orthodox chess by default, others by `USI_Variant`).
//!
//! Mapping to fers (see also `notation.rs`):
//! - squares: file number counted from the right as the first player sees
//!   the board, rank letter from the far side (`7g`; chess's e2 is `4g`);
//! - players: USI's "black" (sente) moves first, so it is fers's White:
//!   `btime`/`binc` are White's clock, `wtime`/`winc` Black's, and an SFEN
//!   side `b` is FEN's `w`;
//! - `position sfen <board> <side> <hand> <ply>`: the board is FEN's board
//!   (fers's letters, upper case for the first player), the hand must be
//!   `-` (fers has no drops), the ply count gives the move number; SFEN has
//!   no castling or en-passant field, so castling rights are kept where the
//!   king and the rook still stand on their start squares, and there is no
//!   en-passant square;
//! - `go byoyomi B`: with no main time left the move gets `B` ms; with
//!   main time, `B` is added as a per-move increment;
//! - options: `Hash` and `Ponder` are USI's own `USI_Hash`/`USI_Ponder`,
//!   `UCI_` becomes `USI_`, and spaces become `_` (`Move_Overhead`);
//! - scores: `score cp N` or `score mate N` with N in plies (negative when
//!   mated); no legal move answers `bestmove resign`; errors are `info
//!   string error: ...` lines, as in UCI.

use crate::engine::{Engine, OptionEffect, StartPos};
use crate::events::{BookNote, Score, SearchEvent, SearchInfo};
use crate::notation::{usi_side, Notation};
use crate::options::{self, OptionDef, OptionKind};
use crate::protocol::{printable, Events, Flow, FrontEnd, Report};
use crate::timeman::Limits;
use crossbeam_channel::Receiver;
use fers_core::position::{KING_SIDE, QUEEN_SIDE};
use fers_core::{Color, Position, Variant};
use std::io::{self, Write};

const MAX_ERROR_CHARS: usize = 300;

/// An option's name in USI.
pub fn usi_name(name: &str) -> String {
    match name {
        "Hash" => "USI_Hash".into(),
        "Ponder" => "USI_Ponder".into(),
        _ => match name.strip_prefix("UCI_") {
            Some(rest) => format!("USI_{rest}"),
            None => name.replace(' ', "_"),
        },
    }
}

/// The fers option a USI name stands for (case-insensitive).
fn fers_option(usi: &str) -> Option<OptionDef> {
    options::definitions()
        .into_iter()
        .find(|d| usi_name(d.name).eq_ignore_ascii_case(usi))
}

/// The parameters of `go`, in USI's words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UsiGo {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

impl UsiGo {
    /// fers's limits: USI's black is fers's White.
    pub fn limits(&self, pos: &Position) -> Limits {
        let mut l = Limits {
            wtime: self.btime,
            btime: self.wtime,
            winc: self.binc,
            binc: self.winc,
            depth: self.depth.map(|d| d.clamp(1, 1000) as i32),
            nodes: self.nodes,
            movetime: self.movetime,
            infinite: self.infinite,
            ponder: self.ponder,
            ..Limits::default()
        };
        if let Some(b) = self.byoyomi.filter(|&b| b > 0) {
            let (main, inc) = match pos.side_to_move() {
                Color::White => (l.wtime, &mut l.winc),
                Color::Black => (l.btime, &mut l.binc),
            };
            if main.unwrap_or(0) == 0 {
                l.movetime = Some(l.movetime.map_or(b, |m| m.min(b)));
            } else {
                *inc = Some(inc.unwrap_or(0) + b);
            }
        }
        l
    }
}

/// A USI command, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiCommand {
    Usi,
    IsReady,
    NewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `position`: `sfen` is `None` for startpos.
    Position {
        sfen: Option<String>,
        moves: Vec<String>,
    },
    Go(UsiGo),
    Stop,
    PonderHit,
    GameOver,
    Quit,
    Empty,
}

/// Parses one line; errors are the text of an `info string error:` line.
pub fn parse(line: &str) -> Result<UsiCommand, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = words.split_first() else {
        return Ok(UsiCommand::Empty);
    };
    let no_args = |c: UsiCommand| {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(format!("{cmd} takes no arguments"))
        }
    };
    match cmd {
        "usi" => no_args(UsiCommand::Usi),
        "isready" => no_args(UsiCommand::IsReady),
        "usinewgame" => no_args(UsiCommand::NewGame),
        "stop" => no_args(UsiCommand::Stop),
        "ponderhit" => no_args(UsiCommand::PonderHit),
        "quit" => Ok(UsiCommand::Quit),
        "gameover" => match args {
            ["win" | "lose" | "draw"] => Ok(UsiCommand::GameOver),
            _ => Err("gameover takes win, lose or draw".into()),
        },
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args).map(UsiCommand::Go),
        _ => Err(format!("unknown command '{cmd}'")),
    }
}

fn parse_setoption(args: &[&str]) -> Result<UsiCommand, String> {
    let bad = || "malformed setoption: expected setoption name <id> [value <x>]".to_string();
    let ["name", rest @ ..] = args else {
        return Err(bad());
    };
    let split = rest.iter().position(|w| *w == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(bad());
    }
    Ok(UsiCommand::SetOption {
        name: name.join(" "),
        value: value.filter(|v| !v.is_empty()),
    })
}

fn parse_position(args: &[&str]) -> Result<UsiCommand, String> {
    let (sfen, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (None, rest),
        Some((&"sfen", rest)) => {
            let end = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("position sfen: the SFEN is missing".into());
            }
            (Some(rest[..end].join(" ")), &rest[end..])
        }
        Some((other, _)) => {
            return Err(format!(
                "position: expected startpos or sfen, not '{other}'"
            ))
        }
        None => return Err("position: expected startpos or sfen".into()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => return Err(format!("position: expected moves, not '{other}'")),
    };
    Ok(UsiCommand::Position { sfen, moves })
}

fn parse_go(args: &[&str]) -> Result<UsiGo, String> {
    let mut g = UsiGo::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let mut value = || -> Result<u64, String> {
            let t = args.get(i).copied();
            i += 1;
            let t = t.ok_or_else(|| format!("{key}: the number is missing"))?;
            // Clocks that ran out may be sent as negative numbers.
            match t.parse::<i64>() {
                Ok(n) => Ok(n.max(0) as u64),
                Err(_) => Err(format!("{key}: '{t}' is not a number in range")),
            }
        };
        match key {
            "btime" => g.btime = Some(value()?),
            "wtime" => g.wtime = Some(value()?),
            "binc" => g.binc = Some(value()?),
            "winc" => g.winc = Some(value()?),
            "byoyomi" => g.byoyomi = Some(value()?),
            "depth" => g.depth = Some(u32::try_from(value()?).map_err(|_| "depth: out of range")?),
            "nodes" => g.nodes = Some(value()?),
            "movetime" => g.movetime = Some(value()?),
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "mate" => return Err("go mate (tsume search) is not supported".into()),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(g)
}

/// An SFEN as a FEN of `v`, or why not (see the module comment).
pub fn sfen_to_fen(v: &'static Variant, sfen: &str) -> Result<String, String> {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let [board, side, hand, rest @ ..] = f.as_slice() else {
        return Err(format!("sfen '{sfen}' needs a board, a side and a hand"));
    };
    let side = match *side {
        "b" => "w",
        "w" => "b",
        s => return Err(format!("sfen side '{s}' is not b or w")),
    };
    if *hand != "-" {
        return Err(format!("sfen hand '{hand}': fers has no pieces in hand"));
    }
    let ply: u32 = match rest {
        [] => 1,
        [n] => n
            .parse()
            .map_err(|_| format!("sfen move count '{n}' is not a number"))?,
        _ => return Err(format!("sfen '{sfen}' has too many fields")),
    };
    let fullmove = ply.clamp(1, 60_000).div_ceil(2);
    let start = Position::startpos(v);
    let start_rights = start
        .to_full_fen()
        .split(' ')
        .nth(2)
        .unwrap_or("-")
        .to_string();
    let guess = format!("{board} {side} {start_rights} - 0 {fullmove}");
    let pos = Position::from_fen(v, &guess).map_err(|e| e.to_string())?;
    let mut rights = String::new();
    for (c, wing, letter) in [
        (Color::White, KING_SIDE, 'K'),
        (Color::White, QUEEN_SIDE, 'Q'),
        (Color::Black, KING_SIDE, 'k'),
        (Color::Black, QUEEN_SIDE, 'q'),
    ] {
        let unmoved = pos.royal_square(c) == start.royal_square(c)
            && pos.castle_rook(c, wing).is_some()
            && pos.castle_rook(c, wing) == start.castle_rook(c, wing);
        if unmoved {
            rights.push(letter);
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    Ok(format!("{board} {side} {rights} - 0 {fullmove}"))
}

/// The USI front-end.
pub struct Usi<W: Write> {
    engine: Engine,
    out: W,
    events: Events,
}

impl<W: Write> Usi<W> {
    pub fn new(out: W) -> Self {
        Usi::with_engine(out, Engine::new())
    }

    /// A front-end over an engine prepared beforehand (`fers load FILE`).
    pub fn with_engine(out: W, engine: Engine) -> Self {
        Usi {
            engine,
            out,
            events: Events::default(),
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The output written so far (for in-process tests over a `Vec<u8>`).
    pub fn output(&self) -> &W {
        &self.out
    }

    pub fn output_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Handles one line; see [`FrontEnd::handle_line`].
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        self.drain()?;
        match parse(line) {
            Ok(cmd) => self.execute(cmd),
            Err(why) => {
                self.error(&why)?;
                Ok(Flow::Continue)
            }
        }
    }

    fn execute(&mut self, cmd: UsiCommand) -> io::Result<Flow> {
        match cmd {
            UsiCommand::Usi => self.usi()?,
            UsiCommand::IsReady => writeln!(self.out, "readyok")?,
            UsiCommand::NewGame => {
                self.engine.new_game();
                self.engine.clear_hash();
            }
            UsiCommand::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            UsiCommand::Position { sfen, moves } => self.position(sfen.as_deref(), &moves)?,
            UsiCommand::Go(g) => {
                let limits = g.limits(self.engine.position());
                let reporter = self.events.reporter(self.engine.position());
                self.engine.go(limits, reporter);
                self.drain()?;
            }
            UsiCommand::Stop => self.wait_for_search(true)?,
            UsiCommand::PonderHit => self.engine.ponderhit(),
            // The game has ended: stop thinking, nothing else to keep.
            UsiCommand::GameOver => self.wait_for_search(true)?,
            UsiCommand::Quit => {
                self.finish()?;
                return Ok(Flow::Quit);
            }
            UsiCommand::Empty => {}
        }
        Ok(Flow::Continue)
    }

    fn usi(&mut self) -> io::Result<()> {
        writeln!(
            self.out,
            "id name {} {}",
            crate::uci::ENGINE_NAME,
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(self.out, "id author {}", crate::uci::ENGINE_AUTHOR)?;
        for def in options::definitions_with(&self.engine.variant_names()) {
            writeln!(self.out, "{}", option_line(&def))?;
        }
        writeln!(self.out, "usiok")
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        let Some(def) = fers_option(name) else {
            return self.error(&format!("unknown option '{name}'"));
        };
        match self.engine.set_option(def.name, value) {
            Ok(OptionEffect::Variant(v)) => {
                let g = v.geometry;
                writeln!(
                    self.out,
                    "info string variant {} files {} ranks {} startpos {}",
                    v.name, g.files, g.ranks, v.start_fen
                )
            }
            Ok(OptionEffect::VariantsLoaded(report)) => {
                for r in report {
                    match r {
                        Ok(n) => writeln!(self.out, "info string loaded variant {n}")?,
                        Err(e) => self.error(&e)?,
                    }
                }
                Ok(())
            }
            Ok(OptionEffect::None) => Ok(()),
            Ok(OptionEffect::Note(note)) => writeln!(self.out, "info string {note}"),
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn position(&mut self, sfen: Option<&str>, moves: &[String]) -> io::Result<()> {
        let fen = match sfen.map(|s| sfen_to_fen(self.engine.variant(), s)) {
            Some(Ok(f)) => Some(f),
            Some(Err(why)) => return self.error(&why),
            None => None,
        };
        let start = match &fen {
            Some(f) => StartPos::Fen(f),
            None => StartPos::Start,
        };
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        if let Err(e) = self.engine.set_position_in(start, &moves, Notation::Usi) {
            self.error(&e.to_string())?;
        }
        Ok(())
    }

    /// Stops (if `stop`) and waits for the running search, writing its
    /// `bestmove`.
    fn wait_for_search(&mut self, stop: bool) -> io::Result<()> {
        if stop {
            self.engine.stop();
        }
        self.engine.wait();
        self.drain()
    }

    fn drain(&mut self) -> io::Result<()> {
        while let Some(r) = self.events.try_next() {
            writeln!(self.out, "{}", format_event(&r.root, &r.event))?;
        }
        Ok(())
    }

    fn error(&mut self, why: &str) -> io::Result<()> {
        let text = printable(&format!("error: {why}"), MAX_ERROR_CHARS);
        writeln!(self.out, "info string {text}")
    }

    pub fn finish(&mut self) -> io::Result<()> {
        self.wait_for_search(true)?;
        self.out.flush()
    }
}

/// An `option` line in USI's words (`<empty>` for an empty string, as
/// shogi GUIs expect).
fn option_line(def: &OptionDef) -> String {
    let name = usi_name(def.name);
    match &def.kind {
        OptionKind::Check { default } => {
            format!("option name {name} type check default {default}")
        }
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, vars } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::String { default } => {
            let d = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {name} type string default {d}")
        }
        OptionKind::Button => format!("option name {name} type button"),
    }
}

/// A search event as a USI line; moves in USI squares.
pub fn format_event(root: &Position, event: &SearchEvent) -> String {
    match event {
        SearchEvent::Info(i) => format_info(root, i),
        SearchEvent::NoLegalMove { score } => format!("info depth 0 score {}", score_words(*score)),
        SearchEvent::Note(text) => format!("info string {}", printable(text, MAX_ERROR_CHARS)),
        SearchEvent::Book(BookNote::Move(m)) => {
            format!("info string book move {}", Notation::Usi.format(root, *m))
        }
        SearchEvent::Book(BookNote::Error(why)) => format!(
            "info string {}",
            printable(&format!("error: {why}"), MAX_ERROR_CHARS)
        ),
        SearchEvent::BestMove { best: None, .. } => "bestmove resign".into(),
        SearchEvent::BestMove {
            best: Some(b),
            ponder,
        } => {
            let mut line = format!("bestmove {}", Notation::Usi.format(root, *b));
            if let Some(p) = ponder {
                let mut next = root.clone();
                next.play(*b);
                line += &format!(" ponder {}", Notation::Usi.format(&next, *p));
            }
            line
        }
    }
}

fn format_info(root: &Position, i: &SearchInfo) -> String {
    crate::uci::format_info_with(root, i, Notation::Usi, score_words)
}

/// `cp N`, or `mate N` with N in plies as USI counts (negative: mated).
fn score_words(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(plies) => format!("mate {plies}"),
    }
}

/// The side letter of an SFEN for the side to move of `pos`.
pub fn sfen_side(pos: &Position) -> char {
    usi_side(pos.side_to_move())
}

impl<W: Write> FrontEnd for Usi<W> {
    fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        Usi::handle_line(self, line)
    }

    fn on_report(&mut self, report: Report) -> io::Result<()> {
        writeln!(self.out, "{}", format_event(&report.root, &report.event))
    }

    fn reports(&self) -> Receiver<Report> {
        self.events.receiver()
    }

    fn finish(&mut self) -> io::Result<()> {
        Usi::finish(self)
    }

    fn internal_error(&mut self) -> io::Result<()> {
        self.error("internal error (a bug): command ignored")
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    fn session(lines: &[&str]) -> String {
        let mut u = Usi::new(Vec::new());
        for l in lines {
            u.handle_line(l).expect("Vec output");
            // Searches here have limits: let each end by itself.
            u.wait_for_search(false).expect("Vec output");
        }
        u.finish().expect("Vec output");
        String::from_utf8(u.output().clone()).expect("UTF-8")
    }

    #[test]
    fn usi_handshake_with_usi_names() {
        let out = session(&["usi"]);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("id name fers"), "{out}");
        assert!(
            out.contains(
                "option name USI_Variant type combo default chess var chess var wormhole var baroque var fanorona var andernach"
            ),
            "{out}"
        );
        for opt in [
            "option name USI_Hash type spin default 16 min 1 max 33554432",
            "option name USI_Ponder type check default false",
            "option name Move_Overhead type spin default 30 min 0 max 5000",
            "option name Clear_Hash type button",
            "option name VariantPath type string default <empty>",
        ] {
            assert!(lines.contains(&opt), "{opt}\n{out}");
        }
        assert_eq!(lines.last(), Some(&"usiok"));
        assert_eq!(session(&["isready"]), "readyok\n");
    }

    #[test]
    fn positions_in_usi_squares_and_sfen() {
        let mut u = Usi::new(Vec::new());
        u.handle_line("position startpos moves 4g4e 4b4d 2h3f")
            .expect("Vec output");
        assert_eq!(
            u.engine().position().to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        u.handle_line("position sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - 2 moves 4b4d")
            .expect("Vec output");
        assert_eq!(
            u.engine().position().to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2"
        );
        assert!(String::from_utf8(u.output().clone()).unwrap().is_empty());
        // Rights only where king and rook have not left their squares.
        let fen = sfen_to_fen(variant::chess(), "r3k3/8/8/8/8/8/8/4K2R b - 1").unwrap();
        assert_eq!(fen, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    }

    #[test]
    fn bad_input_is_refused_and_the_state_kept() {
        let mut u = Usi::new(Vec::new());
        u.handle_line("position startpos moves 4g4e")
            .expect("Vec output");
        let before = u.engine().position().to_fen();
        for bad in [
            "position startpos moves 4c4e 4c4e",
            "position startpos moves e2e4",
            "position sfen 8/8 b - 1",
            "position sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b P 1",
            "position sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - 1",
            "position",
            "go btime x",
            "go mate 1000",
            "setoption name NoSuch value 1",
            "setoption name USI_Hash value 0",
            "gameover maybe",
            "usi now",
            "uci",
        ] {
            let mut out = Vec::new();
            std::mem::swap(u.output_mut(), &mut out);
            u.handle_line(bad).expect("Vec output");
            let text = String::from_utf8(u.output().clone()).unwrap();
            assert!(text.starts_with("info string error: "), "{bad}: {text}");
            assert_eq!(text.lines().count(), 1, "{bad}: {text}");
            assert_eq!(u.engine().position().to_fen(), before, "{bad}");
        }
    }

    #[test]
    fn go_answers_bestmove_in_usi_squares() {
        let out = session(&["usinewgame", "position startpos moves 4g4e", "go depth 3"]);
        let best = out.lines().last().expect("a line");
        let m = best.strip_prefix("bestmove ").expect("bestmove");
        let m = m.split_whitespace().next().unwrap();
        let mut pos = Position::startpos(variant::chess());
        pos.play(pos.parse_move("e2e4").unwrap());
        assert!(Notation::Usi.parse(&pos, m).is_ok(), "{out}");
        assert!(out.lines().any(|l| l.starts_with("info depth 3 ")), "{out}");
        // Mated side: resign. A mate in one: mate 1 (plies).
        let out = session(&[
            "position sfen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b - 5",
            "go depth 2",
        ]);
        assert!(out.ends_with("bestmove resign\n"), "{out}");
        let out = session(&["position sfen 7k/5Q2/6K1/8/8/8/8/8 b - 1", "go depth 3"]);
        assert!(out.contains(" score mate 1 "), "{out}");
        let out = session(&["position sfen 7k/5Q2/6K1/8/8/8/8/8 b - 1", "go depth 4"]);
        assert!(out.contains(" score mate 1 "), "mate in one ply: {out}");
        assert_eq!(score_words(Score::Mate(-2)), "mate -2");
    }

    #[test]
    fn usi_clocks_map_to_fers_colours() {
        let pos = Position::startpos(variant::chess());
        let g = parse_go(&["btime", "1000", "wtime", "2000", "binc", "10", "winc", "20"]).unwrap();
        let l = g.limits(&pos);
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        let g = parse_go(&["btime", "0", "wtime", "0", "byoyomi", "3000"]).unwrap();
        assert_eq!(g.limits(&pos).movetime, Some(3000));
        let g = parse_go(&["btime", "60000", "wtime", "0", "byoyomi", "3000"]).unwrap();
        assert_eq!(g.limits(&pos).winc, Some(3000));
        assert_eq!(usi_name("Move Overhead"), "Move_Overhead");
        assert_eq!(usi_name("UCI_Variant"), "USI_Variant");
        assert_eq!(fers_option("usi_hash").map(|d| d.name), Some("Hash"));
        assert_eq!(sfen_side(&pos), 'b');
    }
}
