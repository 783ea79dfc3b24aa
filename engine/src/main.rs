//! The `fers` binary: speaks UCI, USI or XBoard over stdin/stdout (the
//! first command chooses). `fers bench [depth]` runs the benchmark and
//! exits; `fers load FILE...` first loads variant files (as
//! `VariantPath` would), for GUIs that cannot set an option before they
//! ask which variants the engine plays (XBoard's `feature variants`).

use fers_engine::engine::{Engine, OptionEffect};
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => serve(Engine::new()),
        Some("bench") => bench(args.get(1)),
        Some("load") if args.len() > 1 => match load(&args[1..]) {
            Some(engine) => serve(engine),
            None => ExitCode::from(2),
        },
        Some(arg) => {
            eprintln!(
                "fers: unknown argument '{arg}' (run without arguments to speak UCI, USI \
                 or XBoard, 'fers load FILE...' to load variant files first, or \
                 'fers bench [depth]')"
            );
            ExitCode::from(2)
        }
    }
}

fn bench(depth: Option<&String>) -> ExitCode {
    let depth = match depth.map(|d| d.parse::<i32>()) {
        None => fers_engine::bench::BENCH_DEPTH,
        Some(Ok(d)) if (1..=64).contains(&d) => d,
        Some(_) => {
            eprintln!("fers: bench depth must be a number from 1 to 64");
            return ExitCode::from(2);
        }
    };
    fers_engine::bench::run(depth, &|line: &str| {
        let mut o = io::stdout().lock();
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    });
    ExitCode::SUCCESS
}

/// An engine with the variants of `files`. A broken section is reported on
/// stderr and skipped (the others load); an unreadable file is fatal.
fn load(files: &[String]) -> Option<Engine> {
    let mut engine = Engine::new();
    for f in files {
        match engine.set_option("VariantPath", Some(f)) {
            Ok(OptionEffect::VariantsLoaded(report)) => {
                for e in report.into_iter().filter_map(Result::err) {
                    eprintln!("fers: {e}");
                }
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("fers: {e}");
                return None;
            }
        }
    }
    Some(engine)
}

/// Speaks the protocol chosen by the first command. Errors reading stdin
/// or writing stdout mean the GUI has gone away: `run` ends quietly then,
/// and that is a clean exit.
fn serve(engine: Engine) -> ExitCode {
    let input = io::BufReader::new(io::stdin());
    match fers_engine::protocol::run_engine(input, io::stdout().lock(), engine) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fers: {e}");
            ExitCode::FAILURE
        }
    }
}
