#!/usr/bin/env python3
"""Replays the clocks of a fers-match PGN from its move comments.

Each move comment ends with the time the move took ("{+0.37/15 0.423s}").
For the named engine, the clock starts at the base time, loses each move's
time and gains the increment after it; a move that drives it below zero
would have lost on time with no margin at all. Prints the smallest clock
seen and any game where it went below zero, then how the engine spent its
clock: the mean seconds and depth a move over each ten of its own moves
(a time manager that spends the clock early plays its middlegame on the
increment, docs/search.md, twenty-seventh session).

usage: clock_check.py GAMES.pgn ENGINE BASE_SECONDS INC_SECONDS
"""
import re
import sys


def games(text):
    for block in re.split(r"\n(?=\[Event )", text):
        if block.strip():
            yield block


def main():
    path, engine, base, inc = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    text = open(path, encoding="utf-8").read()
    worst, n, bad = None, 0, 0
    tens = {}  # ten of the engine's moves -> [moves, seconds, moves with a depth, depths]
    for g in games(text):
        white = re.search(r'\[White "([^"]*)"\]', g)
        black = re.search(r'\[Black "([^"]*)"\]', g)
        if not white or not black:
            continue
        if engine not in (white.group(1), black.group(1)):
            continue
        n += 1
        # Moves alternate from White; with a FEN, the side to move first is
        # read from it.
        fen = re.search(r'\[FEN "([^"]*)"\]', g)
        first = "w" if not fen else fen.group(1).split()[1]
        ours = 0 if (white.group(1) == engine) == (first == "w") else 1
        movetext = g[g.index("\n\n") :] if "\n\n" in g else g
        # "{+0.37/15 0.423s}": the score and depth before the time.
        ours_moves = re.findall(r"\{([^}]*?)([0-9.]+)s\}", movetext)[ours::2]
        times = [float(t) for _, t in ours_moves]
        for i, (head, t) in enumerate(ours_moves):
            row = tens.setdefault(i // 10, [0, 0.0, 0, 0])
            row[0] += 1
            row[1] += float(t)
            depth = re.search(r"/(\d+)\s*$", head)
            if depth:
                row[2] += 1
                row[3] += int(depth.group(1))
        clock = base
        for t in times:
            clock -= t
            if worst is None or clock < worst[0]:
                worst = (clock, g.splitlines()[3] if len(g.splitlines()) > 3 else "")
            if clock < 0:
                bad += 1
                print("below zero:", g.splitlines()[:7])
                break
            clock += inc
    if worst is None:
        print(f"no timed move of {engine}")
        return
    print(f"{n} games of {engine}; lowest clock {worst[0]:.3f}s; {bad} games below zero")
    for ten in sorted(tens):
        m, secs, with_depth, depths = tens[ten]
        depth = f"{depths / with_depth:.1f}" if with_depth else "unknown"
        print(f"moves {10 * ten + 1}-{10 * ten + 10}: {m} moves, {secs / m:.3f}s and depth {depth} a move")


if __name__ == "__main__":
    main()
