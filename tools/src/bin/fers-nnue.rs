//! fers-nnue: trains the chess evaluation network of `engine/src/nnue.rs`.
//!
//! Usage: `fers-nnue OUT.bin DATA... [-epochs N] [-hidden H] [-threads T]
//! [-lr X] [-batch B] [-seed S]`
//!
//! Each DATA line is `FEN;cp`, the score in centipawns from White's view
//! (the files `fers-tune` reads). The network is 768 inputs per side (colour
//! relative to the perspective, six kinds, 64 squares, mirrored for Black)
//! into `H` hidden units shared by both perspectives, squared clipped ReLU,
//! and one output from the side to move's half followed by the other side's.
//! The loss compares `sigmoid(out)` with `sigmoid(cp / 400)`; Adam. 2% of
//! the positions as given are held out first (drawn with `-seed`) and their
//! loss printed each epoch; only then are the training positions augmented:
//! those without castling rights are also used mirrored (a- and h-files
//! swapped). Splitting before augmenting keeps every mirror twin on the side
//! of its original, so the held-out loss is not flattered by positions whose
//! twin was trained on. The weights are written quantised, in the format
//! `fers_engine::nnue` loads.

use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const INPUTS: usize = 768;
const SCALE: f32 = 400.0;
const QA: f32 = 255.0;
const QB: f32 = 64.0;
const CLIP: f32 = 1.98;

#[derive(Clone, Debug, PartialEq)]
struct Sample {
    /// Feature indices from the side to move's view, then the other's.
    feats: [[u16; 32]; 2],
    n: u8,
    target: f32,
}

