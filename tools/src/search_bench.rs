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
use std::process::{Command, Stdio};
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
    /// CPU time (user + system, all threads) of the whole process, from
    /// Linux's `/proc/<pid>/stat` of the exited process; `None` elsewhere.
    /// Less sensitive than the wall time to other programs on the machine.
    pub cpu_seconds: Option<f64>,
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
    use std::io::Read;
    let spawn_error = |error| BenchError::Spawn {
        cmd: cmd.to_path_buf(),
        error,
    };
    let t = Instant::now();
    let mut child = Command::new(cmd)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_error)?;
    let mut stderr = child.stderr.take().expect("piped stderr");
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let mut stdout = Vec::new();
    let _ = child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_end(&mut stdout);
    let stderr = err_reader.join().unwrap_or_default();
    // Both pipes are closed: the process is exiting. Read its CPU time
    // while it is a zombie, before `wait` reaps it.
    let cpu_seconds = exited_cpu_seconds(child.id());
    let status = child.wait().map_err(spawn_error)?;
    let seconds = t.elapsed().as_secs_f64();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    if !status.success() {
        return Err(BenchError::Failed {
            cmd: cmd.to_path_buf(),
            status: status.to_string(),
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
        cpu_seconds,
    })
}

/// User + system CPU seconds of process `pid` once it has exited (a zombie
/// not yet reaped), from `/proc/<pid>/stat`; waits up to about a second for
/// the exit. `None` without `/proc` or if the process does not exit.
fn exited_cpu_seconds(pid: u32) -> Option<f64> {
    let path = format!("/proc/{pid}/stat");
    for _ in 0..200 {
        let text = std::fs::read_to_string(&path).ok()?;
        let (state, utime, stime) = parse_proc_stat(&text)?;
        if state == 'Z' {
            // USER_HZ, the unit of these fields, is 100 on Linux.
            return Some((utime + stime) as f64 / 100.0);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    None
}

/// (state, utime, stime) of a `/proc/<pid>/stat` line. The command name is
/// in parentheses and may hold spaces, so fields are counted after the last
/// `)`: state is field 3, utime 14 and stime 15.
fn parse_proc_stat(text: &str) -> Option<(char, u64, u64)> {
    let rest = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let state = f.first()?.chars().next()?;
    Some((state, f.get(11)?.parse().ok()?, f.get(12)?.parse().ok()?))
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
    fn reads_the_cpu_time_of_a_proc_stat_line() {
        // From a real /proc/<pid>/stat (the name holds a space and a paren).
        let line = "4242 (fers (x) y) Z 1 4242 4242 0 -1 4194560 1000 0 0 0 \
                    1234 56 0 0 20 0 3 0 100 0 0";
        assert_eq!(parse_proc_stat(line), Some(('Z', 1234, 56)));
        assert_eq!(parse_proc_stat("garbage"), None);
    }

    /// A child that burns some CPU: the reading is positive and no more
    /// than the wall time (one thread).
    #[test]
    #[cfg(target_os = "linux")]
    fn measures_the_cpu_time_of_a_finished_process() {
        let r = run_bench(
            Path::new("sh"),
            &[
                "-c".to_string(),
                "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; \
                 echo 'Total time (ms) : 1'; echo '1 nodes 1 nps'"
                    .to_string(),
            ],
        )
        .expect("sh runs");
        let cpu = r.cpu_seconds.expect("cpu time read");
        assert!(
            cpu > 0.0 && cpu <= r.seconds + 0.05,
            "{cpu} s of CPU in {} s",
            r.seconds
        );
        assert_eq!((r.nodes, r.nps, r.search_ms), (1, 1, 1));
    }

    #[test]
    fn stockfish_bench_arguments_name_the_file_and_depth() {
        let args = stockfish_bench_args(11, Path::new("/tmp/x.epd"));
        assert_eq!(args, ["bench", "16", "1", "11", "/tmp/x.epd", "depth"]);
    }
}
