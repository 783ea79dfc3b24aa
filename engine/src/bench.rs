//! `bench`: a fixed set of positions searched to a fixed depth with one
//! thread and a fresh 16 MB table, so that a build always reports the same
//! node count. The last line is `<N> nodes <M> nps` (OpenBench's format).
//!
//! Without a file it searches the chess positions below: from the command
//! line (`fers bench`) with the embedded chess network, the node count a
//! build is known by; as a UCI command with the engine's options (`Use
//! NNUE`, a chess network `EvalFile` loaded), as Stockfish's `bench`
//! uses the loaded network. `bench DEPTH FILE` (UCI)
//! searches a file of FENs of the selected variant instead, with the
//! evaluation a `go` of that variant would use (its network, `EvalFile`,
//! `Use NNUE`), so that a variant's tree can be counted and compared
//! between builds (with the `stats` feature, its census too).

use crate::events::SearchEvent;
use crate::nnue::Network;
use crate::search::Reporter;
use crate::stats;
use crate::thread::{SearchOptions, SearchPool};
use crate::timeman::Limits;
use fers_core::{variant, Game, Position, Variant};
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// Default search depth of `bench`.
pub const BENCH_DEPTH: i32 = 11;

/// Most positions a bench file may hold.
pub const MAX_FILE_POSITIONS: usize = 10_000;

/// The bench positions (orthodox chess: openings, middlegames, endgames).
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9",
    "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
    "2r3k1/pp3ppp/4p3/3pP3/1q1P4/1P3N2/P4PPP/2RQ2K1 w - - 0 20",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
];

/// What a bench searches: positions of one variant and the evaluation
/// its searches use.
pub struct BenchSet {
    positions: Vec<Position>,
    use_nnue: bool,
    eval_net: Option<Arc<Network>>,
}

/// Why a bench file cannot be searched; nothing is searched then.
#[derive(Debug, PartialEq, Eq)]
pub enum BenchError {
    /// The file could not be read.
    Read { path: String, why: String },
    /// A line is not a FEN of the variant (1-based line number).
    BadFen {
        path: String,
        line: usize,
        why: String,
    },
    /// No position in the file.
    Empty(String),
    /// More than [`MAX_FILE_POSITIONS`] positions.
    TooMany(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Read { path, why } => write!(f, "bench: cannot read '{path}': {why}"),
            BenchError::BadFen { path, line, why } => {
                write!(f, "bench: line {line} of '{path}': {why}")
            }
            BenchError::Empty(path) => write!(f, "bench: no position in '{path}'"),
            BenchError::TooMany(path) => write!(
                f,
                "bench: '{path}' holds more than {MAX_FILE_POSITIONS} positions"
            ),
        }
    }
}

impl std::error::Error for BenchError {}

impl BenchSet {
    /// The fixed chess positions with the embedded chess network: the
    /// node count a build is known by (`fers bench`).
    pub fn standard() -> BenchSet {
        BenchSet::standard_with(true, None)
    }

    /// The fixed chess positions with the evaluation of the engine's
    /// options: `Use NNUE`, and the network `EvalFile` loaded (the
    /// embedded one when it is none, or one for another variant).
    pub fn standard_with(use_nnue: bool, eval_net: Option<Arc<Network>>) -> BenchSet {
        let v = variant::chess();
        BenchSet {
            positions: POSITIONS
                .iter()
                .map(|f| Position::from_fen(v, f).expect("bench FEN"))
                .collect(),
            use_nnue,
            eval_net,
        }
    }

