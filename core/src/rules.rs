//! The rule layer of the fairy conditions: what they add to and remove
//! from the pseudo-legal moves, and what "in check" means under them.
//!
//! - [`NodeMaps`]: per node, the squares of the side to move's units that
//!   the enemy observes, that their own side observes, and that are
//!   paralysed (Madrasi); computed once and shared by every filter.
//! - `adjust_moves`: Mars Circe's captures from the rebirth square,
//!   transmuting kings, Messigny exchanges, then one pass of filters.
//! - `royal_capturable`: check under the rules. A royal piece is in check
//!   when the opponent has a pseudo-legal capture of it that the active
//!   conditions allow: a paralysed (Madrasi), unobserved (Patrol),
//!   unprovoked (Provocateurs) or unthreatened (Beamten) unit gives no
//!   check; under Mars Circe captures start from the rebirth square; under
//!   Anticirce a capture whose rebirth square is occupied does not exist.
//!
//! Observation ("attacked", "threatened", "controlled") is the plain attack
//! of the pieces' movement, as in Popeye: it is not itself filtered by the
//! conditions, which would make paralysis circular.

use crate::attacks::simple_attackers;
use crate::conditions::Condition;
use crate::geometry::{SquareSet, MAX_SQUARES, NO_SQ};
use crate::movegen::{targets, PromotionChoices};
use crate::moves::{Move, MoveFlag, MoveList};
use crate::piece::{Color, Family, Mode, Piece};
use crate::position::Position;

/// Conditions whose filters read the observation maps.
const NEEDS_MAPS: [Condition; 5] = [
    Condition::Beamten,
    Condition::Patrol,
    Condition::Provocateurs,
    Condition::Madrasi,
    Condition::MadrasiRex,
];

/// Per-node observation maps of the side to move's units.
pub(crate) struct NodeMaps {
    /// Units attacked by an enemy unit.
    pub enemy: SquareSet,
    /// Units attacked by a friendly unit.
    pub friend: SquareSet,
    /// Units paralysed under Madrasi.
    pub paralysed: SquareSet,
}

impl NodeMaps {
    pub(crate) fn new(pos: &Position) -> NodeMaps {
        let v = pos.v;
        let cond = v.conditions;
        let us = pos.side;
        let them = us.flip();
        let mut maps = NodeMaps {
            enemy: SquareSet::EMPTY,
            friend: SquareSet::EMPTY,
            paralysed: SquareSet::EMPTY,
        };
        let need_enemy = cond.any(&[Condition::Beamten, Condition::Provocateurs]);
        let need_friend = cond.has(Condition::Patrol);
        for s in pos.occ[us.index()].iter() {
            if need_enemy && pos.attacked(s, them) {
                maps.enemy.insert(s);
            }
            if need_friend && pos.attacked(s, us) {
                maps.friend.insert(s);
            }
            if cond.madrasi() && pos.paralysed(s) {
                maps.paralysed.insert(s);
            }
        }
        maps
    }
}

impl Position {
    /// Madrasi: is the unit on `sq` observed by an enemy unit of its kind?
    /// (Kings only under Madrasi Rex Inclusiv.)
    pub fn paralysed(&self, sq: u8) -> bool {
        let v = self.v;
        let p = self.board[sq as usize];
        if !p.is_piece() || !v.conditions.madrasi() {
            return false;
        }
        if Some(p.kind()) == v.royal_kind && !v.conditions.has(Condition::MadrasiRex) {
            return false;
        }
        attacked_by_kind(self, &self.board, sq, p.color().flip(), p.kind())
    }

    /// Adds the moves the conditions create and removes those they forbid
    /// (pseudo-legal moves in, pseudo-legal moves out).
    pub(crate) fn adjust_moves(&self, list: &mut MoveList, noisy: bool) {
        let cond = self.v.conditions;
        if cond.has(Condition::MarsCirce) {
            self.mars_captures(list);
        }
        if cond.has(Condition::TransmutingKings) {
            self.transmute_king(list, noisy);
        }
        if cond.messigny() && !noisy {
            self.exchanges(list);
        }
        if cond.any(&[Condition::InterchangeCirce, Condition::ParrainCirce]) {
            self.reborn_promotions(list);
        }
        let maps = cond.any(&NEEDS_MAPS).then(|| NodeMaps::new(self));
        list.retain(|m| self.condition_allows(m, maps.as_ref()));
    }

