//! fers-match against fake engines (small shell scripts) that crash, play
//! an illegal move, stall or write a malformed line: each fault loses the
//! game, is logged with the engine's output, the engine is restarted and
//! the tournament goes on. Also the SPRT early stop and a missing engine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GOOD: &str = r#"#!/bin/sh
# A UCI engine that always plays e2e4 (legal as White from the start).
while read -r line; do
  case "$line" in
    uci) echo "id name good"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 10"; echo "bestmove e2e4" ;;
    quit) exit 0 ;;
  esac
done
"#;

fn fake(name: &str, on_go: &str) -> String {
    format!(
        r#"#!/bin/sh
while read -r line; do
  case "$line" in
    uci) echo "id name {name}"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) {on_go} ;;
    quit) exit 0 ;;
  esac
done
"#
    )
}

struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("fers-match-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        Dir(d)
    }
    fn script(&self, name: &str, text: &str) -> String {
        use std::os::unix::fs::PermissionsExt;
        let p = self.0.join(name);
        std::fs::write(&p, text).expect("write script");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        p.display().to_string()
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (Output, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-match"))
        .args(args)
        .output()
        .expect("run fers-match");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// Plays `bad` (engine 1) against `good` over two games, so that the bad
/// engine is White in game 1 and Black in game 2 (after a restart).
fn two_games(dir: &Dir, bad: &str, each: &[&str]) -> (Output, String, String) {
    let good = dir.script("good", GOOD);
    let pgn = dir.path("out.pgn");
    let mut args: Vec<String> = [
        format!("cmd={bad}"),
        "name=bad".into(),
        "-engine".into(),
        format!("cmd={good}"),
        "name=good".into(),
        // The good engine's own margin wins over -each: a loaded machine
        // must not make it lose on time.
        "timemargin=5000".into(),
        "-games".into(),
        "2".into(),
        "-pgnout".into(),
        pgn.display().to_string(),
        "-each".into(),
    ]
    .into();
    args.insert(0, "-engine".into());
    args.extend(each.iter().map(|s| s.to_string()));
    let (out, text) = run(&args);
    let pgn_text = std::fs::read_to_string(&pgn).unwrap_or_default();
    (out, text, pgn_text)
}

fn check_two_losses(text: &str, pgn: &str, reason: &str, termination: &str) {
    assert!(text.contains("Score of bad vs good: 0 - 2 - 0"), "{text}");
    assert_eq!(count(text, "Warning: restarting engine bad"), 2, "{text}");
    assert_eq!(count(text, "Warning: engine bad ("), 2, "{text}");
    assert!(
        text.contains("Finished game 1 (bad vs good): 0-1"),
        "{text}"
    );
    assert!(
        text.contains("Finished game 2 (good vs bad): 1-0"),
        "{text}"
    );
    assert!(text.contains(reason), "{reason} not in\n{text}");
    assert!(text.contains("Finished match"), "{text}");
    assert_eq!(
        count(pgn, &format!("[Termination \"{termination}\"]")),
        2,
        "{pgn}"
    );
}

#[test]
fn crashing_engine_loses_and_is_restarted() {
    let dir = Dir::new("crash");
    let bad = dir.script(
        "crash",
        &fake("crash", "echo \"info string going down\"; exit 3"),
    );
    let (out, text, pgn) = two_games(&dir, &bad, &["depth=1"]);
    assert!(out.status.success(), "{text}");
    check_two_losses(&text, &pgn, "disconnects", "abandoned");
    // The log shows the engine's last words.
    assert!(text.contains("info string going down"), "{text}");
}

#[test]
fn illegal_move_loses_and_is_logged() {
    let dir = Dir::new("illegal");
    let bad = dir.script("illegal", &fake("illegal", "echo \"bestmove e2e5\""));
    let (out, text, pgn) = two_games(&dir, &bad, &["depth=1"]);
    assert!(out.status.success(), "{text}");
    check_two_losses(
        &text,
        &pgn,
        "makes an illegal move: e2e5",
        "rules infraction",
    );
    assert!(
        text.contains("illegal move 'e2e5'; last output: "),
        "{text}"
    );
}

#[test]
fn malformed_line_loses() {
    let dir = Dir::new("malformed");
    let bad = dir.script("malformed", &fake("malformed", "echo \"bestmove\""));
    let (out, text, pgn) = two_games(&dir, &bad, &["depth=1"]);
    assert!(out.status.success(), "{text}");
    check_two_losses(
        &text,
        &pgn,
        "sends a malformed line: bestmove",
        "rules infraction",
    );
}

#[test]
fn stalling_engine_loses_on_time() {
    let dir = Dir::new("stall-time");
    let bad = dir.script("stall", &fake("stall", "echo \"info depth 1\""));
    let (out, text, pgn) = two_games(&dir, &bad, &["st=0.2", "timemargin=50"]);
    assert!(out.status.success(), "{text}");
    check_two_losses(&text, &pgn, "loses on time", "time forfeit");
}

#[test]
fn stalling_engine_without_clock_stalls() {
    let dir = Dir::new("stall-depth");
    let bad = dir.script("stall", &fake("stall", ":"));
    let good = dir.script("good", GOOD);
    let (out, text) = run(&[
        "-engine",
        &format!("cmd={bad}"),
        "name=bad",
        "-engine",
        &format!("cmd={good}"),
        "name=good",
        "-each",
        "depth=3",
        "-games",
        "2",
        "-stalltimeout",
        "1",
    ]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Score of bad vs good: 0 - 2 - 0"), "{text}");
    assert!(text.contains("White's connection stalls"), "{text}");
    assert!(text.contains("Black's connection stalls"), "{text}");
}

#[test]
fn sprt_stops_early() {
    let dir = Dir::new("sprt");
    let bad = dir.script("crash", &fake("crash", "exit 1"));
    let good = dir.script("good", GOOD);
    let (out, text) = run(&[
        "-engine",
        &format!("cmd={good}"),
        "name=good",
        "-engine",
        &format!("cmd={bad}"),
        "name=bad",
        "-each",
        "depth=1",
        "-games",
        "40",
        "-sprt",
        "elo0=0",
        "elo1=10",
        "alpha=0.05",
        "beta=0.05",
    ]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("H1 was accepted"), "{text}");
    let finished = count(&text, "Finished game ");
    assert!((1..40).contains(&finished), "{finished} games\n{text}");
}

#[test]
fn missing_engine_is_a_clear_error() {
    let (out, text) = run(&[
        "-engine",
        "cmd=/nonexistent/engine",
        "-engine",
        "cmd=/nonexistent/other",
        "-each",
        "depth=1",
    ]);
    assert!(!out.status.success());
    assert!(
        text.contains("cannot start '/nonexistent/engine'"),
        "{text}"
    );
}

#[test]
fn bad_flags_are_refused() {
    let (out, text) = run(&["-engine", "cmd=x", "-bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text.contains("unknown option '-bogus'"), "{text}");
    let (out, text) = run(&["-engine", "cmd=x", "-engine", "cmd=y"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text.contains("no limit to thinking"), "{text}");
    assert!(Path::new(env!("CARGO_BIN_EXE_fers-match")).exists());
}
