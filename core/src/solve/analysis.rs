//! From proofs to a problemist's answer: the keys, the tries and their
//! refutations, and for short problems the threat, each defence and the
//! attacker's continuations (the solution tree Popeye prints). Every
//! verdict comes from the exhaustive search of `search.rs`.

use super::search::Searcher;
use super::stipulation::{Aim, Stipulation};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// An attacker's move in the solution tree, with what follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub mv: Move,
    /// The move gives check.
    pub check: bool,
    /// The move checkmates (direct mates: the defender; self-mates: a
    /// defender's move that mates the attacker is a [`Defence`] with
    /// `mate`).
    pub mate: bool,
    /// What follows (none after a mate, and below the printed depth).
    pub tree: Option<Box<Tree>>,
}

/// A defender's move and the attacker's continuations that still win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    pub mv: Move,
    pub check: bool,
    /// Self-mates: the move mates the attacker (the aim reached).
    pub mate: bool,
    /// The shortest winning continuations (empty for a refutation, or for
    /// a mating defence of a self-mate).
    pub continuations: Vec<Line>,
}

/// What follows an attacker's move (the defender to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// `None`: no threat is shown (the move gives check). `Some(empty)`:
    /// zugzwang (no threat). Otherwise the shortest threatening lines.
    pub threats: Option<Vec<Line>>,
    /// Defences worth showing: those after which no threat move wins
    /// (all of them when there is no threat), each with its continuations.
    pub defences: Vec<Defence>,
    /// The defences after which the attacker has no win in time.
    pub refutations: Vec<Move>,
}

/// One first move of a direct mate or a self-mate that is a key or a try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub mv: Move,
    pub check: bool,
    /// Mates at once (direct mates).
    pub mate: bool,
    /// A key (no refutation) or a try (exactly one).
    pub key: bool,
    /// The refutation of a try (`None` for a key).
    pub refutation: Option<Move>,
    /// The solution tree, for stipulations up to [`TREE_MOVES`] moves.
    pub tree: Option<Tree>,
}

/// The full answer to a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub stipulation: Stipulation,
    /// Direct mates and self-mates: keys and tries in move-generation
    /// order.
    pub candidates: Vec<Candidate>,
    /// Help-mates: every solution, each line from the first move.
    pub help_lines: Vec<Vec<Move>>,
    /// The search was stopped before the end: the answer is incomplete.
    pub aborted: bool,
    pub nodes: u64,
}

