//! fers-nnue: trains the evaluation networks of `engine/src/nnue.rs`, for
//! orthodox chess or any other variant, and makes their data.
//!
//! Usage:
//! - `fers-nnue -selfplay OUT [-variant V] [-variantfile F] [-games N]
//!   [-nodes K] [-random R] [-maxplies P] [-seed S] [-evalfile NET]`:
//!   self-play data (`FEN;cp;result` lines, `fers_tools::nnue_data`), with
//!   a progress bar;
//! - `fers-nnue OUT.nnue DATA... [-variant V] [-variantfile F] [-lambda L]
//!   [-epochs N] [-hidden H] [-threads T] [-lr X] [-batch B] [-seed S]
//!   [-factor on|off] [-holdout FILE] [-residual on|off] [-init NET]
//!   [-buckets N] [-kings R] [-qat on|off]`:
//!   training and quantisation (`-factor`: the piece factoriser of `Layout`, on by
//!   default; `-holdout`: the held-out positions from FILE instead of the
//!   data; `-residual`: a network added to the weighted hand-written
//!   evaluation, off by default; `-init NET`: start from the network NET,
//!   e.g. a related game's made by `-transfer`, rather than at random;
//!   `-buckets N`: N output layers, picked by the number of units on the
//!   board, which the start position's units share evenly (1 by default;
//!   `-init` from a network of one layer starts every bucket with it);
//!   `-kings R`: king buckets, one set of feature weights per region of
//!   the own king's square (R file regions times the first rank or not,
//!   `KingBuckets::by_region`; 1 by default, none), with the factoriser a
//!   row shared by the buckets for each input, and `-init` from a
//!   network without them starting every bucket with its rows; `-qat`:
//!   quantisation-aware training, each batch's forward pass on the
//!   parameters as the file will hold them, off by default). Each epoch
//!   prints the held-out loss of the float parameters and of the network
//!   as written (`written`, what the engine evaluates);
//! - `fers-nnue -label IN OUT NET [-variant V] [-variantfile F]`: the
//!   positions of IN scored by network NET (`FEN;cp` lines): a slow,
//!   strong network (a residual one) labels data for a fast one;
//! - `fers-nnue -transfer IN OUT -variant V [-variantfile F] [-from W]
//!   [-as x=y,...]`: the network IN, trained for W (by default the variant
//!   it names), as a network for V, each kind reading the inputs of W's
//!   kind of its letter or of those `-as` gives (`c=q`; `a=b+n`, their
//!   sum), each square those of W's square at the same place of its board
//!   (Capablanca's ten files read chess's eight): a related game's network
//!   as a variant's first one, its teacher, or the start of its training;
//! - `fers-nnue -blend IN OUT SHARE`: the network IN averaged with the
//!   hand-written evaluation, `(1 - SHARE) IN + SHARE hand-written`, as a
//!   residual network (`Network::blended`);
//! - `fers-nnue -walk IN OUT PER SEED [-variant V] [-variantfile F]`:
//!   random walks from the positions of IN (positions for a stronger
//!   engine to label, `tools/py/label_positions.py`);
//! - `fers-nnue -pgn IN OUT FROM [-variant V] [-variantfile F]`: the
//!   positions of a PGN's games from ply FROM on (say, fers's games
//!   against the engine to beat, to be labelled and judged on).
//!
//! Each DATA line is `FEN;cp` or `FEN;cp;result`, the score in centipawns
//! and the result (1, 0.5, 0) from White's view (the files `fers-tune`
//! reads, and those `-selfplay` writes). The target is
//! `(1 - L) sigmoid(cp / 400) + L result` for lines with a result (`L` from
//! `-lambda`, default 0), else `sigmoid(cp / 400)`. The network has
//! `2 x kinds x squares` inputs per side (colour relative to the
//! perspective, the variant's kinds, its squares mirrored top to bottom for
//! Black) into `H` hidden units shared by both perspectives, squared
//! clipped ReLU, and one output from the side to move's half followed by
//! the other side's. The loss compares `sigmoid(out)` with the target;
//! Adam. 2% of the positions as given are held out first (drawn with
//! `-seed`; with `-holdout FILE`, FILE's positions instead, e.g. those of
//! other games, as walks from one position are alike) and their loss
//! printed each epoch; only then are the training
//! positions augmented: those without castling rights are also used
//! mirrored (first and last files swapped) where the rules do not see left
//! from right (`Variant::file_mirror_symmetric`: chess, Capablanca, ...). Splitting before augmenting
//! keeps every mirror twin on the side of its original, so the held-out
//! loss is not flattered by positions whose twin was trained on. The
//! weights are written quantised: for built-in chess in the `FERSNN01`
//! format of the embedded network (unless residual or with output
//! buckets, which need the general format's flags), for any other variant
//! in `FERSNN02`,
//! whose header names the variant, board and piece set (`EvalFile` refuses
//! it for any other).

use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;

use std::sync::Arc;

use fers_core::variant::Variant;
use fers_core::{Color, Position};
use fers_engine::evaluate::{evaluate, evaluate_network, EvalTables};
use fers_engine::nnue::{
    self, Buckets, KingBuckets, NetId, Network, NnueMap, HAND_UNIT, HIDDEN, HIDDEN_STEP,
    MAX_BUCKETS, MAX_HIDDEN,
};
use fers_tools::match_cli::resolve_variant;
use fers_tools::nnue_data::{self, DataGen};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const SCALE: f32 = 400.0;
const QA: f32 = 255.0;
const QB: f32 = 64.0;
const CLIP: f32 = 1.98;

#[derive(Clone, Debug, PartialEq)]
struct Sample {
    /// Feature indices from the side to move's view (the first `n`), then
    /// the other's.
    feats: Vec<u16>,
    n: u16,
    target: f32,
    /// The hand-written evaluation for the side to move, in units of
    /// `SCALE` (residual training; else 0).
    base: f32,
}

