//! What the three front-ends share: the reading loop, the channel that
//! brings the search's events to the protocol thread, and the choice of
//! protocol by the first command (`uci`, `usi` or `xboard`, as
//! Fairy-Stockfish does; anything else is read as UCI, the default).

use crate::engine::Engine;
use crate::events::{Reporter, SearchEvent};
use crate::uci::Uci;
use crate::usi::Usi;
use crate::xboard::XBoard;
use crossbeam_channel::{unbounded, Receiver, Sender};
use fers_core::Position;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

/// What the reading loop does after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// A search event with the position the search started from, which the
/// front-end needs to write the moves.
#[derive(Clone, Debug)]
pub struct Report {
    pub root: Position,
    pub event: SearchEvent,
}

/// Where a front-end's searches send their events: a channel read on the
/// protocol thread, so that the front-end formats (and, for XBoard, plays
/// its own move) there.
pub struct Events {
    tx: Sender<Report>,
    rx: Receiver<Report>,
}

impl Default for Events {
    fn default() -> Self {
        let (tx, rx) = unbounded();
        Events { tx, rx }
    }
}

impl Events {
    /// A reporter for a search of `root`.
    pub fn reporter(&self, root: &Position) -> Reporter {
        let tx = self.tx.clone();
        let root = root.clone();
        Arc::new(move |event: &SearchEvent| {
            // The receiver lives as long as the front-end: a failed send
            // only means it has gone, and nobody is left to tell.
            let _ = tx.send(Report {
                root: root.clone(),
                event: event.clone(),
            });
        })
    }

    pub fn receiver(&self) -> Receiver<Report> {
        self.rx.clone()
    }

    /// The next report already sent, if any.
    pub fn try_next(&self) -> Option<Report> {
        self.rx.try_recv().ok()
    }
}

/// A protocol front-end, as the reading loop drives it.
pub trait FrontEnd {
    /// Handles one input line. Bad input is answered in the protocol's
    /// words and leaves the state as it was; the only `Err` is an output
    /// failure (the GUI has gone away).
    fn handle_line(&mut self, line: &str) -> io::Result<Flow>;
    /// Formats (and acts on) one search event.
    fn on_report(&mut self, report: Report) -> io::Result<()>;
    /// The channel of the search events.
    fn reports(&self) -> Receiver<Report>;
    /// Stops a running search and writes its last events (quit, end of input).
    fn finish(&mut self) -> io::Result<()>;
    /// Says that a command hit a bug and was ignored.
    fn internal_error(&mut self) -> io::Result<()>;
    fn flush(&mut self) -> io::Result<()>;
}

/// Lines of the input, read on their own thread so that the protocol
/// thread can write the search's events while no command comes.
fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> io::Result<Receiver<Vec<u8>>> {
    let (in_tx, in_rx) = unbounded::<Vec<u8>>();
    std::thread::Builder::new()
        .name("fers-input".into())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    // A broken input stream is the GUI going away: as EOF.
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if in_tx.send(buf.clone()).is_err() {
                            break;
                        }
                    }
                }
            }
        })?;
    Ok(in_rx)
}

/// Which protocol a first command asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Protocol {
    Uci,
    Usi,
    XBoard,
}

impl Protocol {
    /// The protocol of a session whose first non-blank line is `line`.
    pub fn chosen_by(line: &str) -> Protocol {
        match line.split_whitespace().next() {
            Some("usi") => Protocol::Usi,
            Some("xboard") => Protocol::XBoard,
            _ => Protocol::Uci,
        }
    }
}

/// Runs a session: the first non-blank line chooses the protocol (and is
/// then handled by it), until `quit` or the end of the input.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, out: W) -> io::Result<()> {
    run_engine(input, out, Engine::new())
}