    /// A move after which a pawn is reborn on its promotion rank comes in
    /// one version per promotion piece (the letter names the new piece).
    fn reborn_promotions(&self, list: &mut MoveList) {
        let v = self.v;
        let cond = v.conditions;
        let Some(pk) = v.pawn_kind else { return };
        if v.promotion.len() < 2 {
            return;
        }
        let geo = v.geometry;
        let us = self.side;
        let n = list.len();
        for i in 0..n {
            let m = list.get(i);
            if m.promotion().is_some() {
                continue;
            }
            let promotes = if cond.has(Condition::InterchangeCirce) {
                self.capture_square(m).is_some_and(|c| {
                    let victim = self.board[c as usize];
                    victim.kind() == pk && geo.rank_of(m.from()) == v.promotion_rank(victim.color())
                })
            } else {
                // Parrain: our pawn captured by the last move reappears.
                self.pending == Piece::new(pk, us) && {
                    let (from, to) = (m.from(), m.to());
                    let (dx, dy) = (
                        geo.file_of(to) as i32 - geo.file_of(from) as i32,
                        geo.rank_of(to) as i32 - geo.rank_of(from) as i32,
                    );
                    geo.offset(self.pending_sq, dx, dy).is_some_and(|t| {
                        geo.rank_of(t) == v.promotion_rank(us)
                            && (t == from || (t != to && self.board[t as usize].is_empty()))
                    })
                }
            };
            if !promotes || matches!(m.flag(), MoveFlag::EnPassant | MoveFlag::Locust) {
                continue;
            }
            for (j, &k) in v.promotion.iter().enumerate() {
                let pm = m.with_promotion_kind(Some(k));
                if j == 0 {
                    list.set(i, pm);
                } else {
                    list.push(pm);
                }
            }
        }
    }

    /// The filters of the conditions on one pseudo-legal move.
    fn condition_allows(&self, m: Move, maps: Option<&NodeMaps>) -> bool {
        let v = self.v;
        let cond = v.conditions;
        let (from, to) = (m.from(), m.to());
        let capture = self.capture_square(m);
        if let Some(maps) = maps {
            if maps.paralysed.contains(from) {
                return false;
            }
            if cond.has(Condition::Beamten) && !maps.enemy.contains(from) {
                return false;
            }
            if capture.is_some() {
                if cond.has(Condition::Patrol) && !maps.friend.contains(from) {
                    return false;
                }
                if cond.has(Condition::Provocateurs) && !maps.enemy.contains(from) {
                    return false;
                }
            }
            if matches!(m.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen) {
                // The rook moves too: it must be free to.
                let wing = (m.flag() == MoveFlag::CastleQueen) as usize;
                let rook = self.castle_rooks[self.side.index()][wing];
                if rook != NO_SQ
                    && (maps.paralysed.contains(rook)
                        || (cond.has(Condition::Beamten) && !maps.enemy.contains(rook)))
                {
                    return false;
                }
            }
        }
        if capture.is_some() && cond.has(Condition::NoCapture) {
            return false;
        }
        if cond.has(Condition::Grid) && v.rules.cell[from as usize] == v.rules.cell[to as usize] {
            return false;
        }
        if cond.has(Condition::InterchangeCirce) {
            let p = self.board[from as usize];
            if Some(p.kind()) == v.pawn_kind && v.relative_rank(p.color(), from) == 0 {
                return false;
            }
        }
        if capture.is_some() && cond.anticirce() && !self.anticirce_allows(m) {
            return false;
        }
        true
    }

    /// Anticirce: the capturer's rebirth square (after promotion) must be
    /// empty or the square it leaves; the seed's type also forbids a
    /// capture on that square itself.
    fn anticirce_allows(&self, m: Move) -> bool {
        let v = self.v;
        let Some(t) = v.rules.rebirth.as_ref() else {
            return true;
        };
        let p = self.board[m.from() as usize];
        let kind = m.promotion().unwrap_or(p.kind());
        let to = m.to();
        let r = t.square(kind, p.color(), to, false);
        if r == to {
            return v.conditions.has(Condition::AnticirceCalvet);
        }
        r == NO_SQ || r == m.from() || self.board[r as usize].is_empty()
    }

