//! Full games fers vs fers driven by python-chess (`tests/py/selfplay.py`).
//!
//! Skips (passing, with a message on stderr) when python3 or the `chess`
//! module is missing; CI installs both (`pip install chess`).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn python_with_chess() -> Option<&'static str> {
    for py in ["python3", "python"] {
        let ok = Command::new(py)
            .args(["-c", "import chess, chess.engine"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if ok {
            return Some(py);
        }
    }
    None
}

/// Does the binary speak UCI with a search (Threads option)?
fn speaks_uci(bin: &str) -> bool {
    let Ok(mut child) = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"uci\nquit\n");
    }
    let Ok(out) = child.wait_with_output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    text.contains("uciok") && text.contains("option name Threads")
}

#[test]
fn selfplay_through_python_chess() {
    let Some(py) = python_with_chess() else {
        eprintln!("SKIPPED selfplay_through_python_chess: python3 with python-chess not found (pip install chess)");
        return;
    };
    let bin = env!("CARGO_BIN_EXE_fers");
    if !speaks_uci(bin) {
        eprintln!("SKIPPED selfplay_through_python_chess: {bin} does not offer UCI search yet");
        return;
    }
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