    /// The positions of `text` (the contents of `path`), one FEN a line:
    /// what follows a `;` on a line is ignored (labelled position files
    /// read as they are), blank lines and lines starting with `#` are
    /// skipped. Every line is checked before anything is searched.
    pub fn parse(
        variant: &'static Variant,
        path: &str,
        text: &str,
        use_nnue: bool,
        eval_net: Option<Arc<Network>>,
    ) -> Result<BenchSet, BenchError> {
        let mut positions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let fen = line.split(';').next().unwrap_or("").trim();
            if fen.is_empty() || fen.starts_with('#') {
                continue;
            }
            if positions.len() == MAX_FILE_POSITIONS {
                return Err(BenchError::TooMany(path.to_string()));
            }
            let pos = Position::from_fen(variant, fen).map_err(|e| BenchError::BadFen {
                path: path.to_string(),
                line: i + 1,
                why: e.to_string(),
            })?;
            positions.push(pos);
        }
        if positions.is_empty() {
            return Err(BenchError::Empty(path.to_string()));
        }
        Ok(BenchSet {
            positions,
            use_nnue,
            eval_net,
        })
    }

    /// [`BenchSet::parse`] of the file at `path`.
    pub fn read(
        variant: &'static Variant,
        path: &str,
        use_nnue: bool,
        eval_net: Option<Arc<Network>>,
    ) -> Result<BenchSet, BenchError> {
        let text = crate::engine::read_text_file(path, crate::engine::MAX_TEXT_FILE_BYTES)
            .map_err(|why| BenchError::Read {
                path: path.to_string(),
                why,
            })?;
        BenchSet::parse(variant, path, &text, use_nnue, eval_net)
    }

    /// How many positions it searches.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// Runs the standard bench; every line goes to `out`. Returns (nodes, nps).
pub fn run(depth: i32, out: &dyn Fn(&str)) -> (u64, u64) {
    run_set(&BenchSet::standard(), depth, out)
}

/// Searches each position of `set` to `depth` from a fresh table and
/// fresh learnt tables; every line goes to `out`. Returns (nodes, nps).
pub fn run_set(set: &BenchSet, depth: i32, out: &dyn Fn(&str)) -> (u64, u64) {
    let mut pool = SearchPool::new(16);
    pool.options = SearchOptions {
        use_nnue: set.use_nnue,
        eval_net: set.eval_net.clone(),
        ..SearchOptions::default()
    };
    let quiet: Reporter = Arc::new(|_: &SearchEvent| {});
    stats::reset();
    let start = Instant::now();
    let mut total = 0u64;
    for (i, pos) in set.positions.iter().enumerate() {
        // Each position starts afresh, as from `ucinewgame`.
        pool.clear_hash();
        let game = Game::new(pos.clone());
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = pool.search_sync(&game, limits, quiet.clone());
        out(&format!(
            "info string position {} depth {} nodes {} bestmove {}",
            i + 1,
            r.depth,
            r.nodes,
            r.best
                .map(|m| game.position().move_to_uci(m))
                .unwrap_or_else(|| "(none)".into())
        ));
        total += r.nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    let nps = total * 1000 / ms;
    out("");
    out(&format!("Total time (ms) : {ms}"));
    out(&format!("Nodes searched  : {total}"));
    out(&format!("Nodes/second    : {nps}"));
    // The census (built with the `stats` feature) before the last line,
    // which scripts read.
    for line in stats::report(total) {
        out(&format!("info string {line}"));
    }
    out(&format!("{total} nodes {nps} nps"));
    (total, nps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_or_refused_with_its_line() {
        let v = variant::chess();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let text = format!("# comment\n\n{start};0.25\n  {start}  \n");
        let set = BenchSet::parse(v, "f", &text, true, None).expect("two positions");
        assert_eq!(set.len(), 2);
        let bad = format!("{start}\n{start}\nnot a fen\n");
        match BenchSet::parse(v, "f", &bad, true, None) {
            Err(BenchError::BadFen { line, .. }) => assert_eq!(line, 3),
            other => panic!("{:?}", other.err()),
        }
        assert_eq!(
            BenchSet::parse(v, "f", "# nothing\n\n", true, None).err(),
            Some(BenchError::Empty("f".into()))
        );
        let many = format!("{start}\n").repeat(MAX_FILE_POSITIONS + 1);
        assert_eq!(
            BenchSet::parse(v, "f", &many, true, None).err(),
            Some(BenchError::TooMany("f".into()))
        );
    }

    #[test]
    fn the_standard_set_is_the_chess_positions() {
        assert_eq!(BenchSet::standard().len(), POSITIONS.len());
    }
}
