//! Fairy-Stockfish as an independent reference for the rules.
//!
//! fers' move generator is proven against numbers that do not come from
//! fers: the published perft suite, and Fairy-Stockfish (FSF), which plays
//! chess and many fairy games from its own, unrelated code. This module finds
//! the FSF binary, drives it over UCI (`position fen`, `go perft N`), parses
//! its divide, and, when fers and FSF disagree, walks down the first
//! differing move until it reaches the position whose legal move list
//! differs, so that a failure names the exact path and FEN to debug.
//!
//! The driver is also used by `fers-bench` to time FSF's perft.

use fers_core::{perft, MoveList, Position};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Environment variable that names the Fairy-Stockfish binary explicitly.
pub const ENV_VAR: &str = "FERS_FAIRY_STOCKFISH";
/// Where Debian's `fairy-stockfish` package installs it (not on the default
/// PATH of a non-login shell, hence the explicit fallback).
pub const DEBIAN_PATH: &str = "/usr/games/fairy-stockfish";
/// How long one answer may take before the engine is declared hung. Generous:
/// a deep `go perft` on a loaded 2-core machine takes a while, and a hang
/// must fail the test rather than block it forever.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The Fairy-Stockfish binary: `$FERS_FAIRY_STOCKFISH`, else
/// `fairy-stockfish` on `PATH`, else Debian's `/usr/games/fairy-stockfish`.
pub fn find_binary() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(ENV_VAR) {
        // An explicit choice that does not exist is a configuration error the
        // user should see, not something to paper over with another binary.
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("fairy-stockfish");
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let p = PathBuf::from(DEBIAN_PATH);
    p.is_file().then_some(p)
}

/// Starts FSF for a test, or applies the skip rule of [`crate::require`]
/// (a failure under CI, `SKIPPED: ...` elsewhere).
pub fn engine_or_skip(test: &str) -> Option<Engine> {
    match find_binary() {
        Some(path) => Some(
            Engine::start(&path)
                .unwrap_or_else(|e| panic!("{test}: cannot start {}: {e}", path.display())),
        ),
        None => {
            crate::require::missing(
                test,
                &format!("fairy-stockfish not found (${ENV_VAR}, PATH, {DEBIAN_PATH})"),
                crate::require::FAIRY_STOCKFISH_HINT,
            );
            None
        }
    }
}

/// A running UCI engine (Fairy-Stockfish or anything that speaks the same
/// `go perft` dialect).
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// Lines of the engine's stdout, read by a thread so that every wait can
    /// have a timeout.
    lines: Receiver<String>,
    path: PathBuf,
    pub timeout: Duration,
}

/// FSF's answer to `go perft N`: count per root move, and the total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    pub moves: BTreeMap<String, u64>,
    pub total: u64,
}

impl Divide {
    /// fers' divide in the same shape.
    pub fn of_fers(pos: &Position, depth: u32) -> Divide {
        let moves: BTreeMap<String, u64> = perft::divide(pos, depth).into_iter().collect();
        let total = moves.values().sum();
        Divide { moves, total }
    }
}