impl Solution {
    /// The keys (direct mates, self-mates) or the first moves of the
    /// solutions (help-mates), each once, in order.
    pub fn keys(&self) -> Vec<Move> {
        if self.stipulation.aim == Aim::Help {
            let mut out: Vec<Move> = Vec::new();
            for l in &self.help_lines {
                if let Some(&m) = l.first() {
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
            return out;
        }
        self.candidates
            .iter()
            .filter(|c| c.key)
            .map(|c| c.mv)
            .collect()
    }

    /// Tries refuted by a single move: (try, refutation).
    pub fn tries(&self) -> Vec<(Move, Move)> {
        self.candidates
            .iter()
            .filter_map(|c| c.refutation.map(|r| (c.mv, r)))
            .collect()
    }
}

/// Up to this many moves the solution tree (threats, defences,
/// continuations) is built, as Popeye prints it for `#2` and `#3`.
pub const TREE_MOVES: u32 = 3;

/// Solves a direct mate or self-mate from `root` (the attacker to move).
pub fn solve_attack(s: &mut Searcher, root: &Position, stip: Stipulation) -> Vec<Candidate> {
    let n = stip.moves;
    let aim = stip.aim;
    let mut list = MoveList::new();
    root.legal_moves(&mut list);
    let mut out = Vec::new();
    for m in list.iter() {
        let child = s.child(root, m);
        let check = child.in_check();
        let replies = s.children(&child);
        let (key, refutation, mate) = if replies.is_empty() {
            // Direct: a mate is a key, a stalemate nothing. Self: the
            // defender cannot mate.
            let mate = check;
            (aim == Aim::Direct && mate, None, mate)
        } else {
            let refs = match aim {
                // Mate in one: a move that does not mate is nothing.
                Aim::Direct if n <= 1 => continue,
                Aim::Direct => s.refutations(replies, n, 2),
                _ => s.self_refutations(replies, n, 2),
            };
            match refs.len() {
                0 => (true, None, false),
                1 => (false, Some(refs[0]), false),
                _ => continue,
            }
        };
        if s.aborted() {
            break;
        }
        if !key && refutation.is_none() {
            continue;
        }
        let tree = (n <= TREE_MOVES && !mate).then(|| build_tree(s, &child, n, aim));
        out.push(Candidate {
            mv: m,
            check,
            mate,
            key,
            refutation,
            tree,
        });
    }
    out
}

/// Does the attacker's move that led to `pos` win within `n` of its
/// moves (counted from that one)?
fn after_attack(s: &mut Searcher, pos: &Position, n: u32, aim: Aim) -> bool {
    match aim {
        Aim::SelfMate => s.self_defend(pos, n),
        _ => s.defend(pos, n),
    }
}

/// The attacker's shortest winning moves from `pos` (attacker to move)
/// within `max` moves, with their trees: (length, lines).
fn winning_lines(s: &mut Searcher, pos: &Position, max: u32, aim: Aim) -> Vec<Line> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let children: Vec<(Move, Position)> = list.iter().map(|m| (m, s.child(pos, m))).collect();
    for k in 1..=max {
        let mut lines = Vec::new();
        for (m, next) in &children {
            if after_attack(s, next, k, aim) {
                let check = next.in_check();
                let mate = aim == Aim::Direct && check && !super::search::has_legal_move(next);
                lines.push(Line {
                    mv: *m,
                    check,
                    mate,
                    tree: None,
                });
            }
        }
        if !lines.is_empty() {
            for l in lines.iter_mut() {
                if !l.mate {
                    let next = &children.iter().find(|(m, _)| *m == l.mv).expect("child").1;
                    l.tree = Some(Box::new(build_tree(s, next, k, aim)));
                }
            }
            return lines;
        }
        if s.aborted() {
            break;
        }
    }
    Vec::new()
}

/// The tree after an attacker's move (`pos`, defender to move), the
/// attacker having `n` moves counted from that one.
fn build_tree(s: &mut Searcher, pos: &Position, n: u32, aim: Aim) -> Tree {
    let threats = if pos.in_check() || n <= 1 && aim == Aim::Direct {
        None
    } else {
        let mut passed = pos.clone();
        passed.play_null();
        Some(if aim == Aim::SelfMate && n <= 1 {
            Vec::new()
        } else {
            winning_lines(s, &passed, n - 1, aim)
        })
    };
    let threat_moves: Vec<Move> = threats.iter().flatten().map(|l| l.mv).collect();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut defences = Vec::new();
    let mut refutations = Vec::new();
    for d in list.iter() {
        let next = s.child(pos, d);
        let check = next.in_check();
        if aim == Aim::SelfMate && s.is_mated(&next) {
            defences.push(Defence {
                mv: d,
                check,
                mate: true,
                continuations: Vec::new(),
            });
            continue;
        }
        let continuations = if n > 1 {
            winning_lines(s, &next, n - 1, aim)
        } else {
            Vec::new()
        };
        if continuations.is_empty() {
            refutations.push(d);
            continue;
        }
        // Popeye leaves out the defences that the threat still answers.
        if continuations.iter().any(|l| threat_moves.contains(&l.mv)) {
            continue;
        }
        defences.push(Defence {
            mv: d,
            check,
            mate: false,
            continuations,
        });
        if s.aborted() {
            break;
        }
    }
    Tree {
        threats,
        defences,
        refutations,
    }
}
