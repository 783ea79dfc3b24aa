#!/usr/bin/env python3
"""The positions of a PGN's games, one FEN a line, for any variant pyffish
knows (`pip install pyffish`): say, fers's games against Fairy-Stockfish
from `fers-match -pgnout`, to be labelled by `label_positions.py` and used
with `eval_vs_labels.py` to judge a network on the positions that matter
(docs/networks.md).

Each game starts from its `FEN` tag (else the variant's start position);
its SAN moves are matched against pyffish's legal moves one by one. The
positions from ply `--from` on are printed (the one after the last move
is not: the game ended there). A move that matches no legal move, or
several, ends that game with a message on stderr.

usage: pgn_fens.py VARIANT GAMES.pgn [--from PLY]
"""
import argparse
import re
import sys

import pyffish as sf


def games(text):
    """(start FEN or None, SAN moves) of each game of a PGN text."""
    for g in text.split("[Event ")[1:]:
        tag = re.search(r'\[FEN "([^"]+)"', g)
        parts = g.split("\n\n", 1)
        body = parts[1] if len(parts) > 1 else ""
        body = re.sub(r"\{[^}]*\}", "", body)
        body = re.sub(r"\d+\.+", "", body)
        sans = [t for t in body.split() if t not in ("1-0", "0-1", "1/2-1/2", "*")]
        yield (tag.group(1) if tag else None), sans


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("pgn")
    ap.add_argument("--from", dest="first", type=int, default=8)
    a = ap.parse_args()
    with open(a.pgn) as f:
        text = f.read()
    for n, (start, sans) in enumerate(games(text)):
        start = start or sf.start_fen(a.variant)
        moves = []
        for ply, san in enumerate(sans):
            cur = sf.get_fen(a.variant, start, moves)
            if ply >= a.first:
                print(cur)
            found = [u for u in sf.legal_moves(a.variant, start, moves)
                     if sf.get_san(a.variant, cur, u) == san]
            if len(found) != 1:
                print(f"game {n + 1}, ply {ply + 1}: '{san}' matches {len(found)} legal moves",
                      file=sys.stderr)
                break
            moves.append(found[0])


if __name__ == "__main__":
    main()
