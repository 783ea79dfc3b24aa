//! Hand-analysed positions for every condition of seed 003
//! (`data/conditions-hand.txt`): each legal move list asserted exactly, as
//! derived by hand from the rule text (the seed, then
//! shared/ref/popeye/NOTES.md), with the positions reached after some moves
//! (rebirths, colour changes, sentinels, ...) and the check rule. Then the
//! combinations: sets that compose, sets `Variant::build` refuses, and a
//! 10x8 Capablanca variant under Circe loaded from a variant file.
//!
//! Data lines: `conditions | FEN | sorted legal moves (or -) | checks...`,
//! the checks being `check`, `nocheck`, `after <moves> => <FEN>` (the moves
//! played in turn, each legal, then the FEN) and `then <moves> : <sorted
//! legal moves or ->` (the legal moves after those moves). `#` starts a
//! comment line: the hand analysis of the next position.

use fers_core::registry::Registry;
use fers_core::{variant, Conditions, MoveList, Position, Variant};
use std::collections::HashMap;

fn chess_with(conditions: &str, cache: &mut HashMap<String, &'static Variant>) -> &'static Variant {
    if let Some(v) = cache.get(conditions) {
        return v;
    }
    let mut spec = variant::chess_spec();
    spec.conditions = conditions.parse::<Conditions>().unwrap();
    spec.name = format!("chess+{conditions}");
    let v = variant::leak(Variant::build(spec).unwrap_or_else(|e| panic!("{conditions}: {e}")));
    cache.insert(conditions.to_string(), v);
    v
}

fn legal(pos: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| pos.move_to_uci(m)).collect();
    out.sort();
    out
}

fn parse_list(text: &str) -> Vec<String> {
    let t = text.trim();
    if t == "-" {
        return Vec::new();
    }
    t.split_whitespace().map(String::from).collect()
}

/// Plays `moves` (each must be legal) from `pos`.
fn play_all(pos: &Position, moves: &str) -> Result<Position, String> {
    let mut p = pos.clone();
    for m in moves.split_whitespace() {
        let mv = p
            .parse_move(m)
            .map_err(|e| format!("{m} not legal in {}: {e:?}", p.to_fen()))?;
        p.play(mv);
    }
    Ok(p)
}

fn compare(what: &str, got: &[String], want: &[String]) -> Option<String> {
    if got == want {
        return None;
    }
    let only_got: Vec<_> = got.iter().filter(|m| !want.contains(m)).collect();
    let only_want: Vec<_> = want.iter().filter(|m| !got.contains(m)).collect();
    Some(format!(
        "{what}: only fers {only_got:?}, only by hand {only_want:?}"
    ))
}

