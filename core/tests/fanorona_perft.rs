//! Fanorona perft against the vchess site's own rules code: the root moves
//! and every perft total of `shared/ref/vchess/cases.json` (whole turns),
//! copied into `data/fanorona.perft`. The numbers come from the site,
//! never from fers. The FENs are the site's, and `to_fen` gives them back.

use fers_core::{perft, variant, MoveList, Position};

const CASES: &str = include_str!("data/fanorona.perft");

struct Case {
    id: String,
    fen: String,
    root: Vec<String>,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    CASES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            Case {
                id: f[0].into(),
                fen: f[1].into(),
                root: f[2].split_whitespace().map(String::from).collect(),
                counts: f[3..].iter().map(|n| n.parse().unwrap()).collect(),
            }
        })
        .collect()
}

#[test]
fn every_case_is_there() {
    assert_eq!(cases().len(), 2);
}

#[test]
fn root_moves_match_the_site() {
    let v = variant::builtin("fanorona").unwrap();
    for c in cases() {
        let pos = Position::from_fen(v, &c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut got: Vec<String> = list.iter().map(|&m| pos.move_to_uci(m)).collect();
        got.sort();
        assert_eq!(got, c.root, "{}", c.id);
        assert_eq!(pos.to_fen(), c.fen, "{}: the site's FEN back", c.id);
    }
}

#[test]
fn perft_matches_the_site() {
    let v = variant::builtin("fanorona").unwrap();
    for c in cases() {
        let pos = Position::from_fen(v, &c.fen).unwrap();
        for (i, &want) in c.counts.iter().enumerate() {
            if want > 2_000_000 {
                break;
            }
            let depth = i as u32 + 1;
            assert_eq!(perft::perft(&pos, depth), want, "{} depth {depth}", c.id);
        }
    }
}
