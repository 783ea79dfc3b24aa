//! The XBoard/CECP front-end (protocol version 2), chosen by the first
//! command `xboard`.
//!
//! The engine plays one side (`engine_side`) or none (force mode); a move
//! from the GUI (`usermove e2e4`) is played on the game, then the engine
//! thinks if it is its turn, and plays its own move on the game when the
//! search ends (`move e7e5`). Thinking output is CECP's `ply score time
//! nodes pv` (score in centipawns, mates as 100000 + moves, time in
//! centiseconds; `?`/`!` after a fail-low/high PV). Moves are in fers
//! notation (SPEC 4), which is CECP's coordinate notation on boards up to 9
//! ranks. With `hard`, after its move the engine plays the expected reply
//! on its game (`Hint: ...`) and searches on; the GUI's next move is either
//! that reply (the search goes on as the engine's own) or not (the reply is
//! taken back first). Every command that stops a search takes it back.
//!
//! Variants: `feature variants` lists every variant fers plays (orthodox
//! chess as `normal`); for any other, `variant X` is answered with `setup`
//! (the pieces, board size and start position) and one `piece L& <Betza>`
//! line per piece, so XBoard can draw and move pieces it has never seen.
//! Where Betza cannot say how a game's pieces capture, [`rules_for`] says
//! so and the GUI is told its own legality test cannot work (see
//! [`XBoardRules::legality_off`]).

use crate::engine::{Engine, OptionEffect, StartPos};
use crate::events::{line_text, Bound, Score, SearchEvent, SearchInfo};
use crate::notation::Notation;
use crate::protocol::{printable, Events, Flow, FrontEnd, Report};
use crate::timeman::Limits;
use crossbeam_channel::Receiver;
use fers_core::position::KING_SIDE;
use fers_core::{Color, Move, Outcome, Position, Termination, Variant};
use std::io::{self, Write};

/// Longest command quoted back in an error.
const MAX_QUOTE: usize = 200;

/// XBoard's piece types in the order of its `pieceToCharTable` (22 per
/// colour): the letter XBoard draws in each slot by default.
const XBOARD_SLOTS: &str = "PNBRQFEACWMOHIJGDVLSUK";

/// What the running search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// The engine's move in the game: play it when the search ends.
    Move,
    /// Analysis, or a search whose move is no longer wanted.
    NoMove,
}

/// The time control of `level`, `st`, `sd` and the clocks of `time`/`otim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clock {
    /// Moves per session (0: the whole game).
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    /// `st`: exact seconds per move, in ms.
    per_move_ms: Option<u64>,
    depth: Option<u32>,
    /// `time` / `otim`, in ms (the GUI sends centiseconds).
    own_ms: Option<u64>,
    opp_ms: Option<u64>,
}

impl Default for Clock {
    fn default() -> Self {
        // XBoard's own default, 40 moves in 5 minutes.
        Clock {
            mps: 40,
            base_ms: 300_000,
            inc_ms: 0,
            per_move_ms: None,
            depth: None,
            own_ms: None,
            opp_ms: None,
        }
    }
}

impl Clock {
    /// The limits of a search for the side to move of `pos`.
    fn limits(&self, pos: &Position) -> Limits {
        let mut l = Limits {
            depth: self.depth.map(|d| d.clamp(1, 1000) as i32),
            ..Limits::default()
        };
        if let Some(ms) = self.per_move_ms {
            l.movetime = Some(ms);
            return l;
        }
        let own = self.own_ms.unwrap_or(self.base_ms);
        let opp = self.opp_ms.unwrap_or(self.base_ms);
        let (w, b) = match pos.side_to_move() {
            Color::White => (own, opp),
            Color::Black => (opp, own),
        };
        l.wtime = Some(w);
        l.btime = Some(b);
        l.winc = Some(self.inc_ms);
        l.binc = Some(self.inc_ms);
        if self.mps > 0 {
            let done = u32::from(pos.fullmove_number().saturating_sub(1));
            l.movestogo = Some(self.mps - done % self.mps);
        }
        l
    }
}

/// How XBoard is told a variant's rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct XBoardRules {
    /// The `setup` line.
    pub setup: String,
    /// One `piece` line per piece whose moves Betza expresses.
    pub pieces: Vec<String>,
    /// `Some(reason)` when some capture cannot be said in Betza (pieces
    /// Betza cannot write today; later conditions, Baroque's capture styles,
    /// Fanorona's chains): XBoard's legality test would then refuse fers's
    /// moves, so the GUI is told to switch it off.
    pub legality_off: Option<String>,
}

/// The piece letters of `v` placed in XBoard's 22 slots: each piece in the
/// slot of its own letter where free, the royal piece in the king's slot,
/// the others in the free slots. `None` when there are more pieces than
/// slots.
fn piece_table(v: &'static Variant) -> Option<String> {
    let mut slots: Vec<char> = vec!['.'; XBOARD_SLOTS.len()];
    let mut rest = Vec::new();
    for (kind, p) in v.pieces.iter().enumerate() {
        let upper = p.letter.to_ascii_uppercase();
        let slot = if Some(kind as u8) == v.royal_kind {
            Some(XBOARD_SLOTS.len() - 1)
        } else {
            XBOARD_SLOTS
                .find(upper)
                .filter(|&i| i + 1 < XBOARD_SLOTS.len())
        };
        match slot {
            Some(i) if slots[i] == '.' => slots[i] = upper,
            _ => rest.push(upper),
        }
    }
    for c in rest {
        let free = slots[..slots.len() - 1].iter().position(|&s| s == '.')?;
        slots[free] = c;
    }
    let white: String = slots.iter().collect();
    Some(white.clone() + &white.to_ascii_lowercase())
}

