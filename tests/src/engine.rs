//! Driving the `fers` binary as a GUI does: spawn it, write command lines,
//! read answer lines with a timeout, so that a hang fails a test instead of
//! blocking it forever.
//!
//! Where the binary comes from: `cargo test --workspace` builds it (the
//! `fers-engine` package has integration tests, and Cargo builds a package's
//! binaries for those) into `target/<profile>/fers`, next to the `deps/`
//! folder that holds the test executables, which is where
//! [`fers_binary`] looks. Tests never build it themselves. Running only
//! `cargo test -p fers-tests` needs `cargo build -p fers-engine` first
//! (same profile), or `FERS_BIN=/path/to/fers` to test another build.

pub mod fuzz;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long a test waits for an expected line or exit by default: long
/// enough for a slow debug build on a busy machine, short enough that a
/// hang is reported within the run.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The `fers` binary to test: `$FERS_BIN` if set, else the one Cargo built
/// beside the running test executable (`<target>/<profile>/deps/<test>`).
pub fn fers_binary() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("FERS_BIN") {
        return Ok(PathBuf::from(p));
    }
    let name = format!("fers{}", std::env::consts::EXE_SUFFIX);
    let exe = std::env::current_exe().map_err(|e| format!("no test executable path: {e}"))?;
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .ok_or_else(|| format!("test executable {} has no grandparent", exe.display()))?;
    let bin = profile_dir.join(name);
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "the fers binary is not at {}: run `cargo test --workspace` (which builds it), \
             or `cargo build -p fers-engine` before `cargo test -p fers-tests`, \
             or set FERS_BIN",
            bin.display()
        ))
    }
}

/// Why no line came.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReadError {
    Timeout,
    /// The engine closed its output (it exited).
    Eof,
}

/// A running `fers` process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything written to stderr so far (panic messages end up here).
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Lines sent and received, for failure messages.
    transcript: Vec<String>,
}

impl EngineProcess {
    /// Starts `fers` with no arguments. Panics (failing the test) with a
    /// message saying how to build it when the binary is missing.
    pub fn start() -> EngineProcess {
        EngineProcess::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> EngineProcess {
        let bin = fers_binary().unwrap_or_else(|e| panic!("{e}"));
        let mut child = Command::new(&bin)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut err_pipe = child.stderr.take().expect("stderr is piped");

        // Reader threads keep the pipes drained, so the engine never blocks
        // on a full pipe while the test is busy writing.
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .extend_from_slice(&chunk[..n]);
            }
        });
        EngineProcess {
            child,
            stdin,
            lines: rx,
            stderr,
            transcript: Vec::new(),
        }
    }

    /// Writes raw bytes (for input that is not UTF-8, or several lines).
    pub fn try_send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin was closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// Writes one command line. Panics if the engine's input is closed.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let r = self.try_send_raw(format!("{line}\n").as_bytes());
        if let Err(e) = r {
            panic!("cannot send '{line}': {e}\n{}", self.report());
        }
    }

    /// The next output line, waiting at most `timeout`.
    pub fn read_line(&mut self, timeout: Duration) -> Result<String, ReadError> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Eof),
        }
    }

    /// Reads lines until one satisfies `done`; returns the lines before it
    /// and that line last. Panics on timeout or end of output.
    pub fn read_until(&mut self, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.read_line(left) {
                Ok(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                Err(e) => panic!("{e:?} while waiting for an answer\n{}", self.report()),
            }
        }
    }

    /// Sends `line`, then `isready`, and returns what the engine printed
    /// before `readyok`: the complete answer to `line`, since the engine
    /// handles commands in order.
    pub fn command(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// `isready` / `readyok`: returns the lines printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Waits until the engine has handled everything sent so far, when the
    /// input may itself contain `isready` (random lines): sends a unique
    /// unknown command and reads up to the error line that quotes it.
    /// Returns the lines before that one.
    pub fn drain(&mut self) -> Vec<String> {
        let marker = format!("drain-marker-{}", self.transcript.len());
        self.send(&marker);
        let mut lines =
            self.read_until(|l| l.starts_with("info string error:") && l.contains(&marker));
        lines.pop();
        lines
    }

    /// The FEN that `d` prints.
    pub fn fen(&mut self) -> String {
        let out = self.command("d");
        match out.iter().find_map(|l| l.strip_prefix("Fen: ")) {
            Some(f) => f.to_string(),
            None => panic!("no Fen: line in {out:?}\n{}", self.report()),
        }
    }

    /// Closes the engine's input (end of file for it).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// Waits for the process to end. Panics after [`TIMEOUT`].
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => panic!("fers did not exit in time\n{}", self.report()),
                Err(e) => panic!("cannot wait for fers: {e}"),
            }
        }
    }

    /// What the engine wrote to stderr so far.
    pub fn stderr_text(&self) -> String {
        let buf = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// The transcript and stderr, for failure messages.
    pub fn report(&self) -> String {
        let tail: Vec<&str> = self
            .transcript
            .iter()
            .rev()
            .take(60)
            .rev()
            .map(String::as_str)
            .collect();
        format!(
            "--- transcript (last {} lines) ---\n{}\n--- stderr ---\n{}",
            tail.len(),
            tail.join("\n"),
            self.stderr_text()
        )
    }
}

impl Drop for EngineProcess {
    /// A test that failed half-way must not leave an engine running.
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
