//! Runs `bench` (the same as `fers bench`): `cargo run --release --example bench [depth]`.
use std::sync::Arc;
fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(fers_engine::bench::BENCH_DEPTH);
    let out: fers_engine::Reporter = Arc::new(|l| println!("{l}"));
    fers_engine::bench::run(depth, &out);
}
