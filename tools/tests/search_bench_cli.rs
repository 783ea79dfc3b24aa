//! `fers-bench search` and `fers-bench latency` at small depths and short
//! thinks (smoke runs: the tables, not the timing). The fers binary built
//! next to fers-bench (`cargo test --workspace` builds it), Fairy-Stockfish
//! and Stockfish are found by `fers_tests::require`: a missing one fails
//! the test under CI and skips it (or, for Stockfish, its row) elsewhere; a
//! fers without a working `bench` is a failure everywhere.

use fers_tests::require;
use std::process::Command;

/// The cells of the table row that starts with `| name | ...`.
fn row<'a>(table: &'a str, name: &str) -> Option<Vec<&'a str>> {
    table
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
}

#[test]
fn fers_bench_search_compares_like_for_like() {
    let test = "fers_bench_search_compares_like_for_like";
    let Some(fers) = require::searching_fers(test) else {
        return;
    };
    let Some(fsf) = require::fairy_stockfish(test) else {
        return;
    };
    let stockfish = require::stockfish(test);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fers-bench"));
    cmd.args(["search", "--depth", "3", "--fers"])
        .arg(&fers)
        .arg("--fsf")
        .arg(&fsf);
    if let Some(sf) = &stockfish {
        cmd.arg("--stockfish").arg(sf);
    }
    let out = cmd.output().expect("fers-bench starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let mut engines = vec!["fers", "fairy-stockfish"];
    if stockfish.is_some() {
        engines.push("stockfish");
    }
    for name in engines {
        let cells = row(&stdout, name).unwrap_or_else(|| panic!("no {name} row:\n{stdout}"));
        // engine, depth, nodes, seconds, CPU seconds, nodes/s, four ratios.
        assert_eq!(cells.len(), 10, "{cells:?}");
        assert_eq!(cells[1], "3", "every engine at the same depth: {cells:?}");
        let nodes: u64 = cells[2].parse().expect("nodes");
        assert!(nodes > 16, "at least one node a position: {cells:?}");
        let cpu: f64 = cells[4].parse().expect("CPU seconds");
        assert!(cpu >= 0.0, "{cells:?}");
        for ratio in &cells[6..9] {
            let r: f64 = ratio.parse().expect("ratio");
            assert!(r > 0.0, "{cells:?}");
        }
        if name == "fers" {
            assert_eq!(&cells[6..9], ["1.00", "1.00", "1.00"]);
        }
    }
}

#[test]
fn fers_bench_latency_reports_stop_to_bestmove() {
    let test = "fers_bench_latency_reports_stop_to_bestmove";
    let Some(fers) = require::searching_fers(test) else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_fers-bench"))
        .args(["latency", "--think", "20", "--fers-only", "--fers"])
        .arg(&fers)
        .output()
        .expect("fers-bench starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for threads in ["1", "2"] {
        let cells = stdout
            .lines()
            .find(|l| l.starts_with(&format!("| fers | {threads} |")))
            .map(|l| {
                l.trim_matches('|')
                    .split('|')
                    .map(str::trim)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_else(|| panic!("no fers row with {threads} threads:\n{stdout}"));
        assert_eq!(cells[2], "16", "one stop per bench position: {cells:?}");
        let ms: Vec<f64> = cells[3..].iter().map(|c| c.parse().expect("ms")).collect();
        // min <= median <= max, mean within; all below the driver's timeout.
        assert!(
            ms[0] <= ms[1] && ms[1] <= ms[3] && ms[0] <= ms[2] && ms[2] <= ms[3],
            "{ms:?}"
        );
        assert!(ms[0] > 0.0 && ms[3] < 30_000.0, "{ms:?}");
    }
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