/// A piece's moves in XBoard's Betza, if they have one. Pawns and the
/// castling king are written out (fers's pawn family has no Betza atom);
/// a pawn that may capture en passant says so (`e`), or XBoard refuses
/// the capture when it comes.
fn piece_betza(v: &'static Variant, kind: usize) -> Option<String> {
    let p = &v.pieces[kind];
    if p.is_pawn() {
        let double = if v.double_step { "ifmnD" } else { "" };
        let ep = if v.en_passant && v.double_step {
            "e"
        } else {
            ""
        };
        return Some(format!("fmWfc{ep}F{double}"));
    }
    let mut b = fers_core::betza::write(&p.movement)?;
    if Some(kind as u8) == v.royal_kind && v.castling {
        if let Some(start) = royal_start_file(v) {
            let steps = (i32::from(v.castling_files[KING_SIDE]) - i32::from(start)).abs();
            if steps > 0 {
                b += &format!("O{steps}");
            }
        }
    }
    Some(b)
}

/// The file of White's royal piece in the start position.
fn royal_start_file(v: &'static Variant) -> Option<u8> {
    let pos = Position::startpos(v);
    pos.royal_square(Color::White)
        .map(|sq| v.geometry.file_of(sq))
}

/// How to tell XBoard the rules of `v` (the hook every later capture rule
/// reports through: a game whose captures Betza cannot express sets
/// `legality_off`). `None` for orthodox chess, which XBoard knows.
pub fn rules_for(v: &'static Variant) -> Option<XBoardRules> {
    if v.name == "chess" && v.conditions.is_empty() {
        return None;
    }
    let g = v.geometry;
    let table = piece_table(v);
    let mut pieces = Vec::new();
    let mut unsaid = Vec::new();
    for (kind, p) in v.pieces.iter().enumerate() {
        match piece_betza(v, kind) {
            Some(b) => pieces.push(format!("piece {}& {b}", p.letter.to_ascii_uppercase())),
            None => unsaid.push(p.name.clone()),
        }
    }
    let mut legality_off = None;
    if !unsaid.is_empty() {
        legality_off = Some(format!("Betza cannot express {}", unsaid.join(", ")));
    }
    if !v.conditions.is_empty() {
        // Rebirths, colour changes, paralysis...: what a move does to the
        // board is no longer what the pieces' Betza says.
        let names: Vec<&str> = v.conditions.iter().map(|c| c.name()).collect();
        legality_off = Some(format!(
            "the conditions {} change captures",
            names.join(", ")
        ));
    }
    if v.holes.vanish || v.holes.skip {
        legality_off = Some("squares vanish and moves skip the holes".into());
    }
    if v.capture.is_some() {
        legality_off = Some("pieces capture passively and immobilize".into());
    }
    if v.chains.is_some() {
        legality_off = Some("a turn is a chain of captures by approach and withdrawal".into());
    }
    if table.is_none() {
        legality_off = Some(format!("{} piece kinds exceed XBoard's 22", v.pieces.len()));
    }
    let table = table.unwrap_or_else(|| "-".into());
    // A full FEN: a built-in start may be written the vchess site's way.
    let start = Position::startpos(v).to_full_fen();
    Some(XBoardRules {
        setup: format!("setup ({table}) {}x{}+0_fairy {start}", g.files, g.ranks),
        pieces,
        legality_off,
    })
}

/// The variant names of `feature variants`: XBoard calls chess `normal`.
fn xboard_name(name: &str) -> &str {
    if name == "chess" {
        "normal"
    } else {
        name
    }
}

/// The XBoard front-end.
pub struct XBoard<W: Write> {
    engine: Engine,
    out: W,
    events: Events,
    /// The side the engine plays; `None` is force mode.
    engine_side: Option<Color>,
    post: bool,
    analyzing: bool,
    purpose: Purpose,
    clock: Clock,
    /// `hard`: think on the opponent's time.
    ponder: bool,
    /// The reply being pondered on, played on the game speculatively
    /// (taken back unless the GUI sends that very move), and the position
    /// it is played from.
    pondering: Option<(Move, Position)>,
}

impl<W: Write> XBoard<W> {
    pub fn new(out: W) -> Self {
        XBoard::with_engine(out, Engine::new())
    }

    /// A front-end over an engine prepared beforehand (`fers load FILE`).
    pub fn with_engine(out: W, engine: Engine) -> Self {
        XBoard {
            engine,
            out,
            events: Events::default(),
            engine_side: Some(Color::Black),
            post: false,
            analyzing: false,
            purpose: Purpose::NoMove,
            clock: Clock::default(),
            ponder: false,
            pondering: None,
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// For tests: to select a variant that is not built in.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The output written so far (for in-process tests over a `Vec<u8>`).
    pub fn output(&self) -> &W {
        &self.out
    }

    /// Handles one line; see [`FrontEnd::handle_line`].
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        self.drain()?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Ok(Flow::Continue);
        };
        if cmd == "quit" {
            self.finish()?;
            return Ok(Flow::Quit);
        }
        if !self.game_command(cmd, args, line)? {
            self.setting_command(cmd, args, line)?;
        }
        Ok(Flow::Continue)
    }

