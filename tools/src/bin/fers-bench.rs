//! `fers-bench`: fers' speed as a ratio against Fairy-Stockfish, measured on
//! the same machine in the same run (SPEC section 7). Absolute numbers mean
//! little on a shared 2-core machine; the ratio is what is tracked.
//!
//! `fers-bench perft [--repeat N] [--quick]` times perft (leaf nodes per
//! second, bulk counting at the last ply on both sides) on the start
//! position (depth 6) and Kiwipete (depth 5):
//! - fers-core in-process, on the fast legality path that chess uses;
//! - fers-core on the general legality path (chess built with `simple` and
//!   `pin_legality` cleared), which hoppers and fairy conditions use;
//! - Fairy-Stockfish through its UCI pipe: the engine is started and has
//!   answered `isready` before the clock starts, which runs from sending
//!   `go perft N` to reading `Nodes searched`.
//!
//! The node counts must agree (and match the published values), otherwise
//! the run fails: a fast wrong perft is no result.
//!
//! `fers-bench fairy [--repeat N] [--quick]` does the same for fairy pieces
//! that Debian's Fairy-Stockfish 11.1 knows as built-ins: a chess variant
//! with paos and maos for rooks and knights (its `cannon` and `horse`), and
//! Capablanca chess (10x8, archbishop and chancellor), defined for fers in
//! its variant-file format. Fairy-Stockfish's counts are the reference.
//!
//! `fers-bench search [--repeat N] [--depth D] [--fsf-depth D]` compares
//! search speed: `fers bench` against `fairy-stockfish bench` (one thread,
//! each engine's own position set at a fixed depth), nodes per second and
//! their ratio (`fers_tools::search_bench`).

use clap::{value_parser, Arg, ArgAction, Command};
use fers_core::variant::{self, Variant};
use fers_core::{perft, Position};
use fers_tests::fsf::{self, Engine};
use std::process::ExitCode;
use std::time::Instant;

struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    /// Published count at `depth`, the check that does not depend on either
    /// program.
    expected: u64,
}

const CASES: [Case; 2] = [
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        expected: 119_060_324,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        expected: 193_690_690,
    },
];

/// Published counts one ply shallower, for `--quick` (a smoke run).
const QUICK_EXPECTED: [u64; 2] = [4_865_609, 4_085_603];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Who {
    Fers,
    FersGeneral,
    Fsf,
}

impl Who {
    fn label(self) -> &'static str {
        match self {
            Who::Fers => "fers",
            Who::FersGeneral => "fers (general path)",
            Who::Fsf => "fairy-stockfish",
        }
    }
}

/// The fairy benchmark variants: fers' definition, Fairy-Stockfish 11.1's
/// (a variant file with its built-in pieces, or a built-in variant).
const FERS_FAIRY: &str = "\
[paomao:chess]
piece.o = pao
piece.m = mao
piece.r = -
piece.n = -
start = omb1kbmo/pppppppp/8/8/8/8/PPPPPPPP/OMB1KBMO w - - 0 1
promotion = q o m b
castling = false

[capablanca:chess]
files = 10
piece.a = betza:BN
piece.c = betza:RN
start = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotion = q r b n a c
castlingKingsideFile = i
castlingQueensideFile = c
";
const FSF_FAIRY: &str = "\
[paomao:chess]
cannon = o
horse = m
rook = -
knight = -
startFen = omb1kbmo/pppppppp/8/8/8/8/PPPPPPPP/OMB1KBMO w - - 0 1
promotionPieceTypes = qomb
castling = false
";
/// (variant, depth)
const FAIRY_CASES: [(&str, u32); 2] = [("paomao", 6), ("capablanca", 5)];

struct Row {
    case: &'static str,
    who: Who,
    nodes: u64,
    seconds: f64,
}

/// `--repeat N`, shared by every subcommand.
fn repeat_arg() -> Arg {
    Arg::new("repeat")
        .long("repeat")
        .value_name("N")
        .default_value("1")
        .value_parser(value_parser!(u32).range(1..))
        .help("Time each measurement N times and keep the best")
}

/// `--quick`, for the perft subcommands.
fn quick_arg() -> Arg {
    Arg::new("quick")
        .long("quick")
        .action(ArgAction::SetTrue)
        .help("One ply shallower on each position (a smoke run, not a benchmark)")
}

