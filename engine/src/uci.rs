//! The UCI front-end: reads commands line by line, turns them into calls on
//! the protocol-independent [`Engine`], and formats the answers.
//!
//! Parsing is split by who can do it safely:
//! - `vampirc-uci` parses the commands whose grammar fits it: `uci`,
//!   `debug`, `isready`, `setoption`, `register`, `ucinewgame`, `stop`,
//!   `ponderhit`, `quit`. It also formats our `id`, `option`, `uciok`,
//!   `readyok` and `info string` lines.
//! - Our own parser handles `position` and `go`, and the extensions `d` and
//!   `go perft`. vampirc-uci 0.11 knows only 8x8 squares (`a10b10` or a
//!   10-rank FEN are "unknown messages"), and on `go` it gets in the way:
//!   `go depth 300` (and `mate`/`movestogo` above 255) panics inside it, it
//!   silently truncates `depth 1234` to 123 and `nodes` to 12 digits, and its
//!   time-control enum drops `ponder` or `movetime` when `wtime`/`btime`
//!   follow, while GUIs send `go ponder wtime ...` every pondering move.
//!
//! vampirc's parser also accepts a prefix of the line (`isreadyfoo` reads as
//! `isready`) and is case-insensitive; we only hand it lines whose first
//! token is exactly one of its commands, with whitespace normalised, so the
//! command words behave the same whichever parser reads the rest.

use crate::engine::{Engine, OptionEffect, StartPos};
use crate::evaluate::{evaluate, evaluate_network};
use crate::events::{line_text, BookNote, Bound, Score, SearchEvent, SearchInfo};
use crate::notation::Notation;
use crate::options::{self, OptionKind};
pub use crate::protocol::Flow;
use crate::protocol::{printable, Events, FrontEnd, Report};
use crate::timeman::Limits;
use crossbeam_channel::{unbounded, Receiver};
use fers_core::{Move, Position};
use std::fmt::Display;
use std::io::{self, BufRead, Write};
use std::panic;
use vampirc_uci::{Serializable, UciInfoAttribute, UciMessage, UciOptionConfig};

/// Name sent in `id name`.
pub const ENGINE_NAME: &str = "fers";
/// Author sent in `id author`.
pub const ENGINE_AUTHOR: &str = "the fers developers";

/// Longest `info string error:` text; longer ones are cut, so that a huge
/// bad line does not come back whole.
const MAX_ERROR_CHARS: usize = 300;

/// The parameters of a `go` command, parsed and checked.
///
/// Times are in milliseconds. `wtime`/`btime` may be negative: GUIs send
/// that when a clock has run out, and the search should then move at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Root moves to restrict the search to (legal in the current position;
    /// empty means all).
    pub searchmoves: Vec<Move>,
}

/// A command line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `register ...`: accepted, fers needs no registration.
    Register,
    /// `position startpos|fen <FEN> [moves ...]`; `fen` is `None` for startpos.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    /// `go perft <depth>`.
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: print the board, FEN and key.
    Display,
    /// `eval`: the static evaluations of the current position.
    Eval,
    /// `check <file>`: validate a variant file and list what it defines.
    Check(String),
    /// `bench [depth [fenfile]]`: the fixed benchmark (SPEC 6), or the
    /// positions of a FEN file of the selected variant.
    Bench {
        depth: Option<u32>,
        file: Option<String>,
    },
    /// A blank line.
    Empty,
}

/// Commands whose grammar vampirc-uci parses for us.
const VAMPIRC_COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "stop",
    "ponderhit",
    "quit",
];

/// Parses one line. `pos` is the current position, needed to read the moves
/// of `go searchmoves` (a square like `a10` only exists on some boards).
/// Errors are the text of an `info string error:` line.
pub fn parse_command(line: &str, pos: &Position) -> Result<Command, String> {
    parse_command_in(line, pos, Notation::Fers)
}

/// [`parse_command`] with `searchmoves` in `notation` (Chess960 castling).
pub fn parse_command_in(line: &str, pos: &Position, notation: Notation) -> Result<Command, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, args)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    match first {
        "position" => parse_position(args),
        "go" => parse_go(args, pos, notation),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "check" => {
            // The rest of the line is the path (it may contain spaces).
            let path = line.trim_start()["check".len()..].trim();
            if path.is_empty() {
                return Err("check needs a variant file: check <file>".into());
            }
            Ok(Command::Check(path.to_string()))
        }
        "bench" => parse_bench(line, args),
        _ if VAMPIRC_COMMANDS.contains(&first) => parse_with_vampirc(first, &tokens.join(" ")),
        _ => Err(format!("unknown command '{first}'")),
    }
}

/// `bench [depth [fenfile]]`: the file is the rest of the line after the
/// depth (a path may contain spaces).
fn parse_bench(line: &str, args: &[&str]) -> Result<Command, String> {
    let Some(d) = args.first() else {
        return Ok(Command::Bench {
            depth: None,
            file: None,
        });
    };
    let depth = match d.parse::<u32>() {
        Ok(n) if (1..=64).contains(&n) => n,
        _ => return Err(format!("bench: depth '{d}' is not a number from 1 to 64")),
    };
    let file = (args.len() > 1).then(|| {
        let rest = line.trim_start()["bench".len()..].trim_start();
        rest[d.len()..].trim().to_string()
    });
    Ok(Command::Bench {
        depth: Some(depth),
        file,
    })
}

/// Runs vampirc-uci on a normalised line whose first token is one of
/// [`VAMPIRC_COMMANDS`]. vampirc 0.11 has `unwrap`s in its parser (none
/// reachable for these commands, as far as its source shows); a panic
/// would still be its bug, not bad input, so it is contained here and
/// reported as an error instead of taking the engine down.
fn parse_with_vampirc(first: &str, line: &str) -> Result<Command, String> {
    let msg = panic::catch_unwind(|| vampirc_uci::parse_one(line))
        .map_err(|_| format!("internal error parsing '{first}'"))?;
    Ok(match msg {
        UciMessage::Uci => Command::Uci,
        UciMessage::Debug(on) => Command::Debug(on),
        UciMessage::IsReady => Command::IsReady,
        UciMessage::SetOption { name, value } => Command::SetOption {
            name,
            value: value
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty()),
        },
        UciMessage::Register { .. } => Command::Register,
        UciMessage::UciNewGame => Command::UciNewGame,
        UciMessage::Stop => Command::Stop,
        UciMessage::PonderHit => Command::PonderHit,
        UciMessage::Quit => Command::Quit,
        _ => {
            return Err(match first {
                "setoption" => {
                    "malformed setoption: expected setoption name <id> [value <x>]".into()
                }
                "debug" => "malformed debug: expected debug on|off".into(),
                "register" => {
                    "malformed register: expected register later|name <x> code <y>".into()
                }
                _ => format!("malformed '{first}' command"),
            })
        }
    })
}

