//! Wormhole (seed 002, `ref/vchess/NOTES.md`) proven three ways: the
//! vchess site's move lists and perft totals (`data/vchess-wormhole.txt`,
//! copied from ref/vchess/cases.json), hand-analysed positions for each
//! piece next to holes and edges, and a slow reference generator written
//! straight from the notes, compared with the fast one along random games.

use fers_core::{perft, variant, MoveList, Position, Variant};
use std::collections::BTreeSet;

fn wormhole() -> &'static Variant {
    variant::builtin("wormhole").expect("wormhole is built in")
}

/// One reference case: FEN, legal moves, perft totals by depth.
struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    perft: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/vchess-wormhole.txt");
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "case" => out.push(Case {
                id: rest.split(':').next().unwrap_or("").to_string(),
                fen: String::new(),
                moves: Vec::new(),
                perft: Vec::new(),
            }),
            "fen" => out.last_mut().unwrap().fen = rest.to_string(),
            "moves" => {
                out.last_mut().unwrap().moves = rest.split_whitespace().map(String::from).collect()
            }
            "perft" => {
                let (d, n) = rest.split_once(' ').unwrap();
                let case = out.last_mut().unwrap();
                case.perft.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => {}
        }
    }
    assert!(out.len() >= 2, "the data file has its cases");
    out
}

fn legal_names(pos: &Position) -> BTreeSet<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let names: BTreeSet<String> = list.iter().map(|m| pos.move_to_uci(m)).collect();
    assert_eq!(names.len(), list.len(), "no duplicate moves");
    names
}

/// Perft in release builds runs every depth; debug builds stop at the
/// totals under a million, which still covers depth 4 of the start.
#[test]
fn vchess_move_lists_and_perft() {
    for case in cases() {
        let pos = Position::from_fen(wormhole(), &case.fen)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let want: BTreeSet<String> = case.moves.iter().cloned().collect();
        assert_eq!(legal_names(&pos), want, "{}: legal moves", case.id);
        for &(depth, n) in &case.perft {
            assert_eq!(perft::perft(&pos, depth), n, "{}: perft {depth}", case.id);
        }
    }
}

