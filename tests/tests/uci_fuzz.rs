//! Robustness of the UCI front-end, in process: thousands of random and
//! mutated lines go straight to the command handler (no safety net: a
//! panic fails the test), and after every line the state must be valid,
//! and unchanged whenever the line was answered with an error.
//!
//! `FERS_FUZZ_LINES=<n>` runs more lines (and `FERS_FUZZ_SEED=<n>` another
//! seed) for a longer hunt than the default, which stays fast.

use fers_core::Position;
use fers_engine::uci::{Flow, Uci};
use fers_tests::engine::fuzz::{fit_for_session, LineFuzzer};

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What must not change when a command is refused.
fn snapshot(uci: &Uci<Vec<u8>>) -> (String, String, usize) {
    let e = uci.engine();
    (
        e.variant().name.clone(),
        e.position().to_fen(),
        e.game().moves().len(),
    )
}

/// The engine state is one a later command can work from.
fn assert_valid(uci: &Uci<Vec<u8>>, line: &str) {
    let e = uci.engine();
    let pos = e.position();
    assert!(
        std::ptr::eq(pos.variant(), e.variant()),
        "after {line:?}: the position is of another variant"
    );
    let fen = pos.to_fen();
    let again = Position::from_fen(e.variant(), &fen)
        .unwrap_or_else(|err| panic!("after {line:?}: own FEN {fen} does not parse: {err}"));
    assert_eq!(again.to_fen(), fen, "after {line:?}");
    assert_eq!(again.key(), pos.key(), "after {line:?}: key of {fen}");
}

#[test]
fn random_lines_never_panic_or_corrupt_the_state() {
    let lines = env_number("FERS_FUZZ_LINES", 6000);
    let seed = env_number("FERS_FUZZ_SEED", 0xf055_2026);
    let mut fuzz = LineFuzzer::new(seed);
    let mut uci = Uci::new(Vec::new());
    let (mut errors, mut accepted) = (0u64, 0u64);
    let mut done = 0;
    while done < lines {
        let raw = fuzz.line();
        if !fit_for_session(&raw) {
            continue;
        }
        done += 1;
        let line = String::from_utf8_lossy(&raw).into_owned();
        let before = snapshot(&uci);
        uci.output_mut().clear();
        let flow = uci
            .handle_line(&line)
            .expect("writing to a Vec cannot fail");
        assert_eq!(flow, Flow::Continue, "{line:?}");
        let out = String::from_utf8(uci.output().clone())
            .unwrap_or_else(|_| panic!("after {line:?}: output is not UTF-8"));
        for l in out.lines() {
            assert!(
                !l.chars().any(char::is_control),
                "after {line:?}: control character in {l:?}"
            );
        }
        if out.contains("info string error:") {
            errors += 1;
            // `go` answers an error (no search yet) and otherwise changes
            // nothing; every refused command must keep the state.
            assert_eq!(
                snapshot(&uci),
                before,
                "{line:?} was refused but changed the state"
            );
        } else {
            accepted += 1;
        }
        assert_valid(&uci, &line);
    }
    // The mix must exercise both paths, or the generator has gone stale.
    assert!(
        errors > lines / 10 && accepted > lines / 10,
        "{errors} errors, {accepted} accepted"
    );
}

#[test]
fn quit_stops_the_handler() {
    let mut uci = Uci::new(Vec::new());
    assert_eq!(uci.handle_line("quit").ok(), Some(Flow::Quit));
    assert_eq!(uci.handle_line("quit now").ok(), Some(Flow::Quit));
    assert_eq!(uci.handle_line("quitter").ok(), Some(Flow::Continue));
}
