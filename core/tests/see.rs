//! Static exchange evaluation on hand-analysed positions (values P 100,
//! N 300, B 300, R 500, Q 900; each expected balance is worked out in the
//! comment next to it).

use fers_core::{variant, Position};

fn values(pos: &Position) -> Vec<i32> {
    pos.variant()
        .pieces
        .iter()
        .map(|p| match p.letter {
            'p' => 100,
            'n' | 'b' => 300,
            'r' => 500,
            'q' => 900,
            _ => 0,
        })
        .collect()
}

/// Asserts that the exchange started by `uci` is worth exactly `value`.
fn assert_see(fen: &str, uci: &str, value: i32) {
    let pos = Position::from_fen(variant::chess(), fen).unwrap();
    assert!(pos.see_exact());
    let m = pos.parse_move(uci).unwrap();
    let vals = values(&pos);
    assert!(pos.see_ge(m, value, &vals), "{fen} {uci}: below {value}");
    assert!(
        !pos.see_ge(m, value + 1, &vals),
        "{fen} {uci}: above {value}"
    );
}

#[test]
fn undefended_pawn() {
    // Re1xe5 wins the pawn: nothing of Black's reaches e5.
    assert_see(
        "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        "e1e5",
        100,
    );
}

#[test]
fn batteries_and_xrays() {
    // Nd3xe5 (+100), Nd7xe5 (-300): White stops there, since going on with
    // Re2 runs into Bf6 with the queen on h8 behind it. Balance -200.
    assert_see(
        "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        "d3e5",
        -200,
    );
}

#[test]
fn the_king_recaptures_only_when_safe() {
    // Qd1xd4 (+100), Ke5xd4 (-900): -800.
    assert_see("8/8/8/4k3/3p4/8/8/3QK3 w - - 0 1", "d1d4", -800);
    // With the rook in front, Rd2xd4: the king may not take, the queen
    // behind the rook guards d4. +100.
    assert_see("8/8/8/4k3/3p4/8/3R4/3QK3 w - - 0 1", "d2d4", 100);
}

#[test]
fn quiet_moves_and_pawn_guards() {
    // Nb1-c3 is quiet and c3 is safe: 0.
    assert_see(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "b1c3",
        0,
    );
    // Qd1-d5 into the pawn on e6: the queen is lost, -900.
    assert_see("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "d1d5", -900);
    // Bc4xf7+ with the king alone defending and the queen on f3 behind:
    // the king may not take, +100.
    assert_see("4k3/5p2/8/8/2B5/5Q2/8/4K3 w - - 0 1", "c4f7", 100);
}

#[test]
fn equal_trades_and_pawn_takes_piece() {
    // Rd1xd5 (+500), Rd8xd5 (-500): 0.
    assert_see("3r2k1/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 0);
    // e4xd5 wins a knight defended by a pawn: +300 - 100 = +200.
    assert_see("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 200);
}
