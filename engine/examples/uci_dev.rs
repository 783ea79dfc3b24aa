//! A minimal UCI loop over the search, for development and the python-chess
//! tests while the real protocol layer lives on another branch.
use fers_core::{variant, Game, Position};
use fers_engine::{Limits, Reporter, SearchPool};
use std::io::{BufRead, Write};
use std::sync::Arc;

fn main() {
    let out: Reporter = Arc::new(|l| {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{l}");
        let _ = o.flush();
    });
    let v = variant::chess();
    let mut game = Game::new(Position::startpos(v));
    let mut pool = SearchPool::new(16);
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                out("id name fers-dev");
                out("option name Hash type spin default 16 min 1 max 65536");
                out("option name Threads type spin default 1 min 1 max 256");
                out("option name MultiPV type spin default 1 min 1 max 256");
                out("option name Ponder type check default false");
                out("option name Move Overhead type spin default 10 min 0 max 5000");
                out("option name Clear Hash type button");
                out("uciok");
            }
            Some("isready") => out("readyok"),
            Some("ucinewgame") => pool.clear_hash(),
            Some("setoption") => {
                let l = line.to_string();
                let name_start = l.find("name ").map(|i| i + 5).unwrap_or(l.len());
                let (name, value) = match l.find(" value ") {
                    Some(i) => (&l[name_start..i], l[i + 7..].trim()),
                    None => (&l[name_start..], ""),
                };
                let n: usize = value.parse().unwrap_or(0);
                match name.trim().to_ascii_lowercase().as_str() {
                    "hash" => pool.set_hash(n.max(1)),
                    "threads" => pool.options.threads = n.max(1),
                    "multipv" => pool.options.multipv = n.max(1),
                    "move overhead" => pool.options.move_overhead = n as u64,
                    "clear hash" => pool.clear_hash(),
                    _ => {}
                }
            }
            Some("position") => {
                let mut g;
                let mut i;
                if words.get(1) == Some(&"fen") {
                    let end = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
                    let fen = words[2..end].join(" ");
                    match Position::from_fen(v, &fen) {
                        Ok(p) => g = Game::new(p),
                        Err(e) => {
                            out(&format!("info string error: {e}"));
                            continue;
                        }
                    }
                    i = end;
                } else {
                    g = Game::new(Position::startpos(v));
                    i = 2;
                }
                if words.get(i) == Some(&"moves") {
                    i += 1;
                }
                let mut ok = true;
                for m in &words[i.min(words.len())..] {
                    if g.play_str(m).is_err() {
                        out(&format!("info string error: illegal move {m}"));
                        ok = false;
                        break;
                    }
                }
                if ok {
                    game = g;
                }
            }
            Some("go") => pool.go(&game, Limits::parse_go(&words[1..]), out.clone()),
            Some("stop") => pool.stop(),
            Some("ponderhit") => pool.ponderhit(),
            Some("bench") => {
                pool.stop();
                pool.wait();
                fers_engine::bench::run(fers_engine::bench::BENCH_DEPTH, &out);
            }
            Some("quit") => break,
            _ => {}
        }
    }
    pool.stop();
    pool.wait();
}
