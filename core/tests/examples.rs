//! `variants/examples.ini`: every example loads, plays random games with
//! consistent keys and FENs, and gives the same legal moves through both
//! legality paths. Four examples are also built into Fairy-Stockfish, whose
//! numbers they must give: capablanca, embassy and almost (Fairy-Stockfish
//! 11.1, `go perft`) and gardner (pyffish legal moves, depth 3).

use fers_core::variant::{self, Variant};
use fers_core::variant_file;
use fers_core::{perft, MoveList, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const EXAMPLES: &str = include_str!("../../variants/examples.ini");

fn examples() -> Vec<(String, &'static Variant, Variant)> {
    variant_file::load("variants/examples.ini", EXAMPLES, &|_| None)
        .into_iter()
        .map(|s| {
            let v = s.result.unwrap_or_else(|e| panic!("{e}"));
            let mut general = Variant::build(s.spec.expect("spec of a loaded section")).unwrap();
            general.caps.pin_legality = false;
            (s.name, v, general)
        })
        .collect()
}

#[test]
fn all_examples_load() {
    let names: Vec<String> = examples().into_iter().map(|(n, _, _)| n).collect();
    assert!(names.len() >= 12, "{names:?}");
}

#[test]
fn examples_play_consistently() {
    let mut rng = StdRng::seed_from_u64(5);
    for (name, v, general) in examples() {
        let general = variant::leak(general);
        for _ in 0..20 {
            let mut pos = Position::startpos(v);
            for _ in 0..rng.gen_range(0..80) {
                let mut l = MoveList::new();
                pos.legal_moves(&mut l);
                if l.is_empty() {
                    break;
                }
                pos.play(l.get(rng.gen_range(0..l.len())));
                assert_eq!(pos.key(), pos.compute_key(), "{name}: {}", pos.to_fen());
                assert_eq!(
                    pos.pawn_key(),
                    pos.compute_pawn_key(),
                    "{name}: {}",
                    pos.to_fen()
                );
            }
            let fen = pos.to_fen();
            let again =
                Position::from_fen(v, &fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
            assert_eq!(again.to_fen(), fen);
            let other = Position::from_fen(general, &fen).unwrap();
            assert_eq!(
                perft::perft(&pos, 2),
                perft::perft(&other, 2),
                "{name}: {fen}"
            );
        }
    }
}

#[test]
fn examples_known_to_fairy_stockfish() {
    let ex = examples();
    let get = |n: &str| ex.iter().find(|(name, _, _)| name == n).unwrap().1;
    let capa = Position::startpos(get("capablanca"));
    assert_eq!(perft::perft(&capa, 4), 805_128);
    // Fairy-Stockfish 11.1, `go perft` from the start and from a position
    // where both sides may castle both ways.
    let perfts = |name: &str, fen: &str, depth: u32| {
        let v = get(name);
        let pos = if fen.is_empty() {
            Position::startpos(v)
        } else {
            Position::from_fen(v, fen).unwrap()
        };
        (1..=depth)
            .map(|d| perft::perft(&pos, d))
            .collect::<Vec<u64>>()
    };
    assert_eq!(perfts("embassy", "", 4), [28, 784, 25_281, 809_539]);
    let castles = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1";
    assert_eq!(perfts("embassy", castles, 3), [31, 961, 29_210]);
    assert_eq!(perfts("almost", "", 4), [22, 484, 11_895, 290_522]);
    let castles = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    assert_eq!(perfts("almost", castles, 3), [25, 625, 15_206]);
    let gardner = Position::startpos(get("gardner"));
    assert_eq!([1, 2, 3].map(|d| perft::perft(&gardner, d)), [7, 53, 506]);
}