    /// Mars Circe: captures are made from the rebirth square (which must be
    /// empty, or the unit's own square); the ordinary captures of a unit
    /// elsewhere are removed.
    fn mars_captures(&self, list: &mut MoveList) {
        let v = self.v;
        let Some(t) = v.rules.rebirth.as_ref() else {
            return;
        };
        let us = self.side;
        list.retain(|m| {
            if self.capture_square(m).is_none() {
                return true;
            }
            let p = self.board[m.from() as usize];
            t.square(p.kind(), us, m.from(), false) == m.from()
        });
        for from in self.occ[us.index()].iter() {
            let p = self.board[from as usize];
            let r = t.square(p.kind(), us, from, false);
            if r == from || r == NO_SQ || !self.board[r as usize].is_empty() {
                continue;
            }
            let mut b = self.board;
            b[from as usize] = Piece::EMPTY;
            b[r as usize] = p;
            self.captures_from(&b, r, p, &mut |to, victim| {
                let promo_rank = v.geometry.rank_of(to) == v.promotion_rank(us);
                if Some(p.kind()) == v.pawn_kind && promo_rank && !v.promotion.is_empty() {
                    for &k in &v.promotion {
                        list.push(Move::with_promotion(from, to, k));
                    }
                } else if victim == to {
                    list.push(Move::new(from, to, MoveFlag::Normal));
                } else {
                    list.push(Move::locust(from, to, victim));
                }
            });
        }
    }

    /// Calls `hit(to, victim)` for each capture the unit `p` on `sq` has on
    /// `board` (pawns: their diagonal captures, no en passant).
    fn captures_from(
        &self,
        board: &[Piece; MAX_SQUARES],
        sq: u8,
        p: Piece,
        hit: &mut dyn FnMut(u8, u8),
    ) {
        let v = self.v;
        let c = p.color();
        if Some(p.kind()) == v.pawn_kind {
            for &d in &v.pawn_captures[c.index()] {
                let t = v.steps.step(d, sq);
                if t != NO_SQ {
                    let q = board[t as usize];
                    if q.is_piece() && q.color() != c {
                        hit(t, t);
                    }
                }
            }
            return;
        }
        for comp in &v.components[p.kind() as usize] {
            if comp.mode == Mode::MoveOnly || comp.family == Family::Pawn {
                continue;
            }
            let mut sink = |to: u8, victim: u8| {
                if victim != NO_SQ {
                    hit(to, victim);
                }
                false
            };
            targets(v, board, sq, c, comp, &mut sink);
        }
    }

    /// Transmuting kings: a royal piece in check moves only as the units
    /// that check it (for a pawn, as a pawn of its own colour, without
    /// double step or promotion).
    fn transmute_king(&self, list: &mut MoveList, noisy: bool) {
        let v = self.v;
        let us = self.side;
        let ksq = self.royal[us.index()];
        if ksq == NO_SQ {
            return;
        }
        if !self.attacked(ksq, us.flip()) {
            return;
        }
        let kinds = self.checker_kinds(ksq, us.flip());
        if kinds == 0 {
            return;
        }
        list.retain(|m| m.from() != ksq);
        let king = self.board[ksq as usize];
        let start = list.len();
        for kind in 0..v.pieces.len() as u8 {
            if kinds & (1 << kind) == 0 {
                continue;
            }
            self.moves_as(ksq, king, kind, noisy, list);
        }
        list.dedup_from(start);
    }

    /// The moves of the unit on `sq` if it moved like a `kind`.
    fn moves_as(&self, sq: u8, unit: Piece, kind: u8, noisy: bool, list: &mut MoveList) {
        let v = self.v;
        let c = unit.color();
        let board = &self.board;
        if Some(kind) == v.pawn_kind {
            let one = v.steps.step(v.pawn_push[c.index()], sq);
            if !noisy && one != NO_SQ && board[one as usize].is_empty() {
                list.push(Move::new(sq, one, MoveFlag::Normal));
            }
            self.captures_from(board, sq, Piece::new(kind, c), &mut |to, _| {
                list.push(Move::new(sq, to, MoveFlag::Normal))
            });
            return;
        }
        for comp in &v.components[kind as usize] {
            let mut push = |to: u8, victim: u8| {
                if noisy && victim == NO_SQ {
                    return false;
                }
                if victim == NO_SQ || victim == to {
                    list.push(Move::new(sq, to, MoveFlag::Normal));
                } else {
                    list.push(Move::locust(sq, to, victim));
                }
                false
            };
            targets(v, board, sq, c, comp, &mut push);
        }
    }

    /// The kinds (bit mask) of the units of `by` that attack `sq` by plain
    /// attack.
    fn checker_kinds(&self, sq: u8, by: Color) -> u32 {
        let mut kinds = 0u32;
        for k in 0..self.v.pieces.len() as u8 {
            if attacked_by_kind(self, &self.board, sq, by, k) {
                kinds |= 1 << k;
            }
        }
        kinds
    }