    /// The commands about the game and who moves; `false` if `cmd` is none.
    fn game_command(&mut self, cmd: &str, args: &[&str], line: &str) -> io::Result<bool> {
        match cmd {
            "new" => self.new_game()?,
            "variant" => self.variant(args, line)?,
            "force" | "result" => {
                self.halt(false)?;
                self.engine_side = None;
            }
            "go" | "playother" => {
                self.halt(false)?;
                let stm = self.engine.position().side_to_move();
                let go = cmd == "go";
                self.engine_side = Some(if go { stm } else { stm.flip() });
                if go {
                    self.think()?;
                }
            }
            "?" if self.purpose == Purpose::Move && self.pondering.is_none() => self.halt(true)?,
            "?" => {}
            "usermove" => match args {
                [m] => self.user_move(m)?,
                _ => self.error("bad argument", line)?,
            },
            "undo" => self.take_back(1, line)?,
            "remove" => self.take_back(2, line)?,
            "setboard" => self.setboard(line)?,
            "analyze" | "exit" => {
                self.halt(false)?;
                self.analyzing = cmd == "analyze";
                if self.analyzing {
                    self.think()?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Settings, handshake and the commands fers ignores; anything else is
    /// a bare move or an unknown command.
    fn setting_command(&mut self, cmd: &str, args: &[&str], line: &str) -> io::Result<()> {
        match cmd {
            "protover" => self.features()?,
            "ping" => {
                let n = printable(args.first().unwrap_or(&""), MAX_QUOTE);
                writeln!(self.out, "pong {n}")?
            }
            "level" | "st" | "sd" | "time" | "otim" => {
                if let Err(why) = self.time_control(cmd, args) {
                    self.error(&why, line)?;
                }
            }
            "post" | "nopost" => self.post = cmd == "post",
            "memory" => self.option_from("Hash", args, line)?,
            "cores" => self.option_from("Threads", args, line)?,
            "option" => self.option_command(line)?,
            // Accepted and ignored: fers needs nothing for these.
            "hard" => self.ponder = true,
            "easy" => {
                self.halt(false)?;
                self.ponder = false;
            }
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "." | "white" | "black" => {}
            _ => self.bare_word(cmd, line)?,
        }
        Ok(())
    }

    /// A word that is no command: a move without `usermove` (old GUIs),
    /// or an unknown command.
    fn bare_word(&mut self, word: &str, line: &str) -> io::Result<()> {
        if Notation::Fers.parse(self.engine.position(), word).is_ok() {
            return self.user_move(word);
        }
        self.error("unknown command", line)
    }

    fn features(&mut self) -> io::Result<()> {
        writeln!(
            self.out,
            "feature setboard=1 usermove=1 ping=1 playother=1 time=1 draw=0 colors=0 \
             analyze=1 memory=1 smp=1 reuse=1 sigint=0 myname=\"{} {}\" \
             variants=\"{}\"",
            crate::uci::ENGINE_NAME,
            env!("CARGO_PKG_VERSION"),
            self.variants_feature()
        )?;
        for def in crate::options::definitions_with(&self.engine.variant_names()) {
            if let Some(f) = option_feature(&def) {
                writeln!(self.out, "feature option=\"{f}\"")?;
            }
        }
        writeln!(self.out, "feature done=1")
    }

    /// The `variants` feature: every variant fers plays, in XBoard's names.
    fn variants_feature(&self) -> String {
        let names: Vec<String> = self
            .engine
            .variant_names()
            .iter()
            .map(|n| xboard_name(n).to_string())
            .collect();
        names.join(",")
    }

    /// `new`: orthodox chess from the start, the engine playing Black.
    fn new_game(&mut self) -> io::Result<()> {
        self.halt(false)?;
        let _ = self.engine.set_variant("chess");
        self.engine.clear_hash();
        self.engine_side = Some(Color::Black);
        self.clock.depth = None;
        self.clock.per_move_ms = None;
        self.resume_analysis()
    }

    fn variant(&mut self, args: &[&str], line: &str) -> io::Result<()> {
        let [name] = args else {
            return self.error("bad argument", line);
        };
        let name = if name.eq_ignore_ascii_case("normal") {
            "chess"
        } else {
            name
        };
        self.halt(false)?;
        match self.engine.set_variant(name) {
            Ok(v) => {
                if let Some(rules) = rules_for(v) {
                    self.send_rules(&rules)?;
                }
                self.resume_analysis()
            }
            Err(_) => self.error("unknown variant", line),
        }
    }

    fn send_rules(&mut self, rules: &XBoardRules) -> io::Result<()> {
        writeln!(self.out, "{}", rules.setup)?;
        for p in &rules.pieces {
            writeln!(self.out, "{p}")?;
        }
        if let Some(why) = &rules.legality_off {
            // XBoard would refuse moves its own generator does not know.
            writeln!(
                self.out,
                "telluser fers: {why}; switch off XBoard's legality test (-testLegality false)"
            )?;
        }
        Ok(())
    }

    fn time_control(&mut self, cmd: &str, args: &[&str]) -> Result<(), String> {
        let num = |i: usize| -> Result<i64, String> {
            args.get(i)
                .and_then(|t| t.parse::<i64>().ok())
                .ok_or_else(|| "bad argument".to_string())
        };
        match cmd {
            "level" => {
                if args.len() != 3 {
                    return Err("bad argument".into());
                }
                let mps = u32::try_from(num(0)?).map_err(|_| "bad argument")?;
                let base = parse_base(args[1]).ok_or("bad argument")?;
                let inc = args[2]
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0);
                let inc = inc.ok_or("bad argument")?;
                self.clock.mps = mps;
                self.clock.base_ms = base;
                self.clock.inc_ms = (inc * 1000.0).min(1e12) as u64;
                self.clock.per_move_ms = None;
            }
            "st" => {
                let s = u64::try_from(num(0)?).map_err(|_| "bad argument")?;
                self.clock.per_move_ms = Some(s.saturating_mul(1000).max(1));
            }
            "sd" => {
                let d = u32::try_from(num(0)?).map_err(|_| "bad argument")?;
                self.clock.depth = Some(d.max(1));
            }
            // Centiseconds; a clock below zero means "move at once".
            "time" => self.clock.own_ms = Some(num(0)?.max(0).saturating_mul(10) as u64),
            _ => self.clock.opp_ms = Some(num(0)?.max(0).saturating_mul(10) as u64),
        }
        Ok(())
    }

    fn user_move(&mut self, text: &str) -> io::Result<()> {
        if self.ponder_hit(text) {
            return Ok(());
        }
        self.halt(false)?;
        match self.engine.play_text(text, Notation::Fers) {
            Ok(()) => {
                let engine_to_move =
                    self.engine_side == Some(self.engine.position().side_to_move());
                if self.analyzing || engine_to_move {
                    self.think()
                } else {
                    Ok(())
                }
            }
            Err(_) => {
                writeln!(self.out, "Illegal move: {}", printable(text, MAX_QUOTE))?;
                self.resume_analysis()
            }
        }
    }

    fn take_back(&mut self, n: usize, line: &str) -> io::Result<()> {
        self.halt(false)?;
        if !self.engine.undo(n) {
            self.error("command not legal now", line)?;
        }
        self.resume_analysis()
    }

    fn setboard(&mut self, line: &str) -> io::Result<()> {
        let fen = line.trim_start()["setboard".len()..].trim();
        self.halt(false)?;
        match self.engine.set_position(StartPos::Fen(fen), &[]) {
            Ok(()) => self.resume_analysis(),
            Err(e) => {
                self.error(&format!("illegal position: {e}"), line)?;
                self.resume_analysis()
            }
        }
    }

    /// `memory N` / `cores N`: the engine options they stand for.
    fn option_from(&mut self, name: &str, args: &[&str], line: &str) -> io::Result<()> {
        let [value] = args else {
            return self.error("bad argument", line);
        };
        self.halt(false)?;
        if let Err(e) = self.engine.set_option(name, Some(value)) {
            self.error(&e.to_string(), line)?;
        }
        Ok(())
    }

    /// `option NAME=VALUE` (or `option NAME` for a button).
    fn option_command(&mut self, line: &str) -> io::Result<()> {
        let rest = line.trim_start()["option".len()..].trim();
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest, None),
        };
        // CECP sends check boxes as 0/1.
        let value = match value {
            Some("1") if is_check(name) => Some("true"),
            Some("0") if is_check(name) => Some("false"),
            v => v,
        };
        self.halt(false)?;
        match self.engine.set_option(name, value) {
            Ok(OptionEffect::VariantsLoaded(report)) => {
                for why in report.into_iter().filter_map(Result::err) {
                    let why = printable(&why, MAX_QUOTE);
                    writeln!(self.out, "telluser fers: {why}")?;
                }
                // The GUI offers the new variants from the list sent again.
                let names = self.variants_feature();
                writeln!(self.out, "feature variants=\"{names}\"")
            }
            Ok(_) => Ok(()),
            Err(e) => self.error(&e.to_string(), line),
        }
    }

    /// Starts thinking: analysis, or the engine's move (unless the game is
    /// over, which is then announced).
    fn think(&mut self) -> io::Result<()> {
        if self.analyzing {
            self.purpose = Purpose::NoMove;
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let reporter = self.events.reporter(self.engine.position());
            self.engine.go(limits, reporter);
            return Ok(());
        }
        if let Some(outcome) = self.engine.game().outcome() {
            return self.announce(outcome);
        }
        self.purpose = Purpose::Move;
        let limits = self.clock.limits(self.engine.position());
        let reporter = self.events.reporter(self.engine.position());
        self.engine.go(limits, reporter);
        Ok(())
    }

    fn resume_analysis(&mut self) -> io::Result<()> {
        if self.analyzing {
            self.think()?;
        }
        Ok(())
    }

    /// Stops the running search and writes its last events; its move is
    /// played only when `play` (the `?` command) and it was wanted.
    fn halt(&mut self, play: bool) -> io::Result<()> {
        if !play || self.pondering.is_some() {
            self.purpose = Purpose::NoMove;
        }
        self.engine.stop();
        self.engine.wait();
        self.drain()?;
        if self.pondering.take().is_some() {
            // The speculative reply was not played: take it back.
            self.engine.undo(1);
        }
        Ok(())
    }

    /// The GUI played the reply being pondered on: the search goes on as
    /// the engine's own. `false` when `text` is another move (or none is
    /// pondered).
    fn ponder_hit(&mut self, text: &str) -> bool {
        let hit = match &self.pondering {
            Some((p, before)) => Notation::Fers.parse(before, text) == Ok(*p),
            None => false,
        };
        if hit {
            self.pondering = None;
            self.engine.ponderhit();
        }
        hit
    }

    /// After the engine's move: plays the expected reply and searches the
    /// position after it (`go ponder`), if `hard` and the game goes on.
    fn start_pondering(&mut self, reply: Option<Move>) -> io::Result<()> {
        let Some(p) = reply.filter(|_| self.ponder && !self.analyzing) else {
            return Ok(());
        };
        let before = self.engine.position().clone();
        let text = Notation::Fers.format(&before, p);
        if !self.engine.play_move(p) {
            return Ok(());
        }
        if self.engine.game().outcome().is_some() {
            self.engine.undo(1);
            return Ok(());
        }
        // Thinking lines then start after the hint, which CECP allows
        // only when the hint was sent first.
        writeln!(self.out, "Hint: {text}")?;
        self.pondering = Some((p, before));
        self.purpose = Purpose::Move;
        let mut limits = self.clock.limits(self.engine.position());
        limits.ponder = true;
        let reporter = self.events.reporter(self.engine.position());
        self.engine.go(limits, reporter);
        Ok(())
    }

    fn drain(&mut self) -> io::Result<()> {
        while let Some(r) = self.events.try_next() {
            self.report(r)?;
        }
        Ok(())
    }

    fn report(&mut self, r: Report) -> io::Result<()> {
        match &r.event {
            SearchEvent::Info(info) if self.post && info.multipv == 1 => {
                let line = thinking_line(&r.root, info);
                writeln!(self.out, "{line}")
            }
            SearchEvent::BestMove { best, ponder } => self.engine_moved(&r.root, *best, *ponder),
            _ => Ok(()),
        }
    }

    /// The search for the engine's move has ended: play and send it.
    fn engine_moved(
        &mut self,
        root: &Position,
        best: Option<Move>,
        reply: Option<Move>,
    ) -> io::Result<()> {
        let wanted = self.purpose == Purpose::Move
            && !self.analyzing
            && root.key() == self.engine.position().key()
            && self.engine_side == Some(root.side_to_move());
        if !wanted {
            return Ok(());
        }
        self.purpose = Purpose::NoMove;
        if let Some(m) = best {
            let text = Notation::Fers.format(root, m);
            if self.engine.play_move(m) {
                writeln!(self.out, "move {text}")?;
            }
        }
        match self.engine.game().outcome() {
            Some(outcome) => self.announce(outcome),
            None => self.start_pondering(reply),
        }
    }

    /// A result by rule: `1-0 {White mates}` and the like.
    fn announce(&mut self, outcome: Outcome) -> io::Result<()> {
        writeln!(self.out, "{}", result_line(outcome))
    }

    /// `Error (reason): command`, the command quoted printably and cut.
    fn error(&mut self, why: &str, line: &str) -> io::Result<()> {
        writeln!(
            self.out,
            "Error ({}): {}",
            printable(why, MAX_QUOTE),
            printable(line.trim(), MAX_QUOTE)
        )
    }

    pub fn finish(&mut self) -> io::Result<()> {
        self.halt(false)?;
        self.out.flush()
    }
}

/// An option as CECP's `feature option="..."` value, or `None` for those
/// CECP has its own commands for (`variant`, `memory`, `cores`, `hard`) and
/// `UCI_Chess960` (XBoard plays Chess960 as a variant of its own).
fn option_feature(def: &crate::options::OptionDef) -> Option<String> {
    use crate::options::{OptionId, OptionKind};
    if matches!(
        def.id,
        OptionId::UciVariant
            | OptionId::UciChess960
            | OptionId::Hash
            | OptionId::Threads
            | OptionId::Ponder
    ) {
        return None;
    }
    let name = def.name;
    Some(match &def.kind {
        OptionKind::Check { default } => format!("{name} -check {}", u8::from(*default)),
        OptionKind::Spin { default, min, max } => format!("{name} -spin {default} {min} {max}"),
        OptionKind::Combo { default, vars } => {
            let choices: Vec<String> = vars
                .iter()
                .map(|v| {
                    if v == default {
                        format!("*{v}")
                    } else {
                        v.clone()
                    }
                })
                .collect();
            format!("{name} -combo {}", choices.join(" /// "))
        }
        // Paths: XBoard offers a file chooser for these.
        OptionKind::String { default }
            if def.id == OptionId::VariantPath || name.contains("File") =>
        {
            format!("{name} -file {default}")
        }
        OptionKind::String { default } => format!("{name} -string {default}"),
        OptionKind::Button => format!("{name} -button"),
    })
}

fn is_check(name: &str) -> bool {
    crate::options::find(name)
        .is_some_and(|d| matches!(d.kind, crate::options::OptionKind::Check { .. }))
}

/// `level`'s base time: minutes, or `minutes:seconds`; in ms.
fn parse_base(text: &str) -> Option<u64> {
    let (min, sec) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<u64>().ok()?, s.parse::<u64>().ok()?),
        None => (text.parse::<u64>().ok()?, 0),
    };
    if sec >= 60 {
        return None;
    }
    min.checked_mul(60)?.checked_add(sec)?.checked_mul(1000)
}