/// One data line; `Err` describes every mismatch.
fn run_line(line: &str, cache: &mut HashMap<String, &'static Variant>) -> Result<(), String> {
    let f: Vec<&str> = line.split(" | ").map(str::trim).collect();
    if f.len() < 3 {
        return Err("fewer than three fields".into());
    }
    let v = chess_with(f[0], cache);
    let pos = Position::from_fen(v, f[1]).map_err(|e| format!("FEN: {e:?}"))?;
    let want = parse_list(f[2]);
    let mut sorted = want.clone();
    sorted.sort();
    if sorted != want {
        return Err("the expected list is not sorted".into());
    }
    let mut errors = Vec::new();
    errors.extend(compare("moves", &legal(&pos), &want));
    for check in &f[3..] {
        if *check == "check" || *check == "nocheck" {
            if pos.in_check() != (*check == "check") {
                errors.push(format!("expected {check}"));
            }
        } else if let Some(rest) = check.strip_prefix("after ") {
            let (moves, fen) = rest.split_once("=>").ok_or("after without =>")?;
            match play_all(&pos, moves) {
                Ok(p) if p.to_fen() != fen.trim() => errors.push(format!(
                    "after {}: {} (by hand {})",
                    moves.trim(),
                    p.to_fen(),
                    fen.trim()
                )),
                Ok(_) => {}
                Err(e) => errors.push(e),
            }
        } else if let Some(rest) = check.strip_prefix("then ") {
            let (moves, list) = rest.split_once(':').ok_or("then without :")?;
            match play_all(&pos, moves) {
                Ok(p) => errors.extend(compare(
                    &format!("after {}", moves.trim()),
                    &legal(&p),
                    &parse_list(list),
                )),
                Err(e) => errors.push(e),
            }
        } else {
            errors.push(format!("unknown check '{check}'"));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

#[test]
fn hand_analysed_positions() {
    let text = include_str!("data/conditions-hand.txt");
    let mut cache = HashMap::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        count += 1;
        if let Err(e) = run_line(line, &mut cache) {
            let cond = line.split(" | ").next().unwrap_or("");
            failures.push(format!("line {} ({cond}): {e}", n + 1));
        }
    }
    assert!(count >= 30, "only {count} positions");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn contradictory_sets_are_refused_with_a_reason() {
    for (set, names) in [
        ("circe anticirce", ["circe", "anticirce"]),
        ("singlebox1 singlebox2", ["singlebox1", "singlebox2"]),
        ("marscirce circe", ["marscirce", "circe"]),
    ] {
        let mut spec = variant::chess_spec();
        spec.conditions = set.parse::<Conditions>().unwrap();
        let err = Variant::build(spec).expect_err(set);
        assert!(
            err.contains("contradict") && names.iter().all(|n| err.contains(n)),
            "{set}: unclear refusal '{err}'"
        );
    }
    // The combinations of the hand-analysed file build.
    for set in [
        "circe madrasi",
        "andernach grid",
        "anchorring kamikaze",
        "chinese circe",
    ] {
        let mut spec = variant::chess_spec();
        spec.conditions = set.parse::<Conditions>().unwrap();
        assert!(Variant::build(spec).is_ok(), "{set}");
    }
}

/// Capablanca chess (10x8, archbishop `a` = BN, chancellor `c` = RN) from
/// a variant file, under Circe: an archbishop is a fairy piece, so it is
/// reborn on the capture file, on its own side's promotion rank (seed 003:
/// "other fairy pieces are reborn on the same file and on the promotion
/// rank of their side"); a chancellor the same; a knight by its home.
#[test]
fn capablanca_circe_from_a_variant_file() {
    let text = "\
[capa-circe:chess]
files = 10
piece.a = betza:BN
piece.c = betza:RN
start = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotion = q r b n a c
castlingKingsideFile = i
castlingQueensideFile = c
conditions = circe
";
    let mut reg = Registry::new();
    let res = reg.load("capa-circe.ini", text);
    assert!(res.iter().all(|r| r.is_ok()), "{res:?}");
    let v = reg.get("capa-circe").expect("loaded");
    assert_eq!(v.geometry.files, 10);
    assert!(v.conditions.has(fers_core::Condition::Circe));
    let start = Position::from_fen(v, &v.start_fen).unwrap();
    assert_eq!(
        legal(&start).len(),
        28,
        "Capablanca start: 20 pawn moves + 8 knight/archbishop/chancellor moves"
    );

    // A black archbishop on e5 taken by the rook e1: reborn on e1, the
    // promotion rank of Black, which the rook has just left. By hand:
    // Re1: e2 e3 e4 e5x, a1-d1, f1-i1 (12); Kj1: i2 j2 (i1 is on the
    // archbishop's diagonal e5-i1).
    let pos = Position::from_fen(v, "k9/10/10/4a5/10/10/10/4R4K w - - 0 1").unwrap();
    let want: Vec<String> = "e1a1 e1b1 e1c1 e1d1 e1e2 e1e3 e1e4 e1e5 e1f1 e1g1 e1h1 e1i1 j1i2 j1j2"
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(legal(&pos), want);
    let after = play_all(&pos, "e1e5").unwrap();
    assert_eq!(after.to_fen(), "k9/10/10/4R5/10/10/10/4a4K b - - 0 1");

    // A white chancellor taken on g4 by a black rook: reborn on g8, the
    // promotion rank of White (empty). With the black king on a8 the
    // reborn chancellor would check it along the eighth rank, so there the
    // capture is illegal; with the king on a7 it stands.
    let pos = Position::from_fen(v, "k9/10/10/10/6C2r/10/10/K9 b - - 0 1").unwrap();
    assert!(!legal(&pos).contains(&"j4g4".to_string()));
    let pos = Position::from_fen(v, "10/k9/10/10/6C2r/10/10/K9 b - - 0 1").unwrap();
    let after = play_all(&pos, "j4g4").unwrap();
    assert_eq!(after.to_fen(), "6C3/k9/10/10/6r3/10/10/K9 w - - 0 2");
}
