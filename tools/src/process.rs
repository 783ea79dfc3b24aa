//! An engine child process spoken to line by line: stdin for commands, a
//! reader thread that turns stdout into a channel of lines, so that every
//! read has a deadline and a dead engine is noticed (the channel closes).
//! The last lines the engine wrote are kept for fault reports.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How many output lines are kept for fault reports.
const KEPT_LINES: usize = 12;

/// How to start an engine.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// Where the engine's stderr goes (`None`: discarded).
    pub stderr: Option<PathBuf>,
}

/// One line read from the engine, or why there is none.
#[derive(Debug)]
pub enum ReadError {
    /// Nothing came before the deadline.
    Timeout,
    /// The engine closed its output (exited or crashed).
    Closed,
    /// The engine wrote bytes that are not UTF-8 text.
    NotText(String),
}

/// Starting the process failed.
#[derive(Debug)]
pub struct SpawnError {
    pub cmd: String,
    pub source: io::Error,
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot start '{}': {}", self.cmd, self.source)
    }
}

impl std::error::Error for SpawnError {}

enum Output {
    Line(String),
    NotText(String),
}

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    recent: VecDeque<String>,
    /// Every line exchanged, prefixed `>` (sent) or `<` (received), when
    /// debugging is on.
    debug: Option<String>,
}

impl Process {
    pub fn spawn(launch: &Launch, debug: Option<String>) -> Result<Process, SpawnError> {
        let err = |source| SpawnError {
            cmd: launch.cmd.clone(),
            source,
        };
        let mut cmd = Command::new(&launch.cmd);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &launch.stderr {
            Some(path) => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(err)?;
                cmd.stderr(f);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(dir) = &launch.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(err)?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        while matches!(buf.last(), Some(b'\n' | b'\r')) {
                            buf.pop();
                        }
                        let out = match String::from_utf8(buf.clone()) {
                            Ok(s) => Output::Line(s),
                            Err(_) => Output::NotText(String::from_utf8_lossy(&buf).into_owned()),
                        };
                        if tx.send(out).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines: rx,
            recent: VecDeque::new(),
            debug,
        })
    }

    /// Sends one line; a closed pipe is reported as `Closed`.
    pub fn send(&mut self, line: &str) -> Result<(), ReadError> {
        if let Some(tag) = &self.debug {
            eprintln!("{tag} > {line}");
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(ReadError::Closed);
        };
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| ReadError::Closed)
    }

    /// The next line, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Output::Line(s)) => {
                if let Some(tag) = &self.debug {
                    eprintln!("{tag} < {s}");
                }
                self.remember(&s);
                Ok(s)
            }
            Ok(Output::NotText(s)) => {
                self.remember(&s);
                Err(ReadError::NotText(s))
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    fn remember(&mut self, s: &str) {
        if self.recent.len() == KEPT_LINES {
            self.recent.pop_front();
        }
        self.recent.push_back(s.to_string());
    }

    /// The last lines the engine wrote, oldest first.
    pub fn recent_output(&self) -> Vec<String> {
        self.recent.iter().cloned().collect()
    }

    /// Exit status if the process has ended.
    pub fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(st)) => Some(st.to_string()),
            _ => None,
        }
    }

    /// Asks the engine to quit with `quit_line`, waits up to `grace`, then kills it.
    pub fn shutdown(&mut self, quit_line: &str, grace: Duration) {
        let _ = self.send(quit_line);
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}
