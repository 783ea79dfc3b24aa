//! fers-tune: fits the evaluation parameters to labelled positions.
//!
//! Input lines are `FEN;score`, the score in centipawns from White's side as
//! given by a stronger engine (for example Stockfish at a fixed depth on
//! positions whose best move is quiet). The loss is Texel's: the mean squared
//! difference between `sigmoid(K * ours)` and `sigmoid(K0 * label)`, with K
//! fitted once to the current evaluation so that its scale is kept.
//!
//! Two alternating steps:
//! - the orthodox piece-square corrections (`Params::ortho_pst`), which enter
//!   the evaluation linearly, by full-batch Adam on their exact gradient;
//! - every other scalar parameter by coordinate descent on the real
//!   evaluation (Texel's local search).
//!
//! The result is written as Rust source for `engine/src/tuned.rs`.

use fers_core::{Color, Position, Variant};
use fers_engine::evaluate::{EvalTables, Params, PARAMS};
use fers_tools::value_fit::{self, fit_k, loss, sigmoid, white_eval, Sample, K_LABEL};
use std::io::Write;
use std::process::ExitCode;

/// Phase-weighted positions an orthodox table entry needs to be fitted
/// (`-min-seen`).
const MIN_SEEN: f64 = 400.0;
/// Largest learned correction of one table entry (centipawns).
const MAX_PST: f64 = 100.0;

