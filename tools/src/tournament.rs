//! The scheduler: a round-robin between the engines (`games` games per
//! pairing per round, colours alternating, each opening used `repeat` times
//! in a row so that both colours play it), played by `concurrency` worker
//! threads that each keep their own engine processes and restart an engine
//! after a fault. The main thread prints cutechess-style lines, keeps the
//! score, writes the PGN, drives the progress bar and stops early when the
//! SPRT decides.

use crate::engine::{self, Engine, EngineConfig, EngineError, GameSetup};
use crate::openings::OpeningBook;
use crate::pgn::{self, PgnHeader};
use crate::referee::{self, GameRecord, GameResult, RefereeConfig};
use crate::stats::{
    elo_line, ptnml_counts_line, ptnml_line, score_line, wdl_text, Sprt, SprtDecision, Wdl,
};
use fers_core::{Color, Position};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// Everything a tournament needs.
pub struct TournamentConfig {
    pub engines: Vec<EngineConfig>,
    pub variant: &'static fers_core::Variant,
    pub variant_file: Option<PathBuf>,
    pub openings: OpeningBook,
    pub games: usize,
    pub rounds: usize,
    pub repeat: usize,
    pub concurrency: usize,
    pub referee: RefereeConfig,
    pub sprt: Option<Sprt>,
    pub pgn_out: Option<PathBuf>,
    pub event: String,
    pub site: String,
    /// Print the Elo line every this many games (0: only at the end).
    pub rating_interval: usize,
    pub progress: bool,
}

/// Why a tournament could not run.
#[derive(Debug)]
pub enum TournamentError {
    /// An engine cannot be started or cannot play this tournament.
    Engine {
        name: String,
        error: EngineError,
    },
    Pgn {
        file: PathBuf,
        error: std::io::Error,
    },
    NotEnoughEngines,
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentError::Engine { name, error } => write!(f, "engine {name}: {error}"),
            TournamentError::Pgn { file, error } => {
                write!(f, "cannot write PGN file {}: {error}", file.display())
            }
            TournamentError::NotEnoughEngines => {
                write!(f, "a tournament needs at least two engines")
            }
        }
    }
}

impl std::error::Error for TournamentError {}

/// One scheduled game.
#[derive(Clone, Debug)]
pub struct Job {
    /// 1-based game number.
    pub number: usize,
    pub round: usize,
    pub white: usize,
    pub black: usize,
    pub start: Position,
}

/// The games of a round-robin, in order.
pub fn schedule(
    engines: usize,
    games: usize,
    rounds: usize,
    repeat: usize,
    openings: &mut OpeningBook,
) -> Vec<Job> {
    let mut pairs = Vec::new();
    for i in 0..engines {
        for j in i + 1..engines {
            pairs.push((i, j));
        }
    }
    let mut jobs = Vec::new();
    let mut counts = vec![0usize; pairs.len()];
    let repeat = repeat.max(1);
    let mut current: Option<Position> = None;
    for round in 0..rounds {
        for (p, &(i, j)) in pairs.iter().enumerate() {
            for _ in 0..games {
                let k = jobs.len();
                if k % repeat == 0 || current.is_none() {
                    current = Some(openings.next_position());
                }
                let (white, black) = if counts[p] % 2 == 0 { (i, j) } else { (j, i) };
                counts[p] += 1;
                jobs.push(Job {
                    number: k + 1,
                    round: round + 1,
                    white,
                    black,
                    start: current.clone().expect("set above"),
                });
            }
        }
    }
    jobs
}

/// What the workers tell the main thread.
enum Event {
    Started(Job),
    Finished(Job, Box<GameRecord>),
    Fatal(TournamentError),
}

/// Score of one pairing from the first engine's side, with colour splits.
#[derive(Clone, Debug, Default)]
pub struct PairScore {
    pub a: usize,
    pub b: usize,
    pub total: Wdl,
    /// `a`'s results with White and with Black.
    pub a_white: Wdl,
    pub a_black: Wdl,
    /// White's results against Black.
    pub white_black: Wdl,
    /// Pentanomial counts over game pairs that share an opening (with
    /// `-repeat`): how often `a` scored 0, 1/2, 1, 3/2, 2 in a pair.
    pub ptnml: [u32; 5],
    /// `a`'s half points in the first finished game of each unfinished pair.
    pending: HashMap<usize, u32>,
}