/// `position startpos|fen <FEN> [moves m1 m2 ...]`. Our own parser: FENs of
/// other board sizes and moves such as `a10b10` are outside vampirc's grammar.
fn parse_position(args: &[&str]) -> Result<Command, String> {
    let (fen, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (None, rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("position fen: the FEN is missing".into());
            }
            (Some(rest[..end].join(" ")), &rest[end..])
        }
        Some((other, _)) => {
            return Err(format!("position: expected startpos or fen, not '{other}'"))
        }
        None => return Err("position: expected startpos or fen".into()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => return Err(format!("position: expected moves, not '{other}'")),
    };
    Ok(Command::Position { fen, moves })
}

/// Words that start a `go` parameter (and end a `searchmoves` list).
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// `go [params]` or `go perft <depth>`. See the module comment for why this
/// is not vampirc's parser.
fn parse_go(args: &[&str], pos: &Position, notation: Notation) -> Result<Command, String> {
    if args.first() == Some(&"perft") {
        return match args {
            [_, depth] => Ok(Command::Perft(number("perft", Some(depth))?)),
            [_] => Err("go perft: the depth is missing".into()),
            _ => Err("go perft takes only a depth: go perft <depth>".into()),
        };
    }
    let mut p = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let mut value = || {
            let v = args.get(i).copied();
            i += 1;
            v
        };
        match key {
            "wtime" => p.wtime = Some(number(key, value())?),
            "btime" => p.btime = Some(number(key, value())?),
            "winc" => p.winc = Some(number(key, value())?),
            "binc" => p.binc = Some(number(key, value())?),
            "movestogo" => p.movestogo = Some(number(key, value())?),
            "depth" => p.depth = Some(number(key, value())?),
            "nodes" => p.nodes = Some(number(key, value())?),
            "mate" => p.mate = Some(number(key, value())?),
            "movetime" => p.movetime = Some(number(key, value())?),
            "infinite" => p.infinite = true,
            "ponder" => p.ponder = true,
            "searchmoves" => {
                let start = i;
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    let m = notation
                        .parse(pos, args[i])
                        .map_err(|e| format!("go searchmoves: {e}"))?;
                    p.searchmoves.push(m);
                    i += 1;
                }
                if i == start {
                    return Err("go searchmoves: no moves given".into());
                }
            }
            "perft" => return Err("go perft takes only a depth: go perft <depth>".into()),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(Command::Go(p))
}

/// The number after a keyword, with the reason in words when it is missing,
/// not a number, or out of the type's range.
fn number<T: std::str::FromStr>(key: &str, token: Option<&str>) -> Result<T, String> {
    let t = token.ok_or_else(|| format!("{key}: the number is missing"))?;
    t.parse()
        .map_err(|_| format!("{key}: '{t}' is not a number in range"))
}

/// The UCI front-end: the engine state and where answers go. The search
/// runs on its own threads and sends its events through a channel; they are
/// formatted and written to `out` on this thread, by the reading loop as
/// they come, and before every command.
pub struct Uci<W: Write> {
    engine: Engine,
    out: W,
    /// Set by `debug on`; nothing prints extra information yet.
    debug: bool,
    events: Events,
}

impl<W: Write> Uci<W> {
    pub fn new(out: W) -> Self {
        Uci::with_engine(out, Engine::new())
    }

    /// A front-end over an engine prepared beforehand (`fers load FILE`).
    pub fn with_engine(out: W, engine: Engine) -> Self {
        Uci {
            engine,
            out,
            debug: false,
            events: Events::default(),
        }
    }

    /// How moves are written: king-takes-rook castling under `UCI_Chess960`.
    fn notation(&self) -> Notation {
        if self.engine.chess960() {
            Notation::Chess960
        } else {
            Notation::Fers
        }
    }

    /// Writes the events the search has sent so far.
    pub fn drain_search_lines(&mut self) -> io::Result<()> {
        while let Some(r) = self.events.try_next() {
            self.write_report(&r)?;
        }
        Ok(())
    }

    fn write_report(&mut self, r: &Report) -> io::Result<()> {
        let line = format_event(&r.root, &r.event, self.notation());
        writeln!(self.out, "{line}")
    }

    /// Waits until the running search (if any) has ended and written its
    /// `bestmove`. A search without a limit (`go infinite`, pondering) ends
    /// only after `stop` or `ponderhit`.
    pub fn wait_for_search(&mut self) -> io::Result<()> {
        self.engine.wait();
        self.drain_search_lines()
    }

    /// Stops a running search and waits for its `bestmove` (quit, end of input).
    pub fn finish(&mut self) -> io::Result<()> {
        self.engine.stop();
        self.wait_for_search()?;
        self.out.flush()
    }

