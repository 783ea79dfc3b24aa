//! The exhaustive search of the solver: full width, every move of both
//! sides under the variant's rules (conditions included), never a pruning
//! that could hide a solution. What is proven is kept in a table by
//! position key, so transpositions and the analysis passes (keys, tries,
//! threats, variations) that ask the same question twice pay once.
//!
//! Direct mate (`#n`): `attack` asks "can the side to move force mate in
//! at most n moves?"; `defend` asks it after one of its moves, for every
//! reply. Self-mate (`s#n`) has the same shape with the goal reversed: the
//! defender must be forced to mate. Help-mates enumerate every line.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Position keys are Zobrist keys already: the table uses them as they
/// are (no second hash).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// What is proven about one position for one goal: it wins within `win`
/// moves (`u8::MAX`: not known), and it does not win within `fail` moves
/// (0: not known). "Within n" makes both monotone: a win in k is a win in
/// every n >= k, a failure in k a failure in every n <= k.
#[derive(Clone, Copy)]
struct Entry {
    win: u8,
    fail: u8,
}

/// Salts that keep the goals' entries apart in one key space.
const DIRECT_SALT: u64 = 0;
const SELF_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// Entries kept before the table is emptied (some 20 bytes each with the
/// map's overhead, about 100 MB at most): the solver stays within memory
/// on long problems and only loses speed.
const TABLE_LIMIT: usize = 1 << 22;

/// How often (in nodes) the abort callback is asked.
const ABORT_EVERY: u64 = 4096;

/// The search state of one problem.
pub struct Searcher<'a> {
    table: KeyMap<Entry>,
    /// Help-mates: (key, plies) pairs proven to have no solution.
    help_dead: KeyMap<()>,
    /// Moves played (positions visited).
    pub nodes: u64,
    /// Asked every few thousand nodes; `true` stops the search, whose
    /// answers are then meaningless (see [`Searcher::aborted`]).
    abort: &'a dyn Fn() -> bool,
    aborted: bool,
    /// Stop once this many nodes are visited (`go mate N nodes X`).
    pub node_limit: Option<u64>,
    /// A refutation or mating move that worked at this many moves left,
    /// tried first next time (killer moves).
    killers: [Move; 64],
}