impl Engine {
    /// Starts the engine and completes the `uci` / `isready` handshake.
    pub fn start(path: &Path) -> io::Result<Engine> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            lines: rx,
            path: path.to_path_buf(),
            timeout: Duration::from_secs(30),
        };
        e.send("uci")?;
        e.wait_for(|l| l == "uciok")?;
        e.sync()?;
        e.timeout = DEFAULT_TIMEOUT;
        Ok(e)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Sends one command line.
    pub fn send(&mut self, cmd: &str) -> io::Result<()> {
        writeln!(self.stdin, "{cmd}")?;
        self.stdin.flush()
    }

    /// Reads lines until one satisfies `done`; returns the lines before it
    /// and that line last.
    pub fn wait_for(&mut self, done: impl Fn(&str) -> bool) -> io::Result<Vec<String>> {
        let deadline = Instant::now() + self.timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim_end().to_string();
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!(
                            "{} gave no answer in {:?}; last lines: {:?}",
                            self.path.display(),
                            self.timeout,
                            &seen[seen.len().saturating_sub(5)..]
                        ),
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!(
                            "{} exited; last lines: {:?}",
                            self.path.display(),
                            &seen[seen.len().saturating_sub(5)..]
                        ),
                    ))
                }
            }
        }
    }

    /// `isready` / `readyok`: everything sent before has been processed.
    pub fn sync(&mut self) -> io::Result<()> {
        self.send("isready")?;
        self.wait_for(|l| l == "readyok").map(|_| ())
    }

    /// Selects a variant by its FSF name (`chess`, ...).
    pub fn set_variant(&mut self, name: &str) -> io::Result<()> {
        self.send(&format!("setoption name UCI_Variant value {name}"))?;
        self.sync()
    }

    /// Sets the position (no answer expected, so no round trip).
    pub fn set_position(&mut self, fen: &str) -> io::Result<()> {
        self.send(&format!("position fen {fen}"))
    }

    /// `go perft N` on the current position, parsed.
    pub fn go_perft(&mut self, depth: u32) -> io::Result<Divide> {
        self.send(&format!("go perft {depth}"))?;
        let lines = self.wait_for(|l| l.starts_with("Nodes searched"))?;
        parse_divide(&lines).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", self.path.display()),
            )
        })
    }

    /// Divide of `fen` at `depth`.
    pub fn perft(&mut self, fen: &str, depth: u32) -> io::Result<Divide> {
        self.set_position(fen)?;
        self.go_perft(depth)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave by itself, then make sure: a stray engine
        // process must not outlive the test run.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses the lines of a `go perft` answer: `<move>: <count>` per root move,
/// then `Nodes searched: <total>`. Other lines (`info string ...`, blank) are
/// ignored. The total must equal the sum, or the answer is not trusted.
pub fn parse_divide(lines: &[String]) -> Result<Divide, String> {
    let mut d = Divide::default();
    let mut total = None;
    for line in lines {
        let Some((head, tail)) = line.split_once(':') else {
            continue;
        };
        let tail = tail.trim();
        if head == "Nodes searched" {
            total = Some(
                tail.parse::<u64>()
                    .map_err(|_| format!("bad total line {line:?}"))?,
            );
        } else if !head.is_empty()
            && !head.contains(' ')
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ",@+=-".contains(c))
        {
            if let Ok(n) = tail.parse::<u64>() {
                if d.moves.insert(head.to_string(), n).is_some() {
                    return Err(format!("move {head} listed twice"));
                }
            }
        }
    }
    let total = total.ok_or("no `Nodes searched` line")?;
    let sum: u64 = d.moves.values().sum();
    if sum != total {
        return Err(format!("divide sums to {sum} but total is {total}"));
    }
    d.total = total;
    Ok(d)
}

/// Where fers and the reference disagree, narrowed down to one position.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The position the comparison started from and its depth.
    pub root_fen: String,
    pub root_depth: u32,
    /// Moves from the root to the position below (UCI notation).
    pub path: Vec<String>,
    /// The position where the disagreement was pinned down.
    pub fen: String,
    pub depth: u32,
    /// Root moves fers generates here and FSF does not, with fers' counts.
    pub only_fers: Vec<(String, u64)>,
    /// Root moves FSF generates here and fers does not, with FSF's counts.
    pub only_fsf: Vec<(String, u64)>,
    /// Moves both generate but count differently: (move, fers, FSF).
    pub counts: Vec<(String, u64, u64)>,
    /// Extra explanation when the walk could not go further.
    pub note: Option<String>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "fers and Fairy-Stockfish disagree on perft {} of {}",
            self.root_depth, self.root_fen
        )?;
        writeln!(
            f,
            "  path: {}",
            if self.path.is_empty() {
                "(root)".to_string()
            } else {
                self.path.join(" ")
            }
        )?;
        writeln!(f, "  at:   {} (depth {})", self.fen, self.depth)?;
        if !self.only_fers.is_empty() {
            writeln!(f, "  moves only fers generates: {:?}", self.only_fers)?;
        }
        if !self.only_fsf.is_empty() {
            writeln!(f, "  moves only FSF generates:  {:?}", self.only_fsf)?;
        }
        if !self.counts.is_empty() {
            writeln!(f, "  counts (move, fers, FSF):  {:?}", self.counts)?;
        }
        if let Some(n) = &self.note {
            writeln!(f, "  note: {n}")?;
        }
        Ok(())
    }
}

/// Anything that answers "divide of this FEN at this depth": FSF through
/// [`Engine`], or a stand-in in tests of the comparison itself.
pub trait PerftReference {
    fn divide(&mut self, fen: &str, depth: u32) -> io::Result<Divide>;
}

impl PerftReference for Engine {
    fn divide(&mut self, fen: &str, depth: u32) -> io::Result<Divide> {
        self.perft(fen, depth)
    }
}

