//! The `fers-match` command line, modelled on cutechess-cli:
//!
//! ```text
//! fers-match -engine cmd=fairy-stockfish name=fsf option.Hash=16 \
//!            -engine cmd=fairymax proto=xboard \
//!            -each tc=40/10+0.1 timemargin=100 -variant capablanca \
//!            -games 2 -rounds 50 -repeat -concurrency 2 \
//!            -openings file=book.epd format=epd order=random \
//!            -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -pgnout games.pgn
//! ```
//!
//! A flag's values are the following words up to the next word that starts
//! with `-`. Engine keys: `cmd`, `name`, `dir`, `arg` (repeatable), `proto`
//! (`uci`/`xboard`), `option.NAME=VALUE`, `tc`, `st`, `nodes`, `depth`
//! (`plies`), `timemargin` (ms), `variantpath` (the file sent as
//! `VariantPath`), `initstr`, `stderr`, `restart=on|off`, `debug`; `-each`
//! gives keys to all engines (an engine's own keys win).

use crate::adjudication::{Adjudicator, DrawRule, ResignRule};
use crate::engine::{EngineConfig, Protocol};
use crate::openings::{self, Format, OpeningBook, Order};
use crate::process::Launch;
use crate::referee::RefereeConfig;
use crate::stats::Sprt;
use crate::tournament::TournamentConfig;
use fers_core::variant::{self, Variant};
use fers_core::{variant_file, Position};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A command-line mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    UnknownFlag(String),
    MissingValue(String),
    BadValue {
        flag: String,
        value: String,
        reason: String,
    },
    Engine {
        index: usize,
        reason: String,
    },
    Variant(String),
    Openings(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::UnknownFlag(s) => write!(f, "unknown option '{s}' (see -help)"),
            CliError::MissingValue(s) => write!(f, "option '{s}' needs a value"),
            CliError::BadValue {
                flag,
                value,
                reason,
            } => write!(f, "{flag}: bad value '{value}': {reason}"),
            CliError::Engine { index, reason } => write!(f, "engine {index}: {reason}"),
            CliError::Variant(s) => write!(f, "variant: {s}"),
            CliError::Openings(s) => write!(f, "openings: {s}"),
        }
    }
}

impl std::error::Error for CliError {}

pub const USAGE: &str = "\
usage: fers-match -engine cmd=CMD [name=NAME] [proto=uci|xboard] [option.X=Y] ... -engine ...
                  [-each KEY=VALUE ...] [-variant NAME] [-variantfile FILE]
                  [-games N] [-rounds N] [-repeat [N]] [-concurrency N]
                  [-openings file=FILE [format=epd|fen|pgn|polyglot|fers] [order=sequential|random] [start=N] [plies=N]]
                  [-pgnout FILE] [-sprt elo0=E0 elo1=E1 alpha=A beta=B]
                  [-resign movecount=N score=CP [twosided=true]]
                  [-draw movenumber=N movecount=N score=CP] [-maxmoves N]
                  [-srand N] [-ratinginterval N] [-event NAME] [-site NAME]
                  [-stalltimeout SECONDS] [-noprogress] [-debug]
       fers-match -pool NAME PGN...
       fers-match -paired NAME_A PGN_A NAME_B PGN_B

engine keys (also for -each): cmd name dir arg proto option.NAME=VALUE
  tc=[MOVES/]SECONDS[+INC] (or inf) st=SECONDS nodes=N depth=N (plies=N)
  timemargin=MS variantpath=FILE initstr=LINE stderr=FILE restart=on|off debug

-pool prints the runner's result lines for NAME's games in the PGN files
(several runs pooled; pairs are the two games of a Round in one file;
NAME may be a comma-separated list for one engine under several names).
-paired compares NAME_A's run with NAME_B's on the rounds both played from
the same openings (the same -srand, openings and -repeat): the mean
difference of their pair scores, with its 95% interval. PGN_A and PGN_B
may each list several files with commas (the i-th of A against the i-th
of B).
";

/// The parsed command line, before files are read.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchArgs {
    pub engines: Vec<Vec<(String, String)>>,
    pub each: Vec<(String, String)>,
    pub variant: String,
    pub variant_file: Option<PathBuf>,
    pub games: usize,
    pub rounds: usize,
    pub repeat: usize,
    pub concurrency: usize,
    pub openings: Option<Vec<(String, String)>>,
    pub pgn_out: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudicator,
    pub seed: u64,
    pub rating_interval: usize,
    pub event: String,
    pub site: String,
    pub stall_timeout: Duration,
    pub progress: bool,
    pub debug: bool,
}

