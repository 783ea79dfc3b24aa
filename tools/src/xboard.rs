//! The XBoard (CECP) driver: `xboard` + `protover 2` with the `feature`
//! negotiation, `new`/`variant`/`force`, the start position by `setboard`
//! (or `edit` for engines without it, such as Fairy-Max), `level`/`st`/`sd`,
//! `time`/`otim`, `usermove`, `go`, `move`, `ping`/`pong`.
//!
//! The engine is kept in force mode between its moves: before its turn it
//! gets the opponent's moves, its clocks and `go`; after its `move` it gets
//! `force` again. That way it never thinks on the opponent's time and never
//! moves for the wrong side.

use crate::engine::{
    fault, read_fault, Engine, EngineConfig, EngineError, Eval, FaultKind, GameSetup, Reply, Score,
    ThinkRequest, HANDSHAKE_TIMEOUT,
};
use crate::process::{Process, ReadError};
use fers_core::{MoveList, Position};
use std::time::{Duration, Instant};

/// How long to wait for the first `feature` line (protocol 1 engines send none).
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// Splits a `feature` line into `(key, value)` pairs; values may be quoted.
pub fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(rest) = line.trim().strip_prefix("feature") else {
        return out;
    };
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let k0 = i;
        while i < b.len() && b[i] != b'=' && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = rest[k0..i].to_string();
        if i >= b.len() || b[i] != b'=' {
            if !key.is_empty() {
                out.push((key, String::new()));
            }
            continue;
        }
        i += 1;
        let value = if i < b.len() && b[i] == b'"' {
            let v0 = i + 1;
            let end = rest[v0..].find('"').map_or(b.len(), |j| v0 + j);
            i = (end + 1).min(b.len());
            rest[v0..end].to_string()
        } else {
            let v0 = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            rest[v0..i].to_string()
        };
        out.push((key, value));
    }
    out
}

/// The features the driver relies on.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub setboard: bool,
    pub usermove: bool,
    pub ping: bool,
    pub time: bool,
    pub san: bool,
    pub myname: Option<String>,
    pub variants: Option<Vec<String>>,
}

/// Parses a thinking-output line `depth score time nodes [pv]`.
pub fn parse_thinking(line: &str, eval: &mut Eval) -> bool {
    let mut w = line.split_whitespace();
    let depth = w
        .next()
        .and_then(|d| d.trim_end_matches(['.', '&']).parse::<u32>().ok());
    let score = w.next().and_then(|s| s.parse::<i32>().ok());
    let time_ok = w.next().is_some_and(|t| t.parse::<i64>().is_ok());
    match (depth, score, time_ok) {
        (Some(d), Some(s), true) => {
            eval.depth = Some(d);
            // The XBoard convention for mates: 100000 + moves to mate.
            eval.score = Some(if s.abs() >= 100_000 {
                let n = s.abs() - 100_000;
                Score::Mate(if s > 0 { n.max(1) } else { -n.max(1) })
            } else {
                Score::Cp(s)
            });
            true
        }
        _ => false,
    }
}

/// The XBoard name of a fers variant.
pub fn xboard_variant(name: &str) -> String {
    if name.eq_ignore_ascii_case("chess") {
        "normal".to_string()
    } else {
        name.to_string()
    }
}

