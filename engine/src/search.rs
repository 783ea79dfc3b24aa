//! The search: iterative deepening, principal variation search with
//! aspiration windows, quiescence search, and the usual selectivity.
//!
//! Everything here goes through the `Position` API of fers-core (legal move
//! generation, copy-make `play`, `in_check`, `is_capture`), so every variant
//! is searched by the same code: games without a royal piece simply never
//! report check; the stalemate rule of the variant scores positions with no
//! legal move; the move-count rule and repetitions (against the game history
//! and inside the tree) score draws.
//!
//! One [`Worker`] per thread; Lazy SMP workers share only the transposition
//! table and the stop flag (see `thread.rs`).

use crate::evaluate::{evaluate_lazy_cached, EvalTables, DRAW};
use crate::events::{legal_prefix, Bound as ScoreBound, Score, SearchEvent, SearchInfo};
use crate::nnue::{NnueStack, HAND_UNIT};
use crate::pawns::PawnCache;
use crate::stats::{self, Stat};
use crate::timeman::{Budget, ClockMemory, IterationClock};
use crate::tt::{Bound, TranspositionTable, TtEntry, NO_EVAL};
use crate::wormhole_solve::{self, Solver};
use fers_core::moves::{MoveBuf, MAX_MOVES};
use fers_core::variant::StalemateRule;
use fers_core::{Move, MoveFlag, MoveList, Piece, Position};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const MAX_PLY: usize = 128;
pub const MATE: i32 = 32000;
pub const INF: i32 = 32500;
/// Scores beyond this are mates.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32 - 8;

/// Mate scores are stored relative to the node, not the root.
#[inline]
pub fn score_to_tt(s: i32, ply: i32) -> i32 {
    if s >= MATE_IN_MAX {
        s + ply
    } else if s <= -MATE_IN_MAX {
        s - ply
    } else {
        s
    }
}

#[inline]
pub fn score_from_tt(s: i32, ply: i32) -> i32 {
    if s >= MATE_IN_MAX {
        s - ply
    } else if s <= -MATE_IN_MAX {
        s + ply
    } else {
        s
    }
}

/// State shared by all workers of one search.
pub struct SearchShared {
    pub stop: AtomicBool,
    /// Set while `go ponder` has not seen `ponderhit`.
    pub pondering: AtomicBool,
    /// Node counters of the workers (each written by its own worker).
    pub nodes: Vec<AtomicU64>,
    /// When the clock started for this move (moved by `ponderhit`).
    pub start: Mutex<Instant>,
    pub budget: Option<Budget>,
    pub node_limit: Option<u64>,
}

impl SearchShared {
    pub fn new(threads: usize, budget: Option<Budget>, node_limit: Option<u64>) -> Self {
        SearchShared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            start: Mutex::new(Instant::now()),
            budget,
            node_limit,
        }
    }
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
    pub fn elapsed(&self) -> Duration {
        self.start.lock().elapsed()
    }
}

/// A root move with its latest score and principal variation.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

pub use crate::events::Reporter;

/// Per-thread search state.
pub struct Worker {
    pub id: usize,
    pub shared: Arc<SearchShared>,
    pub tt: Arc<TranspositionTable>,
    pub eval: Arc<EvalTables>,
    pub nodes: u64,
    pub seldepth: usize,
    /// Keys of the game since the last irreversible move, then of the
    /// positions on the current search path (parents of the current node).
    keys: Vec<u64>,
    /// Repetition look-back stops here (set by null moves).
    rep_floor: usize,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    /// Reply that refuted a move last time, by that move's from/to: its
    /// head (`Move::head`), a quarter of a whole move's bytes.
    counter: Vec<u32>,
    /// Move played at each ply on the current path.
    move_stack: [Move; MAX_PLY + 4],
    /// Move left out at each ply by a singular-extension search (or NONE).
    excluded: [Move; MAX_PLY + 4],
    /// Double extensions on the path to each ply (`singular_extension`).
    double_exts: [u8; MAX_PLY + 4],
    /// Continuation history: `cont[ctx * stride + piece_to]`, where `ctx` is
    /// the piece/destination of the move one or two plies earlier and
    /// `piece_to` that of the move being scored. Empty (disabled) when the
    /// variant's table would be too large.
    cont: Vec<i16>,
    cont_stride: usize,
    /// Capture history: `capt[piece_to * victims + victim kind]`, how often
    /// a capture of that kind by that piece on that square was best.
    capt: Vec<i16>,
    /// Victim slots per piece/destination (the variant's kinds).
    victims: usize,
    /// Correction history: by side to move and pawn key, the running
    /// average of (search result - static evaluation), in 1/CORR_GRAIN cp.
    corr: Vec<i32>,
    /// Pawn structures seen by this thread.
    pawns: Box<PawnCache>,
    /// The exact endgame solver (`wormhole_solve.rs`), where it applies.
    pub solver: Option<Box<Solver>>,
    /// Nodes at this ply or deeper are solved exactly (`i32::MAX`: none).
    solve_ply: i32,
    /// The learned evaluation's accumulators, per ply.
    nnue: NnueStack,
    /// Piece/destination index of the move at each ply (`NO_CTX`: none).
    ctx: [usize; MAX_PLY + 4],
    nsq: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    evals: [i32; MAX_PLY + 4],
    /// Move-ordering scores, doubled: the low bit marks a capture worth
    /// more than 50 over its victim whose static exchange is still to be
    /// judged, when `pick` first reaches it; quiet moves wait at
    /// `QUIET_PENDING` for their histories.
    scores: Vec<i32>,
    pub root_moves: Vec<RootMove>,
    pub root_depth: i32,
    pv_idx: usize,
    lmr: Vec<[u8; 64]>,
    pub completed_depth: i32,
    pub root_pos: Option<Position>,
    /// New best moves at the root in the current iteration (first line).
    best_changes: u32,
    /// What the last search of the game told time management.
    clock: ClockMemory,
}

/// Quiescence plies after which a quiet move's check no longer makes the
/// child search every evasion.
const QS_CHECK_PLIES: u32 = 6;
/// Quiescence plies searched where captures do not simplify
/// (`Capabilities::captures_simplify`).
const QS_MAX_PLIES: u32 = 6;
const TIME_CHECK_MASK: u64 = 255;
/// Nodes of the tree whose game has at most this many plies left (by
/// `wormhole_solve::game_bound`) are solved exactly where the solver
/// applies.
pub const TREE_SOLVE_BOUND: i32 = 14;
/// The largest solve inside the tree, in solver nodes.
const TREE_SOLVE_NODES: u64 = 2000;

/// How far above beta a capture must score in ProbCut's shallow search.
const PROBCUT_MARGIN: i32 = 200;

/// Entries of the correction history per side to move.
const CORR_SIZE: usize = 16384;
/// Fixed-point unit of a correction-history entry (one centipawn).
const CORR_GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const CORR_MAX: i32 = 64;

/// The network's score, faded towards a draw as the move-count rule
/// approaches (as the hand-written evaluation does) and kept clear of mate
/// scores.
fn nnue_score(pos: &Position, raw: i32) -> i32 {
    let rule = pos.variant().move_rule as i32;
    let v = if rule > 0 {
        raw * (rule * 2 - pos.halfmove_clock() as i32).max(0) / (rule * 2)
    } else {
        raw
    };
    v.clamp(-MATE_IN_MAX / 2, MATE_IN_MAX / 2)
}

/// What a thread has learnt about move ordering and its evaluation, kept
/// from one `go` to the next of the same game (cleared with the hash).
pub struct Memory {
    /// The variant the tables were sized for (by address).
    variant: usize,
    history: Vec<i32>,
    counter: Vec<u32>,
    cont: Vec<i16>,
    capt: Vec<i16>,
    corr: Vec<i32>,
    pawns: Box<PawnCache>,
    /// The endgame solver's table (finite win/loss games only).
    solver: Option<Box<Solver>>,
    clock: ClockMemory,
}

/// No continuation context (root, null move).
const NO_CTX: usize = usize::MAX;

/// Does the capture `m` probably lose material? Static exchange where it
/// sees every attacker; elsewhere also any defended victim.
#[inline]
fn losing(ev: &EvalTables, pos: &Position, m: Move) -> bool {
    if pos.variant().capture.is_some() {
        // Capture styles: could the mover be taken where it lands?
        let mut next = pos.clone();
        next.play(m);
        return next.capturable(m.to(), next.side_to_move());
    }
    !pos.see_ge(m, 0, &ev.order_value)
        || (!pos.see_exact() && pos.attacked(m.to(), pos.side_to_move().flip()))
}

/// Move-ordering score of the table's move: first.
const TT_MOVE: i32 = 1 << 28;
/// Move-ordering scores of captures (plus their victim and history): those
/// that do not lose material come after the table's move and before the
/// promotions and killers, those that probably do after the killers.
const GOOD_CAPTURE: i32 = 1 << 24;
const LOSING_CAPTURE: i32 = -(1 << 20);
/// The score of a quiet move whose history is yet to be looked up: after
/// the killers and the countermove, before every history score.
const QUIET_PENDING: i32 = (1 << 22) - 2;

