//! The fairy conditions against Popeye's legal move lists
//! (`data/popeye-movelists.txt`, converted from shared/ref/popeye): each
//! depth-1 list exactly, and the depth-2 totals, apart from the places
//! where the seed overrides Popeye (listed in `SEED_OVERRIDES`, with why).

use fers_core::{perft, variant, Conditions, Move, MoveFlag, MoveList, Position, Variant};
use std::collections::BTreeSet;

/// Cases where fers follows the seed and Popeye does not: (condition,
/// position, why).
const SEED_OVERRIDES: &[(&str, &str, &str)] = &[];

fn chess_with(conditions: &str) -> &'static Variant {
    let mut spec = variant::chess_spec();
    spec.conditions = conditions.parse::<Conditions>().unwrap();
    spec.name = format!("chess+{conditions}");
    variant::leak(Variant::build(spec).unwrap())
}

/// The reference's notation of a move: SPEC notation, except that its
/// Mars Circe captures are written from the unit's square to the rebirth
/// square it captures from (so that one with a quiet move of the same
/// squares collapses into it).
fn popeye_notation(pos: &Position, cond: &str, m: Move) -> String {
    let v = pos.variant();
    if cond == "marscirce" && pos.is_capture(m) {
        let p = pos.piece_at(m.from());
        let table = v.rules.rebirth.as_ref().unwrap();
        let r = table.square(p.kind(), p.color(), m.from(), false);
        if r != m.from() {
            let g = v.geometry;
            return format!("{}{}", g.square_name(m.from()), g.square_name(r));
        }
    }
    pos.move_to_uci(m)
}

/// Popeye's Mars Circe generates castling twice (once among the ordinary
/// moves, once among the moves from the rebirth square, where the king
/// stands): its lists show `e1g1` twice and its perft counts each castling
/// twice at every ply. fers generates it once; this counts as Popeye does.
fn popeye_mars_perft2(pos: &Position) -> u64 {
    let weight = |m: Move| {
        if matches!(m.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen) {
            2
        } else {
            1
        }
    };
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut total = 0;
    for m in list.iter() {
        let mut next = pos.clone();
        next.play(m);
        let mut replies = MoveList::new();
        next.legal_moves(&mut replies);
        total += weight(m) * replies.iter().map(&weight).sum::<u64>();
    }
    total
}

#[test]
fn popeye_move_lists() {
    let text = include_str!("data/popeye-movelists.txt");
    let mut failures = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split(" | ").collect();
        let (cond, name, fen, perft2) = (f[0], f[1], f[2], f[3].parse::<u64>().unwrap());
        let want: BTreeSet<String> = f[4].split_whitespace().map(String::from).collect();
        if SEED_OVERRIDES
            .iter()
            .any(|(c, p, _)| *c == cond && *p == name)
        {
            continue;
        }
        let v = if cond == "chess" {
            variant::chess()
        } else {
            chess_with(cond)
        };
        let pos = Position::from_fen(v, fen).unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let got: BTreeSet<String> = list
            .iter()
            .map(|m| popeye_notation(&pos, cond, m))
            .collect();
        if got != want {
            failures.push(format!(
                "{cond} {name}: only fers {:?}, only Popeye {:?}",
                got.difference(&want).collect::<Vec<_>>(),
                want.difference(&got).collect::<Vec<_>>()
            ));
            continue;
        }
        let n = if cond == "marscirce" {
            popeye_mars_perft2(&pos)
        } else {
            perft::perft(&pos, 2)
        };
        if n != perft2 {
            failures.push(format!("{cond} {name}: perft 2 {n}, Popeye {perft2}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_condition_builds_with_its_start_position() {
    for name in variant::builtin_names() {
        let v = variant::builtin(name).unwrap();
        let pos = Position::from_fen(v, &v.start_fen);
        assert!(pos.is_ok(), "{name}: {pos:?}");
    }
}

/// Messigny exchanges of pawns reset the move-rule clock, yet an exchange
/// can be undone: the game must still see a position come back three
/// times (the referee and the search look past the clock's last reset).
/// The cycle is one a self-play game at depth 2 played forever.
#[test]
fn messigny_exchanges_do_not_hide_repetitions() {
    assert!(
        !chess_with("messignyrexexclusiv")
            .caps
            .clock_bounds_repetition
    );
    let v = chess_with("messigny");
    assert!(!v.caps.clock_bounds_repetition);
    let start =
        Position::from_fen(v, "rNb3k1/PPpp2pn/4q3/4q3/1K6/8/pPP5/R1B4Q b - - 2 32").expect("FEN");
    let mut game = fers_core::Game::new(start);
    let cycle = [
        "a2b7s", "c2d7s", "e5d6", "b4c3", "c2d7s", "a2b7s", "d6e5", "c3b4",
    ];
    for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(game.outcome(), None, "over before ply {i}");
        game.play_str(m).expect("legal");
    }
    assert!(
        game.position().halfmove_clock() < 8,
        "the exchanges reset the clock"
    );
    assert_eq!(game.repetitions(), 3);
    assert!(matches!(
        game.outcome(),
        Some(fers_core::Outcome::Draw(fers_core::Termination::Repetition))
    ));
    // Orthodox chess keeps the shortcut.
    assert!(variant::chess().caps.clock_bounds_repetition);
}
