//! The command line of `fers-solve`: a FEN with conditions and a
//! stipulation, or a Popeye input file; text in Popeye's layout or JSON.

use super::output::{self, JsonHeader};
use super::popeye;
use clap::{Arg, ArgAction, Command};
use fers_core::registry::Registry;
use fers_core::solve::{self, Stipulation};
use fers_core::{variant, Conditions, Position, Variant};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Why `fers-solve` could not run a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveCliError {
    Usage(String),
    File(String),
    Popeye(String),
    Variant(String),
    Fen(String),
    Stipulation(String),
    Problem(String),
}

impl fmt::Display for SolveCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveCliError::Usage(s) => write!(f, "{s}"),
            SolveCliError::File(s) => write!(f, "{s}"),
            SolveCliError::Popeye(s) => write!(f, "Popeye input: {s}"),
            SolveCliError::Variant(s) => write!(f, "variant: {s}"),
            SolveCliError::Fen(s) => write!(f, "{s}"),
            SolveCliError::Stipulation(s) => write!(f, "{s}"),
            SolveCliError::Problem(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for SolveCliError {}

pub fn command() -> Command {
    Command::new("fers-solve")
        .about("solves chess problems (#N, s#N, h#N, h#N.5) under any fers variant and conditions")
        .arg(
            Arg::new("file")
                .value_name("FILE.inp")
                .help("a problem file in Popeye's input language"),
        )
        .arg(
            Arg::new("fen")
                .long("fen")
                .value_name("FEN")
                .help("the position (instead of FILE)"),
        )
        .arg(
            Arg::new("stip")
                .long("stip")
                .value_name("STIP")
                .help("#N, s#N, h#N or h#N.5 (with --fen)"),
        )
        .arg(
            Arg::new("variant")
                .long("variant")
                .value_name("NAME")
                .default_value("chess")
                .help("variant: built in, or defined in --variant-file"),
        )
        .arg(
            Arg::new("variant-file")
                .long("variant-file")
                .value_name("FILE")
                .help("variant file defining --variant"),
        )
        .arg(
            Arg::new("conditions")
                .long("conditions")
                .value_name("LIST")
                .help("fairy conditions on top of the variant, e.g. \"circe madrasi\""),
        )
        .arg(
            Arg::new("json")
                .long("json")
                .action(ArgAction::SetTrue)
                .help("one JSON object per problem instead of Popeye's layout"),
        )
        .arg(
            Arg::new("max-seconds")
                .long("max-seconds")
                .value_name("S")
                .value_parser(clap::value_parser!(f64))
                .help("stop a problem after this long (its answer is then marked incomplete)"),
        )
}

/// One problem to solve.
pub struct Job {
    pub info: Vec<(String, String)>,
    pub variant: &'static Variant,
    pub conditions: String,
    pub fen: String,
    pub stipulation: Stipulation,
    pub no_threat: bool,
}

/// The variant `name` (from `file` if given) under `conditions`.
pub fn variant_for(
    name: &str,
    file: Option<&PathBuf>,
    conditions: &str,
) -> Result<&'static Variant, SolveCliError> {
    let mut reg = Registry::new();
    if let Some(f) = file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| SolveCliError::File(format!("cannot read {}: {e}", f.display())))?;
        for r in reg.load(&f.display().to_string(), &text) {
            if let Err(e) = r {
                eprintln!("warning: {e}");
            }
        }
    }
    let mut spec = reg.spec(name).ok_or_else(|| {
        SolveCliError::Variant(format!(
            "unknown variant '{name}' (built in: {}; others need --variant-file)",
            variant::builtin_names().join(", ")
        ))
    })?;
    let set: Conditions = conditions
        .parse()
        .map_err(|e| SolveCliError::Variant(format!("conditions '{conditions}': {e}")))?;
    if set.is_empty() {
        if let Some(v) = reg.get(name) {
            return Ok(v);
        }
    }
    spec.conditions = spec.conditions.union(set);
    spec.name = format!("{name}+{}", set.to_string().replace(' ', "+"));
    let v = Variant::build(spec)
        .map_err(|e| SolveCliError::Variant(format!("conditions '{conditions}' on {name}: {e}")))?;
    Ok(variant::leak(v))
}

/// The FEN with the side to move a help-mate's stipulation asks for
/// (Black in `h#N`, White in `h#N.5`, as in Popeye).
pub fn fen_for(fen: &str, stip: Stipulation) -> String {
    let Some(c) = stip.help_starter() else {
        return fen.trim().to_string();
    };
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    let side = if c == fers_core::Color::White {
        "w"
    } else {
        "b"
    };
    if fields.len() >= 2 {
        if fields[1] != side {
            fields[1] = side.to_string();
            // An en-passant square belongs to the other side's turn.
            if fields.len() >= 4 {
                fields[3] = "-".to_string();
            }
        }
    } else if fields.len() == 1 {
        fields.push(side.to_string());
    }
    fields.join(" ")
}