/// Parses `FEN;cp` or `FEN;cp;result` in variant `v`; `None` for a line
/// that is not one. `mirror` swaps the files (a and h in chess: the same
/// evaluation when nobody may castle). `lambda` weighs the result. With
/// `hand`, the sample carries the hand-written evaluation of the position
/// (residual training). With more than one king bucket, each
/// perspective's features are those of its own king's bucket (`kings`, as
/// `fers_engine::nnue::KingBuckets` reads them).
fn parse(
    v: &'static Variant,
    line: &str,
    mirror: bool,
    lambda: f32,
    hand: Option<&EvalTables>,
    kings: &KingBuckets,
) -> Option<Sample> {
    let mut parts = line.split(';');
    let fen = parts.next()?;
    let cp: f32 = parts.next()?.trim().parse().ok()?;
    let result: Option<f32> = match parts.next() {
        Some(r) => Some(r.trim().parse().ok().filter(|r| (0.0..=1.0).contains(r))?),
        None => None,
    };
    let pos = Position::from_fen(v, fen.trim()).ok()?;
    let g = &v.geometry;
    let (files, ranks) = (g.files as usize, g.ranks as usize);
    let squares = files * ranks;
    let kinds = v.pieces.len();
    let white = pos.side_to_move() == Color::White;
    let inputs = 2 * kinds * squares;
    // Per perspective (White, Black), the first input of its king's bucket.
    let king_rows = [Color::White, Color::Black].map(|c| {
        let Some(k) = pos.royal_square(c).filter(|_| kings.count > 1) else {
            return 0;
        };
        let (file, rank) = (g.file_of(k) as usize, g.rank_of(k) as usize);
        let file = if mirror { files - 1 - file } else { file };
        let rank = if c == Color::White {
            rank
        } else {
            ranks - 1 - rank
        };
        kings.table[rank * files + file] as usize * inputs
    });
    let mut own_side = Vec::new();
    let mut other_side = Vec::new();
    // In the FEN's order (rank by rank from the top, file by file), as the
    // chess trainer always summed them: the same data gives the same
    // network to the bit.
    for rank in (0..ranks).rev() {
        for file0 in 0..files {
            let sq = g.square(file0 as u8, rank as u8);
            let piece = pos.piece_at(sq);
            let c = if pos.occupied(Color::White).contains(sq) {
                Color::White
            } else if pos.occupied(Color::Black).contains(sq) {
                Color::Black
            } else {
                continue;
            };
            let kind = piece.kind() as usize;
            let file = if mirror { files - 1 - file0 } else { file0 };
            for (view_white, feats) in [(white, &mut own_side), (!white, &mut other_side)] {
                let other = (c == Color::White) != view_white;
                let rel = if view_white {
                    rank * files + file
                } else {
                    (ranks - 1 - rank) * files + file
                };
                let rows = king_rows[!view_white as usize];
                feats.push((rows + (other as usize * kinds + kind) * squares + rel) as u16);
            }
        }
    }
    let n = own_side.len() as u16;
    own_side.extend(other_side);
    let stm = |x: f32| if white { x } else { 1.0 - x };
    let eval = sigmoid(if white { cp } else { -cp } / SCALE);
    let target = match result {
        Some(r) => (1.0 - lambda) * eval + lambda * stm(r),
        None => eval,
    };
    let base = hand.map_or(0.0, |t| evaluate(&pos, t) as f32 / SCALE);
    Some(Sample {
        feats: own_side,
        n,
        target,
        base,
    })
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// All parameters in one flat vector: feature weights `[INPUTS + virt][h]`
/// (at 0), the feature bias `[h]`, the output weights `[2h]` and the output
/// bias. With the factoriser (`virt` > 0), each (relative colour, kind) has
/// one more row, trained with every square's feature of that piece and
/// added to each of them when the network is written: what a piece is worth
/// anywhere is learnt from all its positions at once, and the square rows
/// learn only where it stands better or worse (Stockfish's trainers do the
/// same). The file and the engine never see these rows. A residual
/// network has one more parameter after the output bias: the weight of the
/// hand-written evaluation its output is added to. With king buckets and
/// the factoriser, each input of a bucket also has a virtual row shared
/// by every bucket: what a piece on a square is worth wherever the king
/// stands is learnt from all positions, the buckets learn the difference.
struct Layout {
    /// Real inputs: those of a bucket times the king buckets.
    inputs: usize,
    /// Inputs of one king bucket.
    base: usize,
    h: usize,
    /// Squares per (relative colour, kind) block of inputs.
    squares: usize,
    /// Virtual rows: with the factoriser, `base / squares`, and `base`
    /// more with king buckets; else 0.
    virt: usize,
    residual: bool,
    /// Output layers by the number of units on the board (a sample's
    /// `n`: the side to move's view lists every unit).
    buckets: Buckets,
}

impl Layout {
    /// The output bucket of sample `s`.
    fn bucket(&self, s: &Sample) -> usize {
        self.buckets.of(s.n as usize)
    }
    /// The output weights of `bucket`, perspective `view` (0: the side to
    /// move), start here.
    fn out_w_of(&self, bucket: usize, view: usize) -> usize {
        self.out_w() + (2 * bucket + view) * self.h
    }
    /// Whether there is more than one king bucket.
    fn kinged(&self) -> bool {
        self.inputs > self.base
    }
    /// The virtual rows of real feature `f`, if the factoriser is on: the
    /// piece's (relative colour, kind) row, and with king buckets the
    /// input's row shared by the buckets.
    fn virtual_of(&self, f: usize) -> impl Iterator<Item = usize> {
        let on = self.virt > 0;
        let shared = (on && self.kinged()).then(|| self.inputs + f % self.base);
        let extra = if self.kinged() { self.base } else { 0 };
        let piece = on.then(|| self.inputs + extra + (f % self.base) / self.squares);
        piece.into_iter().chain(shared)
    }
    fn ft_b(&self) -> usize {
        (self.inputs + self.virt) * self.h
    }
    fn out_w(&self) -> usize {
        self.ft_b() + self.h
    }
    /// The output biases, one per bucket.
    fn out_b(&self) -> usize {
        self.out_w() + 2 * self.h * self.buckets.count as usize
    }
    /// The weight of the hand-written evaluation (residual networks).
    fn hand(&self) -> usize {
        self.out_b() + self.buckets.count as usize
    }
    fn len(&self) -> usize {
        self.hand() + self.residual as usize
    }
}

/// The features of `view` (0: the side to move).
fn feats(s: &Sample, view: usize) -> &[u16] {
    if view == 0 {
        &s.feats[..s.n as usize]
    } else {
        &s.feats[s.n as usize..]
    }
}

/// The network's output (before the sigmoid, in units of `SCALE`
/// centipawns for the side to move), leaving each perspective's hidden
/// sums in `acc`.
fn forward(l: &Layout, p: &[f32], s: &Sample, acc: &mut [Vec<f32>; 2]) -> f32 {
    let h = l.h;
    let bucket = l.bucket(s);
    let mut out = p[l.out_b() + bucket];
    if l.residual {
        out += p[l.hand()] * s.base;
    }
    for view in 0..2 {
        let a = &mut acc[view];
        a.copy_from_slice(&p[l.ft_b()..l.ft_b() + h]);
        for &f in feats(s, view) {
            let f = f as usize;
            for r in std::iter::once(f).chain(l.virtual_of(f)) {
                let row = &p[r * h..r * h + h];
                for (x, w) in a.iter_mut().zip(row) {
                    *x += w;
                }
            }
        }
        let ow = &p[l.out_w_of(bucket, view)..l.out_w_of(bucket, view) + h];
        for (x, w) in a.iter().zip(ow) {
            let c = x.clamp(0.0, 1.0);
            out += c * c * w;
        }
    }
    out
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
    let out = forward(l, p, s, acc);
    let pred = sigmoid(out);
    let err = pred - s.target;
    if let Some(g) = grad {
        let d = 2.0 * err * pred * (1.0 - pred);
        let bucket = l.bucket(s);
        g[l.out_b() + bucket] += d;
        if l.residual {
            g[l.hand()] += d * s.base;
        }
        for (view, a) in acc.iter_mut().enumerate() {
            let ow0 = l.out_w_of(bucket, view);
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
            for &f in feats(s, view) {
                let f = f as usize;
                for r in std::iter::once(f).chain(l.virtual_of(f)) {
                    let row = &mut g[r * h..r * h + h];
                    for (gw, x) in row.iter_mut().zip(a.iter()) {
                        *gw += x;
                    }
                }
            }
        }
    }
    err * err
}

/// `-walk IN OUT PER SEED [-variant V] [-variantfile F]`: from each
/// position of IN (`FEN;...` lines, of chess or the variant given), PER
/// random walks of 1 to 8 random legal moves; writes the FEN of each
/// walk's last position when the side to move is not in check (positions
/// to be labelled by a stronger engine).
fn walk(args: &[String]) -> ExitCode {
    let usage = "usage: fers-nnue -walk IN OUT PER SEED [-variant V] [-variantfile F]";
    let fail = |e: String| {
        eprintln!("fers-nnue: {e}\n{usage}");
        ExitCode::FAILURE
    };
    let ([input, output, per, seed], v) = match plain_and_variant(args) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    let (Ok(per), Ok(seed)) = (per.parse::<usize>(), seed.parse::<u64>()) else {
        return fail("PER and SEED are numbers".into());
    };
    let Ok(text) = std::fs::read_to_string(&input) else {
        return fail(format!("cannot read {input}"));
    };
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
    if let Err(e) = std::fs::write(&output, out) {
        return fail(format!("cannot write {output}: {e}"));
    }
    ExitCode::SUCCESS
}

/// `-pgn IN OUT FROM [-variant V] [-variantfile F]`: the positions of
/// IN's games (a PGN, say `fers-match -pgnout`'s), from ply FROM on, one
/// FEN a line: the positions a network plays into, for a stronger engine
/// to label (`tools/py/label_positions.py`) and `eval_vs_labels.py` to
/// judge it on. The position after a game's last move is not written (the
/// game ended there); a game that does not replay is an error.
fn pgn_positions(args: &[String]) -> ExitCode {
    let usage = "usage: fers-nnue -pgn IN OUT FROM [-variant V] [-variantfile F]";
    let fail = |e: String| {
        eprintln!("fers-nnue: {e}\n{usage}");
        ExitCode::FAILURE
    };
    let ([input, output, from], v) = match plain_and_variant(args) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    let Ok(from) = from.parse::<usize>() else {
        return fail("FROM is a number".into());
    };
    let Ok(text) = std::fs::read_to_string(&input) else {
        return fail(format!("cannot read {input}"));
    };
    let mut out = String::new();
    for game in fers_tools::pgn_games::read_games(&text) {
        let g = match game.replay(v, usize::MAX) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("fers-nnue: {input}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut pos = g.start;
        for (ply, &m) in g.moves.iter().enumerate() {
            if ply >= from {
                out += &pos.to_fen();
                out.push('\n');
            }
            pos.play(m);
        }
    }
    if let Err(e) = std::fs::write(&output, out) {
        return fail(format!("cannot write {output}: {e}"));
    }
    ExitCode::SUCCESS
}

/// `-label IN OUT NET [-variant V] [-variantfile F]`: each distinct
/// position of IN (`FEN;...` lines) scored by network NET as the engine
/// evaluates it (a residual network with its hand-written part), written
/// `FEN;cp` from White's view; scores beyond 3000 cp are dropped. A
/// stronger but slower network (a residual one) labels positions for a
/// faster one to learn from (docs/networks.md, distillation).
fn label(args: &[String]) -> ExitCode {
    let usage = "usage: fers-nnue -label IN OUT NET [-variant V] [-variantfile F]";
    let fail = |e: String| {
        eprintln!("fers-nnue: {e}\n{usage}");
        ExitCode::FAILURE
    };
    let ([input, output, net], v) = match plain_and_variant(args) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    let tables = match Network::load(&net)
        .and_then(|n| EvalTables::with_network(v, &Arc::new(n)).map_err(|e| format!("{net}: {e}")))
    {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let Ok(text) = std::fs::read_to_string(&input) else {
        return fail(format!("cannot read {input}"));
    };
    let mut seen = std::collections::HashSet::new();
    let (mut out, mut written) = (String::new(), 0usize);
    for line in text.lines() {
        let fen = line.split(';').next().unwrap_or("").trim();
        if !seen.insert(fen) {
            continue;
        }
        let Ok(pos) = Position::from_fen(v, fen) else {
            continue;
        };
        let Some(e) = evaluate_network(&pos, &tables) else {
            continue;
        };
        if e.abs() <= 3000 {
            let white = if pos.side_to_move() == Color::White {
                e
            } else {
                -e
            };
            out += &format!("{fen};{white}\n");
            written += 1;
        }
    }
    if let Err(e) = std::fs::write(&output, out) {
        return fail(format!("cannot write {output}: {e}"));
    }
    eprintln!("{written} positions of {} labelled by {net}", v.name);
    ExitCode::SUCCESS
}

/// `-transfer IN OUT -variant V ...`: the network IN, trained for a
/// variant W (`-from W`, by default the one it names), written as a
/// network for V, each kind of V reading the inputs of W's kind of the same
/// letter, or of the letters `-as` gives it (`c=q`: the chancellor as the
/// queen; `a=b+n`: the archbishop as a bishop and a knight on one square).
/// On another board each square reads W's at the same place
/// (`nnue::stretched_squares`).
fn transfer(args: &[String]) -> ExitCode {
    let usage = "usage: fers-nnue -transfer IN OUT -variant V [-variantfile F] [-from W] \
                 [-as x=y,...]";
    let run = || -> Result<String, String> {
        let (plain, flags) = split_flags(args)?;
        let [input, output] = plain.as_slice() else {
            return Err("IN and OUT are needed".into());
        };
        let (mut name, mut vfile, mut from, mut alias) = (None, None, None, Vec::new());
        for (a, x) in &flags {
            match a.as_str() {
                "-variant" => name = Some(x.as_str()),
                "-variantfile" => vfile = Some(x.as_str()),
                "-from" => from = Some(x.as_str()),
                "-as" => alias.extend(parse_as(x)?),
                _ => return Err(format!("bad option {a} {x}")),
            }
        }
        let net = Network::load(input)?;
        let target = variant_of(name, vfile)?;
        let source = variant_of(Some(from.unwrap_or(&net.id.variant)), vfile)?;
        if NetId::of(source) != net.id {
            return Err(format!(
                "{input} is a network for {}, not for {} (name the variant it was trained for \
                 with -from)",
                net.id,
                NetId::of(source)
            ));
        }
        let kinds = source_kinds(target, source, &alias)?;
        let to = NetId::of(target);
        let squares = nnue::stretched_squares(&net.id, &to);
        let out = net
            .transfer(to, &kinds, &squares)
            .map_err(|e| e.to_string())?;
        std::fs::write(output, out.to_bytes())
            .map_err(|e| format!("cannot write {output}: {e}"))?;
        Ok(format!(
            "{output}: {input} for {}, kinds {} of {}",
            target.name,
            describe_kinds(target, source, &kinds),
            source.name
        ))
    };
    finish(run(), usage)
}

/// A subcommand's end: its message, or its error and usage, on stderr.
fn finish(result: Result<String, String>, usage: &str) -> ExitCode {
    match result {
        Ok(msg) => {
            eprintln!("{msg}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fers-nnue: {e}\n{usage}");
            ExitCode::FAILURE
        }
    }
}

/// `-blend IN OUT SHARE`: the network IN averaged with the hand-written
/// evaluation, `(1 - SHARE) * IN + SHARE * hand-written`, written as a
/// residual network (`Network::blended`).
fn blend(args: &[String]) -> ExitCode {
    let usage = "usage: fers-nnue -blend IN OUT SHARE (SHARE from 0 to 1)";
    let run = || -> Result<String, String> {
        let [input, output, share] = args else {
            return Err("IN, OUT and SHARE are needed".into());
        };
        let share: f64 = share
            .parse()
            .map_err(|_| format!("SHARE {share} is not a number"))?;
        let net = Network::load(input)?;
        let out = net.blended(share).map_err(|e| e.to_string())?;
        std::fs::write(output, out.to_bytes())
            .map_err(|e| format!("cannot write {output}: {e}"))?;
        Ok(format!(
            "{output}: {input} for {}, {share} of the hand-written evaluation",
            net.id
        ))
    };
    finish(run(), usage)
}

/// A kind's letter and the source letters it reads (`-as`).
type Alias = (char, Vec<char>);

/// `-as c=q,a=b+n`: each piece letter with the letters it reads, several
/// joined by `+` for a compound piece.
fn parse_as(x: &str) -> Result<Vec<Alias>, String> {
    let letter = |t: &str| {
        let mut c = t.chars();
        c.next().filter(|_| c.next().is_none())
    };
    x.split(',')
        .map(|pair| {
            pair.split_once('=')
                .and_then(|(to, src)| {
                    let src: Option<Vec<char>> = src.split('+').map(letter).collect();
                    Some((letter(to)?, src?))
                })
                .ok_or(format!(
                    "-as takes letter=letter pairs (a compound: a=b+n), not {pair}"
                ))
        })
        .collect()
}

/// For each of `target`'s kinds, the kinds of `source` whose inputs it
/// reads: those of its own letter, or of the letters `alias` gives it.
fn source_kinds(
    target: &Variant,
    source: &Variant,
    alias: &[Alias],
) -> Result<Vec<Vec<usize>>, String> {
    let kind_of = |letter: char, for_letter: char| {
        source
            .pieces
            .iter()
            .position(|q| q.letter == letter)
            .ok_or(format!(
                "{} has no piece '{letter}' for {}'s '{for_letter}': give one with -as {for_letter}=...",
                source.name, target.name
            ))
    };
    target
        .pieces
        .iter()
        .map(|p| match alias.iter().find(|(to, _)| *to == p.letter) {
            Some((_, letters)) => letters.iter().map(|&l| kind_of(l, p.letter)).collect(),
            None => Ok(vec![kind_of(p.letter, p.letter)?]),
        })
        .collect()
}

/// Each of `target`'s kinds as `letter=source letters`, e.g. `a=b+n`.
fn describe_kinds(target: &Variant, source: &Variant, kinds: &[Vec<usize>]) -> String {
    let reads: Vec<String> = target
        .pieces
        .iter()
        .zip(kinds)
        .map(|(p, ks)| {
            let src: Vec<String> = ks
                .iter()
                .map(|&k| source.pieces[k].letter.to_string())
                .collect();
            format!("{}={}", p.letter, src.join("+"))
        })
        .collect();
    reads.join(" ")
}

/// Plain arguments and `-flag value` pairs.
type Args = (Vec<String>, Vec<(String, String)>);

/// Splits `args` into plain arguments and `-flag value` pairs.
fn split_flags(args: &[String]) -> Result<Args, String> {
    let (mut plain, mut flags) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a.starts_with('-') && a.len() > 1 {
            let v = args.get(i + 1).ok_or(format!("{a} needs a value"))?;
            flags.push((a.clone(), v.clone()));
            i += 2;
        } else {
            plain.push(a.clone());
            i += 1;
        }
    }
    Ok((plain, flags))
}

/// Exactly `N` plain arguments and the variant of `-variant V` and
/// `-variantfile F`, the only flags allowed (`-walk`, `-pgn`, `-label`).
fn plain_and_variant<const N: usize>(
    args: &[String],
) -> Result<([String; N], &'static Variant), String> {
    let (plain, flags) = split_flags(args)?;
    let count = plain.len();
    let plain = <[String; N]>::try_from(plain)
        .map_err(|_| format!("{N} arguments are needed, {count} given"))?;
    Ok((plain, variant_flags(&flags)?))
}

/// The variant of `-variant V` and `-variantfile F`, the only flags
/// allowed.
fn variant_flags(flags: &[(String, String)]) -> Result<&'static Variant, String> {
    let (mut name, mut vfile) = (None, None);
    for (a, x) in flags {
        match a.as_str() {
            "-variant" => name = Some(x.as_str()),
            "-variantfile" => vfile = Some(x.as_str()),
            _ => return Err(format!("bad option {a} {x}")),
        }
    }
    variant_of(name, vfile)
}

/// The variant of `-variant` / `-variantfile` (chess without them).
fn variant_of(name: Option<&str>, file: Option<&str>) -> Result<&'static Variant, String> {
    let file = file.map(std::path::PathBuf::from);
    resolve_variant(name.unwrap_or("chess"), file.as_ref())
        .map(|(v, _)| v)
        .map_err(|e| e.to_string())
}

