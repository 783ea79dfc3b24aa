//! The exact endgame solver of Wormhole (and of any variant that is a
//! finite win/loss game the same way): every ply makes a square vanish,
//! so a game ends within as many plies as there are existing squares
//! (less two: the kings' squares), no move rule, repetition or material
//! rule can draw, and a side that cannot move has lost. A position is
//! therefore won or lost for the side to move, and an exhaustive search
//! to the end of the game decides which.
//!
//! The solver is a plain win/loss negamax over `legal_moves`, with
//! - its own table: exact results by key (a result is a property of the
//!   position alone, so entries never go stale, from one search or game
//!   to the next);
//! - enhanced transposition cutoffs (a child already known lost wins at
//!   once);
//! - children ordered by the opponent's number of replies, fewest first
//!   (a child without a reply is an immediate win).
//!
//! A result carries the length of the line it proved (plies to the end of
//! the game): a win is one more than the lost child it found first (not
//! necessarily the shortest win), a loss one more than the longest win it
//! met among the children. `score mate N` reports that length, an upper
//! bound of the fastest win for the winner.
//!
//! The search uses it at the root (`thread.rs`) and inside the tree
//! (`search.rs`) once the remaining game is short enough (`game_bound`);
//! both ask one capability check, `applies`.

use crate::events::{SearchEvent, SearchInfo};
use crate::search::{Reporter, SearchShared, MATE};
use fers_core::variant::StalemateRule;
use fers_core::{Move, MoveList, Piece, Position, Variant};
use std::sync::atomic::Ordering;

/// Is this variant a finite win/loss game the solver is exact for? Every
/// move leaves a hole, no move-count or material rule, and a side without
/// moves loses (repetition cannot happen: the board shrinks every ply).
pub fn applies(v: &Variant) -> bool {
    v.holes.vanish
        && v.move_rule == 0
        && !v.insufficient_material
        && v.stalemate == StalemateRule::Loss
        && v.conditions.is_empty()
}

/// An upper bound on the plies left in the game: every ply removes one
/// existing square for good, and the two kings' squares stay.
pub fn game_bound(pos: &Position) -> i32 {
    let n = pos.variant().geometry.num_squares();
    let holes = pos.board()[..n]
        .iter()
        .filter(|&&p| p == Piece::HOLE)
        .count();
    (n - holes) as i32 - 2
}

/// A table entry, two words: the key, then the result in the low 16 bits
/// (`+n`: the side to move wins in `n` plies, `-(n + 1)`: it loses in `n`
/// plies; 0 is empty) and above them log2 of the nodes the proof took
/// (replacement keeps the costlier). All zero is empty, so a new table is
/// zeroed memory the system hands out lazily.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    value: i16,
    work: u8,
}

impl Entry {
    fn read(t: &[u64], i: usize) -> Entry {
        Entry {
            key: t[2 * i],
            value: t[2 * i + 1] as u16 as i16,
            work: (t[2 * i + 1] >> 16) as u8,
        }
    }
    fn write(self, t: &mut [u64], i: usize) {
        t[2 * i] = self.key;
        t[2 * i + 1] = self.value as u16 as u64 | (self.work as u64) << 16;
    }
}

/// The solver's result for one position: plies to the end of the game on
/// the proved line, positive when the side to move wins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move wins within this many plies.
    Win(u32),
    /// The side to move loses within this many plies (0: it cannot move).
    Loss(u32),
}

impl Outcome {
    fn encode(self) -> i16 {
        match self {
            Outcome::Win(n) => n as i16,
            Outcome::Loss(n) => -(n as i16) - 1,
        }
    }
    fn decode(v: i16) -> Outcome {
        if v > 0 {
            Outcome::Win(v as u32)
        } else {
            Outcome::Loss((-(v as i32) - 1) as u32)
        }
    }
    /// The result one ply up, for the parent that plays into this.
    fn parent(self) -> Outcome {
        match self {
            Outcome::Win(n) => Outcome::Loss(n + 1),
            Outcome::Loss(n) => Outcome::Win(n + 1),
        }
    }
    pub fn plies(self) -> u32 {
        match self {
            Outcome::Win(n) | Outcome::Loss(n) => n,
        }
    }
    pub fn is_win(self) -> bool {
        matches!(self, Outcome::Win(_))
    }
    /// On the search's scale at `ply` (`search::MATE` minus the plies from
    /// the root to the end of the game, negated for a loss).
    pub fn score(self, ply: i32) -> i32 {
        match self {
            Outcome::Win(n) => MATE - ply - n as i32,
            Outcome::Loss(n) => -MATE + ply + n as i32,
        }
    }
}

/// The solve was stopped (abort callback or node limit).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Aborted;

