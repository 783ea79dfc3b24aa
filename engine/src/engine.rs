//! The engine's state, independent of any protocol: the selected variant,
//! the game (start position plus moves) to think about, and the searchers.
//!
//! Front-ends (UCI, USI, XBoard) parse their commands into calls on
//! [`Engine`] and format what it returns, including the search's events. Every call that can fail checks
//! everything first and changes the state only when the whole request is
//! valid, so a bad command leaves the previous state in place (SPEC 6).

use crate::nnue::{NetId, Network, NnueMap};
use crate::notation::Notation;
use crate::options::{self, OptionId};
use crate::search::Reporter;
use crate::thread::{SearchOptions, SearchPool, SearchResult};
use crate::timeman::Limits;
use fers_core::registry::Registry;
use fers_core::{
    perft, variant, Conditions, FenError, Game, Move, MoveError, MoveList, Position, Variant,
};
use std::fmt;
use std::sync::Arc;

/// Deepest `perft` accepted. Far beyond anything that finishes (chess
/// perft 10 is 7e13 nodes); the bound only turns absurd numbers into an
/// error instead of a run that never ends.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Why a request was refused. The text is for `info string error:` lines.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineError {
    UnknownVariant(String),
    UnknownOption(String),
    BadOptionValue(String),
    BadFen(FenError),
    /// A move of a move list: its 1-based number and the reason (which
    /// quotes the move).
    BadMove {
        number: usize,
        error: MoveError,
    },
    BadPerftDepth(u32),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownVariant(v) => write!(f, "unknown variant '{v}'"),
            EngineError::UnknownOption(o) => write!(f, "unknown option '{o}'"),
            EngineError::BadOptionValue(why) => f.write_str(why),
            EngineError::BadFen(e) => write!(f, "{e}"),
            EngineError::BadMove { number, error } => write!(f, "move {number}: {error}"),
            EngineError::BadPerftDepth(d) => {
                write!(f, "perft depth {d} is not in 1..={MAX_PERFT_DEPTH}")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Where a position command starts from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StartPos<'a> {
    /// The selected variant's start position.
    Start,
    /// A FEN of the selected variant.
    Fen(&'a str),
}

/// What a successful `set_option` changed, for the front-end to announce.
#[derive(Clone, Debug)]
pub enum OptionEffect {
    /// Nothing to announce.
    None,
    /// The variant changed (and the game was reset to its start).
    Variant(&'static Variant),
    /// A variant file was read: per section, the name loaded or the error
    /// (`file:line: reason`). The good sections joined `UCI_Variant`.
    VariantsLoaded(Vec<Result<String, String>>),
    /// A remark for the GUI (`info string` in UCI and USI).
    Note(String),
}

/// Search settings set by options (`Threads`, `MultiPV`, ...). The table
/// itself lives with the searchers; `hash_mb` is its size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchSettings {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead: u64,
    pub use_nnue: bool,
}

/// The network `EvalFile` loaded, with its path.
#[derive(Clone, Debug)]
pub struct LoadedNet {
    pub path: String,
    pub net: Arc<Network>,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            hash_mb: options::DEFAULT_HASH_MB as usize,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: options::DEFAULT_MOVE_OVERHEAD as u64,
            use_nnue: true,
        }
    }
}

/// Per-root-move perft counts and their total.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PerftReport {
    /// `(move, leaf count)` in move generation order.
    pub divide: Vec<(String, u64)>,
    pub total: u64,
}

