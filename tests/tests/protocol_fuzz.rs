//! Robustness of the XBoard and USI front-ends, in process, as
//! `uci_fuzz.rs` does for UCI: thousands of random and mutated lines go
//! straight to the command handler (no safety net: a panic fails the test);
//! after every line the state must be valid, and unchanged whenever the line
//! was refused in the protocol's words.
//!
//! `FERS_FUZZ_LINES=<n>` and `FERS_FUZZ_SEED=<n>` as for `uci_fuzz.rs`.

use fers_core::Position;
use fers_engine::engine::Engine;
use fers_engine::protocol::Flow;
use fers_engine::usi::Usi;
use fers_engine::xboard::XBoard;
use fers_tests::engine::fuzz::{
    fit_for_session, LineFuzzer, USI_LEADS, USI_VALID, XBOARD_LEADS, XBOARD_VALID,
};

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What must not change when a command is refused.
fn snapshot(e: &Engine) -> (String, String, usize) {
    (
        e.variant().name.clone(),
        e.position().to_fen(),
        e.game().moves().len(),
    )
}

/// The engine state is one a later command can work from.
fn assert_valid(e: &Engine, line: &str) {
    let pos = e.position();
    assert!(
        std::ptr::eq(pos.variant(), e.variant()),
        "after {line:?}: the position is of another variant"
    );
    let fen = pos.to_fen();
    let again = Position::from_fen(e.variant(), &fen)
        .unwrap_or_else(|err| panic!("after {line:?}: own FEN {fen} does not parse: {err}"));
    assert_eq!(again.to_fen(), fen, "after {line:?}");
}

fn assert_printable(out: &str, line: &str) {
    for l in out.lines() {
        assert!(
            !l.chars().any(char::is_control),
            "after {line:?}: control character in {l:?}"
        );
    }
}

/// Random lines for a session: no `quit`, no deep `perft`.
fn lines(valid: &'static [&'static str], leads: &'static [&'static str]) -> Vec<String> {
    let n = env_number("FERS_FUZZ_LINES", 4000);
    let seed = env_number("FERS_FUZZ_SEED", 0xf055_2026);
    let mut fuzz = LineFuzzer::with_commands(seed, valid, leads);
    let mut out = Vec::new();
    while (out.len() as u64) < n {
        let raw = fuzz.line();
        if fit_for_session(&raw) {
            out.push(String::from_utf8_lossy(&raw).into_owned());
        }
    }
    out
}

#[test]
fn xboard_survives_random_lines_and_keeps_refused_state() {
    let mut x = XBoard::new(Vec::new());
    x.handle_line("xboard").expect("Vec output");
    let (mut errors, mut accepted) = (0u64, 0u64);
    let all = lines(XBOARD_VALID, XBOARD_LEADS);
    for line in &all {
        let before = snapshot(x.engine());
        let written = x.output().len();
        let flow = x.handle_line(line).expect("writing to a Vec cannot fail");
        // Settle: a search started by the line is stopped and its move
        // dropped, so that the next snapshot is stable.
        x.finish().expect("Vec output");
        assert_eq!(flow, Flow::Continue, "{line:?}");
        let out = String::from_utf8_lossy(&x.output()[written..]).into_owned();
        assert_printable(&out, line);
        if out.contains("Error (") || out.contains("Illegal move") {
            errors += 1;
            assert_eq!(
                snapshot(x.engine()),
                before,
                "{line:?} was refused but changed the state"
            );
        } else {
            accepted += 1;
        }
        assert_valid(x.engine(), line);
    }
    let n = all.len() as u64;
    assert!(
        errors > n / 10 && accepted > n / 10,
        "{errors} errors, {accepted} accepted"
    );
}

#[test]
fn usi_survives_random_lines_and_keeps_refused_state() {
    let mut u = Usi::new(Vec::new());
    let (mut errors, mut accepted) = (0u64, 0u64);
    let all = lines(USI_VALID, USI_LEADS);
    for line in &all {
        let before = snapshot(u.engine());
        u.output_mut().clear();
        let flow = u.handle_line(line).expect("writing to a Vec cannot fail");
        assert_eq!(flow, Flow::Continue, "{line:?}");
        let out = String::from_utf8_lossy(u.output()).into_owned();
        assert_printable(&out, line);
        if out.contains("info string error:") {
            errors += 1;
            assert_eq!(
                snapshot(u.engine()),
                before,
                "{line:?} was refused but changed the state"
            );
        } else {
            accepted += 1;
        }
        assert_valid(u.engine(), line);
    }
    u.finish().expect("Vec output");
    let n = all.len() as u64;
    assert!(
        errors > n / 10 && accepted > n / 10,
        "{errors} errors, {accepted} accepted"
    );
}
