//! What the referee needs from an engine, whatever its protocol: start it,
//! set up a game, ask for a move under a time limit, stop it. The UCI and
//! XBoard drivers (`uci.rs`, `xboard.rs`) implement [`Engine`]; every way an
//! engine can misbehave is an [`EngineError`] that carries the engine's last
//! output for the fault log.

use crate::process::{Launch, Process, ReadError, SpawnError};
use crate::timecontrol::{Clock, TimeControl};
use fers_core::variant::Variant;
use fers_core::Position;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The engine's protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

/// How to start and configure one engine (`-engine ...` plus `-each ...`).
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    pub launch: Launch,
    pub protocol: Protocol,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
    pub tc: TimeControl,
    /// The variant file sent as `VariantPath` to a UCI engine; `None`: the
    /// tournament's variant file, when the engine does not know the variant.
    pub variant_file: Option<PathBuf>,
    /// Lines sent right after the handshake (`initstr=`).
    pub init: Vec<String>,
    /// Echo the protocol traffic on stderr.
    pub debug: bool,
    /// Start a fresh process for every game (`restart=on`); otherwise the
    /// process is kept and restarted only after a fault.
    pub restart_each_game: bool,
}

impl EngineConfig {
    pub fn new(name: &str, cmd: &str, protocol: Protocol) -> EngineConfig {
        EngineConfig {
            name: name.to_string(),
            launch: Launch {
                cmd: cmd.to_string(),
                ..Launch::default()
            },
            protocol,
            options: Vec::new(),
            tc: TimeControl::default(),
            variant_file: None,
            init: Vec::new(),
            debug: false,
            restart_each_game: false,
        }
    }
}

/// What every game of the tournament shares about its rules.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub variant: &'static Variant,
    /// The variant file the referee loaded it from, if any.
    pub variant_file: Option<PathBuf>,
    pub start: Position,
}

impl GameSetup {
    /// The variant's name as the protocols spell it (`chess` for UCI).
    pub fn variant_name(&self) -> &str {
        &self.variant.name
    }
    pub fn is_chess(&self) -> bool {
        self.variant.name.eq_ignore_ascii_case("chess")
    }
    /// Does the game start from the variant's own start position?
    pub fn from_variant_start(&self) -> bool {
        Position::startpos(self.variant).to_fen() == self.start.to_fen()
    }
}

/// One request for a move.
pub struct ThinkRequest<'a> {
    /// The start position of the game.
    pub start_fen: &'a str,
    /// Every move played so far, in the referee's notation.
    pub moves: &'a [String],
    pub white_to_move: bool,
    pub own: &'a Clock,
    pub opponent: &'a Clock,
    pub tc: &'a TimeControl,
    /// When the engine's answer stops being worth waiting for.
    pub deadline: Instant,
}

impl ThinkRequest<'_> {
    pub fn white_black_clocks(&self) -> (&Clock, &Clock) {
        if self.white_to_move {
            (self.own, self.opponent)
        } else {
            (self.opponent, self.own)
        }
    }
}

/// An evaluation the engine reported with its move, from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, mates as large values.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => 30_000 - n,
            Score::Mate(n) => -30_000 - n,
        }
    }
}

/// The last search report before the move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Eval {
    pub score: Option<Score>,
    pub depth: Option<u32>,
}

/// The engine's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Move {
        text: String,
        elapsed: Duration,
        eval: Eval,
    },
    Resign {
        elapsed: Duration,
    },
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The process could not be started (a configuration error).
    Spawn(String),
    /// The engine's output ended (it exited or crashed).
    Crashed { status: Option<String> },
    /// No answer before the deadline.
    Timeout,
    /// A line that breaks the protocol.
    Malformed { line: String },
    /// The engine refused a legal move of the game.
    Rejected { line: String },
    /// The engine does not offer what the tournament needs.
    Unsupported(String),
    /// The engine played a move the referee does not accept.
    IllegalMove { text: String },
    /// The engine's move came after its time (and margin) ran out.
    LateMove { used: Duration, allowed: Duration },
}

