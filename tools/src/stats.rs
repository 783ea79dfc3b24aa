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
//!   with σ = sqrt(v / n);
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

    /// Half the width of the 95% confidence interval of the Elo difference
    /// (NaN when the interval leaves (0, 1)).
    pub fn elo_error(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return f64::NAN;
        }
        let s = self.score();
        let sigma = (self.variance() / n).sqrt();
        let (lo, hi) = (s - Z95 * sigma, s + Z95 * sigma);
        if lo <= 0.0 || hi >= 1.0 {
            return f64::NAN;
        }
        (elo_of_score(hi) - elo_of_score(lo)) / 2.0
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

/// `Elo difference: 34.9 +/- 53.2, LOS: 92.1 %, DrawRatio: 50.0 %`.
pub fn elo_line(wdl: &Wdl) -> String {
    format!(
        "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        fmt_num(wdl.elo(), 1),
        fmt_num(wdl.elo_error(), 1),
        wdl.los() * 100.0,
        wdl.draw_ratio() * 100.0
    )
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
        let w = Wdl::new(3, 0, 0);
        assert!(w.elo().is_infinite());
        assert_eq!(
            elo_line(&w),
            "Elo difference: inf +/- nan, LOS: 95.8 %, DrawRatio: 0.0 %"
        );
        let w = Wdl::new(0, 0, 4);
        close(w.elo(), 0.0, 1e-12);
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