    /// Is a search running?
    pub fn searching(&mut self) -> bool {
        self.engine.searching()
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// For composing front-ends and for tests (e.g. to select a variant
    /// that is not built in).
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    pub fn debug(&self) -> bool {
        self.debug
    }

    /// The output written so far (for in-process tests over a `Vec<u8>`).
    pub fn output(&self) -> &W {
        &self.out
    }

    pub fn output_mut(&mut self) -> &mut W {
        &mut self.out
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Handles one input line. Bad input is answered with `info string
    /// error: ...` and leaves the state as it was; the only `Err` is an
    /// output failure (the GUI has gone away).
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        self.drain_search_lines()?;
        let cmd = match parse_command_in(line, self.engine.position(), self.notation()) {
            Ok(cmd) => cmd,
            Err(why) => {
                self.error(why)?;
                return Ok(Flow::Continue);
            }
        };
        self.execute(cmd)
    }

    /// Carries out a parsed command.
    pub fn execute(&mut self, cmd: Command) -> io::Result<Flow> {
        match cmd {
            Command::Uci => self.uci()?,
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.send(UciMessage::ReadyOk)?,
            Command::UciNewGame => {
                self.engine.new_game();
                self.engine.clear_hash();
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Register => {}
            Command::Position { fen, moves } => self.position(fen.as_deref(), &moves)?,
            Command::Go(params) => self.go(params)?,
            Command::Perft(depth) => self.perft(depth)?,
            // `stop` is answered before the next command is read: the
            // search ends within milliseconds and its `bestmove` is written.
            Command::Stop => {
                self.engine.stop();
                self.wait_for_search()?;
            }
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.finish()?;
                return Ok(Flow::Quit);
            }
            Command::Display => self.display()?,
            Command::Eval => self.eval()?,
            Command::Check(path) => self.check(&path)?,
            Command::Bench { depth, file } => self.bench(depth, file.as_deref())?,
            Command::Empty => {}
        }
        Ok(Flow::Continue)
    }

    /// `setoption`: the engine checks the value; a variant change is
    /// announced with the board, a variant file with what it loaded.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        match self.engine.set_option(name, value) {
            Ok(OptionEffect::None) => Ok(()),
            Ok(OptionEffect::Note(note)) => self.info(note),
            Ok(OptionEffect::Variant(v)) => {
                let g = v.geometry;
                self.info(format!(
                    "variant {} files {} ranks {} startpos {}",
                    v.name, g.files, g.ranks, v.start_fen
                ))
            }
            Ok(OptionEffect::VariantsLoaded(report)) => {
                for r in report {
                    match r {
                        Ok(name) => self.info(format!("loaded variant {name}"))?,
                        Err(e) => self.error(e)?,
                    }
                }
                // GUIs re-read the option line to offer the new variants.
                let names = self.engine.variant_names();
                match options::definitions_with(&names).into_iter().next() {
                    Some(def) => self.send_option(def),
                    None => Ok(()),
                }
            }
            Err(e) => self.error(e),
        }
    }

    /// `position`: all or nothing, moves in this session's notation.
    fn position(&mut self, fen: Option<&str>, moves: &[String]) -> io::Result<()> {
        let start = match fen {
            Some(f) => StartPos::Fen(f),
            None => StartPos::Start,
        };
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let notation = self.notation();
        match self.engine.set_position_in(start, &moves, notation) {
            Ok(()) => Ok(()),
            Err(e) => self.error(e),
        }
    }

    /// `check <file>`: one line per section of the variant file.
    fn check(&mut self, path: &str) -> io::Result<()> {
        match self.engine.check_file(path) {
            Ok(report) => {
                for r in report {
                    match r {
                        Ok(desc) => self.info(format!("check ok {desc}"))?,
                        Err(e) => self.error(e)?,
                    }
                }
                Ok(())
            }
            Err(e) => self.error(e),
        }
    }

    /// `go`: starts the search in the background and returns at once; a
    /// search still running is stopped first (its `bestmove` comes first).
    pub fn go(&mut self, params: GoParams) -> io::Result<()> {
        let pos = self.engine.position();
        let ms = |t: Option<i64>| t.map(|t| t.max(0) as u64);
        let limits = Limits {
            wtime: ms(params.wtime),
            btime: ms(params.btime),
            winc: ms(params.winc),
            binc: ms(params.binc),
            movestogo: params.movestogo,
            depth: params.depth.map(|d| d.clamp(1, 1000) as i32),
            nodes: params.nodes,
            movetime: params.movetime,
            mate: params.mate,
            infinite: params.infinite,
            ponder: params.ponder,
            searchmoves: params
                .searchmoves
                .iter()
                .map(|&m| pos.move_to_uci(m))
                .collect(),
        };
        let reporter = self.events.reporter(pos);
        self.engine.go(limits, reporter);
        // Lines of a search that was stopped by this `go` come first.
        self.drain_search_lines()
    }

    /// `bench [depth [fenfile]]`: runs to the end on this thread (stops a
    /// search first). A file that cannot be searched is refused whole.
    fn bench(&mut self, depth: Option<u32>, file: Option<&str>) -> io::Result<()> {
        let set = match file.map(|f| self.engine.bench_set(f)) {
            None => self.engine.standard_bench_set(),
            Some(Ok(set)) => set,
            Some(Err(e)) => return self.error(e),
        };
        self.engine.stop();
        self.wait_for_search()?;
        let (tx, rx) = unbounded::<String>();
        let depth = depth.map(|d| d as i32).unwrap_or(crate::bench::BENCH_DEPTH);
        crate::bench::run_set(&set, depth, &move |line: &str| {
            let _ = tx.send(line.to_string());
        });
        for line in rx.iter() {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    fn uci(&mut self) -> io::Result<()> {
        self.send(UciMessage::Id {
            name: Some(format!("{ENGINE_NAME} {}", env!("CARGO_PKG_VERSION"))),
            author: None,
        })?;
        self.send(UciMessage::Id {
            name: None,
            author: Some(ENGINE_AUTHOR.into()),
        })?;
        for def in options::definitions_with(&self.engine.variant_names()) {
            self.send_option(def)?;
        }
        self.send(UciMessage::UciOk)
    }

    fn send_option(&mut self, def: options::OptionDef) -> io::Result<()> {
        {
            let name = def.name.to_string();
            let config = match def.kind {
                OptionKind::Check { default } => UciOptionConfig::Check {
                    name,
                    default: Some(default),
                },
                OptionKind::Spin { default, min, max } => UciOptionConfig::Spin {
                    name,
                    default: Some(default),
                    min: Some(min),
                    max: Some(max),
                },
                OptionKind::Combo { default, vars } => UciOptionConfig::Combo {
                    name,
                    default: Some(default),
                    var: vars,
                },
                OptionKind::String { default } => UciOptionConfig::String {
                    name,
                    default: Some(if default.is_empty() {
                        "<empty>".into()
                    } else {
                        default
                    }),
                },
                OptionKind::Button => UciOptionConfig::Button { name },
            };
            self.send(UciMessage::Option(config))
        }
    }

    /// `go perft N`, printed as Stockfish does.
    fn perft(&mut self, depth: u32) -> io::Result<()> {
        match self.engine.perft_in(depth, self.notation()) {
            Ok(report) => {
                for (m, n) in &report.divide {
                    writeln!(self.out, "{m}: {n}")?;
                }
                writeln!(self.out)?;
                writeln!(self.out, "Nodes searched: {}", report.total)
            }
            Err(e) => self.error(e),
        }
    }

    /// `d`: the board, then `Fen:` and `Key:` lines.
    fn display(&mut self) -> io::Result<()> {
        let pos = self.engine.position();
        let text = format!(
            "{}\nFen: {}\nKey: {:016X}\n",
            pos.board_string(),
            pos.to_fen(),
            pos.key()
        );
        self.out.write_all(text.as_bytes())
    }

    /// Prints the hand-written and the network evaluation (the network a
    /// search would use: `EvalFile`'s where it fits, else the embedded one
    /// for chess), in centipawns for the side to move.
    fn eval(&mut self) -> io::Result<()> {
        let t = self.engine.eval_tables();
        let pos = self.engine.position();
        let mut text = format!(
            "Classical evaluation: {} (side to move)\n",
            evaluate(pos, &t)
        );
        match (&t.nnue, evaluate_network(pos, &t)) {
            (Some(map), Some(e)) => {
                text += &format!(
                    "NNUE evaluation: {e} (side to move; {}network for {})\n",
                    if map.residual().is_some() {
                        "residual "
                    } else {
                        ""
                    },
                    map.id()
                )
            }
            _ => text += "NNUE evaluation: none for this variant\n",
        }
        self.out.write_all(text.as_bytes())
    }

    fn send(&mut self, msg: UciMessage) -> io::Result<()> {
        writeln!(self.out, "{}", msg.serialize())
    }

    fn info(&mut self, text: String) -> io::Result<()> {
        self.send(UciMessage::Info(vec![UciInfoAttribute::String(text)]))
    }

    /// `info string error: <why>`, on one printable line of bounded length.
    fn error(&mut self, why: impl Display) -> io::Result<()> {
        self.info(printable(&format!("error: {why}"), MAX_ERROR_CHARS))
    }
}

impl<W: Write> FrontEnd for Uci<W> {
    fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        Uci::handle_line(self, line)
    }

    fn on_report(&mut self, report: Report) -> io::Result<()> {
        self.write_report(&report)
    }

    fn reports(&self) -> Receiver<Report> {
        self.events.receiver()
    }

    fn finish(&mut self) -> io::Result<()> {
        Uci::finish(self)
    }

    fn internal_error(&mut self) -> io::Result<()> {
        self.error("internal error (a bug): command ignored")
    }

    fn flush(&mut self) -> io::Result<()> {
        Uci::flush(self)
    }
}

