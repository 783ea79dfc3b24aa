//! The referee: plays one game between two running engines, checking every
//! move with fers-core and judging the result — the rules (mate, stalemate
//! as the variant scores it, repetition, move rule, insufficient material),
//! the clocks, engine faults, and the optional adjudication thresholds.

use crate::adjudication::{Adjudicator, Verdict};
use crate::engine::{Engine, EngineError, Eval, FaultKind, GameSetup, Reply, ThinkRequest};
use crate::timecontrol::{Clock, TimeControl};
use fers_core::{Color, Game, Move, MoveFlag, MoveList, Outcome, Position, Termination as Rule};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win(Color),
    Draw,
    /// Stopped before the end (the tournament was stopped); not counted.
    Aborted,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Aborted => "*",
        }
    }
}

/// How the game ended, for the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules or by resignation.
    Normal,
    Adjudication,
    TimeForfeit,
    /// An illegal move or a malformed line.
    RulesInfraction,
    /// The engine crashed or refused the game.
    Abandoned,
    /// The engine stopped answering.
    Stalled,
    Unterminated,
}

impl Termination {
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::Stalled => "stalled connection",
            Termination::Unterminated => "unterminated",
        }
    }
}

/// What the engine reported with a move and how long it took.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveNote {
    pub eval: Eval,
    pub elapsed: Duration,
}

/// An engine fault during a game: the engine must be restarted.
#[derive(Clone, Debug)]
pub struct FaultRecord {
    pub color: Color,
    pub engine: String,
    pub error: EngineError,
}

/// A finished (or aborted) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub round: usize,
    pub white: String,
    pub black: String,
    pub start: Position,
    pub moves: Vec<Move>,
    pub notes: Vec<MoveNote>,
    pub result: GameResult,
    /// The cutechess-style reason: `White mates`, `Draw by 3-fold repetition`.
    pub reason: String,
    pub termination: Termination,
    pub faults: Vec<FaultRecord>,
}

/// Settings of the referee shared by all games.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    pub adjudication: Adjudicator,
    /// How long an engine without a clock (fixed depth or nodes) may think.
    pub stall_timeout: Duration,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The reason text and result of a rules ending.
pub fn describe_outcome(o: Outcome, move_rule: u16) -> (GameResult, String) {
    match o {
        Outcome::Win(c, Rule::Checkmate) => (GameResult::Win(c), format!("{} mates", side_name(c))),
        Outcome::Win(c, Rule::Stalemate) => (
            GameResult::Win(c),
            format!("{} wins by stalemate", side_name(c)),
        ),
        Outcome::Win(c, t) => (GameResult::Win(c), format!("{} wins ({t:?})", side_name(c))),
        Outcome::Draw(t) => (
            GameResult::Draw,
            match t {
                Rule::Stalemate => "Draw by stalemate".to_string(),
                Rule::Repetition => "Draw by 3-fold repetition".to_string(),
                Rule::InsufficientMaterial => "Draw by insufficient mating material".to_string(),
                Rule::MoveRule if move_rule == 100 => "Draw by fifty moves rule".to_string(),
                Rule::MoveRule => format!("Draw by {}-move rule", move_rule / 2),
                Rule::Checkmate => "Draw".to_string(),
            },
        ),
    }
}

/// Reads an engine's move: the referee's notation, or `O-O`/`O-O-O`
/// (as some XBoard engines write castling).
pub fn parse_engine_move(pos: &Position, text: &str) -> Option<Move> {
    if let Ok(m) = pos.parse_move(text) {
        return Some(m);
    }
    let t = text.trim_end_matches(['+', '#']).replace('0', "O");
    let flag = match t.as_str() {
        "O-O" => MoveFlag::CastleKing,
        "O-O-O" => MoveFlag::CastleQueen,
        _ => return None,
    };
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let found = list.iter().find(|m| m.flag() == flag);
    found
}

/// The result when `side` is at fault.
fn fault_result(side: Color, error: &EngineError, allowed: bool) -> (String, Termination) {
    let who = side_name(side);
    match &error.kind {
        FaultKind::Timeout if allowed => (format!("{who} loses on time"), Termination::TimeForfeit),
        FaultKind::Timeout => (format!("{who}'s connection stalls"), Termination::Stalled),
        FaultKind::Crashed { .. } | FaultKind::Spawn(_) => {
            (format!("{who} disconnects"), Termination::Abandoned)
        }
        FaultKind::Malformed { line } => (
            format!("{who} sends a malformed line: {line}"),
            Termination::RulesInfraction,
        ),
        FaultKind::Rejected { line } => (
            format!("{who} refuses a legal move: {line}"),
            Termination::RulesInfraction,
        ),
        FaultKind::Unsupported(what) => {
            (format!("{who} cannot play: {what}"), Termination::Abandoned)
        }
        FaultKind::IllegalMove { text } => (
            format!("{who} makes an illegal move: {text}"),
            Termination::RulesInfraction,
        ),
        FaultKind::LateMove { .. } => (format!("{who} loses on time"), Termination::TimeForfeit),
    }
}

