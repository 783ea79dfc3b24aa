//! fers-solve: solves direct mates, self-mates and help-mates under any
//! fers variant and conditions; reads FENs or Popeye input files (see
//! `fers_tools::solve`).

fn main() {
    std::process::exit(fers_tools::solve::cli::main_with(
        std::env::args().collect(),
    ));
}