/// Parses `FEN;cp`; `None` for a line that is not one. `mirror` swaps the
/// a- and h-files (the same evaluation when nobody may castle).
fn parse(line: &str, mirror: bool) -> Option<Sample> {
    let (fen, cp) = line.split_once(';')?;
    let cp: f32 = cp.trim().parse().ok()?;
    let mut fields = fen.split_whitespace();
    let board = fields.next()?;
    let white = match fields.next()? {
        "w" => true,
        "b" => false,
        _ => return None,
    };
    let mut s = Sample {
        feats: [[0; 32]; 2],
        n: 0,
        target: 0.0,
    };
    let (mut file, mut rank) = (0usize, 7usize);
    for ch in board.chars() {
        match ch {
            '/' => {
                rank = rank.checked_sub(1)?;
                file = 0;
            }
            '1'..='8' => file += ch as usize - '0' as usize,
            _ => {
                let kind = "pnbrqk".find(ch.to_ascii_lowercase())?;
                let piece_white = ch.is_ascii_uppercase();
                if file > 7 || s.n as usize >= 32 {
                    return None;
                }
                let sq = rank * 8 + if mirror { 7 - file } else { file };
                for (view, view_white) in [(0, white), (1, !white)] {
                    let own = (piece_white == view_white) as usize;
                    let rel = if view_white { sq } else { sq ^ 56 };
                    s.feats[view][s.n as usize] = ((1 - own) * 384 + kind * 64 + rel) as u16;
                }
                s.n += 1;
                file += 1;
            }
        }
    }
    let stm_cp = if white { cp } else { -cp };
    s.target = sigmoid(stm_cp / SCALE);
    Some(s)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// All parameters in one flat vector: feature weights `[INPUTS][h]` (at 0), the
/// feature bias `[h]`, the output weights `[2h]` and the output bias.
struct Layout {
    h: usize,
}

impl Layout {
    fn ft_b(&self) -> usize {
        INPUTS * self.h
    }
    fn out_w(&self) -> usize {
        self.ft_b() + self.h
    }
    fn out_b(&self) -> usize {
        self.out_w() + 2 * self.h
    }
    fn len(&self) -> usize {
        self.out_b() + 1
    }
}

/// Forward pass; accumulates the gradient into `grad` when given. Returns
/// the squared error.
fn step(
    l: &Layout,
    p: &[f32],
    s: &Sample,
    grad: Option<&mut [f32]>,
    acc: &mut [Vec<f32>; 2],
) -> f32 {
    let h = l.h;
    let mut out = p[l.out_b()];
    for view in 0..2 {
        let a = &mut acc[view];
        a.copy_from_slice(&p[l.ft_b()..l.ft_b() + h]);
        for &f in &s.feats[view][..s.n as usize] {
            let row = &p[f as usize * h..f as usize * h + h];
            for (x, w) in a.iter_mut().zip(row) {
                *x += w;
            }
        }
        let ow = &p[l.out_w() + view * h..l.out_w() + view * h + h];
        for (x, w) in a.iter().zip(ow) {
            let c = x.clamp(0.0, 1.0);
            out += c * c * w;
        }
    }
    let pred = sigmoid(out);
    let err = pred - s.target;
    if let Some(g) = grad {
        let d = 2.0 * err * pred * (1.0 - pred);
        g[l.out_b()] += d;
        for (view, a) in acc.iter_mut().enumerate() {
            let ow0 = l.out_w() + view * h;
            for (j, x) in a.iter_mut().enumerate() {
                let c = x.clamp(0.0, 1.0);
                g[ow0 + j] += d * c * c;
                // Reuse the accumulator as the gradient at the hidden layer.
                *x = if *x > 0.0 && *x < 1.0 {
                    d * p[ow0 + j] * 2.0 * *x
                } else {
                    0.0
                };
                g[l.ft_b() + j] += *x;
            }
            for &f in &s.feats[view][..s.n as usize] {
                let row = &mut g[f as usize * h..f as usize * h + h];
                for (gw, x) in row.iter_mut().zip(a.iter()) {
                    *gw += x;
                }
            }
        }
    }
    err * err
}

/// `-walk IN OUT PER SEED`: from each position of IN (`FEN;...` lines),
/// PER random walks of 1 to 8 random legal moves; writes the FEN of each
/// walk's last position when the side to move is not in check (positions
/// to be labelled by a stronger engine).
fn walk(args: &[String]) -> ExitCode {
    let [input, output, per, seed] = args else {
        eprintln!("usage: fers-nnue -walk IN OUT PER SEED");
        return ExitCode::FAILURE;
    };
    let (Ok(per), Ok(seed)) = (per.parse::<usize>(), seed.parse::<u64>()) else {
        eprintln!("fers-nnue: PER and SEED are numbers");
        return ExitCode::FAILURE;
    };
    let Ok(text) = std::fs::read_to_string(input) else {
        eprintln!("fers-nnue: cannot read {input}");
        return ExitCode::FAILURE;
    };
    let v = fers_core::variant::chess();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = String::new();
    for line in text.lines() {
        let fen = line.split(';').next().unwrap_or("");
        let Ok(start) = fers_core::Position::from_fen(v, fen) else {
            continue;
        };
        for _ in 0..per {
            let mut pos = start.clone();
            let plies = rng.gen_range(1..=8);
            let mut ok = true;
            for _ in 0..plies {
                let mut list = fers_core::moves::MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    ok = false;
                    break;
                }
                let m = list.get(rng.gen_range(0..list.len()));
                pos.play(m);
            }
            if ok && !pos.in_check() && pos.count_legal() > 0 {
                out += &pos.to_fen();
                out.push('\n');
            }
        }
    }
    if let Err(e) = std::fs::write(output, out) {
        eprintln!("fers-nnue: cannot write {output}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("-walk") {
        return walk(&args[1..]);
    }
    let mut files = Vec::new();
    let (mut epochs, mut h, mut threads, mut lr, mut batch, mut seed) =
        (30usize, 128usize, 2usize, 0.001f32, 16384usize, 1u64);
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a.starts_with('-') {
            let Some(v) = args.get(i + 1) else {
                eprintln!("fers-nnue: {a} needs a value");
                return ExitCode::FAILURE;
            };
            let ok = match a.as_str() {
                "-epochs" => v.parse().map(|x| epochs = x).is_ok(),
                "-hidden" => v.parse().map(|x| h = x).is_ok(),
                "-threads" => v.parse().map(|x: usize| threads = x.max(1)).is_ok(),
                "-lr" => v.parse().map(|x| lr = x).is_ok(),
                "-batch" => v.parse().map(|x: usize| batch = x.max(1)).is_ok(),
                "-seed" => v.parse().map(|x| seed = x).is_ok(),
                _ => false,
            };
            if !ok {
                eprintln!("fers-nnue: bad option {a} {v}");
                return ExitCode::FAILURE;
            }
            i += 2;
        } else {
            files.push(a.clone());
            i += 1;
        }
    }
    if files.len() < 2 {
        eprintln!("usage: fers-nnue OUT.bin DATA... [-epochs N] [-hidden H] [-threads T] [-lr X] [-batch B] [-seed S]");
        return ExitCode::FAILURE;
    }
    let out_path = files.remove(0);
    // Each position as given, with its mirror image when it has one.
    let mut data: Vec<(Sample, Option<Sample>)> = Vec::new();
    for f in &files {
        let Ok(file) = std::fs::File::open(f) else {
            eprintln!("fers-nnue: cannot read {f}");
            return ExitCode::FAILURE;
        };
        let before = data.len();
        for line in BufReader::new(file).lines().map_while(Result::ok) {
            if let Some(s) = parse(&line, false) {
                // Without castling rights, the mirror image is a free sample.
                let mirror = if line.split_whitespace().nth(2) == Some("-") {
                    parse(&line, true)
                } else {
                    None
                };
                data.push((s, mirror));
            }
        }
        eprintln!("{f}: {} positions", data.len() - before);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let (valid, train) = split_then_mirror(data, &mut rng);
    let (valid, train) = (&valid[..], &train[..]);
    eprintln!(
        "{} training (mirrors included), {} held out (as given, no mirrors), hidden {h}",
        train.len(),
        valid.len()
    );

    let l = Layout { h };
    let mut p = vec![0f32; l.len()];
    let r = (1.0 / 32f32).sqrt();
    for w in &mut p[..l.ft_b()] {
        *w = rng.gen_range(-r..r) * 0.5;
    }
    for w in &mut p[l.ft_b()..l.out_w()] {
        *w = 0.1;
    }
    let ro = (1.0 / (2 * h) as f32).sqrt();
    for w in &mut p[l.out_w()..l.out_b()] {
        *w = rng.gen_range(-ro..ro);
    }
    let mut m = vec![0f32; l.len()];
    let mut v = vec![0f32; l.len()];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut t = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 0..epochs {
        let lr_now = if epoch * 10 >= epochs * 9 {
            lr * 0.1
        } else if epoch * 10 >= epochs * 6 {
            lr * 0.3
        } else {
            lr
        };
        order.shuffle(&mut rng);
        let mut train_loss = 0f64;
        for chunk in order.chunks(batch) {
            let per = chunk.len().div_ceil(threads);
            let (grad, loss) = std::thread::scope(|sc| {
                let handles: Vec<_> = chunk
                    .chunks(per)
                    .map(|part| {
                        let (l, p) = (&l, &p);
                        sc.spawn(move || {
                            let mut g = vec![0f32; l.len()];
                            let mut acc = [vec![0f32; l.h], vec![0f32; l.h]];
                            let mut loss = 0f64;
                            for &k in part {
                                loss += step(l, p, &train[k], Some(&mut g), &mut acc) as f64;
                            }
                            (g, loss)
                        })
                    })
                    .collect();
                let mut total = vec![0f32; l.len()];
                let mut loss = 0f64;
                for hd in handles {
                    let (g, ls) = hd.join().expect("trainer thread");
                    for (a, b) in total.iter_mut().zip(&g) {
                        *a += b;
                    }
                    loss += ls;
                }
                (total, loss)
            });
            train_loss += loss;
            t += 1;
            let scale = 1.0 / chunk.len() as f32;
            let c1 = 1.0 - b1.powi(t);
            let c2 = 1.0 - b2.powi(t);
            for k in 0..l.len() {
                let g = grad[k] * scale;
                m[k] = b1 * m[k] + (1.0 - b1) * g;
                v[k] = b2 * v[k] + (1.0 - b2) * g * g;
                p[k] -= lr_now * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
                if k < l.out_b() {
                    p[k] = p[k].clamp(-CLIP, CLIP);
                }
            }
        }
        let mut acc = [vec![0f32; h], vec![0f32; h]];
        let vl: f64 = valid
            .iter()
            .map(|s| step(&l, &p, s, None, &mut acc) as f64)
            .sum();
        eprintln!(
            "epoch {:>3} lr {:.5} train {:.6} held-out {:.6}",
            epoch + 1,
            lr_now,
            train_loss / train.len() as f64,
            vl / valid.len() as f64
        );
        if let Err(e) = write_net(&out_path, &l, &p) {
            eprintln!("fers-nnue: cannot write {out_path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Shuffles the positions, holds out 2% of them (at least one), then
/// augments the rest: returns (held out, training). A held-out position's
/// mirror is dropped, never trained on.
fn split_then_mirror(
    mut data: Vec<(Sample, Option<Sample>)>,
    rng: &mut impl Rng,
) -> (Vec<Sample>, Vec<Sample>) {
    data.shuffle(rng);
    let hold = (data.len() / 50).max(1).min(data.len());
    let rest = data.split_off(hold);
    let valid = data.into_iter().map(|(s, _)| s).collect();
    let mut train = Vec::with_capacity(rest.len() * 2);
    for (s, m) in rest {
        train.push(s);
        train.extend(m);
    }
    (valid, train)
}

/// Quantises and writes the network (see `fers_engine::nnue` for the format).
fn write_net(path: &str, l: &Layout, p: &[f32]) -> std::io::Result<()> {
    let q = |x: f32, s: f32| (x * s).round().clamp(-32767.0, 32767.0) as i16;
    let mut bytes = Vec::with_capacity(2 * l.len() + 16);
    bytes.extend_from_slice(b"FERSNN01");
    bytes.extend_from_slice(&(l.h as u32).to_le_bytes());
    for &w in &p[..l.ft_b()] {
        bytes.extend_from_slice(&q(w, QA).to_le_bytes());
    }
    for &w in &p[l.ft_b()..l.out_w()] {
        bytes.extend_from_slice(&q(w, QA).to_le_bytes());
    }
    for &w in &p[l.out_w()..l.out_b()] {
        bytes.extend_from_slice(&q(w, QB).to_le_bytes());
    }
    let ob = (p[l.out_b()] * QA * QB).round() as i32;
    bytes.extend_from_slice(&ob.to_le_bytes());
    let tmp = format!("{path}.tmp");
    std::fs::File::create(&tmp)?.write_all(&bytes)?;
    std::fs::rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions without castling rights (every one has a mirror twin):
    /// no held-out position may have its twin, or itself, in training.
    #[test]
    fn the_held_out_split_is_drawn_before_mirroring() {
        let mut data = Vec::new();
        for i in 0..400usize {
            // A king pair and one pawn at distinct squares: 400 positions.
            let (wk, bk, pawn) = (i % 8, 56 + (i / 8) % 8, 8 + (i * 7) % 48);
            let mut board = ['1'; 64];
            board[wk] = 'K';
            board[bk] = 'k';
            if pawn != wk && pawn != bk {
                board[pawn] = 'P';
            }
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|r| board[r * 8..r * 8 + 8].iter().collect())
                .collect();
            let line = format!("{} w - - 0 1;{}", ranks.join("/"), i);
            let s = parse(&line, false).expect("parses");
            let m = parse(&line, true).expect("mirrors");
            data.push((s, Some(m)));
        }
        let twins: Vec<(Sample, Sample)> = data
            .iter()
            .map(|(s, m)| (s.clone(), m.clone().unwrap()))
            .collect();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let (valid, train) = split_then_mirror(data, &mut rng);
        assert_eq!(valid.len(), 8, "2% of 400");
        assert_eq!(train.len(), 2 * (400 - 8), "the rest, each with its mirror");
        for v in &valid {
            let (s, m) = twins
                .iter()
                .find(|(s, m)| s == v || m == v)
                .expect("a held-out sample is a position as given or its mirror");
            assert_eq!(s, v, "held out: positions as given, never mirrors");
            assert!(!train.contains(s) && !train.contains(m), "twin trained on");
        }
    }
}
