//! Perft of a variant from a variant file: `vperft FILE VARIANT DEPTH [FEN]`.
use fers_core::variant_file;
use fers_core::{perft, Position};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("variant file");
    let v = variant_file::load(&args[1], &text, &|_| None)
        .into_iter()
        .find(|s| s.name == args[2])
        .expect("variant in file")
        .result
        .expect("variant loads");
    let depth: u32 = args[3].parse().expect("depth");
    let pos = match args.get(4) {
        Some(f) => Position::from_fen(v, f).expect("FEN"),
        None => Position::startpos(v),
    };
    let t = std::time::Instant::now();
    let n = perft::perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {s:.3}s {:.2} Mnps", n as f64 / s / 1e6);
}
