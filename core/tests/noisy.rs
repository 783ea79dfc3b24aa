//! `legal_noisy_moves` is exactly the captures and promotions of
//! `legal_moves`, in random games of chess and of every reference fairy
//! variant (hoppers, locusts, lame leapers, wrapped boards).

use fers_core::variant_file::{self, Section};
use fers_core::{MoveList, Position, Variant};

const FSF_FILE: &str = include_str!("data/fsf-variants.ini");

fn check_variant(v: &'static Variant, games: usize, seed: &mut u64) -> usize {
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::startpos(v);
        for _ in 0..120 {
            let mut all = MoveList::new();
            pos.legal_moves(&mut all);
            let mut noisy = MoveList::new();
            pos.legal_noisy_moves(&mut noisy);
            let mut want: Vec<fers_core::Move> = all
                .iter()
                .filter(|&m| pos.is_capture(m) || m.promotion().is_some())
                .collect();
            let mut got: Vec<fers_core::Move> = noisy.iter().collect();
            want.sort_unstable_by_key(|m| pos.move_to_uci(*m));
            got.sort_unstable_by_key(|m| pos.move_to_uci(*m));
            assert_eq!(got, want, "{} {}", v.name, pos.to_fen());
            checked += 1;
            if all.is_empty() {
                break;
            }
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            // Prefer captures so that games reach promotions and endings.
            let pick = if !want.is_empty() && *seed & 3 == 0 {
                want[(*seed >> 8) as usize % want.len()]
            } else {
                all.get((*seed >> 8) as usize % all.len())
            };
            pos.play(pick);
        }
    }
    checked
}

#[test]
fn noisy_moves_are_the_captures_and_promotions() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut n = check_variant(fers_core::variant::chess(), 40, &mut seed);
    let sections: Vec<Section> = variant_file::load("fsf-variants.ini", FSF_FILE, &|_| None);
    for s in sections {
        let v = s.result.expect("reference variant loads");
        n += check_variant(v, 6, &mut seed);
    }
    assert!(n > 5000, "only {n} positions checked");
}
