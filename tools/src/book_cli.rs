//! `fers-book`: builds opening books and measures them.
//!
//! - `build`: from PGN files (as `fers-match` writes them, any variant; a
//!   variant file gives the custom ones), a fers book or, for chess, a
//!   Polyglot `.bin`;
//! - `selfplay`: games of fers against itself at a fixed node count (the
//!   first plies random, for variety), turned into a book the same way;
//! - `probe`: the book moves of a position, as the engine would read them;
//! - `bench`: lookup time and memory of a fers book of N positions;
//! - `openings`: distinct positions after a few random legal plies, one
//!   FEN a line, as `fers-match -openings format=fen` reads them.

use crate::match_cli::resolve_variant;
use crate::pgn_games::read_games;
use fers_book::any::AnyBook;
use fers_book::build::{Builder, Filters, Format, GameResult};
use fers_book::fers::{self, BookMove, FersBook, NewEntry};
use fers_core::variant::Variant;
use fers_core::{Game, MoveList, Position};
use fers_engine::{Limits, Reporter, SearchPool};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// A progress bar on stderr (hidden when stderr is not a terminal).
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let b = ProgressBar::new(len);
    let template = format!("{{bar:30}} {{pos}}/{{len}} {what} [{{elapsed_precise}} < {{eta}}]");
    b.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b
}

/// What a build read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub games_read: usize,
    pub games_used: u64,
    /// Games of another variant, or with an unknown result.
    pub games_skipped: usize,
    pub entries: usize,
    pub warnings: Vec<String>,
}

/// The variant to build for: `name`, else the `Variant` tag of the first
/// game, resolved in `variant_file` or among the built-in variants.
pub fn variant_for(
    name: Option<&str>,
    variant_file: Option<&PathBuf>,
    first_pgn: Option<&str>,
) -> Result<&'static Variant, String> {
    let name = match (name, first_pgn) {
        (Some(n), _) => n.to_string(),
        (None, Some(text)) => read_games(text)
            .first()
            .map(|g| g.variant_name())
            .unwrap_or_else(|| "chess".into()),
        (None, None) => "chess".into(),
    };
    resolve_variant(&name, variant_file)
        .map(|(v, _)| v)
        .map_err(|e| e.to_string())
}

/// Builds a book from PGN files. Games of another variant than `variant`
/// are skipped; a move that is not legal is an error naming the game.
pub fn build_from_pgn(
    pgns: &[PathBuf],
    variant: &'static Variant,
    format: Format,
    filters: Filters,
    out: &Path,
    progress: bool,
) -> Result<BuildReport, String> {
    let mut builder = Builder::new(variant, format, filters).map_err(|e| e.to_string())?;
    let mut report = BuildReport::default();
    for file in pgns {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let games = read_games(&text);
        let b = progress.then(|| bar(games.len() as u64, "games"));
        for g in &games {
            report.games_read += 1;
            if let Some(b) = &b {
                b.inc(1);
            }
            let name = g.variant_name();
            if !name.eq_ignore_ascii_case(&variant.name) {
                report.games_skipped += 1;
                continue;
            }
            let r = g
                .replay(variant, filters.max_ply)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            if !builder
                .add_game(&r.start, &r.moves, r.result)
                .map_err(|e| e.to_string())?
            {
                report.games_skipped += 1;
            }
        }
        if let Some(b) = b {
            b.finish_and_clear();
        }
    }
    report.games_used = builder.games();
    report.entries = builder.write(out).map_err(|e| e.to_string())?;
    Ok(report)
}

/// The settings of a self-play build.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub games: usize,
    pub nodes: u64,
    /// Plies played at random at the start of each game.
    pub random_plies: usize,
    /// A game still running after this many plies counts as a draw.
    pub max_game_plies: usize,
    pub seed: u64,
    pub hash_mb: usize,
}

