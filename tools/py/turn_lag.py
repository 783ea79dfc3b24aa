#!/usr/bin/env python3
"""Who sees a lost game first: for each game the named engine lost in a
fers-match PGN, the first move where the opponent's own score reached
+1.5 and the first where the engine's reached -1.5 (scores from the move
comments, "{+0.37/15 0.423s}", each for its mover). Prints, for the losses
where both happened, the lag in the engine's moves (positive: the
opponent saw it first), the move number where the opponent first saw it,
and the engine's score at its next move; then the median lag.

usage: turn_lag.py GAMES.pgn ENGINE"""
import re
import statistics
import sys

from clock_check import games  # the PGN split into games (this directory)

COMMENT = re.compile(r"\{([+-]?[\d.]+|[+-]?M\d+)/(\d+) ([\d.]+)s\}")


def score(text):
    """A comment's score in pawns; mates as +/-99."""
    try:
        return float(text)
    except ValueError:
        return -99.0 if text.startswith("-") else 99.0


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    text = open(sys.argv[1], encoding="utf-8").read()
    engine = sys.argv[2]
    lags = []
    losses = 0
    for game in games(text):
        white = re.search(r'\[White "([^"]*)"\]', game)
        black = re.search(r'\[Black "([^"]*)"\]', game)
        result = re.search(r'\[Result "([^"]+)"\]', game)
        if not (white and black and result) or engine not in (white.group(1), black.group(1)):
            continue
        # Comments alternate from the side to move of the FEN (White without one).
        fen = re.search(r'\[FEN "([^"]*)"\]', game)
        first_white = not fen or fen.group(1).split()[1] == "w"
        engine_white = white.group(1) == engine
        if result.group(1) != ("0-1" if engine_white else "1-0"):
            continue
        losses += 1
        ours = 0 if engine_white == first_white else 1
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        opp_at = ours_at = ours_then = None
        for i, (s, _, _) in enumerate(COMMENT.findall(body)):
            mine = i % 2 == ours
            v = score(s)
            if not mine and opp_at is None and v >= 1.5:
                opp_at = i
            if mine and opp_at is not None and ours_then is None:
                ours_then = v
            if mine and ours_at is None and v <= -1.5:
                ours_at = i
        if opp_at is not None and ours_at is not None:
            lags.append(((ours_at - opp_at) // 2, opp_at // 2 + 1, ours_then))
    lags.sort()
    print(f"{losses} losses, {len(lags)} where both crossed: (lag, move, {engine}'s score then)")
    print(lags)
    if lags:
        print("median lag", statistics.median(l[0] for l in lags))


if __name__ == "__main__":
    main()