impl Default for MatchArgs {
    fn default() -> Self {
        MatchArgs {
            engines: Vec::new(),
            each: Vec::new(),
            variant: "chess".into(),
            variant_file: None,
            games: 1,
            rounds: 1,
            repeat: 1,
            concurrency: 1,
            openings: None,
            pgn_out: None,
            sprt: None,
            adjudication: Adjudicator::default(),
            seed: 0,
            rating_interval: 10,
            event: "fers-match".into(),
            site: "?".into(),
            stall_timeout: Duration::from_secs(60),
            progress: true,
            debug: false,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Help,
    Run(Box<MatchArgs>),
    /// `-pool NAME PGN...`: one engine's games pooled over PGN files.
    Pool {
        name: String,
        files: Vec<PathBuf>,
    },
    /// `-paired NAME_A PGN_A NAME_B PGN_B`: two runs pair by pair; a
    /// side may list several files with commas, the i-th of A set
    /// against the i-th of B.
    Paired {
        a: (String, Vec<PathBuf>),
        b: (String, Vec<PathBuf>),
    },
}

fn pairs(flag: &str, values: &[String]) -> Result<Vec<(String, String)>, CliError> {
    values
        .iter()
        .map(|v| match v.split_once('=') {
            Some((k, val)) => Ok((k.to_string(), val.to_string())),
            // A bare key is a switch (`debug`, `ponder`, `twosided`).
            None => Ok((v.to_string(), String::new())),
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(|p| {
            if p.is_empty() {
                Err(CliError::MissingValue(flag.to_string()))
            } else {
                Ok(p)
            }
        })
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, CliError> {
    v.parse().map_err(|_| CliError::BadValue {
        flag: flag.to_string(),
        value: v.to_string(),
        reason: "not a number".into(),
    })
}

fn one<'a>(flag: &str, values: &'a [String]) -> Result<&'a str, CliError> {
    match values {
        [v] => Ok(v),
        [] => Err(CliError::MissingValue(flag.to_string())),
        _ => Err(CliError::BadValue {
            flag: flag.to_string(),
            value: values.join(" "),
            reason: "expected one value".into(),
        }),
    }
}

fn get<'a>(p: &'a [(String, String)], key: &str) -> Option<&'a str> {
    p.iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// `-pool NAME PGN...`.
fn parse_pool(values: &[String]) -> Result<Command, CliError> {
    match values {
        [name, files @ ..] if !files.is_empty() => Ok(Command::Pool {
            name: name.clone(),
            files: files.iter().map(PathBuf::from).collect(),
        }),
        _ => Err(CliError::MissingValue("-pool NAME PGN...".into())),
    }
}

/// `-paired NAME_A PGN_A NAME_B PGN_B`.
fn parse_paired(values: &[String]) -> Result<Command, CliError> {
    let bad = |reason: &str| CliError::BadValue {
        flag: "-paired".into(),
        value: values.join(" "),
        reason: reason.into(),
    };
    let [na, fa, nb, fb] = values else {
        return Err(bad("needs NAME_A PGN_A NAME_B PGN_B"));
    };
    let files = |list: &str| list.split(',').map(PathBuf::from).collect::<Vec<_>>();
    let (fa, fb) = (files(fa), files(fb));
    if fa.len() != fb.len() {
        return Err(bad("PGN_A and PGN_B must list as many files"));
    }
    Ok(Command::Paired {
        a: (na.clone(), fa),
        b: (nb.clone(), fb),
    })
}

/// Parses the arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Command, CliError> {
    match args.first().map(String::as_str) {
        Some("-pool") => return parse_pool(&args[1..]),
        Some("-paired") => return parse_paired(&args[1..]),
        _ => {}
    }
    let mut m = MatchArgs::default();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let mut j = i + 1;
        while j < args.len() && !args[j].starts_with('-') {
            j += 1;
        }
        let values = &args[i + 1..j];
        i = j;
        match flag {
            "-h" | "-help" | "--help" => return Ok(Command::Help),
            "-engine" => m.engines.push(pairs(flag, values)?),
            "-each" => m.each.extend(pairs(flag, values)?),
            "-variant" => m.variant = one(flag, values)?.to_string(),
            "-variantfile" => m.variant_file = Some(one(flag, values)?.into()),
            "-games" => m.games = number(flag, one(flag, values)?)?,
            "-rounds" => m.rounds = number(flag, one(flag, values)?)?,
            "-repeat" => {
                m.repeat = match values {
                    [] => 2,
                    _ => number(flag, one(flag, values)?)?,
                }
            }
            "-concurrency" => m.concurrency = number(flag, one(flag, values)?)?,
            "-openings" => m.openings = Some(pairs(flag, values)?),
            "-pgnout" => {
                // cutechess accepts `min` / `fi` after the file; they are ignored.
                let file = values
                    .first()
                    .ok_or_else(|| CliError::MissingValue(flag.into()))?;
                m.pgn_out = Some(file.into());
            }
            "-sprt" => {
                let p = pairs(flag, values)?;
                let f = |k: &str, default: Option<f64>| -> Result<f64, CliError> {
                    match get(&p, k) {
                        Some(v) => number(flag, v),
                        None => default.ok_or_else(|| CliError::BadValue {
                            flag: flag.into(),
                            value: values.join(" "),
                            reason: format!("missing {k}="),
                        }),
                    }
                };
                let sprt = Sprt::new(
                    f("elo0", None)?,
                    f("elo1", None)?,
                    f("alpha", Some(0.05))?,
                    f("beta", Some(0.05))?,
                )
                .map_err(|e| CliError::BadValue {
                    flag: flag.into(),
                    value: values.join(" "),
                    reason: e.to_string(),
                })?;
                m.sprt = Some(sprt);
            }
            "-resign" => {
                let p = pairs(flag, values)?;
                m.adjudication.resign = Some(ResignRule {
                    move_count: number(flag, get(&p, "movecount").unwrap_or("3"))?,
                    score: number(flag, get(&p, "score").unwrap_or("1000"))?,
                    two_sided: matches!(get(&p, "twosided"), Some("true" | "1" | "")),
                });
            }
            "-draw" => {
                let p = pairs(flag, values)?;
                m.adjudication.draw = Some(DrawRule {
                    move_number: number(flag, get(&p, "movenumber").unwrap_or("40"))?,
                    move_count: number(flag, get(&p, "movecount").unwrap_or("8"))?,
                    score: number(flag, get(&p, "score").unwrap_or("10"))?,
                });
            }
            "-maxmoves" => m.adjudication.max_moves = Some(number(flag, one(flag, values)?)?),
            "-srand" => m.seed = number(flag, one(flag, values)?)?,
            "-ratinginterval" => m.rating_interval = number(flag, one(flag, values)?)?,
            "-event" => m.event = values.join(" "),
            "-site" => m.site = values.join(" "),
            "-stalltimeout" => {
                let s: f64 = number(flag, one(flag, values)?)?;
                if !(s.is_finite() && s > 0.0) {
                    return Err(CliError::BadValue {
                        flag: flag.into(),
                        value: s.to_string(),
                        reason: "must be positive".into(),
                    });
                }
                m.stall_timeout = Duration::from_secs_f64(s);
            }
            "-noprogress" => m.progress = false,
            "-debug" => m.debug = true,
            // Always on in fers-match (faulty engines are restarted), or
            // only one choice exists: accepted for cutechess compatibility.
            "-recover" | "-tournament" => {}
            _ => return Err(CliError::UnknownFlag(flag.to_string())),
        }
    }
    Ok(Command::Run(Box::new(m)))
}

