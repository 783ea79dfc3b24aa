//! The search thread pool: Lazy SMP over std threads.
//!
//! A [`SearchPool`] owns the transposition table and a coordinator thread
//! that receives jobs over a crossbeam channel. For each `go` the coordinator
//! runs the main worker itself and `Threads - 1` helper workers on scoped
//! threads; they share the table and one stop flag. The protocol thread is
//! never blocked: `go` returns at once, `stop` and `ponderhit` set flags and
//! wake the coordinator, and the search's events (progress, then the best
//! move) go to the job's [`Reporter`] callback, to be formatted by the
//! protocol that asked.

use crate::evaluate::EvalTables;
use crate::events::{legal_prefix, Score, SearchEvent};
use crate::search::{Memory, Reporter, SearchShared, Worker, INF, MAX_PLY};
use crate::timeman::{budget, Limits};
use crate::tt::TranspositionTable;
use crossbeam_channel::{unbounded, Receiver, Sender};
use fers_core::variant::StalemateRule;
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
    /// The network loaded by `EvalFile`, used where it fits the variant.
    pub eval_net: Option<Arc<crate::nnue::Network>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: 30,
            use_nnue: true,
            eval_net: None,
        }
    }
}

/// What a finished search found (the same as its last events).
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None`: no legal move.
    pub best: Option<Move>,
    /// A legal reply to `best`, for pondering.
    pub ponder: Option<Move>,
    /// On the search's internal scale (see `events::Score::from_internal`).
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    /// The principal variation, legal from the root.
    pub pv: Vec<Move>,
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
    /// Report the best move (off for silent searches).
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
    /// Its events, ending with `BestMove`, go to `reporter`. A search still
    /// running is stopped first (its `BestMove` is still reported).
    pub fn go(&mut self, game: &Game, limits: Limits, reporter: Reporter) {
        self.start(game, limits, reporter, true);
    }

    fn start(&mut self, game: &Game, limits: Limits, reporter: Reporter, print: bool) {
        self.stop();
        self.wait();
        let root = game.position().clone();
        let keys = game.reversible_keys();
        let history = keys[..keys.len().saturating_sub(1)].to_vec();
        let ply = root.plies_played().max(0) as u32;
        let b = budget(
            &limits,
            root.side_to_move(),
            self.options.move_overhead,
            ply,
        );
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

    /// Asks the running search to stop; `BestMove` follows promptly.
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
    /// `BestMove` is not reported (the result says it).
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
    let eval = EvalTables::for_search(root.variant(), options.use_nnue, options.eval_net.as_ref());
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

    // A root result proved exhaustively is played at once: (line, score,
    // nodes). A finite win/loss game near its end: the exact solver
    // (`wormhole_solve.rs`). `go mate N`: the solver's mate search
    // (`mate.rs`); when it proves that no mate exists, a normal search of
    // 2N plies (unless `depth` says otherwise) chooses the move.
    let mut max_depth = max_depth;
    let mut proved: Option<(Vec<Move>, i32, u64)> = None;
    if searchmoves.is_empty() && !main.root_moves.is_empty() {
        if let Some(n) = limits.mate {
            match crate::mate::run(&root, n, &shared, &reporter) {
                crate::mate::MateOutcome::Mate { pv, score, nodes } => {
                    proved = Some((pv, score, nodes));
                }
                crate::mate::MateOutcome::None => {
                    if limits.depth.is_none() {
                        max_depth = (2 * n.min(100) as i32).clamp(1, MAX_PLY as i32 - 4);
                    }
                }
            }
        } else if let Some(solver) = main.solver.as_mut() {
            if let Some(win) = crate::wormhole_solve::solve_root(solver, &root, &shared, &reporter)
            {
                shared.nodes[0].store(win.nodes, Ordering::Relaxed);
                proved = Some((win.line, win.score, win.nodes));
            }
        }
    }
    if let Some((pv, score, nodes)) = proved {
        wait_for_release(&shared, &limits, signal_rx);
        let best = pv.first().copied();
        let ponder = pv.get(1).copied();
        if print_bestmove {
            reporter(&SearchEvent::BestMove { best, ponder });
        }
        memory[0] = Some(main.into_memory());
        return SearchResult {
            best,
            ponder,
            score,
            depth: pv.len() as i32,
            nodes,
            pv,
        };
    }

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
        // No move: mated, or scored by the variant's stalemate rule (a
        // Fanorona or Wormhole side without moves has lost).
        let lost = root.in_check() || root.variant().stalemate == StalemateRule::Loss;
        let score = if lost { Score::Mate(0) } else { Score::Cp(0) };
        reporter(&SearchEvent::NoLegalMove { score });
        wait_for_release(&shared, &limits, signal_rx);
    }
    shared.nodes[0].store(main.nodes, Ordering::Relaxed);

    let best = main.root_moves.first().map(|rm| rm.mv);
    let ponder = best.and_then(|b| ponder_move(&root, b, &main.root_moves[0].pv, &tt));
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
    let result = SearchResult {
        best,
        ponder,
        score,
        depth: main.completed_depth,
        nodes: shared.total_nodes(),
        pv: rm0
            .map(|rm| legal_prefix(&root, &rm.pv))
            .unwrap_or_default(),
    };
    if print_bestmove {
        reporter(&SearchEvent::BestMove { best, ponder });
    }
    memory[0] = Some(main.into_memory());
    result
}

/// The move to ponder on after `best`: the PV's second move, else the
/// table's move for the position after `best`; only if legal there.
fn ponder_move(root: &Position, best: Move, pv: &[Move], tt: &TranspositionTable) -> Option<Move> {
    let mut next = root.clone();
    next.play(best);
    let mut list = MoveList::new();
    next.legal_moves(&mut list);
    let candidate = match pv.get(1) {
        Some(&m) => Some(m),
        None => tt.probe(next.key(), 0).map(|e| e.mv),
    };
    // The table keeps a move's head: find the whole move in the list.
    candidate.and_then(|c| list.iter().find(|m| m.same_head(c)))
}

fn wait_for_release(shared: &SearchShared, limits: &Limits, signal_rx: &Receiver<Signal>) {
    while !shared.stop.load(Ordering::Relaxed)
        && (limits.infinite || shared.pondering.load(Ordering::Relaxed))
    {
        let _ = signal_rx.recv_timeout(Duration::from_millis(20));
    }
}