/// [`run`] with an engine prepared beforehand (variants loaded by
/// `fers load FILE`), which the chosen front-end takes over.
pub fn run_engine<R: BufRead + Send + 'static, W: Write>(
    input: R,
    out: W,
    engine: Engine,
) -> io::Result<()> {
    let in_rx = spawn_reader(input)?;
    let mut first = Vec::new();
    while let Ok(buf) = in_rx.recv() {
        if !String::from_utf8_lossy(&buf).trim().is_empty() {
            first = buf;
            break;
        }
    }
    if first.is_empty() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&first).into_owned();
    match Protocol::chosen_by(&text) {
        Protocol::Uci => drive(Uci::with_engine(out, engine), Some(first), in_rx),
        Protocol::XBoard => drive(XBoard::with_engine(out, engine), Some(first), in_rx),
        Protocol::Usi => drive(Usi::with_engine(out, engine), Some(first), in_rx),
    }
}

/// Runs one front-end over `input` (no protocol choice).
pub fn run_with<R: BufRead + Send + 'static, F: FrontEnd>(input: R, fe: F) -> io::Result<()> {
    let in_rx = spawn_reader(input)?;
    drive(fe, None, in_rx)
}

/// The reading loop. Output is flushed after every command and every search
/// event. Input that is not UTF-8 is read lossily (bad bytes become U+FFFD)
/// rather than ending the loop. At the end of the input, as on `quit`, a
/// running search is stopped and its last events written before returning.
fn drive<F: FrontEnd>(
    mut fe: F,
    mut pending: Option<Vec<u8>>,
    in_rx: Receiver<Vec<u8>>,
) -> io::Result<()> {
    let reports = fe.reports();
    loop {
        let buf = match pending.take() {
            Some(buf) => buf,
            None => crossbeam_channel::select! {
                recv(reports) -> r => {
                    if let Ok(r) = r {
                        if fe.on_report(r).and_then(|_| fe.flush()).is_err() {
                            return Ok(());
                        }
                    }
                    continue;
                }
                recv(in_rx) -> buf => match buf {
                    Ok(buf) => buf,
                    Err(_) => {
                        // End of input: finish like `quit`.
                        let _ = fe.finish();
                        return Ok(());
                    }
                },
            },
        };
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        // A last line of defence: no input should reach a panic (the fuzz
        // tests check that without this net), but a bug in the engine must
        // cost one command, not the game. The engine changes its state only
        // after a request has been fully checked, so it is still valid here.
        let flow = panic::catch_unwind(AssertUnwindSafe(|| fe.handle_line(line)));
        let flow = match flow {
            Ok(flow) => flow,
            Err(_) => fe.internal_error().map(|_| Flow::Continue),
        };
        // An output error means the GUI has gone away: stop quietly.
        match flow.and_then(|f| fe.flush().map(|_| f)) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) | Err(_) => return Ok(()),
        }
    }
}

/// `text` on one printable line of at most `max` characters (then `...`):
/// a huge or binary bad line must not come back whole in an error.
pub fn printable(text: &str, max: usize) -> String {
    let mut clean: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        clean.push_str("...");
    }
    clean
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_command_chooses() {
        assert_eq!(Protocol::chosen_by("uci"), Protocol::Uci);
        assert_eq!(Protocol::chosen_by(" usi "), Protocol::Usi);
        assert_eq!(Protocol::chosen_by("xboard"), Protocol::XBoard);
        assert_eq!(Protocol::chosen_by("isready"), Protocol::Uci);
        assert_eq!(Protocol::chosen_by("xboardx"), Protocol::Uci);
    }

    #[test]
    fn printable_cuts_and_cleans() {
        assert_eq!(printable("ab\u{1b}c", 10), "ab?c");
        assert_eq!(printable("abcdef", 3), "abc...");
    }

    fn session(input: &'static [u8]) -> String {
        let mut out = Vec::new();
        run(input, &mut out).expect("runs");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn sessions_in_each_protocol() {
        assert!(session(b"\n\nuci\nquit\n").ends_with("uciok\n"));
        assert_eq!(session(b"isready\n"), "readyok\n");
        assert!(session(b"usi\nquit\n").ends_with("usiok\n"));
        let x = session(b"xboard\nprotover 2\nquit\n");
        assert!(x.contains("feature ") && x.contains("done=1"), "{x}");
        assert_eq!(session(b""), "");
    }
}