/// `--fsf PATH`, shared by every subcommand.
fn fsf_arg() -> Arg {
    Arg::new("fsf").long("fsf").value_name("PATH").help(
        "Fairy-Stockfish binary (default: $FERS_FAIRY_STOCKFISH, PATH, /usr/games/fairy-stockfish)",
    )
}

fn cli() -> Command {
    Command::new("fers-bench")
        .about("fers speed against Fairy-Stockfish, as ratios measured in one run")
        .subcommand_required(true)
        .subcommand(
            Command::new("perft")
                .about("perft leaves/s: fers (fast and general legality paths) vs Fairy-Stockfish")
                .arg(repeat_arg())
                .arg(quick_arg())
                .arg(fsf_arg()),
        )
        .subcommand(
            Command::new("search")
                .about("search nodes/s: `fers bench` vs `fairy-stockfish bench`")
                .arg(repeat_arg())
                .arg(
                    Arg::new("depth")
                        .long("depth")
                        .value_name("D")
                        .value_parser(value_parser!(u32).range(1..=64))
                        .help("fers bench depth (default: fers' own)"),
                )
                .arg(
                    Arg::new("fsf-depth")
                        .long("fsf-depth")
                        .value_name("D")
                        .default_value("13")
                        .value_parser(value_parser!(u32).range(1..=64))
                        .help("Fairy-Stockfish bench depth"),
                )
                .arg(
                    Arg::new("fers")
                        .long("fers")
                        .value_name("PATH")
                        .help("fers binary (default: the one next to fers-bench)"),
                )
                .arg(fsf_arg()),
        )
        .subcommand(
            Command::new("fairy")
                .about("perft leaves/s on fairy pieces (pao+mao, Capablanca) vs Fairy-Stockfish")
                .arg(repeat_arg())
                .arg(quick_arg())
                .arg(fsf_arg()),
        )
}

fn fairy_bench(repeat: u32, quick: bool, fsf_path: Option<&str>) -> Result<(), String> {
    let path = fsf_path
        .map(std::path::PathBuf::from)
        .or_else(fsf::find_binary)
        .ok_or("fairy-stockfish not found (apt-get install fairy-stockfish)")?;
    let mut engine = Engine::start(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let ini = std::env::temp_dir().join(format!("fers-bench-fairy-{}.ini", std::process::id()));
    std::fs::write(&ini, FSF_FAIRY).map_err(|e| e.to_string())?;
    engine
        .send(&format!(
            "setoption name VariantPath value {}",
            ini.display()
        ))
        .map_err(|e| e.to_string())?;
    let sections = fers_core::variant_file::load("fers-bench", FERS_FAIRY, &|_| None);
    eprintln!(
        "best of {repeat} run(s) per measurement{}",
        if quick { ", quick depths" } else { "" }
    );
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (name, depth) in FAIRY_CASES {
        let depth = if quick { depth - 1 } else { depth };
        let v = sections
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.result.as_ref().ok())
            .copied()
            .ok_or_else(|| format!("{name}: fers definition does not load"))?;
        let pos = Position::startpos(v);
        let (n_fers, s_fers) = best_of(repeat, || Ok(perft::perft(&pos, depth)))?;
        engine.set_variant(name).map_err(|e| e.to_string())?;
        engine
            .set_position(&v.start_fen)
            .map_err(|e| e.to_string())?;
        engine.sync().map_err(|e| e.to_string())?;
        let (n_fsf, s_fsf) = best_of(repeat, || {
            engine
                .go_perft(depth)
                .map(|d| d.total)
                .map_err(|e| e.to_string())
        })?;
        eprintln!("  {name:<11} perft {depth}: fers {n_fers} in {s_fers:.3} s, fsf {n_fsf} in {s_fsf:.3} s");
        if n_fers != n_fsf {
            errors.push(format!(
                "{name} perft {depth}: fers {n_fers}, Fairy-Stockfish {n_fsf}"
            ));
        }
        rows.push(Row {
            case: name,
            who: Who::Fers,
            nodes: n_fers,
            seconds: s_fers,
        });
        rows.push(Row {
            case: name,
            who: Who::Fsf,
            nodes: n_fsf,
            seconds: s_fsf,
        });
    }
    let _ = std::fs::remove_file(&ini);
    print_table(&rows);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("node counts disagree:\n  {}", errors.join("\n  ")))
    }
}

