//! The search thread pool: Lazy SMP over std threads.
//!
//! A [`SearchPool`] owns the transposition table and a coordinator thread
//! that receives jobs over a crossbeam channel. For each `go` the coordinator
//! runs the main worker itself and `Threads - 1` helper workers on scoped
//! threads; they share the table and one stop flag. The protocol thread is
//! never blocked: `go` returns at once, `stop` and `ponderhit` set flags and
//! wake the coordinator, and `bestmove` is reported through the job's
//! [`Reporter`] callback when the search ends.

use crate::evaluate::EvalTables;
use crate::search::{score_text, Memory, Reporter, SearchShared, Worker, INF, MAX_PLY};
use crate::timeman::{budget, Limits};
use crate::tt::TranspositionTable;
use crossbeam_channel::{unbounded, Receiver, Sender};
use fers_core::{Game, Move, MoveList, Position};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stack size of search threads (positions are copied on every ply).
const STACK: usize = 64 * 1024 * 1024;

/// Engine options that the search reads.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    /// `Use NNUE`: the learned evaluation where the variant has one.
    pub use_nnue: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: 30,
            use_nnue: true,
        }
    }
}

/// What a finished search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// Best move and ponder move in notation (empty best: no legal move).
    pub best_text: Option<String>,
    pub ponder_text: Option<String>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub pv: Vec<String>,
}

impl SearchResult {
    /// The `bestmove` line of UCI.
    pub fn bestmove_line(&self) -> String {
        match (&self.best_text, &self.ponder_text) {
            (None, _) => "bestmove (none)".to_string(),
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
            (Some(b), None) => format!("bestmove {b}"),
        }
    }
}

enum Signal {
    Wake,
}

struct Job {
    root: Position,
    history: Vec<u64>,
    limits: Limits,
    options: SearchOptions,
    tt: Arc<TranspositionTable>,
    shared: Arc<SearchShared>,
    reporter: Reporter,
    /// Print `bestmove` through the reporter (off for silent searches).
    print_bestmove: bool,
    /// Forget the learnt tables of earlier searches (new game, clear hash).
    clear_memory: bool,
}

/// The searchers and their shared table.
pub struct SearchPool {
    tt: Arc<TranspositionTable>,
    pub options: SearchOptions,
    job_tx: Option<Sender<Job>>,
    done_rx: Receiver<SearchResult>,
    signal_tx: Sender<Signal>,
    current: Option<Arc<SearchShared>>,
    coordinator: Option<JoinHandle<()>>,
    /// The next search starts with fresh history tables.
    clear_memory: bool,
}

