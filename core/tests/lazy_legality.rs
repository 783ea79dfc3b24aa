//! The search's lazy legality (`Capabilities::lazy_legality`), and under
//! pin legality its untested royal moves (`Position::royal_move_deferred`),
//! make the same test as `legal_moves`: in random games of every built-in variant (chess,
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
    pos.candidate_moves(&mut cand);
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
    pos.candidate_noisy_moves(&mut cand_noisy);
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

#[test]
fn royal_moves_are_tested_when_tried_under_pin_legality() {
    // Stalemate: Black's king has three moves, all into attack. They stay
    // in the search's list untested, and none passes.
    let pos = Position::from_fen(variant::chess(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let mut cand = MoveList::new();
    pos.candidate_moves(&mut cand);
    assert_eq!(cand.len(), 3);
    assert!(cand.iter().all(|m| pos.royal_move_deferred(m)));
    assert!(passing(&pos, &cand).is_empty());
    assert!(!pos.has_legal_candidate(&cand));
    assert!(cand.iter().all(|m| !pos.candidate_is_legal(m)));
    // The other pieces' moves and castling are filtered as before.
    let pos = Position::from_fen(variant::chess(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let mut cand = MoveList::new();
    pos.candidate_moves(&mut cand);
    for m in cand.iter() {
        let uci = pos.move_to_uci(m);
        let king_step = m.from() == pos.royal_square(pos.side_to_move()).unwrap()
            && !matches!(uci.as_str(), "e1g1" | "e1c1");
        assert_eq!(pos.royal_move_deferred(m), king_step, "{uci}");
    }
}
