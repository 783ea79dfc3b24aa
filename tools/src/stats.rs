//! Match statistics from wins, losses and draws: the score, the logistic
//! Elo difference with its 95% error margin, the likelihood of superiority
//! (LOS), the draw ratio; and the sequential probability ratio test (SPRT)
//! on the logistic Elo scale (the generalised SPRT of Fishtest's "logistic"
//! model), with an early stop when a bound is crossed.
//!
//! Formulas (score per game x in {1, 1/2, 0}, n games):
//! - mean score s = (W + D/2) / n, per-game variance
//!   v = (W (1-s)² + D (1/2-s)² + L s²) / n;
//! - Elo(s) = -400 log10(1/s - 1); error = (Elo(s + 1.96 σ) - Elo(s - 1.96 σ)) / 2
//!   with σ = sqrt(v / n); where that interval leaves (0, 1), Wilson's
//!   interval instead, and after only wins or only losses the exact
//!   one-sided bound (see [`score_interval`]);
//! - LOS = Φ((W - L) / sqrt(W + L)) = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2;
//! - SPRT: s_k = 1 / (1 + 10^(-elo_k / 400)); LLR = n (s1 - s0)(2 s - s0 - s1) / (2 v);
//!   bounds ln(β / (1 - α)) and ln((1 - β) / α).

use std::fmt;

/// Two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The error function, to about 1e-12 (series for small x, continued
/// fraction for the tail).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: 2/sqrt(pi) * sum (-1)^k x^(2k+1) / (k! (2k+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for k in 1..200 {
            let k = k as f64;
            term *= -x2 / k;
            let add = term / (2.0 * k + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc by Lentz's continued fraction.
        1.0 - erfc_tail(x)
    }
}

fn erfc_tail(x: f64) -> f64 {
    // erfc(x) = exp(-x²)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    let mut f = 0.0;
    for k in (1..60).rev() {
        f = (k as f64 / 2.0) / (x + f);
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / (x + f)
}

/// The logistic Elo difference of a mean score in (0, 1).
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error rate of the one-sided bound after only wins or only losses.
const ALPHA: f64 = 0.05;

/// A 95% confidence interval of the mean score, in (0, 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScoreInterval {
    /// No games: nothing to say.
    None,
    /// s ± 1.96 sqrt(v / n), from the sample's own variance.
    Normal { lo: f64, hi: f64 },
    /// Wilson's score interval, used when the normal one leaves (0, 1) or
    /// the sample shows no spread (only draws, say).
    Wilson { lo: f64, hi: f64 },
    /// Only wins (`won`) or only losses: the interval reaches 1 (or 0), so
    /// its width and the Elo are infinite; `bound` is the exact one-sided
    /// 95% bound on the score (Clopper-Pearson at x = n).
    OneSided { bound: f64, won: bool },
}

impl ScoreInterval {
    /// Half the interval's width on the Elo scale (NaN for `None` and
    /// `OneSided`).
    pub fn elo_error(&self) -> f64 {
        match *self {
            ScoreInterval::Normal { lo, hi } | ScoreInterval::Wilson { lo, hi } => {
                (elo_of_score(hi) - elo_of_score(lo)) / 2.0
            }
            ScoreInterval::None | ScoreInterval::OneSided { .. } => f64::NAN,
        }
    }
}