/// Plays `s.games` games of fers against itself and builds a book of them.
pub fn build_from_selfplay(
    variant: &'static Variant,
    format: Format,
    filters: Filters,
    s: &SelfPlay,
    out: &Path,
    progress: bool,
) -> Result<BuildReport, String> {
    let mut builder = Builder::new(variant, format, filters).map_err(|e| e.to_string())?;
    let mut pool = SearchPool::new(s.hash_mb.max(1));
    let quiet: Reporter = Arc::new(|_| {});
    let mut rng = StdRng::seed_from_u64(s.seed);
    let mut report = BuildReport::default();
    let b = progress.then(|| bar(s.games as u64, "games"));
    let mut list = MoveList::new();
    for _ in 0..s.games {
        pool.clear_hash();
        let start = Position::startpos(variant);
        let mut game = Game::new(start.clone());
        let mut result = GameResult::Draw;
        while game.moves().len() < s.max_game_plies {
            if let Some(o) = game.outcome() {
                result = match o {
                    fers_core::game::Outcome::Win(fers_core::Color::White, _) => {
                        GameResult::WhiteWins
                    }
                    fers_core::game::Outcome::Win(_, _) => GameResult::BlackWins,
                    fers_core::game::Outcome::Draw(_) => GameResult::Draw,
                };
                break;
            }
            let m = if game.moves().len() < s.random_plies {
                game.position().legal_moves(&mut list);
                list.get(rng.gen_range(0..list.len()))
            } else {
                let limits = Limits {
                    nodes: Some(s.nodes),
                    ..Limits::default()
                };
                match pool.search_sync(&game, limits, quiet.clone()).best {
                    Some(m) => m,
                    None => break,
                }
            };
            game.play(m);
        }
        report.games_read += 1;
        builder
            .add_game(&start, game.moves(), result)
            .map_err(|e| e.to_string())?;
        if let Some(b) = &b {
            b.inc(1);
        }
    }
    if let Some(b) = b {
        b.finish_and_clear();
    }
    report.games_used = builder.games();
    report.entries = builder.write(out).map_err(|e| e.to_string())?;
    Ok(report)
}

/// The book moves of a position, one line each: `<move> <weight>`, and
/// for fers books ` <wins> <draws> <losses>` of the side playing it.
pub fn probe(book: &Path, pos: &Position) -> Result<Vec<String>, String> {
    let b = AnyBook::open(book).map_err(|e| e.to_string())?;
    match &b {
        AnyBook::Fers(f) => Ok(f
            .moves(pos)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(m, s)| {
                format!(
                    "{} {} {} {} {}",
                    pos.move_to_uci(m),
                    s.weight,
                    s.wins,
                    s.draws,
                    s.losses
                )
            })
            .collect()),
        AnyBook::Polyglot(_) => Ok(b
            .moves(pos)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(m, w)| format!("{} {w}", pos.move_to_uci(m)))
            .collect()),
    }
}

/// What `bench` measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub positions: usize,
    pub entries: u64,
    pub file_bytes: u64,
    pub open_ms: f64,
    /// Heap the open book holds (move strings, name).
    pub book_heap_bytes: usize,
    /// Resident set growth from before opening to after the lookups
    /// (Linux `/proc/self/status`; `None` elsewhere).
    pub rss_growth_kb: Option<i64>,
    pub lookups: usize,
    pub hit_ns: f64,
    pub miss_ns: f64,
    /// CPU time (user + system) per stored-key lookup, where measurable.
    pub hit_cpu_ns: Option<f64>,
    pub position_ns: f64,
}