/// A fault with the engine's last output lines and what was going on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    pub kind: FaultKind,
    /// What the driver was waiting for (`uciok`, `bestmove`, ...).
    pub during: String,
    pub output: Vec<String>,
}

impl EngineError {
    /// A configuration problem that restarting will not fix.
    pub fn is_fatal(&self) -> bool {
        matches!(self.kind, FaultKind::Spawn(_) | FaultKind::Unsupported(_))
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            FaultKind::Spawn(e) => write!(f, "{e}")?,
            FaultKind::Crashed { status } => {
                write!(
                    f,
                    "the engine disconnected while waiting for {}",
                    self.during
                )?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
            }
            FaultKind::Timeout => write!(f, "no answer in time while waiting for {}", self.during)?,
            FaultKind::Malformed { line } => write!(
                f,
                "malformed line while waiting for {}: '{line}'",
                self.during
            )?,
            FaultKind::Rejected { line } => write!(f, "the engine refused a legal move: '{line}'")?,
            FaultKind::Unsupported(what) => write!(f, "{what}")?,
            FaultKind::IllegalMove { text } => write!(f, "illegal move '{text}'")?,
            FaultKind::LateMove { used, allowed } => write!(
                f,
                "the move took {:.3} s, {:.3} s were allowed",
                used.as_secs_f64(),
                allowed.as_secs_f64()
            )?,
        }
        if !self.output.is_empty() {
            write!(f, "; last output: ")?;
            for (i, l) in self.output.iter().enumerate() {
                if i > 0 {
                    write!(f, " | ")?;
                }
                write!(f, "{l}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for EngineError {}

impl From<SpawnError> for EngineError {
    fn from(e: SpawnError) -> Self {
        EngineError {
            kind: FaultKind::Spawn(e.to_string()),
            during: "start".into(),
            output: Vec::new(),
        }
    }
}

/// Turns a read failure into a fault with the engine's output.
pub(crate) fn read_fault(p: &mut Process, e: ReadError, during: &str) -> EngineError {
    let kind = match e {
        ReadError::Timeout => FaultKind::Timeout,
        ReadError::Closed => {
            // Give the process a moment to be reaped so the status is known.
            let mut status = None;
            for _ in 0..20 {
                status = p.exit_status();
                if status.is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            FaultKind::Crashed { status }
        }
        ReadError::NotText(line) => FaultKind::Malformed { line },
    };
    EngineError {
        kind,
        during: during.to_string(),
        output: p.recent_output(),
    }
}

pub(crate) fn fault(p: &Process, kind: FaultKind, during: &str) -> EngineError {
    EngineError {
        kind,
        during: during.to_string(),
        output: p.recent_output(),
    }
}

/// A running engine, whatever its protocol.
pub trait Engine: Send {
    fn name(&self) -> &str;
    /// Fails with `Unsupported` when the engine cannot play this game.
    fn check_setup(&self, setup: &GameSetup) -> Result<(), EngineError>;
    /// Prepares a new game from `setup.start`.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), EngineError>;
    /// Asks for a move in the position after `req.moves`.
    fn think(&mut self, req: &ThinkRequest) -> Result<Reply, EngineError>;
    /// The engine's last output lines, for fault reports.
    fn recent_output(&self) -> Vec<String>;
    /// Tells the engine the game is over (`1-0 {White mates}`).
    fn game_over(&mut self, _result: &str) {}
    /// Stops the engine (politely, then by force).
    fn quit(&mut self);
}

/// How long the handshake and `isready`-style synchronisation may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);

/// Starts an engine with its protocol's handshake.
pub fn start(config: &EngineConfig) -> Result<Box<dyn Engine>, EngineError> {
    Ok(match config.protocol {
        Protocol::Uci => Box::new(crate::uci::UciEngine::start(config)?),
        Protocol::Xboard => Box::new(crate::xboard::XboardEngine::start(config)?),
    })
}
