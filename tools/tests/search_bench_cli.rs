//! `fers-bench search`: `fers bench` against `fairy-stockfish bench` at small
//! depths (a smoke run: the table and the ratio, not the timing). The fers
//! binary built next to fers-bench (`cargo test --workspace` builds it) and
//! Fairy-Stockfish are found by `fers_tests::require`: a missing one fails
//! the test under CI and skips it elsewhere; a fers without a working
//! `bench` is a failure everywhere.

use fers_tests::require;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn fers_bench_search_compares_nps() {
    let test = "fers_bench_search_compares_nps";
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_fers-bench"));
    let Some(_) = require::searching_fers(test) else {
        return;
    };
    let Some(fsf) = require::fairy_stockfish(test) else {
        return;
    };
    let out = Command::new(&exe)
        .args(["search", "--depth", "3", "--fsf-depth", "5", "--fsf"])
        .arg(&fsf)
        .output()
        .expect("fers-bench starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("| fers | depth 3 |"), "{stdout}");
    assert!(stdout.contains("| fairy-stockfish | depth 5 |"), "{stdout}");
}

#[test]
fn fers_bench_search_names_a_missing_binary() {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-bench"))
        .args([
            "search",
            "--fers",
            "/nonexistent/fers",
            "--fsf",
            "/bin/true",
        ])
        .output()
        .expect("fers-bench starts");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot start /nonexistent/fers"),
        "{stderr}"
    );
}
