//! Time controls as cutechess-cli writes them: `tc=40/60+0.6` (40 moves in
//! 60 s, 0.6 s increment per move), `tc=2:30+1` (minutes:seconds), `tc=inf`,
//! `st=1.5` (seconds per move), `nodes=N`, `depth=N` (also `plies=N`),
//! `timemargin=MS` (how late a move may come before it loses on time).
//! A [`Clock`] keeps one side's remaining time during a game.

use std::fmt;
use std::time::Duration;

/// A malformed time-control value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TcError {
    BadTc(String),
    BadNumber { key: String, value: String },
}

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcError::BadTc(s) => write!(
                f,
                "bad time control '{s}' (expected [moves/]seconds[+increment], e.g. 40/60+0.6, or inf)"
            ),
            TcError::BadNumber { key, value } => write!(f, "bad value '{value}' for {key}"),
        }
    }
}

impl std::error::Error for TcError {}

/// A game clock control: `moves` per period (0: the whole game), base time
/// per period and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockControl {
    pub moves: u32,
    pub base: Duration,
    pub increment: Duration,
}

/// Everything that limits one engine's thinking.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    pub clock: Option<ClockControl>,
    pub per_move: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Grace period after the time runs out.
    pub margin: Duration,
}

/// The default margin: moves that come this late are still accepted.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(0);

fn seconds(s: &str) -> Option<Duration> {
    let secs = if let Some((m, sec)) = s.split_once(':') {
        let m: f64 = m.parse().ok()?;
        let sec: f64 = sec.parse().ok()?;
        m * 60.0 + sec
    } else {
        s.parse().ok()?
    };
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

/// Parses the `tc=` value; `inf` (or `infinite`) is no clock.
pub fn parse_tc(s: &str) -> Result<Option<ClockControl>, TcError> {
    let bad = || TcError::BadTc(s.to_string());
    if s == "inf" || s == "infinite" {
        return Ok(None);
    }
    let (moves, rest) = match s.split_once('/') {
        Some((m, r)) => (m.parse::<u32>().map_err(|_| bad())?, r),
        None => (0, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (seconds(b).ok_or_else(bad)?, seconds(i).ok_or_else(bad)?),
        None => (seconds(rest).ok_or_else(bad)?, Duration::ZERO),
    };
    if base.is_zero() && inc.is_zero() {
        return Err(bad());
    }
    Ok(Some(ClockControl {
        moves,
        base,
        increment: inc,
    }))
}

fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{}", (s * 1000.0).round() / 1000.0)
    }
}

impl TimeControl {
    /// Applies one `key=value` setting; returns `Ok(false)` if the key is
    /// not a time-control key.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, TcError> {
        let num = || TcError::BadNumber {
            key: key.to_string(),
            value: value.to_string(),
        };
        match key {
            "tc" => self.clock = parse_tc(value)?,
            "st" => self.per_move = Some(seconds(value).filter(|d| !d.is_zero()).ok_or_else(num)?),
            "nodes" => self.nodes = Some(value.parse().map_err(|_| num())?),
            "depth" | "plies" => self.depth = Some(value.parse().map_err(|_| num())?),
            "timemargin" => self.margin = Duration::from_millis(value.parse().map_err(|_| num())?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// True when nothing limits the engine's thinking (it would never move).
    pub fn is_unlimited(&self) -> bool {
        self.clock.is_none()
            && self.per_move.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }
}

/// The PGN `TimeControl` tag value (`40/60+0.6`, `60`, `1/5` for 5 s a move, `-`).
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.clock {
            if c.moves > 0 {
                write!(f, "{}/", c.moves)?;
            }
            write!(f, "{}", fmt_secs(c.base))?;
            if !c.increment.is_zero() {
                write!(f, "+{}", fmt_secs(c.increment))?;
            }
            Ok(())
        } else if let Some(st) = self.per_move {
            write!(f, "1/{}", fmt_secs(st))
        } else {
            write!(f, "-")
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: Option<ClockControl>,
    remaining: Duration,
    /// Moves left in the current period (only when the control has periods).
    moves_left: u32,
}

/// The engine used more time than it had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    pub used: Duration,
    pub allowed: Duration,
}

impl Clock {
    pub fn new(tc: &TimeControl) -> Clock {
        let control = tc.clock;
        Clock {
            control,
            remaining: control.map_or(Duration::ZERO, |c| c.base),
            moves_left: control.map_or(0, |c| c.moves),
        }
    }

