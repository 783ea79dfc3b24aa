//! Perft (and divide) of a position under conditions:
//! `cargo run -p fers-core --example cperft -- "circe madrasi" DEPTH FEN`.
use fers_core::{perft, variant, Conditions, MoveList, Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut spec = variant::chess_spec();
    spec.conditions = args[1].parse::<Conditions>().expect("conditions");
    spec.name = format!("chess+{}", args[1]);
    let v = variant::leak(Variant::build(spec).expect("builds"));
    let depth: u32 = args[2].parse().expect("depth");
    let pos = Position::from_fen(v, &args[3]).expect("fen");
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut total = 0;
    for m in list.iter() {
        let mut next = pos.clone();
        next.play(m);
        let n = if depth > 1 {
            perft::perft(&next, depth - 1)
        } else {
            1
        };
        println!("{}: {}", pos.move_to_uci(m), n);
        total += n;
    }
    println!("total {total}");
}
