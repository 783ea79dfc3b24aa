//! `fers-nnue` for a fairy variant, each step as a user runs it: self-play
//! data for Capablanca chess (a variant file), a tiny network trained on
//! it, then that file loaded by the engine for Capablanca (and refused for
//! chess), positions labelled by it, and a second generation of data
//! played with it.

use std::process::Command;
use std::sync::Arc;

use fers_engine::nnue::{self, NetId, Network, NnueMap};

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-nnue"))
        .args(args)
        .output()
        .expect("fers-nnue runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "fers-nnue {args:?} failed:\n{err}");
    err
}

/// Runs `fers-nnue`, which must fail; its error output.
fn run_failing(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-nnue"))
        .args(args)
        .output()
        .expect("fers-nnue runs");
    assert!(!out.status.success(), "fers-nnue {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn capablanca_selfplay_train_load_iterate() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
    let dir = std::env::temp_dir().join(format!("fers-nnue-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = dir.join("capa.txt").display().to_string();
    let net = dir.join("capa.nnue").display().to_string();
    let common = ["-variant", "capablanca", "-variantfile", examples];
    let mut args = vec![
        "-selfplay",
        &data,
        "-games",
        "2",
        "-nodes",
        "200",
        "-maxplies",
        "30",
    ];
    args.extend(common);
    let msg = run(&args);
    assert!(msg.contains("2 games of capablanca at 200 nodes"), "{msg}");
    let text = std::fs::read_to_string(&data).expect("data written");
    assert!(text.lines().count() > 10, "{text}");
    let mut args = vec![
        &net[..],
        &data,
        "-epochs",
        "2",
        "-batch",
        "16",
        "-lambda",
        "0.3",
    ];
    args.extend(common);
    let log = run(&args);
    assert!(log.contains("epoch   2"), "{log}");

    let (v, _) = fers_tools::match_cli::resolve_variant("capablanca", Some(&examples.into()))
        .expect("variant");
    let loaded = Arc::new(Network::load(&net).expect("the engine reads it"));
    assert_eq!(loaded.id, NetId::of(v));
    let map = NnueMap::with_network(v, loaded.clone()).expect("fits Capablanca");
    let start = fers_core::Position::startpos(v);
    let e = nnue::evaluate(&start, &map);
    assert!(e.abs() < 2000, "start position {e}");
    assert!(NnueMap::with_network(fers_core::variant::chess(), loaded).is_err());

    // The network labels positions for another to learn from: each
    // distinct position once, its score as the engine evaluates it, from
    // White's view.
    let labelled = dir.join("capa-labels.txt").display().to_string();
    let mut args = vec!["-label", &data, &labelled, &net];
    args.extend(common);
    let msg = run(&args);
    assert!(msg.contains("positions of capablanca labelled"), "{msg}");
    let labels = std::fs::read_to_string(&labelled).expect("labels written");
    let distinct: std::collections::HashSet<&str> =
        text.lines().filter_map(|l| l.split(';').next()).collect();
    assert_eq!(labels.lines().count(), distinct.len(), "{labels}");
    for line in labels.lines() {
        let (fen, cp) = line.split_once(';').expect("FEN;cp");
        let pos = fers_core::Position::from_fen(v, fen).expect("FEN");
        let e = nnue::evaluate(&pos, &map);
        let white = if pos.side_to_move() == fers_core::Color::White {
            e
        } else {
            -e
        };
        assert_eq!(cp.parse::<i32>().expect("cp"), white, "{line}");
    }

    // The next generation plays with this network.
    let data2 = dir.join("capa2.txt").display().to_string();
    let mut args = vec![
        "-selfplay",
        &data2,
        "-games",
        "1",
        "-nodes",
        "200",
        "-maxplies",
        "20",
    ];
    args.extend(["-evalfile", &net]);
    args.extend(common);
    run(&args);
    assert!(
        std::fs::read_to_string(&data2)
            .expect("written")
            .lines()
            .count()
            > 3
    );
    // A network for another variant is refused before any game.
    let out = Command::new(env!("CARGO_BIN_EXE_fers-nnue"))
        .args(["-selfplay", &data2, "-evalfile", &net, "-games", "1"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the network is for 'capablanca'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-transfer`: the embedded chess network as Almost chess's, the
/// chancellor reading the queen's inputs. The engine takes it for almost
/// and scores almost's start (the chancellor on the queen's square) as the
/// chess network scores chess's; without `-as` the missing queen is an
/// error naming the piece, and nothing is written.
#[test]
fn the_chess_network_transfers_to_almost_chess() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
    let chess_net = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/chess.nnue");
    let dir = std::env::temp_dir().join(format!("fers-nnue-transfer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("almost.nnue").display().to_string();
    let common = ["-variant", "almost", "-variantfile", examples];
    let mut args = vec!["-transfer", chess_net, &out];
    args.extend(common);
    let why = run_failing(&args);
    assert!(
        why.contains("no piece 'c'") && why.contains("-as c="),
        "{why}"
    );
    assert!(!std::path::Path::new(&out).exists());

    args.extend(["-as", "c=q"]);
    let msg = run(&args);
    assert!(
        msg.contains("kinds p=p n=n b=b r=r k=k c=q of chess"),
        "{msg}"
    );
    let (almost, _) =
        fers_tools::match_cli::resolve_variant("almost", Some(&examples.into())).expect("variant");
    let net = Arc::new(Network::load(&out).expect("the engine reads it"));
    let map = NnueMap::with_network(almost, net).expect("fits almost");
    let chess = fers_core::variant::chess();
    let chess_map =
        NnueMap::with_network(chess, Network::embedded().expect("embedded")).expect("fits chess");
    assert_eq!(
        nnue::evaluate(&fers_core::Position::startpos(almost), &map),
        nnue::evaluate(&fers_core::Position::startpos(chess), &chess_map)
    );

    // Onto Capablanca's 10x8 board, its compound pieces as sums of chess's;
    // a malformed `-as` is an error naming it, and nothing is written.
    let capa_out = dir.join("capablanca.nnue").display().to_string();
    let mut args = vec!["-transfer", chess_net, &capa_out, "-variant", "capablanca"];
    args.extend([
        "-variantfile",
        examples,
        "-from",
        "chess",
        "-as",
        "a=b+n,c=r+",
    ]);
    let why = run_failing(&args);
    assert!(why.contains("not c=r+"), "{why}");
    assert!(!std::path::Path::new(&capa_out).exists());
    *args.last_mut().expect("the -as value") = "a=b+n,c=r+n";
    let msg = run(&args);
    assert!(msg.contains("a=b+n c=r+n of chess"), "{msg}");
    let (capa, _) = fers_tools::match_cli::resolve_variant("capablanca", Some(&examples.into()))
        .expect("variant");
    let net = Arc::new(Network::load(&capa_out).expect("the engine reads it"));
    NnueMap::with_network(capa, net).expect("fits capablanca");
    std::fs::remove_dir_all(&dir).ok();
}

/// `-pgn`: the positions of a PGN's games from ply FROM on, before each
/// move (the FENs are the standard ones of this opening, as python-chess
/// writes them); a move that is not legal is an error naming it.
#[test]
fn pgn_positions_from_a_ply_on() {
    let dir = std::env::temp_dir().join(format!("fers-nnue-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("g.pgn");
    let out = dir.join("g.fen");
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\n\
         [Event \"b\"]\n[Result \"*\"]\n\n1. d4 *\n",
    )
    .unwrap();
    run(&["-pgn", pgn.to_str().unwrap(), out.to_str().unwrap(), "2"]);
    let fens = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        fens.lines().collect::<Vec<_>>(),
        [
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        ]
    );
    std::fs::write(&pgn, "[Event \"c\"]\n\n1. e4 e4 *\n").unwrap();
    let bad = Command::new(env!("CARGO_BIN_EXE_fers-nnue"))
        .args(["-pgn", pgn.to_str().unwrap(), out.to_str().unwrap(), "0"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'e4' is not a legal move"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `-walk`: PER random walks of 1 to 8 legal moves from each input
/// position; each written position is a legal one reached by moving, with
/// the side to move not in check, and the same seed writes the same walks.
/// A wrong argument count is an error with the usage.
#[test]
fn walks_from_a_position() {
    let dir = std::env::temp_dir().join(format!("fers-nnue-walk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let input = dir.join("in.txt");
    std::fs::write(&input, format!("{start};0;0.5\n")).unwrap();
    let walk = |name: &str| {
        let out = dir.join(name);
        run(&[
            "-walk",
            input.to_str().unwrap(),
            out.to_str().unwrap(),
            "20",
            "3",
        ]);
        std::fs::read_to_string(out).unwrap()
    };
    let first = walk("a.fen");
    let lines: Vec<&str> = first.lines().collect();
    assert!(
        !lines.is_empty() && lines.len() <= 20,
        "{} walks",
        lines.len()
    );
    for fen in &lines {
        let pos = fers_core::Position::from_fen(fers_core::variant::chess(), fen).unwrap();
        assert_ne!(*fen, start);
        assert!(!pos.in_check(), "{fen}");
    }
    assert_eq!(first, walk("b.fen"));
    let bad = Command::new(env!("CARGO_BIN_EXE_fers-nnue"))
        .args(["-walk", input.to_str().unwrap(), "x.fen"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("4 arguments are needed, 2 given"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `tools/py/add_results.py` gives each labelled position the mean result
/// of the self-play games it occurred in, known by its FEN's first four
/// fields (move counters aside), keeps the teacher's score, drops a
/// position found in no game, and the output trains with `-lambda`.
#[test]
fn labelled_positions_get_their_games_results() {
    let test = "labelled_positions_get_their_games_results";
    let Some(py) = fers_tests::require::python_with(test, &[], "") else {
        return;
    };
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/py/add_results.py");
    let dir = std::env::temp_dir().join(format!("fers-add-results-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = |name: &str| dir.join(name).display().to_string();
    let start = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let e4 = "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq - 0 1";
    let d4 = "rnabqkbcnr/pppppppppp/10/10/3P6/10/PPP1PPPPPP/RNABQKBCNR b KQkq - 0 1";
    // Two games through the start (won, drawn), one through e4 with other
    // move counters (lost); d4 in none.
    std::fs::write(path("sp-a.txt"), format!("{start};20;1\n{start};25;0.5\n")).unwrap();
    let e4_later = e4.replace(" 0 1", " 4 9");
    std::fs::write(path("sp-b.txt"), format!("{e4_later};-5;0\n")).unwrap();
    std::fs::write(
        path("labels.txt"),
        format!("{start};31\n{e4};12\n{d4};40\n"),
    )
    .unwrap();
    let out = Command::new(&py)
        .arg(script)
        .args([
            path("labels.txt"),
            path("r.txt"),
            path("sp-a.txt"),
            path("sp-b.txt"),
        ])
        .output()
        .expect("run add_results.py");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("2 positions with results, 1 found in no game"),
        "{err}"
    );
    let written = std::fs::read_to_string(path("r.txt")).unwrap();
    assert_eq!(written, format!("{start};31;0.75\n{e4};12;0\n"));
    // A self-play line without a result, or with one outside 0..1, is
    // refused with its file and line.
    for (i, bad_line) in [format!("{start};20"), format!("{start};20;2")]
        .iter()
        .enumerate()
    {
        std::fs::write(path("bad.txt"), format!("{start};20;1\n{bad_line}\n")).unwrap();
        let bad = Command::new(&py)
            .arg(script)
            .args([path("labels.txt"), path("r2.txt"), path("bad.txt")])
            .output()
            .expect("run add_results.py");
        let err = String::from_utf8_lossy(&bad.stderr).to_string();
        assert!(!bad.status.success(), "case {i}");
        assert!(err.contains("bad.txt:2: expected FEN;cp;result"), "{err}");
    }
    // The output is training data with results.
    let net = path("r.nnue");
    let trained = run(&[
        &net,
        &path("r.txt"),
        "-variant",
        "capablanca",
        "-variantfile",
        examples,
        "-lambda",
        "0.5",
        "-epochs",
        "1",
        "-hidden",
        "32",
        "-threads",
        "1",
    ]);
    // Both lines read (a result the trainer refused would drop its line).
    assert!(trained.contains("r.txt: 2 positions"), "{trained}");
    assert!(std::path::Path::new(&net).exists(), "{trained}");
    let _ = std::fs::remove_dir_all(&dir);
}
