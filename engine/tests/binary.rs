//! The `fers` binary starts, speaks UCI and exits cleanly.
//!
//! This integration test also has a second job: Cargo builds a package's
//! binaries only for its integration tests, so this file is what makes
//! `cargo test --workspace` build `target/<profile>/fers`, which the
//! end-to-end tests of the `fers-tests` crate (tests/tests/uci.rs) run.
//! Without any integration test here, that binary would not be built.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn binary_answers_uci_and_quits() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fers"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fers binary starts");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(b"uci\nisready\nquit\n")
        .expect("write commands");
    // The engine exits on `quit`, so waiting cannot hang on a working build.
    let out = child.wait_with_output().expect("fers runs to the end");
    assert!(out.status.success(), "exit status {:?}", out.status);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.first().is_some_and(|l| l.starts_with("id name fers")),
        "{text}"
    );
    assert!(lines.contains(&"uciok"), "{text}");
    assert_eq!(lines.last(), Some(&"readyok"), "{text}");
}

#[test]
fn unknown_argument_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_fers"))
        .arg("--no-such-flag")
        .stdin(Stdio::null())
        .output()
        .expect("the fers binary starts");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown argument"));
}