/// Chess forced onto the general legality path: both flags that choose the
/// fast path in fers-core (`pin_legality`: pins and check masks; `simple`:
/// castling from the attack plan) are cleared.
fn general_chess() -> &'static Variant {
    let mut v = Variant::build(variant::chess_spec()).expect("chess builds");
    v.simple = false;
    v.pin_legality = false;
    variant::leak(v)
}

/// Best (shortest) of `repeat` timings of `f`; every run must give the same
/// count.
fn best_of(repeat: u32, mut f: impl FnMut() -> Result<u64, String>) -> Result<(u64, f64), String> {
    let mut best: Option<(u64, f64)> = None;
    for _ in 0..repeat {
        let t = Instant::now();
        let n = f()?;
        let s = t.elapsed().as_secs_f64();
        if let Some((prev, _)) = best {
            if prev != n {
                return Err(format!("two runs counted {prev} and {n}"));
            }
        }
        // (A match rather than `is_none_or`, which needs Rust 1.82.)
        let better = match best {
            None => true,
            Some((_, b)) => s < b,
        };
        if better {
            best = Some((n, s));
        }
    }
    Ok(best.expect("repeat >= 1"))
}

fn perft_bench(repeat: u32, quick: bool, fsf_path: Option<&str>) -> Result<(), String> {
    let fast = variant::chess();
    let general = general_chess();
    let mut engine = match fsf_path
        .map(std::path::PathBuf::from)
        .or_else(fsf::find_binary)
    {
        Some(p) => Some(Engine::start(&p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => {
            eprintln!(
                "warning: fairy-stockfish not found (apt-get install fairy-stockfish): \
                 no ratios"
            );
            None
        }
    };
    if let Some(e) = &engine {
        eprintln!("fairy-stockfish: {}", e.path().display());
    }
    eprintln!(
        "best of {repeat} run(s) per measurement{}",
        if quick { ", quick depths" } else { "" }
    );

    let mut rows: Vec<Row> = Vec::new();
    let mut errors = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        let (depth, expected) = if quick {
            (case.depth - 1, QUICK_EXPECTED[i])
        } else {
            (case.depth, case.expected)
        };
        for who in [Who::Fers, Who::FersGeneral, Who::Fsf] {
            let measured = match who {
                Who::Fers | Who::FersGeneral => {
                    let v = if who == Who::Fers { fast } else { general };
                    let pos = Position::from_fen(v, case.fen).map_err(|e| e.to_string())?;
                    best_of(repeat, || Ok(perft::perft(&pos, depth)))
                }
                Who::Fsf => {
                    let Some(e) = engine.as_mut() else { continue };
                    // Position set and acknowledged before the clock starts:
                    // only the perft itself is timed. It stays set for the
                    // repeats.
                    e.set_position(case.fen).map_err(|e| e.to_string())?;
                    e.sync().map_err(|e| e.to_string())?;
                    best_of(repeat, || {
                        e.go_perft(depth)
                            .map(|d| d.total)
                            .map_err(|e| e.to_string())
                    })
                }
            };
            let (nodes, seconds) =
                measured.map_err(|e| format!("{} {}: {e}", case.name, who.label()))?;
            eprintln!(
                "  {:<9} {:<20} {nodes:>11} nodes {seconds:>8.3} s",
                case.name,
                who.label()
            );
            if nodes != expected {
                errors.push(format!(
                    "{} depth {depth}: {} counted {nodes}, published {expected}",
                    case.name,
                    who.label()
                ));
            }
            rows.push(Row {
                case: case.name,
                who,
                nodes,
                seconds,
            });
        }
    }

    print_table(&rows);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("node counts disagree:\n  {}", errors.join("\n  ")))
    }
}