/// A search event as a UCI line (`info ...`, `bestmove ...`); moves are
/// written in `notation` from `root`, the position searched.
pub fn format_event(root: &Position, event: &SearchEvent, notation: Notation) -> String {
    let fmt = |p: &Position, m: Move| notation.format(p, m);
    match event {
        SearchEvent::Info(info) => format_info(root, info, notation),
        SearchEvent::NoLegalMove { score } => format!("info depth 0 score {}", score_words(*score)),
        SearchEvent::Book(BookNote::Move(m)) => format!("info string book move {}", fmt(root, *m)),
        SearchEvent::Note(text) => format!("info string {}", printable(text, MAX_ERROR_CHARS)),
        SearchEvent::Book(BookNote::Error(why)) => {
            format!(
                "info string {}",
                printable(&format!("error: {why}"), MAX_ERROR_CHARS)
            )
        }
        SearchEvent::BestMove { best: None, .. } => "bestmove (none)".to_string(),
        SearchEvent::BestMove {
            best: Some(b),
            ponder,
        } => {
            let mut line = format!("bestmove {}", fmt(root, *b));
            if let Some(p) = ponder {
                let mut next = root.clone();
                next.play(*b);
                line += &format!(" ponder {}", fmt(&next, *p));
            }
            line
        }
    }
}

fn format_info(root: &Position, i: &SearchInfo, notation: Notation) -> String {
    format_info_with(root, i, notation, score_words)
}

/// An `info` line in the words UCI and USI share; they differ only in the
/// move notation and in how a score is written.
pub(crate) fn format_info_with(
    root: &Position,
    i: &SearchInfo,
    notation: Notation,
    score_words: fn(Score) -> String,
) -> String {
    let bound = match i.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score_words(i.score),
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms,
        line_text(root, &i.pv, |p, m| notation.format(p, m))
    )
}

/// `cp N` or `mate N` (N in moves, negative when mated).
fn score_words(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(plies) => format!("mate {}", Score::mate_moves(plies)),
    }
}

