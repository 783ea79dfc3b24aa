//! The evaluation of games whose squares vanish (`HoleRules::vanish`,
//! Wormhole). The board shrinks by one square a ply and a side that cannot
//! move loses, so what a piece can still reach matters more than what it
//! is worth on an open board: the score is the material of the variant's
//! tables plus a bonus per move each side has now (by the real,
//! hole-skipping geometry), with the royal piece's own moves counted
//! extra (a king with none is one capture or one hole from losing).

use crate::evaluate::EvalTables;
use fers_core::geometry::NO_SQ;
use fers_core::movegen::targets;
use fers_core::{Color, Position};

/// Centipawns per move of a piece.
const MOVE_BONUS: i32 = 14;
/// Extra centipawns per move of the royal piece.
const ROYAL_MOVE_BONUS: i32 = 20;
/// A royal piece without a move.
const ROYAL_STUCK: i32 = 120;
/// Centipawns per pawn that can still step forward.
const PAWN_STEP: i32 = 8;

/// The score of one side: material plus mobility.
fn side_score(pos: &Position, t: &EvalTables, c: Color) -> i32 {
    let v = t.variant;
    let board = pos.board();
    let mut score = 0;
    for sq in pos.occupied(c).iter() {
        let k = pos.piece_at(sq).kind() as usize;
        if k >= t.n {
            continue;
        }
        score += (t.value[k].0 + t.value[k].1) / 2;
        if Some(k as u8) == v.pawn_kind {
            // A pawn that may still step (over a hole, too): pawns have no
            // component to walk.
            let fwd = v
                .geometry
                .offset(sq, 0, if c == Color::White { 1 } else { -1 });
            if fwd.is_some_and(|s| s != NO_SQ && !pos.piece_at(s).is_piece()) {
                score += PAWN_STEP;
            }
            continue;
        }
        let mut moves = 0;
        for comp in &v.components[k] {
            let mut count = |_: u8, _: u8| {
                moves += 1;
                false
            };
            targets(v, board, sq, c, comp, &mut count);
        }
        score += MOVE_BONUS * moves;
        if Some(k as u8) == v.royal_kind {
            score += ROYAL_MOVE_BONUS * moves;
            if moves == 0 {
                score -= ROYAL_STUCK;
            }
        }
    }
    score
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position, t: &EvalTables) -> i32 {
    let us = pos.side_to_move();
    side_score(pos, t, us) - side_score(pos, t, us.flip()) + t.params.tempo
}

#[cfg(test)]
mod tests {
    use crate::uci::Uci;

    fn session(lines: &[&str]) -> String {
        let mut uci = Uci::new(Vec::new());
        for l in lines {
            uci.handle_line(l).expect("writing to a Vec cannot fail");
        }
        uci.wait_for_search().expect("writing to a Vec cannot fail");
        uci.finish().expect("writing to a Vec cannot fail");
        String::from_utf8(uci.output().clone()).expect("output is UTF-8")
    }

    /// The engine takes the site's FEN, counts its perft as the site does
    /// (ref/vchess/cases.json) and searches it to a legal move.
    #[test]
    fn uci_plays_wormhole_from_a_site_fen() {
        let fen = "cwkxxxwn/ppxppppx/2mxxW2/4x2p/3P1x2/3n1x2/PPPxPPPP/CWxxxNKC b 14";
        let out = session(&[
            "setoption name UCI_Variant value wormhole",
            &format!("position fen {fen}"),
            "go perft 2",
            "go depth 4",
        ]);
        assert!(out.contains("Nodes searched: 796"), "{out}");
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove "));
        let best = best.and_then(|b| b.split_whitespace().next()).expect("a bestmove");
        let v = fers_core::variant::builtin("wormhole").unwrap();
        let pos = fers_core::Position::from_fen(v, fen).unwrap();
        assert!(pos.parse_move(best).is_ok(), "{best} is legal");
    }

    /// A side that cannot move has lost: the search reports no move.
    #[test]
    fn no_move_is_lost() {
        let walled = "x6x/x5x1/x4x2/x3x3/x2x4/x1x5/xx2k3/Kxxxxxxx w 0";
        let out = session(&[
            "setoption name UCI_Variant value wormhole",
            &format!("position fen {walled}"),
            "go depth 3",
        ]);
        assert!(out.ends_with("bestmove (none)\n"), "{out}");
    }
}
