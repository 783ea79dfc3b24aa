//! Perft against the vchess site's own rules code, for each of its games
//! fers plays: the root moves and every perft total of
//! `shared/ref/vchess/cases.json`, copied into `data/<game>.perft` (Baroque
//! in moves, Fanorona in whole turns). The numbers come from the site,
//! never from fers. The FENs are the site's, and `to_fen` gives them back.
//! The default run stops at ~2M leaves per case (all of them today).

use fers_core::{perft, variant, MoveList, Position};

struct Case {
    id: String,
    fen: String,
    root: Vec<String>,
    counts: Vec<u64>,
}

/// The cases of a data file: `id;FEN;root moves;D1;D2;...`.
fn cases(data: &str) -> Vec<Case> {
    data.lines()
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

/// Every case of `data` in the variant `name`: root moves, the FEN given
/// back, perft totals.
fn check(name: &str, data: &str, want_cases: usize) {
    let v = variant::builtin(name).unwrap();
    let cases = cases(data);
    assert_eq!(cases.len(), want_cases, "{name}: every case is there");
    for c in cases {
        let pos = Position::from_fen(v, &c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut got: Vec<String> = list.iter().map(|m| pos.move_to_uci(m)).collect();
        got.sort();
        assert_eq!(got, c.root, "{name} {}", c.id);
        assert_eq!(pos.to_fen(), c.fen, "{name} {}: the site's FEN back", c.id);
        for (i, &want) in c.counts.iter().enumerate() {
            if want > 2_000_000 {
                break;
            }
            let depth = i as u32 + 1;
            assert_eq!(
                perft::perft(&pos, depth),
                want,
                "{name} {} depth {depth}",
                c.id
            );
        }
    }
}

#[test]
fn baroque_matches_the_site() {
    // By its alias: `ultima` is the same built-in variant.
    check("ultima", include_str!("data/baroque.perft"), 7);
}

#[test]
fn fanorona_matches_the_site() {
    check("fanorona", include_str!("data/fanorona.perft"), 2);
}
