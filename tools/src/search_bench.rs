//! Search speed, like for like: `fers bench D`, `fairy-stockfish bench` and
//! `stockfish bench` run one after the other on the same machine, all three
//! on fers's bench positions (written to a FEN file for the other two:
//! Stockfish's `bench [hash] [threads] [limit] [fenFile] [limitType]`) at
//! the same depth, with one thread and 16 MB. Each reports the nodes it
//! needed to reach the depth, the time it took, and nodes per second: a
//! less selective search inflates nps, so the nodes and the time to depth
//! are compared too.
//!
//! The engines end their bench with the Stockfish summary
//! (`Total time (ms) : T`, `Nodes searched  : N`, `Nodes/second    : M`);
//! fers also prints `N nodes M nps` (OpenBench's line). Either is read.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One bench run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
    /// Wall time of the whole run, process start included.
    pub seconds: f64,
    /// The search time the engine reports (`Total time (ms)`), or the wall
    /// time when it reports none.
    pub search_ms: u64,
    /// How many positions it searched: Stockfish's `Position: i/n` lines
    /// (on stderr), or fers's `info string position i ...` lines.
    pub positions: usize,
}

/// A bench that could not be run or read.
#[derive(Debug)]
pub enum BenchError {
    Spawn {
        cmd: PathBuf,
        error: std::io::Error,
    },
    Failed {
        cmd: PathBuf,
        status: String,
        output: String,
    },
    NoSummary {
        cmd: PathBuf,
        output: String,
    },
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Spawn { cmd, error } => {
                write!(f, "cannot start {}: {error}", cmd.display())
            }
            BenchError::Failed {
                cmd,
                status,
                output,
            } => write!(f, "{} bench failed ({status}): {output}", cmd.display()),
            BenchError::NoSummary { cmd, output } => write!(
                f,
                "{} bench printed no node count / nps summary; last output: {output}",
                cmd.display()
            ),
        }
    }
}

impl std::error::Error for BenchError {}

fn field(line: &str, label: &str) -> Option<u64> {
    let rest = line.trim().strip_prefix(label)?;
    rest.trim().strip_prefix(':')?.trim().parse().ok()
}

/// The positions a bench's output names: `Position: i/n` (Stockfish) or
/// `info string position i ...` (fers).
pub fn count_positions(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("Position: ") || l.starts_with("info string position "))
        .count()
}

/// The `Total time (ms)` of a bench's output (the last one).
pub fn parse_bench_time(text: &str) -> Option<u64> {
    text.lines().rev().find_map(|l| field(l, "Total time (ms)"))
}

/// Reads the summary of a bench's output (the last one if there are several).
pub fn parse_bench_output(text: &str) -> Option<(u64, u64)> {
    let mut nodes = None;
    let mut nps = None;
    let mut short = None;
    for line in text.lines() {
        if let Some(n) = field(line, "Nodes searched") {
            nodes = Some(n);
        }
        if let Some(n) = field(line, "Nodes/second") {
            nps = Some(n);
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        if let [n, "nodes", s, "nps"] = w.as_slice() {
            if let (Ok(n), Ok(s)) = (n.parse(), s.parse()) {
                short = Some((n, s));
            }
        }
    }
    match (nodes, nps) {
        (Some(n), Some(s)) => Some((n, s)),
        _ => short,
    }
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().rev().take(4).collect();
    lines.into_iter().rev().collect::<Vec<_>>().join(" | ")
}

/// Runs `cmd args...` and reads its bench summary.
pub fn run_bench(cmd: &Path, args: &[String]) -> Result<BenchResult, BenchError> {
    let t = Instant::now();
    let out = Command::new(cmd)
        .args(args)
        .output()
        .map_err(|error| BenchError::Spawn {
            cmd: cmd.to_path_buf(),
            error,
        })?;
    let seconds = t.elapsed().as_secs_f64();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        return Err(BenchError::Failed {
            cmd: cmd.to_path_buf(),
            status: out.status.to_string(),
            output: tail(&text),
        });
    }
    let (nodes, nps) = parse_bench_output(&text).ok_or_else(|| BenchError::NoSummary {
        cmd: cmd.to_path_buf(),
        output: tail(&text),
    })?;
    Ok(BenchResult {
        nodes,
        nps,
        seconds,
        search_ms: parse_bench_time(&text).unwrap_or((seconds * 1000.0) as u64),
        positions: count_positions(&text),
    })
}

/// Writes fers's bench positions (`fers_engine::bench::POSITIONS`) to
/// `path`, one FEN a line, for Stockfish-style `bench ... FILE depth`.
pub fn write_fen_file(path: &Path) -> std::io::Result<()> {
    let mut text = String::new();
    for fen in fers_engine::bench::POSITIONS {
        text.push_str(fen);
        text.push('\n');
    }
    std::fs::write(path, text)
}

/// The arguments of a Stockfish-style bench (Stockfish, Fairy-Stockfish) on
/// a FEN file at a fixed depth, one thread, 16 MB.
pub fn stockfish_bench_args(depth: u32, fen_file: &Path) -> Vec<String> {
    vec![
        "bench".into(),
        "16".into(),
        "1".into(),
        depth.to_string(),
        fen_file.display().to_string(),
        "depth".into(),
    ]
}

/// The `fers` binary next to the running tool (both are built into the
/// same `target/<profile>/`), if it is there.
pub fn sibling_fers() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    // Test binaries live one level deeper, in `deps/`.
    [dir.join("fers"), dir.parent()?.join("fers")]
        .into_iter()
        .find(|p| p.is_file())
}

/// The best (highest nps) of `repeat` runs.
pub fn best_of(repeat: u32, cmd: &Path, args: &[String]) -> Result<BenchResult, BenchError> {
    let mut best: Option<BenchResult> = None;
    for _ in 0..repeat.max(1) {
        let r = run_bench(cmd, args)?;
        // (A match rather than `is_none_or`, which needs Rust 1.82.)
        let better = match best {
            None => true,
            Some(b) => r.nps > b.nps,
        };
        if better {
            best = Some(r);
        }
    }
    Ok(best.expect("at least one run"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stockfish_and_openbench_summaries() {
        let fsf = "info depth 1\nbestmove e2e4\n\n===========================\n\
                   Total time (ms) : 747\nNodes searched  : 378127\nNodes/second    : 506194\n";
        assert_eq!(parse_bench_output(fsf), Some((378_127, 506_194)));
        let fers = "info string position 1 depth 11 nodes 5000 bestmove e2e4\n\n\
                    Total time (ms) : 10\nNodes searched  : 5000\nNodes/second    : 500000\n\
                    5000 nodes 500000 nps\n";
        assert_eq!(parse_bench_output(fers), Some((5000, 500_000)));
        assert_eq!(parse_bench_output("123 nodes 456 nps"), Some((123, 456)));
        assert_eq!(parse_bench_output("nothing here"), None);
        assert_eq!(parse_bench_time(fsf), Some(747));
        assert_eq!(parse_bench_time(fers), Some(10));
        assert_eq!(parse_bench_time("123 nodes 456 nps"), None);
        assert_eq!(count_positions(fers), 1);
        assert_eq!(
            count_positions("Position: 1/2 (x)\ninfo\nPosition: 2/2 (y)\n"),
            2
        );
    }

    #[test]
    fn stockfish_bench_arguments_name_the_file_and_depth() {
        let args = stockfish_bench_args(11, Path::new("/tmp/x.epd"));
        assert_eq!(args, ["bench", "16", "1", "11", "/tmp/x.epd", "depth"]);
    }
}