    /// Messigny: each unit may change places with an enemy unit of its kind
    /// (kings too, except under Rex Exclusiv), but not a unit of the last
    /// exchange.
    fn exchanges(&self, list: &mut MoveList) {
        let v = self.v;
        let us = self.side;
        let no_kings = v.conditions.has(Condition::MessignyRexExclusiv);
        for from in self.occ[us.index()].iter() {
            if self.exchanged.contains(&from) {
                continue;
            }
            let kind = self.board[from as usize].kind();
            if no_kings && Some(kind) == v.royal_kind {
                continue;
            }
            for to in self.occ[us.flip().index()].iter() {
                if self.board[to as usize].kind() == kind && !self.exchanged.contains(&to) {
                    list.push(Move::new(from, to, MoveFlag::Exchange));
                }
            }
        }
    }

    /// Filters that can only be judged after the move (Koeko: the moved
    /// unit must stand next to another unit).
    pub(crate) fn after_move_allows(&self, m: Move, next: &Position) -> bool {
        let v = self.v;
        if v.conditions.has(Condition::Koeko) {
            let dest = match m.flag() {
                MoveFlag::CastleKing | MoveFlag::CastleQueen => next.royal[self.side.index()],
                _ => m.to(),
            };
            // The moved unit, whatever its colour now (Andernach turns a
            // capturer); the square is empty when it vanished (Kamikaze)
            // or went to its rebirth square (Anticirce).
            let unit = next.board[dest as usize];
            if unit.is_piece() {
                let all = next.occ[0].or(next.occ[1]);
                if v.rules.neighbours[dest as usize].and(all).is_empty() {
                    return false;
                }
            }
        }
        true
    }

    /// Could `by` capture the royal piece of the other side under the
    /// active conditions? (Plain attack when the variant's check is plain.)
    pub(crate) fn royal_capturable(&self, by: Color) -> bool {
        let k = self.royal[by.flip().index()];
        if k == NO_SQ {
            return false;
        }
        if self.v.caps.plain_check {
            return self.attacked(k, by);
        }
        if self.v.capture.is_some() {
            return self.passive_capturable(k, by);
        }
        self.checked_under_rules(k, by)
    }

    fn checked_under_rules(&self, k: u8, by: Color) -> bool {
        let v = self.v;
        let cond = v.conditions;
        if cond.has(Condition::MarsCirce) {
            return self.mars_attacks(k, by);
        }
        let transmuted = cond.has(Condition::TransmutingKings) && {
            let own = self.royal[by.index()];
            own != NO_SQ && self.attacked(own, by.flip())
        };
        let mut ok = |s: u8, p: Piece| self.attacker_allowed(s, p, k, by, transmuted);
        if simple_attackers(v, &self.board, k, by, &mut ok) {
            return true;
        }
        if v.complex_kinds != 0 && self.generated_attack(k, by, &mut ok) {
            return true;
        }
        if transmuted {
            let own = self.royal[by.index()];
            let kinds = self.checker_kinds(own, by.flip());
            let king = self.board[own as usize];
            for kind in 0..v.pieces.len() as u8 {
                if kinds & (1 << kind) != 0 && self.attacks_as(own, king, kind, k) {
                    return self.attacker_allowed(own, king, k, by, false);
                }
            }
        }
        false
    }

    /// Would the unit on `sq` attack `target` if it moved like a `kind`?
    fn attacks_as(&self, sq: u8, unit: Piece, kind: u8, target: u8) -> bool {
        let mut found = false;
        let fake = Piece::new(kind, unit.color());
        self.captures_from(&self.board, sq, fake, &mut |_, victim| {
            found |= victim == target
        });
        found
    }