/// The problems the command line asks for.
pub fn jobs(m: &clap::ArgMatches) -> Result<Vec<Job>, SolveCliError> {
    let variant_name = m
        .get_one::<String>("variant")
        .map(String::as_str)
        .unwrap_or("chess");
    let variant_file = m.get_one::<String>("variant-file").map(PathBuf::from);
    let extra = m
        .get_one::<String>("conditions")
        .cloned()
        .unwrap_or_default();
    match (m.get_one::<String>("file"), m.get_one::<String>("fen")) {
        (Some(_), Some(_)) => Err(SolveCliError::Usage(
            "give a FILE or --fen, not both".into(),
        )),
        (None, None) => Err(SolveCliError::Usage(
            "give a Popeye FILE, or --fen FEN --stip STIP".into(),
        )),
        (None, Some(fen)) => {
            let stip_text = m.get_one::<String>("stip").ok_or_else(|| {
                SolveCliError::Usage("--fen needs --stip (#2, s#3, h#2, h#2.5)".into())
            })?;
            let stipulation: Stipulation = stip_text
                .parse()
                .map_err(|e| SolveCliError::Stipulation(format!("{e}")))?;
            let v = variant_for(variant_name, variant_file.as_ref(), &extra)?;
            Ok(vec![Job {
                info: Vec::new(),
                variant: v,
                conditions: extra.clone(),
                fen: fen_for(fen, stipulation),
                stipulation,
                no_threat: false,
            }])
        }
        (Some(file), None) => {
            if m.get_one::<String>("stip").is_some() {
                return Err(SolveCliError::Usage(
                    "--stip goes with --fen; a Popeye file has its own".into(),
                ));
            }
            let text = std::fs::read_to_string(file)
                .map_err(|e| SolveCliError::File(format!("cannot read {file}: {e}")))?;
            let problems =
                popeye::parse(&text).map_err(|e| SolveCliError::Popeye(format!("{file}: {e}")))?;
            problems
                .into_iter()
                .map(|p| {
                    let conditions = format!("{} {}", p.conditions, extra).trim().to_string();
                    let v = variant_for(variant_name, variant_file.as_ref(), &conditions)?;
                    Ok(Job {
                        info: p.info,
                        variant: v,
                        conditions,
                        fen: p.fen,
                        stipulation: p.stipulation,
                        no_threat: p.no_threat,
                    })
                })
                .collect()
        }
    }
}

/// Solves one job and returns its output (text or one JSON line).
pub fn run_job(job: &Job, as_json: bool, limit: Option<Duration>) -> Result<String, SolveCliError> {
    let pos =
        Position::from_fen(job.variant, &job.fen).map_err(|e| SolveCliError::Fen(e.to_string()))?;
    let start = Instant::now();
    let abort = move || limit.is_some_and(|l| start.elapsed() >= l);
    let sol = solve::solve(&pos, job.stipulation, &abort)
        .map_err(|e| SolveCliError::Problem(e.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    if as_json {
        return Ok(output::json(
            &pos,
            &sol,
            &JsonHeader {
                fen: &job.fen,
                variant: &job.variant.name,
                conditions: &job.conditions,
                seconds,
            },
        ));
    }
    let mut out = String::new();
    for (what, text) in &job.info {
        out.push_str(&format!("{what}: {text}\n"));
    }
    out.push_str(&pos.board_string());
    out.push_str(&format!(
        "  {}   {}{}\n\n",
        job.stipulation,
        job.fen,
        if job.conditions.is_empty() {
            String::new()
        } else {
            format!("   {}", job.conditions)
        }
    ));
    out.push_str(&output::text(&pos, &sol, job.no_threat));
    out.push_str(&format!(
        "\nsolution {}. Time = {:.3} s, nodes = {}\n",
        if sol.aborted {
            "interrupted"
        } else {
            "finished"
        },
        seconds,
        sol.nodes
    ));
    Ok(out)
}

/// `fers-solve` itself: returns the exit status (0 solved, 1 a problem
/// failed to load or solve, 2 bad usage).
pub fn main_with(args: Vec<String>) -> i32 {
    let m = match command().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let as_json = m.get_flag("json");
    let limit = m
        .get_one::<f64>("max-seconds")
        .filter(|s| s.is_finite() && **s > 0.0)
        .map(|s| Duration::from_secs_f64(*s));
    let jobs = match jobs(&m) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("fers-solve: {e}");
            return if matches!(e, SolveCliError::Usage(_)) {
                2
            } else {
                1
            };
        }
    };
    let mut status = 0;
    for job in &jobs {
        match run_job(job, as_json, limit) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("fers-solve: {e}");
                status = 1;
            }
        }
    }
    status
}