/// CPU time (user + system) of this thread in seconds (Linux), so that
/// lookups are timed apart from other processes on a loaded machine.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the parenthesised name: utime and stime are 14 and 15.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn rss_kb() -> Option<i64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Builds a fers book of `positions` distinct positions of random games
/// of `variant` (one to three moves each), then times `lookups` lookups of
/// stored keys, of absent keys, and of whole positions (key, lookup and
/// legality check of the moves, as the engine does).
pub fn bench(
    variant: &'static Variant,
    positions: usize,
    lookups: usize,
    file: &Path,
    progress: bool,
) -> Result<BenchReport, String> {
    let mut rng = StdRng::seed_from_u64(20);
    let mut entries: Vec<NewEntry> = Vec::with_capacity(positions * 2);
    let mut seen = std::collections::HashSet::with_capacity(positions);
    let mut sample: Vec<Position> = Vec::new();
    let mut list = MoveList::new();
    let b = progress.then(|| bar(positions as u64, "positions"));
    while seen.len() < positions {
        let mut pos = Position::startpos(variant);
        for _ in 0..80 {
            pos.legal_moves(&mut list);
            if list.is_empty() || seen.len() >= positions {
                break;
            }
            let moves = list.to_vec();
            if seen.insert(pos.key()) {
                if sample.len() < lookups && rng.gen_bool(0.05) {
                    sample.push(pos.clone());
                }
                for _ in 0..rng.gen_range(1..=3) {
                    let m = moves[rng.gen_range(0..moves.len())];
                    let w = rng.gen_range(1..100);
                    entries.push(NewEntry {
                        key: pos.key(),
                        mv: BookMove {
                            mv: pos.move_to_uci(m),
                            weight: w,
                            wins: w,
                            draws: 0,
                            losses: 0,
                        },
                    });
                }
                if let Some(b) = &b {
                    b.inc(1);
                }
            }
            pos.play(moves[rng.gen_range(0..moves.len())]);
        }
    }
    if let Some(b) = b {
        b.finish_and_clear();
    }
    entries.dedup();
    let keys: Vec<u64> = {
        let mut k: Vec<u64> = seen.iter().copied().collect();
        k.sort_unstable();
        k
    };
    drop(seen);
    fers::write(file, variant, entries).map_err(|e| e.to_string())?;
    let file_bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let hits: Vec<u64> = (0..lookups)
        .map(|_| keys[rng.gen_range(0..keys.len())])
        .collect();
    let misses: Vec<u64> = (0..lookups)
        .map(|_| rng.gen::<u64>())
        .filter(|k| keys.binary_search(k).is_err())
        .collect();
    drop(keys);

    let rss_before = rss_kb();
    let t = Instant::now();
    let book = FersBook::open(file).map_err(|e| e.to_string())?;
    let open_ms = t.elapsed().as_secs_f64() * 1000.0;
    let time = |keys: &[u64]| -> Result<f64, String> {
        let t = Instant::now();
        let mut found = 0usize;
        for &k in keys {
            found += book.lookup(k).map_err(|e| e.to_string())?.len();
        }
        std::hint::black_box(found);
        Ok(t.elapsed().as_secs_f64() * 1e9 / keys.len().max(1) as f64)
    };
    let cpu = thread_cpu_seconds();
    let hit_ns = time(&hits)?;
    let hit_cpu_ns = match (cpu, thread_cpu_seconds()) {
        (Some(a), Some(b)) => Some((b - a) * 1e9 / hits.len().max(1) as f64),
        _ => None,
    };
    let miss_ns = time(&misses)?;
    let t = Instant::now();
    for p in &sample {
        let m = book.moves(p).map_err(|e| e.to_string())?;
        if m.is_empty() {
            return Err(format!("bench: no book move found for {}", p.to_fen()));
        }
    }
    let position_ns = t.elapsed().as_secs_f64() * 1e9 / sample.len().max(1) as f64;
    let rss_growth_kb = match (rss_before, rss_kb()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok(BenchReport {
        positions,
        entries: book.len(),
        file_bytes,
        open_ms,
        book_heap_bytes: book.heap_bytes(),
        rss_growth_kb,
        lookups: hits.len(),
        hit_ns,
        miss_ns,
        hit_cpu_ns,
        position_ns,
    })
}

/// `count` distinct positions of `variant`, each reached from the start by
/// `plies` random legal moves (seeded), none of them over or without a
/// move, as FEN lines. The openings of a match between engine builds: each
/// is played with both colours, so their imbalance cancels out.
pub fn random_openings(
    variant: &'static Variant,
    count: usize,
    plies: usize,
    seed: u64,
) -> Result<Vec<String>, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::with_capacity(count);
    let mut out = Vec::with_capacity(count);
    let mut list = MoveList::new();
    // Few positions lie so few plies deep: give up rather than loop.
    let mut tries = 0usize;
    while out.len() < count {
        tries += 1;
        if tries > 100 * count + 1000 {
            return Err(format!(
                "only {} distinct positions found {plies} plies deep",
                out.len()
            ));
        }
        let mut game = Game::new(Position::startpos(variant));
        while game.moves().len() < plies && game.outcome().is_none() {
            game.position().legal_moves(&mut list);
            let m = list.get(rng.gen_range(0..list.len()));
            game.play(m);
        }
        let pos = game.position();
        if game.moves().len() == plies && game.outcome().is_none() && seen.insert(pos.key()) {
            out.push(pos.to_fen());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    #[test]
    fn bench_small_book() {
        let file = std::env::temp_dir().join(format!("fers-bench-{}.fbk", std::process::id()));
        let r = bench(variant::chess(), 2000, 200, &file, false).unwrap();
        assert_eq!(r.positions, 2000);
        assert!(r.entries >= 2000, "{r:?}");
        assert!(r.hit_ns > 0.0 && r.miss_ns > 0.0);
        let _ = std::fs::remove_file(file);
    }

    #[test]
    fn selfplay_book_has_the_start_position() {
        let file = std::env::temp_dir().join(format!("fers-selfplay-{}.fbk", std::process::id()));
        let s = SelfPlay {
            games: 2,
            nodes: 200,
            random_plies: 2,
            max_game_plies: 30,
            seed: 1,
            hash_mb: 1,
        };
        let v = variant::chess();
        let r = build_from_selfplay(v, Format::Fers, Filters::default(), &s, &file, false).unwrap();
        assert_eq!(r.games_used, 2);
        let lines = probe(&file, &Position::startpos(v)).unwrap();
        assert!(!lines.is_empty());
        let _ = std::fs::remove_file(file);
    }
}