/// The 95% interval of a mean score `s` in [0, 1] over `n` independent
/// units (games, or pairs of games) whose score has variance `v`:
/// - the normal interval s ± 1.96 sqrt(v / n) while it fits in (0, 1) and
///   v > 0;
/// - else, for 0 < s < 1, Wilson's interval: the p with
///   |s - p| ≤ 1.96 sqrt(p (1 - p) / n). A score in [0, 1] with mean p has
///   variance at most p (1 - p), so with draws this is conservative;
/// - for s = 1 (s = 0), the one-sided bound: a unit scores 1 with
///   probability at most its mean p, so n wins in a row have probability
///   at most p^n, and p ≥ 0.05^(1/n) at 95% (p ≤ 1 - 0.05^(1/n) for n
///   losses). This is Clopper-Pearson's bound for x = n, valid with draws.
pub fn score_interval(s: f64, v: f64, n: u32) -> ScoreInterval {
    if n == 0 {
        return ScoreInterval::None;
    }
    let nf = n as f64;
    if s >= 1.0 || s <= 0.0 {
        let p = ALPHA.powf(1.0 / nf);
        return ScoreInterval::OneSided {
            bound: if s >= 1.0 { p } else { 1.0 - p },
            won: s >= 1.0,
        };
    }
    let sigma = (v / nf).sqrt();
    let (lo, hi) = (s - Z95 * sigma, s + Z95 * sigma);
    if v > 0.0 && lo > 0.0 && hi < 1.0 {
        return ScoreInterval::Normal { lo, hi };
    }
    let z2 = Z95 * Z95;
    let d = 1.0 + z2 / nf;
    let centre = (s + z2 / (2.0 * nf)) / d;
    let half = Z95 / d * (s * (1.0 - s) / nf + z2 / (4.0 * nf * nf)).sqrt();
    ScoreInterval::Wilson {
        lo: centre - half,
        hi: centre + half,
    }
}

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Wdl {
    pub fn new(wins: u32, losses: u32, draws: u32) -> Wdl {
        Wdl {
            wins,
            losses,
            draws,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// Variance of one game's score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference (infinite after only wins or only losses).
    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }

    /// The 95% confidence interval of the score (see [`score_interval`]).
    pub fn interval(&self) -> ScoreInterval {
        score_interval(self.score(), self.variance(), self.games())
    }

    /// Half the width of the 95% confidence interval of the Elo difference:
    /// finite whenever some game was not won and some game was not lost;
    /// NaN with no games, or after only wins or only losses (one end of the
    /// interval is then infinite: see [`ScoreInterval::OneSided`]).
    pub fn elo_error(&self) -> f64 {
        self.interval().elo_error()
    }

    /// Likelihood of superiority, 0..1 (0.5 with no decisive game).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        self.draws as f64 / n as f64
    }
}

/// SPRT parameters: H0 elo = elo0 against H1 elo = elo1, error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The state of an SPRT after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtDecision {
    Continue,
    /// H0 accepted: elo is not above elo0 (the lower bound was crossed).
    H0,
    /// H1 accepted: elo is at least elo1 (the upper bound was crossed).
    H1,
}

/// A malformed SPRT setting.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    Probability(&'static str, f64),
    Order { elo0: f64, elo1: f64 },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::Probability(k, v) => write!(f, "SPRT {k}={v} is not in (0, 1)"),
            SprtError::Order { elo0, elo1 } => {
                write!(f, "SPRT needs elo0 < elo1 (got {elo0} and {elo1})")
            }
        }
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        for (k, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(SprtError::Probability(k, v));
            }
        }
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Order { elo0, elo1 });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// ln(β / (1 - α)): H0 is accepted below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// ln((1 - β) / α): H1 is accepted above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0. Counts of zero are
    /// replaced by 0.001 (as Fishtest regularises), so that a run of wins
    /// only, whose variance is 0, still moves the ratio.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let reg = |x: u32| if x == 0 { 1e-3 } else { x as f64 };
        let (w, l, d) = (reg(wdl.wins), reg(wdl.losses), reg(wdl.draws));
        let n = w + l + d;
        let s = (w + d / 2.0) / n;
        let v = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v)
    }

    pub fn decision(&self, wdl: &Wdl) -> SprtDecision {
        let llr = self.llr(wdl);
        if llr >= self.upper_bound() {
            SprtDecision::H1
        } else if llr <= self.lower_bound() {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }

    /// `SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94[ - H1 was accepted]`.
    pub fn line(&self, wdl: &Wdl) -> String {
        let llr = self.llr(wdl);
        let bound = if llr >= 0.0 {
            self.upper_bound()
        } else {
            self.lower_bound()
        };
        // How far towards the bound it is heading for, signed like the LLR.
        let pct = 100.0 * llr / bound.abs();
        let mut s = format!(
            "SPRT: llr {:.3} ({:.1}%), lbound {:.2}, ubound {:.2}",
            llr + 0.0,
            pct + 0.0,
            self.lower_bound(),
            self.upper_bound()
        );
        match self.decision(wdl) {
            SprtDecision::H0 => s.push_str(" - H0 was accepted"),
            SprtDecision::H1 => s.push_str(" - H1 was accepted"),
            SprtDecision::Continue => {}
        }
        s
    }
}