/// One engine's configuration from the `-each` keys then its own.
pub fn engine_config(
    index: usize,
    each: &[(String, String)],
    own: &[(String, String)],
    debug: bool,
) -> Result<EngineConfig, CliError> {
    let err = |reason: String| CliError::Engine { index, reason };
    let mut cfg = EngineConfig::new("", "", Protocol::Uci);
    cfg.debug = debug;
    let mut launch = Launch::default();
    for (k, v) in each.iter().chain(own) {
        if let Some(opt) = k.strip_prefix("option.") {
            cfg.options.retain(|(n, _)| n != opt);
            cfg.options.push((opt.to_string(), v.clone()));
            continue;
        }
        match cfg.tc.set(k, v) {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => return Err(err(e.to_string())),
        }
        match k.as_str() {
            "cmd" => launch.cmd = v.clone(),
            "name" => cfg.name = v.clone(),
            "dir" => launch.dir = Some(v.into()),
            "arg" => launch.args.push(v.clone()),
            "stderr" => launch.stderr = Some(v.into()),
            "proto" => {
                cfg.protocol = match v.as_str() {
                    "uci" => Protocol::Uci,
                    "xboard" | "cecp" => Protocol::Xboard,
                    _ => return Err(err(format!("unknown protocol '{v}' (uci or xboard)"))),
                }
            }
            "variantpath" => cfg.variant_file = Some(v.into()),
            "initstr" => cfg.init.push(v.clone()),
            "debug" => cfg.debug = true,
            "restart" => {
                cfg.restart_each_game = match v.as_str() {
                    "on" => true,
                    "off" | "auto" => false,
                    _ => return Err(err(format!("restart={v}: expected on, off or auto"))),
                }
            }
            // cutechess keys without a meaning here: fers-match never ponders.
            "ponder" | "trust" | "whitepov" | "tscale" | "tmargin" => {}
            _ => return Err(err(format!("unknown engine key '{k}'"))),
        }
    }
    if launch.cmd.is_empty() {
        return Err(err("no cmd=".into()));
    }
    if cfg.name.is_empty() {
        cfg.name = std::path::Path::new(&launch.cmd)
            .file_name()
            .map_or_else(|| launch.cmd.clone(), |f| f.to_string_lossy().into_owned());
    }
    if cfg.tc.is_unlimited() {
        return Err(err(
            "no limit to thinking: give tc=, st=, nodes= or depth= (here or with -each)".into(),
        ));
    }
    cfg.launch = launch;
    Ok(cfg)
}

