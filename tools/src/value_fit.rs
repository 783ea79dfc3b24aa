//! Piece values fitted from fers's own games (`fers-tune -values`), for any
//! variant, file variants included: no teacher engine is needed.
//!
//! The data are `fers-nnue -selfplay` lines, `FEN;cp;result` from White's
//! side. Each position's target is `lambda * result + (1 - lambda) *
//! sigmoid(cp)`; the fit is Texel's: the mean squared difference between
//! `sigmoid(K * eval)` and the target, with `K` fitted once to the current
//! evaluation so that the centipawn scale is kept.
//!
//! Material enters the evaluation linearly, so the rest of the evaluation
//! is held fixed and only each kind's `(mg, eg)` value moves: a position's
//! evaluation becomes `base + sum over kinds of (own - enemy count) *
//! (dmg * phase + deg * (1 - phase))`, fitted by full-batch Adam on its
//! exact gradient. The result is checked on the real evaluation, rebuilt
//! with the new values, on the training positions and on held-out games.
//! The values are written as variant-file lines (`value.<letter> = MG EG`),
//! which the evaluation reads before any value of its own.

use fers_core::variant::VariantSpec;
use fers_core::variant_file;
use fers_core::{variant, Color, Position, Variant};
use fers_engine::evaluate::{evaluate, EvalTables, PARAMS};

/// Logistic scale of search scores as labels (400 centipawns = factor 10
/// in odds), as `fers-tune` and `fers-nnue` read them.
pub const K_LABEL: f64 = std::f64::consts::LN_10 / 400.0;

/// Positions in which a kind's count must differ between the sides before
/// its value is fitted (a kind rarely out of balance keeps its value).
pub const MIN_SEEN: usize = 500;

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The variant `name`, from variant file `file` if given (else built in),
/// with the specification it was built from (to rebuild it with values).
pub fn resolve(name: &str, file: Option<&str>) -> Result<(&'static Variant, VariantSpec), String> {
    if let Some(f) = file {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
        for s in variant_file::load(f, &text, &|_| None) {
            if s.name.eq_ignore_ascii_case(name) {
                let v = s.result.map_err(|e| e.to_string())?;
                let spec = s
                    .spec
                    .ok_or_else(|| format!("{f}: no specification for '{name}'"))?;
                return Ok((v, spec));
            }
        }
    }
    match (variant::builtin(name), variant::builtin_spec(name)) {
        (Some(v), Some(spec)) => Ok((v, spec)),
        _ => Err(format!(
            "unknown variant '{name}' (built in: {}; others need -variantfile)",
            variant::builtin_names().join(", ")
        )),
    }
}

/// One position of the data.
pub struct Sample {
    pub pos: Position,
    /// White's expected score (the target).
    pub target: f64,
}

/// Reads `FEN;cp;result` lines in variant `v` (other lines are skipped and
/// counted). `lambda` weighs the result against the search score.
pub fn read_samples(v: &'static Variant, text: &str, lambda: f64) -> (Vec<Sample>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match parse_line(v, line, lambda) {
            Some(s) => out.push(s),
            None => skipped += 1,
        }
    }
    (out, skipped)
}

fn parse_line(v: &'static Variant, line: &str, lambda: f64) -> Option<Sample> {
    let mut f = line.split(';');
    let pos = Position::from_fen(v, f.next()?.trim()).ok()?;
    let cp: f64 = f.next()?.trim().parse().ok()?;
    let result: f64 = f.next()?.trim().parse().ok()?;
    if !(0.0..=1.0).contains(&result) || f.next().is_some() {
        return None;
    }
    let target = lambda * result + (1.0 - lambda) * sigmoid(K_LABEL * cp);
    Some(Sample { pos, target })
}

/// White's evaluation of a sample.
pub fn white_eval(s: &Sample, t: &EvalTables) -> i32 {
    let e = evaluate(&s.pos, t);
    match s.pos.side_to_move() {
        Color::White => e,
        Color::Black => -e,
    }
}

/// White's evaluation of every sample.
pub fn white_evals(samples: &[Sample], t: &EvalTables) -> Vec<i32> {
    samples.iter().map(|s| white_eval(s, t)).collect()
}

