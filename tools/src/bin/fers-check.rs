//! fers-check: validates variant files and lists what they define.
//!
//! Usage: `fers-check FILE...`. Prints one line per variant (`ok <name>
//! <board> pieces: ... start: ...`) and one line per error (`error
//! FILE:LINE: reason`). Exits 1 if any section failed, 2 on unreadable files.

use fers_core::variant_file;
use std::process::ExitCode;

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() || files.iter().any(|f| f == "-h" || f == "--help") {
        eprintln!("usage: fers-check FILE...  (validates fers / Fairy-Stockfish variant files)");
        return ExitCode::from(2);
    }
    let mut failed = false;
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error {file}: {e}");
                return ExitCode::from(2);
            }
        };
        for s in variant_file::load(file, &text, &|_| None) {
            match s.result {
                Ok(v) => println!("ok {}", variant_file::describe(v)),
                Err(e) => {
                    failed = true;
                    println!("error {e}");
                }
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