/// What the steps of one `search` node share (its window is passed apart:
/// alpha rises as moves are searched).
struct Node {
    key: u64,
    ply: usize,
    /// After internal iterative reduction.
    depth: i32,
    pv: bool,
    cut: bool,
    in_check: bool,
    /// The static evaluation is above that of two plies before.
    improving: bool,
    /// The evaluations of `Worker::node_evals`.
    raw_eval: i32,
    corr_eval: i32,
    static_eval: i32,
    tt_move: Move,
    /// The move a singular-extension search leaves out, or none.
    excluded: Move,
}

/// A late move's fate before it is played (`Worker::prune_before_play`).
enum Prune {
    Skip,
    /// Futile: skipped unless it gives check.
    UnlessCheck,
    No,
}
/// Late-move reductions: `0.5 + ln(depth) ln(move number) / LMR_DIVISOR`.
const LMR_DIVISOR: f64 = 1.8;
/// A singular search that fails this far below its bound extends the
/// table's move by two plies (outside PV nodes), ...
const DOUBLE_EXT_MARGIN: i32 = 40;
/// ... at most this many times on one path, and only at plies below
/// `2 * root_depth`, so that the depth cannot run away.
const MAX_DOUBLE_EXTS: u8 = 8;
/// Deepest node whose late quiet moves are pruned by move count.
const MOVE_COUNT_DEPTH: i32 = 10;
/// Deepest node whose captures are pruned by static exchange.
const CAPTURE_SEE_DEPTH: i32 = 10;
/// Quiet moves whose reduced depth is below this are pruned when both
/// continuation histories (the moves 1 and 2 plies back) are negative.
const CONT_PRUNE_LMR_DEPTH: i32 = 4;
/// Quiet moves whose reduced depth is below this are futility-pruned.
const FUTILITY_LMR_DEPTH: i32 = 7;

/// The number of moves after which late quiet moves are pruned at shallow
/// depths (`MOVE_COUNT_DEPTH`), and captures reduced like quiet ones.
#[inline]
fn move_count_limit(depth: i32, improving: bool) -> usize {
    ((5 + depth * depth) * (1 + improving as i32) / 2) as usize
}

/// Largest continuation-history table (entries of 2 bytes) per thread.
const MAX_CONT_ENTRIES: usize = 1 << 22;