/// CECP's result line for a game over by rule.
pub fn result_line(outcome: Outcome) -> String {
    let why = |t: Termination| match t {
        Termination::Checkmate => "mates",
        Termination::Stalemate => "wins by stalemate",
        Termination::MoveRule => "wins by the move rule",
        Termination::Repetition => "wins by repetition",
        Termination::InsufficientMaterial => "wins on material",
    };
    match outcome {
        Outcome::Win(Color::White, t) => format!("1-0 {{White {}}}", why(t)),
        Outcome::Win(Color::Black, t) => format!("0-1 {{Black {}}}", why(t)),
        Outcome::Draw(t) => {
            let reason = match t {
                Termination::Stalemate => "Stalemate",
                Termination::MoveRule => "Draw by the move rule",
                Termination::Repetition => "Draw by repetition",
                Termination::InsufficientMaterial => "Draw by insufficient material",
                Termination::Checkmate => "Draw",
            };
            format!("1/2-1/2 {{{reason}}}")
        }
    }
}

/// A thinking line: `ply score centiseconds nodes pv`.
pub fn thinking_line(root: &Position, i: &SearchInfo) -> String {
    let score = match i.score {
        Score::Cp(cp) => cp,
        Score::Mate(plies) => {
            let m = Score::mate_moves(plies);
            if m > 0 {
                100_000 + m
            } else {
                -100_000 + m
            }
        }
    };
    let mark = match i.bound {
        Bound::Exact => "",
        Bound::Upper => "?",
        Bound::Lower => "!",
    };
    let pv = line_text(root, &i.pv, |p, m| Notation::Fers.format(p, m));
    format!(
        "{} {score} {} {} {pv}{mark}",
        i.depth,
        i.time_ms / 10,
        i.nodes
    )
}

