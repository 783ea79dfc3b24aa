//! The one skip rule of the test suite, and the finders of the external
//! programs that tests need.
//!
//! A test that needs a program fers does not ship (Fairy-Stockfish,
//! Stockfish, python3 with a module, the `fers` binary built beside the
//! test) asks for it here. When the program is missing:
//!
//! - under CI (`CI` set in the environment) the setup is broken, and the
//!   test **fails** with a message naming the program and how `.ci/run`
//!   installs it: a CI run can never pass on a skip;
//! - on a developer's machine the test prints `SKIPPED: <what> [<test>]` on
//!   stderr and passes, so that `cargo test` works on a fresh checkout.
//!
//! Every finder honours an environment variable that names the program
//! explicitly (`FERS_FAIRY_STOCKFISH`, `FERS_STOCKFISH`, `FERS_PYTHON`,
//! `FERS_BIN`, `FERS_POLYGLOT`); a named program that does not exist counts as missing, so
//! a test (`tests/tests/skip_rules.rs`) can hide each program and check that
//! every rule fails under CI.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Is this a CI run (`CI` set, as CI services and `.ci/run` do)?
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// The skip rule: `what` is missing for `test`. Panics under CI (`hint`
/// says how to install it); elsewhere prints `SKIPPED: ...` and returns,
/// and the test should return too.
pub fn missing(test: &str, what: &str, hint: &str) {
    if under_ci() {
        panic!("{test}: {what} (required under CI: {hint})");
    }
    // Written to stderr directly: the harness captures `eprintln!`, and a
    // skip must be visible in the test output.
    let _ = writeln!(std::io::stderr(), "SKIPPED: {what} ({hint}) [{test}]");
}

/// `Some(value)`, or the skip rule with `what`/`hint` and `None`.
pub fn or_skip<T>(found: Option<T>, test: &str, what: &str, hint: &str) -> Option<T> {
    if found.is_none() {
        missing(test, what, hint);
    }
    found
}

