//! A small Polyglot book written here, read back: lookup, move decoding
//! (castling as king takes rook, promotions), random exits.

use fers_book::polyglot::{self, Book, Entry};
use fers_core::{variant, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::PathBuf;

fn pos(fen: &str) -> Position {
    Position::from_fen(variant::chess(), fen).unwrap()
}

fn after(moves: &[&str]) -> Position {
    let mut p = Position::startpos(variant::chess());
    for m in moves {
        let mv = p.parse_move(m).unwrap();
        p.play(mv);
    }
    p
}

/// Square index of a name (a1 = 0).
fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

fn raw(from: &str, to: &str, promo: Option<char>) -> u16 {
    polyglot::encode_move(sq(from), sq(to), promo)
}

fn entry(p: &Position, mv: u16, weight: u16) -> Entry {
    Entry {
        key: polyglot::key(p).unwrap(),
        mv,
        weight,
        learn: 0,
    }
}

const CASTLE_W: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const CASTLE_B: &str = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
const PROMO: &str = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";

fn write_book(name: &str) -> PathBuf {
    let start = after(&[]);
    let entries = vec![
        entry(&start, raw("e2", "e4", None), 10),
        entry(&start, raw("d2", "d4", None), 5),
        // Weight 0: never chosen by a random exit.
        entry(&start, raw("g1", "f3", None), 0),
        // Not legal here (a key collision, say): skipped.
        entry(&start, raw("e2", "e5", None), 100),
        entry(&after(&["e2e4"]), raw("e7", "e5", None), 1),
        entry(&after(&["e2e4"]), raw("c7", "c5", None), 1),
        entry(&after(&["e2e4", "e7e5"]), raw("g1", "f3", None), 1),
        entry(&pos(CASTLE_W), raw("e1", "h1", None), 1),
        entry(&pos(CASTLE_W), raw("e1", "a1", None), 1),
        entry(&pos(CASTLE_B), raw("e8", "h8", None), 1),
        entry(&pos(CASTLE_B), raw("e8", "a8", None), 1),
        entry(&pos(PROMO), raw("a7", "a8", Some('q')), 3),
        entry(&pos(PROMO), raw("a7", "a8", Some('n')), 1),
    ];
    let book = Book::from_entries(entries);
    let path = std::env::temp_dir().join(format!("fers-book-{name}-{}.bin", std::process::id()));
    std::fs::write(&path, book.to_bytes()).unwrap();
    path
}

fn book_moves(book: &Book, p: &Position) -> Vec<(String, u16)> {
    let mut v: Vec<(String, u16)> = book
        .moves(p)
        .unwrap()
        .into_iter()
        .map(|(m, w)| (p.move_to_uci(m), w))
        .collect();
    v.sort();
    v
}

#[test]
fn read_back_lookup_and_decode() {
    let path = write_book("decode");
    let book = Book::load(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(book.len(), 13);
    let start = after(&[]);
    assert_eq!(book.lookup(polyglot::key(&start).unwrap()).len(), 4);
    assert!(book.lookup(0x1234).is_empty());
    assert_eq!(
        book_moves(&book, &start),
        [("d2d4".into(), 5), ("e2e4".into(), 10), ("g1f3".into(), 0)]
    );
    assert_eq!(
        book_moves(&book, &pos(CASTLE_W)),
        [("e1c1".into(), 1), ("e1g1".into(), 1)]
    );
    assert_eq!(
        book_moves(&book, &pos(CASTLE_B)),
        [("e8c8".into(), 1), ("e8g8".into(), 1)]
    );
    assert_eq!(
        book_moves(&book, &pos(PROMO)),
        [("a7a8n".into(), 1), ("a7a8q".into(), 3)]
    );
    // fers moves back to Polyglot codes: castling as king takes rook.
    let p = pos(CASTLE_W);
    let m = p.parse_move("e1g1").unwrap();
    assert_eq!(polyglot::to_polyglot(&p, m), raw("e1", "h1", None));
    let p = pos(PROMO);
    let m = p.parse_move("a7a8q").unwrap();
    assert_eq!(polyglot::to_polyglot(&p, m), raw("a7", "a8", Some('q')));
}

#[test]
fn random_exits() {
    let path = write_book("exits");
    let book = Book::load(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let v = variant::chess();
    let mut rng = StdRng::seed_from_u64(7);
    let e = book.random_exit(v, 0, &mut rng).unwrap();
    assert!(e.moves.is_empty());
    assert_eq!(e.fen(), Position::startpos(v).to_fen());
    let (mut e4, mut d4) = (0, 0);
    for _ in 0..300 {
        let one = book.random_exit(v, 1, &mut rng).unwrap();
        assert_eq!(one.uci.len(), 1);
        match one.uci[0].as_str() {
            "e2e4" => e4 += 1,
            "d2d4" => d4 += 1,
            other => panic!("unexpected book move {other}"),
        }
        let long = book.random_exit(v, 8, &mut rng).unwrap();
        assert!(long.uci.len() <= 3, "{:?}", long.uci);
        let ok = [
            vec!["d2d4"],
            vec!["e2e4", "c7c5"],
            vec!["e2e4", "e7e5", "g1f3"],
        ];
        assert!(ok.iter().any(|o| *o == long.uci), "{:?}", long.uci);
        // The moves are legal and lead to the exit's position.
        let mut p = Position::startpos(v);
        for m in &long.uci {
            let mv = p.parse_move(m).unwrap();
            p.play(mv);
        }
        assert_eq!(p.to_fen(), long.fen());
        let two = book.random_exit(v, 2, &mut rng).unwrap();
        assert!(two.uci.len() <= 2);
    }
    // Proportional to weight: e4 (10) about twice as often as d4 (5).
    assert!(e4 > 150 && d4 > 60, "e4 {e4}, d4 {d4}");
    // The same seed gives the same exits.
    let a: Vec<_> = (0..5)
        .scan(StdRng::seed_from_u64(3), |r, _| {
            Some(book.random_exit(v, 8, r).unwrap().uci)
        })
        .collect();
    let b: Vec<_> = (0..5)
        .scan(StdRng::seed_from_u64(3), |r, _| {
            Some(book.random_exit(v, 8, r).unwrap().uci)
        })
        .collect();
    assert_eq!(a, b);
}
