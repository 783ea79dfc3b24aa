//! After-move effects of the fairy conditions, applied by `Position::play`
//! once the move itself is on the board: Circe parrain's pending unit,
//! kamikaze, Andernach's colour change, the rebirths of the Circe family,
//! Singlebox type 2's waiting pawns, sentinelles, and the castling rights of
//! a rook or royal piece that reappears on its home square.
//!
//! Copy-make means there is no undo: each effect is forward code that keeps
//! the key, the pawn key, the occupancy and the royal squares up to date
//! through `add_piece` / `remove_piece`.

use crate::conditions::Condition;
use crate::geometry::NO_SQ;
use crate::moves::{Move, MoveFlag};
use crate::piece::{Color, Piece};
use crate::position::Position;

/// What the effects need to know of the position before the move.
pub(crate) struct Before {
    /// The moving unit (before promotion).
    mover: Piece,
    /// The captured unit (`EMPTY` for none) and its square.
    captured: Piece,
    capture_sq: u8,
}

impl Before {
    #[inline]
    pub(crate) fn of(pos: &Position, m: Move) -> Before {
        let (captured, capture_sq) = match pos.capture_square(m) {
            Some(s) => (pos.board[s as usize], s),
            None => (Piece::EMPTY, NO_SQ),
        };
        Before {
            mover: pos.board[m.from() as usize],
            captured,
            capture_sq,
        }
    }
}

impl Position {
    /// The square of the unit a move captures, if it captures.
    #[inline]
    pub fn capture_square(&self, m: Move) -> Option<u8> {
        match m.flag() {
            MoveFlag::CastleKing | MoveFlag::CastleQueen | MoveFlag::Exchange => None,
            MoveFlag::EnPassant => {
                let v = self.v;
                Some(v.steps.step(v.pawn_push[self.side.flip().index()], m.to()))
            }
            MoveFlag::Locust => Some(m.locust_square()),
            _ => {
                let p = self.board[m.to() as usize];
                (p.is_piece() && p.color() != self.side).then_some(m.to())
            }
        }
    }

    /// The effects of the active conditions, after `play_move` (the side
    /// to move has not changed yet).
    pub(crate) fn apply_effects(&mut self, m: Move, b: &Before) {
        let v = self.v;
        let cond = v.conditions;
        let (from, to) = (m.from(), m.to());
        let royal = |p: Piece| Some(p.kind()) == v.royal_kind;
        let captured = b.captured.is_piece();

        // The last exchange is over once another move is made.
        let old_state = self.rule_state_key();
        self.exchanged = if m.flag() == MoveFlag::Exchange {
            [from, to]
        } else {
            [NO_SQ; 2]
        };

        if cond.has(Condition::ParrainCirce) {
            self.parrain(m, b);
        }
        if captured && !royal(b.mover) {
            if cond.has(Condition::Kamikaze) {
                self.remove_piece(to);
            } else if cond.has(Condition::Andernach) {
                let p = self.board[to as usize];
                self.remove_piece(to);
                let turned = Piece::new(p.kind(), p.color().flip());
                self.add_piece(to, turned);
                self.regain_castling(to, turned);
            }
        }
        if captured {
            self.rebirth(m, b);
            if cond.has(Condition::SingleBox2) && !royal(b.captured) {
                self.promote_waiting_pawn(b.captured);
            }
        }
        if cond.has(Condition::Sentinelles) {
            self.sentinel(from, b.mover);
        }
        self.key ^= old_state ^ self.rule_state_key();
    }

    /// Circe parrain: the unit captured by the previous move reappears,
    /// shifted from its capture square by this move's vector (the king's,
    /// for castling), if that square exists and is empty; this move's own
    /// victim then waits.
    fn parrain(&mut self, m: Move, b: &Before) {
        let geo = self.v.geometry;
        if self.pending.is_piece() {
            let (dx, dy) = (
                geo.file_of(m.to()) as i32 - geo.file_of(m.from()) as i32,
                geo.rank_of(m.to()) as i32 - geo.rank_of(m.from()) as i32,
            );
            if let Some(t) = geo.offset(self.pending_sq, dx, dy) {
                if self.board[t as usize].is_empty() {
                    let p = self.reborn_unit(m, self.pending, t);
                    self.add_piece(t, p);
                    self.regain_castling(t, p);
                }
            }
        }
        self.pending = Piece::EMPTY;
        self.pending_sq = NO_SQ;
        if b.captured.is_piece() && Some(b.captured.kind()) != self.v.royal_kind {
            self.pending = b.captured;
            self.pending_sq = b.capture_sq;
        }
    }

