//! The `fers` binary: speaks UCI, USI or XBoard over stdin/stdout (the
//! first command chooses); `fers bench [depth]` runs the benchmark and exits.

use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {}
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<i32>()) {
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
            return ExitCode::SUCCESS;
        }
        Some(arg) => {
            eprintln!(
                "fers: unknown argument '{arg}' (run without arguments to speak UCI, \
                 or 'fers bench [depth]')"
            );
            return ExitCode::from(2);
        }
    }
    // Errors reading stdin or writing stdout mean the GUI has gone away:
    // `run` ends quietly then, and that is a clean exit.
    match fers_engine::protocol::run(io::BufReader::new(io::stdin()), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fers: {e}");
            ExitCode::FAILURE
        }
    }
}