    /// Is the capture of the royal piece on `k` by the unit `p` on `s`
    /// allowed by the conditions?
    fn attacker_allowed(&self, s: u8, p: Piece, k: u8, by: Color, transmuted: bool) -> bool {
        let v = self.v;
        let cond = v.conditions;
        let victim = by.flip();
        let royal = Some(p.kind()) == v.royal_kind;
        if transmuted && royal {
            return false; // it attacks as its checkers instead
        }
        if cond.madrasi() && self.paralysed(s) {
            return false;
        }
        if cond.has(Condition::Beamten) && !self.attacked(s, victim) {
            return false;
        }
        if cond.has(Condition::Provocateurs) && !self.attacked(s, victim) {
            return false;
        }
        if cond.has(Condition::Patrol) && !self.attacked(s, by) {
            return false;
        }
        if cond.has(Condition::Grid) && v.rules.cell[s as usize] == v.rules.cell[k as usize] {
            return false;
        }
        // Circe échange: a pawn on its first rank is immovable (seed), so
        // it gives no check.
        if cond.has(Condition::InterchangeCirce)
            && Some(p.kind()) == v.pawn_kind
            && v.relative_rank(by, s) == 0
        {
            return false;
        }
        // Singlebox type 1: a pawn that has no promotion left cannot move
        // onto its last rank, so it cannot capture there either (seed:
        // "the Pawn cannot move").
        if cond.has(Condition::SingleBox1)
            && Some(p.kind()) == v.pawn_kind
            && v.geometry.rank_of(k) == v.promotion_rank(by)
            && !v.promotion.is_empty()
            && matches!(self.promotion_choices(by), PromotionChoices::Some(0))
        {
            return false;
        }
        if cond.has(Condition::Koeko) {
            let mut around = v.rules.neighbours[k as usize].and(self.occ[0].or(self.occ[1]));
            around.remove(s);
            if around.is_empty() {
                return false;
            }
        }
        if cond.anticirce() {
            if let Some(t) = v.rules.rebirth.as_ref() {
                let promotes = Some(p.kind()) == v.pawn_kind
                    && v.geometry.rank_of(k) == v.promotion_rank(by)
                    && !v.promotion.is_empty();
                let free = |kind: u8| {
                    let r = t.square(kind, by, k, false);
                    if r == k {
                        cond.has(Condition::AnticirceCalvet)
                    } else {
                        r == NO_SQ || r == s || self.board[r as usize].is_empty()
                    }
                };
                let ok = if promotes {
                    v.promotion.iter().any(|&kind| free(kind))
                } else {
                    free(p.kind())
                };
                if !ok {
                    return false;
                }
            }
        }
        true
    }

    /// Forward generation of the captures of `by`'s complex pieces onto
    /// `k`, each offered to `ok`.
    fn generated_attack(&self, k: u8, by: Color, ok: &mut impl FnMut(u8, Piece) -> bool) -> bool {
        let v = self.v;
        for from in self.occ[by.index()].iter() {
            let p = self.board[from as usize];
            if v.complex_kinds & (1 << p.kind()) == 0 {
                continue;
            }
            for comp in &v.components[p.kind() as usize] {
                if comp.family.is_simple() || comp.mode == Mode::MoveOnly {
                    continue;
                }
                let mut hit = |_to: u8, victim: u8| victim == k;
                if targets(v, &self.board, from, by, comp, &mut hit) && ok(from, p) {
                    return true;
                }
            }
        }
        false
    }

    /// Mars Circe check: some unit of `by`, standing on its rebirth square
    /// (empty, or its own), captures the royal piece from there.
    fn mars_attacks(&self, k: u8, by: Color) -> bool {
        let v = self.v;
        let Some(t) = v.rules.rebirth.as_ref() else {
            return self.attacked(k, by);
        };
        for from in self.occ[by.index()].iter() {
            let p = self.board[from as usize];
            let r = t.square(p.kind(), by, from, false);
            if r == NO_SQ || (r != from && !self.board[r as usize].is_empty()) {
                continue;
            }
            let kinds = v.pieces.len();
            let reach = &v.rules.reach
                [(by.index() * kinds + p.kind() as usize) * v.geometry.num_squares() + r as usize];
            if !reach.contains(k) {
                continue;
            }
            let mut b = self.board;
            b[from as usize] = Piece::EMPTY;
            b[r as usize] = p;
            let mut found = false;
            self.captures_from(&b, r, p, &mut |_, victim| found |= victim == k);
            if found {
                return true;
            }
        }
        false
    }
}

/// Is `sq` attacked on `board` by a unit of `by` of the given kind?
fn attacked_by_kind(
    pos: &Position,
    board: &[Piece; MAX_SQUARES],
    sq: u8,
    by: Color,
    kind: u8,
) -> bool {
    let v = pos.v;
    if v.complex_kinds & (1 << kind) == 0 {
        return simple_attackers(v, board, sq, by, |_, p| p.kind() == kind);
    }
    // Complex kinds: generate their captures with `sq` holding a target.
    let mut b = *board;
    let t = b[sq as usize];
    if !(t.is_piece() && t.color() != by) {
        b[sq as usize] = Piece::new(0, by.flip());
    }
    for from in pos.occ[by.index()].iter() {
        let p = b[from as usize];
        if !p.is_piece() || p.kind() != kind || p.color() != by {
            continue;
        }
        for comp in &v.components[kind as usize] {
            if comp.mode == Mode::MoveOnly {
                continue;
            }
            let mut hit = |_to: u8, victim: u8| victim == sq;
            if targets(v, &b, from, by, comp, &mut hit) {
                return true;
            }
        }
    }
    false
}
