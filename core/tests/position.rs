//! Position-level tests of fers-core: FEN round trips and errors, incremental
//! keys, notation, game results, big boards and wrapped boards. Move counts
//! here are derived by hand from the rules (commented), never from fers.

use fers_core::piece::{Movement, PieceDef};
use fers_core::variant::{self, chess_spec, StalemateRule, Variant, VariantSpec};
use fers_core::{perft, Game, MoveList, Outcome, Position, Termination, Topology};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn chess(fen: &str) -> Position {
    Position::from_fen(variant::chess(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn fen_round_trips() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K2R b KQ - 12 40",
    ] {
        assert_eq!(chess(fen).to_fen(), fen);
    }
    // Omitted trailing fields take their defaults.
    assert_eq!(
        chess("4k3/8/8/8/8/8/8/4K3 b").to_fen(),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn bad_fens_are_errors_not_panics() {
    for fen in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", // 7 ranks
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w",   // 9 files
        "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w",   // 7 files
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w",   // unknown letter
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",   // no black king
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x",   // side
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "4k3/8/8/8/8/8/8/4K2r w - - 0 1", // side not to move... is fine
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1", // black (not to move) in check
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "0/8/8/8/8/8/8/8 w",
        "k7/8/8/8/8/8/8/7K w - - 99999999 1",
    ] {
        let r = Position::from_fen(variant::chess(), fen);
        if fen == "4k3/8/8/8/8/8/8/4K2r w - - 0 1" {
            assert!(r.is_ok(), "{fen}: a checked side to move is legal");
        } else {
            assert!(r.is_err(), "{fen} should be refused");
        }
    }
}

#[test]
fn en_passant_squares_are_checked_and_keyed_only_when_takeable() {
    // Impossible squares are refused.
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 b - a4 0 1",     // wrong rank
        "4k3/8/8/8/8/8/8/4K3 b - e3 0 1",     // no pawn on e4
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",   // White to move: the mover was Black
        "4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", // e3 occupied
        "4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1", // e2 occupied: no double step
    ] {
        assert!(Position::from_fen(variant::chess(), fen).is_err(), "{fen}");
    }
    // A possible square is kept (printed back) but keyed only if takeable.
    let untakeable = chess("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    assert_eq!(untakeable.to_fen(), "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    assert_eq!(
        untakeable.key(),
        chess("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").key()
    );
    let takeable = chess("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert_ne!(
        takeable.key(),
        chess("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").key()
    );
    // Reached by moves, the same positions have the same keys.
    let mut g = Game::new(chess("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"));
    g.play_str("e2e4").unwrap();
    assert_eq!(g.position().key(), takeable.key());
    let mut pos = chess("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    pos.play(pos.parse_move("e8d8").unwrap());
    assert_eq!(pos.key(), pos.compute_key());
}

#[test]
fn fen_parser_survives_random_garbage() {
    let mut rng = StdRng::seed_from_u64(7);
    let base = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let alphabet: Vec<char> = "pnbrqkPNBRQKx/0123456789 wb-KQkqa1h8é\u{0}"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let mut s: Vec<char> = base.chars().collect();
        for _ in 0..rng.gen_range(1..6) {
            let i = rng.gen_range(0..s.len());
            match rng.gen_range(0..3) {
                0 => s[i] = alphabet[rng.gen_range(0..alphabet.len())],
                1 => {
                    s.remove(i);
                }
                _ => s.insert(i, alphabet[rng.gen_range(0..alphabet.len())]),
            }
            if s.is_empty() {
                break;
            }
        }
        let text: String = s.into_iter().collect();
        if let Ok(p) = Position::from_fen(variant::chess(), &text) {
            // Whatever parses must be a usable position.
            let mut l = MoveList::new();
            p.legal_moves(&mut l);
            assert_eq!(p.key(), p.compute_key());
            assert_eq!(p.pawn_key(), p.compute_pawn_key());
            let again = Position::from_fen(variant::chess(), &p.to_fen()).unwrap();
            assert_eq!(again.to_fen(), p.to_fen());
        }
    }
}

#[test]
fn incremental_key_equals_recomputed_key_in_random_games() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..200 {
        let mut pos = Position::startpos(variant::chess());
        for _ in 0..120 {
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            if l.is_empty() {
                break;
            }
            let m = l.get(rng.gen_range(0..l.len()));
            pos.play(m);
            assert_eq!(pos.key(), pos.compute_key(), "{}", pos.to_fen());
            assert_eq!(pos.pawn_key(), pos.compute_pawn_key(), "{}", pos.to_fen());
            // And the FEN round trip gives the same key.
            let again = Position::from_fen(variant::chess(), &pos.to_fen()).unwrap();
            assert_eq!(again.key(), pos.key(), "{}", pos.to_fen());
        }
    }
}

#[test]
fn move_notation() {
    let pos = chess("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    for (text, ok) in [
        ("e1g1", true),
        ("e1c1", true),
        ("e5d6", true),
        ("b7b8q", true),
        ("b7a8n", true),
        ("b7b8", false), // a promotion needs its piece
        ("b7b8k", false),
        ("e1e3", false),
        ("e9e1", false),
        ("zz", false),
        ("", false),
        ("e1g1x", false),
    ] {
        let r = pos.parse_move(text);
        assert_eq!(r.is_ok(), ok, "{text}: {r:?}");
        if let Ok(m) = r {
            assert_eq!(pos.move_to_uci(m), text);
        }
    }
    // Upper-case promotion letters are accepted too.
    assert!(pos.parse_move("b7b8Q").is_ok());
}

#[test]
fn castling_rights_follow_king_and_rooks() {
    let mut g = Game::new(chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    g.play_str("a1a8").unwrap(); // takes the a8 rook: both queen-side rights go
    assert_eq!(g.position().to_fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    let mut g = Game::new(chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    g.play_str("a1a7").unwrap(); // the rook leaves a1: White's queen side goes
    g.play_str("e8g8").unwrap();
    assert_eq!(g.position().to_fen(), "r4rk1/R7/8/8/8/8/8/4K2R w K - 2 2");
    // The king's move loses both rights.
    g.play_str("e1e2").unwrap();
    assert_eq!(g.position().to_fen(), "r4rk1/R7/8/8/8/8/4K3/7R b - - 3 2");
}

fn play_all(fen: &str, moves: &[&str]) -> Game {
    let mut g = Game::new(chess(fen));
    for m in moves {
        g.play_str(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

#[test]
fn game_results() {
    let start = &variant::chess().start_fen;
    // Fool's mate.
    let g = play_all(start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(
            fers_core::Color::Black,
            Termination::Checkmate
        ))
    );
    // Stalemate: black king a8, white queen c5-b6, white king c1 (hand-checked).
    let g = play_all("k7/8/8/2Q5/8/8/8/2K5 w - - 0 1", &["c5b6"]);
    assert_eq!(g.outcome(), Some(Outcome::Draw(Termination::Stalemate)));
    // Threefold repetition by knight shuffles.
    let g = play_all(
        start,
        &[
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ],
    );
    assert_eq!(g.outcome(), Some(Outcome::Draw(Termination::Repetition)));
    let g = play_all(start, &["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(g.outcome(), None, "twice is not yet a repetition draw");
    // Fifty-move rule.
    let g = play_all("k7/8/8/8/8/8/8/K6R w - - 99 80", &["h1h2"]);
    assert_eq!(g.outcome(), Some(Outcome::Draw(Termination::MoveRule)));
    // Insufficient material.
    for (fen, dead) in [
        ("k7/8/8/8/8/8/8/K7 w - - 0 1", true),
        ("k7/8/8/8/8/8/8/KN6 w - - 0 1", true),
        ("k7/8/8/8/8/8/8/KB6 w - - 0 1", true),
        ("k1b5/8/8/8/8/8/8/KB6 w - - 0 1", true), // c8 and b1 both light
        ("kb6/8/8/8/8/8/8/KB6 w - - 0 1", false), // b8 dark, b1 light
        ("k7/8/8/8/8/8/8/KNN5 w - - 0 1", false),
        ("k7/8/8/8/8/8/8/KR6 w - - 0 1", false),
        ("k7/p7/8/8/8/8/8/K7 w - - 0 1", false),
    ] {
        let g = Game::new(chess(fen));
        let expected = dead.then_some(Outcome::Draw(Termination::InsufficientMaterial));
        assert_eq!(g.outcome(), expected, "{fen}");
    }
}

/// A variant built from data in the test, like a variant file would.
fn custom(
    name: &str,
    files: u8,
    ranks: u8,
    topo: Topology,
    pieces: &[(&str, char, &str)],
    fen: &str,
) -> &'static Variant {
    let spec = VariantSpec {
        name: name.into(),
        files,
        ranks,
        topology: topo,
        pieces: pieces
            .iter()
            .map(|(n, l, m)| PieceDef {
                name: n.to_string(),
                letter: *l,
                movement: m.parse::<Movement>().unwrap(),
                royal: *n == "king",
                value: None,
            })
            .collect(),
        start_fen: fen.into(),
        promotion: vec![],
        castling: false,
        castling_files: [None, None],
        double_step: false,
        en_passant: false,
        stalemate: StalemateRule::Draw,
        move_rule: 0,
        insufficient_material: false,
        conditions: Default::default(),
        holes: Default::default(),
        capture_promotion: false,
        captures: Default::default(),
        lines: Default::default(),
        chains: false,
        network: None,
    };
    variant::leak(Variant::build(spec).unwrap())
}

#[test]
fn twelve_by_twelve_board() {
    let v = custom(
        "big",
        12,
        12,
        Topology::Plain,
        &[
            ("king", 'k', "leaper(0,1)+leaper(1,1)"),
            ("rook", 'r', "rider(0,1)"),
            ("nightrider", 'n', "rider(1,2)"),
        ],
        "k11/12/12/12/12/12/12/12/12/12/12/1R9K w - - 0 1",
    );
    let pos = Position::startpos(v);
    assert_eq!(
        pos.to_fen(),
        "k11/12/12/12/12/12/12/12/12/12/12/1R9K w - - 0 1"
    );
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    // Rook b1: b2..b12 = 11 up, a1 + c1..k1 = 10 sideways; king l1: 3.
    assert_eq!(l.len(), 24);
    assert!(pos.parse_move("b1b12").is_ok());
    assert!(pos.parse_move("b1b10").is_ok());
    // Nightrider on a 12x12 board from a1: (1,2) rays b3,c5,d7,e9,f11 and
    // (2,1) rays c2,e3,g4,i5,k6 = 10 squares (hand-counted).
    let pos = Position::from_fen(v, "11k/12/12/12/12/12/12/12/12/12/12/N10K w - - 0 1").unwrap();
    pos.legal_moves(&mut l);
    let from_a1 = l.iter().filter(|m| m.from() == 0).count();
    assert_eq!(from_a1, 10);
}

#[test]
fn cylinder_boards_wrap_riders_and_leapers() {
    let pieces = [
        ("king", 'k', "leaper(0,1)+leaper(1,1)"),
        ("rook", 'r', "rider(0,1)"),
        ("knight", 'n', "leaper(1,2)"),
    ];
    // Vertical cylinder: files a and h are adjacent. Rook on d4 alone with
    // kings far away: along rank 4 it sweeps all 7 other squares (it stops
    // before coming back to d4); along the d-file 7 squares: 14.
    let v = custom(
        "vcyl",
        8,
        8,
        Topology::VCylinder,
        &pieces,
        "7k/8/8/8/3R4/8/8/K7 w - - 0 1",
    );
    let pos = Position::startpos(v);
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let rook: Vec<String> = l
        .iter()
        .filter(|m| m.from() == 27)
        .map(|m| pos.move_to_uci(m))
        .collect();
    assert_eq!(rook.len(), 14, "{rook:?}");
    // Knight on a1 of a vertical cylinder: b3, c2 and, across the seam, h3
    // and g2 (a plain board gives only b3, c2).
    let pos = Position::from_fen(v, "7k/8/8/8/8/8/8/N3K3 w - - 0 1").unwrap();
    pos.legal_moves(&mut l);
    let mut knight: Vec<String> = l
        .iter()
        .filter(|m| m.from() == 0)
        .map(|m| pos.move_to_uci(m))
        .collect();
    knight.sort();
    assert_eq!(knight, vec!["a1b3", "a1c2", "a1g2", "a1h3"]);
    // Check across the seam: rook h4 attacks the black king on a4.
    let pos = Position::from_fen(v, "8/8/8/8/k6R/8/8/4K3 b - - 0 1").unwrap();
    assert!(pos.in_check());
    // Torus: the king on a1 has 8 neighbours.
    // A rook checking along both ways round the cylinder is one checker:
    // capturing it is legal (a double check would allow only king moves).
    let pos = Position::from_fen(v, "8/8/8/8/k2R4/8/3r4/4K3 b - - 0 1").unwrap();
    assert!(pos.in_check());
    assert!(pos.parse_move("d2d4").is_ok(), "the rook can be captured");
    assert!(
        pos.parse_move("d2b2").is_err(),
        "one block does not stop the other way round"
    );
    let t = custom(
        "torus",
        8,
        8,
        Topology::Torus,
        &pieces,
        "4k3/8/8/8/8/8/8/K7 w - - 0 1",
    );
    let pos = Position::startpos(t);
    assert_eq!(pos.count_legal(), 8);
}

#[test]
fn general_legality_path_agrees_with_fast_path() {
    // The same chess rules compiled with the fast path switched off.
    // Both switches off: `pin_legality` (pins and check masks) and `simple`
    // (castling judged from the attack plan).
    let mut v = Variant::build(chess_spec()).unwrap();
    v.caps.simple_castling = false;
    v.caps.pin_legality = false;
    let slow = variant::leak(v);
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..60 {
        let mut pos = Position::startpos(variant::chess());
        for _ in 0..rng.gen_range(0..60) {
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            if l.is_empty() {
                break;
            }
            pos.play(l.get(rng.gen_range(0..l.len())));
        }
        let other = Position::from_fen(slow, &pos.to_fen()).unwrap();
        assert_eq!(
            perft::perft(&pos, 2),
            perft::perft(&other, 2),
            "{}",
            pos.to_fen()
        );
    }
}