    /// Time left on the clock (zero when there is no clock).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Moves to the next time control (`None`: sudden death or no clock).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.control
            .filter(|c| c.moves > 0)
            .map(|_| self.moves_left)
    }

    pub fn increment(&self) -> Duration {
        self.control.map_or(Duration::ZERO, |c| c.increment)
    }

    pub fn has_clock(&self) -> bool {
        self.control.is_some()
    }

    /// How long the side may think for its next move before it loses on
    /// time (without the margin): the clock, or the time per move, or `None`.
    pub fn allowed(&self, tc: &TimeControl) -> Option<Duration> {
        match (self.control.is_some(), tc.per_move) {
            (true, Some(st)) => Some(self.remaining.min(st)),
            (true, None) => Some(self.remaining),
            (false, Some(st)) => Some(st),
            (false, None) => None,
        }
    }

    /// Charges a move that took `used`: checks the limit (with the margin),
    /// then adds the increment and starts a new period when one ends.
    pub fn charge(&mut self, tc: &TimeControl, used: Duration) -> Result<(), Overrun> {
        if let Some(allowed) = self.allowed(tc) {
            if used > allowed + tc.margin {
                return Err(Overrun { used, allowed });
            }
        }
        if let Some(c) = self.control {
            self.remaining = self.remaining.saturating_sub(used) + c.increment;
            if c.moves > 0 {
                self.moves_left -= 1;
                if self.moves_left == 0 {
                    self.moves_left = c.moves;
                    self.remaining += c.base;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_cutechess_forms() {
        let c = parse_tc("40/60+0.6").unwrap().unwrap();
        assert_eq!((c.moves, c.base, c.increment), (40, ms(60_000), ms(600)));
        let c = parse_tc("2:30+1").unwrap().unwrap();
        assert_eq!((c.moves, c.base, c.increment), (0, ms(150_000), ms(1000)));
        let c = parse_tc("10").unwrap().unwrap();
        assert_eq!((c.moves, c.base, c.increment), (0, ms(10_000), ms(0)));
        assert_eq!(parse_tc("inf").unwrap(), None);
        assert!(parse_tc("40/").is_err());
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("0").is_err());
    }

    #[test]
    fn displays_as_pgn_tag() {
        let mut tc = TimeControl::default();
        tc.set("tc", "40/60+0.6").unwrap();
        assert_eq!(tc.to_string(), "40/60+0.6");
        let mut tc = TimeControl::default();
        tc.set("st", "5").unwrap();
        assert_eq!(tc.to_string(), "1/5");
        assert_eq!(TimeControl::default().to_string(), "-");
    }

    #[test]
    fn clock_periods_increment_and_overrun() {
        let mut tc = TimeControl::default();
        tc.set("tc", "2/10+1").unwrap();
        tc.set("timemargin", "50").unwrap();
        let mut c = Clock::new(&tc);
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(&tc, ms(4000)).unwrap();
        assert_eq!(c.remaining(), ms(7000));
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(&tc, ms(2000)).unwrap();
        // Period over: 5 s left + 1 s increment + 10 s new period.
        assert_eq!(c.remaining(), ms(16_000));
        assert_eq!(c.moves_to_go(), Some(2));
        // Within the margin is fine, beyond it loses.
        assert!(c.clone().charge(&tc, ms(16_040)).is_ok());
        assert_eq!(
            c.charge(&tc, ms(16_100)),
            Err(Overrun {
                used: ms(16_100),
                allowed: ms(16_000)
            })
        );
    }

    #[test]
    fn per_move_limit() {
        let mut tc = TimeControl::default();
        tc.set("st", "0.5").unwrap();
        let mut c = Clock::new(&tc);
        assert_eq!(c.allowed(&tc), Some(ms(500)));
        assert!(c.charge(&tc, ms(400)).is_ok());
        assert!(c.charge(&tc, ms(600)).is_err());
        assert!(tc.set("st", "0").is_err());
        assert_eq!(tc.set("bogus", "1"), Ok(false));
    }
}