/// Finds the variant: from the variant file if one is given, else built in.
pub fn resolve_variant(
    name: &str,
    file: Option<&PathBuf>,
) -> Result<(&'static Variant, Vec<String>), CliError> {
    let mut warnings = Vec::new();
    if let Some(f) = file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| CliError::Variant(format!("cannot read {}: {e}", f.display())))?;
        let sections = variant_file::load(&f.display().to_string(), &text, &|_| None);
        let mut found = None;
        for s in sections {
            let wanted = s.name.eq_ignore_ascii_case(name);
            match s.result {
                Ok(v) if wanted => found = Some(Ok(v)),
                Err(e) if wanted => found = Some(Err(CliError::Variant(e.to_string()))),
                Err(e) => warnings.push(format!("variant file: {e}")),
                Ok(_) => {}
            }
        }
        if let Some(r) = found {
            return r.map(|v| (v, warnings));
        }
    }
    variant::builtin(name)
        .map(|v| (v, warnings))
        .ok_or_else(|| {
            CliError::Variant(format!(
                "unknown variant '{name}' (built in: {}; others need -variantfile)",
                variant::builtin_names().join(", ")
            ))
        })
}

/// Builds the tournament: engines, variant, openings. Returns warnings too.
pub fn build(m: &MatchArgs) -> Result<(TournamentConfig, Vec<String>), CliError> {
    let (variant, warnings) = resolve_variant(&m.variant, m.variant_file.as_ref())?;
    if m.sprt.is_some() && m.engines.len() != 2 {
        return Err(CliError::BadValue {
            flag: "-sprt".into(),
            value: format!("{} engines", m.engines.len()),
            reason: "an SPRT needs exactly two engines".into(),
        });
    }
    let mut engines = Vec::new();
    for (i, own) in m.engines.iter().enumerate() {
        engines.push(engine_config(i + 1, &m.each, own, m.debug)?);
    }
    // Same names would make the score lines ambiguous.
    for i in 0..engines.len() {
        let same = engines[..i]
            .iter()
            .filter(|e| e.name == engines[i].name)
            .count();
        if same > 0 {
            engines[i].name = format!("{}-{}", engines[i].name, same + 1);
        }
    }
    let openings = match &m.openings {
        None => OpeningBook::single(Position::startpos(variant)),
        Some(p) => {
            if let Some((k, _)) = p.iter().find(|(k, _)| {
                !["file", "format", "order", "start", "plies", "policy"].contains(&k.as_str())
            }) {
                return Err(CliError::Openings(format!("unknown key '{k}'")));
            }
            let file = get(p, "file").ok_or_else(|| CliError::Openings("missing file=".into()))?;
            let format = match get(p, "format") {
                None if file.ends_with(".epd") => Format::Epd,
                None if file.ends_with(".pgn") => Format::Pgn,
                None if file.ends_with(".bin") => Format::Polyglot,
                None if openings::is_fers_book(std::path::Path::new(file)) => Format::FersBook,
                None => Format::Fen,
                Some("epd") => Format::Epd,
                Some("fen") => Format::Fen,
                Some("pgn") => Format::Pgn,
                Some("polyglot") => Format::Polyglot,
                Some("fers") => Format::FersBook,
                Some(f) => {
                    return Err(CliError::Openings(format!(
                        "unsupported format '{f}' (epd, fen, pgn, polyglot or fers)"
                    )))
                }
            };
            let order = match get(p, "order") {
                None | Some("sequential") => Order::Sequential,
                Some("random") => Order::Random,
                Some(o) => return Err(CliError::Openings(format!("unknown order '{o}'"))),
            };
            let start: usize = match get(p, "start") {
                Some(s) => number("-openings start", s)?,
                None => 1,
            };
            let plies: Option<usize> = match get(p, "plies") {
                Some(s) => Some(number("-openings plies", s)?),
                None => None,
            };
            let path = std::path::Path::new(file);
            if format == Format::Polyglot {
                // Exits are random (seeded by -srand) whatever the order.
                let plies = plies.unwrap_or(openings::DEFAULT_BOOK_PLIES);
                openings::load_polyglot(path, variant, plies, m.seed)
                    .map_err(|e| CliError::Openings(e.to_string()))?
            } else if format == Format::FersBook {
                let plies = plies.unwrap_or(openings::DEFAULT_BOOK_PLIES);
                openings::load_fers_book(path, variant, plies, m.seed)
                    .map_err(|e| CliError::Openings(e.to_string()))?
            } else {
                let positions = openings::load(path, format, variant, plies)
                    .map_err(|e| CliError::Openings(e.to_string()))?;
                OpeningBook::new(positions, order, start, m.seed)
            }
        }
    };
    Ok((
        TournamentConfig {
            engines,
            variant,
            variant_file: m.variant_file.clone(),
            openings,
            games: m.games,
            rounds: m.rounds,
            repeat: m.repeat,
            concurrency: m.concurrency,
            referee: RefereeConfig {
                adjudication: m.adjudication,
                stall_timeout: m.stall_timeout,
            },
            sprt: m.sprt,
            pgn_out: m.pgn_out.clone(),
            event: m.event.clone(),
            site: m.site.clone(),
            rating_interval: m.rating_interval,
            progress: m.progress,
        },
        warnings,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn cutechess_style_flags() {
        let Command::Run(m) = parse_args(&args(
            "-engine cmd=fsf name=A option.Hash=16 -engine cmd=fairymax proto=xboard \
             -each tc=40/10+0.1 timemargin=50 -games 2 -rounds 3 -repeat -concurrency 2 \
             -openings file=o.epd order=random -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 \
             -pgnout out.pgn min -resign movecount=3 score=500 -draw movenumber=30 movecount=6 score=5 \
             -maxmoves 200 -variant capablanca -recover",
        ))
        .unwrap() else {
            panic!("not a run")
        };
        assert_eq!(m.engines.len(), 2);
        assert_eq!((m.games, m.rounds, m.repeat, m.concurrency), (2, 3, 2, 2));
        assert_eq!(m.pgn_out, Some(PathBuf::from("out.pgn")));
        assert_eq!(m.variant, "capablanca");
        assert_eq!(m.sprt.unwrap().beta, 0.1);
        assert_eq!(m.adjudication.resign.unwrap().score, 500);
        assert_eq!(m.adjudication.draw.unwrap().move_number, 30);
        assert_eq!(m.adjudication.max_moves, Some(200));
        let e = engine_config(1, &m.each, &m.engines[0], false).unwrap();
        assert_eq!(e.name, "A");
        assert_eq!(e.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(e.tc.to_string(), "40/10+0.1");
        assert_eq!(e.tc.margin, Duration::from_millis(50));
        let e = engine_config(2, &m.each, &m.engines[1], false).unwrap();
        assert_eq!(e.name, "fairymax");
        assert_eq!(e.protocol, Protocol::Xboard);
        assert!(!e.restart_each_game);
        let own = vec![
            ("cmd".to_string(), "x".to_string()),
            ("restart".into(), "on".into()),
        ];
        let e = engine_config(1, &m.each, &own, false).unwrap();
        assert!(e.restart_each_game);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            parse_args(&args("-bogus 1")),
            Err(CliError::UnknownFlag("-bogus".into()))
        );
        assert_eq!(
            parse_args(&args("-games")),
            Err(CliError::MissingValue("-games".into()))
        );
        assert!(matches!(
            parse_args(&args("-games x")),
            Err(CliError::BadValue { .. })
        ));
        assert!(parse_args(&args("-sprt elo0=5 elo1=0")).is_err());
        assert_eq!(parse_args(&args("-help")), Ok(Command::Help));
        let own = vec![("cmd".to_string(), "x".to_string())];
        let e = engine_config(1, &[], &own, false).unwrap_err();
        assert!(e.to_string().contains("no limit"), "{e}");
        let own = vec![
            ("name".to_string(), "x".to_string()),
            ("depth".into(), "1".into()),
        ];
        assert!(engine_config(1, &[], &own, false)
            .unwrap_err()
            .to_string()
            .contains("no cmd"));
        let own = vec![
            ("cmd".to_string(), "x".to_string()),
            ("proto".into(), "usi".into()),
        ];
        assert!(engine_config(1, &[], &own, false).is_err());
        assert!(resolve_variant("nosuchgame", None).is_err());
    }
}
