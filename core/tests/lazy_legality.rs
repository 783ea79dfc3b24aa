//! The search's candidate moves make the same test as `legal_moves`,
//! wherever they leave moves untested: every move under lazy legality
//! (`Capabilities::lazy_legality`); under pin legality the royal piece's,
//! and out of check with `lazy_pins` all. In random games of every built-in variant (chess,
//! Wormhole, Baroque, Fanorona, each condition) and of the reference fairy
//! variants, the candidates that pass `candidate_legal` once played are
//! exactly the legal moves, the noisy ones exactly the legal captures and
//! promotions, `is_legal` agrees move by move, and `has_legal_candidate`
//! says whether there is a legal move.

use fers_core::variant::{self, builtin_names};
use fers_core::variant_file::{self, Section};
use fers_core::{Move, MoveList, Position, Variant};

const FSF_FILE: &str = include_str!("data/fsf-variants.ini");

fn sorted(pos: &Position, mut moves: Vec<Move>) -> Vec<String> {
    moves.sort_unstable_by_key(|m| pos.move_to_uci(*m));
    moves.iter().map(|m| pos.move_to_uci(*m)).collect()
}

/// The candidates of `list` that pass `candidate_legal` after `play`.
fn passing(pos: &Position, list: &MoveList) -> Vec<Move> {
    list.iter()
        .filter(|&m| {
            let mut next = pos.clone();
            next.play(m);
            pos.candidate_legal(m, &next)
        })
        .collect()
}

/// Checks one position; returns its legal moves.
fn check_position(pos: &Position) -> MoveList {
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    let mut cand = MoveList::new();
    pos.candidate_moves(&mut cand, pos.in_check());
    let fen = pos.to_fen();
    let name = &pos.variant().name;
    let want = sorted(pos, legal.iter().collect());
    assert_eq!(sorted(pos, passing(pos, &cand)), want, "{name} {fen}");
    assert_eq!(
        pos.has_legal_candidate(&cand),
        !legal.is_empty(),
        "{name} {fen}"
    );
    let mut pseudo = MoveList::new();
    pos.pseudo_legal_moves(&mut pseudo);
    for m in pseudo.iter() {
        let uci = pos.move_to_uci(m);
        assert_eq!(pos.is_legal(m), want.contains(&uci), "{name} {fen} {uci}");
    }
    let mut noisy = MoveList::new();
    pos.legal_noisy_moves(&mut noisy);
    let mut cand_noisy = MoveList::new();
    pos.candidate_noisy_moves(&mut cand_noisy, pos.in_check());
    assert_eq!(
        sorted(pos, passing(pos, &cand_noisy)),
        sorted(pos, noisy.iter().collect()),
        "{name} {fen} (noisy)"
    );
    legal
}

fn check_variant(v: &'static Variant, games: usize, seed: &mut u64) -> usize {
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::startpos(v);
        for _ in 0..120 {
            let legal = check_position(&pos);
            checked += 1;
            if legal.is_empty() {
                break;
            }
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            pos.play(legal.get((*seed >> 8) as usize % legal.len()));
        }
    }
    checked
}

#[test]
fn lazy_legality_is_the_legal_move_test() {
    let mut seed = 0x1d87_2b41_9f3c_e561u64;
    let mut n = 0;
    for name in builtin_names() {
        let v = variant::builtin(name).unwrap();
        n += check_variant(v, if v.caps.lazy_legality { 12 } else { 6 }, &mut seed);
    }
    let sections: Vec<Section> = variant_file::load("fsf-variants.ini", FSF_FILE, &|_| None);
    for s in sections {
        n += check_variant(s.result.expect("reference variant loads"), 3, &mut seed);
    }
    assert!(n > 5000, "only {n} positions checked");
}

#[test]
fn the_shortcut_is_chosen_by_pin_legality() {
    assert!(!variant::chess().caps.lazy_legality);
    for name in ["wormhole", "baroque", "circe", "koeko", "madrasi"] {
        let v = variant::builtin(name).unwrap();
        assert!(v.caps.lazy_legality, "{name}");
    }
}