impl PairScore {
    /// Records one game of the opening pair `group` for the pentanomial.
    fn add_to_pair(&mut self, group: usize, white: usize, result: GameResult) {
        let a_colour = if white == self.a {
            Color::White
        } else {
            Color::Black
        };
        let half_points = match result {
            GameResult::Win(c) if c == a_colour => 2,
            GameResult::Win(_) => 0,
            GameResult::Draw => 1,
            GameResult::Aborted => return,
        };
        match self.pending.remove(&group) {
            Some(first) => self.ptnml[(first + half_points) as usize] += 1,
            None => {
                self.pending.insert(group, half_points);
            }
        }
    }

    fn add(&mut self, white: usize, result: GameResult) {
        let a_is_white = white == self.a;
        let (a_side, split) = if a_is_white {
            (Color::White, &mut self.a_white)
        } else {
            (Color::Black, &mut self.a_black)
        };
        let bump = |w: &mut Wdl, r: GameResult, me: Color| match r {
            GameResult::Win(c) if c == me => w.wins += 1,
            GameResult::Win(_) => w.losses += 1,
            GameResult::Draw => w.draws += 1,
            GameResult::Aborted => {}
        };
        bump(&mut self.total, result, a_side);
        bump(split, result, a_side);
        bump(&mut self.white_black, result, Color::White);
    }
}

/// The final scores.
#[derive(Clone, Debug)]
pub struct Summary {
    pub pairs: Vec<PairScore>,
    pub games_played: usize,
    pub sprt: Option<SprtDecision>,
}

struct Printer {
    bar: Option<ProgressBar>,
}

impl Printer {
    fn line(&self, s: &str) {
        match &self.bar {
            Some(b) if !b.is_hidden() => b.println(s),
            _ => {
                let out = std::io::stdout();
                let mut out = out.lock();
                let _ = writeln!(out, "{s}");
                let _ = out.flush();
            }
        }
    }
}

/// Checks that every engine starts and can play the tournament's games.
pub fn probe_engines(config: &TournamentConfig, setup: &GameSetup) -> Result<(), TournamentError> {
    for e in &config.engines {
        let wrap = |error| TournamentError::Engine {
            name: e.name.clone(),
            error,
        };
        let mut eng = engine::start(e).map_err(wrap)?;
        let checked = eng.check_setup(setup);
        eng.quit();
        checked.map_err(wrap)?;
    }
    Ok(())
}