impl SearchPool {
    /// A pool with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> SearchPool {
        let (job_tx, job_rx) = unbounded::<Job>();
        let (done_tx, done_rx) = unbounded::<SearchResult>();
        let (signal_tx, signal_rx) = unbounded::<Signal>();
        let coordinator = std::thread::Builder::new()
            .name("fers-search".into())
            .stack_size(STACK)
            .spawn(move || {
                let mut memory: Vec<Option<Memory>> = Vec::new();
                while let Ok(job) = job_rx.recv() {
                    // Drop stale wake-ups from an earlier search.
                    while signal_rx.try_recv().is_ok() {}
                    if job.clear_memory {
                        memory.clear();
                    }
                    let result = run_job(job, &signal_rx, &mut memory);
                    if done_tx.send(result).is_err() {
                        break;
                    }
                }
            })
            .expect("spawn search thread");
        SearchPool {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            options: SearchOptions::default(),
            job_tx: Some(job_tx),
            done_rx,
            signal_tx,
            current: None,
            coordinator: Some(coordinator),
            clear_memory: false,
        }
    }

    /// Resizes the table (waits for a running search to end first). On
    /// failure (not enough memory) the old table stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.stop();
        self.wait();
        // Free the old table first, so that its memory can be reused.
        let old_mb = self.tt.size_mb().max(1);
        self.tt = Arc::new(TranspositionTable::new(1));
        match TranspositionTable::try_new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(
                    TranspositionTable::try_new(old_mb)
                        .unwrap_or_else(|_| TranspositionTable::new(1)),
                );
                Err(e)
            }
        }
    }

    /// Empties the table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.wait();
        self.tt.clear();
        self.clear_memory = true;
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    pub fn is_searching(&self) -> bool {
        self.current.is_some()
    }

    /// Starts a search of the game's current position; returns at once.
    /// Info lines and the final `bestmove` line go to `reporter`. A search
    /// still running is stopped first (its `bestmove` is still printed).
    pub fn go(&mut self, game: &Game, limits: Limits, reporter: Reporter) {
        self.start(game, limits, reporter, true);
    }

    fn start(&mut self, game: &Game, limits: Limits, reporter: Reporter, print: bool) {
        self.stop();
        self.wait();
        let root = game.position().clone();
        let keys = game.reversible_keys();
        let history = keys[..keys.len().saturating_sub(1)].to_vec();
        let b = budget(&limits, root.side_to_move(), self.options.move_overhead);
        let threads = self.options.threads.clamp(1, 1024);
        let shared = Arc::new(SearchShared::new(threads, b, limits.nodes));
        shared.pondering.store(limits.ponder, Ordering::Relaxed);
        self.tt.new_search();
        let job = Job {
            root,
            history,
            limits,
            options: self.options.clone(),
            tt: self.tt.clone(),
            shared: shared.clone(),
            reporter,
            print_bestmove: print,
            clear_memory: std::mem::take(&mut self.clear_memory),
        };
        self.current = Some(shared);
        self.job_tx
            .as_ref()
            .expect("pool alive")
            .send(job)
            .expect("search thread alive");
    }

    /// Asks the running search to stop; `bestmove` follows promptly.
    pub fn stop(&self) {
        if let Some(s) = &self.current {
            s.stop.store(true, Ordering::Relaxed);
            let _ = self.signal_tx.send(Signal::Wake);
        }
    }

    /// The opponent played the expected move: the ponder search goes on
    /// as a normal search whose clock starts now.
    pub fn ponderhit(&self) {
        if let Some(s) = &self.current {
            *s.start.lock() = Instant::now();
            s.pondering.store(false, Ordering::Relaxed);
            let _ = self.signal_tx.send(Signal::Wake);
        }
    }

    /// Waits for the running search (if any) and returns its result.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.current.take()?;
        self.done_rx.recv().ok()
    }

    /// Returns the result if the search has ended, without blocking.
    pub fn try_result(&mut self) -> Option<SearchResult> {
        self.current.as_ref()?;
        match self.done_rx.try_recv() {
            Ok(r) => {
                self.current = None;
                Some(r)
            }
            Err(_) => None,
        }
    }

    /// Searches to the end and returns the result (tests, bench, tools).
    /// `bestmove` is not printed through the reporter.
    pub fn search_sync(&mut self, game: &Game, limits: Limits, reporter: Reporter) -> SearchResult {
        self.start(game, limits, reporter, false);
        self.wait().expect("search result")
    }
}

impl Drop for SearchPool {
    fn drop(&mut self) {
        self.stop();
        self.wait();
        self.job_tx = None;
        if let Some(h) = self.coordinator.take() {
            let _ = h.join();
        }
    }
}

