//! A slow, literal Fanorona move generator written straight from the rules
//! (seed 004 and `shared/ref/vchess/NOTES.md`, Fanorona section), sharing
//! nothing with fers-core's rule code: its own board (a 5x9 array of
//! characters), its own lines, its own recursive walk of capture chains.
//! fers is used only to parse FENs, list its moves and play them.
//!
//! For every position compared: the sorted legal move strings must be
//! equal; for every move, the board fers leaves (`play`, then the board
//! field of `to_fen`) must be the reference's, and so must the side to
//! move, the half-move clock, `captures_of` (the victims) and `is_capture`;
//! the move string must parse back to the same move.
//!
//! The rules, as the reference reads them:
//! - points a1..i5; lines are the ranks, the files, and the diagonals
//!   through the points whose file index + rank index is even;
//! - a step goes along a line to the adjacent point, which must be empty;
//! - approach: the consecutive enemy stones on the line beyond the landing
//!   point, in the direction of the step, are removed; withdrawal: those
//!   behind the starting point, away from the step; a step that can do
//!   both gives two moves;
//! - after a capture the same stone may go on capturing, never in the
//!   previous step's direction, never landing on a point it has stood on
//!   this turn (its start included); it may stop after any capture;
//! - a paika (a step that captures nothing) only when no capture exists.

use fers_core::moves::MAX_MOVES;
use fers_core::{variant, MoveList, Position};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most legs of a chain and the most moves of a position compared
/// (printed, to see what the runs cover).
static LONGEST: AtomicUsize = AtomicUsize::new(0);
static MOST_MOVES: AtomicUsize = AtomicUsize::new(0);
/// Positions with more turns than the move list's inline capacity
/// (`MAX_MOVES`; see
/// `every_turn_of_a_position_with_more_than_1024`).
static OVERFLOWS: AtomicUsize = AtomicUsize::new(0);

const FILES: i32 = 9;
const RANKS: i32 = 5;

/// `b[rank][file]`: '.' empty, 'P' White, 'p' Black.
type Board = [[char; 9]; 5];

/// The eight directions of a line.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn name(p: (i32, i32)) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1 + 1)
}

fn on_board(p: (i32, i32)) -> bool {
    (0..FILES).contains(&p.0) && (0..RANKS).contains(&p.1)
}

/// The point one step from `p` along `d` on a line, if there is one: off
/// the board there is none, and a diagonal passes only through even points.
fn step(p: (i32, i32), d: (i32, i32)) -> Option<(i32, i32)> {
    let diagonal = d.0 != 0 && d.1 != 0;
    if diagonal && (p.0 + p.1) % 2 != 0 {
        return None;
    }
    let q = (p.0 + d.0, p.1 + d.1);
    on_board(q).then_some(q)
}

fn get(b: &Board, p: (i32, i32)) -> char {
    b[p.1 as usize][p.0 as usize]
}

fn set(b: &mut Board, p: (i32, i32), c: char) {
    b[p.1 as usize][p.0 as usize] = c;
}

fn enemy_of(c: char) -> char {
    if c == 'P' {
        'p'
    } else {
        'P'
    }
}

/// The consecutive stones of colour `who` from `start` (included) along `d`.
fn line_of(b: &Board, start: Option<(i32, i32)>, d: (i32, i32), who: char) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    let mut s = start;
    while let Some(p) = s {
        if get(b, p) != who {
            break;
        }
        out.push(p);
        s = step(p, d);
    }
    out
}

fn parse_board(fen: &str) -> Board {
    let mut b = [['.'; 9]; 5];
    let rows: Vec<&str> = fen.split_whitespace().next().unwrap().split('/').collect();
    assert_eq!(rows.len(), 5);
    for (i, row) in rows.iter().enumerate() {
        let r = 4 - i;
        let mut f = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                f += d as usize;
            } else {
                assert!(c == 'P' || c == 'p', "{fen}");
                b[r][f] = c;
                f += 1;
            }
        }
        assert_eq!(f, 9, "{fen}");
    }
    b
}