/// A program: `$env` if set (a path that does not exist is missing, not
/// replaced by another binary), else `name` on `PATH`, else `/usr/games/name`
/// (Debian's place for engines, not on a non-login shell's `PATH`).
pub fn find_program(name: &str, env: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

pub const FAIRY_STOCKFISH_HINT: &str = ".ci/run installs it: apt-get install fairy-stockfish";
pub const STOCKFISH_HINT: &str = ".ci/run installs it: apt-get install stockfish";
pub const POLYGLOT_HINT: &str = ".ci/run installs it: apt-get install polyglot";

/// Debian's `polyglot` (`$FERS_POLYGLOT`, `PATH`, `/usr/games`), the
/// independent maker of Polyglot books, or the skip rule.
pub fn polyglot(test: &str) -> Option<PathBuf> {
    or_skip(
        find_program("polyglot", "FERS_POLYGLOT"),
        test,
        "polyglot not found ($FERS_POLYGLOT, PATH, /usr/games)",
        POLYGLOT_HINT,
    )
}

pub const XBOARD_GUI_HINT: &str =
    ".ci/run installs them: apt-get install xboard xvfb x11-apps imagemagick";

/// What the XBoard GUI test needs (`tests/gui/xboard_fairy.sh`): xboard
/// (`$FERS_XBOARD`), Xvfb, xwd and ImageMagick's convert, or the skip rule.
/// Returns the xboard binary.
pub fn xboard_gui(test: &str) -> Option<PathBuf> {
    let xboard = find_program("xboard", "FERS_XBOARD");
    let others: Vec<&str> = [
        ("Xvfb", "FERS_XVFB"),
        ("xwd", "FERS_XWD"),
        ("convert", "FERS_CONVERT"),
    ]
    .into_iter()
    .filter(|(name, env)| find_program(name, env).is_none())
    .map(|(name, _)| name)
    .collect();
    let found = xboard.filter(|_| others.is_empty());
    or_skip(
        found,
        test,
        &format!(
            "the XBoard GUI test needs xboard ($FERS_XBOARD, PATH, /usr/games), Xvfb, xwd \
             and convert{}",
            if others.is_empty() {
                String::new()
            } else {
                format!(" (missing: {})", others.join(", "))
            }
        ),
        XBOARD_GUI_HINT,
    )
}

/// Fairy-Stockfish (`$FERS_FAIRY_STOCKFISH`, `PATH`, `/usr/games`), or the
/// skip rule.
pub fn fairy_stockfish(test: &str) -> Option<PathBuf> {
    or_skip(
        crate::fsf::find_binary(),
        test,
        "fairy-stockfish not found ($FERS_FAIRY_STOCKFISH, PATH, /usr/games)",
        FAIRY_STOCKFISH_HINT,
    )
}

/// Stockfish (`$FERS_STOCKFISH`, `PATH`, `/usr/games`), without the rule.
pub fn find_stockfish() -> Option<PathBuf> {
    find_program("stockfish", "FERS_STOCKFISH")
}

/// Stockfish, or the skip rule.
pub fn stockfish(test: &str) -> Option<PathBuf> {
    or_skip(
        find_stockfish(),
        test,
        "stockfish not found ($FERS_STOCKFISH, PATH, /usr/games)",
        STOCKFISH_HINT,
    )
}

/// A Python interpreter that imports every module of `modules`:
/// `$FERS_PYTHON` if set, else `python3`, else `python`. Without the rule.
pub fn find_python_with(modules: &[&str]) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("FERS_PYTHON") {
        Some(p) => vec![PathBuf::from(p)],
        None => vec!["python3".into(), "python".into()],
    };
    let import = if modules.is_empty() {
        "pass".to_string()
    } else {
        format!("import {}", modules.join(", "))
    };
    candidates.into_iter().find(|py| {
        Command::new(py)
            .args(["-c", &import])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// python3 with `modules` (pip package names are given by `packages`, for
/// the message), or the skip rule.
pub fn python_with(test: &str, modules: &[&str], packages: &str) -> Option<PathBuf> {
    or_skip(
        find_python_with(modules),
        test,
        &if modules.is_empty() {
            "python3 not found ($FERS_PYTHON, python3, python)".to_string()
        } else {
            format!(
                "python3 with {} not found ($FERS_PYTHON, python3, python)",
                modules.join(", ")
            )
        },
        &if packages.is_empty() {
            "install python3".to_string()
        } else {
            format!(".ci/run installs it: pip install {packages}")
        },
    )
}

/// The `fers` binary Cargo built beside the running test executable (or
/// `$FERS_BIN`), or the skip rule. `cargo test --workspace` builds it;
/// `cargo test -p <crate>` of a crate other than fers-engine does not.
pub fn fers(test: &str) -> Option<PathBuf> {
    let found = crate::engine::fers_binary();
    let why = match &found {
        Err(e) => e.clone(),
        Ok(p) if !p.is_file() => format!("{} does not exist", p.display()),
        Ok(_) => String::new(),
    };
    or_skip(
        found.ok().filter(|p| p.is_file()),
        test,
        &format!("fers binary not found: {why}"),
        ".ci/run runs `cargo test --workspace`, which builds it",
    )
}

/// The `fers` binary, which must also search: `fers bench 1` must succeed.
/// A missing binary is the skip rule; a binary that cannot search is a
/// failure everywhere (it is the program under test, not an optional one).
pub fn searching_fers(test: &str) -> Option<PathBuf> {
    let fers = fers(test)?;
    assert_searches(test, &fers);
    Some(fers)
}

/// Panics unless `fers bench 1` succeeds.
pub fn assert_searches(test: &str, fers: &Path) {
    let out = Command::new(fers)
        .args(["bench", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{test}: cannot start {}: {e}", fers.display()));
    assert!(
        out.status.success(),
        "{test}: `{} bench 1` failed ({:?}): the engine under test cannot search\n{}{}",
        fers.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
