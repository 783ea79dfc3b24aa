//! `fers-bench search`: `fers bench` against `fairy-stockfish bench` at small
//! depths (a smoke run: the table and the ratio, not the timing). Skipped
//! with a `SKIPPED:` line while the fers binary is not built next to
//! fers-bench (`cargo test --workspace` builds it) or has no `bench` yet,
//! and when Fairy-Stockfish is missing (outside CI).

use std::path::PathBuf;
use std::process::Command;

fn skip(why: &str) {
    eprintln!("SKIPPED: {why} [fers_bench_search_compares_nps]");
}

#[test]
fn fers_bench_search_compares_nps() {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_fers-bench"));
    let fers = exe.with_file_name("fers");
    if !fers.is_file() {
        return skip("fers binary not built next to fers-bench");
    }
    let fsf = std::env::var_os("FERS_FAIRY_STOCKFISH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/games/fairy-stockfish"));
    if !fsf.is_file() {
        if std::env::var_os("CI").is_some() {
            panic!("fairy-stockfish required under CI");
        }
        return skip("fairy-stockfish not found");
    }
    let out = Command::new(&exe)
        .args(["search", "--depth", "3", "--fsf-depth", "5", "--fsf"])
        .arg(&fsf)
        .output()
        .expect("fers-bench starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("unknown argument 'bench'") {
        return skip("this fers has no bench yet");
    }
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