impl<'a> Searcher<'a> {
    pub fn new(abort: &'a dyn Fn() -> bool) -> Searcher<'a> {
        Searcher {
            table: KeyMap::default(),
            help_dead: KeyMap::default(),
            nodes: 0,
            abort,
            aborted: false,
            node_limit: None,
            killers: [Move::NONE; 64],
        }
    }

    /// Has the abort callback stopped the search?
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The position after `m`, counted as a node.
    pub(crate) fn child(&mut self, pos: &Position, m: Move) -> Position {
        self.nodes += 1;
        if self.nodes.is_multiple_of(ABORT_EVERY) && !self.aborted && (self.abort)() {
            self.aborted = true;
        }
        let mut next = pos.clone();
        next.play(m);
        next
    }

    /// The legal moves with the positions after them, counted as nodes.
    pub(crate) fn children(&mut self, pos: &Position) -> Vec<(Move, Position)> {
        let out = legal_children(pos);
        let before = self.nodes;
        self.nodes += out.len() as u64;
        if before / ABORT_EVERY != self.nodes / ABORT_EVERY && !self.aborted {
            self.aborted = (self.abort)() || self.node_limit.is_some_and(|l| self.nodes >= l);
        }
        out
    }

    /// Is the side to move checkmated (in check, no legal move)?
    pub fn is_mated(&self, pos: &Position) -> bool {
        pos.in_check() && !has_legal_move(pos)
    }

    fn probe(&self, key: u64, n: u32) -> Option<bool> {
        let e = self.table.get(&key)?;
        if u32::from(e.win) <= n {
            Some(true)
        } else if u32::from(e.fail) >= n {
            Some(false)
        } else {
            None
        }
    }

    fn store(&mut self, key: u64, n: u32, win: bool) {
        if self.aborted {
            return;
        }
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        let n = n.min(u8::MAX as u32 - 1) as u8;
        let e = self.table.entry(key).or_insert(Entry {
            win: u8::MAX,
            fail: 0,
        });
        if win {
            e.win = e.win.min(n);
        } else {
            e.fail = e.fail.max(n);
        }
    }

    /// Moves the killer of `slot` to the front of `list`, if it is there.
    fn killer_first(&self, children: &mut [(Move, Position)], slot: usize) {
        let k = self.killers[slot.min(63)];
        if let Some(i) = children.iter().position(|(m, _)| *m == k) {
            children.swap(0, i);
        }
    }

    // ---- direct mate ----

    /// Can the side to move force mate in at most `n` moves?
    pub fn attack(&mut self, pos: &Position, n: u32) -> bool {
        if n == 0 || self.aborted {
            return false;
        }
        let key = pos.key() ^ DIRECT_SALT;
        if let Some(r) = self.probe(key, n) {
            return r;
        }
        let mut children = self.children(pos);
        let win = if n == 1 {
            // Only a checking move can mate: the cheap test first.
            let found = children
                .iter()
                .find(|(_, next)| next.in_check() && !has_legal_move(next));
            if let Some((m, _)) = found {
                self.killers[0] = *m;
            }
            found.is_some()
        } else {
            // Checks first: they leave the defender fewest replies and
            // find most mates; then the move that won here last time.
            let killer = self.killers[(n as usize).min(63)];
            children.sort_by_key(|(m, next)| (!next.in_check(), *m != killer));
            let mut found = false;
            for (m, next) in &children {
                if self.defend(next, n) {
                    self.killers[(n as usize).min(63)] = *m;
                    found = true;
                    break;
                }
                if self.aborted {
                    break;
                }
            }
            found
        };
        self.store(key, n, win);
        win
    }

    /// After the attacker's move, with `n` attacker moves counted from
    /// that one: is the defender mated now, or does every reply leave a
    /// forced mate in `n - 1`?
    pub fn defend(&mut self, pos: &Position, n: u32) -> bool {
        if n <= 1 {
            return pos.in_check() && !has_legal_move(pos);
        }
        let children = self.children(pos);
        if children.is_empty() {
            return pos.in_check();
        }
        self.refutations(children, n, 1).is_empty()
    }

    /// The defender's replies (`children` of a position after an attacker's
    /// move) after which the attacker has no mate in `n - 1`, at most
    /// `limit` of them. The last refutation found is tried first.
    pub fn refutations(
        &mut self,
        mut children: Vec<(Move, Position)>,
        n: u32,
        limit: usize,
    ) -> Vec<Move> {
        let slot = 32 + (n as usize).min(31);
        self.killer_first(&mut children, slot);
        let mut out = Vec::new();
        for (r, next) in &children {
            if !self.attack(next, n - 1) {
                self.killers[slot] = *r;
                out.push(*r);
                if out.len() >= limit {
                    break;
                }
            }
            if self.aborted {
                break;
            }
        }
        out
    }

    // ---- self-mate ----

    /// Can the side to move force the other side to mate it in at most `n`
    /// of its own moves?
    pub fn self_attack(&mut self, pos: &Position, n: u32) -> bool {
        if n == 0 || self.aborted {
            return false;
        }
        let key = pos.key() ^ SELF_SALT;
        if let Some(r) = self.probe(key, n) {
            return r;
        }
        let mut children = self.children(pos);
        let slot = (n as usize).min(31);
        self.killer_first(&mut children, slot);
        let mut win = false;
        for (m, next) in &children {
            if self.self_defend(next, n) {
                self.killers[slot] = *m;
                win = true;
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.store(key, n, win);
        win
    }

    /// After the attacker's move (`n` attacker moves counted from it): must
    /// every reply of the defender mate the attacker, or leave a forced
    /// self-mate in `n - 1`? A defender without a move has escaped (it is
    /// mated or stalemated, not mating).
    pub fn self_defend(&mut self, pos: &Position, n: u32) -> bool {
        let children = self.children(pos);
        if children.is_empty() {
            return false;
        }
        self.self_refutations(children, n, 1).is_empty()
    }

    /// The defender's replies after which the attacker is neither mated
    /// nor can force a self-mate in `n - 1`, at most `limit` of them.
    pub fn self_refutations(
        &mut self,
        mut children: Vec<(Move, Position)>,
        n: u32,
        limit: usize,
    ) -> Vec<Move> {
        let slot = 32 + (n as usize).min(31);
        self.killer_first(&mut children, slot);
        let mut out = Vec::new();
        for (r, next) in &children {
            let forced = self.is_mated(next) || self.self_attack(next, n - 1);
            if !forced {
                self.killers[slot] = *r;
                out.push(*r);
                if out.len() >= limit {
                    break;
                }
            }
            if self.aborted {
                break;
            }
        }
        out
    }

    // ---- help-mate ----

    /// Every line of `plies` moves from `pos` (both sides cooperating)
    /// whose last move checkmates, appended to `out` (each line from the
    /// root: `prefix` holds the moves played so far).
    pub fn help(
        &mut self,
        pos: &Position,
        plies: u32,
        prefix: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) -> bool {
        if self.aborted || plies == 0 {
            return false;
        }
        let key = pos
            .key()
            .wrapping_add(u64::from(plies).wrapping_mul(SELF_SALT | 1));
        if self.help_dead.contains_key(&key) {
            return false;
        }
        let children = self.children(pos);
        let mut found = false;
        for (m, next) in &children {
            prefix.push(*m);
            if plies == 1 {
                if self.is_mated(next) {
                    out.push(prefix.clone());
                    found = true;
                }
            } else if self.help(next, plies - 1, prefix, out) {
                found = true;
            }
            prefix.pop();
            if self.aborted {
                return found;
            }
        }
        if !found && !self.aborted {
            if self.help_dead.len() >= TABLE_LIMIT {
                self.help_dead.clear();
            }
            self.help_dead.insert(key, ());
        }
        found
    }
}

/// The legal moves of `pos` with the positions after them. Where the
/// core judges legality by playing each move (conditions, capture
/// styles), the position it plays is the one kept, so no move is played
/// twice; elsewhere legality is cheap and each legal move is played once.
/// Mirrors `Position::filter_legal` branch by branch.
pub(crate) fn legal_children(pos: &Position) -> Vec<(Move, Position)> {
    let caps = pos.variant().caps;
    let by_play = !(caps.pin_legality || caps.hole_legality || caps.board_copy_legality);
    let has_royal = pos.royal_square(pos.side_to_move()).is_some();
    if !by_play || !has_royal {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        return list
            .iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play(m);
                (m, next)
            })
            .collect();
    }
    let mut pseudo = MoveList::new();
    pos.pseudo_legal_moves(&mut pseudo);
    let mut out = Vec::with_capacity(pseudo.len());
    for m in pseudo.iter() {
        let mut next = pos.clone();
        next.play(m);
        if pos.after_move_allows(m, &next) && !next.royal_capturable(next.side_to_move()) {
            out.push((m, next));
        }
    }
    out
}

/// Has the side to move a legal move? Where legality is judged per move
/// (conditions, capture styles), the first legal one answers; where pins
/// are computed once per node, the whole list is as cheap.
pub fn has_legal_move(pos: &Position) -> bool {
    let caps = pos.variant().caps;
    if caps.pin_legality || caps.hole_legality {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        return !list.is_empty();
    }
    let mut pseudo = MoveList::new();
    pos.pseudo_legal_moves(&mut pseudo);
    let mut one = MoveList::new();
    for m in pseudo.iter() {
        one.clear();
        one.push(m);
        pos.filter_legal(&mut one);
        if !one.is_empty() {
            return true;
        }
    }
    false
}
