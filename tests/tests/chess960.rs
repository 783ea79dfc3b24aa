//! Chess960 over UCI (`UCI_Chess960`): the `fers` binary's `go perft`
//! divide against Fairy-Stockfish's, both in Chess960 mode, on Chess960
//! start positions (X-FEN and Shredder-FEN castling fields) and on
//! positions a few seeded random moves later. The root moves must be the
//! same strings (castling as king takes rook, `e1h1`) with the same counts.
//!
//! Without Fairy-Stockfish the test skips (a failure under CI), as every
//! FSF cross-check does (`fsf::engine_or_skip`).

use fers_core::{variant, MoveList, Position};
use fers_tests::engine::fers_binary;
use fers_tests::fsf::{self, Engine};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Chess960 start positions: the orthodox one (No. 518), kings on b and g
/// files (castling that leaves the king or the rook in place), rooks beside
/// the king, and Shredder-FEN letters.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
    "qrkbbnrn/pppppppp/8/8/8/8/PPPPPPPP/QRKBBNRN w GBgb - 0 1",
    "nrbkqrnb/pppppppp/8/8/8/8/PPPPPPPP/NRBKQRNB w KQkq - 0 1",
    "rbbnkqnr/pppppppp/8/8/8/8/PPPPPPPP/RBBNKQNR w AHah - 0 1",
    // Empty back ranks: castling at the root, with the king or the rook
    // staying where it is, or the king crossing the rook's square.
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
    "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    "2r1kr2/8/8/8/8/8/8/2R1KR2 w FCfc - 0 1",
    "2r1kr2/8/8/8/8/8/5q2/2R1KR2 w FCfc - 0 1",
    // Middle-game positions of the Chess960 perft suite.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
];

fn start_engines(test: &str) -> Option<(Engine, Engine)> {
    let mut fsf = fsf::engine_or_skip(test)?;
    let bin = fers_binary().unwrap_or_else(|e| panic!("{test}: {e}"));
    let mut fers = Engine::start(&bin).unwrap_or_else(|e| panic!("{test}: cannot start fers: {e}"));
    for e in [&mut fsf, &mut fers] {
        e.send("setoption name UCI_Chess960 value true")
            .expect("engine input");
        e.sync().expect("engine answers");
    }
    Some((fsf, fers))
}

/// The position after `plies` seeded random legal moves from `fen`.
fn playout(fen: &str, plies: usize, rng: &mut StdRng) -> Position {
    let mut pos = Position::from_fen(variant::chess(), fen).expect("a Chess960 FEN");
    for _ in 0..plies {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list.get(rng.gen_range(0..list.len()));
        pos.play(m);
    }
    pos
}

#[test]
fn chess960_perft_matches_fairy_stockfish() {
    let test = "chess960_perft_matches_fairy_stockfish";
    let Some((mut fsf, mut fers)) = start_engines(test) else {
        return;
    };
    let mut rng = StdRng::seed_from_u64(960);
    let mut cases: Vec<(String, u32)> = STARTS.iter().map(|f| (f.to_string(), 4)).collect();
    for f in STARTS {
        for plies in [4, 8, 12] {
            cases.push((playout(f, plies, &mut rng).to_fen(), 3));
        }
    }
    let mut castles = 0;
    for (fen, depth) in &cases {
        let theirs = fsf.perft(fen, *depth).expect("FSF perft");
        let ours = fers.perft(fen, *depth).expect("fers perft");
        assert_eq!(
            ours.moves, theirs.moves,
            "divide of {fen} at depth {depth} (fers left, FSF right)"
        );
        assert_eq!(ours.total, theirs.total, "{fen}");
        // King takes own rook: a move onto a square of the mover's rook.
        let pos = Position::from_fen(variant::chess(), fen).expect("FEN");
        castles += ours
            .moves
            .keys()
            .filter(|m| {
                let to = pos.variant().geometry.parse_square(&m[2..4]);
                let from = pos.variant().geometry.parse_square(&m[..2]);
                matches!((from, to), (Some(a), Some(b))
                    if pos.piece_at(a).color() == pos.piece_at(b).color()
                        && !pos.piece_at(b).is_empty())
            })
            .count();
    }
    assert!(castles > 0, "no castling move was compared");
    eprintln!(
        "{} Chess960 positions agree, {castles} castling root moves",
        cases.len()
    );
}
