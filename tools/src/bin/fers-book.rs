//! fers-book: builds opening books (fers books for any variant, Polyglot
//! `.bin` for chess) from PGN files or self-play, probes them, and measures
//! lookups. See `fers_tools::book_cli` and the README.

use clap::{value_parser, Arg, ArgAction, ArgMatches, Command};
use fers_book::build::{Filters, Format};
use fers_tools::book_cli::{self, BuildReport, SelfPlay};
use std::path::PathBuf;
use std::process::ExitCode;

fn variant_args(c: Command) -> Command {
    c.arg(
        Arg::new("variant")
            .long("variant")
            .help("the variant (default: the Variant tag of the first game, else chess)"),
    )
    .arg(
        Arg::new("variant-file")
            .long("variant-file")
            .value_parser(value_parser!(PathBuf))
            .help("a variant file defining the variant"),
    )
}

fn build_args(c: Command) -> Command {
    variant_args(c)
        .arg(
            Arg::new("out")
                .long("out")
                .short('o')
                .required(true)
                .value_parser(value_parser!(PathBuf))
                .help("the book to write"),
        )
        .arg(
            Arg::new("format")
                .long("format")
                .value_parser(["fers", "polyglot"])
                .help(
                    "fers (any variant) or polyglot (chess); default: polyglot for .bin, else fers",
                ),
        )
        .arg(
            Arg::new("max-ply")
                .long("max-ply")
                .default_value("20")
                .value_parser(value_parser!(usize))
                .help("only the first N plies of each game"),
        )
        .arg(
            Arg::new("min-games")
                .long("min-games")
                .default_value("1")
                .value_parser(value_parser!(u32))
                .help("keep moves played in at least N games"),
        )
        .arg(
            Arg::new("min-score")
                .long("min-score")
                .default_value("0")
                .value_parser(value_parser!(f64))
                .help("keep moves scoring at least this percentage for their side"),
        )
        .arg(
            Arg::new("quiet")
                .long("quiet")
                .short('q')
                .action(ArgAction::SetTrue)
                .help("no progress bar"),
        )
}

fn cli() -> Command {
    Command::new("fers-book")
        .about("builds, probes and measures fers and Polyglot opening books")
        .subcommand_required(true)
        .subcommand(build_args(
            Command::new("build").about("a book from PGN games").arg(
                Arg::new("pgn")
                    .required(true)
                    .num_args(1..)
                    .value_parser(value_parser!(PathBuf))
                    .help("PGN files"),
            ),
        ))
        .subcommand(build_args(
            Command::new("selfplay")
                .about("a book from games of fers against itself at fixed nodes")
                .arg(
                    Arg::new("games")
                        .long("games")
                        .default_value("100")
                        .value_parser(value_parser!(usize)),
                )
                .arg(
                    Arg::new("nodes")
                        .long("nodes")
                        .default_value("20000")
                        .value_parser(value_parser!(u64))
                        .help("nodes per move"),
                )
                .arg(
                    Arg::new("random-plies")
                        .long("random-plies")
                        .default_value("2")
                        .value_parser(value_parser!(usize))
                        .help("plies played at random at the start of each game"),
                )
                .arg(
                    Arg::new("max-game-plies")
                        .long("max-game-plies")
                        .default_value("300")
                        .value_parser(value_parser!(usize))
                        .help("a game still running after N plies is a draw"),
                )
                .arg(
                    Arg::new("seed")
                        .long("seed")
                        .default_value("1")
                        .value_parser(value_parser!(u64)),
                ),
        ))
        .subcommand(variant_args(
            Command::new("probe")
                .about("the book moves of a position")
                .arg(
                    Arg::new("book")
                        .required(true)
                        .value_parser(value_parser!(PathBuf)),
                )
                .arg(
                    Arg::new("fen")
                        .long("fen")
                        .help("the position (default: the start)"),
                )
                .arg(
                    Arg::new("moves")
                        .long("moves")
                        .num_args(1..)
                        .help("moves played from the position first (SPEC notation)"),
                ),
        ))
        .subcommand(variant_args(
            Command::new("openings")
                .about("distinct positions after random legal plies, one FEN a line")
                .arg(
                    Arg::new("count")
                        .long("count")
                        .default_value("200")
                        .value_parser(value_parser!(usize)),
                )
                .arg(
                    Arg::new("plies")
                        .long("plies")
                        .default_value("4")
                        .value_parser(value_parser!(usize)),
                )
                .arg(
                    Arg::new("seed")
                        .long("seed")
                        .default_value("1")
                        .value_parser(value_parser!(u64)),
                )
                .arg(
                    Arg::new("out")
                        .long("out")
                        .short('o')
                        .value_parser(value_parser!(PathBuf))
                        .help("the file to write (default: standard output)"),
                ),
        ))
        .subcommand(variant_args(
            Command::new("bench")
                .about("lookup time and memory of a fers book of N positions")
                .arg(
                    Arg::new("positions")
                        .long("positions")
                        .default_value("1000000")
                        .value_parser(value_parser!(usize)),
                )
                .arg(
                    Arg::new("lookups")
                        .long("lookups")
                        .default_value("100000")
                        .value_parser(value_parser!(usize)),
                )
                .arg(
                    Arg::new("file")
                        .long("file")
                        .value_parser(value_parser!(PathBuf))
                        .help("where to write the book (default: a temporary file, removed)"),
                ),
        ))
}

fn filters(m: &ArgMatches) -> Filters {
    Filters {
        max_ply: *m.get_one::<usize>("max-ply").unwrap_or(&20),
        min_games: *m.get_one::<u32>("min-games").unwrap_or(&1),
        min_score: *m.get_one::<f64>("min-score").unwrap_or(&0.0),
    }
}