impl<W: Write> FrontEnd for XBoard<W> {
    fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        XBoard::handle_line(self, line)
    }

    fn on_report(&mut self, report: Report) -> io::Result<()> {
        self.report(report)
    }

    fn reports(&self) -> Receiver<Report> {
        self.events.receiver()
    }

    fn finish(&mut self) -> io::Result<()> {
        XBoard::finish(self)
    }

    fn internal_error(&mut self) -> io::Result<()> {
        writeln!(self.out, "Error (internal error, a bug): command ignored")
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::registry::Registry;

    /// Runs lines through a fresh front-end, waiting for each search.
    fn session(lines: &[&str]) -> String {
        let mut x = XBoard::new(Vec::new());
        run_lines(&mut x, lines);
        String::from_utf8(x.output().clone()).expect("UTF-8")
    }

    /// Each line, then (so that a move search can end) a wait for it.
    fn run_lines(x: &mut XBoard<Vec<u8>>, lines: &[&str]) {
        for l in lines {
            x.handle_line(l).expect("Vec output");
            if !x.analyzing {
                x.engine.wait();
                x.drain().expect("Vec output");
            }
        }
        x.finish().expect("Vec output");
    }

    #[test]
    fn protover_lists_features_and_variants() {
        let out = session(&["xboard", "protover 2"]);
        let first = out.lines().next().expect("a line");
        for f in [
            "setboard=1",
            "usermove=1",
            "ping=1",
            "sigint=0",
            "myname=\"fers ",
            "variants=\"normal,wormhole,baroque,fanorona,andernach,",
            ",singlebox2\"",
        ] {
            assert!(first.contains(f), "{f}: {first}");
        }
        assert!(out.ends_with("feature done=1\n"), "{out}");
    }

    #[test]
    fn engine_plays_black_after_a_user_move() {
        let out = session(&["new", "sd 3", "ping 1", "usermove e2e4", "ping 2"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "pong 1", "{out}");
        let mv = lines
            .iter()
            .find_map(|l| l.strip_prefix("move "))
            .expect("a move");
        let mut pos = Position::startpos(fers_core::variant::chess());
        pos.play(pos.parse_move("e2e4").expect("legal"));
        assert!(pos.parse_move(mv).is_ok(), "{out}");
        assert_eq!(lines.last(), Some(&"pong 2"), "{out}");
    }

    #[test]
    fn force_mode_and_go() {
        let mut x = XBoard::new(Vec::new());
        run_lines(&mut x, &["new", "force", "usermove e2e4", "usermove e7e5"]);
        let out = String::from_utf8(x.output().clone()).expect("UTF-8");
        assert!(!out.contains("move "), "force mode does not move: {out}");
        assert_eq!(x.engine().game().moves().len(), 2);
        run_lines(&mut x, &["st 1", "sd 2", "go"]);
        let out = String::from_utf8(x.output().clone()).expect("UTF-8");
        assert!(out.contains("move "), "{out}");
        assert_eq!(
            x.engine().game().moves().len(),
            3,
            "the engine's move is played"
        );
        run_lines(&mut x, &["undo", "remove"]);
        assert_eq!(x.engine().game().moves().len(), 0);
    }

    #[test]
    fn thinking_output_in_cecp_format() {
        let out = session(&["new", "post", "sd 3", "force", "go"]);
        let think: Vec<&str> = out
            .lines()
            .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .collect();
        assert!(!think.is_empty(), "{out}");
        for l in think {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert!(w.len() >= 5, "{l}");
            for n in &w[..4] {
                assert!(n.parse::<i64>().is_ok(), "{l}");
            }
        }
        let out = session(&["new", "nopost", "sd 2", "force", "go"]);
        assert!(out.lines().all(|l| !l.starts_with('1')), "{out}");
    }

    #[test]
    fn bad_input_answers_errors_and_keeps_the_state() {
        let mut x = XBoard::new(Vec::new());
        run_lines(&mut x, &["new", "force", "usermove e2e4"]);
        let before = x.engine().position().to_fen();
        run_lines(
            &mut x,
            &[
                "usermove e2e4",
                "usermove",
                "setboard 8/8/8 w - - 0 1",
                "variant nosuch",
                "level x y z",
                "level 40 5:99 0",
                "sd -3",
                "frobnicate",
                "memory lots",
            ],
        );
        let out = String::from_utf8(x.output().clone()).expect("UTF-8");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "Illegal move: e2e4", "{out}");
        assert_eq!(lines[1], "Error (bad argument): usermove", "{out}");
        assert!(lines[2].starts_with("Error (illegal position: "), "{out}");
        assert_eq!(lines[3], "Error (unknown variant): variant nosuch", "{out}");
        assert_eq!(lines[4], "Error (bad argument): level x y z", "{out}");
        assert_eq!(lines[5], "Error (bad argument): level 40 5:99 0", "{out}");
        assert_eq!(lines[6], "Error (bad argument): sd -3", "{out}");
        assert_eq!(lines[7], "Error (unknown command): frobnicate", "{out}");
        assert!(lines[8].starts_with("Error (option Hash "), "{out}");
        assert_eq!(lines.len(), 9, "{out}");
        assert_eq!(x.engine().position().to_fen(), before);
        let mut y = XBoard::new(Vec::new());
        run_lines(&mut y, &["undo"]);
        let out = String::from_utf8(y.output().clone()).expect("UTF-8");
        assert_eq!(out, "Error (command not legal now): undo\n");
    }

    #[test]
    fn analysis_restarts_on_moves_and_ends_on_exit() {
        let mut x = XBoard::new(Vec::new());
        for l in ["new", "force", "post", "analyze", "usermove e2e4", "undo"] {
            x.handle_line(l).expect("Vec output");
        }
        std::thread::sleep(std::time::Duration::from_millis(150));
        x.handle_line("exit").expect("Vec output");
        x.finish().expect("Vec output");
        let out = String::from_utf8(x.output().clone()).expect("UTF-8");
        assert!(!out.contains("move "), "analysis never moves: {out}");
        assert!(out.lines().any(|l| l.starts_with("1 ")), "{out}");
        assert_eq!(x.engine().game().moves().len(), 0);
    }

    #[test]
    fn game_over_is_announced() {
        // Fool's mate: Black to move mates; the engine plays Black. Every
        // move before the mate is entered in force mode, so the test does
        // not depend on what the engine would have replied to f2f3.
        let out = session(&[
            "new",
            "sd 2",
            "force",
            "usermove f2f3",
            "usermove e7e5",
            "usermove g2g4",
            "playother",
            "go",
        ]);
        assert!(out.contains("move d8h4"), "{out}");
        assert!(out.contains("0-1 {Black mates}"), "{out}");
    }

    fn load(text: &str) -> &'static Variant {
        let mut r = Registry::new();
        let names: Vec<String> = r
            .load("test.ini", text)
            .into_iter()
            .map(|x| x.expect("loads"))
            .collect();
        r.get(&names[0]).expect("loaded")
    }

    #[test]
    fn engine_defined_variants_get_setup_and_piece_lines() {
        let v = load(
            "[capa:chess]\nfiles = 10\npiece.a = betza:BN\npiece.c = betza:RN\n\
             start = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n\
             promotion = q r b n a c\ncastlingKingsideFile = i\ncastlingQueensideFile = c\n",
        );
        let r = rules_for(v).expect("not orthodox chess");
        assert_eq!(
            r.setup,
            "setup (PNBRQ..AC............Kpnbrq..ac............k) 10x8+0_fairy \
             rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
        );
        assert!(
            r.pieces.contains(&"piece P& fmWfceFifmnD".to_string()),
            "{r:?}"
        );
        assert!(r.pieces.contains(&"piece N& N".to_string()), "{r:?}");
        assert!(r.pieces.contains(&"piece K& KO3".to_string()), "{r:?}");
        assert!(r.pieces.iter().any(|p| p.starts_with("piece A& ")), "{r:?}");
        assert_eq!(r.legality_off, None);
        assert!(rules_for(fers_core::variant::chess()).is_none());
    }

    #[test]
    fn conditions_switch_the_gui_legality_test_off() {
        let v = load("[circe-test:chess]\nconditions = circe\n");
        let r = rules_for(v).expect("conditions need rules");
        let why = r.legality_off.clone().expect("Betza cannot say Circe");
        assert!(why.contains("circe"), "{why}");
        // The pieces themselves are still described.
        assert!(r.pieces.contains(&"piece N& N".to_string()), "{r:?}");
    }

    #[test]
    fn variant_command_sends_the_rules() {
        let v = load("[nr:chess]\npiece.n = nightrider\n");
        let mut x = XBoard::new(Vec::new());
        // Registered through the engine, as VariantPath does.
        let path = std::env::temp_dir().join(format!("fers-xb-{}.ini", std::process::id()));
        std::fs::write(&path, "[nr:chess]\npiece.n = nightrider\n").expect("temp file");
        let p = path.to_string_lossy().into_owned();
        x.engine_mut()
            .set_option("VariantPath", Some(&p))
            .expect("loads");
        run_lines(
            &mut x,
            &["protover 2", "variant nr", "new", "variant normal"],
        );
        let _ = std::fs::remove_file(&path);
        let out = String::from_utf8(x.output().clone()).expect("UTF-8");
        assert!(out.contains(",singlebox2,nr\""), "{out}");
        assert!(
            out.contains("setup (PNBRQ................Kpnbrq................k) 8x8+0_fairy "),
            "{out}"
        );
        assert!(out.contains("\npiece N& NN\n"), "{out}");
        assert_eq!(x.engine().variant().name, "chess");
        assert_eq!(v.name, "nr");
    }

    #[test]
    fn options_are_features_and_variant_files_extend_the_list() {
        let out = session(&["protover 2"]);
        for f in [
            "feature option=\"VariantPath -file \"",
            "feature option=\"MultiPV -spin 1 1 500\"",
            "feature option=\"Move Overhead -spin 30 0 5000\"",
            "feature option=\"Clear Hash -button\"",
            "feature option=\"Use NNUE -check 1\"",
        ] {
            assert!(out.contains(f), "{f}\n{out}");
        }
        assert!(
            !out.contains("option=\"Hash"),
            "memory sets the hash: {out}"
        );
        let path = std::env::temp_dir().join(format!("fers-xbo-{}.ini", std::process::id()));
        std::fs::write(
            &path,
            "[nr2:chess]\npiece.n = nightrider\n[bad:chess]\nfiles = 99\n",
        )
        .expect("temp file");
        let out = session(&[
            &format!("option VariantPath={}", path.display()),
            "option Use NNUE=0",
        ]);
        let _ = std::fs::remove_file(&path);
        assert!(out.contains("telluser fers: "), "the broken section: {out}");
        assert!(out.contains("feature variants=\""), "{out}");
        assert!(out.contains(",nr2\""), "{out}");
        assert!(!out.contains("Error"), "{out}");
    }

    /// A line, then the end of the search it started (if any) and its
    /// events; a ponder search started by them keeps running.
    fn step(x: &mut XBoard<Vec<u8>>, line: &str) {
        x.handle_line(line).expect("Vec output");
        x.engine.wait();
        x.drain().expect("Vec output");
    }

    /// A game where the engine (Black) has answered 1. e4 and ponders: the
    /// front-end and the hint.
    fn pondering_after_e4() -> (XBoard<Vec<u8>>, Move) {
        let mut x = XBoard::new(Vec::new());
        for l in ["new", "hard", "sd 3", "usermove e2e4"] {
            step(&mut x, l);
        }
        let (hint, _) = x.pondering.clone().expect("pondering after its move");
        let out = String::from_utf8(x.output().clone()).expect("UTF-8");
        assert!(out.contains("\nHint: "), "{out}");
        assert_eq!(x.engine().game().moves().len(), 3, "e4, reply, hint");
        (x, hint)
    }

    fn engine_moves(x: &XBoard<Vec<u8>>) -> usize {
        let out = String::from_utf8(x.output().clone()).expect("UTF-8");
        out.lines().filter(|l| l.starts_with("move ")).count()
    }

    #[test]
    fn a_ponder_hit_becomes_the_engines_move() {
        let (mut x, hint) = pondering_after_e4();
        let (_, before) = x.pondering.clone().expect("pondering");
        let text = Notation::Fers.format(&before, hint);
        step(&mut x, &format!("usermove {text}"));
        assert_eq!(engine_moves(&x), 2);
        // e4, reply, the hint, the engine's answer (and maybe a new hint).
        let n = x.engine().game().moves().len();
        assert_eq!(n, 4 + usize::from(x.pondering.is_some()));
        x.finish().expect("Vec output");
        assert_eq!(
            x.engine().game().moves().len(),
            4,
            "finish takes a hint back"
        );
    }

    #[test]
    fn a_ponder_miss_takes_the_hint_back() {
        let (mut x, hint) = pondering_after_e4();
        let (_, before) = x.pondering.clone().expect("pondering");
        let mut list = fers_core::MoveList::new();
        before.legal_moves(&mut list);
        let other = list.iter().find(|&m| m != hint).expect("another move");
        let text = Notation::Fers.format(&before, other);
        step(&mut x, &format!("usermove {text}"));
        assert_eq!(engine_moves(&x), 2);
        assert_eq!(x.engine().game().moves()[2], other, "the real reply");
        x.finish().expect("Vec output");
        let (mut y, _) = pondering_after_e4();
        step(&mut y, "force");
        assert_eq!(
            y.engine().game().moves().len(),
            2,
            "force takes the hint back"
        );
        assert!(y.pondering.is_none());
        step(&mut y, "easy");
        y.finish().expect("Vec output");
    }

    #[test]
    fn clocks_become_limits() {
        let pos = Position::startpos(fers_core::variant::chess());
        let mut c = Clock {
            own_ms: Some(12_340),
            opp_ms: Some(5_000),
            ..Clock::default()
        };
        let l = c.limits(&pos);
        assert_eq!(
            (l.wtime, l.btime, l.movestogo),
            (Some(12_340), Some(5_000), Some(40))
        );
        c.per_move_ms = Some(2000);
        assert_eq!(c.limits(&pos).movetime, Some(2000));
        assert_eq!(parse_base("5"), Some(300_000));
        assert_eq!(parse_base("0:30"), Some(30_000));
        assert_eq!(parse_base("1:60"), None);
        assert_eq!(parse_base("x"), None);
    }
}