/// The protocol-independent engine state.
pub struct Engine {
    variant: &'static Variant,
    game: Game,
    /// Built-in variants and those loaded through `VariantPath`.
    registry: Registry,
    search: SearchSettings,
    /// The searchers and their table; one search at a time.
    pool: SearchPool,
    /// `UCI_Chess960`: castling moves are written king-takes-rook.
    chess960: bool,
    /// `OwnBook` and the book options.
    book: crate::book::EngineBook,
    /// The `UCI_Variant` chosen, and the `Conditions` played on top of it:
    /// `variant` is that variant under those conditions.
    base: &'static Variant,
    conditions: Conditions,
    /// Variants derived with conditions, built once each (by base variant
    /// and conditions).
    derived: Vec<(&'static Variant, Conditions, &'static Variant)>,
    /// `EvalFile`: the network loaded for a variant; searches of that
    /// variant (same name, board and piece set) use it.
    eval_net: Option<LoadedNet>,
    /// The networks variant files name (`network = PATH`), loaded and
    /// checked when the file is read, by variant.
    variant_nets: Vec<(&'static Variant, LoadedNet)>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// Orthodox chess from its start position.
    pub fn new() -> Engine {
        let v = variant::chess();
        let search = SearchSettings::default();
        Engine {
            variant: v,
            game: Game::new(Position::startpos(v)),
            registry: Registry::new(),
            pool: SearchPool::new(search.hash_mb),
            search,
            chess960: false,
            book: crate::book::EngineBook::default(),
            base: v,
            conditions: Conditions::NONE,
            derived: Vec::new(),
            eval_net: None,
            variant_nets: Vec::new(),
        }
    }

    /// Starts a search of the current position; returns at once. Events go
    /// to `reporter`, ending with `BestMove`. A running search is stopped
    /// first (its `BestMove` is still reported).
    pub fn go(&mut self, limits: Limits, reporter: Reporter) {
        match self.book.probe(&self.game, &limits) {
            crate::book::Probe::Move(m) => {
                if self.pool.is_searching() {
                    self.pool.stop();
                    let _ = self.pool.wait();
                }
                for event in crate::book::book_events(m) {
                    reporter(&event);
                }
                return;
            }
            crate::book::Probe::Error(why) => {
                reporter(&crate::events::SearchEvent::Book(
                    crate::events::BookNote::Error(why),
                ));
            }
            crate::book::Probe::Search => {}
        }
        let s = self.search;
        self.pool.options = SearchOptions {
            threads: s.threads,
            multipv: s.multipv,
            move_overhead: s.move_overhead,
            use_nnue: s.use_nnue,
            eval_net: self.network().map(|l| l.net.clone()),
        };
        self.pool.go(&self.game, limits, reporter);
    }

    /// The evaluation tables a search of the current position would use
    /// (the network of `EvalFile` where it fits, `Use NNUE`).
    pub fn eval_tables(&self) -> Arc<crate::evaluate::EvalTables> {
        crate::evaluate::EvalTables::for_search(
            self.variant,
            self.search.use_nnue,
            self.network().map(|l| &l.net),
        )
    }

    /// The fixed chess positions for `bench` without a file, with the
    /// evaluation a chess search would use: `Use NNUE`, and `EvalFile`'s
    /// network (the search keeps the embedded one if it is not for chess).
    pub fn standard_bench_set(&self) -> crate::bench::BenchSet {
        crate::bench::BenchSet::standard_with(
            self.search.use_nnue,
            self.eval_net.as_ref().map(|l| l.net.clone()),
        )
    }

    /// The positions of a FEN file of the current variant for `bench`,
    /// with the evaluation a search of it would use.
    pub fn bench_set(
        &self,
        path: &str,
    ) -> Result<crate::bench::BenchSet, crate::bench::BenchError> {
        crate::bench::BenchSet::read(
            self.variant,
            path,
            self.search.use_nnue,
            self.network().map(|l| l.net.clone()),
        )
    }

    /// The network `EvalFile` loaded, if any.
    pub fn eval_net(&self) -> Option<&LoadedNet> {
        self.eval_net.as_ref()
    }

    /// The network offered to searches of the current variant: `EvalFile`'s
    /// when it fits, else the one the variant file names, else
    /// `EvalFile`'s still (which the search then finds unfit, and uses the
    /// variant's default evaluation).
    pub fn network(&self) -> Option<&LoadedNet> {
        let v = self.variant;
        let fits = |l: &&LoadedNet| l.net.id == NetId::of(v);
        self.eval_net
            .as_ref()
            .filter(fits)
            .or_else(|| {
                self.variant_nets
                    .iter()
                    .find(|(w, _)| std::ptr::eq(*w, v))
                    .map(|(_, l)| l)
            })
            .or(self.eval_net.as_ref())
    }

    /// Loads the networks the variants just read from a file name: a file
    /// that cannot be read or does not fit its variant is an error in the
    /// report, and the variant plays with its default evaluation.
    fn load_variant_networks(&mut self, report: &mut Vec<Result<String, String>>) {
        let mut errors = Vec::new();
        for name in report.iter().filter_map(|r| r.as_ref().ok()) {
            let Some(v) = self.registry.get(name) else {
                continue;
            };
            self.variant_nets
                .retain(|(w, _)| !w.name.eq_ignore_ascii_case(name));
            let Some(path) = v.network.clone() else {
                continue;
            };
            let net = Network::load(&path).and_then(|net| {
                let net = Arc::new(net);
                NnueMap::with_network(v, net.clone())
                    .map(|_| net)
                    .map_err(|e| e.to_string())
            });
            match net {
                Ok(net) => self.variant_nets.push((v, LoadedNet { path, net })),
                Err(e) => errors.push(format!(
                    "variant {name}: network '{path}' refused: {e}; it plays with its default evaluation"
                )),
            }
        }
        report.extend(errors.into_iter().map(Err));
    }

    /// Asks the running search (if any) to stop.
    pub fn stop(&self) {
        self.pool.stop();
    }

    /// The opponent played the move pondered on: the search goes on.
    pub fn ponderhit(&self) {
        self.pool.ponderhit();
    }

    /// Waits for the running search (if any) to end; its result.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.pool.wait()
    }

