//! Static exchange evaluation: the material balance of the capture sequence
//! on one square, each side recapturing with its least valuable attacker
//! and free to stop when going on would lose.
//!
//! The attackers are found with the variant's attack plan (leapers, riders
//! and pawns), walked on a scratch board from which the pieces that have
//! already captured are lifted, so x-rays (a rook behind a rook) join in
//! by themselves. Hoppers, lame leapers and the other complex families
//! are not in that plan: [`Position::see_exact`] says whether a variant's
//! exchanges are fully seen. Pins are ignored, as in Stockfish.

use crate::attacks::simple_attackers;
use crate::geometry::{MAX_SQUARES, NO_SQ};
use crate::moves::{Move, MoveFlag};
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::variant::Variant;

/// Value of a royal piece in the exchange: it can only end a sequence.
const ROYAL_VALUE: i32 = 1 << 20;

impl Position {
    /// Does static exchange see every attacker in this variant, and does
    /// every capture just remove its victim? (`Capabilities::exact_see`:
    /// false with hoppers, lame leapers or other pieces outside the simple
    /// attack plan, and under conditions that change what a capture does.)
    /// [`Position::see_ge`] still answers there, but only as a guess.
    pub fn see_exact(&self) -> bool {
        self.v.caps.exact_see
    }

    /// Is the static exchange value of `m` at least `threshold`? `values`
    /// gives each piece kind's value (indexed by kind; missing kinds count
    /// 0). Castling, en passant, promotions and the special captures of
    /// Fanorona and locusts count as an exchange worth 0.
    pub fn see_ge(&self, m: Move, threshold: i32, values: &[i32]) -> bool {
        if !matches!(m.flag(), MoveFlag::Normal | MoveFlag::DoubleStep) || m.promotion().is_some() {
            return 0 >= threshold;
        }
        let v = self.v;
        let value = |p: Piece| -> i32 {
            if Some(p.kind()) == v.royal_kind {
                ROYAL_VALUE
            } else {
                values.get(p.kind() as usize).copied().unwrap_or(0)
            }
        };
        let (from, to) = (m.from(), m.to());
        let victim = self.board[to as usize];
        let mut swap = if victim.is_piece() { value(victim) } else { 0 } - threshold;
        if swap < 0 {
            return false;
        }
        swap = value(self.board[from as usize]) - swap;
        if swap <= 0 {
            return true;
        }
        let floor = values.iter().copied().min().unwrap_or(0);
        let mut board = self.board;
        board[from as usize] = Piece::EMPTY;
        let mut stm = self.side;
        let mut res = 1;
        loop {
            stm = stm.flip();
            let Some(sq) = least_attacker(v, &board, to, stm, &value, floor) else {
                break;
            };
            res ^= 1;
            let p = board[sq as usize];
            if Some(p.kind()) == v.royal_kind {
                // A royal piece may take only if nothing takes it back.
                board[sq as usize] = Piece::EMPTY;
                if least_attacker(v, &board, to, stm.flip(), &value, floor).is_some() {
                    res ^= 1;
                }
                break;
            }
            swap = value(p) - swap;
            if swap < res {
                break;
            }
            board[sq as usize] = Piece::EMPTY;
        }
        res == 1
    }
}

/// The square of `by`'s least valuable piece attacking `sq` on `board`
/// (leapers, riders and pawns of the attack plan), if any. `floor` is the
/// lowest value of any kind: an attacker worth that ends the search.
fn least_attacker(
    v: &Variant,
    board: &[Piece; MAX_SQUARES],
    sq: u8,
    by: Color,
    value: &impl Fn(Piece) -> i32,
    floor: i32,
) -> Option<u8> {
    let mut best = NO_SQ;
    let mut best_value = i32::MAX;
    simple_attackers(v, board, sq, by, |s, p| {
        let pv = value(p);
        if pv < best_value {
            best_value = pv;
            best = s;
        }
        // Nothing is cheaper than the cheapest kind: stop looking.
        pv <= floor
    });
    (best != NO_SQ).then_some(best)
}
