//! End-to-end USI tests: the real `fers` binary, chosen into USI by its
//! first command `usi`, driven over pipes as a shogi GUI drives it.

use fers_core::{variant, Position};
use fers_engine::notation::Notation;
use fers_tests::engine::EngineProcess;

fn start() -> (EngineProcess, Vec<String>) {
    let mut e = EngineProcess::start();
    e.send("usi");
    let lines = e.read_until(|l| l == "usiok");
    (e, lines)
}

/// `isready` / `readyok`: the lines printed before it.
fn sync(e: &mut EngineProcess) -> Vec<String> {
    e.send("isready");
    let mut lines = e.read_until(|l| l == "readyok");
    lines.pop();
    lines
}

fn quit(mut e: EngineProcess) {
    e.send("quit");
    let status = e.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", e.report());
    assert!(!e.stderr_text().contains("panicked"), "{}", e.report());
}

#[test]
fn handshake_names_options_the_usi_way() {
    let (e, lines) = start();
    assert!(lines[0].starts_with("id name fers"), "{lines:?}");
    for name in [
        "USI_Variant",
        "USI_Hash",
        "USI_Ponder",
        "Move_Overhead",
        "Clear_Hash",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "no {name} in {lines:?}"
        );
    }
    quit(e);
}

#[test]
fn a_scripted_game_in_usi_squares() {
    let (mut e, _) = start();
    e.send("setoption name USI_Hash value 8");
    e.send("usinewgame");
    assert!(sync(&mut e).is_empty(), "{}", e.report());
    let mut pos = Position::startpos(variant::chess());
    let mut moves: Vec<String> = Vec::new();
    // Four moves each: fers answers itself, every move read back in USI.
    for _ in 0..8 {
        let list = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        e.send(&format!("position startpos{list}"));
        e.send("go btime 2000 wtime 2000 byoyomi 100");
        let lines = e.read_until(|l| l.starts_with("bestmove "));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        let m = Notation::Usi
            .parse(&pos, &best)
            .unwrap_or_else(|err| panic!("illegal bestmove {best}: {err}\n{}", e.report()));
        // Info lines carry USI squares too: every PV move legal in turn.
        for l in &lines[..lines.len() - 1] {
            if let Some(pv) = l.split(" pv ").nth(1) {
                let mut p = pos.clone();
                for w in pv.split_whitespace() {
                    let pm = Notation::Usi
                        .parse(&p, w)
                        .unwrap_or_else(|err| panic!("PV move {w}: {err} in {l}"));
                    p.play(pm);
                }
            }
        }
        pos.play(m);
        moves.push(best);
    }
    e.send("gameover draw");
    assert!(sync(&mut e).is_empty(), "{}", e.report());
    quit(e);
}

#[test]
fn bad_input_answers_errors_and_keeps_the_position() {
    let (mut e, _) = start();
    e.send("position startpos moves 4g4e");
    for bad in [
        "position startpos moves 4g4e 4g4e",
        "position sfen 8/8 b - 1",
        "go mate 1000",
        "setoption name NoSuch value 1",
        "frobnicate",
    ] {
        e.send(bad);
        let out = sync(&mut e);
        assert!(
            out.len() == 1 && out[0].starts_with("info string error: "),
            "{bad}: {out:?}"
        );
    }
    // Still after 1. e4: Black's reply is legal there.
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let mut pos = Position::startpos(variant::chess());
    pos.play(pos.parse_move("e2e4").expect("legal"));
    assert!(Notation::Usi.parse(&pos, best).is_ok(), "{best}");
    quit(e);
}