/// `-selfplay OUT ...`: self-play data for any variant.
fn selfplay(args: &[String]) -> ExitCode {
    let usage = "usage: fers-nnue -selfplay OUT [-variant V] [-variantfile F] [-games N] \
                 [-nodes K] [-random R] [-maxplies P] [-seed S] [-hash MB] [-evalfile NET]";
    let run = || -> Result<String, String> {
        let (plain, flags) = split_flags(args)?;
        let [out] = &plain[..] else {
            return Err(usage.to_string());
        };
        let mut g = DataGen::default();
        let (mut name, mut file, mut net) = (None, None, None);
        for (a, v) in &flags {
            let bad = || format!("bad option {a} {v}");
            match a.as_str() {
                "-variant" => name = Some(v.as_str()),
                "-variantfile" => file = Some(v.as_str()),
                "-evalfile" => net = Some(v.as_str()),
                "-games" => g.games = v.parse().map_err(|_| bad())?,
                "-nodes" => g.nodes = v.parse().map_err(|_| bad())?,
                "-random" => g.random_plies = v.parse().map_err(|_| bad())?,
                "-maxplies" => g.max_plies = v.parse().map_err(|_| bad())?,
                "-seed" => g.seed = v.parse().map_err(|_| bad())?,
                "-hash" => g.hash_mb = v.parse().map_err(|_| bad())?,
                _ => return Err(format!("unknown option {a}\n{usage}")),
            }
        }
        let v = variant_of(name, file)?;
        if let Some(path) = net {
            let n = Arc::new(Network::load(path)?);
            NnueMap::with_network(v, n.clone()).map_err(|e| format!("{path}: {e}"))?;
            g.net = Some(n);
        }
        let f = std::fs::File::create(out).map_err(|e| format!("cannot write {out}: {e}"))?;
        let mut w = std::io::BufWriter::new(f);
        let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let r = nnue_data::selfplay(v, &g, &mut w, progress)?;
        Ok(format!(
            "{}: {} games of {} at {} nodes (+{} ={} -{} for White), {} positions",
            out, r.games, v.name, g.nodes, r.white_wins, r.draws, r.black_wins, r.positions
        ))
    };
    match run() {
        Ok(msg) => {
            eprintln!("{msg}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fers-nnue: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("-walk") => return walk(&args[1..]),
        Some("-pgn") => return pgn_positions(&args[1..]),
        Some("-selfplay") => return selfplay(&args[1..]),
        Some("-label") => return label(&args[1..]),
        Some("-transfer") => return transfer(&args[1..]),
        Some("-blend") => return blend(&args[1..]),
        _ => {}
    }
    match train(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fers-nnue: {e}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: fers-nnue OUT.nnue DATA... [-variant V] [-variantfile F] \
     [-lambda L] [-epochs N] [-hidden H] [-threads T] [-lr X] [-batch B] [-seed S] \
     [-factor on|off] [-holdout FILE] [-residual on|off] [-init NET] [-buckets N] \
     [-kings R] [-qat on|off]\n\
     \x20      fers-nnue -selfplay OUT [-variant V] [-variantfile F] [-games N] [-nodes K] ...\n\
     \x20      fers-nnue -label IN OUT NET [-variant V] [-variantfile F]\n\
     \x20      fers-nnue -transfer IN OUT -variant V [-variantfile F] [-from W] [-as x=y,...]\n\
     \x20      fers-nnue -blend IN OUT SHARE\n\
     \x20      fers-nnue -walk IN OUT PER SEED [-variant V] [-variantfile F]\n\
     \x20      fers-nnue -pgn IN OUT FROM [-variant V] [-variantfile F]";

/// A training's settings: the flags of `fers-nnue OUT.nnue DATA...`.
struct TrainOptions<'a> {
    epochs: usize,
    hidden: usize,
    threads: usize,
    lr: f32,
    batch: usize,
    seed: u64,
    variant: Option<&'a str>,
    variant_file: Option<&'a str>,
    lambda: f32,
    factor: bool,
    holdout: Option<&'a str>,
    residual: bool,
    init: Option<&'a str>,
    /// Output buckets (`-buckets N`, 1 by default).
    buckets: u8,
    /// File regions of the king buckets (`-kings R`: `2 R` buckets; 1, by
    /// default, for none).
    kings: u8,
    /// Quantisation-aware training (`-qat on`): each batch's forward pass
    /// uses the parameters as the file will hold them ([`quantised`]),
    /// its gradient updates the float ones (a straight-through estimate).
    qat: bool,
}

impl<'a> TrainOptions<'a> {
    fn parse(flags: &'a [(String, String)]) -> Result<TrainOptions<'a>, String> {
        let mut o = TrainOptions {
            epochs: 30,
            hidden: HIDDEN,
            threads: 2,
            lr: 0.001,
            batch: 16384,
            seed: 1,
            variant: None,
            variant_file: None,
            lambda: 0.0,
            factor: true,
            holdout: None,
            residual: false,
            init: None,
            buckets: 1,
            kings: 1,
            qat: false,
        };
        for (a, v) in flags {
            let ok = match a.as_str() {
                "-epochs" => v.parse().map(|x| o.epochs = x).is_ok(),
                "-hidden" => v.parse().map(|x| o.hidden = x).is_ok(),
                "-threads" => v.parse().map(|x: usize| o.threads = x.max(1)).is_ok(),
                "-lr" => v.parse().map(|x| o.lr = x).is_ok(),
                "-batch" => v.parse().map(|x: usize| o.batch = x.max(1)).is_ok(),
                "-seed" => v.parse().map(|x| o.seed = x).is_ok(),
                "-buckets" => v
                    .parse()
                    .ok()
                    .filter(|x: &u8| (1..=MAX_BUCKETS).contains(x))
                    .map(|x| o.buckets = x)
                    .is_some(),
                "-kings" => v
                    .parse()
                    .ok()
                    .filter(|x: &u8| (1..=nnue::MAX_KING_BUCKETS / 2).contains(x))
                    .map(|x| o.kings = x)
                    .is_some(),
                "-factor" => on_off(v).map(|x| o.factor = x).is_some(),
                "-qat" => on_off(v).map(|x| o.qat = x).is_some(),
                "-residual" => on_off(v).map(|x| o.residual = x).is_some(),
                "-lambda" => v
                    .parse()
                    .ok()
                    .filter(|x: &f32| (0.0..=1.0).contains(x))
                    .map(|x| o.lambda = x)
                    .is_some(),
                "-variant" | "-variantfile" | "-holdout" | "-init" => {
                    let slot = match a.as_str() {
                        "-variant" => &mut o.variant,
                        "-variantfile" => &mut o.variant_file,
                        "-holdout" => &mut o.holdout,
                        _ => &mut o.init,
                    };
                    *slot = Some(v.as_str());
                    true
                }
                _ => false,
            };
            if !ok {
                return Err(format!("bad option {a} {v}"));
            }
        }
        if !nnue::readable_width(o.hidden) {
            return Err(format!(
                "-hidden {}: the engine reads a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}",
                o.hidden
            ));
        }
        Ok(o)
    }
}

/// `fers-nnue OUT.nnue DATA... [flags]`: trains a network and writes it
/// after every epoch.
fn train(args: &[String]) -> Result<(), String> {
    let (mut files, flags) = split_flags(args)?;
    let o = TrainOptions::parse(&flags)?;
    if files.len() < 2 {
        return Err(USAGE.into());
    }
    let variant = variant_of(o.variant, o.variant_file)?;
    let out_path = files.remove(0);
    let tables = EvalTables::classical(variant);
    let hand = o.residual.then_some(&*tables);
    let g = &variant.geometry;
    let kings = if o.kings > 1 {
        KingBuckets::by_region(g.files, g.ranks, o.kings)
            .ok_or_else(|| format!("-kings {}: more regions than files", o.kings))?
    } else {
        KingBuckets::one()
    };
    let base = NetId::of(variant).inputs();
    if base * kings.count as usize > u16::MAX as usize {
        return Err(format!(
            "{} inputs in each of {} king buckets: too many for the trainer",
            base, kings.count
        ));
    }
    let (data, given) = read_training_data(variant, &files, o.holdout, o.lambda, hand, &kings)?;
    // The embedded format for built-in chess (unless residual, which
    // needs the general format's flags); the general format with its
    // header for every other variant.
    let chess = std::ptr::eq(variant, fers_core::variant::chess());
    let id = if chess && !o.residual && o.buckets == 1 && kings.count == 1 {
        None
    } else {
        Some(NetId::of(variant))
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(o.seed);
    let (valid, train) = split_then_mirror(data, given, &mut rng);
    eprintln!(
        "{} training (mirrors included), {} held out (as given, no mirrors), hidden {}",
        train.len(),
        valid.len(),
        o.hidden
    );
    let squares = g.files as usize * g.ranks as usize;
    let inputs = base * kings.count as usize;
    let l = Layout {
        inputs,
        base,
        h: o.hidden,
        squares,
        virt: if !o.factor {
            0
        } else if kings.count > 1 {
            base + base / squares
        } else {
            base / squares
        },
        residual: o.residual,
        buckets: start_buckets(variant, o.buckets),
    };
    // With `-init`, a residual network's weight of the hand-written
    // evaluation is the starting network's.
    let mut p = initial_parameters(&l, &train, o.init.is_none(), &mut rng);
    if let Some(path) = o.init {
        init_from(path, variant, &l, &mut p).map_err(|e| format!("-init {path}: {e}"))?;
        eprintln!("starting from {path}");
    }
    fit(&l, &mut p, &train, &valid, &o, &mut rng, |p| {
        write_net(&out_path, id.as_ref(), &l, &kings, p)
            .map_err(|e| format!("cannot write {out_path}: {e}"))
    })
}

/// `count` output buckets sharing the units of `variant`'s start position
/// evenly.
fn start_buckets(variant: &'static Variant, count: u8) -> Buckets {
    let units = nnue::units(&Position::startpos(variant));
    Buckets::even(count, units).unwrap_or(Buckets::ONE)
}

/// The positions of the data files, each with its mirror image where the
/// rules do not see left from right, and the held-out positions of
/// `-holdout FILE` if given.
#[allow(clippy::type_complexity)]
fn read_training_data(
    variant: &'static Variant,
    files: &[String],
    holdout: Option<&str>,
    lambda: f32,
    hand: Option<&EvalTables>,
    kings: &KingBuckets,
) -> Result<(Vec<(Sample, Option<Sample>)>, Option<Vec<Sample>>), String> {
    let mirrors = variant.file_mirror_symmetric();
    let mut data = Vec::new();
    for f in files {
        let d = read_positions(variant, f, mirrors, lambda, hand, kings)?;
        eprintln!("{f}: {} positions", d.len());
        data.extend(d);
    }
    if data.is_empty() {
        return Err(format!("no positions of {} in the data", variant.name));
    }
    let given = match holdout {
        None => None,
        Some(f) => {
            let d = read_positions(variant, f, false, lambda, hand, kings)?;
            if d.is_empty() {
                return Err(format!(
                    "no positions of {} in the held-out file",
                    variant.name
                ));
            }
            Some(d.into_iter().map(|(s, _)| s).collect())
        }
    };
    Ok((data, given))
}

/// Random starting parameters: feature weights within `+/- 0.088`, the
/// factoriser's rows at zero, feature biases 0.1, output weights within
/// `+/- 1/sqrt(2h)`; with `fit_hand`, a residual network's weight of the
/// hand-written evaluation at its best fit alone (its units are not the
/// labels'), the network's output at 0.
fn initial_parameters(
    l: &Layout,
    train: &[Sample],
    fit_hand: bool,
    rng: &mut impl Rng,
) -> Vec<f32> {
    let mut p = vec![0f32; l.len()];
    if l.residual && fit_hand {
        let w = hand_weight(train);
        eprintln!("hand-written evaluation alone: weight {w:.3}");
        p[l.hand()] = w;
    }
    let r = (1.0 / 32f32).sqrt();
    for w in &mut p[..l.inputs * l.h] {
        *w = rng.gen_range(-r..r) * 0.5;
    }
    for w in &mut p[l.ft_b()..l.out_w()] {
        *w = 0.1;
    }
    let ro = (1.0 / (2 * l.h) as f32).sqrt();
    for w in &mut p[l.out_w()..l.out_b()] {
        *w = rng.gen_range(-ro..ro);
    }
    p
}

/// Adam over `o.epochs` epochs of shuffled mini-batches, the rate cut to
/// 0.3 at 60% of the epochs and to 0.1 at 90%; prints the training and
/// held-out losses and calls `save` after each epoch.
fn fit(
    l: &Layout,
    p: &mut [f32],
    train: &[Sample],
    valid: &[Sample],
    o: &TrainOptions,
    rng: &mut impl Rng,
    save: impl Fn(&[f32]) -> Result<(), String>,
) -> Result<(), String> {
    let mut m = vec![0f32; l.len()];
    let mut v = vec![0f32; l.len()];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut t = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 0..o.epochs {
        let lr_now = if epoch * 10 >= o.epochs * 9 {
            o.lr * 0.1
        } else if epoch * 10 >= o.epochs * 6 {
            o.lr * 0.3
        } else {
            o.lr
        };
        order.shuffle(rng);
        let mut train_loss = 0f64;
        for chunk in order.chunks(o.batch) {
            let (grad, loss) = if o.qat {
                batch_gradient(l, &quantised(l, p), train, chunk, o.threads)
            } else {
                batch_gradient(l, p, train, chunk, o.threads)
            };
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
        let mut acc = [vec![0f32; l.h], vec![0f32; l.h]];
        let mut held_out = |p: &[f32]| -> f64 {
            let sum: f64 = valid
                .iter()
                .map(|s| step(l, p, s, None, &mut acc) as f64)
                .sum();
            sum / valid.len() as f64
        };
        // The file's own loss too: what the engine will evaluate.
        let (vl, written) = (held_out(p), held_out(&quantised(l, p)));
        eprintln!(
            "epoch {:>3} lr {:.5} train {:.6} held-out {:.6} written {:.6}",
            epoch + 1,
            lr_now,
            train_loss / train.len() as f64,
            vl,
            written
        );
        save(p)?;
    }
    Ok(())
}

/// The summed gradient and loss of the positions `chunk` of `train`, on
/// `threads` threads (the parts summed in order: the same sums every run).
fn batch_gradient(
    l: &Layout,
    p: &[f32],
    train: &[Sample],
    chunk: &[usize],
    threads: usize,
) -> (Vec<f32>, f64) {
    let per = chunk.len().div_ceil(threads);
    std::thread::scope(|sc| {
        let handles: Vec<_> = chunk
            .chunks(per)
            .map(|part| {
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
    })
}

/// The positions of one data file, each with its mirror image where
/// `mirrors` holds and it has no castling rights.
fn read_positions(
    variant: &'static Variant,
    path: &str,
    mirrors: bool,
    lambda: f32,
    hand: Option<&EvalTables>,
    kings: &KingBuckets,
) -> Result<Vec<(Sample, Option<Sample>)>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut data = Vec::new();
    for line in BufReader::new(file).lines().map_while(Result::ok) {
        if let Some(s) = parse(variant, &line, false, lambda, hand, kings) {
            // Without castling rights, the mirror image is a free sample.
            // (The same position, so the same hand-written score.)
            let mirror = if mirrors && line.split_whitespace().nth(2) == Some("-") {
                parse(variant, &line, true, lambda, None, kings)
                    .map(|m| Sample { base: s.base, ..m })
            } else {
                None
            };
            data.push((s, mirror));
        }
    }
    Ok(data)
}

/// `on`/`off` (or `true`/`false`, `1`/`0`).
fn on_off(v: &str) -> Option<bool> {
    match v {
        "on" | "true" | "1" => Some(true),
        "off" | "false" | "0" => Some(false),
        _ => None,
    }
}

/// The weight `w` of the hand-written evaluation whose `sigmoid(w base)`
/// fits the targets best (in steps of 0.01 up to 3).
fn hand_weight(train: &[Sample]) -> f32 {
    let loss = |w: f32| -> f64 {
        train
            .iter()
            .map(|s| ((sigmoid(w * s.base) - s.target) as f64).powi(2))
            .sum()
    };
    (0..=300)
        .map(|i| i as f32 / 100.0)
        .min_by(|&a, &b| loss(a).total_cmp(&loss(b)))
        .unwrap_or(1.0)
}

/// Shuffles the positions, splits off the held-out ones, then augments the
/// rest: returns (held out, training). The held-out positions are `given`
/// (`-holdout FILE`: positions of other games, so that none is a walk from
/// a trained position) or else 2% of the data (at least one); a held-out
/// position's mirror is dropped, never trained on.
fn split_then_mirror(
    mut data: Vec<(Sample, Option<Sample>)>,
    given: Option<Vec<Sample>>,
    rng: &mut impl Rng,
) -> (Vec<Sample>, Vec<Sample>) {
    data.shuffle(rng);
    let (valid, rest) = match given {
        Some(valid) => (valid, data),
        None => {
            let hold = (data.len() / 50).max(1).min(data.len());
            let rest = data.split_off(hold);
            (data.into_iter().map(|(s, _)| s).collect(), rest)
        }
    };
    let mut train = Vec::with_capacity(rest.len() * 2);
    for (s, m) in rest {
        train.push(s);
        train.extend(m);
    }
    (valid, train)
}

/// `-init NET`: the parameters start as the network NET (for this variant,
/// e.g. made by `-transfer`, residual or not as the training is) instead
/// of at random, its quantised weights read back as floats (the inverse
/// of [`write_net`]); the factoriser's virtual rows start at zero. A wider
/// training (`-hidden` above NET's) widens NET: its units come first, and
/// the new ones keep their random feature weights with output weights of
/// zero, so the network starts out scoring exactly as NET does.
fn init_from(path: &str, variant: &Variant, l: &Layout, p: &mut [f32]) -> Result<(), String> {
    let net = Network::load(path)?;
    if net.id != NetId::of(variant) {
        return Err(format!(
            "a network for {}, not {}",
            net.id,
            NetId::of(variant)
        ));
    }
    let nb = net.buckets();
    if nb != Buckets::ONE && nb != l.buckets {
        return Err(format!(
            "its output buckets ({} of {} units) are not the training's ({} of {})",
            nb.count, nb.per, l.buckets.count, l.buckets.per
        ));
    }
    if l.h < net.hidden() || net.residual.is_some() != l.residual {
        return Err(format!(
            "hidden {} or more and residual {} needed",
            net.hidden(),
            if l.residual { "on" } else { "off" }
        ));
    }
    // A network without king buckets starts every bucket with its rows.
    let theirs = net.king_buckets().count as usize;
    if theirs > 1 && theirs * l.base != l.inputs {
        return Err(format!(
            "its {theirs} king buckets are not the training's {}",
            l.inputs / l.base
        ));
    }
    let h = l.h;
    for f in 0..l.inputs {
        let row = if theirs > 1 { f } else { f % l.base };
        for (x, &w) in p[f * h..f * h + h].iter_mut().zip(net.feature_row(row)) {
            *x = w as f32 / QA;
        }
    }
    for (x, &w) in p[l.ft_b()..l.out_w()].iter_mut().zip(net.feature_bias()) {
        *x = w as f32 / QA;
    }
    // A network of one output layer starts every bucket with it.
    for bucket in 0..l.buckets.count as usize {
        let theirs = if nb == Buckets::ONE { 0 } else { bucket };
        for half in 0..2 {
            let at = l.out_w_of(bucket, half);
            let ours = net
                .output_weights(theirs, half)
                .iter()
                .map(|&w| w as f32 / QB);
            // The new units' weights are zero: they start out silent.
            for (x, w) in p[at..at + h]
                .iter_mut()
                .zip(ours.chain(std::iter::repeat(0.0)))
            {
                *x = w;
            }
        }
        p[l.out_b() + bucket] = net.output_bias(theirs) as f32 / (QA * QB);
    }
    if let Some(w) = net.residual {
        p[l.hand()] = w as f32 / HAND_UNIT as f32;
    }
    Ok(())
}

/// The parameters as the file [`write_net`] makes of `p` holds them (and
/// `-init` reads them back): each real row with its virtual rows folded
/// in and clipped to the range the accumulators are sized for, every
/// weight rounded to the file's steps (1/`QA` for the feature layer,
/// 1/`QB` for the output weights), the virtual rows zero. The trainer's
/// float loss can differ from the file's: a fine-tuning step smaller than
/// half a grid step is lost in the rounding.
fn quantised(l: &Layout, p: &[f32]) -> Vec<f32> {
    let grid = |x: f32, s: f32| (x * s).round().clamp(-32767.0, 32767.0) / s;
    let mut q = p.to_vec();
    for f in 0..l.inputs {
        for j in 0..l.h {
            let w = p[f * l.h + j] + l.virtual_of(f).map(|v| p[v * l.h + j]).sum::<f32>();
            q[f * l.h + j] = grid(w.clamp(-CLIP, CLIP), QA);
        }
    }
    q[l.inputs * l.h..l.ft_b()].fill(0.0);
    for x in &mut q[l.ft_b()..l.out_w()] {
        *x = grid(*x, QA);
    }
    for x in &mut q[l.out_w()..l.out_b()] {
        *x = grid(*x, QB);
    }
    for x in &mut q[l.out_b()..l.hand()] {
        *x = (*x * QA * QB).round() / (QA * QB);
    }
    if l.residual {
        let w = &mut q[l.hand()];
        *w = (*w * HAND_UNIT as f32).round() / HAND_UNIT as f32;
    }
    q
}

/// Quantises and writes the network (see `fers_engine::nnue` for the
/// format): `FERSNN01` for chess (`id` None), else `FERSNN02` with `id`'s
/// header (flagged residual, with the hand-written evaluation's weight
/// after the output bias, for a residual network).
fn write_net(
    path: &str,
    id: Option<&NetId>,
    l: &Layout,
    kings: &KingBuckets,
    p: &[f32],
) -> std::io::Result<()> {
    // The weights on the file's grid (`quantised`): scaled back, each is
    // its integer exactly.
    let g = quantised(l, p);
    let q = |x: f32, s: f32| (x * s).round() as i16;
    let mut bytes = Vec::with_capacity(2 * l.len() + 64);
    match id {
        Some(id) => bytes.extend_from_slice(&id.header(l.h, l.residual, l.buckets, kings)),
        None => {
            bytes.extend_from_slice(b"FERSNN01");
            bytes.extend_from_slice(&(l.h as u32).to_le_bytes());
        }
    }
    // Each real row with its virtual rows folded in (see `Layout`); the
    // virtual rows themselves are not written.
    for &w in g[..l.inputs * l.h].iter().chain(&g[l.ft_b()..l.out_w()]) {
        bytes.extend_from_slice(&q(w, QA).to_le_bytes());
    }
    for &w in &g[l.out_w()..l.out_b()] {
        bytes.extend_from_slice(&q(w, QB).to_le_bytes());
    }
    for &b in &g[l.out_b()..l.hand()] {
        let ob = (b * QA * QB).round() as i32;
        bytes.extend_from_slice(&ob.to_le_bytes());
    }
    if l.residual {
        let w = (g[l.hand()] * HAND_UNIT as f32).round() as i32;
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    let tmp = format!("{path}.tmp");
    std::fs::File::create(&tmp)?.write_all(&bytes)?;
    std::fs::rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Capablanca (of `variants/examples.ini`) and a full-size layout for it.
    fn capablanca_layout(factor: bool, residual: bool) -> (&'static Variant, Layout) {
        let file = std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../variants/examples.ini"
        ));
        let (v, _) = resolve_variant("capablanca", Some(&file)).expect("capablanca");
        let inputs = NetId::of(v).inputs();
        let layout = Layout {
            inputs,
            base: inputs,
            h: HIDDEN,
            squares: 80,
            virt: if factor { inputs / 80 } else { 0 },
            residual,
            buckets: Buckets::ONE,
        };
        (v, layout)
    }

    /// The training's flags: defaults, each flag read, and a clear error
    /// for a width the engine would not read, a weight of the result
    /// outside 0..1, a bucket count outside 1..16, a value that is not a
    /// number and an unknown flag.
    #[test]
    fn training_flags_are_read_and_bad_ones_refused() {
        let flags = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(a, v)| (a.to_string(), v.to_string()))
                .collect()
        };
        let none = flags(&[]);
        let o = TrainOptions::parse(&none).expect("defaults");
        assert_eq!(
            (o.hidden, o.epochs, o.factor, o.residual, o.buckets),
            (HIDDEN, 30, true, false, 1)
        );
        let given = flags(&[
            ("-hidden", "512"),
            ("-epochs", "8"),
            ("-lr", "0.0002"),
            ("-lambda", "0.25"),
            ("-init", "gen3.nnue"),
            ("-variant", "capablanca"),
            ("-factor", "off"),
            ("-buckets", "8"),
            ("-qat", "on"),
        ]);
        let o = TrainOptions::parse(&given).expect("valid flags");
        assert_eq!((o.hidden, o.epochs, o.lr, o.lambda), (512, 8, 0.0002, 0.25));
        assert_eq!((o.buckets, o.qat), (8, true));
        assert_eq!(
            (o.init, o.variant, o.factor),
            (Some("gen3.nnue"), Some("capablanca"), false)
        );
        for (bad, why) in [
            (("-hidden", "100"), "a multiple of 32 up to 1024"),
            (("-hidden", "2048"), "a multiple of 32 up to 1024"),
            (("-lambda", "1.5"), "bad option -lambda 1.5"),
            (("-epochs", "many"), "bad option -epochs many"),
            (("-speed", "9"), "bad option -speed 9"),
            (("-buckets", "0"), "bad option -buckets 0"),
            (("-buckets", "17"), "bad option -buckets 17"),
        ] {
            let list = flags(&[bad]);
            let e = TrainOptions::parse(&list).err().expect("refused");
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }

    /// Parameters drawn within `+/- r` (seeded), with feature biases that
    /// keep most hidden units inside the clip; and the generator, to draw
    /// more.
    fn random_parameters(l: &Layout, seed: u64, r: f32) -> (Vec<f32>, rand::rngs::StdRng) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut p: Vec<f32> = (0..l.len()).map(|_| rng.gen_range(-r..r)).collect();
        for w in &mut p[l.ft_b()..l.out_w()] {
            *w = 0.4;
        }
        (p, rng)
    }

    /// With the factoriser, the file written holds each square's row plus
    /// its piece's virtual row: the engine's integer evaluation of the file
    /// equals the trainer's float model, within quantisation, on positions
    /// of Capablanca; and the same model with the virtual rows dropped
    /// evaluates otherwise (the rows count).
    #[test]
    fn the_factoriser_is_folded_into_the_written_network() {
        let (v, l) = capablanca_layout(true, false);
        let (mut p, mut rng) = random_parameters(&l, 3, 0.03);
        for w in &mut p[l.out_w()..l.out_b()] {
            *w = rng.gen_range(-0.2..0.2);
        }
        let path = std::env::temp_dir().join(format!("fers-factor-{}.nnue", std::process::id()));
        let path = path.display().to_string();
        write_net(&path, Some(&NetId::of(v)), &l, &KingBuckets::one(), &p).expect("written");
        let net = Arc::new(Network::load(&path).expect("reads back"));
        let _ = std::fs::remove_file(&path);
        let map = NnueMap::with_network(v, net).expect("fits");
        let plain = Layout { virt: 0, ..l };
        let mut unfolded = p[..l.inputs * l.h].to_vec();
        unfolded.extend_from_slice(&p[l.ft_b()..]);
        let mut acc = [vec![0f32; l.h], vec![0f32; l.h]];
        let mut differs = 0;
        for fen in [
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR w KQkq - 4 5",
            "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR b KQkq - 4 5",
            "4k5/10/10/10/10/10/4P5/2C1K3A1 w - - 0 1",
        ] {
            let s = sample(v, fen);
            let float = forward(&l, &p, &s, &mut acc) * SCALE;
            let pos = Position::from_fen(v, fen).expect("FEN");
            let int = fers_engine::nnue::evaluate(&pos, &map) as f32;
            // The output weights' grain (1/64) is the largest error.
            let tolerance = 4.0 + 0.05 * float.abs();
            assert!(
                (float - int).abs() <= tolerance,
                "{fen}: float {float}, file {int}"
            );
            let without = forward(&plain, &unfolded, &s, &mut acc) * SCALE;
            if (without - int).abs() > 3.0 * tolerance {
                differs += 1;
            }
        }
        assert!(differs >= 3, "the virtual rows change the evaluation");
    }

    /// `fen` as a training sample scored 0, without king buckets.
    fn sample(v: &'static Variant, fen: &str) -> Sample {
        parse(
            v,
            &format!("{fen};0"),
            false,
            0.0,
            None,
            &KingBuckets::one(),
        )
        .expect("parses")
    }

    /// A network file's path in the temporary directory, unique to this
    /// process and `name`.
    fn scratch(name: &str) -> String {
        let file = format!("fers-{name}-{}.nnue", std::process::id());
        std::env::temp_dir().join(file).display().to_string()
    }

    /// `-init`: a random network of layout `from` (its seed, its file)
    /// written and read back as the start of a training of layout `to`
    /// (its king buckets, its file), which written at once scores each of
    /// `fens` exactly as the first.
    fn started_as_before(
        v: &'static Variant,
        from: (&Layout, u64, &str),
        to: (&Layout, &KingBuckets, &str),
        fens: &[&str],
    ) {
        let ((l0, seed, first), (l1, kings, second)) = (from, to);
        let (q, _) = random_parameters(l0, seed, 0.03);
        write_net(first, Some(&NetId::of(v)), l0, &KingBuckets::one(), &q).expect("written");
        let mut r = vec![0f32; l1.len()];
        init_from(first, v, l1, &mut r).expect("the network starts the training");
        write_net(second, Some(&NetId::of(v)), l1, kings, &r).expect("written");
        let load = |path: &str| {
            let net = Arc::new(Network::load(path).expect("reads back"));
            NnueMap::with_network(v, net).expect("fits")
        };
        let (a, b) = (load(first), load(second));
        for fen in fens {
            let pos = Position::from_fen(v, fen).expect("FEN");
            assert_eq!(nnue::evaluate(&pos, &a), nnue::evaluate(&pos, &b), "{fen}");
        }
    }

    /// `fen` with its files swapped (a and j on ten files): the position
    /// `parse` reads with `mirror`.
    fn files_swapped(fen: &str) -> String {
        let (board, rest) = fen.split_once(' ').expect("a FEN");
        let ranks: Vec<String> = board
            .split('/')
            .map(|rank| {
                // Each cell a character, '.' for an empty square, reversed.
                let mut cells = String::new();
                let mut run = String::new();
                for c in rank.chars() {
                    if c.is_ascii_digit() {
                        run.push(c);
                        continue;
                    }
                    cells += &".".repeat(run.parse().unwrap_or(0));
                    run.clear();
                    cells.push(c);
                }
                cells += &".".repeat(run.parse().unwrap_or(0));
                fen_rank(cells.chars().rev(), '.')
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    /// A FEN rank from its cells, `empty` marking an empty square: each run
    /// of empty squares written as one number (fers reads `11` as 11).
    fn fen_rank(cells: impl Iterator<Item = char>, empty: char) -> String {
        let mut out = String::new();
        let mut run = 0;
        for c in cells {
            if c == empty {
                run += 1;
                continue;
            }
            if run > 0 {
                out += &run.to_string();
                run = 0;
            }
            out.push(c);
        }
        if run > 0 {
            out += &run.to_string();
        }
        out
    }

    /// King buckets (`-kings 3`: six buckets of Capablanca's own king's
    /// region and rank): the file written holds each bucket's rows with the
    /// shared and the piece rows folded in, and the engine's evaluation of
    /// it equals the trainer's float model, on positions with the kings in
    /// several buckets, mirrored files included; a network without king
    /// buckets started as one (`-init`) scores exactly as before.
    #[test]
    fn king_buckets_are_written_as_trained_and_started_from_a_plain_network() {
        let (v, one) = capablanca_layout(true, false);
        let kings = KingBuckets::by_region(10, 8, 3).expect("regions");
        let l = Layout {
            inputs: one.base * 6,
            virt: one.base + one.base / 80,
            ..one
        };
        assert!(l.kinged());
        let (mut p, mut rng) = random_parameters(&l, 5, 0.03);
        for w in &mut p[l.out_w()..l.out_b()] {
            *w = rng.gen_range(-0.2..0.2);
        }
        let path = |tag: &str| scratch(&format!("kings-{tag}"));
        let (kinged, plain, started) = (path("k"), path("p"), path("s"));
        write_net(&kinged, Some(&NetId::of(v)), &l, &kings, &p).expect("written");
        let net = Network::load(&kinged).expect("reads back");
        assert_eq!(net.king_buckets(), &kings);
        let mut q = vec![0f32; l.len()];
        init_from(&kinged, v, &l, &mut q).expect("fits");
        assert_eq!(quantised(&l, &p), q);
        let map = NnueMap::with_network(v, Arc::new(net)).expect("fits");
        let mut acc = [vec![0f32; l.h], vec![0f32; l.h]];
        let fens = [
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR b KQkq - 4 5",
            "8k1/10/10/10/10/3K6/4P5/2C6A w - - 0 1",
            "10/1k8/10/10/10/10/4P5/2C4A1K b - - 0 1",
        ];
        let mut buckets = std::collections::BTreeSet::new();
        for fen in fens {
            for mirror in [false, true] {
                let s = parse(v, &format!("{fen};0"), mirror, 0.0, None, &kings);
                let Some(s) = s else { continue };
                buckets.extend(s.feats.iter().map(|&f| f as usize / l.base));
                let float = forward(&l, &p, &s, &mut acc) * SCALE;
                let fen = if mirror {
                    files_swapped(fen)
                } else {
                    fen.to_string()
                };
                let pos = Position::from_fen(v, &fen).expect("FEN");
                let int = nnue::evaluate(&pos, &map) as f32;
                let tolerance = 6.0 + 0.1 * float.abs();
                assert!(
                    (float - int).abs() <= tolerance,
                    "{fen} (mirror {mirror}): float {float}, file {int}"
                );
            }
        }
        assert!(buckets.len() >= 4, "the positions' buckets: {buckets:?}");
        // A plain network, then started with king buckets.
        let to = (&l, &kings, started.as_str());
        started_as_before(v, (&one, 13, &plain), to, &fens);
        for f in [kinged, plain, started] {
            let _ = std::fs::remove_file(f);
        }
    }

    /// `-init`: a written network read back as parameters writes the same
    /// file again (residual weight included; the factoriser's rows folded
    /// into the squares' and started at zero), and a network for another
    /// variant, or a plain one for a residual training, is refused.
    #[test]
    fn a_network_read_back_as_parameters_writes_the_same_file() {
        for (factor, residual) in [(true, false), (false, true)] {
            let (v, l) = capablanca_layout(factor, residual);
            let mut rng = rand::rngs::StdRng::seed_from_u64(9);
            let p: Vec<f32> = (0..l.len()).map(|_| rng.gen_range(-0.5..0.5)).collect();
            let dir = std::env::temp_dir();
            let first = dir.join(format!("fers-init-a-{}.nnue", std::process::id()));
            let again = dir.join(format!("fers-init-b-{}.nnue", std::process::id()));
            let (first, again) = (first.display().to_string(), again.display().to_string());
            write_net(&first, Some(&NetId::of(v)), &l, &KingBuckets::one(), &p).expect("written");
            let mut q = vec![0f32; l.len()];
            init_from(&first, v, &l, &mut q).expect("fits");
            if factor {
                assert!(q[l.inputs * l.h..l.ft_b()].iter().all(|&x| x == 0.0));
            }
            // The loss printed as the file's is that of these parameters.
            assert_eq!(quantised(&l, &p), q);
            write_net(&again, Some(&NetId::of(v)), &l, &KingBuckets::one(), &q).expect("written");
            let (a, b) = (std::fs::read(&first), std::fs::read(&again));
            let _ = (std::fs::remove_file(&first), std::fs::remove_file(&again));
            assert_eq!(a.expect("first"), b.expect("again"));
            let flipped = Layout {
                residual: !residual,
                ..l
            };
            let mut r = vec![0f32; flipped.len()];
            write_net(&first, Some(&NetId::of(v)), &l, &KingBuckets::one(), &p).expect("written");
            assert!(init_from(&first, v, &flipped, &mut r).is_err());
            let chess = fers_core::variant::chess();
            assert!(init_from(&first, chess, &l, &mut q).is_err());
            let _ = std::fs::remove_file(&first);
        }
    }

    /// `-init` a narrower network: the wider one written at once scores
    /// every position exactly as the narrower (its new units are silent),
    /// its first units are the narrower's, and its new units have weights
    /// to learn; a wider network cannot start a narrower training.
    #[test]
    fn a_network_widened_by_init_scores_as_before() {
        let (v, l) = capablanca_layout(true, false);
        let (p, mut rng) = random_parameters(&l, 5, 0.05);
        let dir = std::env::temp_dir();
        let narrow = dir.join(format!("fers-widen-a-{}.nnue", std::process::id()));
        let wide = dir.join(format!("fers-widen-b-{}.nnue", std::process::id()));
        let (narrow, wide) = (narrow.display().to_string(), wide.display().to_string());
        write_net(&narrow, Some(&NetId::of(v)), &l, &KingBuckets::one(), &p).expect("written");
        let w = Layout { h: 2 * HIDDEN, ..l };
        // As the trainer starts: random feature and output weights, the
        // factoriser's rows at zero.
        let mut q = vec![0f32; w.len()];
        for range in [0..w.inputs * w.h, w.out_w()..w.out_b()] {
            for x in &mut q[range] {
                *x = rng.gen_range(-0.05..0.05);
            }
        }
        init_from(&narrow, v, &w, &mut q).expect("widens");
        write_net(&wide, Some(&NetId::of(v)), &w, &KingBuckets::one(), &q).expect("written");
        let a = Network::load(&narrow).expect("narrow");
        let b = Network::load(&wide).expect("wide");
        let mut r = vec![0f32; l.len()];
        assert!(init_from(&wide, v, &l, &mut r).is_err());
        let _ = (std::fs::remove_file(&narrow), std::fs::remove_file(&wide));
        assert_eq!((a.hidden(), b.hidden()), (HIDDEN, 2 * HIDDEN));
        assert_eq!(&b.feature_row(17)[..HIDDEN], a.feature_row(17));
        assert!(b.feature_row(17)[HIDDEN..].iter().any(|&x| x != 0));
        assert!(b.output_weights(0, 0)[HIDDEN..].iter().all(|&x| x == 0));
        let (a, b) = (
            NnueMap::with_network(v, Arc::new(a)).expect("fits"),
            NnueMap::with_network(v, Arc::new(b)).expect("fits"),
        );
        for fen in [
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR b KQkq - 4 5",
            "4k5/10/10/10/10/10/4P5/2C1K3A1 w - - 0 1",
        ] {
            let pos = Position::from_fen(v, fen).expect("FEN");
            let (x, y) = (nnue::evaluate(&pos, &a), nnue::evaluate(&pos, &b));
            assert_eq!(x, y, "{fen}");
        }
    }

    /// Output buckets: the file written with four buckets (Capablanca's
    /// 40 units, 10 a bucket) evaluates as the trainer's float model in
    /// each bucket, and the buckets differ; `-init` from a network of one
    /// output layer starts every bucket with it (the same scores exactly),
    /// and a network of other buckets is refused.
    #[test]
    fn output_buckets_are_written_read_and_started_from_one_layer() {
        let (v, one) = capablanca_layout(false, false);
        let l = Layout {
            buckets: start_buckets(v, 4),
            ..one
        };
        assert_eq!(l.buckets, Buckets { count: 4, per: 10 });
        let (mut p, mut rng) = random_parameters(&l, 11, 0.03);
        for w in &mut p[l.out_w()..l.hand()] {
            *w = rng.gen_range(-0.2..0.2);
        }
        let path = |tag: &str| scratch(&format!("buckets-{tag}"));
        let (bucketed, single, started) = (path("a"), path("b"), path("c"));
        write_net(&bucketed, Some(&NetId::of(v)), &l, &KingBuckets::one(), &p).expect("written");
        let net = Network::load(&bucketed).expect("reads back");
        assert_eq!(net.buckets(), l.buckets);
        let map = NnueMap::with_network(v, Arc::new(net)).expect("fits");
        let fens = [
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "r1a1qkb1nr/ppbppp2pp/n5c3/10/6N3/10/PPP3PPPP/RNABQKB1CR b KQkq - 4 5",
            "4k5/ppp7/10/10/10/10/PPP1P5/2C1K3A1 w - - 0 1",
            "4k5/10/10/10/10/10/4P5/2C1K3A1 w - - 0 1",
        ];
        let mut acc = [vec![0f32; l.h], vec![0f32; l.h]];
        let (mut seen, mut differs) = (Vec::new(), 0);
        for fen in fens {
            let s = sample(v, fen);
            seen.push(l.bucket(&s));
            let float = forward(&l, &p, &s, &mut acc) * SCALE;
            // Bucket 0's layer, for every position: not the same model.
            let first = Layout {
                buckets: Buckets::ONE,
                ..l
            };
            let other = forward(&first, &p, &s, &mut acc) * SCALE;
            let pos = Position::from_fen(v, fen).expect("FEN");
            let int = nnue::evaluate(&pos, &map) as f32;
            // Random weights this large leave a quantisation error of about
            // a tenth; the buckets differ by far more.
            let tolerance = 6.0 + 0.15 * float.abs();
            assert!(
                (float - int).abs() <= tolerance,
                "{fen}: float {float}, file {int}"
            );
            if l.bucket(&s) > 0 && (other - int).abs() > 3.0 * tolerance {
                differs += 1;
            }
        }
        assert_eq!(seen, [3, 3, 1, 0]);
        assert!(differs >= 2, "the buckets change the evaluation");
        // One layer, then started as four buckets.
        let to = (&l, &KingBuckets::one(), started.as_str());
        started_as_before(v, (&one, 12, &single), to, &fens);
        let two = Layout {
            buckets: start_buckets(v, 2),
            ..one
        };
        let mut t = vec![0f32; two.len()];
        let e = init_from(&bucketed, v, &two, &mut t).expect_err("other buckets");
        assert!(e.contains("buckets"), "{e}");
        for f in [bucketed, single, started] {
            let _ = std::fs::remove_file(f);
        }
    }

    /// A residual network as written: the engine's evaluation (the
    /// network's output plus its weight of the hand-written evaluation)
    /// equals the trainer's float model within quantisation, and the
    /// hand-written part counts.
    #[test]
    fn a_residual_network_adds_the_hand_written_score_as_trained() {
        let (v, l) = capablanca_layout(false, true);
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut p: Vec<f32> = (0..l.len()).map(|_| rng.gen_range(-0.03..0.03)).collect();
        for w in &mut p[l.ft_b()..l.out_w()] {
            *w = 0.4;
        }
        p[l.hand()] = 1.3;
        let path = std::env::temp_dir().join(format!("fers-residual-{}.nnue", std::process::id()));
        let path = path.display().to_string();
        write_net(&path, Some(&NetId::of(v)), &l, &KingBuckets::one(), &p).expect("written");
        let net = Arc::new(Network::load(&path).expect("reads back"));
        let _ = std::fs::remove_file(&path);
        assert_eq!(net.residual, Some(1331), "1.3 x 1024");
        let mut t = fers_engine::evaluate::EvalTables::build(v, &fers_engine::evaluate::PARAMS);
        t.nnue = Some(NnueMap::with_network(v, net).expect("fits"));
        let hand_tables = EvalTables::classical(v);
        let mut acc = [vec![0f32; l.h], vec![0f32; l.h]];
        for fen in [
            "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR w KQkq - 4 5",
            "r1a1qkb1nr/ppbppppppp/n1p3c3/10/6N3/10/PPPPPPPPPP/RNABQKB1CR b KQkq - 4 5",
            "4k5/10/10/10/10/10/4P5/2C1K3A1 w - - 0 1",
        ] {
            let s = parse(
                v,
                &format!("{fen};0"),
                false,
                0.0,
                Some(&hand_tables),
                &KingBuckets::one(),
            )
            .expect("parses");
            let pos = Position::from_fen(v, fen).expect("FEN");
            assert_eq!(s.base, evaluate(&pos, &hand_tables) as f32 / SCALE);
            if fen.starts_with("4k5") {
                assert!(s.base > 1.0, "{fen}: White is far ahead by hand");
            }
            let float = forward(&l, &p, &s, &mut acc) * SCALE;
            let int = fers_engine::evaluate::evaluate_network(&pos, &t).expect("network") as f32;
            let tolerance = 4.0 + 0.05 * float.abs();
            assert!(
                (float - int).abs() <= tolerance,
                "{fen}: float {float}, engine {int}"
            );
        }
    }

    /// Positions without castling rights (every one has a mirror twin):
    /// no held-out position may have its twin, or itself, in training.
    #[test]
    fn the_held_out_split_is_drawn_before_mirroring() {
        let mut data = Vec::new();
        for i in 0..400usize {
            // A king pair and one pawn (ranks 2 to 6, so no king is in check).
            let (wk, bk, pawn) = (i % 8, 56 + (i / 8) % 8, 8 + (i * 7) % 40);
            let mut board = ['1'; 64];
            board[wk] = 'K';
            board[bk] = 'k';
            if pawn != wk && pawn != bk {
                board[pawn] = 'P';
            }
            // Runs of empty squares as one digit (fers reads `11` as 11).
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|r| fen_rank(board[r * 8..r * 8 + 8].iter().copied(), '1'))
                .collect();
            let line = format!("{} w - - 0 1;{}", ranks.join("/"), i);
            let s = parse(
                fers_core::variant::chess(),
                &line,
                false,
                0.0,
                None,
                &KingBuckets::one(),
            )
            .expect("parses");
            let m = parse(
                fers_core::variant::chess(),
                &line,
                true,
                0.0,
                None,
                &KingBuckets::one(),
            )
            .expect("mirrors");
            data.push((s, Some(m)));
        }
        let twins: Vec<(Sample, Sample)> = data
            .iter()
            .map(|(s, m)| (s.clone(), m.clone().unwrap()))
            .collect();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        // `-holdout`: the given positions are held out, every other trained on.
        let given: Vec<Sample> = twins[..3].iter().map(|(s, _)| s.clone()).collect();
        let (valid, train) = split_then_mirror(data.clone(), Some(given.clone()), &mut rng);
        assert_eq!(valid, given);
        assert_eq!(train.len(), 2 * 400, "all the data, each with its mirror");
        let (valid, train) = split_then_mirror(data, None, &mut rng);
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
