//! End-to-end UCI tests: the real `fers` binary, driven over pipes as a GUI
//! drives it (see `fers_tests::engine` for where the binary comes from).

use fers_tests::engine::fuzz::{fit_for_session, LineFuzzer};
use fers_tests::engine::EngineProcess;

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Asserts that `out` is exactly one `info string error:` line.
fn assert_one_error(cmd: &str, out: &[String]) {
    assert!(
        out.len() == 1 && out[0].starts_with("info string error: "),
        "'{cmd}' should answer one error line, got {out:?}"
    );
}

/// Quits and checks the exit status and that nothing panicked.
fn quit(mut e: EngineProcess) {
    e.send("quit");
    let status = e.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", e.report());
    assert!(!e.stderr_text().contains("panicked"), "{}", e.report());
}

#[test]
fn uci_handshake_lists_the_variant_option() {
    let mut e = EngineProcess::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name fers"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("id author ")),
        "{lines:?}"
    );
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .unwrap_or_else(|| panic!("no UCI_Variant option in {lines:?}"));
    assert!(option.contains(" type combo default chess"), "{option}");
    assert!(option.contains(" var chess"), "{option}");
    // The search's options.
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "Clear Hash",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "no {name} option in {lines:?}"
        );
    }
    quit(e);
}

#[test]
fn isready_answers_readyok() {
    let mut e = EngineProcess::start();
    e.send("isready");
    assert_eq!(e.read_until(|_| true), vec!["readyok".to_string()]);
    quit(e);
}

