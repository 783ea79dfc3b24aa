//! Random and mutated command lines for robustness tests of a protocol
//! front-end: random bytes, truncated and mutated valid commands, random
//! tokens from the command vocabulary, huge numbers, unicode and odd
//! whitespace. Seeded, so a failure reproduces.
//!
//! Lines carry no `\n` (they are single lines) and are bytes, since a GUI
//! can send anything; in-process users read them as `from_utf8_lossy`, as
//! the engine's own input loop does.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Well-formed commands that change and query the state.
pub const VALID: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "debug off",
    "register later",
    "setoption name UCI_Variant value chess",
    "setoption name UCI_Variant value Chess",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "position startpos moves e2e4 d7d5 e4d5 d8d5 b1c3",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1 e8c8",
    "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 moves e2e4",
    "position fen rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3 moves e5f6",
    "position fen 8/P7/8/8/8/8/7p/K6k w - - 0 1 moves a7a8q h2h1n",
    "position fen 4k3/8/8/8/8/8/8/4K3 b - - 99 80",
    "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "go perft 1",
    "go perft 2",
    "go wtime 60000 btime 60000 winc 1000 binc 1000",
    "go ponder wtime 1000 btime 1000 movestogo 20",
    "go depth 5",
    "go nodes 10000",
    "go movetime 100",
    "go mate 3",
    "go infinite",
    "go searchmoves e2e4 d2d4",
    "stop",
    "ponderhit",
    "d",
];

/// Tokens GUIs and fuzzers throw around: command words, parameter words,
/// numbers of every size and sign, moves, FEN pieces, unicode.
pub const VOCABULARY: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "UCI_Variant",
    "chess",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "perft",
    "stop",
    "ponderhit",
    "d",
    "debug",
    "on",
    "off",
    "register",
    "later",
    "code",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-0",
    "+5",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999999999999",
    "1e9",
    "0x10",
    "3.5",
    "NaN",
    "e2e4",
    "e7e5",
    "g1f3",
    "e1g1",
    "e8c8",
    "a7a8q",
    "a7a8k",
    "e2e5",
    "a10b10",
    "l12a1",
    "z9z9",
    "e2",
    "e2e4e6",
    "d3e3w,e3f4a",
    ",",
    ",,",
    "e2e4,e7e5",
    "a1a8s",
    "w",
    "b",
    "-",
    "KQkq",
    "Kk",
    "HAha",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "8/8/8/8/8/8/8/8",
    "4k3/8/8/8/8/8/8/4K3",
    "x7/8/8/8/8/8/8/8",
    "10/10/10",
    "99/8",
    "kK",
    "k7/8/8/8/8/8/8/7K",
    "/",
    "//",
    "<empty>",
    "ü",
    "ß",
    "日本語",
    "♔♕♖",
    "🐴",
    "\u{0}",
    "\u{7f}",
    "\u{feff}",
    "\u{200b}",
    "\u{fffd}",
];

/// Well-formed XBoard/CECP commands (the engine already in CECP).
pub const XBOARD_VALID: &[&str] = &[
    "xboard",
    "protover 2",
    "new",
    "variant normal",
    "force",
    "go",
    "playother",
    "level 40 5 0",
    "level 0 0:30 2",
    "st 1",
    "sd 2",
    "time 6000",
    "otim 6000",
    "usermove e2e4",
    "usermove e7e5",
    "usermove g1f3",
    "usermove e1g1",
    "undo",
    "remove",
    "result 1-0 {White mates}",
    "setboard r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "setboard 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    "analyze",
    "exit",
    ".",
    "?",
    "post",
    "nopost",
    "ping 7",
    "hard",
    "easy",
    "memory 8",
    "cores 1",
    "option Move Overhead=50",
];

/// Well-formed USI commands.
pub const USI_VALID: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "setoption name USI_Hash value 8",
    "setoption name USI_Variant value chess",
    "setoption name Move_Overhead value 20",
    "position startpos",
    "position startpos moves 4g4e 4b4d 2h3f",
    "position sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1",
    "position sfen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - 1 moves 4h2h",
    "go btime 1000 wtime 1000 byoyomi 100",
    "go btime 0 wtime 0 byoyomi 50",
    "go depth 3",
    "go nodes 5000",
    "go infinite",
    "go ponder btime 1000 wtime 1000 binc 10 winc 10",
    "stop",
    "ponderhit",
    "gameover win",
];