    /// Is a search running? (Collects the result of one that has ended.)
    pub fn searching(&mut self) -> bool {
        self.pool.is_searching() && self.pool.try_result().is_none()
    }

    /// Empties the table and forgets what earlier searches learnt (new
    /// game, `Clear Hash`); stops a running search first.
    pub fn clear_hash(&mut self) {
        self.pool.clear_hash();
    }

    /// Is `UCI_Chess960` on?
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The game: start position, moves played, keys for repetitions.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The search settings chosen by options.
    pub fn search_settings(&self) -> SearchSettings {
        self.search
    }

    /// The current position (after the moves of the game).
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Selects an already built variant (one loaded from a variant file, or
    /// a test's) and resets the game to its start position.
    pub fn use_variant(&mut self, v: &'static Variant) {
        self.variant = v;
        self.new_game();
    }

    /// Starts a new game from the variant's start position.
    pub fn new_game(&mut self) {
        self.game = Game::new(Position::startpos(self.variant));
    }

    /// Every variant name: built-in, then loaded from variant files.
    pub fn variant_names(&self) -> Vec<String> {
        self.registry.names()
    }

    /// Selects a variant (built-in or loaded; case-insensitive) and resets
    /// the game to its start position.
    pub fn set_variant(&mut self, name: &str) -> Result<&'static Variant, EngineError> {
        let base = self
            .registry
            .get(name)
            .ok_or_else(|| EngineError::UnknownVariant(name.into()))?;
        let v = self.with_conditions(base, self.conditions)?;
        self.base = base;
        self.use_variant(v);
        Ok(v)
    }