/// Texel's loss of evaluations `ev` at scale `k`.
pub fn loss(samples: &[Sample], ev: &[i32], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .zip(ev)
        .map(|(s, &e)| (s.target - sigmoid(k * e as f64)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scale `K` that fits evaluations `ev` best (ternary search).
pub fn fit_k(samples: &[Sample], ev: &[i32]) -> f64 {
    let (mut lo, mut hi) = (0.0005f64, 0.02f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if loss(samples, ev, a) < loss(samples, ev, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The variant of `spec` with its pieces carrying `values` (`None` leaves
/// a piece to the evaluation), leaked, as variants are.
pub fn with_values(
    spec: &VariantSpec,
    values: &[Option<(i32, i32)>],
) -> Result<&'static Variant, String> {
    let mut spec = spec.clone();
    for (p, &val) in spec.pieces.iter_mut().zip(values) {
        p.value = val;
    }
    Variant::build(spec).map(variant::leak)
}

/// One kind's outcome.
#[derive(Clone, Debug)]
pub struct KindFit {
    pub letter: char,
    pub name: String,
    /// The value the evaluation gave it.
    pub old: (i32, i32),
    /// The fitted value (equal to `old` when the kind was not fitted).
    pub new: (i32, i32),
    /// Training positions where its count differed between the sides.
    pub seen: usize,
    pub fitted: bool,
}

/// What a fit found, with the real evaluation's loss before and after.
#[derive(Clone, Debug)]
pub struct Fit {
    pub kinds: Vec<KindFit>,
    pub k: f64,
    pub train: usize,
    pub held: usize,
    pub loss_before: (f64, f64),
    /// The loss of the linear model the values were fitted in.
    pub loss_linear: (f64, f64),
    pub loss_after: (f64, f64),
}

/// The fit's settings.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Adam steps.
    pub iters: usize,
    /// L2 penalty on each correction, per (100 centipawns)^2: a prior that
    /// the evaluation's own values are right, which noisy results (few
    /// games) must outweigh.
    pub l2: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            iters: 2000,
            l2: 1e-4,
        }
    }
}

impl Fit {
    /// The variant-file lines of the fitted values.
    pub fn variant_lines(&self) -> String {
        self.kinds
            .iter()
            .filter(|k| k.fitted)
            .map(|k| format!("value.{} = {} {}\n", k.letter, k.new.0, k.new.1))
            .collect()
    }

    /// The values to evaluate with: fitted kinds get their new value.
    pub fn values(&self) -> Vec<Option<(i32, i32)>> {
        self.kinds
            .iter()
            .map(|k| k.fitted.then_some(k.new))
            .collect()
    }
}

/// Per position: the phase (1 = middlegame) and the count differences
/// (White minus Black) of the kinds out of balance.
struct Features {
    phase: f64,
    diffs: Vec<(u8, i8)>,
}

fn features(s: &Sample, t: &EvalTables, kinds: usize) -> Features {
    let mut count = vec![0i8; kinds];
    for (c, sign) in [(Color::White, 1), (Color::Black, -1)] {
        for sq in s.pos.occupied(c).iter() {
            count[s.pos.piece_at(sq).kind() as usize] += sign;
        }
    }
    let diffs = (0..kinds as u8)
        .zip(count)
        .filter(|&(_, d)| d != 0)
        .collect();
    Features {
        phase: t.phase(&s.pos) as f64 / 256.0,
        diffs,
    }
}

/// Fits the values of the kinds of `v` (built from `spec`) to `train`
/// (`held` checks them) by `iters` Adam steps. The royal kind is never
/// fitted, nor a kind out of balance in fewer than [`MIN_SEEN`] positions.
pub fn fit(
    v: &'static Variant,
    spec: &VariantSpec,
    train: &[Sample],
    held: &[Sample],
    opt: &FitOptions,
) -> Result<Fit, String> {
    let t = EvalTables::for_variant(v);
    let base = white_evals(train, &t);
    let k = fit_k(train, &base);
    let base_held = white_evals(held, &t);
    let loss_before = (loss(train, &base, k), loss(held, &base_held, k));
    let n = v.pieces.len();
    let feats: Vec<Features> = train.iter().map(|s| features(s, &t, n)).collect();
    let mut seen = vec![0usize; n];
    for f in &feats {
        for &(kind, _) in &f.diffs {
            seen[kind as usize] += 1;
        }
    }
    let free: Vec<bool> = (0..n)
        .map(|kind| v.royal_kind != Some(kind as u8) && seen[kind] >= MIN_SEEN)
        .collect();
    let delta = adam(&base, &feats, train, &free, k, opt);
    let held_feats: Vec<Features> = held.iter().map(|s| features(s, &t, n)).collect();
    let loss_linear = (
        linear_loss(&base, &feats, train, &delta, k),
        linear_loss(&base_held, &held_feats, held, &delta, k),
    );
    let kinds: Vec<KindFit> = (0..n)
        .map(|kind| {
            let old = t.value[kind];
            let d = delta[kind];
            // A value stays positive: a piece is never worth less than nothing.
            let new = (
                (old.0 as f64 + d[0]).round().max(1.0) as i32,
                (old.1 as f64 + d[1]).round().max(1.0) as i32,
            );
            KindFit {
                letter: v.pieces[kind].letter,
                name: v.pieces[kind].name.clone(),
                old,
                new: if free[kind] { new } else { old },
                seen: seen[kind],
                fitted: free[kind],
            }
        })
        .collect();
    let mut fit = Fit {
        kinds,
        k,
        train: train.len(),
        held: held.len(),
        loss_before,
        loss_linear,
        loss_after: loss_before,
    };
    // The real evaluation with the new values: material also moves the
    // phase and the piece-square tables, which the linear model left out.
    let w = with_values(spec, &fit.values())?;
    let t2 = EvalTables::build(w, &PARAMS);
    let (train_w, held_w) = (reparse(w, train), reparse(w, held));
    fit.loss_after = (
        loss(&train_w, &white_evals(&train_w, &t2), k),
        loss(&held_w, &white_evals(&held_w, &t2), k),
    );
    Ok(fit)
}

/// The samples as positions of `w` (the same board, another variant value).
fn reparse(w: &'static Variant, s: &[Sample]) -> Vec<Sample> {
    s.iter()
        .filter_map(|s| {
            Some(Sample {
                pos: Position::from_fen(w, &s.pos.to_fen()).ok()?,
                target: s.target,
            })
        })
        .collect()
}

/// The linear model's evaluation of one position under corrections `delta`.
fn linear_eval(base: i32, f: &Features, delta: &[[f64; 2]]) -> f64 {
    let mut e = base as f64;
    for &(kind, d) in &f.diffs {
        let dl = delta[kind as usize];
        e += d as f64 * (dl[0] * f.phase + dl[1] * (1.0 - f.phase));
    }
    e
}

fn linear_loss(
    base: &[i32],
    feats: &[Features],
    samples: &[Sample],
    delta: &[[f64; 2]],
    k: f64,
) -> f64 {
    let sum: f64 = feats
        .iter()
        .zip(base)
        .zip(samples)
        .map(|((f, &b), s)| (s.target - sigmoid(k * linear_eval(b, f, delta))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Full-batch Adam on the value corrections `[dmg, deg]` per kind.
fn adam(
    base: &[i32],
    feats: &[Features],
    samples: &[Sample],
    free: &[bool],
    k: f64,
    opt: &FitOptions,
) -> Vec<[f64; 2]> {
    let n = free.len();
    let mut delta = vec![[0.0f64; 2]; n];
    let (mut m1, mut m2) = (vec![[0.0f64; 2]; n], vec![[0.0f64; 2]; n]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 2.0f64);
    let inv = 1.0 / samples.len().max(1) as f64;
    for it in 1..=opt.iters {
        let mut grad = vec![[0.0f64; 2]; n];
        for ((f, &b), s) in feats.iter().zip(base).zip(samples) {
            let p = sigmoid(k * linear_eval(b, f, &delta));
            let g = 2.0 * (p - s.target) * p * (1.0 - p) * k;
            for &(kind, d) in &f.diffs {
                let gg = g * d as f64;
                grad[kind as usize][0] += gg * f.phase;
                grad[kind as usize][1] += gg * (1.0 - f.phase);
            }
        }
        for kind in (0..n).filter(|&kind| free[kind]) {
            for h in 0..2 {
                let g = grad[kind][h] * inv + 2.0 * opt.l2 * delta[kind][h] / 1e4;
                m1[kind][h] = b1 * m1[kind][h] + (1.0 - b1) * g;
                m2[kind][h] = b2 * m2[kind][h] + (1.0 - b2) * g * g;
                let mh = m1[kind][h] / (1.0 - b1.powi(it as i32));
                let vh = m2[kind][h] / (1.0 - b2.powi(it as i32));
                delta[kind][h] -= lr * mh / (vh.sqrt() + 1e-12);
            }
        }
    }
    delta
}

/// Splits samples into training and held-out positions: the last
/// `hold_pct` percent of the data, whole games (self-play writes a game's
/// positions together, and positions of one game are alike).
pub fn split_held(mut samples: Vec<Sample>, hold_pct: usize) -> (Vec<Sample>, Vec<Sample>) {
    let held = samples.split_off(samples.len() - samples.len() * hold_pct.min(90) / 100);
    (samples, held)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions labelled by a known rule: the evaluation's own score,
    /// except that each queen counts 500 centipawns less. The fit must
    /// lower the queen's value, and its worth in pawns, leave the king and
    /// the absent kinds alone, and lower the held-out loss.
    #[test]
    fn fits_a_value_the_labels_imply() {
        let v = variant::chess();
        let fens = [
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "3qk3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/pppp4/8/8/8/8/8/3QK3 w - - 0 1",
            "3qk3/8/8/8/8/8/PPPP4/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1",
            "4k3/ppp5/8/8/8/8/8/4K3 b - - 0 1",
            "4k3/pp6/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/PP6/4K3 b - - 0 1",
        ];
        let t = EvalTables::for_variant(v);
        let mut samples = Vec::new();
        for _ in 0..200 {
            for fen in fens {
                let pos = Position::from_fen(v, fen).unwrap();
                let board = fen.split(' ').next().unwrap();
                let q = board.matches('Q').count() as f64 - board.matches('q').count() as f64;
                let sign = if pos.side_to_move() == Color::White {
                    1.0
                } else {
                    -1.0
                };
                let e = sign * evaluate(&pos, &t) as f64;
                let target = sigmoid(K_LABEL * (e - 500.0 * q));
                samples.push(Sample { pos, target });
            }
        }
        let held: Vec<Sample> = samples
            .iter()
            .take(16)
            .map(|s| Sample {
                pos: s.pos.clone(),
                target: s.target,
            })
            .collect();
        let opt = FitOptions {
            iters: 3000,
            l2: 0.0,
        };
        let f = fit(v, &variant::chess_spec(), &samples, &held, &opt).unwrap();
        let queen = &f.kinds[v.kind_of_letter('q').unwrap() as usize];
        let king = &f.kinds[v.kind_of_letter('k').unwrap() as usize];
        let pawn = &f.kinds[v.kind_of_letter('p').unwrap() as usize];
        // K is fitted to the evaluation these labels contradict, so the
        // scale is not exact; the queen's worth in pawns must fall clearly.
        let in_pawns = |q: (i32, i32), p: (i32, i32)| (q.0 + q.1) as f64 / (p.0 + p.1) as f64;
        assert!(queen.fitted && queen.new.1 < queen.old.1 - 200, "{queen:?}");
        assert!(
            in_pawns(queen.new, pawn.new) < in_pawns(queen.old, pawn.old) * 0.67,
            "{f:?}"
        );
        assert!(!king.fitted && king.new == king.old, "{king:?}");
        let rook = &f.kinds[v.kind_of_letter('r').unwrap() as usize];
        assert!(!rook.fitted && rook.seen == 0, "{rook:?}");
        assert!(f.loss_after.1 < f.loss_before.1, "{f:?}");
        assert!(
            f.variant_lines().contains("value.q = "),
            "{}",
            f.variant_lines()
        );
    }

    #[test]
    fn reads_lines_and_skips_others() {
        let v = variant::chess();
        let text = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;350;1\n\
                    not a line\n\
                    4k3/8/8/8/8/8/8/3QK3 w - - 0 1;350;2\n\
                    4k3/8/8/8/8/8/8/3QK3 w - - 0 1;0;0.5\n";
        let (s, skipped) = read_samples(v, text, 0.5);
        assert_eq!((s.len(), skipped), (2, 2));
        let expect = 0.5 + 0.5 * sigmoid(K_LABEL * 350.0);
        assert!((s[0].target - expect).abs() < 1e-12);
        assert!((s[1].target - 0.5).abs() < 1e-12);
    }
}