/// Runs the UCI loop until `quit` or the end of the input (see
/// [`crate::protocol::run`], which chooses the protocol by the first line).
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, out: W) -> io::Result<()> {
    crate::protocol::run_with(input, Uci::new(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    fn start() -> Position {
        Position::startpos(variant::chess())
    }

    fn parse(line: &str) -> Result<Command, String> {
        parse_command(line, &start())
    }

    /// Runs lines through a fresh front-end and returns its output.
    fn session(lines: &[&str]) -> String {
        let mut uci = Uci::new(Vec::new());
        for l in lines {
            uci.handle_line(l).expect("writing to a Vec cannot fail");
        }
        uci.finish().expect("writing to a Vec cannot fail");
        String::from_utf8(uci.output().clone()).expect("output is UTF-8")
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("  isready \t"), Ok(Command::IsReady));
        assert_eq!(parse("ucinewgame"), Ok(Command::UciNewGame));
        assert_eq!(parse("stop"), Ok(Command::Stop));
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("debug on"), Ok(Command::Debug(true)));
        assert_eq!(parse("register later"), Ok(Command::Register));
        assert_eq!(parse("d"), Ok(Command::Display));
        assert_eq!(parse(""), Ok(Command::Empty));
        assert_eq!(parse(" \t "), Ok(Command::Empty));
    }

    #[test]
    fn command_words_are_exact() {
        // vampirc alone would read these as isready / ucinewgame / isready.
        for line in [
            "isreadyfoo",
            "ucinewgamex",
            "ISREADY",
            "Uci",
            "dd",
            "perft 3",
        ] {
            let err = parse(line).expect_err(line);
            assert!(err.starts_with("unknown command"), "{line}: {err}");
        }
        assert!(parse("debug").is_err());
        assert!(parse("debug maybe").is_err());
    }

    #[test]
    fn setoption_names_and_values() {
        assert_eq!(
            parse("setoption name UCI_Variant value chess"),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("chess".into())
            })
        );
        // Whitespace is normalised; names may have several words.
        assert_eq!(
            parse("setoption  name  Move\tOverhead   value  30 "),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name X value"),
            Ok(Command::SetOption {
                name: "X".into(),
                value: None
            })
        );
        for bad in [
            "setoption",
            "setoption name",
            "setoption value x",
            "setoption name value x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos"),
            Ok(Command::Position {
                fen: None,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("position startpos moves e2e4 a10b10"),
            Ok(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "a10b10".into()]
            })
        );
        assert_eq!(
            parse("position fen 4k3/8/8/8/8/8/8/4K3  w - - 0 1 moves"),
            Ok(Command::Position {
                fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()),
                moves: vec![]
            })
        );
        for bad in [
            "position",
            "position fen",
            "position fen moves e2e4",
            "position startpos e2e4",
            "position somewhere",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_parameters() {
        let pos = start();
        let e2e4 = pos.parse_move("e2e4").expect("legal");
        let d2d4 = pos.parse_move("d2d4").expect("legal");
        assert_eq!(parse("go"), Ok(Command::Go(GoParams::default())));
        assert_eq!(
            parse(
                "go ponder wtime 300000 btime -20 winc 2000 binc 0 movestogo 40 \
                 depth 300 nodes 123456789012345 mate 3 movetime 1000 infinite \
                 searchmoves e2e4 d2d4"
            ),
            Ok(Command::Go(GoParams {
                wtime: Some(300000),
                btime: Some(-20),
                winc: Some(2000),
                binc: Some(0),
                movestogo: Some(40),
                depth: Some(300),
                nodes: Some(123456789012345),
                movetime: Some(1000),
                mate: Some(3),
                infinite: true,
                ponder: true,
                searchmoves: vec![e2e4, d2d4],
            }))
        );
        // searchmoves stops at the next keyword.
        assert_eq!(
            parse("go searchmoves e2e4 depth 2"),
            Ok(Command::Go(GoParams {
                depth: Some(2),
                searchmoves: vec![e2e4],
                ..GoParams::default()
            }))
        );
    }

    #[test]
    fn go_rejects_bad_numbers_and_words() {
        for bad in [
            "go depth",
            "go depth x",
            "go depth -1",
            "go depth 99999999999",
            "go nodes 1e6",
            "go movetime -5",
            "go wtime 99999999999999999999",
            "go movestogo",
            "go fast",
            "go searchmoves",
            "go searchmoves e2e5",
            "go searchmoves depth 3",
            "go depth 3 perft 2",
            "go perft",
            "go perft x",
            "go perft 3 4",
            "go perft -1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("go perft 4"), Ok(Command::Perft(4)));
    }

    #[test]
    fn uci_lists_options() {
        let out = session(&["uci"]);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("id name fers"), "{out}");
        assert!(lines[1].starts_with("id author "), "{out}");
        let variants = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant "))
            .expect("UCI_Variant listed");
        assert!(
            variants.starts_with(
                "option name UCI_Variant type combo default chess var chess var wormhole var baroque"
            ),
            "{variants}"
        );
        // One variant per condition of seed 003.
        assert!(variants.contains(" var circe ") && variants.ends_with(" var singlebox2"));
        assert!(lines.contains(&"option name Conditions type string default <empty>"));
        assert_eq!(lines.last(), Some(&"uciok"));
    }

    #[test]
    fn perft_output_matches_stockfish_format() {
        let out = session(&["go perft 2"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 22, "{out}");
        assert!(lines.contains(&"e2e4: 20"));
        assert_eq!(lines[20], "");
        assert_eq!(lines[21], "Nodes searched: 400");
    }

    #[test]
    fn fanorona_turns_are_whole_chains() {
        const START: &str = "ppppppppp/ppppppppp/pPpP1pPpP/PPPPPPPPP/PPPPPPPPP w 0";
        // The site's numbers (shared/ref/vchess/cases.json): 5 turns, 39
        // at depth 2, its FEN given back.
        let out = session(&[
            "setoption name UCI_Variant value fanorona",
            &format!("position fen {START}"),
            "d",
            "go perft 2",
        ]);
        assert!(out.contains(&format!("Fen: {START}\n")), "{out}");
        assert!(out.contains("d3e3a: ") && out.contains("d3e3w: "), "{out}");
        assert!(out.contains("Nodes searched: 39"), "{out}");
        // d3e3 fits two captures: refused as ambiguous, the position kept.
        let out = session(&[
            "setoption name UCI_Variant value fanorona",
            "position startpos moves d3e3",
            "d",
        ]);
        assert!(out.contains("ambiguous move 'd3e3'"), "{out}");
        assert!(out.contains(&format!("Fen: {START}\n")), "{out}");
        // d3e3w takes c3 (b3 is White's); d4d3a then takes d2 and d1,
        // the line beyond d3. The count advances by one a turn.
        let out = session(&[
            "setoption name UCI_Variant value fanorona",
            "position startpos moves d3e3w d4d3a",
            "d",
        ]);
        assert!(
            out.contains("Fen: ppppppppp/ppp1ppppp/pP1pPpPpP/PPP1PPPPP/PPP1PPPPP w 2\n"),
            "{out}"
        );
        // A chain of two legs is one turn. After d3e3w, Black's b4c3a is
        // a diagonal step (b4 is an even point): the line beyond c3 is d2,
        // e1, both taken. Then c3d3a goes east: beyond d3, e3 (f3 is
        // Black's), taken.
        let out = session(&[
            "setoption name UCI_Variant value fanorona",
            "position startpos moves d3e3w b4c3a,c3d3a",
            "d",
        ]);
        assert!(
            out.contains("Fen: ppppppppp/p1ppppppp/pP1p1pPpP/PPP1PPPPP/PPPP1PPPP w 2\n"),
            "{out}"
        );
        let out = session(&[
            "setoption name UCI_Variant value fanorona",
            "position startpos",
            "go depth 3",
        ]);
        let best = out.lines().last().unwrap_or("");
        let mv = best
            .strip_prefix("bestmove ")
            .unwrap_or("")
            .split(' ')
            .next();
        let pos = Position::startpos(variant::builtin("fanorona").expect("built in"));
        assert!(mv.is_some_and(|m| pos.parse_move(m).is_ok()), "{out}");
        // A side without stones has lost: mated, not a draw.
        let out = session(&[
            "setoption name UCI_Variant value fanorona",
            "position fen 9/9/9/9/P8 b 0",
            "go depth 2",
        ]);
        assert!(
            out.contains("info depth 0 score mate 0\nbestmove (none)"),
            "{out}"
        );
    }

    #[test]
    fn display_prints_fen_and_key() {
        let out = session(&["position startpos moves e2e4", "d"]);
        let pos = {
            let mut p = start();
            p.play(p.parse_move("e2e4").expect("legal"));
            p
        };
        assert!(out.contains(&format!("Fen: {}\n", pos.to_fen())), "{out}");
        assert!(out.contains(&format!("Key: {:016X}\n", pos.key())), "{out}");
        assert!(out.starts_with(&pos.board_string()), "{out}");
    }

    #[test]
    fn eval_prints_both_evaluations() {
        let out = session(&["position startpos moves e2e4", "eval"]);
        assert!(out.contains("Classical evaluation: "), "{out}");
        assert!(out.contains("NNUE evaluation: "), "{out}");
        assert!(!out.contains("none for this variant"), "{out}");
        let out = session(&["setoption name Use NNUE value false", "eval"]);
        assert!(!out.contains("error"), "{out}");
        let out = session(&["setoption name Use NNUE value maybe"]);
        assert!(out.contains("info string error"), "{out}");
    }

    #[test]
    fn errors_are_one_printable_bounded_line() {
        let long = format!("x{}", "y".repeat(10_000));
        let out = session(&[&long, "bad\u{1b}[31mcolour"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        for l in lines {
            assert!(l.starts_with("info string error: "), "{l}");
            assert!(l.chars().count() < MAX_ERROR_CHARS + 40, "{l}");
            assert!(!l.chars().any(char::is_control), "{l}");
        }
    }

    #[test]
    fn variant_option_announces_the_board() {
        let out = session(&["setoption name UCI_Variant value Chess"]);
        assert_eq!(
            out,
            "info string variant chess files 8 ranks 8 startpos \
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        );
        let out = session(&["setoption name UCI_Variant value xiangqi"]);
        assert_eq!(out, "info string error: unknown variant 'xiangqi'\n");
        let out = session(&["setoption name Hash value 16"]);
        assert_eq!(out, "");
        let out = session(&["setoption name NoSuchOption value 16"]);
        assert_eq!(out, "info string error: unknown option 'NoSuchOption'\n");
    }

    /// `EvalFile` loads a network trained for a variant (here a hand-made
    /// Capablanca network): refused, with an `info string error` and the
    /// engine unchanged, when the variant of its name is defined otherwise;
    /// kept (and said so) while another variant is played, as GUIs send
    /// options before `UCI_Variant`; used once its variant is played.
    /// The networks `variants/examples.ini` names (`network =`) are shipped
    /// and fit their variants: `eval` names each one, with no error.
    #[test]
    fn the_example_variants_play_with_their_shipped_networks() {
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
        let mut uci = Uci::new(Vec::new());
        uci.handle_line(&format!("setoption name VariantPath value {examples}"))
            .expect("Vec output");
        let named = ["capablanca", "embassy", "almost"];
        for v in named {
            for l in [
                format!("setoption name UCI_Variant value {v}"),
                "eval".into(),
            ] {
                uci.handle_line(&l).expect("Vec output");
            }
        }
        let out = String::from_utf8(uci.output().clone()).expect("UTF-8");
        assert!(!out.contains("error"), "{out}");
        let evals: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("NNUE evaluation"))
            .collect();
        assert_eq!(evals.len(), named.len(), "{out}");
        for (e, v) in evals.iter().zip(named) {
            assert!(e.contains(&format!("network for '{v}'")), "{out}");
        }
    }

    #[test]
    fn eval_file_loads_a_fitting_network_and_refuses_others() {
        use crate::nnue::{NetId, Network};
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
        let mut reg = fers_core::registry::Registry::new();
        for r in reg.load(
            "examples.ini",
            &std::fs::read_to_string(examples).expect("examples"),
        ) {
            r.expect("loads");
        }
        let capa = reg.get("capablanca").expect("capablanca");
        let net = Network::from_fn(
            NetId::of(capa),
            |own, k, _, _| if own { k as i16 * 3 } else { 0 },
            4,
        );
        let dir = std::env::temp_dir();
        let good = dir.join(format!("fers-evalfile-{}.nnue", std::process::id()));
        std::fs::write(&good, net.to_bytes()).expect("temp file");
        // The same header with another piece-set hash: not this Capablanca.
        let mut other = net.to_bytes();
        other[16] ^= 1;
        let bad = dir.join(format!("fers-evalfile-{}-other.nnue", std::process::id()));
        std::fs::write(&bad, other).expect("temp file");
        let (good, bad) = (good.display().to_string(), bad.display().to_string());
        let mut uci = Uci::new(Vec::new());
        for l in [
            format!("setoption name VariantPath value {examples}"),
            format!("setoption name EvalFile value {bad}"),
            "setoption name UCI_Variant value capablanca".to_string(),
            "eval".to_string(),
            "setoption name UCI_Variant value chess".to_string(),
            format!("setoption name EvalFile value {good}"),
            "eval".to_string(),
            "setoption name UCI_Variant value capablanca".to_string(),
            "eval".to_string(),
            "go depth 3".to_string(),
        ] {
            uci.handle_line(&l).expect("Vec output");
        }
        uci.wait_for_search().expect("Vec output");
        let _ = std::fs::remove_file(&good);
        let _ = std::fs::remove_file(&bad);
        let out = String::from_utf8(uci.output().clone()).expect("UTF-8");
        let refused = out
            .lines()
            .find(|l| l.contains("refused"))
            .unwrap_or_else(|| panic!("no refusal in\n{out}"));
        assert!(
            refused.starts_with("info string error: EvalFile '"),
            "{out}"
        );
        assert!(
            refused.contains("the network is for 'capablanca' (10x8, 8 kinds")
                && refused.contains("not for 'capablanca' (10x8, 8 kinds"),
            "{refused}"
        );
        assert_eq!(out.matches("info string error").count(), 1, "{out}");
        assert!(
            out.contains("network for 'capablanca' (10x8, 8 kinds")
                && out.contains("kept for that variant; chess keeps its own evaluation"),
            "{out}"
        );
        let evals: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("NNUE evaluation"))
            .collect();
        assert_eq!(evals.len(), 3, "{out}");
        // Refused: Capablanca keeps the network its variant file names
        // (trained, so not level at the start); chess keeps its own; then
        // `EvalFile`'s hand-made one, exactly level at the symmetric start.
        assert!(evals[0].contains("network for 'capablanca'"), "{out}");
        assert!(!evals[0].starts_with("NNUE evaluation: 0 "), "{out}");
        assert!(evals[1].contains("network for 'chess'"), "{out}");
        assert!(evals[2].contains("network for 'capablanca'"), "{out}");
        assert!(evals[2].starts_with("NNUE evaluation: 0 "), "{out}");
        assert!(
            out.lines().last().unwrap_or("").starts_with("bestmove "),
            "{out}"
        );
        let mut uci = Uci::new(Vec::new());
        uci.handle_line("setoption name EvalFile value /nonexistent/x.nnue")
            .expect("Vec output");
        let out = String::from_utf8(uci.output().clone()).expect("UTF-8");
        assert!(
            out.contains("info string error: cannot read network file"),
            "{out}"
        );
    }

    /// A variant file's `network = PATH` (relative to the file): the
    /// network is loaded with the file and used when its variant is played;
    /// one that does not fit its variant is an error naming the variant, and
    /// the variant still loads and plays with the hand-written evaluation.
    /// `EvalFile` comes first where it fits.
    #[test]
    fn variant_file_network_key_loads_and_refuses() {
        use crate::nnue::{NetId, Network};
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
        // White is a knight down, so the two networks' outputs differ.
        const KNIGHT_DOWN: &str =
            "position fen rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R1ABQKBCNR w KQkq - 0 1";
        let dir = std::env::temp_dir().join(format!("fers-netkey-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        // Networks for a variant named `mycapa`, Capablanca's pieces.
        let spec_text = "[mycapa:capablanca]\nnetwork = mycapa.nnue\n\
                         [othercapa:capablanca]\nnetwork = mycapa.nnue\n\
                         [child:mycapa]\n";
        let mut probe = fers_core::registry::Registry::new();
        probe.load(
            "examples.ini",
            &std::fs::read_to_string(examples).expect("examples"),
        );
        probe.load("probe.ini", spec_text);
        let mycapa = probe.get("mycapa").expect("mycapa");
        let net = Network::from_fn(
            NetId::of(mycapa),
            |own, k, _, _| if own { k as i16 * 3 } else { 0 },
            4,
        );
        std::fs::write(dir.join("mycapa.nnue"), net.to_bytes()).expect("temp file");
        // Another network for it, given by `EvalFile`.
        let net2 = Network::from_fn(
            NetId::of(mycapa),
            |own, k, _, _| if own { k as i16 * 7 } else { 0 },
            4,
        );
        let evalfile = dir.join("evalfile.nnue");
        std::fs::write(&evalfile, net2.to_bytes()).expect("temp file");
        let file = dir.join("v.ini");
        std::fs::write(&file, spec_text).expect("temp file");
        let mut uci = Uci::new(Vec::new());
        for l in [
            format!("setoption name VariantPath value {examples}"),
            format!("setoption name VariantPath value {}", file.display()),
            "setoption name UCI_Variant value mycapa".to_string(),
            KNIGHT_DOWN.to_string(),
            "eval".to_string(),
            "go depth 3".to_string(),
        ] {
            uci.handle_line(&l).expect("Vec output");
        }
        uci.wait_for_search().expect("Vec output");
        for l in [
            "setoption name UCI_Variant value othercapa",
            "eval",
            "setoption name UCI_Variant value child",
            "eval",
            "setoption name UCI_Variant value mycapa",
            &format!("setoption name EvalFile value {}", evalfile.display()),
            KNIGHT_DOWN,
            "eval",
        ] {
            uci.handle_line(l).expect("Vec output");
        }
        let _ = std::fs::remove_dir_all(&dir);
        let out = String::from_utf8(uci.output().clone()).expect("UTF-8");
        let errors: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        // `othercapa` names a network trained for `mycapa`: refused.
        assert_eq!(errors.len(), 1, "{out}");
        assert!(
            errors[0].contains("variant othercapa: network '")
                && errors[0].contains("refused")
                && errors[0].contains("the network is for 'mycapa'"),
            "{out}"
        );
        assert!(out.contains("loaded variant othercapa"), "{out}");
        let evals: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("NNUE evaluation"))
            .collect();
        assert_eq!(evals.len(), 4, "{out}");
        assert!(evals[0].contains("network for 'mycapa'"), "{out}");
        // The refused one and the child (not inherited) evaluate by hand.
        assert!(evals[1].contains("none for this variant"), "{out}");
        assert!(evals[2].contains("none for this variant"), "{out}");
        // `EvalFile`'s network (other weights) comes first.
        assert!(evals[3].contains("network for 'mycapa'"), "{out}");
        assert_ne!(evals[0], evals[3], "{out}");
        assert!(out.contains("bestmove "), "{out}");
    }

    /// `bench` without a file searches the fixed chess positions with the
    /// evaluation the options select, as Stockfish's does: `Use NNUE`, a
    /// chess network loaded by `EvalFile`; a network for another variant
    /// leaves the embedded one in use.
    #[test]
    fn bench_uses_the_options_evaluation() {
        use crate::nnue::{NetId, Network};
        let nodes = |out: &str| -> String {
            let last = out.lines().last().unwrap_or_default();
            assert!(last.ends_with(" nps"), "{out}");
            last.split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string()
        };
        let dir = std::env::temp_dir().join(format!("fers-benchnet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let chess = fers_core::variant::chess();
        // A chess network that only counts material, by kind.
        let net = Network::from_fn(
            NetId::of(chess),
            |own, k, _, _| if own { k as i16 * 5 } else { 0 },
            4,
        );
        let chess_net = dir.join("chess.nnue");
        std::fs::write(&chess_net, net.to_bytes()).expect("temp file");
        let baroque = fers_core::variant::builtin("baroque").expect("baroque");
        let other = Network::from_fn(
            NetId::of(baroque),
            |own, k, _, _| if own { k as i16 } else { 0 },
            4,
        );
        let other_net = dir.join("baroque.nnue");
        std::fs::write(&other_net, other.to_bytes()).expect("temp file");
        let default = nodes(&session(&["bench 4"]));
        let by_hand = nodes(&session(&[
            "setoption name Use NNUE value false",
            "bench 4",
        ]));
        let loaded = nodes(&session(&[
            &format!("setoption name EvalFile value {}", chess_net.display()),
            "bench 4",
        ]));
        let unfit_out = session(&[
            &format!("setoption name EvalFile value {}", other_net.display()),
            "bench 4",
        ]);
        // Loaded (kept for Baroque), not refused: the bench is offered it.
        assert!(unfit_out.contains("kept for that variant"), "{unfit_out}");
        let unfit = nodes(&unfit_out);
        let _ = std::fs::remove_dir_all(&dir);
        // The same searches run directly, each with its evaluation.
        let direct =
            |set: &crate::bench::BenchSet| crate::bench::run_set(set, 4, &|_| {}).0.to_string();
        let standard = crate::bench::BenchSet::standard_with;
        assert_eq!(default, direct(&standard(true, None)));
        assert_eq!(by_hand, direct(&standard(false, None)));
        assert_eq!(
            loaded,
            direct(&standard(true, Some(std::sync::Arc::new(net))))
        );
        assert_ne!(loaded, default);
        assert_ne!(by_hand, default);
        assert_eq!(unfit, default);
    }

    #[test]
    fn go_searches_and_answers_bestmove() {
        let mut uci = Uci::new(Vec::new());
        for l in ["position startpos moves e2e4", "go depth 4"] {
            uci.handle_line(l).expect("Vec output");
        }
        uci.wait_for_search().expect("Vec output");
        let out = String::from_utf8(uci.output().clone()).expect("UTF-8");
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 4 ")),
            "{out}"
        );
        let best = lines.last().expect("output");
        assert!(best.starts_with("bestmove "), "{out}");
        let m = best.split_whitespace().nth(1).expect("a move");
        let mut pos = start();
        pos.play(pos.parse_move("e2e4").expect("legal"));
        assert!(pos.parse_move(m).is_ok(), "{out}");
    }

    #[test]
    fn search_options_are_offered_and_checked() {
        let out = session(&["uci"]);
        for opt in [
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Threads type spin default 1 min 1 max 1024",
            "option name MultiPV type spin default 1 min 1 max 500",
            "option name Ponder type check default false",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "option name Clear Hash type button",
        ] {
            assert!(out.lines().any(|l| l == opt), "{opt}\n{out}");
        }
        let out = session(&[
            "setoption name Threads value 2",
            "setoption name MultiPV value 2",
            "setoption name Clear Hash",
            "setoption name Move Overhead value 50",
            "setoption name Hash value 4",
            "setoption name Ponder value true",
        ]);
        assert_eq!(out, "");
        let out = session(&[
            "setoption name Threads value 0",
            "setoption name Hash value x",
        ]);
        assert_eq!(
            out.lines()
                .filter(|l| l.starts_with("info string error:"))
                .count(),
            2
        );
        let out = session(&["bench 2"]);
        assert!(out.lines().last().unwrap().ends_with(" nps"), "{out}");
    }

    #[test]
    fn bench_takes_a_depth_then_a_file() {
        let bench = |depth, file: Option<&str>| {
            Ok(Command::Bench {
                depth,
                file: file.map(String::from),
            })
        };
        assert_eq!(parse("bench"), bench(None, None));
        assert_eq!(parse("bench 5"), bench(Some(5), None));
        assert_eq!(
            parse(" bench  7  my fens.epd "),
            bench(Some(7), Some("my fens.epd"))
        );
        assert!(parse("bench x").is_err());
        assert!(parse("bench 0 f.fen").is_err());
        assert!(parse("bench f.fen").is_err());
    }

    /// `bench DEPTH FILE` searches the file's positions in the selected
    /// variant with that variant's network; a file with a bad line is
    /// refused whole, with its line number, and nothing is searched.
    #[test]
    fn bench_searches_a_fen_file_of_the_selected_variant() {
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
        let dir = std::env::temp_dir();
        let good = dir.join(format!("fers-bench-{}.fen", std::process::id()));
        std::fs::write(
            &good,
            "# two Capablanca positions; labels after ';' are ignored\n\
             rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1;+0.1\n\
             \n\
             r1abqkbcnr/pppppppppp/2n7/10/4P5/10/PPPP1PPPPP/RNABQKBCNR w KQkq - 1 2\n",
        )
        .expect("temp file");
        let bad = dir.join(format!("fers-bench-{}-bad.fen", std::process::id()));
        std::fs::write(
            &bad,
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        )
        .expect("temp file");
        let out = session(&[
            &format!("setoption name VariantPath value {examples}"),
            "setoption name UCI_Variant value capablanca",
            &format!("bench 3 {}", bad.display()),
            &format!("bench 3 {}", good.display()),
            "bench 2 /no/such/file.fen",
            "bench 2 /dev/zero",
            "d",
        ]);
        let _ = std::fs::remove_file(&good);
        let _ = std::fs::remove_file(&bad);
        let errors: Vec<&str> = out.lines().filter(|l| l.contains("error: bench")).collect();
        assert_eq!(errors.len(), 3, "{out}");
        assert!(errors[0].contains("line 2 of"), "{out}");
        assert!(errors[1].contains("cannot read"), "{out}");
        assert!(errors[2].contains("larger than"), "{out}");
        let searched: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("info string position "))
            .collect();
        assert_eq!(searched.len(), 2, "{out}");
        assert!(searched.iter().all(|l| l.contains(" depth 3 ")), "{out}");
        let total = out.lines().find(|l| l.ends_with(" nps")).expect("total");
        assert!(
            total.split(' ').next().unwrap().parse::<u64>().unwrap() > 0,
            "{out}"
        );
        // The variant and the game are untouched.
        assert!(
            out.contains("Fen: rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"),
            "{out}"
        );
    }

    #[test]
    fn no_legal_move_answers_bestmove_none() {
        let out = session(&[
            "position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "go depth 3",
        ]);
        assert!(out.ends_with("bestmove (none)\n"), "{out}");
    }

    /// A 10x10 board: squares like `a10`, two-digit FEN counts. No such
    /// variant is built in yet, so the test builds one.
    fn ten_by_ten() -> &'static fers_core::Variant {
        let mut spec = variant::chess_spec();
        spec.name = "chess10".into();
        spec.files = 10;
        spec.ranks = 10;
        spec.castling = false;
        spec.start_fen =
            "rnbqkbnr2/pppppppp2/10/10/10/10/10/10/PPPPPPPP2/RNBQKBNR2 w - - 0 1".into();
        variant::leak(fers_core::Variant::build(spec).expect("a 10x10 chess builds"))
    }

    #[test]
    fn boards_beyond_8x8_use_our_parsers() {
        let mut uci = Uci::new(Vec::new());
        uci.engine_mut().use_variant(ten_by_ten());
        let fen = "r3k5/10/10/10/10/10/10/10/10/R3K4R b - - 7 30";
        for line in [
            format!("position fen {fen}"),
            "d".to_string(),
            "position startpos moves a2a4 a9a7 b1c3 a7a6".to_string(),
            "d".to_string(),
            "go depth 2 searchmoves a1a2 a1a3 h2h3".to_string(),
            "position fen 4k5/10/10/10/10/10/10/10/10/R3K5 w - - 0 1 moves a1a10".to_string(),
            "d".to_string(),
        ] {
            uci.handle_line(&line).expect("Vec output");
        }
        let out = String::from_utf8(uci.output().clone()).expect("UTF-8");
        let fens: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("Fen: "))
            .collect();
        assert_eq!(
            fens,
            [
                fen,
                "rnbqkbnr2/1ppppppp2/10/10/p9/10/P9/2N7/1PPPPPPP2/R1BQKBNR2 w - - 0 3",
                "R3k5/10/10/10/10/10/10/10/10/4K5 b - - 1 1",
            ],
            "{out}"
        );
        // The first go had legal searchmoves (no error about them).
        assert!(!out.contains("error"), "{out}");
        assert!(!out.contains("searchmoves"), "{out}");
        uci.wait_for_search().expect("Vec output");
        let out = String::from_utf8(uci.output().clone()).expect("UTF-8");
        let best = out
            .lines()
            .find(|l| l.starts_with("bestmove"))
            .expect("bestmove");
        assert!(
            ["bestmove a1a2", "bestmove a1a3", "bestmove h2h3"]
                .iter()
                .any(|b| best.starts_with(b)),
            "{out}"
        );
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let fen = "position fen 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
        let out = session(&[
            "setoption name UCI_Chess960 value true",
            fen,
            "go perft 1",
            &format!("{fen} moves e1g1"),
            "d",
        ]);
        assert!(out.contains("\ne1g1: 1\n"), "king takes the g1 rook: {out}");
        assert!(out.contains("\ne1b1: 1\n"), "king takes the b1 rook: {out}");
        assert!(
            out.contains("Fen: 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1\n"),
            "{out}"
        );
        // Without the option e1g1 is the king's own step, and e1b1 illegal.
        let out = session(&[fen, "go perft 1"]);
        assert!(!out.contains("e1b1"), "{out}");
    }

    #[test]
    fn events_are_formatted_as_before() {
        let root = start();
        let e4 = root.parse_move("e2e4").expect("legal");
        let mut next = root.clone();
        next.play(e4);
        let e5 = next.parse_move("e7e5").expect("legal");
        let info = |score, bound| {
            SearchEvent::Info(SearchInfo {
                depth: 7,
                seldepth: 11,
                multipv: 2,
                score,
                bound,
                nodes: 12345,
                nps: 678,
                hashfull: 9,
                time_ms: 18,
                pv: vec![e4, e5],
            })
        };
        let f = |e: &SearchEvent| format_event(&root, e, Notation::Fers);
        assert_eq!(
            f(&info(Score::Cp(-31), Bound::Exact)),
            "info depth 7 seldepth 11 multipv 2 score cp -31 nodes 12345 nps 678 \
             hashfull 9 time 18 pv e2e4 e7e5"
        );
        assert!(f(&info(Score::Mate(3), Bound::Lower)).contains(" score mate 2 lowerbound nodes "));
        assert!(
            f(&info(Score::Mate(-4), Bound::Upper)).contains(" score mate -2 upperbound nodes ")
        );
        let none = SearchEvent::NoLegalMove {
            score: Score::Mate(0),
        };
        assert_eq!(f(&none), "info depth 0 score mate 0");
        let best = |best, ponder| SearchEvent::BestMove { best, ponder };
        assert_eq!(f(&best(Some(e4), Some(e5))), "bestmove e2e4 ponder e7e5");
        assert_eq!(f(&best(Some(e4), None)), "bestmove e2e4");
        assert_eq!(f(&best(None, None)), "bestmove (none)");
    }

    #[test]
    fn run_stops_at_quit_or_end_of_input() {
        let mut out = Vec::new();
        run(&b"isready\nquit\nisready\n"[..], &mut out).expect("runs");
        assert_eq!(out, b"readyok\n");
        let mut out = Vec::new();
        // Not UTF-8, no final newline: still read, still answered.
        run(&b"\xff\xfe\nisready"[..], &mut out).expect("runs");
        let text = String::from_utf8(out).expect("UTF-8 output");
        assert!(
            text.starts_with("info string error: unknown command"),
            "{text}"
        );
        assert!(text.ends_with("readyok\n"), "{text}");
    }
}