/// Nodes between two calls of the abort callback.
const ABORT_MASK: u64 = 1023;
/// Entries of the default table (16 bytes each: 16 MB).
pub const DEFAULT_ENTRIES: usize = 1 << 20;

/// A child during the search of its parent.
struct Child {
    pos: Position,
    replies: u32,
}

/// The solver with its table.
pub struct Solver {
    /// Allocated by the first solve (`entries` slots of two words).
    table: Vec<u64>,
    entries: usize,
    mask: usize,
    /// Nodes visited (positions whose moves were generated), all solves.
    pub nodes: u64,
    limit: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(DEFAULT_ENTRIES)
    }
}

impl Solver {
    /// A solver whose table has `entries` slots (rounded to a power of two).
    pub fn new(entries: usize) -> Solver {
        let n = entries.max(2).next_power_of_two();
        Solver {
            table: Vec::new(),
            entries: n,
            mask: n - 2,
            nodes: 0,
            limit: u64::MAX,
        }
    }

    pub fn clear(&mut self) {
        self.table = Vec::new();
    }

    /// The table's result for this position, if it has one.
    pub fn probe(&self, key: u64) -> Option<Outcome> {
        let i = key as usize & self.mask;
        if self.table.is_empty() {
            return None;
        }
        (i..i + 2)
            .map(|j| Entry::read(&self.table, j))
            .find(|e| e.key == key && e.value != 0)
            .map(|e| Outcome::decode(e.value))
    }

    fn store(&mut self, key: u64, r: Outcome, nodes: u64) {
        let work = (64 - nodes.leading_zeros()) as u8;
        let i = key as usize & self.mask;
        let e = Entry {
            key,
            value: r.encode(),
            work,
        };
        // Two slots: the same key, else the cheaper of the two.
        let (a, b) = (Entry::read(&self.table, i), Entry::read(&self.table, i + 1));
        let slot = if a.key == key || (b.key != key && a.work <= b.work) {
            i
        } else {
            i + 1
        };
        e.write(&mut self.table, slot);
    }

    /// Solves `pos` exactly, or gives up after `max_nodes` more nodes or
    /// when `abort` says so (it is asked every 1024 nodes). What was
    /// proved before an abort stays in the table.
    pub fn solve(
        &mut self,
        pos: &Position,
        max_nodes: u64,
        abort: &dyn Fn() -> bool,
    ) -> Result<Outcome, Aborted> {
        if self.table.is_empty() {
            self.table = vec![0; 2 * self.entries];
        }
        self.limit = self.nodes.saturating_add(max_nodes);
        self.node(pos, abort)
    }

    /// The legal children of `pos` with their reply counts, fewest first
    /// (its own function, so that the move list's stack frame is gone
    /// before the recursion).
    #[inline(never)]
    fn children(pos: &Position) -> Vec<Child> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut out: Vec<Child> = Vec::with_capacity(list.len());
        for mv in list.iter() {
            let mut c = pos.clone();
            c.play(mv);
            let replies = c.count_legal() as u32;
            out.push(Child { pos: c, replies });
        }
        out.sort_by_key(|c| c.replies);
        out
    }

    fn node(&mut self, pos: &Position, abort: &dyn Fn() -> bool) -> Result<Outcome, Aborted> {
        let key = pos.key();
        if let Some(r) = self.probe(key) {
            return Ok(r);
        }
        self.nodes += 1;
        if self.nodes >= self.limit || (self.nodes & ABORT_MASK == 0 && abort()) {
            return Err(Aborted);
        }
        let start = self.nodes;
        let children = Self::children(pos);
        // Without a move the side to move has lost.
        let mut result = Outcome::Loss(0);
        // A child without replies, or already known lost, wins at once.
        let mut win = children
            .iter()
            .take_while(|c| c.replies == 0)
            .map(|_| Outcome::Win(1))
            .next();
        if win.is_none() {
            win = children
                .iter()
                .filter_map(|c| match self.probe(c.pos.key()) {
                    Some(r @ Outcome::Loss(_)) => Some(r.parent()),
                    _ => None,
                })
                .min_by_key(|r| r.plies());
        }
        if let Some(w) = win {
            self.store(key, w, 1);
            return Ok(w);
        }
        for c in &children {
            match self.node(&c.pos, abort)? {
                r @ Outcome::Loss(_) => {
                    result = r.parent();
                    break;
                }
                r @ Outcome::Win(n) => {
                    if let Outcome::Loss(m) = result {
                        if n + 1 > m {
                            result = r.parent();
                        }
                    }
                }
            }
        }
        self.store(key, result, self.nodes - start + 1);
        Ok(result)
    }

    /// Solves the root and says which move to play: for the winner a move
    /// into a lost position (the shortest such line the table knows), for
    /// the loser the one whose proved loss is longest. With the line that
    /// follows from the table (as far as it goes).
    pub fn solve_root(
        &mut self,
        pos: &Position,
        max_nodes: u64,
        abort: &dyn Fn() -> bool,
    ) -> Result<(Outcome, Vec<Move>), Aborted> {
        let r = self.solve(pos, max_nodes, abort)?;
        let mut line = Vec::new();
        let mut cur = pos.clone();
        let mut expect = r;
        while expect.plies() > 0 && line.len() < 128 {
            let mut list = MoveList::new();
            cur.legal_moves(&mut list);
            let mut best: Option<(Move, Outcome)> = None;
            for m in list.iter() {
                let mut c = cur.clone();
                c.play(m);
                let Some(cr) = self
                    .probe(c.key())
                    .or_else(|| (c.count_legal() == 0).then_some(Outcome::Loss(0)))
                else {
                    continue;
                };
                let up = cr.parent();
                let better = match (best.map(|b| b.1), up) {
                    (None, _) => up.is_win() == expect.is_win(),
                    (Some(Outcome::Win(a)), Outcome::Win(b)) => b < a,
                    (Some(Outcome::Loss(a)), Outcome::Loss(b)) => b > a,
                    _ => false,
                };
                if better {
                    best = Some((m, up));
                }
            }
            let Some((m, up)) = best else { break };
            line.push(m);
            cur.play(m);
            expect = match up {
                Outcome::Win(n) => Outcome::Loss(n - 1),
                Outcome::Loss(n) => Outcome::Win(n - 1),
            };
        }
        Ok((r, line))
    }
}