impl Worker {
    pub fn new(
        id: usize,
        shared: Arc<SearchShared>,
        tt: Arc<TranspositionTable>,
        eval: Arc<EvalTables>,
        memory: Option<Memory>,
    ) -> Worker {
        let nsq = eval.variant.geometry.num_squares();
        let variant_id = eval.variant as *const _ as usize;
        let memory = memory.filter(|m| m.variant == variant_id);
        // Piece codes are ((kind + 1) << 1) | colour.
        let cont_stride = (2 * eval.variant.pieces.len() + 2) * nsq;
        let mut lmr = vec![[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.5 + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
                *r = v.max(0.0) as u8;
            }
        }
        let victims = eval.variant.pieces.len();
        let cont_len = if cont_stride * cont_stride <= MAX_CONT_ENTRIES {
            cont_stride * cont_stride
        } else {
            0
        };
        // Capture history shares the piece/destination index of `cont`.
        let capt_len = if cont_len > 0 {
            cont_stride * victims
        } else {
            0
        };
        let memory = memory.unwrap_or_else(|| Memory {
            variant: variant_id,
            history: vec![0; 2 * nsq * nsq],
            counter: vec![0; 2 * nsq * nsq],
            cont: vec![0; cont_len],
            capt: vec![0; capt_len],
            corr: vec![0; 2 * CORR_SIZE],
            pawns: Box::default(),
            solver: None,
            clock: ClockMemory::default(),
        });
        let solver = if wormhole_solve::applies(eval.variant) {
            Some(memory.solver.unwrap_or_default())
        } else {
            None
        };
        Worker {
            id,
            shared,
            tt,
            eval,
            nodes: 0,
            seldepth: 0,
            keys: Vec::with_capacity(1024),
            rep_floor: 0,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 4],
            history: memory.history,
            counter: memory.counter,
            move_stack: [Move::NONE; MAX_PLY + 4],
            excluded: [Move::NONE; MAX_PLY + 4],
            double_exts: [0; MAX_PLY + 4],
            cont: memory.cont,
            cont_stride,
            capt: memory.capt,
            victims,
            corr: memory.corr,
            pawns: memory.pawns,
            solver,
            solve_ply: i32::MAX,
            nnue: NnueStack::new(MAX_PLY + 4),
            ctx: [NO_CTX; MAX_PLY + 4],
            nsq,
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            evals: [0; MAX_PLY + 4],
            scores: vec![0; (MAX_PLY + 2) * MAX_MOVES],
            root_moves: Vec::new(),
            root_depth: 0,
            pv_idx: 0,
            lmr,
            completed_depth: 0,
            root_pos: None,
            best_changes: 0,
            clock: memory.clock,
        }
    }

    /// The learnt tables, for the next search of the same game.
    pub fn into_memory(self) -> Memory {
        Memory {
            variant: self.eval.variant as *const _ as usize,
            history: self.history,
            counter: self.counter,
            cont: self.cont,
            capt: self.capt,
            corr: self.corr,
            pawns: self.pawns,
            solver: self.solver,
            clock: self.clock,
        }
    }

    #[inline]
    fn corr_idx(pos: &Position) -> usize {
        pos.side_to_move().index() * CORR_SIZE + (pos.pawn_key() as usize & (CORR_SIZE - 1))
    }

    /// The static evaluation for the side to move: the learned network
    /// where the variant has one (a residual network's output added to the
    /// weighted hand-written evaluation), else the hand-written evaluation.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        self.evaluate_lazy(pos, ply, -i32::MAX, i32::MAX).0
    }

    /// [`Self::evaluate`], or the hand-written evaluation's early estimate
    /// when that is far outside the window (see `evaluate_lazy_cached`);
    /// `true` when the score is the full evaluation.
    #[inline]
    fn evaluate_lazy(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32) -> (i32, bool) {
        let Some(map) = &self.eval.nnue else {
            return evaluate_lazy_cached(pos, &self.eval, &mut self.pawns, alpha, beta);
        };
        let net = nnue_score(pos, self.nnue.evaluate(pos, map, ply));
        let Some(w) = map.residual() else {
            return (net, true);
        };
        // The hand-written part's window: (alpha, beta) less the network's
        // output, in the hand-written evaluation's units (no early estimate
        // for a weight that is not positive).
        let hand_units = |x: i32| {
            let x = (x as i64 - net as i64) * HAND_UNIT as i64 / w.max(1) as i64;
            x.clamp(-i32::MAX as i64, i32::MAX as i64) as i32
        };
        let (lo, hi) = if w > 0 {
            (hand_units(alpha), hand_units(beta))
        } else {
            (-i32::MAX, i32::MAX)
        };
        let (hand, full) = evaluate_lazy_cached(pos, &self.eval, &mut self.pawns, lo, hi);
        let score = map
            .with_hand(net, hand)
            .clamp(-MATE_IN_MAX / 2, MATE_IN_MAX / 2);
        (score, full)
    }

    /// The correction history's adjustment of this position's evaluation.
    #[inline]
    fn correction(&self, pos: &Position) -> i32 {
        self.corr[Self::corr_idx(pos)] / CORR_GRAIN
    }

    /// The static evaluation corrected by the correction history.
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        (raw + self.correction(pos)).clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
    }

    /// Moves the correction towards what the search found at this node.
    fn update_corr(&mut self, pos: &Position, depth: i32, diff: i32) {
        let e = &mut self.corr[Self::corr_idx(pos)];
        let w = (depth + 1).min(16);
        let target = diff.clamp(-CORR_MAX, CORR_MAX) * CORR_GRAIN;
        *e = (*e * (256 - w) + target * w) / 256;
    }

    /// Sets the root: position, the history keys (oldest first, not the
    /// root's own key) and the allowed root moves.
    pub fn set_root(&mut self, pos: &Position, history: &[u64], searchmoves: &[Move]) {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.rep_floor = 0;
        self.root_pos = Some(pos.clone());
        self.solve_ply = match self.solver {
            Some(_) => wormhole_solve::game_bound(pos) - TREE_SOLVE_BOUND,
            None => i32::MAX,
        };
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        self.root_moves = list
            .iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Counts a node and checks the limits (the main thread checks time).
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & TIME_CHECK_MASK == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                self.check_limits();
            }
        } else if self.id == 0 {
            if let Some(n) = self.shared.node_limit {
                if self.nodes >= n && self.shared.nodes.len() == 1 {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    fn check_limits(&self) {
        // There must be a move: nothing stops depth 1 before its first root
        // move has a score, and after that only the hard time limit does
        // (a game whose first iteration is slow, Fanorona's chains, must
        // not lose on time).
        if self.root_depth <= 1 && self.root_moves.first().is_none_or(|r| r.score <= -INF) {
            return;
        }
        if let Some(n) = self.shared.node_limit {
            if self.root_depth > 1 && self.shared.total_nodes() >= n {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.pondering.load(Ordering::Relaxed) {
            return;
        }
        if let Some(b) = self.shared.budget {
            if self.shared.elapsed() >= b.hard {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Is this position a draw by repetition (path or game history), by the
    /// move-count rule or by insufficient material?
    #[inline]
    fn is_draw(&self, pos: &Position) -> bool {
        let v = pos.variant();
        let hm = pos.halfmove_clock() as usize;
        if v.move_rule > 0 && hm >= v.move_rule as usize {
            return true;
        }
        let key = pos.key();
        let n = self.keys.len();
        // Positions before a capture or pawn move cannot recur, unless
        // captures bring units back (Circe rules) or exchanges move pawns
        // back (Messigny): then the whole history.
        let reversible = if v.caps.clock_bounds_repetition {
            hm
        } else {
            n
        };
        let lim = reversible.min(n - self.rep_floor.min(n));
        let mut i = 2;
        while i <= lim {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        // Only few-piece positions can lack mating material (cheap gate).
        let white = pos.occupied(fers_core::Color::White).len();
        let black = pos.occupied(fers_core::Color::Black).len();
        white + black <= 4 && pos.insufficient_material()
    }

    /// Index of the opponent's previous move (for the countermove table).
    #[inline]
    fn hist_idx_prev(&self, pos: &Position, m: Move) -> usize {
        (pos.side_to_move().flip().index() * self.nsq + m.from() as usize) * self.nsq
            + m.to() as usize
    }

    #[inline]
    fn hist_idx(&self, pos: &Position, m: Move) -> usize {
        (pos.side_to_move().index() * self.nsq + m.from() as usize) * self.nsq + m.to() as usize
    }

    /// Piece/destination index of a move (for continuation history).
    #[inline]
    fn piece_to(&self, pos: &Position, m: Move) -> usize {
        if self.cont.is_empty() {
            return NO_CTX;
        }
        pos.piece_at(m.from()).0 as usize * self.nsq + m.to() as usize
    }

    /// Continuation-history score of `pt` after the moves 1 and 2 plies back.
    #[inline]
    fn cont_score(&self, ply: usize, pt: usize) -> i32 {
        let (c1, c2) = self.cont_pair(ply, pt);
        c1 + c2
    }

    /// The continuation histories of `pt` after the moves 1 and 2 plies
    /// back, apart (0 where there is none).
    #[inline]
    fn cont_pair(&self, ply: usize, pt: usize) -> (i32, i32) {
        if pt == NO_CTX {
            return (0, 0);
        }
        let at = |back: usize| match ply.checked_sub(back).map(|p| self.ctx[p]) {
            Some(c) if c != NO_CTX => self.cont[c * self.cont_stride + pt] as i32,
            _ => 0,
        };
        (at(1), at(2))
    }

    fn update_cont(&mut self, ply: usize, pt: usize, bonus: i32) {
        if pt == NO_CTX {
            return;
        }
        for back in 1..=2 {
            if ply >= back {
                let c = self.ctx[ply - back];
                if c != NO_CTX {
                    let h = &mut self.cont[c * self.cont_stride + pt];
                    let v = *h as i32;
                    *h = (v + bonus - v * bonus.abs() / 16384) as i16;
                }
            }
        }
    }

    /// Index of the capture `m` in the capture history, or `NO_CTX`: by
    /// its victim (`taken`: the most valuable one of a move that takes
    /// several; en passant by its pawn).
    #[inline]
    fn capt_idx(&self, pos: &Position, m: Move) -> usize {
        let victim = self.taken(pos, m).1;
        if self.capt.is_empty() || !victim.is_piece() {
            return NO_CTX;
        }
        self.piece_to(pos, m) * self.victims + victim.kind() as usize
    }

    #[inline]
    fn capt_score(&self, idx: usize) -> i32 {
        if idx == NO_CTX {
            0
        } else {
            self.capt[idx] as i32
        }
    }

    fn update_capt(&mut self, idx: usize, bonus: i32) {
        if idx != NO_CTX {
            let h = &mut self.capt[idx];
            let v = *h as i32;
            *h = (v + bonus - v * bonus.abs() / 16384) as i16;
        }
    }

    /// What a capture takes by `captures_of` (a passive capture's victims
    /// stand away from the landing square, several at once): their summed
    /// order value and the most valuable of them.
    fn passive_take(&self, pos: &Position, m: Move) -> (i32, Piece) {
        let mut best = (Piece::EMPTY, -1);
        let mut sum = 0;
        for s in pos.captures_of(m).iter() {
            let p = pos.piece_at(s);
            let v = self.eval.order_value[p.kind() as usize];
            sum += v;
            if v > best.1 {
                best = (p, v);
            }
        }
        (sum, best.0)
    }

    /// The solver's exact result for a node of the tree: from its table,
    /// else a solve of at most `TREE_SOLVE_NODES` nodes (stopped with the
    /// search); `None` if it did not finish.
    fn solve_node(&mut self, pos: &Position) -> Option<wormhole_solve::Outcome> {
        let solver = self.solver.as_mut()?;
        if let Some(r) = solver.probe(pos.key()) {
            return Some(r);
        }
        let shared = &self.shared;
        let before = solver.nodes;
        let r = solver
            .solve(pos, TREE_SOLVE_NODES, &|| {
                shared.stop.load(Ordering::Relaxed)
            })
            .ok();
        self.nodes += solver.nodes - before;
        r
    }

    /// Score of the side to move with no legal move.
    fn no_moves_score(pos: &Position, ply: usize, in_check: bool) -> i32 {
        if in_check {
            return -MATE + ply as i32;
        }
        match pos.variant().stalemate {
            StalemateRule::Draw => DRAW,
            StalemateRule::Loss => -MATE + ply as i32,
            StalemateRule::Win => MATE - ply as i32,
        }
    }

    /// Orders moves: scores go into the per-ply score buffer, `MAX_MOVES`
    /// wide, so a node searches at most that many moves (the first ones
    /// generated; only Fanorona positions can have more, and then perft
    /// and the notation still see them all).
    fn score_moves(&mut self, pos: &Position, list: &MoveList, tt_move: Move, ply: usize) {
        let base = ply * MAX_MOVES;
        let ev = &self.eval;
        let killers = self.killers[ply];
        let cm = if ply > 0 {
            let p = self.move_stack[ply - 1];
            if p.is_none() {
                Move::NONE
            } else {
                Move::from_head(self.counter[self.hist_idx_prev(pos, p)])
            }
        } else {
            Move::NONE
        };
        for (i, m) in list.iter().enumerate() {
            let mut see_pending = false;
            let s = if m.same_head(tt_move) {
                TT_MOVE
            } else if pos.is_capture(m) {
                let vv = self.taken_value(pos, m);
                let av = ev.order_value[pos.piece_at(m.from()).kind() as usize];
                let promo = m
                    .promotion()
                    .map(|k| ev.order_value[k as usize])
                    .unwrap_or(0);
                let mvv = vv * 8 - av / 16 + promo + self.capt_score(self.capt_idx(pos, m)) / 8;
                // Whether it probably loses (then it goes after the
                // killers) is asked when `pick` reaches it: most nodes cut
                // before their later captures.
                see_pending = av > vv + 50;
                GOOD_CAPTURE + mvv
            } else if let Some(k) = m.promotion() {
                (1 << 23) + ev.order_value[k as usize]
            } else if m == killers[0] {
                (1 << 22) + 1
            } else if m == killers[1] {
                1 << 22
            } else if !cm.is_none() && m.same_head(cm) {
                (1 << 22) - 1
            } else {
                // Its history is looked up once `pick` gets to the quiet
                // moves: most nodes cut before.
                QUIET_PENDING
            };
            self.scores[base + i] = 2 * s + see_pending as i32;
        }
    }

    /// Picks the best remaining move into position `i` and gives its
    /// score. A capture whose static exchange was left for later is judged
    /// when it comes first: if it probably loses, it moves down among the
    /// losing captures (below the killers) and the pick starts again, so
    /// the order is the one the exchanges judged up front would give (but
    /// that such a capture comes first among equal scores). The first time
    /// a quiet move would be taken, the quiet moves' histories are looked
    /// up (`score_quiets`) and the pick starts again.
    #[inline]
    fn pick(&mut self, pos: &Position, list: &mut MoveList, i: usize, ply: usize) -> (Move, i32) {
        let base = ply * MAX_MOVES;
        let n = list.len();
        loop {
            let scores = &mut self.scores[base..base + n];
            // The first best from `i` on, over a slice (no bound test a move).
            let mut best = i;
            let mut bs = i32::MIN;
            for (j, &s) in scores[i..].iter().enumerate() {
                if s > bs {
                    bs = s;
                    best = i + j;
                }
            }
            if bs & 1 != 0 {
                let s = bs >> 1;
                if losing(&self.eval, pos, list.get(best)) {
                    scores[best] = 2 * (s - GOOD_CAPTURE + LOSING_CAPTURE);
                    continue;
                }
                bs -= 1;
                scores[best] = bs;
            } else if bs == 2 * QUIET_PENDING {
                self.score_quiets(pos, list, i, ply);
                continue;
            }
            list.swap(i, best);
            scores.swap(i, best);
            return (list.get(i), bs >> 1);
        }
    }

    /// The history scores of the quiet moves from `i` on, which
    /// `score_moves` left at `QUIET_PENDING` (history, and continuation
    /// history one and two plies back).
    fn score_quiets(&mut self, pos: &Position, list: &MoveList, i: usize, ply: usize) {
        let base = ply * MAX_MOVES;
        for j in i..list.len() {
            if self.scores[base + j] == 2 * QUIET_PENDING {
                let m = list.get(j);
                let h = self.history[self.hist_idx(pos, m)];
                self.scores[base + j] = 2 * (h + self.cont_score(ply, self.piece_to(pos, m)));
            }
        }
    }

    /// Quiescence: is the capture `m` (ordered with `mscore`) not worth
    /// searching, since even its victim cannot lift `stand_pat` near
    /// `alpha` (delta pruning), or it loses material?
    #[inline]
    fn futile_capture(
        &self,
        pos: &Position,
        m: Move,
        mscore: i32,
        stand_pat: i32,
        alpha: i32,
    ) -> bool {
        let ev = &self.eval;
        let victim = pos.piece_at(m.to());
        let vv = self.taken_value(pos, m);
        if stand_pat + vv + 200 < alpha {
            return true;
        }
        let av = ev.order_value[pos.piece_at(m.from()).kind() as usize];
        if av <= vv {
            return false;
        }
        // `pick` has judged the exchange of an ordinary capture worth more
        // than 50 over its victim (but the table's move's): its score is
        // below 0 if it probably loses.
        if av > vv + 50 && victim.is_piece() && m.flag() != MoveFlag::Passive && mscore != TT_MOVE {
            return mscore < 0;
        }
        losing(&self.eval, pos, m)
    }

    /// The history bonus of a move that beat beta at `depth` (the malus of
    /// those tried before it): Stockfish 15.1's `stat_bonus` doubled, since
    /// fers's tables saturate at 16,384 where Stockfish's butterfly table
    /// saturates at 7,183. It grows almost linearly with depth, so shallow
    /// cuts teach the ordering too: +38.4 and +41.9 Elo (two seeds, 300
    /// games each) in chess at 25,000 nodes against the old `16 depth²`
    /// capped at 1,600 (docs/search.md). At depth 1 Stockfish's formula is
    /// negative: there it is 0 (the killers still learn).
    #[inline]
    fn stat_bonus(depth: i32) -> i32 {
        (2 * ((12 * depth + 282) * depth - 349).min(1594)).max(0)
    }

    fn update_history(&mut self, idx: usize, bonus: i32) {
        let h = &mut self.history[idx];
        *h += bonus - *h * bonus.abs() / 16384;
    }

    /// Alpha-beta (PVS) below the root: the early exits, the node's static
    /// evaluation, the pruning before any move is tried, the singular
    /// extension, then the moves (`search_moves`).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        in_check: bool,
        cut_node: bool,
        skip_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, in_check, in_check);
        }
        self.tick();
        if self.stopped() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(s) = self.terminal_score(pos, ply, in_check) {
            return s;
        }
        // Mate distance.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        stats::bump(if pv_node {
            Stat::PvNode
        } else if cut_node {
            Stat::CutNode
        } else {
            Stat::AllNode
        });
        let key = pos.key();
        // A singular-extension search of this node leaves one move out: it
        // must not take the table's result for the whole node, nor store one.
        let excluded = self.excluded[ply];
        let tte = self.tt.probe(key, ply as i32);
        if let Some(e) = tte {
            if !pv_node && excluded.is_none() && e.depth >= depth && e.cuts(alpha, beta) {
                stats::bump(Stat::TtCut);
                return e.score;
            }
        }
        let (raw_eval, corr_eval, static_eval) = self.node_evals(pos, tte, ply, in_check);
        self.evals[ply] = static_eval;
        let mut n = Node {
            key,
            ply,
            depth,
            pv: pv_node,
            cut: cut_node,
            in_check,
            improving: !in_check && ply >= 2 && static_eval > self.evals[ply - 2],
            raw_eval,
            corr_eval,
            static_eval,
            tt_move: tte.map(|e| e.mv).unwrap_or(Move::NONE),
            excluded,
        };
        self.killers[ply + 1] = [Move::NONE; 2];
        // A child inherits the path's double extensions (the null move's,
        // ProbCut's); `search_moves` adds its own move by move.
        self.double_exts[ply + 1] = self.double_exts[ply];

        if !pv_node && !in_check && excluded.is_none() {
            if let Some(s) = self.prune_node(pos, &n, alpha, beta, skip_null) {
                return s;
            }
            // ProbCut: a capture that wins enough material to beat beta by
            // a margin in a shallow search very likely beats beta in a full
            // one.
            let pc_beta = beta + PROBCUT_MARGIN;
            if depth >= 5
                && beta.abs() < MATE_IN_MAX
                && pos.see_exact()
                && !tte.is_some_and(|e| e.depth >= depth - 3 && e.score < pc_beta)
            {
                if let Some(s) =
                    self.probcut(pos, pc_beta, static_eval, raw_eval, depth, ply, cut_node)
                {
                    stats::bump(Stat::ProbCutCut);
                    return s;
                }
            }
        }
        // Internal iterative reduction.
        if n.tt_move.is_none() && depth >= 5 && (pv_node || cut_node) {
            n.depth -= 1;
        }
        let singular_ext = match self.singular_extension(pos, &n, tte, beta) {
            Ok(ext) => ext,
            Err(s) => return s,
        };
        self.search_moves(pos, &n, alpha, beta, singular_ext)
    }

    /// Ends a node without a search: a draw (but a mate the move-count
    /// rule does not save), the ply limit, or the solver's exact result late
    /// in a finite win/loss game.
    fn terminal_score(&mut self, pos: &Position, ply: usize, in_check: bool) -> Option<i32> {
        if self.is_draw(pos) {
            if in_check && pos.count_legal() == 0 {
                return Some(-MATE + ply as i32);
            }
            return Some(DRAW);
        }
        if ply >= MAX_PLY {
            return Some(self.evaluate(pos, ply));
        }
        if ply as i32 >= self.solve_ply {
            if let Some(r) = self.solve_node(pos) {
                return Some(r.score(ply as i32));
            }
        }
        None
    }

    /// The node's evaluations: raw (from the table when it has one), with
    /// the correction history, and that refined by the table's bound on
    /// the score. In check there is none: `NO_EVAL`, `-INF`, `-INF`.
    fn node_evals(
        &mut self,
        pos: &Position,
        tte: Option<TtEntry>,
        ply: usize,
        in_check: bool,
    ) -> (i32, i32, i32) {
        if in_check {
            return (NO_EVAL, -INF, -INF);
        }
        let raw = match tte {
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self.evaluate(pos, ply),
        };
        let corr = self.corrected(pos, raw);
        let refined = match tte {
            Some(t)
                if t.score.abs() < MATE_IN_MAX
                    && match t.bound {
                        Bound::Lower => t.score > corr,
                        Bound::Upper => t.score < corr,
                        Bound::Exact => true,
                        Bound::None => false,
                    } =>
            {
                t.score
            }
            _ => corr,
        };
        (raw, corr, refined)
    }

    /// Pruning of a whole non-PV node out of check before any move: reverse
    /// futility, the null move, razoring.
    fn prune_node(
        &mut self,
        pos: &Position,
        n: &Node,
        alpha: i32,
        beta: i32,
        skip_null: bool,
    ) -> Option<i32> {
        let (depth, static_eval) = (n.depth, n.static_eval);
        // Reverse futility pruning.
        if depth <= 7
            && static_eval.abs() < MATE_IN_MAX
            && static_eval - 130 * (depth - n.improving as i32) >= beta
        {
            stats::bump(Stat::ReverseFutility);
            return Some(static_eval);
        }
        if !skip_null
            && depth >= 3
            && static_eval >= beta
            && beta > -MATE_IN_MAX
            && self.eval.null_move_ok
            && self.eval.non_pawn_material(pos, pos.side_to_move()) > 0
        {
            stats::bump(Stat::NullMoveTried);
            if let Some(s) = self.null_move(pos, n, beta) {
                stats::bump(Stat::NullMoveCut);
                return Some(s);
            }
        }
        // Razoring.
        if depth <= 2 && static_eval + 300 + 150 * depth < alpha {
            let q = self.qsearch(pos, alpha, beta, n.ply, 0, false, false);
            if q < alpha {
                stats::bump(Stat::Razor);
                return Some(q);
            }
        }
        None
    }

    /// The null move: passing, reduced, still beats beta. Returns the score
    /// to cut with (0 once the search is stopped).
    fn null_move(&mut self, pos: &Position, n: &Node, beta: i32) -> Option<i32> {
        let (depth, ply) = (n.depth, n.ply);
        let r = 3 + depth / 4 + ((n.static_eval - beta) / 200).min(3);
        let mut child = pos.clone();
        child.play_null();
        self.keys.push(n.key);
        self.move_stack[ply] = Move::NONE;
        self.ctx[ply] = NO_CTX;
        let floor = self.rep_floor;
        self.rep_floor = self.keys.len();
        let s = -self.search(
            &child,
            -beta,
            -beta + 1,
            depth - r,
            ply + 1,
            false,
            !n.cut,
            true,
        );
        self.rep_floor = floor;
        self.keys.pop();
        if self.stopped() {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_IN_MAX { beta } else { s })
    }

    /// Singular extension: when every move but the table's fails well
    /// below its score, the table's move is extended (`Ok(1)`); by two
    /// plies when they all fail `DOUBLE_EXT_MARGIN` below that outside a PV
    /// node (`Ok(2)`, Stockfish's double extension; +60.1 +/- 38.1 Elo
    /// against one ply in chess self-play at 100,000 nodes a move, +19.2
    /// +/- 60.7 paired against Fairy-Stockfish, docs/search.md). If even
    /// without it the node beats beta, several moves do: cut (multi-cut,
    /// `Err` with the score to return, as when the search is stopped).
    /// When another move nearly holds and the table's score alone beats
    /// beta, the table's move is not alone in refuting: it is searched one
    /// ply shallower (`Ok(-1)`, Stockfish's negative extension; +46.6 +/-
    /// 30.5 Elo in chess at 25,000 nodes a move, docs/search.md).
    fn singular_extension(
        &mut self,
        pos: &Position,
        n: &Node,
        tte: Option<TtEntry>,
        beta: i32,
    ) -> Result<i32, i32> {
        let (depth, ply) = (n.depth, n.ply);
        if !n.excluded.is_none() || ply == 0 || depth < 6 || n.tt_move.is_none() {
            return Ok(0);
        }
        let Some(e) = tte else { return Ok(0) };
        if e.depth < depth - 3
            || !matches!(e.bound, Bound::Lower | Bound::Exact)
            || e.score.abs() >= MATE_IN_MAX
        {
            return Ok(0);
        }
        let sbeta = e.score - 2 * depth;
        stats::bump(Stat::SingularTried);
        self.excluded[ply] = n.tt_move;
        let v = self.search(
            pos,
            sbeta - 1,
            sbeta,
            (depth - 1) / 2,
            ply,
            n.in_check,
            n.cut,
            true,
        );
        self.excluded[ply] = Move::NONE;
        if self.stopped() {
            return Err(0);
        }
        if v < sbeta {
            stats::bump(Stat::SingularExtended);
            if !n.pv
                && v < sbeta - DOUBLE_EXT_MARGIN
                && ply < 2 * self.root_depth as usize
                && self.double_exts[ply] < MAX_DOUBLE_EXTS
            {
                stats::bump(Stat::DoubleExtended);
                return Ok(2);
            }
            Ok(1)
        } else if sbeta >= beta {
            stats::bump(Stat::MultiCut);
            Err(sbeta)
        } else if e.score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// The moves of a node, in order, each pruned, reduced or searched;
    /// then the node's result is stored.
    fn search_moves(
        &mut self,
        pos: &Position,
        n: &Node,
        mut alpha: i32,
        beta: i32,
        singular_ext: i32,
    ) -> i32 {
        let (depth, ply) = (n.depth, n.ply);
        // Legal moves, or pseudo-legal ones tested as they are tried
        // (`Position::candidate_legal`): then a legal move is known only
        // once one passes, or the excluded move is legal.
        let mut list = MoveList::new();
        pos.candidate_moves(&mut list, n.in_check);
        list.truncate(MAX_MOVES); // the score buffer's width (`score_moves`)
        if list.is_empty() {
            return Self::no_moves_score(pos, ply, n.in_check);
        }
        self.score_moves(pos, &list, n.tt_move, ply);
        let mut excluded_legal = false;

        let mut best = -INF;
        let mut best_move = Move::NONE;
        // Not initialised: 1.5 KB of whole moves to clear at every node.
        let mut quiets = MoveBuf::<64>::new();
        let mut captures = MoveBuf::<32>::new();
        let mut searched = 0usize;
        let orig_alpha = alpha;

        for i in 0..list.len() {
            let (m, mscore) = self.pick(pos, &mut list, i, ply);
            if m.same_head(n.excluded) {
                excluded_legal = excluded_legal || pos.candidate_is_legal(m);
                continue;
            }
            let capture = pos.is_capture(m);
            let quiet = !capture && m.promotion().is_none();
            let may_check = self.eval.may_give_check(pos, m);
            // Every pruning waits for a searched move, so a node with none
            // searched tested all its moves (but the excluded).
            let late = !n.in_check && best > -MATE_IN_MAX && searched > 0;
            let futile = late
                && match self
                    .prune_before_play(pos, n, m, mscore, quiet, may_check, alpha, searched)
                {
                    Prune::Skip => continue,
                    Prune::UnlessCheck => true,
                    Prune::No => false,
                };
            let mut child = pos.clone();
            child.play(m);
            self.tt.prefetch(child.key());
            let gives_check = may_check && child.in_check();
            if futile && !gives_check {
                continue;
            }
            if !pos.candidate_legal(m, &child) {
                continue;
            }
            let check_ext = (gives_check
                && ply < 2 * self.root_depth as usize
                && (!pos.see_exact() || pos.see_ge(m, 0, &self.eval.order_value)))
                as i32;
            // A negative singular extension wins over a check's.
            let ext = if !m.same_head(n.tt_move) {
                check_ext
            } else if singular_ext < 0 {
                singular_ext
            } else {
                check_ext.max(singular_ext)
            };
            let new_depth = depth - 1 + ext;
            self.double_exts[ply + 1] = self.double_exts[ply] + (ext > 1) as u8;
            if check_ext > 0 {
                stats::bump(Stat::CheckExtension);
            }
            searched += 1;
            // Kept for the history updates at a cut; past capacity dropped.
            if quiet {
                quiets.push(m);
            } else if capture {
                captures.push(m);
            }

            self.keys.push(n.key);
            self.move_stack[ply] = m;
            self.ctx[ply] = self.piece_to(pos, m);
            let r = if searched == 1 {
                0
            } else {
                let idle = capture && self.idle_capture(pos, n, m, alpha, searched);
                self.reduction(n, searched, quiet, mscore, gives_check, new_depth, idle)
            };
            let score =
                self.search_child(&child, n, alpha, beta, new_depth, r, searched, gives_check);
            self.keys.pop();
            if self.stopped() {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if n.pv {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        stats::bump(Stat::BetaCut);
                        if searched == 1 {
                            stats::bump(Stat::BetaCutFirst);
                        }
                        self.update_cut_stats(pos, m, capture, ply, depth, &quiets, &captures);
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            if !excluded_legal {
                return Self::no_moves_score(pos, ply, n.in_check);
            }
            // Only the excluded move: a fail low.
            return alpha;
        }
        self.store_node(pos, n, best, best_move, orig_alpha, beta)
    }

    /// Shallow pruning of a late move (out of check, one move searched; PV
    /// nodes too, as in Stockfish: the root is searched apart) before it is
    /// played, the `searched + 1`-th move. Captures and promotions: those
    /// that lose more than `110 * depth` by static exchange. Quiet moves,
    /// judged at the depth late-move reduction would leave them
    /// (`lmr_depth`, Stockfish's): past the move count; both continuation
    /// histories negative; futility, unless they check (known before the
    /// board copy when the move cannot check at all; tested before the
    /// costlier static exchange); a loss of more than `25 * lmr_depth²` by
    /// static exchange. Killers are spared the history and futility tests.
    #[allow(clippy::too_many_arguments)]
    fn prune_before_play(
        &self,
        pos: &Position,
        n: &Node,
        m: Move,
        mscore: i32,
        quiet: bool,
        may_check: bool,
        alpha: i32,
        searched: usize,
    ) -> Prune {
        let depth = n.depth;
        if !quiet {
            if depth <= CAPTURE_SEE_DEPTH
                && pos.see_exact()
                && !pos.see_ge(m, -110 * depth, &self.eval.order_value)
            {
                return Prune::Skip;
            }
            return Prune::No;
        }
        if depth <= MOVE_COUNT_DEPTH && searched >= move_count_limit(depth, n.improving) {
            return Prune::Skip;
        }
        let r = self.lmr_base(depth, searched + 1);
        let lmr_depth = (depth - 1 - r).max(0);
        let ordinary = mscore < (1 << 22);
        if ordinary && lmr_depth < CONT_PRUNE_LMR_DEPTH && !may_check {
            let (c1, c2) = self.cont_pair(n.ply, self.piece_to(pos, m));
            if c1 < 0 && c2 < 0 && !self.eval.near_check(pos, m) {
                return Prune::Skip;
            }
        }
        let futile = lmr_depth < FUTILITY_LMR_DEPTH
            && ordinary
            && n.static_eval + 150 + 120 * lmr_depth <= alpha;
        if futile && !may_check {
            return Prune::Skip;
        }
        if pos.see_exact() && !pos.see_ge(m, -25 * lmr_depth * lmr_depth, &self.eval.order_value) {
            return Prune::Skip;
        }
        if futile {
            Prune::UnlessCheck
        } else {
            Prune::No
        }
    }

    /// The table's reduction of the `count`-th move at `depth`, before any
    /// adjustment.
    #[inline]
    fn lmr_base(&self, depth: i32, count: usize) -> i32 {
        self.lmr[(depth.max(0) as usize).min(63)][count.min(63)] as i32
    }

    /// Is the capture `m`, the `searched`-th move, one that late-move
    /// reduction may reduce even where it wins by static exchange (as in
    /// Stockfish 11): past the move count of late-move pruning, or with a
    /// victim that cannot lift the static evaluation to `alpha`.
    #[inline]
    fn idle_capture(&self, pos: &Position, n: &Node, m: Move, alpha: i32, searched: usize) -> bool {
        searched >= move_count_limit(n.depth, n.improving)
            || n.static_eval + self.taken_value(pos, m) <= alpha
    }

    /// The order value of what the capture `m` takes (`taken`).
    #[inline]
    fn taken_value(&self, pos: &Position, m: Move) -> i32 {
        self.taken(pos, m).0
    }

    /// What the capture `m` takes, as its summed order value and its most
    /// valuable victim: the piece on the landing square of an ordinary
    /// move, or what the move says it captures elsewhere (en passant,
    /// locusts, passive captures, chains: `passive_take`). The one source
    /// of victims for ordering, pruning, reductions and the capture
    /// history.
    #[inline]
    fn taken(&self, pos: &Position, m: Move) -> (i32, Piece) {
        let victim = pos.piece_at(m.to());
        if victim.is_piece() && m.flag() == MoveFlag::Normal {
            (self.eval.order_value[victim.kind() as usize], victim)
        } else {
            self.passive_take(pos, m)
        }
    }

    /// The late-move reduction of the `searched`-th move (at least the
    /// second) at depth 3 or more: quiet or losing moves, captures that
    /// are `idle` ([`Self::idle_capture`]), and at a cut node the other
    /// captures too (one ply less).
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &self,
        n: &Node,
        searched: usize,
        quiet: bool,
        mscore: i32,
        gives_check: bool,
        new_depth: i32,
        idle: bool,
    ) -> i32 {
        let good_capture = !(quiet || mscore < 0);
        if n.depth < 3 || searched <= 1 + n.pv as usize || (good_capture && !n.cut && !idle) {
            return 0;
        }
        let mut r = self.lmr_base(n.depth, searched);
        if n.pv {
            r -= 1;
        }
        if !n.improving {
            r += 1;
        }
        if n.cut {
            r += 1;
        }
        if good_capture {
            r -= 1;
        } else if mscore >= (1 << 22) {
            r -= 1; // killers
        } else if quiet {
            r -= (mscore / 8000).clamp(-2, 2);
        }
        if gives_check || n.in_check {
            r -= 1;
        }
        r.clamp(0, new_depth - 1)
    }

    /// Searches a child by PVS: the first move with the full window, the
    /// others with a null window at the reduced depth, again at full depth
    /// when they beat alpha reduced, and with the full window in a PV node
    /// when they land inside it.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &Position,
        n: &Node,
        alpha: i32,
        beta: i32,
        new_depth: i32,
        r: i32,
        searched: usize,
        gives_check: bool,
    ) -> i32 {
        // The child's score from here: `search` with the window negated.
        let at = |w: &mut Self, lo: i32, hi: i32, depth: i32, cut: bool| {
            -w.search(child, -hi, -lo, depth, n.ply + 1, gives_check, cut, false)
        };
        if searched == 1 {
            return at(self, alpha, beta, new_depth, !n.pv && !n.cut);
        }
        let mut score = at(self, alpha, alpha + 1, new_depth - r, true);
        if score > alpha && r > 0 {
            stats::bump(Stat::LmrResearch);
            score = at(self, alpha, alpha + 1, new_depth, !n.cut);
        }
        if n.pv && score > alpha && score < beta {
            stats::bump(Stat::PvsResearch);
            score = at(self, alpha, beta, new_depth, false);
        }
        score
    }

    /// A searched node's result: its bound, the correction history (which
    /// learns from results the static evaluation did not predict; quiet
    /// best moves only, captures change material) and the table entry.
    /// Not for a singular-extension search, which left a move out.
    fn store_node(
        &mut self,
        pos: &Position,
        n: &Node,
        best: i32,
        best_move: Move,
        orig_alpha: i32,
        beta: i32,
    ) -> i32 {
        let bound = if best >= beta {
            Bound::Lower
        } else if n.pv && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !n.excluded.is_none() {
            return best;
        }
        if !n.in_check
            && (best_move.is_none() || !pos.is_capture(best_move))
            && best.abs() < MATE_IN_MAX
            && !(bound == Bound::Lower && best <= n.corr_eval)
            && !(bound == Bound::Upper && best >= n.corr_eval)
        {
            self.update_corr(pos, n.depth, best - n.raw_eval);
        }
        self.tt.store(
            n.key,
            best_move,
            best,
            n.depth,
            bound,
            n.ply as i32,
            n.raw_eval,
        );
        best
    }

    /// The learnt ordering after the move `m` beat beta at a node: capture
    /// history (the captures tried before it did not refute), killers, the
    /// countermove, history and continuation history of the quiet moves
    /// tried (`m` last among them when quiet).
    #[allow(clippy::too_many_arguments)]
    fn update_cut_stats(
        &mut self,
        pos: &Position,
        m: Move,
        capture: bool,
        ply: usize,
        depth: i32,
        quiets: &MoveBuf<64>,
        captures: &MoveBuf<32>,
    ) {
        let bonus = Self::stat_bonus(depth);
        for &c in captures.as_slice() {
            if c != m {
                let ci = self.capt_idx(pos, c);
                self.update_capt(ci, -bonus);
            }
        }
        if capture {
            let ci = self.capt_idx(pos, m);
            self.update_capt(ci, bonus);
            return;
        }
        if m.promotion().is_some() {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if ply > 0 && !self.move_stack[ply - 1].is_none() {
            let ci = self.hist_idx_prev(pos, self.move_stack[ply - 1]);
            self.counter[ci] = m.head();
        }
        let idx = self.hist_idx(pos, m);
        self.update_history(idx, bonus);
        let pt = self.piece_to(pos, m);
        self.update_cont(ply, pt, bonus);
        for &q in quiets
            .as_slice()
            .split_last()
            .map_or(&[][..], |(_, rest)| rest)
        {
            let qi = self.hist_idx(pos, q);
            self.update_history(qi, -bonus);
            let pt = self.piece_to(pos, q);
            self.update_cont(ply, pt, -bonus);
        }
    }

    /// The ProbCut searches at a node: each capture whose static exchange
    /// could reach `pc_beta`, first by quiescence, then at `depth - 4`.
    /// Returns the score that beat `pc_beta`, if one did.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &Position,
        pc_beta: i32,
        static_eval: i32,
        raw_eval: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let mut list = MoveList::new();
        pos.candidate_noisy_moves(&mut list, false);
        list.truncate(MAX_MOVES); // the score buffer's width (`score_moves`)
        let key = pos.key();
        for m in list.iter() {
            if !pos.is_capture(m) || !pos.see_ge(m, pc_beta - static_eval, &self.eval.order_value) {
                continue;
            }
            let mut child = pos.clone();
            child.play(m);
            if !pos.candidate_legal(m, &child) {
                continue;
            }
            let gives_check = self.eval.may_give_check(pos, m) && child.in_check();
            self.keys.push(key);
            self.move_stack[ply] = m;
            self.ctx[ply] = self.piece_to(pos, m);
            stats::bump(Stat::ProbCutQs);
            let mut s = -self.qsearch(
                &child,
                -pc_beta,
                -pc_beta + 1,
                ply + 1,
                1,
                gives_check,
                gives_check,
            );
            if s >= pc_beta {
                stats::bump(Stat::ProbCutSearch);
                s = -self.search(
                    &child,
                    -pc_beta,
                    -pc_beta + 1,
                    depth - 4,
                    ply + 1,
                    gives_check,
                    !cut_node,
                    false,
                );
            }
            self.keys.pop();
            if self.stopped() {
                return Some(0);
            }
            if s >= pc_beta {
                self.tt
                    .store(key, m, s, depth - 3, Bound::Lower, ply as i32, raw_eval);
                return Some(s);
            }
        }
        None
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }

    /// Quiescence: captures and promotions (all evasions in check).
    /// `in_check`: search the evasions; `checked`: the side to move is in
    /// check (also deep in quiescence, where a quiet check is not evaded),
    /// as the candidate lists need to know.
    #[allow(clippy::too_many_arguments)]
    fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        in_check: bool,
        checked: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        self.tick();
        if self.stopped() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let v = pos.variant();
        if v.move_rule > 0 && pos.halfmove_clock() >= v.move_rule {
            return DRAW;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        stats::bump(match (in_check, qdepth) {
            (true, _) => Stat::QsInCheck,
            (false, 0) => Stat::QsFirst,
            (false, 1..=2) => Stat::QsPly2To3,
            (false, 3..=5) => Stat::QsPly4To6,
            _ => Stat::QsDeeper,
        });
        let key = pos.key();
        let tte = self.tt.probe(key, ply as i32);
        if let Some(e) = tte {
            if e.cuts(alpha, beta) {
                stats::bump(Stat::QsTtCut);
                return e.score;
            }
        }
        let mut best = -INF;
        let stand_pat;
        let mut raw_eval = NO_EVAL;
        if !in_check {
            // The table's evaluation, else a lazy one (cached only when full).
            // The lazy window is shifted by the correction added afterwards.
            let c = self.correction(pos);
            let (raw, exact) = match tte {
                Some(e) if e.eval != NO_EVAL => (e.eval, true),
                _ => self.evaluate_lazy(pos, ply, alpha - c, beta - c),
            };
            if exact {
                raw_eval = raw;
            }
            stand_pat = self.corrected(pos, raw);
            if stand_pat >= beta {
                stats::bump(Stat::StandPat);
                if tte.is_none() && raw_eval != NO_EVAL {
                    self.tt.store(
                        key,
                        Move::NONE,
                        stand_pat,
                        0,
                        Bound::Lower,
                        ply as i32,
                        raw_eval,
                    );
                }
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        } else {
            stand_pat = -INF;
        }
        // Where captures do not simplify (Circe rebirths, Andernach's colour
        // changes), capture sequences need not end: past QS_MAX_PLIES the
        // static evaluation stands.
        if !in_check && qdepth >= QS_MAX_PLIES && !v.caps.captures_simplify {
            return best;
        }
        let mut list = MoveList::new();
        // Legal moves, or pseudo-legal ones tested as they are tried
        // (`Position::candidate_legal`).
        if in_check || qdepth == 0 {
            // All moves: evasions, or quiet checks on the first ply. Out of
            // check, the moves left out below may be the only legal ones;
            // in check, none is left out (see after the loop).
            pos.candidate_moves(&mut list, checked);
            list.truncate(MAX_MOVES); // the score buffer's width (`score_moves`)
            if list.is_empty() || (!in_check && !pos.has_legal_candidate(&list)) {
                return Self::no_moves_score(pos, ply, in_check);
            }
        } else {
            // Captures and promotions only; no moves is not a mate here.
            pos.candidate_noisy_moves(&mut list, checked);
            list.truncate(MAX_MOVES); // the score buffer's width (`score_moves`)
            if list.is_empty() {
                return best;
            }
        }
        let ev = &self.eval;
        if !in_check {
            list.retain(|m| {
                if pos.is_capture(m) {
                    return true;
                }
                // Promotions to the most valuable piece only.
                if let Some(k) = m.promotion() {
                    return ev.order_value[k as usize] >= 700;
                }
                // Quiet checks on the first quiescence ply, but not those
                // that lose the checking unit by static exchange.
                if qdepth == 0 && ev.may_give_check(pos, m) {
                    if pos.see_exact() && !pos.see_ge(m, 0, &ev.order_value) {
                        return false;
                    }
                    let mut c = pos.clone();
                    c.play(m);
                    return c.in_check();
                }
                false
            });
        }
        let tt_move = tte.map(|e| e.mv).unwrap_or(Move::NONE);
        self.score_moves(pos, &list, tt_move, ply);
        let mut best_move = Move::NONE;
        for i in 0..list.len() {
            let (m, mscore) = self.pick(pos, &mut list, i, ply);
            // Captures that cannot raise alpha or lose material are skipped,
            // checks or not (as Stockfish does), before the board copy.
            if !in_check
                && pos.is_capture(m)
                && m.promotion().is_none()
                && self.futile_capture(pos, m, mscore, stand_pat, alpha)
            {
                continue;
            }
            let may_check = self.eval.may_give_check(pos, m);
            let mut child = pos.clone();
            child.play(m);
            // A check keeps the child searching every evasion. Deep in
            // quiescence only a capture's check does: under rules where a
            // quiet evasion checks again (a unit reborn or reappearing under
            // Circe rules, a sentinel pawn) the chain would not end.
            let checks = may_check && child.in_check();
            let gives_check = checks && (qdepth < QS_CHECK_PLIES || pos.is_capture(m));
            if !pos.candidate_legal(m, &child) {
                continue;
            }
            self.move_stack[ply] = m;
            self.ctx[ply] = self.piece_to(pos, m);
            let score = -self.qsearch(
                &child,
                -beta,
                -alpha,
                ply + 1,
                qdepth + 1,
                gives_check,
                checks,
            );
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && best == -INF {
            // In check every candidate was tried: none was legal.
            return Self::no_moves_score(pos, ply, true);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, best, 0, bound, ply as i32, raw_eval);
        best
    }

    /// Searches the root moves `pv_idx..` with the window; updates their
    /// scores and PVs and sorts them. Returns the best score.
    fn root_search(&mut self, pos: &Position, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let ply = 0;
        stats::bump(Stat::RootSearch);
        self.pv_len[0] = 0;
        let key = pos.key();
        let in_check = pos.in_check();
        let mut best = -INF;
        let start = self.pv_idx;
        self.double_exts[1] = 0; // no double extension above the root's children
        for i in start..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let mut child = pos.clone();
            child.play(m);
            let gives_check = self.eval.may_give_check(pos, m) && child.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let quiet = !pos.is_capture(m) && m.promotion().is_none();
            self.keys.push(key);
            self.move_stack[0] = m;
            self.ctx[0] = self.piece_to(pos, m);
            self.seldepth = self.seldepth.max(1);
            let mut score;
            let n = i - start + 1;
            if n == 1 {
                score = -self.search(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    gives_check,
                    false,
                    false,
                );
            } else {
                let mut r = 0;
                if depth >= 3 && n > 3 && quiet && !in_check && !gives_check {
                    r = (self.lmr_base(depth, n) - 1).clamp(0, new_depth - 1);
                }
                score = -self.search(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    gives_check,
                    true,
                    false,
                );
                if score > alpha && r > 0 {
                    score = -self.search(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        gives_check,
                        true,
                        false,
                    );
                }
                if score > alpha && score < beta {
                    score = -self.search(
                        &child,
                        -beta,
                        -alpha,
                        new_depth,
                        ply + 1,
                        gives_check,
                        false,
                        false,
                    );
                }
            }
            self.keys.pop();
            if self.stopped() {
                break;
            }
            if n > 1 && score > alpha && self.pv_idx == 0 {
                self.best_changes += 1;
            }
            let rm = &mut self.root_moves[i];
            if n == 1 || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                let len = self.pv_len[1];
                for j in 1..len {
                    rm.pv.push(self.pv[1][j]);
                }
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        // Stable sort keeps the previous order among unsearched moves.
        self.root_moves[start..].sort_by_key(|r| std::cmp::Reverse(r.score));
        best
    }

    /// Iterative deepening. The main thread (id 0) reports through
    /// `report` and manages time; helpers search the same root with a depth
    /// skew and share what they find through the table.
    pub fn iterate(
        &mut self,
        pos: &Position,
        max_depth: i32,
        multipv: usize,
        mate_limit: Option<u32>,
        report: Option<&Reporter>,
    ) {
        if self.root_moves.is_empty() {
            return;
        }
        let multipv = multipv.clamp(1, self.root_moves.len());
        let mut last_best = Move::NONE;
        let mut clock = IterationClock::new(self.clock);
        for depth in 1..=max_depth.min(MAX_PLY as i32 - 4) {
            // Lazy SMP: helpers skip some depths so threads diverge.
            if self.id > 0 && depth > 2 && (depth + self.id as i32) % 3 == 0 {
                continue;
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 18;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_IN_MAX {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let score = self.root_search(pos, alpha, beta, depth);
                    if self.stopped() {
                        break;
                    }
                    if score <= alpha {
                        if let Some(r) = report {
                            self.report_bound(
                                r,
                                depth,
                                pv_idx,
                                score.max(alpha),
                                ScoreBound::Upper,
                            );
                        }
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        if let Some(r) = report {
                            self.report_bound(r, depth, pv_idx, score.min(beta), ScoreBound::Lower);
                        }
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 5;
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                // Keep the already-reported lines on top in MultiPV.
                if pv_idx + 1 < multipv {
                    self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                }
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                // A partial iteration still counts when its best move was searched.
                if self.id == 0 && self.root_moves[0].score > -INF {
                    if let Some(r) = report {
                        self.report_lines(r, depth, multipv);
                    }
                }
                break;
            }
            self.completed_depth = depth;
            if self.id == 0 {
                self.shared.nodes[0].store(self.nodes, Ordering::Relaxed);
                if let Some(r) = report {
                    self.report_lines(r, depth, multipv);
                }
            }
            let changes = std::mem::take(&mut self.best_changes);
            if self.id != 0 {
                continue;
            }
            let (best_mv, best_score) = (self.root_moves[0].mv, self.root_moves[0].score);
            if let Some(n) = mate_limit {
                if best_score >= MATE - 2 * n as i32 {
                    break;
                }
            }
            let new_best = best_mv != last_best;
            last_best = best_mv;
            let share = clock.update(depth, best_score, changes, new_best);
            self.clock = clock.memory();
            // The soft budget, scaled by how settled the search looks.
            if let Some(b) = self.shared.budget.filter(|b| !b.fixed) {
                let el = self.shared.elapsed().as_secs_f64();
                if !self.shared.pondering.load(Ordering::Relaxed)
                    && el > b.soft.as_secs_f64() * share
                {
                    break;
                }
            }
            // Only one legal move with a clock: no need to think.
            if self.root_moves.len() == 1 && self.shared.budget.is_some() && depth >= 4 {
                break;
            }
        }
    }

    /// The event of one PV line; `seldepth` is at least `depth`, as GUIs
    /// expect.
    fn info(
        &self,
        depth: i32,
        seldepth: usize,
        pv_idx: usize,
        score: i32,
        bound: ScoreBound,
    ) -> SearchEvent {
        let el = self.shared.elapsed();
        let nodes = self.shared.total_nodes().max(self.nodes);
        let ms = el.as_millis() as u64;
        let rm = &self.root_moves[pv_idx];
        let pv = match &self.root_pos {
            Some(root) => legal_prefix(root, &rm.pv),
            None => Vec::new(),
        };
        SearchEvent::Info(SearchInfo {
            depth,
            seldepth: seldepth.max(depth as usize),
            multipv: pv_idx + 1,
            score: Score::from_internal(score),
            bound,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            hashfull: self.tt.hashfull(),
            time_ms: ms,
            pv,
        })
    }

    /// A failed aspiration window, reported only in long searches (GUIs
    /// show the fluctuation; short ones would only flood the output).
    fn report_bound(&self, r: &Reporter, depth: i32, pv_idx: usize, score: i32, bound: ScoreBound) {
        if self.shared.elapsed() < Duration::from_millis(2500) {
            return;
        }
        r(&self.info(depth, self.seldepth, pv_idx, score, bound));
    }

    fn report_lines(&self, r: &Reporter, depth: i32, multipv: usize) {
        for i in 0..multipv.min(self.root_moves.len()) {
            let rm = &self.root_moves[i];
            let (score, d) = if rm.score == -INF {
                (rm.prev_score, depth - 1)
            } else {
                (rm.score, depth)
            };
            if score == -INF || d < 1 {
                continue;
            }
            r(&self.info(d, rm.seldepth, i, score, ScoreBound::Exact));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::{evaluate_network, LAZY_MARGIN, PARAMS};
    use crate::nnue::{NetId, Network, NnueMap};
    use crate::test_support::example;

    fn worker(eval: EvalTables) -> Worker {
        let shared = Arc::new(SearchShared::new(1, None, None));
        let tt = Arc::new(TranspositionTable::new(1));
        Worker::new(0, shared, tt, Arc::new(eval), None)
    }

    fn with_net(v: &'static fers_core::Variant, net: Network) -> EvalTables {
        let mut t = EvalTables::build(v, &PARAMS);
        t.nnue = Some(NnueMap::with_network(v, Arc::new(net)).expect("fits"));
        t
    }

    const FENS: [&str; 4] = [
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR w KQkq - 0 5",
        "rnabqkb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1",
        "4k5/10/10/10/10/10/4P5/2C1K3A1 w - - 0 1",
    ];

    /// An en-passant capture has the capture-history entry of the pawn it
    /// takes, as the same pawn's capture of a pawn on the landing square.
    #[test]
    fn en_passant_has_the_capture_history_of_its_pawn() {
        let v = example("chess");
        let w = worker(EvalTables::build(v, &PARAMS));
        let idx = |fen: &str| {
            let pos = Position::from_fen(v, fen).expect("FEN");
            let m = pos.parse_move("e5d6").expect("move");
            assert!(pos.is_capture(m), "{fen}");
            w.capt_idx(&pos, m)
        };
        let ep = idx("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert_ne!(ep, NO_CTX);
        assert_eq!(ep, idx("4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 2"));
    }

    #[test]
    fn the_history_bonus_grows_with_depth_and_stays_inside_the_tables() {
        // The i16 tables stay bounded by the gravity update only while a
        // bonus is at most the 16,384 it divides by.
        let mut last = 0;
        for depth in 0..=MAX_PLY as i32 {
            let b = Worker::stat_bonus(depth);
            assert!((last..=16_384).contains(&b), "depth {depth}: {b}");
            last = b;
        }
        assert_eq!(Worker::stat_bonus(1), 0);
        assert!(Worker::stat_bonus(2) > 0);
    }

    /// A residual network in the search. With a silent network (every
    /// weight 0) and a weight of one, the search evaluates exactly as by
    /// hand, its lazy estimate included, in every window. With a material
    /// network and a weight of 1.5, the full evaluation is
    /// `evaluate_network`'s, and the hand-written early estimate is taken
    /// exactly when the window, moved by the network's output and scaled
    /// by the weight, lies beyond its margin (and then outside the window).
    #[test]
    fn a_residual_network_adds_the_hand_written_evaluation_and_its_lazy_estimate() {
        let v = example("capablanca");
        let mut silent = Network::from_fn(NetId::of(v), |_, _, _, _| 0, 0);
        silent.residual = Some(HAND_UNIT);
        let mut by_net = worker(with_net(v, silent));
        let mut by_hand = worker(EvalTables::build(v, &PARAMS));
        let material = || {
            let mut n = Network::from_fn(
                NetId::of(v),
                |own, k, _, _| if own { k as i16 } else { 0 },
                3,
            );
            n.residual = Some(HAND_UNIT * 3 / 2);
            n
        };
        let t = with_net(v, material());
        let mut residual = worker(with_net(v, material()));
        for fen in FENS {
            let pos = Position::from_fen(v, fen).expect("FEN");
            let hand = by_hand.evaluate(&pos, 0);
            assert_eq!(by_net.evaluate(&pos, 0), hand, "{fen}");
            for (a, b) in [
                (hand + 600, hand + 700),
                (hand - 900, hand - 800),
                (-50, 50),
            ] {
                let want = by_hand.evaluate_lazy(&pos, 0, a, b);
                assert_eq!(
                    by_net.evaluate_lazy(&pos, 0, a, b),
                    want,
                    "{fen} ({a}, {b})"
                );
            }
            let full = evaluate_network(&pos, &t).expect("a network");
            assert_eq!(residual.evaluate(&pos, 0), full, "{fen}");
            // The hand-written early estimate (asked with a window beyond
            // any score) and the network's own output: the residual
            // network's estimate is taken just when the window, less the
            // network's output and over the weight, is more than the
            // margin beyond that estimate.
            let (quick, _) = by_hand.evaluate_lazy(&pos, 0, i32::MAX - 1, i32::MAX);
            let map = t.nnue.as_ref().expect("a network");
            let net = crate::nnue::evaluate(&pos, map);
            for (beyond, taken) in [(LAZY_MARGIN + 10, true), (LAZY_MARGIN - 10, false)] {
                let a = net + (quick + beyond) * 3 / 2;
                let (s, full_eval) = residual.evaluate_lazy(&pos, 0, a, a + 1);
                assert_eq!(!full_eval, taken, "{fen}: window from {a}");
                if taken {
                    assert_eq!(s, net + quick * 3 / 2, "{fen}");
                    assert!(s < a, "{fen}: {s} inside the window from {a}");
                } else {
                    assert_eq!(s, full, "{fen}");
                }
                let b = net + (quick - beyond) * 3 / 2;
                let (s, full_eval) = residual.evaluate_lazy(&pos, 0, b - 1, b);
                assert_eq!(!full_eval, taken, "{fen}: window to {b}");
                assert!(!taken || s > b, "{fen}: {s} inside the window to {b}");
            }
        }
    }
}