fn fmt_num(x: f64, prec: usize) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        // `+ 0.0` turns -0.0 into 0.0.
        format!("{:.prec$}", x + 0.0)
    }
}

/// `Score of A vs B: W - L - D  [0.550] N`.
pub fn score_line(a: &str, b: &str, wdl: &Wdl) -> String {
    format!("Score of {a} vs {b}: {}", wdl_text(wdl))
}

/// `W - L - D  [0.550] N`.
pub fn wdl_text(wdl: &Wdl) -> String {
    format!(
        "{} - {} - {}  [{:.3}] {}",
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.score(),
        wdl.games()
    )
}

/// `Elo difference: 34.9 +/- 53.2, LOS: 92.1 %, DrawRatio: 50.0 %`; when
/// the normal interval does not fit in (0, 1), the Wilson interval is named
/// (`-511.5 +/- 307.6 (95% Wilson: -819.1 to -203.9)`), and after only wins
/// or only losses the line says why no error bar exists and gives the
/// one-sided bound instead (`inf, no error bar (every game won): > 316.6 at
/// 95%, one-sided`).
pub fn elo_line(wdl: &Wdl) -> String {
    format!(
        "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        elo_text(wdl.elo(), &wdl.interval(), "game"),
        wdl.los() * 100.0,
        wdl.draw_ratio() * 100.0
    )
}

/// `X +/- Y` and what the interval is, as [`elo_line`] writes it; `unit`
/// names what was counted (`game`, `pair`).
fn elo_text(elo: f64, interval: &ScoreInterval, unit: &str) -> String {
    let e = interval.elo_error();
    match *interval {
        ScoreInterval::Normal { .. } => format!("{} +/- {}", fmt_num(elo, 1), fmt_num(e, 1)),
        ScoreInterval::Wilson { lo, hi } => format!(
            "{} +/- {} (95% Wilson: {} to {})",
            fmt_num(elo, 1),
            fmt_num(e, 1),
            fmt_num(elo_of_score(lo), 1),
            fmt_num(elo_of_score(hi), 1)
        ),
        ScoreInterval::OneSided { bound, won } => format!(
            "{}, no error bar (every {unit} {}): {} {} at 95%, one-sided",
            fmt_num(elo, 1),
            if won { "won" } else { "lost" },
            if won { ">" } else { "<" },
            fmt_num(elo_of_score(bound), 1)
        ),
        ScoreInterval::None => format!("{}, no error bar (no {unit}s)", fmt_num(elo, 1)),
    }
}

/// The Elo difference from pentanomial counts (pairs of games sharing an
/// opening in which the first engine scored 0, 1/2, 1, 3/2, 2): the same
/// score, with the variance of a pair's mean score, so that what an
/// opening contributes to both games is not counted as luck twice.
pub fn ptnml_interval(ptnml: &[u32; 5]) -> (f64, ScoreInterval) {
    let pairs: u32 = ptnml.iter().sum();
    if pairs == 0 {
        return (0.0, ScoreInterval::None);
    }
    let n = pairs as f64;
    let s = ptnml
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 * i as f64 / 4.0)
        .sum::<f64>()
        / n;
    let v = ptnml
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 * (i as f64 / 4.0 - s).powi(2))
        .sum::<f64>()
        / n;
    (elo_of_score(s), score_interval(s, v, pairs))
}