/// Compares fers' divide of `pos` at `depth` with FSF's. On disagreement,
/// follows the first move whose count differs (a missing or extra move stops
/// the walk: that position's move list is the bug) and returns the narrowed
/// down [`Mismatch`]. The FEN given to FSF is fers' own `to_fen()`.
pub fn compare(
    engine: &mut impl PerftReference,
    pos: &Position,
    depth: u32,
) -> io::Result<Option<Mismatch>> {
    let root_fen = pos.to_fen();
    let mut path = Vec::new();
    let mut cur = pos.clone();
    let mut d = depth;
    let mut parent: Option<Mismatch> = None;
    loop {
        let fen = cur.to_fen();
        let ours = Divide::of_fers(&cur, d);
        let theirs = engine.divide(&fen, d)?;
        let mut m = Mismatch {
            root_fen: root_fen.clone(),
            root_depth: depth,
            path: path.clone(),
            fen: fen.clone(),
            depth: d,
            only_fers: Vec::new(),
            only_fsf: Vec::new(),
            counts: Vec::new(),
            note: None,
        };
        for (mv, &n) in &ours.moves {
            match theirs.moves.get(mv) {
                None => m.only_fers.push((mv.clone(), n)),
                Some(&t) if t != n => m.counts.push((mv.clone(), n, t)),
                _ => {}
            }
        }
        for (mv, &t) in &theirs.moves {
            if !ours.moves.contains_key(mv) {
                m.only_fsf.push((mv.clone(), t));
            }
        }
        if m.only_fers.is_empty() && m.only_fsf.is_empty() && m.counts.is_empty() {
            // Equal here. At the root that is success; below, the parent's
            // count for this move differed although this position agrees:
            // FSF's position after the move is not the one fers' FEN names
            // (fers' play and its FEN disagree, e.g. castling or en passant).
            return Ok(parent.map(|mut p| {
                p.note = Some(format!(
                    "the position after {} agrees when given as fers' FEN {fen}: \
                     fers' state after the move and its FEN disagree, or FSF plays \
                     the move differently",
                    path.last().map(String::as_str).unwrap_or("?")
                ));
                p
            }));
        }
        if !m.only_fers.is_empty() || !m.only_fsf.is_empty() || d <= 1 {
            return Ok(Some(m));
        }
        // Same moves, different counts: the error is below the first one.
        let mv = m.counts[0].0.clone();
        let mut list = MoveList::new();
        cur.legal_moves(&mut list);
        let Some(next_move) = list.iter().find(|&x| cur.move_to_uci(x) == mv) else {
            m.note = Some(format!("fers' divide lists {mv} but cannot play it"));
            return Ok(Some(m));
        };
        cur.play(next_move);
        path.push(mv);
        d -= 1;
        parent = Some(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn parses_a_divide() {
        let d = parse_divide(&lines(
            "info string variant chess\na2a3: 20\ne7e8q: 3\ne1g1: 1\n\nNodes searched: 24",
        ))
        .unwrap();
        assert_eq!(d.total, 24);
        assert_eq!(d.moves.len(), 3);
        assert_eq!(d.moves["e7e8q"], 3);
    }

    /// fers itself, except that in one position it "forgets" one move: the
    /// walk must go down exactly to that position and name the move.
    struct Forgetful {
        fen: String,
        forget: &'static str,
    }

    impl PerftReference for Forgetful {
        fn divide(&mut self, fen: &str, depth: u32) -> io::Result<Divide> {
            let pos = Position::from_fen(fers_core::variant::chess(), fen).unwrap();
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let mut d = Divide::default();
            for m in list.iter() {
                let mut next = pos.clone();
                next.play(m);
                // Recurse through the stand-in, so the forgotten move also
                // changes the counts above it.
                let n = if depth <= 1 {
                    1
                } else {
                    self.divide(&next.to_fen(), depth - 1)?.total
                };
                let text = pos.move_to_uci(m);
                if !(fen == self.fen && text == self.forget) {
                    d.moves.insert(text, n);
                }
            }
            d.total = d.moves.values().sum();
            Ok(d)
        }
    }

    #[test]
    fn compare_walks_down_to_the_differing_position() {
        let v = fers_core::variant::chess();
        let root = Position::startpos(v);
        let mut target = root.clone();
        for mv in ["e2e4", "e7e5"] {
            let m = target.parse_move(mv).unwrap();
            target.play(m);
        }
        let mut reference = Forgetful {
            fen: target.to_fen(),
            forget: "g1f3",
        };
        let m = compare(&mut reference, &root, 3)
            .unwrap()
            .expect("a mismatch");
        assert_eq!(m.path, ["e2e4", "e7e5"]);
        assert_eq!(m.fen, target.to_fen());
        assert_eq!(m.depth, 1);
        assert_eq!(m.only_fers, [("g1f3".to_string(), 1)]);
        assert!(m.only_fsf.is_empty());
        assert!(m.to_string().contains("path: e2e4 e7e5"), "{m}");
        // Where nothing is forgotten, nothing is reported.
        let mut honest = Forgetful {
            fen: String::new(),
            forget: "",
        };
        assert!(compare(&mut honest, &root, 3).unwrap().is_none());
    }

    #[test]
    fn refuses_an_inconsistent_total() {
        assert!(parse_divide(&lines("a2a3: 20\n\nNodes searched: 21")).is_err());
        assert!(parse_divide(&lines("a2a3: 20\n")).is_err());
    }
}