fn evals(samples: &[Sample], t: &EvalTables, threads: usize) -> Vec<i32> {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|sc| {
        let hs: Vec<_> = samples
            .chunks(chunk)
            .map(|c| sc.spawn(move || c.iter().map(|s| white_eval(s, t)).collect::<Vec<_>>()))
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

fn loss_with(v: &'static Variant, p: &Params, samples: &[Sample], k: f64, threads: usize) -> f64 {
    let t = EvalTables::build(v, p);
    loss(samples, &evals(samples, &t, threads), k)
}

/// Every scalar parameter except those that only shape fairy pieces.
fn scalars(p: &mut Params) -> Vec<(String, &mut i32)> {
    let Params {
        pawn,
        knight,
        bishop,
        rook,
        queen,
        auto_lin: _,
        auto_quad: _,
        rider_decay: _,
        center_mg,
        center_eg,
        mob_scale_mg,
        mob_scale_eg,
        pawn_advance_mg,
        pawn_advance_eg,
        passed_mg,
        passed_eg,
        pawn_center_mg,
        doubled,
        isolated,
        supported,
        bishop_pair,
        rook_open,
        rook_semi_open,
        shield1,
        shield2,
        king_open_file,
        king_danger_div,
        king_danger_cap,
        tempo,
        king_rank_mg,
        king_center_eg,
        passed_king_dist_eg,
        threat_by_pawn,
        hanging,
        phalanx,
        passed_free,
        outpost,
        rook_seventh,
        castle_right_mg,
        danger_weak,
        danger_open_file,
        king_center_mg,
        danger_safe_check,
        danger_unsafe_check,
        danger_no_queen,
        danger_attacker,
        king_danger_eg,
        threat_by_lesser,
        pawn_storm,
        ocb_scale,
        backward,
        space,
        bishop_pawns,
        minor_behind_pawn,
        pawnless_flank,
        ortho_pst: _,
    } = p;
    let mut v: Vec<(String, &mut i32)> = Vec::new();
    for (name, (a, b)) in [
        ("pawn", pawn),
        ("knight", knight),
        ("bishop", bishop),
        ("rook", rook),
        ("queen", queen),
        ("doubled", doubled),
        ("isolated", isolated),
        ("supported", supported),
        ("bishop_pair", bishop_pair),
        ("rook_open", rook_open),
        ("rook_semi_open", rook_semi_open),
        ("threat_by_pawn", threat_by_pawn),
        ("hanging", hanging),
        ("phalanx", phalanx),
        ("passed_free", passed_free),
        ("outpost", outpost),
        ("rook_seventh", rook_seventh),
        ("threat_by_lesser", threat_by_lesser),
        ("backward", backward),
        ("bishop_pawns", bishop_pawns),
        ("minor_behind_pawn", minor_behind_pawn),
        ("pawnless_flank", pawnless_flank),
    ] {
        v.push((format!("{name}.mg"), a));
        v.push((format!("{name}.eg"), b));
    }
    for (name, x) in [
        ("center_mg", center_mg),
        ("center_eg", center_eg),
        ("mob_scale_mg", mob_scale_mg),
        ("mob_scale_eg", mob_scale_eg),
        ("pawn_center_mg", pawn_center_mg),
        ("shield1", shield1),
        ("shield2", shield2),
        ("king_open_file", king_open_file),
        ("king_danger_div", king_danger_div),
        ("king_danger_cap", king_danger_cap),
        ("tempo", tempo),
        ("king_rank_mg", king_rank_mg),
        ("king_center_eg", king_center_eg),
        ("passed_king_dist_eg", passed_king_dist_eg),
        ("castle_right_mg", castle_right_mg),
        ("danger_weak", danger_weak),
        ("danger_open_file", danger_open_file),
        ("king_center_mg", king_center_mg),
        ("danger_safe_check", danger_safe_check),
        ("danger_unsafe_check", danger_unsafe_check),
        ("danger_no_queen", danger_no_queen),
        ("danger_attacker", danger_attacker),
        ("king_danger_eg", king_danger_eg),
        ("ocb_scale", ocb_scale),
        ("space", space),
    ] {
        v.push((name.to_string(), x));
    }
    for (name, arr) in [
        ("pawn_advance_mg", pawn_advance_mg),
        ("pawn_advance_eg", pawn_advance_eg),
        ("passed_mg", passed_mg),
        ("passed_eg", passed_eg),
    ] {
        for (i, x) in arr.iter_mut().enumerate().skip(1).take(6) {
            v.push((format!("{name}[{i}]"), x));
        }
    }
    for (i, x) in pawn_storm.iter_mut().enumerate().skip(1) {
        v.push((format!("pawn_storm[{i}]"), x));
    }
    v
}

/// Linear features of the orthodox tables: `(role * 64 + square, sign)`.
fn pst_features(pos: &Position, t: &EvalTables) -> Vec<(u16, i8)> {
    let mut f = Vec::new();
    for c in [Color::White, Color::Black] {
        for sq in pos.occupied(c).iter() {
            let k = pos.piece_at(sq).kind() as usize;
            if let Some(role) = t.ortho_role.get(k).copied().flatten() {
                let (wsq, sign) = match c {
                    Color::White => (sq as usize, 1),
                    Color::Black => (sq as usize ^ 56, -1),
                };
                f.push(((role as usize * 64 + wsq) as u16, sign));
            }
        }
    }
    f
}

/// Adam on the orthodox tables, with the rest of the evaluation fixed.
#[allow(clippy::too_many_arguments)]
fn tune_pst(
    v: &'static Variant,
    p: &mut Params,
    samples: &[Sample],
    k: f64,
    iters: usize,
    lr: f64,
    l2: f64,
    min_seen: f64,
    threads: usize,
) {
    let t = EvalTables::build(v, p);
    let base = evals(samples, &t, threads);
    let feats: Vec<Vec<(u16, i8)>> = samples.iter().map(|s| pst_features(&s.pos, &t)).collect();
    let phases: Vec<f64> = samples
        .iter()
        .map(|s| t.phase(&s.pos) as f64 / 256.0)
        .collect();
    let n = 6 * 64;
    // Phase-weighted number of positions behind each entry: entries seen
    // too rarely stay at zero (a king on e5 in a dozen middlegames must not
    // teach the evaluation that kings belong there).
    let mut seen = vec![[0.0f64; 2]; n];
    for (f, &ph) in feats.iter().zip(&phases) {
        for &(idx, _) in f {
            seen[idx as usize][0] += ph;
            seen[idx as usize][1] += 1.0 - ph;
        }
    }
    // The king's middlegame table is not learned: where a king may stand
    // in the middlegame is the king-safety terms' business, and positions
    // from fers' own games (kings walked out by the search) teach it the
    // wrong lesson.
    let frozen: Vec<[bool; 2]> = seen
        .iter()
        .enumerate()
        .map(|(j, s)| [s[0] < min_seen || j / 64 == 5, s[1] < min_seen])
        .collect();
    let mut delta = vec![[0.0f64; 2]; n];
    let mut m1 = vec![[0.0f64; 2]; n];
    let mut m2 = vec![[0.0f64; 2]; n];
    let (b1, b2) = (0.9f64, 0.999f64);
    for it in 1..=iters {
        let mut grad = vec![[0.0f64; 2]; n];
        let mut l = 0.0;
        for i in 0..samples.len() {
            let ph = phases[i];
            let mut e = base[i] as f64;
            for &(idx, sg) in &feats[i] {
                let d = delta[idx as usize];
                e += sg as f64 * (d[0] * ph + d[1] * (1.0 - ph));
            }
            let s = sigmoid(k * e);
            let err = s - samples[i].target;
            l += err * err;
            let g = 2.0 * err * s * (1.0 - s) * k;
            for &(idx, sg) in &feats[i] {
                let gg = g * sg as f64;
                grad[idx as usize][0] += gg * ph;
                grad[idx as usize][1] += gg * (1.0 - ph);
            }
        }
        let inv = 1.0 / samples.len() as f64;
        for j in 0..n {
            for h in 0..2 {
                // L2 on the whole correction keeps rare squares near zero.
                let total = p.ortho_pst[j / 64][j % 64];
                let w = if h == 0 { total.0 } else { total.1 } as f64 + delta[j][h];
                let g = grad[j][h] * inv + l2 * w;
                m1[j][h] = b1 * m1[j][h] + (1.0 - b1) * g;
                m2[j][h] = b2 * m2[j][h] + (1.0 - b2) * g * g;
                let mh = m1[j][h] / (1.0 - b1.powi(it as i32));
                let vh = m2[j][h] / (1.0 - b2.powi(it as i32));
                if frozen[j][h] {
                    continue;
                }
                delta[j][h] -= lr * mh / (vh.sqrt() + 1e-12);
                // Corrections stay within a bound.
                let base = if h == 0 { total.0 } else { total.1 } as f64;
                delta[j][h] = delta[j][h].clamp(-MAX_PST - base, MAX_PST - base);
            }
        }
        if it % 50 == 0 || it == iters {
            eprintln!("  pst iter {it}: loss {:.7}", l * inv);
        }
    }
    for role in 0..6 {
        for sq in 0..64 {
            let d = delta[role * 64 + sq];
            let e = &mut p.ortho_pst[role][sq];
            e.0 += d[0].round() as i32;
            e.1 += d[1].round() as i32;
        }
    }
}

fn tune_scalars(
    v: &'static Variant,
    p: &mut Params,
    samples: &[Sample],
    k: f64,
    threads: usize,
    only: &[String],
) -> f64 {
    let mut best = loss_with(v, p, samples, k, threads);
    let count = scalars(p).len();
    for i in 0..count {
        let name = scalars(p)[i].0.clone();
        if !only.is_empty() && !only.iter().any(|o| name.starts_with(o.as_str())) {
            continue;
        }
        let cur = *scalars(p)[i].1;
        let step = (cur.abs() / 16).max(2);
        let mut improved = false;
        for dir in [1, -1] {
            loop {
                let mut q = p.clone();
                *scalars(&mut q)[i].1 += dir * step;
                let l = loss_with(v, &q, samples, k, threads);
                if l < best {
                    best = l;
                    *p = q;
                    improved = true;
                } else {
                    break;
                }
            }
            if improved {
                break;
            }
        }
        eprintln!("  {name}: {cur} -> {} (loss {best:.7})", *scalars(p)[i].1);
    }
    best
}

/// Writes `engine/src/tuned.rs` (run `cargo fmt` afterwards).
fn write_params(path: &str, p: &Params, note: &str) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    writeln!(
        f,
        "//! The evaluation parameters, written by `fers-tune` ({note})."
    )?;
    writeln!(f, "//!")?;
    writeln!(
        f,
        "//! tools/src/bin/fers-tune.rs explains the fit; `Params` in"
    )?;
    writeln!(f, "//! `evaluate.rs` says what each number means.")?;
    writeln!(f)?;
    writeln!(f, "use crate::evaluate::Params;")?;
    writeln!(f)?;
    writeln!(f, "pub const PARAMS: Params = {p:?};")?;
    Ok(())
}

/// `fers-tune -values DATA... [-variant V] [-variantfile F] [-lambda L]
/// [-hold PCT] [-iters N]`: piece values fitted from `fers-nnue -selfplay`
/// data (`value_fit.rs`); the report goes to stderr, the variant-file lines
/// to stdout.
fn values_mode(args: &[String]) -> ExitCode {
    let usage = "usage: fers-tune -values DATA... [-variant V] [-variantfile F] \
                 [-lambda L] [-hold PCT] [-iters N] [-l2 X]";
    let run = || -> Result<String, String> {
        let (mut name, mut file) = ("chess".to_string(), None);
        let (mut lambda, mut hold) = (1.0f64, 10usize);
        let mut opt = value_fit::FitOptions::default();
        let mut data = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if !a.starts_with('-') {
                data.push(a.clone());
                continue;
            }
            let v = it.next().ok_or(format!("{a} needs a value\n{usage}"))?;
            let bad = || format!("bad value {a} {v}");
            match a.as_str() {
                "-variant" => name = v.clone(),
                "-variantfile" => file = Some(v.clone()),
                "-lambda" => {
                    lambda = v
                        .parse()
                        .ok()
                        .filter(|l| (0.0..=1.0).contains(l))
                        .ok_or_else(bad)?
                }
                "-hold" => hold = v.parse().ok().filter(|h| *h < 90).ok_or_else(bad)?,
                "-iters" => opt.iters = v.parse().map_err(|_| bad())?,
                "-l2" => opt.l2 = v.parse().ok().filter(|l: &f64| *l >= 0.0).ok_or_else(bad)?,
                _ => return Err(format!("unknown option {a}\n{usage}")),
            }
        }
        if data.is_empty() {
            return Err(usage.to_string());
        }
        let (v, spec) = value_fit::resolve(&name, file.as_deref())?;
        let mut samples = Vec::new();
        for f in &data {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            let (s, skipped) = value_fit::read_samples(v, &text, lambda);
            eprintln!("{f}: {} positions, {skipped} lines skipped", s.len());
            samples.extend(s);
        }
        let (train, held) = value_fit::split_held(samples, hold);
        let f = value_fit::fit(v, &spec, &train, &held, &opt)?;
        eprintln!(
            "{}: {} training, {} held-out positions, K = {:.6}",
            v.name, f.train, f.held, f.k
        );
        eprintln!(
            "loss before {:.6} (held-out {:.6}); fitted, linear model {:.6} ({:.6}), \
             evaluation {:.6} ({:.6})",
            f.loss_before.0,
            f.loss_before.1,
            f.loss_linear.0,
            f.loss_linear.1,
            f.loss_after.0,
            f.loss_after.1
        );
        for k in &f.kinds {
            eprintln!(
                "  {} {:<14} {:>6} {:>6} -> {:>6} {:>6}  ({} positions out of balance{})",
                k.letter,
                k.name,
                k.old.0,
                k.old.1,
                k.new.0,
                k.new.1,
                k.seen,
                if k.fitted { "" } else { ", kept" }
            );
        }
        Ok(f.variant_lines())
    };
    match run() {
        Ok(lines) => {
            print!("{lines}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fers-tune: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("-values") {
        return values_mode(&args[2..]);
    }
    if args.len() < 3 {
        eprintln!(
            "usage: fers-tune OUT.rs DATA... [hold:DATA]... [-rounds N] [-threads N] [-limit N] [-l2 X] [-min-seen N] [-reset-pst] [-pst-only] [-only NAME,NAME...]\n\
             \x20      fers-tune -values DATA... [-variant V] [-variantfile F] [-lambda L] [-hold PCT] [-iters N] [-l2 X]"
        );
        std::process::exit(2);
    }
    let out = &args[1];
    let mut files = Vec::new();
    let (mut rounds, mut threads, mut limit) = (3usize, 2usize, usize::MAX);
    let mut l2 = 0.0;
    let mut min_seen = MIN_SEEN;
    let (mut reset_pst, mut pst_only) = (false, false);
    // `-only`: the scalars to fit (name prefixes); the others stay.
    let mut only: Vec<String> = Vec::new();
    let mut i = 2;
    while i < args.len() {
        let num = |j: usize| args.get(j).and_then(|s| s.parse().ok());
        match args[i].as_str() {
            "-only" => {
                only = args
                    .get(i + 1)
                    .map(|s| s.split(',').map(str::to_string).collect())
                    .unwrap_or_default()
            }
            "-rounds" => rounds = num(i + 1).unwrap_or(rounds),
            "-threads" => threads = num(i + 1).unwrap_or(threads),
            "-limit" => limit = num(i + 1).unwrap_or(limit),
            "-l2" => l2 = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(l2),
            "-min-seen" => {
                min_seen = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(min_seen)
            }
            "-reset-pst" => {
                reset_pst = true;
                i += 1;
                continue;
            }
            "-pst-only" => {
                pst_only = true;
                i += 1;
                continue;
            }
            f => {
                files.push(f.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let v = fers_core::variant::chess();
    let mut all = Vec::new();
    let mut held = Vec::new();
    for f in &files {
        // `hold:FILE`: positions for the hold-out set only.
        let (f, out) = match f.strip_prefix("hold:") {
            Some(f) => (f, &mut held),
            None => (f.as_str(), &mut all),
        };
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        for line in text.lines() {
            let Some((fen, cp)) = line.rsplit_once(';') else {
                continue;
            };
            let (Ok(pos), Ok(cp)) = (Position::from_fen(v, fen), cp.trim().parse::<f64>()) else {
                continue;
            };
            out.push(Sample {
                pos,
                target: sigmoid(K_LABEL * cp),
            });
        }
    }
    // The last 10% of the input is held out: whole games, as positions of one
    // game are alike. Then a deterministic shuffle of the rest.
    all.truncate(limit);
    let hold = if held.is_empty() {
        all.split_off(all.len() * 9 / 10)
    } else {
        held
    };
    let mut seed = 0x9e3779b97f4a7c15u64;
    for j in (1..all.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        all.swap(j, (seed % (j as u64 + 1)) as usize);
    }
    eprintln!("{} training, {} hold-out positions", all.len(), hold.len());
    let mut p = PARAMS.clone();
    if reset_pst {
        p.ortho_pst = [[(0, 0); 64]; 6];
    }
    let t = EvalTables::build(v, &p);
    let ev = evals(&all, &t, threads);
    let k = fit_k(&all, &ev);
    eprintln!(
        "K = {k:.6}; loss {:.7}, hold-out {:.7}",
        loss_with(v, &p, &all, k, threads),
        loss_with(v, &p, &hold, k, threads)
    );
    let note = format!("{} positions, {rounds} rounds", all.len() + hold.len());
    for r in 0..rounds {
        if only.is_empty() {
            tune_pst(v, &mut p, &all, k, 400, 1.0, l2, min_seen, threads);
        }
        eprintln!(
            "round {r} pst: loss {:.7}, hold-out {:.7}",
            loss_with(v, &p, &all, k, threads),
            loss_with(v, &p, &hold, k, threads)
        );
        write_params(out, &p, &note).expect("write");
        if pst_only {
            continue;
        }
        tune_scalars(v, &mut p, &all, k, threads, &only);
        eprintln!(
            "round {r} scalars: loss {:.7}, hold-out {:.7}",
            loss_with(v, &p, &all, k, threads),
            loss_with(v, &p, &hold, k, threads)
        );
        write_params(out, &p, &note).expect("write");
    }
    ExitCode::SUCCESS
}