    /// The unit that reappears on `sq`: a pawn reborn on its promotion rank
    /// promotes, to the piece the move's letter names (the mover's choice,
    /// as in Popeye; a moving pawn that promotes too gives both the same
    /// letter), else to the first promotion piece.
    fn reborn_unit(&self, m: Move, unit: Piece, sq: u8) -> Piece {
        let v = self.v;
        if Some(unit.kind()) != v.pawn_kind
            || v.geometry.rank_of(sq) != v.promotion_rank(unit.color())
        {
            return unit;
        }
        match m.promotion().or(v.promotion.first().copied()) {
            Some(k) => Piece::new(k, unit.color()),
            None => unit,
        }
    }

    /// The rebirths of the Circe family after a capture.
    fn rebirth(&mut self, m: Move, b: &Before) {
        let v = self.v;
        let cond = v.conditions;
        let victim = b.captured;
        let victim_royal = Some(victim.kind()) == v.royal_kind;
        let table = v.rules.rebirth.as_ref();
        if cond.any(&[Condition::Circe, Condition::CirceMalefique]) && !victim_royal {
            let Some(t) = table else { return };
            let malefic = cond.has(Condition::CirceMalefique);
            let r = t.square(victim.kind(), victim.color(), b.capture_sq, malefic);
            if r != NO_SQ && self.board[r as usize].is_empty() {
                self.add_piece(r, victim);
                self.regain_castling(r, victim);
            }
        } else if cond.has(Condition::InterchangeCirce) && !victim_royal {
            let r = m.from();
            if self.board[r as usize].is_empty() {
                let p = self.reborn_unit(m, victim, r);
                self.add_piece(r, p);
                self.regain_castling(r, p);
            }
        } else if cond.anticirce() {
            // The capturer (king included) goes to its own rebirth square;
            // generation only offers captures where that square is free.
            let Some(t) = table else { return };
            let to = m.to();
            let p = self.board[to as usize];
            if !p.is_piece() {
                return; // gone (kamikaze)
            }
            let r = t.square(p.kind(), p.color(), to, false);
            if r != NO_SQ && r != to && self.board[r as usize].is_empty() {
                self.remove_piece(to);
                self.add_piece(r, p);
                let c = p.color().index();
                if self.royal[c] == to {
                    self.royal[c] = r;
                }
                self.regain_castling(r, p);
            }
        }
    }

    /// Singlebox type 2: a pawn of the captured unit's side waiting on its
    /// last rank takes the captured unit's kind (the lowest square's pawn:
    /// the seed lets the capturing side choose, which fers does not offer).
    fn promote_waiting_pawn(&mut self, captured: Piece) {
        let v = self.v;
        let (Some(pk), c) = (v.pawn_kind, captured.color()) else {
            return;
        };
        if captured.kind() == pk || !v.promotion.contains(&captured.kind()) {
            return;
        }
        let rank = v.promotion_rank(c);
        let pawn = Piece::new(pk, c);
        let waiting = self.occ[c.index()]
            .iter()
            .find(|&s| v.geometry.rank_of(s) == rank && self.board[s as usize] == pawn);
        if let Some(s) = waiting {
            self.remove_piece(s);
            self.add_piece(s, Piece::new(captured.kind(), c));
        }
    }

    /// Sentinelles: a unit other than a pawn leaves a pawn of its colour on
    /// the square it left, unless that square is on the first or last rank
    /// or the side already has 8 pawns (16 for both sides together).
    fn sentinel(&mut self, from: u8, mover: Piece) {
        let v = self.v;
        let Some(pk) = v.pawn_kind else { return };
        if mover.kind() == pk || !self.board[from as usize].is_empty() {
            return;
        }
        let rank = v.geometry.rank_of(from);
        if rank == 0 || rank == v.geometry.ranks - 1 {
            return;
        }
        let count = |c: Color| {
            self.occ[c.index()]
                .iter()
                .filter(|&s| self.board[s as usize] == Piece::new(pk, c))
                .count()
        };
        let c = mover.color();
        if count(c) < 8 && count(c) + count(c.flip()) < 16 {
            self.add_piece(from, Piece::new(pk, c));
        }
    }

    /// A rook that appears on its castling home square while its royal
    /// piece stands on its own, or a royal piece that appears on its home
    /// square, may castle again (seed 003: reborn rooks and kings, and
    /// Andernach's new rooks).
    fn regain_castling(&mut self, sq: u8, p: Piece) {
        let v = self.v;
        if !v.castling {
            return;
        }
        let c = p.color().index();
        let t = &v.rules;
        if self.royal[c] != t.royal_home[c] || self.royal[c] == NO_SQ {
            return;
        }
        let rook = v.kind_of_letter('r');
        for w in 0..2 {
            let home = t.rook_home[c][w];
            let is_rook = home != NO_SQ
                && self.board[home as usize] == Piece::new(rook.unwrap_or(0), p.color());
            let appeared = sq == home || sq == t.royal_home[c];
            if appeared && is_rook && rook.is_some() && self.castle_rooks[c][w] == NO_SQ {
                self.castle_rooks[c][w] = home;
                self.key ^= v.zobrist.castle[c][w];
            }
        }
    }
}