/// The command words random token lines start with, per protocol.
const UCI_LEADS: &[&str] = &[
    "position",
    "go",
    "setoption",
    "debug",
    "register",
    "d",
    "uci",
];
/// XBoard's command words that take arguments.
pub const XBOARD_LEADS: &[&str] = &[
    "usermove", "setboard", "level", "st", "sd", "time", "otim", "variant", "ping", "option",
    "memory", "cores", "protover",
];
/// USI's command words that take arguments.
pub const USI_LEADS: &[&str] = &["position", "go", "setoption", "gameover", "usi"];

/// Multi-byte characters and odd whitespace, to splice into lines.
const ODD_CHARS: &[&str] = &[
    "\t", "\r", "\u{b}", "\u{c}", "\u{a0}", "\u{3000}", "\u{2028}", "\u{85}", "é", "€", "𝄞",
    "\u{0}", "\u{1b}",
];

/// A seeded source of random command lines.
pub struct LineFuzzer {
    rng: StdRng,
    valid: &'static [&'static str],
    leads: &'static [&'static str],
}

impl LineFuzzer {
    /// Lines for the UCI front-end.
    pub fn new(seed: u64) -> LineFuzzer {
        LineFuzzer::with_commands(seed, VALID, UCI_LEADS)
    }

    /// Lines for another protocol: `valid` commands to truncate and mutate,
    /// `leads` to start random token lines with (the shared vocabulary and
    /// the other kinds of lines stay).
    pub fn with_commands(
        seed: u64,
        valid: &'static [&'static str],
        leads: &'static [&'static str],
    ) -> LineFuzzer {
        LineFuzzer {
            rng: StdRng::seed_from_u64(seed),
            valid,
            leads,
        }
    }

    /// One random line (no `\n`).
    pub fn line(&mut self) -> Vec<u8> {
        let mut line = match self.rng.gen_range(0..12) {
            0 | 1 => self.valid().as_bytes().to_vec(),
            2 => self.truncated(),
            3 | 4 => self.mutated(),
            5 | 6 => self.tokens(),
            7 => self.random_bytes(),
            8 => self.unicode(),
            9 => self.huge_numbers(),
            _ => self.odd_position(),
        };
        line.retain(|&b| b != b'\n');
        line
    }

    fn valid(&mut self) -> &'static str {
        self.valid[self.rng.gen_range(0..self.valid.len())]
    }

    fn word(&mut self) -> &'static str {
        VOCABULARY[self.rng.gen_range(0..VOCABULARY.len())]
    }

    /// A valid command cut anywhere, even inside a character.
    fn truncated(&mut self) -> Vec<u8> {
        let v = self.valid().as_bytes();
        let cut = self.rng.gen_range(0..=v.len());
        v[..cut].to_vec()
    }

    /// A valid command with a few byte-level or token-level edits.
    fn mutated(&mut self) -> Vec<u8> {
        let mut tokens: Vec<String> = self.valid().split(' ').map(str::to_string).collect();
        for _ in 0..self.rng.gen_range(1..4) {
            let i = self.rng.gen_range(0..tokens.len());
            match self.rng.gen_range(0..6) {
                0 => {
                    let w = self.word().to_string();
                    tokens[i] = w;
                }
                1 if tokens.len() > 1 => {
                    tokens.remove(i);
                }
                2 => {
                    let w = self.word().to_string();
                    tokens.insert(i, w);
                }
                3 => {
                    let j = self.rng.gen_range(0..tokens.len());
                    tokens.swap(i, j);
                }
                4 => {
                    let t = tokens[i].clone();
                    tokens.insert(i, t);
                }
                _ => {
                    // Change one byte of a token (may break UTF-8).
                    let mut b = tokens[i].clone().into_bytes();
                    if !b.is_empty() {
                        let k = self.rng.gen_range(0..b.len());
                        b[k] = self.rng.gen();
                    }
                    tokens[i] = String::from_utf8_lossy(&b).into_owned();
                }
            }
        }
        let sep = if self.rng.gen_bool(0.8) { " " } else { "\t " };
        tokens.join(sep).into_bytes()
    }

    /// 1 to 12 random vocabulary tokens, sometimes led by a command word.
    fn tokens(&mut self) -> Vec<u8> {
        let n = self.rng.gen_range(1..=12);
        let mut words: Vec<&str> = (0..n).map(|_| self.word()).collect();
        if self.rng.gen_bool(0.6) {
            words.insert(0, self.leads[self.rng.gen_range(0..self.leads.len())]);
        }
        words.join(" ").into_bytes()
    }

    fn random_bytes(&mut self) -> Vec<u8> {
        let n = self.rng.gen_range(0..80);
        (0..n).map(|_| self.rng.gen()).collect()
    }

    /// A valid command with odd characters spliced between or into tokens.
    fn unicode(&mut self) -> Vec<u8> {
        let mut s = String::new();
        for (i, t) in self.valid().split(' ').enumerate() {
            if i > 0 {
                s.push(' ');
            }
            if self.rng.gen_bool(0.3) {
                s.push_str(ODD_CHARS[self.rng.gen_range(0..ODD_CHARS.len())]);
            }
            s.push_str(t);
        }
        s.into_bytes()
    }

    /// A FEN with a few of its characters changed among the ones FENs use,
    /// and random castling and en-passant fields: boards the rules rarely
    /// see (pawns on the last rank, rights without rooks, kings in check).
    fn odd_position(&mut self) -> Vec<u8> {
        const FENS: &[&str] = &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1",
            "4k3/8/8/8/8/8/8/4K3",
        ];
        const BOARD_CHARS: &[u8] = b"pnbrqkPNBRQK12345678/x";
        const CASTLING: &[&str] = &["-", "KQkq", "K", "q", "Kk", "AHah", "Bg", "KQkqKQkq", "z"];
        let mut board = FENS[self.rng.gen_range(0..FENS.len())].as_bytes().to_vec();
        for _ in 0..self.rng.gen_range(1..4) {
            let i = self.rng.gen_range(0..board.len());
            board[i] = BOARD_CHARS[self.rng.gen_range(0..BOARD_CHARS.len())];
        }
        let side = if self.rng.gen_bool(0.5) { "w" } else { "b" };
        let castling = CASTLING[self.rng.gen_range(0..CASTLING.len())];
        let ep = if self.rng.gen_bool(0.5) {
            "-".to_string()
        } else {
            let f = (b'a' + self.rng.gen_range(0..9u8)) as char;
            format!("{f}{}", self.rng.gen_range(0..10))
        };
        let clocks = ["0 1", "99 50", "100 1", "65535 65535", "0 0"];
        let clock = clocks[self.rng.gen_range(0..clocks.len())];
        format!(
            "position fen {} {side} {castling} {ep} {clock}",
            String::from_utf8_lossy(&board)
        )
        .into_bytes()
    }

    /// Commands with numbers far outside every type.
    fn huge_numbers(&mut self) -> Vec<u8> {
        let numbers = [
            "0",
            "-1",
            "4294967296",
            "18446744073709551616",
            "-9223372036854775809",
            "999999999999999999999999999999999999999",
        ];
        let n = numbers[self.rng.gen_range(0..numbers.len())];
        let templates = [
            "go depth N",
            "go nodes N",
            "go movetime N",
            "go wtime N btime N",
            "go winc N binc N movestogo N",
            "go mate N",
            "go perft N",
            "setoption name UCI_Variant value N",
            "position fen 4k3/8/8/8/8/8/8/4K3 w - - N N",
        ];
        templates[self.rng.gen_range(0..templates.len())]
            .replace('N', n)
            .into_bytes()
    }
}

/// Whether a line is fit for a long random session: not `quit` (which would
/// end it) and no `go perft` deeper than 3 (which would only burn time).
/// Reads the line the way the engine does: lossy UTF-8, whitespace tokens.
pub fn fit_for_session(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    match tokens.as_slice() {
        ["quit", ..] => false,
        ["go", "perft", depth, ..] => depth.parse::<u64>().map_or(true, |d| d <= 3),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_single_and_reproducible() {
        let a: Vec<Vec<u8>> = {
            let mut f = LineFuzzer::new(7);
            (0..500).map(|_| f.line()).collect()
        };
        let mut f = LineFuzzer::new(7);
        for line in &a {
            assert_eq!(line, &f.line());
            assert!(!line.contains(&b'\n'));
        }
    }

    #[test]
    fn session_filter() {
        assert!(!fit_for_session(b"quit"));
        assert!(!fit_for_session(b"  quit now"));
        assert!(!fit_for_session(b"go perft 4"));
        assert!(fit_for_session(b"go perft 3"));
        assert!(fit_for_session(b"go perft 99999999999999999999999"));
        assert!(fit_for_session(b"quitx"));
    }
}