/// The legal moves starting on `from`.
fn moves_from(pos: &Position, from: &str) -> BTreeSet<String> {
    legal_names(pos)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn set(moves: &str) -> BTreeSet<String> {
    moves.split_whitespace().map(String::from).collect()
}

/// Positions analysed by hand from the notes (each comment says why each
/// move is there): every piece next to holes, edges and pieces.
#[test]
fn hand_analysed_pieces() {
    let cases = [
        // King a1, all three lines to the edge are holes: no move (but b1
        // and b2 exist here).
        ("x6k/x7/x7/x7/x7/x7/x7/K7 w 0", "a1", "a1b1 a1b2"),
        // King a1, holes a2 b2 b1: the nearest existing squares a3 c3 c1.
        ("7k/8/8/8/8/8/xx6/Kx6 w 0", "a1", "a1a3 a1c3 a1c1"),
        // Champion d4, holes d5 d6 e5: north 1 skips to d7, north 2 is d8
        // (own knight: none); NE 2 counts f6, g7 (captures the pawn);
        // the other lines are open: e4 f4, f2, d3 d2, b2, c4 b4, b6.
        (
            "k2N4/6p1/3x4/3xx3/3C4/8/8/7K w 0",
            "d4",
            "d4d7 d4g7 d4e4 d4f4 d4f2 d4d3 d4d2 d4b2 d4c4 d4b4 d4b6",
        ),
        // Wizard d4, holes d5 e5 f6: one diagonal step reaches g7 over two
        // holes, c5, e3, c3; two north counts d6 (a pawn, not a block) and
        // d7, then e8/c8; two east f4 then g5/g3; south d2 then e1/c1; west
        // b4 then a5/a3.
        (
            "7k/8/3p1x2/3xx3/3W4/8/8/K7 w 0",
            "d4",
            "d4g7 d4c5 d4e3 d4c3 d4e8 d4c8 d4g5 d4g3 d4e1 d4c1 d4a5 d4a3",
        ),
        // Lion d4, hole d5: captures one step north on d6 (the nearest
        // existing square) and east on e4, moves two north to d7 and two
        // east to f4; NE one (e5 empty) is no move, NE two is f6; leaps
        // over its own pawn c4 to b4; d2 f2 b2 b6.
        (
            "k7/8/3p4/3x4/2PMp3/8/8/7K w 0",
            "d4",
            "d4d6 d4d7 d4e4 d4f4 d4f6 d4d2 d4f2 d4b2 d4b4 d4b6",
        ),
        // Knight a1, holes a2 c2: north then NE lands a3 then b4; east
        // then NE lands b1 then d3 over the hole c2; the other images
        // leave the board.
        ("7k/8/8/8/8/8/x1x5/N6K w 0", "a1", "a1b4 a1d3"),
        // Pawn b7: captures onto the last rank promote (four pieces), the
        // push to b8 stays a pawn; NE c8 is a hole with the edge beyond.
        (
            "n1x4k/1P3pp1/6x1/7P/6p1/4x3/4P1P1/K7 w 0",
            "b7",
            "b7a8m b7a8c b7a8w b7a8n b7b8",
        ),
        // Pawn e2 over the hole e3: one step lands e4, two steps e5.
        (
            "n1x4k/1P3pp1/6x1/7P/6p1/4x3/4P1P1/K7 w 0",
            "e2",
            "e2e4 e2e5",
        ),
        // Pawn g2: g3, no double step (g4 taken).
        ("n1x4k/1P3pp1/6x1/7P/6p1/4x3/4P1P1/K7 w 0", "g2", "g2g3"),
        // Pawn h5: h6, and the capture over the hole g6 onto f7 (g7 is
        // not the nearest diagonal square).
        (
            "n1x4k/1P3pp1/6x1/7P/6p1/4x3/4P1P1/K7 w 0",
            "h5",
            "h5h6 h5f7",
        ),
    ];
    for (fen, from, want) in cases {
        let pos = Position::from_fen(wormhole(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(moves_from(&pos, from), set(want), "{fen} from {from}");
    }
}

/// A side with no move loses, in check or not; every move leaves a hole,
/// a capture square does not become one; keys stay incremental.
#[test]
fn holes_and_results() {
    let walled = "x6x/x5x1/x4x2/x3x3/x2x4/x1x5/xx2k3/Kxxxxxxx w 0";
    let pos = Position::from_fen(wormhole(), walled).unwrap();
    assert!(!pos.in_check());
    let game = fers_core::Game::new(pos);
    assert_eq!(
        game.outcome(),
        Some(fers_core::Outcome::Win(
            fers_core::Color::Black,
            fers_core::Termination::Stalemate
        ))
    );
    let mut pos = Position::startpos(wormhole());
    for m in ["e2e4", "d7d5", "e4d5"] {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
        assert_eq!(pos.key(), pos.compute_key(), "after {m}");
    }
    // The start FEN is the site's, so the FEN comes back in its form
    // (SPEC 4: `position fen` then `d` prints the same FEN back).
    assert_eq!(
        pos.to_fen(),
        "cnwmkwnc/pppxpppp/8/3P4/4x3/8/PPPPxPPP/CNWMKWNC b 3"
    );
    // The vchess FEN and fers's FEN of a position are one position.
    let a = Position::from_fen(
        wormhole(),
        "cnwmkwnc/pppppppp/8/8/8/8/PPPPPPPP/CNWMKWNC w 0",
    );
    assert_eq!(a.unwrap().key(), Position::startpos(wormhole()).key());
}

/// The slow reference: the notes' rules written out on an 8x8 array of
/// characters (`.` empty, `x` hole, FEN letters), with no fers code but
/// the reading of the board.
mod reference {
    pub type Board = [[char; 8]; 8];

    fn on(f: i32, r: i32) -> bool {
        (0..8).contains(&f) && (0..8).contains(&r)
    }

    /// "A vector (dx,dy) with n = max(|dx|,|dy|) lands on the n-th existing
    /// square along its unit direction; holes are skipped and not counted;
    /// the move is impossible if the edge comes first."
    fn shift(b: &Board, (f, r): (i32, i32), (dx, dy): (i32, i32)) -> Option<(i32, i32)> {
        let n = dx.abs().max(dy.abs());
        let (ux, uy) = (dx.signum(), dy.signum());
        let (mut x, mut y, mut count) = (f, r, 0);
        loop {
            x += ux;
            y += uy;
            if !on(x, y) {
                return None;
            }
            if b[y as usize][x as usize] != 'x' {
                count += 1;
                if count == n {
                    return Some((x, y));
                }
            }
        }
    }

    fn white(c: char) -> bool {
        c.is_ascii_uppercase()
    }

    const ORTH: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    /// Two-part moves: an orthogonal shift (times `k`), then a diagonal
    /// step outward (the same way as the first shift).
    fn two_part(b: &Board, sq: (i32, i32), k: i32) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for (ox, oy) in ORTH {
            let Some(m) = shift(b, sq, (ox * k, oy * k)) else {
                continue;
            };
            for (dx, dy) in DIAG {
                let outward = (ox != 0 && dx == ox) || (oy != 0 && dy == oy);
                if outward {
                    out.extend(shift(b, m, (dx, dy)));
                }
            }
        }
        out
    }

    /// (destination, may move there quietly, may capture there).
    fn reach(b: &Board, sq: (i32, i32)) -> Vec<((i32, i32), bool, bool)> {
        let c = b[sq.1 as usize][sq.0 as usize];
        let all8: Vec<(i32, i32)> = ORTH.iter().chain(DIAG.iter()).copied().collect();
        let mut out = Vec::new();
        let mut add = |v: Vec<(i32, i32)>, quiet: bool, capture: bool| {
            for t in v {
                out.push((t, quiet, capture));
            }
        };
        let shifts = |vs: &[(i32, i32)], k: i32| -> Vec<(i32, i32)> {
            vs.iter()
                .filter_map(|&(x, y)| shift(b, sq, (x * k, y * k)))
                .collect()
        };
        match c.to_ascii_lowercase() {
            // King: one step in each of the 8 directions.
            'k' => add(shifts(&all8, 1), true, true),
            // Champion: 2 in any of the 8 directions, or 1 orthogonally.
            'c' => {
                add(shifts(&all8, 2), true, true);
                add(shifts(&ORTH, 1), true, true);
            }
            // Wizard: two orthogonal then one diagonal, or one diagonal.
            'w' => {
                add(two_part(b, sq, 2), true, true);
                add(shifts(&DIAG, 1), true, true);
            }
            // Lion: 2 in any direction to move or capture, 1 in any
            // direction for captures only.
            'm' => {
                add(shifts(&all8, 2), true, true);
                add(shifts(&all8, 1), false, true);
            }
            // Knight: one orthogonal step, then one outward diagonal step.
            'n' => add(two_part(b, sq, 1), true, true),
            // Pawn captures (pushes are handled in `moves`).
            'p' => {
                let up = if white(c) { 1 } else { -1 };
                add(shifts(&[(1, up), (-1, up)], 1), false, true);
            }
            _ => {}
        }
        out
    }

    fn name((f, r): (i32, i32)) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    /// The pseudo-legal moves of `white`, as (text, board after).
    fn pseudo(b: &Board, white_side: bool) -> Vec<(String, Board)> {
        let mut out = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let c = b[r as usize][f as usize];
                if c == '.' || c == 'x' || white(c) != white_side {
                    continue;
                }
                let from = (f, r);
                // "Every move turns its start square into a hole."
                let mut play = |to: (i32, i32), promo: Option<char>| {
                    let mut nb = *b;
                    nb[r as usize][f as usize] = 'x';
                    let piece = match promo {
                        Some(p) if white_side => p.to_ascii_uppercase(),
                        Some(p) => p,
                        None => c,
                    };
                    nb[to.1 as usize][to.0 as usize] = piece;
                    let suffix = promo.map(String::from).unwrap_or_default();
                    out.push((format!("{}{}{suffix}", name(from), name(to)), nb));
                };
                let last = if white_side { 7 } else { 0 };
                for (to, quiet, capture) in reach(b, from) {
                    let t = b[to.1 as usize][to.0 as usize];
                    let ok = (t == '.' && quiet) || (t != '.' && white(t) != white_side && capture);
                    if !ok {
                        continue;
                    }
                    // "Promotion only by a capture onto the last rank, to
                    // lion, champion, wizard or knight."
                    if c.eq_ignore_ascii_case(&'p') && to.1 == last {
                        for p in ['m', 'c', 'w', 'n'] {
                            play(to, Some(p));
                        }
                    } else {
                        play(to, None);
                    }
                }
                if c.eq_ignore_ascii_case(&'p') {
                    // "One step (to the next existing square); a double
                    // step only from the 2nd (7th) rank with both squares
                    // ahead empty." A push to the last rank stays a pawn.
                    let up = if white_side { 1 } else { -1 };
                    let empty = |s: (i32, i32)| b[s.1 as usize][s.0 as usize] == '.';
                    if let Some(one) = shift(b, from, (0, up)).filter(|&s| empty(s)) {
                        play(one, None);
                        let home = if white_side { 1 } else { 6 };
                        if r == home {
                            if let Some(two) = shift(b, one, (0, up)).filter(|&s| empty(s)) {
                                play(two, None);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Can the side `white_side` capture the other side's king?
    fn can_take_king(b: &Board, white_side: bool) -> bool {
        let king = if white_side { 'k' } else { 'K' };
        pseudo(b, white_side)
            .iter()
            .any(|(_, nb)| !nb.iter().flatten().any(|&c| c == king))
    }

    /// The legal moves: those after which the opponent cannot capture the
    /// mover's king.
    pub fn legal(b: &Board, white_side: bool) -> Vec<(String, Board)> {
        pseudo(b, white_side)
            .into_iter()
            .filter(|(_, nb)| !can_take_king(nb, !white_side))
            .collect()
    }
}

/// The board as the reference reads it.
fn ref_board(pos: &Position) -> reference::Board {
    let v = pos.variant();
    let mut b = [['.'; 8]; 8];
    for (r, row) in b.iter_mut().enumerate() {
        for (f, cell) in row.iter_mut().enumerate() {
            let p = pos.piece_at(v.geometry.square(f as u8, r as u8));
            *cell = if p == fers_core::Piece::HOLE {
                'x'
            } else if p.is_piece() {
                v.letter(p.kind(), p.color())
            } else {
                '.'
            };
        }
    }
    b
}

/// Random games from the start: at every position the fast generator's
/// legal moves equal the reference's, and each move leaves the board the
/// reference says.
#[test]
fn fast_generator_equals_reference_along_random_games() {
    let games = if cfg!(debug_assertions) { 150 } else { 1500 };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut positions = 0;
    for g in 0..games {
        let mut pos = Position::startpos(wormhole());
        loop {
            let white = pos.side_to_move() == fers_core::Color::White;
            let want = reference::legal(&ref_board(&pos), white);
            let names: BTreeSet<String> = want.iter().map(|(m, _)| m.clone()).collect();
            assert_eq!(legal_names(&pos), names, "game {g}: {}", pos.to_fen());
            positions += 1;
            if want.is_empty() {
                break;
            }
            let (m, after) = &want[(next() % want.len() as u64) as usize];
            let mv = pos.parse_move(m).unwrap();
            pos.play(mv);
            assert_eq!(ref_board(&pos), *after, "game {g}: after {m}");
            assert_eq!(pos.key(), pos.compute_key());
        }
    }
    eprintln!("{positions} positions from {games} random games");
    assert!(positions > 20 * games, "{positions} positions");
}

/// The hole rules are variant data: any variant may vanish squares, and
/// hole-skipping is refused for families it is not defined for.
#[test]
fn hole_rules_are_general() {
    let mut spec = variant::chess_spec();
    spec.name = "chess-skip".into();
    spec.holes.skip = true;
    let err = Variant::build(spec).unwrap_err();
    assert!(err.contains("hole-skipping"), "{err}");

    let mut spec = variant::chess_spec();
    spec.name = "chess-vanish".into();
    spec.holes.vanish = true;
    let v = variant::leak(Variant::build(spec).unwrap());
    assert!(!v.caps.pin_legality && v.caps.board_copy_legality && !v.caps.exact_see);
    let mut pos = Position::startpos(v);
    pos.play(pos.parse_move("g1f3").unwrap());
    pos.play(pos.parse_move("g8f6").unwrap());
    // g1 is a hole now: neither the rook nor the knight can go back.
    let names = legal_names(&pos);
    assert!(
        !names.contains("h1g1") && !names.contains("f3g1"),
        "{names:?}"
    );
    assert!(pos
        .to_fen()
        .starts_with("rnbqkbxr/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKBxR w"));

    let w = wormhole();
    assert!(!w.caps.pin_legality && w.caps.board_copy_legality);
    assert!(!w.caps.exact_see && !w.caps.check_filter && !w.caps.null_move);
}
