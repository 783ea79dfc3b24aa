#!/usr/bin/env python3
"""Self-play positions of a UCI engine (Fairy-Stockfish by default) in any
variant it knows, each scored by the game's own search: natural positions
of strong play to train a network on (docs/networks.md).

Each game starts with random legal plies (`--random`, 8 by default, drawn
with `--seed`), then the engine plays itself at `--nodes` a move until the
game ends, 260 plies pass, or the score stays beyond 1000 cp (or a mate)
for four moves. For every position searched after the random plies whose
best move is quiet (lands on an empty square, no promotion or drop) and
whose score is not a mate nor beyond 3000 cp, one line `FEN;cp` is
written, cp from White's view: the format `fers-nnue` trains on. The
positions and their FENs come from pyffish (`pip install pyffish`).

usage: engine_selfplay.py OUT GAMES [--variant NAME] [--nodes N]
       [--random R] [--seed S] [--engine PATH]
"""
import argparse
import random
import re
import subprocess
import sys

import pyffish as sf

MOVE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)$")


def occupied(fen):
    """The occupied squares of a FEN's board, as (file, rank) pairs."""
    occ = set()
    for r, row in enumerate(reversed(fen.split()[0].split('/'))):
        f = 0
        for t in re.findall(r"\d+|.", row):
            if t.isdigit():
                f += int(t)
            elif t.isalpha():
                occ.add((f, r))
                f += 1
    return occ


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("games", type=int)
    ap.add_argument("--variant", default="capablanca")
    ap.add_argument("--nodes", type=int, default=6000)
    ap.add_argument("--random", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    eng = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, bufsize=1)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    send("uci")
    send(f"setoption name UCI_Variant value {a.variant}")
    send("setoption name Hash value 16")
    send("setoption name Threads value 1")
    send("isready")
    for line in eng.stdout:
        if line.startswith("readyok"):
            break
    start = sf.start_fen(a.variant)
    kept = 0
    with open(a.out, "w") as out:
        for g in range(a.games):
            moves = []
            for _ in range(a.random):
                legal = sf.legal_moves(a.variant, start, moves)
                if not legal:
                    break
                moves.append(rng.choice(legal))
            if not sf.legal_moves(a.variant, start, moves):
                continue
            send("ucinewgame")
            decided = 0
            while len(moves) < 260:
                send(f"position startpos moves {' '.join(moves)}")
                send(f"go nodes {a.nodes}")
                score, best = None, None
                for line in eng.stdout:
                    if line.startswith("info") and " score " in line:
                        t = line.split()
                        k = t.index("score")
                        score = (t[k + 1], int(t[k + 2]))
                    elif line.startswith("bestmove"):
                        best = line.split()[1]
                        break
                if best is None or best == "(none)":
                    break
                decided = decided + 1 if score and (score[0] == "mate" or abs(score[1]) > 1000) else 0
                if decided >= 4:
                    break
                fen = sf.get_fen(a.variant, start, moves)
                m = MOVE.match(best)
                if (score and score[0] == "cp" and abs(score[1]) <= 3000 and m
                        and (ord(m.group(3)) - 97, int(m.group(4)) - 1) not in occupied(fen)):
                    cp = score[1] if fen.split()[1] == "w" else -score[1]
                    out.write(f"{fen};{cp}\n")
                    kept += 1
                moves.append(best)
            out.flush()
            print(f"\rgame {g + 1}/{a.games}, {kept} positions", end="", file=sys.stderr, flush=True)
    send("quit")
    eng.wait()
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