    /// Sets the conditions played on top of the selected variant (all or
    /// nothing: an unknown name or a contradictory set changes nothing).
    pub fn set_conditions(&mut self, text: &str) -> Result<&'static Variant, EngineError> {
        let text = text.trim();
        let set: Conditions = if text == "<empty>" {
            Conditions::NONE
        } else {
            text.parse().map_err(EngineError::BadOptionValue)?
        };
        let v = self.with_conditions(self.base, set)?;
        self.conditions = set;
        self.use_variant(v);
        Ok(v)
    }

    /// `base` under `set` (added to the conditions it already has), built
    /// once per pair and kept for the process.
    fn with_conditions(
        &mut self,
        base: &'static Variant,
        set: Conditions,
    ) -> Result<&'static Variant, EngineError> {
        if set.is_empty() {
            return Ok(base);
        }
        if let Some(&(_, _, v)) = self
            .derived
            .iter()
            .find(|(b, c, _)| std::ptr::eq(*b, base) && *c == set)
        {
            return Ok(v);
        }
        let mut spec = self
            .registry
            .spec(&base.name)
            .ok_or_else(|| EngineError::UnknownVariant(base.name.clone()))?;
        spec.conditions = spec.conditions.union(set);
        spec.name = format!("{}+{}", base.name, set.to_string().replace(' ', "+"));
        let v = Variant::build(spec).map_err(|e| {
            EngineError::BadOptionValue(format!("conditions '{set}' on {}: {e}", base.name))
        })?;
        let v = variant::leak(v);
        // A start position the conditions make illegal (kings side by side
        // across a cylinder's seam) is refused here, not found at `startpos`.
        Position::from_fen(v, &v.start_fen).map_err(|e| {
            EngineError::BadOptionValue(format!(
                "conditions '{set}' on {}: its start position is illegal: {e}",
                base.name
            ))
        })?;
        self.derived.push((base, set, v));
        Ok(v)
    }

    /// Sets the game to `start` followed by `moves` (each in the notation of
    /// SPEC 4; a multi-leg turn is its legs joined by `,`). All or nothing:
    /// on any error the previous game is kept.
    pub fn set_position(&mut self, start: StartPos, moves: &[&str]) -> Result<(), EngineError> {
        self.set_position_in(start, moves, Notation::Fers)
    }

    /// [`Engine::set_position`] with moves in a protocol's notation.
    pub fn set_position_in(
        &mut self,
        start: StartPos,
        moves: &[&str],
        notation: Notation,
    ) -> Result<(), EngineError> {
        let pos = match start {
            StartPos::Start => Position::startpos(self.variant),
            StartPos::Fen(fen) => {
                Position::from_fen(self.variant, fen).map_err(EngineError::BadFen)?
            }
        };
        let mut game = Game::new(pos);
        for (i, text) in moves.iter().enumerate() {
            play_turn(&mut game, text, notation).map_err(|error| EngineError::BadMove {
                number: i + 1,
                error,
            })?;
        }
        self.game = game;
        Ok(())
    }

    /// Plays one turn (text in `notation`) on the game: for protocols that
    /// send moves one at a time. On error the game is unchanged.
    pub fn play_text(&mut self, text: &str, notation: Notation) -> Result<(), MoveError> {
        let mut game = self.game.clone();
        play_turn(&mut game, text, notation)?;
        self.game = game;
        Ok(())
    }

    /// Plays a move the search chose (legal in the current position; a move
    /// that is not is refused and the game kept).
    pub fn play_move(&mut self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.position().legal_moves(&mut list);
        if !list.contains(m) {
            return false;
        }
        self.game.play(m);
        true
    }

    /// Takes back the last `n` moves (all of them or none).
    pub fn undo(&mut self, n: usize) -> bool {
        let moves = self.game.moves();
        if n > moves.len() {
            return false;
        }
        let keep = moves[..moves.len() - n].to_vec();
        let mut game = Game::new(self.game.start().clone());
        for m in keep {
            game.play(m);
        }
        self.game = game;
        true
    }

    /// Sets an option by name (case-insensitive); `value` is `None` when the
    /// command had no value. Unknown names and bad values change nothing.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionEffect, EngineError> {
        let def = options::find(name).ok_or_else(|| EngineError::UnknownOption(name.into()))?;
        match def.id {
            OptionId::UciVariant => {
                // Resolved by the variant table rather than the combo list,
                // so that aliases (`ultima` for `baroque`) are accepted too.
                let Some(v) = value else {
                    return Err(EngineError::BadOptionValue(format!(
                        "option {} needs a value",
                        def.name
                    )));
                };
                Ok(OptionEffect::Variant(self.set_variant(v)?))
            }
            OptionId::Conditions => Ok(OptionEffect::Variant(
                self.set_conditions(value.unwrap_or(""))?,
            )),
            OptionId::VariantPath => {
                let path = value.unwrap_or("").trim();
                if path.is_empty() || path == "<empty>" {
                    return Ok(OptionEffect::None);
                }
                let text = read_variant_file(path)?;
                let mut report: Vec<_> = self
                    .registry
                    .load(path, &text)
                    .into_iter()
                    .map(|r| r.map_err(|e| e.to_string()))
                    .collect();
                self.load_variant_networks(&mut report);
                Ok(OptionEffect::VariantsLoaded(report))
            }
            OptionId::EvalFile => {
                let path = value.unwrap_or("");
                if path.is_empty() || path == "<empty>" {
                    self.eval_net = None;
                    return Ok(OptionEffect::None);
                }
                let net = Arc::new(Network::load(path).map_err(EngineError::BadOptionValue)?);
                // Checked against the variant of the network's name that
                // the engine knows (the one played, a variant file's, a
                // built-in): another board or piece set is refused and
                // nothing changes. GUIs send options before `UCI_Variant`,
                // so a network for a variant not known yet, or not played
                // now, is kept for it, and said so.
                let name = &net.id.variant;
                let known = if self.variant.name.eq_ignore_ascii_case(name) {
                    Some(self.variant)
                } else {
                    self.registry.get(name)
                };
                if let Some(v) = known {
                    NnueMap::with_network(v, net.clone()).map_err(|e| {
                        EngineError::BadOptionValue(format!("EvalFile '{path}' refused: {e}"))
                    })?;
                }
                let note = if NnueMap::with_network(self.variant, net.clone()).is_ok() {
                    format!("EvalFile '{path}': network for {} in use", net.id)
                } else {
                    format!(
                        "EvalFile '{path}': network for {}, kept for that variant; {} keeps its own evaluation",
                        net.id, self.variant.name
                    )
                };
                self.eval_net = Some(LoadedNet {
                    path: path.to_string(),
                    net,
                });
                Ok(OptionEffect::Note(note))
            }
            OptionId::BookFile => {
                self.book
                    .set_file(value.unwrap_or(""))
                    .map_err(EngineError::BadOptionValue)?;
                Ok(OptionEffect::None)
            }
            OptionId::OwnBook | OptionId::BookDepth | OptionId::BookVariety => {
                match def
                    .parse_value(value)
                    .map_err(EngineError::BadOptionValue)?
                {
                    options::OptionValue::Check(b) => self.book.own_book = b,
                    options::OptionValue::Spin(n) => self.book.depth = n as u32,
                    options::OptionValue::Combo(c) => self.book.set_variety(&c),
                    _ => {}
                }
                Ok(OptionEffect::None)
            }
            OptionId::ClearHash => {
                self.clear_hash();
                Ok(OptionEffect::None)
            }
            OptionId::Hash
            | OptionId::Threads
            | OptionId::MultiPv
            | OptionId::Ponder
            | OptionId::MoveOverhead
            | OptionId::UseNnue
            | OptionId::UciChess960 => {
                let value = def
                    .parse_value(value)
                    .map_err(EngineError::BadOptionValue)?;
                let (spin, check) = match value {
                    options::OptionValue::Spin(n) => (n, false),
                    options::OptionValue::Check(b) => (0, b),
                    _ => (0, false),
                };
                match def.id {
                    OptionId::Hash => {
                        let mb = spin as usize;
                        self.pool
                            .set_hash(mb)
                            .map_err(EngineError::BadOptionValue)?;
                        self.search.hash_mb = mb;
                    }
                    OptionId::Threads => self.search.threads = spin as usize,
                    OptionId::MultiPv => self.search.multipv = spin as usize,
                    OptionId::Ponder => self.search.ponder = check,
                    OptionId::UseNnue => self.search.use_nnue = check,
                    OptionId::UciChess960 => self.chess960 = check,
                    _ => self.search.move_overhead = spin as u64,
                }
                Ok(OptionEffect::None)
            }
        }
    }

    /// Checks a variant file without loading it: per section, a description
    /// of the variant or the error (`file:line: reason`).
    pub fn check_file(&self, path: &str) -> Result<Vec<Result<String, String>>, EngineError> {
        let text = read_variant_file(path)?;
        Ok(self
            .registry
            .check(path, &text)
            .into_iter()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect())
    }

    /// Perft from the current position, split by root move.
    pub fn perft(&self, depth: u32) -> Result<PerftReport, EngineError> {
        self.perft_in(depth, Notation::Fers)
    }

    /// [`Engine::perft`] with the root moves written in `notation` (GUIs
    /// compare divides of Chess960 in king-takes-rook castling).
    pub fn perft_in(&self, depth: u32, notation: Notation) -> Result<PerftReport, EngineError> {
        if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
            return Err(EngineError::BadPerftDepth(depth));
        }
        let pos = self.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let divide: Vec<(String, u64)> = list
            .iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play(m);
                (notation.format(pos, m), perft::perft(&next, depth - 1))
            })
            .collect();
        let total = divide.iter().map(|(_, n)| n).sum();
        Ok(PerftReport { divide, total })
    }
}

