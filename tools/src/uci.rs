//! The UCI driver: `uci`/`uciok` handshake with the option list, options,
//! `UCI_Variant` and `VariantPath` for variants, `position fen ... moves`,
//! `go` with the time control, `info` scores, `bestmove`. Also `go perft`
//! divides for `fers-perft --compare`.

use crate::engine::{
    fault, read_fault, Engine, EngineConfig, EngineError, Eval, FaultKind, GameSetup, Reply, Score,
    ThinkRequest, HANDSHAKE_TIMEOUT,
};
use crate::process::Process;
use std::time::{Duration, Instant};

/// An option the engine declared after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    pub name: String,
    pub kind: String,
    /// `var` values of a combo option.
    pub vars: Vec<String>,
}

/// Parses `option name <N> type <T> [default ...] [var ...]*`.
pub fn parse_option(line: &str) -> Option<UciOption> {
    let rest = line.strip_prefix("option ")?.trim_start();
    let rest = rest.strip_prefix("name ")?;
    let (name, after) = match rest.find(" type ") {
        Some(i) => (&rest[..i], &rest[i + 6..]),
        None => return None,
    };
    let mut words = after.split_whitespace();
    let kind = words.next()?.to_string();
    let mut vars = Vec::new();
    let mut in_var = false;
    let mut current = String::new();
    for w in words {
        match w {
            "var" => {
                if in_var && !current.is_empty() {
                    vars.push(std::mem::take(&mut current));
                }
                in_var = true;
            }
            "default" | "min" | "max" => {
                if in_var && !current.is_empty() {
                    vars.push(std::mem::take(&mut current));
                }
                in_var = false;
            }
            _ if in_var => {
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(w);
            }
            _ => {}
        }
    }
    if in_var && !current.is_empty() {
        vars.push(current);
    }
    Some(UciOption {
        name: name.trim().to_string(),
        kind,
        vars,
    })
}

/// The score and depth of an `info` line, if it has them.
pub fn parse_info(line: &str, eval: &mut Eval) {
    let mut words = line.split_whitespace().skip(1);
    while let Some(w) = words.next() {
        match w {
            "depth" => {
                if let Some(d) = words.next().and_then(|d| d.parse().ok()) {
                    eval.depth = Some(d);
                }
            }
            "score" => match (words.next(), words.next().and_then(|n| n.parse().ok())) {
                (Some("cp"), Some(n)) => eval.score = Some(Score::Cp(n)),
                (Some("mate"), Some(n)) => eval.score = Some(Score::Mate(n)),
                _ => {}
            },
            // The rest of the line is the PV or a string: no more fields.
            "pv" | "string" => break,
            _ => {}
        }
    }
}

/// A UCI engine.
pub struct UciEngine {
    process: Process,
    config: EngineConfig,
    id_name: Option<String>,
    options: Vec<UciOption>,
    /// The variant set with the last `setoption` (to skip resending).
    current_variant: Option<String>,
}

