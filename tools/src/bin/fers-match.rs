//! fers-match: tournaments between UCI and XBoard engines in any fers
//! variant, refereed by fers-core, with cutechess-cli's flags and result
//! lines. See `fers_tools::match_cli` for the flags and the README for
//! examples.

use fers_tools::match_cli::{self, Command, USAGE};
use fers_tools::tournament;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let m = match match_cli::parse_args(&args) {
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Run(m)) => m,
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
