//! The `fers` binary: speaks UCI over stdin/stdout.

use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(arg) = std::env::args().nth(1) {
        eprintln!("fers: unknown argument '{arg}' (run without arguments to speak UCI)");
        return ExitCode::from(2);
    }
    // Errors reading stdin or writing stdout mean the GUI has gone away:
    // `run` ends quietly then, and that is a clean exit.
    match fers_engine::uci::run(io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fers: {e}");
            ExitCode::FAILURE
        }
    }
}