/// `...      Ptnml(0-2): [3, 10, 40, 12, 5]` (the pair counts).
pub fn ptnml_counts_line(ptnml: &[u32; 5]) -> String {
    let t = ptnml;
    format!(
        "...      Ptnml(0-2): [{}, {}, {}, {}, {}]",
        t[0], t[1], t[2], t[3], t[4]
    )
}

/// `...      Ptnml Elo: 34.9 +/- 40.1` (pentanomial error bar).
pub fn ptnml_line(ptnml: &[u32; 5]) -> String {
    let (elo, interval) = ptnml_interval(ptnml);
    format!("...      Ptnml Elo: {}", elo_text(elo, &interval, "pair"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} != {b} (tolerance {tol})");
    }

    // Expected values computed independently with Python's math module:
    //   python3 -c "import math; print(math.erf(0.5), math.erf(1.7), math.erf(3.1))"
    #[test]
    fn erf_matches_reference() {
        close(erf(0.5), 0.5204998778130465, 1e-12);
        close(erf(1.7), 0.9837904585907745, 1e-12);
        close(erf(3.1), 0.9999883513426328, 1e-12);
        close(erf(-0.5), -0.5204998778130465, 1e-12);
        close(erf(0.0), 0.0, 1e-15);
    }

    // W=30 L=20 D=50 (n=100): s = 0.55, by hand/Python:
    //   elo = -400*log10(1/0.55-1) = 34.86007...
    //   var = (30*0.45^2 + 50*0.05^2 + 20*0.55^2)/100 = 0.1225
    //   sigma = sqrt(0.1475/100); error = (elo(s+1.96σ) - elo(s-1.96σ))/2
    //   LOS = 0.5*(1+erf(10/sqrt(100))) = 0.5*(1+erf(1))
    #[test]
    fn elo_error_los_known_values() {
        let w = Wdl::new(30, 20, 50);
        close(w.score(), 0.55, 1e-12);
        close(w.variance(), 0.1225, 1e-12);
        close(w.elo(), 34.86007028756008, 1e-9);
        close(w.elo_error(), 48.470228059870166, 1e-6);
        close(w.los(), 0.9213503964748575, 1e-9);
        close(w.draw_ratio(), 0.5, 1e-12);
        assert_eq!(
            elo_line(&w),
            "Elo difference: 34.9 +/- 48.5, LOS: 92.1 %, DrawRatio: 50.0 %"
        );
        assert_eq!(
            score_line("A", "B", &w),
            "Score of A vs B: 30 - 20 - 50  [0.550] 100"
        );
    }

    #[test]
    fn degenerate_results() {
        let w = Wdl::new(0, 0, 0);
        assert_eq!(w.score(), 0.5);
        assert_eq!(w.los(), 0.5);
        assert!(w.elo_error().is_nan());
        assert_eq!(
            elo_line(&w),
            "Elo difference: 0.0, no error bar (no games), LOS: 50.0 %, DrawRatio: 0.0 %"
        );
        let w = Wdl::new(0, 0, 4);
        close(w.elo(), 0.0, 1e-12);
    }

    // The 1-19 match of issue 21 (printed "-511.5 +/- nan" before). s = 0.05,
    // n = 20, v = 0.05*0.95 = 0.0475; the normal interval
    // 0.05 ± 1.96*sqrt(0.0475/20) = 0.05 ± 0.0955 leaves (0, 1), so Wilson's
    // (Python, z = 1.959963984540054):
    //   d = 1 + z²/20; c = (0.05 + z²/40) / d
    //   h = z/d * sqrt(0.0475/20 + z²/1600)
    //   lo = 0.008881448800795402, hi = 0.23613119344674205
    //   Elo: -819.0567154164116 to -203.94616534585134, half 307.55527503528015
    #[test]
    fn lopsided_score_has_a_wilson_error_bar() {
        let w = Wdl::new(1, 19, 0);
        close(w.elo(), -511.50144038113154, 1e-9);
        match w.interval() {
            ScoreInterval::Wilson { lo, hi } => {
                close(lo, 0.008881448800795402, 1e-12);
                close(hi, 0.23613119344674205, 1e-12);
            }
            other => panic!("{other:?}"),
        }
        close(w.elo_error(), 307.55527503528015, 1e-7);
        assert_eq!(
            elo_line(&w),
            "Elo difference: -511.5 +/- 307.6 (95% Wilson: -819.1 to -203.9), \
             LOS: 0.0 %, DrawRatio: 0.0 %"
        );
        // Ten draws: the sample has no spread (v = 0), so Wilson at s = 0.5,
        // n = 10: lo = 0.236593090512564, hi = 0.7634069094874361,
        // Elo ±203.50161162773185 (Python, same formulas).
        let w = Wdl::new(0, 0, 10);
        match w.interval() {
            ScoreInterval::Wilson { lo, hi } => {
                close(lo, 0.236593090512564, 1e-12);
                close(hi, 0.7634069094874361, 1e-12);
            }
            other => panic!("{other:?}"),
        }
        close(w.elo_error(), 203.50161162773185, 1e-7);
    }

    // 20 wins of 20: P(20 wins) <= p^20, so p >= 0.05^(1/20) =
    // 0.8608916593317348, Elo > 316.6381319932591 (Python); 20 losses:
    // p <= 1 - 0.05^(1/20) = 0.13910834066826516, Elo < -316.638...
    // 3 wins of 3: p >= 0.05^(1/3) = 0.3684031498640387, Elo > -93.6466...
    #[test]
    fn perfect_score_says_why_no_error_bar() {
        let w = Wdl::new(20, 0, 0);
        assert!(w.elo().is_infinite());
        assert!(w.elo_error().is_nan());
        match w.interval() {
            ScoreInterval::OneSided { bound, won: true } => {
                close(bound, 0.8608916593317348, 1e-12);
                close(elo_of_score(bound), 316.6381319932591, 1e-9);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            elo_line(&w),
            "Elo difference: inf, no error bar (every game won): > 316.6 at 95%, \
             one-sided, LOS: 100.0 %, DrawRatio: 0.0 %"
        );
        let w = Wdl::new(0, 20, 0);
        match w.interval() {
            ScoreInterval::OneSided { bound, won: false } => {
                close(bound, 0.13910834066826516, 1e-12)
            }
            other => panic!("{other:?}"),
        }
        assert!(elo_line(&w).starts_with(
            "Elo difference: -inf, no error bar (every game lost): < -316.6 at 95%, one-sided"
        ));
        assert_eq!(
            elo_line(&Wdl::new(3, 0, 0)),
            "Elo difference: inf, no error bar (every game won): > -93.6 at 95%, \
             one-sided, LOS: 95.8 %, DrawRatio: 0.0 %"
        );
    }

    // Pentanomial [1, 2, 3, 2, 2] (10 pairs): pair scores i/4, by hand/Python
    //   s = (0*1 + .25*2 + .5*3 + .75*2 + 1*2)/10 = 0.55
    //   v = (1*.55² + 2*.3² + 3*.05² + 2*.2² + 2*.45²)/10 = 0.0975
    //   lo, hi = 0.55 ∓ 1.959963984540054*sqrt(0.0975/10)
    //   Elo 34.86007028756008 +/- 143.76232858189954
    // and [0, 0, 0, 0, 5]: every pair won, Elo > elo(0.05^(1/5)) =
    // elo(0.5492802716530588) = 34.354973191533425.
    #[test]
    fn pentanomial_known_values() {
        let (elo, i) = ptnml_interval(&[1, 2, 3, 2, 2]);
        close(elo, 34.86007028756008, 1e-9);
        assert!(matches!(i, ScoreInterval::Normal { .. }), "{i:?}");
        close(i.elo_error(), 143.76232858189954, 1e-7);
        assert_eq!(
            ptnml_line(&[1, 2, 3, 2, 2]),
            "...      Ptnml Elo: 34.9 +/- 143.8"
        );
        assert_eq!(
            ptnml_line(&[0, 0, 0, 0, 5]),
            "...      Ptnml Elo: inf, no error bar (every pair won): > 34.4 at 95%, one-sided"
        );
        assert_eq!(ptnml_interval(&[0; 5]).1, ScoreInterval::None);
    }

    // SPRT(elo0=0, elo1=5, alpha=beta=0.05): bounds ln(0.05/0.95) = -2.9444389791664403
    // and +2.9444389791664403. For W=1200 L=1100 D=1700 (n=4000):
    //   s = 0.5125, var = (1200*0.4875^2 + 1700*0.0125^2 + 1100*0.5125^2)/4000
    //   s0 = 0.5, s1 = 1/(1+10^(-5/400))
    //   llr = n*(s1-s0)*(2s-s0-s1)/(2var) = 1.7843094414117326  (Python)
    // W=1250 L=1100 D=1700: llr = 3.0044370046588886 (above the upper bound);
    // W=1000 L=1100 D=1700: llr = -3.3200445606433306 (below the lower bound);
    // W=1200 L=1100 D=1700 with elo0=-3, elo1=1: llr = 2.2351432871773427.
    #[test]
    fn sprt_known_values() {
        let t = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        close(t.lower_bound(), -2.9444389791664403, 1e-12);
        close(t.upper_bound(), 2.9444389791664403, 1e-12);
        let w = Wdl::new(1200, 1100, 1700);
        close(t.llr(&w), 1.7843094414117326, 1e-9);
        assert_eq!(t.decision(&w), SprtDecision::Continue);
        // 1.7843 / 2.9444 = 60.6% of the way to the upper bound.
        assert_eq!(
            t.line(&w),
            "SPRT: llr 1.784 (60.6%), lbound -2.94, ubound 2.94"
        );
        let w = Wdl::new(1250, 1100, 1700);
        close(t.llr(&w), 3.0044370046588886, 1e-9);
        assert_eq!(t.decision(&w), SprtDecision::H1);
        let w = Wdl::new(1000, 1100, 1700);
        close(t.llr(&w), -3.3200445606433306, 1e-9);
        assert_eq!(t.decision(&w), SprtDecision::H0);
        assert_eq!(
            t.line(&w),
            "SPRT: llr -3.320 (-112.8%), lbound -2.94, ubound 2.94 - H0 was accepted"
        );
        // alpha=0.05, beta=0.1: bounds ln(0.1/0.95), ln(0.9/0.05).
        let t = Sprt::new(-3.0, 1.0, 0.05, 0.1).unwrap();
        close(t.lower_bound(), -2.251291798606495, 1e-12);
        close(t.upper_bound(), 2.8903717578961645, 1e-12);
        close(t.llr(&Wdl::new(1200, 1100, 1700)), 2.2351432871773427, 1e-9);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert_eq!(t.llr(&Wdl::new(0, 0, 0)), 0.0);
        // Ten draws: W = L = 0.001 after regularisation, s = 0.5, so
        // llr = n (s1 - s0)(1 - s0 - s1) / (2 v) with elo0=-3, elo1=1 (Python):
        close(t.llr(&Wdl::new(0, 0, 10)), 1.6574144260584698, 1e-9);
        // Only wins or only losses still decide.
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert_eq!(t.decision(&Wdl::new(10, 0, 0)), SprtDecision::H1);
        assert_eq!(t.decision(&Wdl::new(0, 10, 0)), SprtDecision::H0);
    }
}
