#!/usr/bin/env python3
"""Gives labelled positions the results of the games they came from.

Usage: add_results.py LABELS OUT SELFPLAY...

LABELS holds `FEN;cp` lines (label_positions.py's output); each SELFPLAY
file holds `FEN;cp;result` lines (`fers-nnue -selfplay`). A position is
known by the first four fields of its FEN (board, side to move, castling,
en passant: the key all.fen is deduplicated by, docs/networks.md), and its
result is the mean over every game it occurred in (1, 0.5 or 0 from
White's view). OUT gets `FEN;cp;result`, the teacher's score kept, for
`fers-nnue -lambda L`; a labelled position found in no game is dropped and
counted."""
import argparse, collections, sys

ap = argparse.ArgumentParser()
ap.add_argument("labels"); ap.add_argument("out"); ap.add_argument("selfplay", nargs="+")
a = ap.parse_args()


def key(fen):
    return " ".join(fen.split()[:4])


# key -> [sum of results, games]
games = collections.defaultdict(lambda: [0.0, 0])
for path in a.selfplay:
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.rstrip("\n").split(";")
            try:
                result = float(fields[2])
            except (IndexError, ValueError):
                result = -1.0
            if not 0.0 <= result <= 1.0:
                sys.exit(f"{path}:{n}: expected FEN;cp;result, found {line.strip()!r}")
            g = games[key(fields[0])]
            g[0] += result
            g[1] += 1

kept = missing = 0
with open(a.labels) as f, open(a.out, "w") as out:
    for line in f:
        fields = line.rstrip("\n").split(";")
        if len(fields) < 2:
            continue
        g = games.get(key(fields[0]))
        if g is None:
            missing += 1
            continue
        out.write(f"{fields[0]};{fields[1]};{g[0] / g[1]:.3g}\n")
        kept += 1
print(f"{a.out}: {kept} positions with results, {missing} found in no game", file=sys.stderr)
