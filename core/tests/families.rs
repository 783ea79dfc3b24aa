//! Every movement family of seed 000 on hand-analysed positions: the exact
//! destination set on an empty board and on a crowded one (blocked
//! intermediate squares, hurdles of both colours, edges, wrapped edges).
//! Expected sets are derived from the seed's text in the comments; none
//! comes from fers. The variants here have no royal piece, so every move
//! the movement allows is legal. `A` is the piece under test, `W`/`w` are
//! wazirs used as friendly/enemy blockers.

use fers_core::piece::{Movement, PieceDef};
use fers_core::variant::{self, StalemateRule, Variant, VariantSpec};
use fers_core::{MoveList, Position, Topology};

fn variant(movement: &str, topology: Topology) -> &'static Variant {
    let piece = |name: &str, letter, m: &str| PieceDef {
        name: name.into(),
        letter,
        movement: Movement::parse_any(m).unwrap(),
        royal: false,
        value: None,
    };
    let spec = VariantSpec {
        name: format!("test-{movement}"),
        files: 8,
        ranks: 8,
        topology,
        pieces: vec![
            piece("test", 'a', movement),
            piece("wazir", 'w', "leaper(0,1)"),
        ],
        start_fen: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
        promotion: vec![],
        castling: false,
        castling_files: [None, None],
        double_step: false,
        en_passant: false,
        stalemate: StalemateRule::Draw,
        move_rule: 0,
        insufficient_material: false,
        conditions: Default::default(),
        holes: Default::default(),
        capture_promotion: false,
        captures: Default::default(),
        lines: Default::default(),
        chains: false,
        network: None,
    };
    variant::leak(Variant::build(spec).unwrap())
}