fn format(m: &ArgMatches, out: &std::path::Path) -> Format {
    match m.get_one::<String>("format").map(String::as_str) {
        Some("polyglot") => Format::Polyglot,
        Some(_) => Format::Fers,
        None if out.extension().is_some_and(|e| e == "bin") => Format::Polyglot,
        None => Format::Fers,
    }
}

fn print_report(r: &BuildReport, out: &std::path::Path) {
    println!(
        "{} games read, {} used, {} skipped; {} entries written to {}",
        r.games_read,
        r.games_used,
        r.games_skipped,
        r.entries,
        out.display()
    );
}

fn run(m: &ArgMatches) -> Result<(), String> {
    let (name, sub) = m.subcommand().ok_or("a subcommand is needed")?;
    let vname = sub.get_one::<String>("variant").map(String::as_str);
    let vfile = sub.get_one::<PathBuf>("variant-file");
    match name {
        "build" | "selfplay" => {
            let out = sub.get_one::<PathBuf>("out").ok_or("--out is needed")?;
            let progress = !sub.get_flag("quiet");
            let f = filters(sub);
            let fmt = format(sub, out);
            if name == "build" {
                let pgns: Vec<PathBuf> = sub
                    .get_many::<PathBuf>("pgn")
                    .map(|v| v.cloned().collect())
                    .unwrap_or_default();
                let first = match (vname, pgns.first()) {
                    (None, Some(p)) => Some(
                        std::fs::read_to_string(p)
                            .map_err(|e| format!("cannot read {}: {e}", p.display()))?,
                    ),
                    _ => None,
                };
                let v = book_cli::variant_for(vname, vfile, first.as_deref())?;
                let r = book_cli::build_from_pgn(&pgns, v, fmt, f, out, progress)?;
                print_report(&r, out);
            } else {
                let v = book_cli::variant_for(vname, vfile, None)?;
                let s = SelfPlay {
                    games: *sub.get_one::<usize>("games").unwrap_or(&100),
                    nodes: *sub.get_one::<u64>("nodes").unwrap_or(&20000),
                    random_plies: *sub.get_one::<usize>("random-plies").unwrap_or(&2),
                    max_game_plies: *sub.get_one::<usize>("max-game-plies").unwrap_or(&300),
                    seed: *sub.get_one::<u64>("seed").unwrap_or(&1),
                    hash_mb: 16,
                };
                let r = book_cli::build_from_selfplay(v, fmt, f, &s, out, progress)?;
                print_report(&r, out);
            }
        }
        "probe" => {
            let v = book_cli::variant_for(vname, vfile, None)?;
            let book = sub.get_one::<PathBuf>("book").ok_or("a book is needed")?;
            let mut pos = match sub.get_one::<String>("fen") {
                Some(f) => {
                    fers_core::Position::from_fen(v, f).map_err(|e| format!("--fen: {e}"))?
                }
                None => fers_core::Position::startpos(v),
            };
            for mv in sub.get_many::<String>("moves").into_iter().flatten() {
                let m = pos
                    .parse_move(mv)
                    .map_err(|e| format!("--moves {mv}: {e}"))?;
                pos.play(m);
            }
            for line in book_cli::probe(book, &pos)? {
                println!("{line}");
            }
        }
        "openings" => {
            let v = book_cli::variant_for(vname, vfile, None)?;
            let fens = book_cli::random_openings(
                v,
                *sub.get_one::<usize>("count").unwrap_or(&200),
                *sub.get_one::<usize>("plies").unwrap_or(&4),
                *sub.get_one::<u64>("seed").unwrap_or(&1),
            )?;
            let text: String = fens.iter().map(|f| format!("{f}\n")).collect();
            match sub.get_one::<PathBuf>("out") {
                Some(p) => std::fs::write(p, text)
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?,
                None => print!("{text}"),
            }
        }
        "bench" => {
            let v = book_cli::variant_for(vname, vfile, None)?;
            let positions = *sub.get_one::<usize>("positions").unwrap_or(&1_000_000);
            let lookups = *sub.get_one::<usize>("lookups").unwrap_or(&100_000);
            let (file, temp) = match sub.get_one::<PathBuf>("file") {
                Some(f) => (f.clone(), false),
                None => (
                    std::env::temp_dir()
                        .join(format!("fers-book-bench-{}.fbk", std::process::id())),
                    true,
                ),
            };
            let r = book_cli::bench(v, positions, lookups, &file, true);
            if temp {
                let _ = std::fs::remove_file(&file);
            }
            let r = r?;
            println!(
                "book: {} positions, {} entries, {} bytes ({:.1} MB), opened and checked in {:.1} ms",
                r.positions,
                r.entries,
                r.file_bytes,
                r.file_bytes as f64 / 1e6,
                r.open_ms
            );
            println!(
                "memory: {} bytes held by the open book; resident set growth {}",
                r.book_heap_bytes,
                r.rss_growth_kb
                    .map_or("unknown".to_string(), |k| format!("{k} kB"))
            );
            println!(
                "lookup: {:.0} ns per stored key, {:.0} ns per absent key, {:.0} ns per position \
                 (key, lookup, moves checked legal); {} lookups each",
                r.hit_ns, r.miss_ns, r.position_ns, r.lookups
            );
            if let Some(c) = r.hit_cpu_ns {
                println!("lookup CPU time (user + system): {c:.0} ns per stored key");
            }
        }
        other => return Err(format!("unknown subcommand {other}")),
    }
    Ok(())
}

fn main() -> ExitCode {
    let m = cli().get_matches();
    match run(&m) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fers-book: {e}");
            ExitCode::FAILURE
        }
    }
}