fn read_variant_file(path: &str) -> Result<String, EngineError> {
    read_text_file(path, MAX_TEXT_FILE_BYTES)
        .map_err(|e| EngineError::BadOptionValue(format!("cannot read variant file '{path}': {e}")))
}

/// Largest text file (variant file, `bench` positions) the engine reads.
pub const MAX_TEXT_FILE_BYTES: u64 = 16 << 20;

/// The text of a file of at most `max` bytes: a larger one (or an endless
/// one such as `/dev/zero`) is refused, not read into memory.
pub fn read_text_file(path: &str, max: u64) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut text = String::new();
    file.take(max + 1)
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())?;
    if text.len() as u64 > max {
        return Err(format!("larger than {max} bytes"));
    }
    Ok(text)
}

/// Plays one turn given as text. A turn of several legs (`d3e3w,e3f4a`,
/// a Fanorona capture chain) is one move: `e2e4,e7e5` matches no legal
/// move and is refused.
pub fn play_turn(game: &mut Game, text: &str, notation: Notation) -> Result<(), MoveError> {
    let m = notation.parse(game.position(), text)?;
    game.play(m);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn starts_with_chess() {
        let e = Engine::new();
        assert_eq!(e.variant().name, "chess");
        assert_eq!(e.position().to_fen(), START);
    }

    #[test]
    fn position_with_moves() {
        let mut e = Engine::new();
        e.set_position(StartPos::Start, &["e2e4", "c7c5", "g1f3"])
            .expect("legal moves");
        assert_eq!(
            e.position().to_fen(),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        assert_eq!(e.game().moves().len(), 3);
    }

    #[test]
    fn bad_position_changes_nothing() {
        let mut e = Engine::new();
        e.set_position(StartPos::Start, &["d2d4"]).expect("legal");
        let before = e.position().to_fen();
        let err = e
            .set_position(StartPos::Start, &["e2e4", "e2e4"])
            .expect_err("second e2e4 is illegal");
        assert!(
            matches!(err, EngineError::BadMove { number: 2, .. }),
            "{err}"
        );
        assert!(e
            .set_position(StartPos::Fen("8/8/8 w - - 0 1"), &[])
            .is_err());
        assert!(e.set_position(StartPos::Start, &["e2e9"]).is_err());
        assert_eq!(e.position().to_fen(), before);
    }

    #[test]
    fn legs_cannot_span_two_turns() {
        let mut e = Engine::new();
        let err = e
            .set_position(StartPos::Start, &["e2e4,e7e5"])
            .expect_err("two chess moves are not one turn");
        assert!(err.to_string().contains("illegal"), "{err}");
        assert!(e.set_position(StartPos::Start, &["e2e4,"]).is_err());
        assert!(e.set_position(StartPos::Start, &[","]).is_err());
        assert_eq!(e.position().to_fen(), START);
    }

    #[test]
    fn variant_option() {
        let mut e = Engine::new();
        e.set_position(StartPos::Start, &["e2e4"]).expect("legal");
        match e.set_option("uci_variant", Some("CHESS")) {
            Ok(OptionEffect::Variant(v)) => assert_eq!(v.name, "chess"),
            other => panic!("{other:?}"),
        }
        assert_eq!(e.position().to_fen(), START, "a variant change resets");
        e.set_position(StartPos::Start, &["e2e4"]).expect("legal");
        let before = e.position().to_fen();
        assert_eq!(
            e.set_option("UCI_Variant", Some("nosuchgame")).unwrap_err(),
            EngineError::UnknownVariant("nosuchgame".into())
        );
        assert!(e.set_option("UCI_Variant", None).is_err());
        assert_eq!(
            e.set_option("Nonsense", Some("1")).unwrap_err(),
            EngineError::UnknownOption("Nonsense".into())
        );
        assert_eq!(e.position().to_fen(), before);
    }

    #[test]
    fn perft_divides() {
        let e = Engine::new();
        let r = e.perft(3).expect("depth 3");
        assert_eq!(r.total, 8902);
        assert_eq!(r.divide.len(), 20);
        assert!(r.divide.contains(&("e2e4".to_string(), 600)));
        assert_eq!(e.perft(1).expect("depth 1").total, 20);
        assert!(e.perft(0).is_err());
        assert!(e.perft(MAX_PERFT_DEPTH + 1).is_err());
    }

    /// CuteChess plays only the variants it knows by name, and sends
    /// `position startpos` when the start is its own: the games fers shares
    /// with it (its `boardfactory.cpp` names) must resolve under those
    /// names and start where CuteChess's boards start.
    #[test]
    fn cutechess_names_of_shared_games() {
        let mut e = Engine::new();
        for name in ["standard", "andernach", "grid"] {
            let v = e
                .set_option("UCI_Variant", Some(name))
                .unwrap_or_else(|err| panic!("{name}: {err}"));
            let OptionEffect::Variant(v) = v else {
                panic!("{name}: no variant change")
            };
            assert_eq!(Position::startpos(v).to_fen(), START, "{name}");
        }
    }

    #[test]
    fn chess960_divide_writes_king_takes_rook() {
        let mut e = Engine::new();
        e.set_position(StartPos::Fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"), &[])
            .expect("Shredder-FEN rights");
        let fers = e.perft_in(2, Notation::Fers).expect("depth 2");
        let c960 = e.perft_in(2, Notation::Chess960).expect("depth 2");
        assert_eq!(fers.total, c960.total);
        assert!(fers.divide.iter().any(|(m, _)| m == "e1g1"));
        assert!(c960.divide.iter().any(|(m, _)| m == "e1h1"));
        assert!(c960.divide.iter().any(|(m, _)| m == "e1a1"));
        assert!(!c960.divide.iter().any(|(m, _)| m == "e1g1"));
    }
}
