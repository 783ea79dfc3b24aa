//! A slow, literal Baroque move generator written straight from the rules
//! (`shared/ref/vchess/NOTES.md`), sharing nothing with fers-core but FEN
//! text: it reads the board from the FEN, generates every move with the
//! board it leaves, and calls a king in check when one of the opponent's
//! own moves would remove it (or a chameleon stands next to it). fers must
//! give the same moves, the same resulting boards and the same check
//! verdicts over random positions and random playouts.

use fers_core::{variant, MoveList, Position};

/// A square's content: (lower-case letter, is white).
type Sq = Option<(char, bool)>;
type Board = [Sq; 64];

const KING_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
}

fn fr(s: usize) -> (i32, i32) {
    ((s % 8) as i32, (s / 8) as i32)
}

fn name(s: usize) -> String {
    let (f, r) = fr(s);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn parse_board(fen: &str) -> Board {
    let mut b = [None; 64];
    let rows: Vec<&str> = fen.split_whitespace().next().unwrap().split('/').collect();
    for (i, row) in rows.iter().enumerate() {
        let r = 7 - i as i32;
        let mut f = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                f += d as i32;
            } else {
                b[at(f, r).unwrap()] = Some((c.to_ascii_lowercase(), c.is_ascii_uppercase()));
                f += 1;
            }
        }
    }
    b
}

fn board_text(b: &Board) -> String {
    let mut s = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            match b[at(f, r).unwrap()] {
                None => empty += 1,
                Some((l, white)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(if white { l.to_ascii_uppercase() } else { l });
                }
            }
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

fn neighbours(s: usize) -> Vec<usize> {
    let (f, r) = fr(s);
    KING_STEPS
        .iter()
        .filter_map(|&(dx, dy)| at(f + dx, r + dy))
        .collect()
}

/// "A piece adjacent to an enemy immobilizer cannot move, unless that
/// immobilizer touches a friendly chameleon or immobilizer other than the
/// piece itself. An immobilizer adjacent to an enemy chameleon is
/// immobilised."
fn frozen(b: &Board, s: usize) -> bool {
    let (kind, white) = b[s].unwrap();
    for n in neighbours(s) {
        match b[n] {
            Some(('m', w)) if w != white => {
                let neutralised = neighbours(n).into_iter().any(|x| {
                    x != s && matches!(b[x], Some((k, w2)) if w2 == white && (k == 'b' || k == 'm'))
                });
                if !neutralised {
                    return true;
                }
            }
            Some(('b', w)) if w != white && kind == 'm' => return true,
            _ => {}
        }
    }
    false
}

fn enemy(b: &Board, s: Option<usize>, white: bool) -> bool {
    matches!(s.and_then(|s| b[s]), Some((_, w)) if w != white)
}

/// One pseudo-legal move: from, to, the squares it captures.
struct Mv {
    from: usize,
    to: usize,
    victims: Vec<usize>,
}

/// Every move of the side `white` (frozen pieces do not move).
fn pseudo(b: &Board, white: bool) -> Vec<Mv> {
    let mut out = Vec::new();
    let king = (0..64).find(|&s| b[s] == Some(('k', white)));
    for from in 0..64 {
        let Some((kind, w)) = b[from] else { continue };
        if w != white || frozen(b, from) {
            continue;
        }
        let (f, r) = fr(from);
        for (i, &(dx, dy)) in KING_STEPS.iter().enumerate() {
            let orthogonal = i.is_multiple_of(2);
            if kind == 'p' && !orthogonal {
                continue;
            }
            if kind == 'k' {
                // The king: one step, onto an empty or an enemy square.
                if let Some(t) = at(f + dx, r + dy) {
                    match b[t] {
                        None => out.push(Mv {
                            from,
                            to: t,
                            victims: vec![],
                        }),
                        Some((_, w2)) if w2 != white => out.push(Mv {
                            from,
                            to: t,
                            victims: vec![t],
                        }),
                        _ => {}
                    }
                }
                continue;
            }
            // Slide over empty squares; leapers and chameleons go on over
            // pieces. `jumped` holds the pieces leapt so far.
            let mut jumped: Vec<usize> = Vec::new();
            let mut n = 1;
            while let Some(t) = at(f + n * dx, r + n * dy) {
                match b[t] {
                    Some((k2, w2)) => {
                        let can_jump = w2 != white
                            && (kind == 'n' || (kind == 'b' && k2 == 'n'))
                            && matches!(at(f + (n + 1) * dx, r + (n + 1) * dy), Some(u) if b[u].is_none());
                        if !can_jump {
                            break;
                        }
                        jumped.push(t);
                    }
                    None => {
                        let mut victims = jumped.clone();
                        captures_on_landing(b, from, t, i, kind, white, king, &mut victims);
                        out.push(Mv {
                            from,
                            to: t,
                            victims,
                        });
                    }
                }
                n += 1;
            }
        }
    }
    out
}

/// The captures a piece of `kind` makes by landing on `to` from `from` in
/// direction `i`, beyond any leaps.
#[allow(clippy::too_many_arguments)]
fn captures_on_landing(
    b: &Board,
    from: usize,
    to: usize,
    i: usize,
    kind: char,
    white: bool,
    king: Option<usize>,
    victims: &mut Vec<usize>,
) {
    let (tf, tr) = fr(to);
    let chameleon = kind == 'b';
    let of_kind = |s: usize, k: char| matches!(b[s], Some((k2, _)) if k2 == k);
    // Pincer: orthogonal neighbour enemy, friendly piece beyond (the mover
    // itself has left `from`).
    if kind == 'p' || (chameleon && i.is_multiple_of(2)) {
        for &(dx, dy) in &[(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let s1 = at(tf + dx, tr + dy);
            let s2 = at(tf + 2 * dx, tr + 2 * dy);
            if let (Some(s1), Some(s2)) = (s1, s2) {
                let friend = s2 != from && matches!(b[s2], Some((_, w)) if w == white);
                if enemy(b, Some(s1), white) && friend && (!chameleon || of_kind(s1, 'p')) {
                    victims.push(s1);
                }
            }
        }
    }
    // Coordinator: the other corners of the rectangle with its king.
    if kind == 'r' || chameleon {
        if let Some(k) = king {
            let (kf, kr) = fr(k);
            if kf != tf && kr != tr {
                for c in [at(tf, kr).unwrap(), at(kf, tr).unwrap()] {
                    if enemy(b, Some(c), white) && (!chameleon || of_kind(c, 'r')) {
                        victims.push(c);
                    }
                }
            }
        }
    }
    // Withdrawer: the enemy next to the start, opposite to the move.
    if kind == 'q' || chameleon {
        let (ff, fr_) = fr(from);
        let (dx, dy) = KING_STEPS[i];
        let s = at(ff - dx, fr_ - dy);
        if enemy(b, s, white) && (!chameleon || of_kind(s.unwrap(), 'q')) {
            victims.push(s.unwrap());
        }
    }
    victims.sort();
    victims.dedup();
}

fn apply(b: &Board, m: &Mv) -> Board {
    let mut n = *b;
    for &v in &m.victims {
        n[v] = None;
    }
    n[m.to] = n[m.from];
    n[m.from] = None;
    n
}

/// Is the king of `white` in check: could a non-frozen enemy capture it by
/// its own rule (a chameleon: by standing next to it)?
fn in_check(b: &Board, white: bool) -> bool {
    let Some(k) = (0..64).find(|&s| b[s] == Some(('k', white))) else {
        return false;
    };
    let chameleon_next = neighbours(k)
        .into_iter()
        .any(|n| b[n] == Some(('b', !white)) && !frozen(b, n));
    chameleon_next || pseudo(b, !white).iter().any(|m| m.victims.contains(&k))
}

/// The legal moves: (move text, board after), sorted.
fn reference_moves(b: &Board, white: bool) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = pseudo(b, white)
        .iter()
        .filter_map(|m| {
            let after = apply(b, m);
            (!in_check(&after, white)).then(|| {
                (
                    format!("{}{}", name(m.from), name(m.to)),
                    board_text(&after),
                )
            })
        })
        .collect();
    out.sort();
    out
}

fn fers_moves(pos: &Position) -> Vec<(String, String)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out: Vec<(String, String)> = list
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m);
            let fen = next.to_fen();
            let board = fen.split_whitespace().next().unwrap().to_string();
            // The move's own victim set agrees with what play removed.
            let removed = pos.occupied(pos.side_to_move().flip()).len()
                - next.occupied(pos.side_to_move().flip()).len();
            assert_eq!(
                pos.captures_of(m).len(),
                removed,
                "{} {}",
                pos.to_fen(),
                pos.move_to_uci(m)
            );
            assert_eq!(pos.is_capture(m), removed > 0);
            (pos.move_to_uci(m), board)
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

