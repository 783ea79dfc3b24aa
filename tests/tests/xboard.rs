//! End-to-end XBoard/CECP tests: the real `fers` binary, chosen into CECP by
//! its first command `xboard`, driven over pipes as XBoard drives it.

use fers_core::{variant, Position};
use fers_tests::engine::EngineProcess;

/// Starts fers in CECP and reads its features up to `feature done=1`.
fn start() -> (EngineProcess, Vec<String>) {
    let mut e = EngineProcess::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_until(|l| l == "feature done=1");
    (e, features)
}

/// `ping N` / `pong N`: the lines printed before the pong.
fn sync(e: &mut EngineProcess, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    let mut lines = e.read_until(|l| l == pong);
    lines.pop();
    lines
}

fn quit(mut e: EngineProcess) {
    e.send("quit");
    let status = e.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", e.report());
    assert!(!e.stderr_text().contains("panicked"), "{}", e.report());
}

/// The engine's next `move`, checked legal in `pos` and played there.
fn engine_move(e: &mut EngineProcess, pos: &mut Position) -> String {
    let lines = e.read_until(|l| l.starts_with("move "));
    let mv = lines
        .last()
        .and_then(|l| l.strip_prefix("move "))
        .unwrap_or("");
    let m = pos
        .parse_move(mv)
        .unwrap_or_else(|err| panic!("illegal engine move {mv}: {err}\n{}", e.report()));
    pos.play(m);
    mv.to_string()
}

#[test]
fn features_name_the_protocol_needs() {
    let (e, features) = start();
    let line = &features[0];
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "myname=\"fers ",
        "variants=\"normal,",
    ] {
        assert!(line.contains(f), "{f} missing in {line}");
    }
    // Every built-in variant, chess by XBoard's name for it.
    let list = line
        .split("variants=\"")
        .nth(1)
        .and_then(|l| l.split('"').next());
    let listed: Vec<&str> = list.unwrap_or("").split(',').collect();
    for name in variant::builtin_names() {
        let name = if *name == "chess" { "normal" } else { name };
        assert!(listed.contains(&name), "{name} missing in {line}");
    }
    quit(e);
}

#[test]
fn a_scripted_game_with_thinking_output() {
    let (mut e, _) = start();
    let mut pos = Position::startpos(variant::chess());
    for cmd in ["new", "random", "level 0 1 0", "post", "hard", "sd 4"] {
        e.send(cmd);
    }
    assert!(sync(&mut e, 1).is_empty(), "{}", e.report());
    e.send("time 6000");
    e.send("otim 6000");
    e.send("usermove e2e4");
    pos.play(pos.parse_move("e2e4").expect("legal"));
    let thinking = e.read_until(|l| l.starts_with("move "));
    // `ply score centiseconds nodes pv`, the depth rising to 4.
    let depths: Vec<u32> = thinking
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(depths.contains(&4), "{thinking:?}");
    let reply = thinking
        .last()
        .and_then(|l| l.strip_prefix("move "))
        .unwrap();
    pos.play(pos.parse_move(reply).expect("legal reply"));
    e.send("usermove g1f3");
    pos.play(pos.parse_move("g1f3").expect("legal"));
    engine_move(&mut e, &mut pos);
    // Undo both moves (remove), then the engine's reply comes again.
    e.send("remove");
    e.send("usermove g1f3");
    let mut again = Position::startpos(variant::chess());
    for m in ["e2e4", reply, "g1f3"] {
        again.play(again.parse_move(m).expect("legal"));
    }
    engine_move(&mut e, &mut again);
    quit(e);
}

#[test]
fn bad_input_gets_cecp_errors_and_keeps_the_game() {
    let (mut e, _) = start();
    for cmd in ["new", "force", "usermove e2e4"] {
        e.send(cmd);
    }
    let refused = [
        ("usermove e2e4", "Illegal move: e2e4"),
        ("usermove zz", "Illegal move: zz"),
        ("variant nosuch", "Error (unknown variant): variant nosuch"),
        ("level 40 x 0", "Error (bad argument): level 40 x 0"),
        ("frobnicate", "Error (unknown command): frobnicate"),
    ];
    for (n, (cmd, answer)) in refused.iter().enumerate() {
        e.send(cmd);
        assert_eq!(sync(&mut e, n as u32), vec![answer.to_string()], "{cmd}");
    }
    e.send("setboard 8/8/8 w - - 0 1");
    let out = sync(&mut e, 50);
    assert!(
        out.len() == 1 && out[0].starts_with("Error (illegal position: "),
        "{out:?}"
    );
    // The game is still 1. e4: the engine (Black) answers from there.
    let mut pos = Position::startpos(variant::chess());
    pos.play(pos.parse_move("e2e4").expect("legal"));
    e.send("sd 3");
    e.send("go");
    engine_move(&mut e, &mut pos);
    quit(e);
}

#[test]
fn setboard_then_analyze_then_exit() {
    let (mut e, _) = start();
    for cmd in [
        "new",
        "force",
        "setboard 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
        "post",
        "analyze",
    ] {
        e.send(cmd);
    }
    // Analysis output comes until `exit`; a mate in one is seen at once.
    let lines = e.read_until(|l| l.split_whitespace().nth(1) == Some("100001"));
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    e.send("exit");
    let after = sync(&mut e, 9);
    assert!(!after.iter().any(|l| l.starts_with("move ")), "{after:?}");
    quit(e);
}