fn print_table(rows: &[Row]) {
    let speed = |n: u64, s: f64| n as f64 / s.max(1e-9);
    let fsf_speed = |case: &str| {
        let (n, s) = rows
            .iter()
            .filter(|r| r.who == Who::Fsf && (case.is_empty() || r.case == case))
            .fold((0, 0.0), |(n, s), r| (n + r.nodes, s + r.seconds));
        (n > 0).then(|| speed(n, s))
    };
    println!();
    println!(
        "| position | engine | nodes | seconds | leaves/s | ratio vs FSF |\n\
         |---|---|---:|---:|---:|---:|"
    );
    let line = |case: &str, who: Who, n: u64, s: f64, reference: Option<f64>| {
        let ratio = match (who, reference) {
            (Who::Fsf, Some(_)) => "1.00".to_string(),
            (_, Some(r)) => format!("{:.2}", speed(n, s) / r),
            (_, None) => "n/a".to_string(),
        };
        println!(
            "| {case} | {} | {n} | {s:.3} | {:.2} M | {ratio} |",
            who.label(),
            speed(n, s) / 1e6
        );
    };
    for r in rows {
        line(r.case, r.who, r.nodes, r.seconds, fsf_speed(r.case));
    }
    // Overall: total nodes over total time of both positions, so the larger
    // tree weighs more, as when the two are run back to back.
    for who in [Who::Fers, Who::FersGeneral, Who::Fsf] {
        let (n, s) = rows
            .iter()
            .filter(|r| r.who == who)
            .fold((0, 0.0), |(n, s), r| (n + r.nodes, s + r.seconds));
        if n > 0 {
            line("overall", who, n, s, fsf_speed(""));
        }
    }
}

/// `fers bench` against `fairy-stockfish bench`: nps and their ratio.
fn search_bench(
    repeat: u32,
    depth: Option<u32>,
    fsf_depth: u32,
    fers_path: Option<&str>,
    fsf_path: Option<&str>,
) -> Result<(), String> {
    use fers_tools::search_bench::{best_of, sibling_fers};
    let fers = fers_path
        .map(std::path::PathBuf::from)
        .or_else(sibling_fers)
        .ok_or(
            "fers binary not found next to fers-bench (cargo build -p fers-engine, or --fers PATH)",
        )?;
    let fsf = fsf_path
        .map(std::path::PathBuf::from)
        .or_else(fsf::find_binary)
        .ok_or("fairy-stockfish not found (apt-get install fairy-stockfish)")?;
    let mut fers_args = vec!["bench".to_string()];
    fers_args.extend(depth.map(|d| d.to_string()));
    // Stockfish's bench arguments: hash (MB), threads, limit, positions, limit type.
    let fsf_args: Vec<String> = [
        "bench",
        "16",
        "1",
        &fsf_depth.to_string(),
        "default",
        "depth",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    eprintln!("best of {repeat} run(s) per engine");
    let ours = best_of(repeat, &fers, &fers_args).map_err(|e| e.to_string())?;
    eprintln!(
        "  fers            {:>11} nodes {:>10} nps",
        ours.nodes, ours.nps
    );
    let theirs = best_of(repeat, &fsf, &fsf_args).map_err(|e| e.to_string())?;
    eprintln!(
        "  fairy-stockfish {:>11} nodes {:>10} nps",
        theirs.nodes, theirs.nps
    );
    println!();
    println!("| engine | bench | nodes | nodes/s | ratio vs FSF |\n|---|---|---:|---:|---:|");
    let depth_text = depth.map_or("default depth".to_string(), |d| format!("depth {d}"));
    let ratio = ours.nps as f64 / (theirs.nps.max(1)) as f64;
    println!(
        "| fers | {depth_text} | {} | {:.2} M | {ratio:.2} |",
        ours.nodes,
        ours.nps as f64 / 1e6
    );
    println!(
        "| fairy-stockfish | depth {fsf_depth} | {} | {:.2} M | 1.00 |",
        theirs.nodes,
        theirs.nps as f64 / 1e6
    );
    Ok(())
}

fn main() -> ExitCode {
    let matches = cli().get_matches();
    let result = match matches.subcommand() {
        Some(("perft", m)) => perft_bench(
            *m.get_one::<u32>("repeat").expect("has a default"),
            m.get_flag("quick"),
            m.get_one::<String>("fsf").map(String::as_str),
        ),
        Some(("fairy", m)) => fairy_bench(
            *m.get_one::<u32>("repeat").expect("has a default"),
            m.get_flag("quick"),
            m.get_one::<String>("fsf").map(String::as_str),
        ),
        Some(("search", m)) => search_bench(
            *m.get_one::<u32>("repeat").expect("has a default"),
            m.get_one::<u32>("depth").copied(),
            *m.get_one::<u32>("fsf-depth").expect("has a default"),
            m.get_one::<String>("fers").map(String::as_str),
            m.get_one::<String>("fsf").map(String::as_str),
        ),
        _ => unreachable!("clap requires a subcommand"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fers-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
