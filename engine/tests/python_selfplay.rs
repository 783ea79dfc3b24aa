//! Full games fers vs fers driven by python-chess: both over UCI
//! (`tests/py/selfplay.py`), and one over XBoard/CECP against one over UCI
//! (`tests/py/xboard_game.py`).
//!
//! Needs python3 with python-chess: without it the skip rule of
//! `fers_tests::require` applies (a failure under CI, where `.ci/run`
//! installs it, and `SKIPPED:` elsewhere). The engine is the `fers` binary
//! of this package, which must speak UCI with a search (`Threads` option):
//! anything else is a failure, not a skip.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The engine's answer to `uci`.
fn uci_answer(bin: &str) -> String {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"uci\nquit\n");
    }
    let out = child.wait_with_output().expect("engine output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn selfplay_through_python_chess() {
    let test = "selfplay_through_python_chess";
    let Some(py) = fers_tests::require::python_with(test, &["chess", "chess.engine"], "chess")
    else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_fers");
    let uci = uci_answer(bin);
    assert!(
        uci.contains("uciok") && uci.contains("option name Threads"),
        "{bin} does not speak UCI with a search:\n{uci}"
    );
    let script: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "tests",
        "py",
        "selfplay.py",
    ]
    .iter()
    .collect();
    let out = Command::new(py)
        .arg(&script)
        .arg(bin)
        .arg("4")
        .arg("1+0.02")
        .output()
        .expect("run selfplay.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "selfplay.py failed (status {:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
}

/// python-chess's XBoard client (`popen_xboard`) plays full games with fers
/// against fers over UCI: no illegal move, no rejected feature, no error.
#[test]
fn xboard_games_through_python_chess() {
    let test = "xboard_games_through_python_chess";
    let Some(py) = fers_tests::require::python_with(test, &["chess", "chess.engine"], "chess")
    else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_fers");
    let script: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "tests",
        "py",
        "xboard_game.py",
    ]
    .iter()
    .collect();
    let out = Command::new(py)
        .arg(&script)
        .arg(bin)
        .arg("2")
        .arg("2+0.05")
        .output()
        .expect("run xboard_game.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success() && stdout.contains("\nOK"),
        "xboard_game.py failed (status {:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
}
