//! fers-tools: shared code of the command-line tools.
//!
//! The match runner (`fers-match`) is built from one module per concern:
//! engine processes and their protocol drivers (`process`, `engine`, `uci`,
//! `xboard`), the referee and its adjudication (`referee`, `adjudication`),
//! time controls (`timecontrol`), openings (`openings`), PGN and SAN
//! (`pgn`, `san`), statistics and SPRT (`stats`), the scheduler
//! (`tournament`) and the cutechess-style command line (`match_cli`).
//! `perft_compare` serves `fers-perft`, `search_bench` the `search` mode
//! of `fers-bench`, `value_fit` the `-values` mode of `fers-tune`.

pub mod adjudication;
pub mod book_cli;
pub mod engine;
pub mod match_cli;
pub mod nnue_data;
pub mod openings;
pub mod perft_compare;
pub mod pgn;
pub mod pgn_games;
pub mod pgn_stats;
pub mod process;
pub mod referee;
pub mod san;
pub mod search_bench;
pub mod solve;
pub mod stats;
pub mod timecontrol;
pub mod tournament;
pub mod uci;
pub mod value_fit;
pub mod xboard;