/// A random legal position: two kings and `density`% of the other squares
/// filled with random pieces of random colours.
fn random_position(rng: &mut Rng, density: usize) -> Position {
    let v = variant::builtin("baroque").unwrap();
    loop {
        let mut b: Board = [None; 64];
        for s in b.iter_mut() {
            if rng.below(100) < density {
                *s = Some((b"prnbqm"[rng.below(6)] as char, rng.below(2) == 0));
            }
        }
        let wk = rng.below(64);
        let bk = rng.below(64);
        if wk == bk {
            continue;
        }
        b[wk] = Some(('k', true));
        b[bk] = Some(('k', false));
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        if let Ok(p) = Position::from_fen(v, &format!("{} {side} 0", board_text(&b))) {
            return p;
        }
    }
}

/// Compares fers with the reference at `pos`; returns the legal moves.
fn compare(pos: &Position) -> usize {
    let fen = pos.to_fen();
    let b = parse_board(&fen);
    let white = fen.split_whitespace().nth(1) == Some("w");
    assert_eq!(
        pos.in_check(),
        in_check(&b, white),
        "check verdict at {fen}"
    );
    let want = reference_moves(&b, white);
    let got = fers_moves(pos);
    assert_eq!(got, want, "moves at {fen}");
    got.len()
}

/// Random playouts from `start`, comparing at every ply.
fn playouts(rng: &mut Rng, start: &Position, games: usize, plies: usize) -> usize {
    let mut compared = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            let n = compare(&pos);
            compared += 1;
            if n == 0 {
                break;
            }
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let m = list.get(rng.below(list.len()));
            pos.play(m);
        }
    }
    compared
}

#[test]
fn reference_agrees_on_the_start_position_and_playouts() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Position::startpos(variant::builtin("baroque").unwrap());
    let n = playouts(&mut rng, &start, 20, 100);
    assert!(n > 1000, "{n} positions compared");
}

#[test]
fn reference_agrees_on_random_positions() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut n = 0;
    for density in [10, 25, 40] {
        for _ in 0..20 {
            let start = random_position(&mut rng, density);
            n += playouts(&mut rng, &start, 1, 40);
        }
    }
    assert!(n > 1000, "{n} positions compared");
}

#[test]
#[ignore = "long: tens of thousands of positions"]
fn reference_agrees_at_length() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let start = Position::startpos(variant::builtin("baroque").unwrap());
    playouts(&mut rng, &start, 200, 200);
    for density in [5, 15, 30, 50] {
        for _ in 0..200 {
            let s = random_position(&mut rng, density);
            playouts(&mut rng, &s, 1, 60);
        }
    }
}