/// The root is solved only when its game has at most this many plies left
/// (`game_bound`): beyond, a solve within a move's time is hopeless.
pub const ROOT_SOLVE_BOUND: i32 = 28;
/// From this bound down, a solve within 0.1 s succeeded in every measured
/// self-play position (`docs/wormhole.md`): the root solve may take most
/// of the move's time.
pub const SURE_SOLVE_BOUND: i32 = 22;
/// Without a clock, the root solve's node limit.
const ROOT_SOLVE_NODES: u64 = 100_000;

/// A proved win at the root: the move, the line, the score on the
/// search's scale and the solver's nodes.
pub struct RootWin {
    pub line: Vec<Move>,
    pub score: i32,
    pub nodes: u64,
}

/// Tries to solve the root within part of the move's time (40% of a
/// fixed move time, half the soft budget of a clock; 90% of either from
/// `SURE_SOLVE_BOUND` down; `ROOT_SOLVE_NODES` without either). A proved
/// win is reported (`score mate N` and its line) and returned; a loss or
/// an unfinished solve returns `None` and the normal search chooses the
/// move (against a fallible opponent the longest resistance, which the
/// search's own use of the solver scores).
pub fn solve_root(
    solver: &mut Solver,
    root: &Position,
    shared: &SearchShared,
    reporter: &Reporter,
) -> Option<RootWin> {
    if game_bound(root) > ROOT_SOLVE_BOUND {
        return None;
    }
    let share = if game_bound(root) <= SURE_SOLVE_BOUND {
        0.9
    } else {
        0.4
    };
    let cap = shared.budget.map(|b| {
        if b.fixed {
            b.hard.mul_f64(share)
        } else {
            b.soft.mul_f64(share.max(0.5))
        }
    });
    let abort = || {
        shared.stop.load(Ordering::Relaxed)
            || (!shared.pondering.load(Ordering::Relaxed)
                && cap.is_some_and(|c| shared.elapsed() >= c))
    };
    let limit = match (cap, shared.node_limit) {
        (_, Some(n)) => n,
        (Some(_), None) => u64::MAX,
        (None, None) => ROOT_SOLVE_NODES,
    };
    let before = solver.nodes;
    let (r, line) = solver.solve_root(root, limit, &abort).ok()?;
    let nodes = solver.nodes - before;
    if !r.is_win() || line.is_empty() {
        return None;
    }
    let plies = line.len().max(1) as i32;
    let plies = match solver_line_result(solver, root, &line) {
        Some(n) => n,
        None => plies,
    };
    let ms = shared.elapsed().as_millis() as u64;
    reporter(&SearchEvent::Info(SearchInfo::proved_mate(
        plies,
        line.clone(),
        nodes,
        ms,
    )));
    Some(RootWin {
        score: MATE - plies,
        line,
        nodes,
    })
}

/// The proved length of the win by the line's first move (one more than
/// the table's loss of the position after it).
fn solver_line_result(solver: &Solver, root: &Position, line: &[Move]) -> Option<i32> {
    let mut c = root.clone();
    c.play(*line.first()?);
    match solver.probe(c.key()) {
        Some(Outcome::Loss(n)) => Some(n as i32 + 1),
        _ if c.count_legal() == 0 => Some(1),
        _ => None,
    }
}