fn board_text(b: &Board) -> String {
    let mut s = String::new();
    for r in (0..5).rev() {
        let mut empty = 0;
        for &c in &b[r] {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(c);
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}

/// A reference move: its text, the board it leaves, its victims' names.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct RefMove {
    text: String,
    board: String,
    victims: Vec<String>,
}

/// Walks every capture chain of the stone now standing on `at`.
#[allow(clippy::too_many_arguments)]
fn walk(
    b: &Board,
    at: (i32, i32),
    me: char,
    visited: &[(i32, i32)],
    last: Option<(i32, i32)>,
    text: &str,
    victims: &[(i32, i32)],
    out: &mut Vec<RefMove>,
) {
    let them = enemy_of(me);
    for d in DIRS {
        if Some(d) == last {
            continue; // not the previous step's direction again
        }
        let Some(to) = step(at, d) else { continue };
        if get(b, to) != '.' || visited.contains(&to) {
            continue;
        }
        let back = (-d.0, -d.1);
        let approach = line_of(b, step(to, d), d, them);
        let withdrawal = line_of(b, step(at, back), back, them);
        for (taken, suffix) in [(approach, 'a'), (withdrawal, 'w')] {
            if taken.is_empty() {
                continue;
            }
            let mut nb = *b;
            set(&mut nb, at, '.');
            set(&mut nb, to, me);
            for &v in &taken {
                set(&mut nb, v, '.');
            }
            let leg = format!("{}{}{}", name(at), name(to), suffix);
            let t = if text.is_empty() {
                leg
            } else {
                format!("{text},{leg}")
            };
            let mut vs = victims.to_vec();
            vs.extend(taken.iter().copied());
            let mut names: Vec<String> = vs.iter().map(|&p| name(p)).collect();
            names.sort();
            out.push(RefMove {
                text: t.clone(),
                board: board_text(&nb),
                victims: names,
            });
            let mut vis = visited.to_vec();
            vis.push(to);
            walk(&nb, to, me, &vis, Some(d), &t, &vs, out);
        }
    }
}

/// Every legal turn of `me` ('P' or 'p'), sorted by text.
fn reference_moves(b: &Board, me: char) -> Vec<RefMove> {
    let mut out = Vec::new();
    for r in 0..RANKS {
        for f in 0..FILES {
            if get(b, (f, r)) == me {
                walk(b, (f, r), me, &[(f, r)], None, "", &[], &mut out);
            }
        }
    }
    if out.is_empty() {
        for r in 0..RANKS {
            for f in 0..FILES {
                if get(b, (f, r)) != me {
                    continue;
                }
                for d in DIRS {
                    if let Some(to) = step((f, r), d) {
                        if get(b, to) == '.' {
                            let mut nb = *b;
                            set(&mut nb, (f, r), '.');
                            set(&mut nb, to, me);
                            out.push(RefMove {
                                text: format!("{}{}", name((f, r)), name(to)),
                                board: board_text(&nb),
                                victims: Vec::new(),
                            });
                        }
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// fers's moves at `pos`, in the reference's form; checks what the
/// reference cannot see (clock, side, parse round trip) on the way.
fn fers_moves(pos: &Position, round_trip: bool) -> Vec<RefMove> {
    let geo = pos.variant().geometry;
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let full = pos.to_full_fen();
    let f: Vec<&str> = full.split(' ').collect();
    let side_after = if f[1] == "w" { "b" } else { "w" };
    let clock: u32 = f[4].parse().unwrap();
    let mut out: Vec<RefMove> = list
        .iter()
        .map(|m| {
            let text = pos.move_to_uci(m);
            let mut after = pos.clone();
            after.play(m);
            let fen = after.to_full_fen();
            let g: Vec<&str> = fen.split(' ').collect();
            let mut victims: Vec<String> = pos
                .captures_of(m)
                .iter()
                .map(|s| geo.square_name(s))
                .collect();
            victims.sort();
            assert_eq!(
                pos.is_capture(m),
                !victims.is_empty(),
                "is_capture at {full}, {text}"
            );
            assert_eq!(g[1], side_after, "side to move after {text} at {full}");
            let want_clock = if victims.is_empty() { clock + 1 } else { 0 };
            assert_eq!(
                g[4].parse::<u32>().unwrap(),
                want_clock,
                "half-move clock after {text} at {full}"
            );
            assert_eq!(
                after.key(),
                after.compute_key(),
                "key after {text} at {full}"
            );
            if round_trip {
                assert_eq!(pos.parse_move(&text), Ok(m), "parse back {text} at {full}");
            }
            RefMove {
                text,
                board: g[0].to_string(),
                victims,
            }
        })
        .collect();
    out.sort();
    out
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random position: each point White with `white`%, Black with
/// `black`% (at most 22 stones a side), a random side to move, in the
/// site's FEN form or fers's full one.
fn random_position(rng: &mut Rng, white: usize, black: usize) -> Position {
    let v = variant::builtin("fanorona").unwrap();
    let mut b: Board = [['.'; 9]; 5];
    let (mut nw, mut nb) = (0, 0);
    let mut points: Vec<(i32, i32)> = (0..45).map(|i| (i % 9, i / 9)).collect();
    // Fill in a random order so that the cap does not favour low ranks.
    for i in (1..points.len()).rev() {
        points.swap(i, rng.below(i + 1));
    }
    for p in points {
        let x = rng.below(100);
        if x < white && nw < 22 {
            set(&mut b, p, 'P');
            nw += 1;
        } else if x >= 100 - black && nb < 22 {
            set(&mut b, p, 'p');
            nb += 1;
        }
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let fen = if rng.below(2) == 0 {
        format!("{} {side} {}", board_text(&b), rng.below(50))
    } else {
        format!(
            "{} {side} - - {} {}",
            board_text(&b),
            rng.below(60),
            1 + rng.below(40)
        )
    };
    let pos = Position::from_fen(v, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(pos.to_fen(), fen, "FEN given back");
    pos
}

/// Compares fers with the reference at `pos`; returns the number of moves.
fn compare(pos: &Position) -> usize {
    compare_at(pos, false)
}

/// Compares fers with the reference at `pos`. Positions with more turns
/// than `MAX_MOVES` (the move list's inline capacity, past which it
/// spills to the heap) are compared like any other and counted.
fn compare_at(pos: &Position, _strict: bool) -> usize {
    let fen = pos.to_fen();
    let b = parse_board(&fen);
    let me = if fen.split_whitespace().nth(1) == Some("w") {
        'P'
    } else {
        'p'
    };
    let want = reference_moves(&b, me);
    if want.len() > MAX_MOVES {
        OVERFLOWS.fetch_add(1, Ordering::Relaxed);
    }
    // Parsing is quadratic in the number of moves: check it on the
    // smaller lists only.
    let got = fers_moves(pos, want.len() <= 60);
    if got != want {
        let missing: Vec<_> = want.iter().filter(|m| !got.contains(m)).take(5).collect();
        let extra: Vec<_> = got.iter().filter(|m| !want.contains(m)).take(5).collect();
        panic!(
            "moves differ at {fen}: fers {} moves, reference {}\n\
             missing in fers (first 5): {missing:#?}\nextra in fers (first 5): {extra:#?}",
            got.len(),
            want.len()
        );
    }
    let legs = got
        .iter()
        .map(|m| m.text.split(',').count())
        .max()
        .unwrap_or(0);
    LONGEST.fetch_max(legs, Ordering::Relaxed);
    MOST_MOVES.fetch_max(got.len(), Ordering::Relaxed);
    got.len()
}

fn report(what: &str, n: usize) {
    println!(
        "{what}: {n} positions compared (so far: longest chain {} legs, most moves {}, \
         {} positions over {MAX_MOVES} turns)",
        LONGEST.load(Ordering::Relaxed),
        MOST_MOVES.load(Ordering::Relaxed),
        OVERFLOWS.load(Ordering::Relaxed)
    );
}

/// Random playouts from `start`, comparing at every ply (`strict`: see
/// `compare_at`); returns the
/// number of positions compared. Moves are picked at random, preferring
/// the longer chains now and then so that long chains are played too.
fn playouts(rng: &mut Rng, start: &Position, games: usize, plies: usize, strict: bool) -> usize {
    let mut compared = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            let n = compare_at(&pos, strict);
            compared += 1;
            if n == 0 {
                break;
            }
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let m = if rng.below(3) == 0 {
                list.iter().max_by_key(|m| (m.leg_count(), m.to())).unwrap()
            } else {
                list.get(rng.below(list.len()))
            };
            pos.play(m);
        }
    }
    compared
}

#[test]
fn reference_agrees_on_the_start_position() {
    let pos = Position::startpos(variant::builtin("fanorona").unwrap());
    let b = parse_board(&pos.to_fen());
    let want: Vec<String> = reference_moves(&b, 'P')
        .into_iter()
        .map(|m| m.text)
        .collect();
    // The reference alone, checked by hand: e3 is the only empty point;
    // d3e3 takes f3 by approach or c3 by withdrawal, e2e3 takes e4-e5,
    // d2e3 (diagonal, d2 even) takes f4-g5, f2e3 takes d4-c5; nothing
    // withdraws from behind d2, e2, f2 (White's own stones on rank 1).
    assert_eq!(want, ["d2e3a", "d3e3a", "d3e3w", "e2e3a", "f2e3a"]);
    assert_eq!(compare(&pos), 5);
}

#[test]
fn reference_agrees_on_playouts_from_the_start() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Position::startpos(variant::builtin("fanorona").unwrap());
    let n = playouts(&mut rng, &start, 150, 150, true);
    report("playouts", n);
    assert!(n > 1000, "{n} positions compared");
}

#[test]
fn reference_agrees_on_random_positions() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut n = 0;
    for (white, black) in [(10, 10), (25, 25), (40, 40), (15, 45), (45, 15), (5, 60)] {
        for _ in 0..150 {
            let start = random_position(&mut rng, white, black);
            n += playouts(&mut rng, &start, 1, 10, true);
        }
    }
    report("random positions", n);
    assert!(n > 1000, "{n} positions compared");
}

#[test]
#[ignore = "long: about a hundred thousand positions"]
fn reference_agrees_at_length() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let start = Position::startpos(variant::builtin("fanorona").unwrap());
    let mut n = playouts(&mut rng, &start, 600, 200, false);
    for (white, black) in [
        (5, 5),
        (10, 10),
        (20, 20),
        (30, 30),
        (45, 45),
        (50, 50),
        (10, 50),
        (50, 10),
        (3, 70),
    ] {
        for _ in 0..1500 {
            let s = random_position(&mut rng, white, black);
            n += playouts(&mut rng, &s, 1, 30, false);
        }
    }
    report("at length", n);
}

/// Climbs towards positions with many legal turns (mutating one point at
/// a time, keeping a change when the reference counts as many turns or
/// more, up to 1000), and compares fers on every position kept: the
/// corner of the rules where chains branch the most.
#[test]
#[ignore = "long: a search for positions with many turns"]
fn reference_agrees_on_positions_with_many_turns() {
    let v = variant::builtin("fanorona").unwrap();
    let mut rng = Rng(0x0BAD_5EED_1234_5678);
    let mut compared = 0;
    for _ in 0..16 {
        let start = random_position(&mut rng, 5, 40);
        let mut b = parse_board(&start.to_fen());
        let me = if rng.below(2) == 0 { 'P' } else { 'p' };
        let side = if me == 'P' { "w" } else { "b" };
        let mut best = reference_moves(&b, me).len();
        for _ in 0..1000 {
            let mut nb = b;
            let p = ((rng.below(9)) as i32, rng.below(5) as i32);
            let c = [me, enemy_of(me), enemy_of(me), '.'][rng.below(4)];
            set(&mut nb, p, c);
            let count = |c: char| nb.iter().flatten().filter(|&&x| x == c).count();
            if count('P') > 22 || count('p') > 22 || count(me) == 0 {
                continue;
            }
            let n = reference_moves(&nb, me).len();
            if n >= best && n <= 1000 {
                if n > best {
                    let pos = Position::from_fen(v, &format!("{} {side} 0", board_text(&nb)));
                    compare(&pos.unwrap());
                    compared += 1;
                }
                b = nb;
                best = n;
            }
        }
    }
    report("many turns", compared);
}

/// A legal position (22 stones or fewer a side) with more turns than the
/// move list's inline capacity (`MAX_MOVES` = 1024), found by the climb
/// above without its cap: White to move has 1263 turns by the reference,
/// and fers must list them all (the list spills to the heap).
#[test]
fn every_turn_of_a_position_with_more_than_1024() {
    let v = variant::builtin("fanorona").unwrap();
    let fen = "p1pPppp1p/pp2p1pP1/p2p2pP1/P1p1pp1pp/pP1Ppp1P1 w 0";
    let b = parse_board(fen);
    assert_eq!(reference_moves(&b, 'P').len(), 1263);
    compare_at(&Position::from_fen(v, fen).unwrap(), true);
}
