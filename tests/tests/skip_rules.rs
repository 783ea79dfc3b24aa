//! No test passes on a skip under CI: every skip rule of the suite (all in
//! `fers_tests::require`, plus `fsf::engine_or_skip` built on it) is run
//! here with its program hidden, once with `CI` set, where it must fail,
//! and once without, where it must print `SKIPPED:` and pass.
//!
//! Each rule runs in a child process (this test executable again, running
//! only `probe`), because hiding a program means changing the environment,
//! which must not leak into the tests running beside this one.

use std::process::Command;

/// Each rule: its name, the environment variable that hides its program
/// (set to a path that does not exist), and the tests that use it.
const RULES: &[(&str, &str, &str)] = &[
    (
        "fsf::engine_or_skip",
        "FERS_FAIRY_STOCKFISH",
        "tests/tests/fsf_compare.rs",
    ),
    (
        "require::fairy_stockfish",
        "FERS_FAIRY_STOCKFISH",
        "tools/tests/bench_cli.rs, search_bench_cli.rs, match_games.rs, perft_cli.rs",
    ),
    (
        "require::stockfish",
        "FERS_STOCKFISH",
        "tools/tests/search_bench_cli.rs, tune_cli.rs",
    ),
    (
        "require::python_with(chess)",
        "FERS_PYTHON",
        "engine/tests/python_selfplay.rs, tools/tests/match_games.rs, tune_cli.rs",
    ),
    (
        "require::python_with(pyffish)",
        "FERS_PYTHON",
        "tests/tests/pyffish_compare.rs",
    ),
    (
        "require::polyglot",
        "FERS_POLYGLOT",
        "tools/tests/book_polyglot.rs",
    ),
    (
        "require::xboard_gui",
        "FERS_XBOARD",
        "tests/tests/xboard_gui.rs",
    ),
    ("require::fers", "FERS_BIN", "(under searching_fers)"),
    (
        "require::searching_fers",
        "FERS_BIN",
        "tools/tests/search_bench_cli.rs, match_games.rs, match_book.rs",
    ),
];

const HIDDEN: &str = "/nonexistent/fers-skip-rules/program";

/// The child side: runs the rule named by `FERS_SKIP_PROBE` and reports
/// `probe returned` if the rule let the test go on (a skip). Run by
/// `every_skip_rule_fails_under_ci`; without the variable (e.g. in
/// `cargo test -- --ignored`) it does nothing.
#[test]
#[ignore]
fn probe() {
    let Ok(rule) = std::env::var("FERS_SKIP_PROBE") else {
        return;
    };
    let test = "probe";
    let found = match rule.as_str() {
        "fsf::engine_or_skip" => fers_tests::fsf::engine_or_skip(test).is_some(),
        "require::fairy_stockfish" => fers_tests::require::fairy_stockfish(test).is_some(),
        "require::stockfish" => fers_tests::require::stockfish(test).is_some(),
        "require::python_with(chess)" => {
            fers_tests::require::python_with(test, &["chess"], "chess").is_some()
        }
        "require::python_with(pyffish)" => {
            fers_tests::require::python_with(test, &["pyffish"], "pyffish").is_some()
        }
        "require::polyglot" => fers_tests::require::polyglot(test).is_some(),
        "require::xboard_gui" => fers_tests::require::xboard_gui(test).is_some(),
        "require::fers" => fers_tests::require::fers(test).is_some(),
        "require::searching_fers" => fers_tests::require::searching_fers(test).is_some(),
        other => panic!("unknown rule {other}"),
    };
    println!("probe returned, found={found}");
}

/// Runs `rule` in a child with its program hidden; returns (success, output).
fn run_probe(rule: &str, hide: &str, ci: bool, value: &str) -> (bool, String) {
    let mut cmd = Command::new(std::env::current_exe().expect("test executable"));
    cmd.args([
        "probe",
        "--exact",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("FERS_SKIP_PROBE", rule)
    .env(hide, value);
    if ci {
        cmd.env("CI", "true");
    } else {
        cmd.env_remove("CI");
    }
    let out = cmd.output().expect("run the probe");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn every_skip_rule_fails_under_ci() {
    for &(rule, hide, users) in RULES {
        let (ok, text) = run_probe(rule, hide, true, HIDDEN);
        assert!(
            !ok && text.contains("required under CI") && !text.contains("probe returned"),
            "{rule} (used by {users}) did not fail under CI with ${hide} hidden:\n{text}"
        );
        // The same rule outside CI skips: the program really was hidden,
        // and the rule returns so that the test passes.
        let (ok, text) = run_probe(rule, hide, false, HIDDEN);
        assert!(
            ok && text.contains("SKIPPED: ") && text.contains("probe returned, found=false"),
            "{rule} (used by {users}) did not skip outside CI with ${hide} hidden:\n{text}"
        );
    }
}

/// A fers binary that exists but cannot search (`fers bench 1` fails) is
/// not a skip anywhere: it is the program under test.
#[test]
fn a_fers_that_cannot_search_fails_everywhere() {
    let not_fers = if std::path::Path::new("/bin/false").is_file() {
        "/bin/false"
    } else {
        "/usr/bin/false"
    };
    for ci in [true, false] {
        let (ok, text) = run_probe("require::searching_fers", "FERS_BIN", ci, not_fers);
        assert!(
            !ok && text.contains("cannot search") && !text.contains("probe returned"),
            "CI={ci}: a fers whose bench fails was accepted:\n{text}"
        );
    }
}