/// A game lost before it began (an engine could not be started or set up).
pub fn forfeit(
    round: usize,
    names: [&str; 2],
    start: &Position,
    side: Color,
    error: EngineError,
) -> GameRecord {
    let (reason, termination) = fault_result(side, &error, false);
    GameRecord {
        round,
        white: names[0].to_string(),
        black: names[1].to_string(),
        start: start.clone(),
        moves: Vec::new(),
        notes: Vec::new(),
        result: GameResult::Win(side.flip()),
        reason,
        termination,
        faults: vec![FaultRecord {
            color: side,
            engine: names[side as usize].to_string(),
            error,
        }],
    }
}

/// Plays one game. `engines` and `tcs` are indexed by colour (White first).
pub fn play_game(
    round: usize,
    engines: [&mut dyn Engine; 2],
    tcs: [&TimeControl; 2],
    setup: &GameSetup,
    config: &RefereeConfig,
    stop: &AtomicBool,
) -> GameRecord {
    let [white, black] = engines;
    let mut engines: [&mut dyn Engine; 2] = [white, black];
    let names = [engines[0].name().to_string(), engines[1].name().to_string()];
    let mut record = GameRecord {
        round,
        white: names[0].clone(),
        black: names[1].clone(),
        start: setup.start.clone(),
        moves: Vec::new(),
        notes: Vec::new(),
        result: GameResult::Aborted,
        reason: String::new(),
        termination: Termination::Unterminated,
        faults: Vec::new(),
    };
    for c in [Color::White, Color::Black] {
        if let Err(e) = engines[c as usize].new_game(setup) {
            return forfeit(round, [&names[0], &names[1]], &setup.start, c, e);
        }
    }
    let start_fen = setup.start.to_fen();
    let mut game = Game::new(setup.start.clone());
    let mut clocks = [Clock::new(tcs[0]), Clock::new(tcs[1])];
    let mut texts: Vec<String> = Vec::new();
    let mut adjudicator = config.adjudication.start();
    let move_rule = setup.variant.move_rule;

    let finish = |record: &mut GameRecord, result: GameResult, reason: String, t: Termination| {
        record.result = result;
        record.reason = reason;
        record.termination = t;
    };

    loop {
        if let Some(o) = game.outcome() {
            let (result, reason) = describe_outcome(o, move_rule);
            finish(&mut record, result, reason, Termination::Normal);
            break;
        }
        if stop.load(Ordering::Relaxed) {
            finish(
                &mut record,
                GameResult::Aborted,
                "aborted".into(),
                Termination::Unterminated,
            );
            break;
        }
        let pos = game.position().clone();
        let side = pos.side_to_move();
        let i = side as usize;
        let tc = tcs[i];
        let allowed = clocks[i].allowed(tc);
        let wait = match allowed {
            // A little slack over the margin, so that a move that arrives
            // just late is judged by the clock rather than by the pipe.
            Some(a) => a + tc.margin + Duration::from_millis(50),
            None => config.stall_timeout,
        };
        let (own, opponent) = if i == 0 {
            (&clocks[0], &clocks[1])
        } else {
            (&clocks[1], &clocks[0])
        };
        let req = ThinkRequest {
            start_fen: &start_fen,
            moves: &texts,
            white_to_move: side == Color::White,
            own,
            opponent,
            tc,
            deadline: Instant::now() + wait,
        };
        let reply = engines[i].think(&req);
        let who = side_name(side);
        match reply {
            Err(e) => {
                let (reason, t) = fault_result(side, &e, allowed.is_some());
                record.faults.push(FaultRecord {
                    color: side,
                    engine: names[i].clone(),
                    error: e,
                });
                finish(&mut record, GameResult::Win(side.flip()), reason, t);
                break;
            }
            Ok(Reply::Resign { .. }) => {
                finish(
                    &mut record,
                    GameResult::Win(side.flip()),
                    format!("{who} resigns"),
                    Termination::Normal,
                );
                break;
            }
            Ok(Reply::Move {
                text,
                elapsed,
                eval,
            }) => {
                let kind = match clocks[i].charge(tc, elapsed) {
                    Err(o) => Some(FaultKind::LateMove {
                        used: o.used,
                        allowed: o.allowed,
                    }),
                    Ok(()) => None,
                };
                let parsed = parse_engine_move(&pos, &text);
                let kind = kind.or_else(|| {
                    parsed
                        .is_none()
                        .then(|| FaultKind::IllegalMove { text: text.clone() })
                });
                if let Some(kind) = kind {
                    let error = EngineError {
                        kind,
                        during: "move".into(),
                        output: engines[i].recent_output(),
                    };
                    let (reason, t) = fault_result(side, &error, true);
                    record.faults.push(FaultRecord {
                        color: side,
                        engine: names[i].clone(),
                        error,
                    });
                    finish(&mut record, GameResult::Win(side.flip()), reason, t);
                    break;
                }
                let Some(m) = parsed else { break };
                texts.push(pos.move_to_uci(m));
                game.play(m);
                record.moves.push(m);
                record.notes.push(MoveNote { eval, elapsed });
                let fullmove = game.position().fullmove_number() as u32;
                match adjudicator.record(side, eval.score, fullmove, record.moves.len()) {
                    Verdict::Continue => {}
                    Verdict::Win(c) => {
                        finish(
                            &mut record,
                            GameResult::Win(c),
                            format!("{} wins by adjudication", side_name(c)),
                            Termination::Adjudication,
                        );
                        break;
                    }
                    Verdict::Draw => {
                        finish(
                            &mut record,
                            GameResult::Draw,
                            "Draw by adjudication".into(),
                            Termination::Adjudication,
                        );
                        break;
                    }
                    Verdict::MoveLimit => {
                        finish(
                            &mut record,
                            GameResult::Draw,
                            "Draw by adjudication: maximum number of moves".into(),
                            Termination::Adjudication,
                        );
                        break;
                    }
                }
            }
        }
    }
    if record.result != GameResult::Aborted {
        let line = format!("{} {{{}}}", record.result.pgn(), record.reason);
        for (c, e) in engines.iter_mut().enumerate() {
            if record.faults.iter().all(|f| f.color as usize != c) {
                e.game_over(&line);
            }
        }
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    #[test]
    fn engine_moves_and_castling_aliases() {
        let pos =
            Position::from_fen(variant::chess(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let uci = |m: Option<Move>| m.map(|m| pos.move_to_uci(m));
        assert_eq!(uci(parse_engine_move(&pos, "e1g1")), Some("e1g1".into()));
        assert_eq!(uci(parse_engine_move(&pos, "O-O")), Some("e1g1".into()));
        assert_eq!(uci(parse_engine_move(&pos, "0-0-0")), Some("e1c1".into()));
        assert_eq!(uci(parse_engine_move(&pos, "O-O+")), Some("e1g1".into()));
        assert_eq!(parse_engine_move(&pos, "e1e3"), None);
        assert_eq!(parse_engine_move(&pos, "(none)"), None);
        let no_castling =
            Position::from_fen(variant::chess(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(parse_engine_move(&no_castling, "O-O"), None);
    }

    #[test]
    fn outcome_reasons() {
        use fers_core::Termination as T;
        let d = |o| describe_outcome(o, 100);
        assert_eq!(
            d(Outcome::Win(Color::White, T::Checkmate)),
            (GameResult::Win(Color::White), "White mates".into())
        );
        assert_eq!(d(Outcome::Draw(T::Stalemate)).1, "Draw by stalemate");
        assert_eq!(
            d(Outcome::Draw(T::Repetition)).1,
            "Draw by 3-fold repetition"
        );
        assert_eq!(d(Outcome::Draw(T::MoveRule)).1, "Draw by fifty moves rule");
        assert_eq!(
            describe_outcome(Outcome::Draw(T::MoveRule), 40).1,
            "Draw by 20-move rule"
        );
        assert_eq!(
            d(Outcome::Draw(T::InsufficientMaterial)).1,
            "Draw by insufficient mating material"
        );
        assert_eq!(
            d(Outcome::Win(Color::Black, T::Stalemate)),
            (
                GameResult::Win(Color::Black),
                "Black wins by stalemate".into()
            )
        );
        assert_eq!(GameResult::Draw.pgn(), "1/2-1/2");
        assert_eq!(Termination::TimeForfeit.tag(), "time forfeit");
    }
}