fn worker(config: Arc<WorkerShared>, jobs: Arc<Mutex<VecDeque<Job>>>, tx: mpsc::Sender<Event>) {
    let mut slots: Vec<Option<Box<dyn Engine>>> = config.engines.iter().map(|_| None).collect();
    loop {
        if config.stop.load(Ordering::Relaxed) {
            break;
        }
        let job = match jobs.lock() {
            Ok(mut q) => q.pop_front(),
            Err(_) => None,
        };
        let Some(job) = job else { break };
        let _ = tx.send(Event::Started(job.clone()));
        let names = [
            config.engines[job.white].name.as_str(),
            config.engines[job.black].name.as_str(),
        ];
        let mut forfeit = None;
        for (side, idx) in [(Color::White, job.white), (Color::Black, job.black)] {
            if slots[idx].is_none() && forfeit.is_none() {
                match engine::start(&config.engines[idx]) {
                    Ok(e) => slots[idx] = Some(e),
                    Err(error) if error.is_fatal() => {
                        let _ = tx.send(Event::Fatal(TournamentError::Engine {
                            name: config.engines[idx].name.clone(),
                            error,
                        }));
                        config.stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    Err(error) => {
                        forfeit = Some(referee::forfeit(job.round, names, &job.start, side, error));
                    }
                }
            }
        }
        let record = match forfeit {
            Some(r) => r,
            None => {
                let setup = GameSetup {
                    variant: config.variant,
                    variant_file: config.variant_file.clone(),
                    start: job.start.clone(),
                };
                let (lo, hi) = (job.white.min(job.black), job.white.max(job.black));
                let (left, right) = slots.split_at_mut(hi);
                let (a, b) = (
                    left[lo].as_deref_mut().expect("started"),
                    right[0].as_deref_mut().expect("started"),
                );
                let engines: [&mut dyn Engine; 2] = if job.white == lo { [a, b] } else { [b, a] };
                let tcs = [&config.engines[job.white].tc, &config.engines[job.black].tc];
                referee::play_game(
                    job.round,
                    engines,
                    tcs,
                    &setup,
                    &config.referee,
                    &config.stop,
                )
            }
        };
        for f in &record.faults {
            let idx = if f.color == Color::White {
                job.white
            } else {
                job.black
            };
            // Stopped now, started afresh for its next game.
            if let Some(mut e) = slots[idx].take() {
                e.quit();
            }
        }
        for idx in [job.white, job.black] {
            if config.engines[idx].restart_each_game {
                if let Some(mut e) = slots[idx].take() {
                    e.quit();
                }
            }
        }
        let _ = tx.send(Event::Finished(job, Box::new(record)));
    }
    for e in slots.iter_mut().flatten() {
        e.quit();
    }
}

struct WorkerShared {
    engines: Vec<EngineConfig>,
    variant: &'static fers_core::Variant,
    variant_file: Option<PathBuf>,
    referee: RefereeConfig,
    stop: AtomicBool,
}

/// The round-robin table (cutechess-style): every engine's score against
/// the field, best first, with its Elo and error.
pub fn ranking(names: &[String], pairs: &[PairScore]) -> Vec<String> {
    let mut per: Vec<Wdl> = vec![Wdl::default(); names.len()];
    for p in pairs {
        let t = p.total;
        per[p.a].wins += t.wins;
        per[p.a].losses += t.losses;
        per[p.a].draws += t.draws;
        per[p.b].wins += t.losses;
        per[p.b].losses += t.wins;
        per[p.b].draws += t.draws;
    }
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&x, &y| per[y].score().total_cmp(&per[x].score()));
    let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    let mut out = vec![format!(
        "Rank {:<width$} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "Name", "Elo", "+/-", "Games", "Score", "Draw"
    )];
    for (rank, &i) in order.iter().enumerate() {
        let w = &per[i];
        let num = |x: f64| {
            if x.is_finite() {
                format!("{:.0}", x + 0.0)
            } else {
                "-".to_string()
            }
        };
        out.push(format!(
            "{:>4} {:<width$} {:>7} {:>7} {:>7} {:>6.1}% {:>6.1}%",
            rank + 1,
            names[i],
            num(w.elo()),
            num(w.elo_error()),
            w.games(),
            w.score() * 100.0,
            w.draw_ratio() * 100.0
        ));
    }
    out
}

fn pair_index(pairs: &[PairScore], x: usize, y: usize) -> usize {
    let (a, b) = (x.min(y), x.max(y));
    pairs
        .iter()
        .position(|p| p.a == a && p.b == b)
        .expect("every pairing is listed")
}