/// `level` arguments: base time in minutes, as `m:ss` when not whole.
fn level_base(d: Duration) -> String {
    let secs = d.as_secs();
    if secs.is_multiple_of(60) && d.subsec_millis() == 0 {
        format!("{}", secs / 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

/// An XBoard engine.
pub struct XboardEngine {
    process: Process,
    config: EngineConfig,
    features: Features,
    /// How many moves of the game the engine has been told or has played.
    known: usize,
    ping_counter: u32,
}

impl XboardEngine {
    pub fn start(config: &EngineConfig) -> Result<XboardEngine, EngineError> {
        let debug = config.debug.then(|| config.name.clone());
        let process = Process::spawn(&config.launch, debug)?;
        let mut e = XboardEngine {
            process,
            config: config.clone(),
            features: Features::default(),
            known: 0,
            ping_counter: 0,
        };
        e.send("xboard")?;
        e.send("protover 2")?;
        let mut deadline = Instant::now() + FEATURE_WAIT;
        loop {
            let line = match e.process.read_line(deadline) {
                Ok(l) => l,
                // No features (protocol 1) or no `done`: go on with defaults.
                Err(ReadError::Timeout) => break,
                Err(err) => return Err(read_fault(&mut e.process, err, "feature done=1")),
            };
            if !line.trim_start().starts_with("feature") {
                continue;
            }
            let mut done = false;
            for (k, v) in parse_features(&line) {
                let on = v == "1";
                let accepted = match k.as_str() {
                    "done" => {
                        if on {
                            done = true;
                        } else {
                            deadline = Instant::now() + HANDSHAKE_TIMEOUT;
                        }
                        continue;
                    }
                    "setboard" => {
                        e.features.setboard = on;
                        true
                    }
                    "usermove" => {
                        e.features.usermove = on;
                        true
                    }
                    "ping" => {
                        e.features.ping = on;
                        true
                    }
                    "time" => {
                        e.features.time = on;
                        true
                    }
                    "san" => {
                        e.features.san = on;
                        // Coordinate moves are what the referee reads and sends.
                        !on
                    }
                    "myname" => {
                        e.features.myname = Some(v.clone());
                        true
                    }
                    "variants" => {
                        e.features.variants =
                            Some(v.split(',').map(|s| s.trim().to_string()).collect());
                        true
                    }
                    "sigint" | "sigterm" | "reuse" | "analyze" | "colors" | "draw" | "ics"
                    | "name" | "pause" | "nps" | "debug" | "memory" | "smp" | "egt" | "option"
                    | "exclude" | "setscore" | "highlight" | "myversion" | "playother"
                    | "xedit" | "sjef" => true,
                    _ => false,
                };
                let verb = if accepted { "accepted" } else { "rejected" };
                e.send(&format!("{verb} {k}"))?;
            }
            if done {
                break;
            }
        }
        if e.features.san {
            e.features.san = false;
        }
        for line in config.init.clone() {
            e.send(&line)?;
        }
        for (name, value) in config.options.clone() {
            e.send(&format!("option {name}={value}"))?;
        }
        e.sync()?;
        Ok(e)
    }

    pub fn features(&self) -> &Features {
        &self.features
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process
            .send(line)
            .map_err(|e| read_fault(&mut self.process, e, "its input to accept a command"))
    }

    fn read(&mut self, deadline: Instant, during: &str) -> Result<String, EngineError> {
        self.process
            .read_line(deadline)
            .map_err(|e| read_fault(&mut self.process, e, during))
    }

    /// `ping N` / `pong N` when the engine supports it.
    fn sync(&mut self) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping_counter += 1;
        let n = self.ping_counter;
        self.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.read(deadline, &want)?.trim() != want {}
        Ok(())
    }

    fn send_move(&mut self, m: &str) -> Result<(), EngineError> {
        if self.features.usermove {
            self.send(&format!("usermove {m}"))
        } else {
            self.send(m)
        }
    }

    /// Sets up a position with `edit` (engines without `setboard`).
    fn edit_position(&mut self, setup: &GameSetup) -> Result<(), EngineError> {
        let pos = &setup.start;
        if pos.side_to_move() == fers_core::Color::Black {
            // Edit mode keeps the side to move: make it Black's turn by
            // playing a legal move from the start position first.
            let startpos = Position::startpos(setup.variant);
            let mut list = MoveList::new();
            startpos.legal_moves(&mut list);
            if let Some(m) = list.iter().next() {
                let text = startpos.move_to_uci(m);
                self.send_move(&text)?;
            }
        }
        self.send("edit")?;
        self.send("#")?;
        let v = setup.variant;
        let geo = v.geometry;
        for color in [fers_core::Color::White, fers_core::Color::Black] {
            if color == fers_core::Color::Black {
                self.send("c")?;
            }
            for sq in pos.occupied(color).iter() {
                let p = pos.piece_at(sq);
                let letter = v.letter(p.kind(), color).to_ascii_uppercase();
                self.send(&format!("{letter}{}", geo.square_name(sq)))?;
            }
        }
        self.send(".")
    }
}

impl Engine for XboardEngine {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn check_setup(&self, setup: &GameSetup) -> Result<(), EngineError> {
        let name = xboard_variant(setup.variant_name());
        let unsupported = |what: String| {
            Err(fault(
                &self.process,
                FaultKind::Unsupported(what),
                "variant",
            ))
        };
        if let Some(list) = &self.features.variants {
            if name != "normal" && !list.iter().any(|v| v.eq_ignore_ascii_case(&name)) {
                return unsupported(format!(
                    "engine '{}' does not list variant {name} in its features",
                    self.config.name
                ));
            }
        } else if name != "normal" {
            return unsupported(format!(
                "engine '{}' announces no variants and cannot play {name}",
                self.config.name
            ));
        }
        if self.config.tc.nodes.is_some() {
            return unsupported(format!(
                "engine '{}': fixed nodes is not supported over XBoard",
                self.config.name
            ));
        }
        Ok(())
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), EngineError> {
        self.check_setup(setup)?;
        self.send("new")?;
        let name = xboard_variant(setup.variant_name());
        if name != "normal" {
            self.send(&format!("variant {name}"))?;
        }
        self.send("force")?;
        if !setup.from_variant_start() {
            if self.features.setboard {
                self.send(&format!("setboard {}", setup.start.to_fen()))?;
            } else {
                self.edit_position(setup)?;
            }
        }
        let tc = self.config.tc.clone();
        if let Some(c) = tc.clock {
            self.send(&format!(
                "level {} {} {}",
                c.moves,
                level_base(c.base),
                c.increment.as_secs_f64()
            ))?;
        }
        if let Some(st) = tc.per_move {
            // `st` takes whole seconds; the referee still enforces the real limit.
            self.send(&format!("st {}", st.as_secs_f64().ceil().max(1.0) as u64))?;
        }
        if let Some(d) = tc.depth {
            self.send(&format!("sd {d}"))?;
        }
        self.send("post")?;
        self.send("easy")?;
        self.known = 0;
        self.sync()
    }

    fn think(&mut self, req: &ThinkRequest) -> Result<Reply, EngineError> {
        for m in &req.moves[self.known.min(req.moves.len())..] {
            self.send_move(m)?;
        }
        self.known = req.moves.len();
        if req.own.has_clock() {
            self.send(&format!("time {}", centis(req.own.remaining())))?;
            self.send(&format!("otim {}", centis(req.opponent.remaining())))?;
        }
        let started = Instant::now();
        self.send("go")?;
        let mut eval = Eval::default();
        loop {
            let line = self.read(req.deadline, "move")?;
            let t = line.trim();
            let mv = t
                .strip_prefix("move ")
                .or_else(|| t.strip_prefix("My move is:"))
                .or_else(|| t.strip_prefix("My move is :"));
            if let Some(mv) = mv {
                let elapsed = started.elapsed();
                let Some(mv) = mv.split_whitespace().next() else {
                    return Err(fault(
                        &self.process,
                        FaultKind::Malformed { line: line.clone() },
                        "move",
                    ));
                };
                let mv = mv.to_string();
                self.known += 1;
                self.send("force")?;
                return Ok(Reply::Move {
                    text: mv,
                    elapsed,
                    eval,
                });
            }
            if t == "move" {
                return Err(fault(
                    &self.process,
                    FaultKind::Malformed { line: line.clone() },
                    "move",
                ));
            }
            if t == "resign" || t.ends_with(" resign") || t.contains("{resign") {
                let elapsed = started.elapsed();
                self.send("force")?;
                return Ok(Reply::Resign { elapsed });
            }
            if t.starts_with("Illegal move") {
                return Err(fault(
                    &self.process,
                    FaultKind::Rejected { line: line.clone() },
                    "move",
                ));
            }
            parse_thinking(t, &mut eval);
        }
    }

    fn game_over(&mut self, result: &str) {
        let _ = self.send(&format!("result {result}"));
        let _ = self.send("force");
    }

    fn recent_output(&self) -> Vec<String> {
        self.process.recent_output()
    }

    fn quit(&mut self) {
        self.process.shutdown("quit", Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines() {
        let f = parse_features(
            r#"feature setboard=1 myname="Sjaak II 1.4.1" variants="normal,capablanca" done=0"#,
        );
        assert_eq!(
            f,
            [
                ("setboard".into(), "1".into()),
                ("myname".into(), "Sjaak II 1.4.1".into()),
                ("variants".into(), "normal,capablanca".into()),
                ("done".into(), "0".into()),
            ]
        );
        assert!(parse_features("feature").is_empty());
    }

    #[test]
    fn thinking_lines() {
        let mut e = Eval::default();
        assert!(parse_thinking("9 -31 120 123456 e2e4 e7e5", &mut e));
        assert_eq!((e.depth, e.score), (Some(9), Some(Score::Cp(-31))));
        assert!(parse_thinking("12. 100003 55 999 a1a8", &mut e));
        assert_eq!(e.score, Some(Score::Mate(3)));
        assert!(!parse_thinking("tellics say hello", &mut e));
        assert!(!parse_thinking("move e2e4", &mut e));
    }

    #[test]
    fn level_times() {
        assert_eq!(level_base(Duration::from_secs(120)), "2");
        assert_eq!(level_base(Duration::from_secs(90)), "1:30");
        assert_eq!(level_base(Duration::from_secs(10)), "0:10");
        assert_eq!(xboard_variant("chess"), "normal");
    }
}
