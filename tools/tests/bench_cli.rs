//! Smoke test of `fers-bench`: a benchmark nobody runs rots, so the default
//! test run makes sure it still starts, agrees with Fairy-Stockfish and
//! prints its table (at quick depths: timing is not the point here).

use std::process::Command;

#[test]
fn fers_bench_perft_quick_runs() {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-bench"))
        .args(["perft", "--quick"])
        .output()
        .expect("fers-bench starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "fers-bench failed:\n{stdout}\n{stderr}"
    );
    for want in [
        "| startpos | fers |",
        "| kiwipete | fers (general path) |",
        "| overall | fers |",
    ] {
        assert!(stdout.contains(want), "no {want:?} in:\n{stdout}");
    }
    // The ratio columns need FSF; without it the bench says so and the
    // table has no FSF rows, which is the skip rule's case (a failure
    // under CI).
    if fers_tests::fsf::find_binary().is_some() {
        assert!(stdout.contains("| overall | fairy-stockfish |"), "{stdout}");
    } else {
        assert!(stderr.contains("fairy-stockfish not found"), "{stderr}");
        assert!(!stdout.contains("fairy-stockfish |"), "{stdout}");
        fers_tests::require::fairy_stockfish("fers_bench_perft_quick_runs");
    }
}

#[test]
fn fers_bench_rejects_a_bad_repeat() {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-bench"))
        .args(["perft", "--repeat", "0"])
        .output()
        .expect("fers-bench starts");
    assert!(!out.status.success());
}
