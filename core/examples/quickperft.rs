use fers_core::{perft, variant, Position};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| variant::chess().start_fen.clone());
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(5);
    let pos = Position::from_fen(variant::chess(), &fen).unwrap();
    let t = std::time::Instant::now();
    let n = perft::perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {:.3}s {:.1} Mnps", s, n as f64 / s / 1e6);
}
