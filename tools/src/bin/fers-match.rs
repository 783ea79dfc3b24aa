//! fers-match: tournaments between UCI and XBoard engines in any fers
//! variant, refereed by fers-core, with cutechess-cli's flags and result
//! lines. See `fers_tools::match_cli` for the flags and the README for
//! examples.

use fers_tools::match_cli::{self, Command, USAGE};
use fers_tools::pgn_stats::{paired, EngineGames};
use fers_tools::tournament;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let m = match match_cli::parse_args(&args) {
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Run(m)) => m,
        Ok(Command::Pool { name, files }) => return pool(&name, &files),
        Ok(Command::Paired { a, b }) => return compare(&a, &b),
        Err(e) => {
            eprintln!("fers-match: {e}");
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (config, warnings) = match match_cli::build(&m) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fers-match: {e}");
            return ExitCode::from(2);
        }
    };
    for w in warnings {
        eprintln!("fers-match: warning: {w}");
    }
    match tournament::run(config) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fers-match: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The PGN files' texts, or the first one that cannot be read.
fn read_all(files: &[PathBuf]) -> Result<Vec<String>, String> {
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display())))
        .collect()
}

/// One engine's games in several PGN files, with the runner's result lines.
fn games_of(name: &str, files: &[PathBuf]) -> Result<EngineGames, String> {
    let texts = read_all(files)?;
    EngineGames::read(name, &texts).map_err(|e| e.to_string())
}

/// `-pool`: the runner's result lines.
fn pool(name: &str, files: &[PathBuf]) -> ExitCode {
    report(games_of(name, files).map(|e| e.lines()))
}

/// `-paired`: one line.
fn compare(a: &(String, Vec<PathBuf>), b: &(String, Vec<PathBuf>)) -> ExitCode {
    let line = || -> Result<String, String> {
        let d =
            paired(&games_of(&a.0, &a.1)?, &games_of(&b.0, &b.1)?).map_err(|e| e.to_string())?;
        Ok(d.line(&a.0, &b.0))
    };
    report(line().map(|l| vec![l]))
}

/// Prints the lines, or the error on stderr with a failing status.
fn report(lines: Result<Vec<String>, String>) -> ExitCode {
    match lines {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fers-match: {e}");
            ExitCode::FAILURE
        }
    }
}
