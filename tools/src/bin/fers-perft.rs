//! fers-perft: perft and divide for any fers variant (built in or from a
//! variant file), from the start position or a FEN plus moves, with
//! nodes/s; `--compare ENGINE` runs the same perft on a UCI engine (e.g.
//! Fairy-Stockfish) and reports the first differing move path.

use clap::{value_parser, Arg, ArgAction, Command};
use fers_core::{perft, Position};
use fers_tools::engine::{EngineConfig, GameSetup, Protocol};
use fers_tools::match_cli::resolve_variant;
use fers_tools::perft_compare::find_difference;
use fers_tools::uci::UciEngine;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

fn cli() -> Command {
    Command::new("fers-perft")
        .about("perft and divide for any fers variant, optionally checked against a UCI engine")
        .arg(Arg::new("depth").required(true).value_parser(value_parser!(u32)).help("plies"))
        .arg(
            Arg::new("variant")
                .short('v')
                .long("variant")
                .value_name("NAME")
                .default_value("chess")
                .help("variant: built in, or defined in --variant-file"),
        )
        .arg(
            Arg::new("variant-file")
                .short('f')
                .long("variant-file")
                .value_parser(value_parser!(PathBuf))
                .help("variant file (fers or Fairy-Stockfish format) that defines --variant"),
        )
        .arg(Arg::new("fen").long("fen").help("start position (default: the variant's)"))
        .arg(
            Arg::new("moves")
                .long("moves")
                .help("moves played from the start position, space separated"),
        )
        .arg(
            Arg::new("divide")
                .short('d')
                .long("divide")
                .action(ArgAction::SetTrue)
                .help("print the count of every root move"),
        )
        .arg(
            Arg::new("compare")
                .long("compare")
                .value_name("ENGINE")
                .help("UCI engine to run the same perft on (go perft)"),
        )
        .arg(
            Arg::new("compare-variant-file")
                .long("compare-variant-file")
                .value_parser(value_parser!(PathBuf))
                .help("VariantPath for the engine (default: --variant-file when it does not know the variant)"),
        )
        .arg(
            Arg::new("compare-option")
                .long("compare-option")
                .value_name("NAME=VALUE")
                .action(ArgAction::Append)
                .help("UCI option for the engine"),
        )
        .arg(
            Arg::new("timeout")
                .long("timeout")
                .value_parser(value_parser!(u64))
                .default_value("600")
                .help("seconds to wait for the engine's perft"),
        )
}

/// Does the engine's `UCI_Variant` option (if any) list the variant?
fn lists_variant(option: Option<&fers_tools::uci::UciOption>, name: &str) -> bool {
    match option {
        None => name.eq_ignore_ascii_case("chess"),
        Some(o) => o.vars.is_empty() || o.vars.iter().any(|v| v.eq_ignore_ascii_case(name)),
    }
}

fn nps(nodes: u64, secs: f64) -> u64 {
    if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    }
}

fn main() -> ExitCode {
    let m = cli().get_matches();
    let depth = *m.get_one::<u32>("depth").expect("required");
    let name = m.get_one::<String>("variant").expect("default");
    let file = m.get_one::<PathBuf>("variant-file");
    let (variant, warnings) = match resolve_variant(name, file) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("fers-perft: {e}");
            return ExitCode::from(2);
        }
    };
    for w in warnings {
        eprintln!("fers-perft: warning: {w}");
    }
    let start = match m.get_one::<String>("fen") {
        Some(f) => match Position::from_fen(variant, f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("fers-perft: bad FEN: {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::startpos(variant),
    };
    let moves: Vec<String> = m
        .get_one::<String>("moves")
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let mut pos = start.clone();
    for mv in &moves {
        match pos.parse_move(mv) {
            Ok(x) => pos.play(x),
            Err(e) => {
                eprintln!("fers-perft: move {mv}: {e}");
                return ExitCode::from(2);
            }
        }
    }

    let t = Instant::now();
    let (divide, total) = if m.get_flag("divide") {
        let d = perft::divide(&pos, depth);
        let total = d.iter().map(|(_, n)| n).sum();
        (d, total)
    } else {
        (Vec::new(), perft::perft(&pos, depth))
    };
    let secs = t.elapsed().as_secs_f64();
    for (mv, n) in &divide {
        println!("{mv}: {n}");
    }
    if !divide.is_empty() {
        println!();
    }
    println!("Nodes: {total}");
    println!("Time: {secs:.3} s");
    println!("NPS: {}", nps(total, secs));

    let Some(cmd) = m.get_one::<String>("compare") else {
        return ExitCode::SUCCESS;
    };
    let mut cfg = EngineConfig::new(cmd, cmd, Protocol::Uci);
    cfg.variant_file = m.get_one::<PathBuf>("compare-variant-file").cloned();
    for o in m.get_many::<String>("compare-option").into_iter().flatten() {
        let Some((k, v)) = o.split_once('=') else {
            eprintln!("fers-perft: --compare-option wants NAME=VALUE, got '{o}'");
            return ExitCode::from(2);
        };
        cfg.options.push((k.to_string(), v.to_string()));
    }
    let timeout = Duration::from_secs(*m.get_one::<u64>("timeout").expect("default"));
    let run = || -> Result<ExitCode, fers_tools::engine::EngineError> {
        let mut engine = UciEngine::start(&cfg)?;
        let listed = lists_variant(engine.option("UCI_Variant"), &variant.name);
        if !listed && cfg.variant_file.is_none() {
            eprintln!(
                "fers-perft: warning: {cmd} does not list variant {}: it gets VariantPath {} \
                 and must read that file's format (else give --compare-variant-file)",
                variant.name,
                file.map_or("(none)".to_string(), |f| f.display().to_string())
            );
        }
        engine.select_variant(&GameSetup {
            variant,
            variant_file: file.cloned(),
            start: start.clone(),
        })?;
        engine.sync()?;
        let t = Instant::now();
        let (_, their_total) = engine.perft(&start.to_fen(), &moves, depth, timeout)?;
        let secs = t.elapsed().as_secs_f64();
        let label = engine.id_name().unwrap_or(cmd).to_string();
        println!(
            "{label}: Nodes: {their_total} Time: {secs:.3} s NPS: {}",
            nps(their_total, secs)
        );
        if their_total == total {
            println!("agree: {total} nodes");
            return Ok(ExitCode::SUCCESS);
        }
        println!("MISMATCH: fers {total}, {label} {their_total}");
        match find_difference(&mut engine, &start, &moves, depth, timeout)? {
            None => println!("(the divides agree move by move; the totals differ)"),
            Some(d) => {
                let path = if d.path.is_empty() {
                    "(root)".to_string()
                } else {
                    d.path.join(" ")
                };
                println!("first difference after: {path}");
                println!("fen: {}", d.fen);
                println!("depth there: {}", d.depth);
                if !d.only_fers.is_empty() {
                    println!("only fers: {}", d.only_fers.join(" "));
                }
                if !d.only_engine.is_empty() {
                    println!("only {label}: {}", d.only_engine.join(" "));
                }
                for (mv, a, b) in &d.counts {
                    println!("{mv}: fers {a}, {label} {b}");
                }
            }
        }
        Ok(ExitCode::FAILURE)
    };
    match run() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fers-perft: {cmd}: {e}");
            ExitCode::from(2)
        }
    }
}