#[test]
fn startpos_moves_then_d_shows_the_fen() {
    let mut e = EngineProcess::start();
    assert_eq!(e.fen(), STARTPOS);
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    assert_eq!(
        e.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    let out = e.command("d");
    assert!(
        out.iter().any(|l| l.contains("| k |")),
        "board diagram: {out:?}"
    );
    let key = out
        .iter()
        .find_map(|l| l.strip_prefix("Key: "))
        .unwrap_or_else(|| panic!("no Key: line in {out:?}"));
    assert!(
        key.len() == 16 && key.chars().all(|c| c.is_ascii_hexdigit()),
        "{key}"
    );
    quit(e);
}

#[test]
fn position_fen_is_printed_back_by_d() {
    let mut e = EngineProcess::start();
    for fen in [
        STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 80",
    ] {
        e.send(&format!("position fen {fen}"));
        assert_eq!(e.fen(), fen);
    }
    quit(e);
}

#[test]
fn go_perft_3_divides_like_stockfish() {
    let mut e = EngineProcess::start();
    e.send("position startpos");
    let out = e.command("go perft 3");
    // Stockfish's per-move counts for the start position at depth 3.
    let mut expected = [
        ("a2a3", 380),
        ("b2b3", 420),
        ("c2c3", 420),
        ("d2d3", 539),
        ("e2e3", 599),
        ("f2f3", 380),
        ("g2g3", 420),
        ("h2h3", 380),
        ("a2a4", 420),
        ("b2b4", 421),
        ("c2c4", 441),
        ("d2d4", 560),
        ("e2e4", 600),
        ("f2f4", 401),
        ("g2g4", 421),
        ("h2h4", 420),
        ("b1a3", 400),
        ("b1c3", 440),
        ("g1f3", 440),
        ("g1h3", 400),
    ]
    .map(|(m, n)| format!("{m}: {n}"));
    assert_eq!(out.len(), 22, "{out:?}");
    let mut divide = out[..20].to_vec();
    divide.sort();
    expected.sort();
    assert_eq!(divide, expected);
    assert_eq!(out[20], "");
    assert_eq!(out[21], "Nodes searched: 8902");
    quit(e);
}

#[test]
fn variant_option_announces_the_board_and_resets() {
    let mut e = EngineProcess::start();
    e.send("position startpos moves e2e4");
    let out = e.command("setoption name UCI_Variant value chess");
    assert_eq!(
        out,
        vec![format!(
            "info string variant chess files 8 ranks 8 startpos {STARTPOS}"
        )]
    );
    assert_eq!(e.fen(), STARTPOS);
    quit(e);
}

#[test]
fn every_kind_of_bad_input_answers_an_error_and_keeps_the_state() {
    let mut e = EngineProcess::start();
    e.send("position startpos moves d2d4 d7d5 c2c4");
    let before = e.fen();
    for bad in [
        // unknown commands
        "flip",
        "ISREADY",
        "isreadyx",
        // malformed FENs
        "position fen",
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
        "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - zero 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        // illegal or malformed moves (the good ones before them count for nothing)
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 e2e4",
        "position startpos moves e2e9",
        "position startpos moves e2",
        "position startpos moves e2e4,e7e5",
        "position startpos moves a10b10",
        // malformed position commands
        "position",
        "position middlegame",
        "position startpos e2e4",
        // unknown variant, unknown option, bad option values
        "setoption name UCI_Variant value nosuchchess",
        "setoption name UCI_Variant",
        "setoption name NoSuchOption value 1",
        "setoption name Hash value 0",
        "setoption name Threads value many",
        "setoption",
        "setoption name",
        // bad numbers and parameters
        "go depth x",
        "go depth -3",
        "go nodes 99999999999999999999999",
        "go movetime",
        "go wtime 1.5",
        "go searchmoves e2e4",
        "go sideways",
        "go perft",
        "go perft 0",
        "go perft -1",
        "go perft three",
        "go perft 1000",
        "debug sometimes",
    ] {
        let out = e.command(bad);
        assert_one_error(bad, &out);
        assert_eq!(e.fen(), before, "after '{bad}'");
    }
    quit(e);
}

#[test]
fn go_answers_a_legal_bestmove() {
    let mut e = EngineProcess::start();
    e.send("position startpos moves e2e4");
    e.send("go wtime 1000 btime 1000");
    let out = e.read_until(|l| l.starts_with("bestmove"));
    let best = out.last().expect("bestmove line");
    let m = best.split_whitespace().nth(1).expect("a move");
    let mut pos = fers_core::Position::startpos(fers_core::variant::chess());
    pos.play(pos.parse_move("e2e4").expect("legal"));
    assert!(pos.parse_move(m).is_ok(), "{out:?}");
    assert!(
        !out.iter().any(|l| l.starts_with("info string error:")),
        "{out:?}"
    );
    quit(e);
}

#[test]
fn stop_ponderhit_ucinewgame_and_debug_are_accepted_silently() {
    let mut e = EngineProcess::start();
    for cmd in [
        "stop",
        "ponderhit",
        "debug on",
        "debug off",
        "register later",
        "",
    ] {
        assert_eq!(e.command(cmd), Vec::<String>::new(), "'{cmd}'");
    }
    e.send("position startpos moves e2e4");
    assert_eq!(e.command("ucinewgame"), Vec::<String>::new());
    assert_eq!(
        e.fen(),
        STARTPOS,
        "ucinewgame starts from the start position"
    );
    quit(e);
}

#[test]
fn input_that_is_not_utf8_is_answered() {
    let mut e = EngineProcess::start();
    e.try_send_raw(b"\xff\xfe\x00garbage\r\n")
        .expect("engine reads input");
    assert_one_error("<bytes>", &e.sync());
    e.try_send_raw(b"isready\r\n").expect("engine reads input");
    assert_eq!(e.read_until(|_| true), vec!["readyok".to_string()]);
    quit(e);
}

#[test]
fn quit_exits_with_status_0() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    quit(e);
}

#[test]
fn end_of_input_exits_with_status_0() {
    let mut e = EngineProcess::start();
    e.send("position startpos moves e2e4");
    e.close_stdin();
    let status = e.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", e.report());
}

#[test]
fn lines_after_quit_are_not_read() {
    let mut e = EngineProcess::start();
    e.try_send_raw(b"quit\nisready\n")
        .expect("engine reads input");
    let status = e.wait_exit();
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        e.read_line(std::time::Duration::from_secs(1)),
        Err(fers_tests::engine::ReadError::Eof)
    );
}

#[test]
fn random_lines_do_not_break_the_binary() {
    let mut e = EngineProcess::start();
    let mut fuzz = LineFuzzer::new(0x5eed_0001);
    let mut sent = 0;
    while sent < 400 {
        let mut line = fuzz.line();
        if !fit_for_session(&line) {
            continue;
        }
        line.push(b'\n');
        if let Err(err) = e.try_send_raw(&line) {
            panic!(
                "engine stopped reading after {sent} lines: {err}\n{}",
                e.report()
            );
        }
        sent += 1;
    }
    // All of it handled, and the engine is still there and in a sane state
    // (`stop` first: a search started by a random `go` writes while it runs).
    e.send("stop");
    e.drain();
    assert!(e.sync().is_empty());
    e.send("position startpos moves e2e4");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    e.close_stdin();
    let status = e.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", e.report());
    assert!(!e.stderr_text().contains("panicked"), "{}", e.report());
}
