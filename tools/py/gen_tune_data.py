#!/usr/bin/env python3
"""Stockfish-labelled positions for `fers-tune`.

Plays games from the 8-move openings with Stockfish at a fixed depth (and a
few random moves for variety), and writes `FEN;score` for every position
whose best move is quiet and whose side to move is not in check; the score
is Stockfish's, in centipawns from White's side.

    gen_tune_data.py START STEP OUT [--seed S] [--random P] [--depth D] [--force]

plays the openings START, START+STEP, ... (run one process per core with
START = 0, 1, ... and STEP = number of processes).

OUT must not exist: a second run would otherwise add its positions to the
first's and the data set would no longer be what its command says. With
--force an existing OUT is truncated first.
"""
import argparse
import os
import random
import sys

ap = argparse.ArgumentParser()
ap.add_argument("start", type=int)
ap.add_argument("step", type=int)
ap.add_argument("out")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--random", type=float, default=0.08, help="chance of a random move")
ap.add_argument("--depth", type=int, default=7)
ap.add_argument("--openings", default="/work/shared/ref/chess/openings-8moves-2000.epd")
ap.add_argument("--stockfish", default="/usr/games/stockfish")
ap.add_argument("--force", action="store_true", help="truncate OUT if it exists")
a = ap.parse_args()

# Checked before anything starts, so a refused run changes nothing.
if os.path.exists(a.out) and not a.force:
    sys.exit(f"gen_tune_data.py: {a.out} exists; remove it or pass --force to overwrite")
out = open(a.out, "w")  # truncates: OUT holds this run's positions only

import chess  # noqa: E402 (after the cheap checks above)
import chess.engine  # noqa: E402

fens = [l.strip() for l in open(a.openings) if l.strip()]
rng = random.Random(a.start + a.seed)
eng = chess.engine.SimpleEngine.popen_uci(a.stockfish)
eng.configure({"Threads": 1, "Hash": 16})
with out as f:
    for gi in range(a.start, len(fens), a.step):
        b = chess.Board(fens[gi])
        for _ in range(240):
            if b.is_game_over(claim_draw=True):
                break
            info = eng.analyse(b, chess.engine.Limit(depth=a.depth))
            pv = info.get("pv") or []
            score = info["score"].white()
            if not pv or score.is_mate() or abs(score.score()) > 2500:
                break
            best = pv[0]
            if not b.is_check() and not b.is_capture(best) and best.promotion is None:
                f.write(f"{b.fen()};{score.score()}\n")
            b.push(rng.choice(list(b.legal_moves)) if rng.random() < a.random else best)
        f.flush()
eng.quit()