/// Chess, Capablanca chess and a variant of riders and leapers of every
/// shape (pin legality with lazy pins), random games from positions full of
/// pins and checks: the candidates pass exactly where `legal_moves` has them.
#[test]
fn lazy_pins_are_the_legal_move_test() {
    use fers_core::variant_file;
    let file = "[pins:chess]\nfiles = 10\nranks = 10\npiece.a = betza:BN\npiece.c = betza:RN\n\
                piece.z = betza:NNZ\npiece.q = betza:QAD\n\
                start = rnzbqkbczr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNZBQKBCZR w KQkq - 0 1\n\
                promotion = q c z\n";
    let pins = variant_file::load("pins.ini", file, &|_| None)
        .into_iter()
        .next()
        .expect("one section")
        .result
        .expect("the section loads");
    let capablanca = variant_file::load("fsf-variants.ini", FSF_FILE, &|_| None)
        .into_iter()
        .find(|s| s.name == "capablanca")
        .and_then(|s| s.result.ok());
    let mut seed = 0x5eed_0f91_05a7_u64;
    let mut n = 0;
    for v in [variant::chess(), pins].into_iter().chain(capablanca) {
        assert!(v.caps.lazy_pins, "{}", v.name);
        n += check_variant(v, 12, &mut seed);
    }
    // An alfilrider with the bishops: two rider lines through (2,2) from a
    // royal square, so a move there may open either. No lazy pins there.
    let multiples = "[multiples:chess]\npiece.a = betza:AA\n\
                     start = rnbqkbar/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBAR w KQkq - 0 1\n\
                     promotion = q r b a n\n";
    let multiples = variant_file::load("multiples.ini", multiples, &|_| None)
        .into_iter()
        .next()
        .expect("one section")
        .result
        .expect("the section loads");
    assert!(multiples.caps.pin_legality && !multiples.caps.lazy_pins);
    n += check_variant(multiples, 6, &mut seed);
    for fen in [
        // Pins on the rank and a diagonal; the rook on e1 checks.
        "4r2k/8/1b3q2/8/3PPP2/r2PKN1r/3N1B2/2b1r1n1 w - - 0 1",
        // En passant exposing the king along the rank.
        "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
        // Out of check: pins on the file, the rank and both diagonals.
        "k3r3/8/1b5b/8/3PPB2/r2PKN1r/8/8 w - - 0 1",
    ] {
        let pos = Position::from_fen(variant::chess(), fen).unwrap();
        assert_eq!(pos.in_check(), fen.starts_with("4r2k"), "{fen}");
        check_position(&pos);
        n += 1;
    }
    assert!(n > 2000, "only {n} positions checked");
}

#[test]
fn untested_moves_are_tested_when_tried_under_pin_legality() {
    // Stalemate: Black's king has three moves, all into attack. They stay
    // in the search's list untested, and none passes.
    let pos = Position::from_fen(variant::chess(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let mut cand = MoveList::new();
    pos.candidate_moves(&mut cand, false);
    assert_eq!(cand.len(), 3);
    assert!(passing(&pos, &cand).is_empty());
    assert!(!pos.has_legal_candidate(&cand));
    assert!(cand.iter().all(|m| !pos.candidate_is_legal(m)));
    // Out of check nothing is filtered: the pinned rook's moves off the
    // file are listed and fail; in check the list is filtered but for the
    // king's moves.
    let pos = Position::from_fen(variant::chess(), "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1").unwrap();
    let mut cand = MoveList::new();
    pos.candidate_moves(&mut cand, false);
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    assert!(cand.len() > legal.len());
    assert_eq!(passing(&pos, &cand).len(), legal.len());
    let pos = Position::from_fen(variant::chess(), "4r1k1/8/8/8/8/8/3R4/4K3 w - - 0 1").unwrap();
    assert!(pos.in_check());
    pos.candidate_moves(&mut cand, true);
    let king = pos.royal_square(pos.side_to_move()).unwrap();
    assert!(cand
        .iter()
        .filter(|m| m.from() != king)
        .all(|m| pos.candidate_is_legal(m)));
    assert_eq!(cand.iter().filter(|m| m.from() != king).count(), 1); // Rd2-e2
    assert_eq!(passing(&pos, &cand).len(), {
        pos.legal_moves(&mut legal);
        legal.len()
    });
}

/// Lazy pins refine pin legality: a variant whose pin legality is cleared
/// (as the perft suites do for the general path) gets filtered lists, not
/// unfiltered ones that nothing tests.
#[test]
fn lazy_pins_need_pin_legality() {
    let mut v = Variant::build(variant::chess_spec()).unwrap();
    assert!(v.caps.lazy_pins);
    v.caps.pin_legality = false;
    let v = variant::leak(v);
    // The rook on e2 is pinned by the rook on e8.
    let pos = Position::from_fen(v, "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1").unwrap();
    let mut cand = MoveList::new();
    pos.candidate_moves(&mut cand, false);
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    assert_eq!(
        sorted(&pos, cand.iter().collect()),
        sorted(&pos, legal.iter().collect())
    );
}