/// Runs the tournament, printing as it goes; returns the final scores.
pub fn run(mut config: TournamentConfig) -> Result<Summary, TournamentError> {
    let n = config.engines.len();
    if n < 2 {
        return Err(TournamentError::NotEnoughEngines);
    }
    let first = GameSetup {
        variant: config.variant,
        variant_file: config.variant_file.clone(),
        start: Position::startpos(config.variant),
    };
    probe_engines(&config, &first)?;
    let jobs = schedule(
        n,
        config.games,
        config.rounds,
        config.repeat,
        &mut config.openings,
    );
    let total = jobs.len();
    let mut pgn_file = match &config.pgn_out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|error| TournamentError::Pgn {
                    file: p.clone(),
                    error,
                })?,
        ),
        None => None,
    };
    let header = PgnHeader {
        event: config.event.clone(),
        site: config.site.clone(),
        date: pgn::today(),
        time_control: config.engines[0].tc.to_string(),
    };
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            pairs.push(PairScore {
                a,
                b,
                ..PairScore::default()
            });
        }
    }

    let bar = config.progress.then(|| {
        let b = ProgressBar::new(total as u64);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games {msg} [{elapsed_precise} < {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    });
    let printer = Printer { bar };

    let shared = Arc::new(WorkerShared {
        engines: config.engines.clone(),
        variant: config.variant,
        variant_file: config.variant_file.clone(),
        referee: config.referee.clone(),
        stop: AtomicBool::new(false),
    });
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<_>>()));
    let (tx, rx) = mpsc::channel();
    let mut handles = Vec::new();
    for _ in 0..config.concurrency.clamp(1, total.max(1)) {
        let (s, q, t) = (shared.clone(), queue.clone(), tx.clone());
        handles.push(std::thread::spawn(move || worker(s, q, t)));
    }
    drop(tx);

    let mut played = 0usize;
    let mut fatal = None;
    let mut decision = None;
    for event in rx {
        match event {
            Event::Started(job) => printer.line(&format!(
                "Started game {} of {} ({} vs {})",
                job.number, total, names[job.white], names[job.black]
            )),
            Event::Fatal(e) => {
                fatal = Some(e);
                shared.stop.store(true, Ordering::Relaxed);
            }
            Event::Finished(job, record) => {
                for f in &record.faults {
                    printer.line(&format!(
                        "Warning: engine {} ({}) fault in game {}: {}",
                        f.engine,
                        if f.color == Color::White {
                            "White"
                        } else {
                            "Black"
                        },
                        job.number,
                        f.error
                    ));
                    printer.line(&format!(
                        "Warning: restarting engine {} after a fault in game {}",
                        f.engine, job.number
                    ));
                }
                if record.result == GameResult::Aborted {
                    continue;
                }
                played += 1;
                printer.line(&format!(
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    job.number,
                    names[job.white],
                    names[job.black],
                    record.result.pgn(),
                    record.reason
                ));
                let pi = pair_index(&pairs, job.white, job.black);
                pairs[pi].add(job.white, record.result);
                if config.repeat == 2 {
                    pairs[pi].add_to_pair((job.number - 1) / 2, job.white, record.result);
                }
                let p = &pairs[pi];
                printer.line(&score_line(&names[p.a], &names[p.b], &p.total));
                if config.rating_interval > 0 && played.is_multiple_of(config.rating_interval) {
                    printer.line(&elo_line(&p.total));
                    if let (Some(sprt), 1) = (config.sprt, pairs.len()) {
                        printer.line(&sprt.line(&p.total));
                    }
                }
                if let Some(f) = pgn_file.as_mut() {
                    let text = pgn::write_game(&header, &record);
                    if let Err(error) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                        fatal = Some(TournamentError::Pgn {
                            file: config.pgn_out.clone().unwrap_or_default(),
                            error,
                        });
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                }
                if let Some(b) = &printer.bar {
                    b.inc(1);
                    b.set_message(format!(
                        "{} vs {}: {}-{}-{}",
                        names[p.a], names[p.b], p.total.wins, p.total.losses, p.total.draws
                    ));
                }
                if let (Some(sprt), 1) = (config.sprt, pairs.len()) {
                    let d = sprt.decision(&pairs[0].total);
                    if d != SprtDecision::Continue && decision.is_none() {
                        decision = Some(d);
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(b) = &printer.bar {
        b.finish_and_clear();
    }
    if let Some(e) = fatal {
        return Err(e);
    }
    for p in &pairs {
        let (a, b) = (&names[p.a], &names[p.b]);
        printer.line(&score_line(a, b, &p.total));
        printer.line(&format!(
            "...      {a} playing White: {}",
            wdl_text(&p.a_white)
        ));
        printer.line(&format!(
            "...      {a} playing Black: {}",
            wdl_text(&p.a_black)
        ));
        printer.line(&format!(
            "...      White vs Black: {}",
            wdl_text(&p.white_black)
        ));
        if config.repeat == 2 {
            printer.line(&ptnml_counts_line(&p.ptnml));
            printer.line(&ptnml_line(&p.ptnml));
        }
        printer.line(&elo_line(&p.total));
    }
    if n > 2 {
        for line in ranking(&names, &pairs) {
            printer.line(&line);
        }
    }
    if let (Some(sprt), 1) = (config.sprt, pairs.len()) {
        printer.line(&sprt.line(&pairs[0].total));
    }
    printer.line("Finished match");
    Ok(Summary {
        pairs,
        games_played: played,
        sprt: decision,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::Order;
    use fers_core::variant;

    #[test]
    fn schedule_pairs_colours_and_openings() {
        let v = variant::chess();
        let ps: Vec<Position> = [
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1",
        ]
        .iter()
        .map(|f| Position::from_fen(v, f).unwrap())
        .collect();
        let mut book = OpeningBook::new(ps, Order::Sequential, 1, 0);
        let jobs = schedule(2, 2, 2, 2, &mut book);
        assert_eq!(jobs.len(), 4);
        let colours: Vec<(usize, usize)> = jobs.iter().map(|j| (j.white, j.black)).collect();
        assert_eq!(colours, [(0, 1), (1, 0), (0, 1), (1, 0)]);
        let fens: Vec<String> = jobs.iter().map(|j| j.start.to_fen()).collect();
        assert_eq!(fens[0], fens[1]);
        assert_eq!(fens[2], fens[3]);
        assert_ne!(fens[0], fens[2]);
        assert_eq!(
            jobs.iter().map(|j| j.round).collect::<Vec<_>>(),
            [1, 1, 2, 2]
        );
        // Three engines: every pairing, each once per round.
        let mut book = OpeningBook::new(vec![Position::startpos(v)], Order::Sequential, 1, 0);
        let jobs = schedule(3, 1, 1, 1, &mut book);
        let pairs: Vec<(usize, usize)> = jobs.iter().map(|j| (j.white, j.black)).collect();
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
    }

    #[test]
    fn pair_score_splits() {
        let mut p = PairScore {
            a: 0,
            b: 1,
            ..PairScore::default()
        };
        p.add(0, GameResult::Win(Color::White)); // a wins with White
        p.add(1, GameResult::Win(Color::White)); // a loses with Black
        p.add(1, GameResult::Draw);
        p.add(1, GameResult::Win(Color::Black)); // a wins with Black
        assert_eq!(p.total, Wdl::new(2, 1, 1));
        assert_eq!(p.a_white, Wdl::new(1, 0, 0));
        assert_eq!(p.a_black, Wdl::new(1, 1, 1));
        assert_eq!(p.white_black, Wdl::new(2, 1, 1));
    }

    #[test]
    fn ranking_table() {
        let names: Vec<String> = ["a", "bb", "c"].iter().map(|s| s.to_string()).collect();
        let pair = |a, b, w, l, d| PairScore {
            a,
            b,
            total: Wdl::new(w, l, d),
            ..PairScore::default()
        };
        // a: 3 wins 1 draw of 4 (87.5%); bb: 2 wins 1 loss 1 draw (62.5%);
        // c: 4 losses (0%).
        let pairs = [
            pair(0, 1, 1, 0, 1),
            pair(0, 2, 2, 0, 0),
            pair(1, 2, 2, 0, 0),
        ];
        let t = ranking(&names, &pairs);
        assert_eq!(t.len(), 4);
        assert!(t[0].starts_with("Rank Name"), "{t:?}");
        assert!(t[1].starts_with("   1 a "), "{t:?}");
        assert!(t[2].starts_with("   2 bb"), "{t:?}");
        assert!(t[3].starts_with("   3 c "), "{t:?}");
        // a scored 3.5 of 4: 87.5%; c lost all 4: 0%, Elo -inf shown as '-'.
        assert!(t[1].contains("87.5%"), "{t:?}");
        assert!(t[3].contains("      -       -       4    0.0%"), "{t:?}");
    }

    #[test]
    fn pentanomial_pairs() {
        let mut p = PairScore {
            a: 0,
            b: 1,
            ..PairScore::default()
        };
        // Pair 0: a wins with White, draws with Black: 3/2.
        p.add_to_pair(0, 0, GameResult::Win(Color::White));
        // Pair 1 finishes out of order: a loses both: 0.
        p.add_to_pair(1, 1, GameResult::Win(Color::White));
        p.add_to_pair(0, 1, GameResult::Draw);
        p.add_to_pair(1, 0, GameResult::Win(Color::Black));
        // Pair 2: a wins both: 2; pair 3 is unfinished.
        p.add_to_pair(2, 0, GameResult::Win(Color::White));
        p.add_to_pair(2, 1, GameResult::Win(Color::Black));
        p.add_to_pair(3, 0, GameResult::Draw);
        assert_eq!(p.ptnml, [1, 0, 0, 1, 1]);
    }
}
