#!/usr/bin/env python3
"""Move quality judged by a stronger engine: how much each engine's chosen
moves lose by Stockfish 15.1's judgement, on the same chess positions.

usage:
  move_quality.py extract PGN... > FENS
      the positions of the games (standard chess), every fifth ply from
      ply 12 to 100, each once
  move_quality.py play FENS OUT NODES ENGINE [NAME=VALUE...]
      each position's `bestmove` at `go nodes NODES` from a fresh
      `ucinewgame`, the UCI options NAME=VALUE set first; OUT has
      "FEN<TAB>move" lines
  move_quality.py judge FENS MOVES...
      the judge's loss of each MOVES file's choices, and paired
      differences between files

The judge (/usr/games/stockfish, one thread, Hash 64, two processes) scores
each position by `go nodes J` and each chosen move by `go nodes J
searchmoves MOVE`, each from a fresh `ucinewgame`; J is $JN (default
1,000,000). Scores are cached in $CACHE (default judge.cache in the current
directory: "FEN|MOVE<TAB>cp", "FEN|*" for the best), so a new MOVES file
costs only its new moves. A move's loss is wp(best) - wp(move), wp(cp) =
1 / (1 + 10^(-cp / 300)), reported x 100 (expected points a hundred moves),
over the positions every file has.

docs/search.md (thirty-third session) has the figures: with 600 positions
from fers's games against Fairy-Stockfish, paired differences carry a
standard error of about 0.10 to 0.28, the loss that five times the nodes
takes off is about 0.5 to 1.0, and the measure did not rank fers and
Fairy-Stockfish at 20,000 nodes as their games do. It is a quick look, not
a substitute for games."""
import io
import math
import os
import re
import sys
import threading

import chess
import chess.pgn

from tree_depth import Engine as UciEngine  # the UCI pipe (this directory)

JUDGE = ["/usr/games/stockfish"]
JUDGE_NODES = int(os.environ.get("JN", "1000000"))
CACHE = os.environ.get("CACHE", "judge.cache")


class Engine(UciEngine):
    """The UCI pipe, asked for a position's best move and score."""

    def go(self, fen, limit):
        """The best move and the last exact score (cp; mates as 10000 less
        their distance) of a fresh search."""
        score = None
        for line in self.search(fen, limit):
            if line.startswith("bestmove"):
                return line.split()[1], score
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m and "bound" not in line and " pv " in line:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (10000 - abs(v)) * (1 if v > 0 else -1)


def extract(paths):
    seen = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board = game.board()
                for i, mv in enumerate(game.mainline_moves()):
                    board.push(mv)
                    if 12 <= i <= 100 and i % 5 == 0 and not board.is_game_over():
                        key = " ".join(board.fen().split()[:4])
                        if key not in seen:
                            seen.add(key)
                            print(board.fen())


def read_fens(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def play(fens_path, out, nodes, cmd, options):
    engine = Engine(cmd.split(), [tuple(o.split("=", 1)) for o in options])
    with open(out, "w", encoding="utf-8") as f:
        for fen in read_fens(fens_path):
            mv, _ = engine.go(fen, f"nodes {nodes}")
            f.write(f"{fen}\t{mv}\n")
            f.flush()


def wp(cp):
    return 1 / (1 + 10 ** (-max(-3000, min(3000, cp)) / 300))


def load_cache():
    cache = {}
    if os.path.exists(CACHE):
        with open(CACHE, encoding="utf-8") as f:
            for line in f:
                k, v = line.rstrip("\n").rsplit("\t", 1)
                cache[k] = int(v)
    return cache


def fill_cache(cache, todo):
    """Judges the (fen, move or None for the best) pairs on two processes."""
    lock = threading.Lock()
    with open(CACHE, "a", encoding="utf-8") as out:

        def worker(items):
            judge = Engine(JUDGE, [("Hash", "64"), ("Threads", "1")])
            for fen, mv in items:
                if mv is not None and f"{fen}|{mv}" in cache:
                    continue  # the best move, judged meanwhile
                limit = f"nodes {JUDGE_NODES}" + (f" searchmoves {mv}" if mv else "")
                best, score = judge.go(fen, limit)
                if score is None:
                    continue
                keys = [f"{fen}|{mv}"] if mv else [f"{fen}|*", f"{fen}|{best}"]
                with lock:
                    for k in keys:
                        cache[k] = score
                        out.write(f"{k}\t{score}\n")
                    out.flush()

        # The best scores first: they also judge the best moves.
        for batch in ([t for t in todo if t[1] is None], [t for t in todo if t[1]]):
            threads = [threading.Thread(target=worker, args=(batch[i::2],)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()


def mean_se(xs):
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1))
    return m, sd / math.sqrt(len(xs))


def judge(fens_path, move_files):
    fens = read_fens(fens_path)
    cache = load_cache()
    runs = []
    for p in move_files:
        with open(p, encoding="utf-8") as f:
            runs.append(dict(line.rstrip("\n").split("\t") for line in f if "\t" in line))
    todo = []
    for fen in fens:
        if f"{fen}|*" not in cache:
            todo.append((fen, None))
        for mv in sorted({r[fen] for r in runs if fen in r}):
            if f"{fen}|{mv}" not in cache:
                todo.append((fen, mv))
    fill_cache(cache, todo)
    losses = []
    for r in runs:
        row = []
        for fen in fens:
            best, got = cache.get(f"{fen}|*"), cache.get(f"{fen}|{r.get(fen)}")
            row.append(None if best is None or got is None else max(0.0, wp(best) - wp(got)))
        losses.append(row)
    common = [i for i in range(len(fens)) if all(row[i] is not None for row in losses)]
    if not common:
        sys.exit("no position has every file's move judged")
    print(f"{len(common)} positions, judged at {JUDGE_NODES} nodes")
    for p, row in zip(move_files, losses):
        xs = [row[i] * 100 for i in common]
        m, se = mean_se(xs)
        print(f"{p}: mean loss {m:.3f} +/- {se:.3f}, above 10: {sum(x > 10 for x in xs)}")
    for a in range(len(runs)):
        for b in range(a + 1, len(runs)):
            m, se = mean_se([(losses[a][i] - losses[b][i]) * 100 for i in common])
            same = sum(runs[a].get(fens[i]) == runs[b].get(fens[i]) for i in common)
            print(f"  {move_files[a]} - {move_files[b]}: {m:+.3f} +/- {se:.3f} (same move {same})")


def main():
    args = sys.argv[1:]
    if args[:1] == ["extract"] and len(args) > 1:
        extract(args[1:])
    elif args[:1] == ["play"] and len(args) >= 5:
        play(args[1], args[2], int(args[3]), args[4], args[5:])
    elif args[:1] == ["judge"] and len(args) >= 3:
        judge(args[1], args[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