/// Runs one search on the coordinator thread.
/// `memory` holds each thread's learnt tables between searches.
fn run_job(
    job: Job,
    signal_rx: &Receiver<Signal>,
    memory: &mut Vec<Option<Memory>>,
) -> SearchResult {
    let Job {
        root,
        history,
        limits,
        options,
        tt,
        shared,
        reporter,
        print_bestmove,
        clear_memory: _,
    } = job;
    let mut eval = EvalTables::for_variant(root.variant());
    if !options.use_nnue && eval.nnue.is_some() {
        eval = EvalTables::classical(root.variant());
    }
    let searchmoves: Vec<Move> = limits
        .searchmoves
        .iter()
        .filter_map(|s| root.parse_move(s).ok())
        .collect();
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as i32)
        .clamp(1, MAX_PLY as i32 - 4);
    let multipv = options.multipv.max(1);
    let threads = shared.nodes.len();

    memory.resize_with(threads.max(memory.len()), || None);
    let mut main = Worker::new(
        0,
        shared.clone(),
        tt.clone(),
        eval.clone(),
        memory[0].take(),
    );
    main.set_root(&root, &history, &searchmoves);

    if !main.root_moves.is_empty() {
        std::thread::scope(|s| {
            let mut helpers = Vec::new();
            for (id, mem) in memory.iter_mut().enumerate().take(threads).skip(1) {
                let (shared, tt, eval) = (shared.clone(), tt.clone(), eval.clone());
                let m = mem.take();
                let (root, history, sm) = (&root, &history, &searchmoves);
                let h = std::thread::Builder::new()
                    .name(format!("fers-helper-{id}"))
                    .stack_size(STACK)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(id, shared, tt, eval, m);
                        w.set_root(root, history, sm);
                        w.iterate(root, max_depth, 1, None, None);
                        w.into_memory()
                    });
                if let Ok(h) = h {
                    helpers.push((id, h));
                }
            }
            main.iterate(&root, max_depth, multipv, limits.mate, Some(&reporter));
            // `go infinite` and pondering wait for `stop` / `ponderhit`.
            wait_for_release(&shared, &limits, signal_rx);
            shared.stop.store(true, Ordering::Relaxed);
            for (id, h) in helpers {
                if let Ok(m) = h.join() {
                    memory[id] = Some(m);
                }
            }
        });
    } else {
        let score = if root.in_check() { "mate 0" } else { "cp 0" };
        reporter(&format!("info depth 0 score {score}"));
        wait_for_release(&shared, &limits, signal_rx);
    }
    shared.nodes[0].store(main.nodes, Ordering::Relaxed);

    let best = main.root_moves.first().map(|rm| rm.mv);
    let mut ponder = main.root_moves.first().and_then(|rm| rm.pv.get(1).copied());
    if let (Some(b), None) = (best, ponder) {
        // No second PV move: try the table.
        let mut next = root.clone();
        next.play(b);
        if let Some(e) = tt.probe(next.key(), 0) {
            let mut list = MoveList::new();
            next.legal_moves(&mut list);
            if list.contains(e.mv) {
                ponder = Some(e.mv);
            }
        }
    }
    let best_text = best.map(|m| root.move_to_uci(m));
    let ponder_text = match (best, ponder) {
        (Some(b), Some(p)) => {
            let mut next = root.clone();
            next.play(b);
            let mut list = MoveList::new();
            next.legal_moves(&mut list);
            list.contains(p).then(|| next.move_to_uci(p))
        }
        _ => None,
    };
    let rm0 = main.root_moves.first();
    let score = rm0
        .map(|rm| {
            if rm.score == -INF {
                rm.prev_score
            } else {
                rm.score
            }
        })
        .unwrap_or(0);
    let pv = rm0
        .map(|rm| {
            crate::search::pv_text(&rm.pv, Some(&root))
                .split_whitespace()
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let result = SearchResult {
        best,
        ponder,
        best_text,
        ponder_text,
        score,
        depth: main.completed_depth,
        nodes: shared.total_nodes(),
        pv,
    };
    let _ = score_text; // (score formatting lives in search.rs)
    if print_bestmove {
        reporter(&result.bestmove_line());
    }
    memory[0] = Some(main.into_memory());
    result
}

fn wait_for_release(shared: &SearchShared, limits: &Limits, signal_rx: &Receiver<Signal>) {
    while !shared.stop.load(Ordering::Relaxed)
        && (limits.infinite || shared.pondering.load(Ordering::Relaxed))
    {
        let _ = signal_rx.recv_timeout(Duration::from_millis(20));
    }
}