impl UciEngine {
    pub fn start(config: &EngineConfig) -> Result<UciEngine, EngineError> {
        let debug = config.debug.then(|| config.name.clone());
        let process = Process::spawn(&config.launch, debug)?;
        let mut e = UciEngine {
            process,
            config: config.clone(),
            id_name: None,
            options: Vec::new(),
            current_variant: None,
        };
        e.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = e.read(deadline, "uciok")?;
            let t = line.trim();
            if t == "uciok" {
                break;
            } else if let Some(n) = t.strip_prefix("id name ") {
                e.id_name = Some(n.trim().to_string());
            } else if let Some(o) = parse_option(t) {
                e.options.push(o);
            }
        }
        for line in config.init.clone() {
            e.send(&line)?;
        }
        for (name, value) in config.options.clone() {
            e.set_option(&name, &value)?;
        }
        e.sync()?;
        Ok(e)
    }

    /// The name the engine gives in `id name`.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    pub fn option(&self, name: &str) -> Option<&UciOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
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

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready` / `readyok`.
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.read(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// The variant file to send as `VariantPath`, if the engine needs one.
    fn variant_plan(&self, setup: &GameSetup) -> Result<Option<Option<String>>, EngineError> {
        let name = setup.variant_name();
        let Some(opt) = self.option("UCI_Variant") else {
            if setup.is_chess() {
                return Ok(None);
            }
            return Err(fault(
                &self.process,
                FaultKind::Unsupported(format!(
                    "engine '{}' has no UCI_Variant option and cannot play {name}",
                    self.config.name
                )),
                "variant",
            ));
        };
        let known = opt.vars.is_empty() || opt.vars.iter().any(|v| v.eq_ignore_ascii_case(name));
        let file = self
            .config
            .variant_file
            .as_deref()
            .or(setup.variant_file.as_deref())
            .map(|p| p.display().to_string());
        if known && self.config.variant_file.is_none() {
            return Ok(Some(None));
        }
        match file {
            Some(f) if self.option("VariantPath").is_some() => Ok(Some(Some(f))),
            _ if known => Ok(Some(None)),
            _ => Err(fault(
                &self.process,
                FaultKind::Unsupported(format!(
                    "engine '{}' does not list variant {name} in UCI_Variant and takes no VariantPath",
                    self.config.name
                )),
                "variant",
            )),
        }
    }

    /// Selects the variant (with `VariantPath` first when needed).
    pub fn select_variant(&mut self, setup: &GameSetup) -> Result<(), EngineError> {
        let name = setup.variant_name().to_string();
        if self.current_variant.as_deref() == Some(name.as_str()) {
            return Ok(());
        }
        match self.variant_plan(setup)? {
            None => {}
            Some(file) => {
                if let Some(f) = file {
                    self.set_option("VariantPath", &f)?;
                }
                self.set_option("UCI_Variant", &name)?;
            }
        }
        self.current_variant = Some(name);
        Ok(())
    }

    fn position_line(start_fen: &str, moves: &[String]) -> String {
        let mut s = format!("position fen {start_fen}");
        if !moves.is_empty() {
            s.push_str(" moves");
            for m in moves {
                s.push(' ');
                s.push_str(m);
            }
        }
        s
    }

    /// `go perft depth` after `position`: the divide and the total.
    pub fn perft(
        &mut self,
        start_fen: &str,
        moves: &[String],
        depth: u32,
        timeout: Duration,
    ) -> Result<(Vec<(String, u64)>, u64), EngineError> {
        self.send(&Self::position_line(start_fen, moves))?;
        self.send(&format!("go perft {depth}"))?;
        let deadline = Instant::now() + timeout;
        let mut divide = Vec::new();
        loop {
            let line = self.read(deadline, "Nodes searched")?;
            let t = line.trim();
            if let Some(n) = t.strip_prefix("Nodes searched:") {
                let total = n.trim().parse().map_err(|_| {
                    fault(
                        &self.process,
                        FaultKind::Malformed { line: line.clone() },
                        "Nodes searched",
                    )
                })?;
                return Ok((divide, total));
            }
            if let Some((m, n)) = t.split_once(':') {
                if let Ok(n) = n.trim().parse::<u64>() {
                    if !m.contains(' ') {
                        divide.push((m.trim().to_string(), n));
                    }
                }
            }
        }
    }
}

impl Engine for UciEngine {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn check_setup(&self, setup: &GameSetup) -> Result<(), EngineError> {
        self.variant_plan(setup).map(|_| ())
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), EngineError> {
        self.select_variant(setup)?;
        self.send("ucinewgame")?;
        self.sync()
    }

    fn think(&mut self, req: &ThinkRequest) -> Result<Reply, EngineError> {
        self.send(&Self::position_line(req.start_fen, req.moves))?;
        let mut go = String::from("go");
        let (white, black) = req.white_black_clocks();
        if white.has_clock() {
            go.push_str(&format!(
                " wtime {} btime {}",
                white.remaining().as_millis(),
                black.remaining().as_millis()
            ));
            if !white.increment().is_zero() || !black.increment().is_zero() {
                go.push_str(&format!(
                    " winc {} binc {}",
                    white.increment().as_millis(),
                    black.increment().as_millis()
                ));
            }
            if let Some(n) = req.own.moves_to_go() {
                go.push_str(&format!(" movestogo {n}"));
            }
        }
        if let Some(st) = req.tc.per_move {
            go.push_str(&format!(" movetime {}", st.as_millis()));
        }
        if let Some(n) = req.tc.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = req.tc.depth {
            go.push_str(&format!(" depth {d}"));
        }
        let started = Instant::now();
        self.send(&go)?;
        let mut eval = Eval::default();
        loop {
            let line = self.read(req.deadline, "bestmove")?;
            let t = line.trim();
            if t.starts_with("info ") {
                parse_info(t, &mut eval);
            } else if t == "bestmove" || t.starts_with("bestmove ") {
                let elapsed = started.elapsed();
                let Some(mv) = t.split_whitespace().nth(1) else {
                    return Err(fault(
                        &self.process,
                        FaultKind::Malformed { line: line.clone() },
                        "bestmove",
                    ));
                };
                return Ok(Reply::Move {
                    text: mv.to_string(),
                    elapsed,
                    eval,
                });
            }
        }
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
    fn option_lines() {
        let o = parse_option(
            "option name UCI_Variant type combo default chess var 3check var capablanca var chess",
        )
        .unwrap();
        assert_eq!(o.name, "UCI_Variant");
        assert_eq!(o.kind, "combo");
        assert_eq!(o.vars, ["3check", "capablanca", "chess"]);
        let o =
            parse_option("option name Move Overhead type spin default 10 min 0 max 5000").unwrap();
        assert_eq!(o.name, "Move Overhead");
        assert!(o.vars.is_empty());
        let o =
            parse_option("option name Style type combo default Normal var Solid Play var Risky")
                .unwrap();
        assert_eq!(o.vars, ["Solid Play", "Risky"]);
        assert!(parse_option("option type spin").is_none());
    }

    #[test]
    fn info_scores() {
        let mut e = Eval::default();
        parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv e2e4 e7e5",
            &mut e,
        );
        assert_eq!(e.depth, Some(7));
        assert_eq!(e.score, Some(Score::Cp(-35)));
        parse_info("info depth 9 score mate 3 lowerbound pv a1a8", &mut e);
        assert_eq!(e.score, Some(Score::Mate(3)));
        parse_info("info string depth 99 score cp 1", &mut e);
        assert_eq!(e.depth, Some(9));
        assert_eq!(Score::Mate(3).centipawns(), 29_997);
        assert_eq!(Score::Mate(-2).centipawns(), -29_998);
    }
}
