//! `fers-solve`: the problem solver's command line. The solving itself is
//! `fers_core::solve` (shared with `go mate` of the engine); here are the
//! Popeye input reader (`popeye`), the output (`output`) and the command
//! line (`cli`).

pub mod cli;
pub mod output;
pub mod popeye;
