#!/usr/bin/env python3
"""fers through python-chess's XBoard client against fers through UCI.

Usage: xboard_game.py <fers binary> [games] [seconds+inc]

Plays full chess games between `fers` driven over XBoard/CECP
(chess.engine.popen_xboard, pondering) and `fers` over UCI, and fails (exit status 1)
on any illegal move, engine error, loss on time, or game that does not end
by the rules. Exit status 3 means python-chess is missing (the caller
skips). Prints one line per game and a summary.
"""

import logging
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover
    print("python-chess is not installed (pip install chess)")
    sys.exit(3)

OPENINGS = [
    chess.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
]


class Errors(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    tc = sys.argv[3] if len(sys.argv) > 3 else "2+0.05"
    base, _, inc = tc.partition("+")
    base, inc = float(base), float(inc or 0)

    errors = Errors()
    logging.getLogger("chess.engine").addHandler(errors)
    problems = []
    xb = chess.engine.SimpleEngine.popen_xboard(binary)
    uci = chess.engine.SimpleEngine.popen_uci(binary)
    try:
        xb.configure({"memory": 8})
        uci.configure({"Hash": 8})
        for g in range(games):
            board = chess.Board(OPENINGS[g % len(OPENINGS)])
            xb_white = g % 2 == 0
            clock = {chess.WHITE: base, chess.BLACK: base}
            result = None
            while not board.is_game_over(claim_draw=True) and board.ply() < 300:
                side = board.turn
                eng = xb if (side == chess.WHITE) == xb_white else uci
                limit = chess.engine.Limit(
                    white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                    white_inc=inc, black_inc=inc)
                t0 = time.monotonic()
                # The XBoard engine ponders (python-chess sends `hard`).
                r = eng.play(board, limit, info=chess.engine.INFO_ALL, game=g, ponder=eng is xb)
                clock[side] -= time.monotonic() - t0
                if clock[side] < 0:
                    who = "xboard" if eng is xb else "uci"
                    if clock[side] < -1.0:
                        problems.append(f"game {g + 1}: {who} lost on time ({clock[side]:.3f}s)")
                        result = "time"
                        break
                    print(f"WARNING game {g + 1}: {who} over time by {-clock[side]:.3f}s")
                    clock[side] = 0.0
                clock[side] += inc
                if r.move is None or r.move not in board.legal_moves:
                    problems.append(f"game {g + 1}: illegal move {r.move} in {board.fen()}")
                    result = "illegal"
                    break
                board.push(r.move)
            if result is None:
                out = board.outcome(claim_draw=True)
                result = out.result() + " " + out.termination.name.lower() if out else "unfinished"
            who = "xboard=white" if xb_white else "xboard=black"
            print(f"game {g + 1} ({who}): {result} after {board.ply()} plies", flush=True)
    finally:
        for e in (xb, uci):
            try:
                e.quit()
            except Exception as ex:  # a crash shows here
                problems.append(f"quit: {ex}")
    problems += ["python-chess: " + m for m in errors.messages]
    for p in problems:
        print("PROBLEM:", p)
    print("OK" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