/// A FEN with White to move from placements like `("d4", 'A')`.
fn fen(placements: &[(&str, char)]) -> String {
    let mut board = [['.'; 8]; 8];
    for (sq, c) in placements {
        let b = sq.as_bytes();
        board[(b[1] - b'1') as usize][(b[0] - b'a') as usize] = *c;
    }
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for &c in &board[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(c);
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s + " w - - 0 1"
}

/// Destinations of the piece on `from`, sorted.
fn dests(
    movement: &str,
    topology: Topology,
    from: &str,
    placements: &[(&str, char)],
) -> Vec<String> {
    let v = variant(movement, topology);
    let pos = Position::from_fen(v, &fen(placements)).unwrap();
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let mut out: Vec<String> = l
        .iter()
        .map(|m| pos.move_to_uci(m))
        .filter(|m| m.starts_with(from))
        .map(|m| m[2..].to_string())
        .collect();
    out.sort();
    let n = out.len();
    out.dedup();
    assert_eq!(
        n,
        out.len(),
        "{movement}: a destination was generated twice"
    );
    out
}

fn set(squares: &str) -> Vec<String> {
    let mut v: Vec<String> = squares.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

const PLAIN: Topology = Topology::Plain;

#[test]
fn leaper_and_rider_on_plain_and_wrapped_edges() {
    // Zebra (2,3) in the corner: c4, d3 only.
    assert_eq!(
        dests("leaper(2,3)", PLAIN, "a1", &[("a1", 'A')]),
        set("c4 d3")
    );
    // On a vertical cylinder the westward leaps wrap: (-2,3) -> g4, (-3,2) -> f3.
    assert_eq!(
        dests("leaper(2,3)", Topology::VCylinder, "a1", &[("a1", 'A')]),
        set("c4 d3 f3 g4")
    );
    // Nightrider on a horizontal cylinder from a1 (ranks wrap, files do not):
    // (1,2): b3 c5 d7 e1 f3 g5 h7; (2,1): c2 e3 g4; (1,-2): b7 (c5) d3 (e1)
    // f7 (g5) h3; (2,-1): c8 e7 g6 — 17 distinct squares.
    assert_eq!(
        dests("rider(1,2)", Topology::HCylinder, "a1", &[("a1", 'A')]),
        set("b3 c5 d7 e1 f3 g5 h7 c2 e3 g4 b7 d3 f7 h3 c8 e7 g6")
    );
}

#[test]
fn decomposed_leaper() {
    // Mao: one orthogonal step to an empty square, then one diagonal step
    // outwards. In the corner: b3 (via a2), c2 (via b1).
    assert_eq!(dests("mao", PLAIN, "a1", &[("a1", 'A')]), set("b3 c2"));
    // Wrapped files: via a2 also h3; via h1 (a1 stepped west) g2.
    assert_eq!(
        dests("mao", Topology::VCylinder, "a1", &[("a1", 'A')]),
        set("b3 c2 g2 h3")
    );
    // A blocked first square (of either colour) removes both of its moves;
    // the arrival square may hold an enemy (capture) but not a friend.
    // Mao d4, friend d5 (no c6/e6), enemy e4 (no f5/f3), enemy b5 captured,
    // friend c2 not.
    let crowded = [
        ("d4", 'A'),
        ("d5", 'W'),
        ("e4", 'w'),
        ("b5", 'w'),
        ("c2", 'W'),
    ];
    assert_eq!(dests("mao", PLAIN, "d4", &crowded), set("b3 b5 e2"));
}

#[test]
fn double_leaper() {
    // (1,2;1,1) from d4: the 8 knight squares, and from each, if empty, the
    // (1,1) step turned with it: f7 b7 f1 b1 g6 a6 g2 a2 (zebra squares).
    let empty = dests("double-leaper(1,2;1,1)", PLAIN, "d4", &[("d4", 'A')]);
    assert_eq!(
        empty,
        set("b3 b5 c2 c6 e2 e6 f3 f5 f7 b7 f1 b1 g6 a6 g2 a2")
    );
    // A friend on e6 removes e6 and f7; an enemy on b5 is captured but its
    // continuation a6 is lost (the first arrival must be empty to go on).
    let crowded = dests(
        "double-leaper(1,2;1,1)",
        PLAIN,
        "d4",
        &[("d4", 'A'), ("e6", 'W'), ("b5", 'w')],
    );
    assert_eq!(crowded, set("b3 b5 c2 c6 e2 f3 f5 b7 f1 b1 g6 g2 a2"));
}

#[test]
fn leaper_rider_and_decomposed_leaper_rider() {
    // (1,1;0,1): a diagonal leap, then any number of orthogonal leaps
    // outwards (north or east from e5, north or west from c5, ...).
    let all = "e5 c5 e3 c3 e6 e7 e8 f5 g5 h5 c6 c7 c8 b5 a5 e2 e1 f3 g3 h3 c2 c1 b3 a3";
    assert_eq!(
        dests("leaper-rider(1,1;0,1)", PLAIN, "d4", &[("d4", 'A')]),
        set(all)
    );
    // Friend on e5: neither e5 nor the rides from it; enemy on c6: captured,
    // the ride north from c5 ends there.
    let crowded = [("d4", 'A'), ("e5", 'W'), ("c6", 'w')];
    assert_eq!(
        dests("leaper-rider(1,1;0,1)", PLAIN, "d4", &crowded),
        set("c5 e3 c3 c6 b5 a5 e2 e1 f3 g3 h3 c2 c1 b3 a3")
    );
    // Decomposed: the first square is passed over (must be empty), never a
    // destination.
    assert_eq!(
        dests(
            "decomposed-leaper-rider(1,1;0,1)",
            PLAIN,
            "d4",
            &[("d4", 'A')]
        ),
        set("e6 e7 e8 f5 g5 h5 c6 c7 c8 b5 a5 e2 e1 f3 g3 h3 c2 c1 b3 a3")
    );
    // An enemy on the first square blocks too (it must be empty).
    assert_eq!(
        dests(
            "decomposed-leaper-rider(1,1;0,1)",
            PLAIN,
            "d4",
            &[("d4", 'A'), ("e5", 'w'), ("c5", 'W')]
        ),
        set("e2 e1 f3 g3 h3 c2 c1 b3 a3")
    );
}

#[test]
fn decomposed_rider() {
    // Maorider from d4: repeated mao moves in one direction:
    // d5>e6, e7>f8 | d5>c6, c7>b8 | d3>e2 | d3>c2 | e4>f5, g5>h6 | c4>b5 |
    // e4>f3, g3>h2 | c4>b3.
    assert_eq!(
        dests("maorider", PLAIN, "d4", &[("d4", 'A')]),
        set("e6 f8 c6 b8 e2 c2 f5 h6 b5 f3 h2 b3")
    );
    // Friend on d5 blocks both northern lines at their first leg; enemy on
    // f5 is captured and ends that line.
    assert_eq!(
        dests(
            "maorider",
            PLAIN,
            "d4",
            &[("d4", 'A'), ("d5", 'W'), ("f5", 'w')]
        ),
        set("e2 c2 f5 b5 f3 h2 b3")
    );
}

#[test]
fn double_rider() {
    // (1,1;0,1): alternate a diagonal and an orthogonal step, each turned
    // together; every square reached is a destination until one is occupied.
    let all = "e5 e6 f7 f8 f5 g6 h6 c5 c6 b7 b8 b5 a6 e3 e2 f1 f3 g2 h2 c3 c2 b1 b3 a2";
    assert_eq!(
        dests("double-rider(1,1;0,1)", PLAIN, "d4", &[("d4", 'A')]),
        set(all)
    );
    // Enemy on e6: captured, f7 and f8 are lost.
    let crowded = all.replace(" f7 f8", "");
    assert_eq!(
        dests(
            "double-rider(1,1;0,1)",
            PLAIN,
            "d4",
            &[("d4", 'A'), ("e6", 'w')]
        ),
        set(&crowded)
    );
}

#[test]
fn horned_rider() {
    // fers' reading (docs/fairy-pieces.md): the horned rook rides; when it
    // meets a piece it cannot take (a friend), from the last square reached
    // it leaps one step turned 90° left or right, then rides on in the
    // first direction. Horned rook d1, friend d4: d2 d3, turn at d3 to c3
    // or e3, then north c4..c8 / e4..e8; east e1..h1; west a1..c1.
    assert_eq!(
        dests(
            "horned-rider(0,1)",
            PLAIN,
            "d1",
            &[("d1", 'A'), ("d4", 'W')]
        ),
        set("d2 d3 c3 c4 c5 c6 c7 c8 e3 e4 e5 e6 e7 e8 e1 f1 g1 h1 a1 b1 c1")
    );
    // An enemy is simply captured: no turn.
    assert_eq!(
        dests(
            "horned-rider(0,1)",
            PLAIN,
            "d1",
            &[
                ("d1", 'A'),
                ("d4", 'w'),
                ("c1", 'W'),
                ("e1", 'W'),
                ("c2", 'W'),
                ("e2", 'W')
            ]
        ),
        set("d2 d3 d4")
    );
}

#[test]
fn hoppers() {
    // Grasshopper-type (0,1) on a vertical cylinder from a4: east over the
    // hurdle c4 lands on d4; west across the seam h4, over g4, lands on f4.
    assert_eq!(
        dests(
            "hopper(0,1)",
            Topology::VCylinder,
            "a4",
            &[("a4", 'A'), ("c4", 'w'), ("g4", 'W')]
        ),
        set("d4 f4")
    );
    // Without hurdles a hopper has no move.
    assert!(dests("hopper(0,1)+hopper(1,1)", PLAIN, "d4", &[("d4", 'A')]).is_empty());
    // Landing square: empty (move), enemy (capture), friend (nothing).
    let crowded = [
        ("d4", 'A'),
        ("d6", 'W'),
        ("d7", 'w'),
        ("f4", 'w'),
        ("g4", 'W'),
        ("b4", 'W'),
        ("a4", 'W'),
    ];
    assert_eq!(dests("hopper(0,1)", PLAIN, "d4", &crowded), set("d7"));
}

#[test]
fn prolonged_hopper() {
    // (1,1) from d4: NE over the friend e5 to f6, g7 and the enemy h8; NW
    // over the enemy b6 to a7; SE no hurdle; SW over c3 into the friend b2.
    let crowded = [
        ("d4", 'A'),
        ("e5", 'W'),
        ("h8", 'w'),
        ("b6", 'w'),
        ("c3", 'W'),
        ("b2", 'W'),
    ];
    assert_eq!(
        dests("prolonged-hopper(1,1)", PLAIN, "d4", &crowded),
        set("f6 g7 h8 a7")
    );
}

#[test]
fn contra_hopper() {
    // (1,1): the hurdle must be the adjacent square; then a rider move
    // beyond it. Friend e5: f6 and the enemy g7. Enemy c3: b2, a1. c5, e3
    // are empty: nothing that way.
    let crowded = [("d4", 'A'), ("e5", 'W'), ("g7", 'w'), ("c3", 'w')];
    assert_eq!(
        dests("contra-hopper(1,1)", PLAIN, "d4", &crowded),
        set("f6 g7 b2 a1")
    );
}

#[test]
fn equihopper() {
    // (0,1): a leap onto an occupied square (the hurdle), then the same leap
    // again: over the friend d5 onto the enemy d6 (capture), over the enemy
    // e4 to f4; over the friend c4 onto the friend b4: nothing.
    let crowded = [
        ("d4", 'A'),
        ("d5", 'W'),
        ("d6", 'w'),
        ("e4", 'w'),
        ("c4", 'W'),
        ("b4", 'W'),
    ];
    assert_eq!(
        dests("equihopper(0,1)", PLAIN, "d4", &crowded),
        set("d6 f4")
    );
}

#[test]
fn kanghopper() {
    // (0,1): over two hurdles (any gap), landing just beyond the second.
    // North: d6, d7 -> d8. East: f4, h4 -> off the board. South: d2, d1 ->
    // off. West: c4, b4 -> a4 holds an enemy: capture.
    let crowded = [
        ("d4", 'A'),
        ("d6", 'W'),
        ("d7", 'w'),
        ("f4", 'w'),
        ("h4", 'W'),
        ("d2", 'W'),
        ("d1", 'w'),
        ("c4", 'W'),
        ("b4", 'W'),
        ("a4", 'w'),
    ];
    assert_eq!(
        dests("kanghopper(0,1)", PLAIN, "d4", &crowded),
        set("d8 a4")
    );
}

#[test]
fn locuhopper_and_marine() {
    // Locust (0,1) from d4: rides to the first piece; if it is an enemy and
    // the square beyond is empty, it lands there and captures the piece.
    // North: enemy d6, d7 empty -> d7. East: enemy e4 -> f4. South: friend
    // d2: nothing. West: enemy b4 but friend a4 beyond: nothing. No quiet
    // moves at all.
    let crowded = [
        ("d4", 'A'),
        ("d6", 'w'),
        ("e4", 'w'),
        ("d2", 'W'),
        ("b4", 'w'),
        ("a4", 'W'),
    ];
    assert_eq!(
        dests("locuhopper(0,1)", PLAIN, "d4", &crowded),
        set("d7 f4")
    );
    // Playing the capture removes the hurdle, not a piece on the landing square.
    let v = variant("locuhopper(0,1)", PLAIN);
    let mut pos = Position::from_fen(v, &fen(&crowded)).unwrap();
    let m = pos.parse_move("d4d7").unwrap();
    assert!(pos.is_capture(m));
    pos.play(m);
    assert_eq!(
        pos.to_fen(),
        fen(&[
            ("d7", 'A'),
            ("e4", 'w'),
            ("d2", 'W'),
            ("b4", 'w'),
            ("a4", 'W')
        ])
        .replace(" w ", " b ")
    );
    // Nereid = marine(1,1): bishop moves without capturing, locust
    // captures. NE: e5 quiet, enemy f6 with g7 empty -> g7. NW: c5 b6 a7.
    // SE: friend e3. SW: enemy c3 but b2 occupied: nothing.
    let crowded = [
        ("d4", 'A'),
        ("f6", 'w'),
        ("e3", 'W'),
        ("c3", 'w'),
        ("b2", 'w'),
    ];
    assert_eq!(
        dests("nereid", PLAIN, "d4", &crowded),
        set("e5 g7 c5 b6 a7")
    );
}

#[test]
fn chinese() {
    // Pao d4: quiet moves as a rook; captures over exactly one hurdle onto
    // the first piece beyond. North: d5 quiet, hurdle d6, d7 empty, enemy d8
    // captured. East: hurdle e4, f4 empty, friend g4: nothing. South: d3 d2
    // d1. West: c4 quiet, hurdle b4, enemy a4 captured.
    let crowded = [
        ("d4", 'A'),
        ("d6", 'W'),
        ("d8", 'w'),
        ("e4", 'w'),
        ("g4", 'W'),
        ("b4", 'w'),
        ("a4", 'w'),
    ];
    assert_eq!(
        dests("pao", PLAIN, "d4", &crowded),
        set("d5 d8 d3 d2 d1 c4 a4")
    );
}

#[test]
fn complex_families_give_check() {
    // Checks are attacks by the capture rules: a pao through a screen, a
    // locust with an empty square behind the king, a mao with a free leg.
    let spec = |m: &str| {
        let mut s = variant::chess_spec();
        s.name = format!("check-{m}");
        s.pieces.push(PieceDef {
            name: "x".into(),
            letter: 'a',
            movement: Movement::parse_any(m).unwrap(),
            royal: false,
            value: None,
        });
        variant::leak(Variant::build(s).unwrap())
    };
    let in_check = |m: &str, fen: &str| Position::from_fen(spec(m), fen).unwrap().in_check();
    assert!(in_check("pao", "3a4/8/8/3P4/8/8/8/3K3k w - - 0 1"));
    assert!(!in_check("pao", "3a4/8/8/8/8/8/8/3K3k w - - 0 1"));
    assert!(in_check(
        "locuhopper(0,1)",
        "3a3k/8/8/8/3K4/8/8/8 w - - 0 1"
    ));
    assert!(!in_check(
        "locuhopper(0,1)",
        "3a3k/8/8/8/3K4/3P4/8/8 w - - 0 1"
    ));
    assert!(in_check("mao", "7k/8/8/8/8/4a3/8/3K4 w - - 0 1"));
    assert!(!in_check("mao", "7k/8/8/8/8/4a3/4P3/3K4 w - - 0 1"));
    // The mao's check is met by capturing it or by stepping away.
    let pos = Position::from_fen(spec("mao"), "7k/8/8/8/8/4a3/8/3K1N2 w - - 0 1").unwrap();
    assert!(pos.in_check());
    assert!(pos.parse_move("f1e3").is_ok(), "capture the mao");
    assert!(pos.parse_move("d1e1").is_ok(), "step away");
}
