use fers_core::variant_file;
use fers_core::{MoveList, Position};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let secs = variant_file::load(&args[1], &text, &|_| None);
    let v = secs
        .into_iter()
        .find(|s| s.name == args[2])
        .unwrap()
        .result
        .unwrap();
    let pos = Position::from_fen(v, &args[3]).unwrap();
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let mut m: Vec<String> = l
        .iter()
        .map(|m| format!("{}{:?}", pos.move_to_uci(m), m.flag()))
        .collect();
    m.sort();
    println!("{}", m.join(" "));
    println!("{}", variant_file::describe(v));
}
