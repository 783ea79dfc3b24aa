#!/usr/bin/env python3
"""Stockfish-labelled positions from the games of a PGN file, for `fers-tune`.

Positions from fers' own games (against Stockfish, say) show the evaluation
the kind of position it steers into, which self-play of another engine does
not. Writes `FEN;score` (White's side, centipawns) for every position whose
best move at the given depth is quiet and whose side to move is not in check.

    label_pgn.py GAMES.pgn OUT [--part K --parts N] [--depth D]
"""
import argparse

import chess
import chess.engine
import chess.pgn

ap = argparse.ArgumentParser()
ap.add_argument("pgn")
ap.add_argument("out")
ap.add_argument("--part", type=int, default=0)
ap.add_argument("--parts", type=int, default=1)
ap.add_argument("--depth", type=int, default=7)
ap.add_argument("--stockfish", default="/usr/games/stockfish")
a = ap.parse_args()

eng = chess.engine.SimpleEngine.popen_uci(a.stockfish)
eng.configure({"Threads": 1, "Hash": 16})
with open(a.pgn) as f, open(a.out, "a") as out:
    n = 0
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        n += 1
        if n % a.parts != a.part:
            continue
        b = g.board()
        for mv in g.mainline_moves():
            if not b.is_check():
                info = eng.analyse(b, chess.engine.Limit(depth=a.depth))
                pv = info.get("pv") or []
                score = info["score"].white()
                if pv and not score.is_mate() and abs(score.score()) <= 2500:
                    best = pv[0]
                    if not b.is_capture(best) and best.promotion is None:
                        out.write(f"{b.fen()};{score.score()}\n")
            b.push(mv)
        out.flush()
eng.quit()
